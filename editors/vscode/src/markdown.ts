// A small Markdown reader for advisor answers. It yields a tree of plain
// data that the webview turns into DOM nodes with textContent, so no
// answer text is ever parsed as HTML. Raw HTML in an answer stays literal.

export type Inline =
  | { t: "text"; text: string }
  | { t: "strong"; c: Inline[] }
  | { t: "em"; c: Inline[] }
  | { t: "code"; text: string }
  | { t: "link"; href: string; c: Inline[] };

export type Block =
  | { t: "p"; c: Inline[] }
  | { t: "h"; level: number; c: Inline[] }
  | { t: "ul"; items: Block[][] }
  | { t: "ol"; start: number; items: Block[][] }
  | { t: "quote"; c: Block[] }
  | { t: "pre"; text: string }
  | { t: "hr" };

/**
 * safeHref keeps links the extension knows how to open (web and file
 * URIs, and project-relative paths); anything else, javascript: and
 * data: included, is not a link.
 */
export function safeHref(raw: string): string | undefined {
  const href = raw.trim();
  if (/^(https?|file):/i.test(href)) {
    return href;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//")) {
    return undefined;
  }
  return href === "" ? undefined : href;
}

function pushText(out: Inline[], text: string): void {
  if (text === "") {
    return;
  }
  const last = out[out.length - 1];
  if (last !== undefined && last.t === "text") {
    last.text += text;
  } else {
    out.push({ t: "text", text });
  }
}

// findClose finds the closing delimiter that is not directly after
// whitespace, as CommonMark roughly requires for emphasis.
function findClose(s: string, from: number, delim: string): number {
  let i = s.indexOf(delim, from);
  while (i !== -1) {
    if (i > from && !/\s/.test(s[i - 1])) {
      return i;
    }
    i = s.indexOf(delim, i + 1);
  }
  return -1;
}

