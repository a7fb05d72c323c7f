// What the browser tests of the extension share: code-server (a real VS
// Code) with the .vsix installed, started with the test's settings, Debian's
// Chromium driven by playwright-core, and the steps' helpers. A test
// script (run.mjs, slips.mjs) calls start, runs its steps and ends with
// finish. vscode_e2e_test.go passes the files in the environment.
//
// Every step leaves a screenshot in QUIRE_SHOTS (a failing one is named
// *-FAILED.png), beside code-server's log and the browser console.
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));

export function need(name) {
  const v = process.env[name];
  if (!v) {
    throw new Error(`run.mjs: ${name} is not set (run it through vscode_e2e_test.go)`);
  }
  return v;
}

export const book = need("QUIRE_BOOK");
const vsix = need("QUIRE_VSIX");
const work = need("QUIRE_WORK");
export const shots = need("QUIRE_SHOTS");
const browserPath = need("QUIRE_CHROMIUM");
// Seconds a step may take; the workbench's first load is the slowest.
export const stepTimeout = Number(process.env.QUIRE_STEP_TIMEOUT || 60) * 1000;

const codeServer = path.join(here, "node_modules", "code-server", "out", "node", "entry.js");
const userData = path.join(work, "user-data");
const extensions = path.join(work, "extensions");
fs.mkdirSync(shots, { recursive: true });
fs.mkdirSync(userData, { recursive: true });

const started = Date.now();
export const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A writer's machine has no quire of its own: code-server and everything
// it starts (the extension host, the server) get a PATH without any
// folder that holds a quire, so the extension can only run the one it
// carries. Anything named quire counts, even a file that cannot run.
function pathWithoutQuire() {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter((d) => d !== "");
  const hidden = dirs.filter((d) => fs.existsSync(path.join(d, "quire")));
  if (hidden.length > 0) {
    log(`hiding quire from code-server: left ${hidden.join(", ")} out of PATH`);
  }
  return dirs.filter((d) => !hidden.includes(d)).join(path.delimiter);
}

// The environment code-server runs in: no quire on PATH, nothing that
// names the test's own binary, and not the test's API key.
function codeServerEnv() {
  const env = { ...process.env, PATH: pathWithoutQuire() };
  delete env.QUIRE_BIN;
  // The API key run.mjs types into VS Code reaches the server only
  // through the extension, never through code-server's environment.
  delete env.QUIRE_E2E_KEY;
  for (const d of env.PATH.split(path.delimiter)) {
    if (fs.existsSync(path.join(d, "quire"))) {
      throw new Error(`quire is still on code-server's PATH, in ${d}`);
    }
  }
  return env;
}

// bundledServer is the quire inside the installed extension: its folder
// under the extensions folder, named publisher.name-version-target.
export function bundledServer() {
  const dirs = fs.readdirSync(extensions).filter((d) => d.startsWith("quire-ink.quire-"));
  if (dirs.length !== 1) {
    throw new Error(`the extensions folder holds ${dirs.length} quire extensions (${dirs.join(", ")}), not one`);
  }
  return path.join(extensions, dirs[0], "server", "quire");
}

// quireServes are this test's running quire serve processes (those with
// its XDG_CACHE_HOME: the machine may run other tests' servers), each
// with its pid and the program it runs (its /proc exe link, which names
// the file whatever the name it was started under).
export function quireServes() {
  const found = [];
  const cache = `XDG_CACHE_HOME=${need("XDG_CACHE_HOME")}`;
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (args[1] === "serve" && path.basename(args[0]) === "quire" && fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(cache)) {
        found.push({ pid, exe: fs.readlinkSync(`/proc/${pid}/exe`), argv0: args[0] });
      }
    } catch {
      // a process that ended while we looked
    }
  }
  return found;
}

// checkBundledServer fails unless exactly one quire serve runs and it is
// the binary inside the installed extension.
export function checkBundledServer() {
  const want = bundledServer();
  const serves = quireServes();
  log(`quire serve processes: ${serves.map((s) => `${s.pid} ${s.exe}`).join(", ") || "none"}; bundled: ${want}`);
  if (serves.length !== 1) {
    throw new Error(`${serves.length} quire serve processes, not one: ${JSON.stringify(serves)}`);
  }
  if (serves[0].exe !== want) {
    throw new Error(`the server that runs is ${serves[0].exe}, not the one bundled with the extension (${want})`);
  }
  const mode = fs.statSync(want).mode & 0o777;
  log(`the bundled server ${want} is mode ${mode.toString(8)}`);
}

