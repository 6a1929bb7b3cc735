"""The draw: drawing from the stock, passing a draw, and taking the discard pile in each of its ways.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final

from canasta.cards import RANK_NAMES, Card
from canasta.engine.constructors import new_state, new_turn
from canasta.engine.facts import (
    Probe,
    context_of,
    dead_error,
    frozen_pile,
    may_discard_last,
    opening_by_points,
    opening_met,
    opening_minimum,
    opening_text,
    pile_frozen,
    rebuild,
    wild_join_error,
    with_item,
)
from canasta.engine.hand_end import end_hand
from canasta.engine.kinds import KIND, remove_kinds, suit_choices
from canasta.engine.melds import (
    find_sequence,
    holds,
    make_meld,
    meld_info,
    no_nth_text,
    one_change,
    sequence_end,
    suited_codes,
)
from canasta.engine.moves import (
    SEQUENCE,
    Draw,
    Move,
    TakePile,
    TakeSequence,
    TakeTopCard,
    card_name,
    kind_name,
    span_name,
)
from canasta.engine.oracle import can_finish
from canasta.engine.state import (
    NOT_ASKED,
    PLAY,
    GameState,
    MeldGroup,
    Turn,
)
from canasta.engine.threes import may_keep
from canasta.variant.model import Variant

if TYPE_CHECKING:
    from canasta.engine.facts import Ctx
    from canasta.engine.tables import Rules


#: The turn record after a draw of these cards (frozen, so one serves every
#: state that drew them): a draw is a third of all moves.
_DRAW_TURNS: Final[dict[tuple[int, ...], Turn]] = {}


def draw_step(s: GameState, build: bool) -> GameState | str | None:
    r = s.rules
    v = s.variant
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
    if unreplaced and not _plays_on(v, len(hand), may_discard_last(s, p)):
        # A red 3 drawn as the last card of the stock is laid but cannot be
        # replaced: the player may not meld or discard, and the hand ends
        # (Pagat's classic rule; threes.red_last_card).
        return end_hand(s2, "stock", -1, False, False)
    return s2


def _plays_on(v: Variant, hand_size: int, last_ok: bool) -> bool:
    """Whether a player whose last stock card was a red 3 plays on (``threes.red_last_card``).

    Only with a card to discard that keeps the turn legal: two or more, or one
    where a player may discard the last card without going out. Otherwise
    nothing can end the turn, and the hand ends as under the classic rule.
    """
    if v.threes.red_last_card != "play_on":
        return False
    return hand_size >= 2 or (hand_size == 1 and last_ok)


def pass_step(s: GameState, build: bool) -> GameState | str | None:
    if s.stock_:
        return "the stock is not empty: draw"
    must = s.variant.pile.must_take_when_stock_empty
    c = context_of(s)
    if must == "lay_off" and (
        take_step(s, c, TakePile("layoff"), False) is None
        or any(
            take_sequence_step(s, c, way, False) is None
            for way in take_candidates(s, c) if isinstance(way, TakeSequence)
        )
    ):
        return "the stock is empty and you can take the pile by laying its top card off: you must take it"
    if must == "any":
        for way in take_candidates(s, c):
            if isinstance(way, TakeTopCard):
                continue  # one card of the pile, not the pile: never a must
            step = take_step(s, c, way, False) if isinstance(way, TakePile) else take_sequence_step(s, c, way, False)
            if step is None:
                return f"the stock is empty and you can take the pile ('{way}'): you must take it"
    if not build:
        return None
    return end_hand(s, "stock", -1, False, False)


def take_step(s: GameState, c: Ctx, m: TakePile, build: bool) -> GameState | str | None:
    r = c.r
    v = c.v
    pr = v.pile
    if not s.pile_:
        return "the discard pile is empty"
    side = c.side
    top = s.pile_[-1]
    k = KIND[top]
    if r.stop[k]:
        return f"the top card {Card(top)} is a stop card: the pile cannot be taken"
    if not r.is_natural[k]:
        return f"the top card {Card(top)} cannot be melded, so the pile cannot be taken"
    rank = RANK_NAMES[k]
    if r.dead_on:
        dead = dead_error(s, k)
        if dead is not None:
            return f"the pile cannot be taken on the top card {Card(top)}: {dead}"
    if not v.opening.pile_allowed and not c.opened:
        return "a side that has not opened may not take the discard pile: its opening meld comes from the hand"
    hand = c.hand
    counts = c.counts
    if m.way == "pair" and counts[k] < 2 and pr.take_natural_pair:
        why = "the pile is frozen: " if pile_frozen(s, side) else ""
        return f"{why}taking it needs two natural {rank}s from your hand"
    melds = c.melds
    nth = m.meld
    if r.dup_any:
        # several melds of a rank (melds.duplicate_ranks: any): the top card is laid
        # off on the meld the move names; a pair (or a natural and a wild card)
        # lays a new meld with it, which may then be combined with another
        if nth != 0 and m.way != "layoff":
            return f"'take {m.way}' lays a new meld: it names no meld of {rank}s"
        oi = c.info.open_at(k, nth) if m.way == "layoff" else -1
        if m.way == "layoff" and oi < 0 and nth != 0:
            return no_nth_text(c.r, c.info, k, nth)
    elif nth != 0:
        return f"a side has one open meld of {rank}s in this variant: write 'take {m.way}'"
    else:
        oi = c.info.index.get(k, -1)
    if m.way == "layoff" and oi < 0 and pr.take_lay_off:
        return f"your side has no open meld of {rank}s to lay the top card off on"
    frozen = pile_frozen(s, side)
    blocked = (
        pr.blocked_by_meld_size is not None and oi >= 0 and melds[oi].size >= pr.blocked_by_meld_size
    )
    new_melds = list(melds)
    used: list[int] = []
    if m.way == "finish":
        if not blocked or not pr.blocked_exception:
            return f"'take finish' is only for a pile blocked by the side's meld of {rank}s"
        need = r.canasta_size - melds[oi].size
        more = finish_start(r)
        if counts[k] < need + more:
            return (
                f"taking the pile on your {melds[oi].size}-card meld of {rank}s needs {need + more} "
                f"natural {rank}s in hand: {need} to finish it and {more} to start a new meld"
            )
        om = melds[oi]
        if not r.valid(k, om.naturals + need, om.wilds, False):
            return f"the meld of {rank}s cannot take {need} more {rank}s"
        if not r.dup_after_complete or not r.closed(k, om.size + need):
            return f"the side may not start a second meld of {rank}s"
        named = _named(r, hand, k, m, need + more)
        if isinstance(named, str):
            return named
        got = remove_kinds(hand, [k] * (need + more)) if named is None else _remove(hand, named, [])
        assert got is not None
        rest, used = got
        new_melds[oi] = make_meld(r, k, om.cards + tuple(used[:need]))
        new_melds.append(make_meld(r, k, (*used[need:], top)))
    else:
        if blocked:
            hint = " (with enough naturals, 'take finish')" if pr.blocked_exception else ""
            return (
                f"the side's meld of {rank}s has {melds[oi].size} cards: the pile cannot be "
                f"taken on a {rank}{hint}"
            )
        if m.way == "pair":
            if not pr.take_natural_pair:
                return "this variant does not let a natural pair take the pile"
            if counts[k] < 2:
                why = "the pile is frozen: " if frozen else ""
                return f"{why}taking it needs two natural {rank}s from your hand"
            kinds = [k, k]
        elif m.way == "wild":
            if not pr.take_natural_and_wild:
                return "this variant does not let a natural and a wild card take the pile"
            if frozen:
                return f"the pile is frozen: taking it needs two natural {rank}s from your hand"
            if not (isinstance(m.wild, int) and 0 <= m.wild <= 15 and r.is_wild[m.wild]):
                return f"{kind_name(m.wild)} is not a wild card"
            if counts[k] < 1 or counts[m.wild] < 1:
                return f"taking it this way needs a natural {rank} and a {kind_name(m.wild)} in hand"
            if r.late_on or r.wild_lock:
                om_n = melds[oi].naturals if oi >= 0 else 0
                # the wild card joins a meld that then holds the top card and the natural
                barred = wild_join_error(r, c.opened, Turn(), melds, k, om_n + 2)
                if barred is not None:
                    return barred
            kinds = [k, m.wild]
        elif m.way == "layoff":
            if not pr.take_lay_off:
                return "this variant does not let the top card be laid off to take the pile"
            if frozen:
                return f"the pile is frozen: taking it needs two natural {rank}s from your hand"
            if oi < 0:
                return f"your side has no open meld of {rank}s to lay the top card off on"
            # with several melds of the rank, the meld the card goes on must be short
            # of a canasta; with one, the side must have made no canasta of the rank
            made = (
                melds[oi].size >= r.canasta_size if r.dup_any
                else any(mm.rank == k and mm.size >= r.canasta_size for mm in melds)
            )
            if made and not pr.lay_off_after_canasta:
                if r.dup_any:
                    return (
                        f"that meld of {rank}s is already a canasta: the top card may be laid off "
                        "only on a meld that is not yet a canasta"
                    )
                return (
                    f"your side has already made a canasta of {rank}s this hand: taking the "
                    f"pile needs a natural pair of {rank}s"
                )
            kinds = []
        else:
            return f"unknown way of taking the pile: {m.way!r}"
        for kk in set(kinds):
            if counts[kk] < kinds.count(kk):
                return "you do not hold the cards for that"
        # (where suits do not matter and none are named, as in every classic game: no call)
        named = _named(r, hand, k, m, kinds.count(k)) if m.naturals or r.suited[k] else None
        if isinstance(named, str):
            return named
        n_add = 1 + sum(1 for kk in kinds if not r.is_wild[kk])
        j_add = len(kinds) + 1 - n_add
        if oi >= 0:
            om = melds[oi]
            if not r.valid(k, om.naturals + n_add, om.wilds + j_add, False):
                why = r.meld_kinds[k].why_not(om.naturals + n_add, om.wilds + j_add)
                return f"the meld of {rank}s cannot take those cards: {why}"
        else:
            if any(mm.rank == k for mm in melds) and v.melds.duplicate_ranks == "never":
                return f"the side may not start a second meld of {rank}s"
            if not r.valid(k, n_add, j_add, True):
                names = " ".join(kind_name(kk) for kk in (*kinds, k))
                return f"{names} is not a legal meld: {r.meld_kinds[k].why_not(n_add, j_add)}"
        if not build and c.opened:
            # the common case: an opened side keeps two cards, so a discard always remains
            keep = len(hand) - len(kinds)
            if keep < 2:
                keep += sum(1 for card in taken_pile(s)[:-1] if not r.laid_from_pile[KIND[card]])
            if keep >= 2:
                return None
        if named is None:
            got = remove_kinds(hand, kinds)
        else:
            got = _remove(hand, named, [kk for kk in kinds if kk != k])
        assert got is not None
        rest, used = got
        cards = (*used, top)
        if oi >= 0:
            om = melds[oi]
            nm = make_meld(r, k, om.cards + cards)
            if not r.valid(k, nm.naturals, nm.wilds, False):
                return f"the meld of {rank}s cannot take those cards"
            new_melds[oi] = nm
        else:
            if any(mm.rank == k for mm in melds) and v.melds.duplicate_ranks == "never":
                return f"the side may not start a second meld of {rank}s"
            nm = make_meld(r, k, cards)
            if not r.valid(k, nm.naturals, nm.wilds, True):
                return f"{' '.join(kind_name(KIND[c]) for c in cards)} is not a legal meld"
            new_melds.append(nm)
    return _take_rest(s, c, new_melds, rest, used, top, build)


def _take_rest(
    s: GameState, c: Ctx, new_melds: list[MeldGroup], rest: list[int], used: list[int], top: int,
    build: bool,
) -> GameState | str | None:
    """Common end of taking the pile: ``used`` and the top card are melded (``new_melds``), ``rest`` stays in hand.

    The rest of the pile joins the hand (or waits for the opening), red 3s in
    it are laid, and the turn must still be finishable.
    """
    r = c.r
    v = c.v
    p = c.p
    side = c.side
    # the rest of the cards taken: red 3s (and black 3s where they are laid) are
    # laid, not replaced; the rest joins the hand
    taken = taken_pile(s)
    laid = r.laid_from_pile
    pile_rest = [card for card in taken[:-1] if not laid[KIND[card]]]
    opened = s.opened[side]
    points = 0
    pending: tuple[int, ...] = ()
    melds_after = tuple(new_melds)
    # the new melds' info from the old one's, where one meld grew or joined (the
    # probe below and the next state ask for it)
    changed = one_change(c.melds, melds_after)
    if changed >= 0:
        meld_info(r, melds_after, c.info, changed)
    if opened:
        hand_after = tuple(sorted((*rest, *pile_rest)))
    else:
        points = sum(r.code_value[card] for card in used)
        if v.opening.top_card_counts:
            points += r.code_value[top]
        if opening_met(s, side, points, melds_after, True):
            opened = True
            hand_after = tuple(sorted((*rest, *pile_rest)))
        else:
            hand_after = tuple(rest)
            pending = tuple(sorted(pile_rest))
    q = Probe(hand_after, melds_after, opened, points, pending, NOT_ASKED, True)
    if not can_finish(s, q):
        if not s.opened[side]:
            if opening_by_points(s, side):
                return (
                    f"the side has not opened: taking the pile needs melds from your hand worth "
                    f"{opening_minimum(s, side)} points with the top card, and a card left to discard"
                )
            return (
                f"the side has not opened: taking the pile needs an opening of "
                f"{opening_text(s, side)} with the top card, and a card left to discard"
            )
        return "after taking the pile you could not finish the turn legally"
    if not build:
        return None
    red = s.red_threes_[side] + tuple(card for card in taken[:-1] if laid[KIND[card]])
    return rebuild(
        s, phase=PLAY, hands=with_item(s.hands_, p, hand_after), pile=s.pile_[:len(s.pile_) - len(taken)],
        melds=with_item(s.melds_, side, melds_after), red=with_item(s.red_threes_, side, red),
        opened=with_item(s.opened, side, opened),
        # new_turn, as the pile is taken often (Turn(...) cost 0.7% of classic's instructions)
        turn=new_turn(took_pile=True, melded=True, points=points, pending=pending, asked=NOT_ASKED,
                      asker=-1, drawn=(), played=(*used, top), laid=(), backs=0),
    )


def finish_start(r: Rules) -> int:
    """The natural cards from hand that start a new meld with the pile's top card in a
    ``take finish`` (``pile.blocked_exception``): two where a new meld has three cards, so
    the new meld is one a player could lay (``melds.min_size``, ``melds.min_naturals``)."""
    return r.new_size - 1


def _named(r: Rules, hand: tuple[int, ...], k: int, m: TakePile, n: int) -> list[int] | str | None:
    """The exact natural cards of the top card's rank ``k`` that ``m`` takes the pile with
    (``n`` of them), why they are named wrongly, or ``None`` where suits do not matter."""
    naturals = m.naturals
    if not naturals and not r.suited[k]:
        return None
    if any(not (type(x) is int and 0 <= x < 64) or KIND[x] != k for x in naturals):
        return f"'{m}' must name natural cards of the top card's rank, {kind_name(k)}"
    held = [x for x in hand if KIND[x] == k] or [k * 4 + 2]
    example = TakePile(m.way, m.wild, tuple(held[i % len(held)] for i in range(n)) if r.suited[k] else ())
    got = suited_codes(r, k, n, tuple(x & 3 for x in naturals), str(example))
    if isinstance(got, list) and not holds(hand, got):
        return f"you do not hold {' '.join(card_name(x >> 2, x & 3) for x in got)}"
    return got


def _remove(hand: tuple[int, ...], codes: list[int], kinds: list[int]) -> tuple[list[int], list[int]] | None:
    """``hand`` without the cards ``codes`` and one card of each of ``kinds``; those removed first."""
    if not holds(hand, codes):
        return None
    rest = list(hand)
    for code in codes:
        rest.remove(code)
    got = remove_kinds(rest, kinds)
    if got is None:
        return None
    return got[0], [*codes, *got[1]]


def take_sequence_step(s: GameState, c: Ctx, m: TakeSequence, build: bool) -> GameState | str | None:
    """Take the pile by adding its top card to an end of the side's sequence (``pile.take_lay_off``)."""
    r = c.r
    pr = c.v.pile
    if not s.pile_:
        return "the discard pile is empty"
    if not r.seq_on:
        return "this variant has no sequences"
    top = s.pile_[-1]
    k = KIND[top]
    if r.stop[k]:
        return f"the top card {Card(top)} is a stop card: the pile cannot be taken"
    suit, low, high = m.suit, m.low, m.high
    if not (0 <= suit <= 3 and 2 <= low <= high <= 14):
        return f"'{m}' does not name a sequence"
    if not pr.take_lay_off:
        return "this variant does not let the top card be laid off to take the pile"
    if not c.opened and not c.v.opening.pile_allowed:
        return "a side that has not opened may not take the discard pile: its opening meld comes from the hand"
    error = _top_joins(c, top, suit, low, high)
    if error is not None:
        return error
    if pile_frozen(s, c.side):
        return f"the pile is frozen: taking it needs two natural {RANK_NAMES[k]}s from your hand"
    oi = find_sequence(c.info, suit, low, high)
    om = c.melds[oi]
    if not pr.lay_off_after_canasta and r.kind_of(SEQUENCE, om.size, 0) is not None:
        return (
            f"the sequence {span_name(suit, low, high)} is a canasta already: the top card may be "
            "laid off only on a meld that is not"
        )
    hand = c.hand
    if not build and c.opened:
        # the common case: an opened side keeps two cards, so a discard always remains
        keep = len(hand)
        if keep < 2:
            keep += sum(1 for card in taken_pile(s)[:-1] if not r.laid_from_pile[KIND[card]])
        if keep >= 2:
            return None
    new_melds = list(c.melds)
    new_melds[oi] = make_meld(r, SEQUENCE, (*om.cards, top), suit)
    return _take_rest(s, c, new_melds, list(hand), [], top, build)


