"""Playing hands to their end with a policy: :func:`playout`, and the loop under simulations.

A *policy* picks the move of the seat to move: ``policy(state, rng)`` returns
one of ``state.legal_moves()``. :func:`play_hand` plays one hand with a policy
per seat and keeps nothing per move unless asked (``on_move``); it is the loop
under :func:`canasta.simulate` (and so under experiments) and the checker's
playouts. :func:`playout` plays many hands with it::

    import canasta

    hands = canasta.playout("classic", "random", hands=1000, seed=7)
    outs = sum(h.end.reason == "out" for h in hands)

A :class:`~canasta.play.bots.Bot` becomes a policy through :func:`bot_policy`:
it is shown its seat's view, as in a simulation. The random bot needs no view
(its pick depends only on the legal moves, which a view lists exactly as the
state does), so a random seat costs no view per move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeAlias

import attrs

from canasta.engine import new_game
from canasta.engine.moves import Move
from canasta.engine.state import GameState, HandEnd
from canasta.errors import CanastaError
from canasta.limits import shown
from canasta.play.bots import Bot, RandomBot, as_bot
from canasta.variant.loading import load_variant
from canasta.variant.model import Variant

__all__ = [
    "MAX_PLAYOUT_HANDS",
    "HandPlayed",
    "Policy",
    "bot_policy",
    "play_hand",
    "playout",
    "random_policy",
    "resolve_variant",
]

#: ``policy(state, rng)``: one of ``state.legal_moves()`` for the seat to move.
Policy: TypeAlias = Callable[[GameState, random.Random], Move]

#: Called as ``on_move(before, move, after)`` after every move :func:`play_hand` plays.
OnMove: TypeAlias = Callable[[GameState, Move, GameState], None]

#: The most hands one call of :func:`playout` plays.
MAX_PLAYOUT_HANDS = 10_000_000

#: The moves after which :func:`playout` gives up on a hand by default: far more
#: than any hand takes (random play in classic ends in about 90).
DEFAULT_MAX_MOVES = 10_000


def resolve_variant(variant: Variant | str) -> Variant:
    """``variant`` itself, or the profile of that bundled name or path.

    Raises:
        VariantError: the profile does not load.
    """
    if isinstance(variant, Variant):
        return variant
    return load_variant(variant)


def random_policy(state: GameState, rng: random.Random) -> Move:
    """A uniformly random legal move, as :class:`~canasta.RandomBot` picks it.

    Raises:
        CanastaError: there is no legal move.
    """
    moves = state.legal_moves()
    if not moves:
        raise CanastaError(f"seat {state.current_player} has no legal move in {state!r}")
    return moves[rng.randrange(len(moves))]


def bot_policy(bot: Bot) -> Policy:
    """The policy that asks ``bot`` with the view of the seat to move.

    The random bot's policy is :func:`random_policy` itself (the same pick from
    the same moves, with no view built).
    """
    if type(bot) is RandomBot:
        return random_policy

    def choose(state: GameState, rng: random.Random) -> Move:
        return bot.choose(state.view(state.current), rng)

    return choose


def _policy(spec: object) -> Policy:
    if isinstance(spec, (str, type)):
        return bot_policy(as_bot(spec))  # a name, or a bot class by mistake: as_bot says so
    if isinstance(spec, Bot):
        return bot_policy(spec)
    if callable(spec):
        return spec
    raise CanastaError(
        f"a policy is a bot name ('random', 'greedy'), a Bot or a function (state, rng) -> move; "
        f"got {shown(spec)}"
    )


def policies_for(specs: object, seats: int) -> list[Policy]:
    """One policy per seat from ``specs``: one policy, bot or name for every seat, or a
    sequence of them cycled over the seats.

    Raises:
        CanastaError: a spec is no policy, bot or bot name, or the sequence is empty.
    """
    if isinstance(specs, (list, tuple)):
        if not specs:
            raise CanastaError("no policy given")
        made = [_policy(x) for x in specs]
        return [made[i % len(made)] for i in range(seats)]
    return [_policy(specs)] * seats


def play_hand(
    state: GameState,
    policies: Sequence[Policy],
    rng: random.Random,
    max_moves: int | None = None,
    on_move: OnMove | None = None,
) -> tuple[GameState, int, str | None]:
    """Play from ``state`` until the hand is over.

    Args:
        state: where to start (a hand in progress, or over already).
        policies: one policy per seat.
        rng: the only random source the policies get.
        max_moves: stop after this many moves (``None``: no limit).
        on_move: called as ``on_move(before, move, after)`` after every move.

    Returns:
        ``(state, moves, stopped)``: the last state, the moves played, and
        ``None`` when the hand ended, else why play stopped first: the move
        limit, or a dead end (the seat to move had no legal move).

    Raises:
        CanastaError: a policy returned an illegal move (``IllegalMoveError``),
            or raised one while the seat had legal moves.
    """
    moves = 0
    while not state.is_hand_over:
        if max_moves is not None and moves >= max_moves:
            return state, moves, f"the hand did not end after {moves} moves"
        seat = state.current
        try:
            move = policies[seat](state, rng)
        except CanastaError:
            if state.legal_moves():
                raise
            return state, moves, f"seat {seat} has no legal move ({state.phase_name} phase)"
        after = state.apply(move)
        if on_move is not None:
            on_move(state, move, after)
        state = after
        moves += 1
    return state, moves, None


@attrs.frozen
class HandPlayed:
    """One hand that :func:`playout` played.

    Attributes:
        seed: the seed the hand was dealt with (``new_game(variant, seed)``).
        moves: the moves played.
        end: how the hand ended and each side's itemized score, or ``None`` when
            it did not end (see ``stopped``).
        stopped: ``None`` when the hand ended, else why play stopped (the move
            limit, or a seat with no legal move).
        state: the last state (``state.is_hand_over`` when the hand ended).
    """

    seed: int
    moves: int
    end: HandEnd | None
    stopped: str | None
    state: GameState = attrs.field(repr=False, eq=False)


def playout(
    variant: Variant | str,
    policy: object = "random",
    *,
    hands: int = 1,
    seed: int = 0,
    max_moves: int | None = DEFAULT_MAX_MOVES,
    on_move: OnMove | None = None,
) -> list[HandPlayed]:
    """Play ``hands`` hands of ``variant`` to their end with ``policy``.

    Hand ``i`` is the first hand of ``new_game(variant, seed + i)``, played with
    the random source ``random.Random(seed * 1_000_003 + i)``: the same call
    plays the same hands everywhere. Nothing is kept per move unless
    ``on_move`` keeps it.

    Args:
        variant: a :class:`~canasta.variant.model.Variant`, or a bundled profile
            name or a profile path.
        policy: for every seat, ``"random"``, ``"greedy"``, a
            :class:`~canasta.play.bots.Bot` or a function ``(state, rng) ->
            move``; or a list of them, cycled over the seats.
        hands: how many hands to play (1 to ``MAX_PLAYOUT_HANDS``, ten million).
        seed: the first deal's seed.
        max_moves: give up on a hand after this many moves (``None``: never).
        on_move: called as ``on_move(before, move, after)`` after every move.

    Returns:
        One :class:`HandPlayed` per hand, in order.

    Raises:
        CanastaError: the variant does not load, ``hands`` or ``max_moves`` is
            out of range, a policy is unknown, or a policy returned an illegal move.
    """
    v = resolve_variant(variant)
    if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= MAX_PLAYOUT_HANDS:
        raise CanastaError(f"hands must be a whole number from 1 to {MAX_PLAYOUT_HANDS}, got {hands!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise CanastaError(f"seed must be an integer, got {shown(seed)}")
    if max_moves is not None and (isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1):
        raise CanastaError(f"max_moves must be a whole number >= 1 or None, got {max_moves!r}")
    policies = policies_for(policy, v.players.count)
    out = []
    for i in range(hands):
        state = new_game(v, seed + i)
        rng = random.Random(seed * 1_000_003 + i)
        last, moves, stopped = play_hand(state, policies, rng, max_moves, on_move)
        out.append(HandPlayed(seed + i, moves, last.end if stopped is None else None, stopped, last))
    return out
