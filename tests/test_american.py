"""Modern American Canasta's options of issue #15: scores worked by hand, and engine scenarios.

Every option is tested on the house profile ``tests/data/houses/mac-options.yaml``
(classic with every option of this part of MAC on; MAC itself is not bundled
yet). Its numbers are those of ``../shared/research/variants.md`` section 1.1:
3s by colour 100 / 300 / 500 / 1000, minus with no canasta, nothing with one,
plus with two or more; melded cards minus with no canasta; aces and 7s
canastas 2500, wild canasta 2000, four jokers 2500, seven 2s 3000; an
incomplete meld of aces or 7s -2500, of wild cards -2000; three or more aces
or 7s held -1500 a player.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

import canasta
from canasta import score_side
from canasta.engine import KIND
from canasta.io.score_file import ScoreFileError, read_score_file
from houses import HOUSES, house_variant
from positions import moves, play, position, refusal
from test_book_prose import _note_of

MAC = house_variant("mac-options")
CLASSIC = canasta.load_variant("classic")
TABLE = (100, 300, 500, 1000)

KINGS = "KH KS KD KC KH KS KD"  # a natural canasta of kings: 70 + 500
QUEENS = "QH QS QD QC QH QS QD"  # a natural canasta of queens: 70 + 500
#: melds that hold 0, 1 and 2 canastas
MELDS = {0: ["KH KS KD"], 1: [KINGS], 2: [KINGS, QUEENS]}


def items(b: canasta.ScoreBreakdown) -> dict[str, int]:
    """The breakdown's items as a mapping (labels are unique within one breakdown)."""
    return dict(b.items)


class TestThreesByColour:
    """3s scored per colour group by a table, with a sign by the side's canastas."""

    @pytest.mark.parametrize("canastas", [0, 1, 2])
    @pytest.mark.parametrize("n", [1, 2, 3, 4])
    def test_red_group(self, n: int, canastas: int) -> None:
        """n red 3s: minus the table's entry with no canasta, nothing with one, plus with two."""
        b = score_side(MAC, melds=MELDS[canastas], red_threes=n)
        # 0 canastas: -30 (three kings, minus) - T; 1: 70 + 500 + 0; 2: 140 + 1000 + T
        expected = {0: -30 - TABLE[n - 1], 1: 570, 2: 1140 + TABLE[n - 1]}[canastas]
        assert b.total == expected, str(b)
        label = f"{n} red 3{'s' if n > 1 else ''}"
        three_items = {k: v for k, v in items(b).items() if k.startswith(label)}
        assert list(three_items.values()) == [{0: -1, 1: 0, 2: 1}[canastas] * TABLE[n - 1]]

    @pytest.mark.parametrize("canastas", [0, 1, 2])
    @pytest.mark.parametrize("n", [1, 2, 3, 4])
    def test_black_group(self, n: int, canastas: int) -> None:
        """n black 3s laid score by the black table with the same sign."""
        b = score_side(MAC, melds=MELDS[canastas], black_threes=n)
        expected = {0: -30 - TABLE[n - 1], 1: 570, 2: 1140 + TABLE[n - 1]}[canastas]
        assert b.total == expected, str(b)

    def test_red_and_black_groups_apart(self) -> None:
        """Two red 3s and three black 3s are two groups, 300 and 500, not one group of five."""
        b = score_side(MAC, melds=MELDS[2], red_threes=2, black_threes=3)
        # 140 melded + 1000 for two natural canastas + 300 (two red) + 500 (three black)
        assert b.total == 1940
        assert items(b)["2 red 3s"] == 300 and items(b)["3 black 3s"] == 500
        c = score_side(MAC, melds=MELDS[0], red_threes=2, black_threes=3)
        # -30 melded (no canasta) - 300 - 500
        assert c.total == -830
        d = score_side(MAC, melds=MELDS[1], red_threes=4, black_threes=4)
        # 70 + 500, and both groups score nothing with one canasta
        assert d.total == 570
        assert items(d)["4 red 3s (nothing: 1 canasta)"] == 0
        assert items(d)["4 black 3s (nothing: 1 canasta)"] == 0

    def test_unopened_side(self) -> None:
        """A side with no meld counts its 3s minus (0 canastas)."""
        b = score_side(MAC, red_threes=1, black_threes=2, hand="9C")
        # -100 - 300 - 10
        assert b.total == -410

    def test_black_threes_need_the_option(self) -> None:
        """Classic does not lay black 3s out: score_side refuses laid black 3s, naming the option."""
        with pytest.raises(canasta.CanastaError, match="black_laid_at_once"):
            score_side(CLASSIC, melds=[KINGS], black_threes=1)

    def test_classic_red_threes_unchanged(self) -> None:
        """The defaults score as before: four red 3s 800, no neutral band."""
        assert score_side(CLASSIC, melds=["KH KS KD"], red_threes=4).total == 30 + 800
        draw_two = canasta.load_variant("draw-two")
        # draw-two counts red 3s minus without a canasta, with no band of nothing
        assert score_side(draw_two, melds=["KH KS KD"], red_threes=1).total == 30 - 100


