"""What ``canasta check`` prints, and the list of every code in the documentation.

:func:`report` checks profiles and prints their findings with a summary line;
:func:`checks_rst` writes the list of every registered kind of finding that
``docs/checks.rst`` includes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal, TextIO

from canasta.check.profile import check_profile
from canasta.check.registry import CHECKS, SEVERITIES, CheckKind, plural

__all__ = ["checks_rst", "report"]

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
        playouts: simulated hands per profile, see :func:`~canasta.check.checker.check_variant`.
        seed: the first deal seed of the playouts.
        strict: count warnings as failures.
        format: ``"text"`` (one compiler-like line per finding) or ``"json"``
            (a JSON list of :meth:`~canasta.check.registry.Finding.to_dict` objects).
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
    tally = {s: sum(1 for f in findings if f.diagnostic.severity == s) for s in SEVERITIES}
    err.write(
        f"canasta check: {plural(len(targets), 'profile')}, {plural(tally['error'], 'error')}, "
        f"{plural(tally['warning'], 'warning')}, {tally['info']} info\n"
    )
    failed = tally["error"] > 0 or (strict and tally["warning"] > 0)
    return 1 if failed else 0
