"""Static checks of special hands (``special.hands``): C062, a special hand no deck can form;
C065, a 3 kept in hand (``threes.keep_one``) for no special hand.

Importing the module registers C062 and C065 in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from canasta.check.registry import Facts, Raw, static_check
from canasta.engine import compile_rules
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
                "threes.red_laid_at_once), let a player keep one (threes.keep_one: true), or remove the hand"
            )
        else:
            fix = "make its groups smaller, or use more decks (deck.decks)"
        yield (
            ("special.hands",),
            f"special hand {hand.label!r} (special.hands[{i}]) can never be laid: {why}",
            fix,
        )


@static_check(
    "C065", "warning", "a 3 kept in hand for no special hand",
    """
    extends: modern-american
    name: no-special
    special:
      hands: []
    """,
)
def _kept_for_nothing(f: Facts) -> Iterator[Raw]:
    """``threes.keep_one`` where no special hand needs the 3 it keeps.

    A player keeps a 3 only to lay a special hand that needs one (Modern
    American's Straight); while they keep it they may not take the pile, meld,
    ask or go out. Where no special hand of the variant can be formed with the
    kept 3 and not without it (or no 3 is laid out at once, so that nothing is
    kept), the option only stalls the player who keeps one, or does nothing.
    """
    v = f.v
    if not v.threes.keep_one:
        return
    if not (v.threes.red_laid_at_once or v.threes.black_laid_at_once):
        yield (
            ("threes.keep_one",),
            "threes.keep_one keeps one of the 3s laid out at once, and no 3 is laid out at once here: it does nothing",
            "set threes.keep_one: false",
        )
        return
    plain = compile_rules(attrs.evolve(v, threes=attrs.evolve(v.threes, keep_one=False)))
    needing = [h for h in v.special.hands if unformable(f.r, h) is None and unformable(plain, h) is not None]
    if not needing:
        yield (
            ("threes.keep_one", "special.hands"),
            "threes.keep_one lets a player keep a 3 in hand, and no special hand needs one "
            "(none is formed with a kept 3 and not without): keeping one only stops its player "
            "from melding, taking the pile and going out",
            "set threes.keep_one: false, or add the special hand it is kept for (the Straight)",
        )
