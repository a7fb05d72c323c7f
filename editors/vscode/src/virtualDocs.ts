// Read-only documents the extension shows: a proposal's text beside the
// file it changes, and the request Peek prompt would send. They live
// under the extension's own URI schemes, served by a content provider, so
// VS Code never asks the writer to save them and closes them without a
// question.

export const proposalScheme = "quire-proposal";
export const peekScheme = "quire-peek";
export const healthScheme = "quire-health";
export const progressScheme = "quire-progress";

export interface UriParts {
  scheme: string;
  path: string;
}

/**
 * proposalDocPath names a proposal's document: the file as it would be
 * ("proposed"), the empty side of a new file ("empty"), or the proposed
 * text alone when there is no diff ("preview"). All start with the
 * proposal's id, so its tabs can be found and closed.
 */
export function proposalDocPath(id: string, rel: string, role: "proposed" | "empty" | "preview"): string {
  const prefix = role === "proposed" ? "" : `${role}/`;
  return `/${id}/${prefix}${rel.replace(/^\/+/, "")}`;
}

/** isProposalDoc tells whether a document shows (part of) proposal id. */
export function isProposalDoc(u: UriParts, id: string): boolean {
  return u.scheme === proposalScheme && u.path.startsWith(`/${id}/`);
}

/**
 * peekDoc is the document Peek prompt opens: the request as indented
 * JSON (or the text as it came when it is not JSON), named after the
 * persona so that two peeks are two tabs.
 */
export function peekDoc(seq: number, persona: string | undefined, body: unknown): { path: string; content: string } {
  let v = body;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      // Not JSON after all: show the text as it came.
    }
  }
  const content = typeof v === "string" ? v : JSON.stringify(v, null, 2);
  const who = (persona ?? "advisor").replace(/[^A-Za-z0-9-]+/g, "-");
  const ext = typeof v === "string" ? "txt" : "json";
  return { path: `/${seq}/${who} prompt.${ext}`, content };
}
