import * as assert from "assert";
import { emptyState, reduce, ChatState } from "../chat/state";
import { viewModel } from "../chat/viewModel";
import { Block, parseMarkdown } from "../markdown";
import { loadChat } from "./webviewDom";

const personas = [{ id: "continuity-editor", name: "Continuity Editor", focus: "facts" }];
const display = { showToolRows: true, showRouting: false, showPeekButton: true };

function answered(answer: string): ChatState {
  let s = reduce(emptyState, { type: "ask", persona: "continuity-editor", token: "t1", text: "Is this right?" });
  s = reduce(s, {
    type: "result",
    token: "t1",
    result: { persona: "continuity-editor", answer, evidence: [], proposals: [], conversationId: "c" },
  });
  return s;
}

const listAnswer = [
  "Three things:",
  "",
  "- Mara's **scar** is on the left hand",
  "- The harbor:",
  "  - closes at dusk",
  "  - reopens at dawn",
  "- Ilse is *older*",
  "",
  "> The bell rang twice.",
  "> - once for the tide",
  "",
  "1. first",
  "2. second",
].join("\n");

describe("chat webview", () => {
  it("draws an answer with a bullet list, a nested list and a block quote", () => {
    const page = loadChat();
    page.draw(viewModel(answered(listAnswer), personas, display));
    assert.deepStrictEqual(page.errors, []);
    const answer = page.doc.querySelector(".msg.assistant .answer");
    assert.ok(answer, "no answer drawn");
    const top = answer.querySelector(":scope > ul");
    assert.ok(top, "no bullet list");
    const items = top.querySelectorAll(":scope > li");
    assert.deepStrictEqual(
      Array.from(items, (li) => li.firstElementChild?.textContent),
      ["Mara's scar is on the left hand", "The harbor:", "Ilse is older"],
    );
    assert.strictEqual(items[0].querySelector("strong")?.textContent, "scar");
    const nested = items[1].querySelectorAll("ul > li");
    assert.deepStrictEqual(Array.from(nested, (li) => li.textContent), ["closes at dusk", "reopens at dawn"]);
    const quote = answer.querySelector(":scope > blockquote");
    assert.ok(quote, "no block quote");
    assert.strictEqual(quote.querySelector("p")?.textContent, "The bell rang twice.");
    assert.strictEqual(quote.querySelector("ul > li")?.textContent, "once for the tide");
    assert.deepStrictEqual(Array.from(answer.querySelectorAll(":scope > ol > li"), (li) => li.textContent), ["first", "second"]);
  });

  it("leaves the busy state when an answer is drawn", () => {
    const page = loadChat();
    const running = reduce(emptyState, { type: "ask", persona: "continuity-editor", token: "t1", text: "Is this right?" });
    page.draw(viewModel(running, personas, display));
    assert.ok(page.doc.getElementById("send")?.hasAttribute("disabled"), "Ask is enabled while busy");
    page.draw(viewModel(answered("- one\n- two\n\n> quoted"), personas, display));
    assert.deepStrictEqual(page.errors, []);
    assert.ok(!page.doc.getElementById("send")?.hasAttribute("disabled"), "Ask stays disabled after the answer");
    assert.ok(page.doc.getElementById("cancel")?.hasAttribute("disabled"), "Cancel stays enabled after the answer");
  });
});

// outline writes a node's tree as tags and text, to compare with what a
// Markdown answer should become.
function outline(n: Node): string {
  if (n.nodeType === 3) {
    return n.textContent ?? "";
  }
  const inner = Array.from(n.childNodes, outline).join("");
  const tag = (n as Element).tagName.toLowerCase();
  return `<${tag}>${inner}</${tag}>`;
}

describe("chat webview errors", () => {
  it("tells the extension about an uncaught error in the page", () => {
    const page = loadChat();
    page.dom.window.dispatchEvent(new page.dom.window.ErrorEvent("error", { message: "boom" }));
    // Posted from the page's realm: compared as JSON.
    const reported = page.posted.filter((m) => m.type === "renderError").map((m) => JSON.stringify(m));
    assert.deepStrictEqual(reported, [JSON.stringify({ type: "renderError", message: "boom" })]);
  });
});

