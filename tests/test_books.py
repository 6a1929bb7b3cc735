"""Rule books a user reads: house profiles, citations, complete differences, printed pages.

Issue 16, items 1, 2, 5 and 8: a house profile's book never contradicts itself,
no internal file name reaches a reader, ``--diff`` lists every differing rule,
and the standalone HTML page prints (headless Chromium, checked with pdftotext).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import attrs
import pytest

import canasta
from budget import QUICK_PROFILES
from canasta import cli
from canasta.check import check_profile
from canasta.rulebook import (
    describe,
    describe_diff,
    difference_sentences,
    quick_reference,
    rule_book,
)
from canasta.rulebook.diff import differs
from canasta.rulebook.registry import RULES
from canasta.rulebook.sheet import sheet_book
from canasta.variant.model import Variant
from houses import HOUSES

BUNDLED = canasta.variant_names()
#: Every ordered pair of bundled profiles, for the rule-book differences; a pair
#: of profiles outside tests/budget.py's QUICK_PROFILES runs in the long run only.
PAIRS = [
    (a, b) if a in QUICK_PROFILES and b in QUICK_PROFILES
    else pytest.param(a, b, marks=pytest.mark.long)
    for a, b in itertools.permutations(BUNDLED, 2)
]

#: House profiles, one pattern each: (file name, text). Each changes rules of a
#: bundled profile and writes nothing else, as a table's first house file does.
HOUSE = {
    "two-canastas.yaml": "extends: classic\ngoing_out:\n  canastas: 2\n",
    "draw-three.yaml": "extends: draw-two\ndraw:\n  count: 3\n",
    "no-foot-first.yaml": "extends: hand-and-foot\ngoing_out:\n  foot_first: false\n",
    "four-hands.yaml": "extends: classic-3p\ngame:\n  target: null\n  rounds: 4\n",
    "titled.yaml": "extends: classic\ntitle: Our table\nmelds:\n  max_wilds: 2\n",
    "same-rules.yaml": "extends: classic\nname: renamed\n",
}

_URL = re.compile(r"https?://\S+")
_PATHLIKE = re.compile(r"/|\.md\b|\.ya?ml\b|seeds|\.txt\b")


def pathlike(text: str) -> list[str]:
    """Path-like strings in ``text``, addresses (https://…) aside."""
    return _PATHLIKE.findall(_URL.sub("", text))


def house(tmp_path: Path, name: str) -> Variant:
    path = tmp_path / name
    path.write_text(HOUSE[name], encoding="utf-8")
    return canasta.load_variant(path)


def parent_of(name: str) -> Variant:
    return canasta.load_variant(HOUSE[name].split("\n", 1)[0].split(": ")[1])


class TestInheritance:
    """Which words a child profile inherits through ``extends``."""

    @pytest.mark.parametrize("name", [n for n in HOUSE if n != "same-rules.yaml"])
    def test_changed_rules_drop_description_and_source(self, tmp_path: Path, name: str) -> None:
        """A child that changes rules keeps neither the description nor the source."""
        v, parent = house(tmp_path, name), parent_of(name)
        assert v.description == ""
        assert v.source == attrs.evolve(v.source, title="", reference="", url="")
        assert v.customs == parent.customs
        assert v.title != parent.title

    def test_title_names_the_parent(self, tmp_path: Path) -> None:
        """An unwritten title becomes the parent's, marked as house rules; a written one stays."""
        assert house(tmp_path, "two-canastas.yaml").title == "Classic partnership Canasta (house rules)"
        assert house(tmp_path, "titled.yaml").title == "Our table"

    def test_same_rules_inherit_everything(self, tmp_path: Path) -> None:
        """A child that changes no rule is its parent under another name."""
        v, classic = house(tmp_path, "same-rules.yaml"), canasta.load_variant("classic")
        assert (v.title, v.description, v.source) == (classic.title, classic.description, classic.source)
        assert v.name == "renamed"

    def test_assumed_only_for_options_not_set(self, tmp_path: Path) -> None:
        """The parent's assumption notes stay, except for the options the child sets."""
        path = tmp_path / "h.yaml"
        path.write_text("extends: classic\ndeal:\n  hand_size: 13\n", encoding="utf-8")
        v = canasta.load_variant(path)
        assert not v.is_assumed("deal.hand_size")
        assert v.is_assumed("deck.decks")

    def test_customs_replaced_when_written(self, tmp_path: Path) -> None:
        """Customs are inherited unless the child writes its own (an empty list removes them)."""
        path = tmp_path / "h.yaml"
        path.write_text("extends: hand-and-foot\ncustoms: []\ndraw:\n  count: 3\n", encoding="utf-8")
        assert canasta.load_variant(path).customs == ()


class TestHouseBooks:
    """A house profile's book has no contradictory sentence and no internal path."""

    @pytest.mark.parametrize("name", HOUSE)
    def test_book_describes_its_own_rules(self, tmp_path: Path, name: str) -> None:
        v, parent = house(tmp_path, name), parent_of(name)
        text = describe(v)
        if v.description == "":
            assert parent.description not in text
            intro = rule_book(v).intro[0].sentences[0].text
            assert intro.startswith("A game for ")
        assert pathlike(text) == []
        # the checker reads the description the book prints: no disagreement
        findings = check_profile(tmp_path / name)
        assert "C037" not in {f.diagnostic.code for f in findings}

    def test_generated_description_follows_the_rules(self, tmp_path: Path) -> None:
        text = describe(house(tmp_path, "two-canastas.yaml"))
        assert "once their side has two canastas" in text
        assert "once the side has a canasta" not in text

    def test_copied_description_is_flagged(self, tmp_path: Path) -> None:
        """A description written against the rules is a C037 warning at its line."""
        path = tmp_path / "h.yaml"
        path.write_text(
            "extends: classic\ndescription: Draw two cards and go out with one canasta.\n"
            "going_out:\n  canastas: 2\n", encoding="utf-8",
        )
        found = [f for f in check_profile(path) if f.diagnostic.code == "C037"]
        assert [f.diagnostic.paths for f in found] == [("description", "going_out.canastas"), ("description", "draw.count")]
        assert found[0].line == 2

    @pytest.mark.parametrize("name", BUNDLED)
    def test_bundled_descriptions_agree(self, name: str) -> None:
        codes = {f.diagnostic.code for f in check_profile(name)}
        assert "C037" not in codes


class TestNoInternalPaths:
    """No rule book and no ``canasta show`` output names a repository file."""

    @pytest.mark.parametrize("fmt", ["markdown", "rst", "html"])
    @pytest.mark.parametrize("name", BUNDLED)
    def test_book(self, name: str, fmt: str) -> None:
        text = describe(canasta.load_variant(name), fmt)
        if fmt == "html":
            text = re.sub(r"</?\w+[^>]*>", " ", text)  # closing tags have a slash
        assert pathlike(text) == []

    @pytest.mark.parametrize("name", BUNDLED)
    def test_show(self, name: str, capsys: pytest.CaptureFixture[str]) -> None:
        assert cli.main(["show", name]) == 0
        assert pathlike(capsys.readouterr().out) == []

    @pytest.mark.parametrize("name", BUNDLED)
    def test_source_is_a_citation(self, name: str) -> None:
        """The source names a title and an author or publisher, not a file."""
        s = canasta.load_variant(name).source
        assert s.title and s.reference
        assert pathlike(s.reference) == []


def _differing(v: Variant, o: Variant) -> list[str]:
    """Every option path whose rule differs in ``v`` (the test's own reading of "differs")."""
    out = []
    for path, rule in RULES.items():
        if path.count(".") != 1 or not rule.relevant(v):
            continue
        if rule.relevant(o) and rule.shown(o) and rule.say(v) == rule.say(o) and rule.instead is None:
            continue  # another value, the same sentence: the same rule
        value_differs = _value(v, path) != _value(o, path)
        if value_differs or (not rule.relevant(o) and rule.shown(v)):
            out.append(path)
    return out


def _value(v: Variant, path: str) -> Any:
    area, name = path.split(".")
    value = getattr(getattr(v, area), name)
    return frozenset(value) if path in ("wilds.ranks", "deal.upcard_covered_if", "pile.stop_cards") else value


def _one_change_houses() -> list[tuple[str, Variant, Variant]]:
    """Classic and Hand and Foot, each with one option changed (bool flipped, number moved)."""
    out = []
    for base_name in ("classic", "hand-and-foot"):
        base = canasta.load_variant(base_name)
        for path in RULES:
            if path.count(".") != 1:
                continue
            area, name = path.split(".")
            value = getattr(getattr(base, area), name)
            if isinstance(value, bool):
                new: Any = not value
            elif isinstance(value, int) and value >= 1:
                new = value + 1
            else:
                continue
            try:
                changed = attrs.evolve(base, **{area: attrs.evolve(getattr(base, area), **{name: new})})
            except (ValueError, TypeError):
                continue
            out.append((f"{base_name}+{path}", changed, base))
    return out


class TestDiffComplete:
    """``--diff`` lists every differing rule and no sentence that leans on another."""

    @pytest.mark.parametrize("a,b", PAIRS)
    def test_bundled_pairs(self, a: str, b: str) -> None:
        v, o = canasta.load_variant(a), canasta.load_variant(b)
        stated = {p for t in difference_sentences(v, o) for p in t.paths}
        assert [p for p in _differing(v, o) if p not in stated] == []
        assert all(differs(v, o, p) for p in stated)

    @pytest.mark.parametrize("label,v,o", _one_change_houses(), ids=lambda x: x if isinstance(x, str) else "")
    def test_one_change(self, label: str, v: Variant, o: Variant) -> None:
        stated = {p for t in difference_sentences(v, o) for p in t.paths}
        assert [p for p in _differing(v, o) if p not in stated] == []

    def test_hand_and_foot_against_classic(self) -> None:
        """The foot, going out before it and the wild canasta bonus are stated; nothing dangles."""
        text = describe_diff(canasta.load_variant("hand-and-foot"), canasta.load_variant("classic"))
        assert "pick up your foot" in text
        assert "A player may not go out before picking up their foot." in text
        assert "a wild canasta 1500 points" in text
        assert "then dealt" not in text and "Besides the hand, each player is dealt a foot" in text

    @pytest.mark.parametrize("a,b", PAIRS)
    def test_no_dangling_sentence(self, a: str, b: str) -> None:
        for t in difference_sentences(canasta.load_variant(a), canasta.load_variant(b)):
            assert not re.match(r"(Then|It|They|This|Also)\b", t.text), t.text
            assert " then dealt" not in t.text


# --------------------------------------------------------------------------- printing

_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def _browser() -> str | None:
    for name in _BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    return None


def _need_tools() -> str:
    browser = _browser()
    missing = [n for n, ok in (("chromium", browser), ("pdftotext", shutil.which("pdftotext"))) if not ok]
    if missing:
        why = f"{' and '.join(missing)} not installed (Debian: apt-get install chromium poppler-utils)"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {why}: the print test must run in CI")
        pytest.skip(why)
    assert browser is not None
    return browser


def _print(browser: str, html_text: str, tmp: Path) -> tuple[str, str]:
    """Print ``html_text`` to PDF at A4; return pdftotext's ``-layout`` and ``-bbox`` outputs."""
    page, pdf = tmp / "book.html", tmp / "book.pdf"
    page.write_text(html_text, encoding="utf-8")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             f"--user-data-dir={profile}", "--no-pdf-header-footer", f"--print-to-pdf={pdf}",
             page.as_uri()],
            check=True, capture_output=True, timeout=180,
        )
    assert pdf.is_file() and pdf.stat().st_size > 1000
    layout = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                            text=True, timeout=60).stdout
    bbox = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True,
                          text=True, timeout=60).stdout
    return layout, bbox


