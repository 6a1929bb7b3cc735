"""The document tree of a rule book: sentences, paragraphs, lists, tables and sections.

A rule book (or a list of differences, or a comparison) is first built as this small
tree, each sentence knowing the option paths it states, and then rendered by
:mod:`canasta.rulebook.render`.
"""

from __future__ import annotations

import attrs

from canasta.variant.model import Variant


@attrs.frozen
class Text:
    """A sentence (or a table cell) and the option paths whose values it states.

    Attributes:
        text: plain text, without markup.
        paths: dotted option paths, e.g. ``("draw.count",)``; a path the variant
            marks as assumed gets the sentence a note mark.
        cards: card notation (``("KS", "QH")``) that the HTML shows as card
            faces before the text, e.g. in the card-value table; the text
            formats leave it out.
    """

    text: str
    paths: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()


@attrs.frozen
class Paragraph:
    """Sentences read one after another.

    Attributes:
        sentences: the sentences, in order.
    """

    sentences: tuple[Text, ...]


@attrs.frozen
class BulletList:
    """A list of items, each a paragraph.

    Attributes:
        items: the items, in order.
        ordered: numbered (the steps of a turn) rather than bulleted.
    """

    items: tuple[Paragraph, ...]
    ordered: bool = False


@attrs.frozen
class Table:
    """A table with a header row.

    Attributes:
        header: the column headings.
        rows: the cells of each row.
    """

    header: tuple[str, ...]
    rows: tuple[tuple[Text, ...], ...]


@attrs.frozen
class Example:
    """A group of cards shown as faces, with its caption: one example meld.

    Attributes:
        cards: card notation, one card each (``("9C", "9D", "2H")``).
        caption: what the cards show, plain text (``"two 9s and a 2: a meld"``).
        ok: ``True`` for an example of what the rules allow, ``False`` for one
            they forbid (drawn with a tick or a cross), ``None`` for neither.
    """

    cards: tuple[str, ...]
    caption: str
    ok: bool | None = None


@attrs.frozen
class Figure:
    """Example melds drawn as card faces.

    Only the HTML (and reStructuredText with pictures, for the documentation)
    draws a figure; it illustrates sentences the text states anyway, so the
    plain formats leave it out.

    Attributes:
        examples: the groups of cards, in order.
    """

    examples: tuple[Example, ...]


#: Any block of a section: a paragraph, a list, a table or a figure.
Block = Paragraph | BulletList | Table | Figure


@attrs.frozen
class Section:
    """A titled part of a rule book.

    Attributes:
        title: the heading.
        blocks: the paragraphs, lists and tables under it.
    """

    title: str
    blocks: tuple[Block, ...]


@attrs.frozen
class RuleBook:
    """A whole document: title, opening blocks and sections.

    Attributes:
        title: the document title.
        intro: blocks between the title and the first section.
        sections: the sections, in order.
        variant: the variant whose ``assumed`` options get note marks.
    """

    title: str
    intro: tuple[Block, ...]
    sections: tuple[Section, ...]
    variant: Variant | None = None


def non_empty(block: Block) -> bool:
    """Whether a block has anything to show: sentences, items, rows or examples."""
    if isinstance(block, Paragraph):
        return bool(block.sentences)
    if isinstance(block, BulletList):
        return bool(block.items)
    if isinstance(block, Figure):
        return bool(block.examples)
    return bool(block.rows)
