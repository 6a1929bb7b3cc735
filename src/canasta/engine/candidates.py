"""Candidate moves: a superset of the legal moves, generated from hand counts.

:func:`candidate_moves` lists each distinct play once (cards the rules treat
alike are interchangeable); :func:`canasta.engine.game.step` then keeps those
that are legal. Meld candidates come from per-variant tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import compress
from typing import TYPE_CHECKING, Final

from canasta.engine.draw import take_candidates
from canasta.engine.facts import context_of, must_walk
from canasta.engine.kinds import BLACK_THREE, KIND, suit_choices
from canasta.engine.melds import ADD_MOVES, meld_shape
from canasta.engine.moves import (
    RED_THREE,
    WILD_TARGET,
    Add,
    AddToSequence,
    Answer,
    Ask,
    Combine,
    Discard,
    Draw,
    Foot,
    JoinSequences,
    Meld,
    MeldSequence,
    Move,
    NextHand,
    Pass,
    TakeBack,
)
from canasta.engine.state import (
    ANSWER,
    DRAW,
    GAME_OVER,
    HAND_OVER,
    NOT_ASKED,
    GameState,
)
from canasta.engine.tables import COMPILED, QuickRows

if TYPE_CHECKING:
    from canasta.engine.facts import Ctx
    from canasta.engine.melds import MeldInfo
    from canasta.engine.tables import Rules


def candidate_moves(s: GameState, c: Ctx | None = None) -> list[Move]:
    """Moves worth asking :func:`step` about: a superset of the legal moves."""
    if c is None:
        c = context_of(s)
    r = c.r
    if s.phase == HAND_OVER:
        return [_NEXT]
    if s.phase == GAME_OVER:
        return []
    if s.phase == ANSWER:
        return [_YES, _NO]
    if s.phase == DRAW:
        if c.r.foot_walk and must_walk(s):
            return [FOOT_MOVE]
        if s.stock_:
            return [_DRAW, *take_candidates(s, c)]
        return [*take_candidates(s, c), _PASS]
    p = c.p
    hand = c.hand
    counts = c.counts
    out: list[Move] = []
    if s.feet_[p]:
        out.append(FOOT_MOVE)
    if c.turn.laid:
        out.append(BACK_MOVE)
    if (
        r.ask_partner and r.partner[p] >= 0 and c.turn.asked == NOT_ASKED and c.turn.asker < 0
        and (not c.turn.melded or r.ask_late)
    ):
        out.append(ASK_MOVE)
    info = c.info
    present = info.present
    dup = r.dup_after_complete
    new_melds, discards = hand_candidates(r, counts)
    index = info.index
    # suited[rank]: whether moves of that rank name suits (never without
    # sequences, where one look-up per move replaces two)
    suits, suited = (_suits_held(hand), r.suited) if r.seq_on else (_NO_SUITS, _NEVER_SUITED)
    for rank, mv, _shape in new_melds:
        # a new meld of a rank the side already has is refused: not worth asking (but
        # where melds.duplicate_ranks: any allows another of a natural rank: Rules.several)
        if (rank in index or (rank in present and not dup)) and not r.several[rank]:
            continue
        if suited[rank]:
            out.extend(_suited_melds(mv, rank, suits[rank]))
        else:
            out.append(mv)
    wilds = []
    for w in r.wild_kinds:  # a loop: a comprehension is a function call
        if counts[w]:
            wilds.append(w)
    out.extend(candidate_adds(r, info, counts, wilds, suits, suited))
    if r.seq_on:
        out.extend(sequence_candidates(r, hand, info))
        if r.seq_join:
            out.extend(join_candidates(r, info))
        discards = [
            d for k, d in ((d.kind, d) for d in discards) if not r.suited[k]
        ] + [Discard(k, False, x) for k in r.seq_ranks for x in range(4) if suits[k][x]]
    out.extend(discards)
    h = len(hand)
    n_out = r.black_out_cards
    if h == 1 or (n_out is not None and h == n_out + 1 and counts[BLACK_THREE] >= n_out):
        out.extend(OUT_MOVES[d.kind] if d.suit == -1 else Discard(d.kind, True, d.suit) for d in discards)
    return out


#: Stand-ins for a variant without sequences: no rank names suits.
_NEVER_SUITED: Final = (False,) * 17
_NO_SUITS: list[list[int]] = []


def candidate_adds(
    r: Rules, info: MeldInfo, counts: tuple[int, ...], wilds: list[int],
    suits: list[list[int]] = _NO_SUITS, suited: Sequence[bool] = _NEVER_SUITED,
) -> list[Move]:
    """The candidate adds (and, with several melds of a rank, combines) to the side's open
    melds, in :func:`candidate_moves`' order; ``wilds``: the wild kinds held; ``suits``
    and ``suited``: the suits held by rank and the ranks whose moves name suits
    (none by default, as without sequences)."""
    out: list[Move] = []
    more = info.more
    for rank in info.open_ranks:
        if rank == BLACK_THREE:
            continue
        if rank in more:
            out.extend(_several_adds(r, rank, len(more[rank]), counts, wilds, suits))
            continue
        row = ADD_MOVES[rank]
        if rank != WILD_TARGET and counts[rank]:
            if suited[rank]:
                out.extend(Add(rank, rank, x) for x in range(4) if suits[rank][x])
            else:
                out.append(row[rank])
        for w in wilds:
            out.append(row[w])
    return out


def _several_adds(
    r: Rules, rank: int, melds: int, counts: tuple[int, ...], wilds: list[int], suits: list[list[int]],
) -> list[Move]:
    """Adds to each of the side's ``melds`` open melds of ``rank``, then the combines of two of them
    (``melds.duplicate_ranks: any``)."""
    out: list[Move] = []
    for nth in range(melds):
        if counts[rank]:
            if r.suited[rank]:
                out.extend(Add(rank, rank, x, nth) for x in range(4) if suits[rank][x])
            else:
                out.append(Add(rank, rank, -1, nth))
        out.extend(Add(rank, w, -1, nth) for w in wilds)
    out.extend(Combine(rank, i, j) for i in range(melds) for j in range(i + 1, melds))
    return out


def _suits_held(hand: tuple[int, ...]) -> list[list[int]]:
    """How many cards of each suit the hand holds, by rank: ``held[rank][suit]``."""
    held = [[0, 0, 0, 0] for _ in range(16)]
    for code in hand:
        held[code >> 2][code & 3] += 1
    return held


def _suited_melds(mv: Meld, rank: int, held: list[int]) -> list[Meld]:
    """``mv``, a new meld of ``rank``, once for each choice of suits of its natural cards
    that the hand can make."""
    naturals = mv.kinds.count(rank)
    return [Meld(mv.kinds, suits) for suits in suit_choices(naturals, tuple(held))]





def sequence_candidates(r: Rules, hand: tuple[int, ...], info: MeldInfo) -> list[Move]:
    """New sequences the hand could lay, and cards it could add to the side's open sequences
    (and to its closed ones, where they may grow as part of going out)."""
    held = set(hand)
    out: list[Move] = [move for codes, move in _sequence_windows(r) if held.issuperset(codes)]
    if r.seq_wild:
        # sequences.wild_in_gap: a wild card held may stand for an inside rank
        wild = r.is_wild
        kinds = {KIND[c] for c in held if wild[KIND[c]]}
        if kinds:
            out += [move for codes, move in _wild_windows(r) if move.wild in kinds and held.issuperset(codes)]
    ok = r.in_seq
    most = r.seq_max
    seen: set[tuple[int, int, int]] = set()
    for _i, suit, low, high in info.sequences:
        if (suit, low, high) in seen:  # two alike take the same cards: one move each
            continue
        seen.add((suit, low, high))
        if most is not None and high - low + 1 >= most:
            continue
        if high < 14 and ok[high + 1] and (high + 1) * 4 + suit in held:
            out.append(AddToSequence(suit, low, high, high + 1))
        if low > 2 and ok[low - 1] and (low - 1) * 4 + suit in held:
            out.append(AddToSequence(suit, low, high, low - 1))
    # closed sequences that may still grow as part of going out (sequences.grow_when_going_out)
    for _i, suit, low, high in info.closed_sequences:
        if (suit, low, high) in seen:
            continue
        seen.add((suit, low, high))
        if high < 14 and ok[high + 1] and (high + 1) * 4 + suit in held:
            out.append(AddToSequence(suit, low, high, high + 1))
        if low > 2 and ok[low - 1] and (low - 1) * 4 + suit in held:
            out.append(AddToSequence(suit, low, high, low - 1))
    return out


def join_candidates(r: Rules, info: MeldInfo) -> list[Move]:
    """Joins of two of the side's sequences of one suit that meet end to end (``sequences.join``):
    open ones, and closed ones where they may grow as part of going out."""
    spans = {(suit, low, high) for _i, suit, low, high in (*info.sequences, *info.closed_sequences)}
    out: list[Move] = []
    for suit, low, high in sorted(spans):
        for suit2, low2, high2 in sorted(spans):
            if suit2 == suit and low2 == high + 1:
                out.append(JoinSequences(suit, low, low2, high2))
    return out


@lru_cache(maxsize=64)
def _sequence_windows(r: Rules) -> tuple[tuple[tuple[int, ...], MeldSequence], ...]:
    """Every new sequence the variant allows: its cards, and the move that lays it."""
    size = r.seq_min
    ranks = r.seq_ranks
    out = []
    for suit in range(4):
        for low in ranks:
            span = range(low, low + size)
            if all(k in ranks for k in span):
                out.append((tuple(k * 4 + suit for k in span), MeldSequence(suit, low, low + size - 1)))
    return tuple(out)


@lru_cache(maxsize=64)
def _wild_windows(r: Rules) -> tuple[tuple[tuple[int, ...], MeldSequence], ...]:
    """Every new sequence with a wild card inside (``sequences.wild_in_gap``): its natural
    cards, and the move that lays it."""
    out = []
    for codes, move in _sequence_windows(r):
        for gap in range(move.low + 1, move.high):
            naturals = tuple(c for c in codes if c >> 2 != gap)
            out += [(naturals, MeldSequence(move.suit, move.low, move.high, w, gap)) for w in r.wild_kinds]
    return tuple(out)


@lru_cache(maxsize=4096)
def _meld_move(kinds: tuple[int, ...]) -> Meld:
    return Meld(kinds)


#: A candidate new meld in the tables: its rank, its move, and the
#: :func:`~canasta.engine.melds.meld_shape` of its cards (worked out once, for
#: :mod:`canasta.engine.quick`).
NewMeld = tuple[int, Meld, "int | str"]


def _new_meld(r: Rules, rank: int, kinds: tuple[int, ...]) -> NewMeld:
    return rank, _meld_move(kinds), meld_shape(r, kinds)


def _sig_wilds(r: Rules, wild_sig: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Counts by kind of the wild cards in ``wild_sig`` (one number per ``r.wild_kinds``),
    and the wild kinds held."""
    counts = [0] * 16
    for w, n_w in zip(r.wild_kinds, wild_sig, strict=True):
        counts[w] = n_w
    return counts, [w for w in r.wild_kinds if counts[w]]


