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
    """

    text: str
    paths: tuple[str, ...] = ()


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


#: Any block of a section: a paragraph, a list or a table.
Block = Paragraph | BulletList | Table


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
    """Whether a block has anything to show: sentences, items or rows."""
    if isinstance(block, Paragraph):
        return bool(block.sentences)
    if isinstance(block, BulletList):
        return bool(block.items)
    return bool(block.rows)
