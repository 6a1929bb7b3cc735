"""Card tables: live games with a seat per person or bot, kept in a :class:`~canasta.web.store.Store`.

A :class:`Table` holds the full :class:`~canasta.GameState`; nothing outside
this module reads it. What leaves the server is :meth:`Table.message`: one
seat's view (:meth:`canasta.GameState.view`), that seat's legal moves, the
public log of moves and the hands' scores. Every move, a person's or a bot's,
is committed to the store before the state in memory changes, so an answer or
an event never tells of a move the database could lose.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from canasta import (
    CanastaError,
    GameState,
    IllegalMoveError,
    Move,
    NextHand,
    NotationError,
    RecordedGame,
    Variant,
    new_game,
    parse_variant,
    to_json,
)
from canasta.play.bots import BOTS, make_bot
from canasta.variant.loading import dump_variant
from canasta.web.store import SavedTable, Store

__all__ = ["KEEP_FINISHED", "LOG_LENGTH", "PERSON", "ApiError", "Table", "Tables"]

#: The seat kind of a person (the others are bot names, see :data:`canasta.play.bots.BOTS`).
PERSON = "person"
#: Moves of the public log sent with every message.
LOG_LENGTH = 30
#: Finished tables kept in memory; the others are replayed from the store when asked for.
KEEP_FINISHED = 64
#: Longest move text accepted.
MAX_MOVE_TEXT = 2048


class ApiError(CanastaError):
    """A request the server refuses: an HTTP status and a message for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:
        # built again from its fields: a server worker process may raise it to its parent
        return (type(self), (self.status, self.message))


@dataclass
class Table:
    """A game at a table: its rules, seats and moves, and the state they lead to.

    Attributes:
        id: the public id (it opens no seat).
        variant: the rules.
        seed: the deal seed.
        seats: :data:`PERSON` or a bot name, per seat.
        hands: stop after this many hands (``None``: the whole game).
        state: the full state (never sent).
        moves: every move played, in notation.
        log: ``(seat, move)`` of every move, for the public log.
        hand_ends: each finished hand's number and end, as plain data.
        version: counts the changes; a client waits for a larger one.
    """

    id: str
    variant: Variant
    seed: int
    seats: tuple[str, ...]
    hands: int | None
    state: GameState
    moves: list[str] = field(default_factory=list)
    log: list[tuple[int, str]] = field(default_factory=list)
    hand_ends: list[dict[str, Any]] = field(default_factory=list)
    version: int = 0

    @property
    def over(self) -> bool:
        """The game is over, or the hands asked for are played."""
        return _status(self, self.state) == "over"

    @property
    def status(self) -> str:
        """``"over"`` or ``"running"``, as stored."""
        return _status(self, self.state)

    def record_text(self) -> str:
        """The game record (:meth:`canasta.RecordedGame.to_text`, with each hand's scores)."""
        return RecordedGame(self.variant, self.seed, tuple(self.moves)).to_text(annotate=True)

    def advance(self, seat: int, move: Move, after: GameState) -> None:
        """Take ``after``, the state after ``seat`` played ``move``, as the new state
        (the caller has stored the move)."""
        before = self.state
        self.state = after
        self.moves.append(str(move))
        self.log.append((seat, str(move)))
        if after.is_hand_over and not before.is_hand_over and after.end is not None:
            end = after.end
            self.hand_ends.append({
                "hand": after.hand_number + 1, "reason": end.reason, "seat": end.seat,
                "concealed": end.concealed, "special": end.special,
                "breakdowns": [{"items": [list(item) for item in b.items], "total": b.total}
                               for b in end.breakdowns],
            })
        self.version += 1

    def legal_for(self, seat: int) -> Sequence[Move]:
        """The moves ``seat`` may make now (none once the table is over).

        When a hand is over, any person deals the next one (the move of the
        seat to play, which may be a bot's).
        """
        if self.over:
            return []
        s = self.state
        if s.is_hand_over:
            return list(s.legal_moves()) if self.seats[seat] == PERSON else []
        return s.view(seat).legal_moves()

    def message(self, seat: int) -> dict[str, Any]:
        """What ``seat`` is told: its view and moves, the public log and the hands' scores.

        Built from :meth:`canasta.GameState.view` only: no other hand, no
        foot's cards, no stock order.
        """
        view = self.state.view(seat)
        return {
            "table": self.id,
            "seat": seat,
            "seats": list(self.seats),
            "variant": self.variant.name,
            "title": self.variant.title,
            "version": self.version,
            "over": self.over,
            "hands": self.hands,
            "view": json.loads(to_json(view))["data"],
            "legal": [str(m) for m in self.legal_for(seat)],
            "log": [{"seat": s, "move": m} for s, m in self.log[-LOG_LENGTH:]],
            "hand_ends": self.hand_ends,
        }


