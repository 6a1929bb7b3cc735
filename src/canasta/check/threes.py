"""Static checks of the 3s: black-3 melds, the black-3 out, 3s made wild.

C012, C013, C014, C045, C057, C058 and C068. Importing the module registers them in
:data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.check.registry import Facts, Raw, plural, refused, static_check
from canasta.variant.model import ThreeRules

__all__: list[str] = []


@static_check(
    "C012", "warning", "a black-3 out needs more black 3s than the decks hold",
    """
    extends: classic
    threes:
      black_out_cards: 5
    """,
)
def _black_out_impossible(f: Facts) -> Iterator[Raw]:
    """The black-3 out asks for more black 3s than exist (2 per deck), so it never happens."""
    n = f.v.threes.black_out_cards
    if n is None or f.threes_wild or n <= f.black_threes:
        return
    yield (
        ("threes.black_out_cards", "deck.decks"),
        f"a black-3 out needs {n} black 3s, but {plural(f.decks, 'deck')} hold only "
        f"{f.black_threes}, so it can never happen",
        f"set threes.black_out_cards to at most {f.black_threes}, or null",
    )


_BLACK_DEFAULTS = ThreeRules()


@static_check(
    "C013", "warning", "black-3 meld settings that never apply",
    """
    extends: classic
    threes:
      black_meld: never
      black_meld_wilds: true
    """,
)
def _black_meld(f: Facts) -> Iterator[Raw]:
    """Black-3 meld settings have no effect: black 3s are never melded, or no black-3 meld fits.

    Flagged when ``black_meld: never`` while ``black_meld_min``, ``black_meld_max``
    or ``black_meld_wilds`` differ from their defaults, and when the minimum is
    above the maximum or above the black 3s in the decks.
    """
    th = f.v.threes
    if f.threes_wild:
        return
    if th.black_meld == "never":
        changed = [
            name for name in ("black_meld_min", "black_meld_max", "black_meld_wilds")
            if getattr(th, name) != getattr(_BLACK_DEFAULTS, name)
        ]
        if changed:
            yield (
                (*(f"threes.{c}" for c in changed), "threes.black_meld"),
                "black 3s are never melded, so " + ", ".join(f"threes.{c}" for c in changed)
                + " has no effect",
                "remove it, or allow black-3 melds (threes.black_meld)",
            )
        return
    most = th.black_meld_max
    if most is not None and th.black_meld_min > most:
        yield (
            ("threes.black_meld_min", "threes.black_meld_max"),
            f"a black-3 meld needs at least {th.black_meld_min} and at most {most} black 3s, "
            "so black 3s can never be melded",
            "make threes.black_meld_min at most threes.black_meld_max",
        )
    elif th.black_meld_min > f.black_threes:
        yield (
            ("threes.black_meld_min", "deck.decks"),
            f"a black-3 meld needs {th.black_meld_min} black 3s but the decks hold "
            f"{f.black_threes}, so black 3s can never be melded",
            f"lower threes.black_meld_min to at most {f.black_threes}",
        )


@static_check(
    "C014", "warning", "3s are wild: the black-3 rules never apply",
    """
    extends: classic
    wilds:
      ranks: ['2', JK, '3']
    """,
)
def _threes_wild(f: Facts) -> Iterator[Raw]:
    """Making 3s wild turns the black 3s into wild cards; red 3s stay bonus cards.

    Black 3s then act as wild cards everywhere (melds, freezing, stop cards as
    wild cards), so the black-3 rules (stop card, black-3 melds, black-3 out)
    never apply, while red 3s are still laid out and scored as bonuses and
    never used as wild cards. Few players mean that by "3s are wild".
    """
    if f.threes_wild:
        yield (
            ("wilds.ranks", "threes.black_meld", "pile.stop_cards"),
            "3s are wild: black 3s become wild cards, so the black-3 rules (stop card, "
            "black-3 melds, black-3 out) never apply, and red 3s remain bonus cards",
            "remove '3' from wilds.ranks",
        )


@static_check(
    "C045", "warning", "a red-3 table that does not fit the decks",
    """
    extends: classic
    threes:
      red_table: [100, 200, 300, 400, 1000, 1200]
    """,
)
def _red_table_length(f: Facts) -> Iterator[Raw]:
    """``threes.red_table`` has a different number of entries than the decks hold red 3s.

    The table gives the points in all for one red 3, two, and so on. With
    fewer entries than red 3s (two per deck), the counts past its end score
    ``red_bonus`` each, which is rarely what a table meant; with more, the
    last entries can never be scored.
    """
    table = f.v.threes.red_table
    if not table or len(table) == f.red_threes:
        return
    if len(table) < f.red_threes:
        what = (f"lists {plural(len(table), 'count')}, but the decks hold {f.red_threes} red 3s: "
                f"a side with more than {len(table)} scores threes.red_bonus for each")
    else:
        what = (f"lists {plural(len(table), 'count')}, but the decks hold only {f.red_threes} red 3s: "
                f"its last {len(table) - f.red_threes} can never be scored")
    yield (
        ("threes.red_table", "deck.decks"),
        f"threes.red_table {what}",
        f"give threes.red_table {f.red_threes} entries, one for each number of red 3s",
    )


@static_check(
    "C046", "warning", "red 3s count minus by canastas while that rule is off",
    """
    extends: classic
    threes:
      red_canastas_needed: 2
    """,
)
def _red_canastas_alone(f: Facts) -> Iterator[Raw]:
    """``threes.red_canastas_needed`` is set but ``threes.red_minus_without_canasta`` is off.

    The number says how many canastas a side needs for its red 3s to count
    plus, which matters only when red 3s count minus without them; the same
    for ``threes.red_neutral_canastas``, the canastas with which they score nothing.
    """
    th = f.v.threes
    if not th.red_minus_without_canasta and th.red_canastas_needed != _BLACK_DEFAULTS.red_canastas_needed:
        yield (
            ("threes.red_canastas_needed", "threes.red_minus_without_canasta"),
            "threes.red_minus_without_canasta is off, so red 3s never count minus for want of "
            "canastas and threes.red_canastas_needed has no effect",
            "set threes.red_minus_without_canasta: true, or remove threes.red_canastas_needed",
        )
    if not th.red_minus_without_canasta and th.red_neutral_canastas is not None:
        yield (
            ("threes.red_neutral_canastas", "threes.red_minus_without_canasta"),
            "threes.red_minus_without_canasta is off, so 3s never count minus for want of "
            "canastas and threes.red_neutral_canastas has no effect",
            "set threes.red_minus_without_canasta: true, or remove threes.red_neutral_canastas",
        )


@static_check(
    "C057", "warning", "black 3s laid out as bonus cards, yet melded or kept for a black-3 out",
    """
    extends: classic
    threes:
      black_laid_at_once: true
    """,
)
def _black_laid_and_melded(f: Facts) -> Iterator[Raw]:
    """``threes.black_laid_at_once`` contradicts black-3 melds and the black-3 out.

    A black 3 laid out at once is never held, so it can never be melded
    (``threes.black_meld`` other than ``never``) nor kept for a black-3 out
    (``threes.black_out_cards``): the profile says two things at once. The
    laying out wins and the game plays to its end, black 3s being bonus cards
    as red 3s are; only the other options have no effect. So this is a
    warning, not a refusal: nothing stops the hand, one rule is idle.
    """
    th = f.v.threes
    if not th.black_laid_at_once or f.threes_wild:
        return
    paths = []
    if th.black_meld != "never":
        paths.append("threes.black_meld")
    if th.black_out_cards is not None:
        paths.append("threes.black_out_cards")
    if paths:
        yield (
            ("threes.black_laid_at_once", *paths),
            "black 3s are laid out as soon as they are held (threes.black_laid_at_once), so they can never be "
            + " or ".join({"threes.black_meld": "melded", "threes.black_out_cards": "kept for a black-3 out"}[p] for p in paths)
            + f" ({', '.join(paths)})",
            "set threes.black_meld to never and threes.black_out_cards to null, or lay black 3s out no more",
        )


@static_check(
    "C058", "warning", "a black-3 table while black 3s are not laid out",
    """
    extends: classic
    threes:
      black_table: [100, 300, 500, 1000]
    """,
)
def _black_table_unused(f: Facts) -> Iterator[Raw]:
    """``threes.black_table`` scores laid black 3s, but ``threes.black_laid_at_once`` is off: it never applies."""
    th = f.v.threes
    if th.black_table and not th.black_laid_at_once:
        yield (
            ("threes.black_table", "threes.black_laid_at_once"),
            "black 3s are not laid out (threes.black_laid_at_once is off), so threes.black_table never scores",
            "remove threes.black_table, or set threes.black_laid_at_once",
        )


@static_check(
    "C068", "error", "red 3s that stay in hand",
    """
    extends: classic
    threes:
      red_laid_at_once: false
    """,
)
def _red_threes_held(f: Facts) -> Iterator[Raw]:
    """``threes.red_laid_at_once: false``: a red 3 stays in its player's hand until the hand ends.

    Such a red 3 is never melded, laid out or discarded, and the engine's guard
    against dead ends counts every card in hand as one that can be discarded:
    a player could be left holding red 3s alone, with no legal move. This
    version of the engine refuses to deal such a game.
    """
    yield from refused(f, "C068")
