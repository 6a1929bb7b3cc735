"""Tests of canasta.play.terminal and the ``canasta play`` command."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

import canasta
from canasta.cli import main
from canasta.errors import CanastaError
from canasta.play.terminal import play, read_move, render_hand_end, render_table


def session(text: str, **kwargs: object) -> tuple[int, str]:
    """Play classic (seed 1 unless given) with ``text`` as input; return (status, output)."""
    out = io.StringIO()
    options: dict[str, object] = {"seed": 1}
    options.update(kwargs)
    status = play(
        str(options.pop("variant", "classic")), stdin=io.StringIO(text), stdout=out,
        **options,  # type: ignore[arg-type]
    )
    return status, out.getvalue()


class TestPlay:
    """play(): a person against bots, driven through streams."""

    def test_whole_hand_with_ones(self) -> None:
        """Always typing 1 plays a whole hand; its breakdowns are printed; exit 0 at EOF."""
        status, out = session("1\n" * 400)
        assert status == 0
        assert "Hand 1 over:" in out
        assert out.count("total") >= 2  # one breakdown per side
        assert "side 0 (you, seats 0+2)" in out
        assert "Deal the next hand" in out

    def test_whole_game(self) -> None:
        """Enough input plays to the end of the game, which names the winner."""
        status, out = session("1\n" * 5000)
        assert status == 0
        assert "Game over after" in out
        assert "wins" in out or "draw" in out
        assert "canasta " in out  # a canasta's kind is shown on the table

    def test_no_legal_move_is_an_engine_fault(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A position without a legal move (never the player's doing) stops the game with status 1."""
        from canasta.engine.state import GameState

        monkeypatch.setattr(GameState, "legal_moves", lambda self: [])
        status, out = session("1\n" * 10)
        assert status == 1
        assert "has no legal move here: an engine fault; the game cannot go on (seed 1, hand 1)." in out

    def test_record_replays(self, tmp_path: Path) -> None:
        """--record writes the game so far; replaying it reaches the same scores."""
        from canasta.io.record import read_record

        path = tmp_path / "game.rec"
        status, out = session("1\n" * 400, record=path)
        assert status == 0
        assert f"Game record written to {path}" in out
        rec = read_record(path)
        final = rec.replay()
        assert len(rec.moves) > 50
        assert final.history  # the first hand was played out and scored, as on screen
        assert "Hand 1 over:" in out

    def test_eof_quits(self) -> None:
        """End of input at the first prompt quits cleanly with a message."""
        status, out = session("")
        assert status == 0
        assert "goodbye" in out

    @pytest.mark.parametrize("word", ["q", "quit", " Q "])
    def test_quit(self, word: str) -> None:
        """'q' and 'quit' quit with exit 0 and a short message."""
        status, out = session(f"{word}\n1\n")
        assert status == 0
        assert out.rstrip().endswith("Game left: goodbye.")
        assert out.count("Your move") == 1

    def test_ctrl_c(self) -> None:
        """Ctrl-C while waiting for input quits with exit 0 and a message."""

        class Interrupting(io.StringIO):
            def readline(self, size: int | None = -1) -> str:
                raise KeyboardInterrupt

        out = io.StringIO()
        status = play("classic", seed=1, stdin=Interrupting(), stdout=out)
        assert status == 0
        assert "Interrupted: goodbye." in out.getvalue()

    def test_refused_move_asks_again(self) -> None:
        """An illegal move shows the rule that refuses it, then the prompt comes back."""
        status, out = session("discard 9\nblah\n99\n\ndraw\nq\n")
        assert status == 0
        assert "Refused: " in out
        assert "'blah' is not a move" in out
        assert "There is no move 99" in out
        assert out.count("Your move (1-2") == 5  # asked again after each refusal

    def test_notation_accepted(self) -> None:
        """A move typed in notation is played like its number."""
        _, by_name = session("draw\nq\n")
        _, by_number = session("1\nq\n")
        assert "(play)" in by_name
        # the same game, but for the line echoed after the first prompt
        assert by_name.replace("quits): draw\n", "quits): 1\n", 1) == by_number

    def test_piped_input_is_echoed(self) -> None:
        """Lines read from a file or pipe are written after their prompt, as typed."""
        _, out = session("blah\n" + "x" * 200 + "\ndraw\nq\n")
        prompts = [line for line in out.splitlines() if line.startswith("Your move (")]
        answers = [line.split("quits): ", 1)[1] for line in prompts]
        assert answers[:4] == ["blah", "x" * 80 + "...", "draw", "q"]

    def test_terminal_input_is_not_echoed(self) -> None:
        """A terminal shows what is typed itself: nothing is written after the prompt."""

        class Terminal(io.StringIO):
            def isatty(self) -> bool:
                return True

        out = io.StringIO()
        play("classic", seed=1, stdin=Terminal("draw\nq\n"), stdout=out)
        text = out.getvalue()
        assert text.count("quits): ") == 2
        assert "quits): draw" not in text and "quits): q" not in text

    def test_table(self) -> None:
        """The table shows scores, stock, pile, melds, red 3s, the hand by rank and moves."""
        _, out = session("q\n")
        for part in ["Scores", "Stock", "Pile   top ", "Melds", "Red 3s", "Your hand, 11 cards",
                     "Moves", "  1. draw"]:
            assert part in out, part

    def test_bots_moves_printed(self) -> None:
        """Each bot move is one line: seat, bot name, notation."""
        _, out = session("1\n" * 5 + "q\n", seat=2, bots="random")
        assert "Seat 0 (random): " in out
        assert "Seat 1 (random): " in out
        assert "you are seat 2" in out

    def test_other_variants(self) -> None:
        """Two-player and Hand and Foot games run too."""
        status, out = session("1\n" * 60, variant="classic-2p")
        assert status == 0 and "Seat 1 (greedy)" in out
        status, out = session("1\n" * 60, variant="hand-and-foot")
        assert status == 0 and "+foot 11 cards" in out

    def test_dead_end(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A position with no legal move ends the session with exit 1 and says why."""
        monkeypatch.setattr(canasta.GameState, "legal_moves", lambda self: [])
        status, out = session("1\n")
        assert status == 1
        assert "has no legal move here" in out

    def test_bad_seat(self) -> None:
        """A seat the variant does not have is a CanastaError."""
        with pytest.raises(CanastaError, match="seat must be 0 to 3"):
            play("classic", seed=1, seat=4, stdin=io.StringIO(""), stdout=io.StringIO())

    def test_random_seed_printed(self) -> None:
        """Without a seed a random one is chosen and printed for a replay."""
        out = io.StringIO()
        play("classic", stdin=io.StringIO(""), stdout=out)
        assert "(replay with --seed " in out.getvalue()


class TestRender:
    """render_table(), render_hand_end() and read_move()."""

    def test_hand_grouped_by_rank(self) -> None:
        """The hand is listed rank by rank, each rank once."""
        state = canasta.new_game(canasta.load_variant("classic"), seed=1)
        text = render_table(state, state.current_player)
        line = text.split("Your hand")[1].splitlines()[1]
        labels = [part.split(":")[0].strip() for part in line.split("   ")]
        assert len(labels) == len(set(labels))

    def test_hand_end_breakdowns(self) -> None:
        """The hand-end text holds each side's ScoreBreakdown table."""
        state = canasta.new_game(canasta.load_variant("classic"), seed=1)
        bot = canasta.GreedyBot()
        import random

        rng = random.Random(0)
        while not state.is_hand_over:
            state = state.apply(bot.choose(state.view(state.current_player), rng))
        text = render_hand_end(state, 0)
        assert state.end is not None
        for breakdown in state.end.breakdowns:
            assert str(breakdown) in text

    def test_read_move_number(self) -> None:
        """read_move returns the numbered legal move."""
        state = canasta.new_game(canasta.load_variant("classic"), seed=1).apply("draw")
        moves = state.legal_moves()
        got = read_move(state, io.StringIO("2\n"), io.StringIO())
        assert got == moves[1]


class TestCommand:
    """``canasta play``."""

    def test_cli_reads_stdin(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """`canasta play classic --seed 3` plays from stdin and exits 0 at its end."""
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
        status = main(["play", "classic", "--seed", "3", "--bots", "random"])
        out, _ = capsys.readouterr()
        assert status == 0
        assert "Hand 1 over:" in out
        assert "Seat 1 (random):" in out

    def test_bad_bot_is_usage_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        """An unknown --bots value is a usage error (exit 2)."""
        assert main(["play", "classic", "--bots", "clever"]) == 2

    def test_bad_seat_exit_1(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A seat out of range fails with exit 1 and a one-line error."""
        assert main(["play", "classic-2p", "--seat", "2"]) == 1
        assert "seat must be 0 to 1" in capsys.readouterr().err

    def test_subprocess_eof(self) -> None:
        """The installed entry point quits cleanly when stdin closes."""
        proc = subprocess.run(
            [sys.executable, "-m", "canasta", "play", "classic", "--seed", "1"],
            input="draw\n", capture_output=True, text=True, timeout=60,
        )
        assert proc.returncode == 0
        assert "goodbye" in proc.stdout
        assert proc.stderr == ""
