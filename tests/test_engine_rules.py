"""Scenario tests: one exact position per rule of /work/shared/RULES.md.

Each test builds a position with :func:`positions.position`, then checks which
moves are legal and that the refused ones are refused for the rule's reason
(a substring of ``IllegalMoveError.reason``).
"""

from __future__ import annotations

import json
import os
from itertools import pairwise
from pathlib import Path
from typing import Any

import attrs
import pytest

import canasta
from canasta import GameState
from canasta.cards import build_deck
from canasta.engine import KIND
from positions import cards, moves, play, position, refusal


def hand(s: GameState, seat: int) -> str:
    """A seat's hand as sorted card text."""
    return " ".join(str(c) for c in s.hands[seat])


# Side 0 has opened with a meld of queens; seat 0 holds what the test gives.
def opened(variant: str = "classic", **kwargs: object) -> GameState:
    """A play-phase position of seat 0 whose side has opened with Q Q Q."""
    kwargs.setdefault("melds", {0: ["QH QS QD"]})
    return position(variant, **kwargs)  # type: ignore[arg-type]


# ===================================================================== classic


class TestClassicTurn:
    """Classic: a turn is draw (one card) or take the pile, meld, discard."""

    def test_draw_one_card(self) -> None:
        """A draw takes the top stock card."""
        s = opened(hands=["9S 9H"], phase="draw", stock="4C 5C 6C")
        after = play(s, "draw")
        assert hand(after, 0) == "6C 9H 9S"
        assert after.phase_name == "play"

    def test_draw_first(self) -> None:
        """Nothing is melded or discarded before the draw."""
        s = opened(hands=["9S 9H 9C 8D"], phase="draw")
        assert "first draw" in refusal(s, "meld 9 9 9")
        assert "first draw" in refusal(s, "discard 8")

    def test_draw_only_once(self) -> None:
        """After the draw, neither drawing nor taking the pile again."""
        s = opened(hands=["9S 9H"], pile="9C")
        assert "already drawn" in refusal(s, "draw")
        assert "already drawn" in refusal(s, "take pair")

    def test_discard_passes_the_turn_clockwise(self) -> None:
        """A discard ends the turn; the player to the left draws next."""
        s = opened(hands={3: "9S 9H"}, current=3)
        after = play(s, "discard 9")
        assert after.current_player == 0 and after.phase_name == "draw"
        assert after.pile_top is not None and after.pile_top.rank == 9

    def test_discard_only_a_held_card(self) -> None:
        """Only a card in hand is discarded."""
        s = opened(hands=["9S 9H"])
        assert "hold no K" in refusal(s, "discard K")


class TestClassicMelds:
    """Classic: a meld is 3+ cards of a rank, 2+ naturals, at most 3 wilds."""

    def test_five_five_two_is_legal(self) -> None:
        """The published check: 5-5-2 is a legal meld."""
        s = opened(hands=["5C 5D 2C 9H 9S"])
        after = play(s, "meld 5 5 2")
        m = after.melds[0][-1]
        assert (m.rank, m.naturals, m.wilds) == (5, 2, 1)

    def test_five_two_two_is_illegal(self) -> None:
        """The published check: 5-2-2 is not a meld (fewer than two naturals)."""
        s = opened(hands=["5C 2D 2C 9H 9S"])
        assert "at least 2 natural" in refusal(s, "meld 5 2 2")

    def test_nine_nine_nine_two_two_joker_is_legal(self) -> None:
        """The published check: 9-9-9-2-2-JK, laid as 9 9 9 then one card at a time."""
        s = opened(hands=["9C 9D 9H 2C 2D JK 4C 4D"])
        s = play(s, "meld 9 9 9", "add 9 2", "add 9 2", "add 9 JK")
        m = s.melds[0][-1]
        assert (m.rank, m.naturals, m.wilds, m.size) == (9, 3, 3, 6)

    def test_nine_nine_two_two_two_joker_is_illegal(self) -> None:
        """The published check: 9-9-2-2-2-JK has 4 wilds; the 4th wild is refused."""
        s = opened(hands=["9C 9D 2C 2D 2H JK 4C 4D"])
        s = play(s, "meld 9 9 2", "add 9 2", "add 9 2")
        assert s.melds[0][-1].wilds == 3
        assert "at most 3 wild cards" in refusal(s, "add 9 JK")

    def test_king_and_two_wilds_is_illegal(self) -> None:
        """K + 2 wilds is no meld: two naturals are needed."""
        s = opened(hands=["KC 2D JK 9H 9S"])
        assert "at least 2 natural" in refusal(s, "meld K 2 JK")

    def test_new_meld_has_exactly_three_cards(self) -> None:
        """The engine lays a new meld of exactly 3 cards; more are added one at a time."""
        s = opened(hands=["KC KD KH KS 9H 9S"])
        assert "exactly 3 cards" in refusal(s, "meld K K K K")

    def test_one_rank_per_meld(self) -> None:
        """Naturals of two ranks never share a meld."""
        s = opened(hands=["KC KD AH 9H 9S"])
        assert "one rank" in refusal(s, "meld K K A")

    def test_no_second_meld_of_a_rank(self) -> None:
        """A side has one meld per rank: a second is refused, adding is the way."""
        s = opened(hands=["QC QC QH 9H 9S"])
        assert "already has a meld of Qs" in refusal(s, "meld Q Q Q")
        assert "add Q Q" in moves(s)

    def test_melds_belong_to_both_partners(self) -> None:
        """Seat 2 adds to the meld its partner (seat 0) laid; seat 1 cannot."""
        s = opened(hands={2: "QC 9H 9S"}, current=2)
        after = play(s, "add Q Q")
        assert after.melds[0][0].size == 4
        t = opened(hands={1: "QC 9H 9S"}, current=1, melds={0: ["QH QS QD"], 1: ["KH KS KD"]})
        assert "no meld of Qs" in refusal(t, "add Q Q")

    def test_seven_cards_make_a_natural_or_mixed_canasta(self) -> None:
        """Seven cards make a canasta: natural with no wilds, mixed with some."""
        s = opened(hands=["KC KD KH KS KC KD KH 2C 9S 9H"])
        s = play(s, "meld K K K", "add K K", "add K K", "add K K")
        assert s.canasta_kind(s.melds[0][-1]) is None
        s = play(s, "add K K")
        assert s.canasta_kind(s.melds[0][-1]) == "natural"
        s = play(s, "add K 2")
        assert s.canasta_kind(s.melds[0][-1]) == "mixed"

    def test_canasta_may_grow_but_never_past_three_wilds(self) -> None:
        """No upper limit on a canasta's length, but wilds stay at most 3."""
        s = opened(melds={0: ["KC KD KH KS 2C 2D JK"]}, hands=["KC KD 2H 9S 9H"])
        s = play(s, "add K K", "add K K")
        assert s.melds[0][0].size == 9
        assert "at most 3 wild cards" in refusal(s, "add K 2")

    def test_black_threes_meld_only_when_going_out(self) -> None:
        """Black 3s may be melded only when going out (3 or 4 of them, no wilds)."""
        s = opened(hands=["3C 3S 3C 9H 9S 8D"])
        assert "only when going out" in refusal(s, "meld 3 3 3")
        with_canasta = {0: ["QH QS QD QC QH QS QD"]}
        t = opened(hands=["3C 3S 3C 9H"], melds=with_canasta)
        after = play(t, "meld 3 3 3")
        assert "discard 9" not in moves(after)
        end = play(after, "out 9")
        assert end.end is not None and end.end.reason == "out"

    def test_four_black_threes_go_out(self) -> None:
        """Going out, the meld of black 3s may hold all four."""
        s = opened(hands=["3C 3S 3C 3S 9H"], melds={0: ["QH QS QD QC QH QS QD"]})
        assert "meld 3 3 3 3" in moves(s)
        assert "only when going out" in refusal(s, "meld 3 3 3")
        end = play(s, "meld 3 3 3 3", "out 9")
        assert end.end is not None and end.end.reason == "out"

    def test_black_three_meld_takes_no_wilds(self) -> None:
        """A meld of black 3s holds 3 or 4 black 3s and no wild card."""
        s = opened(hands=["3C 3S 2C 9H"], melds={0: ["QH QS QD QC QH QS QD"]})
        assert "black 3s" in refusal(s, "meld 3 3 2")

    def test_red_three_is_never_melded_or_discarded(self) -> None:
        """A red 3 is laid on its own, never melded nor discarded."""
        s = opened(hands=["3H 3D 3H 9S"])
        assert "red 3" in refusal(s, "discard 3H")
        assert "red 3" in refusal(s, "meld 3H 3D 3H")

    def test_wild_card_may_be_discarded_and_freezes_the_pile(self) -> None:
        """A wild card may be discarded; it freezes the pile for both sides."""
        s = opened(hands=["2C 9S 9H"], pile="7C")
        assert not s.pile_frozen
        after = play(s, "discard 2")
        assert after.pile_frozen
        assert after.pile_frozen_for(0) and after.pile_frozen_for(1)


