"""Kinds of meld: the one place that says what each kind of meld is.

A kind of meld says which cards form it, how it may grow, when it is a canasta
and of which kind, what that canasta scores, how the engine names it, and the
words it refuses a meld with. The engine asks each of these questions of a
kind, never of the options behind it: :class:`~canasta.engine.tables.Rules`
holds one kind per meld target (``Rules.meld_kinds[target]``: target 0 is a
meld of wild cards, 3 a meld of black 3s, any other rank a meld of that rank).

Five kinds exist: :class:`RankMeld` (naturals of one rank, with wild cards),
:class:`NaturalRankMeld` (naturals of a rank that never takes a wild card,
``melds.no_wild_ranks``), :class:`WildMeld` (wild cards only), :class:`BlackThreeMeld` and
:class:`SequenceMeld` (naturals of one suit in rank order, target
:data:`~canasta.engine.moves.SEQUENCE`). Adding one is a subclass of
:class:`MeldKind` and a line in :func:`kinds_of` for the targets it claims. The size limits every meld shares
(``melds.min_size``, ``melds.max_size``) are the base class's (:meth:`MeldKind.valid`),
so a kind reads nothing but its variant: this module sits below the compiled
tables, which hold one kind per target.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Protocol

from canasta.cards import RANK_NAMES, parse_rank
from canasta.engine.kinds import BLACK_THREE
from canasta.engine.moves import SEQUENCE, WILD_TARGET, kind_name
from canasta.variant.model import Variant

__all__ = [
    "BlackThreeMeld", "MeldKind", "NaturalRankMeld", "RankMeld", "SequenceMeld", "Shape", "WildMeld", "kinds_of",
    "natural_ranks", "sequence_ranks",
]


class Shape(Protocol):
    """What a kind needs to know of a meld on the table (a :class:`~canasta.engine.state.MeldGroup` is one)."""

    @property
    def rank(self) -> int:
        """The meld's target: its rank, 0 for wild cards, 3 for black 3s."""

    @property
    def size(self) -> int:
        """Its number of cards."""

    @property
    def wilds(self) -> int:
        """How many of them are wild."""


def natural_ranks(v: Variant) -> tuple[int, ...]:
    """The ranks ``v`` lets players meld as naturals: 2 to ace, but black 3s and the wild ranks."""
    wild = {parse_rank(r) for r in v.wilds.ranks}
    return tuple(k for k in range(2, 15) if k != BLACK_THREE and k not in wild)

def sequence_ranks(v: Variant) -> tuple[int, ...]:
    """The ranks a sequence may hold under ``v``: ``sequences.low`` to ``sequences.high``, natural ranks only.

    A wild rank or the 3s inside the window break it: no sequence holds them,
    so none can pass them either (the checker warns of such a window).
    """
    if not v.sequences.allowed:
        return ()
    lo, hi = parse_rank(v.sequences.low), parse_rank(v.sequences.high)
    natural = set(natural_ranks(v))
    return tuple(k for k in range(lo, hi + 1) if k in natural)


def _plural(rank: str) -> str:
    """``"jokers"``, ``"2s"``: how a bonus label names several cards of a wild rank."""
    return "jokers" if rank == "JK" else f"{rank}s"


_BONUS_LABEL = {"natural": "natural canasta", "mixed": "mixed canasta", "wild": "wild canasta"}


