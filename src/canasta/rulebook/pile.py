"""Sentences of the discard pile: freezing, stop cards, the ways to take it, blocking melds."""

from __future__ import annotations

from collections.abc import Callable

# The sentence modules import the one before them first, so the registry holds their
# rules in rule-book order whichever module is imported first (see registry).
import canasta.rulebook.canastas  # noqa: F401
from canasta.rulebook.melds import new_size
from canasta.rulebook.registry import S_PILE, rule
from canasta.rulebook.words import count, join, num, rank_plural
from canasta.variant.meanings import meanings
from canasta.variant.model import Variant

# -- the discard pile


def _say_freezing(v: Variant) -> str:
    p = v.pile
    side = "side" if meanings(v).partnerships else "player"
    freezers = []
    if p.frozen_by_wild:
        freezers.append("a wild card")
    if p.frozen_by_red_three:
        freezers.append("a red 3")
    sentences = []
    if meanings(v).pile_always_frozen:
        # no way of taking an unfrozen pile is allowed, so freezing changes nothing
        return (
            "The discard pile is always frozen, whatever it holds: it is taken only with a "
            "natural pair from the hand."
        )
    # where a side that has not opened may not take the pile at all, that rule says it
    unopened = p.frozen_until_opened and v.opening.pile_allowed
    who = "a side that has not melded" if side == "side" else "a player who has not melded"
    if freezers:
        until = f", and for {who}" if unopened else ""
        sentences.append(f"The pile is frozen for everyone while it holds {join(freezers, 'or')}{until}.")
        if p.frozen_by_wild and p.wild_discard == "always":
            sentences.append("You may discard a wild card: it freezes the pile.")
        elif p.frozen_by_wild:
            # when a wild card may be discarded is said under the limits on discards
            sentences.append("A wild card discarded freezes the pile.")
    elif unopened:
        sentences.append(f"The pile is frozen for {who}.")
    if not sentences and p.take_natural_pair and not (p.take_lay_off or p.take_natural_and_wild):
        # nothing freezes it, yet it is taken only as a frozen pile is elsewhere
        return "Nothing freezes the discard pile, but it is taken only with a natural pair from the hand."
    if not sentences:
        return "The discard pile is never frozen."
    return " ".join(sentences)


rule(
    "pile.frozen_by_wild pile.frozen_by_red_three pile.frozen_until_opened", S_PILE, _say_freezing,
    relevant=lambda v: meanings(v).pile_takeable,
)


def _say_stop_cards(v: Variant) -> str:
    if "natural" in v.pile.stop_cards:
        return "The discard pile can never be taken: every card that may lie on top of it is a stop card."
    # where every 3 is laid out, no black 3 is ever discarded to stop anyone
    black = not v.threes.black_laid_at_once
    stops = ["a wild card", "a black 3"] if black else ["a wild card"]
    if v.deal.upcard and "red_three" not in v.deal.upcard_covered_if:
        stops.append("a red 3")
    text = f"No one may take the pile while {join(stops, 'or')} lies on top."
    if black:
        # not "until covered": a covered wild card still freezes the pile, as the freezing sentence says
        text += " A black 3 stops only the next player."
    return text


rule("pile.stop_cards", S_PILE, _say_stop_cards)


def say_take(v: Variant) -> str:
    """How the whole discard pile is taken: the sentence that leads the pile section."""
    if not meanings(v).pile_takeable:
        return "The discard pile can never be taken."
    top = v.pile.take_top
    if top is not None:
        return (
            f"You take the top {count(top, 'card')} of the pile, or all of it when it holds fewer; "
            "the cards below stay as the discard pile. Meld the top card at once; then the other "
            "cards taken go into your hand, and your turn goes on."
        )
    return (
        "To take the pile, meld its top card at once; the rest goes into your hand, and your "
        "turn goes on."
    )


