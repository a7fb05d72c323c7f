// What the webview draws, derived from the chat state: Markdown parsed
// into blocks, diffs into lines, display settings applied. The webview
// builds DOM nodes from this with textContent only.
import { evidenceLabel } from "../commands";
import { DiffLine, parseDiff } from "../diff";
import { Block, parseMarkdown } from "../markdown";
import { Persona, Range, ToolRow } from "../protocol";
import { DisplaySettings } from "../settings";
import { ChatState, ErrorView, ProposalState } from "./state";

export interface ProposalVM {
  id: string;
  state: ProposalState;
  message?: string;
  title: string;
  changeSummary: string;
  path: string;
  warnings: string[];
  diff: Pick<DiffLine, "kind" | "text">[];
  // The proposed text, shown when the server sent no diff.
  preview: string;
  // Whether the native diff editor can show it (there is a diff to apply).
  canOpenDiff: boolean;
}

export type MessageVM =
  | { kind: "user"; text: string; context?: string }
  | {
      kind: "assistant";
      status: "running" | "done" | "cancelled" | "error";
      rows: { text: string; ok: boolean }[];
      blocks: Block[];
      evidence: { label: string; tool: string; uri: string; range?: Range }[];
      proposals: ProposalVM[];
      error?: ErrorView;
      routing?: string;
    };

export interface ViewModel {
  personas: { id: string; name: string; focus: string; busy: boolean }[];
  active?: string;
  busy: boolean;
  context?: string;
  showPeekButton: boolean;
  messages: MessageVM[];
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
      evidence: m.evidence.map((e) => ({ label: evidenceLabel(e), tool: e.tool, uri: e.uri, range: e.range })),
      proposals: m.proposals.map((p) => {
        const info = p.info;
        const diff = info?.diff ? parseDiff(info.diff).lines.map((l) => ({ kind: l.kind, text: l.text })) : [];
        return {
          id: p.id,
          state: p.state,
          message: p.message,
          title: info ? `${info.kind === "create" ? "Create" : "Update"} ${info.entryType} “${info.name}”` : p.id,
          changeSummary: info?.changeSummary ?? "",
          path: info ? [info.path, info.soulPath].filter(Boolean).join(", ") : "",
          warnings: info?.warnings ?? [],
          diff,
          preview: diff.length === 0 ? (info?.markdown ?? "") : "",
          canOpenDiff: diff.length > 0,
        };
      }),
      error: m.error,
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
