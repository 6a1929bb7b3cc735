"""Trace seeded hands of every bundled profile, so two engines can be compared.

Usage::

    python .ci/parity.py --engine python|compiled --hands N --games G --out FILE
    python .ci/parity.py --engine ... --detail PROFILE INDEX   # one trace, step by step

For each bundled profile, plays N seeded hands (half of them picking uniformly
among the legal moves, half preferring to take the pile, meld and go out, so
that hands reach the going-out and scoring rules) and G whole games, played by the greedy bot, to game
over. Each step records the seat to move, every legal move in order, the move
chosen and, every few steps, the reason a few random moves are refused, the
JSON of the mover's view and (less often) whether the state reads back equal
from its JSON, which runs the engine's integrity checks; each hand ends with its end reason and every item of
every side's score. FILE gets one line per hand: profile, index, number of steps
and a digest of that trace.

CI runs this once with the Python engine (the editable install) and once with
the compiled wheel and requires the two files to be identical: the compiled
engine must list the same moves, refuse the same moves for the same reasons and
score the same items, hand for hand. ``--engine`` names the engine this
interpreter must import, so that a compiled wheel that silently fell back to
Python (or the reverse) cannot pass.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import random
import sys
from collections.abc import Iterator, Sequence

import canasta
from canasta import CanastaError, GameState, Move
from canasta.engine import COMPILED
from canasta.engine.moves import parse_move

#: A hand of any bundled profile ends well within this many moves.
MAX_MOVES = 5000
#: Every this many steps, probe refusals and record the mover's view.
PROBE_EVERY = 5
#: Every this many steps, read the state back from its JSON (the costliest probe).
JSON_EVERY = 20
#: Card names that random probe moves are made of (ranks, black 3, red 3, wild-meld target).
RANKS = ("2", "3", "3R", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK", "W")
#: Moves that take no card, probed as they are.
BARE = ("draw", "pass", "take pair", "take layoff", "take finish", "take 2", "take JK",
        "foot", "back", "ask", "yes", "no", "next")
#: A whole game ends within this many hands.
MAX_HANDS = 200


def preferred(legal: Sequence[Move]) -> Sequence[Move]:
    """The moves a greedy player picks among: take the pile, pick up the foot, meld, go out."""
    for prefix in ("take", "foot", "meld", "add", "out"):
        pick = [m for m in legal if str(m).startswith(prefix)]
        if pick:
            return pick
    return legal


def probes(rng: random.Random) -> Iterator[str]:
    """A few random moves in notation, most of them illegal in any one state."""
    yield rng.choice(BARE)
    yield f"discard {rng.choice(RANKS)}"
    yield f"out {rng.choice(RANKS)}"
    yield f"add {rng.choice(RANKS)} {rng.choice(RANKS)}"
    yield "meld " + " ".join(rng.choice(RANKS) for _ in range(rng.randint(1, 7)))


def step_lines(
    s: GameState, rng: random.Random, greedy: bool, step: int, bot: canasta.GreedyBot | None = None
) -> tuple[list[str], GameState]:
    """The trace lines of one step from ``s``, and the state after the chosen move.

    ``bot``, when given, chooses the move (whole games); otherwise it is drawn at
    random among the legal moves, or among :func:`preferred` ones when ``greedy``.
    """
    legal = s.legal_moves()
    lines = [f"{step} seat {s.current_player}: {' | '.join(str(m) for m in legal)}"]
    if step % PROBE_EVERY == 0:
        listed = {str(m) for m in legal}
        for text in probes(rng):
            try:
                move = parse_move(text)
            except CanastaError as e:
                lines.append(f"  {text}: notation error {e}")
                continue
            if str(move) in listed:
                lines.append(f"  {text}: listed")
                continue
            try:
                s.apply(move)
            except CanastaError as e:
                lines.append(f"  {text}: {type(e).__name__} {e}")
            else:
                lines.append(f"  {text}: applied although not listed")
        lines.append(f"  view: {canasta.to_json(s.view(s.current_player))}")
    if step % JSON_EVERY == 0:
        # reading a state back runs the engine's integrity checks on it; a
        # refusal is recorded, not raised: this trace compares engines, and
        # whether a real state should be refused is the tests' business
        try:
            back = canasta.from_json(canasta.to_json(s), GameState)
        except CanastaError as e:
            lines.append(f"  json: refused: {e}")
        else:
            lines.append(f"  json: {'equal' if back == s else 'differs'}")
    if bot is not None:
        move = bot.choose(s.view(s.current_player), rng)
    else:
        pool = preferred(legal) if greedy else legal
        move = pool[rng.randrange(len(pool))]
    lines.append(f"  -> {move}")
    return lines, s.apply(move)


def hand_end_lines(s: GameState) -> list[str]:
    """The end of a hand: how it ended, each side's score items and the running scores."""
    assert s.end is not None
    lines = [f"end {s.end.reason} seat {s.end.seat} concealed {s.end.concealed}"]
    for side, breakdown in enumerate(s.end.breakdowns):
        lines.append(f"  side {side}: {breakdown.items} = {breakdown.total}")
    lines.append(f"  scores {s.scores} game over {s.is_game_over}")
    return lines


