"""Talons (Modern American): bonus cards for the player who makes each side's opening meld.

The rules (research/variants.md section 1.1; CLA via Ebbeling section 2.4,
Pagat, help.canastajunction.com "What is a Talon"): the first side to open gets
4 cards, the second 3; none to a side that opened by taking the pile; none
once the turn card (the 9th card from the bottom of the stock) has been drawn;
the cards reach the hand after the opening turn's discard. The bundled
``modern-american`` profile draws them from the stock; ``opening.talons_set_aside``
plays the older form, two piles set aside face down at the deal.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import attrs
import pytest

import canasta
from canasta.engine.integrity import state_problem
from canasta.errors import CanastaError
from canasta.io.serialize import from_json, to_json
from positions import cards, play, position

MAC = canasta.load_variant("modern-american")
SET_ASIDE = attrs.evolve(MAC, name="mac-set-aside", opening=attrs.evolve(MAC.opening, talons_set_aside=True))

#: an opening of 140 with a clean triple: A A A (60) and K K K JK (80)
OPENER = "AC AD AH KC KD KH JK QC QD QH 5S 6S"
OPENING = ("meld A A A", "meld K K K", "add K JK", "discard 5")
#: twelve cards for the stock's top, no 3s among them (top card last)
TOP = "4C 4D 5C 5D 6C 6D 8C 8D 9C 9D 10C 10D"


def mac_position(variant: canasta.Variant = MAC, stock: str | None = None, **kw: object) -> canasta.GameState:
    """Seat 0 to play, holding OPENER; the others hold harmless cards."""
    hands = kw.pop("hands", [OPENER, "4H 5H 6H 8H 9H 10H JH", "4S 5S 6D 8S 9S 10S JS", "4H 5H 6H 8H 9H 10H JC"])
    return position(variant, hands=hands, stock=stock, **kw)  # type: ignore[arg-type]


def stock_of(n: int) -> str:
    """A stock of ``n`` cards (n <= 12) made of TOP's last cards."""
    return " ".join(TOP.split()[12 - n:])


class TestDrawnTalon:
    def test_first_side_to_open_gets_four_after_its_discard(self) -> None:
        s = mac_position(stock=TOP)
        after_melds = play(s, *OPENING[:3])
        assert len(after_melds.hands_[0]) == 5  # nothing given before the discard
        after = play(after_melds, OPENING[3])
        # Q Q Q 6S left, and the stock's top four cards (10D 10C 9D 9C)
        assert after.hands_[0] == cards("QC QD QH 6S 10D 10C 9D 9C")
        assert after.stock_size == 8
        assert after.current == 1 and after.phase_name == "draw"

    def test_second_side_gets_three_and_a_third_side_none(self) -> None:
        s = mac_position(stock=TOP, opened=[False, True], melds={1: ["JD JS JH"]})
        after = play(s, *OPENING)
        assert after.hands_[0] == cards("QC QD QH 6S 10D 10C 9D")
        six = canasta.load_variant("classic-6p")
        v6 = attrs.evolve(six, opening=attrs.evolve(six.opening, talons=(4, 3), by="none"))
        s6 = position(v6, hands=["KC KD KH 5S 6S", *["4H 5H"] * 5], stock=TOP,
                      melds={1: ["JD JS JH"], 2: ["QD QS QH"]})
        after6 = play(s6, "meld K K K", "discard 5")
        assert after6.hands_[0] == cards("6S")  # two sides opened before: no third talon

    def test_no_talon_after_opening_with_the_pile(self) -> None:
        # the pile's 9 taken with a natural pair; the opening still needs 125 from the hand
        s = mac_position(stock=TOP, phase="draw", pile="4D 9S",
                         hands=["9C 9D AC AD AH KC KD KH JK 5S 6S", "4H 5H 6H", "4S 5S 6D", "4H 5H 6H"])
        taken = play(s, "take pair", "meld A A A", "meld K K K", "add K JK")
        after = play(taken, "discard 5")
        assert sorted(after.hands_[0]) == sorted(cards("6S 4D"))  # the pile's rest, no talon
        assert after.stock_size == 12
        # the other side, opening next, is the second to open: three cards
        theirs = attrs.evolve(after, hands_=(after.hands_[0], cards(OPENER), *after.hands_[2:]))
        theirs = play(theirs, "draw", *OPENING)
        assert len(theirs.hands_[1]) == 4 + 1 + 3

    @pytest.mark.parametrize(("stock", "given"), [(9, True), (10, True), (8, False), (5, False)])
    def test_none_once_the_turn_card_is_drawn(self, stock: int, given: bool) -> None:
        after = play(mac_position(stock=stock_of(stock)), *OPENING)
        assert len(after.hands_[0]) == (8 if given else 4)
        assert after.stock_size == (stock - 4 if given else stock)

    def test_threes_in_the_talon_are_laid_and_replaced(self) -> None:
        after = play(mac_position(stock="4C 4D 5C 5D 6C 6D 8C 8D 9C 3H 3S 10D"), *OPENING)
        # drawn top first: 10D, 3S (laid, replaced by 9C), 3H (laid, replaced by 8D), 8C
        assert after.hands_[0] == cards("QC QD QH 6S 10D 9C 8D 8C")
        assert sorted(after.red_threes_[0]) == sorted(cards("3H 3S"))

    def test_no_talon_for_a_player_who_goes_out(self) -> None:
        # a house table where going out needs no canasta: the opening turn ends by going out
        easy = attrs.evolve(MAC, going_out=attrs.evolve(MAC.going_out, canastas=0, complete_ranks=(),
                                                        complete_wild_meld=False))
        s = mac_position(easy, stock=TOP, hands=["AC AD AH JK KC KD KH 2C 5S", "4H", "4S", "4H"])
        after = play(s, "meld A A A", "add A JK", "meld K K K", "add K 2", "out 5")
        assert after.is_hand_over and after.end is not None and after.end.reason == "out"
        assert after.hands_[0] == () and after.stock_size == 12

    def test_bundled_profile_declares_the_sourced_numbers(self) -> None:
        assert MAC.opening.talons == (4, 3)
        assert MAC.opening.talon_turn_card == 9
        assert not MAC.opening.talon_after_pile
        assert not MAC.opening.talons_set_aside


