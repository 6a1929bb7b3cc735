"""Legality: the one place that decides which moves are legal and what they do.

:func:`legal_moves` lists candidate moves and keeps those that :func:`_step`
accepts; :func:`apply` runs the same :func:`_step`, so the two never disagree.

No dead ends: a step inside the play phase (meld, add, take the pile, ...) is
accepted only if the turn can still be finished legally afterwards: the opening
minimum can still be reached with a card left to discard, a partner's "yes" can
still be honoured, and so on. That question is answered exactly by
:func:`_outcomes`, a small dynamic programme over ranks of what the player's
hand can still add to the side's melds.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Any, SupportsIndex, TypeVar

from canasta.cards import JOKER, RANK_NAMES, Card, build_deck, parse_rank
from canasta.engine.moves import (
    RED_THREE,
    WILD_TARGET,
    Add,
    Answer,
    Ask,
    Discard,
    Draw,
    Foot,
    Meld,
    Move,
    NextHand,
    Pass,
    TakePile,
    kind_name,
    parse_move,
)
from canasta.engine.scoring import ScoreBreakdown, SideTable, score_table
from canasta.engine.state import (
    ANSWER,
    DRAW,
    GAME_OVER,
    HAND_OVER,
    NOT_ASKED,
    PLAY,
    TOLD_NO,
    TOLD_YES,
    GameState,
    HandEnd,
    MeldGroup,
    Turn,
)
from canasta.errors import CanastaError, IllegalMoveError, VariantError
from canasta.variant.model import Variant

__all__ = ["Rules", "apply", "check", "compile_rules", "legal_moves", "new_game"]

#: Whether this module runs compiled (built with ``CANASTA_COMPILE=1``; see
#: hatch_build.py) rather than as Python source.
COMPILED = __file__.endswith(tuple(EXTENSION_SUFFIXES))

BLACK_THREE = 3
_T = TypeVar("_T")
# the turn record every turn starts from (frozen, so one serves all)
_NEW_TURN = Turn()
_MASK = (1 << 64) - 1

# kind of each card code: its rank, except red 3s (kind 1)
KIND = [c >> 2 for c in range(64)]
KIND[13] = RED_THREE
KIND[14] = RED_THREE

_VALUE_FIELDS = {
    JOKER: "joker", 2: "two", 14: "ace", 13: "king", 12: "queen", 11: "jack", 10: "ten",
    9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four",
    BLACK_THREE: "black_three", RED_THREE: "red_three",
}


class Rules:
    """A variant compiled into the tables the engine reads on hot paths."""

    def __init__(self, v: Variant) -> None:
        self.v = v
        self.n = v.players.count
        self.sides = v.sides
        self.side_of = [0] * self.n
        self.partner = [-1] * self.n
        for i, seats in enumerate(self.sides):
            for seat in seats:
                self.side_of[seat] = i
                others = [s for s in seats if s != seat]
                self.partner[seat] = others[0] if others else -1
        self.wild = frozenset(parse_rank(r) for r in v.wilds.ranks)
        self.is_wild = [k in self.wild for k in range(16)]
        self.value = [0] * 16
        for kind, name in _VALUE_FIELDS.items():
            self.value[kind] = getattr(v.values, name)
        self.code_value = [self.value[KIND[c]] for c in range(64)]
        # natural kinds that can be melded as ranks
        self.natural_kinds = tuple(
            k for k in range(2, 15) if k != BLACK_THREE and k not in self.wild
        )
        self.is_natural = [k in self.natural_kinds for k in range(16)]
        self.wild_kinds = tuple(sorted(self.wild, reverse=True))

        def cls(kind: int) -> str:
            if kind in self.wild:
                return "wild"
            if kind == RED_THREE:
                return "red_three"
            if kind == BLACK_THREE:
                return "black_three"
            return "natural"

        self.cls = [cls(k) for k in range(16)]
        self.stop = [self.cls[k] in v.pile.stop_cards for k in range(16)]
        self.cover = [self.cls[k] in v.deal.upcard_covered_if for k in range(16)]
        m = v.melds
        self.min_size = m.min_size
        self.min_nat = m.min_naturals
        self.max_wilds = m.max_wilds
        self.max_size = m.max_size
        self.canasta_size = v.canastas.size
        self.new_size = max(m.min_size, m.min_naturals)
        self.red_in_deck = 2 * v.deck.decks
        go = v.going_out
        self.req = (go.canastas, go.natural_canastas, go.mixed_canastas, go.wild_canastas)
        self.partnerships = any(len(s) > 1 for s in self.sides)
        # Legality of natural melds by (naturals, wilds): the same for every
        # natural rank, and asked for often by the oracle's quick bounds.
        # Sized for every shape the decks can make.
        in_deck = [0] * 16
        for card in build_deck(v.deck.decks, v.deck.jokers_per_deck):
            in_deck[KIND[int(card)]] += 1
        most_n = max([in_deck[k] for k in self.natural_kinds], default=0) + 1
        most_j = sum(in_deck[k] for k in self.wild_kinds) + 2
        rank = self.natural_kinds[0] if self.natural_kinds else 4
        self.nat_add = [[self.valid(rank, n, j, False) for j in range(most_j)] for n in range(most_n)]
        self.nat_new = [[self.valid(rank, n, j, True) for j in range(most_j)] for n in range(most_n)]

    def __reduce__(self) -> tuple[Callable[[Variant], Rules], tuple[Variant]]:
        # tables are rebuilt from the variant (and shared through the cache),
        # which also pickles a compiled engine's Rules
        return compile_rules, (self.v,)

    def valid(self, rank: int, n: int, j: int, new: bool) -> bool:
        """Whether a meld of ``rank`` with ``n`` naturals and ``j`` wilds is legal."""
        size = n + j
        if self.max_size is not None and size > self.max_size:
            return False
        if new and size < self.min_size:
            return False
        if rank == WILD_TARGET:
            return n == 0 and self.v.melds.wild_melds
        if rank == BLACK_THREE:
            th = self.v.threes
            if th.black_meld == "never" or n < th.black_meld_min:
                return False
            if th.black_meld_max is not None and n > th.black_meld_max:
                return False
            return j == 0 or th.black_meld_wilds
        m = self.v.melds
        if n < self.min_nat or j > self.max_wilds:
            return False
        if m.wilds_at_most_naturals and j > n:
            return False
        if j >= 2:
            if m.second_wild == "by_size" and n + 2 < m.second_wild_size:
                return False
            if m.second_wild == "by_naturals" and n < m.second_wild_naturals:
                return False
        return True

    def closed(self, size: int) -> bool:
        """Whether a meld of ``size`` cards is closed to further cards."""
        return self.max_size is not None and size >= self.max_size

    def kind_of(self, rank: int, size: int, j: int) -> str | None:
        """Canasta kind of a meld, or ``None`` if it is no canasta."""
        if size < self.canasta_size or rank == BLACK_THREE:
            return None
        if rank == WILD_TARGET:
            return "wild"
        return "natural" if j == 0 else "mixed"

    def canasta_kind(self, meld: MeldGroup) -> str | None:
        """Canasta kind of ``meld``, or ``None``."""
        return self.kind_of(meld.rank, meld.size, meld.wilds)


@lru_cache(maxsize=64)
def compile_rules(variant: Variant) -> Rules:
    """Return the compiled tables of ``variant`` (cached).

    The variant is first checked as a profile file would be, so that one built
    in code (with ``attrs.evolve``, say) and holding a value no profile may hold
    is refused with the option and what it expects, instead of dealing a game
    that can stall.

    Raises:
        VariantError: a value of ``variant`` is out of its option's range.
    """
    # imported here: profiles is the loader, which the engine otherwise never needs
    from canasta.variant.loading import variant_from_dict, variant_to_dict

    try:
        variant_from_dict(variant_to_dict(variant))
    except VariantError as exc:
        raise VariantError(f"variant {variant.name!r}: {exc}") from None
    return Rules(variant)


# -- random numbers: SplitMix64, so a seed deals the same everywhere ----------


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
    state = seed & _MASK
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            state, x = _splitmix(state)
            if x < limit:
                break
        j = x % bound
        cards[i], cards[j] = cards[j], cards[i]


def _hand_seed(seed: int, hand_number: int) -> int:
    return _splitmix((seed * 0x100000001B3 + hand_number) & _MASK)[1]


# -- dealing --------------------------------------------------------------------


def new_game(variant: Variant, seed: SupportsIndex | None = None) -> GameState:
    """Deal the first hand of a game of ``variant``.

    Args:
        variant: the rules (see :func:`canasta.load_variant`).
        seed: any integer (or integer-like value, such as a NumPy integer); the
            same seed deals the same cards on every machine. ``None`` picks a
            random seed (kept in ``state.seed``).

    Raises:
        CanastaError: ``variant`` is not a Variant, ``seed`` is not an integer,
            or the decks cannot serve the deal.
    """
    if not isinstance(variant, Variant):
        raise CanastaError(f"new_game expects a Variant, got {type(variant).__name__}")
    if seed is None:
        number = int.from_bytes(os.urandom(8), "little")
    elif isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
        # checked here, not by the annotation: a compiled engine would refuse
        # a wrong type with a bare TypeError
        raise CanastaError(f"seed must be an integer, got {seed!r}")
    else:
        number = operator.index(seed)
    r = compile_rules(variant)
    n_sides = len(r.sides)
    return _deal(r, number, 0, r.n - 1, (0,) * n_sides, ())


def _deal(
    r: Rules, seed: int, hand_number: int, dealer: int,
    scores: tuple[int, ...], history: tuple[tuple[int, ...], ...],
) -> GameState:
    v = r.v
    deck: list[int] = [int(c) for c in build_deck(v.deck.decks, v.deck.jokers_per_deck)]
    need = r.n * (v.deal.hand_size + v.deal.foot_size) + (1 if v.deal.upcard else 0)
    if need > len(deck):
        raise CanastaError(
            f"variant {v.name!r}: the deal needs {need} cards but the decks hold {len(deck)}"
        )
    shuffle(deck, _hand_seed(seed, hand_number))
    stock = deck  # the top card is the last one
    order = [(dealer + 1 + i) % r.n for i in range(r.n)]
    hands: list[list[int]] = [[] for _ in range(r.n)]
    feet: list[list[int]] = [[] for _ in range(r.n)]
    for seat in order:
        for _ in range(v.deal.hand_size):
            hands[seat].append(stock.pop())
    for seat in order:
        for _ in range(v.deal.foot_size):
            feet[seat].append(stock.pop())
    pile: list[int] = []
    if v.deal.upcard:
        pile.append(stock.pop())
        while r.cover[KIND[pile[-1]]] and stock:
            pile.append(stock.pop())
    red: list[list[int]] = [[] for _ in r.sides]
    if v.threes.red_laid_at_once:
        for seat in order:
            hands[seat] = _lay_red_threes(r, hands[seat], stock, red[r.side_of[seat]])
    first = order[0]
    return GameState(
        variant=v, seed=seed, hand_number=hand_number, dealer=dealer, scores=scores,
        history=history, phase=DRAW, current=first,
        hands_=tuple(tuple(sorted(h)) for h in hands),
        feet_=tuple(tuple(sorted(f)) for f in feet),
        stock_=tuple(stock), pile_=tuple(pile),
        melds_=tuple(() for _ in r.sides),
        red_threes_=tuple(tuple(x) for x in red),
        opened=tuple(False for _ in r.sides),
        melded_before=tuple(False for _ in range(r.n)),
        turn=_NEW_TURN, end=None, rules=r,
    )


def _lay_red_threes(r: Rules, cards: list[int], stock: list[int], laid: list[int]) -> list[int]:
    """Lay every red 3 among ``cards``, replacing each from ``stock`` while it lasts."""
    out = []
    todo = list(cards)
    while todo:
        c = todo.pop()
        if KIND[c] == RED_THREE:
            laid.append(c)
            if stock:
                todo.append(stock.pop())
        else:
            out.append(c)
    return out


# -- small helpers ------------------------------------------------------------


@lru_cache(maxsize=4096)
def hand_counts(hand: tuple[int, ...]) -> tuple[int, ...]:
    """How many cards of each kind (index = kind) ``hand`` holds (cached)."""
    return _count_kinds(hand)


def _count_kinds(hand: Sequence[int]) -> tuple[int, ...]:
    """How many cards of each kind ``hand`` holds (uncached: most hands are new)."""
    counts = [0] * 16
    kind = KIND
    for card in hand:
        counts[kind[card]] += 1
    return tuple(counts)


def _remove(hand: Sequence[int], kinds: Sequence[int]) -> tuple[list[int], list[int]] | None:
    """Remove one card of each kind in ``kinds`` from ``hand`` (lowest codes first)."""
    rest = list(hand)
    taken = []
    for k in kinds:
        for i, c in enumerate(rest):
            if KIND[c] == k:
                taken.append(rest.pop(i))
                break
        else:
            return None
    return rest, taken


def _make_meld(r: Rules, rank: int, cards: Sequence[int]) -> MeldGroup:
    j = sum(1 for c in cards if r.is_wild[KIND[c]])
    return MeldGroup(rank, tuple(sorted(cards)), len(cards) - j, j)


def _open_meld(r: Rules, melds: Sequence[MeldGroup], rank: int) -> int:
    """Index of the side's open (not closed) meld of ``rank``, or -1."""
    for i, m in enumerate(melds):
        if m.rank == rank and not r.closed(m.size):
            return i
    return -1


