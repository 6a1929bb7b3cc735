"""Sentences of melds and wild cards, the first meld and canastas.

Also the helpers the book's sections and the comparison read: the size of a new meld,
the steps of the opening score table, the kinds of canasta and the rank bonuses.
"""

from __future__ import annotations

# The sentence modules import the one before them first, so the registry holds their
# rules in rule-book order whichever module is imported first (see registry).
import canasta.rulebook.deal  # noqa: F401
from canasta.cards import RANK_NAMES, parse_rank
from canasta.engine.meld_kinds import sequence_kind, sequence_ranks
from canasta.rulebook.registry import S_MELDS, rule
from canasta.rulebook.words import cap, clean, count, join, num, ordinal, rank_plural
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant

# -- melds and wild cards


def new_size(v: Variant) -> int:
    """The fewest cards a new meld may hold: its minimum size, or its minimum of natural cards if larger."""
    return max(v.melds.min_size, v.melds.min_naturals)


def _say_meld_size(v: Variant) -> str:
    m = v.melds
    size = new_size(v)
    if m.min_naturals >= size:
        what = f"at least {count(size, 'natural card')} of one rank"
    else:
        what = (
            f"at least {count(size, 'card')} of one rank, at least {num(m.min_naturals)} "
            f"of {'it' if size == 1 else 'them'} natural"
        )
    # partners share their side's melds (the turn's "add cards to your side's melds" says either adds)
    add = (
        "Partners share their side's melds."
        if meanings(v).partnerships else "You may add cards to your own melds later."
    )
    return f"A meld is {what}. {add}"


rule("melds.min_size melds.min_naturals", S_MELDS, _say_meld_size)


def _say_max_wilds(v: Variant) -> str:
    w = v.melds.max_wilds
    if w == 0:
        return "Wild cards may never be melded with natural cards."
    meld = "A meld of one rank" if v.melds.wild_melds else "A meld"
    return f"{meld} may hold at most {count(w, 'wild card')}."


rule(
    "melds.max_wilds", S_MELDS, _say_max_wilds,
    instead=lambda v, o: (
        f"A meld may hold at most {count(v.melds.max_wilds, 'wild card')} instead of {num(o.melds.max_wilds)}."
    ),
)


def no_wild_ranks(v: Variant) -> list[str]:
    """The ranks of ``melds.no_wild_ranks`` that players can meld (wild ranks and 3s are no such rank)."""
    wild = set(v.wilds.ranks)
    return [r for r in v.melds.no_wild_ranks if r not in wild and r not in ("3", "JK")]


def _say_no_wild_ranks(v: Variant) -> str:
    ranks = no_wild_ranks(v)
    if not ranks:
        return "Every rank's meld may take wild cards."
    names = join([rank_plural(r) for r in ranks], "or")
    return f"A meld of {names} never holds a wild card, whether laid from the hand or with the discard pile."


rule(
    "melds.no_wild_ranks", S_MELDS, _say_no_wild_ranks,
    relevant=lambda v: v.melds.max_wilds > 0, shown=lambda v: v.melds.max_wilds > 0 and bool(no_wild_ranks(v)),
)


def _say_wilds_vs_naturals(v: Variant) -> str:
    if v.melds.wilds_at_most_naturals:
        return "A meld may never hold more wild cards than natural cards."
    return "A meld may hold more wild cards than natural cards, within the limit on wild cards."


rule(
    "melds.wilds_at_most_naturals", S_MELDS, _say_wilds_vs_naturals,
    relevant=lambda v: v.melds.max_wilds > 0,
    shown=lambda v: v.melds.max_wilds > 0 and v.melds.wilds_at_most_naturals,
)


def _say_naturals_per_wild(v: Variant) -> str:
    n = v.melds.naturals_per_wild
    if n is None:
        return "A wild card needs no set number of natural cards beside it, within the limit on wild cards."
    text = f"Each wild card in a meld needs at least {count(n, 'natural card')} beside it."
    if v.melds.max_wilds >= 2:
        text += (
            f" So a meld with one wild card holds at least {num(n)} natural "
            f"{'card' if n == 1 else 'cards'}, and one with two wild cards at least {num(2 * n)}."
        )
    return text


