"""Traces of hands for comparing the engine's fast paths with its plain rule path.

A trace is what :func:`trace_hand` sees of a hand: at each position the legal
moves in the order listed, and a digest of the state after the move played.
tests/test_fast_paths.py traces hands in its own process (fast paths on) and,
through this file run as a script, in a process started with
``CANASTA_PLAIN_RULES=1`` (every fast path off, :mod:`canasta.engine.fastpaths`),
and requires the traces to be equal.

As a script it reads a JSON list of jobs on standard input (each
``{"profile": YAML text, "seed": int, "policy": "random" | "greedy", "moves": int}``)
and writes ``{"plain": bool, "traces": [...]}`` as JSON on standard output.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import canasta
from canasta.engine.fastpaths import FLAGS, PLAIN_RULES

_GREEDY = canasta.GreedyBot()

#: One position: the legal moves as text, in the order listed, and the digest of the next state.
Step = tuple[list[str], str]


def digest(s: canasta.GameState) -> str:
    """A short digest of everything a state holds (its JSON form)."""
    return hashlib.sha1(canasta.to_json(s).encode("utf-8")).hexdigest()[:16]


def trace_hand(profile: str, seed: int, policy: str, moves: int) -> list[Step]:
    """Play up to ``moves`` moves of the first hand of ``profile`` (YAML text), dealt with
    ``seed``; the policy (random or greedy) chooses with ``random.Random(seed)``."""
    v = canasta.parse_variant(profile)
    s = canasta.new_game(v, seed=seed)
    rng = random.Random(seed)
    out: list[Step] = []
    for _ in range(moves):
        if s.is_hand_over:
            break
        legal = s.legal_moves()
        if not legal:
            out.append(([], "dead end"))
            break
        if policy == "greedy":
            move = _GREEDY.choose(s.view(s.current_player), rng)
        else:
            move = legal[rng.randrange(len(legal))]
        s = s.apply(move)
        out.append(([str(m) for m in legal], digest(s)))
    return out


def trace_jobs(jobs: list[dict[str, Any]]) -> list[list[Step]]:
    """The trace of each job (see the module's docstring)."""
    return [trace_hand(j["profile"], j["seed"], j["policy"], j["moves"]) for j in jobs]


def flags_on(jobs: list[dict[str, Any]]) -> list[str]:
    """The fast-path flags (``Rules.fast``) on for some job's variant, each once."""
    on: set[str] = set()
    for j in jobs:
        fast = canasta.new_game(canasta.parse_variant(j["profile"]), seed=0).rules.fast
        on.update(name for name in FLAGS if getattr(fast, name))
    return sorted(on)


def main() -> int:
    """Read jobs on standard input, write their traces on standard output."""
    jobs = json.load(sys.stdin)
    json.dump({"plain": PLAIN_RULES, "flags_on": flags_on(jobs), "traces": trace_jobs(jobs)}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
