"""The end of a turn and of a hand: passing the turn on, ending the hand, scoring it.
"""

from __future__ import annotations

from canasta.engine.constructors import new_state
from canasta.engine.facts import NEW_TURN, with_item
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.moves import (
    RED_THREE,
)
from canasta.engine.scoring import ScoreBreakdown, SideTable, score_table, special_breakdown
from canasta.engine.state import (
    DRAW,
    GAME_OVER,
    HAND_OVER,
    GameState,
    HandEnd,
)


def next_turn(s: GameState, hands: tuple[tuple[int, ...], ...], pile: tuple[int, ...]) -> GameState:
    """Pass the turn to the left after a discard that leaves ``hands`` and ``pile``.

    Ends the hand instead when the stock cannot serve the next player
    (``draw.short_stock`` ``end_hand``): it holds fewer cards than a draw takes,
    none included, so nobody plays on through the discard pile.
    """
    r = s.rules
    p = s.current
    mb = s.melded_before
    if s.turn.melded and not mb[p]:
        mb = with_item(mb, p, True)
    nxt = (p + 1) % r.n
    s2 = new_state(
        s.variant, s.seed, s.hand_number, s.dealer, s.scores, s.history, DRAW, nxt,
        hands, s.feet_, s.stock_, pile, s.melds_, s.red_threes_, s.opened, mb, NEW_TURN,
        s.end, r, s.talons_, s.asked_before,
    )
    if r.short_stock_ends and len(s.stock_) < r.draw_count:
        return end_hand(s2, "stock", -1, False, False)
    return s2


def end_hand(
    s: GameState, reason: str, seat: int, concealed: bool, black_out: bool, special: str = ""
) -> GameState:
    """End the hand of ``s`` and score it: ``reason`` ``"out"``, ``"stock"`` or ``"special"``
    (``seat`` laid the special hand named ``special``)."""
    r = s.rules
    v = s.variant
    breakdowns = hand_breakdowns(s, reason, seat, concealed, black_out)
    wins = False
    if special:
        hand = r.special_by_name[special]
        # the laying side scores the special hand alone (special.hands)
        side = r.side_of[seat]
        breakdowns = (*breakdowns[:side], special_breakdown(hand), *breakdowns[side + 1:])
        wins = hand.wins_game
    hand_scores = tuple(b.total for b in breakdowns)
    scores = tuple(a + b for a, b in zip(s.scores, hand_scores, strict=False))
    history = (*s.history, hand_scores)
    over = False
    hands_played = s.hand_number + 1
    mn = r.meanings
    if mn.game_rounds is not None and hands_played >= mn.game_rounds:
        over = True
    if mn.game_target is not None and max(scores) >= mn.game_target:
        over = True
    if wins:
        over = True
    elif over and mn.tie_plays_another:
        best = max(scores)
        if sum(1 for x in scores if x == best) > 1:
            over = False
    end = HandEnd(reason, seat, concealed, black_out, breakdowns, special)
    return new_state(
        v, s.seed, s.hand_number, s.dealer, scores, history,
        GAME_OVER if over else HAND_OVER, s.current,
        s.hands_, s.feet_, s.stock_, s.pile_, s.melds_, s.red_threes_, s.opened,
        s.melded_before, s.turn, end, r, s.talons_, s.asked_before,
    )


def hand_breakdowns(
    s: GameState, reason: str, seat: int, concealed: bool, black_out: bool
) -> tuple[ScoreBreakdown, ...]:
    """Each side's itemized score for the hand that ``s`` ends."""
    r = s.rules
    out = []
    for side, seats in enumerate(r.sides):
        melds = tuple(
            (m.rank, tuple(r.code_value[c] for c in m.cards), r.canasta_kind(m))
            for m in s.melds_[side]
        )
        wild_kinds = tuple(
            tuple(KIND[c] for c in m.cards if r.is_wild[KIND[c]]) for m in s.melds_[side]
        )
        held_kinds: list[tuple[int, ...]] = []
        left: list[int] = []
        held = 0
        black_held = 0
        # threes.black_held_penalty: a black 3 left counts the penalty, not its value
        black_penalty = s.rules.meanings.black_held_penalised
        went = seat in seats and reason == "out"
        for p in seats:
            cards = list(s.hands_[p]) + list(s.feet_[p])
            if p == seat and s.turn.pending:
                cards += list(s.turn.pending)
            held_kinds.append(tuple(KIND[c] for c in cards))
            for c in cards:
                k = KIND[c]
                if k == RED_THREE:
                    held += 1
                elif black_out and p == seat and k == BLACK_THREE:
                    continue
                elif black_penalty and k == BLACK_THREE:
                    black_held += 1
                else:
                    left.append(r.code_value[c])
        # the laid-3s zone holds black 3s too where threes.black_laid_at_once
        laid = s.red_threes_[side]
        black_laid = sum(1 for c in laid if KIND[c] == BLACK_THREE)
        table = SideTable(
            melds=melds, red_threes=len(laid) - black_laid, black_threes=black_laid,
            wild_kinds=wild_kinds, held=tuple(held_kinds), opened=s.opened[side],
            left_values=tuple(left), red_threes_held=held, black_threes_held=black_held, went_out=went,
            concealed=went and concealed, black_three_out=went and black_out,
        )
        out.append(score_table(s.variant, table, r.red_in_deck))
    return tuple(out)


