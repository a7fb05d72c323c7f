// A writer installs the universal .vsix (it carries no server) on a
// computer with no quire on PATH and opens a book: VS Code must say what
// happened and what to do, with buttons that open the download page and
// the setting, and the status bar must say quire is not running.
// noserver_test.go packages the universal .vsix; workbench.mjs hides any
// quire from code-server's PATH.
import { expectConsoleError, log, openBook, openChapter, quireServes, start, step, waitFor, walk } from "./workbench.mjs";

const notFound = "quire cannot start: this copy of the extension carries no quire program for your system, and none was found on PATH.";

// toast is quire's error notification, once it shows.
const toast = (page) => page.locator(".notifications-toasts .notification-toast", { hasText: "quire cannot start" }).first();

async function main() {
  // The workbench logs the message below to the console as well.
  expectConsoleError(/^quire cannot start: this copy of the extension carries no quire program/);
  const page = await start();

  await step(page, "open-book", async () => {
    await openBook(page);
    await openChapter(page, "01-thirteen-strokes.md", "The Night Count");
  });

  await step(page, "not-found-message", async () => {
    const t = await waitFor("quire's message that it cannot start", async () => {
      const el = toast(page);
      return (await el.isVisible()) ? (await el.locator(".notification-list-item-message").innerText()).replace(/\u00a0/g, " ") : null;
    });
    log(`message: ${t}`);
    if (!t.includes(notFound) || !t.includes("quire releases page") || /go install/.test(t)) {
      throw new Error(`the message reads: ${t}`);
    }
    const buttons = (await toast(page).locator(".monaco-button").allTextContents()).map((b) => b.trim());
    log(`buttons: ${buttons.join(" | ")}`);
    for (const want of ["Open download page", "Open settings", "Retry"]) {
      if (!buttons.includes(want)) {
        throw new Error(`no "${want}" button on the message (buttons: ${buttons.join(", ")})`);
      }
    }
    const status = await waitFor("the status bar saying quire is not running", async () => {
      const items = await page.locator("#workbench\\.parts\\.statusbar .statusbar-item").allTextContents();
      return items.find((s) => s.includes("quire: not running"));
    });
    log(`status bar: ${status.trim()}`);
    const serves = quireServes();
    if (serves.length > 0) {
      throw new Error(`a quire serve runs though none should be found: ${JSON.stringify(serves)}`);
    }
  });

  await step(page, "open-settings", async () => {
    await toast(page).locator(".monaco-button", { hasText: "Open settings" }).click();
    // In code-server, a remote window, on the Remote tab (settingsCommand).
    await waitFor("the Settings editor at quire.serverPath", async () => {
      const tab = await page.locator(".tab.active").first().textContent({ timeout: 500 });
      const body = await page.locator("#workbench\\.parts\\.editor").innerText({ timeout: 500 });
      return tab?.includes("Settings") && body.includes("Server Path") && body.includes("instead of the one that comes with the extension");
    });
  });
}

await walk(main);
