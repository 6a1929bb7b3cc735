"""Tests for canasta.engine.view: what one seat may see."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import chain, repeat

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta import CanastaError, Card, GameState, SeatView
from canasta.engine.facts import rebuild as _rebuild
from canasta.engine.moves import Move
from canasta.engine.state import ANSWER, Turn
from canasta.engine.view import deck_counts, stand_in_cards
from positions import position
from strategies import playouts

VARIANTS = canasta.variant_names()


def states_of_a_hand(name: str, seed: int, every: int = 7) -> list[GameState]:
    """Every ``every``-th state of a random hand of ``name`` (and its last)."""
    rng = random.Random(seed)
    s = canasta.new_game(canasta.load_variant(name), seed=seed)
    out = []
    i = 0
    while not s.is_hand_over:
        if i % every == 0:
            out.append(s)
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])
        i += 1
    out.append(s)
    return out


def hide_swap(s: GameState, seat: int) -> GameState:
    """``s`` with ``seat``'s hand and the stock changed (sizes kept): what others cannot see."""
    pool = list(s.hands_[seat]) + list(s.stock_)
    random.Random(1).shuffle(pool)
    n = len(s.hands_[seat])
    hands = tuple(tuple(sorted(pool[:n])) if i == seat else h for i, h in enumerate(s.hands_))
    feet = tuple(tuple(reversed(f)) for f in s.feet_)
    return _rebuild(s, hands=hands, stock=tuple(pool[n:]), feet=feet)


def as_data(view: SeatView) -> dict[str, object]:
    """Everything a view holds, as nested data (what a server would send)."""
    return attrs.asdict(view, recurse=True)


class TestSeatView:
    """GameState.view(seat) / SeatView."""

    @pytest.mark.parametrize("name", VARIANTS)
    def test_own_hand_and_sizes(self, name: str) -> None:
        """A view holds the seat's own hand and only the sizes of the others."""
        s = canasta.new_game(canasta.load_variant(name), seed=11)
        for seat in range(s.rules.n):
            v = s.view(seat)
            assert v.seat == seat
            assert v.hand == s.hands[seat]
            assert v.hand_sizes == tuple(len(h) for h in s.hands)
            assert v.foot_sizes == tuple(len(f) for f in s.feet)
            assert v.stock_size == s.stock_size
            assert v.pile == s.pile
            assert v.melds == s.melds
            assert v.red_threes == s.red_threes
            assert v.scores == s.scores
            assert (v.current, v.phase) == (s.current_player, s.phase)

    def test_no_field_holds_another_hand(self) -> None:
        """The view's fields hold no other seat's hand, no foot and no stock."""
        names = {f.name for f in attrs.fields(SeatView)}
        assert not names & {"hands", "hands_", "feet", "feet_", "stock", "stock_"}
        s = position(
            "hand-and-foot",
            hands=["KH KS", "AC AD AH", "QC", "JD JD"],
            feet=["4C 4D", "5C", "6C 6D 6H", "7C"],
            melds={0: ["9C 9D 9H"]},
        )
        v = s.view(0)
        assert [str(c) for c in v.hand] == ["KH", "KS"]
        assert v.hand_sizes == (2, 3, 1, 2)
        assert v.foot_sizes == (2, 1, 3, 1)
        hidden = set(s.hands_[1]) | set(s.hands_[2]) | set(s.hands_[3])
        shown = set(v.hand_codes) | set(v.pile_codes)
        for side in v.melds:
            for m in side:
                shown |= set(m.cards)
        assert not hidden & shown

    @pytest.mark.parametrize("name", VARIANTS)
    def test_view_does_not_depend_on_hidden_cards(self, name: str) -> None:
        """Changing another seat's hand, the feet or the stock leaves the view as it was."""
        for s in states_of_a_hand(name, seed=5, every=23):
            for seat in range(s.rules.n):
                other = (seat + 1) % s.rules.n
                if not s.hands_[other] or not s.stock_:
                    continue
                t = hide_swap(s, other)
                if t.current == other and t.turn.pending:
                    continue
                assert t.hands_[other] != s.hands_[other] or len(s.stock_) < 2
                assert s.view(seat) == t.view(seat)
                assert as_data(s.view(seat)) == as_data(t.view(seat))
                assert repr(s.view(seat)) == repr(t.view(seat))

    def test_others_do_not_see_drawn_or_pending_cards(self) -> None:
        """Cards drawn and pile cards held aside show only in the current seat's view."""
        s = position(
            "classic", hands=["KC KD QC QD QH 6D"], pile="AC AD AH KH", phase="draw"
        ).apply("take pair")
        assert s.turn.pending
        assert s.view(0).turn.pending == s.turn.pending
        for seat in (1, 2, 3):
            assert s.view(seat).turn.pending == ()
            assert s.view(seat).turn.drawn == ()

    @pytest.mark.parametrize("name", VARIANTS)
    def test_legal_moves_on_own_turn_only(self, name: str) -> None:
        """The seat to move sees the state's legal moves; the others see none."""
        for s in states_of_a_hand(name, seed=3):
            for seat in range(s.rules.n):
                seen = list(s.view(seat).legal_moves())
                if seat == s.current_player:
                    assert seen == list(s.legal_moves())
                else:
                    assert seen == []

    def test_answer_phase_is_the_partners_turn(self) -> None:
        """While a partner answers 'may I go out?', the partner's view lists yes and no."""
        s = position(
            "classic", hands={0: "9C 9D 9H 5S", 2: "KC"}, melds={0: ["QH QS QD QC QH QS QD"]}
        ).apply("ask")
        assert [str(m) for m in s.view(2).legal_moves()] == ["yes", "no"]
        assert list(s.view(0).legal_moves()) == []

    def test_partner_answering_does_not_see_the_askers_draw(self) -> None:
        """While the partner answers, the cards the asker drew stay the asker's to see."""
        s = position(
            "classic", hands={0: "9C 9D 9H", 2: "KC"}, melds={0: ["QH QS QD QC QH QS QD"]},
            phase="draw", stock="4C 5S",
        ).apply("draw").apply("ask")
        assert s.phase_name == "answer" and s.current_player == 2
        assert [str(Card(c)) for c in s.view(0).turn.drawn] == ["5S"]
        assert s.view(2).turn.drawn == ()
        assert [str(m) for m in s.view(2).legal_moves()] == ["yes", "no"]

    def test_apply_looks_ahead(self) -> None:
        """view.apply plays a move on the stand-in state."""
        s = position("classic", hands=["9C 9D 5S"], melds={0: ["QH QS QD"]})
        after = s.view(0).apply("discard 5")
        assert after.current_player == 1
        assert [str(c) for c in after.hands[0]] == ["9C", "9D"]

    @pytest.mark.parametrize("seat", [-1, 4, "0", None])
    def test_bad_seat(self, seat: object) -> None:
        """A seat outside the table is refused."""
        s = canasta.new_game(canasta.load_variant("classic"), seed=1)
        with pytest.raises(CanastaError, match="seat must be 0 to 3"):
            s.view(seat)  # type: ignore[arg-type]

    def test_view_holds_no_seed(self) -> None:
        """Nothing in a view reveals the deal's seed (it would reveal every hidden card)."""
        seed = 987_654_321_123
        s = canasta.new_game(canasta.load_variant("classic"), seed=seed)

        def values(x: object) -> list[object]:
            if isinstance(x, dict):
                return [v for item in x.values() for v in values(item)]
            if isinstance(x, (list, tuple)):
                return [v for item in x for v in values(item)]
            return [x]

        assert seed not in values(as_data(s.view(0)))


