"""The variant model: every rule of a Canasta-family game as typed, frozen data.

A :class:`Variant` is grouped by rule area, one frozen attrs class per area.
Every option has a type, a default and a one-line description (kept in the
field's ``metadata["doc"]``); the JSON Schema, the conflict checker and the
generated rule book all read that line, so a new option is documented once.

The model checks itself: every option carries a validator derived from its
type and range (see ``canasta.variant.options``), so building a rule area
or a :class:`Variant` with a value no profile may hold, directly or with
``attrs.evolve``, raises :class:`~canasta.errors.VariantError` naming the
option, e.g. ``deal.hand_size: expected an integer from 1 to 30, got -1``.

Defaults are those of classic partnership Canasta (Pagat), so a profile only
writes what differs.
"""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any

import attrs

from canasta.errors import VariantError
from canasta.variant.areas import (
    MAX_CANASTAS,
    MAX_CARDS,
    MAX_DECKS,
    MAX_JOKERS,
    MAX_NEW_MELD,
    MAX_POINTS,
    MAX_ROUNDS,
    MAX_ROWS,
    MAX_SCORE,
    MAX_WILD_RANKS,
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
    SequenceRules,
    Source,
    SpecialHand,
    SpecialRules,
    ThreeRules,
    WildBonus,
    WildRules,
    option_doc,
)
from canasta.variant.mixes import MAX_WILD_MIXES, wild_mixes
from canasta.variant.mixes import check_wild_mixes as _check_wild_mixes
from canasta.variant.options import (
    ASSUMED_SOURCE,
    check_instance,
    join_path,
    opt,
    register_option_paths,
    suggest,
)

__all__ = [
    "AREAS",
    "MAX_CANASTAS",
    "MAX_CARDS",
    "MAX_DECKS",
    "MAX_JOKERS",
    "MAX_NEW_MELD",
    "MAX_POINTS",
    "MAX_ROUNDS",
    "MAX_ROWS",
    "MAX_SCORE",
    "MAX_WILD_MIXES",
    "MAX_WILD_RANKS",
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
    "SequenceRules",
    "Source",
    "SpecialHand",
    "SpecialRules",
    "ThreeRules",
    "Variant",
    "WildBonus",
    "WildRules",
    "option_doc",
    "option_paths",
    "validate_variant",
    "wild_mixes",
]

def _check_assumed(_inst: object, _attribute: object, value: tuple[Assumption, ...]) -> None:
    """Each assumption names a real option or area, once, with a non-empty source."""
    known = _option_path_set()
    seen: set[str] = set()
    for assumption in value:
        if assumption.path in known and assumption.source and assumption.path not in seen:
            seen.add(assumption.path)
            continue
        path = join_path("assumed", assumption.path)
        if assumption.path not in known:
            hint = suggest(assumption.path, option_paths())
            raise VariantError(f"{path}: unknown option or area; {hint}")
        if not assumption.source:
            raise VariantError(f"{path}: expected {ASSUMED_SOURCE}, got ''")
        raise VariantError(f"{path}: expected each option once, got it again")


