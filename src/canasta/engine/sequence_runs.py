"""One suit's runs in the sequence search: what they can do at each rank, and which can end.

:func:`suit_steps` gives the steps of one suit's runs at one rank;
:func:`live_runs` works out, for a suit's cards in hand, the runs after each
rank from which the suit can still end every run legally, with the wild cards
they need and the sequence canastas they can still gain. The search of
:mod:`canasta.engine.sequence_search` reads both.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from canasta.engine.tables import Rules

__all__ = ["GAIN_WILDS", "NO_GAIN", "Live", "Run", "live_runs", "runs_end", "suit_steps"]


# A run of a sequence being built in the search (:func:`~canasta.engine.sequence_search.sequence_outcomes`): (cards, the rank it
# takes next, cards it had on the table before: 0 for a run from the hand,
# which must reach sequences.min_size on its own, hand cards laid at its upper
# end that may yet bridge it to the next sequence: only where sequences.join
# joins two, else 0, its wild card: 0 none, 1 one between two of its natural
# cards, 2 one just laid, which the next rank's natural card must follow).
Run = tuple[int, int, int, int, int]

#: The runs of one suit that can still end after a rank, each with the fewest wild cards
#: they still need, their stand-in and the most sequence canastas they can still gain with
#: at most 0, 1, ... :data:`GAIN_WILDS` - 1 wild cards and with any number (:func:`live_runs`).
Live = dict[tuple[Run, ...], tuple[int, tuple[Run, ...], tuple[int, ...]]]

#: How far :data:`Live` counts the wild cards a suit's runs spend on their gains: past
#: this many the gain with any number of wild cards stands in (a bound).
GAIN_WILDS = 4
#: A gain that no way on reaches with so few wild cards.
NO_GAIN = -99



@lru_cache(maxsize=65536)
def suit_steps(
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
    waiting = tuple(run for run in runs if run[1] > rank)
    due = [run for run in runs if run[1] <= rank]
    out: dict[tuple[tuple[Run, ...], int, bool, int], int] = {}
    for pick in product(*_run_choices(r, due, rank, len(starts), grow)):
        takes = pick.count(0)
        if takes > avail:
            continue
        joined = [p - 2 for p in pick if p >= 2]
        if len(set(joined)) != len(joined):
            continue
        after: list[Run] = list(waiting)
        got = _picked(r, due, pick, rank, grow, after)
        if got is None:
            continue
        gained, free, joins = got
        more = _joined_starts(r, starts, joins, grow, after)
        if more is None:
            continue
        gained += more
        wilds = pick.count(-1)
        for new in range(0, (avail - takes if seq_ok else 0) + 1):
            runs_after = tuple(sorted(after + [(1, rank + 1, 0, 0, 0)] * new))
            key = (runs_after, takes + new, free or new > 0, wilds)
            if out.get(key, -1) < gained:
                out[key] = gained
    return tuple(
        (runs_after, used, gained, free, wilds) for (runs_after, used, free, wilds), gained in out.items()
    )


def _is_canasta(r: Rules, n: int) -> int:
    """1 if a sequence of ``n`` cards is a canasta, else 0."""
    return 1 if n >= r.seq_canasta else 0


def _run_choices(r: Rules, due: list[Run], rank: int, n_starts: int, grow: bool) -> list[tuple[int, ...]]:
    """What each run ``due`` at ``rank`` may do (:func:`suit_steps`): 0 takes a card, 1 ends,
    2 + j joins the j-th open sequence starting at ``rank``, -1 takes a wild card (a run
    from the hand, with none yet, that a natural card may still follow)."""
    seq_ok = r.in_seq[rank]
    most = None if grow else r.seq_max
    gap_ok = r.seq_wild and seq_ok
    joins_here = tuple(range(2, 2 + n_starts))
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
    return choices


def _picked(
    r: Rules, due: list[Run], pick: tuple[int, ...], rank: int, grow: bool, after: list[Run],
) -> tuple[int, bool, dict[int, int]] | None:
    """The runs ``due`` at ``rank`` doing what ``pick`` says (:func:`_run_choices`): the runs
    that go on are added to ``after``; returns the sequence canastas gained, whether a
    card laid here is free (:func:`suit_steps`) and the joins made (the cards of the run
    joining each open sequence), or None where the pick is not legal."""
    join = r.seq_join
    most = None if grow else r.seq_max
    gained = 0
    free = False
    joins: dict[int, int] = {}
    for run, p in zip(due, pick, strict=True):
        n, _next, orig, up, gap = run
        if p == 0:
            if n + 1 == most:  # closed: it takes no more cards, nor joins another
                gained += _is_canasta(r, n + 1) - _is_canasta(r, orig)
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
            if orig == 0 and n < r.seq_min:
                return None
            gained += _is_canasta(r, n) - _is_canasta(r, orig)
            free = free or up > 0
        else:
            # a run ending just below: one from the hand (the sequence grows down), or,
            # where sequences.join joins them, one of the side's sequences grown up to it
            # (the cards laid on its upper end bridged the two: laid before the join)
            if run[1] != rank or (orig and not join):
                return None
            joins[p - 2] = n
            # the joined sequence is one: the lower one's canasta, if it was one, is no more
            gained -= _is_canasta(r, orig)
    return gained, free, joins


def _joined_starts(
    r: Rules, starts: tuple[tuple[int, int], ...], joins: dict[int, int], grow: bool, after: list[Run],
) -> int | None:
    """The side's open sequences starting at this rank (``starts``), each grown down by the
    run that joins it (``joins``): those that go on are added to ``after``; returns the
    sequence canastas gained, or None where one would pass its closing size."""
    most = None if grow else r.seq_max
    gained = 0
    for j, (high, size) in enumerate(starts):
        n = size + joins.get(j, 0)
        if most is not None and n > most:
            return None
        if n == most:
            gained += _is_canasta(r, n) - _is_canasta(r, size)
        else:
            after.append((n, high + 1, size, 0, 0))
    return gained


@lru_cache(maxsize=4096)
def live_runs(
    r: Rules, avail: tuple[int, ...], starts: tuple[tuple[int, tuple[tuple[int, int], ...]], ...], grow: bool,
) -> tuple[Live, ...]:
    """The runs of one suit from which that suit alone can still end every run legally,
    each with the fewest wild cards it still needs and the runs that stand for it.

    ``avail``: the suit's cards in hand at each rank of ``r.natural_kinds``;
    ``starts``: its open sequences by lowest rank (see :func:`suit_steps`).
    Returns, for each of those ranks, the runs after it from which some way
    on, rank by rank, ends with every run long enough (:func:`runs_end`),
    each mapped to ``(wild cards, stand-in, canastas)``: the fewest wild cards
    such a way lays in the suit's runs (``sequences.wild_in_gap``; 0 without),
    the first (in sort order) of the runs with the same ways on, and the most
    sequence canastas a way on gains with at most 0, 1, ... wild cards and with
    any number (see :data:`Live`; for an opening that needs a natural canasta,
    which a sequence canasta is, :func:`~canasta.engine.sequence_search._hopeful`, and for going out,
    :func:`~canasta.engine.sequence_search._enough_sequences`). Two runs have the
    same ways on when every later rank offers both the same steps (cards used,
    sequence canastas gained, free, wild cards) to runs that again have the
    same ways on, and both end alike; what the suit does afterwards, and so
    every outcome of the search, is then the same from either, and
    :func:`~canasta.engine.sequence_search.sequence_outcomes` keeps only the stand-in (with the better of the
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
                edges[runs] = suit_steps(r, runs, rank, n, here, grow)
        steps.append(edges)
        now = {step[0] for ends in edges.values() for step in ends}
    # the runs alive after the last rank, by how they end (canastas gained; a
    # card laid on an upper end, which frees the plan where sequences.join joins)
    ways: dict[tuple[Run, ...], object] = {}
    ending: dict[tuple[Run, ...], tuple[int, ...]] = {}
    for runs in now:
        gained = runs_end(r, runs)
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


def runs_end(r: Rules, runs: tuple[Run, ...]) -> int:
    """Sequence canastas the runs gain when they all end, or -1 if a run from the hand is too short."""
    gained = 0
    for n, _next, orig, _up, gap in runs:
        if (orig == 0 and n < r.seq_min) or gap == 2:  # too short, or ending on its wild card
            return -1
        gained += (n >= r.seq_canasta) - (orig >= r.seq_canasta)
    return gained