def _say_take_top(v: Variant) -> str:
    top = v.pile.take_top
    if top is None:
        return "A player who takes the discard pile takes all of it."
    return f"A player who takes the discard pile takes only its top {count(top, 'card')}."


rule("pile.take_top", S_PILE, _say_take_top, relevant=lambda v: meanings(v).pile_takeable, shown=lambda v: False)


def _frozen_note(v: Variant) -> str:
    return " (not when the pile is frozen)" if meanings(v).pile_can_freeze else ""


def _say_take_pair(v: Variant) -> str:
    if not v.pile.take_natural_pair:
        return "The pile can never be taken with a pair from the hand."
    own = "your side's" if meanings(v).partnerships else "your own"
    if v.melds.duplicate_ranks == "any":
        # several melds of a rank: the three lay a new meld, which may then be combined
        joined = f"as a new meld, which may then be combined with {own} other meld of that rank."
    else:
        joined = f"as a new meld or onto {own} meld of that rank."
    return (
        "With a pair: meld the top card with two natural cards of its rank from your hand, "
        + joined
        # a frozen pile is taken only this way: the other ways say "not when the pile is
        # frozen", and the worked case beside the freezing rule shows it
        + (" This is the only way to take the pile." if meanings(v).pile_always_frozen else "")
    )


def _say_take_wild(v: Variant) -> str:
    if not v.pile.take_natural_and_wild:
        return "The pile can never be taken with a natural card and a wild card."
    return (
        "With a natural card and a wild card: meld the top card with one natural card of its rank "
        f"and one wild card from your hand{_frozen_note(v)}."
    )


def _say_take_lay_off(v: Variant) -> str:
    partners = meanings(v).partnerships
    own = "your side's" if partners else "your own"
    if not v.pile.take_lay_off:
        return f"You may never take the pile just by adding its top card to {own} meld."
    text = f"By adding: put the top card on {own} meld of its rank{_frozen_note(v)}"
    if v.melds.duplicate_ranks == "any":
        # several melds of the rank: the player names the one the card goes on
        unfinished = "" if v.pile.lay_off_after_canasta else ", one that is not yet a canasta"
        return f"{text}. With several melds of that rank, name the one it goes on{unfinished}."
    if not v.pile.lay_off_after_canasta:
        who = "your side has" if partners else "you have"
        text += f"; but not once {who} made a canasta of that rank this hand"
    return text + "."


def _takeable_and(flag: Callable[[Variant], bool]) -> Callable[[Variant], bool]:
    return lambda v: meanings(v).pile_takeable and flag(v)


rule("pile.take_natural_pair", S_PILE, _say_take_pair, relevant=lambda v: "natural" not in v.pile.stop_cards,
      shown=_takeable_and(lambda v: v.pile.take_natural_pair))
rule("pile.take_natural_and_wild", S_PILE, _say_take_wild, relevant=lambda v: "natural" not in v.pile.stop_cards,
      shown=_takeable_and(lambda v: v.pile.take_natural_and_wild))
rule("pile.take_lay_off", S_PILE, _say_take_lay_off, relevant=lambda v: "natural" not in v.pile.stop_cards,
      shown=_takeable_and(lambda v: v.pile.take_lay_off))
rule("pile.lay_off_after_canasta", S_PILE, _say_take_lay_off,
      relevant=_takeable_and(lambda v: v.pile.take_lay_off))


def _say_top_card_pickup(v: Variant) -> str:
    own = "their side's" if meanings(v).partnerships else "their own"
    if not v.sequences.top_card_pickup:
        return "The pile's top card is never taken on its own."
    return (
        "Instead of drawing from the stock, a player may take just the top card of the pile and "
        f"add it to an end of one of {own} sequences; the rest of the pile stays where it is, and "
        "the turn goes on as after a draw."
    )


