"""The engine's fast paths, decided once per variant: one flag set, :class:`FastPaths`.

The plain rule path is the rule: ``legal_moves`` asks every candidate move's
step (:func:`canasta.engine.game.step`), every fact about a state is worked
out from the state, and the turn oracle's searches decide every question. The
engine answers most positions faster by shortcuts that must agree with it:
they decide whole groups of candidates at once or reuse what an earlier call
worked out. Whether a shortcut may apply to a variant at all is decided here,
once, from its compiled tables (:func:`conclude`, stored as ``Rules.fast``);
what depends on the position (the phase, the stock, the turn) is tested where
the shortcut is taken. Each flag below names the variant conditions it
requires and the plain rule it must equal. ``legal_moves``
(:mod:`canasta.engine.game`) is the listing's one gate: from the flags and the
position it chooses the draw listed without the steps, the play phase listed
from the hand's counts or by the candidate loop, or the plain listing. A new
shortcut gets a flag here (with :data:`FLAGS` and its conditions), is gated by
reading ``rules.fast.<flag>`` where it is taken, and is added to the table in
``docs/architecture.rst``.

With the environment variable ``CANASTA_PLAIN_RULES=1`` set before
:mod:`canasta` is imported, :data:`PLAIN_RULES` is true and every flag of every
variant is false: the plain path decides everywhere. This module is the only
one that reads the switch; a process is plain or fast for its life.
``tests/test_fast_paths.py`` plays positions of every bundled profile and of
generated house profiles both ways and requires the same moves, in the same
order, and the same states after them.

Memoized pure functions (``functools.lru_cache`` keyed by value) stay on with
the switch: they return what the function returns. The plain path is slow
(several times the fast one); it exists to be compared with the fast one.
"""

from __future__ import annotations

import os
from typing import Final, Protocol

__all__ = ["ENV_VAR", "FLAGS", "PLAIN_RULES", "FastPaths", "conclude"]

#: The environment variable read at import.
ENV_VAR: Final = "CANASTA_PLAIN_RULES"

#: Whether every fast path is off (``CANASTA_PLAIN_RULES=1`` at import).
PLAIN_RULES: Final[bool] = os.environ.get(ENV_VAR, "") == "1"


class CompiledRules(Protocol):
    """The compiled tables (:class:`canasta.engine.tables.Rules`) that decide which fast
    paths a variant may take; named here by their parts, since the tables are built
    above this module."""

    #: threes.keep_one, where a 3 is laid at once
    keep_three: bool
    #: dead ranks, late wild cards or the wild-meld lock
    rank_bars: bool
    #: late wild cards (melds.wilds_join_after_meld, melds.no_wild_ranks)
    late_on: bool
    #: melds.wild_meld_lock, with melds of wild cards
    wild_lock: bool
    #: sequences.allowed
    seq_on: bool
    #: melds.duplicate_ranks: any
    dup_any: bool


#: The names of the flags of :class:`FastPaths`, in alphabetical order.
FLAGS: Final = (
    "carried_counts", "carried_info", "draw_apply", "draw_listing", "greedy_opening", "greedy_out",
    "listed_answer", "narrow_searches", "natural_bound", "opening_bound", "quick_discards",
    "quick_listing", "quick_out", "quick_shapes", "sequence_pruning", "wild_sets",
)


