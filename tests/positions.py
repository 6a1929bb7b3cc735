"""Build exact game positions for scenario tests.

:func:`position` writes a :class:`~canasta.engine.state.GameState` directly, card by card,
so a test can set up the one situation a rule is about::

    s = position("classic", hands=["KH KS 5C 9D"], pile="7C KD", melds={0: ["QH QS QD"]})

Cards are written as text (``"KH 10S 2C JK 3D"``). Unless told otherwise, the
stock is filled with the cards of the variant's deck that the position does not
use (in a fixed shuffled order), so the position holds every card exactly once
whenever the cards named fit in the deck; scenario tests need not rely on that.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import canasta
from canasta.cards import build_deck, parse_cards
from canasta.engine import KIND, compile_rules, shuffle
from canasta.engine.meld_kinds import Reading, classify
from canasta.engine.melds import make_meld as _make_meld
from canasta.engine.moves import SEQUENCE, WILD_TARGET
from canasta.engine.state import PHASE_NAMES, GameState, MeldGroup, Turn
from canasta.variant.model import Variant

__all__ = ["cards", "meld", "moves", "play", "position", "refusal"]

Cards = str | Iterable[int]


def cards(text: Cards) -> tuple[int, ...]:
    """Card codes of ``text`` (``"KH KS 2C"`` or an iterable of codes), sorted."""
    if isinstance(text, str):
        return tuple(sorted(int(c) for c in parse_cards(text)))
    return tuple(sorted(int(c) for c in text))


def _ordered(text: Cards) -> tuple[int, ...]:
    """Card codes in the order written (for the stock and the pile: top card last)."""
    if isinstance(text, str):
        return tuple(int(c) for c in parse_cards(text))
    return tuple(int(c) for c in text)


def _variant(variant: str | Variant) -> Variant:
    return variant if isinstance(variant, Variant) else canasta.load_variant(variant)


def meld(variant: str | Variant, text: Cards) -> MeldGroup:
    """A meld of ``text``: its rank is that of its naturals (0 if all wild, 3 for black 3s).

    Natural cards of one suit in unbroken rank order are a sequence, where the
    variant has sequences.
    """
    r = compile_rules(_variant(variant))
    codes = cards(text)
    # a sequence is what the engine's classification reads as one
    got = classify(r.meld_kinds, codes)
    if isinstance(got, Reading) and got.target == SEQUENCE:
        return _make_meld(r, SEQUENCE, codes, got.suit)
    naturals = {KIND[c] for c in codes if not r.is_wild[KIND[c]]}
    if len(naturals) > 1:
        raise ValueError(f"meld {text!r} mixes ranks {sorted(naturals)}")
    rank = naturals.pop() if naturals else WILD_TARGET
    return _make_meld(r, rank, codes)


def _per(
    items: Sequence[Any] | Mapping[int, Any] | None, count: int, default: Any
) -> list[Any]:
    """Expand a list (shorter lists are padded) or a ``{index: value}`` map to ``count`` items."""
    out = [default] * count
    if items is None:
        return out
    if isinstance(items, Mapping):
        for i, value in items.items():
            out[i] = value
        return out
    for i, value in enumerate(items):
        out[i] = value
    return out


def _phase(phase: str | int) -> int:
    if isinstance(phase, int):
        return phase
    return PHASE_NAMES.index(phase.replace("_", " "))


def position(
    variant: str | Variant,
    *,
    hands: Sequence[Cards] | Mapping[int, Cards],
    melds: Mapping[int, Sequence[Cards]] | None = None,
    pile: Cards = "",
    stock: Cards | None = None,
    current: int = 0,
    phase: str | int = "play",
    opened: Sequence[bool] | None = None,
    scores: Sequence[int] | None = None,
    red_threes: Mapping[int, Cards] | None = None,
    feet: Sequence[Cards] | Mapping[int, Cards] | None = None,
    turn: Turn | Mapping[str, Any] | None = None,
    melded_before: Sequence[bool] | None = None,
    hand_number: int = 0,
    dealer: int | None = None,
    seed: int = 0,
    talons: Sequence[Cards] | None = None,
    asked_before: Sequence[bool] | None = None,
) -> GameState:
    """An exact position of ``variant`` (a bundled profile's name or a :class:`Variant`).

    Args:
        hands: each seat's hand, as a list (missing seats hold nothing) or ``{seat: cards}``.
        melds: ``{side: ["KH KS KD", ...]}``, each meld's cards as text.
        pile: the discard pile, bottom first (the top card is the last one written).
        stock: the stock, bottom first (the next card drawn is the last one written);
            by default the deck's unused cards, shuffled with a fixed seed.
        current: the seat to move.
        phase: ``"draw"``, ``"play"``, ``"answer"``, ``"hand over"`` or ``"game over"``.
        opened: whether each side has opened; by default, whether it has melds.
        scores: each side's cumulative score before this hand (it sets the opening minimum).
        red_threes: ``{side: "3H 3D"}``, red 3s laid.
        feet: each seat's foot (empty by default: picked up, or a variant without feet).
        turn: the turn so far, a :class:`Turn` or its fields (``pending`` may be text).
        melded_before: whether each seat melded on an earlier turn (for going out concealed).
        hand_number: 0-based hand (round) number.
        dealer: the dealer seat; by default the seat to the right of ``current``.
        seed: the game's seed (only used to deal later hands).
        talons: the talons set aside (``opening.talons_set_aside``), one string of cards
            each; by default dealt full from the cards left over, before the stock.
        asked_before: which seats have asked their partner this hand (``going_out.ask_once``).
    """
    v = _variant(variant)
    r = compile_rules(v)
    n = r.n
    n_sides = len(r.sides)
    hand_list = [cards(h) for h in _per(hands, n, "")]
    foot_list = [cards(f) for f in _per(feet, n, "")]
    meld_list = [
        tuple(meld(v, m) for m in side_melds)
        for side_melds in _per(melds, n_sides, ())
    ]
    red_list = [cards(x) for x in _per(red_threes, n_sides, "")]
    pile_codes = _ordered(pile)
    # talons set aside (opening.talons_set_aside): given, or dealt from the rest below
    talon_list = [tuple(sorted(cards(x))) for x in talons] if talons is not None else None
    if isinstance(turn, Turn):
        turn_value = turn
    else:
        fields = dict(turn or {})
        for key in ("pending", "drawn"):
            if key in fields and isinstance(fields[key], str):
                fields[key] = cards(fields[key])
        turn_value = Turn(**fields)
    if stock is None:
        used = Counter(pile_codes) + Counter(turn_value.pending)
        for group in (*hand_list, *foot_list, *red_list, *(talon_list or ())):
            used.update(group)
        for side_melds in meld_list:
            for m in side_melds:
                used.update(m.cards)
        rest = list((Counter(int(c) for c in build_deck(v.deck.decks, v.deck.jokers_per_deck)) - used).elements())
        shuffle(rest, 12345)
        if talon_list is None and v.opening.talons_set_aside:
            talon_list = [tuple(sorted(rest.pop() for _ in range(size))) for size in v.opening.talons]
        stock_codes = tuple(rest)
    else:
        stock_codes = _ordered(stock)
    if opened is None:
        opened = [bool(ms) for ms in meld_list]
    return GameState(
        variant=v,
        seed=seed,
        hand_number=hand_number,
        dealer=(current - 1) % n if dealer is None else dealer,
        scores=tuple(scores) if scores is not None else (0,) * n_sides,
        history=(),
        phase=_phase(phase),
        current=current,
        hands_=tuple(hand_list),
        feet_=tuple(foot_list),
        stock_=stock_codes,
        pile_=pile_codes,
        melds_=tuple(meld_list),
        red_threes_=tuple(red_list),
        opened=tuple(opened),
        melded_before=tuple(melded_before) if melded_before is not None else (False,) * n,
        turn=turn_value,
        end=None,
        rules=r,
        talons_=tuple(talon_list or ()),
        asked_before=tuple(asked_before) if asked_before is not None else (False,) * n,
    )


# -- playing a position: the helpers every scenario test uses ------------------------


def moves(s: GameState) -> set[str]:
    """The legal moves of ``s`` as notation."""
    return {str(m) for m in s.legal_moves()}


def refusal(s: GameState, text: str) -> str:
    """Apply ``text``, expecting a refusal; return its reason (and check is_legal agrees)."""
    import pytest

    from canasta import IllegalMoveError

    assert not s.is_legal(s.parse_move(text)), f"{text!r} is legal"
    assert text not in moves(s)
    with pytest.raises(IllegalMoveError) as info:
        s.apply(text)
    return info.value.reason


def play(s: GameState, *texts: str) -> GameState:
    """Apply the moves ``texts`` in turn, each of which must be listed as legal."""
    for text in texts:
        assert text in moves(s), f"{text!r} not in {sorted(moves(s))}"
        s = s.apply(text)
    return s

