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
from budget import LONG, examples
from canasta import ActionSpace, score_side
from canasta.engine import compile_rules
from canasta.engine.deal import deal_hand
from canasta.engine.integrity import state_problem
from canasta.engine.moves import AddToSequence
from canasta.engine.state import TOLD_YES, GameState, Turn
from canasta.rulebook import describe_diff
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
        # a second meld of kings too (several melds of a rank, combined at will)
        assert moves(after) == {
            "add K 2", "add K KC", "add K KD", "add K KS",
            "meld KC KD KS", "meld KC KD 2", "meld KC KS 2", "meld KD KS 2",
        }
        done = play(after, "add K KS", "add K KC", "add K KD", "add K 2")
        assert done.opened[0]
        assert "discard 9D" in moves(done)
        # the other way: two melds of kings, then the 2, then combined into the canasta
        two = play(after, "meld KC KD KS")
        assert moves(two) == {"add K 2", "add K:2 2", "combine K K:2"}
        done = play(two, "add K:2 2", "combine K K:2")
        assert done.opened[0] and "discard 9D" in moves(done)

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


    def test_an_unopened_side_asks_before_melding_to_go_out(self) -> None:
        # eight hearts: 4H-10H opens (50 points) and is an escalera, but leaves the
        # other 4H, which only going out can play; going out needs a yes, asked first
        v = attrs.evolve(BRAZILIAN, going_out=attrs.evolve(BRAZILIAN.going_out, canastas=1))
        s = unopened("4H 4H 5H 6H 7H 8H 9H 10H", 0, v)
        assert not melds_in(s)
        assert "opening minimum of 50 points with a card left to discard" in refusal(s, "meld 4H 5H 6H")
        yes = play(play(s, "ask"), "yes")
        assert "meld 4H 5H 6H" in moves(yes)


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


# -- an escalera grows past seven when going out (sequences.grow_when_going_out) -------------

#: Brazilian without the partner's permission, so that the rule binds the turn on its own
#: (in the profile a yes binds it already: going out needs one)
NO_ASK = attrs.evolve(BRAZILIAN, going_out=attrs.evolve(BRAZILIAN.going_out, ask_required=False))
#: an escalera 4H-10H (closed at seven) and a natural canasta of kings: the two canastas going out needs
ESCALERA = ["4H 5H 6H 7H 8H 9H 10H", "KC KD KH KS KC KD KH"]


def told_yes(hand: str, variant: canasta.Variant = BRAZILIAN) -> GameState:
    """Seat 0 of ``variant`` in its play phase with ``ESCALERA`` on its side's table, its partner's yes given."""
    return position(variant, hands=[hand, "4C 6D"], melds={0: ESCALERA}, pile="5D",
                    turn=Turn(asked=TOLD_YES, asker=0))


