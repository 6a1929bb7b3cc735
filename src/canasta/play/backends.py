"""Where simulated games are played: in this process, in local worker processes, or on Ray.

A simulation is a *task*, a picklable callable ``task(start, stop)`` that plays
games ``start`` to ``stop - 1`` and returns one result per game, in index order.
Every game's seeds come from the simulation's seed and the game's index only
(:func:`canasta.play.simulate.game_seed`), so how the index range is cut into
shards and where each shard runs cannot change a result: a backend hands back
the shards' results in index order, and the same seed gives the same numbers,
digit for digit, on every backend.

Backends stream: at most a few shards per worker are in flight, and each
shard's results are handed on as soon as it and those before it are done, so
memory does not grow with the number of games.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from typing import Any, Protocol, TypeVar

from canasta.errors import CanastaError
from canasta.limits import clip

__all__ = ["BACKENDS", "Backend", "LocalBackend", "RayBackend", "make_backend", "shard_ranges", "strided_shards"]

R = TypeVar("R")
#: The names :func:`make_backend` knows.
BACKENDS = ("local", "ray")
#: The most games in one shard. Small enough for a smooth progress bar and an
#: interrupted run that loses little, large enough that sending a shard to a
#: worker costs nothing next to playing it.
MAX_SHARD = 64


def shard_ranges(games: int, workers: int) -> list[tuple[int, int]]:
    """Cut ``range(games)`` into consecutive ``(start, stop)`` shards for ``workers``.

    About eight shards per worker (so a slow shard does not leave the others
    idle at the end), each of 1 to :data:`MAX_SHARD` games.

    Args:
        games: how many games.
        workers: how many workers will share them.

    Returns:
        The shards, in index order, covering every game once.
    """
    size = max(1, min(MAX_SHARD, games // max(1, 8 * workers)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


class Backend(Protocol):
    """Runs a task's shards and yields their results in index order."""

    name: str

    def run(self, task: Callable[[int, int], list[R]], games: int) -> Generator[list[R], None, None]:
        """Play games ``0`` to ``games - 1`` with ``task``; yield each shard's results, in order."""
        ...


# --- the local backend: this process, or a pool of worker processes ------------

#: Seconds a worker keeps the games it finished before sending them back. Short,
#: so that the progress bar moves and Ctrl-C keeps all but the last moment's
#: games; long next to the cost of sending (a fraction of a millisecond).
SEND_EVERY = 0.2

_TASK: Callable[[int, int], list[Any]] | None = None
_RESULTS: Any = None


def _install(task: Callable[[int, int], list[Any]], results: Any) -> None:
    # Each worker receives the task once, when it starts, instead of once per
    # shard: the variant is unpickled once and its compiled tables (cached by
    # the engine) are built once per worker.
    global _TASK, _RESULTS
    _TASK, _RESULTS = task, results
    # Workers leave Ctrl-C to the parent, which stops them (Pool.terminate);
    # else each would print its own KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_shard(shard: tuple[int, int, int]) -> int:
    """Play the games of ``range(*shard)`` one by one, sending ``[(index, result), ...]``
    every :data:`SEND_EVERY` seconds and at the end."""
    assert _TASK is not None and _RESULTS is not None, "worker started without a task"
    games = range(*shard)
    batch: list[tuple[int, Any]] = []
    sent = time.monotonic()
    try:
        for index in games:
            batch.extend((index, result) for result in _TASK(index, index + 1))
            now = time.monotonic()
            if index == games[-1] or now - sent >= SEND_EVERY:
                _RESULTS.put(batch)
                batch, sent = [], now
    except Exception as exc:
        raise _sendable(exc) from None
    return len(games)


