"""One classification of cards into kinds of meld, and one test of a sequence's cards.

:func:`canasta.engine.meld_kinds.classify` says which kind of meld a set of cards
makes (or why none); :meth:`SequenceMeld.read` is the one test of a sequence. These
tests hold them to a plain statement of the rules (every run of the window spelled
out), and hold the engine's own melds, the score keeper's and the new-meld check to them.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta import score_side
from canasta.cards import parse_cards, parse_rank
from canasta.engine import KIND, compile_rules
from canasta.engine.meld_kinds import Reading, SequenceMeld, classify, sequence_kind, sequence_order
from canasta.engine.melds import meld_shape
from canasta.engine.moves import RED_THREE, SEQUENCE, WILD_TARGET
from canasta.engine.refusals import supply_of
from canasta.engine.sequence_runs import Run, suit_steps
from canasta.engine.tables import Rules
from canasta.rulebook.blocks import Example, Figure
from canasta.rulebook.book import rule_book
from canasta.rulebook.examples import canasta_of, lays_as_meld
from canasta.rulebook.melds import longest_run, sequence_runs
from canasta.rulebook.words import cap
from canasta.variant.model import Variant
from positions import play
from test_sequences import run_positions


def _samba_gap() -> Variant:
    v = canasta.load_variant("samba")
    return attrs.evolve(v, sequences=attrs.evolve(v.sequences, wild_in_gap=True))


def _low_window() -> Variant:
    """Samba with its window from 2 (2s wild: they break it) to queen, sequences of 4 to 6 cards."""
    v = canasta.load_variant("samba")
    sq = attrs.evolve(v.sequences, low="2", high="Q", min_size=4, max_size=6, canasta_size=6, wild_in_gap=True)
    return attrs.evolve(v, sequences=sq)


_VARIANTS = {
    "classic": lambda: canasta.load_variant("classic"),
    "samba": lambda: canasta.load_variant("samba"),
    "samba-gap": _samba_gap,
    "low-window": _low_window,
    "brazilian": lambda: canasta.load_variant("brazilian"),
    "bolivia": lambda: canasta.load_variant("bolivia"),
}

#: Hearts around the middle of the window, both ends of it, other suits, wild cards and 3s.
_POOL = [
    *(f"{k}H" for k in ("2", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")),
    "7S", "8S", "9D", "2C", "JK", "3H", "3S", "3C",
]


def _window(v: Variant) -> set[int]:
    """The ranks a sequence may hold, read straight from the options: the window less wild ranks and 3s."""
    wild = {parse_rank(k) for k in v.wilds.ranks}
    lo, hi = parse_rank(v.sequences.low), parse_rank(v.sequences.high)
    return {k for k in range(lo, hi + 1) if k != 3 and k not in wild}


def _spelled_out(v: Variant, cards: list[int]) -> Reading | None:
    """The sequence ``cards`` are, found by trying every run of the window in every suit, or None."""
    sq = v.sequences
    if not sq.allowed:
        return None
    wild = {parse_rank(k) for k in v.wilds.ranks}
    window = _window(v)
    have = Counter(cards)
    n = len(cards)
    for suit in range(4):
        for low in sorted(window):
            ranks = list(range(low, low + n))
            if any(k not in window for k in ranks):
                continue
            if have == Counter(k * 4 + suit for k in ranks):
                return Reading(SEQUENCE, n, 0, suit)
            if not (sq.wild_in_gap and sq.min_size >= 3):
                continue
            # one wild card for a rank between two natural cards
            for gap in range(1, n - 1):
                rest = have - Counter(k * 4 + suit for k in ranks if k != ranks[gap])
                if sum(rest.values()) == 1 and KIND[next(iter(rest))] in wild:
                    return Reading(SEQUENCE, n - 1, 1, suit)
    return None


def _spelled_out_rank(v: Variant, cards: list[int]) -> Reading | None:
    """The meld of one rank (or of wild cards) ``cards`` are, where the variant has it, or None."""
    wild = {parse_rank(k) for k in v.wilds.ranks}
    kinds = [KIND[c] for c in cards]
    naturals = {k for k in kinds if k not in wild}
    if RED_THREE in kinds or len(naturals) > 1:
        return None
    target = naturals.pop() if naturals else WILD_TARGET
    if target == WILD_TARGET and not v.melds.wild_melds:
        return None
    if target == 3 and v.threes.black_meld == "never":
        return None
    if target not in (WILD_TARGET, 3) and (target == 15 or target == RED_THREE):
        return None
    j = sum(1 for k in kinds if k in wild)
    return Reading(target, len(kinds) - j, j, -1)


_CARDS = st.lists(st.sampled_from(_POOL), min_size=1, max_size=8).map(lambda xs: [int(c) for c in parse_cards(" ".join(xs))])


@pytest.mark.parametrize("name", list(_VARIANTS))
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=_CARDS, data=st.data())
def test_classify_agrees_with_the_rules_spelled_out(name: str, cards: list[int], data: st.DataObject) -> None:
    """Cards are a sequence exactly when some run of the window (with a wild card in a gap where
    the variant allows one) is those cards; else a meld of their one natural rank, or none."""
    v = _VARIANTS[name]()
    kinds = compile_rules(v).meld_kinds
    got = classify(kinds, data.draw(st.permutations(cards)))
    expected = (_spelled_out(v, cards) if len(cards) >= 2 else None) or _spelled_out_rank(v, cards)
    if expected is None:
        assert isinstance(got, str) and got
    else:
        assert got == expected


@pytest.mark.parametrize("name", ["samba", "samba-gap", "low-window", "brazilian"])
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_runs_are_read_in_the_order_a_sequence_keeps(name: str, data: st.DataObject) -> None:
    """Every run of the window is a sequence, in any order it is given; kept in sequence order
    (a wild card at the rank it stands for) it reads the same, and out of that order it does not."""
    v = _VARIANTS[name]()
    seq = compile_rules(v).seq_kind
    window = sorted(_window(v))
    low = data.draw(st.sampled_from([k for k in window if k < 14]))
    n = data.draw(st.integers(2, min(8, 15 - low)))
    suit = data.draw(st.integers(0, 3))
    ranks = list(range(low, low + n))
    cards = [k * 4 + suit for k in ranks]
    gap = data.draw(st.integers(1, n - 2)) if n >= 3 and data.draw(st.booleans()) else None
    if gap is not None:
        cards[gap] = data.draw(st.sampled_from([8, 9, 60]))  # 2C, 2D, a joker: wild in these variants
    expected = _spelled_out(v, cards)
    shuffled = data.draw(st.permutations(cards))
    got = seq.read(shuffled)
    if expected is None:
        assert isinstance(got, str) and got
        return
    assert got == expected
    assert sequence_order(shuffled, seq.is_wild) == tuple(cards)
    assert seq.read(cards, ordered=True) == expected
    if n >= 3:
        # the first two cards swapped: no longer in the order a sequence keeps
        assert isinstance(seq.read([cards[1], cards[0], *cards[2:]], ordered=True), str)


@pytest.mark.parametrize("name", ["samba", "brazilian"])
@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_engines_melds_are_classified_as_what_they_are(name: str, data: st.DataObject) -> None:
    """After every move the engine lists, each meld on the table is the kind of meld its cards make."""
    s = data.draw(run_positions(name))
    if data.draw(st.booleans()) and name == "samba":
        s = attrs.evolve(s, variant=_samba_gap())
    moves = s.legal_moves()
    # the moves that lay or grow a meld, and a few others
    melding = [m for m in moves if str(m).startswith(("meld", "add", "join", "take"))]
    for move in melding[:12] + moves[:2]:
        after = s.apply(move)
        r = after.rules
        for side in after.melds_:
            for m in side:
                got = classify(r.meld_kinds, m.cards)
                assert got == Reading(m.rank, m.naturals, m.wilds, m.suit), (str(move), m)
                if m.rank == SEQUENCE:
                    assert r.seq_kind.read(m.cards, ordered=True) == got


_KIND_LISTS = st.lists(st.sampled_from(_POOL), min_size=1, max_size=7)


@pytest.mark.parametrize("name", ["classic", "samba", "modern-american", "hand-and-foot"])
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(written=_KIND_LISTS)
def test_the_score_keeper_and_a_new_meld_give_one_reason(name: str, written: list[str]) -> None:
    """Cards that make no kind of meld are refused by the score keeper and by a new meld alike,
    with the classification's own words (no copies of them to drift apart)."""
    v = canasta.load_variant(name)
    r = compile_rules(v)
    cards = [int(c) for c in parse_cards(" ".join(written))]
    got = classify(r.meld_kinds, cards)
    if not isinstance(got, str):
        return
    with pytest.raises(canasta.CanastaError) as info:
        score_side(v, melds=[" ".join(written)], went_out=True)
    assert str(info.value).endswith(": " + got)
    # a new meld names kinds, not suits, and is refused in the same words
    assert meld_shape(r, tuple(KIND[c] for c in cards)) == got


