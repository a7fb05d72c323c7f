// @ts-check
// The advisor chat's webview: draws the view model the extension posts
// (with quireRender, from render.js) and reports the writer's clicks.
/* global quireRender */
(function () {
  "use strict";
  /** @typedef {import("../src/chat/messages").ViewModel} ViewModel */
  /** @typedef {import("../src/chat/messages").ToWebview} ToWebview */
  /** @typedef {import("../src/chat/messages").FromWebview} FromWebview */
  const vscode = acquireVsCodeApi();
  /** @param {FromWebview} m */
  const post = (m) => vscode.postMessage(m);
  const r = quireRender.create(post);
  const el = quireRender.el;
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const log = $("log");
  const input = /** @type {HTMLTextAreaElement} */ ($("input"));
  const persona = /** @type {HTMLSelectElement} */ ($("persona"));
  const send = $("send");
  const cancel = $("cancel");
  const peek = $("peek");
  /** @type {ViewModel | null} */
  let current = null;

  /** @param {ViewModel} vm */
  function controls(vm) {
    send.toggleAttribute("disabled", vm.busy || !vm.active);
    cancel.toggleAttribute("disabled", !vm.busy);
    peek.hidden = !vm.showPeekButton;
  }

  /** @param {ViewModel} vm */
  function render(vm) {
    current = vm;
    // The buttons first: whatever happens while drawing the messages, the
    // chat never stays busy after the ask ended.
    controls(vm);
    const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    persona.replaceChildren();
    for (const p of vm.personas) {
      const o = /** @type {HTMLOptionElement} */ (el("option", undefined, p.name + (p.busy ? " …" : "")));
      o.value = p.id;
      o.title = p.focus;
      o.selected = p.id === vm.active;
      persona.appendChild(o);
    }
    const active = vm.personas.find((p) => p.id === vm.active);
    $("focus").textContent = active ? active.focus : "";
    $("context").textContent = vm.context ? "about " + vm.context : "no Markdown file selected";
    log.replaceChildren();
    if (vm.messages.length === 0) {
      log.appendChild(
        el("p", "empty", "Ask about the selected passage, or choose \u201cAsk \u2026 about this\u201d from the light bulb on a selection."),
      );
    }
    for (const m of vm.messages) {
      log.appendChild(r.message(m));
    }
    if (nearBottom) {
      log.scrollTop = log.scrollHeight;
    }
  }

  function ask() {
    if (!current || current.busy) {
      return;
    }
    const text = input.value.trim();
    if (text === "") {
      return;
    }
    post({ type: "ask", text });
    input.value = "";
    vscode.setState({ draft: "" });
  }

  send.addEventListener("click", ask);
  cancel.addEventListener("click", () => post({ type: "cancel" }));
  peek.addEventListener("click", () => post({ type: "peek", text: input.value }));
  $("reset").addEventListener("click", () => post({ type: "reset" }));
  persona.addEventListener("change", () => post({ type: "persona", id: persona.value }));
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      ask();
    }
  });
  input.addEventListener("input", () => vscode.setState({ draft: input.value }));
  log.addEventListener("keydown", (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    if (e.key === "Enter" && t.classList.contains("link")) {
      t.click();
    }
  });
  window.addEventListener("message", (/** @type {MessageEvent<ToWebview>} */ e) => {
    const m = e.data;
    if (m.type === "state") {
      try {
        render(m.vm);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        post({ type: "renderError", message: why });
        log.appendChild(el("div", "error", "quire could not draw the chat: " + why));
      }
    } else if (m.type === "error") {
      log.appendChild(el("div", "error", m.message));
    }
  });
  // Any other uncaught error reaches the extension's log too, not only
  // the webview's developer tools.
  window.addEventListener("error", (e) => post({ type: "renderError", message: e.message }));
  const saved = vscode.getState();
  if (saved && typeof saved.draft === "string") {
    input.value = saved.draft;
  }
  post({ type: "ready" });
})();
