"""A player holding one card may not take a pile of one card (pile.one_card_bar, Hoyle).

Hoyle's rules of Canasta: a discard pile of a single card may never be taken by
a player whose hand holds a single card. With one card in hand the pile can be
taken only by laying its top card off on the side's meld (a pair, or a natural
and a wild card, need two cards from the hand), so the option bars exactly
that lay-off, where it would leave the player the one card to go out with.
"""

from __future__ import annotations

import attrs
import pytest

import canasta
from canasta.check import check_variant
from canasta.engine.taking import ONE_CARD_BAR
from canasta.variant.loading import parse_variant
from canasta.variant.meanings import meanings
from positions import moves, play, position, refusal

CLASSIC = canasta.load_variant("classic")
HOYLE = attrs.evolve(CLASSIC, name="classic-one-card", pile=attrs.evolve(CLASSIC.pile, one_card_bar=True))
#: side 0 has a canasta of queens and an open meld of kings: it may go out
TABLE = {0: ["QC QD QH QS QC QD QH", "KC KD KS"]}
OTHERS = ["4H 5H 6H 9H 10H JH", "4S 5D 6D 9S 10S JS", "4D 5C 6C 9D 10D JD"]


def start(variant: canasta.Variant, hand: str = "5S", pile: str = "KH", stock: str = "4C 9C 10C JC 7S") -> canasta.GameState:
    """Seat 0 to draw, holding ``hand``, the pile ``pile`` (its top card the last)."""
    return position(variant, hands=[hand, *OTHERS], melds=TABLE, pile=pile, stock=stock, phase="draw")


class TestOneCardBar:
    def test_a_single_card_may_not_take_a_single_card_pile(self) -> None:
        s = start(HOYLE)
        assert refusal(s, "take layoff") == ONE_CARD_BAR
        assert moves(s) == {"draw"}

    def test_without_the_option_the_lay_off_takes_it_and_goes_out(self) -> None:
        s = play(start(CLASSIC), "take layoff")
        assert s.hands[0] == (canasta.Card.parse("5S"),)
        assert "out 5" in moves(s)

    @pytest.mark.parametrize(("hand", "pile"), [("5S 8C", "KH"), ("5S", "4C KH")])
    def test_two_cards_in_hand_or_pile_lift_it(self, hand: str, pile: str) -> None:
        s = start(HOYLE, hand=hand, pile=pile)
        assert "take layoff" in moves(s)
        play(s, "take layoff")

    def test_with_the_stock_gone_the_player_is_not_bound_to_take(self) -> None:
        """pile.must_take_when_stock_empty (lay_off) asks only a lay-off the rules allow."""
        s = start(HOYLE, stock="")
        assert moves(s) == {"pass"}
        assert play(start(CLASSIC, stock=""), "take layoff").phase_name == "play"
        assert refusal(start(CLASSIC, stock=""), "pass").startswith("the stock is empty")


class TestTheOptionsMeaning:
    def test_it_means_nothing_without_a_one_card_way_of_taking(self) -> None:
        """Without lay-offs (or the top-card pickup of sequences) one card never takes the pile."""
        no_lay_off = attrs.evolve(HOYLE, pile=attrs.evolve(HOYLE.pile, take_lay_off=False))
        assert meanings(HOYLE).one_card_pile_barred and not meanings(no_lay_off).one_card_pile_barred
        (found,) = [d for d in check_variant(no_lay_off) if "pile.one_card_bar" in d.paths]
        assert found.code == "C018" and "has no effect" in found.message
        assert not [d for d in check_variant(HOYLE) if "pile.one_card_bar" in d.paths]

    def test_the_book_states_it(self) -> None:
        v = parse_variant({"extends": "classic", "name": "h", "pile": {"one_card_bar": True}})
        assert "If you hold a single card, you may not take a discard pile that holds a single card." in (
            canasta.describe(v))
        assert "single card" not in canasta.describe(CLASSIC)
