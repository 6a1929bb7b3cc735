"""Tests of canasta.engine.scoring: score_side, ScoreBreakdown and the published figures.

Every example below is worked by hand from /work/shared/RULES.md; the comment
above it spells out the arithmetic. Card values (all three profiles): joker 50,
2 20, A 20, K-8 10, 7-4 5, black 3 5.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest

import canasta
from canasta import CanastaError, NotationError, ScoreBreakdown, score_side
from canasta.cli import main
from canasta.engine.scoring import SideTable, score_table, totals
from canasta.io.score_file import ScoreFileError, read_score_file, score_data

CLASSIC = canasta.load_variant("classic")
DRAW_TWO = canasta.load_variant("draw-two")
HAND_AND_FOOT = canasta.load_variant("hand-and-foot")
VARIANTS = {"classic": CLASSIC, "draw-two": DRAW_TWO, "hand-and-foot": HAND_AND_FOOT}

K7 = "KH KS KD KC KH KS KD"  # a natural canasta of kings: 7 x 10 = 70
# Hand and Foot's three canastas needed to go out:
WILD7 = "2C 2D 2H 2S 2C JK JK"  # 5 x 20 + 2 x 50 = 200, wild
CLEAN_Q = "QH QS QD QC QH QS QD"  # 7 x 10 = 70, clean
DIRTY_7 = "7H 7S 7D 7C 7H 2D JK"  # 5 x 5 + 20 + 50 = 95, dirty
HF_OUT = [WILD7, CLEAN_Q, DIRTY_7]  # 200 + 70 + 95 = 365 melded; 1500 + 500 + 300 bonuses


def items_sum(b: ScoreBreakdown) -> int:
    """The sum of a breakdown's item points, added up independently of ``total``."""
    return sum(points for _, points in b.items)


