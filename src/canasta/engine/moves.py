"""Moves and their notation.

A turn is a sequence of small decisions, each a :class:`Move`:

=====================  ==========================================================
notation               meaning
=====================  ==========================================================
``draw``               draw from the stock (as many cards as the variant says)
``take pair``          take the pile, melding its top card with two naturals
``take 2`` ``take JK`` take an unfrozen pile with one natural and that wild card
``take layoff``        take an unfrozen pile, adding its top card to the side's meld
``take finish``        (Hand and Foot) finish the blocking meld, start a new one
``pass``               the stock is empty and the player does not take the pile
``meld 7 7 JK``        lay a new meld (cards named by rank; ``3`` is a black 3)
``meld 7H 8H 9H``      lay a new sequence (where the variant has them): cards of one suit
``add 7H-9H 10H``      add a card to the side's sequence of hearts from 7 to 9
``take 7H-9H``         take an unfrozen pile, adding its top card to that sequence
``add K 2``            add one card (here a 2) to the side's meld of kings
``add W JK``           add a joker to the side's wild meld
``add K:2 K``          add a king to the side's second meld of kings (where a side
                       may hold several melds of one rank, ``melds.duplicate_ranks: any``)
``combine K K:2``      combine the side's second meld of kings into its first
``join 4H-6H 7H-9H``   (``sequences.join``) join two of the side's sequences that meet end to end
``take layoff 2nd``    take the pile, laying its top card off on the side's second
                       meld of that rank
``foot``               pick up the foot
``back``               take back the cards of the last meld or add laid this turn
``ask``                ask the partner "may I go out?" (before laying cards)
``yes`` ``no``         the partner's binding answer
``discard 9``          discard a card; the turn passes on
``out 9``              discard the last card, going out
``special pairs``      lay the whole hand at once as the special hand of that name
``lay 3R`` ``lay 3``   lay out the red (black) 3 kept in hand, drawing its replacement
``next``               deal the next hand
=====================  ==========================================================

Cards of one rank are interchangeable, so a move names ranks, not suits:
``discard 9`` discards one of the player's 9s. When parsing, a full card such as
``9H`` is accepted too and stands for its rank. Sequences are the exception:
their cards are named with their suit, and a sequence on the table by its
lowest and highest card (``7H-9H``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import ClassVar, Final

import attrs

from canasta.cards import RANK_NAMES, SUITS, parse_rank
from canasta.engine.card_words import sequence_cards, sequence_span, suited_card
from canasta.errors import NotationError
from canasta.limits import MAX_MOVE_CARDS, MAX_MOVE_CHARS, quote, shown

__all__ = [
    "Add",
    "AddToSequence",
    "Answer",
    "Ask",
    "Combine",
    "Discard",
    "Draw",
    "Foot",
    "JoinSequences",
    "LaySpecial",
    "LayThree",
    "Meld",
    "MeldSequence",
    "Move",
    "NextHand",
    "Pass",
    "TakeBack",
    "TakePile",
    "TakeSequence",
    "TakeTopCard",
    "canonical",
    "kind_name",
    "meld_ref",
    "parse_move",
]

#: Kind number of a red 3 (a black 3 is kind 3; other kinds are rank numbers).
RED_THREE: Final = 1
#: Target name of a side's wild meld in ``add`` moves.
WILD_TARGET: Final = 0
#: Target (meld kind) of a sequence: natural cards of one suit in rank order.
SEQUENCE: Final = 16


def card_name(rank: int, suit: int) -> str:
    """Notation of the card of ``rank`` and ``suit`` (0 to 3, ``CDHS``): ``10H``."""
    try:
        return RANK_NAMES[rank] + SUITS[suit]
    except (KeyError, IndexError, TypeError):
        # a hand-built move may hold numbers that are no card: show them as they are
        return f"{shown(rank)}/{shown(suit)}"


def span_name(suit: int, low: int, high: int) -> str:
    """Notation of a sequence on the table by its lowest and highest card: ``7H-9H``."""
    return f"{card_name(low, suit)}-{card_name(high, suit)}"


def kind_name(kind: int) -> str:
    """Notation of a card kind: the rank name, ``W`` for the wild-meld target."""
    if kind == WILD_TARGET:
        return "W"
    if kind == RED_THREE:
        return "3R"
    if kind == SEQUENCE:
        return "sequence"
    # a hand-built move may hold a number that is no kind: show it as it is
    name = RANK_NAMES.get(kind) if isinstance(kind, int) else None
    return name if name is not None else shown(kind)


def meld_ref(target: int, nth: object) -> str:
    """Notation of the side's ``nth`` open meld of ``target`` (0 for the first): ``K``, ``K:2``.

    Where a side may hold several melds of one rank (``melds.duplicate_ranks:
    any``) they are told apart by their place among the side's open melds of
    that rank, in the order they were laid; everywhere else ``nth`` is 0.
    """
    name = kind_name(target)
    if nth == 0:
        return name
    return f"{name}:{shown(nth + 1)}" if type(nth) is int and nth > 0 else f"{name}:{shown(nth)}"


#: The place of a meld written as an ordinal: ``2nd``, ``3rd``, ``11th``.
_ORDINAL = re.compile(r"[0-9]{1,2}(st|nd|rd|th)")


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ... ``11th``, ``12th``, ``21st``."""
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def _parse_ref(token: str, text: str) -> tuple[int, int]:
    """``(target, nth)`` of a meld reference: ``K`` is ``(13, 0)``, ``K:2`` is ``(13, 1)``."""
    # ':' (not '#', which starts a comment in game records)
    name, sep, number = token.partition(":")
    if not sep:
        return _parse_kind(token, text), 0
    if not (number.isascii() and number.isdigit() and len(number) <= 2 and 1 <= int(number) <= 99) or not name:
        raise NotationError(
            f"{quote(token)} in move {quote(text)} is not a meld: expected a rank, or a rank and the "
            "meld's number among the side's melds of it, e.g. 'K:2'"
        )
    return _parse_kind(name, text), int(number) - 1


