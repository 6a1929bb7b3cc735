"""Rendering a document tree as Markdown, reStructuredText or HTML.

:func:`render` writes any :class:`~canasta.rulebook.blocks.RuleBook`;
:func:`describe` builds a variant's rule book and renders it. A sentence that states
an option the profile lists under ``assumed`` ends in one numbered mark (¹, ², …), with a
note naming where the value comes from.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Mapping
from typing import Literal

from canasta.faces import CARD_STYLE, cards_html
from canasta.rulebook.blocks import (
    Block,
    BulletList,
    Figure,
    Paragraph,
    RuleBook,
    Table,
    Text,
    non_empty,
)
from canasta.rulebook.book import rule_book
from canasta.rulebook.words import clean
from canasta.variant.model import Variant

#: An output format, as a type.
Format = Literal["markdown", "rst", "html"]
#: The output formats :func:`describe`, :func:`describe_diff` and :func:`compare` accept.
FORMATS: tuple[str, ...] = ("markdown", "rst", "html")


#: The superscript digits that number the notes.
_SUPERSCRIPT = str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
#: The mark of a rule the source text fixes, under a heading whose mark covers the rest.
FIXED_MARK = "\u00b0"
#: How an ``assumed`` source names classic Canasta, and what its note calls it: the
#: classic rule text (the classic book's own source) or the classic game. Their notes
#: say "not in the source text", apart from the notes of other sources.
CLASSIC_SOURCES = {
    "the classic text": "the classic rule text",
    "the classic rule text": "the classic rule text",
    "classic": "classic Canasta",
}
#: How an ``assumed`` source names Pagat's page on classic Canasta, and that page's address.
#: A book whose own source is that page (its games for two and three) takes these rules from
#: the page's four-player game, not from another source.
PAGAT_CLASSIC = "Pagat classic Canasta"
PAGAT_CLASSIC_URL = "https://www.pagat.com/rummy/canasta.html"


def note_mark(n: int) -> str:
    """The mark of the ``n``-th note: ``n`` as superscript digits (one mark per note, never two run together)."""
    return str(n).translate(_SUPERSCRIPT)


_PLAIN_DIGITS = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079", "0123456789")


def mark_after(text: str, mark: str) -> str:
    """``mark`` as it follows ``text``: apart, in words, after a number.

    Superscript digits right after a number read as a power ("5\u00b9\u2070"), and the
    mark of a fixed rule as degrees; after a digit the mark is written out instead:
    ``"5 (note 10)"``, ``"5 (\u00b0)"``. Anywhere else it is returned as it is.
    """
    if not mark or not text[-1:].isdigit():
        return mark
    if mark == FIXED_MARK:
        return f" ({FIXED_MARK})"
    return f" (note {mark.translate(_PLAIN_DIGITS)})"


def _classic_source(source: str) -> str | None:
    """``source`` with classic Canasta named as a note names it, or ``None`` for another source."""
    low = source.lower()
    for name, said in CLASSIC_SOURCES.items():
        if low == name or low.startswith((name + " (", name + ",", name + ";", name + ":")):
            return said + source[len(name):]
    return None


class _Notes:
    """One numbered note for each set of sources a sentence draws on, so a sentence carries one mark."""

    def __init__(self, variant: Variant | None) -> None:
        self.variant = variant
        self.marks: dict[tuple[str, ...], str] = {}
        self.headed = False  # some heading carries a mark
        self.fixed = False  # some rule under a marked heading carries FIXED_MARK

    def source_of(self, path: str) -> str | None:
        if self.variant is None or not self.variant.is_assumed(path):
            return None
        for a in self.variant.assumed:
            if path == a.path or path.startswith(a.path + "."):
                return clean(a.source) or "a usual rule set"
        return None

    def mark(self, text: Text) -> str:
        found = tuple(dict.fromkeys(s for s in map(self.source_of, text.paths) if s is not None))
        # "Pagat" beside "Pagat (also Bicycle)" says the same twice: the longer one is enough
        sources = tuple(s for s in found if not any(o != s and o.startswith(s) for o in found))
        if not sources:
            return ""
        if sources not in self.marks:
            self.marks[sources] = note_mark(len(self.marks) + 1)
        return self.marks[sources]

    def notes(self) -> list[str]:
        if not self.marks:
            return []
        cited = self.variant is not None and bool(
            clean(self.variant.source.title) or clean(self.variant.source.reference) or clean(self.variant.source.url)
        )
        lead: list[str] = []
        if self.headed:
            lead.append("A mark on a heading covers its section, unless marked otherwise.")
        same_page = self.variant is not None and clean(self.variant.source.url) == PAGAT_CLASSIC_URL
        out = lead + [f"{mark} {self._note(sources, cited, same_page)}" for sources, mark in self.marks.items()]
        if self.fixed:
            out.append(
                f"{FIXED_MARK} Fixed by the source text." if cited
                else f"{FIXED_MARK} Not taken from the sources these notes name."
            )
        return out

    @staticmethod
    def _note(sources: tuple[str, ...], cited: bool, same_page: bool = False) -> str:
        """The text of the note on ``sources``: what the source text leaves open, and where each value comes from.

        A value from the classic rule text is said so apart from one from another source;
        a value read between the lines of the source text itself is said so too. With
        ``same_page``, the book's source is Pagat's classic page, so a value from that page
        comes from the source's four-player game.
        """
        inferred: list[str] = []
        taken: list[str] = []
        for source in sources:
            source = source.rstrip(".")
            # A profile may say that a value comes from its own source, read between the lines;
            # "not fixed by the source text; taken from the source" would contradict itself.
            low = source.lower()
            if same_page and low.startswith(PAGAT_CLASSIC.lower()):
                inferred.append(
                    "Not in the source's rules for this game; taken from its four-player game"
                    f"{source[len(PAGAT_CLASSIC):]}."
                )
                continue
            if low == "the source" or low.startswith(("the source (", "the source,", "the source;")):
                inferred.append(f"Not said in so many words by the source text; inferred from it{source[10:]}.")
                continue
            named = _classic_source(source)
            taken.append(source if named is None else named)
        if taken:
            lead = "Not in the source text; taken from" if cited else "Taken from"
            inferred.append(f"{lead} {'; and from '.join(taken)}.")
        return " ".join(inferred)


def _texts(block: Block) -> list[Text]:
    if isinstance(block, Paragraph):
        return list(block.sentences)
    if isinstance(block, BulletList):
        return [t for item in block.items for t in item.sentences]
    if isinstance(block, Figure):
        return []
    return [t for row in block.rows for t in row]


class _Renderer:
    """Shared walk over a document; subclasses write one format."""

    def __init__(self, notes: _Notes, pictures: bool = False) -> None:
        self.notes = notes
        self.cover = ""  # the mark on the heading above, which covers the rules under it
        self.pictures = pictures
        variant = notes.variant
        self.wild_ranks: tuple[str, ...] = variant.wilds.ranks if variant is not None else ()

    def text(self, t: Text) -> str:
        faces = self.faces(t.cards) if self.pictures and t.cards else ""
        return faces + self.escape(t.text) + mark_after(t.text, self.mark(t))

    def mark(self, t: Text) -> str:
        """The marks ``t`` carries where it stands: none where the heading's mark covers it."""
        mark = self.notes.mark(t)
        if not self.cover or not t.paths:
            return mark if not self.cover else ""
        if mark == self.cover:
            return ""
        if not mark:
            self.notes.fixed = True
            return FIXED_MARK
        return mark

    def faces(self, cards: tuple[str, ...]) -> str:
        """Card faces before a text (only formats that draw pictures)."""
        return ""

    def figure_html(self, f: Figure) -> str:
        """A figure as one line of HTML: each example's faces over its caption."""
        parts = []
        for ex in f.examples:
            state = {True: " cfx-ok", False: " cfx-no", None: ""}[ex.ok]
            parts.append(
                f'<span class="cfx{state}">{cards_html(ex.cards, self.wild_ranks)}'
                f'<span class="cfx-cap">{html.escape(ex.caption, quote=True)}</span></span>'
            )
        return f'<div class="cf-figure">{"".join(parts)}</div>'

    def figure_block(self, f: Figure) -> str:
        """A figure; formats without pictures leave it out (the empty string)."""
        return ""

    def paragraph(self, p: Paragraph) -> str:
        return " ".join(self.text(t) for t in p.sentences)

    def common_mark(self, texts: list[Text]) -> str:
        """The mark for a heading over ``texts``: one that at least three quarters of their rules carry (two at least).

        The rules without it then show their own marks, or :data:`FIXED_MARK`
        when the source fixes them, so one mark on the heading replaces a mark
        on nearly every sentence or cell without covering the exceptions.
        """
        marks = [self.notes.mark(t) for t in texts if t.paths]
        best = ""
        best_n = 0
        for m in dict.fromkeys(marks):
            n = marks.count(m)
            if m and n > best_n:
                best, best_n = m, n
        if best_n < 2 or 4 * best_n < 3 * len(marks):
            return ""
        return best

    def escape(self, text: str) -> str:
        raise NotImplementedError

    def render(self, book: RuleBook) -> str:
        parts = [self.heading(book.title, 1)]
        parts += [text for text in (self.block(b) for b in book.intro if non_empty(b)) if text]
        for section in book.sections:
            blocks = [b for b in section.blocks if non_empty(b)]
            mark = self.common_mark([t for b in blocks for t in _texts(b)])
            self.notes.headed |= bool(mark)
            parts.append(self.heading(section.title, 2, mark))
            self.cover = mark
            parts += [text for text in (self.block(b) for b in blocks) if text]
            self.cover = ""
        notes = self.notes.notes()
        if notes:
            parts.append(self.heading("Notes", 2))
            parts += [self.block(Paragraph((Text(n),))) for n in notes]
        return self.join(parts)

    def join(self, parts: list[str]) -> str:
        return "\n\n".join(parts) + "\n"

    def block(self, b: Block) -> str:
        if isinstance(b, Paragraph):
            return self.para_block(b)
        if isinstance(b, BulletList):
            return self.list_block(b)
        if isinstance(b, Figure):
            return self.figure_block(b)
        return self.table_block(b)

    def heading(self, title: str, level: int, mark: str = "") -> str:
        raise NotImplementedError

    def table_marks(self, t: Table) -> tuple[str, ...]:
        """The header cells, the last one marked when most cells of the table carry the same mark (see :meth:`common_mark`)."""
        mark = "" if self.cover else self.common_mark([c for row in t.rows for c in row])
        self.notes.headed |= bool(mark)
        header = [self.escape(h) for h in t.header]
        header[-1] += mark
        return tuple(header)

    def table_rows(self, t: Table) -> tuple[tuple[str, ...], ...]:
        cover = self.cover
        self.cover = cover or self.common_mark([c for row in t.rows for c in row])
        try:
            return tuple(tuple(self.text(c) for c in row) for row in t.rows)
        finally:
            self.cover = cover

    def para_block(self, p: Paragraph) -> str:
        raise NotImplementedError

    def list_block(self, b: BulletList) -> str:
        raise NotImplementedError

    def table_block(self, t: Table) -> str:
        raise NotImplementedError


