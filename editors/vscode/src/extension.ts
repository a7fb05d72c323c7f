// Wires VS Code to the quire language server: the session (the client's
// lifecycle and requests), the views beside the editor, proposals, the
// commands and the chat view. Decisions that need no VS Code live in the
// pure modules these import.
import * as vscode from "vscode";
import { ResponseError } from "vscode-languageclient/node";
import { ApiKeys } from "./apiKeys";
import { ChatHost, ChatViewProvider } from "./chat/view";
import { Snapshots } from "./snapshots";
import { BuildCommand } from "./build";
import { MapPanel } from "./mapPanel";
import { Proposals } from "./proposals";
import { QuireCommands } from "./quireCommands";
import { Session } from "./session";
import { SetupCommands } from "./setupCommands";
import { Views } from "./views";
import { WordsItem } from "./words";

let session: Session | undefined;

// chatHost is what the chat needs, from the session and proposals.
function chatHost(s: Session, proposals: Proposals): ChatHost {
  return {
    personas: () => s.personas(),
    ask: (params, token) => s.ask(params, token),
    proposals: (uri) => proposals.list(uri),
    applyProposal: (id) => proposals.apply(id),
    discardProposal: (id) => proposals.discard(id),
    openDiff: (p, nearUri) => proposals.openDiff(p, nearUri),
    closeDiff: (id) => proposals.closeDiff(id),
    revealApplied: (p, nearUri) => proposals.revealApplied(p, nearUri),
    peekPrompt: (params) => s.peekPrompt(params),
    editorContext: () => s.editorContext(),
    display: () => s.display(),
    rememberPersona: (id) => s.rememberPersona(id),
    defaultPersona: () => s.defaultPersona(),
    log: (line) => s.log(line),
  };
}

export function activate(context: vscode.ExtensionContext): void {
  const views = new Views();
  const keys = new ApiKeys(context);
  const s = new Session(context, views, keys);
  const proposals = new Proposals(s, views);
  const chat = new ChatViewProvider(context.extensionUri, chatHost(s, proposals));
  const map = new MapPanel(s);
  const commands = new QuireCommands(s, proposals, chat, map);
  const setup = new SetupCommands(s, keys, views);
  const build = new BuildCommand(s);
  const snapshots = new Snapshots(s);
  context.subscriptions.push(
    keys,
    setup,
    s,
    views,
    proposals,
    chat,
    map,
    commands,
    new WordsItem(s, views),
    build,
    snapshots,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewId, chat, { webviewOptions: { retainContextWhenHidden: true } }),
    s.onAskProgress((p) => chat.progress(p)),
    s.onRestart(() => chat.serverRestarted()),
    s.onDisplayChange(() => chat.refreshDisplay()),
    s.onEditorChange(() => chat.editorChanged()),
    proposals.onChange((c) => chat.proposalChanged(c.id, c.state)),
  );
  session = s;
  // Not awaited: the commands and the chat view are usable (and say what
  // is wrong) while the server starts or when it cannot.
  void s.start().catch((e: unknown) => {
    void vscode.window.showErrorMessage(`quire: ${e instanceof ResponseError || e instanceof Error ? e.message : String(e)}`);
  });
}

export async function deactivate(): Promise<void> {
  await session?.stop();
  session = undefined;
}