def _canasta_counts(r: Rules, melds: tuple[MeldGroup, ...]) -> tuple[int, int, int, int]:
    """(canastas, natural, mixed, wild) among ``melds`` (worked out once per melds tuple)."""
    return _meld_info(r, melds).canasta_counts()


def _count_canastas(r: Rules, melds: Sequence[MeldGroup]) -> tuple[int, int, int, int]:
    tot = nat = mix = wld = 0
    for m in melds:
        kind = r.kind_of(m.rank, m.size, m.wilds)
        if kind is None:
            continue
        tot += 1
        if kind == "natural":
            nat += 1
        elif kind == "mixed":
            mix += 1
        else:
            wld += 1
    return tot, nat, mix, wld


def _req_met(r: Rules, counts: tuple[int, int, int, int]) -> bool:
    return all(have >= need for have, need in zip(counts, r.req, strict=False))


def _req_text(r: Rules) -> str:
    tot, nat, mix, wld = r.req
    parts = [f"{tot} canasta{'s' if tot != 1 else ''}"]
    kinds = [(nat, "natural"), (mix, "mixed"), (wld, "wild")]
    extra = [f"{k} {name}" for k, name in kinds if k]
    if extra:
        parts.append("including " + ", ".join(extra))
    return " ".join(parts)


def pile_frozen_for_all(s: GameState) -> bool:
    """Whether the pile holds a card that freezes it for both sides."""
    return _frozen_pile(s.rules, s.pile_)


@lru_cache(maxsize=4096)
def _frozen_pile(r: Rules, pile: tuple[int, ...]) -> bool:
    p = r.v.pile
    for c in pile:
        k = KIND[c]
        if (p.frozen_by_wild and r.is_wild[k]) or (p.frozen_by_red_three and k == RED_THREE):
            return True
    return False


def pile_frozen(s: GameState, side: int) -> bool:
    """Whether the pile is frozen against ``side``."""
    if s.variant.pile.frozen_until_opened and not s.opened[side]:
        return True
    return pile_frozen_for_all(s)


def opening_minimum(s: GameState, side: int) -> int:
    """The opening minimum of ``side`` in this hand."""
    return _opening_minimum(s.variant, s.scores[side], s.hand_number)


@lru_cache(maxsize=1024)
def _opening_minimum(v: Variant, score: int, hand_number: int) -> int:
    return v.opening_minimum(score, hand_number)


def _foot_available(s: GameState, seat: int, hand_len: int, melds: tuple[MeldGroup, ...]) -> bool:
    if not s.feet_[seat]:
        return False
    if s.variant.foot.trigger == "empty_hand":
        return hand_len == 0
    return _canasta_counts(s.rules, melds)[0] > 0


# -- the exact "can this turn still be finished?" oracle ----------------------


@lru_cache(maxsize=65536)
def _rank_options(
    r: Rules, rank: int, c: int, n0: int, j0: int, has_open: bool, may_new: bool, wmax: int
) -> tuple[tuple[int, int, int, int, int], ...]:
    """Ways to place up to ``c`` naturals of ``rank`` and up to ``wmax`` wilds.

    Returns tuples ``(naturals used, wilds used, d_total, d_natural, d_mixed)``
    where the d_ values are the changes in the side's canasta counts.
    """
    out: set[tuple[int, int, int, int, int]] = {(0, 0, 0, 0, 0)}
    dup = r.v.melds.duplicate_ranks == "after_complete"

    def kinds(n: int, j: int) -> tuple[int, int, int]:
        kind = r.kind_of(rank, n + j, j)
        return (
            1 if kind else 0,
            1 if kind == "natural" else 0,
            1 if kind == "mixed" else 0,
        )

    def grow(c_left: int, w_left: int, a: int, x: int, d: tuple[int, int, int], depth: int) -> None:
        # start a new meld of the rank (if allowed) after the previous one closed
        if depth > 3:
            return
        for an in range(0, c_left + 1):
            for xj in range(0, w_left + 1):
                if an + xj < r.new_size or not r.valid(rank, an, xj, True):
                    continue
                k = kinds(an, xj)
                nd = (d[0] + k[0], d[1] + k[1], d[2] + k[2])
                out.add((a + an, x + xj, *nd))
                if dup and r.closed(an + xj):
                    grow(c_left - an, w_left - xj, a + an, x + xj, nd, depth + 1)

    if has_open:
        k0 = kinds(n0, j0)
        for an in range(0, c + 1):
            for xj in range(0, wmax + 1):
                if not r.valid(rank, n0 + an, j0 + xj, False):
                    continue
                k = kinds(n0 + an, j0 + xj)
                d = (k[0] - k0[0], k[1] - k0[1], k[2] - k0[2])
                out.add((an, xj, *d))
                if dup and r.closed(n0 + an + j0 + xj):
                    grow(c - an, wmax - xj, an, xj, d, 1)
    elif may_new:
        grow(c, wmax, 0, 0, (0, 0, 0), 0)
    return tuple(sorted(out))


@lru_cache(maxsize=65536)
def _wild_options(r: Rules, w: int, j0: int, has_open: bool, may_new: bool) -> tuple[tuple[int, int], ...]:
    """Ways to place up to ``w`` wilds in wild melds: ``(wilds used, wild canastas gained)``."""
    out: set[tuple[int, int]] = {(0, 0)}
    if not r.v.melds.wild_melds:
        return tuple(out)
    dup = r.v.melds.duplicate_ranks == "after_complete"

    def is_c(size: int) -> int:
        return 1 if size >= r.canasta_size else 0

    def grow(left: int, used: int, gained: int, depth: int) -> None:
        if depth > 4:
            return
        for y in range(r.min_size, left + 1):
            if r.max_size is not None and y > r.max_size:
                break
            out.add((used + y, gained + is_c(y)))
            if dup and r.closed(y):
                grow(left - y, used + y, gained + is_c(y), depth + 1)

    if has_open:
        for y in range(0, w + 1):
            size = j0 + y
            if r.max_size is not None and size > r.max_size:
                break
            g = is_c(size) - is_c(j0)
            out.add((y, g))
            if dup and r.closed(size):
                grow(w - y, y, g, 1)
    elif may_new:
        grow(w, 0, 0, 0)
    return tuple(sorted(out))


