"""Strict readers of JSON values for :mod:`canasta.io.serialize`: each names the path of a bad value.

Every reader takes the value and its path in the document (``data.hands[2]``)
and returns the value in the engine's terms, or raises
:class:`~canasta.errors.CanastaError` with the path and what was expected.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

from canasta.cards import Card, parse_card
from canasta.errors import CanastaError, NotationError

_T = TypeVar("_T")


def fail_at(path: str, message: str) -> NoReturn:
    """Raise :class:`~canasta.errors.CanastaError` for the value at ``path``."""
    raise CanastaError(f"{path}: {message}")


def show_value(value: Any) -> str:
    """A JSON value described for an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {text!r}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def read_object(value: Any, path: str, keys: Sequence[str]) -> dict[str, Any]:
    """``value`` as an object with exactly ``keys``."""
    if not isinstance(value, dict):
        fail_at(path, f"expected an object, got {show_value(value)}")
    missing = [k for k in keys if k not in value]
    if missing:
        fail_at(path, "missing key" + ("s " if len(missing) > 1 else " ") + ", ".join(
            repr(k) for k in missing))
    extra = [k for k in value if k not in keys]
    if extra:
        fail_at(path, "unknown key" + ("s " if len(extra) > 1 else " ") + ", ".join(
            repr(k) for k in extra) + " (expected " + ", ".join(keys) + ")")
    return value


def read_int(value: Any, path: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an integer (never a bool), within ``low``..``high`` when given."""
    if not isinstance(value, int) or isinstance(value, bool):
        fail_at(path, f"expected an integer, got {show_value(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f">= {low}"
        fail_at(path, f"expected an integer {span}, got {value}")
    return value


def read_bool(value: Any, path: str) -> bool:
    """``value`` as a JSON boolean."""
    if not isinstance(value, bool):
        fail_at(path, f"expected true or false, got {show_value(value)}")
    return value


def read_str(value: Any, path: str) -> str:
    """``value`` as a string."""
    if not isinstance(value, str):
        fail_at(path, f"expected a string, got {show_value(value)}")
    return value


def read_list(value: Any, path: str, length: int | None = None, what: str = "") -> list[Any]:
    """``value`` as a list, of ``length`` items when given (``what`` names them in the message)."""
    if not isinstance(value, list):
        fail_at(path, f"expected a list, got {show_value(value)}")
    if length is not None and len(value) != length:
        fail_at(path, f"expected a list of {length}{what}, got a list of {len(value)}")
    return value


def read_items(
    value: Any, path: str, read: Callable[[Any, str], _T], length: int | None = None,
    what: str = "",
) -> tuple[_T, ...]:
    """``value`` as a list, each item read by ``read`` at its own path."""
    return tuple(
        read(item, f"{path}[{i}]") for i, item in enumerate(read_list(value, path, length, what))
    )


def read_card(value: Any, path: str) -> int:
    """``value`` as a card in notation (``"KH"``), returned as its code."""
    if not isinstance(value, str):
        fail_at(path, f"expected a card such as 'KH', '10S' or 'JK', got {show_value(value)}")
    try:
        return int(parse_card(value))
    except NotationError as exc:
        fail_at(path, str(exc))


def read_cards(value: Any, path: str) -> tuple[int, ...]:
    """``value`` as a list of cards, returned as codes."""
    return read_items(value, path, read_card)


def cards_out(codes: Sequence[int]) -> list[str]:
    """Card codes written in notation."""
    return [str(Card(c)) for c in codes]


def read_ints(value: Any, path: str, length: int | None = None, what: str = "") -> tuple[int, ...]:
    """``value`` as a list of integers."""
    return read_items(value, path, read_int, length, what)


def read_bools(value: Any, path: str, length: int, what: str) -> tuple[bool, ...]:
    """``value`` as a list of ``length`` booleans."""
    return read_items(value, path, read_bool, length, what)


# --------------------------------------------------------------------------- variants
