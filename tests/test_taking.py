"""Taking the discard pile, way by way (``canasta.engine.taking``), and the draw phase's
quick listing (``canasta.engine.draw.draw_moves``), which asks the same decisions.

Scenario positions on classic tables whose pile options are changed one at a
time, each refused with its rule's words and listed or left out alike by the
quick listing and by each candidate's step; random hands of those tables,
where the quick listing must be the candidate loop's whenever it answers; and
a reading of the source: the quick listing names no option of taking the pile,
so a rule of taking is decided once, in its way's function.
"""

from __future__ import annotations

import ast
import inspect
import random
import textwrap

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta.engine import draw
from canasta.engine.candidates import candidate_moves
from canasta.engine.facts import context_of
from canasta.engine.game import step
from canasta.engine.state import DRAW, GameState
from positions import position, refusal

CLASSIC = canasta.load_variant("classic")
#: classic, where a natural and a wild card also take the pile (``pile.take_natural_and_wild``)
WILD = attrs.evolve(CLASSIC, name="take-wild", pile=attrs.evolve(CLASSIC.pile, take_natural_and_wild=True))
#: classic, where a meld of five blocks the pile on its rank, unless the player finishes it
#: (melds close at seven) and starts a second one (``pile.blocked_by_meld_size``,
#: ``pile.blocked_exception``)
BLOCKED = attrs.evolve(
    CLASSIC, name="blocked",
    pile=attrs.evolve(CLASSIC.pile, blocked_by_meld_size=5, blocked_exception=True),
    melds=attrs.evolve(CLASSIC.melds, duplicate_ranks="after_complete", max_size=7),
)
#: classic, where the top card may not be laid off on a rank the side has a canasta of
NO_LAY_ON = attrs.evolve(CLASSIC, name="no-lay-on", pile=attrs.evolve(CLASSIC.pile, lay_off_after_canasta=False))

FROZEN = "the pile is frozen: taking it needs two natural Ks from your hand"


def drawing(variant: canasta.Variant, hand: str, kings: str, pile: str) -> GameState:
    """Seat 0 to draw, its opened side holding a meld of Ks (``kings``), the pile's top card a K."""
    return position(variant, hands=[hand, "4C 6D 8S"], melds={0: [kings, "QC QD QH"]}, pile=pile,
                    phase="draw")


def step_listing(s: GameState) -> list[str]:
    """The draw phase's moves as each candidate's step decides them (the plain path)."""
    return [str(m) for m in candidate_moves(s, context_of(s)) if step(s, m, False) is None]


def quick_listing(s: GameState) -> list[str] | None:
    """The draw phase's moves as :func:`draw.draw_moves` lists them, or ``None``."""
    listed = draw.draw_moves(s)
    return None if listed is None else [str(m) for m in listed]


