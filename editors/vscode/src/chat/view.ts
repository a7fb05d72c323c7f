// The advisor chat: a webview view in quire's activity-bar container.
// The conversation state lives here, in the extension host; the webview
// gets a fresh view model on every change and only reports clicks.
import * as crypto from "crypto";
import * as vscode from "vscode";
import { ResponseError } from "vscode-languageclient/node";
import { contextLabel, userTurn } from "../commands";
import { AskParams, AskProgress, AskResult, ErrorCodes, Persona, Proposal, Range } from "../protocol";
import { DisplaySettings } from "../settings";
import { chatHtml } from "./html";
import { FromWebview, ToWebview } from "./messages";
import { Action, ChatState, emptyState, reduce, runningToken } from "./state";
import { viewModel } from "./viewModel";

/** What the chat needs from the rest of the extension. */
export interface ChatHost {
  personas(): Promise<Persona[]>;
  ask(params: AskParams, token: vscode.CancellationToken): Promise<AskResult>;
  proposals(uri?: string): Promise<Proposal[]>;
  applyProposal(id: string): Promise<{ applied: boolean; message?: string }>;
  discardProposal(id: string): Promise<void>;
  openDiff(p: Proposal, nearUri?: string): Promise<void>;
  // closeDiff closes the proposal's diff tabs once it is applied or discarded.
  closeDiff(id: string): Promise<void>;
  // revealApplied shows the file an applied proposal changed.
  revealApplied(p: Proposal, nearUri?: string): Promise<void>;
  peekPrompt(params: AskParams): Promise<void>;
  editorContext(): { uri?: string; range?: Range };
  display(): DisplaySettings;
  rememberPersona(id: string): void;
  defaultPersona(): string | undefined;
  // log writes to the extension's output channel.
  log(line: string): void;
}

