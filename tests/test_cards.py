"""Tests of canasta.cards: Card, its notation, parse_cards and build_deck."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import canasta
from canasta.cards import JOKER, RANK_NAMES, RANKS, SUITS, Card, build_deck, parse_card, parse_rank
from canasta.errors import CanastaError, NotationError

ALL_CARDS = build_deck(1, 1)

NOT_A_CARD = (
    "is not a card: expected a rank (2-10, T, J, Q, K, A) followed "
    "by a suit (C, D, H, S or ♣♦♥♠), or JK for a joker"
)


class TestCardParse:
    """Card.parse and parse_card."""

    @pytest.mark.parametrize("text", ["KH", "kh", "Kh", "kH", " KH ", "K♥"])
    def test_case_insensitive_and_symbols(self, text: str) -> None:
        """Upper, lower and mixed case, padding and the heart symbol all give KH."""
        card = Card.parse(text)
        assert str(card) == "KH"
        assert card.rank == 13
        assert card.suit == "H"

    @pytest.mark.parametrize("text", ["10S", "10s", "TS", "ts", "t♠", "10♠"])
    def test_ten_written_as_10_or_t(self, text: str) -> None:
        """A ten may be written 10 or T; it always prints as 10."""
        card = Card.parse(text)
        assert card.rank == 10
        assert str(card) == "10S"

    @pytest.mark.parametrize(("symbol", "letter"), [("♣", "C"), ("♦", "D"), ("♥", "H"), ("♠", "S")])
    def test_suit_symbols(self, symbol: str, letter: str) -> None:
        """Each suit symbol parses to the same card as its letter."""
        assert Card.parse("Q" + symbol) == Card.parse("Q" + letter)
        assert Card.parse("7" + symbol).suit == letter

    @pytest.mark.parametrize("text", ["JK", "jk", "Jk", "JOKER", "joker"])
    def test_joker_spellings(self, text: str) -> None:
        """A joker is JK (or JOKER), in any case."""
        card = Card.parse(text)
        assert card.is_joker
        assert str(card) == "JK"
        assert card.rank == JOKER

    def test_parse_card_function_agrees_with_method(self) -> None:
        """parse_card and Card.parse return the same card for every canonical token."""
        for card in ALL_CARDS:
            assert parse_card(str(card)) == Card.parse(str(card)) == card

    @pytest.mark.parametrize(
        "text", ["", "  ", "1H", "11H", "KX", "K", "H", "ZZ", "K H", "JKH", "KH,"]
    )
    def test_bad_token_message_quotes_it(self, text: str) -> None:
        """A token that is no card raises NotationError quoting the token, with the exact message."""
        with pytest.raises(NotationError) as info:
            Card.parse(text)
        assert str(info.value) == f"{text!r} {NOT_A_CARD}"

    def test_notation_error_is_a_value_error(self) -> None:
        """Code that guards with ValueError or CanastaError also catches a bad card."""
        with pytest.raises(ValueError, match="'XY' is not a card"):
            Card.parse("XY")
        with pytest.raises(CanastaError):
            Card.parse("XY")


class TestCardStrRepr:
    """str() and repr() of Card."""

    @pytest.mark.parametrize(
        ("text", "canonical"),
        [
            ("KH", "KH"),
            ("10S", "10S"),
            ("ts", "10S"),
            ("JK", "JK"),
            ("joker", "JK"),
            ("2c", "2C"),
            ("a♦", "AD"),
            ("jh", "JH"),
            ("q♣", "QC"),
        ],
    )
    def test_str_is_canonical(self, text: str, canonical: str) -> None:
        """str() gives upper case, 10 for a ten, suit letters, and JK for a joker."""
        assert str(Card.parse(text)) == canonical

    def test_repr_pastes_back(self) -> None:
        """eval(repr(card)) with Card in scope gives an equal card, for every card."""
        for card in ALL_CARDS:
            again = eval(repr(card), {"Card": Card})
            assert again == card
            assert type(again) is Card

    def test_repr_form(self) -> None:
        """repr() reads like the code that builds the card."""
        assert repr(Card.parse("kh")) == "Card.parse('KH')"
        assert repr(Card.parse("JK")) == "Card.parse('JK')"

    def test_repr_of_a_tuple_pastes_back(self) -> None:
        """A parsed hand's repr is also valid code."""
        hand = canasta.parse_cards("KH 10S JK")
        assert eval(repr(hand), {"Card": Card}) == hand