class TestWays:
    def test_an_open_pile_is_taken_each_way_the_variant_has(self) -> None:
        s = drawing(WILD, "KH KS 2C 9D 5S 6H", "KC KD KH", "7C 8D KD")
        assert quick_listing(s) == step_listing(s) == ["draw", "take pair", "take layoff", "take 2"]

    def test_a_frozen_pile_is_taken_only_by_a_natural_pair(self) -> None:
        s = drawing(WILD, "KH KS 2C 9D 5S 6H", "KC KD KH", "7C 2H 8D KD")
        assert refusal(s, "take layoff") == FROZEN
        assert refusal(s, "take 2") == FROZEN
        assert quick_listing(s) == step_listing(s) == ["draw", "take pair"]

    def test_a_way_the_variant_lacks_is_refused_by_its_own_rule(self) -> None:
        s = drawing(CLASSIC, "KH KS 2C 9D 5S 6H", "KC KD KH", "7C 8D KD")
        assert refusal(s, "take 2") == "this variant does not let a natural and a wild card take the pile"
        assert quick_listing(s) == step_listing(s) == ["draw", "take pair", "take layoff"]

    def test_a_canasta_of_the_rank_bars_the_lay_off_where_the_variant_says_so(self) -> None:
        seven = "KC KD KH KS KC KD KH"
        s = drawing(NO_LAY_ON, "KS 9D 5S 6H", seven, "7C 8D KD")
        assert refusal(s, "take layoff") == (
            "your side has already made a canasta of Ks this hand: taking the pile needs a natural pair of Ks"
        )
        assert quick_listing(s) == step_listing(s) == ["draw"]
        s = drawing(CLASSIC, "KS 9D 5S 6H", seven, "7C 8D KD")
        assert quick_listing(s) == step_listing(s) == ["draw", "take layoff"]

    def test_a_wild_card_past_the_meld_limit_is_refused_by_the_meld(self) -> None:
        # classic melds hold at most three wild cards
        s = drawing(WILD, "KS 2C 9D 5S 6H", "KC KD 2D 2H JK", "7C 8D KD")
        assert refusal(s, "take 2").startswith("the meld of Ks cannot take those cards: ")
        assert quick_listing(s) == step_listing(s) == ["draw", "take layoff"]

    def test_a_blocking_meld_is_finished_to_take_the_pile(self) -> None:
        hand = "KS KH KC KD 9D 5S 6H"
        s = drawing(BLOCKED, hand, "KC KD KH KS 2C", "7C 8D KD")
        assert refusal(s, "take layoff") == (
            "the side's meld of Ks has 5 cards: the pile cannot be taken on a K (with enough naturals, 'take finish')"
        )
        assert step_listing(s) == ["draw", "take finish"]
        # finishing asks whether the turn can still be finished: the steps decide
        assert quick_listing(s) is None
        short = drawing(BLOCKED, "KS KH 9D 5S 6H", "KC KD KH KS 2C", "7C 8D KD")
        assert refusal(short, "take finish") == (
            "taking the pile on your 5-card meld of Ks needs 4 natural Ks in hand: 2 to finish it and 2 to "
            "start a new meld"
        )
        assert quick_listing(short) == step_listing(short) == ["draw"]

    def test_a_hand_left_short_is_decided_by_the_steps(self) -> None:
        # after 'take pair' one card stays in hand, with nothing from the pile, and the
        # side has no canasta to go out with: the turn's end is the oracle's question,
        # so the quick listing stands aside
        s = drawing(CLASSIC, "KH KS 5S", "KC KD KH", "KD")
        assert quick_listing(s) is None
        assert refusal(s, "take pair") == "after taking the pile you could not finish the turn legally"
        assert step_listing(s) == ["draw", "take layoff"]


#: Which tables the random hands are played on.
TABLES = {"take-wild": WILD, "blocked": BLOCKED, "no-lay-on": NO_LAY_ON}


@pytest.mark.parametrize("name", sorted(TABLES))
@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_the_quick_listing_is_the_steps_listing(name: str, seed: int) -> None:
    """At every draw-phase position of a random hand where the quick listing answers, it
    lists exactly what each candidate's step accepts, in the same order."""
    rng = random.Random(seed)
    s = canasta.new_game(TABLES[name], seed=seed)
    answered = 0
    while not s.is_hand_over:
        if s.phase == DRAW and s.stock_:
            listed = quick_listing(s)
            if listed is not None:
                answered += 1
                assert listed == step_listing(s), str(s)
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])
    assert answered


#: The options of taking the pile, and the meld rules a way is checked against: read by
#: the ways' own functions in ``canasta.engine.taking``, never by the quick listing.
RULES_OF_TAKING = frozenset({
    "take_natural_pair", "take_natural_and_wild", "take_lay_off", "lay_off_after_canasta",
    "blocked_exception", "blocked_by_meld_size", "canasta_size", "valid", "closed",
    "duplicate_ranks", "dup_after_complete", "laid_from_pile", "is_wild", "late_on", "wild_lock",
})


@pytest.mark.parametrize("function", [draw.draw_moves, draw._listed_takes])
def test_the_quick_listing_reads_no_rule_of_taking(function: object) -> None:
    """``draw_moves`` asks the ways' functions instead of reading a rule of taking itself."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))  # type: ignore[arg-type]
    read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not read & RULES_OF_TAKING, sorted(read & RULES_OF_TAKING)
