"""The exact "can this turn still be finished?" oracle.

No dead ends: a step inside the play phase is accepted only if the turn can
still be finished legally afterwards (the opening minimum reached with a card
left to discard, a partner's "yes" honoured, and so on). The searches of
:mod:`canasta.engine.searches` (:func:`outcomes`, a small dynamic programme
over ranks of what the player's hand can still add to the side's melds)
decide; :func:`greedy_plan` answers most going-out questions before the full
search runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from canasta.engine.facts import (
    OPEN_NATURAL_CANASTA,
    OPEN_NO_CANASTA,
    asking_required,
    dead_ranks_after,
    foot_available,
    may_discard_last,
    opening_canasta,
    opening_minimum,
    partner_foot_down,
    probe,
    wild_meld_locks,
)
from canasta.engine.greedy import (
    OutQuestion,
    clean_opens,
    greedy_fits,
    greedy_opens,
    greedy_out,
    opening_bounds,
)
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.melds import count_canastas, meld_info
from canasta.engine.moves import WILD_TARGET
from canasta.engine.searches import Outcomes, outcomes
from canasta.engine.sequence_search import sequence_outcomes
from canasta.engine.state import (
    TOLD_NO,
    TOLD_YES,
    GameState,
    MeldGroup,
)

if TYPE_CHECKING:
    from canasta.engine.facts import Probe
    from canasta.engine.melds import MeldInfo
    from canasta.engine.tables import Rules


def concealed_possible(s: GameState, took: bool) -> bool:
    return s.rules.concealed and not took and not s.melded_before[s.current]


def _stranded(r: Rules, counts: tuple[int, ...], info: MeldInfo, allow_black: bool, hand: Sequence[int]) -> bool:
    """A quick test: must more than one card stay in hand (ranks that cannot be melded)?

    Going out leaves at most one card, so this settles the question without the
    full search; it stops at the second stranded card. ``hand``: the cards of ``counts``,
    for the natural cards no sequence can hold (:func:`_sequence_strays`).
    """
    # cards no meld takes (Rules.stray_kinds) stay in hand
    left = 0
    for k in r.stray_kinds:
        left += counts[k]
    # (where 3s are wild, black 3s are among the wild cards, as the listing has them)
    b = counts[BLACK_THREE] if r.black_apart else 0
    if b and not (allow_black and r.valid(BLACK_THREE, b, 0, True)):
        left += b
    if r.seq_on:
        left += _sequence_strays(r, counts, info, hand)
    if left > 1:
        return True
    present = info.present
    need = r.min_nat
    size = r.new_size
    loose = info.loose
    if loose is None:
        # neither a rank the side has open (its cards may join the meld) nor one a
        # sequence may hold (they may join a run)
        index = info.index
        in_seq = r.in_seq
        ranks = []
        for k in r.natural_kinds:
            if not in_seq[k] and k not in index:
                ranks.append(k)
        loose = info.loose = tuple(ranks)
    short: list[int] | None = None  # the naturals held of each such rank
    for k in loose:
        c = counts[k]
        if not c:
            continue
        if c < need:
            if k not in present:
                left += c
                if left > 1:
                    return True
        elif c < size:
            # enough naturals for a new meld, too few for its size: the rest must be
            # wild cards (a new meld is laid with exactly new_size cards)
            if short is None:
                short = []
            short.append(c)
    if short is None:
        return False
    # The wild cards held complete some of the short ranks at most; the cards of
    # the others stay. A lower bound on what stays: fill the wild cards' budget
    # with the ranks that save the most cards per wild card, the last one in part.
    budget = 0
    for w in r.wild_kinds:
        budget += counts[w]
    # c naturals need size - c wild cards: c / (size - c) grows with c, so the
    # ranks with the most naturals save the most per wild card
    short.sort(reverse=True)
    saved = 0.0
    total = 0
    for c in short:
        w = size - c
        total += c
        if budget >= w:
            saved += c
            budget -= w
        elif budget > 0:
            saved += c * budget / w
            budget = 0
    return left + total - int(saved) > 1


def _sequence_strays(r: Rules, counts: tuple[int, ...], info: MeldInfo, hand: Sequence[int]) -> int:
    """The natural cards of ``hand`` of ranks a sequence may hold that must stay in hand:
    too few of the rank for a new meld of it, none on the side's table, and no run of
    their suit to join (:func:`_in_a_run`). A bound, not a plan: every card of the suit
    in hand and every rank the side's sequences span count as there for each card."""
    need = r.min_nat
    present = info.present
    lonely = [k for k in r.seq_ranks if 0 < counts[k] < need and k not in present]
    if not lonely:
        return 0
    suits = _suit_ranks(r, hand, info)
    # a wild card may stand in one gap of a new sequence (sequences.wild_in_gap)
    wild = r.seq_wild and any(counts[w] for w in r.wild_kinds)
    strays = 0
    for card in hand:
        k = card >> 2
        if KIND[card] == k and k in lonely and not _in_a_run(r, suits[card & 3], k, wild):
            strays += 1
    return strays