Outcomes = dict[tuple[int, bool, bool], int]


@lru_cache(maxsize=65536)
def _outcomes(
    r: Rules,
    counts: tuple[int, ...],
    melds: tuple[MeldGroup, ...],
    allow_black: bool,
    max_left: int = 2,
) -> Outcomes:
    """What the hand ``counts`` can still add to the side's ``melds``.

    Returns a map ``(cards left (0, 1 or 2 = two or more), going-out canastas
    met, black 3s melded) -> most points added``. Plans that leave more than
    ``max_left`` cards are dropped early (going out leaves at most one).
    """
    wild_vals: list[int] = []
    for k in r.wild_kinds:
        wild_vals += [r.value[k]] * counts[k]
    wild_vals.sort(reverse=True)
    W = len(wild_vals)
    prefix = [0]
    for val in wild_vals:
        prefix.append(prefix[-1] + val)
    base = _canasta_counts(r, melds)
    cap = r.req
    cap0, cap1, cap2 = cap[0], cap[1], cap[2]
    # state: (wilds used, left, tot, nat, mix) -> natural points
    states: dict[tuple[int, int, int, int, int], int] = {
        (0, 0, min(base[0], cap0), min(base[1], cap1), min(base[2], cap2)): 0
    }
    dup = r.v.melds.duplicate_ranks == "after_complete"
    index = _meld_info(r, melds).index
    for rank in r.natural_kinds:
        c = counts[rank]
        oi = index.get(rank, -1)
        if c == 0 and oi < 0:
            continue
        if oi >= 0:
            m = melds[oi]
            opts = _rank_options(r, rank, c, m.naturals, m.wilds, True, False, W)
        else:
            may_new = dup or not any(m.rank == rank for m in melds)
            opts = _rank_options(r, rank, c, 0, 0, False, may_new, W)
        val = r.value[rank]
        new_states: dict[tuple[int, int, int, int, int], int] = {}
        get = new_states.get
        for (w, left, tot, nat, mix), pts in states.items():
            for a, x, dt, dn, dm in opts:
                w2 = w + x
                if w2 > W:
                    continue
                l2 = left + c - a
                if l2 > max_left:
                    if max_left < 2:
                        continue
                    l2 = 2
                t2 = tot + dt
                if t2 > cap0:
                    t2 = cap0
                n2 = nat + dn
                if n2 > cap1:
                    n2 = cap1
                m2 = mix + dm
                if m2 > cap2:
                    m2 = cap2
                key = (w2, l2, t2, n2, m2)
                p = pts + a * val
                if get(key, -1) < p:
                    new_states[key] = p
        states = new_states
    # black 3s: melded together (only where allowed) or left in hand
    b = counts[BLACK_THREE]
    black_ok = allow_black and b > 0 and r.valid(BLACK_THREE, b, 0, True)
    # wild melds take what wilds remain
    wi = _open_meld(r, melds, WILD_TARGET)
    w_exists = any(m.rank == WILD_TARGET for m in melds)
    result: Outcomes = {}
    for (w, left, tot, nat, mix), pts in states.items():
        if wi >= 0:
            wopts = _wild_options(r, W - w, melds[wi].wilds, True, False)
        else:
            wopts = _wild_options(r, W - w, 0, False, (not w_exists) or dup)
        for y, g in wopts:
            if w + y > W:
                continue
            used = w + y
            wild_left = W - used
            total_tot = min(cap[0], tot + g)
            ok = (
                total_tot >= cap[0] and nat >= cap[1] and mix >= cap[2]
                and min(cap[3], base[3] + g) >= cap[3]
            )
            for black in ((False, True) if black_ok else (False,)):
                lft = left + wild_left + (0 if black else b)
                if lft > max_left:
                    if max_left < 2:
                        continue
                    lft = 2
                p = pts + prefix[used] + (b * r.value[BLACK_THREE] if black else 0)
                key2 = (lft, ok, black)
                if result.get(key2, -1) < p:
                    result[key2] = p
    return result


class _Probe:
    """The parts of a turn that a step changes, to ask the oracle before building a state."""

    __slots__ = ("asked", "counts", "hand", "melds", "opened", "pending", "points", "took")

    def __init__(
        self,
        hand: tuple[int, ...],
        melds: tuple[MeldGroup, ...],
        opened: bool,
        points: int,
        pending: tuple[int, ...],
        asked: int,
        took: bool,
        counts: tuple[int, ...] | None = None,
    ) -> None:
        self.hand = hand
        # the hand's counts by kind, when the caller has them already
        self.counts = _count_kinds(hand) if counts is None else counts
        self.melds = melds
        self.opened = opened
        self.points = points
        self.pending = pending
        self.asked = asked
        self.took = took


def _probe(s: GameState) -> _Probe:
    c = _ctx(s)
    t = c.turn
    return _Probe(c.hand, c.melds, c.opened, t.points, t.pending, t.asked, t.took_pile, c.counts)


def _concealed_possible(s: GameState, took: bool) -> bool:
    return s.variant.going_out.concealed and not took and not s.melded_before[s.current]


def _stranded(r: Rules, counts: Sequence[int], melds: tuple[MeldGroup, ...], allow_black: bool) -> bool:
    """A quick test: must more than one card stay in hand (ranks that cannot be melded)?

    Going out leaves at most one card, so this settles the question without the
    full search; it stops at the second stranded card.
    """
    left = 0
    b = counts[BLACK_THREE]
    if b and not (allow_black and r.valid(BLACK_THREE, b, 0, True)):
        left = b
        if left > 1:
            return True
    present = _meld_info(r, melds).present
    need = r.min_nat
    for k in r.natural_kinds:
        c = counts[k]
        if c and c < need and k not in present:
            left += c
            if left > 1:
                return True
    return False


def _canastas_reachable(r: Rules, counts: Sequence[int], melds: tuple[MeldGroup, ...]) -> bool:
    """A quick necessary condition: could the side still have the canastas going out needs?"""
    need = r.req[0]
    info = _meld_info(r, melds)
    have = info.canasta_counts()[0]
    if have >= need:
        return True
    wilds = sum(counts[k] for k in r.wild_kinds)
    index = info.index
    for k in r.natural_kinds:
        c = counts[k]
        oi = index.get(k, -1)
        size = len(melds[oi].cards) if oi >= 0 else 0
        if size < r.canasta_size and (c or size) and size + c + wilds >= r.canasta_size:
            have += 1 + (c + wilds) // r.canasta_size  # generous: a bound, not a plan
    if r.v.melds.wild_melds:
        have += wilds // max(1, r.min_size)
    return have >= need


def _can_go_out(s: GameState, q: _Probe) -> bool:
    """Whether the current player can still go out this turn from ``q``."""
    r = s.rules
    v = s.variant
    p = s.current
    if q.asked == TOLD_NO:
        return False
    if s.feet_[p] and v.going_out.foot_first:
        # the foot must be picked up first (a move of its own); its cards are hidden
        return False
    if q.pending:
        # pile cards join the hand only once the opening is met from the hand
        return False
    counts = q.counts
    side = r.side_of[p]
    need = 0 if q.opened else opening_minimum(s, side) - q.points
    waived = (not q.opened) and v.opening.concealed_waives and _concealed_possible(s, q.took)
    allow_black = v.threes.black_meld != "never"
    final_optional = v.going_out.final_discard == "optional"
    if not _stranded(r, counts, q.melds, allow_black) and _canastas_reachable(r, counts, q.melds):
        # a quick greedy plan (_greedy_plan) often shows a way out at once;
        # the full search is needed only when it does not
        _upper, pts, left, plan = _greedy_plan(r, counts, q.melds, allow_black)
        if (
            (left == 1 or (left == 0 and final_optional))
            and (need <= 0 or pts >= need or waived)
            and _plan_meets_requirement(r, q.melds, plan)
        ):
            return True
        outs = _outcomes(r, counts, q.melds, allow_black, 1)
        for (left, ok, _black), pts in outs.items():
            if not ok or left == 2:
                continue
            if left == 0 and not final_optional:
                continue
            if need > 0 and pts < need and not waived:
                continue
            return True
    # black-3 out: everything else melded, exactly N black 3s kept, plus the discard
    n_out = v.threes.black_out_cards
    if n_out is not None and counts[BLACK_THREE] in (n_out, n_out + 1):
        extra = counts[BLACK_THREE] - n_out
        c2 = list(counts)
        c2[BLACK_THREE] = 0
        outs2 = _outcomes(r, tuple(c2), q.melds, False, 1)
        for (left, ok, _black), pts in outs2.items():
            if ok and left + extra == 1 and (need <= 0 or pts >= need or waived):
                return True
    return False


