"""Rule-book sentences of canastas: their size, their kinds and bonuses.

Split from :mod:`canasta.rulebook.melds`; it imports
:mod:`canasta.rulebook.opening` first, so that the registry keeps the order of
the book (melds, sequences, the first meld, canastas).
"""

from __future__ import annotations

from collections.abc import Callable

import canasta.rulebook.opening  # noqa: F401
from canasta.rulebook.melds import a_an, sequence_canasta_possible, sequence_name
from canasta.rulebook.registry import S_CANASTAS, rule
from canasta.rulebook.words import cap, clean, count, join, num, points, pts, rank_plural
from canasta.variant.model import Variant

# -- canastas


def _say_canasta_size(v: Variant) -> str:
    n = v.canastas.size
    top = v.melds.max_size
    if top is not None and top < n:
        return f"A canasta would take {count(n, 'card')}, more than a meld may hold, so no meld can become a canasta."
    more = "" if top == n else " or more"
    return f"A meld of {count(n, 'card')}{more} is a canasta."


rule(
    "canastas.size", S_CANASTAS, _say_canasta_size,
    instead=lambda v, o: f"A canasta takes {count(v.canastas.size, 'card')} instead of {num(o.canastas.size)}.",
)


def mixed_possible(v: Variant) -> bool:
    """Whether a meld may hold a wild card, so that mixed canastas exist."""
    return v.melds.max_wilds > 0


def _span(low: int, high: int) -> str:
    """``"five"``, ``"five or six"``, ``"four to six"``."""
    if high <= low:
        return num(low)
    if high == low + 1:
        return f"{num(low)} or {num(high)}"
    return f"{num(low)} to {num(high)}"


def say_kinds(v: Variant) -> str:
    """The kinds of canasta the variant has, as one sentence (the canastas section states it, no option does)."""
    parts = ["a natural (clean) canasta has no wild card"]
    # "; " between the kinds: each kind says "a ... canasta has ...", and commas alone would run them together
    if mixed_possible(v):
        n = v.canastas.size
        most = min(v.melds.max_wilds, n - v.melds.min_naturals)
        if v.melds.max_size == n and most >= 1:
            parts.append(
                f"a mixed (dirty) canasta has {_span(n - most, n - 1)} natural cards and "
                f"{_span(1, most)} wild {'card' if most == 1 else 'cards'}"
            )
        else:
            parts.append("a mixed (dirty) one has some")
    if v.melds.wild_melds:
        parts.append(f"a wild canasta is {count(v.canastas.size, 'wild card')}")
    return cap("; ".join(parts)) + "."


def _say_bonuses(v: Variant) -> str:
    c = v.canastas
    parts = [f"a natural canasta scores {points(c.natural_bonus)}"]
    if mixed_possible(v):
        parts.append(f"a mixed one {points(c.mixed_bonus)}")
    if v.melds.wild_melds:
        parts.append(f"{a_an(wild_canasta_name(v))} {points(c.wild_bonus)}")
    return cap(join(parts)) + "."


def _bonus_instead(kind: str) -> Callable[[Variant, Variant], str]:
    def instead(v: Variant, o: Variant) -> str:
        new = getattr(v.canastas, f"{kind}_bonus")
        old = getattr(o.canastas, f"{kind}_bonus")
        noun = wild_canasta_name(v) if kind == "wild" else f"{kind} canasta"
        return f"{cap(a_an(noun))} scores {points(new)} instead of {pts(old)}."

    return instead


def wild_canasta_name(v: Variant) -> str:
    """What the rules call a wild canasta (``canastas.wild_name``), on one line; ``"wild canasta"`` if blank."""
    return clean(v.canastas.wild_name) or "wild canasta"


def _say_wild_name(v: Variant) -> str:
    return f"A wild canasta is called {a_an(wild_canasta_name(v))}."


def _wild_name_instead(v: Variant, o: Variant) -> str:
    if not clean(o.canastas.wild_name):
        return _say_wild_name(v)
    if not clean(v.canastas.wild_name):
        return f"A wild canasta has no name of its own (not {a_an(wild_canasta_name(o))})."
    return f"A wild canasta is called {a_an(wild_canasta_name(v))} instead of {a_an(wild_canasta_name(o))}."


