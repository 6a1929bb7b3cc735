"""Stress run: the largest hands and decks the rule options allow, with the slowest calls.

Usage::

    python benchmarks/stress.py [--minutes M] [--variants N] [--seed S] [--save DIR] [--save-ms T]
    python benchmarks/stress.py --profile house.yaml [--profile other.yaml ...]

The campaign (benchmarks/campaign.py) draws its house rules at random and
seldom reaches the corners where the move searches work hardest: many cards in
hand, several decks, several melds of one rank, sequences with wild cards in
their gaps, openings that must hold a natural canasta, clean openings, feet.
This run composes such profiles on purpose: each variant is a bundled profile
with the largest deal its range allows (``deal.hand_size`` 20 to 30,
``deck.decks`` up to 12, ``draw.count`` 3) and a random few of the heavy
options on top (:data:`HEAVY`; a clean opening never beside sequences or
several melds of a rank, which the engine does not play together), or each
``--profile`` given, once. Each variant that deals plays one hand with
each policy (random legal moves; the greedy bot), and the CPU time of every
``legal_moves()`` call and of the move played (``apply``) is measured, less
any pause of the garbage collector within it; a few other listed moves are
applied too (``apply-check``), since applying some moves (going out) runs a
search of its own.

The report gives, for each kind of call, the count, the median, the 99th and
99.9th percentiles and the maximum, the count over 50 ms and over 250 ms, and
the slowest calls with a reproducer each (the profile, the deal seed, the
policy and the number of moves played before the call). ``--save DIR`` writes
each position slower than ``--save-ms`` (default 250) as JSON, in the form
tests/data/slow keeps (``profile``, ``state``, ``moves``) with a ``note`` (where
it was reached and the call's CPU time in the run, warm caches and all), to be
kept as a test position once it is fast. A dead end (no legal move while the hand is not
over) or an exception is reported too, though the campaign is where the
contract is checked in full.

The run stops after ``--minutes`` of CPU (default 10) or ``--variants``; it
exits 1 if a call took over 250 ms or a hand broke. Run it by hand, under
``nice``; tests/test_benchmarks.py runs a few moves of it so that it keeps working.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import canasta  # noqa: E402
import house_rules as hr  # noqa: E402 - tests/ is put on the path just above
from canasta.engine.state import GameState  # noqa: E402

#: The bundled profiles composed on.
BASES = ("classic", "classic-2p", "draw-two", "samba", "bolivia", "brazilian", "uruguayan",
         "modern-american", "modern-american-2p", "hand-and-foot", "hand-and-foot-pagat")

#: Options that make the searches work hard, each a change a profile can make;
#: a variant takes a random few of them.
HEAVY: dict[str, dict[str, Any]] = {
    "several-melds": {"melds": {"duplicate_ranks": "any"}},
    "sequences": {"sequences": {"allowed": True}},
    "wild-in-gap": {"sequences": {"allowed": True, "wild_in_gap": True, "join": False}},
    "grow": {"sequences": {"allowed": True, "grow_when_going_out": True}},
    "natural-canasta-opening": {"opening": {"by": "score", "score_table": [
        {"minimum": 0, "canasta": "natural"}, {"from_score": 0, "minimum": 50, "canasta": "natural"}]}},
    "any-canasta-opening": {"opening": {"by": "score", "score_table": [
        {"minimum": 0, "canasta": "any"}, {"from_score": 0, "minimum": 120, "canasta": "any"}]}},
    "clean-opening": {"opening": {"natural_meld": 3}},
    "feet": {"deal": {"foot_size": 22}},
    "many-jokers": {"deck": {"jokers_per_deck": 4}},
    "two-canastas-out": {"going_out": {"canastas": 2}},
}

#: The heavy options that the engine does not play with a clean opening meld
#: (``opening.natural_meld``; new_game refuses them): sequences, several melds of a rank.
CLASH_WITH_CLEAN = ("several-melds", "sequences", "wild-in-gap", "grow")

#: The kinds of call timed.
CALLS = ("legal_moves", "apply", "apply-check")
#: Other listed moves applied at each position (besides the one played).
CHECKED = 2
#: Slowest calls listed in the report.
SLOWEST = 12
#: A hand is stopped after this many moves (random play of a large deal can wander).
MAX_MOVES = 4000


def merge(into: dict[str, Any], extra: dict[str, Any]) -> None:
    """Merge profile data ``extra`` into ``into``, area by area."""
    for area, values in extra.items():
        into.setdefault(area, {}).update(values)


def draw_stress_profile(rng: random.Random) -> tuple[str, str]:
    """A stress profile: its YAML text and a short name of what it changes."""
    base = rng.choice(BASES)
    values = hr.base_values(base)
    picked = rng.sample(sorted(HEAVY), rng.randint(1, 4))
    clean = "clean-opening" in picked or values["opening"]["natural_meld"] is not None
    clashing = (
        values["sequences"]["allowed"] or values["melds"]["duplicate_ranks"] == "any"
        or any(name in picked for name in CLASH_WITH_CLEAN)
    )
    if clean and clashing:
        # keep what the base has: its clean opening, else its sequences or several melds
        drop = ("clean-opening",) if values["opening"]["natural_meld"] is None else CLASH_WITH_CLEAN
        picked = [name for name in picked if name not in drop]
    data: dict[str, Any] = {"extends": base}
    deal = {"hand_size": rng.choice((20, 24, 30))}
    merge(data, {"deal": deal, "deck": {"decks": rng.choice((4, 6, 8, 12))}, "draw": {"count": 3}})
    for name in picked:
        merge(data, HEAVY[name])
    text = yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100)
    return text, f"{base} +{','.join(picked)} hand {deal['hand_size']} decks {data['deck']['decks']}"


class Run:
    """The times of one run: every call's CPU seconds by kind, and the slowest with where they were."""

    def __init__(self, save: Path | None, save_ms: float) -> None:
        self.times: dict[str, list[float]] = {name: [] for name in CALLS}
        self.slowest: list[tuple[float, str, str, str]] = []
        self.problems: list[str] = []
        self.save, self.save_ms, self.saved = save, save_ms, 0
        self.variants = self.refused = self.hands = 0

    def timed(self, name: str, call: Callable[[], Any], where: Callable[[], str], text: str,
              keep: Callable[[], dict[str, Any]] | None = None) -> Any:
        """Run ``call``, keep its CPU time under ``name`` (less the collector's pauses)."""
        paused = hr.GC_PAUSES[0]
        t0 = time.process_time()
        out = call()
        seconds = time.process_time() - t0 - (hr.GC_PAUSES[0] - paused)
        self.times[name].append(seconds)
        if len(self.slowest) < SLOWEST or seconds > self.slowest[-1][0]:
            self.slowest.append((seconds, name, where(), text))
            self.slowest.sort(reverse=True)
            del self.slowest[SLOWEST:]
        if keep is not None and self.save is not None and seconds * 1000 > self.save_ms:
            self.saved += 1
            self.save.mkdir(parents=True, exist_ok=True)
            path = self.save / f"slow-{self.saved:03d}-{seconds * 1000:.0f}ms.json"
            data = {**keep(), "note": f"{where()}: {name} took {seconds * 1000:.0f} ms of CPU in the run"}
            path.write_text(json.dumps(data) + "\n", encoding="utf-8")
        return out

    def play(self, text: str, label: str, seed: int, policy: str) -> None:
        """Play one hand of the variant ``text``, timing its calls."""
        variant = canasta.parse_variant(text)
        s = canasta.new_game(variant, seed=seed)
        rng, tries = random.Random(seed), random.Random(-1 - seed)
        choose = hr.POLICIES[policy]
        self.hands += 1
        for index in range(MAX_MOVES):
            if s.is_hand_over:
                return
            where = lambda i=index: f"{label} seed {seed} {policy} move {i}"  # noqa: E731

            def keep(s: GameState = s) -> dict[str, Any]:
                return {"profile": text, "state": json.loads(canasta.to_json(s)),
                        "moves": [str(m) for m in s.legal_moves()]}

            legal = self.timed("legal_moves", s.legal_moves, where, text, keep)
            if not legal:
                self.problems.append(f"dead end: {where()}\n{text}")
                return
            for m in tries.sample(legal, min(CHECKED, len(legal))):
                self.timed("apply-check", lambda s=s, m=m: s.apply(m), where, text)
            move = choose(s, legal, rng)
            s = self.timed("apply", lambda s=s, move=move: s.apply(move), where, text)
        self.problems.append(f"no end after {MAX_MOVES} moves: {label} seed {seed} {policy}")