class TestStandalonePage:
    """``describe(v, "html", standalone=True)``: a complete page that prints."""

    def test_page_has_charset_title_and_print_style(self) -> None:
        v = canasta.load_variant("classic")
        page = describe(v, "html", standalone=True)
        assert page.startswith("<!DOCTYPE html>")
        assert '<meta charset="utf-8">' in page
        assert f"<title>{v.title}</title>" in page
        assert "@media print" in page and "@page" in page
        assert describe(v, "html") in page  # the fragment, whole, inside <main>
        assert not describe(v, "html").startswith("<!DOCTYPE")

    def test_other_formats_ignore_standalone(self) -> None:
        v = canasta.load_variant("classic")
        assert describe(v, "markdown", standalone=True) == describe(v)

    @pytest.mark.parametrize("name", BUNDLED)
    def test_prints_every_heading_and_a_fitting_value_table(self, name: str, tmp_path: Path) -> None:
        browser = _need_tools()
        v = canasta.load_variant(name)
        book = rule_book(v)
        layout, bbox = _print(browser, describe(v, "html", standalone=True), tmp_path)
        flat = " ".join(layout.split())
        for title in [book.title, *(s.title for s in book.sections)]:
            assert title in flat, title
        # the card-value table: each row's card and points on one line of the page
        values = next(b for s in book.sections for b in s.blocks if getattr(b, "header", None) == ("Card", "Points"))
        lines = layout.splitlines()
        for row in values.rows:
            card, points = row[0].text, row[1].text
            # a note mark may follow the points (superscript digits, or digits in a smaller type)
            assert any(re.search(re.escape(card) + r"\s{2,}" + re.escape(points) + r"(?![0-9])", ln) for ln in lines), (
                card,
                [ln for ln in lines if card in ln],
            )
        # nothing printed beyond the page's right edge
        width = float(re.search(r'<page width="([\d.]+)"', bbox)[1])  # type: ignore[index]
        right = max(float(x) for x in re.findall(r'xMax="([\d.]+)"', bbox))
        assert right <= width - 20, (right, width)


