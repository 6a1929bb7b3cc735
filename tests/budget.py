"""How much the property tests try: a plain run, or the long one (``CANASTA_LONG=1``).

A plain ``python -m pytest`` keeps every property test but gives it fewer
examples; ``CANASTA_LONG=1`` (CI) gives each its full count. Two hypothesis
profiles carry the counts for tests that set none: ``quick`` (the default) and
``long``. A test that sets its own count sizes it with :func:`examples`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import settings

#: True when the long suites run: ``CANASTA_LONG`` set to anything but "" or "0".
LONG = os.environ.get("CANASTA_LONG", "") not in ("", "0")

#: The share of a test's full example count that a plain run tries.
QUICK_SHARE = 0.2

settings.register_profile("quick", max_examples=20)
settings.register_profile("long", max_examples=100)
settings.load_profile("long" if LONG else "quick")


def examples(full: int, *, least: int = 10) -> int:
    """The examples a property test tries: ``full`` in a long run, a fifth (at least ``least``) otherwise."""
    if LONG:
        return full
    return min(full, max(least, round(full * QUICK_SHARE)))


#: The profiles a plain run gives the per-profile adapter suites (PettingZoo,
#: OpenSpiel, observations): one of each family of rules, partnerships and
#: players alone, a foot, sequences, Modern American's special hands. Every
#: bundled profile runs them in the long run.
QUICK_PROFILES = ("classic", "classic-3p", "hand-and-foot", "samba", "modern-american")


def profiles(names: Sequence[str]) -> list[Any]:
    """``names`` as parameters, those not in :data:`QUICK_PROFILES` marked ``long``."""
    return [
        name if name in QUICK_PROFILES else pytest.param(name, marks=pytest.mark.long)
        for name in names
    ]
