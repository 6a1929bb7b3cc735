"""The game engine: compiled rule tables, states and moves, legality, scoring, views.

The engine reads a :class:`~canasta.variant.Variant` and nothing of the
packages around it (checker, rule book, play, io). Those packages import the
engine's names from here, so that its modules can be rearranged freely.
"""

from canasta.engine.deal import shuffle
from canasta.engine.facts import opening_minimum
from canasta.engine.game import apply, check, compile_rules, legal_moves, new_game
from canasta.engine.kinds import BLACK_THREE, KIND, hand_counts
from canasta.engine.state import (
    ANSWER,
    DRAW,
    GAME_OVER,
    HAND_OVER,
    PLAY,
    GameState,
    HandEnd,
    MeldGroup,
    Turn,
)
from canasta.engine.tables import COMPILED, Rules

__all__ = [
    "ANSWER",
    "BLACK_THREE",
    "COMPILED",
    "DRAW",
    "GAME_OVER",
    "HAND_OVER",
    "KIND",
    "PLAY",
    "GameState",
    "HandEnd",
    "MeldGroup",
    "Rules",
    "Turn",
    "apply",
    "check",
    "compile_rules",
    "hand_counts",
    "legal_moves",
    "new_game",
    "opening_minimum",
    "shuffle",
]
