"""Special hands (``special.hands``, issue #15): the model, the move, the matcher, the step and the score.

Every CLA hand of the house profile ``tests/data/houses/special-hands.yaml``
is built as a position (13 cards dealt and one drawn: 14 in hand) and checked:
listed, applied, scored exactly, and refused with the rule's words after the
side has melded, after a card was laid this turn, and with one card wrong.
"""

from __future__ import annotations

import attrs
import pytest

import canasta
from canasta import ActionSpace, IllegalMoveError, NotationError, VariantError
from canasta.engine.move_fields import malformed
from canasta.engine.moves import LaySpecial, parse_move
from canasta.engine.state import GAME_OVER, HAND_OVER
from canasta.variant.model import SpecialHand, SpecialRules, Variant
from houses import house_variant
from positions import moves, play, position, refusal

HOUSE = house_variant("special-hands")

#: name -> (a hand forming it, the same hand with one card wrong)
HANDS: dict[str, tuple[str, str]] = {
    "pairs": ("AH AS 4C 4D 5H 5S 6C 6D 8H 8S 9C 9D KH KS", "6H AS 4C 4D 5H 5S 6C 6D 8H 8S 9C 9D KH KS"),
    "wild-pairs": ("AH AS 7C 7D KH KS QH QS 9C 9D 5H 5S 2C 2D", "AH AS 7C 7D KH KS QH QS 9C 9D 5H 5S 2C JK"),
    "miami-pairs": ("AH AS 7C 7D KH KS QH QS 9C 9D 2C 2D JK JK", "AH AS 7C 7D KH KS QH QS 9C 9D 2C 2D JK 2H"),
    "zip-code": ("4C 4D 5H 5S 8C 8D 8H 9C 9D 9H KC KD KH KS", "4C 4D 5H 5S 8C 8D 8H 9C 9D 9H KC KD KH QS"),
    "straight": ("AH 3S 4C 5C 6C 7C 8C 9C 10C JC QC KC 2C JK", "AH 4S 4C 5C 6C 7C 8C 9C 10C JC QC KC 2C JK"),
    "garbage": ("4C 4D 4H 4S 5C 5D 5H 5S 8C 8D 8H 9C 9D 9H", "4C 4D 4H 4S 5C 5D 5H 5S 8C 8D 8H 9C 9D JK"),
    "blast-off": ("KC KD KH KS KC QC QD QH QS 9C 9D 9H 2C 2D", "KC KD KH KS KC QC QD QH QS 9C 9D 9H 2C JK"),
    "triples": ("KC KD KH QC QD QH 9C 9D 9H 8C 8D 8H JK JK", "KC KD KH QC QD QH 9C 9D 9H 8C 8D 8H JK 2C"),
    "quads": ("KC KD KH KS QC QD QH QS 9C 9D 9H 9S 2C 2D", "KC KD KH KS QC QD QH QS 9C 9D 9H 9S 2C JK"),
    "dream-hand-plus-4": ("KC KD KH KS KC QC QD QH QS QC 2C 2D 2H 2S", "KC KD KH KS KC QC QD QH QS QC 2C 2D 2H JK"),
    "dream-hand-plus-5": ("KC KD KH KS KC QC QD QH QS 2C 2D 2H 2S JK", "KC KD KH KS KC QC QD QH QS 2C 2D 2H 2S 8C"),
}

#: The other side's table in every position: it has opened with three queens
#: (30 points) and laid a red 3 (100); seat 1 holds 4C 4D (-10), seat 3 holds 9H (-10).
#: Scored as usual for a hand someone went out of, without a going-out bonus: 110.
OTHERS = {1: "4C 4D", 2: "KH KS 5S", 3: "9H"}
OTHER_SIDE_ITEMS = (("melded cards", 30), ("1 red 3", 100), ("cards left in hand", -20))


def _position(hand: str, variant: Variant = HOUSE, **kwargs: object) -> canasta.GameState:
    """Seat 0 to play with ``hand`` (13 dealt and the last card drawn), its side unopened."""
    last = hand.split()[-1]
    hands = {0: hand, **OTHERS}
    melds = kwargs.pop("melds", {1: ["QC QD QH"]})
    return position(
        variant, hands=hands, melds=melds, red_threes={1: "3H"},  # type: ignore[arg-type]
        turn=kwargs.pop("turn", {"drawn": last}), **kwargs,  # type: ignore[arg-type]
    )


