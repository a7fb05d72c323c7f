// The extension's own commands: asking an advisor (from the palette or a
// server code action), running an advisor action, picking a persona,
// peeking at a prompt, reindexing, the book map, and the server's lifecycle. Argument
// reading lives in commands.ts; proposals' commands in proposals.ts.
import * as path from "path";
import * as vscode from "vscode";
import { actionPickItems, applicableActions, CodeActionLike, matchCodeAction, noActionsMessage, noMatchMessage, occurrenceOf, pickPlaceholder } from "./actions";
import { ChatViewProvider, errorOf } from "./chat/view";
import { bookMapArgs } from "./bookMap";
import { askParamsFrom, contextLabel } from "./commands";
import { MapPanel } from "./mapPanel";
import { AdvisorAction, AskParams, Persona } from "./protocol";
import { Proposals } from "./proposals";
import { isBookDocument, Session } from "./session";

// The question the server's own code actions ask; used when the writer
// leaves the question empty.
const defaultQuestion = "What do you think of this passage?";

export class QuireCommands implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly session: Session,
    private readonly proposals: Proposals,
    private readonly chat: ChatViewProvider,
    private readonly map: MapPanel,
  ) {
    const commands: [string, (...args: unknown[]) => unknown][] = [
      ["quire.askAdvisor", () => this.askAdvisor()],
      ["quire.ask", (...args) => this.askFromCommand(args)],
      ["quire.runAction", () => this.runAction()],
      ["quire.pickPersona", () => this.pickPersona()],
      ["quire.applyProposal", (...args) => this.proposals.applyFromCommand(args)],
      ["quire.discardProposal", (...args) => this.proposals.discardFromCommand(args)],
      ["quire.peekPrompt", (...args) => this.peekFromCommand(args)],
      ["quire.reindex", (...args) => this.reindex(args)],
      ["quire.openChat", () => this.chat.reveal()],
      ["quire.bookMap", (...args) => this.map.show(bookMapArgs(args).uri)],
      ["quire.restartServer", () => this.session.restart()],
      ["quire.showLinesOf", () => this.session.linesOfHere()],
      ["quire.showStartError", () => this.session.showStartError()],
    ];
    for (const [id, fn] of commands) {
      this.disposables.push(vscode.commands.registerCommand(id, fn));
    }
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  private async pickPersona(): Promise<string | undefined> {
    let list: Persona[];
    try {
      list = await this.session.personas();
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: cannot list the personas: ${errorOf(e).message}`);
      return undefined;
    }
    const current = this.session.defaultPersona();
    const pick = await vscode.window.showQuickPick(
      list.map((p) => ({ label: p.name, description: p.id === current ? `${p.id} (current)` : p.id, detail: p.focus, id: p.id })),
      { title: "quire: Pick persona", placeHolder: "Who on the advisory board should answer?", matchOnDetail: true },
    );
    if (!pick) {
      return undefined;
    }
    this.session.rememberPersona(pick.id);
    this.chat.select(pick.id);
    return pick.id;
  }

  private async askAdvisor(): Promise<void> {
    const persona = this.session.defaultPersona() ?? (await this.pickPersona());
    if (!persona) {
      return;
    }
    const ctx = this.session.editorContext();
    const name = this.session.personaName(persona);
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
    const ed = active && isBookDocument(active.document) ? active : this.session.bookEditor();
    if (!ed || ed.document.isClosed || !isBookDocument(ed.document)) {
      void vscode.window.showInformationMessage("quire: open a Markdown file of your book to run an advisor action.");
      return;
    }
    let all: AdvisorAction[];
    try {
      const client = this.session.running();
      all = await this.session.actions(client.code2ProtocolConverter.asUri(ed.document.uri));
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
      const ctx = this.session.editorContext();
      const message = await vscode.window.showInputBox({
        title: "quire: Peek prompt",
        prompt: "The question whose request to show (nothing is sent to the model)",
        value: defaultQuestion,
        ignoreFocusOut: true,
      });
      if (message === undefined) {
        return;
      }
      p = { persona: this.session.defaultPersona(), message, uri: ctx.uri, range: ctx.range };
    }
    const params: AskParams = { ...p, message: p.message ?? defaultQuestion };
    await this.session.peekPrompt(params);
  }

  private async reindex(args: unknown[]): Promise<void> {
    const a = args[0] as { uri?: unknown } | undefined;
    const uri = typeof a?.uri === "string" ? a.uri : this.session.editorContext().uri;
    try {
      const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "quire: reindexing" }, () => this.session.reindex(uri));
      void vscode.window.showInformationMessage(
        `quire: reindexed ${path.basename(r.root)}: ${r.counts ?? ""} (${r.ms} ms).`,
      );
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: reindex failed: ${errorOf(e).message}`);
    }
  }
}
