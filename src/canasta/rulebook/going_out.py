"""Sentences of the foot, going out and the end of the stock."""

from __future__ import annotations

# The sentence modules import the one before them first, so the registry holds their
# rules in rule-book order whichever module is imported first (see registry).
import canasta.rulebook.threes  # noqa: F401
from canasta.rulebook.melds import a_an, sequence_canasta_possible, sequence_name
from canasta.rulebook.registry import S_FOOT, S_OUT, S_STOCK, rule
from canasta.rulebook.words import count, join, num, points, pts, rank_plural
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant

_KIND_NAMES = {"natural": "natural (clean)", "mixed": "mixed (dirty)", "wild": "wild"}


# -- the foot


def _say_foot_trigger(v: Variant) -> str:
    if v.foot.trigger == "empty_hand":
        return (
            "A player who has played every card of their hand picks up their foot and plays on "
            "from it; red 3s in it are laid at once. The foot's cards do not help a side that "
            "has not opened: a player may not meld the last card of their hand before the "
            "side's opening is met."
        )
    once = (
        "Once your side has completed its first canasta, each of you"
        if meanings(v).partnerships else "Once you have completed your first canasta, you"
    )
    return (
        f"{once} may pick up your foot in your turn, in the middle of play, and add it to "
        "your hand. The player who completed the canasta may do so at once and play on."
    )


rule("foot.trigger", S_FOOT, _say_foot_trigger, relevant=lambda v: meanings(v).has_foot)


def _say_walk(v: Variant) -> str:
    if not v.foot.walk:
        return "A player may not discard their last hand card to reach the foot."
    return (
        "A player may also reach the foot by discarding the last card of their hand without "
        "going out (\u201cwalking\u201d to the foot): at the start of their next turn they pick up "
        "the foot, before drawing."
    )


rule("foot.walk", S_FOOT, _say_walk, relevant=lambda v: meanings(v).has_foot, shown=lambda v: meanings(v).has_foot and v.foot.walk)


def _say_foot_first(v: Variant) -> str:
    if v.going_out.foot_first:
        return "A player may not go out before picking up their foot."
    text = "A player may go out without having picked up their foot; its cards then count against their side."
    g = v.going_out
    if meanings(v).partnerships and g.ask_partner and not g.ask_advice:
        # the engine's reading (melding._hand_emptied): the foot's cards are hidden, so a yes
        # binds the player to go out with the cards held
        text += (
            " After their partner's yes, a player goes out with the cards they hold: melding the "
            "last of them goes out with the foot still down, which they may no longer pick up "
            "that turn."
        )
    return text


# -- going out


def kind_requirements(v: Variant) -> tuple[int, list[str]]:
    """(canastas needed to go out, the kinds required in words, e.g. ``["one natural (clean) canasta"]``)."""
    g = v.going_out
    kinds = [
        f"{count(n, _KIND_NAMES[k] + ' canasta')}"
        for k, n in (("natural", g.natural_canastas), ("mixed", g.mixed_canastas), ("wild", g.wild_canastas))
        if n
    ]
    if g.sequence_canastas:
        kinds.append(count(g.sequence_canastas, sequence_name(v)))
    total = max(g.canastas, g.natural_canastas + g.mixed_canastas + g.wild_canastas + g.sequence_canastas)
    return total, kinds


def _say_canastas_needed(v: Variant) -> str:
    g = v.going_out
    total, kinds = kind_requirements(v)
    if total == 0:
        text = "You may go out without any canasta."
    else:
        need = join(kinds)
        if not kinds:
            need = "a canasta" if total == 1 else f"at least {count(total, 'canasta')}"
        elif total > g.natural_canastas + g.mixed_canastas + g.wild_canastas + g.sequence_canastas:
            need = f"at least {count(total, 'canasta')}, among them at least {need}"
        else:
            need = f"at least {need}"
        it = "one" if total == 1 else "ones"
        whose = "your side has" if meanings(v).partnerships else "you have"
        text = f"You may go out only when {whose} {need}, even {it} completed that turn."
    if g.wild_canastas and not v.melds.wild_melds:
        text += " Since melds of wild cards only are not allowed, no one can ever go out."
    if total and v.melds.max_size is not None and v.melds.max_size < v.canastas.size:
        text += " Since no meld can become a canasta, no one can ever go out."
    if g.sequence_canastas and not sequence_canasta_possible(v):
        text += f" Since no sequence can become {a_an(sequence_name(v))}, no one can ever go out."
    return text


