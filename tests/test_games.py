"""Whole games: random complete games of every bundled profile, and how games end.

Each random game is played by a seeded :class:`random.Random` choosing among
``legal_moves()``, with ``next`` at each hand's end, until game over (at most
:data:`MAX_HANDS` hands). The games are played once per process and shared by
the tests, and with the other suites that check random games (tests/random_games.py).
In the profiles of :data:`random_games.GREEDY_GAMES` random players lose points every
hand (Modern American's penalties for unfinished aces, 7s and wild melds), so no
game would ever end: there the greedy bot plays every seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import attrs
import pytest

import canasta
from canasta import GameState, NextHand, Variant, score_side
from canasta.cards import Card, parse_cards
from canasta.engine import compile_rules, opening_minimum
from canasta.engine.state import DRAW, PLAY, Turn
from canasta.variant.loading import variant_from_dict
from random_games import MAX_HANDS, PROFILES, SEEDS, Played, play, played, reads

VARIANTS = canasta.variant_names()


@attrs.frozen
class Game:
    """A finished random game.

    Attributes:
        starts: the state at the start of each hand.
        ends: the state at the end of each hand (the last one is game over).
    """

    starts: tuple[GameState, ...]
    ends: tuple[GameState, ...]


def play_game(variant: Variant, seed: int, max_hands: int = MAX_HANDS) -> Game:
    """Play a whole game with random legal moves (see :func:`random_games.play`).

    Args:
        variant: the rules.
        seed: seeds both the deal and the move choices.
        max_hands: fail if the game has not ended after this many hands.

    Returns:
        The states at the start and at the end of each hand.
    """
    return hands_of(play(variant, seed, max_hands))


def hands_of(g: Played) -> Game:
    """The states of ``g`` at the start and at the end of each hand."""
    starts = [g.states[0]]
    starts += [g.states[i + 1] for i, move in enumerate(g.moves) if move == NextHand()]
    return Game(tuple(starts), tuple(s for s in g.states if s.is_hand_over))


@cache
def game(name: str, seed: int) -> Game:
    """The random game of bundled profile ``name`` with ``seed`` (played once, then cached)."""
    return hands_of(played(name, seed))


def all_games(name: str) -> list[Game]:
    """Every random game of profile ``name`` (one per seed of :data:`random_games.SEEDS`)."""
    return [game(name, seed) for seed in SEEDS]


def codes(text: str) -> tuple[int, ...]:
    """Sorted card codes of ``text``."""
    return tuple(sorted(int(c) for c in parse_cards(text)))


def rescore(s: GameState) -> tuple[canasta.ScoreBreakdown, ...]:
    """Each side's breakdown of the hand ``s`` ended, recomputed with score_side.

    Args:
        s: a state at the end of a hand.

    Returns:
        One breakdown per side, from the table as a score keeper would write it down.
    """
    assert s.end is not None
    out = []
    for side, seats in enumerate(s.sides):
        went = s.end.reason == "out" and s.end.seat in seats
        laid = s.end.special if s.end.reason == "special" and s.end.seat in seats else ""
        hands: list[list[Card]] = []
        foot: list[Card] = []
        for p in seats:
            held = list(s.hands[p])
            if p == s.end.seat:
                held += [Card(c) for c in s.turn.pending]
            hands.append(held)
            foot += s.feet[p]
        out.append(score_side(
            s.variant,
            melds=[m.card_list() for m in s.melds[side]],
            # laid 3s: red and black apart (black ones are laid too with threes.black_laid_at_once)
            red_threes=sum(1 for c in s.red_threes[side] if c.is_red),
            black_threes=sum(1 for c in s.red_threes[side] if not c.is_red),
            hands=hands,
            foot=foot,
            went_out=went,
            concealed=went and s.end.concealed,
            black_three_out=went and s.end.black_three_out,
            opened=s.opened[side],
            special=laid,
        ))
    return tuple(out)


def expected_minimum(name: str, score: int, hand_number: int) -> int:
    """The opening minimum RULES.md gives for ``name`` (classic table by score, or by round)."""
    if name in ("hand-and-foot", "hand-and-foot-pagat"):
        return (50, 90, 120, 150)[hand_number]
    if name in ("modern-american", "modern-american-2p"):
        # the CLA's table: 125 below 3000 (negative scores too), 155 to 4995, 180 from 5000
        return 125 if score < 3000 else 155 if score < 5000 else 180
    if score < 0:
        return 15
    if score < 1500:
        return 50
    if score < 3000:
        return 90
    if score >= 7000 and name == "brazilian":
        # from 7000 a canasta (no points), from 8000 a canasta and 200, from 9000 a natural canasta
        return 200 if 8000 <= score < 9000 else 0
    if score >= 7000 and name in ("samba", "bolivia"):
        # the Samba family's fifth step (Bicycle: 160 in Samba; 150 in Bolivia)
        return 160 if name == "samba" else 150
    return 120


def in_play(
    variant: Variant, *, hand: str, scores: Sequence[int] = (0, 0), hand_number: int = 0
) -> GameState:
    """Seat 0 in its play phase holding ``hand``, its side unopened with no melds.

    Args:
        variant: the rules.
        hand: seat 0's cards.
        scores: each side's cumulative score before this hand.
        hand_number: the 0-based hand (round) number.

    Returns:
        The state (the other seats keep their dealt cards).
    """
    s = canasta.new_game(variant, seed=7)
    n_sides = len(s.sides)
    return attrs.evolve(
        s, phase=PLAY, current=0, turn=Turn(), hand_number=hand_number,
        scores=tuple(scores), hands_=(codes(hand), *s.hands_[1:]),
        melds_=((),) * n_sides, opened=(False,) * n_sides, red_threes_=((),) * n_sides,
    )


# -- random whole games -------------------------------------------------------------------------


@pytest.mark.parametrize("name", PROFILES)
class TestRandomGames:
    """Random complete games of every bundled profile."""

    def test_games_end(self, name: str) -> None:
        """Every game reaches game over within MAX_HANDS hands, hand after hand."""
        for g in all_games(name):
            assert g.ends[-1].is_game_over
            assert all(not e.is_game_over and e.is_hand_over for e in g.ends[:-1])
            assert len(g.starts) == len(g.ends) <= MAX_HANDS
            assert [s.hand_number for s in g.starts] == list(range(len(g.starts)))

    def test_game_total_is_sum_of_hand_totals(self, name: str) -> None:
        """After every hand, each side's score is the column sum of the history."""
        for g in all_games(name):
            for i, e in enumerate(g.ends):
                assert len(e.history) == i + 1
                assert e.scores == tuple(sum(col) for col in zip(*e.history, strict=True))

    def test_breakdowns_match_history(self, name: str) -> None:
        """Each hand's breakdown totals are its history row, and their items add up."""
        for g in all_games(name):
            for e in g.ends:
                assert e.end is not None
                assert tuple(b.total for b in e.end.breakdowns) == e.history[-1]
                assert e.end.hand_scores == e.history[-1]
                for b in e.end.breakdowns:
                    assert sum(points for _, points in b.items) == b.total

    def test_score_side_agrees_with_the_engine(self, name: str) -> None:
        """score_side, given each side's final table, reproduces the engine's breakdowns."""
        for g in all_games(name):
            for e in g.ends:
                assert e.end is not None
                assert rescore(e) == e.end.breakdowns

    def test_next_hand_carries_scores(self, name: str) -> None:
        """'next' deals with the next dealer and the cumulative scores and history."""
        for g in all_games(name):
            for before, after in zip(g.ends, g.starts[1:], strict=False):
                assert after.phase == DRAW
                assert after.dealer == (before.dealer + 1) % before.rules.n
                assert after.scores == before.scores
                assert after.history == before.history
                assert after.end is None

    def test_opening_minimum_follows_the_profile(self, name: str) -> None:
        """Each hand's opening minimum is the profile's, by cumulative score or by round."""
        for g in all_games(name):
            for s in g.starts:
                for side in range(len(s.sides)):
                    assert opening_minimum(s, side) == expected_minimum(
                        name, s.scores[side], s.hand_number
                    ), (s.scores, s.hand_number)

    def test_game_ends_by_its_rule(self, name: str) -> None:
        """The game ends exactly when the profile says: at the target score or after N rounds."""
        rules = canasta.load_variant(name).game
        for g in all_games(name):
            for e in g.ends:
                best = max(e.scores)
                if rules.rounds is not None:
                    over = len(e.history) >= rules.rounds
                else:
                    assert rules.target is not None
                    over = best >= rules.target
                if over and rules.tie == "play_another":
                    over = e.scores.count(best) == 1
                assert e.is_game_over == over, (e.scores, len(e.history))

    def test_winners_and_standings(self, name: str) -> None:
        """At game over the winners have the highest score; standings list every side, best first."""
        for g in all_games(name):
            last = g.ends[-1]
            best = max(last.scores)
            assert last.winners == tuple(i for i, x in enumerate(last.scores) if x == best)
            assert [x for _, x in last.standings] == sorted(last.scores, reverse=True)
            assert sorted(side for side, _ in last.standings) == list(range(len(last.scores)))


