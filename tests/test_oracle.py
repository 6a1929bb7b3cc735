"""The no-dead-end oracle against brute force.

The engine accepts a step of the play phase (meld, add, take the pile, ...) only
if the turn can still be finished legally afterwards, a question it answers with
a dynamic programme (``canasta.engine.oracle.outcomes``). Here the same question is answered by
searching every sequence of steps, with that check switched off, until the turn
ends: the two must agree on every step of many random positions, for every
bundled profile. Agreement both ways means the engine refuses no step a player
could have finished from (completeness) and offers none that leads nowhere
(no dead ends).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import attrs
import pytest

import canasta
from budget import profiles
from canasta.engine import candidates, draw, greedy, oracle, tables
from canasta.engine import game as engine_game
from canasta.engine.facts import Probe, opening_canasta, opening_minimum, probe
from canasta.engine.melds import meld_info
from canasta.engine.moves import (
    WILD_TARGET,
    Add,
    AddToSequence,
    Answer,
    Ask,
    Discard,
    Foot,
    LayThree,
    Meld,
    MeldSequence,
    Move,
    TakeBack,
)
from canasta.engine.state import DRAW, PLAY, TOLD_YES, GameState
from house_rules import greedy_policy, moves_of_hand, random_policy
from houses import CLEAN_OPENINGS, GAP_SEQUENCES, HOUSES, WILD_MELDS, house_path
from positions import position

MAX_HAND = 10  # brute force is exponential: keep the hands small

#: The profiles the oracle is checked on: every bundled one, and the house
#: profiles of tests/houses.py (by path), whose options no bundled profile uses yet.
PROFILES = [
    *profiles(canasta.variant_names()),  # one of each family in a plain run (tests/budget.py)
    *(pytest.param(house_path(name), id=name) for name in sorted(HOUSES)),
]

# These tests switch parts of the engine off by replacing module functions; a
# compiled engine (CANASTA_COMPILE=1) calls its own functions directly, so the
# replacements would not reach it and the tests would prove less than they
# claim. The Python engine, from the same source, runs them.
pytestmark = pytest.mark.skipif(
    tables.COMPILED, reason="replaces engine functions, which a compiled engine calls directly"
)


@contextmanager
def replaced(name: str, stand_in: object) -> Iterator[None]:
    """Replace the engine function ``name`` in every engine module that calls it.

    Each module binds the names it imports, so a replacement must reach each of
    them; the test fails if none holds the name (a patch that reaches nothing).
    """
    original = getattr(oracle, name, None) or getattr(greedy, name)
    homes = [m for m in vars(canasta.engine).values()
             if isinstance(m, type(oracle)) and getattr(m, name, None) is original]
    assert homes, name
    for module in homes:
        setattr(module, name, stand_in)
    try:
        yield
    finally:
        for module in homes:
            setattr(module, name, original)


@contextmanager
def raw_rules() -> Iterator[None]:
    """Switch the finishability check off, so steps are judged by their own rule only."""
    with replaced("can_finish", lambda s, q: True):
        yield


def _raw_moves(s: GameState) -> list[Move]:
    # asking is judged by the oracle itself; leave it out of the brute force. So
    # is taking back (melds.rearrange): a step is offered only if the turn can be
    # finished without undoing it, since any step could be finished by undoing it.
    return [
        m for m in candidates.candidate_moves(s)
        if not isinstance(m, (Ask, TakeBack)) and engine_game.step(s, m, False) is None
    ]


def finishable(s: GameState, memo: dict[GameState, bool]) -> bool:
    """Brute force: can the player in the play phase end the turn (or the hand) legally?"""
    if s.phase != PLAY:
        return True
    if s in memo:
        return memo[s]
    memo[s] = False
    ok = False
    for m in _raw_moves(s):
        if isinstance(m, Discard):
            ok = True
            break
        nxt = engine_game.step(s, m, True)
        assert isinstance(nxt, GameState)
        if nxt.phase != PLAY or nxt.current != s.current or finishable(nxt, memo):
            ok = True
            break
    memo[s] = ok
    return ok


def assert_moves_agree_with_brute_force(s: GameState) -> None:
    """Every action-space move and every listed move of the play-phase state ``s``: refused by
    its own rule, or legal exactly when the turn can still be finished (brute force over the
    rest of the turn; asking is left to the going-out tests of this module)."""
    from canasta import ActionSpace

    legal = set(s.legal_moves())
    with raw_rules():
        memo: dict[GameState, bool] = {}
        for m in (*ActionSpace(s.variant).moves, *legal):
            if isinstance(m, Ask):
                continue
            if engine_game.step(s, m, False) is not None:
                assert m not in legal, (str(m), s)
                continue
            nxt = engine_game.step(s, m, True)
            assert isinstance(nxt, GameState)
            ends_turn = nxt.phase != PLAY or nxt.current != s.current
            expected = ends_turn or finishable(nxt, memo)
            assert (m in legal) == expected, (str(m), expected, s.hands[0], s.melds, s.scores)


def assert_agrees_and_applies(s: GameState) -> None:
    """:func:`assert_moves_agree_with_brute_force`, and every listed move of ``s`` applies
    (set positions may be dead ends no game reaches; test_engine_random plays real ones)."""
    assert_moves_agree_with_brute_force(s)
    for m in s.legal_moves():
        assert isinstance(s.apply(m), GameState)


def _keen(legal: Sequence[Move], rng: random.Random) -> Move:
    """A move that favours asking the partner and melding.

    Positions where the oracle matters (a side opening, a partner's binding
    answer) then come up often.
    """
    asks = [m for m in legal if isinstance(m, Ask) or m == Answer(True)]
    if asks and rng.random() < 0.8:
        return rng.choice(asks)
    # laying out a kept 3 (threes.keep_one) is what lets its holder meld
    keen = [m for m in legal if isinstance(m, (Meld, Add, MeldSequence, AddToSequence, LayThree))]
    return rng.choice(keen if keen and rng.random() < 0.7 else legal)


def _sampled(
    name: str,
    seed: int,
    count: int,
    wanted: Callable[[GameState], bool],
    choose: Callable[[Sequence[Move], random.Random], Move],
    reachable_out: bool = False,
) -> Iterator[GameState]:
    """States that ``wanted`` picks from seeded play with seven-card hands (no 3 kept).

    With ``reachable_out``, a going-out contract of more than three canastas
    (Pagat's Hand and Foot: five books), which seeded random play of short
    hands never meets, is lowered to one canasta, and one that needs a
    sequence canasta (Bolivia) to any canastas, and Modern American's (two
    canastas, every meld of aces, 7s and wild cards complete) to one canasta;
    every other rule stays.
    """
    v = canasta.load_variant(name)
    deal = attrs.evolve(v.deal, hand_size=7, foot_size=min(v.deal.foot_size, 7))
    # a 3 kept for a special hand (threes.keep_one) is of no use to a seven-card
    # hand, which forms none; kept, it would only keep its player from melding
    v = attrs.evolve(v, deal=deal, threes=attrs.evolve(v.threes, keep_one=False))
    if reachable_out and v.going_out.canastas > 3:
        go = attrs.evolve(v.going_out, canastas=1, natural_canastas=0, mixed_canastas=0, wild_canastas=0)
        v = attrs.evolve(v, going_out=go)
    if reachable_out and v.going_out.sequence_canastas:
        # Bolivia's escalera (seven cards of a suit in order) is as far out of
        # reach of seven-card hands: the contract keeps its count of canastas
        # (test_sequences.py plays the escalera rule on set positions)
        v = attrs.evolve(v, going_out=attrs.evolve(v.going_out, sequence_canastas=0))
    if reachable_out and (v.going_out.complete_ranks or v.going_out.complete_wild_meld):
        # Modern American: two canastas with every meld of aces, 7s and wild cards
        # complete is as far out of reach; one canasta, and the melds to complete are
        # played on set positions (test_closed_ranks.py, test_american.py)
        go = attrs.evolve(v.going_out, canastas=1, complete_ranks=(), complete_wild_meld=False)
        v = attrs.evolve(v, going_out=go)
    rng = random.Random(seed)
    found = 0
    for game in range(600):
        s = canasta.new_game(v, seed=seed * 1000 + game)
        while not s.is_hand_over and found < count:
            if len(s.hands_[s.current]) <= MAX_HAND and wanted(s):
                found += 1
                yield s
            s = s.apply(choose(s.legal_moves(), rng))
        if found >= count:
            return


def positions(name: str, seed: int, count: int, reachable_out: bool = False) -> Iterator[GameState]:
    """Play-phase states, from play that favours asking and melding (see :func:`_sampled`)."""
    return _sampled(name, seed, count, lambda s: s.phase == PLAY, _keen, reachable_out)


@pytest.mark.parametrize("name", PROFILES)
class TestOracle:
    """The engine's feasibility verdict equals brute force."""

    def test_steps_agree_with_brute_force(self, name: str) -> None:
        """A play-phase step is legal exactly when brute force can finish the turn after it."""
        checked = 0
        told_yes = 0
        for s in positions(name, 7, 300):
            told_yes += s.turn.asked == TOLD_YES
            legal = set(s.legal_moves())
            with raw_rules():
                raw = _raw_moves(s)
                memo: dict[GameState, bool] = {}
                for m in raw:
                    if isinstance(m, Foot):
                        continue  # the foot's cards are hidden: judged by its own rule
                    nxt = engine_game.step(s, m, True)
                    assert isinstance(nxt, GameState)
                    if isinstance(m, Discard) or nxt.phase != PLAY or nxt.current != s.current:
                        expected = True
                    else:
                        expected = finishable(nxt, memo)
                    assert (m in legal) == expected, (name, s, str(m), expected)
                    checked += 1
        assert checked > 500
        if name in ("classic", "draw-two"):
            assert told_yes > 0, "no position with a binding yes was checked"


