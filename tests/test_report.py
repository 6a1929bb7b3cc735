"""Tests of canasta.play.report: the plots and the HTML page of an experiment (canasta[plot])."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import pytest

from canasta.cli import main
from canasta.errors import CanastaError
from canasta.play.experiment import Experiment, experiment
from extras import need

_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def png_size(path: Path) -> tuple[int, int]:
    """The width and height of a PNG file; fails on anything that is not a PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR" and data[-8:-4] == b"IEND", f"{path} is cut short"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.fixture(scope="module")
def small() -> Experiment:
    """A small three-variant experiment."""
    return experiment(["classic", "draw-two", "classic"], 6, seed=1, max_hands=2)


class TestWriteReport:
    """write_report(): index.html, every plot, experiment.json."""

    def test_files(self, small: Experiment, tmp_path: Path) -> None:
        """Every image the page refers to exists and is a real PNG of some size."""
        need("matplotlib")
        from canasta.play.report import PLOTS, write_report

        index = write_report(small, tmp_path / "rep")
        page = index.read_text(encoding="utf-8")
        sources = re.findall(r'<img src="([^"]+)"', page)
        assert sorted(sources) == sorted(PLOTS)
        for src in sources:
            width, height = png_size(index.parent / src)
            assert width >= 300 and height >= 200
        assert "classic vs draw-two vs classic: 6 games each" in page
        assert "draw-two &minus; classic [95% CI]" in page
        assert (index.parent / "experiment.json").read_text().startswith("{")

    def test_escapes_names(self, small: Experiment, tmp_path: Path) -> None:
        """A variant name with markup is shown as text, not as HTML."""
        need("matplotlib")
        from canasta.play.report import write_report

        odd = Experiment(**{**small.__dict__, "variants": ("<b>x</b>", "draw-two", "classic")})
        page = write_report(odd, tmp_path).read_text(encoding="utf-8")
        assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page

    def test_not_a_directory(self, small: Experiment, tmp_path: Path) -> None:
        """A file where the directory should be is refused by name."""
        need("matplotlib")
        from canasta.play.report import write_report

        (tmp_path / "f").write_text("")
        with pytest.raises(CanastaError, match="not a directory"):
            write_report(small, tmp_path / "f")

    def test_command(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """canasta experiment --report DIR writes the page and says where."""
        need("matplotlib")
        status = main(["experiment", "classic", "draw-two", "--games", "2", "--max-hands", "1",
                       "--report", str(tmp_path / "r")])
        _, err = capsys.readouterr()
        assert status == 0
        assert f"report: {tmp_path / 'r' / 'index.html'}" in err
        assert png_size(tmp_path / "r" / "win-rate.png")[0] > 0


def _browser() -> str:
    for name in _BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI"):
        pytest.fail("CI is set but chromium is not installed: the report test must run in CI")
    pytest.skip("chromium not installed (Debian: apt-get install chromium)")


class TestReportInBrowser:
    """The page opens in headless Chromium with every plot shown."""

    def test_every_image_loads(self, small: Experiment, tmp_path: Path) -> None:
        """Chromium loads index.html and each <img> has its PNG's natural size."""
        need("matplotlib")
        from canasta.play.report import write_report

        browser = _browser()
        index = write_report(small, tmp_path)
        # A copy of the page, beside it, with a script that writes what the
        # browser loaded into the DOM, which --dump-dom prints.
        probe = tmp_path / "probe.html"
        probe.write_text(index.read_text(encoding="utf-8").replace("</body>", (
            "<script>window.addEventListener('load', () => { document.body.setAttribute("
            "'data-loaded', [...document.images].map(i => i.getAttribute('src') + '=' + "
            "i.naturalWidth + 'x' + i.naturalHeight).join(' ')); });</script></body>")),
            encoding="utf-8")
        with tempfile.TemporaryDirectory() as profile:
            dom = subprocess.run(
                [browser, "--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
                 "--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom",
                 probe.as_uri()],
                check=True, capture_output=True, text=True, timeout=180,
            ).stdout
        loaded = re.search(r'data-loaded="([^"]*)"', dom)
        assert loaded is not None, dom[:500]
        shown = dict(item.split("=") for item in loaded.group(1).split())
        from canasta.play.report import PLOTS

        assert set(shown) == set(PLOTS)
        for src, size in shown.items():
            width, height = png_size(tmp_path / src)
            assert size == f"{width}x{height}", src


class TestDifferences:
    """The difference plot's panels, and numbers with no negative zero."""

    def test_near_zero_baseline_is_left_out_of_the_relative_panel(self) -> None:
        """A count whose baseline is near zero is not plotted in % of it; shares go in points."""
        from canasta.play.report import NEAR_ZERO, split_differences

        e = experiment(["classic", "draw-two"], 6, "greedy", seed=1, max_hands=1)
        points, relative, left_out = split_differences(e)
        assert {m.name for m in points} == {m.name for m in e.measures if m.percent}
        assert sorted(m.name for m in points + relative + left_out) == sorted(
            m.name for m in e.measures)
        for m in relative:
            assert abs(m.values[0].mean) >= NEAR_ZERO * max(abs(v.mean) for v in m.values) > 0
        # classic's first side gains 10 points a hand, draw-two's 568: +5575% would squash the rest
        edge = next(m for m in e.measures if m.name.startswith("first player's side: points"))
        assert edge in left_out and edge.values[0].mean < NEAR_ZERO * edge.values[1].mean

    def test_plot_names_what_it_leaves_out(self, tmp_path: Path) -> None:
        """plot_differences writes a PNG with both panels whatever the split."""
        need("matplotlib")
        from canasta.play.report import plot_differences

        e = experiment(["classic", "draw-two"], 6, "greedy", seed=1, max_hands=1)
        width, height = png_size(plot_differences(e, tmp_path / "d.png"))
        assert width >= 300 and height >= 400

    @pytest.mark.parametrize(
        ("x", "signed", "text"),
        [(-0.001, True, "0.00"), (-0.004, False, "0.00"), (0.0, True, "0.00"),
         (-0.005001, True, "-0.01"), (0.3, True, "+0.30"), (-12.34, True, "-12.3"),
         (-0.04, True, "-0.04"), (-0.4, False, "-0.40"), (-1234.5, True, "-1234")],
    )
    def test_no_negative_zero(self, x: float, signed: bool, text: str) -> None:
        """A value that rounds to zero prints 0.00, with no sign."""
        from canasta.play.experiment import number_text

        assert number_text(x, signed) == text

    def test_table_of_equal_variants_has_no_signed_zero(self) -> None:
        """classic against itself: every difference is 0, printed without a sign."""
        e = experiment(["classic", "classic"], 3, "greedy", seed=2, max_hands=1)
        text = str(e)
        assert "-0.00" not in text and "+0.00" not in text
        assert "0.00 [0.00, 0.00]" in text
