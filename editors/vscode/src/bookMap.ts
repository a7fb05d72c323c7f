// The book map in a webview panel: the page quire.bookMap writes, made
// to work inside VS Code. Pure, so the tests load it in jsdom: the
// panel (mapPanel.ts) does the VS Code side.

/** bookMapArgs reads the first argument of a quire.bookMap command (the server's code action passes {uri}). */
export function bookMapArgs(args: readonly unknown[]): { uri?: string } {
  const a = args[0] as { uri?: unknown } | undefined;
  return typeof a?.uri === "string" ? { uri: a.uri } : {};
}

/**
 * The script added to the page in the panel. A webview cannot follow the
 * page's file:// links, so a click on one asks the extension to open the
 * chapter at the line (#L<line>) instead. After a save the extension
 * sends the newer page as a message: its body replaces this one's in
 * place (a reload of the whole webview takes longer), the sort and
 * filters and the scroll position kept, and the page's script binds the
 * controls again (quireMapInit). The state also keeps the scroll
 * position across a webview that was reloaded after all.
 */
export const panelScript = `(function () {
  var vscode = acquireVsCodeApi();
  var state = vscode.getState() || {};
  if (state.scrollX || state.scrollY) window.scrollTo(state.scrollX || 0, state.scrollY || 0);
  var timer;
  window.addEventListener("scroll", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { vscode.setState({ scrollX: window.scrollX, scrollY: window.scrollY }); }, 100);
  });
  document.addEventListener("click", function (e) {
    var a = e.target && e.target.closest ? e.target.closest("a[href]") : null;
    if (!a) return;
    var href = a.getAttribute("href");
    if (href.indexOf("file://") !== 0) return;
    e.preventDefault();
    var hash = href.indexOf("#");
    var line = hash >= 0 ? parseInt(href.slice(hash + 1).replace(/^L/, ""), 10) : 1;
    var path = decodeURIComponent((hash >= 0 ? href.slice(0, hash) : href).slice("file://".length));
    vscode.postMessage({ type: "open", path: path, line: isNaN(line) ? 1 : line });
  });
  var controls = ["sort", "filter-type", "filter-tag"];
  window.addEventListener("message", function (e) {
    var m = e.data;
    if (!m || m.type !== "page" || typeof m.html !== "string") return;
    var x = window.scrollX, y = window.scrollY;
    var values = controls.map(function (id) { var el = document.getElementById(id); return el ? el.value : ""; });
    // Scripts of a parsed document never run: only the body's markup comes over.
    var next = new DOMParser().parseFromString(m.html, "text/html");
    document.body.replaceWith(document.adoptNode(next.body));
    controls.forEach(function (id, i) {
      var el = document.getElementById(id);
      if (el && Array.prototype.some.call(el.options, function (o) { return o.value === values[i]; })) el.value = values[i];
    });
    if (window.quireMapInit) window.quireMapInit();
    window.scrollTo(x, y);
    vscode.postMessage({ type: "drawn", stamp: m.stamp });
  });
})();`;

/**
 * panelHtml is the map's page for the panel: the page as quire wrote it,
 * its own policy kept (inline styles and scripts only, nothing loaded),
 * with panelScript added before </body>.
 */
export function panelHtml(page: string): string {
  const script = `<script>${panelScript}</script>`;
  const i = page.lastIndexOf("</body>");
  return i < 0 ? page + script : page.slice(0, i) + script + page.slice(i);
}

/** OpenMessage is what the panel's script posts for a clicked cell. */
export interface OpenMessage {
  type: "open";
  path: string;
  line: number;
}

/** PageMessage carries a newer map to a panel already showing one. */
export interface PageMessage {
  type: "page";
  html: string;
  // stamp comes back in the panel's {type: "drawn", stamp} once shown.
  stamp: number;
}

export function isDrawnMessage(m: unknown): m is { type: "drawn"; stamp: number } {
  const o = m as { type?: unknown; stamp?: unknown } | null;
  return typeof o === "object" && o !== null && o.type === "drawn" && typeof o.stamp === "number";
}

export function isOpenMessage(m: unknown): m is OpenMessage {
  const o = m as Partial<OpenMessage> | null;
  return typeof o === "object" && o !== null && o.type === "open" && typeof o.path === "string" && typeof o.line === "number";
}
