"""The turn oracle's search where the variant has sequences: :func:`sequence_outcomes`.

The same dynamic programme as :func:`canasta.engine.searches.outcomes`, over
exact cards instead of ranks, since a sequence needs the suits: rank by rank,
each suit's runs take that suit's cards, then the side's meld of the rank takes
the rest; the wild melds and black 3s close each plan as in the rank search.
States that can no longer end legally, or that another state dominates, are
dropped on the way (the ``sequence_pruning`` fast path), so the search stays
small on long hands.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from canasta.engine.facts import (
    OPEN_NATURAL_CANASTA,
    OPEN_NO_CANASTA,
    holds_opening_canasta,
)
from canasta.engine.kinds import count_kinds
from canasta.engine.melds import MeldInfo, canasta_counts, meld_info
from canasta.engine.moves import WILD_TARGET
from canasta.engine.searches import (
    NOTHING,
    Outcomes,
    canasta_caps,
    close_plans,
    options_at,
    wild_prefix,
)
from canasta.engine.sequence_runs import (
    GAIN_WILDS,
    NO_GAIN,
    Live,
    Run,
    live_runs,
    runs_end,
    suit_steps,
)
from canasta.engine.state import (
    MeldGroup,
)

if TYPE_CHECKING:
    from canasta.engine.tables import Rules

__all__ = ["sequence_outcomes"]


# A state of sequence_outcomes: (wild cards used, cards left, canastas, natural
# canastas, mixed canastas, sequence canastas, runs by suit (by their number in
# the search's _RunTable), free; see there).
SeqState = tuple[int, int, int, int, int, int, int, bool]
# The same, with the cards of the rank left so far for its meld (the pool) last.
Pooled = tuple[int, int, int, int, int, int, int, bool, int]


class _RunTable:
    """The runs by suit a search has met, each numbered once: states hold the number, a
    small int, where a tuple of tuples would be hashed again at every step."""

    __slots__ = ("numbers", "runs")

    def __init__(self) -> None:
        self.numbers: dict[tuple[tuple[Run, ...], ...], int] = {}
        self.runs: list[tuple[tuple[Run, ...], ...]] = []

    def number(self, runs: tuple[tuple[Run, ...], ...]) -> int:
        """The number of ``runs`` (a new one the first time)."""
        got = self.numbers.get(runs)
        if got is None:
            got = self.numbers[runs] = len(self.runs)
            self.runs.append(runs)
        return got


def _undominated(states: dict[SeqState, int], sets: bool = False) -> dict[SeqState, int]:
    """``states`` without those another state beats: the same wild cards used, cards left
    and runs, and at least as many canastas of each count, as free, and as many points.

    Every later step (canastas added, capped; ``free or ...``; points added) and
    every test at the end (thresholds on the counts, a plan not bridged) keeps
    that order, so whatever plan follows a state beaten here follows the state
    that beats it as well, with an outcome as good: the same cards left, the
    canastas going out needs met whenever they are in the other, and as many
    points. Without this, each count the plans can reach multiplies the states
    of every combination of runs. With ``sets`` (see :func:`sequence_outcomes`), a state
    beats another whose set of wild-card counts its own holds (a superset is never the
    smaller number, so the order below still puts it first).
    """
    groups: dict[tuple[int, int, int], list[tuple[int, int, int, int, bool, int]]] = {}
    for (w, left, tot, nat, mix, sq, runs, free), pts in states.items():
        item = (tot, nat, mix, sq, free, pts)
        same = groups.get((w, left, runs))
        if same is None:
            groups[(w, left, runs)] = [item]
        else:
            same.append(item)
    if len(groups) == len(states):
        return states
    out: dict[SeqState, int] = {}
    for (w, left, runs), items in groups.items():
        if len(items) > 1:
            # an item can be beaten only by one before it in this order
            items.sort(reverse=True)
            kept: list[tuple[int, int, int, int, bool, int]] = []
            for item in items:
                tot, nat, mix, sq, free, pts = item
                if not any(
                    k[0] >= tot and k[1] >= nat and k[2] >= mix and k[3] >= sq and k[4] >= free
                    and (k[5] | pts == k[5] if sets else k[5] >= pts)
                    for k in kept
                ):
                    kept.append(item)
            items = kept
        for tot, nat, mix, sq, free, pts in items:
            out[(w, left, tot, nat, mix, sq, runs, free)] = pts
    return out


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
    grow: bool = False,
    prune: bool = True,
    sizes: list[int] | None = None,
    most: int = 0,
    points: bool = True,
) -> Outcomes:
    """:func:`outcomes` where the variant has sequences: the same answer, for a hand of exact cards.

    A natural card of a rank the sequences may hold goes to the side's meld of
    its rank or to a run of its suit: runs from the hand (which must reach
    ``sequences.min_size``) or the side's open sequences, grown at either end.
    The search goes up the ranks, keeping each suit's runs in its state.

    ``grow``: the plans go out, and sequences may grow past their closing size
    (``sequences.grow_when_going_out``): the closed sequences grow too, and no
    run closes. Only the plans that leave at most one card are then plans the
    rules allow; the caller keeps only those.

    The states that cannot end (:func:`live_runs`) and those another beats
    (:func:`_undominated`) are dropped as they arise, which keeps the search
    to a few states per combination of runs that can still end. So an entry
    whose canastas fall short of going out's (``False`` in the key) may be
    missing where the entry with the same cards left and black 3s that meets
    them holds at least its points: every question asked of the map reads that
    entry as at least as good. A search for a way out (``max_left`` 1) is read
    only where it meets going out's canastas, so it drops the states that can no
    longer make the sequence canastas going out asks (:func:`_enough_sequences`)
    and may give no entry that falls short. With ``prune`` false, the plain search, which
    keeps every state (the tests compare the two); always where the variant's
    ``sequence_pruning`` fast path is off (:mod:`canasta.engine.fastpaths`). ``sizes`` (on an uncached
    call, ``sequence_outcomes.__wrapped__``) receives the most states the
    search held at each rank: what its work grows with.

    ``most``: a narrow search, which keeps at most this many states after each
    rank, and four times as many between the suits' steps (0: every state):
    those with the most canastas of the kinds an opening asks, then the most
    canastas and points, the fewest cards left (in a search for a way out that
    needs sequence canastas: :func:`_likeliest_out`). Each entry it gives is a
    plan's that the full search finds too, with as many points, though it may
    miss entries: a quick way to
    find a plan that answers a question (:func:`~canasta.engine.oracle.can_go_out`
    asks the full search only where the narrow one finds none).

    ``points`` false: the caller reads no entry's points (a way out where the opening's
    minimum is met or waived), and each entry's points are 0. The full search then keeps,
    where the ``wild_sets`` fast path is on, one state for the sets of wild cards a
    plan may have used (a bit mask in place of the points: bit ``w`` for ``w`` wild
    cards used) where the plain search keeps a state for each count: the same plans
    end, from a fraction of the states where a hand holds many wild cards.
    """
    counts = count_kinds(hand)
    prefix = wild_prefix(r, counts)
    sets = not points and not most and r.fast.wild_sets
    walk, states = _start(
        r, hand, counts, melds, max_left, opening, dead, complete, late, grow, prune and r.fast.sequence_pruning, most,
        len(prefix) - 1, sets,
    )
    for ri, rank in enumerate(r.natural_kinds):
        states = _rank_step(walk, states, ri, rank, sizes)
    ended = _ended(walk, _unset(states) if sets else states)
    outs = close_plans(r, counts, melds, allow_black, max_left, walk.W, prefix, ended, opening, complete)
    return {key: 0 for key in outs} if not points else outs


def _unset(states: dict[SeqState, int]) -> dict[SeqState, int]:
    """The states of a search with wild-card sets (see :func:`sequence_outcomes`) as the
    plain search keeps them: one for each count of wild cards used, each with 0 points."""
    out: dict[SeqState, int] = {}
    for (_w, left, tot, nat, mix, sq, number, free), used in states.items():
        w = 0
        while used:
            if used & 1:
                out[(w, left, tot, nat, mix, sq, number, free)] = 0
            used >>= 1
            w += 1
    return out


def _start(
    r: Rules, hand: tuple[int, ...], counts: tuple[int, ...], melds: tuple[MeldGroup, ...], max_left: int,
    opening: int, dead: int, complete: int, late: bool, grow: bool, prune: bool, most: int, W: int,
    sets: bool = False,
) -> tuple[_Walk, dict[SeqState, int]]:
    """What :func:`sequence_outcomes` keeps from rank to rank, and its first state."""
    by_code = [0] * 64
    for card in hand:
        by_code[card] += 1
    info = meld_info(r, melds)
    starts: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for _i, suit, low, high in (*info.sequences, *info.closed_sequences) if grow else info.sequences:
        starts.setdefault((suit, low), []).append((high, high - low + 1))
    base = canasta_counts(r, melds)
    cap = canasta_caps(r, opening, base)
    empty: tuple[Run, ...] = ()
    # state: (wilds used, left, tot, nat, mix, sequence canastas, runs by suit, free) -> points
    # (free, with sequences.join: whether a hand card laid so far bridges no join, so
    # that it can be laid last, going out after every join; without it, always)
    table = _RunTable()
    states: dict[SeqState, int] = {
        (0, 0, min(base[0], cap[0]), min(base[1], cap[1]), min(base[2], cap[2]),
         min(base[4], cap[4]), table.number((empty,) * 4), not r.seq_join or not hand): 1 if sets else 0
    }
    ranks = r.natural_kinds
    # the runs each suit can still end legally after each rank (the other states lead nowhere)
    live = [
        live_runs(r, tuple(by_code[k * 4 + suit] for k in ranks),
                   tuple((k, tuple(starts.get((suit, k), ()))) for k in ranks if (suit, k) in starts), grow)
        for suit in range(4)
    ] if prune else None
    # plans that go out (max_left 1) are read only where they hold the sequence canastas going
    # out needs: the states that can no longer make them lead to no entry that is read
    seq_need = min(r.req[4], cap[4]) if prune and max_left <= 1 else 0
    walk = _Walk(
        r, table, by_code, starts, grow, W, cap, live, most, melds, info.index, max_left, dead, complete, late,
        # an opening that asks a canasta the side's melds lack: where each state can still make one
        _canasta_hunt(r, counts, info, base, opening, W) if prune else None, seq_need, prune, sets,
    )
    return walk, states


class _Walk(NamedTuple):
    """What :func:`sequence_outcomes` keeps the same from rank to rank."""

    r: Rules
    table: _RunTable
    by_code: list[int]  #: cards in hand by card code
    starts: dict[tuple[int, int], list[tuple[int, int]]]  #: open sequences by (suit, lowest rank)
    grow: bool
    W: int  #: wild cards in hand
    cap: tuple[int, int, int, int, int]  #: how far each canasta count is counted
    live: list[tuple[Live, ...]] | None  #: by suit: the runs that can still end (None: keep all)
    most: int  #: a narrow search's width (0: every state)
    melds: tuple[MeldGroup, ...]
    meld_at: dict[int, int]  #: the index of the side's meld of each rank
    max_left: int
    dead: int
    complete: int
    late: bool
    hunt: _Hunt | None  #: where the canasta an opening asks may come from
    seq_need: int  #: sequence canastas a way out needs (0: none asked, or no pruning)
    prune: bool
    sets: bool  #: each state's value is the set of wild-card counts used (see :func:`sequence_outcomes`)


def _rank_step(
    walk: _Walk, states: dict[SeqState, int], ri: int, rank: int, sizes: list[int] | None,
) -> dict[SeqState, int]:
    """The states of :func:`sequence_outcomes` after ``rank`` (index ``ri``): each suit's runs
    take their cards of the rank in turn, the side's meld of the rank takes what they
    leave, and the states that cannot lead anywhere (or, narrow, the least promising) go."""
    most = walk.most
    live = walk.live
    # each suit in turn: its runs, and the cards left for the meld of the rank (the pool)
    pooled: dict[Pooled, int] = {(*key, 0): pts for key, pts in states.items()}
    held = len(pooled)
    for suit in range(4):
        pooled = _suit_pass(
            walk.r, walk.table, pooled, rank, suit, walk.by_code[rank * 4 + suit],
            tuple(walk.starts.get((suit, rank), ())), walk.grow, walk.W, walk.cap,
            None if live is None else live[suit][ri], walk.sets,
        )
        held = max(held, len(pooled))
        if most and len(pooled) > most * 4:
            # a narrow search keeps few of the suits' steps too (each suit multiplies them)
            pooled = dict(sorted(pooled.items(), key=_pooled_promise)[:most * 4])
    # then the meld of the rank takes what the runs left
    states = _meld_pass(
        walk.r, pooled, rank, walk.melds, walk.meld_at.get(rank, -1), walk.W, walk.cap, walk.max_left, walk.dead,
        walk.complete, walk.late, walk.sets,
    )
    if sizes is not None:
        sizes.append(max(held, len(states)))
    if walk.prune:
        states = _undominated(states, walk.sets)
    if walk.hunt is not None and live is not None:
        states = _hopeful(states, walk.hunt, ri, walk.table, live, walk.sets)
    potential: dict[tuple[int, int], int] | None = None
    if walk.seq_need and live is not None:
        potential = {}
        states = _enough_sequences(states, walk.seq_need, walk.W, ri, walk.table, live, potential, walk.sets)
    if most and len(states) > most:
        if potential:
            states = _likeliest_out(states, most, walk.seq_need, walk.W, potential)
        else:
            states = dict(sorted(states.items(), key=_promise)[:most])
    return states


def _ended(walk: _Walk, states: dict[SeqState, int]) -> Iterator[tuple[int, int, int, int, int, int, int, int, bool]]:
    """The plans of ``states`` whose runs all end legally, as :func:`close_plans` takes them:
    the sequence canastas the runs gain as they end counted in."""
    r = walk.r
    cap = walk.cap
    for (w, left, tot, nat, mix, sq, number, free), pts in states.items():
        runs = walk.table.runs[number]
        gained = 0
        for suit_runs in runs:
            g = runs_end(r, suit_runs)
            if g < 0:
                break
            gained += g
        else:
            # a run that ends with cards laid on its upper end bridged no join: free
            free = free or any(run[3] for suit_runs in runs for run in suit_runs)
            yield w, left, min(cap[0], tot + gained), nat, mix, min(cap[4], sq + gained), pts, 0, not free


class _Hunt(NamedTuple):
    """Where the canasta an opening asks may still come from (:func:`_canasta_hunt`)."""

    natural: bool  #: the opening asks a natural canasta (a wild or sequence one counts), else any
    later: tuple[bool, ...]  #: by rank index: a meld of a later rank may still make one
    wild: tuple[bool, ...]  #: by wild cards used: the wild cards left may still make a wild canasta
    wild_set: int  #: the same as a set of wild-card counts (bit ``w``: ``wild[w]``)


def _canasta_hunt(
    r: Rules, counts: tuple[int, ...], info: MeldInfo, base: tuple[int, int, int, int, int], opening: int, W: int,
) -> _Hunt | None:
    """Where the canasta ``opening`` asks may still come from, unless the side's melds hold it
    (``None``): a bound, not a plan. A meld of a rank can make a natural canasta only with
    that many natural cards of the rank, in hand and in the side's melds of it; any
    canasta, with every wild card held besides; a wild canasta needs that many wild cards."""
    if opening == OPEN_NO_CANASTA or holds_opening_canasta(opening, base):
        return None
    natural = opening == OPEN_NATURAL_CANASTA
    on_table = [0] * 17
    for m in info.melds:
        on_table[m.rank] += m.naturals if natural and m.rank != WILD_TARGET else len(m.cards)
    ranks = r.natural_kinds
    may = [
        bool(n) and r.kind_of(k, n, 0) is not None
        for k in ranks
        for n in (counts[k] + on_table[k] + (0 if natural else W),)
    ]
    later = tuple(any(may[i + 1:]) for i in range(len(ranks)))
    wild = tuple(
        r.wild_melds and W - w + on_table[WILD_TARGET] > 0
        and r.kind_of(WILD_TARGET, W - w + on_table[WILD_TARGET], W - w + on_table[WILD_TARGET]) is not None
        for w in range(W + 1)
    )
    return _Hunt(natural, later, wild, sum(1 << w for w, ok in enumerate(wild) if ok))


def _hopeful(
    states: dict[SeqState, int], hunt: _Hunt, ri: int, table: _RunTable, live: list[tuple[Live, ...]],
    sets: bool = False,
) -> dict[SeqState, int]:
    """``states`` after rank index ``ri`` without those that lack the canasta an opening asks
    and can no longer make it: no later rank's meld, no run (:func:`live_runs` gives the
    most sequence canastas each suit's runs can gain) and no wild meld can. No plan that
    follows them opens, so dropping them changes no answer. With ``sets``, a state whose
    runs cannot keeps the wild-card counts after which a wild meld still may."""
    later = hunt.later[ri]
    if later:
        return states
    gains: dict[int, bool] = {}
    out: dict[SeqState, int] = {}
    for key, pts in states.items():
        w, _left, tot, nat, _mix, sq, number, _free = key
        if (nat or sq) if hunt.natural else tot:
            out[key] = pts
            continue
        if (pts & hunt.wild_set == pts) if sets else hunt.wild[w]:
            out[key] = pts
            continue
        gain = gains.get(number)
        if gain is None:
            runs = table.runs[number]
            gain = gains[number] = sum(live[suit][ri][runs[suit]][2][GAIN_WILDS] for suit in range(4)) > 0
        if gain:
            out[key] = pts
        elif sets and pts & hunt.wild_set:
            out[key] = pts & hunt.wild_set
    return out


def _enough_sequences(
    states: dict[SeqState, int], need: int, W: int, ri: int, table: _RunTable, live: list[tuple[Live, ...]],
    most: dict[tuple[int, int], int], sets: bool = False,
) -> dict[SeqState, int]:
    """``states`` after rank index ``ri`` without those whose sequence canastas, with the most
    the suits' runs can still gain with the wild cards left (:func:`live_runs`; a bound),
    fall short of the ``need`` of going out: no plan that follows them goes out. ``most``
    receives that bound by (runs, wild cards left) for the states that lack the canastas.
    With ``sets``, a state keeps the wild-card counts after which its runs still may."""
    out: dict[SeqState, int] = {}
    for key, pts in states.items():
        sq = key[5]
        if sq >= need:
            out[key] = pts
            continue
        number = key[6]
        if sets:
            kept = 0
            for w in range(W + 1):
                if pts >> w & 1 and sq + _gain_with(most, table, live, ri, number, W - w) >= need:
                    kept |= 1 << w
            if kept:
                out[key] = kept
        elif sq + _gain_with(most, table, live, ri, number, W - key[0]) >= need:
            out[key] = pts
    return out


def _gain_with(
    most: dict[tuple[int, int], int], table: _RunTable, live: list[tuple[Live, ...]], ri: int, number: int, wilds: int,
) -> int:
    """:func:`_most_gained` of the runs numbered ``number`` in ``table`` after rank index
    ``ri`` with ``wilds`` wild cards left, kept in ``most`` by (runs, wild cards left)."""
    gain = most.get((number, wilds))
    if gain is None:
        runs = table.runs[number]
        gain = most[(number, wilds)] = _most_gained(tuple(live[suit][ri][runs[suit]][2] for suit in range(4)), wilds)
    return gain


@lru_cache(maxsize=65536)
def _most_gained(gains: tuple[tuple[int, ...], ...], wilds: int) -> int:
    """The most sequence canastas the suits' runs can gain together with ``wilds`` wild cards,
    each suit's ``gains`` by wild cards spent (:data:`Live`; :data:`NO_GAIN` where too few)."""
    if min(g[0] for g in gains) != NO_GAIN and (wilds == 0 or all(g[0] == g[GAIN_WILDS] for g in gains)):
        return sum(g[0] for g in gains)  # wild cards add nothing (or none are left)
    best = [0] + [NO_GAIN] * wilds  # by wild cards spent so far
    for g in gains:
        nxt = [NO_GAIN] * (wilds + 1)
        for spent, have in enumerate(best):
            if have == NO_GAIN:
                continue
            for x in range(min(GAIN_WILDS, wilds - spent) + 1):
                # x wild cards for this suit; the last column: as many as it wants
                gx = g[x] if x < GAIN_WILDS else g[GAIN_WILDS]
                if gx != NO_GAIN and nxt[spent + x] < have + gx:
                    nxt[spent + x] = have + gx
        best = nxt
    return max(best)


