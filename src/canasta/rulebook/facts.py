"""Wording helpers that several parts of the rule book read.

The names of the wild cards, the red-3 table as a player says it, whether
going out concealed has its own bonus, and the book's title. What an option
means for play (partnerships, a foot, whether the pile can be taken or
frozen) is :func:`canasta.variant.meanings.meanings`, which the engine reads too.
"""

from __future__ import annotations

from canasta.rulebook.words import clean, rank_plural
from canasta.variant.model import Variant


def wild_names(v: Variant) -> list[str]:
    """The plural names of the wild ranks, jokers first, then 2s (jokers left out if the deck has none)."""
    names: list[str] = []
    order = sorted(v.wilds.ranks, key=lambda r: (r != "JK", r != "2", r))
    for rank in order:
        if rank == "JK" and v.deck.jokers_per_deck == 0:
            continue
        name = rank_plural(rank)
        if name not in names:
            names.append(name)
    return names



def red_table_steps(v: Variant) -> tuple[int, tuple[tuple[int, int], ...]]:
    """``threes.red_table`` read as a player says it: ``(k, rest)``.

    ``k`` red 3s or fewer score the first entry each (``k`` is 0 when the table
    does not start that way), and ``rest`` lists ``(count, points in all)`` for
    the counts after that. With ``red_table`` empty: ``(0, ())``.
    """
    table = v.threes.red_table
    k = 0
    while k < len(table) and table[k] == (k + 1) * table[0]:
        k += 1
    if k < 2:
        k = 0
    return k, tuple((i + 1, p) for i, p in enumerate(table) if i >= k)






def has_concealed(v: Variant) -> bool:
    """Whether going out concealed is recognised (with its own bonus)."""
    return v.going_out.concealed


def variant_title(v: Variant) -> str:
    """The title of the variant's documents: its title, else its name, else "Canasta variant"."""
    return clean(v.title) or clean(v.name) or "Canasta variant"
