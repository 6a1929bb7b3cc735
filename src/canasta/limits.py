"""Limits on what the library reads: bounded files, guarded YAML, integers and short messages.

Programs embed ``canasta`` behind untrusted input, so every profile, game
record, score file and JSON document it reads goes through the guards of this
module, one per concern, shared by every reader:

* :func:`read_text_file` reads only a regular file of bounded size: it never
  blocks on a FIFO or device, never reads ``/proc`` or ``/sys``, and never
  reads more than the limit plus one byte;
* :class:`GuardedLoader` is a safe YAML loader that refuses, as they appear,
  nesting deeper than a limit, more nodes than a limit (an alias counts as the
  nodes it stands for), anchors and aliases where asked, integers longer than
  :data:`MAX_INT_CHARS` characters, duplicate keys, and more lines than a
  limit, and (where asked) any tag but those of plain data. It does not read
  YAML 1.1 base-60 numbers (``1:30``: text), whose conversion takes time
  quadratic in their length;
* :func:`parse_int` bounds an integer's length before :func:`int` reads it
  (the ``parse_int`` hook of :func:`json.loads`), and :func:`int_text` writes
  an integer of any size without reaching Python's int-to-str limit;
* :func:`escape`, :func:`quote`, :func:`shown` and :func:`clip_message` keep
  messages readable and short: control characters are escaped, an input is
  quoted by at most :data:`QUOTE_CHARS` characters (:func:`shown` writes a
  value of any type so, a huge integer or list included), and a message is
  at most :data:`MAX_MESSAGE_CHARS` characters long.

A refusal is a :class:`~canasta.errors.CanastaError` (the caller's subclass,
or :class:`InputError`) whose message names the file and, where there is one,
the line, and never quotes the content of a file that is not what it should
be. This module imports nothing of ``canasta`` but :mod:`canasta.errors`, so
every part of the package may use it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from collections.abc import Callable
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

# The bounds on messages live in canasta.errors, below this module, so that every
# error can bound its own message; they are re-exported here beside the other limits.
from canasta.errors import (
    MAX_MESSAGE_CHARS,
    MOVE_QUOTE_CHARS,
    QUOTE_CHARS,
    CanastaError,
    clip,
    clip_message,
    escape,
    quote,
)

__all__ = [
    "MAX_INT_BITS",
    "MAX_INT_CHARS",
    "MAX_MESSAGE_CHARS",
    "MAX_MOVE_CARDS",
    "MAX_NESTING",
    "MAX_PROBLEMS",
    "MAX_PROFILE_BYTES",
    "MAX_RECORD_BYTES",
    "MAX_SCORE_FILE_BYTES",
    "MAX_YAML_LINES",
    "MAX_YAML_NODES",
    "MOVE_QUOTE_CHARS",
    "PLAIN_TAGS",
    "QUOTE_CHARS",
    "GuardedConstructor",
    "GuardedLoader",
    "InputError",
    "LoaderRefusal",
    "clip",
    "clip_message",
    "escape",
    "file_path",
    "fits_int",
    "int_text",
    "line_breaks",
    "parse_int",
    "quote",
    "read_text_file",
    "shown",
    "tag_text",
    "yaml_problem",
]

# --------------------------------------------------------------------------- the limits

#: Largest profile file, in bytes (256 KiB). A profile with every option written
#: out is about 4 KiB; the limit leaves 60 times that for comments, customs and
#: descriptions, while the pure-Python YAML parser reads it in about 0.2 s.
MAX_PROFILE_BYTES = 256 * 1024
#: Largest score file, in bytes (256 KiB): a table of every card of 12 decks is
#: under 4 KiB.
MAX_SCORE_FILE_BYTES = 256 * 1024
#: Largest game record, in bytes (1 MiB): a 5000-point game of classic is about
#: 5 KB, so this is some 200 such games in one file; reading one move costs a
#: microsecond or two, so the worst record is read in about a second.
MAX_RECORD_BYTES = 1024 * 1024
#: Most lines (line breaks) in one YAML text: a profile with every option
#: written out has about 150. Checked before parsing, as blank lines cost the
#: parser a microsecond each.
MAX_YAML_LINES = 10_000
#: Most nodes (keys, values and list items; an alias counts as the nodes it
#: stands for) in one YAML text: a full profile has about 300, a score file
#: listing every card of 12 decks one by one under 1000. Parsing a node costs
#: the pure-Python parser some 50 microseconds, so the limit bounds both the
#: time to refuse a file and what an alias bomb can expand to.
MAX_YAML_NODES = 2000
#: Deepest nesting of YAML collections and scalars: a profile needs 4 levels,
#: a score file 5; deeper input would only reach Python's recursion limit.
MAX_NESTING = 20
#: Longest integer read from text, in characters (sign, base prefix and ``_``
#: included): every option lies within a million, and a 64-bit seed has 20
#: digits. Longer text is refused before :func:`int` reads it, so conversion
#: stays fast and every integer read prints within Python's 4300-digit limit.
MAX_INT_CHARS = 100
#: Bits of the largest integer accepted from code where :data:`MAX_INT_CHARS` applies
#: to text (a record's seed): 332 bits is about 100 decimal digits.
MAX_INT_BITS = 332
#: Longest move notation read (``parse_move``, ``GameState.apply`` of text, a
#: record's move line): the longest move of any bundled profile is under 100
#: characters, and longer text is refused before it is split.
MAX_MOVE_CHARS = 1000
#: Most cards one move built in code names (``Meld.kinds``, ``Meld.suits``,
#: ``TakePile.naturals``): as many as the longest notation read can write
#: (a card and a space each). Longer fields are refused before any rule looks at them.
MAX_MOVE_CARDS = MAX_MOVE_CHARS // 2
#: Most problems one error lists (a score file reports every problem it finds,
#: up to this many).
MAX_PROBLEMS = 20


class InputError(CanastaError):
    """Input refused by a guard of :mod:`canasta.limits`: ``WHERE: reason``.

    Attributes:
        where: the file (escaped) or ``<text>``, and the line if one is to blame.
        reason: what is wrong.
    """

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(clip_message(f"{where}: {reason}"))
        self.where = where
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        # Built again from its fields when unpickled (a worker process may raise it).
        return (type(self), (self.where, self.reason))


# --------------------------------------------------------------------------- messages

_LINE_BREAKS = "\n\r\x85\u2028\u2029"


def shown(value: object, limit: int = QUOTE_CHARS) -> str:
    """Any value written for a message, in at most about ``limit`` characters; never fails.

    Text is quoted (:func:`quote`); an integer too long to print is described
    (:func:`int_text`), so Python's limit on converting integers to text is
    never reached; a tuple or list shows its first items and its length; a
    mapping or set, its type and size; anything else its ``repr`` cut short
    (its type's name when ``repr`` fails). Only a bounded part of a value is
    looked at, so writing a field of a million items costs no more than
    writing a short one.
    """
    return _shown(value, limit, 0)


def _shown(value: object, limit: int, depth: int) -> str:
    if isinstance(value, str):
        return quote(value, limit)
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, int):
        return int_text(value)
    if isinstance(value, (tuple, list)):
        return _shown_items(value, limit, depth)
    if isinstance(value, (bytes, bytearray)):
        return f"{type(value).__name__} of {len(value)}: " + clip(repr(bytes(value[:limit])), limit)
    if isinstance(value, (dict, set, frozenset)):
        n = len(value)
        return f"a {type(value).__name__} of {n} item{'' if n == 1 else 's'}"
    try:
        text = repr(value)
    except Exception:  # a repr must not make the message fail
        return f"a {type(value).__name__} object"
    return clip(escape(text), limit)


def _shown_items(items: tuple[object, ...] | list[object], limit: int, depth: int) -> str:
    opening, closing = ("(", ")") if isinstance(items, tuple) else ("[", "]")
    if depth >= 3:
        return f"{opening}...{closing}"
    parts: list[str] = []
    size = 0
    for item in items[: max(limit // 2, 1)]:
        part = _shown(item, limit // 2, depth + 1)
        size += len(part) + 2
        if size > limit:
            break
        parts.append(part)
    body = ", ".join(parts)
    if len(parts) < len(items):
        return f"{opening}{body}, ... {len(items)} items{closing}"
    if isinstance(items, tuple) and len(items) == 1:
        body += ","
    return f"{opening}{body}{closing}"


def fits_int(value: int) -> bool:
    """Whether ``value`` has at most :data:`MAX_INT_BITS` bits (about 100 decimal digits)."""
    return abs(value).bit_length() <= MAX_INT_BITS


def int_text(value: int) -> str:
    """``str(value)``, or ``an integer of N bits`` for one too long to print in a message."""
    if fits_int(value):
        return str(value)
    return f"an integer of {abs(value).bit_length()} bits"


def parse_int(text: str) -> int:
    """``int(text)``, refusing text longer than :data:`MAX_INT_CHARS` first.

    Meant for ``json.loads(text, parse_int=parse_int)``: Python's own limit
    raises a bare :class:`ValueError` only past 4300 digits.

    Raises:
        InputError: ``text`` is too long (its ``where`` is ``<text>``: the
            caller names the file).
    """
    if len(text) > MAX_INT_CHARS:
        raise InputError("<text>", f"an integer of {len(text)} characters; at most {MAX_INT_CHARS} are read")
    return int(text)


def line_breaks(text: str) -> int:
    """How many line breaks YAML sees in ``text`` (``\\n``, ``\\r``, ``\\r\\n``, U+0085, U+2028, U+2029)."""
    n = sum(text.count(ch) for ch in _LINE_BREAKS)
    return n - text.count("\r\n")


# --------------------------------------------------------------------------- files

_ErrorFactory = Callable[[str, str], Exception]


def _pseudo_devices() -> frozenset[int]:
    devices = set()
    for root in ("/proc", "/sys"):
        with contextlib.suppress(OSError):
            devices.add(os.stat(root).st_dev)
    return frozenset(devices)


_PSEUDO_DEVICES = _pseudo_devices()


def _size_text(max_bytes: int) -> str:
    if max_bytes % (1024 * 1024) == 0:
        return f"{max_bytes // (1024 * 1024)} MiB"
    if max_bytes % 1024 == 0:
        return f"{max_bytes // 1024} KiB"
    return f"{max_bytes} bytes"


def file_path(path: object, error: _ErrorFactory = InputError, what: str = "a file path") -> str:
    """``path`` as text (:func:`os.fspath`): the check of every function that takes a file's path.

    Args:
        path: what the caller passed: text or a :class:`os.PathLike`.
        error: builds the exception from the place and the reason.
        what: what was expected, for the message (``"a record's path"``).

    Raises:
        Exception: what ``error`` builds when ``path`` is not text or a path
            (``None``, bytes, a number); the message shows it briefly.
    """
    try:
        text = os.fspath(path)  # type: ignore[call-overload]
    except TypeError:
        text = None
    if not isinstance(text, str):
        got = "None" if path is None else type(path).__name__
        raise error(shown(path), f"expected {what} (text or a pathlib.Path), got {got}")
    return text


def read_text_file(
    path: str | os.PathLike[str],
    display: str,
    max_bytes: int,
    error: _ErrorFactory = InputError,
    kind: str = "a file",
) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` bytes.

    The file is checked with ``stat`` first (a FIFO, device, directory or a
    file of ``/proc`` or ``/sys`` is refused without being opened), opened
    without blocking, checked again on the open descriptor (it may have been
    replaced meanwhile), and read up to ``max_bytes + 1`` bytes (it may have
    grown). Nothing of the file's content appears in any message but, for
    text that is not UTF-8, the value of the first byte that is not.

    Args:
        path: the file.
        display: how messages name it (escaped before use).
        max_bytes: the largest size read.
        error: builds the exception from the escaped ``display`` and the
            reason; :class:`InputError` by default.
        kind: what the file should be, for the size message (``"a profile"``).

    Returns:
        The decoded text (a byte order mark is kept).

    Raises:
        Exception: what ``error`` builds, when the file cannot be read within the limits.
    """
    where = escape(display)
    too_big = f"file is larger than {_size_text(max_bytes)} ({max_bytes} bytes), the limit for {kind}"
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        raise error(where, "file not found") from None
    except OSError as exc:
        raise error(where, f"cannot read the file: {_strerror(exc)}") from None
    except (ValueError, TypeError):  # a NUL character in the path, or not a path at all
        raise error(where, "not a valid file path") from None
    _check_kind(info, where, error)
    if info.st_size > max_bytes:
        raise error(where, too_big)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    flags |= getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise error(where, f"cannot read the file: {_strerror(exc)}") from None
    try:
        _check_kind(os.fstat(fd), where, error)  # the file may have been swapped since stat
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, max_bytes + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except BlockingIOError:
        raise error(where, "cannot read the file: reading it would block") from None
    except OSError as exc:
        raise error(where, f"cannot read the file: {_strerror(exc)}") from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > max_bytes:
        raise error(where, too_big)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(where, f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})") from None