def _greedy_plan(
    r: Rules, counts: tuple[int, ...], melds: tuple[MeldGroup, ...], allow_black: bool
) -> tuple[int, int, int, list[list[int]]]:
    """Quick bounds on the points a hand can still add, and a plan that adds them.

    Returns (upper bound, greedy points, cards the plan leaves in hand, plan);
    each plan item is ``[rank, naturals, wilds, index]``: the meld's shape when
    the plan is done, and its index among ``melds`` (-1 for a new meld).

    The greedy plan adds every natural it can to the side's open melds, starts a
    meld of every rank held often enough, then of pairs completed with a wild
    card, and spreads the remaining wild cards over those melds while each stays
    legal. Each of its melds can be laid and grown one legal step at a time, so
    when the plan reaches the minimum with two cards to spare the full search is
    not needed; nor is it when the plan leaves at most one card and holds the
    canastas that going out needs (see :func:`_can_go_out`). The upper bound
    counts every card that could possibly be melded (a short rank only while
    wild cards remain to complete it).
    """
    info = _meld_info(r, melds)
    index = info.index
    present = info.present
    ok_add = r.nat_add  # r.valid for natural ranks, as tables
    ok_new = r.nat_new
    dup = r.v.melds.duplicate_ranks == "after_complete"
    wild_vals: list[int] = []
    for w in r.wild_kinds:
        wild_vals += [r.value[w]] * counts[w]
    wild_vals.sort(reverse=True)
    n_wild = len(wild_vals)
    upper = greedy = left = 0
    plan: list[list[int]] = []  # [rank, naturals, wilds, index] of melds the plan lays or grows
    short: list[tuple[int, int, int]] = []  # (points, rank, naturals) short of a new meld
    for k in r.natural_kinds:
        c = counts[k]
        if not c:
            continue
        val = r.value[k]
        oi = index.get(k, -1)
        if oi >= 0:
            upper += c * val
            om = melds[oi]
            room = c if r.max_size is None else min(c, r.max_size - om.size)
            while room > 0 and not ok_add[om.naturals + room][om.wilds]:
                room -= 1
            greedy += room * val
            left += c - room
            plan.append([k, om.naturals + room, om.wilds, oi])
        elif (k not in present or dup) and c >= r.min_nat:
            if c >= r.new_size:
                upper += c * val
                use = min(c, r.max_size or c)
                if ok_new[use][0]:
                    greedy += use * val
                    left += c - use
                    plan.append([k, use, 0, -1])
                else:
                    left += c
            else:
                short.append((c * val, k, c))
                left += c
        else:
            left += c
    short.sort(reverse=True)
    budget = n_wild
    used = 0
    for pts, k, c in short:
        need = r.new_size - c
        if need <= budget:
            upper += pts
            budget -= need
        if used + need <= n_wild and ok_new[c][need]:
            greedy += pts
            left -= c
            used += need
            plan.append([k, c, need, -1])
    for item in plan:
        while used < n_wild and ok_add[item[1]][item[2] + 1]:
            item[2] += 1
            used += 1
    upper += sum(wild_vals)
    greedy += sum(wild_vals[:used])
    left += n_wild - used
    b = counts[BLACK_THREE]
    if allow_black and b and r.valid(BLACK_THREE, b, 0, True):
        upper += b * r.value[BLACK_THREE]
    left += b
    return upper, greedy, left, plan


def _plan_meets_requirement(r: Rules, melds: tuple[MeldGroup, ...], plan: list[list[int]]) -> bool:
    """Whether the side's melds, once ``plan`` (see :func:`_greedy_plan`) is laid, hold the
    canastas that going out needs."""
    tot, nat, mix, wld = _meld_info(r, melds).canasta_counts()
    for rank, n, j, index in plan:
        if index >= 0:
            m = melds[index]
            before = r.kind_of(m.rank, len(m.cards), m.wilds)
            if before is not None:
                tot -= 1
                nat -= before == "natural"
                mix -= before == "mixed"
                wld -= before == "wild"
        after = r.kind_of(rank, n + j, j)
        if after is not None:
            tot += 1
            nat += after == "natural"
            mix += after == "mixed"
            wld += after == "wild"
    return _req_met(r, (tot, nat, mix, wld))


def _can_finish(s: GameState, q: _Probe) -> bool:
    """Whether the player in the play phase can still end the turn legally from ``q``."""
    r = s.rules
    v = s.variant
    p = s.current
    if q.asked == TOLD_YES:
        return _can_go_out(s, q)
    h = len(q.hand)
    if q.opened or not q.melds:
        if h >= 2:
            return True
        if h + len(s.feet_[p]) >= 2 and _foot_available(s, p, h, q.melds):
            return True
        if h == 1:
            if v.going_out.out_but_not_out:
                return True
            return _can_go_out(s, q)
        if q.opened:
            return False
    # unopened with melds laid this turn: the opening must still be reached
    side = r.side_of[p]
    need = opening_minimum(s, side) - q.points
    allow_black = v.threes.black_meld == "always"
    counts = q.counts
    pend = len(q.pending)
    upper, greedy, left_over, _plan = _greedy_plan(r, counts, q.melds, allow_black)
    if upper >= need:
        if greedy >= need and left_over + pend >= 2:
            return True
        outs = _outcomes(r, counts, q.melds, allow_black)
        final_optional = v.going_out.final_discard == "optional"
        foot_blocks = bool(s.feet_[p]) and v.going_out.foot_first
        told_no = q.asked == TOLD_NO
        for (left, ok, _black), pts in outs.items():
            if pts < need:
                continue
            eff = min(2, left + pend)
            if eff == 2:
                return True
            if eff == 1 and v.going_out.out_but_not_out:
                return True
            if ok and not told_no and not foot_blocks and (eff == 1 or final_optional):
                return True
    # going out concealed needs no minimum
    if _concealed_possible(s, q.took) and v.opening.concealed_waives:
        return _can_go_out(s, q)
    return False


# -- transitions ----------------------------------------------------------------


def _rebuild(
    s: GameState,
    *,
    phase: int | None = None,
    current: int | None = None,
    hands: tuple[tuple[int, ...], ...] | None = None,
    feet: tuple[tuple[int, ...], ...] | None = None,
    stock: tuple[int, ...] | None = None,
    pile: tuple[int, ...] | None = None,
    melds: tuple[tuple[MeldGroup, ...], ...] | None = None,
    red: tuple[tuple[int, ...], ...] | None = None,
    opened: tuple[bool, ...] | None = None,
    melded_before: tuple[bool, ...] | None = None,
    turn: Turn | None = None,
) -> GameState:
    return GameState(
        s.variant, s.seed, s.hand_number, s.dealer, s.scores, s.history,
        s.phase if phase is None else phase,
        s.current if current is None else current,
        s.hands_ if hands is None else hands,
        s.feet_ if feet is None else feet,
        s.stock_ if stock is None else stock,
        s.pile_ if pile is None else pile,
        s.melds_ if melds is None else melds,
        s.red_threes_ if red is None else red,
        s.opened if opened is None else opened,
        s.melded_before if melded_before is None else melded_before,
        s.turn if turn is None else turn,
        s.end, s.rules,
    )


def _set(t: tuple, i: int, value: object) -> tuple:  # type: ignore[type-arg]
    return (*t[:i], value, *t[i + 1:])


def _next_turn(s: GameState, hands: tuple[tuple[int, ...], ...], pile: tuple[int, ...]) -> GameState:
    """Pass the turn to the left after a discard that leaves ``hands`` and ``pile``.

    Ends the hand instead when the stock cannot serve the next player.
    """
    r = s.rules
    p = s.current
    mb = s.melded_before
    if s.turn.melded and not mb[p]:
        mb = _set(mb, p, True)
    nxt = (p + 1) % r.n
    s2 = GameState(
        s.variant, s.seed, s.hand_number, s.dealer, s.scores, s.history, DRAW, nxt,
        hands, s.feet_, s.stock_, pile, s.melds_, s.red_threes_, s.opened, mb, _NEW_TURN,
        s.end, r,
    )
    v = s.variant
    if v.draw.short_stock == "end_hand" and 0 < len(s.stock_) < v.draw.count:
        return _end_hand(s2, "stock", -1, False, False)
    return s2


def _end_hand(s: GameState, reason: str, seat: int, concealed: bool, black_out: bool) -> GameState:
    r = s.rules
    v = s.variant
    breakdowns = hand_breakdowns(s, reason, seat, concealed, black_out)
    hand_scores = tuple(b.total for b in breakdowns)
    scores = tuple(a + b for a, b in zip(s.scores, hand_scores, strict=False))
    history = (*s.history, hand_scores)
    over = False
    hands_played = s.hand_number + 1
    if v.game.rounds is not None and hands_played >= v.game.rounds:
        over = True
    if v.game.target is not None and max(scores) >= v.game.target:
        over = True
    if over and v.game.tie == "play_another":
        best = max(scores)
        if sum(1 for x in scores if x == best) > 1:
            over = False
    end = HandEnd(reason, seat, concealed, black_out, breakdowns)
    return GameState(
        v, s.seed, s.hand_number, s.dealer, scores, history,
        GAME_OVER if over else HAND_OVER, s.current,
        s.hands_, s.feet_, s.stock_, s.pile_, s.melds_, s.red_threes_, s.opened,
        s.melded_before, s.turn, end, r,
    )


def hand_breakdowns(
    s: GameState, reason: str, seat: int, concealed: bool, black_out: bool
) -> tuple[ScoreBreakdown, ...]:
    """Each side's itemized score for the hand that ``s`` ends."""
    r = s.rules
    out = []
    for side, seats in enumerate(r.sides):
        melds = tuple(
            (m.rank, tuple(r.code_value[c] for c in m.cards), r.canasta_kind(m))
            for m in s.melds_[side]
        )
        left: list[int] = []
        held = 0
        went = seat in seats and reason == "out"
        for p in seats:
            cards = list(s.hands_[p]) + list(s.feet_[p])
            if p == seat and s.turn.pending:
                cards += list(s.turn.pending)
            for c in cards:
                k = KIND[c]
                if k == RED_THREE:
                    held += 1
                elif black_out and p == seat and k == BLACK_THREE:
                    continue
                else:
                    left.append(r.code_value[c])
        table = SideTable(
            melds=melds, red_threes=len(s.red_threes_[side]), opened=s.opened[side],
            left_values=tuple(left), red_threes_held=held, went_out=went,
            concealed=went and concealed, black_three_out=went and black_out,
        )
        out.append(score_table(s.variant, table, r.red_in_deck))
    return tuple(out)


# -- what a state's steps share ---------------------------------------------------


def _no_ctx() -> None:
    return None


