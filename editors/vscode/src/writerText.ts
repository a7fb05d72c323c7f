// Text the writer reads carries no internal ids: the server's messages
// name a proposal by its id (p-bd59066e364d), which means nothing to a
// writer who sees the proposal's card or title beside the message.

const id = String.raw`p-[0-9a-f]{12}`;

/** withoutIds words a server message without proposal ids. */
export function withoutIds(s: string): string {
  const out = s
    .replace(new RegExp(String.raw`\bno proposal "?${id}"?`, "g"), "this proposal is no longer known")
    .replace(new RegExp(String.raw`\b([Pp])roposal "?${id}"?`, "g"), (_m, p: string) => (p === "P" ? "This proposal" : "this proposal"))
    .replace(new RegExp(String.raw`\s*\(?"?\b${id}\b"?\)?`, "g"), "");
  return out.charAt(0).toUpperCase() + out.slice(1);
}
