"""Laying cards: new melds and adds, with the opening minimum and the no-dead-end check.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from canasta.engine.constructors import new_laid, new_state, new_turn
from canasta.engine.facts import (
    Probe,
    asking_required,
    dead_error,
    foot_available,
    natural_opening_error,
    opening_by_points,
    opening_met,
    opening_minimum,
    opening_text,
    rebuild,
    wild_join_error,
    with_item,
)
from canasta.engine.going_out import going_out_error, opening_need
from canasta.engine.hand_end import end_hand
from canasta.engine.kinds import BLACK_THREE, KIND, remove_kinds
from canasta.engine.melds import (
    add_fit,
    find_closed_sequence,
    find_sequence,
    grow_end,
    holds,
    kind_needs,
    make_meld,
    may_lay_new,
    meld_rule_text,
    meld_shape,
    no_nth_text,
    sequence_end,
    sequence_span_error,
    suited_codes,
)
from canasta.engine.moves import (
    RED_THREE,
    SEQUENCE,
    WILD_TARGET,
    Add,
    AddToSequence,
    Combine,
    JoinSequences,
    Meld,
    MeldSequence,
    Move,
    TakeBack,
    card_name,
    kind_name,
    meld_ref,
    span_name,
)
from canasta.engine.oracle import can_finish, concealed_possible
from canasta.engine.state import (
    TOLD_NO,
    TOLD_YES,
    GameState,
    Laid,
    MeldGroup,
    Turn,
)

if TYPE_CHECKING:
    from canasta.engine.facts import Ctx
    from canasta.engine.tables import Rules


#: Why a meld of black 3s is refused where they may be melded only in going out.
BLACK_OUT_ONLY: Final = "black 3s may be melded only when going out"


def play_cards(
    s: GameState, c: Ctx, move: Move, kinds: Sequence[int], index: int, rank: int, build: bool,
    codes: Sequence[int] | None = None, suit: int = -1, grow: bool = False,
) -> GameState | str | None:
    """Common end of a meld or add: move ``kinds`` from hand to meld ``index`` (or a new one).

    ``codes``: the exact cards, where the suit matters (a sequence's cards,
    which the caller has found in the hand); ``suit``: the sequence's suit;
    ``grow``: the card grows a closed sequence past its closing size
    (``sequences.grow_when_going_out``), legal only if the player can still go
    out after it. The steps: the cards held (:func:`_missing`), the meld laid
    (:func:`_laid_melds`), the turn's record after it, with the opening
    minimum (:func:`_turn_after`), whether the turn can still end
    (:func:`_turn_end`: dead ends, and what emptying the hand does), and the
    state built (:func:`_record`).
    """
    missing = _missing(c.counts, kinds)
    if missing is not None:
        return missing
    t = c.turn
    r = c.r
    # a sequence grown past its closing size binds the turn to go out, as a yes does
    grown = r.seq_grow and (grow or c.info.grown)
    # the common case: an opened side keeps two cards, so a discard always
    # remains and the turn can be finished (what can_finish would say)
    keeps_two = (
        c.opened and t.asked != TOLD_YES and not grown and rank != BLACK_THREE
        and len(c.hand) - len(kinds) >= 2
    )
    if keeps_two and not build:
        return None
    if rank == BLACK_THREE and r.black_out_only and len(c.hand) - len(kinds) > 1:
        # refused below whatever the melds (the hand must end this turn with this
        # meld, and cards of the pile joining an opening only add to it): said
        # before the melds and their info are built
        return BLACK_OUT_ONLY
    rest, used = _from_hand(c.hand, kinds, codes)
    q = _turn_after(s, c, kinds, rest, used, _laid_melds(c, used, index, rank, suit))
    going_out = False
    if not keeps_two:
        ended = _turn_end(s, c, move, q, rank, grow, grown)
        if isinstance(ended, str):
            return ended
        going_out = ended
    if not build:
        return None
    return _record(s, c, q, used, index, going_out)


def _missing(counts: Sequence[int], kinds: Sequence[int]) -> str | None:
    """Why a hand with ``counts`` of each kind cannot lay ``kinds``, or ``None``."""
    if len(kinds) == 1:
        if not counts[kinds[0]]:
            return f"you do not hold {kind_name(kinds[0])}"
        return None
    for k, n in kind_needs(tuple(kinds)):
        if counts[k] < n:
            return f"you do not hold {' '.join(kind_name(k) for k in kinds)}"
    return None


def _from_hand(hand: tuple[int, ...], kinds: Sequence[int], codes: Sequence[int] | None) -> tuple[list[int], list[int]]:
    """``hand`` without the cards laid, and those cards: ``codes`` exactly, the rest of
    ``kinds`` (wild cards) by kind."""
    if codes is None:
        got = remove_kinds(hand, kinds)
        assert got is not None
        return got
    rest, used = remove_codes(hand, codes)
    if len(codes) < len(kinds):
        others = list(kinds)
        for code in codes:
            others.remove(KIND[code])
        got = remove_kinds(rest, others)
        assert got is not None
        rest, more = got
        used += more
    return rest, used


def _laid_melds(c: Ctx, used: list[int], index: int, rank: int, suit: int) -> tuple[MeldGroup, ...]:
    """The side's melds with ``used`` laid on meld ``index`` (``-1``: as a new meld of ``rank``)."""
    r = c.r
    melds = list(c.melds)
    if index < 0:
        melds.append(make_meld(r, rank, used, suit))
    else:
        melds[index] = make_meld(r, rank, melds[index].cards + tuple(used), suit)
    return tuple(melds)


