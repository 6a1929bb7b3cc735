"""Tests for canasta.rulebook: rule books, differences and comparisons."""

from __future__ import annotations

import functools
import html.parser
import io
import re
import typing
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import attrs
import docutils.core
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta import cli
from canasta import describe as describe_function
from canasta.rulebook import (
    FORMATS,
    compare,
    describe_diff,
    described_paths,
    difference_sentences,
    option_sentence,
    rule_book,
)
from canasta.rulebook.registry import RULES
from canasta.variant.model import (
    Assumption,
    HeldPenalty,
    OpeningStep,
    RankBonus,
    RankPenalty,
    Source,
    SpecialHand,
    Variant,
    WildBonus,
)
from houses import house_variant
from strategies import variants

BUNDLED = canasta.variant_names()
SKIPPED = ("name", "title", "description", "source", "assumed", "customs")
SECTIONS = (
    "Players and cards", "The deal", "A turn", "Melds and wild cards", "The first meld",
    "Canastas", "The discard pile", "Red and black 3s", "Going out",
    "When the stock runs out", "Scoring", "The end of the game",
)
PLACEHOLDERS = re.compile(r"None|N/A|True|False|[{}]|\w_|_\w")
SLOPPY = (",.", " ,", "  ", "..", " .", ";.", ":.")

#: Strips the note marks from a book, to find a phrase that a mark may interrupt.
NO_MARKS = str.maketrans("", "", "\u2020\u2021\u00b0\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")


def model_paths(cls: type = Variant, prefix: str = "") -> list[str]:
    """Every option path of the model, walking attrs classes and tuples of them."""
    out: list[str] = []
    hints = typing.get_type_hints(cls)
    for f in attrs.fields(cls):
        if not prefix and f.name in SKIPPED:
            continue
        path = f"{prefix}{f.name}"
        tp = hints[f.name]
        inner = get_args(tp)[0] if get_origin(tp) is tuple and get_args(tp) else None
        if attrs.has(tp):
            out.extend(model_paths(tp, path + "."))
        elif inner is not None and isinstance(inner, type) and attrs.has(inner):
            out.append(path)
            out.extend(model_paths(inner, path + "."))
        else:
            out.append(path)
    return out


def safe(v: Variant) -> Variant:
    """``v`` with plain user texts, so that placeholders can only come from the generator."""
    return attrs.evolve(
        v,
        name="house",
        title="House rules",
        description="A test variant.",
        source=Source("Test rules", "a book", ""),
        assumed=tuple(Assumption(a.path, "a test source") for a in v.assumed),
        customs=tuple("The youngest player keeps the score." for _ in v.customs),
        sequences=attrs.evolve(v.sequences, name="samba"),
        canastas=attrs.evolve(v.canastas, wild_name="bolivia"),
        special=attrs.evolve(v.special, hands=tuple(attrs.evolve(h, title="Pairs") for h in v.special.hands)),
    )


def assert_clean(text: str, fmt: str) -> None:
    """No placeholder or leftover markup in generated text (user texts are safe)."""
    found = PLACEHOLDERS.search(text)
    assert found is None, text[max(0, found.start() - 80) : found.end() + 80]
    if fmt != "rst":  # rst tables are indented with runs of spaces
        for sloppy in SLOPPY:
            assert sloppy not in text, (sloppy, text[max(0, text.index(sloppy) - 80) :][:160])


def without_source(text: str) -> str:
    """``text`` without its "Source:" line (bundled file names hold underscores)."""
    return "\n".join(line for line in text.splitlines() if "Source:" not in line)


def rst_errors(text: str) -> str:
    """Warnings docutils reports for ``text`` ('' when it parses cleanly)."""
    stream = io.StringIO()
    docutils.core.publish_doctree(
        text, settings_overrides={"report_level": 2, "halt_level": 5, "warning_stream": stream}
    )
    return stream.getvalue()


