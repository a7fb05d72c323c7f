// Sorting and filtering of the heatmap's rows and of the outline's
// scenes, the outline's edit form, and the choice of one view from the
// address (map.html?view=timeline). The page reads in full without it;
// it only reorders and hides what is already there, and the edit form
// never writes: it hands the change to the editor, or shows the command
// that prints it.
// quireMapInit binds the controls again after a host (the VS Code panel)
// replaced the page's body with a newer map's.
(function () {
  // What the writer chose in the outline and typed in its edit form,
  // kept on the window: a host replacing the body with a newer map (after
  // a save) keeps the window, so the choice and the draft survive it.
  var kept = { outline: null, draft: null };

  function init() {
    var params = new URLSearchParams(location.search);
    var view = params.get("view");
    if (view && document.getElementById(view)) {
      Array.prototype.forEach.call(document.querySelectorAll("main > section"), function (s) { s.hidden = s.id !== view; });
    }
    initHeatmap(params);
    initOutline(params);
  }

  // choose sets each select to the value the address gives it, when the
  // select offers it: map.html?sort=total&type=character&tag=x.
  function choose(params, pairs) {
    pairs.forEach(function (p) {
      var v = params.get(p[0]);
      if (v === null || !p[1]) return;
      v = (p[2] || "") + v;
      if (Array.prototype.some.call(p[1].options, function (o) { return o.value === v; })) p[1].value = v;
    });
  }

  function initHeatmap(params) {
    var rows = document.getElementById("rows");
    if (!rows) return;
    var sort = document.getElementById("sort");
    var type = document.getElementById("filter-type");
    var tag = document.getElementById("filter-tag");
    var count = document.getElementById("row-count");
    var all = Array.prototype.slice.call(rows.rows);
    function num(r, k) { return parseInt(r.getAttribute("data-" + k), 10); }
    var orders = {
      first: function (a, b) { return num(a, "first") - num(b, "first"); },
      total: function (a, b) { return num(b, "total") - num(a, "total") || num(a, "first") - num(b, "first"); },
      type: function (a, b) { return num(a, "rank") - num(b, "rank") || num(b, "total") - num(a, "total") || num(a, "first") - num(b, "first"); },
      name: function (a, b) { var x = a.getAttribute("data-name"), y = b.getAttribute("data-name"); return x < y ? -1 : x > y ? 1 : num(a, "first") - num(b, "first"); }
    };
    function update() {
      var sorted = all.slice().sort(orders[sort.value] || orders.first);
      var shown = 0;
      sorted.forEach(function (r) {
        var ok = (!type.value || r.getAttribute("data-type") === type.value) &&
          (!tag.value || r.getAttribute("data-tags").indexOf("|" + tag.value + "|") >= 0);
        r.hidden = !ok;
        if (ok) shown++;
        rows.appendChild(r);
      });
      count.value = shown + " of " + all.length + " rows";
    }
    choose(params, [["sort", sort], ["type", type], ["tag", tag]]);
    [sort, type, tag].forEach(function (el) { el.addEventListener("change", update); });
    update();
  }

  function initOutline(params) {
    var section = document.getElementById("outline");
    var tree = document.getElementById("outline-tree");
    if (!section || !tree) return;
    var flat = document.getElementById("outline-flat");
    var pov = document.getElementById("outline-pov");
    var status = document.getElementById("outline-status");
    var sort = document.getElementById("outline-sort");
    var count = document.getElementById("outline-count");
    var scenes = Array.prototype.slice.call(tree.querySelectorAll("li.scene"));
    var chapters = Array.prototype.slice.call(tree.querySelectorAll("li.chapter"));
    var acts = Array.prototype.slice.call(tree.querySelectorAll("div.act"));
    // Each scene's list in its chapter, to go back to when sorted by place.
    var homes = scenes.map(function (s) { return s.parentNode; });
    function num(el, k, none) { var v = el.getAttribute("data-" + k); return v === null ? none : parseInt(v, 10); }
    function text(el, k) { return (el.getAttribute("data-" + k) || "").toLowerCase(); }
    function place(a, b) { return num(a, "pos", 0) - num(b, "pos", 0); }
    // Scenes with no point of view, day or status come after the others.
    var orders = {
      pov: function (a, b) {
        var x = text(a, "pov"), y = text(b, "pov");
        return x === y ? place(a, b) : !x ? 1 : !y ? -1 : x < y ? -1 : 1;
      },
      status: function (a, b) { return num(a, "rank", 0) - num(b, "rank", 0) || place(a, b); },
      day: function (a, b) { return num(a, "day", Infinity) - num(b, "day", Infinity) || place(a, b); },
      words: function (a, b) { return num(b, "words", 0) - num(a, "words", 0) || place(a, b); }
    };
    function matches(s) {
      return (!pov.value || "=" + s.getAttribute("data-pov") === pov.value) &&
        (!status.value || "=" + s.getAttribute("data-status") === status.value);
    }
    function update() {
      var shown = 0;
      scenes.forEach(function (s) {
        var ok = matches(s);
        s.hidden = !ok;
        if (ok) shown++;
      });
      var order = orders[sort.value];
      if (order) {
        scenes.slice().sort(order).forEach(function (s) { flat.appendChild(s); });
      } else {
        scenes.forEach(function (s, i) { homes[i].appendChild(s); });
      }
      tree.hidden = !!order;
      flat.hidden = !order;
      // A chapter shows while a filter leaves it a scene; an act while
      // it has a chapter shown.
      var filtered = !!(pov.value || status.value);
      chapters.forEach(function (c) { c.hidden = filtered && !c.querySelector("li.scene:not([hidden])"); });
      acts.forEach(function (a) { a.hidden = !a.querySelector("li.chapter:not([hidden])"); });
      count.value = shown + " of " + scenes.length + (scenes.length === 1 ? " scene" : " scenes");
      kept.outline = { pov: pov.value, status: status.value, sort: sort.value };
    }
    if (kept.outline) {
      choose(new URLSearchParams(kept.outline), [["pov", pov], ["status", status], ["sort", sort]]);
    } else {
      choose(params, [["pov", pov, "="], ["status", status, "="], ["outline-sort", sort]]);
    }
    [pov, status, sort].forEach(function (el) { el.addEventListener("change", update); });
    update();
    initEdit(section);
  }

  // The edit form: one for the page, moved into the card being edited.
  function initEdit(section) {
    var form = document.getElementById("outline-edit");
    if (!form) return;
    var what = document.getElementById("edit-what");
    var synopsis = document.getElementById("edit-synopsis");
    var long = document.getElementById("edit-long");
    var status = document.getElementById("edit-status");
    var submit = document.getElementById("edit-submit");
    var result = document.getElementById("edit-result");
    var card = null, before = null;

    function chapterOf(c) {
      return c.classList.contains("chapter") ? c : document.getElementById("outline-ch-" + c.getAttribute("data-ch"));
    }
    function synopsisOf(c) {
      var full = c.getAttribute("data-full");
      if (full !== null) return full;
      var t = c.querySelector(":scope > .synopsis .text");
      return t ? t.textContent : "";
    }
    function close() {
      if (card) {
        card.querySelector(":scope > button.edit").setAttribute("aria-expanded", "false");
        card.classList.remove("editing");
      }
      form.hidden = true;
      card = before = null;
      kept.draft = null;
    }
    function open(c, draft) {
      close();
      card = c;
      var key = c.getAttribute("data-key");
      var title = c.querySelector(":scope > h4 a, :scope > h5 a");
      what.textContent = "Edit " + (c.classList.contains("chapter") ? "chapter " : "scene ") + (title ? title.textContent : key);
      before = { synopsis: synopsisOf(c), status: c.getAttribute("data-status") || "" };
      var isLong = c.hasAttribute("data-long");
      synopsis.disabled = isLong;
      long.hidden = !isLong;
      synopsis.value = isLong ? "" : draft ? draft.synopsis : before.synopsis;
      // A status the book does not list is offered as it is, so that
      // opening the form changes nothing.
      Array.prototype.slice.call(status.querySelectorAll("option.unlisted")).forEach(function (o) { o.remove(); });
      if (before.status && !Array.prototype.some.call(status.options, function (o) { return o.value === before.status; })) {
        var o = document.createElement("option");
        o.className = "unlisted";
        o.value = before.status;
        o.textContent = before.status + " (not one of the book's)";
        status.appendChild(o);
      }
      status.value = draft ? draft.status : before.status;
      submit.textContent = window.quireMapHost ? "Send to the editor" : "Show the command";
      result.textContent = "";
      c.querySelector(":scope > button.edit").setAttribute("aria-expanded", "true");
      // A scene card being edited takes its row's width, for the form.
      c.classList.add("editing");
      c.insertBefore(form, c.querySelector(":scope > ol.scenes"));
      form.hidden = false;
      keep();
      if (synopsis.disabled) status.focus(); else synopsis.focus();
    }
    function keep() {
      if (card) kept.draft = { key: card.getAttribute("data-key"), synopsis: synopsis.value, status: status.value };
    }
    function squash(s) { return s.replace(/\s+/g, " ").trim(); }

    section.addEventListener("click", function (e) {
      var b = e.target && e.target.closest ? e.target.closest("button.edit") : null;
      if (!b) return;
      var c = b.parentNode;
      if (c === card) close(); else open(c);
    });
    document.getElementById("edit-cancel").addEventListener("click", close);
    synopsis.addEventListener("input", keep);
    status.addEventListener("change", keep);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      if (!card) return;
      var ch = chapterOf(card);
      var request = { uri: ch.getAttribute("data-uri"), scene: parseInt(card.getAttribute("data-scene"), 10) };
      // Only what changed is set: setting a synopsis again would also
      // mark it current, which the writer did not ask for.
      var syn = squash(synopsis.value);
      if (!synopsis.disabled && syn !== squash(before.synopsis)) request.synopsis = syn;
      if (status.value !== before.status) request.status = status.value;
      result.textContent = "";
      if (request.synopsis === undefined && request.status === undefined) {
        say("Nothing changed.");
        return;
      }
      var host = window.quireMapHost;
      if (host && host.setOutline) {
        host.setOutline(request);
        say("Sent to your editor: review the change there, then save.");
        return;
      }
      showCommand(commandLine(section.getAttribute("data-root"), ch.getAttribute("data-path"), request));
    });
    function say(message) {
      var p = document.createElement("p");
      p.className = "said";
      p.textContent = message;
      result.replaceChildren(p);
    }
    function showCommand(line) {
      var p = document.createElement("p");
      p.textContent = "Run this in a terminal: it prints the change as a diff, for you to apply (git apply, patch -p1). quire writes nothing.";
      var pre = document.createElement("pre");
      var code = document.createElement("code");
      code.id = "edit-command";
      code.textContent = line;
      pre.appendChild(code);
      var copy = document.createElement("button");
      copy.type = "button";
      copy.textContent = "Copy";
      copy.addEventListener("click", function () {
        var sel = window.getSelection();
        var range = document.createRange();
        range.selectNodeContents(code);
        sel.removeAllRanges();
        sel.addRange(range);
        if (navigator.clipboard) navigator.clipboard.writeText(line).then(function () { copy.textContent = "Copied"; }, function () {});
      });
      result.replaceChildren(p, pre, copy);
    }

    // A draft the newer page's form takes up again.
    var draft = kept.draft;
    if (draft) {
      var c = section.querySelector('li.card[data-key="' + draft.key + '"]');
      if (c) open(c, draft); else kept.draft = null;
    }
  }

  // commandLine is the quire outline set command that prints the change,
  // each argument quoted for a POSIX shell.
  function commandLine(root, path, request) {
    var args = ["quire", "outline", "set", "--project", root, path, "--scene", String(request.scene)];
    if (request.synopsis !== undefined) args.push("--synopsis", request.synopsis);
    if (request.status !== undefined) args.push("--status", request.status);
    return args.map(quote).join(" ");
  }
  function quote(s) {
    return /^[A-Za-z0-9_.\/:@%+=,-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'";
  }

  // The host's answer to an edit it sent: {type: "outlineResult",
  // applied, message}, shown in the form. Once the editor holds the
  // change the draft is done with: a newer page does not open it again.
  window.addEventListener("message", function (e) {
    var m = e.data;
    if (!m || m.type !== "outlineResult" || typeof m.message !== "string") return;
    if (m.applied) kept.draft = null;
    var result = document.getElementById("edit-result");
    if (!result) return;
    var p = document.createElement("p");
    p.className = m.applied ? "said" : "said refused";
    p.textContent = m.message;
    result.replaceChildren(p);
  });

  window.quireMapInit = init;
  init();
})();
