"""Cards, ranks, suits and their notation.

A :class:`Card` is a small ``int`` (``rank * 4 + suit``), so hands can be kept
as sorted tuples that hash and compare quickly, while ``str()`` and ``repr()``
still read like cards. Several decks hold identical cards; two ``KH`` from two
decks are equal, exactly as a card player treats them.
"""

from __future__ import annotations

from collections.abc import Iterable

from canasta.errors import NotationError

__all__ = [
    "JOKER",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "Card",
    "build_deck",
    "parse_card",
    "parse_cards",
    "parse_rank",
]

#: Suit letters in code order: clubs, diamonds, hearts, spades.
SUITS = "CDHS"
_SUIT_SYMBOLS = {"♣": 0, "♦": 1, "♥": 2, "♠": 3}

#: Rank numbers: 2..10 as themselves, J=11, Q=12, K=13, A=14, joker=15.
JOKER = 15
RANKS: tuple[int, ...] = tuple(range(2, 16))

#: Canonical rank names, as written in notation and in variant profiles.
RANK_NAMES: dict[int, str] = {
    **{r: str(r) for r in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
    15: "JK",
}
_RANK_BY_NAME: dict[str, int] = {name: rank for rank, name in RANK_NAMES.items()}
_RANK_BY_NAME.update({"T": 10, "JOKER": 15})


def parse_rank(text: str) -> int:
    """Return the rank number named by ``text`` (``"K"``, ``"10"``, ``"T"``, ``"JK"``).

    Raises:
        NotationError: ``text`` names no rank.
    """
    rank = _RANK_BY_NAME.get(text.strip().upper())
    if rank is None:
        raise NotationError(
            f"{text!r} is not a rank: expected one of "
            + ", ".join(RANK_NAMES[r] for r in RANKS)
        )
    return rank


class Card(int):
    """One playing card, an ``int`` equal to ``rank * 4 + suit`` (a joker is ``60``).

    Build cards with :meth:`parse` or :func:`parse_cards`; ``str(card)`` gives the
    canonical notation (``KH``, ``10S``, ``JK``) and ``repr(card)`` pastes back as
    code.
    """

    __slots__ = ()

    def __new__(cls, code: int) -> Card:
        """Return the card with integer ``code``.

        Raises:
            NotationError: ``code`` is no card's code.
        """
        cached = _BY_CODE.get(code) if _BY_CODE else None
        if cached is not None:
            return cached
        rank, suit = divmod(code, 4)
        if rank not in RANK_NAMES or (rank == JOKER and suit != 0):
            raise NotationError(f"{code!r} is not a card code")
        return super().__new__(cls, code)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card such as ``"KH"``, ``"10s"``, ``"T♠"`` or ``"JK"``.

        Raises:
            NotationError: ``text`` is not a card; the message quotes it.
        """
        return parse_card(text)

    @property
    def rank(self) -> int:
        """The rank number (2..14; 15 for a joker)."""
        return int(self) >> 2

    @property
    def suit(self) -> str | None:
        """The suit letter (``C D H S``), or ``None`` for a joker."""
        return None if self.is_joker else SUITS[int(self) & 3]

    @property
    def is_joker(self) -> bool:
        """Whether this card is a joker."""
        return int(self) >> 2 == JOKER

    @property
    def is_red(self) -> bool:
        """Whether this card is a diamond or a heart."""
        return not self.is_joker and int(self) & 3 in (1, 2)

    def __str__(self) -> str:
        if self.is_joker:
            return "JK"
        return RANK_NAMES[self.rank] + SUITS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_BY_CODE: dict[int, Card] = {}
for _rank in RANKS:
    for _suit in range(1 if _rank == JOKER else 4):
        _code = _rank * 4 + _suit
        _BY_CODE[_code] = Card(_code)
_BY_TEXT: dict[str, Card] = {}
for _card in _BY_CODE.values():
    _BY_TEXT[str(_card)] = _card
    if _card.rank == 10:
        _BY_TEXT["T" + str(_card)[2:]] = _card
_BY_TEXT["JOKER"] = _BY_CODE[JOKER * 4]


def parse_card(text: str) -> Card:
    """Parse one card token; see :meth:`Card.parse`.

    Raises:
        NotationError: ``text`` is not a card; the message quotes it.
    """
    token = text.strip().upper()
    if token and token[-1] in _SUIT_SYMBOLS:
        token = token[:-1] + SUITS[_SUIT_SYMBOLS[token[-1]]]
    card = _BY_TEXT.get(token)
    if card is None:
        raise NotationError(
            f"{text!r} is not a card: expected a rank (2-10, T, J, Q, K, A) followed "
            "by a suit (C, D, H, S or ♣♦♥♠), or JK for a joker"
        )
    return card


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, e.g. ``"KH 10S TS 2C JK 3D"``.

    Also accepts an iterable of card tokens or :class:`Card` values.

    Raises:
        NotationError: a token is not a card; the message quotes it.
    """
    if isinstance(text, str):
        tokens: Iterable[object] = text.replace(",", " ").split()
    elif isinstance(text, Iterable):
        tokens = text
    else:
        raise NotationError(f"{text!r} is not a card: expected text such as 'KH 10S'")
    out = []
    for token in tokens:
        if isinstance(token, Card):
            out.append(token)
        elif isinstance(token, str):
            out.append(parse_card(token))
        else:
            raise NotationError(f"{token!r} is not a card: expected text such as 'KH'")
    return tuple(out)


def build_deck(decks: int, jokers_per_deck: int) -> tuple[Card, ...]:
    """Return the cards of ``decks`` standard decks plus their jokers, in code order."""
    one = [c for c in _BY_CODE.values() if not c.is_joker]
    joker = _BY_CODE[JOKER * 4]
    cards = one * decks + [joker] * (jokers_per_deck * decks)
    return tuple(sorted(cards))