def _rank_meld_moves(
    r: Rules, k: int, c: int, wild_sig: tuple[int, ...]
) -> tuple[NewMeld, ...]:
    """New melds of rank ``k`` from ``c`` naturals and the wild cards counted in ``wild_sig``."""
    counts, wilds = _sig_wilds(r, wild_sig)
    size = r.new_size
    out = []
    for n in range(max(r.min_nat, 1), min(c, size) + 1):
        for combo in _wild_combos(wilds, counts, size - n):
            out.append(_new_meld(r, k, (k,) * n + combo))
    return tuple(out)


def hand_candidates(
    r: Rules, counts: tuple[int, ...]
) -> tuple[list[NewMeld], list[Discard]]:
    """New melds the hand could lay (with their rank), and its discards.

    Run for nearly every new hand (hands rarely repeat, so a cache keyed by
    them misses): the melds are looked up in rows worked out once per variant
    and wild cards held, one row per kind indexed by the count held. (Under
    CPython 3.11, ``map`` and ``chain`` over the kinds cost more than this
    loop; ``compress`` over the discards costs less than a comprehension.)
    """
    sig = []
    for w in r.wild_kinds:
        sig.append(counts[w])
    wild_sig = tuple(sig)
    rows = _meld_rows(r, wild_sig)
    melds: list[NewMeld] = []
    try:
        for k in r.natural_kinds:
            c = counts[k]
            if c:
                melds += rows[k][c]
    except IndexError:
        # more cards of a kind than the decks hold (a hand-built state): a
        # new meld takes at most new_size naturals, whatever is held
        size = r.new_size
        melds = []
        for k in r.natural_kinds:
            c = counts[k]
            if c:
                melds += rows[k][c if c < size else size]
    if r.wild_melds:
        melds += _wild_meld_moves(r, _clipped_sig(r, wild_sig))
    b = counts[BLACK_THREE]
    if b:
        melds += black_meld_moves(r, b)
    return melds, hand_discards(counts)


