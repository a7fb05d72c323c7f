import * as assert from "assert";
import { changeKinds, didChangeConfigurationParams, displaySettingsOf, serverSettings } from "../settings";

function getter(values: Record<string, unknown>): (k: string) => unknown {
  return (k) => values[k];
}

describe("serverSettings", () => {
  const cases: { name: string; config: Record<string, unknown>; want: object; warnings?: number }[] = [
    { name: "nothing set sends nothing", config: {}, want: {} },
    {
      name: "defaults as VS Code reports them are all unset",
      config: {
        "provider.baseUrl": "",
        "provider.model": "",
        "provider.apiKeyEnv": "",
        "provider.api": "",
        "provider.tools": null,
        "provider.toolCalling": "",
        persona: "",
      },
      want: {},
    },
    {
      name: "ollama",
      config: { "provider.baseUrl": " http://localhost:11434/v1 ", "provider.model": "llama3.1", "provider.tools": false },
      want: { provider: { base_url: "http://localhost:11434/v1", model: "llama3.1", tools: false } },
    },
    {
      name: "openai with every key, snake_case on the wire",
      config: {
        "provider.baseUrl": "https://api.openai.com/v1",
        "provider.model": "gpt-4.1-mini",
        "provider.apiKeyEnv": "OPENAI_API_KEY",
        "provider.api": "responses",
        "provider.tools": true,
        "provider.toolCalling": "best_effort",
        persona: "continuity-editor",
      },
      want: {
        provider: {
          base_url: "https://api.openai.com/v1",
          model: "gpt-4.1-mini",
          api_key_env: "OPENAI_API_KEY",
          api: "responses",
          tools: true,
          tool_calling: "best_effort",
        },
        persona: "continuity-editor",
      },
    },
    { name: "persona alone", config: { persona: "writing-coach" }, want: { persona: "writing-coach" } },
    {
      name: "a pasted key is never sent",
      config: { "provider.apiKeyEnv": "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789", "provider.model": "m" },
      want: { provider: { model: "m" } },
      warnings: 1,
    },
    {
      name: "a value that is no variable name is dropped",
      config: { "provider.apiKeyEnv": "MY KEY" },
      want: {},
      warnings: 1,
    },
    {
      name: "out-of-enum values are dropped",
      config: { "provider.api": "completions", "provider.toolCalling": "always", "provider.tools": "yes" },
      want: {},
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = serverSettings(getter(c.config));
      assert.deepStrictEqual(got.settings, c.want);
      assert.strictEqual(got.warnings.length, c.warnings ?? 0);
      assert.ok(!JSON.stringify(got.settings).includes("sk-"), "a key leaked into the settings");
    });
  }

  it("wraps settings under quire for didChangeConfiguration", () => {
    assert.deepStrictEqual(didChangeConfigurationParams({ persona: "x" }), { settings: { quire: { persona: "x" } } });
  });
});

describe("changeKinds", () => {
  const cases: { changed: string[]; want: string[] }[] = [
    { changed: ["quire.serverPath"], want: ["restart"] },
    { changed: ["quire.serverArgs"], want: ["restart"] },
    { changed: ["quire.provider.model"], want: ["server"] },
    { changed: ["quire.persona"], want: ["server"] },
    { changed: ["quire.chat.showToolRows"], want: ["display"] },
    { changed: ["quire.chat.showRouting", "quire.provider.baseUrl"], want: ["server", "display"] },
    { changed: ["editor.fontSize"], want: [] },
  ];
  for (const c of cases) {
    it(c.changed.join(", "), () => {
      const got = [...changeKinds((s) => c.changed.includes(s))].sort();
      assert.deepStrictEqual(got, c.want.slice().sort());
    });
  }
});

describe("displaySettingsOf", () => {
  it("uses the defaults for unset or mistyped values", () => {
    assert.deepStrictEqual(displaySettingsOf(getter({ "chat.showToolRows": "no" })), {
      showToolRows: true,
      showRouting: false,
      showPeekButton: true,
    });
  });
  it("reads set values", () => {
    assert.deepStrictEqual(
      displaySettingsOf(getter({ "chat.showToolRows": false, "chat.showRouting": true, "chat.showPeekButton": false })),
      { showToolRows: false, showRouting: true, showPeekButton: false },
    );
  });
});
