"""Several melds of one rank, combined at will (``melds.duplicate_ranks: any``, Samba).

Bicycle's Samba: "A side may have two canastas in the same rank and may combine
its melds in the same rank at any time." The scenario positions are written
card by card (see :mod:`positions`); scores are worked out by hand in the
docstrings. The last test sets the move list against brute force on positions
that hold several melds of a rank.
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta import ActionSpace, from_json, score_side, to_json
from canasta.engine.facts import opening_met
from canasta.engine.moves import Add, Combine, JoinSequences, TakePile, meld_ref, parse_move
from canasta.engine.state import TOLD_YES, GameState, Turn
from canasta.errors import CanastaError, NotationError
from positions import cards as parse_cards_codes
from positions import moves, play, position, refusal
from test_oracle import assert_agrees_and_applies

#: The bundled profiles that play it (Bolivia and Brazilian are Samba's).
SEVERAL = ["samba", "bolivia", "brazilian"]

KINGS_4 = "KS KH KD KC"
KINGS_3 = "KC KD KH"
NATURAL_KINGS = "KS KH KD KC KS KH KD"


def samba(hand: str, melds: list[str], pile: str = "5C 9D", hands_rest: bool = False, **kw: object) -> GameState:
    """Seat 0 of Samba in its play phase; its side (0) has opened with ``melds``.

    ``hands_rest``: the other seats hold cards too (a state JSON reads back).
    """
    others = ["4C 4D 6C", "8C 8D", "10C 10D"] if hands_rest else ["4C 4D 6C"]
    return position("samba", hands=[hand, *others], melds={0: melds}, pile=pile, **kw)  # type: ignore[arg-type]


def one_meld_a_rank() -> canasta.Variant:
    """Samba with classic's one meld of each rank (the alternative reading)."""
    v = canasta.load_variant("samba")
    return attrs.evolve(v, melds=attrs.evolve(v.melds, duplicate_ranks="never"))


def sizes(s: GameState, side: int = 0, rank: int = 13) -> list[int]:
    """The sizes of ``side``'s melds of ``rank``, in table order."""
    return [m.size for m in s.melds[side] if m.rank == rank]


class TestNotation:
    def test_forms(self) -> None:
        assert parse_move("add K:2 KC") == Add(13, 13, -1, 1)
        assert str(Add(13, 2, -1, 2)) == "add K:3 2"
        assert parse_move("combine K K:2") == Combine(13, 0, 1)
        assert str(Combine(12, 1, 2)) == "combine Q:2 Q:3"
        assert parse_move("take layoff 2nd") == TakePile("layoff", 0, (), 1)
        assert str(TakePile("layoff", 0, (), 1)) == "take layoff 2nd"
        # the first meld of a rank is written as before
        assert str(parse_move("add K:1 2")) == "add K 2"
        assert meld_ref(13, 0) == "K" and meld_ref(0, 1) == "W:2"

    @pytest.mark.parametrize(
        ("text", "why"),
        [
            ("combine K Q:2", "only two melds of one rank combine"),
            ("combine K", "expected 'combine <meld> <meld>'"),
            ("add K:0 K", "is not a meld"),
            ("add K:x K", "is not a meld"),
            ("add :2 K", "is not a meld"),
        ],
    )
    def test_malformed(self, text: str, why: str) -> None:
        with pytest.raises(NotationError, match=why):
            parse_move(text)

    @pytest.mark.parametrize("name", SEVERAL)
    def test_every_action_round_trips(self, name: str) -> None:
        """The new ids (adds to later melds, combines, lay-offs onto later melds) read back from their notation."""
        space = ActionSpace(canasta.load_variant(name))
        new = [
            m for m in space.moves
            if isinstance(m, Combine) or (isinstance(m, (Add, TakePile)) and m.meld)
        ]
        # a meld holds two naturals at least: six melds of a rank from three decks
        assert sum(isinstance(m, Combine) for m in new) == 15 * 11  # ranks 4 to A, pairs of six
        for m in new:
            assert parse_move(str(m), canasta.engine.compile_rules(space.variant).suited_ranks) == m
            assert space.encode(str(m)) == space.encode(m)

    def test_other_profiles_keep_their_ids(self) -> None:
        """Only a variant with several melds of a rank numbers the new moves."""
        space = ActionSpace(one_meld_a_rank())
        assert not [m for m in space.moves if isinstance(m, Combine) or getattr(m, "meld", 0)]
        assert ActionSpace(canasta.load_variant("samba")).moves[: space.size] == space.moves


