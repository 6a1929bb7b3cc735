"""Tests of canasta.play.experiment and the ``canasta experiment`` command."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

import canasta
from canasta.cli import main
from canasta.errors import CanastaError
from canasta.play.bots import GreedyBot
from canasta.play.experiment import RULES, experiment, game_stats, mean_interval
from canasta.play.simulate import play_game, simulate


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Call main(argv) and return (status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


class TestMeanInterval:
    """mean_interval(): the mean with its normal 95% interval."""

    def test_known_value(self) -> None:
        """1, 2, 3, 4: mean 2.5, sd 1.2910, half-width 1.96 * 1.2910 / 2."""
        mean, low, high = mean_interval([1, 2, 3, 4])
        assert mean == 2.5
        assert high - mean == pytest.approx(1.959964 * 1.290994 / 2, rel=1e-5)
        assert mean - low == pytest.approx(high - mean)

    def test_degenerate(self) -> None:
        """No values gives zeros; one value gives a zero-width interval."""
        assert mean_interval([]) == (0.0, 0.0, 0.0)
        assert mean_interval([3.0]) == (3.0, 3.0, 3.0)


class TestGameStats:
    """game_stats(): one game, watched; the game itself is the simulation's."""

    @pytest.mark.parametrize("name", ["classic", "hand-and-foot"])
    def test_same_game_as_play_game(self, name: str) -> None:
        """Watching a game does not change it: the record is play_game's."""
        v = canasta.load_variant(name)
        bots = [GreedyBot()] * v.players.count
        stats = game_stats(v, bots, seed=4, index=2, max_hands=2)
        assert stats.record == play_game(v, bots, 4, 2, max_hands=2)
        assert len(stats.hand_turns) == stats.record.hands == len(stats.hand_scores)
        assert len(stats.first_sides) == stats.record.hands
        for side in range(len(v.sides)):
            assert sum(h[side] for h in stats.hand_scores) == stats.record.hand_score_sums[side]
        assert all(10 < t < stats.record.moves for t in stats.hand_turns)

    def test_counts_follow_the_moves(self) -> None:
        """Pile takes equal the take rules' counts; Hand and Foot picks up feet."""
        v = canasta.load_variant("hand-and-foot")
        stats = game_stats(v, [GreedyBot()] * 4, seed=1, index=0, max_hands=1)
        takes = sum(n for rule, n in stats.rules.items() if rule.startswith("pile t"))
        assert takes == stats.pile_takes
        assert stats.rules.get("foot picked up", 0) >= 1
        assert set(stats.rules) <= set(RULES)
        assert sum(stats.canastas.values()) >= 1
        assert all(kind.endswith("canasta") for kind in stats.canastas)