def _turn_after(
    s: GameState, c: Ctx, kinds: Sequence[int], rest: list[int], used: list[int],
    melds: tuple[MeldGroup, ...],
) -> Probe:
    """The turn's record after laying ``used`` (of ``kinds``) from the hand, ``rest`` staying,
    the side's melds then ``melds``: its points, and whether the side opens with them (the
    pile's cards held aside then join the hand)."""
    t = c.turn
    opened = c.opened
    pending = t.pending
    hand = tuple(rest)
    # the new hand's counts, for the probes and the next Ctx (see GameState._counts)
    left = list(c.counts)
    for k in kinds:
        left[k] -= 1
    counts_after: tuple[int, ...] | None = tuple(left)
    total = t.points
    if not opened:
        value = c.r.code_value
        for card in used:
            total += value[card]
        if opening_met(s, c.side, total, melds, t.took_pile):
            opened = True
            if pending:
                hand = tuple(sorted(hand + pending))
                pending = ()
                counts_after = None
    return Probe(hand, melds, opened, total, pending, t.asked, t.took_pile, counts_after)


def _turn_end(
    s: GameState, c: Ctx, move: Move, q: Probe, rank: int, grow: bool, grown: bool,
) -> str | bool:
    """Whether the turn can still end after ``move`` (``q``: the turn then): why not, or
    whether the move goes out (the hand emptied: :func:`_hand_emptied`)."""
    if not q.hand:
        return _hand_emptied(s, move, q, c.turn.asked == TOLD_YES or grown)
    if rank == BLACK_THREE and c.r.black_out_only:
        # only as part of going out: the hand must end this turn with this meld
        if len(q.hand) > 1 or going_out_error(s, q):
            return BLACK_OUT_ONLY
        return False
    if can_finish(s, q):
        return False
    return _dead_end_text(s, c, move, q.opened, grow, grown)


def _dead_end_text(s: GameState, c: Ctx, move: Move, opened: bool, grow: bool, grown: bool) -> str:
    """Why ``move`` is refused where the turn could not be finished after it: the rule that
    binds the turn (a grown sequence, the partner's answer, the opening still to make)."""
    t = c.turn
    most = c.r.seq_max
    if grow:
        if t.asked == TOLD_NO:
            return (
                f"a sequence closed at {most} cards may grow only as part of going out, and "
                "your partner said no"
            )
        if t.asked != TOLD_YES and asking_required(s):
            return (
                f"a sequence closed at {most} cards may grow only as part of going out, and "
                "going out needs your partner's yes: ask before you meld"
            )
        return (
            f"a sequence closed at {most} cards may grow only as part of going out: after "
            f"'{move}' you could not go out this turn"
        )
    if grown:
        return (
            f"after '{move}' you could no longer go out, and a sequence grown past "
            f"{most} cards this turn must go out"
        )
    if t.asked == TOLD_YES:
        return f"after '{move}' you could no longer go out, and your partner said yes"
    if not opened:
        side = c.side
        if opening_by_points(s, side):
            return (
                f"after '{move}' the side could no longer reach its opening minimum of "
                f"{opening_minimum(s, side)} points with a card left to discard"
            )
        return (
            f"after '{move}' the side could no longer make its opening of "
            f"{opening_text(s, side)} with a card left to discard"
        )
    if t.asked == TOLD_NO:
        return f"after '{move}' you would have to go out, and your partner said no"
    return f"after '{move}' you could not finish the turn legally (keep a card to discard)"


