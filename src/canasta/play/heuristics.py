"""The bundled bots' decisions: :class:`RandomBot` and :class:`GreedyBot`.

They are used through :mod:`canasta.play.bots` (the :class:`~canasta.play.bots.Bot`
protocol, the registry by name) and ``canasta.GreedyBot``. This module is
compiled with the engine in the compiled build (``CANASTA_COMPILE=1``): a bot
decides at every move of a simulation, as the engine lists and applies moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from canasta.cards import parse_rank
from canasta.engine import BLACK_THREE, KIND, Rules, hand_counts
from canasta.engine.melds import MeldInfo
from canasta.engine.moves import (
    WILD_TARGET,
    Add,
    AddToSequence,
    Answer,
    Ask,
    Combine,
    Discard,
    Foot,
    LaySpecial,
    LayThree,
    Meld,
    MeldSequence,
    Move,
    Pass,
    TakePile,
    TakeSequence,
)
from canasta.engine.state import ANSWER, DRAW, PLAY, MeldGroup
from canasta.engine.view import SeatView, seat_facts, side_facts
from canasta.errors import CanastaError

__all__ = ["GreedyBot", "RandomBot"]



def _as_it_is(*_: Any, **__: Any) -> Any:
    """A class decorator that leaves the class as it is."""
    return lambda cls: cls


# mypyc reads this decorator (at build time, where mypy brings mypy_extensions)
# and applies none at run time; canasta does not depend on mypy_extensions, so
# where it is missing the name is a decorator that does nothing
try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - an environment without mypy
    mypyc_attr = _as_it_is


def _legal(view: SeatView) -> Sequence[Move]:
    moves = view.legal_moves()
    if not moves:
        raise CanastaError(f"seat {view.seat} has no legal move: it is not its turn")
    return moves


# A program may subclass the bundled bots (to change one of GreedyBot's ratings,
# say): compiled classes allow that only when told so.
@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Plays a uniformly random legal move: a baseline to measure other bots against."""

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """Pick one of the legal moves at random.

        Args:
            view: the seat's view; it is the seat's turn.
            rng: the random source.

        Returns:
            A legal move, each with the same chance.

        Raises:
            CanastaError: the seat has no legal move (it is not its turn).
        """
        moves = _legal(view)
        return moves[rng.randrange(len(moves))]


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyBot:
    """A one-move-ahead heuristic player, fast enough for simulations.

    * Draw phase: takes the pile whenever the rules let it, else draws; but not a
      pile whose top card would start, from fewer than four in hand, a meld that
      costs a penalty left unfinished (Modern American's aces and 7s).
    * Play phase, in order of preference: picks up its foot; goes out; asks the
      partner (only offered when it can go out this turn); melds black 3s (only offered
      when going out); combines two of its side's melds of a rank that make a
      canasta together (``melds.duplicate_ranks: any``); adds naturals to its
      side's melds, the largest first, and to a canasta only when it cannot
      start another meld of the rank;
      adds a wild card to a meld one or two cards short of a canasta; lays new
      natural melds; melds with wild cards when that helps meet the opening (the
      engine offers only melds from which the opening can still be met) or when
      it empties the hand; otherwise discards.
    * Discards: black 3s first (a stop card), then singletons of low value; it
      avoids wild cards, ranks its own side is melding, ranks the opponents have
      melded (they could lay the card off and take the pile), and ranks of which
      many copies are unseen (the next player may hold a pair) when the pile is
      big and not frozen against them.
    * Lays out a 3 it keeps in hand (``threes.keep_one``) at once, unless its hand is
      within two cards of a Straight (a special hand of single cards that needs a 3).
    * Answers ``yes`` to the partner when its own hand holds few points or its
      side is well ahead, else ``no``.
    """

    name = "greedy"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """Pick the move the heuristic rates best (ties: the first listed).

        Args:
            view: the seat's view; it is the seat's turn.
            rng: the random source (unused: the greedy bot is deterministic).

        Returns:
            A legal move.

        Raises:
            CanastaError: the seat has no legal move (it is not its turn).
        """
        moves = _legal(view)
        if len(moves) == 1:
            return moves[0]
        r = view.rules
        if view.phase == DRAW:
            return self._draw(moves, view, r)
        if view.phase == ANSWER:
            return self._answer(view, r, moves)
        if view.phase == PLAY:
            return self._play(view, r, moves)
        return moves[0]

    # -- phases -------------------------------------------------------------------

    @staticmethod
    def _draw(moves: Sequence[Move], view: SeatView, r: Rules) -> Move:
        for m in moves:
            if isinstance(m, LayThree) and not _keeps_three(r, view.hand_codes):
                return m
        order = {"layoff": 0, "pair": 1, "finish": 2, "wild": 3}
        takes = [m for m in moves if isinstance(m, (TakePile, TakeSequence))]
        risky = _risky(r)
        if takes and risky and view.pile_codes:
            top = KIND[view.pile_codes[-1]]
            side = r.side_of[view.seat]
            started = any(m.rank == top for m in view.melds[side])
            if top in risky and not started and hand_counts(view.hand_codes)[top] < 4:
                # a new meld of aces or 7s from a pair: short of a canasta it costs more
                # than most piles bring (Modern American)
                takes = [m for m in takes if not isinstance(m, TakePile)]
        if takes:
            # laying the top card off on a sequence costs no card from the hand, like a lay-off
            return min(takes, key=lambda m: order.get(m.way, 9) if isinstance(m, TakePile) else 0)
        for m in moves:
            if not isinstance(m, Pass):
                return m
        return moves[0]

    @staticmethod
    def _answer(view: SeatView, r: Rules, moves: Sequence[Move]) -> Move:
        side = r.side_of[view.seat]
        hand_points = sum(r.value[KIND[c]] for c in view.hand_codes)
        others = [x for i, x in enumerate(view.scores) if i != side]
        ahead = not others or view.scores[side] - max(others) >= 1000
        yes = hand_points <= 100 or len(view.hand_codes) <= 3 or ahead
        want = Answer(yes)
        return want if want in moves else moves[0]

    def _play(self, view: SeatView, r: Rules, moves: Sequence[Move]) -> Move:
        side = r.side_of[view.seat]
        hand = view.hand_codes
        # the hand's counts by kind and the side's open melds, as the listing of the
        # moves worked them out (not worked out again from the hand and the melds)
        counts, info = seat_facts(view)
        k = _Play(
            r, view.melds[side], info, not view.opened[side] or bool(view.turn.pending), len(hand),
            counts, _risky(r),
        )
        best: Move | None = None
        best_score = 0.0
        discards: list[Discard] = []
        for m in moves:
            if isinstance(m, Discard) and not m.out:
                discards.append(m)
                continue
            if isinstance(m, LayThree):
                if not _keeps_three(r, hand):
                    return m
                continue
            score = _rate(m, k)
            if score > best_score:
                best, best_score = m, score
        if best is not None:
            return best
        if discards:
            return self._discard(view, r, discards, counts, side)
        return moves[0]

    @staticmethod
    def _discard(
        view: SeatView, r: Rules, discards: Sequence[Discard], counts: Sequence[int], side: int
    ) -> Move:
        seen = [0] * 16
        for c in view.pile_codes:
            seen[KIND[c]] += 1
        own_ranks: set[int] = set()
        opp_ranks: set[int] = set()
        # the cards (code) that would grow an open sequence, the side's own or another's
        own_ends: set[int] = set()
        opp_ends: set[int] = set()
        for i, melds in enumerate(view.melds):
            kinds = _meld_kinds(melds)
            for kind in range(16):
                seen[kind] += kinds[kind]
            # each side's open melds as the engine keeps them (by the melds tuple):
            # the ranks of the open melds other than sequences, and the open sequences
            info = side_facts(view, i)
            (own_ranks if i == side else opp_ranks).update(info.open_ranks)
            ends = own_ends if i == side else opp_ends
            for _, suit, low, high in info.sequences:
                ends.update(((high + 1) * 4 + suit, (low - 1) * 4 + suit))
        nxt = (view.seat + 1) % r.n
        d = _Discarding(
            r, len(view.pile_codes), r.side_of[nxt] != side, view.pile_frozen_for(r.side_of[nxt]),
            counts, seen, own_ranks, opp_ranks, own_ends, opp_ends,
        )
        best: Discard = discards[0]
        best_cost = float("inf")
        for m in discards:
            cost = _discard_cost(m, d)
            if cost < best_cost:
                best, best_cost = m, cost
        return best


