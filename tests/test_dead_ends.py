"""House rules outside the bundled combinations play every hand to its end.

Each case is a bundled profile with an option or two changed, as a table
writing its house rules would; each once reached a position that was not over
and had no legal move (a dead end), or dealt a game it could not play. Every
case is played over many seeds, with random and greedy players, to the end
of its first hands: no dead end, and every move listed applies.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import canasta
import house_rules as hr
from budget import examples
from canasta.play.bots import make_bot
from positions import moves, play, position, refusal

#: The house rules, by a short name: each played by the tests below.
HOUSE_RULES: dict[str, dict[str, Any]] = {
    # only 4s wild: jokers are dead cards, 4s are not a sequence's rank
    "samba-fours-wild": {"extends": "samba", "wilds": {"ranks": ["4"]}},
    # only 2s wild: jokers are dead cards
    "classic-twos-wild": {"extends": "classic", "wilds": {"ranks": ["2"]}},
    # a clean meld (no wild card) of one natural card or more, for the opening:
    # its naturals must make a meld on their own (min_size of them)
    "classic-clean-opening": {"extends": "classic", "opening": {"natural_meld": 1}},
    "classic-clean-opening-2": {"extends": "classic", "opening": {"natural_meld": 2}},
    "hand-and-foot-clean-opening": {"extends": "hand-and-foot", "opening": {"natural_meld": 1}},
    # a foot of one card: picked up after the hand's last card is melded, it is the
    # last card, which must be discarded or gone out with
    "pagat-foot-of-one": {"extends": "hand-and-foot-pagat", "deal": {"foot_size": 1}},
    "hand-and-foot-foot-of-one": {"extends": "hand-and-foot", "deal": {"foot_size": 1}},
    # going out with the own foot still down: told yes, a player who melds the
    # hand's last card goes out (the yes was for the cards held, not the foot's)
    "pagat-foot-of-five-not-first": {
        "extends": "hand-and-foot-pagat", "deal": {"foot_size": 5}, "going_out": {"foot_first": False},
    },
    "pagat-no-pair-not-foot-first": {
        "extends": "hand-and-foot-pagat", "pile": {"take_natural_pair": False},
        "going_out": {"foot_first": False},
    },
    # a hand of one card: three cards after the draw, a meld of all three short of the
    # opening would reach the foot, whose cards may not make up the rest
    "pagat-hand-of-one": {"extends": "hand-and-foot-pagat", "deal": {"hand_size": 1, "foot_size": 3}},
    # new melds of four cards, where the clean opening meld asks three naturals
    "american-2p-melds-of-four": {"extends": "modern-american-2p", "melds": {"min_size": 4}},
    # a meld of wild cards closed at three cards, short of a canasta: it keeps the
    # side's wild cards for good (wild_meld_lock), and going out needs it complete
    "american-wild-meld-of-three": {"extends": "modern-american", "melds": {"wild_meld_max": 3}},
    # 3s, 8s and jacks wild in Samba, whose sequences would hold 8s and jacks
    "samba-three-wild-ranks": {"extends": "samba", "wilds": {"ranks": ["3", "8", "J"]}},
    # 3s wild: black 3s are wild cards and nothing else
    "classic-threes-wild": {"extends": "classic", "wilds": {"ranks": ["JK", "2", "3"]}},
    # going out needs every meld of black 3s complete: a meld of black 3s (laid whole, at
    # most four cards) never is a canasta, so a side goes out without one
    "brazilian-complete-threes": {"extends": "brazilian", "going_out": {"complete_ranks": ["J", "3"]}},
    # an opening that asks a canasta besides the clean meld: the canasta must be on the
    # table before the clean meld takes its wild cards
    "american-opening-canasta": {
        "extends": "modern-american",
        "opening": {"score_table": [{"minimum": 10, "from_score": 0, "canasta": "any"}]},
    },
}


def _policy(name: str, seed: int) -> Any:
    """A function from a state to the move a ``name`` player makes in it."""
    rng = random.Random(seed * 7919 + 1)
    if name == "random":
        return lambda s: rng.choice(s.legal_moves())
    bot = make_bot(name)
    return lambda s: bot.choose(s.view(s.current_player), rng)


def play_hands(variant: canasta.Variant, seed: int, policy: str, hands: int = 3, limit: int = 8000) -> str | None:
    """Play the first ``hands`` hands of ``new_game(variant, seed)`` (or the game, if shorter)
    to their end; why they could not be, or None."""
    s = canasta.new_game(variant, seed)
    choose = _policy(policy, seed)
    for n in range(limit):
        if s.is_game_over or (s.is_hand_over and s.hand_number + 1 >= hands):
            return None
        if not s.legal_moves():
            return f"seed {seed}, move {n}: a dead end in phase {s.phase_name}"
        s = s.apply(choose(s))
    return f"seed {seed}: {hands} hands did not end in {limit} moves"


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("name", sorted(HOUSE_RULES))
def test_house_rule_plays_its_hands_to_the_end(name: str, policy: str) -> None:
    """Every seed's first hands end, with no position without a legal move on the way."""
    v = canasta.parse_variant(HOUSE_RULES[name])
    failures = [why for seed in range(examples(40)) if (why := play_hands(v, seed, policy)) is not None]
    assert not failures, failures[:3]


