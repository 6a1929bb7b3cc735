"""Strict YAML for profiles: a guarded loader and values that keep their file positions.

The YAML is never constructed by PyYAML: it is composed into a node tree (so
anchors, aliases and deep nesting are refused before they can expand or
recurse) and this module walks the nodes itself, keeping each one's position
as a :class:`Value`. Plain Python data (as from JSON) is wrapped the same way,
without positions, so one set of checks (:mod:`canasta.variant.checking`)
applies to both.

:class:`GuardedLoader` and :class:`LoaderRefusal` are shared with the score
file reader.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import yaml

from canasta.errors import VariantError
from canasta.variant.options import join_path, short

__all__ = [
    "MAX_NESTING",
    "STD_TAG",
    "ErrorContext",
    "GuardedLoader",
    "LoaderRefusal",
    "Pos",
    "Value",
    "from_data",
    "parse_profile",
]

#: Deepest nesting of YAML collections and scalars in one profile.
MAX_NESTING = 20

#: A position in a file: line and column, both from 1.
Pos = tuple[int, int]


@attrs.frozen
class ErrorContext:
    """Where errors are reported: a file's display name, or ``None`` for plain data."""

    file: str | None

    def error(self, pos: Pos | None, path: str, message: str) -> VariantError:
        where = ""
        if self.file is not None:
            where = f"{self.file}:{pos[0]}:{pos[1]}: " if pos else f"{self.file}: "
        return VariantError(f"{where}{path}: {message}" if path else f"{where}{message}")


# --------------------------------------------------------------------------- values with positions


class Value:
    """A YAML (or plain Python) value with its position in the file.

    ``kind`` is ``"map"`` (value: list of ``(key, key position, Value)``),
    ``"seq"`` (value: list of ``Value``) or ``"scalar"`` (value: the Python scalar).
    """

    __slots__ = ("kind", "pos", "value")

    def __init__(self, kind: str, value: Any, pos: Pos | None) -> None:
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
            return short(repr(value))
        return short(str(value))


STD_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {
    STD_TAG + "str": "a string",
    STD_TAG + "int": "an integer",
    STD_TAG + "float": "a number",
    STD_TAG + "bool": "true or false",
    STD_TAG + "null": "null",
    STD_TAG + "timestamp": "a date",
    # '=' alone resolves to this tag; it is just text to a profile.
    STD_TAG + "value": "a string",
}
_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _node_pos(node: yaml.Node) -> Pos:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(STD_TAG) :] if tag.startswith(STD_TAG) else tag


def _scalar(node: yaml.ScalarNode, path: str, ctx: ErrorContext) -> Any:
    tag = node.tag
    if tag not in _SCALAR_TAGS:
        raise ctx.error(_node_pos(node), path, f"tag {_short_tag(tag)!r} is not allowed")
    try:
        if tag == STD_TAG + "int":
            return _CONSTRUCTOR.construct_yaml_int(node)
        if tag == STD_TAG + "float":
            return _CONSTRUCTOR.construct_yaml_float(node)
        if tag == STD_TAG + "bool":
            return _CONSTRUCTOR.construct_yaml_bool(node)
        if tag == STD_TAG + "null":
            return None
        if tag == STD_TAG + "timestamp":
            return _CONSTRUCTOR.construct_yaml_timestamp(node)
        return _CONSTRUCTOR.construct_scalar(node)
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
        # An explicit tag on text that is not of that type, e.g. `!!int two`.
        text = short(repr(node.value))
        raise ctx.error(
            _node_pos(node), path, f"expected {_SCALAR_TAGS[tag]} after the tag, got {text}"
        ) from None


def _key(node: yaml.Node, path: str, ctx: ErrorContext) -> str:
    if isinstance(node, yaml.ScalarNode):
        if node.tag == STD_TAG + "merge":
            raise ctx.error(_node_pos(node), path, "merge keys ('<<') are not allowed")
        value = _scalar(node, path, ctx)
        if isinstance(value, str):
            return value
        got = Value("scalar", value, None).describe()
    else:
        got = "a mapping" if isinstance(node, yaml.MappingNode) else "a list"
    raise ctx.error(_node_pos(node), path, f"expected an option name, got {got}")


def _from_node(node: yaml.Node, path: str, ctx: ErrorContext) -> Value:
    pos = _node_pos(node)
    if isinstance(node, yaml.MappingNode):
        if node.tag != STD_TAG + "map":
            raise ctx.error(pos, path, f"tag {_short_tag(node.tag)!r} is not allowed on a mapping")
        items: list[tuple[str, Pos | None, Value]] = []
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = _key(key_node, path, ctx)
            key_pos = _node_pos(key_node)
            sub = join_path(path, key)
            if key in seen:
                raise ctx.error(key_pos, sub, f"duplicate option, already set at line {seen[key]}")
            seen[key] = key_pos[0]
            items.append((key, key_pos, _from_node(value_node, sub, ctx)))
        return Value("map", items, pos)
    if isinstance(node, yaml.SequenceNode):
        if node.tag != STD_TAG + "seq":
            raise ctx.error(pos, path, f"tag {_short_tag(node.tag)!r} is not allowed on a list")
        return Value(
            "seq", [_from_node(n, f"{path}[{i}]", ctx) for i, n in enumerate(node.value)], pos
        )
    assert isinstance(node, yaml.ScalarNode)
    return Value("scalar", _scalar(node, path, ctx), pos)


def from_data(data: Any, path: str, ctx: ErrorContext, depth: int = 0) -> Value:
    """Wrap plain Python data (as from JSON) so the same checks apply; no positions."""
    if depth >= MAX_NESTING:
        raise ctx.error(None, path, f"nesting deeper than {MAX_NESTING} levels is not allowed")
    if isinstance(data, Mapping):
        items: list[tuple[str, Pos | None, Value]] = []
        for key, value in data.items():
            if not isinstance(key, str):
                got = Value("scalar", key, None).describe()
                raise ctx.error(None, path, f"expected an option name, got {got}")
            items.append((key, None, from_data(value, join_path(path, key), ctx, depth + 1)))
        return Value("map", items, None)
    if isinstance(data, (list, tuple)):
        return Value(
            "seq",
            [from_data(v, f"{path}[{i}]", ctx, depth + 1) for i, v in enumerate(data)],
            None,
        )
    return Value("scalar", data, None)


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


def parse_profile(text: str, display: str) -> Value:
    """Compose ``text`` into one mapping node and convert it, or raise VariantError."""
    ctx = ErrorContext(display)
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
    if isinstance(node, yaml.ScalarNode) and node.tag == STD_TAG + "null" and node.value == "":
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
