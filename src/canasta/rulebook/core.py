"""Rule books generated from variant profiles.

:func:`describe` turns a :class:`~canasta.variant.model.Variant` into a complete rule
book in plain English, as Markdown, reStructuredText or HTML;
:func:`describe_diff` states only the rules in which one variant differs from
another; :func:`compare` sets the main rules of several variants side by side.

Each option of the model has one sentence (see :func:`option_sentence`) that
states its rule for a given variant, so the text always follows the options.
The rule book is first built as a small document tree (:class:`RuleBook`:
sections of paragraphs, lists and tables, each sentence knowing the option
paths it states) and then rendered. A sentence that states an option the
profile lists under ``assumed`` ends in a dagger, with a note naming where the
value comes from.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs

from canasta.variant.model import Variant

__all__ = [
    "FORMATS",
    "BulletList",
    "Paragraph",
    "RuleBook",
    "Section",
    "Table",
    "Text",
    "compare",
    "describe",
    "describe_diff",
    "described_paths",
    "difference_sentences",
    "option_sentence",
    "render",
    "rule_book",
]

Format = Literal["markdown", "rst", "html"]
#: The output formats :func:`describe`, :func:`describe_diff` and :func:`compare` accept.
FORMATS: tuple[str, ...] = ("markdown", "rst", "html")


# --------------------------------------------------------------------------- the document tree


@attrs.frozen
class Text:
    """A sentence (or a table cell) and the option paths whose values it states.

    Attributes:
        text: plain text, without markup.
        paths: dotted option paths, e.g. ``("draw.count",)``; a path the variant
            marks as assumed gets the sentence a note mark.
    """

    text: str
    paths: tuple[str, ...] = ()


@attrs.frozen
class Paragraph:
    """Sentences read one after another.

    Attributes:
        sentences: the sentences, in order.
    """

    sentences: tuple[Text, ...]


@attrs.frozen
class BulletList:
    """A list of items, each a paragraph.

    Attributes:
        items: the items, in order.
        ordered: numbered (the steps of a turn) rather than bulleted.
    """

    items: tuple[Paragraph, ...]
    ordered: bool = False


@attrs.frozen
class Table:
    """A table with a header row.

    Attributes:
        header: the column headings.
        rows: the cells of each row.
    """

    header: tuple[str, ...]
    rows: tuple[tuple[Text, ...], ...]


Block = Paragraph | BulletList | Table


@attrs.frozen
class Section:
    """A titled part of a rule book.

    Attributes:
        title: the heading.
        blocks: the paragraphs, lists and tables under it.
    """

    title: str
    blocks: tuple[Block, ...]


@attrs.frozen
class RuleBook:
    """A whole document: title, opening blocks and sections.

    Attributes:
        title: the document title.
        intro: blocks between the title and the first section.
        sections: the sections, in order.
        variant: the variant whose ``assumed`` options get note marks.
    """

    title: str
    intro: tuple[Block, ...]
    sections: tuple[Section, ...]
    variant: Variant | None = None


# --------------------------------------------------------------------------- words

_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty",
)
_ORDINALS = (
    "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
    "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth",
)
_RANK_PLURALS = {"JK": "jokers", "A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "3": "black 3s"}
_CLASS_NAMES = {
    "wild": "a wild card",
    "red_three": "a red 3",
    "black_three": "a black 3",
    "natural": "a natural card",
}
_KIND_NAMES = {"natural": "natural (clean)", "mixed": "mixed (dirty)", "wild": "wild"}


def _num(n: int) -> str:
    """``n`` in words up to twenty, in digits above."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _ordinal(n: int) -> str:
    if 0 <= n < len(_ORDINALS):
        return _ORDINALS[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _count(n: int, noun: str, plural: str | None = None) -> str:
    """``"no cards"``, ``"one card"``, ``"eleven cards"``."""
    many = plural or noun + "s"
    if n == 0:
        return f"no {many}"
    return f"{_num(n)} {noun if n == 1 else many}"


def _pts(n: int) -> str:
    """A number of points, with a true minus sign."""
    return f"\u2212{-n}" if n < 0 else str(n)


def _points(n: int) -> str:
    return f"{_pts(n)} point" if n in (1, -1) else f"{_pts(n)} points"


def _join(items: Sequence[str], word: str = "and") -> str:
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def _rank_plural(rank: str) -> str:
    return _RANK_PLURALS.get(rank, f"{rank}s")


def _partners(v: Variant) -> bool:
    """Whether the seats form partnerships (two or more players per side)."""
    return any(len(side) > 1 for side in v.sides)


def _wild_names(v: Variant) -> list[str]:
    names: list[str] = []
    order = sorted(v.wilds.ranks, key=lambda r: (r != "JK", r != "2", r))
    for rank in order:
        if rank == "JK" and v.deck.jokers_per_deck == 0:
            continue
        name = _rank_plural(rank)
        if name not in names:
            names.append(name)
    return names


def _red_threes(v: Variant) -> int:
    return 2 * v.deck.decks


def _foot(v: Variant) -> bool:
    return v.deal.foot_size > 0


def _pile_takeable(v: Variant) -> bool:
    p = v.pile
    return (
        "natural" not in p.stop_cards
        and (p.take_natural_pair or p.take_natural_and_wild or p.take_lay_off)
    )


def _can_freeze(v: Variant) -> bool:
    p = v.pile
    return p.frozen_by_wild or p.frozen_by_red_three or p.frozen_until_opened


def _concealed(v: Variant) -> bool:
    return v.going_out.concealed


# --------------------------------------------------------------------------- option sentences


@attrs.frozen
class _Rule:
    """The sentence of one option (or of several options stated together)."""

    section: str
    say: Callable[[Variant], str]
    relevant: Callable[[Variant], bool]
    shown: Callable[[Variant], bool]
    instead: Callable[[Variant, Variant], str] | None


_RULES: dict[str, _Rule] = {}


def _always(_v: Variant) -> bool:
    return True


def _rule(
    paths: str,
    section: str,
    say: Callable[[Variant], str],
    *,
    relevant: Callable[[Variant], bool] = _always,
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
        if path in _RULES:
            raise ValueError(f"option {path!r} has two sentences")
        _RULES[path] = _Rule(section, say, relevant, shown or relevant, instead)


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
S_SCORING = "Scoring"
S_GAME = "The end of the game"
_SECTIONS = (
    S_PLAYERS, S_DEAL, S_TURN, S_MELDS, S_OPENING, S_CANASTAS, S_PILE, S_THREES,
    S_FOOT, S_OUT, S_STOCK, S_SCORING, S_GAME,
)


# -- players and cards


def _say_players(v: Variant) -> str:
    n = v.players.count
    if _partners(v):
        sides = len(v.sides)
        groups = "two partnerships" if sides == 2 else f"{_num(sides)} partnerships of two"
        return (
            f"{_cap(_num(n))} players play in {groups}, partners sitting opposite each other; "
            "each partnership is a side and scores together."
        )
    extra = ""
    if v.players.partnerships and n >= 2:
        extra = " (partnerships need an even number of players, four or more)"
    return f"{_cap(_num(n))} players play, each for themself and each a side of their own{extra}."


def _players_instead(v: Variant, o: Variant) -> str:
    if _partners(v):
        how = f"in {_num(len(v.sides))} partnerships, partners sitting opposite each other"
    else:
        how = "each for themself"
    return f"Play with {_num(v.players.count)} players instead of {_num(o.players.count)}, {how}."


_rule("players.count", S_PLAYERS, _say_players, instead=_players_instead)
_rule(
    "players.partnerships", S_PLAYERS, _say_players,
    relevant=lambda v: v.players.count >= 4 and v.players.count % 2 == 0,
)


def _say_deck(v: Variant) -> str:
    d = v.deck.decks
    j = v.deck.jokers_per_deck
    total = d * (52 + j)
    decks = "one standard deck of 52 cards" if d == 1 else f"{_num(d)} standard decks of 52 cards"
    if j == 0:
        jokers = ", without jokers"
    elif d == 1:
        jokers = f" and {_count(j, 'joker')}"
    else:
        jokers = f" with {_count(j, 'joker')} each"
    return f"The game uses {decks}{jokers}: {total} cards in all."


_rule(
    "deck.decks deck.jokers_per_deck", S_PLAYERS, _say_deck,
    instead=lambda v, o: (
        f"Use {_count(v.deck.decks, 'standard deck')} instead of {_num(o.deck.decks)} "
        f"({v.deck.decks * (52 + v.deck.jokers_per_deck)} cards in all)."
        if v.deck.decks != o.deck.decks
        else f"Add {_count(v.deck.jokers_per_deck, 'joker')} to each deck instead of "
        f"{_num(o.deck.jokers_per_deck) if o.deck.jokers_per_deck else 'none'} "
        f"({v.deck.decks * (52 + v.deck.jokers_per_deck)} cards in all)."
    ),
)


def _say_wilds(v: Variant) -> str:
    names = _wild_names(v)
    if not names:
        first = "There are no wild cards."
    elif len(names) == 1:
        first = f"{_cap(names[0])} are wild."
    else:
        first = f"{_cap(_join(names))} are wild."
    threes = "red 3s score on their own and black 3s block the discard pile"
    if "3" in v.wilds.ranks:
        threes = "red 3s score on their own"
    return f"{first} The other cards from 4 to ace are natural cards; {threes}."


_rule("wilds.ranks", S_PLAYERS, _say_wilds)


# -- the deal


def _say_hand(v: Variant) -> str:
    return (
        f"The dealer deals {_count(v.deal.hand_size, 'card')} to each player, "
        "starting with the player to the dealer's left."
    )


_rule(
    "deal.hand_size", S_DEAL, _say_hand,
    instead=lambda v, o: (
        f"Deal {_count(v.deal.hand_size, 'card')} to each player instead of {_num(o.deal.hand_size)}."
    ),
)


def _say_foot_deal(v: Variant) -> str:
    if not _foot(v):
        return "Players are dealt no foot: each plays from a single hand."
    return (
        f"Each player is then dealt a foot of {_count(v.deal.foot_size, 'card')}: a second hand, "
        "kept face down and not looked at until it is picked up."
    )


_rule(
    "deal.foot_size", S_DEAL, _say_foot_deal, shown=_foot,
    instead=lambda v, o: (
        _say_foot_deal(v)
        if not (_foot(v) and _foot(o))
        else f"Deal each player a foot of {_count(v.deal.foot_size, 'card')} instead of {_num(o.deal.foot_size)}."
    ),
)


def _say_upcard(v: Variant) -> str:
    if not v.deal.upcard:
        return "No card is turned up: the discard pile starts empty, so the first player draws from the stock."
    return (
        "The rest of the cards form the stock, face down; its top card is turned face up "
        "beside it to start the discard pile."
    )


_rule("deal.upcard", S_DEAL, _say_upcard)


def _say_upcard_cover(v: Variant) -> str:
    classes = [_CLASS_NAMES[c] for c in _CLASS_NAMES if c in v.deal.upcard_covered_if]
    if not classes:
        return "The upcard stays as it is, whatever card it is."
    return (
        f"If the upcard is {_join(classes, 'or')}, it stays in the pile and the next card of "
        "the stock is turned up on top of it, until the top card is not."
    )


_rule(
    "deal.upcard_covered_if", S_DEAL, _say_upcard_cover,
    relevant=lambda v: v.deal.upcard,
    shown=lambda v: v.deal.upcard and bool(v.deal.upcard_covered_if),
)


# -- a turn


def _say_draw(v: Variant) -> str:
    n = v.draw.count
    draw = f"Draw {_count(n, 'card')} from the stock"
    if _pile_takeable(v):
        return f"{draw}, or take the whole discard pile (see below)."
    return f"{draw}."


_rule(
    "draw.count", S_TURN, _say_draw,
    instead=lambda v, o: (
        f"Draw {_count(v.draw.count, 'card')} from the stock instead of {_num(o.draw.count)}."
    ),
)


# -- melds and wild cards


def _new_size(v: Variant) -> int:
    return max(v.melds.min_size, v.melds.min_naturals)


def _say_meld_size(v: Variant) -> str:
    m = v.melds
    size = _new_size(v)
    own = "their side's" if _partners(v) else "their own"
    if m.min_naturals >= size:
        what = f"at least {_count(size, 'natural card')} of one rank"
    else:
        what = (
            f"at least {_count(size, 'card')} of one rank, at least {_num(m.min_naturals)} "
            f"of {'it' if size == 1 else 'them'} natural"
        )
    return (
        f"A meld is {what}, laid face up on the table; wild cards in it stand for that rank. "
        f"Players may also add cards to {own} melds."
    )


_rule("melds.min_size melds.min_naturals", S_MELDS, _say_meld_size)


def _say_max_wilds(v: Variant) -> str:
    w = v.melds.max_wilds
    if w == 0:
        return "Wild cards may not join a meld of natural cards."
    return f"A meld of natural cards may hold at most {_count(w, 'wild card')}."


_rule(
    "melds.max_wilds", S_MELDS, _say_max_wilds,
    instead=lambda v, o: (
        f"A meld may hold at most {_count(v.melds.max_wilds, 'wild card')} instead of {_num(o.melds.max_wilds)}."
    ),
)


def _say_wilds_vs_naturals(v: Variant) -> str:
    if v.melds.wilds_at_most_naturals:
        return "A meld may never hold more wild cards than natural cards."
    return "A meld may hold more wild cards than natural cards, within the limit on wild cards."


_rule(
    "melds.wilds_at_most_naturals", S_MELDS, _say_wilds_vs_naturals,
    relevant=lambda v: v.melds.max_wilds > 0,
    shown=lambda v: v.melds.max_wilds > 0 and v.melds.wilds_at_most_naturals,
)


def _second_wild_places(v: Variant) -> str:
    s = v.melds.second_wild_size
    top = v.melds.max_size
    if top is not None and top == s:
        return f"only as its {_ordinal(s)} card"
    if top is not None and top == s + 1:
        return f"only as its {_ordinal(s)} or {_ordinal(s + 1)} card"
    return f"only as its {_ordinal(s)} card or later"


def _say_second_wild(v: Variant) -> str:
    m = v.melds
    if m.second_wild == "by_size":
        s = m.second_wild_size
        top = m.max_size
        if top is not None and top < s:
            return "A meld may never hold a second wild card."
        if s <= 2:
            return "A second wild card may join a meld at any time, within the limit."
        return (
            f"Only one wild card may be in a meld of up to {_count(s - 1, 'card')}: "
            f"a second wild card may join it {_second_wild_places(v)}."
        )
    if m.second_wild == "by_naturals":
        return (
            "A second wild card may join a meld only once the meld holds at least "
            f"{_count(m.second_wild_naturals, 'natural card')}."
        )
    return "A second wild card may join a meld at any time, within the limit."


_rule(
    "melds.second_wild", S_MELDS, _say_second_wild,
    relevant=lambda v: v.melds.max_wilds >= 2,
    shown=lambda v: v.melds.max_wilds >= 2 and v.melds.second_wild != "always",
)
_rule(
    "melds.second_wild_size", S_MELDS, _say_second_wild,
    relevant=lambda v: v.melds.max_wilds >= 2 and v.melds.second_wild == "by_size",
)
_rule(
    "melds.second_wild_naturals", S_MELDS, _say_second_wild,
    relevant=lambda v: v.melds.max_wilds >= 2 and v.melds.second_wild == "by_naturals",
)


def _say_max_size(v: Variant) -> str:
    top = v.melds.max_size
    if top is None:
        return "There is no limit to the number of cards in a meld."
    return (
        f"A meld may hold at most {_count(top, 'card')}; a meld of {_count(top, 'card')} is "
        "complete and closed: no more cards may join it."
    )


_rule(
    "melds.max_size", S_MELDS, _say_max_size,
    instead=lambda v, o: (
        _say_max_size(v)
        if v.melds.max_size is None or o.melds.max_size is None
        else f"A meld may hold at most {_count(v.melds.max_size, 'card')} instead of "
        f"{_num(o.melds.max_size)}; at that size it is closed."
    ),
)


def _say_duplicates(v: Variant) -> str:
    side = "side" if _partners(v) else "player"
    if v.melds.duplicate_ranks == "after_complete" and v.melds.max_size is not None:
        return (
            f"A {side} may have only one unfinished meld of each rank, but once its meld of a "
            "rank is complete, it may start another meld of that rank."
        )
    return f"A {side} may have only one meld of each rank."


_rule("melds.duplicate_ranks", S_MELDS, _say_duplicates)


def _say_wild_melds(v: Variant) -> str:
    if not v.melds.wild_melds:
        return "A meld made only of wild cards is not allowed."
    low = v.melds.min_size
    top = v.melds.max_size
    size = f"{_num(low)} to {_num(top)}" if top is not None and top > low else f"at least {_num(low)}"
    return f"A meld may also be made of wild cards only: {size} wild cards, with no natural card."


_rule(
    "melds.wild_melds", S_MELDS, _say_wild_melds, shown=lambda v: v.melds.wild_melds
)


def _say_rearrange(v: Variant) -> str:
    if not v.melds.rearrange:
        return "A card laid on the table stays where it was laid."
    return (
        "Until the discard, a player may rearrange the cards laid this turn: move them "
        "between melds or take them back into the hand; the turn is over once the "
        "player discards."
    )


_rule("melds.rearrange", S_MELDS, _say_rearrange, shown=lambda v: v.melds.rearrange)


# -- the first meld


def _score_steps(v: Variant) -> tuple[int, list[tuple[int, int]]]:
    """(minimum below the lowest step, [(from score, minimum)] sorted), as the engine reads them."""
    below = 0
    by_from: dict[int, int] = {}
    for step in v.opening.score_table:
        if step.from_score is None:
            below = step.minimum
        else:
            by_from[step.from_score] = step.minimum
    return below, sorted(by_from.items())


def _minimum(n: int) -> str:
    return "none" if n == 0 else str(n)


def _say_opening(v: Variant) -> str:
    o = v.opening
    side = "side" if _partners(v) else "player"
    if o.by == "none":
        return f"A {side}'s first meld of a hand needs no minimum count."
    start = (
        f"The first meld a {side} lays in a hand, together with any other melds laid in the "
        "same turn, must count at least a minimum number of points (the values of the cards; "
        "bonuses do not count)"
    )
    if o.by == "round":
        table = o.round_table
        if not table or not any(table):
            return f"A {side}'s first meld of a hand needs no minimum count."
        parts = [
            f"{_minimum(m)} in the {_ordinal(i + 1)}{' hand' if i == 0 else ''}"
            for i, m in enumerate(table)
        ]
        later = v.game.rounds is None or v.game.rounds > len(table)
        if later:
            parts[-1] += " and every later hand"
        return f"{start}: {_join(parts)}."
    below, steps = _score_steps(v)
    if not steps:
        if below == 0:
            return f"A {side}'s first meld of a hand needs no minimum count."
        return f"{start}: {_points(below)}."
    parts = [f"{_minimum(m)} for a score of {span}" for span, m in _score_rows(v)]
    return f"{start}, which depends on the {side}'s total score before the hand: {_join(parts)}."


def _opening_lead(v: Variant) -> str:
    """The opening sentence that introduces the table of minimums."""
    side = "side" if _partners(v) else "player"
    return (
        f"The first meld a {side} lays in a hand, together with any other melds laid in the "
        "same turn, must count at least a minimum number of points (the values of the cards; "
        f"bonuses do not count), which depends on the {side}'s total score before the hand:"
    )


def _score_rows(v: Variant) -> list[tuple[str, int]]:
    """(range of total scores, minimum) rows of the score table, lowest first."""
    below, steps = _score_steps(v)
    rows = [(f"below {_pts(steps[0][0])}", below)]
    for i, (start, minimum) in enumerate(steps):
        if i + 1 < len(steps):
            nxt = steps[i + 1][0]
            span = (
                f"{_pts(start)} to {_pts(nxt - 5)}"
                if start % 5 == 0 and nxt % 5 == 0 and nxt - 5 > start
                else f"{_pts(start)} up to {_pts(nxt)}, not included"
            )
        else:
            span = f"{_pts(start)} or more"
        rows.append((span, minimum))
    return rows


_rule("opening.by", S_OPENING, _say_opening)
_rule(
    "opening.score_table opening.score_table.minimum opening.score_table.from_score",
    S_OPENING, _say_opening, relevant=lambda v: v.opening.by == "score",
)
_rule("opening.round_table", S_OPENING, _say_opening, relevant=lambda v: v.opening.by == "round")


def _say_top_card_counts(v: Variant) -> str:
    if v.opening.top_card_counts:
        top = "the top card counts toward the minimum, and so do other melds from the hand that turn"
    else:
        top = "the top card does not count toward the minimum; only melds from the hand do"
    return (
        f"When a {'side' if _partners(v) else 'player'} opens by taking the discard pile, {top}. "
        "The rest of the pile never counts: it joins the player's hand only once the minimum is met."
    )


_rule(
    "opening.top_card_counts", S_OPENING, _say_top_card_counts,
    relevant=lambda v: v.opening.by != "none" and _pile_takeable(v),
)


def _say_concealed_waives(v: Variant) -> str:
    if v.opening.concealed_waives:
        return "A player who goes out concealed needs no minimum."
    return "A player who goes out concealed must meet the minimum too."


_rule(
    "opening.concealed_waives", S_OPENING, _say_concealed_waives,
    relevant=lambda v: v.opening.by != "none" and _concealed(v),
)


# -- canastas


def _say_canasta_size(v: Variant) -> str:
    n = v.canastas.size
    top = v.melds.max_size
    if top is not None and top < n:
        return f"A canasta would take {_count(n, 'card')}, more than a meld may hold, so no meld can become a canasta."
    more = "" if top == n else " or more"
    return f"A meld of {_count(n, 'card')}{more} is a canasta."


_rule(
    "canastas.size", S_CANASTAS, _say_canasta_size,
    instead=lambda v, o: f"A canasta takes {_count(v.canastas.size, 'card')} instead of {_num(o.canastas.size)}.",
)


def _mixed_possible(v: Variant) -> bool:
    return v.melds.max_wilds > 0


def _span(low: int, high: int) -> str:
    """``"five"``, ``"five or six"``, ``"four to six"``."""
    if high <= low:
        return _num(low)
    if high == low + 1:
        return f"{_num(low)} or {_num(high)}"
    return f"{_num(low)} to {_num(high)}"


def _say_kinds(v: Variant) -> str:
    parts = ["a natural (clean) canasta has no wild card"]
    if _mixed_possible(v):
        n = v.canastas.size
        most = min(v.melds.max_wilds, n - v.melds.min_naturals)
        if v.melds.max_size == n and most >= 1:
            parts.append(
                f"a mixed (dirty) canasta has {_span(n - most, n - 1)} natural cards and "
                f"{_span(1, most)} wild {'card' if most == 1 else 'cards'}"
            )
        else:
            parts.append("a mixed (dirty) canasta has natural cards and wild cards")
    if v.melds.wild_melds:
        parts.append(f"a wild canasta is {_count(v.canastas.size, 'wild card')}")
    return _cap(_join(parts, "and")) + "."


def _say_bonuses(v: Variant) -> str:
    c = v.canastas
    parts = [f"a natural canasta scores a bonus of {_points(c.natural_bonus)}"]
    if _mixed_possible(v):
        parts.append(f"a mixed canasta {_points(c.mixed_bonus)}")
    if v.melds.wild_melds:
        parts.append(f"a wild canasta {_points(c.wild_bonus)}")
    return _cap(_join(parts)) + "."


def _bonus_instead(kind: str) -> Callable[[Variant, Variant], str]:
    def instead(v: Variant, o: Variant) -> str:
        new = getattr(v.canastas, f"{kind}_bonus")
        old = getattr(o.canastas, f"{kind}_bonus")
        return f"A {kind} canasta scores {_points(new)} instead of {_pts(old)}."

    return instead


_rule("canastas.natural_bonus", S_CANASTAS, _say_bonuses, instead=_bonus_instead("natural"))
_rule(
    "canastas.mixed_bonus", S_CANASTAS, _say_bonuses,
    relevant=_mixed_possible, instead=_bonus_instead("mixed"),
)
_rule(
    "canastas.wild_bonus", S_CANASTAS, _say_bonuses,
    relevant=lambda v: v.melds.wild_melds, instead=_bonus_instead("wild"),
)


def _effective_rank_bonuses(v: Variant) -> list[tuple[str, str, int]]:
    """Rank bonuses the scorer can apply: natural or mixed canastas of meldable ranks."""
    wild = set(v.wilds.ranks)
    out: dict[tuple[str, str], int] = {}
    for b in v.canastas.rank_bonuses:
        if b.kind == "wild" or b.rank in wild or b.rank in ("3", "JK"):
            continue
        if b.kind == "mixed" and not _mixed_possible(v):
            continue
        out[(b.rank, b.kind)] = b.bonus
    return [(rank, kind, bonus) for (rank, kind), bonus in out.items()]


def _say_rank_bonuses(v: Variant) -> str:
    rows = _effective_rank_bonuses(v)
    if not rows:
        return "A canasta scores the same bonus whatever its rank."
    parts = [
        f"a {kind} canasta of {_rank_plural(rank)} scores {_points(bonus)}" for rank, kind, bonus in rows
    ]
    return f"Instead of the usual bonus, {_join(parts)}."


_rule(
    "canastas.rank_bonuses canastas.rank_bonuses.rank canastas.rank_bonuses.kind "
    "canastas.rank_bonuses.bonus",
    S_CANASTAS, _say_rank_bonuses, shown=lambda v: bool(_effective_rank_bonuses(v)),
)


# -- the discard pile


def _say_freezing(v: Variant) -> str:
    p = v.pile
    side = "side" if _partners(v) else "player"
    freezers = []
    if p.frozen_by_wild:
        freezers.append("a wild card")
    if p.frozen_by_red_three:
        freezers.append("a red 3")
    sentences = []
    if freezers:
        sentences.append(
            f"The discard pile is frozen for everyone while it holds {_join(freezers, 'or')}"
            + (" (a wild card may be discarded, and then freezes it)." if p.frozen_by_wild else ".")
        )
    if p.frozen_until_opened:
        sentences.append(f"It is also frozen against a {side} that has not yet made its first meld.")
    if not sentences:
        return "The discard pile is never frozen."
    return " ".join(sentences)


_rule(
    "pile.frozen_by_wild pile.frozen_by_red_three pile.frozen_until_opened", S_PILE, _say_freezing,
    relevant=_pile_takeable,
)


def _say_stop_cards(v: Variant) -> str:
    if "natural" in v.pile.stop_cards:
        return "The discard pile can never be taken: every card that may lie on top of it is a stop card."
    stops = ["a wild card", "a black 3"]
    if v.deal.upcard and "red_three" not in v.deal.upcard_covered_if:
        stops.append("a red 3")
    return (
        f"The pile can never be taken while {_join(stops, 'or')} lies on top of it: the player "
        "must draw from the stock instead. Once another card is discarded on it, the pile may "
        "be taken again."
    )


_rule("pile.stop_cards", S_PILE, _say_stop_cards)


def _say_take(v: Variant) -> str:
    if not _pile_takeable(v):
        return "The discard pile can never be taken."
    return (
        "A player who takes the discard pile takes all of it, never just the top card. The top "
        "card must be melded at once, in one of the ways listed below; then the rest of the pile "
        "goes into the player's hand, and the turn goes on."
    )


def _frozen_note(v: Variant) -> str:
    return " (not when the pile is frozen)" if _can_freeze(v) else ""


def _say_take_pair(v: Variant) -> str:
    if not v.pile.take_natural_pair:
        return "The pile can never be taken with a pair from the hand."
    wild = "" if v.pile.take_natural_and_wild else ", never with a wild card"
    side = "side's" if _partners(v) else "player's"
    return (
        f"A player may take the pile with two natural cards of the top card's rank from the hand{wild}: "
        f"the three cards make a new meld, or join the {side} meld of that rank."
        + (" This is the only way to take a frozen pile." if _can_freeze(v) else "")
    )


def _say_take_wild(v: Variant) -> str:
    if not v.pile.take_natural_and_wild:
        return "The pile can never be taken with a natural card and a wild card."
    return (
        "A player may take the pile with one natural card of the top card's rank and one wild "
        f"card from the hand{_frozen_note(v)}."
    )


def _say_take_lay_off(v: Variant) -> str:
    side = "side" if _partners(v) else "player"
    if not v.pile.take_lay_off:
        return f"The pile can never be taken just by adding its top card to a meld of the {side}."
    text = (
        f"A player may take the pile by adding its top card to the {side}'s meld of that rank, "
        f"even with no card of that rank in the hand{_frozen_note(v)}"
    )
    if not v.pile.lay_off_after_canasta:
        text += f"; but not once the {side} has made a canasta of that rank this hand"
    return text + "."


def _takeable_and(flag: Callable[[Variant], bool]) -> Callable[[Variant], bool]:
    return lambda v: _pile_takeable(v) and flag(v)


_rule("pile.take_natural_pair", S_PILE, _say_take_pair, relevant=lambda v: "natural" not in v.pile.stop_cards,
      shown=_takeable_and(lambda v: v.pile.take_natural_pair))
_rule("pile.take_natural_and_wild", S_PILE, _say_take_wild, relevant=lambda v: "natural" not in v.pile.stop_cards,
      shown=_takeable_and(lambda v: v.pile.take_natural_and_wild))
_rule("pile.take_lay_off", S_PILE, _say_take_lay_off, relevant=lambda v: "natural" not in v.pile.stop_cards,
      shown=_takeable_and(lambda v: v.pile.take_lay_off))
_rule("pile.lay_off_after_canasta", S_PILE, _say_take_lay_off,
      relevant=_takeable_and(lambda v: v.pile.take_lay_off))


def _say_block(v: Variant) -> str:
    p = v.pile
    side = "side" if _partners(v) else "player"
    n = p.blocked_by_meld_size
    if n is None:
        return "A meld on the table never stops a player from taking the pile."
    text = (
        f"The pile may not be taken when its top card has the rank of one of the {side}'s "
        f"unfinished melds of {_count(n, 'card')} or more"
    )
    if not p.blocked_exception:
        return text + "."
    need_low = 1
    need_high = max(1, v.canastas.size - n)
    finish = (
        _num(need_low) if need_high == need_low
        else f"{_num(need_low)} or {_num(need_high)}" if need_high == need_low + 1
        else f"{_num(need_low)} to {_num(need_high)}"
    )
    return (
        f"{text}, with one exception: a player holding enough natural cards of that rank may "
        f"complete that meld with {finish} of them and start a new meld of the rank with two "
        "more and the top card, and so take the pile."
    )


_rule(
    "pile.blocked_by_meld_size", S_PILE, _say_block, relevant=_pile_takeable,
    shown=lambda v: _pile_takeable(v) and v.pile.blocked_by_meld_size is not None,
)
_rule(
    "pile.blocked_exception", S_PILE, _say_block,
    relevant=lambda v: _pile_takeable(v) and v.pile.blocked_by_meld_size is not None,
)


# -- red and black 3s


def _say_red_laid(v: Variant) -> str:
    if not v.threes.red_laid_at_once:
        return (
            "Red 3s are not laid out: a red 3 stays in the hand until the hand ends."
        )
    foot = " (or finds one in their foot)" if _foot(v) else ""
    text = (
        f"A player who is dealt or draws a red 3{foot} lays it "
        "face up on the table at once and draws a replacement from the stock, as often as needed; "
        "a red 3 drawn as the last card of the stock is laid without replacement, and the "
        "hand ends at once: that player may not meld or discard."
    )
    if v.deal.upcard:
        text += " A red 3 in a discard pile taken is laid the same way, without replacement."
    return text


_rule("threes.red_laid_at_once", S_THREES, _say_red_laid)


def _say_red_bonus(v: Variant) -> str:
    t = v.threes
    text = f"Each red 3 laid scores {_points(t.red_bonus)} for its side"
    if t.red_all_bonus is not None:
        text += f"; a side that lays all {_num(_red_threes(v))} red 3s scores {_points(t.red_all_bonus)} for them instead"
    else:
        text += ", with no special bonus for laying all of them"
    return text + "."


_rule(
    "threes.red_bonus", S_THREES, _say_red_bonus,
    instead=lambda v, o: f"Each red 3 scores {_points(v.threes.red_bonus)} instead of {_pts(o.threes.red_bonus)}.",
)
_rule(
    "threes.red_all_bonus", S_THREES, _say_red_bonus,
    instead=lambda v, o: (
        _say_red_bonus(v) if v.threes.red_all_bonus is None or o.threes.red_all_bonus is None
        else f"All {_num(_red_threes(v))} red 3s score {_points(v.threes.red_all_bonus)} instead of "
        f"{_pts(o.threes.red_all_bonus)}."
    ),
)


def _say_red_minus(v: Variant) -> str:
    t = v.threes
    conds = []
    if t.red_minus_if_unopened:
        conds.append("has made no meld")
    if t.red_minus_without_canasta:
        conds.append("has completed no canasta")
    if not conds:
        return "Red 3s always count plus, whether or not their side has melded."
    return f"If a side {_join(conds, 'or')} when the hand ends, its red 3s count minus instead of plus."


_rule(
    "threes.red_minus_if_unopened threes.red_minus_without_canasta", S_THREES, _say_red_minus,
    shown=lambda v: v.threes.red_minus_if_unopened or v.threes.red_minus_without_canasta,
)


def _red_can_be_held(v: Variant) -> bool:
    return _foot(v) or not v.threes.red_laid_at_once


def _say_red_held(v: Variant) -> str:
    where = "a hand or an unplayed foot" if _foot(v) else "a hand"
    return f"A red 3 still held in {where} when the hand ends costs {_points(v.threes.red_held_penalty)}."


_rule(
    "threes.red_held_penalty", S_THREES, _say_red_held, relevant=_red_can_be_held,
    instead=lambda v, o: (
        f"A red 3 still held when the hand ends costs {_points(v.threes.red_held_penalty)} instead of "
        f"{_pts(o.threes.red_held_penalty)}."
    ),
)


def _say_black_meld(v: Variant) -> str:
    t = v.threes
    if t.black_meld == "never":
        return "Black 3s can never be melded."
    low = t.black_meld_min
    top = t.black_meld_max
    if top is None:
        size = f"at least {_num(low)}"
    elif top < low:
        return "Black 3s can never be melded (no meld of black 3s is large enough and small enough)."
    elif top == low:
        size = _num(low)
    elif top == low + 1:
        size = f"{_num(low)} or {_num(top)}"
    else:
        size = f"{_num(low)} to {_num(top)}"
    wilds = "with or without wild cards" if t.black_meld_wilds else "with no wild card"
    when = (
        "only by a player who goes out in that turn" if t.black_meld == "going_out_only" else "at any time"
    )
    return f"Black 3s may be melded {when}, in a meld of {size} black 3s, {wilds}; such a meld is never a canasta."


_rule("threes.black_meld", S_THREES, _say_black_meld)
_rule(
    "threes.black_meld_min threes.black_meld_max threes.black_meld_wilds", S_THREES,
    _say_black_meld, relevant=lambda v: v.threes.black_meld != "never",
)


def _say_black_discard(v: Variant) -> str:
    return (
        "A black 3 may be discarded; on top of the pile it stops the next player from taking it. "
        f"A black 3 left in a hand at the end counts {_points(v.values.black_three)} minus."
    )


# -- the foot


def _say_foot_trigger(v: Variant) -> str:
    if v.foot.trigger == "empty_hand":
        return (
            "A player who has played every card of their hand picks up their foot and plays on "
            "from it; red 3s in it are laid at once."
        )
    side = "side" if _partners(v) else "player"
    who = "each partner" if _partners(v) else "the player"
    return (
        f"Once the {side} has completed its first canasta, {who} may pick up their foot on "
        "their turn, in the middle of play, and add it to their hand; the player who completed "
        "the canasta may do so at once and play on."
    )


_rule("foot.trigger", S_FOOT, _say_foot_trigger, relevant=_foot)


def _say_foot_first(v: Variant) -> str:
    if v.going_out.foot_first:
        return "A player may not go out before picking up their foot."
    return "A player may go out without having picked up their foot; its cards then count minus."


# -- going out


def _kind_requirements(v: Variant) -> tuple[int, list[str]]:
    g = v.going_out
    kinds = [
        f"{_count(n, _KIND_NAMES[k] + ' canasta')}"
        for k, n in (("natural", g.natural_canastas), ("mixed", g.mixed_canastas), ("wild", g.wild_canastas))
        if n
    ]
    total = max(g.canastas, g.natural_canastas + g.mixed_canastas + g.wild_canastas)
    return total, kinds


def _say_canastas_needed(v: Variant) -> str:
    g = v.going_out
    side = "side" if _partners(v) else "player"
    total, kinds = _kind_requirements(v)
    if total == 0:
        text = "A player may go out without any canasta."
    else:
        need = _join(kinds)
        if not kinds:
            need = f"at least {_count(total, 'canasta')}"
        elif total > g.natural_canastas + g.mixed_canastas + g.wild_canastas:
            need = f"at least {_count(total, 'canasta')}, among them at least {need}"
        else:
            need = f"at least {need}"
        it = "it" if total == 1 else "they"
        whose = f"their {side} has" if _partners(v) else "they have"
        text = (
            f"A player may go out only when {whose} {need}; "
            f"{it} may be completed in the turn of going out."
        )
    if g.wild_canastas and not v.melds.wild_melds:
        text += " Since melds of wild cards only are not allowed, no one can ever go out."
    if total and v.melds.max_size is not None and v.melds.max_size < v.canastas.size:
        text += " Since no meld can become a canasta, no one can ever go out."
    return text


_rule(
    "going_out.canastas going_out.natural_canastas going_out.mixed_canastas going_out.wild_canastas",
    S_OUT, _say_canastas_needed,
)


def _say_final_discard(v: Variant) -> str:
    if v.going_out.final_discard == "required":
        return (
            "A player goes out by discarding their last card; melding every card without a "
            "final discard is not allowed."
        )
    return (
        "A player goes out by melding every card left in their hand, or by melding all but one "
        "and discarding the last card. The hand ends at once."
    )


_rule("going_out.final_discard", S_OUT, _say_final_discard)


def _say_out_not_out(v: Variant) -> str:
    if v.going_out.out_but_not_out:
        return (
            "A player left with a single card at the end of the turn must discard it; they may "
            "say \u201cout, but not out\u201d and play on with no cards in hand, without ending the hand."
        )
    return (
        "Discarding the last card always goes out: a player who may not go out must keep at "
        "least one card in hand."
    )


_rule("going_out.out_but_not_out", S_OUT, _say_out_not_out)


def _say_ask(v: Variant) -> str:
    if not v.going_out.ask_partner:
        return "A player decides alone whether to go out; they may not ask their partner."
    return (
        "Before going out a player may ask their partner \u201cPartner, may I go out?\u201d; the "
        "partner answers only yes or no, and the answer binds for that turn: after a yes the "
        "player must go out, after a no they may not. Asking is optional."
    )


_rule("going_out.ask_partner", S_OUT, _say_ask, relevant=_partners)
_rule("going_out.foot_first", S_FOOT, _say_foot_first, relevant=_foot)


def _say_concealed(v: Variant) -> str:
    if not v.going_out.concealed:
        return "There is no separate bonus for going out concealed."
    return (
        "A player goes out concealed by melding their whole hand in one turn without having "
        "melded any card earlier in the hand; taking the discard pile rules it out. Going out "
        f"concealed scores {_points(v.scoring.concealed_bonus)} in all, instead of the usual "
        f"{_pts(v.scoring.going_out_bonus)}."
    )


_rule("going_out.concealed", S_OUT, _say_concealed)


def _say_black_out(v: Variant) -> str:
    t = v.threes
    n = t.black_out_cards
    if n is None:
        return "Black 3s left in the hand of the player who goes out count minus like any other card."
    return (
        "A player who may otherwise go out may do so with nothing left in hand but "
        f"{_count(n, 'black 3')} and one card to discard, which may be a black 3 too: those black 3s "
        f"then do not count minus, and the side scores {_points(t.black_out_bonus)} for them."
    )


_rule(
    "threes.black_out_cards", S_OUT, _say_black_out,
    shown=lambda v: v.threes.black_out_cards is not None,
)
_rule(
    "threes.black_out_bonus", S_OUT, _say_black_out,
    relevant=lambda v: v.threes.black_out_cards is not None,
    instead=lambda v, o: (
        f"Going out with black 3s scores {_points(v.threes.black_out_bonus)} instead of "
        f"{_pts(o.threes.black_out_bonus)}."
    ),
)


# -- when the stock runs out


def _say_short_stock(v: Variant) -> str:
    n = v.draw.count
    if v.draw.short_stock == "end_hand":
        return (
            f"When a player due to draw {_count(n, 'card')} finds fewer than {_num(n)} in the stock, "
            "the hand ends at once: that player does not play."
        )
    return f"A player due to draw {_count(n, 'card')} who finds fewer in the stock draws what is left."


_rule("draw.short_stock", S_STOCK, _say_short_stock, relevant=lambda v: v.draw.count > 1)


def _say_must_take(v: Variant) -> str:
    must = v.pile.must_take_when_stock_empty
    start = "Once the stock is empty, play goes on only through the discard pile: "
    end = " The hand ends as soon as a player cannot draw and does not take the pile; no one goes out."
    if not _pile_takeable(v):
        return "The hand ends as soon as the stock is empty and a player cannot draw; no one goes out."
    if must == "any":
        rule = "a player must take the pile whenever they can."
    elif must == "lay_off" and v.pile.take_lay_off:
        rule = (
            "a player who can take the pile by adding its top card to a meld on the table must "
            "take it; a player who would need cards from the hand to take it may decline."
        )
    else:
        rule = "a player may take the pile or decline it."
    return start + rule + end


_rule("pile.must_take_when_stock_empty", S_STOCK, _say_must_take)


# -- scoring

_VALUE_ROWS = (
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
_RANK_OF_VALUE = {"joker": "JK", "two": "2", "ace": "A", "king": "K", "queen": "Q", "jack": "J",
                  "ten": "10", "nine": "9", "eight": "8", "seven": "7", "six": "6", "five": "5",
                  "four": "4", "black_three": "3"}


def _value_sayer(name: str) -> Callable[[Variant], str]:
    def say(v: Variant) -> str:
        return f"{_VALUE_NOUNS[name]} counts {_points(getattr(v.values, name))}."

    return say


def _value_instead(name: str) -> Callable[[Variant, Variant], str]:
    def instead(v: Variant, o: Variant) -> str:
        return (
            f"{_VALUE_NOUNS[name]} counts {_points(getattr(v.values, name))} instead of "
            f"{_pts(getattr(o.values, name))}."
        )

    return instead


for _name, _label in _VALUE_ROWS:
    _rule(
        f"values.{_name}", S_SCORING, _value_sayer(_name), instead=_value_instead(_name),
        relevant=(lambda v: v.values.red_three != 0) if _name == "red_three" else _always,
    )


def _say_meld_points(v: Variant) -> str:
    if v.scoring.meld_points:
        return "Every card in a side's melds counts its value plus."
    return "Cards in melds count nothing by themselves: only bonuses score."


def _say_hand_minus(v: Variant) -> str:
    where = "hands and feet" if _foot(v) else "hands"
    if v.scoring.hand_minus:
        return f"Every card left in the {where} of a side's players counts its value minus."
    return f"Cards left in {where} cost nothing."


_rule("scoring.meld_points", S_SCORING, _say_meld_points)
_rule("scoring.hand_minus", S_SCORING, _say_hand_minus)


def _say_going_out_bonus(v: Variant) -> str:
    return f"The side that goes out scores a bonus of {_points(v.scoring.going_out_bonus)}."


_rule(
    "scoring.going_out_bonus", S_SCORING, _say_going_out_bonus,
    instead=lambda v, o: (
        f"Going out scores {_points(v.scoring.going_out_bonus)} instead of {_pts(o.scoring.going_out_bonus)}."
    ),
)
_rule(
    "scoring.concealed_bonus", S_SCORING, _say_concealed, relevant=_concealed,
    instead=lambda v, o: (
        f"Going out concealed scores {_points(v.scoring.concealed_bonus)} in all instead of "
        f"{_pts(o.scoring.concealed_bonus)}."
    ),
)


# -- the end of the game


def _say_game_end(v: Variant) -> str:
    g = v.game
    side = "side" if _partners(v) else "player"
    if g.target is not None and g.rounds is not None:
        return (
            f"The game ends after {_count(g.rounds, 'hand')}, or sooner at the end of a hand in "
            f"which a {side} reaches {_points(g.target)}; the {side} with the highest total wins."
        )
    if g.target is not None:
        return (
            f"The game ends at the end of a hand in which a {side} reaches a total of "
            f"{_points(g.target)} or more; the {side} with the highest total wins."
        )
    if g.rounds is not None:
        return f"The game lasts {_count(g.rounds, 'hand')}; the {side} with the highest total then wins."
    return f"The game has no set end: play as many hands as you like; the {side} with the highest total wins."


_rule(
    "game.target game.rounds", S_GAME, _say_game_end,
    instead=lambda v, o: (
        f"The game ends at {_points(v.game.target)} instead of {_pts(o.game.target)}."
        if v.game.target is not None and o.game.target is not None and v.game.rounds == o.game.rounds
        else _say_game_end(v)
    ),
)


def _say_tie(v: Variant) -> str:
    if v.game.tie == "play_another":
        return "If the leading totals are tied when the game would end, another hand is played to break the tie."
    return "If the leading totals are tied at the end, the game is a draw between them."


_rule(
    "game.tie", S_GAME, _say_tie,
    relevant=lambda v: v.game.target is not None or v.game.rounds is not None,
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
    return tuple(_RULES)


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
    return _RULES[path].say(variant)


# --------------------------------------------------------------------------- building the book


def _t(v: Variant, paths: str, text: str | None = None) -> Text:
    """The sentence of the first of ``paths`` (or ``text``), stating all of them."""
    names = tuple(paths.split())
    return Text(text if text is not None else _RULES[names[0]].say(v), names)


def _shown(v: Variant, section: str) -> list[Text]:
    """The sentences of ``section`` that the rule book states, duplicates merged."""
    out: list[Text] = []
    index: dict[str, int] = {}
    for path, rule in _RULES.items():
        if rule.section != section:
            continue
        text = rule.say(v)
        if text in index:
            if rule.relevant(v):
                old = out[index[text]]
                out[index[text]] = Text(old.text, (*old.paths, path))
        elif rule.shown(v):
            index[text] = len(out)
            out.append(Text(text, (path,)))
    return out


def _take(texts: list[Text], *paths: str) -> list[Text]:
    """Remove and return the sentences stating any of ``paths``."""
    got = [t for t in texts if any(p in t.paths for p in paths)]
    for t in got:
        texts.remove(t)
    return got


def _para(*texts: Text | Iterable[Text]) -> Paragraph:
    flat: list[Text] = []
    for t in texts:
        if isinstance(t, Text):
            flat.append(t)
        else:
            flat.extend(t)
    return Paragraph(tuple(flat))


def _players_section(v: Variant) -> Section:
    texts = _shown(v, S_PLAYERS)
    blocks: list[Block] = [_para(texts)]
    return Section(S_PLAYERS, tuple(blocks))


def _deal_section(v: Variant) -> Section:
    texts = _shown(v, S_DEAL)
    texts.append(Text("The deal passes to the left after each hand."))
    return Section(S_DEAL, (_para(texts),))


def _turn_section(v: Variant) -> Section:
    side = "your side's" if _partners(v) else "your"
    steps = [Paragraph((_t(v, "draw.count"),))]
    play = f"If you wish, lay down new melds and add cards to {side} melds"
    if _foot(v):
        play += " (and pick up your foot, once you may)"
    steps.append(Paragraph((Text(play + "."),)))
    if v.going_out.final_discard == "optional":
        discard = Text(
            "Discard one card face up onto the discard pile, unless you have gone out by melding "
            "every card. The discard ends your turn.",
            ("going_out.final_discard",),
        )
    else:
        discard = Text("Discard one card face up onto the discard pile. The discard ends your turn.")
    steps.append(Paragraph((discard,)))
    first = Text(
        "The player to the dealer's left plays first, and play goes on clockwise; no one is "
        "skipped. On your turn:"
    )
    after = Text("Any card may be discarded except a red 3.")
    return Section(S_TURN, (_para(first), BulletList(tuple(steps), ordered=True), _para(after)))


_SINGULAR = {"A": "an ace", "K": "a king", "Q": "a queen", "J": "a jack", "8": "an 8", "JK": "a joker"}


def _some(n: int, rank: str) -> str:
    """``"a 9"``, ``"two 9s"``, ``"an ace"``, ``"three jokers"``."""
    if n == 1:
        return _SINGULAR.get(rank, f"a {rank}")
    return f"{_num(n)} {_rank_plural(rank)}"


def _meld_phrase(rank: str, n: int, j: int, wilds: Sequence[str]) -> str:
    parts = [_some(n, rank)] if n else []
    if len(wilds) > 1 and j >= 3:
        parts += [_some(j - 1, wilds[0]), _some(1, wilds[1])]
    elif j:
        parts.append(_some(j, wilds[0]))
    return _join(parts)


def _meld_examples(v: Variant) -> str | None:
    """Legal and illegal melds side by side, each checked by the engine's own rule."""
    from canasta.cards import parse_rank
    from canasta.engine import compile_rules

    valid = compile_rules(v).valid
    wilds = [w for w in ("2", "JK") if w in v.wilds.ranks and not (w == "JK" and v.deck.jokers_per_deck == 0)]
    rank = next((x for x in ("9", "5", "K", "7", "Q", "6") if x not in v.wilds.ranks), None)
    if rank is None or not wilds:
        return None
    k = parse_rank(rank)
    size = _new_size(v)
    least = v.melds.min_naturals
    pairs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    if least >= 1 and size > least and valid(k, least, size - least, True) and not valid(k, least - 1, size - least + 1, True):
        pairs.append(((least, size - least), (least - 1, size - least + 1)))
    most = v.melds.max_wilds
    if most >= 1:
        for n in range(least + 1, least + 12):
            if n + most >= size and valid(k, n, most, True) and not valid(k, n - 1, most + 1, True):
                pairs.append(((n, most), (n - 1, most + 1)))
                break
    if not pairs:
        return None
    said = [
        f"{_meld_phrase(rank, *good, wilds)} make a meld, but {_meld_phrase(rank, *bad, wilds)} do not"
        for good, bad in pairs
    ]
    return f"For example, {'; '.join(said)}."


def _melds_section(v: Variant) -> Section:
    texts = _shown(v, S_MELDS)
    examples = _meld_examples(v)
    if examples:
        texts.append(Text(examples, ("melds.min_naturals", "melds.max_wilds")))
    return Section(S_MELDS, (_para(texts), _para(Text("Red 3s are never melded; black 3s, see below."))))


def _opening_section(v: Variant) -> Section:
    texts = _shown(v, S_OPENING)
    blocks: list[Block] = []
    first = _take(texts, "opening.by")
    blocks.append(_para(first))
    if v.opening.by == "score" and _score_steps(v)[1]:
        paths = ("opening.score_table",)
        blocks = [_para(Text(_opening_lead(v), first[0].paths))]
        rows = tuple((Text(_cap(span)), Text(_minimum(m), paths)) for span, m in _score_rows(v))
        blocks.append(Table(("Total score", "Minimum"), rows))
    if texts:
        blocks.append(_para(texts))
    return Section(S_OPENING, tuple(blocks))


def _canastas_section(v: Variant) -> Section:
    texts = _shown(v, S_CANASTAS)
    size = _take(texts, "canastas.size")
    kinds = Text(_say_kinds(v), ("melds.max_wilds", "melds.wild_melds"))
    return Section(S_CANASTAS, (_para(size, kinds, texts),))


def _pile_section(v: Variant) -> Section:
    texts = _shown(v, S_PILE)
    blocks: list[Block] = []
    if not _pile_takeable(v):
        stop = _take(texts, "pile.stop_cards")
        lead = stop if "natural" in v.pile.stop_cards else [Text(_say_take(v), ("pile.take_natural_pair",))]
        blocks.append(_para(lead))
        return Section(S_PILE, tuple(blocks))
    freezing = _take(texts, "pile.frozen_by_wild", "pile.frozen_by_red_three", "pile.frozen_until_opened")
    ways = _take(texts, "pile.take_natural_pair", "pile.take_natural_and_wild", "pile.take_lay_off")
    blocks.append(_para(Text(_say_take(v)), freezing))
    blocks.append(BulletList(tuple(Paragraph((w,)) for w in ways)))
    if texts:
        blocks.append(_para(texts))
    return Section(S_PILE, tuple(blocks))


def _threes_section(v: Variant) -> Section:
    texts = _shown(v, S_THREES)
    black = _take(
        texts, "threes.black_meld", "threes.black_meld_min", "threes.black_meld_max", "threes.black_meld_wilds"
    )
    red_blocks = _para(Text("A red 3 is never melded or discarded."), texts)
    black_texts = [*black]
    if v.scoring.hand_minus:
        black_texts.append(Text(_say_black_discard(v), ("values.black_three", "scoring.hand_minus")))
    else:
        black_texts.append(Text("A black 3 may be discarded; on top of the pile it stops the next player from taking it."))
    return Section(S_THREES, (red_blocks, _para(black_texts)))


def _foot_section(v: Variant) -> Section:
    return Section(S_FOOT, (_para(_shown(v, S_FOOT)),))


def _out_section(v: Variant) -> Section:
    texts = _shown(v, S_OUT)
    return Section(S_OUT, tuple(Paragraph((t,)) for t in texts))


def _stock_section(v: Variant) -> Section:
    return Section(S_STOCK, (_para(_shown(v, S_STOCK)),))


def _values_table(v: Variant) -> Table:
    rows: list[tuple[Text, ...]] = []
    wild = set(v.wilds.ranks)
    plain = ("king", "queen", "jack", "ten", "nine", "eight", "seven", "six", "five", "four")
    group: list[tuple[str, str]] = []

    def flush() -> None:
        if not group:
            return
        paths = tuple(f"values.{n}" for n, _ in group)
        label = ", ".join(lab for _, lab in group)
        rows.append((Text(label), Text(_pts(getattr(v.values, group[0][0])), paths)))
        group.clear()

    for name, label in _VALUE_ROWS:
        value = getattr(v.values, name)
        if name == "red_three" and value == 0:
            continue
        if name == "joker" and v.deck.jokers_per_deck == 0:
            continue
        if _RANK_OF_VALUE.get(name) in wild:
            label += " (wild)"
        if name in plain and _RANK_OF_VALUE[name] not in wild and (
            not group or getattr(v.values, group[-1][0]) == value
        ):
            group.append((name, label))
            continue
        flush()
        if name in plain and _RANK_OF_VALUE[name] not in wild:
            group.append((name, label))
            continue
        paths = (f"values.{name}",)
        rows.append((Text(label), Text(_pts(value), paths)))
    flush()
    return Table(("Card", "Points"), tuple(rows))


def _bonus_table(v: Variant) -> Table:
    c = v.canastas
    t = v.threes
    s = v.scoring
    rows: list[tuple[str, int | str, tuple[str, ...]]] = [
        ("Natural (clean) canasta", c.natural_bonus, ("canastas.natural_bonus",))
    ]
    if _mixed_possible(v):
        rows.append(("Mixed (dirty) canasta", c.mixed_bonus, ("canastas.mixed_bonus",)))
    if v.melds.wild_melds:
        rows.append(("Wild canasta", c.wild_bonus, ("canastas.wild_bonus",)))
    for rank, kind, bonus in _effective_rank_bonuses(v):
        rows.append((f"{_cap(kind)} canasta of {_rank_plural(rank)}", bonus, ("canastas.rank_bonuses",)))
    rows.append(("Each red 3", t.red_bonus, ("threes.red_bonus",)))
    if t.red_all_bonus is not None:
        rows.append((f"All {_num(_red_threes(v))} red 3s, in all", t.red_all_bonus, ("threes.red_all_bonus",)))
    rows.append(("Going out", s.going_out_bonus, ("scoring.going_out_bonus",)))
    if v.going_out.concealed:
        rows.append(("Going out concealed, in all", s.concealed_bonus, ("scoring.concealed_bonus",)))
    if t.black_out_cards is not None:
        rows.append(
            (f"Going out with {_count(t.black_out_cards, 'black 3')}", t.black_out_bonus, ("threes.black_out_bonus",))
        )
    if t.red_minus_if_unopened or t.red_minus_without_canasta:
        rows.append(
            ("Red 3s of a side that " + _join(
                [x for x, on in (("has not melded", t.red_minus_if_unopened),
                                 ("has no canasta", t.red_minus_without_canasta)) if on], "or"),
             "their value, minus",
             ("threes.red_minus_if_unopened", "threes.red_minus_without_canasta")),
        )
    if _red_can_be_held(v):
        rows.append(("Each red 3 still held", -t.red_held_penalty, ("threes.red_held_penalty",)))
    if s.meld_points:
        rows.append(("Cards in melds", "their values, plus", ("scoring.meld_points",)))
    if s.hand_minus:
        where = "Cards left in hands and feet" if _foot(v) else "Cards left in hands"
        rows.append((where, "their values, minus", ("scoring.hand_minus",)))
    return Table(
        ("Item", "Points"),
        tuple(
            (Text(label), Text(value if isinstance(value, str) else _pts(value), paths))
            for label, value, paths in rows
        ),
    )


def _scoring_section(v: Variant) -> Section:
    texts = _shown(v, S_SCORING)
    keep = _take(texts, "scoring.meld_points", "scoring.hand_minus")
    intro = Text("When a hand ends, each side scores, whether it went out or not.")
    return Section(
        S_SCORING,
        (
            _para(intro, keep),
            _para(Text("The cards are worth:")),
            _values_table(v),
            _para(Text("Bonuses and penalties:")),
            _bonus_table(v),
            _para(Text("Each side's scores are added up from hand to hand.")),
        ),
    )


def _game_section(v: Variant) -> Section:
    return Section(S_GAME, (_para(_shown(v, S_GAME)),))


S_CUSTOMS = "Table customs"


def _customs_section(v: Variant) -> Section:
    """The source text's table customs, which the engine leaves to the players, as written."""
    items = tuple(Paragraph((Text(_clean(c)),)) for c in v.customs if _clean(c))
    if not items:
        return Section(S_CUSTOMS, ())
    lead = _para(
        Text(
            "These customs of the source text are left to the players; the rules above do "
            "not depend on them."
        )
    )
    return Section(S_CUSTOMS, (lead, BulletList(items)))


def _clean(text: str) -> str:
    """User text on one line: whitespace runs become one space, control characters go."""
    kept = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cs"))
    return " ".join(kept.split())


def _title(v: Variant) -> str:
    return _clean(v.title) or _clean(v.name) or "Canasta variant"


def _source_text(v: Variant) -> str | None:
    s = v.source
    parts = [p for p in (_clean(s.title), _clean(s.reference), _clean(s.url)) if p]
    if not parts:
        return None
    return "Source: " + ", ".join(parts) + "."


def rule_book(variant: Variant) -> RuleBook:
    """Build the rule book of ``variant`` as a document tree, ready to render.

    Args:
        variant: the rules.

    Returns:
        The :class:`RuleBook`, with the title, the description and the source
        credit first, then one section per rule area.
    """
    v = variant
    intro: list[Block] = []
    description = _clean(v.description)
    if description:
        intro.append(Paragraph((Text(description),)))
    source = _source_text(v)
    if source:
        intro.append(Paragraph((Text(source),)))
    builders: list[Callable[[Variant], Section]] = [
        _players_section, _deal_section, _turn_section, _melds_section, _opening_section,
        _canastas_section, _pile_section, _threes_section,
    ]
    if _foot(v):
        builders.append(_foot_section)
    builders += [_out_section, _stock_section, _scoring_section, _game_section, _customs_section]
    sections = [b(v) for b in builders]
    sections = [s for s in sections if any(_non_empty(b) for b in s.blocks)]
    return RuleBook(_title(v), tuple(intro), tuple(sections), v)


def _non_empty(block: Block) -> bool:
    if isinstance(block, Paragraph):
        return bool(block.sentences)
    if isinstance(block, BulletList):
        return bool(block.items)
    return bool(block.rows)


# --------------------------------------------------------------------------- rendering

_MARKS = ("\u2020", "\u2021", "\u00a7", "\u2016", "\u00b6")


def _mark(i: int) -> str:
    return _MARKS[i % len(_MARKS)] * (i // len(_MARKS) + 1)


class _Notes:
    """Note marks for sentences stating assumed options, one mark per source."""

    def __init__(self, variant: Variant | None) -> None:
        self.variant = variant
        self.marks: dict[str, str] = {}

    def source_of(self, path: str) -> str | None:
        if self.variant is None or not self.variant.is_assumed(path):
            return None
        for a in self.variant.assumed:
            if path == a.path or path.startswith(a.path + "."):
                return _clean(a.source) or "a usual rule set"
        return None

    def mark(self, text: Text) -> str:
        found = ""
        for path in text.paths:
            source = self.source_of(path)
            if source is None:
                continue
            if source not in self.marks:
                self.marks[source] = _mark(len(self.marks))
            if self.marks[source] not in found:
                found += self.marks[source]
        return found

    def notes(self) -> list[str]:
        return [
            f"{mark} Not fixed by the source text; taken from {source.rstrip('.')}."
            for source, mark in self.marks.items()
        ]


class _Renderer:
    """Shared walk over a document; subclasses write one format."""

    def __init__(self, notes: _Notes) -> None:
        self.notes = notes

    def text(self, t: Text) -> str:
        return self.escape(t.text) + self.notes.mark(t)

    def paragraph(self, p: Paragraph) -> str:
        return " ".join(self.text(t) for t in p.sentences)

    def escape(self, text: str) -> str:
        raise NotImplementedError

    def render(self, book: RuleBook) -> str:
        parts = [self.heading(book.title, 1)]
        parts += [self.block(b) for b in book.intro if _non_empty(b)]
        for section in book.sections:
            parts.append(self.heading(section.title, 2))
            parts += [self.block(b) for b in section.blocks if _non_empty(b)]
        notes = self.notes.notes()
        if notes:
            parts.append(self.heading("Notes", 2))
            parts += [self.block(Paragraph((Text(n),))) for n in notes]
        return self.join(parts)

    def join(self, parts: list[str]) -> str:
        return "\n\n".join(parts) + "\n"

    def block(self, b: Block) -> str:
        if isinstance(b, Paragraph):
            return self.para_block(b)
        if isinstance(b, BulletList):
            return self.list_block(b)
        return self.table_block(b)

    def heading(self, title: str, level: int) -> str:
        raise NotImplementedError

    def para_block(self, p: Paragraph) -> str:
        raise NotImplementedError

    def list_block(self, b: BulletList) -> str:
        raise NotImplementedError

    def table_block(self, t: Table) -> str:
        raise NotImplementedError


_MD_SPECIAL = set("\\`*_[]<>|#&!")


class _Markdown(_Renderer):
    def escape(self, text: str) -> str:
        return "".join("\\" + c if c in _MD_SPECIAL else c for c in text)

    def line_start(self, text: str) -> str:
        # "1. ", "- ", "+ ", "= ", "> " at the start of a line would start a list, a heading or a quote.
        if text[:1] in ("-", "+", "=", ">", "~") or text[:1].isdigit():
            return "\\" + text if not text[:1].isdigit() else _md_digit(text)
        return text

    def heading(self, title: str, level: int) -> str:
        return "#" * level + " " + self.escape(title)

    def para_block(self, p: Paragraph) -> str:
        return self.line_start(self.paragraph(p))

    def list_block(self, b: BulletList) -> str:
        lines = []
        for i, item in enumerate(b.items, 1):
            bullet = f"{i}." if b.ordered else "-"
            lines.append(f"{bullet} {self.paragraph(item)}")
        return "\n".join(lines)

    def table_block(self, t: Table) -> str:
        lines = [
            "| " + " | ".join(self.escape(h) for h in t.header) + " |",
            "|" + "|".join(" --- " for _ in t.header) + "|",
        ]
        for row in t.rows:
            lines.append("| " + " | ".join(self.text(c) for c in row) + " |")
        return "\n".join(lines)


def _md_digit(text: str) -> str:
    # Escape the dot or parenthesis after leading digits: "1\. foo" is not a list item.
    i = 0
    while i < len(text) and text[i].isdigit():
        i += 1
    if i < len(text) and text[i] in ".)":
        return text[:i] + "\\" + text[i:]
    return text


_RST_SPECIAL = set("\\`*_|")
# A paragraph starting like a list item, an enumerator ("A. Smith", "(iv) ", "1) "),
# a comment or a field would be read as markup.
_RST_RISKY_START = re.compile(r"[^A-Za-z]|[A-Za-z]{1,5}[.)](\s|$)")


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


class _Rst(_Renderer):
    def escape(self, text: str) -> str:
        escaped = "".join("\\" + c if c in _RST_SPECIAL else c for c in text)
        return escaped.replace("::", ":\\:")

    def line_start(self, text: str) -> str:
        # Escaping the first character keeps docutils from reading a list, a
        # comment or an enumerator into the text.
        if text and text[0] != "\\" and _RST_RISKY_START.match(text):
            return "\\" + text
        return text

    def heading(self, title: str, level: int) -> str:
        text = self.line_start(self.escape(title))
        line = ("=" if level == 1 else "-") * max(4, _width(text))
        return f"{text}\n{line}"

    def para_block(self, p: Paragraph) -> str:
        return self.line_start(self.paragraph(p))

    def list_block(self, b: BulletList) -> str:
        lines = []
        for item in b.items:
            bullet = "#." if b.ordered else "-"
            lines.append(f"{bullet} {self.paragraph(item)}")
        return "\n".join(lines)

    def table_block(self, t: Table) -> str:
        lines = [".. list-table::", "   :header-rows: 1", ""]
        for i, row in enumerate((tuple(Text(h) for h in t.header), *t.rows)):
            for j, cell in enumerate(row):
                prefix = "   * - " if j == 0 else "     - "
                text = self.escape(cell.text) if i == 0 else self.text(cell)
                lines.append(prefix + self.line_start(text))
        return "\n".join(lines)


class _Html(_Renderer):
    def escape(self, text: str) -> str:
        return html.escape(text, quote=True)

    def heading(self, title: str, level: int) -> str:
        return f"<h{level}>{self.escape(title)}</h{level}>"

    def para_block(self, p: Paragraph) -> str:
        return f"<p>{self.paragraph(p)}</p>"

    def list_block(self, b: BulletList) -> str:
        tag = "ol" if b.ordered else "ul"
        items = "\n".join(f"<li>{self.paragraph(item)}</li>" for item in b.items)
        return f"<{tag}>\n{items}\n</{tag}>"

    def table_block(self, t: Table) -> str:
        head = "".join(f"<th>{self.escape(h)}</th>" for h in t.header)
        body = "\n".join(
            "<tr>" + "".join(f"<td>{self.text(c)}</td>" for c in row) + "</tr>" for row in t.rows
        )
        return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"

    def join(self, parts: list[str]) -> str:
        return "\n".join(parts) + "\n"


_RENDERERS: Mapping[str, type[_Renderer]] = {"markdown": _Markdown, "rst": _Rst, "html": _Html}


def render(book: RuleBook, format: str = "markdown") -> str:
    """Render a document tree as text.

    Args:
        book: the document, e.g. from :func:`rule_book`.
        format: ``"markdown"``, ``"rst"`` or ``"html"`` (a fragment: ``<h1>``,
            ``<h2>``, ``<p>``, ``<ul>``, ``<ol>`` and ``<table>`` elements).

    Returns:
        The text, ending with a newline. Sentences stating an assumed option
        end with a mark (†, ‡ …) explained in a final "Notes" section.

    Raises:
        CanastaError: ``format`` is not one of :data:`FORMATS` (a ``ValueError`` too).
    """
    cls = _RENDERERS.get(format)
    if cls is None:
        from canasta.errors import CanastaError

        raise CanastaError(f"unknown format {format!r}: expected one of {', '.join(FORMATS)}")
    return cls(_Notes(book.variant)).render(book)


def describe(variant: Variant, format: str = "markdown") -> str:
    """Return the complete rule book of ``variant`` in plain English.

    Args:
        variant: the rules, e.g. ``canasta.load_variant("classic")``.
        format: ``"markdown"``, ``"rst"`` or ``"html"``.

    Returns:
        The rule book, with its title and source, then players and cards, the
        deal, a turn, melds, the first meld, canastas, the discard pile, red
        and black 3s, the foot, going out, the end of the stock, scoring and
        the end of the game. Rules the source text does not fix are marked and
        explained in notes.

    Raises:
        CanastaError: ``format`` is unknown.
    """
    return render(rule_book(variant), format)


# --------------------------------------------------------------------------- differences

_SET_VALUED = frozenset({"wilds.ranks", "deal.upcard_covered_if", "pile.stop_cards"})


def _get(v: Variant, path: str) -> Any:
    obj: Any = v
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _top_paths() -> list[str]:
    return [p for p in _RULES if p.count(".") == 1]


def _differs(v: Variant, o: Variant, path: str) -> bool:
    a, b = _get(v, path), _get(o, path)
    if path in _SET_VALUED:
        return set(a) != set(b)
    return bool(a != b)


def difference_sentences(variant: Variant, other: Variant) -> list[Text]:
    """The rules of ``variant`` that differ from those of ``other``, in rule-book order.

    Args:
        variant: the rules described.
        other: the rules compared with.

    Returns:
        One sentence per differing option that changes play in ``variant``
        (options stated together give one sentence).
    """
    out: list[Text] = []
    seen: dict[str, int] = {}
    for path in _top_paths():
        rule = _RULES[path]
        if not _differs(variant, other, path) or not rule.relevant(variant):
            continue
        if rule.instead is None and rule.say(variant) == rule.say(other):
            continue
        text = rule.instead(variant, other) if rule.instead else rule.say(variant)
        if text in seen:
            old = out[seen[text]]
            out[seen[text]] = Text(old.text, (*old.paths, path))
            continue
        seen[text] = len(out)
        out.append(Text(text, (path,)))
    return out


def describe_diff(variant: Variant, other: Variant, format: str = "markdown") -> str:
    """State only the rules in which ``variant`` differs from ``other``.

    Args:
        variant: the rules described, e.g. ``load_variant("draw-two")``.
        other: the rules they are compared with, e.g. ``load_variant("classic")``.
        format: ``"markdown"``, ``"rst"`` or ``"html"``.

    Returns:
        A short document with a title, then one rule per differing option
        ("Draw two cards from the stock instead of one."), in rule-book order.

    Raises:
        CanastaError: ``format`` is unknown.
    """
    sentences = difference_sentences(variant, other)
    title = f"{_title(variant)}: differences from {_title(other)}"
    if sentences:
        lead = Paragraph((Text(f"The rules of {_title(other)} apply, except:"),))
        blocks: tuple[Block, ...] = (lead, BulletList(tuple(Paragraph((s,)) for s in sentences)))
    else:
        blocks = (Paragraph((Text(f"The rules are the same as those of {_title(other)}."),)),)
    return render(RuleBook(title, blocks, (), variant), format)


# --------------------------------------------------------------------------- comparison


def _cmp_players(v: Variant) -> str:
    if _partners(v):
        return f"{v.players.count}, in {len(v.sides)} partnerships"
    return f"{v.players.count}, each for themself"


def _cmp_decks(v: Variant) -> str:
    d, j = v.deck.decks, v.deck.jokers_per_deck
    return f"{d} {'deck' if d == 1 else 'decks'}, {d * j} jokers ({d * (52 + j)} cards)"


def _cmp_dealt(v: Variant) -> str:
    text = f"{v.deal.hand_size}"
    if _foot(v):
        text += f" + foot of {v.deal.foot_size}"
    return text + ("" if v.deal.upcard else ", no upcard")


def _cmp_meld(v: Variant) -> str:
    m = v.melds
    text = f"{_new_size(v)}+ cards, {m.min_naturals}+ natural, at most {m.max_wilds} wild"
    if m.max_wilds >= 2 and m.second_wild == "by_size":
        text += f" (second from card {m.second_wild_size})"
    elif m.max_wilds >= 2 and m.second_wild == "by_naturals":
        text += f" (second after {m.second_wild_naturals} natural)"
    if m.max_size is not None:
        text += f"; at most {m.max_size} cards"
    if m.wild_melds:
        text += "; wild melds"
    return text


def _cmp_opening(v: Variant) -> str:
    o = v.opening
    if o.by == "round":
        return "by hand: " + ", ".join(str(x) for x in o.round_table) if o.round_table else "none"
    if o.by == "score":
        below, steps = _score_steps(v)
        values = [below, *(m for _, m in steps)]
        return "by score: " + ", ".join(str(x) for x in values) if any(values) else "none"
    return "none"


def _cmp_pile(v: Variant) -> str:
    if not _pile_takeable(v):
        return "never taken"
    p = v.pile
    ways = []
    if p.take_natural_pair:
        ways.append("natural pair")
    if p.take_natural_and_wild:
        ways.append("natural and wild")
    if p.take_lay_off:
        ways.append("lay-off" + ("" if p.lay_off_after_canasta else " (not after a canasta)"))
    if p.blocked_by_meld_size is not None:
        ways.append(f"blocked by a meld of {p.blocked_by_meld_size}+")
    return ", ".join(ways)


def _cmp_frozen(v: Variant) -> str:
    p = v.pile
    by = [x for x, on in (("wild", p.frozen_by_wild), ("red 3", p.frozen_by_red_three),
                          ("before opening", p.frozen_until_opened)) if on]
    return ", ".join(by) if by else "never"


def _cmp_canastas(v: Variant) -> str:
    c = v.canastas
    text = f"{c.size} cards; natural {c.natural_bonus}"
    if _mixed_possible(v):
        text += f", mixed {c.mixed_bonus}"
    if v.melds.wild_melds:
        text += f", wild {c.wild_bonus}"
    return text


def _cmp_red(v: Variant) -> str:
    t = v.threes
    text = f"{t.red_bonus} each"
    if t.red_all_bonus is not None:
        text += f", {t.red_all_bonus} for all"
    return text


def _cmp_out(v: Variant) -> str:
    total, _ = _kind_requirements(v)
    g = v.going_out
    kinds = [f"{n} {k}" for k, n in (("natural", g.natural_canastas), ("mixed", g.mixed_canastas),
                                       ("wild", g.wild_canastas)) if n]
    text = str(total)
    if kinds:
        text += ": " + ", ".join(kinds)
    if g.final_discard == "required":
        text += "; must discard"
    return text


def _cmp_bonus(v: Variant) -> str:
    text = str(v.scoring.going_out_bonus)
    if v.going_out.concealed:
        text += f" (concealed {v.scoring.concealed_bonus})"
    return text


def _cmp_game(v: Variant) -> str:
    g = v.game
    parts = []
    if g.target is not None:
        parts.append(f"{g.target} points")
    if g.rounds is not None:
        parts.append(f"{g.rounds} hands")
    return " or ".join(parts) if parts else "no set end"


_COMPARE_ROWS: tuple[tuple[str, Callable[[Variant], str]], ...] = (
    ("Players", _cmp_players),
    ("Cards", _cmp_decks),
    ("Dealt", _cmp_dealt),
    ("Draw", lambda v: f"{v.draw.count} {'card' if v.draw.count == 1 else 'cards'}"),
    ("Wild cards", lambda v: ", ".join(_wild_names(v)) or "none"),
    ("Melds", _cmp_meld),
    ("First meld minimum", _cmp_opening),
    ("Pile frozen by", _cmp_frozen),
    ("Pile taken with", _cmp_pile),
    ("Canastas", _cmp_canastas),
    ("Red 3s", _cmp_red),
    ("Canastas to go out", _cmp_out),
    ("Going-out bonus", _cmp_bonus),
    ("Game ends at", _cmp_game),
)


def compare(variants: Sequence[Variant], format: str = "markdown") -> str:
    """Set the main rules of several variants side by side, one column per variant.

    Args:
        variants: the variants to compare (one or more).
        format: ``"markdown"``, ``"rst"`` or ``"html"``.

    Returns:
        A document with one table, whose rows are players, cards, the deal, the
        draw, wild cards, melds, the first meld, the pile, canastas, red 3s,
        going out and the end of the game.

    Raises:
        CanastaError: ``format`` is unknown or ``variants`` is empty.
    """
    if not variants:
        from canasta.errors import CanastaError

        raise CanastaError("compare needs at least one variant")
    header = ("Rule", *(_title(v) for v in variants))
    rows = tuple(
        (Text(label), *(Text(fn(v)) for v in variants)) for label, fn in _COMPARE_ROWS
    )
    book = RuleBook("Variants compared", (Table(header, rows),), (), None)
    return render(book, format)
