"""How many mixes of wild cards the new melds of a variant may take, and the bound on it.

The engine lists every new meld a hand can lay, so a variant with several wild
ranks and large new melds would make that list long; the model refuses such a
variant (:class:`~canasta.variant.model.Variant` calls :func:`check_wild_mixes`).
Kept apart from the model, which re-exports both names.
"""

from __future__ import annotations

import math
from typing import Protocol

from canasta.errors import VariantError

__all__ = ["MAX_WILD_MIXES", "MixRules", "check_wild_mixes", "wild_mixes"]


# What the count reads of a variant, as protocols: this module sits below the
# model (which imports it), so it names no model class, not even for typing.


class _Melds(Protocol):
    @property
    def min_size(self) -> int: ...
    @property
    def min_naturals(self) -> int: ...
    @property
    def wild_melds(self) -> bool: ...


class _Wilds(Protocol):
    @property
    def ranks(self) -> tuple[str, ...]: ...


class _Deck(Protocol):
    @property
    def jokers_per_deck(self) -> int: ...


class MixRules(Protocol):
    """The parts of a :class:`~canasta.variant.model.Variant` the count of wild mixes reads."""

    @property
    def melds(self) -> _Melds:
        """The meld rules (``melds.min_size``, ``min_naturals``, ``wild_melds``)."""

    @property
    def wilds(self) -> _Wilds:
        """The wild ranks."""

    @property
    def deck(self) -> _Deck:
        """The decks (whether they hold jokers)."""

#: Most mixes of wild cards a new meld may take (see :func:`wild_mixes`): the
#: engine lists every new meld a hand can lay, so several wild ranks together
#: with large new melds would make that list long. 500 allows new melds of up
#: to 30 cards with 2 wild ranks, 13 with 3 and 9 with 4; a turn of 12 decks
#: and 8 players then lists its moves in well under a second.
MAX_WILD_MIXES = 500


def wild_mixes(variant: MixRules) -> int:
    """How many mixes of wild cards the new melds of one hand may take, at most.

    A new meld of a natural rank takes from 0 up to ``S - N`` wild cards (``S``
    the size of a new meld, the larger of ``melds.min_size`` and
    ``melds.min_naturals``, and ``N`` the naturals it needs), a meld of wild
    cards only (with ``melds.wild_melds``) exactly ``S``; each may mix the
    ``W`` wild ranks that have cards in the decks. That is
    ``C(S - N + W, W)`` and ``C(S + W - 1, W - 1)`` mixes: the engine lists
    them all when it lists the melds a hand can lay.
    """
    m = variant.melds
    ranks = set(variant.wilds.ranks)
    if variant.deck.jokers_per_deck == 0:
        ranks.discard("JK")
    w = len(ranks)
    size = max(m.min_size, m.min_naturals)
    naturals_exist = len(set(variant.wilds.ranks) - {"JK", "3"}) < 12
    total = math.comb(size - max(m.min_naturals, 1) + w, w) if naturals_exist else 0
    if m.wild_melds and w:
        total += math.comb(size + w - 1, w - 1)
    return total


def check_wild_mixes(variant: MixRules) -> None:
    """Refuse a variant whose new melds could take more than :data:`MAX_WILD_MIXES` mixes of wild cards."""
    mixes = wild_mixes(variant)
    if mixes <= MAX_WILD_MIXES:
        return
    m = variant.melds
    which = "min_naturals" if m.min_naturals > m.min_size else "min_size"
    size = max(m.min_size, m.min_naturals)
    raise VariantError(
        f"melds.{which}: expected new melds small enough for the wild ranks, got new melds of "
        f"{size} cards with {len(variant.wilds.ranks)} wild ranks, which may mix their wild cards in "
        f"{mixes} ways, more than the {MAX_WILD_MIXES} the engine lists; make fewer ranks wild "
        "(wilds.ranks) or new melds smaller"
    )