def _likeliest_out(
    states: dict[SeqState, int], most: int, need: int, W: int, potential: dict[tuple[int, int], int],
) -> dict[SeqState, int]:
    """The ``most`` states a narrow search for a way out keeps: those that can still make the
    most of the ``need`` sequence canastas going out asks (``potential``, by runs and wild
    cards left, from :func:`_enough_sequences`), then those with the fewest cards left and
    wild cards spent (every card must find a meld), then by :func:`_promise`."""

    def order(item: tuple[SeqState, int]) -> tuple[int, ...]:
        (w, left, _tot, _nat, _mix, sq, number, _free), _pts = item
        return (-min(need, sq + potential.get((number, W - w), need)), w, left, *_promise(item))

    return dict(sorted(states.items(), key=order)[:most])


def _promise(item: tuple[SeqState, int]) -> tuple[int, ...]:
    """The order in which a narrow search keeps states (see :func:`sequence_outcomes`): the
    most natural and sequence canastas (which an opening may ask), canastas and points, the
    fewest cards left; then by the state, so that the choice never depends on the order the
    states were found in."""
    (w, left, tot, nat, mix, sq, number, free), pts = item
    return -nat - sq, -tot, -pts, left, w, mix, number, free


def _pooled_promise(item: tuple[Pooled, int]) -> tuple[int, ...]:
    """:func:`_promise` of a state with its pool (between the suits' steps of a rank)."""
    (w, left, tot, nat, mix, sq, number, free, pool), pts = item
    return -nat - sq, -tot, -pts, left, w, mix, number, free, pool


