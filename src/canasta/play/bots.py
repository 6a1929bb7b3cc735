"""Computer players: the :class:`Bot` protocol, :class:`RandomBot` and :class:`GreedyBot`.

A bot sees only its own seat's :class:`~canasta.SeatView` and returns one of
``view.legal_moves()``::

    import random
    import canasta

    state = canasta.new_game(canasta.load_variant("classic"), seed=7)
    bot = canasta.GreedyBot()
    move = bot.choose(state.view(state.current_player), random.Random(1))
    state = state.apply(move)

Bots keep no state between calls, so a simulation spread over several processes
plays exactly the same games as one process. The two bundled bots live in
:mod:`canasta.play.heuristics`, which the compiled build compiles with the
engine; this module holds the protocol (a typing protocol, which stays Python)
and the registry.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from canasta.engine.moves import Move
from canasta.engine.view import SeatView
from canasta.errors import CanastaError
from canasta.limits import shown
from canasta.play.heuristics import GreedyBot, RandomBot

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "as_bot", "bot_names", "make_bot"]

@runtime_checkable
class Bot(Protocol):
    """A computer player.

    Attributes:
        name: a short name, shown in move logs and simulation summaries.
    """

    name: str

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """Pick a move.

        Args:
            view: what the bot's seat may see; it is that seat's turn.
            rng: the only source of randomness the bot may use, so that a seeded
                game replays exactly.

        Returns:
            One of ``view.legal_moves()``.
        """
        ...


#: Bots by name, as ``--bots`` names them.
BOTS: dict[str, Callable[[], Bot]] = {"greedy": GreedyBot, "random": RandomBot}


def bot_names() -> list[str]:
    """The names of the bundled bots, sorted.

    Returns:
        Names that :func:`make_bot` accepts.
    """
    return sorted(BOTS)


def make_bot(name: str) -> Bot:
    """Build a bundled bot by name.

    Args:
        name: ``"greedy"`` or ``"random"`` (see :func:`bot_names`).

    Returns:
        A new bot.

    Raises:
        CanastaError: no bot has that name; the message lists the names.
    """
    factory = BOTS.get(name.strip().lower()) if isinstance(name, str) else None
    if factory is None:
        raise CanastaError(f"unknown bot {shown(name)}: expected one of {', '.join(bot_names())}")
    return factory()


def as_bot(spec: object) -> Bot:
    """The bot ``spec`` names or is: the check of every function that takes bots.

    Args:
        spec: a bot name (see ``make_bot``) or a bot object: one with a
            ``name`` (text) and a ``choose(view, rng)`` method, such as ``GreedyBot()``.

    Returns:
        The bot.

    Raises:
        CanastaError: ``spec`` is an unknown name, a bot class rather than a
            bot object (``GreedyBot`` for ``GreedyBot()``), or no bot at all;
            the message says what was expected.
    """
    if isinstance(spec, str):
        return make_bot(spec)
    if isinstance(spec, type):
        # a class has a `choose` too, which would fail deep inside a game for want of `self`
        name = spec.__name__
        raise CanastaError(f"expected a bot object such as {name}(), got the class {name}")
    if not (callable(getattr(spec, "choose", None)) and isinstance(getattr(spec, "name", None), str)):
        raise CanastaError(
            f"expected a bot name ({', '.join(bot_names())}) or a bot object such as GreedyBot() "
            f"(a name and a choose(view, rng) method), got {shown(spec)}"
        )
    bot: Bot = spec  # type: ignore[assignment]
    return bot