_MD_SPECIAL = set("\\`*_[]<>|#&!")


class _Markdown(_Renderer):
    def escape(self, text: str) -> str:
        return "".join("\\" + c if c in _MD_SPECIAL else c for c in text)

    def line_start(self, text: str) -> str:
        # "1. ", "- ", "+ ", "= ", "> " at the start of a line would start a list, a heading or a quote.
        if text[:1] in ("-", "+", "=", ">", "~") or text[:1].isdigit():
            return "\\" + text if not text[:1].isdigit() else _md_digit(text)
        return text

    def heading(self, title: str, level: int, mark: str = "") -> str:
        return "#" * level + " " + self.escape(title) + mark

    def para_block(self, p: Paragraph) -> str:
        return self.line_start(self.paragraph(p))

    def list_block(self, b: BulletList) -> str:
        lines = []
        for i, item in enumerate(b.items, 1):
            bullet = f"{i}." if b.ordered else "-"
            lines.append(f"{bullet} {self.paragraph(item)}")
        return "\n".join(lines)

    def table_block(self, t: Table) -> str:
        lines = [
            "| " + " | ".join(self.table_marks(t)) + " |",
            "|" + "|".join(" --- " for _ in t.header) + "|",
        ]
        for row in self.table_rows(t):
            lines.append("| " + " | ".join(row) + " |")
        return "\n".join(lines)