def play_hand(
    s: GameState, rng: random.Random, greedy: bool, bot: canasta.GreedyBot | None = None
) -> tuple[list[str], GameState]:
    """Play the current hand of ``s`` to its end; return the trace and the final state."""
    trace: list[str] = []
    for step in range(MAX_MOVES):
        if s.is_hand_over:
            return [*trace, *hand_end_lines(s)], s
        lines, s = step_lines(s, rng, greedy, step, bot)
        trace += lines
    raise SystemExit(f"parity: the hand did not end within {MAX_MOVES} moves")


@functools.cache
def variant(name: str) -> canasta.Variant:
    """The bundled profile ``name``, loaded once."""
    return canasta.load_variant(name)


def trace(name: str, index: int, hands: int) -> list[str]:
    """The trace of hand ``index`` of profile ``name``; indices from ``hands`` on are whole games."""
    seed = 7919 * index + 1
    rng = random.Random(seed)
    s = canasta.new_game(variant(name), seed=seed)
    if index < hands:
        return play_hand(s, rng, greedy=index % 2 == 1)[0]
    # whole games are played by the greedy bot: it plays the bot's code on both
    # engines too, and ends games where taking, melding and going out at random
    # never does (Modern American's penalty melds sink a random side for ever)
    bot = canasta.GreedyBot()
    out: list[str] = []
    for number in range(MAX_HANDS):
        lines, s = play_hand(s, rng, greedy=True, bot=bot)
        out += [f"hand {number}", *lines]
        if s.is_game_over:
            return out
        s = s.apply("next")
    raise SystemExit(f"parity: {name} game {index}: no game over within {MAX_HANDS} hands")


def main(argv: list[str] | None = None) -> int:
    """Write the digests (or one detailed trace) and return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=("python", "compiled"), required=True,
                        help="the engine this interpreter must import")
    parser.add_argument("--hands", type=int, default=40, help="seeded hands per profile")
    parser.add_argument("--games", type=int, default=1, help="whole games per profile")
    parser.add_argument("--out", help="file for the digests (default: standard output)")
    parser.add_argument("--detail", nargs=2, metavar=("PROFILE", "INDEX"),
                        help="print the whole trace of one hand or game instead")
    args = parser.parse_args(argv)
    if (args.engine == "compiled") != COMPILED:
        engine = "compiled" if COMPILED else "Python"
        print(f"parity: --engine {args.engine}, but this interpreter imports the {engine} "
              f"engine from {canasta.__file__}", file=sys.stderr)
        return 2
    if args.detail:
        name, index = args.detail[0], int(args.detail[1])
        print("\n".join(trace(name, index, args.hands)))
        return 0
    rows = []
    for name in canasta.variant_names():
        for index in range(args.hands + args.games):
            lines = trace(name, index, args.hands)
            digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
            rows.append(f"{name}\t{index}\t{len(lines)}\t{digest}\n")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.writelines(rows)
    else:
        sys.stdout.writelines(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
