"""A fixed integer action space for learning agents: :class:`ActionSpace`.

For one variant, every move the engine can ever list gets a number from
``0`` to ``size - 1``, in this order (the order is part of the format: ids
only change when the variant does):

1. ``draw``, ``pass``;
2. ``take pair``, ``take layoff``, ``take finish``, then ``take <wild>`` for each
   wild rank (only if the variant lets a natural and a wild card take the pile);
3. new melds of the variant's new-meld size: for each meldable natural rank
   (2 … A, in rank order), each legal split into naturals and wild cards, each
   multiset of wild ranks; then wild-only melds (if the variant has them); then
   black-3 melds of ``black_meld_min`` to ``black_meld_max`` cards (if black 3s
   may ever be melded);
4. ``add <target> <card>``: for each target (natural ranks, then ``W`` if the
   variant has wild melds) the target's own rank, then each wild rank;
5. ``foot``, ``ask``, ``yes``, ``no``;
6. ``discard <rank>`` then ``out <rank>`` for every rank a hand can hold (black
   3 as ``3``; never a red 3);

   where suits matter (a variant with sequences), the ranks a sequence may
   hold come with each suit: each choice of suits of a new meld's naturals,
   ``add`` of each suit, ``discard`` and ``out`` of each suit, and (after the
   sequence moves) ``take pair`` and ``take <wild>`` with each choice of
   naturals;
7. ``next``;
8. ``back`` (only where the variant lets cards laid this turn be taken back);
9. sequences (only where the variant has them): each new sequence (by suit,
   then lowest rank), then for each sequence a side could hold short of its
   closing size (by suit, lowest rank, highest rank) the card one above it and
   the card one below it, then (only where ``sequences.grow_when_going_out``
   lets a closed sequence grow as part of going out) the same for each
   sequence from its closing size up (by suit, size, lowest rank), then
   ``take`` onto each sequence short of its closing size (only where the top
   card may be laid off to take the pile);
10. ``special <name>`` for each special hand of the variant, in the order
    ``special.hands`` lists them (after every other id, so a variant without
    special hands keeps its ids);
11. ``lay 3R`` and ``lay 3`` (only where ``threes.keep_one`` lets a player keep
    a 3 of that colour in hand);
12. where a side may hold several melds of one rank (``melds.duplicate_ranks:
    any``): for each natural rank, the adds to its second, third, ... open meld
    (as in 4., up to as many melds as the decks' naturals of the rank can
    make), then ``combine`` of each two of them, then ``take layoff 2nd``,
    ``3rd``, ... (only where the top card may be laid off to take the pile);
13. where two sequences of a suit that meet end to end may be joined
    (``sequences.join``): ``join`` of each such pair the window allows, by
    suit, lowest rank, then the rank where the upper one starts.
14. where a new sequence may hold a wild card between two of its natural
    cards (``sequences.wild_in_gap``): each such new sequence, by suit, lowest
    rank, the rank the wild card stands for, then the wild rank.

Only combinations the variant's meld rules allow and the decks can supply are
numbered, so the space stays small (classic: a few hundred ids).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations_with_replacement
from typing import cast

import attrs

from canasta.cards import JOKER
from canasta.engine import BLACK_THREE, check, compile_rules
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
    LaySpecial,
    LayThree,
    Meld,
    MeldSequence,
    Move,
    NextHand,
    Pass,
    TakeBack,
    TakePile,
    TakeSequence,
    TakeTopCard,
)
from canasta.engine.state import GameState
from canasta.engine.tables import Rules
from canasta.engine.taking import finish_start
from canasta.engine.view import SeatView
from canasta.errors import CanastaError, IllegalMoveError
from canasta.variant.model import Variant

__all__ = ["ActionSpace"]

#: How many move objects :meth:`ActionSpace.mark` remembers by identity.
_KNOWN_MOVES = 8192


def _deck_count(v: Variant, kind: int) -> int:
    """How many cards of ``kind`` the variant's decks hold."""
    if kind == JOKER:
        return v.deck.decks * v.deck.jokers_per_deck
    if kind in (RED_THREE, BLACK_THREE):
        return 2 * v.deck.decks
    return 4 * v.deck.decks


