"""The quick listings (``canasta.engine.quick``, ``canasta.engine.draw.draw_moves``) against the candidate loop.

``legal_moves()`` lists a common play-phase position straight from the hand's
counts (:func:`canasta.engine.quick.quick_moves`), and a draw-phase position
with the stock not empty without the state's context
(:func:`canasta.engine.draw.draw_moves`), instead of asking each candidate's
step. Both must list the same moves in the same order: the order is what a
seeded random player picks from, so a difference would change every
simulation's figures. Over random playouts of every bundled profile and house
profile, each play-phase and draw-phase position is listed both ways (the
candidate loop by standing in ``None`` for the quick listing) and the lists
are compared.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
import canasta.engine.game as game
from canasta.engine.draw import draw_moves
from canasta.engine.facts import context_of
from canasta.engine.quick import quick_moves
from canasta.engine.state import DRAW, PLAY, GameState
from houses import HOUSES, house_path

PROFILES = [*canasta.variant_names(), *(house_path(name) for name in HOUSES)]
#: Moves played per example (a hand in most profiles is longer: the start of hands is what varies).
MOVES = 160


def _both_ways(s: GameState, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str], bool]:
    """The position's legal moves as listed by the quick pass and by the candidate loop, and
    whether the quick pass applied."""
    object.__setattr__(s, "_ctx", None)
    if s.phase == PLAY:
        quick_applies = s.rules.fast.quick_listing and quick_moves(s, context_of(s)) is not None
    else:
        quick_applies = bool(s.stock_) and draw_moves(s) is not None
    object.__setattr__(s, "_ctx", None)
    listed = [str(m) for m in s.legal_moves()]
    object.__setattr__(s, "_ctx", None)
    with monkeypatch.context() as patch:
        patch.setattr(game, "quick_moves", lambda *args: None)
        patch.setattr(game, "draw_moves", lambda *args: None)
        reference = [str(m) for m in s.legal_moves()]
    object.__setattr__(s, "_ctx", None)
    return listed, reference, quick_applies


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=4, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_quick_listing_is_the_candidate_loop(profile: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    v = canasta.load_variant(profile)
    rng = random.Random(seed)
    s = canasta.new_game(v, seed=seed)
    for _ in range(MOVES):
        if s.is_game_over:
            break
        if s.phase in (PLAY, DRAW):
            listed, reference, _ = _both_ways(s, monkeypatch)
            assert listed == reference, (profile, seed, str(s))
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])


def test_quick_listing_applies_in_classic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above is not empty: in classic most play-phase positions take the quick pass."""
    v = canasta.load_variant("classic")
    rng = random.Random(5)
    quick = play = 0
    for hand in range(6):
        s = canasta.new_game(v, seed=hand)
        while not s.is_hand_over:
            if s.phase == PLAY:
                play += 1
                listed, reference, applies = _both_ways(s, monkeypatch)
                assert listed == reference
                quick += applies
            legal = s.legal_moves()
            s = s.apply(legal[rng.randrange(len(legal))])
    assert play > 100
    assert quick > play // 2, (quick, play)


def test_quick_draw_listing_decides_the_pile_in_classic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The draw-phase comparison is not empty either: in classic, positions where the pile
    may be taken are mostly listed by ``draw_moves``, and the pile is taken in some of them."""
    v = canasta.load_variant("classic")
    rng = random.Random(7)
    takes = taken = quick = 0
    for hand in range(8):
        s = canasta.new_game(v, seed=100 + hand)
        while not s.is_hand_over:
            if s.phase == DRAW:
                listed, reference, applies = _both_ways(s, monkeypatch)
                assert listed == reference
                if len(listed) > 1 or draw_moves(s) is None:
                    takes += 1
                    quick += applies
                    taken += len(listed) > 1
            legal = s.legal_moves()
            s = s.apply(legal[rng.randrange(len(legal))])
    assert taken > 20, taken
    assert quick > takes // 2, (quick, takes)


def test_quick_listing_stands_aside_where_it_does_not_apply() -> None:
    """Sequences or several melds of a rank: the variant's flag set leaves the play phase to
    the candidate loop; classic takes the quick listing."""
    for name in ("samba", "bolivia", "brazilian"):
        fast = canasta.new_game(canasta.load_variant(name), seed=1).rules.fast
        assert not fast.quick_listing, name
        assert fast.quick_discards, name
    assert canasta.new_game(canasta.load_variant("classic"), seed=1).rules.fast.quick_listing


def test_quick_listing_stands_aside_where_quick_play_fails() -> None:
    """A side that has not opened: the quick pass declines (quick_play), the candidate loop lists."""
    v = canasta.load_variant("classic")
    rng = random.Random(1)
    s = canasta.new_game(v, seed=1)
    unopened = 0
    for _ in range(200):
        if s.is_hand_over:
            break
        if s.phase == PLAY and not s.opened[s.rules.side_of[s.current]]:
            assert quick_moves(s, context_of(s)) is None
            unopened += 1
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])
    assert unopened > 0
