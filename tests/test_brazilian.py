"""Brazilian Canasta (``variants/brazilian.yaml``): the opening tiers that ask for a canasta,
the pile barred for the opening, the scores, against the rules and against brute force.

The opening tiers (``OpeningStep.canasta``): from 7000 a side's first melds must
hold a canasta, from 8000 a canasta and 200 points, from 9000 a natural canasta
(a wild canasta or an escalera counts). Scores are worked out by hand in the
comments.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta import score_side
from canasta.engine import compile_rules
from canasta.engine.deal import deal_hand
from canasta.engine.state import GameState
from canasta.variant.model import OpeningStep
from positions import moves, play, position, refusal
from test_engine_random import play_checked_hand
from test_oracle import assert_moves_agree_with_brute_force

BRAZILIAN = canasta.load_variant("brazilian")

# six kings and a wild card: a mixed canasta; with the 9 and 5 a card is left to discard
MIXED = "KC KD KH KS KC KD 2C 9D 5H"
NATURAL = "KC KD KH KS KC KD KH 9D 5H"


def unopened(hand: str, score: int, variant: canasta.Variant = BRAZILIAN) -> GameState:
    """Seat 0 in its play phase, its side unopened with cumulative ``score``."""
    return position(variant, hands=[hand, "4C 6D"], scores=[score, 0], pile="5D")


def melds_in(s: GameState) -> set[str]:
    return {m for m in moves(s) if m.startswith("meld")}


class TestOpeningTiers:
    def test_the_profile_reads_its_tiers(self) -> None:
        assert [BRAZILIAN.opening_canasta(score) for score in (-10, 0, 6995, 7000, 8500, 9000, 12000)] == [
            "none", "none", "none", "any", "any", "natural", "natural"
        ]
        assert [BRAZILIAN.opening_minimum(score, 0) for score in (-10, 0, 3000, 7000, 8000, 9000)] == [
            15, 50, 120, 0, 200, 0
        ]

    def test_7000_any_canasta_opens(self) -> None:
        s = unopened(MIXED, 7000)
        # a meld of three kings is listed: with the other kings and the 2 it grows into a canasta
        after = play(s, "meld KC KD KH")
        # but it does not open the side on its own
        assert "needs a canasta" in refusal(after, "discard 9D")
        assert moves(after) == {"add K 2", "add K KC", "add K KD", "add K KS"}
        done = play(after, "add K KS", "add K KC", "add K KD", "add K 2")
        assert done.opened[0]
        assert "discard 9D" in moves(done)

    def test_7000_no_canasta_in_reach_lists_no_meld(self) -> None:
        s = unopened("KC KD KH 9S 9C 9D 5H 6C", 7000)
        assert not melds_in(s)
        assert "could no longer make its opening of a canasta" in refusal(s, "meld KC KD KH")
        # below 7000 the same hand opens with points alone (50 at 0; 120 at 3000: 30 + 30 = 60 too few)
        assert melds_in(unopened("KC KD KH 9S 9C 9D 5H 6C", 0))
        assert not melds_in(unopened("KC KD KH 9S 9C 9D 5H 6C", 3000))

    def test_9000_needs_a_natural_canasta(self) -> None:
        # a mixed canasta no longer opens
        s = unopened(MIXED, 9000)
        assert not melds_in(s)
        assert "natural canasta" in refusal(s, "meld KC KD KH")
        # seven natural kings do
        after = play(unopened(NATURAL, 9000), "meld KC KD KH", "add K KS", "add K KC", "add K KD", "add K KH")
        assert after.opened[0] and "discard 9D" in moves(after)

    def test_9000_a_wild_canasta_or_an_escalera_counts_as_natural(self) -> None:
        wild = unopened("2C 2D 2H 2S JK JK JK 9D 5H", 9000)
        assert melds_in(wild)
        escalera = unopened("4H 5H 6H 7H 8H 9H 10H 9D 5C", 9000)
        assert "meld 4H 5H 6H" in moves(escalera)
        done = play(escalera, "meld 4H 5H 6H", "add 4H-6H 7H", "add 4H-7H 8H", "add 4H-8H 9H", "add 4H-9H 10H")
        assert done.opened[0]
        # six hearts in sequence are not enough
        assert not melds_in(unopened("4H 5H 6H 7H 8H 9H 9D 5C", 9000))

    def test_8000_a_canasta_and_200_points(self) -> None:
        # seven kings 70 + four aces 80 = 150: a canasta, but under 200
        assert not melds_in(unopened("KC KD KH KS KC KD KH AC AD AH AS 9D", 8000))
        # with two jokers on the aces: 70 + 80 + 100 = 250
        rich = unopened("KC KD KH KS KC KD KH AC AD AH AS JK JK 9D", 8000)
        assert melds_in(rich)
        # 250 points without a canasta do not open either
        assert not melds_in(unopened("KC KD KH KS AC AD AH AS JK JK QC QD QH 9D", 8000))

    def test_the_pile_is_never_taken_to_open(self) -> None:
        s = position("brazilian", hands=["KC KH QS QH QD 9D 9C 4S", "4C"], pile="4D KD", phase="draw")
        assert not any(m.startswith("take") for m in moves(s))
        assert "opening meld comes from the hand" in refusal(s, "take pair KC KH")
        opened = position("brazilian", hands=["KC KH QS QH QD 9D 9C 4S", "4C"], melds={0: ["7C 7D 7H"]},
                          pile="4D KD", phase="draw")
        assert "take pair KC KH" in moves(opened)

    def test_a_table_without_canasta_tiers_is_unchanged(self) -> None:
        # this hand opens at 7000 in Bolivia (150 points: 30 + 80 + 30 + 20 = 160, no canasta asked)
        hand = "KC KD KH AC AD AH AS 9S 9C 9D 2C 5H 6C"
        assert melds_in(unopened(hand, 7000, canasta.load_variant("bolivia")))
        assert not melds_in(unopened(hand, 7000))


class TestGoingOut:
    def test_any_two_canastas_and_a_yes(self) -> None:
        # two canastas, neither an escalera: enough in Brazilian (Bolivia needs an escalera)
        hand = "9C 9D 9S 4D"
        table = ["KC KD KH KS KC KD KH", "QC QD QH QS QC QD 2C"]
        s = position("brazilian", hands=[hand, "4C 6D"], melds={0: table}, pile="5D")
        # melding the three 9s would leave one card, which only going out could play: ask first
        assert "meld 9C 9D 9S" not in moves(s)
        assert "ask" in moves(s)
        answer = play(s, "ask")
        assert answer.current == 2
        out = play(play(answer, "yes"), "meld 9C 9D 9S", "out 4D")
        assert out.is_hand_over and out.end is not None and out.end.reason == "out"
        bolivia = position("bolivia", hands=[hand, "4C 6D"], melds={0: table}, pile="5D")
        assert "keep a card to discard" in refusal(bolivia, "meld 9C 9D 9S")
        assert "cannot go out" in refusal(bolivia, "ask")


class TestScores:
    def test_five_red_threes_with_a_canasta(self) -> None:
        """Five red 3s and one canasta: 1000 plus.

        Melded: seven kings 70, bonus 500. Red 3s 1000. Left 9C -10. Total 1560.
        """
        b = score_side(BRAZILIAN, melds=["KC KD KH KS KC KD KH"], red_threes=5, hand="9C")
        assert dict(b.items) == {
            "melded cards": 70, "natural canasta of Ks": 500, "5 red 3s": 1000, "cards left in hand": -10,
        }
        assert b.total == 1560

    def test_six_red_threes_without_a_canasta(self) -> None:
        """All six red 3s and no canasta: 1200 minus; the short sequence costs 1000.

        Melded: 7H 8H 9H = 5 + 10 + 10 = 25; QC QD QH = 30. A sequence under five
        cards: -1000. Red 3s: -1200. Total 25 + 30 - 1000 - 1200 = -2145.
        """
        b = score_side(BRAZILIAN, melds=["7H 8H 9H", "QC QD QH"], red_threes=6)
        assert dict(b.items) == {
            "melded cards": 55, "6 red 3s (minus)": -1200, "sequences under 5 cards": -1000,
        }
        assert b.total == -2145

    def test_wild_canasta_escalera_and_going_out(self) -> None:
        """A wild canasta (2000 in Brazilian), an escalera (1500), a five-card sequence (no penalty).

        Melded: 2C 2D 2H 2S JK JK JK = 80 + 150 = 230; 8S..AS = 6 x 10 + 20 = 80;
        4D 5D 6D 7D 8D = 4 x 5 + 10 = 30. Going out 200. Total 230 + 80 + 30 +
        2000 + 1500 + 200 = 4040.
        """
        b = score_side(
            BRAZILIAN, melds=["2C 2D 2H 2S JK JK JK", "8S 9S 10S JS QS KS AS", "4D 5D 6D 7D 8D"],
            went_out=True,
        )
        assert dict(b.items) == {"melded cards": 340, "wild canasta": 2000, "escalera": 1500, "going out": 200}
        assert b.total == 4040


# -- against brute force, and random hands at the tiers ---------------------------------------

_POOL = ["KC", "KD", "KH", "KS", "2C", "JK", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "AC", "AD", "QC"]


@st.composite
def tier_positions(draw: st.DrawFn) -> GameState:
    """An unopened play-phase position at one of the tiers, its hand rich in kings, wilds and hearts."""
    hand = draw(st.lists(st.sampled_from(_POOL), min_size=7, max_size=10))
    score = draw(st.sampled_from([3000, 7000, 8000, 9000]))
    return unopened(" ".join(hand), score)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=tier_positions())
def test_opening_moves_agree_with_brute_force(s: GameState) -> None:
    """Every play-phase move at a tier: legal exactly when its rule allows it and the turn can still end."""
    assert_moves_agree_with_brute_force(s)


@pytest.mark.parametrize("scores", [(7000, 0), (8000, 9000), (9000, 7500)])
@pytest.mark.parametrize("seed", range(2))
def test_random_hands_at_the_tiers(scores: tuple[int, int], seed: int) -> None:
    """Hands dealt with both sides past 7000: the invariants of every random playout hold."""
    r = compile_rules(BRAZILIAN)
    s = deal_hand(r, seed, 1, 0, scores, (scores,))  # as if one hand had scored them
    assert s.scores == scores
    assert play_checked_hand(s, seed, seed % 2 == 0) > 0


def test_a_tier_table_the_checker_plays() -> None:
    """`canasta check` plays a profile with canasta tiers (it used to skip its playouts)."""
    from canasta.check.playouts import run_playouts

    rows = (OpeningStep(minimum=0, from_score=None, canasta="any"),)
    always = attrs.evolve(BRAZILIAN, opening=attrs.evolve(BRAZILIAN.opening, score_table=rows))
    diagnostics = run_playouts(always, 2, 1)
    assert not [d for d in diagnostics if d.severity == "error"], diagnostics
