"""How ``simulate`` scales: wall time against ``--jobs``, memory against the number of games.

Usage::

    python benchmarks/simulate_scale.py jobs [VARIANT] [--games N] [--jobs 1 2] [--repeat 3] [--experiment]
    python benchmarks/simulate_scale.py parts [VARIANT] [--games N] [--jobs 1 2] [--repeat 3] [--experiment]
    python benchmarks/simulate_scale.py memory [VARIANT|FILE] [--games N] [--max-hands H] [--every K]

``jobs`` runs ``canasta simulate VARIANT --games N --jobs J`` (with
``--experiment``, ``canasta experiment VARIANT VARIANT``) as a fresh process
for each J, ``--repeat`` times (the order of the J interleaved, so a change in
the machine's load hits each alike), and prints the median wall time of each
and the speed-up over the first J. The whole process is timed, start-up
included, as a user sees it. Its CPU time is printed too, split between the
command's own process and its workers, with the wall time that split gives on
idle cores (see :func:`jobs`): on a shared machine, the figure to quote.

``parts`` splits the same runs into the parts a second job can and cannot
share, in CPU time per process: the command's start-up and imports, its work
until the workers start (the variant loaded, the workers forked), its work
while they play and after; each worker's CPU time, and how evenly the games
were split (the workers' shards, as timed, handed out again in the same order
to J idle workers: the time the last one ends, beside the ideal of the total
divided by J). Its estimate of the wall time on J idle cores is the command's
time before the workers start, plus that last end, plus its time after them
(and its time while they play, shared out among the J cores); the speed-up
is the first J's over each. With one job, the games are timed apart from the
start-up, and the workers' shards are set beside them: the CPU time the same
games took more (or less) in J processes at once than in one alone.

``memory`` runs one simulation of N games in this process and prints the
resident set size (``VmRSS`` in ``/proc/self/status``, Linux) and its peak
(``VmHWM``) after 10^3, 10^4, ... games, sampled from the progress callback,
and every K games, with the entries the engine's bounded caches hold then:
growth that follows the caches' fill is theirs, and stops when they are full;
the rest is what the simulation holds.
``--max-hands`` shortens the games (memory per game does not depend on their
length; the totals are the same few numbers either way). For a run of 10^6
games, ``benchmarks/short-hands.yaml`` (two players, one deck, 25 cards each:
hands of about ten moves) plays the same simulation code several times faster
than classic.

Run by hand (it takes minutes); never from a timed test.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def rss_kib() -> tuple[int, int]:
    """The resident set size and its peak, in KiB."""
    fields = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value.split()[0] if value.split() else "0"
    return int(fields["VmRSS"]), int(fields["VmHWM"])


def cache_fill() -> tuple[int, int]:
    """Entries held by the engine's bounded caches (``functools.lru_cache``), and their bound.

    A bounded cache that is still filling makes memory grow for a while; this
    tells that growth apart from memory the simulation itself holds.
    """
    seen: dict[int, tuple[int, int]] = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("canasta"):
            for value in list(vars(module).values()):
                info = getattr(value, "cache_info", None)
                if callable(info) and id(value) not in seen:
                    got = info()
                    seen[id(value)] = (got.currsize, got.maxsize or 0)
    return sum(k for k, _ in seen.values()), sum(m for _, m in seen.values())


#: Runs the command line as ``python -m canasta`` does, then writes the CPU time
#: of this process and of its waited-for children (the workers) to stderr.
_MEASURED = """
import json, resource, sys
from canasta.cli import main
try:
    code = main(sys.argv[1:])
