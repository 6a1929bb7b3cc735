"""States read from JSON: every accepted state has a legal move and plays to the end of its hand.

A game server receives states from clients. Each test takes real states of
every bundled profile, mutates their JSON the way a careless or hostile client
might (a number changed, a flag flipped, a card moved from one place to
another so the cards still add up, an item dropped or repeated), and reads it
back: it is either refused with a ``CanastaError`` that names the field, fast,
or accepted and then played by random legal moves to the end of its hand.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta.engine.integrity import state_problem
from cpu_clock import cpu_clock

NAMES = canasta.variant_names()
MAX_MOVES = 5000  # a hand of any bundled profile ends far sooner
#: Mutated states per profile: 1200 in all in the long run, shared evenly by the
#: bundled profiles (never fewer than 60 each), so a new profile takes its share
#: rather than lengthening the run; a quarter of that in a plain run (tests/budget.py).
MUTATIONS = examples(max(60, 1200 // len(NAMES)))


def _sample_states(name: str, count: int = 40) -> list[canasta.GameState]:
    rng = random.Random(name)
    out: list[canasta.GameState] = []
    v = canasta.load_variant(name)
    seed = 0
    while len(out) < count:
        s = canasta.new_game(v, seed)
        seed += 1
        while not s.is_game_over and len(out) < count:
            if rng.random() < 0.08 or s.is_hand_over:
                out.append(s)
            moves = s.legal_moves()
            s = s.apply(moves[rng.randrange(len(moves))])
    return out


SAMPLES = {name: _sample_states(name) for name in NAMES}
# The converters that from_json builds on first use are not a mutation's work:
# built here, before any timing.
canasta.from_json(canasta.to_json(SAMPLES[NAMES[0]][0]), canasta.GameState)
#: CPU seconds within which a mutated state must be refused: a bound on runaway
#: work, not a speed target (refusals take milliseconds; a 2-core machine under
#: load has taken over 1 s once).
REFUSAL_LIMIT = 2.0


def _card_lists(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of the lists of card strings in a JSON tree."""
    found = []
    if isinstance(node, dict):
        for k, val in node.items():
            found += _card_lists(val, (*path, k))
    elif isinstance(node, list):
        if (node and all(isinstance(x, str) for x in node)) or (not node and path and path[-1] in (
            "hands", "pending", "drawn", "played", "pile", "stock", "cards"
        )):
            found.append(path)
        for i, val in enumerate(node):
            if isinstance(val, (list, dict)):
                found += _card_lists(val, (*path, i))
    return found


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = []
    if isinstance(node, dict):
        for k, val in node.items():
            out += _leaves(val, (*path, k))
    elif isinstance(node, list):
        out.append(path)
        for i, val in enumerate(node):
            out += _leaves(val, (*path, i))
    else:
        out.append(path)
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(doc, path[:-1])[path[-1]] = value


def mutate(doc: dict[str, Any], rng: random.Random) -> str:
    """Change ``doc`` in place in one way a client might; return what was done."""
    data = doc["data"]
    kind = rng.randrange(4)
    if kind == 0:  # move a card: the cards still add up
        lists = [p for p in _card_lists(data) if p and p[0] != "variant"]
        src = rng.choice([p for p in lists if _get(data, p)] or lists)
        dst = rng.choice(lists)
        cards = _get(data, src)
        if not cards:
            return "nothing to move"
        card = cards.pop(rng.randrange(len(cards)))
        _get(data, dst).append(card)
        return f"moved {card} from {src} to {dst}"
    leaves = [p for p in _leaves(data) if p and p[0] != "variant"]
    path = rng.choice(leaves)
    value = _get(data, path)
    if isinstance(value, bool):
        _set(data, path, not value)
    elif isinstance(value, int):
        _set(data, path, rng.choice([value + 1, value - 1, -value, value + 1000, 10**30, -1]))
    elif isinstance(value, str) and path[-1] == "phase":
        _set(data, path, rng.choice(["draw", "play", "answer", "hand over", "game over"]))
    elif isinstance(value, str) and path[-1] == "asked":
        _set(data, path, rng.choice(["not_asked", "yes", "no"]))
    elif isinstance(value, list) and value:
        i = rng.randrange(len(value))
        if kind == 2:
            value.append(value[i])
        else:
            value.pop(i)
    elif value is None and path[-1] == "end":
        return "end left alone"
    else:
        return "left alone"
    return f"changed {path}"


def play_out(s: canasta.GameState, rng: random.Random) -> None:
    """Random legal moves to the end of the hand: never stuck, never an error."""
    for _ in range(MAX_MOVES):
        if s.is_hand_over:
            return
        moves = s.legal_moves()
        assert moves, f"no legal move in an accepted state: {s!r}"
        s = s.apply(moves[rng.randrange(len(moves))])
    pytest.fail(f"the hand did not end within {MAX_MOVES} moves")