def test_a_sequence_closed_below_a_new_ones_size_is_refused_at_load() -> None:
    """``sequences.max_size`` below ``min_size`` contradicts it: the loader says which options
    clash and what to change."""
    with pytest.raises(canasta.VariantError, match=r"sequences.max_size: expected at least sequences.min_size \(3\), got 2") as info:
        canasta.parse_variant({"extends": "brazilian", "sequences": {"max_size": 2}})
    assert "set sequences.allowed: false" in str(info.value)
    # with sequences off, the sizes are dead options and load
    canasta.parse_variant({"extends": "brazilian", "sequences": {"allowed": False, "max_size": 2}})


def test_jokers_that_are_not_wild_are_dead_cards() -> None:
    """Where 2s alone are wild, a joker is never melded (no new meld or add takes one) but may
    be discarded, and the rule book says so."""
    v = canasta.parse_variant(HOUSE_RULES["classic-twos-wild"])
    seen = 0
    for seed in range(30):
        s = canasta.new_game(v, seed)
        while not (s.is_hand_over or s.is_game_over) and s.phase_name != "play":
            s = s.apply(s.legal_moves()[0])
        hand = s.hands[s.current_player]
        if any(c.is_joker for c in hand):
            seen += 1
            moves = s.legal_moves()
            assert not any(isinstance(m, (canasta.Meld, canasta.Add)) and 15 in getattr(m, "kinds", (getattr(m, "kind", 0),)) for m in moves)
            assert canasta.Discard(15, False) in moves
    assert seen
    assert "a joker is a dead card" in canasta.describe(v)


@pytest.mark.parametrize("base", ["classic", "bolivia"])
def test_threes_wild_have_one_action_each(base: str) -> None:
    """Where 3s are wild, three black 3s are a meld of wild cards only: the action space holds
    each move once, and every move listed on the way through a hand has its id."""
    v = canasta.parse_variant({"extends": base, "wilds": {"ranks": ["3", "JK", "2"]}})
    space = canasta.ActionSpace(v)
    assert len(set(space.moves)) == len(space.moves)
    s, rng = canasta.new_game(v, 3), random.Random(3)
    for _ in range(300):
        if s.is_hand_over or s.is_game_over:
            break
        legal = s.legal_moves()
        assert len(space.legal_ids(s)) == len(legal)
        s = s.apply(rng.choice(legal))


def test_several_melds_of_a_rank_leave_one_open_meld_of_black_threes() -> None:
    """``melds.duplicate_ranks: any`` is for natural ranks: a side never lays a second meld of
    black 3s beside an open one, and every state reached passes the state check."""
    from canasta.engine.integrity import state_problem

    v = canasta.parse_variant(
        {"extends": "hand-and-foot", "threes": {"black_meld": "always"}, "melds": {"duplicate_ranks": "any"}}
    )
    for seed in range(examples(12, least=4)):
        s, rng = canasta.new_game(v, seed), random.Random(seed)
        while not (s.is_hand_over or s.is_game_over):
            s = s.apply(rng.choice(s.legal_moves()))
            assert state_problem(s) is None, (seed, state_problem(s))


