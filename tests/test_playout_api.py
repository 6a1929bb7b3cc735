"""canasta.playout and play_hand: hands played to their end with a policy."""

from __future__ import annotations

import random

import pytest

import canasta
from canasta import CanastaError, IllegalMoveError, RandomBot
from canasta.engine.moves import Move
from canasta.engine.state import GameState
from canasta.play.playout import play_hand, random_policy
from canasta.variant.loading import variant_names


def _by_views(variant: str, seed: int, index: int) -> GameState:
    """Hand ``index`` of ``playout(variant, 'random', seed=seed)``, played the long way: a
    RandomBot shown its seat's view every move."""
    v = canasta.load_variant(variant)
    s = canasta.new_game(v, seed + index)
    rng = random.Random(seed * 1_000_003 + index)
    bot = RandomBot()
    while not s.is_hand_over:
        s = s.apply(bot.choose(s.view(s.current_player), rng))
    return s


class TestPlayout:
    def test_hands_end_and_repeat(self) -> None:
        first = canasta.playout("classic", hands=4, seed=3)
        again = canasta.playout("classic", hands=4, seed=3)
        assert [h.seed for h in first] == [3, 4, 5, 6]
        for h, g in zip(first, again, strict=True):
            assert h.stopped is None and h.end is not None
            assert h.state.is_hand_over and h.end == h.state.end
            assert h.moves > 10
            assert h == g and h.state == g.state

    def test_random_policy_plays_as_the_random_bot_through_views(self) -> None:
        """The random seat's shortcut (no view) picks exactly what RandomBot picks from its view."""
        for name in ("classic", "hand-and-foot", "samba"):
            hands = canasta.playout(name, "random", hands=2, seed=11)
            for i, h in enumerate(hands):
                assert h.state == _by_views(name, 11, i), name

    def test_a_policy_function_and_on_move(self) -> None:
        seen: list[tuple[GameState, Move, GameState]] = []

        def first(state: GameState, rng: random.Random) -> Move:
            return state.legal_moves()[0]

        (h,) = canasta.playout("classic-2p", first, hands=1, seed=1, on_move=lambda *a: seen.append(a))
        assert len(seen) == h.moves > 0
        for before, move, after in seen:
            assert move == before.legal_moves()[0]
            assert after == before.apply(move)
        assert seen[-1][2] == h.state

    def test_policies_cycle_over_the_seats(self) -> None:
        seats: set[int] = set()

        def watch(state: GameState, rng: random.Random) -> Move:
            seats.add(state.current_player)
            return random_policy(state, rng)

        canasta.playout("classic", [watch, "greedy"], hands=1, seed=2)
        assert seats == {0, 2}

    def test_move_limit(self) -> None:
        (h,) = canasta.playout("classic", hands=1, seed=1, max_moves=5)
        assert h.moves == 5 and h.end is None
        assert h.stopped == "the hand did not end after 5 moves"
        assert not h.state.is_hand_over

    @pytest.mark.parametrize(
        ("kwargs", "message"),
        [
            ({"hands": 0}, "hands must be a whole number from 1"),
            ({"hands": "3"}, "hands must be a whole number from 1"),
            ({"hands": True}, "hands must be a whole number from 1"),
            ({"max_moves": 0}, "max_moves must be a whole number >= 1"),
            ({"seed": 1.5}, "seed must be an integer"),
            ({"policy": 42}, "a policy is a bot name"),
            ({"policy": "clever"}, "unknown bot 'clever'"),
            ({"policy": []}, "no policy given"),
        ],
    )
    def test_bad_arguments(self, kwargs: dict[str, object], message: str) -> None:
        with pytest.raises(CanastaError, match=message):
            canasta.playout("classic", **kwargs)  # type: ignore[arg-type]

    def test_an_illegal_move_is_refused(self) -> None:
        def bad(state: GameState, rng: random.Random) -> Move:
            return canasta.Discard(5, True)

        with pytest.raises(IllegalMoveError):
            canasta.playout("classic", bad)

    def test_unknown_profile(self) -> None:
        with pytest.raises(CanastaError):
            canasta.playout("no-such-profile")

    @pytest.mark.parametrize("name", variant_names())
    def test_every_profile(self, name: str) -> None:
        (h,) = canasta.playout(name, ["greedy", "random"], hands=1, seed=5)
        assert h.stopped is None, h.stopped
        assert h.end is not None and h.end.reason in ("out", "stock", "special")
        assert len(h.end.breakdowns) == len(h.state.sides)


class TestPlayHand:
    def test_a_hand_over_plays_nothing(self) -> None:
        (h,) = canasta.playout("classic", hands=1, seed=4)
        state, moves, stopped = play_hand(h.state, [random_policy] * 4, random.Random(0))
        assert (state, moves, stopped) == (h.state, 0, None)

    def test_a_policy_raising_with_moves_left_propagates(self) -> None:
        def broken(state: GameState, rng: random.Random) -> Move:
            raise CanastaError("I give up")

        s = canasta.new_game(canasta.load_variant("classic"), 1)
        with pytest.raises(CanastaError, match="I give up"):
            play_hand(s, [broken] * 4, random.Random(0))

    def test_a_dead_end_is_reported(self) -> None:
        """A seat with no legal move (no bundled profile has one: a stand-in state) stops the hand."""

        class Stuck:
            is_hand_over = False
            current = current_player = 1
            phase_name = "play"

            def legal_moves(self) -> list[Move]:
                return []

        _state, moves, stopped = play_hand(Stuck(), [random_policy] * 4, random.Random(0))  # type: ignore[arg-type]
        assert moves == 0 and stopped == "seat 1 has no legal move (play phase)"
