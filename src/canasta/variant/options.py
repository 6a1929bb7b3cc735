"""What a value of each option may be: declared once, enforced by the model and the loader.

An option of the variant model is declared with :func:`opt` or :func:`int_opt`.
Its type annotation and metadata (``doc``, ``minimum``, ``maximum``, ``rank``,
``nonempty``, ``max_length``, ``single_line``, ``max_items``) say what a value
may be, and this module turns that into three things that agree by
construction:

* the attrs validator every option carries (:func:`validate_option`), so a
  model object with a value no profile may hold cannot be built;
* the words of every ``expected …`` message (:func:`expectation`), used by the
  validator and by the profile loader;
* the acceptance test of a single value (:func:`normal_scalar`), used by both.

The JSON Schema reads the same metadata through :func:`option_fields`.

Every value is bounded: an integer by its range, a string by its length (and
it holds no control characters but line breaks and tabs, and a
``single_line`` string not even those), a list by its number of items, so that no profile can make
the engine, the rule book or a message do unbounded work.

A failing validator raises :class:`~canasta.errors.VariantError` naming the
option by its profile path, e.g. ``deal.hand_size: expected an integer from 1
to 30, got -1``. The path of each class comes from :func:`register_option_paths`,
called once by the model with its root class.
"""

from __future__ import annotations

import difflib
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any, Final, Literal, Union, get_args, get_origin

import attrs

from canasta.cards import RANK_NAMES, RANKS, parse_rank
from canasta.errors import CanastaError, VariantError
from canasta.limits import int_text

__all__ = [
    "ASSUMED_SOURCE",
    "ITEM_META",
    "RANK_EXPECTATION",
    "REFUSED",
    "OptionField",
    "check_instance",
    "check_value",
    "expectation",
    "int_expectation",
    "int_opt",
    "item_meta",
    "items_unique",
    "join_path",
    "list_problem",
    "normal_scalar",
    "opt",
    "option_fields",
    "optional_inner",
    "quote_list",
    "register_option_paths",
    "repeat_message",
    "short",
    "string_problem",
    "suggest",
    "validate_option",
]

_Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


# --------------------------------------------------------------------------- words


