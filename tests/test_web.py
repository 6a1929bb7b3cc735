"""``canasta serve``: the JSON API (Starlette's TestClient), what a seat is sent, and restarts.

Skipped without the web extra (``pip install 'canasta[web]'``), except in CI,
where ``CANASTA_REQUIRE_EXTRAS=1`` makes a missing extra a failure.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from extras import need
from web_server import SRC, free_port, start_server, stop

need("starlette")
need("jinja2")
need("httpx")

import httpx  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

import canasta  # noqa: E402
from canasta.io.record import parse_record  # noqa: E402
from canasta.play.experiment import experiment  # noqa: E402
from canasta.web.api import MAX_BODY  # noqa: E402
from canasta.web.app import create_app  # noqa: E402
from canasta.web.tables import Table  # noqa: E402

CARD = re.compile(r"^(?:10|[2-9JQKA])[CDHS]$|^JK$")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "data", max_tables=3, max_experiments=1, max_games=10)) as c:
        yield c


def _table(client: TestClient, seats: list[str], variant: str = "classic", hands: int | None = 1,
           seed: int = 11) -> dict[str, Any]:
    r = client.post("/api/tables", json={"variant": variant, "seats": seats, "hands": hands, "seed": seed})
    assert r.status_code == 201, r.text
    return dict(r.json())


class TestVariantsAndCheck:
    """Profiles in, problems and findings out."""

    def test_variants(self, client: TestClient) -> None:
        """Every bundled profile is listed with its title."""
        data = client.get("/api/variants").json()
        assert [v["name"] for v in data["bundled"]] == canasta.variant_names()
        assert data["saved"] == []

    def test_every_problem_with_its_line(self, client: TestClient) -> None:
        """Two mistakes, two problems, each at its line and column."""
        text = "extends: classic\ndeal:\n  hand_size: 0\nfoo: 1\n"
        d = client.post("/api/check", json={"profile": text}).json()
        assert not d["loads"] and not d["ok"]
        assert [(p["line"], p["column"]) for p in d["problems"]] == [(3, 14), (4, 1)]
        assert "hand_size" in d["problems"][0]["message"] and "foot" in d["problems"][1]["message"]

    def test_findings_with_lines_and_hints(self, client: TestClient) -> None:
        """A profile that loads gets the checker's findings, each with its line when the text sets it."""
        text = "extends: classic\nname: big\ndeal:\n  hand_size: 30\nfoot:\n  trigger: empty_hand\n"
        d = client.post("/api/check", json={"profile": text}).json()
        expected = canasta.check_variant(canasta.parse_variant(text))
        assert d["loads"] and [f["code"] for f in d["findings"]] == [x.code for x in expected] == ["C001", "C016"]
        # an error is new_game's refusal: its message ends with what to change
        assert d["findings"][0]["message"] == expected[0].message
        assert expected[0].message.endswith("; deal fewer cards or use more decks (deck.decks: 3)")
        assert d["findings"][1]["hint"] == expected[1].hint != ""
        assert d["findings"][0]["line"] == 4  # deal.hand_size, the option the finding names first
        assert d["findings"][1]["line"] == 6

    def test_extends_only_bundled_or_saved(self, client: TestClient, tmp_path: Path) -> None:
        """No path outside the data folder, however spelled; a saved profile may be extended."""
        secret = tmp_path / "secret.yaml"
        secret.write_text("extends: classic\ntitle: secret\n")
        for target in (str(secret), "../secret.yaml", "/etc/passwd", "profiles/../../secret.yaml"):
            d = client.post("/api/check", json={"profile": f"extends: {target}\n"}).json()
            assert not d["loads"] and d["problems"][0]["line"] == 1, target
            assert "not a bundled profile" in d["problems"][0]["message"]
        r = client.post("/api/profiles", json={"name": "house", "profile": "extends: classic\ntitle: House\ndraw: {count: 2}\n"})
        assert r.status_code == 201, r.text
        d = client.post("/api/check", json={"profile": "extends: house.yaml\nname: child\n"}).json()
        assert d["loads"] and d["title"] == "House", d
        r = client.post("/api/profiles", json={"name": "bad", "profile": f"extends: {secret}\n"})
        assert r.status_code == 422
        # a saved profile whose chain leaves the folder is refused too
        (tmp_path / "data" / "profiles" / "sneaky.yaml").write_text(f"extends: {secret}\n")
        d = client.post("/api/check", json={"profile": "extends: sneaky.yaml\n"}).json()
        assert not d["loads"] and "not a bundled profile" in d["problems"][0]["message"]

    def test_book_diff_sheet(self, client: TestClient) -> None:
        """The book has card faces; the diff states the change; the sheet is a page."""
        text = "extends: classic\ndraw: {count: 2}\n"
        book = client.post("/api/book", json={"profile": text}).json()["html"]
        assert 'class="cf' in book and "<html" in book
        diff = client.post("/api/diff", json={"profile": text}).json()["html"]
        assert "Draw two cards from the stock instead of one." in diff
        sheet = client.post("/api/sheet", json={"variant": "samba"}).json()["html"]
        assert sheet == canasta.rulebook.quick_reference(canasta.load_variant("samba"))

    def test_save_and_download(self, client: TestClient, tmp_path: Path) -> None:
        """A saved profile is a YAML file in the data folder, listed and downloadable."""
        text = "extends: classic\ntitle: Ours\n"
        assert client.post("/api/profiles", json={"name": "ours", "profile": text}).status_code == 201
        assert (tmp_path / "data" / "profiles" / "ours.yaml").read_text() == text
        assert client.get("/api/variants").json()["saved"] == ["ours"]
        r = client.get("/api/profiles/saved:ours?download=1")
        assert r.text == text and "attachment" in r.headers["content-disposition"]
        bad = client.post("/api/profiles", json={"name": "../x", "profile": text})
        assert bad.status_code == 400 and "name" in bad.json()["error"]


