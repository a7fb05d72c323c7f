import * as assert from "assert";
import { applyProposalFlow, discardProposalFlow, ProposalUi } from "../applyFlow";
import { Proposal } from "../protocol";

const proposal: Proposal = {
  id: "p-bd59066e364d",
  kind: "update",
  name: "Teodora Quill",
  entryType: "character",
  path: "codex/characters/teodora-quill/index.md",
  changeSummary: "eyes",
  markdown: "",
  warnings: null,
  created: "",
  status: "pending",
  diff: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
};

// fakeUi records every call, in order, and answers as told.
function fakeUi(opts: { pick?: Proposal; confirm?: boolean; apply?: { applied: boolean; message?: string } | Error } = {}): { ui: ProposalUi; calls: string[] } {
  const calls: string[] = [];
  const ui: ProposalUi = {
    pick: async () => (calls.push("pick"), opts.pick),
    showDiff: async (p) => void calls.push(`diff ${p.id}`),
    confirm: async (q, _d, action) => (calls.push(`confirm ${q} [${action}]`), opts.confirm ?? true),
    apply: async (id) => {
      calls.push(`apply ${id}`);
      if (opts.apply instanceof Error) {
        throw opts.apply;
      }
      return opts.apply ?? { applied: true };
    },
    discard: async (id) => void calls.push(`discard ${id}`),
    closeDiff: async (id) => void calls.push(`close ${id}`),
    reveal: async (p) => void calls.push(`reveal ${p.path}`),
    changed: (id, state) => void calls.push(`changed ${id} ${state}`),
    info: (m) => void calls.push(`info ${m}`),
    warn: (m) => void calls.push(`warn ${m}`),
    error: (m) => void calls.push(`error ${m}`),
  };
  return { ui, calls };
}

describe("applyProposalFlow", () => {
  it("from the palette: pick, one diff, one confirmation, apply, close the diff, say what happened", async () => {
    const { ui, calls } = fakeUi({ pick: proposal });
    await applyProposalFlow(ui);
    assert.deepStrictEqual(calls, [
      "pick",
      "diff p-bd59066e364d",
      "confirm Apply “eyes” to codex/characters/teodora-quill/index.md? [Apply]",
      "apply p-bd59066e364d",
      "changed p-bd59066e364d applied",
      "close p-bd59066e364d",
      "reveal codex/characters/teodora-quill/index.md",
      "info quire: applied “eyes” to codex/characters/teodora-quill/index.md. Review and save.",
    ]);
  });

  it("with an id, the writer chose Apply already: no question", async () => {
    const { ui, calls } = fakeUi();
    await applyProposalFlow(ui, "p-bd59066e364d");
    assert.deepStrictEqual(calls.filter((c) => c.startsWith("confirm") || c.startsWith("pick") || c.startsWith("diff")), []);
    assert.ok(calls.includes("apply p-bd59066e364d"));
  });

  it("declined: nothing is applied", async () => {
    const { ui, calls } = fakeUi({ pick: proposal, confirm: false });
    await applyProposalFlow(ui);
    assert.ok(!calls.some((c) => c.startsWith("apply")), calls.join("\n"));
  });

  it("a refusal or failure names no internal id and keeps the diff open", async () => {
    const refused = fakeUi({ pick: proposal, apply: new Error("proposal p-bd59066e364d is stale: codex/characters/teodora-quill/index.md changed since it was proposed; ask again") });
    await applyProposalFlow(refused.ui);
    const notApplied = fakeUi({ pick: proposal, apply: { applied: false, message: "the editor refused p-bd59066e364d" } });
    await applyProposalFlow(notApplied.ui);
    const outcomes = [...refused.calls, ...notApplied.calls].filter((c) => /^(info|warn|error) /.test(c));
    assert.deepStrictEqual(outcomes, [
      "error quire: This proposal is stale: codex/characters/teodora-quill/index.md changed since it was proposed; ask again",
      "warn quire: “eyes” was not applied: The editor refused",
    ]);
    assert.ok(![...refused.calls, ...notApplied.calls].some((c) => c.startsWith("close")));
  });
});

describe("discardProposalFlow", () => {
  it("discards, closes the diff and names the proposal by its summary", async () => {
    const { ui, calls } = fakeUi({ pick: proposal });
    await discardProposalFlow(ui);
    assert.deepStrictEqual(calls, [
      "pick",
      "discard p-bd59066e364d",
      "changed p-bd59066e364d discarded",
      "close p-bd59066e364d",
      "info quire: discarded “eyes”.",
    ]);
  });
});
