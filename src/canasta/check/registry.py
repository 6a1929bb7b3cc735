"""The checker's vocabulary: diagnostics, the registry of kinds of finding, the facts.

:class:`Diagnostic` is one finding, :class:`Finding` one with its place in a
profile file. Every kind of finding is registered in :data:`CHECKS` with its
code, severity, title, meaning and an example profile: the static checks with
:func:`static_check`, the kinds found while loading a profile or playing
simulated hands with :func:`declare`. The static checks read a :class:`Facts`,
computed once per variant.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any, Literal

import attrs

from canasta.cards import JOKER
from canasta.engine import BLACK_THREE, Rules, compile_rules
from canasta.engine.game import refusals
from canasta.engine.meld_kinds import sequence_ranks
from canasta.engine.moves import WILD_TARGET
from canasta.limits import escape
from canasta.variant.model import Variant

__all__ = [
    "CHECKS",
    "SEVERITIES",
    "CheckKind",
    "Diagnostic",
    "Facts",
    "Finding",
    "Raw",
    "Severity",
    "Stage",
    "StaticCheck",
    "declare",
    "make_diagnostic",
    "plural",
    "static_check",
]

#: The severity of a diagnostic, ``"error"``, ``"warning"`` or ``"info"``.
Severity = Literal["error", "warning", "info"]
#: Every severity, the most serious first (the order of the summary line).
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


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
                Characters that are not printable (a newline, a terminal escape)
                are written as ``\\n``, ``\\x1b``, so the line stays one line.
            location: ``(line, column)`` of the option in ``file``, both 1-based.

        Returns:
            Text such as
            ``house.yaml:14:3: error C007 going_out.wild_canastas: <message> (hint: <hint>)``.
        """
        where = ""
        if file is not None:
            # a file name may hold a newline or a terminal escape: the line stays one line
            file = escape(file)
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
            d = attrs.evolve(d, message=f"{d.message} (set in {escape(self.origin)})")
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

#: What a static check yields: ``(paths, message, hint)``; the registry adds code and severity.
Raw = tuple[tuple[str, ...], str, str]
#: A static check, a function of the variant's precomputed facts that yields
#: ``(paths, message, hint)`` for each finding.
StaticCheck = Callable[["Facts"], Iterator[Raw]]
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


def declare(
    code: str, severity: Severity, title: str, meaning: str, example: str, stage: Stage,
    run: StaticCheck | None = None,
) -> None:
    """Register a kind of finding in ``CHECKS``; see :class:`CheckKind` for the arguments.

    ``meaning`` and ``example`` are dedented, and ``example`` ends with a newline.

    Raises:
        ValueError: ``code`` is already registered.
    """
    if code in CHECKS:
        raise ValueError(f"check code {code} registered twice")
    CHECKS[code] = CheckKind(
        code, severity, title, inspect.cleandoc(meaning), inspect.cleandoc(example) + "\n",
        stage, run,
    )
    # the modules of the checker register their codes interleaved (C003 and C015
    # in melds, C004 in going_out, C011 in profile ...), but CHECKS is listed, and
    # its static checks run, in code order: restore that order after each one
    ordered = sorted(CHECKS.items())
    CHECKS.clear()
    CHECKS.update(ordered)


def make_diagnostic(code: str, paths: tuple[str, ...], message: str, hint: str) -> Diagnostic:
    """A :class:`Diagnostic` of the registered kind ``code``, with that kind's severity."""
    kind = CHECKS[code]
    return Diagnostic(code, kind.severity, paths, message, hint)


def static_check(
    code: str, severity: Severity, title: str, example: str
) -> Callable[[StaticCheck], StaticCheck]:
    """Register a static check; its docstring is the meaning shown in the docs."""

    def register(fn: StaticCheck) -> StaticCheck:
        declare(code, severity, title, fn.__doc__ or title, example, "static", fn)
        return fn

    return register


def refused(f: Facts, code: str) -> Iterator[Raw]:
    """The findings of error ``code``: the engine's own refusals of that code
    (:func:`canasta.engine.game.refusals`, which ``new_game`` reads too), in its words
    (which say what to change: no hint besides)."""
    for x in refusals(f.r):
        if x.code == code:
            yield x.paths, x.text, ""


# --------------------------------------------------------------------------- facts


def plural(n: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``: ``n`` and ``word``, with an ``s`` unless ``n`` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class Facts:
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
        #: cards set aside as talons at the deal (opening.talons_set_aside)
        self.set_aside = sum(v.opening.talons) if v.opening.talons_set_aside else 0
        self.dealt += self.set_aside
        self.stock = self.total - self.dealt
        self.copies = 4 * decks
        self.black_threes = 2 * decks
        self.red_threes = 2 * decks
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
        # sequences (sequences.*): the stretches of the window no wild rank or 3 breaks
        sq = v.sequences
        self.seq_runs: list[tuple[int, int]] = []
        for k in sequence_ranks(v):
            if self.seq_runs and self.seq_runs[-1][1] == k - 1:
                self.seq_runs[-1] = (self.seq_runs[-1][0], k)
            else:
                self.seq_runs.append((k, k))
        self.longest_run = max((hi - lo + 1 for lo, hi in self.seq_runs), default=0)
        seq_top = self.longest_run if sq.max_size is None else min(sq.max_size, self.longest_run)
        self.sequence_meld = sq.allowed and sq.min_size <= seq_top
        # the smallest sequence canasta: canasta size, and a new sequence is never smaller
        self.seq_smallest = max(sq.canasta_size, sq.min_size)
        self.sequence_canasta = sq.allowed and self.seq_smallest <= seq_top
        self.any_meld = self.any_meld or self.sequence_meld
        self.any_canasta = (
            self.natural_canasta or self.mixed_canasta or self.wild_canasta or self.sequence_canasta
        )
        go = v.going_out
        self.needs_canasta = max(
            go.canastas, go.natural_canastas, go.mixed_canastas, go.wild_canastas,
            go.sequence_canastas,
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
            or (go.sequence_canastas > 0 and not self.sequence_canasta)
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
            (self.sequence_canasta, v.sequences.bonus),
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
