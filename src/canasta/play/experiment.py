"""Rule experiments: the same deals under several profiles, and what the rules change.

:func:`experiment` plays game ``i`` of every variant from the same seeds (the
deal seed and the bots' random source of :func:`~canasta.play.simulate.play_game`,
so game ``i`` of variant ``A`` is game ``i`` of ``canasta simulate A`` with that
seed) and measures each game: hand length, hands, points, how hands ended, pile
takes, canastas by kind, the first player's edge, each side's wins and how often
each counted rule came into play.

Statistics (see the "Tuning house rules" page of the documentation):

* every measure is a number per game (a mean over the game's hands for the
  ``per hand`` ones; 0 or 1 for a win); a variant's value is the mean over its
  games with a normal 95% interval, or a Wilson interval for a win rate;
* the difference of variant ``B`` with the first variant ``A`` is the mean of
  the per-game differences ``B_i - A_i`` (common random numbers: game ``i`` has
  the same seeds in both), with the normal 95% interval
  ``mean ± 1.96 · sd / sqrt(n)`` of those paired differences.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from canasta.engine import GameState
from canasta.engine.moves import (
    Answer,
    Ask,
    Discard,
    Draw,
    Foot,
    Meld,
    Move,
    Pass,
    TakeBack,
    TakePile,
)
from canasta.errors import CanastaError
from canasta.play.backends import Backend, make_backend, sigint_ignored
from canasta.play.bots import Bot
from canasta.play.simulate import (
    MAX_JOBS,
    GameRecord,
    check_counts,
    play_game,
    printable,
    resolve_variant,
    seat_bots,
    wilson,
)
from canasta.variant.model import Variant

__all__ = [
    "RULES", "Difference", "Experiment", "GameStats", "Measure", "Value", "experiment",
    "game_stats", "mean_interval", "number_text",
]

_Z95 = 1.959963984540054

#: The rules :func:`experiment` counts, by the name it reports, with what is counted.
RULES: dict[str, str] = {
    "pile taken with a pair": "take pair: the top card and two naturals from hand",
    "pile taken with a wild card": "take with one natural and a wild card",
    "pile top laid off": "take layoff: the top card onto the side's meld of its rank",
    "pile taken by finishing a meld": "take finish (Hand and Foot)",
    "black 3 discarded": "a discarded black 3, which blocks the next player's pile take",
    "wild card discarded": "a discarded wild card, which freezes the pile",
    "wild meld laid": "a new meld of wild cards only",
    "red 3s laid": "red 3s scored at the hand's end",
    "foot picked up": "Hand and Foot: a player picks up the foot",
    "asked partner to go out": "ask: a player asks the partner for permission",
    "partner refused going out": "answer no",
    "meld taken back": "back: the cards of a meld or add laid this turn taken back",
    "passed on the pile (stock out)": "pass: the pile declined when the stock is empty",
    "went out concealed": "the hand ended by going out without having melded before",
    "black-3 out": "the hand ended by going out with black 3s",
}

_TAKE_RULE = {
    "pair": "pile taken with a pair", "wild": "pile taken with a wild card",
    "layoff": "pile top laid off", "finish": "pile taken by finishing a meld",
}
_CANASTA = re.compile(r"^(.*?canasta)\b")
_RED_THREES = re.compile(r"^(\d+) red 3s?$")


@dataclass(frozen=True)
class GameStats:
    """What one game of an experiment came to: the record and what happened in it.

    Attributes:
        record: the game's :class:`~canasta.play.simulate.GameRecord`.
        hand_turns: each hand's length in turns (a turn starts with a draw,
            a pile take or a pass).
        hand_scores: each hand's score per side.
        first_sides: the side of the player who moved first in each hand.
        pile_takes: pile takes in the game.
        canastas: canastas scored in the game, by kind (``"natural canasta"``).
        rules: how often each rule of :data:`RULES` came into play.
    """

    record: GameRecord
    hand_turns: tuple[int, ...]
    hand_scores: tuple[tuple[int, ...], ...]
    first_sides: tuple[int, ...]
    pile_takes: int
    canastas: dict[str, int]
    rules: dict[str, int]


class _Watcher:
    """Counts what happens in one game, move by move (a :data:`~canasta.play.simulate.Watch`)."""

    def __init__(self, sides: Sequence[Sequence[int]]) -> None:
        self.side_of = {seat: i for i, seats in enumerate(sides) for seat in seats}
        self.turns = 0
        self.hand_turns: list[int] = []
        self.hand_scores: list[tuple[int, ...]] = []
        self.first_sides: list[int] = []
        self.pile_takes = 0
        self.canastas: Counter[str] = Counter()
        self.rules: Counter[str] = Counter()

    def __call__(self, before: GameState, move: Move, after: GameState) -> None:
        if isinstance(move, TakePile):
            self.pile_takes += 1
            self.rules[_TAKE_RULE.get(move.way, f"pile taken ({move.way})")] += 1
        if isinstance(move, (Draw, TakePile, Pass)):
            if self.turns == 0:
                self.first_sides.append(self.side_of[before.current_player])
            self.turns += 1
        if isinstance(move, Pass):
            self.rules["passed on the pile (stock out)"] += 1
        elif isinstance(move, Discard):
            if move.kind == 3:
                self.rules["black 3 discarded"] += 1
            elif 0 <= move.kind < 16 and before.rules.is_wild[move.kind]:
                self.rules["wild card discarded"] += 1
        elif isinstance(move, Meld):
            if all(0 <= k < 16 and before.rules.is_wild[k] for k in move.kinds):
                self.rules["wild meld laid"] += 1
        elif isinstance(move, Foot):
            self.rules["foot picked up"] += 1
        elif isinstance(move, Ask):
            self.rules["asked partner to go out"] += 1
        elif isinstance(move, Answer):
            if not move.yes:
                self.rules["partner refused going out"] += 1
        elif isinstance(move, TakeBack):
            self.rules["meld taken back"] += 1
        if after.is_hand_over and not before.is_hand_over:
            self._hand_end(after)

    def _hand_end(self, state: GameState) -> None:
        end = state.end
        assert end is not None
        if len(self.first_sides) < len(self.hand_turns) + 1:
            self.first_sides.append(self.side_of[state.current_player])
        self.hand_turns.append(self.turns)
        self.turns = 0
        self.hand_scores.append(end.hand_scores)
        if end.reason == "out" and end.concealed:
            self.rules["went out concealed"] += 1
        if end.reason == "out" and end.black_three_out:
            self.rules["black-3 out"] += 1
        for breakdown in end.breakdowns:
            for label, _points in breakdown.items:
                kind = _CANASTA.match(label)
                if kind is not None:
                    self.canastas[kind.group(1)] += 1
                threes = _RED_THREES.match(label)
                if threes is not None:
                    self.rules["red 3s laid"] += int(threes.group(1))


def game_stats(
    variant: Variant, bots: Sequence[Bot], seed: int, index: int, max_hands: int | None = None
) -> GameStats:
    """Play game ``index`` of an experiment seeded with ``seed`` and measure it.

    The game is the one :func:`~canasta.play.simulate.play_game` plays with the
    same arguments: watching it changes nothing.

    Returns:
        The game's :class:`GameStats`.
    """
    watcher = _Watcher(variant.sides)
    record = play_game(variant, bots, seed, index, max_hands, watch=watcher)
    return GameStats(
        record=record, hand_turns=tuple(watcher.hand_turns),
        hand_scores=tuple(watcher.hand_scores),
        first_sides=tuple(watcher.first_sides[: len(watcher.hand_turns)]),
        pile_takes=watcher.pile_takes, canastas=dict(watcher.canastas), rules=dict(watcher.rules),
    )


@dataclass
class _ExperimentTask:
    # Plays game i under every variant: one backend run for the whole experiment.
    variants: tuple[Variant, ...]
    specs: tuple[str | Bot, ...]
    seed: int
    max_hands: int | None
    _bots: list[Bot] | None = field(default=None, init=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_bots": None}

    def __call__(self, start: int, stop: int) -> list[tuple[GameStats, ...]]:
        if self._bots is None:
            self._bots = seat_bots(self.specs, self.variants[0].players.count)
        return [
            tuple(game_stats(v, self._bots, self.seed, i, self.max_hands) for v in self.variants)
            for i in range(start, stop)
        ]


# --- statistics -------------------------------------------------------------------


def mean_interval(values: Sequence[float], z: float = _Z95) -> tuple[float, float, float]:
    """The mean of ``values`` with its normal interval ``mean ± z·sd/sqrt(n)``.

    Args:
        values: the sample (for a paired difference, the per-game differences).
        z: the normal quantile; the default gives a 95% interval.

    Returns:
        ``(mean, low, high)``; with fewer than two values the interval is the mean itself.
    """
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, mean, mean)
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


@dataclass(frozen=True)
class Value:
    """A measure's value under one variant, with its 95% interval."""

    mean: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        """The value as plain data."""
        return {"mean": self.mean, "ci95": [self.low, self.high]}


