"""The rule areas of a variant: one frozen attrs class per area, and the bounds of their options.

Each class here is one attribute of :class:`~canasta.variant.model.Variant`
(``deal``, ``melds``, ``pile`` ...) or a row of one of their tables
(:class:`OpeningStep`, :class:`RankBonus` ...). Every option is declared
with a type, a default, a range and its one-line description; what the
declaration does is in :mod:`canasta.variant.options`. The model that puts
the areas together, and checks the whole, is :mod:`canasta.variant.model`.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import attrs

from canasta.errors import VariantError
from canasta.variant.options import int_opt, opt

#: Most points a card, a bonus or a penalty may be worth: about a hundred times
#: the largest value real tables use, so a game's scores stay small integers.
MAX_POINTS = 100_000
#: Most decks, and jokers per deck (the bounds of ``deck.decks`` and ``deck.jokers_per_deck``).
MAX_DECKS, MAX_JOKERS = 12, 4
#: The cards of the largest deck set, 12 decks of 52 cards and 4 jokers: the
#: bound of every option that counts cards in one meld.
MAX_CARDS = MAX_DECKS * (52 + MAX_JOKERS)
#: Most cards a new meld may be required to have (``melds.min_size``,
#: ``melds.min_naturals``): the engine lists new melds by size, so the bound
#: keeps its work small; real tables ask for 3.
MAX_NEW_MELD = 100
#: Most canastas going out may require (real tables ask for 1 or 2).
MAX_CANASTAS = 100
#: Largest cumulative score a rule may name (a target, an opening step).
MAX_SCORE = 1_000_000
#: Most hands a game may be limited to.
MAX_ROUNDS = 1000
#: Most rows of the opening tables and rank bonuses, and most customs.
MAX_ROWS = 100
#: Most wild ranks (real tables make 2 ranks wild, the 2s and the jokers): the
#: engine weighs every way to place the wild cards of a hand, and a deck of
#: mostly wild cards makes that slow.
MAX_WILD_RANKS = 4

#: Card classes a rule can name: any wild card, red 3s, black 3s, natural cards.
CardClass = Literal["wild", "red_three", "black_three", "natural"]
CanastaKind = Literal["natural", "mixed", "wild"]


# The option helpers under the names pyproject.toml lists as immutable calls for
# ruff's dataclass-default check; what they declare is in canasta.variant.options.


def _opt(default: Any, doc: str, **kwargs: Any) -> Any:
    return opt(default, doc, **kwargs)


def _int(default: int, doc: str, minimum: int = 0, maximum: int = 0) -> Any:
    return int_opt(default, doc, minimum, maximum)


def _opt_int(default: int | None, doc: str, minimum: int = 0, maximum: int = 0) -> Any:
    return int_opt(default, doc, minimum, maximum)


def _points(default: int, doc: str) -> Any:
    """Points: a card's value, a bonus or a penalty, from 0 to :data:`MAX_POINTS`."""
    return int_opt(default, doc, 0, MAX_POINTS)


def _opt_points(default: int | None, doc: str) -> Any:
    return int_opt(default, doc, 0, MAX_POINTS)


def _cards(default: int | None, doc: str, minimum: int) -> Any:
    """A number of cards, at most :data:`MAX_CARDS`."""
    return int_opt(default, doc, minimum, MAX_CARDS)


def option_doc(cls: type, name: str) -> str:
    """Return the one-line description of option ``name`` of rule-area class ``cls``."""
    doc: str = attrs.fields_dict(cls)[name].metadata["doc"]
    return doc


@attrs.frozen(cache_hash=True)
class Source:
    """Where the rules come from."""

    title: str = _opt("", "Title of the rule text the profile models.", max_length=500)
    reference: str = _opt("", "File name or citation of the rule text.", max_length=500)
    url: str = _opt("", "Address of the rule text, if it is published.", max_length=2000)


@attrs.frozen(cache_hash=True)
class Assumption:
    """One option whose value is filled in where the source text is silent."""

    path: str = _opt("", "Dotted key path of the assumed option, e.g. 'deck.decks'.", max_length=200, single_line=True)
    source: str = _opt(
        "", "Where the assumed value comes from, e.g. 'Pagat classic Canasta'.", max_length=500
    )


@attrs.frozen(cache_hash=True)
class PlayerRules:
    """Who plays."""

    count: int = _int(4, "Number of players at the table.", 2, 8)
    partnerships: bool = _opt(True, "Players sit in partnerships of two, partners opposite (four players: two sides, six: three); otherwise each plays for themself.")