def _record(s: GameState, c: Ctx, q: Probe, used: list[int], index: int, going_out: bool) -> GameState:
    """The state after laying ``used`` on meld ``index`` (``q``: the turn then), and the hand's
    end where the move goes out."""
    t = c.turn
    r = c.r
    p = c.p
    side = c.side
    opened = q.opened
    s2 = new_state(
        s.variant, s.seed, s.hand_number, s.dealer, s.scores, s.history, s.phase, p,
        with_item(s.hands_, p, q.hand), s.feet_, s.stock_, s.pile_, with_item(s.melds_, side, q.melds),
        s.red_threes_, s.opened if opened == c.opened else with_item(s.opened, side, opened),
        s.melded_before,
        new_turn(t.took_pile, True, q.points, q.pending, t.asked, t.asker, t.drawn, t.played + tuple(used),
                 _logged(t, index, len(c.melds), used, c.opened) if r.rearrange else t.laid,
                 t.backs),
        # the same player moves next: its Ctx takes the probe's counts instead of counting the hand again
        s.end, r, s.talons_, s.asked_before, (q.hand, q.counts),
    )
    if going_out:
        return end_hand(s2, "out", p, concealed_possible(s, t.took_pile), False)
    return s2


def _hand_emptied(s: GameState, move: Move, q: Probe, bound: bool) -> str | bool:
    """What melding the last card of the hand does, ``q`` being the table after it: why it is
    refused, or whether it goes out (``False``: the player plays on with the foot).

    Where the foot may be picked up, the player picks it up and plays on once the
    side has opened (the opening is made from the hand's cards), unless
    ``bound`` to go out this turn (the partner's yes, a sequence grown past its
    closing size): the yes was for the cards held, not for the foot's hidden ones,
    so the last card goes out with the foot still down where
    ``going_out.foot_first`` is off (on, the going-out rule refuses the meld).
    """
    p = s.current
    if bound or not foot_available(s, p, 0, q.melds):
        if not s.rules.final_optional:
            return f"'{move}' would leave you no card: in this variant you go out by discarding"
        err = going_out_error(s, q)
        if err:
            return f"'{move}' would meld your last card, but {err}"
        return True
    if not q.opened:
        # the foot's cards are hidden, so whether they could still make the opening is
        # unknown: the opening is made from the hand's cards, before the foot is reached
        side = s.rules.side_of[p]
        return (
            f"'{move}' would empty your hand before the side has opened: the melds laid this turn "
            f"total {q.points} points, and the opening needs {opening_need(s, side)} before you "
            "pick up your foot"
        )
    if len(s.feet_[p]) < 2 and not can_finish(s, q):
        # the foot, picked up next, holds a single card: it must leave a way to end the turn
        return (
            f"'{move}' would leave you only your foot's one card, which you could neither "
            "discard nor go out with this turn"
        )
    return False


def quick_play(c: Ctx) -> bool:
    """Whether the position lets :func:`add_fits` and :func:`meld_fits` decide its candidate
    adds and new melds (``legal_moves`` asks once per position).

    True when the variant's fast paths include ``quick_shapes`` (no rule bars a
    card by its rank: :class:`~canasta.engine.fastpaths.FastPaths`), the side has
    opened, no yes binds the turn to go out, no sequence grew past its closing
    size this turn, and no natural canasta an opening turn must keep: then a candidate
    that leaves two cards in hand reaches :func:`play_cards`'s ``keeps_two`` with
    nothing left to refuse it but its meld's shape.
    """
    r = c.r
    return (
        c.opened and c.turn.asked != TOLD_YES and not (r.seq_grow and c.info.grown)
        and r.fast.quick_shapes and not (r.open_natural and c.turn.points)
    )


