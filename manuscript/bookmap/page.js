// Sorting and filtering of the heatmap's rows, and the choice of one
// view from the address (map.html?view=timeline). The page reads in full
// without it; it only reorders and hides what is already there.
// quireMapInit binds the controls again after a host (the VS Code panel)
// replaced the page's body with a newer map's.
(function () {
  function init() {
    var params = new URLSearchParams(location.search);
    var view = params.get("view");
    if (view && document.getElementById(view)) {
      Array.prototype.forEach.call(document.querySelectorAll("main > section"), function (s) { s.hidden = s.id !== view; });
    }
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
    // A link may choose the view: map.html?sort=total&type=character&tag=x.
    [["sort", sort], ["type", type], ["tag", tag]].forEach(function (p) {
      var v = params.get(p[0]);
      if (v !== null && Array.prototype.some.call(p[1].options, function (o) { return o.value === v; })) p[1].value = v;
    });
    [sort, type, tag].forEach(function (el) { el.addEventListener("change", update); });
    update();
  }
  window.quireMapInit = init;
  init();
})();