# registered before the bonuses: the book names the wild canasta before it scores it
rule(
    "canastas.wild_name", S_CANASTAS, _say_wild_name,
    relevant=lambda v: v.melds.wild_melds,
    shown=lambda v: v.melds.wild_melds and bool(clean(v.canastas.wild_name)),
    instead=_wild_name_instead,
)


rule("canastas.natural_bonus", S_CANASTAS, _say_bonuses, instead=_bonus_instead("natural"))
rule(
    "canastas.mixed_bonus", S_CANASTAS, _say_bonuses,
    relevant=mixed_possible, instead=_bonus_instead("mixed"),
)
rule(
    "canastas.wild_bonus", S_CANASTAS, _say_bonuses,
    relevant=lambda v: v.melds.wild_melds, instead=_bonus_instead("wild"),
)


def _say_wild_mix_bonuses(v: Variant) -> str:
    rows = v.canastas.wild_mix_bonuses
    if not rows:
        return "A wild canasta scores the same bonus whatever wild cards it holds."
    kept: dict[tuple[str, int], int] = {}
    for b in rows:  # the last entry for a mix wins, as the scorer reads them
        kept[(b.rank, b.count)] = b.bonus
    parts = [
        f"one holding exactly {num(n)} {rank_plural(r) if n != 1 else _one(r)}{' scores' if i == 0 else ''} "
        f"{points(bonus)}"
        for i, ((r, n), bonus) in enumerate(kept.items())
    ]
    return f"Instead of the usual bonus of a wild canasta, {join(parts)}."


def _one(rank: str) -> str:
    """A single card of a wild rank: ``"joker"``, ``"2"``."""
    return "joker" if rank == "JK" else rank


rule(
    "canastas.wild_mix_bonuses canastas.wild_mix_bonuses.rank canastas.wild_mix_bonuses.count "
    "canastas.wild_mix_bonuses.bonus",
    S_CANASTAS, _say_wild_mix_bonuses,
    relevant=lambda v: v.melds.wild_melds, shown=lambda v: v.melds.wild_melds and bool(v.canastas.wild_mix_bonuses),
)


def effective_rank_bonuses(v: Variant) -> list[tuple[str, str, int]]:
    """Rank bonuses the scorer can apply: natural or mixed canastas of meldable ranks."""
    wild = set(v.wilds.ranks)
    out: dict[tuple[str, str], int] = {}
    for b in v.canastas.rank_bonuses:
        if b.kind == "wild" or b.rank in wild or b.rank in ("3", "JK"):
            continue
        if b.kind == "mixed" and not mixed_possible(v):
            continue
        out[(b.rank, b.kind)] = b.bonus
    return [(rank, kind, bonus) for (rank, kind), bonus in out.items()]


def _say_rank_bonuses(v: Variant) -> str:
    rows = effective_rank_bonuses(v)
    if not rows:
        return "A canasta scores the same bonus whatever its rank."
    parts = [
        f"a {kind} canasta of {rank_plural(rank)} scores {points(bonus)}" for rank, kind, bonus in rows
    ]
    return f"Instead of the usual bonus, {join(parts)}."


rule(
    "canastas.rank_bonuses canastas.rank_bonuses.rank canastas.rank_bonuses.kind "
    "canastas.rank_bonuses.bonus",
    S_CANASTAS, _say_rank_bonuses, shown=lambda v: bool(effective_rank_bonuses(v)),
)


def _say_sequence_bonus(v: Variant) -> str:
    name = sequence_name(v)
    return (
        f"{cap(a_an(name))} counts as a canasta wherever the rules count canastas, and scores "
        f"a bonus of {points(v.sequences.bonus)} besides the values of its cards."
    )


rule(
    "sequences.bonus", S_CANASTAS, _say_sequence_bonus, relevant=sequence_canasta_possible,
    instead=lambda v, o: (
        f"{cap(a_an(sequence_name(v)))} scores {points(v.sequences.bonus)} instead of {pts(o.sequences.bonus)}."
    ),
)
