"""Tests of canasta.check.policies: the checker's greedy player and the players that seek one rule.

Issue 16, item 10: a rule the playouts report as never seen (C044) was looked
for by a player that tries to bring it into play, so the note fires only when
the rule could not be reached, and says how hard it was looked for.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import canasta
from canasta.check import check_variant
from canasta.check import playouts as playouts_module
from canasta.check.policies import GOALS, Seeker, greedy_move
from canasta.engine import compile_rules, new_game
from canasta.engine.facts import probe
from canasta.engine.moves import Discard, Meld, TakePile
from canasta.engine.oracle import can_go_out
from canasta.engine.state import PLAY


def tally_of(v: canasta.Variant, hands: int, seeker_goal: str | None) -> playouts_module._Tally:
    """Play ``hands`` hands, all greedy or all with one seat seeking ``seeker_goal`` (the seat rotating)."""
    tally = playouts_module._Tally()
    for i in range(hands):
        seeker = Seeker(seeker_goal, i % v.players.count) if seeker_goal else None
        playouts_module._play_hand(v, i, random.Random(i), greedy=True, tally=tally, seeker=seeker)
    return tally


def house(tmp_path: Path, text: str) -> canasta.Variant:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return canasta.load_variant(path)


class TestSeeker:
    """Seeker: one seat steers towards a rule; the others play the greedy game."""

    def test_greedy_alone_never_goes_out_concealed(self) -> None:
        """The greedy player melds at once, so forty classic hands see no concealed out (why a seeker is needed)."""
        assert "concealed" not in tally_of(canasta.load_variant("classic"), 40, None).events

    def test_seeker_goes_out_concealed(self) -> None:
        """Holding the hand back until the oracle says it can all be melded, a seat goes out concealed."""
        tally = tally_of(canasta.load_variant("classic"), 40, "concealed")
        assert "concealed" in tally.events
        assert tally.outs > 30  # seeking costs the table little: hands still end with someone out

    def test_seeker_takes_the_pile_the_way_it_seeks(self, tmp_path: Path) -> None:
        """Where the pile may be taken with a natural and a wild card, the seeker takes it that way."""
        v = house(tmp_path, "extends: classic\npile:\n  take_natural_and_wild: true\n")
        assert "take:wild" in tally_of(v, 20, "take:wild").events

    def test_other_seats_play_greedily(self) -> None:
        """At a seat that does not seek, the seeker's choice is the greedy player's."""
        v = canasta.load_variant("classic")
        s = new_game(v, seed=3)
        r = compile_rules(v)
        other = Seeker("concealed", (s.current_player + 1) % 4)
        assert other.move(s, s.legal_moves(), random.Random(5), r) == greedy_move(s.legal_moves(), random.Random(5), r)

    def test_holds_back_instead_of_melding(self) -> None:
        """Seeking a concealed out, a player who cannot go out yet discards rather than meld, and never takes the pile."""
        v = canasta.load_variant("classic")
        r = compile_rules(v)
        rng = random.Random(0)
        held_back = 0
        for seed in range(20):
            s = new_game(v, seed=seed)
            seeker = Seeker("concealed", s.current_player)
            while not s.is_hand_over:
                moves = s.legal_moves()
                m = seeker.move(s, moves, rng, r)
                if s.current_player == seeker.seat and not s.melded_before[seeker.seat]:
                    assert not isinstance(m, TakePile)
                    offered = any(isinstance(x, Meld) for x in moves)
                    if s.phase == PLAY and offered and not s.turn.melded and not can_go_out(s, probe(s)):
                        assert isinstance(m, Discard) and not m.out, m
                        held_back += 1
                s = s.apply(m)
        assert held_back > 20

    @pytest.mark.parametrize("goal", sorted(GOALS))
    def test_every_goal_plays_legal_moves(self, goal: str) -> None:
        """Whatever it seeks, the seeker only ever picks a listed move, and the hand ends."""
        v = canasta.load_variant("hand-and-foot" if goal in ("canasta:wild", "take:finish") else "classic")
        r = compile_rules(v)
        rng = random.Random(1)
        s = new_game(v, seed=11)
        seeker = Seeker(goal, 0)
        for _ in range(playouts_module.MAX_MOVES_PER_HAND):
            if s.is_hand_over:
                break
            moves = s.legal_moves()
            m = seeker.move(s, moves, rng, r)
            assert m in moves
            s = s.apply(m)
        assert s.is_hand_over


class TestUnusedRuleNotes:
    """C044 fires only for a rule the playouts looked for and did not reach, and says so."""

    def test_reachable_concealed_out_is_not_noted(self) -> None:
        """Classic: going out concealed is reachable, so forty playouts note nothing about it."""
        found = check_variant(canasta.load_variant("classic"), playouts=40)
        assert [d for d in found if d.code == "C044"] == []

    def test_unreachable_black_out_is_noted_as_sought(self, tmp_path: Path) -> None:
        """A black-3 out of five black 3s with two decks (four black 3s) is never seen, though sought."""
        v = house(tmp_path, "extends: classic\nthrees:\n  black_out_cards: 5\n")
        [note] = [d for d in check_variant(v, playouts=40) if d.code == "C044"]
        assert note.path == "threes.black_out_cards"
        assert "nobody ever went out with black 3s in 40 simulated hands" in note.message
        assert "of them with a player who keeps its black 3s" in note.message
        assert ", 0 of them" not in note.message

    def test_concealed_out_is_reported_when_unreachable(self, tmp_path: Path) -> None:
        """Concealed outs are now looked for: where the opening blocks them, the note appears with the search."""
        # concealed outs must meet an opening of 300 points from a twelve-card hand: all but
        # never (500, beyond any twelve cards, is C009's, and such a game is not dealt at all)
        v = house(
            tmp_path,
            "extends: classic\nopening:\n  concealed_waives: false\n  score_table:\n    - {minimum: 300}\n",
        )
        assert not [d for d in check_variant(v) if d.severity == "error"]
        notes = {d.path: d.message for d in check_variant(v, playouts=12) if d.code == "C044"}
        assert "going_out.concealed" in notes
        assert "with a player who draws rather than take the pile" in notes["going_out.concealed"]
