"""Tests of canasta.errors: the exception hierarchy."""

from __future__ import annotations

import pytest

import canasta
from canasta.errors import CanastaError, IllegalMoveError, NotationError, VariantError


class TestHierarchy:
    """The exception classes and how they relate."""

    def test_base_is_value_error(self) -> None:
        """CanastaError is a ValueError."""
        assert issubclass(CanastaError, ValueError)

    @pytest.mark.parametrize("cls", [VariantError, NotationError, IllegalMoveError])
    def test_each_error_subclasses_base_and_value_error(self, cls: type[Exception]) -> None:
        """Every library error is both a CanastaError and a ValueError."""
        assert issubclass(cls, CanastaError)
        assert issubclass(cls, ValueError)

    def test_errors_are_distinct(self) -> None:
        """No library error is a subclass of another, apart from the base."""
        classes = [VariantError, NotationError, IllegalMoveError]
        for a in classes:
            for b in classes:
                assert issubclass(a, b) == (a is b)

    def test_exported_from_package(self) -> None:
        """The errors are part of the public package namespace."""
        assert canasta.CanastaError is CanastaError
        assert canasta.VariantError is VariantError
        assert canasta.NotationError is NotationError
        assert canasta.IllegalMoveError is IllegalMoveError

    def test_caught_as_value_error(self) -> None:
        """Code that catches ValueError catches a VariantError with its message."""
        with pytest.raises(ValueError, match="bad profile"):
            raise VariantError("bad profile")


class TestIllegalMoveError:
    """IllegalMoveError."""

    def test_attributes(self) -> None:
        """It keeps the refused move and the reason."""
        err = IllegalMoveError("take pile", "the pile is frozen")
        assert err.move == "take pile"
        assert err.reason == "the pile is frozen"

    def test_message_quotes_move_and_reason(self) -> None:
        """Its message quotes the move and states the rule."""
        err = IllegalMoveError("discard KH", "you must draw first")
        assert str(err) == "illegal move 'discard KH': you must draw first"

    def test_keyword_arguments(self) -> None:
        """It can be built with keyword arguments."""
        err = IllegalMoveError(move="meld 4C 4D", reason="a meld needs three cards")
        assert (err.move, err.reason) == ("meld 4C 4D", "a meld needs three cards")

    def test_caught_as_canasta_error(self) -> None:
        """Catching CanastaError catches it, with its attributes intact."""
        with pytest.raises(CanastaError) as info:
            raise IllegalMoveError("go out", "your side has no canasta")
        assert isinstance(info.value, IllegalMoveError)
        assert info.value.reason == "your side has no canasta"
