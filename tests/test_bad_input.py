"""Bad input to the public functions: a clear CanastaError, never another exception."""

from __future__ import annotations

import pickle
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta.io.record import RecordError, parse_record, replay_text
from canasta.io.score_file import read_score_file, score_data
from canasta.rulebook import compare
from canasta.variant import validate_variant
from canasta.variant.loading import variant_from_dict
from canasta.variant.model import (
    AREAS,
    Assumption,
    CanastaRules,
    DealRules,
    DrawRules,
    GameRules,
    OpeningRules,
    OpeningStep,
    PileRules,
    RankBonus,
    Source,
    Variant,
    WildRules,
)
from strategies import variants

RANK_LIST = "'2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', 'JK'"

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
            ("melds", "min_size", 0, "melds.min_size: expected an integer from 1 to 100, got 0"),
            ("canastas", "size", 1, "canastas.size: expected an integer from 2 to 672, got 1"),
        ],
    )
    def test_out_of_range_value_refused_by_name(
        self, area: str, option: str, value: int, expected: str
    ) -> None:
        """Building the rule area refuses the value, naming the option and its range."""
        with pytest.raises(canasta.VariantError) as info:
            attrs.evolve(getattr(CLASSIC, area), **{option: value})
        assert str(info.value) == expected

    def test_valid_variant_built_in_code_plays(self) -> None:
        """An in-range change made in code deals as usual."""
        v = attrs.evolve(CLASSIC, draw=attrs.evolve(CLASSIC.draw, count=2))
        s = canasta.new_game(v, seed=1)
        assert s.legal_moves()


# --------------------------------------------------------------------------- model validation

# Every model class with the profile path of its options ("[]": an item of a list).
MODEL_CLASSES: list[tuple[type, str]] = [
    (Variant, ""),
    (Source, "source"),
    (Assumption, "assumed[]"),
    (RankBonus, "canastas.rank_bonuses[]"),
    (OpeningStep, "opening.score_table[]"),
    *((cls, area) for area, cls in AREAS),
]


