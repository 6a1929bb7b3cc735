"""Modern American's rules on melds, on house tables built from classic: dead ranks
(``melds.dead_when_closed``), melds that must be canastas before going out
(``going_out.complete_ranks``, ``going_out.complete_wild_meld``) and the clean meld an
opening needs (``opening.natural_meld``).

Each rule is checked three ways: scenario positions written card by card, the
turn oracle against brute force over the rest of the turn, and random hands
with the engine's invariants checked after every move.
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta.cards import build_deck
from canasta.engine.state import TOLD_YES, GameState, Turn
from positions import moves, play, position, refusal
from test_engine_random import play_checked_hand
from test_oracle import assert_moves_agree_with_brute_force

CLASSIC = canasta.load_variant("classic")
#: classic, with melds closed at seven, dead ranks, wild melds, and aces, 7s and the
#: wild meld to be completed before going out (the Modern American shape)
HOUSE = attrs.evolve(
    CLASSIC,
    name="closed-ranks",
    melds=attrs.evolve(CLASSIC.melds, max_size=7, dead_when_closed=True, wild_melds=True),
    going_out=attrs.evolve(CLASSIC.going_out, complete_ranks=("A", "7"), complete_wild_meld=True),
)
CLOSED_KINGS = "KC KD KH KS KC KD KH"
#: classic whose opening needs a clean triple, the pile's top card not counted (Modern American)
CLEAN = attrs.evolve(
    CLASSIC, name="clean-opening",
    opening=attrs.evolve(CLASSIC.opening, natural_meld=3, top_card_counts=False),
)


def house(hand: str, mine: list[str], theirs: list[str], **kw: object) -> GameState:
    """Seat 0 of the house table in its play phase, with its side's and the other side's melds."""
    return position(HOUSE, hands=[hand, "4C 6D"], melds={0: mine, 1: theirs}, pile="5D", **kw)  # type: ignore[arg-type]


class TestDeadRanks:
    def test_a_closed_meld_kills_its_rank_for_both_sides(self) -> None:
        s = house("KC KD KH 9C 9D 9H 5S", ["QC QD QH"], [CLOSED_KINGS])
        assert "Ks are dead" in refusal(s, "meld K K K")
        assert not any(m.startswith("meld K") for m in moves(s))
        assert "meld 9 9 9" in moves(s)

    def test_an_open_meld_of_a_dead_rank_takes_no_more_cards(self) -> None:
        s = house("KC 2C 9C 9D 5S", ["KC KD KH"], [CLOSED_KINGS])
        assert "Ks are dead" in refusal(s, "add K K")
        assert "Ks are dead" in refusal(s, "add K 2")

    def test_the_pile_is_not_taken_on_a_dead_card(self) -> None:
        s = position(HOUSE, hands=["KC KD 9C 5S", "4C"], melds={0: ["QC QD QH"], 1: [CLOSED_KINGS]},
                     pile="5D KH", phase="draw")
        assert "dead" in refusal(s, "take pair")
        assert not any(m.startswith("take") for m in moves(s))

    def test_classic_keeps_its_open_ranks(self) -> None:
        # without the option a rank stays open, and classic melds grow past seven
        s = position(CLASSIC, hands=["KC KD KH 9C 9D 9H 5S", "4C 6D"],
                     melds={0: ["QC QD QH"], 1: [CLOSED_KINGS]}, pile="5D")
        assert "meld K K K" in moves(s)

    def test_an_opening_that_needs_a_dead_rank_is_not_listed(self) -> None:
        # unopened, 50 to open: 9 9 9 (30) and K K K (30) would do, but the Ks are dead
        s = house("KC KD KH 9C 9D 9H 5S 6S", [], [CLOSED_KINGS], opened=[False, True])
        assert not any(m.startswith("meld") for m in moves(s))
        alive = house("KC KD KH 9C 9D 9H 5S 6S", [], ["QC QD QH"], opened=[False, True])
        assert "meld K K K" in moves(alive)


class TestCompleteBeforeGoingOut:
    def test_an_incomplete_meld_of_aces_blocks_going_out(self) -> None:
        s = house("9C", ["AC AD AH AS", "QC QD QH QS QC QD QH"], [])
        assert "meld of As must be a canasta" in refusal(s, "out 9C")

    def test_the_aces_completed_in_the_same_turn(self) -> None:
        s = house("AC AD AH 9C", ["AC AD AH AS", "QC QD QH QS QC QD QH"], [], turn=Turn(asked=TOLD_YES, asker=0))
        # told yes: every step must keep going out possible, and the aces must reach seven
        assert moves(s) == {"add A A"}
        out = play(s, "add A A", "add A A", "add A A", "out 9")
        assert out.is_hand_over

    def test_a_wild_meld_must_be_a_canasta(self) -> None:
        s = house("9C", ["2C 2D JK", "QC QD QH QS QC QD QH"], [])
        assert "meld of wild cards must be a canasta" in refusal(s, "out 9C")

    def test_other_ranks_may_stay_incomplete(self) -> None:
        s = house("9C", ["KC KD KH", "QC QD QH QS QC QD QH"], [])
        assert "out 9" in moves(s)


class TestCleanOpening:
    def opening(self, hand: str) -> GameState:
        return position(CLEAN, hands=[hand, "4C 6D"], pile="5D")

    def test_points_alone_do_not_open(self) -> None:
        # K K 2 and Q Q 2 make 80 points, but no meld of three naturals without a wild card
        s = self.opening("KC KD 2C QC QD 2D 9S 5H")
        assert not any(m.startswith("meld") for m in moves(s))
        assert "a meld of 3 natural cards of one rank without a wild card" in refusal(s, "meld K K 2")

    def test_a_clean_triple_and_another_meld(self) -> None:
        s = self.opening("KC KD KH 2C QC QD 2D 9S 5H")
        assert {m for m in moves(s) if m.startswith("meld")} == {"meld K K K", "meld Q Q 2"}
        after = play(s, "meld K K K")
        # a wild card on the kings now would spoil the only clean meld before the side opens
        assert "add K 2" not in moves(after)
        opened = play(after, "meld Q Q 2")
        assert opened.opened[0]
        # once open, the kings may take the other 2
        assert "add K 2" in moves(opened)

    def test_wild_cards_join_the_clean_meld_after_the_opening(self) -> None:
        # 50 needed: K K K (30) + 9 9 9 (30) open with both clean; the 2 then goes on the kings
        s = self.opening("KC KD KH 9C 9D 9H 2C 5S 6S")
        done = play(s, "meld 9 9 9", "meld K K K", "add K 2")
        assert done.opened[0]

    def test_the_top_card_does_not_count(self) -> None:
        # the pile's K with K K from the hand: only two naturals from the hand; 9 9 9 is the clean meld
        s = position(CLEAN, hands=["KC KD 9C 9D 9H AS AH 5S", "4C"], pile="5D KH", phase="draw")
        assert "take pair" in moves(s)
        assert play(s, "take pair").opened == (False, False)  # 20 from the hand so far
        two = position(CLEAN, hands=["KC KD QC QD 2C AS AH 5S", "4C"], pile="5D KH", phase="draw")
        assert "take pair" not in moves(two)


# -- against brute force, and random hands ----------------------------------------------------

_POOL = ["AC", "AD", "AH", "KC", "KD", "9C", "9D", "9H", "2C", "JK", "7C", "7D", "5S"]
_MINE = ["AC AD AH AS", "KC KD KH", "2C 2D JK", "7C 7D 7H", "QC QD QH QS QC QD QH"]
_THEIRS = [CLOSED_KINGS, "9C 9D 9H 9S 9C 9D 9H", "JC JD JH"]


@st.composite
def house_positions(draw: st.DrawFn) -> GameState:
    """A play-phase position of the house table: melds of ranks that must be completed,
    dead ranks, short hands (going out within reach), opened or not, told yes or not."""
    hand = draw(st.lists(st.sampled_from(_POOL), min_size=1, max_size=8))
    mine = draw(st.lists(st.sampled_from(_MINE), unique=True, max_size=3))
    theirs = draw(st.lists(st.sampled_from(_THEIRS), unique=True, max_size=2))
    told_yes = bool(mine) and draw(st.booleans())
    turn = Turn(asked=TOLD_YES, asker=0) if told_yes else Turn()
    return position(HOUSE, hands=[" ".join(hand), "4C 6D"], melds={0: mine, 1: theirs}, pile="5D",
                    opened=[bool(mine), bool(theirs)], turn=turn)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=house_positions())
def test_moves_agree_with_brute_force(s: GameState) -> None:
    """Every play-phase move: legal exactly when its own rule allows it and the turn can still end."""
    assert_moves_agree_with_brute_force(s)


@pytest.mark.parametrize("seed", range(6))
def test_random_hands(seed: int) -> None:
    """Whole random hands of the house table: the invariants of every playout hold."""
    s = canasta.new_game(HOUSE, seed=seed)
    assert play_checked_hand(s, seed, seed % 2 == 0) > 0


_CLEAN_POOL = ["KC", "KD", "KH", "QC", "QD", "9C", "9D", "9H", "2C", "2D", "JK", "5S", "AS"]
#: each card of the pool as often as the decks hold it: a hand drawn from these
#: (without replacement) is one a deal can make (nine KC is not)
_IN_DECK = Counter(str(c) for c in build_deck(CLEAN.deck.decks, CLEAN.deck.jokers_per_deck))
_CLEAN_COPIES = [card for card in _CLEAN_POOL for _ in range(_IN_DECK[card])]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.lists(st.sampled_from(range(len(_CLEAN_COPIES))), min_size=4, max_size=10, unique=True).map(
    lambda picks: [_CLEAN_COPIES[i] for i in picks]))
def test_clean_openings_agree_with_brute_force(hand: list[str]) -> None:
    """An unopened side's every move: legal exactly when the turn can still end, the opening
    (50 points and a clean triple) met or not attempted."""
    s = position(CLEAN, hands=[" ".join(hand), "4C 6D"], pile="5D")
    assert_moves_agree_with_brute_force(s)


@pytest.mark.parametrize("seed", range(6))
def test_random_hands_with_a_clean_opening(seed: int) -> None:
    s = canasta.new_game(CLEAN, seed=seed)
    assert play_checked_hand(s, seed, seed % 2 == 1) > 0


def test_a_clean_opening_with_sequences_is_refused() -> None:
    samba = canasta.load_variant("samba")
    both = attrs.evolve(samba, opening=attrs.evolve(samba.opening, natural_meld=3))
    with pytest.raises(canasta.VariantError, match=r"opening\.natural_meld"):
        canasta.new_game(both, 1)


# -- when wild cards may join a meld (melds.late_wild_naturals, late_natural_ranks, wild_meld_lock)

#: classic with Modern American's timing of wild cards: the rule of five after the opening
#: turn, aces natural after it, and an unfinished wild meld locking wild cards in
TIMING = attrs.evolve(
    CLASSIC, name="wild-timing",
    melds=attrs.evolve(CLASSIC.melds, wild_melds=True, late_wild_naturals=5, late_natural_ranks=("A",),
                       wild_meld_lock=True),
)


def timing(hand: str, mine: list[str], **kw: object) -> GameState:
    """Seat 0 of the timing table in its play phase; its side opened on an earlier turn with ``mine``."""
    return position(TIMING, hands=[hand, "4C 6D"], melds={0: mine}, pile="5D", **kw)  # type: ignore[arg-type]


class TestWildTiming:
    def test_the_rule_of_five(self) -> None:
        three = timing("2C 9C 9D 5S", ["KC KD KH"])
        assert "once it holds 5 natural cards; the meld of Ks has 3" in refusal(three, "add K 2")
        five = timing("2C 9C 9D 5S", ["KC KD KH KS KC"])
        assert "add K 2" in moves(five)

    def test_new_melds_after_the_opening_turn(self) -> None:
        s = timing("QC QD QH QS QC 2C 9C 9D 5S", ["KC KD KH"])
        assert "5 natural cards" in refusal(s, "meld Q Q 2")
        assert "meld Q Q Q" in moves(s)

    def test_the_opening_turn_puts_wild_cards_anywhere(self) -> None:
        s = position(TIMING, hands=["QC QD 2C KC KD 2D 9C 5S", "4C 6D"], pile="5D")
        assert "meld Q Q 2" in moves(s)
        opened = play(s, "meld Q Q 2", "meld K K 2")
        assert opened.opened[0]

    def test_aces_stay_natural_after_the_opening_turn(self) -> None:
        s = timing("2C 9C 9D 5S", ["AC AD AH AS AC"])
        assert "As take no wild card after the turn your side opened" in refusal(s, "add A 2")

    def test_an_unfinished_wild_meld_locks_the_wild_cards(self) -> None:
        s = timing("2C 9C 9D 5S", ["KC KD KH KS KC", "2D 2H JK"])
        assert "meld of wild cards must be a canasta" in refusal(s, "add K 2")
        assert any(m.startswith("add") and m.endswith("2") for m in moves(s))

    def test_the_lock_keeps_a_canasta_out_of_reach(self) -> None:
        # the 2 would make the six kings a canasta (going out needs one), but the wild meld
        # is unfinished: the 2 may only join it, so there is no way out and nothing to ask
        s = timing("2C 9C", ["KC KD KH KS KC KD", "2D 2H JK"])
        assert "cannot go out" in refusal(s, "ask")
        free = position(attrs.evolve(TIMING, melds=attrs.evolve(TIMING.melds, wild_meld_lock=False)),
                        hands=["2C 9C", "4C 6D"], melds={0: ["KC KD KH KS KC KD", "2D 2H JK"]}, pile="5D")
        assert "ask" in moves(free)


_TIMING_POOL = ["KC", "KD", "QC", "QD", "QH", "AC", "AD", "2C", "2D", "JK", "JK", "9C", "5S"]
_TIMING_TABLE = ["KC KD KH KS KC", "QC QD QH", "AC AD AH AS AC", "2D 2H JK", "9C 9D 9H 9S 9C 9D 9H"]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hand=st.lists(st.sampled_from(_TIMING_POOL), min_size=1, max_size=8),
    table=st.lists(st.sampled_from(_TIMING_TABLE), unique=True, max_size=3),
    told_yes=st.booleans(),
)
def test_wild_timing_agrees_with_brute_force(hand: list[str], table: list[str], told_yes: bool) -> None:
    """Every move where the timing of wild cards matters: legal exactly when the turn can still end."""
    turn = Turn(asked=TOLD_YES, asker=0) if told_yes and table else Turn()
    s = position(TIMING, hands=[" ".join(hand), "4C 6D"], melds={0: table}, pile="5D", turn=turn)
    assert_moves_agree_with_brute_force(s)


@pytest.mark.parametrize("seed", range(6))
def test_random_hands_with_wild_timing(seed: int) -> None:
    s = canasta.new_game(TIMING, seed=seed)
    assert play_checked_hand(s, seed, seed % 2 == 0) > 0


def test_a_wild_card_on_the_only_natural_canasta_still_goes_out() -> None:
    """The search counts natural canastas far enough that one turned mixed is still a canasta.

    Classic, one natural canasta of kings, the hand 2 and 9: the 2 on the kings (a mixed
    canasta now) and the 9 discarded goes out. A count of natural canastas capped at what
    going out needs (none) used to fall below zero there and lose the way out, which only
    the quick greedy plan had hidden.
    """
    from canasta.engine.facts import probe
    from canasta.engine.searches import outcomes

    s = position(CLASSIC, hands=["2C 9D", "4C 6D"], melds={0: [CLOSED_KINGS]}, pile="5D")
    q = probe(s)
    assert (1, True, False) in outcomes(s.rules, q.counts, q.melds, False, 1)


#: the timing table whose aces must be a canasta before going out, unless they took wild
#: cards in the opening turn (then they are an ordinary meld: Modern American)
ORDINARY_ACES = attrs.evolve(
    TIMING, name="ordinary-aces",
    going_out=attrs.evolve(TIMING.going_out, complete_ranks=("A",)),
)
_ACES_POOL = ["AC", "AD", "AS", "2C", "JK", "9C", "9D", "9H", "5S", "KC"]
_ACES_TABLE = ["AC AD AH JK", "AC AD 2H", "AC AD AH", "KC KD KH KS KC KD KH", "9C 9D 9H 9S 9C"]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hand=st.lists(st.sampled_from(_ACES_POOL), min_size=1, max_size=7),
    table=st.lists(st.sampled_from(_ACES_TABLE), unique=True, max_size=3),
    opening_turn=st.booleans(),
)
def test_ordinary_aces_agree_with_brute_force(hand: list[str], table: list[str], opening_turn: bool) -> None:
    """Aces with wild cards owe no canasta before going out; the searches agree with brute force."""
    aces = [m for m in table if m.startswith("A")]
    if len(aces) > 1:
        table = [m for m in table if not m.startswith("A")] + aces[:1]
    # in the side's opening turn (points laid) wild cards may still join the aces
    turn = Turn(points=200, played=(), melded=False) if opening_turn and table else Turn()
    s = position(ORDINARY_ACES, hands=[" ".join(hand), "4C 6D"], melds={0: table}, pile="5D", turn=turn)
    assert_moves_agree_with_brute_force(s)


def test_ordinary_aces_go_out() -> None:
    """A canasta of kings and mixed aces: the last card discarded goes out; natural aces block it."""
    mixed = position(ORDINARY_ACES, hands=["9D", "4C 6D"], melds={0: [CLOSED_KINGS, "AC AD AH JK"]}, pile="5D")
    assert "out 9" in moves(mixed)
    pure = position(ORDINARY_ACES, hands=["9D", "4C 6D"], melds={0: [CLOSED_KINGS, "AC AD AH"]}, pile="5D")
    assert "must be a canasta before you go out" in refusal(pure, "out 9")
