"""What one seat may see: :class:`SeatView`.

A view holds the seat's own hand, every meld, the discard pile (every card in
it was seen face up when discarded), the sizes of the other hands, feet and the
stock, and the scores. It holds no other hand, no foot's cards and no stock
order, so a server can send it to a client as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from canasta.cards import build_deck
from canasta.engine.kinds import KIND
from canasta.engine.moves import RED_THREE
from canasta.engine.state import ANSWER, GameState, MeldGroup, SeatView, Turn
from canasta.errors import CanastaError
from canasta.variant.model import Variant

__all__ = ["SeatView", "make_view", "stand_in_places"]

# A card that stands in for one the seat cannot see where the decks have no
# unseen card left for the place (see stand_in_places): a natural card.
HIDDEN = 16  # 4C


@lru_cache(maxsize=32)
def _deck(decks: int, jokers_per_deck: int) -> Counter[int]:
    return Counter(int(c) for c in build_deck(decks, jokers_per_deck))


def seen_cards(hand: Iterable[int], pile: Iterable[int], red: Iterable[Iterable[int]],
               pending: Iterable[int], melds: Iterable[Iterable[MeldGroup]]) -> Counter[int]:
    """The cards a seat sees: its hand, the pile, the red 3s, the turn's pending cards and the melds."""
    have: Counter[int] = Counter()
    for group in (hand, pile, *red, pending):
        have.update(group)
    for side in melds:
        for m in side:
            have.update(m.cards)
    return have


def stand_in_places(v: Variant, seen: Counter[int], sizes: Sequence[int]) -> list[tuple[int, ...]]:
    """Cards for the hidden places of a view's stand-in state, ``sizes[i]`` cards for place ``i``.

    The cards the seat has not seen (the decks less ``seen``), in code order
    with the red 3s last: only what the seat can work out itself, and never
    more cards of a kind than the decks hold, so that the stand-in answers
    ``legal_moves()`` for any seat in a look-ahead (placeholders all of one
    kind would give another seat a hand no deal makes). The seat's own legal
    moves never depend on these cards. Places the unseen cards cannot fill
    get :data:`HIDDEN`.
    """
    unseen = _deck(v.deck.decks, v.deck.jokers_per_deck) - seen
    # red 3s last: they go to the last place (the stock), not to a hand that
    # would have to hold one
    pool = sorted(unseen.elements(), key=lambda c: (KIND[c] == RED_THREE, c))
    out: list[tuple[int, ...]] = []
    at = 0
    for n in sizes:
        got = tuple(pool[at : at + n])
        out.append(got + (HIDDEN,) * (n - len(got)))
        at += n
    return out




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
    # a stand-in state: hidden cards replaced by unseen ones (stand_in_places)
    n_hands = len(s.hands_)
    sizes = [len(h) for h in s.hands_] + [len(f) for f in s.feet_] + [len(p) for p in s.talons_]
    sizes[seat] = 0
    places = stand_in_places(
        s.variant, seen_cards(s.hands_[seat], s.pile_, s.red_threes_, turn.pending, s.melds_),
        [*sizes, len(s.stock_)],
    )
    hands = tuple(h if i == seat else places[i] for i, h in enumerate(s.hands_))
    feet = tuple(places[n_hands : n_hands + len(s.feet_)])
    talons = tuple(places[n_hands + len(s.feet_) : -1])
    # the seed would re-deal every hidden card: the stand-in gets none (0)
    stand_in = GameState(
        s.variant, 0, s.hand_number, s.dealer, s.scores, s.history, s.phase, s.current,
        hands, feet, places[-1], s.pile_, s.melds_, s.red_threes_, s.opened,
        s.melded_before, turn, s.end, s.rules, talons if s.talons_ else (), s.asked_before,
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
