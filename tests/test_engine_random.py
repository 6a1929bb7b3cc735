"""Random playouts of every bundled profile, checking the engine's invariants after each move.

The hands are a fixed budget for all the bundled profiles together, split
evenly among them (never fewer than :data:`MIN_PER_PROFILE` each), so that a new
profile makes each profile's share smaller instead of the run longer. A plain
run plays 65 hands in all (5 a profile), the long run (``CANASTA_LONG=1``,
tests/budget.py) 480 (at least 10 a profile), with hypothesis derandomized and no example database, so
CI sees the same hands every time. Set ``CANASTA_PLAYOUTS=N`` to play N hands
in all instead (CI plays 720; 16000 makes a soak), and ``CANASTA_PLAYOUT_SEED``
to change which hands those are.
"""

from __future__ import annotations

import contextlib
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations_with_replacement

import attrs
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import canasta
from budget import LONG, profiles
from canasta import (
    Add,
    Answer,
    Ask,
    Discard,
    Draw,
    Foot,
    GameState,
    IllegalMoveError,
    Meld,
    Move,
    NextHand,
    Pass,
    TakePile,
)
from canasta.cards import build_deck
from canasta.engine import KIND
from canasta.engine.moves import AddToSequence, MeldSequence
from houses import HOUSES, house_variant
from random_games import GREEDY_GAMES
from strategies import playouts

VARIANTS = canasta.variant_names()