def _wild_multisets(v: Variant, wilds: Sequence[int], j: int) -> list[tuple[int, ...]]:
    """Every multiset of ``j`` wild kinds that the decks can supply."""
    out = []
    for combo in combinations_with_replacement(sorted(wilds, reverse=True), j):
        if all(combo.count(w) <= _deck_count(v, w) for w in set(combo)):
            out.append(combo)
    return out


def _enumerate(v: Variant) -> list[Move]:
    """Every move of the variant in id order (later kinds of move come after the others, so ids stay put)."""
    r = compile_rules(v)
    moves: list[Move] = [Draw(), Pass(), TakePile("pair"), TakePile("layoff"),
                         TakePile("finish")]
    if v.pile.take_natural_and_wild:
        moves += [TakePile("wild", w) for w in r.wild_kinds]
    moves += _new_meld_moves(v, r)
    moves += _add_moves(v, r)
    moves += [Foot(), Ask(), Answer(True), Answer(False)]
    moves += _discard_moves(v, r)
    moves.append(NextHand())
    if v.melds.rearrange:
        moves.append(TakeBack())  # after the others, so the ids of the other moves do not move
    if r.seq_on:
        moves += _sequence_moves(v)
        moves += _named_take_moves(v, r)
    moves += [LaySpecial(h.name) for h in v.special.hands]
    if r.keep_three:
        # threes.keep_one: laying out a kept 3 (after every other id, like the special hands)
        moves += [LayThree(k) for k in (RED_THREE, BLACK_THREE) if r.laid_at_once[k]]
    if r.dup_any:
        moves += _several_melds_moves(v, r)
    if r.seq_join:
        moves += _join_moves(r)
    if r.seq_wild:
        moves += _wild_sequence_moves(r, r.wild_kinds)
    return moves


def _new_meld_moves(v: Variant, r: Rules) -> list[Move]:
    """New melds of the smallest size: of each natural rank with every mix of wild cards, of wild cards, of black 3s."""
    wilds = r.wild_kinds
    size = r.new_size
    moves: list[Move] = []
    for k in r.natural_kinds:
        for n in range(max(r.min_nat, 1), min(size, _deck_count(v, k)) + 1):
            if not r.valid(k, n, size - n, True):
                continue
            for combo in _wild_multisets(v, wilds, size - n):
                if r.suited[k]:
                    moves += [Meld((k,) * n + combo, suits) for suits in _suits(v, n)]
                else:
                    moves.append(Meld((k,) * n + combo))
    if v.melds.wild_melds and r.valid(WILD_TARGET, 0, size, True):
        moves += [Meld(combo) for combo in _wild_multisets(v, wilds, size)]
    th = v.threes
    if r.black_melds:  # not where 3s are wild: three 3s are a meld of wild cards, listed above
        most = _deck_count(v, BLACK_THREE)
        if th.black_meld_max is not None:
            most = min(most, th.black_meld_max)
        moves += [Meld((BLACK_THREE,) * n) for n in range(th.black_meld_min, most + 1)]
    return moves


def _add_moves(v: Variant, r: Rules) -> list[Move]:
    """Adding one card to the side's meld of each rank (a natural of the rank, or a wild card), and to its wild meld."""
    targets = list(r.natural_kinds) + ([WILD_TARGET] if v.melds.wild_melds else [])
    moves: list[Move] = []
    for t in targets:
        if t != WILD_TARGET:
            moves += [Add(t, t, x) for x in range(4)] if r.suited[t] else [Add(t, t)]
        moves += [Add(t, w) for w in r.wild_kinds]
    return moves


def _discard_moves(v: Variant, r: Rules) -> list[Move]:
    """Discarding each kind of card the decks hold (by suit where suits matter), then going out with it."""
    kinds = [k for k in range(BLACK_THREE - 1, JOKER + 1) if _deck_count(v, k)]
    moves: list[Move] = []
    for out in (False, True):
        for k in kinds:
            moves += [Discard(k, out, x) for x in range(4)] if r.suited[k] else [Discard(k, out)]
    return moves


