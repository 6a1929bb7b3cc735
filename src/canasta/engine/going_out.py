"""Ending a turn: discarding, going out, picking up the foot, asking the partner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from canasta.engine.constructors import new_turn
from canasta.engine.facts import (
    asking_required,
    dead_ranks,
    foot_available,
    incomplete_blocking,
    may_discard_last,
    must_walk,
    opening_by_points,
    opening_minimum,
    opening_text,
    partner_foot_down,
    probe,
    rebuild,
    with_item,
)
from canasta.engine.hand_end import end_hand, next_turn
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.melds import canasta_counts, req_met, req_text
from canasta.engine.moves import (
    RED_THREE,
    Discard,
    card_name,
    kind_name,
)
from canasta.engine.oracle import can_finish, can_go_out, concealed_possible, quick_out
from canasta.engine.state import (
    ANSWER,
    NOT_ASKED,
    TOLD_NO,
    TOLD_YES,
    GameState,
)
from canasta.engine.threes import lay_threes, plays_on

if TYPE_CHECKING:
    from canasta.engine.facts import Ctx, Probe
    from canasta.engine.tables import Rules


def opening_need(s: GameState, side: int) -> str:
    """What the side's opening needs, as the refusals of a discard say it: the minimum alone
    (``50``) for an opening by points, else :func:`opening_text`."""
    return str(opening_minimum(s, side)) if opening_by_points(s, side) else opening_text(s, side)


def going_out_error(s: GameState, q: Probe) -> str | None:
    """Why the current player may not go out with the table of ``q``, or None."""
    r = s.rules
    p = s.current
    side = r.side_of[p]
    if q.asked == TOLD_NO:
        return "your partner said no: you may not go out this turn"
    if s.feet_[p] and r.foot_first:
        return "you must pick up your foot before going out"
    if partner_foot_down(s):
        return "your partner must pick up their foot before you go out"
    if asking_required(s) and q.asked != TOLD_YES:
        return "ask your partner first: going out needs their yes ('ask')"
    if not req_met(r, canasta_counts(r, q.melds)):
        return f"going out needs {req_text(r)}"
    if r.out_complete:
        m = incomplete_blocking(r, q.melds)
        if m is not None:
            label = r.meld_kinds[m.rank].label(m.rank)
            return f"your side's meld of {label} must be a canasta before you go out"
    if not q.opened and q.melds and not (
        r.meanings.concealed_waives_opening and concealed_possible(s, q.took)
    ):
        return (
            f"the melds laid this turn total {q.points} points; the side's opening "
            f"needs {opening_need(s, side)}"
        )
    return None


def _barred(r: Rules, empty: bool, counts: Sequence[int], k: int, dead: int) -> str | None:
    """The rule that bars a discard of kind ``k`` (not going out) from a hand of ``counts``, or ``None``."""
    if empty and dead >> k & 1:
        return f"a card of a dead rank ({kind_name(k)}) may not be discarded onto an empty pile"
    if empty and r.empty_bar[k]:
        name = kind_name(k)
        what = "a wild card" if r.is_wild[k] else f"{'an' if name in ('A', '8') else 'a'} {name}"
        return f"{what} may not be discarded onto an empty pile"
    if r.is_wild[k] and r.wild_out_only and any(
        n and not r.is_wild[x] for x, n in enumerate(counts)
    ):
        return "a wild card may be discarded only to go out or from a hand of wild cards only"
    return None


def discard_bar(r: Rules, empty: bool, counts: Sequence[int], k: int, dead: int = 0) -> str | None:
    """Why a discard of kind ``k`` that does not go out is refused by the discard bars, or ``None``.

    The bars are ``pile.empty_bar_ranks`` and ``pile.empty_bar_wilds`` (onto an
    ``empty`` pile; ``pile.empty_bar_dead`` with ``dead``, the dead ranks as a bit
    mask) and ``pile.wild_discard``. When every card of the hand is
    barred, the bars lift, so that a turn can always end with a discard.
    """
    why = _barred(r, empty, counts, k, dead)
    if why is None:
        return None
    if all(_barred(r, empty, counts, x, dead) for x, n in enumerate(counts) if n):
        return None
    return why


def plain_discard_error(s: GameState, c: Ctx) -> str | None:
    """Why no discard that does not go out may end the turn now, whatever the card, or ``None``.

    The rules of the turn, not of the card: ``legal_moves`` asks once per
    position, then only the per-card bars (:func:`discard_bar`) for each kind
    held; :func:`discard_step` asks the same for its one card. A refusal that
    names the card says ``{card}``, which the caller fills in.
    """
    t = c.turn
    if t.pending:
        return "the side has not yet met its opening minimum with the pile's top card"
    if t.asked == TOLD_YES:
        return "your partner said yes: you must go out this turn"
    if c.r.seq_grow and c.info.grown:
        return (
            f"a sequence grew past {c.r.seq_max} cards this turn, which it may only as part "
            "of going out: you must go out this turn"
        )
    if not c.opened and c.melds:
        return (
            f"the melds laid this turn total {t.points} points; the side's opening "
            f"needs {opening_need(s, c.side)}"
        )
    if len(c.hand) == 1 and not may_discard_last(s, c.p):
        return "discarding your last card goes out: write 'out {card}'"
    return None


def discard_dead(s: GameState, c: Ctx) -> int:
    """The dead ranks that ``pile.empty_bar_dead`` bars from the pile now, as a bit mask."""
    return dead_ranks(s) if c.r.bar_dead and not s.pile_ else 0


def discard_step(s: GameState, c: Ctx, m: Discard, build: bool) -> GameState | str | None:
    """A discard (``m.out``: the last card, going out): the state after it (None when legal
    and ``build`` is false), or why it is illegal."""
    why = _card_error(c, m)
    if why is not None:
        return why
    p = c.p
    k = m.kind
    suit = m.suit
    hand = c.hand
    t = c.turn
    left = len(hand) - 1
    if t.pending:
        return "the side has not yet met its opening minimum with the pile's top card"
    black_out = False
    if m.out:
        if left:
            n_out = c.r.black_out_cards
            black_out = (
                n_out is not None and left == n_out
                and c.counts[BLACK_THREE] - (k == BLACK_THREE) == n_out
            )
            if not black_out:
                return "going out means discarding your last card"
        err = going_out_error(s, probe(s))
        if err:
            return err
    else:
        why = plain_discard_error(s, c)
        if why is not None:
            return why.replace("{card}", kind_name(k))
        if c.r.bars_discards:
            bar = discard_bar(c.r, not s.pile_, c.counts, k, discard_dead(s, c))
            if bar:
                return bar
    if not build:
        return None
    i = 0
    if suit != -1:
        i = hand.index(k * 4 + suit)
    else:
        kind = KIND
        while kind[hand[i]] != k:  # the hand holds a k: checked above
            i += 1
    kept = hand[:i] + hand[i + 1:]
    hands = with_item(s.hands_, p, kept)
    pile = (*s.pile_, hand[i])
    if m.out:
        s2 = rebuild(s, hands=hands, pile=pile)
        concealed = concealed_possible(s, t.took_pile) and t.melded
        return end_hand(s2, "out", p, concealed, black_out)
    if c.r.talons and c.opened and t.points:
        given = _give_talon(s, c, hands[p])
        if given is not None:
            s, hand_after, unreplaced = given
            hands = with_item(hands, p, hand_after)
            if unreplaced and c.r.red_last_ends:
                # the stock ran out on a 3 of the talon (or a 3 drawn to replace
                # one): as when a red 3 is the last card drawn, the hand ends
                return end_hand(rebuild(s, hands=hands, pile=pile), "stock", -1, False, False)
    return next_turn(s, hands, pile)


def _card_error(c: Ctx, m: Discard) -> str | None:
    """Why the card ``m`` names cannot be discarded whatever the turn: a red 3, a card not
    held, a suit named where suits do not matter or missing where they do."""
    k = m.kind
    if k == RED_THREE:
        return "a red 3 is never discarded"
    if m.out is not True and m.out is not False:
        return f"Discard.out must be True or False, got {m.out!r}"
    if not 0 <= k < 16 or not c.counts[k]:
        return f"you hold no {kind_name(k) if 0 <= k < 16 else k}"
    suit = m.suit
    if suit != -1 or c.r.suited[k]:
        verb = "out" if m.out else "discard"
        if not c.r.suited[k]:
            return f"suits do not matter for {kind_name(k)}s in this variant: write '{verb} {kind_name(k)}'"
        if not (type(suit) is int and 0 <= suit <= 3):
            held = next(x for x in c.hand if KIND[x] == k)
            return (
                f"suits matter in this variant (sequences): name the card's suit, e.g. "
                f"'{verb} {card_name(k, held & 3)}'"
            )
        if k * 4 + suit not in c.hand:
            return f"you hold no {card_name(k, suit)}"
    return None


def _give_talon(
    s: GameState, c: Ctx, hand: tuple[int, ...]
) -> tuple[GameState, tuple[int, ...], bool] | None:
    """The state and hand after the talon reaches the player whose side opened this turn
    (``opening.talons``), and whether a 3 among its cards went unreplaced (the
    stock ran out); ``None`` where the side gets none.

    The side is the k-th to open (k = the sides opened before it), so it gets the
    k-th talon: none past the list, none after opening by the pile (unless
    ``talon_after_pile``), none once the turn card has been drawn. 3s among the
    cards are laid and replaced, as when drawn.
    """
    mn = c.r.meanings
    k = sum(s.opened) - 1
    sizes = c.r.talons
    if k >= len(sizes) or (c.turn.took_pile and not mn.talon_after_pile):
        return None
    turn_card = mn.talon_turn_card
    if turn_card is not None and len(s.stock_) < turn_card:
        return None
    stock = list(s.stock_)
    talons = s.talons_
    if mn.talons_at_deal:  # set aside at the deal (there are talons: k is one of them)
        cards = list(talons[k])
        talons = with_item(talons, k, ())
    else:
        cards = [stock.pop() for _ in range(min(sizes[k], len(stock)))]
    laid = list(s.red_threes_[c.side])
    kept, unreplaced = lay_threes(c.r, cards, stock, laid)
    s2 = rebuild(s, stock=tuple(stock), red=with_item(s.red_threes_, c.side, tuple(laid)), talons=talons)
    return s2, tuple(sorted(hand + tuple(kept))), unreplaced


def foot_step(s: GameState, c: Ctx, build: bool) -> GameState | str | None:
    r = c.r
    p = c.p
    side = c.side
    if not s.feet_[p]:
        return "you have no foot to pick up"
    if not must_walk(s) and not foot_available(s, p, len(s.hands_[p]), s.melds_[side]):
        if r.foot_on_empty:
            return "you may pick up your foot only when your hand is empty"
        return "you may pick up your foot once your side has completed a canasta"
    if s.turn.asked == TOLD_YES:
        # the foot's cards are unknown until picked up: a 'yes' was given for the hand held
        return "your partner said yes to going out with the cards you hold"
    if r.seq_grow and c.info.grown:
        # the sequence grew on the strength of going out with the cards held
        return f"a sequence grew past {r.seq_max} cards this turn: you must go out with the cards you hold"
    if not build:
        return None
    stock = list(s.stock_)
    red = list(s.red_threes_[side])
    foot = list(s.feet_[p])
    cards, unreplaced = lay_threes(r, foot, stock, red) if any(r.laid_at_once) else (foot, False)
    hand = tuple(sorted(s.hands_[p] + tuple(cards)))
    t = s.turn
    # the foot was picked up on the strength of the table: nothing laid before it
    # can be taken back (a take-back could undo the canasta that allowed it)
    turn = t if not t.laid else new_turn(t.took_pile, t.melded, t.points, t.pending, t.asked,
                                         t.asker, t.drawn, t.played, (), t.backs)
    s2 = rebuild(
        s, hands=with_item(s.hands_, p, hand), feet=with_item(s.feet_, p, ()), stock=tuple(stock),
        red=with_item(s.red_threes_, side, tuple(red)), turn=turn,
    )
    if unreplaced and not plays_on(s2, p, s.phase):
        # the stock ran out on a 3 of the foot, leaving no card to end the turn with: as
        # when the last card drawn is a red 3 (threes.red_last_card), the hand ends
        return end_hand(s2, "stock", -1, False, False)
    return s2


_NOTHING_TO_ASK = "you cannot go out this turn, so there is nothing to ask"


def ask_step(s: GameState, c: Ctx, build: bool) -> GameState | str | None:
    r = c.r
    p = c.p
    if not r.ask_partner or r.partner[p] < 0:
        return "there is no partner to ask in this variant"
    t = s.turn
    if t.asked != NOT_ASKED or t.asker >= 0:
        return "you have already asked this turn"
    once = r.ask_once
    if once and s.asked_before[p]:
        return "you have already asked your partner this hand: a player may ask only once a hand"
    if r.ask_advice:
        return _advice_step(s, c, build)
    if t.melded and not r.ask_late:
        # the question comes before the player lays anything this turn (Pagat; going_out.ask_after_laying)
        return "ask before you meld: you have already laid cards this turn"
    if r.fast.quick_out and quick_out(r, c.counts, c.info, c.hand) is None:
        return _NOTHING_TO_ASK
    q = probe(s)
    q.asked = TOLD_YES
    if not can_go_out(s, q):
        return _NOTHING_TO_ASK
    q.asked = TOLD_NO
    if not can_finish(s, q):
        return "you could not finish the turn without going out, so there is nothing to ask"
    if not build:
        return None
    return rebuild(
        s, phase=ANSWER, current=r.partner[p],
        # the partner answers about the table as it is: no take-back after asking
        turn=new_turn(t.took_pile, t.melded, t.points, t.pending, NOT_ASKED, p, t.drawn, t.played,
                      (), t.backs),
        # the question is spent whatever the answer (going_out.ask_once)
        asked_before=with_item(s.asked_before, p, True) if once else None,
    )


def _advice_step(s: GameState, c: Ctx, build: bool) -> GameState | str | None:
    """Ask the side's advice (``going_out.ask_advice``): a player holding one card who can go out.

    The answer binds nothing, so the turn keeps everything, cards laid that may
    still be taken back included; only ``asker`` records that the player asked.
    """
    t = s.turn
    if len(c.hand) != 1:
        return "ask for advice when you hold one card and can go out"
    if not can_go_out(s, probe(s)):
        return _NOTHING_TO_ASK
    if not build:
        return None
    p = c.p
    return rebuild(
        s, phase=ANSWER, current=c.r.partner[p],
        turn=new_turn(t.took_pile, t.melded, t.points, t.pending, NOT_ASKED, p, t.drawn, t.played,
                      t.laid, t.backs),
        asked_before=with_item(s.asked_before, p, True) if c.r.ask_once else None,
    )