def _suit_pass(
    r: Rules, table: _RunTable, pooled: dict[Pooled, int], rank: int, suit: int, avail: int,
    here: tuple[tuple[int, int], ...], grow: bool, W: int, cap: tuple[int, int, int, int, int],
    alive: Live | None, sets: bool = False,
) -> dict[Pooled, int]:
    """One suit's step of :func:`sequence_outcomes` at ``rank``: its runs take the suit's
    ``avail`` cards of the rank (:func:`suit_steps`), the rest join the pool.
    ``alive``: the suit's runs that can still end, with the wild cards they still need
    and their stand-ins (see :func:`live_runs`; None: keep every state). ``sets``: the
    states' values are sets of wild-card counts (:func:`_suit_sets`)."""
    if not avail and not here and not any(
        run[1] <= rank for number in {key[6] for key in pooled} for run in table.runs[number][suit]
    ):
        return pooled  # nothing happens to this suit at this rank, in any state
    if sets:
        return _suit_sets(r, table, pooled, rank, suit, avail, here, grow, W, cap, alive)
    val = r.value[rank]
    cap0, cap4 = cap[0], cap[4]
    nxt: dict[Pooled, int] = {}
    # the steps of each runs by suit met (many states share them): (runs after, cards used,
    # sequence canastas gained, free, wild cards used, wild cards the suit's runs need after)
    steps_of: dict[int, list[tuple[int, int, int, bool, int, int]]] = {}
    mine_steps: dict[tuple[Run, ...], list[Any]] = {}
    for key, pts in pooled.items():
        w, left, tot, nat, mix, sq, number, free, pool = key
        steps = steps_of.get(number)
        if steps is None:
            steps = steps_of[number] = _numbered_steps(r, table, number, rank, suit, avail, here, grow, alive, mine_steps)
        for after, used, gained, freed, wused, need in steps:
            w2 = w + wused  # wild cards in sequences (sequences.wild_in_gap) come from the same hand
            if w2 + need > W:
                continue
            t2 = tot + gained
            sq2 = sq + gained
            k2 = (w2, left, t2 if t2 < cap0 else cap0, nat, mix, sq2 if sq2 < cap4 else cap4, after,
                  free or freed, pool + avail - used)
            p2 = pts + used * val
            if nxt.get(k2, -1) < p2:
                nxt[k2] = p2
    return nxt


