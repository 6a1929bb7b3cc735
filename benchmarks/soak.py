"""Soak test: many random hands across every bundled profile, watching for faults.

Usage::

    python benchmarks/soak.py [--hands N] [--seed S] [--sample K] [--max-hand-seconds T]

Plays N random hands (default 20,000), cycling through every bundled profile:
at every step ``view()`` of every seat, then a random move from
``legal_moves()``, passed to ``apply()``. Every K-th state (default 100), and the
last state of each hand, is also written with ``to_json`` and read back with
``from_json`` (it must compare equal), and so is one seat's view of it (the
seats in turn). It checks that

* no call raises, no hand reaches a position with no legal move, and no hand
  runs past 5,000 moves;
* no hand takes longer than T seconds (default 5; the slowest is printed);
* memory levels off: the resident set size (``VmRSS`` in ``/proc/self/status``,
  after a garbage collection) is sampled every 1,000 hands and printed; the
  run fails if it grows more than 5% over the last quarter of the samples.
  The fill of the engine's bounded caches (``functools.lru_cache``) is printed
  with each sample, to tell a cache still filling from a leak.

Prints a summary and exits 1 on any failure. Run by hand (it takes minutes);
never from a timed test.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import traceback
from dataclasses import dataclass, field

import canasta
from canasta.engine import COMPILED

#: A hand longer than this is taken to be a loop.
MAX_MOVES = 5000
#: Hands between two memory samples.
SAMPLE_HANDS = 1000
#: Growth of the resident set over the last quarter of the samples that fails the run.
MAX_GROWTH = 0.05


def rss_kib() -> int:
    """The process's resident set size in KiB (0 where ``/proc`` is missing)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class Soak:
    """What the run has seen so far."""

    hands: int = 0
    moves: int = 0
    round_trips: int = 0
    views: int = 0
    per_profile: dict[str, int] = field(default_factory=dict)
    slowest: tuple[float, str, int, int] = (0.0, "", 0, 0)  # seconds, profile, seed, moves
    failures: list[str] = field(default_factory=list)
    rss: list[tuple[int, int]] = field(default_factory=list)  # (hands done, KiB)
    caches: list[dict[str, int]] = field(default_factory=list)  # entries per cache, per sample


def check_state(state: canasta.GameState, seat: int, soak: Soak) -> None:
    """Round-trip ``state`` and ``seat``'s view of it through JSON."""
    back = canasta.from_json(canasta.to_json(state), canasta.GameState)
    if back != state:
        raise AssertionError("from_json(to_json(state)) differs from the state")
    view = state.view(seat)
    text = canasta.to_json(view)
    if canasta.to_json(canasta.from_json(text, canasta.SeatView)) != text:
        raise AssertionError(f"the view of seat {seat} does not survive a JSON round trip")
    soak.round_trips += 1