def _named_take_moves(v: Variant, r: Rules) -> list[Move]:
    """Taking the pile with named naturals, where suits matter: by the top card's rank."""
    moves: list[Move] = []
    for k in r.seq_ranks:
        moves += [TakePile("pair", 0, tuple(k * 4 + x for x in suits)) for suits in _suits(v, 2)]
        if v.pile.take_natural_and_wild:
            moves += [TakePile("wild", w, (k * 4 + x,)) for w in r.wild_kinds for x in range(4)]
        if v.pile.blocked_by_meld_size is not None and v.pile.blocked_exception:
            # the naturals to finish the meld (one or more) and start a new one
            start = finish_start(r)
            for n in range(start + 1, r.canasta_size + start):
                moves += [TakePile("finish", 0, tuple(k * 4 + x for x in suits)) for suits in _suits(v, n)]
    return moves


def _new_sequences(r: Rules) -> list[MeldSequence]:
    """Every new sequence of natural cards, by suit then lowest rank, even those closed as
    soon as laid (size == most)."""
    ranks = r.seq_ranks
    size, most = r.seq_min, r.seq_max
    return [
        MeldSequence(suit, low, low + size - 1) for suit in range(4) for low in ranks
        if all(k in ranks for k in range(low, low + size)) and (most is None or size <= most)
    ]


def _wild_sequence_moves(r: Rules, wilds: Sequence[int]) -> list[Move]:
    """New sequences with a wild card standing for an inside rank (``sequences.wild_in_gap``)."""
    return [
        MeldSequence(m.suit, m.low, m.high, w, gap)
        for m in _new_sequences(r) for gap in range(m.low + 1, m.high) for w in wilds
    ]


def _join_moves(r: Rules) -> list[Move]:
    """``join`` of two sequences a side could hold that meet end to end (``sequences.join``).

    Each is open (short of the closing size) and at least ``sequences.min_size``
    long, and the two together fit the window and the closing size.
    """
    ranks = set(r.seq_ranks)
    size, most = r.seq_min, r.seq_max
    out: list[Move] = []
    for suit in range(4):
        for low in sorted(ranks):
            for middle in range(low + size, 15):
                for high in range(middle + size - 1, 15):
                    if not all(k in ranks for k in range(low, high + 1)):
                        continue
                    # past the closing size only where sequences grow as part of going out
                    if most is not None and not r.seq_grow and (
                        middle - low >= most or high - middle + 1 >= most or high - low + 1 > most
                    ):
                        continue
                    out.append(JoinSequences(suit, low, middle, high))
    return out