export function errorOf(e: unknown): { code?: number; message: string } {
  if (e instanceof ResponseError) {
    return { code: e.code, message: e.message };
  }
  return { message: e instanceof Error ? e.message : String(e) };
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewId = "quire.chat";

  private view?: vscode.WebviewView;
  private state: ChatState = emptyState;
  private personaList: Persona[] = [];
  private cancels = new Map<string, vscode.CancellationTokenSource>();
  // The document and persona each ask was about, to find proposals' book.
  private askUris = new Map<string, string | undefined>();
  private proposalInfo = new Map<string, Proposal>();
  private seq = 0;
  private postTimer?: NodeJS.Timeout;
  private disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: ChatHost,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, "media")] };
    view.webview.html = this.html(view.webview);
    this.disposables.push(
      view.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m)),
      view.onDidChangeVisibility(() => view.visible && this.post()),
      view.onDidDispose(() => (this.view = undefined)),
    );
  }

  dispose(): void {
    for (const c of this.cancels.values()) {
      c.cancel();
    }
    clearTimeout(this.postTimer);
    this.disposables.forEach((d) => d.dispose());
  }

  /** reveal shows the chat, creating the webview if needed. */
  async reveal(): Promise<void> {
    if (this.view) {
      this.view.show(true);
    } else {
      await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
    }
  }

  async loadPersonas(): Promise<Persona[]> {
    if (this.personaList.length === 0) {
      this.personaList = await this.host.personas();
      if (this.state.active === undefined && this.personaList.length > 0) {
        const want = this.host.defaultPersona();
        const id = this.personaList.some((p) => p.id === want) ? want! : this.personaList[0].id;
        this.dispatch({ type: "select", persona: id });
      }
      this.post();
    }
    return this.personaList;
  }

  /** forgetPersonas drops the cached list, e.g. after a server restart. */
  serverRestarted(): void {
    this.personaList = [];
    for (const c of this.cancels.values()) {
      c.cancel();
    }
  }

  select(persona: string): void {
    this.dispatch({ type: "select", persona });
  }

  progress(p: AskProgress): void {
    this.dispatch({ type: "progress", params: p });
  }

  refreshDisplay(): void {
    this.post();
  }

  /** ask runs a question in the chat, in the persona's conversation. */
  async ask(params: AskParams): Promise<void> {
    await this.reveal();
    try {
      await this.loadPersonas();
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: cannot list the personas: ${errorOf(e).message}`);
      return;
    }
    const persona = params.persona ?? this.state.active ?? this.host.defaultPersona() ?? this.personaList[0]?.id;
    if (persona === undefined) {
      return;
    }
    if (runningToken(this.state, persona) !== undefined) {
      void vscode.window.showInformationMessage("quire: this advisor is still answering; cancel it or wait.");
      return;
    }
    this.host.rememberPersona(persona);
    const token = `quire-ask-${++this.seq}-${Date.now()}`;
    const conversationId = params.conversationId ?? this.state.conversations[persona]?.conversationId;
    this.dispatch({ type: "ask", persona, token, text: userTurn(params), context: contextLabel(params.uri, params.range) });
    const cts = new vscode.CancellationTokenSource();
    this.cancels.set(token, cts);
    this.askUris.set(token, params.uri);
    try {
      const result = await this.host.ask({ ...params, persona, conversationId, workDoneToken: token }, cts.token);
      this.dispatch({ type: "result", token, result });
      if ((result.proposals ?? []).length > 0) {
        await this.fetchProposals(result.proposals ?? [], params.uri);
      }
    } catch (e) {
      const err = errorOf(e);
      // The client rejects a cancelled request itself, with its own code.
      this.dispatch(
        cts.token.isCancellationRequested
          ? { type: "cancelled", token }
          : { type: "failed", token, code: err.code, message: err.message },
      );
    } finally {
      this.cancels.delete(token);
      cts.dispose();
    }
  }

  private async fetchProposals(ids: string[], uri?: string): Promise<void> {
    try {
      const list = await this.host.proposals(uri);
      for (const p of list) {
        this.proposalInfo.set(p.id, p);
      }
      this.dispatch({ type: "proposals", proposals: list });
      const missing = ids.filter((id) => !list.some((p) => p.id === id));
      if (missing.length > 0) {
        this.dispatch({ type: "proposalMissing", ids: missing, message: "The server no longer lists this proposal." });
      }
    } catch (e) {
      this.dispatch({ type: "proposalMissing", ids, message: `Could not load the proposal: ${errorOf(e).message}` });
    }
  }

  private uriForProposal(id: string): string | undefined {
    for (const conv of Object.values(this.state.conversations)) {
      for (const m of conv.messages) {
        if (m.kind === "assistant" && m.proposals.some((p) => p.id === id)) {
          return this.askUris.get(m.token);
        }
      }
    }
    return undefined;
  }

  private async onMessage(m: FromWebview): Promise<void> {
    switch (m.type) {
      case "ready":
        this.post();
        this.loadPersonas().catch((e) => this.postError(`Cannot list the personas: ${errorOf(e).message}`));
        return;
      case "ask": {
        const text = m.text.trim();
        if (text !== "") {
          const ctx = this.host.editorContext();
          await this.ask({ persona: this.state.active, message: text, uri: ctx.uri, range: ctx.range });
        }
        return;
      }
      case "peek": {
        const ctx = this.host.editorContext();
        const persona = this.state.active;
        await this.host.peekPrompt({
          persona,
          message: m.text.trim() || "What do you think of this passage?",
          uri: ctx.uri,
          range: ctx.range,
          conversationId: persona ? this.state.conversations[persona]?.conversationId : undefined,
        });
        return;
      }
      case "cancel": {
        const token = this.state.active && runningToken(this.state, this.state.active);
        if (token) {
          this.cancels.get(token)?.cancel();
        }
        return;
      }
      case "persona":
        this.select(m.id);
        this.host.rememberPersona(m.id);
        return;
      case "reset":
        if (this.state.active) {
          const token = runningToken(this.state, this.state.active);
          if (token) {
            this.cancels.get(token)?.cancel();
          }
          this.dispatch({ type: "reset", persona: this.state.active });
        }
        return;
      case "open": {
        const uri = vscode.Uri.parse(m.uri, true);
        const selection = m.range
          ? new vscode.Range(m.range.start.line, m.range.start.character, m.range.end.line, m.range.end.character)
          : undefined;
        await vscode.window.showTextDocument(uri, { selection, preview: true, viewColumn: vscode.ViewColumn.One });
        return;
      }
      case "link":
        await this.openLink(m.href);
        return;
      case "apply":
        await this.apply(m.id);
        return;
      case "discard":
        await this.discard(m.id);
        return;
      case "renderError":
        this.host.log(`chat: could not draw a message: ${m.message}`);
        return;
      case "diff": {
        const p = this.proposalInfo.get(m.id);
        if (p) {
          await this.host.openDiff(p, this.uriForProposal(m.id));
        }
        return;
      }
    }
  }

  private async openLink(href: string): Promise<void> {
    if (/^https?:/i.test(href)) {
      await vscode.env.openExternal(vscode.Uri.parse(href, true));
      return;
    }
    let uri: vscode.Uri | undefined;
    if (/^file:/i.test(href)) {
      uri = vscode.Uri.parse(href, true);
    } else {
      // A project-relative path, as advisors cite codex files.
      const folder = vscode.workspace.workspaceFolders?.[0];
      uri = folder ? vscode.Uri.joinPath(folder.uri, href.split("#")[0]) : undefined;
    }
    if (uri) {
      await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.One }).then(undefined, (e) =>
        vscode.window.showWarningMessage(`quire: cannot open ${href}: ${errorOf(e).message}`),
      );
    }
  }

  private async apply(id: string): Promise<void> {
    this.dispatch({ type: "proposalOutcome", id, state: "applying" });
    try {
      const r = await this.host.applyProposal(id);
      if (r.applied) {
        await this.host.closeDiff(id);
        const p = this.proposalInfo.get(id);
        if (p) {
          await this.host.revealApplied(p, this.uriForProposal(id));
        }
      }
      this.dispatch(
        r.applied
          ? { type: "proposalOutcome", id, state: "applied", message: r.message }
          : { type: "proposalOutcome", id, state: "failed", message: r.message ?? "The editor did not apply the edit." },
      );
    } catch (e) {
      const err = errorOf(e);
      this.dispatch({ type: "proposalOutcome", id, state: err.code === ErrorCodes.InvalidRequest ? "refused" : "failed", message: err.message });
    }
  }

  private async discard(id: string): Promise<void> {
    try {
      await this.host.discardProposal(id);
      await this.host.closeDiff(id);
      this.dispatch({ type: "proposalOutcome", id, state: "discarded" });
    } catch (e) {
      this.dispatch({ type: "proposalOutcome", id, state: "failed", message: errorOf(e).message });
    }
  }

  /** proposalChanged records an apply or discard done outside the chat (the palette commands). */
  proposalChanged(id: string, state: "applied" | "discarded"): void {
    this.dispatch({ type: "proposalOutcome", id, state });
  }

  private dispatch(a: Action): void {
    const next = reduce(this.state, a);
    if (next === this.state) {
      return;
    }
    this.state = next;
    // Streamed deltas arrive many times a second; one redraw per frame is enough.
    if (a.type === "progress") {
      this.postTimer ??= setTimeout(() => this.post(), 50);
    } else {
      this.post();
    }
  }

  private post(): void {
    clearTimeout(this.postTimer);
    this.postTimer = undefined;
    if (!this.view) {
      return;
    }
    const ctx = this.host.editorContext();
    const vm = viewModel(this.state, this.personaList, this.host.display(), contextLabel(ctx.uri, ctx.range));
    void this.view.webview.postMessage({ type: "state", vm } satisfies ToWebview);
  }

  private postError(message: string): void {
    void this.view?.webview.postMessage({ type: "error", message } satisfies ToWebview);
  }

  /** editorChanged redraws the "about" line when the writer moves to another file or selection. */
  editorChanged(): void {
    if (this.view?.visible) {
      this.postTimer ??= setTimeout(() => this.post(), 150);
    }
  }

  private html(webview: vscode.Webview): string {
    return chatHtml({
      cspSource: webview.cspSource,
      nonce: crypto.randomBytes(16).toString("base64"),
      media: (f) => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, "media", f)).toString(),
    });
  }
}
