"""Sentences of melds and wild cards, the first meld and canastas.

Also the helpers the book's sections and the comparison read: the size of a new meld,
the steps of the opening score table, the kinds of canasta and the rank bonuses.
"""

from __future__ import annotations

from collections.abc import Callable

# The sentence modules import the one before them first, so the registry holds their
# rules in rule-book order whichever module is imported first (see registry).
import canasta.rulebook.deal  # noqa: F401
from canasta.rulebook.facts import has_concealed, has_partners, pile_takeable
from canasta.rulebook.registry import S_CANASTAS, S_MELDS, S_OPENING, rule
from canasta.rulebook.words import cap, count, join, num, ordinal, points, pts, rank_plural
from canasta.variant.model import Variant

# -- melds and wild cards


def new_size(v: Variant) -> int:
    """The fewest cards a new meld may hold: its minimum size, or its minimum of natural cards if larger."""
    return max(v.melds.min_size, v.melds.min_naturals)


def _say_meld_size(v: Variant) -> str:
    m = v.melds
    size = new_size(v)
    own = "their side's" if has_partners(v) else "their own"
    if m.min_naturals >= size:
        what = f"at least {count(size, 'natural card')} of one rank"
    else:
        what = (
            f"at least {count(size, 'card')} of one rank, at least {num(m.min_naturals)} "
            f"of {'it' if size == 1 else 'them'} natural"
        )
    return (
        f"A meld is {what}, laid face up on the table; wild cards in it stand for that rank. "
        f"Players may also add cards to {own} melds."
    )


rule("melds.min_size melds.min_naturals", S_MELDS, _say_meld_size)


def _say_max_wilds(v: Variant) -> str:
    w = v.melds.max_wilds
    if w == 0:
        return "Wild cards may never be melded with natural cards."
    meld = "A meld of one rank" if v.melds.wild_melds else "A meld"
    return f"{meld} may hold at most {count(w, 'wild card')}."


rule(
    "melds.max_wilds", S_MELDS, _say_max_wilds,
    instead=lambda v, o: (
        f"A meld may hold at most {count(v.melds.max_wilds, 'wild card')} instead of {num(o.melds.max_wilds)}."
    ),
)


def _say_wilds_vs_naturals(v: Variant) -> str:
    if v.melds.wilds_at_most_naturals:
        return "A meld may never hold more wild cards than natural cards."
    return "A meld may hold more wild cards than natural cards, within the limit on wild cards."


rule(
    "melds.wilds_at_most_naturals", S_MELDS, _say_wilds_vs_naturals,
    relevant=lambda v: v.melds.max_wilds > 0,
    shown=lambda v: v.melds.max_wilds > 0 and v.melds.wilds_at_most_naturals,
)


def _second_wild_places(v: Variant) -> str:
    s = v.melds.second_wild_size
    top = v.melds.max_size
    if top is not None and top == s:
        return f"only as its {ordinal(s)} card"
    if top is not None and top == s + 1:
        return f"only as its {ordinal(s)} or {ordinal(s + 1)} card"
    return f"only as its {ordinal(s)} card or later"


def _say_second_wild(v: Variant) -> str:
    m = v.melds
    if m.second_wild == "by_size":
        s = m.second_wild_size
        top = m.max_size
        if top is not None and top < s:
            return "A meld may never hold a second wild card."
        if s <= 2:
            return "A second wild card may join a meld at any time, within the limit."
        return (
            f"A meld of up to {count(s - 1, 'card')} may hold only one wild card; "
            f"a second wild card may join it {_second_wild_places(v)}."
        )
    if m.second_wild == "by_naturals":
        return (
            "A second wild card may join a meld only once the meld holds at least "
            f"{count(m.second_wild_naturals, 'natural card')}."
        )
    return "A second wild card may join a meld at any time, within the limit."


rule(
    "melds.second_wild", S_MELDS, _say_second_wild,
    relevant=lambda v: v.melds.max_wilds >= 2,
    shown=lambda v: v.melds.max_wilds >= 2 and v.melds.second_wild != "always",
)
rule(
    "melds.second_wild_size", S_MELDS, _say_second_wild,
    relevant=lambda v: v.melds.max_wilds >= 2 and v.melds.second_wild == "by_size",
)
rule(
    "melds.second_wild_naturals", S_MELDS, _say_second_wild,
    relevant=lambda v: v.melds.max_wilds >= 2 and v.melds.second_wild == "by_naturals",
)


def _wild_max(v: Variant) -> int | None:
    """The most cards of a meld of wild cards only (its own limit, else every meld's)."""
    m = v.melds
    return m.wild_meld_max if m.wild_meld_max is not None else m.max_size


