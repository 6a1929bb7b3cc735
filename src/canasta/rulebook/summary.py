"""A one-paragraph description built from the rules, for a profile that writes none.

A house profile that changes its parent's rules does not inherit the parent's
description (see ``docs/writing-variants.rst``); its rule book opens with
:func:`summary` instead, which states the main rules and so can never contradict
the rest of the book.
"""

from __future__ import annotations

from canasta.rulebook.going_out import kind_requirements
from canasta.rulebook.melds import a_an, sequence_may_hold_wild, sequence_name
from canasta.rulebook.words import cap, count, join, num
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant


def summary(v: Variant) -> str:
    """The main rules of ``v`` in one paragraph: players, cards, drawing, melds, going out, the end."""
    n = v.players.count
    if meanings(v).partnerships:
        who = f"{num(n)} players in {num(len(v.sides))} sides of two"
    else:
        who = f"{num(n)} players, each on their own"
    cards = v.deck.decks * (52 + v.deck.jokers_per_deck)
    parts = [f"A game for {who}, with {count(v.deck.decks, 'deck')} ({cards} cards)"]
    if meanings(v).has_foot:
        parts[0] += f", a hand of {num(v.deal.hand_size)} and a foot of {num(v.deal.foot_size)}"
    else:
        parts[0] += f" and {count(v.deal.hand_size, 'card')} each"
    draw = f"draw {count(v.draw.count, 'card')} a turn"
    if meanings(v).pile_takeable:
        draw += " or take the discard pile"
    parts.append(draw)
    most = v.melds.max_wilds
    wilds = "no wild card" if most == 0 else f"at most {count(most, 'wild card')}"
    melds = f"meld cards of one rank with {wilds}"
    if v.melds.wild_melds:
        melds += ", or wild cards alone"
    sq = v.sequences
    if sq.allowed:
        # the sequences are a second kind of meld: a summary that left them out would mislead
        melds += (
            f", and sequences of {num(sq.min_size)} or more natural cards of one suit from {sq.low} "
            f"to {sq.high} ({num(sq.canasta_size)} make {a_an(sequence_name(v))})"
        )
        if sequence_may_hold_wild(v):
            melds += ", a sequence holding at most one wild card, between two of its natural cards"
    parts.append(melds)
    total, kinds = kind_requirements(v)
    whose = "their side has" if meanings(v).partnerships else "they have"
    if total == 0:
        parts.append("a player may go out without a canasta")
    else:
        need = count(total, "canasta")
        if kinds:
            # the kinds counted as canastas: "one escalera" is one of the canastas needed
            o = v.going_out
            listed = o.natural_canastas + o.mixed_canastas + o.wild_canastas + o.sequence_canastas == total
            need = join(kinds) if listed else f"{need}, among them {join(kinds)}"
        parts.append(f"a player may go out once {whose} {need}")
    g = v.game
    if g.target is not None:
        parts.append(f"the game ends when a side reaches {g.target} points")
    elif g.rounds:
        parts.append(f"the game lasts {count(g.rounds, 'hand')}")
    return cap(parts[0]) + ": " + "; ".join(parts[1:]) + "."
