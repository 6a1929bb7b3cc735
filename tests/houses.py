"""House profiles the engine tests play besides the bundled ones.

A house profile turns on options that no bundled profile uses yet, so that the
random-playout invariants and the oracle tests cover them too. Each is a YAML
file under ``tests/data/houses``; tests pass its path wherever they pass a
bundled profile's name (``canasta.load_variant`` reads both).
"""

from __future__ import annotations

from pathlib import Path

import canasta
from canasta.variant.model import Variant

HOUSES_DIR = Path(__file__).resolve().parent / "data" / "houses"

#: Name of each house profile -> its file.
HOUSES: dict[str, Path] = {p.stem: p for p in sorted(HOUSES_DIR.glob("*.yaml"))}


def house_path(name: str) -> str:
    """The path of house profile ``name``, as ``canasta.load_variant`` takes it."""
    return str(HOUSES[name])


def house_variant(name: str) -> Variant:
    """House profile ``name``, loaded."""
    return canasta.load_variant(HOUSES[name])


#: House profiles whose sequences may hold a wild card in a gap (``sequences.wild_in_gap``),
#: where the greedy way out may lay a card it would leave in such a new sequence.
GAP_SEQUENCES = (
    "extends: samba\ndeck: {decks: 4}\ndeal: {hand_size: 20}\nsequences: {wild_in_gap: true, grow_when_going_out: true}\n",
    "extends: bolivia\ndeck: {decks: 4}\ndeal: {hand_size: 20}\nsequences: {wild_in_gap: true}\n",
    "extends: classic\nsequences: {allowed: true, wild_in_gap: true}\n",
)
