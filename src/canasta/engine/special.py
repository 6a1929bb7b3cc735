"""Special hands (``special.hands``, Modern American): a whole hand of a set shape laid at once.

A side that has not melded may, after drawing and before laying anything
else, lay every card of the player's hand as one special hand: groups of cards
of one rank (or of wild cards) of the sizes the hand lists. The hand ends at
once; the side scores only the special hand's value (see
:func:`canasta.engine.hand_end.end_hand`), and a hand marked ``wins_game``
ends the game with that side the winner.

The matcher works on hand counts by kind, like the rest of the engine: every
card of the hand is in exactly one group, natural groups are of one rank
(red and black 3s are both rank 3), wild groups are as the hand declares.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from canasta.cards import RANK_NAMES, parse_rank
from canasta.engine.hand_end import end_hand
from canasta.engine.kinds import BLACK_THREE
from canasta.engine.move_fields import malformed
from canasta.engine.moves import RED_THREE, LaySpecial
from canasta.engine.state import PLAY, TOLD_NO, GameState

if TYPE_CHECKING:
    from canasta.engine.facts import Ctx
    from canasta.engine.tables import Rules
    from canasta.variant.model import SpecialHand

__all__ = ["forms", "special_moves", "special_step", "unformable", "wild_names"]

_PLURAL = {"JK": "jokers", "A": "aces", "K": "kings", "Q": "queens", "J": "jacks"}


def wild_names(r: Rules) -> str:
    """The variant's wild ranks as a special hand's needs name them: ``"all 2s or all jokers"``."""
    names = [f"all {_PLURAL.get(RANK_NAMES[k], RANK_NAMES[k] + 's')}" for k in sorted(r.wild)]
    return " or ".join(names) if names else "no wild rank"


def forms(r: Rules, hand: SpecialHand, counts: tuple[int, ...]) -> bool:
    """Whether a hand of ``counts`` (by kind) forms ``hand``, every card in one of its groups."""
    return _forms(r, hand, counts)


@lru_cache(maxsize=4096)
def _forms(r: Rules, hand: SpecialHand, counts: tuple[int, ...]) -> bool:
    is_wild = r.is_wild
    if sum(counts) != hand.size:
        return False
    natural: list[int] = []
    wild: list[int] = []
    for k, n in enumerate(counts):
        if not n or k == RED_THREE:
            continue
        if is_wild[k]:
            wild.append(n)
        elif k == BLACK_THREE:
            natural.append(n + counts[RED_THREE])
        else:
            natural.append(n)
    if counts[RED_THREE] and not counts[BLACK_THREE]:
        natural.append(counts[RED_THREE])
    for rank in hand.ranks:
        k = parse_rank(rank)
        if not (counts[k] or (k == BLACK_THREE and counts[RED_THREE])):
            return False
    if not hand.wilds_match and wild:
        wild = [sum(wild)]
    low, high = hand.wild_groups
    wild_ok = set(hand.wild_sizes) or set(hand.groups)
    # each unit (a rank's cards, a wild rank's cards, or every wild card where
    # wilds need not match) splits into groups; a unit that must be one group
    # (distinct ranks) is one group of its whole count
    units = [(n, False, hand.distinct) for n in natural] + [
        (n, True, hand.distinct and hand.wilds_match) for n in wild
    ]
    units.sort(reverse=True)
    return _place(tuple(units), tuple(sorted(hand.groups)), 0, low, high, frozenset(wild_ok))


def _place(
    units: tuple[tuple[int, bool, bool], ...], left: tuple[int, ...], wild_used: int,
    low: int, high: int, wild_ok: frozenset[int],
) -> bool:
    """Whether ``units`` split into exactly the group sizes ``left``, with ``low`` to ``high`` wild groups."""
    if not units:
        return not left and low <= wild_used <= high
    (n, is_wild, whole), rest = units[0], units[1:]
    for split in _splits(n, left, whole):
        if is_wild:
            used = wild_used + len(split)
            if used > high or any(x not in wild_ok for x in split):
                continue
        else:
            used = wild_used
        remaining = list(left)
        for x in split:
            remaining.remove(x)
        if _place(rest, tuple(remaining), used, low, high, wild_ok):
            return True
    return False


def _splits(n: int, sizes: tuple[int, ...], whole: bool) -> list[tuple[int, ...]]:
    """The ways to make ``n`` cards into groups of the sizes in ``sizes`` (each size used as often as listed)."""
    if whole:
        return [(n,)] if n in sizes else []
    out: list[tuple[int, ...]] = []

    def grow(total: int, start: int, pool: list[int], acc: tuple[int, ...]) -> None:
        if total == n:
            out.append(acc)
            return
        seen: set[int] = set()
        for i in range(start, len(pool)):
            x = pool[i]
            if x in seen or total + x > n:
                continue
            seen.add(x)
            grow(total + x, i + 1, pool, (*acc, x))

    grow(0, 0, sorted(sizes), ())
    return out


def special_error(s: GameState, c: Ctx, hand: SpecialHand | None, name: str) -> str | None:
    """Why the player to move may not lay special hand ``name`` now, or ``None``."""
    r = c.r
    if hand is None:
        if not r.special:
            return "this variant has no special hands"
        known = ", ".join(h.name for h in r.special)
        return f"this variant has no special hand called {name!r}; its special hands: {known}"
    if c.turn.melded:
        return "a special hand is laid at once, before anything else in the turn: you have already laid cards"
    if c.opened or c.melds:
        return "a special hand is laid only before your side has melded"
    if c.turn.asked == TOLD_NO:
        return "your partner said no: you may not go out this turn"
    if not forms(r, hand, c.counts):
        held = len(c.hand)
        cards = f"{hand.size} cards in all" + (f" (you hold {held})" if held != hand.size else "")
        return f"your hand does not form {hand.label}: it needs {hand.needs(wild_names(r))}; {cards}"
    return None


def special_step(s: GameState, c: Ctx, m: LaySpecial, build: bool) -> GameState | str | None:
    """Lay the special hand ``m.name``: the hand ends, the side scores the special hand alone."""
    if not isinstance(m.name, str):
        return malformed(m)
    hand = c.r.special_by_name.get(m.name)
    why = special_error(s, c, hand, m.name)
    if why is not None:
        return why
    if not build:
        return None
    assert hand is not None
    # the cards stay in the player's hand, laid face up: HandEnd.special names the hand
    return end_hand(s, "special", c.p, False, False, special=hand.name)


def special_moves(s: GameState, c: Ctx) -> list[LaySpecial]:
    """The special hands the player to move may lay now (a cheap gate first: most turns have none)."""
    r = c.r
    if s.phase != PLAY or len(c.hand) not in r.special_sizes or c.turn.melded or c.opened or c.melds:
        return []
    return [
        LaySpecial(h.name) for h in r.special
        if h.size == len(c.hand) and special_error(s, c, h, h.name) is None
    ]


def unformable(r: Rules, hand: SpecialHand) -> str | None:
    """Why no hand of the variant of ``r`` can ever form special ``hand``, or ``None`` if one can.

    A special hand is laid after the draw, before anything else: the hand then
    holds ``deal.hand_size + draw.count`` cards (a side that has not melded
    keeps that count from turn to turn). Its groups need cards the decks hold
    and that stay in a hand: 3s laid out at once never do, but one of them may
    (``threes.keep_one``).
    """
    dealt, drawn = r.meanings.hand_size, r.draw_count
    held = dealt + drawn
    if hand.size != held:
        return (
            f"its groups add up to {hand.size} cards, and a hand holds {held} when a special hand may be "
            f"laid ({dealt} dealt and {drawn} drawn)"
        )
    caps: dict[int, int] = {}
    for k in range(2, 16):
        if k in r.wild:
            continue
        cap = r.in_deck[k]
        if k == BLACK_THREE:
            cap = (0 if r.laid_at_once[BLACK_THREE] else cap) + (0 if r.laid_at_once[RED_THREE] else r.in_deck[RED_THREE])
            if r.keep_three:
                cap += 1  # threes.keep_one: one of the 3s laid out at once may be kept
        if cap:
            caps[k] = cap
    for rank in hand.ranks:
        k = parse_rank(rank)
        if k not in caps:
            if k == BLACK_THREE and r.in_deck[BLACK_THREE]:
                return (
                    "it needs a 3, and every 3 is laid out as soon as it is dealt or drawn, "
                    "so none is ever held (threes.keep_one would keep one)"
                )
            return f"it needs a {rank}, and the decks hold none"
    wild_caps = tuple(sorted((r.in_deck[w] for w in r.wild if r.in_deck[w]), reverse=True))
    if not _feasible(hand, tuple(sorted(caps.items())), wild_caps):
        most = max(caps.values(), default=0)
        return (
            f"no cards the decks hold form it: they hold at most {most} cards of a natural rank and "
            f"{sum(wild_caps)} wild cards ({', '.join(str(x) for x in wild_caps) or 'none'} of each wild rank)"
        )
    return None


def _feasible(hand: SpecialHand, caps: tuple[tuple[int, int], ...], wild_caps: tuple[int, ...]) -> bool:
    """Whether some choice of wild groups and of ranks for the other groups fits the decks."""
    required = {parse_rank(x) for x in hand.ranks}
    bins = tuple(sorted((cap, k in required) for k, cap in caps))
    wild_ok = set(hand.wild_sizes) or set(hand.groups)
    low, high = hand.wild_groups
    sizes = sorted(set(hand.groups))
    counts = [hand.groups.count(x) for x in sizes]

    def choices(i: int) -> list[tuple[int, ...]]:
        # every multiset of the groups' sizes taken as wild groups
        if i == len(sizes):
            return [()]
        most = counts[i] if sizes[i] in wild_ok else 0
        return [(sizes[i],) * n + rest for n in range(most + 1) for rest in choices(i + 1)]

    for wild in choices(0):
        if not low <= len(wild) <= high:
            continue
        natural = list(hand.groups)
        for x in wild:
            natural.remove(x)
        if hand.wilds_match:
            wild_fits = _fits(tuple(sorted(wild, reverse=True)), tuple((c, False) for c in wild_caps), hand.distinct)
        else:
            wild_fits = sum(wild) <= sum(wild_caps)
        if wild_fits and _fits(tuple(sorted(natural, reverse=True)), bins, hand.distinct):
            return True
    return False


@lru_cache(maxsize=4096)
def _fits(groups: tuple[int, ...], bins: tuple[tuple[int, bool], ...], distinct: bool) -> bool:
    """Whether ``groups`` go into ``bins`` (cards left, must take a group), one group a bin where ``distinct``."""
    if not groups:
        return not any(must for _, must in bins)
    g, rest = groups[0], groups[1:]
    tried: set[tuple[int, bool]] = set()
    for i, (cap, must) in enumerate(bins):
        if cap < g or (cap, must) in tried:
            continue
        tried.add((cap, must))
        others = bins[:i] + bins[i + 1:]
        left = others if distinct else tuple(sorted((*others, (cap - g, False))))
        if _fits(rest, left, distinct):
            return True
    return False