def hand_discards(counts: tuple[int, ...]) -> list[Discard]:
    """The candidate discards of a hand with ``counts`` by kind (that do not go out): one per
    kind held but red 3s."""
    if COMPILED:
        # a native loop: list(compress(...)) is two generic calls from compiled
        # code, about a tenth of a quick listing's instructions
        return [DISCARDS[k] for k in range(16) if counts[k] != 0 and k != RED_THREE]
    # interpreted, compress runs the loop in C (0.3 us less than the loop above)
    discards = list(compress(DISCARDS, counts))
    if counts[RED_THREE]:
        discards.remove(DISCARDS[RED_THREE])  # a red 3 is never discarded
    return discards


def quick_rows(r: Rules, counts: tuple[int, ...], key: int) -> QuickRows:
    """Make the :data:`QuickRows` of a hand with ``counts``: :func:`hand_candidates`' rows for
    its wild cards without the candidates whose cards make no meld, kept in ``r.quick_rows``
    under ``key``.

    Only :func:`~canasta.engine.quick.quick_moves` calls it, on a miss: the key
    (the wild cards held, each clipped to a new meld's size, as one int: no new
    meld uses more) is computed there alone, inline, where it is looked up.
    """
    size = r.new_size
    sig = _clipped_sig(r, tuple(counts[w] for w in r.wild_kinds))
    rows = _clipped_rows(r, sig)
    natural = []
    for k in range(16):
        by_count = [tuple(mv for _rank, mv, shape in rows[k][n] if shape.__class__ is not str) for n in range(size + 1)]
        # a row for every count the decks allow, as _clipped_rows has (larger
        # counts than new_size repeat its row): the listing indexes by the count
        # held, not clipped; kinds that are no natural rank have rows of nothing
        natural.append((*by_count, *(by_count[size],) * (len(rows[k]) - size - 1)))
    wild: tuple[Meld, ...] = ()
    if r.wild_melds:
        wild = tuple(mv for _rank, mv, shape in _wild_meld_moves(r, sig) if shape.__class__ is not str)
    got = r.quick_rows[key] = tuple(natural), wild
    return got