def _special(s: canasta.GameState) -> set[str]:
    return {m for m in moves(s) if m.startswith("special ")}


class TestModel:
    """SpecialHand and SpecialRules: every row checked when it is built or loaded."""

    def test_house_lists_the_cla_hands(self) -> None:
        """The house profile holds the eleven CLA hands, 14 cards each, two of them winning the game."""
        hands = HOUSE.special.hands
        assert [h.name for h in hands] == list(HANDS)
        assert {h.size for h in hands} == {14}
        assert [h.name for h in hands if h.wins_game] == ["dream-hand-plus-4", "dream-hand-plus-5"]
        assert {h.name: h.value for h in hands}["triples"] == 3500

    @pytest.mark.parametrize(
        "hand, words",
        [
            ({"name": "Wild Pairs"}, "special.hands[0].name: expected lower-case letters, digits and hyphens"),
            ({"groups": ()}, "special.hands[0].groups: expected a non-empty list"),
            ({"groups": (2, 0)}, "special.hands[0].groups: expected a non-empty list of group sizes of 1 card or more"),
            ({"wild_groups": (1,)}, "special.hands[0].wild_groups: expected [fewest, most]"),
            ({"wild_groups": (2, 1)}, "special.hands[0].wild_groups: expected [fewest, most]"),
            ({"groups": (2, 2), "wild_groups": (0, 3)}, "<= 2 (the number of groups), got [0, 3]"),
            ({"groups": (2, 2), "wild_sizes": (3,)}, "special.hands[0].wild_sizes: expected sizes among the groups [2, 2], got 3"),
        ],
    )
    def test_bad_rows_are_refused(self, hand: dict[str, object], words: str) -> None:
        """A malformed row is refused, naming its index and field."""
        with pytest.raises(VariantError) as info:
            SpecialRules(hands=(SpecialHand(**hand),))  # type: ignore[arg-type]
        assert words in str(info.value)

    def test_names_are_unique(self) -> None:
        """Two hands of one name are refused, naming both places."""
        with pytest.raises(VariantError, match=r"special.hands\[1\].name: .*'pairs' again \(first at special.hands\[0\]\)"):
            SpecialRules(hands=(SpecialHand(), SpecialHand()))

    def test_a_wild_rank_is_no_natural_rank(self) -> None:
        """A hand may not require a rank that is wild in the variant."""
        special = SpecialRules(hands=(SpecialHand(ranks=("2",)),))
        with pytest.raises(VariantError, match=r"special.hands\[0\].ranks\[0\]: expected a natural rank, got '2'"):
            Variant(special=special)

    def test_profile_error_names_the_file(self, tmp_path: object) -> None:
        """A bad row in a profile file is reported with the file's name."""
        text = "extends: classic\nspecial:\n  hands:\n    - {name: Pairs, groups: [2, 2]}\n"
        with pytest.raises(VariantError, match=r"special.hands\[0\].name"):
            canasta.parse_variant(text)

    def test_needs_in_words(self) -> None:
        """What a hand needs, as the refusals and the rule book say it."""
        zip_code = HOUSE.special.hands[3]
        assert zip_code.needs() == (
            "groups of 2, 2, 3, 3 and 4 cards of one rank each; each of a different rank; "
            "up to 2 groups of wild cards, each of one wild rank (all 2s or all jokers)"
        )


class TestMove:
    """LaySpecial and its notation."""

    def test_round_trip(self) -> None:
        """'special wild-pairs' reads and writes back; case does not matter."""
        assert parse_move("special wild-pairs") == LaySpecial("wild-pairs")
        assert parse_move("SPECIAL Zip-Code") == LaySpecial("zip-code")
        assert str(LaySpecial("zip-code")) == "special zip-code"
        assert repr(LaySpecial("pairs")) == "parse_move('special pairs')"

    @pytest.mark.parametrize("text", ["special", "special a b", "special wild_pairs", "special -x"])
    def test_bad_notation(self, text: str) -> None:
        """A special move names one hand by its key."""
        with pytest.raises(NotationError, match="expected 'special <name of the hand>'"):
            parse_move(text)

    def test_malformed(self) -> None:
        """A hand-built move with a name that is no text is refused by name."""
        assert malformed(LaySpecial(5)) is not None  # type: ignore[arg-type]
        assert malformed(LaySpecial("pairs")) is None
        s = _position(HANDS["pairs"][0])
        with pytest.raises(IllegalMoveError, match=r"LaySpecial\.name must be"):
            s.apply(LaySpecial(5))  # type: ignore[arg-type]


