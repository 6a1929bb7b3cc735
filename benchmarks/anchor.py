"""Our random play against OpenSpiel's gin_rummy, alternated in one run: a ratio, not a figure.

Usage::

    python benchmarks/anchor.py [VARIANT] [--moves N] [--rounds R] [--seed S]
    python benchmarks/anchor.py --python /path/to/venv/bin/python   # another install
    python benchmarks/anchor.py --targets                            # and issue 19's targets

Needs ``pyspiel`` (``pip install open_spiel``, Python >= 3.11) beside canasta
in the interpreter that runs it. Each round plays N moves of random play
through the public API of both engines, one after the other, in one process
on one core:

- ours: ``state.legal_moves()``, a seeded random pick, ``state.apply(move)``,
  a new deal (``canasta.new_game``) when the hand ends;
- OpenSpiel's C++ ``gin_rummy`` driven from Python: ``state.legal_actions()``,
  a random pick, ``state.apply_action(action)``; chance nodes (the deal, each
  card drawn from the stock) are resolved by sampling ``chance_outcomes()``
  and are timed, but not counted as moves: a move is a player's decision on
  both sides (our draws are moves; theirs are a decision followed by a chance
  node). The rate counting chance nodes as moves too is printed beside it.

Rounds are timed by the CPU time of this process (``--clock wall`` for the
elapsed time), so that time the scheduler hands to other processes of a
shared machine is not counted; what such load still changes (caches, the
clock rate) it changes for both sides of a round alike, as rounds are short
and their order alternates (ours first, then theirs first). The figure to
quote is the median ratio over the rounds, which load moves far less than
either rate.

The engine that ran is printed: "compiled with mypyc" or "pure Python". To
measure the compiled engine, install a compiled wheel into another venv
(``CANASTA_COMPILE=1 python -m build --wheel``, then ``pip install`` the wheel
and ``open_spiel`` there) and pass that venv's interpreter with ``--python``:
the script re-runs itself under it with ``-I``, so that a ``PYTHONPATH``
pointing at a source tree cannot shadow the installed wheel. ``--require
compiled`` (or ``python``) fails when the other engine was imported.

``--targets`` adds, from the same process, the other figures issue 19 sets
targets for (medians over R runs, computed as ``benchmarks/playout.py``
does): the median ``legal_moves()`` time (wall clock, per call), the bytes a
kept state holds (tracemalloc over a whole hand's states), and Hand and
Foot's moves/s against the variant's, alternated the same way. Run by hand; never from a timed test.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Issue 19's targets: (ratio to gin_rummy, median legal_moves() in µs) by engine.
TARGETS = {"pure Python": (1.0, 8.0), "compiled with mypyc": (2.0, 3.0)}
#: At most this many bytes retained per state (``playout.py``'s measure: a
#: whole hand's states kept together), either engine.
TARGET_BYTES = 1024
#: Hand and Foot's time per move at most this many times classic's.
TARGET_HF = 1.5


#: The clock rounds are timed with: the CPU time of this process by default
#: (``--clock process``), so that the time the scheduler gives other processes
#: on a busy machine is not counted; ``--clock wall`` for elapsed time.
CLOCKS = {"process": time.process_time, "wall": time.perf_counter}
clock = CLOCKS["process"]


def ours_rate(variant: Any, moves: int, seed: int) -> float:
    """Moves/s of ``moves`` moves of random play in ``variant``; new hands as needed."""
    import canasta

    rng = random.Random(seed)
    done = 0
    hand = 0
    start = clock()
    while done < moves:
        s = canasta.new_game(variant, seed=seed * 100_003 + hand)
        hand += 1
        while not s.is_hand_over and done < moves:
            legal = s.legal_moves()
            s = s.apply(legal[rng.randrange(len(legal))])
            done += 1
    return done / (clock() - start)


def uniform_chance(game: Any, hands: int, seed: int) -> bool:
    """Whether every chance node of ``hands`` random games has equally likely outcomes.

    gin_rummy's do (each unseen card alike): the timed loop then picks one
    directly, and checks nothing per node, so that the check costs them nothing.
    """
    rng = random.Random(seed)
    for _ in range(hands):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                if any(p != outcomes[0][1] for _, p in outcomes):
                    return False
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
    return True


def _sample(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    r = rng.random()
    for action, p in outcomes:
        r -= p
        if r < 0:
            return action
    return outcomes[-1][0]


def theirs_rate(game: Any, moves: int, seed: int, uniform: bool) -> tuple[float, float]:
    """Decisions/s and (decisions + chance nodes)/s of ``moves`` decisions of random play.

    ``uniform``: every chance node's outcomes are equally likely (see
    :func:`uniform_chance`), so one is picked directly instead of sampled.
    """
    rng = random.Random(seed)
    done = 0
    chance = 0
    start = clock()
    while done < moves:
        s = game.new_initial_state()
        while not s.is_terminal() and done < moves:
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                if uniform:
                    s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    s.apply_action(_sample(outcomes, rng))
                chance += 1
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                done += 1
    elapsed = clock() - start
    return done / elapsed, (done + chance) / elapsed


def alternate(
    a: Callable[[int], float], b: Callable[[int], float], rounds: int
) -> list[tuple[float, float]]:
    """(a, b) per round, a first in even rounds and b first in odd ones."""
    out = []
    for r in range(rounds):
        if r % 2 == 0:
            x = a(r)
            y = b(r)
        else:
            y = b(r)
            x = a(r)
        out.append((x, y))
    return out


def _playout_module() -> Any:
    # benchmarks/ is no package, and under -I the script's directory is not on
    # sys.path: import playout.py from beside this file
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    import playout

    return playout


def targets(variant: Any, engine: str, ratio: float, args: argparse.Namespace) -> None:
    """Print issue 19's other figures, each with its target and whether it is met."""
    import canasta

    playout = _playout_module()
    want_ratio, want_lm = TARGETS[engine]
    lm = []
    for r in range(args.rounds):
        times, _ = playout.call_times(variant, args.hands, args.seed + r)
        lm.append(statistics.median(times) * 1e6)
    per_state = statistics.median(
        playout.state_bytes(variant, args.seed + r) for r in range(args.rounds)
    )
    hf = canasta.load_variant("hand-and-foot")
    ours_rate(hf, 2000, 999)  # warm up its caches as the classic pass was
    pairs = alternate(
        lambda r: ours_rate(variant, args.moves, args.seed + r),
        lambda r: ours_rate(hf, args.moves, args.seed + r),
        args.rounds,
    )
    hf_factor = statistics.median(c / h for c, h in pairs)

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    print(f"targets for the {engine} engine ({variant.name}):")
    print(
        f"  ratio to gin_rummy      {ratio:8.2f}   target >= {want_ratio:.1f}: {verdict(ratio >= want_ratio)}"
    )
    print(
        f"  legal_moves() median us {statistics.median(lm):8.1f}   target <= {want_lm:.0f}: "
        f"{verdict(statistics.median(lm) <= want_lm)}   (runs: {_fmt(lm, '.1f')})"
    )
    print(
        f"  bytes/kept state        {per_state:8.0f}   target <= {TARGET_BYTES}: "
        f"{verdict(per_state <= TARGET_BYTES)}"
    )
    print(
        f"  hand-and-foot per move  {hf_factor:8.2f}x  {variant.name}'s time, target <= {TARGET_HF}: "
        f"{verdict(hf_factor <= TARGET_HF)}   (moves/s {variant.name} {_fmt([c for c, _ in pairs], '.0f')}; "
        f"hand-and-foot {_fmt([h for _, h in pairs], '.0f')})"
    )