@attrs.frozen(cache_hash=True)
class DeckRules:
    """Which cards are used."""

    decks: int = _int(2, "Number of standard 52-card decks shuffled together.", 1, MAX_DECKS)
    jokers_per_deck: int = _int(2, "Jokers added for each deck.", 0, MAX_JOKERS)


@attrs.frozen(cache_hash=True)
class DealRules:
    """The deal."""

    hand_size: int = _int(11, "Cards dealt to each player's hand.", 1, 30)
    foot_size: int = _int(0, "Cards dealt to each player's foot, a second hand played later; 0 means no foot.", 0, 30)
    upcard: bool = _opt(True, "One card from the stock is turned face up to start the discard pile.")
    upcard_covered_if: tuple[CardClass, ...] = _opt(("wild", "red_three"), "Upcards of these classes are covered by turning another card (the pile is then frozen if it holds a wild or red 3).", max_items=4)
    upcard_buried: bool = _opt(False, "With upcard_covered_if: such an upcard is buried in the middle of the stock before the next card is turned (Pagat's Hand and Foot), instead of staying in the pile under it.")


@attrs.frozen(cache_hash=True)
class DrawRules:
    """Drawing from the stock."""

    count: int = _int(1, "Cards drawn from the stock in one turn.", 1, 3)
    short_stock: Literal["draw_remaining", "end_hand"] = _opt("draw_remaining", "When fewer cards remain in the stock than a player must draw, an empty stock included: draw what remains "
        "(and, once it is empty, play on through the discard pile), or the hand ends at once.")


@attrs.frozen(cache_hash=True)
class WildRules:
    """Which cards are wild."""

    ranks: tuple[str, ...] = _opt(
        ("2", "JK"), "Ranks that are wild cards ('JK' is the joker).", rank=True, max_items=MAX_WILD_RANKS
    )


@attrs.frozen(cache_hash=True)
class CardValues:
    """Points of each card, counted plus when melded and minus when left in hand."""

    joker: int = _points(50, "Points of a joker.")
    two: int = _points(20, "Points of a 2.")
    ace: int = _points(20, "Points of an ace.")
    king: int = _points(10, "Points of a king.")
    queen: int = _points(10, "Points of a queen.")
    jack: int = _points(10, "Points of a jack.")
    ten: int = _points(10, "Points of a 10.")
    nine: int = _points(10, "Points of a 9.")
    eight: int = _points(10, "Points of an 8.")
    seven: int = _points(5, "Points of a 7.")
    six: int = _points(5, "Points of a 6.")
    five: int = _points(5, "Points of a 5.")
    four: int = _points(5, "Points of a 4.")
    black_three: int = _points(5, "Points of a black 3.")
    red_three: int = _points(0, "Points of a red 3 as a card (its bonus is set under threes).")


@attrs.frozen(cache_hash=True)
class ThreeRules:
    """Red and black 3s."""

    red_laid_at_once: bool = _opt(
        True, "A red 3 drawn or dealt is laid face up at once and replaced from the stock."
    )
    red_last_card: Literal["ends_hand", "play_on"] = _opt("ends_hand", "A red 3 drawn as the last card of the stock (laid, not replaced): the hand ends at once, or the player plays on and discards.")
    red_bonus: int = _points(100, "Bonus for each red 3 a side has laid.")
    red_all_bonus: int | None = _opt_points(
        800, "Bonus in all (instead of each) when one side lays every red 3 in the decks; none for no such bonus."
    )
    red_minus_if_unopened: bool = _opt(
        True, "A side that has not melded when the hand ends counts its red 3s minus."
    )
    red_minus_without_canasta: bool = _opt(False, "A side that has completed fewer canastas than red_canastas_needed when the hand ends counts its red 3s minus.")
    red_canastas_needed: int = _int(
        1, "With red_minus_without_canasta: the canastas a side must have completed for its red 3s to count plus.",
        1, MAX_CARDS,
    )
    red_neutral_canastas: int | None = _cards(None, "With red_minus_without_canasta: a side that has completed at least this many canastas, but fewer than "
        "red_canastas_needed, scores its 3s as nothing, neither plus nor minus (Modern American: 1); none for no such band.", 0)
    red_table: tuple[int, ...] = _opt(
        (),
        "Points in all for a side's red 3s by how many it laid (first entry: one red 3, second: two, ...), "
        "replacing red_bonus and red_all_bonus; counts past the table score red_bonus each; empty for none.",
        max_items=MAX_ROWS,
    )
    black_laid_at_once: bool = _opt(False, "Black 3s are bonus cards like red 3s (Modern American): one dealt, drawn or found in a pile taken is laid "
        "face up at once and replaced from the stock (not from a pile); it is never melded, discarded or held, and "
        "scores by black_table with the same sign rules as red 3s.")
    black_table: tuple[int, ...] = _opt((), "With black_laid_at_once: points in all for a side's laid black 3s by how many it laid, scored apart from "
        "its red 3s (Modern American: 100, 300, 500, 1000); counts past the table, or an empty table, score red_bonus each.", max_items=MAX_ROWS)
    keep_one: bool = _opt(False, "A player whose side has not melded keeps the first 3 laid out at once (red_laid_at_once, black_laid_at_once) "
        "that reaches their hand from the stock while they hold none, for a special hand that needs a 3 (Modern American's Straight); "
        "they lay it out, replacing it from the stock, with 'lay 3R' or 'lay 3' in one of their turns. While they keep it they "
        "may not take the pile, meld, ask or go out, and once their side has melded, laying it is the first thing they do.")
    red_held_penalty: int = _points(
        100, "Penalty for each red 3 still held in a hand or foot when the hand ends."
    )
    black_held_penalty: int | None = _opt_points(None, "Penalty for each black 3 left in a hand or foot when the hand ends, counted instead of its card value (Bolivia: 100); none: it counts its value.")
    black_meld: Literal["never", "going_out_only", "always"] = _opt(
        "going_out_only", "When black 3s may be melded."
    )
    black_meld_min: int = _cards(3, "Fewest black 3s in a black-3 meld.", 1)
    black_meld_max: int | None = _cards(4, "Most black 3s in a black-3 meld; none for no limit.", 1)
    black_meld_wilds: bool = _opt(False, "Wild cards may join a black-3 meld.")
    black_out_cards: int | None = _cards(None, "Black-3 out: the player going out holds exactly this many black 3s plus the final discard; none disables it.", 1)
    black_out_bonus: int = _points(1500, "Bonus for a black-3 out.")