class TestGameLength:
    """The game-end rules of the seed profiles, on the random games."""

    @reads("classic")
    def test_classic_ends_at_5000(self) -> None:
        """Classic games end on the first hand that takes a side to 5000 or more."""
        for g in all_games("classic"):
            assert max(g.ends[-1].scores) >= 5000
            assert all(max(e.scores) < 5000 for e in g.ends[:-1])

    @reads("hand-and-foot")
    def test_hand_and_foot_plays_four_rounds(self) -> None:
        """Hand and Foot games last exactly four rounds, whatever the scores."""
        for g in all_games("hand-and-foot"):
            assert len(g.ends) == 4
            assert [s.hand_number for s in g.starts] == [0, 1, 2, 3]

    @reads("classic")
    def test_classic_games_meet_several_minimums(self) -> None:
        """The classic games pass through the 50, 90 and 120 opening minimums."""
        seen = {
            opening_minimum(s, side)
            for g in all_games("classic")
            for s in g.starts
            for side in range(len(s.sides))
        }
        assert {50, 90, 120} <= seen

    def test_small_target_game(self) -> None:
        """A custom draw-two with a 500 target ends at 500, a unique leader winning."""
        v = variant_from_dict({"extends": "draw-two", "name": "short", "game": {"target": 500}})
        for seed in range(1, 4):
            g = play_game(v, seed, max_hands=50)
            last = g.ends[-1]
            assert max(last.scores) >= 500
            assert len(last.winners) == 1
            assert all(
                max(e.scores) < 500 or e.scores.count(max(e.scores)) > 1 for e in g.ends[:-1]
            )