def test_the_sequence_kind_is_one_object() -> None:
    """The compiled rules hold the sequence kind of their meld kinds, which every check asks."""
    r = compile_rules(canasta.load_variant("samba"))
    assert isinstance(r.seq_kind, SequenceMeld) and r.seq_kind is r.meld_kinds[SEQUENCE]


class TestWords:
    """Each rule is said in one set of words, wherever it is checked."""

    def test_a_gap_wild_at_an_end(self) -> None:
        seq = compile_rules(_samba_gap()).seq_kind
        cards = [int(c) for c in parse_cards("7H 8H 2C")]
        assert seq.read(cards) == "a sequence holds one wild card at most, between two of its natural cards"
        with pytest.raises(canasta.CanastaError, match="one rank only"):
            # not a sequence, so a meld of one rank: which it is not either
            score_side(_samba_gap(), melds=["7H 8H 2C"])

    def test_a_broken_window(self) -> None:
        seq = compile_rules(canasta.load_variant("samba")).seq_kind
        assert seq.read([int(c) for c in parse_cards("7H 9H 10H")]) == (
            "a sequence holds one card of each rank in unbroken order, from 4 to A"
        )
        assert seq.span_error(7, 10) is None
        assert seq.span_error(3, 5) == seq.read([int(c) for c in parse_cards("3H 4H 5H")])

    def test_sizes(self) -> None:
        brazilian = compile_rules(canasta.load_variant("brazilian")).seq_kind
        assert brazilian.size_error(8) == "a sequence holds 3 to 7 cards"
        assert brazilian.size_error(8, grow=True) is None
        assert brazilian.size_error(2, grow=True) == "a sequence holds at least 3 cards"
        bolivia = compile_rules(canasta.load_variant("bolivia")).seq_kind
        assert bolivia.size_error(8, grow=True) == "a sequence holds 3 to 7 cards"

    def test_the_score_keeper_reads_a_grown_sequence(self) -> None:
        v = canasta.load_variant("brazilian")
        eight = "4H 5H 6H 7H 8H 9H 10H JH"
        with pytest.raises(canasta.CanastaError, match=r"3 to 7 cards \(at most 7 cards unless the side goes out"):
            score_side(v, melds=[eight])
        kings = "KC KD KH KS KC KD KH"
        assert score_side(v, melds=[eight, kings], went_out=True).total > 0

    def test_a_sequence_is_laid_as_it_is_read(self) -> None:
        s = play(_samba_start(), "meld 7H 2 9H")
        seq = next(m for m in s.melds_[0] if m.rank == SEQUENCE)
        assert s.rules.seq_kind.read(seq.cards, ordered=True) == Reading(SEQUENCE, 2, 1, seq.suit)
        assert [c >> 2 for c in seq.cards] == [7, 2, 9]


