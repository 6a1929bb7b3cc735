"""Words of the rule book: numbers in words, counts, points, ordinals, plurals and lists.

Plain string helpers shared by the sentence modules, the book and the renderers; none
of them reads a variant.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty",
)
_ORDINALS = (
    "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
    "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth",
)
_RANK_PLURALS = {"JK": "jokers", "A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "3": "black 3s"}


def num(n: int) -> str:
    """``n`` in words up to twenty, in digits above."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def cap(text: str) -> str:
    """``text`` with its first letter in upper case."""
    return text[:1].upper() + text[1:]


def ordinal(n: int) -> str:
    """``"first"`` to ``"twentieth"`` in words, then ``"21st"``, ``"22nd"`` and so on."""
    if 0 <= n < len(_ORDINALS):
        return _ORDINALS[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``"no cards"``, ``"one card"``, ``"eleven cards"``."""
    many = plural or noun + "s"
    if n == 0:
        return f"no {many}"
    return f"{num(n)} {noun if n == 1 else many}"


def pts(n: int) -> str:
    """A number of points, with a true minus sign."""
    return f"\u2212{-n}" if n < 0 else str(n)


def points(n: int) -> str:
    """``"1 point"``, ``"50 points"``, ``"\u2212100 points"`` (with a true minus sign)."""
    return f"{pts(n)} point" if n in (1, -1) else f"{pts(n)} points"


def join(items: Sequence[str], word: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``; ``word`` replaces "and" (e.g. "or")."""
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def rank_plural(rank: str) -> str:
    """The plural of a rank's name: ``"aces"``, ``"jokers"``, ``"black 3s"``, ``"9s"``."""
    return _RANK_PLURALS.get(rank, f"{rank}s")


def clean(text: str) -> str:
    """User text on one line: whitespace runs become one space, control characters go."""
    kept = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cs"))
    return " ".join(kept.split())
