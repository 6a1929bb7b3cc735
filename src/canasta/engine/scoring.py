"""Scoring a side's hand: an itemized :class:`ScoreBreakdown`."""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from canasta.engine.meld_kinds import kinds_of
from canasta.engine.moves import SEQUENCE
from canasta.variant.model import Variant

__all__ = ["ScoreBreakdown", "SideTable", "red_three_item", "score_table"]


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
    if sc.meld_points:
        melded = sum(sum(values) for _, values, _ in table.melds)
        if melded:
            items.append(("melded cards", melded))
    meld_kinds = kinds_of(variant)
    canastas = 0
    for rank, _values, kind in table.melds:
        if kind is None:
            continue
        canastas += 1
        items.append(meld_kinds[rank].bonus(rank, kind))
    th = variant.threes
    if table.red_threes:
        value, label = red_three_item(variant, table.red_threes, red_threes_in_deck)
        # melds on the table mean the side made its opening meld (a concealed
        # out may lay melds below the opening minimum)
        unopened = not table.opened and not table.melds
        minus = (th.red_minus_if_unopened and unopened) or (
            th.red_minus_without_canasta and canastas < th.red_canastas_needed
        )
        items.append((label + (" (minus)" if minus else ""), -value if minus else value))
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
    sq = variant.sequences
    if sq.short_penalty:
        short = sum(1 for rank, values, _ in table.melds if rank == SEQUENCE and len(values) < sq.short_size)
        if short:
            items.append((f"sequences under {sq.short_size} cards", -short * sq.short_penalty))
    return ScoreBreakdown(tuple(items))


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
