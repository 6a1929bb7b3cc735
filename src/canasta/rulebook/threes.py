"""Sentences of red and black 3s: laying red 3s out, their bonus, melding black 3s."""

from __future__ import annotations

# The sentence modules import the one before them first, so the registry holds their
# rules in rule-book order whichever module is imported first (see registry).
import canasta.rulebook.pile  # noqa: F401
from canasta.rulebook.facts import red_table_steps
from canasta.rulebook.registry import S_THREES, rule
from canasta.rulebook.words import cap, count, join, num, points, pts
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant

# -- red and black 3s


def _say_red_laid(v: Variant) -> str:
    if not v.threes.red_laid_at_once:
        return (
            "Red 3s are not laid out: a red 3 stays in its player's hand until the hand ends."
        )
    foot = " (or find one in your foot)" if meanings(v).has_foot else ""
    text = (
        f"When you are dealt or draw a red 3{foot}, lay it face up at once and draw "
        "a replacement, as often as needed."
    )
    if v.deal.upcard:
        text += " A red 3 found in a pile you take is laid too, without a replacement."
    return text


rule("threes.red_laid_at_once", S_THREES, _say_red_laid)


def _say_red_last_card(v: Variant) -> str:
    # a red 3 of a foot picked up once the stock is gone goes unreplaced too
    foot = " (or found in your foot once the stock is gone)" if meanings(v).has_foot else ""
    if v.threes.red_last_card == "play_on":
        short = "no card" if v.going_out.out_but_not_out else "a single card"
        return (
            f"A red 3 drawn as the last card of the stock{foot} is laid without a replacement, and you "
            f"play on, melding and discarding as usual. If that leaves you {short} in hand, you "
            "cannot play on, and the hand ends at once."
        )
    if foot:
        return (
            "If the last card of the stock is a red 3, or your foot holds one once the stock is "
            "gone, lay it: the hand ends at once, before you meld or discard."
        )
    return "If the last stock card is a red 3, lay it: the hand ends at once, before you meld or discard."


rule("threes.red_last_card", S_THREES, _say_red_last_card, relevant=lambda v: v.threes.red_laid_at_once)


def _say_red_table(v: Variant) -> str:
    t = v.threes
    k, rest = red_table_steps(v)
    parts = [
        f"{num(n)} score {points(p)} in all" if i == 0 else f"{num(n)} {points(p)}"
        for i, (n, p) in enumerate(rest)
    ]
    if k:
        head = f"Up to {num(k)} red 3s laid score {points(t.red_table[0])} each for their side"
        text = head + ("; " + join(parts) if parts else "")
    else:
        text = "A side's red 3s laid score, in all: " + join(
            [f"{count(n, 'red 3')} {points(p)}" for n, p in rest]
        )
    if len(t.red_table) < meanings(v).red_threes:
        text += f"; any more score {points(t.red_bonus)} each"
    return text + "."


def _say_red_bonus(v: Variant) -> str:
    t = v.threes
    if t.red_table:
        return _say_red_table(v)
    text = f"Each red 3 scores {points(t.red_bonus)}"
    if t.red_all_bonus is not None:
        text += f"; all {num(meanings(v).red_threes)} score {points(t.red_all_bonus)}"
    else:
        text += ", with no special bonus for laying all of them"
    return text + "."


def _bonus_counts(v: Variant) -> bool:
    """Whether red_bonus scores: no table, or one shorter than the red 3s in the decks."""
    return len(v.threes.red_table) < meanings(v).red_threes


rule(
    "threes.red_bonus", S_THREES, _say_red_bonus, relevant=_bonus_counts,
    instead=lambda v, o: f"Each red 3 scores {points(v.threes.red_bonus)} instead of {pts(o.threes.red_bonus)}.",
)
rule("threes.red_table", S_THREES, _say_red_bonus, relevant=lambda v: bool(v.threes.red_table))
rule(
    "threes.red_all_bonus", S_THREES, _say_red_bonus, relevant=lambda v: not v.threes.red_table,
    instead=lambda v, o: (
        _say_red_bonus(v) if v.threes.red_all_bonus is None or o.threes.red_all_bonus is None
        else f"All {num(meanings(v).red_threes)} red 3s score {points(v.threes.red_all_bonus)} instead of "
        f"{pts(o.threes.red_all_bonus)}."
    ),
)


