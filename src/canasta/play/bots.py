"""Computer players: the :class:`Bot` protocol, :class:`RandomBot` and :class:`GreedyBot`.

A bot sees only its own seat's :class:`~canasta.SeatView` and returns one of
``view.legal_moves()``::

    import random
    import canasta

    state = canasta.new_game(canasta.load_variant("classic"), seed=7)
    bot = canasta.GreedyBot()
    move = bot.choose(state.view(state.current_player), random.Random(1))
    state = state.apply(move)

Bots keep no state between calls, so a simulation spread over several processes
plays exactly the same games as one process.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Protocol, runtime_checkable

from canasta.cards import parse_rank
from canasta.engine import BLACK_THREE, KIND, Rules, compile_rules, hand_counts
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
from canasta.engine.view import SeatView
from canasta.errors import CanastaError
from canasta.limits import shown

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "as_bot", "bot_names", "make_bot"]

@runtime_checkable
class Bot(Protocol):
    """A computer player.

    Attributes:
        name: a short name, shown in move logs and simulation summaries.
    """

    name: str

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """Pick a move.

        Args:
            view: what the bot's seat may see; it is that seat's turn.
            rng: the only source of randomness the bot may use, so that a seeded
                game replays exactly.

        Returns:
            One of ``view.legal_moves()``.
        """
        ...


def _legal(view: SeatView) -> Sequence[Move]:
    moves = view.legal_moves()
    if not moves:
        raise CanastaError(f"seat {view.seat} has no legal move: it is not its turn")
    return moves


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


def _rules(view: SeatView) -> Rules:
    # SeatView carries the variant's name but not the Variant; its stand-in state has it.
    return compile_rules(view.variant)


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
        r = _rules(view)
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
        counts = hand_counts(hand)
        # the side's open melds by target and place among the open melds of that target
        # (several of a rank only under melds.duplicate_ranks: any)
        open_melds: dict[tuple[int, int], MeldGroup] = {}
        for g in view.melds[side]:
            if not r.closed(g.rank, g.size):
                nth = 0
                while (g.rank, nth) in open_melds:
                    nth += 1
                open_melds[(g.rank, nth)] = g
        opening = not view.opened[side] or bool(view.turn.pending)
        n_hand = len(hand)
        best: Move | None = None
        best_score = 0.0
        discards: list[Discard] = []
        risky = _risky(r)  # once a turn, not once a move
        for m in moves:
            if isinstance(m, Discard) and not m.out:
                discards.append(m)
                continue
            if isinstance(m, LayThree):
                if not _keeps_three(r, hand):
                    return m
                continue
            score = self._rate(m, r, open_melds, opening, n_hand, counts, risky)
            if score > best_score:
                best, best_score = m, score
        if best is not None:
            return best
        if discards:
            return self._discard(view, r, discards, counts, side)
        return moves[0]

    # -- ratings ------------------------------------------------------------------

    @staticmethod
    def _rate(
        m: Move,
        r: Rules,
        open_melds: dict[tuple[int, int], MeldGroup],
        opening: bool,
        n_hand: int,
        counts: Sequence[int] = (),
        risky: frozenset[int] = frozenset(),
    ) -> float:
        """How much the bot wants ``m`` (a play-phase move other than a plain discard); <= 0: not at all."""
        if isinstance(m, LaySpecial):
            # a special hand ends the hand with more points than any turn could lay
            return 2000
        if isinstance(m, Foot):
            return 1000
        if isinstance(m, Ask):
            return 900
        if isinstance(m, Discard):  # an 'out': better than asking, which may be refused
            return 950 - r.value[m.kind] / 100
        size_to_canasta = r.canasta_size
        if isinstance(m, AddToSequence):
            # natural cards toward a sequence canasta (a samba): as good as growing a meld
            return 305 + (m.high - m.low)
        if isinstance(m, MeldSequence):
            # a wild card spent on a sequence (sequences.wild_in_gap) is one fewer for a canasta of a rank
            return 265 if m.wild else 275
        if isinstance(m, Combine):
            # two melds of a rank that make a canasta together, and neither is one yet
            first, second = open_melds.get((m.target, m.first)), open_melds.get((m.target, m.second))
            if first is None or second is None:
                return 0
            if first.size < size_to_canasta and second.size < size_to_canasta <= first.size + second.size:
                return 310
            return 0
        if isinstance(m, Add):
            meld = open_melds.get((m.target, m.meld))
            size = meld.size if meld is not None else 0
            if not r.is_wild[m.kind]:
                return 300 + size if size < size_to_canasta else 250
            if m.target == WILD_TARGET:
                return 290 + size
            if size_to_canasta - 2 <= size < size_to_canasta:
                return 280 + size
            if n_hand <= 2:
                return 150
            return 0
        if isinstance(m, Meld):
            kinds = m.kinds
            if kinds and kinds[0] == BLACK_THREE:
                return 700
            j = sum(1 for k in kinds if r.is_wild[k])
            if risky and counts and _too_few(r, risky, kinds, j, counts):
                return 0
            if j == len(kinds):  # a wild meld (Hand and Foot)
                return 200
            points = sum(r.value[k] for k in kinds)
            if j == 0:
                return 270 + points / 100
            if opening:
                return 260 - 10 * j + points / 100
            if n_hand - len(kinds) <= 1:
                return 140
            return 0
        return 0

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
            for meld in melds:
                for c in meld.cards:
                    seen[KIND[c]] += 1
                if r.closed(meld.rank, meld.size):
                    continue
                if meld.is_sequence:
                    ends = own_ends if i == side else opp_ends
                    ends.update({(meld.high + 1) * 4 + meld.suit, (meld.low - 1) * 4 + meld.suit})
                    continue
                (own_ranks if i == side else opp_ranks).add(meld.rank)
        per_rank = 4 * r.v.deck.decks
        pile_n = len(view.pile_codes)
        nxt = (view.seat + 1) % r.n
        next_is_opponent = r.side_of[nxt] != side
        v = r.v
        frozen_for_next = view.pile_frozen_for(r.side_of[nxt])
        held_at = _held(r)
        best: Discard = discards[0]
        best_cost = float("inf")
        for d in discards:
            k = d.kind
            cost = r.value[k] / 10 + 15 * (counts[k] - 1)
            if d.suit != -1:
                code = k * 4 + d.suit
                if code in own_ends:
                    cost += 60
                if code in opp_ends and next_is_opponent and not frozen_for_next:
                    cost += 80 + 5 * pile_n
            held = held_at.get(k)
            if held is not None and counts[k] >= held:
                # too many of a rank that costs a penalty when held at the end (Modern
                # American's aces and 7s): shed them rather than singletons
                cost -= 40
            if r.is_wild[k]:
                cost += 1000
            elif r.stop[k]:
                cost -= 50 + pile_n
            else:
                if k in own_ranks:
                    cost += 60
                if next_is_opponent:
                    if k in opp_ranks and v.pile.take_lay_off and not frozen_for_next:
                        cost += 80 + 5 * pile_n
                    unseen = max(0, per_rank - seen[k] - counts[k])
                    cost += pile_n * unseen / per_rank * (1 if frozen_for_next else 3)
            if cost < best_cost:
                best, best_cost = d, cost
        return best


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


#: Bots by name, as ``--bots`` names them.
BOTS: dict[str, Callable[[], Bot]] = {"greedy": GreedyBot, "random": RandomBot}


def bot_names() -> list[str]:
    """The names of the bundled bots, sorted.

    Returns:
        Names that :func:`make_bot` accepts.
    """
    return sorted(BOTS)


def make_bot(name: str) -> Bot:
    """Build a bundled bot by name.

    Args:
        name: ``"greedy"`` or ``"random"`` (see :func:`bot_names`).

    Returns:
        A new bot.

    Raises:
        CanastaError: no bot has that name; the message lists the names.
    """
    factory = BOTS.get(name.strip().lower()) if isinstance(name, str) else None
    if factory is None:
        raise CanastaError(f"unknown bot {shown(name)}: expected one of {', '.join(bot_names())}")
    return factory()


def as_bot(spec: object) -> Bot:
    """The bot ``spec`` names or is: the check of every function that takes bots.

    Args:
        spec: a bot name (see ``make_bot``) or a bot object: one with a
            ``name`` (text) and a ``choose(view, rng)`` method, such as ``GreedyBot()``.

    Returns:
        The bot.

    Raises:
        CanastaError: ``spec`` is an unknown name, a bot class rather than a
            bot object (``GreedyBot`` for ``GreedyBot()``), or no bot at all;
            the message says what was expected.
    """
    if isinstance(spec, str):
        return make_bot(spec)
    if isinstance(spec, type):
        # a class has a `choose` too, which would fail deep inside a game for want of `self`
        name = spec.__name__
        raise CanastaError(f"expected a bot object such as {name}(), got the class {name}")
    if not (callable(getattr(spec, "choose", None)) and isinstance(getattr(spec, "name", None), str)):
        raise CanastaError(
            f"expected a bot name ({', '.join(bot_names())}) or a bot object such as GreedyBot() "
            f"(a name and a choose(view, rng) method), got {shown(spec)}"
        )
    bot: Bot = spec  # type: ignore[assignment]
    return bot

