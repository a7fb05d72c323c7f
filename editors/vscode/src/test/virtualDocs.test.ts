import * as assert from "assert";
import { isProposalDoc, peekDoc, peekScheme, proposalDocPath, proposalScheme } from "../virtualDocs";

describe("virtualDocs", () => {
  it("a proposal's documents are found by its id, and only its", () => {
    const id = "p-bd59066e364d";
    for (const role of ["proposed", "empty", "preview"] as const) {
      const path = proposalDocPath(id, "codex/a.md", role);
      assert.ok(isProposalDoc({ scheme: proposalScheme, path }, id), path);
      assert.ok(!isProposalDoc({ scheme: proposalScheme, path }, "p-bd59066e364"), path);
      assert.ok(!isProposalDoc({ scheme: "file", path }, id), path);
    }
    assert.strictEqual(proposalDocPath(id, "codex/a.md", "proposed"), "/p-bd59066e364d/codex/a.md");
  });

  it("Peek prompt's document is read-only JSON named after the persona", () => {
    assert.notStrictEqual(peekScheme, "untitled");
    const d = peekDoc(2, "Continuity Editor", '{"model":"m","messages":[]}');
    assert.strictEqual(d.path, "/2/Continuity-Editor prompt.json");
    assert.strictEqual(d.content, '{\n  "model": "m",\n  "messages": []\n}');
    assert.deepStrictEqual(peekDoc(3, undefined, "not json"), { path: "/3/advisor prompt.txt", content: "not json" });
  });
});
