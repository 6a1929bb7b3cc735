"""The deal: SplitMix64 shuffles (a seed deals the same cards everywhere), dealing a hand, red 3s.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

from canasta.cards import build_deck
from canasta.engine.facts import NEW_TURN
from canasta.engine.kinds import KIND
from canasta.engine.state import (
    DRAW,
    GameState,
)
from canasta.engine.threes import lay_threes
from canasta.errors import CanastaError

if TYPE_CHECKING:
    from canasta.engine.tables import Rules


_T = TypeVar("_T")


_MASK = (1 << 64) - 1


def _splitmix(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


def shuffle(cards: list[_T], seed: int) -> None:
    """Shuffle ``cards`` in place: Fisher-Yates driven by SplitMix64 seeded with ``seed``.

    Each index is drawn without modulo bias (rejection sampling), so the result
    depends only on the seed and the list, on every platform and Python version.
    """
    # _splitmix written out in the loop: a deal shuffles a hundred cards or
    # more, and the call and its tuple cost more than the arithmetic
    state = seed & _MASK
    limits = _limits(len(cards))
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        limit = limits[bound]
        while True:
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                break
        j = x % bound
        cards[i], cards[j] = cards[j], cards[i]


@lru_cache(maxsize=64)
def _limits(n: int) -> tuple[int, ...]:
    """For each bound up to ``n``, the draws below which ``x % bound`` is unbiased."""
    return tuple((1 << 64) - ((1 << 64) % bound) if bound else 0 for bound in range(n + 1))


@lru_cache(maxsize=64)
def _deck(decks: int, jokers: int) -> tuple[int, ...]:
    """The card codes of the decks, in their order before the shuffle."""
    return tuple(int(c) for c in build_deck(decks, jokers))


def _hand_seed(seed: int, hand_number: int) -> int:
    return _splitmix((seed * 0x100000001B3 + hand_number) & _MASK)[1]




def deal_hand(
    r: Rules, seed: int, hand_number: int, dealer: int,
    scores: tuple[int, ...], history: tuple[tuple[int, ...], ...],
) -> GameState:
    mn = r.meanings
    deck: list[int] = list(_deck(mn.decks, mn.jokers_per_deck))
    set_aside = mn.talons_at_deal
    need = mn.cards_dealt
    if need > len(deck):
        raise CanastaError(
            f"variant {r.v.name!r}: the deal needs {need} cards but the decks hold {len(deck)}"
        )
    shuffle(deck, _hand_seed(seed, hand_number))
    stock = deck  # the top card is the last one
    order = [(dealer + 1 + i) % r.n for i in range(r.n)]
    hands: list[list[int]] = [[] for _ in range(r.n)]
    feet: list[list[int]] = [[] for _ in range(r.n)]
    # each seat's cards in the order they leave the top of the stock (slices
    # instead of a pop per card)
    size = mn.hand_size
    for seat in order:
        if size:
            hands[seat] = stock[-size:][::-1]
            del stock[-size:]
    size = mn.foot_size
    for seat in order:
        if size:
            feet[seat] = stock[-size:][::-1]
            del stock[-size:]
    # the older form of talons: one pile per entry, set aside face down before the upcard
    talons = tuple(tuple(sorted(stock.pop() for _ in range(size))) for size in set_aside)
    pile: list[int] = []
    if mn.upcard:
        pile.append(stock.pop())
        if mn.upcard_buried:
            # deal.upcard_buried: into the middle of the stock, at most once per card
            # there (a stock of nothing but such cards leaves the last one turned)
            for _ in range(len(stock)):
                if not r.cover[KIND[pile[-1]]]:
                    break
                stock.insert(len(stock) // 2, pile.pop())
                pile.append(stock.pop())
        while r.cover[KIND[pile[-1]]] and stock:
            pile.append(stock.pop())
    red: list[list[int]] = [[] for _ in r.sides]
    if any(r.laid_at_once):
        # threes.keep_one: no side has melded yet, so each player keeps one 3
        keep = r.keep_three
        for seat in order:
            hands[seat] = lay_threes(r, hands[seat], stock, red[r.side_of[seat]], keep)[0]
    first = order[0]
    return GameState(
        variant=r.v, seed=seed, hand_number=hand_number, dealer=dealer, scores=scores,
        history=history, phase=DRAW, current=first,
        hands_=tuple(tuple(sorted(h)) for h in hands),
        feet_=tuple(tuple(sorted(f)) for f in feet),
        stock_=tuple(stock), pile_=tuple(pile),
        melds_=tuple(() for _ in r.sides),
        red_threes_=tuple(tuple(x) for x in red),
        opened=tuple(False for _ in r.sides),
        melded_before=tuple(False for _ in range(r.n)),
        turn=NEW_TURN, end=None, rules=r, talons_=talons,
        asked_before=tuple(False for _ in range(r.n)),
    )