class TestQuickReference:
    """``canasta rules X --format sheet``: the one-page quick-reference sheet."""

    def test_sheet_has_its_parts_and_card_faces(self) -> None:
        """The sheet holds card values, bonuses, the first meld, the pile and going out, with faces."""
        v = canasta.load_variant("classic")
        page = quick_reference(v)
        assert page.startswith("<!DOCTYPE html>") and "@page" in page and ".cf-red" in page
        for title in ("Card values", "Canastas and bonuses", "The first meld", "The discard pile",
                      "Example melds", "Going out"):
            assert f"<h2>{title}</h2>" in page, title
        assert 'aria-label="joker"' in page and "cf-wild" in page
        assert "\u2020" not in page  # no note marks on a sheet

    def test_cli_writes_the_sheet(self, capsys: pytest.CaptureFixture[str]) -> None:
        """``canasta rules classic --format sheet`` prints the page; --diff with it is a usage error."""
        from canasta.cli import main

        assert main(["rules", "classic", "--format", "sheet"]) == 0
        assert capsys.readouterr().out == quick_reference(canasta.load_variant("classic"))
        assert main(["rules", "classic", "--format", "sheet", "--diff", "draw-two"]) == 2
        assert "--format sheet" in capsys.readouterr().err

    def test_examples_give_way_to_the_rules(self) -> None:
        """A sheet whose rules pass SHEET_TEXT_BUDGET leaves out the example melds, not a rule."""
        from canasta.rulebook.sheet import SHEET_TEXT_BUDGET, sheet_book

        mac, short = canasta.load_variant("modern-american"), canasta.load_variant("classic")
        # Modern American's sheet fills nearly the whole budget; one more rule of the pile passes it
        long = attrs.evolve(mac, pile=attrs.evolve(mac.pile, blocked_by_meld_size=5))
        assert "Example melds" not in [s.title for s in sheet_book(long).sections]
        assert "Example melds" in [s.title for s in sheet_book(short).sections]
        text = canasta.describe(long)
        assert len(text) > SHEET_TEXT_BUDGET
        assert "Talons:" in quick_reference(long)

    @pytest.mark.parametrize("name", BUNDLED)
    def test_prints_on_one_page(self, name: str, tmp_path: Path) -> None:
        """Printed by headless Chromium at A4, the sheet is one page, with every part and value on it."""
        browser = _need_tools()
        v = canasta.load_variant(name)
        layout, bbox = _print(browser, quick_reference(v), tmp_path)
        assert bbox.count("<page ") == 1, f"{name}: the sheet prints on {bbox.count('<page ')} pages"
        flat = " ".join(layout.split())
        for section in sheet_book(v).sections:
            assert section.title in flat, section.title
        assert "Card values" in flat and "Going out" in flat
        width = float(re.search(r'<page width="([\d.]+)"', bbox)[1])  # type: ignore[index]
        right = max(float(x) for x in re.findall(r'xMax="([\d.]+)"', bbox))
        assert right <= width - 20, (right, width)