def eager_stand_in(s: GameState, seat: int) -> GameState:
    """The stand-in state a view of ``seat`` held when views were built eagerly: the
    reference the lazy view must equal (hidden cards replaced by unseen ones)."""
    t = s.turn
    own_turn = seat == (t.asker if s.phase == ANSWER else s.current)
    turn = t if own_turn else Turn(t.took_pile, t.melded, t.points, (), t.asked, t.asker, (), t.played,
                                   (), t.backs)
    seen = Counter(chain(s.hands_[seat], s.pile_, *s.red_threes_, turn.pending,
                         *(m.cards for side in s.melds_ for m in side)))
    deck = deck_counts(s.variant.deck.decks, s.variant.deck.jokers_per_deck)
    unseen = chain.from_iterable(repeat(c, n - seen[c]) for c, n in deck.items())
    hands, feet, talons, stock = stand_in_cards(
        seat, unseen, s.hands_[seat], [len(h) for h in s.hands_], [len(f) for f in s.feet_],
        [len(p) for p in s.talons_], len(s.stock_),
    )
    return GameState(
        s.variant, 0, s.hand_number, s.dealer, s.scores, s.history, s.phase, s.current,
        hands, feet, stock, s.pile_, s.melds_, s.red_threes_, s.opened,
        s.melded_before, turn, s.end, s.rules, talons, s.asked_before,
    )


def eager_fields(s: GameState, seat: int) -> dict[str, object]:
    """The public fields of the eager view of ``seat``, as it built them."""
    stand_in = eager_stand_in(s, seat)
    return dict(
        variant_name=s.variant.name, seat=seat, hand_number=s.hand_number, dealer=s.dealer,
        scores=s.scores, phase=s.phase, current=s.current, hand_codes=s.hands_[seat],
        hand_sizes=tuple(len(h) for h in s.hands_), foot_sizes=tuple(len(f) for f in s.feet_),
        stock_size=len(s.stock_), pile_codes=s.pile_, melds=s.melds_,
        red_three_codes=s.red_threes_, opened=s.opened, melded_before=s.melded_before,
        turn=stand_in.turn, end=s.end, talon_sizes=tuple(len(p) for p in s.talons_),
        asked_before=s.asked_before,
    )


