// quire: Build Manuscript — the manuscript made into a DOCX, an EPUB, or
// one Markdown or HTML file by the server's quire.build, written where
// quire build writes (build: output, else ~/Documents/quire/<book
// folder>; never the book unless the writer named a folder there); the
// writer picks the format and the preset, then opens the file or its
// folder.
import * as vscode from "vscode";
import { buildParams, builtMessage, cannotOpenMessage, formatPicks, openAction, revealAction } from "./buildPicks";
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
    // A build with warnings (a placeholder for the writer's name) is a
    // warning, for the writer to fix before sending it anywhere.
    const show = res.warnings?.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const choice = await show(builtMessage(res), openAction, revealAction);
    const file = vscode.Uri.file(res.path);
    if (choice === openAction) {
      let opened = false;
      try {
        opened = await vscode.env.openExternal(file);
      } catch {
        opened = false;
      }
      if (!opened) {
        void vscode.window.showErrorMessage(cannotOpenMessage(res.path, "open"));
      }
    } else if (choice === revealAction) {
      try {
        await vscode.commands.executeCommand("revealFileInOS", file);
      } catch {
        // VS Code in a browser has no folder of this computer to show.
        void vscode.window.showErrorMessage(cannotOpenMessage(res.path, "reveal"));
      }
    }
  }
}
