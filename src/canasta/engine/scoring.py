"""Scoring a side's hand: an itemized :class:`ScoreBreakdown`."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from canasta.cards import RANK_NAMES, parse_rank
from canasta.engine.meld_kinds import kinds_of
from canasta.engine.moves import SEQUENCE, WILD_TARGET
from canasta.variant.model import SpecialHand, Variant

__all__ = [
    "ScoreBreakdown", "SideTable", "black_three_item", "red_three_item", "score_table", "special_breakdown",
    "threes_sign",
]


@attrs.frozen
class ScoreBreakdown:
    """One side's score for a hand, item by item.

    Attributes:
        items: ``(label, points)`` pairs; minus items are negative.
    """

    items: tuple[tuple[str, int], ...] = ()

    @property
    def total(self) -> int:
        """The sum of the items."""
        return sum(points for _, points in self.items)

    def __str__(self) -> str:
        width = max([len(label) for label, _ in self.items] + [5])
        lines = [f"{label:<{width}}  {points:>6}" for label, points in self.items]
        lines.append("-" * (width + 8))
        lines.append(f"{'total':<{width}}  {self.total:>6}")
        return "\n".join(lines)


@attrs.frozen
class SideTable:
    """What one side has at the end of a hand, as the scorer needs it.

    Attributes:
        melds: each meld as ``(rank, card values, canasta kind or None)``; rank 0
            is a wild meld.
        red_threes: red 3s the side laid.
        opened: whether the side made its opening meld.
        left_values: point values of cards left in the side's hands and feet
            (black 3s of a black-3 out excluded).
        red_threes_held: red 3s still held in hands or feet.
        black_threes_held: black 3s left in hands and feet, where
            ``threes.black_held_penalty`` counts them (then not among ``left_values``).
        went_out: whether this side went out.
        concealed: whether it went out concealed.
        black_three_out: whether it went out with a black-3 out.
        black_threes: black 3s the side laid (``threes.black_laid_at_once``).
        wild_kinds: the kinds of the wild cards of each meld, in the order of
            ``melds`` (for ``canastas.wild_mix_bonuses``); empty: not known, no mix bonus.
        held: the kinds of the cards each player of the side holds in hand and
            foot (for ``scoring.held_penalties``), one entry per player.
    """

    melds: tuple[tuple[int, tuple[int, ...], str | None], ...] = ()
    red_threes: int = 0
    opened: bool = False
    left_values: tuple[int, ...] = ()
    red_threes_held: int = 0
    black_threes_held: int = 0
    went_out: bool = False
    concealed: bool = False
    black_three_out: bool = False
    black_threes: int = 0
    wild_kinds: tuple[tuple[int, ...], ...] = ()
    held: tuple[tuple[int, ...], ...] = ()


def score_table(variant: Variant, table: SideTable, red_threes_in_deck: int) -> ScoreBreakdown:
    """Score one side's end-of-hand ``table`` under ``variant``.

    Args:
        variant: the rules.
        table: the side's melds, red 3s and leftover cards.
        red_threes_in_deck: how many red 3s the decks hold (for the all-red-3s bonus).

    Returns:
        The itemized breakdown; its ``total`` is the side's score for the hand.
    """
    items: list[tuple[str, int]] = []
    sc = variant.scoring
    canastas = sum(1 for _, _, kind in table.melds if kind is not None)
    if sc.meld_points:
        melded = sum(sum(values) for _, values, _ in table.melds)
        if melded:
            if sc.meld_minus_without_canasta and not canastas:
                items.append(("melded cards (minus: no canasta)", -melded))
            else:
                items.append(("melded cards", melded))
    meld_kinds = kinds_of(variant)
    for i, (rank, _values, kind) in enumerate(table.melds):
        if kind is None:
            continue
        wilds = table.wild_kinds[i] if i < len(table.wild_kinds) else ()
        items.append(meld_kinds[rank].bonus(rank, kind, wilds))
    th = variant.threes
    # melds on the table mean the side made its opening meld (a concealed
    # out may lay melds below the opening minimum)
    unopened = not table.opened and not table.melds
    groups = []
    if table.red_threes:
        groups.append(red_three_item(variant, table.red_threes, red_threes_in_deck))
    if table.black_threes:
        groups.append(black_three_item(variant, table.black_threes))
    for value, label in groups:
        sign = threes_sign(variant, canastas, unopened)
        if sign < 0:
            items.append((label + " (minus)", -value))
        elif sign == 0:
            items.append((label + f" (nothing: {canastas} canasta{'s' if canastas != 1 else ''})", 0))
        else:
            items.append((label, value))
    if table.went_out:
        if table.concealed:
            items.append(("going out concealed", sc.concealed_bonus))
        else:
            items.append(("going out", sc.going_out_bonus))
    if table.black_three_out:
        items.append(("black-3 out", th.black_out_bonus))
    if sc.hand_minus and table.left_values:
        left = sum(table.left_values)
        if left:
            items.append(("cards left in hand", -left))
    if table.black_threes_held and th.black_held_penalty is not None:
        items.append(("black 3s left in hand", -table.black_threes_held * th.black_held_penalty))
    if table.red_threes_held:
        items.append(("red 3s held", -table.red_threes_held * th.red_held_penalty))
    items.extend(_penalties(variant, table))
    sq = variant.sequences
    if sq.short_penalty:
        short = sum(1 for rank, values, _ in table.melds if rank == SEQUENCE and len(values) < sq.short_size)
        if short:
            items.append((f"sequences under {sq.short_size} cards", -short * sq.short_penalty))
    return ScoreBreakdown(tuple(items))


def special_breakdown(hand: SpecialHand) -> ScoreBreakdown:
    """The score of a side that laid special ``hand``: its value, one item, and nothing else of the side."""
    return ScoreBreakdown(((hand.label, hand.value),))


_PLURALS = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "JK": "jokers"}


def _plural(rank: str) -> str:
    return _PLURALS.get(rank, f"{rank}s")


def _penalties(variant: Variant, table: SideTable) -> list[tuple[str, int]]:
    """The items of ``scoring.incomplete_penalties``, ``incomplete_wild_penalty`` and ``held_penalties``."""
    sc = variant.scoring
    items: list[tuple[str, int]] = []
    by_rank: dict[int, int] = {}
    for meld_pen in sc.incomplete_penalties:  # the last entry for a rank wins, as in a mapping
        by_rank[parse_rank(meld_pen.rank)] = meld_pen.penalty
    if sc.incomplete_wild_penalty:
        by_rank[WILD_TARGET] = sc.incomplete_wild_penalty
    if by_rank:
        kinds = kinds_of(variant)
        for i, (rank, _values, kind) in enumerate(table.melds):
            points = by_rank.get(rank, 0)
            # a meld the rule does not single out (Modern American: aces that took
            # wild cards in the opening turn are an ordinary meld) owes nothing
            wilds = len(table.wild_kinds[i]) if i < len(table.wild_kinds) else 0
            if kind is None and points and kinds[rank].singled_out(rank, wilds):
                what = "wild cards" if rank == WILD_TARGET else _plural(RANK_NAMES[rank])
                items.append((f"incomplete meld of {what}", -points))
    for pen in sc.held_penalties:
        k = parse_rank(pen.rank)
        players = sum(1 for kinds in table.held if sum(1 for x in kinds if x == k) >= pen.count)
        if players and pen.penalty:
            who = "a player" if players == 1 else f"{players} players"
            items.append((f"{pen.count} or more {_plural(pen.rank)} held by {who}", -players * pen.penalty))
    return items


def threes_sign(variant: Variant, canastas: int, unopened: bool) -> int:
    """Whether a side's laid 3s count plus (1), nothing (0) or minus (-1).

    Minus for a side that has not melded (``threes.red_minus_if_unopened``) or
    has completed fewer than ``red_canastas_needed`` canastas
    (``red_minus_without_canasta``), unless it has at least
    ``red_neutral_canastas``: then nothing.
    """
    th = variant.threes
    if th.red_minus_if_unopened and unopened:
        return -1
    if th.red_minus_without_canasta and canastas < th.red_canastas_needed:
        neutral = th.red_neutral_canastas
        return 0 if neutral is not None and canastas >= neutral else -1
    return 1


def black_three_item(variant: Variant, count: int) -> tuple[int, str]:
    """What ``count`` black 3s laid by one side score, and the item's label: ``(points, label)``.

    ``threes.black_table`` gives the points in all by count; a count past its
    end, or an empty table, scores ``red_bonus`` each.
    """
    th = variant.threes
    label = f"{count} black 3{'s' if count > 1 else ''}"
    if count <= len(th.black_table):
        return th.black_table[count - 1], label
    return count * th.red_bonus, label


def red_three_item(variant: Variant, count: int, in_deck: int) -> tuple[int, str]:
    """What ``count`` red 3s laid by one side score, and the item's label: ``(points, label)``.

    ``threes.red_table`` gives the points in all by count where it is set (a
    count past its end scores ``red_bonus`` each); otherwise ``red_bonus`` each,
    or ``red_all_bonus`` when the side laid every red 3 of the ``in_deck``.
    """
    th = variant.threes
    label = f"{count} red 3{'s' if count > 1 else ''}"
    if th.red_table:
        if count <= len(th.red_table):
            return th.red_table[count - 1], label
        return count * th.red_bonus, label
    if th.red_all_bonus is not None and count == in_deck:
        return th.red_all_bonus, f"all {count} red 3s"
    return count * th.red_bonus, label


def totals(breakdowns: Iterable[ScoreBreakdown]) -> tuple[int, ...]:
    """The totals of several breakdowns."""
    return tuple(b.total for b in breakdowns)