class TestEscaleraGrowsWhenGoingOut:
    def test_the_eighth_card_goes_out(self) -> None:
        """The jack on 4H-10H is legal when the 9 then goes out; the escalera scores its eight cards, one bonus.

        Melded: 4H-7H 4 x 5 = 20, 8H-JH 4 x 10 = 40, seven kings 70: 130. Escalera
        1500, natural canasta of kings 500, going out 200. Total 2330.
        """
        s = told_yes("JH 9C")
        assert moves(s) == {"add 4H-10H JH"}
        grown = play(s, "add 4H-10H JH")
        escalera = next(m for m in grown.melds[0] if m.is_sequence)
        assert (escalera.low, escalera.high, escalera.size) == (4, 11, 8)
        assert grown.canasta_kind(escalera) == "sequence"
        assert moves(grown) == {"out 9C"}
        out = play(grown, "out 9C")
        assert out.end is not None and out.end.reason == "out"
        items = dict(out.end.breakdowns[0].items)
        assert items == {"melded cards": 130, "escalera": 1500, "natural canasta of Ks": 500, "going out": 200}
        assert out.end.breakdowns[0].total == 2330
        # score_side agrees, and takes the eight cards only from a side that went out
        table = ["4H 5H 6H 7H 8H 9H 10H JH", "KC KD KH KS KC KD KH"]
        assert score_side(BRAZILIAN, melds=table, went_out=True).total == 2330
        with pytest.raises(canasta.CanastaError, match="at most 7 cards"):
            score_side(BRAZILIAN, melds=table)

    def test_refused_when_going_out_would_not_follow(self) -> None:
        # the jack would leave 9C 5C: two cards, so no going out this turn
        s = told_yes("JH 9C 5C", NO_ASK)
        assert "add 4H-10H JH" not in moves(s)
        assert refusal(s, "add 4H-10H JH") == (
            "a sequence closed at 7 cards may grow only as part of going out: after "
            "'add 4H-10H JH' you could not go out this turn"
        )
        # in the profile, going out needs the partner's yes first
        unasked = position("brazilian", hands=["JH 9C", "4C 6D"], melds={0: ESCALERA}, pile="5D")
        assert "ask before you meld" in refusal(unasked, "add 4H-10H JH")
        assert moves(unasked) == {"ask", "discard 9C", "discard JH"}
        told_no = play(play(unasked, "ask"), "no")
        assert "your partner said no" in refusal(told_no, "add 4H-10H JH")

    def test_after_the_grow_only_going_out(self) -> None:
        s = position(NO_ASK, hands=["JH QH 9C 9D 9S 5C", "4C 6D"], melds={0: ESCALERA}, pile="5D")
        # before the grow the turn may end with a discard
        assert "discard 5C" in moves(s)
        grown = play(s, "add 4H-10H JH")
        assert "must go out this turn" in refusal(grown, "discard 5C")
        assert "must go out this turn" in refusal(grown, "discard QH")
        assert moves(grown) == {"add 4H-JH QH", "meld 9C 9D 9S"}
        # every listed move still goes out, and no move that does is missing
        assert_moves_agree_with_brute_force(grown)
        out = play(grown, "meld 9C 9D 9S", "add 4H-JH QH", "out 5C")
        assert out.end is not None and out.end.reason == "out"
        # a nine in the hand that strands two cards: the second grow is refused with the turn's rule
        stuck = play(position(NO_ASK, hands=["JH QH 9C 9D 9S 5C", "4C 6D"], melds={0: ESCALERA},
                              pile="5D"), "add 4H-10H JH", "add 4H-JH QH")
        assert moves(stuck) == {"meld 9C 9D 9S"}

    def test_an_unopened_side_grows_its_new_sequence_only_to_go_out(self) -> None:
        """At 8000 an opening needs a canasta and 200 points; eight hearts in a row, aces, kings and queens.

        Hearts 4H-JH: 4 x 5 + 4 x 10 = 60; AC AD AH AS 80, KC KD KS 30, QC QD QS
        30: 140 more. An escalera of seven hearts is at most 55 (5H-JH), so
        with it the melds reach 195; the eight hearts as one escalera reach
        200, but an escalera of eight is laid only as part of going out (split
        into two sequences they are no canasta). With 9C and 5D left over the
        side can neither open nor go out: no meld is offered. With 9C alone it
        goes out.
        """
        v = attrs.evolve(NO_ASK, going_out=attrs.evolve(NO_ASK.going_out, canastas=1))
        hand = "4H 5H 6H 7H 8H 9H 10H JH AC AD AH AS KC KD KS QC QD QS"
        stuck = unopened(hand + " 9C 5D", 8000, v)
        assert not melds_in(stuck)
        assert "opening of 200 points and a canasta" in refusal(stuck, "meld 4H 5H 6H")
        out = unopened(hand + " 9C", 8000, v)
        assert "meld 4H 5H 6H" in moves(out)
        done = play(out, "meld AC AD AH", "add A AS", "meld KC KD KS", "meld QC QD QS", "meld 4H 5H 6H",
                    "add 4H-6H 7H", "add 4H-7H 8H", "add 4H-8H 9H", "add 4H-9H 10H", "add 4H-10H JH", "out 9C")
        assert done.end is not None and done.end.reason == "out"

    @pytest.mark.parametrize("name", ["bolivia", "samba"])
    def test_not_in_bolivia_or_samba(self, name: str) -> None:
        v = canasta.load_variant(name)
        assert not v.sequences.grow_when_going_out
        s = told_yes("JH 9C", attrs.evolve(v, going_out=attrs.evolve(v.going_out, sequence_canastas=0)))
        assert "complete and closed" in refusal(s, "add 4H-10H JH")
        assert not [m for m in ActionSpace(v).moves if isinstance(m, AddToSequence) and m.high - m.low + 1 >= 7]

    def test_action_space_numbers_the_grows(self) -> None:
        space = ActionSpace(BRAZILIAN)
        bolivia = ActionSpace(canasta.load_variant("bolivia"))
        extra = set(space.moves) - set(bolivia.moves)
        # per suit, sequences of 7 to 10 cards in the window 4 to A: 8 + 6 + 4 + 2 adds at their ends
        assert len(extra) == 4 * 20 and space.size == bolivia.size + 80
        assert all(isinstance(m, AddToSequence) and m.high - m.low + 1 >= 7 for m in extra)
        # the ids before the grows are Bolivia's
        first = min(space.encode(m) for m in extra)
        assert space.moves[:first] == bolivia.moves[:first]
        s = told_yes("JH QH 9C")
        i = space.encode("add 4H-10H JH")
        assert space.legal_ids(s) == [i] and space.decode(s, i) == s.parse_move("add 4H-10H JH")
        grown = s.apply(space.decode(s, i))
        j = space.encode("add 4H-JH QH")
        assert space.legal_ids(grown) == [j]
        with pytest.raises(canasta.CanastaError, match="not an action"):
            bolivia.encode("add 4H-10H JH")

    def test_a_grown_sequence_belongs_to_the_turn_going_out(self) -> None:
        hands = ["JH 9C", "4C 6D", "7C 8D", "9D 10C"]
        s = position("brazilian", hands=hands, melds={0: ESCALERA}, pile="5D", turn=Turn(asked=TOLD_YES, asker=0))
        grown = play(s, "add 4H-10H JH")
        assert state_problem(grown) is None
        assert canasta.from_json(canasta.to_json(grown), GameState) == grown
        # the same table on the side not to move: no turn could have left it there
        eight = ["4H 5H 6H 7H 8H 9H 10H JH"]
        other = position("brazilian", hands=hands, melds={1: eight}, pile="5D")
        problem = state_problem(other)
        assert problem is not None and problem[0] == "melds[1][0]" and "goes out" in problem[1]
        assert state_problem(position("brazilian", hands=hands, melds={0: eight}, pile="5D")) is None
        bolivia = position("bolivia", hands=hands, melds={0: eight}, pile="5D")
        assert state_problem(bolivia) == ("melds[0][0]", "a sequence holds 3 to 7 cards")

    def test_the_rule_book_states_it(self) -> None:
        diff = describe_diff(BRAZILIAN, canasta.load_variant("bolivia"))
        assert "In the turn you go out, you may still add cards to either end of a closed escalera" in diff
        assert "past seven cards" in canasta.describe(BRAZILIAN)
        back = describe_diff(canasta.load_variant("bolivia"), BRAZILIAN)
        assert "A closed escalera takes no more cards, not even in the turn its player goes out." in back
        assert "closed escalera" not in canasta.describe(canasta.load_variant("bolivia"))


