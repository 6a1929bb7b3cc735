"""Worked examples of a rule book: melds, canastas and wild-card limits as cards and words.

Each example is checked against the engine's own rule before it is printed, so a
book never shows a meld its variant refuses; a function returns None where no
example fits the variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from canasta.rulebook.blocks import Example, Figure
from canasta.rulebook.canastas import mixed_possible
from canasta.rulebook.going_out import kind_requirements
from canasta.rulebook.melds import new_size
from canasta.rulebook.words import cap, count, join, num, ordinal, pts, rank_plural
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant

if TYPE_CHECKING:
    from canasta.engine.meld_kinds import Reading

__all__ = [
    "canasta_figure",
    "canasta_of",
    "frozen_example",
    "lays_as_meld",
    "meld_examples",
    "meld_figure",
    "of_rank",
    "out_example",
    "second_wild_example",
    "some",
    "usable_wilds",
    "wild_meld_example",
]


_SINGULAR = {"A": "an ace", "K": "a king", "Q": "a queen", "J": "a jack", "8": "an 8", "JK": "a joker"}


def some(n: int, rank: str) -> str:
    """``"a 9"``, ``"two 9s"``, ``"an ace"``, ``"three jokers"``."""
    if n == 1:
        return _SINGULAR.get(rank, f"a {rank}")
    return f"{num(n)} {rank_plural(rank)}"


def _meld_phrase(rank: str, n: int, j: int, wilds: Sequence[str]) -> str:
    parts = [some(n, rank)] if n else []
    if len(wilds) > 1 and j >= 3:
        # the figure shows which wild cards; the sentence only how many
        parts.append(f"{num(j)} wild cards")
    elif j:
        parts.append(some(j, wilds[0]))
    return join(parts)


_Pair = tuple[tuple[int, int], tuple[int, int]]


def lays_as_meld(v: Variant, cards: Sequence[str]) -> bool:
    """Whether ``cards`` (in notation) make a legal meld under ``v``, as the engine reads them: the
    kind of meld they make (:func:`canasta.engine.meld_kinds.classify`) and what that kind allows."""
    return _read_meld(v, cards) is not None


def canasta_of(v: Variant, cards: Sequence[str]) -> str | None:
    """The kind of canasta (``"natural"``, ``"mixed"``, ``"wild"``, ``"sequence"``) that ``cards``
    make under ``v`` as the engine reads them, or ``None`` where they make no legal canasta."""
    from canasta.engine import compile_rules

    got = _read_meld(v, cards)
    if got is None:
        return None
    return compile_rules(v).kind_of(got.target, got.naturals + got.wilds, got.wilds)


def _read_meld(v: Variant, cards: Sequence[str]) -> Reading | None:
    """The legal meld ``cards`` make (:func:`canasta.engine.meld_kinds.classify`), or ``None``."""
    from canasta.cards import parse_cards
    from canasta.engine import compile_rules
    from canasta.engine.meld_kinds import Reading, classify
    from canasta.engine.moves import SEQUENCE

    r = compile_rules(v)
    codes = [int(c) for c in parse_cards(" ".join(cards))]
    got = classify(r.meld_kinds, codes)
    if not isinstance(got, Reading):
        return None
    if got.target == SEQUENCE:
        return got if r.seq_kind.size_error(len(codes)) is None else None
    return got if r.valid(got.target, got.naturals, got.wilds, True) else None


def usable_wilds(v: Variant) -> list[str]:
    """The wild ranks an example may show: 2s, and jokers where the deck holds them."""
    return [w for w in ("2", "JK") if w in v.wilds.ranks and not (w == "JK" and v.deck.jokers_per_deck == 0)]


def _meld_pairs(v: Variant) -> tuple[str, list[str], list[_Pair]] | None:
    """The example rank, the wild ranks and (legal, illegal) pairs of (naturals, wilds), checked by the engine."""
    from canasta.cards import parse_rank
    from canasta.engine import compile_rules

    valid = compile_rules(v).valid
    wilds = usable_wilds(v)
    rank = next((x for x in ("9", "5", "K", "7", "Q", "6") if x not in v.wilds.ranks), None)
    if rank is None or not wilds:
        return None
    k = parse_rank(rank)
    size = new_size(v)
    least = v.melds.min_naturals
    pairs: list[_Pair] = []
    if least >= 1 and size > least and valid(k, least, size - least, True) and not valid(k, least - 1, size - least + 1, True):
        pairs.append(((least, size - least), (least - 1, size - least + 1)))
    most = v.melds.max_wilds
    if most >= 1:
        # the fewest natural cards that take the most wild cards, refused one wild card more
        for n in range(max(least, 1), least + 12):
            if n + most >= size and valid(k, n, most, True) and not valid(k, n, most + 1, True):
                pairs.append(((n, most), (n, most + 1)))
                break
    return (rank, wilds, pairs) if pairs else None


def meld_examples(v: Variant) -> str | None:
    """Legal and illegal melds side by side, each checked by the engine's own rule."""
    found = _meld_pairs(v)
    if found is None:
        return None
    rank, wilds, pairs = found
    said = [
        # the same natural cards with one wild card more: the limit on wild cards, said as one
        f"{some(good[0], rank)} may take {count(good[1], 'wild card')}, but not {num(bad[1])}."
        if good[0] == bad[0]
        else f"{_meld_phrase(rank, *good, wilds)} make a meld, but {_meld_phrase(rank, *bad, wilds)} do not."
        for good, bad in pairs
    ]
    # under the rule of five these hold only in the opening turn (later a wild card needs five naturals)
    opens = "your side opens" if meanings(v).partnerships else "you open"
    when = f"in the turn {opens}, " if v.melds.late_wild_naturals is not None else ""
    # one pair to a sentence, each saying when it holds
    again = "In that turn, " if when else ""
    return " ".join([f"For example, {when}{said[0]}", *(again + s if again else cap(s) for s in said[1:])])


