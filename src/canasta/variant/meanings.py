"""What a variant's options mean for play, worked out once per variant.

An option's raw value is what a profile says (``melds.duplicate_ranks:
never``); its meaning for play is what the rules then do (a side holds one
open meld of a rank), and often several options decide it together (black 3s
are melded only where ``threes.black_meld`` allows it and ``wilds.ranks`` does
not make them wild cards). :func:`meanings` works each meaning out in one
place, and the engine's compiled tables (``canasta.engine.tables.Rules``), the
conflict checker and the rule book all read it, so no two of them can come to
different readings of one option.

Ranks are rank numbers (:mod:`canasta.cards`: 2 to 14 for 2 to ace, 15 for
jokers, 3 for the 3s, which as a wild rank makes black 3s wild). The
engine's index tables by kind of card are built from these in
``canasta.engine.tables``; nothing here is an engine table. Each field names
the options it comes from.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final

import attrs

from canasta.cards import JOKER, parse_rank
from canasta.variant.model import Variant

__all__ = ["Meanings", "derive_meanings", "meanings"]

#: The rank number of the 3s, as ``wilds.ranks`` names them (black 3s: red 3s are never wild).
_THREES: Final = 3


@attrs.frozen
class Meanings:
    """The effective meaning of a variant's options for play (see the module docstring).

    Build it with :func:`meanings` (cached per variant); every field is
    documented with the options it comes from.
    """

    # --- seats and cards
    #: from players.count, players.partnerships: whether a side has two or more seats
    partnerships: bool
    #: from wilds.ranks: the wild ranks (3: black 3s are wild)
    wild_ranks: frozenset[int]
    #: from wilds.ranks, deck.jokers_per_deck: the wild ranks the decks hold a card of
    wild_ranks_dealt: frozenset[int]
    #: from deck.decks, deck.jokers_per_deck, wilds.ranks: how many wild cards the decks hold
    wild_cards: int
    #: from wilds.ranks: the ranks melded as naturals, 2 to ace but the 3s and the wild ranks
    natural_ranks: tuple[int, ...]
    #: from deck.decks: how many red 3s the decks hold (two a deck)
    red_threes: int
    #: from players.count, deal.hand_size, deal.foot_size, deal.upcard, opening.talons,
    #: opening.talons_set_aside: the cards a deal takes from the decks, talons set aside included
    cards_dealt: int
    #: from opening.talons, opening.talons_set_aside: the cards set aside as talons at the deal
    set_aside: int
    #: from deal.foot_size: whether each player is dealt a foot
    has_foot: bool
    #: from deck.decks: how many decks are shuffled together
    decks: int
    #: from deck.jokers_per_deck: the jokers each deck adds
    jokers_per_deck: int
    #: from deal.hand_size: the cards of each player's hand
    hand_size: int
    #: from deal.foot_size: the cards of each player's foot (0: none)
    foot_size: int
    #: from deal.upcard: the deal turns a card up to start the pile
    upcard: bool
    #: from deal.upcard_buried: an upcard that must be covered goes into the middle of the stock
    upcard_buried: bool
    #: from opening.talons, opening.talons_set_aside: the talons set aside face down at the deal,
    #: by size (empty where talons come from the stock, or there are none)
    talons_at_deal: tuple[int, ...]

    # --- the 3s
    #: from wilds.ranks: whether black 3s are cards of their own kind (not where 3s are wild)
    black_threes_apart: bool
    #: from threes.black_meld, wilds.ranks: whether black 3s may be melded at all
    black_threes_meld: bool
    #: from threes.black_meld: whether a meld of black 3s must go out
    black_threes_meld_going_out_only: bool
    #: from threes.black_meld (always): black 3s may be melded in any turn
    black_threes_meld_always: bool
    #: from threes.keep_one, threes.red_laid_at_once, threes.black_laid_at_once: whether a
    #: player whose side has not melded keeps one 3 in hand (off where no 3 is laid at once)
    keep_one_three: bool
    #: from threes.black_out_cards: the black 3s held that leave a black-3 out in reach
    #: (that many, or one more to discard; empty where there is no black-3 out)
    black_out_held: tuple[int, ...]
    #: from threes.red_last_card: whether a red 3 drawn as the stock's last card lets play go on
    red_last_card_plays_on: bool
    #: from threes.red_last_card: whether a red 3 drawn as the stock's last card ends the hand
    red_last_card_ends_hand: bool
    #: from threes.black_meld_min: the fewest black 3s a meld of them holds
    black_threes_meld_least: int
    #: from threes.black_meld_max: the most black 3s a meld of them holds (None: no limit)
    black_threes_meld_most: int | None
    #: from threes.black_meld (never): the rules name no meld of black 3s (as written: where 3s are
    #: wild, black 3s are melded as wild cards whatever it says; see black_threes_meld)
    black_threes_meld_barred: bool
    #: from threes.black_meld_wilds: a meld of black 3s may hold wild cards
    black_threes_meld_wilds: bool

    # --- melds of a rank
    #: from melds.min_size, melds.min_naturals: the fewest cards a new meld of a rank is laid with
    new_meld_size: int
    #: from melds.min_size: the fewest cards of a new meld of a rank or of wild cards
    meld_least: int
    #: from melds.max_size: the most cards of a meld of a rank (None: no limit)
    meld_most: int | None
    #: from canastas.size: the cards that make a meld of a rank or of wild cards a canasta
    canasta_size: int
    #: from melds.wild_melds: wild cards may be melded on their own
    wild_melds: bool
    #: from melds.wild_meld_max, melds.max_size: the most cards of a meld of wild cards
    #: (None: no limit)
    wild_meld_most: int | None
    #: from melds.no_wild_ranks: the ranks whose melds never hold a wild card
    no_wild_ranks: frozenset[int]
    #: from melds.min_naturals: the fewest natural cards of a meld of a rank
    meld_least_naturals: int
    #: from melds.max_wilds: the most wild cards of a meld of a rank
    meld_most_wilds: int
    #: from melds.wilds_at_most_naturals: a meld of a rank holds no more wild cards than naturals
    wilds_at_most_naturals: bool
    #: from melds.naturals_per_wild: the naturals a meld of a rank needs for each wild card
    #: (None: no such rule)
    naturals_per_wild: int | None
    #: from melds.second_wild (by_size), melds.second_wild_size: a second wild card joins a meld
    #: of a rank only as its card of this number or later (None: no such rule)
    second_wild_at_card: int | None
    #: from melds.second_wild (by_naturals), melds.second_wild_naturals: a second wild card joins
    #: a meld of a rank only once it holds this many naturals (None: no such rule)
    second_wild_after_naturals: int | None
    #: from melds.duplicate_ranks (never): a side holds at most one meld of a rank, open or closed
    one_meld_per_rank: bool
    #: from melds.duplicate_ranks (any): a side may start a second meld of a natural rank
    #: while one is open
    may_start_second_meld: bool
    #: from melds.duplicate_ranks (after_complete): a side may start a second meld of a rank
    #: once its first is a canasta
    second_meld_after_canasta: bool
    #: from melds.dead_when_closed, melds.max_size: a rank whose meld is closed is dead
    #: (no new meld of it; Modern American)
    closed_rank_dead: bool
    #: from melds.late_wild_naturals: after the opening turn, the naturals a meld needs before a
    #: wild card joins it (0: none)
    wilds_join_after: int
    #: from melds.late_natural_ranks: the ranks whose melds take no wild card after the opening turn
    wilds_never_join: frozenset[int]
    #: from melds.late_wild_naturals, melds.late_natural_ranks: whether either rule applies
    wilds_join_late: bool
    #: from melds.wild_meld_lock, melds.wild_melds: a meld of wild cards is locked
    wild_meld_locked: bool
    #: from melds.dead_when_closed, melds.max_size, melds.late_wild_naturals,
    #: melds.late_natural_ranks, melds.wild_meld_lock, melds.wild_melds: some rule bars a card
    #: by its rank or the turn
    rank_bars: bool

    # --- sequences
    #: from sequences.allowed: sides may meld sequences
    sequences_allowed: bool
    #: from sequences.min_size: the cards a new sequence is laid with, the fewest a sequence holds
    sequence_least: int
    #: from sequences.max_size: the most cards of a sequence, but as it grows going out (None: no limit)
    sequence_most: int | None
    #: from sequences.canasta_size: the cards that make a sequence a canasta
    sequence_canasta_size: int
    #: from sequences.allowed, sequences.low, sequences.high, wilds.ranks: the ranks a sequence
    #: may hold (natural ranks only; empty where sequences are not allowed)
    sequence_ranks: tuple[int, ...]
    #: from sequences.allowed, sequences.grow_when_going_out, sequences.max_size: a sequence may
    #: grow past its closing size when going out
    sequences_grow_going_out: bool
    #: from sequences.allowed, sequences.join: two sequences of a suit that meet may be joined
    sequences_join: bool
    #: from sequences.allowed, sequences.wild_in_gap, sequences.min_size: a new sequence may hold
    #: one wild card inside it
    sequence_wild_in_gap: bool
    #: from canastas.size, sequences.allowed, sequences.canasta_size: no meld under this many
    #: cards is a canasta, of any kind
    least_canasta: int

    # --- opening and going out
    #: from opening.natural_meld: the clean meld the opening asks (0: none)
    opening_clean_meld: int
    #: from opening.by, opening.score_table: some opening asks a natural canasta
    opening_needs_natural_canasta: bool
    #: from going_out.canastas and the counts by kind: whether going out needs some canasta
    going_out_needs_canasta: bool
    #: from going_out.ask_after_laying, going_out.ask_advice: asking is open after cards were
    #: laid this turn (advice binds nothing)
    ask_after_laying: bool
    #: from going_out.foot_first: a player whose foot is still down may not go out
    foot_first: bool
    #: from going_out.partner_foot: a player may not go out while the partner's foot is down
    partner_foot: bool
    #: from going_out.final_discard (optional): a player may go out by melding every card
    final_discard_optional: bool
    #: from going_out.out_but_not_out: a player may empty the hand without going out
    out_but_not_out: bool
    #: from going_out.concealed: going out concealed is recognised, with its own bonus
    concealed_out: bool
    #: from opening.concealed_waives: going out concealed waives the opening minimum
    concealed_waives_opening: bool
    #: from opening.talon_after_pile: a side that opens by taking the pile gets its talon too
    talon_after_pile: bool
    #: from opening.talon_turn_card: no talon is given once the stock holds fewer cards (None: no limit)
    talon_turn_card: int | None
    #: from opening.talons_set_aside: the talons are set aside face down at the deal (not given
    #: from the stock), even where opening.talons names none
    talons_set_aside: bool
    #: from opening.pile_allowed: a side that has not melded may take the pile (its opening meld)
    pile_before_opening: bool
    #: from opening.top_card_counts: the top card of a pile taken to open counts toward the minimum
    top_card_counts_to_open: bool
    #: from going_out.ask_required, going_out.ask_partner: a player with a partner must ask
    #: and hear yes before going out
    ask_required: bool

    # --- the end of the game
    #: from game.rounds: the game ends after this many hands (None: no limit)
    game_rounds: int | None
    #: from game.target: the game ends once a side reaches this score (None: no target)
    game_target: int | None
    #: from game.tie: a game that ends tied for the lead goes on for another hand
    tie_plays_another: bool
    #: from threes.black_held_penalty: a black 3 left in hand counts a penalty, not its value
    black_held_penalised: bool

    # --- the pile
    #: from pile.stop_cards, pile.take_natural_pair, pile.take_lay_off,
    #: pile.take_natural_and_wild, wilds.ranks, deck.jokers_per_deck: the pile can ever be taken
    pile_takeable: bool
    #: from pile.frozen_by_wild, pile.frozen_by_red_three, pile.frozen_until_opened:
    #: something can freeze the pile
    pile_can_freeze: bool
    #: from the freezing options and pile.take_*, pile.blocked_by_meld_size: the pile is only
    #: ever taken as a frozen pile is (with a natural pair from the hand)
    pile_always_frozen: bool
    #: from pile.empty_bar_ranks, pile.empty_bar_wilds, wilds.ranks: the ranks barred from an
    #: empty pile
    empty_pile_barred: frozenset[int]
    #: from pile.empty_bar_dead, melds.dead_when_closed, melds.max_size: dead ranks are barred
    #: from an empty pile
    empty_pile_bars_dead: bool
    #: from the empty-pile bars and pile.wild_discard: some rule bars some discards
    bars_discards: bool
    #: from pile.frozen_until_opened: the pile is frozen against a side that has not melded
    pile_frozen_until_opened: bool
    #: from pile.frozen_by_wild: a wild card in the pile freezes it for both sides
    pile_frozen_by_wild: bool
    #: from pile.frozen_by_red_three: a red 3 in the pile freezes it for both sides
    pile_frozen_by_red_three: bool
    #: from pile.take_natural_pair: a natural pair of the top card's rank from the hand takes the pile
    pile_by_pair: bool
    #: from pile.take_natural_and_wild: a natural of the top card's rank and a wild card from
    #: the hand take the pile, where it is not frozen
    pile_by_natural_and_wild: bool
    #: from pile.take_lay_off: the top card laid off on the side's open meld takes the pile
    pile_by_lay_off: bool
    #: from pile.lay_off_after_canasta: the top card may be laid off on a meld that is a canasta
    lay_off_after_canasta: bool
    #: from pile.blocked_by_meld_size: a side's meld of the top card's rank of this many cards
    #: blocks the pile (None: no meld blocks it)
    pile_blocked_at: int | None
    #: from pile.blocked_exception: a blocked pile is taken by finishing the meld ('take finish')
    blocked_pile_finish: bool
    #: from pile.take_top: a player who takes the pile takes only this many of its top cards
    #: (None: all of it)
    pile_taken_top: int | None
    #: from pile.must_take_when_stock_empty (lay_off): once the stock is empty, a pile that can be
    #: taken by a lay-off must be taken
    empty_stock_must_lay_off: bool
    #: from pile.must_take_when_stock_empty (any): once the stock is empty, a pile that can be
    #: taken must be taken
    empty_stock_must_take: bool
    #: from sequences.allowed, sequences.top_card_pickup: instead of drawing, the top card alone
    #: may be taken onto an end of the side's sequence
    top_card_pickup: bool
    #: from pile.one_card_bar, pile.take_lay_off, sequences.allowed, sequences.top_card_pickup: a
    #: player holding one card may not take a pile of one card (off where no way of taking it
    #: needs only one card from the hand: a lay-off or the top-card pickup)
    one_card_pile_barred: bool
    #: from pile.wild_discard (out_or_all_wild): a wild card is discarded only going out or from
    #: a hand of wild cards
    wild_discard_limited: bool

    # --- the turn
    #: from draw.short_stock (end_hand): a stock too short for a draw ends the hand
    short_stock_ends: bool
    #: from foot.trigger (empty_hand): the foot is picked up when the hand is empty
    foot_on_empty_hand: bool


def _wild_card_count(v: Variant, wild: frozenset[int]) -> int:
    """The wild cards in the decks: jokers, black 3s (two a deck), or four a deck of a rank."""
    decks = v.deck.decks
    per_rank = {JOKER: v.deck.jokers_per_deck * decks, _THREES: 2 * decks}
    return sum(per_rank.get(k, 4 * decks) for k in wild)


def _natural_ranks(wild: frozenset[int]) -> tuple[int, ...]:
    """The ranks melded as naturals: 2 to ace, but the 3s and the wild ranks."""
    return tuple(k for k in range(2, 15) if k != _THREES and k not in wild)


# Each step below works out the meanings of one part of the rules, as keyword
# arguments of Meanings (whose fields say what each is); derive_meanings puts
# them together. tests/test_variant_meanings.py checks each value's type
# against its field.


def _seats_and_cards(v: Variant, wild: frozenset[int]) -> dict[str, Any]:
    """Seats, the decks, the deal: wild and natural ranks, what a deal takes."""
    d = v.deal
    set_aside = sum(v.opening.talons) if v.opening.talons_set_aside else 0
    return {
        "partnerships": any(len(s) > 1 for s in v.sides),
        "wild_ranks": wild,
        "wild_ranks_dealt": frozenset(k for k in wild if k != JOKER or v.deck.jokers_per_deck),
        "wild_cards": _wild_card_count(v, wild),
        "natural_ranks": _natural_ranks(wild),
        "red_threes": 2 * v.deck.decks,
        "cards_dealt": v.players.count * (d.hand_size + d.foot_size) + (1 if d.upcard else 0) + set_aside,
        "set_aside": set_aside,
        "has_foot": d.foot_size > 0,
        "decks": v.deck.decks,
        "jokers_per_deck": v.deck.jokers_per_deck,
        "hand_size": d.hand_size,
        "foot_size": d.foot_size,
        "upcard": d.upcard,
        "upcard_buried": d.upcard_buried,
        "talons_at_deal": tuple(v.opening.talons) if v.opening.talons_set_aside else (),
    }


def _threes(v: Variant, wild: frozenset[int]) -> dict[str, Any]:
    """Red and black 3s: melding black 3s, keeping one, the black-3 out, the stock's last card."""
    th = v.threes
    apart = _THREES not in wild
    n_out = th.black_out_cards
    return {
        "black_threes_apart": apart,
        "black_threes_meld": th.black_meld != "never" and apart,
        "black_threes_meld_going_out_only": th.black_meld == "going_out_only",
        "black_threes_meld_always": th.black_meld == "always",
        "keep_one_three": th.keep_one and (th.red_laid_at_once or th.black_laid_at_once),
        "black_out_held": () if n_out is None else (n_out, n_out + 1),
        "red_last_card_plays_on": th.red_last_card == "play_on",
        "red_last_card_ends_hand": th.red_last_card == "ends_hand",
        "black_threes_meld_least": th.black_meld_min,
        "black_threes_meld_most": th.black_meld_max,
        "black_threes_meld_barred": th.black_meld == "never",
        "black_threes_meld_wilds": th.black_meld_wilds,
        "black_held_penalised": th.black_held_penalty is not None,
    }


