"""A one-page quick-reference sheet of a variant (:func:`quick_reference`), HTML to print.

The sheet takes its parts from the rule book (:func:`~canasta.rulebook.book.rule_book`),
so it states the same rules in the same words: the card values, the canastas
and their bonuses, the opening minimums, what freezes the discard pile and how
to take it, and what going out needs, with the example melds and canastas as
card faces. It is laid out in two columns to fit one A4 or Letter page.
"""

from __future__ import annotations

from canasta.rulebook.blocks import Block, Figure, Paragraph, RuleBook, Section, Table, Text
from canasta.rulebook.book import bonus_table, rule_book
from canasta.rulebook.registry import S_CANASTAS, S_MELDS, S_OPENING, S_OUT, S_PILE, S_SCORING
from canasta.rulebook.render import PAGE_STYLE, html_page, render
from canasta.variant.model import Variant

__all__ = ["SHEET_STYLE", "quick_reference", "sheet_book"]

#: The sheet's style sheet: two columns, small type, one page.
SHEET_STYLE = PAGE_STYLE + """\
body { max-width: 60em; font-size: 10.5pt; line-height: 1.3; }
main { columns: 2 22em; column-gap: 1.6em; }
h1 { column-span: all; font-size: 1.45em; margin: 0 0 0.3em; }
h2 { font-size: 1.08em; margin: 0.7em 0 0.3em; }
p, ul { margin: 0.3em 0; }
ul { padding-left: 1.2em; }
h2 + *, section { break-before: avoid; }
table { font-size: 0.95em; }
th, td { padding: 0.1em 0.5em; }
.cf { font-size: 0.82em; }
.cf-figure { margin: 0.2em 0; }
@page { size: A4; margin: 11mm 11mm; }
@media print { body { font-size: 9pt; } }
"""


#: Characters of the sheet's rules (as markdown, without the example melds) above which
#: the example melds are left out, so that the sheet still prints on one page: the
#: examples illustrate, the rules must be there. Printed by Chromium at A4, Brazilian's
#: 3628 fit with the examples; Modern American's 4676 do not.
SHEET_TEXT_BUDGET = 4000


def _blocks(book: RuleBook, title: str) -> tuple[Block, ...]:
    """The blocks of the book's section ``title``, without its worked examples (the sheet states rules only)."""
    blocks = next((s.blocks for s in book.sections if s.title == title), ())
    out: list[Block] = []
    for b in blocks:
        if isinstance(b, Paragraph):
            b = Paragraph(tuple(t for t in b.sentences if not t.text.startswith("For example")))
        if not isinstance(b, Paragraph) or b.sentences:
            out.append(b)
    return tuple(out)


def sheet_book(variant: Variant) -> RuleBook:
    """The quick-reference sheet's document: the rule book's parts a player looks up.

    Args:
        variant: the rules.

    Returns:
        A :class:`~canasta.rulebook.blocks.RuleBook` with sections "Card values",
        "Canastas and bonuses", "The first meld", "The discard pile", "Example
        melds" and "Going out" (without the example melds where the rules alone
        pass :data:`SHEET_TEXT_BUDGET`).
    """
    book = rule_book(variant)
    scoring = _blocks(book, S_SCORING)
    tables = [b for b in scoring if isinstance(b, Table)]
    values = next((t for t in tables if t.header == ("Card", "Points")), None)
    bonuses = bonus_table(variant)
    canastas = _blocks(book, S_CANASTAS)
    sections = [
        Section("Card values", (values,) if values else ()),
        Section("Canastas and bonuses", tuple(b for b in canastas if isinstance(b, Figure))
                + ((bonuses,) if bonuses else ())),
        Section(S_OPENING, _blocks(book, S_OPENING)),
        Section(S_PILE, _blocks(book, S_PILE)),
        Section("Example melds", tuple(b for b in _blocks(book, S_MELDS) if isinstance(b, Figure))),
        Section(S_OUT, _blocks(book, S_OUT)),
    ]
    intro = (Paragraph((Text("The rules you look up during a game. The rule book has the rest."),)),)
    title = f"{book.title}: quick reference"
    rules = tuple(s for s in sections if s.blocks and s.title != "Example melds")
    if len(render(RuleBook(title, intro, rules, variant), "markdown", notes=False)) > SHEET_TEXT_BUDGET:
        return RuleBook(title, intro, rules, variant)
    return RuleBook(title, intro, tuple(s for s in sections if s.blocks), variant)


def quick_reference(variant: Variant) -> str:
    """The quick-reference sheet of ``variant``: a standalone HTML page that prints on one page.

    What ``canasta rules NAME --format sheet`` writes.

    Args:
        variant: the rules.

    Returns:
        The page, ending with a newline.
    """
    book = sheet_book(variant)
    return html_page(book.title, render(book, "html", notes=False), style=SHEET_STYLE)
