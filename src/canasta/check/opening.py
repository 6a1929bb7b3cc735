"""Static checks of the opening minimum and its tables.

C009, C023, C024, C025 and C055: a minimum no hand can reach, an empty table, a
table that does not increase or is never used, and a row that asks the first
melds for a canasta no opening can hold. Importing the module registers
them in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from canasta.check.pile import pile_taken_sometimes
from canasta.check.registry import Facts, Raw, plural, refused, static_check
from canasta.variant.model import OpeningRules

__all__: list[str] = []


@static_check(
    "C009", "error", "an opening minimum no hand can reach",
    """
    extends: classic
    opening:
      by: round
      round_table: [500]
    """,
)
def _opening_unreachable(f: Facts) -> Iterator[Raw]:
    """The opening minimum is higher than any player can meld before the side has opened.

    With one card drawn a turn a player holds at most ``hand_size + 1`` cards
    when opening (a taken pile joins the hand only after the opening), so the
    best those cards can be worth in legal melds bounds every opening. A side
    that meets this row of the table can never meld again. Rows no game
    reaches are left aside: a row of the score table from ``game.target`` on
    (the game is over once a side reaches the target, unless ``game.tie:
    play_another``), an entry of the round table from ``game.rounds`` on.
    """
    yield from refused(f, "C009")


_OPENING_DEFAULTS = OpeningRules()


@static_check(
    "C023", "warning", "an empty opening table",
    """
    extends: classic
    opening:
      score_table: []
    """,
)
def _opening_empty(f: Facts) -> Iterator[Raw]:
    """The opening minimum is set by a table that is empty, so it is always 0."""
    o = f.v.opening
    table = {"score": o.score_table, "round": o.round_table}.get(o.by)
    if table is not None and len(table) == 0:
        yield (
            (f"opening.{o.by}_table", "opening.by"),
            f"the opening minimum goes by {o.by} but opening.{o.by}_table is empty, so "
            "there is no opening minimum",
            "fill the table, or set opening.by: none",
        )


@static_check(
    "C024", "warning", "an opening table that does not increase",
    """
    extends: classic
    opening:
      score_table:
        - {minimum: 15}
        - {from_score: 0, minimum: 90}
        - {from_score: 1500, minimum: 50}
    """,
)
def _opening_order(f: Facts) -> Iterator[Raw]:
    """Opening minimums should rise with the score (or round); two rows must not share a start.

    A row whose ``from_score`` repeats an earlier row's is replaced by it; a
    minimum lower than the one before it is almost always a typing mistake.
    """
    o = f.v.opening
    if o.by == "score":
        starts: dict[int | None, int] = {}
        for i, step in enumerate(o.score_table):
            if step.from_score in starts:
                yield (
                    (f"opening.score_table[{i}]",),
                    f"opening.score_table[{starts[step.from_score]}] starts at the same score "
                    "and is replaced by this row",
                    "remove one of the two rows",
                )
                return
            starts[step.from_score] = i
        def start(i: int) -> int:
            from_score = o.score_table[i].from_score
            return -(10**12) if from_score is None else from_score

        rows = sorted(range(len(o.score_table)), key=start)
        # a row that asks for a canasta the row before did not ask for is harder
        # whatever its points (Brazilian: "a canasta" from 7000, no minimum)
        level = {"none": 0, "any": 1, "natural": 2}
        for a, b in itertools.pairwise(rows):
            la, lb = level[o.score_table[a].canasta], level[o.score_table[b].canasta]
            if lb < la:
                yield (
                    (f"opening.score_table[{b}].canasta",),
                    f"the opening asks for {o.score_table[a].canasta!r} canasta from "
                    f"{start(a)} but only {o.score_table[b].canasta!r} from {start(b)}",
                    "order the rows so that the canasta asked for does not get easier",
                )
                return
            if lb == la and o.score_table[b].minimum < o.score_table[a].minimum:
                yield (
                    (f"opening.score_table[{b}].minimum",),
                    f"the opening minimum falls from {o.score_table[a].minimum} to "
                    f"{o.score_table[b].minimum} as the score rises",
                    "order the minimums from low to high",
                )
                return
    elif o.by == "round":
        t = o.round_table
        for i in range(1, len(t)):
            if t[i] < t[i - 1]:
                yield (
                    (f"opening.round_table[{i}]",),
                    f"the opening minimum falls from {t[i - 1]} in round {i} to {t[i]} in "
                    f"round {i + 1}",
                    "order the minimums from low to high",
                )
                return


@static_check(
    "C025", "warning", "an opening table, or part of one, that is never used",
    """
    extends: classic
    opening:
      round_table: [50, 100]
    """,
)
def _opening_unused(f: Facts) -> Iterator[Raw]:
    """An opening table is set but ``opening.by`` reads the other one (or none); or the
    round table has entries for hands after the last one (``game.rounds``)."""
    o = f.v.opening
    for by in ("score", "round"):
        name = f"{by}_table"
        if o.by != by and getattr(o, name) != getattr(_OPENING_DEFAULTS, name):
            yield (
                (f"opening.{name}", "opening.by"),
                f"the opening minimum goes by {o.by}, so opening.{name} is never used",
                f"remove opening.{name}, or set opening.by: {by}",
            )
    rounds, table = f.v.game.rounds, o.round_table
    if o.by == "round" and rounds is not None and len(table) > rounds:
        unused = table[rounds:]
        yield (
            (f"opening.round_table[{rounds}]", "game.rounds"),
            f"the game ends after {plural(rounds, 'hand')} (game.rounds), so the last "
            f"{'entry' if len(unused) == 1 else f'{len(unused)} entries'} of "
            f"opening.round_table ({', '.join(map(str, unused))}) "
            f"{'is' if len(unused) == 1 else 'are'} never used",
            f"give opening.round_table {rounds} entries, or raise game.rounds",
        )


@static_check(
    "C055", "warning", "an opening canasta tier no opening can meet",
    """
    extends: classic
    deal:
      hand_size: 5
    opening:
      score_table:
        - {minimum: 15}
        - {from_score: 0, minimum: 50}
        - {from_score: 1500, minimum: 90}
        - {from_score: 3000, minimum: 120, canasta: any}
      pile_allowed: false
    """,
)
def _canasta_tier_unreachable(f: Facts) -> Iterator[Raw]:
    """A row of ``opening.score_table`` asks the first melds for a canasta that no opening can hold.

    A side at that score must include a complete canasta (``canasta: any``)
    or a natural one (``canasta: natural``; a sequence canasta, all natural
    cards, is counted as one here) in the melds of its first turn of melding.
    When no canasta of that kind can be made at all, or when a player opens
    with too few cards to hold the smallest one (with one card drawn a turn a
    hand never grows before its side has opened: ``hand_size + 1`` cards, and
    the top card of the pile where the pile may be taken to open), a side
    that reaches that score can never meld again. The engine's reading of the
    rest of a taken pile is left aside: only the top card counts here, as for
    the opening minimum.
    """
    v = f.v
    o = v.opening
    if o.by != "score":
        return
    for i, step in enumerate(o.score_table):
        if step.canasta == "none":
            continue
        path = f"opening.score_table[{i}].canasta"
        at = "below the lowest score of the table" if step.from_score is None else f"from {step.from_score}"
        natural = step.canasta == "natural"
        sizes = [size for ok, size in (
            (f.natural_canasta, f.smallest),
            (f.mixed_canasta and not natural, f.smallest),
            (f.wild_canasta and not natural, f.smallest),
            (f.sequence_canasta, f.seq_smallest),
        ) if ok]
        kind = "a natural canasta" if natural else "a canasta"
        if not sizes:
            yield (
                (path,),
                f"the first melds {at} must hold {kind}, but none can ever be made, so a side "
                "that reaches that score can never meld again",
                "remove the row's canasta, or let such canastas be made",
            )
            return
        if v.draw.count != 1:
            continue  # the hand grows by a card a turn before opening: no bound
        pile = 1 if o.pile_allowed and pile_taken_sometimes(f) else 0
        cards = max(v.deal.hand_size, v.deal.foot_size) + v.draw.count + pile
        if min(sizes) > cards:
            yield (
                (path, "deal.hand_size", "canastas.size"),
                f"the first melds {at} must hold {kind} of at least {min(sizes)} cards, but a "
                f"player opens with at most {cards} cards, so a side that reaches that score can "
                "never meld again",
                "remove the row's canasta, or make canastas smaller",
            )
            return


@static_check(
    "C061", "error", "a clean opening meld no side can lay",
    """
    extends: classic
    opening:
      natural_meld: 9
    """,
)
def _natural_meld(f: Facts) -> Iterator[Raw]:
    """``opening.natural_meld`` above the natural cards of one rank in the decks, or above
    ``melds.max_size``: no side can ever open, so nobody can meld at all."""
    yield from refused(f, "C061")

