"""What the engine works out about a state: the per-state context, probes, and derived facts.

:class:`Ctx` is computed once per state and shared by ``legal_moves`` and the
``apply`` that follows; :class:`Probe` is the mover's hand as the oracle asks
about it. Also here: the opening minimum, the frozen pile, when the foot may be
picked up, and :func:`rebuild`, the one way a step builds the next state.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from canasta.engine.constructors import new_state, store_ctx, store_infos
from canasta.engine.kinds import BLACK_THREE, KIND, count_kinds
from canasta.engine.melds import MeldInfo, canasta_counts, meld_info, one_change
from canasta.engine.moves import (
    SEQUENCE,
    WILD_TARGET,
    Move,
)
from canasta.engine.state import (
    GameState,
    MeldGroup,
    Turn,
)
from canasta.engine.tables import LATE_NEVER
from canasta.variant.model import Variant

if TYPE_CHECKING:
    from canasta.engine.tables import Rules


# the turn record every turn starts from (frozen, so one serves all)
NEW_TURN: Final = Turn()


def pile_frozen_for_all(s: GameState) -> bool:
    """Whether the pile holds a card that freezes it for both sides."""
    return frozen_pile(s.rules, s.pile_)


@lru_cache(maxsize=4096)
def frozen_pile(r: Rules, pile: tuple[int, ...]) -> bool:
    """Whether ``pile`` holds a card that freezes it for both sides (``Rules.freezes``)."""
    freezes = r.freezes
    return any(freezes[KIND[c]] for c in pile)


def pile_frozen(s: GameState, side: int) -> bool:
    """Whether the pile is frozen against ``side``."""
    if s.rules.frozen_unopened and not s.opened[side]:
        return True
    return pile_frozen_for_all(s)


def opening_minimum(s: GameState, side: int) -> int:
    """The opening minimum of ``side`` in this hand."""
    return _opening_minimum(s.variant, s.scores[side], s.hand_number)


@lru_cache(maxsize=1024)
def _opening_minimum(v: Variant, score: int, hand_number: int) -> int:
    return v.opening_minimum(score, hand_number)


#: What an opening must hold besides its points (``OpeningStep.canasta``), as
#: the oracle's searches take it: no canasta, any canasta, or one with no wild
#: card among natural cards (a natural, sequence or wild canasta).
OPEN_NO_CANASTA: Final = 0
OPEN_ANY_CANASTA: Final = 1
OPEN_NATURAL_CANASTA: Final = 2
_OPEN_CODES: Final = {"none": OPEN_NO_CANASTA, "any": OPEN_ANY_CANASTA, "natural": OPEN_NATURAL_CANASTA}


def opening_canasta(s: GameState, side: int) -> int:
    """What canasta the opening melds of ``side`` must hold this hand (``OPEN_*``)."""
    return _opening_canasta(s.variant, s.scores[side])


@lru_cache(maxsize=1024)
def _opening_canasta(v: Variant, score: int) -> int:
    return _OPEN_CODES[v.opening_canasta(score)]


def holds_opening_canasta(need: int, counts: tuple[int, ...]) -> bool:
    """Whether canasta ``counts`` (see :func:`canasta_counts`) hold the canasta ``need`` asks."""
    if need == OPEN_ANY_CANASTA:
        return counts[0] > 0
    if need == OPEN_NATURAL_CANASTA:
        return counts[0] > counts[2]  # a canasta that is not mixed
    return True


def opening_met(s: GameState, side: int, points: int, melds: tuple[MeldGroup, ...], took: bool) -> bool:
    """Whether melds worth ``points`` toward the opening, ``melds`` on the table, open ``side``
    (``took``: the side took the pile this turn, its first meld holding the top card)."""
    if points < opening_minimum(s, side):
        return False
    r = s.rules
    if r.clean and not any(clean_naturals(r, m, took and i == 0) >= r.clean for i, m in enumerate(melds)):
        return False
    need = opening_canasta(s, side)
    return need == OPEN_NO_CANASTA or holds_opening_canasta(need, canasta_counts(r, melds))


def clean_naturals(r: Rules, m: MeldGroup, holds_top: bool) -> int:
    """The naturals of ``m`` that count toward ``opening.natural_meld``: none (-1) once it holds a
    wild card or if it is no meld of a natural rank; the pile's top card (``holds_top``) not counted."""
    if m.wilds or m.rank >= 16 or not r.is_natural[m.rank]:
        return -1
    return m.naturals - (1 if holds_top else 0)


def opening_by_points(s: GameState, side: int) -> bool:
    """Whether the opening of ``side`` asks for points only (no canasta, no clean meld)."""
    return not s.rules.clean and opening_canasta(s, side) == OPEN_NO_CANASTA


