"""The rule books read as books for players (issue 41, items 8 to 14 and the style).

Every bundled book, in every format it is printed in, is free of software words and of
note marks that run together; each book says what its own variant does; and the classic
book states every rule of its source text (seed 001) in at most about 1,100 words.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import attrs
import pytest

import canasta
from canasta.rulebook import describe, quick_reference
from canasta.rulebook.render import FIXED_MARK, mark_after, note_mark
from canasta.variant.model import Variant

BUNDLED = canasta.variant_names()

#: House profiles whose books must read as well as the bundled ones: a house book
#: inherits its parent's sentences and notes.
HOUSES = {
    "two-canastas": "extends: classic\nname: two-canastas\ngoing_out:\n  canastas: 2\n",
    "samba-house": "extends: samba\nname: samba-house\ngame:\n  target: 7500\n",
    "mac-house": "extends: modern-american\nname: mac-house\nopening:\n  talons: [3, 2]\n",
    "samba-runs": "extends: samba\nname: samba-runs\nsequences:\n  join: true\n",
    "samba-gaps": "extends: samba\nname: samba-gaps\nsequences:\n  wild_in_gap: true\n",
}

#: Words a book for players never has: (why, pattern). Notation, the engine, profiles and
#: options belong to the documentation; a book speaks of players, sides and cards.
SOFTWARE_WORDS = [
    ("notation", r"\bnotation\b"),
    ("the engine", r"\bengines?\b"),
    ("a profile", r"\bprofiles?\b"),
    ("an option", r"\boptions?\b"),
    ("an option value in brackets", r"\((never|always|true|false|none|null|any|by_size|by_naturals|lay_off)\)"),
    ("an option name", r"\b[a-z]+_[a-z]+(_[a-z]+)*\b"),
    ("a command line", r"\bcanasta (rules|play|simulate|check|show|variants)\b|--format\b"),
    ("a meld written as a move", r"\b(K|Q|J|A|[2-9]|10):\d\b"),
    ("a move written out", r"'lay 3R?'|\badd K:"),
    ("a file", r"\.ya?ml\b"),
    ("a card in notation", r"(?-i:\b(10|[2-9AKQJ])[SHDC]\b)"),
]

#: Every mark a book uses after a sentence, a heading or a cell.
_MARK_RUN = re.compile("[\u2020\u2021\u00a7\u2016\u00b6\u00b0\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+")


def _load(name: str, tmp_path: Path) -> Variant:
    if name in HOUSES:
        path = tmp_path / f"{name}.yaml"
        path.write_text(HOUSES[name], encoding="utf-8")
        return canasta.load_variant(path)
    return canasta.load_variant(name)


def _plain(page: str) -> str:
    """The words of an HTML page: no style sheet, no tags, no attributes."""
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


def printed(v: Variant) -> dict[str, str]:
    """Everything a player may print of ``v``'s rules: each format of the book and the sheet."""
    return {
        "markdown": describe(v),
        "rst": describe(v, "rst"),
        "html": _plain(describe(v, "html", standalone=True)),
        "sheet": _plain(quick_reference(v)),
    }


def software_words(text: str) -> list[str]:
    """The software words found in ``text``, each with its context."""
    found = []
    for why, pattern in SOFTWARE_WORDS:
        for m in re.finditer(pattern, text, re.IGNORECASE):
            found.append(f"{why}: {text[max(0, m.start() - 50):m.end() + 30]!r}")
    return found


def mark_problems(text: str, notes: str | None = None) -> list[str]:
    """Marks that collide: run together, used without a note, defined twice, or read as a power.

    ``text`` is a Markdown book, or, with ``notes``, the body of a book in any format
    and the text of its notes (as :func:`printed_parts` splits them).
    """
    body = text
    if notes is None:
        body, _, notes = text.partition("\n## Notes\n")
    notes = notes.replace("\\", "")  # reStructuredText escapes a mark that starts a line
    defined = [m.group(1) for m in re.finditer(r"^\s*(\S+) ", notes, re.M) if _MARK_RUN.fullmatch(m.group(1))]
    problems = [f"defined twice: {m}" for m in set(defined) if defined.count(m) > 1]
    known = set(defined) | {FIXED_MARK}
    for m in _MARK_RUN.finditer(body):
        around = body[max(0, m.start() - 60):m.end()]
        if m.group() not in known:
            problems.append(f"{m.group()!r} is no one note's mark: {around!r}")
        if body[m.start() - 1:m.start()].isdigit():
            problems.append(f"{m.group()!r} after a number reads as a power: {around!r}")
    for m in re.finditer(r"\(note (\d+)\)", body):
        if note_mark(int(m.group(1))) not in known:
            problems.append(f"{m.group()!r} names no note")
    return problems


