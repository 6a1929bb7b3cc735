"""The package's shape: imports point one way, no private names cross modules, modules stay small.

These tests read the source (with :mod:`ast`), so they judge every import the
code can run, module-level or inside a function, and, for circles, the imports
under ``if TYPE_CHECKING:`` too: a circle of type names is a circle of ideas,
even when it never runs.
"""

from __future__ import annotations

import ast
import functools
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest

from canasta.engine.fastpaths import FLAGS
from canasta.variant.model import AREAS

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
    "observation_fields": {"errors", "limits", "cards", "variant", "engine"},
    "observe": {"errors", "limits", "cards", "variant", "engine", "io", "observation_fields"},
    "adapters": {"errors", "limits", "cards", "faces", "variant", "engine", "rulebook", "check", "io", "play", "observe",
                 "observation_fields", "__init__"},
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

    def test_lazy_package_names_keep_the_layers(self) -> None:
        """``canasta`` imports its public names on first use, from the modules its
        ``if TYPE_CHECKING:`` block names: those too come only from the parts below it."""
        lazy = imports_of("canasta", types=True)
        assert len(lazy) > 10 and not imports_of("canasta")
        wrong = sorted({t for t, _, _ in lazy if _part(t) not in LAYERS["__init__"]})
        assert not wrong, f"canasta may import only {sorted(LAYERS['__init__'])}; it imports {wrong}"


class TestSize:
    """Modules short enough to read."""

    @pytest.mark.parametrize("name", sorted(MODULES))
    def test_module_size(self, name: str) -> None:
        """No module over MAX_LINES lines."""
        lines = MODULES[name].read_text().count("\n")
        assert lines <= MAX_LINES, f"{name} has {lines} lines"


# --- Functions short and simple enough to read ---------------------------------------------

MAX_COMPLEXITY = 20
MAX_FUNCTION_LINES = 80

#: Functions allowed over MAX_COMPLEXITY or MAX_FUNCTION_LINES for now, each with the reason.
#: These are left to do, not accepted: each names the work it waits for. An entry whose
#: function has come within the limits fails ``test_every_exemption_is_still_needed``.
EXEMPT: dict[str, str] = {
}


#: ``try`` statements: ``except*`` (``ast.TryStar``) is new in Python 3.11.
_TRY: tuple[type[ast.stmt], ...] = (ast.Try, *([ast.TryStar] if hasattr(ast, "TryStar") else []))


def _block_complexity(body: list[ast.stmt]) -> int:
    return sum(_statement_complexity(s) for s in body)


def _statement_complexity(node: ast.stmt) -> int:
    """The decision points in one statement, counted as McCabe (and ruff's C901) count them.

    A branch, a loop, an ``except`` and a ``case`` each add one, as does a ``try``'s ``else``
    and a nested function; boolean operators and comprehensions add nothing.
    """
    if isinstance(node, ast.If):  # an ``elif`` is an ``If`` in ``orelse``
        return 1 + _block_complexity(node.body) + _block_complexity(node.orelse)
    if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
        return 1 + _block_complexity(node.body) + _block_complexity(node.orelse)
    if isinstance(node, (ast.With, ast.AsyncWith, ast.ClassDef)):
        return _block_complexity(node.body)
    if isinstance(node, _TRY):
        tried = cast("ast.Try", node)  # a TryStar has the same fields
        handlers = sum(1 + _block_complexity(h.body) for h in tried.handlers)
        return (_block_complexity(tried.body) + (1 if tried.orelse else 0) + _block_complexity(tried.orelse)
                + _block_complexity(tried.finalbody) + handlers)
    if isinstance(node, ast.Match):
        return sum(1 + _block_complexity(case.body) for case in node.cases)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return 1 + _block_complexity(node.body)
    return 0


def complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """McCabe's cyclomatic complexity of a function: one plus its decision points."""
    return 1 + _block_complexity(function.body)