def _melds(v: Variant) -> dict[str, Any]:
    """Melds of a rank: their size, a second meld of a rank, dead ranks, when wild cards may join."""
    m = v.melds
    late = m.late_wild_naturals or 0
    never = frozenset(parse_rank(k) for k in m.late_natural_ranks)
    dead = m.dead_when_closed and m.max_size is not None
    lock = m.wild_meld_lock and m.wild_melds
    return {
        "new_meld_size": max(m.min_size, m.min_naturals),
        "meld_least": m.min_size,
        "meld_most": m.max_size,
        "canasta_size": v.canastas.size,
        "wild_melds": m.wild_melds,
        "wild_meld_most": m.max_size if m.wild_meld_max is None else m.wild_meld_max,
        "no_wild_ranks": frozenset(parse_rank(k) for k in m.no_wild_ranks),
        "meld_least_naturals": m.min_naturals,
        "meld_most_wilds": m.max_wilds,
        "wilds_at_most_naturals": m.wilds_at_most_naturals,
        "naturals_per_wild": m.naturals_per_wild,
        "second_wild_at_card": m.second_wild_size if m.second_wild == "by_size" else None,
        "second_wild_after_naturals": m.second_wild_naturals if m.second_wild == "by_naturals" else None,
        "one_meld_per_rank": m.duplicate_ranks == "never",
        "may_start_second_meld": m.duplicate_ranks == "any",
        "second_meld_after_canasta": m.duplicate_ranks == "after_complete",
        "closed_rank_dead": dead,
        "wilds_join_after": late,
        "wilds_never_join": never,
        "wilds_join_late": late > 0 or bool(never),
        "wild_meld_locked": lock,
        "rank_bars": dead or late > 0 or bool(never) or lock,
    }