class TestCardProperties:
    """rank, suit, is_red, is_joker and the int value of Card."""

    def test_rank_and_suit(self) -> None:
        """rank is the rank number and suit the suit letter."""
        assert Card.parse("AS").rank == 14
        assert Card.parse("AS").suit == "S"
        assert Card.parse("2C").rank == 2
        assert Card.parse("2C").suit == "C"
        assert Card.parse("JD").rank == 11
        assert Card.parse("JK").suit is None

    @pytest.mark.parametrize(
        ("text", "red"), [("3H", True), ("3D", True), ("3C", False), ("3S", False), ("JK", False)]
    )
    def test_is_red(self, text: str, red: bool) -> None:
        """Diamonds and hearts are red; clubs, spades and jokers are not."""
        assert Card.parse(text).is_red is red

    def test_is_joker(self) -> None:
        """Only the joker is a joker."""
        jokers = [c for c in ALL_CARDS if c.is_joker]
        assert [str(c) for c in jokers] == ["JK"]

    def test_int_code(self) -> None:
        """A card is the int rank * 4 + suit; the joker is 60."""
        assert Card.parse("KH") == 13 * 4 + SUITS.index("H")
        assert int(Card.parse("JK")) == 60
        assert Card(13 * 4 + 2) == Card.parse("KH")

    def test_bad_code_rejected(self) -> None:
        """An int that is no card's code raises NotationError."""
        for code in (0, 7, 61, 62, 64, -1):
            with pytest.raises(NotationError, match="is not a card code"):
                Card(code)

    def test_equal_cards_hash_alike(self) -> None:
        """Two KH from two decks are equal and count as one key."""
        a, b = canasta.parse_cards("KH kh")
        assert a == b
        assert len({a, b}) == 1

    def test_order_is_rank_then_suit(self) -> None:
        """Sorting cards orders them by rank, then by suit C D H S."""
        hand = canasta.parse_cards("AS 2C JK KH KC 10D")
        assert [str(c) for c in sorted(hand)] == ["2C", "10D", "KC", "KH", "AS", "JK"]

    def test_pickle_round_trip(self) -> None:
        """A card survives pickling as an equal Card."""
        card = Card.parse("QS")
        again = pickle.loads(pickle.dumps(card))
        assert again == card
        assert type(again) is Card


class TestParseRank:
    """parse_rank."""

    def test_every_rank_name(self) -> None:
        """Every canonical rank name, plus T and JOKER, parses to its rank number."""
        for rank, name in RANK_NAMES.items():
            assert parse_rank(name) == rank
            assert parse_rank(name.lower()) == rank
        assert parse_rank("T") == 10
        assert parse_rank("joker") == JOKER

    def test_bad_rank_message(self) -> None:
        """An unknown rank raises NotationError quoting it and listing the ranks."""
        with pytest.raises(NotationError) as info:
            parse_rank("1")
        assert (
            str(info.value)
            == "'1' is not a rank: expected one of 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, JK"
        )


