// quire: Open book map — the map quire.bookMap writes, in a webview panel
// beside the prose, written again each time a file of the book is saved.
// An edit made in the map's outline view (a synopsis, a status) goes to
// the server's quire.setOutline, which sends it to the editor as an edit
// the writer reviews and saves: the panel never writes a file.
import { promises as fs } from "fs";
import * as vscode from "vscode";
import { BookMapParams, BookMapResult, SetOutlineParams, SetOutlineResult } from "./protocol";
import { isDrawnMessage, isOpenMessage, PageMessage, panelScript } from "./bookMap";
import { isBookDocument, Session } from "./session";

/**
 * The script that makes the panel the page's host for outline edits: the
 * page's edit form calls window.quireMapHost.setOutline({uri, scene,
 * synopsis?, status?}) (manuscript/bookmap/page.js), and this posts it to
 * the extension as a SetOutlineMessage. A webview hands out its API to
 * one caller only, and panelScript (bookMap.ts) asks for it too: so this
 * acquires it, and panelScript runs with acquireVsCodeApi bound to the
 * same one.
 */
const hostScript = `(function (acquireVsCodeApi) {
${panelScript}
})((function () {
  var api = acquireVsCodeApi();
  window.quireMapHost = {
    setOutline: function (r) {
      var m = { type: "setOutline", uri: r.uri, scene: r.scene };
      if (typeof r.synopsis === "string") m.synopsis = r.synopsis;
      if (typeof r.status === "string") m.status = r.status;
      api.postMessage(m);
    }
  };
  return function () { return api; };
})());`;

/**
 * mapPanelHtml is the map's page for the panel: the page as quire wrote
 * it, its own policy kept (inline styles and scripts only, nothing
 * loaded), with the panel's script and the outline host added before
 * </body>, as panelHtml adds the panel's alone.
 */
export function mapPanelHtml(page: string): string {
  const script = `<script>${hostScript}</script>`;
  const i = page.lastIndexOf("</body>");
  return i < 0 ? page + script : page.slice(0, i) + script + page.slice(i);
}

/** SetOutlineMessage is what the page posts to set a synopsis or status from a card (scene 0: the chapter). */
export interface SetOutlineMessage {
  type: "setOutline";
  uri: string;
  scene: number;
  synopsis?: string;
  status?: string;
}

/** OutlineResultMessage answers a SetOutlineMessage in the page's edit form. */
export interface OutlineResultMessage {
  type: "outlineResult";
  applied: boolean;
  message: string;
}

export function isSetOutlineMessage(m: unknown): m is SetOutlineMessage {
  const o = m as Partial<SetOutlineMessage> | null;
  return (
    typeof o === "object" &&
    o !== null &&
    o.type === "setOutline" &&
    typeof o.uri === "string" &&
    o.uri !== "" &&
    typeof o.scene === "number" &&
    Number.isInteger(o.scene) &&
    o.scene >= 0 &&
    (o.synopsis === undefined || typeof o.synopsis === "string") &&
    (o.status === undefined || typeof o.status === "string") &&
    (o.synopsis !== undefined || o.status !== undefined)
  );
}

/**
 * setOutline runs quire.setOutline (through run) with what the page sent,
 * and words its outcome for the page. The server has already told the
 * writer, in a message of the editor's, whatever the outcome.
 */
export async function setOutline(m: SetOutlineMessage, run: (params: SetOutlineParams) => Thenable<SetOutlineResult | undefined>): Promise<OutlineResultMessage> {
  const params: SetOutlineParams = { uri: m.uri, scene: m.scene };
  if (m.synopsis !== undefined) {
    params.synopsis = m.synopsis;
  }
  if (m.status !== undefined) {
    params.status = m.status;
  }
  try {
    const res = await run(params);
    if (!res) {
      return { type: "outlineResult", applied: false, message: "quire did not answer: is its server running? Nothing was changed." };
    }
    return { type: "outlineResult", applied: res.applied, message: res.message };
  } catch (e) {
    return { type: "outlineResult", applied: false, message: e instanceof Error ? e.message : String(e) };
  }
}

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
      panel.webview.html = mapPanelHtml(page);
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
    if (isSetOutlineMessage(m)) {
      void this.setOutline(m);
      return;
    }
    void this.open(m);
  }

  // setOutline sends an edit from the outline view to the server, which
  // hands it to the editor for the writer to review; the page hears how
  // it went.
  private async setOutline(m: SetOutlineMessage): Promise<void> {
    const panel = this.panel;
    const reply = await setOutline(m, (params) => vscode.commands.executeCommand<SetOutlineResult | undefined>("quire.setOutline", params));
    this.session.log(`book map: set the outline of scene ${m.scene} of ${m.uri}: ${reply.message}`);
    if (panel && this.panel === panel) {
      await panel.webview.postMessage(reply);
    }
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