rule(
    "melds.naturals_per_wild", S_MELDS, _say_naturals_per_wild,
    relevant=lambda v: v.melds.max_wilds > 0,
    shown=lambda v: v.melds.max_wilds > 0 and v.melds.naturals_per_wild is not None,
)


def _second_wild_places(v: Variant) -> str:
    s = v.melds.second_wild_size
    top = v.melds.max_size
    if top is not None and top == s:
        return f"only as its {ordinal(s)} card"
    if top is not None and top == s + 1:
        return f"only as its {ordinal(s)} or {ordinal(s + 1)} card"
    return f"only as its {ordinal(s)} card or later"


def _say_second_wild(v: Variant) -> str:
    m = v.melds
    if m.second_wild == "by_size":
        s = m.second_wild_size
        top = m.max_size
        if top is not None and top < s:
            return "A meld may never hold a second wild card."
        if s <= 2:
            return "A second wild card may join a meld at any time, within the limit."
        return (
            f"A meld of up to {count(s - 1, 'card')} may hold only one wild card; "
            f"a second wild card may join it {_second_wild_places(v)}."
        )
    if m.second_wild == "by_naturals":
        return (
            "A second wild card may join a meld only once the meld holds at least "
            f"{count(m.second_wild_naturals, 'natural card')}."
        )
    return "A second wild card may join a meld at any time, within the limit."


rule(
    "melds.second_wild", S_MELDS, _say_second_wild,
    relevant=lambda v: v.melds.max_wilds >= 2,
    shown=lambda v: v.melds.max_wilds >= 2 and v.melds.second_wild != "always",
)
rule(
    "melds.second_wild_size", S_MELDS, _say_second_wild,
    relevant=lambda v: v.melds.max_wilds >= 2 and v.melds.second_wild == "by_size",
)
rule(
    "melds.second_wild_naturals", S_MELDS, _say_second_wild,
    relevant=lambda v: v.melds.max_wilds >= 2 and v.melds.second_wild == "by_naturals",
)


def _wild_max(v: Variant) -> int | None:
    """The most cards of a meld of wild cards only (its own limit, else every meld's)."""
    m = v.melds
    return m.wild_meld_max if m.wild_meld_max is not None else m.max_size


def _say_max_size(v: Variant) -> str:
    top = v.melds.max_size
    own = v.melds.wild_melds and v.melds.wild_meld_max is not None
    if top is None:
        if own:
            return "A meld of one rank may grow without limit."
        return "A meld may grow without limit."
    return f"A meld may hold at most {count(top, 'card')}: at {num(top)} it is closed, and no more cards may join it."


def _closes(v: Variant) -> bool:
    """Whether some meld stops growing: otherwise "a canasta is seven cards or more" says melds grow on."""
    return v.melds.max_size is not None or (v.melds.wild_melds and v.melds.wild_meld_max is not None)


rule(
    "melds.max_size", S_MELDS, _say_max_size, shown=_closes,
    instead=lambda v, o: (
        _say_max_size(v)
        if v.melds.max_size is None or o.melds.max_size is None
        else f"A meld may hold at most {count(v.melds.max_size, 'card')} instead of "
        f"{num(o.melds.max_size)}; at that size it is closed."
    ),
)


def _say_duplicates(v: Variant) -> str:
    partners = meanings(v).partnerships
    who = "A side" if partners else "A player"
    if v.melds.duplicate_ranks == "any":
        your = "Your side" if partners else "You"
        return (
            f"{your} may have several melds of the same rank. A new one may be started at any time, "
            "even while another meld of that rank is unfinished. In your turn you may combine two "
            "melds of one rank into one, if the combined meld keeps the meld rules. Several "
            "canastas of one rank each count as a canasta."
        )
    if v.melds.duplicate_ranks == "after_complete" and v.melds.max_size is not None:
        its, it = ("its", "it") if partners else ("their", "they")
        return (
            f"{who} may have only one unfinished meld of each rank, but once {its} meld of a "
            f"rank is complete, {it} may start another meld of that rank."
        )
    return f"{who} may have only one meld of each rank."


