"""Check built documentation pages in headless Chromium: no horizontal overflow, desktop and phone.

Usage: ``python docs/check_pages.py BUILD_DIR [SHOTS_DIR]`` after
``sphinx-build -b html docs BUILD_DIR``. For each page of :data:`PAGES` and each
window of :data:`WINDOWS`, Chromium lays the page out and a script measures
whether the page is wider than the window (a table or a row of cards that
does not wrap or scroll inside its own box); a screenshot of each goes to
SHOTS_DIR (default ``BUILD_DIR/_shots``). Exit status 1 names each page that
overflows, with the elements that stick out. CI runs it after the docs build.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The pages checked: the comparison table and a rule book with card pictures.
PAGES = ("variants.html", "variants/hand-and-foot.html")
#: (name, width, height): a desktop window and a phone's.
WINDOWS = (("desktop", 1280, 900), ("narrow", 375, 812))

_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars")

# Runs at the end of <body>, after the style sheets: the page's width against the
# window's, and the widest elements that are not inside a box that scrolls. The
# page is laid out in an iframe of the window's size (headless Chromium will not
# lay out a top-level page narrower than 500 px), and the harness copies the result
# into its own document, which --dump-dom prints.
_MEASURE = """<script>
(function () {
  var d = document.documentElement, w = d.clientWidth, out = [];
  function scrolls(e) {
    for (var p = e.parentElement; p; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  }
  document.querySelectorAll("article *").forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.width && r.right > w + 1 && !scrolls(e)) out.push(e.tagName + "." + e.className + " " + Math.round(r.right));
  });
  var pre = document.createElement("pre");
  pre.id = "overflow-result";
  pre.textContent = JSON.stringify({scroll: d.scrollWidth, client: w, out: out.slice(0, 5)});
  document.body.appendChild(pre);
})();
</script>"""

_HARNESS = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="page" src="{src}" style="border:0;width:{width}px;height:{height}px"></iframe>
<script>
document.getElementById("page").addEventListener("load", function () {{
  var inner = this.contentDocument.getElementById("overflow-result");
  var pre = document.createElement("pre");
  pre.id = "overflow-result";
  pre.textContent = inner ? inner.textContent : "null";
  document.body.appendChild(pre);
}});
</script></body></html>
"""


def browser() -> str:
    """The Chromium to run, or exit with a message."""
    for name in _BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    sys.exit("check_pages: chromium is not installed (Debian: apt-get install chromium)")


def run(chrome: str, url: str, width: int, height: int, *extra: str) -> str:
    """Run headless Chromium on ``url`` at ``width`` x ``height`` and return its standard output."""
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [chrome, *_FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}", *extra, url],
            capture_output=True, text=True, timeout=120, check=True,
        )
    return done.stdout


def check(build: Path, shots: Path) -> list[str]:
    """Measure and photograph each page in each window; return the failures."""
    chrome = browser()
    shots.mkdir(parents=True, exist_ok=True)
    failures = []
    for page in PAGES:
        path = build / page
        if not path.is_file():
            failures.append(f"{page}: not built")
            continue
        probe = path.with_name(path.stem + ".overflow-check.html")
        harness = path.with_name(path.stem + ".overflow-harness.html")
        probe.write_text(path.read_text(encoding="utf-8").replace("</body>", _MEASURE + "</body>"),
                         encoding="utf-8")
        try:
            for name, width, height in WINDOWS:
                harness.write_text(_HARNESS.format(src=probe.name, width=width, height=height), encoding="utf-8")
                dom = run(chrome, harness.as_uri(), width + 100, height + 100, "--dump-dom",
                          "--allow-file-access-from-files", "--virtual-time-budget=10000")
                found = re.search(r'<pre id="overflow-result">(.*?)</pre>', dom, re.S)
                if found is None or found.group(1) == "null":
                    failures.append(f"{page} ({name}): the measuring script did not run")
                    continue
                result = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
                shot = shots / f"{page.replace('/', '-').removesuffix('.html')}-{name}.png"
                run(chrome, path.as_uri(), width, height, f"--screenshot={shot}")
                state = "ok" if result["scroll"] <= result["client"] and not result["out"] else "OVERFLOW"
                print(f"{state:8} {page} at {width}px: page {result['scroll']}px wide; {shot.name}")
                if state != "ok":
                    failures.append(f"{page} at {width}px: {result}")
        finally:
            probe.unlink()
            harness.unlink(missing_ok=True)
    return failures


def main(argv: list[str]) -> int:
    """Check the pages of the build in ``argv[0]``; screenshots to ``argv[1]``."""
    if not argv or len(argv) > 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    # absolute: Chromium is given file:// addresses, which a relative path has none of
    build = Path(argv[0]).resolve()
    shots = Path(argv[1]).resolve() if len(argv) > 1 else build / "_shots"
    failures = check(build, shots)
    for failure in failures:
        print(f"check_pages: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