def opening_text(s: GameState, side: int) -> str:
    """What the opening of ``side`` needs, as a refusal says it: ``"50 points"``,
    ``"a canasta"``, ``"200 points and a canasta"``."""
    minimum = opening_minimum(s, side)
    need = opening_canasta(s, side)
    parts = [f"{minimum} points"] if minimum or need == OPEN_NO_CANASTA else []
    if need != OPEN_NO_CANASTA:
        parts.append("a canasta" if need == OPEN_ANY_CANASTA else "a natural canasta (or a wild or sequence canasta)")
    clean = s.rules.clean
    if clean:
        parts.append(f"a meld of {clean} natural cards of one rank without a wild card")
    return " and ".join(parts)


def dead_ranks(s: GameState) -> int:
    """The ranks no side may meld any more (``melds.dead_when_closed``), as a bit mask by rank."""
    r = s.rules
    if not r.dead_on:
        return 0
    return _dead_ranks(r, s.melds_)


def dead_ranks_after(s: GameState, melds: tuple[MeldGroup, ...]) -> int:
    """:func:`dead_ranks` once the current side's melds are ``melds`` (a probe's, after the
    candidate move it asks about: a meld that candidate closes makes its rank dead too)."""
    r = s.rules
    if not r.dead_on:
        return 0
    return dead_ranks(s) | _dead_ranks(r, (melds,))


@lru_cache(maxsize=4096)
def _dead_ranks(r: Rules, melds: tuple[tuple[MeldGroup, ...], ...]) -> int:
    dead = 0
    for side in melds:
        for m in side:
            # a sequence (rank SEQUENCE) closes no rank: its cards are of several
            if 0 < m.rank < SEQUENCE and r.is_natural[m.rank] and r.closed(m.rank, m.size):
                dead |= 1 << m.rank
    return dead


def wild_join_error(r: Rules, opened: bool, t: Turn, melds: tuple[MeldGroup, ...], target: int, naturals: int) -> str | None:
    """Why a wild card may not join a meld of ``target`` holding ``naturals`` natural cards now
    (``melds.late_wild_naturals``, ``late_natural_ranks``, ``wild_meld_lock``), or ``None``.

    ``opened`` and ``t``: whether the side has opened, and the turn; a side that
    opened this turn has laid points toward its opening (``t.points``), one that
    opened before has not.
    """
    label = r.meld_kinds[target].label(target)
    if r.late_on and opened and not t.points and target != WILD_TARGET:
        need = r.late_naturals[target]
        if need >= LATE_NEVER:
            return f"{label} take no wild card after the turn your side opened"
        if naturals < need:
            return (
                f"after the turn your side opened, a wild card joins a meld only once it holds "
                f"{need} natural cards; the meld of {label} has {naturals}"
            )
    if r.wild_lock and target != WILD_TARGET and wild_meld_locks(r, melds):
        return "your side's meld of wild cards must be a canasta before wild cards go in any other meld"
    return None


def natural_opening_error(s: GameState, c: Ctx, oi: int) -> str | None:
    """Why a wild card may not join the side's meld ``oi`` in its opening turn, or ``None``.

    An opening that asks a natural canasta (``OpeningStep.canasta: natural``) is held to
    the end of the turn: a wild card may not turn the side's last natural canasta mixed
    (a wild or sequence canasta counts as natural).
    """
    r = c.r
    if not (r.open_natural and c.opened and c.turn.points):
        return None
    need = opening_canasta(s, c.side)
    if need != OPEN_NATURAL_CANASTA:
        return None
    m = c.melds[oi]
    if r.kind_of(m.rank, m.size, m.wilds) != "natural":
        return None
    total, natural, mixed, wild, seq = canasta_counts(r, c.melds)
    # the meld turns mixed: a natural canasta fewer, a mixed one more
    if holds_opening_canasta(need, (total, natural - 1, mixed + 1, wild, seq)):
        return None
    return (
        "your side's opening needs a natural canasta at the end of this turn: a wild card may not "
        "turn its last one mixed"
    )


def wild_meld_locks(r: Rules, melds: tuple[MeldGroup, ...]) -> bool:
    """Whether ``melds.wild_meld_lock`` keeps the side's wild cards for its meld of wild
    cards: the side has one that is not a canasta (closed or not: one closed short of a
    canasta keeps them for good). The steps and the turn oracle both ask this."""
    return any(m.rank == WILD_TARGET and m.size < r.canasta_size for m in melds)


