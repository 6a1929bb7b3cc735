"""Sentences of scoring (card values, bonuses) and of the end of the game.

The last of the sentence modules: its rules close the registry. It imports
:mod:`~canasta.rulebook.going_out` (whose sentence on going out concealed it shares),
and so, through their chain, every sentence module before it.
"""

from __future__ import annotations

from collections.abc import Callable

from canasta.rulebook.facts import has_concealed
from canasta.rulebook.going_out import say_concealed
from canasta.rulebook.registry import S_GAME, S_SCORING, always, rule
from canasta.rulebook.words import count, join, num, points, pts, rank_plural
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant

# -- scoring

#: (name of the option under ``values``, its label in the table of card values), in table order.
VALUE_ROWS = (
    ("joker", "Joker"), ("two", "2"), ("ace", "Ace"), ("king", "K"), ("queen", "Q"),
    ("jack", "J"), ("ten", "10"), ("nine", "9"), ("eight", "8"), ("seven", "7"),
    ("six", "6"), ("five", "5"), ("four", "4"), ("black_three", "Black 3"),
    ("red_three", "Red 3 (as a card)"),
)
_VALUE_NOUNS = {
    "joker": "A joker", "two": "A 2", "ace": "An ace", "king": "A king", "queen": "A queen",
    "jack": "A jack", "ten": "A 10", "nine": "A 9", "eight": "An 8", "seven": "A 7", "six": "A 6",
    "five": "A 5", "four": "A 4", "black_three": "A black 3", "red_three": "A red 3 as a card",
}
#: The rank of each card-value option (red 3s, never wild, have none).
RANK_OF_VALUE = {"joker": "JK", "two": "2", "ace": "A", "king": "K", "queen": "Q", "jack": "J",
                  "ten": "10", "nine": "9", "eight": "8", "seven": "7", "six": "6", "five": "5",
                  "four": "4", "black_three": "3"}


def _value_sayer(name: str) -> Callable[[Variant], str]:
    def say(v: Variant) -> str:
        return f"{_VALUE_NOUNS[name]} counts {points(getattr(v.values, name))}."

    return say


def _value_instead(name: str) -> Callable[[Variant, Variant], str]:
    def instead(v: Variant, o: Variant) -> str:
        return (
            f"{_VALUE_NOUNS[name]} counts {points(getattr(v.values, name))} instead of "
            f"{pts(getattr(o.values, name))}."
        )

    return instead


for _name, _label in VALUE_ROWS:
    rule(
        f"values.{_name}", S_SCORING, _value_sayer(_name), instead=_value_instead(_name),
        relevant=(lambda v: v.values.red_three != 0) if _name == "red_three" else always,
    )


def _say_meld_points(v: Variant) -> str:
    if v.scoring.meld_points:
        return "Each side scores the values of its melded cards."
    return "Cards in melds count nothing by themselves: only bonuses score."


def _say_hand_minus(v: Variant) -> str:
    where = "hands and feet" if meanings(v).has_foot else "hands"
    if v.scoring.hand_minus:
        return f"Each side loses the values of the cards left in its players' {where}."
    return f"Cards left in {where} cost nothing."


rule("scoring.meld_points", S_SCORING, _say_meld_points)


def _say_meld_minus(v: Variant) -> str:
    if not v.scoring.meld_minus_without_canasta:
        return "A side's melded cards score for it whether or not it has completed a canasta."
    return "A side that has completed no canasta when the hand ends loses the value of its melded cards instead of scoring it."


rule(
    "scoring.meld_minus_without_canasta", S_SCORING, _say_meld_minus,
    relevant=lambda v: v.scoring.meld_points,
    shown=lambda v: v.scoring.meld_points and v.scoring.meld_minus_without_canasta,
)
rule("scoring.hand_minus", S_SCORING, _say_hand_minus)


def incomplete_rows(v: Variant) -> list[tuple[str, int]]:
    """``(what the meld is of, penalty)`` for each incomplete-meld penalty that can apply, the wild meld last."""
    sc = v.scoring
    wild = set(v.wilds.ranks)
    kept: dict[str, int] = {}
    for pen in sc.incomplete_penalties:  # the last entry for a rank wins, as the scorer reads them
        if pen.rank not in wild and pen.rank != "3":
            kept[rank_plural(pen.rank)] = pen.penalty
    rows = [(what, p) for what, p in kept.items() if p]
    if sc.incomplete_wild_penalty and v.melds.wild_melds:
        rows.append(("wild cards", sc.incomplete_wild_penalty))
    return rows