@attrs.frozen(cache_hash=True)
class Variant:
    """A complete rule set of a Canasta-family game: one frozen value, one attribute per rule area.

    Load one rather than build it: ``canasta.load_variant("classic")`` (a
    bundled profile or a YAML file), or ``canasta.parse_variant(text)`` for
    profile text or data kept elsewhere. Each rule area is an attribute
    holding a frozen class (``v.deal.hand_size``, ``v.wilds.ranks``,
    ``v.pile.frozen_by_wild`` ...); ``attrs.evolve`` makes a changed copy,
    checked like a profile. ``canasta.describe(v)`` prints its rule book and
    ``canasta schema`` lists every option with its type, default and meaning.

    Example::

        v = canasta.load_variant("classic")
        v.canastas.size                 # 7
        v.opening_minimum(1600, 0)      # 90

    Its attributes: ``name`` (as used on the command line), ``title``,
    ``description``, ``source`` (the rule text it models), ``assumed``
    (options that fill gaps in that text), ``customs`` (table customs the
    engine does not model), and the rule areas ``players``, ``deck``,
    ``deal``, ``draw``, ``wilds``, ``values``, ``threes``, ``melds``,
    ``canastas``, ``opening``, ``pile``, ``foot``, ``going_out``, ``scoring``,
    ``special`` (special hands) and ``game``.

    Calling the class takes each attribute as a keyword argument; every one
    has a default (classic Canasta's).
    """

    name: str = opt(
        "custom",
        "Short name of the variant, as used on the command line.",
        nonempty=True,
        max_length=100,
        single_line=True,
    )
    title: str = opt("", "Full name of the variant.", max_length=200)
    description: str = opt(
        "", "One paragraph on what the variant is.", max_length=5000
    )
    source: Source = opt(Source(), "The rule text the profile models.")
    assumed: tuple[Assumption, ...] = opt(
        (),
        "Options whose values fill gaps in the source text, with where they come from.",
        max_items=500,
        validator=_check_assumed,
    )
    customs: tuple[str, ...] = opt(
        (),
        "Table customs of the source text that the engine does not model (who keeps the score, penalties for mistakes, ...), printed in the rule book as written.",
        max_length=2000,
        max_items=MAX_ROWS,
    )
    players: PlayerRules = opt(PlayerRules(), "Who plays.")
    deck: DeckRules = opt(DeckRules(), "Which cards are used.")
    deal: DealRules = opt(DealRules(), "The deal.")
    draw: DrawRules = opt(DrawRules(), "Drawing from the stock.")
    wilds: WildRules = opt(WildRules(), "Which cards are wild.")
    values: CardValues = opt(CardValues(), "Points of each card.")
    threes: ThreeRules = opt(ThreeRules(), "Red and black 3s.")
    melds: MeldRules = opt(MeldRules(), "What makes a legal meld.")
    sequences: SequenceRules = opt(SequenceRules(), "Sequences of one suit, a second kind of meld.")
    canastas: CanastaRules = opt(CanastaRules(), "Canastas and their bonuses.")
    opening: OpeningRules = opt(OpeningRules(), "The opening minimum.")
    pile: PileRules = opt(PileRules(), "The discard pile.")
    foot: FootRules = opt(FootRules(), "The foot.")
    going_out: GoingOutRules = opt(GoingOutRules(), "Going out.")
    scoring: ScoringRules = opt(ScoringRules(), "Bonuses and penalties.")
    special: SpecialRules = opt(SpecialRules(), "Special hands, laid at once instead of melding.")
    game: GameRules = opt(GameRules(), "The end of the game.")

    def __attrs_post_init__(self) -> None:
        _check_wild_mixes(self)
        _check_special_ranks(self)
        _check_wild_in_gap(self)
        _check_sequence_sizes(self)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Seats of each side: partners sit opposite (seat i with i + n/2)."""
        n = self.players.count
        if self.players.partnerships and n % 2 == 0 and n >= 4:
            half = n // 2
            return tuple((i, i + half) for i in range(half))
        return tuple((i,) for i in range(n))

    def is_assumed(self, path: str) -> bool:
        """Whether the option at dotted ``path`` is an assumption rather than the text's rule."""
        return any(a.path == path or path.startswith(a.path + ".") for a in self.assumed)

    def opening_minimum(self, score: int, round_index: int) -> int:
        """Opening minimum for a side with cumulative ``score`` in hand ``round_index`` (0-based)."""
        if self.opening.by == "none":
            return 0
        if self.opening.by == "round":
            table = self.opening.round_table
            if not table:
                return 0
            return table[min(round_index, len(table) - 1)]
        step = self._opening_step(score)
        return 0 if step is None else step.minimum

    def opening_canasta(self, score: int) -> str:
        """Whether a side with cumulative ``score`` must hold a canasta in its opening melds:
        ``"none"``, ``"any"`` or ``"natural"`` (``OpeningStep.canasta``; only with ``opening.by: score``)."""
        if self.opening.by != "score":
            return "none"
        step = self._opening_step(score)
        return "none" if step is None else step.canasta

    def _opening_step(self, score: int) -> OpeningStep | None:
        """The row of ``opening.score_table`` that applies at ``score``, or ``None``."""
        best: OpeningStep | None = None
        best_from: int | None = None
        for step in self.opening.score_table:
            if step.from_score is None:
                if best_from is None:
                    best = step
            elif score >= step.from_score and (best_from is None or step.from_score >= best_from):
                best, best_from = step, step.from_score
        return best


