"""Building a variant's rule book as a document tree (:func:`rule_book`).

Each section takes the sentences of its rule area from the registry, in registry
order (merging the options one sentence states), and arranges them in paragraphs,
lists and tables, with the few sentences no single option states. Importing
:mod:`~canasta.rulebook.scoring`, the last sentence module, registers every rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from canasta.rulebook.blocks import (
    Block,
    BulletList,
    Example,
    Figure,
    Paragraph,
    RuleBook,
    Section,
    Table,
    Text,
    non_empty,
)
from canasta.rulebook.canastas import effective_rank_bonuses, mixed_possible, say_kinds
from canasta.rulebook.examples import (
    canasta_figure,
    canasta_of,
    frozen_example,
    lays_as_meld,
    meld_examples,
    meld_figure,
    of_rank,
    out_example,
    second_wild_example,
    some,
    usable_wilds,
    wild_meld_example,
)
from canasta.rulebook.facts import red_table_steps, variant_title
from canasta.rulebook.melds import (
    a_an,
    new_size,
    sequence_canasta_possible,
    sequence_example,
    sequence_name,
    sequence_runs,
)
from canasta.rulebook.opening import (
    minimum_text,
    opening_example,
    opening_lead,
    score_rows,
    score_steps,
)
from canasta.rulebook.pile import empty_bar_names, say_take
from canasta.rulebook.registry import (
    RULES,
    S_CANASTAS,
    S_DEAL,
    S_FOOT,
    S_GAME,
    S_MELDS,
    S_OPENING,
    S_OUT,
    S_PILE,
    S_PLAYERS,
    S_SCORING,
    S_STOCK,
    S_THREES,
    S_TURN,
)
from canasta.rulebook.scoring import RANK_OF_VALUE, VALUE_ROWS, incomplete_rows
from canasta.rulebook.special import special_section
from canasta.rulebook.summary import summary
from canasta.rulebook.threes import red_can_be_held, say_black_discard, say_black_held
from canasta.rulebook.words import cap, clean, count, join, num, pts, rank_plural
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant


def _t(v: Variant, paths: str, text: str | None = None) -> Text:
    """The sentence of the first of ``paths`` (or ``text``), stating all of them."""
    names = tuple(paths.split())
    return Text(text if text is not None else RULES[names[0]].say(v), names)


def _shown(v: Variant, section: str) -> list[Text]:
    """The sentences of ``section`` that the rule book states, duplicates merged."""
    out: list[Text] = []
    index: dict[str, int] = {}
    for path, rule in RULES.items():
        if rule.section != section:
            continue
        text = rule.say(v)
        if text in index:
            if rule.relevant(v):
                old = out[index[text]]
                out[index[text]] = Text(old.text, (*old.paths, path))
        elif rule.shown(v):
            index[text] = len(out)
            out.append(Text(text, (path,)))
    return out


def _take(texts: list[Text], *paths: str) -> list[Text]:
    """Remove and return the sentences stating any of ``paths``."""
    got = [t for t in texts if any(p in t.paths for p in paths)]
    for t in got:
        texts.remove(t)
    return got


def _para(*texts: Text | Iterable[Text]) -> Paragraph:
    flat: list[Text] = []
    for t in texts:
        if isinstance(t, Text):
            flat.append(t)
        else:
            flat.extend(t)
    return Paragraph(tuple(flat))


def _players_section(v: Variant) -> Section:
    texts = _shown(v, S_PLAYERS)
    blocks: list[Block] = [_para(texts)]
    return Section(S_PLAYERS, tuple(blocks))


def _deal_section(v: Variant) -> Section:
    texts = _shown(v, S_DEAL)
    texts.append(Text("The deal passes to the left."))
    return Section(S_DEAL, (_para(texts),))


def _turn_section(v: Variant) -> Section:
    side = "your side's" if meanings(v).partnerships else "your"
    steps = [Paragraph((_t(v, "draw.count"),))]
    play = f"If you wish, lay down new melds and add cards to {side} melds"
    if meanings(v).has_foot:
        play += " (and pick up your foot, once you may)"
    steps.append(Paragraph((Text(play + "."),)))
    if v.going_out.final_discard == "optional":
        discard = Text(
            "Discard one card face up, unless you have gone out by melding every card.",
            ("going_out.final_discard",),
        )
    else:
        discard = Text("Discard one card face up.")
    steps.append(Paragraph((discard,)))
    first = Text("The player to the dealer's left plays first; then play goes clockwise. On your turn:")
    three = "a 3" if v.threes.black_laid_at_once else "a red 3"
    blocks: list[Block] = [_para(first), BulletList(tuple(steps), ordered=True)]
    if v.pile.wild_discard != "always" or empty_bar_names(v):
        blocks.append(_para(Text(
            f"You may never discard {three}. Other limits on what you may discard are under \u201cThe discard pile\u201d."
        )))
    # otherwise the 3s section's "never melded or discarded" is the only limit, said once there
    return Section(S_TURN, tuple(blocks))


def _after(texts: list[Text], path: str) -> int:
    """The index just after the last sentence stating ``path`` (the end when none does)."""
    found = [i + 1 for i, t in enumerate(texts) if path in t.paths]
    return found[-1] if found else len(texts)


def _melds_section(v: Variant) -> Section:
    texts = _shown(v, S_MELDS)
    # Each example follows the rule it shows, so a reader meets the rule and its case together.
    examples = meld_examples(v)
    if examples:
        texts.insert(_after(texts, "melds.max_wilds"), Text(examples, ("melds.min_naturals", "melds.max_wilds")))
    second = second_wild_example(v)
    if second:
        path = "melds.second_wild_size" if v.melds.second_wild == "by_size" else "melds.second_wild_naturals"
        texts.insert(_after(texts, "melds.second_wild"), Text(second, ("melds.second_wild", path)))
    wild = wild_meld_example(v)
    if wild:
        texts.insert(_after(texts, "melds.wild_melds"), Text(wild, ("melds.wild_melds", "melds.wild_meld_max")))
    sequences = _take(texts, *_SEQUENCE_PATHS)
    # one paragraph for what a meld is, one for its wild cards, one for melds of wild cards only
    wild_melds = [t for t in texts if _WILD_MELD_PATHS & set(t.paths)]
    wild_melds.sort(key=lambda t: "melds.wild_meld_lock" in t.paths)  # what such a meld is, first
    wilds = [t for t in texts if _WILD_PATHS & set(t.paths) and t not in wild_melds]
    plain = [t for t in texts if t not in wilds and t not in wild_melds]
    blocks: list[Block] = [_para(p) for p in (plain, wilds, wild_melds) if p]
    figure = meld_figure(v)
    if figure is not None:
        blocks.append(figure)
    blocks += _sequence_blocks(v, sequences)
    if v.threes.black_meld == "never":
        # otherwise the 3s' own section says when black 3s are melded
        blocks.append(_para(Text("Red 3s and black 3s are never melded.")))
    return Section(S_MELDS, tuple(blocks))


#: The options whose sentences make the paragraph on wild cards in melds of a rank.
_WILD_PATHS = {
    "melds.max_wilds", "melds.no_wild_ranks", "melds.wilds_at_most_naturals", "melds.naturals_per_wild",
    "melds.second_wild", "melds.second_wild_size", "melds.second_wild_naturals",
    "melds.late_wild_naturals", "melds.late_natural_ranks",
}
#: The options whose sentences make the paragraph on melds of wild cards only.
_WILD_MELD_PATHS = {"melds.wild_melds", "melds.wild_meld_max", "melds.wild_meld_lock"}

#: The options whose sentences make the paragraph on sequences in the melds section.
_SEQUENCE_PATHS = (
    "sequences.allowed", "sequences.low", "sequences.high", "sequences.min_size", "sequences.join", "sequences.wild_in_gap",
    "sequences.canasta_size", "sequences.max_size", "sequences.name", "sequences.grow_when_going_out",
)


def _sequence_cards(v: Variant, n: int) -> tuple[str, ...] | None:
    """``n`` hearts in a row from the window's longest stretch (starting at the 7 where it fits), or ``None``."""
    from canasta.cards import RANK_NAMES

    run = max(sequence_runs(v), key=lambda r: r[1] - r[0], default=None)
    if run is None or run[1] - run[0] + 1 < n:
        return None
    start = max(run[0], min(7, run[1] - n + 1))
    return tuple(RANK_NAMES[k] + "H" for k in range(start, start + n))