_PROFILES = {name: canasta.load_variant(name) for name in VARIANTS}


class TestLazyView:
    """A view builds its stand-in states on first use; it holds what the eager view held."""

    @settings(max_examples=examples(60), deadline=None, database=None)
    @given(name=st.sampled_from(VARIANTS), play=playouts(), every=st.integers(1, 9))
    def test_lazy_view_equals_the_eager_view(self, name: str, play: tuple[int, tuple[int, ...]], every: int) -> None:
        """At positions of a bundled profile's hand, for every seat: the same fields, the same
        stand-in state once it is asked for, the same moves and pile freezing as the full state."""
        seed, choices = play
        s = canasta.new_game(_PROFILES[name], seed=seed)
        rng = random.Random(seed)
        for i in range(400):
            if s.is_hand_over:
                break
            legal = s.legal_moves()
            if i % every == 0:
                for seat in range(s.rules.n):
                    self._check(s, seat, legal)
            pick = choices[i] if i < len(choices) else rng.randrange(1 << 16)
            s = s.apply(legal[pick % len(legal)])

    @staticmethod
    def _check(s: GameState, seat: int, legal: Sequence[Move]) -> None:
        view = s.view(seat)
        fields = {f.name: getattr(view, f.name) for f in attrs.fields(SeatView) if not f.name.startswith("_")}
        assert fields == eager_fields(s, seat)
        # the seat's moves and the pile's freezing from the cheap state, before any stand-in
        own = seat == s.current
        assert list(view.legal_moves()) == (list(legal) if own else [])
        assert view._stand_in is None
        sides = range(len(s.rules.sides))
        assert [view.pile_frozen_for(x) for x in sides] == [s.pile_frozen_for(x) for x in sides]
        # the stand-in a look-ahead starts from: built once, card for card the eager one
        stand_in = view._state
        assert stand_in is view._state
        reference = eager_stand_in(s, seat)
        assert stand_in == reference
        # every field, the engine's private slots aside (what it worked out: no part of the value)
        public = attrs.filters.exclude(*(a for a in attrs.fields(GameState) if a.name.startswith("_")))
        assert attrs.asdict(stand_in, recurse=False, filter=public) == attrs.asdict(reference, recurse=False, filter=public)
        assert list(view.legal_moves()) == list(reference.legal_moves() if own else [])

    def test_a_view_read_back_keeps_its_stand_in(self) -> None:
        """A view read from JSON holds the stand-in the reader built, and lists the same moves."""
        s = states_of_a_hand("classic", seed=9, every=11)[2]
        view = s.view(s.current)
        back = canasta.from_json(canasta.to_json(view), SeatView)
        assert back == view
        assert back._stand_in is not None
        assert back._stand_in.hands_ == view._state.hands_
        assert list(back.legal_moves()) == list(view.legal_moves()) == list(s.legal_moves())


class TestRepr:
    """repr of views and of the melds they hold: cards as text, not codes."""

    def test_meld_group_shows_its_cards(self) -> None:
        """A meld on the table reads <MeldGroup RANK: CARDS>, naturals first, then wild cards."""
        s = position("classic", hands={0: "4C 5C 6C"}, melds={0: ["KH KS 2C", "2D 2H JK"]}, phase="play")
        natural, wild = s.melds[0]
        assert repr(natural) == "<MeldGroup K: KH KS 2C>"
        assert repr(wild) == "<MeldGroup wild: 2D 2H JK>"

    def test_hand_built_meld_group_with_no_cards_in_it(self) -> None:
        """Codes that are no cards: the fields are shown, and repr does not fail."""
        group = canasta.MeldGroup(99, (200,), 1, 0)
        assert repr(group) == "MeldGroup(rank=99, cards=(200,), naturals=1, wilds=0)"

    def test_view_shows_what_the_seat_sees(self) -> None:
        """The view's repr names the seat, its cards, the pile and the melds as text, and no other hand."""
        s = position("classic", hands={0: "4C 5C 6C", 1: "9H 9S"}, melds={1: ["KH KS 2C"]},
                     pile="7D 8S", phase="play")
        text = repr(s.view(0))
        assert text.startswith("<SeatView classic seat=0 hand=0 to_move=0 phase=play ")
        assert "cards='4C 5C 6C'" in text and "pile='7D 8S'" in text
        assert text.endswith(" melds=([], [<MeldGroup K: KH KS 2C>])>")
        assert "9H" not in text and "hand_codes" not in text
