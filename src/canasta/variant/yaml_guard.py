"""Strict YAML for profiles: a guarded loader and values that keep their file positions.

The YAML is never constructed by PyYAML: it is composed into a node tree (so
anchors, aliases and deep nesting are refused before they can expand or
recurse) and this module walks the nodes itself, keeping each one's position
as a :class:`Value`. Plain Python data (as from JSON) is wrapped the same way,
without positions, so one set of checks (:mod:`canasta.variant.checking`)
applies to both.

The loader is :class:`canasta.limits.GuardedLoader`, shared with the score
file and record readers (and re-exported here): it refuses more than
:data:`~canasta.limits.MAX_YAML_LINES` lines, more than
:data:`~canasta.limits.MAX_YAML_NODES` nodes, nesting deeper than
:data:`MAX_NESTING`, anchors and aliases and integers longer than
:data:`~canasta.limits.MAX_INT_CHARS` characters, and reads no base-60 numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from canasta.errors import MAX_LISTED, VariantError
from canasta.limits import (
    MAX_NESTING,
    MAX_YAML_NODES,
    GuardedConstructor,
    GuardedLoader,
    LoaderRefusal,
    clip_message,
    escape,
    int_text,
    tag_text,
    yaml_problem,
)
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

#: A position in a file: line and column, both from 1.
Pos = tuple[int, int]


class ErrorContext:
    """Where errors are reported (a file's display name, or ``None`` for plain data), and what was found.

    A mistake that leaves the rest of the profile readable is *added*
    (:meth:`add`) and checking goes on, so that one run reports every problem
    of a file; :meth:`raise_problems` then refuses the profile with all of
    them. A mistake after which nothing can be read (bad YAML, a limit) is
    raised at once (:meth:`error`).
    """

    __slots__ = ("file", "problems", "total")

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.problems: list[str] = []
        self.total = 0

    def message(self, pos: Pos | None, path: str, message: str) -> str:
        """``FILE:LINE:COLUMN: PATH: MESSAGE``, escaped and cut to a bounded length."""
        where = ""
        if self.file is not None:
            name = escape(self.file)
            where = f"{name}:{pos[0]}:{pos[1]}: " if pos else f"{name}: "
        text = f"{where}{path}: {message}" if path else f"{where}{message}"
        return clip_message(text)

    def error(self, pos: Pos | None, path: str, message: str) -> VariantError:
        """The error of one problem (with those added before it, if any)."""
        self.add(pos, path, message)
        return self.refusal()

    def alone(self, pos: Pos | None, path: str, message: str) -> VariantError:
        """The error of this problem alone, forgetting those noted (which may quote the file)."""
        self.problems.clear()
        self.total = 0
        return self.error(pos, path, message)

    def add(self, pos: Pos | None, path: str, message: str) -> None:
        """Note a problem and go on checking; only the first ``MAX_LISTED`` are kept."""
        self.total += 1
        if len(self.problems) < MAX_LISTED:
            self.problems.append(self.message(pos, path, message))

    def refusal(self) -> VariantError:
        """The error listing every problem noted."""
        if self.total == 1:
            return VariantError(self.problems[0])
        return VariantError.of(self.problems, self.total)

    def raise_problems(self) -> None:
        """Raise the error listing every problem noted, if there is any."""
        if self.total:
            raise self.refusal()


# --------------------------------------------------------------------------- values with positions


class Value:
    """A YAML (or plain Python) value with its position in the file.

    ``kind`` is ``"map"`` (value: list of ``(key, key position, Value)``),
    ``"seq"`` (value: list of ``Value``), ``"scalar"`` (value: the Python
    scalar) or ``"bad"``: a value already reported as a problem (a tag that is
    not allowed, say), which the checks pass over without a second message.
    """

    __slots__ = ("kind", "pos", "value")

    def __init__(self, kind: str, value: Any, pos: Pos | None) -> None:
        self.kind = kind
        self.value = value
        self.pos = pos

    @property
    def is_bad(self) -> bool:
        """Whether the value was refused already (see the class)."""
        return self.kind == "bad"

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
            return short(repr(value[:61]))
        if isinstance(value, int):
            return short(int_text(value))
        return short(str(value))

    def kind_name(self) -> str:
        """What the value is, without quoting it: ``a mapping``, ``a string``, ``null`` …"""
        if self.kind != "scalar" or self.value is None or isinstance(self.value, bool):
            return self.describe()
        if isinstance(self.value, str):
            return "a string"
        if isinstance(self.value, (int, float)):
            return "a number"
        return "a date"


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
_CONSTRUCTOR = GuardedConstructor()
#: What :func:`_scalar` returns for a scalar it reported as a problem.
_BAD = object()


def _node_pos(node: yaml.Node) -> Pos:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


def _scalar(node: yaml.ScalarNode, path: str, ctx: ErrorContext) -> Any:
    """The scalar's value, or :data:`_BAD` after adding the problem to ``ctx``."""
    tag = node.tag
    if tag not in _SCALAR_TAGS:
        ctx.add(_node_pos(node), path, f"tag {tag_text(tag)} is not allowed")
        return _BAD
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
    except LoaderRefusal as exc:  # an integer too long to read
        ctx.add(_node_pos(node), path, exc.message)
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError):
        # An explicit tag on text that is not of that type, e.g. `!!int two`.
        text = short(repr(node.value[:61]))
        ctx.add(_node_pos(node), path, f"expected {_SCALAR_TAGS[tag]} after the tag, got {text}")
    return _BAD


