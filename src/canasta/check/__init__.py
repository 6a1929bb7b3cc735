"""The rule-set conflict checker: find rules that contradict each other or never apply.

:func:`check_variant` reads a resolved :class:`~canasta.variant.model.Variant` and
returns :class:`Diagnostic` values, each with a stable code (``C001`` …), a
severity, the dotted option paths involved, a message a card player
understands and a hint. Severities:

* ``error``: the game cannot be played as written (the deal needs more cards
  than the decks hold, nobody can ever go out, the game never ends …);
* ``warning``: a rule can never apply, or two rules overlap;
* ``info``: worth knowing, but resolved by the profile (a known ambiguity of
  the rule text, a rule that never came into play in simulated hands).

Every kind of finding is registered in ``CHECKS`` with its code,
severity, title, meaning and an example profile; the documentation page and
the tests are generated from that table. Static checks are small functions
over a few precomputed facts (card counts, which melds and canastas can be
made); the dynamic check plays seeded hands with the engine itself.

:func:`check_profile` checks a profile file or bundled name: a profile that
does not load becomes a diagnostic too (``C000``, or ``C011`` for a cycle of
``extends``), and each diagnostic gets the file, line and column of the
option it names.

The package's parts, each importing only those above it:

* :mod:`canasta.check.registry`: :class:`Diagnostic`, :class:`Finding`, the
  registry ``CHECKS`` and its decorators, and the facts the static checks read;
* the static checks, one module per rule area, each registering its checks as
  it is imported: :mod:`~canasta.check.deal` (deck, deal, stock, draw,
  players), :mod:`~canasta.check.melds` (melds and wild cards in them),
  :mod:`~canasta.check.going_out` (the canastas needed to go out),
  :mod:`~canasta.check.threes` (black 3s, 3s wild), :mod:`~canasta.check.pile`
  (taking the discard pile), :mod:`~canasta.check.opening` (the opening
  minimum), :mod:`~canasta.check.scoring` (bonuses, target, end of the game),
  :mod:`~canasta.check.sequences` (suit sequences: window, sizes, penalty);
* :mod:`canasta.check.playouts`: the simulated hands;
* :mod:`canasta.check.checker`: :func:`check_variant`, which runs them all;
* :mod:`canasta.check.profile`: :func:`check_profile`, files and locations;
* :mod:`canasta.check.report`: ``canasta check`` (:func:`report`) and the
  documentation's list of codes (:func:`checks_rst`).

This package re-exports the public names; the modules import each other
directly, never through it.
"""

from canasta.check.checker import check_variant
from canasta.check.playouts import MAX_MOVES_PER_HAND
from canasta.check.profile import check_profile
from canasta.check.registry import (
    CHECKS,
    CheckKind,
    Diagnostic,
    Finding,
    Severity,
    Stage,
    StaticCheck,
)
from canasta.check.report import checks_rst, report

__all__ = [
    "CHECKS",
    "MAX_MOVES_PER_HAND",
    "CheckKind",
    "Diagnostic",
    "Finding",
    "Severity",
    "Stage",
    "StaticCheck",
    "check_profile",
    "check_variant",
    "checks_rst",
    "report",
]