def _say_incomplete(v: Variant) -> str:
    rows = incomplete_rows(v)
    if not rows:
        return "A meld left short of a canasta when the hand ends costs nothing beyond its cards."
    parts = [f"{points(p)} for a meld of {what}" for what, p in rows]
    return f"Each meld short of a canasta left on a side's table when the hand ends costs it a penalty: {join(parts)}."


def _say_held(v: Variant) -> str:
    rows = [(p.rank, p.count, p.penalty) for p in v.scoring.held_penalties if p.penalty]
    if not rows:
        return "Holding many cards of one rank when the hand ends costs nothing beyond their values."
    where = "hand and foot" if meanings(v).has_foot else "hand"
    parts = [f"{points(p)} for {num(n)} or more {rank_plural(r)}" for r, n, p in rows]
    return (
        f"A player left holding many cards of one rank in their {where} when the hand ends costs their side, "
        f"besides the cards' values, {join(parts)}."
    )


rule(
    "scoring.incomplete_penalties scoring.incomplete_penalties.rank scoring.incomplete_penalties.penalty "
    "scoring.incomplete_wild_penalty",
    S_SCORING, _say_incomplete, shown=lambda v: bool(incomplete_rows(v)),
)
rule(
    "scoring.held_penalties scoring.held_penalties.rank scoring.held_penalties.count "
    "scoring.held_penalties.penalty",
    S_SCORING, _say_held, shown=lambda v: any(p.penalty for p in v.scoring.held_penalties),
)


def _say_going_out_bonus(v: Variant) -> str:
    return f"Going out scores {points(v.scoring.going_out_bonus)}."


rule(
    "scoring.going_out_bonus", S_SCORING, _say_going_out_bonus,
    instead=lambda v, o: (
        f"Going out scores {points(v.scoring.going_out_bonus)} instead of {pts(o.scoring.going_out_bonus)}."
    ),
)
def _say_short_sequences(v: Variant) -> str:
    sq = v.sequences
    if not sq.short_size or not sq.short_penalty:
        return "A short sequence left on the table costs nothing."
    return (
        f"Each sequence of fewer than {count(sq.short_size, 'card')} on a side's table when the "
        f"hand ends costs {points(sq.short_penalty)}."
    )


rule(
    "sequences.short_size", S_SCORING, _say_short_sequences,
    relevant=lambda v: v.sequences.allowed and v.sequences.short_penalty > 0,
    shown=lambda v: v.sequences.allowed and v.sequences.short_size > 0 and v.sequences.short_penalty > 0,
)
rule(
    "sequences.short_penalty", S_SCORING, _say_short_sequences,
    relevant=lambda v: v.sequences.allowed and v.sequences.short_size > 0,
    shown=lambda v: v.sequences.allowed and v.sequences.short_size > 0 and v.sequences.short_penalty > 0,
)
rule(
    "scoring.concealed_bonus", S_SCORING, say_concealed, relevant=has_concealed,
    instead=lambda v, o: (
        f"Going out concealed scores {points(v.scoring.concealed_bonus)} in all instead of "
        f"{pts(o.scoring.concealed_bonus)}."
    ),
)


# -- the end of the game


def _say_game_end(v: Variant) -> str:
    g = v.game
    side = "side" if meanings(v).partnerships else "player"
    if g.target is not None and g.rounds is not None:
        return (
            f"The game ends after {count(g.rounds, 'hand')}, or sooner at the end of a hand in "
            f"which a {side}'s total reaches {points(g.target)}; the {side} with the highest total wins."
        )
    if g.target is not None:
        # "total": scores add up from hand to hand
        return f"The game ends with the hand in which a {side}'s total reaches {points(g.target)}; the highest total wins."
    if g.rounds is not None:
        return f"The game lasts {count(g.rounds, 'hand')}; the {side} with the highest total then wins."
    return f"The game has no set end: play as many hands as you like; the {side} with the highest total wins."


rule(
    "game.target game.rounds", S_GAME, _say_game_end,
    instead=lambda v, o: (
        f"The game ends at {points(v.game.target)} instead of {pts(o.game.target)}."
        if v.game.target is not None and o.game.target is not None and v.game.rounds == o.game.rounds
        else _say_game_end(v)
    ),
)


def _say_tie(v: Variant) -> str:
    if v.game.tie == "play_another":
        return "If the leading totals are tied, play another hand to break the tie."
    return "A tie is a draw."


rule(
    "game.tie", S_GAME, _say_tie,
    relevant=lambda v: v.game.target is not None or v.game.rounds is not None,
)
