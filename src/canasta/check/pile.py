"""Static checks of the discard pile: whether and how it can be taken, and its block.

C017, C018 and C019. Importing the module registers them in
:data:`~canasta.check.registry.CHECKS`. :func:`pile_taken_sometimes` is shared
with the playouts, which only look for pile events when the pile can be taken.
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.check.registry import Facts, Raw, static_check
from canasta.variant.meanings import meanings
from canasta.variant.model import PileRules

__all__ = ["pile_taken_sometimes"]


_PILE_DEFAULTS = PileRules()


@static_check(
    "C017", "warning", "the discard pile can never be taken",
    """
    extends: classic
    pile:
      stop_cards: [wild, black_three, natural]
    """,
)
def _pile_never_taken(f: Facts) -> Iterator[Raw]:
    """No card on top of the pile can ever be taken, so the pile only grows.

    ``natural`` among the stop cards blocks every card that could be taken;
    turning off every way to take the pile has the same effect. The pile
    rules (freezing, lay-off, stock-empty duty) then never apply.
    """
    p = f.v.pile
    if "natural" in p.stop_cards:
        yield (
            ("pile.stop_cards",),
            "natural cards are stop cards, and only a natural card can be taken, so the "
            "discard pile can never be taken",
            "remove 'natural' from pile.stop_cards",
        )
        return
    wild_way = p.take_natural_and_wild and f.wild_cards > 0
    if not (p.take_natural_pair or p.take_lay_off or wild_way):
        yield (
            ("pile.take_natural_pair", "pile.take_lay_off", "pile.take_natural_and_wild"),
            "every way of taking the discard pile is turned off, so it can never be taken",
            "allow at least pile.take_natural_pair",
        )


def pile_taken_sometimes(f: Facts) -> bool:
    """Whether the discard pile can be taken at all (the opposite of C017)."""
    return meanings(f.v).pile_takeable


@static_check(
    "C018", "warning", "a way of taking the pile that never applies",
    """
    extends: classic
    pile:
      take_lay_off: false
      lay_off_after_canasta: false
    """,
)
def _pile_way_idle(f: Facts) -> Iterator[Raw]:
    """An option about taking the pile cannot matter given the others.

    ``take_natural_and_wild`` needs wild cards in the decks;
    ``lay_off_after_canasta: false`` restricts ``take_lay_off`` and means
    nothing when lay-offs are off; ``one_card_bar`` bars a player holding one
    card, who could take the pile only by a lay-off or the top-card pickup of
    sequences, and means nothing without either.
    """
    if not pile_taken_sometimes(f):
        return
    p = f.v.pile
    if p.take_natural_and_wild and f.wild_cards == 0:
        yield (
            ("pile.take_natural_and_wild", "wilds.ranks"),
            "the decks hold no wild cards, so the pile is never taken with a natural and a "
            "wild card",
            "remove pile.take_natural_and_wild",
        )
    if not p.take_lay_off and p.lay_off_after_canasta != _PILE_DEFAULTS.lay_off_after_canasta:
        yield (
            ("pile.lay_off_after_canasta", "pile.take_lay_off"),
            "the pile is never taken by laying its top card off, so "
            "pile.lay_off_after_canasta has no effect",
            "remove pile.lay_off_after_canasta",
        )
    if p.one_card_bar and not meanings(f.v).one_card_pile_barred:
        yield (
            ("pile.one_card_bar", "pile.take_lay_off", "sequences.top_card_pickup"),
            "with a single card in hand the pile could be taken only by laying its top card off, "
            "which this variant does not allow, so pile.one_card_bar has no effect",
            "remove pile.one_card_bar",
        )


@static_check(
    "C019", "warning", "a pile block, or its exception, that never applies",
    """
    extends: classic
    pile:
      blocked_by_meld_size: 5
    """,
)
def _block_idle(f: Facts) -> Iterator[Raw]:
    """The Hand and Foot block on taking the pile, or its exception, cannot apply.

    ``blocked_exception`` means nothing without ``blocked_by_meld_size``; the
    block never applies when melds close before reaching it; and the
    exception (finish the blocking meld, start a new one) needs melds that
    close at canasta size (``melds.max_size`` equal to ``canastas.size``) and
    ``melds.duplicate_ranks: after_complete``.
    """
    if not pile_taken_sometimes(f):
        return
    p = f.v.pile
    m = f.v.melds
    block = p.blocked_by_meld_size
    if block is None:
        if p.blocked_exception != _PILE_DEFAULTS.blocked_exception:
            yield (
                ("pile.blocked_exception", "pile.blocked_by_meld_size"),
                "the pile is never blocked by a meld, so pile.blocked_exception has no effect",
                "remove pile.blocked_exception",
            )
        return
    if m.max_size is not None and block >= m.max_size:
        yield (
            ("pile.blocked_by_meld_size", "melds.max_size"),
            f"a meld closes at {m.max_size} cards, so no open meld ever has {block} cards "
            "and the pile is never blocked",
            f"set pile.blocked_by_meld_size below {m.max_size}",
        )
        return
    if p.blocked_exception:
        if m.duplicate_ranks == "any":
            why, path = (
                "with several melds of a rank (melds.duplicate_ranks: any) a pair always lays a new meld",
                "melds.duplicate_ranks",
            )
        elif m.duplicate_ranks != "after_complete":
            why, path = "a side may never start a second meld of a rank", "melds.duplicate_ranks"
        elif m.max_size is None or m.max_size > f.canasta_size:
            why, path = "finishing the canasta does not close the meld", "melds.max_size"
        else:
            return
        yield (
            ("pile.blocked_exception", path, "pile.blocked_by_meld_size"),
            f"the exception to the pile block never applies: {why}",
            "set melds.duplicate_ranks: after_complete and melds.max_size equal to "
            "canastas.size, or pile.blocked_exception: false",
        )