def printed_parts(v: Variant) -> dict[str, tuple[str, str]]:
    """Each printed format of ``v``'s rules as (body, notes): the notes are "" where there are none."""
    md_body, _, md_notes = describe(v).partition("\n## Notes\n")
    rst_body, _, rst_notes = describe(v, "rst").partition("\nNotes\n-----\n")
    html_body, _, html_notes = describe(v, "html", standalone=True).partition("<h2>Notes</h2>")
    return {
        "markdown": (md_body, md_notes),
        "rst": (rst_body, rst_notes),
        "html": (_plain(html_body), _plain(html_notes).replace("\n ", "\n")),
        "sheet": (_plain(quick_reference(v)), ""),
    }


class TestNoSoftwareWords:
    """No book, in any format, speaks of notation, the engine, profiles or options."""

    @pytest.mark.parametrize("name", [*BUNDLED, *HOUSES])
    def test_book(self, name: str, tmp_path: Path) -> None:
        v = _load(name, tmp_path)
        found = [f"{fmt}: {w}" for fmt, text in printed(v).items() for w in software_words(text)]
        assert found == []

    def test_the_patterns_catch_the_old_wordings(self) -> None:
        """Each pattern matches a wording the books once had, so the test cannot pass by a typo."""
        old = [
            "In move notation a special hand is laid by its key",
            "the engine seats partners opposite",
            "this profile counts it whenever the hand ends",
            "a house option",
            "classic's one meld of each rank (never)",
            "black_meld: going_out_only",
            "To print the whole rule book: canasta rules classic --format html",
            "Written down, the second meld of kings is K:2",
            "until they lay it out ('lay 3R', 'lay 3')",
            "see classic.yaml",
            "(written join 4H-6H 7H-9H)",
        ]
        for (why, pattern), text in zip(SOFTWARE_WORDS, old, strict=True):
            assert re.search(pattern, text, re.IGNORECASE), why


