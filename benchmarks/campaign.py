"""The generative campaign: thousands of house-rule profiles, each played for a hand or more.

Usage::

    python benchmarks/campaign.py [--minutes M] [--variants N] [--seed S] [--hands H] [--jobs J] [--out FILE]
    python benchmarks/campaign.py --replay PROFILE.yaml --deal-seed D --policy random [--hands H]

Each variant is a bundled profile with one to six rule options changed, each
inside its documented range (tests/house_rules.py writes them; the choice leans
toward wild cards, melds, the opening, sequences, 3s, going out and the pile).
Every variant is loaded from its text and put to ``check_variant`` (errors)
and ``new_game``: a profile refused by either is counted, and where the two
do not agree (one refuses and the other does not, or their reasons differ) the
disagreement is a finding. Every variant that is dealt plays the first
``--hands`` hands of a game with each policy (random legal moves; the greedy
bot), and at every position the run
checks the library's contract: a legal move while the hand is not over, no
exception, every listed move applies, a few unlisted ones are refused with
IllegalMoveError, the state is consistent, the scores add up at the end. The
CPU time of every ``legal_moves()`` and ``apply()`` call is measured
(``time.process_time``, less any pause of the garbage collector within the
call, which is the interpreter's work and is reported apart); a call over
``--limit-ms`` (250) is a finding too.

``--hands`` is 2 unless given (a large number plays whole games). The second
hand is the first one dealt with scores on the table and in a later round, so
an opening that depends on the score or the round (``opening.score_table``,
``opening.round_table``) meets its later rows there, as do the scores carried
from hand to hand; playing it doubles the CPU a variant takes (300 variants of
seed 12: 35 s for one hand, 69 s for two), which still plays some 4 variants a
CPU second.

Each finding is shrunk: its options are dropped one at a time while the same
symptom shows (with the same deal seed or one of two others), down to the
fewest. Findings are grouped in classes by symptom and the option keys of the
shrunk profile, and printed with a reproducer each (the profile, the deal
seed, the policy, the hand and the move index, counted from the deal of the
first hand with the ``next`` between hands), which ``--replay`` plays again. The
summary gives the counts of variants generated, refused and played, the
percentiles of the call times, and the classes.

The run stops after ``--minutes`` (wall clock, default 10) or ``--variants``,
whichever comes first; ``--jobs N`` runs N processes, each with its own seed
(``--seed`` times 1000 plus its number), and merges what they found. ``--out FILE`` writes the report too: JSON where FILE
ends in ``.json``, else the text (Markdown). Run it by hand, under ``nice``;
tests/test_benchmarks.py runs it on two variants so that it keeps working.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import house_rules as hr  # noqa: E402 - tests/ is put on the path just above
from canasta.engine import COMPILED  # noqa: E402

#: Seeds tried besides the failing one when a shrunk profile is replayed.
EXTRA_SEEDS = 2
#: The slowest calls listed in the report.
SLOWEST = 5
#: Call times are kept in logarithmic bins, this many a decade from 0.1 µs (a
#: percentile is read to about 1%), so that workers' times merge and a run of
#: millions of calls keeps a few thousand numbers.
BINS_PER_DECADE = 200
_FLOOR = 1e-7
#: Hands of each game played unless ``--hands`` says otherwise (see the module's documentation).
DEFAULT_HANDS = 2
#: The kinds of call timed: the listing, the move played, and the moves applied to test the listing.
CALLS = ("legal_moves", "apply", "apply-check")


class Times:
    """The CPU times of one kind of call: a histogram of logarithmic bins, the count and the maximum."""

    def __init__(self) -> None:
        self.bins: Counter[int] = Counter()
        self.n = 0
        self.max = 0.0

    def add(self, seconds: float) -> None:
        """Count one call of ``seconds``."""
        self.bins[max(0, int(math.log10(max(seconds, _FLOOR) / _FLOOR) * BINS_PER_DECADE))] += 1
        self.n += 1
        self.max = max(self.max, seconds)

    def merge(self, other: Times) -> None:
        """Add ``other``'s calls to these."""
        self.bins.update(other.bins)
        self.n += other.n
        self.max = max(self.max, other.max)

    def over(self, seconds: float) -> int:
        """The calls in bins wholly above ``seconds``."""
        edge = int(math.log10(seconds / _FLOOR) * BINS_PER_DECADE)
        return sum(n for b, n in self.bins.items() if b > edge)

    def percentiles(self) -> dict[str, float]:
        """p50, p99, p99.9 (each the upper edge of its bin) and max, in milliseconds."""
        if not self.n:
            return {"n": 0}
        out: dict[str, float] = {"n": self.n}
        wanted = [("p50", 0.5), ("p99", 0.99), ("p99.9", 0.999)]
        seen = 0
        for b in sorted(self.bins):
            seen += self.bins[b]
            while wanted and seen >= wanted[0][1] * self.n:
                out[wanted.pop(0)[0]] = min(self.max, _FLOOR * 10 ** ((b + 1) / BINS_PER_DECADE)) * 1000
        out["max"] = self.max * 1000
        return out


