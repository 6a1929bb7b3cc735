"""The package's shape: imports point one way, no private names cross modules, modules stay small.

These tests read the source (with :mod:`ast`), so they judge every import the
code can run, module-level or inside a function, and, for circles, the imports
under ``if TYPE_CHECKING:`` too: a circle of type names is a circle of ideas,
even when it never runs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "canasta"
MAX_LINES = 800

#: Which top-level parts of ``canasta`` each part may import (besides itself).
#: The variant is data; the engine reads it; the tools around the engine read both.
#: ``limits`` (the guards on what is read) sits at the bottom, for every part to use.
#: ``web`` (``canasta serve``, the optional web extra) sits on top: only the CLI imports it.
LAYERS: dict[str, set[str]] = {
    "errors": set(),
    "limits": {"errors"},
    "cards": {"errors", "limits"},
    "faces": {"errors", "limits", "cards"},
    "variant": {"errors", "limits", "cards"},
    "engine": {"errors", "limits", "cards", "variant"},
    "rulebook": {"errors", "limits", "cards", "faces", "variant", "engine"},
    "check": {"errors", "limits", "cards", "variant", "engine", "play"},
    "io": {"errors", "limits", "cards", "variant", "engine"},
    "play": {"errors", "limits", "cards", "faces", "variant", "engine", "io"},
    "observe": {"errors", "limits", "cards", "variant", "engine", "io"},
    "adapters": {"errors", "limits", "cards", "faces", "variant", "engine", "rulebook", "check", "io", "play", "observe", "__init__"},
    "web": {"errors", "limits", "cards", "faces", "variant", "engine", "rulebook", "check", "io", "play", "__init__"},
    "console": set(),
    "usage": {"console"},
    "cli": {"errors", "limits", "cards", "faces", "variant", "engine", "rulebook", "check", "io", "play", "console", "usage", "web", "__init__"},
    "__init__": {"errors", "limits", "cards", "faces", "variant", "engine", "rulebook", "check", "io", "play"},
    "__main__": {"cli"},
}


def module_name(path: Path) -> str:
    """``src/canasta/engine/game.py`` -> ``canasta.engine.game`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST, types: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run, and with ``types`` those under ``if TYPE_CHECKING:``."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if not types and isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def imports_of(name: str, types: bool = False) -> list[tuple[str, list[str], int]]:
    """``(imported module, names taken from it, line)`` for each runtime import of ``canasta`` code.

    With ``types``, the imports under ``if TYPE_CHECKING:`` count too.
    """
    path = MODULES[name]
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    out = []
    for node in _import_nodes(tree, types):
        if isinstance(node, ast.Import):
            out += [(a.name, [], node.lineno) for a in node.names if a.name.split(".")[0] == "canasta"]
            continue
        if node.level:  # relative: resolve against this module's package
            base = name.split(".") if is_package else name.split(".")[:-1]
            base = base[: len(base) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
        else:
            target = node.module or ""
        if target.split(".")[0] != "canasta":
            continue
        names = [a.name for a in node.names]
        # `from canasta.engine import game` imports the module canasta.engine.game
        submodules = [n for n in names if f"{target}.{n}" in MODULES]
        for sub in submodules:
            out.append((f"{target}.{sub}", [], node.lineno))
        rest = [n for n in names if n not in submodules]
        if rest:
            out.append((target, rest, node.lineno))
    return out


def _graph(types: bool) -> dict[str, list[str]]:
    return {name: sorted({t for t, _, _ in imports_of(name, types) if t in MODULES and t != name})
            for name in MODULES}


#: Runtime imports; TYPE_GRAPH adds the type-only ones.
GRAPH = _graph(False)
TYPE_GRAPH = _graph(True)


def circles(graph: dict[str, list[str]]) -> list[list[str]]:
    """One circle through each back edge of a depth-first walk (none when the graph has no circle)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def _part(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


class TestImports:
    """Imports point one way."""

    def test_the_walk_sees_the_package(self) -> None:
        """The graph covers every subpackage and finds real edges (a walk that saw nothing would pass anything)."""
        parts = {_part(n) for n in MODULES}
        assert {"variant", "engine", "check", "rulebook", "play", "io"} <= parts
        assert "canasta.engine.tables" in GRAPH["canasta.engine.game"]
        assert "canasta.variant.model" in GRAPH["canasta.engine.tables"]

    def test_no_import_circle(self) -> None:
        """No module reaches itself through the modules it imports."""
        found = circles(GRAPH)
        assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)

    def test_no_circle_of_type_names(self) -> None:
        """Nor through the names it imports only for type annotations."""
        found = circles(TYPE_GRAPH)
        assert not found, "circles through TYPE_CHECKING imports:\n" + "\n".join(" -> ".join(c) for c in found)

    def test_the_circle_finder_finds_circles(self) -> None:
        """A graph with a circle is caught (a finder that found nothing would pass anything)."""
        assert circles({"a": ["b"], "b": ["c"], "c": ["a"], "d": []}) == [["a", "b", "c", "a"]]
        assert circles({"a": ["b"], "b": [], "c": ["a", "b"]}) == []
        assert "canasta.engine.tables" in TYPE_GRAPH["canasta.engine.state"]

    def test_no_module_imports_its_own_package(self) -> None:
        """Inside a subpackage, modules import each other directly, never through the package's ``__init__``."""
        bad = []
        for name, path in MODULES.items():
            if path.name == "__init__.py" or name.count(".") < 2:
                continue
            package = name.rsplit(".", 1)[0]
            bad += [f"{name}:{line} imports {names} from {package}"
                    for target, names, line in imports_of(name) if target == package and names]
        assert not bad, "\n".join(bad)

    def test_no_private_name_crosses_a_module(self) -> None:
        """No module imports another module's underscore names."""
        bad = []
        for name in MODULES:
            for target, names, line in imports_of(name):
                private = [n for n in names if n.startswith("_") and not n.startswith("__")]
                if private and target != name:
                    bad.append(f"{name}:{line} imports {', '.join(private)} from {target}")
        assert not bad, "\n".join(bad)

    @pytest.mark.parametrize("name", sorted(MODULES))
    def test_layers(self, name: str) -> None:
        """Each part imports only the parts below it (see LAYERS)."""
        mine = _part(name)
        allowed = LAYERS[mine] | {mine}
        wrong = sorted({f"{t} (line {line})" for t, _, line in imports_of(name) if _part(t) not in allowed})
        assert not wrong, f"{name} ({mine}) may import only {sorted(allowed)}; it imports {wrong}"


class TestSize:
    """Modules short enough to read."""

    @pytest.mark.parametrize("name", sorted(MODULES))
    def test_module_size(self, name: str) -> None:
        """No module over MAX_LINES lines."""
        lines = MODULES[name].read_text().count("\n")
        assert lines <= MAX_LINES, f"{name} has {lines} lines"
