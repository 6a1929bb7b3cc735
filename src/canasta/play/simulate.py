"""Bot-against-bot simulations: :func:`simulate` and its :class:`Summary`.

Each game's deal seed and the bots' random source come from ``(seed, game
index)`` only, and games are aggregated in index order, so a simulation gives the
same summary whether it runs in one process or in several (``jobs``).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import random
import re
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from canasta.engine import GameState, new_game
from canasta.engine.moves import Move, NextHand
from canasta.errors import CanastaError
from canasta.io.record import RecordedGame
from canasta.limits import escape, file_path, shown
from canasta.play.backends import Backend, make_backend, sigint_ignored
from canasta.play.bots import Bot, as_bot
from canasta.play.playout import bot_policy, play_hand, resolve_variant
from canasta.variant.model import Variant

__all__ = [
    "GAME_HAND_LIMIT", "MAX_GAMES", "MAX_JOBS", "GameRecord", "GameTask", "Rate", "SimulationInterrupted", "Summary",
    "Tally", "Watch", "check_counts", "game_seed", "output_dir", "play_game", "printable", "progress_bar", "resolve_variant",
    "save_record", "seat_bots", "simulate", "wilson",
]

#: Most games one simulation plays (the summary keeps a small record of each).
MAX_GAMES = 1_000_000
#: Most worker processes one simulation starts.
MAX_JOBS = 64

_Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion.

    Args:
        successes: how many trials succeeded.
        trials: how many trials there were.
        z: the normal quantile; the default gives a 95% interval.

    Returns:
        ``(low, high)``; ``(0.0, 1.0)`` when there were no trials.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation seeded with ``seed``.

    Args:
        seed: the simulation's seed.
        index: the game's index, from 0.

    Returns:
        A 63-bit integer that depends on ``seed`` and ``index`` only.
    """
    digest = hashlib.sha256(f"canasta-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


@dataclass(frozen=True)
class GameRecord:
    """What one simulated game came to.

    Attributes:
        index: the game's index in the simulation.
        seed: the game's deal seed (``canasta.new_game(variant, seed)`` replays it).
        hands: hands played.
        moves: moves made, ``next`` excluded.
        outs: hands ended by a player going out.
        stock_ends: hands ended by the stock running out.
        hand_score_sums: each side's hand scores, summed over the game.
        scores: each side's final cumulative score.
        winners: the sides with the highest final score (several: a draw).
        finished: whether the game reached its end (else ``max_hands``, or
            :data:`GAME_HAND_LIMIT`, cut it short
            and the standings at that point decide).
        dead_end: when the game stopped because the player to move had no legal
            move (an engine fault), where: ``"hand 3, seat 1, play phase"``; the
            standings at that point decide. Else ``None``.
    """

    index: int
    seed: int
    hands: int
    moves: int
    outs: int
    stock_ends: int
    hand_score_sums: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    finished: bool
    dead_end: str | None = None


#: A callback that :func:`play_game` calls after every move as
#: ``watch(before, move, after)`` (``next`` included), to count what happens.
Watch = Callable[[GameState, Move, GameState], None]


#: Hands after which a game with no ``max_hands`` stops all the same, cut short: where
#: every side loses points hand after hand (weak bots under Modern American's penalties)
#: no side ever reaches the target, and the game would never end.
GAME_HAND_LIMIT = 1000


def play_game(
    variant: Variant,
    bots: Sequence[Bot],
    seed: int,
    index: int,
    max_hands: int | None = None,
    record_dir: str | None = None,
    watch: Watch | None = None,
) -> GameRecord:
    """Play game ``index`` of a simulation seeded with ``seed``.

    Args:
        variant: the rules.
        bots: one bot per seat.
        seed: the simulation's seed.
        index: the game's index; with ``seed`` it fixes the deal and the bots' rng.
        max_hands: stop after this many hands (``None``: play to the end of the game,
            or :data:`GAME_HAND_LIMIT` hands, whichever comes first).
        record_dir: write the game's moves to ``record_dir/game-NNNNN.rec`` (NNNNN
            the index), a record that ``canasta replay`` replays.
        watch: called after every move (see :data:`Watch`); it cannot change the game.

    Returns:
        The game's record.

    Raises:
        CanastaError: ``bots`` does not hold one bot per seat, or a bot returned an
            illegal move.
    """
    if len(bots) != variant.players.count:
        raise CanastaError(f"{variant.name} needs {variant.players.count} bots, got {len(bots)}")
    gseed = game_seed(seed, index)
    rng = random.Random(gseed ^ 0x5DEECE66D)
    state = new_game(variant, seed=gseed)
    n_sides = len(state.sides)
    sums = [0] * n_sides
    hands = moves = outs = stock_ends = 0
    dead_end: str | None = None
    played: list[Move] = []
    limit = GAME_HAND_LIMIT if max_hands is None else max_hands
    policies = [bot_policy(b) for b in bots]
    on_move: Watch | None = watch
    if record_dir is not None:
        # the moves are kept only for the record
        def on_move(before: GameState, move: Move, after: GameState) -> None:
            played.append(move)
            if watch is not None:
                watch(before, move, after)

    while True:
        state, count, stopped = play_hand(state, policies, rng, None, on_move)
        moves += count
        if stopped is not None:
            dead_end = f"hand {state.hand_number + 1}, seat {state.current_player}, {state.phase_name} phase"
            break
        end = state.end
        assert end is not None
        hands += 1
        if end.reason in ("out", "special"):  # a special hand is laid instead of going out
            outs += 1
        else:
            stock_ends += 1
        for i, x in enumerate(end.hand_scores):
            sums[i] += x
        if state.is_game_over or hands >= limit:
            break
        before, state = state, state.apply(NextHand())
        if on_move is not None:
            on_move(before, NextHand(), state)
    if record_dir is not None:
        save_record(Path(record_dir) / f"game-{index:05d}.rec", RecordedGame(variant, gseed, played))
    scores = state.scores
    best = max(scores)
    return GameRecord(
        index=index, seed=gseed, hands=hands, moves=moves, outs=outs, stock_ends=stock_ends,
        hand_score_sums=tuple(sums), scores=scores,
        winners=tuple(i for i, x in enumerate(scores) if x == best),
        finished=state.is_game_over, dead_end=dead_end,
    )


#: Control characters and the marks that reorder text or break lines on a terminal.
_UNPRINTABLE = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def printable(text: object) -> str:
    """``str(text)`` as one line that cannot act on a terminal.

    Every control character (newline and tab too) and every bidirectional or
    line-separator mark is written as an escape, ``\\x1b`` or ``\\u202e``, so
    that a name or title from a profile cannot clear the screen, change colours,
    start a new line or reorder what follows when it is printed.

    Args:
        text: anything; it is turned into text with ``str()``.

    Returns:
        The text with those characters escaped; other text is unchanged.
    """
    return _UNPRINTABLE.sub(_escape, str(text))


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


#: The prefix and suffix of the temporary file :func:`save_record` writes first.
_TEMP_PREFIX, _TEMP_SUFFIX = ".", ".part"


def save_record(path: str | os.PathLike[str], record: RecordedGame) -> None:
    """Write ``record`` to ``path`` so that ``path`` never holds half a record.

    The text goes to a temporary file beside ``path`` (``.NAME.PID.part``), which
    then replaces ``path`` in one step (``os.replace``); when writing fails or
    is interrupted, the temporary file is removed and ``path`` is left as it was.

    Args:
        path: the record file; if it exists it must be a regular file.
        record: the game (see :class:`~canasta.RecordedGame`).

    Raises:
        CanastaError: ``path`` exists and is not a regular file (a directory, a
            device such as ``/dev/null``, a FIFO), which a rename would replace.
        OSError: the directory cannot be written.
    """
    target = Path(path)
    if target.exists() and not target.is_file():
        raise CanastaError(f"{os.fspath(path)}: not a regular file, will not write a record there")
    text = record.to_text(annotate=True)
    temp = target.with_name(f"{_TEMP_PREFIX}{target.name}.{os.getpid()}{_TEMP_SUFFIX}")
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(temp, flags, 0o666), "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def _remove_partial_records(directory: str) -> None:
    """Remove the temporary files of records whose writer was stopped (see :func:`save_record`)."""
    with contextlib.suppress(OSError):
        for temp in Path(directory).glob(f"{_TEMP_PREFIX}game-*.rec.*{_TEMP_SUFFIX}"):
            with contextlib.suppress(OSError):
                temp.unlink()


@dataclass(frozen=True)
class Rate:
    """A win rate with its 95% Wilson interval.

    Attributes:
        wins: games won outright.
        games: games played.
        low: the interval's lower end.
        high: the interval's upper end.
    """

    wins: int
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        """``wins / games`` (0 when no games)."""
        return self.wins / self.games if self.games else 0.0

    def __str__(self) -> str:
        return f"{100 * self.rate:5.1f}% [{100 * self.low:5.1f}, {100 * self.high:5.1f}]"

    def to_dict(self) -> dict[str, Any]:
        """The rate as plain data."""
        return {"wins": self.wins, "games": self.games, "rate": self.rate,
                "ci95": [self.low, self.high]}


def _rate(wins: int, games: int) -> Rate:
    low, high = wilson(wins, games)
    return Rate(wins, games, low, high)


class Tally:
    """Running totals of a simulation's games, in constant memory.

    :func:`simulate` adds each game's :class:`GameRecord` as it arrives and
    keeps only these sums (and the rare games that hit a dead end), so a
    million games take no more memory than a thousand.

    Args:
        sides: the number of sides.
        keep_records: also keep every game's record (memory grows with the games).
    """

    def __init__(self, sides: int, keep_records: bool = False) -> None:
        self.games = self.hands = self.moves = self.outs = self.stock_ends = 0
        self.draws = self.unfinished = 0
        self.score_sums = [0] * sides
        self.side_wins = [0] * sides
        self.dead_ends: list[GameRecord] = []
        self.records: list[GameRecord] | None = [] if keep_records else None

    def add(self, record: GameRecord) -> None:
        """Count one game."""
        self.games += 1
        self.hands += record.hands
        self.moves += record.moves
        self.outs += record.outs
        self.stock_ends += record.stock_ends
        for i, x in enumerate(record.hand_score_sums):
            self.score_sums[i] += x
        if len(record.winners) == 1:
            self.side_wins[record.winners[0]] += 1
        else:
            self.draws += 1
        if not record.finished:
            self.unfinished += 1
        if record.dead_end is not None:
            self.dead_ends.append(record)
        if self.records is not None:
            self.records.append(record)


@dataclass(frozen=True)
class Summary:
    """The aggregate of a simulation.

    Attributes:
        variant: the variant's name.
        seed: the simulation's seed.
        seats: the bot name at each seat.
        sides: the seats of each side.
        max_hands: the hand limit per game, or ``None``.
        games: games played.
        hands: hands played in all.
        moves: moves made in all (``next`` not counted).
        outs: hands ended by a player going out.
        stock_ends: hands ended by the stock running out.
        score_sums: each side's hand scores, summed over every game.
        side_wins: how many games each side won outright.
        draws: games that ended with two or more sides level at the top.
        unfinished: games that ``max_hands`` (or :data:`GAME_HAND_LIMIT`) cut short.
        dead_ends: games stopped because the player to move had no legal move
            (an engine fault), in game order.
        records: every game's record, in game order, when the simulation was
            asked to keep them (``keep_records``); else empty.
        requested: the games asked for (``None``: as many as were played).
        interrupted: the simulation was stopped (Ctrl-C) before playing them all;
            the totals hold the games finished before.
    """

    variant: str
    seed: int
    seats: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    max_hands: int | None
    games: int = 0
    hands: int = 0
    moves: int = 0
    outs: int = 0
    stock_ends: int = 0
    score_sums: tuple[int, ...] = ()
    side_wins: tuple[int, ...] = ()
    draws: int = 0
    unfinished: int = 0
    dead_ends: tuple[GameRecord, ...] = field(default=(), repr=False)
    records: tuple[GameRecord, ...] = field(default=(), repr=False)
    requested: int | None = None
    interrupted: bool = False

    @classmethod
    def of(cls, tally: Tally, **fields: Any) -> Summary:
        """The summary of ``tally``'s games; ``fields`` give the rest (variant, seed, ...)."""
        return cls(
            games=tally.games, hands=tally.hands, moves=tally.moves, outs=tally.outs,
            stock_ends=tally.stock_ends, score_sums=tuple(tally.score_sums),
            side_wins=tuple(tally.side_wins), draws=tally.draws, unfinished=tally.unfinished,
            dead_ends=tuple(tally.dead_ends),
            records=tuple(tally.records) if tally.records is not None else (), **fields,
        )

    @property
    def hands_per_game(self) -> float:
        """Mean hands per game."""
        return self.hands / self.games if self.games else 0.0

    @property
    def moves_per_hand(self) -> float:
        """Mean moves per hand (``next`` not counted)."""
        return self.moves / self.hands if self.hands else 0.0

    @property
    def out_share(self) -> float:
        """Share of hands ended by a player going out."""
        return self.outs / self.hands if self.hands else 0.0

    @property
    def stock_share(self) -> float:
        """Share of hands ended by the stock running out."""
        return self.stock_ends / self.hands if self.hands else 0.0

    def mean_hand_score(self, side: int) -> float:
        """Mean score of ``side`` per hand.

        Args:
            side: the side's index.

        Returns:
            The mean over every hand of the simulation.
        """
        return self.score_sums[side] / self.hands if self.hands else 0.0

    def side_win_rate(self, side: int) -> Rate:
        """How often ``side`` won outright (a draw is no win).

        Args:
            side: the side's index.

        Returns:
            The win rate with its 95% Wilson interval.
        """
        return _rate(self.side_wins[side], self.games)

    def side_bots(self, side: int) -> str:
        """The bots of ``side``'s seats, e.g. ``"greedy+greedy"``."""
        return "+".join(self.seats[s] for s in self.sides[side])

    @property
    def bot_names(self) -> tuple[str, ...]:
        """The distinct bot names, in seat order."""
        return tuple(dict.fromkeys(self.seats))

    def bot_win_rate(self, name: str) -> Rate:
        """How often a side with a seat played by bot ``name`` won outright.

        Args:
            name: a bot name from ``seats``.

        Returns:
            The win rate with its 95% Wilson interval (every game counts as one trial).
        """
        their = {i for i, seats in enumerate(self.sides) if any(self.seats[s] == name for s in seats)}
        return _rate(sum(self.side_wins[i] for i in their), self.games)

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain data, ready for ``json.dumps``."""
        return {
            "variant": self.variant,
            "seed": self.seed,
            "seats": list(self.seats),
            "max_hands": self.max_hands,
            "games": self.games,
            "games_requested": self.games if self.requested is None else self.requested,
            "interrupted": self.interrupted,
            "unfinished_games": self.unfinished,
            "dead_ends": [
                {"game": g.index, "seed": g.seed, "where": g.dead_end} for g in self.dead_ends
            ],
            "draws": self.draws,
            "hands": self.hands,
            "hands_per_game": self.hands_per_game,
            "moves_per_hand": self.moves_per_hand,
            "hands_ended": {"out": self.out_share, "stock": self.stock_share},
            "sides": [
                {
                    "side": i,
                    "seats": list(seats),
                    "bots": [self.seats[s] for s in seats],
                    "mean_hand_score": self.mean_hand_score(i),
                    "win": self.side_win_rate(i).to_dict(),
                }
                for i, seats in enumerate(self.sides)
            ],
            "bots": {name: self.bot_win_rate(name).to_dict() for name in self.bot_names},
        }

    def __str__(self) -> str:
        limit = (
            f", at most {self.max_hands} hand{'s' if self.max_hands != 1 else ''} each"
            if self.max_hands is not None
            else ""
        )
        lines = [f"{printable(self.variant)}: {self.games} games{limit}, seed {self.seed}"]
        if self.interrupted:
            lines.append(f"interrupted after {self.games} of {self.requested} games")
        lines += [
            f"seats: {', '.join(f'{i} {b}' for i, b in enumerate(self.seats))}",
            f"hands per game   {self.hands_per_game:8.2f}",
            f"moves per hand   {self.moves_per_hand:8.1f}",
            f"hands ended      {100 * self.out_share:5.1f}% out, {100 * self.stock_share:5.1f}% stock",
        ]
        if self.unfinished:
            lines.append(f"cut short        {self.unfinished} games (standings decide)")
        for g in self.dead_ends:
            lines.append(
                f"dead end         game {g.index} (seed {g.seed}): no legal move at {g.dead_end}"
            )
        lines.append(f"draws            {self.draws}")
        lines.append("")
        lines.append(f"{'side':<6}{'bots':<18}{'mean hand score':>16}   win rate [95% CI]")
        for i in range(len(self.sides)):
            lines.append(
                f"{i:<6}{self.side_bots(i):<18}{self.mean_hand_score(i):>16.1f}   "
                f"{self.side_win_rate(i)}"
            )
        lines.append("")
        lines.append(f"{'bot':<24}{'':>16}   win rate [95% CI]")
        for name in self.bot_names:
            lines.append(f"{name:<24}{'':>16}   {self.bot_win_rate(name)}")
        return "\n".join(lines)


def output_dir(path: object, what: str) -> Path:
    """The directory ``path`` for ``what`` (``"the records"``), made if missing: the check of every writer of one.

    Raises:
        CanastaError: ``path`` is not a path, is a file, or cannot be made (a
            parent that is a file, no permission, a full disk), naming it.
    """
    out_dir = file_path(path, lambda where, reason: CanastaError(f"{where}: {reason}"), f"a directory for {what}")
    where = escape(out_dir)
    if Path(out_dir).exists() and not Path(out_dir).is_dir():
        raise CanastaError(f"{where}: not a directory, cannot hold {what}")
    try:
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CanastaError(f"{where}: cannot make the directory for {what}: {exc.strerror or exc}") from None
    return Path(out_dir)


def seat_bots(specs: Sequence[str | Bot] | str, seats: int) -> list[Bot]:
    """One bot per seat: ``specs`` (names or bots, or names separated by commas), cycled.

    Raises:
        CanastaError: no bot given, an unknown bot name, or something that is
            no bot (see ``canasta.play.bots.as_bot``).
    """
    if isinstance(specs, str):
        specs = [s for s in specs.split(",") if s.strip()]
    if not specs:
        raise CanastaError("simulate needs at least one bot")
    if not isinstance(specs, Sequence):
        raise CanastaError(f"bots: expected a list of bot names or bot objects, got {shown(specs)}")
    return [as_bot(specs[i % len(specs)]) for i in range(seats)]


@dataclass
class GameTask:
    """Plays a range of a simulation's games: what a backend sends to its workers.

    ``task(start, stop)`` returns the :class:`GameRecord` of games ``start`` to
    ``stop - 1``. It is plain data (the variant, bot names or bots, the seed),
    so it pickles to another process or a Ray node; the bots are made there,
    once.

    Attributes:
        variant: the rules.
        specs: the bots, cycled over the seats (see :func:`seat_bots`).
        seed: the simulation's seed.
        max_hands: the hand limit per game, or ``None``.
        record_dir: where to write each game's record, or ``None``.
    """

    variant: Variant
    specs: tuple[str | Bot, ...]
    seed: int
    max_hands: int | None = None
    record_dir: str | None = None
    _bots: list[Bot] | None = field(default=None, init=False, repr=False, compare=False)

    def bots(self) -> list[Bot]:
        """The seats' bots, made on first use."""
        if self._bots is None:
            self._bots = seat_bots(self.specs, self.variant.players.count)
        return self._bots

    def __getstate__(self) -> dict[str, Any]:
        # the bots are made again where the task runs
        return {**self.__dict__, "_bots": None}

    def __call__(self, start: int, stop: int) -> list[GameRecord]:
        bots = self.bots()
        return [
            play_game(self.variant, bots, self.seed, i, self.max_hands, self.record_dir)
            for i in range(start, stop)
        ]


def simulate(
    variant: Variant | str,
    games: int,
    bots: Sequence[str | Bot] = ("greedy", "random"),
    seed: int = 0,
    jobs: int = 1,
    max_hands: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    record_dir: str | os.PathLike[str] | None = None,
    backend: str | Backend = "local",
    address: str | None = None,
    keep_records: bool = False,
) -> Summary:
    """Play ``games`` bot-against-bot games and summarize them.

    Games stream into running totals (a :class:`~canasta.play.simulate.Tally`),
    so memory stays flat however many games are played.

    Args:
        variant: a :class:`~canasta.variant.model.Variant`, a bundled profile name or a
            profile path.
        games: how many games to play.
        bots: bot names (``"greedy"``, ``"random"``) or :class:`~canasta.play.bots.Bot`
            objects, assigned to seats 0, 1, 2, ... in order and cycled; with
            ``("greedy", "random")`` in a partnership game, one side is greedy.
            Bot objects must keep no state between moves and, for ``jobs > 1``
            or Ray, be picklable.
        seed: the simulation's seed; each game's seed comes from it and the game's
            index (``game_seed``).
        jobs: worker processes of the local backend (for ``"ray"``, the CPUs
            of the local Ray instance); the summary is the same for any number.
        max_hands: stop each game after this many hands and let the standings
            decide (``None``: play every game to its end).
        progress: called as ``progress(done, games)`` after each game.
        record_dir: a directory (made if missing) to write each game's record
            to, as ``game-NNNNN.rec``; see :mod:`canasta.io.record`.
        backend: ``"local"`` (the default), ``"ray"``, or a
            :class:`~canasta.play.backends.Backend`; the summary is the same on each.
        address: the Ray cluster to use (``backend="ray"`` only; ``None``
            starts a local Ray instance).
        keep_records: keep every game's :class:`~canasta.play.simulate.GameRecord`
            in ``Summary.records`` (memory then grows with the games).

    Returns:
        The :class:`~canasta.play.simulate.Summary`.

    Raises:
        CanastaError: a bot name is unknown, ``games`` is not a whole number from 1
            to ``MAX_GAMES``, ``max_hands`` is not a positive number,
            ``record_dir`` is not a directory, the variant does not load, or the
            backend is unknown or not installed.
        SimulationInterrupted: Ctrl-C (a ``KeyboardInterrupt``) stopped the
            simulation; its ``summary`` holds the games finished before, and every
            record written so far is whole. No worker process is left running.
    """
    v = resolve_variant(variant)
    check_counts(games, max_hands)
    specs = tuple(bots.split(",")) if isinstance(bots, str) else tuple(bots)
    players = seat_bots(specs, v.players.count)  # fails early on an unknown name
    runner = (
        make_backend(backend, min(max(1, jobs), MAX_JOBS), address)
        if isinstance(backend, str) else backend
    )
    out_dir = None
    if record_dir is not None:
        out_dir = os.fspath(output_dir(record_dir, "the records"))
    tally = Tally(len(v.sides), keep_records)

    def summary(interrupted: bool = False) -> Summary:
        return Summary.of(
            tally, variant=v.name, seed=seed, seats=tuple(b.name for b in players),
            sides=v.sides, max_hands=max_hands, requested=games, interrupted=interrupted,
        )

    stream = runner.run(GameTask(v, specs, seed, max_hands, out_dir), games)
    try:
        _tally_games(tally, stream, games, progress, out_dir)
    except KeyboardInterrupt:
        raise SimulationInterrupted(summary(interrupted=True)) from None
    return summary()


def check_counts(games: object, max_hands: object) -> None:
    """Check ``games`` (a whole number from 1 to MAX_GAMES) and ``max_hands`` (None or at least 1).

    Raises:
        CanastaError: either is out of range, or no whole number.
    """
    if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_GAMES:
        raise CanastaError(f"games must be a whole number from 1 to {MAX_GAMES}, got {games!r}")
    if max_hands is not None and (not isinstance(max_hands, int) or max_hands < 1):
        raise CanastaError(f"max_hands must be a whole number >= 1, got {max_hands!r}")


def _tally_games(
    tally: Tally, stream: Generator[list[GameRecord], None, None], games: int,
    progress: Callable[[int, int], None] | None, out_dir: str | None,
) -> None:
    """Add each game the workers stream to ``tally``, as it comes.

    On Ctrl-C the workers are stopped and no partial record is left behind,
    and the interrupt goes on to the caller; the stream is closed either way.
    """
    try:
        for shard in stream:
            for record in shard:
                tally.add(record)
                if progress is not None:
                    progress(tally.games, games)
    except KeyboardInterrupt:
        with sigint_ignored():
            stream.close()  # stops the workers, if the interrupt came outside the generator
            if out_dir is not None:
                _remove_partial_records(out_dir)
        raise
    finally:
        stream.close()


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`simulate` before every game was played.

    It is a ``KeyboardInterrupt``, so code that does not look for it stops
    as it would on Ctrl-C.

    Attributes:
        summary: the :class:`Summary` of the games finished before, with
            ``interrupted`` true and ``requested`` the games asked for.
    """

    def __init__(self, summary: Summary) -> None:
        super().__init__(f"interrupted after {summary.games} of {summary.requested} games")
        self.summary = summary


def progress_bar(stream: TextIO, width: int = 30) -> Callable[[int, int], None]:
    """A ``progress`` callback for :func:`simulate` that draws a bar on ``stream``.

    Args:
        stream: where to draw, normally a terminal's stderr.
        width: the bar's width in characters.

    Returns:
        The callback; it ends the line after the last game.
    """

    def show(done: int, total: int) -> None:
        filled = width * done // total
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
        if done == total:
            stream.write("\n")
        stream.flush()

    return show