rule("melds.duplicate_ranks", S_MELDS, _say_duplicates)


def _late_wild_example(v: Variant) -> str:
    """The rule of ``melds.late_wild_naturals`` worked on a meld of 8s ("" where it does not fit)."""
    n = v.melds.late_wild_naturals
    wilds = [w for w in ("2", "JK") if w in v.wilds.ranks and not (w == "JK" and v.deck.jokers_per_deck == 0)]
    if n is None or n - 1 < max(v.melds.min_size, v.melds.min_naturals, 1) or not wilds:
        return ""
    if v.melds.max_wilds < 1 or {"8"} & (set(v.wilds.ranks) | set(v.melds.no_wild_ranks) | set(v.melds.late_natural_ranks)):
        return ""
    wild = "a 2" if wilds[0] == "2" else "a joker"
    return (
        f" For example, after that turn a meld of {num(n - 1)} 8s takes no wild card; once "
        f"{a_an(ordinal(n))} 8 joins it, {wild} may join too."
    )


def _say_late_wilds(v: Variant) -> str:
    m = v.melds
    your = "your side" if meanings(v).partnerships else "you"
    parts = []
    if m.late_wild_naturals is not None:
        n = num(m.late_wild_naturals)
        parts.append(
            f"In the turn {your} {'opens' if meanings(v).partnerships else 'open'}, wild cards may go in any meld. "
            f"After that turn, a wild card may join a meld only once it holds {n} natural cards. "
            f"A new meld is then laid without wild cards unless it holds {n} natural cards."
            + _late_wild_example(v)
        )
    if m.late_natural_ranks:
        names = join([rank_plural(rank) for rank in m.late_natural_ranks], "or")
        parts.append(
            f"A meld of {names} takes wild cards only in the turn {your} "
            f"{'opens' if meanings(v).partnerships else 'open'}; after that turn, natural cards only. "
            "If it took wild cards in that turn, it is an ordinary meld: the rules for an unfinished "
            "meld of its rank do not apply to it, and it takes no more wild cards."
        )
    if not parts:
        return "Wild cards may join a meld whenever the meld's rules allow."
    return " ".join(parts)


rule(
    "melds.late_wild_naturals melds.late_natural_ranks", S_MELDS, _say_late_wilds,
    shown=lambda v: v.melds.late_wild_naturals is not None or bool(v.melds.late_natural_ranks),
)


def _say_wild_lock(v: Variant) -> str:
    side = "side" if meanings(v).partnerships else "player"
    if v.melds.wild_meld_lock:
        text = (
            f"While a {side}'s meld of wild cards is not yet a canasta, the {side} may put no wild "
            "card in any other meld."
        )
        top = _wild_max(v)
        if top is not None and top < v.canastas.size:
            # the engine's reading where a meld of wild cards closes short of a canasta
            text += (
                f" A meld of wild cards closes at {num(top)} cards, short of a canasta, so once the "
                f"{side} has one it keeps every further wild card out of the {side}'s melds for the rest of the hand."
            )
        return text
    return "A meld of wild cards that is not yet a canasta does not stop wild cards going elsewhere."


rule(
    "melds.wild_meld_lock", S_MELDS, _say_wild_lock,
    relevant=lambda v: v.melds.wild_melds,
    shown=lambda v: v.melds.wild_melds and v.melds.wild_meld_lock,
)


def _say_dead(v: Variant) -> str:
    if not v.melds.dead_when_closed:
        return "A rank stays open to every side however many melds of it are complete."
    return (
        f"Once any meld of a rank is complete (closed) at {num(v.melds.max_size or 0)} cards, that "
        "rank is dead for everyone. No one may start a meld of it or add to one. The discard pile "
        "cannot be taken while a dead card is on top, and dead cards can only be discarded."
    )


