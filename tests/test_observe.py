"""canasta.observe: fixed-length observation vectors from a SeatView, int8 action masks."""

from __future__ import annotations

import random
import subprocess
import sys

import attrs
import pytest

import canasta
from canasta.engine import KIND
from extras import need

np = need("numpy")
observe = pytest.importorskip("canasta.observe")

NAMES = canasta.variant_names()


def play(variant: canasta.Variant, seed: int, moves: int) -> canasta.GameState:
    rng = random.Random(seed)
    s = canasta.new_game(variant, seed=seed)
    for _ in range(moves):
        if s.is_hand_over:
            break
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])
    return s


def test_import_canasta_does_not_import_numpy() -> None:
    """The core package needs attrs, cattrs and PyYAML only."""
    code = "import sys, canasta, canasta.adapters, canasta.adapters.common; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("name", NAMES)
def test_vectors_fit_the_layout_and_bounds(name: str) -> None:
    """Every seat's vector has the layout's size, dtype and bounds, all through random hands."""
    v = canasta.load_variant(name)
    layout = observe.layout_of(v)
    low, high = layout.low, layout.high
    for seed in range(3):
        rng = random.Random(seed)
        s = canasta.new_game(v, seed=seed)
        while not s.is_hand_over:
            for seat in range(layout.seats):
                x = layout.encode(s.view(seat))
                assert x.dtype == np.float32 and x.shape == (layout.size,)
                assert (x >= low).all() and (x <= high).all()
            legal = s.legal_moves()
            s = s.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", NAMES)
def test_encode_state_is_encode_of_the_view(name: str) -> None:
    """The fast path gives the view's vector byte for byte, for every seat of every position."""
    v = canasta.load_variant(name)
    layout = observe.layout_of(v)
    games = [canasta.new_game(v, seed=seed) for seed in range(3)]
    rng = random.Random(7)
    for s in games:
        while True:
            for seat in range(layout.seats):
                assert layout.encode_state(s, seat).tobytes() == layout.encode(s.view(seat)).tobytes()
            if s.is_game_over:
                break
            legal = s.legal_moves()
            s = s.apply(legal[rng.randrange(len(legal))])
            if s.hand_number > 1:
                break
    with pytest.raises(canasta.CanastaError):
        layout.encode_state(s, layout.seats)


def test_layout_is_documented_field_by_field() -> None:
    """Fields tile the vector without gaps; describe() names each one."""
    layout = observe.layout_of(canasta.load_variant("classic"))
    offset = 0
    for f in layout.fields:
        assert f.offset == offset and f.size > 0 and f.doc
        offset = f.stop
    assert offset == layout.size
    text = layout.describe()
    for name in ("hand", "melds", "pile_top", "pile_frozen", "red_threes", "opening_need",
                 "canastas", "stock_size", "phase", "scores"):
        assert name in text
        layout.field(name)
    with pytest.raises(canasta.CanastaError):
        layout.field("nope")


def test_same_shape_same_layout() -> None:
    """Profiles with as many seats and sides share the fields and offsets."""
    a = observe.layout_of(canasta.load_variant("classic"))
    b = observe.layout_of(canasta.load_variant("hand-and-foot"))
    c = observe.layout_of(canasta.load_variant("draw-two"))
    assert [(f.name, f.offset, f.size) for f in a.fields] == [(f.name, f.offset, f.size) for f in b.fields]
    assert [(f.name, f.offset, f.size) for f in a.fields] == [(f.name, f.offset, f.size) for f in c.fields]
    assert observe.layout_of(canasta.load_variant("classic-2p")).size != a.size


def test_own_hand_is_counted_by_kind() -> None:
    v = canasta.load_variant("classic")
    s = canasta.new_game(v, seed=5)
    layout = observe.layout_of(v)
    f = layout.field("hand")
    x = layout.encode(s.view(0))[f.offset:f.stop] * observe.CARD_SCALE
    counts = [0] * 15
    for c in s.hands_[0]:
        counts[KIND[c] - 1] += 1
    assert np.allclose(x, counts)


def _swap_hidden(s: canasta.GameState, seat: int, other: int) -> canasta.GameState:
    """The same position with a card of ``other``'s hand swapped for a stock card of another kind."""
    hand = list(s.hands_[other])
    stock = list(s.stock_)
    for i, c in enumerate(hand):
        for j, d in enumerate(stock):
            if KIND[c] != KIND[d] and KIND[d] != 1:
                hand[i], stock[j] = d, c
                return attrs.evolve(s, hands_=tuple(tuple(h) if p != other else tuple(sorted(hand))
                                                    for p, h in enumerate(s.hands_)),
                                    stock_=tuple(stock))
    raise AssertionError("no card to swap")


@pytest.mark.parametrize("name", NAMES)
def test_hidden_cards_never_enter(name: str) -> None:
    """Other hands' cards and the stock's order leave a seat's vector byte-identical."""
    v = canasta.load_variant(name)
    layout = observe.layout_of(v)
    for seed, moves in ((1, 0), (2, 25), (3, 60)):
        s = play(v, seed, moves)
        n = layout.seats
        for seat in range(n):
            other = (seat + 1) % n
            t = _swap_hidden(s, seat, other)
            assert t.hands_[other] != s.hands_[other]
            shuffled = attrs.evolve(t, stock_=tuple(reversed(t.stock_)))
            base = layout.encode(s.view(seat)).tobytes()
            assert layout.encode(t.view(seat)).tobytes() == base
            assert layout.encode(shuffled.view(seat)).tobytes() == base
            # the environments' fast path, which reads the state itself, too
            assert layout.encode_state(t, seat).tobytes() == base
            assert layout.encode_state(shuffled, seat).tobytes() == base
            # while the seat's own hand does enter it
            assert layout.encode(t.view(other)).tobytes() != layout.encode(s.view(other)).tobytes()


@pytest.mark.parametrize("name", NAMES)
def test_action_mask_is_int8_and_matches_legal_ids(name: str) -> None:
    v = canasta.load_variant(name)
    space = canasta.ActionSpace(v)
    s = play(v, 4, 30)
    mask = observe.action_mask(space, s)
    assert mask.dtype == np.int8 and mask.shape == (space.size,)
    assert list(np.flatnonzero(mask)) == space.legal_ids(s)
    assert (observe.action_mask(space, s.view(s.current)) == mask).all()
    idle = (s.current + 1) % v.players.count
    assert not observe.action_mask(space, s.view(idle)).any()


def test_wrong_inputs_are_refused() -> None:
    classic = canasta.load_variant("classic")
    layout = observe.layout_of(classic)
    other = canasta.new_game(canasta.load_variant("classic-2p"), seed=1)
    with pytest.raises(canasta.CanastaError):
        layout.encode(other.view(0))
    with pytest.raises(canasta.CanastaError):
        layout.encode(other)  # type: ignore[arg-type]
    with pytest.raises(canasta.CanastaError):
        observe.action_mask(canasta.ActionSpace(classic), other)
    with pytest.raises(canasta.CanastaError):
        observe.ObservationLayout("classic")  # type: ignore[arg-type]
    assert (observe.encode_view(other.view(1)) == observe.layout_of(other.variant).encode(other.view(1))).all()