def _parse_kind(token: str, text: str) -> int:
    up = token.upper()
    if up == "W":
        return WILD_TARGET
    if up in ("3R",):
        return RED_THREE
    try:
        return parse_rank(up)
    except NotationError:
        pass
    # A full card such as 9H stands for its rank.
    if len(up) >= 2:
        try:
            from canasta.cards import parse_card

            card = parse_card(up)
        except NotationError:
            pass
        else:
            if card.rank == 3 and card.is_red:
                return RED_THREE
            return card.rank
    raise NotationError(f"{quote(token)} in move {quote(text)} is not a card rank")


def _sorted_suits(suits: object) -> object:
    # suits in order, so that one choice of cards is one move; anything else
    # is kept as given, for the engine to refuse by name (see malformed)
    if isinstance(suits, (tuple, list)) and all(type(x) is int for x in suits):
        return tuple(sorted(suits))
    return suits


def _card_tail(codes: object) -> str:
    """`` 7C 7H``: the cards a take names from the hand, where suits matter."""
    if not codes or not isinstance(codes, tuple):
        return ""
    return "".join(" " + card_name(c >> 2, c & 3) if type(c) is int else f" {shown(c)}" for c in codes)


_SUIT_FIELDS = frozenset({"suit", "suits", "naturals", "meld"})


class Move:
    """Base class of every move. Moves are frozen values; ``str(move)`` is its notation.

    ``repr(move)`` is code that gives the move back, in its notation:
    ``parse_move('meld K K 2')``.
    """

    __slots__ = ()
    verb: ClassVar[str] = ""

    def __repr__(self) -> str:
        # Cards as a player writes them, not as kind numbers; a hand-built move
        # that is no move (see malformed) shows its fields instead.
        try:
            text = str(self)
            if parse_move(text) == self:
                return f"parse_move({quote(text)})"
        except Exception:  # a repr must not fail on a malformed move
            pass
        return field_text(self)


def field_text(move: Move) -> str:
    """``Meld(kinds=(7, 7, ...))``: a move as its class and fields, each shown short.

    For a move built in code that may be no move at all: it costs little and
    is short whatever the fields hold (see :func:`~canasta.limits.shown`).
    """
    cls: type = type(move)
    # the suit fields at their default (where suits do not matter) are left out
    names = [
        a.name for a in attrs.fields(cls)
        if a.name not in _SUIT_FIELDS or not _is_default(getattr(move, a.name), a.default)
    ] if attrs.has(cls) else []
    fields = ", ".join(f"{name}={shown(getattr(move, name))}" for name in names)
    return f"{cls.__name__}({fields})"


