"""What cannot be played: every combination of options, each valid alone, that the engine refuses.

:func:`refusals` is the one place that decides it. ``new_game`` and the state
reader refuse a variant with the first of them (:func:`unplayable`), and the
checker reports each as an error under its code, in the same words (the
checker keeps no conditions of its own for these). A refusal says why the
game cannot be played, naming the options that clash, then what to change.

The conditions read :class:`Supply`: what the decks hold and which melds,
canastas and openings the rules allow with them, worked out once per
compiled variant. The checker's facts (``canasta.check.registry.Facts``)
are these same facts, read by its warnings as well.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from canasta.cards import JOKER
from canasta.engine.kinds import BLACK_THREE
from canasta.engine.moves import WILD_TARGET

if TYPE_CHECKING:
    from canasta.engine.tables import Rules

__all__ = ["Refusal", "Supply", "plural", "refusals", "supply_of", "unplayable"]


def plural(n: int, word: str) -> str:
    """``"1 card"``, ``"2 cards"``: ``n`` and ``word``, with an ``s`` unless ``n`` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class Refusal(NamedTuple):
    """A combination of options, each valid on its own, that the engine does not play.

    :func:`refusals` lists them; ``new_game`` refuses with :attr:`text`, and
    the checker reports each as an error under :attr:`code`, with the same text.
    """

    #: the checker's code for it
    code: str
    #: the options that clash, as profile paths
    paths: tuple[str, ...]
    #: why, naming the options, then what to change (as a table would read it)
    text: str


def _refusal(code: str, paths: tuple[str, ...], why: str, change: str) -> Refusal:
    return Refusal(code, paths, f"{why}; {change}")


# --------------------------------------------------------------------------- the supply