class TestMarks:
    """One mark per note, never two run together, so no mark reads as another."""

    @pytest.mark.parametrize("name", [*BUNDLED, *HOUSES])
    def test_no_colliding_marks(self, name: str, tmp_path: Path) -> None:
        """Every format: the book in Markdown, reStructuredText and HTML, and the sheet (which has no notes)."""
        parts = printed_parts(_load(name, tmp_path))
        assert {fmt: mark_problems(body, notes) for fmt, (body, notes) in parts.items()} == {fmt: [] for fmt in parts}

    def test_every_format_has_its_notes(self) -> None:
        """The split into body and notes finds the notes of each book format, so the check above reads them."""
        parts = printed_parts(canasta.load_variant("classic"))
        for fmt in ("markdown", "rst", "html"):
            assert "Not in the source text; taken from Pagat classic Canasta." in parts[fmt][1], fmt
            assert "Pagat" not in parts[fmt][0], fmt
        assert parts["sheet"][1] == "" and "\u00b9" not in parts["sheet"][0]

    def test_the_check_catches_a_mark_after_a_number(self) -> None:
        assert mark_problems("| Black 3 | 5\u00b9\u2070 |\n\n## Notes\n\n\u00b9\u2070 Ten.\n")
        assert mark_problems("| Black 3 | 5 (note 3) |\n\n## Notes\n\n\u00b9 One.\n")
        assert not mark_problems("| Black 3 | 5 (note 1) |\n\n## Notes\n\n\u00b9 One.\n")

    def test_a_value_with_a_note_reads_as_a_value(self) -> None:
        """Item 3: Modern American's black 3 is worth 5, with its note written out, in every format."""
        v = canasta.load_variant("modern-american")
        mark = mark_after("5", "\u00b9\u2070")
        assert mark == " (note 10)"
        for fmt, (body, notes) in printed_parts(v).items():
            if fmt == "sheet":
                continue  # the sheet has no notes
            row = re.search(r"Black 3[\s|-]*\\?5( \(note (\d+)\))", body)  # reStructuredText escapes the 5
            assert row is not None, fmt
            assert re.search(rf"^\\?\s*{note_mark(int(row.group(2)))} ", notes, re.M), fmt

    def test_mark_after(self) -> None:
        assert mark_after("108 cards.", "\u00b9") == "\u00b9"
        assert mark_after("Points", "\u00b2") == "\u00b2"
        assert mark_after("50", "\u00b9\u00b2") == " (note 12)"
        assert mark_after("50", FIXED_MARK) == f" ({FIXED_MARK})"
        assert mark_after("50", "") == ""

    def test_the_check_catches_marks_run_together(self) -> None:
        book = "A rule.\u2020\u00a7\u00a7\n\n## Notes\n\n\u2020 One.\n\n\u00a7\u00a7 Two.\n"
        assert mark_problems(book)
        assert mark_problems("A rule.\u00b9\n\n## Notes\n\n\u00b9 One.\n\n\u00b9 Two.\n")
        assert not mark_problems("A rule.\u00b9\n\n## Notes\n\n\u00b9 One.\n")

    def test_marks_are_numbers(self) -> None:
        assert [note_mark(n) for n in (1, 2, 10, 12)] == ["\u00b9", "\u00b2", "\u00b9\u2070", "\u00b9\u00b2"]

    def test_a_sentence_of_two_sources_has_one_note(self) -> None:
        """Brazilian's first meld states options from two sources: one mark, whose note names both."""
        text = describe(canasta.load_variant("brazilian"))
        line = next(ln for ln in text.splitlines() if ln.startswith("Your side's first melds of a hand"))
        mark = _MARK_RUN.findall(line)[-1]
        note = next(ln for ln in text.splitlines() if ln.startswith(mark + " "))
        assert "Pagat classic Canasta" in note and "rummy-games.com" in note


def _note_of(text: str, sentence: str) -> str:
    """The note that the mark after ``sentence`` points to ("" when it has none)."""
    i = text.index(sentence) + len(sentence)
    m = _MARK_RUN.match(text, i)
    if m is None:
        return ""
    return next(ln for ln in text.splitlines() if ln.startswith(m.group() + " "))


class TestSourceMarks:
    """Item 9: a rule the book's own text states carries no mark; one taken elsewhere says where from."""

    def test_draw_two_marks_nothing_its_text_states(self) -> None:
        text = describe(canasta.load_variant("draw-two"))
        for sentence in (
            "less those left in its players' hands.",
            "Going out scores 100 points.",
            "You may meld black 3s only in the turn you go out",
        ):
            assert sentence in text
            assert "Pagat" not in _note_of(text, sentence), sentence
        # all four red 3s: 800 (the 100 for each, beside it in the same sentence, is Pagat's)
        assert not canasta.load_variant("draw-two").is_assumed("threes.red_all_bonus")

    def test_draw_two_marks_what_it_takes_from_the_classic_text(self) -> None:
        text = describe(canasta.load_variant("draw-two"))
        note = _note_of(text, "A meld of seven cards or more is a canasta.")
        assert note.endswith("Not in the source text; taken from the classic rule text.")
        other = _note_of(text, "108 cards.")
        assert "Pagat classic Canasta" in other and other != note

    def test_classic_marks_its_readings_of_red_3s(self) -> None:
        text = describe(canasta.load_variant("classic"))
        for sentence in ("is laid too, without a replacement.", "before you meld or discard."):
            assert "Pagat classic Canasta" in _note_of(text, sentence), sentence

    @pytest.mark.parametrize("name", ["bolivia", "brazilian", "uruguayan", "samba"])
    def test_a_reading_of_the_classic_text_names_it(self, name: str) -> None:
        """A book that takes classic's red 3s says the classic rule text, not its own source, speaks of red 3s drawn."""
        text = describe(canasta.load_variant(name))
        note = _note_of(text, "A red 3 found in a pile you take is laid too, without a replacement.")
        assert note.endswith("(the classic rule text speaks only of red 3s drawn).")

    @pytest.mark.parametrize("name", ["classic-2p", "classic-3p"])
    def test_pagat_games_take_from_their_own_page(self, name: str) -> None:
        """A game whose source is Pagat's classic page takes the rest from that page's four-player game."""
        text = describe(canasta.load_variant(name))
        note = _note_of(text, "108 cards.")
        assert note.endswith("Not in the source's rules for this game; taken from its four-player game.")
        assert "Pagat classic Canasta" not in text

    def test_other_sources_still_name_pagat(self) -> None:
        note = _note_of(describe(canasta.load_variant("classic-6p")), "A side may have only one meld of each rank.")
        assert note.endswith("Not in the source text; taken from Pagat classic Canasta.")

    @pytest.mark.parametrize("name", ["samba", "bolivia"])
    def test_samba_values_are_its_own(self, name: str) -> None:
        v = canasta.load_variant(name)
        assert "\n| Card | Points |" in describe(v)  # no mark on the column of card values
        for path in ("values", "canastas.natural_bonus", "canastas.mixed_bonus", "threes.red_bonus"):
            assert not v.is_assumed(path), path

    def test_notes_parse(self) -> None:
        """Item 12: every note names a source; none reads "taken from the text leaves it" or "taken from as"."""
        for name in BUNDLED:
            text = describe(canasta.load_variant(name))
            assert not re.search(r"taken from (as|the text leaves|the source text leaves)\b", text), name
        draw_two = describe(canasta.load_variant("draw-two"))
        assert "taken from online play, where one canasta is usual" in draw_two


