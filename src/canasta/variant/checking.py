"""Checking parsed profile values against the model, with positions for every error.

A profile file (or mapping) is read into :class:`~canasta.variant.yaml_guard.Value`
trees; :func:`check_layer` checks one of them against the options of
:class:`~canasta.variant.model.Variant` and returns what it sets, in cattrs'
unstructured form, before ``extends`` is applied. What a value may be, and
the words for it, come from :mod:`canasta.variant.options`, the same place
the model's own validators read.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, get_args, get_origin

import attrs

from canasta.variant.model import Assumption, Variant, option_paths
from canasta.variant.options import (
    ASSUMED_SOURCE,
    REFUSED,
    expectation,
    item_meta,
    items_unique,
    join_path,
    list_problem,
    normal_scalar,
    option_fields,
    optional_inner,
    repeat_message,
    string_problem,
    suggest,
)
from canasta.variant.yaml_guard import ErrorContext, Pos, Value

__all__ = ["BAD", "DIRECTIVES", "EXTENDS_MAX_LENGTH", "Layer", "check_layer"]

#: Top-level keys that are file-format directives rather than Variant fields.
DIRECTIVES = ("extends",)


#: What a check returns for a value it reported as a problem: left out of the data.
BAD: Any = object()


def _check(
    val: Value, tp: Any, meta: Mapping[str, Any], rank: bool, path: str, ctx: ErrorContext
) -> Any:
    """Check ``val`` against type ``tp``; return it in cattrs' unstructured form.

    A value that does not fit is added to ``ctx`` as a problem and :data:`BAD`
    is returned, so that the options after it are checked too.
    """
    if val.is_bad:
        return BAD
    inner = optional_inner(tp)
    if inner is not None and val.is_null:
        return None

    def wrong() -> Any:
        problem = string_problem(val.value, meta) if val.kind == "scalar" and not rank else None
        if problem is not None:
            ctx.add(val.pos, path, problem)
            return BAD
        expected = expectation(tp, meta, rank)
        ctx.add(val.pos, path, f"expected {expected}, got {val.describe()}")
        return BAD

    plain = inner if inner is not None else tp
    if attrs.has(plain):
        if val.kind != "map":
            return wrong()
        return _check_class(val, plain, path, ctx)
    if get_origin(plain) is tuple:
        if val.kind != "seq":
            return wrong()
        too_many = list_problem(len(val.value), meta)
        if too_many is not None:
            ctx.add(val.pos, path, too_many)
            return BAD
        item_tp = get_args(plain)[0]
        sub_meta = item_meta(item_tp, meta)
        # A set of card classes or ranks names each once; a repeat is a typo.
        unique = items_unique(item_tp, rank)
        out = []
        firsts: dict[Any, int] = {}
        bad = False
        for i, item in enumerate(val.value):
            item_path = f"{path}[{i}]"
            checked = _check(item, item_tp, sub_meta, rank, item_path, ctx)
            if checked is BAD:
                bad = True
                continue
            if unique:
                if checked in firsts:
                    ctx.add(item.pos, item_path, repeat_message(checked, path, firsts[checked]))
                    bad = True
                    continue
                firsts[checked] = i
            out.append(checked)
        return BAD if bad else out
    if val.kind != "scalar":
        return wrong()
    value = val.value
    if rank and isinstance(value, int) and not isinstance(value, bool):
        # YAML reads an unquoted rank such as `2` or `10` as an integer. (One
        # from code may be of any size: no rank has 20 digits, and str() of a
        # huge one would fail on Python's digit limit.)
        if value.bit_length() > 64:
            return wrong()
        value = str(value)
    value = normal_scalar(value, plain, meta, rank)
    if value is REFUSED:
        return wrong()
    return value


def _check_class(val: Value, cls: type, path: str, ctx: ErrorContext) -> dict[str, Any]:
    """Check a mapping of ``cls`` options; return only the options it sets (and fits)."""
    fields = option_fields(cls)
    out: dict[str, Any] = {}
    for key, key_pos, item in val.value:
        sub = join_path(path, key)
        field = fields.get(key)
        if field is None:
            ctx.add(key_pos, sub, "unknown option; " + suggest(key, list(fields)))
            continue
        checked = _check(item, field.type, field.meta, field.rank, sub, ctx)
        if checked is not BAD:
            out[key] = checked
    return out


@attrs.frozen
class Layer:
    """What one profile file (or mapping) says, checked, before ``extends`` is applied."""

    data: dict[str, Any]
    assumed: dict[str, str]
    leaves: frozenset[str]
    extends: tuple[str, Pos | None] | None


#: Longest ``extends`` value: a path of at most 4096 characters (a common PATH_MAX).
EXTENDS_MAX_LENGTH = 4096
_EXTENDS_META: Mapping[str, Any] = {"max_length": EXTENDS_MAX_LENGTH}


def _nonempty_string(
    val: Value, path: str, what: str, meta: Mapping[str, Any], ctx: ErrorContext
) -> str | None:
    """The string, or ``None`` after adding the problem to ``ctx``."""
    if val.is_bad:
        return None
    if val.kind != "scalar" or not isinstance(val.value, str) or not val.value:
        ctx.add(val.pos, path, f"expected {what}, got {val.describe()}")
        return None
    problem = string_problem(val.value, meta)
    if problem is not None:
        ctx.add(val.pos, path, problem)
        return None
    return val.value


def check_layer(root: Value, ctx: ErrorContext) -> Layer:
    """Check the top-level mapping ``root`` of one profile; errors name ``ctx``'s file.

    Every problem is added to ``ctx`` (the caller raises them all at once);
    the layer holds what was checked and fits.
    """
    fields = option_fields(Variant)
    known = [*fields, *DIRECTIVES]
    data: dict[str, Any] = {}
    assumed: dict[str, str] = {}
    extends: tuple[str, Pos | None] | None = None
    # Only text read from YAML (whose keys have positions) may be some other file.
    if root.value and root.value[0][1] is not None:
        _looks_like_a_profile(root.value[0][0], root.value[0][1], known, ctx)
    for key, key_pos, item in root.value:
        if key == "extends":
            what = "a bundled variant name or a path to a YAML file"
            target = _nonempty_string(item, key, what, _EXTENDS_META, ctx)
            if target is not None:
                extends = (target, item.pos)
        elif key == "assumed":
            assumed = _check_assumed(item, ctx)
        elif key in fields:
            field = fields[key]
            checked = _check(item, field.type, field.meta, field.rank, key, ctx)
            if checked is not BAD:
                data[key] = checked
        else:
            ctx.add(key_pos, join_path("", key), "unknown option; " + suggest(key, known))
    leaves: set[str] = set()
    for key, value in data.items():
        if isinstance(value, dict):
            leaves.update(f"{key}.{sub}" for sub in value)
        else:
            leaves.add(key)
    return Layer(data=data, assumed=assumed, leaves=frozenset(leaves), extends=extends)


def _looks_like_a_profile(key: str, pos: Pos | None, known: list[str], ctx: ErrorContext) -> None:
    """Refuse a file whose first key is no option, nor close to one, without quoting it.

    Such a file is most likely not a profile at all (``extends:`` naming the
    wrong file), and its keys are not shown in the message.
    """
    if key in known or difflib.get_close_matches(key, known, n=1, cutoff=0.6):
        return
    raise ctx.alone(
        pos,
        "",
        "not a variant profile: its first key is not an option (a profile maps options "
        "such as 'extends', 'name', 'deal' and 'melds' to their values)",
    )


def _check_assumed(val: Value, ctx: ErrorContext) -> dict[str, str]:
    if val.is_bad:
        return {}
    if val.kind != "map":
        ctx.add(
            val.pos,
            "assumed",
            f"expected a mapping of option paths to sources, got {val.describe()}",
        )
        return {}
    paths = option_paths()
    source_meta = option_fields(Assumption)["source"].meta
    out: dict[str, str] = {}
    for key, key_pos, item in val.value:
        sub = join_path("assumed", key)
        if key not in paths:
            ctx.add(key_pos, sub, "unknown option or area; " + suggest(key, paths))
            continue
        source = _nonempty_string(item, sub, ASSUMED_SOURCE, source_meta, ctx)
        if source is not None:
            out[key] = source
    return out