def _replayed(saved: SavedTable) -> Table | None:
    """The table of ``saved``, dealt again with its moves replayed (``None`` if they no longer replay)."""
    try:
        variant = parse_variant(saved.profile)
        table = Table(saved.id, variant, saved.seed, saved.seats, saved.hands, new_game(variant, saved.seed))
        for text in saved.moves:
            move = table.state.parse_move(text)
            table.advance(table.state.current_player, move, table.state.apply(move))
    except CanastaError:
        return None
    return table


def _status(table: Table, s: GameState) -> str:
    """``"over"`` once ``s`` ends the game or the last of the table's hands, else ``"running"``."""
    done = s.is_game_over or (table.hands is not None and s.is_hand_over and s.hand_number + 1 >= table.hands)
    return "over" if done else "running"


def _saved(table: Table) -> SavedTable:
    return SavedTable(table.id, table.variant.name, dump_variant(table.variant), table.seed,
                      table.seats, table.hands, table.status, tuple(table.moves))


class Tables:
    """Every table of the server, and the one lock under which they change.

    Args:
        store: where tables and moves are kept.
        max_running: most tables running at once.
    """

    def __init__(self, store: Store, max_running: int = 32) -> None:
        self.store = store
        self.max_running = max_running
        self._tables: dict[str, Table] = {}
        self._lock = threading.RLock()

    def restore(self) -> int:
        """Deal again every running table of the store and replay its moves; return how many.

        A finished table is replayed only when one of its seats asks for it. A
        table whose record no longer replays (its moves refused by this version
        of the library) is left out and stays in the store.
        """
        count = 0
        for saved in self.store.tables("running"):
            table = _replayed(saved)
            if table is not None:
                with self._lock:
                    self._tables[table.id] = table
                count += 1
        return count

    def _forget_finished(self) -> None:
        """Keep at most :data:`KEEP_FINISHED` finished tables in memory (the store keeps them all)."""
        finished = [k for k, t in self._tables.items() if t.over]
        for k in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self._tables[k]

    def running(self) -> int:
        """How many tables are running."""
        with self._lock:
            return sum(1 for t in self._tables.values() if not t.over)

    def create(self, variant: Variant, seats: Sequence[str], hands: int | None = None,
               seed: int | None = None) -> tuple[Table, list[str | None]]:
        """Open a table; return it and a secret token per person's seat (``None`` for a bot's:
        nobody may look at a bot's hand).

        Raises:
            ApiError: bad seats, no person seated, or too many tables running.
        """
        kinds = _check_seats(variant, seats)
        if hands is not None and not (isinstance(hands, int) and 1 <= hands <= 100):
            raise ApiError(400, "hands: expected a whole number from 1 to 100, or null for a whole game")
        with self._lock:
            if self.running() >= self.max_running:
                raise ApiError(429, f"{self.max_running} tables are running, the most this server keeps")
            seed = secrets.randbits(63) if seed is None else seed
            table = Table(secrets.token_hex(8), variant, seed, kinds, hands, new_game(variant, seed))
            tokens = [secrets.token_urlsafe(18) if k == PERSON else None for k in kinds]
            self.store.add_table(_saved(table), tokens)
            self._tables[table.id] = table
            self._play_bots(table)
            self._forget_finished()
            return table, tokens

    def seat(self, token: str) -> tuple[Table, int]:
        """The table and seat a token opens.

        Raises:
            ApiError: 404 when the token opens no seat of a table this server runs.
        """
        found = self.store.seat_of(token) if 8 <= len(token) <= 128 else None
        if found is None:
            raise ApiError(404, "no seat has this link")
        with self._lock:
            table = self._tables.get(found[0])
            if table is None:  # a finished table, replayed again for its players
                saved = self.store.tables(table_id=found[0])
                table = _replayed(saved[0]) if saved else None
                if table is None:
                    raise ApiError(404, "no seat has this link")
                self._tables[table.id] = table
                self._forget_finished()
        return table, found[1]

    def message(self, table: Table, seat: int) -> dict[str, Any]:
        """:meth:`Table.message`, taken under the lock: never halfway through the bots' moves."""
        with self._lock:
            return table.message(seat)

    def get(self, table_id: str) -> Table | None:
        """The table with this id, if running here."""
        with self._lock:
            return self._tables.get(table_id)

    def move(self, token: str, text: str | None = None, index: int | None = None) -> Table:
        """Play a move for the token's seat, by notation or by its index in the seat's legal moves,
        then let the bots play until a person is to move.

        Raises:
            ApiError: 404 no such seat; 409 not this seat's turn or the table is over;
                400 not a move; 422 a move the rules refuse (the message is the rule's).
        """
        table, seat = self.seat(token)
        with self._lock:
            legal = table.legal_for(seat)
            if not legal:
                if table.over:
                    raise ApiError(409, "the game at this table is over")
                raise ApiError(409, f"it is seat {table.state.current_player}'s turn, not seat {seat}'s")
            move = _chosen(table, legal, text, index)
            mover = table.state.current_player
            try:
                after = table.state.apply(move)
            except IllegalMoveError as exc:
                raise ApiError(422, str(exc)) from None
            self._commit(table, mover, move, after)
            self._play_bots(table)
            return table

    def _commit(self, table: Table, seat: int, move: Move, after: GameState) -> None:
        # stored (and committed) first: the state in memory, and so every
        # answer and event, only ever tells of a move the database holds
        self.store.add_move(table.id, len(table.moves), str(move), _status(table, after))
        table.advance(seat, move, after)

    def _play_bots(self, table: Table) -> None:
        """Bots move until a person is to move, the hand is over (a person deals the
        next) or the table is over."""
        while not table.over and not table.state.is_hand_over:
            seat = table.state.current_player
            kind = table.seats[seat]
            if kind == PERSON:
                return
            rng = random.Random(f"{table.seed}:{len(table.moves)}")
            move = make_bot(kind).choose(table.state.view(seat), rng)
            self._commit(table, seat, move, table.state.apply(move))


