// What the webview draws, derived from the chat state: Markdown parsed
// into blocks, diffs into lines, display settings applied. The webview
// builds DOM nodes from this with textContent only.
import { evidenceLabel, evidenceWhy } from "../commands";
import { parseDiff } from "../diff";
import { parseMarkdown } from "../markdown";
import { Persona, ToolRow } from "../protocol";
import { DisplaySettings } from "../settings";
import { withoutIds } from "../writerText";
import { MessageVM, ProposalVM, ViewModel } from "./messages";
import { ChatState, ProposalState } from "./state";

export type { AssistantMessageVM, MessageVM, ProposalVM, UserMessageVM, ViewModel } from "./messages";

/** proposalButtons is what a proposal's card offers in each state. */
export function proposalButtons(state: ProposalState, loaded: boolean, hasDiff: boolean): Pick<ProposalVM, "canOpenDiff" | "canApply" | "canDiscard"> {
  switch (state) {
    case "pending":
    case "failed":
      // Failed: the editor did not take the edit (declined, or a document
      // moved on); trying again may work.
      return { canOpenDiff: hasDiff, canApply: loaded, canDiscard: true };
    case "stale":
    case "refused":
      // The server will refuse it again: a file changed, or it was applied.
      return { canOpenDiff: false, canApply: false, canDiscard: true };
    default:
      return { canOpenDiff: false, canApply: false, canDiscard: false };
  }
}

/** rowText is a tool row as the server words it in $/progress: "<tool> <summary> ok|<CODE> <ms> ms". */
export function rowText(r: ToolRow): string {
  const parts = [r.tool];
  if (r.summary) {
    parts.push(r.summary);
  }
  parts.push(r.ok ? "ok" : r.code || "failed", `${r.ms} ms`);
  return parts.join(" ");
}

function routing(serviceTier: string | undefined, warnings: string[]): string | undefined {
  const parts: string[] = [];
  if (serviceTier) {
    parts.push(`service tier: ${serviceTier}`);
  }
  parts.push(...warnings);
  return parts.length > 0 ? parts.join(" · ") : undefined;
}

export function viewModel(s: ChatState, personas: Persona[], display: DisplaySettings, context?: string): ViewModel {
  const busyPersonas = new Set(Object.values(s.running));
  const conv = s.active === undefined ? undefined : s.conversations[s.active];
  const messages: MessageVM[] = (conv?.messages ?? []).map((m): MessageVM => {
    if (m.kind === "user") {
      return { kind: "user", text: m.text, context: m.context };
    }
    return {
      kind: "assistant",
      status: m.status,
      rows: display.showToolRows ? m.rows.map((r) => ({ text: rowText(r), ok: r.ok })) : [],
      blocks: parseMarkdown(m.text),
      text: m.text,
      evidence: m.evidence.map((e) => ({ label: evidenceLabel(e), tool: e.tool, why: evidenceWhy(e), uri: e.uri, range: e.range })),
      proposals: m.proposals.map((p): ProposalVM => {
        const info = p.info;
        const diff = info?.diff ? parseDiff(info.diff).lines.map((l) => ({ kind: l.kind, text: l.text })) : [];
        return {
          id: p.id,
          state: p.state,
          message: p.message === undefined ? undefined : withoutIds(p.message),
          title: info ? `${info.kind === "create" ? "Create" : "Update"} ${info.entryType} “${info.name}”` : "Proposal",
          changeSummary: info?.changeSummary ?? "",
          path: info ? [info.path, info.soulPath].filter(Boolean).join(", ") : "",
          warnings: info?.warnings ?? [],
          diff,
          preview: diff.length === 0 ? (info?.markdown ?? "") : "",
          ...proposalButtons(p.state, info !== undefined, diff.length > 0),
        };
      }),
      error: m.error && { ...m.error, message: withoutIds(m.error.message) },
      routing: display.showRouting ? routing(m.serviceTier, m.warnings) : undefined,
    };
  });
  return {
    personas: personas.map((p) => ({ ...p, busy: busyPersonas.has(p.id) })),
    active: s.active,
    busy: s.active !== undefined && busyPersonas.has(s.active),
    context,
    showPeekButton: display.showPeekButton,
    messages,
  };
}