def test_a_side_with_a_meld_of_black_threes_counts_on_no_more() -> None:
    """A meld of black 3s never grows, and a side lays one only: no way out may count on
    melding the black 3s still held. A campaign's hand (black 3s melded at any time) once
    let the player, holding 3C 3S 3S KH KS KS beside the side's meld of 3C 3C 3S, ask and
    be told yes, meld the kings, and be left with three black 3s and no legal move."""
    v = canasta.parse_variant({
        "extends": "bolivia", "game": {"rounds": 1}, "opening": {"by": "round"},
        "going_out": {"ask_after_laying": True, "partner_foot": True}, "threes": {"black_meld": "always"},
    })
    s = hr.state_at(v, 1828851975, hr.POLICIES["greedy"], 159)
    assert sorted(str(c) for c in s.hands[s.current_player]) == ["3C", "3S", "3S", "KH", "KS", "KS"]
    assert any(m.rank == 3 for m in s.melds[s.rules.side_of[s.current_player]])
    assert "ask" not in moves(s)  # going out would leave three black 3s in hand
    assert hr.play_hand(v, 1828851975, hr.POLICIES["greedy"]) is None


def test_a_rank_a_closed_meld_kills_takes_one_closed_meld_in_a_plan() -> None:
    """Where a closed meld makes its rank dead and a side may hold several melds of a rank,
    a plan closes one meld of a rank at most, and a meld the move closes counts at once. A
    campaign's hand (Bolivia, melds of at most 3 cards, so closed as laid) once let the
    player meld KC KS JK toward an opening that counted on 6C 6C 2 and 6D 6H 6S as well:
    the first of those closes the 6s, and the player was left with no legal move."""
    v = canasta.parse_variant({
        "extends": "bolivia", "melds": {"dead_when_closed": True, "max_size": 3}, "opening": {"talons": [2]},
    })
    s = hr.state_at(v, 209837367, hr.POLICIES["greedy"], 153)
    assert sorted(str(c) for c in s.hands[s.current_player]).count("6C") == 2
    listed = moves(s)
    assert "meld KC KS JK" not in listed and "meld 6C 6C 2" not in listed
    assert any(m.startswith("discard") for m in listed)
    assert hr.play_hand(v, 209837367, hr.POLICIES["greedy"], hands=2) is None


def test_taking_a_blocked_pile_starts_a_new_meld_of_the_new_meld_size() -> None:
    """Where a new meld has four cards, ``take finish`` (the pile block's exception) starts the
    new meld with three naturals from hand and the top card: every state reached passes the
    state check, the exception is used, and the rule book says three."""
    from canasta.engine.integrity import state_problem

    v = canasta.parse_variant({"extends": "hand-and-foot", "melds": {"min_size": 4}, "threes": {"keep_one": True}})
    finished = 0
    for seed in range(examples(40, least=12)):
        s, rng = canasta.new_game(v, seed), random.Random(seed)
        while not (s.is_hand_over or s.is_game_over):
            legal = s.legal_moves()
            takes = [m for m in legal if isinstance(m, canasta.TakePile) and m.way == "finish"]
            move = takes[0] if takes else rng.choice(legal)
            after = s.apply(move)
            if takes:
                finished += 1
                new = after.melds[s.side_of(s.current_player)][-1]
                assert len(new.cards) == 4 and not new.wilds, new
            s = after
            assert state_problem(s) is None, (seed, state_problem(s))
    assert finished
    assert "the other three make a new meld with the top card" in canasta.describe(v)


#: Pagat's five books (two clean, two dirty, one wild): what going out needs there.
PAGAT_BOOKS = [
    "KH KS KD KC KH KS KD", "QH QS QD QC QH QS QD", "JH JS JD JC JH 2C 2D",
    "10H 10S 10D 10C 10H JK 2H", "2S 2C 2D 2H JK JK 2S",
]
FOOT = "5C 5D 5H 6C 6D"