def _top_joins(c: Ctx, top: int, suit: int, low: int, high: int) -> str | None:
    """Why the pile's ``top`` card cannot join an end of the side's sequence of ``suit`` from
    ``low`` to ``high``, or ``None`` (for ``take 7H-9H`` and ``take top 7H-9H``)."""
    r = c.r
    k = KIND[top]
    if top & 3 != suit or not r.in_seq[k]:
        return f"the top card {Card(top)} cannot join the sequence {span_name(suit, low, high)}"
    return sequence_end(r, c.info, c.melds, suit, low, high, k)


def take_top_step(s: GameState, c: Ctx, m: TakeTopCard, build: bool) -> GameState | str | None:
    """Instead of drawing, take only the pile's top card onto an end of the side's sequence
    (``sequences.top_card_pickup``, Pagat's Samba); the rest of the pile stays."""
    r = c.r
    if not r.seq_on or not c.v.sequences.top_card_pickup:
        return "in this variant the pile's top card is not taken alone: draw, or take the whole pile"
    if not s.pile_:
        return "the discard pile is empty"
    top = s.pile_[-1]
    suit, low, high = m.suit, m.low, m.high
    if not (0 <= suit <= 3 and 2 <= low <= high <= 14):
        return f"'{m}' does not name a sequence"
    error = _top_joins(c, top, suit, low, high)
    if error is not None:
        return error
    oi = find_sequence(c.info, suit, low, high)
    new_melds = list(c.melds)
    new_melds[oi] = make_meld(r, SEQUENCE, (*c.melds[oi].cards, top), suit)
    melds_after = tuple(new_melds)
    hand = c.hand
    # the hand keeps its size: with two cards or more a discard always remains
    if len(hand) < 2 and not can_finish(s, Probe(hand, melds_after, c.opened, 0, (), NOT_ASKED, True)):
        return "after taking the top card you could not finish the turn legally"
    if not build:
        return None
    return rebuild(
        s, phase=PLAY, pile=s.pile_[:-1], melds=with_item(s.melds_, c.side, melds_after),
        turn=Turn(took_pile=True, melded=True, played=(top,)),
    )


