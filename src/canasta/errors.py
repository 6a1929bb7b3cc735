"""The exception hierarchy: one base class, one subclass per kind of mistake."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["CanastaError", "IllegalMoveError", "NotationError", "VariantError"]

# ------------------------------------------------------------ bounded messages
# Here, at the bottom of the package, so that every error can bound its own
# message; canasta.limits re-exports them beside the other limits.

#: Most characters of any input quoted in a message.
QUOTE_CHARS = 80
#: Most characters of a move quoted in an error (``illegal move '...'``): every
#: move of a bundled profile's play is shorter.
MOVE_QUOTE_CHARS = 200
#: Longest message of an error raised on bad input (well under 2000 characters).
MAX_MESSAGE_CHARS = 1500


def escape(text: str) -> str:
    """``text`` with every character that is not printable written as ``\\xNN``, ``\\uNNNN``.

    Control characters (an escape sequence would reach the terminal),
    line and paragraph separators, bidirectional overrides and other
    invisible formatting characters are escaped as :func:`repr` escapes them;
    everything else, non-ASCII letters and card suits included, is kept.
    A backslash is kept as it is.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def clip(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``...`` when cut."""
    return text if len(text) <= limit else text[: max(limit - 3, 0)] + "..."


def quote(text: str, limit: int = QUOTE_CHARS) -> str:
    """``text`` quoted for a message: ``'...'`` as :func:`repr` writes it, at most ``limit`` characters.

    Only the first ``limit`` characters of ``text`` are looked at, so quoting
    a huge input costs no more than quoting a short one.
    """
    head = text[: limit + 1]
    shown = repr(head if len(head) <= limit else head[: max(limit - 3, 0)])
    if len(head) > limit:
        shown = shown[:-1] + "..." + shown[-1]
    return shown


def clip_message(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message`` with control characters escaped, cut to ``limit`` characters.

    Line breaks (``\\n``) are kept: a message may list several problems, one a line.
    """
    lines = message[: limit + 1].split("\n")
    text = "\n".join(escape(line) for line in lines)
    if len(message) > limit or len(text) > limit:
        cut = text[: limit - 40].rstrip()
        return f"{cut} ... (message cut at {limit} characters)"
    return text


class CanastaError(ValueError):
    """Base class of every error the library raises on purpose.

    It subclasses :class:`ValueError` so that code which already guards
    against bad values keeps working.
    """


#: Most problems a :class:`VariantError` lists; the rest are counted.
MAX_LISTED = 20
#: Longest message of a :class:`VariantError` that lists several problems.
MAX_LISTED_CHARS = 1500


class VariantError(CanastaError):
    """A variant profile is malformed: the message names file, line, key and expectation.

    A profile with several mistakes is refused with all of them at once: the
    message lists one problem a line (``FILE:LINE:COLUMN: KEY.PATH: ...``), at
    most ``MAX_LISTED`` of them, and ends with ``... and N more problems``
    when there were more (or when listing them all would make the message
    longer than ``MAX_LISTED_CHARS`` characters).

    Attributes:
        problems: the problems listed, one message each (a single-problem
            error holds just its message).
        total: how many problems were found, listed or not.
    """

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.problems: tuple[str, ...] = (message,)
        self.total = 1

    @classmethod
    def of(cls, problems: Sequence[str], total: int | None = None) -> VariantError:
        """The error listing ``problems``, of ``total`` found (``len(problems)`` if not given)."""
        count = len(problems) if total is None else max(total, len(problems))
        listed: list[str] = []
        size = 0
        for problem in problems[:MAX_LISTED]:
            size += len(problem) + 1
            if listed and size > MAX_LISTED_CHARS - 40:
                break
            listed.append(problem)
        lines = list(listed)
        if count > len(listed):
            lines.append(f"... and {count - len(listed)} more problems")
        error = cls("\n".join(lines))
        error.problems = tuple(listed)
        error.total = count
        return error

    def __reduce__(self) -> tuple[Any, ...]:
        # Keep the problems across pickling (a worker process may raise it).
        return (_restore, (type(self), str(self), self.problems, self.total))


def _restore(cls: type[VariantError], message: str, problems: tuple[str, ...], total: int) -> VariantError:
    error = cls(message)
    error.problems = problems
    error.total = total
    return error


class NotationError(CanastaError):
    """Text that is not a card or a move; the message quotes the offending token."""


class IllegalMoveError(CanastaError):
    """A well-formed move that the rules forbid in the current state.

    Attributes:
        reason: the rule that forbids the move, in words a card player uses.
        move: the refused move as text.
    """

    def __init__(self, move: str, reason: str) -> None:
        # Bounded whatever the caller passes: the move is quoted short, the whole cut to the limit.
        super().__init__(clip_message(f"illegal move {quote(move, MOVE_QUOTE_CHARS)}: {reason}"))
        self.move = move
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        # Built again from its fields: a worker process raises it to its parent,
        # which could not unpickle it from the message alone (and a pool hung then).
        return (type(self), (self.move, self.reason))
