"""The engine's fast constructors of its frozen values, and stores into a state's private slots.

The engine builds a GameState, and often a Turn and a MeldGroup, on every
move. A frozen attrs class refuses attribute stores, so the ``__init__``
attrs writes stores each field through ``object.__setattr__``, one call per
field: about 3 µs for a GameState, a tenth of a random move's time. The
constructors here store the fields into an instance of a twin class instead:
the same slots (declared once, in the plain base class both share, see
:mod:`canasta.engine.state`), no ``__setattr__`` of its own, so each store is a
plain slot store. Then they give the instance its real class: CPython allows
that between classes of the same layout, and checks it on each assignment. The
twin has no other use; the instance is a frozen value of the real class from
then on, equal in every way to one the class builds
(``tests/test_plain_builder.py``). The engine's moves build with these;
anything else may call the classes.

Each takes every field ``cls(...)`` takes, positionally, in the class's order,
and sets the fields ``__init__`` does not take to their defaults, and the hash
cache of ``cache_hash=True`` to None, as ``__init__`` does. A class that gains
a field must gain it here too: :func:`check_builder` refuses a constructor
that does not fill every field, at import.

This module stays Python in the compiled build (``hatch_build.py``): only a
Python class may be given to an instance this way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import attrs

from canasta.engine.state import (
    NO_COUNTS,
    GameState,
    GameStateSlots,
    HandCounts,
    HandEnd,
    Laid,
    LaidSlots,
    MeldGroup,
    MeldGroupSlots,
    SeatView,
    SeatViewSlots,
    Turn,
    TurnSlots,
)

if TYPE_CHECKING:
    from canasta.engine.tables import Rules
    from canasta.variant.model import Variant

__all__ = [
    "check_builder", "new_laid", "new_meld_group", "new_state", "new_turn", "new_view",
    "store_counts", "store_ctx", "store_infos", "store_view_infos",
]

_new: Final = object.__new__


class _MeldGroupFill(MeldGroupSlots):
    __slots__ = ("_attrs_cached_hash",)


class _LaidFill(LaidSlots):
    __slots__ = ()


class _TurnFill(TurnSlots):
    __slots__ = ()


class _GameStateFill(GameStateSlots):
    __slots__ = ("_attrs_cached_hash",)


class _SeatViewFill(SeatViewSlots):
    __slots__ = ()


def new_meld_group(rank: int, cards: tuple[int, ...], naturals: int, wilds: int, suit: int) -> MeldGroup:
    """``MeldGroup(rank, cards, naturals, wilds, suit)``, faster (see the module docstring)."""
    o: Any = _new(_MeldGroupFill)
    o.rank = rank
    o.cards = cards
    o.naturals = naturals
    o.wilds = wilds
    o.suit = suit
    o._attrs_cached_hash = None
    o.__class__ = MeldGroup
    return o  # type: ignore[no-any-return]


def new_laid(index: int, new: bool, cards: tuple[int, ...], points: int, opened: bool,
             pending: tuple[int, ...]) -> Laid:
    """``Laid(index, new, cards, points, opened, pending)``, faster (see the module docstring)."""
    o: Any = _new(_LaidFill)
    o.index = index
    o.new = new
    o.cards = cards
    o.points = points
    o.opened = opened
    o.pending = pending
    o.__class__ = Laid
    return o  # type: ignore[no-any-return]


def new_turn(
    took_pile: bool, melded: bool, points: int, pending: tuple[int, ...], asked: int, asker: int,
    drawn: tuple[int, ...], played: tuple[int, ...], laid: tuple[Laid, ...], backs: int,
) -> Turn:
    """``Turn(...)`` with every field, faster (see the module docstring)."""
    o: Any = _new(_TurnFill)
    o.took_pile = took_pile
    o.melded = melded
    o.points = points
    o.pending = pending
    o.asked = asked
    o.asker = asker
    o.drawn = drawn
    o.played = played
    o.laid = laid
    o.backs = backs
    o.__class__ = Turn
    return o  # type: ignore[no-any-return]


def new_state(
    variant: Variant, seed: int, hand_number: int, dealer: int, scores: tuple[int, ...],
    history: tuple[tuple[int, ...], ...], phase: int, current: int,
    hands_: tuple[tuple[int, ...], ...], feet_: tuple[tuple[int, ...], ...], stock_: tuple[int, ...],
    pile_: tuple[int, ...], melds_: tuple[tuple[MeldGroup, ...], ...], red_threes_: tuple[tuple[int, ...], ...],
    opened: tuple[bool, ...], melded_before: tuple[bool, ...], turn: Turn, end: HandEnd | None,
    rules: Rules, talons_: tuple[tuple[int, ...], ...], asked_before: tuple[bool, ...],
    counts: HandCounts = NO_COUNTS,
) -> GameState:
    """``GameState(...)`` with every field, faster (see the module docstring); ``counts``: the hand counts the
    state carries (``GameState._counts``), none by default as ``GameState(...)`` gives it."""
    o: Any = _new(_GameStateFill)
    o.variant = variant
    o.seed = seed
    o.hand_number = hand_number
    o.dealer = dealer
    o.scores = scores
    o.history = history
    o.phase = phase
    o.current = current
    o.hands_ = hands_
    o.feet_ = feet_
    o.stock_ = stock_
    o.pile_ = pile_
    o.melds_ = melds_
    o.red_threes_ = red_threes_
    o.opened = opened
    o.melded_before = melded_before
    o.turn = turn
    o.end = end
    o.rules = rules
    o.talons_ = talons_
    o.asked_before = asked_before
    o._ctx = None
    o._counts = counts
    o._infos = ()
    o._attrs_cached_hash = None
    o.__class__ = GameState
    return o  # type: ignore[no-any-return]


def new_view(
    variant_name: str, seat: int, hand_number: int, dealer: int, scores: tuple[int, ...], phase: int,
    current: int, hand_codes: tuple[int, ...], hand_sizes: tuple[int, ...], foot_sizes: tuple[int, ...],
    stock_size: int, pile_codes: tuple[int, ...], melds: tuple[tuple[MeldGroup, ...], ...],
    red_three_codes: tuple[tuple[int, ...], ...], opened: tuple[bool, ...], melded_before: tuple[bool, ...],
    turn: Turn, end: HandEnd | None, rules: Rules, history: tuple[tuple[int, ...], ...],
    talon_sizes: tuple[int, ...], asked_before: tuple[bool, ...], stand_in: GameState | None,
) -> SeatView:
    """``SeatView(...)`` with every field, faster (see the module docstring)."""
    o: Any = _new(_SeatViewFill)
    o.variant_name = variant_name
    o.seat = seat
    o.hand_number = hand_number
    o.dealer = dealer
    o.scores = scores
    o.phase = phase
    o.current = current
    o.hand_codes = hand_codes
    o.hand_sizes = hand_sizes
    o.foot_sizes = foot_sizes
    o.stock_size = stock_size
    o.pile_codes = pile_codes
    o.melds = melds
    o.red_three_codes = red_three_codes
    o.opened = opened
    o.melded_before = melded_before
    o.turn = turn
    o.end = end
    o._rules = rules
    o._history = history
    o.talon_sizes = talon_sizes
    o.asked_before = asked_before
    o._stand_in = stand_in
    o._moves = None
    o.__class__ = SeatView
    return o  # type: ignore[no-any-return]


#: Stores into a state's private slots (``_ctx``, ``_counts``, ``_infos``), where the engine
#: keeps what it worked out about the state: the slots' own descriptors, which
#: ``object.__setattr__`` would look up by name first (it costs twice as much,
#: and ``store_ctx`` runs on every move).
store_ctx: Final[Callable[[GameState, Any], None]] = GameStateSlots.__dict__["_ctx"].__set__
store_counts: Final[Callable[[GameState, HandCounts], None]] = (
    GameStateSlots.__dict__["_counts"].__set__
)
store_infos: Final[Callable[[GameState, tuple[Any, ...]], None]] = GameStateSlots.__dict__["_infos"].__set__
store_view_infos: Final[Callable[[SeatView, tuple[Any, ...]], None]] = SeatViewSlots.__dict__["_infos"].__set__


def check_builder(cls: type[Any], build: Callable[..., Any]) -> None:
    """Check that ``build`` makes what ``cls(...)`` makes, from the same positional arguments.

    ``build`` is given a distinct object for each field ``__init__`` takes, and
    must return a ``cls`` holding each in its field, every other field at its
    default. Run at import on the constructors here, so that a field added to
    a class and not to its constructor fails there rather than on a move.

    Raises:
        TypeError: ``cls`` has a field a plain store cannot fill as ``__init__``
            would (a validator, a converter, a default factory, an
            ``__attrs_post_init__``), ``build`` takes other fields or fills
            them otherwise, or its twin's layout differs from ``cls``'s.
    """
    fields = attrs.fields(cls)
    for a in fields:
        if a.validator is not None or a.converter is not None or isinstance(a.default, attrs.Factory):  # type: ignore[arg-type]
            raise TypeError(f"check_builder: {cls.__name__}.{a.name} needs its __init__")
    if getattr(cls, "__attrs_post_init__", None) is not None:
        raise TypeError(f"check_builder: {cls.__name__} has __attrs_post_init__")
    given = [object() for a in fields if a.init]
    built = build(*given)  # TypeError here: it takes another number of fields, or another layout
    if type(built) is not cls:
        raise TypeError(f"check_builder: {build.__name__} makes a {type(built).__name__}, not a {cls.__name__}")
    values = iter(given)
    for a in fields:
        want = next(values) if a.init else a.default
        if getattr(built, a.name) is not want:
            raise TypeError(f"check_builder: {build.__name__} does not fill {cls.__name__}.{a.name} as __init__ does")


for _cls, _build in ((MeldGroup, new_meld_group), (Laid, new_laid), (Turn, new_turn), (GameState, new_state),
                     (SeatView, new_view)):
    check_builder(_cls, _build)