class TestOwnRules:
    """Item 8: no sentence inherited from classic contradicts the variant's own rules."""

    def test_modern_american_lays_out_every_3(self) -> None:
        text = describe(canasta.load_variant("modern-american"))
        assert "every 3, red or black, is laid out and scores on its own" in text
        assert "black 3 on top of the discard pile stops" not in text
        assert "Any card may be discarded except a red 3" not in text
        assert "You may never discard a 3." in text
        assert "or a black 3 lies on top" not in text

    def test_modern_american_example_is_of_the_opening_turn(self) -> None:
        text = describe(canasta.load_variant("modern-american"))
        assert "For example, in the turn your side opens, two 9s and a 2 make a meld" in text

    def test_a_wild_card_discarded_only_to_go_out(self, tmp_path: Path) -> None:
        """Where a wild card may be discarded only to go out, the freezing rule does not say "you may discard" it."""
        path = tmp_path / "no-wild-discards.yaml"
        path.write_text("extends: classic\nname: no-wild-discards\npile:\n  wild_discard: out_or_all_wild\n", encoding="utf-8")
        text = describe(canasta.load_variant(path))
        assert "You may discard a wild card" not in text
        assert "A wild card discarded freezes the pile." in text
        assert "A wild card may be discarded only as the card a player goes out with" in text

    def test_brazilian_pile_is_not_frozen_against_a_side_that_may_not_take_it(self) -> None:
        text = describe(canasta.load_variant("brazilian"))
        assert "frozen against a side that has not yet made its first meld" not in text
        assert "A side that has not yet melded may not take the discard pile" in text


class TestWording:
    """Item 13: wordings that misled a reader."""

    def test_classic(self) -> None:
        text = describe(canasta.load_variant("classic"))
        assert "a meld on the table" not in text
        assert "If you can take it by adding its top card to your side's meld, you must." in text
        # a covered wild card still freezes: only the black 3 stops the next player alone
        assert "The pile is frozen for everyone while it holds a wild card or a red 3" in text
        assert "may be taken again" not in text
        assert "the top card and every card you meld from your hand that turn count toward the minimum" in text

    def test_hand_and_foot(self) -> None:
        v = canasta.load_variant("hand-and-foot")
        text = describe(v)
        assert "The discard pile is never frozen" not in text
        assert "it is taken only with a natural pair from the hand" in text
        assert "lets a second wild card join only as the sixth" in _note_of(
            text, "a second wild card may join it only as its sixth or seventh card."
        )
        assert "Penalty: a player who forgets to draw" in text
        assert "except a meld of wild cards" in text
        assert "\n## At the table\n\n- " in text  # the customs, with no lead-in