def _samba_start() -> canasta.GameState:
    from positions import position

    return position(
        _samba_gap(), hands=["7H 9H 2C KS QS", "4C 4D 6C", "5D 6D 8C", "8D 10C JC"], melds={0: ["KC KD KH"]},
        pile="5C 9D",
    )


# -- what the checker and the rule book say of melds: the kinds' own reading ----------------------

_RANK_NAMES = ["2", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    low=st.sampled_from(_RANK_NAMES), high=st.sampled_from(_RANK_NAMES), min_size=st.integers(2, 8),
    max_size=st.none() | st.integers(2, 13), canasta_size=st.integers(3, 13), wild_king=st.booleans(),
)
def test_what_can_be_laid_is_what_the_sequence_test_reads(
    low: str, high: str, min_size: int, max_size: int | None, canasta_size: int, wild_king: bool
) -> None:
    """The stretches the checker and the book name, and whether a sequence or a sequence canasta can
    ever be laid, agree with the runs that the one test of a sequence accepts (every run tried)."""
    assume(max_size is None or max_size >= min_size)  # else the profile is refused as it loads
    base = canasta.load_variant("samba")
    sq = attrs.evolve(base.sequences, low=low, high=high, min_size=min_size, max_size=max_size,
                      canasta_size=canasta_size)
    wilds = attrs.evolve(base.wilds, ranks=(*base.wilds.ranks, "K")) if wild_king else base.wilds
    v = attrs.evolve(base, sequences=sq, wilds=wilds)
    kind = sequence_kind(v)
    read = {n for start in range(2, 15) for n in range(1, 16 - start)
            if isinstance(kind.read([k * 4 for k in range(start, start + n)]), Reading)}
    assert kind.longest == max(read, default=0)
    assert kind.can_lay == any(kind.size_error(n) is None for n in read)
    assert kind.canasta_possible == any(kind.size_error(n) is None and kind.canasta(n, 0) for n in read)
    # the stretches are the runs read, each as long as it can be
    assert {hi - lo + 1 for lo, hi in kind.stretches} <= read
    assert all(isinstance(kind.read([k * 4 for k in range(lo, hi + 1)]), Reading) for lo, hi in kind.stretches)
    assert all(isinstance(kind.read([k * 4 for k in range(lo - 1, hi + 1)]), str) for lo, hi in kind.stretches)
    supply = supply_of(compile_rules(v))
    assert (supply.longest_run, supply.sequence_meld, supply.sequence_canasta) == (
        kind.longest, kind.can_lay, kind.canasta_possible)
    assert sequence_runs(v) == list(kind.stretches) and longest_run(v) == kind.longest