class TestSeveralMelds:
    def test_a_new_meld_of_a_rank_already_melded(self) -> None:
        s = samba("KC KD KH 9C 5D", [KINGS_4])
        s2 = play(s, "meld KC KD KH")
        assert sizes(s2) == [4, 3]
        one = position(one_meld_a_rank(), hands=["KC KD KH 9C 5D", "4C"], melds={0: [KINGS_4]}, pile="5C")
        assert "already has a meld of Ks" in refusal(one, "meld KC KD KH")

    def test_adds_name_the_meld(self) -> None:
        s = samba("KC 2H 9C 5D 6D", [KINGS_4, KINGS_3])
        assert {"add K KC", "add K:2 KC", "add K 2", "add K:2 2", "combine K K:2"} <= moves(s)
        s2 = play(s, "add K:2 KC")
        assert sizes(s2) == [4, 4]
        assert "2 open melds of Ks: there is no K:3" in refusal(s, "add K:3 KC")
        one = position(one_meld_a_rank(), hands=["KC 9C 5D", "4C"], melds={0: [KINGS_4]}, pile="5C")
        assert "one open meld of Ks in this variant" in refusal(one, "add K:2 KC")

    def test_combining_makes_a_canasta(self) -> None:
        s = samba("9C 5D 6D", [KINGS_4, "QC QD QH", KINGS_3])
        s2 = play(s, "combine K K:2")
        # the second joins the first, which keeps its place
        assert [m.rank for m in s2.melds[0]] == [13, 12]
        assert s2.melds[0][0].size == 7 and s2.canasta_kind(s2.melds[0][0]) == "natural"
        assert s2.current == 0 and s2.phase_name == "play"

    def test_combining_may_meet_the_opening(self) -> None:
        """Brazilian at 7000 opens with a canasta: two melds of kings laid this turn, combined, are one."""
        s = position(
            "brazilian", hands=["9C 5D 6D", "4C 4D 6C"], melds={0: [KINGS_4, KINGS_3]}, pile="5C 9D",
            opened=[False, False], scores=[7000, 0], turn=Turn(melded=True, points=70),
        )
        assert "discard 9C" not in moves(s)
        s2 = play(s, "combine K K:2")
        assert s2.opened[0] and "discard 9C" in moves(s2)

    def test_combining_keeps_the_meld_rules(self) -> None:
        # 4 naturals and 2 wild cards, 3 and 1: together 3 wild cards, one past Samba's two
        s = samba("9C 5D 6D", ["KS KH KD KC 2H 2D", "KC KD KH JK"])
        assert "at most 2 wild cards" in refusal(s, "combine K K:2")
        assert "no K:3" in refusal(s, "combine K K:3")
        assert "the first one first" in refusal(s, "combine K:2 K")

    def test_one_meld_a_rank_has_nothing_to_combine(self) -> None:
        s = position("classic", hands=["9C 5D 6D", "4C"], melds={0: [KINGS_4]}, pile="5C")
        assert "nothing to combine" in refusal(s, "combine K K:2")

    def test_combining_two_canastas_may_not_break_a_yes(self) -> None:
        """Told yes, with two canastas of kings: combined, they would be one, and Samba needs two to go out."""
        s = samba("9C", [NATURAL_KINGS, "KC KS KH KD KC 2H 2S"], turn=Turn(asked=TOLD_YES, asker=0))
        assert "out 9C" in moves(s)
        assert "your partner said yes" in refusal(s, "combine K K:2")

    def test_going_out_may_need_three_new_melds_of_a_rank(self) -> None:
        """Twelve kings and six wild cards: a meld holds two wild cards at most (Samba), so going
        out lays three melds of kings; with one meld a rank the wild cards are stranded."""
        hand = "KC KC KC KD KD KD KH KH KH KS KS KS 2C 2D 2H 2S JK JK 9C"
        table = ["QC QD QH QS QC 2C 2D", "JC JD JH JS JC 2H 2S"]  # two canastas, full of wild cards
        assert "ask" in moves(samba(hand, table))
        one = position(one_meld_a_rank(), hands=[hand, "4C 4D 6C"], melds={0: table}, pile="5C 9D")
        assert "cannot go out this turn" in refusal(one, "ask")

    def test_two_canastas_of_one_rank_go_out(self) -> None:
        s = samba("2D 9C", [NATURAL_KINGS, "KC KS KH KD KC 2H"])
        # the 2 on the canasta would leave one canasta and one card: a dead end
        assert "add K 2" not in moves(s)
        end = play(s, "add K:2 2", "out 9C").end
        assert end is not None and end.reason == "out"


