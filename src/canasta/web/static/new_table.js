// Open a table: one seat kind per seat of the chosen rules, then one link per seat.
(function () {
  "use strict";
  var seatsBox = document.getElementById("seats");
  var select = document.getElementById("variant");
  var error = document.getElementById("error");
  function drawSeats() {
    var n = Number(select.options[select.selectedIndex].dataset.players) || 4;
    (function () {
      var legend = seatsBox.querySelector("legend");
      seatsBox.innerHTML = "";
      seatsBox.appendChild(legend);
      for (var i = 0; i < n; i++) {
        var label = document.createElement("label");
        label.textContent = "Seat " + i + " ";
        var s = document.createElement("select");
        s.name = "seat"; s.dataset.seat = String(i);
        ["person", "greedy", "random"].forEach(function (k) {
          var o = document.createElement("option");
          o.value = k; o.textContent = k === "person" ? "a person" : k + " bot";
          if ((i === 0 && k === "person") || (i > 0 && k === "greedy")) o.selected = true;
          s.appendChild(o);
        });
        label.appendChild(s);
        seatsBox.appendChild(label);
      }
    })();
  }
  select.addEventListener("change", drawSeats);
  drawSeats();

  document.getElementById("new-table").addEventListener("submit", function (e) {
    e.preventDefault();
    error.textContent = "";
    var seats = Array.prototype.map.call(seatsBox.querySelectorAll("select"), function (s) { return s.value; });
    var hands = document.getElementById("hands").value;
    canasta.post("/api/tables", {variant: select.value, seats: seats, hands: hands ? Number(hands) : null})
      .then(function (a) {
        var d = a.data;
        if (!a.ok) { error.textContent = d.error; return; }
        var list = document.getElementById("link-list");
        list.innerHTML = "";
        d.seats.forEach(function (s) {
          var li = document.createElement("li");
          if (s.kind === "person") {
            var a = document.createElement("a");
            a.href = s.link; a.textContent = "Seat " + s.seat + " (a person)";
            a.className = "seat-link";
            li.appendChild(a);
            li.appendChild(document.createTextNode(" " + location.origin + s.link));
          } else {
            li.textContent = "Seat " + s.seat + ": " + s.kind + " bot";
          }
          list.appendChild(li);
        });
        document.getElementById("links").hidden = false;
      });
  });
})();