@dataclass(frozen=True)
class Difference:
    """A variant's paired difference with the baseline, with its 95% interval."""

    mean: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """Whether the interval leaves out 0."""
        return self.low > 0 or self.high < 0

    def to_dict(self) -> dict[str, Any]:
        """The difference as plain data."""
        return {"mean": self.mean, "ci95": [self.low, self.high], "significant": self.significant}


@dataclass(frozen=True)
class Measure:
    """One measure of an experiment.

    Attributes:
        name: what is measured, e.g. ``"hand length (turns)"``.
        group: ``"game"``, ``"canastas"``, ``"wins"`` or ``"rules"``.
        rate: whether it is a 0-or-1 outcome per game (intervals are Wilson's).
        values: the value under each variant, in the experiment's order.
        differences: each variant after the first minus the first, paired by game.
    """

    name: str
    group: str
    rate: bool
    values: tuple[Value, ...]
    differences: tuple[Difference, ...]

    @property
    def percent(self) -> bool:
        """Whether the measure is a share, shown as a percentage."""
        return self.rate or self.name.startswith("share ")

    def to_dict(self) -> dict[str, Any]:
        """The measure as plain data."""
        return {
            "name": self.name, "group": self.group, "rate": self.rate,
            "values": [v.to_dict() for v in self.values],
            "differences": [d.to_dict() for d in self.differences],
        }


