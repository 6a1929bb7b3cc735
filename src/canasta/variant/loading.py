"""Variant profiles: strict YAML loading with locations, ``extends`` and bundled lookup.

A profile is a YAML mapping of rule areas (``deal``, ``melds`` …) to options.
It may ``extends:`` another profile (a bundled name, or a path relative to the
extending file) and then writes only what differs; ``assumed:`` marks options
whose values fill gaps in the source text.

Loading is strict: every unknown key, wrong type, out-of-range value and
unsafe YAML construct is refused with a :class:`~canasta.errors.VariantError`
whose message reads ``FILE:LINE:COLUMN: KEY.PATH: expected …, got …``. FILE is
the path exactly as the caller gave it (for a file reached through
``extends``, that path joined to the extending file's directory); for a
bundled profile it is the bundled file's name, e.g. ``classic.yaml``; for
text or data given to :func:`parse_variant` it is ``<string>``. A file is
checked whole before it is refused, and the error lists every problem found,
one a line (see :class:`~canasta.errors.VariantError`).

This module reads files and follows ``extends``; the strict YAML is
:mod:`canasta.variant.yaml_guard`, the checks of values
:mod:`canasta.variant.checking`, and writing a variant out
:mod:`canasta.variant.convert`. The names other packages import from here
(``converter``, ``dump_variant``, ``variant_to_dict``, ``option_paths``,
``GuardedLoader``, ``LoaderRefusal``, ``MAX_NESTING``) are re-exported.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import cattrs

from canasta.errors import VariantError
from canasta.limits import MAX_PROFILE_BYTES, clip_message, escape, read_text_file
from canasta.variant.checking import Layer, check_layer
from canasta.variant.convert import converter, dump_variant, variant_to_dict
from canasta.variant.model import Variant, option_paths
from canasta.variant.options import short
from canasta.variant.yaml_guard import (
    MAX_NESTING,
    ErrorContext,
    GuardedLoader,
    LoaderRefusal,
    Pos,
    from_data,
    parse_profile,
)

__all__ = [
    "MAX_EXTENDS",
    "MAX_FILE_BYTES",
    "MAX_NESTING",
    "GuardedLoader",
    "LoaderRefusal",
    "bundled_file",
    "converter",
    "dump_variant",
    "is_bundled_name",
    "load_variant",
    "option_paths",
    "parse_variant",
    "variant_from_dict",
    "variant_names",
    "variant_to_dict",
]

#: Largest profile file read, in bytes (256 KiB, :data:`canasta.limits.MAX_PROFILE_BYTES`);
#: checked before reading.
MAX_FILE_BYTES = MAX_PROFILE_BYTES
#: Most ``extends`` links followed from one profile.
MAX_EXTENDS = 16


def _bundled_dir() -> Path:
    package = Path(__file__).resolve().parents[1]  # canasta/, above canasta/variant/
    installed = package / "variants"  # the wheel force-includes variants/ here
    if installed.is_dir():
        return installed
    return package.parents[1] / "variants"  # an editable install: the repository's variants/


def variant_names() -> list[str]:
    """Return the names of the bundled variant profiles, sorted.

    Returns:
        Names such as ``"classic"``, each loadable with :func:`load_variant`.
    """
    directory = _bundled_dir()
    try:
        return sorted(p.stem for p in directory.glob("*.yaml") if p.is_file())
    except OSError:  # pragma: no cover - a broken installation
        return []


def is_bundled_name(text: str) -> bool:
    """A bundled name: no directory separator and no YAML suffix."""
    separators = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    return not any(s in text for s in separators) and not text.endswith((".yaml", ".yml"))


def _local_file(name: str) -> str | None:
    """The file in the current directory that bundled name ``name`` may have meant, if any."""
    for candidate in (f"{name}.yaml", f"{name}.yml", name):
        try:
            if Path(candidate).is_file():
                return candidate
        except (OSError, ValueError):  # a name the file system cannot take
            continue
    return None


def bundled_file(name: str) -> tuple[Path, str]:
    """The file and display name of bundled profile ``name``."""
    names = variant_names()
    if name not in names:
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        local = _local_file(name)
        if local is not None:  # the file next to the user: a path must look like one
            hint = f"; to load the file here, give its path: ./{short(local)}"
        raise VariantError(
            f"unknown variant {short(repr(name))}{hint} (bundled variants: {', '.join(names)})"
        )
    return _bundled_dir() / f"{name}.yaml", f"{name}.yaml"


def _variant_error(where: str, reason: str) -> VariantError:
    return VariantError(f"{where}: {reason}")


def _read(path: Path, display: str) -> str:
    """The text of a profile file: a regular file of at most :data:`MAX_FILE_BYTES` bytes."""
    return read_text_file(path, display, MAX_FILE_BYTES, _variant_error, "a profile")


@attrs.frozen
class _Source:
    """A profile to load: a file (with its display name), YAML text or plain data."""

    path: Path | None
    display: str | None
    data: Any = None
    text: str | None = None

    @property
    def identity(self) -> Path | None:
        """The real file, so that two spellings of one path make a cycle too."""
        if self.path is None:
            return None
        try:
            return self.path.resolve()
        except (OSError, ValueError, RuntimeError):  # symlink loop, NUL: reading reports it
            return self.path.absolute()

    @property
    def label(self) -> str:
        return self.display if self.display is not None else "<data>"


def _resolve_extends(target: str, pos: Pos | None, child: _Source, ctx: ErrorContext) -> _Source:
    if is_bundled_name(target):
        try:
            path, display = bundled_file(target)
        except VariantError as exc:
            raise ctx.error(pos, "extends", str(exc)) from None
        return _Source(path, display)
    if child.path is None:  # text or plain data: relative to the working directory
        display, path = target, Path(target)
    else:
        assert child.display is not None
        display = os.path.normpath(os.path.join(os.path.dirname(child.display), target))
        path = child.path.parent / target
    try:
        path.stat()
    except (FileNotFoundError, NotADirectoryError):
        # Said at the `extends:` line, so the reader sees which file asked for it.
        raise ctx.error(pos, "extends", f"file not found: {escape(display)}") from None
    except (OSError, ValueError):
        pass  # reading it reports the problem
    return _Source(path, display)


def _load_layers(
    source: _Source, chain: tuple[_Source, ...]
) -> tuple[dict[str, Any], dict[str, str], Layer]:
    """Load ``source`` and its ancestors; return merged data, assumptions and its own layer."""
    # Every problem of this file is collected in ctx and raised together, once
    # the whole file is checked; those of a file it extends come after, if any.
    ctx = ErrorContext(source.display)
    if source.path is not None or source.text is not None:
        assert source.display is not None
        text = source.text if source.path is None else _read(source.path, source.display)
        assert text is not None
        root = parse_profile(text, source.display, ctx)
    else:
        root = from_data(source.data, "", ctx)
        if root.kind != "map":
            raise ctx.error(None, "", f"expected a mapping of options, got {root.describe()}")
    layer = check_layer(root, ctx)
    if layer.extends is None:
        ctx.raise_problems()
        return layer.data, dict(layer.assumed), layer
    target, pos = layer.extends
    parent = _resolve_extends(target, pos, source, ctx)
    here = (*chain, source)
    if parent.identity is not None and any(s.identity == parent.identity for s in here):
        names = " -> ".join(escape(s.label) for s in (*here, parent))
        raise ctx.error(pos, "extends", f"cycle of extends: {names}")
    if len(here) > MAX_EXTENDS:
        raise ctx.error(pos, "extends", f"more than {MAX_EXTENDS} levels of extends")
    ctx.raise_problems()
    base, base_assumed, _ = _load_layers(parent, here)
    merged = _inherit_words(base, layer.data, _merge(base, layer.data))
    # An option the child sets is the child's own rule now, not the parent's
    # assumption, unless the child marks it assumed again.
    assumed = {p: s for p, s in base_assumed.items() if not _touches(p, layer.leaves)}
    assumed.update(layer.assumed)
    return merged, assumed, layer


#: The fields that describe a profile rather than state a rule.
_WORDS = ("name", "title", "description", "source", "assumed", "customs")


def _inherit_words(base: dict[str, Any], own: dict[str, Any], merged: dict[str, Any]) -> dict[str, Any]:
    """What a child inherits of its parent's words, in ``merged`` (see docs/writing-variants.rst).

    A child that changes no rule is its parent under another name and keeps every
    word it does not write. A child that changes a rule keeps the parent's customs
    (unless it writes its own), but not its description or source, which describe
    other rules: they are the child's own or empty (the rule book then describes
    the rules), and an unwritten title becomes "<parent title> (<name>)", or
    "<parent title> (house rules)" for a child without a name.
    """
    rules = [k for k in {*base, *merged} if k not in _WORDS]
    if all(base.get(k) == merged.get(k) for k in rules):
        return merged
    out = dict(merged)
    for key in ("description", "source"):
        if key not in own:
            out.pop(key, None)
    if "title" not in own:
        parent = base.get("title") or base.get("name") or ""
        label = own.get("name") or "house rules"
        # A house file over a house profile ("Hand and Foot (house rules)") gets a title of
        # its own without saying "(house rules)" twice.
        again = isinstance(parent, str) and parent.endswith(f"({label})")
        out["title"] = f"{parent[:-1]}, changed)" if again else f"{parent} ({label})" if parent else ""
    return out


def _touches(path: str, leaves: frozenset[str]) -> bool:
    return any(
        leaf == path or leaf.startswith(path + ".") or path.startswith(leaf + ".")
        for leaf in leaves
    )


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Deep merge of mappings; ``over`` wins, and a list replaces a list whole."""
    out = dict(base)
    for key, value in over.items():
        old = out.get(key)
        out[key] = (
            _merge(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
        )
    return out


def _build(source: _Source, default_name: str) -> Variant:
    data, assumed, layer = _load_layers(source, ())
    # The name is the profile's own, never its parent's.
    data["name"] = layer.data.get("name", default_name)
    data["assumed"] = assumed
    try:
        return converter.structure(data, Variant)
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:
        # Every value was checked above; what is left is a rule across options
        # (the model's own check, see canasta.variant.model.wild_mixes).
        inner = _variant_error_in(exc)
        where = f"{escape(source.display)}: " if source.display is not None else ""
        raise VariantError(clip_message(f"{where}{inner if inner is not None else exc}")) from None


def _variant_error_in(exc: BaseException) -> VariantError | None:
    """The VariantError that cattrs wrapped in ``exc`` (it collects them in groups)."""
    if isinstance(exc, VariantError):
        return exc
    for sub in getattr(exc, "exceptions", ()):
        found = _variant_error_in(sub)
        if found is not None:
            return found
    return None


# --------------------------------------------------------------------------- public API


def load_variant(name_or_path: str | os.PathLike[str]) -> Variant:
    """Load a variant: a bundled profile by name, or a YAML profile file.

    A ``str`` with no directory separator and no ``.yaml``/``.yml`` suffix is a
    bundled name (see :func:`variant_names`); anything else, and every
    ``os.PathLike``, is a path. The profile may ``extends:`` another one.

    Args:
        name_or_path: ``"classic"``, or a path such as ``"house.yaml"``.

    Returns:
        The complete, frozen :class:`~canasta.variant.model.Variant`. Its ``name`` is
        the profile's ``name:``, or the file name without its suffix.

    Raises:
        VariantError: the name is unknown, or the file (or one it extends) is
            missing, unreadable, not valid YAML or not a valid profile. The
            message starts with ``FILE:LINE:COLUMN: KEY.PATH:``, FILE being the
            path as given (or the bundled file name).
    """
    if not isinstance(name_or_path, (str, os.PathLike)):
        raise VariantError(
            f"{short(repr(name_or_path))}: expected a bundled variant name or the path of a YAML profile"
        )
    if isinstance(name_or_path, str) and is_bundled_name(name_or_path):
        path, display = bundled_file(name_or_path)
    else:
        path = Path(name_or_path)
        display = os.fspath(name_or_path)
    return _build(_Source(path, display), Path(display).stem)


def variant_from_dict(data: Mapping[str, Any]) -> Variant:
    """Build a variant from profile data, as :func:`load_variant` reads it from YAML.

    The checks are the same as for a file (messages have no file or line);
    ``extends`` may name a bundled profile or a file relative to the working
    directory. A missing ``name`` is ``"custom"``.

    Args:
        data: a mapping such as ``{"extends": "classic", "draw": {"count": 2}}``.

    Returns:
        The complete variant.

    Raises:
        VariantError: the data is not a valid profile.
    """
    return _build(_Source(None, None, data), "custom")


#: The place name of profile text or data given to :func:`parse_variant`.
STRING_PLACE = "<string>"


def parse_variant(profile: str | Mapping[str, Any]) -> Variant:
    """Build a variant from profile text (YAML) or data, as :func:`load_variant` reads a file.

    For programs that keep house rules elsewhere than in files (a database, a
    web form): the checks are those of a file, and every message names the
    place ``<string>`` where :func:`load_variant` names the file, e.g.
    ``<string>:3:14: deal.hand_size: expected an integer from 1 to 30, got 0``
    (a mapping has no lines: ``<string>: deal.hand_size: ...``). ``extends``
    may name a bundled profile, or a file relative to the working directory.

    Args:
        profile: YAML text such as ``"extends: classic\\ndraw: {count: 2}\\n"``,
            or a mapping such as ``{"extends": "classic", "draw": {"count": 2}}``.

    Returns:
        The complete, frozen variant; the same as :func:`load_variant` gives
        for a file holding the text. Its ``name`` is the profile's ``name:``,
        or ``"custom"``.

    Raises:
        VariantError: the text is not valid YAML or either is not a valid
            profile; every problem is listed, one a line.
    """
    if isinstance(profile, str):
        if len(profile.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
            raise VariantError(
                f"{STRING_PLACE}: text is larger than {MAX_FILE_BYTES} bytes, the limit for a profile"
            )
        return _build(_Source(None, STRING_PLACE, text=profile), "custom")
    if not isinstance(profile, Mapping):
        raise VariantError(
            f"{STRING_PLACE}: expected YAML text or a mapping of options, got {type(profile).__name__}"
        )
    return _build(_Source(None, STRING_PLACE, data=profile), "custom")
