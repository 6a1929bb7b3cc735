"""A 3 kept in hand (``threes.keep_one``, Modern American's Straight).

Where 3s are laid out as soon as they reach a hand, a player whose side has
not melded keeps the first such 3 that reaches their hand from the stock
while they hold none (dealt, drawn, or drawn to replace another 3), so that a
special hand that needs a 3 can be formed. The player lays it out, replacing
it from the stock, with :class:`~canasta.engine.moves.LayThree` (``lay 3R``,
``lay 3``) in the draw or the play phase of one of their turns.

What keeping it costs: while the player holds it they may not take the pile,
meld, ask their partner or go out (the 3 is never melded or discarded, and the
special hand it is kept for is laid before the side melds), and once their side
has melded, laying it is the first thing they do in their turn. So a kept 3 is
never in a hand that melds: the oracle's searches, which plan melds, never see
one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.engine.constructors import new_turn
from canasta.engine.facts import may_discard_last, rebuild, with_item
from canasta.engine.hand_end import end_hand
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.moves import (
    RED_THREE,
    Add,
    AddToSequence,
    Ask,
    Discard,
    Foot,
    LayThree,
    Meld,
    MeldSequence,
    Move,
    TakeBack,
    TakePile,
    TakeSequence,
    TakeTopCard,
    kind_name,
)
from canasta.engine.state import DRAW, PLAY, GameState

if TYPE_CHECKING:
    from canasta.engine.facts import Ctx
    from canasta.engine.tables import Rules

__all__ = ["held_three", "kept_bar", "lay_three_moves", "lay_three_step", "lay_threes"]


def lay_threes(
    r: Rules, cards: list[int], stock: list[int], laid: list[int], keep: bool = False
) -> tuple[list[int], bool]:
    """Lay out every 3 among ``cards`` that is laid at once, replacing each from ``stock``.

    With ``keep``, the first such 3 stays among the cards instead (the caller
    decides whether the player may keep one). Returns the cards that stay, and
    whether a 3 was laid with the stock empty (not replaced).
    """
    out = []
    todo = list(cards)
    at_once = r.laid_at_once
    unreplaced = False
    while todo:
        c = todo.pop()
        if at_once[KIND[c]]:
            if keep:
                keep = False
                out.append(c)
                continue
            laid.append(c)
            if stock:
                todo.append(stock.pop())
            else:
                unreplaced = True
        else:
            out.append(c)
    return out, unreplaced


def held_three(r: Rules, hand: tuple[int, ...] | list[int]) -> int:
    """The kind of the 3 ``hand`` keeps (``threes.keep_one``), or 0 when it keeps none."""
    at_once = r.laid_at_once
    for c in hand:
        k = KIND[c]
        if at_once[k]:
            return k
    return 0


def may_keep(r: Rules, s: GameState, seat: int, hand: tuple[int, ...] | list[int]) -> bool:
    """Whether a 3 reaching ``seat``'s ``hand`` from the stock now stays there (``threes.keep_one``)."""
    return r.keep_three and not s.opened[r.side_of[seat]] and not held_three(r, hand)


def kept_bar(s: GameState, m: Move) -> str | None:
    """Why ``m`` is refused because the player to move keeps a 3, or ``None``.

    Called for every move where ``threes.keep_one`` is on, before its step.
    """
    phase = s.phase
    if (phase != DRAW and phase != PLAY) or isinstance(m, LayThree):
        return None
    r = s.rules
    k = held_three(r, s.hands_[s.current])
    if not k:
        return None
    lay = f"'lay {kind_name(k)}'"
    if s.opened[r.side_of[s.current]]:
        return f"your side has melded: lay out the 3 you kept ({lay}) before anything else"
    if isinstance(m, Discard):
        if r.laid_at_once[m.kind] if 0 <= m.kind < 16 else False:
            return f"a 3 is never discarded: lay it out ({lay})"
        if m.out:
            return f"you keep a 3 in hand: lay it out ({lay}) before going out"
        return None
    if isinstance(m, (TakePile, TakeSequence, TakeTopCard)):
        return f"you keep a 3 in hand: lay it out ({lay}) before taking the pile"
    if isinstance(m, (Meld, Add, MeldSequence, AddToSequence, TakeBack)):
        return f"you keep a 3 in hand: lay it out ({lay}) before melding"
    if isinstance(m, Ask):
        return f"you keep a 3 in hand: lay it out ({lay}) before asking to go out"
    if isinstance(m, Foot):
        return f"you keep a 3 in hand: lay it out ({lay}) before picking up your foot"
    return None


def lay_three_moves(s: GameState) -> list[LayThree]:
    """The ``lay`` move of the player to move, where they keep a 3 (at most one)."""
    r = s.rules
    if not r.keep_three or (s.phase != DRAW and s.phase != PLAY):
        return []
    k = held_three(r, s.hands_[s.current])
    return [LayThree(k)] if k else []


def lay_three_step(s: GameState, c: Ctx, m: LayThree, build: bool) -> GameState | str | None:
    """Lay out the kept 3 ``m.kind`` and replace it from the stock."""
    r = c.r
    k = m.kind
    if not r.keep_three:
        return "no 3 is ever kept in hand in this variant (threes.keep_one is off): there is none to lay"
    if k not in (RED_THREE, BLACK_THREE) or not r.laid_at_once[k]:
        return "only a 3 kept in hand is laid out: 'lay 3R' (red) or 'lay 3' (black)"
    if not c.counts[k]:
        return f"you hold no {kind_name(k)} to lay out"
    if not build:
        return None
    p = c.p
    hand = list(c.hand)
    at = 0
    while KIND[hand[at]] != k:  # the hand holds one: checked above
        at += 1
    three = hand.pop(at)
    stock = list(s.stock_)
    laid = [*s.red_threes_[c.side], three]
    if stock:
        got, unreplaced = lay_threes(r, [stock.pop()], stock, laid, may_keep(r, s, p, hand))
    else:
        got, unreplaced = [], True
    new_hand = tuple(sorted(hand + got))
    t = c.turn
    turn = t
    if s.phase == PLAY:
        drawn = list(t.drawn)
        if three in drawn:
            drawn.remove(three)
        turn = new_turn(t.took_pile, t.melded, t.points, t.pending, t.asked, t.asker,
                        (*drawn, *got), t.played, t.laid, t.backs)
    s2 = rebuild(
        s, hands=with_item(s.hands_, p, new_hand),
        stock=tuple(stock), red=with_item(s.red_threes_, c.side, tuple(laid)),
        turn=turn,
    )
    if unreplaced and not plays_on(s2, p, s.phase):
        # the stock ran out on a 3 that cannot be replaced: as when the last
        # card drawn is a red 3 (threes.red_last_card), the hand ends
        return end_hand(s2, "stock", -1, False, False)
    return s2


def plays_on(s: GameState, p: int, phase: int) -> bool:
    """Whether play goes on after a 3 laid with the stock empty (``threes.red_last_card``): in the
    draw phase, or with a card to discard that keeps the turn legal."""
    if not s.rules.red_last_plays_on:
        return False
    if phase == DRAW:
        return True  # the stock is empty: the player takes the pile or passes
    n = len(s.hands_[p])
    return n >= 2 or (n == 1 and may_discard_last(s, p))
