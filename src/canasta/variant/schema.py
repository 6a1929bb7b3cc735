"""The JSON Schema of variant profiles, generated from the variant model.

Editors use it to complete and check profile files. It is built by walking
the attrs classes of :mod:`canasta.variant.model`, so a new option appears here (with
its description, range and default) as soon as it is added to the model; types
and ranges are read through :mod:`canasta.variant.options`, as the model's
validators and the loader read them; the
committed copy is ``variants/schema.json`` (``canasta schema > variants/schema.json``).

The loader (:func:`canasta.load_variant`) is stricter than the schema in a few
ways a schema cannot say: a float such as ``2.0`` is not an integer, a rank
list may not name the same rank twice in different spellings, text holds no
control characters, many wild ranks together with large new melds are refused
(:func:`canasta.variant.model.wild_mixes`), and the file must be safe YAML (no
anchors, one document, at most 256 KiB, 10 000 lines and 2000 nodes).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_origin

import attrs

from canasta.variant.checking import EXTENDS_MAX_LENGTH
from canasta.variant.convert import converter
from canasta.variant.model import Assumption, Variant, option_paths
from canasta.variant.options import item_meta, items_unique, option_fields, optional_inner

__all__ = ["SCHEMA_DIALECT", "json_schema", "schema_text"]

#: The JSON Schema dialect of :func:`json_schema`.
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

# What parse_rank accepts (case and surrounding blanks ignored), spelled out
# because JSON Schema regexes (ECMA-262) have no case-insensitive flag.
_RANK_PATTERN = r"^\s*([2-9]|10|[TtJjQqKkAa]|[Jj][Kk]|[Jj][Oo][Kk][Ee][Rr])\s*$"


def _type_schema(tp: Any, meta: Mapping[str, Any], rank: bool) -> dict[str, Any]:
    inner = optional_inner(tp)
    if inner is not None:
        schema = _type_schema(inner, meta, rank)
        if isinstance(schema.get("type"), str) and "enum" not in schema:
            schema["type"] = [schema["type"], "null"]
            return schema
        return {"anyOf": [schema, {"type": "null"}]}
    if attrs.has(tp):
        return _class_schema(tp)
    origin = get_origin(tp)
    if origin is tuple:
        item_tp = get_args(tp)[0]
        items = _type_schema(item_tp, item_meta(item_tp, meta), rank)
        array: dict[str, Any] = {"type": "array", "items": items}
        if meta.get("max_items") is not None:
            array["maxItems"] = meta["max_items"]
        # The loader (and the model) refuse a card class or rank listed twice.
        if items_unique(item_tp, rank):
            array["uniqueItems"] = True
        return array
    if origin is Literal:
        return {"type": "string", "enum": list(get_args(tp))}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        out: dict[str, Any] = {"type": "integer"}
        for key in ("minimum", "maximum"):
            if meta.get(key) is not None:
                out[key] = meta[key]
        return out
    if tp is str:
        if rank:
            return {"type": "string", "pattern": _RANK_PATTERN}
        text: dict[str, Any] = {"type": "string"}
        if meta.get("max_length") is not None:
            text["maxLength"] = meta["max_length"]
        return text
    raise TypeError(f"unsupported option type {tp!r}")  # pragma: no cover - model bug


def _class_schema(cls: type) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for field in option_fields(cls).values():
        schema = _type_schema(field.type, field.meta, field.rank)
        schema["description"] = field.meta["doc"]
        schema["default"] = converter.unstructure(field.default)
        properties[field.name] = schema
    return {
        "type": "object",
        "description": (cls.__doc__ or "").strip().splitlines()[0],
        "additionalProperties": False,
        "properties": properties,
    }


def json_schema() -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of a variant profile file.

    Every option of :class:`~canasta.variant.model.Variant` is described with its
    type, range, default and one-line description, plus the file-level keys
    ``extends`` and ``assumed``. Unknown keys are not allowed.

    Returns:
        The schema as plain JSON data (dicts, lists, strings, numbers).
    """
    schema = _class_schema(Variant)
    props = schema["properties"]
    props["name"] = {
        "type": "string",
        "minLength": 1,
        "maxLength": props["name"]["maxLength"],
        "description": props["name"]["description"]
        + " Defaults to the file name without its suffix.",
    }
    props["assumed"] = {
        "type": "object",
        "description": props["assumed"]["description"]
        + " Keys are option paths such as 'deck.decks' or whole areas such as 'deck';"
        " values say where the value comes from.",
        "propertyNames": {"enum": option_paths()},
        "maxProperties": option_fields(Variant)["assumed"].meta["max_items"],
        "additionalProperties": {
            "type": "string",
            "minLength": 1,
            "maxLength": option_fields(Assumption)["source"].meta["max_length"],
        },
        "default": {},
    }
    props["extends"] = {
        "type": "string",
        "minLength": 1,
        "maxLength": EXTENDS_MAX_LENGTH,
        "description": "A bundled variant name, or a path to a profile relative to this file,"
        " whose values this profile starts from; it then writes only what differs.",
    }
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "canasta variant profile",
        "description": "A Canasta-family rule set. Every option has a default (classic"
        " partnership Canasta), so a profile writes only what it changes.",
        "type": "object",
        "additionalProperties": False,
        "properties": props,
    }


def schema_text() -> str:
    """Return :func:`json_schema` as the text committed in ``variants/schema.json``.

    Returns:
        ``json.dumps(json_schema(), indent=2, sort_keys=True)`` plus a newline.
    """
    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