def _say_max_size(v: Variant) -> str:
    top = v.melds.max_size
    own = v.melds.wild_melds and v.melds.wild_meld_max is not None
    if top is None:
        if own:
            return "There is no limit to the number of cards in a meld of one rank."
        return "There is no limit to the number of cards in a meld."
    return (
        f"A meld may hold at most {count(top, 'card')}; at {num(top)} it is complete (closed), "
        "and no more cards may join it."
    )


rule(
    "melds.max_size", S_MELDS, _say_max_size,
    instead=lambda v, o: (
        _say_max_size(v)
        if v.melds.max_size is None or o.melds.max_size is None
        else f"A meld may hold at most {count(v.melds.max_size, 'card')} instead of "
        f"{num(o.melds.max_size)}; at that size it is closed."
    ),
)


def _say_duplicates(v: Variant) -> str:
    partners = has_partners(v)
    who = "A side" if partners else "A player"
    if v.melds.duplicate_ranks == "after_complete" and v.melds.max_size is not None:
        its, it = ("its", "it") if partners else ("their", "they")
        return (
            f"{who} may have only one unfinished meld of each rank, but once {its} meld of a "
            f"rank is complete, {it} may start another meld of that rank."
        )
    return f"{who} may have only one meld of each rank."


rule("melds.duplicate_ranks", S_MELDS, _say_duplicates)


def _say_wild_melds(v: Variant) -> str:
    if not v.melds.wild_melds:
        return "A meld made only of wild cards is not allowed."
    low = v.melds.min_size
    top = _wild_max(v)
    size = f"{num(low)} to {num(top)}" if top is not None and top > low else f"at least {num(low)}"
    text = f"A meld may also be made of wild cards only: {size} wild cards, with no natural card."
    if v.melds.wild_meld_max is not None and v.melds.wild_meld_max != v.melds.max_size:
        text += (
            f" A meld of wild cards is complete (closed) at {num(v.melds.wild_meld_max)}, "
            "and no more cards may join it."
        )
    return text


rule(
    "melds.wild_melds", S_MELDS, _say_wild_melds, shown=lambda v: v.melds.wild_melds
)
rule(
    "melds.wild_meld_max", S_MELDS, _say_wild_melds,
    relevant=lambda v: v.melds.wild_melds and _wild_max(v) != v.melds.max_size,
)


def _say_rearrange(v: Variant) -> str:
    if not v.melds.rearrange:
        return "A card laid on the table stays where it was laid."
    return (
        "Until the discard, a player may rearrange the cards laid this turn: move them "
        "between melds or take them back into the hand; the turn is over once the "
        "player discards."
    )


rule("melds.rearrange", S_MELDS, _say_rearrange, shown=lambda v: v.melds.rearrange)


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


def _say_opening(v: Variant) -> str:
    o = v.opening
    side = "side" if has_partners(v) else "player"
    if o.by == "none":
        return f"A {side}'s first meld of a hand needs no minimum count."
    start = (
        f"The first meld a {side} lays in a hand, together with any other melds laid in the "
        "same turn, must count at least a minimum number of points (the values of the cards; "
        "bonuses do not count)"
    )
    if o.by == "round":
        table = o.round_table
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
    return f"{start}, which depends on the {side}'s total score before the hand: {join(parts)}."


def opening_lead(v: Variant) -> str:
    """The opening sentence that introduces the table of minimums."""
    side = "side" if has_partners(v) else "player"
    return (
        f"The first meld a {side} lays in a hand, together with any other melds laid in the "
        "same turn, must count at least a minimum number of points (the values of the cards; "
        f"bonuses do not count), which depends on the {side}'s total score before the hand:"
    )


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
rule(
    "opening.score_table opening.score_table.minimum opening.score_table.from_score",
    S_OPENING, _say_opening, relevant=lambda v: v.opening.by == "score",
)
rule("opening.round_table", S_OPENING, _say_opening, relevant=lambda v: v.opening.by == "round")


def _say_top_card_counts(v: Variant) -> str:
    if v.opening.top_card_counts:
        top = "the top card counts toward the minimum, and so do other melds from the hand that turn"
    else:
        top = "the top card does not count toward the minimum; only melds from the hand do"
    return (
        f"When a {'side' if has_partners(v) else 'player'} opens by taking the discard pile, {top}. "
        "The rest of the pile never counts: it joins the player's hand only once the minimum is met."
    )


rule(
    "opening.top_card_counts", S_OPENING, _say_top_card_counts,
    relevant=lambda v: v.opening.by != "none" and pile_takeable(v),
)


def _say_concealed_waives(v: Variant) -> str:
    if v.opening.concealed_waives:
        return "A player who goes out concealed needs no minimum."
    return "A player who goes out concealed must meet the minimum too."