class _Ctx:
    """What every step asks of a state, worked out once per state.

    ``legal_moves`` asks about a dozen candidate moves of the same state, and
    ``apply`` usually follows on that state: each of them reads the mover's
    seat, side, hand counts and melds from here instead of working them out
    again. Held in the state's ``_ctx`` slot (see :func:`_ctx`) until a move is
    applied to the state.
    """

    __slots__ = ("counts", "hand", "info", "legal", "melds", "opened", "p", "r", "side", "turn", "v")

    def __init__(self, s: GameState) -> None:
        r = s.rules
        self.r = r
        self.v = r.v
        p = s.current
        self.p = p
        side = r.side_of[p]
        self.side = side
        hand = s.hands_[p]
        self.hand = hand
        self.counts = _count_kinds(hand)
        melds = s.melds_[side]
        self.melds = melds
        self.info = _meld_info(r, melds)
        self.opened = s.opened[side]
        self.turn = s.turn
        self.legal: tuple[Move, ...] | None = None

    def __reduce__(self) -> tuple[Callable[[], None], tuple[()]]:
        # a cache: a pickled state is rebuilt without it
        return _no_ctx, ()


def _ctx(s: GameState) -> _Ctx:
    """The state's :class:`_Ctx`, made on first use."""
    c: _Ctx | None = s._ctx
    if c is None:
        c = _Ctx(s)
        object.__setattr__(s, "_ctx", c)
    return c


# -- the steps ------------------------------------------------------------------
#
# Each step function validates a move and, when ``build`` is true, returns the
# next state. With ``build`` false it returns None for a legal move, so that
# legal_moves() can ask the very same code without paying for new states.

def _step(s: GameState, m: Move, build: bool = True) -> GameState | str | None:
    """The state after ``m`` (None when legal and ``build`` is false), or why it is illegal."""
    if s.phase == PLAY:
        handler = _PLAY_STEPS.get(type(m))
        if handler is not None:
            return handler(s, _ctx(s), m, build)
    if s.phase == GAME_OVER:
        return "the game is over"
    if isinstance(m, NextHand):
        if s.phase != HAND_OVER:
            return "the hand is not over yet"
        if not build:
            return None
        r = s.rules
        return _deal(r, s.seed, s.hand_number + 1, (s.dealer + 1) % r.n, s.scores, s.history)
    if s.phase == HAND_OVER:
        return "the hand is over: the only move is 'next'"
    if s.phase == ANSWER:
        if not isinstance(m, Answer):
            return "your partner asked to go out: answer 'yes' or 'no'"
        if not build:
            return None
        t = s.turn
        turn = Turn(t.took_pile, t.melded, t.points, t.pending,
                    TOLD_YES if m.yes else TOLD_NO, t.asker, t.drawn, t.played)
        return _rebuild(s, phase=PLAY, current=t.asker, turn=turn)
    if s.phase == DRAW:
        if isinstance(m, Draw):
            return _draw(s, build)
        if isinstance(m, TakePile):
            return _take(s, _ctx(s), m, build)
        if isinstance(m, Pass):
            return _pass(s, build)
        return f"first draw from the stock or take the pile ('{m}' comes later)"
    # PLAY, a move that is not a play-phase step
    if isinstance(m, (Draw, TakePile, Pass)):
        return "you have already drawn this turn"
    if isinstance(m, Answer):
        return "nobody has asked to go out"
    return f"'{m}' is not a move of the play phase"


def _draw(s: GameState, build: bool) -> GameState | str | None:
    r = s.rules
    v = s.variant
    if not s.stock_:
        return "the stock is empty: take the pile or pass"
    if not build:
        return None
    p = s.current
    stock_ = s.stock_
    n = v.draw.count
    if len(stock_) >= n:
        # the common case, without lists: the top n cards, none of them a red 3
        drawn_t = stock_[-n:][::-1]  # top card first, as if drawn one by one
        if not v.threes.red_laid_at_once or all(KIND[card] != RED_THREE for card in drawn_t):
            return GameState(
                s.variant, s.seed, s.hand_number, s.dealer, s.scores, s.history, PLAY, p,
                _set(s.hands_, p, tuple(sorted(s.hands_[p] + drawn_t))), s.feet_, stock_[:-n],
                s.pile_, s.melds_, s.red_threes_, s.opened, s.melded_before,
                Turn(False, False, 0, (), NOT_ASKED, -1, drawn_t, ()), s.end, r,
            )
    stock = list(stock_)
    side = r.side_of[p]
    red = list(s.red_threes_[side])
    drawn: list[int] = []
    unreplaced = False
    for _ in range(min(v.draw.count, len(stock))):
        if not stock:
            break
        c = stock.pop()
        while v.threes.red_laid_at_once and KIND[c] == RED_THREE:
            red.append(c)
            if not stock:
                unreplaced = True
                break
            c = stock.pop()
        else:
            drawn.append(c)
    hand = tuple(sorted(s.hands_[p] + tuple(drawn)))
    s2 = _rebuild(
        s, phase=PLAY, hands=_set(s.hands_, p, hand), stock=tuple(stock),
        red=_set(s.red_threes_, side, tuple(red)), turn=Turn(drawn=tuple(drawn)),
    )
    if unreplaced:
        # A red 3 drawn as the last card of the stock is laid but cannot be
        # replaced: the player may not meld or discard, and the hand ends
        # (Pagat's classic rule; the seed texts say only that it is not replaced).
        return _end_hand(s2, "stock", -1, False, False)
    return s2


def _pass(s: GameState, build: bool) -> GameState | str | None:
    if s.stock_:
        return "the stock is not empty: draw"
    must = s.variant.pile.must_take_when_stock_empty
    c = _ctx(s)
    if must == "lay_off" and _take(s, c, TakePile("layoff"), False) is None:
        return "the stock is empty and you can take the pile by laying its top card off: you must take it"
    if must == "any":
        for way in _take_candidates(s, c):
            if _take(s, c, way, False) is None:
                return f"the stock is empty and you can take the pile ('{way}'): you must take it"
    if not build:
        return None
    return _end_hand(s, "stock", -1, False, False)


def _take(s: GameState, c: _Ctx, m: TakePile, build: bool) -> GameState | str | None:
    r = c.r
    v = c.v
    pr = v.pile
    if not s.pile_:
        return "the discard pile is empty"
    p = c.p
    side = c.side
    top = s.pile_[-1]
    k = KIND[top]
    if r.stop[k]:
        return f"the top card {Card(top)} is a stop card: the pile cannot be taken"
    if not r.is_natural[k]:
        return f"the top card {Card(top)} cannot be melded, so the pile cannot be taken"
    rank = RANK_NAMES[k]
    hand = c.hand
    counts = c.counts
    if m.way == "pair" and counts[k] < 2 and pr.take_natural_pair:
        why = "the pile is frozen: " if pile_frozen(s, side) else ""
        return f"{why}taking it needs two natural {rank}s from your hand"
    melds = c.melds
    oi = c.info.index.get(k, -1)
    if m.way == "layoff" and oi < 0 and pr.take_lay_off:
        return f"your side has no open meld of {rank}s to lay the top card off on"
    frozen = pile_frozen(s, side)
    blocked = (
        pr.blocked_by_meld_size is not None and oi >= 0 and melds[oi].size >= pr.blocked_by_meld_size
    )
    new_melds = list(melds)
    used: list[int] = []
    if m.way == "finish":
        if not blocked or not pr.blocked_exception:
            return f"'take finish' is only for a pile blocked by the side's meld of {rank}s"
        need = r.canasta_size - melds[oi].size
        if counts[k] < need + 2:
            return (
                f"taking the pile on your {melds[oi].size}-card meld of {rank}s needs {need + 2} "
                f"natural {rank}s in hand: {need} to finish it and 2 to start a new meld"
            )
        om = melds[oi]
        if not r.valid(k, om.naturals + need, om.wilds, False):
            return f"the meld of {rank}s cannot take {need} more {rank}s"
        if v.melds.duplicate_ranks != "after_complete" or not r.closed(om.size + need):
            return f"the side may not start a second meld of {rank}s"
        got = _remove(hand, [k] * (need + 2))
        assert got is not None
        rest, used = got
        new_melds[oi] = _make_meld(r, k, om.cards + tuple(used[:need]))
        new_melds.append(_make_meld(r, k, (*used[need:], top)))
    else:
        if blocked:
            hint = " (with enough naturals, 'take finish')" if pr.blocked_exception else ""
            return (
                f"the side's meld of {rank}s has {melds[oi].size} cards: the pile cannot be "
                f"taken on a {rank}{hint}"
            )
        if m.way == "pair":
            if not pr.take_natural_pair:
                return "this variant does not let a natural pair take the pile"
            if counts[k] < 2:
                why = "the pile is frozen: " if frozen else ""
                return f"{why}taking it needs two natural {rank}s from your hand"
            kinds = [k, k]
        elif m.way == "wild":
            if not pr.take_natural_and_wild:
                return "this variant does not let a natural and a wild card take the pile"
            if frozen:
                return f"the pile is frozen: taking it needs two natural {rank}s from your hand"
            if not (isinstance(m.wild, int) and 0 <= m.wild <= 15 and r.is_wild[m.wild]):
                return f"{kind_name(m.wild)} is not a wild card"
            if counts[k] < 1 or counts[m.wild] < 1:
                return f"taking it this way needs a natural {rank} and a {kind_name(m.wild)} in hand"
            kinds = [k, m.wild]
        elif m.way == "layoff":
            if not pr.take_lay_off:
                return "this variant does not let the top card be laid off to take the pile"
            if frozen:
                return f"the pile is frozen: taking it needs two natural {rank}s from your hand"
            if oi < 0:
                return f"your side has no open meld of {rank}s to lay the top card off on"
            made = any(mm.rank == k and mm.size >= r.canasta_size for mm in melds)
            if made and not pr.lay_off_after_canasta:
                return (
                    f"your side has already made a canasta of {rank}s this hand: taking the "
                    f"pile needs a natural pair of {rank}s"
                )
            kinds = []
        else:
            return f"unknown way of taking the pile: {m.way!r}"
        for kk in set(kinds):
            if counts[kk] < kinds.count(kk):
                return "you do not hold the cards for that"
        n_add = 1 + sum(1 for kk in kinds if not r.is_wild[kk])
        j_add = len(kinds) + 1 - n_add
        if oi >= 0:
            om = melds[oi]
            if not r.valid(k, om.naturals + n_add, om.wilds + j_add, False):
                return f"the meld of {rank}s cannot take those cards"
        else:
            if any(mm.rank == k for mm in melds) and v.melds.duplicate_ranks != "after_complete":
                return f"the side may not start a second meld of {rank}s"
            if not r.valid(k, n_add, j_add, True):
                names = " ".join(kind_name(kk) for kk in (*kinds, k))
                return f"{names} is not a legal meld"
        if not build and c.opened:
            # the common case: an opened side keeps two cards, so a discard always remains
            keep = len(hand) - len(kinds)
            if keep < 2:
                keep += sum(1 for card in s.pile_[:-1] if KIND[card] != RED_THREE)
            if keep >= 2:
                return None
        got = _remove(hand, kinds)
        assert got is not None
        rest, used = got
        cards = (*used, top)
        if oi >= 0:
            om = melds[oi]
            nm = _make_meld(r, k, om.cards + cards)
            if not r.valid(k, nm.naturals, nm.wilds, False):
                return f"the meld of {rank}s cannot take those cards"
            new_melds[oi] = nm
        else:
            if any(mm.rank == k for mm in melds) and v.melds.duplicate_ranks != "after_complete":
                return f"the side may not start a second meld of {rank}s"
            nm = _make_meld(r, k, cards)
            if not r.valid(k, nm.naturals, nm.wilds, True):
                return f"{' '.join(kind_name(KIND[c]) for c in cards)} is not a legal meld"
            new_melds.append(nm)
    # the rest of the pile: red 3s are laid (not replaced), the rest joins the hand
    pile_rest = [c for c in s.pile_[:-1] if KIND[c] != RED_THREE]
    opened = s.opened[side]
    points = 0
    pending: tuple[int, ...] = ()
    if opened:
        hand_after = tuple(sorted((*rest, *pile_rest)))
    else:
        points = sum(r.code_value[c] for c in used)
        if v.opening.top_card_counts:
            points += r.code_value[top]
        if points >= opening_minimum(s, side):
            opened = True
            hand_after = tuple(sorted((*rest, *pile_rest)))
        else:
            hand_after = tuple(rest)
            pending = tuple(sorted(pile_rest))
    melds_after = tuple(new_melds)
    q = _Probe(hand_after, melds_after, opened, points, pending, NOT_ASKED, True)
    if not _can_finish(s, q):
        if not s.opened[side]:
            need = opening_minimum(s, side)
            return (
                f"the side has not opened: taking the pile needs melds from your hand worth "
                f"{need} points with the top card, and a card left to discard"
            )
        return "after taking the pile you could not finish the turn legally"
    if not build:
        return None
    red = s.red_threes_[side] + tuple(c for c in s.pile_[:-1] if KIND[c] == RED_THREE)
    return _rebuild(
        s, phase=PLAY, hands=_set(s.hands_, p, hand_after), pile=(),
        melds=_set(s.melds_, side, melds_after), red=_set(s.red_threes_, side, red),
        opened=_set(s.opened, side, opened),
        turn=Turn(took_pile=True, melded=True, points=points, pending=pending,
                  played=(*used, top)),
    )