class _Play:
    """What the greedy bot's rating of a play-phase move reads, worked out once a decision."""

    __slots__ = ("counts", "info", "melds", "n_hand", "opening", "r", "risky")

    def __init__(
        self, r: Rules, melds: tuple[MeldGroup, ...], info: MeldInfo, opening: bool, n_hand: int,
        counts: tuple[int, ...], risky: frozenset[int],
    ) -> None:
        self.r = r
        #: the side's melds, and their facts (the open ones by rank)
        self.melds = melds
        self.info = info
        #: the side has not opened, or holds pile cards aside until it does
        self.opening = opening
        self.n_hand = n_hand
        #: the hand's cards by kind
        self.counts = counts
        self.risky = risky

    def open_meld(self, target: int, nth: int) -> MeldGroup | None:
        """The side's ``nth`` open meld of ``target`` (0: the first, in table order), or None."""
        ids = self.info.more.get(target)
        if ids is not None:  # several open melds of the rank (melds.duplicate_ranks: any)
            return self.melds[ids[nth]] if 0 <= nth < len(ids) else None
        i = self.info.index.get(target)
        return self.melds[i] if i is not None and nth == 0 else None


#: The play-phase moves rated the same whatever the position: a special hand ends the
#: hand with more points than any turn could lay; the foot; asking to go out.
_FIXED: dict[type[Move], float] = {LaySpecial: 2000.0, Foot: 1000.0, Ask: 900.0}