rule(
    "melds.dead_when_closed", S_MELDS, _say_dead,
    relevant=lambda v: v.melds.max_size is not None,
    shown=lambda v: v.melds.max_size is not None and v.melds.dead_when_closed,
)


def _say_wild_melds(v: Variant) -> str:
    if not v.melds.wild_melds:
        return "A meld made only of wild cards is not allowed."
    low = v.melds.min_size
    top = _wild_max(v)
    size = f"{num(low)} to {num(top)}" if top is not None and top > low else f"at least {num(low)}"
    text = f"A meld may also be made of wild cards only: {size} wild cards, with no natural card."
    if v.melds.wild_meld_max is not None and v.melds.wild_meld_max != v.melds.max_size:
        text += (
            f" A meld of wild cards is complete (closed) at {num(v.melds.wild_meld_max)}, "
            "and no more cards may join it."
        )
    if v.melds.duplicate_ranks == "any":
        # several melds of a rank are for melds of naturals (melds.duplicate_ranks)
        text += f" {'A side' if meanings(v).partnerships else 'A player'} has only one meld of wild cards."
    return text


rule(
    "melds.wild_melds", S_MELDS, _say_wild_melds, shown=lambda v: v.melds.wild_melds
)
rule(
    "melds.wild_meld_max", S_MELDS, _say_wild_melds,
    relevant=lambda v: v.melds.wild_melds and _wild_max(v) != v.melds.max_size,
)


def _say_rearrange(v: Variant) -> str:
    if not v.melds.rearrange:
        return "A card laid on the table stays where it was laid."
    return (
        "Until the discard, a player may rearrange the cards laid this turn: move them "
        "between melds or take them back into the hand; the turn is over once the "
        "player discards."
    )


rule("melds.rearrange", S_MELDS, _say_rearrange, shown=lambda v: v.melds.rearrange)


# -- sequences (sequences.*): a second kind of meld, of one suit in rank order

_THE_RANK = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "JK": "joker"}


def _the(rank: int) -> str:
    """``"the 4"``, ``"the ace"``: a rank of a sequence as a player names it."""
    name = RANK_NAMES[rank]
    return "the " + _THE_RANK.get(name, name)