class TestMeldsMinusWithoutCanasta:
    """scoring.meld_minus_without_canasta: melded cards count minus with no canasta."""

    def test_minus_with_no_canasta(self) -> None:
        """Three kings and Q Q 2 with no canasta: -(30 + 20 + 20) = -70."""
        b = score_side(MAC, melds=["KH KS KD", "QH QS 2D"])
        assert b.total == -70
        assert items(b) == {"melded cards (minus: no canasta)": -70}

    def test_plus_with_a_canasta(self) -> None:
        """With one canasta the same cards count plus: 70 + 500 + 20 + 20 = 610."""
        b = score_side(MAC, melds=[KINGS, "QH QS 2D"])
        assert b.total == 610

    def test_classic_counts_plus(self) -> None:
        """Off by default: classic counts melded cards plus without a canasta."""
        assert score_side(CLASSIC, melds=["KH KS KD"]).total == 30


class TestCanastaBonuses:
    """Every canasta bonus of MAC, each with its cards' values."""

    @pytest.mark.parametrize(
        ("meld", "total", "label"),
        [
            (KINGS, 70 + 500, "natural canasta of Ks"),
            ("KH KS KD KC KH 2C 2D", 50 + 40 + 300, "mixed canasta of Ks"),
            ("AH AS AD AC AH AS AD", 140 + 2500, "natural canasta of As"),
            ("7H 7S 7D 7C 7H 7S 7D", 35 + 2500, "natural canasta of 7s"),
            # one joker and six 2s: 50 + 120, the plain wild bonus
            ("JK 2C 2D 2H 2S 2C 2D", 170 + 2000, "wild canasta"),
            # three jokers and four 2s: 150 + 80
            ("JK JK JK 2C 2D 2H 2S", 230 + 2000, "wild canasta"),
            # four jokers and three 2s: 200 + 60
            ("JK JK JK JK 2C 2D 2H", 260 + 2500, "wild canasta with 4 jokers"),
            # seven 2s: 140
            ("2C 2D 2H 2S 2C 2D 2H", 140 + 3000, "wild canasta with 7 2s"),
        ],
    )
    def test_bonus(self, meld: str, total: int, label: str) -> None:
        """The canasta scores its cards and its bonus (one canasta: 3s and melds count nothing special)."""
        b = score_side(MAC, melds=[meld])
        assert b.total == total, str(b)
        assert label in items(b)

    def test_wild_mix_bonus_only_for_wild_canastas(self) -> None:
        """Classic has no wild melds: a mixed canasta with two 2s is a mixed canasta, whatever the mix rows."""
        v = attrs.evolve(CLASSIC, canastas=MAC.canastas)
        b = score_side(v, melds=["KH KS KD KC KH 2C 2D"])
        assert b.total == 50 + 40 + 300


