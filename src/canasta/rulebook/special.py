"""Rule-book sentences and the section of special hands (``special.hands``, Modern American).

The last sentence module: it imports :mod:`~canasta.rulebook.scoring` first, so
its rule comes last in the registry, and its section (after going out and the
end of the stock, before scoring) is built here, a table a player can read.
"""

from __future__ import annotations

import canasta.rulebook.scoring  # noqa: F401
from canasta.engine import compile_rules
from canasta.engine.special import unformable, wild_names
from canasta.rulebook.blocks import Block, Paragraph, Section, Table, Text
from canasta.rulebook.registry import S_SPECIAL, rule
from canasta.rulebook.words import pts
from canasta.variant.model import Variant

__all__ = ["special_section"]

_PATHS = " ".join(
    f"special.hands{x}" for x in (
        "", ".name", ".title", ".groups", ".wild_groups", ".wild_sizes", ".wilds_match", ".ranks",
        ".distinct", ".value", ".wins_game",
    )
)


def _has(v: Variant) -> bool:
    return bool(v.special.hands)


def _say_special(v: Variant) -> str:
    if not v.special.hands:
        return "There are no special hands."
    return (
        "A player whose side has not melded may, right after drawing and before laying anything "
        "else, lay every card of their hand at once as a special hand, with no discard. The hand "
        "ends at once. The player's side scores only the special hand's points: nothing else of "
        "the side counts, neither its 3s nor the cards its players hold, and it gets no bonus for "
        "going out. The other sides score as usual, without a going-out bonus."
    )


def _names(v: Variant) -> str:
    hands = v.special.hands
    if not hands:
        return "no special hands"
    return ", ".join(f"{h.label} ({pts(h.value)}{', wins the game' if h.wins_game else ''})" for h in hands)


def _special_instead(v: Variant, o: Variant) -> str:
    if not v.special.hands:
        return f"There are no special hands (not {_names(o)})."
    if not o.special.hands:
        return _say_special(v)
    return f"The special hands are {_names(v)} instead of {_names(o)}."


# relevant everywhere, stated only where there are hands: a profile that drops
# its parent's special hands (modern-american-2p) says so in its differences
rule(_PATHS, S_SPECIAL, _say_special, shown=_has, instead=_special_instead)


def special_section(v: Variant) -> Section:
    """The section of special hands: the rule, then a table of every hand (empty without any)."""
    hands = v.special.hands
    if not hands:
        return Section(S_SPECIAL, ())
    r = compile_rules(v)
    wilds = wild_names(r)
    paths = ("special.hands",)
    rows = []
    never = []
    for h in hands:
        why = unformable(r, h)
        if why is not None:
            never.append(f"{h.label} can never be laid in this variant: {why}.")
        rows.append((
            Text(h.label, paths),
            Text(f"{h.needs(wilds)} ({h.size} cards)", paths),
            Text(pts(h.value), paths),
            Text("yes" if h.wins_game else "no", paths),
        ))
    blocks: list[Block] = [
        Paragraph((Text(_say_special(v), paths),)),
        Table(("Special hand", "What it needs", "Points", "Wins the game"), tuple(rows)),
    ]
    if any(h.wins_game for h in hands):
        blocks.append(Paragraph((Text(
            "A hand that wins the game ends it at once: that side wins, whatever the scores.", paths
        ),)))
    if never:
        blocks.append(Paragraph(tuple(Text(x, paths) for x in never)))
    return Section(S_SPECIAL, tuple(blocks))
