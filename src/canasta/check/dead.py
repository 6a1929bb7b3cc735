"""Static checks of options that an off switch makes dead, and of what the file writes.

C035 (a black-3 out bonus without a black-3 out) and C036 (no wild card can
ever be melded), and :func:`written_dead`: options the profile file itself
writes for an area that is off, even at their default value, reported with the
code of that area (C016 for a foot rule without a foot, C035, C036, C046,
C047, C053, C058, C056 for sequence options while sequences are off). Importing
the module registers C035 and C036 in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator

from canasta.check.registry import Diagnostic, Facts, Raw, make_diagnostic, static_check
from canasta.check.sequences import SEQUENCE_OPTIONS
from canasta.variant.meanings import meanings
from canasta.variant.model import CanastaRules, MeldRules, PileRules, ThreeRules, Variant

__all__ = ["DEAD_AREAS", "written_dead"]


def _no_melded_wild(v: Variant) -> bool:
    """No wild card can ever be melded: none in a meld of naturals, no wild melds, none with black 3s."""
    th = v.threes
    black_wilds = th.black_meld != "never" and th.black_meld_wilds
    return v.melds.max_wilds == 0 and not v.melds.wild_melds and not black_wilds


#: Options that a melds.max_wilds of 0 leaves without effect (the second-wild
#: options have their own check, C015).
_WILDLESS = ("melds.wilds_at_most_naturals", "pile.take_natural_and_wild", "canastas.mixed_bonus")
_DEFAULTS = {
    "melds": MeldRules(), "pile": PileRules(), "canastas": CanastaRules(), "threes": ThreeRules(),
}


def _changed(v: Variant, paths: Collection[str]) -> list[str]:
    out = []
    for path in paths:
        area, name = path.split(".")
        if getattr(getattr(v, area), name) != getattr(_DEFAULTS[area], name):
            out.append(path)
    return out


@static_check(
    "C035", "warning", "a black-3 out bonus without a black-3 out",
    """
    extends: classic
    threes:
      black_out_bonus: 1000
    """,
)
def _black_out_bonus_alone(f: Facts) -> Iterator[Raw]:
    """``threes.black_out_bonus`` is set but ``threes.black_out_cards`` is null: no black-3 out exists.

    The bonus is paid only to a player who goes out holding
    ``black_out_cards`` black 3s; without that option the bonus is never paid.
    Reported when the bonus differs from its default, and (by ``canasta check``
    on a file) whenever the file writes it.
    """
    th = f.v.threes
    if th.black_out_cards is None and _changed(f.v, ["threes.black_out_bonus"]):
        yield (
            ("threes.black_out_bonus", "threes.black_out_cards"),
            "threes.black_out_cards is null, so there is no black-3 out and its bonus is never paid",
            "set threes.black_out_cards, or remove threes.black_out_bonus",
        )


@static_check(
    "C036", "warning", "no wild card can ever be melded",
    """
    extends: classic
    melds:
      max_wilds: 0
    """,
)
def _wilds_never_melded(f: Facts) -> Iterator[Raw]:
    """``melds.max_wilds: 0`` with wild melds off: wild cards can only be discarded.

    No meld of naturals takes a wild card and no meld is made of wild cards
    only (nor, with black-3 melds, of black 3s and wild cards), so wild cards
    are dead in the hand: they count minus at the end and freeze the pile when
    discarded. Mixed canastas, the mixed bonus, taking the pile with a natural
    and a wild card and ``wilds_at_most_naturals`` never apply.
    """
    v = f.v
    if not _no_melded_wild(v) or not f.wild_cards or f.kind_problem():
        return  # an error about the canastas needed (C003 to C007) already says it
    dead = _changed(v, _WILDLESS)
    also = f" ({', '.join(dead)} never applies)" if dead else ""
    yield (
        ("melds.max_wilds", "melds.wild_melds", *dead),
        "melds.max_wilds is 0 and wild melds are off, so no wild card can ever be melded: "
        f"wild cards can only be discarded, and no mixed canasta can be made{also}",
        "allow a wild card in a meld (melds.max_wilds: 1 or more) or wild melds, or make no card wild",
    )


#: Areas an off switch makes dead: (code, whether the area is off, the options
#: of the area, the off switch, why they do nothing).
DEAD_AREAS: tuple[tuple[str, Callable[[Variant], bool], tuple[str, ...], str, str], ...] = (
    ("C016", lambda v: not meanings(v).has_foot, ("foot.", "going_out.foot_first"),
     "deal.foot_size", "no foot is dealt (deal.foot_size: 0)"),
    ("C035", lambda v: v.threes.black_out_cards is None, ("threes.black_out_bonus",),
     "threes.black_out_cards", "there is no black-3 out (threes.black_out_cards: null)"),
    ("C036", _no_melded_wild, _WILDLESS,
     "melds.max_wilds", "no wild card can ever be melded (melds.max_wilds: 0, no wild melds)"),
    ("C046", lambda v: not v.threes.red_minus_without_canasta,
     ("threes.red_canastas_needed", "threes.red_neutral_canastas"),
     "threes.red_minus_without_canasta",
     "red 3s never count minus for want of canastas (threes.red_minus_without_canasta: false)"),
    ("C047", lambda v: not v.melds.wild_melds, ("melds.wild_meld_max", "melds.wild_meld_lock"),
     "melds.wild_melds", "wild melds are off (melds.wild_melds: false)"),
    ("C053", lambda v: v.melds.max_wilds == 0, ("melds.naturals_per_wild",),
     "melds.max_wilds", "no wild card may join a meld of naturals (melds.max_wilds: 0)"),
    ("C058", lambda v: not v.threes.black_laid_at_once, ("threes.black_table",),
     "threes.black_laid_at_once", "black 3s are not laid out (threes.black_laid_at_once: false)"),
    ("C056", lambda v: not v.sequences.allowed, SEQUENCE_OPTIONS,
     "sequences.allowed", "sequences are off (sequences.allowed: false)"),
)


def written_dead(v: Variant, written: Collection[str], found: Collection[Diagnostic]) -> list[Diagnostic]:
    """Options the file writes for an area that is off, even at their default value.

    Args:
        v: the loaded variant.
        written: the dotted option paths the profile file itself writes.
        found: the diagnostics already found; an option one of them names is not repeated.

    Returns:
        One warning per written option, with the code of its area.
    """
    named = {(d.code, p) for d in found for p in d.paths}
    out: list[Diagnostic] = []
    for code, off, options, switch, why in DEAD_AREAS:
        if not off(v):
            continue
        for path in sorted(written):
            hit = any(path.startswith(o) if o.endswith(".") else path == o for o in options)
            if hit and path.count(".") == 1 and (code, path) not in named:
                out.append(make_diagnostic(
                    code, (path, switch), f"{why}, so {path} has no effect, whatever its value",
                    f"remove {path}, or change {switch}",
                ))
    return out
