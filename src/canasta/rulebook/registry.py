"""The rule registry: the sentence of each option, and the section titles.

Each sentence module declares the sentences of its rule area with :func:`rule` when
it is imported: :mod:`~canasta.rulebook.deal` (players and cards, the deal, a turn),
:mod:`~canasta.rulebook.melds` (melds and wild cards, sequences),
:mod:`~canasta.rulebook.opening` (the first meld), :mod:`~canasta.rulebook.canastas`,
:mod:`~canasta.rulebook.pile`, :mod:`~canasta.rulebook.threes`,
:mod:`~canasta.rulebook.going_out` (the foot, going out, the end of the stock) and
:mod:`~canasta.rulebook.scoring` (scoring, the end of the game) and
:mod:`~canasta.rulebook.special` (special hands), in this order. Each
of them imports the one before it first, so :data:`RULES` holds the rules in this
order whichever module is imported first: the book states the sentences of a section
in registry order, and the differences walk the registry in it. The package imports
them all (through :mod:`~canasta.rulebook.book`), so the registry is complete as
soon as :mod:`canasta.rulebook` is imported.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from canasta.variant.model import Variant


@attrs.frozen
class Rule:
    """The sentence of one option (or of several options stated together)."""

    section: str
    say: Callable[[Variant], str]
    relevant: Callable[[Variant], bool]
    shown: Callable[[Variant], bool]
    instead: Callable[[Variant, Variant], str] | None


#: The rule of each option path, in registry (rule-book) order; filled by :func:`rule`.
RULES: dict[str, Rule] = {}


def always(_v: Variant) -> bool:
    """Always true: the default ``relevant`` of a rule."""
    return True


def rule(
    paths: str,
    section: str,
    say: Callable[[Variant], str],
    *,
    relevant: Callable[[Variant], bool] = always,
    shown: Callable[[Variant], bool] | None = None,
    instead: Callable[[Variant, Variant], str] | None = None,
) -> None:
    """Register ``say`` as the sentence of each option in ``paths`` (space separated).

    ``relevant``: whether the option changes play in that variant (differences
    in an irrelevant option are not reported). ``shown``: whether the rule book
    states it (defaults to ``relevant``). ``instead``: the sentence of a
    difference, ``(variant, other) -> str``; defaults to ``say(variant)``.
    """
    for path in paths.split():
        if path in RULES:
            raise ValueError(f"option {path!r} has two sentences")
        RULES[path] = Rule(section, say, relevant, shown or relevant, instead)


# Section titles, in rule-book order.
S_PLAYERS = "Players and cards"
S_DEAL = "The deal"
S_TURN = "A turn"
S_MELDS = "Melds and wild cards"
S_OPENING = "The first meld"
S_CANASTAS = "Canastas"
S_PILE = "The discard pile"
S_THREES = "Red and black 3s"
S_FOOT = "The foot"
S_OUT = "Going out"
S_STOCK = "When the stock runs out"
S_SPECIAL = "Special hands"
S_SCORING = "Scoring"
S_GAME = "The end of the game"
_SECTIONS = (
    S_PLAYERS, S_DEAL, S_TURN, S_MELDS, S_OPENING, S_CANASTAS, S_PILE, S_THREES,
    S_FOOT, S_OUT, S_STOCK, S_SPECIAL, S_SCORING, S_GAME,
)


# --------------------------------------------------------------------------- coverage API

_SKIPPED = ("name", "title", "description", "source", "assumed", "customs")


def described_paths() -> tuple[str, ...]:
    """Every option path that has a sentence, in rule-book order.

    Returns:
        Dotted paths such as ``"draw.count"``; options of list items (the rows
        of the opening table, the rank bonuses) are named through their list,
        e.g. ``"opening.score_table.minimum"``.
    """
    return tuple(RULES)


def option_sentence(variant: Variant, path: str) -> str:
    """The rule stated by option ``path`` in ``variant``, as one or more plain sentences.

    Args:
        variant: the rules.
        path: a dotted option path, one of :func:`described_paths`.

    Returns:
        Plain text, e.g. ``"Draw two cards from the stock, or take the whole
        discard pile (see below)."`` for ``"draw.count"``.

    Raises:
        KeyError: ``path`` names no option.
    """
    return RULES[path].say(variant)
