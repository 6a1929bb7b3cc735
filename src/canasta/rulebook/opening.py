"""Rule-book sentences of the first meld: the opening minimum and what else an opening needs.

Split from :mod:`canasta.rulebook.melds` (melds, sequences, canastas), whose
helpers it reads; importing it registers its sentences in
:data:`~canasta.rulebook.registry.RULES`.
"""

from __future__ import annotations

from canasta.rulebook.facts import has_concealed
from canasta.rulebook.melds import a_an, sequence_name
from canasta.rulebook.registry import S_OPENING, rule
from canasta.rulebook.words import cap, count, join, num, ordinal, points, pts
from canasta.variant.meanings import meanings
from canasta.variant.model import OpeningStep, Variant

# -- the first meld


def score_steps(v: Variant) -> tuple[int, list[tuple[int, int]]]:
    """(minimum below the lowest step, [(from score, minimum)] sorted), as the engine reads them."""
    below = 0
    by_from: dict[int, int] = {}
    for step in v.opening.score_table:
        if step.from_score is None:
            below = step.minimum
        else:
            by_from[step.from_score] = step.minimum
    return below, sorted(by_from.items())


def minimum_text(n: int) -> str:
    """A first-meld minimum as a table cell: ``"none"`` for zero, else the number."""
    return "none" if n == 0 else str(n)


def round_minimums(v: Variant) -> tuple[int, ...]:
    """The entries of ``opening.round_table`` for hands the game reaches (``game.rounds``)."""
    o = v.opening
    return o.round_table if v.game.rounds is None else o.round_table[: v.game.rounds]


def _say_opening(v: Variant) -> str:
    o = v.opening
    side = "side" if meanings(v).partnerships else "player"
    if o.by == "none":
        return f"A {side}'s first meld of a hand needs no minimum count."
    start = _opening_start(v)
    if o.by == "round":
        table = round_minimums(v)
        if not table or not any(table):
            return f"A {side}'s first meld of a hand needs no minimum count."
        parts = [
            f"{minimum_text(m)} in the {ordinal(i + 1)}{' hand' if i == 0 else ''}"
            for i, m in enumerate(table)
        ]
        later = v.game.rounds is None or v.game.rounds > len(table)
        if later:
            # "from the third hand on", not "in the third and every later hand": join()
            # already puts an "and" before the last part
            parts[-1] = f"{minimum_text(table[-1])} from the {ordinal(len(table))} hand on"
        return f"{start}: {join(parts)}."
    below, steps = score_steps(v)
    if not steps:
        if below == 0:
            return f"A {side}'s first meld of a hand needs no minimum count."
        return f"{start}: {points(below)}."
    parts = [f"{minimum_text(m)} for a score of {span}" for span, m in score_rows(v)]
    your = "your side's" if side == "side" else "your"
    return f"{start}, set by {your} total score: {join(parts)}."


def _opening_start(v: Variant) -> str:
    """The rule of the minimum, without the minimum itself."""
    your = "Your side's" if meanings(v).partnerships else "Your"
    return f"{your} first melds of a hand, laid in one turn, need a minimum in card values"


def opening_lead(v: Variant) -> str:
    """The opening sentence that introduces the table of minimums."""
    your = "its" if meanings(v).partnerships else "your"
    return f"{_opening_start(v)}, set by {your} total score:"


def score_rows(v: Variant) -> list[tuple[str, int]]:
    """(range of total scores, minimum) rows of the score table, lowest first."""
    below, steps = score_steps(v)
    rows = [(f"below {pts(steps[0][0])}", below)]
    for i, (start, minimum) in enumerate(steps):
        if i + 1 < len(steps):
            nxt = steps[i + 1][0]
            span = (
                f"{pts(start)} to {pts(nxt - 5)}"
                if start % 5 == 0 and nxt % 5 == 0 and nxt - 5 > start
                else f"{pts(start)} up to {pts(nxt)}, not included"
            )
        else:
            span = f"{pts(start)} or more"
        rows.append((span, minimum))
    return rows