class TestPenalties:
    """Incomplete aces, 7s and wild melds; three or more aces or 7s held."""

    def test_incomplete_aces(self) -> None:
        """A meld of three aces and no canasta: -60 melded (minus) - 2500."""
        b = score_side(MAC, melds=["AH AS AD"])
        assert b.total == -2560
        assert items(b)["incomplete meld of aces"] == -2500

    def test_incomplete_aces_beside_a_canasta(self) -> None:
        """With a canasta of kings: 70 + 500 + 60 - 2500 = -1870."""
        assert score_side(MAC, melds=[KINGS, "AH AS AD"]).total == -1870

    def test_incomplete_sevens(self) -> None:
        """Three 7s beside a canasta of kings: 70 + 500 + 15 - 2500 = -1915."""
        b = score_side(MAC, melds=[KINGS, "7H 7S 7D"])
        assert b.total == -1915
        assert items(b)["incomplete meld of 7s"] == -2500

    def test_incomplete_wild_meld(self) -> None:
        """A joker and two 2s beside a canasta of kings: 70 + 500 + 90 - 2000 = -1340."""
        b = score_side(MAC, melds=[KINGS, "JK 2H 2S"])
        assert b.total == -1340
        assert items(b)["incomplete meld of wild cards"] == -2000

    def test_complete_melds_are_not_penalized(self) -> None:
        """A canasta of aces is no incomplete meld: 140 + 2500."""
        assert score_side(MAC, melds=["AH AS AD AC AH AS AD"]).total == 2640

    def test_three_aces_held(self) -> None:
        """Three aces and a 4 left: 570 - (60 + 5) - 1500 = -995."""
        b = score_side(MAC, melds=[KINGS], hands=["AH AS AD 4C"])
        assert b.total == -995
        assert items(b)["3 or more aces held by a player"] == -1500

    def test_two_aces_held_cost_their_values_only(self) -> None:
        """Two aces: 570 - 40."""
        assert score_side(MAC, melds=[KINGS], hands=["AH AS"]).total == 530

    def test_sevens_held_by_each_player(self) -> None:
        """Both players hold three 7s: 570 - (15 + 15 + 10) - 2 x 1500 = -2470."""
        b = score_side(MAC, melds=[KINGS], hands=["7H 7S 7D", "7C 7H 7S 9D"])
        assert b.total == -2470
        assert items(b)["3 or more 7s held by 2 players"] == -3000

    def test_split_between_partners_is_no_penalty(self) -> None:
        """Two 7s and one 7 in two hands: no player holds three; 570 - 15."""
        assert score_side(MAC, melds=[KINGS], hands=["7H 7S", "7D"]).total == 555

    def test_penalties_stack(self) -> None:
        """An incomplete aces meld and three aces held: 570 + 60 - 2500 - 60 - 1500 = -3430."""
        b = score_side(MAC, melds=[KINGS, "AH AS AD"], hands=["AC AH AS"])
        assert b.total == -3430

    def test_engine_scores_the_penalties(self) -> None:
        """The engine's own hand end itemizes the same penalties (stock runs out, seat 1 passes)."""
        s = position(
            MAC, current=1, phase="draw", stock="", pile="",
            hands={0: "AC AH AS", 1: "", 2: "7C 7H 7S", 3: ""},
            melds={0: [KINGS, "7D 7C 7H"], 1: ["QH QS QD"]},
        ).apply("pass")
        assert s.end is not None
        mine, theirs = (items(b) for b in s.end.breakdowns)
        # side 0: 70 + 500 + 15 - 2500 (7s) - 60 - 1500 (aces held) - 15 - 1500 (7s held)
        assert s.end.hand_scores[0] == 70 + 500 + 15 - 2500 - 60 - 1500 - 15 - 1500
        assert mine["incomplete meld of 7s"] == -2500
        assert mine["3 or more aces held by a player"] == -1500
        # side 1: three queens, no canasta: minus
        assert theirs == {"melded cards (minus: no canasta)": -30}


class TestScoreFile:
    """``canasta score`` files take black_threes and hands."""

    def test_black_threes_and_hands(self, tmp_path: Path) -> None:
        """A side's black 3s laid and each player's hand apart: the file scores as score_side does."""
        path = tmp_path / "hand.yaml"
        path.write_text(
            f"variant: {HOUSES['mac-options']}\n"
            "sides:\n"
            "  us: {melds: ['KH KS KD KC KH KS KD', 'AH AS AD'], hands: ['AC AH AS', '7C'], black_threes: 2}\n"
            "  them: {melds: ['QH QS QD'], black_threes: 1}\n",
            encoding="utf-8",
        )
        scored = dict(read_score_file(path).sides)
        # us: 70 + 60 melded + 500 - (60 + 5) left - 2500 (aces meld) - 1500 (three aces held);
        # the two black 3s score nothing with one canasta
        assert scored["us"].total == 130 + 500 - 65 - 2500 - 1500
        # them: -30 melded (no canasta) - 100 for one black 3 (minus)
        assert scored["them"].total == -130

    def test_too_many_black_threes(self, tmp_path: Path) -> None:
        """Five black 3s laid between the sides is more than two decks hold."""
        path = tmp_path / "hand.yaml"
        path.write_text(
            f"variant: {HOUSES['mac-options']}\nsides:\n  - {{black_threes: 3}}\n  - {{black_threes: 2}}\n",
            encoding="utf-8",
        )
        with pytest.raises(ScoreFileError, match="the decks hold only 4 black 3s"):
            read_score_file(path)


