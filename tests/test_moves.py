"""Tests for canasta.engine.moves: move values and their notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta import (
    Add,
    Answer,
    Ask,
    Discard,
    Draw,
    Foot,
    IllegalMoveError,
    Meld,
    Move,
    NextHand,
    NotationError,
    Pass,
    TakePile,
    parse_move,
)
from canasta.engine.moves import kind_name
from positions import position

#: Every card kind a move may name: 0 = the wild-meld target W, 1 = a red 3, 3 = a black 3.
KINDS = st.integers(min_value=0, max_value=15)


def any_move() -> st.SearchStrategy[Move]:
    """Any well-formed move of any type."""
    return st.one_of(
        st.sampled_from(
            [Draw(), Pass(), Foot(), Ask(), Answer(True), Answer(False), NextHand()]
            + [TakePile(way) for way in ("pair", "layoff", "finish")]
        ),
        st.builds(TakePile, st.just("wild"), KINDS),
        st.builds(Meld, st.lists(KINDS, min_size=1, max_size=8).map(tuple)),
        st.builds(Add, KINDS, KINDS),
        st.builds(Discard, KINDS, st.booleans()),
    )


EXAMPLES = [
    ("draw", Draw()),
    ("pass", Pass()),
    ("take pair", TakePile("pair")),
    ("take layoff", TakePile("layoff")),
    ("take finish", TakePile("finish")),
    ("take 2", TakePile("wild", 2)),
    ("take JK", TakePile("wild", 15)),
    ("meld 7 7 JK", Meld((7, 7, 15))),
    ("meld 3 3 3", Meld((3, 3, 3))),
    ("meld 2 2 JK", Meld((2, 2, 15))),
    ("add K 2", Add(13, 2)),
    ("add W JK", Add(0, 15)),
    ("add 10 10", Add(10, 10)),
    ("foot", Foot()),
    ("ask", Ask()),
    ("yes", Answer(True)),
    ("no", Answer(False)),
    ("discard 9", Discard(9)),
    ("discard 3R", Discard(1)),
    ("out 9", Discard(9, out=True)),
    ("out A", Discard(14, out=True)),
    ("next", NextHand()),
]


class TestNotation:
    """str(move) and parse_move."""

    @pytest.mark.parametrize(("text", "move"), EXAMPLES)
    def test_every_move_type(self, text: str, move: Move) -> None:
        """Each move type prints as its notation and parses back to itself."""
        assert str(move) == text
        assert parse_move(text) == move

    @settings(max_examples=examples(300), deadline=None, derandomize=True, database=None)
    @given(move=any_move())
    def test_round_trip(self, move: Move) -> None:
        """parse_move(str(m)) == m for every well-formed move."""
        assert parse_move(str(move)) == move
        assert str(parse_move(str(move))) == str(move)

    def test_meld_lists_naturals_first(self) -> None:
        """A meld's kinds are kept naturals first, then 2s, then jokers."""
        assert Meld((15, 2, 9, 9)) == Meld((9, 9, 2, 15))
        assert str(Meld((15, 9, 2, 9))) == "meld 9 9 2 JK"

    def test_case_and_spacing(self) -> None:
        """Verbs and ranks are case-insensitive; extra spaces are ignored."""
        assert parse_move("  DRAW ") == Draw()
        assert parse_move("Take Pair") == TakePile("pair")
        assert parse_move("meld  q  q  jk") == Meld((12, 12, 15))
        assert parse_move("add w Joker") == Add(0, 15)

    def test_ten_as_t(self) -> None:
        """T stands for 10."""
        assert parse_move("discard T") == Discard(10)
        assert parse_move("add T TS") == Add(10, 10)

    def test_kind_names(self) -> None:
        """Kind names: W, 3R, then the rank names."""
        assert [kind_name(k) for k in (0, 1, 2, 3, 10, 11, 14, 15)] == [
            "W", "3R", "2", "3", "10", "J", "A", "JK",
        ]

    def test_moves_are_hashable_values(self) -> None:
        """Equal moves hash equal and are interchangeable in sets."""
        assert len({parse_move("discard 9"), Discard(9), parse_move("discard 9H")}) == 1
        assert Discard(9) != Discard(9, out=True)
        assert TakePile("wild", 2) != TakePile("wild", 15)


class TestFullCards:
    """A full card stands for its rank when parsing."""

    @pytest.mark.parametrize(
        ("text", "move"),
        [
            ("discard 9H", Discard(9)),
            ("out 10S", Discard(10, out=True)),
            ("discard JK", Discard(15)),
            ("discard 3C", Discard(3)),
            ("discard 3S", Discard(3)),
            ("discard 3H", Discard(1)),
            ("discard 3D", Discard(1)),
            ("meld 9H 9S 2C", Meld((9, 9, 2))),
            ("meld 9♥ 9♠ JK", Meld((9, 9, 15))),
            ("add K 2D", Add(13, 2)),
            ("add KH KS", Add(13, 13)),
            ("take 2H", TakePile("wild", 2)),
        ],
    )
    def test_full_card_is_its_rank(self, text: str, move: Move) -> None:
        """'discard 9H' is 'discard 9', a red 3 is 3R, a black 3 is 3."""
        assert parse_move(text) == move

    def test_full_card_applies_to_any_card_of_the_rank(self) -> None:
        """'discard 9H' discards one of the player's 9s, whatever its suit."""
        s = position("classic", hands=["9S 9C 5D"], melds={0: ["QH QS QD"]})
        after = s.apply("discard 9H")
        assert [str(c) for c in after.hands[0]] == ["5D", "9S"]
        assert [str(c) for c in after.pile] == ["9C"]


