"""canasta.adapters.pettingzoo: PettingZoo's conformance tests for every bundled profile."""

from __future__ import annotations

import random
import types
import warnings

import pytest

import canasta
from extras import need

need("pettingzoo")
np = need("numpy")
from pettingzoo.test import api_test, max_cycles_test, render_test, seed_test  # noqa: E402

from canasta.adapters import pettingzoo as cpz  # noqa: E402
from canasta.adapters.common import reward_bound  # noqa: E402

NAMES = canasta.variant_names()

pytestmark = pytest.mark.filterwarnings(
    # PettingZoo warns about every Dict observation space; the Dict is what it asks for masks
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


@pytest.mark.parametrize("name", NAMES)
def test_api(name: str) -> None:
    api_test(cpz.env(variant=name), num_cycles=200)


@pytest.mark.parametrize("name", NAMES)
def test_api_whole_game(name: str) -> None:
    api_test(cpz.env(variant=name, episode="game", max_cycles=150), num_cycles=200)


@pytest.mark.parametrize("name", NAMES)
def test_seed(name: str) -> None:
    seed_test(lambda **kw: cpz.env(variant=name, **kw), num_cycles=60)


@pytest.mark.parametrize("name", NAMES)
def test_render(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        render_test(lambda **kw: cpz.env(variant=name, **kw))


def test_max_cycles_test_does_not_apply() -> None:
    """PettingZoo's max_cycles_test samples actions without the mask and expects every agent to
    act once per cycle; a card game with several moves per turn and illegal actions can do
    neither (PettingZoo runs it on none of its classic games). Its contract is checked below."""
    mod = types.SimpleNamespace(env=lambda **kw: cpz.env(variant="classic", **kw),
                                parallel_env=lambda **kw: cpz.parallel_env(variant="classic", **kw))
    with pytest.raises(AssertionError):
        max_cycles_test(mod)


@pytest.mark.parametrize("name", NAMES)
def test_max_cycles_truncates_every_agent(name: str) -> None:
    """max_cycles=k: after k moves per agent, every agent is truncated and steps out once."""
    e = cpz.env(variant=name, max_cycles=3)
    e.reset(seed=1)
    n = len(e.possible_agents)
    live = 0
    dead: list[str] = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert truncated and not terminated
            dead.append(agent)
            e.step(None)
        else:
            live += 1
            e.step(int(random.Random(live).choice(np.flatnonzero(obs["action_mask"]))))
    assert live == 3 * n
    assert sorted(dead) == sorted(e.possible_agents)


@pytest.mark.parametrize("name", NAMES)
def test_registered(name: str) -> None:
    import pettingzoo

    e = pettingzoo.make("aec", f"canasta/{name}-v0")
    assert e.unwrapped.variant.name == name
    assert cpz.make(f"canasta/{name}-v0").unwrapped.variant.name == name
    assert f"canasta/{name}-v0" in cpz.env_ids()
    with pytest.raises(canasta.CanastaError):
        cpz.make("canasta/nope-v0")


def play_out(e: object, rng: random.Random) -> dict[str, float]:
    totals: dict[str, float] = {}
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, _ = e.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)  # type: ignore[attr-defined]
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))  # type: ignore[attr-defined]
    return totals


@pytest.mark.parametrize("name", NAMES)
def test_rewards_are_scaled_score_differences(name: str) -> None:
    e = cpz.env(variant=name)
    e.reset(seed=3)
    totals = play_out(e, random.Random(0))
    s = e.unwrapped.game_state
    scores = s.end.hand_scores
    m = len(scores)
    for agent, total in totals.items():
        side = s.side_of(e.unwrapped.seat_of(agent))
        expected = (m * scores[side] - sum(scores)) / ((m - 1) * 1000.0)
        assert total == pytest.approx(expected)
        assert abs(total) <= reward_bound(e.unwrapped.variant)
    assert sum(totals.values()) == pytest.approx(0.0)


def test_whole_game_episode_sums_the_hands() -> None:
    e = cpz.env(variant="classic-2p", episode="game")
    e.reset(seed=11)
    totals = play_out(e, random.Random(1))
    s = e.unwrapped.game_state
    assert s.is_game_over
    a, b = s.scores
    assert totals["player_0"] == pytest.approx((a - b) / 1000.0)


def test_illegal_action_ends_the_episode() -> None:
    e = cpz.env(variant="classic")
    e.reset(seed=2)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    mover = e.agent_selection
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[mover] == -1.0
    assert e.infos[mover]["illegal_action"] == illegal
    strict = cpz.env(variant="classic", illegal_reward=None)
    strict.reset(seed=2)
    with pytest.raises(canasta.IllegalMoveError):
        strict.step(illegal)


def test_greedy_bot_as_opponent_and_deals() -> None:
    e = cpz.raw_env(variant="classic")
    e.reset(options={"deal": 9})
    assert e.game_state == canasta.new_game(e.variant, seed=9)
    rng = random.Random(0)
    bot = canasta.GreedyBot()
    for agent in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else e.bot_action(agent, bot, rng))
    assert e.game_state.is_hand_over


def test_bad_arguments() -> None:
    for kw in ({"episode": "set"}, {"render_mode": "rgb_array"}, {"reward_scale": 0},
               {"max_cycles": 0}):
        with pytest.raises(canasta.CanastaError):
            cpz.env(**kw)
    with pytest.raises(canasta.CanastaError):
        cpz.raw_env().game_state  # noqa: B018


def test_example_runs() -> None:
    """examples/pettingzoo_reinforce.py trains and evaluates, at a small size."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "examples" / "pettingzoo_reinforce.py"
    out = subprocess.run([sys.executable, "-W", "ignore", str(script), "--episodes", "3", "--eval", "2"],
                         capture_output=True, text=True, check=True, timeout=300)
    assert "mean reward per hand against GreedyBot" in out.stdout
