"""What one seat may see: :class:`SeatView`.

A view holds the seat's own hand, every meld, the discard pile (every card in
it was seen face up when discarded), the sizes of the other hands, feet and the
stock, and the scores. It holds no other hand, no foot's cards and no stock
order, so a server can send it to a client as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from canasta.cards import Card
from canasta.engine.facts import rebuild
from canasta.engine.moves import Move
from canasta.engine.state import ANSWER, GameState, HandEnd, MeldGroup, Turn
from canasta.errors import CanastaError, IllegalMoveError
from canasta.variant.model import Variant

__all__ = ["SeatView", "make_view"]

# A card that stands in for one the seat cannot see: any natural card will do,
# because the seat's legal moves never depend on hidden cards.
HIDDEN = 16  # 4C


@attrs.frozen(slots=True, repr=False)
class SeatView:
    """One seat's view of a :class:`~canasta.engine.state.GameState`.

    Attributes:
        seat: the seat this view is for.
        hand: the seat's own hand, sorted.
        hand_sizes: how many cards each seat holds.
        foot_sizes: how many cards each seat's foot holds (0 once picked up).
        stock_size: cards left in the stock.
        pile: the discard pile, top card last.
        melds: each side's melds.
        red_threes: red 3s each side has laid.
        opened: whether each side has made its opening meld.
        scores: each side's cumulative score before this hand.
        current: the seat to move.
        phase: the phase number (see :mod:`canasta.engine.state`).
        turn: the current turn so far (cards drawn and pile cards held aside
            are shown only to the seat whose turn it is).
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
    _state: GameState = attrs.field(eq=False, hash=False, repr=False, alias="_state")

    def __repr__(self) -> str:
        # What the seat sees, cards as text (the fields hold card codes).
        def cards(codes: Sequence[int]) -> str:
            return repr(" ".join(str(Card(c)) for c in codes))

        try:
            melds = repr(tuple(list(side) for side in self.melds))  # each <MeldGroup K: KH KS 2C>
            return (
                f"<SeatView {self.variant_name} seat={self.seat} hand={self.hand_number} "
                f"to_move={self.current} phase={self._state.phase_name} cards={cards(self.hand_codes)} "
                f"stock={self.stock_size} pile={cards(self.pile_codes)} melds={melds}>"
            )
        except Exception:  # a hand-built view with codes that are no cards
            return f"<SeatView {self.variant_name!r} seat={self.seat!r}>"

    @property
    def variant(self) -> Variant:
        """The rules of the game."""
        return self._state.variant

    @property
    def pile_frozen(self) -> bool:
        """Whether the pile is frozen for both sides (it holds a freezing card)."""
        return self._state.pile_frozen

    def pile_frozen_for(self, side: int) -> bool:
        """Whether the pile is frozen against ``side``."""
        return self._state.pile_frozen_for(side)

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
        """Red 3s laid by each side."""
        return tuple(tuple(Card(c) for c in r) for r in self.red_three_codes)

    def legal_moves(self) -> Sequence[Move]:
        """The seat's legal moves: the same as the full state's on this seat's turn, else none."""
        if self.current != self.seat:
            return []
        return self._state.legal_moves()

    def apply(self, move: Move | str) -> GameState:
        """Apply ``move`` to the stand-in state (hidden cards replaced by placeholders).

        Useful to look ahead; the real game must apply the move to the real state.
        A view moves only for its own seat.

        Raises:
            IllegalMoveError: it is not this seat's turn, or the move is not legal.
        """
        if self.current != self.seat:
            raise IllegalMoveError(
                str(move), f"it is seat {self.current}'s turn; this is the view of seat {self.seat}"
            )
        return self._state.apply(move)


def make_view(s: GameState, seat: int) -> SeatView:
    """Build the view of ``seat`` from the full state ``s``.

    Raises:
        CanastaError: ``seat`` is not a seat of the game.
    """
    n = s.rules.n
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise CanastaError(f"seat must be 0 to {n - 1}, got {seat!r}")
    t = s.turn
    # while the partner answers "may I go out?", the turn is still the asker's
    own_turn = seat == (t.asker if s.phase == ANSWER else s.current)
    turn = t if own_turn else Turn(t.took_pile, t.melded, t.points, (), t.asked, t.asker, (), t.played,
                                   (), t.backs)
    # a stand-in state: hidden cards replaced by placeholders
    hands = tuple(h if i == seat else (HIDDEN,) * len(h) for i, h in enumerate(s.hands_))
    feet = tuple((HIDDEN,) * len(f) for f in s.feet_)
    # the seed would re-deal every hidden card: the stand-in gets none
    stand_in = attrs.evolve(
        rebuild(s, hands=hands, feet=feet, stock=(HIDDEN,) * len(s.stock_), turn=turn),
        seed=0,
    )
    return SeatView(
        variant_name=s.variant.name, seat=seat, hand_number=s.hand_number, dealer=s.dealer,
        scores=s.scores, phase=s.phase, current=s.current, hand_codes=s.hands_[seat],
        hand_sizes=tuple(len(h) for h in s.hands_), foot_sizes=tuple(len(f) for f in s.feet_),
        stock_size=len(s.stock_), pile_codes=s.pile_, melds=s.melds_,
        red_three_codes=s.red_threes_, opened=s.opened, melded_before=s.melded_before,
        turn=turn, end=s.end, _state=stand_in,
    )
