// The studio: the profile checked as it is typed (debounced), problems marked on their lines,
// findings with hints, and beside it the book, the diff against the base and the sheet.
(function () {
  "use strict";
  var text = document.getElementById("profile");
  var gutter = document.getElementById("gutter");
  var problems = document.getElementById("problems");
  var findings = document.getElementById("findings");
  var summary = document.getElementById("summary");
  var preview = document.getElementById("preview");
  var tab = "book";
  var timer = null;
  var seq = 0;
  var marks = {};

  var post = canasta.post;

  function drawGutter() {
    var lines = text.value.split("\n").length;
    gutter.innerHTML = "";
    for (var i = 1; i <= lines; i++) {
      var span = document.createElement("span");
      span.textContent = String(i);
      span.id = "line-" + i;
      if (marks[i]) { span.className = marks[i].cls; span.title = marks[i].title; }
      gutter.appendChild(span);
    }
    text.style.height = (lines * 1.5 + 1.2) + "em";
  }

  function item(list, cls, head, body, hint) {
    var li = document.createElement("li");
    li.className = cls;
    li.textContent = head + body;
    if (hint) {
      var h = document.createElement("span");
      h.className = "hint";
      h.textContent = "hint: " + hint;
      li.appendChild(h);
    }
    list.appendChild(li);
  }

  function showCheck(d) {
    marks = {};
    problems.innerHTML = "";
    findings.innerHTML = "";
    d.problems.forEach(function (p) {
      if (p.line) marks[p.line] = {cls: "bad", title: p.message};
      item(problems, "problem", p.line ? "line " + p.line + ", column " + p.column + ": " : "", p.message);
    });
    d.findings.forEach(function (f) {
      if (f.line && !marks[f.line]) marks[f.line] = {cls: f.severity === "error" ? "bad" : "warn", title: f.message};
      item(findings, f.severity, (f.line ? "line " + f.line + ": " : "") + f.severity + " " + f.code + " " + f.path + ": ", f.message, f.hint);
    });
    if (!d.findings.length) item(findings, "muted", "", d.loads ? "the checker finds nothing" : "none: the profile does not load");
    summary.textContent = d.loads
      ? (d.title + ": loads" + (d.findings.length ? ", " + d.findings.length + " finding(s)" : ", no findings"))
      : d.problems.length + " problem(s): the profile does not load";
    summary.className = "summary " + (d.loads ? "ok" : "bad");
    drawGutter();
    if (d.loads) render();
  }

  function check() {
    var mine = ++seq;
    post("/api/check", {profile: text.value}).then(function (r) {
      if (mine !== seq) return;  // a newer check is on its way
      if (!r.ok) { summary.textContent = r.data.error; return; }
      showCheck(r.data);
    });
  }

  function render() {
    var mine = seq;
    post("/api/" + tab, {profile: text.value}).then(function (r) {
      if (mine !== seq) return;
      if (r.ok) preview.srcdoc = r.data.html;
    });
  }

  text.addEventListener("input", function () {
    drawGutter();
    clearTimeout(timer);
    timer = setTimeout(check, 400);
  });
  document.querySelectorAll(".tabs button").forEach(function (b) {
    b.addEventListener("click", function () {
      document.querySelectorAll(".tabs button").forEach(function (o) { o.setAttribute("aria-selected", "false"); });
      b.setAttribute("aria-selected", "true");
      tab = b.dataset.tab;
      preview.title = b.textContent;
      render();
    });
  });
  document.getElementById("load").addEventListener("click", function () {
    var name = document.getElementById("start").value;
    fetch("/api/profiles/" + encodeURIComponent(name)).then(function (r) { return r.json(); }).then(function (d) {
      if (d.profile === undefined) { summary.textContent = d.error; return; }
      text.value = d.profile;
      if (name.indexOf("saved:") === 0) document.getElementById("save-name").value = name.slice(6);
      drawGutter();
      check();
    });
  });
  document.getElementById("upload").addEventListener("change", function (e) {
    var file = e.target.files[0];
    if (!file) return;
    if (file.size > 256 * 1024) { summary.textContent = "the file is larger than 256 KiB, the limit for a profile"; return; }
    file.text().then(function (t) { text.value = t; drawGutter(); check(); });
  });
  document.getElementById("save").addEventListener("click", function () {
    var name = document.getElementById("save-name").value;
    post("/api/profiles", {name: name, profile: text.value}).then(function (r) {
      document.getElementById("saved").textContent = r.ok ? "saved as " + r.data.file + " in the data folder" : r.data.error;
    });
  });
  document.getElementById("download").addEventListener("click", function () {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text.value], {type: "application/yaml"}));
    a.download = (document.getElementById("save-name").value || "house") + ".yaml";
    a.click();
  });
  document.getElementById("measure").addEventListener("click", function () {
    sessionStorage.setItem("canasta-profile", text.value);
  });
  var kept = sessionStorage.getItem("canasta-profile");
  if (kept) text.value = kept;
  text.addEventListener("input", function () { sessionStorage.setItem("canasta-profile", text.value); });
  drawGutter();
  check();
})();
