// The book map panel's outline edits: the page's edit form, through the
// host the panel gives it, posts {type: "setOutline"}; the panel runs
// quire.setOutline with it and answers the page. The panel itself is
// loaded against a stand-in for the vscode module that records what it
// is asked. With QUIRE_BIN set, the real map of a book goes through the
// same path, and its browser form's command runs against the real quire.
import * as assert from "assert";
import { execFile } from "child_process";
import * as fs from "fs";
import { JSDOM } from "jsdom";
import Module from "module";
import * as os from "os";
import * as path from "path";
import { pathToFileURL } from "url";
import type * as MapPanelModule from "../mapPanel";
import { SetOutlineParams, SetOutlineResult } from "../protocol";
import { standIn } from "./vscodeStandIn";

const bin = process.env.QUIRE_BIN;
const required = process.env.QUIRE_REQUIRE_CONTRACT === "1" || !!process.env.CI;

interface FakeVscode {
  module: unknown;
  // The commands run, with their argument.
  commands: [string, unknown][];
  // What the panel posted to its webview.
  posted: unknown[];
  // The webview's html, once set.
  html(): string;
  // receive hands the panel a message from its webview.
  receive(m: unknown): void;
  answer: (id: string, arg: unknown) => Promise<unknown>;
}

function fakeVscode(): FakeVscode {
  const commands: [string, unknown][] = [];
  const posted: unknown[] = [];
  let html = "";
  let handler: ((m: unknown) => void) | undefined;
  const disposable = { dispose: () => undefined };
  const f: FakeVscode = {
    module: undefined,
    commands,
    posted,
    html: () => html,
    receive: (m) => handler?.(m),
    answer: async () => undefined,
  };
  class EventEmitter<T> {
    private listeners: ((v: T) => void)[] = [];
    event = (l: (v: T) => void) => {
      this.listeners.push(l);
      return disposable;
    };
    fire(v: T): void {
      this.listeners.forEach((l) => l(v));
    }
    dispose(): void {}
  }
  const webview = {
    get html() {
      return html;
    },
    set html(v: string) {
      html = v;
    },
    onDidReceiveMessage: (h: (m: unknown) => void) => {
      handler = h;
      return disposable;
    },
    postMessage: async (m: unknown) => {
      posted.push(m);
      return true;
    },
  };
  const overrides: Record<string, unknown> = {
    EventEmitter,
    ViewColumn: { One: 1, Beside: -2 },
    workspace: { onDidSaveTextDocument: () => disposable },
    window: {
      createWebviewPanel: () => ({ webview, reveal: () => undefined, onDidDispose: () => disposable, dispose: () => undefined }),
      showErrorMessage: async (msg: string) => assert.fail(`the panel showed an error: ${msg}`),
    },
    commands: {
      executeCommand: (id: string, arg: unknown) => {
        commands.push([id, JSON.parse(JSON.stringify(arg))]);
        return f.answer(id, arg);
      },
    },
  };
  f.module = new Proxy(
    {},
    {
      get(_t, p) {
        return typeof p === "string" && p in overrides ? overrides[p] : standIn(`vscode.${String(p)}`);
      },
    },
  );
  return f;
}

/**
 * loadMapPanel loads mapPanel.ts, its vscode the stand-in. The modules
 * loaded for it (the session, the language client) are left out of the
 * module cache again, so that other tests load their own against their
 * own stand-in.
 */
function loadMapPanel(vscode: FakeVscode): typeof MapPanelModule {
  const mod = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
  const load = mod._load;
  const cached = new Set(Object.keys(require.cache));
  mod._load = (req: string, ...rest: unknown[]) => (req === "vscode" ? vscode.module : load(req, ...rest));
  try {
    delete require.cache[require.resolve("../mapPanel")];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("../mapPanel") as typeof MapPanelModule;
  } finally {
    mod._load = load;
    for (const k of Object.keys(require.cache)) {
      if (!cached.has(k)) {
        delete require.cache[k];
      }
    }
  }
}

// The pure parts need no vscode at all; loaded once, against the stand-in.
const pure = loadMapPanel(fakeVscode());

/**
 * loadHosted loads a page as the panel shows it (mapPanelHtml) into
 * jsdom. The webview's API may be acquired once, as in VS Code: a second
 * acquisition throws, and is recorded.
 */
