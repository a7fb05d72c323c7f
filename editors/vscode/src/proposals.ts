// Proposals in VS Code: the pending ones to pick from, each shown as a
// diff of the book's files against the proposed text, and quire: Apply
// proposal / quire: Discard proposal (applyFlow.ts decides the steps).
import * as path from "path";
import * as vscode from "vscode";
import { applyProposalFlow, discardProposalFlow, ProposalUi } from "./applyFlow";
import { errorOf } from "./chat/view";
import { idFrom } from "./commands";
import { applyFileDiff, parseDiff } from "./diff";
import { Proposal } from "./protocol";
import { Session } from "./session";
import { Views } from "./views";
import { isProposalDoc, proposalDocPath, proposalScheme } from "./virtualDocs";

/** A proposal applied or discarded outside the chat, for the chat's card to follow. */
export interface ProposalChange {
  id: string;
  state: "applied" | "discarded";
}

export class Proposals implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ProposalChange>();
  /** onChange fires when the palette commands apply or discard a proposal. */
  readonly onChange = this.changed.event;

  constructor(
    private readonly session: Session,
    private readonly views: Views,
  ) {}

  dispose(): void {
    this.changed.dispose();
  }

  list(uri?: string): Promise<Proposal[]> {
    return this.session.proposals(uri);
  }

  async apply(id: string): Promise<{ applied: boolean; message?: string }> {
    const r = await this.session.applyProposal(id);
    return { applied: r.applied, message: r.failureReason };
  }

  discard(id: string): Promise<void> {
    return this.session.discardProposal(id);
  }

  /** applyFromCommand is quire.applyProposal: the proposal named in args, else the writer's pick. */
  async applyFromCommand(args: unknown[]): Promise<void> {
    await applyProposalFlow(this.ui("quire: Apply proposal"), idFrom(args));
  }

  /** discardFromCommand is quire.discardProposal, alike. */
  async discardFromCommand(args: unknown[]): Promise<void> {
    await discardProposalFlow(this.ui("quire: Discard proposal"), idFrom(args));
  }

  private ui(title: string): ProposalUi {
    return {
      pick: () => this.pick(title),
      showDiff: (p) => this.openDiff(p),
      confirm: async (question, detail, action) =>
        (await vscode.window.showInformationMessage(question, { modal: true, detail }, action)) === action,
      apply: (id) => this.apply(id),
      discard: (id) => this.discard(id),
      closeDiff: (id) => this.closeDiff(id),
      reveal: (p) => this.revealApplied(p),
      changed: (id, state) => this.changed.fire({ id, state }),
      info: (m) => void vscode.window.showInformationMessage(m),
      warn: (m) => void vscode.window.showWarningMessage(m),
      error: (m) => void vscode.window.showErrorMessage(m),
    };
  }

  private async pick(title: string): Promise<Proposal | undefined> {
    let list: Proposal[];
    try {
      list = (await this.list(this.session.editorContext().uri)).filter((p) => (p.status ?? "pending") === "pending");
    } catch (e) {
      void vscode.window.showErrorMessage(`quire: cannot list the proposals: ${errorOf(e).message}`);
      return undefined;
    }
    if (list.length === 0) {
      void vscode.window.showInformationMessage("quire: no pending proposals. Ask the continuity editor to propose a codex update.");
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      list.map((p) => ({
        label: `${p.kind === "create" ? "$(new-file)" : "$(edit)"} ${p.name}`,
        description: p.changeSummary,
        detail: [p.path, p.soulPath].filter(Boolean).join(", ") + (p.warnings?.length ? ` · ⚠ ${p.warnings.join("; ")}` : ""),
        proposal: p,
      })),
      { title, matchOnDescription: true, matchOnDetail: true },
    );
    return pick?.proposal;
  }

  /** closeDiff closes the tabs that show a proposal: once applied or discarded they compare nothing. */
  async closeDiff(id: string): Promise<void> {
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => {
      const input = t.input;
      if (input instanceof vscode.TabInputTextDiff) {
        return isProposalDoc(input.modified, id) || isProposalDoc(input.original, id);
      }
      return input instanceof vscode.TabInputText && isProposalDoc(input.uri, id);
    });
    if (tabs.length > 0) {
      await vscode.window.tabGroups.close(tabs).then(undefined, (e: unknown) => this.session.log(`closing the proposal's tabs: ${errorOf(e).message}`));
    }
    this.views.forgetProposal(id);
  }

  /** revealApplied opens the file an applied proposal changed: the edit is there, unsaved. */
  async revealApplied(p: Proposal, nearUri?: string): Promise<void> {
    const root = this.session.rootFor(nearUri);
    if (!root || !p.path) {
      return;
    }
    const file = vscode.Uri.file(path.join(root, p.path));
    await vscode.window
      .showTextDocument(file, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.One })
      .then(undefined, (e: unknown) => this.session.log(`showing ${p.path}: ${errorOf(e).message}`));
  }

  /** openDiff shows each file the proposal changes beside its proposed text. */
  async openDiff(p: Proposal, nearUri?: string): Promise<void> {
    const root = this.session.rootFor(nearUri);
    const files = p.diff ? parseDiff(p.diff).files : [];
    if (!root || files.length === 0) {
      // No diff to apply: show the proposed text itself, read-only.
      const uri = this.views.showVirtual(vscode.Uri.from({ scheme: proposalScheme, path: proposalDocPath(p.id, p.path || `${p.name}.md`, "preview") }), p.markdown);
      await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return;
    }
    for (const f of files) {
      const rel = f.newPath ?? f.oldPath ?? p.path;
      const target = vscode.Uri.file(path.join(root, rel));
      let oldText = "";
      if (f.oldPath !== null) {
        try {
          oldText = (await vscode.workspace.openTextDocument(target)).getText();
        } catch (e) {
          void vscode.window.showWarningMessage(`quire: cannot read ${rel}: ${errorOf(e).message}`);
          continue;
        }
      }
      let newText: string;
      try {
        newText = applyFileDiff(oldText, f);
      } catch (e) {
        void vscode.window.showWarningMessage(`quire: ${rel} changed since the proposal was made (${errorOf(e).message}); applying it will be refused.`);
        continue;
      }
      const right = this.views.showVirtual(vscode.Uri.from({ scheme: proposalScheme, path: proposalDocPath(p.id, rel, "proposed") }), newText);
      let left = target;
      if (f.oldPath === null) {
        left = this.views.showVirtual(vscode.Uri.from({ scheme: proposalScheme, path: proposalDocPath(p.id, rel, "empty") }), "");
      }
      await vscode.commands.executeCommand("vscode.diff", left, right, `${path.basename(rel)} ↔ proposal: ${p.changeSummary || p.name}`, {
        preview: files.length === 1,
      });
    }
  }
}
