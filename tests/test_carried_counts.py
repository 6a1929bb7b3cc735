"""The hand counts a step carries to the next state (``canasta.engine.kinds.CARRIED``).

A step that melds or adds works out the new hand's counts by kind from the
old ones, and a draw works them out from what the seat's last discard left
(``canasta.engine.kinds.DISCARDED``); the next state's ``Ctx`` takes them
instead of counting the hand again, when its hand is the very tuple the step
made. Over random hands of every bundled profile, every ``Ctx`` is compared
with a fresh count of its hand, whether its counts were carried or counted;
and each carried path is checked to be taken at all.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from canasta.engine.facts import Ctx, context_of
from canasta.engine.kinds import CARRIED, DISCARDED, count_kinds
from canasta.engine.moves import Draw


def _play(name: str, seed: int, rng: random.Random, drawn: list[int] | None = None) -> tuple[int, int]:
    """Play one hand, checking every state's Ctx counts; return (carried, counted) states.

    ``drawn``: counts the states right after a draw whose counts were carried.
    """
    s = canasta.new_game(canasta.load_variant(name), seed=seed)
    carried = counted = 0
    after_draw = False
    while not s.is_hand_over:
        hand = s.hands_[s.current]
        if CARRIED[0][0] is hand:
            carried += 1
            if after_draw and drawn is not None:
                drawn.append(1)
        else:
            counted += 1
        assert context_of(s).counts == count_kinds(hand), (name, seed)
        legal = s.legal_moves()
        move = legal[rng.randrange(len(legal))]
        after_draw = isinstance(move, Draw)
        s = s.apply(move)
    return carried, counted


@pytest.mark.parametrize("name", canasta.variant_names())
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), pick=st.integers(0, 2**31 - 1))
def test_every_ctx_holds_its_hands_counts(name: str, seed: int, pick: int) -> None:
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


def test_a_hand_that_is_not_the_carried_one_is_counted() -> None:
    s = canasta.new_game(canasta.load_variant("classic"), seed=5)
    hand = s.hands_[s.current]
    # an equal hand, but another tuple: not taken from CARRIED
    other = tuple(list(hand))
    assert other == hand and other is not hand
    CARRIED[0] = other, (9,) * 16
    assert Ctx(s).counts == count_kinds(hand)
    # the very tuple is trusted: the step that stored it made both
    CARRIED[0] = hand, count_kinds(hand)
    assert Ctx(s).counts == count_kinds(hand)


@pytest.mark.parametrize("name", ["classic", "hand-and-foot", "samba"])
def test_draws_carry_the_counts_their_seats_last_discard_left(name: str) -> None:
    rng = random.Random(name)
    drawn: list[int] = []
    for hand in range(4):
        _play(name, 2000 + hand, rng, drawn)
    # every draw but a seat's first of the hand (and after a talon) is carried
    assert len(drawn) > 20, len(drawn)


def _drawing_state() -> canasta.GameState:
    """A classic draw-phase state whose seat has discarded before, its stock not run out."""
    s = canasta.new_game(canasta.load_variant("classic"), seed=11)
    rng = random.Random(3)
    seen: set[int] = set()
    while True:
        legal = s.legal_moves()
        if s.phase_name == "draw" and s.current in seen and Draw() in legal:
            return s
        if s.phase_name == "play":
            seen.add(s.current)
        s = s.apply(legal[rng.randrange(len(legal))])


def test_a_draw_counts_a_hand_its_discard_did_not_leave() -> None:
    s = _drawing_state()
    p = s.current
    hand = s.hands_[p]
    # an equal hand, but another tuple, with counts that are wrong for it
    DISCARDED[p & 7] = tuple(list(hand)), (5,) * 16, 4
    after = s.apply(Draw())
    assert CARRIED[0][0] is not after.hands_[p]
    assert context_of(after).counts == count_kinds(after.hands_[p])
    # the very tuple, with its counts before a discard of one 4: carried
    before = list(count_kinds(hand))
    before[4] += 1
    DISCARDED[p & 7] = hand, tuple(before), 4
    after = s.apply(Draw())
    assert CARRIED[0][0] is after.hands_[p]
    assert context_of(after).counts == count_kinds(after.hands_[p])

