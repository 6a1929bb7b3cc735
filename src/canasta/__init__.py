"""canasta: the rules of Canasta and its house variants, as a library.

The public names below are imported from their modules on first use (PEP 562),
so that ``import canasta`` and a command line that needs one corner of the
library do not pay for importing all of it: ``from canasta import simulate``
and ``canasta.simulate`` work as if everything had been imported at once.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers see; the same names as _WHERE, which test_architecture compares
    from canasta.cards import Card, parse_cards
    from canasta.check import Diagnostic, check_variant
    from canasta.engine import new_game
    from canasta.engine.moves import (
        Add,
        Answer,
        Ask,
        Discard,
        Draw,
        Foot,
        Meld,
        Move,
        NextHand,
        Pass,
        TakePile,
        parse_move,
    )
    from canasta.engine.score_keeping import score_side
    from canasta.engine.scoring import ScoreBreakdown
    from canasta.engine.state import GameState, HandEnd, MeldGroup
    from canasta.engine.view import SeatView
    from canasta.errors import CanastaError, IllegalMoveError, NotationError, VariantError
    from canasta.io.actions import ActionSpace
    from canasta.io.record import GameRecorder, RecordedGame, read_record, write_record
    from canasta.io.serialize import from_json, to_json
    from canasta.play.bots import Bot, GreedyBot, RandomBot
    from canasta.play.playout import HandPlayed, playout
    from canasta.play.simulate import simulate
    from canasta.rulebook import describe
    from canasta.variant.loading import load_variant, parse_variant, variant_names
    from canasta.variant.model import Variant

    __version__: str

#: Where each public name lives: ``canasta.NAME`` is imported from there on first use.
_WHERE: dict[str, str] = {
    "Card": "canasta.cards",
    "parse_cards": "canasta.cards",
    "Diagnostic": "canasta.check",
    "check_variant": "canasta.check",
    "new_game": "canasta.engine",
    "Add": "canasta.engine.moves",
    "Answer": "canasta.engine.moves",
    "Ask": "canasta.engine.moves",
    "Discard": "canasta.engine.moves",
    "Draw": "canasta.engine.moves",
    "Foot": "canasta.engine.moves",
    "Meld": "canasta.engine.moves",
    "Move": "canasta.engine.moves",
    "NextHand": "canasta.engine.moves",
    "Pass": "canasta.engine.moves",
    "TakePile": "canasta.engine.moves",
    "parse_move": "canasta.engine.moves",
    "score_side": "canasta.engine.score_keeping",
    "ScoreBreakdown": "canasta.engine.scoring",
    "GameState": "canasta.engine.state",
    "HandEnd": "canasta.engine.state",
    "MeldGroup": "canasta.engine.state",
    "SeatView": "canasta.engine.view",
    "CanastaError": "canasta.errors",
    "IllegalMoveError": "canasta.errors",
    "NotationError": "canasta.errors",
    "VariantError": "canasta.errors",
    "ActionSpace": "canasta.io.actions",
    "GameRecorder": "canasta.io.record",
    "RecordedGame": "canasta.io.record",
    "read_record": "canasta.io.record",
    "write_record": "canasta.io.record",
    "from_json": "canasta.io.serialize",
    "to_json": "canasta.io.serialize",
    "Bot": "canasta.play.bots",
    "GreedyBot": "canasta.play.bots",
    "RandomBot": "canasta.play.bots",
    "HandPlayed": "canasta.play.playout",
    "playout": "canasta.play.playout",
    "simulate": "canasta.play.simulate",
    "describe": "canasta.rulebook",
    "load_variant": "canasta.variant.loading",
    "parse_variant": "canasta.variant.loading",
    "variant_names": "canasta.variant.loading",
    "Variant": "canasta.variant.model",
}

#: Subpackages that ``canasta.NAME.attribute`` reaches without importing them first,
#: as it did when this package imported everything up front.
_SUBPACKAGES = frozenset({"cards", "check", "engine", "errors", "faces", "io", "limits", "play", "rulebook", "variant"})


def __getattr__(name: str) -> Any:
    """Import the public name ``name`` (or one of :data:`_SUBPACKAGES`) on first use (PEP 562)."""
    if name == "__version__":
        value: Any = _version()
    elif name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name]), name)
    elif name in _SUBPACKAGES:
        return importlib.import_module(f"{__name__}.{name}")  # the import binds it here
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later look-ups find it without calling this function
    return value


def __dir__() -> list[str]:
    """The module's names, the public ones not yet imported included."""
    return sorted({*globals(), *__all__})


def _version() -> str:
    # importlib.metadata is slow to import (email, zipfile, ...): only when asked
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("canasta")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0.0.0"


__all__ = [
    "ActionSpace",
    "Add",
    "Answer",
    "Ask",
    "Bot",
    "CanastaError",
    "Card",
    "Diagnostic",
    "Discard",
    "Draw",
    "Foot",
    "GameRecorder",
    "GameState",
    "GreedyBot",
    "HandEnd",
    "HandPlayed",
    "IllegalMoveError",
    "Meld",
    "MeldGroup",
    "Move",
    "NextHand",
    "NotationError",
    "Pass",
    "RandomBot",
    "RecordedGame",
    "ScoreBreakdown",
    "SeatView",
    "TakePile",
    "Variant",
    "VariantError",
    "__version__",
    "check_variant",
    "describe",
    "from_json",
    "load_variant",
    "new_game",
    "parse_cards",
    "parse_move",
    "parse_variant",
    "playout",
    "read_record",
    "score_side",
    "simulate",
    "to_json",
    "variant_names",
    "write_record",
]
