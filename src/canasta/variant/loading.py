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
bundled profile it is the bundled file's name, e.g. ``classic.yaml``.

The YAML is never constructed by PyYAML: it is composed into a node tree (so
anchors, aliases and deep nesting are refused before they can expand or
recurse) and this module walks the nodes itself, keeping each one's position.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
import types
import typing
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

import attrs
import cattrs
import yaml
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from canasta.cards import RANK_NAMES, RANKS, parse_rank
from canasta.errors import CanastaError, VariantError
from canasta.variant.model import AREAS, Assumption, RankBonus, Variant, WildRules

__all__ = [
    "MAX_EXTENDS",
    "MAX_FILE_BYTES",
    "MAX_NESTING",
    "converter",
    "dump_variant",
    "load_variant",
    "option_paths",
    "variant_from_dict",
    "variant_names",
    "variant_to_dict",
]

#: Largest profile file read, in bytes; checked before reading.
MAX_FILE_BYTES = 1 << 20
#: Deepest nesting of YAML collections and scalars in one profile.
MAX_NESTING = 20
#: Most ``extends`` links followed from one profile.
MAX_EXTENDS = 16

_Pos = tuple[int, int]

# Fields whose strings are card ranks: checked with parse_rank, stored canonically.
_RANK_FIELDS = frozenset({(WildRules, "ranks"), (RankBonus, "rank")})

# Top-level keys that are file-format directives rather than Variant fields.
_DIRECTIVES = ("extends",)


# --------------------------------------------------------------------------- converter


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
converter.register_unstructure_hook(
    Variant,
    make_dict_unstructure_fn(
        Variant, converter, assumed=override(unstruct_hook=_unstructure_assumed)
    ),
)
converter.register_structure_hook(
    Variant,
    make_dict_structure_fn(Variant, converter, assumed=override(struct_hook=_structure_assumed)),
)


# --------------------------------------------------------------------------- the model


@attrs.frozen
class _Field:
    """One option of a rule-area class, with its resolved type."""

    name: str
    type: Any
    meta: Mapping[str, Any]
    rank: bool
    default: Any


@cache
def _fields(cls: type) -> dict[str, _Field]:
    """The options of attrs class ``cls`` in declaration order, types resolved."""
    hints = typing.get_type_hints(cls)
    return {
        f.name: _Field(
            name=f.name,
            type=hints[f.name],
            meta=f.metadata,
            rank=(cls, f.name) in _RANK_FIELDS,
            default=f.default,
        )
        for f in attrs.fields(cls)
    }


def _optional_inner(tp: Any) -> Any | None:
    """``X`` if ``tp`` is ``X | None``, else ``None``."""
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(get_args(tp)) == 2:
            return args[0]
    return None


@cache
def _option_paths() -> tuple[str, ...]:
    paths: list[str] = []
    for area, cls in AREAS:
        paths.append(area)
        paths.extend(f"{area}.{name}" for name in _fields(cls))
    return tuple(paths)


def option_paths() -> list[str]:
    """Return every rule area and option as a dotted path, in model order.

    These are the paths ``assumed:`` may name: ``"deck"`` or ``"deck.decks"``.

    Returns:
        The paths, areas first within each area (``["players", "players.count", …]``).
    """
    return list(_option_paths())


# --------------------------------------------------------------------------- errors


def _short(text: str, limit: int = 60) -> str:
    # Messages quote user input; a megabyte-long key must not make a megabyte-long message.
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _join(path: str, key: str) -> str:
    seg = key if re.fullmatch(r"[\w.-]+", key) else _short(repr(key))
    return f"{path}.{seg}" if path else seg


def _quote_list(names: typing.Iterable[str]) -> str:
    return ", ".join(repr(n) for n in names)


