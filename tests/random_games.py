"""Random whole games of the bundled profiles, played once per test process and shared.

Several suites check a property of every state, move or hand end of random
whole games: how games end (test_games.py), JSON round trips
(test_serialize.py), game records (test_record.py), the action space
(test_actions.py). Playing the games is what costs, not the checks: every
state's legal moves go through the finishing oracle, and a random game of
Brazilian runs to some 5,000 moves (10 to 30 s of CPU). Each suite used to play
its own games; they now read the same ones from :func:`played`, each game played
once per process (each pytest-xdist worker plays the games its tests ask for),
and each property is still checked on every state of as many whole games as
before.

A game is played by a seeded :class:`random.Random` choosing among
``legal_moves()`` (the greedy bot chooses in the profiles of :data:`GREEDY_GAMES`),
with ``next`` at each hand's end, until game over. A test
that reads the games is marked with its profile (:func:`reads`, or the profile
taken from :data:`PROFILES`): tests/conftest.py runs those tests first, profile
by profile, so that under pytest-xdist they go to one worker, which plays each
game once. A test must not ``apply`` a move to a shared state (``apply`` drops
what was worked out about it: apply to a copy).
"""

from __future__ import annotations

import random
from functools import cache

import attrs
import pytest

import canasta
from budget import LONG
from canasta import GameState, Move, NextHand, Variant

#: Every game must end within this many hands.
MAX_HANDS = 200
#: A hand must end within this many moves.
MAX_MOVES = 5000
#: The seeds of the shared games of each profile; a suite takes the first few.
#: One game a profile in a plain run, six in the long one (tests/budget.py): a
#: random game of Brazilian alone costs 5 to 30 s.
SEEDS = range(1, 7) if LONG else range(1, 2)
#: Profiles whose random games never reach the target (random players lose points
#: every hand under Modern American's penalties for unfinished aces, 7s and wild
#: melds): there the greedy bot plays every seat, with the same seeded choices.
GREEDY_GAMES = frozenset({"modern-american", "modern-american-2p"})


def reads(name: str) -> pytest.MarkDecorator:
    """The mark of a test that reads the games of profile ``name`` (see tests/conftest.py)."""
    return pytest.mark.random_games(name)


#: The bundled profiles, to parametrize a test that reads their games, each marked.
PROFILES = [pytest.param(name, marks=reads(name)) for name in canasta.variant_names()]


@attrs.frozen
class Played:
    """A random game, played from the deal to game over.

    Attributes:
        states: every state of the game, the deal first, game over last.
        legal: ``legal_moves()`` of each state (of the last: none).
        moves: the move played from each state but the last (``next`` at a hand's end).
    """

    states: tuple[GameState, ...]
    legal: tuple[tuple[Move, ...], ...]
    moves: tuple[Move, ...]


def play(variant: Variant, seed: int, max_hands: int = MAX_HANDS) -> Played:
    """Play a whole game of ``variant`` with random legal moves.

    ``seed`` seeds both the deal and the move choices. Each move is applied to
    a copy of its state, because ``apply`` drops what the engine worked out
    about the state it is given: the kept states answer ``legal_moves()`` (and
    what asks it: an action mask, a view) again without working it out anew.

    Raises:
        AssertionError: a state without a legal move before game over, a hand
            not over in :data:`MAX_MOVES` moves or no game over in ``max_hands`` hands.
    """
    rng = random.Random(seed)
    bot = canasta.GreedyBot() if variant.name in GREEDY_GAMES else None
    s = canasta.new_game(variant, seed=seed)
    states, legal, moves = [s], [], []
    hands = 0
    while True:
        for _ in range(MAX_MOVES):
            if s.is_hand_over:
                break
            options = tuple(s.legal_moves())
            assert options, f"{variant.name} seed {seed}: no legal move in {s!r}"
            if bot is not None:
                move = bot.choose(s.view(s.current), rng)
            else:
                move = options[rng.randrange(len(options))]
            legal.append(options)
            moves.append(move)
            s = attrs.evolve(s).apply(move)
            states.append(s)
        else:
            raise AssertionError(f"{variant.name} seed {seed}: hand not over in {MAX_MOVES} moves")
        hands += 1
        legal.append(tuple(s.legal_moves()))
        if s.is_game_over:
            return Played(tuple(states), tuple(legal), tuple(moves))
        assert hands < max_hands, f"{variant.name} seed {seed}: no game over in {max_hands} hands"
        moves.append(NextHand())
        s = attrs.evolve(s).apply("next")
        states.append(s)


@cache
def played(name: str, seed: int) -> Played:
    """The random game of bundled profile ``name`` with ``seed`` (played once, then cached)."""
    return play(canasta.load_variant(name), seed)
