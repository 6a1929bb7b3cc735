// What every page's script shares: a JSON request whose answer is read whatever its status,
// so that a refusal's message (the body of a 4xx answer) reaches the page.
var canasta = (function () {
  "use strict";

  function answer(r) {
    return r.json().then(function (d) { return {ok: r.ok, status: r.status, data: d}; });
  }

  return {
    // POST body as JSON; resolves to {ok, status, data}
    post: function (url, body) {
      return fetch(url, {method: "POST", headers: {"content-type": "application/json"},
        body: JSON.stringify(body)}).then(answer);
    },
    // GET; resolves to {ok, status, data}
    get: function (url) { return fetch(url).then(answer); }
  };
})();
