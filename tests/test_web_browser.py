"""``canasta serve`` in a real browser: Debian's headless Chromium driven by Playwright.

Playwright's own browser download is never used: the tests launch the
``chromium`` on the PATH. Without it they skip locally and fail in CI (``CI``
set), where ``.ci/run`` installs it. Each test starts the server in a process of
its own, so a restart is a real one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from extras import need
from web_server import free_port, start_server, stop

need("starlette")
need("jinja2")
sync_api = need("playwright.sync_api")

# a headless browser per test: the long run's (tests/conftest.py), as CI runs it
pytestmark = pytest.mark.long

WINDOWS = ((1280, 900), (375, 812))

# The page's width against the window's, and the elements that stick out of it
# without a box that scrolls around them (as docs/check_pages.py measures the docs).
OVERFLOW = """() => {
  const d = document.documentElement, w = d.clientWidth, out = [];
  const scrolls = (e) => {
    for (let p = e.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  };
  document.querySelectorAll("body *").forEach((e) => {
    const r = e.getBoundingClientRect();
    if (r.width && r.right > w + 1 && !scrolls(e)) out.push(e.tagName + "." + e.className + " " + Math.round(r.right));
  });
  return {scroll: d.scrollWidth, client: w, out: out.slice(0, 5)};
}"""


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        why = "chromium is not installed (Debian: apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {why}: the browser tests must run in CI")
        pytest.skip(why)
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


class Server:
    """A server process on a free port, with a data folder, restartable."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = start_server(data, self.port)

    def restart(self) -> None:
        """Kill the process (SIGKILL) and start a new one on the same port and data."""
        stop(self.proc)
        self.proc = start_server(self.data, self.port)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "data")
    yield s
    stop(s.proc)


def _fits(page: Any) -> None:
    found = page.evaluate(OVERFLOW)
    assert found["scroll"] <= found["client"] and not found["out"], found


def _play_until(page: Any, done: str, clicks: int = 600) -> int:
    """Click the first legal move until ``done`` (a selector) shows; return the clicks."""
    for n in range(clicks):
        if page.locator(done).count():
            return n
        version = page.get_attribute("#board", "data-version")
        page.locator("button.move").first.click()
        page.wait_for_function(f"document.getElementById('board').dataset.version !== '{version}'")
    raise AssertionError(f"{done} not shown after {clicks} clicks")


