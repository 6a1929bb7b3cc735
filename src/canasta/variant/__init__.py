"""The rule vocabulary: the :class:`Variant` model, loading profiles, the schema.

Data flows out of here and never back: this package uses nothing of
``canasta`` but :mod:`canasta.cards` and :mod:`canasta.errors`. Modules inside
it import each other directly, never through this file.
"""

from canasta.variant.convert import dump_variant, variant_to_dict
from canasta.variant.loading import load_variant, parse_variant, variant_from_dict, variant_names
from canasta.variant.model import (
    AREAS,
    Assumption,
    CanastaRules,
    CardValues,
    DealRules,
    DeckRules,
    DrawRules,
    FootRules,
    GameRules,
    GoingOutRules,
    HeldPenalty,
    MeldRules,
    OpeningRules,
    OpeningStep,
    PileRules,
    PlayerRules,
    RankBonus,
    RankPenalty,
    ScoringRules,
    Source,
    ThreeRules,
    Variant,
    WildBonus,
    WildRules,
    option_doc,
    validate_variant,
)

__all__ = [
    "AREAS",
    "Assumption",
    "CanastaRules",
    "CardValues",
    "DealRules",
    "DeckRules",
    "DrawRules",
    "FootRules",
    "GameRules",
    "GoingOutRules",
    "HeldPenalty",
    "MeldRules",
    "OpeningRules",
    "OpeningStep",
    "PileRules",
    "PlayerRules",
    "RankBonus",
    "RankPenalty",
    "ScoringRules",
    "Source",
    "ThreeRules",
    "Variant",
    "WildBonus",
    "WildRules",
    "dump_variant",
    "load_variant",
    "option_doc",
    "parse_variant",
    "validate_variant",
    "variant_from_dict",
    "variant_names",
    "variant_to_dict",
]
