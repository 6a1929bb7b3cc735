"""Greedy against greedy, against OpenSpiel's gin_rummy random play, alternated in one run.

Usage::

    python benchmarks/bots.py [VARIANT] [--bot greedy] [--moves N] [--rounds R] [--seed S]
    python benchmarks/bots.py --python /path/to/venv/bin/python   # another install

Needs ``pyspiel`` (``pip install open_spiel``, Python >= 3.11) beside canasta
in the interpreter that runs it. ``benchmarks/anchor.py`` measures the engine
under random play; this measures what simulations and experiments run: every
seat a bot that sees only its view. Each round plays N decisions a side, one
side after the other in one process, the order swapped every round:

- ours: ``bot.choose(state.view(state.current), rng)`` then
  ``state.apply(move)``, a new deal when the hand ends (all seats the same
  bot, ``greedy`` by default);
- OpenSpiel's ``gin_rummy``: random play, exactly as ``anchor.py`` plays it
  (decisions counted, chance nodes played and timed but not counted).

Rounds are timed by this process's CPU time; the figure to quote is the median
ratio of the rounds (ours ÷ theirs), which the machine's load moves far less
than either rate.

After the rounds, the parts of a decision are timed apart over the positions
of recorded hands (each part over all positions, several passes, CPU time per
call): ``state.view(seat)``; ``view.legal_moves()`` (the first call on a
fresh view: the state that lists the seat's moves is built, then the engine
lists them); the bot's own work (``bot.choose`` on a view whose moves are
listed already); and ``state.apply(move)`` on the real state. Their sum is
close to the time of a decision in the rounds; what is left is the loop.
``--profile`` adds cProfile's table of one round (ours), the costliest
functions by their own time.

As with ``anchor.py``, ``--python`` re-runs this script under another
interpreter with ``-I`` (to measure the compiled build installed there), and
``--require compiled`` (or ``python``) fails when the other engine was
imported. Run by hand; never from a timed test.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

clock = time.process_time


def _anchor() -> Any:
    # benchmarks/ is no package, and under -I the script's directory is not on
    # sys.path: import anchor.py from beside this file
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    import anchor

    return anchor


def bot_rate(variant: Any, bot: Any, moves: int, seed: int) -> float:
    """Decisions/s of ``moves`` decisions of ``bot`` against itself; new deals as needed."""
    import canasta

    rng = random.Random(seed)
    done = 0
    hand = 0
    start = clock()
    while done < moves:
        s = canasta.new_game(variant, seed=seed * 100_003 + hand)
        hand += 1
        while not s.is_hand_over and done < moves:
            s = s.apply(bot.choose(s.view(s.current), rng))
            done += 1
    return done / (clock() - start)


def positions(variant: Any, bot: Any, hands: int, seed: int) -> list[tuple[Any, Any]]:
    """Every position of ``hands`` hands of ``bot`` against itself, with the move it chose."""
    import canasta

    out = []
    rng = random.Random(seed)
    for h in range(hands):
        s = canasta.new_game(variant, seed=seed * 100_003 + h)
        while not s.is_hand_over:
            move = bot.choose(s.view(s.current), rng)
            out.append((s, move))
            s = s.apply(move)
    return out


def parts(variant: Any, bot: Any, hands: int, seed: int, passes: int) -> list[tuple[str, float]]:
    """CPU µs per decision of each part of a decision, over the positions of recorded hands.

    Each part is timed over fresh objects, as a decision meets them: views not
    yet asked for moves, states not yet asked anything.
    """
    recorded = positions(variant, bot, hands, seed)
    rng = random.Random(seed)
    totals = {"view": 0.0, "list": 0.0, "choose": 0.0, "apply": 0.0}
    # the views of a pass are kept together, as the loop never keeps them: the
    # collector, which they would keep busy, is off while they are timed
    gc.collect()
    gc.disable()
    try:
        for _ in range(passes):
            _pass(recorded, bot, rng, totals)
    finally:
        gc.enable()
    n = len(recorded) * passes
    names = {
        "view": "state.view(seat)",
        "list": "view.legal_moves(), first call",
        "choose": f"{bot.name} bot's own work (moves listed)",
        "apply": "state.apply(move)",
    }
    return [(names[k], t / n * 1e6) for k, t in totals.items()]


def _pass(recorded: list[tuple[Any, Any]], bot: Any, rng: random.Random, totals: dict[str, float]) -> None:
    start = clock()
    views = [s.view(s.current) for s, _ in recorded]
    totals["view"] += clock() - start
    start = clock()
    for v in views:
        v.legal_moves()
    totals["list"] += clock() - start
    start = clock()
    for v in views:
        bot.choose(v, rng)
    totals["choose"] += clock() - start
    start = clock()
    for s, m in recorded:
        s.apply(m)  # a state forgets what it worked out once moved from: fresh again
    totals["apply"] += clock() - start


def profile_table(variant: Any, bot: Any, moves: int, seed: int, top: int) -> str:
    """cProfile's table of one round of ours: the ``top`` functions by their own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    bot_rate(variant, bot, moves, seed)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    anchor = _anchor()
    anchor.common_arguments(ap, "decisions")
    ap.add_argument("--bot", default="greedy", help="the bot every seat plays (default greedy)")
    ap.add_argument("--hands", type=int, default=20, help="recorded hands for the parts' timings")
    ap.add_argument("--passes", type=int, default=5, help="passes over them per part")
    ap.add_argument("--profile", action="store_true", help="add cProfile's table of one round")
    args = ap.parse_args(argv)
    stop = anchor.start(ap, args, argv, __file__)
    if stop is not None:
        return int(stop)
    import pyspiel

    import canasta
    from canasta.play.bots import make_bot

    engine = anchor.engine_name()
    variant = canasta.load_variant(args.variant)
    bot = make_bot(args.bot)
    game = pyspiel.load_game(args.game)
    bot_rate(variant, bot, 2000, 999)  # warm up: imports, caches, the first deals
    uniform = anchor.uniform_chance(game, 20, 999)  # and warms theirs up
    pairs = anchor.alternate(
        lambda r: bot_rate(variant, bot, args.moves, args.seed + r),
        lambda r: anchor.theirs_rate(game, args.moves, args.seed + r, uniform)[0],
        args.rounds,
    )
    ratios = [o / t for o, t in pairs]
    print(f"{variant.name}, {bot.name} against {bot.name} ({engine} engine, canasta "
          f"{canasta.__version__}) against OpenSpiel {args.game} random play, "
          f"Python {sys.version.split()[0]}; CPU time")
    print(f"{args.rounds} alternated rounds of {args.moves} decisions per side; decisions/s:")
    print("  round   ours    theirs   ratio")
    for r, ((o, t), q) in enumerate(zip(pairs, ratios, strict=True)):
        print(f"  {r + 1:5d} {o:7.0f}  {t:8.0f}   {q:5.2f}")
    print(f"median  {statistics.median(o for o, _ in pairs):7.0f}  "
          f"{statistics.median(t for _, t in pairs):8.0f}")
    print(f"median ratio ours/{args.game}: {statistics.median(ratios):.2f}")
    per_decision = 1e6 / statistics.median(o for o, _ in pairs)
    print(f"\nthe parts of a decision ({args.hands} recorded hands, {args.passes} passes; "
          f"a decision in the rounds: {per_decision:.1f} µs):")
    for name, us in parts(variant, bot, args.hands, args.seed, args.passes):
        print(f"  {name:42s} {us:6.1f} µs")
    if args.profile:
        print("\ncProfile, one round of ours (its clock slows every call):")
        print(profile_table(variant, bot, args.moves, args.seed, 20))
    return 0


if __name__ == "__main__":
    sys.exit(main())
