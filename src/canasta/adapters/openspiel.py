"""OpenSpiel Python games, one per bundled profile: ``python_canasta_<name>``.

Needs ``pip install 'canasta[openspiel]'`` (open_spiel 2.x, which requires
Python 3.11 or later). Importing this module registers, with
:func:`pyspiel.register_game`, one game per bundled profile (``-`` becomes
``_``): ``python_canasta_classic``, ``python_canasta_classic_2p``,
``python_canasta_classic_3p``, ``python_canasta_draw_two``,
``python_canasta_hand_and_foot``::

    import pyspiel
    import canasta.adapters.openspiel  # registers the games

    game = pyspiel.load_game("python_canasta_classic", {"hands": 1})
    state = game.new_initial_state()

The deal is explicit chance: the first four moves of a game are chance nodes,
each choosing one byte (256 equally likely outcomes) of a 32-bit seed, and the
deal is ``canasta.new_game(variant, seed)`` (so every one of 2**32 seeded deals
is equally likely, and a later hand of the game is dealt from the same seed, as
the engine does). Then the players move, with the action ids of
:class:`canasta.ActionSpace`; the ``next`` move between hands is made by the
adapter, never by a player.

Parameters: ``hands`` (default 1): the game ends after this many hands, or
sooner when the engine's game ends; ``reward_scale`` (default 1000.0): points
per unit of utility. The returns are the seats' summed hand rewards of
:mod:`canasta.adapters.common` (zero-sum); ``min_utility``/``max_utility``
are ``∓ hands * reward_bound`` and ``max_game_length`` is ``hands *
move_bound`` (decisions only; chance nodes are not counted), both proved
bounds.

Observation tensors are :meth:`canasta.observe.ObservationLayout.encode` of
the player's :class:`~canasta.SeatView`. The information-state tensor is the
same vector followed by, for each seat (relative, the player first), the cards
of each kind it has discarded and taken with the pile this hand (÷ 8): public
history the view no longer shows, not a perfect-recall encoding. The
information-state string is perfect recall: every move in order, with the
cards the player itself was dealt, drew and picked up with its foot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from canasta.adapters.common import (
    DEFAULT_REWARD_SCALE,
    advance,
    move_bound,
    reward_bound,
    seat_rewards,
)
from canasta.cards import Card
from canasta.engine import KIND, new_game
from canasta.engine.moves import Discard, Draw, Foot, LayThree, TakePile
from canasta.engine.state import GameState
from canasta.io.actions import ActionSpace
from canasta.observation_fields import CARD_SCALE
from canasta.observe import ObservationLayout, layout_of
from canasta.variant.loading import load_variant, variant_names
from canasta.variant.model import Variant

__all__ = ["CanastaGame", "CanastaObserver", "CanastaState", "game_name", "game_names", "register_all"]

#: Chance nodes before the deal, each choosing one byte of the deal's seed.
SEED_BYTES = 4


def game_name(variant: str) -> str:
    """The OpenSpiel name of a bundled profile: ``python_canasta_`` + name with ``_`` for ``-``."""
    return "python_canasta_" + variant.replace("-", "_")


def game_names() -> list[str]:
    """The OpenSpiel names of every bundled profile."""
    return [game_name(name) for name in variant_names()]


class _Shared:
    """An immutable value that ``copy.deepcopy`` hands back as it is (a state clone copies nothing)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[type[_Shared], tuple[Any]]:
        return (_Shared, (self.value,))


def _game_type(variant: Variant) -> Any:
    n = variant.players.count
    return pyspiel.GameType(
        short_name=game_name(variant.name),
        long_name=f"Canasta: {variant.title} (canasta library)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"hands": 1, "reward_scale": DEFAULT_REWARD_SCALE},
    )