def _wild_in_sequence(v: Variant, new: tuple[str, ...]) -> list[Example]:
    """A new sequence ``new`` with a wild card for one of its cards: at its end, never a meld, and
    (where ``sequences.wild_in_gap`` allows it) between two natural cards, a meld."""
    wilds = usable_wilds(v)
    if not wilds:
        return []
    wild = of_rank(wilds[0], 1)[0]
    at_end = (*new[:-1], wild)
    inside = (new[0], wild, *new[2:])
    if lays_as_meld(v, at_end):
        return []
    if len(new) >= 3 and lays_as_meld(v, inside):
        return [
            Example(inside, "A wild card for a missing rank between two natural cards", True),
            Example(at_end, "A wild card at an end of a sequence: not a meld", False),
        ]
    return [Example(at_end, "A wild card in a sequence: not a meld", False)]


def _sequence_blocks(v: Variant, texts: list[Text]) -> list[Block]:
    """The paragraph on sequences, with the stretches a sequence canasta may run through, and its figure."""
    if not v.sequences.allowed:
        return []
    example = sequence_example(v)
    # growing past the closing size when going out comes after the sizes' example
    grow = _take(texts, "sequences.grow_when_going_out")
    if example:
        texts.append(Text(example, ("sequences.canasta_size", "sequences.low", "sequences.high")))
    texts += grow
    blocks: list[Block] = [_para(texts)]
    sq = v.sequences
    examples: list[Example] = []
    # each example shows what the engine reads its cards as (lays_as_meld, canasta_of)
    new = _sequence_cards(v, sq.min_size)
    if new is not None and lays_as_meld(v, new):
        examples.append(Example(new, "A new sequence", True))
        examples += _wild_in_sequence(v, new)
    size = max(sq.canasta_size, sq.min_size)
    canasta = _sequence_cards(v, size) if sequence_canasta_possible(v) else None
    if canasta is not None and canasta_of(v, canasta) == "sequence":
        examples.append(Example(canasta, f"{cap(sequence_name(v))}: bonus {pts(sq.bonus)}"))
    if examples:
        blocks.append(Figure(tuple(examples)))
    return blocks


