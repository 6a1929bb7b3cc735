"""Observation tensors for learning agents, built from a :class:`~canasta.SeatView` alone.

This module needs NumPy (``pip install 'canasta[numpy]'``); ``import canasta``
does not import it. :class:`ObservationLayout` fixes, for one variant, where
each quantity sits in a flat ``float32`` vector; :meth:`ObservationLayout.encode`
fills one from a seat's view, and :func:`action_mask` gives the legal-action
mask of :class:`~canasta.ActionSpace` as ``np.int8``::

    import canasta
    from canasta.observe import action_mask, layout_of

    state = canasta.new_game(canasta.load_variant("classic"), seed=1)
    layout = layout_of(state.variant)
    obs = layout.encode(state.view(state.current_player))   # shape (layout.size,)
    mask = action_mask(canasta.ActionSpace(state.variant), state)

:func:`observe_to_move` gives both for the seat to move, and
:func:`mover_observer` makes a function that does so with its checks done
once (what the environments call every step).

Everything is seen from the observing seat: seats are listed clockwise starting
with the observer (relative seat 0), sides starting with the observer's own
side, then the others in the order their first seat follows the observer. Two
variants with the same number of seats and sides share the layout (the same
fields at the same offsets); :meth:`ObservationLayout.describe` lists them.

Card kinds (15 slots, in this order): red 3, 2, black 3, 4, 5, ..., K, A,
joker. Meld targets (15 slots): wild-card melds, then melds of 2s, black 3s,
4s, ..., As, then sequences (all sequences of a side together). Where the
variant has sequences, the observer's natural cards from 4 to A are also
counted by suit (44 slots: the 4s of clubs, diamonds, hearts, spades, then the
5s, ...), and the pile's top card has its suit one-hot. Counts are scaled by fixed constants (not by the variant), so the
same value means the same number of cards in every profile: card counts of a
kind ÷ 8, sizes of hands, feet, stock and pile ÷ 100, meld counts ÷ 4, points
÷ 100, cumulative and hand scores ÷ 10 000 clipped to [-1, 1].

The encoding reads only the fields of the view (the observer's hand, every
meld, the pile, the sizes of the other hands, feet and stock, the scores, the
visible part of the turn), so no hidden card can enter it.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Callable
from functools import lru_cache
from itertools import compress
from operator import is_not
from typing import Any, cast

import attrs
import numpy as np
import numpy.typing as npt

from canasta.engine import KIND, compile_rules
from canasta.engine.facts import context_of
from canasta.engine.state import ANSWER, GAME_OVER, Engine, GameState, HandEnd, MeldGroup
from canasta.engine.tables import Rules
from canasta.engine.view import SeatView
from canasta.errors import CanastaError
from canasta.io.actions import ActionSpace
from canasta.observation_fields import (
    CARD_SCALE,
    HAND_NUMBER_SCALE,
    KIND_SLOTS,
    MELD_SCALE,
    POINT_SCALE,
    SCORE_SCALE,
    SIZE_SCALE,
    SUITED_RANKS,
    TARGET_SLOTS,
    Spec,
    field_specs,
)
from canasta.variant.model import Variant

__all__ = ["Field", "ObservationLayout", "action_mask", "encode_view", "layout_of", "mover_observer",
           "observe_to_move"]

Array = npt.NDArray[np.float32]
#: What the last red 3s, openings and scores block of one order of the sides was made of
#: (red 3s, opened, scores, hand number, hand end: one tuple), then its packed red 3s and
#: openings, opening needs, and tail (scores, hand scores, hand number).
_SidesKey = tuple[tuple[tuple[int, ...], ...], tuple[bool, ...], tuple[int, ...], int, "HandEnd | None"]
_SidesMemo = tuple[object, bytes, bytes, bytes]


@attrs.frozen
class Field:
    """One named stretch of the observation vector.

    Attributes:
        name: the field's name (``"hand"``, ``"melds"``, ...).
        offset: index of its first element.
        size: number of elements.
        doc: what the elements hold and how they are scaled.
    """

    name: str
    offset: int
    size: int
    doc: str

    @property
    def stop(self) -> int:
        """Index one past the field's last element."""
        return self.offset + self.size