class TestExperiment:
    """experiment(): same seeds for every variant, paired differences."""

    def test_a_variant_against_itself(self) -> None:
        """The same profile twice: every difference is exactly 0, with a zero-width interval."""
        e = experiment(["classic", "classic"], 4, seed=2, max_hands=1)
        assert e.games == 4 and e.variants == ("classic", "classic")
        for m in e.measures:
            assert m.values[0] == m.values[1]
            d = m.differences[0]
            assert (d.mean, d.low, d.high) == (0.0, 0.0, 0.0), m.name
            assert not d.significant

    def test_differences_are_paired_per_game(self) -> None:
        """The hands-per-game difference is the mean of per-game differences of simulate's games."""
        e = experiment(["classic", "draw-two"], 5, seed=3, max_hands=3)
        a = simulate("classic", 5, seed=3, max_hands=3, keep_records=True).records
        b = simulate("draw-two", 5, seed=3, max_hands=3, keep_records=True).records
        diffs = [y.hands - x.hands for x, y in zip(a, b, strict=True)]
        m = e.measure("hands per game")
        assert m.values[0].mean == pytest.approx(sum(x.hands for x in a) / 5)
        assert m.differences[0].mean == pytest.approx(sum(diffs) / 5)
        assert (m.differences[0].low, m.differences[0].high) == pytest.approx(
            mean_interval(diffs)[1:])
        wins = e.measure("side 0 wins")
        assert wins.rate and wins.values[0].mean == sum(r.winners == (0,) for r in a) / 5
        assert e.side_wins[1] == tuple(r.winners[0] if len(r.winners) == 1 else -1 for r in b)

    def test_measures_listed(self) -> None:
        """Every measure of the issue is there, each with a value per variant."""
        e = experiment(["classic", "draw-two", "classic"], 3, seed=1, max_hands=1)
        names = {m.name for m in e.measures}
        for expected in ["hand length (turns)", "hands per game", "points per hand (per side)",
                         "share of hands ended by going out", "share of hands ended by the stock",
                         "pile takes per hand", "first player's side: points edge per hand",
                         "first player's side wins", "side 0 wins", "side 1 wins"]:
            assert expected in names
        assert any(n.endswith("canastas per hand") for n in names)
        assert any(n.endswith("(per hand)") for n in names)
        for m in e.measures:
            assert len(m.values) == 3 and len(m.differences) == 2
            assert all(v.low <= v.mean + 1e-9 and v.mean <= v.high + 1e-9 for v in m.values)
        assert len(e.hand_turns[0]) == 3 and len(e.hand_scores[1]) == 3 * 2

    def test_jobs_give_the_same_result(self) -> None:
        """Two worker processes give exactly the one-process result."""
        one = experiment(["classic", "draw-two"], 6, seed=5, max_hands=1)
        two = experiment(["classic", "draw-two"], 6, seed=5, max_hands=1, jobs=2)
        assert one == two

    def test_interrupted_keeps_the_games_played(self) -> None:
        """Ctrl-C after two games: the result of those two, marked interrupted."""
        def stop(done: int, total: int) -> None:
            if done == 2:
                raise KeyboardInterrupt

        e = experiment(["classic", "draw-two"], 5, seed=0, max_hands=1, progress=stop)
        assert e.interrupted and e.games == 2 and e.requested == 5
        whole = experiment(["classic", "draw-two"], 2, seed=0, max_hands=1)
        assert replace(e, requested=2, interrupted=False) == whole

    def test_bad_input(self, tmp_path: Path) -> None:
        """One variant, other seats, a bad game count or backend: clear errors."""
        with pytest.raises(CanastaError, match="at least two variants"):
            experiment(["classic"], 2)
        with pytest.raises(
            CanastaError,
            match=r"classic-2p has 2 players, each on their own; classic has 4 players in "
            r"partnerships \(seats 0 and 2, 1 and 3\)",
        ):
            experiment(["classic", "classic-2p"], 2)
        with pytest.raises(CanastaError, match="games must be"):
            experiment(["classic", "draw-two"], 0)
        with pytest.raises(CanastaError, match="unknown backend 'mars'"):
            experiment(["classic", "draw-two"], 2, backend="mars")


class TestExperimentCommand:
    """canasta experiment A B ...: the table, --json, exit codes."""

    def test_table(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The table names both variants, the difference column and the method."""
        status, out, _ = run(capsys, "experiment", "classic", "draw-two", "--games", "3",
                             "--max-hands", "1", "--seed", "4")
        assert status == 0
        assert out.startswith("classic vs draw-two: 3 games each, seed 4, same deals")
        assert "draw-two - classic" in out and "hand length (turns)" in out
        assert "paired by game" in out

    def test_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--json is the experiment's to_dict, numbers included."""
        status, out, _ = run(capsys, "experiment", "classic", "draw-two", "--games", "2",
                             "--max-hands", "1", "--json")
        assert status == 0
        data = json.loads(out)
        assert data["variants"] == ["classic", "draw-two"] and data["games"] == 2
        hands = next(m for m in data["measures"] if m["name"] == "hands per game")
        assert hands["values"][0]["mean"] == 1.0
        assert all(math.isfinite(x) for m in data["measures"] for x in m["differences"][0]["ci95"])

    def test_usage_errors(self, capsys: pytest.CaptureFixture[str]) -> None:
        """One variant is a usage error (2); seats that differ are a failure (1)."""
        status, _, err = run(capsys, "experiment", "classic")
        assert status == 2 and "experiment needs two or more variants: the baseline" in err
        status, _, err = run(capsys, "experiment", "classic", "classic-2p", "--games", "1")
        assert status == 1 and "the same deals need the same seats" in err


class TestDocumented:
    """docs/tuning.rst names every counted rule and every measure."""

    def test_rules_and_measures_named(self) -> None:
        """Each rule of RULES and each measure of a small experiment appears on the page."""
        page = (Path(__file__).resolve().parents[1] / "docs" / "tuning.rst").read_text()
        for rule in RULES:
            assert f"``{rule}``" in page, rule
        e = experiment(["classic", "hand-and-foot"], 1, seed=0, max_hands=1)
        for m in e.measures:
            if m.group == "game":
                assert f"``{m.name}``" in page, m.name