class TestRealStates:
    """The engine's own states pass every check (the checks refuse nothing real)."""

    @pytest.mark.parametrize("name", NAMES)
    def test_round_trip(self, name: str) -> None:
        """Every sampled state reads back equal, and has no problem."""
        for s in SAMPLES[name]:
            assert state_problem(s) is None, (s, state_problem(s))
            assert canasta.from_json(canasta.to_json(s), canasta.GameState) == s


class TestMutatedStates:
    """Mutated states are refused by field, or play on to the end of their hand."""

    @pytest.mark.parametrize("name", NAMES)
    @settings(max_examples=MUTATIONS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def test_refused_or_playable(self, name: str, data: st.DataObject) -> None:
        """One to three mutations; then a clean refusal or a hand that plays to its end."""
        rng = random.Random(data.draw(st.integers(0, 2**32)))
        s = rng.choice(SAMPLES[name])
        doc = json.loads(canasta.to_json(s))
        done = [mutate(doc, rng) for _ in range(data.draw(st.integers(1, 3)))]
        text = json.dumps(doc)
        # CPU time, without the run's collections: a loaded machine must not fail this
        with cpu_clock() as elapsed:
            try:
                got = canasta.from_json(text, canasta.GameState)
            except canasta.CanastaError as exc:
                assert elapsed() < REFUSAL_LIMIT, done
                assert len(str(exc)) < 2000
                assert "data" in str(exc), (done, str(exc))
                return
        play_out(got, rng)

    def test_mutations_are_refused_often(self) -> None:
        """The mutations do reach the checks: most single mutations of real states are refused."""
        rng = random.Random(3)
        refused = accepted = 0
        for _ in range(300):
            s = rng.choice(SAMPLES["classic"])
            doc = json.loads(canasta.to_json(s))
            mutate(doc, rng)
            try:
                canasta.from_json(json.dumps(doc), canasta.GameState)
                accepted += 1
            except canasta.CanastaError:
                refused += 1
        assert refused > 60 and accepted > 30, (refused, accepted)


class TestNamedProblems:
    """Each inconsistency the issue names is refused, naming the field."""

    def _doc(self, name: str = "classic", play: bool = True) -> dict[str, Any]:
        s = canasta.new_game(canasta.load_variant(name), 11)
        if play:
            s = s.apply("draw")
        return json.loads(canasta.to_json(s))  # type: ignore[no-any-return]

    def _refused(self, doc: dict[str, Any], field: str) -> None:
        with pytest.raises(canasta.CanastaError, match=field):
            canasta.from_json(json.dumps(doc), canasta.GameState)

    def test_scores_disagree_with_history(self) -> None:
        """Scores that are not the sum of history."""
        doc = self._doc()
        doc["data"]["scores"][0] = 100
        self._refused(doc, r"data\.scores")

    def test_drawn_cards_not_in_hand(self) -> None:
        """Drawn cards that are not in the hand."""
        doc = self._doc()
        turn, hands, stock = doc["data"]["turn"], doc["data"]["hands"], doc["data"]["stock"]
        card = turn["drawn"][0]
        hands[0].remove(card)
        stock.append(card)
        other = stock.pop(0)
        hands[0].append(other)
        if other == card:
            pytest.skip("the swap found the same card")
        self._refused(doc, r"data\.turn\.drawn")

    def test_answer_by_the_asker(self) -> None:
        """A turn answered yes by the asker itself."""
        doc = self._doc()
        doc["data"]["turn"]["asked"] = "yes"
        doc["data"]["turn"]["asker"] = 2
        self._refused(doc, r"data\.turn\.asker")

    def test_red_three_in_hand(self) -> None:
        """A red 3 in a hand while the hand is played."""
        v = canasta.load_variant("classic")
        s = next(s for s in (canasta.new_game(v, seed) for seed in range(100)) if any(s.red_threes_))
        doc = json.loads(canasta.to_json(s))
        data = doc["data"]
        side = next(i for i, r in enumerate(data["red_threes"]) if r)
        card = data["red_threes"][side].pop()
        data["hands"][0].append(card)
        self._refused(doc, r"data\.(hands\[0\]|red_threes)")

    def test_flipped_opened(self) -> None:
        """A side marked opened with no melds."""
        doc = self._doc(play=False)
        doc["data"]["opened"][1] = True
        self._refused(doc, r"data\.opened\[1\]")

    def test_negative_points(self) -> None:
        """Negative points in the turn."""
        doc = self._doc()
        doc["data"]["turn"]["points"] = -5
        self._refused(doc, r"data\.turn\.points")

    def test_long_seed(self) -> None:
        """A seed of thousands of digits, in JSON and in new_game."""
        doc = self._doc(play=False)
        doc["data"]["seed"] = 10**30  # past 64 bits, under the reader's 100 digits
        self._refused(doc, r"data\.seed")
        doc["data"]["seed"] = 10**300
        with pytest.raises(canasta.CanastaError, match="at most 100"):
            canasta.from_json(json.dumps(doc), canasta.GameState)
        with pytest.raises(canasta.CanastaError, match="64-bit"):
            canasta.new_game(canasta.load_variant("classic"), 10**300)
