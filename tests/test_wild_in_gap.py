"""A wild card between two natural cards of a new sequence (``sequences.wild_in_gap``).

No published Samba has it: the option is the house rule the issue's "no wilds
unless an option allows" asks for. The reading played: a new sequence (exactly
``sequences.min_size`` cards) may hold one wild card standing for a rank
between two of its natural cards; it stays there, cards join the sequence only
at its natural ends, and no sequence ever holds a second wild card. Scores are
worked out by hand in the comments.
"""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta import ActionSpace, score_side
from canasta.engine.moves import MeldSequence, parse_move
from canasta.engine.state import GameState
from canasta.errors import VariantError
from canasta.variant.loading import variant_from_dict
from canasta.variant.model import Variant
from positions import _ordered, moves, play, position, refusal
from test_oracle import assert_agrees_and_applies
from test_sequences import _swap, run_positions


def samba_gap() -> Variant:
    """Samba with a wild card allowed between two natural cards of a new sequence."""
    v = canasta.load_variant("samba")
    return attrs.evolve(v, sequences=attrs.evolve(v.sequences, wild_in_gap=True))


def opened(hand: str, melds: list[str], variant: Variant | None = None) -> GameState:
    """Seat 0 in its play phase; its side has opened with ``melds``."""
    return position(
        variant or samba_gap(), hands=[hand, "4C 4D 6C", "5D 6D 8C", "8D 10C JC"], melds={0: melds}, pile="5C 9D"
    )


class TestNotation:
    def test_the_wild_card_stands_where_it_is_missing(self) -> None:
        assert parse_move("meld 7H 2 9H") == MeldSequence(2, 7, 9, 2, 8)
        # written anywhere, the wild card stands for the rank missing between the natural cards
        assert parse_move("meld 7H 9H JK") == MeldSequence(2, 7, 9, 15, 8)
        assert str(parse_move("meld 7H 9H JK")) == "meld 7H JK 9H"
        # with no rank missing, for the rank beyond the end it is written at
        assert parse_move("meld 2 7H 8H") == MeldSequence(2, 6, 8, 2, 6)
        assert parse_move("meld 7H 8H 2") == MeldSequence(2, 7, 9, 2, 9)
        assert str(parse_move("meld 7H 8H 2")) == "meld 7H 8H 2"

    def test_natural_sequences_are_written_as_before(self) -> None:
        assert parse_move("meld 9H 7H 8H") == MeldSequence(2, 7, 9)
        assert str(MeldSequence(2, 7, 9)) == "meld 7H 8H 9H"

    def test_every_action_round_trips(self) -> None:
        space = ActionSpace(samba_gap())
        wild = [m for m in space.moves if isinstance(m, MeldSequence) and m.wild]
        # 4 suits x 9 windows of 3 from 4 to A x 2 wild ranks, one inside rank each
        assert len(wild) == 4 * 9 * 2
        for m in wild:
            assert parse_move(str(m)) == m
            assert space.encode(str(m)) == space.encode(m)

    def test_ids_of_samba_do_not_move(self) -> None:
        """The new moves come after every other id: Samba's ids are unchanged."""
        before = ActionSpace(canasta.load_variant("samba")).moves
        assert ActionSpace(samba_gap()).moves[: len(before)] == before

    def test_malformed_fields_are_refused_by_name(self) -> None:
        s = opened("7H 9H 2C KS QS", ["KC KD KH"])
        with pytest.raises(canasta.IllegalMoveError, match="never at an end"):
            s.apply(MeldSequence(2, 7, 9, 2, 12))
        with pytest.raises(canasta.IllegalMoveError, match="not a wild card"):
            s.apply(MeldSequence(2, 7, 9, 3, 8))
        # out of every field's range: refused by the field, before any rule
        with pytest.raises(canasta.IllegalMoveError, match="MeldSequence needs a wild kind"):
            s.apply(MeldSequence(2, 7, 9, 2, 99))
        with pytest.raises(canasta.IllegalMoveError, match="MeldSequence needs a wild kind"):
            s.apply(MeldSequence(2, 7, 9, 0, 8))
        with pytest.raises(canasta.IllegalMoveError, match="MeldSequence needs a wild kind"):
            s.apply(MeldSequence(2, 7, 9, "2", 8))  # type: ignore[arg-type]


