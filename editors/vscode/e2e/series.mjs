// Two books of one series open as a multi-root workspace in a real VS
// Code (code-server, in Debian's Chromium) with the quire extension: the
// hover cards a writer reads must say where each fact comes from. A name
// only the series defines reads "Series canon" in both books; the name
// book one overrides shows book one's entry there and the series' in
// book two; go to definition opens the series file, and a [[link]] and a
// name there show their cards. One quire serves both books and the
// series file. series_test.go writes the books (editors/editortest's
// TwoSeriesBooks) and passes them in QUIRE_SERIES.
import fs from "node:fs";
import path from "node:path";
import { base, checkBundledServer, log, need, Outcome, quickOpen, start, step, stepTimeout, waitFor, walk } from "./workbench.mjs";

const workspace = need("QUIRE_WORKSPACE");
const books = JSON.parse(fs.readFileSync(need("QUIRE_SERIES"), "utf8"));

// activeText is the rendered text of the active editor's visible lines.
async function activeText(page) {
  const t = await page.evaluate(
    () => document.querySelector(".editor-group-container.active .editor-instance .monaco-editor .view-lines")?.textContent ?? "",
  );
  return t.replace(/\u00a0/g, " ");
}

// openFile opens file by its name with quick open and waits for its tab
// and its text.
async function openFile(page, file, text) {
  const name = path.basename(file);
  await quickOpen(page, name);
  await waitFor(`${name} in the editor`, async () => {
    const tab = await page.locator(".tab.active").first().textContent({ timeout: 500 });
    return tab?.includes(name) && (await activeText(page)).includes(text);
  });
}

// at is the screen position of the middle of name's first characters in
// the active editor, from its rendered line's text node.
function at(page, name) {
  return waitFor(`${name} on screen`, () =>
    page.evaluate((name) => {
      const lines = document.querySelector(".editor-group-container.active .editor-instance .monaco-editor .view-lines");
      if (!lines) {
        return null;
      }
      const walker = document.createTreeWalker(lines, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = n.textContent.replace(/\u00a0/g, " ").indexOf(name);
        if (i >= 0) {
          const r = document.createRange();
          r.setStart(n, i + 1);
          r.setEnd(n, i + 4);
          const b = r.getBoundingClientRect();
          return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
        }
      }
      return null;
    }, name),
  );
}

// unhover moves the mouse off the editor and waits for no hover to show,
// so the next card read is the next name's.
async function unhover(page) {
  await page.mouse.move(5, 5);
  await page.keyboard.press("Escape");
  await waitFor("no hover card on screen", async () => (await page.locator(".monaco-hover:visible").count()) === 0);
}

// card hovers name in the active editor and returns the text of the
// card that names it and holds every string of want; a card holding any
// of absent fails at once.
async function card(page, name, want, absent = []) {
  await unhover(page);
  // A hover asked before the book is read finds no card, and Monaco does
  // not ask again while the mouse stays on the word: the mouse leaves
  // and comes back every two seconds until a card shows. The name's place
  // is found again each time: a chapter's code lens (its word count),
  // arriving after the text, moves the lines below it down a row.
  let hovered = 0;
  const hover = async () => {
    const pos = await at(page, name);
    await page.mouse.move(pos.x, pos.y - 40);
    await page.mouse.move(pos.x, pos.y, { steps: 5 });
    hovered = Date.now();
  };
  await hover();
  let seen = [];
  const text = await waitFor(`the hover card of ${name} with ${want.map((w) => JSON.stringify(w)).join(", ")}`, async () => {
    const texts = await page.locator(".monaco-hover:visible").allTextContents();
    if (texts.length > 0) {
      seen = texts;
    } else if (Date.now() - hovered > 2000) {
      await hover();
    }
    const t = texts.find((t) => t.includes(name) && want.every((w) => t.includes(w)));
    const bad = t && absent.find((a) => t.includes(a));
    if (bad) {
      throw new Outcome(`the card of ${name} holds ${JSON.stringify(bad)}: ${t}`);
    }
    return t;
  }).catch((e) => {
    e.message += `\nhover cards seen last: ${seen.length ? seen.join(" | ") : "none"}`;
    throw e;
  });
  log(`hover ${name}: ${text.slice(0, 200)}`);
  return text;
}

async function main() {
  const page = await start();

  await step(page, "open-workspace", async () => {
    await page.goto(`${base()}/?workspace=${encodeURIComponent(workspace)}`, { timeout: stepTimeout });
    await waitFor("the explorer listing both books as workspace folders", async () => {
      const rows = await page.locator(".explorer-folders-view .monaco-list-row").allTextContents();
      const names = rows.map((r) => r.trim());
      return names.includes("one") && names.includes("two");
    });
  });

  await step(page, "book-one-series", async () => {
    await openFile(page, books.ChapterOne, "Oren Tull lit the lamps");
    await card(page, "Ilse Dorn", [books.SeriesOnly, "Series canon"]);
  });

  await step(page, "book-two-series", async () => {
    await openFile(page, books.ChapterTwo, "still met Oren Tull");
    await card(page, "Ilse Dorn", [books.SeriesOnly, "Series canon"]);
  });

  await step(page, "book-one-override", async () => {
    await openFile(page, books.ChapterOne, "Oren Tull lit the lamps");
    await card(page, "Oren Tull", [books.BookOneOren, "This book's entry over the series canon"], [books.SeriesOren]);
  });

  await step(page, "book-two-no-override", async () => {
    await openFile(page, books.ChapterTwo, "still met Oren Tull");
    await card(page, "Oren Tull", [books.SeriesOren, "Series canon"], [books.BookOneOren]);
  });

  await step(page, "definition", async () => {
    await unhover(page);
    const pos = await at(page, "Ilse Dorn");
    await page.mouse.click(pos.x, pos.y);
    await page.keyboard.press("F12");
    await waitFor("the series file of Ilse Dorn in the editor", async () => {
      const tab = await page.locator(".tab.active").first().textContent({ timeout: 500 });
      return tab?.includes(path.basename(books.SeriesFile)) && (await activeText(page)).includes("Ilse keeps the harbor");
    });
    const crumbs = await page.locator(".editor-group-container.active .breadcrumbs-control").first().textContent();
    log(`definition opened: ${crumbs}`);
  });

  await step(page, "series-file-hover", async () => {
    // The series file answers from book one, the first open book (in the
    // workspace's order) that reads the series, though the writer came
    // from book two: its [[Mara Vell]] shows book one's entry, and the
    // name Ilse Dorn her card as series canon.
    await card(page, "Mara Vell", ["Smuggler who never sails twice."]);
    await card(page, "Ilse Dorn", [books.SeriesOnly, "Series canon"]);
  });

  // One client and one server for the whole window, the one the
  // extension carries.
  await step(page, "one-quire", async () => {
    checkBundledServer();
  });
}

await walk(main);