class TestHostile:
    """Bad requests get clear JSON errors and change nothing."""

    def test_refusal_survives_a_process_boundary(self) -> None:
        """A refusal raised in a worker process reaches the parent with its status and words."""
        import pickle

        from canasta.web.tables import ApiError

        back = pickle.loads(pickle.dumps(ApiError(404, "no such table")))
        assert (type(back), back.status, back.message, str(back)) == (ApiError, 404, "no such table", "no such table")

    def test_body_too_large(self, client: TestClient) -> None:
        """Every body is read with a limit."""
        r = client.post("/api/check", content=b"x" * (MAX_BODY + 1), headers={"content-type": "application/json"})
        assert r.status_code == 413 and "larger" in r.json()["error"]

    def test_not_json(self, client: TestClient) -> None:
        """A body that is not a JSON object."""
        for body in (b"{", b"[1]", b"\xff"):
            r = client.post("/api/check", content=body, headers={"content-type": "application/json"})
            assert r.status_code == 400 and "error" in r.json()

    def test_only_json_bodies(self, client: TestClient) -> None:
        """A form or text/plain, which another site's page could send unasked, is refused."""
        profile = json.dumps({"name": "x", "profile": "extends: classic\n"})
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
            r = client.post("/api/profiles", content=profile, headers={"content-type": kind})
            assert r.status_code == 415, kind
        assert client.get("/api/variants").json()["saved"] == []

    def test_loader_limits(self, client: TestClient) -> None:
        """The loader's own guards: aliases are refused, not expanded."""
        bomb = "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n"
        d = client.post("/api/check", json={"profile": bomb}).json()
        assert not d["loads"] and d["problems"]

    def test_table_cap(self, client: TestClient) -> None:
        """At most max_tables tables run at once."""
        for _ in range(3):
            _table(client, ["person", "greedy", "greedy", "greedy"])
        r = client.post("/api/tables", json={"variant": "classic", "seats": ["person", "greedy", "greedy", "greedy"]})
        assert r.status_code == 429

    def test_bad_seats(self, client: TestClient) -> None:
        """Seats: one kind per seat, a person among them."""
        for seats in (["person"], ["greedy"] * 4, ["person", "wizard", "greedy", "greedy"], "person"):
            r = client.post("/api/tables", json={"variant": "classic", "seats": seats})
            assert r.status_code == 400 and "seats" in r.json()["error"], seats

    def test_token_is_the_only_key(self, client: TestClient) -> None:
        """A wrong or missing token opens nothing; bots' seats have no link; the table id opens nothing."""
        t = _table(client, ["person", "greedy", "person", "greedy"])
        assert t["seats"][1]["token"] is None and t["seats"][1]["link"] is None
        for bad in ("x" * 24, t["table"], "", "../" + t["seats"][0]["token"]):
            r = client.get(f"/api/seat/{bad}")
            assert r.status_code == 404, bad
        r = client.get(f"/seat/{'y' * 24}")
        assert r.status_code == 404 and "no seat has this link" in r.text and "<html" in r.text.lower()

    def test_moves_refused_in_the_rules_words(self, client: TestClient) -> None:
        """Not a move: 400; a move the rules forbid: 422 with the rule; not your turn: 409."""
        t = _table(client, ["person", "person", "greedy", "greedy"])
        me, other = t["seats"][0]["token"], t["seats"][1]["token"]
        view = client.get(f"/api/seat/{me}").json()
        mover = me if view["view"]["current"] == 0 else other
        waiter = other if mover == me else me
        r = client.post(f"/api/seat/{mover}/move", json={"move": "discard 9"})
        assert r.status_code == 422 and "first draw" in r.json()["error"]
        assert client.post(f"/api/seat/{mover}/move", json={"move": "dance"}).status_code == 400
        assert client.post(f"/api/seat/{mover}/move", json={"index": 99}).status_code == 400
        assert client.post(f"/api/seat/{waiter}/move", json={"move": "draw"}).status_code == 409
        assert client.get(f"/api/seat/{mover}").json()["version"] == view["version"]

    def test_experiment_cap_and_games(self, client: TestClient) -> None:
        """Games per experiment and experiments at once are capped."""
        r = client.post("/api/experiments", json={"variant": "draw-two", "games": 11})
        assert r.status_code == 400
        first = client.post("/api/experiments", json={"variant": "draw-two", "games": 10})
        assert first.status_code == 202
        second = client.post("/api/experiments", json={"variant": "draw-two", "games": 1})
        if client.get(f"/api/experiments/{first.json()['id']}").json()["status"] == "running":
            assert second.status_code == 429

    def test_other_host_names_refused(self, tmp_path: Path) -> None:
        """A server for this computer answers only requests addressed to it by a loopback name."""
        app = create_app(tmp_path / "data", hosts=["127.0.0.1", "localhost"])
        with TestClient(app, base_url="http://localhost:8000") as client:
            assert client.get("/api/variants").status_code == 200
        with TestClient(app, base_url="http://evil.example:8000") as client:
            assert client.get("/api/variants").status_code == 400

    def test_event_stream_cap(self, tmp_path: Path) -> None:
        """Event streams open at once are capped too."""
        with TestClient(create_app(tmp_path / "data", max_streams=0)) as client:
            token = _table(client, ["person", "greedy"], variant="classic-2p")["seats"][0]["token"]
            r = client.get(f"/api/seat/{token}/events")
            assert r.status_code == 429 and "event streams" in r.json()["error"]

    def test_unknown_api_path(self, client: TestClient) -> None:
        """An unknown API path is a JSON 404."""
        r = client.get("/api/nothing")
        assert r.status_code == 404 and r.json()["error"]


