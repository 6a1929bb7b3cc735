"""Static checks of special hands (``special.hands``): C062, a special hand no deck can form.

Importing the module registers C062 in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.check.registry import Facts, Raw, static_check
from canasta.engine.special import unformable


@static_check(
    "C062", "warning", "a special hand no deck can form",
    """
    extends: classic
    special:
      hands:
        - {name: pairs, title: Pairs, groups: [2, 2, 2, 2, 2, 2, 2], value: 2500}
    """,
)
def _unformable(f: Facts) -> Iterator[Raw]:
    """A special hand that no hand of the variant can ever hold when it may be laid.

    A special hand is laid right after the draw, so it must have exactly
    ``deal.hand_size + draw.count`` cards (Modern American: 13 + 1); its groups
    need cards the decks hold (no more of one rank than the decks have, wild
    groups no larger than the wild cards of one rank where they must match);
    and a rank it requires must stay in a hand: a 3 never does where every 3 is
    laid out at once (Modern American's Straight, unless one 3 may be kept).
    Such a hand is in the profile but can never be laid. Two special hands of one name
    are refused when the profile loads (C000).
    """
    for i, hand in enumerate(f.v.special.hands):
        why = unformable(f.r, hand)
        if why is None:
            continue
        if why.startswith("its groups"):
            fix = (
                "give the hand groups of as many cards as a hand holds after the draw "
                "(deal.hand_size + draw.count), or change deal.hand_size"
            )
        elif why.startswith("it needs a 3"):
            fix = (
                "keep black 3s in the hand (threes.black_laid_at_once: false; red 3s: "
                "threes.red_laid_at_once), or remove the hand"
            )
        else:
            fix = "make its groups smaller, or use more decks (deck.decks)"
        yield (
            ("special.hands",),
            f"special hand {hand.label!r} (special.hands[{i}]) can never be laid: {why}",
            fix,
        )