function loadHosted(page: string): { dom: JSDOM; posted: unknown[]; acquired: () => number } {
  const posted: unknown[] = [];
  let acquired = 0;
  let saved: unknown;
  const dom = new JSDOM(pure.mapPanelHtml(page), {
    runScripts: "dangerously",
    pretendToBeVisual: true,
    beforeParse(window) {
      // jsdom lays nothing out; the panel's script keeps the scroll position.
      window.scrollTo = () => undefined;
      (window as unknown as Record<string, unknown>).acquireVsCodeApi = () => {
        acquired++;
        if (acquired > 1) {
          throw new Error("An instance of the VS Code API has already been acquired");
        }
        return {
          postMessage: (m: unknown) => posted.push(JSON.parse(JSON.stringify(m))),
          getState: () => saved,
          setState: (s: unknown) => (saved = s),
        };
      };
    },
  });
  return { dom, posted, acquired: () => acquired };
}

const smallPage = `<!DOCTYPE html><html><head><title>m</title></head><body>
<a id="cell" href="file:///books/bell/manuscript/03-slack-water.md#L22">4</a>
<button id="send" type="button">Set</button>
<script>
document.getElementById("send").addEventListener("click", function () {
  window.quireMapHost.setOutline({ uri: "file:///books/bell/manuscript/03-slack-water.md", scene: 2, synopsis: "Moss sells what the tide left.", status: undefined });
});
</script>
</body></html>`;

describe("book map panel: outline edits", () => {
  it("gives the page a host that posts its edits, sharing the webview's one API with the panel's script", () => {
    const p = loadHosted(smallPage);
    const doc = p.dom.window.document;
    (doc.getElementById("send") as HTMLElement).click();
    (doc.getElementById("cell") as HTMLElement).click();
    assert.strictEqual(p.acquired(), 1, "acquired once, for both scripts");
    assert.deepStrictEqual(p.posted, [
      { type: "setOutline", uri: "file:///books/bell/manuscript/03-slack-water.md", scene: 2, synopsis: "Moss sells what the tide left." },
      { type: "open", path: "/books/bell/manuscript/03-slack-water.md", line: 22 },
    ]);
    assert.ok(pure.isSetOutlineMessage(p.posted[0]));
    // A newer page replaces the body in place (its scripts do not run
    // again): the host stays, for the newer page's form.
    p.dom.window.dispatchEvent(new p.dom.window.MessageEvent("message", { data: { type: "page", html: smallPage, stamp: 3 } }));
    const host = (p.dom.window as unknown as { quireMapHost: { setOutline(r: object): void } }).quireMapHost;
    host.setOutline({ uri: "file:///books/bell/manuscript/01.md", scene: 0, status: "final" });
    assert.deepStrictEqual(p.posted.slice(2), [
      { type: "drawn", stamp: 3 },
      { type: "setOutline", uri: "file:///books/bell/manuscript/01.md", scene: 0, status: "final" },
    ]);
  });

  it("takes only a well-formed edit", () => {
    const ok = { type: "setOutline", uri: "file:///b/manuscript/01.md", scene: 0, status: "draft" };
    assert.ok(pure.isSetOutlineMessage(ok));
    assert.ok(pure.isSetOutlineMessage({ ...ok, status: undefined, synopsis: "" }), "an empty synopsis removes it");
    assert.ok(!pure.isSetOutlineMessage({ ...ok, status: undefined }), "nothing to set");
    assert.ok(!pure.isSetOutlineMessage({ ...ok, scene: -1 }));
    assert.ok(!pure.isSetOutlineMessage({ ...ok, scene: 1.5 }));
    assert.ok(!pure.isSetOutlineMessage({ ...ok, uri: "" }));
    assert.ok(!pure.isSetOutlineMessage({ ...ok, status: 3 }));
    assert.ok(!pure.isSetOutlineMessage({ ...ok, type: "open" }));
    assert.ok(!pure.isSetOutlineMessage(null));
  });

  it("runs quire.setOutline with what changed, and words the outcome for the page", async () => {
    const calls: SetOutlineParams[] = [];
    const answer = (r: SetOutlineResult | undefined | Error) => async (p: SetOutlineParams) => {
      calls.push(p);
      if (r instanceof Error) {
        throw r;
      }
      return r;
    };
    const m = { type: "setOutline" as const, uri: "file:///b/manuscript/03.md", scene: 2, status: "draft" };
    assert.deepStrictEqual(await pure.setOutline(m, answer({ applied: true, message: "Set the status of scene 2 of Slack Water: review and save." })), {
      type: "outlineResult",
      applied: true,
      message: "Set the status of scene 2 of Slack Water: review and save.",
    });
    assert.deepStrictEqual(calls, [{ uri: "file:///b/manuscript/03.md", scene: 2, status: "draft" }], "no synopsis: setting it again would mark it current");
    assert.deepStrictEqual(await pure.setOutline(m, answer(new Error("Not set: the editor did not change manuscript/03.md."))), {
      type: "outlineResult",
      applied: false,
      message: "Not set: the editor did not change manuscript/03.md.",
    });
    const none = await pure.setOutline(m, answer(undefined));
    assert.strictEqual(none.applied, false);
    assert.match(none.message, /Nothing was changed/);
  });

  it("the panel runs the command for the page's message and answers the page", async () => {
    const vscode = fakeVscode();
    const { MapPanel } = loadMapPanel(vscode);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quire-map-panel-"));
    const pagePath = path.join(dir, "map.html");
    fs.writeFileSync(pagePath, smallPage);
    const logged: string[] = [];
    const session = {
      editorContext: () => ({ uri: "file:///books/bell/manuscript/03-slack-water.md" }),
      running: () => ({ sendRequest: async () => ({ path: pagePath, uri: pathToFileURL(pagePath).toString(), bytes: smallPage.length, chapters: 5, entries: 23 }) }),
      log: (s: string) => logged.push(s),
    };
    const panel = new MapPanel(session as unknown as ConstructorParameters<typeof MapPanel>[0]);
    await panel.show(undefined);
    assert.strictEqual(vscode.html(), pure.mapPanelHtml(smallPage), "the panel shows the page with its host");

    vscode.answer = async () => ({ applied: true, message: "Set the synopsis of The Market Without Water (scene 2 of Slack Water): review and save." });
    vscode.receive({ type: "setOutline", uri: "file:///books/bell/manuscript/03-slack-water.md", scene: 2, synopsis: "Moss sells what the tide left." });
    await eventually(() => vscode.posted.length > 0);
    assert.deepStrictEqual(vscode.commands, [["quire.setOutline", { uri: "file:///books/bell/manuscript/03-slack-water.md", scene: 2, synopsis: "Moss sells what the tide left." }]]);
    assert.deepStrictEqual(vscode.posted, [
      { type: "outlineResult", applied: true, message: "Set the synopsis of The Market Without Water (scene 2 of Slack Water): review and save." },
    ]);
    assert.ok(!logged.some((l) => l.includes("Moss sells")), "the writer's synopsis stays out of the log");

    // A message that is no edit runs nothing.
    vscode.receive({ type: "setOutline", uri: "file:///books/bell/manuscript/03-slack-water.md", scene: 2 });
    await new Promise((r) => setTimeout(r, 20));
    assert.strictEqual(vscode.commands.length, 1);
    panel.dispose();
  });
});