def _clipped_sig(r: Rules, held: tuple[int, ...]) -> tuple[int, ...]:
    """The wild cards ``held`` (one count per ``r.wild_kinds``), each at most a new meld's size:
    no new meld can use more."""
    size = r.new_size
    return tuple(x if x < size else size for x in held)


@lru_cache(maxsize=1024)
def _meld_rows(r: Rules, held: tuple[int, ...]) -> tuple[tuple[tuple[NewMeld, ...], ...], ...]:
    """New melds by kind and count held, for the wild cards ``held`` (one count per ``r.wild_kinds``).

    ``rows[k][c]`` lists the melds of rank ``k`` from ``c`` naturals, for every
    count up to the cards of kind ``k`` in the decks (a new meld takes at most
    ``new_size`` of them, so larger counts repeat that row); kinds that are not natural
    ranks have rows of nothing. Rows of the same wild cards (after clipping to
    a new meld's size) are shared.
    """
    return _clipped_rows(r, _clipped_sig(r, held))


@lru_cache(maxsize=1024)
def _clipped_rows(r: Rules, wild_sig: tuple[int, ...]) -> tuple[tuple[tuple[NewMeld, ...], ...], ...]:
    size = r.new_size
    rows: list[tuple[tuple[NewMeld, ...], ...]] = []
    natural = set(r.natural_kinds)
    for k in range(16):
        # a row for every count the decks allow, and at least up to new_size:
        # the fallback in hand_candidates indexes by counts clipped to it
        most = max(r.in_deck[k], size)
        if k in natural:
            by_count = [_rank_meld_moves(r, k, c, wild_sig) for c in range(size + 1)]
            rows.append(tuple(by_count[min(c, size)] for c in range(most + 1)))
        else:
            rows.append(((),) * (most + 1))
    return tuple(rows)


