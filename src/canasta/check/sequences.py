"""Static checks of sequences (``sequences.*``): the window, the sizes, the short-sequence penalty.

C049 to C052, C056, C064 and C067: sequences that can never be laid, a window that wild
ranks or 3s break, a sequence canasta that can never be made, a short-sequence
penalty that never applies (or always does), sequence rules while
sequences are off, sequences that may grow when going out but never close,
and a wild card in a sequence that no sequence can ever hold. The going-out contract's sequence canastas are checked with
the other kinds (C005, C008, C032, C048). Importing the module registers them
in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from canasta.cards import RANK_NAMES, parse_rank
from canasta.check.registry import Facts, Raw, plural, static_check
from canasta.variant.model import SequenceRules

__all__ = ["SEQUENCE_OPTIONS"]

_DEFAULTS = SequenceRules()
#: The options of sequences that ``sequences.allowed: false`` makes dead.
SEQUENCE_OPTIONS = tuple(f"sequences.{a.name}" for a in attrs.fields(SequenceRules) if a.name != "allowed")


def _window(f: Facts) -> str:
    return f"{f.v.sequences.low} to {f.v.sequences.high}"


@static_check(
    "C049", "warning", "sequences that can never be laid",
    """
    extends: classic
    sequences:
      allowed: true
      low: K
    """,
)
def _never_laid(f: Facts) -> Iterator[Raw]:
    """Sequences are allowed, but no sequence fits the window.

    A new sequence is laid with exactly ``sequences.min_size`` cards of one
    suit in a row, inside the window ``sequences.low`` to ``sequences.high``
    (ace high, no wild ranks and no 3s: they break the window). When no
    stretch of the window holds that many ranks, the rule never applies (a
    ``sequences.max_size`` below ``sequences.min_size`` is refused when the
    profile loads).
    """
    sq = f.v.sequences
    if not sq.allowed or f.sequence_meld:
        return
    yield (
        ("sequences.low", "sequences.high", "sequences.min_size"),
        f"a new sequence needs {sq.min_size} ranks in a row, but the longest stretch of the "
        f"window {_window(f)} that no wild rank or 3 breaks holds {f.longest_run}, so no "
        "sequence can ever be laid",
        "widen the window (sequences.low, sequences.high) or lower sequences.min_size",
    )


@static_check(
    "C050", "warning", "a sequence window that wild ranks or 3s break",
    """
    extends: classic
    sequences:
      allowed: true
      low: '2'
    """,
)
def _window_broken(f: Facts) -> Iterator[Raw]:
    """The sequence window includes a wild rank or the 3s.

    No sequence holds a wild card or a 3, so these ranks break the window: a
    sequence never holds them or runs across them. A window that starts at
    2 with 2s wild, say, in effect starts at 4; one that includes a wild
    king splits in two. Probably not what the window meant.
    """
    sq = f.v.sequences
    if not sq.allowed:
        return
    lo, hi = parse_rank(sq.low), parse_rank(sq.high)
    held = {k for a, b in f.seq_runs for k in range(a, b + 1)}
    broken = [RANK_NAMES[k] for k in range(lo, hi + 1) if k not in held]
    if not broken:
        return
    plurals = [f"{r}s" for r in broken]
    names = plurals[0] if len(plurals) == 1 else ", ".join(plurals[:-1]) + " and " + plurals[-1]
    yield (
        ("sequences.low", "sequences.high", "wilds.ranks"),
        f"the sequence window {_window(f)} includes {names}, which no sequence may hold (wild "
        "ranks and 3s), so no sequence holds or runs across them",
        "move sequences.low and sequences.high inside the natural ranks",
    )


@static_check(
    "C051", "warning", "a sequence canasta that can never be made",
    """
    extends: classic
    sequences:
      allowed: true
      canasta_size: 8
    """,
)
def _no_sequence_canasta(f: Facts) -> Iterator[Raw]:
    """Sequences can be laid, but none can ever become a canasta, so ``sequences.bonus`` is never paid.

    A sequence canasta needs ``sequences.canasta_size`` cards in a row: more
    than ``sequences.max_size`` (a sequence is closed at that size) or more
    than the longest stretch of the window never happens. When going out
    needs a sequence canasta this is an error instead (C005).
    """
    sq = f.v.sequences
    if not f.sequence_meld or f.sequence_canasta or f.v.going_out.sequence_canastas > 0:
        return
    if sq.max_size is not None and sq.max_size < f.seq_smallest:
        yield (
            ("sequences.canasta_size", "sequences.max_size", "sequences.bonus"),
            f"a sequence canasta needs {f.seq_smallest} cards but a sequence is closed at "
            f"{sq.max_size}, so no sequence canasta can be made and sequences.bonus is never paid",
            f"set sequences.max_size to at least {f.seq_smallest}, or null",
        )
        return
    yield (
        ("sequences.canasta_size", "sequences.low", "sequences.high", "sequences.bonus"),
        f"a sequence canasta needs {f.seq_smallest} ranks in a row, but the longest stretch of "
        f"the window {_window(f)} holds {f.longest_run}, so no sequence canasta can be made and "
        "sequences.bonus is never paid",
        "lower sequences.canasta_size, or widen the window",
    )


@static_check(
    "C052", "warning", "a short-sequence penalty that never applies, or always does",
    """
    extends: classic
    sequences:
      allowed: true
      short_penalty: 1000
    """,
)
def _short_penalty(f: Facts) -> Iterator[Raw]:
    """``sequences.short_size`` and ``sequences.short_penalty`` do not make a penalty that can discriminate.

    A sequence on the table with fewer than ``short_size`` cards at the end of
    the hand costs ``short_penalty``. A penalty without a size (0), or a size
    without a penalty, has no effect; a size at most ``sequences.min_size``
    never applies (every sequence has at least that many cards); a size above
    ``sequences.max_size`` (or the longest stretch of the window) makes every
    sequence short, even a closed sequence canasta.
    """
    sq = f.v.sequences
    if not f.sequence_meld:
        return
    paths = ("sequences.short_size", "sequences.short_penalty")
    if sq.short_penalty and not sq.short_size:
        yield (
            ("sequences.short_penalty", "sequences.short_size"),
            "sequences.short_size is 0, so no sequence is ever short and sequences.short_penalty "
            "has no effect",
            "set sequences.short_size (e.g. 5), or remove sequences.short_penalty",
        )
    elif sq.short_size and not sq.short_penalty:
        yield (
            paths,
            "sequences.short_penalty is 0, so a short sequence costs nothing and "
            "sequences.short_size has no effect",
            "set sequences.short_penalty, or remove sequences.short_size",
        )
    elif sq.short_size and sq.short_size <= sq.min_size:
        yield (
            (*paths, "sequences.min_size"),
            f"every sequence has at least {plural(sq.min_size, 'card')}, so none is ever under "
            f"{sq.short_size} and the penalty never applies",
            f"raise sequences.short_size above {sq.min_size}",
        )
    elif sq.short_size:
        top = f.longest_run if sq.max_size is None else min(sq.max_size, f.longest_run)
        if sq.short_size > top:
            yield (
                (*paths, "sequences.max_size"),
                f"no sequence can hold more than {plural(top, 'card')}, so every sequence is under "
                f"{sq.short_size} cards and costs the penalty, even a closed sequence canasta",
                f"lower sequences.short_size to at most {top}",
            )


@static_check(
    "C064", "warning", "sequences that may grow when going out but never close",
    """
    extends: classic
    sequences:
      allowed: true
      max_size: null
      grow_when_going_out: true
    """,
)
def _grow_never_matters(f: Facts) -> Iterator[Raw]:
    """``sequences.grow_when_going_out`` is on, but no sequence is ever closed with room to grow.

    The option lets a sequence closed at ``sequences.max_size`` take more cards
    as part of going out. Without a closing size (``max_size: null``) every
    sequence grows as far as the window allows anyway; with a closing size at
    least the longest stretch of the window, a closed sequence has no rank
    left to take. Either way the option has no effect. (With sequences off,
    C056 reports it.)
    """
    sq = f.v.sequences
    if not sq.allowed or not sq.grow_when_going_out or not f.sequence_meld:
        return
    if sq.max_size is None:
        yield (
            ("sequences.grow_when_going_out", "sequences.max_size"),
            "sequences.max_size is null, so no sequence is ever closed and every one grows as far "
            "as the window allows: sequences.grow_when_going_out has no effect",
            "set sequences.max_size (Brazilian: 7), or remove sequences.grow_when_going_out",
        )
    elif sq.max_size >= f.longest_run:
        yield (
            ("sequences.grow_when_going_out", "sequences.max_size", "sequences.low", "sequences.high"),
            f"a sequence closes at {sq.max_size} cards, but the longest stretch of the window "
            f"{_window(f)} holds {f.longest_run}, so a closed sequence has no card left to take and "
            "sequences.grow_when_going_out has no effect",
            f"lower sequences.max_size below {f.longest_run}, or remove sequences.grow_when_going_out",
        )


@static_check(
    "C067", "warning", "a wild card in a sequence that no sequence can hold",
    """
    extends: classic
    sequences:
      allowed: true
      min_size: 2
      wild_in_gap: true
    """,
)
def _wild_never_in_gap(f: Facts) -> Iterator[Raw]:
    """``sequences.wild_in_gap`` is on, but no new sequence can ever hold a wild card.

    The wild card stands for a rank between two natural cards of a new
    sequence, which has exactly ``sequences.min_size`` cards: with fewer than
    three there is no rank between two of them. Without wild ranks
    (``wilds.ranks`` empty) there is no wild card to lay. Either way the option
    has no effect. (With sequences off, C056 reports it.)
    """
    sq = f.v.sequences
    if not sq.allowed or not sq.wild_in_gap or not f.sequence_meld:
        return
    if sq.min_size < 3:
        yield (
            ("sequences.wild_in_gap", "sequences.min_size"),
            f"a new sequence has {plural(sq.min_size, 'card')}, with no rank between two of them, so "
            "sequences.wild_in_gap has no effect",
            "raise sequences.min_size to 3, or remove sequences.wild_in_gap",
        )
    elif not f.v.wilds.ranks:
        yield (
            ("sequences.wild_in_gap", "wilds.ranks"),
            "this variant has no wild cards (wilds.ranks is empty), so sequences.wild_in_gap has no effect",
            "make a rank wild, or remove sequences.wild_in_gap",
        )


@static_check(
    "C056", "warning", "sequence rules while sequences are off",
    """
    extends: classic
    sequences:
      bonus: 2000
    """,
)
def _sequence_options_dead(f: Facts) -> Iterator[Raw]:
    """Options of ``sequences`` are set, but ``sequences.allowed`` is false: none of them has an effect.

    Reported when one differs from its default, and (by ``canasta check`` on a
    file) whenever the file writes it.
    """
    sq = f.v.sequences
    if sq.allowed:
        return
    changed = [p for p in SEQUENCE_OPTIONS if getattr(sq, p.split(".")[1]) != getattr(_DEFAULTS, p.split(".")[1])]
    if changed:
        yield (
            (*changed, "sequences.allowed"),
            f"sequences are off (sequences.allowed: false), so {', '.join(changed)} "
            f"{'has' if len(changed) == 1 else 'have'} no effect",
            "set sequences.allowed: true, or remove the sequence options",
        )
