"""The turn oracle's greedy plans: quick ways to a yes that the full searches would also give.

:func:`greedy_plan` lays a hand's cards on the side's melds and in new melds, rank by rank,
and spreads the wild cards; :func:`greedy_out` asks it (with the wild cards laid first on a
meld of wild cards that locks them, the side's sequences grown, new sequences laid) whether
the player can go out, and :func:`greedy_opens` whether the side can open. A plan they show
is one the full search finds; where they find none, :mod:`canasta.engine.oracle` asks the
searches. The rules a plan does not play are named by :func:`greedy_fits`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from canasta.engine.facts import (
    OPEN_NO_CANASTA,
    holds_opening_canasta,
    wild_meld_locks,
)
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.melds import (
    KIND_SLOT,
    may_lay_new,
    meld_info,
    open_meld,
    req_met,
    sequence_span_error,
)
from canasta.engine.moves import SEQUENCE, WILD_TARGET
from canasta.engine.searches import black_and_stray, wild_options
from canasta.engine.state import (
    MeldGroup,
)

if TYPE_CHECKING:
    from canasta.engine.facts import Probe
    from canasta.engine.tables import Rules


class OutQuestion(NamedTuple):
    """What a way out from a probe must meet, as the going-out searches take it."""

    need: int  #: opening points still to meld (0 or less: none)
    waived: bool  #: going out concealed waives the opening's minimum
    opening: int  #: the canasta the opening asks (``OPEN_*``)
    clean: int  #: the clean-opening mask (0: none)
    dead: int  #: ranks no meld may take (:func:`dead_ranks`)
    complete: int  #: ranks whose melds must be canastas to go out
    late: bool  #: wild cards join only after the opening (opened before this turn)
    final_optional: bool  #: the last discard is optional (going_out.final_discard)


def greedy_fits(dead: int, clean: int) -> bool:
    """Whether no rule that :func:`greedy_plan` ignores is in play: dead ranks (``dead``)
    or a clean opening (``clean``). Wild cards joining late are not among them (the plan
    is told ``late``), nor the side's meld of wild cards keeping the wild cards until it is
    a canasta (``melds.wild_meld_lock``): going out lays the wild cards on it first
    (:func:`_wild_meld_first`), and an opening asks the lock of its own."""
    return not (dead or clean)


#: The most cards a greedy plan may leave for new sequences to be tried on them (each
#: new sequence tried asks the plan again; a plan that leaves more rarely ends in a way out).
STRAYS_TRIED = 4


def greedy_out(r: Rules, q: Probe, ask: OutQuestion) -> bool:
    """Whether the greedy plan (:func:`greedy_plan`) shows a way out from ``q``. Where the
    variant has sequences (and they may not be joined, where a card laid may have to wait
    for a join), natural cards of the ranks the plan leaves in hand may first be laid in
    new sequences of the fewest cards, from the hand (:func:`_strays_out`); and failing
    that, the side's sequences may first grow at their ends from the hand
    (:func:`_grown_runs`), or a new sequence canasta be laid from it (:func:`_new_run`)."""
    counts = q.counts
    left, ok, plan = _greedy_left(r, q, ask, counts)
    if ok or not r.seq_on or r.seq_join:
        return ok
    if _strays_out(r, q, ask, counts, Counter(q.hand), left, plan, []):
        return True
    for grown in (_grown_runs(r, q), _new_run(r, q)):
        if grown is None:
            continue
        counts, held, runs = grown
        left, ok, plan = _greedy_left(r, q, ask, counts, runs)
        if ok or _strays_out(r, q, ask, counts, held, left, plan, runs):
            return True
    return False


def _strays_out(
    r: Rules, q: Probe, ask: OutQuestion, counts: tuple[int, ...], held: Counter[int], left: int,
    plan: list[list[int]], runs: Sequence[list[int]],
) -> bool:
    """Whether laying new sequences for the cards ``plan`` leaves (:func:`_stray_run`, one
    at a time, from ``held``) lets the greedy plan go out; ``runs`` as :func:`_greedy_left`."""
    if left > STRAYS_TRIED:
        return False
    while True:
        found = _stray_run(r, q, ask, counts, held, left, plan, runs)
        if found is None:
            return False
        counts, left, ok, plan = found
        if ok:
            return True


def _grown_runs(r: Rules, q: Probe) -> tuple[tuple[int, ...], Counter[int], list[list[int]]] | None:
    """The side's open sequences of natural cards grown at either end, one card at a time,
    by the hand's natural cards of their suit, while the sequence may span them: the
    counts then in hand, the cards then held and a plan item (as :func:`greedy_plan`'s)
    for each sequence grown. ``None`` where no sequence can grow."""
    held = Counter(q.hand)
    counts = list(q.counts)
    runs: list[list[int]] = []
    for i, suit, low, high in meld_info(r, q.melds).sequences:
        if q.melds[i].wilds:
            continue
        lo, hi = low, high
        while True:
            below, above = (lo - 1) * 4 + suit, (hi + 1) * 4 + suit
            if _run_card(r, held, below) and sequence_span_error(r, lo - 1, hi) is None:
                lo -= 1
                card = below
            elif _run_card(r, held, above) and sequence_span_error(r, lo, hi + 1) is None:
                hi += 1
                card = above
            else:
                break
            held[card] -= 1
            counts[KIND[card]] -= 1
        if (lo, hi) != (low, high):
            runs.append([SEQUENCE, hi - lo + 1, 0, i])
    return (tuple(counts), held, runs) if runs else None


def _new_run(r: Rules, q: Probe) -> tuple[tuple[int, ...], Counter[int], list[list[int]]] | None:
    """A new sequence canasta of natural cards from the hand, the lowest of the first suit
    that holds one, laid first (going out may need one the side lacks): as
    :func:`_grown_runs` returns. ``None`` where the hand holds none."""
    held = Counter(q.hand)
    size = max(r.seq_canasta, r.seq_min)  # a new sequence is never shorter than its least
    for suit in range(4):
        for low in range(2, 16 - size):
            cards = [(low + i) * 4 + suit for i in range(size)]
            if all(_run_card(r, held, card) for card in cards) and sequence_span_error(r, low, low + size - 1) is None:
                counts = list(q.counts)
                for card in cards:
                    held[card] -= 1
                    counts[KIND[card]] -= 1
                return tuple(counts), held, [[SEQUENCE, size, 0, -1]]
    return None


def _run_card(r: Rules, held: Counter[int], card: int) -> bool:
    """Whether ``held`` holds ``card``, a natural card of a rank sequences take."""
    k = KIND[card] if 0 <= card < len(KIND) else -1
    return k >= 0 and held[card] > 0 and k == card >> 2 and r.in_seq[k]


def _greedy_left(
    r: Rules, q: Probe, ask: OutQuestion, counts: tuple[int, ...], runs: Sequence[list[int]] = (),
) -> tuple[int, bool, list[list[int]]]:
    """The greedy plan for ``counts`` beside ``q``'s melds: the cards it leaves, whether it
    goes out as ``ask`` asks, and the plan. Where the side's meld of wild cards locks them,
    the wild cards go on it first (:func:`_wild_meld_first`). ``runs``: plan items of the
    side's sequences grown first (:func:`_grown_runs`), whose cards ``counts`` no longer
    holds; the plan is judged with them."""
    first = _wild_meld_first(r, q.melds, counts)
    if first is None:
        return sum(counts), False, []
    rest, stuck, wild_pts, wild_item = first
    laid = [*([wild_item] if wild_item else []), *runs]
    b, black_ok, _stray = black_and_stray(r, counts, r.black_melds, ask.complete, q.melds)
    if not black_ok:
        b = 0  # the plan keeps the black 3s in hand; going out may meld them together, as
        # the searches' plans do (close_plans)
    for canastas_first in (False, True):
        _upper, pts, left, plan = greedy_plan(r, rest, q.melds, r.black_melds, canastas_first, ask.late)
        if r.wild_melds and not (r.wild_lock and wild_meld_locks(r, q.melds)):
            laid_wild, laid_pts = _wild_meld_last(r, q.melds, rest, plan)
            left -= laid_wild
            pts += laid_pts
        plan.extend(laid)
        left += stuck - b
        pts += wild_pts + b * r.value[BLACK_THREE]
        if not (left == 1 or (left == 0 and ask.final_optional)) or not (ask.need <= 0 or pts >= ask.need or ask.waived):
            break
        if _plan_meets_requirement(r, q.melds, plan, ask.opening):
            return left, True, plan
        # the canastas going out needs are missing: the wild cards may make them, given first
    return left, False, plan


def _wild_meld_first(
    r: Rules, melds: tuple[MeldGroup, ...], counts: tuple[int, ...],
) -> tuple[tuple[int, ...], int, int, list[int]] | None:
    """Where the side's meld of wild cards locks the wild cards (``melds.wild_meld_lock``:
    it is not yet a canasta), the wild cards of ``counts`` laid on it first, one at a time
    while it takes them, highest points first: the counts left to the greedy plan, the wild
    cards kept in hand, the points laid and the meld's plan item (``[]`` where nothing is
    laid). The wild cards left once it is a canasta go back to the plan; where it never
    becomes one, they stay in hand. ``None`` where the side has more than one such meld
    (the full search decides)."""
    if not (r.wild_lock and wild_meld_locks(r, melds)):
        return counts, 0, 0, []
    short = [i for i, m in enumerate(melds) if m.rank == WILD_TARGET and m.size < r.canasta_size]
    if len(short) > 1:
        return None
    m = melds[short[0]]
    wild = sorted(((r.value[w], w) for w in r.wild_kinds for _ in range(counts[w])), reverse=True)
    most = r.most[WILD_TARGET]
    size = m.size
    laid = 0
    while (
        laid < len(wild) and size < r.canasta_size and not r.closed(WILD_TARGET, size)
        and (most is None or size < most)
    ):
        size += 1
        laid += 1
    # a canasta frees the wild cards still in hand for the greedy plan; short of one they stay
    freed = size >= r.canasta_size
    taken = wild[:laid] if freed else wild
    rest = list(counts)
    for _pts, w in taken:
        rest[w] -= 1
    item = [WILD_TARGET, 0, size, short[0]] if laid else []
    return tuple(rest), len(taken) - laid, sum(p for p, _w in wild[:laid]), item


def _wild_meld_last(
    r: Rules, melds: tuple[MeldGroup, ...], counts: tuple[int, ...], plan: list[list[int]],
) -> tuple[int, int]:
    """The wild cards that ``plan`` (:func:`greedy_plan`'s for ``counts``) leaves in hand, laid
    last on one meld of wild cards only (``melds.wild_melds``): the side's open one, or a
    new one, as :func:`~canasta.engine.searches.wild_options` lets one meld take them. A
    new meld short of its first size takes the rest from the plan's melds, of the wild
    cards the plan adds to them that they can spare (:func:`_spare_wilds`).

    ``plan`` gains the meld's item and loses the wild cards taken back; returns the wild
    cards laid from the hand and their points (the plan spread the highest). Laid last,
    the meld locks no wild card the plan lays elsewhere (``melds.wild_meld_lock``); and it
    costs the plan no canasta, so the plan is one the full search finds."""
    values = sorted(r.value[w] for w in r.wild_kinds for _ in range(counts[w]))
    spare = len(values) - sum(j - (melds[i].wilds if i >= 0 else 0) for _k, _n, j, i in plan)
    if spare <= 0:
        return 0, 0
    wi = open_meld(r, melds, WILD_TARGET)
    j0 = melds[wi].wilds if wi >= 0 else 0
    fresh = may_lay_new(r, meld_info(r, melds), WILD_TARGET)
    givers = [(_spare_wilds(r, melds, item), item) for item in plan]
    most = r.most[WILD_TARGET]
    # one meld only: past its most cards, the options are of several melds
    sizes = [y for y, _g in wild_options(r, spare + sum(n for n, _ in givers), j0, wi >= 0, fresh)
             if y and (most is None or j0 + y <= most)]
    over = [y for y in sizes if y >= spare]
    under = [y for y in sizes if y < spare]
    if not (over or under):
        return 0, 0
    y = min(over) if over else max(under)
    taken = y - min(y, spare)
    for n, item in givers:
        item[2] -= min(n, taken)
        taken -= min(n, taken)
    plan.append([WILD_TARGET, 0, j0 + y, wi])
    laid = min(y, spare)
    return laid, sum(values[spare - laid:spare])


def _spare_wilds(r: Rules, melds: tuple[MeldGroup, ...], item: list[int]) -> int:
    """How many of the wild cards :func:`greedy_plan` adds to the meld of plan ``item`` (a meld
    of a natural rank: the plan lays no meld of wild cards) it can spare: the meld's shape
    without them is one it passes on its way (its naturals are laid first, then its wild
    cards, one at a time), and it stays a canasta, of the same kind, where it was one."""
    _rank, n, j, i = item
    floor = melds[i].wilds if i >= 0 else max(0, r.new_size - n)  # the wild cards it had, or was laid with
    if n + j >= r.canasta_size:
        floor = max(floor, r.canasta_size - n, 1 if j else 0)
    return max(0, j - floor)


def _stray_run(
    r: Rules, q: Probe, ask: OutQuestion, counts: tuple[int, ...], held: Counter[int], left: int,
    plan: list[list[int]], runs: Sequence[list[int]],
) -> tuple[tuple[int, ...], int, bool, list[list[int]]] | None:
    """A new sequence of the fewest cards, from ``held``, that holds a natural card of a rank
    ``plan`` leaves in hand, after which the greedy plan leaves fewer cards than ``left``
    (or goes out): the counts after it, the cards then left, whether that goes out and
    the plan; ``held`` loses its cards. ``None`` where there is none.

    A plan found so is a real one: the sequence is laid first, as a new sequence of
    natural cards may be, and the greedy plan lays the rest; the canastas and points
    the plan is judged by leave the sequence out, so they are never more than it holds."""
    placed = {item[0] for item in plan}
    wild = _gap_wild(r, q, held)
    for card in sorted(held):
        k = KIND[card]
        if not held[card] or k != card >> 2 or not r.in_seq[k] or k in placed:
            continue
        for codes in _windows(r, held, card, wild):
            after = list(counts)
            for code in codes:
                after[KIND[code]] -= 1
            left2, ok, plan2 = _greedy_left(r, q, ask, tuple(after), runs)
            if ok or left2 < left:
                for code in codes:
                    held[code] -= 1
                return tuple(after), left2, ok, plan2
    return None


def _windows(r: Rules, held: Counter[int], card: int, wild: int) -> Iterator[list[int]]:
    """The new sequences of ``held`` that hold ``card``, a natural card, as
    :func:`_stray_run` tries them: of the fewest cards a sequence holds, then, with a wild
    card to stand in a gap (``wild``, see :func:`_window`), of one card more (the gap may
    be next to the card's neighbour, as 5 6 _ 8). Each as its cards."""
    k, suit = card >> 2, card & 3
    for size in (r.seq_min, r.seq_min + 1) if wild >= 0 else (r.seq_min,):
        for low in range(k - size + 1, k + 1):
            codes = _window(held, suit, low, size, wild)
            if codes is not None and sequence_span_error(r, low, low + size - 1) is None:
                yield codes


def _gap_wild(r: Rules, q: Probe, held: Counter[int]) -> int:
    """The wild card of ``held`` (the fewest points) that a new sequence may hold in a gap
    (``sequences.wild_in_gap``), or -1: none held, or none allowed, or the side's meld of
    wild cards locks them (the full search decides)."""
    if not r.seq_wild or not r.seq_kind.forms(r.seq_min - 1, 1) or (r.wild_lock and wild_meld_locks(r, q.melds)):
        return -1
    held_wild = [(r.value[KIND[c]], c) for c in held if held[c] and 0 <= c < len(KIND) and r.is_wild[KIND[c]]]
    return min(held_wild)[1] if held_wild else -1


def _window(held: Counter[int], suit: int, low: int, size: int, wild: int) -> list[int] | None:
    """The cards of ``held`` that make a new sequence of ``suit`` from ``low``, ``size``
    cards: its natural cards, or all but one inside rank and the wild card ``wild``
    standing in that gap (-1: none). ``None`` where ``held`` lacks them."""
    codes = [j * 4 + suit for j in range(low, low + size)]
    missing = [i for i, c in enumerate(codes) if not held[c]]
    if not missing:
        return codes
    if wild < 0 or len(missing) > 1 or not 0 < missing[0] < size - 1:
        return None
    return [c for i, c in enumerate(codes) if i != missing[0]] + [wild]


#: ``Rules.late_naturals`` where the side opened this turn: a wild card may join any meld.
_NEVER_LATE: Final = (0,) * 16


def greedy_plan(
    r: Rules, counts: tuple[int, ...], melds: tuple[MeldGroup, ...], allow_black: bool,
    canastas_first: bool = False, late: bool = False,
) -> tuple[int, int, int, list[list[int]]]:
    """Quick bounds on the points a hand can still add, and a plan that adds them.

    Returns (upper bound, greedy points, cards the plan leaves in hand, plan);
    each plan item is ``[rank, naturals, wilds, index]``: the meld's shape when
    the plan is done, and its index among ``melds`` (-1 for a new meld).

    The greedy plan adds every natural it can to the side's open melds, starts a
    meld of every rank held often enough, then of pairs completed with a wild
    card, and spreads the remaining wild cards over those melds while each stays
    legal (with ``late``, the side opened before this turn: only on melds that hold the
    natural cards ``melds.late_wild_naturals`` asks, and none on ranks that never take
    one then). Each of its melds can be laid and grown one legal step at a time, so
    when the plan reaches the minimum with two cards to spare the full search is
    not needed; nor is it when the plan leaves at most one card and holds the
    canastas that going out needs (see :func:`can_go_out`). The upper bound
    counts every card that could possibly be melded (a short rank only while
    wild cards remain to complete it).
    """
    ok_add = r.nat_add  # r.valid for natural ranks, as tables
    ok_new = r.nat_new
    wild_vals: list[int] = []
    for w in r.wild_kinds:
        wild_vals += [r.value[w]] * counts[w]
    wild_vals.sort(reverse=True)
    n_wild = len(wild_vals)
    upper, greedy, left, plan, short = _plan_naturals(r, counts, melds)
    short.sort(reverse=True)
    budget = n_wild
    used = 0
    # the natural cards a meld needs before a wild card joins it (none where not late)
    wild_from = r.late_naturals if late else _NEVER_LATE
    for pts, k, c in short:
        need = r.new_size - c
        if need <= budget:
            upper += pts
            budget -= need
        if used + need <= n_wild and _shape_ok(ok_new, c, need) and c >= wild_from[k]:
            greedy += pts
            left -= c
            used += need
            plan.append([k, c, need, -1])
    takes = [item for item in plan if item[1] >= wild_from[item[0]]]
    if canastas_first:
        used = _wilds_to_canastas(r, takes, used, n_wild)
    for item in takes:
        while used < n_wild and _shape_ok(ok_add, item[1], item[2] + 1):
            item[2] += 1
            used += 1
    upper += sum(wild_vals)
    greedy += sum(wild_vals[:used])
    left += n_wild - used
    b = counts[BLACK_THREE] if r.black_apart else 0
    if allow_black and b and r.valid(BLACK_THREE, b, 0, True):
        upper += b * r.value[BLACK_THREE]
    left += b
    for k in r.stray_kinds:
        # cards no meld takes stay in hand
        left += counts[k]
    return upper, greedy, left, plan


def _shape_ok(table: list[list[bool]], naturals: int, wilds: int) -> bool:
    """``table[naturals][wilds]`` (``Rules.nat_add`` or ``nat_new``), and no for a shape
    past the table, which is sized for what the decks can make: a state built by hand may
    hold more (the plan then leaves the cards, and the full search decides)."""
    return naturals < len(table) and wilds < len(table[naturals]) and table[naturals][wilds]


def _wilds_to_canastas(r: Rules, plan: list[list[int]], used: int, n_wild: int) -> int:
    """The first share of :func:`greedy_plan`'s wild cards, with ``canastas_first``: each
    meld of ``plan`` that the wild cards still free make a canasta (a mixed one, where
    going out asks mixed canastas) gets them, the melds that need fewest first, each wild
    card joining as the meld's shape allows. Returns the wild cards then used."""
    size = r.canasta_size
    mixed = r.req[2] > 0

    def short(item: list[int]) -> int:
        n, j = item[1], item[2]
        if n + j >= size:
            return 1 if mixed and not j else 0
        return size - n - j

    for item in sorted(plan, key=short):
        need = short(item)
        if not need:
            continue
        if used + need > n_wild:
            break
        if all(_shape_ok(r.nat_add, item[1], item[2] + x) for x in range(1, need + 1)):
            item[2] += need
            used += need
    return used


def _plan_naturals(
    r: Rules, counts: tuple[int, ...], melds: tuple[MeldGroup, ...],
) -> tuple[int, int, int, list[list[int]], list[tuple[int, int, int]]]:
    """The natural cards' part of :func:`greedy_plan`: (upper bound, greedy points, cards
    left, plan, ranks short of a new meld as ``(points, rank, naturals)``). Each rank's
    naturals join the side's open meld of the rank as far as it stays legal, or start a
    meld where there are enough of them; the rest stay in hand."""
    info = meld_info(r, melds)
    index = info.index
    present = info.present
    ok_add = r.nat_add
    ok_new = r.nat_new
    dup = not r.one_per_rank
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
            while room > 0 and not _shape_ok(ok_add, om.naturals + room, om.wilds):
                room -= 1
            greedy += room * val
            left += c - room
            plan.append([k, om.naturals + room, om.wilds, oi])
        elif (k not in present or dup) and c >= r.min_nat:
            if c >= r.new_size:
                upper += c * val
                use = min(c, r.max_size or c)
                if _shape_ok(ok_new, use, 0):
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
    return upper, greedy, left, plan, short


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


def opening_bounds(
    r: Rules, counts: tuple[int, ...], melds: tuple[MeldGroup, ...], allow_black: bool,
) -> tuple[int, int, int, list[list[int]]]:
    """:func:`greedy_plan`'s bound, points, cards left and plan, the bound raised where
    sequences may take cards the greedy plan knows nothing of."""
    upper, greedy, left_over, plan = greedy_plan(r, counts, melds, allow_black)
    if r.seq_on:
        # the greedy plan knows no sequences: every natural card a sequence may hold could be melded
        upper += sum(r.value[k] * counts[k] for k in r.seq_ranks)
        if r.seq_wild:
            # and every wild card may stand in a sequence (sequences.wild_in_gap)
            upper += sum(r.value[k] * counts[k] for k in r.wild_kinds)
    return upper, greedy, left_over, plan


def greedy_opens(
    r: Rules, melds: tuple[MeldGroup, ...], plan: list[list[int]], oc: int, spare: int, left: int,
    clean: int = 0,
) -> bool:
    """Whether the greedy plan ``plan``, which reaches the opening's minimum with ``spare``
    points over and leaves ``left`` cards to end the turn on, opens with the canasta ``oc``
    asks and two cards left: as it is, or with one of its new melds of natural cards kept
    in hand (a long hand's plan often melds every card). The other melds of the plan are
    laid as before, so the plan stays one the full search finds. ``clean``: the natural
    cards of the clean meld the opening asks (``opening.natural_meld``; 0: none), which one
    of the plan's new melds holds with no wild card."""
    def holds(items: list[list[int]]) -> bool:
        if clean and not any(i < 0 and not j and n >= clean for _k, n, j, i in items):
            return False
        return oc == OPEN_NO_CANASTA or holds_opening_canasta(oc, _plan_counts(r, melds, items))

    if left >= 2:
        return holds(plan)
    for i, (rank, naturals, wilds, index) in enumerate(plan):
        spared = index < 0 and not wilds and naturals * r.value[rank] <= spare and left + naturals >= 2
        if spared and holds(plan[:i] + plan[i + 1:]):
            return True
    return False


def clean_opens(
    r: Rules, counts: tuple[int, ...], melds: tuple[MeldGroup, ...], oc: int, need: int, pending: int,
) -> bool:
    """Whether the side opens, under ``opening.natural_meld``, with the natural cards of
    ``counts`` alone, as :func:`greedy_plan` lays them (:func:`_plan_naturals`): a plan that
    lays no wild card holds every meld clean and every canasta natural, on the table when
    the opening is met. It must reach ``need`` points, hold a new meld of the natural cards
    the clean meld asks and the canasta ``oc`` asks, and leave two cards (``pending``: the
    pile's cards still to join the hand), as :func:`greedy_opens` judges it."""
    _upper, pts, _left, plan, _short = _plan_naturals(r, counts, melds)
    if pts < need:
        return False
    laid = sum(n - (melds[i].naturals if i >= 0 else 0) for _k, n, _j, i in plan)
    return greedy_opens(r, melds, plan, oc, pts - need, sum(counts) - laid + pending, r.clean)
