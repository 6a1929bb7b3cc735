"""Asking the side's advice (``going_out.ask_advice``): Hand and Foot's table talk, which binds nothing.

The house text (3.l.iii): "When a player has one card left, it is his turn,
and he is eligible and capable of going out, he may seek the advice of his
team". The partner answers, the player decides: the legal moves after the
answer are those before the question, but the question itself.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta.engine.state import NOT_ASKED
from positions import moves, play, position, refusal

HF = canasta.load_variant("hand-and-foot")
#: a clean, a dirty and a wild canasta: what Hand and Foot's going out needs
THREE = ["KH KS KD KC KH KS KD", "QH QS QD QC QH QS 2D", "2C 2H JK JK 2S 2D 2C"]


def ready(hand: str) -> canasta.GameState:
    """Seat 0 of Hand and Foot in its play phase, foot picked up, its side holding the three canastas."""
    return position(HF, hands=[hand, "4C 6D"], melds={0: THREE}, pile="5D")


def after_answer(s: canasta.GameState, answer: str) -> canasta.GameState:
    """``s`` after the player asks and the partner answers ``answer``."""
    asked = play(s, "ask")
    assert asked.phase_name == "answer" and asked.current_player == 2
    assert moves(asked) == {"yes", "no"}
    return play(asked, answer)


class TestAdviceBindsNothing:
    """The answer, yes or no, changes no legal move."""

    @pytest.mark.parametrize("answer", ["yes", "no"])
    def test_one_card_left(self, answer: str) -> None:
        """One card left: going out and 'out, but not out' stay open after either answer."""
        s = ready("9D")
        before = moves(s)
        assert {"ask", "out 9", "discard 9"} <= before
        after = after_answer(s, answer)
        assert after.current_player == 0
        assert moves(after) == before - {"ask"}

    @pytest.mark.parametrize("answer", ["yes", "no"])
    def test_after_laying_cards(self, answer: str) -> None:
        """Asked after a meld laid this turn: the meld may still be taken back ('back')."""
        s = play(ready("9D 8C 8D 8H"), "meld 8 8 8")
        before = moves(s)
        assert {"ask", "back"} <= before
        assert moves(after_answer(s, answer)) == before - {"ask"}

    def test_once_a_turn(self) -> None:
        """The question is asked once a turn."""
        after = after_answer(ready("9D"), "yes")
        assert "already asked" in refusal(after, "ask")
        assert after.turn.asked == NOT_ASKED

    def test_only_with_one_card(self) -> None:
        """With more than one card the player does not ask (the text: one card left)."""
        assert "one card" in refusal(ready("9D 9H"), "ask")

    def test_only_when_able_to_go_out(self) -> None:
        """Without the three canastas there is nothing to ask about."""
        s = position(HF, hands=["9D", "4C 6D"], melds={0: THREE[:2]}, pile="5D")
        assert "ask" not in moves(s)

    def test_state_after_asking_round_trips(self) -> None:
        """A state with the question asked reads back from JSON as it was."""
        after = after_answer(ready("9D"), "no")
        assert canasta.from_json(canasta.to_json(after), canasta.GameState) == after

    def test_greedy_hands(self) -> None:
        """In greedy hands, every state where asking is listed: either answer leaves the same moves."""
        bot = canasta.GreedyBot()
        asked = 0
        for seed in range(6):
            rng = random.Random(seed)
            s = canasta.new_game(HF, seed=seed)
            while not s.is_hand_over:
                texts = moves(s)
                if "ask" in texts:
                    asked += 1
                    for answer in ("yes", "no"):
                        assert moves(s.apply("ask").apply(answer)) == texts - {"ask"}
                s = s.apply(bot.choose(s.view(s.current_player), rng))
        assert asked > 0


@settings(max_examples=examples(60), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1), wander=st.sampled_from([0.0, 0.1, 0.3]))
def test_asking_changes_no_legal_move(deal: int, choices: int, wander: float) -> None:
    """Any deal, any play: wherever Hand and Foot lists "ask", either answer leaves the moves as they were.

    Play is the greedy bot's, with a random legal move instead at a rate of ``wander``:
    random play alone almost never makes the three canastas that asking needs, and the
    greedy bot reaches a question in most hands. The question is never forced: other
    moves are listed beside it.
    """
    bot = canasta.GreedyBot()
    rng = random.Random(choices)
    s = canasta.new_game(HF, seed=deal)
    while not s.is_hand_over:
        texts = moves(s)
        if "ask" in texts:
            assert texts - {"ask"}
            asked = play(s, "ask")
            assert moves(asked) == {"yes", "no"}
            for answer in ("yes", "no"):
                after = play(asked, answer)
                assert after.current_player == s.current_player and after.phase_name == s.phase_name
                assert moves(after) == texts - {"ask"}, answer
        move = rng.choice(s.legal_moves()) if rng.random() < wander else bot.choose(s.view(s.current_player), rng)
        s = s.apply(move)


class TestBindingAnswersStay:
    """Classic keeps its binding yes or no."""

    def test_classic_no_forbids_going_out(self) -> None:
        """After a no, a classic player may not go out this turn: laying the last two 9s is refused."""
        s = position("classic", hands=["9D 9H 5S", "4C 6D"], melds={0: ["KH KS KD KC KH KS KD", "9C 9S 9D"]},
                     pile="5D")
        assert "out 5" in moves(play(s, "add 9 9", "add 9 9"))
        told_no = play(s, "ask", "no", "add 9 9")
        assert "add 9 9" not in moves(told_no)  # it would leave only going out

    def test_the_book_says_advice(self) -> None:
        """Hand and Foot's book states the advice and that it binds nothing; classic's the binding answer."""
        book = canasta.describe(HF, format="markdown")
        assert "advice binds nothing" in book
        classic = canasta.describe(canasta.load_variant("classic"), format="markdown")
        assert "answers only yes or no, binding you for that turn" in classic
        assert "advice" not in classic
