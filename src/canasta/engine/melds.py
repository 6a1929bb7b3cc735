"""Melds on the table: building them, classifying new ones, and what a side's melds add up to.

:func:`meld_shape` decides what kind of meld a set of cards would make (or why
they make none) and :func:`meld_rule_text` names the rule a shape breaks;
:class:`MeldInfo` holds what the engine asks about a side's melds (canastas by
kind, open melds by rank), worked out once per tuple of melds.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from canasta.engine.kinds import KIND
from canasta.engine.moves import (
    RED_THREE,
    WILD_TARGET,
)
from canasta.engine.state import (
    MeldGroup,
)

if TYPE_CHECKING:
    from canasta.engine.tables import Rules


def make_meld(r: Rules, rank: int, cards: Sequence[int]) -> MeldGroup:
    j = sum(1 for c in cards if r.is_wild[KIND[c]])
    return MeldGroup(rank, tuple(sorted(cards)), len(cards) - j, j)


def open_meld(r: Rules, melds: Sequence[MeldGroup], rank: int) -> int:
    """Index of the side's open (not closed) meld of ``rank``, or -1."""
    for i, m in enumerate(melds):
        if m.rank == rank and not r.closed(rank, m.size):
            return i
    return -1


def canasta_counts(r: Rules, melds: tuple[MeldGroup, ...]) -> tuple[int, int, int, int]:
    """(canastas, natural, mixed, wild) among ``melds`` (worked out once per melds tuple)."""
    return meld_info(r, melds).canasta_counts()


def count_canastas(r: Rules, melds: Sequence[MeldGroup]) -> tuple[int, int, int, int]:
    tot = nat = mix = wld = 0
    for m in melds:
        kind = r.kind_of(m.rank, m.size, m.wilds)
        if kind is None:
            continue
        tot += 1
        if kind == "natural":
            nat += 1
        elif kind == "mixed":
            mix += 1
        else:
            wld += 1
    return tot, nat, mix, wld


def req_met(r: Rules, counts: tuple[int, int, int, int]) -> bool:
    return all(have >= need for have, need in zip(counts, r.req, strict=False))


def req_text(r: Rules) -> str:
    tot, nat, mix, wld = r.req
    parts = [f"{tot} canasta{'s' if tot != 1 else ''}"]
    kinds = [(nat, "natural"), (mix, "mixed"), (wld, "wild")]
    extra = [f"{k} {name}" for k, name in kinds if k]
    if extra:
        parts.append("including " + ", ".join(extra))
    return " ".join(parts)


class MeldInfo:
    """What the engine asks of a side's melds again and again, worked out once."""

    __slots__ = ("_canastas", "index", "melds", "open_ranks", "present", "rules")

    def __init__(self, r: Rules, melds: tuple[MeldGroup, ...]) -> None:
        self.rules = r
        self.melds = melds  # held, so that the tuple's id stays its own while cached
        index: dict[int, int] = {}
        open_ranks: list[int] = []
        present: set[int] = set()
        most = r.most
        for i, m in enumerate(melds):
            rank = m.rank
            present.add(rank)
            top = most[rank]
            if top is None or len(m.cards) < top:  # not closed (Rules.closed)
                open_ranks.append(rank)
                if rank not in index:
                    index[rank] = i
        self.index = index
        self.open_ranks = tuple(open_ranks)
        self.present = present
        self._canastas: tuple[int, int, int, int] | None = None

    def canasta_counts(self) -> tuple[int, int, int, int]:
        """(canastas, natural, mixed, wild) among the melds."""
        got = self._canastas
        if got is None:
            got = self._canastas = count_canastas(self.rules, self.melds)
        return got


_MELD_INFO: dict[int, MeldInfo] = {}


def meld_info(r: Rules, melds: tuple[MeldGroup, ...]) -> MeldInfo:
    # Keyed by identity: states share their melds tuple until it changes, and
    # hashing it would hash every meld. The entry holds the tuple, so its id
    # cannot be reused by another object while the entry exists.
    info = _MELD_INFO.get(id(melds))
    if info is not None and info.melds is melds and info.rules is r:
        return info
    if len(_MELD_INFO) >= 8192:
        _MELD_INFO.clear()
    info = _MELD_INFO[id(melds)] = MeldInfo(r, melds)
    return info


@lru_cache(maxsize=4096)
def kind_needs(kinds: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """``(kind, how many)`` for each distinct kind in ``kinds``."""
    return tuple((k, kinds.count(k)) for k in sorted(set(kinds)))


@lru_cache(maxsize=4096)
def meld_shape(r: Rules, kinds_t: tuple[int, ...]) -> int | str:
    """The target of a new meld of ``kinds_t`` (0 for wild cards), or why no such meld is legal.

    Only what the cards themselves decide; the table and the hand are checked by
    the caller. Which kind of meld the cards would make is decided here; what
    that kind allows, by the kind (:mod:`canasta.engine.meld_kinds`).
    """
    kinds = list(kinds_t)
    if not kinds or any(not isinstance(k, int) or not 1 <= k <= 15 for k in kinds):
        return f"'meld {' '.join(map(str, kinds))}' does not name cards"
    naturals = [k for k in kinds if not r.is_wild[k]]
    n, j = len(naturals), len(kinds) - len(naturals)
    if RED_THREE in kinds:
        return "red 3s are laid on their own, never melded"
    if naturals:
        rank = naturals[0]
        if any(k != rank for k in naturals):
            return "a meld holds natural cards of one rank only"
    else:
        rank = WILD_TARGET
    error = r.meld_kinds[rank].new_meld_error(rank, n, j)
    return rank if error is None else error


def meld_rule_text(r: Rules, rank: int, n: int, j: int) -> str:
    """The rule that a meld of ``rank`` with ``n`` naturals and ``j`` wilds breaks."""
    return r.meld_kinds[rank].why_not(n, j)
