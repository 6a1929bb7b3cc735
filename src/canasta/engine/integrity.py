"""What makes a state one the engine can have reached: the consistency checks of a state read from outside.

The engine builds every state it returns, so its own states are consistent by
construction. A state read from JSON (a client's message, a file) is not: it
may hold every card exactly once and still be impossible (a turn answered by
the seat that asked, drawn cards that are not in the hand, a red 3 in a hand,
scores that disagree with their history). The engine's guarantees (every
listed move applies, no state is a dead end) hold for consistent states, so a
reader refuses any state :func:`state_problem` finds fault with, and then one
with no legal move.
"""

from __future__ import annotations

from collections import Counter

from canasta.engine.facts import NEW_TURN, context_of
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.melding import MAX_TAKE_BACKS, back_step
from canasta.engine.moves import RED_THREE, SEQUENCE, WILD_TARGET, TakeBack
from canasta.engine.state import ANSWER, DRAW, HAND_OVER, NOT_ASKED, PLAY, GameState, MeldGroup
from canasta.engine.tables import Rules
from canasta.limits import shown

__all__ = ["SCORE_LIMIT", "SEED_LIMIT", "state_problem"]

#: Seeds are 64-bit: the shuffle reads no more, and a longer one only makes
#: every state's JSON longer (and, past 4300 digits, unprintable).
SEED_LIMIT = 1 << 64
#: Scores a game can reach, with room to spare (no profile scores 10**6 a hand).
SCORE_LIMIT = 10**9


def _scores(s: GameState) -> tuple[str, str] | None:
    sides = len(s.rules.sides)
    for i, total in enumerate(s.scores):
        if abs(total) > SCORE_LIMIT:
            return "scores", f"side {i}'s score {total} is beyond any game (limit {SCORE_LIMIT})"
        if total != sum(h[i] for h in s.history):
            return "scores", f"side {i}'s score {total} is not the sum of its hands in history"
    if any(len(h) != sides for h in s.history):
        return "history", f"every hand has one score per side ({sides})"
    played = s.hand_number + (1 if s.phase >= HAND_OVER else 0)
    if len(s.history) != played:
        return "history", (
            f"hand {s.hand_number} {'is over' if s.phase >= HAND_OVER else 'is being played'}, "
            f"so history holds {played} hands, not {len(s.history)}"
        )
    return None


def _melds(r: Rules, s: GameState) -> tuple[str, str] | None:
    for side, melds in enumerate(s.melds_):
        open_ranks: list[int] = []
        for i, m in enumerate(melds):
            where = f"melds[{side}][{i}]"
            if m.rank == SEQUENCE or m.suit != -1:
                why = _sequence_error(r, m)
                if why is None and r.seq_max is not None and len(m.cards) > r.seq_max:
                    why = _grown_error(r, s, side)
                if why is not None:
                    return where, why
                continue
            # the reader put only cards of the meld's rank (or wild cards) in it; what the
            # meld's kind allows is the kind's to say
            if not 0 <= m.rank < SEQUENCE:
                return where, f"rank {m.rank} cannot be melded"
            kind = r.meld_kinds[m.rank]
            absent = kind.absent(m.rank)
            if absent is not None:
                return where, absent
            if not kind.valid(m.naturals, m.wilds, True):
                return where, "not a legal meld: " + kind.why_not(m.naturals, m.wilds)
            if not r.closed(m.rank, m.size):
                open_ranks.append(m.rank)
        if not r.dup_any:
            several = open_ranks
        else:
            # melds.duplicate_ranks: any: several open melds of one natural rank, but one wild meld
            several = [k for k in open_ranks if k in (WILD_TARGET, BLACK_THREE)]
        if len(several) != len(set(several)):
            return f"melds[{side}]", "a side has at most one open meld of each rank"
        groups = [m.rank for m in melds if m.rank != SEQUENCE]  # a side may hold many sequences
        if r.one_per_rank and len(set(groups)) != len(groups):
            return f"melds[{side}]", "this variant allows one meld of each rank a side"
        if r.dup_any and groups.count(WILD_TARGET) > 1:
            return f"melds[{side}]", "this variant allows one meld of wild cards a side"
        if any(not r.laid_from_pile[KIND[c]] for c in s.red_threes_[side]):
            if r.laid_at_once[BLACK_THREE]:
                return f"red_threes[{side}]", "only 3s are laid as 3s"
            return f"red_threes[{side}]", "only red 3s are laid as red 3s"
    return None