_SUIT_ORDER = "SHDC"


def of_rank(rank: str, n: int, start: int = 0) -> list[str]:
    """``n`` cards of ``rank`` in notation, the suits taken in turn (jokers have none)."""
    if rank == "JK":
        return ["JK"] * n
    return [rank + _SUIT_ORDER[(start + i) % 4] for i in range(n)]


def _meld_cards(rank: str, n: int, j: int, wilds: Sequence[str]) -> tuple[str, ...]:
    """The cards :func:`_meld_phrase` names: ``n`` of ``rank`` and ``j`` wild cards."""
    cards = of_rank(rank, n)
    if len(wilds) > 1 and j >= 3:
        cards += of_rank(wilds[0], j - 1, 1) + of_rank(wilds[1], 1)
    else:
        cards += of_rank(wilds[0], j, 1)
    return tuple(cards)


def meld_figure(v: Variant) -> Figure | None:
    """The example melds of :func:`meld_examples`, as cards."""
    found = _meld_pairs(v)
    if found is None:
        return None
    rank, wilds, pairs = found
    examples: list[Example] = []
    for good, bad in pairs:
        shown, refused = _meld_cards(rank, *good, wilds), _meld_cards(rank, *bad, wilds)
        if not lays_as_meld(v, shown) or lays_as_meld(v, refused):
            continue  # the cards would not show what the counts say
        examples.append(Example(shown, cap(_meld_phrase(rank, *good, wilds)) + ": a meld", True))
        examples.append(Example(refused, cap(_meld_phrase(rank, *bad, wilds)) + ": not a meld", False))
    return Figure(tuple(examples)) if examples else None


def canasta_figure(v: Variant) -> Figure | None:
    """One canasta of each kind the variant has (natural, mixed, wild), as cards, with its bonus."""
    from canasta.cards import parse_rank
    from canasta.engine import compile_rules

    rank = next((x for x in ("K", "Q", "9", "7") if x not in v.wilds.ranks), None)
    size = v.canastas.size
    if rank is None or size < 1:
        return None
    valid = compile_rules(v).valid
    k = parse_rank(rank)
    examples = [Example(tuple(of_rank(rank, size)), f"Natural canasta: bonus {pts(v.canastas.natural_bonus)}")]
    if canasta_of(v, examples[0].cards) != "natural":
        return None
    wilds = usable_wilds(v)
    most = min(v.melds.max_wilds, size - v.melds.min_naturals)
    if mixed_possible(v) and wilds and most >= 1:
        j = next((j for j in range(min(most, 2), 0, -1) if valid(k, size - j, j, True)), 0)
        if j:
            cards = of_rank(rank, size - j) + of_rank(wilds[0], j, 1)
            if canasta_of(v, cards) == "mixed":
                examples.append(Example(tuple(cards), f"Mixed canasta: bonus {pts(v.canastas.mixed_bonus)}"))
    if v.melds.wild_melds and wilds:
        cards = of_rank(wilds[0], size - 1 if len(wilds) > 1 else size) + (of_rank(wilds[1], 1) if len(wilds) > 1 else [])
        if canasta_of(v, cards) == "wild":
            examples.append(Example(tuple(cards), f"Wild canasta: bonus {pts(v.canastas.wild_bonus)}"))
    return Figure(tuple(examples))


