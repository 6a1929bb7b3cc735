"""Games played side by side play as each played alone, in one thread or in several.

The engine keeps nothing about a game outside its states: what one step works
out for the next (the hand counts a state carries, see
``tests/test_carried_counts.py``) travels in the state it builds. Were any of it
kept in the process instead, and trusted for a state it was not made for, a
game played between the moves of another would list other moves than it does
alone. Random play of pairs of games of the bundled profiles (the same profile
twice among them, where the same seats meet the same steps) is recorded move
by move with every listing, played alone, then interleaved move by move in one
thread, then in two threads at once, and must be the same every way.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from budget import examples

#: Moves played per game (hands are dealt on as they end).
MOVES = 120

Record = list[tuple[int, str]]


def _game(name: str, seed: int) -> Iterator[tuple[int, str]]:
    """Random play of one game: for each move, how many moves were listed, and the move."""
    rng = random.Random(seed)
    s = canasta.new_game(canasta.load_variant(name), seed=seed)
    while not s.is_game_over:
        legal = s.legal_moves()
        move = legal[rng.randrange(len(legal))]
        yield len(legal), str(move)
        s = s.apply(move)


def _alone(name: str, seed: int) -> Record:
    return [step for _, step in zip(range(MOVES), _game(name, seed), strict=False)]


def _interleaved(a: tuple[str, int], b: tuple[str, int]) -> tuple[Record, Record]:
    games = (_game(*a), _game(*b))
    out: tuple[Record, Record] = ([], [])
    for _ in range(MOVES):
        for game, record in zip(games, out, strict=True):
            step = next(game, None)
            if step is not None:
                record.append(step)
    return out


def _threaded(a: tuple[str, int], b: tuple[str, int]) -> tuple[Record, Record]:
    out: tuple[Record, Record] = ([], [])
    start = threading.Barrier(2)

    def run(game: tuple[str, int], record: Record) -> None:
        start.wait()
        record.extend(_alone(*game))

    threads = [threading.Thread(target=run, args=(g, r)) for g, r in zip((a, b), out, strict=True)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    return out


games = st.tuples(st.sampled_from(canasta.variant_names()), st.integers(0, 2**31 - 1))


@settings(max_examples=examples(40, least=6), deadline=None)
@given(a=games, b=games, same=st.booleans())
def test_games_side_by_side_play_as_alone(a: tuple[str, int], b: tuple[str, int], same: bool) -> None:
    if same:
        b = (a[0], b[1])  # the same profile: the same seats take the same steps
    alone = (_alone(*a), _alone(*b))
    assert len(alone[0]) == len(alone[1]) == MOVES
    assert _interleaved(a, b) == alone
    assert _threaded(a, b) == alone
