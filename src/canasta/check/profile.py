"""Checking a profile file or bundled name, each diagnostic pointed at its line and column.

:func:`check_profile` loads the profile: one that does not load becomes a
finding too (C000, or C011 for a cycle of ``extends``); otherwise it runs
:func:`~canasta.check.checker.check_variant` and locates each option a
diagnostic names in the profile, or in the file it extends that sets it.
Importing the module registers C000 and C011 in
:data:`~canasta.check.registry.CHECKS`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import yaml

from canasta.check.checker import check_variant
from canasta.check.dead import written_dead
from canasta.check.registry import Diagnostic, Finding, declare, make_diagnostic
from canasta.errors import CanastaError, VariantError
from canasta.limits import GuardedLoader, LoaderRefusal, read_text_file
from canasta.variant.loading import (
    MAX_EXTENDS,
    MAX_FILE_BYTES,
    bundled_file,
    is_bundled_name,
    load_variant,
)

__all__ = ["check_profile", "compose_text", "extends_of", "option_positions"]

# --------------------------------------------------------------------------- load-stage kinds

declare(
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
declare(
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

# --------------------------------------------------------------------------- files and locations

_Pos = tuple[int, int]


def compose_text(text: str) -> yaml.Node | None:
    """The YAML node tree of profile ``text``, parsed with the loader's guards
    (size, depth, no aliases), or None when it does not parse."""
    try:
        loader = GuardedLoader(text)
        try:
            node: yaml.Node | None = loader.get_single_node()
        finally:
            loader.dispose()
        return node
    except (LoaderRefusal, yaml.YAMLError, RecursionError, ValueError):
        return None


def _compose(path: Path) -> yaml.Node | None:
    """The YAML node tree of ``path``, or None when it cannot be read or parsed."""
    # read as the loader reads profiles: only a bounded regular file (a FIFO or a
    # device would block or never end)
    try:
        text = read_text_file(path, str(path), MAX_FILE_BYTES)
    except (CanastaError, OSError, UnicodeDecodeError, ValueError):
        return None
    return compose_text(text)


def option_positions(node: yaml.Node | None) -> dict[str, tuple[int, int]]:
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


def extends_of(node: yaml.Node | None) -> tuple[str, tuple[int, int]] | None:
    """The profile that ``node`` extends and the (line, column) of its ``extends`` key, if any."""
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
        ext = extends_of(node)
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
        ext = extends_of(_compose(path))
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
            diag = make_diagnostic(
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
    diag = make_diagnostic("C000", paths, f"the profile does not load: {text}",
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
        playouts: simulated hands, see :func:`~canasta.check.checker.check_variant`.
        seed: the first deal seed of the playouts.

    Returns:
        The findings. A profile that does not load gives a ``C000`` finding
        for each problem the loader lists (``C011`` for a cycle of ``extends``).
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
        if cycle is not None:
            return [cycle]
        # One finding for each problem the loader listed (its last line may
        # count those it did not list).
        findings = [_load_failure(VariantError(problem), display) for problem in exc.problems]
        if exc.total > len(exc.problems):
            findings.append(_load_failure(
                VariantError(f"... and {exc.total - len(exc.problems)} more problems"), display))
        return findings
    diagnostics = check_variant(variant, playouts=playouts, seed=seed)
    files = [(d, option_positions(node)) for _, d, node in _chain(path, display)]
    # Options the file itself writes for an area that is off, even at their
    # default value (the variant alone cannot tell a default from a written one).
    own = set(files[0][1]) if files else set()
    diagnostics += written_dead(variant, own, diagnostics)
    if not diagnostics:
        return []
    return [_locate(d, files, display) for d in diagnostics]
