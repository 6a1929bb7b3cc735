"""Train a linear softmax policy with REINFORCE in the PettingZoo environment, against GreedyBot.

The learner plays one side (``player_0`` and, in partnership profiles, its
partner); ``canasta.GreedyBot`` plays the others. Every hand is one episode;
the reward is the scaled score difference. Needs ``pip install 'canasta[pettingzoo]'``::

    python examples/pettingzoo_reinforce.py --variant classic --episodes 200 --eval 50
"""

from __future__ import annotations

import argparse
import random

import numpy as np

import canasta
from canasta.adapters.pettingzoo import env


def play(e, weights, learner_seats, rng, np_rng, bot, learn=False, lr=0.01):
    """One hand; returns the learner's reward (and updates ``weights`` when ``learn``)."""
    e.reset(seed=rng.getrandbits(32))
    grads, reward = [], 0.0
    for agent in e.agent_iter():
        obs, r, terminated, truncated, _ = e.last()
        seat = e.seat_of(agent)
        if seat in learner_seats:
            reward += r if seat == min(learner_seats) else 0.0
        if terminated or truncated:
            e.step(None)
            continue
        if seat not in learner_seats:
            e.step(e.bot_action(agent, bot, rng))
            continue
        x, mask = obs["observation"], obs["action_mask"].astype(bool)
        logits = weights @ x
        logits[~mask] = -np.inf
        p = np.exp(logits - logits[mask].max())
        p /= p.sum()
        a = int(np_rng.choice(len(p), p=p))
        if learn:  # gradient of log p(a) for a linear softmax: (onehot(a) - p) x^T
            g = -p[:, None] * x[None, :]
            g[a] += x
            grads.append(g)
        e.step(a)
    if learn and grads:
        weights += lr * reward * np.sum(grads, axis=0)
    return reward


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--eval", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    e = env(variant=args.variant)
    v = e.variant
    learner_seats = set(v.sides[0])
    n_actions, n_obs = e.action_space("player_0").n, e.observation_space("player_0")["observation"].shape[0]
    rng, np_rng = random.Random(args.seed), np.random.default_rng(args.seed)
    bot = canasta.GreedyBot()
    untrained = np.zeros((n_actions, n_obs))
    before = [play(e, untrained, learner_seats, rng, np_rng, bot) for _ in range(args.eval)]
    weights = np.zeros((n_actions, n_obs))
    for _ in range(args.episodes):
        play(e, weights, learner_seats, rng, np_rng, bot, learn=True)
    after = [play(e, weights, learner_seats, rng, np_rng, bot) for _ in range(args.eval)]
    print(f"{args.variant}: mean reward per hand against GreedyBot over {args.eval} hands "
          f"(95% interval): uniform policy {interval(before)}, after {args.episodes} "
          f"REINFORCE hands {interval(after)}")


def interval(rewards):
    """``mean ± 1.96 sd/sqrt(n)``: a mean over few hands says little without its spread."""
    half = 1.96 * np.std(rewards, ddof=1) / np.sqrt(len(rewards)) if len(rewards) > 1 else 0.0
    return f"{np.mean(rewards):+.3f} ± {half:.3f}"


if __name__ == "__main__":
    main()