def _suit_sets(
    r: Rules, table: _RunTable, pooled: dict[Pooled, int], rank: int, suit: int, avail: int,
    here: tuple[tuple[int, int], ...], grow: bool, W: int, cap: tuple[int, int, int, int, int],
    alive: Live | None,
) -> dict[Pooled, int]:
    """:func:`_suit_pass` where each state's value is the set of wild-card counts it may
    have used (bit ``w``: ``w`` used; see :func:`sequence_outcomes`): a step that lays
    wild cards in the suit's runs moves each count up by as many, and keeps those that
    leave the wild cards the runs still need."""
    cap0, cap4 = cap[0], cap[4]
    nxt: dict[Pooled, int] = {}
    steps_of: dict[int, list[tuple[int, int, int, bool, int, int]]] = {}
    mine_steps: dict[tuple[Run, ...], list[Any]] = {}
    for key, used_set in pooled.items():
        _w, left, tot, nat, mix, sq, number, free, pool = key
        steps = steps_of.get(number)
        if steps is None:
            steps = steps_of[number] = _numbered_steps(r, table, number, rank, suit, avail, here, grow, alive, mine_steps)
        for after, used, gained, freed, wused, need in steps:
            # the counts w with w + wused + need <= W
            s2 = (used_set << wused) & ((1 << max(0, W - need + 1)) - 1)
            if not s2:
                continue
            t2 = tot + gained
            sq2 = sq + gained
            k2 = (0, left, t2 if t2 < cap0 else cap0, nat, mix, sq2 if sq2 < cap4 else cap4, after,
                  free or freed, pool + avail - used)
            nxt[k2] = nxt.get(k2, 0) | s2
    return nxt


