"""The exception hierarchy: one base class, one subclass per kind of mistake."""

from __future__ import annotations

__all__ = ["CanastaError", "IllegalMoveError", "NotationError", "VariantError"]


class CanastaError(ValueError):
    """Base class of every error the library raises on purpose.

    It subclasses :class:`ValueError` so that code which already guards
    against bad values keeps working.
    """


class VariantError(CanastaError):
    """A variant profile is malformed: the message names file, line, key and expectation."""


class NotationError(CanastaError):
    """Text that is not a card or a move; the message quotes the offending token."""


class IllegalMoveError(CanastaError):
    """A well-formed move that the rules forbid in the current state.

    Attributes:
        reason: the rule that forbids the move, in words a card player uses.
        move: the refused move as text.
    """

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f"illegal move {move!r}: {reason}")
        self.move = move
        self.reason = reason
