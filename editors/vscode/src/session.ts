// The extension's connection to the quire server: the language client's
// lifecycle, the settings sent to it, the status bar item that shows its
// state, the writer's current book document, and the server's requests
// as typed calls. Commands, proposals and views work through it.
import * as fs from "fs";
import * as os from "os";
import * as vscode from "vscode";
import { DidChangeConfigurationNotification, LanguageClientOptions, State } from "vscode-languageclient/node";
import { ApiKeys, fingerprint, HandedKey } from "./apiKeys";
import { errorOf } from "./chat/view";
import { QuireLanguageClient } from "./client";
import { bookRootFor } from "./commands";
import {
  AdvisorAction,
  ApplyResult,
  AskParams,
  AskProgress,
  AskResult,
  BookStatus,
  Commands,
  DiscardResult,
  DoctorResult,
  ExplicateResult,
  LocalModel,
  Location,
  Methods,
  Persona,
  Proposal,
  ProposalsResult,
  QueryResult,
  Range,
  ReindexResult,
  Stats,
  StatusResult,
} from "./protocol";
import { Action, actionLabel, bundledPath, downloadPage, Resolution, resolveServer, settingsCommand, Source, startFailedMessage, VersionWarnings } from "./server";
import { advisorView } from "./health";
import { providerLabel, serverEnv } from "./keys";
import { changeKinds, didChangeConfigurationParams, DisplaySettings, displaySettingsOf, serverSettings, ServerSettings } from "./settings";
import { mergeBook, providerChanged, statusView } from "./status";
import { Views } from "./views";

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

// restoreExecutable gives the bundled server back its executable bit if
// the .vsix was unpacked by something that dropped it (the package stores
// 0755; VS Code keeps it). The folder is the writer's own extension.
function restoreExecutable(p: string): void {
  if (process.platform === "win32") {
    return;
  }
  try {
    const st = fs.statSync(p);
    if (st.isFile() && (st.mode & 0o111) === 0) {
      fs.chmodSync(p, st.mode | 0o755);
    }
  } catch {
    // No bundled server (the universal .vsix): resolveServer goes on to PATH.
  }
}

function toRange(r: vscode.Range): Range {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}

export function isBookDocument(d: vscode.TextDocument): boolean {
  return d.languageId === "markdown" && d.uri.scheme === "file";
}

export class Session implements vscode.Disposable {
  private client?: QuireLanguageClient;
  private readonly output = vscode.window.createOutputChannel("quire");
  private readonly status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  // The advisor's item: ready, or why not (quire/doctor's report).
  private readonly advisor = vscode.window.createStatusBarItem("quire.advisor", vscode.StatusBarAlignment.Left, 49);
  // The key the running server was handed (a fingerprint, never the key).
  private handedKey = "";
  // hovered says a hover has shown the writer a card (the walkthrough's
  // "Hover a name" step).
  private hovered = false;
  private keyCheck: Promise<void> = Promise.resolve();
  private advisorSeq = 0;
  private readonly disposables: vscode.Disposable[] = [];
  private books: BookStatus[] = [];
  private personaCache: Persona[] = [];
  private lastEditor?: vscode.TextEditor;
  private startError?: string;
  private startActions: Action[] = [];
  private readonly versionWarnings = new VersionWarnings();
  private readonly askProgressed = new vscode.EventEmitter<AskProgress>();
  private readonly restarted = new vscode.EventEmitter<void>();
  private readonly displayChanged = new vscode.EventEmitter<void>();
  private readonly editorChanged = new vscode.EventEmitter<void>();

