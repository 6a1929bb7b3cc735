"""Asking the partner once a hand (going_out.ask_once, Modern American).

Ebbeling's summary of the CLA rules: a player may ask "Partner, may I go out?"
once a hand, and the answer binds. The engine reads it as once for each
player: after one question, whatever the answer, that player never asks again
in the hand (they may still go out without asking). Classic Canasta keeps the
question once in any turn.
"""

from __future__ import annotations

import json

import attrs
import pytest

import canasta
from canasta.engine.integrity import state_problem
from canasta.errors import CanastaError
from canasta.io.serialize import from_json, to_json
from positions import moves, play, position, refusal

MAC = canasta.load_variant("modern-american")
CLASSIC_ONCE = attrs.evolve(
    canasta.load_variant("classic"), name="classic-once",
    going_out=attrs.evolve(canasta.load_variant("classic").going_out, ask_once=True),
)
#: side 0 has two canastas; seat 0 holds three 8s and draws the 5S: meld 8 8 8 and
#: discard the 5 to go out, or discard it and keep the 8s
TABLE = {0: ["KC KD KH KS KC KD KH", "QC QD QH QS QC QD QH"]}
HANDS = ["8C 8D 8H", "4H 5H 6H 9H 10H JH", "4S 5D 6D 9S 10S JS", "4D 5C 6C 9D 10D JD"]


def start(variant: canasta.Variant | str = MAC) -> canasta.GameState:
    """Seat 0 to draw the 5S (the top card: the stock's last); the others then draw JC, 10C, 9C."""
    return position(variant, hands=HANDS, melds=TABLE, stock="4C 9C 10C JC 5S", phase="draw")


def drawn(variant: canasta.Variant | str = MAC) -> canasta.GameState:
    """Seat 0 has drawn the 5S, the stock holds every other card: a whole deck, for JSON."""
    hands = ["8C 8D 8H 5S", *HANDS[1:]]
    return position(variant, hands=hands, melds=TABLE, turn={"drawn": "5S"})


def round_to_seat_0(s: canasta.GameState) -> canasta.GameState:
    """Seats 1 to 3 draw and discard their drawn card; seat 0 is to draw again."""
    while s.current != 0:
        s = s.apply("draw")
        # the drawn card's rank, as discards name it ("10C" -> "10")
        s = s.apply(f"discard {str(canasta.Card(s.turn.drawn[0]))[:-1]}")
    assert s.phase_name == "draw"
    return s


class TestOnceAHand:
    def test_no_second_question_after_a_no(self) -> None:
        s = play(start(), "draw")
        assert "ask" in moves(s)
        told_no = play(s, "ask", "no")
        assert told_no.asked_before == (True, False, False, False)
        assert "ask" not in moves(told_no) and "out 5" not in moves(told_no)
        later = round_to_seat_0(play(told_no, "discard 5"))
        assert later.asked_before == (True, False, False, False)
        # seat 0 draws the 4C (the stock's last card): 8 8 8 4C, and may still go out without asking
        later = play(later, "draw")
        assert "ask" not in moves(later)
        assert "once a hand" in refusal(later, "ask")
        assert "meld 8 8 8" in moves(later) and "out 4" in moves(play(later, "meld 8 8 8"))

    def test_a_yes_spends_the_question_too(self) -> None:
        s = play(start(), "draw", "ask", "yes")
        assert s.asked_before[0]
        done = play(s, "meld 8 8 8", "out 5")
        assert done.is_hand_over and done.end is not None and done.end.reason == "out"

    def test_partner_keeps_their_own_question(self) -> None:
        """Each player asks once: seat 0's question does not spend seat 2's."""
        s = play(start(), "draw", "ask", "no")
        assert s.asked_before == (True, False, False, False)
        assert not s.asked_before[2]

    def test_the_next_hand_starts_afresh(self) -> None:
        s = play(start(), "draw", "ask", "yes", "meld 8 8 8", "out 5")
        nxt = s.apply("next")
        assert nxt.asked_before == (False, False, False, False)

    def test_classic_asks_again_next_turn(self) -> None:
        """Without the option a player may ask again in a later turn, and nothing is recorded."""
        s = play(start("classic"), "draw", "ask", "no")
        assert s.asked_before == (False, False, False, False)
        later = play(round_to_seat_0(play(s, "discard 5")), "draw")
        assert "ask" in moves(later)


class TestRecorded:
    def test_views_show_it_and_mask_it(self) -> None:
        s = play(start(), "draw", "ask", "no", "discard 5")
        s = play(round_to_seat_0(s), "draw")
        view = s.view(0)
        assert view.asked_before == (True, False, False, False)
        assert "ask" not in {str(m) for m in view.legal_moves()}
        assert s.view(1).asked_before == view.asked_before  # asking is public
        back = from_json(to_json(view), canasta.SeatView)
        assert back.asked_before == view.asked_before

    def test_json_round_trip(self) -> None:
        s = play(drawn(), "ask", "no")
        doc = json.loads(to_json(s))["data"]
        assert doc["asked_before"] == [True, False, False, False]
        assert from_json(to_json(s), canasta.GameState) == s

    def test_other_variants_write_no_key(self) -> None:
        assert "asked_before" not in json.loads(to_json(drawn("classic")))["data"]
        assert "asked_before" not in json.loads(to_json(drawn("classic").view(0)))["data"]

    def test_key_checked_against_the_variant(self) -> None:
        doc = json.loads(to_json(drawn("classic")))
        doc["data"]["asked_before"] = [False] * 4
        with pytest.raises(CanastaError, match=r"asked_before.*ask_once is off"):
            from_json(json.dumps(doc), canasta.GameState)
        mac = json.loads(to_json(drawn()))
        del mac["data"]["asked_before"]
        with pytest.raises(CanastaError, match="missing key 'asked_before'"):
            from_json(json.dumps(mac), canasta.GameState)

    def test_integrity(self) -> None:
        classic = start("classic")
        bad = attrs.evolve(classic, asked_before=(True, False, False, False))
        assert state_problem(bad) is not None
        asking = play(start(), "draw", "ask")
        forged = attrs.evolve(asking, asked_before=(False, False, False, False))
        problem = state_problem(forged)
        assert problem is not None and problem[0] == "asked_before[0]"
        short = attrs.evolve(start(), asked_before=(False,))
        assert state_problem(short) == ("asked_before", "one entry per seat (4)")

    def test_house_variant_with_the_option(self) -> None:
        """Any partnership variant may take the option: classic with one question a hand."""
        s = play(start(CLASSIC_ONCE), "draw", "ask", "no", "discard 5")
        later = play(round_to_seat_0(s), "draw")
        assert "ask" not in moves(later)
        book = canasta.describe(CLASSIC_ONCE)
        assert "Each player may ask only once in a hand, whatever the answer." in book
