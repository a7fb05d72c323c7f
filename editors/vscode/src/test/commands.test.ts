import * as assert from "assert";
import { askParamsFrom, bookRootFor, contextLabel, evidenceLabel, evidenceWhy, idFrom, serverCommandsToRegister, userTurn } from "../commands";

const r = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

describe("serverCommandsToRegister", () => {
  it("leaves the commands the extension owns to the extension", () => {
    assert.deepStrictEqual(
      serverCommandsToRegister(["quire.ask", "quire.lookup", "quire.peekPrompt", "quire.applyProposal", "quire.discardProposal", "quire.reindex", "quire.explicate"]),
      ["quire.lookup", "quire.explicate"],
    );
    assert.deepStrictEqual(serverCommandsToRegister(undefined), []);
  });
});

describe("askParamsFrom", () => {
  it("reads a code action's argument", () => {
    const arg = { persona: "writing-coach", uri: "file:///b/m/03.md", range: r(1, 0, 2, 5), message: "Look at this", selectionHash: "h1" };
    assert.deepStrictEqual(askParamsFrom([arg]), arg);
  });
  const dropped: [string, unknown[], object | undefined][] = [
    ["no args (palette)", [], undefined],
    ["a string", ["x"], undefined],
    ["null", [null], undefined],
    ["bad range and empty strings", [{ persona: "", range: { start: { line: 1 } }, uri: "" }], {}],
  ];
  for (const [name, args, want] of dropped) {
    it(name, () => assert.deepStrictEqual(askParamsFrom(args), want));
  }
});

describe("userTurn", () => {
  const prompt = "You are checking continuity.\n".repeat(20);
  it("an advisor action shows its title, not its prompt", () => {
    const p = askParamsFrom([{ persona: "continuity-editor", message: prompt, action: "Continuity check", uri: "file:///b/m/03.md" }]);
    assert.ok(p?.message);
    assert.strictEqual(userTurn({ ...p, message: p.message }), "Continuity check");
    // The title travels with the ask, for the server's answer document.
    assert.strictEqual(p.action, "Continuity check");
  });
  it("a question typed in the chat shows as typed", () => {
    assert.strictEqual(userTurn({ message: "Is Mara left-handed?" }), "Is Mara left-handed?");
    assert.strictEqual(userTurn(askParamsFrom([{ message: "Why?", action: "  " }]) as { message: string }), "Why?");
  });
});

describe("idFrom", () => {
  const cases: [unknown[], string | undefined][] = [[[{ id: "p-1" }], "p-1"], [["p-2"], "p-2"], [[], undefined], [[{ id: "" }], undefined], [[{ id: 3 }], undefined]];
  for (const [args, want] of cases) {
    it(JSON.stringify(args), () => assert.strictEqual(idFrom(args), want));
  }
});

describe("labels", () => {
  const cases: [string | undefined, ReturnType<typeof r> | undefined, string | undefined][] = [
    ["file:///book/manuscript/chapter%2003.md", r(11, 2, 17, 4), "chapter 03.md:12–18"],
    ["file:///book/m/03.md", r(11, 2, 12, 0), "03.md:12"],
    ["file:///book/m/03.md", r(4, 0, 4, 9), "03.md:5"],
    ["file:///book/m/03.md", undefined, "03.md"],
    [undefined, r(0, 0, 0, 1), undefined],
  ];
  for (const [uri, range, want] of cases) {
    it(`${uri} ${JSON.stringify(range)}`, () => assert.strictEqual(contextLabel(uri, range), want));
  }
  it("evidence uses the project path", () => {
    assert.strictEqual(evidenceLabel({ uri: "file:///b/codex/t.md", path: "codex/t.md", tool: "x", range: r(2, 0, 9, 3) }), "codex/t.md:3–10");
    assert.strictEqual(
      evidenceLabel({ uri: "file:///b/codex/t.md", path: "codex/t.md", tool: "x", range: r(2, 0, 9, 3), asOf: "manuscript/02.md", asOfChapter: '2 "Second"', asOfImplied: true }),
      'codex/t.md:3–10 (as of chapter 2 "Second", the one you were in)',
    );
    assert.strictEqual(
      evidenceLabel({ uri: "file:///b/codex/t.md", path: "codex/t.md", tool: "x", range: r(2, 0, 9, 3), asOf: "manuscript/05.md", asOfChapter: '5 "Salt-Debt"' }),
      'codex/t.md:3–10 (as of chapter 5 "Salt-Debt")',
    );
  });
  it("evidence says why it was read", () => {
    const e = { uri: "file:///b/m/12.md", path: "m/12.md", tool: "get_manuscript_context", range: r(0, 0, 0, 0) };
    assert.strictEqual(evidenceWhy(e), "get_manuscript_context");
    assert.strictEqual(
      evidenceWhy({ ...e, why: 'get_manuscript_context "12", after get_outline (the whole book) listed it', cited: true }),
      'get_manuscript_context "12", after get_outline (the whole book) listed it; named in the answer',
    );
  });
});

describe("bookRootFor", () => {
  const roots = ["/w", "/w/series/book-2", "/w/series/book-22"];
  const cases: [string, string | undefined][] = [
    ["/w/series/book-2/manuscript/01.md", "/w/series/book-2"],
    ["/w/series/book-22/codex/a.md", "/w/series/book-22"],
    ["/w/notes.md", "/w"],
    ["/elsewhere/a.md", undefined],
    ["/w/series/book-2", "/w/series/book-2"],
  ];
  for (const [file, want] of cases) {
    it(file, () => assert.strictEqual(bookRootFor(file, roots, "linux"), want));
  }

  it("on Linux, case matters: /W is not /w", () => {
    assert.strictEqual(bookRootFor("/W/notes.md", roots, "linux"), undefined);
  });

  // What VS Code on Windows gives (uri.fsPath lowercases the drive)
  // against the roots the server reports (as Go spells them: C:\...).
  describe("on Windows", () => {
    const win = ["C:\\Users\\Zoë\\My Novel", "C:\\Users\\Zoë\\Series\\book-2", "C:\\Users\\Zoë\\Series\\book-22", "D:\\Books\\Tide\\"];
    const winCases: [string, string | undefined][] = [
      ["c:\\Users\\Zoë\\My Novel\\manuscript\\01.md", "C:\\Users\\Zoë\\My Novel"],
      ["c:\\Users\\Zoë\\Series\\book-2\\codex\\a.md", "C:\\Users\\Zoë\\Series\\book-2"],
      ["c:\\Users\\Zoë\\Series\\book-22\\codex\\a.md", "C:\\Users\\Zoë\\Series\\book-22"],
      ["c:\\users\\ZOË\\series\\BOOK-2\\Manuscript\\01.md", "C:\\Users\\Zoë\\Series\\book-2"],
      ["C:/Users/Zoë/My Novel/codex/x.md", "C:\\Users\\Zoë\\My Novel"],
      ["d:\\books\\tide", "D:\\Books\\Tide\\"],
      ["c:\\Users\\Zoë\\My Novel 2\\a.md", undefined],
      ["e:\\Users\\Zoë\\My Novel\\a.md", undefined],
    ];
    for (const [file, want] of winCases) {
      it(file, () => assert.strictEqual(bookRootFor(file, win, "win32"), want));
    }
  });
});
