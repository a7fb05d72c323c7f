// The writer's word counts as the VS Code extension shows them: the
// status bar item's text and the progress view it opens, made from the
// server's quire/stats answer (the numbers `quire stats` prints). Pure:
// no VS Code here.
import { Stats } from "./protocol";

import { thousands } from "./count";

export { thousands };

/** wordsItem is the status bar item's text and tooltip: the server's own line. */
export function wordsItem(st: Stats): { text: string; tooltip: string } {
  return { text: `$(edit) ${st.status}`, tooltip: `${st.message}\n\nClick for the book's progress.` };
}

function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** bar is a row of blocks for a share of a target, ten wide, full at the target. */
export function bar(n: number, of: number): string {
  if (of <= 0) {
    return "";
  }
  const full = Math.min(10, Math.floor((n / of) * 10));
  return "█".repeat(full) + "░".repeat(10 - full);
}

/**
 * progressMarkdown is the progress view: the summary, each chapter
 * against its target, and the words written each day of the last 30.
 */
export function progressMarkdown(st: Stats): string {
  const out: string[] = ["# Progress", ""];
  for (const line of st.message.split("\n")) {
    out.push(line, "");
  }
  out.push("## Chapters", "", "| # | chapter | words | target | |", "|---:|---|---:|---:|---|");
  for (const c of st.chapters) {
    const target = c.target ? `${thousands(c.target)}${c.words >= c.target ? " ✓" : ""}` : "";
    out.push(`| ${c.label} | ${cell(c.title)} | ${thousands(c.words)} | ${target} | ${c.target ? bar(c.words, c.target) : ""} |`);
  }
  out.push(`| | **book** | **${thousands(st.words)}** | ${st.target ? thousands(st.target) : ""} | ${st.target ? bar(st.words, st.target) : ""} |`, "");
  out.push("## Words per day", "");
  if (st.days.length === 0) {
    out.push("No day seen yet.");
  } else {
    const most = Math.max(st.daily ?? 0, ...st.days.map((d) => d.gross));
    out.push("| day | words added | net | book at day's end | |", "|---|---:|---:|---:|---|");
    for (const d of st.days) {
      out.push(`| ${d.date} | +${thousands(d.gross)} | ${d.net >= 0 ? "+" : ""}${thousands(d.net)} | ${thousands(d.last)} | ${bar(d.gross, most)} |`);
    }
  }
  out.push("");
  return out.join("\n");
}
