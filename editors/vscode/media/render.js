// @ts-check
// The chat webview's renderer: the view model's messages, answers and
// proposal cards as DOM nodes, built with createElement and textContent
// only, so no text from the server or the model is ever parsed as HTML.
// Loaded before chat.js; the tests load it into jsdom the same way.
/* exported quireRender */

/**
 * @typedef {import("../src/markdown").Block} Block
 * @typedef {import("../src/markdown").Inline} Inline
 * @typedef {import("../src/chat/messages").MessageVM} MessageVM
 * @typedef {import("../src/chat/messages").AssistantMessageVM} AssistantMessageVM
 * @typedef {import("../src/chat/messages").ProposalVM} ProposalVM
 * @typedef {import("../src/chat/messages").FromWebview} FromWebview
 */

const quireRender = (function () {
  "use strict";

  /**
   * @param {string} tag
   * @param {string} [cls]
   * @param {string} [text]
   * @returns {HTMLElement}
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

  /**
   * @param {string} label
   * @param {() => void} onClick
   * @param {string} [cls]
   */
  function button(label, onClick, cls) {
    const b = el("button", cls, label);
    b.addEventListener("click", onClick);
    return b;
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

  /**
   * create binds the renderer to the channel back to the extension.
   * @param {(m: FromWebview) => void} post
   */
  function create(post) {
    /** @param {Inline[]} inlines @param {HTMLElement} parent */
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
            a.addEventListener("click", () => post({ type: "link", href: n.href }));
            parent.appendChild(a);
            break;
          }
        }
      }
    }

    /** blocks draws Markdown blocks into parent; lists and quotes recurse. @param {Block[]} list @param {HTMLElement} parent */
    function blocks(list, parent) {
      for (const b of list) {
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
            const ul = el(b.t);
            if (b.t === "ol" && b.start !== 1) {
              ul.setAttribute("start", String(b.start));
            }
            for (const item of b.items) {
              const li = el("li");
              blocks(item, li);
              ul.appendChild(li);
            }
            parent.appendChild(ul);
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

    /** @param {ProposalVM} p */
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
      const status = stateText[p.state];
      if (status || p.message) {
        box.appendChild(el("div", "proposal-state", status + (p.message || "")));
      }
      const buttons = el("div", "buttons");
      if (p.canOpenDiff) {
        buttons.appendChild(button("Open diff", () => post({ type: "diff", id: p.id }), "secondary"));
      }
      if (p.canApply) {
        buttons.appendChild(button("Apply", () => post({ type: "apply", id: p.id })));
      }
      if (p.canDiscard) {
        buttons.appendChild(button("Discard", () => post({ type: "discard", id: p.id }), "secondary"));
      }
      if (buttons.childElementCount > 0) {
        box.appendChild(buttons);
      }
      return box;
    }

    /** @param {AssistantMessageVM} m @param {HTMLElement} box */
    function assistant(m, box) {
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
          a.addEventListener("click", () => post({ type: "open", uri: e.uri, range: e.range }));
          li.appendChild(a);
          if (e.why) {
            li.appendChild(el("span", "why", " — " + e.why));
          }
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
    }

    /**
     * message draws one message. A message that cannot be drawn shows the
     * error and its text as plain text instead, and is reported to the
     * extension: the rest of the chat, and its buttons, keep working.
     * @param {MessageVM} m
     */
    function message(m) {
      if (m.kind === "user") {
        const turn = el("div", "msg user");
        if (m.context) {
          turn.appendChild(el("div", "context", "about " + m.context));
        }
        turn.appendChild(el("div", "text", m.text));
        return turn;
      }
      const box = el("div", "msg assistant " + m.status);
      try {
        assistant(m, box);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        post({ type: "renderError", message: why });
        box.replaceChildren();
        box.appendChild(el("div", "error", "quire could not display this answer (" + why + "); here it is as plain text."));
        box.appendChild(el("div", "plain", m.text));
      }
      return box;
    }

    return { inline, blocks, proposal, message };
  }

  return { create, el };
})();
