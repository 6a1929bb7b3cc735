"""Compiled rules: a :class:`~canasta.variant.Variant` turned into the tables the engine reads.

:class:`Rules` is built once per variant by
:func:`canasta.engine.game.compile_rules` and shared by every state of a game.
This module sits below the game state: it knows the variant and the kinds of
meld, never a state (a state names its tables, so the tables may not name it).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final, Protocol

from canasta.cards import JOKER, build_deck, parse_rank
from canasta.engine.fastpaths import conclude
from canasta.engine.kinds import BLACK_THREE, KIND
from canasta.engine.meld_kinds import Shape, kinds_of, sequence_kind
from canasta.engine.moves import (
    RED_THREE,
    Meld,
)
from canasta.variant.meanings import Meanings, meanings
from canasta.variant.model import Variant

#: The new melds :mod:`canasta.engine.quick` lists for one signature of wild cards held
#: (:func:`canasta.engine.candidates.quick_rows`): by kind and count held (every
#: count the decks allow; nothing for a kind that is no natural rank), the
#: candidate melds whose cards make a meld; and the melds of wild cards alone that do.
QuickRows = tuple[tuple[tuple[tuple[Meld, ...], ...], ...], tuple[Meld, ...]]

#: Whether this module runs compiled (built with ``CANASTA_COMPILE=1``; see
#: hatch_build.py) rather than as Python source.
COMPILED: Final = __file__.endswith(tuple(EXTENSION_SUFFIXES))


_VALUE_FIELDS = {
    JOKER: "joker", 2: "two", 14: "ace", 13: "king", 12: "queen", 11: "jack", 10: "ten",
    9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four",
    BLACK_THREE: "black_three", RED_THREE: "red_three",
}


#: In ``Rules.late_naturals``: a rank whose melds take no wild card after the opening turn.
LATE_NEVER: Final = 10**6


def _card_class(wild: frozenset[int], kind: int) -> str:
    """The class of cards a kind belongs to, as pile.stop_cards and deal.upcard_covered_if name them."""
    if kind in wild:
        return "wild"
    if kind == RED_THREE:
        return "red_three"
    if kind == BLACK_THREE:
        return "black_three"
    return "natural"


class EngineHandle(Protocol):
    """What the tables know of the engine they are handed: how to compile a variant.

    The whole table of entry points is :class:`canasta.engine.state.Engine`,
    which states call through ``state.rules.engine``; the tables need only this
    part of it, to pickle themselves as "compile this variant".
    """

    compile_rules: Callable[[Variant], Rules]


class Rules:
    """A variant compiled into the tables the engine reads on hot paths."""

    def __init__(self, v: Variant, engine: EngineHandle) -> None:
        self.v = v
        self.engine = engine
        #: what the variant's options mean for play (canasta.variant.meanings); the
        #: steps below copy each meaning the engine reads into an attribute of its own,
        #: so that hot paths read it with one lookup
        self.meanings = mn = meanings(v)
        #: melds.add_fit's answers, by (rank << 24) | (naturals << 12) | wilds
        self.add_fits: dict[int, tuple[bool, bool]] = {}
        #: candidates.quick_rows' answers, by the wild cards held (clipped, as one int)
        self.quick_rows: dict[int, QuickRows] = {}
        # One step per part of the rules; each reads only the tables the steps before it built.
        self._seating(v, mn)
        self._cards(v, mn)
        self._threes(v, mn)
        self._melds(v, mn)
        self._sequences(v, mn)
        self._meld_shapes(v)
        self._opening(v, mn)
        self._going_out(v, mn)
        self._pile(v, mn)
        self._turn(v, mn)
        #: the fast paths this variant may take (canasta.engine.fastpaths), decided once here
        self.fast = conclude(self)

    def _seating(self, v: Variant, mn: Meanings) -> None:
        """The players, their sides and partners."""
        self.n = v.players.count
        self.sides = v.sides
        self.side_of = [0] * self.n
        self.partner = [-1] * self.n
        for i, seats in enumerate(self.sides):
            for seat in seats:
                self.side_of[seat] = i
                others = [s for s in seats if s != seat]
                self.partner[seat] = others[0] if others else -1
        self.partnerships = mn.partnerships

    def _cards(self, v: Variant, mn: Meanings) -> None:
        """The cards: which kinds are wild, natural or stray, what each is worth, how many the decks hold."""
        self.wild = mn.wild_ranks
        self.is_wild = [k in self.wild for k in range(16)]
        self.value = [0] * 16
        for kind, name in _VALUE_FIELDS.items():
            self.value[kind] = getattr(v.values, name)
        self.code_value = [self.value[KIND[c]] for c in range(64)]
        # natural kinds that can be melded as ranks
        self.natural_kinds = mn.natural_ranks
        self.is_natural = [k in self.natural_kinds for k in range(16)]
        self.wild_kinds = tuple(sorted(self.wild, reverse=True))
        self.cls = [_card_class(self.wild, k) for k in range(16)]
        in_deck = [0] * 16
        for card in build_deck(v.deck.decks, v.deck.jokers_per_deck):
            in_deck[KIND[int(card)]] += 1
        #: how many cards of each kind the decks hold
        self.in_deck = tuple(in_deck)
        #: the kinds in the decks that no meld ever takes: jokers where they are not
        #: wild (the checker's C027). Such a card is a dead card: it may only be
        #: discarded, so it stays in hand until then, and the turn oracle counts it
        #: among the cards a plan leaves in hand (searches.close_plans, oracle._stranded)
        self.stray_kinds = tuple(
            k for k in range(16)
            if in_deck[k] and not self.is_natural[k] and not self.is_wild[k] and k not in (BLACK_THREE, RED_THREE)
        )
        self.red_in_deck = mn.red_threes

    def _threes(self, v: Variant, mn: Meanings) -> None:
        """The 3s: black 3s melded or not, 3s laid at once or kept, the black-3 out."""
        th = v.threes
        #: whether black 3s are cards of their own kind: not where 3s are wild
        #: (wilds.ranks names 3), which makes them wild cards and nothing else
        self.black_apart = mn.black_threes_apart
        #: whether black 3s may be melded at all (threes.black_meld is not "never")
        self.black_melds = mn.black_threes_meld
        #: whether a meld of black 3s must go out (threes.black_meld: going_out_only),
        #: or may be laid in any turn (threes.black_meld: always)
        self.black_out_only = mn.black_threes_meld_going_out_only
        self.black_always = mn.black_threes_meld_always
        #: kinds laid face up as soon as they are dealt or drawn (threes.red_laid_at_once,
        #: threes.black_laid_at_once), replaced from the stock
        self.laid_at_once = [
            (k == RED_THREE and th.red_laid_at_once) or (k == BLACK_THREE and th.black_laid_at_once)
            for k in range(16)
        ]
        #: threes.keep_one: a player whose side has not melded keeps one such
        #: kind in hand (canasta.engine.threes); off where no 3 is laid at once
        self.keep_three = mn.keep_one_three
        #: kinds laid when found in a pile taken (not replaced): red 3s always, black 3s where they are laid
        self.laid_from_pile = [k == RED_THREE or (k == BLACK_THREE and th.black_laid_at_once) for k in range(16)]
        #: threes.black_out_cards (None: no going out with black 3s)
        self.black_out_cards = th.black_out_cards
        #: the black 3s held that leave a black-3 out in reach: black_out_cards of
        #: them, or one more to discard (none where there is no black-3 out)
        self.black_out_held = mn.black_out_held
        #: threes.red_last_card: play goes on after a 3 laid with the stock empty, or the
        #: hand ends where a 3 of a talon went unreplaced
        self.red_last_plays_on = mn.red_last_card_plays_on
        self.red_last_ends = mn.red_last_card_ends_hand

    def _melds(self, v: Variant, mn: Meanings) -> None:
        """Melds of a rank: their sizes, a second meld of a rank, and the rules on closed melds and wild cards."""
        m = v.melds
        #: the kind of meld of each target: 0 wild cards, 3 black 3s, else a rank
        self.meld_kinds = kinds_of(v)
        #: the kind of sequences, whose checks are the one test of a sequence's cards and span
        self.seq_kind = sequence_kind(v)
        self.min_size = m.min_size
        self.min_nat = m.min_naturals
        self.max_wilds = m.max_wilds
        self.max_size = m.max_size
        #: the most cards of a meld of each target (None: no limit): max_size,
        #: but for wild melds where melds.wild_meld_max says otherwise
        self.most = [k.max_size for k in self.meld_kinds]
        self.canasta_size = v.canastas.size
        self.new_size = mn.new_meld_size
        #: melds.duplicate_ranks: any (Samba): several open melds of one natural
        #: rank, addressed by their place among them, and combined by a move
        self.dup_any = mn.may_start_second_meld
        #: by meld target: whether a side may start another meld of it while one is open
        #: (melds.duplicate_ranks: any, for natural ranks only: melds of wild cards and
        #: of black 3s stay one open to a side, as integrity.state_problem holds them)
        self.several = [self.dup_any and k < 16 and self.is_natural[k] for k in range(17)]
        #: melds.duplicate_ranks is after_complete
        self.dup_after_complete = mn.second_meld_after_canasta
        #: melds.duplicate_ranks is never: one meld of a rank to a side, open or closed
        self.one_per_rank = mn.one_meld_per_rank
        #: melds.wild_melds
        self.wild_melds = m.wild_melds
        #: melds.rearrange
        self.rearrange = m.rearrange
        # Modern American's rules on closed and incomplete melds, as bit masks
        # over meld targets (bit 0: the meld of wild cards)
        self.dead_on = mn.closed_rank_dead
        #: after the opening turn, the naturals a meld of each rank needs before a
        #: wild card joins it (melds.late_wild_naturals, late_natural_ranks; 0: none)
        late, no_wild = mn.wilds_join_after, mn.wilds_never_join
        self.late_naturals = [LATE_NEVER if k in no_wild else late for k in range(16)]
        self.late_on = mn.wilds_join_late
        self.wild_lock = mn.wild_meld_locked
        #: some rule bars a card by its rank or the turn (dead ranks, late wild
        #: cards, the wild-meld lock): asked once a listing (melding.quick_play)
        self.rank_bars = mn.rank_bars

    def _sequences(self, v: Variant, mn: Meanings) -> None:
        """Sequences (sequences.*): the ranks they may hold, their sizes, and the cards they name by suit."""
        sq = v.sequences
        self.seq_on = sq.allowed
        self.seq_ranks = mn.sequence_ranks
        self.in_seq = [k in self.seq_ranks for k in range(16)]
        #: by kind: the naturals held below which a rank's cards stay in hand where the
        #: side has no meld of the rank (fewer than a new meld needs); 0 for kinds
        #: that are no natural rank and for ranks a sequence may hold. The quick
        #: listing counts such cards (quick.quick_moves), as oracle._stranded does
        self.strand_below = [
            v.melds.min_naturals if self.is_natural[k] and not self.in_seq[k] else 0 for k in range(16)
        ]
        #: the ranks whose natural cards moves name with their suit: those a
        #: sequence may hold (elsewhere cards of one rank are interchangeable)
        self.suited = self.in_seq
        self.suited_ranks = frozenset(self.seq_ranks)
        self.seq_min = sq.min_size
        self.seq_canasta = sq.canasta_size
        self.seq_max = sq.max_size
        #: sequences.grow_when_going_out, where it can matter (a closing size):
        #: the engine's checks of sequences grown past seq_max are gated on it
        self.seq_grow = mn.sequences_grow_going_out
        #: sequences.join: two sequences of a suit that meet end to end may be joined
        self.seq_join = mn.sequences_join
        #: sequences.wild_in_gap, where it can matter: a new sequence of at least
        #: 3 cards has an inside rank for its one wild card to stand for
        self.seq_wild = mn.sequence_wild_in_gap
        # no meld under this many cards is a canasta, of any kind
        self.least_canasta = mn.least_canasta

    def _meld_shapes(self, v: Variant) -> None:
        """Legality of natural melds by (naturals, wilds), for adding to a meld and for a new one.

        The same for every natural rank, and asked for often by the oracle's
        quick bounds; sized for every shape the decks can make.
        """
        most_n = max([self.in_deck[k] for k in self.natural_kinds], default=0) + 1
        most_j = sum(self.in_deck[k] for k in self.wild_kinds) + 2
        # Where some ranks take no wild card (melds.no_wild_ranks), a shape is
        # in the tables only if every natural rank may hold it: the oracle's
        # greedy plan then never lays a meld that is illegal for its rank (its
        # upper bound reads no table, and its full search asks r.valid by rank).
        ranks = self.natural_kinds or (4,)
        self.nat_add = [
            [all(self.valid(k, n, j, False) for k in ranks) for j in range(most_j)] for n in range(most_n)
        ]
        self.nat_new = [
            [all(self.valid(k, n, j, True) for k in ranks) for j in range(most_j)] for n in range(most_n)
        ]

    def _opening(self, v: Variant, mn: Meanings) -> None:
        """What the opening asks beyond its points: a clean meld, a natural canasta; the talons given after it."""
        #: opening.natural_meld (0: no clean meld asked of the opening)
        self.clean = mn.opening_clean_meld
        #: some opening asks a natural canasta (OpeningStep.canasta: natural), which the
        #: opening turn must still hold at its end: no wild card turns the last one mixed
        self.open_natural = mn.opening_needs_natural_canasta
        # talons: given after the discard of a side's opening turn (opening.talons)
        self.talons = tuple(v.opening.talons)

    def _going_out(self, v: Variant, mn: Meanings) -> None:
        """Going out: the canastas it needs, the melds it must complete, asking the partner."""
        go = v.going_out
        self.req = (
            go.canastas, go.natural_canastas, go.mixed_canastas, go.wild_canastas, go.sequence_canastas,
        )
        self.out_complete = sum(1 << parse_rank(k) for k in go.complete_ranks) | (
            1 if go.complete_wild_meld else 0
        )
        #: by meld target: a meld that holds a wild card is an ordinary meld, which
        #: out_complete passes by (MeldKind.singled_out)
        self.mixed_ordinary = tuple(not k.singled_out(target, 1) for target, k in enumerate(self.meld_kinds))
        #: going_out.ask_partner, going_out.ask_once, going_out.ask_advice
        self.ask_partner = go.ask_partner
        self.ask_once = go.ask_once
        self.ask_advice = go.ask_advice
        #: whether asking is open after cards were laid this turn (going_out.ask_after_laying,
        #: or advice, which binds nothing)
        self.ask_late = mn.ask_after_laying
        #: going_out.foot_first, going_out.final_discard is optional, going_out.out_but_not_out
        self.foot_first = mn.foot_first
        self.final_optional = mn.final_discard_optional
        self.out_not_out = mn.out_but_not_out
        #: going_out.partner_foot, going_out.concealed, opening.concealed_waives
        self.partner_foot = mn.partner_foot
        self.concealed = mn.concealed_out
        self.concealed_waives = mn.concealed_waives_opening
        #: going_out.ask_required (with going_out.ask_partner)
        self.ask_required = mn.ask_required

    def _pile(self, v: Variant, mn: Meanings) -> None:
        """The discard pile: the cards that stop or cover it, and what may not be discarded or taken."""
        self.stop = [self.cls[k] in v.pile.stop_cards for k in range(16)]
        self.cover = [self.cls[k] in v.deal.upcard_covered_if for k in range(16)]
        #: kinds barred from an empty pile (pile.empty_bar_ranks, pile.empty_bar_wilds)
        self.empty_bar = [k in mn.empty_pile_barred for k in range(16)]
        #: whether any rule bars some discards (see canasta.engine.going_out.discard_bar)
        #: dead ranks barred from an empty pile too (pile.empty_bar_dead, with dead ranks)
        self.bar_dead = mn.empty_pile_bars_dead
        self.bars_discards = mn.bars_discards
        #: pile.frozen_until_opened
        self.frozen_unopened = mn.pile_frozen_until_opened
        #: pile.one_card_bar, where a way of taking the pile needs only one card from the hand
        self.one_card_bar = mn.one_card_pile_barred
        #: pile.wild_discard is out_or_all_wild
        self.wild_out_only = mn.wild_discard_limited
        #: by kind: a card of it in the pile freezes the pile for both sides
        #: (pile.frozen_by_wild, pile.frozen_by_red_three)
        self.freezes = [
            (mn.pile_frozen_by_wild and self.is_wild[k]) or (mn.pile_frozen_by_red_three and k == RED_THREE)
            for k in range(16)
        ]
        # The ways of taking the pile, read for each way a listing asks about
        #: pile.take_natural_pair, pile.take_natural_and_wild, pile.take_lay_off
        self.take_pair = mn.pile_by_pair
        self.take_wild = mn.pile_by_natural_and_wild
        self.take_lay_off = mn.pile_by_lay_off
        #: pile.lay_off_after_canasta
        self.lay_off_canasta = mn.lay_off_after_canasta
        #: pile.blocked_by_meld_size (None: no meld blocks the pile), pile.blocked_exception
        self.blocked_at = mn.pile_blocked_at
        self.blocked_finish = mn.blocked_pile_finish
        #: pile.take_top (None: the whole pile is taken)
        self.take_top = mn.pile_taken_top
        #: sequences.top_card_pickup, where sequences are allowed
        self.top_pickup = mn.top_card_pickup
        #: opening.pile_allowed, opening.top_card_counts
        self.open_by_pile = mn.pile_before_opening
        self.top_counts = mn.top_card_counts_to_open

    def _turn(self, v: Variant, mn: Meanings) -> None:
        """The rest of a turn: drawing, the foot, special hands."""
        # Options read for nearly every move, kept here as plain attributes: the
        # variant's are two lookups each (section, then field), and from the
        # compiled engine each lookup on a variant's section is a generic one.
        #: draw.count, and draw.short_stock is end_hand
        self.draw_count = v.draw.count
        self.short_stock_ends = mn.short_stock_ends
        #: foot.walk; foot.trigger is empty_hand
        self.foot_walk = v.foot.walk
        self.foot_on_empty = mn.foot_on_empty_hand
        #: special hands (special.hands), by name, and the hand sizes that may lay one
        self.special = v.special.hands
        self.special_by_name = {h.name: h for h in self.special}
        self.special_sizes = frozenset(h.size for h in self.special)

    def __reduce__(self) -> tuple[Callable[[Variant], Rules], tuple[Variant]]:
        # tables are rebuilt from the variant (and shared through the cache),
        # which also pickles a compiled engine's Rules
        return self.engine.compile_rules, (self.v,)

    def valid(self, rank: int, n: int, j: int, new: bool) -> bool:
        """Whether a meld of ``rank`` (a meld target) with ``n`` naturals and ``j`` wilds is legal.

        The size limits every meld shares, then the rules of the target's kind
        of meld (:mod:`canasta.engine.meld_kinds`).
        """
        return self.meld_kinds[rank].valid(n, j, new)

    def closed(self, rank: int, size: int) -> bool:
        """Whether a meld of target ``rank`` and ``size`` cards is closed to further cards."""
        most = self.most[rank]
        return most is not None and size >= most

    def kind_of(self, rank: int, size: int, j: int) -> str | None:
        """Canasta kind of a meld, or ``None`` if it is no canasta."""
        # Most melds asked about are short: no kind makes a canasta under
        # least_canasta cards, so they are answered without asking the kind.
        if size < self.least_canasta:
            return None
        return self.meld_kinds[rank].canasta(size, j)

    def canasta_kind(self, meld: Shape) -> str | None:
        """Canasta kind of ``meld``, or ``None``."""
        return self.kind_of(meld.rank, meld.size, meld.wilds)
