"""Scenario tests of the Uruguayan and six-player profiles and the options they brought.

The options: ``melds.wild_meld_max`` (a wild meld closes at its own size),
``threes.red_table`` (red 3s scored by how many a side laid) and
``threes.red_canastas_needed`` (how many canastas make red 3s count plus).
Every score below is worked by hand in the comment above it. Card values:
joker 50, 2 20, A 20, K-8 10, 7-4 5, black 3 5.
"""

from __future__ import annotations

import attrs
import pytest

import canasta
from canasta import IllegalMoveError, score_side
from canasta.check import check_variant
from canasta.rulebook import describe, describe_diff
from positions import moves, play, position, refusal

URUGUAYAN = canasta.load_variant("uruguayan")
SIX = canasta.load_variant("classic-6p")
CLASSIC = canasta.load_variant("classic")
DRAW_TWO = canasta.load_variant("draw-two")

WILD7 = "2C 2D 2H 2S 2C JK JK"  # 5 x 20 + 2 x 50 = 200, seven wild cards
K7 = "KH KS KD KC KH KS KD"  # 7 x 10 = 70, a natural canasta of kings
Q7 = "QH QS QD QC QH QS QD"  # 7 x 10 = 70, a natural canasta of queens








class TestWildMeldMax:
    """melds.wild_meld_max: Uruguay's wild melds hold three to seven wild cards, then close."""

    def test_a_wild_meld_of_three_is_laid(self) -> None:
        """Three wild cards alone make a meld."""
        s = position(URUGUAYAN, hands=["2C 2D JK 9S 9H 5C"], melds={0: ["QH QS QD"]})
        after = play(s, "meld 2 2 JK")
        assert [(m.rank, m.size) for m in after.melds[0]] == [(12, 3), (0, 3)]

    def test_seven_wild_cards_close_the_meld(self) -> None:
        """The seventh wild card completes the meld; an eighth is refused as closed."""
        s = position(URUGUAYAN, hands=["2C 2D 2H 2S 2C JK JK 2D 9S 5C"], melds={0: ["QH QS QD"]})
        s = play(s, "meld 2 2 2", "add W 2", "add W 2", "add W JK", "add W JK")
        wild = s.melds[0][1]
        assert (wild.rank, wild.size, s.canasta_kind(wild)) == (0, 7, "wild")
        assert "complete and closed" in refusal(s, "add W 2")

    def test_without_the_limit_a_wild_meld_grows_past_seven(self) -> None:
        """wild_meld_max: null (rummy-games' reading) lets the eighth wild card join."""
        v = attrs.evolve(URUGUAYAN, melds=attrs.evolve(URUGUAYAN.melds, wild_meld_max=None))
        s = position(v, hands=["2C 2D 2H 2S 2C JK JK 2D 9S 5C"], melds={0: ["QH QS QD"]})
        s = play(s, "meld 2 2 2", "add W 2", "add W 2", "add W JK", "add W JK", "add W 2")
        assert s.melds[0][1].size == 8

    def test_the_limit_is_for_wild_melds_only(self) -> None:
        """A meld of kings grows past seven cards: classic's unlimited melds are kept."""
        s = position(URUGUAYAN, hands=["KH 9S 5C"], melds={0: [K7]})
        after = play(s, "add K K")
        assert after.melds[0][0].size == 8

    def test_wild_canasta_scores_2000(self) -> None:
        """Seven wild cards: 200 in melded cards + 2000 for the wild canasta = 2200."""
        b = score_side(URUGUAYAN, melds=[WILD7])
        assert list(b.items) == [("melded cards", 200), ("wild canasta", 2000)]
        assert b.total == 2200

    def test_classic_has_no_wild_melds(self) -> None:
        """The option changes nothing where wild melds are off."""
        s = position(CLASSIC, hands=["2C 2D JK 9S 9H 5C"], melds={0: ["QH QS QD"]})
        assert "meld 2 2 JK" not in moves(s)


class TestAlwaysFrozenPile:
    """Uruguay's pile is taken only with a natural pair matching its top card."""

    def test_lay_off_refused(self) -> None:
        """A king on top of an unfrozen pile does not go onto the side's meld of kings."""
        s = position(URUGUAYAN, hands=["KH 9S 5C"], melds={0: ["KS KD KC"]}, pile="6C KD", phase="draw")
        assert not s.pile_frozen
        assert "take layoff" not in moves(s)
        with pytest.raises(IllegalMoveError):
            s.apply("take layoff")
        # classic takes it that way
        c = position(CLASSIC, hands=["KH 9S 5C"], melds={0: ["KS KD KC"]}, pile="6C KD", phase="draw")
        assert "take layoff" in moves(c)

    def test_natural_pair_takes_it(self) -> None:
        """Two natural kings from the hand take the pile, frozen or not."""
        s = position(URUGUAYAN, hands=["KH KC 9S 5C"], melds={0: ["QS QD QC"]}, pile="6C KD", phase="draw")
        after = play(s, "take pair")
        assert any(m.rank == 13 and m.size == 3 for m in after.melds[0])

    def test_one_natural_and_a_wild_do_not(self) -> None:
        """A king and a wild card from the hand never take it."""
        s = position(URUGUAYAN, hands=["KH 2C 9S 5C"], melds={0: ["QS QD QC"]}, pile="6C KD", phase="draw")
        assert not {m for m in moves(s) if m.startswith("take")}


