"""The rule-set conflict checker: find rules that contradict each other or never apply.

:func:`check_variant` reads a resolved :class:`~canasta.variant.model.Variant` and
returns :class:`Diagnostic` values, each with a stable code (``C001`` …), a
severity, the dotted option paths involved, a message a card player
understands and a hint. Severities:

* ``error``: the game cannot be played as written (the deal needs more cards
  than the decks hold, nobody can ever go out, the game never ends …);
* ``warning``: a rule can never apply, or two rules overlap;
* ``info``: worth knowing, but resolved by the profile (a known ambiguity of
  the rule text, a rule that never came into play in simulated hands).

Every kind of finding is registered in ``CHECKS`` with its code,
severity, title, meaning and an example profile; the documentation page and
the tests are generated from that table. Static checks are small functions
over a few precomputed facts (card counts, which melds and canastas can be
made); the dynamic check plays seeded hands with the engine itself.

:func:`check_profile` checks a profile file or bundled name: a profile that
does not load becomes a diagnostic too (``C000``, or ``C011`` for a cycle of
``extends``), and each diagnostic gets the file, line and column of the
option it names.
"""

from __future__ import annotations

import inspect
import itertools
import os
import random
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal, TextIO

import attrs
import yaml

from canasta.cards import JOKER
from canasta.engine import BLACK_THREE, GameState, Rules, compile_rules, new_game
from canasta.engine.moves import (
    WILD_TARGET,
    Add,
    Answer,
    Ask,
    Discard,
    Draw,
    Foot,
    Meld,
    Move,
    TakePile,
)
from canasta.errors import CanastaError, VariantError
from canasta.variant.loading import (
    MAX_EXTENDS,
    MAX_FILE_BYTES,
    bundled_file,
    is_bundled_name,
    load_variant,
)
from canasta.variant.model import (
    CanastaRules,
    FootRules,
    OpeningRules,
    PileRules,
    ScoringRules,
    ThreeRules,
    Variant,
)

__all__ = [
    "CHECKS",
    "MAX_MOVES_PER_HAND",
    "CheckKind",
    "Diagnostic",
    "Finding",
    "Severity",
    "Stage",
    "StaticCheck",
    "check_profile",
    "check_variant",
    "checks_rst",
    "report",
]

#: The severity of a diagnostic, ``"error"``, ``"warning"`` or ``"info"``.
Severity = Literal["error", "warning", "info"]
_SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")

#: Moves after which a simulated hand counts as never ending (``C041``).
MAX_MOVES_PER_HAND = 5000


# --------------------------------------------------------------------------- diagnostics


@attrs.frozen
class Diagnostic:
    """One finding of the checker.

    Attributes:
        code: stable code of the kind of finding, ``"C000"`` … (see ``CHECKS``).
        severity: ``"error"`` (the game cannot be played as written),
            ``"warning"`` (a rule can never apply, or two rules overlap) or
            ``"info"``.
        paths: dotted key paths of the options involved, the main one first,
            e.g. ``("going_out.wild_canastas", "melds.wild_melds")``.
        message: what is wrong, in words a card player understands.
        hint: how to fix it (may be empty).
    """

    code: str
    severity: Severity
    paths: tuple[str, ...]
    message: str
    hint: str = ""

    @property
    def path(self) -> str:
        """The main option path (the first of ``paths``), or ``""`` if there is none."""
        return self.paths[0] if self.paths else ""

    def format(self, file: str | None = None, location: tuple[int, int] | None = None) -> str:
        """Return the diagnostic as one compiler-like line.

        Args:
            file: the profile's file name, e.g. ``"house.yaml"``; omitted when ``None``.
            location: ``(line, column)`` of the option in ``file``, both 1-based.

        Returns:
            Text such as
            ``house.yaml:14:3: error C007 going_out.wild_canastas: <message> (hint: <hint>)``.
        """
        where = ""
        if file is not None:
            where = f"{file}:{location[0]}:{location[1]}: " if location else f"{file}: "
        what = f"{self.severity} {self.code}" + (f" {self.path}" if self.path else "")
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{where}{what}: {self.message}{hint}"

    def to_dict(self) -> dict[str, Any]:
        """Return the diagnostic as plain JSON-ready data.

        Returns:
            A dict with ``code``, ``severity``, ``path``, ``paths``, ``message`` and ``hint``.
        """
        return {
            "code": self.code,
            "severity": self.severity,
            "path": self.path,
            "paths": list(self.paths),
            "message": self.message,
            "hint": self.hint,
        }


@attrs.frozen
class Finding:
    """A diagnostic of a checked profile, with where it points.

    Attributes:
        diagnostic: the finding itself.
        file: display name of the checked profile (as given, or ``classic.yaml``
            for a bundled name).
        line: 1-based line of the option in ``file``, or ``None`` when the
            profile does not set it.
        column: 1-based column, or ``None``.
        origin: ``FILE:LINE:COLUMN`` of the option in the file the profile
            extends, when it is set there rather than in ``file``; else ``""``.
    """

    diagnostic: Diagnostic
    file: str
    line: int | None = None
    column: int | None = None
    origin: str = ""

    def format(self) -> str:
        """Return the compiler-like line, see :meth:`Diagnostic.format`.

        Returns:
            ``FILE:LINE:COL: SEVERITY CODE PATH: MESSAGE (hint: HINT)``; an
            inherited option adds ``(set in ORIGIN)`` to the message.
        """
        loc = (self.line, self.column) if self.line is not None and self.column is not None else None
        d = self.diagnostic
        if self.origin:
            d = attrs.evolve(d, message=f"{d.message} (set in {self.origin})")
        return d.format(self.file, loc)

    def to_dict(self) -> dict[str, Any]:
        """Return the finding as plain JSON-ready data.

        Returns:
            The diagnostic's fields plus ``file``, ``line``, ``column``,
            ``origin`` and ``title``.
        """
        out: dict[str, Any] = {
            "file": self.file, "line": self.line, "column": self.column, "origin": self.origin,
        }
        out.update(self.diagnostic.to_dict())
        kind = CHECKS.get(self.diagnostic.code)
        out["title"] = kind.title if kind else ""
        return out


# --------------------------------------------------------------------------- the registry

# What a static check yields: (paths, message, hint); the registry adds code and severity.
_Raw = tuple[tuple[str, ...], str, str]
#: A static check, a function of the variant's precomputed facts that yields
#: ``(paths, message, hint)`` for each finding.
StaticCheck = Callable[["_Facts"], Iterator[_Raw]]
#: When a kind of finding is found, ``"load"``, ``"static"`` or ``"playout"``.
Stage = Literal["load", "static", "playout"]


@attrs.frozen
class CheckKind:
    """One kind of finding, as registered in ``CHECKS``.

    Attributes:
        code: the stable code, e.g. ``"C007"``.
        severity: the severity of every diagnostic of this kind.
        title: a short title for listings.
        meaning: a paragraph on what the finding means and why.
        example: a profile (YAML) that shows the finding.
        stage: ``"load"`` (the profile does not load), ``"static"`` (read from
            the rules) or ``"playout"`` (seen in simulated hands).
        run (StaticCheck | None): the static check function, or ``None`` for the
            other stages.
    """

    code: str
    severity: Severity
    title: str
    meaning: str
    example: str
    stage: Stage
    run: StaticCheck | None = attrs.field(default=None, eq=False, repr=False)


#: Every kind of finding, by code, in code order.
CHECKS: dict[str, CheckKind] = {}


def _declare(
    code: str, severity: Severity, title: str, meaning: str, example: str, stage: Stage,
    run: StaticCheck | None = None,
) -> None:
    if code in CHECKS:
        raise ValueError(f"check code {code} registered twice")
    CHECKS[code] = CheckKind(
        code, severity, title, inspect.cleandoc(meaning), inspect.cleandoc(example) + "\n",
        stage, run,
    )


