import * as assert from "assert";
import { countOf } from "../count";
import { bar, progressMarkdown, thousands, wordsItem } from "../progress";
import { Stats } from "../protocol";

const stats = (): Stats => ({
  words: 4233,
  target: 90000,
  daily: 500,
  streak: 2,
  chapters: [
    { path: "manuscript/01-a.md", title: "Thirteen Strokes", position: 1, label: "1", words: 880, target: 800, lens: "880 words · target 800 ✓" },
    { path: "manuscript/07-b.md", title: "The Tally | Ledger", position: 2, label: "7", words: 853, lens: "853 words" },
  ],
  today: { date: "2026-11-27", first: 4000, last: 4233, net: 233, gross: 250 },
  days: [
    { date: "2026-11-26", first: 3500, last: 4000, net: 500, gross: 500 },
    { date: "2026-11-27", first: 4000, last: 4233, net: 233, gross: 250 },
  ],
  status: "Ch. 1 · 880 words · target 800 ✓ · today +250 of 500 (net +233) · book 4,233 of 90,000",
  message: "Thirteen Strokes: 880 words · target 800 ✓.\nBook 4,233 of 90,000, in 2 chapters.",
});

describe("progress", () => {
  it("writes thousands as the server does", () => {
    assert.strictEqual(thousands(0), "0");
    assert.strictEqual(thousands(999), "999");
    assert.strictEqual(thousands(90000), "90,000");
    assert.strictEqual(thousands(1234567), "1,234,567");
    assert.strictEqual(thousands(-1200), "-1,200");
  });
  it("shows the server's line in the status bar", () => {
    const v = wordsItem(stats());
    assert.strictEqual(v.text, "$(edit) Ch. 1 · 880 words · target 800 ✓ · today +250 of 500 (net +233) · book 4,233 of 90,000");
    assert.match(v.tooltip, /^Thirteen Strokes: 880 words/);
  });
  it("fills a bar to the target and no further", () => {
    assert.strictEqual(bar(0, 100), "░".repeat(10));
    assert.strictEqual(bar(50, 100), "█".repeat(5) + "░".repeat(5));
    assert.strictEqual(bar(250, 100), "█".repeat(10));
    assert.strictEqual(bar(5, 0), "");
  });
  it("lays out chapters against their targets and the words of each day", () => {
    const md = progressMarkdown(stats());
    assert.match(md, /^# Progress\n\nThirteen Strokes: 880 words · target 800 ✓\.\n\nBook 4,233 of 90,000, in 2 chapters\./);
    assert.ok(md.includes("| 1 | Thirteen Strokes | 880 | 800 ✓ | ██████████ |"), md);
    // Numbered as quire numbers it everywhere: the file's 07, not its place.
    assert.ok(md.includes("| 7 | The Tally \\| Ledger | 853 |  |  |"), md);
    assert.ok(md.includes("| | **book** | **4,233** | 90,000 | ░░░░░░░░░░ |"), md);
    assert.ok(md.includes("| 2026-11-26 | +500 | +500 | 4,000 | ██████████ |"), md);
    assert.ok(md.includes("| 2026-11-27 | +250 | +233 | 4,233 | █████░░░░░ |"), md);
  });
  it("says when no day was seen", () => {
    assert.ok(progressMarkdown({ ...stats(), days: [] }).includes("No day seen yet."));
  });
});

describe("countOf", () => {
  it("writes a count with the noun that agrees", () => {
    assert.strictEqual(countOf(1, "chapter"), "1 chapter");
    assert.strictEqual(countOf(61, "chapter"), "61 chapters");
    assert.strictEqual(countOf(1204, "entry", "entries"), "1,204 entries");
  });
});
