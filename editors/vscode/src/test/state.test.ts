import * as assert from "assert";
import { Action, AssistantMessage, ChatState, emptyState, providerHint, reduce, runningToken } from "../chat/state";
import { AskResult, Proposal } from "../protocol";

function run(actions: Action[], from: ChatState = emptyState): ChatState {
  return actions.reduce(reduce, from);
}

function lastReply(s: ChatState, persona: string): AssistantMessage {
  const msgs = s.conversations[persona].messages;
  return msgs[msgs.length - 1] as AssistantMessage;
}

const row = (tool: string, ok = true) => ({ round: 1, tool, summary: "Teodora Quill", ok, ms: 3, code: ok ? undefined : "NOT_FOUND" });

const result = (over: Partial<AskResult> = {}): AskResult => ({
  persona: "continuity-editor",
  answer: "Final **answer**",
  evidence: [{ uri: "file:///b/codex/t.md", range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } }, path: "codex/t.md", tool: "get_character_context" }],
  proposals: ["p-1"],
  conversationId: "c-42",
  ...over,
});

const proposal = (id: string, status: "pending" | "applied" | "stale" = "pending"): Proposal => ({
  id,
  kind: "update",
  name: "Teodora Quill",
  entryType: "character",
  path: "codex/t.md",
  changeSummary: "adds a scar",
  markdown: "## Appearance",
  warnings: [],
  created: "2026-01-01T00:00:00Z",
  status,
  diff: "",
});

const ask = (persona: string, token: string, text = "q?"): Action => ({ type: "ask", persona, token, text, context: "03.md:4" });