def _md_digit(text: str) -> str:
    # Escape the dot or parenthesis after leading digits: "1\. foo" is not a list item.
    i = 0
    while i < len(text) and text[i].isdigit():
        i += 1
    if i < len(text) and text[i] in ".)":
        return text[:i] + "\\" + text[i:]
    return text


_RST_SPECIAL = set("\\`*_|")
# A paragraph starting like a list item, an enumerator ("A. Smith", "(iv) ", "1) "),
# a comment or a field would be read as markup.
_RST_RISKY_START = re.compile(r"[^A-Za-z]|[A-Za-z]{1,5}[.)](\s|$)")


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


class _Rst(_Renderer):
    def escape(self, text: str) -> str:
        escaped = "".join("\\" + c if c in _RST_SPECIAL else c for c in text)
        return escaped.replace("::", ":\\:")

    def line_start(self, text: str) -> str:
        # Escaping the first character keeps docutils from reading a list, a
        # comment or an enumerator into the text. Card faces (the raw-html role) are markup on purpose.
        if text and text[0] != "\\" and not text.startswith(":raw-html:`") and _RST_RISKY_START.match(text):
            return "\\" + text
        return text

    def faces(self, cards: tuple[str, ...]) -> str:
        return f":raw-html:`{cards_html(cards, self.wild_ranks)}` "

    def figure_block(self, f: Figure) -> str:
        if not self.pictures:
            return ""
        return ".. raw:: html\n\n   " + self.figure_html(f)

    def render(self, book: RuleBook) -> str:
        text = super().render(book)
        if not self.pictures:
            return text
        # The role that lets a table cell hold card faces (docutils' raw role, HTML only).
        return ".. role:: raw-html(raw)\n   :format: html\n\n" + text

    def heading(self, title: str, level: int, mark: str = "") -> str:
        text = self.line_start(self.escape(title)) + mark
        line = ("=" if level == 1 else "-") * max(4, _width(text))
        return f"{text}\n{line}"

    def para_block(self, p: Paragraph) -> str:
        return self.line_start(self.paragraph(p))

    def list_block(self, b: BulletList) -> str:
        lines = []
        for item in b.items:
            bullet = "#." if b.ordered else "-"
            lines.append(f"{bullet} {self.paragraph(item)}")
        return "\n".join(lines)

    def table_block(self, t: Table) -> str:
        lines = [".. list-table::", "   :header-rows: 1", ""]
        for row in (self.table_marks(t), *self.table_rows(t)):
            for j, text in enumerate(row):
                prefix = "   * - " if j == 0 else "     - "
                lines.append(prefix + self.line_start(text))
        return "\n".join(lines)