def _opening_section(v: Variant) -> Section:
    texts = _shown(v, S_OPENING)
    blocks: list[Block] = []
    first = _take(texts, "opening.by")
    blocks.append(_para(first))
    if v.opening.by == "score" and score_steps(v)[1]:
        paths = ("opening.score_table",)
        blocks = [_para(Text(opening_lead(v), first[0].paths))]
        rows = tuple((Text(cap(span)), Text(minimum_text(m), paths)) for span, m in score_rows(v))
        blocks.append(Table(("Total score", "Minimum"), rows))
    example = opening_example(v)
    if example:
        # the worked case follows the rule it shows: opening by the discard pile
        # a worked case states no rule of its own, so it carries no note mark
        texts.insert(_after(texts, "opening.top_card_counts"), Text(example))
    # the clean meld and the talons, each a rule of its own, get a paragraph each
    apart = [t for t in texts if {"opening.natural_meld", "opening.talons"} & set(t.paths)]
    rest = [t for t in texts if t not in apart]
    blocks += [_para(p) for p in (rest, *([t] for t in apart)) if p]
    return Section(S_OPENING, tuple(blocks))


def _canastas_section(v: Variant) -> Section:
    texts = _shown(v, S_CANASTAS)
    size = _take(texts, "canastas.size")
    kinds = Text(say_kinds(v), ("melds.max_wilds", "melds.wild_melds"))
    figure = canasta_figure(v)
    return Section(S_CANASTAS, (_para(size, kinds, texts),) + ((figure,) if figure else ()))


