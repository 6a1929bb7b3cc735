"""Tests of what ships around the code: README examples, metadata, bundled files."""

from __future__ import annotations

import ast
import doctest
import importlib
import re
import subprocess
import sys
from importlib.metadata import entry_points, version
from pathlib import Path

import pytest

import canasta
from canasta import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def code_blocks(markdown: str, language: str) -> list[str]:
    """Return the fenced code blocks of ``language`` in ``markdown``."""
    return re.findall(rf"^```{language}\n(.*?)^```$", markdown, flags=re.M | re.S)


class TestReadme:
    """README.md: its examples run and its commands match CI."""

    def test_python_example_runs(self) -> None:
        """Every interactive example in the README gives the output shown."""
        blocks = code_blocks(README, "pycon")
        assert blocks, "README.md has no pycon example"
        parser = doctest.DocTestParser()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        for i, block in enumerate(blocks):
            test = parser.get_doctest(block, {}, f"README.md[{i}]", "README.md", 0)
            runner.run(test)
        result = runner.summarize(verbose=False)
        assert result.attempted > 5
        assert result.failed == 0

    def test_house_profile_loads(self, tmp_path: Path) -> None:
        """The house profile shown in the README loads and overrides classic."""
        (block,) = code_blocks(README, "yaml")
        path = tmp_path / "house.yaml"
        path.write_text(block, encoding="utf-8")
        v = canasta.load_variant(str(path))
        classic = canasta.load_variant("classic")
        assert v.name == "house"
        assert v.going_out.canastas == 2
        assert v.game.target == 7500
        assert v.deal == classic.deal

    def test_setup_is_three_commands(self) -> None:
        """The Set-up section gives a venv, then exactly: install, run, test."""
        setup = README.split("## Set-up", 1)[1].split("\n## ", 1)[0]
        venv, commands = code_blocks(setup, "sh")
        assert venv.splitlines() == ["python3 -m venv .venv", ". .venv/bin/activate"]
        assert commands.splitlines() == [
            "python -m pip install -e '.[dev]'",
            "canasta simulate classic --games 100",
            "python -m pytest",
        ]

    def test_bundled_table_lists_every_profile(self) -> None:
        """The README's table of bundled profiles names exactly canasta.variant_names()."""
        section = README.split("## Bundled profiles", 1)[1].split("\n## ", 1)[0]
        named = re.findall(r"^\| `([a-z0-9-]+)`", section, flags=re.M)
        assert named == canasta.variant_names()

    def test_no_profile_count_to_go_stale(self) -> None:
        """The README gives no number of bundled profiles in words (the table is the count)."""
        words = ["eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen"]
        found = re.findall(r"\b(\w+|\d+) (?:bundled )?profiles are bundled|\b(\w+) bundled profiles",
                           README, flags=re.I)
        assert not [w for pair in found for w in pair if w.lower() in words or w.isdigit()]

    def test_ci_runs_the_readme_commands(self) -> None:
        """.ci/run installs and tests with the README's commands."""
        script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
        assert "INSTALL_CMD=\"python -m pip install -e '.[dev]'\"" in script
        assert 'TEST_CMD="python -m pytest"' in script

    def test_documented_commands_exist(self) -> None:
        """Every `canasta NAME` in the command-line section is a registered subcommand."""
        section = README.split("## Command line", 1)[1].split("\n## ", 1)[0]
        named = set(re.findall(r"^canasta ([a-z][a-z-]*)", section, flags=re.M))
        assert named
        assert named <= set(cli.COMMANDS)


class TestMetadata:
    """pyproject.toml, the version and the changelog."""

    def test_version_matches_metadata(self) -> None:
        """canasta.__version__ is the installed distribution's version."""
        assert canasta.__version__ == version("canasta")

    def test_console_script(self) -> None:
        """The `canasta` script runs canasta.cli.main."""
        (script,) = entry_points(group="console_scripts", name="canasta")
        assert script.load() is cli.main

    def test_changelog_has_unreleased(self) -> None:
        """CHANGELOG.md keeps an Unreleased section at the top."""
        text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
        headings = re.findall(r"^## \[(.+?)\]", text, flags=re.M)
        assert headings[0] == "Unreleased"

    def test_python_requirement_matches_tools(self) -> None:
        """ruff and mypy check for the oldest Python the package supports."""
        tomllib = pytest.importorskip("tomllib")  # standard library from Python 3.11
        meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        assert meta["project"]["requires-python"] == ">=3.10"
        assert meta["tool"]["ruff"]["target-version"] == "py310"
        assert meta["tool"]["mypy"]["python_version"] == "3.10"