def _figures(v: Variant) -> list[Example]:
    """Every example of the rule book of ``v`` that is drawn as cards."""
    found: list[Example] = []
    for section in rule_book(v).sections:
        for block in section.blocks:
            if isinstance(block, Figure):
                found += block.examples
    return found


@pytest.mark.parametrize("name", [*canasta.variant_names(), "samba-gap", "low-window"])
def test_the_book_shows_melds_as_the_engine_reads_them(name: str) -> None:
    """An example the book marks as a meld is one (the classification and its kind say so), an example
    marked as no meld is none, and a canasta shown makes the canasta its caption names."""
    v = _VARIANTS[name]() if name in _VARIANTS else canasta.load_variant(name)
    examples = _figures(v)
    assert examples
    for e in examples:
        if e.ok is not None:
            assert lays_as_meld(v, e.cards) is e.ok, e
        elif "canasta" in e.caption.lower() or e.caption.startswith(cap(v.sequences.name)):
            kind = canasta_of(v, e.cards)
            assert kind is not None, e
            assert kind == "sequence" or e.caption.lower().startswith(kind), e


def test_a_wild_card_in_a_gap_is_shown_where_it_may_stand() -> None:
    """Where a wild card may stand in a sequence, the book shows it there as a meld, and at an end as none."""
    shown = {e.caption: e.ok for e in _figures(_samba_gap())}
    assert shown["A wild card for a missing rank between two natural cards"] is True
    assert shown["A wild card at an end of a sequence: not a meld"] is False
    plain = {e.caption: e.ok for e in _figures(canasta.load_variant("samba"))}
    assert plain["A wild card in a sequence: not a meld"] is False


# -- the sequence search's own bookkeeping, held to the one test of a sequence ------------------


def _search_lays(r: Rules, low: int, wild_at: frozenset[int], n: int) -> bool:
    """Whether the sequence search (:func:`~canasta.engine.sequence_runs.suit_steps`, rank by rank)
    lets one run from the hand take the ``n`` cards from rank ``low`` up (a wild card for the
    ranks at ``wild_at``, a natural card of one suit for the others) and end there, as a sequence laid."""
    states: set[tuple[Run, ...]] = {()}
    for i in range(n + 1):
        rank = low + i
        wild = i in wild_at
        last = i == n
        nxt: set[tuple[Run, ...]] = set()
        for runs in states:
            avail = 0 if wild or last else 1
            for after, used, _gained, _free, wilds in suit_steps(r, runs, rank, avail, (), False):
                # the card of this rank joins the one run, which holds every card so far (not a
                # second run started where the first ended), or the run ends after the last card
                if used != avail or wilds != (1 if wild else 0):
                    continue
                if last and not after:
                    return True
                if not last and ((len(after) == 1 and after[0][0] == i + 1) or (not after and i == n - 1)):
                    nxt.add(after)
        states = nxt
        if not states:
            return False
    return False


@pytest.mark.parametrize("name", ["samba", "samba-gap", "low-window", "brazilian", "bolivia"])
def test_the_search_lays_the_runs_the_sequence_test_accepts(name: str) -> None:
    """Every run of one suit from the hand, one card a rank, none, one or two of them wild: the
    search lets it be laid and end exactly when the one test of a sequence reads its cards as a
    sequence of a legal size (every such run, both answers many times over)."""
    r = compile_rules(_VARIANTS[name]())
    seq = r.seq_kind
    answers: Counter[bool] = Counter()
    for low in range(2, 15):
        for n in range(1, 16 - low):
            for wild_at in [frozenset(w) for k in range(3) for w in combinations(range(n), k)]:
                cards = [8 if i in wild_at else (low + i) * 4 + 2 for i in range(n)]  # 2C for a wild card
                accepted = isinstance(seq.read(cards), Reading) and seq.size_error(n) is None
                assert _search_lays(r, low, wild_at, n) == accepted, (low, n, sorted(wild_at))
                answers[accepted] += 1
    assert answers[True] >= 20 and answers[False] >= 20


@pytest.mark.parametrize("min_size", [2, 3])
def test_a_wild_card_in_a_gap_is_one_reading_for_the_shape_and_the_cards(min_size: int) -> None:
    """``sequences.wild_in_gap`` lets a wild card stand inside a new sequence, which needs one of
    3 cards or more: with ``min_size`` 2 no sequence holds one, and the shape test (``valid``)
    says so as the cards' test (``read``) does."""
    v = canasta.parse_variant({"extends": "samba", "sequences": {"wild_in_gap": True, "min_size": min_size}})
    kind = sequence_kind(v)
    got = kind.read([int(c) for c in parse_cards("5H JK 7H")])
    assert kind.forms(2, 1) == kind.valid(2, 1, True) == isinstance(got, Reading) == (min_size >= 3)
