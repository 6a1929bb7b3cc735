"""The order of the run: the tests that read the shared random games first, profile by profile.

tests/random_games.py plays each random game once per process, for the tests
marked ``random_games(name)``. Under pytest-xdist (CI's test step runs
``-n auto --dist worksteal``) the first worker is given the first half of the
collected tests: with the marked tests at the front, that worker runs them all
and plays each game once, where the order of the files would split them
between the workers and have both play the same games (a Brazilian game takes
10 to 30 s). Every other test keeps its place relative to the others.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests marked ``random_games`` to the front, grouped by profile."""

    def key(item: pytest.Item) -> tuple[int, str]:
        mark = item.get_closest_marker("random_games")
        return (0, str(mark.args[0])) if mark else (1, "")

    items.sort(key=key)
