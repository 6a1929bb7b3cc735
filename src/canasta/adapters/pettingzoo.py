"""A PettingZoo AEC environment for any variant: :func:`env`, :class:`CanastaEnv`.

Needs ``pip install 'canasta[pettingzoo]'`` (PettingZoo 1.27 or later, Gymnasium, NumPy)::

    from canasta.adapters.pettingzoo import env

    e = env(variant="classic", render_mode="ansi")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` ... ``player_<n-1>``, one per seat. An observation is
``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is
:meth:`canasta.observe.ObservationLayout.encode` of the agent's own
:class:`~canasta.SeatView`, the mask marks the legal ids of
:class:`canasta.ActionSpace` (all zeros when it is not the agent's turn).

An episode is one hand (``episode="hand"``, the default) or one whole game
(``episode="game"``: the next hand is dealt at once, with no ``next`` move).
Rewards are paid when a hand ends: see :mod:`canasta.adapters.common`
(score difference ÷ ``reward_scale``, 1000 points by default, summing to zero
over the sides, at most :func:`~canasta.adapters.common.reward_bound` in
absolute value per hand). An illegal action (an id the mask forbids) ends the
episode by default: the agent that played it gets ``illegal_reward`` (-1 by
default), the others 0, and ``info["illegal_action"]`` is set;
``illegal_action="refuse"`` pays the penalty and leaves the state unchanged,
``"raise"`` raises :class:`~canasta.IllegalMoveError`.

``schedule="turns"`` (the default) selects only the agent to move;
``schedule="cycles"`` selects every agent once per cycle, the agent to move
playing one move and the others :attr:`CanastaEnv.wait_action`: PettingZoo's
notion of a cycle, which :func:`parallel_env` and ``max_cycles_test`` rely on.
``max_cycles`` truncates the episode after that many cycles.

Importing this module registers ``canasta/<variant>-v0`` for every bundled
profile with :func:`pettingzoo.register`, so that
``pettingzoo.make("aec", "canasta/classic-v0")`` works; :func:`make` does the
same without the registry.
"""

from __future__ import annotations

import functools
import os
import random
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import pettingzoo
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import aec_to_parallel

from canasta.adapters.common import DEFAULT_REWARD_SCALE, advance, reward_bound, seat_rewards
from canasta.engine import new_game
from canasta.engine.state import HAND_OVER, GameState
from canasta.errors import CanastaError, IllegalMoveError
from canasta.io.actions import ActionSpace
from canasta.observe import layout_of, mover_observer
from canasta.play.bots import Bot
from canasta.variant.loading import load_variant, variant_names
from canasta.variant.model import Variant

__all__ = [
    "ILLEGAL_ACTIONS",
    "SCHEDULES",
    "CanastaEnv",
    "env",
    "env_ids",
    "make",
    "parallel_env",
    "raw_env",
    "register_all",
]

Obs = dict[str, npt.NDArray[Any]]


#: What an illegal action does: ends the episode with a penalty, is refused with one, or raises.
ILLEGAL_ACTIONS = ("penalize", "refuse", "raise")
#: Which agents are selected: the seat to move only, or every agent once per cycle.
SCHEDULES = ("turns", "cycles")


