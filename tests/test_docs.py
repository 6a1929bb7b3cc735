"""Tests for the documentation: the tutorial's examples and the generated pages."""

from __future__ import annotations

import doctest
import importlib.util
import io
import sys
from pathlib import Path
from types import ModuleType

import docutils.core
import pytest

import canasta
from canasta.variant.loading import option_paths

DOCS = Path(__file__).resolve().parents[1] / "docs"


def rulebooks() -> ModuleType:
    """The docs extension that generates pages, imported from docs/_ext."""
    spec = importlib.util.spec_from_file_location("rulebooks", DOCS / "_ext" / "rulebooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rulebooks", module)
    spec.loader.exec_module(module)
    return module


class TestTutorial:
    """docs/tutorial.rst plays a hand through the API."""

    def test_examples_run(self) -> None:
        """Every example of the tutorial gives the output it shows."""
        result = doctest.testfile(
            str(DOCS / "tutorial.rst"), module_relative=False, optionflags=doctest.ELLIPSIS
        )
        assert result.attempted > 20
        assert result.failed == 0


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the generated pages."""
    folder = tmp_path_factory.mktemp("docs")
    rulebooks().generate(folder)
    return folder


class TestGeneratedPages:
    """The pages docs/_ext/rulebooks.py writes at build time."""

    def test_a_rule_book_per_profile(self, root: Path) -> None:
        """Each bundled profile has its rule book page, titled by the profile."""
        pages = sorted(p.stem for p in (root / "variants").glob("*.rst"))
        assert pages == canasta.variant_names()
        classic = (root / "variants" / "classic.rst").read_text(encoding="utf-8")
        assert "Classic partnership Canasta\n===========================" in classic

    def test_generated_folders_are_ignored(self, root: Path) -> None:
        """Build products never show up in git status."""
        for folder in ("variants", "_generated"):
            assert (root / folder / ".gitignore").read_text(encoding="utf-8").endswith("*\n")

    def test_options_reference_lists_every_option(self, root: Path) -> None:
        """The options reference names every option with its type and default."""
        text = (root / "_generated" / "options.inc").read_text(encoding="utf-8")
        for path in option_paths():
            if "." in path:
                assert f"``{path}``" in text
        assert "``draw.count``\n     - integer, 1 to 3\n     - ``1``" in text
        assert "one of ``draw_remaining``, ``end_hand``" in text

    def test_command_line_reference_lists_every_command(self, root: Path) -> None:
        """The command-line page shows every subcommand with its --help."""
        from canasta.cli import COMMANDS

        text = (root / "_generated" / "cli.inc").read_text(encoding="utf-8")
        for name in COMMANDS:
            assert f"canasta {name}\n" in text
            assert f"usage: canasta {name} [-h]" in text

    @pytest.mark.parametrize("name", ["comparison.inc", "options.inc", "cli.inc"])
    def test_includes_parse(self, root: Path, name: str) -> None:
        """The included fragments are valid reStructuredText."""
        text = (root / "_generated" / name).read_text(encoding="utf-8")
        stream = io.StringIO()
        docutils.core.publish_doctree(
            text, settings_overrides={"report_level": 2, "warning_stream": stream}
        )
        assert stream.getvalue() == ""

    def test_unchanged_files_are_not_rewritten(self, root: Path) -> None:
        """A second build leaves the files alone, so Sphinx rebuilds nothing."""
        page = root / "variants" / "classic.rst"
        before = page.stat().st_mtime_ns
        rulebooks().generate(root)
        assert page.stat().st_mtime_ns == before


class TestNotationPage:
    """docs/notation.rst: the move notation, every example run."""

    def test_examples_run(self) -> None:
        """Every example of the page gives the output it shows."""
        result = doctest.testfile(
            str(DOCS / "notation.rst"), module_relative=False, optionflags=doctest.ELLIPSIS
        )
        assert result.attempted >= 15
        assert result.failed == 0

    def test_every_move_of_the_table_round_trips(self) -> None:
        """Each notation in the table parses to a move whose str() is that notation, and its repr to it again."""
        text = (DOCS / "notation.rst").read_text(encoding="utf-8")
        table = text.split("The moves\n---------", 1)[1].split("\n\n", 2)[1]
        rows = [line for line in table.splitlines() if line.startswith("``")]
        notations = [row.split("``")[1] for row in rows]
        assert len(notations) >= 20
        verbs = {n.split()[0] for n in notations}
        assert verbs == {"draw", "take", "pass", "meld", "add", "foot", "back", "ask", "yes", "no",
                         "discard", "out", "next", "special", "lay", "combine", "join"}
        for notation in notations:
            move = canasta.parse_move(notation)
            assert str(move) == notation
            assert eval(repr(move), {"parse_move": canasta.parse_move}) == move


class TestModuleIndex:
    """Every module of the package is in the docs' module index."""

    def test_every_module_is_declared(self, root: Path) -> None:
        """Each module is declared by the generated list or by a page (py:module, module, automodule)."""
        ext = rulebooks()
        modules = ext.package_modules()
        assert {"canasta", "canasta.engine.moves", "canasta.variant.loading", "canasta.adapters.pettingzoo"} <= set(modules)
        assert "canasta.__main__" not in modules
        generated = (root / "_generated" / "modules.inc").read_text(encoding="utf-8")
        pages = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.rst"))
        declared = set(ext._DECLARED.findall(generated + "\n" + pages))
        documented = set(ext._OBJECT.findall(pages))
        missing = [m for m in modules if m not in declared and m not in documented]
        assert missing == []
        # Only a module that the package shadows with a function of its name is left out.
        assert [m for m in modules if m not in declared] == ["canasta.rulebook.compare"]

    def test_each_row_says_what_the_module_is(self, root: Path) -> None:
        """The list gives each module the first line of its docstring."""
        generated = (root / "_generated" / "modules.inc").read_text(encoding="utf-8")
        assert ":mod:`canasta.engine.moves`\n   Moves and their notation." in generated
        assert "(no description)" not in generated


class TestHelp:
    """help() on the public classes opens with what they are."""

    def test_variant_help_opens_with_what_it_is(self) -> None:
        """help(canasta.Variant): a short signature, then the first line of the docstring, near the top."""
        import pydoc

        lines = pydoc.render_doc(canasta.Variant, renderer=pydoc.plaintext).splitlines()
        head = [line for line in lines[:8] if line.strip(" |")]
        assert all(len(line) < 120 for line in lines[:30])
        assert any("Variant(**options" in line for line in head)
        assert any("A complete rule set of a Canasta-family game" in line for line in head)


class TestFormatsPage:
    """docs/formats.rst: its game-record example runs."""

    def test_record_example_runs(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """The example plays a game with a bot, writes its record and replays it to the same end."""
        import re

        page = (DOCS / "formats.rst").read_text(encoding="utf-8")
        blocks = re.findall(r"^\.\. code-block:: python\n\n((?:   .*\n|\n)+)", page, flags=re.M)
        (code,) = [b for b in blocks if "GameRecorder(" in b]
        source = "\n".join(line[3:] for line in code.rstrip("\n").splitlines())
        monkeypatch.chdir(tmp_path)
        namespace: dict[str, object] = {}
        exec(compile(source, "formats.rst", "exec"), namespace)
        final = namespace["final"]
        assert isinstance(final, canasta.GameState) and final.is_game_over
        assert (tmp_path / "game.rec").read_text(encoding="utf-8").count("\n") > 100
