// The table of one seat: moves by button or notation, the board replaced by each event.
(function () {
  "use strict";
  var board = document.getElementById("board");
  var token = board.dataset.token;
  var version = Number(board.dataset.version);
  var refusal = document.getElementById("refusal");
  var base = "/api/seat/" + encodeURIComponent(token);

  function show(message) {
    // the answer to a move and the event of the same change both arrive: draw it once,
    // so a button is not replaced under the pointer
    if (message.version <= version) return;
    version = message.version;
    board.innerHTML = message.board;
    board.dataset.version = String(version);
  }

  function send(body) {
    refusal.textContent = "";
    return canasta.post(base + "/move", body).then(function (a) {
      if (!a.ok) { refusal.textContent = a.data.error || ("refused (" + a.status + ")"); return false; }
      show(a.data);
      return true;
    }).catch(function () { refusal.textContent = "the server cannot be reached"; return false; });
  }

  board.addEventListener("click", function (e) {
    var b = e.target.closest("button.move");
    if (b) { send({index: Number(b.dataset.index)}); }
  });
  document.getElementById("notation").addEventListener("submit", function (e) {
    e.preventDefault();
    var input = document.getElementById("move-text");
    send({move: input.value}).then(function (ok) { if (ok) input.value = ""; });
  });

  function listen() {
    var source = new EventSource(base + "/events");
    source.onmessage = function (e) {
      var message = JSON.parse(e.data);
      show(message);
      if (message.over) source.close();
    };
    source.onerror = function () {
      // the server restarted or the link dropped: the browser reconnects by itself
    };
  }
  listen();
})();
