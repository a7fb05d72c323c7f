// Checks what QuireLanguageClient changes in vscode-languageclient's
// behaviour, against the real library, with a stand-in for the vscode
// module (vscodeStandIn.ts).
import * as assert from "assert";
import { clientCapabilities, quireClient, registered, withVscode } from "./vscodeStandIn";

describe("QuireLanguageClient", () => {
  it("registers only the server commands the extension does not own", () => {
    const client = quireClient();
    const feature = client.getFeature("workspace/executeCommand");
    assert.ok(feature, "the execute-command feature is registered");
    withVscode(() => {
      feature.initialize(
        { executeCommandProvider: { commands: ["quire.ask", "quire.lookup", "quire.applyProposal", "quire.peekPrompt", "quire.explicate", "quire.reindex", "quire.discardProposal"] } },
        undefined,
      );
      assert.deepStrictEqual(registered, ["quire.lookup", "quire.explicate"]);
      // A dynamic registration is filtered the same way.
      feature.register({ id: "dyn", registerOptions: { commands: ["quire.ask", "quire.search"] } });
    });
    assert.deepStrictEqual(registered, ["quire.lookup", "quire.explicate", "quire.search"]);
  });

  it("declares workspace edits without change annotations, so a proposal's edit is applied, not left unticked in a preview", () => {
    const edit = clientCapabilities().workspace?.workspaceEdit;
    assert.ok(edit, "no workspaceEdit capability");
    assert.strictEqual(edit.documentChanges, true);
    assert.ok(edit.resourceOperations?.includes("create"), "file creation is still declared");
    assert.strictEqual(edit.changeAnnotationSupport, undefined);
  });
});