class Supply:
    """What the decks hold and what the rules let be made of them, for one compiled variant.

    Attributes hold the counts of cards (``total``, ``dealt``, ``stock``,
    ``copies`` of a natural rank, ``wild_cards`` ...) and whether a meld,
    each kind of canasta and a sequence can be made at all (``any_meld``,
    ``natural_canasta``, ``sequence_canasta`` ...).
    """

    def __init__(self, r: Rules) -> None:
        self.r = r
        self.v = r.v
        self.meanings = mn = r.meanings
        decks = mn.decks
        self.decks = decks
        self.jokers = mn.jokers_per_deck * decks
        self.total = 52 * decks + self.jokers
        #: the cards the deal takes, talons set aside included (opening.talons_set_aside)
        self.dealt = mn.cards_dealt
        #: cards set aside as talons at the deal
        self.set_aside = mn.set_aside
        self.stock = self.total - self.dealt
        self.copies = 4 * decks
        self.black_threes = 2 * decks
        self.red_threes = mn.red_threes
        self.threes_wild = not mn.black_threes_apart
        self.wild_cards = mn.wild_cards
        self.ranks: tuple[int, ...] = r.natural_kinds
        self.new_size = r.new_size
        self.canasta_size = r.canasta_size
        # the smallest canasta: at least canasta size, and a new meld is never smaller
        self.smallest = max(self.canasta_size, self.new_size)
        self._rank_melds()
        self._sequences()
        self.any_meld = self.natural_meld or self.wild_meld or self.sequence_meld
        self.any_canasta = (
            self.natural_canasta or self.mixed_canasta or self.wild_canasta or self.sequence_canasta
        )
        self.needs_canasta = mn.going_out_needs_canasta

    def _rank_melds(self) -> None:
        """Which melds of one rank and of wild cards, and which canastas of them, can be made."""
        r = self.r
        rank = self.ranks[0] if self.ranks else None
        self.natural_meld = rank is not None and any(
            1 <= self.new_size - j <= self.copies and r.valid(rank, self.new_size - j, j, True)
            for j in range(0, min(self.new_size, self.wild_cards) + 1)
        )
        self.wild_meld = (
            r.wild_melds
            and self.wild_cards >= self.new_size
            and r.valid(WILD_TARGET, 0, self.new_size, True)
        )
        s = self.smallest
        self.natural_canasta = (
            rank is not None and s <= self.copies and self._reachable(rank, s, 0)
        )
        mixed = [
            (s - j, j)
            for j in range(1, min(s, self.wild_cards) + 1)
            if rank is not None and s - j <= self.copies and self._reachable(rank, s - j, j)
        ]
        self.mixed_canasta = bool(mixed)
        self.mixed_naturals = min((n for n, _ in mixed), default=0)
        self.mixed_wilds = min((j for _, j in mixed), default=0)
        self.wild_canasta = (
            self.wild_meld and s <= self.wild_cards and r.valid(WILD_TARGET, 0, s, False)
        )

    def _sequences(self) -> None:
        """The stretches of the sequence window no wild rank or 3 breaks, and what they allow
        (as the sequence kind of meld reads them)."""
        kind = self.r.seq_kind
        self.seq_runs = list(kind.stretches)
        self.longest_run = kind.longest
        self.sequence_meld = kind.can_lay
        # the smallest sequence canasta: canasta size, and a new sequence is never smaller
        self.seq_smallest = kind.smallest_canasta
        self.sequence_canasta = kind.canasta_possible

    def count(self, kind: int) -> int:
        """Cards of ``kind`` (a rank number) in the decks."""
        if kind == JOKER:
            return self.jokers
        if kind == BLACK_THREE:
            return self.black_threes
        return self.copies

    def _reachable(self, rank: int, n: int, j: int) -> bool:
        """Whether a meld of ``rank`` can grow to ``n`` naturals and ``j`` wilds.

        Every meld rule is monotone (more naturals never hurt, fewer wilds never
        hurt), so it is enough that the final meld is legal and that some new
        meld of the opening size fits inside it: add the naturals first, then
        the wilds.
        """
        if not self.r.valid(rank, n, j, False):
            return False
        size = self.new_size
        return any(
            size - j0 <= n and self.r.valid(rank, size - j0, j0, True)
            for j0 in range(0, min(j, size) + 1)
        )

    def kind_problem(self) -> bool:
        """Whether a refusal about one canasta kind already applies (C003 to C007)."""
        go = self.v.going_out
        return (
            not self.any_meld
            or (self.needs_canasta and not self.any_canasta)
            or (go.natural_canastas > 0 and not self.natural_canasta)
            or (go.mixed_canastas > 0 and not self.mixed_canasta)
            or (go.wild_canastas > 0 and not self.wild_canasta)
            or (go.sequence_canastas > 0 and not self.sequence_canasta)
            or go.wild_canastas * self.smallest > self.wild_cards
        )

    def positive_score_possible(self) -> bool:
        """Whether a side can ever score more than 0 in a hand (a sound over-estimate)."""
        v = self.v
        card_values = [self.r.value[k] for k in (*self.ranks, *self.r.wild)]
        if v.scoring.meld_points and self.any_meld and max(card_values, default=0) > 0:
            return True
        bonuses = [
            (self.natural_canasta, v.canastas.natural_bonus),
            (self.mixed_canasta, v.canastas.mixed_bonus),
            (self.wild_canasta, v.canastas.wild_bonus),
            (self.sequence_canasta, v.sequences.bonus),
            (self.any_canasta, max((b.bonus for b in v.canastas.rank_bonuses), default=0)),
            (True, v.scoring.going_out_bonus),
            (self.meanings.concealed_out, v.scoring.concealed_bonus),
            (True, v.threes.red_bonus),
            (True, v.threes.red_all_bonus or 0),
            (bool(self.meanings.black_out_held), v.threes.black_out_bonus),
        ]
        return any(possible and points > 0 for possible, points in bonuses)

    def opening_bound(self) -> tuple[int, int] | None:
        """``(cards, points)``: most points a player can meld to open, or None if unbounded.

        With one card drawn a turn, a hand never grows before its side has
        opened (cards from a taken pile join the hand only once the opening is
        met), so a player opens with at most ``hand_size + 1`` cards.
        """
        v, mn, r = self.v, self.meanings, self.r
        if r.draw_count != 1:
            return None
        n = max(mn.hand_size, mn.foot_size) + r.draw_count
        naturals = sorted(
            (r.value[k] for k in self.ranks for _ in range(self.copies)), reverse=True
        )
        if mn.black_threes_meld:
            naturals = sorted(
                naturals + [r.value[BLACK_THREE]] * self.black_threes, reverse=True
            )
        wilds = sorted((r.value[k] for k in r.wild for _ in range(self.count(k))), reverse=True)
        m = v.melds
        if m.wild_melds or (v.threes.black_meld != "never" and v.threes.black_meld_wilds):
            most_wilds = n
        else:
            # in every meld wilds <= max_wilds and naturals >= min_naturals
            most_wilds = n * m.max_wilds // (m.max_wilds + m.min_naturals)
            if m.wilds_at_most_naturals:
                most_wilds = min(most_wilds, n // 2)
        best = 0
        for w in range(0, min(most_wilds, len(wilds), n) + 1):
            best = max(best, sum(wilds[:w]) + sum(naturals[: n - w]))
        return n, best


@lru_cache(maxsize=64)
def supply_of(r: Rules) -> Supply:
    """The :class:`Supply` of ``r`` (cached: compiled rules are kept per variant)."""
    return Supply(r)


# --------------------------------------------------------------------------- the deal


def _deal_too_big(s: Supply) -> Iterator[Refusal]:
    """C001: the hands, feet, upcard and talons set aside need more cards than the decks hold."""
    if s.stock >= 0:
        return
    v = s.v
    d = v.deal
    each = f"({d.hand_size} in hand + {d.foot_size} in foot)" if d.foot_size else str(d.hand_size)
    up = " + 1 upcard" if d.upcard else ""
    paths: tuple[str, ...] = ("deal.hand_size", "deal.foot_size", "players.count", "deck.decks")
    if s.set_aside:
        up += f" + {s.set_aside} talon cards set aside"
        paths += ("opening.talons", "opening.talons_set_aside")
    yield _refusal(
        "C001", paths,
        f"the deal needs {s.dealt} cards ({v.players.count} players × {each}{up}) but "
        f"{plural(s.decks, 'deck')} with {s.jokers} jokers hold {s.total}",
        f"deal fewer cards or use more decks (deck.decks: {s.decks + 1})",
    )


def _stock_too_small(s: Supply) -> Iterator[Refusal]:
    """C002: after the deal the stock cannot serve the first draw."""
    if s.stock < 0 or s.stock >= s.r.draw_count:
        return
    held = "is empty" if s.stock == 0 else f"holds only {plural(s.stock, 'card')}"
    yield _refusal(
        "C002", ("draw.count", "deal.hand_size", "deck.decks"),
        f"after the deal the stock {held}, but a player draws "
        f"{plural(s.r.draw_count, 'card')} a turn",
        "deal fewer cards or use more decks",
    )


# --------------------------------------------------------------------------- melds and openings


def _no_meld(s: Supply) -> Iterator[Refusal]:
    """C003: the meld limits admit no meld at all with the cards in the decks."""
    if s.any_meld:
        return
    m = s.v.melds
    if m.max_size is not None and s.new_size > m.max_size:
        which = "min_naturals" if m.min_naturals > m.min_size else "min_size"
        yield _refusal(
            "C003", (f"melds.{which}", "melds.max_size"),
            f"a new meld needs at least {s.new_size} cards but a meld holds at most "
            f"{m.max_size}, so nobody can ever meld",
            f"lower melds.{which} or raise melds.max_size",
        )
    elif not s.ranks:
        yield _refusal(
            "C003", ("wilds.ranks", "melds.wild_melds"),
            "every rank is wild and melds of wild cards only are not allowed, so nobody can "
            "ever meld",
            "make fewer ranks wild, or set melds.wild_melds: true",
        )
    else:
        yield _refusal(
            "C003", ("melds.min_naturals", "melds.min_size", "deck.decks"),
            f"a new meld needs {s.new_size} cards with at least {m.min_naturals} naturals of "
            f"one rank, but {plural(s.decks, 'deck')} hold {s.copies} cards of a rank "
            f"and at most {m.max_wilds} wild cards may join, so nobody can ever meld",
            "lower melds.min_naturals or melds.min_size",
        )


def _opening_unreachable(s: Supply) -> Iterator[Refusal]:
    """C009: an opening minimum above the best a player can meld before the side has opened."""
    v = s.v
    if v.opening.by == "none" or not s.any_meld:
        return
    bound = s.opening_bound()
    if bound is None:
        return
    cards, best = bound
    for path, minimum in _opening_rows(s):
        if minimum > best:
            yield _refusal(
                "C009", (path, "deal.hand_size"),
                f"an opening of {minimum} points is needed, but the best {cards} cards a "
                f"player can hold before the side opens are worth at most {best} in melds, "
                "so a side that needs it can never open",
                f"lower the minimum to at most {best}",
            )
            return


def _opening_rows(s: Supply) -> list[tuple[str, int]]:
    """``(path, minimum)`` of each row of the opening table that a game can reach.

    A row of the score table from the target on is never read where the game
    ends as a side reaches the target (scores change only as a hand ends), and
    the round table's entries from ``game.rounds`` on are never read: such a
    row is idle (the rest of the table plays), not a reason to refuse.
    """
    mn, o = s.meanings, s.v.opening
    if o.by == "score":
        # a tie at the top may play on past the target (game.tie: play_another)
        end = mn.game_target if mn.game_target is not None and not mn.tie_plays_another else None
        return [(f"opening.score_table[{i}].minimum", x.minimum)
                for i, x in enumerate(o.score_table)
                if end is None or x.from_score is None or x.from_score < end]
    rounds = mn.game_rounds
    last = len(o.round_table) if rounds is None else min(rounds, len(o.round_table))
    return [(f"opening.round_table[{i}]", x) for i, x in enumerate(o.round_table[:last])]


def _natural_meld_too_big(s: Supply) -> Iterator[Refusal]:
    """C061: a clean opening meld larger than a meld can hold of one rank's natural cards."""
    n = s.r.clean
    if not n:
        return
    most = s.copies
    if s.r.max_size is not None:
        most = min(most, s.r.max_size)
    if n > most:
        yield _refusal(
            "C061", ("opening.natural_meld",),
            f"the opening needs a meld of {n} natural cards of one rank, but a meld can hold "
            f"at most {most} natural cards of one rank, so no side can ever open",
            f"lower opening.natural_meld to at most {most} (Modern American: 3)",
        )


def _clean_with(code: str, option: str, what: str, change: str) -> Refusal:
    """A clean opening meld together with ``what`` (set by ``option``), which the engine does not follow."""
    return _refusal(
        code, ("opening.natural_meld", option),
        f"the engine does not play a clean opening meld (opening.natural_meld) together with {what}",
        f"{change}, or remove opening.natural_meld",
    )


def _clean_with_several(s: Supply) -> Iterator[Refusal]:
    """C066: a clean opening meld together with several melds of one rank."""
    if s.r.clean and s.r.dup_any:
        # the clean-meld search follows one meld per rank
        yield _clean_with("C066", "melds.duplicate_ranks",
                          "several melds of one rank (melds.duplicate_ranks: any)",
                          "set melds.duplicate_ranks to never or after_complete")


def _red_threes_held(s: Supply) -> Iterator[Refusal]:
    """C068: red 3s that stay in hand."""
    if not s.v.threes.red_laid_at_once:
        # a red 3 kept in hand is never melded, laid or discarded, and the
        # engine's guard against dead ends counts every card as one to discard:
        # a player could be left holding red 3s alone, with no move
        yield _refusal(
            "C068", ("threes.red_laid_at_once",),
            "the engine does not play red 3s that stay in hand (threes.red_laid_at_once: "
            "false): a player could be left holding nothing else, with no move",
            "set threes.red_laid_at_once: true",
        )


def _clean_with_sequences(s: Supply) -> Iterator[Refusal]:
    """C069: a clean opening meld together with sequences."""
    if s.r.clean and s.r.seq_on:
        # the turn oracle follows a clean meld for the opening over melds of one rank only
        yield _clean_with("C069", "sequences.allowed", "sequences (sequences.allowed)",
                          "set sequences.allowed: false")


# --------------------------------------------------------------------------- going out


def _no_canasta(s: Supply) -> Iterator[Refusal]:
    """C004: going out needs a canasta, but no meld can reach canasta size."""
    if not s.any_meld or not s.needs_canasta or s.any_canasta:
        return
    m = s.v.melds
    if m.max_size is not None and m.max_size < s.canasta_size:
        yield _refusal(
            "C004", ("melds.max_size", "canastas.size", "going_out.canastas"),
            f"a meld holds at most {m.max_size} cards, so it never reaches the "
            f"{s.canasta_size} cards of a canasta, and going out needs a canasta, so nobody can "
            "ever go out",
            f"set melds.max_size to at least {s.canasta_size}, or null",
        )
        return
    yield _refusal(
        "C004", ("canastas.size", "going_out.canastas", "deck.decks"),
        f"no meld can reach the {s.canasta_size} cards of a canasta with "
        f"{s.copies} cards of each rank and at most {m.max_wilds} wild cards in a meld, "
        "and going out needs a canasta, so nobody can ever go out",
        "lower canastas.size or use more decks",
    )


def _kind_impossible(s: Supply) -> Iterator[Refusal]:
    """C005: going out needs a natural, mixed or sequence canasta that can never be made."""
    if not s.any_meld or (s.needs_canasta and not s.any_canasta):
        return
    go = s.v.going_out
    if go.natural_canastas > 0 and not s.natural_canasta:
        yield _refusal(
            "C005", ("going_out.natural_canastas", "canastas.size", "deck.decks"),
            f"going out needs {plural(go.natural_canastas, 'natural canasta')}, but "
            f"{s.smallest} natural cards of one rank can never be melded together "
            f"({plural(s.decks, 'deck')} hold {s.copies} of each rank), so nobody can ever go out",
            "lower going_out.natural_canastas or canastas.size, or use more decks",
        )
    if go.mixed_canastas > 0 and not s.mixed_canasta:
        yield _refusal(
            "C005", ("going_out.mixed_canastas", "melds.max_wilds"),
            f"going out needs {plural(go.mixed_canastas, 'mixed canasta')}, but no "
            "canasta can hold a wild card under the meld rules, so nobody can ever go out",
            "set going_out.mixed_canastas: 0, or allow wild cards in melds",
        )
    sq = s.v.sequences
    if go.sequence_canastas > 0 and sq.allowed and not s.sequence_canasta:
        # sequences off altogether is C048's
        if sq.max_size is not None and sq.max_size < s.seq_smallest:
            why = (f"a sequence holds at most {plural(sq.max_size, 'card')}, fewer than the "
                   f"{s.seq_smallest} of a sequence canasta")
            paths: tuple[str, ...] = (
                "going_out.sequence_canastas", "sequences.max_size", "sequences.canasta_size")
        else:
            why = (f"no stretch of the sequence window ({sq.low} to {sq.high}, less wild ranks and "
                   f"3s) holds {s.seq_smallest} ranks in a row")
            paths = ("going_out.sequence_canastas", "sequences.canasta_size", "sequences.low",
                     "sequences.high")
        yield _refusal(
            "C005", paths,
            f"going out needs {plural(go.sequence_canastas, 'sequence canasta')}, but {why}, "
            "so nobody can ever go out",
            "lower sequences.canasta_size, widen the window, or set going_out.sequence_canastas: 0",
        )


def _few_wilds(s: Supply) -> Iterator[Refusal]:
    """C006: going out needs wild canastas, but the decks hold too few wild cards."""
    go = s.v.going_out
    if go.wild_canastas == 0 or not s.r.wild_melds or not s.any_meld:
        return
    if s.needs_canasta and not s.any_canasta:
        return
    need = go.wild_canastas * s.smallest
    if s.wild_canasta and s.wild_cards >= need:
        return
    yield _refusal(
        "C006", ("going_out.wild_canastas", "wilds.ranks", "deck.jokers_per_deck"),
        f"going out needs {plural(go.wild_canastas, 'wild canasta')} of {s.smallest} "
        f"wild cards each ({need} in all), but the decks hold only "
        f"{plural(s.wild_cards, 'wild card')}, so nobody can ever go out",
        "lower going_out.wild_canastas, or add wild cards (jokers, decks)",
    )


def _kind_off(code: str, kind: str, needed: int, option: str, off: str) -> Iterator[Refusal]:
    """Going out needs ``needed`` canastas of ``kind``, which ``option`` being false forbids (``off``)."""
    if needed > 0:
        yield _refusal(
            code, (f"going_out.{kind}_canastas", option),
            f"going out needs {plural(needed, f'{kind} canasta')}, but {off}, so nobody can "
            "ever go out",
            f"set {option}: true, or going_out.{kind}_canastas: 0",
        )


def _wild_melds_off(s: Supply) -> Iterator[Refusal]:
    """C007: going out needs a wild canasta, but melds of wild cards only are not allowed."""
    if not s.r.wild_melds:
        yield from _kind_off("C007", "wild", s.v.going_out.wild_canastas, "melds.wild_melds",
                             "melds of wild cards only are not allowed")


def _canastas_at_most(s: Supply) -> tuple[int, int, int]:
    """``(rank, wild, sequence)``: the most canastas of each make a side can have at once."""
    mn = s.meanings
    per_rank = 1
    # a side may hold several canastas of a rank: a second meld once the first
    # is closed (after_complete with a closing size), or at any time
    if (mn.second_meld_after_canasta and s.r.max_size is not None) or mn.may_start_second_meld:
        needs = [n for ok, n in ((s.natural_canasta, s.smallest),
                                 (s.mixed_canasta, s.mixed_naturals)) if ok and n > 0]
        per_rank = max(1, s.copies // min(needs, default=s.copies))
    rank_melds = len(s.ranks) * per_rank if (s.natural_canasta or s.mixed_canasta) else 0
    wild_most = s.wild_cards // s.smallest if s.wild_canasta else 0
    # each deck holds one card of each rank of a suit: as many sequence canastas
    # per suit and deck as the window's stretches hold canasta-sized runs
    seq_most = (
        4 * s.decks * sum((hi - lo + 1) // s.seq_smallest for lo, hi in s.seq_runs)
        if s.sequence_canasta else 0
    )
    return rank_melds, wild_most, seq_most


def _too_many_canastas(s: Supply) -> Iterator[Refusal]:
    """C008: going out needs more canastas than the decks can make at once."""
    go = s.v.going_out
    if not s.needs_canasta or s.kind_problem():
        return
    total = max(
        go.canastas,
        go.natural_canastas + go.mixed_canastas + go.wild_canastas + go.sequence_canastas,
    )
    rank_melds, wild_most, seq_most = _canastas_at_most(s)
    if total > rank_melds + wild_most + seq_most:
        problem = f"at most {rank_melds + wild_most + seq_most} canastas can be on the table at once"
    elif go.sequence_canastas > seq_most:
        problem = f"at most {seq_most} sequence canastas can be made"
    elif go.natural_canastas + go.mixed_canastas > rank_melds:
        problem = f"at most {rank_melds} natural or mixed canastas can be made"
    elif go.wild_canastas * s.smallest + go.mixed_canastas * s.mixed_wilds > s.wild_cards:
        problem = f"the decks hold only {plural(s.wild_cards, 'wild card')}"
    elif (
        go.natural_canastas * s.smallest + go.mixed_canastas * s.mixed_naturals
        + go.sequence_canastas * s.seq_smallest
        > len(s.ranks) * s.copies
    ):
        problem = "there are too few natural cards"
    else:
        return
    yield _refusal(
        "C008",
        ("going_out.canastas", "going_out.natural_canastas", "going_out.mixed_canastas",
         "going_out.wild_canastas", "going_out.sequence_canastas"),
        f"going out needs {plural(total, 'canasta')}, but {problem}, so nobody can ever go out",
        "require fewer canastas",
    )


def _sequences_off(s: Supply) -> Iterator[Refusal]:
    """C048: going out needs a sequence canasta, but sequences may not be melded."""
    if not s.r.seq_on:
        yield from _kind_off("C048", "sequence", s.v.going_out.sequence_canastas,
                             "sequences.allowed", "sequences may not be melded")


def _required_advice(s: Supply) -> Iterator[Refusal]:
    """C070: going out needs the partner's yes, but the answer is advice that gives none."""
    g = s.v.going_out
    if g.ask_partner and g.ask_required and g.ask_advice:
        yield _refusal(
            "C070", ("going_out.ask_required", "going_out.ask_advice"),
            "going out needs the partner's yes, but advice binds nothing and gives none, so no "
            "player with a partner could ever go out",
            "remove going_out.ask_required (advice), or going_out.ask_advice (a binding yes)",
        )


# --------------------------------------------------------------------------- the end of the game


def _never_ends(s: Supply) -> Iterator[Refusal]:
    """C010: nothing ends the game, no target that can be reached and no number of rounds."""
    mn = s.meanings
    if mn.game_rounds is not None:
        return
    if mn.game_target is None:
        yield _refusal(
            "C010", ("game.target", "game.rounds"),
            "the game has no target score and no number of rounds, so it never ends",
            "set game.target (e.g. 5000) or game.rounds",
        )
    elif not s.positive_score_possible():
        yield _refusal(
            "C010", ("game.target", "scoring.meld_points"),
            f"no side can ever score points, so the target of {mn.game_target} is never "
            "reached and the game never ends",
            "give melds or bonuses points, or set game.rounds",
        )


#: Every condition, in the order of their codes (the checker lists its errors so).
_CONDITIONS: tuple[Callable[[Supply], Iterator[Refusal]], ...] = (
    _deal_too_big,            # C001
    _stock_too_small,         # C002
    _no_meld,                 # C003
    _no_canasta,              # C004
    _kind_impossible,         # C005
    _few_wilds,               # C006
    _wild_melds_off,          # C007
    _too_many_canastas,       # C008
    _opening_unreachable,     # C009
    _never_ends,              # C010
    _sequences_off,           # C048
    _natural_meld_too_big,    # C061
    _clean_with_several,      # C066
    _red_threes_held,         # C068
    _clean_with_sequences,    # C069
    _required_advice,         # C070
)


@lru_cache(maxsize=64)
def refusals(r: Rules) -> tuple[Refusal, ...]:
    """Every combination of ``r``'s options that cannot be played, in the order of their codes.

    The one place that decides it: :func:`unplayable` (so ``new_game`` and the
    state reader) and the checker's errors read it. Worked out once per
    compiled variant (``compile_rules`` keeps one per variant).
    """
    s = supply_of(r)
    return tuple(x for condition in _CONDITIONS for x in condition(s))


def unplayable(r: Rules) -> str | None:
    """Why a game of ``r``'s variant cannot be played, or ``None``: the first of :func:`refusals`."""
    found = refusals(r)
    return found[0].text if found else None
