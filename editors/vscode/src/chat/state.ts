// The advisor chat's state: one conversation per persona, each with its
// own conversationId, advanced by a pure reducer from the events of an
// ask (tool rows, streamed text, the result, an error, a cancel) and from
// proposal fetches and outcomes. The webview only draws what this holds.
import { AskProgress, AskResult, ErrorCodes, Evidence, Proposal, ToolRow } from "../protocol";

export type ProposalState = "loading" | "pending" | "stale" | "applying" | "applied" | "discarded" | "refused" | "failed";

export interface ChatProposal {
  id: string;
  info?: Proposal;
  state: ProposalState;
  // The server's refusal or failure reason, or why details are missing.
  message?: string;
}

export interface UserMessage {
  kind: "user";
  text: string;
  // Where the question points, e.g. "chapter-03.md:12–18".
  context?: string;
}

export interface ErrorView {
  code?: number;
  message: string;
  hint?: string;
}

export interface AssistantMessage {
  kind: "assistant";
  token: string;
  status: "running" | "done" | "cancelled" | "error";
  rows: ToolRow[];
  text: string;
  evidence: Evidence[];
  proposals: ChatProposal[];
  error?: ErrorView;
  serviceTier?: string;
  warnings: string[];
}

export type Message = UserMessage | AssistantMessage;

export interface Conversation {
  persona: string;
  conversationId?: string;
  messages: Message[];
}

export interface ChatState {
  active?: string;
  conversations: Record<string, Conversation>;
  // token -> persona, for asks still running.
  running: Record<string, string>;
}

export type Action =
  | { type: "select"; persona: string }
  | { type: "ask"; persona: string; token: string; text: string; context?: string }
  | { type: "progress"; params: AskProgress }
  | { type: "result"; token: string; result: AskResult }
  | { type: "failed"; token: string; code?: number; message: string }
  | { type: "cancelled"; token: string }
  | { type: "proposals"; proposals: Proposal[] }
  | { type: "proposalMissing"; ids: string[]; message: string }
  | { type: "proposalOutcome"; id: string; state: ProposalState; message?: string }
  | { type: "reset"; persona: string };

export const emptyState: ChatState = { conversations: {}, running: {} };

export const providerHint =
  "Configure a model provider: set quire.provider.baseUrl and quire.provider.model in Settings " +
  "(and quire.provider.apiKeyEnv, the name of the variable holding the key, for hosted APIs), " +
  "or add a provider: section to the book's quire.yaml.";

/** errorView words an ask's JSON-RPC error for the writer. */
export function errorView(code: number | undefined, message: string): ErrorView {
  switch (code) {
    case ErrorCodes.InvalidRequest:
      return { code, message, hint: /provider|configur|model|base_url|api_key/i.test(message) ? providerHint : undefined };
    case ErrorCodes.InvalidParams:
      return { code, message, hint: /persona/i.test(message) ? "Pick one of the listed personas (quire: Pick persona)." : undefined };
    default:
      return { code, message };
  }
}

function conversation(s: ChatState, persona: string): Conversation {
  return s.conversations[persona] ?? { persona, messages: [] };
}

// withMessage applies fn to the assistant message of a running token and
// returns the new state, or s unchanged when the token is not running
// (late notifications after a result or a cancel are dropped).
function withRunning(s: ChatState, token: string, fn: (m: AssistantMessage) => AssistantMessage): ChatState {
  const persona = s.running[token];
  if (persona === undefined) {
    return s;
  }
  const conv = conversation(s, persona);
  const idx = conv.messages.findIndex((m) => m.kind === "assistant" && m.token === token);
  if (idx === -1) {
    return s;
  }
  const messages = conv.messages.slice();
  messages[idx] = fn(messages[idx] as AssistantMessage);
  return { ...s, conversations: { ...s.conversations, [persona]: { ...conv, messages } } };
}

function finish(s: ChatState, token: string): ChatState {
  if (!(token in s.running)) {
    return s;
  }
  const running = { ...s.running };
  delete running[token];
  return { ...s, running };
}

function mapProposals(s: ChatState, fn: (p: ChatProposal) => ChatProposal): ChatState {
  const conversations: Record<string, Conversation> = {};
  for (const [k, conv] of Object.entries(s.conversations)) {
    conversations[k] = {
      ...conv,
      messages: conv.messages.map((m) => (m.kind === "assistant" && m.proposals.length > 0 ? { ...m, proposals: m.proposals.map(fn) } : m)),
    };
  }
  return { ...s, conversations };
}