def functions(tree: ast.AST, prefix: str) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """``(qualified name, node)`` for every function and method in ``tree``, nested ones too."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{prefix}.{node.name}", node
            yield from functions(node, f"{prefix}.{node.name}")
        elif isinstance(node, ast.ClassDef):
            yield from functions(node, f"{prefix}.{node.name}")
        else:
            yield from functions(node, prefix)


@functools.cache
def measures() -> dict[str, tuple[int, int, str]]:
    """``qualified name -> (complexity, lines, file:line)`` for every function in the package."""
    out: dict[str, tuple[int, int, str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        for qualified, node in functions(tree, name):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            where = f"{path.relative_to(SRC.parent)}:{node.lineno}"
            out[qualified] = (complexity(node), lines, where)
    return out


def too_big(measured: dict[str, tuple[int, int, str]]) -> dict[str, str]:
    """Each function over a limit, with what it measures."""
    out: dict[str, str] = {}
    for name, (cc, lines, where) in measured.items():
        over = ([f"complexity {cc} > {MAX_COMPLEXITY}"] if cc > MAX_COMPLEXITY else []) + (
            [f"{lines} lines > {MAX_FUNCTION_LINES}"] if lines > MAX_FUNCTION_LINES else [])
        if over:
            out[name] = f"{where} {name}: {', '.join(over)}"
    return out


class TestFunctions:
    """Functions short and simple enough to read: the rule split into steps a reader can name."""

    def test_no_function_over_the_limits(self) -> None:
        """No function above MAX_COMPLEXITY or over MAX_FUNCTION_LINES lines, but those in EXEMPT."""
        bad = [text for name, text in too_big(measures()).items() if name not in EXEMPT]
        assert not bad, ("split these into named steps:\n" + "\n".join(bad))

    def test_every_exemption_is_still_needed(self) -> None:
        """An exempt function exists and is still over a limit (else its entry goes)."""
        big = too_big(measures())
        stale = sorted(name for name in EXEMPT if name not in big)
        assert not stale, ("within the limits now (or gone): remove from EXEMPT in "
                           "tests/test_architecture.py:\n" + "\n".join(stale))

    def test_every_exemption_says_why(self) -> None:
        """Each exemption names the work it waits for."""
        assert all(reason.startswith("to split ") for reason in EXEMPT.values())

    @pytest.mark.parametrize(("source", "expected"), [
        ("def f():\n    return 1\n", 1),
        ("def f(a, b):\n    if a and b:\n        return 1\n    elif b:\n        return 2\n    else:\n"
         "        return 3\n", 3),
        ("def f(xs):\n    for x in xs:\n        while x:\n            x -= 1\n    else:\n"
         "        pass\n    return [y for y in xs if y]\n", 3),
        ("def f():\n    try:\n        g()\n    except ValueError:\n        pass\n"
         "    except KeyError:\n        pass\n    else:\n        h()\n    finally:\n        k()\n", 4),
        ("def f(x):\n    match x:\n        case 1:\n            pass\n        case _:\n"
         "            pass\n", 3),
        ("def f():\n    def g(x):\n        if x:\n            return 1\n        return 2\n"
         "    with open('p') as h:\n        if h:\n            pass\n    return g\n", 4),
    ])
    def test_complexity_counts_decisions(self, source: str, expected: int) -> None:
        """Branches, loops, handlers, cases and nested functions count; ``and`` and comprehensions do not."""
        node = ast.parse(source).body[0]
        assert isinstance(node, ast.FunctionDef)
        assert complexity(node) == expected

    def test_complexity_agrees_with_ruff(self) -> None:
        """The walk's numbers are ruff's C901 numbers for every function in the package."""
        ruff = shutil.which("ruff")
        if ruff is None:
            pytest.skip("ruff is not installed (the dev extra)")
        found = subprocess.run(
            [ruff, "check", "--isolated", "--select", "C901", "--config", "lint.mccabe.max-complexity=0",
             "--output-format", "concise", "--no-cache", str(PACKAGE)],
            capture_output=True, text=True, check=False).stdout
        theirs: dict[tuple[str, str], int] = {}
        for line in found.splitlines():
            hit = re.match(r"(.+?):(\d+):\d+: C901 `(.+)` is too complex \((\d+) > 0\)", line)
            if hit:
                path = Path(hit[1]).resolve().relative_to(SRC.parent)
                theirs[(f"{path}:{hit[2]}", hit[3])] = int(hit[4])
        mine = {(where, name.rsplit(".", 1)[1]): cc for name, (cc, _, where) in measures().items()}
        assert len(theirs) > 1000
        assert mine == theirs


# --- Options read through their meanings ------------------------------------------------

#: The rule areas of a variant, as attributes of it (``v.melds``, ``s.variant.pile`` ...).
OPTION_AREAS = frozenset(name for name, _ in AREAS)

#: Names that hold a variant in the engine: ``v``, ``variant``, and ``<x>.v`` / ``<x>.variant``
#: (``r.v``, ``c.v``, ``s.variant``).
_VARIANT_NAMES = ("v", "variant")


#: Engine modules that still read raw options, each with the reason and the options it reads
#: (``area.field``, or ``area`` where it names the whole area, then reads fields of it). Every
#: other engine module reads what an option means from ``Rules`` or ``Rules.meanings``
#: (``canasta.variant.meanings``); ``engine/tables.py`` is where options are read.
RAW_OPTION_READS: dict[str, tuple[str, frozenset[str]]] = {
    "canasta.engine.meld_kinds": (
        "a kind of meld reads the points of its canasta (canastas in MeldKind.bonus, "
        "sequences.bonus) and words messages by the names the rules give (sequences.name, the "
        "window's ends in _window_text)",
        frozenset({"canastas", "sequences", "sequences.bonus", "sequences.name"}),
    ),
    "canasta.engine.scoring": (
        "scores a table by the points the options give (values, not readings of play), for "
        "score_hand, whose public signature takes the Variant",
        frozenset({"scoring", "sequences", "threes"}),
    ),
    "canasta.engine.refusals": (
        "a refusal names the options that clash and reads their values as set (canastas asked "
        "for, points, sizes) to decide and word it, as the checker reports it",
        frozenset({"canastas.mixed_bonus", "canastas.natural_bonus", "canastas.rank_bonuses",
                   "canastas.wild_bonus", "deal", "going_out", "going_out.sequence_canastas",
                   "going_out.wild_canastas", "melds", "opening", "opening.by", "players.count",
                   "scoring.concealed_bonus", "scoring.going_out_bonus", "scoring.meld_points", "sequences",
                   "sequences.bonus", "threes.black_meld", "threes.black_meld_wilds", "threes.black_out_bonus",
                   "threes.red_all_bonus", "threes.red_bonus", "threes.red_laid_at_once"}),
    ),
    "canasta.engine.melds": (
        "words a message: the name the rules give a sequence (req_text)",
        frozenset({"sequences.name"}),
    ),
}


def _names_variant(node: ast.expr) -> bool:
    """Whether ``node`` is a variant by its name: ``v``, ``variant``, ``<x>.v``, ``<x>.variant``."""
    if isinstance(node, ast.Name):
        return node.id in _VARIANT_NAMES
    return isinstance(node, ast.Attribute) and node.attr in _VARIANT_NAMES


def raw_option_reads(source: str) -> dict[str, list[int]]:
    """The options ``source`` reads off a variant: ``area.field`` (or ``area``, where it takes the
    whole area, as ``m = v.melds``) -> the lines that read it."""
    tree = ast.parse(source)
    parent = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    reads: dict[str, list[int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in OPTION_AREAS and _names_variant(node.value):
            up = parent.get(node)
            field = up.attr if isinstance(up, ast.Attribute) and up.value is node else ""
            reads.setdefault(f"{node.attr}.{field}" if field else node.attr, []).append(node.lineno)
    return reads


ENGINE_MODULES = sorted(n for n in MODULES if n.startswith("canasta.engine.") and n != "canasta.engine.tables")


class TestOptionMeanings:
    """The engine reads what an option means, worked out once (Rules, Meanings), not the raw option."""

    @pytest.mark.parametrize("name", ENGINE_MODULES)
    def test_no_raw_option_read(self, name: str) -> None:
        """No engine module but engine/tables.py reads a raw option, but those in RAW_OPTION_READS."""
        allowed = RAW_OPTION_READS.get(name, ("", frozenset()))[1]
        reads = raw_option_reads(MODULES[name].read_text())
        bad = sorted(f"{MODULES[name].relative_to(SRC.parent)}:{line}: {path}"
                     for path, lines in reads.items() if path not in allowed for line in lines)
        assert not bad, ("read the meaning from Rules or Rules.meanings (canasta.variant.meanings) "
                         "instead of the raw option:\n" + "\n".join(bad))

    def test_every_allowed_read_is_still_made(self) -> None:
        """Each allowed read is still made (else its entry goes), and each entry says why."""
        stale = sorted(f"{name}: {path}" for name, (_, paths) in RAW_OPTION_READS.items()
                       for path in paths - set(raw_option_reads(MODULES[name].read_text())))
        assert not stale, "no longer read: remove from RAW_OPTION_READS:\n" + "\n".join(stale)
        assert all(len(reason) > 20 for reason, _ in RAW_OPTION_READS.values())

    def test_the_walk_finds_reads(self) -> None:
        """The walk sees chains, aliases and names it must not take for a variant."""
        reads = raw_option_reads(
            "def f(s, r, v, x):\n"
            "    a = s.variant.pile.take_top\n"
            "    b = r.v.melds.min_size + v.deal.hand_size\n"
            "    m = v.melds\n"
            "    return x.pile.take_top, s.rules.meanings.hand_size, a, b, m\n")
        assert reads == {"pile.take_top": [2], "melds.min_size": [3], "deal.hand_size": [3], "melds": [4]}
        assert "draw.count" in raw_option_reads(MODULES["canasta.engine.tables"].read_text())


# --- The architecture page maps what is here -----------------------------------------------

PAGE = SRC.parent / "docs" / "architecture.rst"
ENGINE = "canasta.engine"


def page_path(name: str) -> str:
    """How docs/architecture.rst names a module: its path in the package (``engine/quick.py``),
    a subpackage by its folder (``engine/``)."""
    rel = MODULES[name].relative_to(PACKAGE)
    if rel.name == "__init__.py" and rel.parent != Path():
        return f"{rel.parent.as_posix()}/"
    return rel.as_posix()


def engine_order(text: str) -> list[str]:
    """The engine's modules in the order the page's section "The engine" first names them
    (before its list of what each decides): the order of its layers."""
    section = text[text.index("\nThe engine\n---"):text.index("What each module decides")]
    order: list[str] = []
    for path in re.findall(r"``engine/(\w+)\.py``", section):
        name = f"{ENGINE}.{path}"
        if name in MODULES and name not in order and path != "__init__":
            order.append(name)
    return order


def _names_fast(node: ast.expr) -> bool:
    """Whether ``node`` is a flag set: ``<tables>.fast`` or a name ``fast`` bound to one."""
    return (isinstance(node, ast.Attribute) and node.attr == "fast") or (isinstance(node, ast.Name) and node.id == "fast")


def fast_path_readers() -> list[str]:
    """The engine's functions that read a fast-path flag (``rules.fast.<flag>``, a method by its
    class's name): where a shortcut is gated."""
    flags = set(FLAGS)
    out = []
    for name, path in MODULES.items():
        if not name.startswith(f"{ENGINE}.") or name == f"{ENGINE}.fastpaths":
            continue
        for qualified, node in functions(ast.parse(path.read_text(), str(path)), name):
            if any(isinstance(n, ast.Attribute) and n.attr in flags and _names_fast(n.value) for n in ast.walk(node)):
                last = qualified.rsplit(".", 2)
                out.append(last[1] if last[2].startswith("__") else last[2])
    return sorted(set(out))


