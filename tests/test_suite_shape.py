"""The test run's shape: a plain run leaves out the ``long`` suites, CI runs them.

tests/conftest.py deselects the tests marked ``long`` unless ``CANASTA_LONG=1``
is set or a ``-m`` expression names the marker; tests/budget.py scales the
property tests' example counts the same way. These tests run pytest on a
small file of their own with that conftest, and read the CI script.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

SAMPLE = '''
import pytest
from budget import examples

@pytest.mark.long
def test_long():
    pass

def test_quick():
    assert examples(100) == (100 if __import__("budget").LONG else 20)
'''


def _collect(tmp_path: Path, *args: str, long: str | None = None) -> list[str]:
    """Run the sample file through pytest with the project's conftest; the test ids run."""
    for name in ("conftest.py", "budget.py"):
        shutil.copy(HERE / name, tmp_path / name)
    (tmp_path / "test_sample.py").write_text(SAMPLE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("CANASTA_LONG", "PYTEST_ADDOPTS")}
    if long is not None:
        env["CANASTA_LONG"] = long
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider",
         "-W", "ignore::pytest.PytestUnknownMarkWarning", *args, str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return sorted(line.split("::")[-1] for line in done.stdout.splitlines() if line.startswith("PASSED"))


@pytest.mark.parametrize(
    ("args", "long", "ran"),
    [
        ((), None, ["test_quick"]),
        ((), "1", ["test_long", "test_quick"]),
        (("-m", "long"), None, ["test_long"]),
        (("-m", "not long"), "1", ["test_quick"]),
    ],
)
def test_long_suites_run_only_when_asked(
    tmp_path: Path, args: tuple[str, ...], long: str | None, ran: list[str]
) -> None:
    """Plain runs leave ``long`` out; CANASTA_LONG=1 or ``-m`` naming it brings it in."""
    assert _collect(tmp_path, *args, long=long) == ran


def test_ci_runs_the_long_suites() -> None:
    """The CI test step sets CANASTA_LONG=1 before the README's test command."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    step = script[script.index("step_tests() {"):]
    step = step[: step.index("\n}\n")]
    assert "export CANASTA_LONG=1" in step
    assert step.index("export CANASTA_LONG=1") < step.index('eval "$TEST_CMD"')


def test_long_marker_is_registered() -> None:
    """pyproject.toml declares the ``long`` marker (pytest warns about unknown ones)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"long: ' in text