def add_fits(c: Ctx, m: Add) -> bool | None:
    """Whether the candidate add ``m`` is legal where :func:`quick_play` holds, or ``None``
    when its step must decide (the hand would keep fewer than two cards, or suits matter).

    A candidate names an open meld of the side and a card the hand holds that
    may join it (see :mod:`canasta.engine.candidates`); what remains is the
    shape of the meld it makes, which :func:`add_step` checks the same way.
    """
    if len(c.hand) < 3 or m.suit != -1:
        return None
    r = c.r
    target = m.target
    info = c.info
    nth = m.meld
    oi = info.index.get(target, -1) if nth == 0 else info.open_at(target, nth)
    if oi < 0 or target == BLACK_THREE:
        return None
    om = c.melds[oi]
    natural, wild = add_fit(r, target, om.naturals, om.wilds)
    if r.is_wild[m.kind]:
        return wild
    return m.kind == target and natural


def meld_fits(c: Ctx, m: Meld) -> bool | None:
    """Whether the candidate new meld ``m`` is legal where :func:`quick_play` holds, or
    ``None`` when its step must decide (suits, black 3s, the hand keeping fewer
    than two cards, a rank the side already has)."""
    if m.suits or len(c.hand) - len(m.kinds) < 2:
        return None
    r = c.r
    shape = _candidate_shape(r, m.kinds)
    if isinstance(shape, str):
        return False
    if shape == BLACK_THREE or r.suited[shape] or (
        shape in c.info.present and not r.several[shape]
    ):
        return None
    return True


@lru_cache(maxsize=4096)
def _candidate_shape(r: Rules, kinds: tuple[int, ...]) -> int | str:
    """:func:`meld_shape` of a candidate's cards (always a tuple of card kinds), kept:
    candidates repeat from hand to hand."""
    return meld_shape(r, kinds)


def meld_step(s: GameState, c: Ctx, m: Meld, build: bool) -> GameState | str | None:
    shape = meld_shape(c.r, m.kinds)
    if isinstance(shape, str):
        return shape
    rank = shape
    info = c.info
    if c.r.dead_on:
        dead = dead_error(s, rank)
        if dead is not None:
            return dead
    if (c.r.late_on or c.r.wild_lock) and rank != WILD_TARGET and any(c.r.is_wild[k] for k in m.kinds):
        why = wild_join_error(c.r, c.opened, c.turn, c.melds, rank, sum(not c.r.is_wild[k] for k in m.kinds))
        if why is not None:
            return why
    codes: list[int] | None = None
    if m.suits or c.r.suited[rank]:
        naturals = [k for k in m.kinds if not c.r.is_wild[k]]
        got = suited_codes(c.r, rank, len(naturals), m.suits, _example(c, m))
        if isinstance(got, str):
            return got
        if got is not None:
            if not holds(c.hand, got):
                return f"you do not hold {' '.join(card_name(x >> 2, x & 3) for x in got)}"
            codes = got
    if not may_lay_new(c.r, info, rank):
        label = c.r.meld_kinds[rank].label(rank)
        if rank in info.index:
            return f"your side already has a meld of {label}: add to it"
        return f"your side already has a meld of {label}"
    return play_cards(s, c, m, m.kinds, -1, rank, build, codes)


def _example(c: Ctx, m: Meld) -> str:
    """``m`` as it is written in this variant: with suits where they matter, without elsewhere."""
    r = c.r
    naturals = [k for k in m.kinds if not r.is_wild[k]]
    rank = naturals[0] if naturals else 0
    if not r.suited[rank]:
        return str(Meld(m.kinds))
    held = [x for x in c.hand if x >> 2 == rank] or [rank * 4 + x for x in range(4)]
    suits = [held[i % len(held)] & 3 for i in range(len(naturals))]
    return str(Meld(m.kinds, tuple(suits)))