def _sequence_error(r: Rules, m: MeldGroup) -> str | None:
    """What is wrong with the sequence ``m`` (one of a state's melds), or ``None``.

    Its cards, in the order the meld keeps them, are read by the one test of a
    sequence (:meth:`~canasta.engine.meld_kinds.SequenceMeld.read`); a sequence past
    ``sequences.max_size`` is left to :func:`_grown_error` where it may grow.
    """
    kind = r.seq_kind
    absent = kind.absent(SEQUENCE)
    if absent is not None:
        return absent
    if m.rank != SEQUENCE or not 0 <= m.suit <= 3:
        return "a sequence has rank 16 and a suit from 0 to 3; other melds have suit -1"
    got = kind.read(m.cards, ordered=True)
    if isinstance(got, str):
        return got
    if (got.naturals, got.wilds, got.suit) != (m.naturals, m.wilds, m.suit):
        return "a sequence's suit and its counts of natural and wild cards are those of its cards"
    return kind.size_error(len(m.cards), grow=True)


def _grown_error(r: Rules, s: GameState, side: int) -> str | None:
    """What is wrong with a sequence of ``side`` past ``sequences.max_size``, or ``None``.

    It grew as part of going out (``sequences.grow_when_going_out``), so it is
    on the table of the side whose player is going out this turn, or of the
    side that went out once the hand is over.
    """
    end = s.end
    if s.phase == PLAY and r.side_of[s.current] == side:
        return None
    if s.phase >= HAND_OVER and end is not None and end.reason == "out" and r.side_of[end.seat] == side:
        return None
    return (
        f"a sequence holds more than {r.seq_max} cards only as its side goes out "
        "(sequences.grow_when_going_out): in the play phase of that side's player, or once "
        "that player has gone out"
    )


def _hands(r: Rules, s: GameState) -> tuple[str, str] | None:
    foot = s.rules.meanings.foot_size
    for seat in range(r.n):
        hand = s.hands_[seat]
        if r.keep_three:
            # threes.keep_one: one 3 at most, and none in a hand that melded this turn
            kept = [c for c in hand if r.laid_at_once[KIND[c]]]
            if len(kept) > 1:
                return f"hands[{seat}]", "a player keeps at most one 3 in hand (threes.keep_one)"
            if kept and seat == s.current and s.phase == PLAY and (s.turn.melded or s.turn.took_pile):
                return f"hands[{seat}]", "a player keeping a 3 lays it out before melding or taking the pile (threes.keep_one)"
            if any(KIND[c] == BLACK_THREE for c in s.turn.pending) and r.laid_at_once[BLACK_THREE]:
                return "turn.pending", "a black 3 is laid as soon as it is found, never held (threes.black_laid_at_once)"
        elif s.phase < HAND_OVER and r.laid_at_once[RED_THREE] and any(KIND[c] == RED_THREE for c in hand):
            return f"hands[{seat}]", "a red 3 is laid as soon as it is drawn, never kept in hand"
        elif (
            s.phase < HAND_OVER and r.laid_at_once[BLACK_THREE]
            and any(KIND[c] == BLACK_THREE for c in (*hand, *s.turn.pending))
        ):
            return f"hands[{seat}]", "a black 3 is laid as soon as it is drawn, never kept in hand (threes.black_laid_at_once)"
        if len(s.feet_[seat]) > foot:
            return f"feet[{seat}]", f"a foot holds at most {foot} cards in this variant"
        # Without a foot, a hand empties only by going out, which ends the hand
        # (unless the last card may be discarded without going out).
        if not foot and s.phase < HAND_OVER and not s.hands_[seat] and not s.rules.out_not_out:
            return f"hands[{seat}]", "a hand is empty only once its player has gone out"
    return None


