"""Static checks of going out: the canastas a side needs, and whether they can be made.

C004 to C008, C032, C048, C060, C070 and C071: going-out requirements that no meld, kind of
canasta (sequence canastas among them) or supply of cards can meet, and a total
that is lower than the kinds it lists, and asking for advice that binds where it must
not or where no one asks.
Importing the module registers them in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.check.registry import Facts, Raw, plural, refused, static_check
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant

__all__: list[str] = []


@static_check(
    "C004", "error", "no meld can become a canasta, but going out needs one",
    """
    extends: classic
    melds:
      max_size: 6
    """,
)
def _no_canasta(f: Facts) -> Iterator[Raw]:
    """Going out needs canastas, but the meld limits let no meld reach canasta size.

    Typical causes: ``melds.max_size`` below ``canastas.size``; fewer cards of
    a rank than a canasta needs while wild cards are limited.
    """
    yield from refused(f, "C004")


@static_check(
    "C005", "error", "a required kind of canasta can never be made",
    """
    extends: classic
    melds:
      max_wilds: 0
    going_out:
      mixed_canastas: 1
    """,
)
def _kind_impossible(f: Facts) -> Iterator[Raw]:
    """Going out needs a natural, mixed or sequence canasta, but none can ever be made.

    A natural canasta needs ``canastas.size`` natural cards of one rank (4 per
    deck); a mixed canasta needs a wild card in a meld that may hold one; a
    sequence canasta needs ``sequences.canasta_size`` ranks in a row inside the
    sequence window, and a sequence allowed to grow that far
    (``sequences.max_size``).
    """
    yield from refused(f, "C005")


@static_check(
    "C006", "error", "too few wild cards for the wild canastas required",
    """
    extends: classic
    deck:
      jokers_per_deck: 0
    melds:
      wild_melds: true
    going_out:
      canastas: 2
      wild_canastas: 2
    """,
)
def _few_wilds(f: Facts) -> Iterator[Raw]:
    """Going out needs wild canastas, but the decks hold too few wild cards.

    Each wild canasta takes ``canastas.size`` wild cards; the decks hold 4 of
    each wild rank per deck and ``jokers_per_deck`` jokers per deck.
    """
    yield from refused(f, "C006")


@static_check(
    "C007", "error", "wild canastas required while wild melds are off",
    """
    extends: classic
    going_out:
      wild_canastas: 1
    """,
)
def _wild_melds_off(f: Facts) -> Iterator[Raw]:
    """Going out needs a wild canasta, but melds of wild cards only are not allowed.

    A wild canasta is a meld of wild cards only, which needs
    ``melds.wild_melds: true``; as written nobody can ever go out.
    """
    yield from refused(f, "C007")


@static_check(
    "C008", "error", "more canastas required than the cards allow",
    """
    extends: classic
    going_out:
      canastas: 12
    """,
)
def _too_many_canastas(f: Facts) -> Iterator[Raw]:
    """Going out needs more canastas than the decks can make at once.

    Without ``melds.duplicate_ranks: after_complete`` (or ``any``) a side has
    one meld per rank, so at most one canasta of each natural rank (11 with 2s
    wild and 3s special) plus wild canastas; natural cards and wild cards also
    run out.
    """
    yield from refused(f, "C008")


@static_check(
    "C032", "info", "fewer canastas required than the kinds listed",
    """
    extends: classic
    going_out:
      canastas: 1
      natural_canastas: 1
      mixed_canastas: 1
    """,
)
def _canasta_total_low(f: Facts) -> Iterator[Raw]:
    """``going_out.canastas`` is lower than the natural, mixed, wild and sequence canastas it lists.

    The engine requires each count, so the side in fact needs their sum; the
    total as written is misleading but harmless.
    """
    go = f.v.going_out
    kinds = go.natural_canastas + go.mixed_canastas + go.wild_canastas + go.sequence_canastas
    if go.canastas < kinds:
        yield (
            ("going_out.canastas", "going_out.natural_canastas", "going_out.mixed_canastas",
             "going_out.wild_canastas", "going_out.sequence_canastas"),
            f"going out needs {plural(go.canastas, 'canasta')} but lists {kinds} of "
            f"particular kinds, so the side in fact needs {kinds}",
            f"set going_out.canastas: {kinds}",
        )


@static_check(
    "C048", "error", "sequence canastas required while sequences are off",
    """
    extends: classic
    going_out:
      sequence_canastas: 1
    """,
)
def _sequences_off(f: Facts) -> Iterator[Raw]:
    """Going out needs a sequence canasta, but sequences may not be melded.

    A sequence canasta is a sequence of ``sequences.canasta_size`` cards,
    which needs ``sequences.allowed: true``; as written nobody can ever go out.
    """
    yield from refused(f, "C048")


@static_check(
    "C060", "warning", "a meld to complete before going out that no side can lay",
    """
    extends: classic
    going_out:
      complete_ranks: ['2']
      complete_wild_meld: true
    """,
)
def _complete_first(f: Facts) -> Iterator[Raw]:
    """``going_out.complete_ranks`` naming a rank no meld is made of (a wild rank, a 3), or
    ``going_out.complete_wild_meld`` without wild melds: the rule never applies."""
    v = f.v
    melded = set(_melded_ranks(v))
    idle = [rank for rank in v.going_out.complete_ranks if rank not in melded]
    if idle:
        yield (
            ("going_out.complete_ranks",),
            f"no meld is ever made of {', '.join(repr(x) for x in idle)}, so going out never "
            "waits for such a meld",
            "name natural ranks that melds are made of (Modern American: A and 7)",
        )
    if v.going_out.complete_wild_meld and not v.melds.wild_melds:
        yield (
            ("going_out.complete_wild_meld", "melds.wild_melds"),
            "wild melds are off (melds.wild_melds: false), so there is no meld of wild cards to complete",
            "set melds.wild_melds: true, or remove going_out.complete_wild_meld",
        )


def _melded_ranks(v: Variant) -> list[str]:
    """The rank names melds of one rank are made of: every rank but the wild ones and the 3s."""
    wild = set(v.wilds.ranks)
    return [rank for rank in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") if rank not in wild]


@static_check(
    "C070", "error", "asking required where the answer is advice",
    """
    extends: classic
    going_out:
      ask_required: true
      ask_advice: true
    """,
)
def _required_advice(f: Facts) -> Iterator[Raw]:
    """``going_out.ask_required`` with ``ask_advice``: going out needs a yes that advice never gives."""
    yield from refused(f, "C070")


@static_check(
    "C071", "warning", "advice asked where no one may ask",
    """
    extends: classic
    going_out:
      ask_partner: false
      ask_advice: true
    """,
)
def _idle_advice(f: Facts) -> Iterator[Raw]:
    """``going_out.ask_advice`` without ``ask_partner``, or without partners: nobody asks."""
    g = f.v.going_out
    partners = meanings(f.v).partnerships
    if g.ask_advice and not (g.ask_partner and partners):
        why = "no one may ask (going_out.ask_partner: false)" if partners else "no player has a partner"
        yield (
            ("going_out.ask_advice", "going_out.ask_partner"),
            f"{why}, so going_out.ask_advice has no effect",
            "remove going_out.ask_advice",
        )