class ObservationLayout:
    """Where each quantity of a seat's view sits in the observation vector of one variant.

    Args:
        variant: the rules; the layout depends only on its numbers of seats and
            sides, the bounds (:attr:`low`, :attr:`high`) on its decks too.

    Attributes:
        variant: the rules.
        seats: number of seats.
        sides: number of sides.
        fields: the fields, in vector order.
        size: the vector's length.
    """

    def __init__(self, variant: Variant) -> None:
        if not isinstance(variant, Variant):
            raise CanastaError(f"ObservationLayout expects a Variant, got {type(variant).__name__}")
        self.variant = variant
        r = compile_rules(variant)
        self._rules = r
        n = self.seats = r.n
        m = self.sides = len(r.sides)
        total = variant.deck.decks * (52 + variant.deck.jokers_per_deck)
        self._lay_out(field_specs(variant, r, total), n, m)
        self._pack_heads(n)
        self._sizes = struct.Struct(f"<{2 * n + 2}f").pack
        self._turns: dict[tuple[int, ...], bytes] = {}
        # a count of cards ÷ SIZE_SCALE, for every count the decks allow
        self._size_of: tuple[float, ...] = tuple(k / SIZE_SCALE for k in range(total + 1))
        self._order_seats(r, n)
        self._start_memos(len(self._orders), m)
        self._side_of: tuple[int, ...] = tuple(r.side_of)
        # the engine's answers on the frozen pile, asked directly (GameState.pile_frozen and
        # pile_frozen_for call these, one call deeper)
        engine = cast(Engine, r.engine)
        self._frozen_for_all = engine.pile_frozen_for_all
        self._frozen_for = engine.pile_frozen

    def _lay_out(self, spec: list[Spec], n: int, m: int) -> None:
        """Each field's place in the vector, and the bounds of its elements once scaled."""
        t = len(TARGET_SLOTS)
        fields: list[Field] = []
        high: list[float] = []
        low: list[float] = []
        offset = 0
        for name, size, doc, raw_high, factor in spec:
            assert len(raw_high) == size, name
            fields.append(Field(name, offset, size, doc))
            offset += size
            if name == "melds":
                factors = [MELD_SCALE, CARD_SCALE, CARD_SCALE, MELD_SCALE] * (m * t)
            elif name == "turn":
                factors = [1.0, 1.0, POINT_SCALE, CARD_SCALE, 1.0, 1.0, 1.0, *([1.0] * n), CARD_SCALE]
            else:
                factors = [factor] * size
            high += [h / f for h, f in zip(raw_high, factors, strict=True)]
            low += [-1.0 if name in ("scores", "hand_scores") else 0.0] * size
        self.fields: tuple[Field, ...] = tuple(fields)
        self.size: int = offset
        self._by_name = {f.name: f for f in fields}
        self._low: Array = np.array(low, dtype=np.float32)
        self._high: Array = np.array(high, dtype=np.float32)

    def _pack_heads(self, n: int) -> None:
        """The packed blocks of the phase, the seat to move and the dealer, for every observer."""
        onehot = tuple(tuple(1.0 if i == j else 0.0 for i in range(n)) for j in range(n))
        self._onehot = onehot
        self._zeros = (0.0,) * n
        # The vector is joined from packed float32 blocks: the blocks that change
        # rarely (hand counts, the pile, the table, the scores) are packed once and
        # cached, so a step converts a dozen floats, not two hundred.
        self._head: tuple[bytes, ...] = tuple(
            _pack(*_PHASES[ph], *onehot[cur], *onehot[dea])
            for ph in range(5) for cur in range(n) for dea in range(n))
        # per observing seat, by (phase * n + current) * n + dealer: the same blocks, so
        # that a step indexes once instead of working out the relative seats
        self._heads: tuple[tuple[bytes, ...], ...] = tuple(
            tuple(self._head[(ph * n + (cur - me) % n) * n + (dea - me) % n]
                  for ph in range(5) for cur in range(n) for dea in range(n))
            for me in range(n))

    def _order_seats(self, r: Rules, n: int) -> None:
        """The seats and the sides in the order each observer sees them (its own first)."""
        # relative orders, per observing seat
        self._seat_order = [[(p + i) % n for i in range(n)] for p in range(n)]
        # per observing seat: the sizes block packed straight from the state's tuples
        self._state_sizes: tuple[_SizesPacker, ...] = tuple(
            _sizes_packer(order, self._sizes, self._size_of) for order in self._seat_order)
        # per observing seat: a per-seat tuple in relative order (itemgetter runs in C)
        self._rotate: list[Callable[[tuple[Any, ...]], tuple[Any, ...]]] = [
            operator.itemgetter(*order) if n > 1 else tuple for order in self._seat_order]
        self._side_order: list[list[int]] = []
        for p in range(n):
            order: list[int] = []
            for q in self._seat_order[p]:
                side = r.side_of[q]
                if side not in order:
                    order.append(side)
            self._side_order.append(order)
        # The table's blocks depend on the observer only through the order of the
        # sides, which the seats of one side share (partners see the same table):
        # the memos below are kept per order, so a partner's turn refreshes them too.
        orders: list[list[int]] = []
        for order in self._side_order:
            if order not in orders:
                orders.append(order)
        self._order_of: tuple[int, ...] = tuple(orders.index(order) for order in self._side_order)
        self._orders = orders
        # a seat of each order (the scores block is cached by seat)
        self._order_seat = tuple(self._order_of.index(i) for i in range(len(orders)))

    def _start_memos(self, orders: int, m: int) -> None:
        """The memos of the packed blocks, empty (see the comments of each)."""
        # per order of the sides: the last tuple of every side's melds and their packed
        # block (states share the tuples of what a move leaves alone, so `is` finds
        # most repeats); and the last red 3s, openings, scores, hand number and hand
        # end with their packed blocks (`!=` for the tuples: the engine rebuilds
        # equal ones)
        self._melds_memo: list[tuple[object, bytes]] = [(None, b"")] * orders
        self._sides_memo: list[_SidesMemo] = [(None, b"", b"", b"")] * orders
        # per side: its last tuple of melds, their counts and packed blocks (updated
        # from the melds that differ: a move changes one or two melds of a side)
        self._side_memo: list[_SideMemo] = [_NO_MELDS] * m
        # the pile's last tuple, whether it freezes for everyone, its packed fields and
        # its counts (a discard adds one card to them)
        self._pile_memo: _PileMemo = _NO_PILE
        # per side: the pile's fields with whether it is frozen against the side, packed,
        # for the last pile and opening of the side
        self._frozen_memo: list[tuple[object, object, bytes]] = [(None, None, b"")] * m

    def __repr__(self) -> str:
        return f"<ObservationLayout {self.variant.name} seats={self.seats} sides={self.sides} size={self.size}>"

    @property
    def low(self) -> Array:
        """The smallest value of each element (a copy)."""
        out: Array = self._low.copy()
        return out

    @property
    def high(self) -> Array:
        """The largest value of each element in this variant (a copy)."""
        out: Array = self._high.copy()
        return out

    def field(self, name: str) -> Field:
        """The field called ``name``.

        Raises:
            CanastaError: there is no such field.
        """
        try:
            return self._by_name[name]
        except KeyError:
            raise CanastaError(f"no observation field {name!r}; fields: "
                               + ", ".join(self._by_name)) from None

    def describe(self) -> str:
        """One line per field: offset, size, name and meaning."""
        return "\n".join(f"{f.offset:4d} {f.size:4d}  {f.name:<13} {f.doc}" for f in self.fields)

    def encode(self, view: SeatView) -> Array:
        """The observation vector of ``view`` (a new ``float32`` array of ``size`` elements).

        Raises:
            CanastaError: ``view`` is not a SeatView of this layout's variant.
        """
        if not isinstance(view, SeatView):
            raise CanastaError(f"encode expects a SeatView, got {type(view).__name__}")
        if view.variant is not self.variant and view.variant != self.variant:
            raise CanastaError(f"the view is of variant {view.variant_name!r}, this layout "
                               f"of {self.variant.name!r}")
        t = view.turn
        me = view.seat
        n = self.seats
        rot, size = self._rotate[me], self._size_of
        sizes = self._sizes(*[size[k] for k in rot(view.hand_sizes)], *[size[k] for k in rot(view.foot_sizes)],
                            size[view.stock_size], size[len(view.pile_codes)])
        order = self._order_of[me]
        hand = view.hand_codes
        side = self._side_of[me]
        pile = view.pile_codes
        fm = self._frozen_memo[side]
        pile_block = (fm[2] if fm[0] is pile and fm[1] == view.opened[side]
                      else self._pile_block(side, pile, view.opened[side], view))
        sm = self._sides_blocks(order, (view.red_three_codes, view.opened, view.scores, view.hand_number,
                                        view.end))
        return _frombuffer(bytearray().join((
            self._head[(view.phase * n + (view.current - me) % n) * n + (view.dealer - me) % n],
            _kind_counts(hand), _suit_counts(hand) if self._rules.seq_on else _NO_SUITS,
            sizes, pile_block, self._melds_block(order, view.melds), sm[1], sm[2],
            self._turn_block(me, t.took_pile, t.melded, t.points, len(t.pending), t.asked, t.asker,
                             len(t.drawn)),
            sm[3],
        )), _FLOAT32)

    def encode_state(self, state: GameState, seat: int) -> Array:
        """The same vector as ``encode(state.view(seat))``, without building the view.

        Reads from ``state`` exactly the fields a :class:`~canasta.SeatView` shows
        (``seat``'s own hand; sizes of the other hands, feet and stock; the
        pending and drawn cards of the turn only on ``seat``'s own turn), which is
        cheaper than building the view's stand-in state; the tests check that the
        two agree byte for byte. The environments use it.

        Raises:
            CanastaError: ``state`` is of another variant, or ``seat`` is no seat.
        """
        if state.variant is not self.variant and state.variant != self.variant:
            raise CanastaError(f"the state is of variant {state.variant.name!r}, this layout "
                               f"of {self.variant.name!r}")
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise CanastaError(f"seat must be 0 to {self.seats - 1}, got {seat!r}")
        return self._encode(state, seat, None)

    def _encode(self, state: GameState, seat: int, counts: tuple[int, ...] | None) -> Array:
        """:meth:`encode_state` unchecked; ``counts``: the seat's hand by kind, if the caller has it."""
        # One function on purpose: this runs once per environment step, and each
        # call saved is a measurable share of it. encode() builds the same blocks.
        n = self.seats
        t = state.turn
        phase = state.phase
        current = state.current
        own = seat == (t.asker if phase == ANSWER else current)
        pile = state.pile_
        sizes = self._state_sizes[seat](state.hands_, state.feet_, state.stock_, pile)
        # the turn: pending and drawn cards are seen on the seat's own turn only
        asker = t.asker
        rel_asker = (asker - seat) % n if asker >= 0 else -1
        pending, drawn = (len(t.pending), len(t.drawn)) if own else (0, 0)
        turn = self._turns.get((t.took_pile, t.melded, t.points, pending, t.asked, rel_asker, drawn))
        if turn is None:
            turn = self._turn_block(seat, t.took_pile, t.melded, t.points, pending, t.asked, asker, drawn)
        order = self._order_of[seat]
        side = self._side_of[seat]
        opened = state.opened
        fm = self._frozen_memo[side]
        if fm[0] is pile and fm[1] == opened[side]:
            pile_block = fm[2]
        else:  # _pile_block, for a state
            pm = self._pile_memo
            if pm[0] is not pile:
                pm = self._pile_memo = _new_pile(pm, pile, self._frozen_for_all(state))
            frozen = pm[1]
            pile_block = pm[2] + _FROZEN[frozen][frozen or self._frozen_for(state, side)]
            self._frozen_memo[side] = (pile, opened[side], pile_block)
        melds = state.melds_
        mm = self._melds_memo[order]
        melds_block = mm[1] if mm[0] is melds else self._melds_block(order, melds)
        sides_key = (state.red_threes_, opened, state.scores, state.hand_number, state.end)
        sm = self._sides_memo[order]
        # one comparison of tuples, which tries `is` on each item first: the engine
        # passes most of these on from state to state
        if sm[0] != sides_key:
            sm = self._sides_blocks(order, sides_key)
        if counts is None:
            hand_block = _kind_counts(state.hands_[seat])
        else:  # written out: a list comprehension is a call of its own on Python 3.11
            e = _EIGHTHS
            hand_block = _KIND_PACK(e[counts[1]], e[counts[2]], e[counts[3]], e[counts[4]], e[counts[5]],
                                    e[counts[6]], e[counts[7]], e[counts[8]], e[counts[9]], e[counts[10]],
                                    e[counts[11]], e[counts[12]], e[counts[13]], e[counts[14]], e[counts[15]])
        return _frombuffer(bytearray().join((
            self._heads[seat][(phase * n + current) * n + state.dealer],
            hand_block, _suit_counts(state.hands_[seat]) if self._rules.seq_on else _NO_SUITS,
            sizes, pile_block, melds_block, sm[1], sm[2], turn, sm[3],
        )), _FLOAT32)

    def _pile_block(self, side: int, pile: tuple[int, ...], opened: bool, source: GameState | SeatView) -> bytes:
        """The pile's fields (top card, cards, top card's suit, frozen) for ``side``, packed (kept).

        Kept per side for the pile and the side's opening: whether the pile is
        frozen against a side depends on those only (``pile.frozen_until_opened``,
        :func:`canasta.engine.facts.pile_frozen`); the engine answers it.
        """
        pm = self._pile_memo
        if pm[0] is not pile:
            pm = self._pile_memo = _new_pile(pm, pile, source.pile_frozen)
        frozen = pm[1]
        block = pm[2] + _FROZEN[frozen][frozen or source.pile_frozen_for(side)]
        self._frozen_memo[side] = (pile, opened, block)
        return block

    def _turn_block(self, me: int, took: bool, melded: bool, points: int, pending: int, asked: int,
                    asker: int, drawn: int) -> bytes:
        """The turn block seen by ``me``, packed (kept for the first 4096 different turns)."""
        n = self.seats
        rel_asker = (asker - me) % n if asker >= 0 else -1
        key = (took, melded, points, pending, asked, rel_asker, drawn)
        turn = self._turns.get(key)
        if turn is None:
            turn = _pack(1.0 if took else 0.0, 1.0 if melded else 0.0, points / POINT_SCALE,
                         pending / CARD_SCALE, *_ASKED[asked],
                         *(self._onehot[rel_asker] if rel_asker >= 0 else self._zeros),
                         drawn / CARD_SCALE)
            if len(self._turns) < 4096:
                self._turns[key] = turn
        return turn

    def _melds_block(self, order: int, melds: tuple[tuple[MeldGroup, ...], ...]) -> bytes:
        """Every side's melds, then every side's canasta counts, packed, in side ``order`` (kept)."""
        mm = self._melds_memo[order]
        if mm[0] is melds:
            return mm[1]
        # states share the tuple of a side whose melds a move leaves alone, so `is` finds it
        side_memo = self._side_memo
        blocks: list[bytes] = []
        counts: list[bytes] = []
        for side in self._orders[order]:
            kept = side_memo[side]
            if kept[0] is not melds[side]:
                kept = self._side_block(side, melds[side])
            blocks.append(kept[3])
            counts.append(kept[4])
        blocks += counts
        block = b"".join(blocks)
        self._melds_memo[order] = (melds, block)
        return block

    def _side_block(self, side: int, melds: tuple[MeldGroup, ...]) -> _SideMemo:
        """``side``'s memo brought to ``melds``: the melds that differ from the kept ones
        (compared place by place) are taken out of the counts and put in, and only the
        target slots they touch are packed again."""
        kept = self._side_memo[side]
        old = kept[0]
        if old is melds:
            return kept
        # copies: a memo once stored is never changed, so that a layout shared by
        # environments in several threads stays right
        lo, ln = len(old), len(melds)
        cut = lo if lo < ln else ln
        differ = list(compress(range(cut), map(is_not, old, melds)))
        cells, kinds = kept[1][:], kept[2]
        gone = [old[i] for i in differ]
        gone += old[cut:]
        laid = [melds[i] for i in differ]
        laid += melds[cut:]
        # Rules.canasta_kind(meld) is kind_of(meld.rank, meld.size, meld.wilds), one call deeper
        kind_of = self._rules.kind_of
        touched: dict[int, None] = {}
        for sign, group in ((-1, gone), (1, laid)):
            for meld in group:
                i = _TARGET_CELL[meld.rank]
                touched[i] = None
                cells[i] += sign
                cells[i + 1] += sign * meld.naturals
                cells[i + 2] += sign * meld.wilds
                kind = kind_of(meld.rank, len(meld.cards), meld.wilds)
                if kind is not None:
                    cells[i + 3] += sign
                    if kinds is kept[2]:
                        kinds = kinds[:]
                    kinds[_CANASTA_INDEX[kind]] += sign
        block = kept[3]
        for i in touched:  # each slot once (a meld grown in place touches its slot twice)
            # counts ÷ scale are the sums of 1/4 and k/8 the field documents, exactly (dyadic)
            block = b"".join((block[:4 * i], _CELL_PACK(cells[i] / MELD_SCALE, cells[i + 1] / CARD_SCALE,
                                                        cells[i + 2] / CARD_SCALE, cells[i + 3] / MELD_SCALE),
                              block[4 * i + 16:]))
        counts = kept[4] if kinds == kept[2] else _pack(*[k / MELD_SCALE for k in kinds])
        memo = self._side_memo[side] = (melds, cells, kinds, block, counts)
        return memo

    def _sides_blocks(self, order: int, key: _SidesKey) -> _SidesMemo:
        """``key`` (red 3s, opened, scores, hand number, hand end), then the packed red 3s and
        openings, opening needs, and scores (kept)."""
        sm = self._sides_memo[order]
        if sm[0] == key:
            return sm
        reds, opened, scores, hand_number, end = key
        sides = self._orders[order]
        need = _opening_need(self.variant, tuple(scores[side] for side in sides), hand_number)
        flags = _pack(*[len(reds[side]) / MELD_SCALE for side in sides],
                      *[1.0 if opened[side] else 0.0 for side in sides])
        needs = _pack(*[0.0 if opened[side] else need[i] for i, side in enumerate(sides)])
        hand_scores = end.hand_scores if end is not None and end.breakdowns else None
        sm = self._sides_memo[order] = (key, flags, needs, self._tail(self._order_seat[order], scores,
                                                                      hand_scores, hand_number))
        return sm

    @functools.lru_cache(maxsize=1024)  # noqa: B019 - layouts are few and live as long as their variant
    def _tail(self, me: int, scores: tuple[int, ...], hand_scores: tuple[int, ...] | None,
              hand_number: int) -> bytes:
        """Scores, hand scores and hand number, packed (cached)."""
        sides = self._side_order[me]
        out = [_clip(scores[side] / SCORE_SCALE) for side in sides]
        if hand_scores is not None:
            out += [_clip(hand_scores[side] / SCORE_SCALE) for side in sides]
        else:
            out += [0.0] * self.sides
        out.append(min(hand_number / HAND_NUMBER_SCALE, 1.0))
        return _pack(*out)


