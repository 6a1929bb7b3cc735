"""Game state: a frozen, hashable value. Applying a move returns a new state.

Cards are kept as small ints (see :mod:`canasta.cards`); hands, feet, the stock
and the pile are tuples (hands sorted, stock and pile with the top card last).
The public properties turn them into :class:`~canasta.cards.Card` values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, cast

import attrs

from canasta.cards import RANK_NAMES, Card
from canasta.engine.moves import parse_move
from canasta.engine.scoring import ScoreBreakdown
from canasta.errors import IllegalMoveError

if TYPE_CHECKING:
    from canasta.engine.moves import Move
    from canasta.engine.tables import Rules
    from canasta.variant.model import Variant

__all__ = [
    "ANSWER", "DRAW", "GAME_OVER", "HAND_OVER", "PLAY",
    "Engine", "GameState", "HandEnd", "Laid", "MeldGroup", "SeatView", "Turn",
]

#: Phases of a turn. (Final: the compiled engine reads them as constants, not globals.)
DRAW: Final = 0
PLAY: Final = 1
ANSWER: Final = 2
HAND_OVER: Final = 3
GAME_OVER: Final = 4
PHASE_NAMES = ("draw", "play", "answer", "hand over", "game over")

#: Answer states of a turn: not asked, asked and told yes, asked and told no.
NOT_ASKED: Final = 0
TOLD_YES: Final = 1
TOLD_NO: Final = 2

#: A hand and its counts by kind (index = kind, see :mod:`canasta.engine.kinds`).
HandCounts = tuple[tuple[int, ...], tuple[int, ...]]

#: The :class:`HandCounts` of a state that carries none (``GameState._counts``): its
#: hand is no seat's (a card code is never negative), so no hand is ever this tuple.
NO_COUNTS: Final[HandCounts] = ((-1,), ())


# The slots of the values the engine builds on every move (and of the view a bot
# is shown at every move), declared in a plain base class so that the constructors
# of canasta.engine.constructors can fill them by plain stores (see there; a field
# missing here fails at import).
class MeldGroupSlots:
    """The slots of :class:`MeldGroup`, in a plain base that :mod:`canasta.engine.constructors` fills."""

    __slots__ = ("__weakref__", "cards", "naturals", "rank", "suit", "wilds")


class LaidSlots:
    """The slots of :class:`Laid`, in a plain base that :mod:`canasta.engine.constructors` fills."""

    __slots__ = ("__weakref__", "cards", "index", "new", "opened", "pending", "points")


class TurnSlots:
    """The slots of :class:`Turn`, in a plain base that :mod:`canasta.engine.constructors` fills."""

    __slots__ = (
        "__weakref__",
        "asked",
        "asker",
        "backs",
        "drawn",
        "laid",
        "melded",
        "pending",
        "played",
        "points",
        "took_pile",
    )


class SeatViewSlots:
    """The slots of :class:`SeatView`, in a plain base that :mod:`canasta.engine.constructors` fills.

    ``_infos`` is a slot here and no field of the view: the facts of each side's
    melds that the state the view shows carried (``GameState._infos``), handed on
    to the states built from the view (which show the same melds). Being no field,
    it is in no ``attrs.asdict``, comparison, copy or pickle of a view; a view made
    by ``SeatView(...)`` lacks it (read with a default).
    """

    __slots__ = (
        "__weakref__",
        "_history",
        "_infos",
        "_moves",
        "_rules",
        "_stand_in",
        "asked_before",
        "current",
        "dealer",
        "end",
        "foot_sizes",
        "hand_codes",
        "hand_number",
        "hand_sizes",
        "melded_before",
        "melds",
        "opened",
        "phase",
        "pile_codes",
        "red_three_codes",
        "scores",
        "seat",
        "stock_size",
        "talon_sizes",
        "turn",
        "variant_name",
    )


class GameStateSlots:
    """The slots of :class:`GameState`, in a plain base that :mod:`canasta.engine.constructors` fills."""

    __slots__ = (
        "__weakref__",
        "_counts",
        "_ctx",
        "_infos",
        "asked_before",
        "current",
        "dealer",
        "end",
        "feet_",
        "hand_number",
        "hands_",
        "history",
        "melded_before",
        "melds_",
        "opened",
        "phase",
        "pile_",
        "red_threes_",
        "rules",
        "scores",
        "seed",
        "stock_",
        "talons_",
        "turn",
        "variant",
    )


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class MeldGroup(MeldGroupSlots):
    """One meld on the table.

    Attributes:
        rank: the rank of its natural cards; 0 for a wild meld, 3 for black 3s,
            16 (:data:`~canasta.engine.moves.SEQUENCE`) for a sequence.
        cards: its cards, sorted.
        naturals: how many of them are natural cards.
        wilds: how many are wild cards.
        suit: a sequence's suit (0 to 3, ``CDHS``); -1 for every other meld.
    """

    rank: int
    cards: tuple[int, ...]
    naturals: int
    wilds: int
    suit: int = -1

    @property
    def size(self) -> int:
        """Number of cards in the meld."""
        return len(self.cards)

    @property
    def is_sequence(self) -> bool:
        """Whether the meld is a sequence (cards of one suit in rank order)."""
        return self.suit >= 0

    @property
    def low(self) -> int:
        """A sequence's lowest rank (its cards are sorted, and of one suit)."""
        return self.cards[0] >> 2

    @property
    def high(self) -> int:
        """A sequence's highest rank."""
        return self.cards[-1] >> 2

    def card_list(self) -> tuple[Card, ...]:
        """The meld's cards as :class:`Card` values."""
        return tuple(Card(c) for c in self.cards)

    def __repr__(self) -> str:
        # The cards as text, as a player reads the table: <MeldGroup K: KH KS 2C>.
        try:
            if self.suit >= 0:
                return f"<MeldGroup sequence: {' '.join(str(card) for card in self.card_list())}>"
            name = "wild" if self.rank == 0 else RANK_NAMES[self.rank]
            # naturals first, then the wild cards, as a player lays them out
            ordered = sorted(self.card_list(), key=lambda card: self.rank != 0 and card.rank != self.rank)
            cards = " ".join(str(card) for card in ordered)
        except Exception:  # a hand-built group with codes that are no cards
            return (f"MeldGroup(rank={self.rank!r}, cards={self.cards!r}, "
                    f"naturals={self.naturals!r}, wilds={self.wilds!r})")
        return f"<MeldGroup {name}: {cards}>"