def _in_a_run(r: Rules, mask: int, k: int, wild: bool) -> bool:
    """Whether the ranks of ``mask`` (one suit's, ``k`` among them) hold a run through ``k``
    as long as a sequence's least, or, with ``wild``, two runs that one wild card in the
    rank between them joins into one that long."""
    in_seq = r.in_seq

    def there(j: int) -> bool:
        return j >= 0 and bool(mask >> j & 1)  # (the mask holds ranks a sequence may hold only)

    def end(j: int, step: int) -> int:
        while there(j + step):
            j += step
        return j

    lo, hi = end(k, -1), end(k, 1)
    size = hi - lo + 1
    if size >= r.seq_min:
        return True
    if not wild:
        return False
    # the run across the gap just below, or just above (the gap's rank one a sequence holds)
    below = (lo - 1) - end(lo - 2, -1) if there(lo - 2) and in_seq[lo - 1] else 0
    above = end(hi + 2, 1) - (hi + 1) if there(hi + 2) and in_seq[hi + 1] else 0
    across = max(below, above)  # a wild card stands between natural cards, never at an end
    return across > 0 and size + 1 + across >= r.seq_min


def _canastas_reachable(r: Rules, counts: tuple[int, ...], info: MeldInfo, hand: Sequence[int] = ()) -> bool:
    """A quick necessary condition: could the side still have the canastas going out needs?"""
    need = r.req[0]
    melds = info.melds
    have = info.canasta_counts()[0]
    if have >= need:
        return True
    wilds = 0
    for k in r.wild_kinds:
        wilds += counts[k]
    index = info.index
    for k in r.natural_kinds:
        c = counts[k]
        oi = index.get(k, -1)
        if r.dup_any and oi >= 0:
            # several melds of the rank, which may combine into canastas: every card
            # of the rank on the table (a bound, not a plan)
            size = sum(len(melds[i].cards) for i in info.opens(k))
            if (c or size) and size + c + wilds >= r.canasta_size:
                have += 1 + (size + c + wilds) // r.canasta_size
            continue
        size = len(melds[oi].cards) if oi >= 0 else 0
        if size < r.canasta_size and (c or size) and size + c + wilds >= r.canasta_size:
            have += 1 + (c + wilds) // r.canasta_size  # generous: a bound, not a plan
    if r.wild_melds:
        # the side's open wild meld, completed by the wild cards held, then new ones
        wi = index.get(WILD_TARGET, -1)
        size = len(melds[wi].cards) if wi >= 0 else 0
        if 0 < size < r.canasta_size and size + wilds >= r.canasta_size:
            have += 1
        have += wilds // max(1, r.min_size)
    if r.seq_on:
        have += _sequences_reachable(r, hand, info)
    return have >= need