class TestTakingThePile:
    def test_a_pair_lays_a_new_meld(self) -> None:
        s = samba("KC KD 9C 5D 6D 7D", [KINGS_4], pile="4C KH", phase="draw")
        assert "take pair KC KD" in moves(s)
        s2 = s.apply("take pair KC KD")
        assert sizes(s2) == [4, 3]

    def test_the_top_card_goes_on_the_meld_named(self) -> None:
        s = samba("9C 5D 6D 7D", [NATURAL_KINGS, KINGS_3], pile="4C KH", phase="draw")
        # onto the meld of three, not onto the canasta (Samba: only a meld short of a canasta)
        assert "take layoff 2nd" in moves(s)
        assert "already a canasta" in refusal(s, "take layoff")
        assert sizes(s.apply("take layoff 2nd")) == [7, 4]
        assert "no K:3" in refusal(s, "take layoff 3rd")

    def test_a_pair_names_no_meld(self) -> None:
        s = samba("KC KD 9C 5D 6D 7D", [KINGS_4], pile="4C KH", phase="draw")
        with pytest.raises(canasta.IllegalMoveError, match="names no meld"):
            s.apply(TakePile("pair", 0, (13 * 4 + 0, 13 * 4 + 1), 1))


class TestScores:
    def test_two_canastas_of_kings(self) -> None:
        """A natural and a mixed canasta of kings, going out (worked by hand).

        Melded: 12 kings x 10 + 2H 2D (20 each) = 160. Bonuses: natural canasta
        500, mixed canasta 300, going out 200. Total 1160.
        """
        b = score_side(
            canasta.load_variant("samba"),
            melds=[NATURAL_KINGS, "KC KS KH KD KC 2H 2D"], went_out=True,
        )
        assert dict(b.items) == {
            "melded cards": 160, "natural canasta of Ks": 500, "mixed canasta of Ks": 300,
            "going out": 200,
        }
        assert b.total == 1160

    def test_one_meld_a_rank_refuses_two(self) -> None:
        with pytest.raises(CanastaError, match="already has a meld of Ks"):
            score_side(one_meld_a_rank(), melds=[NATURAL_KINGS, "KC KS KH KD KC 2H 2D"])


class TestStates:
    def test_json_round_trip(self) -> None:
        s = samba("KC 2H 9C 5D 6D", [KINGS_4, KINGS_3], hands_rest=True)
        back = from_json(to_json(s), GameState)
        assert back == s and sizes(back) == [4, 3]
        assert back.legal_moves() == s.legal_moves()

    def test_one_meld_a_rank_refuses_the_state(self) -> None:
        s = samba("KC 2H 9C 5D 6D", [KINGS_4, KINGS_3], hands_rest=True)
        text = to_json(s).replace('"samba"', '"classic"', 1)
        with pytest.raises(CanastaError):
            from_json(text, GameState)

    def test_one_wild_meld_a_side(self) -> None:
        """Melds of wild cards stay one to a side (Bolivia)."""
        s = position("bolivia", hands=["2C 2D JK 9C 5D", "4C"], melds={0: ["2H 2S JK"]}, pile="5C")
        assert "already has a meld of wild cards" in refusal(s, "meld 2 2 JK")


# -- the move list against brute force, on positions with several melds of a rank ------------

_POOL = ["KC", "KD", "KH", "KS", "QC", "QD", "QH", "2C", "2D", "JK", "9C", "5D", "6H", "3C"]
_TABLE = ["KC KD KH", "KS KH KD KC", NATURAL_KINGS, "KC KD 2H", "KS KC KH KD 2S 2D", "QC QD QH", "QS QH QD QC 2C"]