class TestEachHand:
    """Each CLA hand: listed, applied and scored, and refused where the rules say."""

    @pytest.mark.parametrize("name", list(HANDS))
    def test_listed_alone_and_scored(self, name: str) -> None:
        """The hand is listed (and no other special hand), ends the hand, and the side scores its value only."""
        s = _position(HANDS[name][0])
        assert _special(s) == {f"special {name}"}
        end = play(s, f"special {name}")
        hand = next(h for h in HOUSE.special.hands if h.name == name)
        assert end.end is not None
        assert (end.end.reason, end.end.seat, end.end.special) == ("special", 0, name)
        assert end.end.breakdowns[0].items == ((hand.title, hand.value),)
        assert end.end.breakdowns[1].items == OTHER_SIDE_ITEMS
        assert end.scores == (hand.value, 110)
        assert end.phase == (GAME_OVER if hand.wins_game else HAND_OVER)

    @pytest.mark.parametrize("name", list(HANDS))
    def test_one_card_wrong(self, name: str) -> None:
        """With one card changed the hand is not listed, and laying it says what it needs."""
        s = _position(HANDS[name][1])
        assert f"special {name}" not in _special(s)
        title = next(h.title for h in HOUSE.special.hands if h.name == name)
        assert refusal(s, f"special {name}").startswith(f"your hand does not form {title}: it needs ")

    @pytest.mark.parametrize("name", ["pairs", "straight", "dream-hand-plus-4"])
    def test_refused_once_the_side_has_melded(self, name: str) -> None:
        """A side with melds on the table (the partner's) lays no special hand."""
        s = _position(HANDS[name][0], melds={0: ["JC JD JH"], 1: ["QC QD QH"]})
        assert not _special(s)
        assert refusal(s, f"special {name}") == "a special hand is laid only before your side has melded"

    def test_refused_after_laying_a_card(self) -> None:
        """Once the player has laid a card this turn, a special hand is refused by its own rule."""
        hand = "KC KD KH KS KC QC QD QH QS QC 2C 2D 2H 2S 7C 7D 7H"
        s = _position(hand, scores=(-100, 0))  # a side below 0 opens with 15 points
        s = play(s, "meld 7 7 7")
        assert not _special(s)
        assert refusal(s, "special dream-hand-plus-4") == (
            "a special hand is laid at once, before anything else in the turn: you have already laid cards"
        )

    def test_refused_before_the_draw(self) -> None:
        """In the draw phase the move comes later."""
        s = _position(HANDS["pairs"][0], phase="draw", turn=None)
        assert refusal(s, "special pairs") == "first draw from the stock or take the pile ('special pairs' comes later)"

    def test_refused_after_the_partner_said_no(self) -> None:
        """A partner's 'no' binds: no special hand either, which would end the hand."""
        s = _position(HANDS["pairs"][0], turn={"drawn": "KS", "asked": 2, "asker": 0})
        assert refusal(s, "special pairs") == "your partner said no: you may not go out this turn"

    def test_unknown_name_and_variant_without_special_hands(self) -> None:
        """A name the variant does not list, and a variant with none, are refused by name."""
        s = _position(HANDS["pairs"][0])
        assert refusal(s, "special pears").startswith("this variant has no special hand called 'pears'; its special hands: pairs, ")
        classic = position("classic", hands={0: "KH KS KD", 1: "4C"})
        assert refusal(classic, "special pairs") == "this variant has no special hands"

    def test_a_hand_forming_two_is_offered_both(self) -> None:
        """Five kings, four queens, three 2s and two jokers are a Blast Off and a Dream Hand Plus 5: both are listed."""
        s = _position("KC KD KH KS KC QC QD QH QS 2C 2D 2H JK JK")
        assert _special(s) == {"special blast-off", "special dream-hand-plus-5"}

    def test_a_discard_is_still_listed(self) -> None:
        """The special hand is an extra choice, never the only one."""
        s = _position(HANDS["garbage"][0])
        assert "special garbage" in moves(s)
        assert any(m.startswith("discard ") for m in moves(s))


