// The writer's word counts in VS Code: a status bar item ("Ch. 3 · 4,210
// words · today +1,250 of 1,000 ✓ · book 82,400 of 90,000") that follows
// the active chapter as the writer types, and the progress view it opens
// (quire.showProgress). The figures are the server's (quire/stats).
import * as vscode from "vscode";
import { errorOf } from "./chat/view";
import { progressMarkdown, wordsItem } from "./progress";
import { Stats } from "./protocol";
import { isBookDocument } from "./session";
import { Views } from "./views";

/** WordsHost is what the item needs of the session. */
export interface WordsHost {
  stats(uri?: string): Promise<Stats>;
  asUri(uri: vscode.Uri): string;
  log(line: string): void;
}

// typingDelay lets a burst of keystrokes settle before the counts are
// asked again; the server counts on its own debounce too.
const typingDelay = 600;
// retryDelay is the wait before asking again while the server starts.
const retryDelay = 2000;
const maxRetries = 30;

export class WordsItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("quire.words", vscode.StatusBarAlignment.Left, 48);
  private readonly disposables: vscode.Disposable[] = [];
  private timer?: ReturnType<typeof setTimeout>;
  private seq = 0;
  private retries = 0;

  constructor(
    private readonly host: WordsHost,
    private readonly views: Views,
  ) {
    this.item.name = "quire word counts";
    this.item.command = "quire.showProgress";
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule(0)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document && isBookDocument(e.document)) {
          this.schedule(typingDelay);
        }
      }),
      vscode.workspace.onDidSaveTextDocument(() => this.schedule(0)),
      vscode.commands.registerCommand("quire.showProgress", () => this.show()),
    );
    this.schedule(0);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.disposables.forEach((d) => d.dispose());
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), ms);
  }

  private activeUri(): string | undefined {
    const ed = vscode.window.activeTextEditor;
    return ed && isBookDocument(ed.document) ? this.host.asUri(ed.document.uri) : undefined;
  }

  /** refresh asks the counts of the active book document and shows them; outside a book the item hides. */
  async refresh(): Promise<void> {
    const uri = this.activeUri();
    if (!uri) {
      this.item.hide();
      return;
    }
    const seq = ++this.seq;
    try {
      const st = await this.host.stats(uri);
      if (seq !== this.seq) {
        return;
      }
      this.retries = 0;
      const v = wordsItem(st);
      this.item.text = v.text;
      this.item.tooltip = v.tooltip;
      this.item.show();
    } catch (e) {
      if (seq !== this.seq) {
        return;
      }
      this.item.hide();
      // The server may still be starting or reading the book.
      if (this.retries++ < maxRetries) {
        this.schedule(retryDelay);
      } else {
        this.host.log(`quire/stats: ${errorOf(e).message}`);
      }
    }
  }

  /** show opens the progress view of the active book (the first book without one). */
  async show(): Promise<void> {
    try {
      const st = await this.host.stats(this.activeUri());
      await this.views.showProgress(progressMarkdown(st));
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: the book's progress could not be shown: ${errorOf(e).message}`);
    }
  }
}
