import * as assert from "assert";
import { buildParams, builtMessage, formatPicks } from "../buildPicks";

describe("build manuscript", () => {
  it("offers every format the server builds, the manuscript first for a DOCX, the reader's book alone for Markdown and HTML", () => {
    assert.deepStrictEqual(
      formatPicks.map((f) => [f.format, f.presets.map((p) => p.preset)]),
      [
        ["docx", ["manuscript", "reader"]],
        ["epub", ["reader", "manuscript"]],
        ["md", ["reader"]],
        ["html", ["reader"]],
      ],
    );
  });

  it("asks quietly, about the writer's document when there is one", () => {
    assert.deepStrictEqual(buildParams("file:///b/manuscript/01.md", "epub", "reader"), { uri: "file:///b/manuscript/01.md", format: "epub", preset: "reader", quiet: true });
    assert.deepStrictEqual(buildParams(undefined, "docx", "manuscript"), { format: "docx", preset: "manuscript", quiet: true });
  });

  it("names the file written, with the word count rounded as on the manuscript", () => {
    assert.strictEqual(
      builtMessage({ path: "/home/w/.cache/quire/ab/build/the-bell.docx", uri: "file:///x", format: "docx", preset: "manuscript", chapters: 5, words: 4249, bytes: 1 }),
      "quire built DOCX (manuscript, 5 chapters, about 4,200 words): /home/w/.cache/quire/ab/build/the-bell.docx",
    );
    assert.match(builtMessage({ path: "/p", uri: "", format: "md", preset: "reader", chapters: 1, words: 12, bytes: 1 }), /1 chapter, about 100 words/);
  });
});