def _pile_section(v: Variant) -> Section:
    texts = _shown(v, S_PILE)
    blocks: list[Block] = []
    bars = _take(texts, "pile.empty_bar_ranks", "pile.empty_bar_wilds", "pile.empty_bar_dead", "pile.wild_discard")
    if not meanings(v).pile_takeable:
        stop = _take(texts, "pile.stop_cards")
        lead = stop if "natural" in v.pile.stop_cards else [Text(say_take(v), ("pile.take_natural_pair",))]
        blocks.append(_para(lead))
        if bars:
            blocks.append(_para(bars))
        return Section(S_PILE, tuple(blocks))
    freezing = _take(texts, "pile.frozen_by_wild", "pile.frozen_by_red_three", "pile.frozen_until_opened")
    ways = _take(texts, "pile.take_natural_pair", "pile.take_natural_and_wild", "pile.take_lay_off")
    # how the pile is taken, then what freezes it, with the worked case beside the freezing rule;
    # a pile that is always taken as a frozen one says so before the ways of taking it
    lead = [Text(say_take(v))]
    if meanings(v).pile_always_frozen or not meanings(v).pile_can_freeze:
        lead += freezing
        freezing = []
    blocks.append(_para(lead))
    blocks.append(BulletList(tuple(Paragraph((w, *_sequence_lay_off(v, w))) for w in ways)))
    example = frozen_example(v)
    blocks.append(_para(freezing, [Text(example)] if example else []))
    p, size = v.pile, v.canastas.size
    if p.blocked_by_meld_size is not None and p.blocked_by_meld_size < size and "8" not in v.wilds.ranks:
        n = p.blocked_by_meld_size
        need = size - n
        whose = "your side has" if meanings(v).partnerships else "you have"
        start = f"For example, while {whose} an unfinished meld of {num(n)} 8s, you may not take the pile with an 8 on top"
        if p.blocked_exception:
            done = f"{some(need, '8')} {'completes' if need == 1 else 'complete'} the canasta"
            more = new_size(v) - 1
            rest = (
                f"the other {num(more)} {'makes' if more == 1 else 'make'} a new meld with the top card"
                if more else "the top card alone makes a new meld"
            )
            text = f"{start}. Holding {num(need + more)} 8s, you may: {done}, and {rest}."
        else:
            text = f"{start}, however many 8s you hold."
        texts.append(Text(text, ("pile.blocked_by_meld_size", "pile.blocked_exception")))
    if texts:
        blocks.append(_para(texts))
    if bars:
        blocks.append(_para(bars))
    return Section(S_PILE, tuple(blocks))


def _sequence_lay_off(v: Variant, way: Text) -> tuple[Text, ...]:
    """After the way of taking the pile by lay-off: the top card may also extend a sequence."""
    if "pile.take_lay_off" not in way.paths or not v.sequences.allowed or not v.pile.take_lay_off:
        return ()
    side = "side's" if meanings(v).partnerships else "player's"
    frozen = " (not when the pile is frozen)" if meanings(v).pile_can_freeze else ""
    text = (
        f"The top card may also be added at either end of one of the {side} sequences of its "
        f"suit, which it continues{frozen}"
    )
    sq = v.sequences
    if not v.pile.lay_off_after_canasta and sequence_canasta_possible(v) and (
        sq.max_size is None or sq.max_size > max(sq.canasta_size, sq.min_size)
    ):
        text += f", but not to {a_an(sequence_name(v))}"
    return (Text(text + ".", ("pile.take_lay_off", "sequences.allowed", "pile.lay_off_after_canasta")),)


def _threes_section(v: Variant) -> Section:
    texts = _shown(v, S_THREES)
    black = _take(
        texts, "threes.black_meld", "threes.black_meld_min", "threes.black_meld_max", "threes.black_meld_wilds"
    )
    laid = _take(texts, "threes.black_laid_at_once", "threes.black_table")
    red_blocks = _para(Text("A red 3 is never melded or discarded."), texts)
    black_texts = [*black]
    if v.threes.black_laid_at_once:
        # black 3s are bonus cards: their melds, discards and values left in hand never arise
        return Section(S_THREES, (red_blocks, _para(laid)))
    if v.threes.black_held_penalty is not None:
        black_texts.append(Text(say_black_held(v), ("threes.black_held_penalty",)))
    elif v.scoring.hand_minus:
        # without a foot, the scoring rule and the table of card values already say what a
        # black 3 left in hand costs; a foot is a second place it may be left, said here
        if meanings(v).has_foot:
            black_texts.append(Text(say_black_discard(v), ("values.black_three", "scoring.hand_minus")))
    else:
        black_texts.append(Text("A black 3 may be discarded."))
    return Section(S_THREES, (red_blocks, _para(black_texts)))


def _foot_section(v: Variant) -> Section:
    return Section(S_FOOT, (_para(_shown(v, S_FOOT)),))


def _out_section(v: Variant) -> Section:
    texts = _shown(v, S_OUT)
    example = out_example(v)
    if example:
        texts.insert(_after(texts, "going_out.final_discard"), Text(example))
    paras = [[t] for t in texts]
    if v.going_out.out_but_not_out:
        for para in paras:
            if "going_out.out_but_not_out" in para[0].paths:
                para.append(Text(
                    f"For example, a player who melds all but one card and discards it, without "
                    f"the canastas needed to go out, has no cards left but is not out: at their next "
                    f"turn they draw {count(v.draw.count, 'card')} and play on.",
                    ("going_out.out_but_not_out",),
                ))
    return Section(S_OUT, tuple(Paragraph(tuple(p)) for p in paras))


