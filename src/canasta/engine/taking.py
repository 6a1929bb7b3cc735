"""Taking the discard pile, way by way: each way decides its own refusals, and both the
step that takes the pile (:func:`take_step`) and the draw phase's fast listing
(:func:`~canasta.engine.draw.draw_moves`) ask the same decisions.

The ways: a natural pair (:func:`way_cards`' ``pair``), a natural and a wild card
(``wild``), laying the top card off on the side's meld of its rank (``layoff``),
finishing a meld that blocks the pile (:func:`finish_error`), laying the top card
off on a sequence (:func:`take_sequence_step`), and taking the top card alone
(:func:`take_top_step`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from canasta.cards import RANK_NAMES, Card
from canasta.engine.constructors import new_turn
from canasta.engine.facts import (
    Probe,
    dead_error,
    opening_by_points,
    opening_met,
    opening_minimum,
    opening_text,
    pile_frozen,
    rebuild,
    wild_join_error,
    with_item,
)
from canasta.engine.kinds import KIND, remove_kinds
from canasta.engine.melds import (
    find_sequence,
    holds,
    make_meld,
    no_nth_text,
    sequence_end,
    suited_codes,
)
from canasta.engine.moves import (
    SEQUENCE,
    TakePile,
    TakeSequence,
    TakeTopCard,
    card_name,
    kind_name,
    span_name,
)
from canasta.engine.oracle import can_finish
from canasta.engine.state import NOT_ASKED, PLAY, GameState, MeldGroup, Turn

if TYPE_CHECKING:
    from canasta.engine.facts import Ctx
    from canasta.engine.tables import Rules


#: Why the top card is not laid off to take the pile: the variant has no such way.
_NO_LAY_OFF: Final = "this variant does not let the top card be laid off to take the pile"

#: Why a side that has not opened does not take the pile (``opening.pile_allowed`` off).
_NOT_BEFORE_OPENING: Final = (
    "a side that has not opened may not take the discard pile: its opening meld comes from the hand"
)


#: Why a pile of one card may not be taken (``pile.one_card_bar``, Hoyle).
ONE_CARD_BAR: Final = "you hold a single card, and a discard pile of a single card may not be taken then"


def one_card_barred(s: GameState, c: Ctx) -> bool:
    """Whether ``pile.one_card_bar`` bars the player to move from taking the pile: one card
    in hand, one in the pile (Hoyle's rules); the same for every way of taking it."""
    return c.r.one_card_bar and len(s.pile_) == 1 and len(c.hand) == 1


def _stop_text(top: int) -> str:
    """Why the pile whose top card is ``top``, a stop card, cannot be taken."""
    return f"the top card {Card(top)} is a stop card: the pile cannot be taken"


def take_step(s: GameState, c: Ctx, m: TakePile, build: bool) -> GameState | str | None:
    """Take the pile by the way ``m`` names (``take pair``, ``take wild``, ``take layoff``,
    ``take finish``).

    The bars every way shares come first (:func:`_pile_bar`), then the meld the
    move names (:func:`_meld_named`); then the way's own step decides:
    :func:`_take_finish`, or :func:`way_cards` and :func:`_take_on_meld` for the
    others. :func:`~canasta.engine.draw.draw_moves` lists the draw phase from the same decisions.
    """
    barred = _pile_bar(s, c)
    if barred is not None:
        return barred
    k = KIND[s.pile_[-1]]
    r = c.r
    if m.way == "pair" and c.counts[k] < 2 and r.take_pair:
        # said before the meld the move names: the missing pair is the first thing wrong
        return _pair_missing(k, pile_frozen(s, c.side))
    oi = _meld_named(c, m, k)
    if isinstance(oi, str):
        return oi
    if m.way == "layoff" and oi < 0 and r.take_lay_off:
        return _no_meld_to_lay_off(k)
    blocked = blocked_by_meld(r, c.melds, oi)
    if m.way == "finish":
        return _take_finish(s, c, m, k, oi, blocked, build)
    if blocked:
        hint = " (with enough naturals, 'take finish')" if r.blocked_finish else ""
        rank = RANK_NAMES[k]
        return (
            f"the side's meld of {rank}s has {c.melds[oi].size} cards: the pile cannot be "
            f"taken on a {rank}{hint}"
        )
    return _take_on_meld(s, c, m, k, oi, build)


def _pile_bar(s: GameState, c: Ctx) -> str | None:
    """Why no way may take the pile here, whatever the move names, or ``None``: the pile
    is empty, its top card a stop card, no natural card or of a dead rank, or the side
    may not take it before it has opened (``opening.pile_allowed``), or the player holds one
    card and the pile one (``pile.one_card_bar``)."""
    r = c.r
    if not s.pile_:
        return "the discard pile is empty"
    if one_card_barred(s, c):
        return ONE_CARD_BAR
    top = s.pile_[-1]
    k = KIND[top]
    if r.stop[k]:
        return _stop_text(top)
    if not r.is_natural[k]:
        return f"the top card {Card(top)} cannot be melded, so the pile cannot be taken"
    if r.dead_on:
        dead = dead_error(s, k)
        if dead is not None:
            return f"the pile cannot be taken on the top card {Card(top)}: {dead}"
    if not c.r.open_by_pile and not c.opened:
        return _NOT_BEFORE_OPENING
    return None


def _meld_named(c: Ctx, m: TakePile, k: int) -> int | str:
    """The index of the side's open meld of the top card's rank ``k`` that ``m`` takes the
    pile on (``-1``: none, the way lays a new meld), or why ``m`` names it wrongly.

    With several melds of a rank (``melds.duplicate_ranks: any``) a lay-off names
    the meld it lays the top card off on, and the other ways lay a new meld;
    elsewhere a side has one open meld of the rank, and no way names it.
    """
    nth = m.meld
    if c.r.dup_any:
        if m.way != "layoff":
            if nth != 0:
                return f"'take {m.way}' lays a new meld: it names no meld of {RANK_NAMES[k]}s"
            return -1
        oi = c.info.open_at(k, nth)
        if oi < 0 and nth != 0:
            return no_nth_text(c.r, c.info, k, nth)
        return oi
    if nth != 0:
        return f"a side has one open meld of {RANK_NAMES[k]}s in this variant: write 'take {m.way}'"
    return c.info.index.get(k, -1)


def blocked_by_meld(r: Rules, melds: tuple[MeldGroup, ...], oi: int) -> bool:
    """Whether the side's meld ``oi`` of the top card's rank is long enough to block the pile
    (``pile.blocked_by_meld_size``)."""
    size = r.blocked_at
    return size is not None and oi >= 0 and melds[oi].size >= size


def _pair_missing(k: int, frozen: bool) -> str:
    """Why a natural pair of rank ``k`` does not take the pile: the hand lacks the pair."""
    why = "the pile is frozen: " if frozen else ""
    return f"{why}taking it needs two natural {RANK_NAMES[k]}s from your hand"


def _no_meld_to_lay_off(k: int) -> str:
    """Why the top card of rank ``k`` is not laid off: the side has no open meld of the rank."""
    return f"your side has no open meld of {RANK_NAMES[k]}s to lay the top card off on"


def finish_error(
    r: Rules, k: int, melds: tuple[MeldGroup, ...], oi: int, blocked: bool, held: int,
) -> str | None:
    """Why ``take finish`` (``pile.blocked_exception``) does not take the pile, or ``None``.

    The side's meld ``oi`` of the top card's rank ``k`` must block the pile, and
    the ``held`` naturals of the rank must finish it into a closed canasta and
    start a second meld of the rank with the top card. :func:`take_step` and
    :func:`~canasta.engine.draw.draw_moves` both ask this.
    """
    rank = RANK_NAMES[k]
    if not blocked or not r.blocked_finish:
        return f"'take finish' is only for a pile blocked by the side's meld of {rank}s"
    om = melds[oi]
    need = r.canasta_size - om.size
    more = finish_start(r)
    if held < need + more:
        return (
            f"taking the pile on your {om.size}-card meld of {rank}s needs {need + more} "
            f"natural {rank}s in hand: {need} to finish it and {more} to start a new meld"
        )
    if not r.valid(k, om.naturals + need, om.wilds, False):
        return f"the meld of {rank}s cannot take {need} more {rank}s"
    if not r.dup_after_complete or not r.closed(k, om.size + need):
        return f"the side may not start a second meld of {rank}s"
    return None


def _take_finish(
    s: GameState, c: Ctx, m: TakePile, k: int, oi: int, blocked: bool, build: bool,
) -> GameState | str | None:
    """``take finish``: the hand's naturals finish the side's blocking meld ``oi`` and, with
    the top card, start a new meld of its rank ``k``."""
    r = c.r
    error = finish_error(r, k, c.melds, oi, blocked, c.counts[k])
    if error is not None:
        return error
    om = c.melds[oi]
    need = r.canasta_size - om.size
    n = need + finish_start(r)
    named = _named(r, c.hand, k, m, n)
    if isinstance(named, str):
        return named
    got = remove_kinds(c.hand, [k] * n) if named is None else _remove(c.hand, named, [])
    assert got is not None
    rest, used = got
    top = s.pile_[-1]
    new_melds = list(c.melds)
    new_melds[oi] = make_meld(r, k, om.cards + tuple(used[:need]))
    new_melds.append(make_meld(r, k, (*used[need:], top)))
    return _take_rest(s, c, new_melds, rest, used, top, build)


def way_cards(
    r: Rules, way: str, k: int, wild: int, held: int, held_wild: int, frozen: bool, opened: bool,
    melds: tuple[MeldGroup, ...], oi: int,
) -> tuple[int, ...] | str:
    """The kinds of card from hand that ``way`` takes the pile with (the top card of rank
    ``k`` joins them on the side's meld ``oi``, or a new meld where ``oi`` is -1), or why it
    may not.

    ``held``: the hand's natural cards of rank ``k``; ``held_wild``: its cards of the
    wild kind ``wild`` a ``take wild`` names; ``frozen``: whether the pile is frozen
    against the side. A natural pair, a natural and a wild card, a lay-off
    (``take finish`` is :func:`finish_error`'s). :func:`take_step` and
    :func:`~canasta.engine.draw.draw_moves` both ask this.
    """
    if way == "pair":
        return _pair_cards(r, k, held, frozen)
    if way == "wild":
        return _wild_cards(r, k, wild, held, held_wild, frozen, opened, melds, oi)
    if way == "layoff":
        return _layoff_cards(r, k, frozen, melds, oi)
    return f"unknown way of taking the pile: {way!r}"


def _pair_cards(r: Rules, k: int, held: int, frozen: bool) -> tuple[int, ...] | str:
    """``take pair`` (``pile.take_natural_pair``): two natural cards of the top card's rank."""
    if not r.take_pair:
        return "this variant does not let a natural pair take the pile"
    if held < 2:
        return _pair_missing(k, frozen)
    return (k, k)


def _wild_cards(
    r: Rules, k: int, wild: int, held: int, held_wild: int, frozen: bool, opened: bool,
    melds: tuple[MeldGroup, ...], oi: int,
) -> tuple[int, ...] | str:
    """``take wild`` (``pile.take_natural_and_wild``): a natural of the top card's rank and the
    wild card named, on a pile that is not frozen, where the wild card may join the meld."""
    if not r.take_wild:
        return "this variant does not let a natural and a wild card take the pile"
    if frozen:
        return _pair_missing(k, True)
    if not (isinstance(wild, int) and 0 <= wild <= 15 and r.is_wild[wild]):
        return f"{kind_name(wild)} is not a wild card"
    if held < 1 or held_wild < 1:
        return f"taking it this way needs a natural {RANK_NAMES[k]} and a {kind_name(wild)} in hand"
    if r.late_on or r.wild_lock:
        # the wild card joins a meld that then holds the top card and the natural
        barred = wild_join_error(r, opened, Turn(), melds, k, (melds[oi].naturals if oi >= 0 else 0) + 2)
        if barred is not None:
            return barred
    return (k, wild)


def _layoff_cards(r: Rules, k: int, frozen: bool, melds: tuple[MeldGroup, ...], oi: int) -> tuple[int, ...] | str:
    """``take layoff`` (``pile.take_lay_off``): the top card alone, laid off on the side's open
    meld of its rank, on a pile that is not frozen, unless the side has made a canasta of
    the rank (or, with several melds of a rank, that meld is one) and
    ``pile.lay_off_after_canasta`` is off."""
    if not r.take_lay_off:
        return _NO_LAY_OFF
    if frozen:
        return _pair_missing(k, True)
    if oi < 0:
        return _no_meld_to_lay_off(k)
    if not r.lay_off_canasta and (
        melds[oi].size >= r.canasta_size if r.dup_any
        else any(mm.rank == k and mm.size >= r.canasta_size for mm in melds)
    ):
        rank = RANK_NAMES[k]
        if r.dup_any:
            return (
                f"that meld of {rank}s is already a canasta: the top card may be laid off "
                "only on a meld that is not yet a canasta"
            )
        return (
            f"your side has already made a canasta of {rank}s this hand: taking the "
            f"pile needs a natural pair of {rank}s"
        )
    return ()


def meld_error(
    r: Rules, k: int, melds: tuple[MeldGroup, ...], oi: int, present: set[int], kinds: tuple[int, ...],
) -> str | None:
    """Why the top card of rank ``k`` and the hand's ``kinds`` (:func:`way_cards`) may not
    join the side's meld ``oi``, or lay a new meld where ``oi`` is -1 (``present``: the
    ranks the side has melds of), or ``None``. :func:`take_step` and
    :func:`~canasta.engine.draw.draw_moves` both ask this."""
    n_add = 1  # the top card
    j_add = 0
    for kk in kinds:
        if r.is_wild[kk]:
            j_add += 1
        else:
            n_add += 1
    if oi >= 0:
        om = melds[oi]
        if r.valid(k, om.naturals + n_add, om.wilds + j_add, False):
            return None
        why = r.meld_kinds[k].why_not(om.naturals + n_add, om.wilds + j_add)
        return f"the meld of {RANK_NAMES[k]}s cannot take those cards: {why}"
    if k in present and r.meanings.one_meld_per_rank:
        return f"the side may not start a second meld of {RANK_NAMES[k]}s"
    if not r.valid(k, n_add, j_add, True):
        names = " ".join(kind_name(kk) for kk in (*kinds, k))
        return f"{names} is not a legal meld: {r.meld_kinds[k].why_not(n_add, j_add)}"
    return None


def keeps_two(s: GameState, r: Rules, keep: int) -> bool:
    """Whether an opened side's player who keeps ``keep`` cards of the hand in taking the pile
    holds two cards or more after it (with the pile's cards that join the hand): then a
    discard always remains, and the turn can be finished."""
    if keep < 2:
        keep += sum(1 for card in taken_pile(s)[:-1] if not r.laid_from_pile[KIND[card]])
    return keep >= 2


def _take_on_meld(s: GameState, c: Ctx, m: TakePile, k: int, oi: int, build: bool) -> GameState | str | None:
    """``take pair``, ``take wild`` or ``take layoff``: the way's cards (:func:`way_cards`) and the
    top card join the side's meld ``oi`` of their rank ``k``, or lay a new one."""
    r = c.r
    counts = c.counts
    wild = m.wild
    held_wild = counts[wild] if m.way == "wild" and isinstance(wild, int) and 0 <= wild <= 15 else 0
    kinds = way_cards(r, m.way, k, wild, counts[k], held_wild, pile_frozen(s, c.side), c.opened, c.melds, oi)
    if isinstance(kinds, str):
        return kinds
    hand = c.hand
    # (where suits do not matter and none are named, as in every classic game: no call)
    named = _named(r, hand, k, m, kinds.count(k)) if m.naturals or r.suited[k] else None
    if isinstance(named, str):
        return named
    error = meld_error(r, k, c.melds, oi, c.info.present, kinds)
    if error is not None:
        return error
    if not build and c.opened and keeps_two(s, r, len(hand) - len(kinds)):
        return None  # the common case: a discard always remains
    got = remove_kinds(hand, kinds) if named is None else _remove(hand, named, [kk for kk in kinds if kk != k])
    assert got is not None
    rest, used = got
    top = s.pile_[-1]
    cards = (*used, top)
    new_melds = list(c.melds)
    if oi >= 0:
        nm = make_meld(r, k, c.melds[oi].cards + cards)
        if not r.valid(k, nm.naturals, nm.wilds, False):
            return f"the meld of {RANK_NAMES[k]}s cannot take those cards"
        new_melds[oi] = nm
    else:
        nm = make_meld(r, k, cards)
        if not r.valid(k, nm.naturals, nm.wilds, True):
            return f"{' '.join(kind_name(KIND[x]) for x in cards)} is not a legal meld"
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
    if opened:
        hand_after = tuple(sorted((*rest, *pile_rest)))
    else:
        points = sum(r.code_value[card] for card in used)
        if r.top_counts:
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
    if not s.pile_:
        return "the discard pile is empty"
    if not r.seq_on:
        return "this variant has no sequences"
    if one_card_barred(s, c):
        return ONE_CARD_BAR
    top = s.pile_[-1]
    k = KIND[top]
    if r.stop[k]:
        return _stop_text(top)
    suit, low, high = m.suit, m.low, m.high
    if not (0 <= suit <= 3 and 2 <= low <= high <= 14):
        return f"'{m}' does not name a sequence"
    if not r.take_lay_off:
        return _NO_LAY_OFF
    if not c.opened and not r.open_by_pile:
        return _NOT_BEFORE_OPENING
    error = _top_joins(c, top, suit, low, high)
    if error is not None:
        return error
    if pile_frozen(s, c.side):
        return _pair_missing(k, True)
    oi = find_sequence(c.info, suit, low, high)
    om = c.melds[oi]
    if not r.lay_off_canasta and r.kind_of(SEQUENCE, om.size, 0) is not None:
        return (
            f"the sequence {span_name(suit, low, high)} is a canasta already: the top card may be "
            "laid off only on a meld that is not"
        )
    hand = c.hand
    if not build and c.opened and keeps_two(s, r, len(hand)):
        return None  # the common case: a discard always remains
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
    if not r.top_pickup:
        return "in this variant the pile's top card is not taken alone: draw, or take the whole pile"
    if not s.pile_:
        return "the discard pile is empty"
    if one_card_barred(s, c):
        return ONE_CARD_BAR
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
    top = s.rules.take_top
    return s.pile_ if top is None or top >= len(s.pile_) else s.pile_[-top:]