def _numbered_steps(
    r: Rules, table: _RunTable, number: int, rank: int, suit: int, avail: int,
    here: tuple[tuple[int, int], ...], grow: bool, alive: Live | None, mine_steps: dict[tuple[Run, ...], list[Any]],
) -> list[tuple[int, int, int, bool, int, int]]:
    """:func:`suit_steps` of one suit of the runs numbered ``number`` in ``table``, with the
    runs after them numbered; only those that can still end (``alive``, where given), each
    with the wild cards the suit's runs still need (0 where not known) and put as its
    stand-in (the runs with the same ways on, :func:`live_runs`). ``mine_steps`` keeps the
    suit's own steps by its runs, for this suit and rank (many runs by suit share them)."""
    runs = table.runs[number]
    mine = runs[suit]
    steps = mine_steps.get(mine)
    if steps is None:
        steps = mine_steps[mine] = _suit_steps(r, mine, rank, avail, here, grow, alive)
    before, beyond = runs[:suit], runs[suit + 1:]
    return [
        (table.number((*before, after, *beyond)), used, gained, freed, wused, need)
        for after, used, gained, freed, wused, need in steps
    ]


def _suit_steps(
    r: Rules, mine: tuple[Run, ...], rank: int, avail: int, here: tuple[tuple[int, int], ...], grow: bool,
    alive: Live | None,
) -> list[tuple[tuple[Run, ...], int, int, bool, int, int]]:
    """The steps of one suit's runs ``mine`` at ``rank``, as :func:`_numbered_steps` gives
    them but with the suit's runs after each in place of the number of the whole."""
    if not avail and not here and not any(run[1] <= rank for run in mine):
        # nothing happens to this suit at this rank
        if alive is None:
            return [(mine, 0, 0, False, 0, 0)]
        need, stand_in, _gain = alive[mine]
        return [(stand_in, 0, 0, False, 0, need)]
    out = []
    for after, used, gained, freed, wused in suit_steps(r, mine, rank, avail, here, grow):
        need = 0
        if alive is not None:
            got = alive.get(after)
            if got is None:
                continue
            need, after, _gain = got
        out.append((after, used, gained, freed, wused, need))
    return out