#: Hands in all, over every bundled profile, in the long run: CANASTA_PLAYOUTS, or this.
LONG_PLAYOUTS = 480
#: Hands in all, over every bundled profile: CANASTA_PLAYOUTS, or the default below.
DEFAULT_PLAYOUTS = LONG_PLAYOUTS if LONG else 65
#: Each profile plays at least this many hands, however many profiles share the budget.
MIN_PER_PROFILE = 10 if LONG else 5
TOTAL_PLAYOUTS = int(os.environ.get("CANASTA_PLAYOUTS") or DEFAULT_PLAYOUTS)
#: Hands per profile: an even share of the budget.
PLAYOUTS = max(MIN_PER_PROFILE, TOTAL_PLAYOUTS // len(VARIANTS))
#: A run longer than the default samples the expensive "unlisted moves are
#: refused" check more thinly.
REFUSAL_EVERY = 4 if TOTAL_PLAYOUTS <= LONG_PLAYOUTS else 8
#: A hand of any bundled profile ends well within this many moves.
MAX_MOVES = 3000
#: Whole games played to game over per profile.
GAMES = 2 if LONG else 1

_SEED = os.environ.get("CANASTA_PLAYOUT_SEED")
_SETTINGS = settings(
    max_examples=PLAYOUTS,
    deadline=None,
    derandomize=_SEED is None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _seeded(test: Callable[..., None]) -> Callable[..., None]:
    """Seed hypothesis from CANASTA_PLAYOUT_SEED when it is set (else it is derandomized)."""
    return seed(int(_SEED))(test) if _SEED is not None else test


_variants = {name: canasta.load_variant(name) for name in VARIANTS}

#: House profiles (tests/houses.py) turning on options no bundled profile uses
#: yet; each plays this many random hands, on top of the bundled budget.
HOUSE_NAMES = sorted(HOUSES)
HOUSE_PLAYOUTS = max(80 if LONG else 10, PLAYOUTS)
_houses = {name: house_variant(name) for name in HOUSE_NAMES}


# -- checking one state -----------------------------------------------------------------


def deck_of(s: GameState) -> Counter[int]:
    """The variant's full deck as a multiset of card codes."""
    d = s.variant.deck
    return Counter(int(c) for c in build_deck(d.decks, d.jokers_per_deck))


def cards_in_play(s: GameState) -> Counter[int]:
    """Every card of the state, wherever it lies, as a multiset."""
    out: Counter[int] = Counter()
    for group in (*s.hands_, *s.feet_, s.stock_, s.pile_, *s.red_threes_, s.turn.pending):
        out.update(group)
    for side in s.melds_:
        for m in side:
            out.update(m.cards)
    return out


def fresh_copy(s: GameState) -> GameState:
    """An equal state built from new containers (nothing shared but the cards' values)."""
    return attrs.evolve(
        s,
        hands_=tuple(tuple(list(h)) for h in s.hands_),
        feet_=tuple(tuple(list(f)) for f in s.feet_),
        stock_=tuple(list(s.stock_)),
        pile_=tuple(list(s.pile_)),
        melds_=tuple(tuple(attrs.evolve(m) for m in side) for side in s.melds_),
        red_threes_=tuple(tuple(list(x)) for x in s.red_threes_),
    )


def broad_candidates(s: GameState, rng: random.Random) -> Iterator[Move]:
    """Well-formed moves of every type, many of them illegal now, plus random ones."""
    yield from (Draw(), Pass(), Foot(), Ask(), Answer(True), Answer(False), NextHand())
    for way in ("pair", "layoff", "finish"):
        yield TakePile(way)
    for wild in (2, 15, 5):
        yield TakePile("wild", wild)
    hand = s.hands_[s.current]
    kinds = sorted({KIND[c] for c in hand})
    for combo in combinations_with_replacement(kinds, 3):
        yield Meld(combo)
    for n in (2, 3, 4, 5, 7):
        yield Meld((3,) * n)
    side = s.side_of(s.current)
    targets = {m.rank for m in s.melds_[side]} | {0}
    for target in sorted(targets):
        for kind in sorted({*kinds, target}):
            yield Add(target, kind)
    for kind in range(1, 16):
        yield Discard(kind, False)
        yield Discard(kind, True)
    if s.variant.sequences.allowed:
        # new sequences around cards held, with and without a wild card inside
        # (sequences.wild_in_gap), and cards at both ends of the side's sequences
        size = s.variant.sequences.min_size
        for c in rng.sample(hand, min(4, len(hand))):
            low, suit = c >> 2, c & 3
            if low >= 2 and low + size - 1 <= 14:
                yield MeldSequence(suit, low, low + size - 1)
                for wild in (2, 15):
                    yield MeldSequence(suit, low, low + size - 1, wild, low + rng.randrange(size))
        for m in s.melds_[side]:
            if m.is_sequence:
                for rank in (m.low - 1, m.high + 1, m.high + 2):
                    if 2 <= rank <= 14:
                        yield AddToSequence(m.suit, m.low, m.high, rank)
    for _ in range(12):
        pick = rng.randrange(5)
        if pick == 0:
            yield Meld(tuple(rng.randrange(16) for _ in range(rng.randint(1, 8))))
        elif pick == 1:
            yield Add(rng.randrange(16), rng.randrange(16))
        elif pick == 2:
            yield Discard(rng.randrange(16), rng.random() < 0.5)
        elif pick == 3:
            yield TakePile("wild", rng.randrange(16))
        else:
            yield Meld(tuple(rng.choice(kinds or [4]) for _ in range(3)))


class Checker:
    """Checks the invariants of states of one variant."""

    def __init__(self, s: GameState, rng: random.Random) -> None:
        self.deck = deck_of(s)
        self.rng = rng
        self.states = 0

    def check(self, s: GameState, refusals: bool) -> list[Move]:
        """Check ``s`` and return its legal moves; ``refusals`` adds the costly check (c)."""
        self.states += 1
        # (a) every card in exactly one place
        assert cards_in_play(s) == self.deck, f"cards not conserved in {s!r}"
        # (g) hashable, equal to a rebuilt copy
        copy = fresh_copy(s)
        assert copy == s
        assert hash(copy) == hash(s)
        legal = list(s.legal_moves())
        # (i) what the engine worked out about s and kept changes nothing: the
        # copy, which shares none of it, lists the same moves
        assert list(copy.legal_moves()) == legal
        # (d) no dead ends
        if not s.is_game_over:
            assert legal, f"dead end: {s!r} has no legal move (turn {s.turn})"
        else:
            assert legal == []
        # (b) listed moves are distinct and apply; (f) their notation round-trips
        assert len(set(legal)) == len(legal), f"duplicate moves in {[str(m) for m in legal]}"
        for m in legal:
            assert s.is_legal(m), f"listed move {m} is not is_legal in {s!r}"
            after = s.apply(m)
            assert isinstance(after, GameState)
            text = str(m)
            assert s.parse_move(text) == m, f"{text!r} does not parse back to {m!r}"
        # (h) the seat to move sees the same moves; other seats see none
        for seat in range(s.rules.n):
            seen = list(s.view(seat).legal_moves())
            assert seen == (legal if seat == s.current else []), (
                f"seat {seat}'s view lists {[str(m) for m in seen]} in {s!r}"
            )
        # (c) well-formed moves that are not listed are refused, with a reason
        if refusals:
            listed = set(legal)
            refused = []
            for m in broad_candidates(s, self.rng):
                if m in listed:
                    continue
                assert not s.is_legal(m), f"{m} is legal in {s!r} but not listed"
                # try/except, not pytest.raises: this runs some 50 times a state
                try:
                    s.apply(m)
                except IllegalMoveError as exc:
                    reason = exc.reason
                else:
                    raise AssertionError(f"{m} is not legal in {s!r} but apply accepted it")
                assert isinstance(reason, str) and reason.strip(), f"empty reason for {m}"
                refused.append(m)
            # (g) refused moves leave the state as it was, and hashing as it did (a
            # fresh copy: a state keeps its first hash). Compared once, after all of
            # them: a change would stay in s, which nothing replaces, and comparing
            # states compares their whole variants, a third of this file's time when
            # it followed each of some 50 refusals a state.
            if s != copy:
                raise AssertionError(f"refusing {changed_by(copy, refused)} changed {s!r}")
            assert hash(fresh_copy(s)) == hash(copy)
        return legal


def changed_by(s: GameState, moves: Sequence[Move]) -> str:
    """The first of ``moves`` whose refusal changes a copy of ``s`` (for a failure's message)."""
    for m in moves:
        t = fresh_copy(s)
        with contextlib.suppress(IllegalMoveError):
            t.apply(m)
        if t != s:
            return str(m)
    return f"one of {[str(m) for m in moves]}"


def check_hand_end(s: GameState, deck: Counter[int]) -> None:
    """The final state of a hand: scored, recorded in the history, only 'next' (or nothing)."""
    assert s.is_hand_over
    assert s.end is not None
    if s.end.reason == "special":
        # a special hand (special.hands) ends it: the laying side scores that hand alone
        hand = {h.name: h for h in s.variant.special.hands}[s.end.special]
        side = s.side_of(s.end.seat)
        assert s.end.breakdowns[side].items == ((hand.title, hand.value),)
    else:
        assert s.end.reason in ("out", "stock")
    assert s.history[-1] == s.end.hand_scores
    for total, breakdown in zip(s.end.hand_scores, s.end.breakdowns, strict=True):
        assert total == sum(points for _, points in breakdown.items)
    assert cards_in_play(s) == deck
    for side in range(len(s.scores)):
        assert s.scores[side] == sum(h[side] for h in s.history)
    if s.is_game_over:
        assert list(s.legal_moves()) == []
    else:
        assert list(s.legal_moves()) == [NextHand()]


# -- policies ------------------------------------------------------------------------------


def preferred(legal: Sequence[Move]) -> Sequence[Move]:
    """The moves a greedy player picks from: take the pile, pick up the foot, meld, go out."""
    for kinds in ((TakePile,), (Foot,), (Meld, Add)):
        pick = [m for m in legal if isinstance(m, kinds)]
        if pick:
            return pick
    outs = [m for m in legal if isinstance(m, Discard) and m.out]
    return outs or legal


def play_hand(
    s: GameState, choices: Sequence[int], seed: int, greedy: bool, checker: Checker,
    refusals: bool = True, bot: canasta.Bot | None = None,
) -> tuple[GameState, int]:
    """Play the current hand of ``s`` to its end, checking every state; return it and the moves
    (chosen by ``bot`` when given, else at random or from the preferred moves)."""
    rng = random.Random(seed)
    for i in range(MAX_MOVES):
        if s.is_hand_over:
            return s, i
        legal = checker.check(s, refusals and i % REFUSAL_EVERY == 0)
        if bot is not None:
            s = s.apply(bot.choose(s.view(s.current), rng))
            continue
        pool = preferred(legal) if greedy else legal
        index = choices[i] if i < len(choices) else rng.randrange(2**16)
        s = s.apply(pool[index % len(pool)])
    raise AssertionError(f"the hand did not end within {MAX_MOVES} moves: {s!r}")


def play_checked_hand(s: GameState, seed: int, greedy: bool) -> int:
    """Play the hand of ``s`` to its end with random (or greedy) moves, every state checked and
    every unlisted move tried refused; return the moves played."""
    checker = Checker(s, random.Random(seed))
    end, moves = play_hand(s, (), seed, greedy, checker)
    checker.check(end, refusals=True)
    check_hand_end(end, checker.deck)
    return moves


# -- the tests -------------------------------------------------------------------------------


class TestRandomHands:
    """GameState.legal_moves / apply / is_legal / view over random hands of every profile."""

    @pytest.mark.parametrize("name", VARIANTS)
    @_seeded
    @_SETTINGS
    @given(play=playouts(), greedy=st.booleans())
    def test_invariants_hold_after_every_move(
        self, name: str, play: tuple[int, tuple[int, ...]], greedy: bool
    ) -> None:
        """Cards are conserved, listed moves apply, unlisted ones are refused, the hand ends."""
        seed, choices = play
        s = canasta.new_game(_variants[name], seed=seed)
        checker = Checker(s, random.Random(seed))
        end, moves = play_hand(s, choices, seed, greedy, checker)
        checker.check(end, refusals=True)
        check_hand_end(end, checker.deck)
        assert 0 < moves < MAX_MOVES


class TestHouseHands:
    """The same invariants over random hands of the house profiles (Modern American options, issue #15)."""

    @pytest.mark.parametrize("name", HOUSE_NAMES)
    @_seeded
    @settings(_SETTINGS, max_examples=HOUSE_PLAYOUTS)
    @given(play=playouts(), greedy=st.booleans())
    def test_invariants_hold_after_every_move(
        self, name: str, play: tuple[int, tuple[int, ...]], greedy: bool
    ) -> None:
        """Cards are conserved, listed moves apply, unlisted ones are refused, the hand ends."""
        seed, choices = play
        s = canasta.new_game(_houses[name], seed=seed)
        checker = Checker(s, random.Random(seed))
        end, moves = play_hand(s, choices, seed, greedy, checker)
        checker.check(end, refusals=True)
        check_hand_end(end, checker.deck)
        assert 0 < moves < MAX_MOVES


class TestWholeGames:
    """Complete games, hand after hand, to game over."""

    @pytest.mark.parametrize("game", range(GAMES))
    # one profile of each family in a plain run (tests/test_games.py plays a
    # random whole game of every profile there), all of them in the long run
    @pytest.mark.parametrize("name", profiles(VARIANTS))
    def test_game_reaches_game_over(self, name: str, game: int) -> None:
        """'next' deals the next hand, scores accumulate, and the game ends by its rule."""
        v = _variants[name]
        seed = 1000 + game
        s = canasta.new_game(v, seed=seed)
        checker = Checker(s, random.Random(seed))
        # random players never end a Modern American game: the greedy bot plays it
        bot = canasta.GreedyBot() if name in GREEDY_GAMES else None
        hands = 0
        while True:
            s, _ = play_hand(s, (), seed + hands, True, checker, refusals=False, bot=bot)
            hands += 1
            check_hand_end(s, checker.deck)
            assert len(s.history) == hands == s.hand_number + 1
            if s.is_game_over:
                break
            assert hands < 60, f"{name}: no game over after {hands} hands"
            nxt = s.apply("next")
            assert nxt.phase_name == "draw"
            assert nxt.hand_number == s.hand_number + 1
            assert nxt.dealer == (s.dealer + 1) % s.rules.n
            assert nxt.current == (nxt.dealer + 1) % s.rules.n
            assert nxt.scores == s.scores
            assert nxt.history == s.history
            assert nxt.end is None
            assert cards_in_play(nxt) == checker.deck
            assert all(len(h) > 0 for h in nxt.hands_)
            s = nxt
        totals = tuple(sum(h[side] for h in s.history) for side in range(len(s.scores)))
        assert s.scores == totals
        game = v.game
        if game.rounds is not None:
            assert hands == game.rounds
        else:
            assert max(s.scores) >= game.target
            if game.tie == "play_another":
                assert s.scores.count(max(s.scores)) == 1
        with pytest.raises(IllegalMoveError) as info:
            s.apply("next")
        assert "game is over" in info.value.reason