# (profile, score_side keyword arguments, expected items) for each hand-worked example.
EXAMPLES: list[Any] = [
    # -- classic -------------------------------------------------------------------
    # published: 7 kings x 10 = 70 melded + 500 natural canasta = 570 in all
    pytest.param(
        "classic", {"melds": [K7]},
        [("melded cards", 70), ("natural canasta of Ks", 500)],
        id="classic-natural-canasta-of-kings-570",
    ),
    # published: 3 fives x 5 = 15 melded + all four red 3s 800 (not 4 x 100 = 400) = 815
    pytest.param(
        "classic", {"melds": ["5H 5S 5D"], "red_threes": 4},
        [("melded cards", 15), ("all 4 red 3s", 800)],
        id="classic-all-four-red-threes-800",
    ),
    # published: 7 kings 70 + 3 nines 30 = 100 melded + 500 natural canasta
    #   + 200 for going out concealed (in all, not 100 + 200) = 800
    pytest.param(
        "classic",
        {"melds": [K7, "9H 9S 9D"], "went_out": True, "concealed": True},
        [("melded cards", 100), ("natural canasta of Ks", 500), ("going out concealed", 200)],
        id="classic-concealed-out-200",
    ),
    # 7 kings x 10 = 70 melded + 500 natural canasta + 100 red 3 - (5 + 10) in hand = 655
    pytest.param(
        "classic", {"melds": [K7], "red_threes": 1, "hand": "4C 9D"},
        [("melded cards", 70), ("natural canasta of Ks", 500), ("1 red 3", 100),
         ("cards left in hand", -15)],
        id="classic-canasta-red-three-hand-655",
    ),
    # queens: 5 x 10 = 50 + 2 20 + joker 50 = 120 melded + 300 mixed canasta
    #   + 2 red 3s 200 - (5 + 10) in hand = 605
    pytest.param(
        "classic", {"melds": ["QH QS QD QC QH 2C JK"], "red_threes": 2, "hand": "4C 9D"},
        [("melded cards", 120), ("mixed canasta of Qs", 300), ("2 red 3s", 200),
         ("cards left in hand", -15)],
        id="classic-mixed-canasta-605",
    ),
    # published melds 5-5-2 (5 + 5 + 20 = 30) and 9-9-9-2-2-joker (30 + 40 + 50 = 120):
    #   150 melded, no canasta
    pytest.param(
        "classic", {"melds": ["5H 5S 2C", "9H 9S 9D 2C 2D JK"]},
        [("melded cards", 150)],
        id="classic-published-legal-melds-150",
    ),
    # aces: 4 x 20 = 80 + 2 x 20 = 40 + joker 50 = 170 melded + 300 mixed + 100 going out
    #   - partner's (10 + 10 + 5 + 5) = 540
    pytest.param(
        "classic", {"melds": ["AH AS AD AC 2H 2D JK"], "went_out": True, "hand": "8C 8D 6H 4S"},
        [("melded cards", 170), ("mixed canasta of As", 300), ("going out", 100),
         ("cards left in hand", -30)],
        id="classic-going-out-540",
    ),
    # black 3s melded when going out: 70 kings + 3 x 5 = 15 black 3s = 85 melded
    #   + 500 natural canasta + 100 going out = 685
    pytest.param(
        "classic", {"melds": [K7, "3C 3S 3C"], "went_out": True},
        [("melded cards", 85), ("natural canasta of Ks", 500), ("going out", 100)],
        id="classic-black-threes-melded-going-out-685",
    ),
    # unopened side: its 2 red 3s count minus, -200, and its hand
    #   -(20 + 50 + 5 + 5) = -80 (ace, joker, 7, black 3): -280
    pytest.param(
        "classic", {"red_threes": 2, "hand": "AH JK 7C 3S"},
        [("2 red 3s (minus)", -200), ("cards left in hand", -80)],
        id="classic-unopened-red-threes-minus-280",
    ),
    # unopened side with all four red 3s: -800 (not -400), and a 2 in hand -20 = -820
    pytest.param(
        "classic", {"red_threes": 4, "hand": "2C"},
        [("all 4 red 3s (minus)", -800), ("cards left in hand", -20)],
        id="classic-unopened-all-red-threes-minus-820",
    ),
    # the value table, all left in hand: joker 50 + 2 20 + A 20 + K Q J 10 9 8 (6 x 10 = 60)
    #   + 7 6 5 4 (4 x 5 = 20) + black 3 5 = 175 minus
    pytest.param(
        "classic", {"hand": "JK 2C AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3C"},
        [("cards left in hand", -175)],
        id="classic-card-values-175",
    ),
    # 3 tens 30 melded - two black 3s (5 + 5) in hand = 20
    pytest.param(
        "classic", {"melds": ["10H 10S 10D"], "hand": "3C 3S"},
        [("melded cards", 30), ("cards left in hand", -10)],
        id="classic-black-threes-in-hand-20",
    ),
    # two canastas: 7 kings 70 + 7 jacks with a 2 (6 x 10 + 20 = 80) = 150 melded
    #   + 500 natural + 300 mixed + 3 red 3s 300 + 100 going out = 1350
    pytest.param(
        "classic",
        {"melds": [K7, "JH JS JD JC JH JS 2C"], "red_threes": 3, "went_out": True},
        [("melded cards", 150), ("natural canasta of Ks", 500), ("mixed canasta of Js", 300),
         ("3 red 3s", 300), ("going out", 100)],
        id="classic-two-canastas-1350",
    ),
    # -- draw-two ------------------------------------------------------------------
    # red 3s count plus only with a canasta: 4 jacks 40 melded - 2 red 3s 200 = -160
    pytest.param(
        "draw-two", {"melds": ["JH JS JD JC"], "red_threes": 2},
        [("melded cards", 40), ("2 red 3s (minus)", -200)],
        id="draw-two-red-threes-without-canasta-minus-160",
    ),
    # with a canasta they count plus: 7 jacks 70 + 500 natural + 2 red 3s 200 = 770
    pytest.param(
        "draw-two", {"melds": ["JH JS JD JC JH JS JD"], "red_threes": 2},
        [("melded cards", 70), ("natural canasta of Js", 500), ("2 red 3s", 200)],
        id="draw-two-red-threes-with-canasta-770",
    ),
    # all four red 3s without a canasta: 3 sixes 15 melded - 800 = -785
    pytest.param(
        "draw-two", {"melds": ["6H 6S 6D"], "red_threes": 4},
        [("melded cards", 15), ("all 4 red 3s (minus)", -800)],
        id="draw-two-all-red-threes-without-canasta-minus-785",
    ),
    # no opening meld: 1 red 3 -100 and all cards against: -(10 + 5) = -115
    pytest.param(
        "draw-two", {"red_threes": 1, "hand": "KH 5C"},
        [("1 red 3 (minus)", -100), ("cards left in hand", -15)],
        id="draw-two-unopened-minus-115",
    ),
    # eights: 5 x 10 + 2 x 20 = 90 melded + 300 mixed + 100 going out - 9 in hand 10 = 480
    pytest.param(
        "draw-two", {"melds": ["8H 8S 8D 8C 8H 2S 2D"], "went_out": True, "hand": "9C"},
        [("melded cards", 90), ("mixed canasta of 8s", 300), ("going out", 100),
         ("cards left in hand", -10)],
        id="draw-two-going-out-480",
    ),
    # -- hand-and-foot -------------------------------------------------------------
    # wild canasta: 5 twos 100 + 2 jokers 100 = 200 melded + 1500 = 1700
    pytest.param(
        "hand-and-foot", {"melds": [WILD7]},
        [("melded cards", 200), ("wild canasta", 1500)],
        id="hand-and-foot-wild-canasta-1700",
    ),
    # going out: 200 + 70 + 95 = 365 melded + 1500 wild + 500 clean + 300 dirty
    #   + 2 red 3s 200 + 100 going out = 2965
    pytest.param(
        "hand-and-foot", {"melds": HF_OUT, "red_threes": 2, "went_out": True},
        [("melded cards", 365), ("wild canasta", 1500), ("natural canasta of Qs", 500),
         ("mixed canasta of 7s", 300), ("2 red 3s", 200), ("going out", 100)],
        id="hand-and-foot-going-out-2965",
    ),
    # black-3 out: 365 melded + 2300 canastas + 100 going out + 1500 black-3 out = 4265;
    #   the 7 black 3s kept for the out count neither plus nor minus
    pytest.param(
        "hand-and-foot",
        {"melds": HF_OUT, "went_out": True, "black_three_out": True,
         "hand": "3C 3S 3C 3S 3C 3S 3C"},
        [("melded cards", 365), ("wild canasta", 1500), ("natural canasta of Qs", 500),
         ("mixed canasta of 7s", 300), ("going out", 100), ("black-3 out", 1500)],
        id="hand-and-foot-black-three-out-1500",
    ),
    # red 3s held in the unplayed foot: 3 kings 30 + 1 red 3 laid 100
    #   - foot (9 10 + 5 5) = -15 - 2 red 3s held 200 = -85
    pytest.param(
        "hand-and-foot", {"melds": ["KH KS KD"], "red_threes": 1, "foot": "3H 3D 9C 5S"},
        [("melded cards", 30), ("1 red 3", 100), ("cards left in hand", -15),
         ("red 3s held", -200)],
        id="hand-and-foot-red-threes-held-in-foot-minus-85",
    ),
    # hand and foot both count minus: 3 aces 60 melded - hand (20 + 5)
    #   - foot (50 + 20 + 10 + 10 + 5 + 5) = 60 - 25 - 100 = -65
    pytest.param(
        "hand-and-foot", {"melds": ["AH AS AD"], "hand": "AH 4C", "foot": "JK 2C KH QH 7S 3C"},
        [("melded cards", 60), ("cards left in hand", -125)],
        id="hand-and-foot-hand-and-foot-minus-65",
    ),
    # red 3s are never minus for an unopened side here: 2 x 100 = 200
    pytest.param(
        "hand-and-foot", {"red_threes": 2},
        [("2 red 3s", 200)],
        id="hand-and-foot-unopened-red-threes-plus-200",
    ),
    # red_threes_held given as a count: 2 x -100 = -200
    pytest.param(
        "hand-and-foot", {"red_threes_held": 2},
        [("red 3s held", -200)],
        id="hand-and-foot-red-threes-held-count-minus-200",
    ),
    # a new meld of a rank whose canasta is complete: 7 kings 70 + 3 kings 30 = 100
    #   melded + 500 clean canasta = 600
    pytest.param(
        "hand-and-foot", {"melds": [K7, "KC KH KS"]},
        [("melded cards", 100), ("natural canasta of Ks", 500)],
        id="hand-and-foot-second-meld-after-canasta-600",
    ),
    # the second wild joins as the 6th card: 4 nines 40 + 2 x 20 = 80, no canasta
    pytest.param(
        "hand-and-foot", {"melds": ["9H 9S 9D 9C 2C 2D"]},
        [("melded cards", 80)],
        id="hand-and-foot-second-wild-as-sixth-card-80",
    ),
]


