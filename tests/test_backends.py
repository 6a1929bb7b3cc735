"""Tests of canasta.play.backends: local shards and Ray give the same results, digit for digit."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta.cli import main
from canasta.errors import CanastaError, IllegalMoveError
from canasta.play.backends import (
    LocalBackend,
    RayBackend,
    make_backend,
    shard_ranges,
    strided_shards,
)
from canasta.play.experiment import experiment
from canasta.play.simulate import GameTask, resolve_variant, simulate
from extras import need


class TestShardRanges:
    """shard_ranges(): consecutive shards covering every game once."""

    @pytest.mark.parametrize(("games", "workers"), [(1, 1), (7, 2), (200, 2), (10**6, 64)])
    def test_cover(self, games: int, workers: int) -> None:
        """Shards are consecutive, non-empty, at most 64 games, and cover range(games)."""
        shards = shard_ranges(games, workers)
        assert shards[0][0] == 0 and shards[-1][1] == games
        assert all(a[1] == b[0] for a, b in itertools.pairwise(shards))
        assert all(1 <= stop - start <= 64 for start, stop in shards)


class TestStridedShards:
    """strided_shards(): the workers share each block, every game played once."""

    @pytest.mark.parametrize(("games", "workers"), [(1, 2), (7, 2), (13, 4), (200, 2), (2000, 3), (10**5, 64)])
    def test_cover(self, games: int, workers: int) -> None:
        """Every game is in exactly one shard; a shard steps by the workers and spans at most a block."""
        shards = strided_shards(games, workers)
        played = sorted(i for shard in shards for i in range(*shard))
        assert played == list(range(games))
        assert all(step == workers and 1 <= len(range(start, stop, step)) <= 64 for start, stop, step in shards)

    @given(games=st.integers(1, 10**5), workers=st.integers(1, 64))
    def test_tail_shrinks(self, games: int, workers: int) -> None:
        """Every game is in one shard; no shard holds more than a ``2 * workers``-th of the games
        from its block on, and the last shards hold one game each: no worker plays a long shard
        alone at the end."""
        shards = strided_shards(games, workers)
        assert sorted(i for shard in shards for i in range(*shard)) == list(range(games))
        block: dict[int, int] = {}  # a block's end -> its first game (its first shard's start)
        for start, stop, step in shards:
            first = block.setdefault(stop, start)
            assert len(range(start, stop, step)) <= max(1, (games - first) // (2 * workers))
        last = min(workers, games)
        assert [len(range(*shard)) for shard in shards[-last:]] == [1] * last

    def test_side_by_side(self) -> None:
        """The first shards of 2000 games for two workers are the even and the odd games of one block."""
        first, second = strided_shards(2000, 2)[:2]
        assert first == (0, 128, 2) and second == (1, 128, 2)


class TestLocalBackend:
    """LocalBackend: shards in index order, in one process or several."""

    def test_order_and_records(self) -> None:
        """Two workers return the records of one process, in index order."""
        task = GameTask(resolve_variant("classic"), ("greedy", "random"), 9, max_hands=1)
        one = [r for shard in LocalBackend(1).run(task, 5) for r in shard]
        two = [r for shard in LocalBackend(2).run(task, 5) for r in shard]
        assert one == two == task(0, 5)
        assert [r.index for r in two] == [0, 1, 2, 3, 4]

    def test_make_backend(self) -> None:
        """Names map to backends; an address without Ray is refused."""
        assert isinstance(make_backend("local", 3), LocalBackend)
        assert isinstance(make_backend("ray", 2, "auto"), RayBackend)
        with pytest.raises(CanastaError, match="--address is for the ray backend"):
            make_backend("local", 1, "auto")
        with pytest.raises(CanastaError, match="unknown backend"):
            make_backend("slurm")


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    """A local Ray instance with two CPUs, no dashboard and no usage report."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray = need("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


class TestRay:
    """The Ray backend on a local instance: the same numbers as the local backend."""

    def test_leaves_ray_as_it_found_it(self) -> None:
        """A run starts Ray only when none is running, and shuts down only the one it started."""
        ray = need("ray")
        os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
        was = ray.is_initialized()
        task = GameTask(resolve_variant("classic"), ("greedy",), 1, max_hands=1)
        shards = list(RayBackend(num_cpus=2).run(task, 3))
        assert [r for s in shards for r in s] == task(0, 3)
        assert ray.is_initialized() == was

    def test_simulate_identical(self, ray_instance: Any) -> None:
        """simulate on Ray equals simulate in one process, records included."""
        args: dict[str, Any] = {"seed": 11, "max_hands": 1, "keep_records": True}
        local = simulate("draw-two", 12, ["greedy", "random"], **args)
        on_ray = simulate("draw-two", 12, ["greedy", "random"], backend="ray", **args)
        assert on_ray == local
        assert json.dumps(on_ray.to_dict()) == json.dumps(local.to_dict())

    def test_experiment_identical(self, ray_instance: Any) -> None:
        """An experiment on Ray equals the local one, progress reported up to the end."""
        seen: list[int] = []
        local = experiment(["classic", "draw-two"], 6, seed=3, max_hands=1)
        on_ray = experiment(["classic", "draw-two"], 6, seed=3, max_hands=1, backend="ray",
                            progress=lambda done, total: seen.append(done))
        assert on_ray == local
        assert seen[-1] == 6 and seen == sorted(seen)

    def test_command(self, ray_instance: Any, capsys: pytest.CaptureFixture[str]) -> None:
        """canasta simulate --backend ray prints what the local run prints."""
        argv = ["simulate", "classic", "--games", "4", "--max-hands", "1", "--seed", "2"]
        assert main(argv) == 0
        local = capsys.readouterr().out
        assert main([*argv, "--backend", "ray"]) == 0
        assert capsys.readouterr().out == local


class _IllegalBot:
    """A bot of a user's that answers with a move the rules refuse (module level: workers unpickle it)."""

    name = "illegal"

    def choose(self, view: Any, rng: Any) -> Any:
        from canasta import Discard

        return Discard(99)


class _UnpicklableError(Exception):
    def __init__(self, a: int, b: int) -> None:
        super().__init__(f"{a}-{b}")


class _RaisingBot:
    """A bot that fails with an exception its message alone cannot rebuild."""

    name = "raising"

    def choose(self, view: Any, rng: Any) -> Any:
        raise _UnpicklableError(1, 2)


class TestWorkerErrors:
    """An error in a worker reaches the caller; the run never waits forever for it."""

    def test_illegal_move_of_a_bot(self) -> None:
        """A user's bot that plays an illegal move: the IllegalMoveError, with its reason, at --jobs 2."""
        with pytest.raises(IllegalMoveError, match="illegal move 'discard 99'"):
            simulate("classic", 4, [_IllegalBot()], jobs=2, max_hands=1)

    def test_error_that_does_not_unpickle(self) -> None:
        """An exception the parent could not rebuild becomes a CanastaError naming it (the pool hung)."""
        with pytest.raises(CanastaError, match="a worker process failed: _UnpicklableError: 1-2"):
            simulate("classic", 4, [_RaisingBot()], jobs=2, max_hands=1)