@attrs.frozen(slots=True)
class Laid(LaidSlots):
    """One meld or add laid from the hand this turn, as a take-back restores it (``melds.rearrange``).

    Attributes:
        index: the meld's index among the side's melds.
        new: whether the step started that meld.
        cards: the cards laid, in the order they were played.
        points: the turn's opening points before the step.
        opened: whether the side had opened before the step.
        pending: pile cards held aside before the step (a step that opens the
            side puts them in the hand; a take-back holds them aside again).
    """

    index: int
    new: bool
    cards: tuple[int, ...]
    points: int
    opened: bool
    pending: tuple[int, ...] = ()


@attrs.frozen(slots=True)
class Turn(TurnSlots):
    """What has happened so far in the current turn.

    Attributes:
        took_pile: the player took the discard pile.
        melded: the player laid cards on the table.
        points: points laid toward the side's opening minimum (while unopened).
        pending: pile cards held aside until the opening minimum is met.
        asked: whether the partner was asked, and the answer.
        asker: the seat that asked.
        drawn: cards drawn from the stock (hidden from other seats).
        played: cards moved from hand (or the pile's top) to the table, in order.
        laid: the melds and adds laid from the hand this turn that may still be
            taken back, oldest first (only where ``melds.rearrange`` is on).
        backs: take-backs made this turn.
    """

    took_pile: bool = False
    melded: bool = False
    points: int = 0
    pending: tuple[int, ...] = ()
    asked: int = NOT_ASKED
    asker: int = -1
    drawn: tuple[int, ...] = ()
    played: tuple[int, ...] = ()
    laid: tuple[Laid, ...] = ()
    backs: int = 0


