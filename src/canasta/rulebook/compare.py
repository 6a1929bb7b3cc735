"""The main rules of several variants side by side, one column per variant (:func:`compare`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from canasta.rulebook.blocks import RuleBook, Table, Text
from canasta.rulebook.canastas import mixed_possible
from canasta.rulebook.facts import variant_title, wild_names
from canasta.rulebook.going_out import kind_requirements
from canasta.rulebook.melds import (
    new_size,
    sequence_canasta_possible,
    sequence_may_grow,
    sequence_may_hold_wild,
)
from canasta.rulebook.opening import canasta_tiers, round_minimums, score_steps
from canasta.rulebook.render import render
from canasta.rulebook.words import clean
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant


def _cmp_players(v: Variant) -> str:
    if meanings(v).partnerships:
        return f"{v.players.count}, in {len(v.sides)} partnerships"
    return f"{v.players.count}, each for themself"


def _cmp_decks(v: Variant) -> str:
    d, j = v.deck.decks, v.deck.jokers_per_deck
    return f"{d} {'deck' if d == 1 else 'decks'}, {d * j} jokers ({d * (52 + j)} cards)"


def _cmp_dealt(v: Variant) -> str:
    text = f"{v.deal.hand_size}"
    if meanings(v).has_foot:
        text += f" + foot of {v.deal.foot_size}"
    return text + ("" if v.deal.upcard else ", no upcard")


def _cmp_meld(v: Variant) -> str:
    m = v.melds
    text = f"{new_size(v)}+ cards, {m.min_naturals}+ natural, at most {m.max_wilds} wild"
    if m.max_wilds >= 2 and m.second_wild == "by_size":
        text += f" (second from card {m.second_wild_size})"
    elif m.max_wilds >= 2 and m.second_wild == "by_naturals":
        text += f" (second after {m.second_wild_naturals} natural)"
    if m.naturals_per_wild is not None and m.max_wilds > 0:
        text += f", {m.naturals_per_wild}+ natural per wild"
    if m.max_size is not None:
        text += f"; at most {m.max_size} cards"
    if m.duplicate_ranks == "any":
        text += "; several of a rank, combined at will"
    if m.wild_melds:
        text += "; wild melds"
        top = m.wild_meld_max if m.wild_meld_max is not None else m.max_size
        if top is not None:
            text += f" of {m.min_size} to {top}"
    return text


def _cmp_sequences(v: Variant) -> str:
    sq = v.sequences
    if not sq.allowed:
        return "none"
    text = f"{sq.low} to {sq.high}, {sq.min_size}+ cards"
    if sequence_canasta_possible(v):
        text += f"; {clean(sq.name) or 'sequence canasta'} at {sq.canasta_size} ({sq.bonus})"
    if sq.max_size is not None:
        text += f", closed at {sq.max_size}"
        if sq.grow_when_going_out and sequence_may_grow(v):
            text += " (longer when going out)"
    if sq.join:
        text += "; two that meet may join"
    if sequence_may_hold_wild(v):
        text += "; one wild card inside"
    if sq.short_size and sq.short_penalty:
        text += f"; under {sq.short_size} cards \u2212{sq.short_penalty}"
    return text


def _cmp_opening(v: Variant) -> str:
    o = v.opening
    if o.by == "round":
        table = round_minimums(v)
        return ("by hand: " + ", ".join(str(x) for x in table) if table else "none") + _no_pile(v)
    if o.by == "score":
        below, steps = score_steps(v)
        values = [below, *(m for _, m in steps)]
        text = "by score: " + ", ".join(str(x) for x in values) if any(values) else "none"
        tiers = canasta_tiers(v)
        if tiers:
            text += "; " + ", ".join(
                f"{'natural ' if k == 'natural' else ''}canasta{' for ' + span if span else ''}" for span, k in tiers
            )
        return text + _no_pile(v)
    return "none" + _no_pile(v)


def _no_pile(v: Variant) -> str:
    return "; not from the pile" if not v.opening.pile_allowed and meanings(v).pile_takeable else ""


def _cmp_pile(v: Variant) -> str:
    if not meanings(v).pile_takeable:
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
    if mixed_possible(v):
        text += f", mixed {c.mixed_bonus}"
    if v.melds.wild_melds:
        text += f", wild {c.wild_bonus}"
        mixes = {(b.rank, b.count): b.bonus for b in c.wild_mix_bonuses}
        text += "".join(f", {n} {'jokers' if r == 'JK' else r + 's'} {p}" for (r, n), p in mixes.items())
    return text


def _cmp_red(v: Variant) -> str:
    t = v.threes
    if t.red_table:
        return ", ".join(f"{n}: {p}" for n, p in enumerate(t.red_table, 1))
    text = f"{t.red_bonus} each"
    if t.red_all_bonus is not None:
        text += f", {t.red_all_bonus} for all"
    return text


def _cmp_black(v: Variant) -> str:
    t = v.threes
    if "3" in v.wilds.ranks:
        return "wild"
    if t.black_laid_at_once:
        table = ", ".join(f"{n}: {p}" for n, p in enumerate(t.black_table, 1))
        kept = "; one 3 may be kept for a special hand" if t.keep_one else ""
        return f"laid out like red 3s ({table or f'{t.red_bonus} each'}){kept}"
    text = f"left in hand \u2212{t.black_held_penalty}" if t.black_held_penalty is not None else "left in hand: its value"
    if t.black_out_cards is not None:
        text += f"; out with {t.black_out_cards} ({t.black_out_bonus})"
    return text


def _cmp_out(v: Variant) -> str:
    total, _ = kind_requirements(v)
    g = v.going_out
    kinds = [f"{n} {k}" for k, n in (("natural", g.natural_canastas), ("mixed", g.mixed_canastas),
                                       ("wild", g.wild_canastas)) if n]
    if g.sequence_canastas:
        kinds.append(f"{g.sequence_canastas} {clean(v.sequences.name) or 'sequence'}")
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


def _cmp_special(v: Variant) -> str:
    hands = v.special.hands
    if not hands:
        return "none"
    wins = sum(1 for h in hands if h.wins_game)
    return f"{len(hands)}" + (f" ({wins} win the game)" if wins > 1 else " (1 wins the game)" if wins else "")


_COMPARE_ROWS: tuple[tuple[str, Callable[[Variant], str]], ...] = (
    ("Players", _cmp_players),
    ("Cards", _cmp_decks),
    ("Dealt", _cmp_dealt),
    ("Draw", lambda v: f"{v.draw.count} {'card' if v.draw.count == 1 else 'cards'}"),
    ("Wild cards", lambda v: ", ".join(wild_names(v)) or "none"),
    ("Melds", _cmp_meld),
    ("Sequences", _cmp_sequences),
    ("First meld minimum", _cmp_opening),
    ("Pile frozen by", _cmp_frozen),
    ("Pile taken with", _cmp_pile),
    ("Canastas", _cmp_canastas),
    ("Red 3s", _cmp_red),
    ("Black 3s", _cmp_black),
    ("Canastas to go out", _cmp_out),
    ("Going-out bonus", _cmp_bonus),
    ("Special hands", _cmp_special),
    ("Game ends at", _cmp_game),
)


def compare(variants: Sequence[Variant], format: str = "markdown", *, standalone: bool = False) -> str:
    """Set the main rules of several variants side by side, one column per variant.

    Args:
        variants: the variants to compare (one or more).
        format: ``"markdown"``, ``"rst"`` or ``"html"``.
        standalone: with ``"html"``, a complete page (as for ``canasta.describe``).

    Returns:
        A document with one table, whose rows are players, cards, the deal, the
        draw, wild cards, melds, sequences, the first meld, the pile, canastas,
        red 3s, black 3s, going out and the end of the game.

    Raises:
        CanastaError: ``format`` is unknown or ``variants`` is empty.
    """
    if not variants:
        from canasta.errors import CanastaError

        raise CanastaError("compare needs at least one variant")
    header = ("Rule", *(variant_title(v) for v in variants))
    rows = tuple(
        (Text(label), *(Text(fn(v)) for v in variants)) for label, fn in _COMPARE_ROWS
    )
    book = RuleBook("Variants compared", (Table(header, rows),), (), None)
    return render(book, format, standalone=standalone)
