"""Scoring a table a score keeper describes: :func:`score_side`.

The engine scores the hands it plays itself (:mod:`canasta.engine.hand_end`);
this module is for programs that keep score of hands played at a real table.
It checks each meld with the same rules the engine melds by.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from canasta.cards import JOKER, Card, parse_cards
from canasta.engine.game import compile_rules
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.meld_kinds import Reading, classify
from canasta.engine.melds import KIND_SLOT, meld_rule_text, req_text
from canasta.engine.moves import RED_THREE, SEQUENCE, WILD_TARGET, kind_name
from canasta.engine.scoring import ScoreBreakdown, SideTable, score_table, special_breakdown
from canasta.errors import CanastaError
from canasta.limits import shown
from canasta.variant.model import Variant

if TYPE_CHECKING:
    from canasta.engine.tables import Rules

__all__ = ["score_side"]


def _cards(value: object, what: str) -> tuple[int, ...]:
    if isinstance(value, (str, Iterable)):
        return tuple(int(c) for c in parse_cards(value))
    raise CanastaError(f"{what}: expected cards such as 'KH KS KD', got {shown(value)}")


def score_side(
    variant: Variant,
    melds: Iterable[object] = (),
    red_threes: int = 0,
    hand: object = (),
    went_out: bool = False,
    concealed: bool = False,
    black_three_out: bool = False,
    foot: object = (),
    opened: bool | None = None,
    red_threes_held: int = 0,
    black_threes: int = 0,
    hands: Iterable[object] = (),
    special: str = "",
) -> ScoreBreakdown:
    """Score one side's end-of-hand table, for score-keeping apps.

    Args:
        variant: the rules.
        melds: the side's melds, each as cards (``"KH KS KD KC KH KS KD"`` or a
            sequence of card strings or :class:`~canasta.cards.Card`).
        red_threes: red 3s the side laid.
        hand: cards left in the side's hands, the partner's included (for a
            black-3 out, the black 3s kept by the player who went out are among them
            and count for the bonus, not against the side).
        went_out: whether a player of this side went out.
        concealed: whether that player went out concealed.
        black_three_out: whether that player went out with a black-3 out.
        foot: cards left in the side's feet (Hand and Foot).
        opened: whether the side made its opening meld; by default, whether it has melds.
        red_threes_held: red 3s still held in hands or feet.
        black_threes: black 3s the side laid, where ``threes.black_laid_at_once``
            makes them bonus cards (scored apart from the red 3s).
        hands: cards left in each player's hand, one entry per player, for the
            penalties that count one player's cards (``scoring.held_penalties``);
            they count minus like ``hand``, which is taken as one more player's cards.
        special: the name of the special hand (``special.hands``) a player of the
            side laid: the side then scores that hand's value alone, and every
            other argument is left unread. The other sides are scored as usual,
            with ``went_out`` false.

    Returns:
        The itemized :class:`ScoreBreakdown`; ``.total`` is the side's score.

    Raises:
        CanastaError: the table is impossible under the variant; the message
            names the meld or the value and the rule.
    """
    if not isinstance(variant, Variant):
        raise CanastaError(f"score_side expects a Variant, got {type(variant).__name__}")
    r = compile_rules(variant)
    if special:
        return _special_hand(r, variant, special)
    tables, wild_kinds, melded = _melds(r, melds, went_out)
    _check_three_counts(r, variant, red_threes, red_threes_held, black_threes)
    players, left_cards = _cards_left(hand, hands, foot)
    _check_decks_hold(r, (*melded, *left_cards), red_threes + red_threes_held, black_threes)
    _check_way_out(r, variant, went_out, concealed, black_three_out)
    if black_three_out:
        left_cards = _without_kept_black_threes(r, left_cards)
    if went_out:
        _check_melds_to_go_out(r, tables)
    held, black_held, left_cards = _threes_held(r, red_threes_held, left_cards)
    table = SideTable(
        melds=tuple(tables),
        red_threes=red_threes,
        opened=bool(tables) if opened is None else opened,
        left_values=tuple(r.code_value[c] for c in left_cards if KIND[c] != RED_THREE),
        red_threes_held=held,
        black_threes_held=black_held,
        went_out=went_out,
        concealed=concealed,
        black_three_out=black_three_out,
        black_threes=black_threes,
        wild_kinds=tuple(wild_kinds),
        held=tuple(tuple(KIND[c] for c in cards) for cards in players),
    )
    return score_table(variant, table, r.red_in_deck)


#: One meld as the score table reads it: its rank (or SEQUENCE), its cards' values, its
#: kind of canasta (None while it is not one).
_Meld = tuple[int, tuple[int, ...], str | None]


def _special_hand(r: Rules, variant: Variant, special: object) -> ScoreBreakdown:
    """The score of a special hand laid: that hand's value alone."""
    hand = r.special_by_name.get(special) if isinstance(special, str) else None
    if hand is None:
        known = ", ".join(repr(h.name) for h in r.special) or "none"
        raise CanastaError(f"special: variant {variant.name!r} has no special hand {shown(special)} (its special hands: {known})")
    return special_breakdown(hand)