class TestExamples:
    """Hand-worked examples: exact items and totals for each seed profile."""

    @pytest.mark.parametrize(("name", "kwargs", "expected"), EXAMPLES)
    def test_example(
        self, name: str, kwargs: dict[str, Any], expected: list[tuple[str, int]]
    ) -> None:
        """score_side gives exactly the hand-worked items, and they sum to the total."""
        b = score_side(VARIANTS[name], **kwargs)
        assert list(b.items) == expected
        assert b.total == sum(points for _, points in expected)
        assert items_sum(b) == b.total

    def test_examples_cover_every_profile(self) -> None:
        """At least 15 examples in all, and at least four per seed profile."""
        per = {name: sum(1 for p in EXAMPLES if p.values[0] == name) for name in VARIANTS}
        assert len(EXAMPLES) >= 15
        assert min(per.values()) >= 4, per


class TestPublishedChecks:
    """The figures RULES.md publishes, asserted one by one."""

    def test_seven_kings_570(self) -> None:
        """A natural canasta of seven kings is worth 570 in all (500 + 7 x 10)."""
        # 7 x 10 = 70 + 500 = 570
        assert score_side(CLASSIC, melds=[K7]).total == 570

    def test_all_four_red_threes_800(self) -> None:
        """All four red 3s score 800, not 4 x 100 = 400."""
        b = score_side(CLASSIC, melds=["5H 5S 5D"], red_threes=4)
        assert dict(b.items)["all 4 red 3s"] == 800

    def test_three_red_threes_300(self) -> None:
        """Fewer than four red 3s score 100 each: 3 x 100 = 300."""
        b = score_side(CLASSIC, melds=["5H 5S 5D"], red_threes=3)
        assert dict(b.items)["3 red 3s"] == 300

    def test_concealed_out_200_in_all(self) -> None:
        """Going out concealed is worth 200 for going out, not 100 + 200."""
        plain = score_side(CLASSIC, melds=[K7], went_out=True)
        concealed = score_side(CLASSIC, melds=[K7], went_out=True, concealed=True)
        assert dict(plain.items)["going out"] == 100
        assert dict(concealed.items)["going out concealed"] == 200
        assert "going out" not in dict(concealed.items)
        # 70 + 500 + 200 = 770 against 70 + 500 + 100 = 670
        assert concealed.total - plain.total == 100

    @pytest.mark.parametrize(
        ("meld", "points"),
        [("5H 5S 2C", 30), ("9H 9S 9D 2C 2D JK", 120)],  # 5+5+20; 30+20+20+50
    )
    def test_legal_published_melds(self, meld: str, points: int) -> None:
        """5-5-2 and 9-9-9-2-2-joker are legal melds."""
        assert score_side(CLASSIC, melds=[meld]).items == (("melded cards", points),)

    @pytest.mark.parametrize(
        ("meld", "reason"),
        [
            ("5H 2C 2D", "a meld needs at least 2 natural cards"),
            ("9H 9S 2C 2D 2H JK", "a meld may hold at most 3 wild cards"),
        ],
    )
    def test_illegal_published_melds(self, meld: str, reason: str) -> None:
        """5-2-2 and 9-9-2-2-2-joker are not legal melds."""
        with pytest.raises(CanastaError) as info:
            score_side(CLASSIC, melds=[meld])
        assert str(info.value) == f"meld 1 ({meld}): {reason}"

    @pytest.mark.parametrize(
        ("card", "value"),
        [("JK", 50), ("2C", 20), ("AS", 20), ("KH", 10), ("QD", 10), ("JC", 10), ("10S", 10),
         ("9H", 10), ("8D", 10), ("7C", 5), ("6S", 5), ("5H", 5), ("4D", 5), ("3C", 5),
         ("3S", 5)],
    )
    @pytest.mark.parametrize("name", list(VARIANTS))
    def test_card_values(self, name: str, card: str, value: int) -> None:
        """Each card left in hand counts minus its value from the common table."""
        assert score_side(VARIANTS[name], hand=card).items == (("cards left in hand", -value),)


