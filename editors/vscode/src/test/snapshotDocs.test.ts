import * as assert from "assert";
import { SnapshotVersion } from "../protocol";
import { diffTitle, snapshotDocPath, snapshotIdOf, snapshotPicks } from "../snapshotDocs";

const v = (id: string, over: Partial<SnapshotVersion> = {}): SnapshotVersion => ({
  id,
  time: "2026-11-29T10:05:00Z",
  chapter: "manuscript/01-harbor.md",
  words: 800,
  added: 0,
  removed: 14,
  label: "Sun 29 Nov 10:05 · +0 −14 words",
  ...over,
});

describe("snapshot documents", () => {
  it("name the version and read as the chapter", () => {
    const p = snapshotDocPath("6b39e38b", "manuscript/01-harbor.md");
    assert.strictEqual(p, "/6b39e38b/manuscript/01-harbor.md");
    assert.strictEqual(snapshotIdOf(p), "6b39e38b");
    assert.strictEqual(snapshotIdOf("/not-an-id/x.md"), undefined);
  });
  it("list what can be shown, then the deleted chapters", () => {
    const picks = snapshotPicks([v("aaaaaaaa"), v("bbbbbbbb", { deleted: true }), v("cccccccc", { damaged: true })], [v("dddddddd", { chapter: "manuscript/02-light.md" })]);
    assert.deepStrictEqual(
      picks.map((p) => [p.label, p.description]),
      [
        ["Sun 29 Nov 10:05 · +0 −14 words", "aaaaaaaa"],
        ["$(trash) manuscript/02-light.md", "dddddddd"],
      ],
    );
    assert.match(picks[1].detail ?? "", /^deleted; its last version: /);
  });
  it("title the diff by file and time", () => {
    assert.strictEqual(diffTitle(v("aaaaaaaa")), "01-harbor.md (snapshot Sun 29 Nov 10:05) ↔ now");
  });
});
