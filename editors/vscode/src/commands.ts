// Which server commands the extension handles itself, and reading the
// arguments the server puts in its code actions.
import * as path from "path";
import { AskParams, Evidence, Range } from "./protocol";

/**
 * Server commands (executeCommandProvider) the extension registers as its
 * own VS Code commands. vscode-languageclient would otherwise register
 * them too, and VS Code refuses a second registration of the same id;
 * so the client skips these and the extension's handlers accept both the
 * server's code-action arguments and a bare palette invocation.
 */
export const clientOwnedCommands: readonly string[] = [
  "quire.ask",
  "quire.peekPrompt",
  "quire.applyProposal",
  "quire.discardProposal",
  "quire.reindex",
  "quire.bookMap",
];

export function serverCommandsToRegister(commands: readonly string[] | undefined): string[] {
  return (commands ?? []).filter((c) => !clientOwnedCommands.includes(c));
}

function isPosition(v: unknown): boolean {
  const p = v as { line?: unknown; character?: unknown } | null;
  return typeof p === "object" && p !== null && typeof p.line === "number" && typeof p.character === "number";
}

function isRange(v: unknown): v is Range {
  const r = v as { start?: unknown; end?: unknown } | null;
  return typeof r === "object" && r !== null && isPosition(r.start) && isPosition(r.end);
}

/** askParamsFrom reads the first argument of a quire.ask / quire.peekPrompt command, if it is one. */
export function askParamsFrom(args: readonly unknown[]): Partial<AskParams> | undefined {
  const a = args[0] as Record<string, unknown> | undefined;
  if (typeof a !== "object" || a === null) {
    return undefined;
  }
  const out: Partial<AskParams> = {};
  if (typeof a.persona === "string" && a.persona !== "") {
    out.persona = a.persona;
  }
  if (typeof a.message === "string" && a.message !== "") {
    out.message = a.message;
  }
  if (typeof a.uri === "string" && a.uri !== "") {
    out.uri = a.uri;
  }
  if (isRange(a.range)) {
    out.range = a.range;
  }
  if (typeof a.conversationId === "string" && a.conversationId !== "") {
    out.conversationId = a.conversationId;
  }
  if (typeof a.selectionHash === "string" && a.selectionHash !== "") {
    out.selectionHash = a.selectionHash;
  }
  if (typeof a.action === "string" && a.action.trim() !== "") {
    out.action = a.action.trim();
  }
  return out;
}

/**
 * userTurn is what the chat shows as the writer's turn: an advisor
 * action's title rather than the 20-line prompt it sends, else the
 * question as typed.
 */
export function userTurn(p: Pick<AskParams, "action" | "message">): string {
  return p.action ?? p.message;
}

/** idFrom reads a proposal id from {id} or a bare string argument. */
export function idFrom(args: readonly unknown[]): string | undefined {
  const a = args[0];
  if (typeof a === "string" && a !== "") {
    return a;
  }
  if (typeof a === "object" && a !== null && typeof (a as { id?: unknown }).id === "string") {
    return (a as { id: string }).id || undefined;
  }
  return undefined;
}

function lineSpan(r: Range): string {
  const start = r.start.line + 1;
  // A selection ending at column 0 ends on the line before.
  const endLine = r.end.character === 0 && r.end.line > r.start.line ? r.end.line : r.end.line + 1;
  return endLine > start ? `${start}–${endLine}` : `${start}`;
}

/** contextLabel names the file and lines a question is about. */
export function contextLabel(uri: string | undefined, range: Range | undefined): string | undefined {
  if (uri === undefined) {
    return undefined;
  }
  let name = uri;
  try {
    name = path.posix.basename(decodeURIComponent(new URL(uri).pathname));
  } catch {
    name = path.posix.basename(uri);
  }
  return range === undefined ? name : `${name}:${lineSpan(range)}`;
}

/**
 * evidenceLabel names one piece of evidence: project path and lines, and
 * the chapter the canon was read as of, when a story-time answer was.
 */
export function evidenceLabel(e: Evidence): string {
  const where = e.path || contextLabel(e.uri, undefined) || e.uri;
  const label = e.range ? `${where}:${lineSpan(e.range)}` : where;
  if (!e.asOf) {
    return label;
  }
  return `${label} (as of chapter ${e.asOfChapter || e.asOf}${e.asOfImplied ? ", the one you were in" : ""})`;
}

/**
 * evidenceWhy says why a file was read: the call and what it asked,
 * what led to it (an outline that listed the chapter), and whether the
 * answer names it.
 */
export function evidenceWhy(e: Evidence): string {
  const why = e.why || e.tool;
  return e.cited ? `${why}; named in the answer` : why;
}

/**
 * bookRootFor picks the book a file belongs to: the deepest known root
 * that contains it. Proposal paths are relative to that root. On Windows
 * paths are compared as Windows does: either separator, and without
 * regard to case, since VS Code's fsPath spells the drive `c:\` where the
 * server's roots say `C:\` (and a folder may be typed in any case).
 */
export function bookRootFor(file: string, roots: readonly string[], platform: NodeJS.Platform = process.platform): string | undefined {
  let best: string | undefined;
  let bestLength = -1;
  const norm = (p: string): string => {
    const n = p.replace(/\\/g, "/").replace(/\/+$/, "");
    return platform === "win32" ? n.toLowerCase() : n;
  };
  const f = norm(file);
  for (const r of roots) {
    const root = norm(r);
    if ((f === root || f.startsWith(root + "/")) && root.length > bestLength) {
      best = r;
      bestLength = root.length;
    }
  }
  return best;
}
