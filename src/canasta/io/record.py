"""Game records: a game as text, one move per line, and its replay.

A record is a header, a line ``---``, then the moves in notation, one per line::

    # canasta game record
    format: 1
    variant: classic
    seed: 7
    ---
    draw
    meld 7 7 JK     # the opening meld
    discard 9

The header is YAML with exactly three keys: ``format`` (the record format
number, :data:`RECORD_FORMAT`), ``seed`` (the deal seed given to
:func:`canasta.new_game`) and ``variant``: the name of a bundled profile, or a
whole profile as a YAML mapping indented under ``variant:`` (what
``canasta.variant.loading.dump_variant`` writes; ``extends:`` may name a bundled
profile only). A record names a bundled profile only when the game's variant
equals it; replaying reads the bundled profile of the installed library.

After ``---``, each line holds one move; ``#`` starts a comment, and blank lines
and comment lines are skipped. Lines end at ``\n`` only (a ``\r`` before it is
ignored): a line or paragraph separator inside a comment does not end it.
Errors name the line: ``game.rec:57: illegal move 'discard 9': you hold no 9``.

Reading is bounded (see :mod:`canasta.limits`): a record file is a regular
file of at most 1 MiB (:data:`~canasta.limits.MAX_RECORD_BYTES`), its header
at most 256 KiB of YAML without anchors, aliases, duplicate keys or deep
nesting, and a move line at most :data:`MAX_MOVE_CHARS` characters.
"""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import yaml

from canasta.engine import new_game
from canasta.engine.move_fields import malformed
from canasta.engine.moves import SUITED_BY_DEFAULT, Move, canonical, field_text, parse_move
from canasta.engine.state import GameState
from canasta.errors import CanastaError, IllegalMoveError, NotationError, VariantError
from canasta.limits import (
    MAX_PROFILE_BYTES,
    MAX_RECORD_BYTES,
    GuardedLoader,
    LoaderRefusal,
    clip_message,
    escape,
    file_path,
    fits_int,
    quote,
    read_text_file,
    shown,
    yaml_problem,
)
from canasta.variant.loading import dump_variant, load_variant, variant_from_dict, variant_names
from canasta.variant.model import Variant

__all__ = [
    "MAX_HEADER_BYTES",
    "MAX_MOVE_CHARS",
    "RECORD_FORMAT",
    "GameRecorder",
    "RecordError",
    "RecordedGame",
    "parse_record",
    "read_record",
    "replay_file",
    "replay_text",
    "score_report",
    "write_record",
]

#: The record format number written in every header.
RECORD_FORMAT = 1
#: The line that ends the header.
SEPARATOR = "---"
#: Largest header read, in bytes: it holds a profile, so the limit of a profile file.
MAX_HEADER_BYTES = MAX_PROFILE_BYTES
#: Longest move (a line without its comment), in characters: a meld of every
#: card of 12 decks fits.
MAX_MOVE_CHARS = 2048

_HEADER_KEYS = ("format", "seed", "variant")


class RecordError(CanastaError):
    """A record that cannot be read or replayed: the message is ``SOURCE:LINE: reason``.

    Attributes:
        source: the file name (or ``"<record>"``).
        line: the 1-based line number, or 0 when no line is to blame.
        reason: what is wrong, without the location.
    """

    def __init__(self, source: str, line: int, reason: str) -> None:
        where = escape(source)
        where = f"{where}:{line}" if line else where
        super().__init__(clip_message(f"{where}: {reason}"))
        self.source = source
        self.line = line
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        # Built again from its fields when unpickled (a worker process may raise it).
        return (type(self), (self.source, self.line, self.reason))


def _moves_tuple(moves: Iterable[Move | str]) -> tuple[Move, ...]:
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
        raise CanastaError(f"moves: expected a list of moves or move notation, got {shown(moves)}")
    out = []
    for i, m in enumerate(moves):
        if isinstance(m, str):
            m = parse_move(m, SUITED_BY_DEFAULT)
        if not isinstance(m, Move):
            raise CanastaError(f"moves[{i}]: expected a move or move notation, got {shown(m)}")
        # a move built in code is checked here, where it enters the record: its
        # notation must read back, and replaying must refuse it as apply does
        reason = malformed(m)
        if reason is not None:
            raise IllegalMoveError(field_text(m), f"{reason} (move {i + 1} of the record)")
        out.append(m)
    return tuple(out)