@attrs.frozen(cache_hash=True)
class MeldRules:
    """What makes a legal meld."""

    min_size: int = _int(3, "Fewest cards in a new meld.", 1, MAX_NEW_MELD)
    min_naturals: int = _int(2, "Fewest natural cards in a meld.", 1, MAX_NEW_MELD)
    max_wilds: int = _cards(3, "Most wild cards in a meld of naturals.", 0)
    wilds_at_most_naturals: bool = _opt(
        False, "A meld may never hold more wild cards than natural cards."
    )
    second_wild: Literal["always", "by_size", "by_naturals"] = _opt("always", "When a second wild card may join a meld: at any time, once the meld is big enough, or once it holds enough naturals.")
    second_wild_size: int = _cards(
        6, "With second_wild by_size: the second wild may be at the earliest this card of the meld.", 2
    )
    second_wild_naturals: int = _cards(
        5, "With second_wild by_naturals: naturals the meld must hold before a second wild joins.", 1
    )
    max_size: int | None = _cards(
        None, "Most cards in one meld; a meld that reaches it is closed. None means no limit.", 1
    )
    wild_meld_max: int | None = _cards(None, "Most cards in a meld of wild cards only (with wild_melds); one that reaches it is closed. None: max_size applies.", 1)
    naturals_per_wild: int | None = _cards(None, "Each wild card in a meld of naturals needs at least this many naturals beside it (Samba: 2); none for no such rule.", 1)
    duplicate_ranks: Literal["never", "after_complete", "any"] = _opt("never", "Whether a side may start a second meld of a rank: never; once its meld of that rank is complete (closed); or any: at any time, and two melds of one rank may be combined into one at any time in the player's turn (Samba). Melds of wild cards stay one to a side under any.")
    wild_melds: bool = _opt(False, "Melds made of wild cards only are allowed.")
    late_wild_naturals: int | None = _cards(None, "After the turn in which its side opened, a wild card may join a meld of naturals only once the meld holds at least this many natural cards (Modern American: 5, the rule of five); in the opening turn wild cards go anywhere a meld allows. None: no such rule.", 1)
    late_natural_ranks: tuple[str, ...] = _opt(
        (),
        "Ranks whose melds take no wild card after the turn in which the side opened (Modern American: aces, mixed only if wild cards joined them in the opening turn). "
        "A meld of such a rank that took wild cards is an ordinary meld: going_out.complete_ranks and scoring.incomplete_penalties pass it by.",
        rank=True,
        max_items=13,
    )
    wild_meld_lock: bool = _opt(False, "While a side's meld of wild cards is not yet a canasta, the side may put no wild card in any other meld (Modern American).")
    dead_when_closed: bool = _opt(False, "Once a meld of a rank is closed (it reached max_size), the rank is dead for every side: no meld of it may be started or added to, and the pile cannot be taken with it on top (Modern American).")
    no_wild_ranks: tuple[str, ...] = _opt(
        (), "Ranks whose melds never hold a wild card, wherever they are laid or taken (Modern American: 7).", rank=True, max_items=13)
    rearrange: bool = _opt(False, "Cards laid this turn may be moved between melds or back to the hand until the discard (the engine's move 'back' takes back the last meld or add laid, up to 8 times a turn; not after asking the partner or picking up the foot).")