def _melds(
    r: Rules, melds: Iterable[object], went_out: bool
) -> tuple[list[_Meld], list[tuple[int, ...]], list[int]]:
    """The side's melds, each checked as the engine melds: the melds, the kinds of their wild cards, all their cards."""
    tables: list[_Meld] = []
    wild_kinds: list[tuple[int, ...]] = []
    melded: list[int] = []
    for i, meld in enumerate(melds):
        cards = _cards(meld, f"melds[{i}]")
        melded.extend(cards)
        # which kind of meld the cards make is the kinds' to say, as for the engine's melds
        got = classify(r.meld_kinds, cards)
        if isinstance(got, str):
            raise CanastaError(f"{_where(i, cards)}: {got}")
        if got.target == SEQUENCE:
            tables.append(_sequence(r, i, cards, got, went_out))
            wild_kinds.append(())
        else:
            tables.append(_meld_of_a_rank(r, i, cards, got, went_out, tables))
            wild_kinds.append(tuple(KIND[c] for c in cards if r.is_wild[KIND[c]]))
    return tables, wild_kinds, melded


def _where(i: int, cards: tuple[int, ...]) -> str:
    """The meld a message is about: its number and its cards (written only for a message)."""
    return f"meld {i + 1} ({' '.join(str(_card(c)) for c in cards)})"


def _sequence(r: Rules, i: int, cards: tuple[int, ...], got: Reading, went_out: bool) -> _Meld:
    """A sequence, checked for its length (past its closing size only as its side goes out)."""
    why = r.seq_kind.size_error(len(cards), went_out)
    if why is not None:
        grown = r.seq_grow and not went_out and len(cards) > (r.seq_max or 0)
        grows = f" (at most {r.seq_max} cards unless the side goes out: went_out=True)" if grown else ""
        raise CanastaError(f"{_where(i, cards)}: {why}{grows}")
    return SEQUENCE, tuple(r.code_value[c] for c in cards), r.kind_of(SEQUENCE, len(cards), got.wilds)


def _meld_of_a_rank(
    r: Rules, i: int, cards: tuple[int, ...], got: Reading, went_out: bool, earlier: list[_Meld],
) -> _Meld:
    """A meld of one rank (or of wild cards only, or of black 3s), checked for its size and its wild cards."""
    rank, n, wilds = got.target, got.naturals, got.wilds
    if len(cards) < r.min_size:
        raise CanastaError(f"{_where(i, cards)}: a meld needs at least {r.min_size} cards")
    if rank == BLACK_THREE and r.meanings.black_threes_meld_going_out_only and not went_out:
        # a meld the kind allows, but only as its side goes out
        raise CanastaError(f"{_where(i, cards)}: black 3s may be melded only when going out")
    if not r.valid(rank, n, wilds, True):
        reason = meld_rule_text(r, rank, n, wilds) if rank != BLACK_THREE else (
            "that is not a legal meld of black 3s"
        )
        raise CanastaError(f"{_where(i, cards)}: {reason}")
    _check_second_meld(r, i, cards, rank, earlier)
    return rank, tuple(r.code_value[c] for c in cards), r.kind_of(rank, len(cards), wilds)


def _check_second_meld(r: Rules, i: int, cards: tuple[int, ...], rank: int, earlier: list[_Meld]) -> None:
    """A side holds a second meld of a rank only as ``melds.duplicate_ranks`` allows."""
    dup = r.one_per_rank
    # melds.duplicate_ranks: any lets a side hold several melds of a natural rank, open or not
    several = r.dup_any and rank not in (WILD_TARGET, BLACK_THREE)
    if not several and any(m[0] == rank and (dup or not r.closed(rank, len(m[1]))) for m in earlier):
        label = r.meld_kinds[rank].label(rank)
        raise CanastaError(f"{_where(i, cards)}: the side already has a meld of {label}")


