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
 * chapter at the line (#L<line>) instead; and the scroll position is
 * kept across the reloads that follow each save.
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

export function isOpenMessage(m: unknown): m is OpenMessage {
  const o = m as Partial<OpenMessage> | null;
  return typeof o === "object" && o !== null && o.type === "open" && typeof o.path === "string" && typeof o.line === "number";
}