class TestErrors:
    """score_side refuses impossible tables with exact messages."""

    @pytest.mark.parametrize(
        ("name", "kwargs", "message"),
        [
            ("classic", {"melds": ["5H 2C 2D"]},
             "meld 1 (5H 2C 2D): a meld needs at least 2 natural cards"),
            ("classic", {"melds": [K7, "KH QH 2C"]},
             "meld 2 (KH QH 2C): a meld holds natural cards of one rank only"),
            ("classic", {"melds": ["KH KS 3H"]},
             "meld 1 (KH KS 3H): red 3s are laid on their own, never melded"),
            ("classic", {"melds": ["3C 3S 3C"]},
             "meld 1 (3C 3S 3C): black 3s may be melded only when going out"),
            ("classic", {"melds": [K7, "3C 3S 3C 2D"], "went_out": True},
             "meld 2 (3C 3S 3C 2D): that is not a legal meld of black 3s"),
            ("classic", {"melds": ["2C 2D JK"]},
             "meld 1 (2C 2D JK): this variant has no melds of wild cards only"),
            ("classic", {"melds": ["KH KS KD", "KC KH KS"]},
             "meld 2 (KC KH KS): the side already has a meld of Ks"),
            ("classic", {"melds": ["KH KS KD KC KH KS KD KC KH"]},
             "cards: the decks hold only 8 Ks, the table has 9"),
            ("classic", {"hand": "JK JK JK JK JK"},
             "cards: the decks hold only 4 jokers, the table has 5"),
            ("classic", {"melds": ["KH KS KD"], "went_out": True},
             "went_out: going out needs 1 canasta"),
            ("classic", {"red_threes": 5},
             "red_threes: the decks hold only 4 red 3s, got 5"),
            ("classic", {"red_threes": 3, "red_threes_held": 2},
             "red_threes: the decks hold only 4 red 3s, got 5"),
            ("classic", {"red_threes": 4, "hand": "3H"},
             "cards: the decks hold only 4 red 3s, the table has 5"),
            ("classic", {"red_threes": -1},
             "red_threes: expected a whole number >= 0, got -1"),
            ("classic", {"melds": [K7], "concealed": True},
             "concealed: a side can go out concealed only if it went out"),
            ("classic", {"melds": [K7], "black_three_out": True},
             "black_three_out: a black-3 out is a way of going out"),
            ("classic", {"melds": [K7], "went_out": True, "black_three_out": True},
             "black_three_out: variant 'classic' has no black-3 out"),
            ("classic", {"melds": [5]},
             "melds[0]: expected cards such as 'KH KS KD', got 5"),
            ("draw-two", {"melds": ["JH JS JD JC"], "went_out": True},
             "went_out: going out needs 1 canasta"),
            ("hand-and-foot", {"melds": [K7], "went_out": True},
             "went_out: going out needs 3 canastas including 1 natural, 1 mixed, 1 wild"),
            ("hand-and-foot", {"melds": ["9H 9S 2C 2D"]},
             "meld 1 (9H 9S 2C 2D): a second wild card may join a meld only as its card "
             "number 6 or later"),
            ("hand-and-foot", {"melds": ["9H 9S 9D 9C 9H 9S 9D 9C"]},
             "meld 1 (9H 9S 9D 9C 9H 9S 9D 9C): a meld holds at most 7 cards"),
            ("hand-and-foot", {"melds": ["3C 3S 3C"], "went_out": True},
             "meld 1 (3C 3S 3C): black 3s may never be melded in this variant"),
            ("hand-and-foot", {"melds": ["KH KS KD", "KC KH KS"]},
             "meld 2 (KC KH KS): the side already has a meld of Ks"),
            ("hand-and-foot", {"melds": HF_OUT, "went_out": True, "concealed": True},
             "concealed: variant 'hand-and-foot' has no concealed going out"),
            ("hand-and-foot",
             {"melds": HF_OUT, "went_out": True, "black_three_out": True, "hand": "3C 3S"},
             "black_three_out: the hand must include the 7 black 3s kept for the out"),
        ],
    )
    def test_message(self, name: str, kwargs: dict[str, Any], message: str) -> None:
        """The error names the meld or the argument and the rule, word for word."""
        with pytest.raises(CanastaError) as info:
            score_side(VARIANTS[name], **kwargs)
        assert str(info.value) == message

    def test_bad_card_is_notation_error(self) -> None:
        """A token that is no card raises NotationError quoting it."""
        with pytest.raises(NotationError, match="'XX' is not a card"):
            score_side(CLASSIC, hand="KH XX")

    def test_variant_must_be_a_variant(self) -> None:
        """Passing a profile name instead of a Variant is refused."""
        with pytest.raises(CanastaError) as info:
            score_side("classic", melds=[K7])  # type: ignore[arg-type]
        assert str(info.value) == "score_side expects a Variant, got str"