class _Tags(html.parser.HTMLParser):
    ALLOWED: typing.ClassVar[set[str]] = {
        "h1", "h2", "p", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td",
        # card faces (canasta.faces): a figure of example melds, a face per card
        "div", "span",
    }

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.seen: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        assert tag in self.ALLOWED, tag
        self.stack.append(tag)
        self.seen.add(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (self.stack, tag)
        self.stack.pop()


def html_tags(text: str) -> set[str]:
    """The tags of an HTML fragment, checked to be allowed and balanced."""
    parser = _Tags()
    parser.feed(text)
    parser.close()
    assert parser.stack == []
    return parser.seen


def alternatives(v: Variant, path: str) -> list[Any]:
    """Other valid values for option ``path`` of ``v``."""
    area, name = path.split(".")[:2]
    cls = type(getattr(v, area))
    field = attrs.fields_dict(cls)[name]
    tp = typing.get_type_hints(cls)[name]
    value = getattr(getattr(v, area), name)
    low = field.metadata.get("minimum") or 0
    if path == "wilds.ranks":
        return [("2",), ("2", "JK", "K"), ()]
    if path == "opening.score_table":
        return [(), value[:-1], (*value[:-1], attrs.evolve(value[-1], minimum=value[-1].minimum + 10))]
    if path == "opening.round_table":
        return [(), (60, 70), (*value, 200)]
    if path == "canastas.rank_bonuses":
        return [(RankBonus("A", "natural", 2500),), (RankBonus("7", "mixed", 1000),)]
    if path == "threes.red_table":
        return [(100, 200, 300, 1000), (150, 300), ()]
    if path in ("going_out.complete_ranks", "melds.late_natural_ranks"):
        return [("A",), ("A", "7"), ()]
    if path == "opening.talons":
        return [x for x in ((4, 3), (5,), ()) if x != value]
    if path == "threes.black_table":
        return [(100, 200, 300, 1000), (150, 300), ()]
    if path in ("melds.no_wild_ranks", "pile.empty_bar_ranks"):
        return [x for x in (("7",), ("7", "A"), ()) if x != value]
    if path == "canastas.wild_mix_bonuses":
        return [(WildBonus("JK", 4, 2500),), (WildBonus("2", 7, 3000),), ()]
    if path == "special.hands":
        return [(SpecialHand(name="pairs", title="Pairs", groups=(2,) * 6),), ()]
    if path == "scoring.incomplete_penalties":
        return [(RankPenalty("A", 2500),), (RankPenalty("7", 1000),), ()]
    if path == "scoring.held_penalties":
        return [(HeldPenalty("A", 3, 1500),), (HeldPenalty("7", 4, 500),), ()]
    if field.metadata.get("rank") and tp is str:
        return [x for x in ("5", "K", "A") if x != value]
    if tp is str:
        return [value + "s", "escalera"]
    if tp is bool:
        return [not value]
    if get_origin(tp) is Literal:
        return [x for x in get_args(tp) if x != value]
    if get_origin(tp) is tuple:  # tuples of card classes
        choices = get_args(get_args(tp)[0])
        return [tuple(c for c in choices if c != x) if x in value else (*value, x) for x in choices]
    if value is None:
        return [max(low, 5), max(low, 1)]
    out = [value + 1]
    if value - 1 >= low:
        out.append(value - 1)
    if get_args(tp):  # optional
        out.append(None)
    return out


def with_option(v: Variant, path: str, value: Any) -> Variant:
    area, name = path.split(".")[:2]
    return attrs.evolve(v, **{area: attrs.evolve(getattr(v, area), **{name: value})})


@functools.cache
def bases() -> list[Variant]:
    """Profiles in which, between them, every option changes play."""
    classic = canasta.load_variant("classic")
    rich = attrs.evolve(
        canasta.load_variant("hand-and-foot"),
        values=attrs.evolve(classic.values, red_three=5),
        threes=attrs.evolve(
            classic.threes, black_meld="always", red_laid_at_once=False, black_out_cards=7,
            red_all_bonus=800,
        ),
        melds=attrs.evolve(
            canasta.load_variant("hand-and-foot").melds, second_wild="by_naturals", max_wilds=3
        ),
        opening=attrs.evolve(classic.opening, concealed_waives=True),
        going_out=attrs.evolve(canasta.load_variant("hand-and-foot").going_out, concealed=True),
        game=attrs.evolve(classic.game, rounds=6),
        foot=attrs.evolve(classic.foot, trigger="empty_hand"),
    )
    samba = canasta.load_variant("samba")
    # sequences that grow without limit and cost a penalty when short, openings
    # that need a canasta and may not take the pile (the Brazilian options)
    steps = (*samba.opening.score_table, OpeningStep(200, 9000, "natural"))
    tiered = attrs.evolve(
        samba,
        sequences=attrs.evolve(samba.sequences, max_size=None, short_size=5, short_penalty=1000),
        opening=attrs.evolve(samba.opening, score_table=steps, pile_allowed=False),
        pile=attrs.evolve(samba.pile, lay_off_after_canasta=False),
    )
    return [
        classic, canasta.load_variant("hand-and-foot"), rich, canasta.load_variant("draw-two"),
        samba, canasta.load_variant("bolivia"), tiered,
        # the Modern American options of issue #15 (black 3s laid out, ...)
        house_variant("mac-options"),
        canasta.load_variant("modern-american"),
    ]


class TestCoverage:
    """Every option of the model has its sentence."""

    def test_every_model_option_has_a_sentence(self) -> None:
        """Walking the attrs fields of Variant finds no option without a sentence."""
        missing = [p for p in model_paths() if p not in described_paths()]
        assert missing == []

    def test_no_sentence_for_an_unknown_option(self) -> None:
        """Every described path is an option of the model."""
        assert sorted(described_paths()) == sorted(model_paths())

    @pytest.mark.parametrize("path", [p for p in model_paths() if p.count(".") == 1])
    def test_changing_an_option_changes_the_rule_book(self, path: str) -> None:
        """Some profile reads differently once the option takes another value."""
        for base in bases():
            text = canasta.describe(base)
            for value in alternatives(base, path):
                if canasta.describe(with_option(base, path, value)) != text:
                    return
        pytest.fail(f"no value of {path} changes any rule book")

    @pytest.mark.parametrize("path", [p for p in model_paths() if p.count(".") == 1])
    def test_changing_an_option_gives_a_difference(self, path: str) -> None:
        """describe_diff states a rule for a changed option that changes play."""
        for base in bases():
            for value in alternatives(base, path):
                changed = with_option(base, path, value)
                texts = difference_sentences(changed, base)
                if any(path in t.paths for t in texts):
                    # Other sentences only for rules the change brings into play (a foot, ...).
                    others = {p for t in texts for p in t.paths} - {path}
                    assert not [p for p in others if RULES[p].relevant(base)], texts
                    return
        pytest.fail(f"no value of {path} gives a difference")

    @pytest.mark.parametrize("path", described_paths())
    def test_option_sentence_is_a_sentence(self, path: str) -> None:
        """option_sentence returns a capitalised sentence ending in a full stop."""
        for v in bases():
            text = option_sentence(v, path)
            assert text[0].isupper() and text.endswith(".")
            assert_clean(text, "markdown")

    def test_unknown_option_sentence(self) -> None:
        """An unknown path raises KeyError."""
        with pytest.raises(KeyError):
            option_sentence(canasta.load_variant("classic"), "melds.nope")


class TestDescribeBundled:
    """Every bundled profile renders in every format."""

    @pytest.mark.parametrize("fmt", FORMATS)
    @pytest.mark.parametrize("name", BUNDLED)
    def test_renders_clean(self, name: str, fmt: str) -> None:
        """The rule book has every section and no placeholder text."""
        text = canasta.describe(canasta.load_variant(name), format=fmt)
        assert_clean(without_source(text), fmt)
        for title in SECTIONS:
            assert title in text

    @pytest.mark.parametrize("name", BUNDLED)
    def test_markdown_structure(self, name: str) -> None:
        """Markdown: one title, a heading per section, pipe tables."""
        v = canasta.load_variant(name)
        text = canasta.describe(v)
        assert text.startswith(f"# {v.title}\n")
        assert text.count("\n# ") == 0
        assert re.search(r"\n## Scoring\S*\n", text)
        assert re.search(r"\| Card \| Points\S* \|", text)

    @pytest.mark.parametrize("name", BUNDLED)
    def test_rst_parses_without_warnings(self, name: str) -> None:
        """reStructuredText: docutils reads it with no warning."""
        text = canasta.describe(canasta.load_variant(name), format="rst")
        assert rst_errors(text) == ""
        assert ".. list-table::" in text

    @pytest.mark.parametrize("name", BUNDLED)
    def test_html_fragment(self, name: str) -> None:
        """HTML: a balanced fragment of headings, paragraphs, lists and tables."""
        v = canasta.load_variant(name)
        text = canasta.describe(v, format="html")
        assert text.startswith(f"<h1>{v.title}</h1>")
        assert {"h1", "h2", "p", "ol", "ul", "table", "th", "td"} <= html_tags(text)

    def test_describe_is_exported(self) -> None:
        """canasta.describe is the public name of the generator."""
        assert "describe" in canasta.__all__
        assert describe_function is canasta.describe

    def test_unknown_format(self) -> None:
        """An unknown format is a ValueError naming the formats."""
        with pytest.raises(ValueError, match="markdown"):
            canasta.describe(canasta.load_variant("classic"), format="pdf")

    def test_foot_section_only_with_a_foot(self) -> None:
        """The foot has its section in Hand and Foot only."""
        assert "## The foot" in canasta.describe(canasta.load_variant("hand-and-foot"))
        assert "foot" not in canasta.describe(canasta.load_variant("classic")).lower()


class TestGenerated:
    """Hypothesis-generated variants render without error or placeholder."""

    @settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(variants())
    def test_any_variant_renders_clean(self, v: Variant) -> None:
        """Every format renders with no placeholder; the HTML is balanced."""
        v = safe(v)
        for fmt in FORMATS:
            text = canasta.describe(v, format=fmt)
            assert_clean(text, fmt)
        html_tags(canasta.describe(v, format="html"))

    @settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(variants())
    def test_any_user_text_is_escaped(self, v: Variant) -> None:
        """Any variant, with titles and sources of any text, parses as clean rst and HTML."""
        assert rst_errors(canasta.describe(v, format="rst")) == ""
        html_tags(canasta.describe(v, format="html"))
        canasta.describe(v)

    @settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(variants(), st.sampled_from(BUNDLED))
    def test_any_difference_renders_clean(self, v: Variant, other: str) -> None:
        """describe_diff against a bundled profile is clean in every format."""
        v = safe(v)
        base = canasta.load_variant(other)
        for fmt in FORMATS:
            assert_clean(without_source(describe_diff(v, base, format=fmt)), fmt)
        assert rst_errors(describe_diff(v, base, format="rst")) == ""


class TestAssumptions:
    """Rules the source text does not fix are marked."""

    def test_classic_marks_assumed_rules(self) -> None:
        """The deck (assumed) has a dagger; the draw (from the text) has none."""
        text = canasta.describe(canasta.load_variant("classic"))
        assert "108 cards.¹" in text
        assert "1. Draw one card from the stock, or take the whole discard pile.\n" in text
        assert "## Notes" in text
        assert "¹ Not in the source text; taken from Pagat classic Canasta." in text

    def test_one_mark_per_source(self) -> None:
        """Two sources get two different marks, each explained once."""
        text = canasta.describe(canasta.load_variant("classic"))
        assert "\n² Not in the source text; taken from Pagat classic Canasta (the classic rule text speaks only of red 3s drawn)." in text
        assert text.count("¹ Not in") == 1

    def test_no_notes_without_assumptions(self) -> None:
        """A variant with nothing assumed has no marks and no notes."""
        v = attrs.evolve(canasta.load_variant("classic"), assumed=())
        text = canasta.describe(v)
        assert "†" not in text and "Notes" not in text

    def test_area_assumption_marks_its_options(self) -> None:
        """Assuming a whole area marks the sentences of its options."""
        v = attrs.evolve(Variant(), assumed=(Assumption("draw", "my club"),))
        text = canasta.describe(v)
        assert "Draw one card from the stock, or take the whole discard pile.¹" in text
        assert "¹ Taken from my club." in text  # no source text: nothing to be "not fixed by"

    def test_html_notes(self) -> None:
        """HTML notes are paragraphs under a Notes heading."""
        text = canasta.describe(canasta.load_variant("hand-and-foot"), format="html")
        assert "<h2>Notes</h2>" in text
        assert "<p>¹ Not in the source text; taken from common Hand and Foot rule sets.</p>" in text


class TestClassicText:
    """The classic rule book reads like a published rule page."""

    TEXT = canasta.describe(canasta.load_variant("classic"))

    @pytest.mark.parametrize(
        "phrase",
        [
            "Four players play in two sides of two, partners sitting opposite.",
            "Use two standard decks with two jokers each: 108 cards.",
            "Jokers and 2s are wild.",
            "Deal eleven cards to each player.",
            "While the top card is a wild card or a red 3, turn up another on it.",
            "1. Draw one card from the stock, or take the whole discard pile",
            "3. Discard one card face up, unless you have gone out by melding every card.",
            "A meld is at least three cards of one rank, at least two of them natural",
            "A meld may hold at most three wild cards.",
            "A side may have only one meld of each rank.",
            "two 9s and a 2 make a meld, but a 9 and two 2s do not",
            "do not. Two 9s may take three wild cards, but not four.",
            "| Below 0 | 15",
            "| 1500 to 2995 | 90",
            "| 3000 or more | 120",
            "the top card and every card you meld from your hand that turn count toward the minimum",
            "count toward the minimum, but never the rest of the pile.",
            "A meld of seven cards or more is a canasta.",
            "A natural canasta scores 500 points and a mixed one 300 points.",
            "frozen for everyone while it holds a wild card or a red 3",
            "and for a side that has not melded",
            "two natural cards of its rank from your hand",
            "holding a 2. Only two natural kings from your hand take it.",
            "By adding: put the top card on your side's meld of its rank (not when the pile is frozen)",
            "No one may take the pile while a wild card or a black 3 lies on top",
            "draw a replacement, as often as needed",
            "If the last stock card is a red 3, lay it: the hand ends at once",
            "all four score 800 points",
            "If a side has not melded when the hand ends, its red 3s count against it.",
            "You may meld black 3s only in the turn you go out: three or four, with no wild card.",
            "You may go out only when your side has a canasta, even one completed that turn.",
            "Go out by melding every card in your hand, or all but one and discarding the last.",
            "Partner, may I go out?",
            "It scores 200 points instead of 100.",
            "If you can take it by adding its top card to your side's meld, you must.",
            "| Joker (wild) | 50",
            "| K, Q, J, 10, 9, 8 | 10",
            "| 7, 6, 5, 4 | 5",
            "Going out scores 100 points.",
            "reaches 5000 points; the highest total wins",
        ],
    )
    def test_phrase(self, phrase: str) -> None:
        """The classic rule book states this rule."""
        assert phrase in self.TEXT.translate(NO_MARKS)


class TestSambaText:
    """The Samba and Bolivia rule books state the sequence rules and their scores."""

    TEXT = canasta.describe(canasta.load_variant("samba")).translate(NO_MARKS)
    BOLIVIA = canasta.describe(canasta.load_variant("bolivia")).translate(NO_MARKS)

    @pytest.mark.parametrize(
        "phrase",
        [
            "Each wild card in a meld needs at least two natural cards beside it. So a meld with one "
            "wild card holds at least two natural cards, and one with two wild cards at least four.",
            "A side may also meld sequences: natural cards of one suit in unbroken rank order, "
            "from the 4 up to the ace at most. Wild cards never join a sequence.",
            "no sequence turns the corner from the ace to a 2",
            "A new sequence is laid with exactly three cards; then cards join it one at a time, at either end.",
            "A side may have several sequences of one suit; they are never joined into one.",
            "A sequence of seven cards is a samba, a canasta: it is complete (closed)",
            "So a samba runs from the 4 to the 10, the 5 to the jack, the 6 to the queen, the 7 to "
            "the king or the 8 to the ace, in any one suit.",
            "A samba counts as a canasta wherever the rules count canastas, and scores a bonus of 1500 points",
            "The top card may also be added at either end of one of the side's sequences of its suit",
            # a black 3 left in hand costs its value, as any card left does
            "less those left in its players' hands.",
            "| Black 3 | 5 |",
        ],
    )
    def test_phrase(self, phrase: str) -> None:
        """The Samba rule book states this rule."""
        assert phrase in self.TEXT

    @pytest.mark.parametrize(
        "phrase",
        [
            "A sequence of seven cards is an escalera, a canasta",
            "at least two canastas, among them at least one escalera",
            "A black 3 left in a hand when the hand ends costs 100 points, counted instead of its value.",
            "An escalera counts as a canasta wherever the rules count canastas, and scores a bonus of 1500 points",
            "a bolivia 2500 points",
        ],
    )
    def test_bolivia_phrase(self, phrase: str) -> None:
        """The Bolivia rule book states this rule."""
        assert phrase in self.BOLIVIA

    def test_window_broken_by_a_wild_rank(self) -> None:
        """A wild rank inside the window splits it, and the example stretches avoid it."""
        v = canasta.load_variant("samba")
        v = attrs.evolve(v, wilds=attrs.evolve(v.wilds, ranks=("2", "JK", "J")))
        text = canasta.describe(v)
        assert "No sequence holds jacks (wild cards and 3s are never part of one), so none runs across it." in text
        assert "So a samba runs from the 4 to the 10, in any one suit." in text

    def test_short_sequences_and_open_growth(self) -> None:
        """Sequences without a limit say so, and a short-sequence penalty is stated and tabled."""
        v = canasta.load_variant("samba")
        v = attrs.evolve(v, sequences=attrs.evolve(v.sequences, max_size=None, short_size=5, short_penalty=1000))
        text = canasta.describe(v)
        assert "A sequence of seven cards or more is a samba, a canasta; it may grow as far as the window allows." in text
        assert "So the shortest samba runs from" in text
        # the scoring section tables its bonuses and penalties; the sentence is the difference's
        assert "Each sequence of fewer than five cards on a side's table when the hand ends costs 1000 points." in [
            t.text for t in difference_sentences(v, canasta.load_variant("samba"))
        ]
        assert "Each sequence of fewer than five cards on a side's table when the hand ends costs 1000 points." in text

    def test_opening_canasta_tiers_and_pile(self) -> None:
        """Canasta tiers of the score table and an opening without the pile are stated."""
        v = canasta.load_variant("samba")
        steps = (*v.opening.score_table, OpeningStep(200, 9000, "natural"))
        steps = (*steps[:-2], attrs.evolve(steps[-2], canasta="any"), steps[-1])
        v = attrs.evolve(v, opening=attrs.evolve(v.opening, score_table=steps, pile_allowed=False))
        text = canasta.describe(v)
        assert ("Besides the minimum count, a side's opening melds must include a complete canasta "
                "when its total score is 7000 to 8995 and a complete natural canasta when it is 9000 "
                "or more.") in text
        assert "A side that has not yet melded may not take the discard pile" in text
        assert "When a side opens by taking the discard pile" not in text
        assert ("| First meld minimum | by score: 15, 50, 90, 120, 160, 200; canasta for 7000 to 8995, "
                "natural canasta for 9000 or more; not from the pile |") in compare([v])


class TestHandAndFootText:
    """The Hand and Foot rule book covers every rule of its source text."""

    TEXT = canasta.describe(canasta.load_variant("hand-and-foot")).translate(NO_MARKS)

    @pytest.mark.parametrize(
        "phrase",
        [
            # 3b, 3c: clockwise, nobody skipped
            "then play goes clockwise",
            # 3d, 3h.iv: the Minimal Starting Points, the pile's top card counting
            "50 in the first hand, 90 in the second, 120 in the third and 150 in the fourth",
            "first melds of a hand, laid in one turn, need a minimum in card values",
            "the top card and every card you meld from your hand that turn count toward the minimum",
            "but never the rest of the pile",
            # 3e, 3g.i: draw two or take the whole pile; play; discard
            "1. Draw two cards from the stock, or take the whole discard pile",
            "To take the pile, meld its top card at once; the rest goes into your hand",
            "3. Discard one card face up.",
            # 3g.ii: one card left in the draw pile; then the pile must be taken
            "A player due to draw two cards who finds fewer in the stock draws what is left.",
            "You must take the pile whenever you can.",
            "The hand ends when a player cannot draw and does not take the pile",
            # 3g.iii: red 3s
            "lay it face up at once and draw a replacement",
            # 3h.i: black 3 on top, the 5-card block
            "No one may take the pile while a wild card or a black 3 lies on top",
            "You may not take the pile when its top card is of the same rank as your side's unfinished meld of five cards or more.",
            # 3h.iii: the exception
            "complete that meld with one or two of them and start a new meld of the rank with two more and the top card",
            # 3h.ii: two naturals, never a wild card
            "With a pair: meld the top card with two natural cards of its rank from your hand",
            "Nothing freezes the discard pile, but it is taken only with a natural pair from the hand",
            # 3i.iv: 3 to 7 cards, wild limits, second wild as 6th/7th card
            "A meld is at least three cards of one rank, at least two of them natural",
            "A meld of one rank may hold at most two wild cards.",
            "A meld of up to five cards may hold only one wild card; a second wild card may join it only as its sixth or seventh card.",
            "A meld may hold at most seven cards",
            "A meld may also be made of wild cards only: three to seven wild cards",
            "do not. Four 9s may take two wild cards, but not three.",
            # 3j: a canasta is made at 7 cards; a new meld of the rank after it
            "A meld of seven cards is a canasta.",
            "once its meld of a rank is complete, it may start another meld of that rank",
            "a mixed (dirty) canasta has five or six natural cards and one or two wild cards",
            # 3j.ii: the foot after the first canasta
            "Once your side has completed its first canasta, each of you may pick up your foot",
            "The player who completed the canasta may do so at once and play on.",
            # 3k.ii: out, but not out
            "A player may also discard their last card without going out: they say “out, but not out” and play on with no cards in hand",
            # 3l.ii: clean, dirty and wild canastas to go out
            "at least one natural (clean) canasta, one mixed (dirty) canasta and one wild canasta",
            "You go out by discarding your last card",
            # 3l.iii: asking the side's advice, which binds nothing
            "may first ask the advice of their side",
            "the advice binds nothing",
            # 3l.iv: the black-3 out
            "seven black 3s and one card to discard, which may be another black 3.",
            "your side scores 1500 points for them",
            "A black 3 left in your hand or foot when the hand ends costs your side 5 points.",
            # the foot and the assumed scoring
            "each player is dealt a foot of eleven cards",
            "a wild canasta 1500 points",
            "A red 3 still in a player's hand or unplayed foot when the hand ends costs their side 100 points.",
            "The game lasts four hands",
        ],
    )
    def test_phrase(self, phrase: str) -> None:
        """The Hand and Foot rule book states this rule of the source text."""
        assert phrase in self.TEXT


class TestShorterGame:
    """A house game of fewer hands than the opening table lists."""

    def test_book_names_only_the_hands_played(self) -> None:
        """Three hands: the book lists three minimums, the comparison too; none for a fourth."""
        from canasta.rulebook.compare import compare
        from canasta.variant.loading import parse_variant

        v = parse_variant({"extends": "hand-and-foot", "name": "three-hands", "game": {"rounds": 3}})
        text = canasta.describe(v)
        assert "50 in the first hand, 90 in the second and 120 in the third." in text
        assert "fourth" not in text.split("Customs")[0] and "150 in" not in text
        row = next(line for line in compare([v, canasta.load_variant("hand-and-foot")]).splitlines()
                   if line.startswith("| First meld minimum"))
        assert "by hand: 50, 90, 120 |" in row and "by hand: 50, 90, 120, 150 |" in row


class TestCustomsAgreeWithTheRules:
    """A table custom that names a meld size the rules give another meaning says how the two fit."""

    def test_six_card_stack_is_not_yet_a_canasta(self) -> None:
        """Hand and Foot rolls a meld up at six cards, yet seven make a canasta: the book says both, and why."""
        v = canasta.load_variant("hand-and-foot")
        assert v.canastas.size == 7 and v.melds.max_size == 7
        book = canasta.describe(v)
        customs = book.split("## At the table", 1)[1]
        [rolled] = [line for line in customs.splitlines() if "rolled up" in line]
        assert "reaches six cards" in rolled
        assert "it is not a canasta yet" in rolled and "its seventh card, which makes it a canasta" in rolled
        assert "A meld of seven cards is a canasta." in book

    @pytest.mark.parametrize("name", canasta.variant_names())
    def test_no_custom_calls_a_smaller_meld_a_canasta(self, name: str) -> None:
        """No custom of a bundled profile speaks of a meld of fewer cards than a canasta without saying it is not one."""
        v = canasta.load_variant(name)
        words = {4: "four", 5: "five", 6: "six"}
        for custom in v.customs:
            for n, word in words.items():
                if n < v.canastas.size and re.search(rf"\b({word}|{n}) cards\b", custom):
                    assert "not a canasta" in custom, custom


class TestDescribeDiff:
    """describe_diff states only what differs, as rules."""

    def test_draw_two(self) -> None:
        """Draw-two against classic: the draw, the lay-off limit, red 3s, the short stock, ties."""
        text = describe_diff(canasta.load_variant("draw-two"), canasta.load_variant("classic"))
        lines = [line[2:] for line in text.splitlines() if line.startswith("- ")]
        assert lines[0] == "Draw two cards from the stock instead of one."
        assert any("not once your side has made a canasta of that rank" in x for x in lines)
        assert any("has completed no canasta" in x for x in lines)
        assert any("the hand ends at once" in x for x in lines)
        assert any("play another hand" in x for x in lines)
        assert len(lines) == 5

    def test_bolivia_against_samba(self) -> None:
        """Bolivia against Samba: wild melds, their name and bonus, the escalera, the opening, black 3s, the contract, the target."""
        text = describe_diff(canasta.load_variant("bolivia"), canasta.load_variant("samba"))
        lines = [line[2:] for line in text.splitlines() if line.startswith("- ")]
        assert lines[0].startswith("A meld may also be made of wild cards only: three to seven wild cards")
        assert lines[1] == "A sequence canasta is called an escalera instead of a samba."
        assert "150 for a score of 7000 or more" in lines[2]
        assert lines[3] == "A wild canasta is called a bolivia."
        assert "a bolivia 2500 points" in lines[4]
        assert lines[5].startswith("A black 3 left in a hand when the hand ends costs 100 points")
        assert "among them at least one escalera" in lines[6]
        assert lines[7] == "The game ends at 15000 points instead of 10000."
        assert len(lines) == 8

    def test_wild_canasta_name(self) -> None:
        """canastas.wild_name: the book names the wild canasta and scores it by that name; a diff says the change."""
        bolivia = canasta.load_variant("bolivia")
        book = canasta.describe(bolivia)
        assert "A wild canasta is called a bolivia." in book
        assert "a bolivia 2500 points" in book
        plain = attrs.evolve(bolivia, canastas=attrs.evolve(bolivia.canastas, wild_name=""))
        assert "called a bolivia" not in canasta.describe(plain)
        assert [t.text for t in difference_sentences(plain, bolivia)] == [
            "A wild canasta has no name of its own (not a bolivia).",
        ]
        named = attrs.evolve(bolivia, canastas=attrs.evolve(bolivia.canastas, wild_name="monster"))
        assert [t.text for t in difference_sentences(named, bolivia)] == [
            "A wild canasta is called a monster instead of a bolivia.",
        ]

    def test_canasta_tier_only(self) -> None:
        """A score table that differs only in its canasta tiers states the tiers, not the minimums."""
        v = canasta.load_variant("samba")
        steps = (*v.opening.score_table[:-1], attrs.evolve(v.opening.score_table[-1], canasta="natural"))
        tiered = attrs.evolve(v, opening=attrs.evolve(v.opening, score_table=steps))
        lines = [t.text for t in difference_sentences(tiered, v)]
        assert lines == [
            "Besides the minimum count, a side's opening melds must include a complete natural "
            "canasta when its total score is 7000 or more. For that, a samba counts as natural. "
            "The opening turn must also end with that natural canasta: no wild card may join the "
            "last one in that turn."
        ]

    def test_rule_book_order(self) -> None:
        """Differences come in rule-book order: players, deal, draw, then going out."""
        text = describe_diff(canasta.load_variant("classic-2p"), canasta.load_variant("classic"))
        assert text.index("two players") < text.index("fifteen cards") < text.index("Draw two")
        assert text.index("Draw two") < text.index("two canastas")

    def test_same_rules(self) -> None:
        """Identical variants have no difference."""
        v = canasta.load_variant("classic")
        assert "The rules are the same as those of Classic partnership Canasta." in describe_diff(v, v)
        assert difference_sentences(v, v) == []

    def test_set_valued_options_compare_as_sets(self) -> None:
        """Stop cards listed in another order are no difference."""
        v = canasta.load_variant("classic")
        w = with_option(v, "pile.stop_cards", ("black_three", "wild"))
        assert difference_sentences(w, v) == []

    def test_irrelevant_option_is_no_difference(self) -> None:
        """The foot's trigger is no rule of a game without a foot."""
        v = canasta.load_variant("classic")
        w = with_option(v, "foot.trigger", "empty_hand")
        assert difference_sentences(w, v) == []

    @pytest.mark.parametrize("fmt", FORMATS)
    def test_formats(self, fmt: str) -> None:
        """Every format carries the title and the sentences."""
        text = describe_diff(canasta.load_variant("draw-two"), canasta.load_variant("classic"), format=fmt)
        assert "differences from Classic partnership Canasta" in text
        assert "Draw two cards from the stock instead of one." in text

    def test_assumed_marks(self) -> None:
        """A difference in an assumed option carries its mark and note."""
        text = describe_diff(canasta.load_variant("draw-two"), canasta.load_variant("classic"))
        assert "†" not in text.split("- Draw two")[1].splitlines()[0]


class TestCompare:
    """compare sets the main rules side by side."""

    def test_bundled(self) -> None:
        """One column per variant, one row per main rule."""
        vs = [canasta.load_variant(n) for n in BUNDLED]
        text = compare(vs)
        header = text.splitlines()[2]
        assert header.startswith("| Rule | Bolivia | Brazilian Canasta | Classic partnership Canasta |")
        assert header.count("|") == len(vs) + 2
        for row in ("Players", "Cards", "Dealt", "Draw", "Melds", "Sequences", "Canastas to go out",
                    "Black 3s", "Going-out bonus", "Game ends at"):
            assert f"\n| {row} |" in text
        # bolivia, brazilian, classic, classic-2p, classic-3p, classic-6p, draw-two, hand-and-foot,
        # hand-and-foot-pagat, modern-american, modern-american-2p, samba, uruguayan
        assert ("| Dealt | 15 | 15 | 11 | 15 | 13 | 13 | 11 | 11 + foot of 11 | 13 + foot of 13 "
                "| 13, no upcard | 15, no upcard | 15 | 11 |") in text
        assert ("| Game ends at | 15000 points | 10000 points | 5000 points | 5000 points | 5000 points | 7500 points "
                "| 5000 points | 4 hands | 4 hands | 8500 points | 8500 points | 10000 points | 5000 points |") in text
        assert ("| Sequences | 4 to A, 3+ cards; escalera at 7 (1500), closed at 7 "
                "| 4 to A, 3+ cards; escalera at 7 (1500), closed at 7 (longer when going out); under 5 cards "
                "\u22121000 | none | none | none "
                "| none | none | none | none | none | none | 4 to A, 3+ cards; samba at 7 (1500), closed at 7 | none |") in text
        assert "| Canastas to go out | 2: 1 escalera | 2 | 1 | 2 |" in text
        assert "| Black 3s | left in hand \u2212100 | left in hand \u2212100 | left in hand: its value |" in text
        assert "2+ natural per wild; several of a rank, combined at will; wild melds of 3 to 7 |" in text
        assert "| laid out like red 3s (1: 100, 2: 300, 3: 500, 4: 1000) |" in text
        assert "| laid out like red 3s (1: 100, 2: 300, 3: 500, 4: 1000); one 3 may be kept for a special hand |" in text
        assert "| 2; must discard | 2 | 1 |" in text

    @pytest.mark.parametrize("fmt", FORMATS)
    def test_formats(self, fmt: str) -> None:
        """Every format renders the table."""
        text = compare([canasta.load_variant("classic"), canasta.load_variant("hand-and-foot")], format=fmt)
        assert_clean(text, fmt)
        if fmt == "rst":
            assert rst_errors(text) == ""
        if fmt == "html":
            assert "table" in html_tags(text)

    def test_empty(self) -> None:
        """Comparing nothing is a ValueError."""
        with pytest.raises(ValueError):
            compare([])


class TestRuleBook:
    """The intermediate document tree."""

    def test_sections_in_order(self) -> None:
        """Sections follow the rule-book order."""
        book = rule_book(canasta.load_variant("hand-and-foot"))
        titles = [s.title for s in book.sections]
        assert titles == [*SECTIONS[:8], "The foot", *SECTIONS[8:], "At the table"]

    def test_sentences_know_their_options(self) -> None:
        """The draw step states draw.count."""
        book = rule_book(canasta.load_variant("classic"))
        turn = next(s for s in book.sections if s.title == "A turn")
        texts = [t for b in turn.blocks for item in getattr(b, "items", ()) for t in item.sentences]
        assert texts[0].paths == ("draw.count",)

    def test_escaping(self) -> None:
        """Markup in a title is escaped in every format."""
        v = attrs.evolve(Variant(), title="<b>*Mine*</b> & [co]_", description="1. first")
        assert canasta.describe(v, format="html").startswith("<h1>&lt;b&gt;*Mine*&lt;/b&gt; &amp; [co]_</h1>")
        md = canasta.describe(v)
        assert md.startswith("# \\<b\\>\\*Mine\\*\\</b\\> \\& \\[co\\]\\_\n")
        assert "\n1\\. first\n" in md
        assert rst_errors(canasta.describe(v, format="rst")) == ""


class TestCli:
    """The rules and compare subcommands."""

    def test_rules(self, capsys: pytest.CaptureFixture[str]) -> None:
        """canasta rules VARIANT prints the Markdown rule book."""
        assert cli.main(["rules", "classic"]) == 0
        out = capsys.readouterr().out
        assert out == canasta.describe(canasta.load_variant("classic"))

    @pytest.mark.parametrize("fmt", FORMATS)
    def test_rules_format(self, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
        """--format picks the output format; HTML is a whole printable page, --fragment the bare book."""
        v = canasta.load_variant("hand-and-foot")
        assert cli.main(["rules", "hand-and-foot", "--format", fmt]) == 0
        assert capsys.readouterr().out == canasta.describe(v, format=fmt, standalone=fmt == "html")
        if fmt == "html":
            assert cli.main(["rules", "hand-and-foot", "--format", "html", "--fragment"]) == 0
            assert capsys.readouterr().out == canasta.describe(v, format="html")

    def test_rules_diff(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--diff OTHER prints only the differences."""
        assert cli.main(["rules", "draw-two", "--diff", "classic"]) == 0
        out = capsys.readouterr().out
        assert "- Draw two cards from the stock instead of one.\n" in out
        assert "## Scoring" not in out

    def test_rules_of_a_file(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """A profile file works like a bundled name."""
        house = tmp_path / "house.yaml"
        house.write_text("extends: classic\ntitle: Club rules\ndraw:\n  count: 2\n", encoding="utf-8")
        assert cli.main(["rules", str(house), "--diff", "classic"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("# Club rules: differences from Classic partnership Canasta\n")

    def test_rules_unknown_variant(self, capsys: pytest.CaptureFixture[str]) -> None:
        """An unknown variant is a failure (exit 1) with a message."""
        assert cli.main(["rules", "nope"]) == 1
        assert "nope" in capsys.readouterr().err

    def test_rules_bad_format(self, capsys: pytest.CaptureFixture[str]) -> None:
        """An unknown format is a usage error (exit 2)."""
        assert cli.main(["rules", "classic", "--format", "pdf"]) == 2
        assert "invalid choice" in capsys.readouterr().err

    def test_compare(self, capsys: pytest.CaptureFixture[str]) -> None:
        """canasta compare prints one column per variant."""
        assert cli.main(["compare", "classic", "hand-and-foot", "--format", "html"]) == 0
        out = capsys.readouterr().out
        assert "<th>Classic partnership Canasta</th><th>Hand and Foot (house rules)</th>" in out

    def test_compare_needs_a_variant(self, capsys: pytest.CaptureFixture[str]) -> None:
        """compare with no variant is a usage error."""
        assert cli.main(["compare"]) == 2
        capsys.readouterr()
