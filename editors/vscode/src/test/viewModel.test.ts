import * as assert from "assert";
import { reduce, emptyState, ChatState, Action, ProposalState } from "../chat/state";
import { rowText, viewModel } from "../chat/viewModel";

const personas = [
  { id: "continuity-editor", name: "Continuity Editor", focus: "facts" },
  { id: "writing-coach", name: "Writing Coach", focus: "craft" },
];
const all = { showToolRows: true, showRouting: true, showPeekButton: true };

function state(): ChatState {
  const actions: Action[] = [
    { type: "ask", persona: "continuity-editor", token: "t1", text: "Is this right?", context: "03.md:4" },
    { type: "progress", params: { token: "t1", row: { round: 1, tool: "get_character_context", summary: "Teodora Quill", ok: true, ms: 4 } } },
    { type: "progress", params: { token: "t1", row: { round: 1, tool: "search_codex", summary: "bell", ok: false, code: "NOT_FOUND", ms: 2 } } },
    {
      type: "result",
      token: "t1",
      result: {
        persona: "continuity-editor",
        answer: "# Verdict\n<b>fine</b>",
        evidence: [{ uri: "file:///b/codex/t.md", path: "codex/t.md", tool: "get_character_context", range: { start: { line: 4, character: 0 }, end: { line: 4, character: 9 } } }],
        proposals: ["p-1"],
        conversationId: "c",
        serviceTier: "flex",
        warnings: ["fell back to default tier"],
      },
    },
    {
      type: "proposals",
      proposals: [
        {
          id: "p-1", kind: "update", name: "Teodora Quill", entryType: "character", path: "codex/t.md", changeSummary: "adds a scar",
          markdown: "", warnings: null, created: "", status: "pending", diff: "--- a/codex/t.md\n+++ b/codex/t.md\n@@ -1 +1 @@\n-a\n+b\n",
        },
      ],
    },
    { type: "ask", persona: "writing-coach", token: "t2", text: "And style?" },
    { type: "select", persona: "continuity-editor" },
  ];
  return actions.reduce(reduce, emptyState);
}

describe("viewModel", () => {
  it("shows the active persona's conversation with rows, blocks, evidence, proposals, routing", () => {
    const vm = viewModel(state(), personas, all, "03.md:9");
    assert.strictEqual(vm.active, "continuity-editor");
    assert.strictEqual(vm.busy, false);
    assert.deepStrictEqual(vm.personas.map((p) => [p.id, p.busy]), [["continuity-editor", false], ["writing-coach", true]]);
    assert.strictEqual(vm.context, "03.md:9");
    assert.strictEqual(vm.messages.length, 2);
    const a = vm.messages[1];
    assert.ok(a.kind === "assistant");
    assert.deepStrictEqual(a.rows, [
      { text: "get_character_context Teodora Quill ok 4 ms", ok: true },
      { text: "search_codex bell NOT_FOUND 2 ms", ok: false },
    ]);
    assert.deepStrictEqual(a.blocks[1], { t: "p", c: [{ t: "text", text: "<b>fine</b>" }] });
    assert.deepStrictEqual(a.evidence.map((e) => e.label), ["codex/t.md:5"]);
    assert.strictEqual(a.proposals[0].title, "Update character “Teodora Quill”");
    assert.deepStrictEqual(a.proposals[0].diff.map((l) => l.kind), ["file", "file", "hunk", "del", "add"]);
    assert.strictEqual(a.proposals[0].canOpenDiff, true);
    assert.strictEqual(a.proposals[0].preview, "", "a diff replaces the preview");
    assert.strictEqual(a.routing, "service tier: flex · fell back to default tier");
  });

  it("display settings hide rows and routing", () => {
    const vm = viewModel(state(), personas, { showToolRows: false, showRouting: false, showPeekButton: false });
    const a = vm.messages[1];
    assert.ok(a.kind === "assistant");
    assert.deepStrictEqual(a.rows, []);
    assert.strictEqual(a.routing, undefined);
    assert.strictEqual(vm.showPeekButton, false);
  });

  it("a proposal without a diff shows its proposed text", () => {
    const s = reduce(state(), {
      type: "proposals",
      proposals: [{ id: "p-1", kind: "create", name: "Vell", entryType: "location", path: "codex/vell.md", changeSummary: "new place", markdown: "# Vell", warnings: ["w"], created: "" }],
    });
    const a = viewModel(s, personas, all).messages[1];
    assert.ok(a.kind === "assistant");
    assert.deepStrictEqual(
      [a.proposals[0].title, a.proposals[0].preview, a.proposals[0].canOpenDiff, a.proposals[0].warnings],
      ["Create location “Vell”", "# Vell", false, ["w"]],
    );
  });

  it("no active persona shows nothing", () => {
    assert.deepStrictEqual(viewModel(emptyState, personas, all).messages, []);
  });

  it("a row without a summary or code", () => {
    assert.strictEqual(rowText({ round: 1, tool: "list_chapters", summary: "", ok: false, ms: 0 }), "list_chapters failed 0 ms");
  });

  it("a card offers only what can still happen to the proposal", () => {
    const buttons = (st: ProposalState, message?: string): string[] => {
      const s = reduce(state(), { type: "proposalOutcome", id: "p-1", state: st, message });
      const a = viewModel(s, personas, all).messages[1];
      assert.ok(a.kind === "assistant");
      const p = a.proposals[0];
      return [p.canOpenDiff && "diff", p.canApply && "apply", p.canDiscard && "discard"].filter((b): b is string => typeof b === "string");
    };
    assert.deepStrictEqual(buttons("pending"), ["diff", "apply", "discard"]);
    // The editor declined the edit: it may be tried again.
    assert.deepStrictEqual(buttons("failed", "The editor did not apply the edit."), ["diff", "apply", "discard"]);
    // The server refused it as stale: applying again would be refused again.
    assert.deepStrictEqual(buttons("refused", "proposal p-bd59066e364d is stale: codex/t.md changed since it was proposed; ask again"), ["discard"]);
    assert.deepStrictEqual(buttons("stale"), ["discard"]);
    assert.deepStrictEqual(buttons("discarded"), []);
    assert.deepStrictEqual(buttons("applied"), []);
    assert.deepStrictEqual(buttons("applying"), []);
  });

  it("no internal id reaches the card", () => {
    let s = reduce(state(), {
      type: "proposalOutcome",
      id: "p-1",
      state: "refused",
      message: "proposal p-bd59066e364d is stale: codex/t.md changed since it was proposed; ask again",
    });
    s = reduce(s, { type: "ask", persona: "continuity-editor", token: "t3", text: "More?" });
    s = reduce(s, { type: "result", token: "t3", result: { persona: "continuity-editor", answer: "", evidence: [], proposals: ["p-0123456789ab"], conversationId: "c" } });
    s = reduce(s, { type: "proposalMissing", ids: ["p-0123456789ab"], message: "The server no longer lists this proposal." });
    const msgs = viewModel(s, personas, all).messages;
    const first = msgs[1];
    const last = msgs[3];
    assert.ok(first.kind === "assistant" && last.kind === "assistant");
    assert.strictEqual(first.proposals[0].message, "This proposal is stale: codex/t.md changed since it was proposed; ask again");
    assert.strictEqual(last.proposals[0].title, "Proposal");
    // Only the card's own id, which the webview posts back and never shows.
    assert.doesNotMatch(JSON.stringify(msgs, (k, v: unknown) => (k === "id" ? undefined : v)), /p-[0-9a-f]{12}/);
  });
});