def _check_seats(variant: Variant, seats: Sequence[str]) -> tuple[str, ...]:
    n = variant.players.count
    if not isinstance(seats, (list, tuple)) or len(seats) != n or not all(isinstance(s, str) for s in seats):
        raise ApiError(400, f"seats: expected a list of {n} seat kinds ({PERSON!r} or a bot: "
                            f"{', '.join(sorted(BOTS))}), one per seat of {variant.name}")
    kinds = tuple(s.strip().lower() for s in seats)
    bad = [s for s in kinds if s != PERSON and s not in BOTS]
    if bad:
        raise ApiError(400, f"seats: unknown seat kind {bad[0][:40]!r}; expected {PERSON!r} or "
                            f"{', '.join(sorted(BOTS))}")
    if PERSON not in kinds:
        raise ApiError(400, f"seats: at least one seat must be a {PERSON!r}")
    return kinds


def _chosen(table: Table, legal: Sequence[Move], text: str | None, index: int | None) -> Move:
    if index is not None:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(legal):
            raise ApiError(400, f"index: expected a whole number from 0 to {len(legal) - 1}")
        return legal[index]
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "expected a move: 'move' (notation) or 'index' (of the legal moves)")
    if len(text) > MAX_MOVE_TEXT:
        raise ApiError(413, f"move: longer than {MAX_MOVE_TEXT} characters")
    try:
        move = table.state.parse_move(text)
    except NotationError as exc:
        raise ApiError(400, str(exc)) from None
    if table.state.is_hand_over and not isinstance(move, NextHand):
        raise ApiError(422, "the hand is over: the only move is 'next', to deal the next hand")
    return move