def plain_rules_modules() -> list[str]:
    """The modules of the package that read the process switch ``PLAIN_RULES``."""
    return sorted(
        name for name, path in MODULES.items()
        if any(isinstance(n, ast.Name) and n.id == "PLAIN_RULES" for n in ast.walk(ast.parse(path.read_text())))
    )


class TestArchitecturePage:
    """docs/architecture.rst names every module, every fast-path gate and the engine's real layers."""

    def test_every_module_is_named(self) -> None:
        """Each module is named on the page by its path in the package (``engine/quick.py``, ``cli.py``, ``io/``)."""
        text = PAGE.read_text(encoding="utf-8")
        missing = [page_path(name) for name in MODULES if f"``{page_path(name)}``" not in text]
        assert not missing, "name these modules in docs/architecture.rst: " + ", ".join(missing)

    def test_every_named_module_exists(self) -> None:
        """Each path of a subpackage's module on the page is a module (a removed one leaves the page)."""
        text = PAGE.read_text(encoding="utf-8")
        folders = "|".join(sorted({p.split("/")[0] for p in map(page_path, MODULES) if "/" in p}))
        named = set(re.findall(rf"``((?:{folders})/[\w/]*\.py)``", text))
        assert "engine/quick.py" in named
        files = {path.relative_to(PACKAGE).as_posix() for path in MODULES.values()}
        assert sorted(named - files) == []

    def test_the_page_path(self) -> None:
        """Modules, subpackages and top-level modules are named as the page names them."""
        assert page_path("canasta.engine.quick") == "engine/quick.py"
        assert page_path("canasta.engine") == "engine/"
        assert page_path("canasta.observation_fields") == "observation_fields.py"
        assert page_path("canasta") == "__init__.py"

    def test_engine_layers(self) -> None:
        """The engine's layers, as the page lists them, hold every engine module, and each
        imports (type annotations too) only modules listed before it."""
        order = engine_order(PAGE.read_text(encoding="utf-8"))
        engine = sorted(n for n in MODULES if n.startswith(f"{ENGINE}."))
        assert sorted(order) == engine, "list every engine module in the layers of 'The engine'"
        wrong = [f"{name} imports {target}, listed after it" for i, name in enumerate(order)
                 for target in TYPE_GRAPH[name] if target in order[i + 1:]]
        assert not wrong, "\n".join(wrong)

    def test_every_fast_path_gate_is_named(self) -> None:
        """Each function that reads a fast-path flag (where a shortcut is gated) is named on the page."""
        readers = fast_path_readers()
        assert {"legal_moves", "Ctx", "can_go_out", "sequence_outcomes", "quick_play"} <= set(readers)
        text = PAGE.read_text(encoding="utf-8")
        missing = [r for r in readers if f"``{r}``" not in text]
        assert not missing, "name these gates in the fast-path table of docs/architecture.rst: " + ", ".join(missing)

    def test_every_fast_path_flag_is_named_and_read(self) -> None:
        """Each flag of the flag set is named on the page and read by the engine (a flag no
        gate reads would be a shortcut the plain path cannot turn off, or none at all)."""
        text = PAGE.read_text(encoding="utf-8")
        missing = [f for f in FLAGS if f"``{f}``" not in text]
        assert not missing, "name these flags in the fast-path table of docs/architecture.rst: " + ", ".join(missing)
        engine = "\n".join(path.read_text() for name, path in MODULES.items()
                            if name.startswith(f"{ENGINE}.") and name != f"{ENGINE}.fastpaths")
        unread = [f for f in FLAGS if f".fast.{f}" not in engine and f"fast.{f}" not in engine]
        assert not unread, unread

    def test_the_flags_are_those_the_flag_set_sets(self) -> None:
        """``FLAGS`` names each attribute ``FastPaths.__init__`` sets, once, in order."""
        tree = ast.parse(MODULES[f"{ENGINE}.fastpaths"].read_text())
        (init,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "__init__"]
        set_here = [t.attr for n in ast.walk(init) if isinstance(n, ast.AnnAssign)
                    for t in [n.target] if isinstance(t, ast.Attribute)]
        assert sorted(set_here) == list(FLAGS)

    def test_the_switch_is_read_in_one_place(self) -> None:
        """Only the flag set reads ``PLAIN_RULES``; every other module reads the variant's flags."""
        assert plain_rules_modules() == [f"{ENGINE}.fastpaths"]