finally:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    sys.stderr.write(json.dumps([own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime]) + "\\n")
sys.exit(code)
"""


def _python() -> list[str]:
    """This interpreter, isolated (``-I``) when this script runs isolated.

    Run as ``/venv/bin/python -I simulate_scale.py`` to measure the canasta
    installed there (the compiled build): without ``-I`` the measured command
    would import canasta from a ``PYTHONPATH`` that names a source tree.
    """
    return [sys.executable, "-I"] if sys.flags.isolated else [sys.executable]


def _command(args: argparse.Namespace, jobs: int) -> list[str]:
    if args.experiment:
        # an experiment of the variant against itself: every game played twice
        what = ["experiment", args.variant, args.variant]
    else:
        what = ["simulate", args.variant]
    return [*_python(), "-c", _MEASURED, *what, "--games", str(args.games), "--jobs", str(jobs)]


def jobs(args: argparse.Namespace) -> None:
    """Median wall time of the command for each --jobs, and its CPU time, split.

    The CPU time of the command's own process (start-up, imports, handing the
    games on, the summary) and of its workers is printed apart. On two idle
    cores the wall time of ``--jobs J`` would be about the first plus the
    second divided by J (the workers share the games evenly); that estimate,
    which a shared machine's load does not move, is printed beside the
    measured wall times.
    """
    times: dict[int, list[float]] = {j: [] for j in args.jobs}
    own: dict[int, list[float]] = {j: [] for j in args.jobs}
    workers: dict[int, list[float]] = {j: [] for j in args.jobs}
    for r in range(args.repeat):
        for j in args.jobs:
            t0 = time.perf_counter()
            done = subprocess.run(_command(args, j), check=True, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
            times[j].append(time.perf_counter() - t0)
            mine, theirs = json.loads(done.stderr.strip().splitlines()[-1])
            own[j].append(mine)
            workers[j].append(theirs)
            print(f"run {r + 1}: --jobs {j}: {times[j][-1]:.1f} s wall, CPU {mine:.2f} s in the "
                  f"command's process and {theirs:.2f} s in its workers", flush=True)
    first = args.jobs[0]
    base = statistics.median(times[first])

    def idle(j: int) -> float:
        return statistics.median(o + w / j for o, w in zip(own[j], workers[j], strict=True))

    for j in args.jobs:
        med = statistics.median(times[j])
        print(f"--jobs {j}: median {med:.1f} s wall of {args.repeat} "
              f"({', '.join(f'{t:.1f}' for t in times[j])}), speed-up {base / med:.2f}x; "
              f"median CPU {statistics.median(own[j]):.2f} s own + {statistics.median(workers[j]):.2f} s "
              f"workers: on idle cores about {idle(j):.2f} s, speed-up {idle(first) / idle(j):.2f}x")


#: Runs the command line as _MEASURED does, timing its parts (see :func:`parts`): the
#: local backend's shard runner and result reader are wrapped to note the CPU time
#: of each shard in its worker and of this process when the workers start and end.
_PARTS = """
import json, os, sys, time
start = time.process_time()
from canasta.cli import main
import canasta.play.backends as backends
imported = time.process_time()
log, marks = sys.argv.pop(1), {}
run_shard, in_order = backends._run_shard, backends._in_order

def timed_shard(shard):
    began = time.process_time()
    played = run_shard(shard)
    with open(log, "a", encoding="ascii") as out:
        out.write(json.dumps([os.getpid(), list(shard), began, time.process_time()]) + "\\n")
    return played

def timed_results(*args):
    marks["workers start"] = time.process_time()
    yield from in_order(*args)
    marks["last result"] = time.process_time()

run = backends.LocalBackend.run

def timed_run(self, task, games):
    if self.jobs > 1:  # the workers' shards are timed by timed_shard
        return run(self, task, games)
    marks["games"] = 0.0

    def timed_task(start, stop):
        began = time.process_time()
        try:
            return task(start, stop)
        finally:
            marks["games"] += time.process_time() - began

    return run(self, timed_task, games)

backends._run_shard, backends._in_order = timed_shard, timed_results
backends.LocalBackend.run = timed_run
out = sys.stdout
sys.stdout = open(os.devnull, "w")
try:
    code = main(sys.argv[1:])
finally:
    sys.stdout = out
    print(json.dumps({"start": start, "imported": imported, **marks, "end": time.process_time()}))