def draw_positions(name: str, seed: int, count: int) -> Iterator[GameState]:
    """Draw-phase states where the pile's top card could be taken, from random play."""
    return _sampled(
        name, seed, count,
        lambda s: s.phase == DRAW and bool(draw.take_candidates(s)),
        lambda legal, rng: rng.choice(legal),
    )


@pytest.mark.parametrize("name", PROFILES)
class TestTakeOracle:
    """Taking the pile is legal exactly when the turn can be finished afterwards."""

    def test_takes_agree_with_brute_force(self, name: str) -> None:
        """Every way of taking the pile agrees with brute force over the rest of the turn."""
        checked = accepted = 0
        for s in draw_positions(name, 11, 200):
            legal = set(s.legal_moves())
            with raw_rules():
                memo: dict[GameState, bool] = {}
                for m in draw.take_candidates(s):
                    if engine_game.step(s, m, False) is not None:
                        assert m not in legal
                        continue
                    nxt = engine_game.step(s, m, True)
                    assert isinstance(nxt, GameState)
                    expected = finishable(nxt, memo)
                    assert (m in legal) == expected, (name, s, str(m), expected)
                    checked += 1
                    accepted += expected
        assert checked > 5 and accepted > 0


@contextmanager
def no_greedy_plan() -> Iterator[None]:
    """Make the quick going-out plan find nothing, so that the full search always decides."""
    with replaced("greedy_plan", lambda r, counts, melds, allow_black, *_how: (0, 0, 99, [])):
        yield