#: Packs the ``hand_sizes``, ``foot_sizes``, ``stock_size`` and ``pile_size`` fields from a
#: state's hands, feet, stock and pile (for one observing seat).
_SizesPacker = Callable[[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...],
                         tuple[int, ...]], bytes]


def _sizes_packer(order: list[int], pack: Callable[..., bytes], size_of: tuple[float, ...]) -> _SizesPacker:
    """The sizes block of the seats in ``order`` (relative seat 0 first), as one generated function.

    Generated, with the seats written out, because it runs once per environment
    step: two list comprehensions over a rotated tuple cost twice as much.
    """
    terms = ([f"s[len(h[{q}])]" for q in order] + [f"s[len(f[{q}])]" for q in order]
             + ["s[len(k)]", "s[len(p)]"])
    source = f"lambda h, f, k, p, s=s, pack=pack, len=len: pack({', '.join(terms)})"
    packer: _SizesPacker = eval(source, {"s": size_of, "pack": pack, "len": len})
    return packer


_PHASES = tuple(tuple(1.0 if i == p else 0.0 for i in range(5)) for p in range(5))
_ASKED = tuple(tuple(1.0 if i == a else 0.0 for i in range(3)) for a in range(3))


def _pack(*values: float) -> bytes:
    """``values`` as little-endian float32 bytes."""
    return struct.pack(f"<{len(values)}f", *values)


