"""canasta: the rules of Canasta and its house variants, as a library."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from canasta.actions import ActionSpace
from canasta.bots import Bot, GreedyBot, RandomBot
from canasta.cards import Card, parse_cards
from canasta.check import Diagnostic, check_variant
from canasta.describe import describe
from canasta.errors import CanastaError, IllegalMoveError, NotationError, VariantError
from canasta.moves import (
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
from canasta.profiles import load_variant, variant_names
from canasta.record import GameRecorder, RecordedGame, read_record, write_record
from canasta.rules import new_game
from canasta.scoring import ScoreBreakdown, score_side
from canasta.serialize import from_json, to_json
from canasta.simulate import simulate
from canasta.state import GameState, HandEnd, MeldGroup
from canasta.variant import Variant
from canasta.view import SeatView

try:
    __version__ = version("canasta")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

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
    "read_record",
    "score_side",
    "simulate",
    "to_json",
    "variant_names",
    "write_record",
]