@attrs.frozen(cache_hash=True)
class SequenceRules:
    """Sequences: natural cards of one suit in rank order, a second kind of meld (Samba)."""

    allowed: bool = _opt(False, "Melds of natural cards of one suit in unbroken rank order (sequences) are allowed.")
    low: str = _opt("4", "Lowest rank a sequence may hold.", rank=True)
    high: str = _opt("A", "Highest rank a sequence may hold (ace high only: no sequence turns the corner).", rank=True)
    min_size: int = _int(3, "Fewest cards in a new sequence.", 2, 13)
    canasta_size: int = _int(7, "Cards that make a sequence a canasta.", 2, 13)
    max_size: int | None = _opt_int(7, "Most cards in a sequence; one that reaches it is closed. None means no limit.", 2, 13)
    grow_when_going_out: bool = _opt(False, "A sequence closed at max_size may still take cards at its ends, within low to high, in the turn its player goes out (Brazilian): each such card is laid only if the player can still go out after it, and the turn must then end by going out.")
    bonus: int = _points(1500, "Bonus for a sequence canasta.")
    name: str = _opt("samba", "What the rules call a sequence canasta (Samba: samba; Bolivia: escalera).", max_length=40, single_line=True)
    short_size: int = _int(0, "A sequence of fewer cards than this left on the table at the end of the hand is penalized (Brazilian: 5); 0 for no penalty.", 0, 13)
    short_penalty: int = _points(0, "Penalty for each such short sequence (Brazilian: 1000).")
    join: bool = _opt(False, "Two of a side's sequences of one suit that meet end to end (the highest card of one just below the lowest of the other) may be joined into one in the player's turn, if the joined sequence keeps the sequence rules. Off: sequences are never joined (Pagat's Samba).")
    top_card_pickup: bool = _opt(False, "Instead of drawing, a player may take only the pile's top card to add it to an end of the side's sequence (Pagat's Samba); the rest of the pile stays.")
    wild_in_gap: bool = _opt(False, "A new sequence may hold one wild card, standing for the missing rank between two of its natural cards (a house rule: no published Samba puts wild cards in sequences). The wild card stays where it was laid, so a sequence's ends are always natural cards and it never holds two wild cards; it needs sequences of at least 3 cards, and it cannot be on with sequences.join. A sequence canasta with a wild card scores the sequence bonus. Off: sequences hold natural cards only (every source).")


@attrs.frozen(cache_hash=True)
class RankBonus:
    """A canasta bonus that depends on the canasta's rank (room for later variants)."""

    rank: str = _opt("A", "Rank of the canasta.", rank=True)
    kind: CanastaKind = _opt("natural", "Kind of canasta the bonus applies to.")
    bonus: int = _points(0, "Bonus, replacing the kind's usual bonus.")


@attrs.frozen(cache_hash=True)
class WildBonus:
    """A wild canasta bonus that depends on the canasta's mix of wild ranks."""

    rank: str = _opt("2", "A wild rank.", rank=True)
    count: int = _cards(7, "Exactly this many cards of that rank in the wild canasta.", 1)
    bonus: int = _points(0, "Bonus, replacing wild_bonus.")


@attrs.frozen(cache_hash=True)
class CanastaRules:
    """Canastas: melds of seven or more cards."""

    size: int = _cards(7, "Cards that make a meld a canasta.", 2)
    natural_bonus: int = _points(500, "Bonus for a natural (clean) canasta, with no wild cards.")
    mixed_bonus: int = _points(300, "Bonus for a mixed (dirty) canasta, with naturals and wild cards.")
    wild_bonus: int = _points(1500, "Bonus for a wild canasta, all wild cards (where wild melds are allowed).")
    wild_name: str = _opt("", "What the rules call a wild canasta (Bolivia: bolivia); empty for no name of its own.",
                          max_length=40, single_line=True)
    rank_bonuses: tuple[RankBonus, ...] = _opt(
        (), "Bonuses for canastas of particular ranks, replacing the kind's bonus.", max_items=MAX_ROWS
    )
    wild_mix_bonuses: tuple[WildBonus, ...] = _opt((), "Bonuses for wild canastas by their mix (Modern American: 4 jokers, 2500; 7 twos, 3000), "
        "replacing wild_bonus; the last entry that matches wins.", max_items=MAX_ROWS)


