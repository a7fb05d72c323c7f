// A writer opens a chapter of the sample book in a real VS Code
// (code-server, in Debian's Chromium) with the quire extension: its
// dialogue must be drawn in another colour than its narration, and a
// character's name in a third, from quire's semantic tokens; with
// quire.dialogue.speakerHints on, the speaker is drawn before a line no
// tag names ("Teodora Quill?"); hovering a line says who speaks it; the
// quick fix "Teodora Quill speaks this line" writes the speaker line,
// after which the hint says so ("Teodora Quill:"). The screenshot of the
// coloured chapter is an artefact.
import {
  actionMenu,
  bookRead,
  editorLine,
  goToLine,
  openBook,
  openChapter,
  Outcome,
  pickAction,
  start,
  step,
  waitFor,
  walk,
} from "./workbench.mjs";

const chapter = "01-thirteen-strokes.md";

// colours are the rendered colour of each piece of line n's text (the
// spans Monaco draws a line's tokens in), as [text, colour] pairs.
async function colours(page, n) {
  return page.evaluate((n) => {
    const editor = document.querySelector(".editor-group-container.active .editor-instance .monaco-editor");
    if (!editor) {
      return null;
    }
    const number = [...editor.querySelectorAll(".margin-view-overlays .line-numbers")].find((e) => e.textContent.trim() === String(n));
    if (!number) {
      return null;
    }
    const top = number.getBoundingClientRect().top;
    const line = [...editor.querySelectorAll(".view-lines .view-line")].find((e) => Math.abs(e.getBoundingClientRect().top - top) < 1);
    if (!line) {
      return null;
    }
    return [...line.querySelectorAll("span > span")].map((s) => [s.textContent.replace(/\u00a0/g, " "), getComputedStyle(s).color, getComputedStyle(s).fontStyle]);
  }, n);
}

const colourOf = (pieces, text) => pieces?.find(([t]) => t.includes(text))?.[1];

async function main() {
  const page = await start({ "quire.dialogue.speakerHints": true });

  await step(page, "open-book", async () => {
    await openBook(page);
  });

  await step(page, "open-chapter", async () => {
    await openChapter(page, chapter, "Thirteen Strokes");
    await bookRead(page);
  });

  // Line 34: “Thirteen,” said Moss. — dialogue, narration, a name.
  await step(page, "colours", async () => {
    await goToLine(page, 34);
    let pieces;
    await waitFor("the dialogue, the tag and the name in three colours", async () => {
      pieces = await colours(page, 34);
      const speech = colourOf(pieces, "Thirteen");
      const tag = colourOf(pieces, "said");
      const name = colourOf(pieces, "Moss");
      return speech && tag && name && speech !== tag && name !== tag && name !== speech;
    });
    console.log(`colours of line 34: ${JSON.stringify(pieces)}`);
  });

  // Line 20: “Someone has to carry paper.” — turn-taking, a guess.
  await step(page, "speaker-hint", async () => {
    await goToLine(page, 20);
    await waitFor("the speaker hint before the guessed line", async () => {
      const line = await editorLine(page, 20);
      return line !== null && line.indexOf("Teodora Quill?") >= 0 && line.indexOf("Teodora Quill?") < line.indexOf("Someone has to carry paper.");
    });
    const pieces = await colours(page, 20);
    console.log(`line 20: ${JSON.stringify(pieces)}`);
    const guess = pieces.find(([t]) => t.includes("carry paper"));
    if (!guess || guess[2] !== "italic") {
      throw new Outcome(`the guessed line is not italic: ${JSON.stringify(pieces)}`);
    }
  });

  await step(page, "hover", async () => {
    await goToLine(page, 34);
    // The token's own span: the line's span around it would be hovered
    // at its middle, on the tag.
    const target = page.locator(".editor-group-container.active .view-line span > span", { hasText: "“Thirteen,”" }).first();
    let shown = "";
    await waitFor("who speaks the line, in the hover", async () => {
      await page.mouse.move(0, 0);
      await target.hover();
      await page.waitForTimeout(800);
      shown = (await page.locator(".monaco-hover:visible").allTextContents()).join(" ");
      return shown?.includes("Moss Kettering speaks.") && shown.includes("said Moss");
    });
    console.log(`hover: ${shown}`);
  });

  // The guessed line settled from the quick fix menu (Ctrl+.): the writer
  // puts the cursor in the line, picks quire's guess, and the editor
  // writes the speaker line; the hint then says the writer said so.
  await step(page, "settle", async () => {
    await page.keyboard.press("Control+1");
    await goToLine(page, 20);
    await page.keyboard.press("Home");
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("ArrowRight");
    }
    const title = "Teodora Quill speaks this line";
    await page.keyboard.press("Control+.");
    const menu = await waitFor(`${JSON.stringify(title)} in the quick fix menu`, async () => {
      const m = await actionMenu(page);
      return m && m.titles.includes(title) ? m : null;
    });
    console.log(`quick fix menu: ${menu.titles.join(" | ")}`);
    await pickAction(page, title);
    await waitFor("the speaker line written, and the hint that says so", async () => {
      const line = await editorLine(page, 20);
      return line !== null && line.includes("<!-- speaker: Teodora Quill -->") && line.includes("Teodora Quill:") && !line.includes("Teodora Quill?");
    });
    console.log(`line 20: ${await editorLine(page, 20)}`);
  });
}

await walk(main);
