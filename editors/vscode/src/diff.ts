// Unified diffs as quire/proposals returns them: parsed into lines with
// kinds for display, and applied to a file's text for a side-by-side view.

export type LineKind = "file" | "hunk" | "add" | "del" | "ctx" | "note";

export interface DiffLine {
  kind: LineKind;
  text: string;
  // 1-based line numbers in the old and new file, where they apply.
  oldLine?: number;
  newLine?: number;
}

export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: DiffLine[];
}

export interface FileDiff {
  oldPath: string | null; // null for /dev/null: a new file
  newPath: string | null; // null for a deleted file
  hunks: Hunk[];
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function stripPrefix(p: string): string | null {
  // "--- a/path\t2024-…" carries an optional timestamp after a tab.
  const name = p.split("\t")[0].trim();
  if (name === "/dev/null") {
    return null;
  }
  return name.replace(/^[ab]\//, "");
}

/**
 * parseDiff reads a unified diff into display lines, numbering each line
 * in the old and new file. Anything it does not recognise is kept as a
 * "note" line rather than dropped, so the writer sees the whole diff.
 */
export function parseDiff(text: string): { lines: DiffLine[]; files: FileDiff[] } {
  const lines: DiffLine[] = [];
  const files: FileDiff[] = [];
  let file: FileDiff | undefined;
  let hunk: Hunk | undefined;
  let oldNo = 0;
  let newNo = 0;
  const src = text.replace(/\r\n/g, "\n").split("\n");
  if (src.length > 0 && src[src.length - 1] === "") {
    src.pop();
  }
  for (let i = 0; i < src.length; i++) {
    const l = src[i];
    if (l.startsWith("--- ") && i + 1 < src.length && src[i + 1].startsWith("+++ ")) {
      file = { oldPath: stripPrefix(l.slice(4)), newPath: stripPrefix(src[i + 1].slice(4)), hunks: [] };
      files.push(file);
      hunk = undefined;
      lines.push({ kind: "file", text: l }, { kind: "file", text: src[i + 1] });
      i++;
      continue;
    }
    const m = hunkHeader.exec(l);
    if (m !== null && file !== undefined) {
      hunk = {
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newCount: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      };
      file.hunks.push(hunk);
      oldNo = hunk.oldStart;
      newNo = hunk.newStart;
      lines.push({ kind: "hunk", text: l });
      continue;
    }
    let dl: DiffLine;
    if (hunk === undefined) {
      dl = { kind: "note", text: l };
    } else if (l.startsWith("+")) {
      dl = { kind: "add", text: l.slice(1), newLine: newNo++ };
    } else if (l.startsWith("-")) {
      dl = { kind: "del", text: l.slice(1), oldLine: oldNo++ };
    } else if (l.startsWith(" ") || l === "") {
      dl = { kind: "ctx", text: l.slice(1), oldLine: oldNo++, newLine: newNo++ };
    } else {
      // "\ No newline at end of file" and the like.
      dl = { kind: "note", text: l };
    }
    if (hunk !== undefined && dl.kind !== "note") {
      hunk.lines.push(dl);
    }
    lines.push(dl);
  }
  return { lines, files };
}

export class DiffMismatch extends Error {}

/**
 * applyFileDiff applies one file's hunks to its old text and returns the
 * new text. Context and removed lines must match exactly: a mismatch
 * means the file changed since the proposal was made, which the server
 * would refuse too, so it is an error here rather than a guess.
 */
export function applyFileDiff(oldText: string, file: FileDiff): string {
  const eol = oldText.includes("\r\n") ? "\r\n" : "\n";
  const old = oldText === "" ? [] : oldText.replace(/\r\n/g, "\n").split("\n");
  // A trailing newline leaves an empty last element that is not a line.
  const trailingNewline = old.length > 0 && old[old.length - 1] === "";
  if (trailingNewline) {
    old.pop();
  }
  const out: string[] = [];
  let pos = 0; // 0-based index into old
  for (const h of file.hunks) {
    // A hunk adding to an empty file says -0,0; its lines go after line 0.
    const start = h.oldCount === 0 ? h.oldStart : h.oldStart - 1;
    if (start < pos || start > old.length) {
      throw new DiffMismatch(`hunk at line ${h.oldStart} is out of order or past the end of the file`);
    }
    out.push(...old.slice(pos, start));
    pos = start;
    for (const l of h.lines) {
      if (l.kind === "add") {
        out.push(l.text);
        continue;
      }
      if (old[pos] !== l.text) {
        throw new DiffMismatch(`line ${pos + 1} is "${old[pos] ?? "(end of file)"}", the proposal expected "${l.text}"`);
      }
      if (l.kind === "ctx") {
        out.push(l.text);
      }
      pos++;
    }
  }
  out.push(...old.slice(pos));
  if (out.length === 0) {
    return "";
  }
  return out.join(eol) + (trailingNewline || old.length === 0 ? eol : "");
}