rule(
    "sequences.top_card_pickup", S_PILE, _say_top_card_pickup,
    relevant=lambda v: v.sequences.allowed,
    shown=lambda v: v.sequences.allowed and v.sequences.top_card_pickup,
)


def _more_and_top(more: int) -> str:
    """The cards a new meld starts with in the pile block's exception: ``more`` from hand and the top card."""
    return f"{num(more)} more and the top card" if more else "the top card alone"


def _say_block(v: Variant) -> str:
    p = v.pile
    own = "your side's" if meanings(v).partnerships else "your own"
    n = p.blocked_by_meld_size
    if n is None:
        return "A meld on the table never stops a player from taking the pile."
    text = (
        f"You may not take the pile when its top card is of the same rank as {own} "
        f"unfinished meld of {count(n, 'card')} or more."
    )
    if not p.blocked_exception:
        return text
    need_low = 1
    need_high = max(1, v.canastas.size - n)
    finish = (
        num(need_low) if need_high == need_low
        else f"{num(need_low)} or {num(need_high)}" if need_high == need_low + 1
        else f"{num(need_low)} to {num(need_high)}"
    )
    return (
        f"{text} The one exception: if you hold enough natural cards of that rank, you may "
        f"complete that meld with {finish} of them and start a new meld of the rank with "
        f"{_more_and_top(new_size(v) - 1)}, and so take the pile."
    )


rule(
    "pile.blocked_by_meld_size", S_PILE, _say_block, relevant=lambda v: meanings(v).pile_takeable,
    shown=lambda v: meanings(v).pile_takeable and v.pile.blocked_by_meld_size is not None,
)
rule(
    "pile.blocked_exception", S_PILE, _say_block,
    relevant=lambda v: meanings(v).pile_takeable and v.pile.blocked_by_meld_size is not None,
)


def _say_one_card_bar(v: Variant) -> str:
    if not v.pile.one_card_bar:
        return "A player holding a single card may take a discard pile of a single card like any other."
    return "If you hold a single card, you may not take a discard pile that holds a single card."


rule(
    "pile.one_card_bar", S_PILE, _say_one_card_bar, relevant=lambda v: meanings(v).pile_takeable,
    shown=lambda v: meanings(v).pile_takeable and meanings(v).one_card_pile_barred,
)


# -- what may be discarded


def empty_bar_names(v: Variant) -> list[str]:
    """The cards barred from an empty pile (``pile.empty_bar_ranks``, ``pile.empty_bar_wilds``,
    ``pile.empty_bar_dead``), as a player names them."""
    wild = set(v.wilds.ranks)
    names = [rank_plural(r) for r in v.pile.empty_bar_ranks if r not in wild and r != "3"]
    if v.pile.empty_bar_wilds or any(r in wild for r in v.pile.empty_bar_ranks):
        names.append("wild cards")
    if v.pile.empty_bar_dead and v.melds.dead_when_closed and v.melds.max_size is not None:
        names.append("cards of a dead rank")
    return names


def _say_empty_bar(v: Variant) -> str:
    names = empty_bar_names(v)
    if not names:
        return "Any card a player may discard may go onto an empty discard pile."
    return (
        f"No {join(names, 'or')} may be discarded onto an empty discard pile, even right after a player "
        "has taken it. If every card you hold is barred that way, you may discard any of them. The card "
        "you go out with may be any card."
    )


rule(
    "pile.empty_bar_ranks pile.empty_bar_wilds pile.empty_bar_dead", S_PILE, _say_empty_bar,
    shown=lambda v: bool(empty_bar_names(v)),
)


def _say_wild_discard(v: Variant) -> str:
    if v.pile.wild_discard == "always":
        return "A wild card may be discarded like any other card."
    return (
        "A wild card may be discarded only as the card a player goes out with, or by a player who "
        "holds nothing but wild cards."
    )


rule(
    "pile.wild_discard", S_PILE, _say_wild_discard,
    shown=lambda v: v.pile.wild_discard != "always",
)