@attrs.frozen(slots=True)
class HandEnd:
    """How a hand ended.

    Attributes:
        reason: ``"out"`` (a player went out), ``"stock"`` (the stock ran out)
            or ``"special"`` (a player laid a special hand, ``special.hands``).
        seat: the seat that went out or laid the special hand, or -1.
        concealed: whether the player went out concealed.
        black_three_out: whether it was a black-3 out.
        breakdowns: each side's itemized score for the hand.
        special: the name of the special hand laid (reason ``"special"``), else empty.
    """

    reason: str
    seat: int = -1
    concealed: bool = False
    black_three_out: bool = False
    breakdowns: tuple[ScoreBreakdown, ...] = ()
    special: str = ""

    @property
    def hand_scores(self) -> tuple[int, ...]:
        """Each side's total for the hand."""
        return tuple(b.total for b in self.breakdowns)


class Engine:
    """The engine's entry points, as a state and its tables reach them.

    :class:`GameState` sits below the modules that decide legality (they
    build states), so its methods cannot import them; the one instance of this
    table, :data:`canasta.engine.game.ENGINE`, is handed to every
    :class:`~canasta.engine.tables.Rules` that
    :func:`~canasta.engine.game.compile_rules` builds, and a state calls
    through ``state.rules.engine``. Imports point one way.
    """

    def __init__(
        self,
        legal_moves: Callable[[GameState], list[Move]],
        check: Callable[[GameState, Move], str | None],
        apply: Callable[[GameState, Move | str], GameState],
        pile_frozen: Callable[[GameState, int], bool],
        pile_frozen_for_all: Callable[[GameState], bool],
        view: Callable[[GameState, int], SeatView],
        compile_rules: Callable[[Variant], Rules],
        stand_in: Callable[[SeatView, bool], GameState],
    ) -> None:
        self.legal_moves = legal_moves
        self.check = check
        self.apply = apply
        self.pile_frozen = pile_frozen
        self.pile_frozen_for_all = pile_frozen_for_all
        self.view = view
        self.compile_rules = compile_rules
        #: a view's stand-in state, built from what the view holds (see SeatView)
        self.stand_in = stand_in