def _stock_section(v: Variant) -> Section:
    return Section(S_STOCK, (_para(_shown(v, S_STOCK)),))


def _face_of(value_name: str, i: int) -> str:
    """A card of a card-value option's rank, in notation, for the value table's faces."""
    if value_name == "red_three":
        return "3H"
    if value_name == "black_three":
        return "3S"
    return of_rank(RANK_OF_VALUE[value_name], 1, i)[0]


def _values_table(v: Variant) -> Table:
    rows: list[tuple[Text, ...]] = []
    wild = set(v.wilds.ranks)
    plain = ("king", "queen", "jack", "ten", "nine", "eight", "seven", "six", "five", "four")
    group: list[tuple[str, str]] = []

    def flush() -> None:
        if not group:
            return
        paths = tuple(f"values.{n}" for n, _ in group)
        label = ", ".join(lab for _, lab in group)
        cards = tuple(_face_of(n, i) for i, (n, _) in enumerate(group))
        rows.append((Text(label, (), cards), Text(pts(getattr(v.values, group[0][0])), paths)))
        group.clear()

    for name, label in VALUE_ROWS:
        value = getattr(v.values, name)
        if name == "red_three" and value == 0:
            continue
        if name == "joker" and v.deck.jokers_per_deck == 0:
            continue
        if RANK_OF_VALUE.get(name) in wild:
            label += " (wild)"
        if name in plain and RANK_OF_VALUE[name] not in wild and (
            not group or getattr(v.values, group[-1][0]) == value
        ):
            group.append((name, label))
            continue
        flush()
        if name in plain and RANK_OF_VALUE[name] not in wild:
            group.append((name, label))
            continue
        paths = (f"values.{name}",)
        rows.append((Text(label, (), (_face_of(name, 0),)), Text(pts(value), paths)))
    flush()
    return Table(("Card", "Points"), tuple(rows))


#: A row of the bonus table: its label, its points (or words such as "nothing"), the options it states.
_Row = tuple[str, int | str, tuple[str, ...]]


def bonus_table(v: Variant) -> Table:
    """Every bonus and penalty of ``v`` with its points, one row each (the quick-reference sheet's table).

    The rule book states each of them in the section of its rule; the sheet gathers them.
    """
    rows = [
        *_canasta_rows(v), *_red_three_rows(v), *_black_three_rows(v), *_going_out_rows(v),
        *_red_minus_rows(v), *_penalty_rows(v), *_card_value_rows(v),
    ]
    return Table(
        ("Item", "Points"),
        tuple(
            (Text(label), Text(value if isinstance(value, str) else pts(value), paths))
            for label, value, paths in rows
        ),
    )


def _canasta_rows(v: Variant) -> list[_Row]:
    """The canasta bonuses: by kind of canasta, by rank, and for wild canastas of a given mix."""
    c = v.canastas
    rows: list[_Row] = [("Natural (clean) canasta", c.natural_bonus, ("canastas.natural_bonus",))]
    if mixed_possible(v):
        rows.append(("Mixed (dirty) canasta", c.mixed_bonus, ("canastas.mixed_bonus",)))
    if v.melds.wild_melds:
        rows.append(("Wild canasta", c.wild_bonus, ("canastas.wild_bonus",)))
    if sequence_canasta_possible(v):
        rows.append((f"{cap(sequence_name(v))} (sequence canasta)", v.sequences.bonus, ("sequences.bonus",)))
    for rank, kind, bonus in effective_rank_bonuses(v):
        rows.append((f"{cap(kind)} canasta of {rank_plural(rank)}", bonus, ("canastas.rank_bonuses",)))
    if v.melds.wild_melds:
        mixes = {(b.rank, b.count): b.bonus for b in c.wild_mix_bonuses}
        for (rank, n), bonus in mixes.items():
            rows.append((f"Wild canasta of exactly {num(n)} {rank_plural(rank)}", bonus, ("canastas.wild_mix_bonuses",)))
    return rows


