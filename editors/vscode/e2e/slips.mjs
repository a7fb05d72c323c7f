// A writer types continuity slips into a chapter in a real VS Code
// (code-server, in Debian's Chromium) with the quire extension, and the
// Problems panel must list one problem per slip, with its code, at its
// words, and none for the look-alike decoys. The book and the lines to
// type come from the slip book's fixture (QUIRE_SLIPS, written by
// vscode_e2e_test.go from editors/editortest/slips.go).
//
// Once all is typed, the writer applies the fixture's quick fix from the
// quick fix menu (Ctrl+.), which must offer every fix of fixture.fix:
// the line then reads the fix's After, on screen and on disk once saved,
// and the panel lists the other slips and no longer the fixed one.
//
// Prints "time <code> <ms>" for each slip: from its line's last keystroke
// to its problem in the panel, measured, never asserted.
import fs from "node:fs";
import path from "node:path";
import {
  actionMenu,
  bookRead,
  editorLine,
  editorText,
  goToLine,
  log,
  need,
  openBook,
  openChapter,
  Outcome,
  pickAction,
  save,
  shot,
  sleep,
  start,
  statusItems,
  step,
  waitFor,
  walk,
} from "./workbench.mjs";

const fixture = JSON.parse(fs.readFileSync(need("QUIRE_SLIPS"), "utf8"));
const chapter = path.basename(fixture.chapter);

// problems are the rows of the Problems panel that are problems (not the
// file's row, nor the rows of a problem's related information, which
// name no source), as their text: the message, then the source and code
// (the panel draws the parentheses around the code with CSS), then the
// position.
async function problems(page) {
  const rows = await page.locator(".markers-panel .monaco-list-row").allTextContents();
  return rows.map((t) => t.replace(/\u00a0/g, " ")).filter((t) => /quire\(?[a-z-]+\)?\[Ln \d+, Col \d+\]$/.test(t));
}

// shows reports whether row is the slip s: its code, and its words'
// start as VS Code counts columns (UTF-16 units, from 1).
const shows = (row, s) =>
  new RegExp(`quire\\(?${s.code}\\)?\\[Ln ${s.line + 1}, Col ${s.utf16Col + 1}\\]$`).test(row);

// exactly reports whether the panel lists the slips want and nothing else.
async function exactly(page, want) {
  const rows = await problems(page);
  return rows.length === want.length && want.every((s) => rows.some((r) => shows(r, s)));
}

