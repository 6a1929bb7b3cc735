"""Optional dependencies of the adapter tests: skipped when missing, unless CI requires them.

With ``CANASTA_REQUIRE_EXTRAS=1`` (set by ``.ci/run``) a missing extra fails
the test instead of skipping it, so CI cannot pass without running these tests.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(module: str) -> ModuleType:
    """Import ``module``; skip the test without it (fail when CANASTA_REQUIRE_EXTRAS=1)."""
    if os.environ.get("CANASTA_REQUIRE_EXTRAS") == "1":
        return importlib.import_module(module)
    return pytest.importorskip(module)