class TestBlackThreesLaid:
    """threes.black_laid_at_once: black 3s are laid face up and replaced, like red 3s."""

    def test_laid_at_the_deal(self) -> None:
        """No hand is dealt a 3 of either colour; every hand has 13 cards; some black 3 is laid."""
        laid_black = 0
        for seed in range(6):
            s = canasta.new_game(MAC, seed=seed)
            assert all(len(h) == 13 for h in s.hands_)
            assert all(KIND[c] not in (1, 3) for h in s.hands_ for c in h)
            laid_black += sum(1 for side in s.red_threes_ for c in side if KIND[c] == 3)
        assert laid_black > 0

    def test_laid_on_the_draw_and_replaced(self) -> None:
        """A black 3 drawn is laid for the side and the next stock card is drawn in its place."""
        s = position(MAC, hands={0: "KH KS 5C 9D"}, stock="8C 6D 3S", phase="draw", pile="4C")
        s2 = play(s, "draw")
        assert [str(c) for c in s2.red_threes[0]] == ["3S"]
        assert "6D" in {str(c) for c in s2.hands[0]} and len(s2.hands_[0]) == 5
        assert len(s2.stock_) == 1

    def test_laid_from_a_pile_taken(self) -> None:
        """A black 3 found in the pile taken is laid (not replaced), not taken into the hand."""
        s = position(
            MAC, hands={0: "KH KS 5C 6D"}, pile="3C 9H KD", phase="draw", melds={0: ["QH QS QD"]},
        )
        s2 = play(s, "take pair")
        assert [str(c) for c in s2.red_threes[0]] == ["3C"]
        assert sorted(str(c) for c in s2.hands[0]) == ["5C", "6D", "9H"]

    def test_classic_keeps_black_threes(self) -> None:
        """Off by default: classic deals black 3s into the hands as before."""
        s = canasta.new_game(CLASSIC, seed=3)
        assert all(KIND[c] == 1 for side in s.red_threes_ for c in side)


class TestSevensTakeNoWilds:
    """melds.no_wild_ranks: a meld of 7s never holds a wild card."""

    def test_new_meld_refused(self) -> None:
        """7 7 2 is refused with the rule's reason; 7 7 7 is legal."""
        s = position(MAC, hands={0: "7H 7S 7D 2C 5C 6C"}, melds={0: ["QH QS QD"]})
        assert "a meld of 7s never holds a wild card" in refusal(s, "meld 7 7 2")
        assert "meld 7 7 7" in moves(s)

    def test_add_refused(self) -> None:
        """A 2 may not join a meld of 7s, while it may join the queens."""
        s = position(MAC, hands={0: "2C 5C 6C"}, melds={0: ["QH QS QD", "7H 7S 7D"]})
        assert refusal(s, "add 7 2") == "a meld of 7s never holds a wild card"
        assert "add Q 2" in moves(s)

    def test_take_with_a_wild_refused(self) -> None:
        """With the house's pile.take_natural_and_wild, a 7 and a 2 may not take a 7; a K and a 2 take a K."""
        s = position(MAC, hands={0: "7H 2C 5C 6C 9D"}, pile="4C 7C", phase="draw", melds={0: ["QH QS QD"]})
        assert refusal(s, "take 2") == "7 2 7 is not a legal meld: a meld of 7s never holds a wild card"
        t = position(MAC, hands={0: "KH 2C 5C 6C 9D"}, pile="4C KC", phase="draw", melds={0: ["QH QS QD"]})
        assert "take 2" in moves(t)

    def test_no_dead_end_through_the_sevens(self) -> None:
        """An unopened side needing 120 is not offered a step whose only finish would put a wild on its 7s.

        Laid this turn: A A A 2 (80 points). Adding the second 2 makes 100, and then
        the joker could reach 120 only in 7 7 JK, which the 7s refuse (the aces hold
        two wild cards already): a dead end, so it is not listed. Adding the joker
        to the aces instead makes 130.
        """
        s = position(
            MAC, hands={0: "7H 7S JK 9D 8D 2D"}, melds={0: ["AH AS AD 2C"]}, opened=[False, False],
            scores=(3000, 0), turn={"melded": True, "points": 80},
        )
        assert "add A JK" in moves(s)
        assert "add A 2" not in moves(s)

    def test_classic_sevens_take_wilds(self) -> None:
        """Off by default: classic melds 7 7 2."""
        s = position("classic", hands={0: "7H 7S 2C 5C 6C"}, melds={0: ["QH QS QD"]})
        assert "meld 7 7 2" in moves(s)