class TestParseCards:
    """parse_cards."""

    @pytest.mark.parametrize("value", [5, None, 2.5])
    def test_not_text_nor_cards(self, value: object) -> None:
        """A value that is neither text nor an iterable of cards is a NotationError, not a TypeError."""
        with pytest.raises(NotationError) as info:
            canasta.parse_cards(value)  # type: ignore[arg-type]
        assert str(info.value) == f"{value!r} is not a card: expected text such as 'KH 10S'"

    def test_spaces(self) -> None:
        """Tokens separated by spaces parse in order."""
        assert [str(c) for c in canasta.parse_cards("KH 10S 2C JK")] == ["KH", "10S", "2C", "JK"]

    def test_commas_and_mixed_separators(self) -> None:
        """Commas, with or without spaces, separate tokens too."""
        expected = canasta.parse_cards("KH 10S TS 2C JK 3D")
        assert canasta.parse_cards("KH,10S,TS,2C,JK,3D") == expected
        assert canasta.parse_cards("KH, 10S ,TS  2C,\tJK\n3D") == expected

    def test_returns_tuple_of_cards(self) -> None:
        """The result is a tuple of Card."""
        cards = canasta.parse_cards("kh ts")
        assert isinstance(cards, tuple)
        assert all(type(c) is Card for c in cards)

    def test_empty(self) -> None:
        """Empty or blank text gives no cards."""
        assert canasta.parse_cards("") == ()
        assert canasta.parse_cards(" , ") == ()

    def test_iterable_of_tokens(self) -> None:
        """A list of tokens parses like the text that joins them."""
        assert canasta.parse_cards(["KH", "10s", "JK"]) == canasta.parse_cards("KH 10S JK")

    def test_iterable_of_cards(self) -> None:
        """Cards in an iterable are kept as they are."""
        cards = canasta.parse_cards("KH 10S")
        assert canasta.parse_cards(iter(cards)) == cards
        assert canasta.parse_cards([cards[0], "10S"]) == cards

    def test_bad_token_quoted(self) -> None:
        """The first bad token is named in the error."""
        with pytest.raises(NotationError) as info:
            canasta.parse_cards("KH 1X 2C")
        assert str(info.value) == f"'1X' {NOT_A_CARD}"

    def test_non_text_item_rejected(self) -> None:
        """An item that is neither text nor a Card raises NotationError quoting it."""
        with pytest.raises(NotationError, match=r"^3\.5 is not a card"):
            canasta.parse_cards([3.5])  # type: ignore[list-item]


class TestBuildDeck:
    """build_deck."""

    def test_classic_deck(self) -> None:
        """Two decks with two jokers each make 108 cards: each card twice, four jokers."""
        deck = build_deck(2, 2)
        assert len(deck) == 108
        counts = Counter(deck)
        assert counts[Card.parse("JK")] == 4
        assert all(n == 2 for c, n in counts.items() if not c.is_joker)
        assert len(counts) == 53

    def test_sorted(self) -> None:
        """The deck comes in code order."""
        deck = build_deck(3, 1)
        assert list(deck) == sorted(deck)

    @pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (1, 2), (5, 2), (3, 4)])
    def test_counts(self, decks: int, jokers: int) -> None:
        """52 cards per deck plus jokers per deck."""
        deck = build_deck(decks, jokers)
        assert len(deck) == decks * (52 + jokers)
        assert sum(c.is_joker for c in deck) == decks * jokers
        assert sum(c.is_red for c in deck) == decks * 26

    def test_one_deck_has_every_card(self) -> None:
        """One deck holds every rank of every suit exactly once."""
        deck = build_deck(1, 0)
        assert {(c.rank, c.suit) for c in deck} == {
            (r, s) for r in RANKS if r != JOKER for s in SUITS
        }


class TestRoundTrip:
    """Notation round trips, property-based."""

    @given(st.sampled_from(ALL_CARDS))
    def test_str_parse_round_trip(self, card: Card) -> None:
        """Parsing str(card) gives the card back."""
        assert Card.parse(str(card)) == card

    @given(st.lists(st.sampled_from(ALL_CARDS)), st.sampled_from([" ", ",", ", ", "  "]))
    def test_parse_cards_round_trip(self, cards: list[Card], sep: str) -> None:
        """Joining str() of cards with any separator parses back to the same cards."""
        assert canasta.parse_cards(sep.join(map(str, cards))) == tuple(cards)

    @given(st.sampled_from(ALL_CARDS), st.data())
    def test_any_case_parses(self, card: Card, data: st.DataObject) -> None:
        """Any mix of upper and lower case in a token parses to the same card."""
        text = str(card)
        flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
        mixed = "".join(ch.lower() if f else ch for ch, f in zip(text, flips, strict=True))
        assert Card.parse(mixed) == card