def _cards(node: Any) -> Counter[str]:
    """Every card named anywhere in ``node`` (a message's JSON)."""
    found: Counter[str] = Counter()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, dict):
            todo.extend(n.values())
        elif isinstance(n, list):
            todo.extend(n)
        elif isinstance(n, str) and CARD.match(n):
            found[n] += 1
    return found


def _finished(client: TestClient, run_id: str) -> dict[str, Any]:
    """The experiment's state once it has stopped running (at most two minutes)."""
    deadline = time.monotonic() + 120
    while True:
        d: dict[str, Any] = client.get(f"/api/experiments/{run_id}").json()
        if d["status"] != "running" or time.monotonic() > deadline:
            return d
        time.sleep(0.1)


class TestExperiments:
    """House rules against their base, in the background."""

    def test_result_and_plots(self, client: TestClient) -> None:
        """Progress up to the games asked for, then the table as the command line prints it
        and the plots (when matplotlib is installed)."""
        from canasta.web.experiments import plots_available

        text = "extends: classic-2p\nname: one-draw\ndraw: {count: 1}\n"
        r = client.post("/api/experiments", json={"profile": text, "games": 2, "seed": 4})
        assert r.status_code == 202 and r.json()["variants"] == ["classic-2p", "one-draw"]
        run_id = r.json()["id"]
        d = _finished(client, run_id)
        assert d["status"] == "done", d
        assert d["done"] == 2 and d["result"]["games"] == 2
        expected = experiment([canasta.load_variant("classic-2p"), canasta.parse_variant(text)], 2,
                              ("greedy", "greedy"), seed=4)
        assert d["table"] == str(expected)
        assert bool(d["plots"]) == plots_available()
        for name in d["plots"]:
            png = client.get(f"/api/experiments/{run_id}/plots/{name}")
            assert png.headers["content-type"] == "image/png" and png.content.startswith(b"\x89PNG")
        assert client.get(f"/api/experiments/{run_id}/plots/nothing.png").status_code == 404

    def test_seats_must_match(self, client: TestClient) -> None:
        """A base with other seats: the experiment fails, saying why."""
        r = client.post("/api/experiments", json={"variant": "classic-2p", "base": "classic", "games": 1})
        run_id = r.json()["id"]
        d = _finished(client, run_id)
        assert d["status"] == "failed" and "same seats" in d["error"]