# np.frombuffer with a dtype object, passed by position: a keyword costs it twice the time
_frombuffer = np.frombuffer
_FLOAT32 = np.dtype("<f4")  # what _pack writes
_INT8 = np.dtype(np.int8)

_FROZEN = ((_pack(0.0, 0.0), _pack(0.0, 1.0)), (_pack(1.0, 0.0), _pack(1.0, 1.0)))


def _clip(x: float) -> float:
    return -1.0 if x < -1.0 else (1.0 if x > 1.0 else x)


# A count k is looked up as k ÷ 8 (exact in binary, the same float32 as adding 1/8 k
# times). Counting with a plain loop over the cards and indexing the table in a list
# comprehension beats the C-level tricks (bytes.translate and bytes.count, map over
# tuple.__getitem__): each of those is a call through a method wrapper, dearer than
# the interpreter's specialized indexing on Python 3.11 and later.
#: The kind slot (0 to 14) of each card code; 15 for a code that is no card.
_KIND_SLOT = tuple(KIND[c] - 1 if c < len(KIND) and KIND[c] else len(KIND_SLOTS) for c in range(64))
_EIGHTHS = tuple(k / CARD_SCALE for k in range(256))
_KIND_PACK = struct.Struct(f"<{len(KIND_SLOTS)}f").pack
#: The pile-top one-hot, packed, per kind (index 0: an empty pile).
_TOPS = (_pack(*[0.0] * len(KIND_SLOTS)),
         *(_pack(*[1.0 if i == k - 1 else 0.0 for i in range(len(KIND_SLOTS))]) for k in KIND_SLOTS))