@lru_cache(maxsize=1024)
def _wild_meld_moves(r: Rules, wild_sig: tuple[int, ...]) -> tuple[NewMeld, ...]:
    """New melds of wild cards only, from the wild cards counted in ``wild_sig``."""
    counts, wilds = _sig_wilds(r, wild_sig)
    return tuple(_new_meld(r, WILD_TARGET, combo) for combo in _wild_combos(wilds, counts, r.new_size))


@lru_cache(maxsize=1024)
def black_meld_moves(r: Rules, b: int) -> tuple[NewMeld, ...]:
    """Melds of black 3s from ``b`` black 3s in hand, where the variant has them at all."""
    if not r.black_melds:
        # never, or 3s are wild: three 3s are then a meld of wild cards, listed as one
        return ()
    mn = r.meanings  # asked once per count held (cached)
    most = mn.black_threes_meld_most
    hi = b if most is None else min(b, most)
    return tuple(
        _new_meld(r, BLACK_THREE, (BLACK_THREE,) * n) for n in range(mn.black_threes_meld_least, hi + 1)
    )


#: The discard (not going out) of each kind, by kind.
DISCARDS: Final = [Discard(k, False) for k in range(16)]


_DRAW: Final = Draw()


_PASS: Final = Pass()


_NEXT: Final = NextHand()


_YES: Final = Answer(True)


_NO: Final = Answer(False)


#: The one Foot, TakeBack and Ask the candidate lists hand out (ActionSpace.mark
#: finds moves by identity).
FOOT_MOVE: Final = Foot()
BACK_MOVE: Final = TakeBack()
ASK_MOVE: Final = Ask()


#: Every discard that goes out, by kind, made once.
OUT_MOVES: Final = [Discard(k, True) for k in range(16)]


def _wild_combos(wilds: list[int], counts: Sequence[int], j: int) -> list[tuple[int, ...]]:
    """Distinct multisets of ``j`` wild kinds that the hand holds."""
    if j == 0:
        return [()]
    if not wilds:
        return []
    first, rest = wilds[0], wilds[1:]
    out = []
    for use in range(min(j, counts[first]), -1, -1):
        for tail in _wild_combos(rest, counts, j - use):
            out.append((first,) * use + tail)
    return out
