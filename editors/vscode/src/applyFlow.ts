// quire: Apply proposal and quire: Discard proposal from the palette (or
// from a command carrying the proposal's id), apart from VS Code: one
// look at the diff and one confirmation, then the edit is in the buffer;
// every outcome is worded for the writer, without internal ids.
import { Proposal } from "./protocol";
import { withoutIds } from "./writerText";

export interface ProposalUi {
  // The writer's pick among the pending proposals, if any.
  pick(): Promise<Proposal | undefined>;
  showDiff(p: Proposal): Promise<void>;
  // One modal question; true when the writer chose the action.
  confirm(question: string, detail: string, action: string): Promise<boolean>;
  apply(id: string): Promise<{ applied: boolean; message?: string }>;
  discard(id: string): Promise<void>;
  // The diff tabs of the proposal, once it is applied or discarded.
  closeDiff(id: string): Promise<void>;
  // Shows the file the applied edit changed, unsaved, for review.
  reveal(p: Proposal): Promise<void>;
  // The chat's card follows what happened here.
  changed(id: string, state: "applied" | "discarded"): void;
  info(m: string): void;
  warn(m: string): void;
  error(m: string): void;
}

function what(p: Proposal | undefined): string {
  return p ? `“${p.changeSummary || p.name}”` : "the proposal";
}

function files(p: Proposal): string {
  return [p.path, p.soulPath].filter(Boolean).join(" and ");
}

export function appliedMessage(p: Proposal | undefined): string {
  return p ? `quire: applied ${what(p)} to ${files(p)}. Review and save.` : "quire: applied the proposal. Review and save.";
}

/**
 * applyProposalFlow applies a proposal. Given an id (the writer chose
 * "Apply" on it already) it applies at once; otherwise the writer picks
 * one, sees its diff and confirms once.
 */
export async function applyProposalFlow(ui: ProposalUi, id?: string): Promise<void> {
  let p: Proposal | undefined;
  if (id === undefined) {
    p = await ui.pick();
    if (!p) {
      return;
    }
    await ui.showDiff(p);
    const ok = await ui.confirm(
      `Apply ${what(p)} to ${files(p)}?`,
      "The diff editor shows the change. It goes into the file unsaved, for you to review and save; quire refuses it if the file changed since.",
      "Apply",
    );
    if (!ok) {
      return;
    }
    id = p.id;
  }
  try {
    const r = await ui.apply(id);
    if (r.applied) {
      ui.changed(id, "applied");
      await ui.closeDiff(id);
      if (p) {
        await ui.reveal(p);
      }
      ui.info(appliedMessage(p));
    } else {
      ui.warn(`quire: ${what(p)} was not applied${r.message ? `: ${withoutIds(r.message)}` : "."}`);
    }
  } catch (e) {
    ui.error(`quire: ${withoutIds(e instanceof Error ? e.message : String(e))}`);
  }
}

/** discardProposalFlow drops a proposal: the one given, or the writer's pick. */
export async function discardProposalFlow(ui: ProposalUi, id?: string): Promise<void> {
  let p: Proposal | undefined;
  if (id === undefined) {
    p = await ui.pick();
    if (!p) {
      return;
    }
    id = p.id;
  }
  try {
    await ui.discard(id);
    ui.changed(id, "discarded");
    await ui.closeDiff(id);
    ui.info(`quire: discarded ${what(p)}.`);
  } catch (e) {
    ui.error(`quire: ${withoutIds(e instanceof Error ? e.message : String(e))}`);
  }
}