class MeldKind:
    """What one kind of meld is, under one variant (see the module docstring).

    Attributes:
        v: the variant whose options the kind reads.
        canasta_size: cards that make a meld of this kind a canasta.
        min_size: the fewest cards of a new meld (``melds.min_size``).
        max_size: the most cards of any meld (``melds.max_size``), or ``None``.
        new_size: the cards a new meld is laid with, where melds grow one card a step.
    """

    def __init__(self, v: Variant) -> None:
        self.v = v
        self.canasta_size = v.canastas.size
        m = v.melds
        self.min_size = m.min_size
        self.max_size = m.max_size
        self.new_size = max(m.min_size, m.min_naturals)
        # ranks whose meld is the rank's own only while it holds no wild card
        self.pure_ranks = frozenset(parse_rank(k) for k in m.late_natural_ranks)

    def singled_out(self, rank: int, j: int) -> bool:
        """Whether a meld of ``rank`` holding ``j`` wild cards is one that the rules naming its rank
        single out (``going_out.complete_ranks``, ``scoring.incomplete_penalties``).

        A meld of a rank of ``melds.late_natural_ranks`` that took wild cards
        (which it can only in its side's opening turn) is treated like any other
        meld, as Modern American treats such aces: those rules pass it by.
        """
        return not (j and rank in self.pure_ranks)

    def valid(self, n: int, j: int, new: bool) -> bool:
        """Whether ``n`` naturals and ``j`` wild cards are a legal meld of this kind (``new``: a new meld).

        The size limits every meld shares, then the kind's own rules (:meth:`forms`).
        """
        size = n + j
        if self.max_size is not None and size > self.max_size:
            return False
        if new and size < self.min_size:
            return False
        return self.forms(n, j)

    def label(self, rank: int) -> str:
        """How messages name melds of this kind and ``rank``: ``"kings"``, ``"wild cards"``."""
        return f"{kind_name(rank)}s"

    def forms(self, n: int, j: int) -> bool:
        """Whether ``n`` naturals and ``j`` wild cards make a legal meld of this kind.

        Only the kind's own rules: the size limits every meld shares are
        checked by :meth:`valid`, which asks this.
        """
        raise NotImplementedError

    def why_not(self, n: int, j: int) -> str:
        """The rule a meld of ``n`` naturals and ``j`` wilds breaks (one :meth:`valid` refuses)."""
        if self.max_size is not None and n + j > self.max_size:
            return f"a meld holds at most {self.max_size} cards"
        return "that is not a legal meld"

    def new_meld_error(self, rank: int, n: int, j: int) -> str | None:
        """Why a new meld of this kind and ``rank`` with ``n`` naturals and ``j`` wilds is refused, or ``None``."""
        if n + j != self.new_size:
            return f"lay a new meld with exactly {self.new_size} cards, then add cards one at a time"
        if not self.valid(n, j, True):
            return self.why_not(n, j)
        return None

    def canasta(self, size: int, j: int) -> str | None:
        """The canasta kind (``"natural"``, ``"mixed"``, ``"wild"``) of a meld of ``size`` cards, ``j`` of them wild, or ``None``."""
        raise NotImplementedError

    def bonus(self, rank: int, kind: str, wild_kinds: Sequence[int] = ()) -> tuple[str, int]:
        """The score item of a canasta of ``kind`` of this kind and ``rank``: ``(label, points)``.

        ``wild_kinds`` are the kinds of its wild cards, which a wild canasta's
        bonus may depend on (``canastas.wild_mix_bonuses``).
        """
        c = self.v.canastas
        name = "W" if rank == WILD_TARGET else RANK_NAMES.get(rank, str(rank))
        base = {"natural": c.natural_bonus, "mixed": c.mixed_bonus, "wild": c.wild_bonus}[kind]
        points = base
        for b in c.rank_bonuses:  # the last matching entry wins, as in a mapping
            if (b.rank, b.kind) == (name, kind):
                points = b.bonus
        label = _BONUS_LABEL[kind]
        if kind == "wild":
            for wb in c.wild_mix_bonuses:  # the last matching entry wins, as for rank bonuses
                wk = parse_rank(wb.rank)
                if sum(1 for k in wild_kinds if k == wk) == wb.count:
                    points = wb.bonus
                    label = f"wild canasta with {wb.count} {_plural(wb.rank)}"
        return (f"{label} of {name}s" if rank != WILD_TARGET else label), points