def _talons(r: Rules, s: GameState) -> tuple[str, str] | None:
    """Talons set aside (``opening.talons_set_aside``): one pile per entry, full until given."""
    if not r.meanings.talons_set_aside:
        if s.talons_:
            return "talons", "talons are set aside only where opening.talons_set_aside is on"
        return None
    sizes = r.talons
    if len(s.talons_) != len(sizes):
        return "talons", f"expected {len(sizes)} talons (one per entry of opening.talons), got {len(s.talons_)}"
    opened = sum(s.opened)
    for i, (pile, size) in enumerate(zip(s.talons_, sizes, strict=True)):
        if len(pile) not in (0, size):
            return f"talons[{i}]", f"a talon holds its {size} cards until it is given, then none"
        if not pile and size and i >= opened:
            return f"talons[{i}]", f"talon {i + 1} goes to the side that opens {_nth(i + 1)}, and {opened} sides have opened"
    return None


def _nth(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def _sides(r: Rules, s: GameState, mover_side: int) -> tuple[str, str] | None:
    for side in range(len(r.sides)):
        mid_turn = side == mover_side and s.phase in (PLAY, ANSWER)
        if not mid_turn and s.phase < HAND_OVER and s.opened[side] != bool(s.melds_[side]):
            return f"opened[{side}]", "a side has opened exactly when it has melds on the table"
        if s.opened[side] and not s.melds_[side]:
            return f"opened[{side}]", "an opened side has melds on the table"
    for seat in range(r.n):
        if s.melded_before[seat] and not s.opened[r.side_of[seat]]:
            return f"melded_before[{seat}]", "a seat that has melded plays for a side that has opened"
    if len(s.asked_before) != r.n:
        return "asked_before", f"one entry per seat ({r.n})"
    once = s.rules.ask_once
    for seat, asked in enumerate(s.asked_before):
        if asked and (not once or r.partner[seat] < 0):
            return f"asked_before[{seat}]", "only a seat with a partner asks, and only where it may ask once a hand"
    t = s.turn
    if once and t.asker >= 0 and not s.asked_before[t.asker]:
        return f"asked_before[{t.asker}]", "a seat that asked this turn has asked this hand"
    return None


def _turn(r: Rules, s: GameState, seen_only: bool = False) -> tuple[str, str] | None:
    t = s.turn
    if s.phase == DRAW and t != NEW_TURN:
        return "turn", "before the draw nothing has happened in the turn yet"
    if r.ask_advice:
        # advice binds nothing: no answer is kept, only the seat that asked
        if t.asked != NOT_ASKED:
            return "turn.asked", "advice binds nothing, so a turn keeps no answer"
        if s.phase == ANSWER and t.asker < 0:
            return "turn.asker", "while a partner answers, the turn names the seat that asked"
    elif (t.asked == NOT_ASKED and s.phase != ANSWER) != (t.asker == -1):
        return "turn.asker", "a turn names the seat that asked exactly when the partner was asked"
    if s.phase == ANSWER and (t.asked != NOT_ASKED or r.partner[t.asker] != s.current):
        return "turn.asker", "while a partner answers, the asker is that partner's partner and no answer is given yet"
    if s.phase == PLAY and t.asker not in (-1, s.current):
        return "turn.asker", "only the seat to move can have asked"
    if t.points < 0:
        return "turn.points", "points laid are never negative"
    if t.melded != bool(t.played):
        return "turn.melded", "a turn has melded exactly when it has played cards"
    mover = t.asker if s.phase == ANSWER else s.current
    side = r.side_of[mover]
    if t.pending and (not t.took_pile or s.opened[side]):
        return "turn.pending", "cards are held aside only from a pile taken by a side that has not opened"
    if Counter(t.drawn) - Counter(s.hands_[mover]) - Counter(t.played):
        return "turn.drawn", "cards drawn this turn are in the hand or were played"
    on_table = Counter(c for m in s.melds_[side] for c in m.cards) + Counter(s.red_threes_[side])
    if Counter(t.played) - on_table:
        return "turn.played", "cards played this turn are on the side's melds"
    return _take_backs(s, side, seen_only)


def _take_backs(s: GameState, side: int, seen_only: bool = False) -> tuple[str, str] | None:
    """The take-back log must lead back, step by step, to states with no problem."""
    t = s.turn
    if not t.laid and not t.backs:
        return None
    if not s.rules.rearrange:
        return "turn.laid", "this variant keeps cards laid on the table: nothing can be taken back"
    if not 0 <= t.backs <= MAX_TAKE_BACKS:
        return "turn.backs", f"a turn has 0 to {MAX_TAKE_BACKS} take-backs"
    if not t.laid or s.phase != PLAY or t.backs >= MAX_TAKE_BACKS:
        return None
    e = t.laid[-1]
    melds = s.melds_[side]
    if sum(len(x.cards) for x in t.laid) > len(t.played) or t.played[len(t.played) - len(e.cards):] != e.cards:
        return "turn.laid", "the cards of each step logged are the last cards played"
    if not 0 <= e.index < len(melds) or (e.new and e.index != len(melds) - 1):
        return "turn.laid", "a step logged names a meld of the side (a new one is the last)"
    if Counter(e.cards) - Counter(melds[e.index].cards) or (e.new and len(e.cards) != melds[e.index].size):
        return "turn.laid", "the cards of a step logged are on the meld it names"
    # the pile cards held aside before the step: still aside if it did not open
    # the side, in the hand if it did
    if e.pending and t.pending and t.pending != e.pending:
        return "turn.laid", "pile cards held aside before a step that did not open the side are still held aside"
    if e.pending and not t.pending and Counter(e.pending) - Counter(s.hands_[s.current]):
        return "turn.laid", "pile cards held aside before a step that opened the side are in the hand after it"
    before = back_step(s, context_of(s), TakeBack(), True)
    assert isinstance(before, GameState)
    problem = state_problem(before, seen_only)
    return None if problem is None else ("turn.laid", "taking back the last step logged: " + problem[1])


def state_problem(s: GameState, seen_only: bool = False) -> tuple[str, str] | None:
    """The first inconsistency of ``s`` as ``(field path, what is wrong)``, or ``None``.

    Card conservation (every card exactly once) is the reader's check; these
    are the rest: scores and history, seeds, melds, hands, sides, the turn.
    With ``seen_only`` (a view's stand-in state), only what its seat sees is
    judged (the melds, the sides, the turn), not the stand-in cards of hidden
    hands nor the score history a view does not hold.
    """
    r = s.rules
    if not -SEED_LIMIT < s.seed < SEED_LIMIT:
        return "seed", f"expected a 64-bit seed, got {shown(s.seed)}"
    if (s.phase < HAND_OVER and s.end is not None) or (s.phase >= HAND_OVER and s.end is None):
        return "end", "a hand has an end exactly when it is over"
    mover = s.turn.asker if s.phase == ANSWER and s.turn.asker >= 0 else s.current
    sides = _sides(r, s, r.side_of[mover])
    turn = _turn(r, s, seen_only) if s.phase < HAND_OVER else None
    problems = (
        (_melds(r, s), sides, turn) if seen_only
        else (_scores(s), _melds(r, s), _hands(r, s), _talons(r, s), sides, turn)
    )
    for problem in problems:
        if problem is not None:
            return problem
    return None