def _check_variant(_inst: Any, _attr: Any, value: Any) -> None:
    if not isinstance(value, Variant):
        raise CanastaError(f"variant: expected a Variant, got {type(value).__name__}")


def _check_seed(_inst: Any, _attr: Any, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise CanastaError(f"seed: expected an integer, got {type(value).__name__}")
    if not fits_int(value):
        # a record writes its seed in decimal, and reads at most 100 digits back
        raise CanastaError("seed: expected an integer of at most 100 digits")


@attrs.frozen
class RecordedGame:
    """A game as its variant, its seed and the moves played from the first deal.

    Build one directly (moves may be given as notation), with
    :class:`~canasta.GameRecorder` while playing, or with :func:`~canasta.io.record.parse_record` /
    :func:`~canasta.read_record` from text.

    Attributes:
        variant: the rules.
        seed: the seed given to :func:`canasta.new_game`.
        moves: every move, in order, ``next`` included.
        lines: when read from text, the line of each move (else empty).
        source: where the record was read from, for error messages.
    """

    variant: Variant = attrs.field(validator=_check_variant)
    seed: int = attrs.field(validator=_check_seed)
    moves: tuple[Move, ...] = attrs.field(default=(), converter=_moves_tuple)
    lines: tuple[int, ...] = attrs.field(default=(), eq=False, repr=False)
    source: str = attrs.field(default="<record>", eq=False, repr=False)

    def states(self) -> Iterator[GameState]:
        """Yield the first deal, then the state after each move.

        Raises:
            RecordError: a move is illegal where it stands; the message gives its
                line (when read from text; else its move number) and the rule.
        """
        s = new_game(self.variant, self.seed)
        yield s
        for i, move in enumerate(self.moves):
            try:
                s = s.apply(canonical(move, s.rules.suited_ranks))
            except IllegalMoveError as exc:
                if i < len(self.lines):
                    raise RecordError(self.source, self.lines[i], str(exc)) from None
                raise RecordError(self.source, 0, f"move {i + 1}: {exc}") from None
            yield s

    def replay(self) -> GameState:
        """Play every move from the first deal and return the final state.

        Returns:
            The state after the last move.

        Raises:
            RecordError: a move is illegal where it stands (see :meth:`~canasta.RecordedGame.states`).
        """
        final = None
        for final in self.states():  # noqa: B007 - only the last state is wanted
            pass
        assert final is not None
        return final

    def to_text(self, annotate: bool = False) -> str:
        """The record as text (see the module documentation).

        Args:
            annotate: add a comment after each hand with its scores, and one with
                the final scores; this replays the game.

        Returns:
            The text; :func:`~canasta.io.record.parse_record` reads it back into an equal record.

        Raises:
            RecordError: ``annotate`` is true and a move is illegal.
        """
        lines = ["# canasta game record", f"format: {RECORD_FORMAT}", f"seed: {self.seed}"]
        lines.append(_variant_header(self.variant))
        lines.append(SEPARATOR)
        if not annotate:
            lines.extend(str(m) for m in self.moves)
        else:
            states = self.states()
            s = next(states)
            for move in self.moves:
                before = s
                s = next(states)
                lines.append(str(move))
                if not before.is_hand_over and s.is_hand_over:
                    lines.append(f"# hand {s.hand_number + 1} ends: " + _scores(s))
            lines.append("# final scores: " + ", ".join(str(x) for x in s.scores)
                         + (" (game over)" if s.is_game_over else " (game not over)"))
        return "\n".join(lines) + "\n"


def _scores(s: GameState) -> str:
    assert s.end is not None
    hand = ", ".join(str(x) for x in s.end.hand_scores)
    total = ", ".join(str(x) for x in s.scores)
    return f"{hand}; totals {total}"


def _variant_header(v: Variant) -> str:
    if v.name in variant_names() and _bundled(v.name) == v:
        return f"variant: {v.name}"
    return "variant:\n" + textwrap.indent(dump_variant(v).rstrip("\n"), "  ")


_BUNDLED: dict[str, Variant] = {}


def _bundled(name: str) -> Variant:
    if name not in _BUNDLED:
        _BUNDLED[name] = load_variant(name)
    return _BUNDLED[name]


# --------------------------------------------------------------------------- reading


class _HeaderLoader(GuardedLoader):
    """The header's YAML: no anchors or aliases, no duplicate keys, no tags, bounded size and depth."""

    plain_tags = True


# Line breaks other than \n (YAML would count them, this reader does not).
_OTHER_BREAKS = re.compile("[\x85\u2028\u2029]|\r(?!\n)")


def _header(lines: Sequence[str], source: str) -> tuple[Variant, int, int]:
    """Read the header: return the variant, the seed and the index of the first move line."""
    end = None
    size = 0
    for i, header_line in enumerate(lines):
        if header_line.rstrip() == SEPARATOR:
            end = i
            break
        size += len(header_line) + 1
        if size > MAX_HEADER_BYTES:
            raise RecordError(source, i + 1, f"the header is larger than {MAX_HEADER_BYTES} bytes")
    if end is None:
        raise RecordError(source, len(lines), f"no line '{SEPARATOR}' ends the header")
    text = "\n".join(h[:-1] if h.endswith("\r") else h for h in lines[:end])
    if len(text.encode("utf-8", "surrogatepass")) > MAX_HEADER_BYTES:
        raise RecordError(source, 1, f"the header is larger than {MAX_HEADER_BYTES} bytes")
    other = _OTHER_BREAKS.search(text)
    if other is not None:
        line = text.count("\n", 0, other.start()) + 1
        char = f"U+{ord(other.group()):04X}"
        raise RecordError(source, line, f"character {char} is not allowed in the header "
                          "(lines end at \\n only)")
    loader = None
    try:
        loader = _HeaderLoader(text)
        root = loader.get_single_node()
        if not isinstance(root, yaml.MappingNode):
            raise RecordError(source, 1, "the header must be a mapping: format, seed and variant")
        values: dict[str, tuple[int, Any]] = {}
        for key_node, value_node in root.value:
            line = key_node.start_mark.line + 1
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key not in _HEADER_KEYS:
                shown = quote(key) if isinstance(key, str) else "that is not a name"
                raise RecordError(source, line, f"unknown header key {shown} "
                                  f"(expected {', '.join(_HEADER_KEYS)})")
            if key in values:
                raise RecordError(source, line, f"header key {key!r} given twice")
            values[key] = (line, loader.construct_document(value_node))
    except LoaderRefusal as exc:
        raise RecordError(source, exc.line, f"{exc.message} in the header") from None
    except yaml.YAMLError as exc:
        line, _, problem = yaml_problem(exc, text)
        raise RecordError(source, line, f"the header is not valid YAML: {problem}") from None
    finally:
        if loader is not None:
            loader.dispose()
    missing = [k for k in _HEADER_KEYS if k not in values]
    if missing:
        raise RecordError(source, end + 1, "the header lacks " + ", ".join(missing))
    line, fmt = values["format"]
    if not isinstance(fmt, int) or isinstance(fmt, bool):
        raise RecordError(source, line, f"format: expected a format number, got {_describe(fmt)}")
    if fmt != RECORD_FORMAT:
        raise RecordError(source, line, f"record format {fmt} is not supported: this version "
                          f"of canasta reads format {RECORD_FORMAT}")
    line, seed = values["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(source, line, f"seed: expected an integer, got {_describe(seed)}")
    line, spec = values["variant"]
    return _read_variant(spec, source, line), seed, end + 1


def _describe(value: Any) -> str:
    """A header value in a message: a short quote of text, else what it is."""
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, bool) or value is None or isinstance(value, (int, float)):
        return repr(value)
    return "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) else "a value"


def _read_variant(spec: Any, source: str, line: int) -> Variant:
    names = variant_names()
    if isinstance(spec, str):
        if spec not in names:
            raise RecordError(source, line, f"variant: unknown bundled variant {quote(spec)} "
                              f"(bundled: {', '.join(names)})")
        return _bundled(spec)
    if not isinstance(spec, dict):
        raise RecordError(source, line, "variant: expected a bundled variant name or a "
                          f"profile mapping, got {_describe(spec)}")
    parent = spec.get("extends")
    if parent is not None and parent not in names:
        # a record is replayed anywhere: it may not make the reader open other files
        raise RecordError(source, line, f"variant.extends: only a bundled variant may be "
                          f"extended in a record, got {_describe(parent)}")
    try:
        return variant_from_dict(spec)
    except VariantError as exc:
        raise RecordError(source, line, f"variant.{exc}") from None


def _move_lines(lines: Sequence[str], start: int) -> Iterator[tuple[int, str]]:
    """Each move line after the header: its 1-based number and its notation."""
    for i in range(start, len(lines)):
        text = lines[i].split("#", 1)[0].strip()
        if text:
            yield i + 1, text


class _Parser:
    """Parses move lines, each distinct text once (a record repeats ``draw`` and the like)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.seen: dict[str, Move] = {}

    def __call__(self, line: int, text: str) -> Move:
        move = self.seen.get(text)
        if move is not None:
            return move
        if len(text) > MAX_MOVE_CHARS:
            raise RecordError(self.source, line, f"a move of {len(text)} characters; "
                              f"a move is at most {MAX_MOVE_CHARS}")
        try:
            move = parse_move(text, SUITED_BY_DEFAULT)
        except NotationError as exc:
            # the notation's message quotes the whole line: quote it short
            reason = str(exc).replace(repr(text), quote(text))
            raise RecordError(self.source, line, reason) from None
        self.seen[text] = move
        return move


def _lines(text: str, source: str) -> list[str]:
    """The record's lines: split at ``\n`` only, after a byte order mark is dropped."""
    if not isinstance(source, str):
        raise RecordError(shown(source), 0, "the source of a record (for messages) must be text")
    if not isinstance(text, str):
        # the check of every reader of a record's text
        hint = " (decode bytes first: data.decode('utf-8'))" if isinstance(text, (bytes, bytearray)) else ""
        got = "None" if text is None else type(text).__name__
        raise RecordError(source, 0, f"expected a record as text, got {got}{hint}")
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(source, 0, f"the record is larger than {MAX_RECORD_BYTES} characters")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    return lines


def parse_record(text: str, source: str = "<record>") -> RecordedGame:
    """Read a record from its text.

    Args:
        text: the record (see the module documentation).
        source: the name used in error messages, e.g. the file name.

    Returns:
        The record; its moves are checked for form, not for legality (use
        :meth:`~canasta.RecordedGame.replay`).

    Raises:
        RecordError: the header is wrong or a line is not a move; the message
            starts with ``SOURCE:LINE:``.
    """
    lines = _lines(text, source)
    variant, seed, start = _header(lines, source)
    parse = _Parser(source)
    moves, numbers = [], []
    for line, move_text in _move_lines(lines, start):
        moves.append(parse(line, move_text))
        numbers.append(line)
    return RecordedGame(variant, seed, tuple(moves), tuple(numbers), source)


def _record_error(where: str, reason: str) -> RecordError:
    return RecordError(where, 0, reason)


def _read_text(path: str | os.PathLike[str]) -> str:
    """The text of a record file: a regular file of at most 1 MiB."""
    display = file_path(path, _record_error, "a record's path")
    return read_text_file(display, display, MAX_RECORD_BYTES, _record_error, "a game record")


def read_record(path: str | os.PathLike[str]) -> RecordedGame:
    """Read the record in file ``path``.

    Args:
        path: the record file.

    Returns:
        The record (see :func:`~canasta.io.record.parse_record`); errors name ``path``.

    Raises:
        RecordError: the file cannot be read, or is not a valid record.
    """
    return parse_record(_read_text(path), file_path(path, _record_error))


def replay_text(text: str, source: str = "<record>") -> GameState:
    """Replay a record line by line, stopping at the first bad move.

    Unlike ``parse_record(text).replay()``, a move that does not parse is
    reported only if every move before it is legal, so the error is always the
    first one in the file.

    Args:
        text: the record.
        source: the name used in error messages, e.g. the file name.

    Returns:
        The state after the last move.

    Raises:
        RecordError: the header is wrong, or a move does not parse or is
            illegal where it stands; the message starts with ``SOURCE:LINE:``.
    """
    lines = _lines(text, source)
    variant, seed, start = _header(lines, source)
    s = new_game(variant, seed)
    parse = _Parser(source)
    for line, move_text in _move_lines(lines, start):
        move = parse(line, move_text)
        try:
            s = s.apply(canonical(move, s.rules.suited_ranks))
        except IllegalMoveError as exc:
            raise RecordError(source, line, str(exc)) from None
    return s


def write_record(path: str | os.PathLike[str], record: RecordedGame,
                 annotate: bool = True) -> None:
    """Write ``record`` to file ``path`` (UTF-8, replaced if it exists).

    Args:
        path: the file to write.
        record: the game.
        annotate: add comments with each hand's scores (see
            :meth:`~canasta.RecordedGame.to_text`).

    Raises:
        RecordError: ``record`` is not a :class:`RecordedGame`, ``path`` is
            not a path, or ``annotate`` is true and a move of the record is illegal.
        OSError: the file cannot be written.
    """
    display = file_path(path, _record_error, "a record's path")
    if not isinstance(record, RecordedGame):
        raise RecordError(display, 0, f"expected a RecordedGame to write, got {shown(record)}")
    text = record.to_text(annotate=annotate)
    Path(display).write_text(text, encoding="utf-8")


class GameRecorder:
    """Plays a game and records every move, for :func:`~canasta.write_record`.

    Example::

        rec = GameRecorder(canasta.load_variant("classic"), seed=7)
        while not rec.state.is_game_over:
            rec.apply(choose(rec.state.legal_moves()))
        write_record("game.rec", rec.record)

    Args:
        variant: the rules.
        seed: the deal seed; ``None`` picks a random one (see :func:`canasta.new_game`).

    Raises:
        CanastaError: the variant cannot be dealt or the seed is not an integer.
    """

    def __init__(self, variant: Variant, seed: int | None = None) -> None:
        self._state = new_game(variant, seed)
        self._first = self._state
        self._moves: list[Move] = []

    @property
    def state(self) -> GameState:
        """The current state of the game."""
        return self._state

    @property
    def record(self) -> RecordedGame:
        """The game so far as a :class:`~canasta.RecordedGame`."""
        return RecordedGame(self._first.variant, self._first.seed, tuple(self._moves))

    def apply(self, move: Move | str) -> GameState:
        """Apply ``move`` to the current state and record it.

        Args:
            move: a move or its notation.

        Returns:
            The new current state.

        Raises:
            IllegalMoveError: the move is illegal; nothing is recorded.
            NotationError: ``move`` is text that is not a move.
        """
        parsed = self._state.parse_move(move) if isinstance(move, str) else move
        self._state = self._state.apply(parsed)
        self._moves.append(parsed)
        return self._state


def replay_file(path: str | os.PathLike[str]) -> GameState:
    """Replay the record in file ``path``, stopping at the first bad move.

    Args:
        path: the record file.

    Returns:
        The state after the last move.

    Raises:
        RecordError: the file cannot be read, its header is wrong, or a move
            does not parse or is illegal; the message starts with ``PATH:LINE:``.
    """
    return replay_text(_read_text(path), file_path(path, _record_error))


def _side_label(seats: Sequence[int]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + "+".join(str(s) for s in seats)


def score_report(state: GameState) -> str:
    """A table of each finished hand's scores and the game totals, one column per side.

    Args:
        state: a state, typically the end of a replay.

    Returns:
        The table as text ending with a newline (a header row, one row per
        finished hand, the totals, and a line saying whether the game is over
        and who won).
    """
    labels = [_side_label(seats) for seats in state.variant.sides]
    width = max([len(label) for label in labels] + [6])
    rows = [["hand", *labels]]
    rows += [[str(i + 1), *(str(x) for x in hand)] for i, hand in enumerate(state.history)]
    rows.append(["total", *(str(x) for x in state.scores)])
    lines = [f"{row[0]:<6}" + "".join(f"  {cell:>{width}}" for cell in row[1:]) for row in rows]
    if state.is_game_over:
        winners = [labels[i] for i in state.winners]
        if len(winners) == 1:
            lines.append(f"game over: {winners[0]} won")
        else:
            lines.append("game over: a draw between " + " and ".join(winners))
    elif state.is_hand_over:
        lines.append(f"hand {state.hand_number + 1} is over; the game goes on")
    else:
        lines.append(f"hand {state.hand_number + 1} is in progress (not scored)")
    return "\n".join(lines) + "\n"
