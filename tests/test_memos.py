"""The engine's memos keep the entries of the variants in play only.

Most of the engine's memos (``functools.lru_cache``) are keyed by a variant's compiled
tables. A process that plays many variants, one after another, empties them every
:data:`canasta.engine.game.MEMO_VARIANTS` new variants, so that they do not hold the
tables of every variant it ever played (and the garbage collector does not walk them).
"""

from __future__ import annotations

import canasta
from canasta.engine import game
from canasta.engine.sequence_search import sequence_outcomes
from canasta.engine.state import GameState


def _house(n: int) -> canasta.Variant:
    """A house profile of Samba (sequences), different for each ``n``."""
    return canasta.parse_variant(f"extends: samba\nname: memo-{n}\ngame: {{target: {20000 + n}}}\n")


def _listings(s: GameState, moves: int) -> list[list[str]]:
    out = []
    for _ in range(moves):
        legal = s.legal_moves()
        out.append([str(m) for m in legal])
        if s.is_hand_over or s.is_game_over:
            break
        s = s.apply(legal[len(legal) // 2])
    return out


def test_new_variants_past_the_limit_empty_the_memos() -> None:
    """A variant compiled past the limit empties the memos; the moves listed stay the same."""
    first = canasta.new_game(_house(0), seed=3)
    before = _listings(first, 120)
    assert sequence_outcomes.cache_info().currsize > 0
    for n in range(1, game.MEMO_VARIANTS + 2):
        game.compile_rules(_house(n))
        if game._compiled[0] == 1:
            # this variant emptied them (the search has not run since)
            assert sequence_outcomes.cache_info().currsize == 0
            break
    else:
        raise AssertionError("no new variant emptied the memos")
    assert _listings(canasta.new_game(_house(0), seed=3), 120) == before