def _not_foot_first(**going_out: Any) -> canasta.Variant:
    """Pagat's Hand and Foot with ``going_out.foot_first`` off (and ``going_out`` besides)."""
    return canasta.parse_variant(
        {"extends": "hand-and-foot-pagat", "going_out": {"foot_first": False, **going_out}}
    )


def test_told_yes_the_last_meld_goes_out_with_the_foot_down() -> None:
    """With ``foot_first`` off, a player told yes who melds the hand's last card goes out, the
    foot unpicked and counted against the side; unasked, the same meld reaches the foot."""
    v = _not_foot_first()
    s = position(v, hands=["9S 9H 9D"], melds={0: PAGAT_BOOKS}, feet={0: FOOT})
    s = play(s, "ask", "yes")
    assert moves(s) == {"meld 9 9 9"}
    end = s.apply("meld 9 9 9")
    assert end.is_hand_over and end.end is not None and end.end.reason == "out" and end.end.seat == 0
    # the foot's five cards (5 points each) count against the side
    assert ("cards left in hand", -25) in end.end.breakdowns[0].items
    # unasked, the same meld reaches the foot: the player picks it up and plays on
    unasked = position(
        _not_foot_first(ask_required=False), hands=["9S 9H 9D"], melds={0: PAGAT_BOOKS}, feet={0: FOOT}
    ).apply("meld 9 9 9")
    assert not unasked.is_hand_over and moves(unasked) == {"foot"}
    assert "melding the last of them goes out with the foot still down" in canasta.describe(v)


def test_told_yes_the_last_meld_is_refused_where_the_last_card_is_discarded() -> None:
    """Where going out ends with a discard, a player told yes may not meld the last card,
    foot or no foot: the add is not listed and its refusal says why; the discard goes out."""
    v = _not_foot_first(final_discard="required")
    s = play(position(v, hands=["9S 9H 9D 9C"], melds={0: PAGAT_BOOKS}, feet={0: FOOT}), "ask", "yes", "meld 9 9 9")
    assert moves(s) == {"out 9"}
    assert "in this variant you go out by discarding" in refusal(s, "add 9 9")
    assert s.apply("out 9").is_hand_over


def test_the_hand_is_not_emptied_before_the_opening() -> None:
    """A meld of the hand's last cards that leaves the side short of its opening is refused
    (the foot's hidden cards may not make up the rest), and not listed; one that opens
    reaches the foot."""
    v = canasta.load_variant("hand-and-foot-pagat")
    s = position(v, hands=["7H 7S 7D"], feet={0: "3S 8S JC"})
    assert moves(s) == {"discard 7"}
    why = refusal(s, "meld 7 7 7")
    assert "total 15 points, and the opening needs 50 before you pick up your foot" in why
    opens = position(v, hands=["AH AS AD"], feet={0: "3S 8S JC"}).apply("meld A A A")
    assert moves(opens) == {"foot"}
    assert "before the side's opening is met" in canasta.describe(v)


def test_a_foot_of_red_threes_picked_up_with_the_stock_gone_ends_the_hand() -> None:
    """Red 3s of a foot picked up once the stock is gone are laid unreplaced: left with
    fewer than two cards, the player cannot play on and the hand ends (as after a red 3
    drawn last), where it was left with no legal move; with the stock to replace them,
    play goes on."""
    v = canasta.load_variant("hand-and-foot-pagat")
    for foot in ("3H 3D", "3H 3D 4C"):
        s = play(position(v, hands=["9S 9H 9D"], melds={0: ["QH QS QD"]}, feet={0: foot}, stock=""),
                 "meld 9 9 9", "foot")
        assert s.is_hand_over and s.end is not None and s.end.reason == "stock", foot
        assert len(s.red_threes_[0]) == 2
    s = play(position(v, hands=["9S 9H 9D"], melds={0: ["QH QS QD"]}, feet={0: "3H 3D"}, stock="5C 6C"),
             "meld 9 9 9", "foot")
    assert not s.is_hand_over and moves(s) == {"discard 5", "discard 6"}
    assert "(or found in your foot once the stock is gone)" in canasta.describe(v)