def _play_cards(
    s: GameState, c: _Ctx, move: Move, kinds: Sequence[int], index: int, rank: int, build: bool,
) -> GameState | str | None:
    """Common end of a meld or add: move ``kinds`` from hand to meld ``index`` (or a new one).

    Handles the opening minimum, the hand running out, and dead ends.
    """
    hand0 = c.hand
    counts = c.counts
    if len(kinds) == 1:
        if not counts[kinds[0]]:
            return f"you do not hold {kind_name(kinds[0])}"
    else:
        for k, n in _needs(tuple(kinds)):
            if counts[k] < n:
                return f"you do not hold {' '.join(kind_name(k) for k in kinds)}"
    t = c.turn
    # the common case: an opened side keeps two cards, so a discard always
    # remains and the turn can be finished (what _can_finish would say)
    keeps_two = (
        c.opened and t.asked != TOLD_YES and rank != BLACK_THREE and len(hand0) - len(kinds) >= 2
    )
    if keeps_two and not build:
        return None
    r = c.r
    v = c.v
    p = c.p
    side = c.side
    got = _remove(hand0, kinds)
    assert got is not None
    rest, used = got
    melds = list(c.melds)
    if index < 0:
        melds.append(_make_meld(r, rank, used))
    else:
        melds[index] = _make_meld(r, rank, melds[index].cards + tuple(used))
    opened = c.opened
    pending = t.pending
    hand = tuple(rest)
    counts_after: tuple[int, ...] | None = None  # for the probes below
    if not keeps_two:
        left = list(counts)
        for k in kinds:
            left[k] -= 1
        counts_after = tuple(left)
    total = t.points
    if not opened:
        total += sum(r.code_value[card] for card in used)
        if total >= opening_minimum(s, side):
            opened = True
            if pending:
                hand = tuple(sorted(hand + pending))
                pending = ()
                counts_after = None
    melds_t = tuple(melds)
    going_out = False
    if keeps_two:
        pass
    elif not hand:
        if not _foot_available(s, p, 0, melds_t):
            # melding the last card goes out
            if v.going_out.final_discard != "optional":
                return f"'{move}' would leave you no card: in this variant you go out by discarding"
            q = _Probe(hand, melds_t, opened, total, pending, t.asked, t.took_pile, counts_after)
            err = _going_out_error(s, q)
            if err:
                return f"'{move}' would meld your last card, but {err}"
            going_out = True
    elif rank == BLACK_THREE and v.threes.black_meld == "going_out_only":
        # only as part of going out: the hand must end this turn with this meld
        q = _Probe(hand, melds_t, opened, total, pending, t.asked, t.took_pile, counts_after)
        if len(hand) > 1 or _going_out_error(s, q):
            return "black 3s may be melded only when going out"
    elif not _can_finish(
        s, _Probe(hand, melds_t, opened, total, pending, t.asked, t.took_pile, counts_after)
    ):
        if t.asked == TOLD_YES:
            return f"after '{move}' you could no longer go out, and your partner said yes"
        if not opened:
            need = opening_minimum(s, side)
            return (
                f"after '{move}' the side could no longer reach its opening minimum of {need} "
                f"points with a card left to discard"
            )
        if t.asked == TOLD_NO:
            return f"after '{move}' you would have to go out, and your partner said no"
        return f"after '{move}' you could not finish the turn legally (keep a card to discard)"
    if not build:
        return None
    s2 = GameState(
        s.variant, s.seed, s.hand_number, s.dealer, s.scores, s.history, s.phase, p,
        _set(s.hands_, p, hand), s.feet_, s.stock_, s.pile_, _set(s.melds_, side, melds_t),
        s.red_threes_, s.opened if opened == c.opened else _set(s.opened, side, opened),
        s.melded_before,
        Turn(t.took_pile, True, total, pending, t.asked, t.asker, t.drawn, t.played + tuple(used)),
        s.end, r,
    )
    if going_out:
        return _end_hand(s2, "out", p, _concealed_possible(s, t.took_pile), False)
    return s2


def _meld(s: GameState, c: _Ctx, m: Meld, build: bool) -> GameState | str | None:
    shape = _meld_shape(c.r, m.kinds)
    if isinstance(shape, str):
        return shape
    rank = shape
    info = c.info
    if rank in info.present:
        label = "wild cards" if rank == WILD_TARGET else f"{kind_name(rank)}s"
        if rank in info.index:
            return f"your side already has a meld of {label}: add to it"
        if c.v.melds.duplicate_ranks != "after_complete":
            return f"your side already has a meld of {label}"
    return _play_cards(s, c, m, m.kinds, -1, rank, build)


