"""Rule books generated from variant profiles.

:func:`describe` turns a :class:`~canasta.variant.model.Variant` into a complete rule
book in plain English, as Markdown, reStructuredText or HTML;
:func:`describe_diff` states only the rules in which one variant differs from
another; :func:`compare` sets the main rules of several variants side by side.

Each option of the model has one sentence (see :func:`option_sentence`) that
states its rule for a given variant, so the text always follows the options.
The rule book is first built as a small document tree (:class:`RuleBook`:
sections of paragraphs, lists and tables, each sentence knowing the option
paths it states) and then rendered. A sentence that states an option the
profile lists under ``assumed`` ends in a note number, with a note naming where the
value comes from.

The parts, each a module of this package:

- ``blocks``: the document tree (:class:`Text`, :class:`Paragraph`,
  :class:`BulletList`, :class:`Table`, :class:`Section`, :class:`RuleBook`);
- ``words``: numbers in words, counts, points, ordinals, plurals, lists;
- ``facts``: facts about a variant that several parts read (partnerships, the
  foot, whether the pile can be taken, the wild cards, the title);
- ``registry``: the sentence of each option and the section titles, with
  :func:`option_sentence` and :func:`described_paths`;
- the sentence modules, by rule area and in rule-book order, each registering
  its sentences: ``deal`` (players and cards, the deal, a turn), ``melds``
  (melds and wild cards, the first meld, canastas), ``pile``, ``threes``,
  ``going_out`` (the foot, going out, the end of the stock) and ``scoring``
  (scoring, the end of the game);
- ``book``: the sections of a rule book (:func:`rule_book`);
- ``render``: Markdown, reStructuredText and HTML (:func:`render`,
  :func:`describe`, :data:`FORMATS`);
- ``sheet``: the one-page quick-reference sheet (:func:`quick_reference`);
- ``diff``: differences between two variants (:func:`difference_sentences`,
  :func:`describe_diff`);
- ``compare``: several variants side by side (:func:`compare`).

The rule book reads only the variant and :mod:`canasta.cards`, and asks the
engine (:func:`canasta.engine.compile_rules`) which example melds are legal.
"""

from __future__ import annotations

from canasta.rulebook.blocks import BulletList, Paragraph, RuleBook, Section, Table, Text
from canasta.rulebook.book import rule_book
from canasta.rulebook.compare import compare
from canasta.rulebook.diff import describe_diff, difference_sentences
from canasta.rulebook.registry import described_paths, option_sentence
from canasta.rulebook.render import FORMATS, describe, render
from canasta.rulebook.sheet import quick_reference

__all__ = [
    "FORMATS",
    "BulletList",
    "Paragraph",
    "RuleBook",
    "Section",
    "Table",
    "Text",
    "compare",
    "describe",
    "describe_diff",
    "described_paths",
    "difference_sentences",
    "option_sentence",
    "quick_reference",
    "render",
    "rule_book",
]
