"""The draw phase: drawing from the stock, passing a draw, the ways of taking the pile worth
asking about (:func:`take_candidates`), and the phase's fast listing (:func:`draw_moves`).

Each way of taking the pile decides its own refusals in :mod:`canasta.engine.taking`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final

from canasta.engine.constructors import new_state, new_turn
from canasta.engine.facts import (
    context_of,
    frozen_pile,
    may_discard_last,
    rebuild,
    side_info,
    with_item,
)
from canasta.engine.hand_end import end_hand
from canasta.engine.kinds import KIND, suit_choices
from canasta.engine.melds import MeldInfo
from canasta.engine.moves import (
    Draw,
    Move,
    TakePile,
    TakeSequence,
    TakeTopCard,
)
from canasta.engine.state import NOT_ASKED, PLAY, GameState, Turn
from canasta.engine.taking import (
    blocked_by_meld,
    finish_error,
    finish_start,
    keeps_two,
    meld_error,
    take_sequence_step,
    take_step,
    way_cards,
)
from canasta.engine.threes import may_keep

if TYPE_CHECKING:
    from canasta.engine.facts import Ctx
    from canasta.engine.tables import Rules


#: The turn record after a draw of these cards (frozen, so one serves every
#: state that drew them): a draw is a third of all moves.
_DRAW_TURNS: Final[dict[tuple[int, ...], Turn]] = {}


def draw_step(s: GameState, build: bool) -> GameState | str | None:
    r = s.rules
    if not s.stock_:
        return "the stock is empty: take the pile or pass"
    if not build:
        return None
    p = s.current
    stock_ = s.stock_
    n = r.draw_count
    if len(stock_) >= n and r.fast.draw_apply:
        # the common case, without lists: the top n cards, none of them a 3 to lay
        drawn_t = stock_[-n:][::-1]  # top card first, as if drawn one by one
        laid = r.laid_at_once
        for card in drawn_t:  # a loop: a generator under any() is a function call
            if laid[KIND[card]]:
                break
        else:
            turn = _DRAW_TURNS.get(drawn_t)
            if turn is None:
                if len(_DRAW_TURNS) >= 65536:
                    _DRAW_TURNS.clear()
                turn = _DRAW_TURNS[drawn_t] = new_turn(False, False, 0, (), NOT_ASKED, -1, drawn_t, (), (), 0)
            hand = s.hands_[p]
            drawn_hand = tuple(sorted(hand + drawn_t))
            return new_state(
                s.variant, s.seed, s.hand_number, s.dealer, s.scores, s.history, PLAY, p,
                with_item(s.hands_, p, drawn_hand), s.feet_, stock_[:-n],
                s.pile_, s.melds_, s.red_threes_, s.opened, s.melded_before,
                turn, s.end, r, s.talons_, s.asked_before,
            )
    stock = list(stock_)
    side = r.side_of[p]
    red = list(s.red_threes_[side])
    drawn: list[int] = []
    unreplaced = False
    # threes.keep_one: the first 3 that reaches the hand may stay in it
    keep = may_keep(r, s, p, s.hands_[p])
    for _ in range(min(n, len(stock))):
        if not stock:
            break
        c = stock.pop()
        while r.laid_at_once[KIND[c]]:
            if keep:
                keep = False
                break
            red.append(c)
            if not stock:
                unreplaced = True
                c = -1
                break
            c = stock.pop()
        if c >= 0:
            drawn.append(c)
    hand = tuple(sorted(s.hands_[p] + tuple(drawn)))
    s2 = rebuild(
        s, phase=PLAY, hands=with_item(s.hands_, p, hand), stock=tuple(stock),
        red=with_item(s.red_threes_, side, tuple(red)), turn=Turn(drawn=tuple(drawn)),
    )
    if unreplaced and not _plays_on(r, len(hand), may_discard_last(s, p)):
        # A red 3 drawn as the last card of the stock is laid but cannot be
        # replaced: the player may not meld or discard, and the hand ends
        # (Pagat's classic rule; threes.red_last_card).
        return end_hand(s2, "stock", -1, False, False)
    return s2


def _plays_on(r: Rules, hand_size: int, last_ok: bool) -> bool:
    """Whether a player whose last stock card was a red 3 plays on (``threes.red_last_card``).

    Only with a card to discard that keeps the turn legal: two or more, or one
    where a player may discard the last card without going out. Otherwise
    nothing can end the turn, and the hand ends as under the classic rule.
    """
    if not r.red_last_plays_on:
        return False
    return hand_size >= 2 or (hand_size == 1 and last_ok)


def pass_step(s: GameState, build: bool) -> GameState | str | None:
    if s.stock_:
        return "the stock is not empty: draw"
    mn = s.rules.meanings
    c = context_of(s)
    if mn.empty_stock_must_lay_off and (
        take_step(s, c, TakePile("layoff"), False) is None
        or any(
            take_sequence_step(s, c, way, False) is None
            for way in take_candidates(s, c) if isinstance(way, TakeSequence)
        )
    ):
        return "the stock is empty and you can take the pile by laying its top card off: you must take it"
    if mn.empty_stock_must_take:
        for way in take_candidates(s, c):
            if isinstance(way, TakeTopCard):
                continue  # one card of the pile, not the pile: never a must
            step = take_step(s, c, way, False) if isinstance(way, TakePile) else take_sequence_step(s, c, way, False)
            if step is None:
                return f"the stock is empty and you can take the pile ('{way}'): you must take it"
    if not build:
        return None
    return end_hand(s, "stock", -1, False, False)


_TAKES: Final = (TakePile("pair"), TakePile("layoff"), TakePile("finish"))

#: The draw from the stock, as :func:`draw_moves` lists it.
DRAW_MOVE: Final = Draw()


def draw_moves(s: GameState) -> list[Move] | None:
    """The legal moves of the draw-phase position ``s`` where the stock is not empty, decided
    without the state's :class:`~canasta.engine.facts.Ctx`, or ``None`` where
    ``legal_moves`` must ask each candidate's step (``legal_moves`` asks this first: a
    third of all listings are of the draw phase).

    The draw is always legal here. No way of taking is a candidate when the pile is
    empty or its top card is a stop card or no natural card, or, outside
    sequences, when none of the variant's ways has what it needs: a pair, two
    cards of the top card's rank in hand; a natural with a wild card, one of
    them and that wild card; the other ways, the side's open meld of the rank
    (the tests :func:`take_candidates` makes). Where some way is a candidate for
    an opened side (in the variants without dead ranks, suits, several melds of
    a rank, or wild cards barred from a meld), each is decided by the decisions
    :func:`take_step` makes (:func:`finish_error`, :func:`way_cards`,
    :func:`meld_error`, :func:`keeps_two`), in :func:`take_candidates`' order,
    except where the hand would keep fewer than two cards or a blocked pile
    could be taken by finishing the meld: those, and everything else, return
    ``None``. ``tests/test_quick_moves.py`` compares this with the candidate loop.
    """
    pile = s.pile_
    if not pile:
        return [DRAW_MOVE]
    r = s.rules
    k = KIND[pile[-1]]
    if r.stop[k] or not r.is_natural[k]:
        return [DRAW_MOVE]
    if r.seq_on or k < 4:
        return None
    # a natural rank's cards are the codes 4k to 4k+3
    low = 4 * k
    high = low + 4
    hand = s.hands_[s.current]
    held = 0
    for code in hand:
        if low <= code < high:
            held += 1
    side = r.side_of[s.current]
    info = side_info(s, side)
    oi = info.index.get(k, -1)
    if not held and oi < 0:
        return [DRAW_MOVE]
    # take_step's decisions need a Ctx where the side has not opened, or where a rule
    # reads more than the counts below (dead ranks, suits, several melds of a rank)
    decided = s.opened[side] and not (r.dup_any or r.rank_bars or r.suited[k])
    return _listed_takes(s, r, k, hand, held, info, oi, decided)


def _listed_takes(
    s: GameState, r: Rules, k: int, hand: tuple[int, ...], held: int, info: MeldInfo, oi: int,
    decided: bool,
) -> list[Move] | None:
    """:func:`draw_moves`' listing, way by way, of a pile whose top card is of the natural rank
    ``k``: ``held`` cards of it in ``hand``, the side's meld facts ``info``, its open meld
    of the rank ``oi`` (-1: none); ``decided``: whether :func:`take_step`'s decisions here
    read nothing but these (else a candidate way returns ``None``)."""
    pile = s.pile_
    melds = info.melds
    blocked = blocked_by_meld(r, melds, oi)
    frozen: bool | None = None  # asked once, where a way reads it
    out: list[Move] = [DRAW_MOVE]
    for way in _take_ways(r):
        w = way.way
        wild = way.wild
        held_wild = 0
        # take_candidates' own tests, way by way: the cards or the meld the way needs
        if w == "pair":
            if held < 2:
                continue
        elif w == "wild":
            if not held:
                continue
            for code in hand:
                if KIND[code] == wild:
                    held_wild += 1
            if not held_wild:
                continue
        elif oi < 0:
            continue
        if not decided:
            return None
        if w == "finish":
            if finish_error(r, k, melds, oi, blocked, held) is None:
                return None  # take_step asks whether the turn can be finished
            continue
        if blocked:
            continue  # the side's meld of the rank is too long for the pile to be taken on it
        if frozen is None and w != "pair":
            # an opened side: only the pile's cards freeze it (not asked for a pair, which
            # takes a frozen pile too: way_cards reads it only to say a pair is missing)
            frozen = frozen_pile(r, pile)
        kinds = way_cards(r, w, k, wild, held, held_wild, frozen is True, True, melds, oi)
        if isinstance(kinds, str) or meld_error(r, k, melds, oi, info.present, kinds) is not None:
            continue
        if len(hand) - len(kinds) < 2 and not keeps_two(s, r, len(hand) - len(kinds)):
            return None  # take_step asks whether the turn can be finished
        out.append(way)
    return out


def take_candidates(s: GameState, c: Ctx | None = None) -> list[TakePile | TakeSequence | TakeTopCard]:
    """Ways of taking the pile worth asking :func:`take_step` about (a superset of the legal ones).

    Ways whose cards are plainly missing (no pair of the top card's rank in
    hand, no meld to lay it off on) are left out: :func:`take_step` refuses them
    first thing, and most draw-phase states have them.
    """
    if c is None:
        c = context_of(s)
    r = c.r
    if not s.pile_:
        return []
    k = KIND[s.pile_[-1]]
    if r.stop[k] or not r.is_natural[k]:
        return []
    counts = c.counts
    has_meld = k in c.info.index
    out: list[TakePile | TakeSequence | TakeTopCard] = []
    if r.seq_on and r.in_seq[k] and (r.take_lay_off or r.top_pickup):
        top = s.pile_[-1]
        suit = top & 3
        seen = set()
        for _i, s_, low, high in c.info.sequences:
            if s_ == suit and (high + 1 == k or low - 1 == k) and (low, high) not in seen:
                seen.add((low, high))
                if r.take_lay_off:
                    out.append(TakeSequence(suit, low, high))
                if r.top_pickup:
                    out.append(TakeTopCard(suit, low, high))
    for way in _take_ways(r):
        w = way.way
        if w == "pair":
            if counts[k] < 2:
                continue
        elif w == "wild":
            if not counts[k] or not counts[way.wild]:
                continue
        elif not has_meld:  # "layoff" and "finish" need the side's open meld of the rank
            continue
        elif w == "layoff" and k in c.info.more:
            # several open melds of the rank (melds.duplicate_ranks: any): one way each
            out.extend(TakePile("layoff", 0, (), j) for j in range(len(c.info.more[k])))
            continue
        if r.suited[k] and w != "layoff":
            out.extend(_suited_takes(c, way, k))
        else:
            out.append(way)
    return out


def _suited_takes(c: Ctx, way: TakePile, k: int) -> list[TakePile]:
    """``way`` once for each choice of the natural cards of rank ``k`` it takes the pile with."""
    if way.way == "finish":
        m = c.melds[c.info.index[k]]
        n = c.r.canasta_size - m.size + finish_start(c.r)
    else:
        n = 2 if way.way == "pair" else 1
    held = [0, 0, 0, 0]
    for code in c.hand:
        if KIND[code] == k:
            held[code & 3] += 1
    return [
        TakePile(way.way, way.wild, tuple(k * 4 + x for x in suits))
        for suits in suit_choices(n, tuple(held))
    ]


@lru_cache(maxsize=64)
def _take_ways(r: Rules) -> tuple[TakePile, ...]:
    """The ways of taking the pile that the variant has at all."""
    out = [
        way for way, on in zip(
            _TAKES,
            (r.take_pair, r.take_lay_off, r.blocked_at is not None),
            strict=True,
        ) if on
    ]
    if r.take_wild:
        out += [TakePile("wild", w) for w in r.wild_kinds]
    return tuple(out)


