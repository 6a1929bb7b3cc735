"""One decision for "cannot be played": the checker's errors and new_game's refusals agree.

``canasta.engine.refusals.refusals`` decides which profiles the engine does
not play; ``new_game`` refuses them with the first refusal's words, and the
checker reports each as an error with the same words. Every static error of
the checker is such a refusal, so a profile the checker passes is dealt and a
profile it fails is refused, for the same reason.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
import house_rules as hr
from budget import examples
from canasta.check import CHECKS, check_variant
from canasta.engine import compile_rules
from canasta.engine.refusals import refusals, supply_of, unplayable
from canasta.errors import CanastaError, VariantError
from canasta.io.serialize import from_json, to_json
from canasta.variant.loading import parse_variant

#: The checker's errors read from the rules: each is one of the engine's refusals.
STATIC_ERRORS = sorted(c for c, k in CHECKS.items() if k.stage == "static" and k.severity == "error")
BUNDLED = [
    "bolivia", "brazilian", "classic", "classic-2p", "classic-3p", "classic-6p", "draw-two",
    "hand-and-foot", "hand-and-foot-pagat", "modern-american", "modern-american-2p", "samba",
    "uruguayan",
]


def _errors(v: canasta.Variant) -> list[str]:
    return [d.message for d in check_variant(v) if d.severity == "error"]


@pytest.mark.parametrize("code", STATIC_ERRORS)
def test_example_refused_alike(code: str) -> None:
    """The docs example of each error: new_game refuses it with the checker's own message."""
    v = parse_variant(CHECKS[code].example)
    found = [x for x in refusals(compile_rules(v)) if x.code == code]
    assert found, code
    messages = [d.message for d in check_variant(v) if d.code == code]
    assert messages == [x.text for x in found]
    with pytest.raises(VariantError) as caught:
        canasta.new_game(v, seed=1)
    assert str(caught.value) == f"variant {v.name!r}: {refusals(compile_rules(v))[0].text}"


def test_every_refusal_is_a_registered_error() -> None:
    """The refusals' codes are exactly the checker's static errors (no error that new_game deals)."""
    codes = set()
    for code in STATIC_ERRORS:
        codes |= {x.code for x in refusals(compile_rules(parse_variant(CHECKS[code].example)))}
    assert codes == set(STATIC_ERRORS)


def test_refusal_names_options_and_change() -> None:
    """A refusal names the options that clash and says what to change, after a semicolon."""
    for code in STATIC_ERRORS:
        for x in refusals(compile_rules(parse_variant(CHECKS[code].example))):
            assert x.paths and all("." in p for p in x.paths), x
            why, sep, change = x.text.partition("; ")
            assert sep and why and change, x


def test_deal_too_big_is_c001() -> None:
    """A deal larger than the decks is refused by new_game as the checker's C001, not in words of its own."""
    v = parse_variant("extends: hand-and-foot-pagat\ndeck: {decks: 1}\n")
    with pytest.raises(VariantError, match="the deal needs 105 cards") as caught:
        canasta.new_game(v, seed=3)
    assert any(str(caught.value).endswith(m) for m in _errors(v))
    assert refusals(compile_rules(v))[0].code == "C001"


#: Profiles that reach each way a refusal is worded: (profile, code, words of its text).
BRANCHES = [
    ("extends: classic\nmelds: {min_size: 5, max_size: 4}\n", "C003", "a meld holds at most 4"),
    ("extends: classic\ncanastas: {size: 13}\n", "C004", "no meld can reach the 13 cards"),
    ("extends: classic\ncanastas: {size: 9}\ngoing_out: {natural_canastas: 1}\n", "C005",
     "9 natural cards of one rank can never be melded together"),
    ("extends: brazilian\nsequences: {max_size: 6}\ngoing_out: {sequence_canastas: 1}\n", "C005",
     "a sequence holds at most 6 cards"),
    ("extends: brazilian\nsequences: {low: '9'}\ngoing_out: {sequence_canastas: 1}\n", "C005",
     "no stretch of the sequence window (9 to A"),
    ("extends: classic\nopening:\n  score_table:\n  - {minimum: 500}\n", "C009", "an opening of 500 points"),
    ("extends: classic\ndeal: {foot_size: 20}\n", "C001", "(4 players × (11 in hand + 20 in foot) + 1 upcard)"),
    ("extends: classic\nopening: {talons: [40, 40], talons_set_aside: true}\n", "C001",
     "+ 80 talon cards set aside"),
    ("extends: classic\nplayers: {count: 8}\ndeal: {hand_size: 14}\n", "C001", "the deal needs 113 cards"),
]