def _red_three_rows(v: Variant) -> list[_Row]:
    """The red 3s laid: each, by the table of counts, all of them."""
    t = v.threes
    rows: list[_Row] = []
    if t.red_table:
        k, rest = red_table_steps(v)
        if k:
            rows.append((f"Up to {num(k)} red 3s, each", t.red_table[0], ("threes.red_table",)))
        rows += [(f"{cap(count(n, 'red 3'))}, in all", p, ("threes.red_table",)) for n, p in rest]
        if len(t.red_table) < meanings(v).red_threes:
            rows.append(("Each further red 3", t.red_bonus, ("threes.red_bonus",)))
    else:
        rows.append(("Each red 3", t.red_bonus, ("threes.red_bonus",)))
    if t.red_all_bonus is not None and not t.red_table:
        rows.append((f"All {num(meanings(v).red_threes)} red 3s, in all", t.red_all_bonus, ("threes.red_all_bonus",)))
    return rows


def _black_three_rows(v: Variant) -> list[_Row]:
    """The black 3s laid, where they are laid out as bonus cards."""
    t = v.threes
    rows: list[_Row] = []
    if t.black_laid_at_once:
        rows += [
            (f"{cap(count(n + 1, 'black 3'))} laid, in all", p, ("threes.black_table",))
            for n, p in enumerate(t.black_table)
        ]
        if len(t.black_table) < meanings(v).red_threes:
            rows.append(("Each further black 3 laid" if t.black_table else "Each black 3 laid", t.red_bonus,
                         ("threes.black_table", "threes.red_bonus")))
    return rows


def _going_out_rows(v: Variant) -> list[_Row]:
    """Going out: plain, concealed, with black 3s."""
    t = v.threes
    s = v.scoring
    rows: list[_Row] = []
    rows.append(("Going out", s.going_out_bonus, ("scoring.going_out_bonus",)))
    if v.going_out.concealed:
        rows.append(("Going out concealed, in all", s.concealed_bonus, ("scoring.concealed_bonus",)))
    if t.black_out_cards is not None:
        rows.append(
            (f"Going out with {count(t.black_out_cards, 'black 3')}", t.black_out_bonus, ("threes.black_out_bonus",))
        )
    return rows


def _red_minus_rows(v: Variant) -> list[_Row]:
    """Red 3s that count minus (or nothing) for a side that has not melded or lacks canastas."""
    t = v.threes
    rows: list[_Row] = []
    if t.red_minus_if_unopened or t.red_minus_without_canasta:
        low = t.red_neutral_canastas if t.red_minus_without_canasta else None
        if low is not None and low >= t.red_canastas_needed:
            low = None
        short = t.red_canastas_needed if low is None else low
        threes = "3s" if t.black_laid_at_once else "Red 3s"
        rows.append(
            (f"{threes} of a side that " + join(
                [x for x, on in (("has not melded", t.red_minus_if_unopened),
                                 ("has no canasta" if short == 1
                                  else f"has fewer than {count(short, 'canasta')}",
                                  t.red_minus_without_canasta)) if on], "or"),
             "minus, not plus",
             ("threes.red_minus_if_unopened", "threes.red_minus_without_canasta")),
        )
        if low is not None:
            band = count(low, "canasta") if t.red_canastas_needed == low + 1 else (
                f"{num(low)} to {count(t.red_canastas_needed - 1, 'canasta')}"
            )
            rows.append((f"{threes} of a side with {band}", "nothing", ("threes.red_neutral_canastas",)))
    return rows


def _penalty_rows(v: Variant) -> list[_Row]:
    """The penalties: 3s still held, short sequences, melds short of a canasta, cards held."""
    t = v.threes
    s = v.scoring
    rows: list[_Row] = []
    if red_can_be_held(v):
        rows.append(("Each red 3 still held", -t.red_held_penalty, ("threes.red_held_penalty",)))
    if t.black_held_penalty is not None and "3" not in v.wilds.ranks:
        rows.append(("Each black 3 left in a hand", -t.black_held_penalty, ("threes.black_held_penalty",)))
    sq = v.sequences
    if sq.allowed and sq.short_size and sq.short_penalty:
        rows.append((
            f"Each sequence of fewer than {num(sq.short_size)} cards", -sq.short_penalty,
            ("sequences.short_size", "sequences.short_penalty"),
        ))
    for what, penalty in incomplete_rows(v):
        rows.append((f"Each meld of {what} short of a canasta", -penalty,
                     ("scoring.incomplete_penalties", "scoring.incomplete_wild_penalty")))
    for hp in s.held_penalties:
        if hp.penalty:
            rows.append((f"A player holding {num(hp.count)} or more {rank_plural(hp.rank)}", -hp.penalty,
                         ("scoring.held_penalties",)))
    return rows