def _several_melds_moves(v: Variant, r: Rules) -> list[Move]:
    """The moves on a side's later melds of a rank and combines (``melds.duplicate_ranks: any``),
    in the order the module docstring gives."""
    out: list[Move] = []
    wilds = r.wild_kinds
    # every meld holds melds.min_naturals naturals at least: so many melds of a rank at most
    most = {t: _deck_count(v, t) // max(1, r.min_nat) for t in r.natural_kinds}
    for t in r.natural_kinds:
        for nth in range(1, most[t]):
            out += [Add(t, t, x, nth) for x in range(4)] if r.suited[t] else [Add(t, t, -1, nth)]
            out += [Add(t, w, -1, nth) for w in wilds]
        out += [Combine(t, i, j) for i in range(most[t]) for j in range(i + 1, most[t])]
    if v.pile.take_lay_off:
        top = max(most.values(), default=0)
        out += [TakePile("layoff", 0, (), nth) for nth in range(1, top)]
    return out


def _suits(v: Variant, n: int) -> list[tuple[int, ...]]:
    """Every multiset of ``n`` suits the decks can supply (each card ``deck.decks`` times)."""
    return [
        combo for combo in combinations_with_replacement(range(4), n)
        if all(combo.count(x) <= v.deck.decks for x in range(4))
    ]


def _sequence_moves(v: Variant) -> list[Move]:
    """The sequence moves of ``v``, in the order the module docstring gives."""
    r = compile_rules(v)
    ranks = r.seq_ranks
    size, most = r.seq_min, r.seq_max
    spans = []  # every sequence a side could hold and still add to: (suit, low, high)
    for suit in range(4):
        for low in ranks:
            high = low + size - 1
            while high in ranks and all(k in ranks for k in range(low, high + 1)):
                if most is not None and high - low + 1 >= most:
                    break
                spans.append((suit, low, high))
                high += 1
    out: list[Move] = list(_new_sequences(r))
    for suit, low, high in spans:
        out += [AddToSequence(suit, low, high, k) for k in (high + 1, low - 1) if k in ranks]
    if r.seq_grow:
        # sequences.grow_when_going_out: a closed sequence (or one grown past its
        # closing size) takes a card at an end as part of going out
        for suit, low, high in _grown_spans(r):
            out += [AddToSequence(suit, low, high, k) for k in (high + 1, low - 1) if k in ranks]
    if v.pile.take_lay_off:
        out += [TakeSequence(suit, low, high) for suit, low, high in spans]
    if v.sequences.top_card_pickup:
        out += [TakeTopCard(suit, low, high) for suit, low, high in spans]
    return out


def _grown_spans(r: Rules) -> list[tuple[int, int, int]]:
    """Every sequence from its closing size up that still has room in the window: (suit, low, high)."""
    ranks = r.seq_ranks
    most = r.seq_max
    assert most is not None  # Rules.seq_grow asks for a closing size
    return [
        (suit, low, low + size - 1)
        for suit in range(4) for size in range(most, len(ranks)) for low in ranks
        if all(k in ranks for k in range(low, low + size))
    ]


class ActionSpace:
    """The integer actions of one variant: every listable move has a fixed id.

    Args:
        variant: the rules; the ids depend on them only.

    Example::

        space = ActionSpace(state.variant)
        mask = space.mask(state)                 # one bool per id
        state = state.apply(space.decode(state, chosen_id))
    """

    def __init__(self, variant: Variant) -> None:
        if not isinstance(variant, Variant):
            raise CanastaError(f"ActionSpace expects a Variant, got {type(variant).__name__}")
        self.variant = variant
        self._moves: tuple[Move, ...] = tuple(_enumerate(variant))
        self._ids: dict[Move, int] = {m: i for i, m in enumerate(self._moves)}
        assert len(self._ids) == len(self._moves), "duplicate actions"
        # mark()'s memo: the id of each move object met, by identity, and the objects
        # themselves (holding one keeps its identity from passing to another object)
        self._known: dict[int, int] = {}
        self._held: list[Move] = []
        self._by_fields: dict[type, tuple[Callable[[Move], object] | None, dict[object, int]]] | None = None

    @property
    def size(self) -> int:
        """The number of action ids."""
        return len(self._moves)

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every action's move, indexed by id."""
        return self._moves

    def __len__(self) -> int:
        return len(self._moves)

    def __repr__(self) -> str:
        return f"<ActionSpace {self.variant.name} size={self.size}>"

    def encode(self, move: Move | str) -> int:
        """Return the id of ``move``.

        Args:
            move: a move or its notation.

        Returns:
            Its id, ``0 <= id < size``.

        Raises:
            CanastaError: the move is none the engine can list in this variant
                (e.g. a meld of the wrong size); NotationError for text that is
                not a move.
        """
        from canasta.engine.moves import parse_move

        m = parse_move(move, compile_rules(self.variant).suited_ranks) if isinstance(move, str) else move
        try:
            return self._ids[m]
        except (KeyError, TypeError):
            raise CanastaError(
                f"{str(m)!r} is not an action of variant {self.variant.name!r}"
            ) from None

    def move(self, action: int) -> Move:
        """Return the move of id ``action``, legal or not.

        Raises:
            CanastaError: ``action`` is not an id of this space.
        """
        if not isinstance(action, int) or isinstance(action, bool) or not (
            0 <= action < len(self._moves)
        ):
            raise CanastaError(f"action id must be 0 to {len(self._moves) - 1}, got {action!r}")
        return self._moves[action]

    def decode(self, state: GameState | SeatView, action: int) -> Move:
        """Return the move of id ``action``, checking that it is legal in ``state``.

        Args:
            state: the position (a state, or the view of the seat to move).
            action: an id.

        Returns:
            The move, ready for ``state.apply``.

        Raises:
            CanastaError: ``action`` is not an id of this space.
            IllegalMoveError: the move is not legal in ``state``; ``.reason``
                says why.
        """
        move = self.move(action)
        s = self._state_of(state)
        if isinstance(state, SeatView) and state.current != state.seat:
            raise IllegalMoveError(str(move), f"it is seat {state.current}'s turn, not "
                                   f"seat {state.seat}'s")
        reason = check(s, move)
        if reason is not None:
            raise IllegalMoveError(str(move), reason)
        return move

    def legal_ids(self, state: GameState | SeatView) -> list[int]:
        """The ids of the legal moves in ``state``, in increasing order.

        Raises:
            CanastaError: ``state`` is of another variant.
        """
        self._state_of(state)
        ids = []
        for m in state.legal_moves():
            i = self._ids.get(m)
            if i is None:  # pragma: no cover - would be a bug in the enumeration
                raise CanastaError(f"legal move {str(m)!r} has no action id")
            ids.append(i)
        return sorted(ids)

    def mark(self, moves: Iterable[Move], buf: bytearray) -> None:
        """Set ``buf[id] = 1`` for the id of each of ``moves`` (the masks of :mod:`canasta.observe`).

        The engine hands out the same move objects again and again (99% of the
        legal moves of random play): they are found by identity, without
        hashing a move.

        Raises:
            CanastaError: a move that is no action of this space.
        """
        known = self._known
        try:
            for m in moves:
                buf[known[id(m)]] = 1
        except KeyError:
            for m in moves:
                buf[self._learn(m)] = 1

    def _learn(self, m: Move) -> int:
        """The id of ``m``, found by its class and field values (read with
        :func:`operator.attrgetter`, which hash in C, unlike a move), and remembered by identity."""
        hit = self._known.get(id(m))
        if hit is not None:
            return hit
        if self._by_fields is None:
            table: dict[type, tuple[Callable[[Move], object] | None, dict[object, int]]] = {}
            for i, move in enumerate(self._moves):
                cls = type(move)
                if cls not in table:
                    names = [a.name for a in attrs.fields(cast("type[attrs.AttrsInstance]", cls))]
                    table[cls] = (operator.attrgetter(*names) if names else None, {})
                read, ids = table[cls]
                ids[read(move) if read is not None else None] = i
            self._by_fields = table
        read, ids = self._by_fields.get(type(m), (None, {}))
        hit = ids.get(read(m) if read is not None else None)
        if hit is None:
            raise CanastaError(f"{str(m)!r} is not an action of variant {self.variant.name!r}")
        if len(self._held) < _KNOWN_MOVES:
            self._held.append(m)
            self._known[id(m)] = hit
        return hit

    def mask(self, state: GameState | SeatView) -> list[bool]:
        """The legal-action mask of ``state``: ``mask[id]`` is whether id is legal.

        Raises:
            CanastaError: ``state`` is of another variant.
        """
        out = [False] * len(self._moves)
        for i in self.legal_ids(state):
            out[i] = True
        return out

    def _state_of(self, state: GameState | SeatView) -> GameState:
        # a view's moves are its seat's: the state that lists them answers for it
        s: GameState = state._moves_state if isinstance(state, SeatView) else state
        if not isinstance(s, GameState):
            raise CanastaError(f"expected a GameState or SeatView, got {type(state).__name__}")
        if s.variant != self.variant:
            raise CanastaError(
                f"the state is of variant {s.variant.name!r}, this action space of "
                f"{self.variant.name!r}"
            )
        return s
