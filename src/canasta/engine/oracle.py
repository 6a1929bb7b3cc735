"""The exact "can this turn still be finished?" oracle.

No dead ends: a step inside the play phase is accepted only if the turn can
still be finished legally afterwards (the opening minimum reached with a card
left to discard, a partner's "yes" honoured, and so on). :func:`outcomes` is a
small dynamic programme over ranks of what the player's hand can still add to
the side's melds; :func:`greedy_plan` answers most going-out questions before
the full search runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

from canasta.engine.facts import (
    OPEN_ANY_CANASTA,
    OPEN_NATURAL_CANASTA,
    OPEN_NO_CANASTA,
    asking_required,
    clean_naturals,
    dead_ranks,
    foot_available,
    holds_opening_canasta,
    may_discard_last,
    opening_canasta,
    opening_minimum,
    partner_foot_down,
)
from canasta.engine.kinds import BLACK_THREE, KIND, count_kinds
from canasta.engine.melds import KIND_SLOT, canasta_counts, meld_info, open_meld, req_met
from canasta.engine.moves import (
    WILD_TARGET,
)
from canasta.engine.state import (
    TOLD_NO,
    TOLD_YES,
    GameState,
    MeldGroup,
)

if TYPE_CHECKING:
    from canasta.engine.facts import Probe
    from canasta.engine.melds import MeldInfo
    from canasta.engine.tables import Rules


#: In :func:`clean_options`: no meld of the plan is a candidate for the clean meld.
NO_CLEAN = 99


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
) -> tuple[tuple[int, int, int, int, int, int], ...]:
    """:func:`_rank_options`, each way with a sixth number for ``opening.natural_meld``.

    ``clean`` is the naturals that option asks of the clean meld (0: no such
    rule); the sixth number is the fewest wild cards a meld of the way ends
    with among those that hold ``clean`` naturals laid without a wild card
    (:data:`NO_CLEAN` if none does). The open meld is such a meld only if
    ``n0_clean >= 0``: its naturals that count (no wild card yet; the pile's
    top card not counted).
    """
    dup = r.v.melds.duplicate_ranks == "after_complete"
    out: set[tuple[int, int, int, int, int, int]] = set()
    if not (complete and has_open and r.kind_of(rank, n0 + j0, j0) is None):
        out.add((0, 0, 0, 0, 0, 0 if clean and has_open and n0_clean >= clean else NO_CLEAN))

    def kinds(n: int, j: int) -> tuple[int, int, int]:
        kind = r.kind_of(rank, n + j, j)
        return (
            1 if kind else 0,
            1 if kind == "natural" else 0,
            1 if kind == "mixed" else 0,
        )

    def grow(
        c_left: int, w_left: int, a: int, x: int, d: tuple[int, int, int], depth: int, cx: int
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
                cx2 = min(cx, xj) if clean and an >= clean else cx
                if k[0] or not complete:
                    out.add((a + an, x + xj, *nd, cx2))
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
                cx = xj if clean and n0_clean >= 0 and n0_clean + an >= clean else NO_CLEAN
                if k[0] or not complete:
                    out.add((an, xj, *d, cx))
                if dup and r.closed(rank, n0 + an + j0 + xj):
                    grow(c - an, wmax - xj, an, xj, d, 1, cx)
    elif may_new:
        grow(c, wmax, 0, 0, (0, 0, 0), 0, NO_CLEAN)
    return tuple(sorted(out))


@lru_cache(maxsize=65536)
def _wild_options(
    r: Rules, w: int, j0: int, has_open: bool, may_new: bool, complete: bool = False
) -> tuple[tuple[int, int], ...]:
    """Ways to place up to ``w`` wilds in wild melds: ``(wilds used, wild canastas gained)``;
    with ``complete``, only those that leave the wild melds canastas (see :func:`_rank_options`)."""

    def is_c(size: int) -> int:
        return 1 if size >= r.canasta_size else 0

    out: set[tuple[int, int]] = set()
    if not (complete and has_open and not is_c(j0)):
        out.add((0, 0))
    if not r.v.melds.wild_melds:
        return tuple(out)
    dup = r.v.melds.duplicate_ranks == "after_complete"

    most = r.most[WILD_TARGET]

    def grow(left: int, used: int, gained: int, depth: int) -> None:
        if depth > 4:
            return
        for y in range(r.min_size, left + 1):
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


Outcomes = dict[tuple[int, bool, bool], int]
#: The one way to place no card of a rank: (naturals, wilds, canasta changes) all 0.
_NOTHING = ((0, 0, 0, 0, 0),)


def _options_at(
    r: Rules, rank: int, c: int, melds: tuple[MeldGroup, ...], oi: int, W: int, dup: bool,
    dead: int = 0, complete: int = 0, late: bool = False,
) -> tuple[tuple[int, int, int, int, int], ...]:
    """:func:`_rank_options` for ``c`` naturals of ``rank``: onto the side's open meld ``oi``, or a new one.

    ``dead`` and ``complete`` are bit masks by rank: the dead ranks, which take
    no card (``melds.dead_when_closed``), and the ranks whose melds must end
    as canastas (see :func:`_rank_options`). ``late``: the side opened before
    this turn (``melds.late_wild_naturals`` and ``late_natural_ranks`` apply).
    """
    must = bool(complete >> rank & 1)
    need = r.late_naturals[rank] if late else 0
    if dead >> rank & 1:
        if must and oi >= 0 and r.kind_of(rank, melds[oi].size, melds[oi].wilds) is None:
            return ()
        return _NOTHING
    if oi >= 0:
        m = melds[oi]
        return _rank_options(r, rank, c, m.naturals, m.wilds, True, False, W, must, need)
    may_new = dup or not any(m.rank == rank for m in melds)
    return _rank_options(r, rank, c, 0, 0, False, may_new, W, must, need)


@lru_cache(maxsize=65536)
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
    ``complete`` are bit masks by meld target (see :func:`_options_at`; bit 0
    is the meld of wild cards).

    ``clean`` (``opening.natural_meld``, for a side not yet opened): the
    opening needs a meld of that many naturals laid without a wild card. Then
    the points of a plan are those it can show at the moment the opening is
    met: all of them if a meld of the plan is clean, else all but the wild
    cards of a candidate meld, which join it once the side has opened (see
    :func:`clean_options`; ``took_first``: the side's first meld took the
    pile's top card, which does not count toward the clean meld). ``late``: the
    side opened before this turn (see :func:`_options_at`).
    """
    if clean:
        return _clean_outcomes(r, counts, melds, allow_black, max_left, opening, dead, complete, clean, took_first)
    prefix = _wild_prefix(r, counts)
    W = len(prefix) - 1
    base = canasta_counts(r, melds)
    cap = _caps(r, opening)
    cap0, cap1, cap2 = cap[0], cap[1], cap[2]
    # state: (wilds used, left, tot, nat, mix) -> natural points
    states: dict[tuple[int, int, int, int, int], int] = {
        (0, 0, min(base[0], cap0), min(base[1], cap1), min(base[2], cap2)): 0
    }
    dup = r.v.melds.duplicate_ranks == "after_complete"
    index = meld_info(r, melds).index
    for rank in r.natural_kinds:
        c = counts[rank]
        oi = index.get(rank, -1)
        if c == 0 and oi < 0:
            continue
        opts = _options_at(r, rank, c, melds, oi, W, dup, dead, complete, late)
        val = r.value[rank]
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
        states = new_states
    return _close(
        r, counts, melds, allow_black, max_left, W, prefix,
        ((w, left, tot, nat, mix, 0, pts, 0) for (w, left, tot, nat, mix), pts in states.items()),
        opening, complete & 1,
    )


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
    state also keeping the fewest wild cards on a candidate for the clean meld."""
    prefix = _wild_prefix(r, counts)
    W = len(prefix) - 1
    base = canasta_counts(r, melds)
    cap = _caps(r, opening)
    # state: (wilds used, left, tot, nat, mix, wilds on the best clean candidate) -> natural points
    # (a meld already on the table is a candidate through its rank's options below)
    states: dict[tuple[int, int, int, int, int, int], int] = {
        (0, 0, min(base[0], cap[0]), min(base[1], cap[1]), min(base[2], cap[2]), NO_CLEAN): 0
    }
    dup = r.v.melds.duplicate_ranks == "after_complete"
    index = meld_info(r, melds).index
    for rank in r.natural_kinds:
        c = counts[rank]
        oi = index.get(rank, -1)
        if c == 0 and oi < 0:
            continue
        must = bool(complete >> rank & 1)
        opts: tuple[tuple[int, int, int, int, int, int], ...]
        if oi >= 0:
            m = melds[oi]
            n0c = clean_naturals(r, m, oi == 0 and took_first)
            if dead >> rank & 1:
                ok_now = not must or r.kind_of(rank, m.size, m.wilds) is not None
                opts = ((0, 0, 0, 0, 0, 0 if n0c >= clean else NO_CLEAN),) if ok_now else ()
            else:
                opts = clean_options(r, rank, c, m.naturals, m.wilds, True, False, W, must, clean, n0c)
        elif dead >> rank & 1:
            opts = ((0, 0, 0, 0, 0, NO_CLEAN),)
        else:
            may_new = dup or not any(m.rank == rank for m in melds)
            opts = clean_options(r, rank, c, 0, 0, False, may_new, W, must, clean, -1)
        val = r.value[rank]
        new_states: dict[tuple[int, int, int, int, int, int], int] = {}
        for (w, left, tot, nat, mix, xc), pts in states.items():
            for a, x, dt, dn, dm, cx in opts:
                w2 = w + x
                if w2 > W:
                    continue
                l2 = left + c - a
                if l2 > max_left:
                    if max_left < 2:
                        continue
                    l2 = 2
                key = (w2, l2, min(cap[0], tot + dt), min(cap[1], nat + dn), min(cap[2], mix + dm), min(xc, cx))
                p = pts + a * val
                if new_states.get(key, -1) < p:
                    new_states[key] = p
        states = new_states
    return _close(
        r, counts, melds, allow_black, max_left, W, prefix,
        ((w, left, tot, nat, mix, 0, pts, xc) for (w, left, tot, nat, mix, xc), pts in states.items()
         if xc != NO_CLEAN),
        opening, complete & 1,
    )


def _wild_prefix(r: Rules, counts: Sequence[int]) -> list[int]:
    """Sums of the hand's wild cards' values, the dearest first: ``prefix[k]`` for the ``k`` dearest."""
    wild_vals: list[int] = []
    for k in r.wild_kinds:
        wild_vals += [r.value[k]] * counts[k]
    wild_vals.sort(reverse=True)
    prefix = [0]
    for val in wild_vals:
        prefix.append(prefix[-1] + val)
    return prefix


def _caps(r: Rules, opening: int) -> tuple[int, int, int, int, int]:
    """How far the searches count each kind of canasta: as far as going out needs,
    and to one where an opening needs a canasta (see :func:`_close`)."""
    c = r.req
    if opening == OPEN_NO_CANASTA:
        return c
    if opening == OPEN_ANY_CANASTA:
        return max(c[0], 1), c[1], c[2], c[3], c[4]
    return max(c[0], 1), max(c[1], 1), c[2], max(c[3], 1), max(c[4], 1)


def _close(
    r: Rules,
    counts: Sequence[int],
    melds: tuple[MeldGroup, ...],
    allow_black: bool,
    max_left: int,
    W: int,
    prefix: list[int],
    states: Iterable[tuple[int, int, int, int, int, int, int, int]],
    opening: int,
    wild_complete: int,
) -> Outcomes:
    """The last step of :func:`outcomes` and :func:`sequence_outcomes`: wild melds and black 3s.

    ``states`` are ``(wilds used, cards left, canastas, natural, mixed,
    sequence canastas, points, wild cards not counted)`` once every natural
    card has been placed, each count capped by :func:`_caps`; plans without the
    canasta ``opening`` needs are dropped here. The last number is the wild
    cards of the plan whose points the opening may not count (see
    :func:`_clean_outcomes`): the cheapest of those the plan uses.
    """
    base = canasta_counts(r, melds)
    cap = _caps(r, opening)
    req = r.req
    # black 3s: melded together (only where allowed) or left in hand
    b = counts[BLACK_THREE]
    black_ok = allow_black and b > 0 and r.valid(BLACK_THREE, b, 0, True)
    # wild melds take what wilds remain
    wi = open_meld(r, melds, WILD_TARGET)
    w_exists = any(m.rank == WILD_TARGET for m in melds)
    dup = r.v.melds.duplicate_ranks == "after_complete"
    result: Outcomes = {}
    # melds.wild_meld_lock: a wild meld not yet a canasta must be completed
    # before wild cards go anywhere else (plans that put some elsewhere complete it)
    locked = r.wild_lock and wi >= 0 and melds[wi].size < r.canasta_size
    for w, left, tot, nat, mix, sq, pts, xc in states:
        if wi >= 0:
            wopts = _wild_options(r, W - w, melds[wi].wilds, True, False, bool(wild_complete) or (locked and w > 0))
        else:
            wopts = _wild_options(r, W - w, 0, False, (not w_exists) or dup, bool(wild_complete))
        for y, g in wopts:
            if w + y > W:
                continue
            used = w + y
            wild_left = W - used
            total_tot = min(cap[0], tot + g)
            if opening == OPEN_ANY_CANASTA:
                if not total_tot:
                    continue
            elif opening == OPEN_NATURAL_CANASTA and not (nat or sq or base[3] + g):
                continue
            ok = (
                total_tot >= req[0] and nat >= req[1] and mix >= req[2]
                and base[3] + g >= req[3] and sq >= req[4]
            )
            for black in ((False, True) if black_ok else (False,)):
                lft = left + wild_left + (0 if black else b)
                if lft > max_left:
                    if max_left < 2:
                        continue
                    lft = 2
                p = pts + prefix[used - xc] + (b * r.value[BLACK_THREE] if black else 0)
                key2 = (lft, ok, black)
                if result.get(key2, -1) < p:
                    result[key2] = p
    return result


# A run of a sequence being built in the search below: (cards, the rank it
# takes next, cards it had on the table before: 0 for a run from the hand,
# which must reach sequences.min_size on its own).
Run = tuple[int, int, int]


@lru_cache(maxsize=65536)
def _suit_steps(
    r: Rules, runs: tuple[Run, ...], rank: int, avail: int, starts: tuple[tuple[int, int], ...]
) -> tuple[tuple[tuple[Run, ...], int, int], ...]:
    """What one suit's runs can do at ``rank``, with ``avail`` cards of that suit and rank in hand.

    ``starts``: the side's open sequences of the suit whose lowest rank is
    ``rank``, as ``(highest rank, cards)``; a run from the hand that ends just
    below one may join it (a sequence grows at both ends). Returns
    ``(runs after, cards used, sequence canastas gained)``, each once.
    """
    seq_ok = r.in_seq[rank]
    most = r.seq_max
    smallest = r.seq_min

    def is_c(n: int) -> int:
        return 1 if n >= r.seq_canasta else 0

    waiting = tuple(run for run in runs if run[1] > rank)
    due = [run for run in runs if run[1] <= rank]
    out: dict[tuple[tuple[Run, ...], int], int] = {}
    # each run due at this rank: 0 takes a card, 1 ends, 2 + j joins starts[j]
    choices = [(0, 1, *range(2, 2 + len(starts))) if run[1] == rank and seq_ok else (1, *range(2, 2 + len(starts))) for run in due]
    for pick in product(*choices):
        takes = pick.count(0)
        if takes > avail:
            continue
        joined = [p - 2 for p in pick if p >= 2]
        if len(set(joined)) != len(joined):
            continue
        after: list[Run] = list(waiting)
        gained = 0
        valid = True
        joins: dict[int, int] = {}
        for run, p in zip(due, pick, strict=True):
            n, _next, orig = run
            if p == 0:
                if n + 1 == most:  # closed: it takes no more cards
                    gained += is_c(n + 1) - is_c(orig)
                else:
                    after.append((n + 1, rank + 1, orig))
            elif p == 1:
                if orig == 0 and n < smallest:
                    valid = False
                    break
                gained += is_c(n) - is_c(orig)
            else:
                if orig or run[1] != rank:  # only a run from the hand, ending just below
                    valid = False
                    break
                joins[p - 2] = n
        if not valid:
            continue
        for j, (high, size) in enumerate(starts):
            n = size + joins.get(j, 0)
            if most is not None and n > most:
                valid = False
                break
            if n == most:
                gained += is_c(n) - is_c(size)
            else:
                after.append((n, high + 1, size))
        if not valid:
            continue
        for new in range(0, (avail - takes if seq_ok else 0) + 1):
            runs_after = tuple(sorted(after + [(1, rank + 1, 0)] * new))
            key = (runs_after, takes + new)
            if out.get(key, -1) < gained:
                out[key] = gained
    return tuple((runs_after, used, gained) for (runs_after, used), gained in out.items())


def _runs_end(r: Rules, runs: tuple[Run, ...]) -> int:
    """Sequence canastas the runs gain when they all end, or -1 if a run from the hand is too short."""
    gained = 0
    for n, _next, orig in runs:
        if orig == 0 and n < r.seq_min:
            return -1
        gained += (n >= r.seq_canasta) - (orig >= r.seq_canasta)
    return gained


@lru_cache(maxsize=16384)
def sequence_outcomes(
    r: Rules,
    hand: tuple[int, ...],
    melds: tuple[MeldGroup, ...],
    allow_black: bool,
    max_left: int = 2,
    opening: int = OPEN_NO_CANASTA,
    dead: int = 0,
    complete: int = 0,
    late: bool = False,
) -> Outcomes:
    """:func:`outcomes` where the variant has sequences: the same answer, for a hand of exact cards.

    A natural card of a rank the sequences may hold goes to the side's meld of
    its rank or to a run of its suit: runs from the hand (which must reach
    ``sequences.min_size``) or the side's open sequences, grown at either end.
    The search goes up the ranks, keeping each suit's runs in its state.
    """
    counts = count_kinds(hand)
    prefix = _wild_prefix(r, counts)
    W = len(prefix) - 1
    by_code = [0] * 64
    for card in hand:
        by_code[card] += 1
    info = meld_info(r, melds)
    starts: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for _i, suit, low, high in info.sequences:
        starts.setdefault((suit, low), []).append((high, high - low + 1))
    base = canasta_counts(r, melds)
    cap = _caps(r, opening)
    empty: tuple[Run, ...] = ()
    # state: (wilds used, left, tot, nat, mix, sequence canastas, runs by suit) -> points
    State = tuple[int, int, int, int, int, int, tuple[tuple[Run, ...], ...]]
    states: dict[State, int] = {
        (0, 0, min(base[0], cap[0]), min(base[1], cap[1]), min(base[2], cap[2]),
         min(base[4], cap[4]), (empty,) * 4): 0
    }
    dup = r.v.melds.duplicate_ranks == "after_complete"
    index = info.index
    for rank in r.natural_kinds:
        val = r.value[rank]
        # each suit in turn: its runs, and the cards left for the meld of the rank (the pool)
        pooled: dict[tuple[State, int], int] = {(key, 0): pts for key, pts in states.items()}
        for suit in range(4):
            code = rank * 4 + suit
            avail = by_code[code]
            here = tuple(starts.get((suit, rank), ()))
            nxt: dict[tuple[State, int], int] = {}
            for (key, pool), pts in pooled.items():
                runs = key[6]
                mine = runs[suit]
                if not avail and not here and not any(run[1] <= rank for run in mine):
                    if nxt.get((key, pool), -1) < pts:
                        nxt[(key, pool)] = pts
                    continue
                for after, used, gained in _suit_steps(r, mine, rank, avail, here):
                    w, left, tot, nat, mix, sq, _runs = key
                    new_runs = (*runs[:suit], after, *runs[suit + 1:])
                    k2 = (w, left, min(cap[0], tot + gained), nat, mix, min(cap[4], sq + gained), new_runs)
                    p2 = pts + used * val
                    slot = (k2, pool + avail - used)
                    if nxt.get(slot, -1) < p2:
                        nxt[slot] = p2
            pooled = nxt
        # then the meld of the rank takes what the runs left
        oi = index.get(rank, -1)
        new_states: dict[State, int] = {}
        for (key, c), pts in pooled.items():
            opts = _options_at(r, rank, c, melds, oi, W, dup, dead, complete, late) if oi >= 0 or c else _NOTHING
            w, left, tot, nat, mix, sq, runs = key
            for a, x, dt, dn, dm in opts:
                w2 = w + x
                if w2 > W:
                    continue
                l2 = left + c - a
                if l2 > max_left:
                    if max_left < 2:
                        continue
                    l2 = 2
                k2 = (w2, l2, min(cap[0], tot + dt), min(cap[1], nat + dn), min(cap[2], mix + dm), sq, runs)
                p2 = pts + a * val
                if new_states.get(k2, -1) < p2:
                    new_states[k2] = p2
        states = new_states

    def ended() -> Iterator[tuple[int, int, int, int, int, int, int, int]]:
        for (w, left, tot, nat, mix, sq, runs), pts in states.items():
            gained = 0
            for suit_runs in runs:
                g = _runs_end(r, suit_runs)
                if g < 0:
                    break
                gained += g
            else:
                yield w, left, min(cap[0], tot + gained), nat, mix, min(cap[4], sq + gained), pts, 0

    return _close(r, counts, melds, allow_black, max_left, W, prefix, ended(), opening, complete & 1)


def concealed_possible(s: GameState, took: bool) -> bool:
    return s.variant.going_out.concealed and not took and not s.melded_before[s.current]


def _stranded(r: Rules, counts: Sequence[int], melds: tuple[MeldGroup, ...], allow_black: bool) -> bool:
    """A quick test: must more than one card stay in hand (ranks that cannot be melded)?

    Going out leaves at most one card, so this settles the question without the
    full search; it stops at the second stranded card.
    """
    left = 0
    b = counts[BLACK_THREE]
    if b and not (allow_black and r.valid(BLACK_THREE, b, 0, True)):
        left = b
        if left > 1:
            return True
    present = meld_info(r, melds).present
    need = r.min_nat
    in_seq = r.in_seq  # a card a sequence may hold is never stranded: it may join a run
    for k in r.natural_kinds:
        c = counts[k]
        if c and c < need and k not in present and not in_seq[k]:
            left += c
            if left > 1:
                return True
    return False


def _canastas_reachable(
    r: Rules, counts: Sequence[int], melds: tuple[MeldGroup, ...], hand: Sequence[int] = ()
) -> bool:
    """A quick necessary condition: could the side still have the canastas going out needs?"""
    need = r.req[0]
    info = meld_info(r, melds)
    have = info.canasta_counts()[0]
    if have >= need:
        return True
    wilds = sum(counts[k] for k in r.wild_kinds)
    index = info.index
    for k in r.natural_kinds:
        c = counts[k]
        oi = index.get(k, -1)
        size = len(melds[oi].cards) if oi >= 0 else 0
        if size < r.canasta_size and (c or size) and size + c + wilds >= r.canasta_size:
            have += 1 + (c + wilds) // r.canasta_size  # generous: a bound, not a plan
    if r.v.melds.wild_melds:
        have += wilds // max(1, r.min_size)
    if r.seq_on:
        have += _sequences_reachable(r, hand, info)
    return have >= need


def _sequences_reachable(r: Rules, hand: Sequence[int], info: MeldInfo) -> int:
    """More sequence canastas than the side could still make: a bound, not a plan.

    Each new one needs ``sequences.canasta_size`` cards of one suit, from the
    hand or from an open sequence of that suit.
    """
    cards = [0, 0, 0, 0]
    in_seq = r.in_seq
    for card in hand:
        if in_seq[card >> 2]:
            cards[card & 3] += 1
    for _i, suit, low, high in info.sequences:
        cards[suit] += high - low + 1
    return sum(n // r.seq_canasta for n in cards)


def can_go_out(s: GameState, q: Probe) -> bool:
    """Whether the current player can still go out this turn from ``q``."""
    r = s.rules
    v = s.variant
    p = s.current
    if q.asked == TOLD_NO:
        return False
    if s.feet_[p] and v.going_out.foot_first:
        # the foot must be picked up first (a move of its own); its cards are hidden
        return False
    if partner_foot_down(s):
        return False
    if q.asked != TOLD_YES and asking_required(s):
        # asking is a move of its own, made before laying anything
        return False
    if q.pending:
        # pile cards join the hand only once the opening is met from the hand
        return False
    counts = q.counts
    side = r.side_of[p]
    need = 0 if q.opened else opening_minimum(s, side) - q.points
    waived = (not q.opened) and v.opening.concealed_waives and concealed_possible(s, q.took)
    # the canasta an opening needs, unless the side has opened or goes out concealed
    oc = OPEN_NO_CANASTA if q.opened or waived else opening_canasta(s, side)
    clean = 0 if q.opened or waived else r.clean
    dead = dead_ranks(s)
    complete = r.out_complete
    late = r.late_on and q.opened and not q.points  # opened before this turn
    allow_black = v.threes.black_meld != "never"
    final_optional = v.going_out.final_discard == "optional"
    if not _stranded(r, counts, q.melds, allow_black) and _canastas_reachable(r, counts, q.melds, q.hand):
        # a quick greedy plan (greedy_plan) often shows a way out at once;
        # the full search is needed only when it does not (and always where
        # dead ranks or melds that must be canastas, which the plan ignores, are in play)
        if not (dead or complete or clean or r.late_on or r.wild_lock):
            _upper, pts, left, plan = greedy_plan(r, counts, q.melds, allow_black)
            if (
                (left == 1 or (left == 0 and final_optional))
                and (need <= 0 or pts >= need or waived)
                and _plan_meets_requirement(r, q.melds, plan, oc)
            ):
                return True
        outs = (
            sequence_outcomes(r, q.hand, q.melds, allow_black, 1, oc, dead, complete, late) if r.seq_on
            else outcomes(r, counts, q.melds, allow_black, 1, oc, dead, complete, clean, q.took, late)
        )
        for (left, ok, _black), pts in outs.items():
            if not ok or left == 2:
                continue
            if left == 0 and not final_optional:
                continue
            if need > 0 and pts < need and not waived:
                continue
            return True
    # black-3 out: everything else melded, exactly N black 3s kept, plus the discard
    n_out = v.threes.black_out_cards
    if n_out is not None and counts[BLACK_THREE] in (n_out, n_out + 1):
        extra = counts[BLACK_THREE] - n_out
        if r.seq_on:
            rest = tuple(card for card in q.hand if KIND[card] != BLACK_THREE)
            outs2 = sequence_outcomes(r, rest, q.melds, False, 1, oc, dead, complete, late)
        else:
            c2 = list(counts)
            c2[BLACK_THREE] = 0
            outs2 = outcomes(r, tuple(c2), q.melds, False, 1, oc, dead, complete, clean, q.took, late)
        for (left, ok, _black), pts in outs2.items():
            if ok and left + extra == 1 and (need <= 0 or pts >= need or waived):
                return True
    return False


def greedy_plan(
    r: Rules, counts: tuple[int, ...], melds: tuple[MeldGroup, ...], allow_black: bool
) -> tuple[int, int, int, list[list[int]]]:
    """Quick bounds on the points a hand can still add, and a plan that adds them.

    Returns (upper bound, greedy points, cards the plan leaves in hand, plan);
    each plan item is ``[rank, naturals, wilds, index]``: the meld's shape when
    the plan is done, and its index among ``melds`` (-1 for a new meld).

    The greedy plan adds every natural it can to the side's open melds, starts a
    meld of every rank held often enough, then of pairs completed with a wild
    card, and spreads the remaining wild cards over those melds while each stays
    legal. Each of its melds can be laid and grown one legal step at a time, so
    when the plan reaches the minimum with two cards to spare the full search is
    not needed; nor is it when the plan leaves at most one card and holds the
    canastas that going out needs (see :func:`can_go_out`). The upper bound
    counts every card that could possibly be melded (a short rank only while
    wild cards remain to complete it).
    """
    info = meld_info(r, melds)
    index = info.index
    present = info.present
    ok_add = r.nat_add  # r.valid for natural ranks, as tables
    ok_new = r.nat_new
    dup = r.v.melds.duplicate_ranks == "after_complete"
    wild_vals: list[int] = []
    for w in r.wild_kinds:
        wild_vals += [r.value[w]] * counts[w]
    wild_vals.sort(reverse=True)
    n_wild = len(wild_vals)
    upper = greedy = left = 0
    plan: list[list[int]] = []  # [rank, naturals, wilds, index] of melds the plan lays or grows
    short: list[tuple[int, int, int]] = []  # (points, rank, naturals) short of a new meld
    for k in r.natural_kinds:
        c = counts[k]
        if not c:
            continue
        val = r.value[k]
        oi = index.get(k, -1)
        if oi >= 0:
            upper += c * val
            om = melds[oi]
            room = c if r.max_size is None else min(c, r.max_size - om.size)
            while room > 0 and not ok_add[om.naturals + room][om.wilds]:
                room -= 1
            greedy += room * val
            left += c - room
            plan.append([k, om.naturals + room, om.wilds, oi])
        elif (k not in present or dup) and c >= r.min_nat:
            if c >= r.new_size:
                upper += c * val
                use = min(c, r.max_size or c)
                if ok_new[use][0]:
                    greedy += use * val
                    left += c - use
                    plan.append([k, use, 0, -1])
                else:
                    left += c
            else:
                short.append((c * val, k, c))
                left += c
        else:
            left += c
    short.sort(reverse=True)
    budget = n_wild
    used = 0
    for pts, k, c in short:
        need = r.new_size - c
        if need <= budget:
            upper += pts
            budget -= need
        if used + need <= n_wild and ok_new[c][need]:
            greedy += pts
            left -= c
            used += need
            plan.append([k, c, need, -1])
    for item in plan:
        while used < n_wild and ok_add[item[1]][item[2] + 1]:
            item[2] += 1
            used += 1
    upper += sum(wild_vals)
    greedy += sum(wild_vals[:used])
    left += n_wild - used
    b = counts[BLACK_THREE]
    if allow_black and b and r.valid(BLACK_THREE, b, 0, True):
        upper += b * r.value[BLACK_THREE]
    left += b
    return upper, greedy, left, plan


def _plan_counts(r: Rules, melds: tuple[MeldGroup, ...], plan: list[list[int]]) -> tuple[int, ...]:
    """The side's canasta counts (see :func:`canasta_counts`) once ``plan`` (see
    :func:`greedy_plan`) is laid."""
    counts = list(meld_info(r, melds).canasta_counts())
    for rank, n, j, index in plan:
        if index >= 0:
            m = melds[index]
            before = r.kind_of(m.rank, len(m.cards), m.wilds)
            if before is not None:
                counts[0] -= 1
                counts[KIND_SLOT[before]] -= 1
        after = r.kind_of(rank, n + j, j)
        if after is not None:
            counts[0] += 1
            counts[KIND_SLOT[after]] += 1
    return tuple(counts)


def _plan_meets_requirement(
    r: Rules, melds: tuple[MeldGroup, ...], plan: list[list[int]], opening: int = OPEN_NO_CANASTA
) -> bool:
    """Whether the side's melds, once ``plan`` (see :func:`greedy_plan`) is laid, hold the
    canastas that going out needs, and the canasta ``opening`` asks (``OPEN_*``)."""
    counts = _plan_counts(r, melds, plan)
    return req_met(r, counts) and holds_opening_canasta(opening, counts)


def can_finish(s: GameState, q: Probe) -> bool:
    """Whether the player in the play phase can still end the turn legally from ``q``."""
    r = s.rules
    v = s.variant
    p = s.current
    if q.asked == TOLD_YES:
        return can_go_out(s, q)
    h = len(q.hand)
    if q.opened or not q.melds:
        if h >= 2:
            return True
        if h + len(s.feet_[p]) >= 2 and foot_available(s, p, h, q.melds):
            return True
        if h == 1:
            if may_discard_last(s, p):
                return True
            return can_go_out(s, q)
        if q.opened:
            return False
    # unopened with melds laid this turn: the opening must still be reached
    side = r.side_of[p]
    need = opening_minimum(s, side) - q.points
    oc = opening_canasta(s, side)
    allow_black = v.threes.black_meld == "always"
    counts = q.counts
    pend = len(q.pending)
    upper, greedy, left_over, plan = greedy_plan(r, counts, q.melds, allow_black)
    if r.seq_on:
        # the greedy plan knows no sequences: every natural card a sequence may hold could be melded
        upper += sum(r.value[k] * counts[k] for k in r.seq_ranks)
    dead = dead_ranks(s)
    clean = r.clean
    if upper >= need:
        if greedy >= need and left_over + pend >= 2 and not (dead or clean or r.wild_lock) and (
            oc == OPEN_NO_CANASTA or holds_opening_canasta(oc, _plan_counts(r, q.melds, plan))
        ):
            return True
        outs = (
            sequence_outcomes(r, q.hand, q.melds, allow_black, 2, oc, dead) if r.seq_on
            else outcomes(r, counts, q.melds, allow_black, 2, oc, dead, 0, clean, q.took)
        )
        final_optional = v.going_out.final_discard == "optional"
        foot_blocks = bool(s.feet_[p]) and v.going_out.foot_first
        told_no = q.asked == TOLD_NO
        for (left, ok, _black), pts in outs.items():
            if pts < need:
                continue
            eff = min(2, left + pend)
            if eff == 2:
                return True
            if eff == 1 and may_discard_last(s, p):
                return True
            if ok and not told_no and not foot_blocks and (eff == 1 or final_optional):
                if not r.out_complete:
                    return True
                # going out: the plans that leave the melds it asks for complete
                outs_out = (
                    sequence_outcomes(r, q.hand, q.melds, allow_black, 2, oc, dead, r.out_complete)
                    if r.seq_on
                    else outcomes(r, counts, q.melds, allow_black, 2, oc, dead, r.out_complete, clean, q.took)
                )
                for (left2, ok2, _b), pts2 in outs_out.items():
                    eff2 = left2 + pend
                    if ok2 and pts2 >= need and (eff2 == 1 or (eff2 == 0 and final_optional)):
                        return True
    # going out concealed needs no minimum
    if concealed_possible(s, q.took) and v.opening.concealed_waives:
        return can_go_out(s, q)
    return False


