// Loads the chat webview's page and scripts (media/) into jsdom, as the
// webview would: the tests draw view models and click buttons in it.
import * as fs from "fs";
import * as path from "path";
import * as vm from "vm";
import { JSDOM, VirtualConsole } from "jsdom";
import { chatHtml, chatScripts } from "../chat/html";

export const mediaDir = path.join(__dirname, "..", "..", "media");

export interface ChatPage {
  dom: JSDOM;
  doc: Document;
  // What the scripts sent to the extension.
  posted: { type: string; [k: string]: unknown }[];
  // Uncaught errors in the page: a test fails on any it does not expect.
  errors: string[];
  // draw posts a view model, as the extension does on every change.
  draw(vm: unknown): void;
  // global reads a name from the page's global scope, e.g. quireRender.
  global(name: string): unknown;
}

export function loadChat(opts: { css?: boolean } = {}): ChatPage {
  const errors: string[] = [];
  const virtualConsole = new VirtualConsole();
  virtualConsole.on("jsdomError", (e: Error) => errors.push(e.message));
  const html = chatHtml({ cspSource: "vscode-resource:", nonce: "test", media: (f) => f });
  const dom = new JSDOM(html, { runScripts: "outside-only", virtualConsole, pretendToBeVisual: true });
  const w = dom.window as unknown as Record<string, unknown>;
  if (opts.css) {
    const style = dom.window.document.createElement("style");
    style.textContent = fs.readFileSync(path.join(mediaDir, "chat.css"), "utf8");
    dom.window.document.head.appendChild(style);
  }
  const posted: ChatPage["posted"] = [];
  let saved: unknown;
  w.acquireVsCodeApi = () => ({
    postMessage: (m: { type: string }) => posted.push(m),
    getState: () => saved,
    setState: (s: unknown) => (saved = s),
  });
  // As classic scripts in one page: they share the global scope, so
  // chat.js sees render.js's quireRender (an eval would not).
  const context = dom.getInternalVMContext();
  for (const f of chatScripts) {
    new vm.Script(fs.readFileSync(path.join(mediaDir, f), "utf8"), { filename: path.join(mediaDir, f) }).runInContext(context);
  }
  const draw = (vm: unknown): void => {
    dom.window.dispatchEvent(new dom.window.MessageEvent("message", { data: { type: "state", vm } }));
  };
  const global = (name: string): unknown => vm.runInContext(name, context);
  return { dom, doc: dom.window.document, posted, errors, draw, global };
}
