"""Scenario tests of Pagat's Hand and Foot and the options it brought.

The options: ``pile.take_top`` (a player takes only the top seven cards of the
pile), ``going_out.partner_foot`` (both partners must have picked up their
feet) and ``going_out.ask_required`` (going out needs the partner's yes).
"""

from __future__ import annotations

import random

import attrs

import canasta
from canasta.check import check_variant
from canasta.rulebook import describe, describe_diff
from positions import moves, play, position, refusal

PAGAT = canasta.load_variant("hand-and-foot-pagat")
HOUSE = canasta.load_variant("hand-and-foot")

# Five books, as the Pagat contract wants them: two clean, two dirty, one wild.
CLEAN_K = "KH KS KD KC KH KS KD"
CLEAN_Q = "QH QS QD QC QH QS QD"
DIRTY_J = "JH JS JD JC JH 2C 2D"
DIRTY_10 = "10H 10S 10D 10C 10H JK 2H"
WILD = "2S 2C 2D 2H JK JK 2S"
BOOKS = [CLEAN_K, CLEAN_Q, DIRTY_J, DIRTY_10, WILD]






def codes(text: str) -> tuple[int, ...]:
    """Card codes in the order written."""
    return tuple(int(c) for c in canasta.parse_cards(text))


class TestTakeTopSeven:
    """pile.take_top: the top seven cards are taken; the cards below stay as the pile."""

    PILE = "4C 5C 6C 9D 7C 8C 9C 10C JC QC KC"  # eleven cards, the king on top

    def test_top_seven_taken(self) -> None:
        """K K from hand + the top K make a meld; 7C 8C 9C 10C JC QC join the hand; 4C 5C 6C 9D stay."""
        s = position(PAGAT, hands=["KH KS 5D"], melds={0: ["QH QS QD"]}, pile=self.PILE, phase="draw")
        after = s.apply("take pair")
        assert after.pile_ == codes("4C 5C 6C 9D")
        assert " ".join(str(c) for c in after.hands[0]) == "5D 7C 8C 9C 10C JC QC"
        assert any(m.rank == 13 and m.size == 3 for m in after.melds[0])

    def test_a_short_pile_is_taken_whole(self) -> None:
        """A pile of four cards is all taken."""
        s = position(PAGAT, hands=["KH KS 5D"], melds={0: ["QH QS QD"]}, pile="4C 5C 6C KC", phase="draw")
        after = s.apply("take pair")
        assert after.pile_ == ()
        assert len(after.hands[0]) == 4  # 5D and 4C 5C 6C

    def test_the_house_rules_take_it_all(self) -> None:
        """Without the option (the house Hand and Foot) the whole pile goes to the hand."""
        s = position(HOUSE, hands=["KH KS 5D"], melds={0: ["QH QS QD"]}, pile=self.PILE, phase="draw")
        after = s.apply("take pair")
        assert after.pile_ == ()
        assert len(after.hands[0]) == 11  # 5D and the ten cards under the king

    def test_cards_stay_in_the_game(self) -> None:
        """Every card is still somewhere after the take (the deck adds up)."""
        s = position(PAGAT, hands=["KH KS 5D"], melds={0: ["QH QS QD"]}, pile=self.PILE, phase="draw")
        after = s.apply("take pair")

        def all_cards(x: canasta.GameState) -> list[int]:
            out = [*x.stock_, *x.pile_]
            for h in x.hands_:
                out += h
            for f in x.feet_:
                out += f
            for side in x.melds_:
                for m in side:
                    out += m.cards
            for red in x.red_threes_:
                out += red
            return sorted(out)

        assert all_cards(after) == all_cards(s)