def _card_value_rows(v: Variant) -> list[_Row]:
    """The cards' own values: in melds (plus, or minus without a canasta), left in hand (minus)."""
    s = v.scoring
    rows: list[_Row] = []
    if s.meld_points and s.meld_minus_without_canasta:
        rows.append(("Cards in melds of a side with no canasta", "\u2212 their values",
                     ("scoring.meld_minus_without_canasta",)))
        rows.append(("Cards in melds of a side with a canasta", "+ their values", ("scoring.meld_points",)))
    elif s.meld_points:
        rows.append(("Cards in melds", "+ their values", ("scoring.meld_points",)))
    if s.hand_minus:
        where = "Cards left in hands and feet" if meanings(v).has_foot else "Cards left in hands"
        rows.append((where, "\u2212 their values", ("scoring.hand_minus",)))
    return rows


def _scoring_section(v: Variant) -> Section:
    texts = _shown(v, S_SCORING)
    keep = _take(texts, "scoring.meld_points", "scoring.meld_minus_without_canasta", "scoring.hand_minus")
    both = v.scoring.meld_points and v.scoring.hand_minus
    if both and [t.paths for t in keep] == [("scoring.meld_points",), ("scoring.hand_minus",)]:
        # what a side scores and what it loses, in one sentence
        keep = [Text(
            keep[0].text[:-1] + ", less those left in its players' "
            + ("hands and feet." if meanings(v).has_foot else "hands."),
            ("scoring.meld_points", "scoring.hand_minus"),
        )]
    penalties = _take(texts, "scoring.incomplete_penalties", "scoring.held_penalties")
    # the bonus of going out and the penalty of short sequences have no other section
    keep += _take(texts, "scoring.going_out_bonus", "sequences.short_size", "sequences.short_penalty")
    # the bonuses stand in the sections of their rules; the sheet gathers them in a table
    bonuses = Text("Add the bonuses and penalties above.")
    return Section(
        S_SCORING,
        (
            _para(keep, bonuses),
            *((_para(penalties),) if penalties else ()),
            _values_table(v),
        ),
    )


def _game_section(v: Variant) -> Section:
    return Section(S_GAME, (_para(_shown(v, S_GAME)),))


#: The title of the last section, the source text's table customs.
S_CUSTOMS = "At the table"


def _customs_section(v: Variant) -> Section:
    """The source text's table customs, which the engine leaves to the players, as written."""
    items = tuple(Paragraph((Text(clean(c)),)) for c in v.customs if clean(c))
    return Section(S_CUSTOMS, (BulletList(items),) if items else ())


def _source_text(v: Variant) -> str | None:
    """The citation: "Source: “Title”, author or publisher, address." """
    s = v.source
    title = clean(s.title)
    parts = [f"\u201c{title}\u201d" if title else "", clean(s.reference), clean(s.url)]
    parts = [p for p in parts if p]
    if not parts:
        return None
    return "Source: " + ", ".join(parts).rstrip(".") + "."


def rule_book(variant: Variant) -> RuleBook:
    """Build the rule book of ``variant`` as a document tree, ready to render.

    Args:
        variant: the rules.

    Returns:
        The :class:`RuleBook`, with the title, the description and the source
        credit first, then one section per rule area.
    """
    v = variant
    intro: list[Block] = []
    # A profile that writes no description (a house profile that changes its
    # parent's rules inherits none) opens with one built from its rules.
    description = clean(v.description) or summary(v)
    intro.append(Paragraph((Text(description),)))
    source = _source_text(v)
    if source:
        intro.append(Paragraph((Text(source),)))
    builders: list[Callable[[Variant], Section]] = [
        _players_section, _deal_section, _turn_section, _melds_section, _opening_section,
        _canastas_section, _pile_section, _threes_section,
    ]
    if meanings(v).has_foot:
        builders.append(_foot_section)
    builders += [
        _out_section, _stock_section, special_section, _scoring_section, _game_section, _customs_section,
    ]
    sections = [b(v) for b in builders]
    sections = [s for s in sections if any(non_empty(b) for b in s.blocks)]
    return RuleBook(variant_title(v), tuple(intro), tuple(sections), v)
