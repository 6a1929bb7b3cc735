"""Card faces (:mod:`canasta.faces`) and colour on terminals: never with NO_COLOR or off a terminal."""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

import canasta
from canasta.errors import NotationError
from canasta.faces import ansi_card, ansi_cards, card_html, card_name, cards_html, use_colour
from canasta.play import styled
from canasta.play.terminal import play, render_table

SRC = Path(__file__).resolve().parents[1] / "src"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class FakeTerminal(io.StringIO):
    """A text buffer that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class TestCardHtml:
    """``card_html`` and ``cards_html``: one face per card, red suits and wild cards marked."""

    def test_red_suit_is_red_and_named(self) -> None:
        """A heart has the red class, its symbol and a spoken name."""
        face = card_html("KH")
        assert 'class="cf cf-red"' in face and "\u2665" in face
        assert 'aria-label="king of hearts"' in face

    def test_black_suit_is_not_red(self) -> None:
        """A spade has no red class."""
        face = card_html("10S")
        assert "cf-red" not in face and "\u2660" in face and ">10<" in face

    def test_wild_is_marked_without_colour(self) -> None:
        """A wild card gets the double-border class, which prints in black and white."""
        face = card_html("2C", wild=True)
        assert "cf-wild" in face and "2 of clubs, wild" in face

    def test_joker(self) -> None:
        """A joker is drawn with a star and says JK."""
        face = card_html("JK", wild=True)
        assert "cf-joker" in face and "\u2605" in face and ">JK<" in face
        assert card_name("JK") == "joker"

    def test_row_marks_the_variant_wilds(self) -> None:
        """``cards_html`` marks exactly the cards of the wild ranks."""
        row = cards_html("9C 9D 2H JK", wild_ranks=("2", "JK"))
        assert row.startswith('<span class="cfs">') and row.count('role="img"') == 4
        assert row.count("cf-wild") == 2

    def test_bad_notation(self) -> None:
        """Text that is not a card is refused with NotationError."""
        with pytest.raises(NotationError, match="1S"):
            card_html("1S")


class TestAnsi:
    """``ansi_card``: red suits red and wild cards bold on a terminal, plain text otherwise."""

    def test_plain_is_the_notation(self) -> None:
        """Without colour the text is exactly ``str(card)``."""
        cards = canasta.parse_cards("KH 10S 2C JK")
        assert ansi_cards(cards, ("2", "JK"), colour=False) == "KH 10S 2C JK"

    def test_colours(self) -> None:
        """Hearts are red, spades untouched, a wild 2 bold and underlined."""
        assert ansi_card("KH") == "\x1b[31mKH\x1b[0m"
        assert ansi_card("KS") == "KS"
        assert ansi_card("2D", wild=True) == "\x1b[1;4m\x1b[31m2D\x1b[0m"


class TestUseColour:
    """``use_colour``: a terminal, and no NO_COLOR."""

    def test_terminal(self) -> None:
        """A terminal with no NO_COLOR gets colour."""
        assert use_colour(FakeTerminal(), {}) is True
        assert use_colour(FakeTerminal(), {"NO_COLOR": ""}) is True  # empty means unset (no-color.org)

    def test_no_color(self) -> None:
        """NO_COLOR set to anything turns colour off, even on a terminal."""
        assert use_colour(FakeTerminal(), {"NO_COLOR": "1"}) is False

    def test_not_a_terminal(self) -> None:
        """A buffer, a file or no stream gets no colour."""
        assert use_colour(io.StringIO(), {}) is False
        assert use_colour(None, {}) is False
        assert use_colour(FakeTerminal(), {"TERM": "dumb"}) is False


def _playing_state() -> canasta.GameState:
    s = canasta.new_game(canasta.load_variant("classic"), seed=7)
    return s.apply("draw")


class TestTerminalTable:
    """``render_table`` with and without colour."""

    def test_plain_has_no_escape(self) -> None:
        """Without colour the table has no escape sequence."""
        assert "\x1b" not in render_table(_playing_state(), 0)

    def test_colour_is_the_plain_text_coloured(self) -> None:
        """With colour, red cards are red, the wild 2 marked, and without the escapes it is the plain table."""
        s = _playing_state()
        coloured = render_table(s, 0, colour=True)
        assert "\x1b[31m10H\x1b[0m" in coloured and "\x1b[1;4m2C\x1b[0m" in coloured
        assert ANSI.sub("", coloured) == render_table(s, 0)


def _play(out: io.StringIO, colour: bool | None = None, moves: str = "1\n" * 400) -> str:
    status = play("classic", seed=7, stdin=io.StringIO(moves), stdout=out, colour=colour)
    assert status == 0
    return out.getvalue()


class TestPlayColour:
    """``play`` colours only a terminal without NO_COLOR, and stays playable by typed input."""

    def test_buffer_is_plain(self) -> None:
        """Output that is not a terminal has no escape sequence."""
        assert "\x1b" not in _play(io.StringIO())

    def test_no_color_on_a_terminal_is_the_plain_text(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """NO_COLOR on a terminal: the same bytes as off a terminal."""
        monkeypatch.setenv("NO_COLOR", "1")
        assert _play(FakeTerminal()) == _play(io.StringIO())

    def test_terminal_gets_colour_and_plays_on(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """On a terminal the table is coloured; numbers and notation still play the game to its end."""
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.delenv("TERM", raising=False)
        text = _play(FakeTerminal(), moves="draw\n" + "1\n" * 400)
        assert "\x1b[" in text
        assert "Hand 1 over" in text

    def test_without_rich_colour_is_ansi_text(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Without the cli extra, colour is the plain table with escapes, no panel."""
        monkeypatch.setattr(styled, "available", lambda: False)
        coloured = _play(io.StringIO(), colour=True, moves="q\n")
        assert "\x1b[" in coloured and "\u256d" not in coloured
        assert ANSI.sub("", coloured) == _play(io.StringIO(), moves="q\n")

    @pytest.mark.skipif(not styled.available(), reason="the cli extra (rich) is not installed")
    def test_rich_panel(self) -> None:
        """With the cli extra, the table is a rich panel showing the hand's cards."""
        text = _play(io.StringIO(), colour=True, moves="q\n")
        assert "\u256d" in text  # the panel's rounded corner
        assert "\x1b[31m10H" in text
        assert "Your move" in text


