"""Card kinds: the engine's view of a card, and counting hands by kind.

A card code's kind is its rank, except that red 3s are kind 1 (``RED_THREE``)
and black 3s kind 3 (:data:`BLACK_THREE`). Hands are counted by kind because
the rules treat cards of one kind alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from canasta.engine.moves import (
    RED_THREE,
)

BLACK_THREE: Final = 3


# kind of each card code: its rank, except red 3s (kind 1)
KIND: Final = [c >> 2 for c in range(64)]
KIND[13] = RED_THREE
KIND[14] = RED_THREE


@lru_cache(maxsize=4096)
def hand_counts(hand: tuple[int, ...]) -> tuple[int, ...]:
    """How many cards of each kind (index = kind) ``hand`` holds (cached)."""
    return count_kinds(hand)


def count_kinds(hand: tuple[int, ...]) -> tuple[int, ...]:
    """How many cards of each kind ``hand`` holds (uncached: most hands are new)."""
    counts = [0] * 16
    kind = KIND
    for card in hand:
        # not counts[kind[card]] += 1: slower interpreted, and generic when compiled
        k = kind[card]
        counts[k] = counts[k] + 1
    return tuple(counts)


def remove_kinds(hand: Sequence[int], kinds: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """Remove one card of each kind in ``kinds`` from ``hand`` (lowest codes first)."""
    rest = list(hand)
    taken = []
    for k in kinds:
        for i, c in enumerate(rest):
            if KIND[c] == k:
                taken.append(rest.pop(i))
                break
        else:
            return None
    return rest, taken


@lru_cache(maxsize=4096)
def suit_choices(n: int, held: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``n`` suits (sorted) drawn from ``held[suit]`` cards of each suit."""
    out: list[tuple[int, ...]] = []

    def grow(suit: int, left: int, acc: tuple[int, ...]) -> None:
        if left == 0:
            out.append(acc)
            return
        if suit == 4:
            return
        for use in range(min(left, held[suit]), -1, -1):
            grow(suit + 1, left - use, acc + (suit,) * use)

    grow(0, n, ())
    return tuple(out)
