// Contract test: the extension's pure modules against the REAL quire
// server over stdio, so the two cannot drift apart. The requests are built
// the way the extension builds them (settings.ts, commands.ts) and the
// server's replies and notifications go through the functions the
// extension feeds them to (status.ts, chat/state.ts, diff.ts).
//
// Needs the server binary in QUIRE_BIN; skipped without it, unless
// QUIRE_REQUIRE_CONTRACT=1 (then it fails). The model is a scripted
// OpenAI-compatible HTTP server in this process.
import * as assert from "assert";
import { ChildProcess, execFile, spawn } from "child_process";
import * as fs from "fs";
import * as http from "http";
import { AddressInfo } from "net";
import * as os from "os";
import * as path from "path";
import { pathToFileURL } from "url";
import { createMessageConnection, MessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { applicableActions, CodeActionLike, matchCodeAction, occurrenceOf } from "../actions";
import { Action, AssistantMessage, ChatState, emptyState, errorView, providerHint, reduce, runningToken } from "../chat/state";
import { rowText } from "../chat/viewModel";
import { buildParams, builtMessage } from "../buildPicks";
import { askParamsFrom, clientOwnedCommands, contextLabel } from "../commands";
import { applyFileDiff, parseDiff } from "../diff";
import {
  AdvisorAction,
  ApplyResult,
  AskParams,
  AskProgress,
  AskResult,
  BookMapParams,
  BookMapResult,
  BookStatus,
  BuildResult,
  DiscardResult,
  ErrorCodes,
  Methods,
  Persona,
  ProposalsResult,
  Range,
  ReindexResult,
  StatusResult,
} from "../protocol";
import { didChangeConfigurationParams, serverSettings } from "../settings";
import { mergeBook, statusView } from "../status";
import { loadPanel } from "./panelDom";
import { clientCapabilities } from "./vscodeStandIn";

const bin = process.env.QUIRE_BIN;
// On a CI machine the contract must run: a missing binary fails it.
const required = process.env.QUIRE_REQUIRE_CONTRACT === "1" || !!process.env.CI;
const keyEnv = "QUIRE_CONTRACT_KEY";
const keyValue = "contract-key-value";
const model = "contract-model";
const teodora = "codex/characters/teodora-quill/index.md";
const proposedMarkdown = "## Appearance\n\nGrey eyes, always grey.";
const answerPieces = ["Teodora's ", "eyes are ", "grey in ", "chapter one; ", "I proposed ", "a codex update."];
const answer = answerPieces.join("");

// The personas the extension offers in quire.persona (package.json).
// Fields of BookStatus in protocol.ts.
const bookKeys = ["root", "state", "entries", "chapters", "problems", "counts", "message", "series"];

// The personas the extension offers in quire.persona (package.json),
// which must be the server's board; "" is "let the server choose". Read
// from the manifest, not copied, so the test checks the manifest itself.
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as {
  contributes: { configuration: { properties: Record<string, { enum?: string[] }> } };
};
const expectedPersonas = (manifest.contributes.configuration.properties["quire.persona"].enum ?? []).filter((id) => id !== "");

// ---- the scripted model ----

type Step = { tool: { name: string; arguments: string } } | { content: string[] };

const script: Step[] = [
  { tool: { name: "get_character_context", arguments: JSON.stringify({ name: "Teodora Quill" }) } },
  {
    tool: {
      name: "propose_codex_update",
      arguments: JSON.stringify({
        entryType: "character",
        name: "Teodora Quill",
        changeSummary: "eyes",
        targetSection: "Appearance",
        proposedMarkdown,
      }),
    },
  },
  { content: answerPieces },
];

interface Model {
  url: string;
  bodies: Record<string, unknown>[];
  auth: (string | undefined)[];
  paths: string[];
  close(): Promise<void>;
}

function chunk(n: number, delta: object, finish: string | null): string {
  const c = { id: `chatcmpl-${n}`, object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] };
  return `data: ${JSON.stringify(c)}\n\n`;
}