class TestDiscardBars:
    """pile.empty_bar_ranks / empty_bar_wilds (SWAD) and pile.wild_discard."""

    def test_swad_on_an_empty_pile(self) -> None:
        """No 7, ace or wild card onto an empty pile; a king is fine."""
        s = position(MAC, hands={0: "7H AS 2C KD"}, melds={0: ["QH QS QD"]}, pile="")
        assert refusal(s, "discard 7") == "a 7 may not be discarded onto an empty pile"
        assert refusal(s, "discard A") == "an A may not be discarded onto an empty pile"
        assert "empty pile" in refusal(s, "discard 2")
        assert "discard K" in moves(s)

    def test_a_pile_with_cards_lifts_swad(self) -> None:
        """On a pile that holds a card, a 7 and an ace may be discarded (a 2 still may not: wild_discard)."""
        s = position(MAC, hands={0: "7H AS 2C KD"}, melds={0: ["QH QS QD"]}, pile="9C")
        assert {"discard 7", "discard A", "discard K"} <= moves(s)
        assert refusal(s, "discard 2") == (
            "a wild card may be discarded only to go out or from a hand of wild cards only"
        )

    def test_after_taking_the_pile(self) -> None:
        """The pile taken whole is empty: the discard that follows obeys SWAD."""
        s = position(MAC, hands={0: "KH KS 7C 8D"}, pile="5C 9H KD", phase="draw", melds={0: ["QH QS QD"]})
        s2 = play(s, "take pair")
        assert s2.pile_ == ()
        assert "empty pile" in refusal(s2, "discard 7")
        assert {"discard 8", "discard 9", "discard 5"} <= moves(s2)

    def test_every_card_barred_lifts_the_bar(self) -> None:
        """A hand of a 7 and an ace on an empty pile may discard either: the bar lifts."""
        s = position(MAC, hands={0: "7H AS"}, melds={0: ["QH QS QD"]}, pile="")
        assert {"discard 7", "discard A"} <= moves(s)

    def test_wilds_only(self) -> None:
        """A hand of wild cards only may discard one onto a pile that holds cards."""
        s = position(MAC, hands={0: "2C JK"}, melds={0: ["QH QS QD"]}, pile="9C")
        assert {"discard 2", "discard JK"} <= moves(s)

    def test_going_out_is_never_barred(self) -> None:
        """With two canastas, the last card may be a 7 or a 2 even onto an empty pile."""
        for last in ("7H", "2C"):
            s = position(MAC, hands={0: last}, melds={0: [KINGS, QUEENS]}, pile="")
            kind = last[:-1]
            assert f"out {kind}" in moves(s)

    def test_classic_discards_anything(self) -> None:
        """Off by default: classic discards a 7 or a 2 onto an empty pile."""
        s = position("classic", hands={0: "7H 2C KD"}, melds={0: ["QH QS QD"]}, pile="")
        assert {"discard 7", "discard 2", "discard K"} <= moves(s)


