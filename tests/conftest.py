"""The run's shape: which tests run (the ``long`` marker), and their order.

The long suites (many random hands per profile, generated variants, whole
campaigns) are marked ``long`` and left out of a plain ``python -m pytest``, so
that it finishes in a few minutes on two cores while every rule keeps its tests.
``CANASTA_LONG=1 python -m pytest`` runs everything, as CI does; a ``-m``
expression that names ``long`` (``-m long``, ``-m "long or not long"``) chooses
for itself. Under ``CANASTA_LONG=1`` the property tests try their full number
of examples too (tests/budget.py).

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

from budget import LONG


def _long_chosen_by_markexpr(config: pytest.Config) -> bool:
    """Whether ``-m`` was given and names the ``long`` marker (it then decides alone)."""
    return "long" in (config.getoption("markexpr", "") or "")


def pytest_report_header(config: pytest.Config) -> str:
    """Say on the first lines whether the long suites run, and how to change it."""
    if LONG:
        return "long suites: on (CANASTA_LONG=1)"
    if _long_chosen_by_markexpr(config):
        return "long suites: as -m chooses"
    return "long suites: off (CANASTA_LONG=1 python -m pytest runs them)"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the ``long`` tests unless asked for; the random-game readers go first."""
    if not LONG and not _long_chosen_by_markexpr(config):
        kept = [item for item in items if item.get_closest_marker("long") is None]
        if len(kept) != len(items):
            config.hook.pytest_deselected(
                items=[item for item in items if item.get_closest_marker("long") is not None]
            )
            items[:] = kept

    def key(item: pytest.Item) -> tuple[int, str]:
        mark = item.get_closest_marker("random_games")
        return (0, str(mark.args[0])) if mark else (1, "")

    items.sort(key=key)
