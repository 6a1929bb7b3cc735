"""What one seat may see: :class:`SeatView`.

A view holds the seat's own hand, every meld, the discard pile (every card in
it was seen face up when discarded), the sizes of the other hands, feet and the
stock, and the scores. It holds no other hand, no foot's cards and no stock
order, so a server can send it to a client as it is.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import chain, repeat
from typing import Final

from canasta.cards import build_deck, parse_card
from canasta.engine.constructors import new_state, new_turn, new_view, store_infos, store_view_infos
from canasta.engine.facts import Ctx, side_info
from canasta.engine.kinds import count_kinds
from canasta.engine.melds import MeldInfo
from canasta.engine.state import ANSWER, GameState, SeatView
from canasta.errors import CanastaError

__all__ = ["SeatView", "make_view", "seat_facts", "side_facts", "stand_in", "stand_in_cards"]

# A card that stands in for one the seat cannot see where the decks have no
# unseen card left for the place (see stand_in_cards): a natural card.
HIDDEN = 16  # 4C


#: The codes of the red 3s, 3D and 3H: adjacent, so they sort together.
_RED_CODES: Final = (int(parse_card("3D")), int(parse_card("3H")))


@lru_cache(maxsize=32)
def deck_counts(decks: int, jokers_per_deck: int) -> Counter[int]:
    """How many of each card code the decks hold (kept: do not change it)."""
    return Counter(int(c) for c in build_deck(decks, jokers_per_deck))


def stand_in_cards(
    seat: int, unseen: Iterable[int], hand: tuple[int, ...], hand_sizes: Sequence[int],
    foot_sizes: Sequence[int], talon_sizes: Sequence[int], stock_size: int,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The hands, feet, talons and stock of a view's stand-in state: ``hand`` for
    ``seat``, and for every hidden place as many of the ``unseen`` cards.

    ``unseen`` are the cards the seat has not seen (the decks less its hand, the
    pile, the red 3s, the melds and the pending cards it is shown), in any order.
    They are dealt in code order with the red 3s last (they go to the stock, not
    to a hand that would have to hold one): nothing the seat could not work out,
    and never more cards of a kind than the decks hold, so that the stand-in
    answers ``legal_moves()`` for any seat in a look-ahead. The seat's own legal
    moves never depend on these cards. A place the unseen cards cannot fill gets
    :data:`HIDDEN`. :func:`make_view` and a view read from JSON build the same.
    """
    pool = sorted(unseen)
    # the red 3s (two adjacent codes) moved last: a plain sort and two cuts cost a
    # quarter of a sort by key (a bot builds a view at every move)
    lo, hi = bisect_left(pool, _RED_CODES[0]), bisect_right(pool, _RED_CODES[-1])
    pool = pool[:lo] + pool[hi:] + pool[lo:hi]
    at = 0

    def take(n: int) -> tuple[int, ...]:
        nonlocal at
        got = tuple(pool[at : at + n])
        at += n
        return got + (HIDDEN,) * (n - len(got))

    hands = tuple(hand if i == seat else take(n) for i, n in enumerate(hand_sizes))
    feet = tuple(take(n) for n in foot_sizes)
    talons = tuple(take(n) for n in talon_sizes)
    return hands, feet, talons, take(stock_size)


