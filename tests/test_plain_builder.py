"""The engine's fast constructors of states, turns and melds (``canasta.engine.state.plain_builder``).

The engine builds its GameState, Turn, Laid and MeldGroup values with builders that
fill the slots by plain stores instead of attrs' ``__init__``. What they build
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
from canasta.engine.state import (
    GameState,
    Laid,
    MeldGroup,
    Turn,
    new_laid,
    new_meld_group,
    new_state,
    new_turn,
    plain_builder,
)

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


def test_a_class_whose_init_does_more_than_store_is_refused() -> None:
    # a builder would skip what __init__ does: refused when the builder is made
    class Slots:
        __slots__ = ("__weakref__", "x")

    @attrs.frozen(slots=True)
    class Checked(Slots):
        x: int = attrs.field(validator=attrs.validators.instance_of(int))

    with pytest.raises(TypeError, match=re.escape("Checked.x needs its __init__")):
        plain_builder(Checked, Slots)

    @attrs.frozen(slots=True)
    class Converted(Slots):
        x: int = attrs.field(converter=int)

    with pytest.raises(TypeError, match=re.escape("Converted.x needs its __init__")):
        plain_builder(Converted, Slots)


def test_a_twin_of_another_layout_is_refused_when_the_builder_is_made() -> None:
    class Slots:
        __slots__ = ("__weakref__", "x")

    class Other:
        __slots__ = ("__weakref__", "x", "y")

    @attrs.frozen(slots=True)
    class Value(Slots):
        x: int

    assert plain_builder(Value, Slots)(3) == Value(3)
    with pytest.raises(TypeError, match="layout differs"):
        plain_builder(Value, Other)


def test_a_field_its_base_does_not_declare_is_refused() -> None:
    # attrs would give the field a slot of the class's own, which the twin would not fill
    class Slots:
        __slots__ = ("__weakref__", "x")

    @attrs.frozen(slots=True)
    class Grown(Slots):
        x: int
        y: int

    with pytest.raises(TypeError, match=re.escape("Grown.y is not declared in Slots")):
        plain_builder(Grown, Slots)