# --------------------------------------------------------------------------- prose

#: House profiles for the prose checks, one unusual rule each, so that sentences the
#: bundled books never say are read too.
PROSE_HOUSES = {
    "solo-foot": "extends: hand-and-foot\nplayers:\n  count: 3\n  partnerships: false\n"
    "foot:\n  walk: true\n  trigger: empty_hand\n",
    "no-upcard": "extends: classic\ndeal:\n  upcard: false\n",
    "no-wilds": "extends: classic\nmelds:\n  max_wilds: 0\n",
    "by-naturals": "extends: classic\nmelds:\n  second_wild: by_naturals\n  second_wild_naturals: 4\n",
    "blocked": "extends: classic\npile:\n  blocked_by_meld_size: 5\n  blocked_exception: false\n",
    "rounds": "extends: classic\nopening:\n  by: round\n  round_table: [50, 90]\n"
    "game:\n  target: null\n  rounds: 3\n",
    "red-held": "extends: classic\nthrees:\n  red_laid_at_once: false\n",
    "black-out": "extends: classic-2p\nthrees:\n  black_out_cards: 3\nscoring:\n  hand_minus: false\n",
    "take-top": "extends: classic\npile:\n  take_top: 5\n",
    "duplicates-solo": "extends: classic-3p\nmelds:\n  max_size: 8\n  duplicate_ranks: after_complete\n",
    # every Modern American option of issue #15 (tests/data/houses)
    "mac-options": HOUSES["mac-options"].read_text(encoding="utf-8"),
}