@pytest.mark.parametrize("name", PROFILES)
class TestGoingOutShortcut:
    """"Can the player still go out?" gets the same answer with or without the quick plan."""

    def test_quick_plan_agrees_with_the_full_search(self, name: str) -> None:
        checked = able = 0
        for s in positions(name, 13, 300, reachable_out=True):
            q = probe(s)
            q.asked = TOLD_YES
            quick = oracle.can_go_out(s, q)
            with no_greedy_plan():
                oracle.outcomes.cache_clear()
                full = oracle.can_go_out(s, q)
            assert quick == full, (name, s, s.hands_[s.current])
            checked += 1
            able += full
        assert checked >= 100 and able > 0


def _greedy_ways_out(
    profile: str, seeds: Sequence[int], name: str, fired: Callable[[tuple[Any, ...], Any], bool],
) -> int:
    """Play hands of ``profile`` (greedy play, the deals ``seeds``); at every going-out
    question the listings ask where the greedy plan shows a way out and its step ``name``
    (a function of :mod:`canasta.engine.greedy`) fired on the way (``fired(args, result)``),
    ask the full search too, which must find one. Returns how many such questions."""
    variant = canasta.parse_variant(profile)
    step, melds_out = getattr(greedy, name), oracle._melds_out
    fires = shown = 0

    def counted(*args: Any) -> Any:
        nonlocal fires
        got = step(*args)
        fires += fired(args, got)
        return got

    def checked(r: tables.Rules, q: Probe, ask: greedy.OutQuestion) -> bool:
        nonlocal shown
        before = fires
        if greedy.greedy_out(r, q, ask) and fires > before:
            with no_greedy_plan():
                assert melds_out(r, q, ask), (profile, q.hand, q.melds)
            shown += 1
        return melds_out(r, q, ask)

    with replaced(name, counted), replaced("_melds_out", checked):
        for seed in seeds:
            for _s, _move in moves_of_hand(variant, seed, greedy_policy, 300):
                pass
    return shown


