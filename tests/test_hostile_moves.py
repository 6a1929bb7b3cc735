"""Moves built in code with nonsense in their fields, and views that act for another seat.

A program that builds moves from a client's message must get an
``IllegalMoveError`` naming the field, never a ``TypeError`` from inside the
engine, and a state must never change.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta import Add, Answer, Discard, IllegalMoveError, Meld, Move, TakePile
from canasta.engine.move_fields import malformed

CLASSIC = canasta.load_variant("classic")


def _states() -> list[canasta.GameState]:
    """A few states of every phase a turn goes through, from random play."""
    out = []
    rng = random.Random(5)
    for seed in range(3):
        s = canasta.new_game(CLASSIC, seed)
        while not s.is_hand_over and len(out) < 40 * (seed + 1):
            out.append(s)
            moves = s.legal_moves()
            s = s.apply(moves[rng.randrange(len(moves))])
        out.append(s)
    return out


STATES = _states()
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.lists(st.integers(0, 20), max_size=3),
    st.tuples(st.integers(0, 20)),
)
KIND = st.one_of(st.integers(-3, 20), JUNK)


def _hostile_moves() -> st.SearchStrategy[Move]:
    return st.one_of(
        st.builds(Discard, KIND, st.one_of(st.booleans(), JUNK)),
        st.builds(Add, KIND, KIND),
        st.builds(TakePile, st.one_of(st.sampled_from(["pair", "wild", "layoff", "finish"]), JUNK), KIND),
        st.builds(Answer, st.one_of(st.booleans(), JUNK)),
        st.builds(lambda ks: Meld(tuple(ks)), st.lists(KIND, max_size=8)),
    )


class TestMalformedMoves:
    """A move with a field of the wrong type or range is refused by name."""

    @pytest.mark.parametrize(
        ("move", "field"),
        [
            (Discard(1.5), "Discard.kind"),  # type: ignore[arg-type]
            (Discard("9"), "Discard.kind"),  # type: ignore[arg-type]
            (Discard(None), "Discard.kind"),  # type: ignore[arg-type]
            (Discard(4, "x"), "Discard.out"),  # type: ignore[arg-type]
            (Meld(([1],)), "Meld.kinds"),  # type: ignore[arg-type]
            (Add(3, [1]), "Add"),  # type: ignore[arg-type]
            (TakePile(None), "TakePile"),  # type: ignore[arg-type]
            (Answer("yes"), "Answer.yes"),  # type: ignore[arg-type]
        ],
    )
    def test_malformed_names_the_field(self, move: Move, field: str) -> None:
        """malformed() names the class and field of each kind of nonsense."""
        reason = malformed(move)
        assert reason is not None and reason.startswith(field), reason

    def test_well_formed_moves_pass(self) -> None:
        """Every listed move of many states is well formed (malformed() refuses nothing real)."""
        seen = 0
        for s in STATES:
            for m in s.legal_moves():
                assert malformed(m) is None, m
                seen += 1
        assert seen > 100

    @pytest.mark.parametrize("index", [0, 1, 5, 20, 60])
    def test_apply_refuses_with_the_field(self, index: int) -> None:
        """apply() raises IllegalMoveError naming the field; is_legal() says False."""
        s = STATES[index]
        for move in (Discard("9"), Discard(1.5), Meld(([1],))):  # type: ignore[arg-type]
            with pytest.raises(IllegalMoveError):
                s.apply(move)
            assert s.is_legal(move) is False

    @settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
    @given(st.sampled_from(STATES), _hostile_moves())
    def test_no_hostile_move_escapes(self, s: canasta.GameState, move: Move) -> None:
        """Any move with junk fields is applied only if well formed and legal; otherwise IllegalMoveError."""
        before = canasta.to_json(s)
        try:
            after = s.apply(move)
        except IllegalMoveError as exc:
            assert len(exc.reason) < 2000
            assert s.is_legal(move) is False
        else:
            assert malformed(move) is None, move
            assert move in s.legal_moves() or s.is_legal(move)
            assert after != s
        assert canasta.to_json(s) == before


class TestViewsActOnlyForTheirSeat:
    """A view applies moves only on its own seat's turn."""

    def test_other_seat_refused(self) -> None:
        """The view of seat 2 cannot draw for seat 0."""
        s = canasta.new_game(CLASSIC, 1)
        with pytest.raises(IllegalMoveError, match="seat 0's turn"):
            s.view(2).apply("draw")
        assert s.view(2).legal_moves() == []

    def test_own_seat_applies(self) -> None:
        """The view of the seat to move applies its moves, as the state does."""
        s = canasta.new_game(CLASSIC, 1)
        seat = s.current_player
        after = s.view(seat).apply("draw")
        assert after.current_player == seat and after.phase_name == "play"

    def test_every_seat_every_state(self) -> None:
        """Over many states: exactly the seat to move may apply its first legal move through a view."""
        for s in STATES[::7]:
            if s.is_hand_over:
                continue
            move = s.legal_moves()[0]
            for seat in range(s.rules.n):
                view = s.view(seat)
                if seat == s.current_player:
                    view.apply(move)
                else:
                    with pytest.raises(IllegalMoveError):
                        view.apply(move)