class TestFinishedTables:
    """A finished table stays readable for its players."""

    def test_after_a_restart(self, tmp_path: Path) -> None:
        """A hand played to its end: after a new start its seat still shows the end and its record."""
        with TestClient(create_app(tmp_path / "data")) as client:
            t = _table(client, ["person", "greedy"], variant="classic-2p", hands=1)
            token = t["seats"][0]["token"]
            rng = random.Random(2)
            m = client.get(f"/api/seat/{token}").json()
            while not m["over"]:
                m = client.post(f"/api/seat/{token}/move", json={"index": rng.randrange(len(m["legal"]))}).json()
            record = client.get(f"/api/seat/{token}/record").text
        app = create_app(tmp_path / "data")
        assert app.state.restored == 0  # only running tables are dealt again at the start
        with TestClient(app) as client:
            again = client.get(f"/api/seat/{token}").json()
            assert again["over"] and again["version"] == m["version"] and again["view"] == m["view"]
            assert again["hand_ends"] == m["hand_ends"] and again["legal"] == []
            assert client.get(f"/api/seat/{token}/record").text == record
            assert client.post(f"/api/seat/{token}/move", json={"move": "next"}).status_code == 409


def _names(cards: Any) -> list[str]:
    return [str(canasta.Card(c)) if isinstance(c, int) else str(c) for c in cards]


def _visible(state: canasta.GameState, seat: int) -> Counter[str]:
    """The cards ``seat`` may see: its hand, the pile (and pile cards held aside), the melds
    and the red 3s laid."""
    seen: Counter[str] = Counter(_names(state.hands_[seat]))
    seen.update(_names(state.pile_))
    for side in state.melds_:
        for meld in side:
            seen.update(_names(meld.cards))
    for threes in state.red_threes_:
        seen.update(_names(threes))
    seen.update(_names(state.turn.pending))  # pile cards held aside by a take: seen face up
    return seen


def _check_message(message: dict[str, Any], state: canasta.GameState) -> None:
    """A message holds no card its seat may not see."""
    seat = message["seat"]
    visible = _visible(state, seat)
    view = message["view"]
    main = _cards({k: v for k, v in view.items() if k != "turn"})
    assert not main - visible, f"seat {seat} was sent {main - visible}"
    for key, cards in view["turn"].items():  # drawn, played, pending: each a list of seen cards
        assert not _cards(cards) - visible, (key, cards)
    assert not _cards(message["log"]) and not _cards(message["hand_ends"])
    assert sorted(view["hand"]) == sorted(str(canasta.Card(c)) for c in state.hands_[seat])
    assert "stock" not in view and "hands" not in view
    faces = len(re.findall(r'class="cf[ "]', message["board"]))
    assert faces <= sum(visible.values()) + len(_cards(view["turn"]))