@pytest.mark.parametrize("profile", GAP_SEQUENCES)
def test_a_greedy_way_out_through_a_wild_card_in_a_gap_is_one(profile: str) -> None:
    """Where the greedy plan shows a way out with a new sequence that holds a wild card in
    its gap among its steps, the full search finds one too: every going-out question the
    listings ask in whole hands of greedy play."""
    def gap(args: tuple[Any, ...], codes: list[int] | None) -> bool:
        return codes is not None and args[-1] in codes

    assert _greedy_ways_out(profile, range(40, 44), "_window", gap) > 0, profile


@pytest.mark.parametrize(("profile", "seeds"), WILD_MELDS)
def test_a_greedy_way_out_through_a_meld_of_wild_cards_is_one(profile: str, seeds: tuple[int, ...]) -> None:
    """Where the greedy plan shows a way out that lays its spare wild cards on a meld of
    wild cards, the full search finds one too: every going-out question the listings ask
    in whole hands of greedy play; and where the meld takes back wild cards from the
    plan's other melds."""
    taken = 0

    def laid(args: tuple[Any, ...], got: tuple[int, int]) -> bool:
        nonlocal taken
        melds, plan = args[1], args[3]
        if got[0] and plan[-1][0] == WILD_TARGET:
            _rank, _n, size, index = plan[-1]
            taken += size - (melds[index].wilds if index >= 0 else 0) > got[0]  # some taken back
        return got[0] > 0

    assert _greedy_ways_out(profile, seeds, "_wild_meld_last", laid) > 0, profile
    assert taken > 0, profile


def _bolivia_out(hand: str) -> tuple[bool, bool, list[list[int]]]:
    """Seat 0 of Bolivia, told yes, its side holding two sequence canastas (which take no
    wild card) and ``hand``: whether the greedy plan goes out, whether the full search
    does, and the greedy plan."""
    s = position("bolivia", hands=[hand, "4C 4D 6C", "5D 6D 8C", "8D 10C JC"],
                 melds={0: ["4H 5H 6H 7H 8H 9H 10H", "4S 5S 6S 7S 8S 9S 10S"]}, pile="5C 9D")
    q = probe(s)
    q.asked = TOLD_YES
    ask = oracle._out_question(s, q)
    _left, quick, plan = greedy._greedy_left(s.rules, q, ask, q.counts)
    with no_greedy_plan():
        full = oracle._melds_out(s.rules, q, ask)
    return quick, full, plan