rule("opening.by", S_OPENING, _say_opening)
def canasta_tiers(v: Variant) -> list[tuple[str, str]]:
    """``(range of total scores, "any" or "natural")`` of the score-table rows whose first melds must hold a canasta.

    The range is ``""`` when the table has only a row for every score.
    """
    if v.opening.by != "score":
        return []
    below: OpeningStep | None = None
    by_from: dict[int, OpeningStep] = {}
    for step in v.opening.score_table:
        if step.from_score is None:
            below = step
        else:
            by_from[step.from_score] = step
    if not by_from:
        return [("", below.canasta)] if below is not None and below.canasta != "none" else []
    kinds = [below.canasta if below is not None else "none"] + [by_from[k].canasta for k in sorted(by_from)]
    tiers: list[tuple[str, str]] = []
    last = "none"
    for (span, _), kind in zip(score_rows(v), kinds, strict=True):
        if kind != "none" and kind == last and not tiers[-1][0].startswith("below"):
            # adjacent rows of one kind read as one range: "7000 to 7995" and "8000 to 8995"
            # make "7000 to 8995", "7000 to 7995" and "8000 or more" make "7000 or more"
            start = span.split(" ")[0]
            tiers[-1] = (tiers[-1][0].split(" ")[0] + span[len(start):], kind)
        elif kind != "none":
            tiers.append((span, kind))
        last = kind
    return tiers


def _say_opening_canasta(v: Variant) -> str:
    tiers = canasta_tiers(v)
    if not tiers:
        return "The first melds never need to hold a canasta."
    side = "side" if meanings(v).partnerships else "player"
    words = {"any": "a complete canasta", "natural": "a complete natural canasta"}
    lead = f"Besides the minimum count, a {side}'s opening melds must include"
    if tiers[0][0] == "":
        text = f"{lead} {words[tiers[0][1]]}."
    else:
        parts = [
            f"{words[kind]} when its total score is {span}" if i == 0 else f"{words[kind]} when it is {span}"
            for i, (span, kind) in enumerate(tiers)
        ]
        text = f"{lead} {join(parts)}."
    # the engine counts every canasta without a wild card among natural cards
    # (OpeningStep.canasta); say which of those the variant can make
    better = (["a wild canasta"] if v.melds.wild_melds else []) + (
        [a_an(sequence_name(v))] if v.sequences.allowed else []
    )
    if better and any(kind == "natural" for _, kind in tiers):
        text += f" For that, {join(better, 'or')} counts as natural."
    if any(kind == "natural" for _, kind in tiers):
        text += (
            " The opening turn must also end with that natural canasta: no wild card may join "
            "the last one in that turn."
        )
    return text


def _score_table_instead(v: Variant, o: Variant) -> str:
    """A difference in the score table: the minimums, the canasta tiers, or both."""
    parts = [say(v) for say in (_say_opening, _say_opening_canasta) if say(v) != say(o)]
    return " ".join(parts) or _say_opening(v)


rule(
    "opening.score_table opening.score_table.minimum opening.score_table.from_score",
    S_OPENING, _say_opening, relevant=lambda v: v.opening.by == "score",
    instead=_score_table_instead,
)
rule(
    "opening.score_table.canasta", S_OPENING, _say_opening_canasta,
    relevant=lambda v: v.opening.by == "score", shown=lambda v: bool(canasta_tiers(v)),
)
rule("opening.round_table", S_OPENING, _say_opening, relevant=lambda v: v.opening.by == "round")


def _say_top_card_counts(v: Variant) -> str:
    if v.opening.top_card_counts:
        # "every card ... from your hand": the pair melded with the top card counts too
        top = "the top card and every card you meld from your hand that turn count toward the minimum, but never"
    else:
        top = "only the cards you meld from your hand count toward the minimum: never the top card or"
    return f"If you open by taking the discard pile, {top} the rest of the pile."