#: Phrasings the rule books once had and must not have again: (why, pattern).
#: Read over the sentences the books generate, not over what a profile writes
#: (titles, descriptions, sources, customs), which the profile's author owns.
FORBIDDEN_PROSE = [
    ("a double negation", r"until the top card is not"),
    ("'count ... minus' / 'plus' for a score", r"\bcounts? (\S+ ){0,2}(minus|plus)\b"),
    ("'no one is skipped'", r"\b(no one|nobody) is skipped\b"),
    ("a reference to nowhere", r"\bsee below\b"),
    ("the stock called by another name", r"\b(the|a) deck\b|\bdraw pile\b"),
    ("a side called by another name", r"\bteams?\b|\bpartnerships?\b"),
    ("'themself'", r"\bthemself\b"),
    ("a player called 'that' or 'it'", r"\ba player that\b|\bplayer\b[^.;:]*\bits first meld\b"),
    ("a meld with no owner", r"\bthe (side|player)'s meld\b|one of the (side|player)'s unfinished melds"),
    ("'each partner' for the side's players", r"\beach partner may\b"),
    ("a meld of natural cards holding wild cards", r"\ba meld of natural cards may hold\b"),
    ("'complete and closed: no more'", r"\bcomplete and closed\b"),
    ("a sentence that leans on one not there", r"(^|[.;] )Nor may\b"),
    ("'and ... and every later hand'", r"\band every later hand\b"),
    ("'whether it went out or not'", r"\bwhether it went out or not\b"),
    ("'must discard it' before an optional rule", r"\bmust discard it; they may say\b"),
    ("'which may be a black 3 too'", r"\bwhich may be a black 3 too\b"),
    ("'only one wild card may be in a meld'", r"\bonly one wild card may be in a meld\b"),
    ("'a hand ... at the end'", r"\bleft in a hand at the end\b"),
    ("'(house rules)' twice", r"\(house rules\) \(house rules\)"),
]