class TestPackage:
    """The public namespace and the files shipped inside the package."""

    def test_all_is_sorted_and_complete(self) -> None:
        """__all__ is sorted and every name in it exists."""
        assert list(canasta.__all__) == sorted(canasta.__all__)
        for name in canasta.__all__:
            assert hasattr(canasta, name), name

    @pytest.mark.parametrize(
        "name", ["load_variant", "variant_names", "parse_cards", "Card", "Variant"]
    )
    def test_contract_names_exported(self, name: str) -> None:
        """The names the README uses are in __all__."""
        assert name in canasta.__all__

    def test_public_names_documented(self) -> None:
        """Every public name has an entry in the API reference (docs/api.rst)."""
        api = (ROOT / "docs" / "api.rst").read_text(encoding="utf-8")
        documented = set(re.findall(r"^\.\. auto\w+:: (\w+)", api, flags=re.M))
        missing = sorted(set(canasta.__all__) - {"__version__"} - documented)
        assert not missing, f"add these public names to docs/api.rst: {missing}"

    def test_lazy_names_are_the_typed_imports(self) -> None:
        """The names ``canasta`` imports on first use, and from where, are those its
        ``if TYPE_CHECKING:`` block imports for type checkers, and with ``__version__``
        exactly ``__all__``."""
        tree = ast.parse(Path(canasta.__file__).read_text(encoding="utf-8"))
        typed: dict[str, str] = {}
        lazy: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                typed = {a.name: n.module or "" for n in node.body if isinstance(n, ast.ImportFrom) for a in n.names}
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "_WHERE":
                lazy = ast.literal_eval(node.value) if node.value is not None else {}
        assert len(typed) > 40
        assert lazy == typed
        assert set(lazy) | {"__version__"} == set(canasta.__all__)

    @pytest.mark.parametrize("name", sorted(set(canasta.__all__) - {"__version__"}))
    def test_name_is_its_modules(self, name: str) -> None:
        """``canasta.NAME`` is the object its module defines (the one pickles and ``isinstance`` see)."""
        module = importlib.import_module(canasta._WHERE[name])
        assert getattr(canasta, name) is getattr(module, name)

    def test_import_is_light(self) -> None:
        """``import canasta`` imports none of its modules, nor ``canasta --help`` the engine;
        the names, ``from canasta import``, the subpackages and ``dir()`` work as before."""
        script = """
import sys
import canasta
assert not [m for m in sys.modules if m.startswith("canasta.")], sorted(sys.modules)
from canasta import Card, simulate
assert "canasta.play.simulate" in sys.modules and simulate.__module__ == "canasta.play.simulate"
assert canasta.engine.new_game is canasta.new_game and Card is canasta.cards.Card
assert {"simulate", "Variant", "__version__"} <= set(dir(canasta))
try:
    canasta.no_such_name
except AttributeError as exc:
    assert "no attribute 'no_such_name'" in str(exc), exc
else:
    raise AssertionError("canasta.no_such_name did not fail")
print(sorted(m for m in sys.modules if m.startswith("canasta.engine")))
"""
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        # simulate imports the engine; the check above must have seen it, so it can see its absence
        assert "canasta.engine.game" in done.stdout
        light = subprocess.run(
            [sys.executable, "-c", "import sys\nfrom canasta.cli import main\ntry:\n    main(['--help'])\n"
             "except SystemExit:\n    pass\nsys.stderr.write(repr([m for m in sys.modules if 'engine' in m]))"],
            capture_output=True, text=True, check=True)
        assert light.stdout.startswith("usage: canasta")
        assert light.stderr == "[]"

    def test_py_typed(self) -> None:
        """The package ships the py.typed marker."""
        assert (Path(canasta.__file__).parent / "py.typed").is_file()

    def test_variant_files_are_the_bundled_names(self) -> None:
        """Each file in variants/ is a bundled profile, and each bundled profile a file."""
        files = sorted(p.stem for p in (ROOT / "variants").glob("*.yaml"))
        assert canasta.variant_names() == files