class RankMeld(MeldKind):
    """Natural cards of one rank, with wild cards as ``melds.*`` allows."""

    def __init__(self, v: Variant) -> None:
        super().__init__(v)
        self.ranks = frozenset(natural_ranks(v))

    def forms(self, n: int, j: int) -> bool:
        """See :meth:`MeldKind.forms`: naturals, wild cards and the second-wild rule."""
        m = self.v.melds
        if n < m.min_naturals or j > m.max_wilds:
            return False
        if m.wilds_at_most_naturals and j > n:
            return False
        if m.naturals_per_wild is not None and n < m.naturals_per_wild * j:
            return False
        if j >= 2:
            if m.second_wild == "by_size" and n + 2 < m.second_wild_size:
                return False
            if m.second_wild == "by_naturals" and n < m.second_wild_naturals:
                return False
        return True

    def why_not(self, n: int, j: int) -> str:
        """See :meth:`MeldKind.why_not`."""
        m = self.v.melds
        if n < m.min_naturals:
            return f"a meld needs at least {m.min_naturals} natural cards"
        if j > m.max_wilds:
            return f"a meld may hold at most {m.max_wilds} wild cards"
        if m.wilds_at_most_naturals and j > n:
            return "a meld may not hold more wild cards than natural cards"
        if m.naturals_per_wild is not None and n < m.naturals_per_wild * j:
            return f"a meld needs {m.naturals_per_wild} natural cards for each wild card"
        if j >= 2 and m.second_wild == "by_size" and n + 2 < m.second_wild_size:
            return (
                f"a second wild card may join a meld only as its card number "
                f"{m.second_wild_size} or later"
            )
        if j >= 2 and m.second_wild == "by_naturals" and n < m.second_wild_naturals:
            return (
                f"a second wild card may join a meld only once it holds "
                f"{m.second_wild_naturals} naturals"
            )
        return super().why_not(n, j)

    def new_meld_error(self, rank: int, n: int, j: int) -> str | None:
        """See :meth:`MeldKind.new_meld_error`: a wild rank or a red 3 is no rank to meld."""
        if rank not in self.ranks:
            return f"{kind_name(rank)}s cannot be melded"
        return super().new_meld_error(rank, n, j)

    def canasta(self, size: int, j: int) -> str | None:
        """See :meth:`MeldKind.canasta`: natural without wild cards, else mixed."""
        if size < self.canasta_size:
            return None
        return "natural" if j == 0 else "mixed"


class NaturalRankMeld(RankMeld):
    """Natural cards of a rank whose melds never hold a wild card (``melds.no_wild_ranks``).

    One per such rank, so that its refusals name the rank.
    """

    def __init__(self, v: Variant, rank: int) -> None:
        super().__init__(v)
        self.rank = rank

    def forms(self, n: int, j: int) -> bool:
        """See :meth:`MeldKind.forms`: a rank meld with no wild card."""
        return j == 0 and super().forms(n, j)

    def why_not(self, n: int, j: int) -> str:
        """See :meth:`MeldKind.why_not`."""
        if j:
            return f"a meld of {kind_name(self.rank)}s never holds a wild card"
        return super().why_not(n, j)


class WildMeld(MeldKind):
    """Wild cards only (``melds.wild_melds``), at most ``melds.wild_meld_max`` of them where it is set."""

    def __init__(self, v: Variant) -> None:
        super().__init__(v)
        if v.melds.wild_meld_max is not None:
            self.max_size = v.melds.wild_meld_max

    def label(self, rank: int) -> str:
        """See :meth:`MeldKind.label`."""
        return "wild cards"

    def forms(self, n: int, j: int) -> bool:
        """See :meth:`MeldKind.forms`: no naturals, where the variant has wild melds."""
        return n == 0 and self.v.melds.wild_melds

    def why_not(self, n: int, j: int) -> str:
        """See :meth:`MeldKind.why_not`."""
        if self.max_size is not None and j > self.max_size:
            return f"a meld holds at most {self.max_size} cards"
        return f"a meld of wild cards needs at least {self.min_size} cards"

    def new_meld_error(self, rank: int, n: int, j: int) -> str | None:
        """See :meth:`MeldKind.new_meld_error`."""
        if not self.v.melds.wild_melds:
            return "this variant has no melds of wild cards only"
        return super().new_meld_error(rank, n, j)

    def canasta(self, size: int, j: int) -> str | None:
        """See :meth:`MeldKind.canasta`: a wild canasta."""
        return "wild" if size >= self.canasta_size else None