def meld_sequence_step(s: GameState, c: Ctx, m: MeldSequence, build: bool) -> GameState | str | None:
    """Lay a new sequence from the hand (``sequences.*``)."""
    r = c.r
    suit, low, high = m.suit, m.low, m.high
    if not r.seq_on:
        return "this variant has no sequences: a meld holds natural cards of one rank"
    if not (0 <= suit <= 3 and 2 <= low <= high <= 14):
        return f"'{m}' does not name a sequence"
    error = sequence_span_error(r, low, high)
    if error is not None:
        return error
    if high - low + 1 != r.seq_min:
        return f"lay a new sequence with exactly {r.seq_min} cards, then add cards one at a time"
    wild, gap = m.wild, m.gap
    if wild or gap:
        error = _wild_gap_error(r, m)
        if error is not None:
            return error
        if not c.counts[wild]:
            return f"you do not hold {kind_name(wild)}"
    naturals = [k for k in range(low, high + 1) if k != gap]
    codes = [k * 4 + suit for k in naturals]
    hand = c.hand
    if any(code not in hand for code in codes):
        return f"you do not hold {' '.join(card_name(k, suit) for k in naturals)}"
    return play_cards(s, c, m, [*naturals, wild] if wild else naturals, -1, SEQUENCE, build, codes, suit)


def _wild_gap_error(r: Rules, m: MeldSequence) -> str | None:
    """Why the wild card of the new sequence ``m`` may not stand where it does, or ``None``."""
    if not r.seq_wild:
        return f"'{m}': a sequence holds natural cards only in this variant"
    if not r.is_wild[m.wild]:
        return f"'{m}': {kind_name(m.wild)} is not a wild card in this variant"
    if not m.low < m.gap < m.high:
        return (
            f"'{m}': a wild card in a sequence stands between two of its natural cards, "
            "never at an end"
        )
    return None


def add_sequence_step(s: GameState, c: Ctx, m: AddToSequence, build: bool) -> GameState | str | None:
    """Add one card from the hand to an end of the side's sequence."""
    suit, low, high, rank = m.suit, m.low, m.high, m.rank
    if not c.r.seq_on:
        return "this variant has no sequences"
    if not (0 <= suit <= 3 and 2 <= low <= high <= 14 and 2 <= rank <= 14):
        return f"'{m}' does not name a sequence and a card"
    r = c.r
    index = find_sequence(c.info, suit, low, high)
    # a closed sequence may still grow as part of going out (sequences.grow_when_going_out)
    grow = index < 0 and r.seq_grow and find_closed_sequence(c.info, suit, low, high) >= 0
    if grow:
        index = find_closed_sequence(c.info, suit, low, high)
        error = grow_end(r, suit, low, high, rank)
    else:
        error = sequence_end(r, c.info, c.melds, suit, low, high, rank)
    if error is not None:
        return error
    code = rank * 4 + suit
    if code not in c.hand:
        return f"you do not hold {card_name(rank, suit)}"
    return play_cards(s, c, m, _ONE[rank], index, SEQUENCE, build, (code,), suit, grow)


# one-card kind lists, shared instead of built per call
_ONE: Final = [(k,) for k in range(16)]


def combine_step(s: GameState, c: Ctx, m: Combine, build: bool) -> GameState | str | None:
    """Combine two of the side's open melds of one rank into one (``melds.duplicate_ranks: any``).

    The cards of the second join the first, which keeps its place; the rest is
    :func:`_regroup`'s, as for a join of two sequences.
    """
    r = c.r
    if not r.dup_any:
        return "in this variant a side has one meld of each rank: there is nothing to combine"
    target, first, second = m.target, m.first, m.second
    if not r.is_natural[target]:
        return f"only melds of one natural rank combine, not melds of {kind_name(target)}"
    label = r.meld_kinds[target].label(target)
    if not (type(first) is int and type(second) is int and 0 <= first < second):
        return f"name two different melds of {label}, the first one first (e.g. 'combine {meld_ref(target, 0)} {meld_ref(target, 1)}')"
    i, j = c.info.open_at(target, first), c.info.open_at(target, second)
    if i < 0 or j < 0:
        return no_nth_text(c.r, c.info, target, second if i >= 0 else first)
    melds = c.melds
    mi, mj = melds[i], melds[j]
    n, w = mi.naturals + mj.naturals, mi.wilds + mj.wilds
    if not r.meld_kinds[target].valid(n, w, False):
        return f"the two melds of {label} together would break the meld rules: {meld_rule_text(r, target, n, w)}"
    merged = make_meld(r, target, mi.cards + mj.cards)
    return _regroup(s, c, m, i, j, merged, build)


