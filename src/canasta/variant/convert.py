"""Variants as plain data and as YAML text: the cattrs converter, ``variant_to_dict``, ``dump_variant``.

:data:`converter` is the library's one cattrs converter; the game-state
serialiser registers its own hooks on it. Reading data back into a variant,
with every check of a profile, is :func:`canasta.variant.loading.variant_from_dict`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import cattrs
import yaml
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from canasta.variant.model import Assumption, Variant
from canasta.variant.yaml_guard import STD_TAG

__all__ = ["converter", "dump_variant", "variant_to_dict"]


def _unstructure_assumed(value: tuple[Assumption, ...]) -> dict[str, str]:
    return {a.path: a.source for a in value}


def _structure_assumed(value: Any, _type: Any) -> tuple[Assumption, ...]:
    if not isinstance(value, Mapping):
        raise TypeError(f"assumed: expected a mapping of option paths to sources, got {value!r}")
    return tuple(
        sorted((Assumption(path=str(k), source=str(v)) for k, v in value.items()), key=_path_key)
    )


def _path_key(assumption: Assumption) -> str:
    return assumption.path


#: The one cattrs converter for variants. ``Variant.assumed`` is written as a
#: mapping ``{path: source}``, as in profiles; everything else is cattrs' default.
converter = cattrs.Converter(forbid_extra_keys=True)


def _is_variant(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, Variant)


# The hooks are made when first needed, not on import: generating them takes
# a tenth of the time `import canasta` takes, and a simulation never writes
# a variant out.
def _variant_unstructure_hook(_cls: Any) -> Any:
    return make_dict_unstructure_fn(Variant, converter, assumed=override(unstruct_hook=_unstructure_assumed))


def _variant_structure_hook(_cls: Any) -> Any:
    return make_dict_structure_fn(Variant, converter, assumed=override(struct_hook=_structure_assumed))


converter.register_unstructure_hook_factory(_is_variant, _variant_unstructure_hook)
converter.register_structure_hook_factory(_is_variant, _variant_structure_hook)


def variant_to_dict(variant: Variant) -> dict[str, Any]:
    """Return every value of ``variant`` as plain profile data (no ``extends``).

    Args:
        variant: the variant to write out.

    Returns:
        Nested dicts, lists and scalars; ``assumed`` is a mapping of paths to
        sources. :func:`variant_from_dict` gives back an equal variant.
    """
    out: dict[str, Any] = converter.unstructure(variant, Variant)
    return out


class _Dumper(yaml.SafeDumper):
    """Writes no anchors (the loader refuses them) and short lists on one line."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    flow = all(not isinstance(item, (dict, list)) for item in data)
    return dumper.represent_sequence(STD_TAG + "seq", data, flow_style=flow)


# PyYAML writes these raw in plain or single-quoted text, where reading folds or
# refuses them; in double quotes they are escaped and come back unchanged.
_NEEDS_DOUBLE_QUOTES = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    style = '"' if _NEEDS_DOUBLE_QUOTES.search(data) else None
    return dumper.represent_scalar(STD_TAG + "str", data, style=style)


_Dumper.add_representer(list, _represent_list)
_Dumper.add_representer(str, _represent_str)


def dump_variant(variant: Variant) -> str:
    """Return ``variant`` as YAML profile text with every option written out.

    Args:
        variant: the variant to write.

    Returns:
        YAML text without ``extends``; :func:`load_variant` on a file holding
        it gives back an equal variant.
    """
    text: str = yaml.dump(
        variant_to_dict(variant),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )
    return text