@attrs.frozen(slots=True, cache_hash=True, repr=False)
class GameState(GameStateSlots):
    """A position in a game. Build one with :func:`canasta.new_game`.

    States are immutable: :meth:`apply` returns a new state. Two states are
    equal when every card is in the same place and the same player is to move.
    """

    variant: Variant
    seed: int
    hand_number: int
    dealer: int
    scores: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    phase: int
    current: int
    hands_: tuple[tuple[int, ...], ...]
    feet_: tuple[tuple[int, ...], ...]
    stock_: tuple[int, ...]
    pile_: tuple[int, ...]
    melds_: tuple[tuple[MeldGroup, ...], ...]
    red_threes_: tuple[tuple[int, ...], ...]
    opened: tuple[bool, ...]
    melded_before: tuple[bool, ...]
    turn: Turn
    end: HandEnd | None
    rules: Rules = attrs.field(eq=False, hash=False)
    # The talons still set aside face down (opening.talons_set_aside), one pile per
    # entry of opening.talons in the order the sides open; a given or forfeited pile
    # is empty. Always () where talons are drawn from the stock or not used.
    talons_: tuple[tuple[int, ...], ...]
    # Which seats have asked their partner this hand (going_out.ask_once: one
    # question a hand); all False where asking is once a turn.
    asked_before: tuple[bool, ...]
    # What the engine works out about this state once and reuses (see
    # canasta.engine.facts.Ctx): a pure function of the fields above, so it takes no part in
    # equality, hashing, repr or pickling.
    _ctx: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)
    # The hand of the player to move and its counts by kind, where the step that
    # built this state worked them out from the counts before (a meld or an add:
    # the same player moves next), for the state's Ctx (canasta.engine.facts);
    # NO_COUNTS otherwise. Trusted only for the very hand tuple it holds. Worked
    # out from the fields above, so it takes no part in equality, hashing or repr.
    _counts: HandCounts = attrs.field(default=NO_COUNTS, init=False, eq=False, hash=False, repr=False)
    # The facts of each side's melds (canasta.engine.melds.MeldInfo, by side) that
    # the engine worked out for this state or the one before it, carried from state
    # to state by apply (canasta.engine.facts.side_info); () where none was. An entry
    # is trusted only for the very melds tuple it holds, else grown from it. Worked
    # out from the fields above, so it takes no part in equality, hashing or repr.
    _infos: tuple[Any, ...] = attrs.field(default=(), init=False, eq=False, hash=False, repr=False)

    # -- who and when ---------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat (0-based, clockwise) that must move now."""
        return self.current

    @property
    def phase_name(self) -> str:
        """``"draw"``, ``"play"``, ``"answer"``, ``"hand over"`` or ``"game over"``."""
        return PHASE_NAMES[self.phase]

    @property
    def is_hand_over(self) -> bool:
        """Whether the current hand has ended."""
        return self.phase >= HAND_OVER

    @property
    def is_game_over(self) -> bool:
        """Whether the whole game has ended."""
        return self.phase == GAME_OVER

    @property
    def winners(self) -> tuple[int, ...]:
        """When the game is over, the sides with the highest score (two or more: a draw).

        A special hand that wins the game (``special.hands[].wins_game``) ends it
        with its side the only winner, even when another side's total is higher.
        """
        if self.phase != GAME_OVER:
            return ()
        e = self.end
        if e is not None and e.special and any(
            h.name == e.special and h.wins_game for h in self.rules.special
        ):
            return (self.rules.side_of[e.seat],)
        best = max(self.scores)
        return tuple(i for i, x in enumerate(self.scores) if x == best)

    @property
    def standings(self) -> tuple[tuple[int, int], ...]:
        """``(side, cumulative score)`` pairs, highest score first."""
        return tuple(sorted(enumerate(self.scores), key=lambda p: (-p[1], p[0])))

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side."""
        return self.rules.sides

    def side_of(self, seat: int) -> int:
        """The side that ``seat`` plays for."""
        return self.rules.side_of[seat]

    # -- the table ------------------------------------------------------------

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's hand, sorted."""
        return tuple(tuple(Card(c) for c in h) for h in self.hands_)

    @property
    def feet(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's foot (empty once picked up, or in a variant without feet)."""
        return tuple(tuple(Card(c) for c in f) for f in self.feet_)

    @property
    def melds(self) -> tuple[tuple[MeldGroup, ...], ...]:
        """Each side's melds on the table."""
        return self.melds_

    @property
    def red_threes(self) -> tuple[tuple[Card, ...], ...]:
        """Red 3s each side has laid (and black 3s, where ``threes.black_laid_at_once`` lays them out too)."""
        return tuple(tuple(Card(c) for c in r) for r in self.red_threes_)

    @property
    def talons(self) -> tuple[tuple[Card, ...], ...]:
        """The talons still set aside face down, one per entry of ``opening.talons``
        (a given or forfeited one is empty); empty where talons are drawn from the stock."""
        return tuple(tuple(Card(c) for c in p) for p in self.talons_)

    @property
    def pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first (the top card is last)."""
        return tuple(Card(c) for c in self.pile_)

    @property
    def pile_top(self) -> Card | None:
        """The top card of the discard pile, or ``None`` when it is empty."""
        return Card(self.pile_[-1]) if self.pile_ else None

    @property
    def pile_size(self) -> int:
        """Number of cards in the discard pile."""
        return len(self.pile_)

    @property
    def stock_size(self) -> int:
        """Number of cards left in the stock."""
        return len(self.stock_)

    @property
    def pile_frozen(self) -> bool:
        """Whether the pile is frozen for both sides (it holds a freezing card)."""
        return cast(Engine, self.rules.engine).pile_frozen_for_all(self)

    def pile_frozen_for(self, side: int) -> bool:
        """Whether the pile is frozen against ``side``."""
        return cast(Engine, self.rules.engine).pile_frozen(self, side)

    def canasta_kind(self, meld: MeldGroup) -> str | None:
        """``"natural"``, ``"mixed"``, ``"wild"``, or ``None`` if ``meld`` is no canasta."""
        return self.rules.canasta_kind(meld)

    # -- moves ----------------------------------------------------------------

    def legal_moves(self) -> Sequence[Move]:
        """Every distinct legal move of :attr:`current_player`, each listed once."""
        # an annotation, not cast(): this runs once a move, and cast is a call
        engine: Engine = self.rules.engine  # type: ignore[assignment]
        return engine.legal_moves(self)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal now."""
        return cast(Engine, self.rules.engine).check(self, move) is None

    def apply(self, move: Move | str) -> GameState:
        """Return the state after ``move`` (a :class:`Move` or its notation).

        Raises:
            IllegalMoveError: the move is not legal now; ``.reason`` names the rule.
            NotationError: ``move`` is text that is not a move.
        """
        engine: Engine = self.rules.engine  # type: ignore[assignment]
        return engine.apply(self, move)

    def parse_move(self, text: str) -> Move:
        """Parse move notation; see :mod:`canasta.engine.moves`.

        Where the variant has sequences, cards that a sequence may hold keep
        their suit (``discard 9H`` discards the 9 of hearts); elsewhere a card
        stands for its rank.

        Raises:
            NotationError: ``text`` is not a move.
        """
        return parse_move(text, self.rules.suited_ranks)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see; see :class:`canasta.SeatView`."""
        return cast(Engine, self.rules.engine).view(self, seat)

    def __repr__(self) -> str:
        return (
            f"<GameState {self.variant.name} hand={self.hand_number} seat={self.current} "
            f"phase={self.phase_name} stock={len(self.stock_)} pile={len(self.pile_)}>"
        )


@attrs.frozen(slots=True, repr=False)
class SeatView(SeatViewSlots):
    """One seat's view of a :class:`~canasta.engine.state.GameState`.

    Attributes:
        seat: the seat this view is for.
        hand: the seat's own hand, sorted.
        hand_sizes: how many cards each seat holds.
        foot_sizes: how many cards each seat's foot holds (0 once picked up).
        stock_size: cards left in the stock.
        pile: the discard pile, top card last.
        melds: each side's melds.
        red_threes: red 3s each side has laid (and black 3s, where
            ``threes.black_laid_at_once`` lays them out too).
        opened: whether each side has made its opening meld.
        scores: each side's cumulative score before this hand.
        current: the seat to move.
        phase: the phase number (see :mod:`canasta.engine.state`).
        turn: the current turn so far (cards drawn and pile cards held aside
            are shown only to the seat whose turn it is).
        talon_sizes: how many cards each talon set aside face down still holds
            (``opening.talons_set_aside``; empty otherwise). Their cards are
            hidden from every seat.
        asked_before: which seats have asked their partner this hand
            (``going_out.ask_once``; all False otherwise). Asking is public.
    """

    variant_name: str
    seat: int
    hand_number: int
    dealer: int
    scores: tuple[int, ...]
    phase: int
    current: int
    hand_codes: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    foot_sizes: tuple[int, ...]
    stock_size: int
    pile_codes: tuple[int, ...]
    melds: tuple[tuple[MeldGroup, ...], ...]
    red_three_codes: tuple[tuple[int, ...], ...]
    opened: tuple[bool, ...]
    melded_before: tuple[bool, ...]
    turn: Turn
    end: HandEnd | None
    # What the stand-in states are built from, beside the fields above: the
    # game's tables and its history (both public). No hidden card is held.
    _rules: Rules = attrs.field(eq=False, hash=False, repr=False, alias="_rules")
    _history: tuple[tuple[int, ...], ...] = attrs.field(eq=False, hash=False, repr=False, alias="_history")
    talon_sizes: tuple[int, ...] = ()
    asked_before: tuple[bool, ...] = ()
    # The stand-in state (hidden cards replaced by unseen ones, see
    # canasta.engine.view.stand_in_cards), given or built on first use: a view
    # that nobody looks ahead in never pays for it. `_state` reads it.
    _stand_in: GameState | None = attrs.field(default=None, eq=False, hash=False, repr=False, alias="_stand_in")
    # The state that lists this seat's moves when no stand-in is built yet: its
    # hidden places hold placeholder cards, which the seat's own moves never
    # depend on, so it costs no sorting of the unseen cards.
    _moves: GameState | None = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)

    def __repr__(self) -> str:
        # What the seat sees, cards as text (the fields hold card codes).
        def cards(codes: Sequence[int]) -> str:
            return repr(" ".join(str(Card(c)) for c in codes))

        try:
            melds = repr(tuple(list(side) for side in self.melds))  # each <MeldGroup K: KH KS 2C>
            return (
                f"<SeatView {self.variant_name} seat={self.seat} hand={self.hand_number} "
                f"to_move={self.current} phase={PHASE_NAMES[self.phase]} cards={cards(self.hand_codes)} "
                f"stock={self.stock_size} pile={cards(self.pile_codes)} melds={melds}>"
            )
        except Exception:  # a hand-built view with codes that are no cards
            return f"<SeatView {self.variant_name!r} seat={self.seat!r}>"

    @property
    def variant(self) -> Variant:
        """The rules of the game."""
        return self._rules.v

    @property
    def rules(self) -> Rules:
        """The game's compiled rule tables (:class:`~canasta.engine.tables.Rules`), as the state has them."""
        return self._rules

    @property
    def _state(self) -> GameState:
        # the stand-in state, built once, on first use (a look-ahead's start)
        s = self._stand_in
        if s is None:
            s = cast(Engine, self._rules.engine).stand_in(self, True)
            object.__setattr__(self, "_stand_in", s)
        return s

    @property
    def _moves_state(self) -> GameState:
        # a state that answers this seat's moves, the pile's freezing and the
        # like: the stand-in where it is built, else the cheaper placeholder one
        s = self._stand_in
        if s is None:
            s = self._moves
            if s is None:
                s = cast(Engine, self._rules.engine).stand_in(self, False)
                object.__setattr__(self, "_moves", s)
        return s

    @property
    def pile_frozen(self) -> bool:
        """Whether the pile is frozen for both sides (it holds a freezing card)."""
        return self._moves_state.pile_frozen

    def pile_frozen_for(self, side: int) -> bool:
        """Whether the pile is frozen against ``side``."""
        return self._moves_state.pile_frozen_for(side)

    @property
    def hand(self) -> tuple[Card, ...]:
        """The seat's own hand."""
        return tuple(Card(c) for c in self.hand_codes)

    @property
    def pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first."""
        return tuple(Card(c) for c in self.pile_codes)

    @property
    def pile_top(self) -> Card | None:
        """The top card of the pile, or ``None``."""
        return Card(self.pile_codes[-1]) if self.pile_codes else None

    @property
    def red_threes(self) -> tuple[tuple[Card, ...], ...]:
        """Red 3s laid by each side (and black 3s, where ``threes.black_laid_at_once`` lays them out too)."""
        return tuple(tuple(Card(c) for c in r) for r in self.red_three_codes)

    def legal_moves(self) -> Sequence[Move]:
        """The seat's legal moves: the same as the full state's on this seat's turn, else none."""
        if self.current != self.seat:
            return []
        return self._moves_state.legal_moves()

    def apply(self, move: Move | str) -> GameState:
        """Apply ``move`` to the stand-in state (hidden cards replaced by unseen ones).

        Useful to look ahead; the real game must apply the move to the real state.
        A view moves only for its own seat. Past this seat's turn the stand-in
        plays the other seats' stand-in cards, not theirs: a look-ahead there
        is a guess, and may reach a position the real game cannot (a partner
        told "yes" who cannot go out with the stand-in cards, say).

        Raises:
            IllegalMoveError: it is not this seat's turn, or the move is not legal.
        """
        if self.current != self.seat:
            raise IllegalMoveError(
                str(move), f"it is seat {self.current}'s turn; this is the view of seat {self.seat}"
            )
        return self._state.apply(move)