class TestGameTo8500:
    """game.target 8500: when both sides pass it on the same hand, the higher total wins."""

    def test_higher_total_wins(self) -> None:
        """Side 0 ends at 8400 + 570 = 8970, side 1 at 8450 + 70 + 500 + 70 + 500 = 9590: side 1 wins."""
        s = position(
            MAC, current=1, phase="draw", stock="", pile="", hands={1: ""}, scores=(8400, 8450),
            melds={0: [KINGS], 1: [QUEENS, "JH JS JD JC JH JS JD"]},
        ).apply("pass")
        assert s.is_game_over
        assert s.scores == (8400 + 570, 8450 + 1140)
        assert s.winners == (1,)


class TestJson:
    """States of the house profile through JSON."""

    def test_state_without_laid_black_threes_round_trips(self) -> None:
        """A house state whose laid-3s zone holds red 3s only reads back equal."""
        s = position(MAC, hands=["KH KS 5C 9D", "4C", "4D", "4H"], red_threes={0: "3H"}, melds={0: ["QH QS QD"]})
        assert canasta.from_json(canasta.to_json(s), canasta.GameState) == s

    def test_laid_black_threes_round_trip(self) -> None:
        """A state whose laid-3s zone holds a black 3 reads back equal."""
        s = position(MAC, hands=["KH KS 5C 9D", "4C", "4D", "4H"], red_threes={0: "3H 3S"}, melds={0: ["QH QS QD"]})
        assert canasta.from_json(canasta.to_json(s), canasta.GameState) == s


# -- aces that took wild cards in the opening turn are an ordinary meld

#: the bundled profile, whose aces take wild cards only in the side's opening turn
MAC_PROFILE = canasta.load_variant("modern-american")
#: aces with two jokers, laid in the side's opening turn
MIXED_ACES = "AC AD AH JK JK"


class TestMixedAces:
    """"If this is done, the aces are treated like any other meld": no aces penalty, no aces to finish."""

    def test_no_penalty_for_mixed_aces(self) -> None:
        """The aces with wild cards left unfinished cost their values only, not 2,500."""
        b = score_side(MAC_PROFILE, melds=[MIXED_ACES, KINGS, QUEENS], hand=["4C"])
        assert "incomplete meld of aces" not in items(b)
        assert b.total == (70 + 70 + 60 + 100) + 500 + 500 - 5
        pure = score_side(MAC_PROFILE, melds=["AC AD AH", KINGS, QUEENS], hand=["4C"])
        assert items(pure)["incomplete meld of aces"] == -2500

    def test_mixed_aces_do_not_block_going_out(self) -> None:
        """Two canastas and mixed aces: an ace added (six cards, no canasta) and a discard go out."""
        s = position(MAC_PROFILE, hands=["AS 9D", "4C 6D"], melds={0: [MIXED_ACES, KINGS, QUEENS]},
                     pile="5D")
        assert "ask" in moves(s)
        out = play(s, "add A A", "out 9")
        assert out.end is not None and out.end.reason == "out"
        assert "incomplete meld of aces" not in items(out.end.breakdowns[0])

    def test_natural_aces_still_block_going_out(self) -> None:
        """Natural aces must be a canasta before going out: four aces are no way out."""
        s = position(MAC_PROFILE, hands=["AS 9D", "4C 6D"], melds={0: ["AC AD AH", KINGS, QUEENS]},
                     pile="5D")
        assert "ask" not in moves(s)  # no way out to ask about
        assert "add A A" not in moves(s)  # one card left and no way out: a dead end

    def test_mixed_aces_take_no_more_wild_cards(self) -> None:
        """The reading the profile marks: after the opening turn aces take no wild card, mixed or not."""
        s = position(MAC_PROFILE, hands=["2C AS AC 9D 5S", "4C 6D"], melds={0: ["AC AD AH AS 2D", KINGS]},
                     pile="5D")
        assert "take no wild card after the turn your side opened" in refusal(s, "add A 2")
        assert "melds.late_natural_ranks" in {a.path for a in MAC_PROFILE.assumed}

    def test_the_book_says_so(self) -> None:
        """The book states the ordinary meld and marks the reading of later wild cards, with its alternative."""
        book = canasta.describe(MAC_PROFILE)
        sentence = (
            "If it took wild cards in that turn, it is an ordinary meld: the rules for an unfinished meld of "
            "its rank do not apply to it, and it takes no more wild cards."
        )
        assert sentence in book
        assert "the rule of five as the alternative" in _note_of(book, sentence)
