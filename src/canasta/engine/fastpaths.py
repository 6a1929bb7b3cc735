"""The one switch that turns the engine's fast paths off, so that the plain rule path decides.

The engine answers most positions by shortcuts that must agree with its
rules: ``legal_moves`` asks every candidate move's step (:func:`canasta.engine.game.step`),
and the shortcuts decide whole groups of candidates at once or reuse what an
earlier call worked out. With the environment variable
``CANASTA_PLAIN_RULES=1`` set before :mod:`canasta` is imported,
:data:`PLAIN_RULES` is true and every one of them is off:

* ``legal_moves``: the draw phase listed without the steps
  (:func:`~canasta.engine.draw.draw_moves`), the play phase listed from the
  hand's counts (:func:`~canasta.engine.quick.quick_moves`), and in the
  candidate loop the discards decided together (``plain_discard_error``) and
  the adds and new melds decided by their shape (``quick_play``,
  ``add_fits``, ``meld_fits``): each candidate is asked its step instead;
* the counts and meld facts carried from one state to the next by identity
  (the hand counts a meld or add hands to the state it builds, ``GameState._counts``,
  :data:`~canasta.engine.melds.KEPT_INFO` and a ``MeldInfo`` grown from the one
  before): worked out afresh from the state instead;
* the draw's apply without lists (and its kept turn records): the general draw instead;
* the oracle's quick outs (:func:`~canasta.engine.oracle.quick_out` before
  the searches, in :func:`~canasta.engine.oracle.can_go_out` and asking to go
  out, and the greedy plan's answers and bounds in ``can_go_out`` and
  ``can_finish``, the bound on a natural canasta an opening needs
  (:func:`~canasta.engine.oracle.natural_canasta_reachable`), the narrow
  sequence searches asked before the full one, and the answer for the
  position listed that settles each candidate where it is no): the searches
  decide every question, for every candidate, instead;
* the sequence search's pruning (:func:`~canasta.engine.sequence_search.sequence_outcomes`
  drops the states that cannot end, that another beats or that can no longer
  make the canasta an opening asks, and keeps one of the runs with the same
  ways on): it keeps every state instead.

Memoized pure functions (``functools.lru_cache`` keyed by value) stay on: they
return what the function returns. The plain path is slow (several times the
fast one); it exists to be compared with the fast one. ``tests/test_fast_paths.py``
plays positions of every bundled profile and of generated house profiles
under both and requires the same moves, in the same order, and the same
states after them.

The switch is read once, at import: a module constant, so that the compiled
engine reads it as cheaply as the interpreted one; a process is plain or fast
for its life.
"""

from __future__ import annotations

import os
from typing import Final

__all__ = ["ENV_VAR", "PLAIN_RULES"]

#: The environment variable read at import.
ENV_VAR: Final = "CANASTA_PLAIN_RULES"

#: Whether every fast path is off (``CANASTA_PLAIN_RULES=1`` at import).
PLAIN_RULES: Final[bool] = os.environ.get(ENV_VAR, "") == "1"