function startModel(): Promise<Model> {
  const bodies: Record<string, unknown>[] = [];
  const auth: (string | undefined)[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => parts.push(d));
    req.on("end", () => {
      paths.push(`${req.method} ${req.url}`);
      auth.push(req.headers.authorization);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(parts).toString("utf8")) as Record<string, unknown>;
      } catch {
        body = {};
      }
      bodies.push(body);
      const n = bodies.length;
      const step = script[n - 1];
      if (req.method !== "POST" || req.url !== "/v1/chat/completions" || step === undefined) {
        res.writeHead(500, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ error: { message: `contract model: unexpected request ${n}: ${req.method} ${req.url}` } }));
        return;
      }
      const callId = `call_${n}`;
      if (body.stream !== true) {
        // Not what the server should send from an editor; answered anyway
        // so the failure is the assertion on "stream", not a hang.
        const message =
          "tool" in step
            ? { role: "assistant", content: null, tool_calls: [{ id: callId, type: "function", function: step.tool }] }
            : { role: "assistant", content: step.content.join("") };
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${n}`,
            object: "chat.completion",
            created: 1,
            model,
            choices: [{ index: 0, message, finish_reason: "tool" in step ? "tool_calls" : "stop" }],
          }),
        );
        return;
      }
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      if ("tool" in step) {
        res.write(chunk(n, { role: "assistant", content: null }, null));
        res.write(chunk(n, { tool_calls: [{ index: 0, id: callId, type: "function", function: step.tool }] }, null));
        res.write(chunk(n, {}, "tool_calls"));
      } else {
        res.write(chunk(n, { role: "assistant", content: "" }, null));
        for (const piece of step.content) {
          res.write(chunk(n, { content: piece }, null));
        }
        res.write(chunk(n, {}, "stop"));
      }
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        bodies,
        auth,
        paths,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

// ---- the server ----

interface ProgressParams {
  token: string | number;
  value: { kind: "begin" | "report" | "end"; title?: string; message?: string; cancellable?: boolean };
}

interface Edit {
  range: Range;
  newText: string;
}

interface WorkspaceEdit {
  documentChanges?: ({ textDocument: { uri: string; version: number | null }; edits: Edit[] } | { kind: string; uri: string })[];
}

interface Harness {
  tmp: string;
  book: string;
  model: Model;
  proc: ChildProcess;
  conn: MessageConnection;
  stderr: string[];
  statusNotes: BookStatus[];
  askProgress: AskProgress[];
  progress: ProgressParams[];
  applyEdits: WorkspaceEdit[];
  serverRequests: string[];
  exited: Promise<number | null>;
  opened: Set<string>;
}

function run(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 10_000 }, (err, _stdout, stderr) => (err ? reject(new Error(`${file} ${args.join(" ")}: ${err.message}\n${stderr}`)) : resolve()));
  });
}

function fileUri(p: string): string {
  return pathToFileURL(p).toString();
}

// Applies a TextDocumentEdit's edits (UTF-16 positions, as JS strings
// count) to a text, the way an editor does: against the original text.
function applyEdits(text: string, edits: Edit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\n") {
      starts.push(i + 1);
    }
  }
  const offset = (p: { line: number; character: number }): number =>
    p.line >= starts.length ? text.length : Math.min(starts[p.line] + p.character, text.length);
  const sorted = edits.map((e) => ({ s: offset(e.range.start), e: offset(e.range.end), t: e.newText })).sort((a, b) => b.s - a.s);
  let out = text;
  for (const e of sorted) {
    out = out.slice(0, e.s) + e.t + out.slice(e.e);
  }
  return out;
}

async function start(): Promise<Harness> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "quire-contract-")));
  const book = path.join(tmp, "book");
  const cache = path.join(tmp, "cache");
  fs.mkdirSync(cache);
  await run(bin!, ["init", "--sample", book]);
  const scripted = await startModel();
  const proc = spawn(bin!, ["serve"], {
    cwd: book,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, XDG_CACHE_HOME: cache, [keyEnv]: keyValue },
  });
  const stderr: string[] = [];
  proc.stderr!.on("data", (d: Buffer) => stderr.push(d.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const conn = createMessageConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const h: Harness = {
    tmp,
    book,
    model: scripted,
    proc,
    conn,
    stderr,
    statusNotes: [],
    askProgress: [],
    progress: [],
    applyEdits: [],
    serverRequests: [],
    exited,
    opened: new Set(),
  };
  conn.onRequest("window/workDoneProgress/create", () => {
    h.serverRequests.push("window/workDoneProgress/create");
    return null;
  });
  conn.onRequest("workspace/applyEdit", (p: { label?: string; edit: WorkspaceEdit }) => {
    h.serverRequests.push("workspace/applyEdit");
    h.applyEdits.push(p.edit);
    // Apply it as the editor would, so the book on disk moves on too.
    for (const c of p.edit.documentChanges ?? []) {
      if ("textDocument" in c) {
        const file = new URL(c.textDocument.uri);
        const old = fs.readFileSync(file, "utf8");
        fs.writeFileSync(file, applyEdits(old, c.edits));
      }
    }
    return { applied: true };
  });
  conn.onRequest("workspace/configuration", () => {
    h.serverRequests.push("workspace/configuration");
    return [];
  });
  conn.onRequest("client/registerCapability", () => {
    h.serverRequests.push("client/registerCapability");
    return null;
  });
  conn.onNotification(Methods.status, (b: BookStatus) => h.statusNotes.push(b));
  conn.onNotification(Methods.askProgress, (p: AskProgress) => h.askProgress.push(p));
  conn.onUnhandledProgress((p) => h.progress.push(p as ProgressParams));
  conn.listen();

  // initializationOptions exactly as the extension computes them from its
  // settings (extension.ts: initializationOptions: () => this.settings()).
  const { settings, warnings } = serverSettings(
    getter({
      "provider.baseUrl": `${scripted.url}/v1`,
      "provider.model": model,
      "provider.apiKeyEnv": keyEnv,
      "provider.api": "",
      "provider.tools": null,
      "provider.toolCalling": "",
      persona: "",
    }),
  );
  assert.deepStrictEqual(warnings, []);
  await conn.sendRequest("initialize", {
    processId: process.pid,
    clientInfo: { name: "quire contract test" },
    rootUri: fileUri(book),
    workspaceFolders: [{ uri: fileUri(book), name: "book" }],
    capabilities: {
      window: { workDoneProgress: true },
      // The workspace-edit capability the extension's client declares, so
      // the edits the server sends are the ones VS Code gets.
      workspace: { workspaceEdit: clientCapabilities().workspace?.workspaceEdit, configuration: true },
    },
    initializationOptions: settings,
  });
  await conn.sendNotification("initialized", {});
  return h;
}

// openChapter opens the sample's first chapter in the server (once) and
// returns its uri and text.
async function openChapter(h: Harness): Promise<{ uri: string; text: string }> {
  const chapter = path.join(h.book, "manuscript", "01-thirteen-strokes.md");
  const uri = fileUri(chapter);
  const text = fs.readFileSync(chapter, "utf8");
  if (!h.opened.has(uri)) {
    h.opened.add(uri);
    await h.conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "markdown", version: 1, text } });
  }
  return { uri, text };
}

type LspCodeAction = { title: string; command?: { command: string; arguments?: unknown[] } };

function getter(values: Record<string, unknown>): (k: string) => unknown {
  return (k) => values[k];
}

async function stop(h: Harness): Promise<void> {
  const timeout = (ms: number) => new Promise<"timeout">((r) => setTimeout(() => r("timeout"), ms).unref());
  try {
    await Promise.race([h.conn.sendRequest("shutdown"), timeout(3000)]);
    await h.conn.sendNotification("exit");
  } catch {
    // Already gone; killed below.
  }
  if ((await Promise.race([h.exited, timeout(3000)])) === "timeout") {
    h.proc.kill("SIGKILL");
    await h.exited;
  }
  h.conn.dispose();
  await h.model.close();
  fs.rmSync(h.tmp, { recursive: true, force: true });
}

async function eventually<T>(what: string, fn: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) {
      return v;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

// errorOf as chat/view.ts words a rejected request (view.ts imports vscode;
// vscode-languageclient's ResponseError is this same vscode-jsonrpc class).
function errorOf(e: unknown): { code?: number; message: string } {
  if (e instanceof ResponseError) {
    return { code: e.code, message: e.message };
  }
  return { message: e instanceof Error ? e.message : String(e) };
}

// onlyKeys fails when the server sends a field protocol.ts does not
// declare: a new field belongs in protocol.ts (and maybe the UI) first.
function onlyKeys(v: object, allowed: string[], what: string): void {
  for (const k of Object.keys(v)) {
    assert.ok(allowed.includes(k), `the server sends ${what}.${k}, which protocol.ts does not declare`);
  }
}

function reply(s: ChatState, token: string): AssistantMessage {
  for (const conv of Object.values(s.conversations)) {
    for (const m of conv.messages) {
      if (m.kind === "assistant" && m.token === token) {
        return m;
      }
    }
  }
  throw new Error(`no reply for ${token}`);
}

describe("contract: extension modules against the real quire server", function () {
  this.timeout(20_000);
  let h: Harness;
  let proposalId: string;
  let statusBarBefore: string;

  before(async function () {
    if (!bin) {
      if (required) {
        throw new Error("QUIRE_REQUIRE_CONTRACT=1 (or CI) but QUIRE_BIN is not set: build the server (go build -o /tmp/qc/quire ./cmd/quire) and set QUIRE_BIN to it");
      }
      this.skip();
    }
    if (!fs.existsSync(bin!)) {
      throw new Error(`QUIRE_BIN=${bin} does not exist`);
    }
    h = await start();
  });

  after(async function () {
    if (h) {
      await stop(h);
    }
  });

  afterEach(function () {
    if (this.currentTest?.state === "failed" && h) {
      const log = h.stderr.join("").split("\n").slice(-40).join("\n");
      console.error(`--- quire serve stderr (last lines) ---\n${log}\n--- model requests: ${h.model.paths.join(", ")}`);
    }
  });

  it("quire/status reports the sample book ready, and the status bar says so", async () => {
    const st = await eventually("the book to be ready", async () => {
      const r = await h.conn.sendRequest<StatusResult>(Methods.status, {});
      return r.books?.length === 1 && r.books[0].state === "ready" ? r : undefined;
    });
    const b = st.books![0];
    assert.strictEqual(b.root, h.book);
    assert.strictEqual(b.entries, 26);
    assert.strictEqual(b.chapters, 5);
    assert.ok(b.problems >= 0);
    onlyKeys(st, ["books"], "StatusResult");
    onlyKeys(b, bookKeys, "BookStatus");

    // The notifications, merged as extension.ts merges them, end ready too.
    await eventually("a ready quire/status notification", async () => (h.statusNotes.some((n) => n.state === "ready") ? true : undefined));
    const seen = h.statusNotes.map((n) => n.state);
    for (const n of h.statusNotes) {
      onlyKeys(n, bookKeys, "BookStatus (notification)");
    }
    for (const s of seen) {
      assert.ok(["loading", "indexing", "ready", "error"].includes(s), `state ${s}`);
    }
    assert.ok(!seen.includes("error"), JSON.stringify(h.statusNotes));
    let books: BookStatus[] = [];
    const texts: string[] = [];
    for (const n of h.statusNotes) {
      assert.strictEqual(n.root, h.book);
      books = mergeBook(books, n);
      texts.push(statusView(books).text);
    }
    if (seen[0] !== "ready") {
      assert.strictEqual(texts[0], "$(sync~spin) quire: indexing");
    }
    for (const book of st.books ?? []) {
      books = mergeBook(books, book);
    }
    assert.strictEqual(books.length, 1);
    const v = statusView(books);
    const warn = b.problems > 0 ? ` · $(warning) ${b.problems}` : "";
    assert.strictEqual(v.text, `$(book) quire: 26 entries · 5 ch${warn}`);
    assert.strictEqual(v.command, "quire.openChat");
    assert.match(v.tooltip, new RegExp(`^book — ready: 26 entries, 5 chapters, ${b.problems} problems?\\n`));
    statusBarBefore = v.text;
  });

  it("quire/personas lists the six personas the extension offers", async () => {
    const list = await h.conn.sendRequest<Persona[] | null>(Methods.personas, {});
    assert.ok(Array.isArray(list));
    assert.deepStrictEqual(list.map((p) => p.id).sort(), expectedPersonas.slice().sort());
    for (const p of list) {
      onlyKeys(p, ["id", "name", "focus"], "Persona");
      assert.strictEqual(typeof p.name, "string");
      assert.ok(p.name.length > 0);
      assert.strictEqual(typeof p.focus, "string");
      assert.ok(p.focus.length > 0, `${p.id} has no focus`);
    }
  });

  it("quire/actions lists the core actions, and the chapter's code actions carry the labels Run advisor action matches", async () => {
    const personas = (await h.conn.sendRequest<Persona[] | null>(Methods.personas, {})) ?? [];
    const { uri, text } = await openChapter(h);
    const list = (await h.conn.sendRequest<AdvisorAction[] | null>(Methods.actions, { uri })) ?? [];
    assert.ok(Array.isArray(list));
    // The core actions are the ones the server marks so (the sample book
    // adds none): their ids are the server's, not a copy kept here.
    const coreActionIds = list.filter((x) => x.core || x.source === "core").map((x) => x.id);
    assert.ok(coreActionIds.length > 0, `no core actions in ${JSON.stringify(list.map((x) => x.id))}`);
    for (const id of coreActionIds) {
      const a = list.find((x) => x.id === id);
      assert.ok(a, `core action ${id} not in ${JSON.stringify(list.map((x) => x.id))}`);
      assert.strictEqual(a.core, true, id);
      assert.strictEqual(a.source, "core", id);
      assert.ok(["selection", "file", "project"].includes(a.scope), `${id}: scope ${a.scope}`);
      assert.ok(expectedPersonas.includes(a.persona), `${id}: persona ${a.persona}`);
      assert.ok(a.name.length > 0, `${id} has no name`);
      const who = personas.find((p) => p.id === a.persona);
      assert.strictEqual(a.label, `${who?.name}: ${a.name}`, `${id}'s label`);
    }
    for (const a of list) {
      onlyKeys(a, ["id", "name", "label", "scope", "persona", "usage", "core", "source"], "AdvisorAction");
    }
    // Without a uri: the book of the workspace.
    const bare = (await h.conn.sendRequest<AdvisorAction[] | null>(Methods.actions, {})) ?? [];
    assert.deepStrictEqual(bare.map((a) => a.id), list.map((a) => a.id));

    const titles = async (range: Range): Promise<LspCodeAction[]> =>
      (await h.conn.sendRequest<LspCodeAction[] | null>("textDocument/codeAction", { textDocument: { uri }, range, context: { diagnostics: [] } })) ?? [];
    const check = (shown: AdvisorAction[], actions: LspCodeAction[], range: Range | undefined): void => {
      for (const a of shown) {
        const cmd = matchCodeAction(actions as CodeActionLike[], a.label, occurrenceOf(shown, a));
        assert.ok(cmd, `no code action "${a.label}" in ${JSON.stringify(actions.map((x) => x.title))}`);
        const p = askParamsFrom(cmd.arguments);
        assert.ok(p, a.label);
        assert.strictEqual(p.persona, a.persona, a.label);
        assert.strictEqual(p.uri, uri, a.label);
        assert.deepStrictEqual(p.range, range, `${a.label}: a range only on a selection`);
        assert.ok(p.message, a.label);
        assert.strictEqual(Boolean(p.selectionHash), range !== undefined, `${a.label}: selectionHash`);
      }
    };

    // At the cursor (an empty range) in the chapter: the file and project
    // actions the command's filter shows are all offered.
    const line = text.split("\n").findIndex((l) => l.includes("Teodora Quill wrote by it"));
    assert.ok(line >= 0);
    const cursor: Range = { start: { line, character: 3 }, end: { line, character: 3 } };
    const atCursor = applicableActions(list, false);
    assert.ok(atCursor.shown.length >= 4, JSON.stringify(atCursor.shown.map((a) => a.id)));
    assert.ok(atCursor.shown.every((a) => a.scope === "file" || a.scope === "project"));
    const cursorActions = await titles(cursor);
    check(atCursor.shown, cursorActions, undefined);
    // And no selection action is offered there.
    for (const a of list.filter((x) => x.scope === "selection")) {
      assert.strictEqual(matchCodeAction(cursorActions as CodeActionLike[], a.label), undefined, `${a.label} offered at the cursor`);
    }

    // On a selection: the selection actions, with the range.
    const selection: Range = { start: { line, character: 0 }, end: { line: line + 1, character: 0 } };
    const onSelection = applicableActions(list, true);
    assert.ok(onSelection.shown.length >= 4, JSON.stringify(onSelection.shown.map((a) => a.id)));
    check(onSelection.shown, await titles(selection), selection);
  });

  it("an ask from the code action streams into the chat state and ends with an answer, evidence and a proposal", async () => {
    // The selection's code action, read with commands.ts as quire.ask does.
    const { uri, text } = await openChapter(h);
    const line = text.split("\n").findIndex((l) => l.includes("Teodora Quill wrote by it"));
    assert.ok(line >= 0);
    const range: Range = { start: { line, character: 0 }, end: { line: line + 1, character: 0 } };
    const actions = await h.conn.sendRequest<{ title: string; command?: { command: string; arguments?: unknown[] } }[] | null>(
      "textDocument/codeAction",
      { textDocument: { uri }, range, context: { diagnostics: [] } },
    );
    const action = (actions ?? []).find((a) => a.command?.command === "quire.ask" && (a.command.arguments?.[0] as { persona?: string })?.persona === "continuity-editor" && /^Ask /.test(a.title));
    assert.ok(action, `no "Ask Continuity Editor about this" action in ${JSON.stringify((actions ?? []).map((a) => a.title))}`);
    const fromAction = askParamsFrom(action.command!.arguments ?? []);
    assert.ok(fromAction);
    assert.strictEqual(fromAction.persona, "continuity-editor");
    assert.strictEqual(fromAction.uri, uri);
    assert.deepStrictEqual(fromAction.range, range);
    assert.ok(fromAction.selectionHash, "the action carries the selection hash");
    assert.ok(fromAction.message);

    // As extension.ts (askFromCommand) and chat/view.ts (ask) build it.
    const params: AskParams = { ...fromAction, message: "What colour are Teodora's eyes?" };
    const persona = params.persona!;
    const token = `quire-ask-1-${Date.now()}`;
    let state = reduce(emptyState, { type: "ask", persona, token, text: params.message, context: contextLabel(params.uri, params.range) });
    const sent: AskParams = { ...params, persona, conversationId: undefined, workDoneToken: token };
    const before = h.askProgress.length;
    const progressBefore = h.progress.length;
    const createdBefore = h.serverRequests.filter((m) => m === "window/workDoneProgress/create").length;
    const result = await h.conn.sendRequest<AskResult>(Methods.ask, sent);

    // Everything the server notified before its answer, in order.
    const notes = h.askProgress.slice(before);
    for (const p of notes) {
      assert.strictEqual(p.token, token);
      onlyKeys(p, "row" in p ? ["token", "row"] : ["token", "delta", "round"], "AskProgress");
      state = reduce(state, { type: "progress", params: p });
    }
    const running = reply(state, token);
    assert.strictEqual(running.status, "running");
    assert.deepStrictEqual(
      running.rows.map((r) => [r.tool, r.ok]),
      [
        ["get_character_context", true],
        ["propose_codex_update", true],
      ],
    );
    for (const r of running.rows) {
      onlyKeys(r, ["round", "tool", "summary", "ok", "code", "ms"], "ToolRow");
      assert.strictEqual(typeof r.round, "number");
      assert.strictEqual(typeof r.ms, "number");
      assert.strictEqual(typeof r.summary, "string");
    }
    const deltas = notes.filter((p) => "delta" in p);
    assert.ok(deltas.length >= 2, `only ${deltas.length} delta notifications`);
    assert.strictEqual(running.text, answer, "streamed text");
    assert.strictEqual(runningToken(state, persona), token);

    // $/progress on the client's token: begin, rows worded as rowText, end.
    const prog = h.progress.slice(progressBefore).filter((p) => p.token === token);
    assert.ok(prog.length >= 3, JSON.stringify(prog));
    assert.strictEqual(prog[0].value.kind, "begin");
    assert.match(prog[0].value.title ?? "", /^Continuity Editor$/, "no \"quire:\" prefix: Helix puts the server's name first");
    assert.strictEqual(prog[0].value.cancellable, true);
    assert.deepStrictEqual(prog[prog.length - 1].value, { kind: "end", message: "answered" });
    const reports = prog.filter((p) => p.value.kind === "report").map((p) => p.value.message);
    for (const r of running.rows) {
      assert.ok(reports.includes(rowText(r)), `no $/progress report "${rowText(r)}" in ${JSON.stringify(reports)}`);
    }
    // The client's token is used as is: no window/workDoneProgress/create for it.
    assert.strictEqual(h.serverRequests.filter((m) => m === "window/workDoneProgress/create").length, createdBefore);

    state = reduce(state, { type: "result", token, result });
    const done = reply(state, token);
    onlyKeys(result, ["persona", "answer", "evidence", "consulted", "proposals", "conversationId", "serviceTier", "warnings"], "AskResult");
    // The manifest: every call in order, each with what it asked.
    assert.ok((result.consulted ?? []).length >= 1, "consulted");
    for (const c of result.consulted ?? []) {
      onlyKeys(c, ["round", "call", "ok", "outlined"], "Consulted");
      assert.strictEqual(typeof c.call, "string");
    }
    assert.strictEqual(result.persona, "continuity-editor");
    assert.strictEqual(result.answer, answer);
    assert.strictEqual(done.status, "done");
    assert.strictEqual(done.text, answer);
    assert.strictEqual(done.rows.length, 2);
    assert.ok(done.evidence.length >= 1, "evidence");
    for (const e of done.evidence) {
      onlyKeys(e, ["uri", "range", "path", "tool", "hash", "asOf", "asOfChapter", "asOfImplied", "why", "cited", "step"], "Evidence");
      assert.ok(e.why?.startsWith(e.tool), `why ${e.why} names the call of ${e.tool}`);
      assert.ok(e.uri.startsWith("file://"), e.uri);
      assert.ok(e.path && !path.isAbsolute(e.path), e.path);
      assert.ok(e.range && typeof e.range.start.line === "number", JSON.stringify(e));
      assert.strictEqual(typeof e.tool, "string");
    }
    assert.ok(done.evidence.some((e) => e.path === teodora), JSON.stringify(done.evidence.map((e) => e.path)));
    assert.strictEqual(done.proposals.length, 1);
    assert.match(done.proposals[0].id, /^p-/);
    assert.strictEqual(done.proposals[0].state, "loading");
    assert.ok(result.conversationId, "conversationId");
    assert.strictEqual(state.conversations[persona].conversationId, result.conversationId);
    assert.strictEqual(runningToken(state, persona), undefined);
    proposalId = done.proposals[0].id;

    // The model saw what the settings said, streamed, with the key.
    assert.strictEqual(h.model.bodies.length, 3, h.model.paths.join(", "));
    for (const b of h.model.bodies) {
      assert.strictEqual(b.stream, true, "the server asks for a stream");
      assert.strictEqual(b.model, model);
    }
    for (const a of h.model.auth) {
      assert.strictEqual(a, `Bearer ${keyValue}`);
    }
    const tools = (h.model.bodies[0].tools as { function: { name: string } }[] | undefined) ?? [];
    assert.ok(tools.some((t) => t.function.name === "get_character_context"));
    assert.ok(tools.some((t) => t.function.name === "propose_codex_update"));
  });

  it("quire/proposals lists the proposal pending, with a diff diff.ts reads", async () => {
    assert.ok(proposalId, "needs the ask");
    const r = await h.conn.sendRequest<ProposalsResult>(Methods.proposals, {});
    const list = r.proposals ?? [];
    assert.strictEqual(list.length, 1);
    const p = list[0];
    onlyKeys(r, ["proposals"], "ProposalsResult");
    onlyKeys(
      p,
      ["id", "kind", "name", "entryType", "path", "soulPath", "changeSummary", "markdown", "soulMarkdown", "warnings", "created", "status", "diff"],
      "Proposal",
    );
    assert.strictEqual(p.id, proposalId);
    assert.strictEqual(p.status, "pending");
    assert.strictEqual(p.kind, "update");
    assert.strictEqual(p.name, "Teodora Quill");
    assert.strictEqual(p.entryType, "character");
    assert.strictEqual(p.path, teodora);
    assert.strictEqual(p.changeSummary, "eyes");
    assert.ok(Array.isArray(p.warnings));
    assert.ok(!Number.isNaN(Date.parse(p.created)), p.created);
    assert.ok(p.diff, "diff");

    const { lines, files } = parseDiff(p.diff);
    assert.strictEqual(files.length, 1);
    assert.strictEqual(files[0].oldPath, teodora);
    assert.strictEqual(files[0].newPath, teodora);
    assert.ok(files[0].hunks.length >= 1);
    assert.ok(lines.some((l) => l.kind === "add" && l.text.includes("Grey eyes, always grey.")), p.diff);
    assert.ok(!lines.some((l) => l.kind === "note"), `unparsed lines in\n${p.diff}`);

    // The chat state takes the list as chat/view.ts's fetchProposals does.
    const actions: Action[] = [
      { type: "ask", persona: "continuity-editor", token: "t", text: "q" },
      { type: "result", token: "t", result: { persona: "continuity-editor", answer: "a", evidence: null, proposals: [p.id], conversationId: "c" } },
      { type: "proposals", proposals: list },
    ];
    const s = actions.reduce(reduce, emptyState);
    const cp = reply(s, "t").proposals[0];
    assert.strictEqual(cp.state, "pending");
    assert.strictEqual(cp.info?.diff, p.diff);
  });

  it("quire/applyProposal sends a workspace edit of Teodora's entry that matches the diff", async () => {
    assert.ok(proposalId, "needs the ask");
    const file = path.join(h.book, teodora);
    const oldText = fs.readFileSync(file, "utf8");
    const listed = (await h.conn.sendRequest<ProposalsResult>(Methods.proposals, {})).proposals ?? [];
    const predicted = applyFileDiff(oldText, parseDiff(listed[0].diff ?? "").files[0]);

    const editsBefore = h.applyEdits.length;
    const r = await h.conn.sendRequest<ApplyResult>(Methods.applyProposal, { id: proposalId });
    assert.deepStrictEqual(r, {
      id: proposalId,
      applied: true,
      message: "Applied the proposed update of Teodora Quill to codex/characters/teodora-quill/index.md: review and save.",
    });
    assert.strictEqual(h.applyEdits.length, editsBefore + 1, "one workspace/applyEdit");
    // No change annotation: one that needs confirmation makes VS Code
    // open its Refactor Preview with the edit unticked.
    assert.doesNotMatch(JSON.stringify(h.applyEdits[editsBefore]), /changeAnnotations|annotationId|needsConfirmation/);
    const changes = h.applyEdits[editsBefore].documentChanges ?? [];
    assert.strictEqual(changes.length, 1, JSON.stringify(changes));
    const c = changes[0];
    assert.ok("textDocument" in c, JSON.stringify(c));
    assert.strictEqual(c.textDocument.uri, fileUri(file));
    assert.ok(c.edits.length >= 1);
    // What the editor wrote is what the diff the chat shows promised.
    assert.strictEqual(fs.readFileSync(file, "utf8"), predicted);
    assert.ok(predicted.includes("Grey eyes, always grey."));

    const after = (await h.conn.sendRequest<ProposalsResult>(Methods.proposals, {})).proposals ?? [];
    assert.strictEqual(after.length, 1);
    assert.strictEqual(after[0].status, "applied");
    const actions: Action[] = [
      { type: "ask", persona: "p", token: "t", text: "q" },
      { type: "result", token: "t", result: { persona: "p", answer: "a", evidence: null, proposals: [proposalId], conversationId: "c" } },
      { type: "proposals", proposals: after },
    ];
    const s = actions.reduce(reduce, emptyState);
    assert.strictEqual(reply(s, "t").proposals[0].state, "applied");
  });

  it("quire/discardProposal drops it", async () => {
    assert.ok(proposalId, "needs the ask");
    const r = await h.conn.sendRequest<DiscardResult>(Methods.discardProposal, { id: proposalId });
    assert.deepStrictEqual(r, { id: proposalId, discarded: true });
    const after = await h.conn.sendRequest<ProposalsResult>(Methods.proposals, {});
    assert.deepStrictEqual(after.proposals ?? [], []);
  });

  it("quire/reindex reads the book again", async () => {
    const r = await h.conn.sendRequest<ReindexResult>(Methods.reindex, {});
    assert.strictEqual(r.root, h.book);
    assert.strictEqual(r.entries, 26);
    assert.strictEqual(r.chapters, 5);
    assert.strictEqual(typeof r.problems, "number");
    assert.strictEqual(typeof r.ms, "number");
    const st = await h.conn.sendRequest<StatusResult>(Methods.status, {});
    assert.strictEqual(st.books?.[0].state, "ready");
    assert.strictEqual(st.books?.[0].entries, 26);
    // extension.ts's reindex command merges the result as a ready book.
    const books = mergeBook([], { root: r.root, state: "ready", entries: r.entries, chapters: r.chapters, problems: r.problems });
    assert.strictEqual(statusView(books).text, statusBarBefore ?? statusView(books).text);
  });

  it("quire.build (quiet, as quire: Build Manuscript asks) writes the standard manuscript outside the book", async () => {
    const uri = pathToFileURL(path.join(h.book, "manuscript", "01-thirteen-strokes.md")).toString();
    const r = await h.conn.sendRequest<BuildResult>("workspace/executeCommand", { command: "quire.build", arguments: [buildParams(uri, "docx", "manuscript")] });
    onlyKeys(r, ["path", "uri", "format", "preset", "chapters", "words", "bytes"], "BuildResult");
    assert.strictEqual(r.format, "docx");
    assert.strictEqual(r.preset, "manuscript");
    assert.strictEqual(r.chapters, 5);
    assert.ok(!r.path.startsWith(h.book), `the build is in the book: ${r.path}`);
    assert.strictEqual(fs.statSync(r.path).size, r.bytes);
    assert.strictEqual(fs.readFileSync(r.path).subarray(0, 2).toString(), "PK", "a zip, as a DOCX is");
    assert.match(builtMessage(r), /^quire built DOCX \(manuscript, 5 chapters, about 4,200 words\)\. File: /);
  });

  it("quire.bookMap (quiet, as the panel asks) writes the map outside the book; in the panel a cell opens its chapter at the first mention", async () => {
    assert.ok(clientOwnedCommands.includes("quire.bookMap"), "the extension shows the map itself, in a panel");
    const params: BookMapParams = { uri: pathToFileURL(path.join(h.book, "manuscript", "01-thirteen-strokes.md")).toString(), quiet: true };
    const r = await h.conn.sendRequest<BookMapResult>("workspace/executeCommand", { command: "quire.bookMap", arguments: [params] });
    onlyKeys(r, ["path", "uri", "bytes", "chapters", "entries", "counts", "shown", "table"], "BookMapResult");
    assert.strictEqual(r.chapters, 5);
    assert.strictEqual(r.entries, 23);
    assert.strictEqual(r.shown, false);
    assert.ok(!r.path.startsWith(h.book), `the map is in the book: ${r.path}`);
    const page = fs.readFileSync(r.path, "utf8");
    assert.strictEqual(page.length > 0 && Buffer.byteLength(page), r.bytes);

    const p = loadPanel(page);
    const doc = p.dom.window.document;
    // The page's own script ran in the panel: it counts its rows.
    assert.strictEqual(doc.getElementById("row-count")?.textContent, "23 of 23 rows");
    const ebba = Array.from(doc.querySelectorAll("#rows tr")).find((tr) => tr.querySelector("th")?.textContent === "Ebba Strand");
    assert.ok(ebba, "Ebba Strand has a row");
    const cell = ebba.querySelector("td a") as HTMLElement;
    assert.strictEqual(cell.textContent, "1");
    cell.click();
    assert.deepStrictEqual(p.posted, [{ type: "open", path: path.join(h.book, "manuscript", "01-thirteen-strokes.md"), line: 14 }]);

    // Sorted by total, then a newer page arrives (after a save): it is
    // drawn in place, still sorted by total, its controls working.
    const sort = doc.getElementById("sort") as HTMLSelectElement;
    sort.value = "total";
    sort.dispatchEvent(new p.dom.window.Event("change"));
    // Teodora Quill is named most: "Teodora" alone is her given name.
    const first = () => doc.querySelector("#rows tr:not([hidden]) th")?.textContent;
    assert.strictEqual(first(), "Teodora Quill");
    p.dom.window.dispatchEvent(new p.dom.window.MessageEvent("message", { data: { type: "page", html: page, stamp: 1 } }));
    assert.strictEqual(first(), "Teodora Quill");
    assert.strictEqual((doc.getElementById("sort") as HTMLSelectElement).value, "total");
    assert.strictEqual(doc.getElementById("row-count")?.textContent, "23 of 23 rows");
    const type = doc.getElementById("filter-type") as HTMLSelectElement;
    type.value = "location";
    type.dispatchEvent(new p.dom.window.Event("change"));
    assert.strictEqual(doc.getElementById("row-count")?.textContent, "5 of 23 rows");
    assert.deepStrictEqual(p.posted.slice(1), [{ type: "drawn", stamp: 1 }]);
  });

  it("an ask without a provider fails with -32600, which the chat words as a provider problem", async () => {
    // As extension.ts sends a settings change: serverSettings, then didChangeConfigurationParams.
    const change = didChangeConfigurationParams(serverSettings(getter({ "provider.apiKeyEnv": "QUIRE_CONTRACT_MISSING" })).settings);
    assert.deepStrictEqual(change, { settings: { quire: { provider: { api_key_env: "QUIRE_CONTRACT_MISSING" } } } });
    await h.conn.sendNotification("workspace/didChangeConfiguration", change);
    const requestsBefore = h.model.bodies.length;

    const token = `quire-ask-2-${Date.now()}`;
    const persona = "continuity-editor";
    let state = reduce(emptyState, { type: "ask", persona, token, text: "Anyone there?" });
    let err: { code?: number; message: string } | undefined;
    try {
      await h.conn.sendRequest<AskResult>(Methods.ask, { persona, message: "Anyone there?", workDoneToken: token } satisfies AskParams);
    } catch (e) {
      err = errorOf(e);
    }
    assert.ok(err, "the ask should fail");
    assert.strictEqual(err.code, ErrorCodes.InvalidRequest, err.message);
    assert.strictEqual(errorView(err.code, err.message).hint, providerHint, `not classified as a provider problem: ${err.message}`);
    state = reduce(state, { type: "failed", token, code: err.code, message: err.message });
    const m = reply(state, token);
    assert.strictEqual(m.status, "error");
    assert.strictEqual(m.error?.code, ErrorCodes.InvalidRequest);
    assert.strictEqual(m.error?.hint, providerHint);
    assert.strictEqual(h.model.bodies.length, requestsBefore, "nothing reached the model");
  });
});