class BlackThreeMeld(MeldKind):
    """Black 3s, melded as ``threes.black_meld`` allows; never a canasta."""

    def forms(self, n: int, j: int) -> bool:
        """See :meth:`MeldKind.forms`: the black-3 meld's size span and its wild-card rule."""
        th = self.v.threes
        if th.black_meld == "never" or n < th.black_meld_min:
            return False
        if th.black_meld_max is not None and n > th.black_meld_max:
            return False
        return j == 0 or th.black_meld_wilds

    def why_not(self, n: int, j: int) -> str:
        """See :meth:`MeldKind.why_not`."""
        th = self.v.threes
        most = th.black_meld_max
        span = f"{th.black_meld_min} to {most}" if most else f"at least {th.black_meld_min}"
        wild = "" if th.black_meld_wilds else ", no wild cards"
        return f"a meld of black 3s has {span} black 3s{wild}"

    def new_meld_error(self, rank: int, n: int, j: int) -> str | None:
        """See :meth:`MeldKind.new_meld_error`: any size in the span, not just a new meld's."""
        if self.v.threes.black_meld == "never":
            return "black 3s may never be melded in this variant"
        if not self.valid(n, j, True):
            return self.why_not(n, j)
        return None

    def canasta(self, size: int, j: int) -> str | None:
        """See :meth:`MeldKind.canasta`: black 3s make no canasta."""
        return None


class SequenceMeld(MeldKind):
    """Natural cards of one suit in unbroken rank order (``sequences.*``); no wild card, but
    where ``sequences.wild_in_gap`` allows one standing between two natural cards.

    The engine checks the suit and the order when cards are laid; a kind sees
    only how many cards a meld holds. Its sizes are the sequences' own, not
    those of ``melds.*``.
    """

    def __init__(self, v: Variant) -> None:
        super().__init__(v)
        sq = v.sequences
        self.canasta_size = sq.canasta_size
        self.min_size = sq.min_size
        self.max_size = sq.max_size
        self.new_size = sq.min_size

    def label(self, rank: int) -> str:
        """See :meth:`MeldKind.label`."""
        return "sequences"

    def forms(self, n: int, j: int) -> bool:
        """See :meth:`MeldKind.forms`: natural cards only, where the variant has sequences, or
        one wild card among them where ``sequences.wild_in_gap`` allows it."""
        sq = self.v.sequences
        return sq.allowed and (j == 0 or (j == 1 and sq.wild_in_gap and n >= 2))

    def why_not(self, n: int, j: int) -> str:
        """See :meth:`MeldKind.why_not`."""
        if not self.v.sequences.allowed:
            return "this variant has no sequences"
        if j and not self.v.sequences.wild_in_gap:
            return "a sequence holds natural cards only"
        if j > 1 or (j and n < 2):
            return "a sequence holds one wild card at most, between two of its natural cards"
        if self.max_size is not None and n + j > self.max_size:
            return f"a sequence holds at most {self.max_size} cards"
        return f"a sequence needs at least {self.min_size} cards"

    def new_meld_error(self, rank: int, n: int, j: int) -> str | None:
        """See :meth:`MeldKind.new_meld_error`."""
        if not self.v.sequences.allowed:
            return "this variant has no sequences"
        if n + j != self.new_size:
            return f"lay a new sequence with exactly {self.new_size} cards, then add cards one at a time"
        if not self.valid(n, j, True):
            return self.why_not(n, j)
        return None

    def canasta(self, size: int, j: int) -> str | None:
        """See :meth:`MeldKind.canasta`: a sequence canasta."""
        return "sequence" if size >= self.canasta_size else None

    def bonus(self, rank: int, kind: str, wild_kinds: Sequence[int] = ()) -> tuple[str, int]:
        """See :meth:`MeldKind.bonus`: ``sequences.bonus``, under the name the rules give it."""
        return self.v.sequences.name, self.v.sequences.bonus


@lru_cache(maxsize=64)
def kinds_of(v: Variant) -> tuple[MeldKind, ...]:
    """The kind of meld of each target (index 0 to 16: :data:`~canasta.engine.moves.SEQUENCE` last) under ``v`` (cached)."""
    rank, wild, black = RankMeld(v), WildMeld(v), BlackThreeMeld(v)
    kinds: list[MeldKind] = [rank] * 17
    for name in v.melds.no_wild_ranks:
        k = parse_rank(name)
        if k in rank.ranks:
            kinds[k] = NaturalRankMeld(v, k)
    kinds[WILD_TARGET] = wild
    kinds[BLACK_THREE] = black
    kinds[SEQUENCE] = SequenceMeld(v)
    return tuple(kinds)