def _rate(m: Move, k: _Play) -> float:
    """How much the greedy bot wants ``m`` (a play-phase move other than a plain discard); <= 0: not at all."""
    # the commonest first: adds and new melds
    if isinstance(m, Add):
        return _rate_add(m, k)
    if isinstance(m, Meld):
        return _rate_meld(m, k)
    fixed = _FIXED.get(type(m))
    if fixed is not None:
        return fixed
    if isinstance(m, Discard):  # an 'out': better than asking, which may be refused
        return 950 - k.r.value[m.kind] / 100
    if isinstance(m, AddToSequence):
        # natural cards toward a sequence canasta (a samba): as good as growing a meld
        return 305 + (m.high - m.low)
    if isinstance(m, MeldSequence):
        # a wild card spent on a sequence (sequences.wild_in_gap) is one fewer for a canasta of a rank
        return 265 if m.wild else 275
    if isinstance(m, Combine):
        # two melds of a rank that make a canasta together, and neither is one yet
        first, second = k.open_meld(m.target, m.first), k.open_meld(m.target, m.second)
        if first is None or second is None:
            return 0
        size = k.r.canasta_size
        return 310 if first.size < size and second.size < size <= first.size + second.size else 0
    return 0


def _rate_add(m: Add, k: _Play) -> float:
    """An add: naturals to the largest open meld first, a wild card to one short of a canasta."""
    r = k.r
    meld = k.open_meld(m.target, m.meld)
    size = meld.size if meld is not None else 0
    size_to_canasta = r.canasta_size
    if not r.is_wild[m.kind]:
        return 300 + size if size < size_to_canasta else 250
    if m.target == WILD_TARGET:
        return 290 + size
    if size_to_canasta - 2 <= size < size_to_canasta:
        return 280 + size
    if k.n_hand <= 2:
        return 150
    return 0


def _rate_meld(m: Meld, k: _Play) -> float:
    """A new meld: natural ones; with wild cards only toward the opening or to empty the hand."""
    r = k.r
    kinds = m.kinds
    if kinds and kinds[0] == BLACK_THREE:
        return 700
    j = sum(1 for x in kinds if r.is_wild[x])
    if k.risky and k.counts and _too_few(r, k.risky, kinds, j, k.counts):
        return 0
    if j == len(kinds):  # a wild meld (Hand and Foot)
        return 200
    points = sum(r.value[x] for x in kinds)
    if j == 0:
        return 270 + points / 100
    if k.opening:
        return 260 - 10 * j + points / 100
    if k.n_hand - len(kinds) <= 1:
        return 140
    return 0


class _Discarding:
    """What the greedy bot's cost of a discard reads, worked out once a decision."""

    __slots__ = (
        "counts", "frozen_for_next", "held_at", "next_is_opponent", "opp_ends", "opp_ranks", "own_ends",
        "own_ranks", "per_rank", "pile_n", "r", "seen", "take_lay_off",
    )

    def __init__(
        self, r: Rules, pile_n: int, next_is_opponent: bool, frozen_for_next: bool,
        counts: Sequence[int], seen: list[int], own_ranks: set[int], opp_ranks: set[int],
        own_ends: set[int], opp_ends: set[int],
    ) -> None:
        self.r = r
        self.pile_n = pile_n
        self.next_is_opponent = next_is_opponent
        self.frozen_for_next = frozen_for_next
        self.counts = counts
        #: the cards of each kind in the pile and the melds (seen face up)
        self.seen = seen
        self.own_ranks = own_ranks
        self.opp_ranks = opp_ranks
        self.own_ends = own_ends
        self.opp_ends = opp_ends
        self.per_rank = 4 * r.v.deck.decks
        self.take_lay_off = r.v.pile.take_lay_off
        self.held_at = _held(r)