def _kind_counts(cards: tuple[int, ...]) -> bytes:
    """Cards of each kind in slot order ÷ CARD_SCALE, packed as float32."""
    counts = [0] * (len(KIND_SLOTS) + 1)
    slot = _KIND_SLOT
    for c in cards:
        counts[slot[c]] += 1
    eighths = _EIGHTHS
    return _KIND_PACK(*[eighths[k] for k in counts[:-1]])


#: The ``hand_suits`` slot of each card code (rank 4 to A, then suit); one past the last
#: slot for a code the field does not count.
_SUIT_SLOT = tuple(
    ((c >> 2) - SUITED_RANKS[0]) * 4 + (c & 3) if SUITED_RANKS[0] <= c >> 2 <= SUITED_RANKS[-1]
    else 4 * len(SUITED_RANKS) for c in range(64))
_SUITED_PACK = struct.Struct(f"<{4 * len(SUITED_RANKS)}f").pack
_NO_SUITS = _SUITED_PACK(*[0.0] * (4 * len(SUITED_RANKS)))


def _suit_counts(cards: tuple[int, ...]) -> bytes:
    """Natural cards of each rank 4 to A and suit ÷ CARD_SCALE, packed (``hand_suits``)."""
    counts = [0] * (4 * len(SUITED_RANKS) + 1)
    slot = _SUIT_SLOT
    for c in cards:
        counts[slot[c]] += 1
    eighths = _EIGHTHS
    return _SUITED_PACK(*[eighths[k] for k in counts[:-1]])