class CanastaEnv(AECEnv[str, Obs, int]):  # type: ignore[misc]
    """The AEC environment (what :func:`env` returns).

    Args:
        variant: a bundled profile's name, a profile path, or a Variant.
        episode: ``"hand"`` (one hand per episode) or ``"game"`` (a whole game).
        render_mode: ``"ansi"`` (:meth:`render` returns the text), ``"human"``
            (prints it) or ``None``.
        reward_scale: points per unit of reward.
        illegal_action: what an action the mask forbids does: ``"penalize"``
            (the default, as PettingZoo's classic games: the agent gets
            ``illegal_reward``, the others 0, and the episode ends),
            ``"refuse"`` (the agent gets ``illegal_reward``, the state does not
            change and the episode goes on) or ``"raise"``
            (:class:`~canasta.IllegalMoveError`).
        illegal_reward: the reward of an illegal action; ``None`` is the old
            spelling of ``illegal_action="raise"``.
        schedule: ``"turns"`` (the default: only the agent to move is selected,
            and it plays every step of its turn in a row) or ``"cycles"``
            (every cycle selects every live agent once, in seat order; the
            agent to move plays one move, the others play :attr:`wait_action`,
            the only id their mask allows: PettingZoo's cycle, which its
            parallel form and ``max_cycles_test`` expect).
        max_cycles: truncate every agent after this many cycles: ``max_cycles``
            steps of every agent with ``schedule="cycles"``, ``max_cycles *
            number of agents`` steps in all with ``"turns"`` (refused actions
            count); ``None`` for no limit.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "canasta_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": True,
    }

    def __init__(
        self,
        variant: str | Variant = "classic",
        episode: str = "hand",
        render_mode: str | None = None,
        reward_scale: float = DEFAULT_REWARD_SCALE,
        illegal_action: str = "penalize",
        illegal_reward: float | None = -1.0,
        schedule: str = "turns",
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        self.variant: Variant = variant if isinstance(variant, Variant) else load_variant(variant)
        if episode not in ("hand", "game"):
            raise CanastaError(f"episode must be 'hand' or 'game', got {episode!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise CanastaError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                               f"got {render_mode!r}")
        if not reward_scale > 0:
            raise CanastaError(f"reward_scale must be positive, got {reward_scale!r}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise CanastaError(f"illegal_action must be one of {', '.join(map(repr, ILLEGAL_ACTIONS))}, "
                               f"got {illegal_action!r}")
        if illegal_reward is None:
            illegal_action = "raise"
        if schedule not in SCHEDULES:
            raise CanastaError(f"schedule must be 'turns' or 'cycles', got {schedule!r}")
        if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int)
                                       or max_cycles < 1):
            raise CanastaError(f"max_cycles must be an integer of at least 1, got {max_cycles!r}")
        self.episode = episode
        self.render_mode = render_mode
        self.reward_scale = float(reward_scale)
        self.illegal_action = illegal_action
        self.illegal_reward = -1.0 if illegal_reward is None else float(illegal_reward)
        self.schedule = schedule
        self.max_cycles = max_cycles
        self.actions = ActionSpace(self.variant)
        self._moves = self.actions.moves
        self.layout = layout_of(self.variant)
        self._cycles = schedule == "cycles"
        #: The id of "wait", the move of an agent that is not to move (``schedule="cycles"`` only).
        self.wait_action: int | None = self.actions.size if self._cycles else None
        self._n_actions = self.actions.size + (1 if self._cycles else 0)
        self.possible_agents = [f"player_{i}" for i in range(self.layout.seats)]
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        #: The bound on the absolute reward of one hand.
        self.reward_bound = reward_bound(self.variant, self.reward_scale)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._seeder: random.Random | None = None
        self._state: GameState | None = None
        self._over = True  # no live agent is left to move (the episode is ending or has ended)
        self._ending = False  # the episode ends when this cycle does (schedule="cycles")
        self._steps = 0
        self._cycle = 0
        self._paid = False  # some reward of this step is not 0
        self._cache: dict[str, Obs] = {}
        # observe_to_move with its checks done once: the vector and mask of the seat to move
        self._to_move = mover_observer(self.layout, self.actions, self._n_actions)

    # -- spaces ---------------------------------------------------------------

    @functools.cache  # noqa: B019 - one space object per agent, as PettingZoo asks
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``Dict(observation=Box(float32), action_mask=Box(int8))``, the same object every call."""
        return spaces.Dict({
            "observation": spaces.Box(self.layout.low, self.layout.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self._n_actions,), dtype=np.int8),
        })

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(ActionSpace(variant).size)`` (one more, :attr:`wait_action`, in cycles)."""
        return spaces.Discrete(self._n_actions)

    # -- the game -------------------------------------------------------------

    @property
    def game_state(self) -> GameState:
        """The engine's full state (hidden cards included: for bots and tests, not for agents).

        Raises:
            CanastaError: before the first :meth:`reset`.
        """
        if self._state is None:
            raise CanastaError("call reset() first")
        return self._state

    def seat_of(self, agent: str) -> int:
        """The seat of ``agent``."""
        return self._seat[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (a new game in ``episode="game"``).

        Args:
            seed: seeds the sequence of deals (the same seed, the same deals);
                without one, the sequence goes on (or starts from the OS's entropy).
            options: ``{"deal": k}`` deals ``canasta.new_game(variant, seed=k)``.
        """
        if seed is not None:
            self._seeder = random.Random(seed)
        elif self._seeder is None:
            self._seeder = random.Random(int.from_bytes(os.urandom(8), "little"))
        deal = self._seeder.getrandbits(63)
        if options and "deal" in options:
            deal = int(options["deal"])
        self._state = new_game(self.variant, seed=deal)
        self._over = self._ending = False
        self._steps = self._cycle = 0
        self._paid = False
        self._cache = {}
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0 if self._cycles else self._state.current]

    def observe(self, agent: str) -> Obs:
        """The agent's observation and action mask (computed once per step)."""
        obs = self._cache.get(agent)
        if obs is None:
            s = self._state
            if s is None:
                raise CanastaError("call reset() first")
            seat = self._seat[agent]
            # the same vectors as layout.encode(s.view(seat)), without building the view
            if self._over or self._ending or seat != s.current:
                mask = np.zeros(self._n_actions, dtype=np.int8)
                if self._cycles and not self._over:
                    mask[self._n_actions - 1] = 1
                obs = {"observation": self.layout.encode_state(s, seat), "action_mask": mask}
            else:
                # the seat to move has the full state's legal moves (SeatView.legal_moves);
                # asking the state reuses what the engine worked out for it
                vector, mask = self._to_move(s)
                obs = {"observation": vector, "action_mask": mask}
            self._cache[agent] = obs
        return obs

    def step(self, action: int | None) -> None:
        """Play ``action`` (an id of :class:`canasta.ActionSpace`) for the selected agent.

        Raises:
            CanastaError: before :meth:`reset`, or ``None`` for an agent that is not done.
            IllegalMoveError: an illegal action, with ``illegal_action="raise"``.
        """
        if self._state is None:
            raise CanastaError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise CanastaError(f"{agent} is to move: None is only for agents that are done")
        a = int(action)
        self._cumulative_rewards[agent] = 0.0
        if self._paid:  # rewards are paid at a hand's end or for an illegal action, rarely
            self._clear_rewards()
            self._paid = False
        if self.infos[agent]:
            self.infos[agent] = {}
        self._steps += 1
        if not self._cycles:
            self._cache = {}
            # _play written out (the step of almost every move): a legal move inside the hand
            # only moves the state on
            s = self._state
            try:
                if not 0 <= a < len(self._moves):
                    raise self._out_of_range(agent, a)
                s = s.apply(self._moves[a])  # apply checks legality
            except IllegalMoveError as exc:
                over = self._illegal(agent, a, exc)
            else:
                if s.phase < HAND_OVER:
                    self._state = s
                    over = False
                else:
                    over = self._hand_over(s)
            if over:
                self._finish(terminated=True)
            elif self.max_cycles is not None and self._steps >= self.max_cycles * len(self.possible_agents):
                self._finish(terminated=False)
            else:
                self.agent_selection = self.possible_agents[self._state.current]
            if self._paid:
                self._accumulate_rewards()
            return
        self._step_in_cycle(agent, action, a)

    def _step_in_cycle(self, agent: str, action: int, a: int) -> None:
        """:meth:`step` where every agent acts in each cycle: the seat to move plays, the others wait."""
        assert self._state is not None  # step() checked
        seat = self._seat[agent]
        if not self._ending and seat == self._state.current:
            self._cache = {}
            self._ending = self._play(agent, a)
        elif a != self.wait_action:
            why = ("the episode ends with this cycle" if self._ending
                   else f"player_{self._state.current} is to move")
            if self._illegal(agent, a, IllegalMoveError(
                    repr(action), f"{why}: the only action of {agent} is wait ({self.wait_action})")):
                self._ending = True
                self._cache = {}
        if seat + 1 < len(self.possible_agents):
            self.agent_selection = self.possible_agents[seat + 1]
        else:
            # a cycle ends: the agents die here, where PettingZoo's parallel form expects it
            self._cycle += 1
            if self._ending:
                self._finish(terminated=True)
            elif self.max_cycles is not None and self._cycle >= self.max_cycles:
                self._finish(terminated=False)
            else:
                self.agent_selection = self.possible_agents[0]
        if self._paid:
            self._accumulate_rewards()

    def _play(self, agent: str, a: int) -> bool:
        """Play id ``a`` for the agent to move; True when the episode ends with it."""
        s = self._state
        assert s is not None  # step() checked
        try:
            if not 0 <= a < len(self._moves):
                raise self._out_of_range(agent, a)
            s = s.apply(self._moves[a])  # apply checks legality
        except IllegalMoveError as exc:
            return self._illegal(agent, a, exc)
        if s.phase >= HAND_OVER:  # s.is_hand_over, without the property's call
            return self._hand_over(s)
        self._state = s
        return False

    def _out_of_range(self, agent: str, a: int) -> IllegalMoveError:
        """The error of id ``a``, which is no move, played by ``agent``, the agent to move."""
        return IllegalMoveError(repr(a), f"{agent} is to move: wait ({a}) is not a move" if
                                a == self.wait_action else f"action ids are 0 to {self._n_actions - 1}")

    def _hand_over(self, s: GameState) -> bool:
        """Pay the rewards of the hand ``s`` has just ended and move on to ``s`` (to the next
        hand's deal in a game episode); True when the episode ends with it."""
        for who, r in zip(self.possible_agents, seat_rewards(s, self.reward_scale), strict=True):
            self.rewards[who] = r
        self._paid = True
        if self.episode == "game" and s.phase == HAND_OVER:
            self._state = advance(s)
            return False
        self._state = s
        return True

    def _illegal(self, agent: str, a: int, exc: IllegalMoveError) -> bool:
        """Penalize ``agent`` for the illegal id ``a`` (or raise ``exc``); True when the episode ends."""
        if self.illegal_action == "raise":
            raise exc
        self.rewards[agent] = self.illegal_reward
        self._paid = True
        self.infos[agent] = {"illegal_action": a}
        return self.illegal_action == "penalize"

    def _finish(self, terminated: bool) -> None:
        """End the episode for every agent; the dead agents then step with None in seat order."""
        self._over = True
        self._ending = False
        self._cache = {}
        for a in self.agents:
            if terminated:
                self.terminations[a] = True
            else:
                self.truncations[a] = True
        self.agent_selection = self.agents[0]

    def bot_action(self, agent: str, bot: Bot, rng: random.Random) -> int:
        """The action ``bot`` picks for ``agent`` from the agent's own view (for baseline opponents).

        With ``schedule="cycles"``, :attr:`wait_action` for an agent that is not to move.
        """
        seat = self._seat[agent]
        if self.wait_action is not None and (self._ending or seat != self.game_state.current):
            return self.wait_action
        view = self.game_state.view(seat)
        return self.actions.encode(bot.choose(view, rng))

    def render(self) -> str | None:
        """The position from the view of the agent to move: text (``"ansi"``), printed (``"human"``)."""
        if self.render_mode is None or self._state is None:
            return None
        s = self._state
        seat = s.current
        view = s.view(seat)
        lines = [
            f"{self.variant.name}  hand {s.hand_number + 1}  {s.phase_name}  "
            f"player_{seat} to move  scores {list(s.scores)}",
            f"hand: {' '.join(str(c) for c in view.hand) or '-'}",
            f"pile: {len(view.pile_codes)} cards, top {view.pile_top or '-'}"
            f"{' (frozen)' if view.pile_frozen else ''}  stock: {view.stock_size}",
        ]
        for side, melds in enumerate(view.melds):
            # cards apart, melds apart: "8C 8H 8S | KH KH KS JK"
            shown = " | ".join(" ".join(str(c) for c in m.card_list()) for m in melds) or "-"
            lines.append(f"side {side} melds: {shown}")
        if s.end is not None:
            lines.append(f"hand over ({s.end.reason}): {list(s.end.hand_scores)}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs: Any) -> CanastaEnv:
    """The environment, as :func:`env` (the name PettingZoo's own environments use for it)."""
    return CanastaEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv[str, Obs, int]:
    """The environment; arguments as :class:`CanastaEnv`.

    Unlike most PettingZoo environments it comes without wrappers, which would
    cost a third of its speed: it enforces what they check itself (no
    ``step``, ``observe`` or ``last`` before ``reset``; an id out of range is an
    illegal action). Wrap it as you like.
    """
    return CanastaEnv(**kwargs)


def parallel_env(**kwargs: Any) -> pettingzoo.ParallelEnv[str, Obs, int]:
    """The parallel form: :func:`pettingzoo.utils.conversions.aec_to_parallel` of the
    environment with ``schedule="cycles"`` (other arguments as :class:`CanastaEnv`).

    One parallel step is one cycle: the agent to move plays one move of its
    turn, every other live agent plays :attr:`CanastaEnv.wait_action` (the only
    id its mask allows), so ``max_cycles`` counts parallel steps.

    Raises:
        CanastaError: ``schedule`` is given (the parallel form has only cycles).
    """
    if "schedule" in kwargs:
        raise CanastaError("parallel_env() always runs in cycles; drop the schedule argument")
    return aec_to_parallel(CanastaEnv(schedule="cycles", **kwargs))


def env_ids() -> list[str]:
    """The registry id of every bundled profile: ``canasta/<name>-v0``."""
    return [f"canasta/{name}-v0" for name in variant_names()]


def make(env_id: str, **kwargs: Any) -> AECEnv[str, Obs, int]:
    """The environment of a registry id (``"canasta/classic-v0"``), without PettingZoo's registry.

    Raises:
        CanastaError: the id names no bundled profile.
    """
    ids = dict(zip(env_ids(), variant_names(), strict=True))
    if env_id not in ids:
        raise CanastaError(f"unknown environment {env_id!r}; known: {', '.join(ids)}")
    return env(variant=ids[env_id], **kwargs)


def register_all() -> None:
    """Register every bundled profile with :func:`pettingzoo.register` (done on import)."""
    for env_id, name in zip(env_ids(), variant_names(), strict=True):
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=env, kwargs={"variant": name})
        if env_id not in pettingzoo.parallel_registry:
            pettingzoo.register("parallel", env_id, entry_point=parallel_env, kwargs={"variant": name})


register_all()