def _sentences(section: str) -> list[str]:
    """The sentences of a section of a Markdown book, marks and all."""
    return [s for s in re.split(r"(?<=[.!?])\S*\s+", section.strip()) if s]


class TestMeldsRead:
    """The long meld rules of Modern American and the Samba family: paragraphs, short sentences, examples."""

    @pytest.mark.parametrize("name", ["modern-american", "samba", "bolivia", "brazilian", "uruguayan"])
    def test_paragraphs_of_short_sentences(self, name: str) -> None:
        """Once one paragraph of up to 57 words a sentence; now a paragraph per topic, none over 35."""
        text = describe(canasta.load_variant(name))
        section = text.split("## Melds and wild cards")[1].split("\n## ")[0]
        assert section.strip().count("\n\n") >= 2  # what a meld is; its wild cards; melds of wild cards or sequences
        longest = max(_sentences(section), key=lambda s: len(s.split()))
        assert len(longest.split()) <= 35, longest

    def test_rule_of_five_is_worked(self) -> None:
        text = describe(canasta.load_variant("modern-american"))
        assert "After that turn, a wild card may join a meld only once it holds five natural cards." in text
        assert "For example, after that turn a meld of four 8s takes no wild card; once a fifth 8 joins it, a 2 may join too." in text
        # the meld examples hold in the opening turn only, and each says so
        assert "For example, in the turn your side opens, two 9s and a 2 make a meld" in text
        assert "In that turn, two 9s may take two wild cards, but not three." in text

    def test_a_player_alone_opens(self) -> None:
        text = describe(canasta.load_variant("modern-american-2p"))
        assert "For example, in the turn you open, two 9s" in text
        assert "your side opens" not in text

    def test_the_example_follows_the_rule(self, tmp_path: Path) -> None:
        path = tmp_path / "six.yaml"
        path.write_text("extends: modern-american\nname: six\nmelds:\n  late_wild_naturals: 6\n", encoding="utf-8")
        text = describe(canasta.load_variant(path))
        assert "a meld of five 8s takes no wild card; once a sixth 8 joins it" in text


class TestOpeningTiers:
    """Brazilian's opening canasta: adjacent rows that ask the same canasta read as one range."""

    def test_brazilian(self) -> None:
        text = describe(canasta.load_variant("brazilian"))
        assert ("must include a complete canasta when its total score is 7000 to 8995 and a complete "
                "natural canasta when it is 9000 or more.") in text

    def test_ranges_join_to_the_end(self) -> None:
        from canasta.rulebook.opening import canasta_tiers
        from canasta.variant.model import OpeningStep

        v = canasta.load_variant("brazilian")
        table = tuple(attrs.evolve(s, canasta="any") if s.canasta == "natural" else s for s in v.opening.score_table)
        assert canasta_tiers(attrs.evolve(v, opening=attrs.evolve(v.opening, score_table=table))) == [
            ("7000 or more", "any")
        ]
        # a row between them that asks none keeps the ranges apart
        gap = (*table, OpeningStep(150, 8500, "none"), OpeningStep(150, 9500, "any"))
        tiers = canasta_tiers(attrs.evolve(v, opening=attrs.evolve(v.opening, score_table=gap)))
        assert [span for span, _ in tiers] == ["7000 to 8495", "9000 or more"]


class TestMissing:
    """Item 14: table talk, the customs of laying melds, draw-two's agreed number of canastas."""

    def test_classic_customs(self) -> None:
        text = describe(canasta.load_variant("classic"))
        assert "do not talk about the cards anyone holds" in text
        assert "overlapped" in text and "Square up a canasta" in text and "sideways" in text

    def test_draw_two_customs(self) -> None:
        text = describe(canasta.load_variant("draw-two"))
        assert "You may talk during the game, but not about the cards you hold." in text
        assert "agree how many canastas a side needs to go out" in text


