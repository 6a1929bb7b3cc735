"""Static checks of the deck, the deal, the stock, the draw and the players.

C001, C002, C016, C026, C027, C028, C063 and C072: whether the deal fits in the decks and
leaves a stock to draw from, and options about the foot, partnerships, jokers
and play after the stock that the deal makes idle. Importing the module registers
them in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.cards import JOKER
from canasta.check.registry import Facts, Raw, refused, static_check
from canasta.variant.meanings import meanings
from canasta.variant.model import FootRules

__all__: list[str] = []


@static_check(
    "C001", "error", "the deal needs more cards than the decks hold",
    """
    extends: classic
    deal:
      hand_size: 30
    """,
)
def _deal_too_big(f: Facts) -> Iterator[Raw]:
    """Every player's hand and foot, plus the upcard, must come out of the decks.

    The deal needs ``players × (hand_size + foot_size) + upcard`` cards and the
    decks hold ``52 × decks + jokers``.
    """
    yield from refused(f, "C001")


@static_check(
    "C002", "error", "the stock cannot serve one draw after the deal",
    """
    extends: classic
    deal:
      hand_size: 27
      upcard: false
    """,
)
def _stock_too_small(f: Facts) -> Iterator[Raw]:
    """After the deal the stock must hold at least one turn's draw.

    Otherwise the first player cannot draw as the rules say, and the hand is
    over before it starts.
    """
    yield from refused(f, "C002")


@static_check(
    "C016", "warning", "a foot rule without a foot",
    """
    extends: classic
    foot:
      trigger: empty_hand
    """,
)
def _foot_without_foot(f: Facts) -> Iterator[Raw]:
    """A foot option is set but no foot is dealt (``deal.foot_size: 0``)."""
    v = f.v
    if not meanings(v).has_foot and v.foot != FootRules():
        yield (
            ("foot.trigger", "deal.foot_size"),
            "no foot is dealt, so the rule for picking it up has no effect",
            "set deal.foot_size, or remove foot.trigger",
        )


@static_check(
    "C026", "warning", "partnerships that cannot be formed",
    """
    extends: classic
    players:
      count: 3
    """,
)
def _partnerships(f: Facts) -> Iterator[Raw]:
    """Partnerships need an even number of players, at least 4; otherwise each plays alone."""
    p = f.v.players
    if p.partnerships and (p.count % 2 == 1 or p.count < 4):
        yield (
            ("players.partnerships", "players.count"),
            f"{p.count} players cannot sit in two partnerships, so each plays alone",
            "set players.partnerships: false",
        )


@static_check(
    "C027", "warning", "jokers that are not wild",
    """
    extends: classic
    wilds:
      ranks: ['2']
    """,
)
def _jokers_not_wild(f: Facts) -> Iterator[Raw]:
    """Jokers are in the decks but not wild; a joker can then never be melded, only discarded."""
    if f.jokers > 0 and JOKER not in f.r.wild:
        yield (
            ("wilds.ranks", "deck.jokers_per_deck"),
            f"the decks hold {f.jokers} jokers but jokers are not wild, so they can never be "
            "melded and only count against the hand",
            "add JK to wilds.ranks, or set deck.jokers_per_deck: 0",
        )


_MUST_TAKE_DEFAULT = "lay_off"


@static_check(
    "C028", "warning", "a rule for play after the stock that never applies",
    """
    extends: classic
    draw:
      short_stock: end_hand
    pile:
      must_take_when_stock_empty: any
    """,
)
def _short_stock_idle(f: Facts) -> Iterator[Raw]:
    """``pile.must_take_when_stock_empty`` is idle where the hand ends with the stock."""
    if f.v.draw.short_stock == "end_hand" and f.v.pile.must_take_when_stock_empty != _MUST_TAKE_DEFAULT:
        yield (
            ("draw.short_stock", "pile.must_take_when_stock_empty"),
            "the hand ends as soon as the stock cannot serve a draw, so nobody plays on through "
            "the discard pile and pile.must_take_when_stock_empty has no effect",
            "remove pile.must_take_when_stock_empty, or set draw.short_stock: draw_remaining",
        )


@static_check(
    "C063", "warning", "talons that can never be given",
    """
    extends: classic
    opening:
      talons: [4, 3]
      talon_turn_card: 100
    """,
)
def _talons_never_given(f: Facts) -> Iterator[Raw]:
    """``opening.talons`` is set, but no talon can reach a hand: every talon is of 0 cards,
    or the stock after the deal already holds fewer cards than ``opening.talon_turn_card``
    (the turn card is gone before anyone opens)."""
    o = f.v.opening
    if not o.talons or f.stock < 0:
        return
    if not any(o.talons):
        yield (
            ("opening.talons",),
            "every talon holds 0 cards, so no player ever gets one",
            "give the talons their sizes (Modern American: [4, 3]) or remove opening.talons",
        )
        return
    turn = o.talon_turn_card
    if turn is not None and f.stock < turn:
        yield (
            ("opening.talon_turn_card", "opening.talons"),
            f"no talon is given once the stock holds fewer than {turn} cards, but after the deal "
            f"it holds {f.stock}, so no talon is ever given",
            f"lower opening.talon_turn_card below {f.stock} (Modern American: 9), or remove it",
        )


@static_check(
    "C072", "warning", "an upcard to bury that is never covered",
    """
    extends: classic
    deal:
      upcard_covered_if: []
      upcard_buried: true
    """,
)
def _buried_idle(f: Facts) -> Iterator[Raw]:
    """``deal.upcard_buried`` without an upcard, or with no class of upcard covered."""
    d = f.v.deal
    if d.upcard_buried and not (d.upcard and d.upcard_covered_if):
        why = "there is no upcard" if not d.upcard else "no upcard is covered (deal.upcard_covered_if is empty)"
        yield (
            ("deal.upcard_buried", "deal.upcard_covered_if"),
            f"{why}, so deal.upcard_buried has no effect",
            "remove deal.upcard_buried",
        )