def summary(times: Sequence[float]) -> str:
    """Count, median, 99th and 99.9th percentiles, maximum (ms), and the counts over 50 and 250 ms."""
    if not times:
        return "no calls"
    ordered = sorted(times)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000

    over = sum(t > 0.05 for t in ordered), sum(t > 0.25 for t in ordered)
    return (f"{len(ordered)} calls, median {statistics.median(ordered) * 1000:.2f} ms, p99 {pct(0.99):.1f} ms, "
            f"p99.9 {pct(0.999):.1f} ms, max {ordered[-1] * 1000:.1f} ms; over 50 ms {over[0]}, over 250 ms {over[1]}")


def main(argv: list[str] | None = None) -> int:
    """Run the stress variants; exit 1 if any call took over 250 ms or a hand broke."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0, help="stop after this many minutes of CPU")
    ap.add_argument("--variants", type=int, default=None, help="stop after this many variants")
    ap.add_argument("--seed", type=int, default=0, help="seed of the profiles and deals")
    ap.add_argument("--policies", default="random,greedy", help="comma-separated: random, greedy")
    ap.add_argument("--profile", action="append", default=[], help="a profile file to play instead of drawn ones")
    ap.add_argument("--save", type=Path, default=None, help="write positions slower than --save-ms here")
    ap.add_argument("--save-ms", type=float, default=250.0)
    args = ap.parse_args(argv)
    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    hr.watch_gc()
    rng = random.Random(args.seed)
    run = Run(args.save, args.save_ms)
    stop = time.process_time() + args.minutes * 60
    given = [(Path(p).read_text(encoding="utf-8"), Path(p).name) for p in args.profile]
    while time.process_time() < stop and (args.variants is None or run.variants < args.variants):
        if given and run.variants >= len(given):
            break
        text, label = given[run.variants] if given else draw_stress_profile(rng)
        run.variants += 1
        seed = rng.randrange(2**32)
        admission = hr.admit(text, seed)
        if not admission.playable:
            run.refused += 1
            continue
        for policy in policies:
            try:
                run.play(text, label, seed, policy)
            except Exception as exc:  # any escape from the library is a finding
                run.problems.append(f"exception {type(exc).__name__}: {exc} in {label} seed {seed} {policy}")
    print(f"{run.variants} variants ({run.refused} refused), {run.hands} hands")
    for name in CALLS:
        print(f"{name}: {summary(run.times[name])}")
    print("slowest calls:")
    profiles: dict[str, str] = {}
    for seconds, name, where, text in run.slowest:
        print(f"  {seconds * 1000:7.1f} ms {name}: {where}")
        profiles.setdefault(where.split(" seed ")[0], text)
    print("their profiles:")
    for label, text in profiles.items():
        print(f"  {label}:")
        print("    " + text.strip().replace("\n", "\n    "))
    for problem in run.problems:
        print(f"PROBLEM {problem}")
    slow = any(t > 0.25 for times in run.times.values() for t in times)
    return 1 if slow or run.problems else 0


if __name__ == "__main__":
    sys.exit(main())