def _sequences_reachable(r: Rules, hand: Sequence[int], info: MeldInfo) -> int:
    """More sequence canastas than the side could still make: a bound, not a plan.

    Each new one needs ``sequences.canasta_size`` cards of one suit, from the
    hand or from an open sequence of that suit.
    """
    cards = [0, 0, 0, 0]
    in_seq = r.in_seq
    for card in hand:
        if in_seq[card >> 2]:
            cards[card & 3] += 1
    for _i, suit, low, high in info.sequences:
        cards[suit] += high - low + 1
    if r.seq_wild:
        # a wild card may stand in any suit's sequence (sequences.wild_in_gap): count each for every suit
        wild = r.is_wild
        extra = sum(1 for card in hand if wild[KIND[card]])
        return sum((n + extra) // r.seq_canasta for n in cards)
    return sum(n // r.seq_canasta for n in cards)


def natural_canasta_reachable(r: Rules, counts: tuple[int, ...], info: MeldInfo, hand: Sequence[int]) -> bool:
    """A quick necessary condition: could the side's melds (``info``), with ``hand``
    (``counts`` by kind), still hold a canasta that is not mixed: natural, wild or
    sequence, as an opening that needs a natural canasta asks (``OPEN_NATURAL_CANASTA``)?

    A bound, not a plan: a natural canasta needs the canasta's size in natural
    cards of one rank (in hand or in the side's melds of the rank), a wild one
    that many wild cards, and a sequence canasta a run of that many ranks of
    one suit, one of them a wild card's where ``sequences.wild_in_gap`` lets one
    stand in. Where none of these can be, the searches find no plan that opens
    (or goes out) with such a canasta, and are not asked.
    """
    have = info.canasta_counts()
    if have[0] > have[2]:
        return True
    melds = info.melds
    on_table = [0] * 17
    for m in melds:
        on_table[m.rank] += m.naturals if m.rank != WILD_TARGET else len(m.cards)
    for k in r.natural_kinds:
        n = counts[k] + on_table[k]
        if n and r.kind_of(k, n, 0) is not None:
            return True
    wilds = 0
    for k in r.wild_kinds:
        wilds += counts[k]
    n = wilds + on_table[WILD_TARGET]
    if r.wild_melds and n and r.kind_of(WILD_TARGET, n, n) is not None:
        return True
    return r.seq_on and _longest_run(r, hand, info, wilds > 0 and r.seq_wild) >= r.seq_canasta


def natural_canastas_most(r: Rules, counts: tuple[int, ...], melds: tuple[MeldGroup, ...]) -> int:
    """A quick bound: the most natural canastas ``melds`` could hold once every natural card of
    ``counts`` joins them. Those they hold, and for each natural rank, its cards in hand and
    in the side's melds of it that hold no wild card and are no canasta yet, as many times
    over as they make a canasta's size. Going out that asks more (``going_out.natural_canastas``)
    is out of reach, and the searches are not asked."""
    free = [0] * 17
    for m in melds:
        if m.rank in r.natural_kinds and not m.wilds and r.kind_of(m.rank, m.size, 0) is None:
            free[m.rank] += m.naturals
    most = count_canastas(r, melds)[1]
    for k in r.natural_kinds:
        most += (counts[k] + free[k]) // r.meld_kinds[k].canasta_size
    return most


def _suit_ranks(r: Rules, hand: Sequence[int], info: MeldInfo) -> list[int]:
    """By suit, a bit for each rank a sequence may hold that ``hand`` holds or the side's
    sequences (``info``, open or closed) span."""
    in_seq = r.in_seq
    suits = [0, 0, 0, 0]
    for card in hand:
        if in_seq[card >> 2]:  # (a wild rank is never one a sequence holds)
            suits[card & 3] |= 1 << (card >> 2)
    for _i, suit, low, high in (*info.sequences, *info.closed_sequences):
        suits[suit] |= (1 << (high + 1)) - (1 << low)
    return suits


def _longest_run(r: Rules, hand: Sequence[int], info: MeldInfo, gap: bool) -> int:
    """The most ranks in a row of one suit that the side's sequences and ``hand`` cover (a
    bound on a sequence's length), one rank missing allowed where ``gap`` (a wild card)."""
    in_seq = r.in_seq
    best = 0
    for bits in _suit_ranks(r, hand, info):
        for low in range(16):
            if not bits >> low & 1:
                continue
            missing = 0
            k = low
            while k + 1 < 16 and in_seq[k + 1] and (bits >> (k + 1) & 1 or (gap and not missing)):
                k += 1
                missing += not bits >> k & 1
            best = max(best, k - low + 1)
    return best


def quick_out(r: Rules, counts: tuple[int, ...], info: MeldInfo, hand: Sequence[int]) -> bool | None:
    """The quick test of going out for a player holding ``hand`` (``counts`` by kind) beside
    the side's melds (``info``): ``True`` when no card is stranded in hand and the canastas
    going out needs are within reach (the searches may find a way out), ``False`` when not
    but a black-3 out may remain, ``None`` when going out is surely out of reach this turn.

    :func:`can_go_out`'s first costly test; ``ask_step`` and the quick listing
    ask it before anything else costly (in most positions where a player may
    ask to go out, going out is hopeless).
    """
    if not _stranded(r, counts, info, r.black_melds, hand) and _canastas_reachable(r, counts, info, hand):
        return True
    return False if counts[BLACK_THREE] in r.black_out_held else None


def can_go_out(s: GameState, q: Probe) -> bool:
    """Whether the current player can still go out this turn from ``q``."""
    if _out_barred(s, q):
        return False
    r = s.rules
    counts = q.counts
    info = meld_info(r, q.melds)
    # with the fast paths off (canasta.engine.fastpaths) the searches decide every question
    quick = quick_out(r, counts, info, q.hand) if r.fast.quick_out else True
    if quick is None:
        # the common refusal (asking to go out is offered every turn), settled
        # before the facts that only the searches below need
        return False
    ask = _out_question(s, q)
    if ask.opening == OPEN_NATURAL_CANASTA and r.fast.natural_bound and not natural_canasta_reachable(
        r, counts, info, q.hand
    ):
        return False  # no plan can hold the natural canasta the opening asks (a quick bound)
    if r.req[1] and r.fast.natural_bound and natural_canastas_most(r, counts, q.melds) < r.req[1]:
        return False  # going out asks more natural canastas than the cards can make (a quick bound)
    if quick and _melds_out(r, q, ask):
        return True
    # black-3 out: everything else melded, exactly N black 3s kept, plus the discard
    n_out = r.black_out_cards
    return n_out is not None and counts[BLACK_THREE] in (n_out, n_out + 1) and _black_three_out(r, q, ask, n_out)


def _out_barred(s: GameState, q: Probe) -> bool:
    """Whether a rule bars going out from ``q`` whatever the cards: a partner's no, a foot
    to pick up first, the partner's foot still down, asking still owed, pile cards pending."""
    p = s.current
    if q.asked == TOLD_NO:
        return True
    if s.feet_[p] and s.rules.foot_first:
        # the foot must be picked up first (a move of its own); its cards are hidden
        return True
    if partner_foot_down(s):
        return True
    if q.asked != TOLD_YES and asking_required(s):
        # asking is a move of its own, made before laying anything
        return True
    # pile cards join the hand only once the opening is met from the hand
    return bool(q.pending)


def _out_question(s: GameState, q: Probe) -> OutQuestion:
    """The requirements a way out from ``q`` must meet (see :class:`OutQuestion`)."""
    r = s.rules
    side = r.side_of[s.current]
    need = 0 if q.opened else opening_minimum(s, side) - q.points
    waived = (not q.opened) and r.concealed_waives and concealed_possible(s, q.took)
    # the canasta an opening needs, unless the side has opened or goes out concealed
    # in the opening turn the canasta an opening asks is held to the turn's end (a wild
    # card may not turn the last natural one mixed: facts.natural_opening_error)
    owed = r.open_natural and q.points > 0
    oc = OPEN_NO_CANASTA if (q.opened and not owed) or waived else opening_canasta(s, side)
    return OutQuestion(
        need, waived, oc, 0 if q.opened or waived else r.clean, dead_ranks_after(s, q.melds), r.out_complete,
        r.late_on and q.opened and not q.points,  # opened before this turn
        r.final_optional,
    )


def _melds_out(r: Rules, q: Probe, ask: OutQuestion) -> bool:
    """Whether melding every card but at most one (the discard) goes out from ``q``."""
    if (
        r.fast.greedy_out and not ask.complete and greedy_fits(ask.dead, ask.clean)
        and greedy_out(r, q, ask)
    ):
        # a quick greedy plan (greedy_plan) often shows a way out at once; the full
        # search is needed only when it does not (and always where melds that must be
        # canastas, or another rule the plan ignores, are in play)
        return True
    if r.fast.narrow_searches:
        # narrow searches first: a plan they find is one (the full search is for a no)
        args = (r, q.hand, q.melds, r.black_melds, 1, ask.opening, ask.dead, ask.complete, ask.late, r.seq_grow)
        if any(
            _goes_out(sequence_outcomes(*args, most=most), ask.need, ask.waived, ask.final_optional)
            for most in _widths(q.hand)
        ):
            return True
    outs = _way_out(r, q, ask, q.hand, q.counts, r.black_melds)
    return _goes_out(outs, ask.need, ask.waived, ask.final_optional)


def _way_out(
    r: Rules, q: Probe, ask: OutQuestion, hand: tuple[int, ...], counts: tuple[int, ...], allow_black: bool,
) -> Outcomes:
    """The full search of the plans that meld ``hand`` (``counts`` by kind) beside ``q``'s melds
    and leave at most one card: :func:`sequence_outcomes` where the variant has sequences
    (where sequences may grow when going out, they grow: each plan kept goes out), else
    :func:`outcomes`. Where the opening's minimum is met or waived, no answer reads the
    plans' points, and the sequence search is told so (``points``)."""
    if r.seq_on:
        return sequence_outcomes(
            r, hand, q.melds, allow_black, 1, ask.opening, ask.dead, ask.complete, ask.late, r.seq_grow,
            points=ask.need > 0 and not ask.waived,
        )
    return outcomes(r, counts, q.melds, allow_black, 1, ask.opening, ask.dead, ask.complete, ask.clean, q.took, ask.late)


def _black_three_out(r: Rules, q: Probe, ask: OutQuestion, n_out: int) -> bool:
    """Whether going out with ``n_out`` black 3s kept (and at most one more card to discard)
    is open from ``q``: every other card melded."""
    extra = q.counts[BLACK_THREE] - n_out
    rest = tuple(card for card in q.hand if KIND[card] != BLACK_THREE)
    c2 = list(q.counts)
    c2[BLACK_THREE] = 0
    outs = _way_out(r, q, ask, rest, tuple(c2), False)
    for (left, ok, _black), pts in outs.items():
        if ok and left + extra == 1 and (ask.need <= 0 or pts >= ask.need or ask.waived):
            return True
    return False


#: The states the narrow sequence searches keep after each rank (``most`` of
#: :func:`~canasta.engine.sequence_search.sequence_outcomes`), asked in this order before
#: the full search (see :func:`_widths`).
NARROW = (10, 100)
#: The fewest cards in hand for which the wider narrow searches are asked. On a long hand the
#: narrowest may keep none of the few states that lead out, and the full search costs far
#: more than a wider one (a house hand of 64 cards: over 30 s against a twentieth of a
#: second); on a short hand the full search is about as quick as a wider narrow one, which
#: would only add to it (a tenth more time in Brazilian games).
WIDE_FROM = 40


def _widths(hand: Sequence[int]) -> tuple[int, ...]:
    """The widths of the narrow sequence searches asked for ``hand``, narrowest first."""
    return NARROW if len(hand) >= WIDE_FROM else NARROW[:1]


def _goes_out(outs: Outcomes, need: int, waived: bool, final_optional: bool) -> bool:
    """Whether ``outs`` (a search with at most one card left) holds a way out: the canastas
    going out needs, one card left to discard (or none, where the last discard is
    optional), and the opening's ``need`` met unless it is ``waived``."""
    for (left, ok, _black), pts in outs.items():
        if not ok or left == 2:
            continue
        if left == 0 and not final_optional:
            continue
        if need > 0 and pts < need and not waived:
            continue
        return True
    return False


def _opening_in_reach(s: GameState, q: Probe) -> bool:
    """Whether the unopened side of the player in the play phase can still reach its opening
    this turn from ``q`` (and end the turn after it), as :func:`can_finish` asks."""
    r = s.rules
    p = s.current
    side = r.side_of[p]
    need = opening_minimum(s, side) - q.points
    oc = opening_canasta(s, side)
    allow_black = r.black_always
    counts = q.counts
    pend = len(q.pending)
    upper, greedy, left_over, plan = opening_bounds(r, counts, q.melds, allow_black)
    dead = dead_ranks_after(s, q.melds)
    clean = r.clean
    # no plan opens where none can hold the natural canasta the opening asks (a quick bound)
    hopeless = (
        oc == OPEN_NATURAL_CANASTA and r.fast.natural_bound
        and not natural_canasta_reachable(r, counts, meld_info(r, q.melds), q.hand)
    )
    if not hopeless and (upper >= need or not r.fast.opening_bound):
        if r.fast.greedy_opening and (
            clean_opens(r, counts, q.melds, oc, need, pend) if clean and not dead
            else greedy >= need and greedy_fits(dead, clean) and not (r.wild_lock and wild_meld_locks(r, q.melds))
            and greedy_opens(r, q.melds, plan, oc, greedy - need, left_over + pend)
        ):
            # the greedy plan opens (under a clean opening, the plan of natural cards alone)
            return True
        final_optional = r.final_optional
        # whether going out is open to the player at all, as can_go_out asks (here the
        # partner has not said yes: asking is a move of its own, made before laying anything)
        may_out = not (
            q.asked == TOLD_NO or (bool(s.feet_[p]) and r.foot_first)
            or partner_foot_down(s) or asking_required(s)
        )

        def finishes(outs: Outcomes) -> bool:
            for (left, ok, _black), pts in outs.items():
                if pts < need:
                    continue
                eff = min(2, left + pend)
                if eff == 2:
                    return True
                if eff == 1 and may_discard_last(s, p):
                    return True
                if ok and may_out and (eff == 1 or final_optional):
                    if not r.out_complete:
                        return True
                    # going out: the plans that leave the melds it asks for complete
                    outs_out = (
                        sequence_outcomes(r, q.hand, q.melds, allow_black, 2, oc, dead, r.out_complete)
                        if r.seq_on
                        else outcomes(r, counts, q.melds, allow_black, 2, oc, dead, r.out_complete, clean, q.took)
                    )
                    for (left2, ok2, _b), pts2 in outs_out.items():
                        eff2 = left2 + pend
                        if ok2 and pts2 >= need and (eff2 == 1 or (eff2 == 0 and final_optional)):
                            return True
            return False

        if r.seq_on:
            # narrow searches first: a plan they find is one (the full search is for a no)
            if r.fast.narrow_searches and any(
                finishes(sequence_outcomes(r, q.hand, q.melds, allow_black, 2, oc, dead, most=most))
                for most in _widths(q.hand)
            ):
                return True
            outs = sequence_outcomes(r, q.hand, q.melds, allow_black, 2, oc, dead)
        else:
            outs = outcomes(r, counts, q.melds, allow_black, 2, oc, dead, 0, clean, q.took)
        if finishes(outs):
            return True
        if r.seq_grow and may_out:
            # going out may grow sequences past their closing size; the plans above,
            # which may leave two cards, may not (sequences.grow_when_going_out)
            outs_grow = sequence_outcomes(r, q.hand, q.melds, allow_black, 1, oc, dead, r.out_complete, False, True)
            for (left2, ok2, _b), pts2 in outs_grow.items():
                eff2 = left2 + pend
                if ok2 and pts2 >= need and (eff2 == 1 or (eff2 == 0 and final_optional)):
                    return True
    return False


def can_finish(s: GameState, q: Probe) -> bool:
    """Whether the player in the play phase can still end the turn legally from ``q``."""
    r = s.rules
    p = s.current
    if q.asked == TOLD_YES or (r.seq_grow and meld_info(r, q.melds).grown):
        # a yes, or a sequence grown past its closing size: the turn must go out
        return can_go_out(s, q)
    h = len(q.hand)
    if q.opened or not q.melds:
        if h >= 2:
            return True
        if h + len(s.feet_[p]) >= 2 and foot_available(s, p, h, q.melds):
            return True
        if h == 0 and foot_available(s, p, 0, q.melds):
            # a foot of one card (deal.foot_size: 1), picked up next, is the last card:
            # decided without looking at it (it is hidden), it may be discarded only
            # where the last card may be (going_out.out_but_not_out; once picked up,
            # no foot is left to walk to)
            return r.out_not_out
        if h == 1:
            if may_discard_last(s, p):
                return True
            return can_go_out(s, q)
        if q.opened:
            return False
    # unopened with melds laid this turn: the opening must still be reached. A way to it
    # after the cards ``q`` lays is one from the position listed too (lay them first, the
    # pile untouched since): where the position has none, neither has ``q`` (one search
    # for every move listed, which the searches' caches keep)
    base = probe(s)
    if (not r.fast.listed_answer or base.took != q.took or _opening_in_reach(s, base)) and _opening_in_reach(s, q):
        return True
    # going out concealed needs no minimum
    if concealed_possible(s, q.took) and r.concealed_waives:
        # a way out after the cards ``q`` lays is a way out of the position listed too (lay
        # them first): where the position has none, neither has ``q`` (one search for
        # every move listed, which the searches' caches keep)
        if r.fast.listed_answer and not can_go_out(s, base):
            return False
        return can_go_out(s, q)
    return False


