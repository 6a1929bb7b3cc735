"""canasta: the rules of Canasta and its house variants, as a library."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

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