def test_the_greedy_plan_lays_its_spare_wild_cards_on_a_meld_of_wild_cards() -> None:
    # QH QS QD takes one wild card, two stay: the new meld of wild cards takes them and
    # the one the queens can spare (they were laid without it)
    quick, full, plan = _bolivia_out("QH QS QD 2C 2D 2H 5C")
    assert quick and full
    assert sorted(plan) == [[0, 0, 3, -1], [12, 3, 0, -1]]


def test_a_new_meld_keeps_the_wild_card_it_was_laid_with() -> None:
    # QH QS 2 is laid with its wild card; the two others make no meld of wild cards alone
    assert _bolivia_out("QH QS 2C 2D 2H 5C") == (False, False, [[12, 2, 1, -1]])


@pytest.mark.parametrize("profile", CLEAN_OPENINGS)
def test_a_greedy_clean_opening_is_one(profile: str) -> None:
    """Where the greedy plan of natural cards alone opens under a clean opening
    (:func:`~canasta.engine.greedy.clean_opens`), the full search finds an opening too:
    every opening question the listings ask in hands of greedy and random play."""
    variant = canasta.parse_variant(profile)
    shown = 0
    opens, in_reach = greedy.clean_opens, oracle._opening_in_reach

    def checked(s: GameState, q: Probe) -> bool:
        nonlocal shown
        found = in_reach(s, q)
        if found and opens(s.rules, q.counts, q.melds, *_clean_question(s, q)):
            with replaced("clean_opens", lambda *_args: False):
                assert in_reach(s, q), (profile, q.hand, q.melds)
            shown += 1
        return found

    with replaced("_opening_in_reach", checked):
        for seed in range(50, 54):
            for _s, _move in moves_of_hand(variant, seed, (greedy_policy, random_policy)[seed % 2], 200):
                pass
    assert shown > 0, profile


def _clean_question(s: GameState, q: Probe) -> tuple[int, int, int]:
    """The canasta, points and pile cards :func:`~canasta.engine.greedy.clean_opens` is
    asked with from ``q``, as the oracle asks it."""
    side = s.rules.side_of[s.current]
    return opening_canasta(s, side), opening_minimum(s, side) - q.points, len(q.pending)


#: Profiles with sequences whose going-out questions :func:`test_a_card_no_run_can_hold_is_stranded`
#: asks: Bolivia and Samba, and long hands with wild cards in gaps.
STRANDED_RUNS = ("extends: bolivia\n", "extends: samba\n", *GAP_SEQUENCES)


@pytest.mark.parametrize("profile", STRANDED_RUNS)
def test_a_card_no_run_can_hold_is_stranded(profile: str) -> None:
    """Where the natural cards no meld of their rank and no run of their suit can take
    (:func:`~canasta.engine.oracle._sequence_strays`) make two cards that must stay in hand,
    the full search finds no way out either: the positions of hands of greedy and random
    play, the player told yes."""
    variant = canasta.parse_variant(profile)
    decided = 0
    for seed in range(60, 66):
        for s, _move in moves_of_hand(variant, seed, (greedy_policy, random_policy)[seed % 2], 300):
            if s.phase != PLAY:
                continue
            q = probe(s)
            q.asked = TOLD_YES
            r, info = s.rules, meld_info(s.rules, q.melds)
            if not oracle._stranded(r, q.counts, info, r.black_melds, q.hand):
                continue
            with replaced("_sequence_strays", lambda *_args: 0):
                if oracle._stranded(r, q.counts, info, r.black_melds, q.hand):
                    continue  # stranded without the strays too
            found = oracle.can_go_out(s, q)
            with replaced("_sequence_strays", lambda *_args: 0), no_greedy_plan():
                assert found == oracle.can_go_out(s, q), (profile, q.hand, q.melds)
            decided += 1
    assert decided > 0, profile
