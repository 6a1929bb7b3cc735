"""canasta: the rules of Canasta and its house variants, as a library."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from canasta.cards import Card, parse_cards
from canasta.errors import CanastaError, IllegalMoveError, NotationError, VariantError
from canasta.profiles import load_variant, variant_names
from canasta.variant import Variant

try:
    __version__ = version("canasta")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

__all__ = [
    "CanastaError",
    "Card",
    "IllegalMoveError",
    "NotationError",
    "Variant",
    "VariantError",
    "__version__",
    "load_variant",
    "parse_cards",
    "variant_names",
]
