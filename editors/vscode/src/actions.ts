// Advisor actions (quire/actions) for quire: Run advisor action…: which
// apply where the writer is, how the QuickPick shows them, and finding the
// server's code action that runs one. No VS Code here.
import { ActionScope, AdvisorAction, Commands } from "./protocol";

/**
 * appliesAt reports whether an action is offered where the writer is,
 * as the server decides for its code actions: selection actions on a
 * non-empty selection only, file and project actions at a cursor only.
 * (The server offers file actions only in chapters; it alone knows which
 * files are chapters.)
 */
export function appliesAt(a: AdvisorAction, hasSelection: boolean): boolean {
  return hasSelection === (a.scope === "selection");
}

/** applicableActions splits the book's actions into those offered here and the number hidden. */
export function applicableActions(actions: readonly AdvisorAction[], hasSelection: boolean): { shown: AdvisorAction[]; hidden: number } {
  const shown = actions.filter((a) => appliesAt(a, hasSelection));
  return { shown, hidden: actions.length - shown.length };
}

const scopeWords: Record<ActionScope, string> = {
  selection: "on the selection",
  file: "on this chapter",
  project: "on the whole book",
};

/** scopeText words an action's scope for the writer. */
export function scopeText(scope: string): string {
  return scopeWords[scope as ActionScope] ?? `scope ${scope}`;
}

export interface ActionPickItem {
  label: string;
  description: string;
  detail: string;
  action: AdvisorAction;
}

/** actionPickItems builds the QuickPick rows: title, core or the writer's own, scope and usage. */
export function actionPickItems(actions: readonly AdvisorAction[]): ActionPickItem[] {
  return actions.map((a) => ({
    label: a.label,
    description: a.core ? "core" : `your own · ${a.source}`,
    detail: a.usage ? `${scopeText(a.scope)} · ${a.usage}` : scopeText(a.scope),
    action: a,
  }));
}

/** pickPlaceholder says where the listed actions run and why the others are not listed. */
export function pickPlaceholder(hasSelection: boolean, hidden: number): string {
  const here = hasSelection ? "Actions on the selection" : "Actions on this chapter and the whole book";
  if (hidden === 0) {
    return `${here}.`;
  }
  const why = hasSelection
    ? `${hidden} chapter or book action${hidden === 1 ? " is" : "s are"} hidden: clear the selection to run ${hidden === 1 ? "it" : "them"}.`
    : `${hidden} selection action${hidden === 1 ? " is" : "s are"} hidden: select a passage to run ${hidden === 1 ? "it" : "them"}.`;
  return `${here}. ${why}`;
}

/** noActionsMessage explains an empty list. */
export function noActionsMessage(total: number, hasSelection: boolean): string {
  if (total === 0) {
    return "quire: this book has no advisor actions.";
  }
  return hasSelection
    ? "quire: no advisor action works on a selection in this book. Clear the selection to see the chapter and book actions."
    : "quire: no chapter or book action in this book. Select a passage to see the actions on a selection.";
}

/** noMatchMessage explains why the server offered no code action for the chosen action here. */
export function noMatchMessage(a: AdvisorAction): string {
  const base = `quire: “${a.label}” is not offered here`;
  switch (a.scope) {
    case "selection":
      return `${base}: it needs a selection; select the passage again and rerun the command.`;
    case "file":
      return `${base}: it runs on a chapter, at the cursor with nothing selected; open a chapter of the manuscript and clear the selection.`;
    default:
      return `${base}: it runs at the cursor with nothing selected; clear the selection and rerun the command.`;
  }
}

/** A code action as vscode.executeCodeActionProvider or textDocument/codeAction returns it: a Command or a CodeAction. */
export interface CodeActionLike {
  title: string;
  command?: string | { command: string; arguments?: unknown[] };
  arguments?: unknown[];
}

export interface MatchedCommand {
  command: string;
  arguments: unknown[];
}

/** commandOf reads the command a Command or CodeAction runs. */
export function commandOf(item: CodeActionLike): MatchedCommand | undefined {
  if (typeof item.command === "string") {
    return { command: item.command, arguments: item.arguments ?? [] };
  }
  if (typeof item.command === "object" && item.command !== null && typeof item.command.command === "string") {
    return { command: item.command.command, arguments: item.command.arguments ?? [] };
  }
  return undefined;
}

/**
 * matchCodeAction finds the quire.ask code action titled label. Labels
 * of two actions can be equal (a writer's action named like another of
 * the same persona); the server lists actions and code actions in one
 * order, so occurrence picks the nth of them.
 */
export function matchCodeAction(items: readonly CodeActionLike[] | null | undefined, label: string, occurrence = 0): MatchedCommand | undefined {
  const matches: MatchedCommand[] = [];
  for (const item of items ?? []) {
    const cmd = item && item.title === label ? commandOf(item) : undefined;
    if (cmd && cmd.command === Commands.ask) {
      matches.push(cmd);
    }
  }
  return matches[occurrence] ?? matches[0];
}

/** occurrenceOf is how many actions before a in list have its label (for matchCodeAction). */
export function occurrenceOf(list: readonly AdvisorAction[], a: AdvisorAction): number {
  let n = 0;
  for (const b of list) {
    if (b === a) {
      return n;
    }
    if (b.label === a.label) {
      n++;
    }
  }
  return 0;
}