@st.composite
def several_positions(draw: st.DrawFn, name: str) -> GameState:
    """A play-phase position of ``name`` whose side holds one to three melds of kings (and queens)."""
    hand = draw(st.lists(st.sampled_from(_POOL), min_size=1, max_size=8))
    table = draw(st.lists(st.sampled_from(_TABLE), min_size=1, max_size=4))
    if not any(m.startswith("K") for m in table):
        table.append("KC KD KH")
    # no card more often than the three decks hold it
    used = Counter(" ".join([*hand, *table, "5D 4C 6D"]).split())
    assume(all(n <= 3 for card, n in used.items() if card != "JK") and used["JK"] <= 6)
    v = canasta.load_variant(name)
    # two canastas (Samba) or one, so that going out is within reach of short hands
    go = attrs.evolve(v.going_out, sequence_canastas=0, canastas=draw(st.sampled_from([1, 2, 3])))
    v = attrs.evolve(v, going_out=go)
    if draw(st.booleans()):
        told_yes = draw(st.booleans())
        turn = Turn(asked=TOLD_YES, asker=0) if told_yes else Turn()
        return position(v, hands=[" ".join(hand), "4C 6D"], melds={0: table}, pile="5D", turn=turn)
    # a side still opening, its melds laid this turn short of what the opening asks
    # (Brazilian's tiers ask a canasta at 7000 and up: a combine may make it)
    score = draw(st.sampled_from([0, 3000, 7000, 8000, 9000]))
    r = canasta.engine.compile_rules(v)
    points = sum(r.code_value[c] for m in table for c in parse_cards_codes(m))
    s = position(v, hands=[" ".join(hand), "4C 6D"], melds={0: table}, pile="5D", opened=[False, False],
                 scores=[score, 0], turn=Turn(melded=True, points=points))
    assume(not opening_met(s, 0, points, s.melds_[0], False))
    return s


@pytest.mark.parametrize("name", SEVERAL)
@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_steps_agree_with_brute_force(name: str, data: st.DataObject) -> None:
    """Every play-phase move, combines among them: legal exactly when its own rule allows it and
    the turn can still be finished (brute force over the rest of the turn)."""
    s = data.draw(several_positions(name))
    assert_agrees_and_applies(s)


# -- joining two sequences that meet end to end (sequences.join) -----------------------------


def joining(name: str = "samba") -> canasta.Variant:
    """``name`` with ``sequences.join`` on (no bundled profile plays it: no source has it)."""
    v = canasta.load_variant(name)
    return attrs.evolve(v, sequences=attrs.evolve(v.sequences, join=True))


class TestJoin:
    def test_notation(self) -> None:
        assert parse_move("join 4H-6H 7H-9H") == JoinSequences(2, 4, 7, 9)
        assert parse_move("join 7H-9H 4H-6H") == JoinSequences(2, 4, 7, 9)
        assert str(JoinSequences(0, 5, 8, 11)) == "join 5C-7C 8C-JC"
        with pytest.raises(NotationError, match="meet end to end"):
            parse_move("join 4H-6H 8H-10H")
        with pytest.raises(NotationError, match="meet end to end"):
            parse_move("join 4H-6H 7S-9S")

    def test_two_sequences_join_into_one(self) -> None:
        s = position(joining(), hands=["10H 9C 5D", "4C 4D 6C"], melds={0: ["4H 5H 6H", "7H 8H 9H"]}, pile="5C")
        s2 = play(s, "join 4H-6H 7H-9H")
        assert [m.size for m in s2.melds[0]] == [6]
        s3 = play(s2, "add 4H-9H 10H")
        assert s3.canasta_kind(s3.melds[0][0]) == "sequence"

    def test_a_join_keeps_the_closing_size(self) -> None:
        s = position(joining(), hands=["9C 5D 6D", "4C 4D 6C"], melds={0: ["4H 5H 6H 7H", "8H 9H 10H"]}, pile="5C")
        # seven cards: a samba, closed
        assert [m.size for m in play(s, "join 4H-7H 8H-10H").melds[0]] == [7]
        longer = position(joining(), hands=["9C 5D 6D", "4C"], melds={0: ["4H 5H 6H 7H", "8H 9H 10H JH"]}, pile="5C")
        assert "at most 7 cards" in refusal(longer, "join 4H-7H 8H-JH")

    def test_going_out_by_a_join(self) -> None:
        """Told yes with one canasta to make: the 10H grows 7H-9H, the join makes the samba."""
        v = joining()
        v = attrs.evolve(v, going_out=attrs.evolve(v.going_out, canastas=1))
        s = position(v, hands=["10H 9C", "4C 4D 6C"], melds={0: ["4H 5H 6H", "7H 8H 9H"]}, pile="5C",
                     turn=Turn(asked=TOLD_YES, asker=0))
        assert "add 7H-9H 10H" in moves(s)
        end = play(s, "add 7H-9H 10H", "join 4H-6H 7H-10H", "out 9C").end
        assert end is not None and end.reason == "out"
        # without joining, growing the sequence would be a dead end: refused
        no = attrs.evolve(v, sequences=attrs.evolve(v.sequences, join=False))
        s2 = position(no, hands=["10H 9C", "4C 4D 6C"], melds={0: ["4H 5H 6H", "7H 8H 9H"]}, pile="5C",
                      turn=Turn(asked=TOLD_YES, asker=0))
        assert "add 7H-9H 10H" not in moves(s2)

    def test_the_last_card_cannot_bridge_a_join(self) -> None:
        """Melding the last card goes out at once: a card that bridges two sequences must come
        before their join, so it cannot be the last card when the join makes the canasta."""
        v = joining()
        v = attrs.evolve(v, going_out=attrs.evolve(v.going_out, canastas=1))
        told = Turn(asked=TOLD_YES, asker=0)
        table = ["4H 5H 6H", "8H 9H 10H"]
        only = position(v, hands=["7H", "4C 4D 6C"], melds={0: table}, pile="5C", turn=told)
        assert "add 4H-6H 7H" not in moves(only) and "add 8H-10H 7H" not in moves(only)
        # and so, before anything is laid, the player cannot go out: nothing to ask
        asking = position(v, hands=["7H", "4C 4D 6C"], melds={0: table}, pile="5C")
        assert "cannot go out this turn" in refusal(asking, "ask")
        spare = position(v, hands=["7H 9C", "4C 4D 6C"], melds={0: table}, pile="5C", turn=told)
        end = play(spare, "add 4H-6H 7H", "join 4H-7H 8H-10H", "out 9C").end
        assert end is not None and end.reason == "out"

    def test_never_joined_without_the_option(self) -> None:
        s = samba("9C 5D 6D", ["4H 5H 6H", "7H 8H 9H"])
        assert "never joined" in refusal(s, "join 4H-6H 7H-9H")
        assert "no open sequence 10H-QH" in refusal(
            position(joining(), hands=["9C 5D", "4C"], melds={0: ["4H 5H 6H", "7H 8H 9H"]}, pile="5C"),
            "join 7H-9H 10H-QH",
        )

    def test_every_join_action_round_trips(self) -> None:
        v = joining()
        space = ActionSpace(v)
        joins = [m for m in space.moves if isinstance(m, JoinSequences)]
        assert joins and space.moves[: ActionSpace(canasta.load_variant("samba")).size] == ActionSpace(
            canasta.load_variant("samba")).moves
        for m in joins:
            assert parse_move(str(m)) == m and space.encode(str(m)) == space.encode(m)


