// What quire: Build Manuscript asks and says (build.ts is its vscode
// wiring): the formats and presets the writer picks from, the argument of
// the server's quire.build, and the message naming the file. Pure.
import { BuildParams, BuildResult } from "./protocol";
import { countOf, thousands } from "./count";

export interface FormatPick {
  label: string;
  detail: string;
  format: "docx" | "epub" | "md" | "html";
  /** presets the format offers; one means no second question. */
  presets: PresetPick[];
}

export interface PresetPick {
  label: string;
  detail: string;
  preset: "manuscript" | "reader";
}

const manuscript: PresetPick = {
  label: "Standard manuscript",
  detail: "12 pt Times New Roman, double spaced, contact block and word count on page one, running header (your name and contact from build: author and contact in quire.yaml)",
  preset: "manuscript",
};
const reader: PresetPick = { label: "Reader's book", detail: "Serif, single spaced, no header block", preset: "reader" };

/** formatPicks are the formats in the order the quick pick shows them. */
export const formatPicks: readonly FormatPick[] = [
  { label: "DOCX", detail: "For an agent or an editor: Word, LibreOffice, Google Docs", format: "docx", presets: [manuscript, reader] },
  { label: "EPUB", detail: "For an e-reader", format: "epub", presets: [reader, manuscript] },
  { label: "Markdown", detail: "One file for a beta reader", format: "md", presets: [reader] },
  { label: "HTML", detail: "One page for a beta reader's browser", format: "html", presets: [reader] },
];

/** buildParams is quire.build's argument: quiet, since the extension tells the writer itself. */
export function buildParams(uri: string | undefined, format: FormatPick["format"], preset: PresetPick["preset"]): BuildParams {
  const p: BuildParams = { format, preset, quiet: true };
  if (uri) {
    p.uri = uri;
  }
  return p;
}

/** builtMessage is what the writer reads once the file is written: what
 * was built, any warning (a placeholder for a setting not set), and the
 * file's path last. */
export function builtMessage(r: BuildResult): string {
  const words = thousands(Math.max(100, Math.round(r.words / 100) * 100));
  const chapters = countOf(r.chapters, "chapter");
  const warnings = r.warnings ?? [];
  const said = warnings.map((w) => ` Warning: ${w.replace(/\.$/, "")}.`).join("");
  return `quire built ${r.format.toUpperCase()} (${r.preset}, ${chapters}, about ${words} words).${said} ${warnings.length ? "The file" : "File"}: ${r.path}`;
}

/** The buttons of the message: open the file with the system's viewer,
 * or show it in its folder. */
export const openAction = "Open file";
export const revealAction = "Show in folder";

/** cannotOpenMessage is what the writer reads when the system could not
 * open the file, or show its folder: where it is, to open by hand. */
export function cannotOpenMessage(path: string, what: "open" | "reveal"): string {
  return `quire could not ${what === "open" ? "open the file" : "show the file in its folder"} here. Open it yourself: ${path}`;
}