/** parseInline reads code spans, emphasis, strong emphasis and links. */
export function parseInline(s: string): Inline[] {
  const out: Inline[] = [];
  let i = 0;
  let plain = "";
  const flush = (): void => {
    pushText(out, plain);
    plain = "";
  };
  while (i < s.length) {
    const ch = s[i];
    if (ch === "\\" && i + 1 < s.length && /[\\`*_[\]()#+\-.!<>]/.test(s[i + 1])) {
      plain += s[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      let n = 1;
      while (s[i + n] === "`") {
        n++;
      }
      const fence = "`".repeat(n);
      const end = s.indexOf(fence, i + n);
      if (end !== -1) {
        flush();
        out.push({ t: "code", text: s.slice(i + n, end).replace(/^ (.*) $/, "$1") });
        i = end + n;
        continue;
      }
      plain += fence;
      i += n;
      continue;
    }
    if ((ch === "*" || ch === "_") && s[i + 1] === ch && i + 2 < s.length && !/\s/.test(s[i + 2])) {
      const end = findClose(s, i + 2, ch + ch);
      if (end !== -1) {
        flush();
        out.push({ t: "strong", c: parseInline(s.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
    }
    // An underscore inside a word (snake_case) is not emphasis.
    const intraword = ch === "_" && i > 0 && /\w/.test(s[i - 1]);
    if ((ch === "*" || ch === "_") && !intraword && i + 1 < s.length && !/\s/.test(s[i + 1]) && s[i + 1] !== ch) {
      const end = findClose(s, i + 1, ch);
      if (end !== -1 && !(ch === "_" && /\w/.test(s[end + 1] ?? ""))) {
        flush();
        out.push({ t: "em", c: parseInline(s.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (ch === "[" && s[i + 1] !== "[") {
      const close = s.indexOf("](", i + 1);
      const end = close === -1 ? -1 : s.indexOf(")", close + 2);
      if (close !== -1 && end !== -1 && !s.slice(i + 1, close).includes("[")) {
        const href = safeHref(s.slice(close + 2, end).split(/\s+"/)[0]);
        const label = parseInline(s.slice(i + 1, close));
        flush();
        if (href !== undefined) {
          out.push({ t: "link", href, c: label });
        } else {
          out.push(...label);
        }
        i = end + 1;
        continue;
      }
    }
    if (ch === "<") {
      const end = s.indexOf(">", i + 1);
      const inner = end === -1 ? "" : s.slice(i + 1, end);
      if (/^https?:\/\/[^\s<>]+$/i.test(inner)) {
        flush();
        out.push({ t: "link", href: inner, c: [{ t: "text", text: inner }] });
        i = end + 1;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  flush();
  return out;
}

const fenceRe = /^\s{0,3}(`{3,}|~{3,})/;
const headingRe = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const hrRe = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const bulletRe = /^(\s*)[-*+]\s+(.*)$/;
const orderedRe = /^(\s*)(\d{1,9})[.)]\s+(.*)$/;
const quoteRe = /^\s{0,3}>\s?(.*)$/;

/** parseMarkdown reads block structure: paragraphs, headings, lists, quotes, fenced code, rules. */
export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, "\n").split("\n");
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = fenceRe.exec(line);
    if (fence !== null) {
      const marker = fence[1];
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(marker)) {
        body.push(lines[i]);
        i++;
      }
      i++; // the closing fence, or past the end of an unclosed one
      out.push({ t: "pre", text: body.join("\n") });
      continue;
    }
    const h = headingRe.exec(line);
    if (h !== null) {
      out.push({ t: "h", level: h[1].length, c: parseInline(h[2]) });
      i++;
      continue;
    }
    if (hrRe.test(line)) {
      out.push({ t: "hr" });
      i++;
      continue;
    }
    if (quoteRe.test(line)) {
      const body: string[] = [];
      while (i < lines.length && lines[i].trim() !== "") {
        const q = quoteRe.exec(lines[i]);
        body.push(q !== null ? q[1] : lines[i]);
        i++;
      }
      out.push({ t: "quote", c: parseMarkdown(body.join("\n")) });
      continue;
    }
    const bullet = bulletRe.exec(line);
    const ordered = orderedRe.exec(line);
    if (bullet !== null || ordered !== null) {
      const isOrdered = bullet === null;
      const itemRe = isOrdered ? orderedRe : bulletRe;
      const items: string[][] = [];
      while (i < lines.length) {
        const l = lines[i];
        const m = itemRe.exec(l);
        if (m !== null && m[1].length < 2) {
          items.push([isOrdered ? m[3] : m[2]]);
          i++;
          continue;
        }
        if (l.trim() === "") {
          // A blank line ends the list unless the next line continues it.
          const next = lines[i + 1];
          if (next !== undefined && (itemRe.exec(next) !== null || /^\s{2,}\S/.test(next))) {
            items[items.length - 1].push("");
            i++;
            continue;
          }
          break;
        }
        if (/^\s+\S/.test(l) || !startsBlock(l)) {
          items[items.length - 1].push(l.replace(/^\s{1,4}/, ""));
          i++;
          continue;
        }
        break;
      }
      const parsed = items.map((it) => parseMarkdown(it.join("\n")));
      out.push(isOrdered ? { t: "ol", start: Number(ordered?.[2] ?? 1), items: parsed } : { t: "ul", items: parsed });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i].trim() !== "" && (para.length === 0 || !startsBlock(lines[i]))) {
      para.push(lines[i].trim());
      i++;
    }
    out.push({ t: "p", c: parseInline(para.join(" ")) });
  }
  return out;
}

function startsBlock(l: string): boolean {
  return (
    fenceRe.test(l) || headingRe.test(l) || hrRe.test(l) || quoteRe.test(l) || bulletRe.test(l) || orderedRe.test(l)
  );
}

/** plainText flattens inline content, e.g. for a tooltip or a test. */
export function plainText(c: Inline[]): string {
  return c.map((n) => (n.t === "text" || n.t === "code" ? n.text : plainText(n.c))).join("");
}