rule(
    "going_out.canastas going_out.natural_canastas going_out.mixed_canastas going_out.wild_canastas",
    S_OUT, _say_canastas_needed,
)
rule("going_out.sequence_canastas", S_OUT, _say_canastas_needed)


def _say_final_discard(v: Variant) -> str:
    if v.going_out.final_discard == "required":
        return "You go out by discarding your last card; you may not go out by melding every card without a discard."
    return (
        "Go out by melding every card in your hand, or all but one and discarding the last. "
        "The hand ends at once."
    )


rule("going_out.final_discard", S_OUT, _say_final_discard)


def _say_out_not_out(v: Variant) -> str:
    if v.going_out.out_but_not_out:
        return (
            "A player may also discard their last card without going out: they say \u201cout, "
            "but not out\u201d and play on with no cards in hand, and the hand goes on."
        )
    if meanings(v).has_foot and v.foot.walk:
        return (
            "Once a player has picked up their foot, discarding their last card always goes "
            "out: a player who may not go out must keep at least one card in hand."
        )
    return "Until you may go out, end each turn with a card in your hand."


# Without "out, but not out" or a foot to walk to, a hand is emptied only by going out, which
# the sentences before say when you may do: the book does not say it a second time.
rule(
    "going_out.out_but_not_out", S_OUT, _say_out_not_out,
    shown=lambda v: v.going_out.out_but_not_out or (meanings(v).has_foot and v.foot.walk),
)


def _say_ask(v: Variant) -> str:
    if not v.going_out.ask_partner:
        return "A player decides alone whether to go out; they may not ask their partner."
    once = (
        " Each player may ask only once in a hand, whatever the answer."
        if v.going_out.ask_once else ""
    )
    if v.going_out.ask_advice:
        return (
            "A player who holds one card and could go out may first ask the advice of their side. "
            "The partners talk it over aloud, so that the whole table hears, without hinting at "
            "anyone's cards, and the player decides: the advice binds nothing." + once
        )
    when = (
        "at any time in their turn, even after laying cards,"
        if v.going_out.ask_after_laying else "before laying any card that turn"
    )
    if v.going_out.ask_required:
        return (
            f"A player may go out only with their partner's permission: {when} they ask "
            "\u201cPartner, may I go out?\u201d, and the partner answers only yes "
            "or no. After a yes the player must go out that turn; after a no, or without asking, "
            "they may not." + once
        )
    # going_out.ask_after_laying: until going out, or only before the first card laid
    start = (
        "Before going out, even after laying cards,"
        if v.going_out.ask_after_laying else "Before going out, and before you lay any card that turn,"
    )
    return (
        f"{start} you may ask \u201cPartner, may "
        "I go out?\u201d Your partner answers only yes or no, binding you for that turn." + once
    )


rule("going_out.ask_partner", S_OUT, _say_ask, relevant=lambda v: meanings(v).partnerships)
rule(
    "going_out.ask_required going_out.ask_once going_out.ask_advice going_out.ask_after_laying",
    S_OUT, _say_ask,
    relevant=lambda v: meanings(v).partnerships and v.going_out.ask_partner,
)
rule("going_out.foot_first", S_FOOT, _say_foot_first, relevant=lambda v: meanings(v).has_foot)


def _say_partner_foot(v: Variant) -> str:
    if v.going_out.partner_foot:
        # no "Nor may ...": in a list of differences the sentence stands alone
        return (
            "A player may not go out before their partner has picked up their foot and played "
            "part of a turn from it."
        )
    return "A player may go out whether or not their partner has picked up their foot."


rule(
    "going_out.partner_foot", S_FOOT, _say_partner_foot,
    relevant=lambda v: meanings(v).has_foot and meanings(v).partnerships,
    shown=lambda v: meanings(v).has_foot and meanings(v).partnerships and v.going_out.partner_foot,
)