@attrs.define
class Finding:
    """One failure, shrunk: what showed, under which profile, and how to see it again."""

    symptom: str
    detail: str
    profile: hr.HouseProfile
    deal_seed: int
    policy: str
    move_index: int
    original_keys: tuple[str, ...]
    hand: int = 1

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """The class: the symptom and the shrunk profile's option keys."""
        return self.symptom, self.profile.keys


@attrs.define
class Tally:
    """What a run counted and measured."""

    generated: int = 0
    loader_refused: int = 0
    checker_errors: int = 0
    new_game_refused: int = 0
    played: int = 0
    hands: int = 0
    calls: int = 0
    cpu_seconds: float = 0.0
    shrink_seconds: float = 0.0
    gc_seconds: float = 0.0
    gc_max: float = 0.0
    disagreements: int = 0
    failures: int = 0
    times: dict[str, Times] = attrs.field(factory=lambda: {name: Times() for name in CALLS})
    slowest: list[tuple[float, str, str]] = attrs.field(factory=list)
    classes: dict[tuple[str, tuple[str, ...]], list[Finding]] = attrs.field(factory=dict)

    def add(self, finding: Finding) -> None:
        """File ``finding`` under its class."""
        self.classes.setdefault(finding.key, []).append(finding)

    def merge(self, other: Tally) -> None:
        """Add another worker's counts, times, slowest calls and findings to these."""
        for name in ("generated", "loader_refused", "checker_errors", "new_game_refused", "played",
                     "hands", "calls", "disagreements", "failures", "cpu_seconds", "shrink_seconds",
                     "gc_seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.gc_max = max(self.gc_max, other.gc_max)
        for name, times in other.times.items():
            self.times[name].merge(times)
        self.slowest = sorted(self.slowest + other.slowest, reverse=True)[:SLOWEST]
        for key, found in other.classes.items():
            self.classes.setdefault(key, []).extend(found)


class Recorder:
    """The timer of a hand: keeps each call's CPU time and stops the hand at a slow call."""

    def __init__(self, tally: Tally | None, limit: float, where: str) -> None:
        self.tally = tally
        self.limit = limit
        self.where = where
        self.calls = 0
        self.hands = 0

    def hand_over(self, _s: object) -> None:
        """Count a hand played to its end (``on_hand`` of :func:`house_rules.play_hand`)."""
        self.hands += 1

    def __call__(self, name: str, seconds: float) -> None:
        """Record one call (see :data:`house_rules.Timer`)."""
        self.calls += 1
        if self.tally is not None:
            self.tally.times[name].add(seconds)
            slowest = self.tally.slowest
            if len(slowest) < SLOWEST or seconds > slowest[-1][0]:
                slowest.append((seconds, name, self.where))
                slowest.sort(reverse=True)
                del slowest[SLOWEST:]
        if seconds > self.limit:
            raise hr.SlowCall(f"{name}() took {seconds * 1000:.0f} ms of CPU")


def _seeds(deal_seed: int) -> list[int]:
    return [deal_seed, *(deal_seed * 31 + k for k in range(1, EXTRA_SEEDS + 1))]


def _replays(
    profile: hr.HouseProfile, symptom: str, deal_seed: int, policy: str, limit: float, hands: int = 1
) -> tuple[hr.Failure, int] | None:
    """The failure with ``symptom`` that ``profile`` shows in its first ``hands`` hands, and the
    deal seed it shows under (``deal_seed`` or one of :data:`EXTRA_SEEDS` others), or ``None``."""
    if symptom.startswith("refusal: ") or deal_seed < 0:
        # a refusal disagreement, or a crash of the loader, checker or deal: no hand played
        try:
            admission = hr.admit(profile)
        except Exception as exc:  # the finding
            crash = hr.Failure("exception", f"{type(exc).__name__}: {exc}"[:500], -1)
            return (crash, deal_seed) if symptom == "exception" else None
        same = f"refusal: {admission.disagreement}" == symptom
        return (hr.Failure(symptom, admission.refusal or "; ".join(admission.errors), -1), deal_seed) if same else None
    admission = hr.admit(profile)
    if not admission.playable:
        return None
    assert admission.variant is not None
    for seed in _seeds(deal_seed):
        failure = hr.play_hand(admission.variant, seed, hr.POLICIES[policy], timer=Recorder(None, limit, ""),
                               hands=hands)
        if failure is not None and failure.symptom == symptom:
            return failure, seed
    return None


def shrink(
    profile: hr.HouseProfile, failure: hr.Failure, deal_seed: int, policy: str, limit: float,
    known: Sequence[tuple[str, tuple[str, ...]]] = (), hands: int = 1,
) -> Finding:
    """Drop the options of ``profile`` one at a time while the failure's symptom persists.

    The classes ``known`` already whose options are among the profile's are
    tried first: where the profile cut down to one of them shows the symptom,
    that is the finding (one replay, where dropping options one by one takes many).
    Each replay plays the first ``hands`` hands, as the run that found it did.
    """
    original = profile.keys
    current, seed = profile, deal_seed
    for symptom, keys in known:
        if symptom != failure.symptom or not set(keys) < set(original):
            continue
        smaller = hr.HouseProfile(profile.base, tuple(c for c in profile.changes if c[0] in keys))
        got = _replays(smaller, symptom, seed, policy, limit, hands)
        if got is not None:
            return Finding(symptom, got[0].detail, smaller, got[1], policy, got[0].move_index, original,
                           got[0].hand)
    shrunk = True
    while shrunk:
        shrunk = False
        for path in current.keys:
            smaller = current.without(path)
            got = _replays(smaller, failure.symptom, seed, policy, limit, hands)
            if got is not None:
                current, (failure, seed), shrunk = smaller, got, True
                break
    return Finding(failure.symptom, failure.detail, current, seed, policy, failure.move_index, original,
                   failure.hand)


def _file(tally: Tally, profile: hr.HouseProfile, failure: hr.Failure, deal_seed: int, policy: str,
          limit: float, hands: int = 1) -> None:
    """Shrink ``failure`` and file it under its class (said on stderr first: shrinking a slow
    finding replays its slow call once for each option tried)."""
    print(f"finding: {failure.symptom} ({profile.base}, {', '.join(profile.keys)}; deal seed {deal_seed}, "
          f"{policy}, hand {failure.hand}, move {failure.move_index}): {failure.detail[:160]}; shrinking",
          file=sys.stderr, flush=True)
    t0 = time.process_time()
    tally.add(shrink(profile, failure, deal_seed, policy, limit, list(tally.classes), hands))
    tally.shrink_seconds += time.process_time() - t0


def run_variant(profile: hr.HouseProfile, deal_seed: int, policies: Sequence[str], limit: float, tally: Tally,
                hands: int = 1) -> None:
    """Admit one generated profile and play its first ``hands`` hands with each policy, filing what fails."""
    tally.generated += 1
    try:
        admission = hr.admit(profile)
    except Exception as exc:  # the loader, checker or deal crashed: a finding
        tally.failures += 1
        _file(tally, profile, hr.Failure("exception", f"{type(exc).__name__}: {exc}"[:500], -1), -1, "random", limit)
        return
    if admission.variant is None:
        tally.loader_refused += 1
        return
    tally.checker_errors += bool(admission.errors)
    tally.new_game_refused += bool(admission.refusal)
    if admission.disagreement:
        tally.disagreements += 1
        failure = hr.Failure(
            f"refusal: {admission.disagreement}", admission.refusal or "; ".join(admission.errors), -1
        )
        _file(tally, profile, failure, deal_seed, "random", limit)
    if not admission.playable:
        return
    tally.played += 1
    for policy in policies:
        recorder = Recorder(tally, limit, f"{profile.base} {list(profile.keys)} seed {deal_seed} {policy}")
        failure = hr.play_hand(admission.variant, deal_seed, hr.POLICIES[policy], timer=recorder,
                               hands=hands, on_hand=recorder.hand_over)
        # the hand that failed counts as played too
        tally.hands += recorder.hands + (failure is not None)
        tally.calls += recorder.calls
        if failure is not None:
            tally.failures += 1
            _file(tally, profile, failure, deal_seed, policy, limit, hands)


# --------------------------------------------------------------------------- the report


def report(tally: Tally, args: argparse.Namespace, elapsed: float) -> dict[str, Any]:
    """The run's results as data (the JSON report; :func:`render` writes it as text)."""
    played = Times()
    played.merge(tally.times["legal_moves"])
    played.merge(tally.times["apply"])
    classes = []
    for (symptom, keys), found in sorted(tally.classes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        first = found[0]
        classes.append({
            "symptom": symptom,
            "keys": list(keys),
            "count": len(found),
            "bases": sorted({f.profile.base for f in found}),
            "detail": first.detail,
            "profile": first.profile.text(),
            "deal_seed": first.deal_seed,
            "policy": first.policy,
            "move_index": first.move_index,
            "hand": first.hand,
            "original_keys": list(first.original_keys),
        })
    return {
        "seed": args.seed,
        "engine": "compiled" if COMPILED else "python",
        "minutes": round(elapsed / 60, 1),
        "limit_ms": args.limit_ms,
        "policies": args.policies,
        "hands_per_game": args.hands,
        "variants": {
            "generated": tally.generated,
            "refused_by_loader": tally.loader_refused,
            "checker_errors": tally.checker_errors,
            "refused_by_new_game": tally.new_game_refused,
            "played": tally.played,
            "disagreements": tally.disagreements,
        },
        "hands": tally.hands,
        "calls": tally.calls,
        "cpu_seconds": round(tally.cpu_seconds, 1),
        "jobs": args.jobs,
        "shrink_cpu_seconds": round(tally.shrink_seconds, 1),
        "gc_cpu_seconds": round(tally.gc_seconds, 1),
        "gc_max_ms": round(tally.gc_max * 1000, 1),
        "failures": tally.failures,
        "calls_ms": {
            "legal_moves": tally.times["legal_moves"].percentiles(),
            "apply": tally.times["apply"].percentiles(),
            "play": played.percentiles(),
            "apply-check": tally.times["apply-check"].percentiles(),
        },
        "over_limit": sum(t.over(args.limit_ms / 1000) for t in tally.times.values()),
        "slowest": [{"ms": round(t * 1000, 1), "call": name, "where": where} for t, name, where in tally.slowest],
        "classes": classes,
    }


def _fmt(p: dict[str, float]) -> str:
    if not p.get("n"):
        return "no calls"
    return (f"n={p['n']:,}  p50 {p['p50']:.3f}  p99 {p['p99']:.3f}  p99.9 {p['p99.9']:.3f}  "
            f"max {p['max']:.1f}")


def render(data: dict[str, Any]) -> str:
    """The report as text (Markdown)."""
    v = data["variants"]
    lines = [
        f"# Campaign: seed {data['seed']}, {data['minutes']} minutes, {data['jobs']} process(es), "
        f"{data['engine']} engine, policies {', '.join(data['policies'])}, "
        f"the first {data['hands_per_game']} hand(s) of each game",
        "",
        f"- variants generated {v['generated']:,}: refused by the loader {v['refused_by_loader']:,}, "
        f"with checker errors {v['checker_errors']:,}, refused by new_game {v['refused_by_new_game']:,}, "
        f"played {v['played']:,}",
        f"- check_variant and new_game disagree on {v['disagreements']:,}",
        f"- hands played {data['hands']:,} (legal_moves and apply calls {data['calls']:,}), "
        f"failures {data['failures']:,} in {len(data['classes'])} classes",
        f"- CPU {data['cpu_seconds']:,} s in all processes, of which shrinking {data['shrink_cpu_seconds']:,} s",
        f"- garbage collector pauses {data['gc_cpu_seconds']} s in all, the longest {data['gc_max_ms']} ms "
        "(left out of the call times)",
        "- CPU ms per call (play: legal_moves and the apply of the move played; apply-check: the",
        "  moves applied only to test the listing; percentiles to about 1%):",
        *(f"  - {name + ':':12} {_fmt(data['calls_ms'][name])}" for name in ("legal_moves", "apply", "play", "apply-check")),
        f"- calls over {data['limit_ms']} ms: {data['over_limit']}",
        "- slowest calls:",
        *(f"  - {s['ms']} ms {s['call']}: {s['where']}" for s in data["slowest"]),
        "",
    ]
    for i, c in enumerate(data["classes"], 1):
        keys = ", ".join(c["keys"]) or "(the bundled profile itself)"
        lines += [
            f"## {i}. {c['symptom']}: {keys}",
            "",
            f"{c['count']} found (bases: {', '.join(c['bases'])}); first shrunk from {', '.join(c['original_keys'])}.",
            "",
            f"    {c['detail']}",
            "",
            "```yaml",
            c["profile"].rstrip(),
            "```",
            "",
            f"Deal seed {c['deal_seed']}, policy {c['policy']}, hand {c['hand']}, move index {c['move_index']}:",
            f"`python benchmarks/campaign.py --replay PROFILE.yaml --deal-seed {c['deal_seed']} "
            f"--policy {c['policy']} --hands {c['hand']}`",
            "",
        ]
    return "\n".join(lines)


# --------------------------------------------------------------------------- replaying one


def replay(path: str, deal_seed: int, policy: str, limit_ms: float, hands: int = 1) -> int:
    """Play the first ``hands`` hands of a reproducer again and print what they show, with the last moves."""
    text = Path(path).read_text(encoding="utf-8")
    admission = hr.admit(text, deal_seed)
    print(f"loader: {admission.loader or 'ok'}")
    print(f"checker errors: {list(admission.errors) or 'none'}")
    print(f"new_game: {admission.refusal or 'deals'}")
    if admission.disagreement:
        print(f"disagreement: {admission.disagreement}")
    if not admission.playable:
        return 0
    assert admission.variant is not None
    failure = hr.play_hand(admission.variant, deal_seed, hr.POLICIES[policy],
                           timer=Recorder(None, limit_ms / 1000, ""), hands=hands)
    if failure is None:
        print("the hand ended as it should" if hands == 1 else f"the first {hands} hands ended as they should")
        return 0
    print(f"{failure.symptom} in hand {failure.hand} at move index {failure.move_index}: {failure.detail}")
    recent = list(hr.moves_of_hand(admission.variant, deal_seed, hr.POLICIES[policy], failure.move_index))
    print("the last moves:")
    for s, move in recent[-6:]:
        print(f"  {s!r}: {move}")
    s = hr.state_at(admission.variant, deal_seed, hr.POLICIES[policy], failure.move_index)
    print(f"then {s!r}:")
    print(f"  hand {' '.join(str(c) for c in s.hands[s.current_player])}")
    for side, melds in enumerate(s.melds):
        print(f"  side {side} melds: {', '.join(str(m) for m in melds) or 'none'}")
    try:
        print(f"  legal moves: {', '.join(str(m) for m in s.legal_moves()) or 'none'}")
    except Exception as exc:  # the finding itself, perhaps
        print(f"  legal_moves() raised {type(exc).__name__}: {exc}")
    return 1


@attrs.frozen
class Job:
    """One process's share of a run: its seed, when to stop, how many variants at most."""

    seed: int
    stop: float
    variants: int | None
    policies: tuple[str, ...]
    limit: float
    quiet: bool
    worker: int
    hands: int = 1


def run_job(job: Job) -> Tally:
    """Generate and run variants until ``job`` says stop; the profiles and deals follow its seed."""
    t0 = time.process_time()
    hr.watch_gc()
    rng = random.Random(job.seed)
    chooser = hr.RandomChooser(rng)
    tally = Tally()
    while (job.variants is None or tally.generated < job.variants) and time.monotonic() < job.stop:
        profile = hr.draw_profile(chooser)
        run_variant(profile, rng.randrange(2**32), job.policies, job.limit, tally, job.hands)
        if not job.quiet and tally.generated % 100 == 0:
            print(f"[{job.worker}] {tally.generated} variants, {tally.played} played, {tally.failures} failures "
                  f"in {len(tally.classes)} classes", file=sys.stderr)
    tally.cpu_seconds = time.process_time() - t0
    tally.gc_seconds, tally.gc_max = hr.GC_PAUSES
    return tally


def main(argv: list[str] | None = None) -> int:
    """Run the campaign (or ``--replay`` one reproducer); exit 1 if anything was found."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0, help="stop after this many minutes (wall clock)")
    ap.add_argument("--variants", type=int, default=None, help="stop after this many variants")
    ap.add_argument("--seed", type=int, default=0, help="seed of the generated profiles and deals")
    ap.add_argument("--out", default=None, help="also write the report here (.json: JSON, else text)")
    ap.add_argument("--limit-ms", type=float, default=250.0, help="a call over this is a finding")
    ap.add_argument("--policies", default="random,greedy", help="comma-separated: random, greedy")
    ap.add_argument("--replay", metavar="PROFILE", help="play one reproducer again (with --deal-seed, --policy)")
    ap.add_argument("--deal-seed", type=int, default=0)
    ap.add_argument("--policy", default="random", choices=sorted(hr.POLICIES))
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.add_argument("--jobs", type=int, default=1, help="processes, each with its own share of the variants")
    ap.add_argument("--hands", type=int, default=DEFAULT_HANDS,
                    help="hands of each game played (a large number: the whole game)")
    args = ap.parse_args(argv)
    if args.hands < 1:
        ap.error(f"--hands must be 1 or more, got {args.hands}")
    if args.replay:
        return replay(args.replay, args.deal_seed, args.policy, args.limit_ms, args.hands)
    args.policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    if not 1 <= args.jobs <= 64:
        ap.error(f"--jobs must be 1 to 64, got {args.jobs}")
    unknown = sorted(set(args.policies) - set(hr.POLICIES))
    if unknown:
        ap.error(f"unknown policy {unknown[0]!r}; expected one of {', '.join(sorted(hr.POLICIES))}")
    start = time.monotonic()
    jobs = [
        Job(args.seed if args.jobs == 1 else args.seed * 1000 + w, start + args.minutes * 60,
            None if args.variants is None else args.variants // args.jobs + (w < args.variants % args.jobs),
            tuple(args.policies), args.limit_ms / 1000, args.quiet, w, args.hands)
        for w in range(args.jobs)
    ]
    if args.jobs == 1:
        tally = run_job(jobs[0])
    else:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            tallies = pool.map(run_job, jobs)
        tally = tallies[0]
        for other in tallies[1:]:
            tally.merge(other)
    data = report(tally, args, time.monotonic() - start)
    text = render(data)
    print(text)
    if args.out:
        out = Path(args.out)
        out.write_text(json.dumps(data, indent=1) + "\n" if out.suffix == ".json" else text + "\n", encoding="utf-8")
    return 1 if data["classes"] else 0


if __name__ == "__main__":
    sys.exit(main())