def _check_three_counts(r: Rules, variant: Variant, red_threes: int, red_threes_held: int, black_threes: int) -> None:
    """The 3s counted apart: whole numbers, no more than the decks hold, black ones only where laid out."""
    for what, count in (("red_threes", red_threes), ("red_threes_held", red_threes_held), ("black_threes", black_threes)):
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise CanastaError(f"{what}: expected a whole number >= 0, got {shown(count)}")
    if red_threes + red_threes_held > r.red_in_deck:
        raise CanastaError(
            f"red_threes: the decks hold only {r.red_in_deck} red 3s, got {shown(red_threes + red_threes_held)}"
        )
    if black_threes and not r.laid_at_once[BLACK_THREE]:
        raise CanastaError(
            f"black_threes: variant {variant.name!r} does not lay black 3s out (threes.black_laid_at_once)"
        )
    if black_threes > r.red_in_deck:  # the decks hold as many black 3s as red ones
        raise CanastaError(f"black_threes: the decks hold only {r.red_in_deck} black 3s, got {shown(black_threes)}")


def _cards_left(hand: object, hands: Iterable[object], foot: object) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    """The cards each player holds (``hand`` as one more player), and every card left, the feet's too."""
    own = _cards(hand, "hand")
    players = [_cards(h, f"hands[{i}]") for i, h in enumerate(hands)]
    if own:
        players.append(own)
    return players, tuple(c for cards in players for c in cards) + _cards(foot, "foot")


def _check_decks_hold(r: Rules, cards: tuple[int, ...], red_threes: int, black_threes: int) -> None:
    """No more cards of a kind on the table than the decks hold (the 3s counted apart included)."""
    for k in sorted({KIND[c] for c in cards}):
        have = r.in_deck[k]
        got = sum(1 for c in cards if KIND[c] == k)
        if k == RED_THREE:
            got += red_threes
        if k == BLACK_THREE:
            got += black_threes
        if got > have:
            name = {RED_THREE: "red 3", BLACK_THREE: "black 3", JOKER: "joker"}.get(k, kind_name(k))
            raise CanastaError(f"cards: the decks hold only {have} {name}s, the table has {got}")


def _check_way_out(r: Rules, variant: Variant, went_out: bool, concealed: bool, black_three_out: bool) -> None:
    """A concealed or black-3 out is a way of going out the variant has."""
    if concealed and not went_out:
        raise CanastaError("concealed: a side can go out concealed only if it went out")
    if concealed and not r.concealed:
        raise CanastaError(f"concealed: variant {variant.name!r} has no concealed going out")
    if black_three_out and not went_out:
        raise CanastaError("black_three_out: a black-3 out is a way of going out")
    if black_three_out and not r.black_out_held:
        raise CanastaError(f"black_three_out: variant {variant.name!r} has no black-3 out")


def _without_kept_black_threes(r: Rules, left_cards: tuple[int, ...]) -> tuple[int, ...]:
    """The cards left but the black 3s kept for a black-3 out, which count for its bonus."""
    # black_out_held is (the black 3s an out keeps, one more to discard); empty where there is no out
    n_out = r.black_out_held[0] if r.black_out_held else 0
    kept = [c for c in left_cards if KIND[c] == BLACK_THREE][:n_out]
    if len(kept) != n_out:
        raise CanastaError(f"black_three_out: the hand must include the {n_out} black 3s kept for the out")
    rest = list(left_cards)
    for c in kept:
        rest.remove(c)
    return tuple(rest)


def _threes_held(r: Rules, red_threes_held: int, left_cards: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
    """The red 3s held, the black 3s held where they cost a penalty of their own, and the other cards left."""
    held = red_threes_held + sum(1 for c in left_cards if KIND[c] == RED_THREE)
    black_held = 0
    if r.meanings.black_held_penalised:
        # the black 3s are then not counted among the cards' values
        black_held = sum(1 for c in left_cards if KIND[c] == BLACK_THREE)
        left_cards = tuple(c for c in left_cards if KIND[c] != BLACK_THREE)
    return held, black_held, left_cards


def _check_melds_to_go_out(r: Rules, tables: list[_Meld]) -> None:
    """The side that went out has the canastas going out needs."""
    counts = [0, 0, 0, 0, 0]
    for _, _, kind in tables:
        if kind:
            counts[0] += 1
            counts[KIND_SLOT[kind]] += 1
    if not all(have >= need for have, need in zip(counts, r.req, strict=True)):
        raise CanastaError(f"went_out: going out needs {req_text(r)}")


def _card(code: int) -> Card:
    return Card(code)
