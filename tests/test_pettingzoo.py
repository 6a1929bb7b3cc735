"""canasta.adapters.pettingzoo: PettingZoo's conformance tests for every bundled profile."""

from __future__ import annotations

import random
import types
import warnings

import pytest

import canasta
from budget import profiles
from extras import need

need("pettingzoo")
np = need("numpy")
from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    render_test,
    seed_test,
)

from canasta.adapters import pettingzoo as cpz  # noqa: E402
from canasta.adapters.common import reward_bound  # noqa: E402

NAMES = canasta.variant_names()

pytestmark = pytest.mark.filterwarnings(
    # PettingZoo warns about every Dict observation space; the Dict is what it asks for masks
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


@pytest.mark.parametrize("name", profiles(NAMES))
def test_api(name: str) -> None:
    api_test(cpz.env(variant=name), num_cycles=200)


@pytest.mark.parametrize("name", profiles(NAMES))
def test_api_whole_game(name: str) -> None:
    api_test(cpz.env(variant=name, episode="game", max_cycles=150), num_cycles=200)


@pytest.mark.parametrize("name", profiles(NAMES))
def test_seed(name: str) -> None:
    seed_test(lambda **kw: cpz.env(variant=name, **kw), num_cycles=60)


@pytest.mark.parametrize("name", profiles(NAMES))
def test_render(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        render_test(lambda **kw: cpz.env(variant=name, **kw))


@pytest.mark.parametrize("name", profiles(NAMES))
def test_api_cycles(name: str) -> None:
    api_test(cpz.env(variant=name, schedule="cycles", max_cycles=150), num_cycles=200)


@pytest.mark.parametrize("name", profiles(NAMES))
def test_seed_cycles(name: str) -> None:
    seed_test(lambda **kw: cpz.env(variant=name, schedule="cycles", **kw), num_cycles=60)


@pytest.mark.parametrize("name", profiles(NAMES))
def test_parallel_api(name: str) -> None:
    parallel_api_test(cpz.parallel_env(variant=name, max_cycles=150), num_cycles=200)


@pytest.mark.parametrize("name", profiles(NAMES))
def test_max_cycles_conformance(name: str) -> None:
    """PettingZoo's max_cycles_test: it steps every agent once per cycle and samples actions
    without the mask, so it runs the cycles schedule, with illegal actions refused (not ending
    the episode)."""
    mod = types.SimpleNamespace(
        env=lambda **kw: cpz.env(variant=name, schedule="cycles", illegal_action="refuse", **kw),
        parallel_env=lambda **kw: cpz.parallel_env(variant=name, illegal_action="refuse", **kw))
    max_cycles_test(mod)


def test_max_cycles_test_needs_cycles_and_refused_actions() -> None:
    """Under the defaults (turns, an illegal action ends the episode) max_cycles_test fails: the
    options above are what it needs, not decoration."""
    for kw in ({"schedule": "turns", "illegal_action": "refuse"}, {"schedule": "cycles"}):
        mod = types.SimpleNamespace(
            env=lambda kw=kw, **more: cpz.env(variant="classic", **kw, **more),
            parallel_env=lambda **more: cpz.parallel_env(variant="classic", **more))
        with pytest.raises(AssertionError):
            max_cycles_test(mod)


@pytest.mark.parametrize("name", profiles(NAMES))
def test_cycles_select_every_agent_once_per_cycle(name: str) -> None:
    """schedule="cycles": every cycle steps every agent in seat order; only the seat to move
    plays a move, the others' masks allow only wait."""
    e = cpz.env(variant=name, schedule="cycles", max_cycles=40)
    e.reset(seed=4)
    n = len(e.possible_agents)
    wait = e.unwrapped.wait_action
    assert wait == e.unwrapped.actions.size == e.action_space("player_0").n - 1
    rng = random.Random(4)
    order: list[str] = []
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        order.append(agent)
        mask = obs["action_mask"]
        before = e.unwrapped.game_state
        if e.unwrapped.seat_of(agent) == before.current:
            assert mask[wait] == 0 and mask.sum() >= 1
            e.step(int(rng.choice(np.flatnonzero(mask))))
        else:
            assert np.flatnonzero(mask).tolist() == [wait]
            e.step(wait)
            assert e.unwrapped.game_state is before
    assert order == e.possible_agents * (len(order) // n)
    assert len(order) == 40 * n or e.unwrapped.game_state.is_hand_over


def test_cycles_hand_end_waits_for_the_cycle() -> None:
    """A hand that ends mid-cycle ends the episode when the cycle does (PettingZoo's parallel
    form wants agents to die at a cycle's end); the rest of the cycle may only wait."""
    e = cpz.env(variant="classic", schedule="cycles")
    e.reset(seed=3)
    rng = random.Random(0)
    ended_at = None
    waited = 0
    for i, _agent in enumerate(e.agent_iter()):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            assert ended_at is not None and ended_at % 4 == 3
            e.step(None)
            continue
        if e.unwrapped.game_state.is_hand_over:
            assert np.flatnonzero(obs["action_mask"]).tolist() == [e.unwrapped.wait_action]
            waited += 1
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if ended_at is None and any(e.terminations.values()):
            ended_at = i
    assert e.unwrapped.game_state.is_hand_over
    assert waited > 0  # this deal's hand ends before the last seat of its cycle


def test_a_refused_action_after_the_hand_still_ends_the_cycle() -> None:
    """illegal_action="refuse": an agent that plays a move after the hand ended mid-cycle is
    penalized, and the episode still ends with the cycle."""
    e = cpz.env(variant="classic", schedule="cycles", illegal_action="refuse")
    e.reset(seed=3)
    rng = random.Random(0)
    refused = []
    for agent in e.agent_iter(5000):  # bounded: a bug here would never end the episode
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        if e.unwrapped.game_state.is_hand_over:
            e.step(0)
            refused.append(e.rewards[agent])
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert refused and all(r == -1.0 for r in refused)
    assert e.unwrapped.game_state.is_hand_over and not e.agents


def test_refused_actions_leave_the_state() -> None:
    """illegal_action="refuse": the penalty is paid, the state stays, the same agent moves again."""
    e = cpz.env(variant="classic", illegal_action="refuse", illegal_reward=-0.5)
    e.reset(seed=2)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    mover, before = e.agent_selection, e.unwrapped.game_state
    e.step(illegal)
    assert e.agent_selection == mover and e.unwrapped.game_state is before
    assert not any(e.terminations.values()) and not any(e.truncations.values())
    assert e.rewards[mover] == -0.5 and e.infos[mover] == {"illegal_action": illegal}
    _, reward, *_ = e.last()
    assert reward == -0.5
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert e.infos[mover] == {} and e.unwrapped.game_state is not before
    for kw in ({"illegal_action": "raise"}, {"illegal_reward": None}):
        strict = cpz.env(variant="classic", **kw)
        strict.reset(seed=2)
        with pytest.raises(canasta.IllegalMoveError):
            strict.step(illegal)


def test_waiting_out_of_turn_is_an_illegal_action() -> None:
    """schedule="cycles": an agent not to move that plays anything but wait is penalized."""
    e = cpz.env(variant="classic", schedule="cycles")
    e.reset(seed=2)
    mover = e.unwrapped.game_state.current
    for agent in e.agent_iter():
        if e.unwrapped.seat_of(agent) != mover:
            e.step(0)
            break
        e.step(int(np.flatnonzero(e.last()[0]["action_mask"])[0]))
    assert e.rewards[agent] == -1.0 and e.infos[agent] == {"illegal_action": 0}
    while not all(e.terminations.values()):  # the cycle ends, then the episode
        e.step(e.unwrapped.wait_action)
    assert e.agent_selection == "player_0"


@pytest.mark.parametrize("name", profiles(NAMES))
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


@pytest.mark.parametrize("name", profiles(NAMES))
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
               {"max_cycles": 0}, {"max_cycles": 2.5}, {"illegal_action": "ignore"},
               {"schedule": "parallel"}):
        with pytest.raises(canasta.CanastaError):
            cpz.env(**kw)
    with pytest.raises(canasta.CanastaError):
        cpz.raw_env().game_state  # noqa: B018
    with pytest.raises(canasta.CanastaError, match="schedule"):
        cpz.parallel_env(schedule="turns")


def test_example_runs() -> None:
    """examples/pettingzoo_reinforce.py trains and evaluates, at a small size."""
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "examples" / "pettingzoo_reinforce.py"
    out = subprocess.run([sys.executable, "-W", "ignore", str(script), "--episodes", "3", "--eval", "2"],
                         capture_output=True, text=True, check=True, timeout=300)
    assert "mean reward per hand against GreedyBot" in out.stdout
    assert "(95% interval)" in out.stdout and out.stdout.count(" ± ") == 2


def test_docs_example_prints_what_the_page_shows(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/agents.rst's PettingZoo example runs and prints the output the page shows."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "agents.rst").read_text(encoding="utf-8")
    section = page.split("\nPettingZoo\n----------\n", 1)[1]
    blocks = re.findall(r"^\.\. code-block:: (\w+)\n\n((?:   .*\n|\n)+)", section, flags=re.M)
    (code_lang, code), (out_lang, shown) = blocks[0], blocks[1]
    assert (code_lang, out_lang) == ("python", "text")

    def dedent(block: str) -> str:
        return "\n".join(line[3:] for line in block.rstrip("\n").splitlines())

    exec(compile(dedent(code), "agents.rst", "exec"), {})
    assert capsys.readouterr().out.rstrip("\n") == dedent(shown)
