"""What the engine keeps about a state between calls must never show.

``legal_moves()`` works out facts about a state once and keeps them with the
state (hand counts, the side's melds, the legal moves), and ``apply()`` reuses
them. These tests check that the kept facts cannot leak: callers get their own
lists, pickled states travel without them, and equal states behave alike
whether or not anything was kept.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator

import canasta
from canasta import GameState
from canasta.engine.facts import side_info
from canasta.engine.melds import MeldInfo

CLASSIC = canasta.load_variant("classic")


def random_hand(v: canasta.Variant, seed: int, moves: int) -> Iterator[GameState]:
    """The states of up to ``moves`` random moves into the first hand of ``v``, each before its
    move is listed and applied (the listing the random pick asks comes after the caller's look)."""
    rng = random.Random(seed)
    s = canasta.new_game(v, seed=seed)
    for _ in range(moves):
        yield s
        if s.is_hand_over:
            return
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])
    yield s


def midgame(seed: int, moves: int) -> GameState:
    """A state ``moves`` random moves into a classic hand."""
    *_, s = random_hand(CLASSIC, seed, moves)
    return s


class TestKeptFacts:
    def test_each_call_returns_a_list_of_its_own(self) -> None:
        s = midgame(3, 7)
        first = s.legal_moves()
        expected = list(first)
        assert isinstance(first, list)
        first.clear()  # the caller's list is the caller's
        again = s.legal_moves()
        assert again == expected
        assert again is not first

    def test_a_pickled_state_travels_without_them(self) -> None:
        s = midgame(5, 9)
        legal = s.legal_moves()
        assert s._ctx is not None
        back = pickle.loads(pickle.dumps(s))
        assert back == s
        assert hash(back) == hash(s)
        assert back._ctx is None
        assert back.legal_moves() == legal

    def test_equal_states_list_the_same_moves_with_or_without_them(self) -> None:
        for seed in range(8):
            s = midgame(seed, 4 + seed)
            twin = midgame(seed, 4 + seed)
            assert twin == s and twin is not s
            before = twin.legal_moves()  # twin keeps its facts, s has none yet
            for m in before:
                assert s.is_legal(m)
            assert s.legal_moves() == before

    def test_apply_after_legal_moves_equals_apply_on_a_fresh_state(self) -> None:
        rng = random.Random(11)
        s = canasta.new_game(CLASSIC, seed=11)
        while not s.is_hand_over:
            legal = s.legal_moves()
            m = legal[rng.randrange(len(legal))]
            fresh = GameState(
                s.variant, s.seed, s.hand_number, s.dealer, s.scores, s.history, s.phase,
                s.current, s.hands_, s.feet_, s.stock_, s.pile_, s.melds_, s.red_threes_,
                s.opened, s.melded_before, s.turn, s.end, s.rules, s.talons_, s.asked_before,
            )
            nxt = s.apply(m)
            assert fresh.apply(m) == nxt
            s = nxt


def facts_of(info: MeldInfo) -> tuple[object, ...]:
    """What a :class:`MeldInfo` says of its melds, as plain values."""
    return (
        dict(info.index), {k: list(v) for k, v in info.more.items()}, info.open_ranks, set(info.present),
        info.sequences, info.closed_sequences, info.grown, info.canasta_counts(),
    )


class TestCarriedMeldFacts:
    """The facts of each side's melds travel from state to state (``GameState._infos``)."""

    def test_carried_facts_are_those_of_the_state_s_own_melds(self) -> None:
        """Along random hands of a game with and without sequences, the facts a state
        carries for each side are those worked out from its melds alone, and they travel:
        most states find their mover's facts carried."""
        for name in ("classic", "samba"):
            carried = 0
            for s in random_hand(canasta.load_variant(name), 2, 300):
                side = s.rules.side_of[s.current]
                infos = s._infos
                carried += bool(infos) and infos[side] is not None and infos[side].melds is s.melds_[side]
                for x in range(len(s.melds_)):
                    assert facts_of(side_info(s, x)) == facts_of(MeldInfo(s.rules, s.melds_[x])), (name, x)
            assert carried > 100, (name, carried)

    def test_a_moved_from_or_pickled_state_holds_none(self) -> None:
        """``apply`` drops them from the state it moves from; a pickled state travels without them."""
        s = midgame(7, 12)
        s.legal_moves()
        nxt = s.apply(s.legal_moves()[0])
        assert s._infos == ()
        assert nxt._infos
        back = pickle.loads(pickle.dumps(nxt))
        assert back == nxt
        assert all(info is None for info in back._infos)
        assert back.legal_moves() == nxt.legal_moves()

    def test_a_view_hands_them_to_its_stand_ins(self) -> None:
        """The states a seat's view builds start from the facts the real state carried."""
        for moves in (20, 21):  # a draw phase and a play phase
            s = midgame(9, moves)
            side = s.rules.side_of[s.current]
            info = side_info(s, side)
            view = s.view(s.current)
            assert view._moves_state._infos[side] is info
            assert view.legal_moves() == s.legal_moves()

class IntegerLike:
    """A value that is not an int but converts to one losslessly (like a NumPy integer)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


class TestSeeds:
    def test_an_integer_like_seed_deals_as_its_integer(self) -> None:
        assert canasta.new_game(CLASSIC, seed=IntegerLike(42)) == canasta.new_game(CLASSIC, seed=42)

    def test_the_state_keeps_the_seed_as_an_int(self) -> None:
        s = canasta.new_game(CLASSIC, seed=IntegerLike(42))
        assert type(s.seed) is int and s.seed == 42
