"""The players of the checker's simulated hands: a greedy player, and players that seek one rule.

The greedy player (:func:`greedy_move`) melds as soon as it can, so some rules
would only come into play by chance: it never holds its hand back to go out
concealed, it throws black 3s away, and it takes the pile the first way listed.
A :class:`Seeker` plays like it but steers towards one event of the playouts'
tally (:data:`GOALS`), so that a rule the checker reports as never seen
(``C044``) was looked for, not just missed. Both read the whole state (these
are the checker's players, not bots bound to a seat's view; see
:mod:`canasta.play.bots` for those).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs

from canasta.engine import BLACK_THREE, GameState, Rules
from canasta.engine.facts import probe
from canasta.engine.kinds import KIND
from canasta.engine.moves import (
    WILD_TARGET,
    Add,
    AddToSequence,
    Answer,
    Ask,
    Discard,
    Draw,
    Foot,
    LaySpecial,
    LayThree,
    Meld,
    MeldSequence,
    Move,
    TakePile,
    TakeSequence,
)
from canasta.engine.oracle import can_go_out
from canasta.engine.state import DRAW, PLAY

__all__ = ["GOALS", "Seeker", "greedy_move"]

#: The events a :class:`Seeker` can steer towards, with what it does for each.
GOALS: dict[str, str] = {
    "concealed": "draws rather than take the pile and melds nothing until it can meld its whole "
    "hand in one turn",
    "black_out": "keeps its black 3s once it holds two, to go out with them",
    "black_meld": "keeps its black 3s once it holds two, to meld them",
    "take:pair": "takes the pile with a natural pair whenever it may",
    "take:layoff": "takes the pile by laying its top card off whenever it may",
    "take:wild": "takes the pile with a natural and a wild card whenever it may",
    "take:finish": "takes a blocked pile by finishing the blocking meld whenever it may",
    "canasta:natural": "never adds a wild card to a meld of a rank",
    "canasta:wild": "keeps its wild cards for melds of wild cards",
}


def greedy_move(moves: Sequence[Move], rng: random.Random, r: Rules) -> Move:
    """A simple player: go out (asking the partner first when it may), lay out a kept 3, meld and add, take the pile, discard the cheapest card.

    Args:
        moves: the legal moves, not empty.
        rng: breaks ties between moves rated alike.
        r: the compiled rules.

    Returns:
        One of ``moves``.
    """

    def score(m: Move) -> float:
        if isinstance(m, LaySpecial):
            # it ends the hand with the special hand's score, larger than any going out
            return 200.0
        if isinstance(m, Discard):
            if m.out:
                return 100.0
            return -float(r.value[m.kind]) - (30.0 if r.is_wild[m.kind] else 0.0)
        if isinstance(m, LayThree):
            # a kept 3 (threes.keep_one) stops its player from melding: lay it out
            return 99.0
        if isinstance(m, Ask):
            # listed only when the player can go out this turn: asking is the way
            # to go out where permission is required, and a yes binds
            return 98.0
        if isinstance(m, Answer):
            return 95.0 if m.yes else -50.0
        if isinstance(m, Foot):
            return 90.0
        if isinstance(m, Meld):
            wild = sum(1 for k in m.kinds if r.is_wild[k])
            return 72.0 if wild == len(m.kinds) else 70.0 - 5 * wild
        if isinstance(m, Add):
            return 55.0 if r.is_wild[m.kind] and m.target != WILD_TARGET else 65.0
        if isinstance(m, MeldSequence):
            # as good as a natural meld, and longer runs first; a wild card inside costs as in a meld
            return 70.0 + 0.5 * (m.high - m.low) - (5 if m.wild else 0)
        if isinstance(m, AddToSequence):
            return 66.0
        if isinstance(m, (TakePile, TakeSequence)):
            return 50.0
        if isinstance(m, Draw):
            return 40.0
        return -100.0

    return max(moves, key=lambda m: score(m) + rng.random() * 0.1)


def _cheapest_discard(s: GameState, r: Rules, discards: Sequence[Discard], keep: frozenset[int]) -> Discard:
    """The discard a hand-keeper gives up most easily: a lone, cheap card, never one of ``keep`` if it can help it."""
    counts = [0] * 16
    for c in s.hands_[s.current]:
        counts[KIND[c]] += 1

    def cost(d: Discard) -> float:
        k = d.kind
        return (
            (1000.0 if k in keep else 0.0) + (500.0 if r.is_wild[k] else 0.0)
            + 20.0 * (counts[k] - 1) + r.value[k]
        )

    return min(discards, key=cost)


@attrs.frozen
class Seeker:
    """A player of one seat that steers towards ``goal`` (one of :data:`GOALS`); every other seat plays greedily.

    Attributes:
        goal: the event sought.
        seat: the seat that seeks it.
    """

    goal: str
    seat: int

    def move(self, s: GameState, moves: Sequence[Move], rng: random.Random, r: Rules) -> Move:
        """The move of the player to move in ``s``: the seeker's own choice at its seat, the greedy one elsewhere.

        Args:
            s: the state, not at the end of a hand.
            moves: ``s.legal_moves()``, not empty.
            rng: breaks ties.
            r: the compiled rules of ``s``.

        Returns:
            One of ``moves``.
        """
        if s.current != self.seat:
            return greedy_move(moves, rng, r)
        goal = self.goal
        if goal == "concealed":
            return self._concealed(s, moves, rng, r)
        if goal.startswith("take:"):
            way = goal.split(":", 1)[1]
            takes = [m for m in moves if isinstance(m, TakePile) and m.way == way]
            if takes:
                return takes[0]
            return greedy_move(moves, rng, r)
        if goal in ("black_out", "black_meld"):
            # a lone black 3 is thrown away as a stop card: kept, it would only stop its
            # holder from going out; two are worth building on
            held = sum(1 for c in s.hands_[s.current] if KIND[c] == BLACK_THREE)
            keep = frozenset({BLACK_THREE}) if held >= 2 else frozenset()
            return self._keep(s, moves, rng, r, keep)
        if goal == "canasta:natural":
            plain = [m for m in moves if not _wild_into_rank(m, r)]
            return greedy_move(plain or moves, rng, r)
        if goal == "canasta:wild":
            wilds = frozenset(k for k in range(16) if r.is_wild[k])
            kept = [m for m in moves if not _wild_into_rank(m, r)]
            return self._keep(s, kept or moves, rng, r, wilds)
        return greedy_move(moves, rng, r)

    @staticmethod
    def _keep(
        s: GameState, moves: Sequence[Move], rng: random.Random, r: Rules, keep: frozenset[int]
    ) -> Move:
        """Greedy play that discards the cards of ``keep`` only when nothing else is left to discard."""
        choice = greedy_move(moves, rng, r)
        if isinstance(choice, Discard) and not choice.out:
            discards = [m for m in moves if isinstance(m, Discard) and not m.out]
            return _cheapest_discard(s, r, discards, keep)
        return choice

    @staticmethod
    def _concealed(s: GameState, moves: Sequence[Move], rng: random.Random, r: Rules) -> Move:
        """Hold the hand back, and meld it all in the first turn the engine's oracle says it can go out."""
        p = s.current
        if s.melded_before[p]:
            return greedy_move(moves, rng, r)  # too late for this hand: play on as usual
        if s.phase == DRAW:
            draws = [m for m in moves if not isinstance(m, TakePile)]
            return greedy_move(draws or moves, rng, r)
        if s.phase != PLAY or s.turn.took_pile:
            return greedy_move(moves, rng, r)
        outs = [m for m in moves if isinstance(m, Discard) and m.out]
        if outs:
            return outs[0]
        asks = [m for m in moves if isinstance(m, Ask)]
        if asks and s.variant.going_out.ask_required:
            return asks[0]  # listed only when going out is possible, and it must come first
        if can_go_out(s, probe(s)):
            # follow the oracle: a step after which going out is still possible, the largest first
            steps = [m for m in moves if isinstance(m, Meld | Add | Foot)]
            steps.sort(key=lambda m: -len(m.kinds) if isinstance(m, Meld) else 0)
            for m in steps:
                after = s.apply(m)
                if after.is_hand_over or can_go_out(after, probe(after)):
                    return m
        if s.turn.melded:
            return greedy_move(moves, rng, r)  # the oracle's way was lost: finish the turn
        discards = [m for m in moves if isinstance(m, Discard) and not m.out]
        if discards:
            return _cheapest_discard(s, r, discards, frozenset())
        return greedy_move(moves, rng, r)


def _wild_into_rank(m: Move, r: Rules) -> bool:
    """Whether ``m`` puts a wild card into a meld of a rank (making or keeping it mixed)."""
    if isinstance(m, Add):
        return bool(r.is_wild[m.kind]) and m.target != WILD_TARGET
    if isinstance(m, Meld):
        wild = sum(1 for k in m.kinds if r.is_wild[k])
        return 0 < wild < len(m.kinds)
    return False
