"""benchmarks/anchor.py: the side-by-side run against OpenSpiel, on tiny workloads.

Nothing here times anything (speed is measured by running the script by hand):
these tests check that the rounds alternate, that both sides play the number
of moves asked, that the report names the engine and gives the median ratio,
and that the options which pick an interpreter or an engine do what they say.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import re
import statistics
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

import canasta
from canasta.engine import COMPILED
from extras import need

ROOT = Path(__file__).resolve().parents[1]


def load_script(name: str) -> ModuleType:
    """benchmarks/NAME.py as a module (benchmarks/ is no package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


anchor = load_script("anchor")


class TestAlternate:
    """Rounds run both sides, in an order that alternates."""

    def test_order_alternates(self) -> None:
        """Round 0 runs a first, round 1 b first, and each pair is (a, b) whatever the order."""
        calls: list[str] = []

        def a(r: int) -> float:
            calls.append(f"a{r}")
            return 10.0 + r

        def b(r: int) -> float:
            calls.append(f"b{r}")
            return 1.0 + r

        pairs = anchor.alternate(a, b, 4)
        assert calls == ["a0", "b0", "b1", "a1", "a2", "b2", "b3", "a3"]
        assert pairs == [(10.0, 1.0), (11.0, 2.0), (12.0, 3.0), (13.0, 4.0)]


class TestReexec:
    """--python re-runs the script under another interpreter, without --python."""

    @pytest.mark.parametrize("spelling", [["--python", "/v/bin/python"], ["--python=/v/bin/python"]])
    def test_python_option_dropped(
        self, monkeypatch: pytest.MonkeyPatch, spelling: list[str]
    ) -> None:
        """--python (either spelling) is removed, the rest is passed on, PYTHONPATH is not."""
        seen: dict[str, object] = {}

        class Done:
            returncode = 7

        def fake_run(cmd: list[str], env: dict[str, str]) -> Done:
            seen["cmd"], seen["env"] = cmd, env
            return Done()

        monkeypatch.setattr(anchor.subprocess, "run", fake_run)
        monkeypatch.setenv("PYTHONPATH", "/somewhere/src")
        argv = ["classic", *spelling, "--rounds", "3"]
        assert anchor.main(argv) == 7
        cmd = seen["cmd"]
        assert isinstance(cmd, list)
        assert cmd[:2] == ["/v/bin/python", "-I"]
        assert Path(cmd[2]).name == "anchor.py"
        assert cmd[3:] == ["classic", "--rounds", "3"]
        env = seen["env"]
        assert isinstance(env, dict) and "PYTHONPATH" not in env


class TestRun:
    """A short run against gin_rummy (needs the openspiel extra)."""

    def test_rates_count_the_moves_asked(self) -> None:
        """Both sides stop after exactly the moves asked, across hand boundaries."""
        pyspiel = need("pyspiel")
        game = pyspiel.load_game("gin_rummy")
        assert anchor.uniform_chance(game, 2, 1)
        counted: list[int] = []
        real = game.new_initial_state

        class Counting:
            """A gin_rummy state that counts the decisions applied to it."""

            def __init__(self) -> None:
                self.s = real()

            def __getattr__(self, name: str) -> object:
                return getattr(self.s, name)

            def apply_action(self, action: int) -> None:
                if not self.s.is_chance_node():
                    counted.append(action)
                self.s.apply_action(action)

        class Game:
            def new_initial_state(self) -> Counting:
                return Counting()

        rate, with_chance = anchor.theirs_rate(Game(), 250, 3, True)
        assert len(counted) == 250  # more than one gin_rummy hand's decisions
        assert with_chance > rate > 0
        v = canasta.load_variant("classic")
        assert anchor.ours_rate(v, 250, 3) > 0

    def test_report(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The report names the engine, gives a line per round and their median ratio."""
        need("pyspiel")
        assert anchor.main(["classic", "--moves", "150", "--rounds", "3", "--clock", "wall"]) == 0
        out = capsys.readouterr().out
        engine = "compiled with mypyc" if COMPILED else "pure Python"
        assert f"classic ({engine} engine" in out
        assert "wall clock" in out
        rows = re.findall(r"^\s+(\d) +(\d+) +(\d+) +\( *(\d+)\) +([\d.]+)$", out, flags=re.M)
        assert [r[0] for r in rows] == ["1", "2", "3"]
        ratios = [float(r[4]) for r in rows]
        shown = float(re.search(r"median ratio ours/gin_rummy: ([\d.]+)", out).group(1))  # type: ignore[union-attr]
        assert shown == pytest.approx(statistics.median(ratios), abs=0.006)

    def test_require_other_engine_fails(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--require names the engine wanted; the other one makes the script exit 1."""
        need("pyspiel")
        other = "python" if COMPILED else "compiled"
        assert anchor.main(["--require", other, "--moves", "10", "--rounds", "1"]) == 1
        assert f"expected the {other} engine" in capsys.readouterr().err


def test_script_help_runs() -> None:
    """The script's --help works as a script (argparse reads its docstring)."""
    import subprocess

    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "anchor.py"), "--help"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "gin_rummy" in done.stdout and "--python" in done.stdout


class TestBots:
    """benchmarks/bots.py: greedy against greedy beside gin_rummy, and the parts of a decision."""

    def test_rate_counts_the_decisions_asked(self) -> None:
        """A round plays exactly the decisions asked, over more than one hand."""
        bots = load_script("bots")
        v = canasta.load_variant("classic")
        asked: list[object] = []

        class Counting(canasta.GreedyBot):
            def choose(self, view: canasta.SeatView, rng: random.Random) -> canasta.Move:
                asked.append(view)
                return super().choose(view, rng)

        assert bots.bot_rate(v, Counting(), 300, 3) > 0
        assert len(asked) == 300  # more than one classic hand's decisions

    def test_parts_time_each_position(self) -> None:
        """The four parts of a decision, each a positive time per decision."""
        bots = load_script("bots")
        v = canasta.load_variant("classic")
        parts = bots.parts(v, canasta.GreedyBot(), 1, 2, 1)
        assert [name for name, _ in parts] == [
            "state.view(seat)", "view.legal_moves(), first call",
            "greedy bot's own work (moves listed)", "state.apply(move)",
        ]
        assert all(us > 0 for _, us in parts)

    def test_report(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The report names the engine and the bots, a line per round, their median ratio and the parts."""
        need("pyspiel")
        bots = load_script("bots")
        assert bots.main(["classic", "--moves", "150", "--rounds", "3", "--hands", "1", "--passes", "1"]) == 0
        out = capsys.readouterr().out
        engine = "compiled with mypyc" if COMPILED else "pure Python"
        assert f"classic, greedy against greedy ({engine} engine" in out
        rows = re.findall(r"^\s+(\d) +(\d+) +(\d+) +([\d.]+)$", out, flags=re.M)
        assert [r[0] for r in rows] == ["1", "2", "3"]
        shown = float(re.search(r"median ratio ours/gin_rummy: ([\d.]+)", out).group(1))  # type: ignore[union-attr]
        assert shown == pytest.approx(statistics.median(float(r[3]) for r in rows), abs=0.006)
        assert re.search(r"^  state\.apply\(move\) +[\d.]+ µs$", out, flags=re.M)

    def test_python_option_reruns_this_script(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """--python re-runs bots.py (not anchor.py) under that interpreter, without --python."""
        bots = load_script("bots")
        seen: list[list[str]] = []

        class Done:
            returncode = 5

        def fake_run(cmd: list[str], **_: object) -> Done:
            seen.append(cmd)
            return Done()

        monkeypatch.setattr(bots._anchor().subprocess, "run", fake_run)
        assert bots.main(["--python", "/x/python", "--rounds", "2"]) == 5
        assert seen[0][:2] == ["/x/python", "-I"]
        assert Path(seen[0][2]).name == "bots.py"
        assert seen[0][3:] == ["--rounds", "2"]


class TestPhases:
    """playout.py --phases: the legal_moves() calls sorted by kind of position."""

    def test_every_call_is_sorted_once(self) -> None:
        """The kinds partition the calls of call_times' pass (same deals, same moves), and a
        classic hand has draws both ways and play by an opened side."""
        playout = load_script("playout")
        v = canasta.load_variant("classic")
        times = playout.phase_times(v, 2, 3)
        assert set(times) == set(playout.PHASES)
        lm, _ = playout.call_times(v, 2, 3)
        assert sum(len(ts) for ts in times.values()) == len(lm)
        for kind in ("draw alone", "draw, pile takable", "play, opened"):
            assert times[kind], kind

    def test_report(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The report gives each kind's share and the overall median."""
        playout = load_script("playout")
        assert playout.main(["classic", "--phases", "--hands", "1", "--seed", "2"]) == 0
        out = capsys.readouterr().out
        assert "legal_moves() calls" in out
        shares = [float(x) for x in re.findall(r"^(?:draw|play|other)[^%]*?([\d.]+)%", out, flags=re.M)]
        assert shares and sum(shares) == pytest.approx(100, abs=0.6)
        # the overall median, then the median of the second calls
        assert re.search(r"^all +100% +[\d.]+ +[\d.]+$", out, flags=re.M)

    def test_second_calls_match_the_first(self) -> None:
        """``again`` gets one second call per first call, of the same kind of position."""
        playout = load_script("playout")
        v = canasta.load_variant("classic")
        again: dict[str, list[float]] = {name: [] for name in playout.PHASES}
        times = playout.phase_times(v, 2, 3, again)
        assert {k: len(ts) for k, ts in again.items()} == {k: len(ts) for k, ts in times.items()}
        assert all(t > 0 for ts in again.values() for t in ts)


class TestCampaign:
    """benchmarks/campaign.py: generated house profiles played, failures shrunk and grouped."""

    def test_two_variants(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """Two variants: counted, played with both policies, every call timed, the JSON report written."""
        campaign = load_script("campaign")
        out = tmp_path / "report.json"
        rc = campaign.main(["--variants", "2", "--seed", "7", "--out", str(out), "--quiet", "--hands", "1"])
        data = json.loads(out.read_text(encoding="utf-8"))
        v = data["variants"]
        assert v["generated"] == 2
        assert v["refused_by_loader"] + v["played"] + v["refused_by_new_game"] == 2
        assert data["hands"] == 2 * v["played"]
        assert data["calls_ms"]["legal_moves"]["n"] > 0 and data["calls_ms"]["play"]["max"] > 0
        assert rc == (1 if data["classes"] else 0)
        assert "variants generated 2" in capsys.readouterr().out

    def test_failure_shrunk_and_grouped(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A failure that needs one option is shrunk to that option, and two such fall in one class."""
        campaign = load_script("campaign")
        hr = campaign.hr
        real = hr.play_hand

        def fails_with_four_decks(v: canasta.Variant, seed: int, policy: object, **kw: object) -> object:
            if v.deck.decks == 4:
                return hr.Failure("dead-end", "made up", 3)
            return real(v, seed, policy, **kw)

        monkeypatch.setattr(hr, "play_hand", fails_with_four_decks)
        tally = campaign.Tally()
        for extra in (("draw.count", 3), ("pile.take_lay_off", False)):
            profile = hr.HouseProfile("classic", (("deck.decks", 4), extra, ("players.count", 2)))
            campaign.run_variant(profile, 5, ["random"], 0.25, tally)
        assert list(tally.classes) == [("dead-end", ("deck.decks",))]
        found = tally.classes[("dead-end", ("deck.decks",))]
        assert len(found) == 2 and found[0].move_index == 3
        assert found[0].profile.text() == "extends: classic\ndeck: {decks: 4}\n"

    def test_replay(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """--replay plays a reproducer's hand again and says how it ended."""
        campaign = load_script("campaign")
        profile = tmp_path / "house.yaml"
        profile.write_text("extends: classic\ndraw: {count: 2}\n", encoding="utf-8")
        assert campaign.main(["--replay", str(profile), "--deal-seed", "3", "--policy", "greedy"]) == 0
        assert f"the first {campaign.DEFAULT_HANDS} hands ended as they should" in capsys.readouterr().out

    def test_later_hands(self, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch) -> None:
        """--hands plays that many hands of each game, counts them, and a failure in a later
        hand is reported with its hand, which --replay --hands plays to again."""
        campaign = load_script("campaign")
        hr = campaign.hr
        out = tmp_path / "report.json"
        campaign.main(["--variants", "1", "--seed", "7", "--hands", "2", "--out", str(out), "--quiet",
                       "--policies", "greedy"])
        data = json.loads(out.read_text(encoding="utf-8"))
        assert data["hands_per_game"] == 2
        assert data["variants"]["played"] == 1 and data["hands"] == 2
        capsys.readouterr()
        real = hr.play_hand

        def fails_in_hand_two(v: canasta.Variant, seed: int, policy: object, *, hands: int = 1, **kw: object) -> object:
            if hands >= 2 and v.draw.count == 2:
                return hr.Failure("dead-end", "made up", 5, 2)
            return real(v, seed, policy, hands=hands, **kw)

        monkeypatch.setattr(hr, "play_hand", fails_in_hand_two)
        tally = campaign.Tally()
        campaign.run_variant(hr.HouseProfile("classic", (("draw.count", 2),)), 5, ["random"], 0.25, tally, hands=2)
        (found,) = tally.classes[("dead-end", ("draw.count",))]
        assert (found.hand, found.move_index) == (2, 5)
        assert tally.hands == 1  # the failing hand; none ended in full
        args = campaign.argparse.Namespace(seed=0, limit_ms=250.0, policies=["random"], hands=2, jobs=1)
        text = campaign.render(campaign.report(tally, args, 60.0))
        assert "hand 2, move index 5" in text and "--policy random --hands 2`" in text
        profile = tmp_path / "house.yaml"
        profile.write_text(found.profile.text(), encoding="utf-8")
        assert campaign.main(["--replay", str(profile), "--deal-seed", "5", "--policy", "random", "--hands", "2"]) == 1
        assert "dead-end in hand 2 at move index 5: made up" in capsys.readouterr().out
        assert campaign.main(["--replay", str(profile), "--deal-seed", "5", "--policy", "random", "--hands", "1"]) == 0
        assert "the hand ended as it should" in capsys.readouterr().out

    def test_times_percentiles(self) -> None:
        """The binned percentiles are within a bin (about 1.2%) of the exact ones, and merging adds up."""
        campaign = load_script("campaign")
        rng = random.Random(3)
        values = [rng.lognormvariate(-9, 2) for _ in range(20_000)]
        a, b = campaign.Times(), campaign.Times()
        for i, t in enumerate(values):
            (a if i % 2 else b).add(t)
        a.merge(b)
        got = a.percentiles()
        ordered = sorted(values)
        assert got["n"] == 20_000 and got["max"] == ordered[-1] * 1000
        for name, q in (("p50", 0.5), ("p99", 0.99), ("p99.9", 0.999)):
            exact = ordered[int(q * len(ordered)) - 1] * 1000
            assert exact <= got[name] <= exact * 1.025, name
        assert a.over(ordered[-100]) <= 100 <= a.over(ordered[-100] / 1.03)

    def test_replay_of_a_failure(self, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
        """--replay of a failing hand prints the failure, the moves before it and the position it showed in."""
        campaign = load_script("campaign")
        hr = campaign.hr
        monkeypatch.setattr(hr, "play_hand", lambda *a, **kw: hr.Failure("dead-end", "made up", 4))
        profile = tmp_path / "house.yaml"
        profile.write_text("extends: classic\n", encoding="utf-8")
        assert campaign.main(["--replay", str(profile), "--deal-seed", "3", "--policy", "random"]) == 1
        out = capsys.readouterr().out
        v = canasta.parse_variant("extends: classic\n")
        s = hr.state_at(v, 3, hr.random_policy, 4)
        assert "dead-end in hand 1 at move index 4: made up" in out
        assert len(list(hr.moves_of_hand(v, 3, hr.random_policy, 4))) == 4
        assert f"then {s!r}:" in out and "legal moves: " in out


class TestStress:
    """benchmarks/stress.py: the largest deals the options allow, the slowest calls reported."""

    def test_profiles_drawn(self) -> None:
        """Each drawn profile loads, deals many cards, draws three, and holds no clean opening
        beside sequences or several melds of a rank (which new_game refuses)."""
        stress = load_script("stress")
        rng = random.Random(4)
        for _ in range(30):
            text, label = stress.draw_stress_profile(rng)
            v = canasta.parse_variant(text)
            assert v.deal.hand_size in (20, 24, 30) and v.draw.count == 3 and v.deck.decks >= 4
            assert label.split()[0] in stress.BASES
            if v.opening.natural_meld is not None:
                assert not v.sequences.allowed and v.melds.duplicate_ranks != "any"

    def test_saved_positions_replay(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A hand's calls are timed, and a position saved (every one, at a limit of 0 ms) lists
        the moves it listed when read back as tests/data/slow reads it."""
        stress = load_script("stress")
        monkeypatch.setattr(stress, "MAX_MOVES", 6)
        run = stress.Run(tmp_path, 0.0)
        text = "extends: samba\ndeal: {hand_size: 20}\n"
        run.play(text, "samba 20", 3, "random")
        assert len(run.times["legal_moves"]) == 6 == len(run.times["apply"])
        saved = sorted(tmp_path.glob("slow-*.json"))
        assert len(saved) == 6
        data = json.loads(saved[-1].read_text(encoding="utf-8"))
        assert data["profile"] == text
        assert re.fullmatch(r"samba 20 seed 3 random move 5: legal_moves took \d+ ms of CPU in the run", data["note"])
        s = canasta.from_json(json.dumps(data["state"]), canasta.GameState)
        assert [str(m) for m in s.legal_moves()] == data["moves"] != []

    def test_summary(self) -> None:
        """The summary gives the median, the percentiles, the maximum and the counts over 50 and 250 ms."""
        stress = load_script("stress")
        line = stress.summary([0.001] * 997 + [0.06, 0.3, 0.4])
        assert line.startswith("1000 calls, median 1.00 ms")
        assert "max 400.0 ms" in line and "over 50 ms 3, over 250 ms 2" in line
        assert stress.summary([]) == "no calls"


class TestSimulateScale:
    """benchmarks/simulate_scale.py parts: the split replayed on idle workers, and one small run."""

    def test_last_end(self) -> None:
        """Each shard goes to the worker free first, after each worker's start-up."""
        scale = load_script("simulate_scale")
        assert scale._last_end([3.0, 1.0, 1.0, 1.0], 2, 0.0) == 3.0
        assert scale._last_end([1.0, 1.0, 1.0, 3.0], 2, 0.0) == 4.0
        assert scale._last_end([1.0, 1.0, 1.0, 1.0], 2, 0.5) == 2.5
        assert scale._last_end([2.0], 3, 0.0) == 2.0

    def test_measured_python_is_isolated_as_this_one(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Run with -I (the compiled build in a venv), the measured command is run with -I too,
        so that a PYTHONPATH naming a source tree cannot replace the installed canasta."""
        scale = load_script("simulate_scale")
        flags = SimpleNamespace(isolated=1)
        monkeypatch.setattr(scale, "sys", SimpleNamespace(executable="/venv/bin/python", flags=flags))
        assert scale._python() == ["/venv/bin/python", "-I"]
        args = argparse.Namespace(variant="classic", games=4, experiment=False)
        assert scale._command(args, 2)[:3] == ["/venv/bin/python", "-I", "-c"]
        flags.isolated = 0
        assert scale._python() == ["/venv/bin/python"]
        assert scale._command(args, 2)[:2] == ["/venv/bin/python", "-c"]

    def test_parts_of_a_small_run(self, tmp_path: Path) -> None:
        """Two jobs: the slowest worker's time is within the workers' total, and the estimate
        for idle cores is the command's own time plus the replayed split."""
        scale = load_script("simulate_scale")
        args = argparse.Namespace(variant="classic", games=4, experiment=False)
        got = scale._parts_once(args, 2, str(tmp_path / "shards.jsonl"))
        # one worker may have played all four games before the other started
        assert 0 < got["fastest worker"] <= got["slowest worker"] <= got["workers, in all"]
        # the busiest replayed worker carries at least half the shards' time (the
        # workers' own totals also hold their start-up and the writes between shards)
        assert got["split on 2 idle workers: last end"] >= got["shards, in all"] / 2 > 0
        assert got["shards, in all"] <= got["workers, in all"]
        own = got["interpreter and canasta.cli"] + got["imports and variant, to the workers' start"]
        assert got["on idle cores"] >= own + got["split on 2 idle workers: last end"]
        one = scale._parts_once(args, 1, str(tmp_path / "shards.jsonl"))
        assert set(one) == {"interpreter and canasta.cli", "imports, variant, summary", "games", "on idle cores"}
        # one job: its games timed apart from the rest of the command
        assert 0 < one["games"] < one["on idle cores"]
        assert one["imports, variant, summary"] > 0