async function waitForServer() {
  const until = Date.now() + stepTimeout;
  while (Date.now() < until) {
    if (serverExit) {
      throw new Error(serverExit);
    }
    try {
      const r = await fetch(`${base()}/healthz`);
      if (r.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`code-server did not answer on ${base()} within ${stepTimeout / 1000}s`);
}

let server = null;
let serverExit = null;
let port = 0;
let browser = null;
const consoleLines = [];

// base is code-server's address once it started.
export const base = () => `http://127.0.0.1:${port}`;

// start installs the extension, starts code-server with the base settings
// and settings (the test's own), and opens a page of Chromium on it.
export async function start(settings = {}) {
  log("installing the extension into code-server");
  execFileSync(
    process.execPath,
    [codeServer, "--extensions-dir", extensions, "--user-data-dir", userData, "--install-extension", vsix],
    { stdio: ["ignore", "pipe", "pipe"] },
  );

  // code-server reads the user settings when it starts and ignores later
  // edits, so they are written first. Editor settings are trusted, unlike a
  // book's quire.yaml: a test configures its scripted model in settings.
  fs.mkdirSync(path.join(userData, "User"), { recursive: true });
  fs.writeFileSync(
    path.join(userData, "User", "settings.json"),
    JSON.stringify(
      {
        // No quire.serverPath: the extension finds the server it carries.
        ...settings,
        "security.workspace.trust.enabled": false,
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": false,
        "workbench.enableExperiments": false,
        "workbench.colorTheme": "Default Light Modern",
        "telemetry.telemetryLevel": "off",
        "extensions.autoUpdate": false,
        "extensions.autoCheckUpdates": false,
        "extensions.ignoreRecommendations": true,
        "update.mode": "none",
        "chat.disableAIFeatures": true,
        "git.enabled": false,
        // VS Code in the browser saves after a delay by default, the
        // desktop one does not: the test checks an applied proposal waits
        // unsaved in the buffer, as on the desktop.
        "files.autoSave": "off",
        "editor.hover.delay": 200,
        "editor.minimap.enabled": false,
      },
      null,
      2,
    ),
  );

  port = await freePort();
  const serverLog = fs.openSync(path.join(shots, "code-server.log"), "w");
  server = spawn(
    process.execPath,
    [
      codeServer,
      "--bind-addr", `127.0.0.1:${port}`,
      "--auth", "none",
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--disable-getting-started-override",
      "--ignore-last-opened",
      "--user-data-dir", userData,
      "--extensions-dir", extensions,
    ],
    // Its own process group, so that the whole tree it starts (VS Code's
    // server, the extension host, quire serve) is stopped together.
    { env: codeServerEnv(), stdio: ["ignore", serverLog, serverLog], detached: true },
  );
  server.on("exit", (code, signal) => (serverExit = `code-server exited (${signal ?? code})`));

  await waitForServer();
  log(`code-server is up on ${base()}`);
  browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    // Chromium's sandbox needs user namespaces, which containers and root
    // often lack; the page is our own code-server on loopback.
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  watch(page);
  return page;
}

// walk runs a walk's main and then finish, with main's failure if any.
export async function walk(main) {
  let failed = null;
  try {
    await main();
  } catch (e) {
    failed = e;
  }
  await finish(failed);
}

// finish saves the console, stops the browser and code-server, and
// reports: PASS with the steps, or the failure (exit status 1).
async function finish(failed) {
  fs.writeFileSync(path.join(shots, "console.log"), consoleLines.join("\n") + "\n");
  await browser?.close().catch(() => {});
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    // already gone
  }
  await sleep(300);
  if (failed) {
    console.error(failed.stack || String(failed));
    console.error(`passed before the failure: ${passed.join(", ") || "none"}`);
    if (errors.length > 1) {
      console.error(`all errors seen:\n${errors.join("\n")}`);
    }
    process.exit(1);
  }
  log(`PASS: ${passed.join(", ")}`);
}

// --- the browser -----------------------------------------------------------

export const errors = [];

// A console error counts as a failure when it comes from a webview (the
// chat) or is an uncaught exception or names quire; the workbench's own
// complaints about the missing network are only recorded.
function isOurs(msg) {
  const url = msg.location()?.url ?? "";
  const text = msg.text();
  return (
    /webview|vscode-resource|vscode-remote-resource/.test(url) ||
    /\bUncaught\b|TypeError|ReferenceError|SyntaxError/.test(text) ||
    /quire/i.test(text)
  );
}

// Console errors a test expects (the workbench logs every error
// notification to the console: noserver.mjs's message is one), by
// pattern; they are recorded but fail nothing.
const expectedErrors = [];
export function expectConsoleError(pattern) {
  expectedErrors.push(pattern);
}

function watch(page) {
  page.on("pageerror", (e) => {
    errors.push(`uncaught error in the page or a webview: ${e.stack || e.message}`);
  });
  page.on("console", (msg) => {
    const loc = msg.location();
    const line = `${msg.type()}: ${msg.text()} (${loc?.url ?? "?"}:${loc?.lineNumber ?? "?"})`;
    consoleLines.push(line);
    if (msg.type() === "error" && isOurs(msg) && !expectedErrors.some((p) => p.test(msg.text()))) {
      errors.push(`console error: ${line}`);
    }
  });
  page.on("crash", () => errors.push("the page crashed"));
}

// Outcome is a check's verdict that waiting longer cannot change.
export class Outcome extends Error {}

// waitFor polls check until it returns a truthy value, failing at once
// when an error was seen or check throws an Outcome, and after the step's
// timeout otherwise.
export async function waitFor(what, check, timeout = stepTimeout) {
  const until = Date.now() + timeout;
  let last;
  while (Date.now() < until) {
    if (errors.length > 0) {
      throw new Error(`while waiting for ${what}: ${errors[0]}`);
    }
    try {
      const v = await check();
      if (v) {
        return v;
      }
    } catch (e) {
      if (e instanceof Outcome) {
        throw e;
      }
      last = e;
    }
    await sleep(150);
  }
  throw new Error(`timed out after ${timeout / 1000}s waiting for ${what}${last ? ` (last error: ${last.message})` : ""}`);
}

// save presses Ctrl+S in the focused editor until saved() says the
// file took it. Under load code-server has let the keypress go with its
// editor focused and the tab left dirty (a CI run of 2026-11-30), so a
// press that has not saved in a few seconds is pressed again, said in
// the log with what the workbench showed then (the active tabs, the
// unsaved ones, where the focus was, any notification): a second CI run
// that day failed after three presses, and its log could not say why.
// Before pressing again it puts the focus back in the text, as a writer
// whose keypress went nowhere does: refocus when the step gives one,
// else a click on the active tab. A step with a webview open beside the
// text gives its own, for there the active group can be the webview's
// and its tab takes the focus away from the text (a CI run of
// 2026-12-02: the retry focused the book map, where Ctrl+S saves
// nothing). It returns when the press that saved was made.
export async function save(page, what, saved, tries = 3, refocus = null) {
  for (let i = 1; ; i++) {
    const at = Date.now();
    await page.keyboard.press("Control+S");
    try {
      await waitFor(what, saved, i < tries ? 5000 : stepTimeout);
      return at;
    } catch (e) {
      const state = await workbenchState(page);
      if (i >= tries || e instanceof Outcome || errors.length > 0) {
        e.message += `\nthe workbench then: ${state}`;
        throw e;
      }
      if (refocus) {
        log(`${what}: Ctrl+S had not saved after 5 s (${state}); putting the focus back in the text and pressing it again`);
        await refocus().catch((err) => log(`could not put the focus back in the text: ${err.message}`));
        continue;
      }
      log(`${what}: Ctrl+S had not saved after 5 s (${state}); clicking the active tab and pressing it again`);
      await page
        .locator(".editor-group-container.active .tab.active")
        .first()
        .click({ timeout: 2000 })
        .catch((err) => log(`could not click the active tab: ${err.message}`));
    }
  }
}

// workbenchState says, in a line, what the workbench shows: each
// group's active tab, the unsaved tabs, the focused element and the
// notifications' text. It is for a failure's message.
export async function workbenchState(page) {
  try {
    return await page.evaluate(() => {
      const text = (e) => (e?.textContent ?? "").replace(/\s+/g, " ").trim();
      const groups = [...document.querySelectorAll(".editor-group-container")].map(
        (g) => `${g.classList.contains("active") ? "*" : ""}${text(g.querySelector(".tab.active .label-name")) || text(g.querySelector(".tab.active"))}`,
      );
      const dirty = [...document.querySelectorAll(".tab.dirty")].map((t) => text(t.querySelector(".label-name")) || text(t));
      const f = document.activeElement;
      const focus = f ? `${f.tagName.toLowerCase()}.${[...f.classList].join(".")}` : "none";
      const notes = [...document.querySelectorAll(".notification-toast .notification-list-item-message")].map(text);
      return `groups [${groups.join(", ")}], unsaved [${dirty.join(", ")}], focus ${focus}, notifications [${notes.join(" | ")}]`;
    });
  } catch (e) {
    return `unknown (${e.message})`;
  }
}

let shotNumber = 0;
export async function shot(page, name) {
  const file = path.join(shots, `${String(++shotNumber).padStart(2, "0")}-${name}.png`);
  try {
    await page.screenshot({ path: file });
  } catch (e) {
    log(`could not save ${file}: ${e.message}`);
  }
  return file;
}

export const passed = [];
export async function step(page, name, fn) {
  log(`step ${name}`);
  try {
    await fn();
    if (errors.length > 0) {
      throw new Error(errors[0]);
    }
  } catch (e) {
    const file = await shot(page, `${name}-FAILED`);
    // The workbench's DOM (and the chat's) as it was, to see why.
    try {
      fs.writeFileSync(file.replace(/\.png$/, ".html"), await page.content());
      const c = await chatFrame(page);
      if (c) {
        fs.writeFileSync(file.replace(/\.png$/, "-chat.html"), await c.content());
      }
    } catch (err) {
      log(`could not save the DOM: ${err.message}`);
    }
    e.message = `step "${name}" failed: ${e.message}\nscreenshot: ${file}`;
    throw e;
  }
  await shot(page, name);
  passed.push(name);
  log(`ok ${name}`);
}

// The text of every visible editor's rendered lines (only what is on
// screen: Monaco renders the visible lines only, with no-break spaces).
export async function editorText(page) {
  const text = await page.evaluate(() =>
    [...document.querySelectorAll(".editor-instance .monaco-editor .view-lines")].map((e) => e.textContent).join("\n"),
  );
  return text.replace(/\u00a0/g, " ");
}

// editorLine is the text of line n (1-based) in the active editor group's
// editor (a menu may hold the focus), as rendered: the row of the view
// whose top is that of n's line number in the margin (Monaco orders
// neither by line), or null while n is not on screen.
export async function editorLine(page, n) {
  const text = await page.evaluate((n) => {
    const editor = document.querySelector(".editor-group-container.active .editor-instance .monaco-editor");
    if (!editor) {
      return null;
    }
    const number = [...editor.querySelectorAll(".margin-view-overlays .line-numbers")].find(
      (e) => e.textContent.trim() === String(n),
    );
    if (!number) {
      return null;
    }
    const top = number.getBoundingClientRect().top;
    const line = [...editor.querySelectorAll(".view-lines .view-line")].find(
      (e) => Math.abs(e.getBoundingClientRect().top - top) < 1,
    );
    return line ? line.textContent : null;
  }, n);
  return text === null ? null : text.replace(/\u00a0/g, " ");
}

// actionMenu is the open code action menu (Ctrl+. , the lightbulb):
// its rows' titles (headers, keys and descriptions left out) and the
// focused row's, or null when no menu shows.
export async function actionMenu(page) {
  const widget = page.locator(".action-widget").first();
  if (!(await widget.isVisible())) {
    return null;
  }
  const clean = (t) => t.replace(/\u00a0/g, " ").trim();
  const titles = (await widget.locator(".monaco-list-row.action .title").allTextContents()).map(clean);
  const focused = (await widget.locator(".monaco-list-row.action.focused .title").allTextContents()).map(clean);
  return { titles, focused: focused.length === 1 ? focused[0] : null };
}

// pickAction chooses title in the open code action menu with the
// keyboard, as a writer does: the menu does not filter as one types, so
// the focus moves down (from the first row, focused when it opens) until
// it is on title, and Enter applies it.
export async function pickAction(page, title) {
  for (let i = 0; i < 40; i++) {
    const menu = await waitFor("the code action menu", () => actionMenu(page));
    if (menu.focused === title) {
      await page.keyboard.press("Enter");
      return;
    }
    await page.keyboard.press("ArrowDown");
    await sleep(100);
  }
  const menu = await actionMenu(page);
  throw new Error(`the code action menu never focused ${JSON.stringify(title)}; it lists ${JSON.stringify(menu?.titles)}`);
}

// VS Code's Refactor Preview, which opens when an edit asks for
// confirmation (issue 13, item 18: there with the edit unticked).
export const refactorPreview = (page) => page.locator(".bulk-edit-panel").first();

// openQuickInput presses key and types text into the quick input that
// opens, again until the text is in it: a key pressed while a page of the
// workbench (the walkthrough) is still taking the focus can be lost, or
// the input it opened closed by that page, so the writer's gesture is
// repeated rather than waited for.
async function openQuickInput(page, key, text) {
  const input = page.locator(".quick-input-widget input.input");
  const until = Date.now() + stepTimeout;
  for (;;) {
    try {
      await page.keyboard.press(key);
      await input.waitFor({ state: "visible", timeout: 3000 });
      await input.fill(text, { timeout: 3000 });
      if ((await input.inputValue({ timeout: 1000 })) === text && (await input.isVisible())) {
        return input;
      }
    } catch (e) {
      if (Date.now() > until) {
        throw e;
      }
    }
    if (Date.now() > until) {
      throw new Error(`the quick input did not take ${JSON.stringify(text)}`);
    }
    await page.keyboard.press("Escape");
  }
}

export async function quickOpen(page, text) {
  await openQuickInput(page, "Control+P", text);
  // The first row must be the file asked for, not a recent one shown
  // before the search ran.
  const name = text.split("/").pop();
  await waitFor(`the quick open result ${text}`, async () =>
    (await page.locator(".quick-input-widget .monaco-list-row").first().textContent({ timeout: 500 }))?.includes(name),
  );
  await page.keyboard.press("Enter");
}

// statusItems are the status bar items' texts.
export const statusItems = (page) => page.locator("#workbench\\.parts\\.statusbar .statusbar-item").allTextContents();

// openBook loads the workbench on the book's folder, as the writer's
// File > Open Folder does, until the explorer lists its manuscript and
// codex.
export async function openBook(page) {
  await page.goto(`${base()}/?folder=${encodeURIComponent(book)}`, { timeout: stepTimeout });
  await waitFor("the explorer listing the book's folders", async () => {
    const t = await page.locator(".explorer-folders-view").textContent({ timeout: 500 });
    return t && t.includes("manuscript") && t.includes("codex");
  });
}

// openChapter opens a chapter by quick open until its tab is the active
// one and the editor shows text, a line of it.
export async function openChapter(page, chapter, text) {
  await quickOpen(page, chapter);
  const name = chapter.split("/").pop();
  await waitFor("the chapter in the editor", async () => {
    const tab = await page.locator(".tab.active").first().textContent({ timeout: 500 });
    return tab?.includes(name) && (await editorText(page)).includes(text);
  });
}

// bookRead waits for quire's status bar item to count the book's entries
// and chapters, and is its text.
export const bookRead = (page) =>
  waitFor("quire's status bar item with the book read", async () =>
    (await statusItems(page)).find((t) => /quire: \d+ entr(y|ies) · \d+ ch/.test(t)),
  );

// goToLine puts the cursor on line n (from 1), through Go to Line
// (Ctrl+G).
export async function goToLine(page, n) {
  await page.keyboard.press("Control+G");
  await page.keyboard.type(String(n));
  await page.keyboard.press("Enter");
}

export async function runCommand(page, title) {
  // The palette can close again right after it opened, when an editor
  // that was still opening (a walkthrough, a webview) takes the focus:
  // then it is opened again, as a writer would, rather than waited on.
  const row = page.locator(".quick-input-widget .monaco-list-row", { hasText: title }).first();
  const until = Date.now() + stepTimeout;
  for (;;) {
    await openQuickInput(page, "F1", `>${title}`);
    try {
      await waitFor(`the command "${title}" in the palette`, () => row.isVisible(), Math.min(10000, Math.max(1000, until - Date.now())));
      break;
    } catch (e) {
      if (!String(e.message).startsWith("timed out") || Date.now() > until) {
        throw e;
      }
      log(`the palette lost "${title}"; opening it again`);
      await page.keyboard.press("Escape");
    }
  }
  await page.keyboard.press("Enter");
}

// chatFrame finds the chat webview among the page's nested frames by its
// content: its question box.
export async function chatFrame(page) {
  for (const f of page.frames()) {
    try {
      if ((await f.locator("textarea#input[placeholder^='Ask the advisor']").count()) > 0) {
        return f;
      }
    } catch {
      // a frame that went away while we looked
    }
  }
  return null;
}