def _key(node: yaml.Node, path: str, ctx: ErrorContext) -> str | None:
    """The key's text, or ``None`` after adding the problem to ``ctx``."""
    if isinstance(node, yaml.ScalarNode):
        if node.tag == STD_TAG + "merge":
            ctx.add(_node_pos(node), path, "merge keys ('<<') are not allowed")
            return None
        value = _scalar(node, path, ctx)
        if value is _BAD:
            return None
        if isinstance(value, str):
            return value
        got = Value("scalar", value, None).describe()
    else:
        got = "a mapping" if isinstance(node, yaml.MappingNode) else "a list"
    ctx.add(_node_pos(node), path, f"expected an option name, got {got}")
    return None


def _from_node(node: yaml.Node, path: str, ctx: ErrorContext) -> Value:
    pos = _node_pos(node)
    if isinstance(node, yaml.MappingNode):
        if node.tag != STD_TAG + "map":
            ctx.add(pos, path, f"tag {tag_text(node.tag)} is not allowed on a mapping")
            return Value("bad", None, pos)
        items: list[tuple[str, Pos | None, Value]] = []
        seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = _key(key_node, path, ctx)
            if key is None:
                continue
            key_pos = _node_pos(key_node)
            sub = join_path(path, key)
            if key in seen:
                ctx.add(key_pos, sub, f"duplicate option, already set at line {seen[key]}")
                continue
            seen[key] = key_pos[0]
            items.append((key, key_pos, _from_node(value_node, sub, ctx)))
        return Value("map", items, pos)
    if isinstance(node, yaml.SequenceNode):
        if node.tag != STD_TAG + "seq":
            ctx.add(pos, path, f"tag {tag_text(node.tag)} is not allowed on a list")
            return Value("bad", None, pos)
        return Value(
            "seq", [_from_node(n, f"{path}[{i}]", ctx) for i, n in enumerate(node.value)], pos
        )
    assert isinstance(node, yaml.ScalarNode)
    value = _scalar(node, path, ctx)
    return Value("bad", None, pos) if value is _BAD else Value("scalar", value, pos)


def from_data(data: Any, path: str, ctx: ErrorContext) -> Value:
    """Wrap plain Python data (as from JSON) so the same checks apply; no positions.

    The limits of a YAML profile apply: at most :data:`MAX_NESTING` levels and
    :data:`~canasta.limits.MAX_YAML_NODES` keys, values and list items.
    """
    return _wrap(data, path, ctx, 0, [0])


def _wrap(data: Any, path: str, ctx: ErrorContext, depth: int, count: list[int]) -> Value:
    if depth >= MAX_NESTING:
        raise ctx.error(None, path, f"nesting deeper than {MAX_NESTING} levels is not allowed")
    count[0] += 1
    if count[0] > MAX_YAML_NODES:
        raise ctx.error(None, path, f"more than {MAX_YAML_NODES} keys, values and list items")
    if isinstance(data, Mapping):
        items: list[tuple[str, Pos | None, Value]] = []
        for key, value in data.items():
            if not isinstance(key, str):
                got = Value("scalar", key, None).describe()
                ctx.add(None, path, f"expected an option name, got {got}")
                continue
            count[0] += 1
            items.append((key, None, _wrap(value, join_path(path, key), ctx, depth + 1, count)))
        return Value("map", items, None)
    if isinstance(data, (list, tuple)):
        return Value(
            "seq",
            [_wrap(v, f"{path}[{i}]", ctx, depth + 1, count) for i, v in enumerate(data)],
            None,
        )
    return Value("scalar", data, None)