class TestSetAsideTalon:
    def test_the_deal_sets_four_and_three_aside(self) -> None:
        s = canasta.new_game(SET_ASIDE, seed=5)
        plain = canasta.new_game(MAC, seed=5)
        assert [len(t) for t in s.talons] == [4, 3]
        everything = Counter(s.stock_)
        for group in (*s.hands_, *s.talons_, s.pile_, *s.red_threes_):
            everything.update(group)
        assert sum(everything.values()) == 108
        assert plain.talons == ()

    def test_the_first_pile_goes_to_the_first_side_to_open(self) -> None:
        s = mac_position(SET_ASIDE, stock=TOP, talons=["JC JD JH JS", "7C 7D 7H"])
        after = play(s, *OPENING)
        assert after.hands_[0] == cards("QC QD QH 6S JC JD JH JS")
        assert after.talons_ == ((), cards("7C 7D 7H"))
        assert after.stock_size == 12

    def test_talon_cards_never_reach_another_seat_s_view_or_its_json(self) -> None:
        # two decks: every copy of the jack of clubs and the 7 of diamonds lies in the talons
        s = mac_position(SET_ASIDE, stock=TOP, talons=["JC JC JD JH", "7D 7D 7H"])
        for state in (s, play(s, *OPENING)):
            for seat in range(4):
                view = state.view(seat)
                text = to_json(view)
                shown = set(re.findall(r'"((?:10|[2-9AKQJ])[CDHS]|JK)"', text))
                own = {str(c) for c in view.hand}
                for card in ("JC", "7D"):
                    assert card not in shown or card in own, (seat, card)
                assert "talons" not in json.loads(text)["data"]
                # the stand-in's talons are read off what the view shows (its JSON has
                # no talon card, and rebuilds the same stand-in): they tell nothing
                back = canasta.from_json(text, canasta.SeatView)
                assert back._state.talons_ == view._state.talons_
            assert [len(t) for t in state.talons] == list(state.view(1).talon_sizes)
        given = play(s, *OPENING)
        assert "JC" in {str(c) for c in given.view(0).hand}
        assert "JC" not in to_json(given.view(1))

    def test_json_round_trip_and_its_refusals(self) -> None:
        s = play(mac_position(SET_ASIDE, talons=["JC JD JH JS", "7C 7D 7H"]), *OPENING)
        text = to_json(s)
        assert from_json(text, canasta.GameState) == s
        view = s.view(2)
        assert from_json(to_json(view), canasta.SeatView).talon_sizes == (0, 3)
        doc = json.loads(text)
        del doc["data"]["talons"]
        with pytest.raises(CanastaError, match=r"data: missing key 'talons'"):
            from_json(json.dumps(doc), canasta.GameState)
        doc = json.loads(text)
        doc["data"]["talons"][1] = ["7C", "7D"]
        doc["data"]["stock"].append("7H")
        with pytest.raises(CanastaError, match=r"data\.talons\[1\]: a talon holds its 3 cards"):
            from_json(json.dumps(doc), canasta.GameState)
        plain = json.loads(to_json(canasta.new_game(MAC, seed=1)))
        plain["data"]["talons"] = []
        with pytest.raises(CanastaError, match=r"data\.talons: the variant sets no talons aside"):
            from_json(json.dumps(plain), canasta.GameState)

    def test_a_talon_given_before_any_side_opened_is_refused(self) -> None:
        s = mac_position(SET_ASIDE, stock=TOP, talons=["", "7C 7D 7H"])
        assert state_problem(s) == ("talons[0]", "talon 1 goes to the side that opens first, and 0 sides have opened")


@pytest.mark.parametrize("variant", [MAC, SET_ASIDE], ids=["drawn", "set-aside"])
def test_random_hands_give_talons_in_order_and_keep_every_card(variant: canasta.Variant) -> None:
    """Random play: every talon is given at a discard that ends a side's opening turn, the
    first one 4 cards and the second 3, never once the turn card is drawn; no state is faulty."""
    given = Counter[int]()
    for seed in range(12):
        s = canasta.new_game(variant, seed=seed)
        rng = random.Random(seed)
        while not s.is_hand_over:
            legal = s.legal_moves()
            assert legal
            move = rng.choice(legal)
            p, side = s.current, s.side_of(s.current)
            # a side that opened this turn has laid points toward its opening
            opening_turn = s.opened[side] and s.turn.points > 0
            order = sum(s.opened) - 1  # the sides opened before this one
            after = s.apply(move)
            assert state_problem(after) is None
            if opening_turn and isinstance(move, canasta.Discard) and not move.out and not after.is_hand_over:
                extra = len(after.hands_[p]) - (len(s.hands_[p]) - 1)
                expected = 0
                if not s.turn.took_pile and s.stock_size >= 9 and order < 2:
                    expected = (4, 3)[order]
                # 3s among the bonus cards are laid and replaced: the hand still grows by the talon
                assert extra == expected or (variant is MAC and s.stock_size - expected < 0)
                given[extra] += 1
            s = after
    assert given[4] and given[3], given
