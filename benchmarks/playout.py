"""Random playouts of one profile: speed of the engine.

Usage::

    python benchmarks/playout.py [VARIANT] [--hands N] [--repeat R] [--seed S]
    python benchmarks/playout.py [VARIANT] --phases [--hands N] [--seed S]

Prints hands/s and moves/s (random legal move each step, legality-checked
``apply``; an uninstrumented loop), the moves/s of ``apply()`` alone
(replaying recorded hands), the median microseconds of ``legal_moves()`` and
of ``apply()`` (a second pass over the same hands, timing each call),
and the bytes a retained state costs (measured with tracemalloc over a whole
hand, states sharing what they share). Each figure is the median of R runs.

``--phases`` prints instead where the ``legal_moves()`` median comes from:
the calls of :func:`call_times`' pass, by kind of position (the draw alone, a
draw where the pile might be taken, play by a side that has opened or is
opening, the rest), each kind's share of the calls and its percentiles, and
beside them the median of a second call of each state (the same work, with
the engine's code and data fresh from the first: what the first call pays for
arriving cold). Run by hand; never from a timed test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Iterator, Sequence

import canasta
from canasta.engine import COMPILED


def play_rate(variant: canasta.Variant, hands: int, seed: int) -> tuple[float, float]:
    """Hands/s and moves/s of random play: ``legal_moves()``, pick one, ``apply()``.

    Nothing else runs in the loop: the per-call timings come from a separate,
    instrumented pass (:func:`call_times`), whose clock reads would slow this one.
    """
    rng = random.Random(seed)
    moves = 0
    clock = time.perf_counter
    start = clock()
    for h in range(hands):
        s = canasta.new_game(variant, seed=seed * 100_003 + h)
        while not s.is_hand_over:
            legal = s.legal_moves()
            s = s.apply(legal[rng.randrange(len(legal))])
            moves += 1
    elapsed = clock() - start
    return hands / elapsed, moves / elapsed


def timed_moves(
    variant: canasta.Variant, hands: int, seed: int
) -> Iterator[tuple[canasta.GameState, Sequence[canasta.Move], float, float]]:
    """Each move of the instrumented pass: the state, its legal moves, and the seconds its
    ``legal_moves()`` and the ``apply()`` of the random move picked took.

    Plays other deals than :func:`play_rate` with the same ``seed`` (the next
    ``hands`` seeds), so that neither pass finds the other's positions in the
    engine's caches.
    """
    rng = random.Random(seed)
    clock = time.perf_counter
    for h in range(hands, 2 * hands):
        s = canasta.new_game(variant, seed=seed * 100_003 + h)
        while not s.is_hand_over:
            t0 = clock()
            legal = s.legal_moves()
            t1 = clock()
            m = legal[rng.randrange(len(legal))]
            t2 = clock()
            after = s.apply(m)
            t3 = clock()
            yield s, legal, t1 - t0, t3 - t2
            s = after


def call_times(variant: canasta.Variant, hands: int, seed: int) -> tuple[list[float], list[float]]:
    """The seconds each ``legal_moves()`` and each ``apply()`` of :func:`timed_moves` took."""
    lm_times: list[float] = []
    ap_times: list[float] = []
    for _s, _legal, lm, ap in timed_moves(variant, hands, seed):
        lm_times.append(lm)
        ap_times.append(ap)
    return lm_times, ap_times


#: The kinds of position :func:`phase_times` sorts ``legal_moves()`` calls into.
PHASES = ("draw alone", "draw, pile takable", "play, opened", "play, opening", "other")


def phase_times(
    variant: canasta.Variant, hands: int, seed: int, again: dict[str, list[float]] | None = None
) -> dict[str, list[float]]:
    """The seconds each ``legal_moves()`` call of :func:`timed_moves` took (the pass
    :func:`call_times` times), by kind of position (:data:`PHASES`).

    A draw-phase call is "draw alone" where the draw was the only legal move;
    a play-phase call is sorted by whether the mover's side has opened.

    ``again``: filled, by the same kinds, with the seconds of a second
    ``legal_moves()`` of each state, made after the first call and the
    ``apply()`` with the state's cached facts dropped, so that it does the
    same work (bar the searches' caches, which it finds warm) with the
    engine's code and data fresh from the first call.
    """
    out: dict[str, list[float]] = {name: [] for name in PHASES}
    clock = time.perf_counter
    for s, legal, lm, _ap in timed_moves(variant, hands, seed):
        phase = s.phase_name
        if phase == "draw":
            kind = PHASES[0] if len(legal) == 1 else PHASES[1]
        elif phase == "play":
            kind = PHASES[2] if s.opened[s.rules.side_of[s.current]] else PHASES[3]
        else:
            kind = PHASES[4]
        out[kind].append(lm)
        if again is not None:
            # the engine's private per-state cache (canasta.engine.facts.Ctx),
            # dropped so the call works the listing out again
            object.__setattr__(s, "_ctx", None)
            t0 = clock()
            s.legal_moves()
            again[kind].append(clock() - t0)
    return out


def print_phases(variant: canasta.Variant, hands: int, seed: int) -> None:
    """Print :func:`phase_times`: each kind's share of the calls and its percentiles, in µs."""
    again: dict[str, list[float]] = {name: [] for name in PHASES}
    times = phase_times(variant, hands, seed, again)
    total = sum(len(ts) for ts in times.values())
    engine = "compiled with mypyc" if COMPILED else "pure Python"
    every = sorted(t for ts in times.values() for t in ts)
    print(f"variant {variant.name}: {hands} hands, {total} legal_moves() calls; engine {engine}")
    print(
        f"{'position':20} {'share':>6}  {'p10':>6} {'p30':>6} {'median':>6} {'p90':>6}"
        f"  {'again':>6}  (us; again: the median of a second call of the same state)"
    )
    for name in PHASES:
        ts = sorted(times[name])
        if not ts:
            continue
        p = [ts[min(len(ts) - 1, int(len(ts) * q))] * 1e6 for q in (0.1, 0.3, 0.5, 0.9)]
        second = statistics.median(again[name]) * 1e6
        print(
            f"{name:20} {len(ts) / total:6.1%}  {p[0]:6.1f} {p[1]:6.1f} {p[2]:6.1f} {p[3]:6.1f}"
            f"  {second:6.1f}"
        )
    every_again = [t for ts in again.values() for t in ts]
    print(
        f"{'all':20} {1:6.0%}  {'':6} {'':6} {statistics.median(every) * 1e6:6.1f} {'':6}"
        f"  {statistics.median(every_again) * 1e6:6.1f}"
    )


def replay_rate(variant: canasta.Variant, hands: int, seed: int) -> tuple[float, float]:
    """Hands/s and moves/s of the legality-checked ``apply`` alone, replaying recorded hands."""
    rng = random.Random(seed)
    games = []
    for h in range(hands):
        s = canasta.new_game(variant, seed=seed * 100_003 + h)
        moves = []
        while not s.is_hand_over:
            legal = s.legal_moves()
            m = legal[rng.randrange(len(legal))]
            moves.append(m)
            s = s.apply(m)
        games.append((seed * 100_003 + h, moves))
    clock = time.perf_counter
    count = 0
    start = clock()
    for game_seed, moves in games:
        s = canasta.new_game(variant, seed=game_seed)
        for m in moves:
            s = s.apply(m)
        count += len(moves)
    elapsed = clock() - start
    return len(games) / elapsed, count / elapsed


def state_bytes(variant: canasta.Variant, seed: int) -> float:
    rng = random.Random(seed)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    s = canasta.new_game(variant, seed=seed)
    kept = [s]
    while not s.is_hand_over:
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])
        kept.append(s)
    import gc

    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / len(kept)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant", nargs="?", default="classic")
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--phases", action="store_true", help="where the legal_moves() median comes from")
    args = ap.parse_args(argv)
    v = canasta.load_variant(args.variant)
    play_rate(v, 5, 999)  # warm up
    if args.phases:
        print_phases(v, args.hands, args.seed)
        return 0
    hps, mps, lm, apl, rep, rph = [], [], [], [], [], []
    for r in range(args.repeat):
        a, b = play_rate(v, args.hands, args.seed + r)
        hps.append(a)
        mps.append(b)
        c, d = call_times(v, args.hands, args.seed + r)
        lm.append(statistics.median(c) * 1e6)
        apl.append(statistics.median(d) * 1e6)
        e, f = replay_rate(v, max(1, args.hands // 4), args.seed + r)
        rph.append(e)
        rep.append(f)
    engine = "compiled with mypyc" if COMPILED else "pure Python"
    print(f"variant {v.name}: {args.hands} hands x {args.repeat} runs (medians); engine {engine}")
    print(f"hands/s          {statistics.median(hps):10.1f}")
    print(f"moves/s          {statistics.median(mps):10.0f}   (legal_moves + apply per move)")
    print(f"replay hands/s   {statistics.median(rph):10.1f}   (apply only, recorded hands)")
    print(f"replay moves/s   {statistics.median(rep):10.0f}   (apply only, recorded hands)")
    print(f"legal_moves() us {statistics.median(lm):10.1f}")
    print(f"apply() us       {statistics.median(apl):10.1f}")
    print(f"bytes/state      {state_bytes(v, args.seed):10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