def short(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters: messages quote input, which may be huge."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def join_path(path: str, key: str) -> str:
    """``path.key``; a key that is not a plain name is quoted (and shortened)."""
    seg = key if re.fullmatch(r"[\w.-]+", key) else short(repr(key))
    return f"{path}.{seg}" if path else seg


def quote_list(names: Iterable[str]) -> str:
    """``'a', 'b', 'c'``."""
    return ", ".join(repr(n) for n in names)


def suggest(word: str, choices: Sequence[str]) -> str:
    """``"did you mean 'x'?"``, or the list of choices when nothing is close."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    return f"expected one of {quote_list(choices)}"


def int_expectation(meta: Mapping[str, Any]) -> str:
    """``an integer from 1 to 30``, ``an integer >= 0``, … from ``minimum``/``maximum``."""
    low, high = meta.get("minimum"), meta.get("maximum")
    if low is not None and high is not None:
        return f"an integer from {low} to {high}"
    if low is not None:
        return f"an integer >= {low}"
    if high is not None:
        return f"an integer <= {high}"
    return "an integer"


#: What a rank option expects, naming the canonical ranks.
RANK_EXPECTATION: Final = "a rank, one of " + quote_list(RANK_NAMES[r] for r in RANKS)

#: What the source of an ``assumed`` entry must be.
ASSUMED_SOURCE: Final = "a string naming where the value comes from"

#: Items of an integer list (the round-by-round opening table) are points.
ITEM_META: Final[Mapping[str, Any]] = types.MappingProxyType({"minimum": 0, "maximum": 100_000})

# Characters no string option may hold: C0 and C1 controls (an escape sequence
# would reach the terminal that prints the rule book), line and paragraph
# separators, bidirectional overrides and the byte order mark. Line breaks and
# tabs are text, except in a single-line string.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")
_CONTROL_MULTILINE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]"
)


def string_problem(value: Any, meta: Mapping[str, Any]) -> str | None:
    """Why string ``value`` is refused although it is a string, or ``None``.

    Too long for the option's ``max_length``, or holding a control character.
    """
    if not isinstance(value, str):
        return None
    limit = meta.get("max_length")
    if limit is not None and len(value) > limit:
        return f"expected at most {limit} characters, got {len(value)}"
    found = (_CONTROL if meta.get("single_line") else _CONTROL_MULTILINE).search(value)
    if found is not None:
        char = repr(found.group())[1:-1]
        return f"expected text without control characters, got '{char}' at character {found.start() + 1}"
    return None


def list_problem(length: int, meta: Mapping[str, Any]) -> str | None:
    """Why a list of ``length`` items is refused for an option with ``meta``, or ``None``."""
    limit = meta.get("max_items")
    if limit is not None and length > limit:
        return f"expected a list of at most {limit} items, got {length}"
    return None


def item_meta(item_tp: Any, meta: Mapping[str, Any]) -> Mapping[str, Any]:
    """The metadata that applies to each item of a list option."""
    return ITEM_META if item_tp is int else meta


def items_unique(item_tp: Any, rank: bool) -> bool:
    """Whether a list names each item once: a set of card classes or ranks."""
    return rank or get_origin(item_tp) is Literal


def repeat_message(value: Any, path: str, first: int) -> str:
    """The message for an item of a set-like list given a second time."""
    return f"expected each value once, got {value!r} again (first at {path}[{first}])"


def _article(name: str) -> str:
    return f"an {name}" if name[:1] in "AEIOU" else f"a {name}"


def expectation(tp: Any, meta: Mapping[str, Any], rank: bool, *, model: bool = False) -> str:
    """What a value of type ``tp`` must be, in words: ``an integer from 1 to 30``.

    With ``model`` the words are those of Python objects (``a tuple``,
    ``a DealRules``, ``None``) rather than of profile text (``a list``,
    ``a mapping``, ``null``); scalars read the same either way.
    """
    inner = optional_inner(tp)
    if inner is not None:
        return expectation(inner, meta, rank, model=model) + (" or None" if model else " or null")
    if attrs.has(tp):
        return _article(tp.__name__) if model else "a mapping"
    origin = get_origin(tp)
    if origin is tuple:
        return "a tuple" if model else "a list"
    if origin is Literal:
        return "one of " + quote_list(get_args(tp))
    if tp is bool:
        return "true or false"
    if tp is int:
        return int_expectation(meta)
    if rank:
        return RANK_EXPECTATION
    if meta.get("nonempty"):
        return "a non-empty string"
    return "a string"


# --------------------------------------------------------------------------- accepting one value

#: Returned by :func:`normal_scalar` for a value the option does not accept.
REFUSED: Final = object()


def normal_scalar(value: Any, tp: Any, meta: Mapping[str, Any], rank: bool) -> Any:
    """``value`` in canonical form if option type ``tp`` accepts it, else :data:`REFUSED`.

    ``tp`` is a scalar type: a Literal of strings, ``bool``, ``int`` or ``str``.
    An int is never a bool and lies within ``minimum``/``maximum``; a rank is
    any spelling :func:`~canasta.cards.parse_rank` reads, returned canonical.
    """
    if tp is bool:
        return value if isinstance(value, bool) else REFUSED
    if tp is int:
        # bool is an int subclass (and YAML `true` a bool): refuse it explicitly.
        if not isinstance(value, int) or isinstance(value, bool):
            return REFUSED
        low, high = meta.get("minimum"), meta.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            return REFUSED
        return value
    if tp is str:
        if not isinstance(value, str):
            return REFUSED
        if rank:
            try:
                return RANK_NAMES[parse_rank(value)]
            except CanastaError:
                return REFUSED
        if meta.get("nonempty") and not value:
            return REFUSED
        if string_problem(value, meta) is not None:
            return REFUSED
        return value
    if get_origin(tp) is Literal:
        return value if isinstance(value, str) and value in get_args(tp) else REFUSED
    raise TypeError(f"unsupported option type {tp!r}")  # pragma: no cover - model bug


# --------------------------------------------------------------------------- the options of a class


@attrs.frozen
class OptionField:
    """One option of a model class, with its resolved type."""

    name: str
    type: Any
    meta: Mapping[str, Any]
    rank: bool
    default: Any


def optional_inner(tp: Any) -> Any | None:
    """``X`` if ``tp`` is ``X | None``, else ``None``."""
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(get_args(tp)) == 2:
            return args[0]
    return None


@cache
def option_fields(cls: type) -> dict[str, OptionField]:
    """The options of model class ``cls`` in declaration order, types resolved."""
    hints = typing.get_type_hints(cls)
    return {
        f.name: OptionField(
            name=f.name,
            type=hints[f.name],
            meta=f.metadata,
            rank=bool(f.metadata.get("rank", False)),
            default=f.default,
        )
        for f in attrs.fields(cls)
    }


# Profile path of each model class: "deal" for DealRules, "canastas.rank_bonuses[]"
# for RankBonus (an item of a list, index unknown), "" for the root.
_PREFIXES: dict[type, str] = {}


def register_option_paths(root: type) -> None:
    """Record the profile path of ``root`` and of every model class it holds."""

    def walk(cls: type, prefix: str) -> None:
        _PREFIXES[cls] = prefix
        for field in option_fields(cls).values():
            path = f"{prefix}.{field.name}" if prefix else field.name
            tp = optional_inner(field.type) or field.type
            if attrs.has(tp):
                walk(tp, path)
            elif get_origin(tp) is tuple and attrs.has(get_args(tp)[0]):
                walk(get_args(tp)[0], path + "[]")

    walk(root, "")


# --------------------------------------------------------------------------- validation


def _describe(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return short(int_text(value))
    if isinstance(value, str):
        return short(repr(value[:61]))
    if isinstance(value, (tuple, list)) and len(value) > 20:
        return f"a {type(value).__name__} of {len(value)} items"
    return short(repr(value))


def check_value(
    value: Any, tp: Any, meta: Mapping[str, Any], rank: bool, path: str, *, deep: bool = False
) -> None:
    """Raise VariantError unless ``value`` is a value of an option of type ``tp``.

    Model objects are expected exactly: a tuple (not a list), a rank in
    canonical spelling, an instance of the option's class. With ``deep`` a
    nested model object is checked field by field too (it was checked when it
    was built, unless it was built by unusual means such as unpickling).
    """
    inner = optional_inner(tp)
    if inner is not None and value is None:
        return
    plain = inner if inner is not None else tp

    def wrong() -> VariantError:
        problem = None if rank else string_problem(value, meta)
        if problem is not None:
            return VariantError(f"{path}: {problem}")
        expected = expectation(tp, meta, rank, model=True)
        return VariantError(f"{path}: expected {expected}, got {_describe(value)}")

    if attrs.has(plain):
        if not isinstance(value, plain):
            raise wrong()
        if deep:
            check_instance(value, path)
        return
    if get_origin(plain) is tuple:
        if not isinstance(value, tuple):
            raise wrong()
        too_many = list_problem(len(value), meta)
        if too_many is not None:
            raise VariantError(f"{path}: {too_many}")
        item_tp = get_args(plain)[0]
        sub_meta = item_meta(item_tp, meta)
        unique = items_unique(item_tp, rank)
        firsts: dict[Any, int] = {}
        for i, item in enumerate(value):
            item_path = f"{path}[{i}]"
            check_value(item, item_tp, sub_meta, rank, item_path, deep=deep)
            if unique:
                if item in firsts:
                    raise VariantError(f"{item_path}: {repeat_message(item, path, firsts[item])}")
                firsts[item] = i
        return
    normal = normal_scalar(value, plain, meta, rank)
    # A rank must be spelled canonically ('10', 'JK'), as the loader stores it.
    if normal is REFUSED or normal != value:
        raise wrong()


def check_instance(obj: Any, path: str) -> None:
    """Check every option of model object ``obj`` (at profile ``path``), nested ones too."""
    cls: type = type(obj)
    for field in option_fields(cls).values():
        sub = join_path(path, field.name)
        try:
            value = getattr(obj, field.name)
        except AttributeError:
            raise VariantError(f"{sub}: missing") from None
        check_value(value, field.type, field.meta, field.rank, sub, deep=True)


def _predicate(tp: Any, meta: Mapping[str, Any], rank: bool) -> Callable[[Any], bool]:
    """A fast test that accepts exactly what :func:`check_value` accepts (shallow)."""
    inner = optional_inner(tp)
    if inner is not None:
        accepts = _predicate(inner, meta, rank)
        return lambda value: value is None or accepts(value)
    if attrs.has(tp):
        return lambda value: isinstance(value, tp)
    if get_origin(tp) is tuple:
        item_tp = get_args(tp)[0]
        item = _predicate(item_tp, item_meta(item_tp, meta), rank)
        most = meta.get("max_items")
        if items_unique(item_tp, rank):
            return lambda value: (
                isinstance(value, tuple)
                and (most is None or len(value) <= most)
                and all(map(item, value))
                and len(set(value)) == len(value)
            )
        return lambda value: (
            isinstance(value, tuple) and (most is None or len(value) <= most) and all(map(item, value))
        )

    def scalar(value: Any) -> bool:
        normal = normal_scalar(value, tp, meta, rank)
        return normal is not REFUSED and normal == value

    return scalar


@cache
def _accepts(cls: type, name: str) -> Callable[[Any], bool]:
    field = option_fields(cls)[name]
    return _predicate(field.type, field.meta, field.rank)


def validate_option(inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    """The attrs validator of every option: ``value`` must fit the option's type and range."""
    cls: type = type(inst)
    if _accepts(cls, attribute.name)(value):
        return
    # Refused: the full check says where and why, in the loader's words.
    field = option_fields(cls)[attribute.name]
    prefix = _PREFIXES.get(cls, cls.__name__)
    path = f"{prefix}.{attribute.name}" if prefix else attribute.name
    check_value(value, field.type, field.meta, field.rank, path)


# --------------------------------------------------------------------------- declaring options


def opt(
    default: Any,
    doc: str,
    *,
    rank: bool = False,
    nonempty: bool = False,
    max_length: int | None = None,
    single_line: bool = False,
    max_items: int | None = None,
    validator: _Validator | None = None,
) -> Any:
    """A documented, validated option; ``doc`` is the one-line description used everywhere.

    ``rank`` marks a string (or list of strings) of card ranks; ``nonempty`` a
    string that may not be empty; ``max_length`` bounds a string (or each
    string of a list) and ``single_line`` refuses line breaks and tabs in it;
    ``max_items`` bounds a list. ``validator`` runs after the type check.
    """
    if isinstance(default, (list, dict, set)):
        raise TypeError("mutable default")
    meta: dict[str, Any] = {"doc": doc}
    if rank:
        meta["rank"] = True
    if nonempty:
        meta["nonempty"] = True
    if max_length is not None:
        meta["max_length"] = max_length
    if single_line:
        meta["single_line"] = True
    if max_items is not None:
        meta["max_items"] = max_items
    validators: list[_Validator] = [validate_option]
    if validator is not None:
        validators.append(validator)
    return attrs.field(default=default, metadata=meta, validator=validators)


def int_opt(default: int | None, doc: str, minimum: int, maximum: int) -> Any:
    """An integer option (or ``int | None``) from ``minimum`` to ``maximum``: every range is finite."""
    return attrs.field(
        default=default,
        metadata={"doc": doc, "minimum": minimum, "maximum": maximum},
        validator=validate_option,
    )