class TestNotationErrors:
    """Malformed text raises NotationError, quoting it."""

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("", "'' is not a move: expected text such as 'draw'"),
            ("   ", "'' is not a move: expected text such as 'draw'"),
            ("draw 2", "'draw 2': 'draw' takes no arguments"),
            ("yes please", "'yes please': 'yes' takes no arguments"),
            (
                "take",
                "'take': expected 'take pair', 'take layoff', 'take finish' or 'take <wild rank>'",
            ),
            (
                "take pair now",
                "'take pair now': expected 'take pair', 'take layoff', 'take finish' or "
                "'take <wild rank>'",
            ),
            ("take banana", "'banana' in move 'take banana' is not a card rank"),
            ("meld", "'meld': 'meld' needs the cards to meld, e.g. 'meld 7 7 7'"),
            ("meld 7 7 X", "'X' in move 'meld 7 7 X' is not a card rank"),
            ("meld 7 7 1", "'1' in move 'meld 7 7 1' is not a card rank"),
            ("add K", "'add K': expected 'add <meld rank> <card>', e.g. 'add K 2'"),
            ("add K 2 2", "'add K 2 2': expected 'add <meld rank> <card>', e.g. 'add K 2'"),
            ("add Z 2", "'Z' in move 'add Z 2' is not a card rank"),
            ("discard", "'discard': expected 'discard <card>', e.g. 'discard 9'"),
            ("discard 9 9", "'discard 9 9': expected 'discard <card>', e.g. 'discard 9'"),
            ("discard 9X", "'9X' in move 'discard 9X' is not a card rank"),
            ("discard 11", "'11' in move 'discard 11' is not a card rank"),
            ("out", "'out': expected 'out <card>', e.g. 'out 9'"),
            (
                "jump",
                "'jump' is not a move: expected one of draw, take, pass, meld, add, foot, ask, "
                "yes, no, discard, out, special, lay, next, back, combine, join",
            ),
        ],
    )
    def test_exact_message(self, text: str, message: str) -> None:
        """The message names the text and what was expected."""
        with pytest.raises(NotationError) as info:
            parse_move(text)
        assert str(info.value) == message

    def test_not_text(self) -> None:
        """A non-string is not a move."""
        with pytest.raises(NotationError) as info:
            parse_move(5)  # type: ignore[arg-type]
        assert str(info.value) == "5 is not a move: expected text such as 'draw'"

    def test_apply_raises_notation_error_not_illegal_move(self) -> None:
        """State.apply of malformed text raises NotationError, not IllegalMoveError."""
        s = canasta.new_game(canasta.load_variant("classic"), seed=7)
        with pytest.raises(NotationError):
            s.apply("jump")
        with pytest.raises(IllegalMoveError):
            s.apply("discard 9")

    def test_state_parse_move(self) -> None:
        """GameState.parse_move is parse_move."""
        s = canasta.new_game(canasta.load_variant("classic"), seed=7)
        assert s.parse_move("take pair") == TakePile("pair")
        with pytest.raises(NotationError):
            s.parse_move("take")

    def test_notation_error_is_a_value_error(self) -> None:
        """NotationError is a CanastaError and a ValueError."""
        with pytest.raises(ValueError):
            parse_move("jump")
        with pytest.raises(canasta.CanastaError):
            parse_move("jump")


class TestRepr:
    """repr(move) shows the move in its notation and pastes back as code."""

    @pytest.mark.parametrize(("text", "move"), EXAMPLES, ids=[t for t, _ in EXAMPLES])
    def test_repr_is_the_notation(self, text: str, move: Move) -> None:
        """repr is parse_move('<notation>'), naming cards as text, and eval gives the move back."""
        assert repr(move) == f"parse_move({text!r})"
        assert eval(repr(move), {"parse_move": parse_move}) == move

    @settings(max_examples=examples(200), deadline=None)
    @given(any_move())
    def test_any_move_pastes_back(self, move: Move) -> None:
        """Every well-formed move's repr evaluates to an equal move."""
        assert eval(repr(move), {"parse_move": parse_move}) == move

    def test_repr_of_a_malformed_move_shows_its_fields(self) -> None:
        """A hand-built move that is no move shows its fields (and repr does not fail)."""
        assert repr(Discard("9")) == "Discard(kind='9', out=False)"  # type: ignore[arg-type]
        assert repr(Meld((None,))) == "Meld(kinds=(None,))"  # type: ignore[arg-type]
        assert repr(Add(99, 2)) == "Add(target=99, kind=2)"

    def test_the_refusal_of_a_malformed_move_quotes_its_fields(self) -> None:
        """The message of a malformed move still names its fields."""
        s = position("classic", hands={0: "9H 9S 4C"}, phase="play")
        with pytest.raises(IllegalMoveError, match=r"Discard\(kind='9', out=False\)"):
            s.apply(Discard("9"))  # type: ignore[arg-type]
