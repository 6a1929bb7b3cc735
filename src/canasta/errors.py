"""The exception hierarchy: one base class, one subclass per kind of mistake."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["CanastaError", "IllegalMoveError", "NotationError", "VariantError"]


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
        # Imported here: canasta.limits builds on this module.
        from canasta.limits import MOVE_QUOTE_CHARS, clip_message, quote

        # Bounded whatever the caller passes: the move is quoted short, the whole cut to the limit.
        super().__init__(clip_message(f"illegal move {quote(move, MOVE_QUOTE_CHARS)}: {reason}"))
        self.move = move
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        # Built again from its fields: a worker process raises it to its parent,
        # which could not unpickle it from the message alone (and a pool hung then).
        return (type(self), (self.move, self.reason))