def _open_table(browser: Any, server: Server, people: int = 1) -> tuple[Any, list[str]]:
    """Open a classic-2p table from the page; return that page and the people's seat links."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + "/table/new")
    page.select_option("#variant", "classic-2p")
    if people == 2:
        page.select_option("select[data-seat='1']", "person")
    page.click("#open")
    links = page.locator(".seat-link")
    links.nth(people - 1).wait_for()
    return page, [links.nth(i).get_attribute("href") for i in range(people)]


class TestStudio:
    """Writing a profile."""

    def test_error_marked_on_its_line_then_the_book(self, browser: Any, server: Server) -> None:
        """An error shows on its line and goes when fixed; the book then shows the new title."""
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.base + "/studio")
        page.wait_for_selector("#summary:has-text('loads')")
        page.fill("#profile", "extends: classic\nname: house\ntitle: Family rules\ndeal:\n  hand_size: 0\n")
        bad = page.wait_for_selector("#line-5.bad")
        assert "hand_size" in (bad.get_attribute("title") or "")
        assert "line 5, column 14" in page.inner_text("#problems")
        page.fill("#profile", "extends: classic\nname: house\ntitle: Family rules\ndeal:\n  hand_size: 13\n")
        page.wait_for_selector("#summary:has-text('Family rules: loads')")
        assert page.locator(".gutter .bad").count() == 0
        book = page.frame_locator("#preview")
        book.locator("h1:has-text('Family rules')").wait_for()
        assert book.locator(".cf").count() > 0, "the book shows card faces"
        page.click("[data-tab=diff]")
        book.locator("li:has-text('thirteen cards')").first.wait_for()
        page.click("#save")
        page.wait_for_selector("#saved:has-text('house.yaml')")
        assert (server.data / "profiles" / "house.yaml").read_text().endswith("hand_size: 13\n")
        page.close()

    def test_start_from_a_file_or_a_saved_profile(self, browser: Any, server: Server, tmp_path: Path) -> None:
        """An uploaded file fills the editor and is checked; a saved profile is offered on the next visit."""
        upload = tmp_path / "ours.yaml"
        upload.write_text("extends: samba\nname: ours\ntitle: Samba our way\n")
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.base + "/studio")
        page.set_input_files("#upload", str(upload))
        page.wait_for_selector("#summary:has-text('Samba our way: loads')")
        page.fill("#save-name", "ours")
        page.click("#save")
        page.wait_for_selector("#saved:has-text('ours.yaml')")
        page.goto(server.base + "/studio")
        page.select_option("#start", "saved:ours")
        page.click("#load")
        page.wait_for_function("document.getElementById('profile').value.includes('Samba our way')")
        page.close()


class TestExperiment:
    """Measuring a change."""

    def test_small_experiment(self, browser: Any, server: Server) -> None:
        """Two games each: the progress bar fills and the table shows both variants (on a phone)."""
        page = browser.new_page(viewport={"width": 375, "height": 812})
        page.goto(server.base + "/experiment")
        page.fill("#profile", "extends: classic-2p\nname: one-draw\ndraw:\n  count: 1\n")
        page.fill("#games", "2")
        page.click("#run")
        page.wait_for_selector("#result:not([hidden])", timeout=240_000)
        heads = page.locator("#measures th").all_inner_texts()
        assert heads[:3] == ["measure", "classic-2p", "one-draw"]
        assert page.locator("#measures tbody tr").count() > 5
        page.click("details summary")
        table = page.inner_text("#table")
        assert "classic-2p vs one-draw" in table and "2 games each" in table
        assert page.get_attribute("#progress", "value") == "2"
        assert page.locator("#plots img").count() > 0 or "matplotlib" in page.inner_text("#plots")
        _fits(page)
        page.screenshot(path=str(server.data / "experiment.png"), full_page=True)
        page.close()


class TestTable:
    """Playing in the browser."""

    def test_a_hand_to_its_end_and_a_restart(self, browser: Any, server: Server) -> None:
        """Open a table, play by clicking, restart the server mid-hand, find the table where
        it was, play the hand to its end: the score sheet and the record are there."""
        page, _ = _open_table(browser, server)
        page.click(".seat-link")
        page.wait_for_selector("#board")
        for _ in range(6):
            version = page.get_attribute("#board", "data-version")
            page.locator("button.move").first.click()
            page.wait_for_function(f"document.getElementById('board').dataset.version !== '{version}'")
        before = page.inner_text("#board")
        version = page.get_attribute("#board", "data-version")
        server.restart()
        page.reload()
        page.wait_for_selector("#board")
        assert page.get_attribute("#board", "data-version") == version
        assert page.inner_text("#board") == before
        # a refusal in the rule's words
        page.fill("#move-text", "discard JK JK JK")
        page.click("#notation button")
        page.wait_for_selector("#refusal:not(:empty)")
        _play_until(page, "#score-sheet")
        assert "hand total" in page.inner_text("#score-sheet")
        assert page.locator("#over").count() == 1
        with page.expect_download() as info:
            page.click("#record")
        assert "# canasta game record" in Path(info.value.path()).read_text()
        page.close()

    def test_two_people_see_each_others_moves_live(self, browser: Any, server: Server) -> None:
        """Two seats in two pages: a move in one appears in the other without a reload."""
        page, hrefs = _open_table(browser, server, people=2)
        pages = [browser.new_page(viewport={"width": 375, "height": 812}) for _ in hrefs]
        for p, href in zip(pages, hrefs, strict=True):
            p.goto(server.base + href)
            p.wait_for_selector("#board")
        mover = next(p for p in pages if p.locator("#your-turn").count())
        watcher = next(p for p in pages if p is not mover)
        version = watcher.get_attribute("#board", "data-version")
        mover.locator("button.move").first.click()
        watcher.wait_for_function(f"document.getElementById('board').dataset.version !== '{version}'")
        assert "draw" in watcher.inner_text(".log-list") or "take" in watcher.inner_text(".log-list")
        for p in (page, *pages):
            p.close()


class TestLayout:
    """Every page is usable on a phone and a desktop."""

    @pytest.mark.parametrize("width,height", WINDOWS)
    def test_no_horizontal_overflow(self, browser: Any, server: Server, width: int, height: int) -> None:
        """No page is wider than the window, the table mid-game and at a hand's end included."""
        page = browser.new_page(viewport={"width": width, "height": height})
        for path in ("/", "/studio", "/experiment", "/table/new"):
            page.goto(server.base + path)
            page.wait_for_load_state("networkidle")
            _fits(page)
        page.goto(server.base + "/table/new")
        page.click("#open")
        page.click(".seat-link")
        page.wait_for_selector("#board")
        if width == 375:  # the score sheet is the widest part of a table
            _play_until(page, "#score-sheet", 2000)
        _fits(page)
        page.close()