def _sendable(exc: Exception) -> Exception:
    """``exc``, or a CanastaError saying what it was when the parent could not unpickle it
    (the pool would wait forever for the result it failed to read)."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return CanastaError(f"a worker process failed: {type(exc).__name__}: {clip(str(exc), 500)}")
    return exc


def strided_shards(games: int, workers: int) -> list[tuple[int, int, int]]:
    """Cut ``range(games)`` into ``(start, stop, step)`` shards that ``workers`` play side by side.

    The games are cut into blocks of ``workers`` times a shard's size (as
    :func:`shard_ranges` sizes it), and each block into ``workers`` shards that
    take every ``workers``-th game of it: workers playing the shards of a block
    finish its games nearly in index order, so the games done form an unbroken
    run from the first, which grows as fast as all the workers play (with
    consecutive shards it grew as fast as one, the others' games waiting).

    Toward the end the shards shrink, to a single game each: a shard is at
    most a ``2 * workers``-th of the games left after its block starts. The
    simulation ends when its slowest worker ends; with a full-sized shard
    last, one worker would play it alone while the others sat idle.
    """
    size = max(1, min(MAX_SHARD, games // max(1, 8 * workers)))
    shards: list[tuple[int, int, int]] = []
    first = 0
    while first < games:
        per = max(1, min(size, (games - first) // (2 * workers)))
        stop = min(first + per * workers, games)
        shards += [(first + w, stop, workers) for w in range(workers) if first + w < stop]
        first = stop
    return shards


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C inside the block (in the main thread; elsewhere a no-op)."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals go to the main thread anyway
        yield
        return
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


class LocalBackend:
    """Games on this machine: in this process (``jobs=1``) or in ``jobs`` worker processes.

    Workers send their games back as they finish them (a few at a time, at
    least every :data:`SEND_EVERY` seconds), and this process hands them on in
    index order, so a progress bar moves and an interrupted run keeps nearly
    every game finished.

    Args:
        jobs: worker processes; 1 plays in the calling process and starts none.
    """

    name = "local"

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = max(1, jobs)

    def run(self, task: Callable[[int, int], list[R]], games: int) -> Generator[list[R], None, None]:
        """Play games ``0`` to ``games - 1`` with ``task``; yield the results in index order.

        Closing the generator early (or Ctrl-C) terminates the workers; none is left running.
        """
        workers = min(self.jobs, games)
        if workers <= 1:
            # one game at a time: the caller sees every game as soon as it ends
            for index in range(games):
                yield task(index, index + 1)
            return
        import multiprocessing

        ctx = multiprocessing.get_context(_start_method())
        results = ctx.Queue()
        # The workers start with Ctrl-C ignored (an ignored signal stays ignored
        # across fork and exec), so a Ctrl-C while they start prints no traceback.
        with sigint_ignored(), _frozen_heap():
            pool = ctx.Pool(workers, initializer=_install, initargs=(task, results))
        try:
            # the shards' return values only tell that a shard ended, or carry its error
            ended = pool.imap_unordered(_run_shard, strided_shards(games, workers), chunksize=1)
            yield from _in_order(results, ended, games)
        except BaseException:  # Ctrl-C, an error, or the caller closing the generator
            with sigint_ignored():  # a second Ctrl-C must not leave workers behind
                pool.terminate()
                pool.join()
            raise
        pool.close()
        pool.join()


@contextlib.contextmanager
def _frozen_heap() -> Iterator[None]:
    """Keep the collector off this process's objects while workers are forked.

    A forked worker shares this process's memory until either writes a page;
    the collector writes to every object it visits, so a worker's first
    collections would copy most of the heap it inherited. Frozen, those
    objects are never visited by a worker's collector; this process's own
    collector takes them back when the workers are started.
    """
    import gc

    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _start_method() -> str:
    """How the local backend starts its workers: ``fork`` where that is safe, else ``spawn``.

    A forked worker starts with everything this process has imported and
    built (canasta, the variant): it plays at once, where a spawned one first
    starts an interpreter and imports canasta, about 0.2 s of CPU time (0.4 s
    where bytecode is not cached), as long as a dozen games of classic; for a
    short simulation on two cores that is what kept a second job from nearly
    doubling the speed. Forking is safe only from a process with one thread (a
    thread holding a lock at the fork leaves it held forever in the child),
    and is the platform's custom only on Linux (macOS's system libraries
    refuse it).
    """
    import multiprocessing
    import sys
    import threading

    if sys.platform == "linux" and threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"


def _in_order(results: Any, ended: Any, games: int) -> Iterator[list[Any]]:
    """The games' results as the workers send them, in index order; a worker's error is raised here."""
    import multiprocessing
    import queue

    waiting: dict[int, Any] = {}
    done = 0
    while done < games:
        try:
            batch = results.get(timeout=0.1)
        except queue.Empty:
            # nothing came: a shard may have failed, and its error is raised here
            with contextlib.suppress(StopIteration, multiprocessing.TimeoutError):
                ended.next(timeout=0)
            continue
        waiting.update(batch)
        run = []
        while done in waiting:
            run.append(waiting.pop(done))
            done += 1
        if run:
            yield run


# --- the Ray backend -----------------------------------------------------------


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise CanastaError(
            "the ray backend needs Ray: pip install 'canasta[ray]'"
        ) from None
    return ray


class RayBackend:
    """Games on a Ray cluster: a local one started for the run, or one at ``address``.

    Shards go to Ray tasks; the task object (the variant and the bots) is put in
    Ray's object store once. At most ``4 x`` the cluster's CPUs shards are in
    flight, and results come back in index order, so a run gives the same
    numbers as :class:`LocalBackend` for the same seed.

    Every node must be able to import ``canasta`` (install it there, or give
    a ``runtime_env``; see the "Tuning house rules" page of the documentation).

    Args:
        address: a running cluster's address (``"ray://head:10001"``,
            ``"auto"``); ``None`` starts a local instance for the run (or uses
            the one already started in this process).
        num_cpus: the CPUs of a local instance (``None``: all of them).
        runtime_env: passed to ``ray.init``, e.g. ``{"pip": ["canasta"]}``.
    """

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        num_cpus: int | None = None,
        runtime_env: dict[str, Any] | None = None,
    ) -> None:
        self.address = address
        self.num_cpus = num_cpus
        self.runtime_env = runtime_env

    def _start(self) -> tuple[Any, bool]:
        ray = _ray()
        if ray.is_initialized():
            return ray, False
        # no usage report leaves the machine unless the user has asked for it
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if self.address is not None:
            kwargs = {"address": self.address, "log_to_driver": False}
        elif self.num_cpus is not None:
            kwargs["num_cpus"] = self.num_cpus
        if self.runtime_env is not None:
            kwargs["runtime_env"] = self.runtime_env
        ray.init(**kwargs)
        return ray, True

    def run(self, task: Callable[[int, int], list[R]], games: int) -> Generator[list[R], None, None]:
        """Play games ``0`` to ``games - 1`` with ``task``; yield each shard's results, in order.

        A Ray instance this backend started is shut down at the end (or on
        Ctrl-C); shards still in flight are cancelled.
        """
        ray, started = self._start()
        pending: deque[Any] = deque()
        try:
            cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
            remote = ray.remote(_call)
            ref = ray.put(task)
            shards = iter(shard_ranges(games, cpus))
            window = 4 * cpus
            for bounds in shards:
                pending.append(remote.remote(ref, *bounds))
                if len(pending) >= window:
                    break
            while pending:
                result: list[R] = ray.get(pending.popleft())
                nxt = next(shards, None)
                if nxt is not None:
                    pending.append(remote.remote(ref, *nxt))
                yield result
        finally:
            with sigint_ignored():
                for future in pending:
                    with contextlib.suppress(Exception):
                        ray.cancel(future, force=True)
                if started:
                    ray.shutdown()


def _call(task: Callable[[int, int], list[R]], start: int, stop: int) -> list[R]:
    return task(start, stop)


def make_backend(name: str = "local", jobs: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name``.

    Args:
        name: ``"local"`` or ``"ray"``.
        jobs: the local backend's worker processes; for a local Ray instance,
            its CPUs (1, the default, lets Ray use every CPU).
        address: the Ray cluster's address (``ray`` only).

    Returns:
        The backend.

    Raises:
        CanastaError: an unknown name, or an address for the local backend.
    """
    if name == "local":
        if address is not None:
            raise CanastaError("--address is for the ray backend; the local backend runs here")
        return LocalBackend(jobs)
    if name == "ray":
        return RayBackend(address, num_cpus=jobs if jobs > 1 else None)
    raise CanastaError(f"unknown backend {name!r}; expected one of {', '.join(BACKENDS)}")
