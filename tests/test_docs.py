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