async function eventually(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (ok()) {
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail("timed out");
}

function run(file: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 30_000, ...opts }, (err, stdout, stderr) =>
      err ? reject(new Error(`${file} ${args.join(" ")}: ${err.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

// The real map of the sample book, with a scene note, through the panel
// and in a plain browser's place.
describe("book map panel: the outline of a real map (QUIRE_BIN)", function () {
  this.timeout(60_000);
  let tmp = "";
  let env: NodeJS.ProcessEnv = {};
  let book: string;
  let page: string;

  before(async function () {
    if (!bin) {
      if (required) {
        throw new Error("QUIRE_REQUIRE_CONTRACT=1 (or CI) but QUIRE_BIN is not set: build the server (go build -o /tmp/qc/quire ./cmd/quire) and set QUIRE_BIN to it");
      }
      this.skip();
    }
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "quire-map-outline-")));
    book = path.join(tmp, "book");
    // quire's cache and data folders in the test's own: never the
    // writer's (the map and the book's index are written there).
    env = { ...process.env, XDG_CACHE_HOME: path.join(tmp, "cache"), XDG_DATA_HOME: path.join(tmp, "data") };
    await run(bin!, ["init", "--sample", book], { env });
    const chapter = path.join(book, "manuscript", "03-slack-water.md");
    const text = fs.readFileSync(chapter, "utf8").replace("## The Market Without Water\n", "## The Market Without Water\n\n<!-- scene: {status: idea} -->\n");
    fs.writeFileSync(chapter, text);
    const out = path.join(tmp, "map.html");
    await run(bin!, ["map", "--project", book, "--out", out], { cwd: tmp, env });
    page = fs.readFileSync(out, "utf8");
  });

  after(() => {
    if (tmp) {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  function editScene(dom: JSDOM, key: string, synopsis: string, status: string): Document {
    const doc = dom.window.document;
    const card = doc.querySelector(`li.card[data-key="${key}"]`);
    assert.ok(card, `a card ${key}`);
    (card.querySelector(":scope > button.edit") as HTMLElement).click();
    (doc.getElementById("edit-synopsis") as HTMLTextAreaElement).value = synopsis;
    (doc.getElementById("edit-status") as HTMLSelectElement).value = status;
    (doc.getElementById("edit-submit") as HTMLElement).click();
    return doc;
  }

  it("in the panel, a card's edit is posted for quire.setOutline, and the answer shown on the card", () => {
    const p = loadHosted(page);
    const doc = editScene(p.dom, "3.2", "Moss sells what the tide left.", "draft");
    assert.strictEqual(doc.getElementById("edit-submit")?.textContent, "Send to the editor");
    assert.strictEqual(p.acquired(), 1);
    const sent = p.posted.filter((m) => (m as { type: string }).type === "setOutline");
    assert.deepStrictEqual(sent, [
      {
        type: "setOutline",
        uri: pathToFileURL(path.join(book, "manuscript", "03-slack-water.md")).toString(),
        scene: 2,
        synopsis: "Moss sells what the tide left.",
        status: "draft",
      },
    ]);
    assert.ok(pure.isSetOutlineMessage(sent[0]));
    assert.strictEqual(doc.getElementById("edit-result")?.textContent, "Sent to your editor: review the change there, then save.");
    const reply: MapPanelModule.OutlineResultMessage = { type: "outlineResult", applied: true, message: "Set the synopsis, status of The Market Without Water: review and save." };
    p.dom.window.dispatchEvent(new p.dom.window.MessageEvent("message", { data: reply }));
    assert.strictEqual(doc.getElementById("edit-result")?.textContent, reply.message);
  });

  it("in the panel, a newer map (after a save) keeps the outline's filter and sort and the edit being typed", () => {
    const p = loadHosted(page);
    const w = p.dom.window;
    const doc = w.document;
    const choose = (id: string, value: string) => {
      const el = doc.getElementById(id) as HTMLSelectElement;
      el.value = value;
      el.dispatchEvent(new w.Event("change"));
    };
    choose("outline-status", "=idea");
    choose("outline-sort", "words");
    (doc.querySelector('li.card[data-key="3.2"] > button.edit') as HTMLElement).click();
    const typed = doc.getElementById("edit-synopsis") as HTMLTextAreaElement;
    typed.value = "Moss sells what the tide";
    typed.dispatchEvent(new w.Event("input"));
    assert.strictEqual(doc.getElementById("outline-count")?.textContent, "1 of 10 scenes");

    w.dispatchEvent(new w.MessageEvent("message", { data: { type: "page", html: page, stamp: 9 } }));
    assert.strictEqual((doc.getElementById("outline-status") as HTMLSelectElement).value, "=idea");
    assert.strictEqual((doc.getElementById("outline-sort") as HTMLSelectElement).value, "words");
    assert.strictEqual(doc.getElementById("outline-count")?.textContent, "1 of 10 scenes");
    const form = doc.getElementById("outline-edit") as HTMLFormElement;
    assert.ok(!form.hidden, "the form is open again");
    assert.strictEqual((form.closest("li.card") as HTMLElement).getAttribute("data-key"), "3.2");
    assert.strictEqual((doc.getElementById("edit-synopsis") as HTMLTextAreaElement).value, "Moss sells what the tide");
    assert.deepStrictEqual(p.posted, [{ type: "drawn", stamp: 9 }], "nothing sent");
  });

  it("in a browser, the form shows a quire outline set command that prints the change", async function () {
    if (process.platform === "win32") {
      this.skip(); // the command is quoted for a POSIX shell
    }
    const dom = new JSDOM(page, { runScripts: "dangerously", pretendToBeVisual: true });
    const doc = editScene(dom, "3.2", "Moss sells what the tide left, and Ebba's \"price\" is a name.", "draft");
    assert.strictEqual(doc.getElementById("edit-submit")?.textContent, "Show the command");
    const line = doc.getElementById("edit-command")?.textContent ?? "";
    assert.match(line, /^quire outline set --project \S+ manuscript\/03-slack-water\.md --scene 2 --synopsis '.*' --status draft$/);
    const before = fs.readFileSync(path.join(book, "manuscript", "03-slack-water.md"), "utf8");
    const diff = await run("/bin/sh", ["-c", line.replace(/^quire /, `'${bin}' `)], { cwd: os.tmpdir(), env });
    assert.match(diff, /^\+status: draft$/m);
    assert.match(diff, /^\+synopsis: "Moss sells what the tide left, and Ebba's \\"price\\" is a name\."$/m);
    assert.strictEqual(fs.readFileSync(path.join(book, "manuscript", "03-slack-water.md"), "utf8"), before, "the command printed the change, and wrote nothing");
  });
});
