// Run an experiment and follow its progress; then its table and plots.
(function () {
  "use strict";
  var profile = document.getElementById("profile");
  var error = document.getElementById("error");
  var bar = document.getElementById("progress");
  var barText = document.getElementById("progress-text");
  var kept = sessionStorage.getItem("canasta-profile");
  if (kept) profile.value = kept;

  function num(x, pct) { return (pct ? (x * 100).toFixed(1) + "%" : (Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2))); }

  function cell(row, text, tag, cls) {
    var c = document.createElement(tag || "td");
    c.textContent = text;
    if (cls) c.className = cls;
    row.appendChild(c);
  }

  function measuresTable(result) {
    var table = document.getElementById("measures");
    table.innerHTML = "";
    var head = table.createTHead().insertRow();
    cell(head, "measure", "th");
    result.variants.forEach(function (v) { cell(head, v, "th"); });
    result.variants.slice(1).forEach(function (v) { cell(head, v + " \u2212 " + result.variants[0], "th"); });
    var body = table.createTBody();
    result.measures.forEach(function (m) {
      var pct = m.rate || m.name.indexOf("share ") === 0;
      var row = body.insertRow();
      cell(row, m.name);
      m.values.forEach(function (v) { cell(row, num(v.mean, pct)); });
      m.differences.forEach(function (x) {
        cell(row, num(x.mean, pct) + " [" + num(x.ci95[0], pct) + ", " + num(x.ci95[1], pct) + "]" +
             (x.significant ? " *" : ""), "td", x.significant ? "sig" : "");
      });
    });
  }

  function showResult(d) {
    document.getElementById("table").textContent = d.table;
    measuresTable(d.result);
    var plots = document.getElementById("plots");
    plots.innerHTML = "";
    if (!d.plots_available) {
      var p = document.createElement("p");
      p.textContent = "No plots: they need matplotlib (pip install 'canasta[plot]').";
      plots.appendChild(p);
    }
    d.plots.forEach(function (name) {
      var img = document.createElement("img");
      img.src = "/api/experiments/" + d.id + "/plots/" + encodeURIComponent(name);
      img.alt = name;
      plots.appendChild(img);
    });
    document.getElementById("result").hidden = false;
  }

  function follow(id) {
    canasta.get("/api/experiments/" + id).then(function (a) {
      var d = a.data;
      if (!a.ok) { error.textContent = d.error; return; }
      bar.max = d.games; bar.value = d.done;
      barText.textContent = d.done + " of " + d.games + " games";
      if (d.status === "running") { setTimeout(function () { follow(id); }, 500); return; }
      if (d.status === "failed") { error.textContent = d.error; return; }
      barText.textContent = "done: " + d.games + " games of each";
      showResult(d);
    });
  }

  document.getElementById("experiment").addEventListener("submit", function (e) {
    e.preventDefault();
    error.textContent = "";
    document.getElementById("result").hidden = true;
    var body = {games: Number(document.getElementById("games").value)};
    var v = document.getElementById("variant").value;
    if (v) body.variant = v; else body.profile = profile.value;
    var base = document.getElementById("base").value;
    if (base) body.base = base;
    canasta.post("/api/experiments", body).then(function (a) {
      if (!a.ok) { error.textContent = a.data.error; return; }
      bar.hidden = false; bar.value = 0;
      follow(a.data.id);
    });
  });
})();
