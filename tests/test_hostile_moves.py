"""Moves built in code with nonsense in their fields, and views that act for another seat.

A program that builds moves from a client's message must get an
``IllegalMoveError`` naming the field, never a ``TypeError`` from inside the
engine, and a state must never change.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta import (
    Add,
    Answer,
    Discard,
    IllegalMoveError,
    Meld,
    Move,
    TakePile,
)
from canasta.engine.move_fields import malformed
from canasta.engine.moves import LaySpecial, LayThree, MeldSequence
from canasta.limits import MAX_MESSAGE_CHARS, MAX_MOVE_CARDS, shown
from cpu_clock import cpu_clock

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

    @settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow], deadline=None)
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


HUGE = 10**5000  # past Python's limit on writing an integer as text
#: (move, what the message says): fields of a million items or characters, and
#: integers too long to print, each refused by the field check.
HUGE_FIELDS: list[tuple[Callable[[], Move], str]] = [
    (lambda: LaySpecial("x" * 10**6), "LaySpecial.name must be the name of a special hand"),
    (lambda: TakePile("x" * 10**6), "TakePile.way must be one of 'pair', 'wild', 'layoff' or 'finish', got 'xxx"),
    (lambda: Meld(kinds=(7,) * 5000), f"Meld.kinds names 5000 cards; a move names at most {MAX_MOVE_CARDS}"),
    (lambda: Meld(kinds=(7,) * 10**6), "Meld.kinds names 1000000 cards"),
    (lambda: Meld(kinds=[7] * 10**6), "Meld.kinds names 1000000 cards"),  # type: ignore[arg-type]
    (lambda: Meld((7, 7, 7), (1,) * 10**6), "Meld.suits names 1000000 cards"),
    (lambda: TakePile("pair", 0, (28,) * 10**5), "TakePile.naturals names 100000 cards"),
    (lambda: Discard(kind=HUGE), "Discard.kind must be a card kind from 1 to 15, got an integer of 16610 bits"),
    (lambda: Discard(kind="x" * 10**6), "Discard.kind must be a card kind from 1 to 15, got 'xxx"),  # type: ignore[arg-type]
    (lambda: Add(HUGE, 7), "got an integer of 16610 bits"),
    (lambda: Answer(HUGE), "Answer.yes must be True or False, got an integer of 16610 bits"),
    (lambda: Answer(5), "Answer.yes must be True or False, got 5"),
    (lambda: LayThree(HUGE), "LayThree.kind must be 1 (a red 3) or 3 (a black 3), got an integer of 16610 bits"),
    (lambda: MeldSequence(HUGE, 4, 6), "MeldSequence.suit must be a suit number"),
]


class TestHugeFields:
    """A field of a million cards or characters, or an integer too long to print: refused at once, briefly."""

    @pytest.mark.parametrize(("build", "says"), HUGE_FIELDS, ids=[f"{i}" for i in range(len(HUGE_FIELDS))])
    def test_refused_fast_and_short(self, build: Callable[[], Move], says: str) -> None:
        """apply() and is_legal() refuse the move in well under a second; the message is short and names the field."""
        move = build()
        s = STATES[3]
        before = canasta.to_json(s)
        with cpu_clock() as elapsed:
            with pytest.raises(IllegalMoveError) as info:
                s.apply(move)
            legal = s.is_legal(move)
            taken = elapsed()
        message = str(info.value)
        assert legal is False
        assert taken < 0.5, f"{taken:.2f} s"
        assert says in message, message
        assert len(message) <= MAX_MESSAGE_CHARS and len(info.value.reason) <= MAX_MESSAGE_CHARS
        assert canasta.to_json(s) == before

    @pytest.mark.parametrize(("build", "says"), HUGE_FIELDS[:8], ids=[f"{i}" for i in range(8)])
    def test_repr_and_str_are_bounded(self, build: Callable[[], Move], says: str) -> None:
        """A malformed move prints without failing (no int-to-text error), its repr briefly."""
        move = build()
        assert len(repr(move)) < 2000 or isinstance(move, (Meld, TakePile))
        str(move)
        del says

    def test_an_ordinary_long_meld_is_refused_by_the_rules(self) -> None:
        """A meld of as many cards as a move may name is not refused by its size: the rules speak."""
        s = STATES[3]
        with pytest.raises(IllegalMoveError) as info:
            s.apply(Meld(kinds=(7,) * MAX_MOVE_CARDS))
        assert "names" not in info.value.reason, info.value.reason

    def test_not_a_move_of_any_size(self) -> None:
        """apply() of a huge integer or list (not a move) says so, briefly."""
        for value in (HUGE, list(range(10**6)), "x" * 10**6):
            with pytest.raises(canasta.CanastaError) as info:
                STATES[0].apply(value)  # type: ignore[arg-type]
            assert len(str(info.value)) < 400, str(info.value)[:400]


class TestShown:
    """limits.shown writes any value for a message, briefly and without failing."""

    @pytest.mark.parametrize(
        ("value", "text"),
        [
            (HUGE, "an integer of 16610 bits"),
            (-HUGE, "an integer of 16610 bits"),
            (12, "12"),
            ("x" * 1000, "'" + "x" * 77 + "...'"),
            ((7,) * 10**6, "... 1000000 items)"),
            ((1,), "(1,)"),
            ([1, "a"], "[1, 'a']"),
            ({"a": 1}, "a dict of 1 item"),
            (b"\x00" * 10**6, "bytes of 1000000"),
            (None, "None"),
        ],
        ids=["huge", "-huge", "int", "text", "long-tuple", "one", "list", "dict", "bytes", "none"],
    )
    def test_values(self, value: object, text: str) -> None:
        """Each value is written within a few hundred characters, with what matters of it."""
        out = shown(value)
        assert text in out and len(out) <= 200, out

    @settings(max_examples=examples(200), deadline=None)
    @given(st.recursive(st.one_of(st.integers(), st.text(), st.none(), st.floats()), lambda c: st.lists(c) | st.tuples(c, c)))
    def test_any_value_is_bounded(self, value: object) -> None:
        """Any nesting of lists, tuples, text and numbers is written in at most about 80 characters."""
        assert len(shown(value)) <= 200


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