#: Every rule of the classic rule text (seed 001, "Section 4: Gameplay"), each with the
#: words of the classic book that state it. Marks are taken out of the book first.
SEED_001_RULES = [
    ("the player to the dealer's left plays first, then clockwise", "The player to the dealer's left plays first"),
    ("clockwise", "then play goes clockwise"),
    ("draw the top card of the stock, or take the whole pile", "Draw one card from the stock, or take the whole discard pile"),
    ("melding is optional", "If you wish, lay down new melds and add cards to your side's melds."),
    ("discard one card unless out by melding every card", "unless you have gone out by melding every card"),
    ("a red 3 drawn is laid and replaced, again and again", "lay it face up at once and draw a replacement, as often as needed"),
    ("the last stock card a red 3 is laid, not replaced", "If the last stock card is a red 3, lay it: the hand ends at once"),
    ("a meld is three or more of one rank", "A meld is at least three cards of one rank"),
    ("at least two naturals", "at least two of them natural"),
    ("at most three wild cards", "A meld may hold at most three wild cards."),
    ("examples of legal and illegal melds", "two 9s and a 2 make a meld, but a 9 and two 2s do not"),
    ("examples of the limit on wild cards", "Two 9s may take three wild cards, but not four."),
    ("partners share their side's melds", "Partners share their side's melds."),
    ("either partner extends the side's melds", "add cards to your side's melds"),
    ("melds overlapped so ranks and wild cards show", "Lay melds overlapped, so their ranks and wild cards show."),
    ("a canasta squared up, natural or wild card on top", "Square up a canasta, a natural card on top if natural, a wild card if mixed."),
    ("seven cards make a canasta", "A meld of seven cards or more is a canasta."),
    ("the whole pile is taken, not the top card", "or take the whole discard pile"),
    ("an unfrozen pile taken with a matching pair", "With a pair: meld the top card with two natural cards of its rank from your hand"),
    ("an unfrozen pile taken by adding the top card to a meld", "By adding: put the top card on your side's meld of its rank"),
    ("the top card melded at once, then the rest into the hand", "meld its top card at once; the rest goes into your hand"),
    ("further plays after the pickup", "your turn goes on"),
    ("a wild card or red 3 freezes the pile for both sides", "The pile is frozen for everyone while it holds a wild card or a red 3"),
    ("frozen against a side that has not opened", "and for a side that has not melded."),
    ("a frozen pile needs a matching natural pair", "a king lies on a pile holding a 2. Only two natural kings from your hand take it."),
    ("a meld on the table does not take a frozen pile", "(not when the pile is frozen)"),
    ("the pickup meld counts toward the opening", "the top card and every card you meld from your hand"),
    ("other melds from the hand count too", "every card you meld from your hand that turn count toward the minimum"),
    ("the buried cards never count", "count toward the minimum, but never the rest of the pile."),
    ("a wild card may be discarded and freezes the pile", "You may discard a wild card: it freezes the pile."),
    ("a discarded wild card sideways", "Turn a discarded wild card sideways"),
    ("a black 3 stops only the next player", "A black 3 stops only the next player"),
    ("a red 3 is never discarded", "A red 3 is never melded or discarded."),
    ("a red 3 found is laid", "A red 3 found in a pile you take is laid too"),
    ("a wild card or black 3 on top cannot be taken", "No one may take the pile while a wild card or a black 3 lies on top."),
    ("then draw from the stock", "Draw one card from the stock, or take"),
    ("going out needs a canasta", "You may go out only when your side has a canasta"),
    ("out by melding all, or all but one and a discard", "Go out by melding every card in your hand, or all but one and discarding the last."),
    ("the canasta may be made in the turn of going out", "even one completed that turn"),
    ("ask “Partner, may I go out?”", "Partner, may I go out?"),
    ("the answer is yes or no and binds", "Your partner answers only yes or no, binding you for that turn"),
    ("asking is optional", "you may ask"),
    ("no other talk about the hands", "do not talk about the cards anyone holds"),
    ("going out concealed: the whole hand in one turn, nothing melded before", "To go out concealed, meld your whole hand in one turn, without having melded before"),
    ("taking the pile rules out a concealed out", "or taken the pile"),
    ("after the stock: play goes on through the pile", "Once the stock is empty, play goes on only through the discard pile"),
    ("after the stock: the lay-off pickup is compulsory", "If you can take it by adding its top card to your side's meld, you must."),
    ("after the stock: the pair pickup may be declined", "If you would need cards from your hand, you may decline."),
    ("the hand ends when a player cannot draw and does not take", "The hand ends when a player cannot draw and does not take the pile"),
]