def a_an(noun: str) -> str:
    """``noun`` with its indefinite article: ``"a samba"``, ``"an escalera"``."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def sequence_name(v: Variant) -> str:
    """What the rules call a sequence canasta (``sequences.name``), on one line; ``"sequence canasta"`` if blank."""
    return clean(v.sequences.name) or "sequence canasta"


def sequence_runs(v: Variant) -> list[tuple[int, int]]:
    """The stretches of ranks a sequence may run through, ``(lowest, highest)`` rank numbers.

    The window ``sequences.low`` to ``sequences.high`` less the ranks that break
    it (wild ranks and 3s), as the engine's sequences read it
    (:attr:`canasta.engine.meld_kinds.SequenceMeld.stretches`); empty without sequences.
    """
    return list(sequence_kind(v).stretches)


def longest_run(v: Variant) -> int:
    """The most ranks in a row a sequence may hold: the longest stretch of :func:`sequence_runs`."""
    return sequence_kind(v).longest


def sequence_canasta_possible(v: Variant) -> bool:
    """Whether a sequence can ever become a canasta under ``v``."""
    return sequence_kind(v).canasta_possible


def _breaks(v: Variant) -> list[str]:
    """The plural names of the ranks inside the window that no sequence may hold."""
    lo, hi = parse_rank(v.sequences.low), parse_rank(v.sequences.high)
    held = set(sequence_ranks(v))
    return [rank_plural(RANK_NAMES[k]) if k != 3 else "3s" for k in range(lo, hi + 1) if k not in held]


def _say_sequences(v: Variant) -> str:
    sq = v.sequences
    side = "side" if meanings(v).partnerships else "player"
    if not sq.allowed:
        return "Cards of one suit in rank order make no meld: every meld is of one rank."
    lo, hi = parse_rank(sq.low), parse_rank(sq.high)
    if lo > hi:
        return (
            f"Sequences would be allowed from {_the(lo)} up to {_the(hi)}, but that window holds no "
            "rank, so no sequence can ever be laid."
        )
    text = (
        f"A {side} may also meld sequences: natural cards of one suit in unbroken rank order, "
        f"from {_the(lo)} up to {_the(hi)} at most."
    )
    if not sq.wild_in_gap:
        text += " Wild cards never join a sequence."
    if hi == 14:
        text += " The ace is high only: no sequence turns the corner from the ace to a 2."
    breaks = _breaks(v)
    if breaks:
        never = "never its natural cards" if sq.wild_in_gap else "never part of one"
        text += (
            f" No sequence holds {join(breaks)} (wild cards and 3s are {never}), "
            f"so none runs across {'it' if len(breaks) == 1 else 'them'}."
        )
    if longest_run(v) < sq.min_size:
        text += f" No stretch of the window holds {num(sq.min_size)} ranks in a row, so no sequence can ever be laid."
    return text


rule(
    "sequences.allowed", S_MELDS, _say_sequences, shown=lambda v: v.sequences.allowed,
)
rule(
    "sequences.low sequences.high", S_MELDS, _say_sequences,
    relevant=lambda v: v.sequences.allowed,
)


def _say_sequence_size(v: Variant) -> str:
    n = v.sequences.min_size
    return (
        f"A new sequence is laid with exactly {count(n, 'card')}; then cards join it one at a "
        "time, at either end."
    )


def _say_sequence_join(v: Variant) -> str:
    side = "side" if meanings(v).partnerships else "player"
    if v.sequences.join:
        joined = (
            "two of them that meet end to end (the highest card of one just below the lowest of the "
            "other) may be joined into one in the player's turn, as long as the joined sequence keeps "
            "the sequence rules: the 4 to 6 of hearts and the 7 to 9 of hearts make the 4 to 9."
        )
    else:
        joined = "they are never joined into one."
    return f"A {side} may have several sequences of one suit; " + joined


rule(
    "sequences.min_size", S_MELDS, _say_sequence_size, relevant=lambda v: v.sequences.allowed,
    instead=lambda v, o: (
        f"A new sequence is laid with exactly {count(v.sequences.min_size, 'card')} instead of "
        f"{num(o.sequences.min_size)}."
    ),
)


rule("sequences.join", S_MELDS, _say_sequence_join, relevant=lambda v: v.sequences.allowed)


def _say_sequence_wild(v: Variant) -> str:
    sq = v.sequences
    if not sq.wild_in_gap:
        return "Wild cards never join a sequence."
    ranks = v.wilds.ranks
    if not ranks:
        return "A new sequence may hold one wild card between two of its natural cards, but this game has no wild cards."
    wild = ranks[0]
    called = "joker" if wild == "JK" else wild
    text = (
        "A new sequence may hold one wild card, standing for the missing rank between two of its "
        f"natural cards: in the 7 and 9 of hearts with {a_an(called)}, the {called} stands for the 8. The wild card stays "
        "where it was laid, so the ends of a sequence are always natural cards, and no sequence ever "
        f"holds a second wild card. {cap(a_an(sequence_name(v)))} holding a wild card scores as any other. "
        "This is a house rule: no published rules of Samba put wild cards in sequences."
    )
    if sq.min_size < 3:
        text += (
            f" But a new sequence has exactly {count(sq.min_size, 'card')}, with no rank between "
            "two of them, so no sequence can ever hold a wild card."
        )
    return text


rule(
    "sequences.wild_in_gap", S_MELDS, _say_sequence_wild, relevant=lambda v: v.sequences.allowed,
    shown=lambda v: v.sequences.allowed and v.sequences.wild_in_gap,
)


def _say_sequence_canasta(v: Variant) -> str:
    sq = v.sequences
    name, c, top = sequence_name(v), sq.canasta_size, sq.max_size
    if top is not None and top < c:
        return (
            f"A sequence holds at most {count(top, 'card')} and is then closed; since "
            f"{a_an(name)} (a sequence canasta) takes {num(c)}, no sequence ever becomes a canasta."
        )
    if longest_run(v) < max(c, sq.min_size):
        return (
            f"A sequence of {count(c, 'card')} would be {a_an(name)} (a sequence canasta), but no "
            f"stretch of the window holds {num(c)} ranks in a row, so none can be made."
        )
    if top is not None and top <= max(c, sq.min_size):
        return (
            f"A sequence of {count(max(c, sq.min_size), 'card')} is {a_an(name)}, a canasta: it is "
            "complete (closed), and no more cards may join it."
        )
    text = f"A sequence of {count(c, 'card')} or more is {a_an(name)}, a canasta"
    if top is None:
        return text + "; it may grow as far as the window allows."
    return text + f"; a sequence holds at most {count(top, 'card')} and is then closed."


def sequence_example(v: Variant) -> str | None:
    """The stretches of ranks the shortest sequence canastas run through, as a sentence; ``None`` if there are none."""
    if not sequence_canasta_possible(v):
        return None
    size = max(v.sequences.canasta_size, v.sequences.min_size)
    spans = [
        f"{_the(start)} to {_the(start + size - 1)}"
        for lo, hi in sequence_runs(v) for start in range(lo, hi - size + 2)
    ]
    if len(spans) > 6:
        spans = [*spans[:2], f"and so on up to {spans[-1]}"]
        listed = ", ".join(spans)
    else:
        listed = join(spans, "or")
    exact = v.sequences.max_size is not None and v.sequences.max_size <= size
    what = a_an(sequence_name(v)) if exact else f"the shortest {sequence_name(v)}"
    return f"So {what} runs from {listed}, in any one suit."


rule(
    "sequences.canasta_size sequences.max_size", S_MELDS, _say_sequence_canasta,
    relevant=lambda v: v.sequences.allowed,
)
rule(
    "sequences.name", S_MELDS, _say_sequence_canasta,
    relevant=lambda v: v.sequences.allowed,
    instead=lambda v, o: (
        f"A sequence canasta is called {a_an(sequence_name(v))} instead of {a_an(sequence_name(o))}."
    ),
)


def sequence_may_grow(v: Variant) -> bool:
    """Whether ``sequences.grow_when_going_out`` can matter: sequences close at a size that
    leaves the window room to grow past it."""
    sq = v.sequences
    return sq.allowed and sq.max_size is not None and sq.min_size <= sq.max_size < longest_run(v)


def sequence_may_hold_wild(v: Variant) -> bool:
    """Whether ``sequences.wild_in_gap`` can matter: a new sequence has a rank between two of its
    cards (at least 3 cards), and the game has wild cards."""
    sq = v.sequences
    return sq.allowed and sq.wild_in_gap and sq.min_size >= 3 and bool(v.wilds.ranks)


def _say_grow(v: Variant) -> str:
    sq = v.sequences
    top = sq.max_size
    if not sq.allowed:
        return "Cards of one suit in rank order make no meld: every meld is of one rank."
    if top is None:
        return "No sequence is ever closed: each may grow as far as the window allows."
    name = sequence_name(v)
    # a closed sequence is the sequence canasta itself where it closes as it becomes one
    closed = f"a closed {name}" if top == max(sq.canasta_size, sq.min_size) else "a closed sequence"
    if not sq.grow_when_going_out:
        return f"{cap(closed)} takes no more cards, not even in the turn its player goes out."
    lo, hi = parse_rank(sq.low), parse_rank(sq.high)
    return (
        f"In the turn you go out, you may still add cards to either end of {closed}, one at a time, "
        f"past {count(top, 'card')} but never beyond {_the(lo)} or {_the(hi)}. Add each card only if "
        "you can still go out that turn; once you have added one, you must go out that turn."
    )


rule(
    "sequences.grow_when_going_out", S_MELDS, _say_grow,
    relevant=sequence_may_grow,
    shown=lambda v: sequence_may_grow(v) and v.sequences.grow_when_going_out,
)