def _suggest(word: str, choices: typing.Sequence[str]) -> str:
    """``"did you mean 'x'?"``, or the list of choices when nothing is close."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    return f"expected one of {_quote_list(choices)}"


@attrs.frozen
class _Ctx:
    """Where errors are reported: a file's display name, or ``None`` for plain data."""

    file: str | None

    def error(self, pos: _Pos | None, path: str, message: str) -> VariantError:
        where = ""
        if self.file is not None:
            where = f"{self.file}:{pos[0]}:{pos[1]}: " if pos else f"{self.file}: "
        return VariantError(f"{where}{path}: {message}" if path else f"{where}{message}")


# --------------------------------------------------------------------------- values with positions


class _Val:
    """A YAML (or plain Python) value with its position in the file.

    ``kind`` is ``"map"`` (value: list of ``(key, key position, _Val)``),
    ``"seq"`` (value: list of ``_Val``) or ``"scalar"`` (value: the Python scalar).
    """

    __slots__ = ("kind", "pos", "value")

    def __init__(self, kind: str, value: Any, pos: _Pos | None) -> None:
        self.kind = kind
        self.value = value
        self.pos = pos

    @property
    def is_null(self) -> bool:
        return self.kind == "scalar" and self.value is None

    def describe(self) -> str:
        """The value as quoted in ``got …``."""
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        value = self.value
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return _short(repr(value))
        return _short(str(value))


_STD = "tag:yaml.org,2002:"
_SCALAR_TAGS = {
    _STD + "str": "a string",
    _STD + "int": "an integer",
    _STD + "float": "a number",
    _STD + "bool": "true or false",
    _STD + "null": "null",
    _STD + "timestamp": "a date",
    # '=' alone resolves to this tag; it is just text to a profile.
    _STD + "value": "a string",
}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _node_pos(node: yaml.Node) -> _Pos:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_STD) :] if tag.startswith(_STD) else tag


def _scalar(node: yaml.ScalarNode, path: str, ctx: _Ctx) -> Any:
    tag = node.tag
    if tag not in _SCALAR_TAGS:
        raise ctx.error(_node_pos(node), path, f"tag {_short_tag(tag)!r} is not allowed")
    try:
        if tag == _STD + "int":
            return _CONSTRUCTOR.construct_yaml_int(node)
        if tag == _STD + "float":
            return _CONSTRUCTOR.construct_yaml_float(node)
        if tag == _STD + "bool":
            return _CONSTRUCTOR.construct_yaml_bool(node)
        if tag == _STD + "null":
            return None
        if tag == _STD + "timestamp":
            return _CONSTRUCTOR.construct_yaml_timestamp(node)
        return _CONSTRUCTOR.construct_scalar(node)
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
        # An explicit tag on text that is not of that type, e.g. `!!int two`.
        text = _short(repr(node.value))
        raise ctx.error(
            _node_pos(node), path, f"expected {_SCALAR_TAGS[tag]} after the tag, got {text}"
        ) from None


def _key(node: yaml.Node, path: str, ctx: _Ctx) -> str:
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _STD + "merge":
            raise ctx.error(_node_pos(node), path, "merge keys ('<<') are not allowed")
        value = _scalar(node, path, ctx)
        if isinstance(value, str):
            return value
        got = _Val("scalar", value, None).describe()
    else:
        got = "a mapping" if isinstance(node, yaml.MappingNode) else "a list"
    raise ctx.error(_node_pos(node), path, f"expected an option name, got {got}")


def _from_node(node: yaml.Node, path: str, ctx: _Ctx) -> _Val:
    pos = _node_pos(node)
    if isinstance(node, yaml.MappingNode):
        if node.tag != _STD + "map":
            raise ctx.error(pos, path, f"tag {_short_tag(node.tag)!r} is not allowed on a mapping")
        items: list[tuple[str, _Pos | None, _Val]] = []
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = _key(key_node, path, ctx)
            key_pos = _node_pos(key_node)
            sub = _join(path, key)
            if key in seen:
                raise ctx.error(key_pos, sub, f"duplicate option, already set at line {seen[key]}")
            seen[key] = key_pos[0]
            items.append((key, key_pos, _from_node(value_node, sub, ctx)))
        return _Val("map", items, pos)
    if isinstance(node, yaml.SequenceNode):
        if node.tag != _STD + "seq":
            raise ctx.error(pos, path, f"tag {_short_tag(node.tag)!r} is not allowed on a list")
        return _Val(
            "seq", [_from_node(n, f"{path}[{i}]", ctx) for i, n in enumerate(node.value)], pos
        )
    assert isinstance(node, yaml.ScalarNode)
    return _Val("scalar", _scalar(node, path, ctx), pos)


