import * as assert from "assert";
import { bookMapArgs, isDrawnMessage, isOpenMessage, panelHtml } from "../bookMap";
import { loadPanel } from "./panelDom";

const page = `<!DOCTYPE html><html><head><title>m</title></head><body>
<a id="cell" href="file:///books/bell%20book/manuscript/03-slack-water.md#L22">4</a>
<a id="head" href="file:///books/bell%20book/manuscript/01.md"><span id="inner">1</span></a>
<a id="nav" href="#timeline">Timeline</a>
</body></html>`;

describe("book map panel", () => {
  it("asks the extension to open the chapter of a clicked cell at its line", () => {
    const p = loadPanel(page);
    const doc = p.dom.window.document;
    (doc.getElementById("cell") as HTMLElement).click();
    (doc.getElementById("inner") as HTMLElement).click();
    (doc.getElementById("nav") as HTMLElement).click();
    assert.deepStrictEqual(p.posted, [
      { type: "open", path: "/books/bell book/manuscript/03-slack-water.md", line: 22 },
      { type: "open", path: "/books/bell book/manuscript/01.md", line: 1 },
    ]);
    assert.ok(p.posted.every(isOpenMessage));
  });

  it("takes a newer page in place, keeping the chosen sort, and still opens cells", () => {
    const p = loadPanel(page.replace("<body>", '<body><select id="sort"><option value="first">f</option><option value="total">t</option></select>'));
    const doc = p.dom.window.document;
    (doc.getElementById("sort") as HTMLSelectElement).value = "total";
    const newer = page
      .replace("<body>", '<body><select id="sort"><option value="first">f</option><option value="total">t</option></select><p id="new">newer</p>')
      .replace("#L22", "#L30");
    p.dom.window.dispatchEvent(new p.dom.window.MessageEvent("message", { data: { type: "page", html: newer, stamp: 7 } }));
    assert.strictEqual(doc.getElementById("new")?.textContent, "newer");
    assert.strictEqual((doc.getElementById("sort") as HTMLSelectElement).value, "total");
    (doc.getElementById("cell") as HTMLElement).click();
    assert.deepStrictEqual(p.posted, [
      { type: "drawn", stamp: 7 },
      { type: "open", path: "/books/bell book/manuscript/03-slack-water.md", line: 30 },
    ]);
    assert.ok(isDrawnMessage(p.posted[0]));
  });

  it("adds its script before </body>, and to a page without one", () => {
    assert.match(panelHtml("<html><body>x</body></html>"), /x<script>[\s\S]*acquireVsCodeApi[\s\S]*<\/script><\/body><\/html>$/);
    assert.match(panelHtml("<p>x</p>"), /^<p>x<\/p><script>/);
  });

  it("reads the code action's argument, or none", () => {
    assert.deepStrictEqual(bookMapArgs([{ uri: "file:///b/manuscript/01.md" }]), { uri: "file:///b/manuscript/01.md" });
    assert.deepStrictEqual(bookMapArgs([]), {});
    assert.deepStrictEqual(bookMapArgs([{ uri: 3 }]), {});
    assert.ok(!isOpenMessage({ type: "open", path: "/x" }));
  });
});