class TestBreakdown:
    """ScoreBreakdown: totals, the printed table, and score_table."""

    def test_str_is_a_table(self) -> None:
        """str() lists each item, a rule, then the total, labels left and points right."""
        b = score_side(CLASSIC, melds=[K7], red_threes=1, hand="4C 9D")
        assert str(b).splitlines() == [
            "melded cards               70",
            "natural canasta of Ks     500",
            "1 red 3                   100",
            "cards left in hand        -15",
            "-----------------------------",
            "total                     655",
        ]

    def test_str_of_a_minus_score(self) -> None:
        """Minus items and a minus total print with their sign."""
        b = score_side(CLASSIC, red_threes=4, hand="2C")
        assert str(b).splitlines() == [
            "all 4 red 3s (minus)    -800",
            "cards left in hand       -20",
            "----------------------------",
            "total                   -820",
        ]

    def test_str_of_an_empty_breakdown(self) -> None:
        """A side with nothing at all scores 0 and still prints a total line."""
        b = score_side(CLASSIC)
        assert b.items == ()
        assert b.total == 0
        assert str(b).splitlines() == ["-------------", "total       0"]

    def test_total_is_sum_of_items(self) -> None:
        """total is the sum of the item points."""
        b = ScoreBreakdown((("a", 5), ("b", -7), ("c", 100)))
        assert b.total == 98
        assert totals([b, ScoreBreakdown()]) == (98, 0)

    def test_score_table_matches_score_side(self) -> None:
        """score_table on the equivalent SideTable gives score_side's breakdown."""
        by_side = score_side(CLASSIC, melds=[K7], red_threes=1, hand="4C 9D", went_out=True)
        table = SideTable(
            melds=((13, (10,) * 7, "natural"),),
            red_threes=1,
            opened=True,
            left_values=(5, 10),
            went_out=True,
        )
        assert score_table(CLASSIC, table, 4) == by_side

    def test_melds_mean_opened(self) -> None:
        """A side with melds counts its red 3s plus even if ``opened`` is false.

        A concealed out may lay melds worth less than the opening minimum; the side
        still made a meld, so its red 3s are not a penalty.
        """
        table = SideTable(melds=((4, (5,) * 7, "natural"),), red_threes=1, opened=False,
                          went_out=True, concealed=True)
        # 7 fours 35 + 500 natural + 100 red 3 + 200 concealed = 835
        b = score_table(CLASSIC, table, 4)
        assert b.items == (
            ("melded cards", 35), ("natural canasta of 4s", 500), ("1 red 3", 100),
            ("going out concealed", 200),
        )
        assert b.total == 835

    def test_variant_options_change_the_values(self) -> None:
        """Bonuses come from the variant: a custom going-out bonus is used as given."""
        v = attrs.evolve(CLASSIC, scoring=attrs.evolve(CLASSIC.scoring, going_out_bonus=250))
        b = score_side(v, melds=[K7], went_out=True)
        # 70 + 500 + 250 = 820
        assert b.total == 820