def _fmt(xs: list[float], spec: str) -> str:
    return " ".join(format(x, spec) for x in xs)


def _reexec(python: str, argv: list[str], script: str = __file__) -> int:
    """Run ``script`` (this file) under ``python`` with ``-I`` and ``argv`` less ``--python``."""
    # drop --python VALUE / --python=VALUE, keep the rest
    rest = []
    skip = False
    for a in argv:
        if skip:
            skip = False
        elif a == "--python":
            skip = True
        elif not a.startswith("--python="):
            rest.append(a)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([python, "-I", str(Path(script).resolve()), *rest], env=env).returncode


def common_arguments(ap: argparse.ArgumentParser, moves: str) -> None:
    """The arguments this script shares with ``bots.py``; ``moves``: what a round counts."""
    ap.add_argument("variant", nargs="?", default="classic")
    ap.add_argument("--moves", type=int, default=5_000, help=f"{moves} per side per round")
    ap.add_argument("--rounds", type=int, default=11, help="alternated rounds (medians over them)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="gin_rummy", help="the OpenSpiel game (default gin_rummy)")
    ap.add_argument("--python", help="re-run this script under that interpreter (another venv)")
    ap.add_argument(
        "--require",
        choices=["compiled", "python"],
        help="fail unless this engine is the one imported",
    )


def start(ap: argparse.ArgumentParser, args: argparse.Namespace, argv: list[str], script: str = __file__) -> int | None:
    """What this script and ``bots.py`` do before measuring: re-run under ``--python``,
    check the counts, pyspiel and the engine imported. An exit code to stop with, or None."""
    if args.python:
        return _reexec(args.python, argv, script)
    if args.rounds < 1 or args.moves < 1:
        ap.error("--rounds and --moves must be at least 1")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print(f"{Path(script).name} needs pyspiel: pip install open_spiel (Python >= 3.11)", file=sys.stderr)
        return 2
    import canasta

    if args.require and args.require != ("compiled" if engine_name() == ENGINES[1] else "python"):
        print(
            f"expected the {args.require} engine, imported the {engine_name()} one from "
            f"{canasta.__file__}",
            file=sys.stderr,
        )
        return 1
    return None


#: The engines' names as the scripts print them: Python, compiled.
ENGINES = ("pure Python", "compiled with mypyc")


def engine_name() -> str:
    """The name of the engine imported (:data:`ENGINES`)."""
    from canasta.engine import COMPILED

    return ENGINES[1] if COMPILED else ENGINES[0]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common_arguments(ap, "moves")
    ap.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="process",
        help="time rounds by this process's CPU time (default) or by the wall clock",
    )
    ap.add_argument("--cpu", type=int, help="pin the process to this CPU (Linux)")
    ap.add_argument(
        "--targets",
        action="store_true",
        help="also measure legal_moves(), bytes/state and Hand and Foot vs classic",
    )
    ap.add_argument("--hands", type=int, default=60, help="hands per run for --targets' timings")
    args = ap.parse_args(argv)
    stop = start(ap, args, argv)
    if stop is not None:
        return stop
    import pyspiel

    import canasta

    engine = engine_name()
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    global clock
    clock = CLOCKS[args.clock]
    variant = canasta.load_variant(args.variant)
    game = pyspiel.load_game(args.game)
    ours_rate(variant, 2000, 999)  # warm up: imports, caches, the first deals
    uniform = uniform_chance(game, 20, 999)  # and warms theirs up
    chance_rates: list[float] = []

    def theirs(r: int) -> float:
        rate, with_chance = theirs_rate(game, args.moves, args.seed + r, uniform)
        chance_rates.append(with_chance)
        return rate

    gc.collect()
    pairs = alternate(lambda r: ours_rate(variant, args.moves, args.seed + r), theirs, args.rounds)
    ratios = [o / t for o, t in pairs]
    ratio = statistics.median(ratios)
    print(
        f"{variant.name} ({engine} engine, canasta {canasta.__version__}) against OpenSpiel "
        f"{args.game} (pyspiel {getattr(pyspiel, '__version__', '?')}), "
        f"Python {sys.version.split()[0]}; {args.clock} clock"
    )
    print(f"{args.rounds} alternated rounds of {args.moves} moves per side; moves/s per round:")
    print("  round   ours    theirs  (with chance nodes)   ratio")
    for r, ((o, t), c, q) in enumerate(zip(pairs, chance_rates, ratios, strict=True)):
        print(f"  {r + 1:5d} {o:7.0f}  {t:8.0f}  ({c:8.0f})            {q:5.2f}")
    print(
        f"median  {statistics.median(o for o, _ in pairs):7.0f}  "
        f"{statistics.median(t for _, t in pairs):8.0f}  ({statistics.median(chance_rates):8.0f})"
    )
    print(
        f"median ratio ours/{args.game}: {ratio:.2f} "
        f"(counting their chance nodes as moves: "
        f"{statistics.median(o / c for (o, _), c in zip(pairs, chance_rates, strict=True)):.2f})"
    )
    if args.targets:
        targets(variant, engine, ratio, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