_RUN_POOL = [f"{r}H" for r in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")] + ["2C", "JK", "9C", "5D"]
_RUN_TABLE = ["4H 5H 6H", "7H 8H 9H", "10H JH QH", "5H 6H 7H 8H", "9H 10H JH", "QH KH AH", "KC KD KH"]


@st.composite
def join_positions(draw: st.DrawFn, name: str) -> GameState:
    """A play-phase position of ``name`` with joining on, whose side holds runs of hearts that may meet."""
    hand = draw(st.lists(st.sampled_from(_RUN_POOL), min_size=1, max_size=8))
    # often two runs that meet, or meet once a card between them is laid
    pairs = [["4H 5H 6H", "7H 8H 9H"], ["4H 5H 6H", "8H 9H 10H"], ["5H 6H 7H 8H", "9H 10H JH"],
             ["9H 10H JH", "QH KH AH"]]
    table = draw(st.sampled_from(pairs)) if draw(st.booleans()) else []
    table += draw(st.lists(st.sampled_from(_RUN_TABLE), min_size=0 if table else 1, max_size=2))
    used = Counter(" ".join([*hand, *table, "5C 4C 6D"]).split())
    assume(all(n <= 3 for card, n in used.items() if card != "JK"))
    v = joining(name)
    go = attrs.evolve(v.going_out, sequence_canastas=0, canastas=draw(st.sampled_from([1, 2])))
    v = attrs.evolve(v, going_out=go)
    told_yes = draw(st.booleans())
    turn = Turn(asked=TOLD_YES, asker=0) if told_yes else Turn()
    return position(v, hands=[" ".join(hand), "4C 6D"], melds={0: table}, pile="5C", turn=turn)


@pytest.mark.parametrize("name", ["samba", "brazilian"])
@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_joins_agree_with_brute_force(name: str, data: st.DataObject) -> None:
    """With sequences.join, every play-phase move (joins among them) agrees with brute force."""
    s = data.draw(join_positions(name))
    assert_agrees_and_applies(s)