def _per_hand(stats: GameStats, count: float) -> float:
    hands = len(stats.hand_turns)
    return count / hands if hands else 0.0


def _measures_of(stats: GameStats, kinds: Sequence[str], rules: Sequence[str], sides: int) -> dict[str, float]:
    """Every per-game measure of one game, by name."""
    rec, hands = stats.record, len(stats.hand_turns)
    points = sum(sum(s) for s in stats.hand_scores)
    edge = 0.0
    for first, scores in zip(stats.first_sides, stats.hand_scores, strict=True):
        others = [x for i, x in enumerate(scores) if i != first]
        edge += scores[first] - (sum(others) / len(others) if others else 0.0)
    first_side = stats.first_sides[0] if stats.first_sides else -1
    out: dict[str, float] = {
        "hand length (turns)": _per_hand(stats, sum(stats.hand_turns)),
        "hands per game": float(hands),
        "points per hand (per side)": _per_hand(stats, points / max(1, sides)),
        "share of hands ended by going out": _per_hand(stats, rec.outs),
        "share of hands ended by the stock": _per_hand(stats, rec.stock_ends),
        "pile takes per hand": _per_hand(stats, stats.pile_takes),
        "first player's side: points edge per hand": _per_hand(stats, edge),
        "first player's side wins": float(rec.winners == (first_side,)),
    }
    for kind in kinds:
        out[f"{kind}s per hand"] = _per_hand(stats, stats.canastas.get(kind, 0))
    for side in range(sides):
        out[f"side {side} wins"] = float(rec.winners == (side,))
    for rule in rules:
        out[f"{rule} (per hand)"] = _per_hand(stats, stats.rules.get(rule, 0))
    return out