class TestWhatASeatIsSent:
    """A seat's messages hold its own hand and public cards only."""

    def test_every_message_of_a_whole_game(self, tmp_path: Path) -> None:
        """Two people (partners' opponents) and two bots play a whole game; every answer,
        view and event a person's seat receives is checked against the true state."""
        app = create_app(tmp_path / "data")
        tables = app.state.tables
        with TestClient(app) as client:
            t = _table(client, ["person", "person", "greedy", "greedy"], variant="classic", hands=None)
            tokens = {0: t["seats"][0]["token"], 1: t["seats"][1]["token"]}
            table = tables.get(t["table"])
            bot = canasta.GreedyBot()
            rng = random.Random(5)
            received = 0
            for _ in range(5000):
                if table.over:
                    break
                state = table.state
                for token in tokens.values():
                    m = client.get(f"/api/seat/{token}").json()
                    _check_message(m, state)
                    received += 1
                seat = state.current_player
                if state.is_hand_over:
                    body: dict[str, Any] = {"move": "next"}
                    seat = 0
                else:
                    assert seat in tokens, "bots play until a person is to move"
                    body = {"move": str(bot.choose(state.view(seat), rng))}
                r = client.post(f"/api/seat/{tokens[seat]}/move", json=body)
                assert r.status_code == 200, r.text
                _check_message(r.json(), table.state)
                received += 1
            assert table.over and table.state.is_game_over
            # the event stream of a finished table sends its last message and ends
            with client.stream("GET", f"/api/seat/{tokens[1]}/events") as events:
                lines = [line for line in events.iter_lines() if line.startswith("data: ")]
            assert len(lines) == 1
            last = json.loads(lines[0][6:])
            _check_message(last, table.state)
            assert last["over"] and last["legal"] == []
            assert len(table.hand_ends) >= 2 and received > 100
            record = client.get(f"/api/seat/{tokens[0]}/record").text
            assert parse_record(record).replay().scores == table.state.scores

    def test_events_follow_the_moves(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """Each change is an event with a larger version, each holds only what the seat may
        see at that version, and the stream ends with the table."""
        states: dict[int, canasta.GameState] = {}
        advance = Table.advance

        def kept(self: Table, seat: int, move: canasta.Move, after: canasta.GameState) -> None:
            advance(self, seat, move, after)
            states[self.version] = after

        monkeypatch.setattr(Table, "advance", kept)
        app = create_app(tmp_path / "data")
        with TestClient(app) as client:
            t = _table(client, ["person", "random"], variant="classic-2p", hands=1)
            token = t["seats"][0]["token"]
            table = app.state.tables.get(t["table"])
            states[table.version] = table.state
            got: list[dict[str, Any]] = []

            def listen() -> None:
                with client.stream("GET", f"/api/seat/{token}/events") as events:
                    for line in events.iter_lines():
                        if line.startswith("data: "):
                            got.append(json.loads(line[6:]))

            listener = threading.Thread(target=listen)
            listener.start()
            rng = random.Random(1)
            while not table.over:
                legal = client.get(f"/api/seat/{token}").json()["legal"]
                client.post(f"/api/seat/{token}/move", json={"index": rng.randrange(len(legal))})
            listener.join(60)
            assert not listener.is_alive()
            versions = [m["version"] for m in got]
            assert versions == sorted(set(versions)) and got[-1]["over"]
            # a slow listener may be sent only the newest version of several moves,
            # so the count depends on the machine: at least the deal and the end
            assert got[-1]["version"] == table.version and len(got) >= 2
            for message in got:
                _check_message(message, states[message["version"]])


class TestRestart:
    """Tables survive the server."""

    def test_kill_mid_game_loses_no_move(self, tmp_path: Path) -> None:
        """Every acknowledged move is there after a SIGKILL and a new start, and play goes on."""
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(tmp_path / "data", port)
        try:
            t = httpx.post(f"{base}/api/tables", json={"variant": "classic", "hands": None,
                                                       "seats": ["person", "greedy", "greedy", "greedy"]}).json()
            token = t["seats"][0]["token"]
            rng = random.Random(3)
            last: dict[str, Any] = {}
            for _ in range(25):
                legal = httpx.get(f"{base}/api/seat/{token}").json()["legal"]
                r = httpx.post(f"{base}/api/seat/{token}/move", json={"index": rng.randrange(len(legal))})
                assert r.status_code == 200, r.text
                last = r.json()
            stop(server)  # SIGKILL: nothing is flushed on the way out
            server = start_server(tmp_path / "data", port)
            again = httpx.get(f"{base}/api/seat/{token}").json()
            assert again["version"] == last["version"]
            assert again["view"] == last["view"] and again["log"] == last["log"]
            record = httpx.get(f"{base}/api/seat/{token}/record").text
            assert record.count("\n") > last["version"]
            r = httpx.post(f"{base}/api/seat/{token}/move", json={"index": 0})
            assert r.status_code == 200 and r.json()["version"] > last["version"]
        finally:
            stop(server)


class TestCommandLine:
    """``canasta serve`` on the command line."""

    def test_missing_extra(self) -> None:
        """Without the extra: one line naming the install command, exit 1."""
        code = ("import sys; sys.modules['starlette'] = None; from canasta.cli import main; "
                "sys.exit(main(['serve']))")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(SRC)}, timeout=60)
        assert r.returncode == 1
        assert r.stderr.strip().count("\n") == 0 and "pip install 'canasta[web]'" in r.stderr

    def test_import_canasta_leaves_web_alone(self) -> None:
        """``import canasta`` imports neither the web package nor its stack."""
        code = "import sys, canasta; print([m for m in sys.modules if m.startswith(('canasta.web', 'starlette', 'uvicorn', 'jinja2'))])"
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(SRC)}, timeout=60)
        assert r.stdout.strip() == "[]", r.stdout + r.stderr

    def test_default_data_folder(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """The default data folder is made on first use, under XDG_DATA_HOME on Linux."""
        from canasta.web.profiles import default_data_dir

        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
        if sys.platform.startswith("linux"):
            assert default_data_dir() == tmp_path / "xdg" / "canasta"
        create_app(None if sys.platform.startswith("linux") else tmp_path / "d")
        assert (default_data_dir() if sys.platform.startswith("linux") else tmp_path / "d").is_dir()