_SUIT_TOPS = tuple(_pack(*[1.0 if i == suit else 0.0 for i in range(4)]) for suit in range(4))
_NO_SUIT_TOP = _pack(0.0, 0.0, 0.0, 0.0)


#: A pile, whether it freezes for everyone, its fields packed (top card's kind one-hot, cards of
#: each kind ÷ CARD_SCALE, top card's suit one-hot), its counts by kind slot and their packing.
_PileMemo = tuple[tuple[int, ...], bool, bytes, list[int], bytes]
#: No pile: ``(-1,)`` is no pile a state holds (so no discard makes one from it).
_NO_PILE: _PileMemo = ((-1,), False, b"", [0] * (len(KIND_SLOTS) + 1), b"")
#: A count of cards ÷ CARD_SCALE as float32 bytes, by count.
_EIGHTH_BYTES = tuple(_pack(k / CARD_SCALE) for k in range(256))
#: Per card code: the pile-top kind one-hot and suit one-hot, packed (a joker has no suit).
_TOP_OF = tuple(_TOPS[KIND[c]] if c < len(KIND) and KIND[c] else _TOPS[0] for c in range(64))
_SUIT_OF = tuple(_NO_SUIT_TOP if c >= len(KIND) or KIND[c] == 15 else _SUIT_TOPS[c & 3] for c in range(64))


