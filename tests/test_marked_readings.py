"""Readings the sources leave open are marked where they are played.

Samba's wild cards on a finished canasta and its "twice as many naturals as
wilds", Modern American's wild card discarded when every card in hand is barred
from an empty pile, and Modern American after the stock is exhausted: each is
played as its profile says, the profile lists it under ``assumed``, and the book's
sentence of that rule carries a note that names the reading.
"""

from __future__ import annotations

import pytest

import canasta
from positions import moves, play, position
from test_book_prose import _note_of

#: Seats 1 to 3 of a four-player position: cards that play no part.
OTHERS = ["4C 6D 8D", "4D 6C 8C", "4H 6H 8H"]

#: (profile, option, a sentence of its book, words of the note on that sentence)
READINGS = [
    ("samba", "melds.max_wilds", "A meld may hold at most two wild cards.",
     "wild cards may join a finished canasta within that cap"),
    ("samba", "melds.naturals_per_wild", "and one with two wild cards at least four.",
     "twice as many natural cards as wildcards"),
    ("modern-american", "pile.wild_discard", "or by a player who holds nothing but wild cards.",
     "barred from an empty pile may discard any of them, a wild card included"),
    ("modern-american", "pile.must_take_when_stock_empty", "You may take the pile or decline it. "
     "The hand ends when a player cannot draw and does not take the pile.", "a player may always decline it"),
]


@pytest.mark.parametrize(("name", "path", "sentence", "words"), READINGS, ids=[f"{n}:{p}" for n, p, _, _ in READINGS])
def test_the_reading_is_marked(name: str, path: str, sentence: str, words: str) -> None:
    """The profile names the option as assumed, and the book's note on its sentence says the reading."""
    v = canasta.load_variant(name)
    assert v.is_assumed(path)
    note = _note_of(canasta.describe(v), sentence)
    assert words in note, note


class TestPlayedAsMarked:
    """The engine plays each reading as its note says."""

    def test_samba_wild_card_joins_a_finished_canasta(self) -> None:
        """A natural canasta of seven kings takes a 2 (the official laws would refuse it)."""
        s = position("samba", hands=["2C 9D 9H 5S", *OTHERS], melds={0: ["KH KS KD KC KH KS KD"]}, pile="5D")
        assert "add K 2" in moves(s)

    def test_samba_needs_two_naturals_a_wild_card(self) -> None:
        """Three kings take one wild card, not two: two wild cards need four natural cards."""
        s = position("samba", hands=["2C 2D 9H 5S", *OTHERS], melds={0: ["KH KS KD"]}, pile="5D")
        assert "add K 2" not in moves(play(s, "add K 2"))
        four = position("samba", hands=["2C 2D 9H 5S", *OTHERS], melds={0: ["KH KS KD KC"]}, pile="5D")
        assert "add K 2" in moves(play(four, "add K 2"))

    def test_modern_american_wild_discard_when_all_are_barred(self) -> None:
        """Onto an empty pile, a hand of a 7, an ace and a 2 may discard any of them, the 2 included."""
        s = position("modern-american", hands=["7C AS 2D", *OTHERS], melds={0: ["QH QS QD"]}, pile="")
        assert moves(s) == {"discard 7", "discard A", "discard 2"}
        # with a card that may go on the empty pile, only that one may
        s = position("modern-american", hands=["7C AS 2D 9C", *OTHERS], melds={0: ["QH QS QD"]}, pile="")
        assert moves(s) == {"discard 9"}

    def test_modern_american_may_decline_the_pile_after_the_stock(self) -> None:
        """On an empty stock a player who could take the pile with a pair may pass instead."""
        s = position("modern-american", hands=["KH KS 9D 5S", *OTHERS], melds={0: ["QH QS QD"]},
                     pile="5D KD", stock="", phase="draw")
        assert moves(s) == {"pass", "take pair"}