def opening_example(v: Variant) -> str | None:
    """A worked opening by the discard pile: a pair of kings takes it, and aces from the hand make up the minimum."""
    below, steps = score_steps(v)
    o = v.opening
    if o.by != "score" or not steps or not o.top_card_counts or not o.pile_allowed or not v.pile.take_natural_pair:
        return None
    if {"K", "A"} & set(v.wilds.ranks) or v.melds.min_size > 3 or o.natural_meld is not None:
        return None
    # the minimum at the start of a game, a total of 0
    need = max(((f, m) for f, m in steps if f <= 0), default=(0, below))[1]
    kings = 3 * v.values.king
    aces = next((n for n in range(3, 8) if kings + n * v.values.ace >= need), None)
    if need <= kings or aces is None:
        return None
    return (
        f"For example, you need {need} and a king lies on top. Two kings from your hand and the top "
        f"card make {kings}; {count(aces, 'ace')} add {aces * v.values.ace}, for "
        f"{kings + aces * v.values.ace}."
    )


rule(
    "opening.top_card_counts", S_OPENING, _say_top_card_counts,
    relevant=lambda v: v.opening.by != "none" and meanings(v).pile_takeable and v.opening.pile_allowed,
)


def _say_pile_allowed(v: Variant) -> str:
    side = "side" if meanings(v).partnerships else "player"
    # a side is "it", a player "they"
    who, its = ("that", "its") if side == "side" else ("who", "their")
    if v.opening.pile_allowed:
        return f"A {side} may take the discard pile to make {its} first meld."
    return (
        f"A {side} {who} has not yet melded may not take the discard pile: {its} first melds "
        "come from the hand alone."
    )


rule(
    "opening.pile_allowed", S_OPENING, _say_pile_allowed, relevant=lambda v: meanings(v).pile_takeable,
    shown=lambda v: meanings(v).pile_takeable and not v.opening.pile_allowed,
)


def _say_natural_meld(v: Variant) -> str:
    n = v.opening.natural_meld
    side = "side" if meanings(v).partnerships else "player"
    if n is None:
        return f"A {side}'s first melds may hold wild cards anywhere."
    # the clean meld is laid as a new meld without a wild card: never fewer cards than one
    n = max(n, v.melds.min_size, v.melds.min_naturals)
    text = (
        f"A {side}'s first melds must include a clean meld: {num(n)} or more natural cards of one "
        "rank and no wild card, at the moment the minimum is reached. Wild cards may join it once "
        f"the {side} has opened."
    )
    if meanings(v).pile_takeable and v.opening.pile_allowed:
        text += " The top card of a pile taken to open does not count toward the clean meld."
    return text


rule(
    "opening.natural_meld", S_OPENING, _say_natural_meld,
    shown=lambda v: v.opening.natural_meld is not None,
)


def _say_talons(v: Variant) -> str:
    o = v.opening
    sizes = list(o.talons)
    side = "side" if meanings(v).partnerships else "player"
    if not any(sizes):
        return f"No {side} gets bonus cards for opening."
    parts = [f"the {ordinal(i + 1)} {side} to open gets {num(n)}" for i, n in enumerate(sizes)]
    where = "set aside face down at the deal for it" if o.talons_set_aside else "from the top of the stock"
    text = (
        f"Talons: when a {side} opens, the player who opened gets bonus cards {where}, after the "
        f"discard that ends that turn, to play from their next turn. {cap(join(parts, 'and'))}"
        + (f"; later {side}s get none" if len(sizes) < len(v.sides) else "")
        + ". 3s among them are laid out and replaced."
    )
    if not o.talon_after_pile and meanings(v).pile_takeable:
        who = "that" if side == "side" else "who"
        text += f" A {side} {who} opens with the discard pile gets none; the next to open still counts as {ordinal(2)}."
    if o.talon_turn_card is not None:
        text += (
            f" No talon is given once the turn card, the {ordinal(o.talon_turn_card)} card from the bottom "
            "of the stock, has been drawn."
        )
    return text


rule(
    "opening.talons opening.talons_set_aside opening.talon_after_pile opening.talon_turn_card",
    S_OPENING, _say_talons, shown=lambda v: bool(v.opening.talons),
)


def _say_concealed_waives(v: Variant) -> str:
    if v.opening.concealed_waives:
        return "Going out concealed needs no minimum."
    return "Going out concealed still needs the minimum."


rule(
    "opening.concealed_waives", S_OPENING, _say_concealed_waives,
    relevant=lambda v: v.opening.by != "none" and has_concealed(v),
)


