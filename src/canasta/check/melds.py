"""Static checks of the meld rules: meld sizes, wild cards in melds, second melds.

C003, C015, C030, C031, C034, C047, C053, C054, C066 and C069: whether any meld can be laid,
how the rule for a second wild card reads, meld options that never apply, and
new melds that cannot hold a wild card, a clean opening meld the engine cannot follow. Importing the
module registers them in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.check.registry import Facts, Raw, plural, refused, static_check

__all__: list[str] = []


@static_check(
    "C003", "error", "no meld can ever be laid",
    """
    extends: classic
    melds:
      min_naturals: 9
    """,
)
def _no_meld(f: Facts) -> Iterator[Raw]:
    """The meld limits admit no meld at all with the cards in the decks.

    For instance a minimum size above the maximum size, more naturals required
    than a rank has cards (4 per deck), or every rank wild with wild melds off.
    """
    yield from refused(f, "C003")


@static_check(
    "C015", "warning", "a second-wild rule that never applies",
    """
    extends: classic
    melds:
      max_wilds: 1
      second_wild: by_size
    """,
)
def _second_wild_idle(f: Facts) -> Iterator[Raw]:
    """The rule for the second wild card in a meld has no effect.

    ``second_wild`` other than ``always`` limits when a second wild card may
    join; it never matters when ``max_wilds`` is below 2, or when the threshold
    is met by every meld anyway. Thresholds set while ``second_wild: always``
    have no effect either.
    """
    m = f.v.melds
    defaults = type(m)()
    if m.second_wild == "always":
        changed = [
            name for name in ("second_wild_size", "second_wild_naturals")
            if getattr(m, name) != getattr(defaults, name)
        ]
        if changed:
            yield (
                (f"melds.{changed[0]}", "melds.second_wild"),
                f"melds.second_wild is 'always', so melds.{changed[0]} has no effect",
                "remove it, or set melds.second_wild",
            )
        return
    if m.max_wilds < 2:
        yield (
            ("melds.second_wild", "melds.max_wilds"),
            f"a meld holds at most {plural(m.max_wilds, 'wild card')}, so the rule for "
            "a second wild card never applies",
            "remove melds.second_wild, or allow 2 wild cards",
        )
        return
    lowest = max(m.min_naturals, f.new_size - m.max_wilds, 1)
    if m.second_wild == "by_size" and m.second_wild_size <= lowest + 2:
        yield (
            ("melds.second_wild_size", "melds.second_wild"),
            f"every meld with 2 wild cards already has {m.second_wild_size} cards or more, "
            "so the second-wild limit never applies",
            "raise melds.second_wild_size",
        )
    elif m.second_wild == "by_naturals" and m.second_wild_naturals <= lowest:
        yield (
            ("melds.second_wild_naturals", "melds.second_wild"),
            f"every meld with 2 wild cards already holds {lowest} naturals, so the second-wild limit "
            "never applies",
            "raise melds.second_wild_naturals",
        )


@static_check(
    "C030", "warning", "every new meld is already a canasta",
    """
    extends: classic
    canastas:
      size: 3
    """,
)
def _meld_is_canasta(f: Facts) -> Iterator[Raw]:
    """A new meld is at least as big as a canasta, so melds and canastas are the same thing."""
    if (f.natural_meld or f.wild_meld) and f.new_size >= f.canasta_size:
        yield (
            ("canastas.size", "melds.min_size"),
            f"a new meld has {f.new_size} cards and a canasta needs {f.canasta_size}, so "
            "every meld is a canasta from the start",
            "raise canastas.size above melds.min_size",
        )


@static_check(
    "C031", "info", "two readings of the second-wild rule",
    """
    extends: classic
    melds:
      max_wilds: 2
      second_wild: by_naturals
      second_wild_size: 6
      second_wild_naturals: 5
    """,
)
def _second_wild_readings(f: Facts) -> Iterator[Raw]:
    """The rule for a second wild card reads differently by meld size and by naturals.

    Hand and Foot texts say both "a second wild only as the 6th card" (by
    size: 4 naturals + 2 wilds is legal) and "not until five natural cards"
    (by naturals: it is not). The profile picks one reading with
    ``melds.second_wild``; the other threshold is kept so the two can be
    compared. Players who learnt the other reading will disagree about melds
    of ``second_wild_size - 2`` to ``second_wild_naturals - 1`` naturals with
    two wilds. This is an info, not a warning: the profile resolves the
    ambiguity on purpose (the bundled ``hand-and-foot`` profile does), so it
    must not fail ``canasta check --strict``.
    """
    m = f.v.melds
    if m.second_wild == "always" or m.max_wilds < 2:
        return
    by_size = m.second_wild_size - 2  # naturals a meld has when its 2nd wild is card N
    by_naturals = m.second_wild_naturals
    if by_size == by_naturals:
        return
    size_text = f"by meld size (a second wild card from card {m.second_wild_size} on)"
    naturals_text = f"by naturals (a second wild card once the meld holds {by_naturals} naturals)"
    if m.second_wild == "by_size":
        chosen, other, mine, theirs = size_text, naturals_text, by_size, by_naturals
        path = "melds.second_wild_size"
    else:
        chosen, other, mine, theirs = naturals_text, size_text, by_naturals, by_size
        path = "melds.second_wild_naturals"
    lo, hi = min(mine, theirs), max(mine, theirs)
    naturals = f"{lo}" if hi - 1 == lo else f"{lo} to {hi - 1}"
    here, there = ("legal", "illegal") if mine < theirs else ("illegal", "legal")
    yield (
        ("melds.second_wild", path),
        f"the second-wild rule is read {chosen}: a meld of {naturals} naturals and 2 wild "
        f"cards is {here} here, but {there} when read {other}",
        "tell the players which reading the table uses",
    )


@static_check(
    "C034", "warning", "second melds of a rank with melds that never close",
    """
    extends: classic
    melds:
      duplicate_ranks: after_complete
    """,
)
def _duplicates_idle(f: Facts) -> Iterator[Raw]:
    """``duplicate_ranks: after_complete`` needs melds that close (``melds.max_size``).

    A side may start a second meld of a rank once its first one is complete
    and closed, and a meld closes only when it reaches ``melds.max_size``;
    with no maximum no meld ever closes, so no second meld is ever started.
    """
    m = f.v.melds
    if m.duplicate_ranks == "after_complete" and m.max_size is None and (f.natural_meld or f.wild_meld):
        yield (
            ("melds.duplicate_ranks", "melds.max_size"),
            "a meld closes only at melds.max_size and there is no maximum, so a second "
            "meld of a rank can never be started",
            f"set melds.max_size (e.g. {f.canasta_size}), or remove melds.duplicate_ranks",
        )


@static_check(
    "C066", "error", "a clean opening meld with several melds of one rank",
    """
    extends: classic
    melds:
      duplicate_ranks: any
    opening:
      natural_meld: 3
    """,
)
def _clean_with_several(f: Facts) -> Iterator[Raw]:
    """``opening.natural_meld`` together with ``melds.duplicate_ranks: any``.

    The engine follows the clean meld an opening needs over one meld of each
    rank; with several melds of a rank, combined at will, it cannot tell which
    of them is the clean one, so it does not play the two rules together and
    refuses to deal such a game.
    """
    yield from refused(f, "C066")


@static_check(
    "C069", "error", "a clean opening meld with sequences",
    """
    extends: classic
    sequences:
      allowed: true
    opening:
      natural_meld: 3
    """,
)
def _clean_with_sequences(f: Facts) -> Iterator[Raw]:
    """``opening.natural_meld`` together with ``sequences.allowed``.

    The engine follows the clean meld an opening needs over melds of one rank;
    it does not follow one through sequences, so it does not play the two
    rules together and refuses to deal such a game.
    """
    yield from refused(f, "C069")


@static_check(
    "C047", "warning", "a limit on wild melds that never applies or rules them out",
    """
    extends: classic
    melds:
      wild_melds: true
      wild_meld_max: 6
    """,
)
def _wild_meld_max(f: Facts) -> Iterator[Raw]:
    """``melds.wild_meld_max`` without wild melds, or too small for a wild meld or a wild canasta.

    With ``wild_melds`` off the limit has no effect. Below the size of a new
    meld (``melds.min_size``) no meld of wild cards can be laid at all; below
    ``canastas.size`` a wild meld never becomes a canasta, so the wild
    canasta bonus is never paid.
    """
    m = f.v.melds
    top = m.wild_meld_max
    if top is None:
        return
    if not m.wild_melds:
        yield (
            ("melds.wild_meld_max", "melds.wild_melds"),
            "wild melds are off (melds.wild_melds: false), so melds.wild_meld_max has no effect",
            "set melds.wild_melds: true, or remove melds.wild_meld_max",
        )
    elif top < m.min_size:
        yield (
            ("melds.wild_meld_max", "melds.min_size"),
            f"a meld of wild cards holds at most {top} cards but a new meld needs {m.min_size}, "
            "so no meld of wild cards can ever be laid",
            f"raise melds.wild_meld_max to at least {m.min_size}, or set melds.wild_melds: false",
        )
    elif top < f.canasta_size:
        yield (
            ("melds.wild_meld_max", "canastas.size", "canastas.wild_bonus"),
            f"a meld of wild cards holds at most {top} cards, fewer than the {f.canasta_size} of a "
            "canasta, so no wild canasta can be made and canastas.wild_bonus is never paid",
            f"raise melds.wild_meld_max to at least {f.canasta_size}, or null",
        )


@static_check(
    "C053", "warning", "a naturals-per-wild rule that never applies",
    """
    extends: classic
    melds:
      max_wilds: 0
      wild_melds: true
      naturals_per_wild: 2
    """,
)
def _naturals_per_wild_idle(f: Facts) -> Iterator[Raw]:
    """``melds.naturals_per_wild`` is set, but no wild card may join a meld of naturals (``melds.max_wilds: 0``).

    The rule asks each wild card in a meld of naturals for that many naturals
    beside it; with no wild card allowed in such a meld it has no effect.
    """
    m = f.v.melds
    if m.naturals_per_wild is not None and m.max_wilds == 0:
        yield (
            ("melds.naturals_per_wild", "melds.max_wilds"),
            "melds.max_wilds is 0, so no wild card joins a meld of naturals and "
            "melds.naturals_per_wild has no effect",
            "remove melds.naturals_per_wild, or allow wild cards in melds",
        )


@static_check(
    "C054", "info", "the smallest new meld cannot hold a wild card",
    """
    extends: classic
    melds:
      naturals_per_wild: 3
    """,
)
def _new_meld_without_wild(f: Facts) -> Iterator[Raw]:
    """With ``melds.naturals_per_wild`` a new meld of the smallest size cannot take a wild card.

    Each wild card needs ``naturals_per_wild`` naturals beside it, so a meld
    of ``melds.min_size`` cards holds a wild card only when it has at least
    ``naturals_per_wild + 1`` cards: the smallest new melds are natural, and a
    player with a pair and a wild card cannot meld them. That may be the
    intent; it is worth knowing.
    """
    m = f.v.melds
    n = m.naturals_per_wild
    if n is None or m.max_wilds == 0 or not f.natural_meld or not f.ranks:
        return
    rank = f.ranks[0]
    size = f.new_size
    if any(f.r.valid(rank, size - j, j, True) for j in range(1, size)):
        return
    yield (
        ("melds.naturals_per_wild", "melds.min_size"),
        f"each wild card needs {plural(n, 'natural card')} beside it, so a new meld of "
        f"{size} cards cannot hold a wild card: a wild card joins a meld of at least {n + 1} cards",
        "lower melds.naturals_per_wild if new melds should take a wild card",
    )


@static_check(
    "C059", "warning", "dead ranks that never die",
    """
    extends: classic
    melds:
      dead_when_closed: true
    """,
)
def _dead_when_closed(f: Facts) -> Iterator[Raw]:
    """``melds.dead_when_closed`` with no ``melds.max_size``: no meld of a rank ever closes,
    so no rank ever dies and the option has no effect."""
    m = f.v.melds
    if m.dead_when_closed and m.max_size is None:
        yield (
            ("melds.dead_when_closed", "melds.max_size"),
            "a rank dies when a meld of it closes at melds.max_size, and there is no maximum, "
            "so no rank ever dies",
            f"set melds.max_size (Modern American: {f.canasta_size}), or remove melds.dead_when_closed",
        )