# -- opening minimums, move by move ---------------------------------------------------------------


class TestOpeningMinimum:
    """The opening minimum refuses melds that cannot reach it, by score or by round."""

    @pytest.mark.parametrize(
        ("score", "minimum"),
        [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (9000, 120)],
    )
    def test_classic_minimum_by_score(self, score: int, minimum: int) -> None:
        """Classic: < 0 needs 15, 0-1495 50, 1500-2995 90, 3000 or more 120."""
        s = in_play(canasta.load_variant("classic"), hand="AH AS AD 7C 8D", scores=(score, 0))
        assert opening_minimum(s, 0) == minimum
        assert opening_minimum(s, 1) == 50

    def test_classic_side_at_1500_needs_90(self) -> None:
        """With 1500 a meld of three aces (60) cannot open; with 1495 it can."""
        v = canasta.load_variant("classic")
        at_1500 = in_play(v, hand="AH AS AD 7C 8D", scores=(1500, 0))
        assert not at_1500.is_legal(at_1500.parse_move("meld A A A"))
        with pytest.raises(canasta.IllegalMoveError) as info:
            at_1500.apply("meld A A A")
        assert "opening minimum of 90" in info.value.reason
        at_1495 = in_play(v, hand="AH AS AD 7C 8D", scores=(1495, 0))
        opened = at_1495.apply("meld A A A")
        assert opened.opened[0]
        assert opened.apply("discard 7").current == 1

    def test_classic_90_reached_with_two_melds(self) -> None:
        """At 1500, three aces (60) and three kings (30) make exactly 90 and open.

        Two cards stay in hand: discarding the last one would be going out, which
        needs a canasta.
        """
        v = canasta.load_variant("classic")
        s = in_play(v, hand="AH AS AD KH KS KD 8D 9C", scores=(1500, 0))
        s = s.apply("meld A A A")
        assert not s.opened[0]
        assert not s.is_legal(s.parse_move("discard 8"))
        s = s.apply("meld K K K")
        assert s.opened[0]
        assert s.is_legal(s.parse_move("discard 8"))

    @pytest.mark.parametrize(("round_index", "minimum"), [(0, 50), (1, 90), (2, 120), (3, 150)])
    def test_hand_and_foot_minimum_by_round(self, round_index: int, minimum: int) -> None:
        """Hand and Foot: 50, 90, 120, 150 in rounds 1 to 4, whatever the score."""
        v = canasta.load_variant("hand-and-foot")
        for scores in [(0, 0), (-500, 8000)]:
            s = in_play(v, hand="AH AS AD 7C 8D", scores=scores, hand_number=round_index)
            assert opening_minimum(s, 0) == opening_minimum(s, 1) == minimum

    def test_hand_and_foot_round_two_needs_90(self) -> None:
        """In round 2 three aces (60) cannot open, three aces and three kings (90) can."""
        v = canasta.load_variant("hand-and-foot")
        short = in_play(v, hand="AH AS AD 7C 8D", hand_number=1)
        with pytest.raises(canasta.IllegalMoveError) as info:
            short.apply("meld A A A")
        assert "opening minimum of 90" in info.value.reason
        s = in_play(v, hand="AH AS AD KH KS KD 8D", hand_number=1)
        s = s.apply("meld A A A").apply("meld K K K")
        assert s.opened[0]
        first_round = in_play(v, hand="AH AS AD 7C 8D", hand_number=0).apply("meld A A A")
        assert first_round.opened[0]


