// Checks the one behaviour QuireLanguageClient changes, against the real
// vscode-languageclient execute-command feature, with a stand-in for the
// vscode module that records command registrations.
import * as assert from "assert";
import Module from "module";

const registered: string[] = [];

// Any property is another stub; calls and constructions return stubs.
// Enough for the client's constructor, which only wires features up.
function stub(name: string): unknown {
  const fn = function () {
    return stub(name + "()");
  };
  return new Proxy(fn, {
    get(_t, p) {
      if (p === Symbol.toPrimitive) {
        return () => name;
      }
      if (p === "then") {
        return undefined;
      }
      if (name === "vscode" && p === "version") {
        return "1.85.0";
      }
      if (name === "vscode.commands" && p === "registerCommand") {
        return (id: string) => {
          registered.push(id);
          return { dispose: () => undefined };
        };
      }
      return stub(`${name}.${String(p)}`);
    },
    construct() {
      return stub(`new ${name}`) as object;
    },
  });
}

describe("QuireLanguageClient", () => {
  const mod = Module as unknown as { _load: (req: string, ...rest: unknown[]) => unknown };
  const load = mod._load;
  before(() => {
    const vscode = stub("vscode");
    mod._load = (req: string, ...rest: unknown[]) => (req === "vscode" ? vscode : load(req, ...rest));
  });
  after(() => {
    mod._load = load;
  });

  it("registers only the server commands the extension does not own", () => {
    // Loaded here, after the vscode stand-in is in place.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { QuireLanguageClient } = require("../client") as typeof import("../client");
    const client = new QuireLanguageClient({ command: "quire", args: ["serve"] }, {});
    const feature = client.getFeature("workspace/executeCommand");
    assert.ok(feature, "the execute-command feature is registered");
    feature.initialize(
      { executeCommandProvider: { commands: ["quire.ask", "quire.lookup", "quire.applyProposal", "quire.peekPrompt", "quire.explicate", "quire.reindex", "quire.discardProposal"] } },
      undefined,
    );
    assert.deepStrictEqual(registered, ["quire.lookup", "quire.explicate"]);
    // A dynamic registration is filtered the same way.
    feature.register({ id: "dyn", registerOptions: { commands: ["quire.ask", "quire.search"] } });
    assert.deepStrictEqual(registered, ["quire.lookup", "quire.explicate", "quire.search"]);
  });
});