#: Phrasings forbidden anywhere in a book, notes included.
FORBIDDEN_ANYWHERE = [
    ("a note that contradicts itself", r"not (fixed by|in) the source text; taken from the source\b(?!'|&#x27;)"),
    ("'(house rules)' twice", r"\(house rules\) \(house rules\)"),
]


def _prose_variants(tmp_path: Path) -> dict[str, Variant]:
    out = {name: canasta.load_variant(name) for name in BUNDLED}
    for name, text in PROSE_HOUSES.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        out[name] = canasta.load_variant(path)
    return out


def _generated_sentences(v: Variant) -> list[str]:
    """Every sentence the book of ``v`` generates: sections but the customs, the built description, the differences."""
    from canasta.rulebook.blocks import BulletList, Paragraph, Table
    from canasta.rulebook.book import S_CUSTOMS
    from canasta.rulebook.summary import summary

    book = rule_book(v)
    texts: list[str] = [] if v.description.strip() else [summary(v)]
    for section in book.sections:
        if section.title == S_CUSTOMS:
            continue
        for block in section.blocks:
            if isinstance(block, Paragraph):
                texts += [t.text for t in block.sentences]
            elif isinstance(block, BulletList):
                texts += [t.text for item in block.items for t in item.sentences]
            elif isinstance(block, Table):
                texts += [c.text for row in block.rows for c in row]
    for other in ("classic", "hand-and-foot"):
        texts += [t.text for t in difference_sentences(v, canasta.load_variant(other))]
        texts += [t.text for t in difference_sentences(canasta.load_variant(other), v)]
    return texts