def _is_default(value: object, default: object) -> bool:
    # compared by identity and type first: a field may hold anything, whose == may fail
    return value is default or (type(value) is type(default) and value == default)


@attrs.frozen(slots=True, repr=False)
class Draw(Move):
    """Draw from the stock."""

    verb: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"


@attrs.frozen(slots=True, repr=False)
class Pass(Move):
    """Decline the pile when the stock is empty: the hand ends."""

    verb: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@attrs.frozen(slots=True, repr=False)
class TakePile(Move):
    """Take the whole discard pile.

    Attributes:
        way: ``"pair"`` (top card plus two naturals from hand), ``"wild"`` (one
            natural and one wild card ``wild``), ``"layoff"`` (top card onto the
            side's meld of its rank) or ``"finish"`` (Hand and Foot: finish the
            blocking meld, then meld the top card with the naturals a new meld needs
            besides it: two, where a new meld has three cards).
        wild: the wild kind used with ``way="wild"``, else 0.
        naturals: where suits matter, the natural cards from the hand, as
            card codes (``take pair 7C 7H``, ``take 2 7S``).
    """

    verb: ClassVar[str] = "take"
    way: str
    wild: int = 0
    #: where suits matter (a variant with sequences): the natural cards from the
    #: hand, as card codes (two for ``pair``, one for ``wild``), else empty
    naturals: tuple[int, ...] = attrs.field(default=(), converter=_sorted_suits)
    #: with ``layoff``, where a side may hold several melds of a rank
    #: (``melds.duplicate_ranks: any``): which of its open melds of the top
    #: card's rank takes the card (0 for the first); else 0
    meld: int = 0

    def __str__(self) -> str:
        tail = _card_tail(self.naturals)
        if self.meld != 0:
            tail += f" {ordinal(self.meld + 1)}" if type(self.meld) is int and 0 < self.meld < 99 else f" {shown(self.meld)}"
        if self.way == "wild":
            return f"take {kind_name(self.wild)}{tail}"
        return f"take {self.way if isinstance(self.way, str) else shown(self.way)}{tail}"


