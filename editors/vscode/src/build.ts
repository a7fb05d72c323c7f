// quire: Build Manuscript — the manuscript made into a DOCX, an EPUB, or
// one Markdown or HTML file by the server's quire.build, written to
// quire's cache folder (never the book); the writer picks the format and
// the preset, then opens the file or its folder.
import * as vscode from "vscode";
import { buildParams, builtMessage, formatPicks } from "./buildPicks";
import { BuildResult, Commands } from "./protocol";
import { Session } from "./session";

export class BuildCommand implements vscode.Disposable {
  private readonly disposable: vscode.Disposable;

  constructor(private readonly session: Session) {
    this.disposable = vscode.commands.registerCommand("quire.buildManuscript", () => this.run());
  }

  dispose(): void {
    this.disposable.dispose();
  }

  private async run(): Promise<void> {
    const format = await vscode.window.showQuickPick(formatPicks, { title: "quire: Build Manuscript", placeHolder: "Which file?", matchOnDetail: true });
    if (!format) {
      return;
    }
    let preset = format.presets[0];
    if (format.presets.length > 1) {
      const pick = await vscode.window.showQuickPick(format.presets, { title: `quire: Build Manuscript (${format.label})`, placeHolder: "How should it look?" });
      if (!pick) {
        return;
      }
      preset = pick;
    }
    let res: BuildResult | null;
    try {
      res = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `quire: building the ${format.label}…` }, () =>
        this.session.running().sendRequest<BuildResult | null>("workspace/executeCommand", {
          command: Commands.build,
          arguments: [buildParams(this.session.editorContext().uri, format.format, preset.preset)],
        }),
      );
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    // A failure answers null: the server told the writer what to fix.
    if (!res) {
      return;
    }
    const open = "Open file";
    const reveal = "Show in folder";
    const choice = await vscode.window.showInformationMessage(builtMessage(res), open, reveal);
    const file = vscode.Uri.file(res.path);
    if (choice === open) {
      await vscode.env.openExternal(file);
    } else if (choice === reveal) {
      await vscode.commands.executeCommand("revealFileInOS", file);
    }
  }
}