def _new_pile(kept: _PileMemo, pile: tuple[int, ...], frozen: bool) -> _PileMemo:
    """The memo of ``pile``: ``kept``'s counts and one slot repacked where a discard made it of
    ``kept``'s pile (most new piles), else counted afresh."""
    old = kept[0]
    if len(pile) == len(old) + 1 and pile[:-1] == old:
        i = _KIND_SLOT[pile[-1]]
        counts = kept[3][:]
        counts[i] += 1
        cards = kept[4]
        cards = cards[:4 * i] + _EIGHTH_BYTES[counts[i]] + cards[4 * i + 4:]
    else:
        counts = [0] * (len(KIND_SLOTS) + 1)
        slot = _KIND_SLOT
        for c in pile:
            counts[slot[c]] += 1
        eighths = _EIGHTHS
        cards = _KIND_PACK(*[eighths[k] for k in counts[:-1]])
    if not pile:
        return pile, frozen, _TOPS[0] + cards + _NO_SUIT_TOP, counts, cards
    top = pile[-1]
    return pile, frozen, _TOP_OF[top] + cards + _SUIT_OF[top], counts, cards


@lru_cache(maxsize=1024)
def _opening_need(v: Variant, scores: tuple[int, ...], hand_number: int) -> tuple[float, ...]:
    """The opening minimum of sides with ``scores`` (scaled), as if none had opened."""
    return tuple(v.opening_minimum(x, hand_number) / POINT_SCALE for x in scores)


#: The first cell (of four: melds, naturals, wilds, canastas) of the target slot of a meld of
#: each rank (see :data:`TARGET_SLOTS`), by rank.
_TARGET_CELL = {rank: 4 * i for i, rank in enumerate(TARGET_SLOTS)}
#: The ``canastas`` slot of each kind of canasta.
_CANASTA_INDEX = {"natural": 0, "mixed": 1, "wild": 2, "sequence": 3}
_CELL_PACK = struct.Struct("<4f").pack
#: A side's memo: its melds; per target slot its melds, naturals, wilds and canastas; its
#: canastas of each kind (ints); the packed ``melds`` block and ``canastas`` counts.
_SideMemo = tuple[tuple[MeldGroup, ...], list[int], list[int], bytes, bytes]
_NO_MELDS: _SideMemo = ((), [0] * (4 * len(TARGET_SLOTS)), [0] * len(_CANASTA_INDEX),
                        _pack(*[0.0] * (4 * len(TARGET_SLOTS))), _pack(*[0.0] * len(_CANASTA_INDEX)))