def make_view(s: GameState, seat: object) -> SeatView:
    """Build the view of ``seat`` from the full state ``s``.

    The view holds the state's own fields (the seat's hand, the pile, the
    melds) and the sizes of the hidden places; its stand-in states are built
    from these when it is first asked for moves (:func:`stand_in`), so that a
    view nobody looks ahead in costs a few field references.

    Raises:
        CanastaError: ``seat`` is not a seat of the game.
    """
    r = s.rules
    # seat: object, checked here (compiled, an int parameter would refuse a wrong
    # type with a bare TypeError before this could name the seats)
    if not isinstance(seat, int) or not 0 <= seat < r.n:
        raise CanastaError(f"seat must be 0 to {r.n - 1}, got {seat!r}")
    t = s.turn
    # while the partner answers "may I go out?", the turn is still the asker's
    if seat != (t.asker if s.phase == ANSWER else s.current):
        # the cards drawn, the pile cards held aside and the take-backs are the mover's
        t = new_turn(t.took_pile, t.melded, t.points, (), t.asked, t.asker, (), t.played, (), t.backs)
    view = new_view(
        s.variant.name, seat, s.hand_number, s.dealer, s.scores, s.phase, s.current, s.hands_[seat],
        tuple(map(len, s.hands_)), tuple(map(len, s.feet_)), len(s.stock_), s.pile_, s.melds_,
        s.red_threes_, s.opened, s.melded_before, t, s.end, r, s.history,
        tuple(map(len, s.talons_)), s.asked_before, None,
    )
    infos = s._infos
    if infos:
        # the states built from the view show the same melds: their facts go with it
        store_view_infos(view, infos)
    return view


def stand_in(view: SeatView, full: bool) -> GameState:
    """A state built from what ``view`` holds, where the view's own seat moves as in the game.

    ``full``: the stand-in a look-ahead starts from (``view.apply``), its hidden
    places holding the unseen cards (:func:`stand_in_cards`), as a view read
    from JSON has it. Otherwise the cheaper state that lists the seat's own
    moves: its hidden places hold :data:`HIDDEN` (more of one card, perhaps,
    than the decks have), which the seat's own moves never depend on; nothing
    moves on from it.
    """
    seat = view.seat
    hand = view.hand_codes
    turn = view.turn
    r = view._rules
    if full:
        seen = Counter(chain(hand, view.pile_codes, *view.red_three_codes, turn.pending,
                             *(m.cards for side in view.melds for m in side)))
        deck = deck_counts(r.meanings.decks, r.meanings.jokers_per_deck)
        # (not deck - seen: a Counter's subtraction costs twice this)
        unseen = chain.from_iterable(repeat(c, n - seen[c]) for c, n in deck.items())
        hands, feet, talons, stock = stand_in_cards(
            seat, unseen, hand, view.hand_sizes, view.foot_sizes, view.talon_sizes, view.stock_size,
        )
    else:
        # (lists turned into tuples: a generator costs more per item, interpreted)
        hands = tuple([hand if i == seat else (HIDDEN,) * n for i, n in enumerate(view.hand_sizes)])
        feet = tuple([(HIDDEN,) * n for n in view.foot_sizes])
        talons = tuple([(HIDDEN,) * n for n in view.talon_sizes])
        stock = (HIDDEN,) * view.stock_size
    # the seed would re-deal every hidden card: the stand-in gets none (0)
    st = new_state(
        r.v, 0, view.hand_number, view.dealer, view.scores, view._history, view.phase, view.current,
        hands, feet, stock, view.pile_codes, view.melds, view.red_three_codes, view.opened,
        view.melded_before, turn, view.end, r, talons, view.asked_before,
    )
    # (a slot, not a field: absent from a view made by SeatView(...))
    infos: tuple[MeldInfo | None, ...] = getattr(view, "_infos", ())
    if infos:
        store_infos(st, infos)
    return st


def seat_facts(view: SeatView) -> tuple[tuple[int, ...], MeldInfo]:
    """The seat's hand counted by kind and the facts of its side's melds
    (:class:`~canasta.engine.melds.MeldInfo`: its open melds by rank, among
    others), as the listing of the seat's moves worked them out: a bot that
    has listed its moves reads them here instead of scanning its hand again.
    Worked out here where no listing of this seat's turn has run.
    """
    s = view._moves_state
    c: Ctx | None = s._ctx
    if c is not None and c.p == view.seat:
        return c.counts, c.info
    r = view._rules
    return count_kinds(view.hand_codes), side_info(s, r.side_of[view.seat])


def side_facts(view: SeatView, side: int) -> MeldInfo:
    """The facts of ``side``'s melds as ``view`` shows them (:class:`~canasta.engine.melds.MeldInfo`),
    worked out once for the view (kept with the state that lists its moves)."""
    return side_info(view._moves_state, side)
