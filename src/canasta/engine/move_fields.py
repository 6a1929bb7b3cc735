"""The field checks of hand-built moves: whether a :class:`~canasta.engine.moves.Move`'s
fields can name a move at all (types and ranges), before any rule is asked.

Apart from :mod:`canasta.engine.moves` so that the move classes and their
notation stay within one module's size.
"""

from __future__ import annotations

from typing import Final

from canasta.engine.moves import (
    RED_THREE,
    Add,
    AddToSequence,
    Answer,
    Combine,
    Discard,
    JoinSequences,
    LaySpecial,
    LayThree,
    Meld,
    MeldSequence,
    Move,
    TakePile,
    TakeSequence,
    TakeTopCard,
)
from canasta.limits import MAX_MOVE_CARDS, QUOTE_CHARS, shown

__all__ = ["malformed"]


def _kind_ok(k: object, low: int = 1) -> bool:
    return type(k) is int and low <= k <= 15


def _place_ok(nth: object) -> bool:
    """Whether ``nth`` can be a meld's place among the side's melds of a rank (see :func:`~canasta.engine.moves.meld_ref`)."""
    return type(nth) is int and 0 <= nth <= 98


def _suit_ok(suit: object) -> bool:
    """Whether ``suit`` names a suit (0 to 3: C, D, H, S) or none (-1)."""
    return type(suit) is int and -1 <= suit <= 3


def _codes_ok(codes: object) -> bool:
    """Whether ``codes`` are cards as a move names them: ``kind * 4 + suit``, kinds 1 to 15."""
    return type(codes) is tuple and all(type(c) is int and 4 <= c <= 63 for c in codes)


#: The ways of taking the pile a :class:`~canasta.engine.moves.TakePile` names.
TAKE_WAYS: Final = ("pair", "wild", "layoff", "finish")


def _too_many(field: str, cards: object) -> str | None:
    """Why a move's list of cards is too long to be read (only its length is looked at), or ``None``."""
    if isinstance(cards, (tuple, list, str)) and len(cards) > MAX_MOVE_CARDS:
        return f"{field} names {len(cards)} cards; a move names at most {MAX_MOVE_CARDS}"
    return None


def malformed(move: Move) -> str | None:
    """Why a hand-built ``move`` is no move at all (a field of the wrong type or range), or ``None``.

    Moves from :meth:`~canasta.engine.state.GameState.legal_moves` and
    :func:`~canasta.engine.moves.parse_move` are always
    well formed; this names the field of one built in code with nonsense in it
    (``Discard("9")``, ``Meld(([1],))``), which the engine then refuses.
    A field's size is checked before its items (at most
    :data:`~canasta.limits.MAX_MOVE_CARDS` cards), and the message shows at
    most a few of them (:func:`~canasta.limits.shown`).
    """
    if isinstance(move, Discard):
        return _discard_problem(move)
    if isinstance(move, Meld):
        return _meld_problem(move)
    if isinstance(move, Add):
        return _add_problem(move)
    if isinstance(move, TakePile):
        return _take_pile_problem(move)
    if isinstance(move, Combine):
        return _combine_problem(move)
    if isinstance(move, LayThree) and not (type(move.kind) is int and move.kind in (RED_THREE, 3)):
        return f"LayThree.kind must be {RED_THREE} (a red 3) or 3 (a black 3), got {shown(move.kind)}"
    if isinstance(move, LaySpecial) and not (isinstance(move.name, str) and len(move.name) <= QUOTE_CHARS):
        return (
            f"LaySpecial.name must be the name of a special hand (text of at most {QUOTE_CHARS} characters), "
            f"got {shown(move.name)}"
        )
    if isinstance(move, Answer) and type(move.yes) is not bool:
        return f"Answer.yes must be True or False, got {shown(move.yes)}"
    if isinstance(move, (MeldSequence, AddToSequence, TakeSequence, TakeTopCard, JoinSequences)):
        return _sequence_problem(move)
    return None


def _discard_problem(move: Discard) -> str | None:
    """A discard names a card kind, whether it goes out, and a suit or none."""
    if not _kind_ok(move.kind):
        return f"Discard.kind must be a card kind from 1 to 15, got {shown(move.kind)}"
    if type(move.out) is not bool:
        return f"Discard.out must be True or False, got {shown(move.out)}"
    if not _suit_ok(move.suit):
        return f"Discard.suit must be a suit number from 0 to 3 (C, D, H, S) or -1, got {shown(move.suit)}"
    return None