class TestClassicPile:
    """Classic: taking the discard pile, frozen or not; stop cards."""

    def test_unfrozen_pile_taken_with_natural_pair(self) -> None:
        """An unfrozen pile is taken with two naturals of the top card's rank."""
        s = opened(hands=["KC KD 9S 9H"], pile="5C 7D KH", phase="draw")
        assert {"draw", "take pair"} <= moves(s)
        after = s.apply("take pair")
        assert any(m.rank == 13 and m.size == 3 for m in after.melds[0])
        assert after.pile_size == 0
        assert hand(after, 0) == "5C 7D 9H 9S"

    def test_unfrozen_pile_taken_by_lay_off(self) -> None:
        """An unfrozen pile is taken by adding its top card to the side's meld."""
        s = opened(hands=["9S 9H"], pile="5C QC", phase="draw")
        assert "take layoff" in moves(s)
        after = s.apply("take layoff")
        assert after.melds[0][0].size == 4
        assert hand(after, 0) == "5C 9H 9S"

    def test_natural_and_wild_do_not_take_the_pile(self) -> None:
        """The text does not let one natural plus one wild take the pile (an option, off)."""
        s = opened(hands=["KC 2D 9S 9H"], pile="5C KH", phase="draw")
        assert "natural and a wild" in refusal(s, "take 2")

    def test_frozen_pile_needs_a_natural_pair(self) -> None:
        """A pile with a wild card in it needs two naturals; an existing meld does not help."""
        s = opened(hands=["QC 9S 9H"], pile="2C 5D QH", phase="draw")
        assert s.pile_frozen
        assert "frozen" in refusal(s, "take layoff")
        assert "two natural Qs" in refusal(s, "take pair")
        t = opened(hands=["KC KD 9S 9H"], pile="2C 5D KH", phase="draw")
        assert "take pair" in moves(t)

    def test_pair_with_a_wild_never_takes_a_frozen_pile(self) -> None:
        """A natural and a wild do not make a pair for a frozen pile."""
        s = opened(hands=["KC 2D 9S 9H"], pile="2C 5D KH", phase="draw")
        assert "two natural Ks" in refusal(s, "take pair")

    def test_red_three_in_pile_freezes_it(self) -> None:
        """A red 3 (an upcard) in the pile freezes it for both sides."""
        s = opened(hands=["QC 9S 9H"], pile="3H 5D QH", phase="draw")
        assert s.pile_frozen
        assert "frozen" in refusal(s, "take layoff")

    def test_pile_frozen_against_unopened_side(self) -> None:
        """The pile is frozen against a side that has not opened, not against the other."""
        s = opened(hands={1: "KC KD 9S 9H AC AD AH"}, current=1, pile="5C KH", phase="draw")
        assert s.pile_frozen_for(1)
        assert not s.pile_frozen_for(0)
        assert not s.pile_frozen

    def test_black_three_on_top_is_a_stop_card(self) -> None:
        """A black 3 on top cannot be taken."""
        s = opened(hands=["3C 3S 9S 9H"], pile="QC 3C", phase="draw")
        assert "stop card" in refusal(s, "take pair")
        assert "stop card" in refusal(s, "take layoff")
        assert moves(s) == {"draw"}

    def test_black_three_blocks_only_while_on_top(self) -> None:
        """A black 3 blocks only the next player: once covered it neither blocks nor freezes."""
        s = opened(hands=["9S 9H"], pile="3C QC", phase="draw")
        assert not s.pile_frozen
        assert "take layoff" in moves(s)

    @pytest.mark.parametrize("top", ["2C", "JK"])
    def test_wild_on_top_cannot_be_taken(self, top: str) -> None:
        """A wild card on top of the pile cannot be taken."""
        s = opened(hands=["2C 2D JK 9S"], pile=f"QC {top}", phase="draw")
        assert "stop card" in refusal(s, "take pair")
        assert moves(s) == {"draw"}

    def test_empty_pile_cannot_be_taken(self) -> None:
        """There is nothing to take from an empty pile."""
        s = opened(hands=["9S 9H"], pile="", phase="draw")
        assert "empty" in refusal(s, "take pair")