def _neutral_band(v: Variant) -> int | None:
    """The fewest canastas with which a side's 3s score nothing (``threes.red_neutral_canastas``), where such a band exists."""
    t = v.threes
    low = t.red_neutral_canastas
    if not t.red_minus_without_canasta or low is None or low >= t.red_canastas_needed:
        return None
    return low


def _say_red_minus(v: Variant) -> str:
    t = v.threes
    threes = "3s" if t.black_laid_at_once else "red 3s"
    need = t.red_canastas_needed
    low = _neutral_band(v)
    conds = []
    if t.red_minus_if_unopened:
        conds.append("has not melded")
    if t.red_minus_without_canasta:
        short = low if low is not None else need
        conds.append(
            "has completed no canasta" if short <= 1 else f"has completed fewer than {count(short, 'canasta')}"
        )
    if not conds:
        return f"{cap(threes)} always count for their side, whether or not it has melded."
    text = f"If a side {join(conds, 'or')} when the hand ends, its {threes} count against it"
    if low is not None:
        band = count(low, "canasta") if need == low + 1 else f"from {count(low, 'canasta')} to {num(need - 1)}"
        text += f"; with {band} they score nothing, and only with {count(need, 'canasta')} or more do they count for it"
    return text + "."


rule(
    "threes.red_minus_if_unopened threes.red_minus_without_canasta", S_THREES, _say_red_minus,
    shown=lambda v: v.threes.red_minus_if_unopened or v.threes.red_minus_without_canasta,
)
rule(
    "threes.red_canastas_needed", S_THREES, _say_red_minus,
    relevant=lambda v: v.threes.red_minus_without_canasta,
)
rule(
    "threes.red_neutral_canastas", S_THREES, _say_red_minus,
    relevant=lambda v: v.threes.red_minus_without_canasta,
    shown=lambda v: _neutral_band(v) is not None,
)


def _say_black_laid(v: Variant) -> str:
    if not v.threes.black_laid_at_once:
        return "Black 3s are not laid out: a black 3 stays in its player's hand until it is melded or discarded."
    foot = " (or finds one in their foot)" if meanings(v).has_foot else ""
    text = (
        f"Black 3s are laid out like red 3s: a player who is dealt or draws a black 3{foot} lays it face up "
        "on the table at once and draws a replacement from the stock. A black 3 is never melded "
        + ("or discarded" if v.threes.keep_one else "or discarded, nor kept in hand")
    )
    if v.deal.upcard:
        text += "; one found in a discard pile a player takes is laid without replacement"
    return text + "."


rule(
    "threes.black_laid_at_once", S_THREES, _say_black_laid,
    shown=lambda v: v.threes.black_laid_at_once,
)


def _kept_name(v: Variant) -> str:
    """The 3s a player may keep (``threes.keep_one``): those laid out at once."""
    t = v.threes
    if t.red_laid_at_once and t.black_laid_at_once:
        return "3"
    return "red 3" if t.red_laid_at_once else "black 3"


def _say_keep_one(v: Variant) -> str:
    t = v.threes
    if not t.keep_one:
        return f"Every {_kept_name(v)} is laid out at once: none is kept in hand."
    three = _kept_name(v)
    needing = [h.label for h in v.special.hands if "3" in h.ranks]
    purpose = f", for the {join(needing)}" if needing else ""
    return (
        f"Keeping a {three}{purpose}: a player whose side has not melded keeps the first {three} "
        f"they are dealt or draw while they hold none, instead of laying it out. They lay it out, "
        "and draw its replacement, in one of their turns, before or after drawing. While they keep it "
        "they may not take the discard pile, meld, ask their partner or go out, and they never "
        "discard it; once their side has melded, laying it out is the first thing they do in their "
        f"turn. A {three} still kept when the hand ends counts as one left in hand."
    )


rule(
    "threes.keep_one", S_THREES, _say_keep_one,
    relevant=lambda v: v.threes.red_laid_at_once or v.threes.black_laid_at_once,
    shown=lambda v: v.threes.keep_one,
)