# -- canasta score FILE ----------------------------------------------------------------------

DATA = Path(__file__).parent / "data" / "score"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Call the command line with ``argv``; return (status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, text: str, name: str = "hand.yaml") -> str:
    """Write ``text`` to ``tmp_path/name`` and return the path as text."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


CLASSIC_OUT = """\
us
==
melded cards              100
natural canasta of Ks     500
1 red 3                   100
going out                 100
cards left in hand        -15
-----------------------------
total                     785

them
====
melded cards            30
2 red 3s               200
cards left in hand     -80
--------------------------
total                  150
"""

HAND_AND_FOOT_OUT = """\
side 1
======
melded cards              365
wild canasta             1500
natural canasta of Qs     500
mixed canasta of 7s       300
2 red 3s                  200
going out                 100
cards left in hand        -10
-----------------------------
total                    2955

side 2
======
melded cards            80
1 red 3                100
cards left in hand     -75
red 3s held           -100
--------------------------
total                    5
"""


class TestScoreCommand:
    """``canasta score FILE``: the example files, and what it prints."""

    def test_classic_yaml(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The classic example prints both sides' breakdowns under their names, exit 0."""
        # us: 100 melded + 500 + 100 red 3 + 100 going out - 15 = 785
        # them: 30 melded + 200 red 3s - (50 + 20 + 5 + 5) = 150
        status, out, err = run(capsys, "score", str(DATA / "classic.yaml"))
        assert (status, err) == (0, "")
        assert out == CLASSIC_OUT

    def test_hand_and_foot_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The Hand and Foot JSON example: a list of sides, named side 1 and side 2."""
        # side 1: 365 melded + 1500 + 500 + 300 + 200 red 3s + 100 going out - 10 = 2955
        # side 2: 4 aces 80 + 100 red 3 - (5 + 50 + 10 + 5 + 5) = -75 - 100 held = 5
        status, out, err = run(capsys, "score", str(DATA / "hand-and-foot.json"))
        assert (status, err) == (0, "")
        assert out == HAND_AND_FOOT_OUT

    def test_read_score_file(self) -> None:
        """read_score_file gives the variant and each side's breakdown."""
        scored = read_score_file(DATA / "classic.yaml")
        assert scored.variant.name == "classic"
        assert [(name, b.total) for name, b in scored.sides] == [("us", 785), ("them", 150)]
        assert str(scored) == CLASSIC_OUT

    def test_list_and_mapping_agree(self) -> None:
        """A list of sides and a mapping of names give the same breakdowns."""
        table = {"melds": ["KH KS KD KC KH KS KD"], "went_out": True}
        as_list = score_data({"variant": "classic", "sides": [table]})
        as_map = score_data({"variant": "classic", "sides": {"we": table}})
        assert as_list.sides[0][1] == as_map.sides[0][1] == score_side(
            CLASSIC, melds=[K7], went_out=True
        )
        assert [name for name, _ in as_list.sides] == ["side 1"]
        assert [name for name, _ in as_map.sides] == ["we"]

    def test_melds_as_card_lists_and_nulls(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """Melds may be lists of cards; null hand, foot, melds and opened mean the defaults."""
        path = write(tmp_path, (
            "variant: classic\n"
            "sides:\n"
            "  - {melds: [[KH, KS, KD, KC, KH, KS, KD]], hand: null, opened: null}\n"
            "  - {melds: null, red_threes: 1, foot: null}\n"
        ))
        status, out, err = run(capsys, "score", path)
        assert (status, err) == (0, "")
        # side 1: 7 kings 70 + 500 = 570; side 2: unopened, its red 3 counts minus: -100
        assert out.splitlines() == [
            "side 1",
            "======",
            "melded cards               70",
            "natural canasta of Ks     500",
            "-----------------------------",
            "total                     570",
            "",
            "side 2",
            "======",
            "1 red 3 (minus)    -100",
            "-----------------------",
            "total              -100",
        ]

    def test_variant_path_relative_to_the_file(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """A profile path in ``variant`` is read relative to the score file."""
        (tmp_path / "house.yaml").write_text(
            "extends: classic\nname: house\nscoring: {going_out_bonus: 250}\n", encoding="utf-8"
        )
        sub = tmp_path / "hands"
        sub.mkdir()
        path = write(sub, "variant: ../house.yaml\nsides: {us: {melds: ['KH KS KD KC KH KS KD'], went_out: true}}\n")
        status, out, err = run(capsys, "score", path)
        assert (status, err) == (0, "")
        # 70 + 500 + 250 = 820
        assert out.splitlines()[-1] == "total                     820"

    def test_help(self, capsys: pytest.CaptureFixture[str]) -> None:
        """``canasta score --help`` describes the file, exit 0."""
        status, out, _ = run(capsys, "score", "--help")
        assert status == 0
        assert out.startswith("usage: canasta score [-h] FILE")
        assert "red_threes" in out

    @pytest.mark.parametrize("argv", [["score"], ["score", "a.yaml", "b.yaml"], ["score", "--bogus", "a"]])
    def test_usage_errors_exit_2(self, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
        """A missing or extra argument is a usage error: exit 2, usage on stderr."""
        status, out, err = run(capsys, *argv)
        assert status == 2
        assert out == ""
        assert "usage: canasta" in err
        assert "error:" in err


class TestScoreFileErrors:
    """Bad score files: every problem on its own line, FILE: PLACE: message, exit 1."""

    @pytest.mark.parametrize(
        ("text", "problems"),
        [
            pytest.param(
                "varaint: classic\nsides: []\n",
                ["varaint: unknown key, did you mean 'variant'?", "variant: missing",
                 "sides: expected at least one side"],
                id="unknown-top-key",
            ),
            pytest.param(
                "variant: classic\nsides:\n  - {melds: ['KH KS KD'], red_three: 1}\n",
                ["sides[0].red_three: unknown key, did you mean 'red_threes'?"],
                id="unknown-side-key",
            ),
            pytest.param(
                "variant: classic\nsides:\n  - {colour: red}\n",
                ["sides[0].colour: unknown key, expected one of 'melds', 'red_threes', "
                 "'red_threes_held', 'black_threes', 'hand', 'hands', 'foot', 'went_out', 'concealed', "
                 "'black_three_out', 'opened'"],
                id="unknown-side-key-no-match",
            ),
            pytest.param(
                "variant: classic\nsides:\n  - {}\n"
                "  - {melds: '5H 5S 5D', red_threes: two, went_out: 'yes', hand: 12, opened: 1}\n",
                ["sides[1].melds: expected a list of melds, got '5H 5S 5D'",
                 "sides[1].red_threes: expected a whole number >= 0, got 'two'",
                 "sides[1].went_out: expected true or false, got 'yes'",
                 "sides[1].hand: expected cards such as 'KH KS 2C' or a list of cards, got 12",
                 "sides[1].opened: expected true, false or null, got 1"],
                id="wrong-types",
            ),
            pytest.param(
                "variant: classic\nsides:\n  - {hand: [KH, 5, XX]}\n",
                ["sides[0].hand[1]: expected a card such as 'KH', got 5",
                 "sides[0].hand[2]: 'XX' is not a card: expected a rank (2-10, T, J, Q, K, A) "
                 "followed by a suit (C, D, H, S or ♣♦♥♠), or JK for a joker"],
                id="bad-cards",
            ),
            pytest.param(
                "variant: classic\nsides:\n  - {melds: ['KH KS KD']}\n  - {melds: ['5H 2C 2D']}\n",
                ["sides[1].melds[0]: a meld needs at least 2 natural cards (5H 2C 2D)"],
                id="illegal-meld",
            ),
            pytest.param(
                "variant: classic\nsides:\n  - {melds: ['KH KS KD', 'QH QS']}\n",
                ["sides[0].melds[1]: a meld needs at least 3 cards (QH QS)"],
                id="short-meld",
            ),
            pytest.param(
                "variant: classic\nsides:\n  - {melds: ['', 'QH QS QD']}\n",
                ["sides[0].melds[0]: expected the cards of a meld, got none"],
                id="empty-meld",
            ),
            pytest.param(
                "variant: classic\nsides:\n  - {melds: ['KH KS KD'], went_out: true}\n",
                ["sides[0].went_out: going out needs 1 canasta"],
                id="out-without-canasta",
            ),
            pytest.param(
                "variant: classic\nsides:\n  us: {red_threes: 5}\n",
                ["sides.us.red_threes: the decks hold only 4 red 3s, got 5"],
                id="too-many-red-threes",
            ),
            pytest.param(
                "variant: classic\nsides:\n  us: {concealed: true}\n",
                ["sides.us.concealed: a side can go out concealed only if it went out"],
                id="concealed-without-out",
            ),
            pytest.param(
                "variant: classic\nsides:\n  us: {melds: ['3C 3S 3C']}\n",
                ["sides.us.melds[0]: black 3s may be melded only when going out (3C 3S 3C)"],
                id="black-threes-without-out",
            ),
            pytest.param(
                "variant: classic\nsides:\n"
                "  us: {melds: ['KH KS KD KC KH KS KD'], went_out: true}\n"
                "  them: {melds: ['QH QS QD QC QH QS QD'], went_out: true}\n",
                ["sides.them.went_out: only one side can go out, and sides.us went out"],
                id="both-sides-out",
            ),
            pytest.param(
                "variant: classic\nsides:\n"
                "  us: {melds: ['KH KS KD KC KH KS KD'], red_threes: 3}\n"
                "  them: {melds: ['KH KS KD'], red_threes: 2}\n",
                ["sides: the decks hold only 4 red 3s, the sides have 5 together",
                 "sides: the decks hold only 8 Ks, the sides have 10 together"],
                id="more-cards-than-the-decks",
            ),
            pytest.param(
                "variant: classic\nsides: [{}, {}, {}]\n",
                ["sides: variant 'classic' has 2 sides, the file lists 3"],
                id="too-many-sides",
            ),
            pytest.param(
                "variant: nope\nsides: [{}]\n",
                ["variant: unknown variant 'nope' (bundled variants: bolivia, brazilian, classic, "
                 "classic-2p, classic-3p, classic-6p, draw-two, hand-and-foot, hand-and-foot-pagat, "
                 "modern-american, modern-american-2p, samba, uruguayan)"],
                id="unknown-variant",
            ),
            pytest.param(
                "variant: 3\nsides: 5\n",
                ["variant: expected a bundled profile name (bolivia, brazilian, classic, classic-2p, "
                 "classic-3p, classic-6p, draw-two, hand-and-foot, hand-and-foot-pagat, "
                 "modern-american, modern-american-2p, samba, uruguayan) or a profile path, got 3",
                 "sides: expected a list or a mapping of side tables, got 5"],
                id="wrong-top-types",
            ),
            pytest.param(
                "variant: classic\nsides: [[KH]]\n",
                ["sides[0]: expected a mapping with keys such as 'melds' and 'hand', got a list"],
                id="side-not-a-mapping",
            ),
            pytest.param(
                "- classic\n",
                ["expected a mapping with 'variant' and 'sides', got a list"],
                id="not-a-mapping",
            ),
            pytest.param(
                "# nothing\n",
                ["expected a mapping with 'variant' and 'sides', got an empty document"],
                id="empty",
            ),
        ],
    )
    def test_problem_lines(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, problems: list[str]
    ) -> None:
        """Each problem is printed as 'canasta: error: FILE: PLACE: message', exit 1."""
        path = write(tmp_path, text)
        status, out, err = run(capsys, "score", path)
        assert status == 1
        assert out == ""
        assert err.splitlines() == [f"canasta: error: {path}: {p}" for p in problems]

    def test_score_file_error_lists_problems(self, tmp_path: Path) -> None:
        """ScoreFileError keeps the problems; its message is them, one per line."""
        path = write(tmp_path, "variant: classic\nsides: [{hand: 5}, {went_out: 1}]\n")
        with pytest.raises(ScoreFileError) as info:
            read_score_file(path)
        assert info.value.problems == (
            f"{path}: sides[0].hand: expected cards such as 'KH KS 2C' or a list of cards, got 5",
            f"{path}: sides[1].went_out: expected true or false, got 1",
        )
        assert str(info.value) == "\n".join(info.value.problems)
        assert isinstance(info.value, CanastaError)

    def test_yaml_syntax_error(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """Invalid YAML is reported with its line and column."""
        path = write(tmp_path, "variant: classic\nsides: [\n")
        status, _, err = run(capsys, "score", path)
        assert status == 1
        assert err == (
            f"canasta: error: {path}:3:1: YAML syntax error: "
            "expected the node content, but found '<stream end>'\n"
        )

    def test_json_syntax_error(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """A .json file is read as JSON, errors with line and column."""
        path = write(tmp_path, '{"variant": "classic",\n "sides": [}\n', "hand.json")
        status, _, err = run(capsys, "score", path)
        assert status == 1
        assert err == f"canasta: error: {path}:2:12: JSON syntax error: Expecting value\n"

    def test_file_over_256_kib_is_refused(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """A file larger than 256 KiB is refused before it is parsed."""
        path = write(tmp_path, "variant: classic\n" + "#" * (1 << 18) + "\n")
        status, _, err = run(capsys, "score", path)
        assert status == 1
        assert err == (
            f"canasta: error: {path}: file is larger than 256 KiB (262144 bytes), "
            "the limit for a score file\n"
        )

    def test_missing_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """A missing file, or a directory, is an error, exit 1."""
        missing = str(tmp_path / "none.yaml")
        assert run(capsys, "score", missing) == (1, "", f"canasta: error: {missing}: file not found\n")
        assert run(capsys, "score", str(tmp_path)) == (
            1, "", f"canasta: error: {tmp_path}: not a regular file\n"
        )

    def test_not_utf8(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """Bytes that are not UTF-8 are reported with their offset."""
        path = tmp_path / "hand.yaml"
        path.write_bytes(b"variant: classic\xff\n")
        status, _, err = run(capsys, "score", str(path))
        assert status == 1
        assert err == f"canasta: error: {path}: not UTF-8 text (byte 0xff at offset 16)\n"

    def test_deep_nesting(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """Absurdly deep nesting is an error, not a crash."""
        path = write(tmp_path, "variant: classic\nsides: " + "[" * 5000 + "]" * 5000 + "\n")
        assert run(capsys, "score", path) == (
            1, "", f"canasta: error: {path}:2:18: nesting deeper than 10 levels is not allowed\n"
        )
        json_path = write(tmp_path, '{"sides": ' + "[" * 5000 + "]" * 5000 + "}", "hand.json")
        assert run(capsys, "score", json_path) == (
            1, "", f"canasta: error: {json_path}: nesting too deep\n"
        )