@lru_cache(maxsize=4096)
def _needs(kinds: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """``(kind, how many)`` for each distinct kind in ``kinds``."""
    return tuple((k, kinds.count(k)) for k in sorted(set(kinds)))


@lru_cache(maxsize=4096)
def _meld_shape(r: Rules, kinds_t: tuple[int, ...]) -> int | str:
    """The rank of a new meld of ``kinds_t`` (0 for wild cards), or why no such meld is legal.

    Only what the cards themselves decide; the table and the hand are checked by
    the caller.
    """
    v = r.v
    kinds = list(kinds_t)
    if not kinds or any(not isinstance(k, int) or not 1 <= k <= 15 for k in kinds):
        return f"'meld {' '.join(map(str, kinds))}' does not name cards"
    naturals = [k for k in kinds if not r.is_wild[k]]
    n, j = len(naturals), len(kinds) - len(naturals)
    if RED_THREE in kinds:
        return "red 3s are laid on their own, never melded"
    if not naturals:
        rank = WILD_TARGET
        if not v.melds.wild_melds:
            return "this variant has no melds of wild cards only"
    else:
        rank = naturals[0]
        if any(k != rank for k in naturals):
            return "a meld holds natural cards of one rank only"
    if rank == BLACK_THREE:
        th = v.threes
        if th.black_meld == "never":
            return "black 3s may never be melded in this variant"
        if not r.valid(BLACK_THREE, n, j, True):
            most = th.black_meld_max
            span = f"{th.black_meld_min} to {most}" if most else f"at least {th.black_meld_min}"
            wild = "" if th.black_meld_wilds else ", no wild cards"
            return f"a meld of black 3s has {span} black 3s{wild}"
    else:
        if rank != WILD_TARGET and not r.is_natural[rank]:
            return f"{kind_name(rank)}s cannot be melded"
        if len(kinds) != r.new_size:
            return f"lay a new meld with exactly {r.new_size} cards, then add cards one at a time"
        if not r.valid(rank, n, j, True):
            return _meld_rule_text(r, rank, n, j)
    return rank


def _meld_rule_text(r: Rules, rank: int, n: int, j: int) -> str:
    mr = r.v.melds
    if rank == WILD_TARGET:
        if r.max_size is not None and j > r.max_size:
            return f"a meld holds at most {r.max_size} cards"
        return f"a meld of wild cards needs at least {r.min_size} cards"
    if n < r.min_nat:
        return f"a meld needs at least {r.min_nat} natural cards"
    if j > r.max_wilds:
        return f"a meld may hold at most {r.max_wilds} wild cards"
    if mr.wilds_at_most_naturals and j > n:
        return "a meld may not hold more wild cards than natural cards"
    if j >= 2 and mr.second_wild == "by_size" and n + 2 < mr.second_wild_size:
        return (
            f"a second wild card may join a meld only as its card number "
            f"{mr.second_wild_size} or later"
        )
    if j >= 2 and mr.second_wild == "by_naturals" and n < mr.second_wild_naturals:
        return (
            f"a second wild card may join a meld only once it holds "
            f"{mr.second_wild_naturals} naturals"
        )
    if r.max_size is not None and n + j > r.max_size:
        return f"a meld holds at most {r.max_size} cards"
    return "that is not a legal meld"


def _add(s: GameState, c: _Ctx, m: Add, build: bool) -> GameState | str | None:
    r = c.r
    melds = c.melds
    target = m.target
    if not (isinstance(target, int) and 0 <= target <= 15) or not (
        isinstance(m.kind, int) and 1 <= m.kind <= 15
    ):
        return f"'add {target} {m.kind}' does not name a meld and a card"
    oi = c.info.index.get(target, -1)
    if oi < 0:
        label = "wild cards" if target == WILD_TARGET else f"{kind_name(target)}s"
        if any(mm.rank == target for mm in melds):
            return f"your side's meld of {label} is complete and closed"
        return f"your side has no meld of {label}"
    if target == BLACK_THREE:
        return "a meld of black 3s is laid whole when going out"
    k = m.kind
    if k == RED_THREE:
        return "red 3s are laid on their own, never melded"
    wild = r.is_wild[k]
    if not wild and k != target:
        label = "wild cards" if target == WILD_TARGET else f"{kind_name(target)}s"
        return f"a {kind_name(k)} cannot join the meld of {label}"
    om = melds[oi]
    n = om.naturals + (0 if wild else 1)
    j = om.wilds + (1 if wild else 0)
    if not r.valid(target, n, j, False):
        return _meld_rule_text(r, target, n, j)
    return _play_cards(s, c, m, _ONE[k], oi, target, build)


def _going_out_error(s: GameState, q: _Probe) -> str | None:
    """Why the current player may not go out with the table of ``q``, or None."""
    r = s.rules
    v = s.variant
    p = s.current
    side = r.side_of[p]
    if q.asked == TOLD_NO:
        return "your partner said no: you may not go out this turn"
    if s.feet_[p] and v.going_out.foot_first:
        return "you must pick up your foot before going out"
    if not _req_met(r, _canasta_counts(r, q.melds)):
        return f"going out needs {_req_text(r)}"
    if not q.opened and q.melds and not (
        v.opening.concealed_waives and _concealed_possible(s, q.took)
    ):
        return (
            f"the melds laid this turn total {q.points} points; the side's opening "
            f"needs {opening_minimum(s, side)}"
        )
    return None


def _discard(s: GameState, c: _Ctx, m: Discard, build: bool) -> GameState | str | None:
    v = c.v
    p = c.p
    k = m.kind
    if k == RED_THREE:
        return "a red 3 is never discarded"
    hand = c.hand
    t = c.turn
    if not 0 <= k < 16 or not c.counts[k]:
        return f"you hold no {kind_name(k) if 0 <= k < 16 else k}"
    left = len(hand) - 1
    if t.pending:
        return "the side has not yet met its opening minimum with the pile's top card"
    black_out = False
    if m.out:
        if left:
            n_out = v.threes.black_out_cards
            black_out = (
                n_out is not None and left == n_out
                and c.counts[BLACK_THREE] - (k == BLACK_THREE) == n_out
            )
            if not black_out:
                return "going out means discarding your last card"
        err = _going_out_error(s, _probe(s))
        if err:
            return err
    else:
        if t.asked == TOLD_YES:
            return "your partner said yes: you must go out this turn"
        if not c.opened and c.melds:
            return (
                f"the melds laid this turn total {t.points} points; the side's opening "
                f"needs {opening_minimum(s, c.side)}"
            )
        if left == 0 and not v.going_out.out_but_not_out:
            return f"discarding your last card goes out: write 'out {kind_name(k)}'"
    if not build:
        return None
    i = 0
    kind = KIND
    while kind[hand[i]] != k:  # the hand holds a k: checked above
        i += 1
    hands = _set(s.hands_, p, hand[:i] + hand[i + 1:])
    pile = (*s.pile_, hand[i])
    if m.out:
        s2 = _rebuild(s, hands=hands, pile=pile)
        concealed = _concealed_possible(s, t.took_pile) and t.melded
        return _end_hand(s2, "out", p, concealed, black_out)
    return _next_turn(s, hands, pile)


def _foot(s: GameState, c: _Ctx, build: bool) -> GameState | str | None:
    r = c.r
    p = c.p
    side = c.side
    if not s.feet_[p]:
        return "you have no foot to pick up"
    if not _foot_available(s, p, len(s.hands_[p]), s.melds_[side]):
        if s.variant.foot.trigger == "empty_hand":
            return "you may pick up your foot only when your hand is empty"
        return "you may pick up your foot once your side has completed a canasta"
    if s.turn.asked == TOLD_YES:
        # the foot's cards are unknown until picked up: a 'yes' was given for the hand held
        return "your partner said yes to going out with the cards you hold"
    if not build:
        return None
    stock = list(s.stock_)
    red = list(s.red_threes_[side])
    foot = list(s.feet_[p])
    cards = _lay_red_threes(r, foot, stock, red) if s.variant.threes.red_laid_at_once else foot
    hand = tuple(sorted(s.hands_[p] + tuple(cards)))
    return _rebuild(
        s, hands=_set(s.hands_, p, hand), feet=_set(s.feet_, p, ()), stock=tuple(stock),
        red=_set(s.red_threes_, side, tuple(red)),
    )


def _ask(s: GameState, c: _Ctx, build: bool) -> GameState | str | None:
    r = c.r
    p = c.p
    if not s.variant.going_out.ask_partner or r.partner[p] < 0:
        return "there is no partner to ask in this variant"
    t = s.turn
    if t.asked != NOT_ASKED:
        return "you have already asked this turn"
    if t.melded:
        # the question comes before the player lays anything this turn (Pagat)
        return "ask before you meld: you have already laid cards this turn"
    q = _probe(s)
    q.asked = TOLD_YES
    if not _can_go_out(s, q):
        return "you cannot go out this turn, so there is nothing to ask"
    q.asked = TOLD_NO
    if not _can_finish(s, q):
        return "you could not finish the turn without going out, so there is nothing to ask"
    if not build:
        return None
    return _rebuild(
        s, phase=ANSWER, current=r.partner[p],
        turn=Turn(t.took_pile, t.melded, t.points, t.pending, NOT_ASKED, p, t.drawn, t.played),
    )


_PLAY_STEPS: dict[type, Callable[[GameState, _Ctx, Any, bool], GameState | str | None]] = {
    Discard: _discard,
    Add: _add,
    Meld: _meld,
    Foot: lambda s, c, m, build: _foot(s, c, build),
    Ask: lambda s, c, m, build: _ask(s, c, build),
}
# one-card kind lists, shared instead of built per call
_ONE = [(k,) for k in range(16)]


# -- candidates -------------------------------------------------------------------


_TAKES = (TakePile("pair"), TakePile("layoff"), TakePile("finish"))


def _take_candidates(s: GameState, c: _Ctx | None = None) -> list[TakePile]:
    """Ways of taking the pile worth asking :func:`_take` about (a superset of the legal ones).

    Ways whose cards are plainly missing (no pair of the top card's rank in
    hand, no meld to lay it off on) are left out: :func:`_take` refuses them
    first thing, and most draw-phase states have them.
    """
    if c is None:
        c = _ctx(s)
    r = c.r
    if not s.pile_:
        return []
    k = KIND[s.pile_[-1]]
    if r.stop[k] or not r.is_natural[k]:
        return []
    counts = c.counts
    has_meld = k in c.info.index
    out = []
    for way in _take_ways(r):
        w = way.way
        if w == "pair":
            if counts[k] < 2:
                continue
        elif w == "wild":
            if not counts[k] or not counts[way.wild]:
                continue
        elif not has_meld:  # "layoff" and "finish" need the side's open meld of the rank
            continue
        out.append(way)
    return out


@lru_cache(maxsize=64)
def _take_ways(r: Rules) -> tuple[TakePile, ...]:
    """The ways of taking the pile that the variant has at all."""
    pr = r.v.pile
    out = [
        way for way, on in zip(
            _TAKES,
            (pr.take_natural_pair, pr.take_lay_off, pr.blocked_by_meld_size is not None),
            strict=True,
        ) if on
    ]
    if pr.take_natural_and_wild:
        out += [TakePile("wild", w) for w in r.wild_kinds]
    return tuple(out)


def _candidates(s: GameState, c: _Ctx | None = None) -> list[Move]:
    """Moves worth asking :func:`_step` about: a superset of the legal moves."""
    if c is None:
        c = _ctx(s)
    r = c.r
    if s.phase == HAND_OVER:
        return [_NEXT]
    if s.phase == GAME_OVER:
        return []
    if s.phase == ANSWER:
        return [_YES, _NO]
    if s.phase == DRAW:
        if s.stock_:
            return [_DRAW, *_take_candidates(s, c)]
        return [*_take_candidates(s, c), _PASS]
    p = c.p
    hand = c.hand
    counts = c.counts
    v = c.v
    out: list[Move] = []
    if s.feet_[p]:
        out.append(_FOOT)
    if (
        v.going_out.ask_partner and r.partner[p] >= 0 and c.turn.asked == NOT_ASKED
        and not c.turn.melded
    ):
        out.append(_ASK)
    info = c.info
    open_ranks, present = info.open_ranks, info.present
    dup = v.melds.duplicate_ranks == "after_complete"
    new_melds, discards = _hand_candidates(r, counts)
    index = info.index
    for rank, mv in new_melds:
        # a new meld of a rank the side already has is refused: not worth asking
        if rank in index or (rank in present and not dup):
            continue
        out.append(mv)
    wilds = [w for w in r.wild_kinds if counts[w]]
    for rank in open_ranks:
        if rank == BLACK_THREE:
            continue
        row = _ADD[rank]
        if rank != WILD_TARGET and counts[rank]:
            out.append(row[rank])
        for w in wilds:
            out.append(row[w])
    out.extend(discards)
    h = len(hand)
    n_out = v.threes.black_out_cards
    if h == 1 or (n_out is not None and h == n_out + 1 and counts[BLACK_THREE] >= n_out):
        out.extend(_OUT[d.kind] for d in discards)
    return out


class _MeldInfo:
    """What the engine asks of a side's melds again and again, worked out once."""

    __slots__ = ("_canastas", "index", "melds", "open_ranks", "present", "rules")

    def __init__(self, r: Rules, melds: tuple[MeldGroup, ...]) -> None:
        self.rules = r
        self.melds = melds  # held, so that the tuple's id stays its own while cached
        index: dict[int, int] = {}
        open_ranks: list[int] = []
        present: set[int] = set()
        most = r.max_size
        for i, m in enumerate(melds):
            rank = m.rank
            present.add(rank)
            if most is None or len(m.cards) < most:  # not closed (Rules.closed)
                open_ranks.append(rank)
                if rank not in index:
                    index[rank] = i
        self.index = index
        self.open_ranks = tuple(open_ranks)
        self.present = present
        self._canastas: tuple[int, int, int, int] | None = None

    def canasta_counts(self) -> tuple[int, int, int, int]:
        """(canastas, natural, mixed, wild) among the melds."""
        got = self._canastas
        if got is None:
            got = self._canastas = _count_canastas(self.rules, self.melds)
        return got


_MELD_INFO: dict[int, _MeldInfo] = {}


def _meld_info(r: Rules, melds: tuple[MeldGroup, ...]) -> _MeldInfo:
    # Keyed by identity: states share their melds tuple until it changes, and
    # hashing it would hash every meld. The entry holds the tuple, so its id
    # cannot be reused by another object while the entry exists.
    info = _MELD_INFO.get(id(melds))
    if info is not None and info.melds is melds and info.rules is r:
        return info
    if len(_MELD_INFO) >= 8192:
        _MELD_INFO.clear()
    info = _MELD_INFO[id(melds)] = _MeldInfo(r, melds)
    return info


# every add move, by target and kind, made once
_ADD = [[Add(target, kind) for kind in range(16)] for target in range(16)]


@lru_cache(maxsize=4096)
def _meld_move(kinds: tuple[int, ...]) -> Meld:
    return Meld(kinds)


def _sig_wilds(r: Rules, wild_sig: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Counts by kind of the wild cards in ``wild_sig`` (one number per ``r.wild_kinds``),
    and the wild kinds held."""
    counts = [0] * 16
    for w, n_w in zip(r.wild_kinds, wild_sig, strict=True):
        counts[w] = n_w
    return counts, [w for w in r.wild_kinds if counts[w]]


def _rank_meld_moves(
    r: Rules, k: int, c: int, wild_sig: tuple[int, ...]
) -> tuple[tuple[int, Meld], ...]:
    """New melds of rank ``k`` from ``c`` naturals and the wild cards counted in ``wild_sig``."""
    counts, wilds = _sig_wilds(r, wild_sig)
    size = r.new_size
    out = []
    for n in range(max(r.min_nat, 1), min(c, size) + 1):
        for combo in _wild_combos(wilds, counts, size - n):
            out.append((k, _meld_move((k,) * n + combo)))
    return tuple(out)


@lru_cache(maxsize=1024)
def _meld_table(r: Rules, wild_sig: tuple[int, ...]) -> list[list[tuple[tuple[int, Meld], ...]]]:
    """New melds by natural rank and count, for the wild cards counted in ``wild_sig``.

    ``table[k][c]`` lists the melds of rank ``k`` from ``c`` naturals (``c`` at
    most the size of a new meld); kinds that are not natural ranks have no row.
    """
    size = r.new_size
    table: list[list[tuple[tuple[int, Meld], ...]]] = [[] for _ in range(16)]
    for k in r.natural_kinds:
        table[k] = [_rank_meld_moves(r, k, c, wild_sig) for c in range(size + 1)]
    return table


def _hand_candidates(
    r: Rules, counts: tuple[int, ...]
) -> tuple[list[tuple[int, Meld]], list[Discard]]:
    """New melds the hand could lay (with their rank), and its discards.

    Run for nearly every new hand (hands rarely repeat, so a cache keyed by
    them misses), hence plain loops over tables worked out once per variant.
    """
    size = r.new_size
    sig = []
    for w in r.wild_kinds:
        x = counts[w]
        sig.append(x if x < size else size)
    wild_sig = tuple(sig)
    table = _meld_table(r, wild_sig)
    melds: list[tuple[int, Meld]] = []
    for k in r.natural_kinds:
        c = counts[k]
        if c:
            melds += table[k][c if c < size else size]
    if r.v.melds.wild_melds:
        melds += _wild_meld_moves(r, wild_sig)
    b = counts[BLACK_THREE]
    if b:
        melds += _black_meld_moves(r, b)
    discard = _DISCARD
    return melds, [discard[k] for k in _DISCARDABLE if counts[k]]


@lru_cache(maxsize=1024)
def _wild_meld_moves(r: Rules, wild_sig: tuple[int, ...]) -> tuple[tuple[int, Meld], ...]:
    """New melds of wild cards only, from the wild cards counted in ``wild_sig``."""
    counts, wilds = _sig_wilds(r, wild_sig)
    return tuple((WILD_TARGET, _meld_move(combo)) for combo in _wild_combos(wilds, counts, r.new_size))


@lru_cache(maxsize=1024)
def _black_meld_moves(r: Rules, b: int) -> tuple[tuple[int, Meld], ...]:
    """Melds of black 3s from ``b`` black 3s in hand, where the variant has them at all."""
    th = r.v.threes
    if th.black_meld == "never":
        return ()
    hi = b if th.black_meld_max is None else min(b, th.black_meld_max)
    return tuple((BLACK_THREE, _meld_move((BLACK_THREE,) * n)) for n in range(th.black_meld_min, hi + 1))


# every kind but the red 3, which is never discarded
_DISCARDABLE = tuple(k for k in range(16) if k != RED_THREE)


_DISCARD = [Discard(k, False) for k in range(16)]
_DRAW = Draw()
_PASS = Pass()
_NEXT = NextHand()
_YES = Answer(True)
_NO = Answer(False)
_FOOT = Foot()
_ASK = Ask()
_OUT = [Discard(k, True) for k in range(16)]


def _wild_combos(wilds: list[int], counts: Sequence[int], j: int) -> list[tuple[int, ...]]:
    """Distinct multisets of ``j`` wild kinds that the hand holds."""
    if j == 0:
        return [()]
    if not wilds:
        return []
    first, rest = wilds[0], wilds[1:]
    out = []
    for use in range(min(j, counts[first]), -1, -1):
        for tail in _wild_combos(rest, counts, j - use):
            out.append((first,) * use + tail)
    return out


# -- public entry points --------------------------------------------------------------


def legal_moves(s: GameState) -> list[Move]:
    """Every distinct legal move in ``s``, each once."""
    c = _ctx(s)
    legal = c.legal
    if legal is None:
        out = []
        if s.phase == PLAY:
            # every play-phase candidate has its step in _PLAY_STEPS: ask it
            # directly, as _step would
            steps = _PLAY_STEPS
            for m in _candidates(s, c):
                if steps[type(m)](s, c, m, False) is None:
                    out.append(m)
        else:
            for m in _candidates(s, c):
                if _step(s, m, False) is None:
                    out.append(m)
        c.legal = legal = tuple(out)
        return out
    return list(legal)


def check(s: GameState, m: Move) -> str | None:
    """The reason ``m`` is illegal in ``s``, or ``None`` when it is legal."""
    if not isinstance(m, Move):
        return f"{m!r} is not a move"
    result = _step(s, m, False)
    return result if isinstance(result, str) else None


def apply(s: GameState, m: Move | str) -> GameState:
    """The state after ``m``; see :meth:`GameState.apply`."""
    move = parse_move(m) if isinstance(m, str) else m
    if not isinstance(move, Move):
        raise IllegalMoveError(repr(m), "not a move")
    result = _step(s, move, True)
    if isinstance(result, str):
        raise IllegalMoveError(str(move), result)
    assert result is not None
    # A state moved from is rarely asked again, but programs keep them (game
    # records, search trees): drop what was worked out about it, so that a
    # kept state costs no more than its own fields.
    object.__setattr__(s, "_ctx", None)
    return result
