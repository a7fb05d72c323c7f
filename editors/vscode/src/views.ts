// What the extension shows beside the editor: read-only documents under
// quire's own schemes (a peeked prompt, a proposal's text), and the
// results of the server's "Look up" and "Where is this established?"
// code actions as a quick pick and a references peek.
import * as path from "path";
import * as vscode from "vscode";
import { CodexEntry, ExplicateResult, Location, QueryResult } from "./protocol";
import { healthScheme, isProposalDoc, peekDoc, peekScheme, progressScheme, proposalScheme } from "./virtualDocs";

export class Views implements vscode.Disposable {
  // The text of the read-only documents under quire's schemes (virtualDocs.ts).
  private readonly virtualDocs = new Map<string, string>();
  private readonly virtualDocsChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [];
  private peekSeq = 0;

  constructor() {
    this.disposables.push(
      this.virtualDocsChanged,
      ...[proposalScheme, peekScheme, healthScheme, progressScheme].map((scheme) =>
        vscode.workspace.registerTextDocumentContentProvider(scheme, {
          onDidChange: this.virtualDocsChanged.event,
          provideTextDocumentContent: (uri) => this.virtualDocs.get(uri.toString()) ?? "",
        }),
      ),
    );
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }

  /** showVirtual sets the text of a read-only document and returns its uri. */
  showVirtual(uri: vscode.Uri, content: string): vscode.Uri {
    this.virtualDocs.set(uri.toString(), content);
    this.virtualDocsChanged.fire(uri);
    return uri;
  }

  /** forgetProposal drops the documents of a proposal that is applied or discarded. */
  forgetProposal(id: string): void {
    for (const k of [...this.virtualDocs.keys()]) {
      if (isProposalDoc(vscode.Uri.parse(k), id)) {
        this.virtualDocs.delete(k);
      }
    }
  }

  /** showPeek opens the request quire/peekPrompt answered, beside the editor. */
  async showPeek(personaName: string | undefined, body: unknown): Promise<void> {
    const d = peekDoc(++this.peekSeq, personaName, body);
    // A read-only document: closing it never asks to save.
    const uri = this.showVirtual(vscode.Uri.from({ scheme: peekScheme, path: d.path }), d.content);
    await vscode.window.showTextDocument(uri, { preview: false, viewColumn: vscode.ViewColumn.Beside });
  }

  /** showHealth opens the health report as a read-only Markdown document, one tab that each report replaces. */
  async showHealth(markdown: string): Promise<void> {
    const uri = this.showVirtual(vscode.Uri.from({ scheme: healthScheme, path: "/quire health report.md" }), markdown);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /** showProgress opens the book's progress as a read-only Markdown document, one tab that each view replaces. */
  async showProgress(markdown: string): Promise<void> {
    const uri = this.showVirtual(vscode.Uri.from({ scheme: progressScheme, path: "/quire progress.md" }), markdown);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /** showLookup opens the entry found, or lets the writer pick among several. */
  async showLookup(result: QueryResult | undefined, fallbackRoot: string | undefined): Promise<void> {
    const results = (result?.results ?? []).filter((r) => r.relativePath);
    if (results.length === 0) {
      void vscode.window.showInformationMessage("quire: no codex entry found.");
      return;
    }
    const open = async (r: CodexEntry): Promise<void> => {
      const file = path.isAbsolute(r.relativePath) ? r.relativePath : path.join(r.projectPath ?? fallbackRoot ?? "", r.relativePath);
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    };
    if (results.length === 1) {
      await open(results[0]);
      return;
    }
    const pick = await vscode.window.showQuickPick(
      results.map((r) => ({ label: r.name ?? r.relativePath, description: r.type, detail: r.summary, r })),
      { title: "quire: Look up" },
    );
    if (pick) {
      await open(pick.r);
    }
  }

  /** showLinesOf lists a character's lines of dialogue in the references peek. */
  async showLinesOf(result: Location[] | undefined, asLocation: (l: Location) => vscode.Location): Promise<void> {
    const locations = (result ?? []).map(asLocation);
    const ed = vscode.window.activeTextEditor;
    if (locations.length === 0 || !ed) {
      void vscode.window.showInformationMessage("quire: this character speaks no line quire has found.");
      return;
    }
    await vscode.commands.executeCommand("editor.action.showReferences", ed.document.uri, ed.selection.start, locations);
  }

  /** showExplicate lists the passages that establish a quote in the references peek. */
  async showExplicate(result: ExplicateResult | undefined, asLocation: (l: Location) => vscode.Location): Promise<void> {
    const locations = (result?.passages ?? [])
      .map((p) => p.location)
      .filter((l): l is Location => l !== undefined)
      .map(asLocation);
    const ed = vscode.window.activeTextEditor;
    if (locations.length === 0 || !ed) {
      void vscode.window.showInformationMessage("quire: no passage of the manuscript establishes this.");
      return;
    }
    await vscode.commands.executeCommand("editor.action.showReferences", ed.document.uri, ed.selection.start, locations);
  }
}
