"""The turn oracle's search where the variant has sequences: :func:`sequence_outcomes`.

The same dynamic programme as :func:`canasta.engine.searches.outcomes`, over
exact cards instead of ranks, since a sequence needs the suits: rank by rank,
each suit's runs take that suit's cards, then the side's meld of the rank takes
the rest; the wild melds and black 3s close each plan as in the rank search.
States that can no longer end legally, or that another state dominates, are
dropped on the way (not with ``CANASTA_PLAIN_RULES=1``), so the search stays
small on long hands.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, NamedTuple

from canasta.engine.facts import (
    OPEN_NATURAL_CANASTA,
    OPEN_NO_CANASTA,
    holds_opening_canasta,
)
from canasta.engine.fastpaths import PLAIN_RULES
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
from canasta.engine.state import (
    MeldGroup,
)

if TYPE_CHECKING:
    from canasta.engine.tables import Rules

__all__ = ["sequence_outcomes"]


# A run of a sequence being built in the search below: (cards, the rank it
# takes next, cards it had on the table before: 0 for a run from the hand,
# which must reach sequences.min_size on its own, hand cards laid at its upper
# end that may yet bridge it to the next sequence: only where sequences.join
# joins two, else 0, its wild card: 0 none, 1 one between two of its natural
# cards, 2 one just laid, which the next rank's natural card must follow).
Run = tuple[int, int, int, int, int]

#: The runs of one suit that can still end after a rank, each with the fewest wild cards
#: they still need, their stand-in and the most sequence canastas they can still gain with
#: at most 0, 1, ... :data:`GAIN_WILDS` - 1 wild cards and with any number (:func:`_live_runs`).
Live = dict[tuple[Run, ...], tuple[int, tuple[Run, ...], tuple[int, ...]]]

#: How far :data:`Live` counts the wild cards a suit's runs spend on their gains: past
#: this many the gain with any number of wild cards stands in (a bound).
GAIN_WILDS = 4
#: A gain that no way on reaches with so few wild cards.
NO_GAIN = -99



@lru_cache(maxsize=65536)
def _suit_steps(
    r: Rules, runs: tuple[Run, ...], rank: int, avail: int, starts: tuple[tuple[int, int], ...],
    grow: bool = False,
) -> tuple[tuple[tuple[Run, ...], int, int, bool, int], ...]:
    """What one suit's runs can do at ``rank``, with ``avail`` cards of that suit and rank in hand.

    ``starts``: the side's open sequences of the suit whose lowest rank is
    ``rank``, as ``(highest rank, cards)``; a run from the hand that ends just
    below one may join it (a sequence grows at both ends), and so may one of
    the side's sequences where ``sequences.join`` joins two. With ``grow``
    (going out, under ``sequences.grow_when_going_out``) no sequence closes:
    only the window stops it. Returns ``(runs after, cards used, sequence
    canastas gained, free, wild cards used)``, each once; ``free``: a hand
    card laid here can be the last card laid (it bridges no join, which must
    come after it). Where ``sequences.wild_in_gap`` allows it, a run from the
    hand may take a wild card for this rank, once, between two natural cards.
    """
    seq_ok = r.in_seq[rank]
    join = r.seq_join
    most = None if grow else r.seq_max
    smallest = r.seq_min
    gap_ok = r.seq_wild and seq_ok

    def is_c(n: int) -> int:
        return 1 if n >= r.seq_canasta else 0

    waiting = tuple(run for run in runs if run[1] > rank)
    due = [run for run in runs if run[1] <= rank]
    out: dict[tuple[tuple[Run, ...], int, bool, int], int] = {}
    joins_here = tuple(range(2, 2 + len(starts)))
    # each run due at this rank: 0 takes a card, 1 ends, 2 + j joins starts[j], -1 takes a
    # wild card (a run from the hand, with none yet, that a natural card may still follow)
    choices: list[tuple[int, ...]] = []
    for run in due:
        if run[4] == 2:
            # a wild card just laid: the natural card of this rank must follow it
            choices.append((0,) if run[1] == rank and seq_ok else ())
        elif run[1] == rank and seq_ok:
            wild = gap_ok and run[2] == 0 and run[4] == 0 and (most is None or run[0] + 2 <= most)
            choices.append((0, 1, *((-1,) if wild else ()), *(joins_here if run[4] == 0 else ())))
        else:
            choices.append((1, *(joins_here if run[4] == 0 else ())))
    for pick in product(*choices):
        takes = pick.count(0)
        if takes > avail:
            continue
        wilds = pick.count(-1)
        joined = [p - 2 for p in pick if p >= 2]
        if len(set(joined)) != len(joined):
            continue
        after: list[Run] = list(waiting)
        gained = 0
        free = False
        valid = True
        joins: dict[int, int] = {}
        for run, p in zip(due, pick, strict=True):
            n, _next, orig, up, gap = run
            if p == 0:
                if n + 1 == most:  # closed: it takes no more cards, nor joins another
                    gained += is_c(n + 1) - is_c(orig)
                    free = True
                elif join and orig:
                    # laid on one of the side's sequences: it may yet bridge a join
                    after.append((n + 1, rank + 1, orig, up + 1, 0))
                else:
                    after.append((n + 1, rank + 1, orig, 0, 1 if gap else 0))
                    free = True
            elif p == -1:
                after.append((n + 1, rank + 1, 0, 0, 2))
                free = True
            elif p == 1:
                if orig == 0 and n < smallest:
                    valid = False
                    break
                gained += is_c(n) - is_c(orig)
                free = free or up > 0
            else:
                # a run ending just below: one from the hand (the sequence grows down), or,
                # where sequences.join joins them, one of the side's sequences grown up to it
                # (the cards laid on its upper end bridged the two: laid before the join)
                if run[1] != rank or (orig and not join):
                    valid = False
                    break
                joins[p - 2] = n
                # the joined sequence is one: the lower one's canasta, if it was one, is no more
                gained -= is_c(orig)
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
                after.append((n, high + 1, size, 0, 0))
        if not valid:
            continue
        for new in range(0, (avail - takes if seq_ok else 0) + 1):
            runs_after = tuple(sorted(after + [(1, rank + 1, 0, 0, 0)] * new))
            key = (runs_after, takes + new, free or new > 0, wilds)
            if out.get(key, -1) < gained:
                out[key] = gained
    return tuple(
        (runs_after, used, gained, free, wilds) for (runs_after, used, free, wilds), gained in out.items()
    )


@lru_cache(maxsize=4096)
def _live_runs(
    r: Rules, avail: tuple[int, ...], starts: tuple[tuple[int, tuple[tuple[int, int], ...]], ...], grow: bool,
) -> tuple[Live, ...]:
    """The runs of one suit from which that suit alone can still end every run legally,
    each with the fewest wild cards it still needs and the runs that stand for it.

    ``avail``: the suit's cards in hand at each rank of ``r.natural_kinds``;
    ``starts``: its open sequences by lowest rank (see :func:`_suit_steps`).
    Returns, for each of those ranks, the runs after it from which some way
    on, rank by rank, ends with every run long enough (:func:`_runs_end`),
    each mapped to ``(wild cards, stand-in, canastas)``: the fewest wild cards
    such a way lays in the suit's runs (``sequences.wild_in_gap``; 0 without),
    the first (in sort order) of the runs with the same ways on, and the most
    sequence canastas a way on gains with at most 0, 1, ... wild cards and with
    any number (see :data:`Live`; for an opening that needs a natural canasta,
    which a sequence canasta is, :func:`_hopeful`, and for going out,
    :func:`_enough_sequences`). Two runs have the
    same ways on when every later rank offers both the same steps (cards used,
    sequence canastas gained, free, wild cards) to runs that again have the
    same ways on, and both end alike; what the suit does afterwards, and so
    every outcome of the search, is then the same from either, and
    :func:`sequence_outcomes` keeps only the stand-in (with the better of the
    two states). It drops the runs not listed, and states with fewer wild
    cards left than their runs need: the suits share only wild cards, so no
    state dropped could have ended. A run from the hand too short to end can
    live on only where the next ranks hold that suit's cards (or wild cards
    stand in); without this, such runs of every suit multiply each other's
    states, and so do runs of different lengths with the same ways on.
    """
    ranks = r.natural_kinds
    opened = dict(starts)
    empty: tuple[Run, ...] = ()
    steps: list[dict[tuple[Run, ...], tuple[tuple[tuple[Run, ...], int, int, bool, int], ...]]] = []
    now: set[tuple[Run, ...]] = {empty}
    for rank, n in zip(ranks, avail, strict=True):
        here = opened.get(rank, ())
        edges: dict[tuple[Run, ...], tuple[tuple[tuple[Run, ...], int, int, bool, int], ...]] = {}
        for runs in now:
            if not n and not here and not any(run[1] <= rank for run in runs):
                edges[runs] = ((runs, 0, 0, False, 0),)  # nothing happens at this rank (as sequence_outcomes skips it)
            else:
                edges[runs] = _suit_steps(r, runs, rank, n, here, grow)
        steps.append(edges)
        now = {step[0] for ends in edges.values() for step in ends}
    # the runs alive after the last rank, by how they end (canastas gained; a
    # card laid on an upper end, which frees the plan where sequences.join joins)
    ways: dict[tuple[Run, ...], object] = {}
    ending: dict[tuple[Run, ...], tuple[int, ...]] = {}
    for runs in now:
        gained = _runs_end(r, runs)
        if gained >= 0:
            ways[runs] = (gained, any(run[3] for run in runs))
            ending[runs] = (gained,) * (GAIN_WILDS + 1)
    alive = _stand_ins(ways, dict.fromkeys(ways, 0), ending)
    out = [alive] * len(ranks)
    for i in range(len(ranks) - 1, 0, -1):
        # alive after rank i-1: some step at rank i leads to runs alive after rank i
        needs: dict[tuple[Run, ...], int] = {}
        gains: dict[tuple[Run, ...], tuple[int, ...]] = {}
        ways = {}
        for runs, ends in steps[i].items():
            on = set()
            best = [NO_GAIN] * (GAIN_WILDS + 1)
            for after, used, gained, freed, wused in ends:
                got = alive.get(after)
                if got is not None:
                    need, stand_in, gain = got
                    on.add((used, gained, freed, wused, stand_in))
                    if needs.get(runs, 99) > wused + need:
                        needs[runs] = wused + need
                    _add_gains(best, gain, gained, wused)
            if on:
                ways[runs] = frozenset(on)
                gains[runs] = tuple(best)
        alive = _stand_ins(ways, needs, gains)
        out[i - 1] = alive
    return tuple(out)


def _add_gains(best: list[int], later: tuple[int, ...], gained: int, wused: int) -> None:
    """Raise ``best`` (the most sequence canastas by wild cards spent, see :data:`Live`) by a
    step that gains ``gained`` and spends ``wused`` wild cards, to runs that gain ``later``."""
    for x in range(wused, GAIN_WILDS):
        g = later[x - wused]
        if g != NO_GAIN and best[x] < gained + g:
            best[x] = gained + g
    g = later[GAIN_WILDS]  # any number of wild cards, before and after
    if g != NO_GAIN and best[GAIN_WILDS] < gained + g:
        best[GAIN_WILDS] = gained + g


def _stand_ins(
    ways: dict[tuple[Run, ...], object], needs: dict[tuple[Run, ...], int],
    gains: dict[tuple[Run, ...], tuple[int, ...]],
) -> Live:
    """Each of ``ways``' runs with its wild cards needed, the first runs with the same ways on,
    and the most sequence canastas it can gain."""
    first: dict[object, tuple[Run, ...]] = {}
    for runs in sorted(ways):
        first.setdefault(ways[runs], runs)
    return {runs: (needs[runs], first[way], gains[runs]) for runs, way in ways.items()}


def _runs_end(r: Rules, runs: tuple[Run, ...]) -> int:
    """Sequence canastas the runs gain when they all end, or -1 if a run from the hand is too short."""
    gained = 0
    for n, _next, orig, _up, gap in runs:
        if (orig == 0 and n < r.seq_min) or gap == 2:  # too short, or ending on its wild card
            return -1
        gained += (n >= r.seq_canasta) - (orig >= r.seq_canasta)
    return gained


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


def _undominated(states: dict[SeqState, int]) -> dict[SeqState, int]:
    """``states`` without those another state beats: the same wild cards used, cards left
    and runs, and at least as many canastas of each count, as free, and as many points.

    Every later step (canastas added, capped; ``free or ...``; points added) and
    every test at the end (thresholds on the counts, a plan not bridged) keeps
    that order, so whatever plan follows a state beaten here follows the state
    that beats it as well, with an outcome as good: the same cards left, the
    canastas going out needs met whenever they are in the other, and as many
    points. Without this, each count the plans can reach multiplies the states
    of every combination of runs.
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
                    k[0] >= tot and k[1] >= nat and k[2] >= mix and k[3] >= sq and k[4] >= free and k[5] >= pts
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
    prune: bool = not PLAIN_RULES,
    sizes: list[int] | None = None,
    most: int = 0,
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

    The states that cannot end (:func:`_live_runs`) and those another beats
    (:func:`_undominated`) are dropped as they arise, which keeps the search
    to a few states per combination of runs that can still end. So an entry
    whose canastas fall short of going out's (``False`` in the key) may be
    missing where the entry with the same cards left and black 3s that meets
    them holds at least its points: every question asked of the map reads that
    entry as at least as good. A search for a way out (``max_left`` 1) is read
    only where it meets going out's canastas, so it drops the states that can no
    longer make the sequence canastas going out asks (:func:`_enough_sequences`)
    and may give no entry that falls short. With ``prune`` false, the plain search, which
    keeps every state (the tests compare the two); it is the default where the
    fast paths are off (:mod:`canasta.engine.fastpaths`). ``sizes`` (on an uncached
    call, ``sequence_outcomes.__wrapped__``) receives the most states the
    search held at each rank: what its work grows with.

    ``most``: a narrow search, which keeps at most this many states after each
    rank, and four times as many between the suits' steps (0: every state):
    those with the most canastas of the kinds an opening asks, then the most
    canastas and points, the fewest cards left (in a search for a way out that
    needs sequence canastas: :func:`_likeliest_out`). Each entry it gives is a plan's that the full search
    finds too, with as many points, though it may miss entries: a quick way to
    find a plan that answers a question (:func:`~canasta.engine.oracle.can_go_out`
    asks the full search only where the narrow one finds none).
    """
    counts = count_kinds(hand)
    prefix = wild_prefix(r, counts)
    W = len(prefix) - 1
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
         min(base[4], cap[4]), table.number((empty,) * 4), not r.seq_join or not hand): 0
    }
    ranks = r.natural_kinds
    # the runs each suit can still end legally after each rank (the other states lead nowhere)
    live = [
        _live_runs(r, tuple(by_code[k * 4 + suit] for k in ranks),
                   tuple((k, tuple(starts.get((suit, k), ()))) for k in ranks if (suit, k) in starts), grow)
        for suit in range(4)
    ] if prune else None
    index = info.index
    # an opening that asks a canasta the side's melds lack: where each state can still make one
    hunt = _canasta_hunt(r, counts, info, base, opening, W) if prune else None
    # plans that go out (max_left 1) are read only where they hold the sequence canastas going
    # out needs: the states that can no longer make them lead to no entry that is read
    seq_need = min(r.req[4], cap[4]) if prune and max_left <= 1 else 0
    for ri, rank in enumerate(ranks):
        # each suit in turn: its runs, and the cards left for the meld of the rank (the pool)
        pooled: dict[Pooled, int] = {(*key, 0): pts for key, pts in states.items()}
        held = len(pooled)
        for suit in range(4):
            pooled = _suit_pass(
                r, table, pooled, rank, suit, by_code[rank * 4 + suit], tuple(starts.get((suit, rank), ())),
                grow, W, cap, None if live is None else live[suit][ri],
            )
            held = max(held, len(pooled))
            if most and len(pooled) > most * 4:
                # a narrow search keeps few of the suits' steps too (each suit multiplies them)
                pooled = dict(sorted(pooled.items(), key=_pooled_promise)[:most * 4])
        # then the meld of the rank takes what the runs left
        states = _meld_pass(r, pooled, rank, melds, index.get(rank, -1), W, cap, max_left, dead, complete, late)
        if sizes is not None:
            sizes.append(max(held, len(states)))
        if prune:
            states = _undominated(states)
        if hunt is not None and live is not None:
            states = _hopeful(states, hunt, ri, table, live)
        potential: dict[tuple[int, int], int] | None = None
        if seq_need and live is not None:
            potential = {}
            states = _enough_sequences(states, seq_need, W, ri, table, live, potential)
        if most and len(states) > most:
            if potential:
                states = _likeliest_out(states, most, seq_need, W, potential)
            else:
                states = dict(sorted(states.items(), key=_promise)[:most])

    def ended() -> Iterator[tuple[int, int, int, int, int, int, int, int, bool]]:
        for (w, left, tot, nat, mix, sq, number, free), pts in states.items():
            runs = table.runs[number]
            gained = 0
            for suit_runs in runs:
                g = _runs_end(r, suit_runs)
                if g < 0:
                    break
                gained += g
            else:
                # a run that ends with cards laid on its upper end bridged no join: free
                free = free or any(run[3] for suit_runs in runs for run in suit_runs)
                yield w, left, min(cap[0], tot + gained), nat, mix, min(cap[4], sq + gained), pts, 0, not free

    return close_plans(r, counts, melds, allow_black, max_left, W, prefix, ended(), opening, complete)


class _Hunt(NamedTuple):
    """Where the canasta an opening asks may still come from (:func:`_canasta_hunt`)."""

    natural: bool  #: the opening asks a natural canasta (a wild or sequence one counts), else any
    later: tuple[bool, ...]  #: by rank index: a meld of a later rank may still make one
    wild: tuple[bool, ...]  #: by wild cards used: the wild cards left may still make a wild canasta


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
    return _Hunt(natural, later, wild)


def _hopeful(
    states: dict[SeqState, int], hunt: _Hunt, ri: int, table: _RunTable, live: list[tuple[Live, ...]],
) -> dict[SeqState, int]:
    """``states`` after rank index ``ri`` without those that lack the canasta an opening asks
    and can no longer make it: no later rank's meld, no run (:func:`_live_runs` gives the
    most sequence canastas each suit's runs can gain) and no wild meld can. No plan that
    follows them opens, so dropping them changes no answer."""
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
        if hunt.wild[w]:
            out[key] = pts
            continue
        gain = gains.get(number)
        if gain is None:
            runs = table.runs[number]
            gain = gains[number] = sum(live[suit][ri][runs[suit]][2][GAIN_WILDS] for suit in range(4)) > 0
        if gain:
            out[key] = pts
    return out


def _enough_sequences(
    states: dict[SeqState, int], need: int, W: int, ri: int, table: _RunTable, live: list[tuple[Live, ...]],
    most: dict[tuple[int, int], int],
) -> dict[SeqState, int]:
    """``states`` after rank index ``ri`` without those whose sequence canastas, with the most
    the suits' runs can still gain with the wild cards left (:func:`_live_runs`; a bound),
    fall short of the ``need`` of going out: no plan that follows them goes out. ``most``
    receives that bound by (runs, wild cards left) for the states that lack the canastas."""
    out: dict[SeqState, int] = {}
    for key, pts in states.items():
        sq = key[5]
        if sq >= need:
            out[key] = pts
            continue
        got = (key[6], W - key[0])
        gain = most.get(got)
        if gain is None:
            runs = table.runs[got[0]]
            gain = most[got] = _most_gained(tuple(live[suit][ri][runs[suit]][2] for suit in range(4)), got[1])
        if sq + gain >= need:
            out[key] = pts
    return out


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
    alive: Live | None,
) -> dict[Pooled, int]:
    """One suit's step of :func:`sequence_outcomes` at ``rank``: its runs take the suit's
    ``avail`` cards of the rank (:func:`_suit_steps`), the rest join the pool.
    ``alive``: the suit's runs that can still end, with the wild cards they still need
    and their stand-ins (see :func:`_live_runs`; None: keep every state)."""
    if not avail and not here and not any(
        run[1] <= rank for number in {key[6] for key in pooled} for run in table.runs[number][suit]
    ):
        return pooled  # nothing happens to this suit at this rank, in any state
    val = r.value[rank]
    cap0, cap4 = cap[0], cap[4]
    nxt: dict[Pooled, int] = {}
    # the steps of each runs by suit met (many states share them): (runs after, cards used,
    # sequence canastas gained, free, wild cards used, wild cards the suit's runs need after)
    steps_of: dict[int, list[tuple[int, int, int, bool, int, int]]] = {}
    for key, pts in pooled.items():
        w, left, tot, nat, mix, sq, number, free, pool = key
        steps = steps_of.get(number)
        if steps is None:
            steps = steps_of[number] = _numbered_steps(r, table, number, rank, suit, avail, here, grow, alive)
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


def _numbered_steps(
    r: Rules, table: _RunTable, number: int, rank: int, suit: int, avail: int,
    here: tuple[tuple[int, int], ...], grow: bool, alive: Live | None,
) -> list[tuple[int, int, int, bool, int, int]]:
    """:func:`_suit_steps` of one suit of the runs numbered ``number`` in ``table``, with the
    runs after them numbered; only those that can still end (``alive``, where given), each
    with the wild cards the suit's runs still need (0 where not known) and put as its
    stand-in (the runs with the same ways on, :func:`_live_runs`)."""
    runs = table.runs[number]
    mine = runs[suit]
    if not avail and not here and not any(run[1] <= rank for run in mine):
        # nothing happens to this suit at this rank
        if alive is None:
            return [(number, 0, 0, False, 0, 0)]
        need, stand_in, _gain = alive[mine]
        return [(table.number((*runs[:suit], stand_in, *runs[suit + 1:])), 0, 0, False, 0, need)]
    out = []
    for after, used, gained, freed, wused in _suit_steps(r, mine, rank, avail, here, grow):
        need = 0
        if alive is not None:
            got = alive.get(after)
            if got is None:
                continue
            need, after, _gain = got
        out.append((table.number((*runs[:suit], after, *runs[suit + 1:])), used, gained, freed, wused, need))
    return out


def _meld_pass(
    r: Rules, pooled: dict[Pooled, int], rank: int, melds: tuple[MeldGroup, ...], oi: int,
    W: int, cap: tuple[int, int, int, int, int], max_left: int, dead: int, complete: int, late: bool,
) -> dict[SeqState, int]:
    """The meld step of :func:`sequence_outcomes` at ``rank``: the side's meld of the rank
    (``melds[oi]``, or a new one) takes some of the pool, the rest stays in hand."""
    val = r.value[rank]
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
            w2 = w + x
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
            p2 = pts + gain
            if out.get(k2, -1) < p2:
                out[k2] = p2
    return out
