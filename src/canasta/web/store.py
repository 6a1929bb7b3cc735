"""The server's memory: tables, their seats and their moves in an SQLite file.

Only the standard library's :mod:`sqlite3`. A move is committed before the
server acknowledges it (see :meth:`Store.add_move`), so a table killed at any
point comes back, on the next start, at the last move a player was told of.
Seat tokens are kept as their SHA-256 digests: the database alone opens no seat.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SavedTable", "Store", "token_digest"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    variant TEXT NOT NULL,
    profile TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    hands INTEGER,
    status TEXT NOT NULL DEFAULT 'running'
);
CREATE TABLE IF NOT EXISTS tokens (
    digest TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


def token_digest(token: str) -> str:
    """The SHA-256 digest (hex) under which a seat token is stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class SavedTable:
    """A table as stored: what is needed to deal it again and replay it.

    Attributes:
        id: the table's public id.
        variant: the variant's name (for lists).
        profile: the whole profile, as YAML that :func:`canasta.parse_variant` reads.
        seed: the deal seed.
        seats: ``"person"`` or a bot name, per seat.
        hands: stop after this many hands (``None``: play the whole game).
        status: ``"running"`` or ``"over"``.
        moves: every move played, in notation.
    """

    id: str
    variant: str
    profile: str
    seed: int
    seats: tuple[str, ...]
    hands: int | None
    status: str
    moves: tuple[str, ...]


class Store:
    """The SQLite database of the tables (one file; safe to share between threads)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        # one connection, used under the lock: sqlite3 objects are not thread-safe
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    def add_table(self, table: SavedTable, tokens: list[str | None]) -> None:
        """Store a new table and the digests of its seat tokens (``tokens[seat]``, ``None``: no link)."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.execute(
                    "INSERT INTO tables (id, created, variant, profile, seed, seats, hands, status)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (table.id, time.time(), table.variant, table.profile, str(table.seed),
                     json.dumps(list(table.seats)), table.hands, table.status),
                )
                self._db.executemany(
                    "INSERT INTO tokens (digest, table_id, seat) VALUES (?, ?, ?)",
                    [(token_digest(t), table.id, seat) for seat, t in enumerate(tokens) if t is not None],
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def add_move(self, table_id: str, n: int, move: str, status: str) -> None:
        """Store move number ``n`` (from 0) of a table, and its status after it; committed on return."""
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.execute("INSERT INTO moves (table_id, n, move) VALUES (?, ?, ?)",
                                 (table_id, n, move))
                self._db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """The table id and seat a token opens, or ``None``."""
        with self._lock:
            row = self._db.execute("SELECT table_id, seat FROM tokens WHERE digest = ?",
                                   (token_digest(token),)).fetchone()
        return None if row is None else (str(row[0]), int(row[1]))

    def tables(self, status: str | None = None, table_id: str | None = None) -> list[SavedTable]:
        """Every stored table with its moves (only those of ``status``, or the one of
        ``table_id``, if given), oldest first."""
        where, args = [], []
        if status is not None:
            where.append("status = ?")
            args.append(status)
        if table_id is not None:
            where.append("id = ?")
            args.append(table_id)
        with self._lock:
            query = "SELECT id, variant, profile, seed, seats, hands, status FROM tables"
            rows = self._db.execute(
                query + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY created", args,
            ).fetchall()
            out = []
            for tid, variant, profile, seed, seats, hands, st in rows:
                moves = tuple(m for (m,) in self._db.execute(
                    "SELECT move FROM moves WHERE table_id = ? ORDER BY n", (tid,)))
                out.append(SavedTable(tid, variant, profile, int(seed), tuple(json.loads(seats)),
                                      hands, st, moves))
        return out