def second_wild_example(v: Variant) -> str | None:
    """The second wild card by meld size, with a meld the engine accepts and one it refuses."""
    from canasta.cards import parse_rank
    from canasta.engine import compile_rules

    m = v.melds
    if m.second_wild == "always" or m.max_wilds < 2 or "9" in v.wilds.ranks:
        return None
    wilds = usable_wilds(v)
    if len(wilds) < 2:
        return None
    valid, k = compile_rules(v).valid, parse_rank("9")
    if m.second_wild == "by_size":
        at = m.second_wild_size
        good, bad = (at - 2, 2), (at - 3, 2)
    else:
        need = m.second_wild_naturals
        good, bad = (need, 2), (need - 1, 2)
    if bad[0] < 1 or not valid(k, *good, False) or valid(k, *bad, False):
        return None
    first = some(1, wilds[0])
    if m.second_wild == "by_size":
        return (
            f"For example, {some(good[0], '9')} and {first} may take {some(1, wilds[1])} as "
            f"their {ordinal(at)} card, but {some(bad[0], '9')} and {first} may not take a "
            f"second wild card as their {ordinal(at - 1)}."
        )
    return (
        f"For example, {some(good[0], '9')} and {first} may take {some(1, wilds[1])}, but "
        f"{some(bad[0], '9')} and {first} may not take a second wild card until a "
        f"{ordinal(good[0])} 9 joins them."
    )


def wild_meld_example(v: Variant) -> str | None:
    """The limits of a meld of wild cards beside a meld of one rank, as the engine checks them."""
    from canasta.cards import parse_rank
    from canasta.engine import compile_rules
    from canasta.engine.moves import WILD_TARGET

    m = v.melds
    wilds = usable_wilds(v)
    if not m.wild_melds or len(wilds) < 2 or "9" in v.wilds.ranks or m.min_size != 3:
        return None
    r = compile_rules(v)
    if not r.valid(WILD_TARGET, 0, 3, True):
        return None
    top = m.wild_meld_max if m.wild_meld_max is not None else m.max_size
    grows = f"it may grow to {count(top, 'wild card')}" if top is not None else "it may grow without limit"
    text = f"For example, {some(1, wilds[1])} and {some(2, wilds[0])} make a meld of wild cards; {grows}"
    nine = parse_rank("9")
    if m.max_wilds >= 1 and any(r.valid(nine, n, m.max_wilds, False) for n in range(2, 12)):
        text += f", while a meld of 9s takes at most {count(m.max_wilds, 'wild card')}"
    if top is not None and m.max_size is None:
        text += ", however long it grows"
    return text + "."


def frozen_example(v: Variant) -> str | None:
    """A worked case of a frozen pile: the side's own meld of the top card's rank does not take it."""
    p = v.pile
    if not (p.frozen_by_wild and p.take_lay_off and p.take_natural_pair) or {"K", "2"} - set(v.wilds.ranks) != {"K"}:
        return None
    side = "your side has" if meanings(v).partnerships else "you have"
    return (
        f"For example, {side} melded kings and a king lies on a pile holding a 2. Only two "
        "natural kings from your hand take it."
    )


def out_example(v: Variant) -> str | None:
    """A worked going out: the side's canasta is made, and the last cards are melded or discarded."""
    g = v.going_out
    total, kinds = kind_requirements(v)
    if total != 1 or kinds or g.final_discard != "optional" or {"7", "9", "K"} & set(v.wilds.ranks):
        return None
    if new_size(v) != 3 or g.complete_ranks or meanings(v).has_foot or v.threes.black_out_cards is not None:
        return None
    side = "your side has" if meanings(v).partnerships else "you have"
    short = v.canastas.size - 1
    if short < new_size(v) or (v.melds.max_size is not None and v.melds.max_size < v.canastas.size):
        return None
    # the canasta that lets you out is made in the same turn: the part of the rule most often missed
    return (
        f"For example, {side} {num(short)} kings melded; you hold a king, three 7s and a 9. "
        "Add the king for the canasta, meld the 7s, discard the 9: you are out."
    )
