import * as assert from "assert";
import { Block, Inline, parseInline, parseMarkdown, safeHref } from "../markdown";

const t = (text: string): Inline => ({ t: "text", text });

describe("parseInline", () => {
  const cases: { src: string; want: Inline[] }[] = [
    { src: "plain", want: [t("plain")] },
    { src: "a **bold** b", want: [t("a "), { t: "strong", c: [t("bold")] }, t(" b")] },
    { src: "__bold__", want: [{ t: "strong", c: [t("bold")] }] },
    { src: "*em* and _em_", want: [{ t: "em", c: [t("em")] }, t(" and "), { t: "em", c: [t("em")] }] },
    { src: "**a *b* c**", want: [{ t: "strong", c: [t("a "), { t: "em", c: [t("b")] }, t(" c")] }] },
    { src: "snake_case_name", want: [t("snake_case_name")] },
    { src: "2 * 3 * 4", want: [t("2 * 3 * 4")] },
    { src: "`**not bold**`", want: [{ t: "code", text: "**not bold**" }] },
    { src: "`` a`b ``", want: [{ t: "code", text: "a`b" }] },
    { src: "unclosed `code", want: [t("unclosed `code")] },
    { src: "\\*literal\\*", want: [t("*literal*")] },
    { src: "[ch 3](manuscript/03.md)", want: [{ t: "link", href: "manuscript/03.md", c: [t("ch 3")] }] },
    { src: "[site](https://example.com \"title\")", want: [{ t: "link", href: "https://example.com", c: [t("site")] }] },
    { src: "[x](javascript:alert(1))", want: [t("x)")] },
    { src: "[x](data:text/html,hi)", want: [t("x")] },
    { src: "<https://example.com>", want: [{ t: "link", href: "https://example.com", c: [t("https://example.com")] }] },
    { src: "<script>alert(1)</script>", want: [t("<script>alert(1)</script>")] },
    { src: "[[Teodora Quill]]", want: [t("[[Teodora Quill]]")] },
  ];
  for (const c of cases) {
    it(JSON.stringify(c.src), () => assert.deepStrictEqual(parseInline(c.src), c.want));
  }
});

describe("safeHref", () => {
  const cases: [string, string | undefined][] = [
    ["https://x.org/a", "https://x.org/a"],
    ["HTTP://x.org", "HTTP://x.org"],
    ["file:///book/codex/a.md", "file:///book/codex/a.md"],
    ["codex/a.md", "codex/a.md"],
    ["javascript:alert(1)", undefined],
    [" JavaScript:alert(1)", undefined],
    ["vbscript:x", undefined],
    ["command:workbench.action.quit", undefined],
    ["//evil.example/x", undefined],
    ["", undefined],
  ];
  for (const [href, want] of cases) {
    it(JSON.stringify(href), () => assert.strictEqual(safeHref(href), want));
  }
});

describe("parseMarkdown", () => {
  const cases: { name: string; src: string; want: Block[] }[] = [
    {
      name: "paragraphs join lines and split on blank lines",
      src: "one\ntwo\n\nthree",
      want: [{ t: "p", c: [t("one two")] }, { t: "p", c: [t("three")] }],
    },
    {
      name: "headings",
      src: "## Teo's *hands*\ntext",
      want: [{ t: "h", level: 2, c: [t("Teo's "), { t: "em", c: [t("hands")] }] }, { t: "p", c: [t("text")] }],
    },
    {
      name: "bullet list with continuation and nested list",
      src: "- first\n  more\n- second\n  - inner",
      want: [
        {
          t: "ul",
          items: [
            [{ t: "p", c: [t("first more")] }],
            [{ t: "p", c: [t("second")] }, { t: "ul", items: [[{ t: "p", c: [t("inner")] }]] }],
          ],
        },
      ],
    },
    {
      name: "ordered list keeps its start",
      src: "3. c\n4. d\n\nafter",
      want: [
        { t: "ol", start: 3, items: [[{ t: "p", c: [t("c")] }], [{ t: "p", c: [t("d")] }]] },
        { t: "p", c: [t("after")] },
      ],
    },
    {
      name: "fenced code is literal",
      src: "```md\n# not a heading\n<b>x</b>\n```\nafter",
      want: [{ t: "pre", text: "# not a heading\n<b>x</b>" }, { t: "p", c: [t("after")] }],
    },
    {
      name: "unclosed fence runs to the end (a streaming answer)",
      src: "```\npartial",
      want: [{ t: "pre", text: "partial" }],
    },
    {
      name: "quote and rule",
      src: "> she said\n> **no**\n\n---",
      want: [{ t: "quote", c: [{ t: "p", c: [t("she said "), { t: "strong", c: [t("no")] }] }] }, { t: "hr" }],
    },
    {
      name: "a list right after a paragraph line starts a list",
      src: "Findings:\n- one",
      want: [{ t: "p", c: [t("Findings:")] }, { t: "ul", items: [[{ t: "p", c: [t("one")] }]] }],
    },
    { name: "html stays text", src: "<img src=x onerror=alert(1)>", want: [{ t: "p", c: [t("<img src=x onerror=alert(1)>")] }] },
    { name: "empty", src: "\n\n", want: [] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepStrictEqual(parseMarkdown(c.src), c.want));
  }
});