def _discard_cost(m: Discard, d: _Discarding) -> float:
    """What discarding ``m`` costs the greedy bot's side: the lowest is discarded."""
    r = d.r
    k = m.kind
    counts = d.counts
    pile_n = d.pile_n
    cost = r.value[k] / 10 + 15 * (counts[k] - 1)
    if m.suit != -1:
        code = k * 4 + m.suit
        if code in d.own_ends:
            cost += 60
        if code in d.opp_ends and d.next_is_opponent and not d.frozen_for_next:
            cost += 80 + 5 * pile_n
    held = d.held_at.get(k)
    if held is not None and counts[k] >= held:
        # too many of a rank that costs a penalty when held at the end (Modern
        # American's aces and 7s): shed them rather than singletons
        cost -= 40
    if r.is_wild[k]:
        return cost + 1000
    if r.stop[k]:
        return cost - (50 + pile_n)
    if k in d.own_ranks:
        cost += 60
    if d.next_is_opponent:
        if k in d.opp_ranks and d.take_lay_off and not d.frozen_for_next:
            cost += 80 + 5 * pile_n
        unseen = max(0, d.per_rank - d.seen[k] - counts[k])
        cost += pile_n * unseen / d.per_rank * (1 if d.frozen_for_next else 3)
    return cost


#: The cards of a side's melds counted by kind, kept by the identity of its melds
#: tuple (states share it until a meld changes), as the engine keeps its meld facts.
#: The entry holds the tuple, so that its id is not reused while it is kept.
_MELD_KINDS: dict[int, tuple[tuple[MeldGroup, ...], list[int]]] = {}


def _meld_kinds(melds: tuple[MeldGroup, ...]) -> list[int]:
    """How many cards of each kind ``melds`` hold (kept: do not change the list)."""
    kept = _MELD_KINDS.get(id(melds))
    if kept is not None and kept[0] is melds:
        return kept[1]
    counts = [0] * 16
    for meld in melds:
        for c in meld.cards:
            counts[KIND[c]] += 1
    if len(_MELD_KINDS) >= 256:
        _MELD_KINDS.clear()
    _MELD_KINDS[id(melds)] = (melds, counts)
    return counts


@lru_cache(maxsize=64)
def _risky(r: Rules) -> frozenset[int]:
    """Meld targets that cost a penalty when left short of a canasta (Modern American's aces,
    7s and wild melds: ``scoring.incomplete_penalties``, ``incomplete_wild_penalty``)."""
    targets = {parse_rank(p.rank) for p in r.v.scoring.incomplete_penalties if p.penalty}
    if r.v.scoring.incomplete_wild_penalty:
        targets.add(WILD_TARGET)
    return frozenset(targets)


def _keeps_three(r: Rules, hand: Sequence[int]) -> bool:
    """Whether the greedy bot goes on keeping the 3 it holds (``threes.keep_one``): only while
    its hand is one card short, or two, of a special hand that needs a 3 (a Straight of 14
    different kinds from 12 or more); otherwise the 3 is worth more laid out."""
    needing = _needs_three(r)
    if not needing:
        return False
    kinds = len({KIND[c] if KIND[c] != 1 else BLACK_THREE for c in hand})
    return any(kinds >= size - 2 for size in needing)


@lru_cache(maxsize=64)
def _needs_three(r: Rules) -> tuple[int, ...]:
    """The sizes of the variant's special hands made of single cards that name a 3 among their ranks."""
    return tuple(
        h.size for h in r.special if "3" in h.ranks and all(g == 1 for g in h.groups)
    )


@lru_cache(maxsize=64)
def _held(r: Rules) -> dict[int, int]:
    """Ranks that cost a penalty when a player holds this many or more at the end
    (``scoring.held_penalties``)."""
    return {parse_rank(h.rank): h.count for h in r.v.scoring.held_penalties if h.penalty}


def _too_few(r: Rules, risky: frozenset[int], kinds: Sequence[int], wilds: int, counts: Sequence[int]) -> bool:
    """Whether a new meld of ``kinds`` starts a meld that costs a penalty unfinished, from a hand
    (``counts``) too short to finish it soon: the greedy bot starts one only with at least five
    of its cards in hand, two short of a canasta, which its partner may well bring."""
    if wilds == len(kinds):
        return WILD_TARGET in risky and sum(n for k, n in enumerate(counts) if r.is_wild[k]) < 5
    k = next(k for k in kinds if not r.is_wild[k])
    return k in risky and counts[k] < 5
