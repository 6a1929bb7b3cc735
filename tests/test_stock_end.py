"""The end of the stock: ``draw.short_stock`` ``end_hand`` ends the hand once the stock cannot serve a draw.

The draw-two text: "wait for the deck to run out of cards. This stops the
hand, and if it was your turn to draw two cards, and there was only one left,
you're out of luck, you don't get a turn". An empty stock is fewer cards than
a draw needs too: nobody plays on through the discard pile.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta.variant.model import DrawRules
from positions import play, position

DRAW_TWO = canasta.load_variant("draw-two")


def _discard_turn(stock: str, variant: str | canasta.Variant = "draw-two") -> canasta.GameState:
    """Seat 0 of an opened side, holding 9S 9H 5C to discard, with ``stock`` left."""
    return position(variant, hands=["9S 9H 5C", "4D 6D 8D"], melds={0: ["QH QS QD"]},
                    pile="KC", stock=stock)


class TestShortStockEndsTheHand:
    """``end_hand``: the turn that leaves the stock short is the hand's last."""

    @pytest.mark.parametrize("stock", ["", "4C"])
    def test_discard_ends_the_hand(self, stock: str) -> None:
        """A discard that leaves one card or none for a draw of two ends the hand."""
        after = play(_discard_turn(stock), "discard 5")
        assert after.is_hand_over
        assert after.end is not None and after.end.reason == "stock"
        assert [str(m) for m in after.legal_moves()] == ["next"]

    def test_two_cards_left_play_on(self) -> None:
        """Two cards serve the next draw: the next player draws them."""
        after = play(_discard_turn("4C 6C"), "discard 5")
        assert not after.is_hand_over
        assert "draw" in {str(m) for m in after.legal_moves()}
        assert play(after, "draw").stock_size == 0

    def test_one_card_draw_ends_on_an_empty_stock(self) -> None:
        """With a one-card draw, ``end_hand`` ends the hand on an empty stock (no pass, no pile)."""
        classic = canasta.load_variant("classic")
        v = attrs.evolve(classic, name="x", draw=DrawRules(1, "end_hand"))
        assert play(_discard_turn("", v), "discard 5").is_hand_over
        kept = play(_discard_turn("", classic), "discard 5")
        assert not kept.is_hand_over  # classic plays on through the pile

    @pytest.mark.parametrize("seed", range(1, 9))
    def test_random_play_never_reaches_a_short_stock(self, seed: int) -> None:
        """In random draw-two hands no turn starts on a stock of fewer than two cards."""
        rng = random.Random(seed)
        s = canasta.new_game(canasta.load_variant("draw-two"), seed=seed)
        starts = 0
        while not s.is_hand_over:
            listed = [str(m) for m in s.legal_moves()]
            if s.phase_name == "draw":
                starts += 1
                assert s.stock_size >= 2, f"a turn on a stock of {s.stock_size}: {listed}"
                assert "pass" not in listed
            s = s.apply(rng.choice(s.legal_moves()))
        assert starts > 0
        assert s.end is not None and (s.end.reason != "stock" or s.stock_size < 2)


@settings(max_examples=examples(100), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1))
def test_random_play_never_offers_a_turn_on_an_empty_stock(deal: int, choices: int) -> None:
    """Any deal, any random play of draw-two: no turn starts on a stock too short for a draw of two.

    Such a turn could only pass or take the pile. The hand ends instead, with the
    discard that leaves the stock short (one card or none), or when a player goes out.
    """
    rng = random.Random(choices)
    s = canasta.new_game(DRAW_TWO, seed=deal)
    while not s.is_hand_over:
        listed = [str(m) for m in s.legal_moves()]
        if s.phase_name == "draw":
            assert s.stock_size >= 2, f"a turn on a stock of {s.stock_size}: {listed}"
            assert "pass" not in listed and "draw" in listed
        s = s.apply(rng.choice(s.legal_moves()))
    assert s.end is not None
    if s.end.reason == "stock":
        assert s.stock_size < 2
    else:
        assert s.end.reason == "out"


class TestTheBook:
    """The draw-two book says the hand ends with the stock, and nothing of play after it."""

    def test_draw_two_book(self) -> None:
        """No sentence on play through the discard pile once the stock is empty."""
        book = canasta.describe(canasta.load_variant("draw-two"), format="markdown")
        assert "the hand ends at once" in book
        assert "play goes on only through the discard pile" not in book
        assert "play goes on only through the discard pile" in canasta.describe(
            canasta.load_variant("classic"), format="markdown"
        )
