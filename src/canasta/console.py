"""What the ``canasta`` command prints, made safe for a terminal.

Text from the input (a profile's title, a file name, a move typed in) may hold
control characters that move the cursor, clear the screen or reorder text;
:func:`safe` escapes them in a one-line message and :class:`Output` in front of
stdout and stderr escapes them in everything written, and writes what the
terminal's encoding cannot show as ASCII stand-ins or escapes. Also here: the
care a command line takes of its standard descriptors (closed at start, a
reader that went away).
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from typing import Any, TextIO

__all__ = [
    "UNSAFE_IN_LINE", "UNSAFE_IN_TEXT", "UNSAFE_ON_STDERR", "Output", "escape",
    "fill_closed_descriptors", "os_message", "safe", "silence_stdout",
]

#: Characters that act on a terminal instead of showing: C0 controls, DEL, C1
#: controls, and the marks that reorder text or break lines (bidirectional
#: embeddings, overrides and isolates, the Unicode line and paragraph separators).
_CONTROLS = (
    r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
)
#: In a one-line message every control character is escaped, newline and tab too.
UNSAFE_IN_LINE = re.compile(rf"[{_CONTROLS}\t\n\r]")
#: In what a command prints, lines and tabs stay.
UNSAFE_IN_TEXT = re.compile(rf"[{_CONTROLS}\r]")
#: On stderr a carriage return stays too (the progress bar redraws its line).
UNSAFE_ON_STDERR = re.compile(rf"[{_CONTROLS}]")

#: ASCII stand-ins for the few symbols the commands print, for a terminal that
#: cannot show them (``PYTHONIOENCODING=ascii``, a Latin-1 locale); any other
#: character it cannot show is written as a ``\\uXXXX`` escape.
_FALLBACK = str.maketrans({
    "\u2020": "+", "\u2021": "++", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
    "\u2013": "-", "\u2014": "--", "\u2026": "...", "\u00d7": "x", "\u2264": "<=",
    "\u2265": ">=", "\u2192": "->", "\u00a0": " ", "\u00b7": "*", "\u2022": "*",
    "\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S", "\u2212": "-",
    "\u00b0": "[o]",  # the rule book's mark of a rule its source fixes
})
#: The superscript digits that number a rule book's notes, and the plain digits they stand for.
_SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
_NOTE_MARK = re.compile(f"[{_SUPERSCRIPTS}]+")
_DIGITS = str.maketrans(_SUPERSCRIPTS, "0123456789")


def _plain_mark(match: re.Match[str]) -> str:
    """A note mark in plain digits, bracketed so that it does not run into the number before it: ``[12]``."""
    return "[" + match.group().translate(_DIGITS) + "]"


def escape(match: re.Match[str]) -> str:
    """The escape written for one control character: ``\\xNN`` or ``\\uNNNN``."""
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe(text: object) -> str:
    """``text`` as one printable line: every control character escaped as ``\\xNN``.

    For whatever came from the input (a profile's name or title, a file name, a
    move typed in), so that it cannot move the cursor, clear the screen, change
    colours or start a new line on the reader's terminal.
    """
    return UNSAFE_IN_LINE.sub(escape, str(text))


class Output:
    """A text stream in front of stdout or stderr that makes every write printable.

    Control characters are escaped (see :func:`safe`; lines and tabs stay), and
    text the stream's encoding cannot hold is written with ASCII stand-ins and
    ``\\uXXXX`` escapes instead of failing with ``UnicodeEncodeError``.
    Everything else (``fileno``, ``isatty``, ``encoding``...) is the stream's own.
    """

    def __init__(self, stream: TextIO, unsafe: re.Pattern[str]) -> None:
        self._stream = stream
        self._unsafe = unsafe
        encoding = getattr(stream, "encoding", None)
        try:
            self._encoding = codecs.lookup(encoding).name if isinstance(encoding, str) else None
        except LookupError:
            self._encoding = None
        if self._encoding in {"utf-8", "utf-16", "utf-32"}:
            self._encoding = None  # holds every character

    def write(self, text: str) -> int:
        clean = self._unsafe.sub(escape, text)
        if self._encoding is not None:
            try:
                clean.encode(self._encoding)
            except UnicodeEncodeError:
                clean = _NOTE_MARK.sub(_plain_mark, clean).translate(_FALLBACK)
                clean = clean.encode(self._encoding, "backslashreplace").decode(self._encoding)
        self._stream.write(clean)
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    @property
    def raw_stream(self) -> TextIO:
        """The stream behind the filter, for output whose escapes the program wrote itself
        (the terminal game's colours), never for text from the input."""
        return self._stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def silence_stdout() -> None:
    """Point stdout's descriptor at devnull, after its reader went away."""
    # Python's recipe for SIGPIPE: Python flushes stdout at exit, and after EPIPE
    # that flush would raise again and print a traceback, so point the descriptor
    # at devnull first.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout replaced, e.g. in tests
        pass


def fill_closed_descriptors() -> None:
    """Open devnull on descriptors 0, 1 and 2 if the command was started with them closed.

    Otherwise the first file the command opens would get descriptor 1 or 2, and
    anything written to "stdout" (by a worker process, say) would land in it.
    """
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                opened = os.open(os.devnull, os.O_RDWR)
                if opened != fd:
                    os.dup2(opened, fd)
                    os.close(opened)
            except OSError:  # pragma: no cover - nothing better to do
                pass


def os_message(exc: OSError) -> str:
    """``FILE: reason`` for an OSError, e.g. ``games: Permission denied``."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    names = [n for n in (exc.filename, exc.filename2) if n is not None]
    shown = [os.fsdecode(n) if isinstance(n, bytes) else str(n) for n in names]
    return ": ".join([*shown, reason])
