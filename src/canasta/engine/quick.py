"""The legal moves of a common play-phase position, listed straight from the hand's counts.

Most play-phase positions of a game without sequences are alike: the side has
opened and nothing binds the turn or bars a card by its rank. There
:func:`~canasta.engine.melding.quick_play` holds, and a candidate add or new
meld that leaves two cards in hand is decided by the meld it makes alone
(:func:`~canasta.engine.melding.add_fits`, :func:`~canasta.engine.melding.meld_fits`),
a discard that does not go out by the turn's rules and its card's bars.

:func:`quick_moves` lists such a position's legal moves in one pass, in the
order :func:`~canasta.engine.candidates.candidate_moves` lists its candidates:
the adds from rows kept per side's melds (:func:`~canasta.engine.melds.add_rows`:
:func:`~canasta.engine.melds.add_fit` once per open meld, carried over as a
meld grows), the new melds from rows of the candidates whose cards make a meld
(:func:`~canasta.engine.candidates.quick_rows`), the discards all at once. The
moves that still need their step (a foot, a take-back, asking to go out, black
3s, melds and adds that would leave fewer than two cards, going out) are asked
it, as ``legal_moves`` asks every other candidate. The random-playout suite
checks every move listed here with its step, and every unlisted candidate's
refusal; ``tests/test_quick_moves.py`` compares this listing with the candidate
loop's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.engine.candidates import (
    ASK_MOVE,
    BACK_MOVE,
    FOOT_MOVE,
    OUT_MOVES,
    black_meld_moves,
    candidate_adds,
    hand_discards,
    quick_rows,
)
from canasta.engine.going_out import (
    ask_step,
    discard_bar,
    discard_dead,
    discard_step,
    foot_step,
    plain_discard_error,
)
from canasta.engine.kinds import BLACK_THREE
from canasta.engine.melding import add_step, back_step, meld_step, quick_play
from canasta.engine.melds import add_rows
from canasta.engine.moves import WILD_TARGET, Add, Discard, Meld, Move
from canasta.engine.oracle import quick_out
from canasta.engine.state import NOT_ASKED

if TYPE_CHECKING:
    from canasta.engine.facts import Ctx
    from canasta.engine.state import GameState

def quick_moves(s: GameState, c: Ctx) -> list[Move] | None:
    """The legal moves of the play-phase position ``s``, or ``None`` where this pass does not apply.

    Asked by ``legal_moves`` only where the variant's fast paths include
    ``quick_listing`` (:class:`~canasta.engine.fastpaths.FastPaths`: no sequences,
    no second meld of a rank, no 3 kept, no rule that bars a card by its rank); it
    applies where :func:`~canasta.engine.melding.quick_play` holds too. The moves
    it leaves to their step are asked the step itself, as ``legal_moves`` would
    (called directly, not through ``PLAY_STEPS``: a native call in the compiled
    engine). The listing goes in ``candidate_moves``' order: the foot, a take-back,
    asking to go out, the new melds, the black 3s, the adds, the discards, going out.
    """
    if not quick_play(c):
        return None
    out: list[Move] = []
    if s.feet_[c.p] and foot_step(s, c, False) is None:
        out.append(FOOT_MOVE)
    if c.turn.laid and back_step(s, c, BACK_MOVE, False) is None:
        out.append(BACK_MOVE)
    # asking to go out comes next in the listing; it is asked once the new
    # melds' loop has counted the stranded cards
    ask_at = len(out)
    # the kinds held, as their discards (kind order; natural kinds ascend)
    discards = hand_discards(c.counts)
    wilds, stranded = _new_melds(s, c, discards, out)
    if _may_ask(s, c, stranded):
        out.insert(ask_at, ASK_MOVE)
    _black_melds_and_adds(s, c, wilds, out)
    _discards(s, c, discards, out)
    return out


def _new_melds(s: GameState, c: Ctx, discards: list[Discard], out: list[Move]) -> tuple[list[int], int]:
    """Append the legal new melds but black 3s to ``out``; return the wild kinds held and
    how many cards would stay stranded in hand (too few of a rank nowhere on the table)."""
    r = c.r
    counts = c.counts
    info = c.info
    index, present = info.index, info.present
    dup = r.dup_after_complete
    # every candidate new meld but black 3s has new_size cards: where that
    # leaves the hand fewer than two, meld_fits leaves them all to the step
    size = r.new_size
    # the rows are kept by the wild cards held, each clipped to a new meld's size
    # (no new meld uses more), as one int; computed and looked up here, inline
    # (a call is a twentieth of a cheap listing's time, interpreted); quick_rows
    # makes a missing entry. The same loop lists the wild kinds held, for the adds
    key = 0
    wilds = []
    for w in r.wild_kinds:
        n = counts[w]
        if n:
            wilds.append(w)
        key = key * (size + 1) + (n if n < size else size)
    got = r.quick_rows.get(key)
    rows, wild_row = got if got is not None else quick_rows(r, counts, key)
    # candidate_moves' new melds, in its order: by natural rank, then wild cards
    # alone (black 3s follow, by their step). None of a rank the side has open,
    # nor of a rank it has closed where no second meld is allowed. The rows hold
    # only candidates whose cards make a meld (every step refuses the others); a
    # rank the side has closed decides as any other where a second meld is
    # allowed (quick_play holds, so the step would reach play_cards' keeps_two).
    # A hand holds few of the natural kinds, so the loop visits only those (a kind
    # that is no natural rank has rows of nothing; a row for each count held)
    start = len(out)
    strand_below = r.strand_below
    stranded = 0
    for d in discards:
        k = d.kind
        n = counts[k]
        if n < strand_below[k] and k not in present:
            # too few naturals for a new meld, of a rank nowhere on the side's
            # table: no row, and cards that would stay in hand (oracle._stranded)
            stranded += n
            continue
        row = rows[k][n]
        if row and k not in index and (dup or k not in present):
            out += row
    if wild_row and WILD_TARGET not in index and (dup or WILD_TARGET not in present):
        out += wild_row
    if len(c.hand) < size + 2:
        # few cards in hand (rare): each candidate listed above is asked its step
        tried = out[start:]
        del out[start:]
        for mv in tried:
            if isinstance(mv, Meld) and meld_step(s, c, mv, False) is None:  # all are melds
                out.append(mv)
    return wilds, stranded


def _may_ask(s: GameState, c: Ctx, stranded: int) -> bool:
    """Whether asking the partner to go out is legal, ``stranded`` cards being sure to stay in hand."""
    r = c.r
    t = c.turn
    counts = c.counts
    return (
        r.ask_partner and r.partner[c.p] >= 0 and t.asked == NOT_ASKED and t.asker < 0
        and (not t.melded or r.ask_late)
        # the step's first costly test (oracle.quick_out), asked here without the
        # step's call, and settled without its own call where two cards or more
        # are stranded and no black-3 out is in reach (the common case: in most
        # positions where a player may ask, going out is out of reach)
        and (stranded < 2 or counts[BLACK_THREE] in r.black_out_held)
        and quick_out(r, counts, c.info, c.hand) is not None
        and ask_step(s, c, False) is None
    )


def _black_melds_and_adds(s: GameState, c: Ctx, wilds: list[int], out: list[Move]) -> None:
    """Append the legal melds of black 3s (by their step) and the legal adds to ``out``."""
    r = c.r
    counts = c.counts
    info = c.info
    index = info.index
    b = counts[BLACK_THREE]
    if b and BLACK_THREE not in index and (r.dup_after_complete or BLACK_THREE not in info.present):
        # black 3s: the step decides
        for _rank, mv, shape in black_meld_moves(r, b):
            if shape.__class__ is not str and meld_step(s, c, mv, False) is None:
                out.append(mv)
    if len(c.hand) < 3:
        # add_fits leaves adds that keep fewer than two cards to the step
        for m in candidate_adds(r, info, counts, wilds):
            # all adds: no rank has several open melds where this listing applies
            if isinstance(m, Add) and add_step(s, c, m, False) is None:
                out.append(m)
        return
    adds = info.adds  # add_rows' kept rows, read inline: a call is 1% of a cheap listing
    for rank, natural, wild in adds if adds is not None else add_rows(info):
        if natural is not None and counts[rank]:
            out.append(natural)
        if wild is not None:
            for w in wilds:
                out.append(wild[w])


def _discards(s: GameState, c: Ctx, discards: list[Discard], out: list[Move]) -> None:
    """Append the legal discards to ``out``: those that do not go out, decided together, then
    those that go out, each by its step."""
    r = c.r
    counts = c.counts
    if plain_discard_error(s, c) is None:
        if r.bars_discards:
            empty, dead = not s.pile_, discard_dead(s, c)
            for d in discards:
                if discard_bar(r, empty, counts, d.kind, dead) is None:
                    out.append(d)
        else:
            out += discards
    h = len(c.hand)
    n_out = r.black_out_cards
    if h == 1 or (n_out is not None and h == n_out + 1 and counts[BLACK_THREE] >= n_out):
        # going out: the step decides
        for d in discards:
            gone = OUT_MOVES[d.kind]
            if discard_step(s, c, gone, False) is None:
                out.append(gone)