# --------------------------------------------------------------------------- YAML parsing


class _StrictLoader(GuardedLoader):
    """Composes profile nodes only; refuses anchors, aliases and deep nesting."""


def _where(display: str, line: int, column: int) -> str:
    return f"{escape(display)}:{line}:{column}"


def parse_profile(text: str, display: str, ctx: ErrorContext | None = None) -> Value:
    """Compose ``text`` into one mapping node and convert it, or raise VariantError.

    Nothing of ``text`` is quoted when it is not a mapping: a file named by
    mistake (``extends: /etc/passwd``) is not shown in the message. Problems
    that leave the rest readable (a tag, a duplicate key) are added to ``ctx``
    and left out of the value; the caller raises them with its own.
    """
    own = ctx is None
    if ctx is None:
        ctx = ErrorContext(display)
    loader: _StrictLoader | None = None
    try:
        # The reader checks for forbidden characters already when it is built.
        loader = _StrictLoader(text)
        if not loader.check_node():
            raise VariantError(
                f"{_where(display, 1, 1)}: expected a mapping of options, got an empty document"
            )
        node = loader.get_node()
        if loader.check_node():
            mark = loader.peek_event().start_mark  # type: ignore[no-untyped-call]
            where = _where(display, mark.line + 1, mark.column + 1)
            raise VariantError(f"{where}: expected a single document, found a second one")
    except LoaderRefusal as exc:
        raise VariantError(f"{_where(display, exc.line, exc.column)}: {exc.message}") from None
    except yaml.YAMLError as exc:
        line, column, problem = yaml_problem(exc, text)
        raise VariantError(f"{_where(display, line, column)}: YAML syntax error: {problem}") from None
    except RecursionError:  # pragma: no cover - the loader refuses deep nesting first
        raise VariantError(f"{escape(display)}: nesting too deep") from None
    finally:
        if loader is not None:
            loader.dispose()
    assert node is not None
    if isinstance(node, yaml.ScalarNode) and node.tag == STD_TAG + "null" and node.value == "":
        # `---` alone: a document with nothing in it.
        mark = node.start_mark
        raise VariantError(
            f"{_where(display, mark.line + 1, mark.column + 1)}: "
            "expected a mapping of options, got an empty document"
        )
    plain = _PLAIN_ROOT.get(type(node), _SCALAR_TAGS)
    if node.tag not in plain:
        # `!custom` or `!!set` on the whole document: no profile is anything but a plain mapping
        raise ctx.error(
            _node_pos(node), "", f"tag {tag_text(node.tag)} is not allowed: a profile is a plain mapping of options"
        )
    if not isinstance(node, yaml.MappingNode):
        # Said without quoting the text: the file may be anything but a profile.
        got = "a list" if isinstance(node, yaml.SequenceNode) else _scalar_kind(node)
        raise ctx.error(_node_pos(node), "", f"expected a mapping of options, got {got}")
    try:
        root = _from_node(node, "", ctx)
    except RecursionError:  # pragma: no cover - the loader refuses deep nesting first
        raise VariantError(f"{escape(display)}: nesting too deep") from None
    if own:
        ctx.raise_problems()
    return root


#: The plain tag of a root node of each kind (a scalar's are those of :data:`_SCALAR_TAGS`).
_PLAIN_ROOT: dict[type, Any] = {yaml.MappingNode: (STD_TAG + "map",), yaml.SequenceNode: (STD_TAG + "seq",)}


def _scalar_kind(node: yaml.Node) -> str:
    tag = node.tag
    if tag == STD_TAG + "null":
        return "null"
    if tag == STD_TAG + "bool":
        return "true or false"
    if tag in (STD_TAG + "int", STD_TAG + "float"):
        return "a number"
    if tag == STD_TAG + "timestamp":
        return "a date"
    return "a string"
