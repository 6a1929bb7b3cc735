"""The rules in which one variant differs from another.

:func:`difference_sentences` walks the registry in rule-book order and keeps the
sentence of each option that differs and changes play; :func:`describe_diff` renders
them as a short document. The registry is complete here: this module imports
:mod:`~canasta.rulebook.render`, which imports the book and so every sentence module.
"""

from __future__ import annotations

from typing import Any

from canasta.rulebook.blocks import Block, BulletList, Paragraph, RuleBook, Text
from canasta.rulebook.facts import variant_title
from canasta.rulebook.registry import RULES
from canasta.rulebook.render import render
from canasta.variant.model import Variant

_SET_VALUED = frozenset({"wilds.ranks", "deal.upcard_covered_if", "pile.stop_cards"})


def _get(v: Variant, path: str) -> Any:
    obj: Any = v
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _top_paths() -> list[str]:
    return [p for p in RULES if p.count(".") == 1]


def _differs(v: Variant, o: Variant, path: str) -> bool:
    a, b = _get(v, path), _get(o, path)
    if path in _SET_VALUED:
        return set(a) != set(b)
    return bool(a != b)


def differs(variant: Variant, other: Variant, path: str) -> bool:
    """Whether option ``path`` states a different rule in ``variant`` than in ``other``.

    It does when it changes play in ``variant`` and either its value differs or it
    changes no play in ``other`` (the sentence may still be the same for two values:
    :func:`difference_sentences` then leaves it out) (its sentence exists in one book only: the foot,
    wild canastas, a short stock when only one variant draws two).
    """
    rule = RULES[path]
    if not rule.relevant(variant):
        return False
    if not rule.relevant(other):
        return rule.shown(variant)
    return _differs(variant, other, path)


def difference_sentences(variant: Variant, other: Variant) -> list[Text]:
    """The rules of ``variant`` that differ from those of ``other``, in rule-book order.

    Args:
        variant: the rules described.
        other: the rules compared with.

    Returns:
        One sentence per differing option that changes play in ``variant``
        (options stated together give one sentence), see :func:`differs`. A rule
        ``other`` does not have at all is stated whole, not "instead of" anything.
    """
    out: list[Text] = []
    seen: dict[str, int] = {}
    for path in _top_paths():
        rule = RULES[path]
        if not differs(variant, other, path):
            continue
        both = rule.relevant(other) and rule.shown(other)
        if rule.instead is None and both and rule.say(variant) == rule.say(other):
            continue  # a different value, the same rule (e.g. a stop card no one could take anyway)
        if rule.instead is not None and both:
            text = rule.instead(variant, other)
        else:
            text = rule.say(variant)
        if text in seen:
            old = out[seen[text]]
            out[seen[text]] = Text(old.text, (*old.paths, path))
            continue
        seen[text] = len(out)
        out.append(Text(text, (path,)))
    return out


def describe_diff(
    variant: Variant, other: Variant, format: str = "markdown", *, standalone: bool = False
) -> str:
    """State only the rules in which ``variant`` differs from ``other``.

    Args:
        variant: the rules described, e.g. ``load_variant("draw-two")``.
        other: the rules they are compared with, e.g. ``load_variant("classic")``.
        format: ``"markdown"``, ``"rst"`` or ``"html"``.
        standalone: with ``"html"``, a complete page (as for ``canasta.describe``).

    Returns:
        A short document with a title, then one rule per differing option
        ("Draw two cards from the stock instead of one."), in rule-book order.

    Raises:
        CanastaError: ``format`` is unknown.
    """
    sentences = difference_sentences(variant, other)
    title = f"{variant_title(variant)}: differences from {variant_title(other)}"
    if sentences:
        lead = Paragraph((Text(f"The rules of {variant_title(other)} apply, except:"),))
        blocks: tuple[Block, ...] = (lead, BulletList(tuple(Paragraph((s,)) for s in sentences)))
    else:
        blocks = (Paragraph((Text(f"The rules are the same as those of {variant_title(other)}."),)),)
    return render(RuleBook(title, blocks, (), variant), format, standalone=standalone)
