import * as assert from "assert";
import { BookStatus } from "../protocol";
import { mergeBook, providerChanged, statusView } from "../status";

const book = (over: Partial<BookStatus>): BookStatus => ({ root: "/w/book", state: "ready", entries: 26, chapters: 5, problems: 0, ...over });

describe("statusView", () => {
  const cases: { name: string; books: BookStatus[]; text: string; command: string; tooltip?: RegExp }[] = [
    { name: "no book", books: [], text: "$(book) quire", command: "quire.openChat", tooltip: /no book project/ },
    { name: "ready", books: [book({})], text: "$(book) quire: 26 entries · 5 ch", command: "quire.openChat", tooltip: /book — ready: 26 entries, 5 chapters, 0 problems/ },
    { name: "one entry, problems", books: [book({ entries: 1, problems: 3 })], text: "$(book) quire: 1 entry · 5 ch · $(warning) 3", command: "quire.openChat" },
    { name: "indexing wins over ready", books: [book({}), book({ root: "/w/two", state: "indexing" })], text: "$(sync~spin) quire: indexing", command: "quire.openChat" },
    { name: "loading", books: [book({ state: "loading" })], text: "$(sync~spin) quire: indexing", command: "quire.openChat" },
    { name: "error wins and offers reindex", books: [book({ state: "indexing" }), book({ root: "/w/bad", state: "error", message: "quire.yaml: bad YAML" })], text: "$(error) quire: error", command: "quire.reindex", tooltip: /bad — error: .*\(quire\.yaml: bad YAML\)/ },
    { name: "sums books", books: [book({}), book({ root: "C:\\w\\two\\", entries: 4, chapters: 1, problems: 1 })], text: "$(book) quire: 30 entries · 6 ch · $(warning) 1", command: "quire.openChat", tooltip: /two — ready/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const v = statusView(c.books);
      assert.strictEqual(v.text, c.text);
      assert.strictEqual(v.command, c.command);
      if (c.tooltip) {
        assert.match(v.tooltip, c.tooltip);
      }
    });
  }
});

describe("mergeBook", () => {
  it("replaces by root and appends new roots", () => {
    let books = mergeBook([], book({ state: "indexing" }));
    books = mergeBook(books, book({ root: "/w/two" }));
    books = mergeBook(books, book({ state: "ready", entries: 27 }));
    assert.deepStrictEqual(books.map((b) => [b.root, b.state, b.entries]), [["/w/book", "ready", 27], ["/w/two", "ready", 26]]);
  });
});

describe("providerChanged", () => {
  const cases: { name: string; books: BookStatus[]; now: BookStatus; want: boolean }[] = [
    { name: "a book seen first", books: [], now: book({ provider: "m at http://x/v1" }), want: false },
    { name: "read at last, after loading", books: [book({ state: "loading" })], now: book({ state: "indexing", provider: "m at http://x/v1" }), want: false },
    { name: "the same provider", books: [book({ provider: "m at http://x/v1" })], now: book({ provider: "m at http://x/v1" }), want: false },
    { name: "config.yaml chose one", books: [book({})], now: book({ provider: "m at http://x/v1" }), want: true },
    { name: "quire.yaml changed the model", books: [book({ provider: "m at http://x/v1" })], now: book({ provider: "n at http://x/v1" }), want: true },
    { name: "the provider was taken away", books: [book({ provider: "m at http://x/v1" })], now: book({}), want: true },
    { name: "another book's", books: [book({ root: "/w/two" })], now: book({ provider: "m at http://x/v1" }), want: false },
  ];
  for (const c of cases) {
    it(c.name, () => assert.strictEqual(providerChanged(c.books, c.now), c.want));
  }
});