def _say_complete_first(v: Variant) -> str:
    g = v.going_out
    names = [rank_plural(rank) for rank in g.complete_ranks]
    if g.complete_wild_meld and v.melds.wild_melds:
        names.append("wild cards")
    if not names:
        return "A side may go out with melds that are not yet canastas."
    who = "their side's" if meanings(v).partnerships else "their"
    return (
        f"No one may go out while {who} meld of {join(names, 'or')} is not yet a canasta: "
        "such a meld must be completed first."
    )


rule(
    "going_out.complete_ranks going_out.complete_wild_meld", S_OUT, _say_complete_first,
    shown=lambda v: bool(v.going_out.complete_ranks) or (v.going_out.complete_wild_meld and v.melds.wild_melds),
)


def say_concealed(v: Variant) -> str:
    """Going out concealed and its bonus: the sentence of ``going_out.concealed`` and ``scoring.concealed_bonus``."""
    if not v.going_out.concealed:
        return "There is no separate bonus for going out concealed."
    return (
        "To go out concealed, meld your whole hand in one turn, without having melded before or "
        f"taken the pile. It scores {points(v.scoring.concealed_bonus)} instead of "
        f"{pts(v.scoring.going_out_bonus)}."
    )


rule("going_out.concealed", S_OUT, say_concealed)


def _say_black_out(v: Variant) -> str:
    t = v.threes
    n = t.black_out_cards
    if n is None:
        return "Black 3s left in the hand of the player who goes out cost their value like any other card."
    your = "your side scores" if meanings(v).partnerships else "you score"
    return (
        f"If you may go out, you may also go out holding nothing but {count(n, 'black 3')} and "
        "one card to discard, which may be another black 3. Those black 3s then cost nothing, "
        f"and {your} {points(t.black_out_bonus)} for them."
    )


rule(
    "threes.black_out_cards", S_OUT, _say_black_out,
    shown=lambda v: v.threes.black_out_cards is not None,
)
rule(
    "threes.black_out_bonus", S_OUT, _say_black_out,
    relevant=lambda v: v.threes.black_out_cards is not None,
    instead=lambda v, o: (
        f"Going out with black 3s scores {points(v.threes.black_out_bonus)} instead of "
        f"{pts(o.threes.black_out_bonus)}."
    ),
)


# -- when the stock runs out


def _say_short_stock(v: Variant) -> str:
    n = v.draw.count
    if v.draw.short_stock == "end_hand":
        short = "the stock empty" if n == 1 else f"fewer than {num(n)} cards in the stock, or none"
        return (
            f"When a player due to draw {count(n, 'card')} finds {short}, the hand ends at once: "
            "that player does not play, and nobody plays on through the discard pile."
        )
    return f"A player due to draw {count(n, 'card')} who finds fewer in the stock draws what is left."


def _ends_with_stock(v: Variant) -> bool:
    """Whether the hand ends as soon as the stock cannot serve a draw (``draw.short_stock``)."""
    return v.draw.short_stock == "end_hand"


rule(
    "draw.short_stock", S_STOCK, _say_short_stock,
    relevant=lambda v: v.draw.count > 1 or _ends_with_stock(v),
)


def _say_must_take(v: Variant) -> str:
    must = v.pile.must_take_when_stock_empty
    start = "Once the stock is empty, play goes on only through the discard pile. "
    end = " The hand ends when a player cannot draw and does not take the pile."
    if not meanings(v).pile_takeable:
        return "The hand ends as soon as the stock is empty and a player cannot draw, with no one going out."
    if must == "any":
        duty = "You must take the pile whenever you can."
    elif must == "lay_off" and v.pile.take_lay_off:
        own = "your side's" if meanings(v).partnerships else "your own"
        duty = (
            f"If you can take it by adding its top card to {own} meld, you must. If you would need "
            "cards from your hand, you may decline."
        )
    else:
        duty = "You may take the pile or decline it."
    return start + duty + end


# play through the pile after the stock is gone: none where the hand ends with the stock
rule("pile.must_take_when_stock_empty", S_STOCK, _say_must_take, relevant=lambda v: not _ends_with_stock(v))