@pytest.mark.parametrize(("text", "code", "words"), BRANCHES)
def test_each_wording(text: str, code: str, words: str) -> None:
    """Each wording of a refusal: new_game refuses with it, and the checker's error of that code is it."""
    v = parse_variant(text)
    with pytest.raises(VariantError) as caught:
        canasta.new_game(v, seed=5)
    assert words in str(caught.value)
    assert next(d.code for d in check_variant(v) if d.severity == "error") == code
    assert str(caught.value).endswith(_errors(v)[0])


@pytest.mark.parametrize("text", [
    "extends: classic\nopening:\n  score_table:\n  - {minimum: 50}\n  - {minimum: 500, from_score: 5000}\n",
    "extends: classic-3p\ngame: {rounds: 2}\nopening:\n  by: round\n  round_table: [50, 90, 500]\n",
])
def test_opening_rows_never_reached_are_played(text: str) -> None:
    """An unreachable opening minimum in a row no game reaches (from the target on, past the
    last round) is no refusal: the game is dealt; the same row where it is reached is refused."""
    v = parse_variant(text)
    assert not _errors(v)
    canasta.new_game(v, seed=4)
    reached = parse_variant(text.replace("{rounds: 2}", "{rounds: 3}").replace(
        "from_score: 5000", "from_score: 4990"))
    assert [x.code for x in refusals(compile_rules(reached))] == ["C009"]


def test_state_reader_refuses_alike() -> None:
    """A saved state whose variant cannot be played is refused on reading, in the same words."""
    state = json.loads(to_json(canasta.new_game(canasta.load_variant("classic"), seed=1)))
    bad = parse_variant("extends: classic\ngame: {target: null}\n")
    state["data"]["variant"] = json.loads(to_json(bad))["data"]
    with pytest.raises(CanastaError) as caught:
        from_json(json.dumps(state), canasta.GameState)
    assert str(caught.value).startswith("data.variant: ")
    assert str(caught.value).endswith(_errors(bad)[0])


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_not_refused(name: str) -> None:
    """No bundled profile is refused."""
    assert unplayable(compile_rules(canasta.load_variant(name))) is None


def test_worked_out_once() -> None:
    """Refusals and their facts are worked out once per compiled variant."""
    r = compile_rules(canasta.load_variant("classic"))
    assert refusals(r) is refusals(r) and supply_of(r) is supply_of(r)


def test_c057_is_played() -> None:
    """Black 3s laid out at once while black_meld is set: a warning, and the game is dealt."""
    v = parse_variant("extends: classic\nthrees: {black_laid_at_once: true}\n")
    assert [d.severity for d in check_variant(v) if d.code == "C057"] == ["warning"]
    assert not canasta.new_game(v, seed=2).is_hand_over


@given(profile=hr.house_profiles(), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=examples(300, least=40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_checker_and_new_game_agree(profile: hr.HouseProfile, seed: int) -> None:
    """Generated house profiles: a checker error if and only if new_game refuses, with the same words."""
    admission = hr.admit(profile, seed)
    assert not admission.disagreement, f"{admission.disagreement}: {admission}\n{profile.text()}"
    if admission.refusal:
        # new_game gives the first refusal, which is the checker's first error
        assert admission.refusal.endswith(admission.errors[0].split(": ", 1)[1])
