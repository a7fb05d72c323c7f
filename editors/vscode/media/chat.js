// @ts-check
// The advisor chat's webview. It draws the view model the extension
// posts, building every node with createElement and textContent: no
// text from the server or the model is ever parsed as HTML.
(function () {
  "use strict";
  const vscode = acquireVsCodeApi();
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const log = $("log");
  const input = /** @type {HTMLTextAreaElement} */ ($("input"));
  const persona = /** @type {HTMLSelectElement} */ ($("persona"));
  const send = $("send");
  const cancel = $("cancel");
  const peek = $("peek");
  /** @type {any} */
  let current = null;

  /**
   * @param {string} tag
   * @param {string} [cls]
   * @param {string} [text]
   */
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) {
      e.className = cls;
    }
    if (text !== undefined) {
      e.textContent = text;
    }
    return e;
  }

  /** @param {string} label @param {() => void} onClick @param {string} [cls] */
  function button(label, onClick, cls) {
    const b = el("button", cls, label);
    b.addEventListener("click", onClick);
    return b;
  }

  /** @param {any[]} inlines @param {HTMLElement} parent */
  function inline(inlines, parent) {
    for (const n of inlines) {
      switch (n.t) {
        case "text":
          parent.appendChild(document.createTextNode(n.text));
          break;
        case "code":
          parent.appendChild(el("code", undefined, n.text));
          break;
        case "strong":
        case "em": {
          const e = el(n.t);
          inline(n.c, e);
          parent.appendChild(e);
          break;
        }
        case "link": {
          // No href attribute: the extension opens the target, so the
          // webview never navigates.
          const a = el("a", "link");
          a.setAttribute("role", "link");
          a.setAttribute("tabindex", "0");
          a.title = n.href;
          inline(n.c, a);
          a.addEventListener("click", () => vscode.postMessage({ type: "link", href: n.href }));
          parent.appendChild(a);
          break;
        }
      }
    }
  }

  /** @param {any[]} blocks @param {HTMLElement} parent */
  function blocks(blocks, parent) {
    for (const b of blocks) {
      switch (b.t) {
        case "p": {
          const p = el("p");
          inline(b.c, p);
          parent.appendChild(p);
          break;
        }
        case "h": {
          const h = el("h" + Math.min(6, Math.max(3, b.level + 2)));
          inline(b.c, h);
          parent.appendChild(h);
          break;
        }
        case "ul":
        case "ol": {
          const list = el(b.t);
          if (b.t === "ol" && b.start !== 1) {
            list.setAttribute("start", String(b.start));
          }
          for (const item of b.items) {
            const li = el("li");
            blocks(item, li);
            list.appendChild(li);
          }
          parent.appendChild(list);
          break;
        }
        case "quote": {
          const q = el("blockquote");
          blocks(b.c, q);
          parent.appendChild(q);
          break;
        }
        case "pre": {
          const pre = el("pre");
          pre.appendChild(el("code", undefined, b.text));
          parent.appendChild(pre);
          break;
        }
        case "hr":
          parent.appendChild(el("hr"));
          break;
      }
    }
  }

  const stateText = {
    loading: "Loading proposal…",
    pending: "",
    stale: "Stale: a file it edits changed since it was proposed; ask again.",
    applying: "Applying…",
    applied: "Applied.",
    discarded: "Discarded.",
    refused: "Refused: ",
    failed: "Not applied: ",
  };

  /** @param {any} p */
  function proposal(p) {
    const box = el("div", "proposal " + p.state);
    box.appendChild(el("div", "proposal-title", p.title));
    if (p.changeSummary) {
      box.appendChild(el("div", "proposal-summary", p.changeSummary));
    }
    if (p.path) {
      box.appendChild(el("div", "proposal-path", p.path));
    }
    for (const w of p.warnings) {
      box.appendChild(el("div", "warning", "⚠ " + w));
    }
    if (p.diff.length > 0) {
      const details = /** @type {HTMLDetailsElement} */ (el("details", "diff"));
      details.open = p.state === "pending";
      details.appendChild(el("summary", undefined, "Diff"));
      const pre = el("pre");
      for (const l of p.diff) {
        const prefix = l.kind === "add" ? "+" : l.kind === "del" ? "-" : l.kind === "ctx" ? " " : "";
        pre.appendChild(el("div", "diff-" + l.kind, prefix + l.text));
      }
      details.appendChild(pre);
      box.appendChild(details);
    }
    if (p.diff.length === 0 && p.preview) {
      const details = /** @type {HTMLDetailsElement} */ (el("details", "diff"));
      details.open = p.state === "pending";
      details.appendChild(el("summary", undefined, "Proposed text"));
      details.appendChild(el("pre", undefined, p.preview));
      box.appendChild(details);
    }
    const status = /** @type {Record<string, string>} */ (stateText)[p.state] || "";
    if (status || p.message) {
      box.appendChild(el("div", "proposal-state", status + (p.message || "")));
    }
    const buttons = el("div", "buttons");
    if (p.canOpenDiff) {
      buttons.appendChild(button("Open diff", () => vscode.postMessage({ type: "diff", id: p.id }), "secondary"));
    }
    if (p.state === "pending" || p.state === "refused" || p.state === "failed") {
      if (p.state !== "failed" || p.diff.length > 0) {
        buttons.appendChild(button("Apply", () => vscode.postMessage({ type: "apply", id: p.id })));
      }
      buttons.appendChild(button("Discard", () => vscode.postMessage({ type: "discard", id: p.id }), "secondary"));
    } else if (p.state === "stale") {
      buttons.appendChild(button("Discard", () => vscode.postMessage({ type: "discard", id: p.id }), "secondary"));
    }
    if (buttons.childElementCount > 0) {
      box.appendChild(buttons);
    }
    return box;
  }

  /** @param {any} m */
  function message(m) {
    if (m.kind === "user") {
      const box = el("div", "msg user");
      if (m.context) {
        box.appendChild(el("div", "context", "about " + m.context));
      }
      box.appendChild(el("div", "text", m.text));
      return box;
    }
    const box = el("div", "msg assistant " + m.status);
    if (m.rows.length > 0) {
      const rows = el("ul", "rows");
      for (const r of m.rows) {
        rows.appendChild(el("li", r.ok ? "ok" : "fail", r.text));
      }
      box.appendChild(rows);
    }
    const body = el("div", "answer");
    blocks(m.blocks, body);
    if (m.status === "running") {
      body.appendChild(el("span", "cursor", m.blocks.length === 0 && m.rows.length === 0 ? "Thinking…" : "▍"));
    }
    box.appendChild(body);
    if (m.status === "cancelled") {
      box.appendChild(el("div", "note", "Cancelled."));
    }
    if (m.error) {
      const err = el("div", "error");
      err.appendChild(el("div", undefined, m.error.message));
      if (m.error.hint) {
        err.appendChild(el("div", "hint", m.error.hint));
      }
      box.appendChild(err);
    }
    if (m.evidence.length > 0) {
      const ev = el("div", "evidence");
      ev.appendChild(el("div", "label", "Evidence"));
      const ul = el("ul");
      for (const e of m.evidence) {
        const li = el("li");
        const a = el("a", "link", e.label);
        a.setAttribute("role", "link");
        a.setAttribute("tabindex", "0");
        a.title = e.tool;
        a.addEventListener("click", () => vscode.postMessage({ type: "open", uri: e.uri, range: e.range }));
        li.appendChild(a);
        ul.appendChild(li);
      }
      ev.appendChild(ul);
      box.appendChild(ev);
    }
    for (const p of m.proposals) {
      box.appendChild(proposal(p));
    }
    if (m.routing) {
      box.appendChild(el("div", "routing", m.routing));
    }
    return box;
  }

  /** @param {any} vm */
  function render(vm) {
    current = vm;
    const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    persona.replaceChildren();
    for (const p of vm.personas) {
      const o = /** @type {HTMLOptionElement} */ (el("option", undefined, p.name + (p.busy ? " …" : "")));
      o.value = p.id;
      o.title = p.focus;
      o.selected = p.id === vm.active;
      persona.appendChild(o);
    }
    const active = vm.personas.find((/** @type {any} */ p) => p.id === vm.active);
    $("focus").textContent = active ? active.focus : "";
    $("context").textContent = vm.context ? "about " + vm.context : "no Markdown file selected";
    log.replaceChildren();
    if (vm.messages.length === 0) {
      log.appendChild(
        el("p", "empty", "Ask about the selected passage, or choose \u201cAsk \u2026 about this\u201d from the light bulb on a selection."),
      );
    }
    for (const m of vm.messages) {
      log.appendChild(message(m));
    }
    send.toggleAttribute("disabled", vm.busy || !vm.active);
    cancel.toggleAttribute("disabled", !vm.busy);
    peek.hidden = !vm.showPeekButton;
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
    vscode.postMessage({ type: "ask", text });
    input.value = "";
    vscode.setState({ draft: "" });
  }

  send.addEventListener("click", ask);
  cancel.addEventListener("click", () => vscode.postMessage({ type: "cancel" }));
  peek.addEventListener("click", () => vscode.postMessage({ type: "peek", text: input.value }));
  $("reset").addEventListener("click", () => vscode.postMessage({ type: "reset" }));
  persona.addEventListener("change", () => vscode.postMessage({ type: "persona", id: persona.value }));
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
  window.addEventListener("message", (e) => {
    const m = e.data;
    if (m.type === "state") {
      render(m.vm);
    } else if (m.type === "error") {
      log.appendChild(el("div", "error", m.message));
    }
  });
  const saved = vscode.getState();
  if (saved && typeof saved.draft === "string") {
    input.value = saved.draft;
  }
  vscode.postMessage({ type: "ready" });
})();