export function reduce(s: ChatState, a: Action): ChatState {
  switch (a.type) {
    case "select":
      return { ...s, active: a.persona, conversations: { ...s.conversations, [a.persona]: conversation(s, a.persona) } };
    case "ask": {
      const conv = conversation(s, a.persona);
      const user: UserMessage = { kind: "user", text: a.text, context: a.context };
      const reply: AssistantMessage = {
        kind: "assistant",
        token: a.token,
        status: "running",
        rows: [],
        text: "",
        evidence: [],
        proposals: [],
        warnings: [],
      };
      return {
        active: a.persona,
        conversations: { ...s.conversations, [a.persona]: { ...conv, messages: [...conv.messages, user, reply] } },
        running: { ...s.running, [a.token]: a.persona },
      };
    }
    case "progress": {
      const p = a.params;
      const token = String(p.token);
      if ("row" in p && p.row !== undefined) {
        return withRunning(s, token, (m) => ({ ...m, rows: [...m.rows, p.row] }));
      }
      if ("delta" in p && typeof p.delta === "string") {
        return withRunning(s, token, (m) => ({ ...m, text: m.text + p.delta }));
      }
      return s;
    }
    case "result": {
      const persona = s.running[a.token];
      if (persona === undefined) {
        return s;
      }
      const r = a.result;
      const next = withRunning(s, a.token, (m) => ({
        ...m,
        status: "done",
        text: r.answer ?? m.text,
        evidence: r.evidence ?? [],
        proposals: (r.proposals ?? []).map((id) => ({ id, state: "loading" as const })),
        serviceTier: r.serviceTier,
        warnings: r.warnings ?? [],
      }));
      const conv = next.conversations[persona];
      const withId = r.conversationId ? { ...conv, conversationId: r.conversationId } : conv;
      return finish({ ...next, conversations: { ...next.conversations, [persona]: withId } }, a.token);
    }
    case "failed": {
      if (a.code === ErrorCodes.RequestCancelled) {
        return reduce(s, { type: "cancelled", token: a.token });
      }
      return finish(
        withRunning(s, a.token, (m) => ({ ...m, status: "error", error: errorView(a.code, a.message) })),
        a.token,
      );
    }
    case "cancelled":
      return finish(
        withRunning(s, a.token, (m) => ({ ...m, status: "cancelled" })),
        a.token,
      );
    case "proposals": {
      const byId = new Map(a.proposals.map((p) => [p.id, p]));
      return mapProposals(s, (cp) => {
        const info = byId.get(cp.id);
        if (info === undefined) {
          return cp;
        }
        // The server's status wins over a stale "loading"/"pending", but an
        // outcome this session saw (discarded, refused) stays.
        let state = cp.state;
        if (info.status === "applied") {
          state = "applied";
        } else if (info.status === "stale" && (state === "loading" || state === "pending")) {
          state = "stale";
        } else if (info.status !== "stale" && (state === "loading" || state === "stale")) {
          state = "pending";
        }
        return { ...cp, info, state };
      });
    }
    case "proposalMissing": {
      const ids = new Set(a.ids);
      return mapProposals(s, (cp) =>
        ids.has(cp.id) && cp.state === "loading" ? { ...cp, state: "failed", message: a.message } : cp,
      );
    }
    case "proposalOutcome":
      return mapProposals(s, (cp) => (cp.id === a.id ? { ...cp, state: a.state, message: a.message } : cp));
    case "reset": {
      // A running ask is forgotten: its late events find no message.
      const running: Record<string, string> = {};
      for (const [t, p] of Object.entries(s.running)) {
        if (p !== a.persona) {
          running[t] = p;
        }
      }
      return { ...s, running, conversations: { ...s.conversations, [a.persona]: { persona: a.persona, messages: [] } } };
    }
  }
}

/** runningToken is the token of the persona's ask in flight, if any. */
export function runningToken(s: ChatState, persona: string): string | undefined {
  return Object.entries(s.running).find(([, p]) => p === persona)?.[0];
}

/** pendingProposalIds lists the proposals shown as pending, for refreshing after an apply elsewhere. */
export function proposalIds(s: ChatState): string[] {
  const out: string[] = [];
  for (const conv of Object.values(s.conversations)) {
    for (const m of conv.messages) {
      if (m.kind === "assistant") {
        out.push(...m.proposals.map((p) => p.id));
      }
    }
  }
  return out;
}
