"""The fields of the observation vector: which quantities it holds, in what order, scaled how.

:class:`canasta.observe.ObservationLayout` places these fields one after the
other and encodes a seat's view into them; this module says what each field
holds and the largest raw value each element can take in a variant (in cards
or points), from which the layout works out its bounds.
"""

from __future__ import annotations

from canasta.engine import BLACK_THREE
from canasta.engine.moves import SEQUENCE
from canasta.engine.tables import Rules
from canasta.variant.model import Variant

__all__ = [
    "CARD_SCALE", "HAND_NUMBER_SCALE", "KIND_LABELS", "KIND_SLOTS", "MELD_ITEMS", "MELD_SCALE", "PHASE_LABELS",
    "POINT_SCALE", "SCORE_SCALE", "SIZE_SCALE", "SUITED_RANKS", "TARGET_LABELS", "TARGET_SLOTS", "Spec",
    "cards_in_decks", "field_specs", "opening_max",
]

#: Card kinds in slot order: red 3 (kind 1), 2, black 3 (kind 3), 4 ... A, joker (15).
KIND_SLOTS: tuple[int, ...] = tuple(range(1, 16))
KIND_LABELS: tuple[str, ...] = (
    "red3", "2", "black3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK",
)
#: Meld targets in slot order: wild melds (rank 0), 2s, black 3s, 4s ... As, sequences (16).
TARGET_SLOTS: tuple[int, ...] = (0, 2, 3, *range(4, 15), SEQUENCE)
TARGET_LABELS: tuple[str, ...] = ("W", "2", "black3", *KIND_LABELS[3:14], "sequence")
#: The natural cards counted by suit (``hand_suits``): ranks 4 to A, each in the suits C, D, H, S.
SUITED_RANKS = tuple(range(4, 15))
#: Per meld target: melds of it, their natural cards, their wild cards, canastas among them.
MELD_ITEMS = ("melds", "naturals", "wilds", "canastas")
#: The phases, one-hot: draw, play, answer, hand over, game over.
PHASE_LABELS = ("draw", "play", "answer", "hand_over", "game_over")

CARD_SCALE = 8.0
SIZE_SCALE = 100.0
MELD_SCALE = 4.0
POINT_SCALE = 100.0
SCORE_SCALE = 10_000.0
HAND_NUMBER_SCALE = 16.0


def cards_in_decks(v: Variant, kind: int) -> int:
    """How many cards of ``kind`` the decks hold."""
    if kind == 15:
        return v.deck.decks * v.deck.jokers_per_deck
    if kind in (1, 3):
        return 2 * v.deck.decks
    return 4 * v.deck.decks


def opening_max(v: Variant) -> int:
    """The largest opening minimum the variant can ask for."""
    values = [0, *v.opening.round_table, *(step.minimum for step in v.opening.score_table)]
    return max(values) if v.opening.by != "none" else 0


#: One field of the layout: (name, size, doc, raw upper bound of each element, scale).
Spec = tuple[str, int, str, list[float], float]


def field_specs(variant: Variant, r: Rules, total: int) -> list[Spec]:
    """The fields in vector order, each with the raw upper bound of its elements (in cards or points)."""
    n, m = r.n, len(r.sides)
    k, t = len(KIND_SLOTS), len(TARGET_SLOTS)
    values = sum(abs(r.value[kind]) * cards_in_decks(variant, kind) for kind in KIND_SLOTS)
    supply = [float(cards_in_decks(variant, kind)) for kind in KIND_SLOTS]
    # the laid-3s zone holds black 3s too where they are laid out (threes.black_laid_at_once)
    laid_threes = supply[0] + (cards_in_decks(variant, BLACK_THREE) if variant.threes.black_laid_at_once else 0)
    return [
        ("phase", 5, "one-hot: " + ", ".join(PHASE_LABELS), [1.0] * 5, 1.0),
        ("to_move", n, "one-hot relative seat to move (the partner while answering)", [1.0] * n, 1.0),
        ("dealer", n, "one-hot relative seat of the dealer", [1.0] * n, 1.0),
        ("hand", k, f"own hand: cards of each kind ÷ {CARD_SCALE:g}", supply, CARD_SCALE),
        ("hand_suits", 4 * len(SUITED_RANKS),
         f"own hand: natural cards of each rank 4 to A and suit ÷ {CARD_SCALE:g} "
         "(all 0 where the variant has no sequences)",
         [float(variant.deck.decks)] * (4 * len(SUITED_RANKS)), CARD_SCALE),
        ("hand_sizes", n, f"cards in each seat's hand ÷ {SIZE_SCALE:g}", [float(total)] * n, SIZE_SCALE),
        ("foot_sizes", n, f"cards in each seat's foot ÷ {SIZE_SCALE:g}", [float(total)] * n, SIZE_SCALE),
        ("stock_size", 1, f"cards in the stock ÷ {SIZE_SCALE:g}", [float(total)], SIZE_SCALE),
        ("pile_size", 1, f"cards in the discard pile ÷ {SIZE_SCALE:g}", [float(total)], SIZE_SCALE),
        ("pile_top", k, "one-hot kind of the pile's top card (all 0 when empty)", [1.0] * k, 1.0),
        ("pile_cards", k, f"the pile's cards of each kind ÷ {CARD_SCALE:g}", supply, CARD_SCALE),
        ("pile_top_suit", 4, "one-hot suit (C, D, H, S) of the pile's top card (all 0 when "
         "empty or a joker)", [1.0] * 4, 1.0),
        ("pile_frozen", 2, "pile frozen for everyone; frozen against the observer's side",
         [1.0, 1.0], 1.0),
        ("melds", m * t * 4,
         f"per side, per meld target: {', '.join(MELD_ITEMS)}; melds and canastas "
         f"÷ {MELD_SCALE:g}, cards ÷ {CARD_SCALE:g}",
         [float(total), float(total), float(total), float(total)] * (m * t), 0.0),
        ("canastas", m * 4, f"per side: natural, mixed, wild, sequence canastas ÷ {MELD_SCALE:g}",
         [float(total)] * (m * 4), MELD_SCALE),
        ("red_threes", m, f"per side: red 3s laid (and black 3s, where laid out) ÷ {MELD_SCALE:g}",
         [float(laid_threes)] * m, MELD_SCALE),
        ("opened", m, "per side: has made its opening meld", [1.0] * m, 1.0),
        ("opening_need", m, f"per side: opening minimum still to meet ÷ {POINT_SCALE:g} "
         "(0 once opened)", [float(opening_max(variant))] * m, POINT_SCALE),
        ("turn", 8 + n,
         f"the turn so far: took the pile, melded, points laid toward the opening "
         f"÷ {POINT_SCALE:g}, pile cards held aside ÷ {CARD_SCALE:g}, partner asked "
         f"(one-hot: not asked, yes, no), asking seat (one-hot relative), cards drawn "
         f"÷ {CARD_SCALE:g} (the mover's own turn only)",
         [1.0, 1.0, float(values), float(total), 1.0, 1.0, 1.0, *([1.0] * n), float(total)], 0.0),
        ("scores", m, f"per side: cumulative score ÷ {SCORE_SCALE:g}, clipped to [-1, 1]",
         [1.0] * m, 1.0),
        ("hand_scores", m, f"per side: this hand's score once it is over ÷ {SCORE_SCALE:g}, "
         "clipped to [-1, 1]", [1.0] * m, 1.0),
        ("hand_number", 1, f"hands played before this one ÷ {HAND_NUMBER_SCALE:g}, at most 1",
         [1.0], 1.0),
    ]
