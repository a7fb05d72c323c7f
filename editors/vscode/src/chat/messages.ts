// What passes between the extension and the chat webview: the view model
// the extension posts, and the messages the webview sends back. The
// webview scripts (media/*.js) are type-checked against these types.
import { DiffLine } from "../diff";
import { Block } from "../markdown";
import { Range } from "../protocol";
import { ErrorView, ProposalState } from "./state";

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
  // Which buttons the card offers in its state.
  canOpenDiff: boolean;
  canApply: boolean;
  canDiscard: boolean;
}

export interface UserMessageVM {
  kind: "user";
  text: string;
  context?: string;
}

export interface AssistantMessageVM {
  kind: "assistant";
  status: "running" | "done" | "cancelled" | "error";
  rows: { text: string; ok: boolean }[];
  blocks: Block[];
  // The answer as the model wrote it, shown as plain text if its blocks cannot be drawn.
  text: string;
  // why: the call that read the file, what led to it, whether the answer names it.
  evidence: { label: string; tool: string; why: string; uri: string; range?: Range }[];
  proposals: ProposalVM[];
  error?: ErrorView;
  routing?: string;
}

export type MessageVM = UserMessageVM | AssistantMessageVM;

export interface ViewModel {
  personas: { id: string; name: string; focus: string; busy: boolean }[];
  active?: string;
  busy: boolean;
  context?: string;
  showPeekButton: boolean;
  messages: MessageVM[];
}

export type ToWebview = { type: "state"; vm: ViewModel } | { type: "error"; message: string };

export type FromWebview =
  | { type: "ready" }
  | { type: "ask"; text: string }
  | { type: "peek"; text: string }
  | { type: "cancel" }
  | { type: "persona"; id: string }
  | { type: "reset" }
  | { type: "open"; uri: string; range?: Range }
  | { type: "link"; href: string }
  | { type: "apply"; id: string }
  | { type: "discard"; id: string }
  | { type: "diff"; id: string }
  // A message the webview could not draw; the extension logs it.
  | { type: "renderError"; message: string };