class FastPaths:
    """Which of the engine's shortcuts a variant may take; all false with :data:`PLAIN_RULES`.

    Built once per variant by :func:`conclude`; read only (a flag is never
    changed once the tables are built: the tables are shared by every state of
    every game of the variant).
    """

    __slots__ = FLAGS

    def __init__(self, r: CompiledRules, on: bool) -> None:
        # Listings (``legal_moves``'s gate, canasta.engine.game)
        #: The draw phase listed without the steps or a ``Ctx``
        #: (:func:`~canasta.engine.draw.draw_moves`): no 3 may be kept in hand
        #: (``threes.keep_one``), which the draw's steps decide; per position, the
        #: stock is not empty and no walk to the foot is due. Equals every draw-phase
        #: candidate asked its step (``draw_moves`` returns ``None`` where it cannot tell).
        self.draw_listing: Final = on and not r.keep_three
        #: The play phase's candidate loop deciding the discards that do not go out
        #: together (``plain_discard_error``, then each card's ``discard_bar``) and
        #: asking the other candidates their step directly: no 3 may be kept (the
        #: plain listing adds the kept 3s' moves). Equals each candidate asked its step.
        self.quick_discards: Final = on and not r.keep_three
        #: Candidate adds and new melds decided by their shape (``add_fits``,
        #: ``meld_fits``) where ``quick_play`` holds: no rule bars a card by its
        #: rank (dead ranks, late wild cards, the wild-meld lock); per position,
        #: the rest of ``quick_play``. Equals each add's and meld's step.
        self.quick_shapes: Final = on and not r.rank_bars
        #: A play-phase position listed from the hand's counts
        #: (:func:`~canasta.engine.quick.quick_moves`): the two flags above, no
        #: sequences and no second meld of a rank (``melds.duplicate_ranks: any``);
        #: per position, ``quick_play``. Equals the candidate loop, move for move, in order.
        self.quick_listing: Final = (
            self.quick_discards and self.quick_shapes and not r.seq_on and not r.dup_any
        )
        # What a step carries to the next state
        #: The hand counts a meld or add carries to the state it builds
        #: (``GameState._counts``), read by ``Ctx``: always, where the carried hand
        #: is the very tuple the state holds for the mover. Equals counting the hand.
        self.carried_counts: Final = on
        #: The facts of each side's melds (:class:`~canasta.engine.melds.MeldInfo`)
        #: carried from state to state (``GameState._infos``, handed on by ``apply``:
        #: ``carry_infos``; read by ``side_info``), trusted for the very melds tuple they
        #: are of, and grown from the info before a step that grew or added one meld
        #: (``meld_info``): always. Equals the facts worked out from the melds alone.
        self.carried_info: Final = on
        #: The draw's apply without lists, its turn records kept (``draw_step``):
        #: always; per position, the stock holds the cards to draw and none is a 3
        #: to lay out. Equals the general draw.
        self.draw_apply: Final = on
        # The turn oracle (canasta.engine.oracle) and its searches
        #: The quick test of going out (``quick_out``) before any search, in ``can_go_out`` and
        #: ``ask_step``: always. Its ``None`` is a no the searches give too (``_sequence_strays``).
        self.quick_out: Final = on
        #: No plan holds the natural canasta an opening asks where none is within
        #: reach (``natural_canasta_reachable``), in ``can_go_out`` and
        #: ``_opening_in_reach``, nor goes out where fewer natural canastas are within
        #: reach than going out asks (``natural_canastas_most``, in ``can_go_out``):
        #: always; per position, the opening or going out asks one.
        self.natural_bound: Final = on
        #: The greedy plan's upper bound on the points an opening can still reach
        #: (``_opening_in_reach``): always. Below it, no search reaches the minimum.
        self.opening_bound: Final = on
        #: The greedy plan showing a way out at once (``greedy_out``, in ``_melds_out``;
        #: with sequences, the cards it leaves laid first in new sequences from the
        #: hand): always; per position, none of the rules the plan ignores is in play
        #: (``greedy_fits``: dead ranks, melds that must be complete, a clean opening;
        #: it follows wild cards joining late and the side's meld of wild cards locking
        #: them; the wild cards it leaves go last on a meld of wild cards). A plan it shows is one.
        self.greedy_out: Final = on
        #: The greedy plan showing an opening at once (``_opening_in_reach``): always; per position,
        #: as ``greedy_out`` (wild cards join late only after the opening; ``clean_opens``).
        self.greedy_opening: Final = on
        #: Narrow sequence searches asked before the full one (``_melds_out``,
        #: ``_opening_in_reach``): the variant has sequences. A plan they find is one
        #: the full search finds; a no takes the full search.
        self.narrow_searches: Final = on and r.seq_on
        #: The position listed answering for each of its candidates (``can_finish``):
        #: always; per position, an unopened side that has laid cards this turn.
        #: Where the position has no way to the opening (or, concealed, out), no
        #: candidate laid from it has.
        self.listed_answer: Final = on
        #: The sequence search's pruning (``sequence_outcomes``: states that cannot end,
        #: that another beats, runs with the same ways on, and in a search for a way out
        #: those that can no longer make the sequence canastas going out asks): the variant
        #: has sequences. Every question asked of its answer reads as of the full search's.
        self.sequence_pruning: Final = on and r.seq_on
        #: The sequence search's sets of wild-card counts used, one state for all (where no
        #: answer reads the points, ``sequence_outcomes``): the variant has sequences.
        self.wild_sets: Final = on and r.seq_on

    def __repr__(self) -> str:
        on = [name for name in FLAGS if getattr(self, name)]
        return f"FastPaths({', '.join(on) or 'none'})"


def conclude(r: CompiledRules) -> FastPaths:
    """The fast paths of the variant compiled into ``r``: none where :data:`PLAIN_RULES` is set."""
    return FastPaths(r, not PLAIN_RULES)