def dead_error(s: GameState, rank: int) -> str | None:
    """Why ``rank`` may not be melded any more (a dead rank), or ``None``."""
    if s.rules.dead_on and dead_ranks(s) >> rank & 1:
        label = s.rules.meld_kinds[rank].label(rank)
        return f"{label} are dead: a meld of them has been closed, and no side may meld them any more"
    return None


def closed_short(r: Rules, melds: tuple[MeldGroup, ...], mask: int) -> bool:
    """Whether a meld of the side that ``mask`` (bits by meld target, as ``Rules.out_complete``)
    asks to be a canasta before going out is closed short of one: it can never be one, so
    the side cannot go out (see :func:`incomplete_blocking`). A meld of black 3s is laid whole
    and never grows: it is closed at any size."""
    for m in melds:
        if (
            mask >> m.rank & 1
            and (m.rank == BLACK_THREE or r.closed(m.rank, m.size))
            and r.kind_of(m.rank, m.size, m.wilds) is None
        ):
            return True
    return False


def incomplete_blocking(r: Rules, melds: tuple[MeldGroup, ...]) -> MeldGroup | None:
    """A meld of the side that ``going_out.complete_ranks`` / ``complete_wild_meld`` ask to be
    a canasta before going out, and that is not one yet; ``None`` if there is none.

    A meld that took wild cards where that makes it an ordinary meld
    (:meth:`~canasta.engine.meld_kinds.MeldKind.singled_out`) is not asked to be one.
    """
    mask = r.out_complete
    if mask:
        for m in melds:
            if (
                mask >> m.rank & 1
                and r.kind_of(m.rank, m.size, m.wilds) is None
                and not (m.wilds and r.mixed_ordinary[m.rank])
            ):
                return m
    return None


def foot_available(s: GameState, seat: int, hand_len: int, melds: tuple[MeldGroup, ...]) -> bool:
    if not s.feet_[seat]:
        return False
    r = s.rules
    if r.foot_on_empty:
        return hand_len == 0
    return canasta_counts(r, melds)[0] > 0


def may_discard_last(s: GameState, seat: int) -> bool:
    """Whether ``seat`` may discard its last card without going out: ``going_out.out_but_not_out``,
    or walking to a foot still down (``foot.walk``)."""
    return s.rules.out_not_out or (s.rules.foot_walk and bool(s.feet_[seat]))


def must_walk(s: GameState) -> bool:
    """Whether the player to move walked to their foot: an empty hand and the foot down at the draw (``foot.walk``)."""
    p = s.current
    return s.rules.foot_walk and not s.hands_[p] and bool(s.feet_[p])


def partner_foot_down(s: GameState) -> bool:
    """Whether ``going_out.partner_foot`` bars the player to move from going out: a partner's foot is still down."""
    if not s.rules.partner_foot:
        return False
    r = s.rules
    p = s.current
    return any(s.feet_[x] for x in r.sides[r.side_of[p]] if x != p)


def asking_required(s: GameState) -> bool:
    """Whether the player to move must ask the partner and hear yes before going out (``going_out.ask_required``)."""
    r = s.rules
    return r.ask_required and r.partner[s.current] >= 0


def no_context() -> None:
    return None


class Ctx:
    """What every step asks of a state, worked out once per state.

    ``legal_moves`` asks about a dozen candidate moves of the same state, and
    ``apply`` usually follows on that state: each of them reads the mover's
    seat, side, hand counts and melds from here instead of working them out
    again. Held in the state's ``_ctx`` slot (see :func:`context_of`) until a move is
    applied to the state.
    """

    __slots__ = ("counts", "hand", "info", "legal", "melds", "opened", "p", "r", "side", "turn", "v")

    def __init__(self, s: GameState) -> None:
        r = s.rules
        self.r = r
        self.v = r.v
        p = s.current
        self.p = p
        side = r.side_of[p]
        self.side = side
        hand = s.hands_[p]
        self.hand = hand
        melds = s.melds_[side]
        self.melds = melds
        if not r.fast.carried_counts:
            # nothing carried from the state before (canasta.engine.fastpaths)
            self.counts = count_kinds(hand)
        else:
            # the counts the step that built the state worked out (a meld or an
            # add), where it left this very hand (see GameState._counts)
            carried = s._counts
            self.counts = carried[1] if carried[0] is hand else count_kinds(hand)
        # side_info's hit, read inline (a call is a hundredth of a cheap listing):
        # most states share their side's melds with the state before, which
        # carried their facts here
        infos = s._infos
        info: MeldInfo | None = infos[side] if infos else None
        self.info = info if info is not None and info.melds is melds else side_info(s, side)
        self.opened = s.opened[side]
        self.turn = s.turn
        self.legal: tuple[Move, ...] | None = None

    def __reduce__(self) -> tuple[Callable[[], None], tuple[()]]:
        # a cache: a pickled state is rebuilt without it
        return no_context, ()