class TestRedThreeTable:
    """threes.red_table: six players' red 3s, 100 each up to four, 1000 for five, 1200 for six."""

    @pytest.mark.parametrize(
        ("red", "points", "label"),
        [
            (1, 100, "1 red 3"),  # table[0] = 100
            (3, 300, "3 red 3s"),  # table[2] = 300 (= 3 x 100)
            (4, 400, "4 red 3s"),  # table[3] = 400
            (5, 1000, "5 red 3s"),  # table[4]: 1000 in all, not 5 x 100
            (6, 1200, "6 red 3s"),  # table[5]: 1200 in all, not 6 x 100 nor an all-red-3s bonus
        ],
    )
    def test_counts(self, red: int, points: int, label: str) -> None:
        """Two canastas (70 + 70 melded, 500 + 500 bonus) and ``red`` red 3s."""
        b = score_side(SIX, melds=[K7, Q7], red_threes=red)
        assert list(b.items) == [
            ("melded cards", 140), ("natural canasta of Ks", 500), ("natural canasta of Qs", 500),
            (label, points),
        ]
        assert b.total == 140 + 1000 + points

    def test_unmelded_side_counts_them_minus(self) -> None:
        """No meld: five red 3s count -1000 (classic's minus-if-unopened), and 9 + 4 in hand -15."""
        b = score_side(SIX, red_threes=5, hand="9D 4C")
        assert list(b.items) == [("5 red 3s (minus)", -1000), ("cards left in hand", -15)]

    def test_a_short_table_scores_red_bonus_past_its_end(self) -> None:
        """Table [100, 250] with red_bonus 100: three red 3s score 3 x 100 = 300."""
        v = attrs.evolve(CLASSIC, threes=attrs.evolve(CLASSIC.threes, red_table=(100, 250)))
        assert dict(score_side(v, melds=[K7], red_threes=2).items)["2 red 3s"] == 250
        assert dict(score_side(v, melds=[K7], red_threes=3).items)["3 red 3s"] == 300

    def test_without_a_table_classic_is_unchanged(self) -> None:
        """Classic: four red 3s are 'all 4', 800."""
        assert dict(score_side(CLASSIC, melds=[K7], red_threes=4).items)["all 4 red 3s"] == 800


class TestRedCanastasNeeded:
    """threes.red_canastas_needed: Samba-style red 3s count plus only with two canastas."""

    V = attrs.evolve(DRAW_TWO, threes=attrs.evolve(DRAW_TWO.threes, red_canastas_needed=2))

    def test_one_canasta_is_not_enough(self) -> None:
        """One canasta, two red 3s: 70 + 500, and the red 3s -200."""
        b = score_side(self.V, melds=[K7, "9H 9S 9D"], red_threes=2)
        assert dict(b.items)["2 red 3s (minus)"] == -200
        assert b.total == 100 + 500 - 200  # 70 kings + 30 nines melded

    def test_two_canastas_count_them_plus(self) -> None:
        """Two canastas: the red 3s +200."""
        b = score_side(self.V, melds=[K7, Q7], red_threes=2)
        assert dict(b.items)["2 red 3s"] == 200

    def test_draw_two_keeps_one(self) -> None:
        """The bundled draw-two still needs one canasta."""
        assert dict(score_side(DRAW_TWO, melds=[K7], red_threes=2).items)["2 red 3s"] == 200


class TestSixPlayers:
    """classic-6p: three partnerships of two, three decks, thirteen cards, two canastas to go out."""

    def test_the_deal(self) -> None:
        """Six hands of thirteen from 162 cards; partners sit opposite."""
        s = canasta.new_game(SIX, seed=3)
        assert s.sides == ((0, 3), (1, 4), (2, 5))
        assert [len(h) for h in s.hands] == [13] * 6
        laid = sum(len(r) for r in s.red_threes)
        assert s.stock_size + s.pile_size + 6 * 13 + laid == 162

    def test_one_canasta_does_not_go_out(self) -> None:
        """With one canasta, discarding the last card is refused: two are needed."""
        s = position(SIX, hands=["9S"], melds={0: [K7]})
        assert "2 canastas" in refusal(s, "out 9")
        t = position(SIX, hands=["9S"], melds={0: [K7, Q7]})
        assert play(t, "out 9").is_hand_over

    def test_game_to_7500(self) -> None:
        """The game target is 7500."""
        assert SIX.game.target == 7500


class TestBooksAndChecks:
    """The rule books say the new rules; the checker finds nothing wrong in the profiles."""

    def test_uruguayan_book(self) -> None:
        """Wild melds of three to seven, closed; the pile always frozen; the wild canasta's 2000."""
        book = describe(URUGUAYAN)
        assert "three to seven wild cards" in book
        assert "A meld of wild cards is complete (closed) at seven, and no more cards may join it." in book
        assert "always frozen" in book
        assert "This is the only way to take the pile." in book
        assert "frozen for everyone while" not in book  # freezing changes nothing there
        assert "a wild canasta 2000 points" in book

    def test_six_player_book(self) -> None:
        """The red-3 table read aloud, and the three partnerships."""
        book = describe(SIX)
        assert "Up to four red 3s laid score 100 points each" in book
        assert "five score 1000 points in all and six 1200 points" in book
        assert "three partnerships of two" in book
        assert "All six red 3s" not in book  # the table replaces the all-red-3s bonus

    def test_diff_lists_every_change(self) -> None:
        """--diff against classic names the wild melds, their limit, the bonus and the pile."""
        diff = describe_diff(URUGUAYAN, CLASSIC)
        for words in ("wild cards only", "closed", "2000", "adding its top card"):
            assert words in diff, words

    @pytest.mark.parametrize("name", ["uruguayan", "classic-6p"])
    def test_profiles_check_clean(self, name: str) -> None:
        """No static finding on the new profiles."""
        found = check_variant(canasta.load_variant(name))
        assert [d for d in found if d.severity != "info"] == []
