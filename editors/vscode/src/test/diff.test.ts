import * as assert from "assert";
import { applyFileDiff, DiffMismatch, parseDiff } from "../diff";

const updateDiff = [
  "--- a/codex/characters/teodora-quill.md",
  "+++ b/codex/characters/teodora-quill.md",
  "@@ -3,4 +3,4 @@",
  " ",
  " ## Appearance",
  "-Tall, grey-eyed.",
  "+Tall, grey-eyed, with a scar on her left hand.",
  " ",
  "",
].join("\n");

const teodora = ["---", "name: Teodora Quill", "", "## Appearance", "Tall, grey-eyed.", "", "## History", "Born in Vell.", ""].join("\n");

describe("parseDiff", () => {
  it("kinds and line numbers", () => {
    const { lines, files } = parseDiff(updateDiff);
    assert.deepStrictEqual(
      lines.map((l) => [l.kind, l.text, l.oldLine, l.newLine]),
      [
        ["file", "--- a/codex/characters/teodora-quill.md", undefined, undefined],
        ["file", "+++ b/codex/characters/teodora-quill.md", undefined, undefined],
        ["hunk", "@@ -3,4 +3,4 @@", undefined, undefined],
        ["ctx", "", 3, 3],
        ["ctx", "## Appearance", 4, 4],
        ["del", "Tall, grey-eyed.", 5, undefined],
        ["add", "Tall, grey-eyed, with a scar on her left hand.", undefined, 5],
        ["ctx", "", 6, 6],
      ],
    );
    assert.strictEqual(files.length, 1);
    assert.strictEqual(files[0].oldPath, "codex/characters/teodora-quill.md");
    assert.deepStrictEqual(
      { ...files[0].hunks[0], lines: files[0].hunks[0].lines.length },
      { oldStart: 3, oldCount: 4, newStart: 3, newCount: 4, lines: 5 },
    );
  });

  it("a new file comes from /dev/null, counts default to 1, notes are kept", () => {
    const { lines, files } = parseDiff("--- /dev/null\n+++ b/codex/places/vell.md\n@@ -0,0 +1 @@\n+# Vell\n\\ No newline at end of file\n");
    assert.strictEqual(files[0].oldPath, null);
    assert.strictEqual(files[0].newPath, "codex/places/vell.md");
    assert.deepStrictEqual(files[0].hunks[0], {
      oldStart: 0,
      oldCount: 0,
      newStart: 1,
      newCount: 1,
      lines: [{ kind: "add", text: "# Vell", newLine: 1 }],
    });
    assert.strictEqual(lines[lines.length - 1].kind, "note");
  });

  it("several files, CRLF input, text before the first file is a note", () => {
    const d = "diff quire\r\n--- a/x.md\r\n+++ b/x.md\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n--- /dev/null\r\n+++ b/y.md\r\n@@ -0,0 +1,2 @@\r\n+1\r\n+2\r\n";
    const { lines, files } = parseDiff(d);
    assert.deepStrictEqual(files.map((f) => [f.oldPath, f.newPath, f.hunks.length]), [["x.md", "x.md", 1], [null, "y.md", 1]]);
    assert.strictEqual(lines[0].kind, "note");
    assert.ok(lines.every((l) => !l.text.endsWith("\r")));
  });

  it("a +++ or --- line inside a hunk is an added or removed line", () => {
    const { lines } = parseDiff("--- a/x.md\n+++ b/x.md\n@@ -1,2 +1,2 @@\n---- old rule\n++++ new rule\n");
    assert.deepStrictEqual(lines.slice(3).map((l) => [l.kind, l.text]), [["del", "--- old rule"], ["add", "+++ new rule"]]);
  });
});

describe("applyFileDiff", () => {
  it("applies an update", () => {
    const { files } = parseDiff(updateDiff);
    assert.strictEqual(applyFileDiff(teodora, files[0]), teodora.replace("Tall, grey-eyed.", "Tall, grey-eyed, with a scar on her left hand."));
  });

  it("keeps CRLF line endings", () => {
    const { files } = parseDiff(updateDiff);
    const crlf = teodora.replace(/\n/g, "\r\n");
    assert.strictEqual(applyFileDiff(crlf, files[0]), crlf.replace("Tall, grey-eyed.", "Tall, grey-eyed, with a scar on her left hand."));
  });

  it("creates a file from nothing", () => {
    const { files } = parseDiff("--- /dev/null\n+++ b/y.md\n@@ -0,0 +1,2 @@\n+# Y\n+text\n");
    assert.strictEqual(applyFileDiff("", files[0]), "# Y\ntext\n");
  });

  it("applies two hunks and an insertion", () => {
    const old = "a\nb\nc\nd\ne\nf\n";
    const d = "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n+a2\n b\n@@ -5,2 +6,1 @@\n-e\n f\n";
    assert.strictEqual(applyFileDiff(old, parseDiff(d).files[0]), "a\na2\nb\nc\nd\nf\n");
  });

  it("refuses when the file changed since", () => {
    const { files } = parseDiff(updateDiff);
    assert.throws(() => applyFileDiff(teodora.replace("Tall", "Short"), files[0]), DiffMismatch);
  });

  it("refuses a hunk past the end", () => {
    const { files } = parseDiff("--- a/f\n+++ b/f\n@@ -10 +10 @@\n-x\n+y\n");
    assert.throws(() => applyFileDiff("a\n", files[0]), DiffMismatch);
  });
});