@lru_cache(maxsize=64)
def layout_of(variant: Variant) -> ObservationLayout:
    """The (cached) observation layout of ``variant``."""
    return ObservationLayout(variant)


def encode_view(view: SeatView) -> Array:
    """The observation vector of ``view``; see :class:`ObservationLayout`."""
    return layout_of(view.variant).encode(view)


def observe_to_move(layout: ObservationLayout, space: ActionSpace, state: GameState,
                    size: int | None = None) -> tuple[Array, npt.NDArray[np.int8]]:
    """The observation vector and the action mask of the seat to move in ``state``.

    The same arrays as ``layout.encode_state(state, state.current)`` and
    ``action_mask(space, state, size)``, for less: the vector takes the hand's
    counts by kind from what the engine worked out for the legal moves. The
    environments call it once a step.

    Raises:
        CanastaError: ``state`` is of another variant than ``layout`` or
            ``space``, or ``size`` is shorter than the space.
    """
    mask = action_mask(space, state, size)
    if state.variant is not layout.variant and state.variant != layout.variant:
        raise CanastaError(f"the state is of variant {state.variant.name!r}, this layout "
                           f"of {layout.variant.name!r}")
    # action_mask asked the legal moves (but once the game is over), which made the context
    counts = context_of(state).counts if state.phase != GAME_OVER else None
    return layout._encode(state, state.current, counts), mask


def action_mask(space: ActionSpace, state: GameState | SeatView,
                size: int | None = None) -> npt.NDArray[np.int8]:
    """The legal-action mask of ``state`` as an ``np.int8`` array of ``space.size`` (1 = legal).

    The same ids as :meth:`canasta.ActionSpace.legal_ids`. All zeros once the
    game is over, and for a view of a seat whose turn it is not.

    Args:
        space: the action ids.
        state: a state or a seat's view.
        size: the mask's length if longer than ``space.size`` (an environment's
            own extra ids, such as a wait action, stay 0).

    Raises:
        CanastaError: ``state`` is of another variant than ``space``, or ``size``
            is shorter than the space.
    """
    if state.variant is not space.variant and state.variant != space.variant:
        raise CanastaError(f"the state is of variant {state.variant.name!r}, the action space "
                           f"of {space.variant.name!r}")
    n = space.size if size is None else size
    if n < space.size:
        raise CanastaError(f"a mask of {space.variant.name!r} needs at least {space.size} ids, got {size!r}")
    buf = bytearray(n)
    if state.phase != GAME_OVER:
        space.mark(state.legal_moves(), buf)
    return _frombuffer(buf, _INT8)


def mover_observer(layout: ObservationLayout, space: ActionSpace,
                   size: int | None = None) -> Callable[[GameState], tuple[Array, npt.NDArray[np.int8]]]:
    """A function of a state giving what :func:`observe_to_move` gives, for one layout and space.

    It checks the layout, space and size once, here, instead of on every call,
    and binds what each call needs: an environment asks it once a step, so
    every call saved there counts. The states given to it must be of the
    layout's variant (an environment's own states).

    Raises:
        CanastaError: ``layout`` and ``space`` are of different variants, or
            ``size`` is shorter than the space.
    """
    if space.variant is not layout.variant and space.variant != layout.variant:
        raise CanastaError(f"the action space is of variant {space.variant.name!r}, the layout "
                           f"of {layout.variant.name!r}")
    n = space.size if size is None else size
    if n < space.size:
        raise CanastaError(f"a mask of {space.variant.name!r} needs at least {space.size} ids, got {size!r}")
    mark = space.mark
    encode = layout._encode

    def observe(state: GameState) -> tuple[Array, npt.NDArray[np.int8]]:
        buf = bytearray(n)
        if state.phase == GAME_OVER:
            return encode(state, state.current, None), _frombuffer(buf, _INT8)
        mark(state.legal_moves(), buf)
        # legal_moves made the context, whose counts are the hand's by kind
        return encode(state, state.current, context_of(state).counts), _frombuffer(buf, _INT8)

    return observe