@attrs.frozen(cache_hash=True)
class OpeningStep:
    """One row of the opening-minimum table."""

    minimum: int = _points(50, "Points the first melds must reach.")
    from_score: int | None = _opt_int(
        None, "Applies from this cumulative score up (none: any lower score).", -MAX_SCORE, MAX_SCORE
    )
    canasta: Literal["none", "any", "natural"] = _opt("none", "Whether the first melds must also hold a canasta: none, any canasta, or a natural one (Brazilian, at high scores; a wild or sequence canasta counts as natural), which the opening turn must still hold at its end.")


_CLASSIC_STEPS = (
    OpeningStep(minimum=15, from_score=None),
    OpeningStep(minimum=50, from_score=0),
    OpeningStep(minimum=90, from_score=1500),
    OpeningStep(minimum=120, from_score=3000),
)


@attrs.frozen(cache_hash=True)
class OpeningRules:
    """The first meld of a side in a hand."""

    by: Literal["none", "score", "round"] = _opt(
        "score", "What sets the opening minimum: nothing, the side's cumulative score, or the round number."
    )
    score_table: tuple[OpeningStep, ...] = _opt(
        _CLASSIC_STEPS, "Opening minimum by the side's cumulative score.", max_items=MAX_ROWS
    )
    round_table: tuple[int, ...] = _opt((50, 90, 120, 150), "Opening minimum of rounds 1, 2, ...; later rounds use the last value.", max_items=MAX_ROWS)
    top_card_counts: bool = _opt(True, "The top card of a pile taken to open counts toward the minimum.")
    pile_allowed: bool = _opt(
        True, "A side that has not opened may take the discard pile to make its opening meld (Brazilian: it may not)."
    )
    concealed_waives: bool = _opt(True, "Going out concealed needs no opening minimum.")
    natural_meld: int | None = _cards(None, "The first melds must include, when the opening is met, a meld of at least this many natural cards of one rank and no wild card (Modern American: a clean triple, 3); wild cards may join it once the side has opened, and the pile's top card does not count toward it. None: no such rule.", 1)
    talons: tuple[int, ...] = _opt((), "Bonus cards (talons) for the player who makes each side's opening meld, by the order the sides open (Modern American: 4 for the first side, 3 for the second); a side past the end of the list gets none. They reach the hand after the discard that ends the opening turn, so they are played from the next turn; 3s among them are laid out and replaced like any drawn. Empty: no talons.", max_items=8)
    talons_set_aside: bool = _opt(False, "The talons are set aside face down at the deal, one pile per entry of talons (the older form; a forfeited pile stays unused); otherwise they are drawn from the top of the stock when given (CLA and Pagat today).")
    talon_after_pile: bool = _opt(False, "A side that opens by taking the pile gets its talon too (Modern American: it does not, and the next side to open gets the next talon).")
    talon_turn_card: int | None = _cards(None, "No talon is given once the stock holds fewer than this many cards: the turn card, this many from the bottom of the stock, has been drawn (Modern American: 9). None: talons are given while the stock lasts.", 1)