def _meld_problem(move: Meld) -> str | None:
    """A new meld names card kinds, and the suits of its natural cards where suits matter."""
    # the sizes first: a field of a million cards is refused without reading it
    too_many = _too_many("Meld.kinds", move.kinds) or _too_many("Meld.suits", move.suits)
    if too_many is not None:
        return too_many
    if not isinstance(move.kinds, tuple) or not all(_kind_ok(k) for k in move.kinds):
        return f"Meld.kinds must be card kinds from 1 to 15, got {shown(move.kinds)}"
    if not (type(move.suits) is tuple and all(type(x) is int and 0 <= x <= 3 for x in move.suits)):
        return f"Meld.suits must be suit numbers from 0 to 3 (C, D, H, S), got {shown(move.suits)}"
    return None


def _add_problem(move: Add) -> str | None:
    """An add names a meld (its target and place) and a card (its kind and suit or none)."""
    if not _kind_ok(move.target, 0) or not _kind_ok(move.kind):
        return f"Add needs a meld target from 0 to 15 and a card kind from 1 to 15, got {shown(move.target)} and {shown(move.kind)}"
    if not _place_ok(move.meld):
        return f"Add.meld must be a meld's place from 0 to 98, got {shown(move.meld)}"
    if not _suit_ok(move.suit):
        return f"Add.suit must be a suit number from 0 to 3 (C, D, H, S) or -1, got {shown(move.suit)}"
    return None


def _take_pile_problem(move: TakePile) -> str | None:
    """Taking the pile names a way of taking, its wild card (for 'take wild' only), a meld's place, cards."""
    if move.way not in TAKE_WAYS:  # (compared, not hashed: the way may be any object)
        return f"TakePile.way must be one of 'pair', 'wild', 'layoff' or 'finish', got {shown(move.way)}"
    too_many = _too_many("TakePile.naturals", move.naturals)
    if too_many is not None:
        return too_many
    if not _kind_ok(move.wild, 0):
        return f"TakePile.wild must be a wild kind from 0 to 15, got {shown(move.wild)}"
    if not _place_ok(move.meld):
        return f"TakePile.meld must be a meld's place from 0 to 98, got {shown(move.meld)}"
    if move.wild != 0 and move.way != "wild":
        return f"TakePile.wild names the wild card of 'take wild' only (0 for 'take {move.way}'), got {shown(move.wild)}"
    if not _codes_ok(move.naturals):
        return f"TakePile.naturals must be cards as kind * 4 + suit (4 to 63), got {shown(move.naturals)}"
    return None


def _combine_problem(move: Combine) -> str | None:
    """Combining names a rank and two melds' places."""
    if not _kind_ok(move.target, 2):
        return f"Combine.target must be a rank from 2 to 15, got {shown(move.target)}"
    if not (_place_ok(move.first) and _place_ok(move.second)):
        return f"Combine needs two melds' places from 0 to 98, got {shown(move.first)} and {shown(move.second)}"
    return None


def _sequence_problem(
    move: MeldSequence | AddToSequence | TakeSequence | TakeTopCard | JoinSequences,
) -> str | None:
    """A move on sequences names a suit and ranks; a new sequence its wild card and the rank it stands for."""
    name = type(move).__name__
    if not (type(move.suit) is int and 0 <= move.suit <= 3):
        return f"{name}.suit must be a suit number from 0 to 3 (C, D, H, S), got {shown(move.suit)}"
    ranks = [move.low, move.high] + ([move.rank] if isinstance(move, AddToSequence) else [])
    if isinstance(move, JoinSequences):
        ranks.append(move.middle)
    if not all(type(k) is int and 2 <= k <= 14 for k in ranks):
        return f"{name} needs ranks from 2 to 14 (A), got {shown(ranks)}"
    if isinstance(move, MeldSequence) and not (
        (move.wild == 0 and move.gap == 0)
        or (_kind_ok(move.wild, 2) and type(move.gap) is int and 2 <= move.gap <= 14)
    ):
        return (
            f"MeldSequence needs a wild kind (2 to 15) and the rank (2 to 14) it stands for, "
            f"or 0 and 0 for natural cards only, got {shown(move.wild)} and {shown(move.gap)}"
        )
    return None
