"""The card words of move notation: a card with its suit, a sequence by its cards or its end cards.

:func:`canasta.engine.moves.parse_move` reads a move's verb and what it
takes; these read the words that name cards by their suit (``10H``, ``9♥``)
and the sequences they make (``7H 8H 9H``, ``7H-9H``). They know no kind of
card but rank and suit: a word that is a rank alone is the caller's to read.
"""

from __future__ import annotations

from canasta.cards import parse_card
from canasta.errors import NotationError
from canasta.limits import quote

__all__ = ["SUIT_CHARS", "sequence_cards", "sequence_span", "suited_card"]

#: The last character of a card written with its suit (``10H``, ``9♥``).
SUIT_CHARS = frozenset("CDHScdhs♣♦♥♠")


def suited_card(token: str) -> tuple[int, int] | None:
    """``(rank, suit)`` of a full card other than a joker (``10H``), or ``None``."""
    # a rank alone ('7', 'JK') is no card: answered without parsing it (records
    # of many moves read every token through here)
    if len(token) < 2 or token[-1] not in SUIT_CHARS:
        return None
    try:
        card = parse_card(token)
    except NotationError:
        return None
    if card.is_joker or len(token) < 2:
        return None
    return card.rank, int(card) & 3


def sequence_cards(args: list[str]) -> tuple[int, int, int, int, int] | None:
    """``(suit, low, high, wild_at, gap)`` when ``args`` are cards of one suit in unbroken rank
    order, or such cards and one wild card (written by its rank, ``2`` or ``JK``) standing
    for a rank, else ``None``.

    ``wild_at`` is the place of the wild card's word in ``args`` (-1: none), for
    the caller to read its rank; ``gap`` the rank it stands for (0: none). The
    wild card stands for the one rank missing between the natural cards
    (``7H 2 9H``: the 8); where none is missing, for the rank beyond the end it
    is written at (``2 7H 8H``: the 6), which the rules then refuse by name.
    """
    plain = [i for i, a in enumerate(args) if len(a) < 2 or a[-1] not in SUIT_CHARS]
    if len(args) < 2 or len(plain) > 1 or (plain and len(args) < 3):
        return None
    cards = [suited_card(a) for i, a in enumerate(args) if i not in plain]
    if any(c is None for c in cards):
        return None
    ranks = sorted(c[0] for c in cards if c is not None)
    suits = {c[1] for c in cards if c is not None}
    if len(suits) != 1 or len(set(ranks)) != len(ranks):
        return None
    suit = suits.pop()
    if not plain:
        if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
            return None
        return suit, ranks[0], ranks[-1], -1, 0
    missing = [k for k in range(ranks[0], ranks[-1] + 1) if k not in ranks]
    if len(missing) > 1:
        return None
    at = plain[0]
    if missing:
        return suit, ranks[0], ranks[-1], at, missing[0]
    if at == 0:
        return suit, ranks[0] - 1, ranks[-1], at, ranks[0] - 1
    if at == len(args) - 1:
        return suit, ranks[0], ranks[-1] + 1, at, ranks[-1] + 1
    return None


def sequence_span(token: str, text: str) -> tuple[int, int, int]:
    """``(suit, low, high)`` of a sequence named by its end cards, ``7H-9H``, in move ``text``."""
    parts = token.split("-")
    ends = [suited_card(x) for x in parts] if len(parts) == 2 else []
    if len(ends) != 2 or ends[0] is None or ends[1] is None or ends[0][1] != ends[1][1] or ends[0][0] >= ends[1][0]:
        raise NotationError(
            f"{quote(token)} in move {quote(text)} is not a sequence: expected its lowest and highest card "
            "of one suit, e.g. '7H-9H'"
        )
    return ends[0][1], ends[0][0], ends[1][0]
