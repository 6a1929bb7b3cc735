"""Checking a variant: every registered static check, then the playouts.

The static checks live in one module per rule area (:mod:`canasta.check.deal`,
:mod:`~canasta.check.dead` (options an off switch makes dead),
:mod:`~canasta.check.described` (the description against the rules),
:mod:`~canasta.check.melds`, :mod:`~canasta.check.going_out`,
:mod:`~canasta.check.threes`, :mod:`~canasta.check.pile`,
:mod:`~canasta.check.opening`, :mod:`~canasta.check.scoring`,
:mod:`~canasta.check.sequences`, :mod:`~canasta.check.special`); each registers
its checks in :data:`~canasta.check.registry.CHECKS` as it is imported.
"""

from __future__ import annotations

import canasta.check.dead as dead
import canasta.check.deal as deal
import canasta.check.described as described
import canasta.check.going_out as going_out
import canasta.check.melds as melds
import canasta.check.opening as opening
import canasta.check.pile as pile
import canasta.check.scoring as scoring
import canasta.check.sequences as sequences
import canasta.check.special as special
import canasta.check.threes as threes
from canasta.check.playouts import run_playouts
from canasta.check.registry import CHECKS, Diagnostic, facts_of
from canasta.errors import CanastaError
from canasta.variant.model import Variant

__all__ = ["AREAS", "check_variant"]

#: The modules of static checks, one per rule area. Each registers its checks in
#: ``CHECKS`` as it is imported, and :func:`check_variant` runs every registered
#: check: importing them all here means none is missing, whatever imported first.
AREAS = (dead, deal, described, going_out, melds, opening, pile, scoring, sequences, special, threes)


def check_variant(variant: Variant, *, playouts: int = 0, seed: int = 0) -> list[Diagnostic]:
    """Check a variant for rules that contradict each other or can never apply.

    Args:
        variant: the rules, e.g. ``canasta.load_variant("house.yaml")``.
        playouts: also play this many seeded hands (alternately a simple greedy
            player and random legal moves) and report engine failures, hands
            that never end, nobody ever going out, and rules that never came
            into play.
        seed: the first deal seed of the playouts; hand ``i`` is dealt with
            ``canasta.new_game(variant, seed=seed + i)``.

    Returns:
        The diagnostics, static ones in code order, then those of the playouts.
        Empty when nothing was found.

    Raises:
        CanastaError: ``variant`` is not a Variant, or ``playouts`` is negative.
    """
    if not isinstance(variant, Variant):
        raise CanastaError(f"check_variant expects a Variant, got {type(variant).__name__}")
    if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 0:
        raise CanastaError(f"playouts must be an integer >= 0, got {playouts!r}")
    facts = facts_of(variant)
    out: list[Diagnostic] = []
    for kind in CHECKS.values():
        if kind.run is None:
            continue
        for paths, message, hint in kind.run(facts):
            out.append(Diagnostic(kind.code, kind.severity, paths, message, hint))
    if playouts:
        errors = any(d.severity == "error" for d in out)
        out.extend(run_playouts(variant, playouts, seed, static_errors=errors))
    return out
