"""canasta.adapters.openspiel: OpenSpiel's random simulation test, with serialization, per profile."""

from __future__ import annotations

import pickle
import random

import pytest

import canasta
from budget import profiles
from extras import need

need("numpy")
pyspiel = need("pyspiel")
from canasta.adapters import openspiel as cos  # noqa: E402
from canasta.adapters.common import move_bound, reward_bound  # noqa: E402

NAMES = canasta.variant_names()


@pytest.mark.parametrize("name", profiles(NAMES))
def test_random_sim_with_serialization(name: str) -> None:
    game = pyspiel.load_game(cos.game_name(name))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_two_hands() -> None:
    game = pyspiel.load_game(cos.game_name("classic-2p"), {"hands": 2})
    assert game.max_game_length() == 2 * move_bound(canasta.load_variant("classic-2p"))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", profiles(NAMES))
def test_game_info_is_real_bounds(name: str) -> None:
    v = canasta.load_variant(name)
    game = pyspiel.load_game(cos.game_name(name))
    assert game.num_players() == v.players.count
    assert game.num_distinct_actions() == canasta.ActionSpace(v).size
    assert game.max_game_length() == move_bound(v)
    assert game.max_utility() == pytest.approx(reward_bound(v)) == -game.min_utility()
    assert game.observation_tensor_size() == cos.layout_of(v).size
    assert game.information_state_tensor_size() == cos.layout_of(v).size + 2 * v.players.count * 15


def play(game: object, seed: int) -> object:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_deal_is_the_seeded_engine_deal() -> None:
    game = pyspiel.load_game(cos.game_name("classic"))
    state = game.new_initial_state()
    for b in (7, 0, 0, 0):
        assert state.is_chance_node() and len(state.chance_outcomes()) == 256
        state.apply_action(b)
    v = canasta.load_variant("classic")
    assert state.core == canasta.new_game(v, seed=7)
    assert state.current_player() == state.core.current
    assert state.observation_tensor(0) == pytest.approx(list(cos.layout_of(v).encode(state.core.view(0))))


def test_returns_zero_sum_and_clone_shares_the_engine_state() -> None:
    game = pyspiel.load_game(cos.game_name("classic"))
    end = play(game, 1)
    returns = end.returns()
    assert sum(returns) == pytest.approx(0.0) and any(returns)
    assert returns[0] == returns[2] and returns[1] == returns[3]
    clone = end.clone()
    assert clone.core is end.core and str(clone) == str(end)
    again = game.deserialize_state(end.serialize())
    assert again.returns() == returns and again.core == end.core


def test_information_state_string_keeps_own_cards_only() -> None:
    game = pyspiel.load_game(cos.game_name("classic-2p"))
    state = game.new_initial_state()
    for b in (3, 1, 4, 1):
        state.apply_action(b)
    while state.current_player() != 0 or not state.core.turn.drawn:
        state.apply_action(state.legal_actions()[0])
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    drawn = " ".join(str(canasta.Card(c)) for c in state.core.turn.drawn)
    assert f"0: draw [{drawn}]" in mine and f"0: draw [{drawn}]" not in theirs
    assert "0: draw" in theirs


def test_shimmy_accepts_it() -> None:
    shimmy = need("shimmy.openspiel_compatibility")
    from pettingzoo.test import api_test

    env = shimmy.OpenSpielCompatibilityV0(pyspiel.load_game(cos.game_name("classic-2p")))
    with pytest.warns(UserWarning):
        api_test(env, num_cycles=50)
    assert pickle.loads(pickle.dumps(cos.game_names())) == [cos.game_name(n) for n in NAMES]


def test_example_runs() -> None:
    """examples/openspiel_evaluate.py evaluates against GreedyBot and runs MCTS, at a small size."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "examples" / "openspiel_evaluate.py"
    out = subprocess.run([sys.executable, "-W", "ignore", str(script), "--games", "2"],
                         capture_output=True, text=True, check=True, timeout=300)
    assert "mean return against GreedyBot" in out.stdout and "MCTS" in out.stdout
