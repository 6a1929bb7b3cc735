"""Static checks of scoring and the end of the game: bonuses, target, rounds, ties.

C010, C020, C021, C022, C029 and C033: a game that never ends, a target never
reached, bonuses that are never scored, a tie-break past the round limit.
Importing the module registers them in :data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.check.registry import Facts, Raw, plural, refused, static_check
from canasta.variant.model import CanastaRules, ScoringRules

__all__: list[str] = []


@static_check(
    "C010", "error", "the game never ends",
    """
    extends: classic
    game:
      target: null
    """,
)
def _never_ends(f: Facts) -> Iterator[Raw]:
    """The game has neither a target score that can be reached nor a number of rounds.

    With ``game.target: null`` and ``game.rounds: null`` nothing ends the game;
    the same holds when no side can ever score points (every bonus and card
    value 0) and only a target is set.
    """
    yield from refused(f, "C010")


_SCORING_DEFAULTS = ScoringRules()


@static_check(
    "C020", "warning", "a concealed bonus without concealed going out",
    """
    extends: classic
    going_out:
      concealed: false
    scoring:
      concealed_bonus: 300
    """,
)
def _concealed_idle(f: Facts) -> Iterator[Raw]:
    """``scoring.concealed_bonus`` is set but going out concealed is not recognised."""
    v = f.v
    if not v.going_out.concealed and v.scoring.concealed_bonus != _SCORING_DEFAULTS.concealed_bonus:
        yield (
            ("scoring.concealed_bonus", "going_out.concealed"),
            "going out concealed is not recognised, so its bonus is never scored",
            "remove scoring.concealed_bonus, or set going_out.concealed: true",
        )


@static_check(
    "C021", "warning", "a rank bonus that never applies",
    """
    extends: classic
    canastas:
      rank_bonuses:
        - {rank: '2', kind: natural, bonus: 1000}
    """,
)
def _rank_bonus_idle(f: Facts) -> Iterator[Raw]:
    """A canasta bonus by rank names a canasta that can never exist.

    Canastas by rank are made of natural cards of that rank: a wild rank, 3s
    (black-3 melds are never canastas) and ``kind: wild`` (a wild canasta has
    no rank) never match, and a second bonus for the same rank and kind
    replaces the first.
    """
    seen: dict[tuple[str, str], int] = {}
    for i, b in enumerate(f.v.canastas.rank_bonuses):
        path = f"canastas.rank_bonuses[{i}]"
        rank = b.rank
        why = ""
        if b.kind == "wild":
            why = "a wild canasta has no rank, so a rank bonus for kind 'wild' never applies"
        elif rank in f.v.wilds.ranks:
            why = f"{rank}s are wild, so there is never a {b.kind} canasta of {rank}s"
        elif rank == "3":
            why = "melds of 3s are never canastas"
        elif (b.rank, b.kind) in seen:
            why = (f"canastas.rank_bonuses[{seen[(b.rank, b.kind)]}] names the same rank "
                   "and kind and is replaced by this one")
        seen[(b.rank, b.kind)] = i
        if why:
            yield ((path,), why, "remove the bonus or fix its rank and kind")


@static_check(
    "C022", "warning", "a target score that can never be reached",
    """
    extends: classic
    game:
      rounds: 4
    scoring:
      meld_points: false
      going_out_bonus: 0
      concealed_bonus: 0
    canastas:
      natural_bonus: 0
      mixed_bonus: 0
    threes:
      red_bonus: 0
      red_all_bonus: null
    """,
)
def _target_unreachable(f: Facts) -> Iterator[Raw]:
    """No side can ever score points, so the target is never reached; only the rounds end the game."""
    g = f.v.game
    if g.rounds is None or g.target is None or f.positive_score_possible():
        return
    yield (
        ("game.target", "scoring.meld_points"),
        f"no side can ever score points, so the target of {g.target} is never reached",
        "give melds or bonuses points, or set game.target: null",
    )


_CANASTA_DEFAULTS = CanastaRules()


@static_check(
    "C029", "warning", "a wild canasta bonus without wild melds",
    """
    extends: classic
    canastas:
      wild_bonus: 2000
    """,
)
def _wild_bonus_idle(f: Facts) -> Iterator[Raw]:
    """``canastas.wild_bonus`` is set but melds of wild cards only are not allowed."""
    c = f.v.canastas
    if not f.v.melds.wild_melds and c.wild_bonus != _CANASTA_DEFAULTS.wild_bonus:
        yield (
            ("canastas.wild_bonus", "melds.wild_melds"),
            "melds of wild cards only are not allowed, so the wild canasta bonus is never "
            "scored",
            "remove canastas.wild_bonus, or set melds.wild_melds: true",
        )


@static_check(
    "C033", "info", "a tie-break hand may go past the round limit",
    """
    extends: classic
    game:
      target: null
      rounds: 4
      tie: play_another
    """,
)
def _tie_rounds(f: Facts) -> Iterator[Raw]:
    """With a round limit and ``tie: play_another`` the game may last more hands than ``rounds``."""
    g = f.v.game
    if g.rounds is not None and g.tie == "play_another":
        yield (
            ("game.tie", "game.rounds"),
            f"a tie after {plural(g.rounds, 'hand')} is broken by playing more hands, so "
            f"the game may last longer than {g.rounds}",
            "say so in the house rules, or set game.tie: draw",
        )
