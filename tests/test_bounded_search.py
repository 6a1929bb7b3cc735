"""The sequence search stays small and exact.

:func:`canasta.engine.sequence_search.sequence_outcomes` drops the states that cannot
end and those another state beats; the plain search (``prune=False``) keeps
them all. The two must give the same answers on every position: compared here
on positions of random games of the bundled sequence profiles and of house
rules that made the plain search slow (many cards in hand, several decks,
wild cards in sequences, sequences that grow when going out), with the hand
cut down so that the plain search stays quick. The positions that took
seconds before are kept in ``tests/data/slow``; their listing must stay what
the plain search gave, and the search must hold no more states than
:data:`SLOW` allows.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta.engine import oracle
from canasta.engine.facts import OPEN_ANY_CANASTA, OPEN_NATURAL_CANASTA, OPEN_NO_CANASTA
from canasta.engine.fastpaths import PLAIN_RULES
from canasta.engine.game import compile_rules
from canasta.engine.kinds import count_kinds
from canasta.engine.melds import meld_info
from canasta.engine.oracle import natural_canasta_reachable
from canasta.engine.searches import Outcomes
from canasta.engine.sequence_search import sequence_outcomes
from canasta.engine.state import PLAY, GameState, MeldGroup

#: The search, uncached: the tests compare fresh answers, and count its states.
search = sequence_outcomes.__wrapped__

SLOW_DIR = Path(__file__).resolve().parent / "data" / "slow"

#: Sequence profiles whose searches were slow, written as a table would write them.
PROFILES = (
    "extends: samba\n",
    "extends: bolivia\n",
    "extends: brazilian\n",
    "extends: bolivia\ndraw: {count: 1}\n",
    "extends: samba\ndeck: {decks: 5}\n",
    "extends: samba\nsequences: {wild_in_gap: true}\n",
    "extends: samba\nsequences: {join: true}\n",
    "extends: brazilian\nmelds: {min_naturals: 3}\n",
    "extends: brazilian\ngoing_out: {sequence_canastas: 2}\nsequences: {wild_in_gap: true}\n",
)


@cache
def _positions(profile: str, seed: int) -> tuple[GameState, ...]:
    """Every fourth play-phase position of a random game of ``profile`` (at most 400 moves)."""
    s = canasta.new_game(canasta.parse_variant(profile), seed=seed)
    rng = random.Random(seed)
    out = []
    for i in range(400):
        if s.is_game_over:
            break
        if s.phase == PLAY and i % 4 == 0:
            out.append(s)
        s = s.apply(rng.choice(s.legal_moves()))
    return tuple(out)


def _closure(outs: Outcomes, max_left: int = 2) -> dict[tuple[int, bool, bool], int]:
    """``outs`` as the oracle reads it: an entry that meets going out's canastas
    answers every question the entry that does not would answer. A search for a
    way out (``max_left`` 1) is read only where it meets them."""
    out: dict[tuple[int, bool, bool], int] = {}
    for (left, ok, black), pts in outs.items():
        if max_left <= 1 and not ok:
            continue
        for ok2 in (False, True) if ok else (False,):
            if out.get((left, ok2, black), -1) < pts:
                out[(left, ok2, black)] = pts
    return out


def _side_melds(s: GameState) -> tuple[MeldGroup, ...]:
    return s.melds_[s.rules.side_of[s.current]]


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    profile=st.sampled_from(PROFILES),
    seed=st.integers(0, 3),
    pick=st.integers(0, 10**6),
    size=st.integers(4, 16),
    max_left=st.sampled_from((1, 2)),
    opening=st.sampled_from((OPEN_NO_CANASTA, OPEN_ANY_CANASTA, OPEN_NATURAL_CANASTA)),
    complete=st.booleans(),
    grow=st.booleans(),
)
def test_pruned_search_answers_as_the_plain_one(
    profile: str, seed: int, pick: int, size: int, max_left: int, opening: int, complete: bool, grow: bool,
) -> None:
    positions = _positions(profile, seed)
    s = positions[pick % len(positions)]
    r = s.rules
    rng = random.Random(pick)
    hand = s.hands_[s.current]
    # a part of the hand, so that the plain search stays quick; its cards of
    # a few suits and ranks next to each other, where runs cross
    if len(hand) > size:
        start = rng.randrange(len(hand) - size + 1)
        hand = hand[start:start + size]
    melds = _side_melds(s)
    mask = r.out_complete if complete else 0
    args = (r, hand, melds, r.black_melds, max_left, opening, 0, mask, False, grow)
    pruned = search(*args)
    plain = search(*args, prune=False)
    assert _closure(pruned, max_left) == _closure(plain, max_left)
    if opening == OPEN_NATURAL_CANASTA and not natural_canasta_reachable(r, count_kinds(hand), meld_info(r, melds), hand):
        # the quick bound said no plan can hold a natural canasta: the plain search finds none
        assert not plain
    # a search told that no answer reads the points (the wild_sets fast path) ends the same
    # plans: the same entries, each with 0 points
    unpointed = search(*args, points=False)
    assert set(unpointed.values()) <= {0}
    assert set(_closure(unpointed, max_left)) == set(_closure(plain, max_left))
    # a narrow search finds real plans only: each of its entries, with no more points
    full = _closure(plain, max_left)
    for key, pts in _closure(search(*args, most=1 + pick % 4), max_left).items():
        assert full.get(key, -1) >= pts


@pytest.mark.parametrize("profile", PROFILES)
def test_whole_hands_agree(profile: str) -> None:
    """Whole hands of the first positions, both ways, every question the oracle asks."""
    checked = found = 0
    for s in _positions(profile, 7)[:12]:
        r = s.rules
        hand = s.hands_[s.current]
        if len(hand) > 24:
            continue
        for max_left, grow in ((1, r.seq_grow), (2, False)):
            args = (r, hand, _side_melds(s), r.black_melds, max_left, OPEN_NO_CANASTA, 0, 0, False, grow)
            full = _closure(search(*args, prune=False), max_left)
            assert _closure(search(*args), max_left) == full
            # a narrow search: real plans only, and some found
            narrow = _closure(search(*args, most=2), max_left)
            assert all(full.get(key, -1) >= pts for key, pts in narrow.items())
            found += bool(narrow)
            checked += 1
    assert checked >= 6
    assert found >= checked // 2


def _slow(name: str) -> tuple[GameState, list[str]]:
    """A slow position and the moves it listed; its variant read from its profile, so
    that options added since (which a variant in JSON must list) take their defaults.
    ``name`` may name a file under ``tests/data/slow`` (``corpus/x`` for one of :data:`CORPUS`)."""
    data = json.loads((SLOW_DIR / f"{name}.json").read_text())
    state = data["state"]
    variant = json.loads(canasta.to_json(canasta.parse_variant(data["profile"])))
    state["data"]["variant"] = variant["data"]
    return canasta.from_json(json.dumps(state), GameState), data["moves"]


#: The stored slow positions, each with the most states its going-out search may hold
#: at a rank (the plain search held some 400,000 for the first, the search before runs
#: stood in for each other some 118,000 for the last).
SLOW = {"bolivia-draw-one": 2000, "brazilian-min-naturals": 1000, "samba-gap-natural-opening": 40000}


#: Stored positions of house rules whose listing asked a search for every meld held (an
#: unopened side with no way to go out concealed, under an opening that needs a natural
#: canasta), each with the most searches its listing may ask now.
ONE_SEARCH = {"classic-2p-gap-natural-opening": 4, "uruguayan-concealed": 4}
#: Other stored positions of house rules that took a quarter of a second or more.
HARD = ("brazilian-gap-natural-opening", "brazilian-gap-sequence-canastas", "draw-two-several-any-canasta")
#: Stored positions where going out is within reach of a long hand (64 cards) but the
#: narrowest search keeps none of the states that lead out: a wider narrow search finds it.
NARROW_FINDS = ("brazilian-gap-sequence-canastas",)


#: Positions of house rules with long hands where every move listed asks its own search (the
#: turn must go out after a partner's yes or a sequence grown past its closing size, or an
#: opening must hold a canasta) and the listing took a fifth of a second to seconds: each
#: file's ``note`` says where it was reached. Their listings, stored before the searches'
#: later shortcuts, keep those shortcuts exact (run with the long suites).
CORPUS = tuple(sorted(f"corpus/{p.stem}" for p in (SLOW_DIR / "corpus").glob("*.json")))


@pytest.mark.long
@pytest.mark.parametrize("name", CORPUS)
def test_corpus_positions_list_what_they_listed(name: str) -> None:
    """Each corpus position lists the moves the engine listed when it was stored, in order."""
    s, moves = _slow(name)
    assert [str(m) for m in s.legal_moves()] == moves


def test_the_corpus_is_there() -> None:
    """The corpus holds its positions (a glob that found nothing would pass every test above)."""
    assert len(CORPUS) >= 20


@pytest.mark.parametrize("name", sorted((*SLOW, *ONE_SEARCH, *HARD)))
def test_slow_positions_list_what_they_listed(name: str) -> None:
    """The positions that took seconds list the moves the engine listed before its shortcuts, in order."""
    s, moves = _slow(name)
    assert [str(m) for m in s.legal_moves()] == moves


@pytest.mark.skipif(PLAIN_RULES, reason="the plain rule path asks the search for every candidate")
@pytest.mark.parametrize("name", sorted(ONE_SEARCH))
def test_a_listing_asks_few_searches(name: str) -> None:
    """Where the position listed has no way out, its listing settles every meld with the
    position's own answer (some 160 to 240 searches before, one for each meld): a few
    searches, or none where a quick bound settles it (the classic position: two natural
    cards no run of their suit can hold, ``oracle._sequence_strays``)."""
    sequence_outcomes.cache_clear()
    s, moves = _slow(name)  # reading a state lists its moves (its check), kept with it
    assert [str(m) for m in s.legal_moves()] == moves
    assert sequence_outcomes.cache_info().misses <= ONE_SEARCH[name]


@pytest.mark.parametrize("name", sorted(SLOW))
def test_slow_positions_search_few_states(name: str) -> None:
    """The going-out search of the slow positions keeps no more states than :data:`SLOW` says."""
    s, _moves = _slow(name)
    r = compile_rules(s.variant)
    sizes: list[int] = []
    outs = search(
        r, s.hands_[s.current], _side_melds(s), r.black_melds, 1, OPEN_NO_CANASTA, 0, 0, False, r.seq_grow,
        sizes=sizes,
    )
    assert outs
    assert len(sizes) == len(r.natural_kinds)
    assert 0 < max(sizes) <= SLOW[name]


#: Stored positions where the turn must go out from a long hand and the greedy plan answers
#: every move listed, so no search is asked; each with its cards in hand. In the first
#: (97 cards, three of them black 3s; some 370 moves, 42 s of CPU before) the plan melds
#: the black 3s together, as going out may. In the second (59 cards, 202 moves, 0.64 s
#: before), under ``melds.wild_meld_lock``, the moves that start a meld of wild cards lock
#: the wild cards in it: the plan lays them on it first. In the third (51 cards, 163 moves,
#: 0.6 s before), going out needs three mixed canastas: the plan gives its wild cards first
#: to the melds they make canastas.
GREEDY_OUT = {
    "samba-talons-told-yes-black-threes": 97,
    "brazilian-wild-meld-lock-told-yes": 59,
    "brazilian-three-mixed-canastas-told-yes": 51,
}


@pytest.mark.skipif(PLAIN_RULES, reason="the plain rule path asks the searches for every candidate")
@pytest.mark.parametrize("name", sorted(GREEDY_OUT))
def test_a_plan_answers_a_long_hand_that_must_go_out(name: str) -> None:
    """Told yes with a long hand, where each move listed asked its own search: the greedy
    plan shows each way out, no search is asked, and the listing stays what it was."""
    sequence_outcomes.cache_clear()
    s, moves = _slow(name)  # reading a state lists its moves (its check)
    assert len(s.hands_[s.current]) == GREEDY_OUT[name]
    sequence_outcomes.cache_clear()
    object.__setattr__(s, "_ctx", None)  # list afresh, not from what reading the state kept
    assert [str(m) for m in s.legal_moves()] == moves
    assert sequence_outcomes.cache_info().misses == 0


@pytest.mark.skipif(PLAIN_RULES, reason="the plain rule path asks the searches for every question")
def test_going_out_that_asks_too_many_natural_canastas_asks_no_search() -> None:
    """Going out asks 11 natural canastas, and 61 cards in hand cannot make them: the bound on
    natural canastas (natural_canastas_most) says so, and the full search (0.6 s) is not
    asked; the listing stays what it was."""
    s, moves = _slow("samba-eleven-natural-canastas")
    assert oracle.natural_canastas_most(s.rules, count_kinds(s.hands_[s.current]), _side_melds(s)) < 11
    sequence_outcomes.cache_clear()
    object.__setattr__(s, "_ctx", None)  # list afresh, not from what reading the state kept
    assert [str(m) for m in s.legal_moves()] == moves
    assert sequence_outcomes.cache_info().misses == 0


#: Stored positions where a quick plan now answers most of the moves listed, each with the
#: most searches its listing may ask now (the searches asked before in brackets):
#: - the turn must go out and the greedy plan leaves a card or two that only a new sequence
#:   takes: laid first, in a sequence of the fewest cards from the hand (195, 286, 16);
#: - going out needs a sequence canasta that the side's sequences reach by growing at their
#:   ends from the hand (124), or that a new sequence from the hand makes (206);
#: - the side opened before this turn and wild cards join only melds that hold enough
#:   natural cards then (``melds.late_wild_naturals``, ``late_natural_ranks``): the plan,
#:   told so, gives them only to those (204);
#: - an unopened side whose opening must hold a canasta, where the opening's plan melds
#:   every card of a long hand: it keeps one of its new melds in hand to end the turn (225);
#: - the plan leaves wild cards that only a meld of wild cards takes: laid last on one,
#:   with wild cards taken back from its other melds where a new one is short (226);
#: - the plan leaves a card that only a new sequence one card longer takes, a wild card in
#:   its gap (5 6 _ 8), and natural cards no run can hold are stranded at once (29 and 62).
FEW_SEARCHES = {
    "corpus/uruguayan-gap-any-canasta-opening-told-yes": 20,
    "corpus/bolivia-gap-foot-told-yes": 10,
    "corpus/bolivia-six-decks-talons-wild-meld-opened": 5,
    "corpus/bolivia-gap-feet-six-decks-opened": 50,
    "corpus/draw-two-gap-grow-told-yes": 0,
    "corpus/bolivia-large-deal-told-yes": 40,
    "corpus/bolivia-talons-told-yes": 15,
    "bolivia-late-ranks-talons-told-yes": 20,
    "corpus/brazilian-natural-opening-unopened": 45,
}


@pytest.mark.skipif(PLAIN_RULES, reason="the plain rule path asks the searches for every candidate")
@pytest.mark.parametrize("name", sorted(FEW_SEARCHES))
def test_a_quick_plan_answers_most_moves(name: str) -> None:
    """The listing stays what it was, and asks few searches (:data:`FEW_SEARCHES`)."""
    s, moves = _slow(name)  # reading a state lists its moves (its check)
    sequence_outcomes.cache_clear()
    object.__setattr__(s, "_ctx", None)  # list afresh, not from what reading the state kept
    assert [str(m) for m in s.legal_moves()] == moves
    assert sequence_outcomes.cache_info().misses <= FEW_SEARCHES[name]


@pytest.mark.skipif(PLAIN_RULES, reason="the plain rule path asks the full search only")
@pytest.mark.parametrize("name", NARROW_FINDS)
def test_a_way_out_is_found_by_a_narrow_search(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a long hand can go out, a narrow search finds the way, and the full search (over
    30 s of CPU on this hand) is never asked; the listing stays what it was."""
    asked: list[int] = []

    def spy(*args: object, most: int = 0, **kwargs: object) -> Outcomes:
        asked.append(most)
        return sequence_outcomes(*args, most=most, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(oracle, "sequence_outcomes", spy)
    sequence_outcomes.cache_clear()
    s, moves = _slow(name)  # reading a state lists its moves (its check)
    assert [str(m) for m in s.legal_moves()] == moves
    assert asked
    assert 0 not in asked