# -- ties -------------------------------------------------------------------------------------


def tied_hand_end(variant: Variant, scores: tuple[int, int]) -> GameState:
    """End a draw-two style hand by the stock with both sides scoring -10.

    Seat 0 discards a 9 with one card left in the stock (too few to draw two), so the
    hand ends; every seat is left holding one 5 (5 points), two per side.

    Args:
        variant: a variant that draws two and ends the hand on a short stock.
        scores: the cumulative scores before the hand.

    Returns:
        The state after the discard.
    """
    s = canasta.new_game(variant, seed=3)
    s = attrs.evolve(
        s, phase=PLAY, current=0, turn=Turn(), scores=scores,
        hands_=(codes("5C 9D"), codes("5H"), codes("5D"), codes("5S")),
        stock_=codes("KH"), melds_=((), ()), opened=(False, False), red_threes_=((), ()),
    )
    return s.apply("discard 9")


class TestTies:
    """Draw-two plays another hand on a tie at or above the target; classic ties are a draw."""

    def test_draw_two_tie_plays_another_hand(self) -> None:
        """Both sides at 5090 (5100 - 10): the game is not over, 'next' deals on."""
        end = tied_hand_end(canasta.load_variant("draw-two"), (5100, 5100))
        assert end.end is not None and end.end.reason == "stock"
        assert end.history[-1] == (-10, -10)
        assert end.scores == (5090, 5090)
        assert end.is_hand_over and not end.is_game_over
        assert end.winners == ()
        nxt = end.apply("next")
        assert nxt.hand_number == end.hand_number + 1
        assert nxt.scores == (5090, 5090)

    def test_draw_two_without_tie_ends(self) -> None:
        """5090 against 4990 at the same hand end: the game is over, side 0 wins."""
        end = tied_hand_end(canasta.load_variant("draw-two"), (5100, 5000))
        assert end.scores == (5090, 4990)
        assert end.is_game_over
        assert end.winners == (0,)
        assert end.standings == ((0, 5090), (1, 4990))

    def test_tie_below_target_is_no_end(self) -> None:
        """A tie below the target simply goes on."""
        end = tied_hand_end(canasta.load_variant("draw-two"), (1000, 1000))
        assert end.scores == (990, 990)
        assert not end.is_game_over

    def test_tie_rule_draw_ends_in_a_draw(self) -> None:
        """The same tie under ``game.tie: draw`` ends the game with both sides winning."""
        base = canasta.load_variant("draw-two")
        v = attrs.evolve(base, game=attrs.evolve(base.game, tie="draw"))
        assert compile_rules(v).v is v
        end = tied_hand_end(v, (5100, 5100))
        assert end.is_game_over
        assert end.winners == (0, 1)

    def test_custom_variant_with_small_target(self) -> None:
        """A profile built with variant_from_dict (target 100) plays another hand on a tie."""
        v = variant_from_dict({"extends": "draw-two", "name": "tiny", "game": {"target": 100}})
        tied = tied_hand_end(v, (110, 110))
        assert tied.scores == (100, 100)
        assert not tied.is_game_over
        won = tied_hand_end(v, (110, 105))
        assert won.is_game_over and won.winners == (0,)