def _sequences(v: Variant, wild: frozenset[int]) -> dict[str, Any]:
    """Sequences: the ranks they may hold, growing, joining, a wild card inside.

    A wild rank or the 3s inside the window ``sequences.low`` to ``high``
    break it: no sequence holds them, so none can pass them either (the
    checker warns of such a window).
    """
    sq = v.sequences
    ranks: tuple[int, ...] = ()
    if sq.allowed:
        window = range(parse_rank(sq.low), parse_rank(sq.high) + 1)
        ranks = tuple(k for k in window if k in _natural_ranks(wild))
    size = v.canastas.size
    return {
        "sequences_allowed": sq.allowed,
        "sequence_least": sq.min_size,
        "sequence_most": sq.max_size,
        "sequence_canasta_size": sq.canasta_size,
        "sequence_ranks": ranks,
        "sequences_grow_going_out": sq.allowed and sq.grow_when_going_out and sq.max_size is not None,
        "sequences_join": sq.allowed and sq.join,
        "sequence_wild_in_gap": sq.allowed and sq.wild_in_gap and sq.min_size >= 3,
        "least_canasta": min(size, sq.canasta_size) if sq.allowed else size,
    }


def _opening_and_going_out(v: Variant) -> dict[str, Any]:
    """The opening's clean meld, natural canasta and talons; what going out needs and allows."""
    o, go = v.opening, v.going_out
    counts = (go.canastas, go.natural_canastas, go.mixed_canastas, go.wild_canastas, go.sequence_canastas)
    return {
        "opening_clean_meld": o.natural_meld or 0,
        "opening_needs_natural_canasta": o.by == "score" and any(x.canasta == "natural" for x in o.score_table),
        "concealed_waives_opening": o.concealed_waives,
        "talon_after_pile": o.talon_after_pile,
        "talon_turn_card": o.talon_turn_card,
        "talons_set_aside": o.talons_set_aside,
        "pile_before_opening": o.pile_allowed,
        "top_card_counts_to_open": o.top_card_counts,
        "ask_required": go.ask_required and go.ask_partner,
        "going_out_needs_canasta": max(counts) > 0,
        "ask_after_laying": go.ask_after_laying or go.ask_advice,
        "foot_first": go.foot_first,
        "partner_foot": go.partner_foot,
        "final_discard_optional": go.final_discard == "optional",
        "out_but_not_out": go.out_but_not_out,
        "concealed_out": go.concealed,
    }