_ALL_MARKS = str.maketrans("", "", "\u00b0\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")


class TestClassicStatesItsSource:
    """The classic book states every rule of its source text, each where a reader finds it."""

    TEXT = describe(canasta.load_variant("classic")).translate(_ALL_MARKS)

    @pytest.mark.parametrize(("rule", "words"), SEED_001_RULES, ids=[r for r, _ in SEED_001_RULES])
    def test_rule_is_stated(self, rule: str, words: str) -> None:
        assert words in self.TEXT, rule



class TestBonusesStated:
    """The book states every bonus and penalty in prose; the sheet gathers them in a table."""

    @pytest.mark.parametrize("name", [*BUNDLED, *HOUSES])
    def test_every_number_of_the_bonus_table_is_in_the_book(self, name: str, tmp_path: Path) -> None:
        from canasta.rulebook.book import bonus_table

        v = _load(name, tmp_path)
        text = describe(v)
        missing = []
        for label, value in bonus_table(v).rows:
            number = value.text.lstrip("\u2212+ ")
            if number[:1].isdigit() and not re.search(rf"\b{re.escape(number)} point", text):
                missing.append(f"{label.text}: {value.text}")
        assert missing == []


class TestWorkedExamples:
    """A worked example where a rule is easy to misread, only where the variant's rules make it true."""

    def test_classic_works_the_hard_rules(self) -> None:
        text = describe(canasta.load_variant("classic"))
        assert "For example, two 9s and a 2 make a meld, but a 9 and two 2s do not" in text  # the wild-card limits
        assert "For example, you need 50 and a king lies on top." in text  # opening by the pile
        assert "Two kings from your hand and the top card make 30; three aces add 60, for 90." in text
        assert "holding a 2. Only two natural kings from your hand take it." in text  # freezing
        assert "Add the king for the canasta, meld the 7s, discard the 9: you are out." in text  # going out

    def test_no_example_where_it_would_be_wrong(self) -> None:
        mac = describe(canasta.load_variant("modern-american"))
        assert "you need" not in mac  # the top card does not count toward its minimum
        assert "you are out" not in mac  # two canastas, and a final discard
        hand_and_foot = describe(canasta.load_variant("hand-and-foot"))
        assert "the pile is frozen, so" not in hand_and_foot  # nothing freezes its pile
        assert "you need" not in describe(canasta.load_variant("brazilian"))  # no opening by the pile

    def test_examples_follow_the_values(self, tmp_path: Path) -> None:
        path = tmp_path / "cheap-kings.yaml"
        path.write_text("extends: classic\nname: cheap-kings\nvalues:\n  king: 5\n", encoding="utf-8")
        text = describe(canasta.load_variant(path))
        assert "Two kings from your hand and the top card make 15; three aces add 60, for 75." in text

    @pytest.mark.parametrize("most", [1, 2, 3, 4])
    def test_the_wild_card_limit_is_worked_as_the_engine_plays_it(self, most: int, tmp_path: Path) -> None:
        """The example of the limit names natural cards that take the most wild cards, and one more refused."""
        from canasta.engine import compile_rules
        from canasta.rulebook.words import num

        path = tmp_path / "wilds.yaml"
        path.write_text(f"extends: classic\nname: wilds\nmelds:\n  max_wilds: {most}\n", encoding="utf-8")
        v = canasta.load_variant(path)
        m = re.search(r"(\w+) 9s may take (\w+) wild cards?, but not (\w+)\.", describe(v))
        assert m is not None
        naturals = next(n for n in range(1, 8) if num(n) == m.group(1).lower())
        assert (m.group(2), m.group(3)) == (num(most), num(most + 1))
        valid = compile_rules(v).valid
        assert valid(9, naturals, most, True) and not valid(9, naturals, most + 1, True)
        assert not valid(9, naturals - 1, most, True)  # the fewest natural cards that take them

    def test_the_sheet_has_no_worked_examples(self) -> None:
        assert "For example" not in quick_reference(canasta.load_variant("classic"))


def test_classic_book_does_not_grow() -> None:
    """The classic book, once 1,615 words and 1,644 with its customs and worked examples, now 1,098, stays there."""
    assert len(describe(canasta.load_variant("classic")).split()) <= 1098
