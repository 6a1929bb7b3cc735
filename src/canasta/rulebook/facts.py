"""Facts about a variant that several parts of the rule book read.

Whether the seats form partnerships, whether there is a foot, whether the discard
pile can be taken or frozen, the names of the wild cards and the book's title.
"""

from __future__ import annotations

from canasta.rulebook.words import clean, rank_plural
from canasta.variant.model import Variant


def has_partners(v: Variant) -> bool:
    """Whether the seats form partnerships (two or more players per side)."""
    return any(len(side) > 1 for side in v.sides)


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


def red_threes(v: Variant) -> int:
    """How many red 3s the decks hold: two per deck."""
    return 2 * v.deck.decks


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


def has_foot(v: Variant) -> bool:
    """Whether each player is dealt a foot."""
    return v.deal.foot_size > 0


def pile_takeable(v: Variant) -> bool:
    """Whether the discard pile can ever be taken: some way to take it, and no natural card stops it."""
    p = v.pile
    return (
        "natural" not in p.stop_cards
        and (p.take_natural_pair or p.take_natural_and_wild or p.take_lay_off)
    )


def can_freeze(v: Variant) -> bool:
    """Whether anything can freeze the discard pile."""
    p = v.pile
    return p.frozen_by_wild or p.frozen_by_red_three or p.frozen_until_opened


def always_frozen(v: Variant) -> bool:
    """Whether the pile is taken only as a frozen pile is: with a natural pair from the hand, whatever it holds.

    Only where something can freeze it at all (else the pile is simply never frozen)
    and no other way of taking it exists.
    """
    p = v.pile
    return (
        can_freeze(v) and p.take_natural_pair and not p.take_lay_off
        and not p.take_natural_and_wild and p.blocked_by_meld_size is None
    )


def has_concealed(v: Variant) -> bool:
    """Whether going out concealed is recognised (with its own bonus)."""
    return v.going_out.concealed


def variant_title(v: Variant) -> str:
    """The title of the variant's documents: its title, else its name, else "Canasta variant"."""
    return clean(v.title) or clean(v.name) or "Canasta variant"
