"""The engine's fast constructors of states, turns, melds and views (``canasta.engine.constructors``).

The engine builds its GameState, Turn, Laid, MeldGroup and SeatView values with
constructors that fill the slots by plain stores instead of attrs' ``__init__``. What they build
must be the same value in every way a user can see: the class itself (not a
subclass), equal and hashing alike to the attrs-built twin, frozen, picklable,
copyable, evolvable, weak-referable. Checked on values drawn by hypothesis and
on every state of random playouts of every bundled profile.
"""

from __future__ import annotations

import copy
import pickle
import random
import re
import weakref
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta.engine.constructors import (
    check_builder,
    new_laid,
    new_meld_group,
    new_state,
    new_turn,
    new_view,
)
from canasta.engine.state import GameState, Laid, MeldGroup, SeatView, Turn

ints = st.integers(-5, 200)
codes = st.lists(st.integers(0, 215), max_size=6).map(tuple)


def _same_value(built: Any, made: Any) -> None:
    """``built`` (by a builder) is the same value as ``made`` (by the class), seen every way."""
    cls = type(made)
    assert type(built) is cls
    assert built == made
    assert (built != made) is False
    assert hash(built) == hash(made)
    assert repr(built) == repr(made)
    for a in attrs.fields(cls):
        assert getattr(built, a.name) is getattr(made, a.name), a.name
    assert pickle.loads(pickle.dumps(built)) == made
    assert copy.copy(built) == made and copy.deepcopy(built) == made
    first = attrs.fields(cls)[0].name
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        setattr(built, first, None)
    assert attrs.evolve(built) == made
    assert weakref.ref(built)() is built


@settings(max_examples=examples(200), deadline=None)
@given(ints, codes, ints, ints, st.integers(-1, 3))
def test_meld_groups_built_either_way_are_one_value(rank: int, cards: tuple[int, ...], naturals: int,
                                                    wilds: int, suit: int) -> None:
    _same_value(new_meld_group(rank, cards, naturals, wilds, suit), MeldGroup(rank, cards, naturals, wilds, suit))


@settings(max_examples=examples(200), deadline=None)
@given(ints, st.booleans(), codes, ints, st.booleans(), codes)
def test_take_back_entries_built_either_way_are_one_value(index: int, new: bool, cards: tuple[int, ...],
                                                          points: int, opened: bool,
                                                          pending: tuple[int, ...]) -> None:
    args = (index, new, cards, points, opened, pending)
    _same_value(new_laid(*args), Laid(*args))


@settings(max_examples=examples(200), deadline=None)
@given(st.booleans(), st.booleans(), ints, codes, st.integers(0, 2), st.integers(-1, 5), codes, codes,
       st.integers(0, 3))
def test_turns_built_either_way_are_one_value(took: bool, melded: bool, points: int, pending: tuple[int, ...],
                                              asked: int, asker: int, drawn: tuple[int, ...],
                                              played: tuple[int, ...], backs: int) -> None:
    args = (took, melded, points, pending, asked, asker, drawn, played, (), backs)
    _same_value(new_turn(*args), Turn(*args))


@pytest.mark.parametrize("name", canasta.variant_names())
def test_every_state_of_a_playout_rebuilt_either_way_is_one_value(name: str) -> None:
    variant = canasta.load_variant(name)
    rng = random.Random(name)
    fields = [a.name for a in attrs.fields(GameState) if a.init]
    s = canasta.new_game(variant, seed=rng.randrange(10**6))
    seen = 0
    while seen < 300:
        if s.is_game_over:
            s = canasta.new_game(variant, seed=rng.randrange(10**6))
        values = [getattr(s, n) for n in fields]
        made, built = GameState(*values), new_state(*values)
        _same_value(built, made)
        # and it plays on as the state it stands for
        assert [str(m) for m in built.legal_moves()] == [str(m) for m in made.legal_moves()]
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])
        seen += 1


@pytest.mark.parametrize("name", ["classic", "hand-and-foot", "samba"])
def test_every_view_of_a_playout_rebuilt_either_way_is_one_value(name: str) -> None:
    rng = random.Random(name)
    fields = [a.name for a in attrs.fields(SeatView) if a.init]
    s = canasta.new_game(canasta.load_variant(name), seed=rng.randrange(10**6))
    for _ in range(100):
        if s.is_hand_over:
            break
        view = s.view(rng.randrange(len(s.hands_)))
        values = [getattr(view, n) for n in fields]
        made, built = SeatView(*values), new_view(*values)
        assert type(built) is SeatView and built == made and hash(built) == hash(made)
        for a in attrs.fields(SeatView):
            assert getattr(built, a.name) is getattr(made, a.name), a.name
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])


class _Slots:
    __slots__ = ("__weakref__", "x", "y")


class _Fill(_Slots):
    __slots__ = ()


@attrs.frozen(slots=True)
class _Value(_Slots):
    x: int
    y: int


def _fill(twin: type, x: int, y: int) -> _Value:
    # what the engine's constructors do: fill a twin, then give it the class
    o: Any = object.__new__(twin)
    o.x = x
    o.y = y
    o.__class__ = _Value
    return o  # type: ignore[no-any-return]


def _build(x: int, y: int) -> _Value:
    return _fill(_Fill, x, y)


def test_a_constructor_that_fills_every_field_passes() -> None:
    check_builder(_Value, _build)
    assert _build(1, 2) == _Value(1, 2)


def test_a_constructor_that_fills_a_field_otherwise_is_refused() -> None:
    def swapped(x: int, y: int) -> _Value:
        return _build(y, x)

    with pytest.raises(TypeError, match=re.escape("swapped does not fill _Value.x as __init__ does")):
        check_builder(_Value, swapped)

    def short(x: int) -> _Value:
        return _build(x, 0)

    with pytest.raises(TypeError):  # a field it does not take
        check_builder(_Value, short)


def test_a_class_whose_init_does_more_than_store_is_refused() -> None:
    # a constructor would skip what __init__ does: refused when it is checked
    @attrs.frozen(slots=True)
    class Checked(_Slots):
        x: int = attrs.field(validator=attrs.validators.instance_of(int))
        y: int = 0

    with pytest.raises(TypeError, match=re.escape("Checked.x needs its __init__")):
        check_builder(Checked, _build)

    @attrs.frozen(slots=True)
    class Converted(_Slots):
        x: int = attrs.field(converter=int)
        y: int = 0

    with pytest.raises(TypeError, match=re.escape("Converted.x needs its __init__")):
        check_builder(Converted, _build)


def test_a_twin_of_another_layout_is_refused() -> None:
    class Other:
        __slots__ = ("__weakref__", "x", "y", "z")

    def other(x: int, y: int) -> _Value:
        return _fill(Other, x, y)

    with pytest.raises(TypeError, match="layout differs"):
        check_builder(_Value, other)
