import * as assert from "assert";
import { withoutIds } from "../writerText";

describe("withoutIds", () => {
  const cases: [string, string][] = [
    ["proposal p-bd59066e364d is stale: codex/a.md changed since it was proposed; ask again", "This proposal is stale: codex/a.md changed since it was proposed; ask again"],
    ["proposal p-bd59066e364d was already applied", "This proposal was already applied"],
    ['no proposal "p-bd59066e364d"; it may have been dropped or made in another session', "This proposal is no longer known; it may have been dropped or made in another session"],
    ["the editor refused p-bd59066e364d (a document changed)", "The editor refused (a document changed)"],
    ["Applied codex/a.md: review and save.", "Applied codex/a.md: review and save."],
    // Not an id: a word that happens to start with p-.
    ["p-values stay", "P-values stay"],
  ];
  for (const [in_, want] of cases) {
    it(JSON.stringify(in_), () => assert.strictEqual(withoutIds(in_), want));
  }
});
