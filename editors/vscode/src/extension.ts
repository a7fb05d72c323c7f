// Wires VS Code to the quire language server: the client's lifecycle,
// settings, commands, the chat view and the status bar. Decisions that
// need no VS Code live in the pure modules this imports.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  LanguageClientOptions,
  ResponseError,
  State,
} from "vscode-languageclient/node";
import { actionPickItems, applicableActions, CodeActionLike, matchCodeAction, noActionsMessage, noMatchMessage, occurrenceOf, pickPlaceholder } from "./actions";
import { ChatHost, ChatViewProvider, errorOf } from "./chat/view";
import { QuireLanguageClient } from "./client";
import { askParamsFrom, bookRootFor, contextLabel, idFrom } from "./commands";
import { applyProposalFlow, discardProposalFlow, ProposalUi } from "./applyFlow";
import { applyFileDiff, parseDiff } from "./diff";
import {
  AdvisorAction,
  ApplyResult,
  AskParams,
  AskProgress,
  AskResult,
  BookStatus,
  Commands,
  Methods,
  Persona,
  Proposal,
  ProposalsResult,
  Range,
  ReindexResult,
  StatusResult,
} from "./protocol";
import { resolveServer, startFailedMessage } from "./server";
import { changeKinds, didChangeConfigurationParams, DisplaySettings, displaySettingsOf, serverSettings, ServerSettings } from "./settings";
import { mergeBook, statusView } from "./status";
import { isProposalDoc, peekDoc, peekScheme, proposalDocPath, proposalScheme } from "./virtualDocs";

// The question the server's own code actions ask; used when the writer
// leaves the question empty.
const defaultQuestion = "What do you think of this passage?";
const personaKey = "quire.persona.last";

