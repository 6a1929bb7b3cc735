"""The searches behind the turn oracle: what a hand can still add to a side's melds.

:func:`outcomes` is a small dynamic programme over ranks (and
:func:`~canasta.engine.sequence_search.sequence_outcomes` the same over exact
cards, where the variant has sequences, built on the steps of this module): for each way to place the hand's natural cards on the side's melds
or new ones, and its wild cards, the cards left, whether going out's canastas
are met, and the most points added. :mod:`canasta.engine.oracle` asks them
whether a turn can still be finished.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from canasta.engine.facts import (
    OPEN_ANY_CANASTA,
    OPEN_NATURAL_CANASTA,
    OPEN_NO_CANASTA,
    clean_naturals,
    closed_short,
    wild_meld_locks,
)
from canasta.engine.kinds import BLACK_THREE
from canasta.engine.melds import canasta_counts, may_lay_new, meld_info, open_meld
from canasta.engine.moves import (
    WILD_TARGET,
)
from canasta.engine.state import (
    MeldGroup,
)

if TYPE_CHECKING:
    from canasta.engine.tables import Rules

__all__ = [
    "NOTHING",
    "NO_CLEAN",
    "Outcomes",
    "black_and_stray",
    "canasta_caps",
    "clean_options",
    "close_plans",
    "options_at",
    "outcomes",
    "wild_prefix",
]


#: In :func:`clean_options`: no meld of the plan is a candidate for the clean meld.
NO_CLEAN: Final = 99
#: :data:`NO_CLEAN` with the canastas owed to its wild cards (none).
_NOT_CLEAN: Final = (NO_CLEAN, 0, 0)


@lru_cache(maxsize=65536)
def _rank_options(
    r: Rules, rank: int, c: int, n0: int, j0: int, has_open: bool, may_new: bool, wmax: int,
    complete: bool = False, late: int = 0,
) -> tuple[tuple[int, int, int, int, int], ...]:
    """Ways to place up to ``c`` naturals of ``rank`` and up to ``wmax`` wilds.

    Returns tuples ``(naturals used, wilds used, d_total, d_natural, d_mixed)``
    where the d_ values are the changes in the side's canasta counts. With
    ``complete``, only the ways that leave every meld of the rank a canasta
    (``going_out.complete_ranks``: going out needs them so). ``late``: the
    naturals a meld needs before a wild card joins it (``melds.late_wild_naturals``
    after the opening turn; 0 for none).
    """
    return tuple(sorted(
        {o[:5] for o in clean_options(r, rank, c, n0, j0, has_open, may_new, wmax, complete, 0, -1, late)}
    ))


@lru_cache(maxsize=65536)
def clean_options(
    r: Rules, rank: int, c: int, n0: int, j0: int, has_open: bool, may_new: bool, wmax: int,
    complete: bool = False, clean: int = 0, n0_clean: int = -1, late: int = 0,
) -> tuple[tuple[int, int, int, int, int, int, int, int], ...]:
    """:func:`_rank_options`, each way with three more numbers for ``opening.natural_meld``.

    ``clean`` is the naturals that option asks of the clean meld (0: no such
    rule); the sixth number is the fewest wild cards a meld of the way ends
    with among those that hold ``clean`` naturals laid without a wild card
    (:data:`NO_CLEAN` if none does). The open meld is such a meld only if
    ``n0_clean >= 0``: its naturals that count (no wild card yet; the pile's
    top card not counted). The seventh and eighth are the canastas and the
    natural canastas that meld owes to those wild cards: they join it only once
    the side has opened, so an opening that asks a canasta cannot count them.
    """
    dup = r.dup_after_complete
    out: set[tuple[int, int, int, int, int, int, int, int]] = set()
    # a meld with a wild card that is an ordinary meld need not end a canasta (Rules.mixed_ordinary)
    loose = r.mixed_ordinary[rank]
    if not (complete and has_open and r.kind_of(rank, n0 + j0, j0) is None and not (loose and j0)):
        out.add((0, 0, 0, 0, 0, 0 if clean and has_open and n0_clean >= clean else NO_CLEAN, 0, 0))

    def kinds(n: int, j: int) -> tuple[int, int, int]:
        kind = r.kind_of(rank, n + j, j)
        return (
            1 if kind else 0,
            1 if kind == "natural" else 0,
            1 if kind == "mixed" else 0,
        )

    def owed(n: int, j: int) -> tuple[int, int]:
        # the canastas (all, natural) a meld of n naturals holds with its j wild cards
        # and not without them
        k, k0 = kinds(n, j), kinds(n, 0)
        return k[0] - k0[0], k[1] - k0[1]

    def grow(
        c_left: int, w_left: int, a: int, x: int, d: tuple[int, int, int], depth: int,
        cx: tuple[int, int, int],
    ) -> None:
        # start a new meld of the rank (if allowed) after the previous one closed
        if depth > 3:
            return
        for an in range(0, c_left + 1):
            for xj in range(0, w_left + 1):
                if an + xj < r.new_size or not r.valid(rank, an, xj, True) or (xj and an < late):
                    continue
                k = kinds(an, xj)
                nd = (d[0] + k[0], d[1] + k[1], d[2] + k[2])
                # a candidate for the clean meld: its naturals were laid first, alone, as a
                # new meld (the wild cards join once the side has opened)
                cx2 = min(cx, (xj, *owed(an, xj))) if (
                    clean and an >= clean and an >= r.new_size and r.valid(rank, an, 0, True)
                ) else cx
                if k[0] or not complete or (loose and xj):
                    out.add((a + an, x + xj, *nd, *cx2))
                if dup and r.closed(rank, an + xj):
                    grow(c_left - an, w_left - xj, a + an, x + xj, nd, depth + 1, cx2)

    if has_open:
        k0 = kinds(n0, j0)
        for an in range(0, c + 1):
            for xj in range(0, wmax + 1):
                if not r.valid(rank, n0 + an, j0 + xj, False) or (xj and n0 + an < late):
                    continue
                k = kinds(n0 + an, j0 + xj)
                d = (k[0] - k0[0], k[1] - k0[1], k[2] - k0[2])
                # (a candidate holds no wild card yet: j0 is 0)
                cx = (xj, *owed(n0 + an, xj)) if clean and n0_clean >= 0 and n0_clean + an >= clean else _NOT_CLEAN
                if k[0] or not complete or (loose and j0 + xj):
                    out.add((an, xj, *d, *cx))
                if dup and r.closed(rank, n0 + an + j0 + xj):
                    grow(c - an, wmax - xj, an, xj, d, 1, cx)
    elif may_new:
        grow(c, wmax, 0, 0, (0, 0, 0), 0, _NOT_CLEAN)
    return tuple(sorted(out))


@lru_cache(maxsize=65536)
def wild_options(
    r: Rules, w: int, j0: int, has_open: bool, may_new: bool, complete: bool = False
) -> tuple[tuple[int, int], ...]:
    """Ways to place up to ``w`` wilds in wild melds: ``(wilds used, wild canastas gained)``;
    with ``complete``, only those that leave the wild melds canastas (see :func:`_rank_options`)."""

    def is_c(size: int) -> int:
        return 1 if size >= r.canasta_size else 0

    out: set[tuple[int, int]] = set()
    if not (complete and has_open and not is_c(j0)):
        out.add((0, 0))
    if not r.wild_melds:
        return tuple(out)
    dup = r.dup_after_complete

    most = r.most[WILD_TARGET]
    # a new wild meld is laid with exactly the kind's new size (at least
    # melds.min_naturals too, as for every new meld), then grown card by card
    first = r.meld_kinds[WILD_TARGET].new_size

    def grow(left: int, used: int, gained: int, depth: int) -> None:
        if depth > 4:
            return
        for y in range(first, left + 1):
            if most is not None and y > most:
                break
            if is_c(y) or not complete:
                out.add((used + y, gained + is_c(y)))
            if dup and r.closed(WILD_TARGET, y):
                grow(left - y, used + y, gained + is_c(y), depth + 1)

    if has_open:
        for y in range(0, w + 1):
            size = j0 + y
            if most is not None and size > most:
                break
            g = is_c(size) - is_c(j0)
            if is_c(size) or not complete:
                out.add((y, g))
            if dup and r.closed(WILD_TARGET, size):
                grow(w - y, y, g, 1)
    elif may_new:
        grow(w, 0, 0, 0)
    return tuple(sorted(out))


def _partitions(n: int) -> list[list[list[int]]]:
    """Every way to split the items ``0 .. n-1`` into groups (set partitions)."""
    if n == 0:
        return [[]]
    out = []
    for rest in _partitions(n - 1):
        # item n-1 joins one of the groups, or starts its own
        for g in range(len(rest)):
            out.append([*rest[:g], [*rest[g], n - 1], *rest[g + 1:]])
        out.append([*rest, [n - 1]])
    return out


@lru_cache(maxsize=65536)
def _any_options(
    r: Rules, rank: int, c: int, opens: tuple[tuple[int, int], ...], wmax: int,
    complete: bool = False, late: int = 0,
) -> tuple[tuple[int, int, int, int, int], ...]:
    """:func:`_rank_options` where a side may hold several melds of ``rank`` and combine
    them (``melds.duplicate_ranks: any``).

    ``opens``: the side's open melds of the rank, as ``(naturals, wilds)``. A
    way ends with the open melds split into groups, each group combined into
    one meld (a group of one stays as it is) that takes some naturals and wild
    cards, and any number of new melds from the hand; every meld it ends with
    must be legal (with ``complete``, a canasta), which is all a way needs: a
    group's naturals can join its melds first, the melds then combine (fewer
    wild cards never break a meld of naturals), and the wild cards come last.
    Where a closed meld makes its rank dead (``melds.dead_when_closed``), a way
    closes one meld of the rank at most: the rank takes no card once one is.
    Returns ``(naturals used, wilds used, d_total, d_natural, d_mixed)``, each once.
    """

    def kinds(n: int, j: int) -> tuple[int, int, int]:
        kind = r.kind_of(rank, n + j, j)
        return (1 if kind else 0, 1 if kind == "natural" else 0, 1 if kind == "mixed" else 0)

    def closes(n: int, j: int) -> int:
        return 1 if r.dead_on and r.closed(rank, n + j) else 0

    # the new melds a way may end with; any number of them (the last number: how many
    # of them are closed, 2 for more than one)
    reach = {(0, 0, 0, 0, 0, 0)}
    for an in range(1, c + 1):
        for xj in range(0, wmax + 1):
            if an + xj < r.new_size or not r.valid(rank, an, xj, True) or (xj and an < late):
                continue
            kt, kn, km = kinds(an, xj)
            if complete and not kt and not (xj and r.mixed_ordinary[rank]):
                continue
            kc = closes(an, xj)
            more = set()
            for a, x, t, n, mx, cl in reach:
                while a + an <= c and x + xj <= wmax:
                    a, x, t, n, mx, cl = a + an, x + xj, t + kt, n + kn, mx + km, min(2, cl + kc)
                    more.add((a, x, t, n, mx, cl))
            reach |= more
    before = [0, 0, 0]
    for n0, j0 in opens:
        for i, k in enumerate(kinds(n0, j0)):
            before[i] += k
    out: set[tuple[int, int, int, int, int]] = set()
    for groups in _partitions(len(opens)):
        ways = reach
        for group in groups:
            n0 = sum(opens[i][0] for i in group)
            j0 = sum(opens[i][1] for i in group)
            options: list[tuple[int, int, int, int, int, int]] = []
            for an in range(0, c + 1):
                for xj in range(0, wmax + 1):
                    n, j = n0 + an, j0 + xj
                    if not r.valid(rank, n, j, False) or (xj and n < late):
                        continue
                    kt, kn, km = kinds(n, j)
                    if complete and not kt and not (j and r.mixed_ordinary[rank]):
                        continue
                    options.append((an, xj, kt, kn, km, closes(n, j)))
            ways = {
                (a + an, x + xj, t + kt, n + kn, mx + km, min(2, cl + kc))
                for a, x, t, n, mx, cl in ways for an, xj, kt, kn, km, kc in options
                if a + an <= c and x + xj <= wmax
            }
        out.update((a, x, t - before[0], n - before[1], mx - before[2]) for a, x, t, n, mx, cl in ways if cl <= 1)
    return tuple(sorted(out))


Outcomes = dict[tuple[int, bool, bool], int]
#: The one way to place no card of a rank: (naturals, wilds, canasta changes) all 0.
NOTHING: Final = ((0, 0, 0, 0, 0),)


def options_at(
    r: Rules, rank: int, c: int, melds: tuple[MeldGroup, ...], oi: int, W: int, dup: bool,
    dead: int = 0, complete: int = 0, late: bool = False, clean: int = 0, took_first: bool = False,
) -> tuple[tuple[int, ...], ...]:
    """:func:`_rank_options` for ``c`` naturals of ``rank``: onto the side's open meld ``oi``, or a new one.

    ``dead`` and ``complete`` are bit masks by rank: the dead ranks, which take
    no card (``melds.dead_when_closed``), and the ranks whose melds must end
    as canastas (see :func:`_rank_options`). ``late``: the side opened before
    this turn (``melds.late_wild_naturals`` and ``late_natural_ranks`` apply).
    With ``clean`` (see :func:`_clean_outcomes`) each way is that of
    :func:`clean_options`, with its last three numbers.
    """
    must = bool(complete >> rank & 1)
    need = r.late_naturals[rank] if late else 0
    m = melds[oi] if oi >= 0 else None
    if dead >> rank & 1:
        if must and m is not None and r.kind_of(rank, m.size, m.wilds) is None and not (
            m.wilds and r.mixed_ordinary[rank]
        ):
            return ()
        if not clean:
            return NOTHING
        n0c = clean_naturals(r, m, oi == 0 and took_first) if m is not None else -1
        return ((0, 0, 0, 0, 0, 0 if n0c >= clean else NO_CLEAN, 0, 0),)
    if r.dup_any:
        # several melds of the rank, combined at will (melds.duplicate_ranks: any;
        # never with a clean opening meld, which new_game refuses)
        opens = tuple(sorted((melds[i].naturals, melds[i].wilds) for i in meld_info(r, melds).opens(rank)))
        return _any_options(r, rank, c, opens, W, must, need)
    if m is not None:
        if clean:
            n0c = clean_naturals(r, m, oi == 0 and took_first)
            return clean_options(r, rank, c, m.naturals, m.wilds, True, False, W, must, clean, n0c, need)
        return _rank_options(r, rank, c, m.naturals, m.wilds, True, False, W, must, need)
    may_new = dup or not any(x.rank == rank for x in melds)
    if clean:
        return clean_options(r, rank, c, 0, 0, False, may_new, W, must, clean, -1, need)
    return _rank_options(r, rank, c, 0, 0, False, may_new, W, must, need)


@lru_cache(maxsize=4096)
def outcomes(
    r: Rules,
    counts: tuple[int, ...],
    melds: tuple[MeldGroup, ...],
    allow_black: bool,
    max_left: int = 2,
    opening: int = OPEN_NO_CANASTA,
    dead: int = 0,
    complete: int = 0,
    clean: int = 0,
    took_first: bool = False,
    late: bool = False,
) -> Outcomes:
    """What the hand ``counts`` can still add to the side's ``melds``.

    Returns a map ``(cards left (0, 1 or 2 = two or more), going-out canastas
    met, black 3s melded) -> most points added``. Plans that leave more than
    ``max_left`` cards are dropped early (going out leaves at most one), and
    so are plans whose melds lack the canasta an opening needs (``opening``,
    one of the ``OPEN_*`` codes of :mod:`canasta.engine.facts`). ``dead`` and
    ``complete`` are bit masks by meld target (see :func:`options_at`; bit 0
    is the meld of wild cards).

    ``clean`` (``opening.natural_meld``, for a side not yet opened): the
    opening needs a meld of that many naturals laid without a wild card. Then
    the points of a plan are those it can show at the moment the opening is
    met: all of them if a meld of the plan is clean, else all but the wild
    cards of a candidate meld, which join it once the side has opened (see
    :func:`clean_options`; ``took_first``: the side's first meld took the
    pile's top card, which does not count toward the clean meld). ``late``: the
    side opened before this turn (see :func:`options_at`).
    """
    if clean:
        return _clean_outcomes(r, counts, melds, allow_black, max_left, opening, dead, complete, clean, took_first)
    prefix = wild_prefix(r, counts)
    W = len(prefix) - 1
    base = canasta_counts(r, melds)
    cap = canasta_caps(r, opening, base)
    # state: (wilds used, left, tot, nat, mix) -> natural points
    states: dict[tuple[int, int, int, int, int], int] = {
        (0, 0, min(base[0], cap[0]), min(base[1], cap[1]), min(base[2], cap[2])): 0
    }
    dup = r.dup_after_complete
    index = meld_info(r, melds).index
    for rank in r.natural_kinds:
        c = counts[rank]
        oi = index.get(rank, -1)
        if c == 0 and oi < 0:
            continue
        opts = options_at(r, rank, c, melds, oi, W, dup, dead, complete, late)
        states = _rank_states(states, opts, c, r.value[rank], W, max_left, cap)
    return close_plans(
        r, counts, melds, allow_black, max_left, W, prefix,
        ((w, left, tot, nat, mix, 0, pts, 0) for (w, left, tot, nat, mix), pts in states.items()),
        opening, complete,
    )


def _rank_states(
    states: dict[tuple[int, int, int, int, int], int], opts: tuple[tuple[int, ...], ...], c: int,
    val: int, W: int, max_left: int, cap: tuple[int, int, int, int, int],
) -> dict[tuple[int, int, int, int, int], int]:
    """:func:`outcomes`' states after a rank whose ``c`` naturals in hand (worth ``val``
    each) take one of ``opts`` (:func:`options_at`) in each state, counts capped at ``cap``."""
    cap0, cap1, cap2 = cap[0], cap[1], cap[2]
    new_states: dict[tuple[int, int, int, int, int], int] = {}
    get = new_states.get
    for (w, left, tot, nat, mix), pts in states.items():
        for a, x, dt, dn, dm in opts:
            w2 = w + x
            if w2 > W:
                continue
            l2 = left + c - a
            if l2 > max_left:
                if max_left < 2:
                    continue
                l2 = 2
            t2 = tot + dt
            if t2 > cap0:
                t2 = cap0
            n2 = nat + dn
            if n2 > cap1:
                n2 = cap1
            m2 = mix + dm
            if m2 > cap2:
                m2 = cap2
            key = (w2, l2, t2, n2, m2)
            p = pts + a * val
            if get(key, -1) < p:
                new_states[key] = p
    return new_states


def _clean_outcomes(
    r: Rules,
    counts: tuple[int, ...],
    melds: tuple[MeldGroup, ...],
    allow_black: bool,
    max_left: int,
    opening: int,
    dead: int,
    complete: int,
    clean: int,
    took_first: bool,
) -> Outcomes:
    """:func:`outcomes` for a side that must open with a clean meld: the same search, each
    state also keeping the fewest wild cards on a candidate for the clean meld.

    Where the opening asks a canasta too, the canasta must be on the table when the
    opening is met, before the candidate's wild cards join it: each state keeps the
    canastas the candidate owes to them (see :func:`clean_options`), and a state
    for each candidate, since fewer wild cards may owe more.
    """
    prefix = wild_prefix(r, counts)
    W = len(prefix) - 1
    base = canasta_counts(r, melds)
    # one canasta further than the other searches count: the opening's count is this one
    # less the canasta the candidate owes, which must not fall to 0 from a capped count
    owing = opening != OPEN_NO_CANASTA
    cap = tuple(c + owing for c in canasta_caps(r, opening, base))
    # state: (wilds used, left, tot, nat, mix, wilds on the clean candidate, canastas and natural
    # canastas it owes to them) -> natural points (a meld already on the table is a candidate
    # through its rank's options below)
    states: dict[tuple[int, int, int, int, int, int, int, int], int] = {
        (0, 0, min(base[0], cap[0]), min(base[1], cap[1]), min(base[2], cap[2]), *_NOT_CLEAN): 0
    }
    dup = r.dup_after_complete
    index = meld_info(r, melds).index
    for rank in r.natural_kinds:
        c = counts[rank]
        oi = index.get(rank, -1)
        if c == 0 and oi < 0:
            continue
        opts = options_at(r, rank, c, melds, oi, W, dup, dead, complete, False, clean, took_first)
        val = r.value[rank]
        new_states: dict[tuple[int, int, int, int, int, int, int, int], int] = {}
        for (w, left, tot, nat, mix, xc, ot, on), pts in states.items():
            for a, x, dt, dn, dm, cx, ct, cn in opts:
                w2 = w + x
                if w2 > W:
                    continue
                l2 = left + c - a
                if l2 > max_left:
                    if max_left < 2:
                        continue
                    l2 = 2
                counted = (w2, l2, min(cap[0], tot + dt), min(cap[1], nat + dn), min(cap[2], mix + dm))
                p = pts + a * val
                # (nothing owed without a canasta for the opening: the fewer wild cards win)
                picks = _candidates((xc, ot, on), (cx, ct, cn)) if owing else ((min(xc, cx), 0, 0),)
                for pick in picks:
                    key = counted + pick
                    if new_states.get(key, -1) < p:
                        new_states[key] = p
        states = new_states
    return close_plans(
        r, counts, melds, allow_black, max_left, W, prefix,
        ((w, left, tot, nat, mix, 0, pts, xc, False, tot - ot, nat - on)
         for (w, left, tot, nat, mix, xc, ot, on), pts in states.items() if xc != NO_CLEAN),
        opening, complete,
    )


def _candidates(xc: tuple[int, int, int], cx: tuple[int, int, int]) -> tuple[tuple[int, int, int], ...]:
    """The clean candidates a plan may keep after a rank's way: the one before (``xc``) or the
    way's (``cx``), each ``(wild cards, canastas owed, natural canastas owed)``; both where
    each is one, since fewer wild cards may owe more."""
    if cx[0] == NO_CLEAN or cx == xc:
        return (xc,)
    if xc[0] == NO_CLEAN:
        return (cx,)
    return xc, cx


def wild_prefix(r: Rules, counts: Sequence[int]) -> list[int]:
    """Sums of the hand's wild cards' values, the dearest first: ``prefix[k]`` for the ``k`` dearest."""
    wild_vals: list[int] = []
    for k in r.wild_kinds:
        wild_vals += [r.value[k]] * counts[k]
    wild_vals.sort(reverse=True)
    prefix = [0]
    for val in wild_vals:
        prefix.append(prefix[-1] + val)
    return prefix


def canasta_caps(r: Rules, opening: int, base: Sequence[int]) -> tuple[int, int, int, int, int]:
    """How far the searches count each kind of canasta: as far as going out needs,
    and to one where an opening needs a canasta (see :func:`close_plans`).

    The count of natural canastas is the one that can fall (a wild card added
    to a natural canasta makes it mixed), at most once for each of the side's
    natural canastas ``base[1]``; counting that many further keeps a capped
    count right after every fall (a count capped at ``need`` would drop below
    it, and below 0, when the true count had not).
    """
    c = r.req
    if opening == OPEN_NO_CANASTA:
        caps = c
    elif opening == OPEN_ANY_CANASTA:
        caps = (max(c[0], 1), c[1], c[2], c[3], c[4])
    else:
        caps = (max(c[0], 1), max(c[1], 1), c[2], max(c[3], 1), max(c[4], 1))
    return caps[0], caps[1] + base[1], caps[2], caps[3], caps[4]


def black_and_stray(
    r: Rules, counts: Sequence[int], allow_black: bool, complete: int, melds: tuple[MeldGroup, ...],
) -> tuple[int, bool, int]:
    """For :func:`close_plans` (and the oracle's greedy way out): the black 3s held, whether
    a plan may meld them (together, as a new meld beside ``melds``, only where allowed), and
    the cards no meld takes (``Rules.stray_kinds``), which stay in hand whatever the plan."""
    # (where 3s are wild, black 3s are among the wild cards: prefix counts them)
    b = counts[BLACK_THREE] if r.black_apart else 0
    black_ok = allow_black and b > 0 and r.valid(BLACK_THREE, b, 0, True) and not (
        # going_out.complete_ranks naming 3: a meld of black 3s goes out only as a canasta
        complete >> BLACK_THREE & 1 and r.kind_of(BLACK_THREE, b, 0) is None
    ) and may_lay_new(r, meld_info(r, melds), BLACK_THREE)  # a meld of black 3s never grows
    stray = 0
    for k in r.stray_kinds:
        stray += counts[k]
    return b, black_ok, stray


def close_plans(
    r: Rules,
    counts: Sequence[int],
    melds: tuple[MeldGroup, ...],
    allow_black: bool,
    max_left: int,
    W: int,
    prefix: list[int],
    states: Iterable[tuple[int, ...]],
    opening: int,
    complete: int,
) -> Outcomes:
    """The last step of :func:`outcomes` and :func:`~canasta.engine.sequence_search.sequence_outcomes`:
    wild melds and black 3s.

    ``states`` are ``(wilds used, cards left, canastas, natural, mixed,
    sequence canastas, points, wild cards not counted)`` once every natural
    card has been placed, each count capped by :func:`canasta_caps`; plans
    without the canasta ``opening`` needs are dropped here. The last number is
    the wild cards whose points the opening may not count (the cheapest the
    plan uses; :func:`_clean_outcomes`). Two more may follow: whether every card
    laid bridges a join (see :func:`~canasta.engine.sequence_search.sequence_outcomes`),
    and the canastas and natural canastas on the table when the opening is met
    (:func:`_clean_outcomes`). ``complete``: the meld targets going out needs
    complete, as a bit mask (see :func:`outcomes`)."""
    result: Outcomes = {}
    if complete and closed_short(r, melds, complete):
        return result  # a meld that going out needs complete is closed short of a canasta: no plan goes out
    wild_complete = complete & 1
    base = canasta_counts(r, melds)
    cap = canasta_caps(r, opening, base)
    req = r.req
    b, black_ok, stray = black_and_stray(r, counts, allow_black, complete, melds)
    wi = open_meld(r, melds, WILD_TARGET)  # wild melds take what wilds remain
    fresh = may_lay_new(r, meld_info(r, melds), WILD_TARGET)  # a new one may start (asked where none is open)
    # melds.wild_meld_lock: a wild meld not yet a canasta must be completed
    # before wild cards go anywhere else (plans that put some elsewhere complete it)
    locked = r.wild_lock and wild_meld_locks(r, melds)
    for w, left, tot, nat, mix, sq, pts, xc, *rest in states:
        # (sequence_outcomes with sequences.join: every hand card the plan lays bridges a
        # join, which must follow it, so the last one laid cannot go out; see below)
        bridged = bool(rest and rest[0])
        # the canastas and natural canastas on the table when the opening is met, where
        # they may be fewer than at the plan's end (_clean_outcomes)
        held_tot, held_nat = (rest[1], rest[2]) if len(rest) > 2 else (tot, nat)
        if wi >= 0:
            wopts = wild_options(r, W - w, melds[wi].wilds, True, False, bool(wild_complete) or (locked and w > 0))
        elif locked and w > 0:
            continue  # the side's meld of wild cards closed short of a canasta: no wild card goes elsewhere
        else:
            wopts = wild_options(r, W - w, 0, False, fresh, bool(wild_complete))
        for y, g in wopts:
            if w + y > W:
                continue
            used = w + y
            wild_left = W - used
            total_tot = min(cap[0], tot + g)
            if opening == OPEN_ANY_CANASTA:
                if held_tot + g <= 0:
                    continue
            elif opening == OPEN_NATURAL_CANASTA and not (held_nat > 0 or sq or base[3] + g):
                continue
            ok = (
                total_tot >= req[0] and nat >= req[1] and mix >= req[2]
                and base[3] + g >= req[3] and sq >= req[4]
            )
            for black in ((False, True) if black_ok else (False,)):
                lft = left + wild_left + (0 if black else b) + stray
                if lft > max_left:
                    if max_left < 2:
                        continue
                    lft = 2
                if lft == 0 and bridged and not used and not black:
                    # every card laid bridges a join: the last of them goes out before its join
                    continue
                p = pts + prefix[used - xc] + (b * r.value[BLACK_THREE] if black else 0)
                key2 = (lft, ok, black)
                if result.get(key2, -1) < p:
                    result[key2] = p
    return result