def side_info(s: GameState, side: int) -> MeldInfo:
    """The facts of ``side``'s melds in ``s`` (:class:`~canasta.engine.melds.MeldInfo`).

    Those the state carries (``GameState._infos``, handed on by ``apply``) where
    they are of its very melds; else grown from the carried ones (a step grew or
    added one meld) or worked out, and carried from here on. With the
    ``carried_info`` fast path off, worked out afresh each time.
    """
    r = s.rules
    melds = s.melds_[side]
    infos = s._infos
    known: MeldInfo | None = infos[side] if infos else None
    if known is not None and known.melds is melds:
        return known
    if not r.fast.carried_info:
        return meld_info(r, melds)
    info = meld_info(r, melds) if known is None else meld_info(r, melds, known, one_change(known.melds, melds))
    store_infos(s, with_item(infos if infos else (None,) * len(s.melds_), side, info))
    return info


def carry_infos(s: GameState, after: GameState) -> None:
    """Hand the meld facts ``s`` carries (its ``Ctx``'s among them: :func:`side_info` stores
    what it works out) on to ``after``, the state a move made of it. A side whose melds
    the move left alone keeps its facts; the mover's side, where the move grew or laid a
    meld, gets them grown here, once, for every state and view that follows. Nothing is
    carried where the ``carried_info`` fast path is off (:func:`side_info` stores nothing)."""
    infos = s._infos
    if not infos or after is s:
        return
    c: Ctx | None = s._ctx
    if c is not None:
        side = c.side
        melds = after.melds_[side]
        info: MeldInfo | None = infos[side]
        if info is not None and info.melds is not melds:
            infos = with_item(infos, side, meld_info(s.rules, melds, info, one_change(info.melds, melds)))
    store_infos(after, infos)


def context_of(s: GameState) -> Ctx:
    """The state's :class:`Ctx`, made on first use."""
    c: Ctx | None = s._ctx
    if c is None:
        c = Ctx(s)
        store_ctx(s, c)
    return c


class Probe:
    """The parts of a turn that a step changes, to ask the oracle before building a state."""

    __slots__ = ("asked", "counts", "hand", "melds", "opened", "pending", "points", "took")

    def __init__(
        self,
        hand: tuple[int, ...],
        melds: tuple[MeldGroup, ...],
        opened: bool,
        points: int,
        pending: tuple[int, ...],
        asked: int,
        took: bool,
        counts: tuple[int, ...] | None = None,
    ) -> None:
        self.hand = hand
        # the hand's counts by kind, when the caller has them already
        self.counts = count_kinds(hand) if counts is None else counts
        self.melds = melds
        self.opened = opened
        self.points = points
        self.pending = pending
        self.asked = asked
        self.took = took


def probe(s: GameState) -> Probe:
    c = context_of(s)
    t = c.turn
    return Probe(c.hand, c.melds, c.opened, t.points, t.pending, t.asked, t.took_pile, c.counts)


def rebuild(
    s: GameState,
    *,
    phase: int | None = None,
    current: int | None = None,
    hands: tuple[tuple[int, ...], ...] | None = None,
    feet: tuple[tuple[int, ...], ...] | None = None,
    stock: tuple[int, ...] | None = None,
    pile: tuple[int, ...] | None = None,
    melds: tuple[tuple[MeldGroup, ...], ...] | None = None,
    red: tuple[tuple[int, ...], ...] | None = None,
    opened: tuple[bool, ...] | None = None,
    melded_before: tuple[bool, ...] | None = None,
    turn: Turn | None = None,
    talons: tuple[tuple[int, ...], ...] | None = None,
    asked_before: tuple[bool, ...] | None = None,
) -> GameState:
    return new_state(
        s.variant, s.seed, s.hand_number, s.dealer, s.scores, s.history,
        s.phase if phase is None else phase,
        s.current if current is None else current,
        s.hands_ if hands is None else hands,
        s.feet_ if feet is None else feet,
        s.stock_ if stock is None else stock,
        s.pile_ if pile is None else pile,
        s.melds_ if melds is None else melds,
        s.red_threes_ if red is None else red,
        s.opened if opened is None else opened,
        s.melded_before if melded_before is None else melded_before,
        s.turn if turn is None else turn,
        s.end, s.rules,
        s.talons_ if talons is None else talons,
        s.asked_before if asked_before is None else asked_before,
    )


def with_item(t: tuple, i: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*t[:i], value, *t[i + 1:])


