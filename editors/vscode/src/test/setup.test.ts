import * as assert from "assert";
import * as fs from "fs";
import * as path from "path";
import { localModelItems, noLocalModelsMessage, providerChoices } from "../setup";

describe("providerChoices", () => {
  it("offers the provider in the settings first, then OpenAI, OpenRouter and another server", () => {
    const c = providerChoices("http://127.0.0.1:9/v1", ["http://127.0.0.1:9/v1"]);
    assert.deepStrictEqual(
      c.map((x) => [x.label, x.url]),
      [
        ["The provider in your settings: http://127.0.0.1:9/v1", "http://127.0.0.1:9/v1"],
        ["OpenAI", "https://api.openai.com/v1"],
        ["OpenRouter", "https://openrouter.ai/api/v1"],
        ["Another server…", undefined],
      ],
    );
    assert.match(c[0].description ?? "", /a key is kept/);
    assert.doesNotMatch(c[1].description ?? "", /a key is kept/);
  });
  it("names a known provider in the settings once", () => {
    const c = providerChoices("https://openrouter.ai/api/v1", []);
    assert.deepStrictEqual(c.map((x) => x.label), ["The provider in your settings: OpenRouter", "OpenAI", "Another server…"]);
  });
});

describe("local models", () => {
  it("are rows that carry the model they choose", () => {
    const m = { server: "Ollama", baseURL: "http://127.0.0.1:11434/v1", model: "llama3.2:latest" };
    assert.deepStrictEqual(localModelItems([m]), [{ label: "llama3.2:latest", description: "Ollama · http://127.0.0.1:11434/v1", model: m }]);
  });
  it("when there are none, the message says how to start Ollama", () => {
    assert.match(noLocalModelsMessage, /ollama serve/);
    assert.match(noLocalModelsMessage, /ollama pull/);
  });
});

// The manifest's walkthrough and commands, as VS Code reads them.
describe("walkthrough and setup commands in package.json", () => {
  const root = path.join(__dirname, "..", "..");
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    contributes: {
      commands: { command: string; title: string }[];
      walkthroughs: { steps: { id: string; description: string; media: { markdown?: string }; completionEvents?: string[] }[] }[];
    };
  };
  const contributed = manifest.contributes.commands.map((c) => c.command);
  const registeredIn = (file: string) => fs.readFileSync(path.join(root, "src", file), "utf8");
  const sources = registeredIn("quireCommands.ts") + registeredIn("setupCommands.ts");

  it("contributes the setup commands, each registered by the extension", () => {
    for (const id of ["quire.setApiKey", "quire.removeApiKey", "quire.chooseProvider", "quire.chooseLocalModel", "quire.showHealth", "quire.createSampleBook"]) {
      assert.ok(contributed.includes(id), `${id} is not in contributes.commands`);
      assert.ok(sources.includes(`["${id}"`), `${id} is not registered`);
    }
  });

  it("has walkthrough steps whose pages exist and whose quire links are contributed commands", () => {
    const steps = manifest.contributes.walkthroughs[0].steps;
    assert.deepStrictEqual(steps.map((s) => s.id), ["openBook", "chooseProvider", "setKey", "hover", "ask", "health"]);
    for (const s of steps) {
      assert.ok(s.media.markdown && fs.existsSync(path.join(root, s.media.markdown)), `${s.id}: no page ${s.media.markdown}`);
      for (const m of s.description.matchAll(/\(command:(quire\.[\w]+)/g)) {
        assert.ok(contributed.includes(m[1]), `${s.id} links ${m[1]}, which is not contributed`);
      }
      for (const e of s.completionEvents ?? []) {
        // The kinds VS Code's walkthroughs know; any other never fires.
        assert.match(e, /^(onCommand|onContext|onLink|onView|onSettingChanged|onExtensionInstalled):.+$|^onStepSelected$/, `${s.id}: ${e} is no completion event`);
        const cmd = /^onCommand:(quire\.\w+)$/.exec(e)?.[1];
        if (cmd) {
          assert.ok(contributed.includes(cmd), `${s.id} completes on ${cmd}, which is not contributed`);
        }
      }
    }
  });
});
