// A writer types continuity slips into a chapter in a real VS Code
// (code-server, in Debian's Chromium) with the quire extension, and the
// Problems panel must list one problem per slip, with its code, at its
// words, and none for the look-alike decoys. The book and the lines to
// type come from the slip book's fixture (QUIRE_SLIPS, written by
// vscode_e2e_test.go from editors/editortest/slips.go).
//
// Prints "time <code> <ms>" for each slip: from its line's last keystroke
// to its problem in the panel, measured, never asserted.
import fs from "node:fs";
import path from "node:path";
import { base, book, editorText, finish, log, need, quickOpen, start, step, waitFor } from "./workbench.mjs";

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
    await page.goto(`${base()}/?folder=${encodeURIComponent(book)}`);
    await waitFor("the explorer listing the book's folders", async () => {
      const t = await page.locator(".explorer-folders-view").textContent({ timeout: 500 });
      return t && t.includes("manuscript") && t.includes("codex");
    });
  });

  await step(page, "open-chapter", async () => {
    await quickOpen(page, chapter);
    await waitFor("the chapter in the editor", async () => {
      const tab = await page.locator(".tab.active").first().textContent({ timeout: 500 });
      return tab?.includes(chapter) && (await editorText(page)).includes("The harbor was quiet.");
    });
    await waitFor("quire's status bar item with the book read", async () => {
      const items = await page.locator("#workbench\\.parts\\.statusbar .statusbar-item").allTextContents();
      return items.some((t) => /quire: \d+ entr(y|ies) · \d+ ch/.test(t));
    });
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
      await page.keyboard.press("Control+G");
      await page.keyboard.type(String(ty.line));
      await page.keyboard.press("Enter");
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
}

let failed = null;
try {
  await main();
} catch (e) {
  failed = e;
}
await finish(failed);