def _regroup(s: GameState, c: Ctx, m: Move, i: int, j: int, merged: MeldGroup, build: bool) -> GameState | str | None:
    """Common end of a combine or a join: the side's melds ``i`` and ``j`` become ``merged``, at ``i``.

    No card leaves the hand, so the turn's points are untouched; the merged
    meld may be the canasta an opening asks for (Brazilian's tiers), and the
    turn must still be finishable (two canastas merged into one may leave a
    side short of the canastas going out needs).
    """
    after = tuple(merged if x == i else mm for x, mm in enumerate(c.melds) if x != j)
    t = c.turn
    hand, pending, opened = c.hand, t.pending, c.opened
    counts: tuple[int, ...] | None = c.counts
    if not opened and opening_met(s, c.side, t.points, after, t.took_pile):
        # the side opens, and pile cards held aside join the hand
        opened = True
        if pending:
            hand, pending, counts = tuple(sorted(hand + pending)), (), None
    q = Probe(hand, after, opened, t.points, pending, t.asked, t.took_pile, counts)
    if not can_finish(s, q):
        if t.asked == TOLD_YES:
            return f"after '{m}' you could no longer go out, and your partner said yes"
        return f"after '{m}' you could not finish the turn legally"
    if not build:
        return None
    # cards moved between melds: what was laid before can no longer be taken back
    turn = new_turn(t.took_pile, t.melded, t.points, pending, t.asked, t.asker, t.drawn, t.played, (), t.backs)
    side = c.side
    return rebuild(
        s, hands=with_item(s.hands_, c.p, hand), melds=with_item(s.melds_, side, after),
        opened=s.opened if opened == c.opened else with_item(s.opened, side, opened), turn=turn,
    )


def join_step(s: GameState, c: Ctx, m: JoinSequences, build: bool) -> GameState | str | None:
    """Join two of the side's open sequences of one suit that meet end to end (``sequences.join``)."""
    r = c.r
    if not r.seq_on:
        return "this variant has no sequences"
    if not r.seq_join:
        return "in this variant sequences are never joined"
    suit, low, middle, high = m.suit, m.low, m.middle, m.high
    if not (0 <= suit <= 3 and 2 <= low < middle <= high <= 14):
        return f"'{m}' does not name two sequences that meet end to end"
    info = c.info
    i = find_sequence(info, suit, low, middle - 1)
    j = find_sequence(info, suit, middle, high)
    if r.seq_grow:
        # closed sequences may grow as part of going out (sequences.grow_when_going_out): join too
        i = i if i >= 0 else find_closed_sequence(info, suit, low, middle - 1)
        j = j if j >= 0 else find_closed_sequence(info, suit, middle, high)
    if i < 0 or j < 0:
        missing = span_name(suit, low, middle - 1) if i < 0 else span_name(suit, middle, high)
        return f"your side has no open sequence {missing}"
    error = sequence_span_error(r, low, high, r.seq_grow)
    if error is not None:
        return f"the two sequences joined would break the sequence rules: {error}"
    melds = c.melds
    merged = make_meld(r, SEQUENCE, melds[i].cards + melds[j].cards, suit)
    result = _regroup(s, c, m, min(i, j), max(i, j), merged, build)
    most = r.seq_max
    if isinstance(result, str) and most is not None and high - low + 1 > most:
        # past the closing size only as part of going out, as a grown sequence
        return (
            f"a sequence may pass {most} cards only as part of going out: after '{m}' you could "
            "not go out this turn"
        )
    return result