def _on_pty(args: list[str], env: dict[str, str], stdin: str = "") -> str:
    """Run ``python -m canasta ARGS`` with stdout and stderr on a pseudo-terminal; return what it wrote."""
    main, other = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "canasta", *args], stdin=subprocess.PIPE,
                            stdout=other, stderr=other, env=env)
    os.close(other)
    assert proc.stdin is not None
    proc.stdin.write(stdin.encode())
    proc.stdin.close()
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:  # the other end closed
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(main)
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM", "CANASTA_DEBUG")}
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    env["TERM"] = "xterm-256color"
    env.update(extra)
    return env


class TestCommandLine:
    """``canasta play`` and ``canasta simulate`` on a real pseudo-terminal, and piped."""

    def test_play_on_a_terminal_is_coloured(self) -> None:
        """On a terminal the game is coloured, and typed notation plays."""
        text = _on_pty(["play", "classic", "--seed", "7"], _env(), "draw\nmeld 10 10 10\nq\n")
        assert "\x1b[" in text and "\\x1b" not in text  # real escapes, not escaped ones
        assert "Game left: goodbye." in text

    def test_play_with_no_color_on_a_terminal_is_plain(self) -> None:
        """NO_COLOR on a terminal: no escape at all, the same text as piped."""
        text = _on_pty(["play", "classic", "--seed", "7"], _env(NO_COLOR="1"), "draw\nq\n")
        assert "\x1b" not in text
        piped = subprocess.run([sys.executable, "-m", "canasta", "play", "classic", "--seed", "7"],
                               input="draw\nq\n", capture_output=True, text=True, env=_env(), timeout=120)
        assert "\x1b" not in piped.stdout
        assert text == piped.stdout

    def test_simulate_summary(self) -> None:
        """The summary piped is the plain text; NO_COLOR on a terminal gives the same bytes."""
        args = ["simulate", "classic", "--games", "4"]
        piped = subprocess.run([sys.executable, "-m", "canasta", *args], capture_output=True, text=True,
                               env=_env(), timeout=120)
        assert piped.returncode == 0 and "\x1b" not in piped.stdout + piped.stderr
        assert piped.stdout.startswith("classic: 4 games, seed 0\n")
        assert _on_pty(args, _env(NO_COLOR="1")).endswith(piped.stdout)
        if styled.available():
            fancy = _on_pty(args, _env())
            assert "\x1b[" in fancy and "mean hand score" in fancy
            assert "games" in fancy and "4/4" in fancy  # rich's progress bar
