"""JSON for programs that embed the library: :func:`to_json` and :func:`from_json`.

Every document is an envelope with a format number, a type tag and the data::

    {"format": 1, "type": "GameState", "data": {...}}

The types are ``Variant``, ``GameState``, ``Move`` (every move class),
``SeatView`` and ``ScoreBreakdown``. Cards are written in their notation
(``"KH"``, ``"10S"``, ``"JK"``) and moves as their notation (``"meld 7 7 JK"``),
so the JSON reads like the game. The layout of each type is documented in
``docs/formats.rst``.

A state's or a view's variant is written by name (``"classic"``) when it equals
the bundled profile of that name, and as the full variant mapping otherwise.
Loading a name re-reads the bundled profile of the installed library, so a
state saved under one version of a bundled profile is loaded with the rules of
the installed version.

Loading is strict and never returns a half-built object: a wrong envelope, an
unknown format number, a missing or unknown key, a value of the wrong type, a
card or move that does not parse, or a state whose cards do not add up to the
variant's decks raises :class:`~canasta.errors.CanastaError` with the path of
the offending value (``data.hands[2][5]: 'XX' is not a card ...``).

The (un)structuring hooks are registered on the library's one cattrs converter,
:data:`canasta.variant.loading.converter`, so ``converter.unstructure(state)`` gives
the ``data`` part of the envelope too.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, TypeVar

from canasta.cards import JOKER, Card, parse_rank
from canasta.engine import KIND
from canasta.engine.game import playable_rules
from canasta.engine.integrity import state_problem
from canasta.engine.kinds import BLACK_THREE
from canasta.engine.melds import sequence_group
from canasta.engine.moves import (
    RED_THREE,
    SUITED_BY_DEFAULT,
    WILD_TARGET,
    Move,
    kind_name,
    parse_move,
)
from canasta.engine.scoring import ScoreBreakdown
from canasta.engine.state import (
    HAND_OVER,
    NOT_ASKED,
    PHASE_NAMES,
    TOLD_NO,
    TOLD_YES,
    GameState,
    HandEnd,
    Laid,
    MeldGroup,
    Turn,
)
from canasta.engine.tables import Rules
from canasta.engine.view import SeatView, deck_counts, stand_in_cards
from canasta.errors import CanastaError, NotationError, VariantError
from canasta.io.json_fields import (
    cards_out,
    fail_at,
    read_bool,
    read_bools,
    read_cards,
    read_int,
    read_ints,
    read_items,
    read_list,
    read_object,
    read_str,
    show_value,
)
from canasta.limits import parse_int
from canasta.variant.loading import (
    converter,
    load_variant,
    variant_from_dict,
    variant_names,
    variant_to_dict,
)
from canasta.variant.model import Variant

__all__ = ["FORMAT", "from_json", "to_json"]

#: The format number written into every document; :func:`from_json` reads this one only.
FORMAT = 1

_T = TypeVar("_T")

#: Type tags and the classes they stand for.
_TAGS: dict[str, type] = {
    "Variant": Variant,
    "GameState": GameState,
    "Move": Move,
    "SeatView": SeatView,
    "ScoreBreakdown": ScoreBreakdown,
}

_ASKED_NAMES = {NOT_ASKED: "not_asked", TOLD_YES: "yes", TOLD_NO: "no"}
_ASKED_BY_NAME = {name: code for code, name in _ASKED_NAMES.items()}
_END_REASONS = ("out", "stock", "special")

_STATE_KEYS = (
    "variant", "seed", "hand_number", "dealer", "scores", "history", "phase", "current",
    "hands", "feet", "stock", "pile", "melds", "red_threes", "opened", "melded_before",
    "turn", "end",
)
_VIEW_KEYS = (
    "variant", "seat", "hand_number", "dealer", "scores", "phase", "current", "hand",
    "hand_sizes", "foot_sizes", "stock_size", "pile", "melds", "red_threes", "opened",
    "melded_before", "turn", "end",
)
_TURN_KEYS = (
    "took_pile", "melded", "points", "pending", "asked", "asker", "drawn", "played",
)
#: Longest JSON text read (1 MiB): the state of a 12-deck game is under 20 KB,
#: so this only stops a client that sends far more than any object holds.
MAX_JSON_CHARS = 1 << 20

# keys of a turn written only when set (take-backs, melds.rearrange)
_TURN_OPTIONAL = ("laid", "backs")
_LAID_KEYS = ("index", "new", "cards", "points", "opened", "pending")
_END_KEYS = ("reason", "seat", "concealed", "black_three_out", "breakdowns")
_MELD_KEYS = ("rank", "cards")
_BREAKDOWN_KEYS = ("items", "total")


@cache
def _bundled(name: str) -> Variant:
    return load_variant(name)


def _variant_out(v: Variant) -> str | dict[str, Any]:
    """The bundled name when ``v`` is that profile unchanged, else the full mapping."""
    if v.name in variant_names() and _bundled(v.name) == v:
        return v.name
    return variant_to_dict(v)


def _missing_options(data: Any, full: Any, path: str) -> str | None:
    """The first option of ``full`` (a complete variant mapping) that ``data`` leaves out."""
    if isinstance(full, dict) and isinstance(data, dict):
        for key, value in full.items():
            sub = f"{path}.{key}"
            if key not in data:
                return sub
            if key != "assumed":
                found = _missing_options(data[key], value, sub)
                if found:
                    return found
    elif isinstance(full, list) and isinstance(data, list):
        for i, (item, value) in enumerate(zip(data, full, strict=False)):
            found = _missing_options(item, value, f"{path}[{i}]")
            if found:
                return found
    return None


def _variant_in(value: Any, path: str) -> Variant:
    """A variant: a bundled name, or a complete variant mapping (no ``extends``)."""
    if isinstance(value, str):
        names = variant_names()
        if value not in names:
            fail_at(path, f"unknown bundled variant {value!r} (bundled: {', '.join(names)})")
        return _bundled(value)
    if not isinstance(value, dict):
        fail_at(path, f"expected a bundled variant name or a variant object, got {show_value(value)}")
    if "extends" in value:
        # a document must be complete in itself, and must never make the loader read files
        fail_at(f"{path}.extends", "not allowed in JSON: write every option of the variant")
    try:
        variant = variant_from_dict(value)
    except VariantError as exc:
        raise VariantError(f"{path}.{exc}") from None
    missing = _missing_options(value, variant_to_dict(variant), path)
    if missing:
        fail_at(missing, "missing (a variant in JSON lists every option)")
    return variant


# --------------------------------------------------------------------------- parts of states


def _rank_in(value: Any, path: str) -> int:
    text = read_str(value, path)
    if text.upper() == "W":
        return WILD_TARGET
    try:
        return parse_rank(text)
    except NotationError as exc:
        fail_at(path, f"{exc} (or W for a wild meld)")


def _meld_out(m: MeldGroup) -> dict[str, Any]:
    # a sequence is "rank": "sequence"; its suit is that of its cards
    return {"rank": kind_name(m.rank), "cards": cards_out(m.cards)}


def _meld_in(value: Any, path: str, is_wild: Sequence[bool], in_sequence: Sequence[bool]) -> MeldGroup:
    obj = read_object(value, path, _MELD_KEYS)
    if obj["rank"] == "sequence":
        return _sequence_in(obj, path, in_sequence)
    rank = _rank_in(obj["rank"], f"{path}.rank")
    written = read_cards(obj["cards"], f"{path}.cards")
    if not written:
        fail_at(f"{path}.cards", "a meld holds at least one card")
    for i, code in enumerate(written):
        if not is_wild[KIND[code]] and KIND[code] != rank:
            fail_at(f"{path}.cards[{i}]",
                  f"{str(Card(code))!r} does not belong in a meld of rank {obj['rank']!r}")
    wilds = sum(1 for c in written if is_wild[KIND[c]])
    return MeldGroup(rank, tuple(sorted(written)), len(written) - wilds, wilds)


def _sequence_in(obj: dict[str, Any], path: str, is_wild: Sequence[bool]) -> MeldGroup:
    """A sequence from its JSON: cards of one suit, and perhaps wild cards
    (whether they make a legal sequence is the state check's)."""
    written = read_cards(obj["cards"], f"{path}.cards")
    if not written:
        fail_at(f"{path}.cards", "a sequence holds at least one card")
    suits = {code & 3 for code in written if not is_wild[KIND[code]]}
    if len(suits) != 1 or any(KIND[code] in (RED_THREE, JOKER) and not is_wild[KIND[code]] for code in written):
        fail_at(f"{path}.cards", "a sequence holds natural cards of one suit (and a wild card where the variant allows one)")
    return sequence_group(written, suits.pop(), is_wild)


def _turn_out(t: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {
        "took_pile": t.took_pile, "melded": t.melded, "points": t.points,
        "pending": cards_out(t.pending), "asked": _ASKED_NAMES[t.asked], "asker": t.asker,
        "drawn": cards_out(t.drawn), "played": cards_out(t.played),
    }
    # written only when there is something to write, so the JSON of a variant
    # without rearranging is as it always was
    if t.laid:
        out["laid"] = [_laid_out(e) for e in t.laid]
    if t.backs:
        out["backs"] = t.backs
    return out


def _laid_out(e: Laid) -> dict[str, Any]:
    return {"index": e.index, "new": e.new, "cards": cards_out(e.cards),
            "points": e.points, "opened": e.opened, "pending": cards_out(e.pending)}


def _laid_in(value: Any, path: str) -> Laid:
    obj = read_object(value, path, _LAID_KEYS)
    return Laid(
        index=read_int(obj["index"], f"{path}.index", 0, 1000),
        new=read_bool(obj["new"], f"{path}.new"),
        cards=read_cards(obj["cards"], f"{path}.cards"),
        points=read_int(obj["points"], f"{path}.points", 0),
        opened=read_bool(obj["opened"], f"{path}.opened"),
        pending=tuple(sorted(read_cards(obj["pending"], f"{path}.pending"))),
    )


def _turn_in(value: Any, path: str, n: int) -> Turn:
    optional = tuple(k for k in _TURN_OPTIONAL if isinstance(value, dict) and k in value)
    obj = read_object(value, path, _TURN_KEYS + optional)
    asked = read_str(obj["asked"], f"{path}.asked")
    if asked not in _ASKED_BY_NAME:
        fail_at(f"{path}.asked", f"expected one of {', '.join(_ASKED_BY_NAME)}, got {asked!r}")
    return Turn(
        took_pile=read_bool(obj["took_pile"], f"{path}.took_pile"),
        melded=read_bool(obj["melded"], f"{path}.melded"),
        points=read_int(obj["points"], f"{path}.points"),
        pending=tuple(sorted(read_cards(obj["pending"], f"{path}.pending"))),
        asked=_ASKED_BY_NAME[asked],
        asker=read_int(obj["asker"], f"{path}.asker", -1, n - 1),
        drawn=read_cards(obj["drawn"], f"{path}.drawn"),
        played=read_cards(obj["played"], f"{path}.played"),
        laid=read_items(obj.get("laid", []), f"{path}.laid", _laid_in),
        backs=read_int(obj.get("backs", 0), f"{path}.backs", 0, 1000),
    )


def _breakdown_out(b: ScoreBreakdown) -> dict[str, Any]:
    return {"items": [[label, points] for label, points in b.items], "total": b.total}


def _item_in(value: Any, path: str) -> tuple[str, int]:
    pair = read_list(value, path, 2, " (a label and points)")
    return read_str(pair[0], f"{path}[0]"), read_int(pair[1], f"{path}[1]")


def _breakdown_in(value: Any, path: str) -> ScoreBreakdown:
    obj = read_object(value, path, _BREAKDOWN_KEYS)
    b = ScoreBreakdown(read_items(obj["items"], f"{path}.items", _item_in))
    total = read_int(obj["total"], f"{path}.total")
    if total != b.total:
        fail_at(f"{path}.total", f"{total} is not the sum of the items ({b.total})")
    return b


def _structure_breakdown(value: Any, _type: Any) -> ScoreBreakdown:
    return _breakdown_in(value, "data")


def _end_out(e: HandEnd | None) -> dict[str, Any] | None:
    if e is None:
        return None
    out = {
        "reason": e.reason, "seat": e.seat, "concealed": e.concealed,
        "black_three_out": e.black_three_out,
        "breakdowns": [_breakdown_out(b) for b in e.breakdowns],
    }
    if e.special:  # written only when set, so older readers and texts stay as they were
        out["special"] = e.special
    return out


def _end_in(value: Any, path: str, n: int, sides: int, special: Any = ()) -> HandEnd | None:
    if value is None:
        return None
    optional = ("special",) if isinstance(value, dict) and "special" in value else ()
    obj = read_object(value, path, _END_KEYS + optional)
    reason = read_str(obj["reason"], f"{path}.reason")
    if reason not in _END_REASONS:
        fail_at(f"{path}.reason", f"expected one of {', '.join(_END_REASONS)}, got {reason!r}")
    name = read_str(obj["special"], f"{path}.special") if optional else ""
    if (reason == "special") != bool(name):
        fail_at(f"{path}.special", "a hand that ended with a special hand (reason 'special') names it, and no other does")
    if name and name not in special:
        fail_at(f"{path}.special", f"expected a special hand of the variant ({', '.join(special) or 'it has none'}), got {name!r}")
    if name and not 0 <= read_int(obj["seat"], f"{path}.seat") < n:
        fail_at(f"{path}.seat", "a special hand was laid by a seat")
    return HandEnd(
        reason=reason,
        seat=read_int(obj["seat"], f"{path}.seat", -1, n - 1),
        concealed=read_bool(obj["concealed"], f"{path}.concealed"),
        black_three_out=read_bool(obj["black_three_out"], f"{path}.black_three_out"),
        breakdowns=read_items(obj["breakdowns"], f"{path}.breakdowns", _breakdown_in, sides,
                          " (one per side)"),
        special=name,
    )


def _phase_in(value: Any, path: str) -> int:
    name = read_str(value, path)
    if name not in PHASE_NAMES:
        fail_at(path, f"expected one of {', '.join(repr(p) for p in PHASE_NAMES)}, got {name!r}")
    return PHASE_NAMES.index(name)


def _check_end(phase: int, end: HandEnd | None, path: str) -> None:
    if (phase >= HAND_OVER) != (end is not None):
        if end is None:
            fail_at(f"{path}.end", f"a state in phase {PHASE_NAMES[phase]!r} needs how the hand ended")
        fail_at(f"{path}.end", f"must be null while the hand goes on (phase {PHASE_NAMES[phase]!r})")


def _red_threes_in(value: Any, path: str, sides: int, black: bool) -> tuple[tuple[int, ...], ...]:
    """The laid 3s of each side: red 3s, and black 3s where ``black`` (``threes.black_laid_at_once``)."""
    out = read_items(value, path, read_cards, sides, " (one per side)")
    for i, laid in enumerate(out):
        for j, c in enumerate(laid):
            if KIND[c] != RED_THREE and not (black and KIND[c] == BLACK_THREE):
                fail_at(f"{path}[{i}][{j}]", f"{str(Card(c))!r} is not a red 3{' or a black 3' if black else ''}")
    return out


def _melds_in(
    value: Any, path: str, sides: int, is_wild: Sequence[bool], seq_wild: bool
) -> tuple[tuple[MeldGroup, ...], ...]:
    # the wild cards a sequence may hold: none, unless sequences.wild_in_gap
    in_sequence = is_wild if seq_wild else _NO_WILD
    return read_items(
        value, path, lambda side, p: read_items(side, p, lambda m, q: _meld_in(m, q, is_wild, in_sequence)),
        sides, " (one per side)",
    )


#: No kind is wild (the cards of a sequence where it may hold no wild card).
_NO_WILD = (False,) * 16


# --------------------------------------------------------------------------- GameState


def _state_out(s: GameState) -> dict[str, Any]:
    return {
        "variant": _variant_out(s.variant),
        "seed": s.seed,
        "hand_number": s.hand_number,
        "dealer": s.dealer,
        "scores": list(s.scores),
        "history": [list(h) for h in s.history],
        "phase": PHASE_NAMES[s.phase],
        "current": s.current,
        "hands": [cards_out(h) for h in s.hands_],
        "feet": [cards_out(f) for f in s.feet_],
        "stock": cards_out(s.stock_),
        **_table_out(
            s.pile_, s.melds_, s.red_threes_, s.opened, s.melded_before, s.turn, s.end
        ),
        # only where the variant sets talons aside, so other documents keep their keys
        **({"talons": [cards_out(p) for p in s.talons_]} if s.variant.opening.talons_set_aside else {}),
        # likewise only where a player may ask once a hand
        **({"asked_before": list(s.asked_before)} if s.variant.going_out.ask_once else {}),
    }


def _table_out(
    pile: Sequence[int],
    melds: Sequence[Sequence[MeldGroup]],
    red: Sequence[Sequence[int]],
    opened: Sequence[bool],
    melded_before: Sequence[bool],
    turn: Turn,
    end: HandEnd | None,
) -> dict[str, Any]:
    """The parts a state and a seat's view share (written; :class:`_Table` reads them)."""
    return {
        "pile": cards_out(pile),
        "melds": [[_meld_out(m) for m in side] for side in melds],
        "red_threes": [cards_out(r) for r in red],
        "opened": list(opened),
        "melded_before": list(melded_before),
        "turn": _turn_out(turn),
        "end": _end_out(end),
    }


def _card_count_error(have: Counter[int], deck: Counter[int], v: Variant) -> str:
    extra = have - deck
    short = deck - have
    parts = []
    if extra:
        parts.append("more than the decks hold: " + ", ".join(
            f"{have[c]} x {Card(c)} (decks hold {deck[c]})" for c in sorted(extra)))
    if short:
        parts.append("missing: " + ", ".join(
            f"{short[c]} x {Card(c)}" for c in sorted(short)))
    return (
        f"the cards do not add up to the decks of variant {v.name!r} "
        f"({v.deck.decks} decks, {v.deck.jokers_per_deck} jokers each): " + "; ".join(parts)
    )


class _Table:
    """The parts a state and a seat's view share: the table everyone sees, and the turn."""

    def __init__(self, obj: dict[str, Any], path: str, r: Any, phase: int) -> None:
        n, sides = r.n, len(r.sides)
        self.pile = read_cards(obj["pile"], f"{path}.pile")
        self.melds = _melds_in(obj["melds"], f"{path}.melds", sides, r.is_wild, r.seq_wild)
        self.red = _red_threes_in(obj["red_threes"], f"{path}.red_threes", sides, r.v.threes.black_laid_at_once)
        self.opened = read_bools(obj["opened"], f"{path}.opened", sides, " (one per side)")
        self.melded_before = read_bools(
            obj["melded_before"], f"{path}.melded_before", n, " (one per seat)"
        )
        self.turn = _turn_in(obj["turn"], f"{path}.turn", n)
        self.end = _end_in(obj["end"], f"{path}.end", n, sides, tuple(r.special_by_name))
        _check_end(phase, self.end, path)

    def cards(self, *groups: Sequence[int]) -> Counter[int]:
        """The multiset of ``groups``, the pile, the red 3s, the pending cards and the melds."""
        have: Counter[int] = Counter()
        for group in (*groups, self.pile, *self.red, self.turn.pending):
            have.update(group)
        for side in self.melds:
            for m in side:
                have.update(m.cards)
        return have


def _present(value: Any, *keys: str) -> tuple[str, ...]:
    """Which of the optional ``keys`` a document holds (``talons`` or ``talon_sizes``,
    ``asked_before``), checked against its variant once that is read (:func:`_check_optional_keys`)."""
    return tuple(k for k in keys if isinstance(value, dict) and k in value)


def _check_optional_key(obj: dict[str, Any], path: str, key: str, on: bool, on_why: str, off_why: str) -> None:
    """A key written only where an option is ``on``: required there, refused elsewhere."""
    if on and key not in obj:
        fail_at(path, f"missing key {key!r} ({on_why})")
    if not on and key in obj:
        fail_at(f"{path}.{key}", off_why)


def _check_optional_keys(obj: dict[str, Any], v: Variant, path: str, talon_key: str) -> None:
    """The optional keys of a state or a view against variant ``v`` (``talon_key``: the talons' key)."""
    _check_optional_key(
        obj, path, talon_key, v.opening.talons_set_aside,
        "the variant sets talons aside: opening.talons_set_aside",
        "the variant sets no talons aside (opening.talons_set_aside is off)",
    )
    _check_optional_key(
        obj, path, "asked_before", v.going_out.ask_once,
        "a player may ask once a hand: going_out.ask_once",
        "the variant lets a player ask once in any turn (going_out.ask_once is off)",
    )


def _asked_in(obj: dict[str, Any], path: str, n: int) -> tuple[bool, ...]:
    """Which seats have asked this hand: the ``asked_before`` key, or nobody where the variant has none."""
    if "asked_before" not in obj:
        return tuple(False for _ in range(n))
    return read_bools(obj["asked_before"], f"{path}.asked_before", n, " (one per seat)")


def _playable(v: Variant, path: str) -> Rules:
    """``v``'s tables, where the engine deals its games (a state of any other is not one it reached)."""
    try:
        return playable_rules(v)
    except VariantError as exc:
        fail_at(path, str(exc))


def _state_in(value: Any, path: str) -> GameState:
    obj = read_object(value, path, _STATE_KEYS + _present(value, "talons", "asked_before"))
    v = _variant_in(obj["variant"], f"{path}.variant")
    _check_optional_keys(obj, v, path, "talons")
    r = _playable(v, f"{path}.variant")
    n, sides = r.n, len(r.sides)
    per_seat, per_side = " (one per seat)", " (one per side)"
    seed = read_int(obj["seed"], f"{path}.seed")
    hand_number = read_int(obj["hand_number"], f"{path}.hand_number", 0)
    dealer = read_int(obj["dealer"], f"{path}.dealer", 0, n - 1)
    scores = read_ints(obj["scores"], f"{path}.scores", sides, per_side)
    history = read_items(obj["history"], f"{path}.history",
                     lambda h, p: read_ints(h, p, sides, per_side))
    phase = _phase_in(obj["phase"], f"{path}.phase")
    current = read_int(obj["current"], f"{path}.current", 0, n - 1)
    hands = tuple(tuple(sorted(h)) for h in read_items(obj["hands"], f"{path}.hands", read_cards, n,
                                                   per_seat))
    feet = tuple(tuple(sorted(f)) for f in read_items(obj["feet"], f"{path}.feet", read_cards, n,
                                                  per_seat))
    stock = read_cards(obj["stock"], f"{path}.stock")
    talons = tuple(tuple(sorted(p)) for p in read_items(obj.get("talons", []), f"{path}.talons", read_cards))
    t = _Table(obj, path, r, phase)
    have = t.cards(*hands, *feet, stock, *talons)
    deck = deck_counts(v.deck.decks, v.deck.jokers_per_deck)
    if have != deck:
        fail_at(path, _card_count_error(have, deck, v))
    state = GameState(
        variant=v, seed=seed, hand_number=hand_number, dealer=dealer, scores=scores,
        history=history, phase=phase, current=current, hands_=hands, feet_=feet,
        stock_=stock, pile_=t.pile, melds_=t.melds, red_threes_=t.red, opened=t.opened,
        melded_before=t.melded_before, turn=t.turn, end=t.end, rules=r, talons_=talons,
        asked_before=_asked_in(obj, path, n),
    )
    # Every card in its place is not enough: the state must be one the engine
    # could have reached, or its guarantees (no dead ends) do not hold.
    problem = state_problem(state)
    if problem is not None:
        fail_at(f"{path}.{problem[0]}", problem[1])
    if not state.is_hand_over and not state.legal_moves():
        fail_at(path, "the state has no legal move: no game reaches it")
    return state


def _structure_state(value: Any, _type: Any) -> GameState:
    return _state_in(value, "data")


# --------------------------------------------------------------------------- SeatView


def _view_out(view: SeatView) -> dict[str, Any]:
    # Only the view's own fields: never its stand-in state, which holds the seed.
    return {
        "variant": _variant_out(view.variant),
        "seat": view.seat,
        "hand_number": view.hand_number,
        "dealer": view.dealer,
        "scores": list(view.scores),
        "phase": PHASE_NAMES[view.phase],
        "current": view.current,
        "hand": cards_out(view.hand_codes),
        "hand_sizes": list(view.hand_sizes),
        "foot_sizes": list(view.foot_sizes),
        "stock_size": view.stock_size,
        **_table_out(
            view.pile_codes, view.melds, view.red_three_codes, view.opened,
            view.melded_before, view.turn, view.end,
        ),
        # the talons' sizes only: their cards are hidden from every seat
        **({"talon_sizes": list(view.talon_sizes)} if view.variant.opening.talons_set_aside else {}),
        **({"asked_before": list(view.asked_before)} if view.variant.going_out.ask_once else {}),
    }


def _view_in(value: Any, path: str) -> SeatView:
    obj = read_object(value, path, _VIEW_KEYS + _present(value, "talon_sizes", "asked_before"))
    v = _variant_in(obj["variant"], f"{path}.variant")
    _check_optional_keys(obj, v, path, "talon_sizes")
    r = _playable(v, f"{path}.variant")
    n, sides = r.n, len(r.sides)
    per_seat, per_side = " (one per seat)", " (one per side)"
    seat = read_int(obj["seat"], f"{path}.seat", 0, n - 1)
    hand_number = read_int(obj["hand_number"], f"{path}.hand_number", 0)
    dealer = read_int(obj["dealer"], f"{path}.dealer", 0, n - 1)
    scores = read_ints(obj["scores"], f"{path}.scores", sides, per_side)
    phase = _phase_in(obj["phase"], f"{path}.phase")
    current = read_int(obj["current"], f"{path}.current", 0, n - 1)
    hand = tuple(sorted(read_cards(obj["hand"], f"{path}.hand")))
    hand_sizes = read_items(obj["hand_sizes"], f"{path}.hand_sizes",
                        lambda x, p: read_int(x, p, 0), n, per_seat)
    foot_sizes = read_items(obj["foot_sizes"], f"{path}.foot_sizes",
                        lambda x, p: read_int(x, p, 0), n, per_seat)
    stock_size = read_int(obj["stock_size"], f"{path}.stock_size", 0)
    talon_sizes = read_items(obj.get("talon_sizes", []), f"{path}.talon_sizes",
                             lambda x, p: read_int(x, p, 0), len(r.talons) if "talon_sizes" in obj else None)
    t = _Table(obj, path, r, phase)
    if len(hand) != hand_sizes[seat]:
        fail_at(f"{path}.hand", f"holds {len(hand)} cards but hand_sizes[{seat}] is "
              f"{hand_sizes[seat]}")
    seen = t.cards(hand)
    deck = deck_counts(v.deck.decks, v.deck.jokers_per_deck)
    hidden = sum(hand_sizes) - len(hand) + sum(foot_sizes) + stock_size + sum(talon_sizes)
    # Pile cards set aside in another seat's turn (turn.pending) are not shown: at most.
    if seen - deck or seen.total() + hidden > deck.total():
        fail_at(path, f"the visible cards and the hidden counts are more than the decks of "
              f"variant {v.name!r} hold")
    # The stand-in state that answers legal_moves(): hidden cards are unseen ones,
    # as in canasta.engine.view.make_view; it knows no seed and no history.
    hands, feet, talons, stock = stand_in_cards(
        seat, (deck - seen).elements(), hand, hand_sizes, foot_sizes, talon_sizes, stock_size
    )
    asked = _asked_in(obj, path, n)
    stand_in = GameState(
        variant=v, seed=0, hand_number=hand_number, dealer=dealer, scores=scores, history=(),
        phase=phase, current=current, hands_=hands,
        feet_=feet, stock_=stock,
        pile_=t.pile, melds_=t.melds, red_threes_=t.red, opened=t.opened,
        melded_before=t.melded_before, turn=t.turn, end=t.end, rules=r,
        talons_=talons, asked_before=asked,
    )
    # The view must be one of a state the engine reached: its stand-in answers
    # the seat's moves, and its guarantees (no dead ends) hold only for such.
    # What the seat sees is judged, not the stand-in cards.
    problem = state_problem(stand_in, seen_only=True)
    if problem is not None:
        fail_at(f"{path}.{problem[0]}", problem[1])
    if current == seat and not stand_in.is_hand_over and not stand_in.legal_moves():
        fail_at(path, "the view has no legal move on its own seat's turn: no game reaches it")
    return SeatView(
        variant_name=v.name, seat=seat, hand_number=hand_number, dealer=dealer, scores=scores,
        phase=phase, current=current, hand_codes=hand, hand_sizes=hand_sizes,
        foot_sizes=foot_sizes, stock_size=stock_size, pile_codes=t.pile, melds=t.melds,
        red_three_codes=t.red, opened=t.opened, melded_before=t.melded_before, turn=t.turn,
        end=t.end, _rules=r, _history=(), talon_sizes=talon_sizes, asked_before=asked,
        _stand_in=stand_in,
    )


def _structure_view(value: Any, _type: Any) -> SeatView:
    return _view_in(value, "data")


# --------------------------------------------------------------------------- moves


def _move_in(value: Any, path: str) -> Move:
    text = read_str(value, path)
    try:
        # every suit written is kept: a move of a variant with sequences names them
        return parse_move(text, SUITED_BY_DEFAULT)
    except NotationError as exc:
        fail_at(path, str(exc))


def _structure_move(value: Any, cls: Any) -> Move:
    move = _move_in(value, "data")
    if isinstance(cls, type) and not isinstance(move, cls):
        fail_at("data", f"expected a {cls.__name__} move, got {str(move)!r}")
    return move


def _is(cls: type) -> Callable[[Any], bool]:
    """A hook predicate: ``cls`` or a subclass (predicates also spare cattrs from resolving
    GameState's annotations, which name types imported for type checking only)."""
    return lambda t: isinstance(t, type) and issubclass(t, cls)


converter.register_unstructure_hook_func(_is(GameState), _state_out)
converter.register_structure_hook_func(_is(GameState), _structure_state)
converter.register_unstructure_hook_func(_is(SeatView), _view_out)
converter.register_structure_hook_func(_is(SeatView), _structure_view)
converter.register_unstructure_hook_func(_is(ScoreBreakdown), _breakdown_out)
converter.register_structure_hook_func(_is(ScoreBreakdown), _structure_breakdown)
converter.register_unstructure_hook_func(_is(Move), str)
converter.register_structure_hook_func(_is(Move), _structure_move)


# --------------------------------------------------------------------------- public API


def _tag_of(obj: object) -> str:
    for tag, cls in _TAGS.items():
        if isinstance(obj, cls):
            return tag
    raise CanastaError(
        f"to_json cannot write a {type(obj).__name__}: expected a "
        + ", ".join(_TAGS) + " (or a move)"
    )


def to_json(obj: Variant | GameState | Move | SeatView | ScoreBreakdown,
            *, indent: int | None = None) -> str:
    """Write ``obj`` as a JSON document ``{"format": 1, "type": ..., "data": ...}``.

    Args:
        obj: a :class:`~canasta.variant.model.Variant`, :class:`~canasta.engine.state.GameState`,
            move, :class:`~canasta.SeatView` or
            :class:`~canasta.engine.scoring.ScoreBreakdown`.
        indent: indent nested values by this many spaces; ``None`` writes one line.

    Returns:
        The JSON text (Unicode; cards and moves in their notation). A view's
        JSON holds only what its seat may see.

    Raises:
        CanastaError: ``obj`` is of none of those types.
    """
    tag = _tag_of(obj)
    data = converter.unstructure(obj, _TAGS[tag])
    envelope = {"format": FORMAT, "type": tag, "data": data}
    return json.dumps(envelope, ensure_ascii=False, indent=indent)


def from_json(text: str | bytes, cls: type[_T]) -> _T:
    """Read a document written by :func:`to_json` back into an object of ``cls``.

    Args:
        text: the JSON text.
        cls: the expected type: ``Variant``, ``GameState``, ``SeatView``,
            ``ScoreBreakdown``, ``Move`` or one move class (e.g. ``Meld``).

    Returns:
        An object equal to the one written. A ``GameState``'s compiled rules are
        rebuilt; a ``SeatView``'s :meth:`~canasta.SeatView.legal_moves`
        works, answered by a stand-in state rebuilt from the view (it knows no
        seed and no score history).

    Raises:
        CanastaError: the text is not JSON, the envelope is wrong (format
            number, type tag, keys), or the data is not a valid object of
            ``cls``; the message names the path of the offending value.
    """
    tag = next((t for t, c in _TAGS.items() if isinstance(cls, type) and issubclass(cls, c)),
               None)
    if tag is None:
        raise CanastaError(
            f"from_json cannot read a {getattr(cls, '__name__', repr(cls))}: expected one of "
            + ", ".join(_TAGS) + " (or a move class)"
        )
    if not isinstance(text, (str, bytes, bytearray)):
        raise CanastaError(f"from_json expects JSON text, got {type(text).__name__}")
    if len(text) > MAX_JSON_CHARS:
        raise CanastaError(
            f"not JSON the library reads: {len(text)} characters, more than {MAX_JSON_CHARS}"
        )
    try:
        doc = json.loads(text, parse_int=parse_int)
    except json.JSONDecodeError as exc:
        raise CanastaError(
            f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except (ValueError, RecursionError) as exc:  # bad UTF-8, absurd nesting
        raise CanastaError(f"not JSON: {exc}") from None
    try:
        return _read(doc, tag, cls)
    except CanastaError:
        raise
    except (RecursionError, KeyError, TypeError, ValueError, AttributeError) as exc:
        # every value is checked before use; this is a bug, still reported as bad input
        raise CanastaError(f"cannot read the {tag}: {exc}") from None


def _read(doc: Any, tag: str, cls: type[_T]) -> _T:
    env = read_object(doc, "document", ("format", "type", "data"))
    fmt = env["format"]
    if not isinstance(fmt, int) or isinstance(fmt, bool):
        fail_at("format", f"expected a format number, got {show_value(fmt)}")
    if fmt != FORMAT:
        fail_at("format", f"format {fmt} is not supported: this version of canasta reads "
              f"format {FORMAT}")
    got = env["type"]
    if got != tag:
        fail_at("type", f"expected {tag!r}, got {show_value(got)}")
    data = env["data"]
    # A Variant goes through the profile checks (strict types, ranges, no extends),
    # not the converter's own Variant hook, which trusts already-checked profile data.
    result = _variant_in(data, "data") if tag == "Variant" else converter.structure(data, cls)
    if not isinstance(result, cls):  # pragma: no cover - every hook returns its type
        fail_at("data", f"expected a {cls.__name__}")
    return result