def _check(
    code: str, severity: Severity, title: str, example: str
) -> Callable[[StaticCheck], StaticCheck]:
    """Register a static check; its docstring is the meaning shown in the docs."""

    def register(fn: StaticCheck) -> StaticCheck:
        _declare(code, severity, title, fn.__doc__ or title, example, "static", fn)
        return fn

    return register


# --------------------------------------------------------------------------- facts


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class _Facts:
    """What the static checks need, computed once per variant."""

    def __init__(self, v: Variant) -> None:
        self.v = v
        r: Rules = compile_rules(v)
        self.r = r
        decks = v.deck.decks
        self.decks = decks
        self.jokers = v.deck.jokers_per_deck * decks
        self.total = 52 * decks + self.jokers
        self.dealt = v.players.count * (v.deal.hand_size + v.deal.foot_size) + (
            1 if v.deal.upcard else 0
        )
        self.stock = self.total - self.dealt
        self.copies = 4 * decks
        self.black_threes = 2 * decks
        self.threes_wild = BLACK_THREE in r.wild
        self.wild_cards = sum(self.count(k) for k in r.wild)
        self.ranks: tuple[int, ...] = r.natural_kinds
        self.new_size = r.new_size
        self.canasta_size = v.canastas.size
        # the smallest canasta: at least canasta size, and a new meld is never smaller
        self.smallest = max(self.canasta_size, self.new_size)
        rank = self.ranks[0] if self.ranks else None
        self.natural_meld = rank is not None and any(
            1 <= self.new_size - j <= self.copies and r.valid(rank, self.new_size - j, j, True)
            for j in range(0, min(self.new_size, self.wild_cards) + 1)
        )
        self.wild_meld = (
            v.melds.wild_melds
            and self.wild_cards >= self.new_size
            and r.valid(WILD_TARGET, 0, self.new_size, True)
        )
        self.any_meld = self.natural_meld or self.wild_meld
        s = self.smallest
        self.natural_canasta = (
            rank is not None and s <= self.copies and self._reachable(rank, s, 0)
        )
        mixed = [
            (s - j, j)
            for j in range(1, min(s, self.wild_cards) + 1)
            if rank is not None and s - j <= self.copies and self._reachable(rank, s - j, j)
        ]
        self.mixed_canasta = bool(mixed)
        self.mixed_naturals = min((n for n, _ in mixed), default=0)
        self.mixed_wilds = min((j for _, j in mixed), default=0)
        self.wild_canasta = (
            self.wild_meld and s <= self.wild_cards and r.valid(WILD_TARGET, 0, s, False)
        )
        self.any_canasta = self.natural_canasta or self.mixed_canasta or self.wild_canasta
        go = v.going_out
        self.needs_canasta = max(
            go.canastas, go.natural_canastas, go.mixed_canastas, go.wild_canastas
        ) > 0

    def count(self, kind: int) -> int:
        """Cards of ``kind`` (a rank number) in the decks."""
        if kind == JOKER:
            return self.jokers
        if kind == BLACK_THREE:
            return self.black_threes
        return self.copies

    def _reachable(self, rank: int, n: int, j: int) -> bool:
        """Whether a meld of ``rank`` can grow to ``n`` naturals and ``j`` wilds.

        Every meld rule is monotone (more naturals never hurt, fewer wilds never
        hurt), so it is enough that the final meld is legal and that some new
        meld of the opening size fits inside it: add the naturals first, then
        the wilds.
        """
        if not self.r.valid(rank, n, j, False):
            return False
        size = self.new_size
        return any(
            size - j0 <= n and self.r.valid(rank, size - j0, j0, True)
            for j0 in range(0, min(j, size) + 1)
        )

    def kind_problem(self) -> bool:
        """Whether a check about one canasta kind already fired (C003 to C007)."""
        go = self.v.going_out
        return (
            not self.any_meld
            or (self.needs_canasta and not self.any_canasta)
            or (go.natural_canastas > 0 and not self.natural_canasta)
            or (go.mixed_canastas > 0 and not self.mixed_canasta)
            or (go.wild_canastas > 0 and not self.wild_canasta)
            or go.wild_canastas * self.smallest > self.wild_cards
        )

    def positive_score_possible(self) -> bool:
        """Whether a side can ever score more than 0 in a hand (a sound over-estimate)."""
        v = self.v
        card_values = [self.r.value[k] for k in (*self.ranks, *self.r.wild)]
        if v.scoring.meld_points and self.any_meld and max(card_values, default=0) > 0:
            return True
        bonuses = [
            (self.natural_canasta, v.canastas.natural_bonus),
            (self.mixed_canasta, v.canastas.mixed_bonus),
            (self.wild_canasta, v.canastas.wild_bonus),
            (self.any_canasta, max((b.bonus for b in v.canastas.rank_bonuses), default=0)),
            (True, v.scoring.going_out_bonus),
            (v.going_out.concealed, v.scoring.concealed_bonus),
            (True, v.threes.red_bonus),
            (True, v.threes.red_all_bonus or 0),
            (v.threes.black_out_cards is not None, v.threes.black_out_bonus),
        ]
        return any(possible and points > 0 for possible, points in bonuses)

    def opening_bound(self) -> tuple[int, int] | None:
        """``(cards, points)``: most points a player can meld to open, or None if unbounded.

        With one card drawn a turn, a hand never grows before its side has
        opened (cards from a taken pile join the hand only once the opening is
        met), so a player opens with at most ``hand_size + 1`` cards.
        """
        v = self.v
        if v.draw.count != 1:
            return None
        n = max(v.deal.hand_size, v.deal.foot_size) + v.draw.count
        r = self.r
        naturals = sorted(
            (r.value[k] for k in self.ranks for _ in range(self.copies)), reverse=True
        )
        if v.threes.black_meld != "never" and not self.threes_wild:
            naturals = sorted(
                naturals + [r.value[BLACK_THREE]] * self.black_threes, reverse=True
            )
        wilds = sorted((r.value[k] for k in r.wild for _ in range(self.count(k))), reverse=True)
        m = v.melds
        if m.wild_melds or (v.threes.black_meld != "never" and v.threes.black_meld_wilds):
            most_wilds = n
        else:
            # in every meld wilds <= max_wilds and naturals >= min_naturals
            most_wilds = n * m.max_wilds // (m.max_wilds + m.min_naturals)
            if m.wilds_at_most_naturals:
                most_wilds = min(most_wilds, n // 2)
        best = 0
        for w in range(0, min(most_wilds, len(wilds), n) + 1):
            best = max(best, sum(wilds[:w]) + sum(naturals[: n - w]))
        return n, best


# --------------------------------------------------------------------------- load-stage kinds

_declare(
    "C000", "error", "the profile does not load",
    """
    The file is not a valid profile: a YAML syntax error, an unknown option, a
    value of the wrong type or out of range, a missing file. The message is
    the loader's own and points at the offending line. No other check runs on
    a profile that does not load.
    """,
    """
    extends: classic
    melds:
      max_wild: 2
    """,
    "load",
)

# --------------------------------------------------------------------------- errors


@_check(
    "C001", "error", "the deal needs more cards than the decks hold",
    """
    extends: classic
    deal:
      hand_size: 30
    """,
)
def _deal_too_big(f: _Facts) -> Iterator[_Raw]:
    """Every player's hand and foot, plus the upcard, must come out of the decks.

    The deal needs ``players × (hand_size + foot_size) + upcard`` cards and the
    decks hold ``52 × decks + jokers``.
    """
    if f.stock >= 0:
        return
    v = f.v
    d = v.deal
    each = f"({d.hand_size} in hand + {d.foot_size} in foot)" if d.foot_size else str(d.hand_size)
    up = " + 1 upcard" if d.upcard else ""
    yield (
        ("deal.hand_size", "deal.foot_size", "players.count", "deck.decks"),
        f"the deal needs {f.dealt} cards ({v.players.count} players × {each}{up}) but "
        f"{_plural(f.decks, 'deck')} with {f.jokers} jokers hold {f.total}",
        f"deal fewer cards or use more decks (deck.decks: {f.decks + 1})",
    )


@_check(
    "C002", "error", "the stock cannot serve one draw after the deal",
    """
    extends: classic
    deal:
      hand_size: 27
      upcard: false
    """,
)
def _stock_too_small(f: _Facts) -> Iterator[_Raw]:
    """After the deal the stock must hold at least one turn's draw.

    Otherwise the first player cannot draw as the rules say, and the hand is
    over before it starts.
    """
    if f.stock < 0 or f.stock >= f.v.draw.count:
        return
    held = "is empty" if f.stock == 0 else f"holds only {_plural(f.stock, 'card')}"
    yield (
        ("draw.count", "deal.hand_size", "deck.decks"),
        f"after the deal the stock {held}, but a player draws "
        f"{_plural(f.v.draw.count, 'card')} a turn",
        "deal fewer cards or use more decks",
    )


@_check(
    "C003", "error", "no meld can ever be laid",
    """
    extends: classic
    melds:
      min_naturals: 9
    """,
)
def _no_meld(f: _Facts) -> Iterator[_Raw]:
    """The meld limits admit no meld at all with the cards in the decks.

    For instance a minimum size above the maximum size, more naturals required
    than a rank has cards (4 per deck), or every rank wild with wild melds off.
    """
    if f.any_meld:
        return
    m = f.v.melds
    if m.max_size is not None and f.new_size > m.max_size:
        which = "min_naturals" if m.min_naturals > m.min_size else "min_size"
        yield (
            (f"melds.{which}", "melds.max_size"),
            f"a new meld needs at least {f.new_size} cards but a meld holds at most "
            f"{m.max_size}",
            f"lower melds.{which} or raise melds.max_size",
        )
        return
    if not f.ranks:
        yield (
            ("wilds.ranks", "melds.wild_melds"),
            "every rank is wild and melds of wild cards only are not allowed",
            "make fewer ranks wild, or set melds.wild_melds: true",
        )
        return
    yield (
        ("melds.min_naturals", "melds.min_size", "deck.decks"),
        f"a new meld needs {f.new_size} cards with at least {m.min_naturals} naturals of "
        f"one rank, but {_plural(f.decks, 'deck')} hold {f.copies} cards of a rank "
        f"and at most {m.max_wilds} wild cards may join",
        "lower melds.min_naturals or melds.min_size",
    )


@_check(
    "C004", "error", "no meld can become a canasta, but going out needs one",
    """
    extends: classic
    melds:
      max_size: 6
    """,
)
def _no_canasta(f: _Facts) -> Iterator[_Raw]:
    """Going out needs canastas, but the meld limits let no meld reach canasta size.

    Typical causes: ``melds.max_size`` below ``canastas.size``; fewer cards of
    a rank than a canasta needs while wild cards are limited.
    """
    if not f.any_meld or not f.needs_canasta or f.any_canasta:
        return
    m = f.v.melds
    if m.max_size is not None and m.max_size < f.canasta_size:
        yield (
            ("melds.max_size", "canastas.size", "going_out.canastas"),
            f"a meld holds at most {m.max_size} cards, so it never reaches the "
            f"{f.canasta_size} cards of a canasta, and going out needs a canasta",
            f"set melds.max_size to at least {f.canasta_size}, or null",
        )
        return
    yield (
        ("canastas.size", "going_out.canastas", "deck.decks"),
        f"no meld can reach the {f.canasta_size} cards of a canasta with "
        f"{f.copies} cards of each rank and at most {m.max_wilds} wild cards in a meld, "
        "and going out needs a canasta",
        "lower canastas.size or use more decks",
    )


@_check(
    "C005", "error", "a required kind of canasta can never be made",
    """
    extends: classic
    melds:
      max_wilds: 0
    going_out:
      mixed_canastas: 1
    """,
)
def _kind_impossible(f: _Facts) -> Iterator[_Raw]:
    """Going out needs a natural (or mixed) canasta, but none can ever be made.

    A natural canasta needs ``canastas.size`` natural cards of one rank (4 per
    deck); a mixed canasta needs a wild card in a meld that may hold one.
    """
    if not f.any_meld or (f.needs_canasta and not f.any_canasta):
        return
    go = f.v.going_out
    if go.natural_canastas > 0 and not f.natural_canasta:
        yield (
            ("going_out.natural_canastas", "canastas.size", "deck.decks"),
            f"going out needs {_plural(go.natural_canastas, 'natural canasta')}, but "
            f"{f.smallest} natural cards of one rank can never be melded together "
            f"({_plural(f.decks, 'deck')} hold {f.copies} of each rank)",
            "lower going_out.natural_canastas or canastas.size, or use more decks",
        )
    if go.mixed_canastas > 0 and not f.mixed_canasta:
        yield (
            ("going_out.mixed_canastas", "melds.max_wilds"),
            f"going out needs {_plural(go.mixed_canastas, 'mixed canasta')}, but no "
            "canasta can hold a wild card under the meld rules",
            "set going_out.mixed_canastas: 0, or allow wild cards in melds",
        )


@_check(
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
def _few_wilds(f: _Facts) -> Iterator[_Raw]:
    """Going out needs wild canastas, but the decks hold too few wild cards.

    Each wild canasta takes ``canastas.size`` wild cards; the decks hold 4 of
    each wild rank per deck and ``jokers_per_deck`` jokers per deck.
    """
    go = f.v.going_out
    if go.wild_canastas == 0 or not f.v.melds.wild_melds or not f.any_meld:
        return
    if f.needs_canasta and not f.any_canasta:
        return
    need = go.wild_canastas * f.smallest
    if f.wild_canasta and f.wild_cards >= need:
        return
    yield (
        ("going_out.wild_canastas", "wilds.ranks", "deck.jokers_per_deck"),
        f"going out needs {_plural(go.wild_canastas, 'wild canasta')} of {f.smallest} "
        f"wild cards each ({need} in all), but the decks hold only "
        f"{_plural(f.wild_cards, 'wild card')}",
        "lower going_out.wild_canastas, or add wild cards (jokers, decks)",
    )


@_check(
    "C007", "error", "wild canastas required while wild melds are off",
    """
    extends: classic
    going_out:
      wild_canastas: 1
    """,
)
def _wild_melds_off(f: _Facts) -> Iterator[_Raw]:
    """Going out needs a wild canasta, but melds of wild cards only are not allowed.

    A wild canasta is a meld of wild cards only, which needs
    ``melds.wild_melds: true``; as written nobody can ever go out.
    """
    go = f.v.going_out
    if go.wild_canastas > 0 and not f.v.melds.wild_melds:
        yield (
            ("going_out.wild_canastas", "melds.wild_melds"),
            f"going out needs {_plural(go.wild_canastas, 'wild canasta')}, but melds of "
            "wild cards only are not allowed, so nobody can ever go out",
            "set melds.wild_melds: true, or going_out.wild_canastas: 0",
        )


@_check(
    "C008", "error", "more canastas required than the cards allow",
    """
    extends: classic
    going_out:
      canastas: 12
    """,
)
def _too_many_canastas(f: _Facts) -> Iterator[_Raw]:
    """Going out needs more canastas than the decks can make at once.

    Without ``melds.duplicate_ranks: after_complete`` a side has one meld per
    rank, so at most one canasta of each natural rank (11 with 2s wild and 3s
    special) plus wild canastas; natural cards and wild cards also run out.
    """
    go = f.v.going_out
    if not f.needs_canasta or f.kind_problem():
        return
    m = f.v.melds
    total = max(go.canastas, go.natural_canastas + go.mixed_canastas + go.wild_canastas)
    per_rank = 1
    if m.duplicate_ranks == "after_complete" and m.max_size is not None:
        needs = [n for ok, n in ((f.natural_canasta, f.smallest),
                                 (f.mixed_canasta, f.mixed_naturals)) if ok and n > 0]
        per_rank = max(1, f.copies // min(needs, default=f.copies))
    rank_melds = len(f.ranks) * per_rank if (f.natural_canasta or f.mixed_canasta) else 0
    wild_most = f.wild_cards // f.smallest if f.wild_canasta else 0
    problems = []
    if total > rank_melds + wild_most:
        problems.append(f"at most {rank_melds + wild_most} canastas can be on the table at once")
    elif go.natural_canastas + go.mixed_canastas > rank_melds:
        problems.append(f"at most {rank_melds} natural or mixed canastas can be made")
    elif go.wild_canastas * f.smallest + go.mixed_canastas * f.mixed_wilds > f.wild_cards:
        problems.append(f"the decks hold only {_plural(f.wild_cards, 'wild card')}")
    elif (
        go.natural_canastas * f.smallest + go.mixed_canastas * f.mixed_naturals
        > len(f.ranks) * f.copies
    ):
        problems.append("there are too few natural cards")
    if problems:
        yield (
            ("going_out.canastas", "going_out.natural_canastas", "going_out.mixed_canastas",
             "going_out.wild_canastas"),
            f"going out needs {_plural(total, 'canasta')}, but {problems[0]}, so nobody "
            "can ever go out",
            "require fewer canastas",
        )


@_check(
    "C009", "error", "an opening minimum no hand can reach",
    """
    extends: classic
    opening:
      by: round
      round_table: [500]
    """,
)
def _opening_unreachable(f: _Facts) -> Iterator[_Raw]:
    """The opening minimum is higher than any player can meld before the side has opened.

    With one card drawn a turn a player holds at most ``hand_size + 1`` cards
    when opening (a taken pile joins the hand only after the opening), so the
    best those cards can be worth in legal melds bounds every opening. A side
    that meets this row of the table can never meld again.
    """
    v = f.v
    if v.opening.by == "none" or not f.any_meld:
        return
    bound = f.opening_bound()
    if bound is None:
        return
    cards, best = bound
    if v.opening.by == "score":
        rows = [(f"opening.score_table[{i}].minimum", s.minimum)
                for i, s in enumerate(v.opening.score_table)]
    else:
        rows = [(f"opening.round_table[{i}]", x) for i, x in enumerate(v.opening.round_table)]
    for path, minimum in rows:
        if minimum > best:
            yield (
                (path, "deal.hand_size"),
                f"an opening of {minimum} points is needed, but the best {cards} cards a "
                f"player can hold before the side opens are worth at most {best} in melds",
                f"lower the minimum to at most {best}",
            )
            return


@_check(
    "C010", "error", "the game never ends",
    """
    extends: classic
    game:
      target: null
    """,
)
def _never_ends(f: _Facts) -> Iterator[_Raw]:
    """The game has neither a target score that can be reached nor a number of rounds.

    With ``game.target: null`` and ``game.rounds: null`` nothing ends the game;
    the same holds when no side can ever score points (every bonus and card
    value 0) and only a target is set.
    """
    g = f.v.game
    if g.rounds is not None:
        return
    if g.target is None:
        yield (
            ("game.target", "game.rounds"),
            "the game has no target score and no number of rounds, so it never ends",
            "set game.target (e.g. 5000) or game.rounds",
        )
    elif not f.positive_score_possible():
        yield (
            ("game.target", "scoring.meld_points"),
            f"no side can ever score points, so the target of {g.target} is never "
            "reached and the game never ends",
            "give melds or bonuses points, or set game.rounds",
        )


_declare(
    "C011", "error", "a cycle of extends",
    """
    The profile extends itself, directly or through other files, so it has no
    base to start from. Reported instead of ``C000`` when the loader refuses a
    profile and its chain of ``extends`` comes back to a file already in it.
    """,
    """
    # house.yaml
    extends: house.yaml
    """,
    "load",
)

# --------------------------------------------------------------------------- warnings


@_check(
    "C012", "warning", "a black-3 out needs more black 3s than the decks hold",
    """
    extends: classic
    threes:
      black_out_cards: 5
    """,
)
def _black_out_impossible(f: _Facts) -> Iterator[_Raw]:
    """The black-3 out asks for more black 3s than exist (2 per deck), so it never happens."""
    n = f.v.threes.black_out_cards
    if n is None or f.threes_wild or n <= f.black_threes:
        return
    yield (
        ("threes.black_out_cards", "deck.decks"),
        f"a black-3 out needs {n} black 3s, but {_plural(f.decks, 'deck')} hold only "
        f"{f.black_threes}, so it can never happen",
        f"set threes.black_out_cards to at most {f.black_threes}, or null",
    )


_BLACK_DEFAULTS = ThreeRules()


@_check(
    "C013", "warning", "black-3 meld settings that never apply",
    """
    extends: classic
    threes:
      black_meld: never
      black_meld_wilds: true
    """,
)
def _black_meld(f: _Facts) -> Iterator[_Raw]:
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


@_check(
    "C014", "warning", "3s are wild: the black-3 rules never apply",
    """
    extends: classic
    wilds:
      ranks: ['2', JK, '3']
    """,
)
def _threes_wild(f: _Facts) -> Iterator[_Raw]:
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


_PILE_DEFAULTS = PileRules()


@_check(
    "C015", "warning", "a second-wild rule that never applies",
    """
    extends: classic
    melds:
      max_wilds: 1
      second_wild: by_size
    """,
)
def _second_wild_idle(f: _Facts) -> Iterator[_Raw]:
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
            f"a meld holds at most {_plural(m.max_wilds, 'wild card')}, so the rule for "
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


@_check(
    "C016", "warning", "a foot rule without a foot",
    """
    extends: classic
    foot:
      trigger: empty_hand
    """,
)
def _foot_without_foot(f: _Facts) -> Iterator[_Raw]:
    """A foot option is set but no foot is dealt (``deal.foot_size: 0``)."""
    v = f.v
    if v.deal.foot_size == 0 and v.foot != FootRules():
        yield (
            ("foot.trigger", "deal.foot_size"),
            "no foot is dealt, so the rule for picking it up has no effect",
            "set deal.foot_size, or remove foot.trigger",
        )


@_check(
    "C017", "warning", "the discard pile can never be taken",
    """
    extends: classic
    pile:
      stop_cards: [wild, black_three, natural]
    """,
)
def _pile_never_taken(f: _Facts) -> Iterator[_Raw]:
    """No card on top of the pile can ever be taken, so the pile only grows.

    ``natural`` among the stop cards blocks every card that could be taken;
    turning off every way to take the pile has the same effect. The pile
    rules (freezing, lay-off, stock-empty duty) then never apply.
    """
    p = f.v.pile
    if "natural" in p.stop_cards:
        yield (
            ("pile.stop_cards",),
            "natural cards are stop cards, and only a natural card can be taken, so the "
            "discard pile can never be taken",
            "remove 'natural' from pile.stop_cards",
        )
        return
    wild_way = p.take_natural_and_wild and f.wild_cards > 0
    if not (p.take_natural_pair or p.take_lay_off or wild_way):
        yield (
            ("pile.take_natural_pair", "pile.take_lay_off", "pile.take_natural_and_wild"),
            "every way of taking the discard pile is turned off, so it can never be taken",
            "allow at least pile.take_natural_pair",
        )


def _pile_taken_sometimes(f: _Facts) -> bool:
    p = f.v.pile
    wild_way = p.take_natural_and_wild and f.wild_cards > 0
    return "natural" not in p.stop_cards and (p.take_natural_pair or p.take_lay_off or wild_way)


@_check(
    "C018", "warning", "a way of taking the pile that never applies",
    """
    extends: classic
    pile:
      take_lay_off: false
      lay_off_after_canasta: false
    """,
)
def _pile_way_idle(f: _Facts) -> Iterator[_Raw]:
    """An option about taking the pile cannot matter given the others.

    ``take_natural_and_wild`` needs wild cards in the decks;
    ``lay_off_after_canasta: false`` restricts ``take_lay_off`` and means
    nothing when lay-offs are off.
    """
    if not _pile_taken_sometimes(f):
        return
    p = f.v.pile
    if p.take_natural_and_wild and f.wild_cards == 0:
        yield (
            ("pile.take_natural_and_wild", "wilds.ranks"),
            "the decks hold no wild cards, so the pile is never taken with a natural and a "
            "wild card",
            "remove pile.take_natural_and_wild",
        )
    if not p.take_lay_off and p.lay_off_after_canasta != _PILE_DEFAULTS.lay_off_after_canasta:
        yield (
            ("pile.lay_off_after_canasta", "pile.take_lay_off"),
            "the pile is never taken by laying its top card off, so "
            "pile.lay_off_after_canasta has no effect",
            "remove pile.lay_off_after_canasta",
        )


@_check(
    "C019", "warning", "a pile block, or its exception, that never applies",
    """
    extends: classic
    pile:
      blocked_by_meld_size: 5
    """,
)
def _block_idle(f: _Facts) -> Iterator[_Raw]:
    """The Hand and Foot block on taking the pile, or its exception, cannot apply.

    ``blocked_exception`` means nothing without ``blocked_by_meld_size``; the
    block never applies when melds close before reaching it; and the
    exception (finish the blocking meld, start a new one) needs melds that
    close at canasta size (``melds.max_size`` equal to ``canastas.size``) and
    ``melds.duplicate_ranks: after_complete``.
    """
    if not _pile_taken_sometimes(f):
        return
    p = f.v.pile
    m = f.v.melds
    block = p.blocked_by_meld_size
    if block is None:
        if p.blocked_exception != _PILE_DEFAULTS.blocked_exception:
            yield (
                ("pile.blocked_exception", "pile.blocked_by_meld_size"),
                "the pile is never blocked by a meld, so pile.blocked_exception has no effect",
                "remove pile.blocked_exception",
            )
        return
    if m.max_size is not None and block >= m.max_size:
        yield (
            ("pile.blocked_by_meld_size", "melds.max_size"),
            f"a meld closes at {m.max_size} cards, so no open meld ever has {block} cards "
            "and the pile is never blocked",
            f"set pile.blocked_by_meld_size below {m.max_size}",
        )
        return
    if p.blocked_exception:
        if m.duplicate_ranks != "after_complete":
            why, path = "a side may never start a second meld of a rank", "melds.duplicate_ranks"
        elif m.max_size is None or m.max_size > f.canasta_size:
            why, path = "finishing the canasta does not close the meld", "melds.max_size"
        else:
            return
        yield (
            ("pile.blocked_exception", path, "pile.blocked_by_meld_size"),
            f"the exception to the pile block never applies: {why}",
            "set melds.duplicate_ranks: after_complete and melds.max_size equal to "
            "canastas.size, or pile.blocked_exception: false",
        )


_SCORING_DEFAULTS = ScoringRules()


@_check(
    "C020", "warning", "a concealed bonus without concealed going out",
    """
    extends: classic
    going_out:
      concealed: false
    scoring:
      concealed_bonus: 300
    """,
)
def _concealed_idle(f: _Facts) -> Iterator[_Raw]:
    """``scoring.concealed_bonus`` is set but going out concealed is not recognised."""
    v = f.v
    if not v.going_out.concealed and v.scoring.concealed_bonus != _SCORING_DEFAULTS.concealed_bonus:
        yield (
            ("scoring.concealed_bonus", "going_out.concealed"),
            "going out concealed is not recognised, so its bonus is never scored",
            "remove scoring.concealed_bonus, or set going_out.concealed: true",
        )


@_check(
    "C021", "warning", "a rank bonus that never applies",
    """
    extends: classic
    canastas:
      rank_bonuses:
        - {rank: '2', kind: natural, bonus: 1000}
    """,
)
def _rank_bonus_idle(f: _Facts) -> Iterator[_Raw]:
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


@_check(
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
def _target_unreachable(f: _Facts) -> Iterator[_Raw]:
    """No side can ever score points, so the target is never reached; only the rounds end the game."""
    g = f.v.game
    if g.rounds is None or g.target is None or f.positive_score_possible():
        return
    yield (
        ("game.target", "scoring.meld_points"),
        f"no side can ever score points, so the target of {g.target} is never reached",
        "give melds or bonuses points, or set game.target: null",
    )


_OPENING_DEFAULTS = OpeningRules()


@_check(
    "C023", "warning", "an empty opening table",
    """
    extends: classic
    opening:
      score_table: []
    """,
)
def _opening_empty(f: _Facts) -> Iterator[_Raw]:
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


@_check(
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
def _opening_order(f: _Facts) -> Iterator[_Raw]:
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
        for a, b in itertools.pairwise(rows):
            if o.score_table[b].minimum < o.score_table[a].minimum:
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


@_check(
    "C025", "warning", "an opening table that is never used",
    """
    extends: classic
    opening:
      round_table: [50, 100]
    """,
)
def _opening_unused(f: _Facts) -> Iterator[_Raw]:
    """An opening table is set but ``opening.by`` reads the other one (or none)."""
    o = f.v.opening
    for by in ("score", "round"):
        name = f"{by}_table"
        if o.by != by and getattr(o, name) != getattr(_OPENING_DEFAULTS, name):
            yield (
                (f"opening.{name}", "opening.by"),
                f"the opening minimum goes by {o.by}, so opening.{name} is never used",
                f"remove opening.{name}, or set opening.by: {by}",
            )


@_check(
    "C026", "warning", "partnerships that cannot be formed",
    """
    extends: classic
    players:
      count: 3
    """,
)
def _partnerships(f: _Facts) -> Iterator[_Raw]:
    """Partnerships need an even number of players, at least 4; otherwise each plays alone."""
    p = f.v.players
    if p.partnerships and (p.count % 2 == 1 or p.count < 4):
        yield (
            ("players.partnerships", "players.count"),
            f"{p.count} players cannot sit in two partnerships, so each plays alone",
            "set players.partnerships: false",
        )


@_check(
    "C027", "warning", "jokers that are not wild",
    """
    extends: classic
    wilds:
      ranks: ['2']
    """,
)
def _jokers_not_wild(f: _Facts) -> Iterator[_Raw]:
    """Jokers are in the decks but not wild; a joker can then never be melded, only discarded."""
    if f.jokers > 0 and JOKER not in f.r.wild:
        yield (
            ("wilds.ranks", "deck.jokers_per_deck"),
            f"the decks hold {f.jokers} jokers but jokers are not wild, so they can never be "
            "melded and only count against the hand",
            "add JK to wilds.ranks, or set deck.jokers_per_deck: 0",
        )


_DRAW_SHORT_DEFAULT = "draw_remaining"


@_check(
    "C028", "warning", "a short-stock rule with a one-card draw",
    """
    extends: classic
    draw:
      short_stock: end_hand
    """,
)
def _short_stock_idle(f: _Facts) -> Iterator[_Raw]:
    """``draw.short_stock`` only matters when a player draws more than one card."""
    d = f.v.draw
    if d.count == 1 and d.short_stock != _DRAW_SHORT_DEFAULT:
        yield (
            ("draw.short_stock", "draw.count"),
            "a player draws one card, so the stock never holds fewer cards than a draw "
            "needs and draw.short_stock has no effect",
            "remove draw.short_stock",
        )


_CANASTA_DEFAULTS = CanastaRules()


@_check(
    "C029", "warning", "a wild canasta bonus without wild melds",
    """
    extends: classic
    canastas:
      wild_bonus: 2000
    """,
)
def _wild_bonus_idle(f: _Facts) -> Iterator[_Raw]:
    """``canastas.wild_bonus`` is set but melds of wild cards only are not allowed."""
    c = f.v.canastas
    if not f.v.melds.wild_melds and c.wild_bonus != _CANASTA_DEFAULTS.wild_bonus:
        yield (
            ("canastas.wild_bonus", "melds.wild_melds"),
            "melds of wild cards only are not allowed, so the wild canasta bonus is never "
            "scored",
            "remove canastas.wild_bonus, or set melds.wild_melds: true",
        )


@_check(
    "C030", "warning", "every new meld is already a canasta",
    """
    extends: classic
    canastas:
      size: 3
    """,
)
def _meld_is_canasta(f: _Facts) -> Iterator[_Raw]:
    """A new meld is at least as big as a canasta, so melds and canastas are the same thing."""
    if f.any_meld and f.new_size >= f.canasta_size:
        yield (
            ("canastas.size", "melds.min_size"),
            f"a new meld has {f.new_size} cards and a canasta needs {f.canasta_size}, so "
            "every meld is a canasta from the start",
            "raise canastas.size above melds.min_size",
        )


# --------------------------------------------------------------------------- infos


@_check(
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
def _second_wild_readings(f: _Facts) -> Iterator[_Raw]:
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


@_check(
    "C032", "info", "fewer canastas required than the kinds listed",
    """
    extends: classic
    going_out:
      canastas: 1
      natural_canastas: 1
      mixed_canastas: 1
    """,
)
def _canasta_total_low(f: _Facts) -> Iterator[_Raw]:
    """``going_out.canastas`` is lower than the natural, mixed and wild canastas it lists.

    The engine requires each count, so the side in fact needs their sum; the
    total as written is misleading but harmless.
    """
    go = f.v.going_out
    kinds = go.natural_canastas + go.mixed_canastas + go.wild_canastas
    if go.canastas < kinds:
        yield (
            ("going_out.canastas", "going_out.natural_canastas", "going_out.mixed_canastas",
             "going_out.wild_canastas"),
            f"going out needs {_plural(go.canastas, 'canasta')} but lists {kinds} of "
            f"particular kinds, so the side in fact needs {kinds}",
            f"set going_out.canastas: {kinds}",
        )


@_check(
    "C033", "info", "a tie-break hand may go past the round limit",
    """
    extends: classic
    game:
      target: null
      rounds: 4
      tie: play_another
    """,
)
def _tie_rounds(f: _Facts) -> Iterator[_Raw]:
    """With a round limit and ``tie: play_another`` the game may last more hands than ``rounds``."""
    g = f.v.game
    if g.rounds is not None and g.tie == "play_another":
        yield (
            ("game.tie", "game.rounds"),
            f"a tie after {_plural(g.rounds, 'hand')} is broken by playing more hands, so "
            f"the game may last longer than {g.rounds}",
            "say so in the house rules, or set game.tie: draw",
        )


# --------------------------------------------------------------------------- later warnings


@_check(
    "C034", "warning", "second melds of a rank with melds that never close",
    """
    extends: classic
    melds:
      duplicate_ranks: after_complete
    """,
)
def _duplicates_idle(f: _Facts) -> Iterator[_Raw]:
    """``duplicate_ranks: after_complete`` needs melds that close (``melds.max_size``).

    A side may start a second meld of a rank once its first one is complete
    and closed, and a meld closes only when it reaches ``melds.max_size``;
    with no maximum no meld ever closes, so no second meld is ever started.
    """
    m = f.v.melds
    if m.duplicate_ranks == "after_complete" and m.max_size is None and f.any_meld:
        yield (
            ("melds.duplicate_ranks", "melds.max_size"),
            "a meld closes only at melds.max_size and there is no maximum, so a second "
            "meld of a rank can never be started",
            f"set melds.max_size (e.g. {f.canasta_size}), or remove melds.duplicate_ranks",
        )


# --------------------------------------------------------------------------- playout kinds

_PLAYOUT_EXAMPLE = "extends: classic\n"

_declare(
    "C040", "error", "the engine failed during play",
    """
    A simulated hand (``--playouts N``) raised an exception in the engine:
    the rules as written reach a state the engine cannot handle. The message
    names the deal seed, the move and the exception, so the hand can be
    replayed with ``canasta.new_game(variant, seed=S)``.
    """,
    _PLAYOUT_EXAMPLE,
    "playout",
)
_declare(
    "C041", "error", "a hand that never ends",
    f"""
    A simulated hand was still going after {MAX_MOVES_PER_HAND} moves. Some
    combination of rules lets players go round forever (for instance taking
    and discarding the pile with an empty stock).
    """,
    _PLAYOUT_EXAMPLE,
    "playout",
)
_declare(
    "C042", "error", "a position with no legal move",
    """
    A simulated hand reached a position, not at the end of the hand, in which
    the player to move has no legal move at all.
    """,
    _PLAYOUT_EXAMPLE,
    "playout",
)
_declare(
    "C043", "warning", "nobody went out in any simulated hand",
    """
    In all the simulated hands every hand ended with the stock, never with a
    player going out. Going out is possible in principle (the static checks
    found no contradiction) but so hard that it may as well not be a rule.
    The playouts mix random play with a simple greedy player; a real table
    plays better, so treat this as a strong hint rather than a proof.
    """,
    """
    extends: draw-two
    going_out:
      canastas: 8
    """,
    "playout",
)
_declare(
    "C044", "info", "a rule that never came into play",
    """
    An option that can take effect never did in any simulated hand: the pile
    was never taken in some way, the foot never picked up, nobody asked to go
    out, no black-3 out, no canasta of some kind. Worth a look when the
    option matters to the table; with few playouts it is expected.
    """,
    """
    extends: classic
    threes:
      black_out_cards: 3
    """,
    "playout",
)


# --------------------------------------------------------------------------- playouts


def _policy_greedy(moves: Sequence[Move], rng: random.Random, r: Rules) -> Move:
    """A simple player: go out, meld and add, take the pile, discard the cheapest card."""

    def score(m: Move) -> float:
        if isinstance(m, Discard):
            if m.out:
                return 100.0
            return -float(r.value[m.kind]) - (30.0 if r.is_wild[m.kind] else 0.0)
        if isinstance(m, Answer):
            return 95.0 if m.yes else -50.0
        if isinstance(m, Foot):
            return 90.0
        if isinstance(m, Meld):
            wild = sum(1 for k in m.kinds if r.is_wild[k])
            return 72.0 if wild == len(m.kinds) else 70.0 - 5 * wild
        if isinstance(m, Add):
            return 55.0 if r.is_wild[m.kind] and m.target != WILD_TARGET else 65.0
        if isinstance(m, TakePile):
            return 50.0
        if isinstance(m, Draw):
            return 40.0
        return -100.0

    return max(moves, key=lambda m: score(m) + rng.random() * 0.1)


@attrs.define
class _Tally:
    """What happened over all simulated hands."""

    hands: int = 0
    outs: int = 0
    events: set[str] = attrs.field(factory=set)
    failures: dict[str, list[str]] = attrs.field(factory=dict)

    def fail(self, code: str, text: str) -> None:
        self.failures.setdefault(code, []).append(text)


def _note(tally: _Tally, s: GameState, m: Move, after: GameState) -> None:
    if isinstance(m, TakePile):
        tally.events.add(f"take:{m.way}")
    elif isinstance(m, Foot):
        tally.events.add("foot")
    elif isinstance(m, Ask):
        tally.events.add("ask")
    elif isinstance(m, Meld) and m.kinds and all(k == BLACK_THREE for k in m.kinds):
        tally.events.add("black_meld")
    elif (
        isinstance(m, Discard) and not m.out and not after.is_hand_over
        and not after.hands_[s.current]
    ):
        tally.events.add("out_but_not_out")


def _play_hand(v: Variant, deal_seed: int, rng: random.Random, greedy: bool, tally: _Tally) -> None:
    r = compile_rules(v)
    policy = "greedy" if greedy else "random"
    where = f"hand dealt with seed {deal_seed} ({policy} play)"
    move: Move | None = None
    count = 0
    try:
        s = new_game(v, seed=deal_seed)
        while not s.is_hand_over:
            if count >= MAX_MOVES_PER_HAND:
                tally.fail("C041", f"{where} did not end after {count} moves")
                return
            moves = s.legal_moves()
            if not moves:
                last = f" '{move}'" if move is not None else ""
                tally.fail(
                    "C042",
                    f"{where}: seat {s.current_player} has no legal move after move {count}"
                    f"{last} ({s!r})",
                )
                return
            move = _policy_greedy(moves, rng, r) if greedy else moves[rng.randrange(len(moves))]
            after = s.apply(move)
            _note(tally, s, move, after)
            s = after
            count += 1
    except Exception as exc:  # the point is to report any engine failure
        what = f"move {count + 1} '{move}'" if move is not None else "the deal"
        tally.fail("C040", f"{where}, {what}: {type(exc).__name__}: {exc}")
        return
    end = s.end
    if end is not None and end.reason == "out":
        tally.outs += 1
        if end.concealed:
            tally.events.add("concealed")
        if end.black_three_out:
            tally.events.add("black_out")
    for side_melds in s.melds_:
        for meld in side_melds:
            kind = r.canasta_kind(meld)
            if kind is not None:
                tally.events.add(f"canasta:{kind}")


def _playouts(v: Variant, n: int, seed: int) -> list[Diagnostic]:
    tally = _Tally()
    for i in range(n):
        deal_seed = seed + i
        rng = random.Random(seed * 1_000_003 + i)
        _play_hand(v, deal_seed, rng, greedy=(i % 2 == 0), tally=tally)
        tally.hands += 1
    out: list[Diagnostic] = []
    for code in ("C040", "C041", "C042"):
        texts = tally.failures.get(code)
        if texts:
            more = f" ({len(texts)} of {n} hands; the first shown)" if len(texts) > 1 else ""
            out.append(_diag(code, (), texts[0] + more, "please report this with the profile"))
    if tally.failures:
        return out
    if n > 0 and tally.outs == 0:
        out.append(_diag(
            "C043", ("going_out.canastas",),
            f"nobody went out in {_plural(n, 'simulated hand')}: every hand ended with the "
            "stock",
            "make going out easier (fewer canastas required), or check more hands",
        ))
    out.extend(_unused_rules(v, tally, n))
    return out


def _unused_rules(v: Variant, tally: _Tally, n: int) -> Iterator[Diagnostic]:
    f = _Facts(v)
    p = v.pile
    candidates: list[tuple[bool, str, str, str]] = []
    if _pile_taken_sometimes(f):
        candidates += [
            (p.take_natural_pair, "take:pair", "pile.take_natural_pair",
             "the pile was never taken with a natural pair"),
            (p.take_lay_off, "take:layoff", "pile.take_lay_off",
             "the pile was never taken by laying its top card off"),
            (p.take_natural_and_wild and f.wild_cards > 0, "take:wild",
             "pile.take_natural_and_wild", "the pile was never taken with a natural and a wild"),
            (p.blocked_by_meld_size is not None and p.blocked_exception, "take:finish",
             "pile.blocked_exception", "the pile block's exception was never used"),
        ]
    partners = any(len(side) > 1 for side in v.sides)
    candidates += [
        (v.deal.foot_size > 0, "foot", "deal.foot_size", "no foot was ever picked up"),
        (v.going_out.ask_partner and partners, "ask", "going_out.ask_partner",
         "nobody ever asked the partner to go out"),
        (v.threes.black_out_cards is not None and not f.threes_wild, "black_out",
         "threes.black_out_cards", "nobody ever went out with black 3s"),
        (v.threes.black_meld != "never" and not f.threes_wild, "black_meld",
         "threes.black_meld", "black 3s were never melded"),
        (v.going_out.concealed, "concealed", "going_out.concealed",
         "nobody ever went out concealed"),
        (v.going_out.out_but_not_out, "out_but_not_out", "going_out.out_but_not_out",
         "nobody ever played on with no cards ('out, but not out')"),
        (f.natural_canasta, "canasta:natural", "canastas.natural_bonus",
         "no natural canasta was ever made"),
        (f.mixed_canasta, "canasta:mixed", "canastas.mixed_bonus",
         "no mixed canasta was ever made"),
        (f.wild_canasta, "canasta:wild", "canastas.wild_bonus", "no wild canasta was ever made"),
    ]
    for possible, event, path, text in candidates:
        if possible and event not in tally.events:
            yield _diag(
                "C044", (path,), f"{text} in {_plural(n, 'simulated hand')}",
                "check more hands, or ask whether the rule is needed",
            )


# --------------------------------------------------------------------------- entry points


def _diag(code: str, paths: tuple[str, ...], message: str, hint: str) -> Diagnostic:
    kind = CHECKS[code]
    return Diagnostic(code, kind.severity, paths, message, hint)


def check_variant(variant: Variant, *, playouts: int = 0, seed: int = 0) -> list[Diagnostic]:
    """Check a variant for rules that contradict each other or can never apply.

    Args:
        variant: the rules, e.g. ``canasta.load_variant("house.yaml")``.
        playouts: also play this many seeded hands (alternately a simple greedy
            player and random legal moves) and report engine failures, hands
            that never end, nobody ever going out, and rules that never came
            into play.
        seed: the first deal seed of the playouts; hand ``i`` is dealt with
            ``canasta.new_game(variant, seed=seed + i)``.

    Returns:
        The diagnostics, static ones in code order, then those of the playouts.
        Empty when nothing was found.

    Raises:
        CanastaError: ``variant`` is not a Variant, or ``playouts`` is negative.
    """
    if not isinstance(variant, Variant):
        raise CanastaError(f"check_variant expects a Variant, got {type(variant).__name__}")
    if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 0:
        raise CanastaError(f"playouts must be an integer >= 0, got {playouts!r}")
    facts = _Facts(variant)
    out: list[Diagnostic] = []
    for kind in CHECKS.values():
        if kind.run is None:
            continue
        for paths, message, hint in kind.run(facts):
            out.append(Diagnostic(kind.code, kind.severity, paths, message, hint))
    if playouts:
        out.extend(_playouts(variant, playouts, seed))
    return out


# --------------------------------------------------------------------------- files and locations

_Pos = tuple[int, int]


def _compose(path: Path) -> yaml.Node | None:
    """The YAML node tree of ``path``, or None when it cannot be read or parsed."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        text = path.read_text(encoding="utf-8")
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError, ValueError):
        return None


def _positions(node: yaml.Node | None) -> dict[str, _Pos]:
    """Map each dotted key path (``melds.max_size``, ``opening.round_table[1]``) to its position."""
    out: dict[str, _Pos] = {}

    def walk(n: yaml.Node, prefix: str, depth: int) -> None:
        if depth > 32:
            return
        if isinstance(n, yaml.MappingNode):
            for key, value in n.value:
                if not isinstance(key, yaml.ScalarNode):
                    continue
                p = f"{prefix}.{key.value}" if prefix else str(key.value)
                out.setdefault(p, (key.start_mark.line + 1, key.start_mark.column + 1))
                walk(value, p, depth + 1)
        elif isinstance(n, yaml.SequenceNode):
            for i, item in enumerate(n.value):
                p = f"{prefix}[{i}]"
                out.setdefault(p, (item.start_mark.line + 1, item.start_mark.column + 1))
                walk(item, p, depth + 1)

    if node is not None:
        walk(node, "", 0)
    return out


def _extends_of(node: yaml.Node | None) -> tuple[str, _Pos] | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    for key, value in node.value:
        if (
            isinstance(key, yaml.ScalarNode) and key.value == "extends"
            and isinstance(value, yaml.ScalarNode) and value.value
        ):
            return str(value.value), (key.start_mark.line + 1, key.start_mark.column + 1)
    return None


def _parent(target: str, path: Path, display: str) -> tuple[Path, str, bool] | None:
    """The file an ``extends: target`` in ``path`` names: (path, display name, bundled)."""
    if is_bundled_name(target):
        try:
            bundled_path, bundled_display = bundled_file(target)
        except VariantError:
            return None
        return bundled_path, bundled_display, True
    return (
        path.parent / target,
        os.path.normpath(os.path.join(os.path.dirname(display), target)),
        False,
    )


def _chain(path: Path, display: str) -> Iterator[tuple[Path, str, yaml.Node | None]]:
    """The file and its ancestors through ``extends``, each once."""
    seen: set[Path] = set()
    for _ in range(MAX_EXTENDS + 2):
        try:
            key = path.resolve()
        except OSError:
            return
        if key in seen:
            return
        seen.add(key)
        node = _compose(path)
        yield path, display, node
        ext = _extends_of(node)
        if ext is None:
            return
        parent = _parent(ext[0], path, display)
        if parent is None:
            return
        path, display, _ = parent


def _find_cycle(path: Path, display: str) -> Finding | None:
    """A C011 finding when the chain of ``extends`` from ``path`` comes back on itself."""
    start = display
    first: _Pos | None = None
    seen: list[tuple[Path, str]] = []
    for _ in range(MAX_EXTENDS + 2):
        try:
            key = path.resolve()
        except OSError:
            return None
        seen.append((key, display))
        ext = _extends_of(_compose(path))
        if ext is None:
            return None
        first = first or ext[1]
        parent = _parent(ext[0], path, display)
        if parent is None or parent[2]:
            return None  # bundled profiles never form a cycle
        nxt, nxt_display, _ = parent
        try:
            nxt_key = nxt.resolve()
        except OSError:
            return None
        if any(k == nxt_key for k, _ in seen):
            names = " -> ".join([*(d for _, d in seen), nxt_display])
            what = "extends itself" if nxt_key == seen[0][0] else "leads into a cycle of extends"
            diag = _diag(
                "C011", ("extends",), f"the profile {what}: {names}",
                "make one file of the cycle extend a bundled profile instead",
            )
            # at the profile's own `extends:` line, where the reader can follow the chain
            return Finding(diag, start, *first)
        path, display = nxt, nxt_display
    return None


_LOADER_MESSAGE = re.compile(r"(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<rest>.*)", re.S)
_LOADER_PATH = re.compile(r"(?P<path>[A-Za-z_][\w-]*(?:\.[\w-]+|\[\d+\])*): (?P<rest>.*)", re.S)


def _at(diag: Diagnostic, profile: str, file: str, line: int, column: int) -> Finding:
    """A finding of ``profile`` at ``file:line:column``, which may be a file it extends."""
    if file == profile:
        return Finding(diag, profile, line, column)
    return Finding(diag, profile, origin=f"{file}:{line}:{column}")


def _load_failure(exc: VariantError, display: str) -> Finding:
    text = str(exc)
    where: tuple[str, int, int] | None = None
    m = _LOADER_MESSAGE.fullmatch(text)
    if m:
        where, text = (m["file"], int(m["line"]), int(m["col"])), m["rest"]
    elif text.startswith(display + ": "):
        text = text[len(display) + 2 :]
    paths: tuple[str, ...] = ()
    pm = _LOADER_PATH.fullmatch(text)
    if pm:
        paths, text = (pm["path"],), pm["rest"]
    diag = _diag("C000", paths, f"the profile does not load: {text}",
                 "fix the profile; `canasta schema` lists every option")
    return _at(diag, display, *where) if where else Finding(diag, display)


def _locate(diag: Diagnostic, files: Sequence[tuple[str, dict[str, _Pos]]], own: str) -> Finding:
    """Point ``diag`` at the option in the profile, or in the file it extends that sets it."""
    for display, positions in files:
        for path in diag.paths:
            candidate = path
            while candidate:
                if candidate in positions:
                    return _at(diag, own, display, *positions[candidate])
                cut = max(candidate.rfind("."), candidate.rfind("["))
                if cut <= 0 or "." not in candidate[:cut]:
                    break
                candidate = candidate[:cut]
    return Finding(diag, own)


def check_profile(
    name_or_path: str | os.PathLike[str], *, playouts: int = 0, seed: int = 0
) -> list[Finding]:
    """Load a profile and check it, pointing each diagnostic at its file, line and column.

    Args:
        name_or_path: a bundled name (``"classic"``) or the path of a YAML profile.
        playouts: simulated hands, see :func:`check_variant`.
        seed: the first deal seed of the playouts.

    Returns:
        The findings. A profile that does not load gives one ``C000`` finding
        with the loader's message (``C011`` for a cycle of ``extends``).
    """
    text = os.fspath(name_or_path)
    if isinstance(name_or_path, str) and is_bundled_name(name_or_path):
        try:
            path, display = bundled_file(name_or_path)
        except VariantError as exc:
            return [_load_failure(exc, text)]
    else:
        path, display = Path(name_or_path), text
    try:
        variant = load_variant(name_or_path)
    except VariantError as exc:
        cycle = _find_cycle(path, display)
        return [cycle if cycle is not None else _load_failure(exc, display)]
    diagnostics = check_variant(variant, playouts=playouts, seed=seed)
    if not diagnostics:
        return []
    files = [(d, _positions(node)) for _, d, node in _chain(path, display)]
    return [_locate(d, files, display) for d in diagnostics]


# --------------------------------------------------------------------------- documentation


def _example_output(kind: CheckKind) -> list[str]:
    """The lines ``canasta check house.yaml`` prints for the kind's example."""
    import tempfile

    if kind.stage == "playout":
        return []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "house.yaml"
        path.write_text(kind.example, encoding="utf-8")
        findings = check_profile(path)
    return [
        f.format().replace(str(path), "house.yaml")
        for f in findings
        if f.diagnostic.code == kind.code
    ]


def checks_rst() -> str:
    """Return the reStructuredText list of every code, as included in ``docs/checks.rst``.

    Returns:
        The text, one section per code with its severity, stage, meaning and
        example profile, and (for static checks) what ``canasta check`` prints for it.
    """
    stages = {
        "load": "loading the profile",
        "static": "reading the rules",
        "playout": "simulated hands (``--playouts N``)",
    }
    lines: list[str] = []
    for kind in CHECKS.values():
        title = f"{kind.code}: {kind.title}"
        lines += [title, "~" * len(title), "", f":Severity: {kind.severity}",
                  f":Found by: {stages[kind.stage]}", ""]
        lines += [*kind.meaning.splitlines(), "", "Example:", "", ".. code-block:: yaml", ""]
        lines += [f"   {x}" if x else "" for x in kind.example.rstrip("\n").splitlines()]
        lines.append("")
        output = _example_output(kind)
        if output:
            lines += ["``canasta check house.yaml`` prints:", "", ".. code-block:: text", ""]
            lines += [f"   {x}" for x in output]
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# --------------------------------------------------------------------------- the command line


def report(
    targets: Sequence[str], *, playouts: int = 0, seed: int = 0, strict: bool = False,
    format: Literal["text", "json"] = "text", out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Check profiles and print the findings, as ``canasta check`` does.

    Args:
        targets: bundled names or profile paths.
        playouts: simulated hands per profile, see :func:`check_variant`.
        seed: the first deal seed of the playouts.
        strict: count warnings as failures.
        format: ``"text"`` (one compiler-like line per finding) or ``"json"``
            (a JSON list of :meth:`Finding.to_dict` objects).
        out: where findings go (default stdout).
        err: where the summary line goes (default stderr).

    Returns:
        The exit status: 0 when clean, 1 with errors (or warnings under ``strict``).
    """
    import json
    import sys

    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    findings = [f for t in targets for f in check_profile(t, playouts=playouts, seed=seed)]
    if format == "json":
        out.write(json.dumps([f.to_dict() for f in findings], indent=2) + "\n")
    else:
        for f in findings:
            out.write(f.format() + "\n")
    tally = {s: sum(1 for f in findings if f.diagnostic.severity == s) for s in _SEVERITIES}
    err.write(
        f"canasta check: {_plural(len(targets), 'profile')}, {_plural(tally['error'], 'error')}, "
        f"{_plural(tally['warning'], 'warning')}, {tally['info']} info\n"
    )
    failed = tally["error"] > 0 or (strict and tally["warning"] > 0)
    return 1 if failed else 0
