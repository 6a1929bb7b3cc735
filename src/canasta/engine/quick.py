"""The legal moves of a common play-phase position, listed straight from the hand's counts.

Most play-phase positions of a game without sequences are alike: the side has
opened and nothing binds the turn or bars a card by its rank. There
:func:`~canasta.engine.melding.quick_play` holds, and a candidate add or new
meld that leaves two cards in hand is decided by the meld it makes alone
(:func:`~canasta.engine.melding.add_fits`, :func:`~canasta.engine.melding.meld_fits`),
a discard that does not go out by the turn's rules and its card's bars.

:func:`quick_moves` lists such a position's legal moves in one pass, in the
order :func:`~canasta.engine.candidates.candidate_moves` lists its candidates:
each add is decided once per meld (:func:`~canasta.engine.melds.add_fit`,
kept by the meld's shape) instead of once per candidate,
each new meld by the shape its table row was built with, the discards all at
once. The moves that still need their step (a foot, a take-back, asking to go
out, black 3s, a new meld of a rank the side has closed, melds and adds that
would leave fewer than two cards, going out) are asked it, as ``legal_moves``
asks every other candidate. The random-playout suite checks every move listed
here with its step, and every unlisted candidate's refusal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.engine.candidates import (
    ADD_MOVES,
    ASK_MOVE,
    BACK_MOVE,
    FOOT_MOVE,
    OUT_MOVES,
    hand_candidates,
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
from canasta.engine.melds import add_fit
from canasta.engine.moves import WILD_TARGET, Add, Move
from canasta.engine.oracle import out_hopeless
from canasta.engine.state import NOT_ASKED

if TYPE_CHECKING:
    from canasta.engine.facts import Ctx
    from canasta.engine.melds import MeldInfo
    from canasta.engine.state import GameState

def quick_moves(s: GameState, c: Ctx) -> list[Move] | None:
    """The legal moves of the play-phase position ``s``, or ``None`` where this pass does not apply.

    It applies where :func:`~canasta.engine.melding.quick_play` holds and the
    variant has no sequences and no second meld of a rank
    (``melds.duplicate_ranks: any``). The moves it leaves to their step are
    asked the step itself, as ``legal_moves`` would (called directly, not
    through ``PLAY_STEPS``: a native call in the compiled engine).
    """
    r = c.r
    if r.seq_on or r.dup_any or not quick_play(c):
        return None
    hand = c.hand
    h = len(hand)
    p = c.p
    t = c.turn
    out: list[Move] = []
    if s.feet_[p] and foot_step(s, c, False) is None:
        out.append(FOOT_MOVE)
    if t.laid and back_step(s, c, BACK_MOVE, False) is None:
        out.append(BACK_MOVE)
    counts = c.counts
    if (
        r.ask_partner and r.partner[p] >= 0 and t.asked == NOT_ASKED and not t.melded
        # the step's first costly test, asked here without the step's call: in
        # most positions where a player may ask, going out is out of reach
        and not out_hopeless(r, counts, c.melds, hand)
        and ask_step(s, c, False) is None
    ):
        out.append(ASK_MOVE)
    info = c.info
    index, present = info.index, info.present
    dup = r.dup_after_complete
    new_melds, discards = hand_candidates(r, counts)
    # every candidate new meld but black 3s has new_size cards: where that
    # leaves the hand fewer than two, meld_fits leaves them all to the step
    by_step = h < r.new_size + 2
    for rank, mv, shape in new_melds:
        # candidate_moves leaves these out: a meld of a rank the side already has
        if rank in index or (rank in present and not dup):
            continue
        if shape.__class__ is str:  # its cards make no meld: every step refuses it
            continue
        # a rank the side has (closed: a second meld is allowed, or the loop went
        # on above) decides as any other: quick_play holds, so the step would
        # reach play_cards' keeps_two; as meld_fits, the rest are left to the step
        if by_step or shape == BLACK_THREE:
            if meld_step(s, c, mv, False) is None:
                out.append(mv)
        else:
            out.append(mv)
    wilds = []
    for w in r.wild_kinds:
        if counts[w]:
            wilds.append(w)
    if h < 3:
        # add_fits leaves adds that keep fewer than two cards to the step
        for m in adds(info, counts, wilds, False):
            if add_step(s, c, m, False) is None:
                out.append(m)
    else:
        out += adds(info, counts, wilds, True)
    if plain_discard_error(s, c) is None:
        if r.bars_discards:
            empty, dead = not s.pile_, discard_dead(s, c)
            for d in discards:
                if discard_bar(r, empty, counts, d.kind, dead) is None:
                    out.append(d)
        else:
            out += discards
    n_out = r.black_out_cards
    if h == 1 or (n_out is not None and h == n_out + 1 and counts[BLACK_THREE] >= n_out):
        # going out: the step decides
        for d in discards:
            gone = OUT_MOVES[d.kind]
            if discard_step(s, c, gone, False) is None:
                out.append(gone)
    return out


def adds(info: MeldInfo, counts: tuple[int, ...], wilds: list[int], by_shape: bool) -> list[Add]:
    """The candidate adds to the side's open melds, in ``candidate_moves``' order: those the
    meld's shape allows (``by_shape``; :func:`~canasta.engine.melds.add_fit`, the test
    :func:`~canasta.engine.melding.add_fits` makes of each), or all of them."""
    r = info.rules
    melds = info.melds
    index = info.index
    out: list[Add] = []
    natural = wild = True
    for rank in info.open_ranks:
        # most open melds have no card of their rank in hand, and most hands no
        # wild card: then there is nothing to add and no shape to ask about
        held = rank != WILD_TARGET and counts[rank] > 0
        if not (held or wilds) or rank == BLACK_THREE:
            continue
        if by_shape:
            om = melds[index[rank]]
            natural, wild = add_fit(r, rank, om.naturals, om.wilds)
        row = ADD_MOVES[rank]
        if natural and held:
            out.append(row[rank])
        if wild:
            for w in wilds:
                out.append(row[w])
    return out