@attrs.frozen(cache_hash=True)
class PileRules:
    """The discard pile: freezing and taking it."""

    frozen_by_wild: bool = _opt(True, "A wild card in the pile freezes it for both sides.")
    frozen_by_red_three: bool = _opt(True, "A red 3 in the pile (as upcard) freezes it for both sides.")
    frozen_until_opened: bool = _opt(True, "The pile is frozen against a side that has not yet melded.")
    stop_cards: tuple[CardClass, ...] = _opt(
        ("wild", "black_three"), "Top cards of these classes can never be taken.", max_items=4
    )
    take_natural_pair: bool = _opt(
        True, "The pile may be taken by melding its top card with two natural cards of its rank from hand."
    )
    take_natural_and_wild: bool = _opt(
        False, "An unfrozen pile may be taken with one natural of the top card's rank and one wild card."
    )
    take_lay_off: bool = _opt(
        True, "An unfrozen pile may be taken by adding its top card to the side's meld of that rank."
    )
    lay_off_after_canasta: bool = _opt(
        True, "Taking by lay-off is allowed onto a rank the side has already made a canasta of this hand."
    )
    blocked_by_meld_size: int | None = _cards(None, "The pile cannot be taken when its top card's rank matches a side's unfinished meld of at least this many cards; none disables it.", 1)
    blocked_exception: bool = _opt(True, "Despite that block: a player who can finish that meld from hand and has the naturals of the rank to start a new meld with the top card (two, where a new meld has three cards) may take the pile to do so.")
    must_take_when_stock_empty: Literal["never", "lay_off", "any"] = _opt("lay_off", "Once the stock is empty a player must take the pile: never, when it can be taken by lay-off, or whenever it can be taken.")
    one_card_bar: bool = _opt(False, "A player holding a single card may not take a discard pile of a single card, in any way "
        "(Hoyle); with one card in hand only a lay-off, or the top-card pickup of sequences, could take it.")
    take_top: int | None = _cards(None, "A player who takes the pile takes only its top this many cards (all of it when it holds fewer); the rest stays as the pile. None: the whole pile.", 1)
    empty_bar_ranks: tuple[str, ...] = _opt((), "Ranks that may not be discarded onto an empty pile (Modern American: 7 and A), unless every card in the "
        "hand is barred; a going-out discard is never barred.", rank=True, max_items=15)
    empty_bar_dead: bool = _opt(False, "A card of a dead rank (melds.dead_when_closed) may not be discarded onto an empty pile (Modern American: the D of SWAD), unless every card in the hand is barred.")
    empty_bar_wilds: bool = _opt(False, "A wild card may not be discarded onto an empty pile (Modern American), unless every card in the hand is "
        "barred; a going-out discard is never barred.")
    wild_discard: Literal["always", "out_or_all_wild"] = _opt("always", "When a wild card may be discarded: always, or only as the going-out "
        "discard or from a hand of wild cards only (Modern American); the bar lifts when every card in the hand is barred.")


@attrs.frozen(cache_hash=True)
class FootRules:
    """The foot: a second hand of cards (Hand and Foot)."""

    trigger: Literal["first_canasta", "empty_hand"] = _opt("first_canasta", "When a player may pick up their foot: once their side completes its first canasta, or when their hand is empty.")
    walk: bool = _opt(False, "A player whose foot is still down may discard their last hand card without going out, and picks up the foot at the start of their next turn, before drawing ('walking' to the foot).")


@attrs.frozen(cache_hash=True)
class GoingOutRules:
    """Ending the hand by getting rid of every card."""

    canastas: int = _int(1, "Canastas the side needs before a player may go out.", 0, MAX_CANASTAS)
    natural_canastas: int = _int(0, "Of which at least this many natural (clean) canastas.", 0, MAX_CANASTAS)
    mixed_canastas: int = _int(0, "Of which at least this many mixed (dirty) canastas.", 0, MAX_CANASTAS)
    wild_canastas: int = _int(0, "Of which at least this many wild canastas.", 0, MAX_CANASTAS)
    sequence_canastas: int = _int(
        0, "Of which at least this many sequence canastas (Bolivia: 1 escalera).", 0, MAX_CANASTAS
    )
    final_discard: Literal["optional", "required"] = _opt("optional", "Whether the player going out may meld every card (optional) or must end with a discard (required).")
    out_but_not_out: bool = _opt(
        False, "A player may discard the last card without going out and play on with no cards."
    )
    ask_partner: bool = _opt(
        True, "A player may ask the partner 'may I go out?'; the answer binds for that turn."
    )
    foot_first: bool = _opt(
        True, "A player may go out only after picking up their foot. Off: a player may go out with the foot still down "
        "(its cards count against the side); emptying the hand picks the foot up where it may be, except after the "
        "partner's yes, which binds the player to go out with the cards held: then the last card melded goes out."
    )
    partner_foot: bool = _opt(
        False, "A player may go out only once every partner has picked up their foot as well (and so played part of a turn "
        "from it: a foot is picked up in its owner's own turn, which goes on with it)."
    )
    ask_required: bool = _opt(False, "With ask_partner: a player with a partner must ask 'may I go out?' and be told yes before going out.")
    ask_once: bool = _opt(False, "With ask_partner: each player may ask only once a hand, whatever the answer (Modern American); otherwise once in any turn.")
    ask_after_laying: bool = _opt(False, "With ask_partner: a player may ask after laying cards this turn, at any time before going out (the classic text: 'before going out'); "
        "off: only before laying any card that turn (Pagat).")
    ask_advice: bool = _opt(False, "With ask_partner: the question asks the side's advice and binds nothing (Hand and Foot): a player holding one card, "
        "who can go out, may ask at any point of the turn, and the answer changes no legal move. Off: the answer binds for that turn.")
    concealed: bool = _opt(True, "Going out concealed (the whole hand melded in one turn, no earlier melds by the player) is recognised.")
    complete_ranks: tuple[str, ...] = _opt(
        (),
        "Natural ranks whose melds must all be canastas before a player of the side may go out (Modern American: A and 7).",
        rank=True,
        max_items=13,
    )
    complete_wild_meld: bool = _opt(
        False, "A side's meld of wild cards must be a canasta before a player of the side may go out (Modern American)."
    )