class _Html(_Renderer):
    def __init__(self, notes: _Notes, pictures: bool = True) -> None:
        super().__init__(notes, pictures)

    def escape(self, text: str) -> str:
        return html.escape(text, quote=True)

    def faces(self, cards: tuple[str, ...]) -> str:
        return cards_html(cards, self.wild_ranks) + " "

    def figure_block(self, f: Figure) -> str:
        return self.figure_html(f) if self.pictures else ""

    def heading(self, title: str, level: int, mark: str = "") -> str:
        return f"<h{level}>{self.escape(title)}{mark}</h{level}>"

    def para_block(self, p: Paragraph) -> str:
        return f"<p>{self.paragraph(p)}</p>"

    def list_block(self, b: BulletList) -> str:
        tag = "ol" if b.ordered else "ul"
        items = "\n".join(f"<li>{self.paragraph(item)}</li>" for item in b.items)
        return f"<{tag}>\n{items}\n</{tag}>"

    def table_block(self, t: Table) -> str:
        head = "".join(f"<th>{h}</th>" for h in self.table_marks(t))
        body = "\n".join(
            "<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in self.table_rows(t)
        )
        return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"

    def join(self, parts: list[str]) -> str:
        return "\n".join(parts) + "\n"


_RENDERERS: Mapping[str, type[_Renderer]] = {"markdown": _Markdown, "rst": _Rst, "html": _Html}