def add_step(s: GameState, c: Ctx, m: Add, build: bool) -> GameState | str | None:
    r = c.r
    melds = c.melds
    target = m.target
    if not (isinstance(target, int) and 0 <= target <= 15) or not (
        isinstance(m.kind, int) and 1 <= m.kind <= 15
    ):
        return f"'add {target} {m.kind}' does not name a meld and a card"
    nth = m.meld
    oi = c.info.index.get(target, -1) if nth == 0 else c.info.open_at(target, nth)
    if oi < 0:
        label = r.meld_kinds[target].label(target)
        if nth != 0:
            return no_nth_text(c.r, c.info, target, nth)
        if any(mm.rank == target for mm in melds):
            return f"your side's meld of {label} is complete and closed"
        return f"your side has no meld of {label}"
    if target == BLACK_THREE:
        return "a meld of black 3s is laid whole when going out"
    if r.dead_on:
        dead = dead_error(s, target)
        if dead is not None:
            return dead
    k = m.kind
    if k == RED_THREE:
        return "red 3s are laid on their own, never melded"
    wild = r.is_wild[k]
    if not wild and k != target:
        label = r.meld_kinds[target].label(target)
        return f"a {kind_name(k)} cannot join the meld of {label}"
    om = melds[oi]
    if wild and (r.late_on or r.wild_lock):
        why = wild_join_error(r, c.opened, c.turn, melds, target, om.naturals)
        if why is not None:
            return why
    if wild and r.open_natural:
        why = natural_opening_error(s, c, oi)
        if why is not None:
            return why
    n = om.naturals + (0 if wild else 1)
    j = om.wilds + (1 if wild else 0)
    if not r.meld_kinds[target].valid(n, j, False):  # the kind directly: a hot path
        return meld_rule_text(r, target, n, j)
    suit = m.suit
    if suit != -1 or r.suited[k]:
        if wild or not r.suited[k]:
            return f"suits do not matter for {kind_name(k)}s in this variant: write 'add {kind_name(target)} {kind_name(k)}'"
        if not (type(suit) is int and 0 <= suit <= 3):
            return (
                f"suits matter in this variant (sequences): name the suit of the {kind_name(k)}, "
                f"e.g. 'add {kind_name(target)} {card_name(k, 2)}'"
            )
        code = k * 4 + suit
        if code not in c.hand:
            return f"you do not hold {card_name(k, suit)}"
        return play_cards(s, c, m, _ONE[k], oi, target, build, (code,))
    return play_cards(s, c, m, _ONE[k], oi, target, build)




#: Take-backs a player may make in one turn (``melds.rearrange``). A table
#: would not count them, but an engine must: without a bound, random players
#: could lay and take back the same cards forever. Eight rearrange any turn a
#: player would plausibly play.
MAX_TAKE_BACKS: Final = 8


def _logged(t: Turn, index: int, count: int, used: Sequence[int], opened: bool) -> tuple[Laid, ...]:
    """The turn's take-back log after a step laying ``used`` (only where ``melds.rearrange`` is on)."""
    where = count if index < 0 else index
    return (*t.laid, new_laid(where, index < 0, tuple(used), t.points, opened, t.pending))


def back_step(s: GameState, c: Ctx, m: TakeBack, build: bool) -> GameState | str | None:
    """Take back the last meld or add laid this turn: the turn returns to where it stood before it."""
    t = c.turn
    if not c.r.rearrange:
        return "in this variant cards laid on the table stay there"
    if not t.laid:
        return "nothing laid from your hand this turn can be taken back"
    if t.backs >= MAX_TAKE_BACKS:
        return f"a player may take back at most {MAX_TAKE_BACKS} times in a turn"
    if not build:
        return None
    r = c.r
    e = t.laid[-1]
    melds = list(c.melds)
    if e.new:
        melds.pop(e.index)
    else:
        rest, _taken = remove_codes(melds[e.index].cards, e.cards)
        melds[e.index] = make_meld(r, melds[e.index].rank, rest, melds[e.index].suit)
    hand = list(c.hand) + list(e.cards)
    pending = t.pending
    if e.pending and not pending:
        # the step opened the side and put the held-aside pile cards in the hand
        hand, _taken = remove_codes(hand, e.pending)
        pending = e.pending
    played = t.played[: len(t.played) - len(e.cards)]
    turn = new_turn(t.took_pile, bool(played), e.points, pending, t.asked, t.asker, t.drawn, played,
                    t.laid[:-1], t.backs + 1)
    side, p = c.side, c.p
    return rebuild(
        s, hands=with_item(s.hands_, p, tuple(sorted(hand))),
        melds=with_item(s.melds_, side, tuple(melds)),
        opened=with_item(s.opened, side, e.opened), turn=turn,
    )


def remove_codes(cards: Sequence[int], codes: Sequence[int]) -> tuple[list[int], list[int]]:
    """``cards`` without one of each of ``codes`` (exact cards, not kinds), and those removed."""
    rest = list(cards)
    taken = []
    for code in codes:
        rest.remove(code)
        taken.append(code)
    return rest, taken