describe("chat webview renderer", () => {
  type Renderer = { create(post: (m: unknown) => void): { blocks(b: Block[], parent: HTMLElement): void } };

  it("draws nested Markdown blocks with the blocks function", () => {
    const page = loadChat();
    const r = (page.global("quireRender") as Renderer).create(() => undefined);
    const root = page.doc.createElement("div");
    r.blocks(parseMarkdown("- a\n  - b\n  - c\n- d\n\n> e\n> > f"), root);
    assert.strictEqual(
      outline(root),
      "<div><ul><li><p>a</p><ul><li><p>b</p></li><li><p>c</p></li></ul></li><li><p>d</p></li></ul>" +
        "<blockquote><p>e</p><blockquote><p>f</p></blockquote></blockquote></div>",
    );
  });

  it("shows an answer it cannot draw as plain text, reports it, and leaves the busy state", () => {
    const page = loadChat();
    const running = reduce(emptyState, { type: "ask", persona: "continuity-editor", token: "t1", text: "Is this right?" });
    page.draw(viewModel(running, personas, display));
    const vm = viewModel(answered("- one\n- two"), personas, display);
    const reply = vm.messages[1];
    assert.ok(reply.kind === "assistant");
    // A block the renderer does not expect, as a future view model might send.
    reply.blocks = [{ t: "ul", items: null } as unknown as Block];
    page.draw(vm);
    assert.deepStrictEqual(page.errors, []);
    assert.ok(!page.doc.getElementById("send")?.hasAttribute("disabled"), "Ask stays disabled");
    const msg = page.doc.querySelector(".msg.assistant");
    assert.match(msg?.querySelector(".error")?.textContent ?? "", /could not display this answer/);
    assert.strictEqual(msg?.querySelector(".plain")?.textContent, "- one\n- two");
    assert.ok(page.posted.some((m) => m.type === "renderError"), "the extension is not told");
    // The question above it is still drawn.
    assert.strictEqual(page.doc.querySelector(".msg.user .text")?.textContent, "Is this right?");
  });
});

describe("chat webview styles", () => {
  // The chat lives in a narrow sidebar: long diff lines and long provider
  // errors wrap instead of making the chat scroll sideways.
  it("wraps diff lines and errors", () => {
    const page = loadChat({ css: true });
    let s = answered("ok");
    s = reduce(s, { type: "ask", persona: "continuity-editor", token: "t2", text: "again" });
    s = reduce(s, { type: "failed", token: "t2", code: -32603, message: "quire could not reach the model at http://127.0.0.1:1/v1/chat/completions: " + "x".repeat(300) });
    s = reduce(s, { type: "ask", persona: "continuity-editor", token: "t3", text: "propose" });
    s = reduce(s, { type: "result", token: "t3", result: { persona: "continuity-editor", answer: "", evidence: [], proposals: ["p-1"], conversationId: "c" } });
    s = reduce(s, {
      type: "proposals",
      proposals: [
        {
          id: "p-1", kind: "update", name: "Teodora Quill", entryType: "character", path: "codex/t.md", changeSummary: "eyes",
          markdown: "", warnings: null, created: "", status: "pending", diff: `--- a/codex/t.md\n+++ b/codex/t.md\n@@ -1 +1 @@\n-a\n+${"long ".repeat(80)}\n`,
        },
      ],
    });
    page.draw(viewModel(s, personas, display));
    assert.deepStrictEqual(page.errors, []);
    const style = (sel: string): CSSStyleDeclaration => {
      const e = page.doc.querySelector(sel);
      assert.ok(e, `no ${sel}`);
      return page.dom.window.getComputedStyle(e);
    };
    for (const sel of [".diff pre .diff-add", ".msg.assistant .error div"]) {
      assert.strictEqual(style(sel).whiteSpace, "pre-wrap", sel);
      assert.strictEqual(style(sel).overflowWrap, "anywhere", sel);
    }
    assert.strictEqual(style(".error").overflowWrap, "anywhere");
  });
});
