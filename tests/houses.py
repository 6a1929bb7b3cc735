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


#: House profiles with melds of wild cards only (``melds.wild_melds``) and long hands, where the
#: greedy way out lays the wild cards it would leave on a meld of wild cards, last; each with
#: the deals of its long hands (the talons of a campaign's finding: 75 cards in hand,
#: 19 of them wild).
WILD_MELDS = (
    ("extends: bolivia\ndeck: {decks: 6}\nopening: {talons: [2, 120, 5]}\n", (741028388,)),
)


#: House profiles whose opening asks a clean meld (``opening.natural_meld``), from long
#: hands and with many wild cards, where the greedy plan of an opening lays natural cards
#: alone; the first also asks a natural canasta of the opening.
CLEAN_OPENINGS = (
    "extends: classic\ndeal: {hand_size: 24}\ndeck: {decks: 6, jokers_per_deck: 4}\ndraw: {count: 3}\n"
    "opening:\n  by: score\n  score_table:\n  - {minimum: 0, canasta: natural}\n"
    "  - {from_score: 0, minimum: 50, canasta: natural}\n  natural_meld: 3\n",
    "extends: classic\ndeal: {hand_size: 15}\nopening: {natural_meld: 3}\n",
    "extends: modern-american\n",
)