async function main() {
  const page = await start();

  await step(page, "open-book", async () => {
    await openBook(page);
  });

  await step(page, "open-chapter", async () => {
    await openChapter(page, chapter, "The harbor was quiet.");
    await bookRead(page);
  });

  await step(page, "clean", async () => {
    // The Problems panel, open beside the chapter while the writer types.
    await page.keyboard.press("Control+Shift+M");
    await waitFor("the Problems panel", () => page.locator(".markers-panel").first().isVisible());
    await new Promise((r) => setTimeout(r, 1500));
    const rows = await problems(page);
    if (rows.length > 0) {
      throw new Error(`problems on the clean chapter: ${rows.join(" | ")}`);
    }
  });

  await step(page, "type", async () => {
    const want = [];
    for (const ty of fixture.typed) {
      // Back in the chapter: go to the line before the new one's place,
      // to its end, and open a line there.
      await page.keyboard.press("Control+1");
      await goToLine(page, ty.line);
      await page.keyboard.press("End");
      await page.keyboard.press("Enter");
      await page.keyboard.type(ty.text, { delay: 5 });
      const typed = Date.now();
      const slip = fixture.slips.find((s) => s.line === ty.line);
      if (slip) {
        want.push(slip);
      }
      await waitFor(`the problems after typing line ${ty.line + 1} (${want.map((s) => s.code).join(", ")})`, () =>
        exactly(page, want),
      );
      if (slip) {
        log(`time ${slip.code} ${Date.now() - typed} ms`);
      }
    }
  });

  await step(page, "problems", async () => {
    // A second on, the panel still lists the slips and nothing else.
    await new Promise((r) => setTimeout(r, 1000));
    const text = (await editorText(page)).replace(/\s+/g, " ");
    for (const ty of fixture.typed) {
      if (!text.includes(ty.text)) {
        throw new Error(`the editor does not show the typed line ${JSON.stringify(ty.text)}`);
      }
    }
    if (!(await exactly(page, fixture.slips))) {
      throw new Error(`the Problems panel lists: ${(await problems(page)).join(" | ")}`);
    }
    for (const row of await problems(page)) {
      log(`problem: ${row}`);
    }
  });

  await step(page, "fix", async () => {
    const fix = fixture.fix;
    const slip = fixture.slips.find((s) => s.code === fix.code && s.line === fix.line);
    if (!slip) {
      throw new Error(`no ${fix.code} slip on line ${fix.line + 1} in the fixture`);
    }
    const others = fixture.slips.filter((s) => s !== slip);
    // The writer selects the slip's words (go to the line, then across
    // them) and asks for the quick fixes there; the status bar shows the
    // selection, so the menu is asked for at the words.
    await page.keyboard.press("Control+1");
    await goToLine(page, fix.line + 1);
    await page.keyboard.press("Home");
    for (let i = 0; i < slip.charCol; i++) {
      await page.keyboard.press("ArrowRight");
    }
    for (let i = slip.charCol; i < slip.charEnd; i++) {
      await page.keyboard.press("Shift+ArrowRight");
    }
    const at = `Ln ${fix.line + 1}, Col ${slip.utf16End + 1} (${slip.utf16End - slip.utf16Col} selected)`;
    await waitFor(`the selection of ${JSON.stringify(slip.words)} (${at})`, async () =>
      (await statusItems(page)).some((t) => t.trim() === at),
    );

    // Ctrl+. opens the quick fix menu, which must offer every fix.
    await page.keyboard.press("Control+.");
    const menu = await waitFor(`the offered fixes ${fix.offered.join(", ")} in the quick fix menu`, async () => {
      const m = await actionMenu(page);
      return m && fix.offered.every((o) => m.titles.includes(o)) ? m : null;
    });
    log(`quick fix menu: ${menu.titles.join(" | ")}`);
    await shot(page, "fix-menu");
    const picked = Date.now();
    await pickAction(page, fix.title);

    // An edit of the buffer: the line reads the fix's After, the slip's
    // problem goes and the others stay. Until the edit comes the line
    // reads as typed; any other text is a wrong edit, which waiting will
    // not mend.
    const lines = fixture.final.split("\n");
    const typed = lines[fix.line];
    await waitFor(`line ${fix.line + 1} reading ${JSON.stringify(fix.after)}`, async () => {
      const line = await editorLine(page, fix.line + 1);
      if (line !== null && line !== typed && line !== fix.after) {
        throw new Outcome(`line ${fix.line + 1} reads ${JSON.stringify(line)}, not ${JSON.stringify(fix.after)}`);
      }
      return line === fix.after;
    });
    await waitFor(`the problems without ${fix.code} (${others.map((s) => s.code).join(", ")})`, () => exactly(page, others));
    log(`fixed in ${Date.now() - picked} ms`);

    // Saved, the chapter on disk is the typed one with the fixed line.
    lines[fix.line] = fix.after;
    const saved = lines.join("\n");
    await page.keyboard.press("Control+1");
    await save(page, "the fixed chapter on disk", () => {
      const disk = fs.readFileSync(fixture.chapter, "utf8");
      if (disk !== saved) {
        // The last of these is in the timeout's message.
        throw new Error(`the chapter on disk reads ${JSON.stringify(disk)}`);
      }
      return true;
    });
    // A second on, still the other slips and nothing else.
    await sleep(1000);
    if (!(await exactly(page, others))) {
      throw new Error(`after the fix was saved, the Problems panel lists: ${(await problems(page)).join(" | ")}`);
    }
  });
}

await walk(main);