function isExecutable(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) {
      return false;
    }
    if (process.platform !== "win32") {
      fs.accessSync(p, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

function toRange(r: vscode.Range): Range {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

function isBookDocument(d: vscode.TextDocument): boolean {
  return d.languageId === "markdown" && d.uri.scheme === "file";
}

class Quire implements ChatHost, vscode.Disposable {
  private client?: QuireLanguageClient;
  private readonly output = vscode.window.createOutputChannel("quire");
  private readonly status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  private readonly chat: ChatViewProvider;
  private readonly disposables: vscode.Disposable[] = [];
  private books: BookStatus[] = [];
  private personaCache: Persona[] = [];
  private lastEditor?: vscode.TextEditor;
  private startError?: string;
  // The text of the read-only documents under quire's schemes (virtualDocs.ts).
  private readonly virtualDocs = new Map<string, string>();
  private readonly virtualDocsChanged = new vscode.EventEmitter<vscode.Uri>();
  private peekSeq = 0;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.chat = new ChatViewProvider(context.extensionUri, this);
    const active = vscode.window.activeTextEditor;
    if (active && isBookDocument(active.document)) {
      this.lastEditor = active;
    }
    this.disposables.push(
      this.output,
      this.status,
      this.chat,
      this.virtualDocsChanged,
      vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, this.chat, { webviewOptions: { retainContextWhenHidden: true } }),
      ...[proposalScheme, peekScheme].map((scheme) =>
        vscode.workspace.registerTextDocumentContentProvider(scheme, {
          onDidChange: this.virtualDocsChanged.event,
          provideTextDocumentContent: (uri) => this.virtualDocs.get(uri.toString()) ?? "",
        }),
      ),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (e && isBookDocument(e.document)) {
          this.lastEditor = e;
          this.chat.editorChanged();
        }
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (isBookDocument(e.textEditor.document)) {
          this.lastEditor = e.textEditor;
          this.chat.editorChanged();
        }
      }),
      vscode.workspace.onDidChangeConfiguration((e) => this.configChanged(e)),
    );
    const commands: [string, (...args: unknown[]) => unknown][] = [
      ["quire.askAdvisor", () => this.askAdvisor()],
      ["quire.ask", (...args) => this.askFromCommand(args)],
      ["quire.runAction", () => this.runAction()],
      ["quire.pickPersona", () => this.pickPersona()],
      ["quire.applyProposal", (...args) => this.applyFromCommand(args)],
      ["quire.discardProposal", (...args) => this.discardFromCommand(args)],
      ["quire.peekPrompt", (...args) => this.peekFromCommand(args)],
      ["quire.reindex", (...args) => this.reindex(args)],
      ["quire.openChat", () => this.chat.reveal()],
      ["quire.restartServer", () => this.restart()],
      ["quire.showStartError", () => this.startError && this.showStartError(this.startError)],
    ];
    for (const [id, fn] of commands) {
      this.disposables.push(vscode.commands.registerCommand(id, fn));
    }
    this.renderStatus();
    this.status.show();
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  // ---- server lifecycle ----

  private config(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration("quire");
  }

  private settings(): ServerSettings {
    const { settings, warnings } = serverSettings((k) => this.config().get(k));
    for (const w of warnings) {
      void vscode.window.showWarningMessage(w, "Open settings").then((a) => a && this.openSettings("quire.provider.apiKeyEnv"));
    }
    return settings;
  }

  display(): DisplaySettings {
    return displaySettingsOf((k) => this.config().get(k));
  }

  async start(): Promise<void> {
    const cfg = this.config();
    const res = resolveServer(cfg.get("serverPath"), cfg.get("serverArgs"), {
      platform: process.platform,
      env: process.env,
      homedir: os.homedir(),
      isExecutable,
    });
    if (!res.ok) {
      this.failed(res.message);
      return;
    }
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ language: "markdown", scheme: "file" }],
      outputChannel: this.output,
      // A function, so a restart sends the settings of that moment.
      initializationOptions: () => this.settings(),
      initializationFailedHandler: (e) => {
        this.failed(startFailedMessage(res.command, e));
        return false;
      },
      middleware: {
        // "Look up" and "Where is this established?" are shown here, as a
        // quick pick and a references peek. They go to the custom requests,
        // not the commands: run as commands the server also opens its own
        // documents for editors that show no command result, and the
        // writer would see both.
        executeCommand: async (command, args, next) => {
          if (command === Commands.lookup || command === Commands.explicate) {
            const method = command === Commands.lookup ? Methods.lookup : Methods.explicate;
            const result: unknown = await this.client!.sendRequest(method, args[0] ?? {});
            await (command === Commands.lookup ? this.showLookup(result) : this.showExplicate(result));
            return result;
          }
          return next(command, args);
        },
      },
    };
    const client = new QuireLanguageClient({ command: res.command, args: res.args, options: { env: process.env } }, clientOptions);
    this.client = client;
    client.onNotification(Methods.askProgress, (p: AskProgress) => this.chat.progress(p));
    client.onNotification(Methods.status, (b: BookStatus) => {
      this.books = mergeBook(this.books, b);
      this.renderStatus();
    });
    client.onDidChangeState((e) => {
      if (e.newState === State.Stopped && this.client === client && this.startError === undefined) {
        this.status.text = "$(debug-disconnect) quire: stopped";
        this.status.tooltip = "The quire server stopped. Click to restart it.";
        this.status.command = "quire.restartServer";
      }
    });
    try {
      await client.start();
    } catch (e) {
      if (this.startError === undefined) {
        this.failed(startFailedMessage(res.command, e));
      }
      return;
    }
    this.startError = undefined;
    this.renderStatus();
    try {
      const st = await client.sendRequest<StatusResult>(Methods.status, {});
      for (const b of st.books ?? []) {
        this.books = mergeBook(this.books, b);
      }
      this.renderStatus();
    } catch (e) {
      // A server without quire/status still works; the item stays plain.
      this.output.appendLine(`quire/status: ${errorOf(e).message}`);
    }
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c && c.state !== State.Stopped) {
      await c.stop().catch((e: unknown) => this.output.appendLine(`stopping the server: ${errorOf(e).message}`));
    }
  }

  private async restart(): Promise<void> {
    this.chat.serverRestarted();
    this.personaCache = [];
    this.books = [];
    this.startError = undefined;
    await this.stop();
    await this.start();
  }

  private failed(message: string): void {
    this.startError = message;
    this.output.appendLine(message);
    this.status.text = "$(error) quire: not running";
    this.status.tooltip = message;
    this.status.command = "quire.showStartError";
    this.showStartError(message);
  }

  private showStartError(message: string): void {
    void vscode.window.showErrorMessage(message, "Open settings", "Copy install command", "Retry").then((a) => {
      if (a === "Open settings") {
        this.openSettings("quire.serverPath");
      } else if (a === "Copy install command") {
        void vscode.env.clipboard.writeText("go install github.com/quire-ink/quire/cmd/quire@latest");
      } else if (a === "Retry") {
        void this.restart();
      }
    });
  }

  private openSettings(query: string): void {
    void vscode.commands.executeCommand("workbench.action.openSettings", query);
  }

  private configChanged(e: vscode.ConfigurationChangeEvent): void {
    const kinds = changeKinds((s) => e.affectsConfiguration(s));
    if (kinds.has("restart")) {
      void this.restart();
    } else if (kinds.has("server") && this.client?.isRunning()) {
      void this.client.sendNotification(DidChangeConfigurationNotification.type, didChangeConfigurationParams(this.settings()));
    }
    if (kinds.has("display")) {
      this.chat.refreshDisplay();
    }
  }

  private renderStatus(): void {
    if (this.startError !== undefined) {
      return;
    }
    const v = statusView(this.books);
    this.status.text = v.text;
    this.status.tooltip = v.tooltip;
    this.status.command = v.command;
  }

  private running(): QuireLanguageClient {
    if (!this.client || this.startError !== undefined) {
      throw new Error(this.startError ?? "the quire server is not running");
    }
    return this.client;
  }

  // ---- ChatHost ----

  async personas(): Promise<Persona[]> {
    if (this.personaCache.length === 0) {
      this.personaCache = (await this.running().sendRequest<Persona[] | null>(Methods.personas, {})) ?? [];
    }
    return this.personaCache;
  }

  ask(params: AskParams, token: vscode.CancellationToken): Promise<AskResult> {
    return this.running().sendRequest<AskResult>(Methods.ask, params, token);
  }

  async proposals(uri?: string): Promise<Proposal[]> {
    const r = await this.running().sendRequest<ProposalsResult>(Methods.proposals, uri ? { uri } : {});
    return r.proposals ?? [];
  }

  async applyProposal(id: string): Promise<{ applied: boolean; message?: string }> {
    const r = await this.running().sendRequest<ApplyResult>(Methods.applyProposal, { id });
    return { applied: r.applied, message: r.failureReason };
  }

  async discardProposal(id: string): Promise<void> {
    await this.running().sendRequest(Methods.discardProposal, { id });
  }

  editorContext(): { uri?: string; range?: Range } {
    const ed = this.lastEditor;
    if (!ed || ed.document.isClosed) {
      return {};
    }
    const uri = this.client ? this.client.code2ProtocolConverter.asUri(ed.document.uri) : ed.document.uri.toString();
    return ed.selection.isEmpty ? { uri } : { uri, range: toRange(ed.selection) };
  }

  log(line: string): void {
    this.output.appendLine(line);
  }

  rememberPersona(id: string): void {
    void this.context.workspaceState.update(personaKey, id);
  }

  defaultPersona(): string | undefined {
    const configured = this.config().get<string>("persona");
    return this.context.workspaceState.get<string>(personaKey) || configured || undefined;
  }

  // ---- commands ----

  private async pickPersona(): Promise<string | undefined> {
    let list: Persona[];
    try {
      list = await this.personas();
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: cannot list the personas: ${errorOf(e).message}`);
      return undefined;
    }
    const current = this.defaultPersona();
    const pick = await vscode.window.showQuickPick(
      list.map((p) => ({ label: p.name, description: p.id === current ? `${p.id} (current)` : p.id, detail: p.focus, id: p.id })),
      { title: "quire: Pick persona", placeHolder: "Who on the advisory board should answer?", matchOnDetail: true },
    );
    if (!pick) {
      return undefined;
    }
    this.rememberPersona(pick.id);
    this.chat.select(pick.id);
    return pick.id;
  }

  private async askAdvisor(): Promise<void> {
    const persona = this.defaultPersona() ?? (await this.pickPersona());
    if (!persona) {
      return;
    }
    const ctx = this.editorContext();
    const name = this.personaCache.find((p) => p.id === persona)?.name ?? persona;
    const about = contextLabel(ctx.uri, ctx.range);
    const message = await vscode.window.showInputBox({
      title: `quire: Ask ${name}`,
      prompt: about ? `About ${about}` : "No Markdown file is active; the question goes without a passage.",
      placeHolder: defaultQuestion,
      ignoreFocusOut: true,
    });
    if (message === undefined) {
      return;
    }
    void this.chat.ask({ persona, message: message.trim() || defaultQuestion, uri: ctx.uri, range: ctx.range });
  }

  private askFromCommand(args: unknown[]): Promise<void> | void {
    const p = askParamsFrom(args);
    if (!p) {
      return this.askAdvisor();
    }
    // Not awaited: an answer can take minutes, and the code action's
    // command should not hold the editor's action machinery that long.
    void this.chat.ask({ ...p, message: p.message ?? defaultQuestion });
  }

  // quire: Run advisor action…: pick one of the book's actions that
  // applies here, then run the server's own code action for it, so the
  // ask is exactly the one the light bulb would send.
  private async runAction(): Promise<void> {
    const active = vscode.window.activeTextEditor;
    const ed = active && isBookDocument(active.document) ? active : this.lastEditor;
    if (!ed || ed.document.isClosed || !isBookDocument(ed.document)) {
      void vscode.window.showInformationMessage("quire: open a Markdown file of your book to run an advisor action.");
      return;
    }
    let client: QuireLanguageClient;
    let all: AdvisorAction[];
    try {
      client = this.running();
      const uri = client.code2ProtocolConverter.asUri(ed.document.uri);
      all = (await client.sendRequest<AdvisorAction[] | null>(Methods.actions, { uri })) ?? [];
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: cannot list the advisor actions: ${errorOf(e).message}`);
      return;
    }
    const hasSelection = !ed.selection.isEmpty;
    const { shown, hidden } = applicableActions(all, hasSelection);
    if (shown.length === 0) {
      void vscode.window.showInformationMessage(noActionsMessage(all.length, hasSelection));
      return;
    }
    const pick = await vscode.window.showQuickPick(actionPickItems(shown), {
      title: "quire: Run advisor action",
      placeHolder: pickPlaceholder(hasSelection, hidden),
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (!pick) {
      return;
    }
    // The selection as it is now: the server offers the action only if it
    // still applies.
    let items: CodeActionLike[] | undefined;
    try {
      items = await vscode.commands.executeCommand<(vscode.Command | vscode.CodeAction)[]>(
        "vscode.executeCodeActionProvider",
        ed.document.uri,
        ed.selection,
      );
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: cannot get the code actions: ${errorOf(e).message}`);
      return;
    }
    const cmd = matchCodeAction(items, pick.action.label, occurrenceOf(shown, pick.action));
    if (!cmd) {
      void vscode.window.showWarningMessage(noMatchMessage(pick.action));
      return;
    }
    // The handler the light bulb's quire.ask runs: the chat shows it.
    await this.askFromCommand(cmd.arguments);
  }

  private async peekFromCommand(args: unknown[]): Promise<void> {
    let p = askParamsFrom(args);
    if (!p) {
      const ctx = this.editorContext();
      const message = await vscode.window.showInputBox({
        title: "quire: Peek prompt",
        prompt: "The question whose request to show (nothing is sent to the model)",
        value: defaultQuestion,
        ignoreFocusOut: true,
      });
      if (message === undefined) {
        return;
      }
      p = { persona: this.defaultPersona(), message, uri: ctx.uri, range: ctx.range };
    }
    await this.peekPrompt({ ...p, message: p.message ?? defaultQuestion });
  }

  async peekPrompt(params: AskParams): Promise<void> {
    try {
      const body: unknown = await this.running().sendRequest(Methods.peekPrompt, params);
      const persona = params.persona ?? this.defaultPersona();
      const name = this.personaCache.find((p) => p.id === persona)?.name ?? persona;
      const d = peekDoc(++this.peekSeq, name, body);
      // A read-only document: closing it never asks to save.
      const uri = this.showVirtual(vscode.Uri.from({ scheme: peekScheme, path: d.path }), d.content);
      await vscode.window.showTextDocument(uri, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: Peek prompt failed: ${errorOf(e).message}`);
    }
  }

  private async pickProposal(title: string): Promise<Proposal | undefined> {
    let list: Proposal[];
    try {
      list = (await this.proposals(this.editorContext().uri)).filter((p) => (p.status ?? "pending") === "pending");
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: cannot list the proposals: ${errorOf(e).message}`);
      return undefined;
    }
    if (list.length === 0) {
      void vscode.window.showInformationMessage("quire: no pending proposals. Ask the continuity editor to propose a codex update.");
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      list.map((p) => ({
        label: `${p.kind === "create" ? "$(new-file)" : "$(edit)"} ${p.name}`,
        description: p.changeSummary,
        detail: [p.path, p.soulPath].filter(Boolean).join(", ") + (p.warnings?.length ? ` · ⚠ ${p.warnings.join("; ")}` : ""),
        proposal: p,
      })),
      { title, matchOnDescription: true, matchOnDetail: true },
    );
    return pick?.proposal;
  }

  private showVirtual(uri: vscode.Uri, content: string): vscode.Uri {
    this.virtualDocs.set(uri.toString(), content);
    this.virtualDocsChanged.fire(uri);
    return uri;
  }

  /** closeDiff closes the tabs that show a proposal: once applied or discarded they compare nothing. */
  async closeDiff(id: string): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => {
      const input = t.input;
      if (input instanceof vscode.TabInputTextDiff) {
        return isProposalDoc(input.modified, id) || isProposalDoc(input.original, id);
      }
      return input instanceof vscode.TabInputText && isProposalDoc(input.uri, id);
    });
    if (tabs.length > 0) {
      await vscode.window.tabGroups.close(tabs).then(undefined, (e: unknown) => this.log(`closing the proposal's tabs: ${errorOf(e).message}`));
    }
    for (const k of [...this.virtualDocs.keys()]) {
      if (isProposalDoc(vscode.Uri.parse(k), id)) {
        this.virtualDocs.delete(k);
      }
    }
  }

  /** revealApplied opens the file an applied proposal changed: the edit is there, unsaved. */
  async revealApplied(p: Proposal, nearUri?: string): Promise<void> {
    const root = this.rootFor(nearUri);
    if (!root || !p.path) {
      return;
    }
    const file = vscode.Uri.file(path.join(root, p.path));
    await vscode.window
      .showTextDocument(file, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.One })
      .then(undefined, (e: unknown) => this.log(`showing ${p.path}: ${errorOf(e).message}`));
  }

  private proposalUi(title: string): ProposalUi {
    return {
      pick: () => this.pickProposal(title),
      showDiff: (p) => this.openDiff(p),
      confirm: async (question, detail, action) =>
        (await vscode.window.showInformationMessage(question, { modal: true, detail }, action)) === action,
      apply: (id) => this.applyProposal(id),
      discard: (id) => this.discardProposal(id),
      closeDiff: (id) => this.closeDiff(id),
      reveal: (p) => this.revealApplied(p),
      changed: (id, state) => this.chat.proposalChanged(id, state),
      info: (m) => void vscode.window.showInformationMessage(m),
      warn: (m) => void vscode.window.showWarningMessage(m),
      error: (m) => void vscode.window.showErrorMessage(m),
    };
  }

  private async applyFromCommand(args: unknown[]): Promise<void> {
    await applyProposalFlow(this.proposalUi("quire: Apply proposal"), idFrom(args));
  }

  private async discardFromCommand(args: unknown[]): Promise<void> {
    await discardProposalFlow(this.proposalUi("quire: Discard proposal"), idFrom(args));
  }

  private async reindex(args: unknown[]): Promise<void> {
    const a = args[0] as { uri?: unknown } | undefined;
    const uri = typeof a?.uri === "string" ? a.uri : this.editorContext().uri;
    try {
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: "quire: reindexing" },
        () => this.running().sendRequest<ReindexResult>(Methods.reindex, uri ? { uri } : {}),
      );
      this.books = mergeBook(this.books, { root: r.root, state: r.state, entries: r.entries, chapters: r.chapters, problems: r.problems, message: r.message });
      this.renderStatus();
      void vscode.window.showInformationMessage(
        `quire: reindexed ${path.basename(r.root)}: ${r.entries} entries, ${r.chapters} chapters, ${r.problems} problems (${r.ms} ms).`,
      );
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: reindex failed: ${errorOf(e).message}`);
    }
  }

  // ---- proposals in the diff editor ----

  private rootFor(nearUri?: string): string | undefined {
    const roots = this.books.map((b) => b.root);
    const uri = nearUri ? vscode.Uri.parse(nearUri) : this.lastEditor?.document.uri;
    if (uri && uri.scheme === "file") {
      const root = bookRootFor(uri.fsPath, roots);
      if (root) {
        return root;
      }
    }
    if (roots.length === 1) {
      return roots[0];
    }
    const folder = (uri && vscode.workspace.getWorkspaceFolder(uri)) ?? vscode.workspace.workspaceFolders?.[0];
    return folder?.uri.fsPath;
  }

  async openDiff(p: Proposal, nearUri?: string): Promise<void> {
    const root = this.rootFor(nearUri);
    const files = p.diff ? parseDiff(p.diff).files : [];
    if (!root || files.length === 0) {
      // No diff to apply: show the proposed text itself, read-only.
      const uri = this.showVirtual(vscode.Uri.from({ scheme: proposalScheme, path: proposalDocPath(p.id, p.path || `${p.name}.md`, "preview") }), p.markdown);
      await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return;
    }
    for (const f of files) {
      const rel = f.newPath ?? f.oldPath ?? p.path;
      const target = vscode.Uri.file(path.join(root, rel));
      let oldText = "";
      if (f.oldPath !== null) {
        try {
          oldText = (await vscode.workspace.openTextDocument(target)).getText();
        } catch (e) {
          void vscode.window.showWarningMessage(`quire: cannot read ${rel}: ${errorOf(e).message}`);
          continue;
        }
      }
      let newText: string;
      try {
        newText = applyFileDiff(oldText, f);
      } catch (e) {
        void vscode.window.showWarningMessage(`quire: ${rel} changed since the proposal was made (${errorOf(e).message}); applying it will be refused.`);
        continue;
      }
      const right = this.showVirtual(vscode.Uri.from({ scheme: proposalScheme, path: proposalDocPath(p.id, rel, "proposed") }), newText);
      let left = target;
      if (f.oldPath === null) {
        left = this.showVirtual(vscode.Uri.from({ scheme: proposalScheme, path: proposalDocPath(p.id, rel, "empty") }), "");
      }
      await vscode.commands.executeCommand("vscode.diff", left, right, `${path.basename(rel)} ↔ proposal: ${p.changeSummary || p.name}`, {
        preview: files.length === 1,
      });
    }
  }

  // ---- results of the server's other code actions ----

  private async showLookup(result: unknown): Promise<void> {
    type Entry = { projectPath?: string; relativePath?: string; name?: string; type?: string; summary?: string };
    const results = ((result as { results?: Entry[] } | undefined)?.results ?? []).filter((r) => r.relativePath);
    if (results.length === 0) {
      void vscode.window.showInformationMessage("quire: no codex entry found.");
      return;
    }
    const open = async (r: Entry): Promise<void> => {
      const file = path.isAbsolute(r.relativePath!) ? r.relativePath! : path.join(r.projectPath ?? this.rootFor() ?? "", r.relativePath!);
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    };
    if (results.length === 1) {
      await open(results[0]);
      return;
    }
    const pick = await vscode.window.showQuickPick(
      results.map((r) => ({ label: r.name ?? r.relativePath!, description: r.type, detail: r.summary, r })),
      { title: "quire: Look up" },
    );
    if (pick) {
      await open(pick.r);
    }
  }

  private async showExplicate(result: unknown): Promise<void> {
    type Loc = { uri: string; range: Range };
    const passages = (result as { passages?: { location?: Loc }[] } | undefined)?.passages ?? [];
    const locations = passages
      .map((p) => p.location)
      .filter((l): l is Loc => l !== undefined)
      .map((l) => this.client!.protocol2CodeConverter.asLocation(l));
    const ed = vscode.window.activeTextEditor;
    if (locations.length === 0 || !ed) {
      void vscode.window.showInformationMessage("quire: no passage of the manuscript establishes this.");
      return;
    }
    await vscode.commands.executeCommand("editor.action.showReferences", ed.document.uri, ed.selection.start, locations);
  }
}

let quire: Quire | undefined;

export function activate(context: vscode.ExtensionContext): void {
  quire = new Quire(context);
  context.subscriptions.push(quire);
  // Not awaited: the commands and the chat view are usable (and say what
  // is wrong) while the server starts or when it cannot.
  void quire.start().catch((e: unknown) => {
    void vscode.window.showErrorMessage(`quire: ${e instanceof ResponseError || e instanceof Error ? e.message : String(e)}`);
  });
}

export async function deactivate(): Promise<void> {
  await quire?.stop();
  quire = undefined;
}
