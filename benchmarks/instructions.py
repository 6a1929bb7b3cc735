"""A fixed workload for counting the engine's instructions, for noisy machines.

Usage::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/instructions.py [VARIANT] [--hands N]
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/instructions.py [VARIANT] --hands 0

Plays the same N random hands (legal_moves, a seeded random pick, apply) every
time and prints nothing. Run under callgrind, the "Collected" line counts the
instructions executed: the same count for the same code, whatever else the
machine is doing, so two versions of the engine can be compared where wall
times swing by a quarter from one run to the next. Subtract the count of
``--hands 0`` (start-up: imports and loading the profile) from both. Counts
leave out what instructions do not show (cache misses, for one): confirm a
change with ``benchmarks/playout.py`` on a quiet machine.
"""

from __future__ import annotations

import argparse
import random
import sys

import canasta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant", nargs="?", default="classic")
    ap.add_argument("--hands", type=int, default=40)
    args = ap.parse_args(argv)
    v = canasta.load_variant(args.variant)
    rng = random.Random(1)
    for h in range(args.hands):
        s = canasta.new_game(v, seed=h)
        while not s.is_hand_over:
            legal = s.legal_moves()
            s = s.apply(legal[rng.randrange(len(legal))])
    return 0


if __name__ == "__main__":
    sys.exit(main())