def _pile(v: Variant, wild: frozenset[int], dead: bool) -> dict[str, Any]:
    """The discard pile: whether it can be taken or frozen, what may not be discarded."""
    p = v.pile
    wild_way = p.take_natural_and_wild and _wild_card_count(v, wild) > 0
    freeze = p.frozen_by_wild or p.frozen_by_red_three or p.frozen_until_opened
    barred = frozenset(parse_rank(x) for x in p.empty_bar_ranks) | (wild if p.empty_bar_wilds else frozenset())
    bar_dead = p.empty_bar_dead and dead
    return {
        "pile_takeable": "natural" not in p.stop_cards and (p.take_natural_pair or p.take_lay_off or wild_way),
        "pile_can_freeze": freeze,
        # only where something can freeze it at all (else the pile is simply never
        # frozen) and no other way of taking it exists
        "pile_always_frozen": freeze and p.take_natural_pair and not p.take_lay_off
        and not p.take_natural_and_wild and p.blocked_by_meld_size is None,
        "empty_pile_barred": barred,
        "empty_pile_bars_dead": bar_dead,
        "bars_discards": bool(barred) or p.wild_discard != "always" or bar_dead,
        "pile_frozen_until_opened": p.frozen_until_opened,
        "pile_frozen_by_wild": p.frozen_by_wild,
        "pile_frozen_by_red_three": p.frozen_by_red_three,
        "pile_by_pair": p.take_natural_pair,
        "pile_by_natural_and_wild": p.take_natural_and_wild,
        "pile_by_lay_off": p.take_lay_off,
        "lay_off_after_canasta": p.lay_off_after_canasta,
        "pile_blocked_at": p.blocked_by_meld_size,
        "blocked_pile_finish": p.blocked_exception,
        "pile_taken_top": p.take_top,
        "empty_stock_must_lay_off": p.must_take_when_stock_empty == "lay_off",
        "empty_stock_must_take": p.must_take_when_stock_empty == "any",
        "top_card_pickup": v.sequences.allowed and v.sequences.top_card_pickup,
        "one_card_pile_barred": p.one_card_bar
        and (p.take_lay_off or (v.sequences.allowed and v.sequences.top_card_pickup)),
        "wild_discard_limited": p.wild_discard == "out_or_all_wild",
    }


def _turn_and_game(v: Variant) -> dict[str, Any]:
    """The rest of a turn (a short stock, the foot) and the end of the game."""
    return {
        "short_stock_ends": v.draw.short_stock == "end_hand",
        "foot_on_empty_hand": v.foot.trigger == "empty_hand",
        "game_rounds": v.game.rounds,
        "game_target": v.game.target,
        "tie_plays_another": v.game.tie == "play_another",
    }


def derive_meanings(v: Variant) -> Meanings:
    """Work out the meanings of ``v``'s options (uncached: use :func:`meanings`)."""
    wild = frozenset(parse_rank(r) for r in v.wilds.ranks)
    melds = _melds(v)
    return Meanings(
        **_seats_and_cards(v, wild), **_threes(v, wild), **melds, **_sequences(v, wild),
        **_opening_and_going_out(v), **_pile(v, wild, melds["closed_rank_dead"]), **_turn_and_game(v),
    )


@lru_cache(maxsize=256)
def meanings(v: Variant) -> Meanings:
    """The meanings of ``v``'s options for play, worked out once per variant (cached).

    A variant is a frozen, hashable value, so equal variants share one answer.
    """
    return derive_meanings(v)