describe("chat state", () => {
  it("an ask adds the question and a running reply, and makes the persona active", () => {
    const s = run([ask("continuity-editor", "t1")]);
    assert.strictEqual(s.active, "continuity-editor");
    assert.deepStrictEqual(s.conversations["continuity-editor"].messages[0], { kind: "user", text: "q?", context: "03.md:4" });
    assert.strictEqual(lastReply(s, "continuity-editor").status, "running");
    assert.strictEqual(runningToken(s, "continuity-editor"), "t1");
  });

  it("rows and deltas accumulate in order; the result replaces the streamed text", () => {
    const s = run([
      ask("continuity-editor", "t1"),
      { type: "progress", params: { token: "t1", row: row("get_character_context") } },
      { type: "progress", params: { token: "t1", delta: "Fin", round: 2 } },
      { type: "progress", params: { token: "t1", row: row("search_codex", false) } },
      { type: "progress", params: { token: "t1", delta: "al ans", round: 2 } },
    ]);
    const m = lastReply(s, "continuity-editor");
    assert.deepStrictEqual(m.rows.map((r) => [r.tool, r.ok]), [["get_character_context", true], ["search_codex", false]]);
    assert.strictEqual(m.text, "Final ans");
    const done = reduce(s, { type: "result", token: "t1", result: result() });
    const d = lastReply(done, "continuity-editor");
    assert.strictEqual(d.status, "done");
    assert.strictEqual(d.text, "Final **answer**");
    assert.strictEqual(d.rows.length, 2, "rows stay after the result");
    assert.deepStrictEqual(d.proposals, [{ id: "p-1", state: "loading" }]);
    assert.strictEqual(d.evidence.length, 1);
    assert.strictEqual(done.conversations["continuity-editor"].conversationId, "c-42");
    assert.strictEqual(runningToken(done, "continuity-editor"), undefined);
  });

  it("numeric progress tokens match the string token", () => {
    const s = run([ask("p", "7"), { type: "progress", params: { token: 7, delta: "x" } }]);
    assert.strictEqual(lastReply(s, "p").text, "x");
  });

  it("events after the result, or for unknown tokens, change nothing", () => {
    const done = run([ask("p", "t1"), { type: "result", token: "t1", result: result({ answer: "A" }) }]);
    for (const late of [
      { type: "progress", params: { token: "t1", delta: "late" } },
      { type: "progress", params: { token: "t1", row: row("x") } },
      { type: "progress", params: { token: "nope", delta: "x" } },
      { type: "failed", token: "t1", code: -32603, message: "boom" },
      { type: "cancelled", token: "t1" },
      { type: "result", token: "t1", result: result({ answer: "B" }) },
    ] as Action[]) {
      assert.strictEqual(reduce(done, late), done, JSON.stringify(late));
    }
  });

  it("each persona keeps its own conversation and conversationId", () => {
    const s = run([
      ask("continuity-editor", "a"),
      ask("writing-coach", "b"),
      { type: "progress", params: { token: "b", delta: "coach" } },
      { type: "result", token: "a", result: result({ conversationId: "c-a" }) },
      { type: "result", token: "b", result: result({ conversationId: "c-b", answer: "B", proposals: null, evidence: null }) },
    ]);
    assert.strictEqual(s.conversations["continuity-editor"].conversationId, "c-a");
    assert.strictEqual(s.conversations["writing-coach"].conversationId, "c-b");
    assert.strictEqual(lastReply(s, "continuity-editor").text, "Final **answer**");
    assert.strictEqual(lastReply(s, "writing-coach").text, "B");
    assert.deepStrictEqual(lastReply(s, "writing-coach").evidence, []);
    assert.strictEqual(s.active, "writing-coach");
  });

  it("a failure keeps the conversation id and streamed text, and words the error", () => {
    const base = run([ask("p", "t1"), { type: "result", token: "t1", result: result({ conversationId: "keep" }) }]);
    const cases: { code?: number; message: string; hint: boolean; status: string }[] = [
      { code: -32600, message: "quire.ask: no provider configured", hint: true, status: "error" },
      { code: -32602, message: "unknown persona \"x\"", hint: false, status: "error" },
      { code: -32603, message: "model timed out", hint: false, status: "error" },
      { code: -32800, message: "cancelled", hint: false, status: "cancelled" },
    ];
    for (const c of cases) {
      const s = run([ask("p", "t2"), { type: "progress", params: { token: "t2", delta: "part" } }, { type: "failed", token: "t2", code: c.code, message: c.message }], base);
      const m = lastReply(s, "p");
      assert.strictEqual(m.status, c.status, c.message);
      assert.strictEqual(m.text, "part");
      assert.strictEqual(s.conversations.p.conversationId, "keep");
      assert.strictEqual(runningToken(s, "p"), undefined);
      if (c.status === "error") {
        assert.strictEqual(m.error?.message, c.message);
        assert.strictEqual(m.error?.hint === providerHint, c.hint, c.message);
      }
    }
  });

  it("proposal details arrive, and outcomes are recorded", () => {
    let s = run([
      ask("p", "t1"),
      { type: "result", token: "t1", result: result({ proposals: ["p-1", "p-2", "p-3"] }) },
      { type: "proposals", proposals: [proposal("p-1"), proposal("p-2", "applied"), proposal("p-9")] },
      { type: "proposalMissing", ids: ["p-3"], message: "gone" },
    ]);
    assert.deepStrictEqual(lastReply(s, "p").proposals.map((p) => [p.id, p.state, p.info?.id]), [
      ["p-1", "pending", "p-1"],
      ["p-2", "applied", "p-2"],
      ["p-3", "failed", undefined],
    ]);
    s = reduce(s, { type: "proposalOutcome", id: "p-1", state: "refused", message: "codex/t.md changed" });
    assert.deepStrictEqual(lastReply(s, "p").proposals[0].message, "codex/t.md changed");
    // A later refresh does not turn the refusal back into pending.
    s = reduce(s, { type: "proposals", proposals: [proposal("p-1")] });
    assert.strictEqual(lastReply(s, "p").proposals[0].state, "refused");
  });

  it("a stale proposal is marked, and turns pending again when the server says so", () => {
    let s = run([
      ask("p", "t1"),
      { type: "result", token: "t1", result: result({ proposals: ["p-1", "p-2"] }) },
      { type: "proposals", proposals: [proposal("p-1", "stale"), proposal("p-2")] },
    ]);
    assert.deepStrictEqual(lastReply(s, "p").proposals.map((p) => p.state), ["stale", "pending"]);
    s = reduce(s, { type: "proposals", proposals: [proposal("p-1"), proposal("p-2", "stale")] });
    assert.deepStrictEqual(lastReply(s, "p").proposals.map((p) => p.state), ["pending", "stale"]);
    // An outcome the session saw is not overwritten by staleness.
    s = reduce(s, { type: "proposalOutcome", id: "p-1", state: "refused", message: "changed" });
    s = reduce(s, { type: "proposals", proposals: [proposal("p-1", "stale")] });
    assert.strictEqual(lastReply(s, "p").proposals[0].state, "refused");
  });

  it("reset starts a new conversation and drops the running ask's events", () => {
    const s = run([
      ask("p", "t1"),
      { type: "result", token: "t1", result: result() },
      ask("p", "t2"),
      { type: "reset", persona: "p" },
      { type: "progress", params: { token: "t2", delta: "late" } },
    ]);
    assert.deepStrictEqual(s.conversations.p, { persona: "p", messages: [] });
    assert.deepStrictEqual(s.running, {});
  });

  it("the reducer does not mutate its input", () => {
    const s = run([ask("p", "t1")]);
    const frozen = JSON.stringify(s);
    run([{ type: "progress", params: { token: "t1", row: row("x") } }, { type: "progress", params: { token: "t1", delta: "d" } }, { type: "result", token: "t1", result: result() }], s);
    assert.strictEqual(JSON.stringify(s), frozen);
  });
});