def play_hand(variant: canasta.Variant, seed: int, sample: int, soak: Soak) -> int:
    """Play one random hand of ``variant`` dealt with ``seed``; return its moves."""
    rng = random.Random(seed)
    state = canasta.new_game(variant, seed=seed)
    seats = range(variant.players.count)
    moves = 0
    while not state.is_hand_over:
        legal = state.legal_moves()
        if not legal:
            raise AssertionError(f"no legal move at move {moves} ({state.phase_name} phase)")
        for seat in seats:
            state.view(seat)
        soak.views += len(seats)
        state = state.apply(legal[rng.randrange(len(legal))])
        moves += 1
        if moves % sample == 0:
            check_state(state, (moves // sample) % len(seats), soak)
        if moves > MAX_MOVES:
            raise AssertionError(f"the hand runs past {MAX_MOVES} moves")
    check_state(state, seed % len(seats), soak)
    return moves


def cache_fill() -> list[tuple[str, int, int]]:
    """``(function, entries, maxsize)`` of every ``lru_cache`` in ``canasta``, fullest first.

    A bounded cache that is still filling makes memory grow for a while; this
    tells that growth apart from a leak.
    """
    seen: dict[int, tuple[str, int, int]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("canasta"):
            continue
        for value in list(vars(module).values()):
            info = getattr(value, "cache_info", None)
            if callable(info) and id(value) not in seen:
                got = info()
                where = f"{getattr(value, '__module__', name)}.{getattr(value, '__qualname__', '?')}"
                seen[id(value)] = (where.removeprefix("canasta."), got.currsize, got.maxsize or 0)
    return sorted((c for c in seen.values() if c[1]), key=lambda t: -t[1])


def growth(samples: list[tuple[int, int]]) -> float:
    """Relative growth of the resident set over the last quarter of ``samples``."""
    if len(samples) < 4:
        return 0.0
    quarter = samples[-(len(samples) // 4 + 1):]
    start = quarter[0][1]
    return (max(kib for _, kib in quarter) - start) / start if start else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000, help="hands to play (default 20000)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--sample", type=int, default=100,
                    help="round-trip every K-th state through JSON (default 100)")
    ap.add_argument("--max-hand-seconds", type=float, default=5.0,
                    help="fail if a hand takes longer (default 5)")
    args = ap.parse_args(argv)
    names = canasta.variant_names()
    variants = [canasta.load_variant(n) for n in names]
    soak = Soak(per_profile=dict.fromkeys(names, 0))
    clock = time.perf_counter
    gc.collect()
    soak.rss.append((0, rss_kib()))
    soak.caches.append({n: k for n, k, _ in cache_fill()})
    start = clock()
    for h in range(args.hands):
        variant = variants[h % len(variants)]
        seed = args.seed * 1_000_003 + h
        t0 = clock()
        try:
            moves = play_hand(variant, seed, max(1, args.sample), soak)
        except Exception as exc:  # every fault is a finding
            if len(soak.failures) < 5:
                soak.failures.append(
                    f"{variant.name} seed {seed}: {type(exc).__name__}: {exc}\n"
                    + "".join(traceback.format_exc(limit=6))
                )
            else:
                soak.failures.append(f"{variant.name} seed {seed}: {type(exc).__name__}")
            moves = 0
        took = clock() - t0
        soak.hands += 1
        soak.moves += moves
        soak.per_profile[variant.name] += 1
        if took > soak.slowest[0]:
            soak.slowest = (took, variant.name, seed, moves)
        if (h + 1) % SAMPLE_HANDS == 0:
            gc.collect()
            soak.rss.append((h + 1, rss_kib()))
            soak.caches.append({n: k for n, k, _ in cache_fill()})
            biggest = cache_fill()[:2]
            print(f"  {h + 1:>7} hands  {clock() - start:7.1f} s  RSS {soak.rss[-1][1] / 1024:6.1f} MiB"
                  "  caches " + ", ".join(f"{n} {k}/{m}" for n, k, m in biggest),
                  file=sys.stderr, flush=True)
    elapsed = clock() - start
    if soak.rss[-1][0] != soak.hands:
        gc.collect()
        soak.rss.append((soak.hands, rss_kib()))
        soak.caches.append({n: k for n, k, _ in cache_fill()})
    took, slow_name, slow_seed, slow_moves = soak.slowest
    grew = growth(soak.rss[1:])  # the first sample is before any hand: start-up, not a leak
    if took > args.max_hand_seconds:
        soak.failures.append(
            f"slowest hand over the bound: {took:.3f} s > {args.max_hand_seconds} s")
    if grew > MAX_GROWTH:
        # caches that gained entries over the last quarter explain some growth, not all
        quarter = soak.caches[-(len(soak.caches[1:]) // 4 + 1)]
        filling = [f"{n} {quarter.get(n, 0)} -> {k} of {m}" for n, k, m in cache_fill()
                   if k > quarter.get(n, 0)]
        why = (f"; engine caches were still filling ({', '.join(filling[:3])}): run more "
               "hands to see whether it levels off" if filling else "")
        soak.failures.append(
            f"memory grew {100 * grew:.1f}% over the last quarter (bound {100 * MAX_GROWTH:.0f}%)"
            + why)

    engine = "compiled with mypyc" if COMPILED else "pure Python"
    print(f"soak: {soak.hands} hands of {len(names)} profiles, seed {args.seed}, engine {engine}")
    print(f"  profiles     {', '.join(f'{n} {c}' for n, c in soak.per_profile.items())}")
    print(f"  time         {elapsed:.1f} s ({soak.hands / elapsed:.0f} hands/s, "
          f"{soak.moves / elapsed:.0f} moves/s)")
    print(f"  moves        {soak.moves} ({soak.moves / max(1, soak.hands):.1f} per hand)")
    print(f"  checks       {soak.round_trips} JSON round trips of a state and a view, "
          f"{soak.views} views")
    print(f"  slowest hand {took * 1000:.1f} ms ({slow_name}, seed {slow_seed}, {slow_moves} moves); "
          f"bound {args.max_hand_seconds} s")
    print("  RSS (MiB)    " + ", ".join(f"{kib / 1024:.1f}" for _, kib in soak.rss)
          + f"  (every {SAMPLE_HANDS} hands, the first before any)")
    print(f"  growth       {100 * grew:+.1f}% over the last quarter (bound {100 * MAX_GROWTH:.0f}%)")
    caches = cache_fill()
    filling = [(n, k, m) for n, k, m in caches if m and k < m]
    print("  caches       " + ", ".join(f"{n} {k}/{m or 'unbounded'}" for n, k, m in caches[:4])
          + (f" ({len(filling)} of {len(caches)} still filling)" if filling else " (all full)"))
    if soak.failures:
        print(f"FAILED: {len(soak.failures)} problem(s)")
        for failure in soak.failures[:10]:
            print("  " + failure.replace("\n", "\n  "))
        return 1
    print("OK: no exception, no dead end, every hand within the bound, memory level")
    return 0


if __name__ == "__main__":
    sys.exit(main())