def _strerror(exc: OSError) -> str:
    if exc.strerror:
        return exc.strerror
    return errno.errorcode.get(exc.errno or 0, "error")


def _check_kind(info: os.stat_result, where: str, error: _ErrorFactory) -> None:
    # A FIFO or device would block or never end; files of /proc and /sys
    # claim a size of 0 and may block, never end, or change as they are read.
    if not stat.S_ISREG(info.st_mode):
        raise error(where, "not a regular file")
    if info.st_dev in _PSEUDO_DEVICES:
        raise error(where, "not a regular file (a file of /proc or /sys)")


# --------------------------------------------------------------------------- YAML

#: The standard tag prefix.
_STD = "tag:yaml.org,2002:"

#: The tags of plain data (what JSON holds): text, numbers, true and false,
#: null, mappings and lists. Any other (``!!set``, ``!!binary``, ``!custom``)
#: builds a value no reader of this library expects.
PLAIN_TAGS = frozenset(_STD + t for t in ("str", "int", "float", "bool", "null", "map", "seq"))


def tag_text(tag: str) -> str:
    """A tag as written (``!!set`` for ``tag:yaml.org,2002:set``), quoted and shortened for a message."""
    return quote("!!" + tag[len(_STD):] if tag.startswith(_STD) else tag)

