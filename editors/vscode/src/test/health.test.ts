import * as assert from "assert";
import { advisorView, healthMarkdown, worstFirst } from "../health";
import { DoctorCheck } from "../protocol";

const ok = (name: DoctorCheck["name"], detail: string): DoctorCheck => ({ name, status: "ok", detail });
const base = (): DoctorCheck[] => [
  ok("quire", "quire devel, at /usr/bin/quire"),
  ok("book", "/w/the-thirteenth-bell, found as the editor's workspace folder"),
  ok("index", "22 entries, in /c; current"),
  ok("provider", "http://127.0.0.1:9/v1, model scripted, API chat"),
  ok("model", "answers at http://127.0.0.1:9/v1; model scripted is there"),
  ok("key", "from your editor"),
  ok("trust", "nothing to trust"),
  ok("series", "none named"),
];
const withCheck = (c: DoctorCheck): DoctorCheck[] => base().map((x) => (x.name === c.name ? c : x));

describe("advisorView", () => {
  it("says ready when the provider, model and key are fine", () => {
    const v = advisorView(base());
    assert.strictEqual(v.text, "$(check) quire: advisor ready");
    assert.ok(v.ready);
    assert.match(v.tooltip, /key: from your editor/);
  });
  const cases: { name: string; checks: DoctorCheck[]; text: string; tooltip: RegExp }[] = [
    {
      name: "no provider",
      checks: withCheck({ name: "provider", status: "problem", detail: "none is configured: no provider.base_url, and no OpenAI key", fix: "run quire models" }),
      text: "$(error) quire: no provider",
      tooltip: /provider: none is configured.* — run quire models/,
    },
    {
      name: "no model chosen (a warning: the advisor is off)",
      checks: withCheck({ name: "provider", status: "warning", detail: "none is configured (no provider.base_url, and no OpenAI key): the advisor is off", fix: "run quire models" }).map((c) =>
        c.name === "key" ? { ...c, status: "warning", detail: "none: OPENAI_API_KEY is not set" } : c,
      ),
      text: "$(circle-slash) quire: no provider",
      tooltip: /provider: none is configured/,
    },
    {
      name: "no key for OpenAI",
      checks: withCheck({ name: "key", status: "problem", detail: "none: OPENAI_API_KEY is not set and no key is stored for https://api.openai.com/v1", fix: "store your key" }),
      text: "$(key) quire: no key",
      tooltip: /key: none/,
    },
    {
      name: "a server that wants a key quire lacks",
      checks: withCheck({ name: "model", status: "problem", detail: "http://x/v1 wants a key (HTTP 401) and quire has none to send", fix: "store your key" }).map((c) =>
        c.name === "key" ? { ...c, detail: "none; none is sent (a local server such as Ollama needs none)" } : c,
      ),
      text: "$(key) quire: no key",
      tooltip: /HTTP 401/,
    },
    {
      name: "a refused key",
      checks: withCheck({ name: "model", status: "problem", detail: "http://x/v1 refused the key from your editor (HTTP 401)", fix: "the key is wrong" }),
      text: "$(key) quire: key refused",
      tooltip: /refused/,
    },
    {
      name: "nothing answers",
      checks: withCheck({ name: "model", status: "problem", detail: "nothing answers at http://127.0.0.1:11434/v1: the server is not running", fix: "start it" }),
      text: "$(error) quire: model not reachable",
      tooltip: /nothing answers/,
    },
    {
      name: "a withheld key",
      checks: withCheck({ name: "key", status: "warning", detail: "the key from your keychain is not sent", fix: "trust the book" }),
      text: "$(warning) quire: key not sent",
      tooltip: /not sent/,
    },
    {
      name: "a model the server does not list",
      checks: withCheck({ name: "model", status: "warning", detail: "answers at x; but it lists no model y", fix: "set provider.model" }),
      text: "$(warning) quire: advisor needs a look",
      tooltip: /lists no model/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const v = advisorView(c.checks);
      assert.strictEqual(v.text, c.text);
      assert.ok(!v.ready);
      assert.match(v.tooltip, c.tooltip);
      assert.match(v.tooltip, /Click for the health report/);
    });
  }
  it("a problem elsewhere (the book) does not make the advisor unready", () => {
    assert.ok(advisorView(withCheck({ name: "series", status: "problem", detail: "gone", fix: "fix it" })).ready);
  });
});

describe("healthMarkdown", () => {
  it("puts problems first, each with what to do, and the VS Code command for a key", () => {
    const md = healthMarkdown(withCheck({ name: "key", status: "problem", detail: "none: OPENAI_API_KEY is not set", fix: "store your key with quire key set openai" }));
    assert.match(md, /^# quire health report\n\nOne thing needs your attention/);
    const problems = md.indexOf("## Problems");
    const working = md.indexOf("## Working");
    assert.ok(problems > 0 && working > problems, md);
    assert.match(md, /- \*\*key\*\*: none: OPENAI_API_KEY is not set\n {2}- What to do: store your key with quire key set openai\n {2}- In VS Code: run \*\*quire: Set API Key\*\*\./);
    assert.match(md.slice(working), /\*\*book\*\*: \/w\/the-thirteenth-bell/);
  });
  it("says all is well when it is", () => {
    const md = healthMarkdown(base());
    assert.match(md, /Everything quire needs works\./);
    assert.doesNotMatch(md, /## Problems|## Warnings|In VS Code/);
  });
  it("orders worst first, keeping the server's order within a status", () => {
    const checks: DoctorCheck[] = [ok("quire", "a"), { name: "book", status: "warning", detail: "b" }, { name: "key", status: "problem", detail: "c" }, { name: "trust", status: "warning", detail: "d" }];
    assert.deepStrictEqual(worstFirst(checks).map((c) => c.name), ["key", "book", "trust", "quire"]);
  });
});
