"""What one seat may see: :class:`SeatView`.

A view holds the seat's own hand, every meld, the discard pile (every card in
it was seen face up when discarded), the sizes of the other hands, feet and the
stock, and the scores. It holds no other hand, no foot's cards and no stock
order, so a server can send it to a client as it is.
"""

from __future__ import annotations

from canasta.engine.state import ANSWER, GameState, SeatView, Turn
from canasta.errors import CanastaError

__all__ = ["SeatView", "make_view"]

# A card that stands in for one the seat cannot see: any natural card will do,
# because the seat's legal moves never depend on hidden cards.
HIDDEN = 16  # 4C




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
    # the seed would re-deal every hidden card: the stand-in gets none (0)
    stand_in = GameState(
        s.variant, 0, s.hand_number, s.dealer, s.scores, s.history, s.phase, s.current,
        hands, feet, (HIDDEN,) * len(s.stock_), s.pile_, s.melds_, s.red_threes_, s.opened,
        s.melded_before, turn, s.end, s.rules,
        tuple((HIDDEN,) * len(p) for p in s.talons_) if s.talons_ else (), s.asked_before,
    )
    return SeatView(
        variant_name=s.variant.name, seat=seat, hand_number=s.hand_number, dealer=s.dealer,
        scores=s.scores, phase=s.phase, current=s.current, hand_codes=s.hands_[seat],
        hand_sizes=tuple(len(h) for h in s.hands_), foot_sizes=tuple(len(f) for f in s.feet_),
        stock_size=len(s.stock_), pile_codes=s.pile_, melds=s.melds_,
        red_three_codes=s.red_threes_, opened=s.opened, melded_before=s.melded_before,
        turn=turn, end=s.end, _state=stand_in, talon_sizes=tuple(len(p) for p in s.talons_),
        asked_before=s.asked_before,
    )
