"""Evaluate a player in the OpenSpiel game against GreedyBot, and run OpenSpiel's MCTS bot for a move.

Side 0 plays uniformly random legal actions (replace ``choose`` with your
agent); the other sides play ``canasta.GreedyBot`` from their own views.
Needs ``pip install 'canasta[openspiel]'`` (Python 3.11 or later)::

    python examples/openspiel_evaluate.py --variant classic-2p --games 20
"""

from __future__ import annotations

import argparse
import random

import numpy as np
import pyspiel

import canasta
from canasta.adapters import openspiel as cos


def choose(state, rng):
    """The agent under test: here, a uniformly random legal action."""
    return rng.choice(state.legal_actions())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic-2p")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(cos.game_name(args.variant))
    v = canasta.load_variant(args.variant)
    agent_seats = set(v.sides[0])
    space = canasta.ActionSpace(v)
    bot, rng = canasta.GreedyBot(), random.Random(args.seed)
    returns = []
    for _ in range(args.games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.current_player() in agent_seats:
                state.apply_action(choose(state, rng))
            else:
                view = state.core.view(state.current_player())
                state.apply_action(space.encode(bot.choose(view, rng)))
        returns.append(state.returns()[min(agent_seats)])
    print(f"{args.variant}: random player's mean return against GreedyBot over {args.games} games: "
          f"{np.mean(returns):+.3f} (utilities bounded by ±{game.max_utility():.1f})")
    # OpenSpiel's own algorithms take the game as it is, e.g. MCTS with random rollouts:
    from open_spiel.python.algorithms import mcts

    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.randrange(256))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(args.seed))
    mcts_bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator,
                            random_state=np.random.RandomState(args.seed))
    action = mcts_bot.step(state)
    print(f"MCTS (4 simulations) opens with: {state.action_to_string(state.current_player(), action)}")


if __name__ == "__main__":
    main()