#: The style sheet of a standalone page: readable on screen, one clean column on paper.
PAGE_STYLE = """\
body { font-family: Georgia, "Times New Roman", serif; line-height: 1.45; color: #111;
       max-width: 42em; margin: 2em auto; padding: 0 1em; }
h1 { font-size: 1.7em; margin-bottom: 0.4em; }
h2 { font-size: 1.25em; margin-top: 1.4em; border-bottom: 1px solid #999; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #999; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
td + td, th + th { text-align: right; white-space: nowrap; }
@page { size: A4; margin: 18mm 16mm; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 11pt; }
  h1, h2 { break-after: avoid; page-break-after: avoid; }
  table, tr, li { break-inside: avoid; page-break-inside: avoid; }
  p { orphans: 3; widows: 3; }
}
"""


def html_page(title: str, body: str, style: str = PAGE_STYLE) -> str:
    """A complete HTML page around a fragment: charset, ``<title>`` and a print style sheet.

    Args:
        title: the page title, plain text.
        body: the HTML fragment, e.g. from :func:`render` with ``format="html"``.
        style: the page's style sheet (default :data:`PAGE_STYLE`); the card
            faces' style (:data:`canasta.faces.CARD_STYLE`) is added to it.

    Returns:
        The page, ending with a newline.
    """
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title, quote=True)}</title>\n"
        f"<style>\n{style}{CARD_STYLE}</style>\n</head>\n<body>\n<main>\n{body}</main>\n</body>\n</html>\n"
    )


def render(book: RuleBook, format: str = "markdown", *, standalone: bool = False,
           pictures: bool | None = None, notes: bool = True) -> str:
    """Render a document tree as text.

    Args:
        book: the document, e.g. from :func:`rule_book`.
        format: ``"markdown"``, ``"rst"`` or ``"html"`` (a fragment: ``<h1>``,
            ``<h2>``, ``<p>``, ``<ul>``, ``<ol>`` and ``<table>`` elements, and
            ``<div>`` and ``<span>`` for card faces).
        standalone: with ``"html"``, a complete page instead of a fragment
            (:func:`html_page`: charset, title, a print style sheet); other
            formats are always complete documents and ignore it.
        pictures: draw example melds and the cards of the value table as card
            faces (:mod:`canasta.faces`; a page needs its ``CARD_STYLE``).
            ``None``, the default, means yes for ``"html"`` and no for the
            text formats; with ``"rst"`` the faces are raw HTML, for Sphinx.
            Markdown never has pictures.
        notes: mark the sentences that state assumed options and explain the
            marks in a final "Notes" section (``False``: no marks, no notes).

    Returns:
        The text, ending with a newline. Sentences stating an assumed option
        end with a mark (†, ‡ …) explained in a final "Notes" section.

    Raises:
        CanastaError: ``format`` is not one of :data:`FORMATS` (a ``ValueError`` too).
    """
    cls = _RENDERERS.get(format)
    if cls is None:
        from canasta.errors import CanastaError

        raise CanastaError(f"unknown format {format!r}: expected one of {', '.join(FORMATS)}")
    marks = _Notes(book.variant if notes else None)
    renderer = cls(marks) if pictures is None else cls(marks, pictures and format != "markdown")
    renderer.wild_ranks = book.variant.wilds.ranks if book.variant is not None else ()
    text = renderer.render(book)
    if standalone and format == "html":
        return html_page(book.title, text)
    return text


def describe(variant: Variant, format: str = "markdown", *, standalone: bool = False,
             pictures: bool | None = None) -> str:
    """Return the complete rule book of ``variant`` in plain English.

    Args:
        variant: the rules, e.g. ``canasta.load_variant("classic")``.
        format: ``"markdown"``, ``"rst"`` or ``"html"``.
        standalone: with ``"html"``, a complete printable page rather than a
            fragment to embed (what ``canasta rules X --format html`` writes).
        pictures: card faces in the text (see ``canasta.rulebook.render``); by default in
            HTML only.

    Returns:
        The rule book, with its title and source, then players and cards, the
        deal, a turn, melds, the first meld, canastas, the discard pile, red
        and black 3s, the foot, going out, the end of the stock, scoring and
        the end of the game. Rules the source text does not fix are marked and
        explained in notes.

    Raises:
        CanastaError: ``format`` is unknown.
    """
    return render(rule_book(variant), format, standalone=standalone, pictures=pictures)
