"""The checker's vocabulary: diagnostics, the registry of kinds of finding, the facts.

:class:`Diagnostic` is one finding, :class:`Finding` one with its place in a
profile file. Every kind of finding is registered in :data:`CHECKS` with its
code, severity, title, meaning and an example profile: the static checks with
:func:`static_check`, the kinds found while loading a profile or playing
simulated hands with :func:`declare`. The static checks read the :data:`Facts` of :func:`facts_of`,
computed once per variant.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any, Literal

import attrs

from canasta.engine import compile_rules
from canasta.engine.refusals import Supply, plural, refusals, supply_of
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
    "facts_of",
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
    (:func:`canasta.engine.refusals.refusals`, which ``new_game`` reads too), in its words
    (which say what to change: no hint besides)."""
    for x in refusals(f.r):
        if x.code == code:
            yield x.paths, x.text, ""


# --------------------------------------------------------------------------- facts


#: What the static checks read, computed once per variant (:func:`facts_of`): the
#: engine's :class:`~canasta.engine.refusals.Supply`, the very object its refusals
#: read, so the checker and ``new_game`` work from one set of facts.
Facts = Supply


def facts_of(v: Variant) -> Facts:
    """The :data:`Facts` of ``v``: the supply of its compiled rules (cached with them).

    Raises:
        VariantError: a value of ``v`` is out of its option's range.
    """
    return supply_of(compile_rules(v))
