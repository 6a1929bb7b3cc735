"""The meanings of a variant's options for play (canasta.variant.meanings).

Each meaning is checked against something it must agree with that is worked out
another way: the cards the decks really hold, the cards a deal really takes, the
engine's compiled tables, and the readings of the bundled profiles' rule texts.
"""

from __future__ import annotations

import types
import typing

import attrs
import pytest
from hypothesis import given, settings
from tests.strategies import variants

from canasta import load_variant, new_game
from canasta.cards import JOKER, build_deck, parse_rank
from canasta.engine import compile_rules
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.moves import RED_THREE
from canasta.variant.loading import variant_names
from canasta.variant.meanings import Meanings, derive_meanings, meanings
from canasta.variant.model import Variant

BUNDLED = variant_names()


@settings(max_examples=150, deadline=None)
@given(variants())
def test_meanings_agree_with_the_decks(v: Variant) -> None:
    """The wild, natural and red-3 counts are what the decks built from the options hold."""
    mn = derive_meanings(v)
    deck = [KIND[int(c)] for c in build_deck(v.deck.decks, v.deck.jokers_per_deck)]
    assert mn.red_threes == deck.count(RED_THREE)
    assert mn.wild_cards == sum(1 for k in deck if k in mn.wild_ranks)
    assert mn.wild_ranks_dealt == {k for k in deck if k in mn.wild_ranks}
    # every rank 2 to ace is natural, wild, or the 3s, and only one of them
    assert not set(mn.natural_ranks) & mn.wild_ranks
    assert BLACK_THREE not in mn.natural_ranks and JOKER not in mn.natural_ranks
    assert set(mn.natural_ranks) | mn.wild_ranks | {BLACK_THREE} >= set(range(2, 15))
    assert mn.black_threes_apart == (BLACK_THREE not in mn.wild_ranks)


@settings(max_examples=150, deadline=None)
@given(variants())
def test_meanings_hold_together(v: Variant) -> None:
    """Meanings that follow from others agree with them, whatever the options."""
    mn = derive_meanings(v)
    if v.sequences.allowed:
        # the window low..high, less the ranks that are no natural rank
        window = range(parse_rank(v.sequences.low), parse_rank(v.sequences.high) + 1)
        assert mn.sequence_ranks == tuple(k for k in window if k in mn.natural_ranks)
    else:
        assert not (mn.sequence_ranks or mn.sequences_join or mn.sequence_wild_in_gap or mn.sequences_grow_going_out)
    assert mn.rank_bars == (mn.closed_rank_dead or mn.wilds_join_late or mn.wild_meld_locked)
    assert mn.wilds_join_late == (mn.wilds_join_after > 0 or bool(mn.wilds_never_join))
    # duplicate_ranks has three values: exactly one meaning holds
    assert [mn.one_meld_per_rank, mn.may_start_second_meld, mn.second_meld_after_canasta].count(True) == 1
    assert not (mn.pile_always_frozen and not mn.pile_can_freeze)
    if "natural" in v.pile.stop_cards:
        assert not mn.pile_takeable
    assert mn.empty_pile_bars_dead <= mn.closed_rank_dead
    assert mn.bars_discards >= (bool(mn.empty_pile_barred) or mn.empty_pile_bars_dead or mn.wild_discard_limited)
    assert mn.least_canasta <= v.canastas.size
    assert not (mn.red_last_card_plays_on and mn.red_last_card_ends_hand)
    assert mn.black_threes_meld <= mn.black_threes_apart
    # one card in hand takes the pile only by a lay-off or the top-card pickup
    assert mn.one_card_pile_barred <= (v.pile.one_card_bar and (v.pile.take_lay_off or v.sequences.top_card_pickup))
    assert meanings(v) == mn


@pytest.mark.parametrize("name", BUNDLED)
def test_a_deal_takes_cards_dealt(name: str) -> None:
    """``cards_dealt`` is what a real deal puts in hands, feet, talons and the upcard."""
    v = load_variant(name)
    mn = meanings(v)
    for seed in range(3):
        s = new_game(v, seed=seed)
        held = sum(map(len, s.hands_)) + sum(map(len, s.feet_)) + sum(map(len, s.talons_))
        assert held + (1 if v.deal.upcard else 0) == mn.cards_dealt
    assert mn.set_aside == (sum(v.opening.talons) if v.opening.talons_set_aside else 0)


@pytest.mark.parametrize("name", BUNDLED)
def test_the_engine_reads_the_meanings(name: str) -> None:
    """The engine's compiled tables hold the meanings, not readings of their own."""
    v = load_variant(name)
    r, mn = compile_rules(v), meanings(v)
    assert r.meanings is mn
    assert r.wild == mn.wild_ranks and r.natural_kinds == mn.natural_ranks
    assert r.seq_ranks == mn.sequence_ranks and r.new_size == mn.new_meld_size
    assert r.several[4] == (mn.may_start_second_meld and 4 in mn.natural_ranks)
    assert [k for k in range(16) if r.empty_bar[k]] == sorted(mn.empty_pile_barred)
    assert r.keep_three == mn.keep_one_three and r.rank_bars == mn.rank_bars
    assert r.partnerships == mn.partnerships == any(len(side) > 1 for side in v.sides)


def test_the_bundled_profiles_read_as_their_texts() -> None:
    """A few meanings of the bundled profiles, as their rule texts state them."""
    classic, samba = meanings(load_variant("classic")), meanings(load_variant("samba"))
    modern, foot = meanings(load_variant("modern-american")), meanings(load_variant("hand-and-foot"))
    assert classic.partnerships and classic.one_meld_per_rank and not classic.has_foot
    assert classic.wild_ranks == {2, JOKER} and classic.red_threes == 4
    assert classic.pile_takeable and classic.pile_can_freeze and not classic.pile_always_frozen
    assert samba.may_start_second_meld and samba.sequence_ranks == tuple(range(4, 15))
    assert modern.closed_rank_dead and modern.empty_pile_barred >= {7, 14}
    assert foot.has_foot and not meanings(load_variant("classic-2p")).partnerships


def test_meanings_are_cached_per_variant() -> None:
    """One answer per variant, and an equal variant (rebuilt unchanged) shares it."""
    v = load_variant("classic")
    assert meanings(v) is meanings(v)
    assert meanings(attrs.evolve(v)) is meanings(v)
    assert isinstance(meanings(v), Meanings)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        meanings(v).partnerships = False  # type: ignore[misc]


def _has_type(value: object, tp: object) -> bool:
    """Whether ``value`` is of ``tp``, one of the types Meanings' fields are declared with."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_has_type(value, a) for a in args)
    if tp is type(None):
        return value is None
    if origin in (tuple, frozenset):
        return isinstance(value, origin) and all(_has_type(x, args[0]) for x in value)
    return type(value) is tp


@settings(max_examples=100, deadline=None)
@given(variants())
def test_every_meaning_has_its_fields_type(v: Variant) -> None:
    """The steps that work the meanings out give each field a value of its declared type."""
    mn = derive_meanings(v)
    hints = typing.get_type_hints(Meanings)
    wrong = [f.name for f in attrs.fields(Meanings) if not _has_type(getattr(mn, f.name), hints[f.name])]
    assert not wrong
