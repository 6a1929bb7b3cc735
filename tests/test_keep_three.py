"""A 3 kept in hand for the Straight (``threes.keep_one``, Modern American, issue #15).

The first 3 that reaches a player's hand from the stock while their side has
not melded and they hold none stays in hand; ``lay 3R`` / ``lay 3`` lays it
out and draws its replacement. While it is kept the player may not take the
pile, meld, ask or go out; once the side has melded, laying it comes first.
Also here: the talon edge (a 3 of the talon that the stock cannot replace)
and the oracle's bound on canastas that missed an open wild meld.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from canasta import ActionSpace
from canasta.engine import KIND, compile_rules
from canasta.engine.integrity import state_problem
from canasta.engine.move_fields import malformed
from canasta.engine.moves import RED_THREE, LayThree, parse_move
from canasta.engine.special import unformable
from canasta.engine.state import HAND_OVER
from positions import cards, moves, play, position, refusal

MAC = canasta.load_variant("modern-american")
NO_KEEP = attrs.evolve(MAC, threes=attrs.evolve(MAC.threes, keep_one=False))

#: seats 1 to 3 hold something; side 1 (seats 1, 3) has opened with three queens
OTHERS = {1: "4C 4D 9S", 2: "KH KS 5S 6S", 3: "9H 8D 8S"}
THEIR_MELDS = {1: ["QC QD QH"]}

#: the opening of the talon tests (140 with a clean triple), and a stock of nine whose
#: top eight are 3s: the talon of four and every replacement are 3s, bar the 8H
TALON_HAND = "AC AD AH KC KD KH JK 9C 9D"
TALON_STOCK = "8H 3C 3S 3C 3S 3D 3H 3D 3H"

#: a Straight: one of each rank from A to 3, a 2 and a joker (14 cards)
STRAIGHT = "AH KC QS JD 10C 9C 8C 7H 6D 5C 4S 3D 2C JK"


def _threes(hand: tuple[int, ...]) -> int:
    return sum(1 for c in hand if KIND[c] in (RED_THREE, 3))


def _pos(hand: str, **kwargs: object) -> canasta.GameState:
    hands = {0: hand, **OTHERS}
    return position(MAC, hands=hands, melds=kwargs.pop("melds", THEIR_MELDS), **kwargs)  # type: ignore[arg-type]


class TestDealAndDraw:
    def test_each_player_keeps_at_most_one_dealt_three(self) -> None:
        kept = laid = 0
        for seed in range(30):
            s = canasta.new_game(MAC, seed=seed)
            for seat, hand in enumerate(s.hands_):
                n = _threes(hand)
                assert n <= 1, (seed, seat)
                kept += n
                assert len(hand) == MAC.deal.hand_size
            laid += sum(len(x) for x in s.red_threes_)
        # 8 threes in 108 cards, 52 dealt: most deals give someone a 3, some two
        assert kept > 30 and laid > 5

    def test_without_the_option_every_three_is_laid(self) -> None:
        for seed in range(10):
            s = canasta.new_game(NO_KEEP, seed=seed)
            assert all(_threes(h) == 0 for h in s.hands_)

    def test_a_drawn_three_is_kept(self) -> None:
        s = _pos("5C 6C 7C KD", phase="draw", stock="8H 9D 3H")
        s = play(s, "draw")
        assert _threes(s.hands_[0]) == 1
        assert cards("3H")[0] in s.turn.drawn
        assert not s.red_threes_[0]
        assert "lay 3R" in moves(s)

    def test_a_second_three_is_laid_and_replaced(self) -> None:
        s = _pos("5C 6C 7C 3S", phase="draw", stock="8H 9D 3H")
        s = play(s, "draw")
        assert s.red_threes_[0] == cards("3H")
        assert sorted(s.hands_[0]) == sorted(cards("5C 6C 7C 3S 9D"))

    def test_a_side_that_has_melded_keeps_none(self) -> None:
        s = _pos("5C 6C 7C KD", phase="draw", stock="8H 9D 3H", melds={0: ["AC AD AH"], **THEIR_MELDS})
        s = play(s, "draw")
        assert _threes(s.hands_[0]) == 0
        assert s.red_threes_[0] == cards("3H")


class TestLaying:
    def test_lay_draws_the_replacement(self) -> None:
        s = _pos("3H 5C 6C 7C KD", stock="8H 9D JS", turn={"drawn": "KD"})
        s = play(s, "lay 3R")
        assert s.red_threes_[0] == cards("3H")
        assert sorted(s.hands_[0]) == sorted(cards("5C 6C 7C KD JS"))
        assert cards("JS")[0] in s.turn.drawn
        assert s.phase_name == "play"
        assert state_problem(s) is None

    def test_lay_before_drawing(self) -> None:
        s = _pos("3S 5C 6C 7C", phase="draw", stock="8H 9D JS")
        assert moves(s) == {"lay 3", "draw"}
        s = play(s, "lay 3", "draw")
        assert sorted(s.hands_[0]) == sorted(cards("5C 6C 7C JS 9D"))

    def test_a_replacement_three_is_kept_again(self) -> None:
        s = _pos("3H 5C 6C 7C KD", stock="8H 3S", turn={"drawn": "KD"})
        s = play(s, "lay 3R")
        assert _threes(s.hands_[0]) == 1 and "lay 3" in moves(s)

    def test_refusals_while_keeping(self) -> None:
        s = _pos("3H 5C 5D 5H 7C KD AS", stock="8H 9D JS", turn={"drawn": "KD"}, pile="5S")
        assert "before melding" in refusal(s, "meld 5 5 5")
        assert "never discarded" in refusal(s, "discard 3R")
        assert moves(s) >= {"lay 3R", "discard 5", "discard K"}
        assert not any(m.startswith(("meld", "add", "ask", "out")) for m in moves(s))
        d = _pos("3H 5C 5D 7C KD AS", phase="draw", pile="9C 5S")
        assert "before taking the pile" in refusal(d, "take pair")
        assert moves(d) == {"lay 3R", "draw"}

    def test_once_the_side_has_melded_lay_comes_first(self) -> None:
        # the partner opened; seat 0 still keeps the 3 it kept before
        s = _pos("3H 5C 5D 7C KD", phase="draw", melds={0: ["AC AD AH"], **THEIR_MELDS})
        assert moves(s) == {"lay 3R"}
        assert "your side has melded" in refusal(s, "draw")
        s = play(s, "lay 3R")
        assert "draw" in moves(s)

    def test_a_discard_keeps_the_three(self) -> None:
        s = _pos("3H 5C 6C 7C KD", turn={"drawn": "KD"})
        s = play(s, "discard K")
        assert _threes(s.hands_[0]) == 1 and s.current_player == 1

    def test_lay_with_an_empty_stock_ends_the_hand(self) -> None:
        # as a red 3 drawn as the stock's last card (threes.red_last_card: ends_hand)
        s = _pos("3H 5C 6C 7C KD", stock="", turn={"drawn": "KD"})
        s = play(s, "lay 3R")
        assert s.phase == HAND_OVER and s.end is not None and s.end.reason == "stock"

    def test_refused_where_nothing_is_kept(self) -> None:
        s = _pos("5C 6C 7C KD", turn={"drawn": "KD"})
        assert "hold no 3R" in refusal(s, "lay 3R")
        classic = position("classic", hands=["5C 6C 7C KD"], turn={"drawn": "KD"})
        assert "threes.keep_one is off" in refusal(classic, "lay 3R")


class TestStraight:
    def test_the_straight_is_laid_with_a_kept_three(self) -> None:
        s = _pos(STRAIGHT, turn={"drawn": "JK"})
        assert "special straight" in moves(s)
        end = play(s, "special straight")
        assert end.end is not None and end.end.reason == "special"
        assert end.end.hand_scores[0] == 3000

    def test_the_profile_lists_it(self) -> None:
        names = [h.name for h in MAC.special.hands]
        assert "straight" in names
        hand = next(h for h in MAC.special.hands if h.name == "straight")
        assert unformable(compile_rules(MAC), hand) is None
        assert "laid out" in (unformable(compile_rules(NO_KEEP), hand) or "")


class TestScoring:
    def test_a_kept_three_at_hand_end_counts_as_held(self) -> None:
        s = _pos("3H 5C 6C", phase="draw", stock="")
        end = play(s, "pass")
        items = dict(end.end.breakdowns[0].items) if end.end is not None else {}
        assert items.get("red 3s held") == -MAC.threes.red_held_penalty


class TestFormats:
    def test_notation_and_malformed(self) -> None:
        assert parse_move("lay 3R") == LayThree(RED_THREE)
        assert str(LayThree(3)) == "lay 3"
        assert malformed(LayThree(7)) is not None
        with pytest.raises(canasta.NotationError):
            parse_move("lay 9")

    def test_action_space(self) -> None:
        space = ActionSpace(MAC)
        for text in ("lay 3R", "lay 3"):
            i = space.encode(text)
            assert str(space.move(i)) == text
        s = _pos("3H 5C 6C 7C KD", turn={"drawn": "KD"})
        assert space.encode("lay 3R") in space.legal_ids(s)
        assert str(space.decode(s, space.encode("lay 3R"))) == "lay 3R"
        with pytest.raises(canasta.CanastaError):
            ActionSpace(NO_KEEP).encode("lay 3R")

    def test_json_round_trip(self) -> None:
        s = _pos("3H 5C 6C 7C KD", turn={"drawn": "KD"})
        back = canasta.from_json(canasta.to_json(s), canasta.GameState)
        assert back == s and moves(back) == moves(s)

    def test_integrity(self) -> None:
        two = _pos("3H 3S 5C 6C 7C", turn={"drawn": "7C"})
        assert state_problem(two) is not None
        assert "at most one 3" in str(state_problem(two))
        off = position(NO_KEEP, hands={0: "3H 5C 6C 7C", **OTHERS}, melds=THEIR_MELDS, turn={"drawn": "7C"})
        assert state_problem(off) is not None

    def test_view_hides_it_from_others(self) -> None:
        s = _pos("3H 5C 6C 7C KD", turn={"drawn": "KD"})
        assert cards("3H")[0] in s.view(0).hand_codes
        assert '"3H"' in canasta.to_json(s.view(0))
        assert '"3H"' not in canasta.to_json(s.view(1))


class TestTalonEdge:
    def test_a_talon_three_the_stock_cannot_replace_ends_the_hand(self) -> None:
        # seat 0 opens (125 with a clean triple); the talon of four is 3s, their
        # replacements 3s, and the stock's last card goes to the hand: the last
        # 3 laid has no replacement, and the hand ends after the discard
        s = _pos(TALON_HAND, stock=TALON_STOCK, turn={"drawn": "9D"})
        s = play(s, "meld A A A", "meld K K K", "add K JK")
        end = s.apply("discard 9")
        assert end.phase == HAND_OVER, end.phase_name
        assert end.end is not None and end.end.reason == "stock"
        assert len(end.red_threes_[0]) == 8 and sorted(KIND[c] for c in end.hands_[0]) == [8, 9]

    def test_play_on_keeps_the_hand_going(self) -> None:
        v = attrs.evolve(NO_KEEP, threes=attrs.evolve(NO_KEEP.threes, red_last_card="play_on"))
        s = position(v, hands={0: TALON_HAND, **OTHERS}, melds=THEIR_MELDS,
                     stock=TALON_STOCK, turn={"drawn": "9D"})
        s = play(s, "meld A A A", "meld K K K", "add K JK", "discard 9")
        assert s.phase_name == "draw" and not s.stock_ and s.current_player == 1


class TestOracleBound:
    def test_an_open_wild_meld_counts_toward_going_out(self) -> None:
        # side 0 holds a wild meld of five and an 8s meld of six; 2C 2C 2S 4C
        # in hand: add W 2 twice (a wild canasta), add 8 2 (a mixed one), out 4.
        # The oracle's quick bound once missed the open wild meld: after the
        # first add W 2 it found two canastas out of reach, so a player told
        # 'yes' here had no legal move
        melds = {0: ["2H JK JK JK 2D", "8C 8C 8D 8D 8H 8S", "9C 9C 9H"], 1: ["QC QD QH"]}
        s = position(MAC, hands={0: "2C 2C 2S 4C", **OTHERS}, melds=melds,
                     turn={"drawn": "4C", "asked": 1, "asker": 0}, asked_before=(True, False, False, False))
        assert moves(s) == {"add W 2"}
        s = play(s, "add W 2", "add W 2", "add 8 2", "out 4")
        assert s.end is not None and s.end.reason == "out"


class TestRandomPositions:
    """Over random Modern American play, wherever a player keeps a 3: the moves listed are
    exactly the moves of the action space that the engine accepts, each applies, and
    they are only the ones keeping a 3 allows."""

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**32), picks=st.randoms(use_true_random=False))
    def test_listed_moves_while_keeping(self, seed: int, picks: random.Random) -> None:
        space = ActionSpace(MAC)
        s = canasta.new_game(MAC, seed=seed)
        kept_states = 0
        for _ in range(400):
            if s.is_hand_over:
                break
            legal = s.legal_moves()
            assert legal, s
            if _threes(s.hands_[s.current]) and s.phase_name in ("draw", "play"):
                kept_states += 1
                listed = {str(m) for m in legal}
                accepted = {str(m) for m in space.moves if s.is_legal(m)}
                assert listed == accepted
                opened = s.opened[s.rules.side_of[s.current]]
                for m in legal:
                    assert m.verb in ("lay", "discard", "draw", "pass", "special"), str(m)
                    assert not (opened and m.verb != "lay"), str(m)
                    if m.verb == "discard":
                        assert not getattr(m, "out", False)
                    s.apply(m)
            # favour keeping: lay only one time in four, so kept states last
            lays = [m for m in legal if m.verb == "lay"]
            rest = [m for m in legal if m.verb != "lay"] or lays
            s = s.apply(picks.choice(lays if lays and picks.random() < 0.25 else rest))
        assert kept_states or not any(_threes(h) for h in canasta.new_game(MAC, seed=seed).hands_)