class TestClassicOpening:
    """Classic: the opening minimum, by the side's cumulative score."""

    @pytest.mark.parametrize(
        ("score", "minimum"),
        [(-5, 15), (-1, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (9000, 120)],
    )
    def test_minimum_by_score(self, score: int, minimum: int) -> None:
        """< 0: 15; 0-1495: 50; 1500-2995: 90; >= 3000: 120."""
        s = position("classic", hands=["4C 4D 4H 9C 9D"], scores=[score, 0])
        if minimum <= 15:
            after = play(s, "meld 4 4 4")
            assert after.opened[0]
        else:
            assert f"opening minimum of {minimum}" in refusal(s, "meld 4 4 4")

    @pytest.mark.parametrize(("score", "legal"), [(0, True), (1500, True), (3000, False)])
    def test_melds_of_one_turn_count_together(self, score: int, legal: bool) -> None:
        """K-K-K (30) then A-A-A (60) open for 50 or 90, not for 120."""
        s = position("classic", hands=["KC KD KH AC AD AH 9S 8S"], scores=[score, 0])
        if legal:
            after = play(s, "meld K K K")
            assert not after.opened[0]
            after = play(after, "meld A A A")
            assert after.opened[0]
            assert "discard 9" in moves(after)
        else:
            assert "opening minimum of 120" in refusal(s, "meld K K K")

    def test_unopened_side_must_reach_minimum_before_discarding(self) -> None:
        """Melds laid this turn below the minimum: the discard is refused."""
        s = position("classic", hands=["KC KD KH AC AD AH 9S 8S"])
        s = play(s, "meld K K K")
        assert "needs 50" in refusal(s, "discard 9")

    def test_top_card_counts_toward_the_minimum(self) -> None:
        """Taking the pile to open: the top card counts (A A + top A = 60 >= 50)."""
        s = position("classic", hands=["AC AD 5C 6D"], pile="7C AH", phase="draw")
        assert "take pair" in moves(s)
        after = s.apply("take pair")
        assert after.opened[0]
        assert after.turn.points == 60

    def test_top_card_alone_does_not_reach_it(self) -> None:
        """K K + top K = 30 < 50: refused without more melds in hand."""
        s = position("classic", hands=["KC KD 5C 6D"], pile="7C KH", phase="draw")
        assert "has not opened" in refusal(s, "take pair")

    def test_pile_cards_never_count(self) -> None:
        """Cards inside the pile never count toward the opening, even if they would meld."""
        s = position("classic", hands=["KC KD 5C 6D"], pile="AC AD AH KH", phase="draw")
        assert "has not opened" in refusal(s, "take pair")

    def test_pile_cards_held_aside_until_opened(self) -> None:
        """K K + top K (30), then Q Q Q from hand (30): opened; the pile's cards join the hand."""
        s = position("classic", hands=["KC KD QC QD QH 6D"], pile="AC AD AH KH", phase="draw")
        s = play(s, "take pair")
        assert not s.opened[0]
        assert sorted(s.turn.pending) == list(cards("AC AD AH"))
        assert "meld A A A" not in moves(s)
        assert "pile" in refusal(s, "discard 6") or "opening" in refusal(s, "discard 6")
        s = play(s, "meld Q Q Q")
        assert s.opened[0]
        assert s.turn.pending == ()
        assert hand(s, 0) == "6D AC AD AH"

    def test_bonuses_do_not_count(self) -> None:
        """Red 3s laid do not count toward the opening minimum."""
        s = position("classic", hands=["4C 4D 4H 9C 9D"], red_threes={0: "3H 3D 3H 3D"})
        assert "opening minimum of 50" in refusal(s, "meld 4 4 4")

    def test_opened_side_needs_no_minimum(self) -> None:
        """Once the side has opened, any legal meld may be laid."""
        s = opened(hands=["4C 4D 4H 9C 9D"])
        play(s, "meld 4 4 4")


class TestClassicRedThrees:
    """Classic: red 3s are laid at once and replaced."""

    def test_red_three_drawn_is_laid_and_replaced(self) -> None:
        """A red 3 drawn goes to the side's red 3s; the next stock card replaces it."""
        s = opened(hands=["9S 9H"], phase="draw", stock="5C 8D 3H")
        after = play(s, "draw")
        assert [str(c) for c in after.red_threes[0]] == ["3H"]
        assert hand(after, 0) == "8D 9H 9S"
        assert after.stock_size == 1

    def test_replacement_repeats_until_not_a_red_three(self) -> None:
        """Several red 3s in a row are all laid and replaced."""
        s = opened(hands=["9S 9H"], phase="draw", stock="5C 8D 3D 3H")
        after = play(s, "draw")
        assert sorted(str(c) for c in after.red_threes[0]) == ["3D", "3H"]
        assert hand(after, 0) == "8D 9H 9S"

    def test_red_three_as_last_stock_card_is_not_replaced(self) -> None:
        """A red 3 as the last stock card is laid, not replaced, and the hand ends (Pagat)."""
        s = opened(hands=["9S 9H"], phase="draw", stock="3H")
        after = play(s, "draw")
        assert [str(c) for c in after.red_threes[0]] == ["3H"]
        assert hand(after, 0) == "9H 9S"
        assert after.stock_size == 0
        assert after.is_hand_over and after.end is not None and after.end.reason == "stock"

    def test_red_three_last_card_with_one_card_in_hand_no_dead_end(self) -> None:
        """Holding one card and drawing the last stock card, a red 3: no dead end, the hand ends.

        A regression test: the engine once left this player with no legal move.
        """
        s = opened(hands=["9S"], phase="draw", stock="3H")
        after = s.apply("draw")
        assert after.is_hand_over
        assert [str(m) for m in after.legal_moves()] == ["next"]

    def test_draw_two_with_red_three_last(self) -> None:
        """Draw-two: a normal card, then a red 3 as the last stock card: the hand ends."""
        s = opened("draw-two", hands=["9S 9H"], phase="draw", stock="3H 5C")
        after = play(s, "draw")
        assert hand(after, 0) == "5C 9H 9S"
        assert after.is_hand_over

    def test_hand_and_foot_plays_on_after_a_red_three_last(self) -> None:
        """Hand and Foot (threes.red_last_card: play_on): the red 3 is laid, the player plays on and discards."""
        s = opened("hand-and-foot", hands=["9S 9H 5D"], phase="draw", stock="3H 7C",
                   melds={0: ["QH QS QD"]})
        after = play(s, "draw")
        assert [str(c) for c in after.red_threes[0]] == ["3H"]
        assert hand(after, 0) == "5D 7C 9H 9S"
        assert after.stock_size == 0 and not after.is_hand_over
        assert after.phase_name == "play"
        done = play(after, "discard 5")
        assert not done.is_hand_over and done.current_player == 1

    def test_play_on_without_a_card_to_play_ends_the_hand(self) -> None:
        """play_on with nothing left to play: the hand ends as under the classic rule (no dead end)."""
        v = attrs.evolve(
            canasta.load_variant("classic"),
            threes=attrs.evolve(canasta.load_variant("classic").threes, red_last_card="play_on"),
        )
        s = opened(v, hands=["9S"], phase="draw", stock="3H")
        after = s.apply("draw")
        assert after.is_hand_over
        s2 = opened(v, hands=["9S 9H"], phase="draw", stock="3H")
        after2 = play(s2, "draw")
        assert not after2.is_hand_over and "discard 9" in moves(after2)

    def test_dealt_red_threes_are_laid(self) -> None:
        """No hand holds a red 3 after the deal; the side's red 3s are laid."""
        for seed in range(1, 30):
            s = canasta.new_game(canasta.load_variant("classic"), seed=seed)
            assert all(KIND[c] != 1 for h in s.hands_ for c in h)
            assert all(len(h) == 11 for h in s.hands_)


class TestClassicDeal:
    """Classic: 108 cards, 11 each, an upcard that is covered if wild or a red 3."""

    def test_deck_and_deal(self) -> None:
        """Two decks and four jokers; 11 cards each; four players in two partnerships."""
        v = canasta.load_variant("classic")
        assert len(build_deck(v.deck.decks, v.deck.jokers_per_deck)) == 108
        s = canasta.new_game(v, seed=7)
        assert [len(h) for h in s.hands] == [11, 11, 11, 11]
        assert s.sides == ((0, 2), (1, 3))
        assert s.current_player == (s.dealer + 1) % 4

    def test_wild_or_red_three_upcard_is_covered_and_freezes(self) -> None:
        """A wild or red-3 upcard is covered by another card, and the pile is frozen."""
        v = canasta.load_variant("classic")
        covered = 0
        for seed in range(200):
            s = canasta.new_game(v, seed=seed)
            *under, top = s.pile_
            r = s.rules
            assert r.is_natural[KIND[top]] or KIND[top] == 3
            if under:
                covered += 1
                assert all(r.is_wild[KIND[c]] or KIND[c] == 1 for c in under)
                assert s.pile_frozen
        assert covered > 0


class TestClassicGoingOut:
    """Classic: going out needs a canasta; concealed going out."""

    CANASTA = "QH QS QD QC QH QS QD"

    def test_going_out_needs_a_canasta(self) -> None:
        """Without a canasta, neither melding the last card nor 'out' is allowed."""
        s = opened(hands=["5S"])
        assert "going out needs 1 canasta" in refusal(s, "out 5")
        t = opened(hands=["9C 9D 9H"])
        assert "canasta" in refusal(t, "meld 9 9 9")

    def test_going_out_by_melding_everything(self) -> None:
        """With a canasta, melding every card ends the hand."""
        s = opened(hands=["9C 9D 9H"], melds={0: [self.CANASTA]})
        end = play(s, "meld 9 9 9")
        assert end.end is not None and end.end.reason == "out" and end.end.seat == 0

    def test_going_out_with_a_final_discard(self) -> None:
        """Melding all but one card and discarding it goes out."""
        s = opened(hands=["9C 9D 9H 5S"], melds={0: [self.CANASTA]})
        s = play(s, "meld 9 9 9")
        assert "discard 5" not in moves(s)
        assert "last card" in refusal(s, "discard 5") or "out" in refusal(s, "discard 5")
        end = play(s, "out 5")
        assert end.is_hand_over and end.end is not None and end.end.reason == "out"

    def test_canasta_may_be_completed_while_going_out(self) -> None:
        """The required canasta may be made in the same turn."""
        s = opened(hands=["QC QH QS QD 5S"])
        end = play(s, "add Q Q", "add Q Q", "add Q Q", "add Q Q", "out 5")
        assert end.end is not None and end.end.reason == "out"

    def test_out_needs_the_last_card(self) -> None:
        """'out' discards the last card; with more cards it is refused."""
        s = opened(hands=["9C 5S"], melds={0: [self.CANASTA]})
        assert "last card" in refusal(s, "out 5")

    def test_concealed_going_out_scores_200(self) -> None:
        """A whole hand melded in one turn with no earlier melds: 200 for going out."""
        s = position("classic", hands=["KC KD KH KS KC KD KH 6C"])
        s = play(s, "meld K K K", "add K K", "add K K", "add K K", "add K K", "out 6")
        assert s.end is not None and s.end.concealed
        # 7 kings (70) + natural canasta (500) + going out concealed (200)
        assert s.end.hand_scores[0] == 70 + 500 + 200

    def test_concealed_going_out_waives_the_minimum(self) -> None:
        """Seven 4s (35 < 50) melded in one turn and out: no minimum is needed.

        A regression test: a quick bound in the engine once refused 'meld 4 4 4' here.
        """
        s = position("classic", hands=["4C 4D 4H 4S 4C 4D 4H 6C"])
        s = play(s, "meld 4 4 4")
        assert not s.opened[0]
        assert "opening" in refusal(s, "discard 6")
        s = play(s, "add 4 4", "add 4 4", "add 4 4", "add 4 4", "out 6")
        assert s.end is not None and s.end.concealed
        # 7 fours (35) + natural canasta (500) + going out concealed (200)
        assert s.end.hand_scores[0] == 35 + 500 + 200

    def test_concealed_needs_no_earlier_melds_by_the_player(self) -> None:
        """A player who melded on an earlier turn cannot go out concealed below the minimum."""
        s = position(
            "classic", hands=["4C 4D 4H 4S 4C 4D 4H 6C"], melded_before=[True, False, False, False]
        )
        assert "opening minimum of 50" in refusal(s, "meld 4 4 4")

    def test_taking_the_pile_prevents_concealed(self) -> None:
        """Going out after taking the pile is not concealed."""
        s = opened(hands=["KC KD 5S"], melds={0: [self.CANASTA]}, pile="KH", phase="draw")
        end = play(s, "take pair", "out 5")
        assert end.end is not None and not end.end.concealed

    def test_going_out_bonus_is_100(self) -> None:
        """An ordinary going out earns 100."""
        s = opened(hands=["9C 9D 9H 5S"], melds={0: [self.CANASTA]}, melded_before=[True] * 4)
        end = play(s, "meld 9 9 9", "out 5")
        assert end.end is not None and not end.end.concealed
        # queens 7x10 + 500 natural canasta + nines 30 + going out 100
        assert end.end.hand_scores[0] == 70 + 500 + 30 + 100


class TestClassicAsk:
    """Classic: "Partner, may I go out?" and its binding answer."""

    CANASTA = "QH QS QD QC QH QS QD"

    def base(self) -> GameState:
        """Seat 0 could go out (meld 9 9 9, out 5) or play on."""
        return opened(hands={0: "9C 9D 9H 5S", 2: "KC"}, melds={0: [self.CANASTA]})

    def test_ask_passes_the_answer_to_the_partner(self) -> None:
        """After 'ask' the partner (seat 2) must answer yes or no."""
        s = play(self.base(), "ask")
        assert s.current_player == 2
        assert s.phase_name == "answer"
        assert moves(s) == {"yes", "no"}
        assert "answer" in refusal(s, "discard K")

    def test_yes_binds_to_go_out(self) -> None:
        """After 'yes' the player must go out this turn."""
        s = play(self.base(), "ask", "yes")
        assert s.current_player == 0
        assert "must go out" in refusal(s, "discard 5")
        end = play(s, "meld 9 9 9", "out 5")
        assert end.end is not None and end.end.reason == "out"

    def test_no_forbids_going_out(self) -> None:
        """After 'no' the player may not go out this turn."""
        s = play(self.base(), "ask", "no")
        assert "meld 9 9 9" not in moves(s)
        assert "partner said no" in refusal(s, "meld 9 9 9")
        after = play(s, "discard 5")
        assert not after.is_hand_over and after.current_player == 1

    def test_no_is_the_reason_given(self) -> None:
        """Going out after a 'no' is refused because the partner said no."""
        s = opened(hands={0: "5S", 2: "KC"}, melds={0: [self.CANASTA]}, turn={"asked": 2, "asker": 0})
        assert "partner said no" in refusal(s, "out 5")

    def test_cannot_ask_when_going_out_is_impossible(self) -> None:
        """Asking makes no sense without a way to go out this turn."""
        s = opened(hands={0: "9C 9D 9H 5S 6S", 2: "KC"})
        assert "nothing to ask" in refusal(s, "ask")

    def test_ask_only_once(self) -> None:
        """A player asks at most once a turn."""
        s = play(self.base(), "ask", "no")
        assert "already asked" in refusal(s, "ask")


class TestClassicStockExhausted:
    """Classic: when the stock is empty."""

    def test_must_take_by_lay_off(self) -> None:
        """A player who can take an unfrozen pile by lay-off must take it."""
        s = opened(hands=["9S 8H"], pile="5C QC", phase="draw", stock="")
        assert "must take" in refusal(s, "pass")
        assert moves(s) == {"take layoff"}

    def test_pair_take_is_optional(self) -> None:
        """One who would need a pair from hand may decline: 'pass' ends the hand."""
        s = opened(hands=["KC KD 8H"], pile="5C KH", phase="draw", stock="")
        assert moves(s) == {"take pair", "pass"}
        end = s.apply("pass")
        assert end.is_hand_over and end.end is not None and end.end.reason == "stock"

    def test_cannot_draw_from_empty_stock(self) -> None:
        """Drawing from an empty stock is refused."""
        s = opened(hands=["KC KD 8H"], pile="5C KH", phase="draw", stock="")
        assert "stock is empty" in refusal(s, "draw")

    def test_pass_only_when_stock_is_empty(self) -> None:
        """With cards in the stock, 'pass' is refused."""
        s = opened(hands=["KC KD 8H"], pile="5C KH", phase="draw")
        assert "not empty" in refusal(s, "pass")

    def test_play_goes_on_after_a_take(self) -> None:
        """After taking the pile with an empty stock, the turn is played out as usual."""
        s = opened(hands={0: "9S 8H", 1: "4C 5C"}, pile="5C QC", phase="draw", stock="")
        s = play(s, "take layoff", "discard 9")
        assert s.current_player == 1 and s.phase_name == "draw"
        assert not s.is_hand_over


class TestClassicScoring:
    """Classic: the published scoring checks."""

    def end_by_stock(self, **kwargs: object) -> GameState:
        """Seat 1 passes on an empty stock: the hand ends and is scored."""
        kwargs.setdefault("hands", {1: ""})
        return position(  # type: ignore[arg-type]
            "classic", current=1, phase="draw", stock="", pile="", **kwargs
        ).apply("pass")

    def test_natural_canasta_of_kings_is_570(self) -> None:
        """A natural canasta of seven kings is worth 570 in all."""
        s = self.end_by_stock(melds={0: ["KC KD KH KS KC KD KH"]})
        assert s.end is not None and s.end.hand_scores[0] == 570

    def test_mixed_canasta_bonus_is_300(self) -> None:
        """A mixed canasta earns 300 plus its cards."""
        s = self.end_by_stock(melds={0: ["KC KD KH KS KC 2D JK"]})
        assert s.end is not None and s.end.hand_scores[0] == 50 + 20 + 50 + 300

    def test_all_four_red_threes_are_800(self) -> None:
        """All four red 3s: 800, not 400."""
        s = self.end_by_stock(melds={0: ["KC KD KH"]}, red_threes={0: "3H 3D 3H 3D"})
        assert s.end is not None and s.end.hand_scores[0] == 30 + 800
        t = self.end_by_stock(melds={0: ["KC KD KH"]}, red_threes={0: "3H 3D 3H"})
        assert t.end is not None and t.end.hand_scores[0] == 30 + 300

    def test_red_threes_count_minus_without_a_meld(self) -> None:
        """A side that has made no meld counts its red 3s minus."""
        s = self.end_by_stock(red_threes={0: "3H 3D"})
        assert s.end is not None and s.end.hand_scores[0] == -200

    def test_cards_left_count_minus(self) -> None:
        """Cards left in hand count minus their values."""
        s = self.end_by_stock(hands={0: "JK 2C AH KH 7H 3C"}, melds={0: ["QC QD QH"]})
        assert s.end is not None
        assert s.end.hand_scores[0] == 30 - (50 + 20 + 20 + 10 + 5 + 5)

    def test_game_to_5000(self) -> None:
        """The game ends when a side reaches 5000."""
        s = self.end_by_stock(melds={0: ["KC KD KH KS KC KD KH"]}, scores=[4430, 0])
        assert s.is_game_over
        t = self.end_by_stock(melds={0: ["KC KD KH KS KC KD KH"]}, scores=[4429, 0])
        assert t.is_hand_over and not t.is_game_over
        assert "next" in moves(t)


# ===================================================================== draw-two


class TestDrawTwo:
    """Draw-two: classic, with two cards drawn, more stop cards and lay-off pickups."""

    def test_draw_two_cards(self) -> None:
        """A draw takes the top two stock cards."""
        s = opened("draw-two", hands=["9S 9H"], phase="draw", stock="4C 5C 6C")
        after = play(s, "draw")
        assert hand(after, 0) == "5C 6C 9H 9S"
        assert after.stock_size == 1

    def test_red_three_in_a_draw_is_replaced(self) -> None:
        """A red 3 among the two drawn is laid and replaced."""
        s = opened("draw-two", hands=["9S 9H"], phase="draw", stock="4C 3H 6C")
        after = play(s, "draw")
        assert hand(after, 0) == "4C 6C 9H 9S"
        assert [str(c) for c in after.red_threes[0]] == ["3H"]

    @pytest.mark.parametrize("top", ["2C", "JK", "3S"])
    def test_stop_cards(self, top: str) -> None:
        """Black 3s, 2s and jokers on top of the pile cannot be taken."""
        s = opened("draw-two", hands=["9S 9H 2D 2H JK JK 3C 3C"], pile=f"5C {top}", phase="draw")
        assert "stop card" in refusal(s, "take pair")
        assert moves(s) == {"draw"}

    def test_lay_off_pickup_without_a_card_of_the_rank(self) -> None:
        """An unfrozen pile is taken onto the side's meld with no card of the rank in hand."""
        s = opened("draw-two", hands=["9S 9H"], melds={0: ["KH KS KD"]}, pile="5C KC", phase="draw")
        after = play(s, "take layoff")
        assert after.melds[0][0].size == 4
        assert hand(after, 0) == "5C 9H 9S"

    def test_lay_off_refused_after_a_canasta_of_the_rank(self) -> None:
        """After a canasta of kings this hand, a natural pair of kings is needed."""
        canasta_k = {0: ["KH KS KD KC KH KS KD"]}
        s = opened("draw-two", hands=["9S 9H"], melds=canasta_k, pile="5C KC", phase="draw")
        assert "already made a canasta" in refusal(s, "take layoff")
        t = opened("draw-two", hands=["KH KS 9H"], melds=canasta_k, pile="5C KC", phase="draw")
        assert "already made a canasta" in refusal(t, "take layoff")
        after = play(t, "take pair")
        assert after.melds[0][0].size == 10

    def test_lay_off_refused_on_a_frozen_pile(self) -> None:
        """The lay-off pickup works only on an unfrozen pile."""
        s = opened("draw-two", hands=["9S 9H"], melds={0: ["KH KS KD"]}, pile="2C 5C KC", phase="draw")
        assert "frozen" in refusal(s, "take layoff")

    def test_hand_ends_when_one_card_is_left_for_a_draw_of_two(self) -> None:
        """The next player would draw two from a one-card stock: the hand ends instead."""
        s = opened("draw-two", hands=["9S 9H 8D"], stock="4C")
        end = play(s, "discard 9")
        assert end.is_hand_over and end.end is not None and end.end.reason == "stock"
        t = opened("draw-two", hands=["9S 9H 8D"], stock="4C 4D")
        after = play(t, "discard 9")
        assert after.phase_name == "draw" and after.current_player == 1

    def test_going_out_needs_one_canasta(self) -> None:
        """The profile's default: one canasta to go out."""
        s = opened("draw-two", hands=["9S"])
        assert "going out needs 1 canasta" in refusal(s, "out 9")
        t = opened("draw-two", hands=["9S"], melds={0: ["QH QS QD QC QH QS QD"]})
        end = play(t, "out 9")
        assert end.end is not None and end.end.reason == "out"

    def test_black_threes_meld_only_when_going_out(self) -> None:
        """As in classic, black 3s are melded only when going out."""
        s = opened("draw-two", hands=["3C 3S 3C 9H 9S 8D"])
        assert "only when going out" in refusal(s, "meld 3 3 3")

    def end_by_stock(self, **kwargs: object) -> GameState:
        """Seat 1 passes on an empty stock: the hand ends and is scored."""
        kwargs.setdefault("hands", {1: ""})
        return position(  # type: ignore[arg-type]
            "draw-two", current=1, phase="draw", stock="", pile="", **kwargs
        ).apply("pass")

    def test_red_threes_count_plus_only_with_a_canasta(self) -> None:
        """Red 3s count plus only for a side that completed a canasta; otherwise minus."""
        s = self.end_by_stock(melds={0: ["KH KS KD"]}, red_threes={0: "3H"})
        assert s.end is not None and s.end.hand_scores[0] == 30 - 100
        t = self.end_by_stock(melds={0: ["KH KS KD KC KH KS KD"]}, red_threes={0: "3H"})
        assert t.end is not None and t.end.hand_scores[0] == 70 + 500 + 100

    def test_unopened_side_counts_everything_minus(self) -> None:
        """No opening meld: cards in hand and all four red 3s (800) count against the side."""
        s = self.end_by_stock(hands={0: "4D 9C AD JK"}, red_threes={0: "3H 3D 3H 3D"})
        assert s.end is not None and s.end.hand_scores[0] == -800 - (5 + 10 + 20 + 50)

    def test_only_the_side_going_out_gets_100(self) -> None:
        """The bonus for going out goes to the side that went out."""
        s = opened("draw-two", hands={0: "9S", 1: "4C"}, melds={0: ["QH QS QD QC QH QS QD"], 1: ["KH KS KD"]})
        end = play(s, "out 9")
        assert end.end is not None
        assert end.end.hand_scores == (70 + 500 + 100, 30 - 5)

    @pytest.mark.parametrize(("scores", "over"), [((4990, 4990), False), ((4990, 4980), True)])
    def test_tie_at_5000_plays_another_hand(self, scores: tuple[int, int], over: bool) -> None:
        """Both sides tied at or above 5000: another hand is played."""
        s = self.end_by_stock(
            hands={0: "4D", 1: "4C"}, melds={0: ["KH KS KD"], 1: ["KH KS KD"]}, scores=scores
        )
        assert s.end is not None and s.end.hand_scores == (25, 25)
        assert s.is_game_over is over
        assert ("next" in moves(s)) is not over


# ===================================================================== hand-and-foot

HF = "hand-and-foot"
NATURAL_C = "QH QS QD QC QH QS QD"
MIXED_C = "KH KS KD KC KH 2C 2D"
WILD_C = "2C 2D 2H JK JK 2S 2S"
ALL3 = {0: [NATURAL_C, MIXED_C, WILD_C]}


class TestHandAndFootPile:
    """Hand and Foot: taking the discard pile."""

    def test_deal(self) -> None:
        """Five decks with jokers (270 cards); a hand and a foot of 11 each; partners opposite."""
        v = canasta.load_variant(HF)
        assert len(build_deck(v.deck.decks, v.deck.jokers_per_deck)) == 270
        s = canasta.new_game(v, seed=4)
        assert [len(h) for h in s.hands] == [11] * 4
        assert [len(f) for f in s.feet] == [11] * 4
        assert s.sides == ((0, 2), (1, 3))

    def test_draw_two(self) -> None:
        """A draw takes two cards."""
        s = opened(HF, hands=["9S 9H"], phase="draw", stock="4C 5C 6C")
        assert hand(play(s, "draw"), 0) == "5C 6C 9H 9S"

    def test_red_three_drawn_is_replaced(self) -> None:
        """A red 3 drawn goes to the side at once and another card is drawn."""
        s = opened(HF, hands=["9S 9H"], phase="draw", stock="4C 5C 3D 6C")
        after = play(s, "draw")
        assert hand(after, 0) == "5C 6C 9H 9S"
        assert [str(c) for c in after.red_threes[0]] == ["3D"]

    def test_any_card_may_be_discarded(self) -> None:
        """A wild card or a black 3 may be discarded."""
        s = opened(HF, hands=["2C 3S JK 9S"])
        assert {"discard 2", "discard 3", "discard JK", "discard 9"} <= moves(s)

    def test_one_card_left_is_drawn(self) -> None:
        """With one card left in the draw pile, the player draws it and plays on."""
        s = opened(HF, hands=["9S 9H"], phase="draw", stock="4C")
        after = play(s, "draw")
        assert hand(after, 0) == "4C 9H 9S"
        assert after.stock_size == 0

    def test_black_three_on_top_blocks(self) -> None:
        """The pile is never taken with a black 3 on top."""
        s = opened(HF, hands=["3C 3S 9H"], pile="5C 3C", phase="draw")
        assert "stop card" in refusal(s, "take pair")

    def test_wild_on_top_is_no_stop_card_but_cannot_be_taken(self) -> None:
        """A wild on top is no stop card, yet there is no natural pair of it to take it with."""
        s = opened(HF, hands=["2C 2S 9H"], pile="5C 2D", phase="draw")
        assert "cannot be melded" in refusal(s, "take pair")

    def test_pair_must_be_natural(self) -> None:
        """Two naturals of the top card's rank take the pile; a wild never helps."""
        s = opened(HF, hands=["KC 2D 9S 9H 8C"], pile="5C KS", phase="draw")
        assert "two natural Ks" in refusal(s, "take pair")
        assert "natural and a wild" in refusal(s, "take 2")
        t = opened(HF, hands=["KC KD 9S 9H 8C"], pile="5C KS", phase="draw")
        after = play(t, "take pair")
        assert any(m.rank == 13 and m.size == 3 for m in after.melds[0])

    def test_no_lay_off_pickup(self) -> None:
        """The pile cannot be taken by laying its top card off on a meld."""
        s = opened(HF, hands=["9S 9H 8C"], melds={0: ["KH KS KD"]}, pile="5C KS", phase="draw")
        assert "laid off" in refusal(s, "take layoff")

    def test_pile_is_never_frozen_by_a_wild(self) -> None:
        """A wild card inside the pile does not freeze it."""
        s = opened(HF, hands=["KC KD 9S 9H 8C"], pile="2C 5C KS", phase="draw")
        assert not s.pile_frozen
        assert "take pair" in moves(s)

    @pytest.mark.parametrize("size", [5, 6])
    def test_pickup_refused_on_a_meld_of_five_or_more(self, size: int) -> None:
        """Top card of the rank of the side's 5- or 6-card meld: no pair pickup."""
        kings = " ".join(["KH", "KS", "KD", "KC", "KH", "KS"][:size])
        s = opened(HF, hands=["KC KD 9S 9H 8C"], melds={0: [kings]}, pile="5C KS", phase="draw")
        assert s.melds[0][0].size == size
        assert f"has {size} cards" in refusal(s, "take pair")
        assert "needs" in refusal(s, "take finish")

    @pytest.mark.parametrize(("size", "held"), [(5, "KC KD KC KD"), (6, "KC KD KC")])
    def test_take_finish_with_enough_naturals(self, size: int, held: str) -> None:
        """Finish the blocking meld from hand, start a new one with two more and the top card."""
        meld_ = " ".join(["KH", "KS", "KD", "KC", "KH", "KS"][:size])
        s = opened(HF, hands=[f"{held} 9S 9H 8C"], melds={0: [meld_]}, pile="5C KS", phase="draw")
        after = play(s, "take finish")
        kings = [m for m in after.melds[0] if m.rank == 13]
        assert [m.size for m in kings] == [7, 3]
        assert after.canasta_kind(kings[0]) == "natural"
        assert hand(after, 0) == "5C 8C 9H 9S"

    def test_unopened_side_shows_the_minimum(self) -> None:
        """An unopened side takes the pile only with melds (top card included) worth the minimum."""
        s = position(HF, hands=["KC KD 9S 9H 8C"], pile="AC AD AH KS", phase="draw")
        assert "has not opened" in refusal(s, "take pair")
        t = position(HF, hands=["KC KD AS AS AS 9H 8C"], pile="AC AD AH KS", phase="draw")
        t = play(t, "take pair")
        assert t.turn.pending and not t.opened[0]
        t = play(t, "meld A A A")
        assert t.opened[0] and not t.turn.pending

    def test_stock_empty_must_take_if_able(self) -> None:
        """With the stock empty a player must take the pile if able; else the round ends."""
        s = opened(HF, hands=["KC KD 9S"], pile="5C KS", phase="draw", stock="")
        assert "must take" in refusal(s, "pass")
        assert moves(s) == {"take pair"}
        t = opened(HF, hands=["KC 9D 9S"], pile="5C KS", phase="draw", stock="")
        end = play(t, "pass")
        assert end.end is not None and end.end.reason == "stock"


class TestHandAndFootMelds:
    """Hand and Foot: melds of 3 to 7 cards, wild-card limits, wild melds."""

    def test_one_wild_in_a_new_meld(self) -> None:
        """A new meld may hold one wild card, not two."""
        s = opened(HF, hands=["KC KD 2C 2D 9S 9H 8C"])
        assert "meld K K 2" in moves(s)
        assert "meld K 2 2" not in moves(s)
        assert "natural" in refusal(s, "meld K 2 2")

    def test_second_wild_as_sixth_card(self) -> None:
        """4 naturals + 1 wild (5 cards): a second wild joins as the 6th card."""
        s = opened(HF, hands=["2C 9S 9H 8C"], melds={0: ["KH KS KD KC 2H"]})
        after = play(s, "add K 2")
        assert (after.melds[0][0].naturals, after.melds[0][0].wilds) == (4, 2)

    def test_second_wild_refused_as_fifth_card(self) -> None:
        """3 naturals + 1 wild (4 cards): a second wild would be the 5th card, refused."""
        s = opened(HF, hands=["2C 9S 9H 8C"], melds={0: ["KH KS KD 2H"]})
        assert "card number 6" in refusal(s, "add K 2")

    def test_other_reading_of_the_second_wild_is_an_option(self) -> None:
        """Section v.2's reading (five naturals first) refuses the 6th-card wild of 4 + 1."""
        v = canasta.load_variant(HF)
        assert v.melds.second_wild == "by_size" and v.melds.second_wild_size == 6
        v2 = attrs.evolve(v, melds=attrs.evolve(v.melds, second_wild="by_naturals"))
        s = position(v2, hands=["2C 9S 9H 8C"], melds={0: ["KH KS KD KC 2H"]})
        assert "once it holds 5 naturals" in refusal(s, "add K 2")
        t = position(v2, hands=["2C 9S 9H 8C"], melds={0: ["KH KS KD KC KH 2H"]})
        assert "add K 2" in moves(t)

    def test_at_most_two_wilds(self) -> None:
        """No meld of naturals holds a third wild card."""
        s = opened(HF, hands=["2C 9S 9H 8C"], melds={0: ["KH KS KD KC 2H 2D"]})
        assert "at most 2 wild cards" in refusal(s, "add K 2")

    def test_meld_closed_at_seven(self) -> None:
        """A 7-card meld is complete and closed; a new meld of that rank may be started."""
        s = opened(HF, hands=["KC KD KH 9S 9H 8C"], melds={0: ["KH KS KD KC KH KS KD"]})
        assert "complete and closed" in refusal(s, "add K K")
        after = play(s, "meld K K K")
        assert [m.size for m in after.melds[0] if m.rank == 13] == [7, 3]

    def test_no_second_open_meld_of_a_rank(self) -> None:
        """While a meld of a rank is open, a second one is refused."""
        s = opened(HF, hands=["KC KD KH 9S 9H 8C"], melds={0: ["KH KS KD"]})
        assert "add to it" in refusal(s, "meld K K K")

    def test_wild_meld_and_wild_canasta(self) -> None:
        """Wild cards meld on their own; seven make a wild canasta, closed."""
        s = opened(HF, hands=["2C 2D JK 2S JK 2H 2C 9S 9H 8C"])
        s = play(s, "meld 2 2 JK", "add W 2", "add W JK", "add W 2", "add W 2")
        wild = next(m for m in s.melds[0] if m.rank == 0)
        assert wild.size == 7 and s.canasta_kind(wild) == "wild"
        t = opened(HF, hands=["2C 9S 9H 8C"], melds={0: ["QH QS QD", WILD_C]})
        assert "complete and closed" in refusal(t, "add W 2")

    def test_wild_meld_holds_no_naturals(self) -> None:
        """A natural card never joins the wild meld."""
        s = opened(HF, hands=["9C 9S 9H 8C"], melds={0: ["QH QS QD", "2C 2D JK"]})
        assert "cannot join" in refusal(s, "add W 9")

    def test_black_threes_never_meld(self) -> None:
        """Black 3s are never melded in this profile."""
        s = opened(HF, hands=["3C 3S 3C 9S 9H 8C"])
        assert "never" in refusal(s, "meld 3 3 3")

    @pytest.mark.parametrize(("round_", "minimum"), [(0, 50), (1, 90), (2, 120), (3, 150)])
    def test_minimum_starting_points_by_round(self, round_: int, minimum: int) -> None:
        """Minimal Starting Points by round: 50, 90, 120, 150."""
        s = position(HF, hands=["KC KD KH 9D 9S 8C"], hand_number=round_)
        assert f"opening minimum of {minimum}" in refusal(s, "meld K K K")

    def test_opening_meets_the_minimum(self) -> None:
        """A-A-A (60) opens a side in round 1 (minimum 50)."""
        s = position(HF, hands=["AC AD AH 9D 9S 8C"])
        after = play(s, "meld A A A")
        assert after.opened[0]

    def test_cards_laid_this_turn_may_be_taken_back(self) -> None:
        """After 'meld K K K', 'back' returns the kings to the hand: the state before the meld, counted."""
        s = opened(HF, hands=["KC KD KH 9S 9H 8C"])
        after = play(s, "meld K K K")
        back = play(after, "back")
        assert back.hands_ == s.hands_ and back.melds_ == s.melds_ and back.opened == s.opened
        assert back.turn.points == s.turn.points and back.turn.played == s.turn.played
        assert back.turn.backs == 1 and "back" not in moves(back)

    def test_move_a_card_between_melds(self) -> None:
        """Moving a wild card laid on one meld to another: back, then add it elsewhere."""
        s = opened(HF, hands=["2C 9S 9H 8C 5D"], melds={0: ["QH QS QD", "9D 9C 9H"]})
        after = play(s, "add Q 2", "back", "add 9 2")
        assert [m.wilds for m in after.melds[0]] == [0, 1]
        assert hand(after, 0) == "5D 8C 9H 9S"

    def test_back_unopens_a_side_and_holds_the_pile_aside_again(self) -> None:
        """A meld that met the opening minimum, taken back: the side is unopened again, as before it."""
        s = position(HF, hands=["AC AD AH 9D 9S 8C"])
        after = play(s, "meld A A A")
        assert after.opened[0]
        back = play(after, "back")
        assert not back.opened[0] and back.melds_[0] == () and back.turn.points == 0
        assert hand(back, 0) == hand(s, 0)

    def test_take_backs_are_bounded(self) -> None:
        """At most MAX_TAKE_BACKS a turn, so a turn always ends."""
        from canasta.engine.melding import MAX_TAKE_BACKS

        s = opened(HF, hands=["KC KD KH 9S 9H 8C"])
        for _ in range(MAX_TAKE_BACKS):
            s = play(s, "meld K K K", "back")
        after = play(s, "meld K K K")
        assert "back" not in moves(after)
        assert "at most" in refusal(after, "back")

    def test_no_take_back_after_asking_or_the_foot(self) -> None:
        """Asking the partner, or picking up the foot, fixes what was laid before."""
        s = opened(HF, hands=["QC 9S 9H 8C"], melds={0: ["QH QS QD QC QH QS"]}, feet={0: "4C 4D 5C"})
        after = play(s, "add Q Q", "foot")
        assert "back" not in moves(after)

    def test_classic_has_no_take_back(self) -> None:
        """Without melds.rearrange, 'back' is refused by name."""
        s = opened(hands=["KC KD KH 9S 9H 8C"])
        after = play(s, "meld K K K")
        assert "back" not in moves(after)
        assert "stay there" in refusal(after, "back")

    def test_take_back_round_trips_through_json(self) -> None:
        """A state with a take-back log reads back equal, and 'back' works on the copy."""
        s = play(opened(HF, hands=["KC KD KH 9S 9H 8C"]), "meld K K K")
        copy = canasta.from_json(canasta.to_json(s), GameState)
        assert copy == s and copy.apply("back") == s.apply("back")


class TestHandAndFootFoot:
    """Hand and Foot: the foot."""

    def test_foot_only_after_first_canasta(self) -> None:
        """The foot is picked up once the side has made a canasta."""
        s = opened(HF, hands=["9S 9H 8C"], feet={0: "4C 4D 5C"})
        assert "completed a canasta" in refusal(s, "foot")
        t = opened(HF, hands=["9S 9H 8C"], feet={0: "4C 4D 5C"}, melds={0: [NATURAL_C]})
        after = play(t, "foot")
        assert hand(after, 0) == "4C 4D 5C 8C 9H 9S"
        assert after.feet[0] == ()

    def test_partner_may_pick_up_foot_too(self) -> None:
        """Each partner picks up their own foot once the side has a canasta."""
        s = opened(HF, hands={2: "9S 9H"}, feet={2: "4C 4D"}, melds={0: [NATURAL_C]}, current=2)
        assert "foot" in moves(s)

    def test_foot_picked_up_after_making_the_canasta(self) -> None:
        """The player who makes the first canasta may pick up the foot and play on."""
        s = opened(HF, hands=["QC 9S 9H 8C"], melds={0: ["QH QS QD QC QH QS"]}, feet={0: "4C 4D 5C"})
        assert "foot" not in moves(s)
        s = play(s, "add Q Q", "foot")
        assert hand(s, 0) == "4C 4D 5C 8C 9H 9S"

    def test_red_three_in_foot_is_laid_and_replaced(self) -> None:
        """A red 3 picked up with the foot goes to the side and is replaced."""
        s = opened(
            HF, hands=["9S 9H 8C"], feet={0: "4C 3H 5C"}, melds={0: [NATURAL_C]}, stock="6C 7C"
        )
        after = play(s, "foot")
        assert [str(c) for c in after.red_threes[0]] == ["3H"]
        assert hand(after, 0) == "4C 5C 7C 8C 9H 9S"

    def test_red_three_held_in_foot_counts_minus(self) -> None:
        """A red 3 still in an unplayed foot at the round's end: -100."""
        s = position(HF, hands={1: "9C 9D"}, feet={2: "3H 4C"}, current=1, phase="draw", stock="", melds={0: ["KH KS KD"]})
        end = play(s, "pass")
        assert end.end is not None
        assert end.end.hand_scores[0] == 30 - 5 - 100


class TestHandAndFootGoingOut:
    """Hand and Foot: out but not out, going out, the black-3 out."""

    def test_out_but_not_out(self) -> None:
        """Discarding the last card without going out: the round goes on, the player has none."""
        s = opened(HF, hands=["9S"])
        assert "going out needs" in refusal(s, "out 9")
        after = play(s, "discard 9")
        assert not after.is_hand_over
        assert after.hands[0] == () and after.current_player == 1

    def test_playing_on_with_no_cards(self) -> None:
        """A player with no cards draws two on the next turn."""
        s = opened(HF, hands={0: ""}, phase="draw", stock="4C 5C 6C")
        assert hand(play(s, "draw"), 0) == "5C 6C"

    @pytest.mark.parametrize(
        "melds_", [[NATURAL_C, MIXED_C], [NATURAL_C, WILD_C], [MIXED_C, WILD_C]]
    )
    def test_out_needs_natural_mixed_and_wild_canastas(self, melds_: list[str]) -> None:
        """Going out needs a clean, a dirty and a wild canasta; two of them are not enough."""
        s = opened(HF, hands=["9S"], melds={0: melds_})
        assert "including 1 natural, 1 mixed, 1 wild" in refusal(s, "out 9")

    def test_out_with_all_three(self) -> None:
        """With all three canastas the last discard goes out: +100."""
        s = opened(HF, hands=["9S"], melds=ALL3)
        end = play(s, "out 9")
        assert end.end is not None and end.end.reason == "out"
        # queens 70 + kings 50 + 2s 40, wild canasta 20*5 + 50*2; bonuses 500 + 300 + 1500 + 100
        v = canasta.load_variant(HF).values
        melded = 70 + 50 + 2 * v.two + 5 * v.two + 2 * v.joker
        assert end.end.hand_scores[0] == melded + 500 + 300 + 1500 + 100

    def test_going_out_needs_a_final_discard(self) -> None:
        """Melding the last card does not go out: the round ends with a discard."""
        s = opened(HF, hands=["9S 9H 9D"], melds=ALL3)
        assert "discarding" in refusal(s, "meld 9 9 9")

    def test_foot_first(self) -> None:
        """A player who has not picked up the foot may not go out."""
        s = opened(HF, hands=["9S"], melds=ALL3, feet={0: "4C 5C"})
        assert "foot" in refusal(s, "out 9")

    def test_may_ask_before_going_out(self) -> None:
        """A player able to go out may ask the side first."""
        s = opened(HF, hands=["9S"], melds=ALL3)
        after = play(s, "ask")
        assert after.current_player == 2 and moves(after) == {"yes", "no"}

    def test_black_three_out(self) -> None:
        """Seven black 3s and a discard go out for a 1500 bonus; the 3s do not count minus."""
        s = opened(HF, hands=["3C 3C 3C 3S 3S 3S 3C 9S"], melds=ALL3)
        end = play(s, "out 9")
        assert end.end is not None and end.end.black_three_out
        items = dict(end.end.breakdowns[0].items)
        assert items["black-3 out"] == 1500
        assert "cards left in hand" not in items

    def test_black_three_out_discarding_a_black_three(self) -> None:
        """The discard of a black-3 out may itself be a black 3 (eight black 3s in hand)."""
        s = opened(HF, hands=["3C 3C 3C 3S 3S 3S 3C 3S"], melds=ALL3)
        end = play(s, "out 3")
        assert end.end is not None and end.end.black_three_out

    def test_black_three_out_needs_seven(self) -> None:
        """Six black 3s and a discard are no black-3 out."""
        s = opened(HF, hands=["3C 3C 3C 3S 3S 3S 9S"], melds=ALL3)
        assert "last card" in refusal(s, "out 9")

    def test_black_threes_left_count_minus(self) -> None:
        """Black 3s left in hand at the round's end count minus."""
        v = canasta.load_variant(HF).values
        s = position(HF, hands={1: "3C 3S"}, current=1, phase="draw", stock="", melds={1: ["KH KS KD"]})
        end = play(s, "pass")
        assert end.end is not None
        assert end.end.hand_scores[1] == 30 - 2 * v.black_three

    def test_game_is_four_rounds(self) -> None:
        """The game ends after round 4 (hand number 3)."""
        s = position(HF, hands={1: "9C"}, current=1, phase="draw", stock="", hand_number=3)
        assert play(s, "pass").is_game_over
        t = position(HF, hands={1: "9C"}, current=1, phase="draw", stock="", hand_number=2)
        assert not play(t, "pass").is_game_over


# ===================================================================== 2 and 3 players


class TestClassicTwoPlayers:
    """Classic for two: 15 cards, draw two, two canastas to go out."""

    def test_deal(self) -> None:
        """Each player is dealt 15 cards and plays alone."""
        s = canasta.new_game(canasta.load_variant("classic-2p"), seed=3)
        assert [len(h) for h in s.hands] == [15, 15]
        assert s.sides == ((0,), (1,))

    def test_draw_two(self) -> None:
        """A draw takes two cards, discard one."""
        s = opened("classic-2p", hands=["9S 9H"], phase="draw", stock="4C 5C 6C")
        after = play(s, "draw")
        assert hand(after, 0) == "5C 6C 9H 9S"
        assert play(after, "discard 5").current_player == 1

    def test_short_stock_draws_what_remains(self) -> None:
        """One card left for a draw of two: the player draws it (an assumption of the profile)."""
        s = opened("classic-2p", hands=["9S 9H"], phase="draw", stock="4C")
        assert hand(play(s, "draw"), 0) == "4C 9H 9S"

    def test_two_canastas_to_go_out(self) -> None:
        """One canasta is not enough to go out; two are."""
        s = opened("classic-2p", hands=["9S"], melds={0: [NATURAL_C]})
        assert "going out needs 2 canastas" in refusal(s, "out 9")
        t = opened("classic-2p", hands=["9S"], melds={0: [NATURAL_C, "KH KS KD KC KH KS KD"]})
        end = play(t, "out 9")
        assert end.end is not None and end.end.reason == "out"

    def test_no_partner_to_ask(self) -> None:
        """There is no partner to ask."""
        s = opened("classic-2p", hands=["9S 9H"], melds={0: [NATURAL_C]})
        assert "no partner" in refusal(s, "ask")


class TestClassicThreePlayers:
    """Classic for three: 13 cards each, three sides, each for themself."""

    def test_deal(self) -> None:
        """Each of three players is dealt 13 cards; three sides."""
        s = canasta.new_game(canasta.load_variant("classic-3p"), seed=3)
        assert [len(h) for h in s.hands] == [13, 13, 13]
        assert s.sides == ((0,), (1,), (2,))
        assert len(s.scores) == 3

    def test_draw_one(self) -> None:
        """A draw takes one card."""
        s = opened("classic-3p", hands=["9S 9H"], phase="draw", stock="4C 5C 6C")
        assert hand(play(s, "draw"), 0) == "6C 9H 9S"

    def test_one_canasta_to_go_out(self) -> None:
        """One canasta is enough to go out."""
        s = opened("classic-3p", hands=["9S"], melds={0: [NATURAL_C]})
        end = play(s, "out 9")
        assert end.end is not None and end.end.seat == 0
        assert len(end.end.hand_scores) == 3

    def test_melds_are_not_shared(self) -> None:
        """Each player's melds are their own: seat 2 cannot add to seat 0's queens."""
        s = opened("classic-3p", hands={2: "QC 9S 9H"}, current=2, melds={2: ["KH KS KD"]})
        assert "no meld of Qs" in refusal(s, "add Q Q")

    def test_turns_go_round_three_seats(self) -> None:
        """Play passes 0 -> 1 -> 2 -> 0."""
        s = opened("classic-3p", hands={2: "9S 9H 8C"}, current=2)
        assert play(s, "discard 9").current_player == 0

    def test_no_partner_to_ask(self) -> None:
        """There is no partner to ask."""
        s = opened("classic-3p", hands=["9S 9H"], melds={0: [NATURAL_C]})
        assert "no partner" in refusal(s, "ask")


# ===================================================================== golden first turns

GOLDEN = Path(__file__).parent / "data" / "golden_first_turns.json"
GOLDEN_SEEDS = range(1, 6)
GOLDEN_MOVES = 6


def first_turns(name: str, seed: int) -> list[dict[str, Any]]:
    """The legal moves of a seeded deal and after each of its first moves (always the first legal)."""
    s = canasta.new_game(canasta.load_variant(name), seed=seed)
    steps: list[dict[str, Any]] = []
    played = None
    for _ in range(GOLDEN_MOVES + 1):
        legal = [str(m) for m in s.legal_moves()]
        steps.append({"played": played, "count": len(legal), "legal": legal})
        if not legal:
            break
        played = legal[0]
        s = s.apply(played)
    return steps


def golden_data() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """The golden record of every bundled profile."""
    return {
        name: {str(seed): first_turns(name, seed) for seed in GOLDEN_SEEDS}
        for name in canasta.variant_names()
    }


class TestGoldenFirstTurns:
    """legal_moves on seeded deals, against tests/data/golden_first_turns.json."""

    def test_matches_golden_file(self) -> None:
        """Move generation is unchanged (REGEN_GOLDEN=1 rewrites the file after a deliberate change)."""
        data = golden_data()
        if os.environ.get("REGEN_GOLDEN") == "1":
            GOLDEN.parent.mkdir(exist_ok=True)
            GOLDEN.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
        assert sorted(golden) == sorted(data), "profiles differ: run with REGEN_GOLDEN=1"
        for name in data:
            for seed, steps in data[name].items():
                assert golden[name][seed] == steps, (
                    f"{name} seed {seed}: legal moves changed (REGEN_GOLDEN=1 to accept)"
                )

    def test_golden_counts_agree_with_lists(self) -> None:
        """Each recorded count is the length of its list, and each played move was listed."""
        golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
        for steps_by_seed in golden.values():
            for steps in steps_by_seed.values():
                assert steps[0]["played"] is None
                for before, after in pairwise(steps):
                    assert after["played"] == before["legal"][0]
                for step in steps:
                    assert step["count"] == len(step["legal"])