rule(
    "opening.concealed_waives", S_OPENING, _say_concealed_waives,
    relevant=lambda v: v.opening.by != "none" and has_concealed(v),
)


# -- canastas


def _say_canasta_size(v: Variant) -> str:
    n = v.canastas.size
    top = v.melds.max_size
    if top is not None and top < n:
        return f"A canasta would take {count(n, 'card')}, more than a meld may hold, so no meld can become a canasta."
    more = "" if top == n else " or more"
    return f"A meld of {count(n, 'card')}{more} is a canasta."


rule(
    "canastas.size", S_CANASTAS, _say_canasta_size,
    instead=lambda v, o: f"A canasta takes {count(v.canastas.size, 'card')} instead of {num(o.canastas.size)}.",
)


def mixed_possible(v: Variant) -> bool:
    """Whether a meld may hold a wild card, so that mixed canastas exist."""
    return v.melds.max_wilds > 0


def _span(low: int, high: int) -> str:
    """``"five"``, ``"five or six"``, ``"four to six"``."""
    if high <= low:
        return num(low)
    if high == low + 1:
        return f"{num(low)} or {num(high)}"
    return f"{num(low)} to {num(high)}"


def say_kinds(v: Variant) -> str:
    """The kinds of canasta the variant has, as one sentence (the canastas section states it, no option does)."""
    parts = ["a natural (clean) canasta has no wild card"]
    # "; " between the kinds: each kind says "a ... canasta has ...", and commas alone would run them together
    if mixed_possible(v):
        n = v.canastas.size
        most = min(v.melds.max_wilds, n - v.melds.min_naturals)
        if v.melds.max_size == n and most >= 1:
            parts.append(
                f"a mixed (dirty) canasta has {_span(n - most, n - 1)} natural cards and "
                f"{_span(1, most)} wild {'card' if most == 1 else 'cards'}"
            )
        else:
            parts.append("a mixed (dirty) canasta has natural cards and wild cards")
    if v.melds.wild_melds:
        parts.append(f"a wild canasta is {count(v.canastas.size, 'wild card')}")
    return cap("; ".join(parts)) + "."


def _say_bonuses(v: Variant) -> str:
    c = v.canastas
    parts = [f"a natural canasta scores a bonus of {points(c.natural_bonus)}"]
    if mixed_possible(v):
        parts.append(f"a mixed canasta {points(c.mixed_bonus)}")
    if v.melds.wild_melds:
        parts.append(f"a wild canasta {points(c.wild_bonus)}")
    return cap(join(parts)) + "."


def _bonus_instead(kind: str) -> Callable[[Variant, Variant], str]:
    def instead(v: Variant, o: Variant) -> str:
        new = getattr(v.canastas, f"{kind}_bonus")
        old = getattr(o.canastas, f"{kind}_bonus")
        return f"A {kind} canasta scores {points(new)} instead of {pts(old)}."

    return instead


rule("canastas.natural_bonus", S_CANASTAS, _say_bonuses, instead=_bonus_instead("natural"))
rule(
    "canastas.mixed_bonus", S_CANASTAS, _say_bonuses,
    relevant=mixed_possible, instead=_bonus_instead("mixed"),
)
rule(
    "canastas.wild_bonus", S_CANASTAS, _say_bonuses,
    relevant=lambda v: v.melds.wild_melds, instead=_bonus_instead("wild"),
)


def effective_rank_bonuses(v: Variant) -> list[tuple[str, str, int]]:
    """Rank bonuses the scorer can apply: natural or mixed canastas of meldable ranks."""
    wild = set(v.wilds.ranks)
    out: dict[tuple[str, str], int] = {}
    for b in v.canastas.rank_bonuses:
        if b.kind == "wild" or b.rank in wild or b.rank in ("3", "JK"):
            continue
        if b.kind == "mixed" and not mixed_possible(v):
            continue
        out[(b.rank, b.kind)] = b.bonus
    return [(rank, kind, bonus) for (rank, kind), bonus in out.items()]


def _say_rank_bonuses(v: Variant) -> str:
    rows = effective_rank_bonuses(v)
    if not rows:
        return "A canasta scores the same bonus whatever its rank."
    parts = [
        f"a {kind} canasta of {rank_plural(rank)} scores {points(bonus)}" for rank, kind, bonus in rows
    ]
    return f"Instead of the usual bonus, {join(parts)}."


rule(
    "canastas.rank_bonuses canastas.rank_bonuses.rank canastas.rank_bonuses.kind "
    "canastas.rank_bonuses.bonus",
    S_CANASTAS, _say_rank_bonuses, shown=lambda v: bool(effective_rank_bonuses(v)),
)