def _path(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _options() -> list[tuple[type, str, attrs.Attribute[Any], Any]]:
    """(class, profile path, field, resolved type) of every option of the model."""
    out = []
    for cls, prefix in MODEL_CLASSES:
        hints = typing.get_type_hints(cls)
        for field in attrs.fields(cls):
            out.append((cls, _path(prefix, field.name), field, hints[field.name]))
    return out


OPTIONS = _options()


def _plain(tp: Any) -> tuple[Any, bool]:
    """The type without ``| None``, and whether None is allowed."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return next(a for a in typing.get_args(tp) if a is not type(None)), True
    return tp, False


def _int_words(meta: Mapping[str, Any]) -> str:
    """The expectation of an int option, written out independently of the library."""
    low, high = meta.get("minimum"), meta.get("maximum")
    if low is not None and high is not None:
        return f"an integer from {low} to {high}"
    if low is not None:
        return f"an integer >= {low}"
    if high is not None:
        return f"an integer <= {high}"
    return "an integer"


INT_OPTIONS = [
    (cls, path, field, nullable)
    for cls, path, field, tp in OPTIONS
    for plain, nullable in [_plain(tp)]
    if plain is int
]


def _bounds_cases() -> list[tuple[type, str, str, int, str]]:
    cases = []
    for cls, path, field, nullable in INT_OPTIONS:
        words = _int_words(field.metadata) + (" or None" if nullable else "")
        low, high = field.metadata.get("minimum"), field.metadata.get("maximum")
        if low is not None:
            cases.append(
                (cls, path, field.name, low - 1, f"{path}: expected {words}, got {low - 1}")
            )
        if high is not None:
            cases.append(
                (cls, path, field.name, high + 1, f"{path}: expected {words}, got {high + 1}")
            )
    return cases


def _build(cls: type, **changes: Any) -> Any:
    return attrs.evolve(cls(), **changes)


def _wrong_values(tp: Any, default: Any) -> list[Any]:
    """Values of the wrong kind for an option of type ``tp``."""
    plain, nullable = _plain(tp)
    wrong: list[Any] = [object()]
    if not nullable:
        wrong.append(None)
    if attrs.has(plain):
        return [*wrong, {}, attrs.asdict(plain()), "x"]
    if typing.get_origin(plain) is tuple:
        return [*wrong, list(default), "abc", (object(),)]
    if typing.get_origin(plain) is typing.Literal:
        return [*wrong, "no-such-choice", 1, True]
    if plain is bool:
        return [*wrong, 1, 0, "true"]
    if plain is int:
        return [*wrong, True, False, "7", 2.0]
    assert plain is str
    return [*wrong, 5, b"x", ["x"]]


def _value_id(value: Any) -> str:
    text = repr(value)
    return re.sub(r" at 0x[0-9a-f]+", "", text)


WRONG_TYPE_CASES = [
    # ids must not show object addresses: pytest-xdist workers must collect the same names
    pytest.param(cls, path, field.name, value, id=f"{path}={_value_id(value)}")
    for cls, path, field, tp in OPTIONS
    for value in _wrong_values(tp, field.default)
]


class TestModelValidation:
    """Every option of the model refuses what a profile may not hold, at construction."""

    @pytest.mark.parametrize(
        ("make", "expected"),
        [
            (lambda: attrs.evolve(CLASSIC, customs=["a"]), "customs: expected a tuple, got ['a']"),
            (
                lambda: attrs.evolve(CLASSIC, players=None),
                "players: expected a PlayerRules, got None",
            ),
            (
                lambda: DealRules(hand_size="7"),  # type: ignore[arg-type]
                "deal.hand_size: expected an integer from 1 to 30, got '7'",
            ),
            (
                lambda: attrs.evolve(CLASSIC.deal, hand_size=-1),
                "deal.hand_size: expected an integer from 1 to 30, got -1",
            ),
            (
                lambda: GameRules(target=True),
                "game.target: expected an integer from 1 to 1000000 or None, got True",
            ),
            (
                lambda: DrawRules(short_stock="stop"),  # type: ignore[arg-type]
                "draw.short_stock: expected one of 'draw_remaining', 'end_hand', got 'stop'",
            ),
            (
                lambda: OpeningRules(round_table=(50, -1)),
                "opening.round_table[1]: expected an integer from 0 to 100000, got -1",
            ),
            (
                lambda: PileRules(stop_cards=("wild", "wild")),
                "pile.stop_cards[1]: expected each value once, got 'wild' again"
                " (first at pile.stop_cards[0])",
            ),
            (
                lambda: DealRules(upcard_covered_if=("wild", "joker")),  # type: ignore[arg-type]
                "deal.upcard_covered_if[1]: expected one of 'wild', 'red_three', 'black_three',"
                " 'natural', got 'joker'",
            ),
            (
                lambda: WildRules(ranks=("2", "2")),
                "wilds.ranks[1]: expected each value once, got '2' again (first at wilds.ranks[0])",
            ),
            (
                lambda: WildRules(ranks=("2", "joker")),
                f"wilds.ranks[1]: expected a rank, one of {RANK_LIST}, got 'joker'",
            ),
            (
                lambda: RankBonus(rank="t"),
                f"canastas.rank_bonuses[].rank: expected a rank, one of {RANK_LIST}, got 't'",
            ),
            (
                lambda: CanastaRules(rank_bonuses=({"rank": "A"},)),  # type: ignore[arg-type]
                "canastas.rank_bonuses[0]: expected a RankBonus, got {'rank': 'A'}",
            ),
            (
                lambda: OpeningStep(from_score=-1_000_001),
                "opening.score_table[].from_score: expected an integer from -1000000 to 1000000 or None,"
                " got -1000001",
            ),
            (lambda: Variant(name=""), "name: expected a non-empty string, got ''"),
            (
                lambda: Variant(source=Source(title=None)),  # type: ignore[arg-type]
                "source.title: expected a string, got None",
            ),
            (
                lambda: Variant(assumed=(Assumption("draw.cuont", "x"),)),
                "assumed.draw.cuont: unknown option or area; did you mean 'draw.count'?",
            ),
            (
                lambda: Variant(assumed=(Assumption("draw", ""),)),
                "assumed.draw: expected a string naming where the value comes from, got ''",
            ),
            (
                lambda: Variant(assumed=(Assumption("draw", "a"), Assumption("draw", "b"))),
                "assumed.draw: expected each option once, got it again",
            ),
        ],
    )
    def test_message_names_the_option(self, make: Callable[[], object], expected: str) -> None:
        """The error is a VariantError naming the option by its profile path."""
        with pytest.raises(canasta.VariantError) as info:
            make()
        assert str(info.value) == expected

    @pytest.mark.parametrize(("cls", "path", "name", "value", "expected"), _bounds_cases())
    def test_int_out_of_range(
        self, cls: type, path: str, name: str, value: int, expected: str
    ) -> None:
        """Every int option refuses a value just below its minimum and above its maximum."""
        with pytest.raises(canasta.VariantError) as info:
            _build(cls, **{name: value})
        assert str(info.value) == expected

    @pytest.mark.parametrize(
        ("cls", "name", "field"),
        [pytest.param(c, f.name, f, id=p) for c, p, f, _ in INT_OPTIONS],
    )
    def test_int_in_range_constructs(
        self, cls: type, name: str, field: attrs.Attribute[Any]
    ) -> None:
        """The bounds themselves (or a value far above an open minimum) are accepted."""
        low, high = field.metadata.get("minimum"), field.metadata.get("maximum")
        values = [v for v in (low, high) if v is not None]
        if high is None:
            values.append((low or 0) + 10_000)
        for value in values:
            assert getattr(_build(cls, **{name: value}), name) == value

    @given(data=st.data())
    @settings(max_examples=examples(200), deadline=None)
    def test_int_accepted_exactly_within_range(self, data: st.DataObject) -> None:
        """An int option accepts a value if and only if it lies within its range."""
        cls, path, field, _ = data.draw(st.sampled_from(INT_OPTIONS))
        value = data.draw(st.integers(-2_000_000, 2_000_000))
        low, high = field.metadata.get("minimum"), field.metadata.get("maximum")
        fits = (low is None or value >= low) and (high is None or value <= high)
        if fits:
            assert getattr(_build(cls, **{field.name: value}), field.name) == value
        else:
            with pytest.raises(canasta.VariantError, match=rf"^{re.escape(path)}: expected "):
                _build(cls, **{field.name: value})

    @given(data=st.data())
    @settings(max_examples=examples(100), deadline=None)
    def test_loader_and_model_agree_on_ints(self, data: st.DataObject) -> None:
        """A profile mapping and the model refuse the same int values with the same words."""
        area, cls = data.draw(st.sampled_from(AREAS))
        ints = [f for c, _, f, nullable in INT_OPTIONS if c is cls and not nullable]
        if not ints:
            return
        field = data.draw(st.sampled_from(ints))
        value = data.draw(st.integers(-40, 40))
        loaded: Any
        try:
            loaded = variant_from_dict({area: {field.name: value}})
        except canasta.VariantError as exc:
            loaded = str(exc)
        built: Any
        try:
            built = attrs.evolve(Variant(), **{area: _build(cls, **{field.name: value})})
        except canasta.VariantError as exc:
            built = str(exc)
        assert loaded == built

    @pytest.mark.parametrize(("cls", "path", "name", "value"), WRONG_TYPE_CASES)
    def test_wrong_type_refused(self, cls: type, path: str, name: str, value: Any) -> None:
        """A value of the wrong kind is a VariantError naming the option, never a TypeError."""
        with pytest.raises(canasta.VariantError) as info:
            _build(cls, **{name: value})
        assert str(info.value).startswith(f"{path}: expected ") or str(info.value).startswith(
            f"{path}["
        )

    def test_every_bundled_profile_loads_and_validates(self) -> None:
        """Every bundled profile still loads, and passes the whole-variant check."""
        names = canasta.variant_names()
        assert names
        for name in names:
            validate_variant(canasta.load_variant(name))

    @given(variants())
    @settings(max_examples=examples(50), deadline=None)
    def test_generated_variants_validate(self, variant: Variant) -> None:
        """Any variant the model lets one build passes validate_variant."""
        validate_variant(variant)

    def test_validate_variant_finds_values_set_behind_the_validators(self) -> None:
        """validate_variant re-checks nested values, naming list items by index."""
        bad_deal = attrs.evolve(CLASSIC.deal)
        object.__setattr__(bad_deal, "hand_size", 99)
        with pytest.raises(canasta.VariantError) as info:
            validate_variant(attrs.evolve(CLASSIC, deal=bad_deal))
        assert str(info.value) == "deal.hand_size: expected an integer from 1 to 30, got 99"

        step = OpeningStep(minimum=50, from_score=0)
        object.__setattr__(step, "minimum", -5)
        opening = attrs.evolve(CLASSIC.opening, score_table=(OpeningStep(), step))
        with pytest.raises(canasta.VariantError) as info:
            validate_variant(attrs.evolve(CLASSIC, opening=opening))
        assert str(info.value) == (
            "opening.score_table[1].minimum: expected an integer from 0 to 100000, got -5"
        )

        v = attrs.evolve(CLASSIC)
        object.__setattr__(v, "assumed", (Assumption("nowhere", "x"),))
        with pytest.raises(canasta.VariantError, match=r"^assumed.nowhere: unknown option"):
            validate_variant(v)

    def test_validate_variant_refuses_other_objects(self) -> None:
        """Anything but a Variant is refused by name."""
        with pytest.raises(canasta.VariantError, match="expected a Variant, got dict"):
            validate_variant({})  # type: ignore[arg-type]

    def test_unpickled_variant_validates(self) -> None:
        """A pickled and unpickled variant is equal and passes the check."""
        again = pickle.loads(pickle.dumps(CLASSIC))
        assert again == CLASSIC
        validate_variant(again)


# --------------------------------------------------------------------------- the edges of the API

HUGE = 10**5000  # past Python's limit on writing an integer as text


def _simulate(**kwargs: Any) -> object:
    return canasta.simulate(CLASSIC, games=1, max_hands=1, **kwargs)


#: (call, what the message says): wrong types and sizes at the API's edges, each
#: refused by the check of that kind of input, saying what was expected.
EDGES: dict[str, tuple[Callable[[], object], type[canasta.CanastaError], str]] = {
    "new_game(seed=huge)": (
        lambda: canasta.new_game(CLASSIC, seed=HUGE), canasta.CanastaError,
        "seed must be a 64-bit integer, got an integer of 16610 bits",
    ),
    "new_game(seed=long text)": (
        lambda: canasta.new_game(CLASSIC, seed="x" * 10**6), canasta.CanastaError,  # type: ignore[arg-type]
        "seed must be an integer, got 'xxx",
    ),
    "score_data(red_threes=huge)": (
        lambda: score_data({"variant": "classic", "sides": [{"red_threes": HUGE}]}),
        canasta.CanastaError, "sides[0].red_threes: the decks hold only 4 red 3s, got an integer of 16610 bits",
    ),
    "score_data(key=huge)": (
        lambda: score_data({"variant": "classic", "sides": [{HUGE: 1}]}),
        canasta.CanastaError, "sides[0]['an integer of 16610 bits']: unknown key",
    ),
    "score_data(top key=huge)": (
        lambda: score_data({HUGE: 1}), canasta.CanastaError, "unknown key",
    ),
    "score_side(red_threes_held='x')": (
        lambda: canasta.score_side(CLASSIC, red_threes_held="x"), canasta.CanastaError,  # type: ignore[arg-type]
        "red_threes_held: expected a whole number >= 0, got 'x'",
    ),
    "simulate(bots=[GreedyBot])": (
        lambda: _simulate(bots=[canasta.GreedyBot]), canasta.CanastaError,
        "expected a bot object such as GreedyBot(), got the class GreedyBot",
    ),
    "simulate(bots=[5])": (
        lambda: _simulate(bots=[5]), canasta.CanastaError,
        "expected a bot name (greedy, random) or a bot object such as GreedyBot()",
    ),
    "simulate(bots=[None])": (lambda: _simulate(bots=[None]), canasta.CanastaError, "got None"),
    "playout(GreedyBot)": (
        lambda: canasta.playout(CLASSIC, canasta.GreedyBot, hands=1), canasta.CanastaError,
        "got the class GreedyBot",
    ),
    "parse_record(None)": (
        lambda: parse_record(None), RecordError,  # type: ignore[arg-type]
        "<record>: expected a record as text, got None",
    ),
    "parse_record(bytes)": (
        lambda: parse_record(b"format: 1"), RecordError,  # type: ignore[arg-type]
        "expected a record as text, got bytes (decode bytes first",
    ),
    "parse_record(5)": (
        lambda: parse_record(5), RecordError, "expected a record as text, got int",  # type: ignore[arg-type]
    ),
    "replay_text(None)": (
        lambda: replay_text(None), RecordError,  # type: ignore[arg-type]
        "expected a record as text, got None",
    ),
    "read_score_file(None)": (
        lambda: read_score_file(None), canasta.CanastaError,  # type: ignore[arg-type]
        "expected a score file's path (text or a pathlib.Path), got None",
    ),
    "read_record(None)": (
        lambda: canasta.read_record(None), RecordError,  # type: ignore[arg-type]
        "expected a record's path (text or a pathlib.Path), got None",
    ),
    "write_record(path, None)": (
        lambda: canasta.write_record("never-written.rec", None), RecordError,  # type: ignore[arg-type]
        "never-written.rec: expected a RecordedGame to write, got None",
    ),
    "RecordedGame(malformed move).replay()": (
        lambda: canasta.RecordedGame(
            CLASSIC, 1, (canasta.Draw(), canasta.TakePile("pair", naturals="7C"))  # type: ignore[arg-type]
        ).replay(),
        canasta.IllegalMoveError, "TakePile.naturals must be cards as kind * 4 + suit (4 to 63), got '7C' (move 2",
    ),
    "RecordedGame(huge discard)": (
        lambda: canasta.RecordedGame(CLASSIC, 1, (canasta.Draw(), canasta.Discard(HUGE))), canasta.IllegalMoveError,
        "Discard.kind must be a card kind from 1 to 15, got an integer of 16610 bits",
    ),
    "RecordedGame(moves='draw')": (
        lambda: canasta.RecordedGame(CLASSIC, 1, "draw"), canasta.CanastaError,  # type: ignore[arg-type]
        "moves: expected a list of moves or move notation, got 'draw'",
    ),
}


class TestEdges:
    """Each wrong type or size at an edge of the API: the library's error, saying what was expected."""

    @pytest.mark.parametrize("case", sorted(EDGES))
    def test_refused_with_what_was_expected(self, case: str) -> None:
        """The error is the documented CanastaError subclass; its short message says what was expected."""
        call, error, says = EDGES[case]
        with pytest.raises(canasta.CanastaError) as info:
            call()
        assert isinstance(info.value, error), f"{type(info.value).__name__}: {info.value}"
        assert says in str(info.value), str(info.value)
        assert len(str(info.value)) < 500

    @pytest.mark.parametrize("where", ["file/sub", "proc"])
    def test_simulate_record_dir_that_cannot_be_made(self, tmp_path: Any, where: str) -> None:
        """simulate(record_dir=...) under a file, or in /proc: a CanastaError naming the directory, before any game."""
        (tmp_path / "file").write_text("x")
        target = tmp_path / "file" / "sub" if where == "file/sub" else "/proc/canasta-records"
        with pytest.raises(canasta.CanastaError, match="cannot make the directory for the records"):
            _simulate(record_dir=target)
        with pytest.raises(canasta.CanastaError, match="expected a directory for the records"):
            _simulate(record_dir=5)