class TestGoingOut:
    """Five books, both feet picked up, and the partner's yes."""

    def test_out_needs_asking(self) -> None:
        """With the books made and both feet up, going out without asking is refused."""
        s = position(PAGAT, hands=["9S 9H 9D 4C 5C"], melds={0: BOOKS})
        t = s.apply("meld 9 9 9")
        # after melding, two cards are left: discarding one keeps the other (no going out)
        assert moves(t) == {"discard 4", "discard 5"}
        # melding down to one card would leave only a discard that goes out, which needs a yes
        u = position(PAGAT, hands=["9S 9H 9D 4C"], melds={0: BOOKS})
        assert "meld 9 9 9" not in moves(u)
        last = position(PAGAT, hands=["4C"], melds={0: BOOKS}, turn={"asked": 0})
        assert "ask your partner first" in refusal(last, "out 4")

    def test_ask_then_out(self) -> None:
        """Asked and told yes, the player goes out."""
        s = position(PAGAT, hands=["9S 9H 9D 4C"], melds={0: BOOKS})
        assert "ask" in moves(s)
        s = s.apply("ask")
        assert s.current_player == 2 and s.phase_name == "answer"
        s = s.apply("yes")
        s = s.apply("meld 9 9 9")
        end = s.apply("out 4")
        assert end.is_hand_over and end.end is not None and end.end.reason == "out"

    def test_partner_still_in_the_foot(self) -> None:
        """While the partner's foot lies unpicked, asking is not offered and going out is refused."""
        feet = {2: "5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 8D 8H 4S"}
        s = position(PAGAT, hands=["9S 9H 9D 4C"], melds={0: BOOKS}, feet=feet)
        assert "ask" not in moves(s)
        assert "ask" in moves(position(PAGAT, hands=["9S 9H 9D 4C"], melds={0: BOOKS}))
        # without the permission rule, and able to discard a last card without going
        # out, the refusal of 'out' names the partner's foot
        go = attrs.evolve(PAGAT.going_out, ask_required=False, out_but_not_out=True)
        v = attrs.evolve(PAGAT, going_out=go)
        last = position(v, hands=["4C"], melds={0: BOOKS}, feet=feet)
        assert "discard 4" in moves(last)
        assert "partner must pick up their foot" in refusal(last, "out 4")

    def test_own_foot_is_not_the_partners(self) -> None:
        """partner_foot asks only about the partners: with foot_first off, the player's own foot down does not bar going out."""
        foot = "5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 8D 8H 4S"
        go = attrs.evolve(PAGAT.going_out, ask_required=False, foot_first=False)
        v = attrs.evolve(PAGAT, going_out=go)
        s = position(v, hands=["9S 9H 9D 4C"], melds={0: BOOKS}, feet={0: foot})
        assert play(s, "meld 9 9 9", "out 4").is_hand_over
        barred = position(v, hands=["9S 9H 9D 4C"], melds={0: BOOKS}, feet={0: foot, 2: foot})
        # still able to walk to its own foot, the player may meld; going out is refused
        assert "partner must pick up their foot" in refusal(play(barred, "meld 9 9 9"), "out 4")

    def test_house_rules_need_neither(self) -> None:
        """The house profile lets a player go out without asking while the partner's foot is down."""
        feet = {2: "5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 8D 8H 4S"}
        s = position(HOUSE, hands=["9S 9H 9D 4C"], melds={0: [WILD, CLEAN_K, DIRTY_J]}, feet=feet)
        s = s.apply("meld 9 9 9")
        assert s.apply("out 4").is_hand_over


class TestWalking:
    """foot.walk: discard the last hand card, pick up the foot at the start of the next turn."""

    FOOT = "5C 5D 5H 6C 6D 6H 7C 7D 7H 8C 8D 8H 4S"

    def test_walk_then_foot_before_drawing(self) -> None:
        """The last card is discarded without going out; next turn the only move is 'foot', then 'draw'."""
        s = position(PAGAT, hands={0: "4C", 1: "9S 9H", 2: "9D 9C", 3: "KH KS"}, melds={0: ["QH QS QD"]},
                     feet={0: self.FOOT, 1: self.FOOT, 2: self.FOOT, 3: self.FOOT})
        assert "discard 4" in moves(s)
        s = s.apply("discard 4")
        assert not s.is_hand_over and s.hands_[0] == ()
        for _ in range(3):  # the other three seats draw and discard
            s = s.apply("draw")
            s = s.apply(next(str(m) for m in s.legal_moves() if str(m).startswith("discard")))
        assert s.current_player == 0 and s.phase_name == "draw"
        assert moves(s) == {"foot"}
        assert "pick up your foot first" in refusal(s, "draw")
        s = s.apply("foot")
        assert len(s.hands_[0]) == 13 and s.phase_name == "draw"
        assert "draw" in moves(s)

    def test_no_walk_once_the_foot_is_up(self) -> None:
        """With the foot picked up, the last card's discard goes out, so it needs the books."""
        s = position(PAGAT, hands=["4C"], melds={0: ["QH QS QD"]})
        assert "discard 4" not in moves(s)

    def test_house_rules_do_not_walk(self) -> None:
        """The house profile's foot comes with the first canasta; an empty hand draws."""
        assert not HOUSE.foot.walk


