"""Melds on the table: building them, classifying new ones, and what a side's melds add up to.

:func:`meld_shape` decides what kind of meld a set of cards would make (or why
they make none) and :func:`meld_rule_text` names the rule a shape breaks;
:class:`MeldInfo` holds what the engine asks about a side's melds (canastas by
kind, open melds by rank), worked out once per tuple of melds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from canasta.engine.constructors import new_meld_group
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.meld_kinds import rank_reading, sequence_order
from canasta.engine.moves import (
    SEQUENCE,
    WILD_TARGET,
    Add,
    card_name,
    kind_name,
    meld_ref,
    span_name,
)
from canasta.engine.state import (
    MeldGroup,
)

if TYPE_CHECKING:
    from canasta.engine.tables import Rules


def make_meld(r: Rules, rank: int, cards: Sequence[int], suit: int = -1) -> MeldGroup:
    """The meld of target ``rank`` holding ``cards`` (``suit``: a sequence's suit, else -1)."""
    if suit >= 0:
        ordered = sorted(cards)
        if r.seq_wild:
            wild = r.is_wild
            for c in ordered:
                if wild[KIND[c]]:
                    return sequence_group(ordered, suit, wild)
        return new_meld_group(rank, tuple(ordered), len(cards), 0, suit)
    # loops, not generators under sum()/all(): these run for every meld laid
    j = 0
    wild = r.is_wild
    for c in cards:
        if wild[KIND[c]]:
            j += 1
    return new_meld_group(rank, tuple(sorted(cards)), len(cards) - j, j, -1)


def sequence_group(cards: Sequence[int], suit: int, is_wild: Sequence[bool]) -> MeldGroup:
    """The sequence of ``suit`` holding ``cards``, in the order a sequence keeps them
    (:func:`~canasta.engine.meld_kinds.sequence_order`: a wild card at the rank it stands for)."""
    ordered = sequence_order(cards, is_wild)
    wilds = sum(1 for c in ordered if is_wild[KIND[c]])
    return new_meld_group(SEQUENCE, ordered, len(ordered) - wilds, wilds, suit)


def may_lay_new(r: Rules, info: MeldInfo, rank: int) -> bool:
    """Whether the side whose melds ``info`` describes may lay a new meld of ``rank``: it has
    none of the rank, or several are allowed (``melds.duplicate_ranks: any``), or a new one
    may follow a finished one (``after_canasta``) and none of the rank is still open. A
    meld of black 3s never grows, so a side that has one lays no more black 3s unless a
    new one may follow it."""
    return rank not in info.present or r.several[rank] or (rank not in info.index and r.dup_after_complete)


def open_meld(r: Rules, melds: Sequence[MeldGroup], rank: int) -> int:
    """Index of the side's open (not closed) meld of ``rank``, or -1."""
    for i, m in enumerate(melds):
        if m.rank == rank and not r.closed(rank, m.size):
            return i
    return -1


#: The canasta counts (see :func:`canasta_counts`): canastas of all kinds, then natural, mixed, wild, sequence.
Counts = tuple[int, int, int, int, int]

#: For each open meld a card may be added to (black 3s aside), in the order of
#: :attr:`MeldInfo.open_ranks`: its rank, the add of a natural card of the
#: rank where the meld's shape takes one (``None`` where not, or for wild
#: cards), and the adds by wild kind where it takes a wild card (else ``None``).
AddRows = tuple[tuple[int, Add | None, list[Add] | None], ...]

#: Every add move, by target and kind, made once.
ADD_MOVES: Final = [[Add(target, kind) for kind in range(16)] for target in range(16)]


def add_rows(info: MeldInfo) -> AddRows:
    """The :data:`AddRows` of the side's melds: which adds each open meld's shape takes
    (:func:`add_fit`), worked out once per melds (kept in ``info.adds``, and carried
    over by :meth:`MeldInfo._derive`; most states share their side's melds with
    the state before)."""
    rows = info.adds
    if rows is None:
        r = info.rules
        melds = info.melds
        index = info.index
        out = []
        for rank in info.open_ranks:
            if rank != BLACK_THREE:
                out.append(_add_row(r, rank, melds[index[rank]]))
        rows = info.adds = tuple(out)
    return rows


def _add_row(r: Rules, rank: int, om: MeldGroup) -> tuple[int, Add | None, list[Add] | None]:
    natural, wild = add_fit(r, rank, om.naturals, om.wilds)
    row = ADD_MOVES[rank]
    return rank, row[rank] if natural and rank != WILD_TARGET else None, row if wild else None


#: Where each canasta kind is counted in :data:`Counts`, after the total at 0.
KIND_SLOT: Final = {"natural": 1, "mixed": 2, "wild": 3, "sequence": 4}


def canasta_counts(r: Rules, melds: tuple[MeldGroup, ...]) -> Counts:
    """(canastas, natural, mixed, wild, sequence) among ``melds`` (a :class:`MeldInfo`
    keeps them for its melds: :meth:`MeldInfo.canasta_counts`)."""
    return count_canastas(r, melds)


def count_canastas(r: Rules, melds: Sequence[MeldGroup]) -> Counts:
    counts = [0, 0, 0, 0, 0]
    for m in melds:
        kind = r.kind_of(m.rank, m.size, m.wilds)
        if kind is None:
            continue
        counts[0] += 1
        counts[KIND_SLOT[kind]] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def _canastas_after(r: Rules, before: Counts, old: MeldGroup | None, new: MeldGroup) -> Counts:
    """:func:`count_canastas` of melds whose counts were ``before`` where meld ``old`` became
    ``new`` (``old`` ``None``: ``new`` was added)."""
    was = None if old is None else r.kind_of(old.rank, old.size, old.wilds)
    now = r.kind_of(new.rank, new.size, new.wilds)
    if was == now:
        return before
    counts = list(before)
    if was is not None:
        counts[0] -= 1
        counts[KIND_SLOT[was]] -= 1
    if now is not None:
        counts[0] += 1
        counts[KIND_SLOT[now]] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def req_met(r: Rules, counts: Sequence[int]) -> bool:
    """Whether canasta ``counts`` (see :func:`canasta_counts`) hold the canastas going out needs."""
    for have, need in zip(counts, r.req, strict=False):  # noqa: SIM110 (a generator costs more)
        if have < need:
            return False
    return True


def req_text(r: Rules) -> str:
    tot, nat, mix, wld, seq = r.req
    parts = [f"{tot} canasta{'s' if tot != 1 else ''}"]
    kinds = [(nat, "natural"), (mix, "mixed"), (wld, "wild"), (seq, r.v.sequences.name)]
    extra = [f"{k} {name}" for k, name in kinds if k]
    if extra:
        parts.append("including " + ", ".join(extra))
    return " ".join(parts)


class MeldInfo:
    """What the engine asks of a side's melds again and again, worked out once."""

    __slots__ = (
        "_canastas", "adds", "closed_sequences", "grown", "index", "loose", "melds", "more", "open_ranks",
        "present", "rules", "sequences",
    )

    def __init__(
        self, r: Rules, melds: tuple[MeldGroup, ...], like: MeldInfo | None = None, changed: int = -1
    ) -> None:
        self.rules = r
        #: the melds these facts are of (a carried info is trusted for this very tuple only)
        self.melds = melds
        self._canastas: Counts | None = None
        #: add_rows' answer for these melds, made on first use (or carried over by _derive)
        self.adds: AddRows | None = None
        #: the natural ranks whose cards may stay stranded in hand: neither open
        #: here nor in a sequence's window (``oracle._stranded``; made on first use)
        self.loose: tuple[int, ...] | None = None
        if like is not None and self._derive(like, changed):
            return
        index: dict[int, int] = {}
        more: dict[int, list[int]] = {}
        open_ranks: list[int] = []
        present: set[int] = set()
        sequences: list[tuple[int, int, int, int]] = []
        closed: list[tuple[int, int, int, int]] = []
        grow = r.seq_grow
        grown = False
        most = r.most
        for i, m in enumerate(melds):
            rank = m.rank
            present.add(rank)
            top = most[rank]
            if top is None or len(m.cards) < top:  # not closed (Rules.closed)
                if rank == SEQUENCE:
                    # sequences are many per side, named by suit and span, not by rank
                    sequences.append((i, m.suit, m.cards[0] >> 2, m.cards[-1] >> 2))
                    continue
                if rank not in index:
                    index[rank] = i
                    open_ranks.append(rank)
                elif rank in more:
                    more[rank].append(i)
                else:
                    # a second open meld of the rank (melds.duplicate_ranks: any)
                    more[rank] = [index[rank], i]
            elif grow and rank == SEQUENCE:
                # closed, yet it may grow as part of going out (sequences.grow_when_going_out)
                closed.append((i, m.suit, m.cards[0] >> 2, m.cards[-1] >> 2))
                if top is not None and len(m.cards) > top:
                    grown = True
        #: the side's first open meld of each rank: rank -> index
        self.index = index
        #: where a rank has several open melds (melds.duplicate_ranks: any): rank ->
        #: the indices of all of them, in table order (ranks with one are not here)
        self.more = more
        #: the ranks with an open meld, each once
        self.open_ranks = tuple(open_ranks)
        self.present = present
        #: the open sequences: (index, suit, low rank, high rank)
        self.sequences = tuple(sequences)
        #: the closed sequences, as :attr:`sequences` lists the open ones; only
        #: where sequences.grow_when_going_out lets them grow (else empty)
        self.closed_sequences = tuple(closed)
        #: whether a sequence holds more cards than sequences.max_size: one grew
        #: this turn, so the turn must end by going out (only where they may grow)
        self.grown = grown

    def _derive(self, like: MeldInfo, i: int) -> bool:
        """Take what ``like`` worked out, where :attr:`melds` is ``like.melds`` with meld ``i``
        grown or (``i == len(like.melds)``) one meld added: whether that could be done.

        A meld laid or grown is the common change from state to state; where it
        stays open and is no sequence, only the new meld's rank joins the
        index. Anything else (a meld closing, a sequence, a second meld of a
        rank) is left to the full pass. The dicts and sets are shared: nothing
        changes them once made.
        """
        melds = self.melds
        old = like.melds
        if like.rules is not self.rules or not 0 <= i < len(melds):
            return False
        m = melds[i]
        rank = m.rank
        if rank == SEQUENCE:
            return False
        top = self.rules.most[rank]
        if top is not None and len(m.cards) >= top:
            return False
        if i < len(old):
            # grown: the meld was open (it is now, and melds only grow), and it
            # still is, so nothing but the melds changed
            if len(melds) != len(old) or old[i].rank != rank:
                return False
            if like.index.get(rank) != i and i not in like.more.get(rank, ()):
                return False
            self.index = like.index
            self.open_ranks = like.open_ranks
            self.present = like.present
            self.loose = like.loose
            adds = like.adds
            if adds is not None and like.index.get(rank) == i and rank != BLACK_THREE:
                # the grown meld's row again, the others as they were
                row = _add_row(self.rules, rank, m)
                self.adds = tuple(row if x[0] == rank else x for x in adds)
            else:
                self.adds = adds
            if like._canastas is not None:
                self._canastas = _canastas_after(self.rules, like._canastas, old[i], m)
        elif i == len(old) == len(melds) - 1 and rank not in like.present:
            index = dict(like.index)
            index[rank] = i
            self.index = index
            self.open_ranks = (*like.open_ranks, rank)
            present = set(like.present)
            present.add(rank)
            self.present = present
            loose = like.loose
            if loose is not None and rank in loose:
                # no generator: a meld is added often, the going-out test asks once a turn
                rest = list(loose)
                rest.remove(rank)
                loose = tuple(rest)
            self.loose = loose
            adds = like.adds
            if adds is not None and rank != BLACK_THREE:
                adds = (*adds, _add_row(self.rules, rank, m))
            self.adds = adds
            if like._canastas is not None:
                self._canastas = _canastas_after(self.rules, like._canastas, None, m)
        else:
            return False
        self.more = like.more
        self.sequences = like.sequences
        self.closed_sequences = like.closed_sequences
        self.grown = like.grown
        return True

    def open_at(self, rank: int, nth: object) -> int:
        """Index of the side's ``nth`` open meld of ``rank`` (0 for the first; see
        :func:`~canasta.engine.moves.meld_ref`), or -1 (also for a hand-built ``nth`` that is no place)."""
        if nth == 0:
            return self.index.get(rank, -1)
        ids = self.more.get(rank)
        return ids[nth] if ids is not None and type(nth) is int and 0 < nth < len(ids) else -1

    def opens(self, rank: int) -> list[int]:
        """Indices of every open meld of ``rank``, in table order."""
        ids = self.more.get(rank)
        if ids is not None:
            return ids
        first = self.index.get(rank, -1)
        return [first] if first >= 0 else []

    def canasta_counts(self) -> Counts:
        """(canastas, natural, mixed, wild, sequence) among the melds."""
        got = self._canastas
        if got is None:
            got = self._canastas = count_canastas(self.rules, self.melds)
        return got

    def __reduce__(self) -> tuple[Callable[[], None], tuple[()]]:
        # facts worked out from the melds, carried by a state (GameState._infos): a
        # pickled or copied state is rebuilt without them, and works them out again
        return _no_info, ()


def _no_info() -> None:
    return None


def add_fit(r: Rules, rank: int, naturals: int, wilds: int) -> tuple[bool, bool]:
    """Whether an open meld of ``rank`` holding ``naturals`` and ``wilds`` takes one more natural
    card, and one more wild card: the test :func:`~canasta.engine.melding.add_fits` makes of a
    candidate add, kept by shape (shapes repeat from meld to meld; a cache per side's melds
    would grow with every state kept)."""
    # Kept in the variant's Rules by one int (an lru_cache would hash the Rules
    # and three ints for every open meld of every position listed).
    key = (rank << 24) | (naturals << 12) | wilds
    cache = r.add_fits
    got = cache.get(key)
    if got is None:
        valid = r.meld_kinds[rank].valid
        got = valid(naturals + 1, wilds, False), valid(naturals, wilds + 1, False)
        if 0 <= naturals < 4096 and 0 <= wilds < 4096:  # else the key would not be one shape's alone
            if len(cache) >= 4096:
                cache.clear()
            cache[key] = got
    return got


def meld_info(r: Rules, melds: tuple[MeldGroup, ...], like: MeldInfo | None = None, changed: int = -1) -> MeldInfo:
    """The :class:`MeldInfo` of a side's ``melds``.

    ``like`` and ``changed``: the info of the melds before one step, which grew
    meld ``changed`` or added it; the new info starts from it where it can (the
    ``carried_info`` fast path, :mod:`canasta.engine.fastpaths`). Without them,
    kept by value (:func:`_facts_of`). A state carries the infos of its sides
    (:func:`canasta.engine.facts.side_info`).
    """
    if like is not None and r.fast.carried_info:
        return MeldInfo(r, melds, like, changed)
    return _facts_of(r, melds)


@lru_cache(maxsize=256)
def _facts_of(r: Rules, melds: tuple[MeldGroup, ...]) -> MeldInfo:
    """:class:`MeldInfo` of ``melds``, kept by value: the searches ask about the same melds at
    every rank and for every candidate (a meld's hash is cached, so the key costs a
    pass over the melds)."""
    return MeldInfo(r, melds)


def one_change(before: tuple[MeldGroup, ...], after: tuple[MeldGroup, ...]) -> int:
    """The index of the one meld that differs between ``before`` and ``after`` (grown, or
    added at the end), or -1 where none or more than one did; melds are compared by identity."""
    n = len(before)
    if len(after) == n + 1:
        for i in range(n):
            if before[i] is not after[i]:
                return -1
        return n
    if len(after) != n:
        return -1
    changed = -1
    for i in range(n):
        if before[i] is not after[i]:
            if changed >= 0:
                return -1
            changed = i
    return changed


def no_nth_text(r: Rules, info: MeldInfo, target: int, nth: object) -> str:
    """Why a move naming the side's ``nth`` open meld of ``target`` is refused: the side has no such meld."""
    label = r.meld_kinds[target].label(target)
    if not (type(nth) is int and nth >= 0):
        return f"{nth!r} is not a meld's place among your side's melds of {label}"
    if not r.dup_any or target == WILD_TARGET:
        return f"a side has one open meld of {label} in this variant: write '{meld_ref(target, 0)}'"
    have = len(info.opens(target))
    if not have:
        return f"your side has no open meld of {label}"
    return (
        f"your side has {have} open meld{'s' if have != 1 else ''} of {label}: "
        f"there is no {meld_ref(target, nth)}"
    )


def sequence_span_error(r: Rules, low: int, high: int, grow: bool = False) -> str | None:
    """Why no sequence may hold the ranks ``low`` to ``high``, or ``None`` (the sequence kind's
    :meth:`~canasta.engine.meld_kinds.SequenceMeld.span_error`).

    ``grow``: the sequence grows past its closing size as part of going out
    (``sequences.grow_when_going_out``), so only the window limits it.
    """
    return r.seq_kind.span_error(low, high, grow)


def find_sequence(info: MeldInfo, suit: int, low: int, high: int) -> int:
    """Index of the side's open sequence of ``suit`` from ``low`` to ``high``, or -1."""
    for i, s_, lo, hi in info.sequences:
        if s_ == suit and lo == low and hi == high:
            return i
    return -1


def find_closed_sequence(info: MeldInfo, suit: int, low: int, high: int) -> int:
    """Index of the side's closed sequence of ``suit`` from ``low`` to ``high``, or -1
    (only where ``sequences.grow_when_going_out`` lets closed sequences grow)."""
    for i, s_, lo, hi in info.closed_sequences:
        if s_ == suit and lo == low and hi == high:
            return i
    return -1


def grow_end(r: Rules, suit: int, low: int, high: int, rank: int) -> str | None:
    """Why the card of ``rank`` cannot grow the side's closed sequence ``suit`` ``low``-``high``
    past its closing size (``sequences.grow_when_going_out``), or ``None``.

    Only where the card may go: the next natural card of the suit at either
    end, inside the window. Whether the player can then go out is the oracle's
    question (:func:`canasta.engine.oracle.can_finish`).
    """
    if rank != high + 1 and rank != low - 1:
        return (
            f"{card_name(rank, suit)} does not fit the sequence {span_name(suit, low, high)}: "
            "a sequence grows one card at a time at either end"
        )
    return sequence_span_error(r, min(low, rank), max(high, rank), True)


def sequence_end(
    r: Rules, info: MeldInfo, melds: Sequence[MeldGroup], suit: int, low: int, high: int, rank: int
) -> str | None:
    """Why the card of ``rank`` cannot go on the side's sequence ``suit`` ``low``-``high``, or ``None``."""
    if find_sequence(info, suit, low, high) < 0:
        closed = any(
            m.suit == suit and m.low == low and m.high == high for m in melds if m.rank == SEQUENCE
        )
        if closed:
            return f"your side's sequence {span_name(suit, low, high)} is complete and closed"
        return f"your side has no sequence {span_name(suit, low, high)}"
    if rank != high + 1 and rank != low - 1:
        return (
            f"{card_name(rank, suit)} does not fit the sequence {span_name(suit, low, high)}: "
            "a sequence grows one card at a time at either end"
        )
    return sequence_span_error(r, min(low, rank), max(high, rank))


def suited_codes(r: Rules, kind: int, n: int, suits: Sequence[int], example: str) -> list[int] | str | None:
    """The exact natural cards of ``kind`` that a move names by ``suits`` (``n`` of them), or
    why they are named wrongly; ``None`` where suits do not matter for the kind.

    ``example``: the move written right, for the message.
    """
    if not r.suited[kind]:
        if suits:
            return f"suits do not matter for {kind_name(kind)}s in this variant: write '{example}'"
        return None
    if len(suits) != n or any(not (type(x) is int and 0 <= x <= 3) for x in suits):
        return (
            f"suits matter in this variant (sequences): name the suit of each natural "
            f"{kind_name(kind)}, e.g. '{example}'"
        )
    return [kind * 4 + x for x in suits]


def holds(hand: Sequence[int], codes: Sequence[int]) -> bool:
    """Whether ``hand`` holds every card of ``codes`` (as many of each as named)."""
    if len(codes) == 1:
        return codes[0] in hand
    rest = list(hand)
    for code in codes:
        if code not in rest:
            return False
        rest.remove(code)
    return True


@lru_cache(maxsize=4096)
def kind_needs(kinds: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """``(kind, how many)`` for each distinct kind in ``kinds``."""
    return tuple((k, kinds.count(k)) for k in sorted(set(kinds)))


@lru_cache(maxsize=4096)
def meld_shape(r: Rules, kinds_t: tuple[int, ...]) -> int | str:
    """The target of a new meld of ``kinds_t`` (0 for wild cards), or why no such meld is legal.

    Only what the cards themselves decide; the table and the hand are checked by
    the caller. Which kind of meld the cards would make is decided by
    :func:`~canasta.engine.meld_kinds.rank_reading`, what that kind allows by
    the kind (:mod:`canasta.engine.meld_kinds`).
    """
    if not kinds_t or any(not isinstance(k, int) or not 1 <= k <= 15 for k in kinds_t):
        return f"'meld {' '.join(map(str, kinds_t))}' does not name cards"
    got = rank_reading(r.meld_kinds, kinds_t)
    if isinstance(got, str):
        return got
    rank = got.target
    error = r.meld_kinds[rank].new_meld_error(rank, got.naturals, got.wilds)
    return rank if error is None else error


def meld_rule_text(r: Rules, rank: int, n: int, j: int) -> str:
    """The rule that a meld of ``rank`` with ``n`` naturals and ``j`` wilds breaks."""
    return r.meld_kinds[rank].why_not(n, j)
