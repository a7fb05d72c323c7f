// quire: Open book map — the map quire.bookMap writes, in a webview panel
// beside the prose, written again each time a file of the book is saved.
import { promises as fs } from "fs";
import * as vscode from "vscode";
import { BookMapParams, BookMapResult } from "./protocol";
import { isDrawnMessage, isOpenMessage, PageMessage, panelHtml } from "./bookMap";
import { isBookDocument, Session } from "./session";

export class MapPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  // loaded says the panel shows a page, which a newer one replaces in
  // place (a message) rather than by reloading the webview.
  private loaded = false;
  private uri: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  // refreshing chains the refreshes, so an older page never lands after
  // a newer one.
  private refreshing: Promise<void> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];
  // updated fires after each page is shown, with the milliseconds since
  // the save (or the command) that asked for it.
  private readonly updatedEmitter = new vscode.EventEmitter<number>();
  readonly onUpdated = this.updatedEmitter.event;

  constructor(private readonly session: Session) {
    this.disposables.push(
      this.updatedEmitter,
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (this.panel && isBookDocument(doc)) {
          this.schedule(Date.now());
        }
      }),
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.panel?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }

  /** show opens the panel (or brings it forward) for the book holding uri. */
  async show(uri: string | undefined): Promise<void> {
    this.uri = uri ?? this.session.editorContext().uri ?? this.uri;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel("quire.bookMap", "Book map", { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [],
      });
      this.loaded = false;
      this.panel.onDidDispose(() => (this.panel = undefined), undefined, this.disposables);
      this.panel.webview.onDidReceiveMessage((m: unknown) => this.received(m), undefined, this.disposables);
    } else {
      this.panel.reveal(undefined, true);
    }
    await this.refresh(Date.now());
  }

  // schedule refreshes once a burst of saves (Save All) is over.
  private schedule(since: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(since), 30);
  }

  private refresh(since: number): Promise<void> {
    this.refreshing = this.refreshing.then(() => this.draw(since));
    return this.refreshing;
  }

  private async draw(since: number): Promise<void> {
    const panel = this.panel;
    if (!panel) {
      return;
    }
    try {
      const params: BookMapParams = { uri: this.uri, quiet: true };
      const res = await this.session.running().sendRequest<BookMapResult | null>("workspace/executeCommand", { command: "quire.bookMap", arguments: [params] });
      if (!res) {
        return; // the server told the writer why
      }
      const page = await fs.readFile(res.path, "utf8");
      if (this.panel !== panel) {
        return;
      }
      this.session.log(`book map: ${res.chapters} chapters, ${res.entries} entries, ${res.bytes} bytes, written ${Date.now() - since} ms after the request`);
      if (this.loaded) {
        const m: PageMessage = { type: "page", html: page, stamp: since };
        if (await panel.webview.postMessage(m)) {
          return; // the panel says when it is drawn (received)
        }
      }
      panel.webview.html = panelHtml(page);
      this.loaded = true;
      this.updatedEmitter.fire(Date.now() - since);
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: the book map failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private received(m: unknown): void {
    if (isDrawnMessage(m)) {
      const ms = Date.now() - m.stamp;
      this.session.log(`book map: drawn ${ms} ms after the request`);
      this.updatedEmitter.fire(ms);
      return;
    }
    void this.open(m);
  }

  // open shows the chapter a clicked cell names, at its line, beside the map.
  private async open(m: unknown): Promise<void> {
    if (!isOpenMessage(m)) {
      return;
    }
    const line = Math.max(0, m.line - 1);
    await vscode.window.showTextDocument(vscode.Uri.file(m.path), {
      viewColumn: vscode.ViewColumn.One,
      selection: new vscode.Range(line, 0, line, 0),
    });
  }
}