  /** onAskProgress fires for each quire/askProgress notification: a tool row or a piece of an answer. */
  readonly onAskProgress = this.askProgressed.event;
  /** onRestart fires before the server restarts: asks in flight will not finish. */
  readonly onRestart = this.restarted.event;
  /** onDisplayChange fires when a setting of the chat's display changes. */
  readonly onDisplayChange = this.displayChanged.event;
  /** onEditorChange fires when the writer moves to another book document or selection. */
  readonly onEditorChange = this.editorChanged.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly views: Views,
    private readonly apiKeys: ApiKeys,
  ) {
    const active = vscode.window.activeTextEditor;
    if (active && isBookDocument(active.document)) {
      this.lastEditor = active;
    }
    this.disposables.push(
      this.output,
      this.status,
      this.advisor,
      this.askProgressed,
      this.restarted,
      this.displayChanged,
      this.editorChanged,
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (e && isBookDocument(e.document)) {
          this.lastEditor = e;
          this.editorChanged.fire();
        }
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (isBookDocument(e.textEditor.document)) {
          this.lastEditor = e.textEditor;
          this.editorChanged.fire();
        }
      }),
      vscode.workspace.onDidChangeConfiguration((e) => this.configChanged(e)),
      apiKeys.onDidChange(() => this.keyChanged()),
    );
    this.advisor.name = "quire advisor";
    this.advisor.command = "quire.showHealth";
    this.renderStatus();
    this.status.show();
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  // ---- server lifecycle ----

  config(): vscode.WorkspaceConfiguration {
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

  /**
   * linesOfHere shows, in the references peek, every line of the
   * character named or speaking at the cursor (quire/linesOf).
   */
  async linesOfHere(): Promise<void> {
    const ed = vscode.window.activeTextEditor;
    const client = this.client;
    if (!ed || !client || !isBookDocument(ed.document)) {
      void vscode.window.showInformationMessage("quire: put the cursor on a character's name or a line of dialogue in a chapter.");
      return;
    }
    const pos = ed.selection.active;
    try {
      const locations = await client.sendRequest<Location[] | undefined>(Methods.linesOf, {
        uri: ed.document.uri.toString(),
        position: { line: pos.line, character: pos.character },
      });
      await this.views.showLinesOf(locations, (l) => client.protocol2CodeConverter.asLocation(l));
    } catch (e) {
      void vscode.window.showInformationMessage(`quire: ${errorOf(e).message}`);
    }
  }

  /** resolve finds the quire program to run, as start does. */
  resolve(): Resolution {
    const cfg = this.config();
    restoreExecutable(bundledPath(this.context.extensionPath, process.platform));
    return resolveServer(cfg.get("serverPath"), cfg.get("serverArgs"), {
      platform: process.platform,
      env: process.env,
      homedir: os.homedir(),
      extensionPath: this.context.extensionPath,
      isExecutable,
    });
  }

  async start(): Promise<void> {
    const res = this.resolve();
    if (!res.ok) {
      this.failed(res.message, res.actions);
      return;
    }
    this.output.appendLine(`starting ${res.command} (${res.source === "setting" ? "quire.serverPath" : res.source === "bundled" ? "bundled with the extension" : "found on PATH"})`);
    const clientOptions: LanguageClientOptions = {
      documentSelector: [{ language: "markdown", scheme: "file" }],
      outputChannel: this.output,
      // A function, so a restart sends the settings of that moment.
      initializationOptions: () => this.settings(),
      initializationFailedHandler: (e) => {
        this.failed(startFailedMessage(res.command, res.source, e), ["settings", "download"]);
        return false;
      },
      middleware: {
        // The walkthrough's "Hover a name" step is done once a hover of a
        // book's file has shown the writer something.
        provideHover: async (document, position, token, next) => {
          const hover = await next(document, position, token);
          if (hover && !this.hovered) {
            this.hovered = true;
            void vscode.commands.executeCommand("setContext", "quire.hovered", true);
          }
          return hover;
        },
        // "Look up" and "Where is this established?" are shown here, as a
        // quick pick and a references peek. They go to the custom requests,
        // not the commands: run as commands the server also opens its own
        // documents for editors that show no command result, and the
        // writer would see both.
        executeCommand: async (command, args, next) => {
          if (command === Commands.lookup) {
            const result = await this.client!.sendRequest<QueryResult | undefined>(Methods.lookup, args[0] ?? {});
            await this.views.showLookup(result, this.rootFor());
            return result;
          }
          // "Lines of <Name>" is the references peek of the character's
          // lines, not the server's document for editors with no list.
          if (command === Commands.linesOf) {
            const client = this.client!;
            const locations = await client.sendRequest<Location[] | undefined>(Methods.linesOf, args[0] ?? {});
            await this.views.showLinesOf(locations, (l) => client.protocol2CodeConverter.asLocation(l));
            return locations;
          }
          if (command === Commands.explicate) {
            const client = this.client!;
            const result = await client.sendRequest<ExplicateResult | undefined>(Methods.explicate, args[0] ?? {});
            await this.views.showExplicate(result, (l) => client.protocol2CodeConverter.asLocation(l));
            return result;
          }
          return next(command, args);
        },
      },
    };
    // The writer's key reaches the server through its environment only:
    // initializationOptions and settings go through the trace.
    const handed = await this.keyToHand();
    this.handedKey = fingerprint(handed);
    this.output.appendLine(handed ? `handing the server the API key kept for ${providerLabel(handed.url)}` : "no API key kept in VS Code for the server");
    const client = new QuireLanguageClient({ command: res.command, args: res.args, options: { env: serverEnv(process.env, handed) } }, clientOptions);
    this.client = client;
    client.onNotification(Methods.askProgress, (p: AskProgress) => this.askProgressed.fire(p));
    client.onNotification(Methods.status, (b: BookStatus) => {
      const changed = providerChanged(this.books, b);
      this.books = mergeBook(this.books, b);
      this.renderStatus();
      if (changed) {
        void this.refreshAdvisor();
      }
    });
    client.onDidChangeState((e) => {
      if (e.newState === State.Stopped && this.client === client) {
        // No server, no report: the item would tell of one that is gone.
        this.advisor.hide();
      }
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
        this.failed(startFailedMessage(res.command, res.source, e), ["settings", "download"]);
      }
      return;
    }
    this.startError = undefined;
    this.renderStatus();
    this.checkVersion(client.initializeResult?.serverInfo?.version, res.command, res.source);
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
    void this.refreshAdvisor();
  }

  private keyToHand(): Promise<HandedKey | undefined> {
    return this.apiKeys.handed(this.config().get<string>("provider.baseUrl"));
  }

  /**
   * keyChanged restarts the server when the key it should hold is not the
   * one it was handed: a key set, changed or removed here or in another
   * window, or a provider setting that picks another kept key. One check
   * at a time, so a change seen twice restarts once.
   */
  keyChanged(): Promise<void> {
    // A check that failed does not stop the next one.
    this.keyCheck = this.keyCheck
      .then(async () => {
        const next = fingerprint(await this.keyToHand());
        if (next === this.handedKey || this.client === undefined) {
          return;
        }
        this.output.appendLine("the API key changed: restarting the server so that it takes effect");
        await this.restart();
      })
      .catch((e: unknown) => this.output.appendLine(`restarting the server after an API key change: ${errorOf(e).message}`));
    return this.keyCheck;
  }

  /** refreshAdvisor asks for the health report and shows the advisor's state from it. */
  async refreshAdvisor(): Promise<DoctorResult | undefined> {
    const seq = ++this.advisorSeq;
    let r: DoctorResult;
    try {
      r = await this.doctor();
    } catch (e) {
      if (seq === this.advisorSeq) {
        this.advisor.hide();
      }
      this.output.appendLine(`quire/doctor: ${errorOf(e).message}`);
      return undefined;
    }
    if (seq === this.advisorSeq) {
      const v = advisorView(r.checks ?? []);
      this.advisor.text = v.text;
      this.advisor.tooltip = v.tooltip;
      this.advisor.show();
    }
    return r;
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c && c.state !== State.Stopped) {
      await c.stop().catch((e: unknown) => this.output.appendLine(`stopping the server: ${errorOf(e).message}`));
    }
  }

  async restart(): Promise<void> {
    this.restarted.fire();
    this.personaCache = [];
    this.books = [];
    this.startError = undefined;
    await this.stop();
    await this.start();
  }

  // checkVersion warns once when the server is another release than the
  // extension: their protocol moves together, and a writer who reports a
  // bug needs to know which quire answered.
  private checkVersion(serverVersion: string | undefined, command: string, source: Source): void {
    const extensionVersion = String((this.context.extension.packageJSON as { version?: unknown }).version ?? "");
    this.output.appendLine(`server ${command}: version ${serverVersion ?? "unknown"}; extension ${extensionVersion}`);
    const w = this.versionWarnings.next(serverVersion, extensionVersion, command, source);
    if (w === undefined) {
      return;
    }
    this.output.appendLine(w.message);
    void vscode.window.showWarningMessage(w.message, ...w.actions.map(actionLabel)).then((a) => this.act(a));
  }

  // act does what a message's button says.
  private act(label: string | undefined): void {
    if (label === actionLabel("download")) {
      void vscode.env.openExternal(vscode.Uri.parse(downloadPage));
    } else if (label === actionLabel("settings")) {
      this.openSettings("quire.serverPath");
    }
  }

  private failed(message: string, actions: Action[]): void {
    this.startError = message;
    this.advisor.hide();
    this.startActions = actions;
    this.output.appendLine(message);
    this.status.text = "$(error) quire: not running";
    this.status.tooltip = message;
    this.status.command = "quire.showStartError";
    this.showStartError();
  }

  /** showStartError tells the writer again why the server did not start, if it did not. */
  showStartError(): void {
    const message = this.startError;
    if (message === undefined) {
      return;
    }
    void vscode.window.showErrorMessage(message, ...this.startActions.map(actionLabel), "Retry").then((a) => {
      if (a === "Retry") {
        void this.restart();
      } else {
        this.act(a);
      }
    });
  }

  private openSettings(query: string): void {
    const { command, arg } = settingsCommand(query, vscode.env.remoteName);
    void vscode.commands.executeCommand(command, arg);
  }

  private configChanged(e: vscode.ConfigurationChangeEvent): void {
    const kinds = changeKinds((s) => e.affectsConfiguration(s));
    if (kinds.has("restart")) {
      void this.restart();
    } else if (kinds.has("server") && this.client?.isRunning()) {
      void this.client.sendNotification(DidChangeConfigurationNotification.type, didChangeConfigurationParams(this.settings())).then(() => this.refreshAdvisor());
      if (e.affectsConfiguration("quire.provider.baseUrl")) {
        void this.keyChanged();
      }
    }
    if (kinds.has("display")) {
      this.displayChanged.fire();
    }
  }

  private renderStatus(): void {
    // The walkthrough's first step is done once a book is open.
    void vscode.commands.executeCommand("setContext", "quire.bookOpen", this.books.length > 0);
    if (this.startError !== undefined) {
      return;
    }
    const v = statusView(this.books);
    this.status.text = v.text;
    this.status.tooltip = v.tooltip;
    this.status.command = v.command;
  }

  /** running is the client, or an error that says why there is none. */
  running(): QuireLanguageClient {
    if (!this.client || this.startError !== undefined) {
      throw new Error(this.startError ?? "the quire server is not running");
    }
    return this.client;
  }

  // ---- the server's requests ----

  /** doctor is the health report of the book of the last document (the first book without one). */
  doctor(): Promise<DoctorResult> {
    const uri = this.editorContext().uri;
    return this.running().sendRequest<DoctorResult>(Methods.doctor, uri ? { uri } : {});
  }

  /** stats are the word counts and goals of the book of uri (the first book without one). */
  stats(uri?: string): Promise<Stats> {
    return this.running().sendRequest<Stats>(Methods.stats, uri ? { uri } : {});
  }

  /** localModels lists the models of the servers running on this computer. */
  async localModels(): Promise<LocalModel[]> {
    return (await this.running().sendRequest<LocalModel[] | null>(Methods.models, {})) ?? [];
  }

  async personas(): Promise<Persona[]> {
    if (this.personaCache.length === 0) {
      this.personaCache = (await this.running().sendRequest<Persona[] | null>(Methods.personas, {})) ?? [];
    }
    return this.personaCache;
  }

  /** personaName is the name of a persona already listed, else its id. */
  personaName(id: string | undefined): string | undefined {
    return this.personaCache.find((p) => p.id === id)?.name ?? id;
  }

  ask(params: AskParams, token: vscode.CancellationToken): Promise<AskResult> {
    return this.running().sendRequest<AskResult>(Methods.ask, params, token);
  }

  /** peekPrompt shows the request quire/ask would send for params; nothing is sent to the model. */
  async peekPrompt(params: AskParams): Promise<void> {
    try {
      const body: unknown = await this.running().sendRequest(Methods.peekPrompt, params);
      await this.views.showPeek(this.personaName(params.persona ?? this.defaultPersona()), body);
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: Peek prompt failed: ${errorOf(e).message}`);
    }
  }

  /** actions lists the advisor actions of the book of the document uri. */
  async actions(uri: string): Promise<AdvisorAction[]> {
    return (await this.running().sendRequest<AdvisorAction[] | null>(Methods.actions, { uri })) ?? [];
  }

  async proposals(uri?: string): Promise<Proposal[]> {
    const r = await this.running().sendRequest<ProposalsResult>(Methods.proposals, uri ? { uri } : {});
    return r.proposals ?? [];
  }

  applyProposal(id: string): Promise<ApplyResult> {
    return this.running().sendRequest<ApplyResult>(Methods.applyProposal, { id });
  }

  async discardProposal(id: string): Promise<void> {
    await this.running().sendRequest<DiscardResult>(Methods.discardProposal, { id });
  }

  /** reindex rebuilds the index of the book of uri (the first book without) and shows its new state. */
  async reindex(uri?: string): Promise<ReindexResult> {
    const r = await this.running().sendRequest<ReindexResult>(Methods.reindex, uri ? { uri } : {});
    this.books = mergeBook(this.books, { root: r.root, state: r.state, entries: r.entries, chapters: r.chapters, problems: r.problems, message: r.message });
    this.renderStatus();
    return r;
  }

  // ---- the writer's place ----

  /** bookEditor is the editor of the book document the writer was last in, if still open. */
  bookEditor(): vscode.TextEditor | undefined {
    return this.lastEditor;
  }

  /** asUri is a document's uri as the server spells it. */
  asUri(uri: vscode.Uri): string {
    return this.client ? this.client.code2ProtocolConverter.asUri(uri) : uri.toString();
  }

  editorContext(): { uri?: string; range?: Range } {
    const ed = this.lastEditor;
    if (!ed || ed.document.isClosed) {
      return {};
    }
    const uri = this.asUri(ed.document.uri);
    return ed.selection.isEmpty ? { uri } : { uri, range: toRange(ed.selection) };
  }

  /** rootFor is the folder of the book nearUri (else the last document) is in. */
  rootFor(nearUri?: string): string | undefined {
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
}
