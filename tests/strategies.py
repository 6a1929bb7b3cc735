"""Hypothesis strategies shared by the tests.

Variant strategies are generated from the model (attrs fields, their types
and metadata bounds), so a new option is covered without touching this file.
Values stay inside the profile schema but need not make a playable game:
cross-option contradictions are the conflict checker's business.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, get_args, get_origin

import attrs
from hypothesis import strategies as st

from canasta.cards import RANK_NAMES
from canasta.variant.model import (
    MAX_WILD_MIXES,
    Assumption,
    SpecialHand,
    SpecialRules,
    Variant,
    option_paths,
    wild_mixes,
)
from canasta.variant.options import ITEM_META

# Unbounded options get a generous but finite range, so values stay readable.
_SPAN = 100_000


# Characters no string option holds: see canasta.variant.options.string_problem.
_NOT_TEXT = "".join(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0xFEFF))


def texts(min_size: int = 0) -> st.SearchStrategy[str]:
    """Any text a profile may hold: all of Unicode but surrogates (not UTF-8 encodable),
    control characters and the invisible characters that reorder text."""
    chars = st.characters(exclude_categories=["Cs", "Cc", "Zl", "Zp"], exclude_characters=_NOT_TEXT)
    return st.text(chars, min_size=min_size, max_size=40)


def ranks() -> st.SearchStrategy[str]:
    """A canonical rank name: '2' … '10', 'J', 'Q', 'K', 'A', 'JK'."""
    return st.sampled_from(sorted(RANK_NAMES.values()))


def _ints(meta: typing.Mapping[str, Any]) -> st.SearchStrategy[int]:
    low = meta.get("minimum")
    high = meta.get("maximum")
    if low is None:
        low = -_SPAN if high is None else high - _SPAN
    if high is None:
        high = max(low, 0) + _SPAN
    return st.integers(low, high)


def _for_type(tp: Any, meta: typing.Mapping[str, Any], rank: bool) -> st.SearchStrategy[Any]:
    args = get_args(tp)
    if get_origin(tp) in (typing.Union, types.UnionType):
        inner = next(a for a in args if a is not type(None))
        return st.none() | _for_type(inner, meta, rank)
    if attrs.has(tp):
        return _for_class(tp)
    if get_origin(tp) is tuple:
        item = args[0]
        if rank:
            return st.lists(ranks(), unique=True, max_size=4).map(tuple)
        if get_origin(item) is Literal:
            return st.lists(st.sampled_from(get_args(item)), unique=True).map(tuple)
        item_meta = ITEM_META if item is int else meta
        return st.lists(_for_type(item, item_meta, rank), max_size=5).map(tuple)
    if get_origin(tp) is Literal:
        return st.sampled_from(args)
    if tp is bool:
        return st.booleans()
    if tp is int:
        return _ints(meta)
    if tp is str:
        return ranks() if rank else texts()
    raise TypeError(f"no strategy for option type {tp!r}")


def _for_class(cls: type) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls)
    kwargs = {
        f.name: _for_type(hints[f.name], f.metadata, bool(f.metadata.get("rank")))
        for f in attrs.fields(cls)
    }
    return st.builds(cls, **kwargs)


def assumptions() -> st.SearchStrategy[tuple[Assumption, ...]]:
    """A valid ``Variant.assumed``: distinct real option paths, sorted, non-empty sources."""
    entries = st.dictionaries(st.sampled_from(option_paths()), texts(min_size=1), max_size=6)
    return entries.map(lambda d: tuple(Assumption(path=p, source=s) for p, s in sorted(d.items())))


def variants() -> st.SearchStrategy[Variant]:
    """A complete Variant whose every value lies within the profile schema."""
    hints = typing.get_type_hints(Variant)
    kwargs: dict[str, st.SearchStrategy[Any]] = {
        f.name: _for_type(hints[f.name], f.metadata, False) for f in attrs.fields(Variant)
    }
    kwargs["name"] = texts(min_size=1)
    kwargs["assumed"] = assumptions()
    kwargs["special"] = special_rules()
    return st.builds(_variant, **kwargs)


@st.composite
def _special_hand(draw: st.DrawFn, name: str) -> SpecialHand:
    groups = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=8)))
    low = draw(st.integers(0, len(groups)))
    high = draw(st.integers(low, len(groups)))
    sizes = tuple(draw(st.lists(st.sampled_from(groups), unique=True, max_size=2)))
    return SpecialHand(
        name=name, title=draw(texts()), groups=groups, wild_groups=(low, high), wild_sizes=sizes,
        wilds_match=draw(st.booleans()), distinct=draw(st.booleans()),
        # no ranks: any rank may be wild in a generated variant, and a wild rank is refused
        value=draw(st.integers(0, 100_000)), wins_game=draw(st.booleans()),
    )


def special_rules() -> st.SearchStrategy[SpecialRules]:
    """A valid ``special`` area: special hands with distinct well-formed names and groups they can hold."""
    names = st.lists(st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8})?", fullmatch=True), unique=True, max_size=3)
    return names.flatmap(
        lambda ns: st.tuples(*(_special_hand(n) for n in ns)).map(lambda hs: SpecialRules(hands=tuple(hs)))
    )


def _variant(**kwargs: Any) -> Variant:
    """``Variant(**kwargs)``, with new melds made small when the wild ranks would mix too
    many ways (the model refuses that; see canasta.variant.model.wild_mixes), and joined
    sequences off where a sequence may hold a wild card (refused together too)."""
    m = kwargs["melds"]
    rules = types.SimpleNamespace(melds=m, wilds=kwargs["wilds"], deck=kwargs["deck"])
    if wild_mixes(rules) > MAX_WILD_MIXES:  # type: ignore[arg-type]
        kwargs["melds"] = attrs.evolve(
            m, min_size=min(m.min_size, 7), min_naturals=min(m.min_naturals, 7)
        )
    sq = kwargs["sequences"]
    if sq.wild_in_gap and sq.join:  # refused together (canasta.variant.model)
        sq = kwargs["sequences"] = attrs.evolve(sq, join=False)
    if sq.allowed and sq.max_size is not None and sq.max_size < sq.min_size:  # refused too
        kwargs["sequences"] = attrs.evolve(sq, max_size=sq.min_size)
    return Variant(**kwargs)


# -- engine playouts ------------------------------------------------------------

#: Longest prefix of explicit choice indices a playout strategy draws; later moves
#: are chosen by a generator seeded from the drawn seed.
PLAYOUT_PREFIX = 60


def game_seeds() -> st.SearchStrategy[int]:
    """A seed for :func:`canasta.new_game`."""
    return st.integers(min_value=0, max_value=2**63 - 1)


def playouts() -> st.SearchStrategy[tuple[int, tuple[int, ...]]]:
    """A game seed and a sequence of move choices (indices, taken modulo the legal moves).

    The first moves of a hand follow the drawn indices (so hypothesis can shrink
    them); once they run out, choices come from a generator seeded by the seed.
    """
    choices = st.lists(st.integers(min_value=0, max_value=2**16), max_size=PLAYOUT_PREFIX)
    return st.tuples(game_seeds(), choices.map(tuple))
