"""Card faces: cards drawn for people, in HTML and on a colour terminal.

The rule book's HTML, the quick-reference sheet and the documentation's variant
pages show cards as small faces built here from card notation
(:func:`card_html`, :func:`cards_html`, with the style sheet :data:`CARD_STYLE`);
the terminal game colours red suits and marks wild cards (:func:`ansi_card`)
when :func:`use_colour` says the stream is a colour terminal.

A face never depends on colour alone, so it reads the same printed in black and
white: the suit is a symbol (♣ ♦ ♥ ♠), a wild card has a double border and a
star, a joker says "JK" under its star. Each face carries an ``aria-label``
("king of hearts, wild") for screen readers and a ``title`` for a mouse.
"""

from __future__ import annotations

import html
import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TextIO

from canasta.cards import RANK_NAMES, Card, parse_cards

__all__ = [
    "CARD_STYLE",
    "ansi_card",
    "ansi_cards",
    "card_html",
    "card_name",
    "cards_html",
    "hand_groups",
    "use_colour",
]

def hand_groups(hand: Iterable[int], is_wild: Sequence[bool]) -> dict[str, list[int]]:
    """A hand's card codes as the table shows them: one group per rank (``JK``, ``3R``
    and ``3B`` apart), in rank order with the wild ranks last; ``is_wild`` is indexed by kind."""
    groups: dict[str, list[int]] = {}
    for c in sorted(hand, key=lambda c: (is_wild[c >> 2], c >> 2, c)):
        card = Card(c)
        label = "JK" if card.is_joker else RANK_NAMES[card.rank]
        if card.rank == 3:
            label = "3R" if card.is_red else "3B"
        groups.setdefault(label, []).append(c)
    return groups


_SYMBOL = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
_SUIT_NAME = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_RANK_WORD = {11: "jack", 12: "queen", 13: "king", 14: "ace"}
_STAR = "\u2605"

#: The style sheet the faces of :func:`card_html` need; a page includes it once.
#: Colours are set on the face itself (white card, dark ink), so a face reads the
#: same on a light page, a dark theme and paper.
CARD_STYLE = """\
.cf { display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
      box-sizing: border-box; width: 2.05em; height: 2.75em; margin: 0.1em 0.06em; padding: 0;
      border: 1px solid #444; border-radius: 0.28em; background: #fff; color: #111;
      font: bold 0.95em/1 "DejaVu Sans", "Segoe UI Symbol", "Noto Sans", sans-serif;
      vertical-align: middle; white-space: nowrap; text-indent: 0;
      print-color-adjust: exact; -webkit-print-color-adjust: exact; }
.cf-r { font-size: 0.95em; letter-spacing: -0.04em; }
.cf-s { font-size: 1.15em; margin-top: 0.05em; }
.cf-red { color: #c0161d; }
.cf-wild { border: 3px double #111; position: relative; }
.cf-wild::after { content: "\\2605"; position: absolute; top: -0.1em; right: 0.05em;
                  font-size: 0.6em; color: #111; }
.cf-joker .cf-s { font-size: 0.62em; letter-spacing: 0; }
.cf-joker .cf-r { font-size: 1.2em; }
.cfs { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 0 0.05em;
       vertical-align: middle; }
tr:has(.cfs) > td { vertical-align: middle; }
.cfx { display: inline-block; margin: 0.2em 1.2em 0.2em 0; }
.cfx-cap { display: block; font-size: 0.85em; }
.cfx-no .cfs { opacity: 0.9; }
.cfx-no .cfx-cap::before { content: "\\2717\\a0"; }
.cfx-ok .cfx-cap::before { content: "\\2713\\a0"; }
"""


def card_name(card: Card | str, wild: bool = False) -> str:
    """A card in words: ``"king of hearts"``, ``"10 of clubs, wild"``, ``"joker"``.

    Args:
        card: a :class:`~canasta.cards.Card` or its notation (``"KH"``).
        wild: add ", wild" (a joker is always wild and says so by its name).

    Raises:
        NotationError: ``card`` is text that is not a card.
    """
    c = card if isinstance(card, Card) else parse_cards(card)[0]
    if c.is_joker:
        return "joker"
    rank = _RANK_WORD.get(c.rank, RANK_NAMES[c.rank])
    return f"{rank} of {_SUIT_NAME[c.suit or 'S']}" + (", wild" if wild else "")


