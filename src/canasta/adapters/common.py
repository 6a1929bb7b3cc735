"""What the PettingZoo and OpenSpiel adapters share: rewards, bounds, and stepping past hand ends.

No third-party import here. Rewards are score differences: when a hand ends,
side ``i`` of ``m`` sides (hand scores ``s_1 ... s_m``, their sum ``S``) is paid

    r_i = (s_i - mean of the other sides' scores) / scale = (m * s_i - S) / ((m - 1) * scale)

and every seat of the side gets its side's reward, so rewards sum to zero over
the sides (and over the seats: every side has as many seats). Over a whole
game they add up to the cumulative score difference divided by ``scale``.

:func:`score_bound` bounds the absolute score of one side in one hand, so
``|r_i| <= 2 * score_bound(variant) / scale`` for any hand; :func:`move_bound`
bounds the number of moves of one hand. Both are proved from the rules, not
measured (see their docstrings), and loose: random play stays far inside them.
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta.engine import compile_rules
from canasta.engine.melding import MAX_TAKE_BACKS
from canasta.engine.moves import NextHand
from canasta.engine.state import HAND_OVER, GameState
from canasta.variant.model import Variant

__all__ = [
    "DEFAULT_REWARD_SCALE",
    "advance",
    "deck_size",
    "move_bound",
    "reward_bound",
    "score_bound",
    "seat_rewards",
    "side_rewards",
]

#: Points per unit of reward, unless an adapter is told otherwise.
DEFAULT_REWARD_SCALE = 1000.0


def deck_size(variant: Variant) -> int:
    """How many cards the variant's decks hold."""
    return variant.deck.decks * (52 + variant.deck.jokers_per_deck)


def score_bound(variant: Variant) -> int:
    """A bound on the absolute value of one side's score for one hand.

    Each item of a hand's score (see :mod:`canasta.engine.scoring`) is bounded:
    melded cards and cards left in hand by the sum of the absolute card values
    of the whole deck (each once); canasta bonuses by the number of canastas the
    deck can make (its cards ÷ the canasta size) times the largest bonus; red 3s
    by the larger of the all-red-3s bonus and every red 3's bonus, plus every
    red 3 held at its penalty; going out by the larger going-out bonus plus the
    black-3 out bonus. The sum of these bounds the total either way.
    """
    r = compile_rules(variant)
    d = variant.deck.decks
    counts = {15: d * variant.deck.jokers_per_deck, 1: 2 * d, 3: 2 * d}
    values = sum(abs(r.value[k]) * counts.get(k, 4 * d) for k in range(1, 16))
    c = variant.canastas
    bonuses = [c.natural_bonus, c.mixed_bonus, c.wild_bonus, *(b.bonus for b in c.rank_bonuses)]
    canastas = deck_size(variant) // max(c.size, 1) * max(abs(b) for b in bonuses)
    th = variant.threes
    reds = 2 * d
    red = max(abs(th.red_all_bonus or 0), reds * abs(th.red_bonus)) + reds * abs(th.red_held_penalty)
    sc = variant.scoring
    out = max(abs(sc.going_out_bonus), abs(sc.concealed_bonus)) + abs(th.black_out_bonus)
    return 2 * values + canastas + red + out


def reward_bound(variant: Variant, scale: float = DEFAULT_REWARD_SCALE) -> float:
    """A bound on the absolute reward of one hand: ``2 * score_bound(variant) / scale``."""
    return 2 * score_bound(variant) / scale


def move_bound(variant: Variant) -> int:
    """A bound on the number of moves in one hand (the ``next`` that deals the next hand excluded).

    Every turn starts by drawing from the stock (at least one card leaves it for
    good), by taking the pile (its top card goes to a meld, and cards on the
    table never leave it) or by passing (the hand ends). With ``C`` cards in the
    decks there are at most ``2C + 1`` turns. A turn holds one draw, take or
    pass, at most one ask, one answer and one discard, and melds and lay-offs,
    each laying at least one card on the table (at most ``C`` in the hand); each
    seat picks up its foot at most once. So a hand has at most
    ``4 (2C + 1) + C + seats`` moves. Where cards laid may be taken back
    (``melds.rearrange``), each turn adds at most ``MAX_TAKE_BACKS`` take-backs
    and as many steps laying again what they took back.
    """
    cards = deck_size(variant)
    turns = 2 * cards + 1
    backs = 2 * MAX_TAKE_BACKS * turns if variant.melds.rearrange else 0
    return 4 * turns + cards + variant.players.count + backs


def side_rewards(hand_scores: Sequence[int], scale: float = DEFAULT_REWARD_SCALE) -> tuple[float, ...]:
    """Each side's reward for a hand with ``hand_scores``: its score minus the others' mean, ÷ ``scale``."""
    m = len(hand_scores)
    if m < 2:
        return tuple(0.0 for _ in hand_scores)
    total = sum(hand_scores)
    return tuple((m * s - total) / ((m - 1) * scale) for s in hand_scores)


def seat_rewards(state: GameState, scale: float = DEFAULT_REWARD_SCALE) -> tuple[float, ...]:
    """Each seat's reward for the hand ``state`` has just ended (its side's :func:`side_rewards`)."""
    assert state.end is not None, "the hand is not over"
    per_side = side_rewards(state.end.hand_scores, scale)
    side_of = compile_rules(state.variant).side_of
    return tuple(per_side[side_of[p]] for p in range(len(side_of)))


def advance(state: GameState) -> GameState:
    """Deal the next hand if ``state`` is a hand's end (not the game's): ``next`` is never a choice."""
    if state.phase == HAND_OVER:
        return state.apply(NextHand())
    return state
