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
from canasta.engine.facts import frozen_pile
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.meld_kinds import RankMeld, kinds_of
from canasta.engine.moves import RED_THREE, SEQUENCE, WILD_TARGET
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


@settings(max_examples=150, deadline=None)
@given(variants())
def test_the_pile_and_meld_meanings_hold_together(v: Variant) -> None:
    """The meanings of the ways of taking the pile, of freezing it and of the meld sizes agree
    with those worked out from the same options before them."""
    mn = derive_meanings(v)
    # a pile that can be taken is taken some way, and one that freezes freezes by something
    assert mn.pile_takeable <= (mn.pile_by_pair or mn.pile_by_lay_off or mn.pile_by_natural_and_wild)
    assert mn.pile_can_freeze == (mn.pile_frozen_by_wild or mn.pile_frozen_by_red_three or mn.pile_frozen_until_opened)
    assert mn.one_card_pile_barred <= (mn.pile_by_lay_off or mn.top_card_pickup)
    assert mn.top_card_pickup <= mn.sequences_allowed
    assert not (mn.empty_stock_must_lay_off and mn.empty_stock_must_take)
    assert mn.pile_always_frozen <= (mn.pile_by_pair and not mn.pile_by_lay_off and mn.pile_blocked_at is None)
    # the sizes of a meld of a rank, of wild cards, of a sequence
    assert mn.new_meld_size == max(mn.meld_least, mn.meld_least_naturals)
    assert mn.wild_meld_most == (mn.meld_most if v.melds.wild_meld_max is None else v.melds.wild_meld_max)
    least = min(mn.canasta_size, mn.sequence_canasta_size) if mn.sequences_allowed else mn.canasta_size
    assert mn.least_canasta == least
    assert mn.sequence_ranks == () or mn.sequences_allowed
    assert mn.second_wild_at_card is None or mn.second_wild_after_naturals is None
    assert mn.no_wild_ranks == {parse_rank(k) for k in v.melds.no_wild_ranks}
    # black 3s: barred, or melded where they are cards of their own kind
    assert mn.black_threes_meld == (not mn.black_threes_meld_barred and mn.black_threes_apart)
    assert mn.ask_required <= v.going_out.ask_partner


def _rank_meld_as_written(v: Variant, n: int, j: int) -> bool:
    """Whether ``n`` naturals and ``j`` wild cards make a meld of a rank, read from the options
    as their texts say, the size limits every meld shares left out (``MeldKind.valid``)."""
    m = v.melds
    second_ok = j < 2 or (
        (m.second_wild != "by_size" or n + 2 >= m.second_wild_size)
        and (m.second_wild != "by_naturals" or n >= m.second_wild_naturals)
    )
    return (
        m.min_naturals <= n and j <= m.max_wilds and not (m.wilds_at_most_naturals and j > n)
        and (m.naturals_per_wild is None or n >= m.naturals_per_wild * j) and second_ok
    )


@settings(max_examples=80, deadline=None)
@given(variants())
def test_the_kinds_of_meld_keep_what_the_options_say(v: Variant) -> None:
    """The kinds of meld, which read the meanings, accept the melds the options' texts allow:
    of a rank, of wild cards only, of black 3s; and their sizes are the options'."""
    kinds = kinds_of(v)
    rank, wild, black = RankMeld(v), kinds[WILD_TARGET], kinds[BLACK_THREE]
    th, m = v.threes, v.melds
    # the counts either side of each rule's threshold (the options' values range widely)
    js = {0, 1, 2, 3, m.max_wilds, m.max_wilds + 1}
    edges = (m.min_naturals, m.second_wild_size - 2, m.second_wild_naturals, th.black_meld_min, th.black_meld_max or 0)
    ns = {0, 1, 2} | {x + d for x in edges for d in (-1, 0, 1)}
    ns |= {(m.naturals_per_wild or 0) * j + d for j in js for d in (-1, 0)}
    for n in sorted(x for x in ns if x >= 0):
        for j in js:
            assert rank.forms(n, j) == _rank_meld_as_written(v, n, j), (n, j)
            black_ok = (
                th.black_meld != "never" and th.black_meld_min <= n
                and (th.black_meld_max is None or n <= th.black_meld_max) and (j == 0 or th.black_meld_wilds)
            )
            assert black.forms(n, j) == black_ok, (n, j)
            assert wild.forms(n, j) == (n == 0 and v.melds.wild_melds)
    assert (rank.min_size, rank.max_size, rank.canasta_size) == (v.melds.min_size, v.melds.max_size, v.canastas.size)
    assert wild.max_size == (v.melds.max_size if v.melds.wild_meld_max is None else v.melds.wild_meld_max)
    sq = v.sequences
    assert (kinds[SEQUENCE].min_size, kinds[SEQUENCE].max_size, kinds[SEQUENCE].canasta_size) == (
        sq.min_size, sq.max_size, sq.canasta_size,
    )
    for k in {parse_rank(x) for x in v.melds.no_wild_ranks} & rank.ranks:
        assert not any(kinds[k].forms(n, j) for n in range(9) for j in range(1, 6))


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
    # equal, not the same object: the tables may outlive the meanings' cache in a long run
    assert r.meanings == mn
    assert r.wild == mn.wild_ranks and r.natural_kinds == mn.natural_ranks
    assert r.seq_ranks == mn.sequence_ranks and r.new_size == mn.new_meld_size
    assert r.several[4] == (mn.may_start_second_meld and 4 in mn.natural_ranks)
    assert [k for k in range(16) if r.empty_bar[k]] == sorted(mn.empty_pile_barred)
    assert r.keep_three == mn.keep_one_three and r.rank_bars == mn.rank_bars
    assert r.partnerships == mn.partnerships == any(len(side) > 1 for side in v.sides)
    p = v.pile
    assert (r.take_pair, r.take_wild, r.take_lay_off) == (
        p.take_natural_pair, p.take_natural_and_wild, p.take_lay_off,
    )
    assert (r.blocked_at, r.blocked_finish, r.take_top) == (p.blocked_by_meld_size, p.blocked_exception, p.take_top)
    assert r.top_pickup == (v.sequences.allowed and v.sequences.top_card_pickup)
    assert (r.open_by_pile, r.top_counts) == (v.opening.pile_allowed, v.opening.top_card_counts)
    # a pile of one card is frozen for all by that card as pile.frozen_by_* say
    for card in {int(c) for c in build_deck(1, 2)}:
        k = KIND[card]
        by = (p.frozen_by_wild and k in mn.wild_ranks) or (p.frozen_by_red_three and k == RED_THREE)
        assert frozen_pile(r, (card,)) == by, card


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