def _meld_pass(
    r: Rules, pooled: dict[Pooled, int], rank: int, melds: tuple[MeldGroup, ...], oi: int,
    W: int, cap: tuple[int, int, int, int, int], max_left: int, dead: int, complete: int, late: bool,
    sets: bool = False,
) -> dict[SeqState, int]:
    """The meld step of :func:`sequence_outcomes` at ``rank``: the side's meld of the rank
    (``melds[oi]``, or a new one) takes some of the pool, the rest stays in hand. ``sets``:
    the states' values are sets of wild-card counts, each moved up by the wild cards laid."""
    val = r.value[rank]
    every = (1 << (W + 1)) - 1  # the counts of wild cards a hand may use
    dup = r.dup_after_complete
    cap0, cap1, cap2 = cap[0], cap[1], cap[2]
    out: dict[SeqState, int] = {}
    # the options by pool (few pools, many states): (wild cards, cards left, canasta
    # changes, points, whether a card is laid)
    by_pool: dict[int, list[tuple[int, int, int, int, int, int, bool]]] = {}
    for (w, left, tot, nat, mix, sq, runs, free, c), pts in pooled.items():
        opts = by_pool.get(c)
        if opts is None:
            opts = by_pool[c] = [
                (x, c - a, dt, dn, dm, a * val, a > 0)
                for a, x, dt, dn, dm in (
                    options_at(r, rank, c, melds, oi, W, dup, dead, complete, late) if oi >= 0 or c else NOTHING
                )
            ]
        for x, kept, dt, dn, dm, gain, laid in opts:
            if sets:
                w2, p2 = 0, (pts << x) & every
                if not p2:
                    continue
            else:
                w2, p2 = w + x, pts + gain
                if w2 > W:
                    continue
            l2 = left + kept
            if l2 > max_left:
                if max_left < 2:
                    continue
                l2 = 2
            t2 = tot + dt
            n2 = nat + dn
            m2 = mix + dm
            k2 = (w2, l2, t2 if t2 < cap0 else cap0, n2 if n2 < cap1 else cap1, m2 if m2 < cap2 else cap2, sq,
                  runs, free or laid)
            if sets:
                out[k2] = out.get(k2, 0) | p2
            elif out.get(k2, -1) < p2:
                out[k2] = p2
    return out
