import * as assert from "assert";
import { addUrl, editorBaseUrlEnv, editorKeyEnv, keyProblem, keyToHand, keyUrl, providerLabel, removeUrl, secretName, serverEnv, urlOfSecret } from "../keys";

describe("keyUrl", () => {
  const cases: [string, string | undefined][] = [
    ["", "https://api.openai.com/v1"],
    ["https://api.openai.com/v1/", "https://api.openai.com/v1"],
    ["HTTPS://OpenRouter.AI:443/api/v1", "https://openrouter.ai/api/v1"],
    ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1"],
    ["http://localhost:80/v1?x=1#y", "http://localhost/v1"],
    ["https://user:pw@example.com/v1", "https://example.com/v1"],
    ["ftp://example.com/v1", undefined],
    ["not a url", undefined],
  ];
  for (const [input, want] of cases) {
    it(`${JSON.stringify(input)} → ${want}`, () => assert.strictEqual(keyUrl(input), want));
  }
});

describe("secret names", () => {
  it("name a provider's key by its URL and read it back", () => {
    const n = secretName("https://openrouter.ai/api/v1");
    assert.strictEqual(urlOfSecret(n), "https://openrouter.ai/api/v1");
    assert.strictEqual(urlOfSecret("other.secret"), undefined);
  });
  it("name known providers for the writer", () => {
    assert.strictEqual(providerLabel("https://openrouter.ai/api/v1"), "OpenRouter (https://openrouter.ai/api/v1)");
    assert.strictEqual(providerLabel("http://127.0.0.1:9/v1"), "http://127.0.0.1:9/v1");
  });
});

describe("keyToHand", () => {
  const openai = "https://api.openai.com/v1";
  const router = "https://openrouter.ai/api/v1";
  it("hands the key of the provider in the settings when one is kept", () => {
    assert.strictEqual(keyToHand("https://openrouter.ai/api/v1/", [router, openai], openai), router);
  });
  it("else the key set last", () => {
    assert.strictEqual(keyToHand("http://127.0.0.1:11434/v1", [router, openai], router), router);
    assert.strictEqual(keyToHand(undefined, [router, openai], openai), openai);
  });
  it("else the newest kept, and none when none is kept", () => {
    assert.strictEqual(keyToHand("", [router, openai], undefined), openai);
    assert.strictEqual(keyToHand(openai, [], openai), undefined);
  });
  it("keeps the list of providers with a key, newest last", () => {
    assert.deepStrictEqual(addUrl([openai, router], openai), [router, openai]);
    assert.deepStrictEqual(removeUrl([openai, router], openai), [router]);
  });
});

describe("serverEnv", () => {
  it("hands the key and its provider's URL in the environment, keeping the rest", () => {
    const env = serverEnv({ PATH: "/bin", HOME: "/h", UNSET: undefined }, { url: "https://openrouter.ai/api/v1", key: "sk-or-secret" });
    assert.deepStrictEqual(env, { PATH: "/bin", HOME: "/h", [editorKeyEnv]: "sk-or-secret", [editorBaseUrlEnv]: "https://openrouter.ai/api/v1" });
  });
  it("drops inherited editor variables, so only the key kept here reaches the server", () => {
    const env = serverEnv({ PATH: "/bin", [editorKeyEnv]: "from-the-shell", [editorBaseUrlEnv]: "https://x" });
    assert.deepStrictEqual(env, { PATH: "/bin" });
  });
  it("uses the names quire serve reads", () => {
    assert.strictEqual(editorKeyEnv, "QUIRE_EDITOR_API_KEY");
    assert.strictEqual(editorBaseUrlEnv, "QUIRE_EDITOR_API_BASE_URL");
  });
});

describe("keyProblem", () => {
  it("accepts a key", () => assert.strictEqual(keyProblem(" sk-proj-AbC123_x "), undefined));
  it("refuses nothing, spaces and a variable's name", () => {
    assert.match(keyProblem("  ") ?? "", /Paste the key/);
    assert.match(keyProblem("sk one") ?? "", /no spaces/);
    assert.match(keyProblem("OPENAI_API_KEY") ?? "", /name of a variable/);
  });
});