# YAML 1.1 int and float without the base-60 forms (``1:30``, ``1:30.5``),
# which PyYAML converts in time quadratic in their length; such text is a string.
_INT = re.compile(
    r"""^(?:[-+]?0b[0-1_]+
    |[-+]?0[0-7_]+
    |[-+]?(?:0|[1-9][0-9_]*)
    |[-+]?0x[0-9a-fA-F_]+)$""",
    re.X,
)
_FLOAT = re.compile(
    r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
    |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""",
    re.X,
)


class LoaderRefusal(Exception):
    """A YAML construct a :class:`GuardedLoader` refused, with where it starts.

    Attributes:
        message: what was refused, without the place.
        mark: PyYAML's mark of the place (``line`` and ``column`` from 0), or None.
    """

    def __init__(self, message: str, mark: Any) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark

    @property
    def line(self) -> int:
        """The 1-based line (1 when unknown)."""
        return int(self.mark.line) + 1 if self.mark is not None else 1

    @property
    def column(self) -> int:
        """The 1-based column (1 when unknown)."""
        return int(self.mark.column) + 1 if self.mark is not None else 1


class GuardedResolver(Resolver):
    """PyYAML's resolver without the base-60 numbers of YAML 1.1."""


GuardedResolver.yaml_implicit_resolvers = {
    first: [
        (tag, _INT if tag == _STD + "int" else _FLOAT if tag == _STD + "float" else regexp)
        for tag, regexp in pairs
    ]
    for first, pairs in Resolver.yaml_implicit_resolvers.items()
}


class GuardedConstructor(SafeConstructor):
    """PyYAML's safe constructor, refusing long integers and duplicate keys."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        """An int, refusing text longer than :data:`MAX_INT_CHARS` before converting it."""
        text = node.value
        if len(text) > MAX_INT_CHARS:
            raise LoaderRefusal(
                f"an integer of {len(text)} characters; at most {MAX_INT_CHARS} are read",
                node.start_mark,
            )
        value: int = super().construct_yaml_int(node)
        return value

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """A dict, refusing a key given twice (PyYAML would keep the last silently)."""
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _STD + "merge":
                    continue
                key = self.construct_object(key_node)
                try:
                    first = seen.get(key)
                except TypeError:  # pragma: no cover - scalars are hashable
                    continue
                if first is not None:
                    shown = quote(key) if isinstance(key, str) else quote(str(key))
                    raise LoaderRefusal(
                        f"duplicate key {shown}, already given at line {first}", key_node.start_mark
                    )
                seen[key] = key_node.start_mark.line + 1
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return mapping


GuardedConstructor.add_constructor(  # type: ignore[type-var]
    _STD + "int", GuardedConstructor.construct_yaml_int
)


class GuardedLoader(Reader, Scanner, Parser, Composer, GuardedConstructor, GuardedResolver):
    """A safe YAML loader that refuses hostile input as it appears.

    Each limit is a class attribute a subclass may change: ``max_lines``
    (checked before parsing starts), ``max_depth``, ``max_nodes`` (an alias
    counts as the nodes it stands for, so an alias bomb is refused before it
    expands), ``refuse_anchors`` and ``plain_tags`` (refuse an explicit tag
    not in :data:`PLAIN_TAGS`, at its place). Integers longer than
    :data:`MAX_INT_CHARS` characters and duplicate keys are refused when
    the document is constructed; base-60 numbers are strings. A refusal
    raises :class:`LoaderRefusal` with a message and the place it starts.
    """

    max_lines = MAX_YAML_LINES
    max_depth = MAX_NESTING
    max_nodes = MAX_YAML_NODES
    refuse_anchors = True
    plain_tags = False

    def __init__(self, stream: str) -> None:
        lines = line_breaks(stream)
        if lines > self.max_lines:
            mark = yaml.Mark("<text>", 0, self.max_lines, 0, "", 0)
            raise LoaderRefusal(f"more than {self.max_lines} lines", mark)
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        Composer.__init__(self)
        GuardedConstructor.__init__(self)
        GuardedResolver.__init__(self)
        self._depth = 0
        self._nodes = 0
        self._weights: dict[int, int] = {}

    def _count(self, n: int, mark: Any) -> None:
        self._nodes += n
        if self._nodes > self.max_nodes:
            raise LoaderRefusal(
                f"more than {self.max_nodes} keys, values and list items", mark
            )

    def fetch_flow_collection_start(self, TokenClass: Any) -> None:
        # The scanner looks up to 1024 characters ahead for a key, at a cost that
        # grows with the depth of `[[[[…`: refuse the depth as it scans.
        if self.flow_level >= self.max_depth:
            raise LoaderRefusal(
                f"nesting deeper than {self.max_depth} levels is not allowed", self.get_mark()
            )
        super().fetch_flow_collection_start(TokenClass)

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event: Any = self.peek_event()  # type: ignore[no-untyped-call]
        # Refusing here, before the node exists, means an alias bomb never expands
        # and a 10 000-deep `[[[[…` never reaches Python's recursion limit.
        is_alias = isinstance(event, yaml.AliasEvent)
        anchor = getattr(event, "anchor", None)
        if self.refuse_anchors and (is_alias or anchor is not None):
            raise LoaderRefusal("anchors and aliases are not allowed", event.start_mark)
        if is_alias:
            node = super().compose_node(parent, index)
            weight = self._weights.get(id(node))
            if weight is None:  # the alias is inside the node its anchor names
                raise LoaderRefusal("an alias inside its own anchor is not allowed", event.start_mark)
            self._count(weight, event.start_mark)
            return node
        tag = getattr(event, "tag", None)
        if self.plain_tags and tag is not None and tag != "!" and tag not in PLAIN_TAGS:
            # '!' alone is the non-specific tag of a quoted scalar: plain text
            raise LoaderRefusal(f"tag {tag_text(tag)} is not allowed", event.start_mark)
        if self._depth >= self.max_depth:
            raise LoaderRefusal(
                f"nesting deeper than {self.max_depth} levels is not allowed", event.start_mark
            )
        before = self._nodes
        self._count(1, event.start_mark)
        self._depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if anchor is not None and node is not None:
            self._weights[id(node)] = self._nodes - before
        return node


def yaml_problem(exc: yaml.YAMLError, text: str) -> tuple[int, int, str]:
    """Line, column (from 1) and the escaped, shortened problem of a PyYAML error in ``text``.

    The problem is PyYAML's own words, which quote at most a character, a
    token's name or a tag of the input; it is cut to twice :data:`QUOTE_CHARS`
    characters all the same.
    """
    if isinstance(exc, yaml.reader.ReaderError):
        before = text[: exc.position]
        line = before.count("\n") + 1
        column = exc.position - (before.rfind("\n") + 1) + 1
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        return line, column, f"character U+{char:04X} is not allowed"
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or getattr(exc, "context", None) or "invalid YAML"
    line = mark.line + 1 if mark is not None else 1
    column = mark.column + 1 if mark is not None else 1
    return line, column, escape(clip(str(problem), 2 * QUOTE_CHARS))
