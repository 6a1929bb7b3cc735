"""Static check of the profile's own words: a description that disagrees with its rules.

C037: the ``description`` says a number the rules contradict ("go out once the
side has a canasta" when two are needed, "draw one card" when two are drawn).
The heuristic is deliberately small: it reads a handful of phrases with a
number in them and compares each with the option it speaks of; a description
that says nothing of these is never flagged. Importing the module registers
C037 in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from canasta.check.registry import Facts, Raw, static_check
from canasta.variant.model import Variant

__all__ = ["description_claims"]

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
}
_N = r"(?P<n>\d+|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + r")"
# a number without the articles: "a player" names one of the players, not how many play
_N_COUNT = r"(?P<n>\d+|" + "|".join(sorted(set(_NUMBERS) - {"a", "an"}, key=len, reverse=True)) + r")"


def _canastas(v: Variant) -> int:
    g = v.going_out
    return max(
        g.canastas, g.natural_canastas + g.mixed_canastas + g.wild_canastas + g.sequence_canastas
    )


#: (phrase, the option it speaks of, what the rules say, the words for it).
_CLAIMS: tuple[tuple[re.Pattern[str], str, Callable[[Variant], int], str], ...] = (
    (re.compile(rf"\bgo(?:es|ing)? out\b[^.;]*?\b{_N} canastas?\b", re.I),
     "going_out.canastas", _canastas, "the canastas needed to go out"),
    (re.compile(rf"\b{_N} canastas? to go out\b", re.I), "going_out.canastas", _canastas,
     "the canastas needed to go out"),
    (re.compile(rf"\bdraws? {_N}\b(?! wild)", re.I), "draw.count", lambda v: v.draw.count, "the cards drawn a turn"),
    (re.compile(rf"\b{_N_COUNT}[- ]players?\b", re.I), "players.count", lambda v: v.players.count, "the number of players"),
    (re.compile(rf"\b{_N} cards each\b", re.I), "deal.hand_size", lambda v: v.deal.hand_size,
     "the cards dealt to each player"),
    (re.compile(rf"\bat most {_N} wild cards?\b", re.I), "melds.max_wilds", lambda v: v.melds.max_wilds,
     "the wild cards a meld may hold"),
)


def _value(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


def description_claims(v: Variant) -> list[tuple[str, str, int, int]]:
    """The numbers the description states that the rules contradict.

    Returns:
        ``(option path, what it counts, the description's number, the rule's)``
        for each disagreeing phrase, in the order of :data:`_CLAIMS`.
    """
    out = []
    for pattern, path, actual, what in _CLAIMS:
        for m in pattern.finditer(v.description):
            said, rule = _value(m["n"]), actual(v)
            if said != rule:
                out.append((path, what, said, rule))
                break
    return out


@static_check(
    "C037", "warning", "a description that disagrees with the rules",
    """
    extends: classic
    description: Draw one card, and go out once the side has a canasta.
    going_out:
      canastas: 2
    """,
)
def _description_disagrees(f: Facts) -> Iterator[Raw]:
    """The written ``description`` states a number the rules contradict.

    The rule book prints the description first, so a reader meets two rules.
    The check reads a few phrases only: the canastas needed to go out ("go out
    with two canastas", "a canasta to go out"), the cards drawn ("draw two"),
    the players ("four-player", "three players"), the cards dealt ("thirteen
    cards each") and the wild cards in a meld ("at most three wild cards").
    A profile that changes its parent's rules does not inherit the parent's
    description, so this is about a description the profile writes itself.
    """
    for path, what, said, rule in description_claims(f.v):
        yield (
            ("description", path),
            f"the description gives {said} for {what}, but {path} is {rule}",
            "correct the description, or remove it: the rule book then describes the rules itself",
        )