def card_html(card: Card | str, wild: bool = False) -> str:
    """One card face as an HTML element (a ``<span>``, styled by :data:`CARD_STYLE`).

    Args:
        card: a :class:`~canasta.cards.Card` or its notation (``"KH"``, ``"JK"``).
        wild: mark the card as wild (a double border and a star); a joker is
            drawn with its star whether or not the rules make it wild.

    Returns:
        The element, on one line.

    Raises:
        NotationError: ``card`` is text that is not a card.
    """
    c = card if isinstance(card, Card) else parse_cards(card)[0]
    classes = ["cf"]
    if c.is_joker:
        classes.append("cf-joker")
        rank, suit = _STAR, "JK"
    else:
        rank, suit = RANK_NAMES[c.rank], _SYMBOL[c.suit or "S"]
        if c.is_red:
            classes.append("cf-red")
    if wild:
        classes.append("cf-wild")
    label = html.escape(card_name(c, wild), quote=True)
    return (
        f'<span class="{" ".join(classes)}" role="img" aria-label="{label}" title="{label}">'
        f'<span class="cf-r" aria-hidden="true">{rank}</span>'
        f'<span class="cf-s" aria-hidden="true">{suit}</span></span>'
    )


def _wild(card: Card, wild_ranks: Collection[str]) -> bool:
    if card.is_joker:
        return "JK" in wild_ranks
    return RANK_NAMES[card.rank] in wild_ranks


def cards_html(cards: str | Iterable[Card | str], wild_ranks: Collection[str] = ()) -> str:
    """A row of card faces: ``cards_html("9C 9D 2H", wild_ranks={"2", "JK"})``.

    Args:
        cards: card notation (as :func:`canasta.parse_cards` reads it) or cards.
        wild_ranks: the ranks the rules make wild (``variant.wilds.ranks``), marked.

    Returns:
        A ``<span class="cfs">`` holding one face per card, in order.

    Raises:
        NotationError: a card is not card notation.
    """
    faces = "".join(card_html(c, _wild(c, wild_ranks)) for c in parse_cards(cards))
    return f'<span class="cfs">{faces}</span>'


# SGR sequences: red for hearts and diamonds; bold and underlined for wild cards,
# so a wild card stands out on a terminal with no red too.
_RED = "\x1b[31m"
_WILD = "\x1b[1;4m"
_RESET = "\x1b[0m"


def ansi_card(card: Card | str, wild: bool = False, colour: bool = True) -> str:
    """A card's notation for a terminal: red suits in red, wild cards bold and underlined.

    Args:
        card: a :class:`~canasta.cards.Card` or its notation.
        wild: mark the card as wild.
        colour: ``False`` gives the plain notation, exactly ``str(card)``.

    Raises:
        NotationError: ``card`` is text that is not a card.
    """
    c = card if isinstance(card, Card) else parse_cards(card)[0]
    text = str(c)
    if not colour:
        return text
    style = (_WILD if wild else "") + (_RED if c.is_red else "")
    return f"{style}{text}{_RESET}" if style else text


def ansi_cards(cards: str | Iterable[Card | str], wild_ranks: Collection[str] = (),
               colour: bool = True) -> str:
    """Cards separated by spaces, as :func:`ansi_card` draws each.

    With ``colour=False`` this is exactly ``" ".join(str(c) for c in cards)``.
    """
    return " ".join(ansi_card(c, _wild(c, wild_ranks), colour) for c in parse_cards(cards))


def use_colour(stream: TextIO | None, environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour what is written to ``stream``.

    Never when the environment sets ``NO_COLOR`` to anything but the empty
    string (https://no-color.org), when ``TERM`` is ``dumb``, or when the stream
    is not a terminal (a pipe, a file, a test's buffer); otherwise yes.

    Args:
        stream: where the text goes (``None``: nowhere, so no).
        environ: the environment to read (default ``os.environ``).
    """
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR", "") != "" or env.get("TERM") == "dumb" or stream is None:
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (OSError, ValueError):  # a closed stream
        return False