sys.exit(code)
"""


def _last_end(shards: list[float], workers: int, start: float) -> float:
    """When the last of ``workers`` idle workers ends, each taking the next shard when free.

    ``shards`` are the shards' CPU times in the order the pool handed them
    out; each worker first spends ``start`` (its own start-up).
    """
    free = [start] * workers
    for cost in shards:
        i = free.index(min(free))
        free[i] += cost
    return max(free)


def _parts_once(args: argparse.Namespace, jobs_: int, log: str) -> dict[str, float]:
    """One run of the command with ``jobs_`` jobs, timed in parts (see :func:`parts`)."""
    if os.path.exists(log):
        os.remove(log)
    what = ["experiment", args.variant, args.variant] if args.experiment else ["simulate", args.variant]
    done = subprocess.run([*_python(), "-c", _PARTS, log, *what, "--games", str(args.games),
                           "--jobs", str(jobs_)], check=True, capture_output=True, text=True)
    mark = json.loads(done.stdout.strip().splitlines()[-1])
    got = {"interpreter and canasta.cli": mark["imported"]}
    if "workers start" not in mark:  # one job: everything in this process
        got["imports, variant, summary"] = mark["end"] - mark["imported"] - mark["games"]
        got["games"] = mark["games"]
        got["on idle cores"] = mark["end"]
        return got
    per: dict[int, float] = {}
    first: dict[int, float] = {}  # each worker's CPU time before its first shard
    order: list[tuple[int, float]] = []
    with open(log, encoding="ascii") as lines:
        for pid, shard, began, ended in map(json.loads, lines):
            per[pid] = max(per.get(pid, 0.0), ended)
            first[pid] = min(first.get(pid, began), began)
            order.append((shard[0], ended - began))
    order.sort()  # the order the shards were handed out: strided_shards lists them by first game
    before = mark["workers start"] - mark["imported"]
    after = mark["end"] - mark["last result"]
    during = mark["last result"] - mark["workers start"]
    last = _last_end([cost for _, cost in order], jobs_, statistics.mean(first.values()))
    got.update({
        "imports and variant, to the workers' start": before,
        "while they play": during,
        "after the last result": after,
        "workers, in all": sum(per.values()),
        "shards, in all": sum(cost for _, cost in order),
        "slowest worker": max(per.values()),
        "fastest worker": min(per.values()),
        f"split on {jobs_} idle workers: last end": last,
        f"  beside the total / {jobs_}": sum(per.values()) / jobs_,
        "on idle cores": mark["imported"] + before + last + during / jobs_ + after,
    })
    return got


def parts(args: argparse.Namespace) -> None:
    """The CPU time of each part of the command, for each --jobs, medians of --repeat runs.

    In the command's process: its start-up and imports, its work until the
    workers start, while they play (reading their results) and after the
    last one. In the workers: each one's CPU time. The split is judged
    apart from the machine's load: the shards, with the CPU time each took,
    are handed out again in the pool's order to idle workers, and the time
    the last one ends is set beside the even split. The estimate on idle
    cores adds what the command's process does alone.
    """
    log = os.path.join(tempfile.mkdtemp(prefix="simulate-parts-"), "shards.jsonl")
    runs: dict[int, list[dict[str, float]]] = {j: [] for j in args.jobs}
    for r in range(args.repeat):
        for j in args.jobs if r % 2 == 0 else reversed(args.jobs):
            runs[j].append(_parts_once(args, j, log))
            print(f"run {r + 1}: --jobs {j}: about {runs[j][-1]['on idle cores']:.2f} s on idle cores",
                  flush=True)
    first = statistics.median(run["on idle cores"] for run in runs[args.jobs[0]])
    alone = statistics.median(run["games"] for run in runs[1]) if 1 in runs else None
    for j in args.jobs:
        print(f"--jobs {j}, CPU seconds, median of {args.repeat}:")
        for key in runs[j][0]:
            print(f"  {key:44s} {statistics.median(run[key] for run in runs[j]):6.3f}")
        if alone and j > 1:
            # the same games, played in j processes at once, against one process alone
            shards = statistics.median(run["shards, in all"] for run in runs[j])
            label = "shards, in all, beside one job's games"
            print(f"  {label:44s} {100 * (shards / alone - 1):+5.1f}%")
        idle = statistics.median(run["on idle cores"] for run in runs[j])
        print(f"  {'speed-up on idle cores':44s} {first / idle:6.2f}x")


def memory(args: argparse.Namespace) -> None:
    """RSS after each power of ten of games."""
    from canasta.play.simulate import simulate

    marks = {10**k for k in range(3, 8) if 10**k <= args.games} | {args.games}
    marks |= set(range(args.every, args.games + 1, args.every)) if args.every else set()
    t0 = time.perf_counter()

    def sample(done: int, total: int) -> None:
        if done in marks:
            gc.collect()
            rss, peak = rss_kib()
            held, bound = cache_fill()
            print(f"{done:>9,} games  {time.perf_counter() - t0:8.0f} s  "
                  f"RSS {rss / 1024:7.1f} MiB  peak {peak / 1024:7.1f} MiB  "
                  f"engine caches {held:,} of {bound:,} entries", flush=True)

    rss, _ = rss_kib()
    print(f"{'start':>9}        {0:8.0f} s  RSS {rss / 1024:7.1f} MiB", flush=True)
    summary = simulate(args.variant, args.games, seed=0, max_hands=args.max_hands,
                       progress=sample)
    print(f"{summary.games} games, {summary.hands} hands")


def main() -> None:
    """Parse the command line and run the chosen measurement."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("jobs", "parts", "memory"))
    parser.add_argument("variant", nargs="?", default="classic")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-hands", type=int, default=None)
    parser.add_argument("--every", type=int, default=0, help="memory: also sample every N games")
    parser.add_argument("--experiment", action="store_true",
                        help="jobs: time `canasta experiment VARIANT VARIANT` instead of simulate")
    args = parser.parse_args()
    {"jobs": jobs, "parts": parts, "memory": memory}[args.what](args)


if __name__ == "__main__":
    main()
