// The pure side of the snapshots' views: the read-only document a kept
// version opens as, and the quick pick's rows. No vscode here, so the
// unit tests run without it.
import { SnapshotVersion } from "./protocol";

export const snapshotScheme = "quire-snapshot";

/** snapshotDocPath names a version's document: its id, then the chapter's path, so the tab reads as the chapter. */
export function snapshotDocPath(id: string, chapter: string): string {
  return `/${id}/${chapter.replace(/^\/+/, "")}`;
}

/** snapshotIdOf is the id a snapshot document's path names; undefined for another path. */
export function snapshotIdOf(path: string): string | undefined {
  const m = /^\/([0-9a-f]{8})\//.exec(path);
  return m ? m[1] : undefined;
}

export interface SnapshotPick {
  label: string;
  description: string;
  detail?: string;
  version: SnapshotVersion;
}

/**
 * snapshotPicks are the rows of a chapter's versions, newest first, then
 * the deleted chapters' last versions; versions that cannot be shown
 * (a deletion, a damaged one) are left out.
 */
export function snapshotPicks(versions: readonly SnapshotVersion[], deleted: readonly SnapshotVersion[]): SnapshotPick[] {
  const out: SnapshotPick[] = [];
  for (const v of versions) {
    if (v.deleted || v.damaged) {
      continue;
    }
    out.push({ label: v.label, description: v.id, version: v });
  }
  for (const v of deleted) {
    out.push({ label: `$(trash) ${v.chapter}`, description: v.id, detail: `deleted; its last version: ${v.label}`, version: v });
  }
  return out;
}

/** diffTitle is the diff editor's tab title: the chapter's file, the version, and now. */
export function diffTitle(v: SnapshotVersion): string {
  const file = v.chapter.split("/").pop() ?? v.chapter;
  return `${file} (snapshot ${v.label.split(" · ")[0]}) ↔ now`;
}