@dataclass(frozen=True)
class Experiment:
    """The result of :func:`experiment`.

    Attributes:
        variants: the variants' names, the baseline first.
        games: games played under each variant.
        seed: the experiment's seed.
        seats: the bot name at each seat.
        sides: the seats of each side.
        max_hands: the hand limit per game, or ``None``.
        measures: every measure, in report order.
        hand_turns: per variant, every hand's length in turns (for plots).
        hand_scores: per variant, every side's score of every hand (for plots).
        side_wins: per variant, per game, the side that won outright (-1: a draw).
        requested: the games asked for.
        interrupted: Ctrl-C stopped the experiment; it holds the games played before.
        dead_ends: games that stopped with no legal move (an engine fault), as
            ``(variant, game index)``.
    """

    variants: tuple[str, ...]
    games: int
    seed: int
    seats: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    max_hands: int | None
    measures: tuple[Measure, ...]
    hand_turns: tuple[tuple[int, ...], ...] = field(repr=False)
    hand_scores: tuple[tuple[int, ...], ...] = field(repr=False)
    side_wins: tuple[tuple[int, ...], ...] = field(repr=False)
    requested: int = 0
    interrupted: bool = False
    dead_ends: tuple[tuple[str, int], ...] = ()

    def side_bots(self, side: int) -> str:
        """The bots of ``side``'s seats, e.g. ``"greedy+greedy"``."""
        return "+".join(self.seats[s] for s in self.sides[side])

    def measure(self, name: str) -> Measure:
        """The measure called ``name``.

        Raises:
            KeyError: no measure has that name.
        """
        for m in self.measures:
            if m.name == name:
                return m
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """The experiment as plain data, ready for ``json.dumps`` (the raw per-hand data left out)."""
        return {
            "variants": list(self.variants), "games": self.games,
            "games_requested": self.requested, "interrupted": self.interrupted,
            "seed": self.seed, "seats": list(self.seats),
            "sides": [{"side": i, "seats": list(s), "bots": self.side_bots(i)}
                      for i, s in enumerate(self.sides)],
            "max_hands": self.max_hands,
            "method": "per-game values; variant: mean with normal 95% CI (Wilson for win rates); "
                      "difference: mean of paired per-game differences with normal 95% CI",
            "dead_ends": [{"variant": v, "game": i} for v, i in self.dead_ends],
            "measures": [m.to_dict() for m in self.measures],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as indented JSON text."""
        return json.dumps(self.to_dict(), indent=2)

    def __str__(self) -> str:
        names = [printable(v) for v in self.variants]
        head = f"{' vs '.join(names)}: {self.games} games each, seed {self.seed}, same deals"
        lines = [head]
        if self.interrupted:
            lines.append(f"interrupted after {self.games} of {self.requested} games")
        lines.append(f"seats: {', '.join(f'{i} {b}' for i, b in enumerate(self.seats))}")
        width = max(12, *(len(n) for n in names))
        diffs = [f"{n} - {names[0]}" for n in names[1:]]
        dwidth = max([24, *(len(d) for d in diffs)])
        header = f"{'measure':<44}" + "".join(f"{n:>{width}}  " for n in names)
        header += "".join(f"{d:>{dwidth}}" for d in diffs)
        group = ""
        for m in self.measures:
            if m.group != group:
                group = m.group
                lines += ["", header if group == "game" else f"-- {group}"]
            scale = 100.0 if m.percent else 1.0
            unit = "%" if m.percent else ""
            row = f"{_label(m, self):<44}"
            row += "".join(f"{number_text(v.mean * scale)}{unit:<1}".rjust(width) + "  " for v in m.values)
            for d in m.differences:
                cell = f"{number_text(d.mean * scale, True)} [{number_text(d.low * scale, True)}, {number_text(d.high * scale, True)}]"
                cell += "*" if d.significant else " "
                row += cell.rjust(dwidth)
            lines.append(row.rstrip())
        lines += ["", "differences: paired by game (same seeds), 95% normal CI; * = CI excludes 0;"
                  " shares and win rates in percentage points"]
        for v, i in self.dead_ends:
            lines.append(f"dead end: {printable(v)} game {i} (no legal move; an engine fault)")
        return "\n".join(lines)


def _label(m: Measure, e: Experiment) -> str:
    name = m.name
    match = re.fullmatch(r"side (\d+) wins", name)
    if match:
        name = f"{name} ({e.side_bots(int(match.group(1)))})"
    return name[:43]


def number_text(x: float, signed: bool = False) -> str:
    """``x`` in a table: 0 decimals from 100 on, 1 from 10, else 2; ``+`` first if ``signed``.

    A value that rounds to zero prints as ``0.00``, never ``-0.00`` or ``+0.00``:
    a difference too small to show has no sign to show either.
    """
    digits = 0 if abs(x) >= 100 else 2 if abs(x) < 10 else 1
    text = f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"
    if float(text) == 0:
        return f"{0:.{digits}f}"
    return text


def _build(
    variants: Sequence[Variant], rows: Sequence[tuple[GameStats, ...]],
) -> tuple[Measure, ...]:
    sides = len(variants[0].sides)
    kinds = sorted({k for row in rows for s in row for k in s.canastas})
    rules = [r for r in RULES if any(s.rules.get(r) for row in rows for s in row)]
    per_game = [[_measures_of(s, kinds, rules, sides) for s in row] for row in rows]
    names = list(per_game[0][0]) if per_game else []
    out = []
    for name in names:
        rate = name.endswith(" wins")
        group = ("wins" if rate else "canastas" if name.endswith("canastas per hand")
                 else "rules" if name.endswith("(per hand)") else "game")
        columns = [[g[j][name] for g in per_game] for j in range(len(variants))]
        values = []
        for col in columns:
            mean, low, high = mean_interval(col)
            if rate:
                low, high = wilson(round(sum(col)), len(col))
            values.append(Value(mean, low, high))
        diffs = [
            Difference(*mean_interval([b - a for a, b in zip(columns[0], col, strict=True)]))
            for col in columns[1:]
        ]
        out.append(Measure(name, group, rate, tuple(values), tuple(diffs)))
    order = {"game": 0, "canastas": 1, "wins": 2, "rules": 3}
    return tuple(sorted(out, key=lambda m: order[m.group]))


def seating(players: int, sides: Sequence[Sequence[int]]) -> str:
    """How a variant seats its players, in words: ``4 players in partnerships (seats 0 and 2, 1 and 3)``."""
    if all(len(seats) == 1 for seats in sides):
        return f"{players} players, each on their own"
    teams = ", ".join(" and ".join(str(s) for s in seats) for seats in sides)
    return f"{players} players in partnerships (seats {teams})"


def experiment(
    variants: Sequence[Variant | str],
    games: int,
    bots: Sequence[str | Bot] = ("greedy", "random"),
    seed: int = 0,
    jobs: int = 1,
    max_hands: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    backend: str | Backend = "local",
    address: str | None = None,
) -> Experiment:
    """Play the same ``games`` deals under each variant and compare them.

    Args:
        variants: two or more variants (objects, bundled names or paths); the
            first is the baseline the others are compared with. They must seat
            the same number of players in the same sides.
        games: games per variant (1 to ``MAX_GAMES``).
        bots: the bots, cycled over the seats, as for :func:`~canasta.play.simulate.simulate`.
        seed: the experiment's seed; game ``i`` of each variant has the seeds of
            game ``i`` of ``simulate`` with this seed.
        jobs: worker processes of the local backend (Ray: a local instance's CPUs).
        max_hands: stop each game after this many hands (``None``: play to the end).
        progress: called as ``progress(done, games)`` as games finish.
        backend: ``"local"``, ``"ray"`` or a :class:`~canasta.play.backends.Backend`;
            the result is the same on each.
        address: the Ray cluster to use (``backend="ray"`` only).

    Returns:
        The :class:`Experiment`. Ctrl-C stops it early: the result then holds
        the games played before, with ``interrupted`` set.

    Raises:
        CanastaError: fewer than two variants, variants with other seats or
            sides, a bad ``games`` or ``max_hands``, an unknown bot or backend.
    """
    vs = tuple(resolve_variant(v) for v in variants)
    _check_comparable(vs)
    check_counts(games, max_hands)
    specs = tuple(bots.split(",")) if isinstance(bots, str) else tuple(bots)
    players = seat_bots(specs, vs[0].players.count)
    runner = (
        make_backend(backend, min(max(1, jobs), MAX_JOBS), address)
        if isinstance(backend, str) else backend
    )
    rows: list[tuple[GameStats, ...]] = []
    interrupted = False
    stream = runner.run(_ExperimentTask(vs, specs, seed, max_hands), games)
    try:
        for shard in stream:
            rows.extend(shard)
            if progress is not None:
                progress(len(rows), games)
    except KeyboardInterrupt:
        interrupted = True
        with sigint_ignored():
            stream.close()
    finally:
        stream.close()
    return Experiment(
        variants=tuple(v.name for v in vs), games=len(rows), seed=seed,
        seats=tuple(b.name for b in players), sides=vs[0].sides, max_hands=max_hands,
        measures=_build(vs, rows),
        hand_turns=tuple(tuple(t for row in rows for t in row[j].hand_turns) for j in range(len(vs))),
        hand_scores=tuple(
            tuple(x for row in rows for hs in row[j].hand_scores for x in hs) for j in range(len(vs))
        ),
        side_wins=tuple(
            tuple(r[j].record.winners[0] if len(r[j].record.winners) == 1 else -1 for r in rows)
            for j in range(len(vs))
        ),
        requested=games, interrupted=interrupted,
        dead_ends=tuple((vs[j].name, r[j].record.index) for r in rows for j in range(len(vs))
                        if r[j].record.dead_end is not None),
    )


def _check_comparable(vs: tuple[Variant, ...]) -> None:
    """Two or more variants, seating the same players in the same sides (the same deals need the same seats)."""
    if len(vs) < 2:
        raise CanastaError("an experiment needs at least two variants to compare")
    for v in vs[1:]:
        if v.players.count != vs[0].players.count or v.sides != vs[0].sides:
            raise CanastaError(
                f"{v.name} has {seating(v.players.count, v.sides)}; {vs[0].name} has "
                f"{seating(vs[0].players.count, vs[0].sides)}: the same deals need the same seats"
            )
