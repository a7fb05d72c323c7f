// The chapter's snapshots in VS Code: every version quire kept of it
// (the server's quire.snapshot* commands). "Compare with Snapshot…"
// opens a kept version and the chapter in the diff editor, the version
// read-only on the left; "Restore Snapshot…" puts one back as an edit
// the writer reviews and saves (undo takes it back); "Snapshot This
// Chapter…" keeps the chapter under a name.
import * as path from "path";
import * as vscode from "vscode";
import { errorOf } from "./chat/view";
import { Commands, SnapshotListResult, SnapshotRestoreResult, SnapshotSaveResult, SnapshotTextResult } from "./protocol";
import { isBookDocument, Session } from "./session";
import { diffTitle, snapshotDocPath, snapshotIdOf, snapshotPicks, snapshotScheme } from "./snapshotDocs";

export class Snapshots implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly session: Session) {
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(snapshotScheme, {
        provideTextDocumentContent: (uri) => this.text(uri),
      }),
      vscode.commands.registerCommand("quire.compareWithSnapshot", () => this.compare()),
      vscode.commands.registerCommand("quire.restoreSnapshot", () => this.restore()),
      vscode.commands.registerCommand("quire.snapshotChapter", () => this.save(false)),
      vscode.commands.registerCommand("quire.snapshotBook", () => this.save(true)),
    );
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  private command<R>(command: string, arg: object): Promise<R> {
    return this.session.running().sendRequest<R>("workspace/executeCommand", { command, arguments: [arg] });
  }

  /** chapter is the book document the writer is in, or undefined after saying why not. */
  private chapter(): vscode.TextDocument | undefined {
    const ed = vscode.window.activeTextEditor ?? this.session.bookEditor();
    if (!ed || !isBookDocument(ed.document)) {
      void vscode.window.showInformationMessage("quire: open a chapter of your book first; its snapshots are kept each time it is saved.");
      return undefined;
    }
    return ed.document;
  }

  private async text(uri: vscode.Uri): Promise<string> {
    const id = snapshotIdOf(uri.path);
    if (!id) {
      return "";
    }
    const book = new URLSearchParams(uri.query).get("book") ?? undefined;
    const r = await this.command<SnapshotTextResult>(Commands.snapshotText, { id, uri: book });
    return r.text;
  }

  private async pick(doc: vscode.TextDocument, title: string) {
    const uri = this.session.asUri(doc.uri);
    const list = await this.command<SnapshotListResult>(Commands.snapshotList, { uri });
    const picks = snapshotPicks(list.versions ?? [], list.deleted ?? []);
    if (picks.length === 0) {
      void vscode.window.showInformationMessage("quire has kept no snapshot of this chapter yet: one is kept each time it is saved.");
      return undefined;
    }
    const p = await vscode.window.showQuickPick(picks, { title, placeHolder: `${path.basename(doc.uri.fsPath)}: newest first`, matchOnDescription: true });
    return p ? { uri, version: p.version } : undefined;
  }

  private async compare(): Promise<void> {
    const doc = this.chapter();
    if (!doc) {
      return;
    }
    try {
      const p = await this.pick(doc, "quire: Compare with Snapshot");
      if (!p) {
        return;
      }
      const left = vscode.Uri.from({ scheme: snapshotScheme, path: snapshotDocPath(p.version.id, p.version.chapter), query: `book=${encodeURIComponent(p.uri)}` });
      if (p.version.chapter !== this.relOf(doc)) {
        // A deleted chapter: nothing to compare it with; its last text,
        // to read or restore.
        await vscode.window.showTextDocument(left, { preview: false });
        return;
      }
      await vscode.commands.executeCommand("vscode.diff", left, doc.uri, diffTitle(p.version), { preview: false });
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: snapshots: ${errorOf(e).message}`);
    }
  }

  private relOf(doc: vscode.TextDocument): string {
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    return folder ? path.relative(folder.uri.fsPath, doc.uri.fsPath).split(path.sep).join("/") : "";
  }

  private async restore(): Promise<void> {
    const doc = this.chapter();
    if (!doc) {
      return;
    }
    try {
      const p = await this.pick(doc, "quire: Restore Snapshot");
      if (!p) {
        return;
      }
      // The server sends the edit (workspace/applyEdit) and says what it did.
      await this.command<SnapshotRestoreResult>(Commands.snapshotRestore, { uri: p.uri, id: p.version.id });
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: snapshots: ${errorOf(e).message}`);
    }
  }

  private async save(book: boolean): Promise<void> {
    const doc = this.chapter();
    if (!doc) {
      return;
    }
    const name = await vscode.window.showInputBox({
      title: book ? "quire: Snapshot the Book" : "quire: Snapshot This Chapter",
      prompt: "A name for the snapshot, kept forever (the text as saved now)",
      placeHolder: "before the big rewrite",
    });
    if (name === undefined) {
      return;
    }
    try {
      await this.command<SnapshotSaveResult>(Commands.snapshotSave, { uri: this.session.asUri(doc.uri), name, book });
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: snapshots: ${errorOf(e).message}`);
    }
  }
}