# -- against brute force, and random hands at the tiers ---------------------------------------

_POOL = ["KC", "KD", "KH", "KS", "2C", "JK", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "AC", "AD", "QC"]


@st.composite
def tier_positions(draw: st.DrawFn) -> GameState:
    """An unopened play-phase position at one of the tiers, its hand rich in kings, wilds and hearts."""
    hand = draw(st.lists(st.sampled_from(_POOL), min_size=7, max_size=10))
    score = draw(st.sampled_from([3000, 7000, 8000, 9000]))
    return unopened(" ".join(hand), score)


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=tier_positions())
def test_opening_moves_agree_with_brute_force(s: GameState) -> None:
    """Every play-phase move at a tier: legal exactly when its rule allows it and the turn can still end."""
    assert_moves_agree_with_brute_force(s)


@pytest.mark.parametrize("scores", [(7000, 0), (8000, 9000), (9000, 7500)])
@pytest.mark.parametrize("seed", range(2 if LONG else 1))
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


# -- from 9000, the natural canasta is held to the end of the opening turn

SEVEN_KINGS = "KC KD KH KS KC KD KH"


def opening_turn(hand: str, melds: list[str], told_yes: bool = False) -> GameState:
    """Seat 0 at 9000, its side opened this turn with ``melds`` (worth 500 toward the opening)."""
    fields: dict[str, object] = {"points": 500, "played": (), "melded": False}
    if told_yes:
        fields.update(asked=TOLD_YES, asker=0)
    return position(BRAZILIAN, hands=[hand, "4C 6D"], melds={0: melds}, scores=[9000, 0], pile="5D",
                    turn=Turn(**fields))  # type: ignore[arg-type]


