"""Sequences (``sequences.*``, the Samba family): notation, the rules of laying and growing
them, their scores, and the oracle against brute force on positions rich in runs.

The scenario positions are written card by card (see :mod:`positions`); scores
are worked out by hand in the comments.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta import ActionSpace, score_side
from canasta.engine import check as engine_check
from canasta.engine.moves import (
    AddToSequence,
    Discard,
    MeldSequence,
    TakeSequence,
    TakeTopCard,
    parse_move,
)
from canasta.engine.state import TOLD_YES, GameState, Turn
from canasta.variant.model import OpeningStep
from positions import meld, moves, play, position, refusal
from test_oracle import assert_agrees_and_applies

SEQUENCE_PROFILES = ["samba", "bolivia", "brazilian"]


def samba_opened(hand: str, melds: list[str], pile: str = "5C 9D", **kw: object) -> GameState:
    """Seat 0 of Samba in its play phase; its side (0) has opened with ``melds``."""
    return position("samba", hands=[hand, "4C 4D 6C"], melds={0: melds}, pile=pile, **kw)  # type: ignore[arg-type]


class TestNotation:
    @pytest.mark.parametrize("name", SEQUENCE_PROFILES)
    def test_every_action_round_trips(self, name: str) -> None:
        """Every sequence move of the action space reads back from its notation."""
        space = ActionSpace(canasta.load_variant(name))
        sequence_moves = [m for m in space.moves if isinstance(m, (MeldSequence, AddToSequence, TakeSequence))]
        assert len(sequence_moves) > 300
        for m in sequence_moves:
            assert parse_move(str(m)) == m
            assert space.encode(str(m)) == space.encode(m)

    def test_forms(self) -> None:
        assert parse_move("meld 9H 7H 8H") == MeldSequence(2, 7, 9)
        assert str(parse_move("add 7S-9S 10S")) == "add 7S-9S 10S"
        assert parse_move("take 4D-6D") == TakeSequence(1, 4, 6)
        # the same suit and rank three times is a meld of one rank, not a sequence
        assert str(parse_move("meld 7H 7H 7H")) == "meld 7 7 7"

    @pytest.mark.parametrize("text", ["add 7H-9S 10H", "add 7H-9H 10S", "take 9H-7H", "add 7H 9H 8H"])
    def test_malformed(self, text: str) -> None:
        with pytest.raises(canasta.NotationError):
            parse_move(text)


class TestLaying:
    def test_new_sequence_of_three(self) -> None:
        s = samba_opened("7H 8H 9H 10H KS QS 5C", ["KC KD KH"])
        assert "meld 7H 8H 9H" in moves(s) and "meld 8H 9H 10H" in moves(s)
        s2 = play(s, "meld 7H 8H 9H")
        (seq,) = [m for m in s2.melds[0] if m.is_sequence]
        assert (seq.suit, seq.low, seq.high, seq.size) == (2, 7, 9, 3)
        # the 10 of hearts now fits the top of it
        assert "add 7H-9H 10H" in moves(s2)

    def test_a_new_sequence_has_exactly_three_cards(self) -> None:
        s = samba_opened("7H 8H 9H 10H KS", ["KC KD KH"])
        assert "exactly 3 cards" in refusal(s, "meld 7H 8H 9H 10H")

    def test_no_wild_card_no_three_and_ace_high(self) -> None:
        s = samba_opened("2H 3H 4H 5H QS KS AS", ["KC KD KH"])
        assert "from 4 to A" in refusal(s, "meld 2H 3H 4H")
        # no sequence turns the corner from the ace
        assert "meld QS KS AS" in moves(s)
        assert not any(str(m).startswith("meld") and "AS 2S" in str(m) for m in s.legal_moves())

    def test_grows_at_either_end_one_card_at_a_time(self) -> None:
        s = samba_opened("5H 6H 10H JH 4S 9C 9D", ["7H 8H 9H"])
        assert {"add 7H-9H 6H", "add 7H-9H 10H"} <= moves(s)
        assert "does not fit" in refusal(s, "add 7H-9H JH")
        assert "does not fit" in refusal(s, "add 7H-9H 5H")
        s2 = play(s, "add 7H-9H 6H", "add 6H-9H 5H")
        assert [(m.low, m.high) for m in s2.melds[0] if m.is_sequence] == [(5, 9)]

    def test_a_samba_closes_at_seven(self) -> None:
        # 4H to 9H (six cards) and the 10 of hearts makes the samba; nothing follows it
        s = samba_opened("10H JH KS QS 5C", ["4H 5H 6H 7H 8H 9H", "KC KD KH"])
        s2 = play(s, "add 4H-9H 10H")
        samba = next(m for m in s2.melds[0] if m.is_sequence)
        assert s2.canasta_kind(samba) == "sequence"
        assert "complete and closed" in refusal(s2, "add 4H-10H JH")

    def test_several_sequences_of_one_suit(self) -> None:
        s = samba_opened("7H 8H 9H KS QS 5C", ["4H 5H 6H", "KC KD KH"])
        # a new sequence beside the old one: sequences are never joined
        s2 = play(s, "meld 7H 8H 9H")
        assert sorted((m.low, m.high) for m in s2.melds[0] if m.is_sequence) == [(4, 6), (7, 9)]

    def test_no_sequences_without_the_option(self) -> None:
        s = position("classic", hands=["7H 8H 9H KS QS", "4C"], melds={0: ["KC KD KH"]}, pile="5C")
        assert "no sequences" in refusal(s, "meld 7H 8H 9H")
        assert not any(isinstance(m, MeldSequence) for m in s.legal_moves())


class TestGroups:
    def test_two_naturals_for_each_wild_card(self) -> None:
        s = samba_opened("7C 7D 2H 2S JK 5S 6S", ["KC KD KH"])
        assert "meld 7C 7D 2" in moves(s)
        s2 = play(s, "meld 7C 7D 2")
        assert "2 natural cards for each wild card" in refusal(s2, "add 7 JK")
        # the kings: three naturals and a wild card, but never a second one
        s3 = play(s, "add K 2")
        assert "2 natural cards for each wild card" in refusal(s3, "add K JK")


class TestSuits:
    """Where sequences exist, cards of one rank are no longer alike: moves name their suits."""

    def test_the_player_chooses_which_sevens_to_meld(self) -> None:
        s = samba_opened("7C 7D 7H 7S 8H 9H QS KS", ["KC KD KH"])
        assert {"meld 7C 7D 7S", "meld 7C 7D 7H", "meld 7D 7H 7S", "meld 7C 7H 7S"} <= moves(s)
        # keeping the 7 of hearts leaves the sequence 7H 8H 9H to lay
        s2 = play(s, "meld 7C 7D 7S", "meld 7H 8H 9H")
        assert {str(c) for c in s2.hands[0]} == {"QS", "KS"}

    def test_discards_name_the_card(self) -> None:
        s = samba_opened("9C 9H KS QS 5D", ["KC KD KH"])
        assert {"discard 9C", "discard 9H"} <= moves(s)
        after = s.apply("discard 9H")
        assert str(after.pile_top) == "9H" and "9C" in {str(c) for c in after.hands[0]}
        assert "name the card's suit" in refusal(s, "discard 9")

    def test_unsuited_text_in_classic_stands_for_the_rank(self) -> None:
        s = position("classic", hands=["9C 9H KS QS 5D", "4C"], melds={0: ["KC KD KH"]}, pile="5C")
        assert s.parse_move("discard 9H") == s.parse_move("discard 9")
        assert str(s.apply("discard 9H").pile_top) == "9C"  # either 9: the rank is what counts
        assert "suits do not matter" in str(engine_check(s, Discard(9, False, 2)))

    def test_take_pair_names_the_naturals(self) -> None:
        s = samba_opened("7C 7H 7S KS QS", ["KC KD KH"], pile="4C 7D", phase="draw")
        assert {"take pair 7C 7H", "take pair 7C 7S", "take pair 7H 7S"} <= moves(s)
        s2 = s.apply("take pair 7C 7S")
        assert "7H" in {str(c) for c in s2.hands[0]}
        assert "name the suit" in refusal(s, "take pair")


class TestTakingThePile:
    def test_top_card_onto_a_sequence(self) -> None:
        s = samba_opened("KS QS 5D 6D", ["7H 8H 9H", "KC KD KH"], pile="4C 10H", phase="draw")
        assert "take 7H-9H" in moves(s)
        s2 = s.apply("take 7H-9H")
        assert [(m.low, m.high) for m in s2.melds[0] if m.is_sequence] == [(7, 10)]
        assert {str(c) for c in s2.hands[0]} >= {"4C"}  # the rest of the pile joins the hand

    def test_no_pile_for_the_opening(self) -> None:
        """``opening.pile_allowed: false`` (Brazilian): an unopened side melds its opening from the hand."""
        v = canasta.load_variant("samba")
        closed = attrs.evolve(v, opening=attrs.evolve(v.opening, pile_allowed=False))
        # the pair of kings with the top king (30) and the queens (30) would open (50)
        hand = "KC KH QS QH QD 9D 9C 4S"
        s = position(v, hands=[hand, "4C"], pile="4D KD", phase="draw")
        assert "take pair KC KH" in moves(s)
        barred = position(closed, hands=[hand, "4C"], pile="4D KD", phase="draw")
        assert "opening meld comes from the hand" in refusal(barred, "take pair KC KH")
        opened = position(closed, hands=[hand, "4C"], melds={0: ["7C 7D 7H"]}, pile="4D KD", phase="draw")
        assert "take pair KC KH" in moves(opened)

    def test_opening_canasta_tiers_are_played(self) -> None:
        # a samba table with a "canasta" tier from 7000: three kings no longer open (see test_brazilian)
        v = canasta.load_variant("samba")
        rows = (*v.opening.score_table, OpeningStep(minimum=0, from_score=7000, canasta="any"))
        tiered = attrs.evolve(v, opening=attrs.evolve(v.opening, score_table=rows))
        hand = "KC KD KH AC AD AH AS 9S 9C 9D 2C 5H 6C"
        at = {score: position(tiered, hands=[hand, "4C"], scores=[score, 0], pile="5D") for score in (3000, 7000)}
        assert "meld KC KD KH" in moves(at[3000])
        assert "opening of a canasta" in refusal(at[7000], "meld KC KD KH")

    def test_wrong_suit_and_frozen_pile(self) -> None:
        s = samba_opened("KS QS 5D 6D", ["7H 8H 9H", "KC KD KH"], pile="4C 10S", phase="draw")
        assert "cannot join" in refusal(s, "take 7H-9H")
        frozen = samba_opened("KS QS 5D 6D", ["7H 8H 9H", "KC KD KH"], pile="2C 4C 10H", phase="draw")
        assert "frozen" in refusal(frozen, "take 7H-9H")


class TestGoingOut:
    def test_samba_counts_toward_two_canastas(self) -> None:
        s = samba_opened(
            "10H 9C", ["4H 5H 6H 7H 8H 9H", "KC KD KH KS KC KD 2H"], turn={"drawn": ()},
        )
        # the 10H makes the samba: two canastas, then out with the 9C
        s2 = play(s, "add 4H-9H 10H")
        assert "out 9C" in moves(s2)

    def test_bolivia_needs_an_escalera(self) -> None:
        two = ["KC KD KH KS KC KD 2H", "QC QD QH QS QC QD QH"]
        s = position("bolivia", hands=["9C", "4C 4D"], melds={0: two}, pile="5C")
        assert "escalera" in refusal(s, "out 9C")
        with_escalera = position("bolivia", hands=["9C", "4C 4D"], melds={0: [two[0], "4S 5S 6S 7S 8S 9S 10S"]},
                                 pile="5C")
        assert "out 9C" in moves(with_escalera)


class TestScores:
    def test_samba_hand(self) -> None:
        """A samba, a mixed canasta, all six red 3s, going out (worked by hand).

        Melded cards: 4H-10H = 4 fives and 3 tens = 50; KC KD KH KS KC 2H JK =
        5 x 10 + 20 + 50 = 120. Bonuses: samba 1500, mixed canasta 300. Six red
        3s: 1000 (plus: the side has two canastas). Going out 200. Left in the
        partner's hand: 9C 4D = -15. Total 3155.
        """
        b = score_side(
            canasta.load_variant("samba"),
            melds=["4H 5H 6H 7H 8H 9H 10H", "KC KD KH KS KC 2H JK"],
            red_threes=6, hand="9C 4D", went_out=True,
        )
        assert dict(b.items) == {
            "melded cards": 170, "samba": 1500, "mixed canasta of Ks": 300, "all 6 red 3s": 1000,
            "going out": 200, "cards left in hand": -15,
        }
        assert b.total == 3155

    def test_six_red_threes_minus_with_one_canasta(self) -> None:
        # one canasta only: the six red 3s count 1000 minus; the meld 7H 8H 9H counts 25
        b = score_side(canasta.load_variant("samba"), melds=["7H 8H 9H", "KC KD KH KS KC KD KH"],
                       red_threes=6)
        assert dict(b.items)["all 6 red 3s (minus)"] == -1000
        assert b.total == 25 + 70 + 500 - 1000

    def test_bolivia_bolivia_escalera_and_black_threes(self) -> None:
        """A bolivia (seven wild cards: 2500), an escalera (1500), two black 3s left (-200).

        Melded: 2C 2D 2H 2S JK JK JK = 4 x 20 + 3 x 50 = 230; 8S 9S 10S JS QS KS AS =
        6 x 10 + 20 = 80. Total 230 + 80 + 2500 + 1500 - 200 = 4110.
        """
        b = score_side(
            canasta.load_variant("bolivia"),
            melds=["2C 2D 2H 2S JK JK JK", "8S 9S 10S JS QS KS AS"], hand="3C 3S",
        )
        assert dict(b.items) == {
            "melded cards": 310, "wild canasta": 2500, "escalera": 1500,
            "black 3s left in hand": -200,
        }
        assert b.total == 4110

    def test_engine_scores_the_hand_it_ends(self) -> None:
        s = samba_opened("10H 9C", ["4H 5H 6H 7H 8H 9H", "KC KD KH KS KC KD 2H"])
        end = play(s, "add 4H-9H 10H", "out 9C").end
        assert end is not None
        items = dict(end.breakdowns[0].items)
        assert items["samba"] == 1500 and items["going out"] == 200


# -- the oracle and the move list, against brute force, on positions rich in runs ----------

_POOL = [f"{r}{s}" for s in "HS" for r in (["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])] + [
    "2C", "2D", "JK", "3C", "KC", "KD", "9C", "9D", "5C",
]


@st.composite
def run_positions(draw: st.DrawFn, name: str) -> GameState:
    """A play-phase position of ``name`` whose hand and table hold runs of hearts and spades."""
    hand = draw(st.lists(st.sampled_from(_POOL), min_size=1, max_size=9))
    table: list[str] = []
    for suit in draw(st.lists(st.sampled_from("HS"), max_size=2)):
        low = draw(st.integers(4, 11))
        high = draw(st.integers(low + 2, min(14, low + 5)))
        names = {11: "J", 12: "Q", 13: "K", 14: "A"}
        table.append(" ".join(f"{names.get(k, k)}{suit}" for k in range(low, high + 1)))
    if draw(st.booleans()):
        table.append("QC QD QH")
    told_yes = bool(table) and draw(st.booleans())
    opened = bool(table)
    turn = Turn(asked=TOLD_YES, asker=0) if told_yes else Turn()
    v = canasta.load_variant(name)
    if not draw(st.booleans()):
        # one canasta to go out, so that going out is within reach of short hands
        v = attrs.evolve(v, going_out=attrs.evolve(v.going_out, canastas=1, sequence_canastas=0))
    return position(v, hands=[" ".join(hand), "4C 6D"], melds={0: table}, pile="5D",
                    opened=[opened, False], turn=turn)


@pytest.mark.parametrize("name", SEQUENCE_PROFILES)
@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_steps_agree_with_brute_force(name: str, data: st.DataObject) -> None:
    """Every play-phase move: legal exactly when its own rule allows it and the turn can still be finished."""
    s = data.draw(run_positions(name))
    assert_agrees_and_applies(s)


# -- sequences that grow past their closing size when going out (Brazilian) ------------------

_RANKS = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
_GROW_POOL = [f"{r}{s}" for s in "HS" for r in _RANKS] + ["9C", "9D", "9S", "5C", "2C"]


def _run(suit: str, low: int, size: int) -> list[str]:
    """``size`` cards of ``suit`` in a row from rank number ``low`` (4 is the first of _RANKS)."""
    return [f"{_RANKS[k - 4]}{suit}" for k in range(low, low + size)]


def _grow_variant(name: str, one_canasta: bool) -> canasta.Variant:
    """Brazilian (``sequences.grow_when_going_out``), or without asking the partner
    (``brazilian-no-ask``: the rule alone then binds the turn to go out)."""
    v = canasta.load_variant("brazilian")
    go = attrs.evolve(v.going_out, ask_required=not name.endswith("no-ask"))
    if one_canasta:
        go = attrs.evolve(go, canastas=1)
    return attrs.evolve(v, going_out=go)


@st.composite
def grow_positions(draw: st.DrawFn, name: str) -> GameState:
    """A play-phase position where a sequence may grow past seven when going out.

    Opened: closed escaleras (seven cards, sometimes eight: grown this turn) of
    hearts or spades on the table, perhaps a canasta of kings, and a short hand
    near their ends. Unopened: a hand holding seven or eight hearts in a row,
    which may make an escalera of eight only by going out.
    """
    v = _grow_variant(name, draw(st.booleans()))
    if draw(st.booleans()):
        table = []
        # the hand is drawn mostly from the two cards beyond each end of the table's sequences
        near = ["9C", "9D", "9S", "5C", "2C"]
        for suit in draw(st.lists(st.sampled_from("HS"), min_size=1, max_size=2, unique=True)):
            size = draw(st.sampled_from([7, 7, 8]))
            low = draw(st.integers(4, 15 - size))
            table.append(" ".join(_run(suit, low, size)))
            high = low + size - 1
            near += [_run(suit, k, 1)[0] for k in (low - 2, low - 1, high + 1, high + 2) if 4 <= k <= 14]
        if draw(st.booleans()):
            table.append("KC KD KH KS KC KD KH")
        hand = draw(st.lists(st.sampled_from(near), min_size=1, max_size=6))
        turn = Turn(asked=TOLD_YES, asker=0) if draw(st.booleans()) else Turn()
        return position(v, hands=[" ".join(hand), "4C 6D"], melds={0: table}, pile="5D", turn=turn)
    size = draw(st.sampled_from([7, 8]))
    hand = _run("H", draw(st.integers(4, 15 - size)), size)
    hand += draw(st.lists(st.sampled_from(_GROW_POOL), min_size=1, max_size=2))
    score = draw(st.sampled_from([0, 1500, 8000]))
    return position(v, hands=[" ".join(hand), "4C 6D"], scores=[score, 0], pile="5D")


@pytest.mark.parametrize("name", ["brazilian", "brazilian-no-ask"])
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_grows_agree_with_brute_force(name: str, data: st.DataObject) -> None:
    """Adds past the closing size: legal exactly when the player can then go out, and after one
    only moves that still go out (brute force over the rest of the turn)."""
    s = data.draw(grow_positions(name))
    assert_agrees_and_applies(s)


def test_the_table_helper_makes_sequences() -> None:
    m = meld("samba", "9S 7S 8S")
    assert m.is_sequence and (m.suit, m.low, m.high) == (3, 7, 9)


class TestHostileSequences:
    """A state whose sequences no game could hold is refused on reading, naming the meld and the rule."""

    @pytest.mark.parametrize(("cards", "why"), [
        (["7H", "8S", "9H"], "one suit"),
        (["7H", "9H", "10H"], "unbroken order"),
        (["7H", "7H", "8H"], "unbroken order"),
        (["2H", "3H", "4H"], "natural cards"),
        (["7H", "8H"], "3 to 7"),
        (["4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH"], "3 to 7"),
        (["7H", "8H", "JK"], "one suit"),
    ])
    def test_bad_sequence(self, cards: list[str], why: str) -> None:
        import json

        s = samba_opened("KS QS 5D 9C", ["7H 8H 9H", "KC KD KH"])
        data = json.loads(canasta.to_json(s))
        _swap(data, data["data"]["melds"][0][0]["cards"], cards)
        data["data"]["melds"][0][0]["cards"] = cards
        with pytest.raises(canasta.CanastaError, match=r"melds") as info:
            canasta.from_json(json.dumps(data), GameState)
        assert why in str(info.value)

    def test_no_sequences_in_classic(self) -> None:
        import json

        s = position("classic", hands=["KS QS 5D 9C", "4C"], melds={0: ["KC KD KH"]}, pile="5C")
        data = json.loads(canasta.to_json(s))
        _swap(data, [], ["7H", "8H", "9H"])
        data["data"]["melds"][0].append({"rank": "sequence", "cards": ["7H", "8H", "9H"]})
        with pytest.raises(canasta.CanastaError, match="no sequences"):
            canasta.from_json(json.dumps(data), GameState)


def _swap(data: dict[str, Any], out: list[str], into: list[str]) -> None:
    """Keep the deck whole when a test puts ``into`` on the table instead of ``out``: the stock trades them."""
    stock = data["data"]["stock"]
    stock.extend(out)
    for card in into:
        stock.remove(card)


class TestTopCardPickup:
    """sequences.top_card_pickup (Pagat's Samba): the top card alone onto a sequence, instead of drawing."""

    PAGAT = attrs.evolve(
        canasta.load_variant("samba"),
        sequences=attrs.evolve(canasta.load_variant("samba").sequences, top_card_pickup=True),
    )

    def at_draw(self, variant: canasta.Variant, pile: str) -> GameState:
        return position(variant, hands=["KS QS 5D 6D", "4C"], melds={0: ["7H 8H 9H", "KC KD KH"]},
                        pile=pile, phase="draw")

    def test_the_top_card_alone(self) -> None:
        s = self.at_draw(self.PAGAT, "4C 10H")
        assert {"draw", "take 7H-9H", "take top 7H-9H"} <= moves(s)
        after = play(s, "take top 7H-9H")
        # the 10H joined the sequence, the 4C stays as the pile, the hand did not grow
        assert after.phase_name == "play"
        assert [str(c) for c in after.pile] == ["4C"]
        assert [str(canasta.Card(c)) for c in after.melds[0][0].cards] == ["7H", "8H", "9H", "10H"]
        assert len(after.hands[0]) == 4
        assert parse_move("take top 7H-9H") == TakeTopCard(2, 7, 9)
        assert ActionSpace(self.PAGAT).encode("take top 7H-9H") == ActionSpace(self.PAGAT).encode(TakeTopCard(2, 7, 9))

    def test_refusals(self) -> None:
        assert "not taken alone" in refusal(self.at_draw(canasta.load_variant("samba"), "4C 10H"), "take top 7H-9H")
        assert "cannot join" in refusal(self.at_draw(self.PAGAT, "4C 10S"), "take top 7H-9H")
        drawn = play(self.at_draw(self.PAGAT, "4C 10H"), "draw")
        assert "already drawn" in refusal(drawn, "take top 7H-9H")
        # a frozen pile does not stop the single card (it is not the pile)
        assert "take top 7H-9H" in moves(self.at_draw(self.PAGAT, "2C 4C 10H"))

    @pytest.mark.parametrize("seed", range(3))
    def test_random_hands(self, seed: int) -> None:
        from test_engine_random import play_checked_hand

        assert play_checked_hand(canasta.new_game(self.PAGAT, seed=seed), seed, False) > 0


def test_the_summary_of_a_house_profile_names_its_sequences() -> None:
    """A house profile's rule book opens with a summary built from the rules: sequences and the
    escalera contract are among its main rules."""
    from canasta.rulebook.summary import summary

    text = summary(canasta.load_variant("bolivia"))
    assert "sequences of three or more natural cards of one suit from 4 to A (seven make an escalera)" in text
    assert "two canastas, among them one escalera" in text
    assert "sequences" not in summary(canasta.load_variant("classic"))