class TestGameEnd:
    """A special hand that wins the game, and one that does not."""

    def test_wins_the_game_against_a_higher_total(self) -> None:
        """A winning special hand names its side the winner, although the other side's total is higher."""
        small = tuple(attrs.evolve(h, value=1000) if h.wins_game else h for h in HOUSE.special.hands)
        v = attrs.evolve(HOUSE, special=SpecialRules(hands=small))
        s = _position(HANDS["dream-hand-plus-5"][0], variant=v, scores=(0, 4950))
        end = play(s, "special dream-hand-plus-5")
        assert end.scores == (1000, 5060)
        assert end.is_game_over
        assert end.winners == (0,)

    def test_ordinary_special_hand_keeps_the_game_going(self) -> None:
        """A hand that does not win the game ends the hand only; the next hand is dealt."""
        end = play(_position(HANDS["quads"][0]), "special quads")
        assert end.is_hand_over and not end.is_game_over
        assert end.winners == ()
        assert "next" in moves(end)

    def test_ordinary_special_hand_reaching_the_target(self) -> None:
        """Reaching the target with a special hand ends the game as usual: the higher total wins."""
        end = play(_position(HANDS["straight"][0], scores=(3000, 0)), "special straight")
        assert end.scores == (6000, 110)
        assert end.winners == (0,)


class TestAdapters:
    """JSON, the action space and the score keeper know special hands."""

    def test_json_round_trip(self) -> None:
        """A state ended by a special hand reads back equal, its hand named."""
        end = play(_position(HANDS["triples"][0]), "special triples")
        back = canasta.from_json(canasta.to_json(end), canasta.GameState)
        assert back == end
        assert back.end is not None and back.end.special == "triples"

    def test_action_ids_come_last(self) -> None:
        """Each special hand has one id, after every other: the rest of the space is as without them."""
        plain = attrs.evolve(HOUSE, special=SpecialRules())
        space, base = ActionSpace(HOUSE), ActionSpace(plain)
        assert list(space.moves[: base.size]) == list(base.moves)
        assert list(space.moves[base.size:]) == [LaySpecial(h.name) for h in HOUSE.special.hands]
        s = _position(HANDS["pairs"][0])
        assert space.decode(s, space.encode(LaySpecial("pairs"))) == LaySpecial("pairs")

    def test_score_side(self) -> None:
        """The score keeper scores a side that laid a special hand by its value alone."""
        b = canasta.score_side(HOUSE, special="zip-code", hand="KH KS")
        assert b.items == (("Zip Code", 2500),)
        with pytest.raises(canasta.CanastaError, match="has no special hand 'zip'"):
            canasta.score_side(HOUSE, special="zip")


class TestAgainstBruteForce:
    """The special positions meet the oracle's brute force and the random playouts' checks."""

    @pytest.mark.parametrize("name", list(HANDS))
    def test_moves_agree_with_brute_force(self, name: str) -> None:
        """Every action-space move (the special ones too) is listed exactly when it applies and the turn can end."""
        from test_oracle import assert_moves_agree_with_brute_force

        assert_moves_agree_with_brute_force(_position(HANDS[name][0]))
        assert_moves_agree_with_brute_force(_position(HANDS[name][1]))

    @pytest.mark.parametrize("greedy", [False, True])
    def test_checked_playout_from_a_special_hand(self, greedy: bool) -> None:
        """From a position holding a special hand, a checked playout (greedy: it lays the hand) ends the hand."""
        from test_engine_random import play_checked_hand

        s = _position(HANDS["zip-code"][0])
        assert play_checked_hand(s, seed=3, greedy=greedy) >= 1