class TestNaturalCanastaHeld:
    """"A natural canasta or better": the opening turn may not end with only a mixed canasta."""

    def test_no_wild_card_on_the_only_natural_canasta(self) -> None:
        """Seven natural kings open; a 2 added to them in the same turn is refused."""
        after = play(unopened("KC KD KH KS KC KD KH 2C 9D 5H", 9000),
                     "meld KC KD KH", "add K KS", "add K KC", "add K KD", "add K KH")
        assert after.opened[0] and "add K 2" not in moves(after)
        assert "natural canasta at the end of this turn" in refusal(after, "add K 2")

    def test_a_second_natural_canasta_frees_the_first(self) -> None:
        """With another natural canasta on the table the wild card may join the kings."""
        s = opening_turn("2C 9D 5H", [SEVEN_KINGS, "QC QD QH QS QC QD QH"])
        assert "add K 2" in moves(s)

    def test_later_turns_are_free(self) -> None:
        """Once the opening turn is over, wild cards join the natural canasta as before."""
        s = position(BRAZILIAN, hands=["2C 9D 5H", "4C 6D"], melds={0: [SEVEN_KINGS]}, scores=[9000, 0],
                     pile="5D")
        assert "add K 2" in moves(s)

    def test_lower_tiers_are_free(self) -> None:
        """At 7000 any canasta opens: the wild card may join the kings in the opening turn."""
        after = play(unopened("KC KD KH KS KC KD KH 2C 9D 5H", 7000),
                     "meld KC KD KH", "add K KS", "add K KC", "add K KD", "add K KH")
        assert "add K 2" in moves(after)

    def test_the_book_says_so(self) -> None:
        """The book holds the natural canasta to the end of the opening turn, from 9000 only."""
        book = canasta.describe(canasta.load_variant("brazilian"))
        assert ("a complete natural canasta when it is 9000 or more. For that, a wild canasta or an escalera "
                "counts as natural. The opening turn must also end with that natural canasta: no wild card "
                "may join the last one in that turn.") in book


@st.composite
def opening_turns(draw: st.DrawFn) -> GameState:
    """A position in the opening turn at 9000: a natural canasta of kings laid, a hand of kings, wilds, hearts."""
    # each card at most three times, and one king: no more of a kind than three decks hold
    pool = [card for card in _POOL if card[0] != "K"] + ["KS"]
    picks = draw(st.lists(st.sampled_from(range(3 * len(pool))), unique=True, min_size=1, max_size=8))
    hand = [pool[i // 3] for i in picks]
    others = draw(st.lists(st.sampled_from(["QC QD QH QS QC QD", "AC AD AH", "4H 5H 6H 7H 8H 9H"]), unique=True,
                           max_size=2))
    return opening_turn(" ".join(hand), [SEVEN_KINGS, *others], told_yes=draw(st.booleans()))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=opening_turns())
def test_opening_turn_moves_agree_with_brute_force(s: GameState) -> None:
    """Every move of an opening turn at 9000: legal exactly when the turn can still end holding the canasta."""
    assert_moves_agree_with_brute_force(s)


def test_a_yes_in_the_opening_turn_keeps_the_natural_canasta() -> None:
    """Told yes in the opening turn, the way out may not pass through a wild card on the kings.

    Kings (natural) and queens (mixed, two wild cards) are the side's two canastas; the
    hand is 2, 9 and a king. Adding the king leaves 2 and 9, whose only way out puts the
    2 on the kings and turns them mixed: so the king is not listed, as brute force says.
    """
    s = opening_turn("2C 9D KS", [SEVEN_KINGS, "QC QD QH QS QC 2D JK"], told_yes=True)
    assert "add K KS" not in moves(s)
    assert_moves_agree_with_brute_force(s)
