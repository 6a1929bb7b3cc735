"""Tests of canasta.play.simulate and the ``canasta simulate`` command."""

from __future__ import annotations

import json

import pytest

import canasta
from canasta.cli import main
from canasta.errors import CanastaError
from canasta.play.bots import GreedyBot
from canasta.play.simulate import Summary, game_seed, play_game, progress_bar, simulate, wilson


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Call main(argv) and return (status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


class TestWilson:
    """wilson(): the 95% Wilson score interval."""

    def test_known_value(self) -> None:
        """8 of 10 gives the textbook interval (0.490, 0.943)."""
        low, high = wilson(8, 10)
        assert low == pytest.approx(0.4902, abs=1e-4)
        assert high == pytest.approx(0.9433, abs=1e-4)

    def test_edges(self) -> None:
        """0 and n successes stay inside [0, 1]; no trials gives (0, 1)."""
        assert wilson(0, 20)[0] == 0.0
        assert wilson(20, 20)[1] == 1.0
        assert 0.8 < wilson(20, 20)[0] < 1.0
        assert wilson(0, 0) == (0.0, 1.0)

    def test_symmetric(self) -> None:
        """Half the trials gives an interval centred on one half."""
        low, high = wilson(50, 100)
        assert low + high == pytest.approx(1.0)


class TestGameSeed:
    """game_seed(): each game's seed from (seed, index) only."""

    def test_stable_and_distinct(self) -> None:
        """The same pair gives the same seed; other pairs give others."""
        assert game_seed(1, 2) == game_seed(1, 2)
        seeds = {game_seed(s, i) for s in range(3) for i in range(50)}
        assert len(seeds) == 150
        assert all(0 <= x < 2**63 for x in seeds)


class TestPlayGame:
    """play_game(): one bot game."""

    def test_one_hand(self) -> None:
        """With max_hands=1 one hand is played and the leader wins."""
        v = canasta.load_variant("classic")
        rec = play_game(v, [GreedyBot()] * 4, seed=3, index=0, max_hands=1)
        assert rec.hands == 1
        assert rec.outs + rec.stock_ends == 1
        assert rec.moves > 10
        assert rec.hand_score_sums == rec.scores
        assert max(rec.scores) == rec.scores[rec.winners[0]]
        assert not rec.finished

    def test_dead_end_recorded(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A position with no legal move stops the game and is recorded, not raised."""
        monkeypatch.setattr(canasta.GameState, "legal_moves", lambda self: [])
        rec = play_game(canasta.load_variant("classic"), [GreedyBot()] * 4, seed=0, index=0)
        assert rec.dead_end == "hand 1, seat 0, draw phase"
        assert rec.hands == 0 and not rec.finished

    def test_dead_end_exit_1(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`canasta simulate` prints the summary, then fails with exit 1 on a dead end."""
        monkeypatch.setattr(canasta.GameState, "legal_moves", lambda self: [])
        status, out, err = run(capsys, "simulate", "classic", "--games", "2")
        assert status == 1
        assert "dead end         game 0" in out
        assert "2 game(s) reached a position with no legal move" in err

    def test_wrong_bot_count(self) -> None:
        """A bot list that does not fit the seats is refused."""
        with pytest.raises(CanastaError, match="needs 4 bots"):
            play_game(canasta.load_variant("classic"), [GreedyBot()], seed=0, index=0)


class TestSimulate:
    """simulate(): the summary and its determinism."""

    def test_summary(self) -> None:
        """Counts add up; bots are cycled over the seats; sides follow the variant."""
        s = simulate("classic", 6, ["greedy", "random"], seed=4, max_hands=1)
        assert isinstance(s, Summary)
        assert s.games == 6 and s.hands == 6 and s.hands_per_game == 1
        assert s.seats == ("greedy", "random", "greedy", "random")
        assert s.sides == ((0, 2), (1, 3))
        assert s.out_share + s.stock_share == pytest.approx(1.0)
        assert s.moves_per_hand > 10
        assert s.unfinished == 6
        rates = [s.side_win_rate(i) for i in range(2)]
        assert sum(r.wins for r in rates) + s.draws == 6
        assert rates[0].low <= rates[0].rate <= rates[0].high
        assert s.bot_win_rate("greedy") == rates[0]

    def test_three_seats_cycle(self) -> None:
        """In a three-seat game two bot names cycle to greedy, random, greedy."""
        s = simulate("classic-3p", 2, "greedy,random", seed=1, max_hands=1)
        assert s.seats == ("greedy", "random", "greedy")
        assert s.sides == ((0,), (1,), (2,))

    def test_same_seed_same_games(self) -> None:
        """The same seed replays the same games; another seed plays others."""
        a = simulate("draw-two", 3, ["greedy", "random"], seed=7, max_hands=1, keep_records=True)
        b = simulate("draw-two", 3, ["greedy", "random"], seed=7, max_hands=1, keep_records=True)
        c = simulate("draw-two", 3, ["greedy", "random"], seed=8, max_hands=1, keep_records=True)
        assert a == b
        assert a.records != c.records

    def test_jobs_give_identical_results(self) -> None:
        """Two worker processes give exactly the records of one process."""
        one = simulate("classic", 4, ["random", "greedy"], seed=5, jobs=1, max_hands=1,
                       keep_records=True)
        two = simulate("classic", 4, ["random", "greedy"], seed=5, jobs=2, max_hands=1,
                       keep_records=True)
        assert one == two
        assert [r.index for r in two.records] == [0, 1, 2, 3]

    def test_full_game(self) -> None:
        """Without max_hands a game is played to its end (Hand and Foot: four rounds)."""
        s = simulate("hand-and-foot", 1, ["greedy"], seed=2)
        assert s.hands == 4
        assert s.unfinished == 0

    def test_progress(self) -> None:
        """The progress callback sees every game, in order."""
        seen: list[tuple[int, int]] = []
        simulate("classic", 3, ["random"], seed=0, max_hands=1,
                 progress=lambda d, t: seen.append((d, t)))
        assert seen == [(1, 3), (2, 3), (3, 3)]

    def test_progress_bar(self) -> None:
        """progress_bar draws a bar and ends the line after the last game."""
        import io

        stream = io.StringIO()
        show = progress_bar(stream, width=10)
        show(1, 2)
        show(2, 2)
        assert "[#####.....] 1/2 games" in stream.getvalue()
        assert stream.getvalue().endswith("[##########] 2/2 games\n")

    @pytest.mark.parametrize(
        ("kwargs", "message"),
        [
            ({"games": 0}, "games must be"),
            ({"games": 1, "max_hands": 0}, "max_hands must be"),
            ({"games": 1, "bots": ["clever"]}, "unknown bot"),
            ({"games": 1, "bots": []}, "at least one bot"),
        ],
    )
    def test_bad_arguments(self, kwargs: dict[str, object], message: str) -> None:
        """Bad arguments are CanastaErrors that say what is wrong."""
        with pytest.raises(CanastaError, match=message):
            simulate("classic", **kwargs)  # type: ignore[arg-type]

    def test_dict_and_text(self) -> None:
        """to_dict() is JSON data; str() is a table with win rates."""
        s = simulate("classic-2p", 2, ["greedy", "random"], seed=1, max_hands=1)
        data = json.loads(json.dumps(s.to_dict()))
        assert data["games"] == 2
        assert set(data["bots"]) == {"greedy", "random"}
        assert data["sides"][0]["bots"] == ["greedy"]
        text = str(s)
        assert "win rate [95% CI]" in text
        assert "moves per hand" in text

    def test_public_function(self) -> None:
        """canasta.simulate is the simulate function."""
        assert canasta.simulate is simulate


class TestCommand:
    """``canasta simulate``."""

    def test_jobs_identical_output(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--jobs 1 and --jobs 2 print the same JSON for the same seed."""
        args = ["simulate", "classic", "--games", "4", "--max-hands", "1", "--seed", "9", "--json"]
        status1, out1, err1 = run(capsys, *args, "--jobs", "1")
        status2, out2, _ = run(capsys, *args, "--jobs", "2")
        assert status1 == status2 == 0
        assert out1 == out2
        assert err1 == ""  # no progress bar when stderr is not a terminal
        data = json.loads(out1)
        assert data["games"] == 4
        assert data["seats"] == ["greedy", "random", "greedy", "random"]

    def test_text_summary(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Without --json the summary is a readable table."""
        status, out, _ = run(
            capsys, "simulate", "classic", "--games", "2", "--max-hands", "1", "--bots", "random"
        )
        assert status == 0
        assert out.startswith("classic: 2 games, at most 1 hand each, seed 0")
        assert "hands ended" in out

    @pytest.mark.parametrize(
        "argv",
        [["--bots", "greedy,clever"], ["--games", "0"], ["--jobs", "x"], ["--max-hands", "-1"]],
    )
    def test_usage_errors(self, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
        """Bad options are usage errors: exit 2."""
        status, _, err = run(capsys, "simulate", "classic", *argv)
        assert status == 2
        assert "canasta simulate: error:" in err
