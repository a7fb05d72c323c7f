// A writer deletes a paragraph of a chapter of the sample book in a real
// VS Code (code-server, in Debian's Chromium), saves, and finds it again:
// "quire: Compare with Snapshot…" lists the chapter's versions and opens
// the older one in the diff editor, read-only on the left with the lost
// paragraph; "quire: Restore Snapshot…" puts it back in the chapter, an
// unsaved edit. Screenshots of the diff and of the restored chapter are
// artefacts.
import { bookRead, editorText, goToLine, need, openBook, openChapter, Outcome, runCommand, save, shot, start, step, waitFor, walk } from "./workbench.mjs";

const chapter = "01-thirteen-strokes.md";
const lost = need("QUIRE_PARAGRAPH");
const line = Number(need("QUIRE_LINE"));

// versionRows are the rows of the quick pick titled title, once it is
// the one open (not the command palette it was run from).
async function versionRows(page, title) {
  const widget = page.locator(".quick-input-widget");
  const heading = (await widget.locator(".quick-input-title").textContent({ timeout: 500 }).catch(() => "")) ?? "";
  if (!heading.includes(title)) {
    return [];
  }
  return widget.locator(".monaco-list-row").allTextContents();
}

// pickSecond chooses the second row of the quick pick titled title: the
// version before the one just saved.
async function pickSecond(page, title) {
  let rows = [];
  await waitFor(`two versions in the "${title}" pick`, async () => (rows = await versionRows(page, title)).length >= 2);
  console.log(`versions: ${JSON.stringify(rows)}`);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
}

async function main() {
  const page = await start({});

  await step(page, "open-book", async () => {
    await openBook(page);
    await openChapter(page, chapter, "Thirteen Strokes");
    await bookRead(page);
  });

  await step(page, "delete-and-save", async () => {
    await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
    await goToLine(page, line);
    await page.keyboard.press("Home");
    await page.keyboard.down("Shift");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.up("Shift");
    await page.keyboard.press("Delete");
    await save(page, "the chapter saved without the paragraph", async () =>
      !(await editorText(page)).includes(lost.slice(0, 40)) && (await page.locator(".tab.active.dirty").count()) === 0,
    );
  });

  await step(page, "compare", async () => {
    // The save is kept in the background: the list has it once it shows
    // two versions.
    await waitFor("two versions of the chapter", async () => {
      await runCommand(page, "quire: Compare with Snapshot…");
      let rows = [];
      try {
        await waitFor("the versions' pick", async () => (rows = await versionRows(page, "Compare with Snapshot")).length >= 1, 5000);
      } catch {
        await page.keyboard.press("Escape");
        return false;
      }
      if (rows.length >= 2) {
        return true;
      }
      await page.keyboard.press("Escape");
      return false;
    });
    await pickSecond(page, "Compare with Snapshot");
    const diff = page.locator(".monaco-diff-editor").first();
    await waitFor("the diff editor with the lost paragraph on the left", async () => {
      if (!(await diff.isVisible())) {
        return false;
      }
      const left = (await diff.locator(".editor.original .view-lines").first().textContent({ timeout: 500 })) ?? "";
      return left.replace(/\u00a0/g, " ").includes(lost.slice(0, 40));
    });
    const tab = (await page.locator(".tab.active").first().textContent()) ?? "";
    if (!tab.includes("snapshot")) {
      throw new Outcome(`the diff's tab does not say it shows a snapshot: ${tab}`);
    }
    await shot(page, "snapshot-diff");
  });

  await step(page, "restore", async () => {
    await page.keyboard.press("Control+W");
    await openChapter(page, chapter, "Thirteen Strokes");
    await runCommand(page, "quire: Restore Snapshot…");
    await pickSecond(page, "Restore Snapshot");
    await waitFor("the paragraph back in the chapter, unsaved", async () =>
      (await editorText(page)).includes(lost.slice(0, 40)) && (await page.locator(".tab.active.dirty").count()) === 1,
    );
    await shot(page, "snapshot-restored");
  });
}

await walk(main);