def _from_data(data: Any, path: str, ctx: _Ctx, depth: int = 0) -> _Val:
    """Wrap plain Python data (as from JSON) so the same checks apply; no positions."""
    if depth >= MAX_NESTING:
        raise ctx.error(None, path, f"nesting deeper than {MAX_NESTING} levels is not allowed")
    if isinstance(data, Mapping):
        items: list[tuple[str, _Pos | None, _Val]] = []
        for key, value in data.items():
            if not isinstance(key, str):
                got = _Val("scalar", key, None).describe()
                raise ctx.error(None, path, f"expected an option name, got {got}")
            items.append((key, None, _from_data(value, _join(path, key), ctx, depth + 1)))
        return _Val("map", items, None)
    if isinstance(data, (list, tuple)):
        return _Val(
            "seq",
            [_from_data(v, f"{path}[{i}]", ctx, depth + 1) for i, v in enumerate(data)],
            None,
        )
    return _Val("scalar", data, None)


# --------------------------------------------------------------------------- YAML parsing


class LoaderRefusal(Exception):
    """A YAML construct a :class:`GuardedLoader` refused, with where it starts."""

    def __init__(self, message: str, mark: Any) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark


class GuardedLoader(yaml.SafeLoader):
    """A safe loader that refuses deep nesting (and, if asked, anchors) as they appear.

    Subclasses set ``max_depth`` and ``refuse_anchors``; a refusal raises
    ``LoaderRefusal`` with a message and the place it starts.
    """

    max_depth = MAX_NESTING
    refuse_anchors = True

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event: Any = self.peek_event()  # type: ignore[no-untyped-call]
        # Refusing here, before the node exists, means an alias bomb never expands
        # and a 10 000-deep `[[[[…` never reaches Python's recursion limit.
        if self.refuse_anchors and (
            isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None
        ):
            raise LoaderRefusal("anchors and aliases are not allowed", event.start_mark)
        if self._depth >= self.max_depth:
            raise LoaderRefusal(
                f"nesting deeper than {self.max_depth} levels is not allowed", event.start_mark
            )
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _StrictLoader(GuardedLoader):
    """Composes profile nodes only; refuses anchors, aliases and deep nesting."""


def _mark_pos(mark: Any) -> str:
    return f"{mark.line + 1}:{mark.column + 1}" if mark is not None else "1:1"