@attrs.frozen(cache_hash=True)
class RankPenalty:
    """A penalty for a side left with an incomplete meld of one rank when the hand ends."""

    rank: str = _opt("A", "Rank of the meld.", rank=True)
    penalty: int = _points(0, "Points taken off the side's score for each such meld.")


@attrs.frozen(cache_hash=True)
class HeldPenalty:
    """A penalty for a player left holding many cards of one rank when the hand ends."""

    rank: str = _opt("A", "Rank of the cards held.", rank=True)
    count: int = _cards(3, "Fewest cards of that rank in one player's hand and foot that cost the penalty.", 1)
    penalty: int = _points(0, "Points taken off the side's score for each such player, besides the cards' values.")


@attrs.frozen(cache_hash=True)
class ScoringRules:
    """Bonuses and penalties at the end of a hand."""

    going_out_bonus: int = _points(100, "Bonus for the side that goes out.")
    concealed_bonus: int = _points(200, "Bonus in all (instead of the going-out bonus) for going out concealed.")
    meld_points: bool = _opt(True, "Cards in melds count their points plus.")
    hand_minus: bool = _opt(True, "Cards left in hands and feet count their points minus.")
    meld_minus_without_canasta: bool = _opt(
        False, "With meld_points: a side that has completed no canasta counts its melded cards minus (Modern American).")
    incomplete_penalties: tuple[RankPenalty, ...] = _opt((), "Penalties for each meld of a rank left on a side's table short of a canasta "
        "when the hand ends (Modern American: aces 2500, 7s 2500).", max_items=13)
    incomplete_wild_penalty: int = _points(0, "Penalty for each meld of wild cards left on a side's table short of a canasta when the hand ends "
        "(Modern American: 2000).")
    held_penalties: tuple[HeldPenalty, ...] = _opt((), "Penalties for each player left holding many cards of a rank when the hand ends "
        "(Modern American: 3 or more aces, 1500; 3 or more 7s, 1500).", max_items=MAX_ROWS)


@attrs.frozen(cache_hash=True)
class GameRules:
    """The end of the game."""

    target: int | None = _opt_int(5000, "The game ends when a side reaches this cumulative score; none for no target.", 1, MAX_SCORE)
    rounds: int | None = _opt_int(None, "The game ends after this many hands; none for no limit.", 1, MAX_ROUNDS)
    tie: Literal["draw", "play_another"] = _opt(
        "draw", "When the leading sides tie at the end: the game is drawn, or another hand is played."
    )


#: Most special hands a variant may list, and most groups in one (real lists
#: have about ten hands of at most 14 groups).
MAX_SPECIAL_HANDS, MAX_SPECIAL_GROUPS = 30, 30

