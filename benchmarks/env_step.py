"""Speed of the learning-agent adapters against the engine itself.

Usage::

    python benchmarks/env_step.py [VARIANT ...] [--hands N] [--repeat R] [--seed S] [--no-openspiel]
                                  [--clock wall|cpu]

For each variant, prints the median over R runs of:

- ``engine``: moves/s of the engine's own random play (``legal_moves()``, pick
  one, ``apply()``), as in ``benchmarks/playout.py``;
- ``env``: steps/s of the PettingZoo environment (``canasta.adapters.pettingzoo.env``)
  played with masked random actions: ``last()`` (observation vector and mask),
  a random legal id from the mask (``mask.nonzero()[0]``: ``np.flatnonzero``
  gives the same ids for three times the price, an agent's cost, not the
  environment's), ``step()``; ``wrapped``: the same inside
  PettingZoo's ``OrderEnforcingWrapper`` and ``AssertOutOfBoundsWrapper`` (what
  most PettingZoo environments return); both count the agents' moves, not the
  dead agents' final steps, and play the engine's deals;
- ``env/engine``: the ratio (the goal is at least 0.5);
- OpenSpiel (if installed): the median µs of ``state.clone()`` and of one
  ``state.apply_action()`` over the positions of random games.

``--clock cpu`` times with :func:`time.process_time` (this process's CPU
time) instead of the wall clock: on a machine shared with other jobs the
wall-clock rates swing by a factor of two from run to run, the CPU-time ones
much less (both still feel the other jobs through the shared caches).

Needs the extras: ``pip install 'canasta[pettingzoo]'`` (and ``canasta[openspiel]``).
Run by hand; never from a timed test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import canasta
from canasta.adapters.pettingzoo import env

#: The clock of the rates (``--clock``).
CLOCK = time.perf_counter


def engine_rate(variant: canasta.Variant, hands: int, seed: int) -> float:
    """Moves/s of random play through the engine."""
    rng = random.Random(seed)
    moves = 0
    start = CLOCK()
    for h in range(hands):
        s = canasta.new_game(variant, seed=seed * 100_003 + h)
        while not s.is_hand_over:
            legal = s.legal_moves()
            s = s.apply(legal[rng.randrange(len(legal))])
            moves += 1
    return moves / (CLOCK() - start)


def wrapped(**kwargs: Any) -> Any:
    """The environment in the two wrappers PettingZoo's own environments use."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env(**kwargs)))


def env_rate(make: Any, variant: canasta.Variant, hands: int, seed: int) -> float:
    """Agent steps/s of the PettingZoo environment with masked random actions (same deals)."""
    e = make(variant=variant)
    rng = random.Random(seed)
    steps = 0
    start = CLOCK()
    for h in range(hands):
        e.reset(options={"deal": seed * 100_003 + h})
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (CLOCK() - start)


def openspiel_costs(name: str, games: int, seed: int) -> tuple[float, float] | None:
    """Median µs of ``clone()`` and of ``apply_action()`` over random games' positions."""
    try:
        import pyspiel

        from canasta.adapters import openspiel as cos
    except ImportError:
        return None
    game = pyspiel.load_game(cos.game_name(name))
    rng = random.Random(seed)
    clones: list[float] = []
    applies: list[float] = []
    clock = time.perf_counter
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(256))
                continue
            action = rng.choice(state.legal_actions())
            t0 = clock()
            child = state.clone()
            t1 = clock()
            child.apply_action(action)
            t2 = clock()
            clones.append(t1 - t0)
            applies.append(t2 - t1)
            state = child
    return statistics.median(clones) * 1e6, statistics.median(applies) * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=canasta.variant_names())
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    print(f"canasta {canasta.__version__}; medians of {args.repeat} runs of {args.hands} hands; "
          f"{args.clock} clock")
    print(f"{'variant':<14} {'engine mv/s':>11} {'env st/s':>9} {'wrapped':>9} {'env/engine':>10}"
          f" {'clone µs':>9} {'apply µs':>9}")
    for name in args.variants:
        v = canasta.load_variant(name)
        eng, plain, raw = [], [], []
        for r in range(args.repeat):  # interleaved, so that load changes hit all three alike
            eng.append(engine_rate(v, args.hands, args.seed + r))
            plain.append(env_rate(env, v, args.hands, args.seed + r))
            raw.append(env_rate(wrapped, v, args.hands, args.seed + r))
        e, w, rw = (statistics.median(x) for x in (eng, plain, raw))
        costs = None if args.no_openspiel else openspiel_costs(name, max(2, args.hands // 5), args.seed)
        extra = f" {costs[0]:9.1f} {costs[1]:9.1f}" if costs else ""
        print(f"{name:<14} {e:11.0f} {w:9.0f} {rw:9.0f} {w / e:10.2f}{extra}", flush=True)


if __name__ == "__main__":
    main()
