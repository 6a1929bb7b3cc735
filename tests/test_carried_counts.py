"""The hand counts a step carries to the state it builds (``GameState._counts``).

A step that melds or adds works out the new hand's counts by kind from the
old ones; the state it builds carries them, with the hand they are of, and its
``Ctx`` takes them instead of counting the hand again, when the mover's hand
is the very tuple carried. Over random hands of every bundled profile, every
carried count is compared with a fresh count of its hand, and every ``Ctx``
with a fresh count of the mover's hand, whether carried or counted; and the
carried path is checked to be taken at all.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from canasta.engine.facts import Ctx, context_of
from canasta.engine.kinds import count_kinds
from canasta.engine.state import NO_COUNTS


def _carried(s: canasta.GameState) -> tuple[int, ...] | None:
    """The counts ``s`` carries for the mover's hand, or ``None`` where it carries none for it."""
    hand, counts = s._counts
    return counts if hand is s.hands_[s.current] else None


def _play(name: str, seed: int, rng: random.Random) -> tuple[int, int]:
    """Play one hand, checking every state's carried counts; return (carried, counted) states."""
    s = canasta.new_game(canasta.load_variant(name), seed=seed)
    carried = counted = 0
    while not s.is_hand_over:
        hand, counts = s._counts
        # what a state carries is the count of the hand it names, whoever holds it
        assert s._counts == NO_COUNTS or counts == count_kinds(hand), (name, seed)
        if _carried(s) is not None:
            carried += 1
        else:
            counted += 1
        assert context_of(s).counts == count_kinds(s.hands_[s.current]), (name, seed)
        legal = s.legal_moves()
        after = s.apply(legal[rng.randrange(len(legal))])
        assert s._counts == NO_COUNTS  # the state moved from keeps none (as it keeps no Ctx)
        s = after
    return carried, counted


@pytest.mark.parametrize("name", canasta.variant_names())
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), pick=st.integers(0, 2**31 - 1))
def test_every_carried_count_is_its_hands_count(name: str, seed: int, pick: int) -> None:
    _play(name, seed, random.Random(pick))


@pytest.mark.parametrize("name", ["classic", "hand-and-foot", "samba"])
def test_melds_and_adds_carry_the_counts(name: str) -> None:
    rng = random.Random(name)
    carried = counted = 0
    for hand in range(6):
        a, b = _play(name, 1000 + hand, rng)
        carried += a
        counted += b
    # random play melds or adds in about a tenth of its play positions
    assert carried > 0 and counted > 0, (carried, counted)


def _after_a_meld() -> canasta.GameState:
    """A classic state built by a meld or an add, which carries its hand's counts."""
    s = canasta.new_game(canasta.load_variant("classic"), seed=11)
    rng = random.Random(3)
    while _carried(s) is None:
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])
    return s


def test_a_hand_that_is_not_the_carried_one_is_counted() -> None:
    s = canasta.new_game(canasta.load_variant("classic"), seed=5)
    hand = s.hands_[s.current]
    # an equal hand, but another tuple, with counts that are wrong for it: not taken
    other = tuple(list(hand))
    assert other == hand and other is not hand
    wrong = (9,) * 16
    object.__setattr__(s, "_counts", (other, wrong))
    assert Ctx(s).counts == count_kinds(hand)
    # the very tuple is trusted: the step that stored it made both
    object.__setattr__(s, "_counts", (hand, wrong))
    assert Ctx(s).counts == wrong


def test_apply_drops_the_counts_of_the_state_it_moves_from() -> None:
    s = _after_a_meld()
    carried = s._counts
    legal = s.legal_moves()
    after = s.apply(legal[0])
    assert s._counts == NO_COUNTS
    assert after._counts == NO_COUNTS or after._counts is not carried
    # and the state still plays as before, its hand counted again
    assert s.legal_moves() == legal
    assert s.apply(legal[0]) == after


def test_carried_counts_are_no_part_of_the_value() -> None:
    s = _after_a_meld()
    bare = canasta.GameState(*(getattr(s, a) for a in (
        "variant", "seed", "hand_number", "dealer", "scores", "history", "phase", "current", "hands_",
        "feet_", "stock_", "pile_", "melds_", "red_threes_", "opened", "melded_before", "turn", "end",
        "rules", "talons_", "asked_before",
    )))
    assert bare._counts == NO_COUNTS
    assert bare == s and hash(bare) == hash(s) and repr(bare) == repr(s)
    assert bare.legal_moves() == s.legal_moves()
    # pickled, the counts still stand for the very hand they came with
    back = pickle.loads(pickle.dumps(s))
    assert back == s
    assert _carried(back) == count_kinds(back.hands_[back.current])
