"""Tests of canasta.io.actions: the integer action space for learning agents."""

from __future__ import annotations

import random

import attrs
import pytest

import canasta
from canasta import (
    ActionSpace,
    Add,
    CanastaError,
    Discard,
    Draw,
    IllegalMoveError,
    Meld,
    NextHand,
    NotationError,
    TakePile,
    Variant,
)
from random_games import PROFILES, SEEDS, played

VARIANTS = canasta.variant_names()
_VARIANT = {name: canasta.load_variant(name) for name in VARIANTS}
_SPACE = {name: ActionSpace(v) for name, v in _VARIANT.items()}


class TestSpace:
    """The enumeration: fixed, distinct, documented order."""

    @pytest.mark.parametrize("name", VARIANTS)
    def test_ids_are_distinct_and_round_trip(self, name: str) -> None:
        """Every id has a distinct move, and encode(move(id)) == id."""
        space = _SPACE[name]
        assert space.size == len(space) == len(set(space.moves))
        for i in range(space.size):
            assert space.encode(space.move(i)) == i
            assert space.encode(str(space.move(i))) == i

    @pytest.mark.parametrize("name", VARIANTS)
    def test_fixed_for_a_variant(self, name: str) -> None:
        """Two spaces of equal variants number every move alike."""
        again = ActionSpace(canasta.load_variant(name))
        assert again.moves == _SPACE[name].moves

    def test_order(self) -> None:
        """The documented order: draw, pass, takes, melds, adds, foot … discards, outs, next."""
        space = _SPACE["classic"]
        assert space.moves[:5] == (Draw(), canasta.Pass(), TakePile("pair"), TakePile("layoff"),
                                   TakePile("finish"))
        assert space.moves[-1] == NextHand()
        assert space.encode("meld 4 4 JK") < space.encode("meld A A A") < space.encode("meld 3 3 3")
        assert space.encode("meld 3 3 3 3") < space.encode("add 4 4") < space.encode("foot")
        assert space.encode("discard JK") < space.encode("out 2")

    def test_classic_contents(self) -> None:
        """Classic: no wild melds, no natural-and-wild takes, black-3 melds of 3 or 4."""
        space = _SPACE["classic"]
        kinds = {m for m in space.moves if isinstance(m, Meld) and set(m.kinds) <= {2, 15}}
        assert kinds == set()
        assert not any(isinstance(m, TakePile) and m.way == "wild" for m in space.moves)
        assert {m for m in space.moves if isinstance(m, Meld) and m.kinds[0] == 3} == {
            Meld((3, 3, 3)), Meld((3, 3, 3, 3))}
        assert Meld((7, 7, 2)) in space.moves and Meld((7, 7, 15)) in space.moves
        assert Meld((7, 2, 2)) not in space.moves  # one natural is too few
        assert Discard(3) in space.moves and Discard(1) not in space.moves

    def test_hand_and_foot_contents(self) -> None:
        """Hand and Foot: wild melds and adds to them; no black-3 melds."""
        space = _SPACE["hand-and-foot"]
        assert Meld((2, 2, 15)) in space.moves
        assert Add(0, 15) in space.moves and Add(0, 0) not in space.moves
        assert not any(isinstance(m, Meld) and m.kinds[0] == 3 for m in space.moves)

    def test_variant_options_change_the_space(self) -> None:
        """Natural-and-wild takes add one take per wild rank."""
        base = _VARIANT["classic"]
        v = attrs.evolve(base, pile=attrs.evolve(base.pile, take_natural_and_wild=True))
        space = ActionSpace(v)
        assert space.size == _SPACE["classic"].size + 2
        assert space.moves[5:7] == (TakePile("wild", 15), TakePile("wild", 2))

    def test_not_an_action(self) -> None:
        """Moves the engine never lists, ids out of range and non-variants are refused."""
        space = _SPACE["classic"]
        for move in ["meld 7 7 7 7", "meld 2 2 2", "add 3 3", "discard 3R"]:
            with pytest.raises(CanastaError, match="is not an action of variant 'classic'"):
                space.encode(move)
        with pytest.raises(NotationError):
            space.encode("dance")
        for bad in (-1, space.size, True, "3"):
            with pytest.raises(CanastaError, match="action id must be 0 to"):
                space.move(bad)  # type: ignore[arg-type]
        with pytest.raises(CanastaError, match="expects a Variant"):
            ActionSpace("classic")  # type: ignore[arg-type]


class TestGames:
    """Every legal move of random games maps to a distinct id and back."""

    @pytest.mark.parametrize("name", PROFILES)
    def test_legal_moves_map_to_ids(self, name: str) -> None:
        """encode/decode/mask/legal_ids agree with legal_moves in every state of random games."""
        v: Variant = _VARIANT[name]
        space = _SPACE[name]
        # four of the random whole games other suites check too (tests/random_games.py:
        # playing them is what costs, so they are played once per process)
        for seed in SEEDS[:4]:
            rng = random.Random(seed)
            game = played(name, seed)
            steps = 0
            for s, played_move in zip(game.states, game.moves, strict=False):
                moves = s.legal_moves()
                ids = [space.encode(m) for m in moves]
                assert len(set(ids)) == len(ids)
                assert space.legal_ids(s) == sorted(ids)
                mask = space.mask(s)
                assert len(mask) == space.size
                assert [i for i, ok in enumerate(mask) if ok] == sorted(ids)
                for m, i in zip(moves, ids, strict=True):
                    assert space.decode(s, i) == m
                illegal = rng.choice([i for i, ok in enumerate(mask) if not ok])
                with pytest.raises(IllegalMoveError):
                    space.decode(s, illegal)
                if steps % 10 == 0:
                    seat = s.current
                    view = s.view(seat)
                    assert space.mask(view) == mask
                    other = s.view((seat + 1) % v.players.count)
                    assert not any(space.mask(other))
                    with pytest.raises(IllegalMoveError, match="turn"):
                        space.decode(other, ids[0])
                assert space.encode(played_move) in ids
                steps += 1
            assert game.states[-1].is_game_over and not space.legal_ids(game.states[-1])
            assert steps > 50

    def test_other_variant_refused(self) -> None:
        """A state of another variant is refused."""
        s = canasta.new_game(_VARIANT["classic-2p"], 1)
        with pytest.raises(CanastaError, match="variant 'classic-2p', this action space of 'classic'"):
            _SPACE["classic"].mask(s)


def test_mark_sets_the_ids_of_the_moves() -> None:
    """ActionSpace.mark sets the ids legal_ids gives, for move objects met again (known by
    identity) and new ones alike, and refuses a move that is no action."""
    v = canasta.load_variant("classic")
    space = ActionSpace(v)
    s = canasta.new_game(v, seed=4)
    rng = random.Random(4)
    for _ in range(60):
        if s.is_hand_over:
            break
        for _twice in range(2):
            buf = bytearray(space.size)
            space.mark(s.legal_moves(), buf)
            assert [i for i, b in enumerate(buf) if b] == space.legal_ids(s)
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])
    buf = bytearray(space.size)
    space.mark([space.moves[7], attrs.evolve(space.moves[7])], buf)  # an equal, distinct object too
    assert [i for i, b in enumerate(buf) if b] == [7]
    with pytest.raises(canasta.CanastaError):
        space.mark([Meld((4,) * 9)], bytearray(space.size))