def _meld_order(kinds: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    # naturals first, then 2s and jokers, as a card player reads a meld. A move
    # does not know its variant's wild ranks: where another rank is wild, the
    # other kind that the meld holds most often comes first (its naturals, unless
    # it holds as many wild cards of that rank), so that ``suits`` names them
    try:
        if len(kinds) > MAX_MOVE_CARDS:
            # refused for its size before any rule; the ordering below counts each
            # kind for each card, which would take quadratic time on a huge field
            return tuple(kinds)
        return tuple(sorted(kinds, key=lambda k: (True, 0, k) if k in (2, 15) else (False, -kinds.count(k), k)))
    except TypeError:
        # kinds that do not compare (None among ints, say): kept as given, so
        # the engine can refuse the move by name instead of failing here
        return tuple(kinds)


@attrs.frozen(slots=True, repr=False)
class Meld(Move):
    """Lay a new meld from hand; ``kinds`` are card kinds (rank numbers), naturals first.

    Where suits matter (a variant with sequences), ``suits`` names the suit of
    each natural card (``meld 7C 7D 7S 2``), so the player chooses which of
    their 7s stay in hand.
    """

    verb: ClassVar[str] = "meld"
    kinds: tuple[int, ...] = attrs.field(converter=_meld_order)
    #: where suits matter (a variant with sequences): the suits of the natural cards, else empty
    suits: tuple[int, ...] = attrs.field(default=(), converter=_sorted_suits)

    def __str__(self) -> str:
        names = [kind_name(k) for k in self.kinds]
        if self.suits and isinstance(self.suits, tuple) and len(self.suits) <= len(names):
            # the naturals come first: they are the cards the suits name
            for i, suit in enumerate(self.suits):
                names[i] = card_name(self.kinds[i], suit)
        return "meld " + " ".join(names)


@attrs.frozen(slots=True, repr=False)
class Add(Move):
    """Add one card of kind ``kind`` to the side's open meld ``target`` (a rank, or 0 = wild meld).

    Where a side may hold several open melds of one rank (``melds.duplicate_ranks:
    any``), ``meld`` says which: its place among them, 0 for the first
    (``add K:2 K`` adds a king to the second).
    """

    verb: ClassVar[str] = "add"
    target: int
    kind: int
    #: where suits matter: the suit of the natural card added, else -1
    suit: int = -1
    #: which of the side's open melds of ``target`` (0: the first; see above)
    meld: int = 0

    def __str__(self) -> str:
        card = card_name(self.kind, self.suit) if self.suit != -1 else kind_name(self.kind)
        return f"add {meld_ref(self.target, self.meld)} {card}"


@attrs.frozen(slots=True, repr=False)
class Combine(Move):
    """Combine two of the side's open melds of rank ``target`` into one (``melds.duplicate_ranks: any``).

    ``first`` and ``second`` are their places among the side's open melds of
    that rank (0 for the first, ``first < second``): the cards of the second
    join the first, which keeps its place. ``combine K K:2``.
    """

    verb: ClassVar[str] = "combine"
    target: int
    first: int
    second: int

    def __str__(self) -> str:
        return f"combine {meld_ref(self.target, self.first)} {meld_ref(self.target, self.second)}"


@attrs.frozen(slots=True, repr=False)
class MeldSequence(Move):
    """Lay a new sequence: the natural cards of ``suit`` (0 to 3, ``CDHS``) from rank ``low`` to ``high``.

    Where ``sequences.wild_in_gap`` allows it, a wild card of kind ``wild``
    stands for the rank ``gap`` between two of the natural cards:
    ``meld 7H 2 9H`` is ``MeldSequence(2, 7, 9, wild=2, gap=8)``. ``wild`` 0
    (and ``gap`` 0) is a sequence of natural cards only.
    """

    verb: ClassVar[str] = "meld"
    suit: int
    low: int
    high: int
    wild: int = 0
    gap: int = 0

    def __str__(self) -> str:
        if not (type(self.low) is int and type(self.high) is int and self.high - self.low < 20):
            return f"meld {card_name(self.low, self.suit)}..{card_name(self.high, self.suit)}"
        if self.wild == 0 and self.gap == 0:
            return "meld " + " ".join(card_name(k, self.suit) for k in range(self.low, self.high + 1))
        cards = [card_name(k, self.suit) for k in range(self.low, self.high + 1) if k != self.gap]
        # the wild card goes where it stands; a gap outside the span is written at that end
        place = self.gap - self.low if type(self.gap) is int else len(cards)
        cards.insert(max(0, min(len(cards), place)), kind_name(self.wild))
        return "meld " + " ".join(cards)


@attrs.frozen(slots=True, repr=False)
class AddToSequence(Move):
    """Add the card of ``rank`` to the side's sequence of ``suit`` from ``low`` to ``high``.

    The card goes on the end it fits: ``rank`` is ``high + 1`` or ``low - 1``.
    """

    verb: ClassVar[str] = "add"
    suit: int
    low: int
    high: int
    rank: int

    def __str__(self) -> str:
        return f"add {span_name(self.suit, self.low, self.high)} {card_name(self.rank, self.suit)}"


@attrs.frozen(slots=True, repr=False)
class JoinSequences(Move):
    """Join two of the side's sequences of ``suit`` that meet end to end (``sequences.join``):
    the one from ``low`` to ``middle - 1`` and the one from ``middle`` to ``high``.
    ``join 4H-6H 7H-9H``.
    """

    verb: ClassVar[str] = "join"
    suit: int
    low: int
    middle: int
    high: int

    def __str__(self) -> str:
        lower = span_name(self.suit, self.low, self.middle - 1) if type(self.middle) is int else "?"
        return f"join {lower} {span_name(self.suit, self.middle, self.high)}"


@attrs.frozen(slots=True, repr=False)
class TakeSequence(Move):
    """Take an unfrozen pile by adding its top card to the side's sequence of ``suit`` from ``low`` to ``high``."""

    verb: ClassVar[str] = "take"
    suit: int
    low: int
    high: int

    def __str__(self) -> str:
        return f"take {span_name(self.suit, self.low, self.high)}"


@attrs.frozen(slots=True, repr=False)
class TakeTopCard(Move):
    """Instead of drawing, take only the pile's top card onto an end of the side's sequence of
    ``suit`` from ``low`` to ``high`` (``sequences.top_card_pickup``)."""

    verb: ClassVar[str] = "take"
    suit: int
    low: int
    high: int

    def __str__(self) -> str:
        return f"take top {span_name(self.suit, self.low, self.high)}"


@attrs.frozen(slots=True, repr=False)
class Foot(Move):
    """Pick up the foot into the hand."""

    verb: ClassVar[str] = "foot"

    def __str__(self) -> str:
        return "foot"


@attrs.frozen(slots=True, repr=False)
class Ask(Move):
    """Ask the partner for permission to go out."""

    verb: ClassVar[str] = "ask"

    def __str__(self) -> str:
        return "ask"


@attrs.frozen(slots=True, repr=False)
class TakeBack(Move):
    """Take back the cards of the last meld or add laid this turn (``melds.rearrange``)."""

    verb: ClassVar[str] = "back"

    def __str__(self) -> str:
        return "back"


@attrs.frozen(slots=True, repr=False)
class Answer(Move):
    """The partner's answer to ``ask``: binding for the rest of the turn."""

    verb: ClassVar[str] = "answer"
    yes: bool

    def __str__(self) -> str:
        return "yes" if self.yes else "no"


@attrs.frozen(slots=True, repr=False)
class Discard(Move):
    """Discard one card of kind ``kind``; ``out`` when this discard goes out."""

    verb: ClassVar[str] = "discard"
    kind: int
    out: bool = False
    #: where suits matter (a variant with sequences): the card's suit, else -1
    suit: int = -1

    def __str__(self) -> str:
        card = card_name(self.kind, self.suit) if self.suit != -1 else kind_name(self.kind)
        return f"{'out' if self.out else 'discard'} {card}"


@attrs.frozen(slots=True, repr=False)
class LaySpecial(Move):
    """Lay the whole hand at once as the special hand called ``name`` (``special.hands``): the hand ends."""

    verb: ClassVar[str] = "special"
    name: str

    def __str__(self) -> str:
        return f"special {self.name if isinstance(self.name, str) else shown(self.name)}"


@attrs.frozen(slots=True, repr=False)
class LayThree(Move):
    """Lay out the 3 of kind ``kind`` kept in hand (``threes.keep_one``), replacing it from the stock.

    ``kind`` is :data:`RED_THREE` (``lay 3R``) or 3, a black 3 (``lay 3``).
    """

    verb: ClassVar[str] = "lay"
    kind: int

    def __str__(self) -> str:
        return f"lay {kind_name(self.kind)}"


@attrs.frozen(slots=True, repr=False)
class NextHand(Move):
    """Deal the next hand of the game."""

    verb: ClassVar[str] = "next"

    def __str__(self) -> str:
        return "next"


_SIMPLE: dict[str, Move] = {
    "draw": Draw(),
    "pass": Pass(),
    "foot": Foot(),
    "ask": Ask(),
    "yes": Answer(True),
    "no": Answer(False),
    "next": NextHand(),
    "back": TakeBack(),
}


#: What the name of a special hand may be (as ``special.hands[].name`` says).
_SPECIAL_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

#: The ranks whose cards keep their suit when text is read for no variant in
#: particular but must lose nothing (a move's JSON): 4 to A, the ranks sequences hold.
SUITED_BY_DEFAULT = frozenset(range(4, 15))


def parse_move(text: str, suited: Collection[int] = ()) -> Move:
    """Parse move notation (see the module documentation) into a :class:`Move`.

    Parsing checks the form only; whether the move is legal is the state's call.

    Args:
        text: the notation.
        suited: the ranks whose natural cards keep their suit. By default
            none: a full card such as ``9H`` stands for its rank.
            :meth:`GameState.parse_move` passes its variant's (the ranks its
            sequences may hold, where suits matter: ``discard 9H`` discards
            the 9 of hearts); :data:`~canasta.engine.moves.SUITED_BY_DEFAULT` reads every suit a
            sequence could need, for text that must lose nothing.

    Raises:
        NotationError: ``text`` is not a move; the message quotes it.
    """
    if not isinstance(text, str):
        raise NotationError(f"{shown(text)} is not a move: expected text such as 'draw'")
    if len(text) > MAX_MOVE_CHARS:
        raise NotationError(f"{quote(text)} is not a move: longer than {MAX_MOVE_CHARS} characters")
    words = text.split()
    if not words:
        raise NotationError("'' is not a move: expected text such as 'draw'")
    verb = words[0].lower()
    args = words[1:]
    if verb in _SIMPLE:
        if args:
            raise NotationError(f"{quote(text)}: {verb!r} takes no arguments")
        return _SIMPLE[verb]
    parse = _PARSERS.get(verb)
    if parse is None:
        raise NotationError(
            f"{quote(text)} is not a move: expected one of draw, take, pass, meld, add, foot, ask, "
            "yes, no, discard, out, special, lay, next, back, combine, join"
        )
    return parse(text, verb, args, suited)


_TAKE_FORMS = "expected 'take pair', 'take layoff', 'take finish' or 'take <wild rank>'"


def _parse_take(text: str, verb: str, args: list[str], suited: Collection[int]) -> Move:
    """``take ...``: the pile (by pair, layoff, finish or a wild card), or a sequence's top card or cards."""
    if not args:
        raise NotationError(f"{quote(text)}: {_TAKE_FORMS}")
    way = args[0].lower()
    if way == "top":
        if len(args) != 2 or "-" not in args[1]:
            raise NotationError(f"{quote(text)}: expected 'take top <sequence>', e.g. 'take top 7H-9H'")
        return TakeTopCard(*sequence_span(args[1], text))
    if "-" in way:
        if len(args) != 1:
            raise NotationError(f"{quote(text)}: expected 'take <sequence>', e.g. 'take 7H-9H'")
        return TakeSequence(*sequence_span(args[0], text))
    if way == "layoff" and len(args) == 2 and _ORDINAL.fullmatch(args[1].lower()):
        # 'take layoff 2nd': onto the side's second meld of the top card's rank
        number = int(args[1][:-2])
        if not 1 <= number <= 99 or args[1].lower() != ordinal(number):
            raise NotationError(f"{quote(args[1])} in move {quote(text)}: expected the meld's place, e.g. 'take layoff 2nd'")
        return TakePile("layoff", 0, (), number - 1)
    if any(suited_card(a) is None for a in args[1:]):
        # (where suits matter, the natural cards from the hand follow: 'take pair 7C 7H')
        raise NotationError(f"{quote(text)}: {_TAKE_FORMS}")
    naturals = tuple(
        kind * 4 + suit for kind, suit in (_suited_kind(a, text, suited) for a in args[1:]) if suit >= 0
    )
    if way in ("pair", "layoff", "finish"):
        return TakePile(way, 0, naturals)
    return TakePile("wild", _parse_kind(args[0], text), naturals)


def _parse_meld(text: str, verb: str, args: list[str], suited: Collection[int]) -> Move:
    """``meld ...``: a new meld of a rank, or a sequence."""
    if not args:
        raise NotationError(f"{quote(text)}: 'meld' needs the cards to meld, e.g. 'meld 7 7 7'")
    seq = sequence_cards(args)
    if seq is not None:
        suit, low, high, wild_at, gap = seq
        return MeldSequence(suit, low, high, _parse_kind(args[wild_at], text) if wild_at >= 0 else 0, gap)
    cards = [_suited_kind(a, text, suited) for a in args]
    return Meld(tuple(k for k, _ in cards), tuple(x for _, x in cards if x >= 0))


def _parse_add(text: str, verb: str, args: list[str], suited: Collection[int]) -> Move:
    """``add <meld> <card>``: a card added to a meld of a rank or to a sequence."""
    if len(args) != 2:
        raise NotationError(f"{quote(text)}: expected 'add <meld rank> <card>', e.g. 'add K 2'")
    if "-" in args[0]:
        suit, low, high = sequence_span(args[0], text)
        card = suited_card(args[1])
        if card is None or card[1] != suit:
            raise NotationError(
                f"{quote(args[1])} in move {quote(text)}: expected a card of the sequence's suit, "
                f"e.g. 'add {args[0]} {card_name(high + 1 if high < 14 else low - 1, suit)}'"
            )
        return AddToSequence(suit, low, high, card[0])
    kind, suit = _suited_kind(args[1], text, suited)
    target, nth = _parse_ref(args[0], text)
    return Add(target, kind, suit, nth)


def _parse_join(text: str, verb: str, args: list[str], suited: Collection[int]) -> Move:
    """``join <sequence> <sequence>``: two sequences of a suit that meet end to end."""
    if len(args) != 2 or "-" not in args[0] or "-" not in args[1]:
        raise NotationError(f"{quote(text)}: expected 'join <sequence> <sequence>', e.g. 'join 4H-6H 7H-9H'")
    (s1, lo1, hi1), (s2, lo2, hi2) = sequence_span(args[0], text), sequence_span(args[1], text)
    if (s2, lo2) < (s1, lo1):
        (s1, lo1, hi1), (s2, lo2, hi2) = (s2, lo2, hi2), (s1, lo1, hi1)
    if s1 != s2 or hi1 + 1 != lo2:
        raise NotationError(
            f"{quote(text)}: only two sequences of one suit that meet end to end join, e.g. 'join 4H-6H 7H-9H'"
        )
    return JoinSequences(s1, lo1, lo2, hi2)


def _parse_combine(text: str, verb: str, args: list[str], suited: Collection[int]) -> Move:
    """``combine <meld> <meld>``: two melds of one rank made one."""
    if len(args) != 2:
        raise NotationError(f"{quote(text)}: expected 'combine <meld> <meld>', e.g. 'combine K K:2'")
    (t1, first), (t2, second) = _parse_ref(args[0], text), _parse_ref(args[1], text)
    if t1 != t2:
        raise NotationError(f"{quote(text)}: only two melds of one rank combine, e.g. 'combine K K:2'")
    return Combine(t1, first, second)


def _parse_special(text: str, verb: str, args: list[str], suited: Collection[int]) -> Move:
    """``special <name>``: a special hand laid."""
    if len(args) != 1 or not _SPECIAL_NAME.fullmatch(args[0].lower()):
        raise NotationError(
            f"{quote(text)}: expected 'special <name of the hand>', e.g. 'special wild-pairs'"
        )
    return LaySpecial(args[0].lower())


def _parse_lay(text: str, verb: str, args: list[str], suited: Collection[int]) -> Move:
    """``lay 3R`` or ``lay 3``: a red or black 3 laid."""
    kind = _parse_kind(args[0], text) if len(args) == 1 else -1
    if kind not in (RED_THREE, 3):
        raise NotationError(f"{quote(text)}: expected 'lay 3R' (a red 3) or 'lay 3' (a black 3)")
    return LayThree(kind)


def _parse_discard(text: str, verb: str, args: list[str], suited: Collection[int]) -> Move:
    """``discard <card>`` or ``out <card>``: the discard that ends a turn, or that goes out."""
    if len(args) != 1:
        raise NotationError(f"{quote(text)}: expected '{verb} <card>', e.g. '{verb} 9'")
    kind, suit = _suited_kind(args[0], text, suited)
    return Discard(kind, verb == "out", suit)


#: The parser of each verb that takes arguments: (text, verb, its arguments, suited ranks) -> move.
_PARSERS: dict[str, Callable[[str, str, list[str], Collection[int]], Move]] = {
    "take": _parse_take,
    "meld": _parse_meld,
    "add": _parse_add,
    "join": _parse_join,
    "combine": _parse_combine,
    "special": _parse_special,
    "lay": _parse_lay,
    "discard": _parse_discard,
    "out": _parse_discard,
}


def canonical(move: Move, suited: Collection[int]) -> Move:
    """``move`` with the suits dropped of every card whose rank is not in ``suited``.

    Text read with every suit kept (:data:`SUITED_BY_DEFAULT`) becomes the move
    a variant lists: in a variant without sequences, ``discard 9H`` is ``discard 9``.
    """
    if isinstance(move, Discard) and move.suit != -1 and move.kind not in suited:
        return Discard(move.kind, move.out)
    if isinstance(move, Add) and move.suit != -1 and move.kind not in suited:
        return Add(move.target, move.kind, -1, move.meld)
    if isinstance(move, Meld) and move.suits and move.kinds and move.kinds[0] not in suited:
        return Meld(move.kinds)
    if isinstance(move, TakePile) and move.naturals and any(c >> 2 not in suited for c in move.naturals):
        return TakePile(move.way, move.wild)
    return move


def _suited_kind(token: str, text: str, suited: Collection[int]) -> tuple[int, int]:
    """``(kind, suit)`` of a card in a move: the suit only for a full card of a ``suited`` rank, else -1."""
    kind = _parse_kind(token, text)
    if kind in suited:
        card = suited_card(token)
        if card is not None:
            return kind, card[1]
    return kind, -1
