// The status bar item's text for the books the server reports.
import { BookStatus } from "./protocol";
import { countOf } from "./count";

export interface StatusView {
  text: string;
  tooltip: string;
  command: "quire.openChat" | "quire.reindex";
}

function base(root: string): string {
  const parts = root.replace(/[\\/]+$/, "").split(/[\\/]/);
  return parts[parts.length - 1] || root;
}

const plural = countOf;

/** mergeBook records one quire/status notification into the known books, keyed by root. */
export function mergeBook(books: BookStatus[], b: BookStatus): BookStatus[] {
  const i = books.findIndex((x) => x.root === b.root);
  if (i === -1) {
    return [...books, b];
  }
  const out = books.slice();
  out[i] = b;
  return out;
}

/**
 * providerChanged says whether b, a book's new status, names another
 * provider than the status known for its book: the server follows
 * quire.yaml and the writer's config.yaml even when they change outside
 * VS Code, and the advisor's item must follow it. A book seen for the
 * first time, or still loading (its settings not read yet), changes
 * nothing: the item is drawn when the server starts.
 */
export function providerChanged(books: BookStatus[], b: BookStatus): boolean {
  const old = books.find((x) => x.root === b.root);
  if (old === undefined || old.state === "loading" || b.state === "loading") {
    return false;
  }
  return (old.provider ?? "") !== (b.provider ?? "");
}

/**
 * statusView summarises every open book: the busiest state wins (an
 * error, then indexing), counts are summed, and the tooltip lists each
 * book with its problems.
 */
export function statusView(books: BookStatus[]): StatusView {
  if (books.length === 0) {
    return {
      text: "$(book) quire",
      tooltip: "quire: no book project open (a folder with quire.yaml, codex/ or manuscript/)",
      command: "quire.openChat",
    };
  }
  const lines = books.map((b) => {
    let l = `${base(b.root)} — ${b.state}: ${plural(b.entries, "entry", "entries")}, ${plural(b.chapters, "chapter", "chapters")}, ${plural(b.problems, "problem", "problems")}`;
    if (b.message) {
      l += ` (${b.message})`;
    }
    return l;
  });
  const tooltip = lines.join("\n");
  const failed = books.filter((b) => b.state === "error");
  if (failed.length > 0) {
    return { text: "$(error) quire: error", tooltip: tooltip + "\nClick to reindex.", command: "quire.reindex" };
  }
  if (books.some((b) => b.state === "loading" || b.state === "indexing")) {
    return { text: "$(sync~spin) quire: indexing", tooltip, command: "quire.openChat" };
  }
  const entries = books.reduce((n, b) => n + b.entries, 0);
  const chapters = books.reduce((n, b) => n + b.chapters, 0);
  const problems = books.reduce((n, b) => n + b.problems, 0);
  let text = `$(book) quire: ${plural(entries, "entry", "entries")} · ${chapters} ch`;
  if (problems > 0) {
    text += ` · $(warning) ${problems}`;
  }
  return { text, tooltip: tooltip + "\nClick to open the advisor chat.", command: "quire.openChat" };
}
