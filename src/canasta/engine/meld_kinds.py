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
from typing import NamedTuple, Protocol

from canasta.cards import RANK_NAMES, parse_rank
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.moves import RED_THREE, SEQUENCE, WILD_TARGET, kind_name
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant

__all__ = [
    "BlackThreeMeld", "MeldKind", "NaturalRankMeld", "RankMeld", "Reading", "SequenceMeld", "Shape", "WildMeld",
    "classify", "kinds_of", "natural_ranks", "rank_reading", "sequence_kind", "sequence_order", "sequence_ranks",
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
    """The ranks ``v`` lets players meld as naturals: 2 to ace, but black 3s and the wild ranks
    (``Meanings.natural_ranks``, :mod:`canasta.variant.meanings`)."""
    return meanings(v).natural_ranks


def sequence_ranks(v: Variant) -> tuple[int, ...]:
    """The ranks a sequence may hold under ``v``: ``sequences.low`` to ``sequences.high``, natural ranks only
    (``Meanings.sequence_ranks``, :mod:`canasta.variant.meanings`).

    A wild rank or the 3s inside the window break it: no sequence holds them,
    so none can pass them either (the checker warns of such a window).
    """
    return meanings(v).sequence_ranks


class Reading(NamedTuple):
    """A meld's cards read as a kind of meld (:func:`classify`): which target they make and how."""

    #: the meld's target (its rank, 0 for wild cards, 3 for black 3s, 16 for a sequence)
    target: int
    #: how many of its cards are natural
    naturals: int
    #: how many are wild
    wilds: int
    #: a sequence's suit (0 to 3), -1 for any other meld
    suit: int


def sequence_order(cards: Sequence[int], is_wild: Sequence[bool]) -> tuple[int, ...]:
    """``cards`` in the order a sequence keeps them: rank order, a wild card at the rank it stands for.

    A wild card (``sequences.wild_in_gap``) goes to the one rank missing
    between the natural cards, so that a sequence's ends are natural cards.
    Cards that make no legal sequence are put in this order too, for
    :meth:`SequenceMeld.read` to name what is wrong.
    """
    naturals = sorted(c for c in cards if not is_wild[KIND[c]])
    wilds = sorted(c for c in cards if is_wild[KIND[c]])
    at = 1
    while at < len(naturals) and (naturals[at] >> 2) == (naturals[at - 1] >> 2) + 1:
        at += 1
    return (*naturals[:at], *wilds, *naturals[at:])


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
        mn = meanings(v)
        self.canasta_size = mn.canasta_size
        self.min_size = mn.meld_least
        self.max_size = mn.meld_most
        self.new_size = mn.new_meld_size
        # ranks whose meld is the rank's own only while it holds no wild card
        self.pure_ranks = mn.wilds_never_join
        #: whether each card kind (0 to 15) is wild under the variant
        self.is_wild = tuple(k in mn.wild_ranks for k in range(16))

    def absent(self, target: int) -> str | None:
        """Why the variant has no meld of this kind and ``target`` at all, or ``None`` where it has one."""
        return None

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
        mn = meanings(v)
        #: the naturals and wild cards a meld holds, and how wild cards are rationed
        #: (melds.min_naturals, max_wilds, wilds_at_most_naturals, naturals_per_wild, second_wild)
        self.least_naturals = mn.meld_least_naturals
        self.most_wilds = mn.meld_most_wilds
        self.wilds_at_most_naturals = mn.wilds_at_most_naturals
        self.naturals_per_wild = mn.naturals_per_wild
        self.second_wild_at = mn.second_wild_at_card
        self.second_wild_after = mn.second_wild_after_naturals

    def forms(self, n: int, j: int) -> bool:
        """See :meth:`MeldKind.forms`: naturals, wild cards and the second-wild rule."""
        if n < self.least_naturals or j > self.most_wilds:
            return False
        if self.wilds_at_most_naturals and j > n:
            return False
        if self.naturals_per_wild is not None and n < self.naturals_per_wild * j:
            return False
        if j >= 2:
            if self.second_wild_at is not None and n + 2 < self.second_wild_at:
                return False
            if self.second_wild_after is not None and n < self.second_wild_after:
                return False
        return True

    def why_not(self, n: int, j: int) -> str:
        """See :meth:`MeldKind.why_not`."""
        if n < self.least_naturals:
            return f"a meld needs at least {self.least_naturals} natural cards"
        if j > self.most_wilds:
            return f"a meld may hold at most {self.most_wilds} wild cards"
        if self.wilds_at_most_naturals and j > n:
            return "a meld may not hold more wild cards than natural cards"
        if self.naturals_per_wild is not None and n < self.naturals_per_wild * j:
            return f"a meld needs {self.naturals_per_wild} natural cards for each wild card"
        if j >= 2 and self.second_wild_at is not None and n + 2 < self.second_wild_at:
            return (
                f"a second wild card may join a meld only as its card number "
                f"{self.second_wild_at} or later"
            )
        if j >= 2 and self.second_wild_after is not None and n < self.second_wild_after:
            return (
                f"a second wild card may join a meld only once it holds "
                f"{self.second_wild_after} naturals"
            )
        return super().why_not(n, j)

    def absent(self, target: int) -> str | None:
        """See :meth:`MeldKind.absent`: a wild rank or a red 3 is no rank to meld."""
        return None if target in self.ranks else f"{kind_name(target)}s cannot be melded"

    def new_meld_error(self, rank: int, n: int, j: int) -> str | None:
        """See :meth:`MeldKind.new_meld_error`: a wild rank or a red 3 is no rank to meld."""
        return self.absent(rank) or super().new_meld_error(rank, n, j)

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
        mn = meanings(v)
        self.max_size = mn.wild_meld_most
        #: whether the variant has melds of wild cards only
        self.allowed = mn.wild_melds

    def label(self, rank: int) -> str:
        """See :meth:`MeldKind.label`."""
        return "wild cards"

    def forms(self, n: int, j: int) -> bool:
        """See :meth:`MeldKind.forms`: no naturals, where the variant has wild melds."""
        return n == 0 and self.allowed

    def absent(self, target: int) -> str | None:
        """See :meth:`MeldKind.absent`: wild cards are melded on their own only under ``melds.wild_melds``."""
        return None if self.allowed else "this variant has no melds of wild cards only"

    def why_not(self, n: int, j: int) -> str:
        """See :meth:`MeldKind.why_not`."""
        absent = self.absent(WILD_TARGET)
        if absent is not None:
            return absent
        if self.max_size is not None and j > self.max_size:
            return f"a meld holds at most {self.max_size} cards"
        return f"a meld of wild cards needs at least {self.min_size} cards"

    def new_meld_error(self, rank: int, n: int, j: int) -> str | None:
        """See :meth:`MeldKind.new_meld_error`."""
        return self.absent(rank) or super().new_meld_error(rank, n, j)

    def canasta(self, size: int, j: int) -> str | None:
        """See :meth:`MeldKind.canasta`: a wild canasta."""
        return "wild" if size >= self.canasta_size else None


class BlackThreeMeld(MeldKind):
    """Black 3s, melded as ``threes.black_meld`` allows; never a canasta."""

    def __init__(self, v: Variant) -> None:
        super().__init__(v)
        mn = meanings(v)
        #: threes.black_meld is never; the span of black 3s a meld holds; whether wild cards may join
        self.barred = mn.black_threes_meld_barred
        self.least = mn.black_threes_meld_least
        self.most = mn.black_threes_meld_most
        self.wilds = mn.black_threes_meld_wilds

    def forms(self, n: int, j: int) -> bool:
        """See :meth:`MeldKind.forms`: the black-3 meld's size span and its wild-card rule."""
        if self.barred or n < self.least:
            return False
        if self.most is not None and n > self.most:
            return False
        return j == 0 or self.wilds

    def why_not(self, n: int, j: int) -> str:
        """See :meth:`MeldKind.why_not`."""
        most = self.most
        span = f"{self.least} to {most}" if most else f"at least {self.least}"
        wild = "" if self.wilds else ", no wild cards"
        return f"a meld of black 3s has {span} black 3s{wild}"

    def absent(self, target: int) -> str | None:
        """See :meth:`MeldKind.absent`: black 3s are melded as ``threes.black_meld`` allows."""
        return "black 3s may never be melded in this variant" if self.barred else None

    def new_meld_error(self, rank: int, n: int, j: int) -> str | None:
        """See :meth:`MeldKind.new_meld_error`: any size in the span, not just a new meld's."""
        absent = self.absent(rank)
        if absent is not None:
            return absent
        if not self.valid(n, j, True):
            return self.why_not(n, j)
        return None

    def canasta(self, size: int, j: int) -> str | None:
        """See :meth:`MeldKind.canasta`: black 3s make no canasta."""
        return None


class SequenceMeld(MeldKind):
    """Natural cards of one suit in unbroken rank order (``sequences.*``); no wild card, but
    where ``sequences.wild_in_gap`` allows one standing between two natural cards.

    :meth:`read` is the one test of whether cards form a sequence (its suit,
    its order, the window and the wild card in a gap) and :meth:`size_error`
    of its size; the engine's other sequence checks ask them
    (:meth:`span_error` for a sequence named by its ends). Its sizes are the
    sequences' own, not those of ``melds.*``.
    """

    def __init__(self, v: Variant) -> None:
        super().__init__(v)
        mn = meanings(v)
        #: whether the variant has sequences
        self.allowed = mn.sequences_allowed
        self.canasta_size = mn.sequence_canasta_size
        self.min_size = mn.sequence_least
        self.max_size = mn.sequence_most
        self.new_size = mn.sequence_least
        #: the ranks a sequence may hold
        self.ranks = frozenset(mn.sequence_ranks)
        #: whether a sequence may hold a wild card in a gap
        self.wild_gap = mn.sequence_wild_in_gap
        #: whether a closed sequence may grow as its side goes out
        self.grows = mn.sequences_grow_going_out
        runs: list[tuple[int, int]] = []
        for k in mn.sequence_ranks:
            if runs and runs[-1][1] == k - 1:
                runs[-1] = (runs[-1][0], k)
            else:
                runs.append((k, k))
        #: the stretches of the window that no wild rank or 3 breaks, ``(lowest, highest)`` rank
        self.stretches = tuple(runs)
        #: the most ranks in a row a sequence may run through (the longest stretch)
        self.longest = max((hi - lo + 1 for lo, hi in runs), default=0)
        top = self.longest if self.max_size is None else min(self.max_size, self.longest)
        #: whether a sequence can ever be laid (a stretch and the closing size hold a new one)
        self.can_lay = self.allowed and self.min_size <= top
        #: the fewest cards of a sequence canasta (a new sequence is never smaller)
        self.smallest_canasta = max(self.canasta_size, self.min_size)
        #: whether a sequence can ever become a canasta
        self.canasta_possible = self.allowed and self.smallest_canasta <= top

    def label(self, rank: int) -> str:
        """See :meth:`MeldKind.label`."""
        return "sequences"

    def absent(self, target: int) -> str | None:
        """See :meth:`MeldKind.absent`: sequences are melded only under ``sequences.allowed``."""
        return None if self.allowed else "this variant has no sequences"

    def forms(self, n: int, j: int) -> bool:
        """See :meth:`MeldKind.forms`: natural cards only, where the variant has sequences, or
        one wild card among them where ``sequences.wild_in_gap`` allows it (as :meth:`read`
        reads it: only where a new sequence has an inside rank, ``sequences.min_size`` 3 or more)."""
        return self.allowed and (j == 0 or (j == 1 and self.wild_gap and n >= 2))

    def why_not(self, n: int, j: int) -> str:
        """See :meth:`MeldKind.why_not`."""
        if not self.allowed:
            return "this variant has no sequences"
        if j and not self.wild_gap:
            return _SEQ_NATURALS
        if j > 1 or (j and n < 2):
            return _SEQ_ONE_WILD
        return self.size_error(n + j) or "that is not a legal sequence"

    def new_meld_error(self, rank: int, n: int, j: int) -> str | None:
        """See :meth:`MeldKind.new_meld_error`."""
        if not self.allowed:
            return "this variant has no sequences"
        if n + j != self.new_size:
            return f"lay a new sequence with exactly {self.new_size} cards, then add cards one at a time"
        if not self.valid(n, j, True):
            return self.why_not(n, j)
        return None

    def read(self, cards: Sequence[int], ordered: bool = False) -> Reading | str:
        """The sequence ``cards`` form, or why they form none: the one test of a sequence's cards.

        Natural cards of one suit, one of each rank in unbroken order inside
        the window (:func:`sequence_ranks`: the ace is high, wild ranks and 3s
        break it), and where ``sequences.wild_in_gap`` allows it one wild card
        standing for the one rank missing between two of them. ``ordered``:
        the cards are read in the order given, as a sequence on the table keeps
        them (:func:`sequence_order`), rather than put in that order first. The
        size is :meth:`size_error`'s question, not this one's.
        """
        absent = self.absent(SEQUENCE)
        if absent is not None:
            return absent
        is_wild = self.is_wild
        if not ordered:
            cards = sequence_order(cards, is_wild)
        gaps = [i for i, c in enumerate(cards) if is_wild[KIND[c]]]
        if gaps and not self.wild_gap:
            return _SEQ_NATURALS
        if len(gaps) > 1 or (gaps and not 0 < gaps[0] < len(cards) - 1):
            return _SEQ_ONE_WILD
        if not cards or len({c & 3 for i, c in enumerate(cards) if i not in gaps}) != 1:
            return _SEQ_NATURALS
        low = cards[0] >> 2
        for i, c in enumerate(cards):
            # a wild card stands for the rank of its place
            if (i not in gaps and c >> 2 != low + i) or low + i not in self.ranks:
                return self._window_text()
        return Reading(SEQUENCE, len(cards) - len(gaps), len(gaps), cards[0] & 3)

    def size_error(self, size: int, grow: bool = False) -> str | None:
        """Why a sequence may not hold ``size`` cards, or ``None``.

        ``grow``: it grew past its closing size as its side goes out
        (``sequences.grow_when_going_out``), so only the window limits it.
        """
        top = None if grow and self.grows else self.max_size
        if size >= self.min_size and (top is None or size <= top):
            return None
        if top is None:
            return f"a sequence holds at least {self.min_size} cards"
        return f"a sequence holds {self.min_size} to {top} cards"

    def span_error(self, low: int, high: int, grow: bool = False) -> str | None:
        """Why no sequence may hold the ranks ``low`` to ``high``, or ``None``: the window of
        :meth:`read` and the closing size of :meth:`size_error` (``grow`` as there), for a
        sequence named by its ends rather than by its cards."""
        ranks = self.ranks
        if low not in ranks or high not in ranks or any(k not in ranks for k in range(low, high + 1)):
            return self._window_text()
        top = None if grow and self.grows else self.max_size
        if top is not None and high - low + 1 > top:
            # a sequence named by its ends grows (or is joined): only its closing size can stop it
            return f"a sequence holds at most {top} cards"
        return None

    def _window_text(self) -> str:
        sq = self.v.sequences
        return f"a sequence holds one card of each rank in unbroken order, from {sq.low} to {sq.high}"

    def canasta(self, size: int, j: int) -> str | None:
        """See :meth:`MeldKind.canasta`: a sequence canasta."""
        return "sequence" if size >= self.canasta_size else None

    def bonus(self, rank: int, kind: str, wild_kinds: Sequence[int] = ()) -> tuple[str, int]:
        """See :meth:`MeldKind.bonus`: ``sequences.bonus``, under the name the rules give it."""
        return self.v.sequences.name, self.v.sequences.bonus


_SEQ_NATURALS = "a sequence holds natural cards of one suit only"
_SEQ_ONE_WILD = "a sequence holds one wild card at most, between two of its natural cards"


def rank_reading(kinds: Sequence[MeldKind], card_kinds: Sequence[int]) -> Reading | str:
    """The meld of one rank (or of wild cards only) that cards of ``card_kinds`` make, or why they make none.

    ``kinds``: the variant's kinds by target (:func:`kinds_of`). The target is
    the one rank of the natural cards, ``WILD_TARGET`` (0)
    where all are wild; the kind of that target says whether the variant has
    such melds (:meth:`MeldKind.absent`). How many naturals and wild cards it
    may hold is the kind's :meth:`~MeldKind.valid`.
    """
    if RED_THREE in card_kinds:
        return "red 3s are laid on their own, never melded"
    is_wild = kinds[WILD_TARGET].is_wild
    rank = WILD_TARGET
    n = 0
    for k in card_kinds:
        if not is_wild[k]:
            if n and k != rank:
                return "a meld holds natural cards of one rank only"
            rank = k
            n += 1
    return kinds[rank].absent(rank) or Reading(rank, n, len(card_kinds) - n, -1)


def classify(kinds: Sequence[MeldKind], cards: Sequence[int]) -> Reading | str:
    """The kind of meld ``cards`` (card codes, in any order) make, or why they make none.

    ``kinds``: the variant's kinds by target (:func:`kinds_of`). Cards that
    :meth:`SequenceMeld.read` accepts are a sequence; any others a meld of
    one rank, of wild cards or of black 3s (:func:`rank_reading`). Whether the
    meld's size and its wild cards are legal is its kind's question
    (:meth:`MeldKind.valid`, :meth:`SequenceMeld.size_error`).
    """
    sequences = kinds[SEQUENCE]
    if len(cards) >= 2 and isinstance(sequences, SequenceMeld):
        got = sequences.read(cards)
        if isinstance(got, Reading):
            return got
    return rank_reading(kinds, [KIND[c] for c in cards])


@lru_cache(maxsize=64)
def kinds_of(v: Variant) -> tuple[MeldKind, ...]:
    """The kind of meld of each target (index 0 to 16: :data:`~canasta.engine.moves.SEQUENCE` last) under ``v`` (cached)."""
    rank, wild, black = RankMeld(v), WildMeld(v), BlackThreeMeld(v)
    kinds: list[MeldKind] = [rank] * 17
    for k in sorted(meanings(v).no_wild_ranks):
        if k in rank.ranks:
            kinds[k] = NaturalRankMeld(v, k)
    kinds[WILD_TARGET] = wild
    kinds[BLACK_THREE] = black
    kinds[SEQUENCE] = SequenceMeld(v)
    return tuple(kinds)


def sequence_kind(v: Variant) -> SequenceMeld:
    """The kind of sequences under ``v``: the one :func:`kinds_of` holds at target
    :data:`~canasta.engine.moves.SEQUENCE` (cached with it)."""
    kind = kinds_of(v)[SEQUENCE]
    assert isinstance(kind, SequenceMeld)
    return kind
