"""When the partner may be asked: ``going_out.ask_after_laying``.

The classic and draw-two texts say only "before going out" ("Before going
out, a player may ask, 'Partner, may I go out?'"), so there a player may ask
after laying cards this turn; the profiles that follow Pagat's reading (ask
before laying any card) set the option off and mark it. A question asked late
must still leave a turn that can end, whatever the answer.
"""

from __future__ import annotations

import random

import pytest

import canasta
from canasta import GameState
from canasta.engine.state import PLAY
from positions import moves, play, position, refusal
from test_book_prose import _note_of
from test_oracle import finishable, raw_rules

CLASSIC = canasta.load_variant("classic")
KINGS = "KH KS KD KC KH KS KD"


def laid_nines(variant: str | canasta.Variant = CLASSIC) -> GameState:
    """Seat 0 after laying three 9s this turn, a canasta of kings on the table, 9 and 5 in hand."""
    s = position(variant, hands=["9C 9D 9H 9S 5S", "4C 6D"], melds={0: [KINGS]}, pile="5D")
    return play(s, "meld 9 9 9")


class TestAskAfterLaying:
    """Classic and draw-two: asking is open until the player goes out."""

    def test_classic_asks_after_a_meld(self) -> None:
        """After laying three 9s the player may still ask; yes binds them to go out."""
        s = laid_nines()
        assert "ask" in moves(s)
        yes = play(s, "ask", "yes")
        assert "discard 5" not in moves(yes)
        assert play(yes, "add 9 9", "out 5").is_hand_over

    def test_a_no_after_a_meld(self) -> None:
        """After a no the player ends the turn with a discard, not by going out."""
        no = play(laid_nines(), "ask", "no")
        assert "add 9 9" not in moves(no)  # it would leave only the 5, and no way but out
        assert {"discard 5", "discard 9"} <= moves(no)

    def test_draw_two_too(self) -> None:
        """Draw-two inherits the rule from the classic text."""
        assert "ask" in moves(laid_nines(canasta.load_variant("draw-two")))

    @pytest.mark.parametrize("name", ["samba", "modern-american", "uruguayan", "classic-6p"])
    def test_pagat_reading_elsewhere(self, name: str) -> None:
        """The profiles that keep Pagat's reading refuse a question after laying, and mark it."""
        v = canasta.load_variant(name)
        assert not v.going_out.ask_after_laying
        assert "going_out.ask_after_laying" in {a.path for a in v.assumed}

    def test_classic_refuses_when_off(self) -> None:
        """With the option off, classic asks only before laying."""
        import attrs

        off = attrs.evolve(CLASSIC, going_out=attrs.evolve(CLASSIC.going_out, ask_after_laying=False))
        assert "ask before you meld" in refusal(laid_nines(off), "ask")


class TestTheBooksSayWhen:
    """Each book states when its players may ask; a reading the text leaves open is marked."""

    @pytest.mark.parametrize("name", ["classic", "draw-two"])
    def test_after_laying(self, name: str) -> None:
        """The text's "before going out", read as it stands: laying cards first does not stop a question."""
        book = canasta.describe(canasta.load_variant(name))
        assert "Before going out, even after laying cards, you may ask \u201cPartner, may I go out?\u201d" in book
        assert "before you lay any card" not in book

    @pytest.mark.parametrize("name", ["samba", "modern-american", "uruguayan", "classic-6p"])
    def test_pagat_reading_is_marked(self, name: str) -> None:
        """Pagat's reading, asking before laying any card, is stated and its note names the alternative."""
        book = canasta.describe(canasta.load_variant(name))
        assert "Before going out, and before you lay any card that turn, you may ask" in book
        paragraph = next(ln for ln in book.splitlines() if "you may ask \u201cPartner" in ln)
        sentence = paragraph.rstrip("\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079")
        assert _note_of(book, sentence).endswith('classic\'s text, "before going out", is the alternative.')


def _late_questions(name: str, seed: int) -> list[GameState]:
    """States of one greedy hand where the player, having laid cards this turn, may ask."""
    bot = canasta.GreedyBot()
    rng = random.Random(seed)
    s = canasta.new_game(canasta.load_variant(name), seed=seed)
    found = []
    while not s.is_hand_over:
        if s.phase == PLAY and s.turn.melded and "ask" in moves(s):
            found.append(s)
        s = s.apply(bot.choose(s.view(s.current_player), rng))
    return found


@pytest.mark.parametrize("name", ["classic", "draw-two"])
def test_late_questions_leave_no_dead_end(name: str) -> None:
    """In greedy hands, a question after laying: after yes and after no the turn can still end."""
    asked = 0
    for seed in range(40):
        for s in _late_questions(name, seed):
            for answer in ("yes", "no"):
                after = s.apply("ask").apply(answer)
                assert after.legal_moves(), (answer, s)
                with raw_rules():
                    assert finishable(after, {}), (answer, s)
            asked += 1
    assert asked > 0