class CanastaGame(pyspiel.Game):  # type: ignore[misc]
    """The game of one variant; registered per bundled profile by :func:`register_all`.

    Args:
        variant: the rules.
        params: ``{"hands": int, "reward_scale": float}``, both optional.
    """

    def __init__(self, variant: Variant, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        hands = int(given.get("hands", 1))
        scale = float(given.get("reward_scale", DEFAULT_REWARD_SCALE))
        if hands < 1 or not scale > 0:
            raise ValueError(f"hands must be at least 1 and reward_scale positive, got {given}")
        bound = hands * reward_bound(variant, scale)
        info = pyspiel.GameInfo(
            num_distinct_actions=ActionSpace(variant).size,
            max_chance_outcomes=256,
            num_players=variant.players.count,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=hands * move_bound(variant),
        )
        super().__init__(_game_type(variant), info, {"hands": hands, "reward_scale": scale})
        self.variant = variant
        self.hands = hands
        self.reward_scale = scale
        self.actions = ActionSpace(variant)
        self.layout: ObservationLayout = layout_of(variant)

    def new_initial_state(self, *args: Any) -> CanastaState:
        """A state before the deal (a chance node)."""
        return CanastaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CanastaObserver:
        """The observer: information state when ``iig_obs_type.perfect_recall``, else observation."""
        recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        return CanastaObserver(self, recall)


class _Pos(NamedTuple):
    """Everything a :class:`CanastaState` holds, as one immutable value."""

    seed: tuple[int, ...]
    core: GameState | None
    hands_done: int
    returns: tuple[float, ...]
    terminal: bool
    # public history this hand: per seat, discarded then picked-up cards by kind
    seen: tuple[int, ...]
    # (seat, move text, cards only that seat saw, the earlier entries or None): a
    # linked list, so that a move adds to it in constant time
    log: tuple[int, str, str, Any] | None


class CanastaState(pyspiel.State):  # type: ignore[misc]
    """A position: the deal's seed bytes so far, then the engine's state.

    The state's one attribute holds an immutable value that ``copy.deepcopy``
    hands back as it is, so a clone (OpenSpiel deep-copies the attributes)
    shares the position instead of copying it.
    """

    def __init__(self, game: CanastaGame) -> None:
        super().__init__(game)
        n = game.variant.players.count
        self._p = _Shared(_Pos((), None, 0, (0.0,) * n, False, (), None))

    @property
    def pos(self) -> _Pos:
        """The position's record."""
        pos: _Pos = self._p.value
        return pos

    @property
    def core(self) -> GameState | None:
        """The engine's state, or ``None`` before the deal."""
        return self.pos.core

    def log(self) -> list[tuple[int, str, str]]:
        """Every move so far as ``(seat, move, cards only that seat saw)``, in order."""
        out = []
        node = self.pos.log
        while node is not None:
            out.append(node[:3])
            node = node[3]
        return out[::-1]

    def _game(self) -> CanastaGame:
        game: CanastaGame = self.get_game()
        return game

    @staticmethod
    def _dealt(pos: _Pos, core: GameState) -> _Pos:
        """``pos`` with ``core``, a new hand, dealt."""
        n = core.rules.n
        log = pos.log
        for p in range(n):
            log = (p, f"hand {core.hand_number + 1} dealt", _cards(core.hands_[p]), log)
        return pos._replace(core=core, seen=(0,) * (2 * n * 15), log=log)

    # -- the OpenSpiel protocol -----------------------------------------------

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` before the deal, ``TERMINAL`` at the end."""
        pos = self.pos
        if pos.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if pos.core is None:
            return int(pyspiel.PlayerId.CHANCE)
        return pos.core.current

    def _legal_actions(self, player: int) -> list[int]:
        pos = self.pos
        core = pos.core
        if core is None or pos.terminal or player != core.current:
            return []
        return self._game().actions.legal_ids(core)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next byte of the deal's seed: 256 equally likely values."""
        return [(b, 1.0 / 256) for b in range(256)]

    def _apply_action(self, action: int) -> None:
        game = self._game()
        pos = self.pos
        core = pos.core
        if core is None:
            seed = (*pos.seed, int(action))
            pos = pos._replace(seed=seed)
            if len(seed) == SEED_BYTES:
                pos = self._dealt(pos, new_game(game.variant, seed=int.from_bytes(bytes(seed), "little")))
            self._p = _Shared(pos)
            return
        move = game.actions.moves[action]
        p = core.current
        seen = list(pos.seen)
        n = core.rules.n
        private = ""
        if isinstance(move, Discard):
            seen[p * 15 + move.kind - 1] += 1
        elif isinstance(move, TakePile):
            for c in core.pile_:
                seen[(n + p) * 15 + KIND[c] - 1] += 1
        elif isinstance(move, Foot):
            private = _cards(core.feet_[p])
        after = core.apply(move)
        if isinstance(move, Draw):
            private = _cards(after.turn.drawn)
        elif isinstance(move, LayThree):
            # the kept 3 goes face up; its replacement is seen by its player only
            private = _cards(tuple((Counter(after.hands_[p]) - Counter(core.hands_[p])).elements()))
        pos = pos._replace(core=after, seen=tuple(seen), log=(p, str(move), private, pos.log))
        if after.is_hand_over:
            rewards = seat_rewards(after, game.reward_scale)
            pos = pos._replace(
                returns=tuple(a + b for a, b in zip(pos.returns, rewards, strict=True)),
                hands_done=pos.hands_done + 1,
            )
            if after.is_game_over or pos.hands_done >= game.hands:
                pos = pos._replace(terminal=True)
            else:
                pos = self._dealt(pos, advance(after))
        self._p = _Shared(pos)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"seed byte {action}"
        return str(self._game().actions.moves[action])

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.pos.terminal

    def returns(self) -> list[float]:
        """Each seat's summed hand rewards (zeros until the end)."""
        pos = self.pos
        if not pos.terminal:
            return [0.0] * len(pos.returns)
        return list(pos.returns)

    def __str__(self) -> str:
        pos = self.pos
        core = pos.core
        if core is None:
            return f"dealing: seed bytes {list(pos.seed)}"
        lines = [f"{core!r} hands done {pos.hands_done} scores {list(core.scores)}"]
        for p, hand in enumerate(core.hands_):
            lines.append(f"seat {p}: {_cards(hand)}" + (f" foot {_cards(core.feet_[p])}" if core.feet_[p] else ""))
        lines.append(f"stock: {_cards(core.stock_)}")
        lines.append(f"pile: {_cards(core.pile_)}")
        for side, melds in enumerate(core.melds_):
            lines.append(f"side {side}: " + "  ".join(_cards(m.cards) for m in melds))
        return "\n".join(lines)


def _cards(codes: Sequence[int]) -> str:
    return " ".join(str(Card(c)) for c in codes)


class CanastaObserver:
    """Observation (or information-state) tensors and strings of :class:`CanastaState`.

    Attributes:
        tensor: the flat ``float32`` vector, filled by :meth:`set_from`.
        dict: named views of ``tensor``: ``"observation"`` and, for the
            information state, ``"history"``.
    """

    def __init__(self, game: CanastaGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        n = game.layout.seats
        size = game.layout.size
        extra = 2 * n * 15 if perfect_recall else 0
        self.tensor = np.zeros(size + extra, np.float32)
        self.dict: dict[str, Any] = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["history"] = self.tensor[size:]
        self._n = n

    def set_from(self, state: CanastaState, player: int) -> None:
        """Fill ``tensor`` from the point of view of ``player``."""
        core = state.core
        if core is None:
            self.tensor.fill(0.0)
            return
        size = self.game.layout.size
        self.tensor[:size] = self.game.layout.encode_state(core, player)
        if self.perfect_recall:
            n = self._n
            seen = state.pos.seen
            rows: list[int] = []
            for block in range(2):
                for i in range(n):
                    q = (player + i) % n
                    start = (block * n + q) * 15
                    rows.extend(seen[start:start + 15])
            self.tensor[size:] = np.asarray(rows, np.float32) / CARD_SCALE

    def string_from(self, state: CanastaState, player: int) -> str:
        """The player's view as text (information state: every move, with the cards it saw)."""
        core = state.core
        if self.perfect_recall:
            lines = [f"player {player}"]
            for seat, text, private in state.log():
                lines.append(f"{seat}: {text}" + (f" [{private}]" if private and seat == player else ""))
            return "\n".join(lines)
        if core is None:
            return "dealing"
        view = core.view(player)
        return (f"seat {player} {core.phase_name} to move {view.current} | hand {_cards(view.hand_codes)}"
                f" | pile {len(view.pile_codes)} top {view.pile_top or '-'} | stock {view.stock_size}"
                f" | melds " + " / ".join(" ".join(_cards(m.cards) for m in melds) for melds in view.melds)
                + f" | scores {list(view.scores)}")


def _game_class(name: str) -> type[CanastaGame]:
    """A subclass of :class:`CanastaGame` for one bundled profile, built as OpenSpiel expects (``cls(params)``).

    OpenSpiel keeps what is registered until the process ends: a class (which
    the module keeps alive too) is safe there, where a closure would be freed
    after the interpreter shut down.
    """

    def __init__(self: CanastaGame, params: dict[str, Any] | None = None) -> None:
        CanastaGame.__init__(self, load_variant(name), params)

    cls = type(f"CanastaGame_{name.replace('-', '_')}", (CanastaGame,), {"__init__": __init__})
    _CLASSES[name] = cls
    return cls


_CLASSES: dict[str, type[CanastaGame]] = {}


def register_all() -> None:
    """Register every bundled profile's game with :func:`pyspiel.register_game` (done on import)."""
    registered = set(pyspiel.registered_names())
    for name in variant_names():
        if game_name(name) in registered:
            continue
        pyspiel.register_game(_game_type(load_variant(name)), _game_class(name))


register_all()