class TestLaying:
    def test_a_wild_card_between_two_natural_cards(self) -> None:
        s = opened("7H 9H 2C KS QS", ["KC KD KH"])
        assert "meld 7H 2 9H" in moves(s)
        s2 = play(s, "meld 7H 2 9H")
        (seq,) = [m for m in s2.melds[0] if m.is_sequence]
        # the cards in rank order, the wild card at the rank it stands for
        assert seq.cards == _ordered("7H 2C 9H")
        assert (seq.suit, seq.low, seq.high, seq.naturals, seq.wilds) == (2, 7, 9, 2, 1)
        # cards join it at its natural ends
        assert {"add 7H-9H 10H", "add 7H-9H 6H"}.isdisjoint(moves(s2))
        s3 = opened("7H 9H 2C 10H 6H KS QS", ["KC KD KH"])
        s4 = play(s3, "meld 7H 2 9H", "add 7H-9H 10H", "add 7H-10H 6H")
        (seq,) = [m for m in s4.melds[0] if m.is_sequence]
        assert seq.cards == _ordered("6H 7H 2C 9H 10H")

    def test_never_at_an_end(self) -> None:
        s = opened("7H 8H 2C KS QS", ["KC KD KH"])
        assert "never at an end" in refusal(s, "meld 7H 8H 2")
        assert "never at an end" in refusal(s, "meld 2 7H 8H")
        assert not [m for m in s.legal_moves() if isinstance(m, MeldSequence) and m.wild]

    def test_one_wild_card_only(self) -> None:
        """A wild card never joins a sequence on the table: cards join it only at its ends."""
        s = opened("2C JK KS QS 5S", ["7H 2D 9H", "KC KD KH"])
        assert not any(m.startswith("add 7H-9H") for m in moves(s))
        with pytest.raises(canasta.NotationError, match="a card of the sequence's suit"):
            s.parse_move("add 7H-9H 2C")

    def test_off_in_samba(self) -> None:
        s = opened("7H 9H 2C KS QS", ["KC KD KH"], canasta.load_variant("samba"))
        assert "natural cards only" in refusal(s, "meld 7H 2 9H")
        assert not [m for m in s.legal_moves() if isinstance(m, MeldSequence) and m.wild]

    def test_the_wild_card_must_be_held_and_wild(self) -> None:
        s = opened("7H 9H JK KS QS", ["KC KD KH"])
        assert "you do not hold 2" in refusal(s, "meld 7H 2 9H")
        assert "9 is not a wild card" in refusal(s, "meld 7H 9 9H")
        assert "meld 7H JK 9H" in moves(s)

    def test_the_naturals_must_be_held(self) -> None:
        s = opened("7H 9S 2C KS QS", ["KC KD KH"])
        assert "you do not hold 7H 9H" in refusal(s, "meld 7H 2 9H")

    def test_going_out_by_a_wild_sequence(self) -> None:
        """The oracle knows the wild card may go in a sequence: with two canastas down, 7H 2 9H
        and a discard go out; it is listed, and the discard after it goes out."""
        s = opened("7H 9H 2C 5S", ["KC KD KH KS KC KD KH", "QC QD QH QS QC QD QH"])
        assert "meld 7H 2 9H" in moves(s)
        s2 = play(s, "meld 7H 2 9H")
        assert "out 5S" in moves(s2)
        assert play(s2, "out 5S").is_hand_over

    def test_a_variant_whose_new_sequences_have_two_cards(self) -> None:
        v = samba_gap()
        v = attrs.evolve(v, sequences=attrs.evolve(v.sequences, min_size=2))
        s = opened("7H 9H 2C KS QS", ["KC KD KH"], v)
        assert "exactly 2 cards" in refusal(s, "meld 7H 2 9H")