def _say_black_table(v: Variant) -> str:
    t = v.threes
    parts = [f"{count(n + 1, 'black 3')} {points(p)}" for n, p in enumerate(t.black_table)]
    text = "A side's black 3s laid score apart from its red 3s, in all: " + join(parts)
    if len(t.black_table) < meanings(v).red_threes:
        text += f"; any more score {points(t.red_bonus)} each"
    return text + ". They count for or against the side as its red 3s do."


def _say_black_bonus(v: Variant) -> str:
    if v.threes.black_table:
        return _say_black_table(v)
    return (
        f"Each black 3 laid scores {points(v.threes.red_bonus)} for its side, like a red 3, "
        "and counts for or against it as the red 3s do."
    )


rule(
    "threes.black_table", S_THREES, _say_black_bonus,
    relevant=lambda v: v.threes.black_laid_at_once,
)


def red_can_be_held(v: Variant) -> bool:
    """Whether a red 3 can still be held when the hand ends: in a foot, or when red 3s are not laid out."""
    return meanings(v).has_foot or not v.threes.red_laid_at_once


def _say_red_held(v: Variant) -> str:
    where = "a player's hand or unplayed foot" if meanings(v).has_foot else "a player's hand"
    return (
        f"A red 3 still in {where} when the hand ends costs their side "
        f"{points(v.threes.red_held_penalty)}."
    )


rule(
    "threes.red_held_penalty", S_THREES, _say_red_held, relevant=red_can_be_held,
    instead=lambda v, o: (
        f"A red 3 still held when the hand ends costs {points(v.threes.red_held_penalty)} instead of "
        f"{pts(o.threes.red_held_penalty)}."
    ),
)


def _say_black_meld(v: Variant) -> str:
    t = v.threes
    if t.black_meld == "never":
        return "Black 3s can never be melded."
    low = t.black_meld_min
    top = t.black_meld_max
    if top is None:
        size = f"at least {num(low)}"
    elif top < low:
        return "Black 3s can never be melded (no meld of black 3s is large enough and small enough)."
    elif top == low:
        size = num(low)
    elif top == low + 1:
        size = f"{num(low)} or {num(top)}"
    else:
        size = f"{num(low)} to {num(top)}"
    wilds = "with or without wild cards" if t.black_meld_wilds else "with no wild card"
    # said only where the meld's size leaves it open
    never = "" if top is not None and top < v.canastas.size else " Such a meld is never a canasta."
    if t.black_meld == "going_out_only":
        return f"You may meld black 3s only in the turn you go out: {size}, {wilds}.{never}"
    return f"Black 3s may be melded at any time, {size} of them, {wilds}.{never}"


rule("threes.black_meld", S_THREES, _say_black_meld)
rule(
    "threes.black_meld_min threes.black_meld_max threes.black_meld_wilds", S_THREES,
    _say_black_meld, relevant=lambda v: v.threes.black_meld != "never",
)


def say_black_discard(v: Variant) -> str:
    """Black 3s as discards, and their value left in a hand: the last sentence of the 3s section."""
    return (
        "A black 3 left in "
        f"your {'hand or foot' if meanings(v).has_foot else 'hand'} when the hand ends costs your side "
        f"{points(v.values.black_three)}."
    )


def _black_held_where(v: Variant) -> str:
    return "a hand or an unplayed foot" if meanings(v).has_foot else "a hand"


def say_black_held(v: Variant) -> str:
    """Black 3s as discards, and the penalty for one left in a hand (``threes.black_held_penalty``):
    the last sentence of the 3s section when that penalty is set."""
    return (
        "A black 3 left in "
        f"{_black_held_where(v)} when the hand ends costs {points(v.threes.black_held_penalty or 0)}, "
        "counted instead of its value."
    )


def _say_black_held_penalty(v: Variant) -> str:
    penalty = v.threes.black_held_penalty
    where = _black_held_where(v)
    if penalty is None:
        if not v.scoring.hand_minus:
            return f"A black 3 left in {where} when the hand ends costs nothing, like any other card."
        return (
            f"A black 3 left in {where} when the hand ends costs its side its value, "
            "like any other card."
        )
    return f"A black 3 left in {where} when the hand ends costs {points(penalty)}, counted instead of its value."


# The 3s section states it through say_black_held (shown=False keeps it from being said twice).
rule(
    "threes.black_held_penalty", S_THREES, _say_black_held_penalty,
    relevant=lambda v: "3" not in v.wilds.ranks, shown=lambda v: False,
)