class TestBookAndCheck:
    """The rule book states the Pagat rules; the checker finds nothing."""

    def test_book(self) -> None:
        """Top seven, the partner's foot, the permission."""
        book = describe(PAGAT)
        assert "You take the top seven cards of the pile, or all of it when it holds fewer" in book
        assert "before their partner has picked up their foot" in book
        assert "only with their partner's permission" in book
        assert "two natural (clean) canastas" in book or "two clean" in book.lower()

    def test_diff_against_the_house_rules(self) -> None:
        """--diff hand-and-foot names the new rules."""
        diff = describe_diff(PAGAT, HOUSE)
        for words in ("top seven cards", "partner has picked up their foot", "permission"):
            assert words in diff, words

    def test_checks_clean(self) -> None:
        """No warning or error."""
        found = check_variant(PAGAT)
        assert [d.code for d in found if d.severity != "info"] == []

    def test_ask_required_without_ask_partner_is_dead(self) -> None:
        """ask_required with asking off: the book says players may not ask, and nobody must."""
        v = attrs.evolve(PAGAT, going_out=attrs.evolve(PAGAT.going_out, ask_partner=False))
        s = position(v, hands=["9S 9H 9D 4C"], melds={0: BOOKS})
        assert "ask" not in moves(s)
        assert s.apply("meld 9 9 9").apply("out 4").is_hand_over


class TestSourceReadings:
    """The upcard buried, and going out after the partner played from their foot (Pagat's text)."""

    def test_a_covered_upcard_is_buried(self) -> None:
        """A wild or red 3 upcard goes back into the stock: the pile starts with one other card."""
        seen = 0
        for seed in range(60):
            s = canasta.new_game(PAGAT, seed=seed)
            assert len(s.pile) == 1
            assert str(s.pile[0])[:-1] != "2" and str(s.pile[0]) not in ("JK", "3H", "3D")
            house = canasta.new_game(attrs.evolve(PAGAT, deal=attrs.evolve(PAGAT.deal, upcard_buried=False)), seed=seed)
            if len(house.pile) > 1:
                seen += 1
                # the buried card is in the stock, and the deal uses the same cards
                assert house.pile[0] in s.stock_ or any(house.pile[0] in h for h in s.hands_)
        assert seen > 0  # some deals turned a wild card or a red 3 first

    def test_book_buries_the_upcard(self) -> None:
        """The book says the upcard is buried, and that the partner played from the foot."""
        book = describe(PAGAT)
        assert "buried in the middle of the stock" in book
        assert "picked up their foot and played part of a turn from it" in book

    def test_partner_played_from_the_foot_before_an_out(self) -> None:
        """In greedy hands, whoever goes out has a partner who picked up the foot and moved since."""
        bot = canasta.GreedyBot()
        outs = 0
        for seed in range(4):
            rng = random.Random(seed)
            s = canasta.new_game(PAGAT, seed=seed)
            since_foot: dict[int, int] = {}  # seat -> moves made since picking up the foot
            while not s.is_hand_over:
                p = s.current_player
                move = bot.choose(s.view(p), rng)
                if p in since_foot:
                    since_foot[p] += 1
                if str(move) == "foot":
                    since_foot[p] = 0
                after = s.apply(move)
                if after.end is not None and after.end.reason == "out":
                    outs += 1
                    partner = (p + 2) % 4
                    assert not s.feet_[partner] and since_foot.get(partner, 0) > 0
                s = after
        assert outs > 0