def _check_special_ranks(v: Variant) -> None:
    """The ranks a special hand names are natural ranks of ``v``: a wild rank forms no natural group."""
    for i, h in enumerate(v.special.hands):
        for j, rank in enumerate(h.ranks):
            if rank in v.wilds.ranks:
                raise VariantError(
                    f"special.hands[{i}].ranks[{j}]: expected a natural rank, got {rank!r}, "
                    f"which is wild in this variant (wilds.ranks); wild groups are counted by wild_groups"
                )


def _check_wild_in_gap(v: Variant) -> None:
    """A wild card in a sequence and joined sequences are not played together.

    Joining two sequences that each hold a wild card would make one with two,
    which no reading of the house rule allows; rather than guess which joins
    stay legal, the engine refuses the pair of options.
    """
    sq = v.sequences
    if sq.wild_in_gap and sq.join:
        raise VariantError(
            "sequences.wild_in_gap: expected sequences.join off: a wild card in a sequence "
            "and joined sequences are not played together (turn one of them off)"
        )


def _check_sequence_sizes(v: Variant) -> None:
    """Where sequences are allowed, a new sequence fits in one: ``min_size`` at most ``max_size``.

    A new sequence is laid with exactly ``sequences.min_size`` cards; a
    ``max_size`` below it contradicts it (no sequence could ever be laid, yet
    the rules of sequences would be on), so the pair is refused at load.
    """
    sq = v.sequences
    if sq.allowed and sq.max_size is not None and sq.max_size < sq.min_size:
        raise VariantError(
            f"sequences.max_size: expected at least sequences.min_size ({sq.min_size}), got {sq.max_size}: "
            f"a new sequence is laid with {sq.min_size} cards, more than a sequence may hold "
            "(raise max_size, lower min_size, or set sequences.allowed: false)"
        )


# help(Variant) and inspect.signature(Variant) would open with the constructor:
# twenty keyword arguments with every default of every area (3,000 characters).
Variant.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter("options", inspect.Parameter.VAR_KEYWORD, annotation=Any)]
)


#: The rule areas of a variant, in the order the rule book presents them.
AREAS: tuple[tuple[str, type], ...] = tuple(
    (f.name, f.type if isinstance(f.type, type) else type(f.default))
    for f in attrs.fields(Variant)
    if attrs.has(type(f.default)) and f.name != "source"
)

register_option_paths(Variant)


@cache
def _option_paths() -> tuple[str, ...]:
    paths: list[str] = []
    for area, cls in AREAS:
        paths.append(area)
        paths.extend(f"{area}.{f.name}" for f in attrs.fields(cls))
    return tuple(paths)


@cache
def _option_path_set() -> frozenset[str]:
    return frozenset(_option_paths())


def option_paths() -> list[str]:
    """Return every rule area and option as a dotted path, in model order.

    These are the paths ``assumed:`` may name: ``"deck"`` or ``"deck.decks"``.

    Returns:
        The paths, areas first within each area (``["players", "players.count", …]``).
    """
    return list(_option_paths())


def validate_variant(variant: Variant) -> None:
    """Check every value of ``variant`` against its option's type and range, nested ones too.

    Building a :class:`Variant` (or any rule area) normally, by
    :func:`canasta.load_variant`, by calling the class or with ``attrs.evolve``,
    already runs these checks; this function is for objects made by unusual
    means, such as unpickling or ``object.__setattr__``.

    Raises:
        VariantError: a value does not fit; the message names the option by its
            profile path, e.g. ``deal.hand_size: expected an integer from 1 to 30, got -1``.
    """
    if not isinstance(variant, Variant):
        raise VariantError(f"expected a Variant, got {type(variant).__name__}")
    check_instance(variant, "")
    _check_assumed(variant, None, variant.assumed)
    _check_wild_mixes(variant)
    _check_special_ranks(variant)