class TestScoring:
    def test_a_samba_with_a_wild_card(self) -> None:
        """5H 6H 7H 2C 9H 10H JH: a samba (1500). Cards: 3 x 5 + 20 + 3 x 10 = 65.
        KC KD KH KS KC KD KH: natural canasta (500), 70. Going out 200. Total 2335."""
        b = score_side(samba_gap(), melds=["5H 6H 7H 2C 9H 10H JH", "KC KD KH KS KC KD KH"], went_out=True)
        assert dict(b.items) == {"melded cards": 135, "samba": 1500, "natural canasta of Ks": 500, "going out": 200}
        assert b.total == 2335

    def test_the_engine_scores_it_alike(self) -> None:
        s = opened("JH 9C", ["5H 6H 7H 2C 9H 10H", "KC KD KH KS KC KD KH"])
        end = play(s, "add 5H-10H JH", "out 9C").end
        assert end is not None
        items = dict(end.breakdowns[0].items)
        assert items["samba"] == 1500 and items["melded cards"] == 135

    def test_without_the_option_it_is_no_sequence(self) -> None:
        with pytest.raises(canasta.CanastaError, match="meld 1"):
            score_side(canasta.load_variant("samba"), melds=["5H 6H 7H 2C 9H 10H JH"])


class TestStates:
    def test_json_round_trip(self) -> None:
        s = play(opened("7H 9H 2C KS QS", ["KC KD KH"]), "meld 7H 2 9H")
        text = canasta.to_json(s)
        assert canasta.from_json(text, GameState) == s

    @pytest.mark.parametrize(("written", "why"), [
        (["7H", "8H", "2C"], "between two of its natural cards"),
        (["7H", "2C", "JK", "10H"], "one wild card at most"),
        (["7H", "2C", "10H"], "unbroken order"),
    ])
    def test_bad_wild_sequences_are_refused(self, written: list[str], why: str) -> None:
        s = play(opened("7H 9H 2C KS QS", ["KC KD KH"]), "meld 7H 2 9H")
        data = json.loads(canasta.to_json(s))
        seqs = [m for m in data["data"]["melds"][0] if m["rank"] == "sequence"]
        _swap(data, seqs[0]["cards"], written)
        seqs[0]["cards"] = written
        with pytest.raises(canasta.CanastaError, match="melds") as info:
            canasta.from_json(json.dumps(data), GameState)
        assert why in str(info.value)

    def test_a_wild_card_in_a_sequence_of_samba_is_refused(self) -> None:
        s = play(opened("7H 9H 2C KS QS", ["KC KD KH"]), "meld 7H 2 9H")
        data = json.loads(canasta.to_json(s))
        data["data"]["variant"] = "samba"
        with pytest.raises(canasta.CanastaError, match="one suit"):
            canasta.from_json(json.dumps(data), GameState)


class TestVariant:
    def test_refused_with_joined_sequences(self) -> None:
        with pytest.raises(VariantError, match=r"sequences\.wild_in_gap.*sequences\.join"):
            variant_from_dict({"extends": "samba", "sequences": {"wild_in_gap": True, "join": True}})

    def test_the_rule_book_says_it(self) -> None:
        book = canasta.describe(samba_gap())
        assert "one wild card, standing for the missing rank between two of its natural cards" in book
        assert "Wild cards never join a sequence" not in book
        assert "Wild cards never join a sequence" in canasta.describe(canasta.load_variant("samba"))


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_steps_agree_with_brute_force(data: st.DataObject) -> None:
    """Positions rich in runs and wild cards: every move legal exactly when its own rule allows
    it and the turn can still be finished (brute force over the rest of the turn)."""
    s = data.draw(run_positions("samba"))
    s = attrs.evolve(s, variant=samba_gap())
    assert_agrees_and_applies(s)