class TestProse:
    """Issue 16, item 6: the books read like a published rule book, and the phrasings fixed stay fixed."""

    def test_no_forbidden_phrasing(self, tmp_path: Path) -> None:
        """No generated sentence of a bundled book, a house book or a list of differences has a phrasing once fixed."""
        found = []
        for name, v in _prose_variants(tmp_path).items():
            for text in _generated_sentences(v):
                for why, pattern in FORBIDDEN_PROSE:
                    if re.search(pattern, text, re.IGNORECASE):
                        found.append(f"{name}: {why}: {text!r}")
            for fmt in ("markdown", "html"):
                book = describe(v, fmt)
                for why, pattern in FORBIDDEN_ANYWHERE:
                    for m in re.finditer(pattern, book, re.IGNORECASE):
                        found.append(f"{name} ({fmt}): {why}: {book[max(0, m.start() - 60):m.end() + 20]!r}")
        assert found == []

    def test_the_patterns_catch_the_old_phrasings(self) -> None:
        """Each forbidden pattern matches the phrasing it names (so a typo cannot make the test pass vacuously)."""
        old = [
            "until the top card is not a wild card", "A black 3 left in a hand at the end counts 5 points minus.",
            "no one is skipped", "take the whole discard pile (see below)", "the deck", "each partnership",
            "each for themself", "a player that has not yet made its first meld",
            "join the side's meld of that rank", "each partner may pick up their foot",
            "A meld of natural cards may hold at most three wild cards.",
            "a meld of seven cards is complete and closed: no more cards may join it.",
            "Nor may a player go out", "90 in the second and every later hand",
            "whether it went out or not", "must discard it; they may say",
            "which may be a black 3 too", "Only one wild card may be in a meld of up to five cards",
            "left in a hand at the end", "Our table (house rules) (house rules)",
        ]
        for (why, pattern), text in zip(FORBIDDEN_PROSE, old, strict=True):
            assert re.search(pattern, text, re.IGNORECASE), why
        assert re.search(FORBIDDEN_ANYWHERE[0][1], "Not fixed by the source text; taken from the source (a 3)", re.I)
        assert re.search(FORBIDDEN_ANYWHERE[0][1], "Not in the source text; taken from the source (a 3)", re.I)
        assert not re.search(FORBIDDEN_ANYWHERE[0][1], "Not fixed by the source text; taken from the source's", re.I)

    def test_take_top_is_not_the_whole_pile(self, tmp_path: Path) -> None:
        """Where a player takes only the top cards of the pile, no sentence says they take the whole pile."""
        for name, v in _prose_variants(tmp_path).items():
            book = describe(v)
            if v.pile.take_top is not None:
                assert "whole discard pile" not in book, name
                assert f"take the top {count_words(v.pile.take_top)} cards of the discard pile" in book, name

    def test_examples_where_a_rule_is_subtle(self, tmp_path: Path) -> None:
        """The second wild card (both readings), the blocked pile with and without its exception, out but not out, melds of wild cards."""
        vs = _prose_variants(tmp_path)
        assert "may take a joker as their sixth card, but three 9s and a 2 may not" in describe(vs["hand-and-foot"])
        assert "may not take a second wild card until a fourth 9 joins them" in describe(vs["by-naturals"])
        assert "Holding four 8s, you may: two 8s complete the canasta" in describe(vs["hand-and-foot"])
        assert "may not take the pile with an 8 on top, however many 8s you hold" in describe(vs["blocked"])
        assert "has no cards left but is not out" in describe(vs["hand-and-foot"])
        assert "make a meld of wild cards; it may grow to seven wild cards, while a meld of 9s takes at most three" in (
            describe(vs["uruguayan"])
        )

    def test_example_follows_its_rule(self) -> None:
        """The meld examples stand right after the limit on wild cards, not after unrelated rules."""
        text = describe(canasta.load_variant("hand-and-foot"))
        limit = "A meld of one rank may hold at most two wild cards. "
        assert limit + "For example, two 9s and a 2 make a meld" in text

    def test_one_mark_for_a_table(self) -> None:
        """Hand and Foot's scoring: one mark on the heading, not a mark per sentence or cell."""
        text = describe(canasta.load_variant("hand-and-foot"))
        heading = re.search(r"\n## Scoring(\S+)\n", text)
        assert heading is not None and text.count(heading.group()) == 1
        mark = heading.group(1)
        scoring = text.split(heading.group(), 1)[1].split("\n## ", 1)[0]
        assert scoring.count(mark) == 0
        assert "| Joker (wild) | 50 |" in scoring

    def test_every_book_has_fewer_marks_than_before(self) -> None:
        """No table whose cells nearly all carry one mark repeats it on each cell."""
        for name in BUNDLED:
            text = describe(canasta.load_variant(name))
            for table in re.findall(r"(?:^\|.*\|\n)+", text, re.MULTILINE):
                rows = table.strip().splitlines()[2:]
                cells = [r.rsplit("|", 2)[1].strip() for r in rows]
                marks = [c[-1] for c in cells if c and c[-1] in "†‡§‖¶"]
                assert not marks or max(marks.count(m) for m in set(marks)) * 4 < 3 * len(cells), (name, table)


def count_words(n: int) -> str:
    """A number as the books write it (five, 12)."""
    from canasta.rulebook.words import num

    return num(n)
