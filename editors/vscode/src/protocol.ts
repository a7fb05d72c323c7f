// The server's custom protocol as the extension uses it (see
// quire-protocol.md). Plain types, shared by pure modules and the
// vscode wiring.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface Persona {
  id: string;
  name: string;
  focus: string;
}

export interface AskParams {
  persona?: string;
  message: string;
  uri?: string;
  range?: Range;
  conversationId?: string;
  workDoneToken?: string | number;
  selectionHash?: string;
  // The title of the advisor action that asks (e.g. "Continuity check"):
  // the writer's turn in the chat, instead of the action's long prompt.
  action?: string;
}

export interface ToolRow {
  round: number;
  tool: string;
  summary: string;
  ok: boolean;
  code?: string;
  ms: number;
}

export type AskProgress =
  | { token: string | number; row: ToolRow }
  | { token: string | number; delta: string; round?: number };

export interface Evidence {
  uri: string;
  range: Range;
  path: string;
  tool: string;
  hash?: string;
}

export interface AskResult {
  persona: string;
  answer: string;
  evidence: Evidence[] | null;
  proposals: string[] | null;
  conversationId: string;
  serviceTier?: string;
  warnings?: string[];
}

export interface Proposal {
  id: string;
  kind: "update" | "create";
  name: string;
  entryType: string;
  path: string;
  soulPath?: string;
  changeSummary: string;
  markdown: string;
  soulMarkdown?: string;
  warnings: string[] | null;
  created: string;
  // stale: a file it edits changed since it was made; applying it is refused.
  status?: "pending" | "applied" | "stale";
  diff?: string;
}

export interface ProposalsResult {
  proposals: Proposal[] | null;
}

export interface ApplyResult {
  id: string;
  applied: boolean;
  failureReason?: string;
  // The outcome in the writer's words (the server sends no message of
  // its own for this request).
  message?: string;
}

export interface BookStatus {
  root: string;
  state: "loading" | "indexing" | "ready" | "error";
  entries: number;
  chapters: number;
  problems: number;
  message?: string;
}

export interface StatusResult {
  books: BookStatus[] | null;
}

export interface ReindexResult extends BookStatus {
  ms: number;
}

export type ActionScope = "selection" | "file" | "project";

// One advisor action (quire/actions): a named ask the server offers as a
// code action titled label, whose command is quire.ask.
export interface AdvisorAction {
  id: string;
  name: string;
  label: string;
  scope: ActionScope;
  persona: string;
  usage?: string;
  core: boolean;
  // "core", "quire.yaml" or ".quire/actions/<file>.md".
  source: string;
}

export const Methods = {
  personas: "quire/personas",
  ask: "quire/ask",
  askProgress: "quire/askProgress",
  peekPrompt: "quire/peekPrompt",
  proposals: "quire/proposals",
  applyProposal: "quire/applyProposal",
  discardProposal: "quire/discardProposal",
  reindex: "quire/reindex",
  status: "quire/status",
  actions: "quire/actions",
  lookup: "quire/lookup",
  explicate: "quire/explicate",
} as const;

// JSON-RPC and LSP error codes the extension words for the writer.
export const ErrorCodes = {
  InvalidRequest: -32600,
  InvalidParams: -32602,
  RequestCancelled: -32800,
} as const;