_SPECIAL_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@attrs.frozen(cache_hash=True)
class SpecialHand:
    """A special hand: a whole hand of a set shape, laid at once instead of a turn's melds (Modern American).

    The hand is made of groups, each of cards of one rank (or of wild cards);
    every card of the hand is in a group. ``Pairs`` is seven groups of 2 of
    different natural ranks; ``Zip Code`` groups of 2, 2, 3, 3 and 4.
    """

    name: str = _opt("pairs", "Short key of the hand, as moves name it ('special wild-pairs'): lower-case letters, digits and hyphens.",
                     nonempty=True, max_length=40, single_line=True)
    title: str = _opt("", "Name of the hand as players say it ('Wild Pairs'); empty: the key.", max_length=80, single_line=True)
    groups: tuple[int, ...] = _opt((2, 2, 2, 2, 2, 2, 2), "Sizes of the hand's groups, each of cards of one rank; they add up to the hand's size.",
                                   max_items=MAX_SPECIAL_GROUPS)
    wild_groups: tuple[int, ...] = _opt((0, 0), "How many of the groups are made of wild cards only: [fewest, most].", max_items=2)
    wild_sizes: tuple[int, ...] = _opt((), "Sizes a group of wild cards may have (Triples: [2], the wild pair); empty: any of the groups' sizes.",
                                       max_items=MAX_SPECIAL_GROUPS)
    wilds_match: bool = _opt(True, "A group of wild cards is all of one wild rank, all 2s or all jokers ('matching wilds'); otherwise any wild cards mix in it.")
    ranks: tuple[str, ...] = _opt((), "Natural ranks that must be among the groups (Wild Pairs: A and 7).", rank=True, max_items=13)
    distinct: bool = _opt(True, "Every group is of a different rank (two groups of wild cards, with wilds_match: one of 2s, one of jokers).")
    value: int = _points(2500, "Points the side scores for the hand, instead of everything else it has.")
    wins_game: bool = _opt(False, "Laying the hand wins the game at once, whatever the scores (Dream Hands).")

    @property
    def size(self) -> int:
        """Cards in the hand: the sum of its groups."""
        return sum(self.groups)

    @property
    def label(self) -> str:
        """The title, or the key where the title is empty."""
        return self.title or self.name

    def needs(self, wild_names: str = "all 2s or all jokers") -> str:
        """What the hand needs, in words: ``groups of 2, 2, 3, 3 and 4 cards, ...``.

        Args:
            wild_names: the variant's wild ranks, as ``"all 2s or all jokers"``.
        """
        sizes = list(self.groups)
        if len(set(sizes)) == 1:
            k = sizes[0]
            shape = f"{len(sizes)} single cards" if k == 1 else f"{len(sizes)} groups of {k} cards"
        else:
            shape = "groups of " + ", ".join(str(x) for x in sizes[:-1]) + f" and {sizes[-1]} cards"
        parts = [shape + (" of one rank each" if max(sizes) > 1 else "")]
        if self.distinct and len(sizes) > 1:
            parts.append("each of a different rank")
        low, high = self.wild_groups
        singles = max(sizes) == 1
        if high == 0:
            parts.append("no wild card")
        elif singles:
            # a group of one card is a card: say how many are wild, not how many groups
            count = f"exactly {low}" if low == high else (f"up to {high}" if low == 0 else f"{low} to {high}")
            apart = ", each of a different wild rank" if self.distinct and self.wilds_match and high > 1 else ""
            parts.append(f"{count} of them wild {'card' if high == 1 else 'cards'}{apart}")
        else:
            count = f"exactly {low}" if low == high else (f"up to {high}" if low == 0 else f"{low} to {high}")
            which = ""
            if self.wild_sizes:
                which = " (" + " or ".join(f"a group of {x}" for x in sorted(set(self.wild_sizes))) + ")"
            each = "each " if high > 1 else ""
            mix = f"{each}of one wild rank ({wild_names})" if self.wilds_match else "wild cards of any rank"
            plural = "group" if high == 1 else "groups"
            parts.append(f"{count} {plural} of wild cards{which}, {mix}")
        if self.ranks:
            names = [f"a {x}" if singles else x for x in self.ranks]
            listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
            parts.append(("among them " if singles else "including ") + listed)
        return "; ".join(parts)


def _check_special_hands(_inst: object, _attribute: object, hands: tuple[SpecialHand, ...]) -> None:
    """Each special hand has a well-formed key, used once, groups of 1 card or more, and wild groups it can hold."""
    seen: dict[str, int] = {}
    for i, h in enumerate(hands):
        path = f"special.hands[{i}]"
        if not _SPECIAL_NAME.fullmatch(h.name):
            raise VariantError(f"{path}.name: expected lower-case letters, digits and hyphens (e.g. 'wild-pairs'), got {h.name!r}")
        if h.name in seen:
            raise VariantError(f"{path}.name: expected each name once, got {h.name!r} again (first at special.hands[{seen[h.name]}])")
        seen[h.name] = i
        if not h.groups or any(x < 1 for x in h.groups):
            raise VariantError(f"{path}.groups: expected a non-empty list of group sizes of 1 card or more, got {list(h.groups)}")
        if len(h.wild_groups) != 2 or not 0 <= h.wild_groups[0] <= h.wild_groups[1] <= len(h.groups):
            raise VariantError(
                f"{path}.wild_groups: expected [fewest, most] with 0 <= fewest <= most <= {len(h.groups)} "
                f"(the number of groups), got {list(h.wild_groups)}"
            )
        stray = sorted(set(h.wild_sizes) - set(h.groups))
        if stray:
            raise VariantError(f"{path}.wild_sizes: expected sizes among the groups {list(h.groups)}, got {stray[0]}")


@attrs.frozen(cache_hash=True)
class SpecialRules:
    """Special hands: whole hands of a set shape that end the hand at once (Modern American)."""

    hands: tuple[SpecialHand, ...] = _opt((), "Special hands a side that has not melded may lay, all its cards at once after drawing, "
        "with no discard; the hand ends and the side scores only the special hand's value. Empty: none.",
        max_items=MAX_SPECIAL_HANDS, validator=_check_special_hands)