class TestBots:
    """The greedy bot and the checker's greedy policy lay a special hand whenever one is listed."""

    @pytest.mark.parametrize("name", ["pairs", "garbage", "dream-hand-plus-5"])
    def test_greedy_lays_it(self, name: str) -> None:
        """Among every legal move, the special hand is the greedy choice."""
        import random

        from canasta.check.policies import greedy_move
        from canasta.play.bots import make_bot

        s = _position(HANDS[name][0])
        want = LaySpecial(name)
        assert greedy_move(s.legal_moves(), random.Random(1), s.rules) == want
        assert make_bot("greedy").choose(s.view(0), random.Random(1)) == want


class TestChecker:
    """C062: a special hand no deck can form."""

    def test_house_is_clean(self) -> None:
        """The CLA list on a 13-card deal with black 3s held: every hand can be formed."""
        assert [d.code for d in canasta.check_variant(HOUSE)] == []

    def test_straight_where_every_3_is_laid_out(self) -> None:
        """Where black 3s are laid out as well as red ones, the Straight (it needs a 3) is reported, alone."""
        mac = house_variant("mac-options")
        v = attrs.evolve(mac, special=HOUSE.special)
        found = [d for d in canasta.check_variant(v) if d.code == "C062"]
        assert len(found) == 1
        assert "special hand 'Straight' (special.hands[4]) can never be laid: it needs a 3" in found[0].message

    def test_group_larger_than_the_decks(self) -> None:
        """Nine cards of one rank do not exist in two decks; nine wild cards of any mix do."""
        big = SpecialHand(name="nine", groups=(9, 5), wild_groups=(0, 0))
        v = attrs.evolve(HOUSE, special=SpecialRules(hands=(big,)))
        [d] = [d for d in canasta.check_variant(v) if d.code == "C062"]
        assert "at most 8 cards of a natural rank" in d.message
        mixed = attrs.evolve(big, wild_groups=(1, 1), wilds_match=False)
        v = attrs.evolve(HOUSE, special=SpecialRules(hands=(mixed,)))
        assert not [d for d in canasta.check_variant(v) if d.code == "C062"]


class TestRuleBook:
    """The rule book's section of special hands, and the comparison table."""

    def test_section_lists_every_hand(self) -> None:
        """Each hand is a row: its title, what it needs, its points and whether it wins the game."""
        text = canasta.describe(HOUSE)
        assert "## Special hands" in text
        assert (
            "| Zip Code | groups of 2, 2, 3, 3 and 4 cards of one rank each; each of a different rank; "
            "up to 2 groups of wild cards, each of one wild rank (all 2s or all jokers) (14 cards) | 2500 | no |"
        ) in text
        assert "| Dream Hand Plus 5 |" in text and "| 8500 | yes |" in text
        assert "## Special hands" not in canasta.describe(canasta.load_variant("classic"))

    def test_straight_that_needs_the_kept_3(self) -> None:
        """Where every 3 is laid out, the book says the Straight can never be laid, and why."""
        v = attrs.evolve(house_variant("mac-options"), special=HOUSE.special)
        assert "Straight can never be laid in this variant: it needs a 3" in canasta.describe(v)

    def test_compare_row(self) -> None:
        """The comparison table counts the special hands."""
        from canasta.rulebook.compare import compare

        text = compare([canasta.load_variant("classic"), HOUSE])
        assert "| Special hands | none | 11 (2 win the game) |" in text


class TestRecords:
    """A game record holds a special hand as its notation, and replays it."""

    def test_record_round_trip(self) -> None:
        """Any 14 cards form the hand 'any' (14 single cards of any ranks): laid on the first turn, recorded, replayed."""
        from canasta.io.record import parse_record

        anything = SpecialHand(name="any", title="Anything", groups=(1,) * 14, wild_groups=(0, 14),
                               wilds_match=False, distinct=False, value=100)
        v = attrs.evolve(HOUSE, special=SpecialRules(hands=(anything,)))
        rec = canasta.GameRecorder(v, seed=5)
        rec.apply("draw")
        end = rec.apply("special any")
        assert end.end is not None and end.end.special == "any"
        text = rec.record.to_text()
        assert "\nspecial any\n" in text
        assert parse_record(text).replay() == end
