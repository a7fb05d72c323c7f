import * as assert from "assert";
import { buildParams, builtMessage, cannotOpenMessage, formatPicks } from "../buildPicks";

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

  it("names the file written, last, with the word count rounded as on the manuscript", () => {
    assert.strictEqual(
      builtMessage({ path: "/home/w/Documents/quire/the-bell/the-bell.docx", uri: "file:///x", format: "docx", preset: "manuscript", chapters: 61, words: 121804, bytes: 1 }),
      "quire built DOCX (manuscript, 61 chapters, about 121,800 words). File: /home/w/Documents/quire/the-bell/the-bell.docx",
    );
    assert.match(builtMessage({ path: "/p", uri: "", format: "md", preset: "reader", chapters: 1, words: 12, bytes: 1 }), /1 chapter, about 100 words/);
  });

  it("says each warning before the file, which stays last", () => {
    assert.strictEqual(
      builtMessage({
        path: "/d/untitled.docx", uri: "", format: "docx", preset: "manuscript", chapters: 1, words: 5, bytes: 1,
        warnings: ['quire.yaml: line 7: build: author is not set, so the manuscript shows "Your Name" in its place; set build: author'],
      }),
      'quire built DOCX (manuscript, 1 chapter, about 100 words). Warning: quire.yaml: line 7: build: author is not set, so the manuscript shows "Your Name" in its place; set build: author. The file: /d/untitled.docx',
    );
  });

  it("names the file to open by hand when the system cannot open it", () => {
    assert.strictEqual(cannotOpenMessage("/d/b.epub", "open"), "quire could not open the file here. Open it yourself: /d/b.epub");
    assert.strictEqual(cannotOpenMessage("/d/b.epub", "reveal"), "quire could not show the file in its folder here. Open it yourself: /d/b.epub");
  });
});
