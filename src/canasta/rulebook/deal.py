"""Sentences of players and cards, the deal and a turn.

The first of the sentence modules: its rules open the registry.
"""

from __future__ import annotations

from canasta.rulebook.facts import wild_names
from canasta.rulebook.registry import S_DEAL, S_PLAYERS, S_TURN, rule
from canasta.rulebook.words import cap, count, join, num
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant

_CLASS_NAMES = {
    "wild": "a wild card",
    "red_three": "a red 3",
    "black_three": "a black 3",
    "natural": "a natural card",
}


# -- players and cards


def _say_players(v: Variant) -> str:
    n = v.players.count
    if meanings(v).partnerships:
        sides = len(v.sides)
        return f"{cap(num(n))} players play in {num(sides)} sides of two, partners sitting opposite."
    extra = ""
    if v.players.partnerships and n >= 2:
        extra = " (partners need an even number of players, four or more)"
    return f"{cap(num(n))} players play, each on their own{extra}: each player is a side and scores alone."


def _players_instead(v: Variant, o: Variant) -> str:
    if meanings(v).partnerships:
        how = f"in {num(len(v.sides))} sides of two, partners sitting opposite each other"
    else:
        how = "each on their own"
    return f"Play with {num(v.players.count)} players instead of {num(o.players.count)}, {how}."


rule("players.count", S_PLAYERS, _say_players, instead=_players_instead)
rule(
    "players.partnerships", S_PLAYERS, _say_players,
    relevant=lambda v: v.players.count >= 4 and v.players.count % 2 == 0,
)


def _say_deck(v: Variant) -> str:
    d = v.deck.decks
    j = v.deck.jokers_per_deck
    total = d * (52 + j)
    decks = "one standard deck" if d == 1 else f"{num(d)} standard decks"
    if j == 0:
        jokers = ", without jokers"
    elif d == 1:
        jokers = f" and {count(j, 'joker')}"
    else:
        jokers = f" with {count(j, 'joker')} each"
    return f"Use {decks}{jokers}: {total} cards."


rule(
    "deck.decks deck.jokers_per_deck", S_PLAYERS, _say_deck,
    instead=lambda v, o: (
        f"Use {count(v.deck.decks, 'standard deck')} instead of {num(o.deck.decks)} "
        f"({v.deck.decks * (52 + v.deck.jokers_per_deck)} cards in all)."
        if v.deck.decks != o.deck.decks
        else f"Add {count(v.deck.jokers_per_deck, 'joker')} to each deck instead of "
        f"{num(o.deck.jokers_per_deck) if o.deck.jokers_per_deck else 'none'} "
        f"({v.deck.decks * (52 + v.deck.jokers_per_deck)} cards in all)."
    ),
)


def _say_wilds(v: Variant) -> str:
    names = wild_names(v)
    if not names:
        first = "There are no wild cards."
    elif len(names) == 1:
        first = f"{cap(names[0])} are wild."
    else:
        first = f"{cap(join(names))} are wild."
    if v.threes.black_laid_at_once:
        # every 3 is laid out as a bonus card: no black 3 is ever held, melded or discarded
        threes = "every 3, red or black, is laid out and scores on its own"
    elif "3" in v.wilds.ranks:
        threes = "red 3s score on their own"
    else:
        threes = "3s have rules of their own"
    dead = ""
    if v.deck.jokers_per_deck and "JK" not in v.wilds.ranks:
        # the engine's reading of jokers dealt but not wild (Rules.stray_kinds)
        dead = (
            " Jokers are not wild: a joker is a dead card. No meld takes it; you may only discard "
            f"it, and one left in your hand when the hand ends counts {v.values.joker} points against you."
        )
    # 2s that are not wild are natural cards too
    naturals = "Cards from 4 to ace" + (", and the 2s," if "2" not in v.wilds.ranks else "")
    return f"{first} {naturals} are natural; {threes}.{dead}"


rule("wilds.ranks", S_PLAYERS, _say_wilds)


# -- the deal


def _say_hand(v: Variant) -> str:
    return f"Deal {count(v.deal.hand_size, 'card')} to each player."


rule(
    "deal.hand_size", S_DEAL, _say_hand,
    instead=lambda v, o: (
        f"Deal {count(v.deal.hand_size, 'card')} to each player instead of {num(o.deal.hand_size)}."
    ),
)


def _say_foot_deal(v: Variant) -> str:
    if not meanings(v).has_foot:
        return "Players are dealt no foot: each plays from a single hand."
    return (
        f"Besides the hand, each player is dealt a foot of {count(v.deal.foot_size, 'card')}: "
        "a second hand, kept face down and not looked at until it is picked up."
    )


rule(
    "deal.foot_size", S_DEAL, _say_foot_deal, shown=lambda v: meanings(v).has_foot,
    instead=lambda v, o: (
        _say_foot_deal(v)
        if not (meanings(v).has_foot and meanings(o).has_foot)
        else f"Deal each player a foot of {count(v.deal.foot_size, 'card')} instead of {num(o.deal.foot_size)}."
    ),
)


def _say_upcard(v: Variant) -> str:
    if not v.deal.upcard:
        return (
            "The rest of the cards form the stock, face down. No card is turned up: the discard "
            "pile starts empty, so the first player draws from the stock."
        )
    return "The rest form the stock, face down. Turn its top card up to start the discard pile."


rule("deal.upcard", S_DEAL, _say_upcard)


def _say_upcard_cover(v: Variant) -> str:
    classes = [_CLASS_NAMES[c] for c in _CLASS_NAMES if c in v.deal.upcard_covered_if]
    if not classes:
        return "The upcard stays as it is, whatever card it is."
    if v.deal.upcard_buried:
        return (
            f"If the upcard is {join(classes, 'or')}, it is buried in the middle of the stock and "
            "the next card is turned up instead, as often as needed."
        )
    return f"While the top card is {join(classes, 'or')}, turn up another on it."


rule(
    "deal.upcard_covered_if deal.upcard_buried", S_DEAL, _say_upcard_cover,
    relevant=lambda v: v.deal.upcard,
    shown=lambda v: v.deal.upcard and bool(v.deal.upcard_covered_if),
)


# -- a turn


def _say_draw(v: Variant) -> str:
    n = v.draw.count
    draw = f"Draw {count(n, 'card')} from the stock"
    if meanings(v).pile_takeable:
        top = v.pile.take_top
        pile = "the whole discard pile" if top is None else f"the top {count(top, 'card')} of the discard pile"
        return f"{draw}, or take {pile}."
    return f"{draw}."


rule(
    "draw.count", S_TURN, _say_draw,
    instead=lambda v, o: (
        f"Draw {count(v.draw.count, 'card')} from the stock instead of {num(o.draw.count)}."
    ),
)