def taken_pile(s: GameState) -> tuple[int, ...]:
    """The cards a player who takes the pile takes, top card last: all of it, or its top ``pile.take_top``."""
    top = s.variant.pile.take_top
    return s.pile_ if top is None or top >= len(s.pile_) else s.pile_[-top:]


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
    (the tests :func:`take_candidates` makes). Where some way is a candidate,
    an opened side's ways are decided here as :func:`take_step` decides them
    (in the variants without dead ranks, suits, several melds of a rank, or
    wild cards barred from a meld), in :func:`take_candidates`' order, except
    where the hand would keep fewer than two cards or a blocked pile could be
    taken by finishing the meld: those, and everything else, return ``None``.
    ``tests/test_quick_moves.py`` compares this with the candidate loop.
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
    info = meld_info(r, s.melds_[side])
    oi = info.index.get(k, -1)
    if not held and oi < 0:
        return [DRAW_MOVE]
    # take_candidates' own tests, way by way
    ways: list[TakePile] = []
    for way in _take_ways(r):
        w = way.way
        if w == "pair":
            if held >= 2:
                ways.append(way)
        elif w == "wild":
            if held:
                wild = way.wild
                for code in hand:  # a loop: a generator under any() is a function call
                    if KIND[code] == wild:
                        ways.append(way)
                        break
        elif oi >= 0:
            ways.append(way)
    if not ways:
        return [DRAW_MOVE]
    pr = s.variant.pile
    if not s.opened[side] or r.dup_any or r.rank_bars or r.suited[k]:
        return None
    # take_step's decisions for an opened side, where none of the above applies
    frozen = -1  # whether the pile is frozen (-1: not yet asked; a natural pair does not ask)
    out: list[Move] = [DRAW_MOVE]
    melds = info.melds
    size = pr.blocked_by_meld_size
    blocked = size is not None and oi >= 0 and melds[oi].size >= size
    for way in ways:
        w = way.way
        if w == "finish":
            # listed only where a size blocks the pile: for a side whose meld of the
            # rank blocks it, with the naturals to finish that meld and start another
            if not blocked or not pr.blocked_exception:
                continue
            om = melds[oi]
            need = r.canasta_size - om.size
            if (
                held < need + finish_start(r) or not r.valid(k, om.naturals + need, om.wilds, False)
                or not r.dup_after_complete or not r.closed(k, om.size + need)
            ):
                continue
            return None  # take_step asks whether the turn can be finished
        if blocked:
            continue  # the side's meld of the rank is too long for the pile to be taken on it
        if w == "pair":
            n_add, j_add = 3, 0
        else:
            if frozen < 0:
                frozen = 1 if frozen_pile(r, pile) else 0
            if frozen:
                continue  # only a natural pair takes a frozen pile
            if w == "wild":
                n_add, j_add = 2, 1
            else:  # "layoff"
                if not pr.lay_off_after_canasta and any(
                    mm.rank == k and mm.size >= r.canasta_size for mm in melds
                ):
                    continue
                n_add, j_add = 1, 0
        if oi >= 0:
            om = melds[oi]
            if not r.valid(k, om.naturals + n_add, om.wilds + j_add, False):
                continue
        elif (k in info.present and s.variant.melds.duplicate_ranks == "never") or not r.valid(
            k, n_add, j_add, True
        ):
            continue
        # an opened side that keeps two cards can always discard after taking
        keep = len(hand) - n_add - j_add + 1
        if keep < 2:
            keep += sum(1 for card in taken_pile(s)[:-1] if not r.laid_from_pile[KIND[card]])
            if keep < 2:
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
    sq = c.v.sequences
    if r.seq_on and r.in_seq[k] and (c.v.pile.take_lay_off or sq.top_card_pickup):
        top = s.pile_[-1]
        suit = top & 3
        seen = set()
        for _i, s_, low, high in c.info.sequences:
            if s_ == suit and (high + 1 == k or low - 1 == k) and (low, high) not in seen:
                seen.add((low, high))
                if c.v.pile.take_lay_off:
                    out.append(TakeSequence(suit, low, high))
                if sq.top_card_pickup:
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
    pr = r.v.pile
    out = [
        way for way, on in zip(
            _TAKES,
            (pr.take_natural_pair, pr.take_lay_off, pr.blocked_by_meld_size is not None),
            strict=True,
        ) if on
    ]
    if pr.take_natural_and_wild:
        out += [TakePile("wild", w) for w in r.wild_kinds]
    return tuple(out)