def _parse(text: str, display: str) -> _Val:
    """Compose ``text`` into one mapping node and convert it, or raise VariantError."""
    ctx = _Ctx(display)
    loader: _StrictLoader | None = None
    try:
        # The reader checks for forbidden characters already when it is built.
        loader = _StrictLoader(text)
        if not loader.check_node():
            raise VariantError(
                f"{display}:1:1: expected a mapping of options, got an empty document"
            )
        node = loader.get_node()
        if loader.check_node():
            mark = loader.peek_event().start_mark  # type: ignore[no-untyped-call]
            raise VariantError(
                f"{display}:{_mark_pos(mark)}: expected a single document, found a second one"
            )
    except LoaderRefusal as exc:
        raise VariantError(f"{display}:{_mark_pos(exc.mark)}: {exc.message}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise VariantError(f"{display}:{_mark_pos(mark)}: YAML syntax error: {problem}") from None
    except yaml.reader.ReaderError as exc:
        before = text[: exc.position]
        line = before.count("\n") + 1
        column = exc.position - (before.rfind("\n") + 1) + 1
        char = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise VariantError(
            f"{display}:{line}:{column}: YAML syntax error: character U+{char:04X} is not allowed"
        ) from None
    except yaml.YAMLError as exc:
        raise VariantError(f"{display}: YAML syntax error: {exc}") from None
    except RecursionError:
        raise VariantError(f"{display}: nesting too deep") from None
    finally:
        if loader is not None:
            loader.dispose()
    assert node is not None
    if isinstance(node, yaml.ScalarNode) and node.tag == _STD + "null" and node.value == "":
        # `---` alone: a document with nothing in it.
        raise VariantError(
            f"{display}:{_mark_pos(node.start_mark)}: expected a mapping of options, got an empty document"
        )
    try:
        root = _from_node(node, "", ctx)
    except RecursionError:
        raise VariantError(f"{display}: nesting too deep") from None
    if root.kind != "map":
        raise ctx.error(root.pos, "", f"expected a mapping of options, got {root.describe()}")
    return root


# --------------------------------------------------------------------------- checking values


def _int_expectation(meta: Mapping[str, Any]) -> str:
    low, high = meta.get("minimum"), meta.get("maximum")
    if low is not None and high is not None:
        return f"an integer from {low} to {high}"
    if low is not None:
        return f"an integer >= {low}"
    if high is not None:
        return f"an integer <= {high}"
    return "an integer"


_RANK_EXPECTATION = "a rank, one of " + _quote_list(RANK_NAMES[r] for r in RANKS)

# Items of an integer list (the round-by-round opening table) are points.
_ITEM_META: Mapping[str, Any] = {"minimum": 0}


def _expectation(tp: Any, meta: Mapping[str, Any], rank: bool) -> str:
    inner = _optional_inner(tp)
    if inner is not None:
        return _expectation(inner, meta, rank) + " or null"
    if attrs.has(tp):
        return "a mapping"
    origin = get_origin(tp)
    if origin is tuple:
        return "a list"
    if origin is Literal:
        return "one of " + _quote_list(get_args(tp))
    if tp is bool:
        return "true or false"
    if tp is int:
        return _int_expectation(meta)
    if rank:
        return _RANK_EXPECTATION
    return "a string"


def _check(val: _Val, tp: Any, meta: Mapping[str, Any], rank: bool, path: str, ctx: _Ctx) -> Any:
    """Check ``val`` against type ``tp``; return it in cattrs' unstructured form."""
    inner = _optional_inner(tp)
    if inner is not None and val.is_null:
        return None

    def wrong() -> VariantError:
        expected = _expectation(tp, meta, rank)
        return ctx.error(val.pos, path, f"expected {expected}, got {val.describe()}")

    plain = inner if inner is not None else tp
    value = val.value
    if attrs.has(plain):
        if val.kind != "map":
            raise wrong()
        return _check_class(val, plain, path, ctx)
    origin = get_origin(plain)
    if origin is tuple:
        if val.kind != "seq":
            raise wrong()
        item_tp = get_args(plain)[0]
        item_meta = _ITEM_META if item_tp is int else meta
        out = []
        firsts: dict[Any, int] = {}
        for i, item in enumerate(value):
            item_path = f"{path}[{i}]"
            checked = _check(item, item_tp, item_meta, rank, item_path, ctx)
            # A set of card classes or ranks names each once; a repeat is a typo.
            if rank or get_origin(item_tp) is Literal:
                if checked in firsts:
                    raise ctx.error(
                        item.pos,
                        item_path,
                        f"expected each value once, got {checked!r} again "
                        f"(first at {path}[{firsts[checked]}])",
                    )
                firsts[checked] = i
            out.append(checked)
        return out
    if val.kind != "scalar":
        raise wrong()
    if origin is Literal:
        if not isinstance(value, str) or value not in get_args(plain):
            raise wrong()
        return value
    if plain is bool:
        if not isinstance(value, bool):
            raise wrong()
        return value
    if plain is int:
        # YAML `true` is a bool, and bool is an int subclass: refuse it explicitly.
        if not isinstance(value, int) or isinstance(value, bool):
            raise wrong()
        low, high = meta.get("minimum"), meta.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            raise wrong()
        return value
    if plain is str:
        if not isinstance(value, str):
            raise wrong()
        if rank:
            try:
                return RANK_NAMES[parse_rank(value)]
            except CanastaError:
                raise wrong() from None
        return value
    raise TypeError(f"unsupported option type {plain!r}")  # pragma: no cover - model bug


def _check_class(val: _Val, cls: type, path: str, ctx: _Ctx) -> dict[str, Any]:
    """Check a mapping of ``cls`` options; return only the options it sets."""
    fields = _fields(cls)
    out: dict[str, Any] = {}
    for key, key_pos, item in val.value:
        sub = _join(path, key)
        field = fields.get(key)
        if field is None:
            raise ctx.error(key_pos, sub, "unknown option; " + _suggest(key, list(fields)))
        out[key] = _check(item, field.type, field.meta, field.rank, sub, ctx)
    return out


@attrs.frozen
class _Layer:
    """What one profile file (or mapping) says, checked, before ``extends`` is applied."""

    data: dict[str, Any]
    assumed: dict[str, str]
    leaves: frozenset[str]
    extends: tuple[str, _Pos | None] | None


def _nonempty_string(val: _Val, path: str, what: str, ctx: _Ctx) -> str:
    if not isinstance(val.value, str) or not val.value:
        raise ctx.error(val.pos, path, f"expected {what}, got {val.describe()}")
    return val.value


def _check_layer(root: _Val, ctx: _Ctx) -> _Layer:
    fields = _fields(Variant)
    known = [*fields, *_DIRECTIVES]
    data: dict[str, Any] = {}
    assumed: dict[str, str] = {}
    extends: tuple[str, _Pos | None] | None = None
    for key, key_pos, item in root.value:
        if key == "extends":
            what = "a bundled variant name or a path to a YAML file"
            extends = (_nonempty_string(item, key, what, ctx), item.pos)
        elif key == "assumed":
            assumed = _check_assumed(item, ctx)
        elif key == "name":
            data[key] = _nonempty_string(item, key, "a non-empty string", ctx)
        elif key in fields:
            field = fields[key]
            data[key] = _check(item, field.type, field.meta, field.rank, key, ctx)
        else:
            raise ctx.error(key_pos, _join("", key), "unknown option; " + _suggest(key, known))
    leaves: set[str] = set()
    for key, value in data.items():
        if isinstance(value, dict):
            leaves.update(f"{key}.{sub}" for sub in value)
        else:
            leaves.add(key)
    return _Layer(data=data, assumed=assumed, leaves=frozenset(leaves), extends=extends)


def _check_assumed(val: _Val, ctx: _Ctx) -> dict[str, str]:
    if val.kind != "map":
        raise ctx.error(
            val.pos,
            "assumed",
            f"expected a mapping of option paths to sources, got {val.describe()}",
        )
    paths = _option_paths()
    out: dict[str, str] = {}
    for key, key_pos, item in val.value:
        sub = _join("assumed", key)
        if key not in paths:
            raise ctx.error(key_pos, sub, "unknown option or area; " + _suggest(key, paths))
        out[key] = _nonempty_string(item, sub, "a string naming where the value comes from", ctx)
    return out


# --------------------------------------------------------------------------- files and extends


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


def bundled_file(name: str) -> tuple[Path, str]:
    """The file and display name of bundled profile ``name``."""
    names = variant_names()
    if name not in names:
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise VariantError(
            f"unknown variant {_short(repr(name))}{hint} (bundled variants: {', '.join(names)})"
        )
    return _bundled_dir() / f"{name}.yaml", f"{name}.yaml"


def _read(path: Path, display: str) -> str:
    try:
        info = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        raise VariantError(f"{display}: file not found") from None
    except OSError as exc:
        raise VariantError(f"{display}: cannot read the file: {exc.strerror}") from None
    except ValueError:  # e.g. a NUL character in the path
        raise VariantError(f"{display}: not a valid file path") from None
    # A FIFO or device would block or never end; only a regular file is read.
    if not stat.S_ISREG(info.st_mode):
        raise VariantError(f"{display}: not a regular file")
    too_big = VariantError(
        f"{display}: file is larger than 1 MiB ({MAX_FILE_BYTES} bytes), the limit for a profile"
    )
    if info.st_size > MAX_FILE_BYTES:
        raise too_big
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)  # the file may have grown since stat
    except OSError as exc:
        raise VariantError(f"{display}: cannot read the file: {exc.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise too_big
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VariantError(
            f"{display}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None


@attrs.frozen
class _Source:
    """A profile to load: a file (with its display name) or plain data."""

    path: Path | None
    display: str | None
    data: Any = None

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


def _resolve_extends(target: str, pos: _Pos | None, child: _Source, ctx: _Ctx) -> _Source:
    if is_bundled_name(target):
        try:
            path, display = bundled_file(target)
        except VariantError as exc:
            raise ctx.error(pos, "extends", str(exc)) from None
        return _Source(path, display)
    if child.path is None:  # plain data: relative to the working directory
        return _Source(Path(target), target)
    assert child.display is not None
    display = os.path.normpath(os.path.join(os.path.dirname(child.display), target))
    path = child.path.parent / target
    try:
        path.stat()
    except (FileNotFoundError, NotADirectoryError):
        # Said at the `extends:` line, so the reader sees which file asked for it.
        raise ctx.error(pos, "extends", f"file not found: {display}") from None
    except (OSError, ValueError):
        pass  # reading it reports the problem
    return _Source(path, display)


def _load_layers(
    source: _Source, chain: tuple[_Source, ...]
) -> tuple[dict[str, Any], dict[str, str], _Layer]:
    """Load ``source`` and its ancestors; return merged data, assumptions and its own layer."""
    ctx = _Ctx(source.display)
    if source.path is not None:
        assert source.display is not None
        root = _parse(_read(source.path, source.display), source.display)
    else:
        root = _from_data(source.data, "", ctx)
        if root.kind != "map":
            raise ctx.error(None, "", f"expected a mapping of options, got {root.describe()}")
    layer = _check_layer(root, ctx)
    if layer.extends is None:
        return layer.data, dict(layer.assumed), layer
    target, pos = layer.extends
    parent = _resolve_extends(target, pos, source, ctx)
    here = (*chain, source)
    if parent.identity is not None and any(s.identity == parent.identity for s in here):
        names = " -> ".join(s.label for s in (*here, parent))
        raise ctx.error(pos, "extends", f"cycle of extends: {names}")
    if len(here) > MAX_EXTENDS:
        raise ctx.error(pos, "extends", f"more than {MAX_EXTENDS} levels of extends")
    base, base_assumed, _ = _load_layers(parent, here)
    merged = _merge(base, layer.data)
    # An option the child sets is the child's own rule now, not the parent's
    # assumption, unless the child marks it assumed again.
    assumed = {p: s for p, s in base_assumed.items() if not _touches(p, layer.leaves)}
    assumed.update(layer.assumed)
    return merged, assumed, layer


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
    except (cattrs.BaseValidationError, ValueError, TypeError) as exc:  # pragma: no cover
        # Every value was checked above; reaching this is a bug, still reported as bad input.
        raise VariantError(f"{source.label}: {exc}") from None


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
            f"{name_or_path!r}: expected a bundled variant name or the path of a YAML profile"
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
    return dumper.represent_sequence(_STD + "seq", data, flow_style=flow)


# PyYAML writes these raw in plain or single-quoted text, where reading folds or
# refuses them; in double quotes they are escaped and come back unchanged.
_NEEDS_DOUBLE_QUOTES = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    style = '"' if _NEEDS_DOUBLE_QUOTES.search(data) else None
    return dumper.represent_scalar(_STD + "str", data, style=style)


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
