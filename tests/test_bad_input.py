"""Bad input to the public functions: a clear CanastaError, never another exception."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

import canasta
from canasta.rulebook import compare

CLASSIC = canasta.load_variant("classic")
STATE = canasta.new_game(CLASSIC, seed=1)

CASES: dict[str, Callable[[], object]] = {
    "load_variant(5)": lambda: canasta.load_variant(5),  # type: ignore[arg-type]
    "load_variant('clasic')": lambda: canasta.load_variant("clasic"),
    "new_game(name)": lambda: canasta.new_game("classic", seed=1),  # type: ignore[arg-type]
    "new_game(seed='x')": lambda: canasta.new_game(CLASSIC, seed="x"),  # type: ignore[arg-type]
    "parse_cards(5)": lambda: canasta.parse_cards(5),  # type: ignore[arg-type]
    "parse_cards('KX')": lambda: canasta.parse_cards("KX"),
    "apply(123)": lambda: STATE.apply(123),  # type: ignore[arg-type]
    "apply('meld')": lambda: STATE.apply("meld"),
    "apply('discard 9')": lambda: STATE.apply("discard 9"),
    "parse_move(None)": lambda: STATE.parse_move(None),  # type: ignore[arg-type]
    "view(9)": lambda: STATE.view(9),
    "describe(format='pdf')": lambda: canasta.describe(CLASSIC, format="pdf"),
    "compare([])": lambda: compare([]),
    "check_variant(name)": lambda: canasta.check_variant("classic"),  # type: ignore[arg-type]
    "score_side(name)": lambda: canasta.score_side("classic"),  # type: ignore[arg-type]
    "score_side(melds=[5])": lambda: canasta.score_side(CLASSIC, melds=[5]),
    "from_json('{')": lambda: canasta.from_json("{", canasta.GameState),
    "from_json(int)": lambda: canasta.from_json("{}", int),
    "to_json(object())": lambda: canasta.to_json(object()),
}


class TestBadInput:
    """Every public entry point refuses bad input with a CanastaError."""

    @pytest.mark.parametrize("case", sorted(CASES))
    def test_refused_clearly(self, case: str) -> None:
        """The error is a CanastaError (and so a ValueError) with a message."""
        with pytest.raises(canasta.CanastaError) as info:
            CASES[case]()
        assert isinstance(info.value, ValueError)
        assert str(info.value)

    def test_state_unchanged_after_refusal(self) -> None:
        """A refused move leaves the state equal to what it was."""
        before = hash(STATE)
        with pytest.raises(canasta.IllegalMoveError):
            STATE.apply("discard 9")
        assert hash(STATE) == before
        assert canasta.new_game(CLASSIC, seed=1) == STATE


class TestVariantsBuiltInCode:
    """A Variant built in code is held to the same ranges as a profile file."""

    @pytest.mark.parametrize(
        ("area", "option", "value", "expected"),
        [
            ("deal", "hand_size", -1, "deal.hand_size: expected an integer from 1 to 30, got -1"),
            ("draw", "count", 0, "draw.count: expected an integer from 1 to 3, got 0"),
            ("melds", "min_size", 0, "melds.min_size: expected an integer >= 1, got 0"),
            ("canastas", "size", 1, "canastas.size: expected an integer >= 2, got 1"),
        ],
    )
    def test_out_of_range_value_refused_by_name(
        self, area: str, option: str, value: int, expected: str
    ) -> None:
        """new_game refuses the variant, naming the option and its range, before dealing."""
        part = attrs.evolve(getattr(CLASSIC, area), **{option: value})
        bad = attrs.evolve(CLASSIC, **{area: part})
        with pytest.raises(canasta.VariantError) as info:
            canasta.new_game(bad, seed=1)
        assert str(info.value) == f"variant 'classic': {expected}"

    def test_valid_variant_built_in_code_plays(self) -> None:
        """An in-range change made in code deals as usual."""
        v = attrs.evolve(CLASSIC, draw=attrs.evolve(CLASSIC.draw, count=2))
        s = canasta.new_game(v, seed=1)
        assert s.legal_moves()
