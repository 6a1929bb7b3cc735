"""canasta.observe: fixed-length observation vectors from a SeatView, int8 action masks."""

from __future__ import annotations

import random
import subprocess
import sys

import attrs
import pytest

import canasta
from budget import profiles
from canasta.engine import KIND, compile_rules
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


@pytest.mark.parametrize("name", profiles(NAMES))
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


@pytest.mark.parametrize("name", profiles(NAMES))
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


@pytest.mark.parametrize("name", profiles(NAMES))
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


@pytest.mark.parametrize("name", profiles(NAMES))
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
    with pytest.raises(canasta.CanastaError, match="this layout of 'classic'"):
        observe.observe_to_move(layout, canasta.ActionSpace(other.variant), other)
    with pytest.raises(canasta.CanastaError):
        observe.ObservationLayout("classic")  # type: ignore[arg-type]
    assert (observe.encode_view(other.view(1)) == observe.layout_of(other.variant).encode(other.view(1))).all()


def plain_encode(view: canasta.SeatView) -> bytes:
    """The observation of ``view`` built field by field from the layout's documentation, no memo.

    The reference for the memoized fast paths (``encode``, ``encode_state``):
    every element is computed afresh from the view's public fields, in the
    obvious way, and only then converted to float32.
    """
    v = view.variant
    layout = observe.layout_of(v)  # for the fields' offsets only
    r = compile_rules(v)
    n, me = layout.seats, view.seat
    seats = [(me + i) % n for i in range(n)]
    sides: list[int] = []
    for p in seats:
        if r.side_of[p] not in sides:
            sides.append(r.side_of[p])
    x = np.zeros(layout.size, dtype=np.float64)

    def put(name: str, values: list[float]) -> None:
        f = layout.field(name)
        assert len(values) == f.size, name
        x[f.offset:f.stop] = values

    def onehot(i: int, size: int) -> list[float]:
        return [1.0 if j == i else 0.0 for j in range(size)]

    def kinds(cards: tuple[int, ...]) -> list[float]:
        return [sum(1 for c in cards if KIND[c] == k) / 8 for k in range(1, 16)]

    def clip(value: float) -> float:
        return max(-1.0, min(1.0, value))

    t = view.turn
    put("phase", onehot(view.phase, 5))
    put("to_move", onehot((view.current - me) % n, n))
    put("dealer", onehot((view.dealer - me) % n, n))
    put("hand", kinds(view.hand_codes))
    suits = [0.0] * 44
    if r.seq_on:
        for c in view.hand_codes:
            if 4 <= c >> 2 <= 14:
                suits[((c >> 2) - 4) * 4 + (c & 3)] += 1 / 8
    put("hand_suits", suits)
    put("hand_sizes", [view.hand_sizes[p] / 100 for p in seats])
    put("foot_sizes", [view.foot_sizes[p] / 100 for p in seats])
    put("stock_size", [view.stock_size / 100])
    put("pile_size", [len(view.pile_codes) / 100])
    pile = view.pile_codes
    put("pile_top", onehot(KIND[pile[-1]] - 1, 15) if pile else [0.0] * 15)
    put("pile_cards", kinds(pile))
    put("pile_top_suit", onehot(pile[-1] & 3, 4) if pile and KIND[pile[-1]] != 15 else [0.0] * 4)
    put("pile_frozen", [float(view.pile_frozen), float(view.pile_frozen_for(r.side_of[me]))])
    slots = [0, 2, 3, *range(4, 15), 16]  # wild melds, 2s, black 3s, 4s ... As, sequences
    melds: list[float] = []
    canastas: list[float] = []
    for side in sides:
        block = [0.0] * 60
        kinds_of = dict.fromkeys(("natural", "mixed", "wild", "sequence"), 0.0)
        for m in view.melds[side]:
            i = slots.index(m.rank) * 4
            kind = r.canasta_kind(m)
            block[i:i + 4] = [block[i] + 1 / 4, block[i + 1] + m.naturals / 8, block[i + 2] + m.wilds / 8,
                              block[i + 3] + (1 / 4 if kind else 0.0)]
            if kind:
                kinds_of[kind] += 1 / 4
        melds += block
        canastas += list(kinds_of.values())
    put("melds", melds)
    put("canastas", canastas)
    put("red_threes", [len(view.red_three_codes[side]) / 4 for side in sides])
    put("opened", [float(view.opened[side]) for side in sides])
    put("opening_need", [0.0 if view.opened[side] else v.opening_minimum(view.scores[side], view.hand_number) / 100
                         for side in sides])
    put("turn", [float(t.took_pile), float(t.melded), t.points / 100, len(t.pending) / 8, *onehot(t.asked, 3),
                 *(onehot((t.asker - me) % n, n) if t.asker >= 0 else [0.0] * n), len(t.drawn) / 8])
    put("scores", [clip(view.scores[side] / 10_000) for side in sides])
    end = view.end
    put("hand_scores", [clip(end.hand_scores[side] / 10_000) if end is not None and end.breakdowns else 0.0
                        for side in sides])
    put("hand_number", [min(view.hand_number / 16, 1.0)])
    return x.astype(np.float32).tobytes()


def _positions(v: canasta.Variant, seed: int, hands: int) -> list[canasta.GameState]:
    """Every state of ``hands`` random hands of ``v`` (the hand ends included), in play order."""
    rng = random.Random(seed)
    s = canasta.new_game(v, seed=seed)
    out = [s]
    while s.hand_number < hands and not s.is_game_over:
        legal = s.legal_moves()
        s = s.apply(legal[rng.randrange(len(legal))])
        out.append(s)
    return out


@pytest.mark.parametrize("name", profiles(NAMES))
def test_fast_paths_are_the_plain_encoding(name: str) -> None:
    """encode, encode_state and observe_to_move give the plain field-by-field vector byte for
    byte, whatever the order the positions come in (in play order, as an environment asks,
    and shuffled, which the memos of the table, the pile and the turn must survive), for
    every seat."""
    v = canasta.load_variant(name)
    space = canasta.ActionSpace(v)
    states = _positions(v, 11, 2)
    rng = random.Random(5)
    shuffled = rng.sample(states, len(states))
    for order in (states, shuffled):
        layout = observe.ObservationLayout(v)  # fresh memos for each order
        for i, s in enumerate(order):
            seats = range(layout.seats) if i % 4 == 0 else (s.current, rng.randrange(layout.seats))
            for seat in seats:
                want = plain_encode(s.view(seat))
                assert layout.encode_state(s, seat).tobytes() == want, (name, i, seat)
                assert layout.encode(s.view(seat)).tobytes() == want, (name, i, seat)
            # the environments' call for the seat to move: the same vector, the mask of action_mask
            vector, mask = observe.observe_to_move(layout, space, s, space.size + 1)
            assert vector.tobytes() == plain_encode(s.view(s.current)), (name, i)
            assert mask.tobytes() == observe.action_mask(space, s, space.size + 1).tobytes(), (name, i)


@pytest.mark.parametrize("name", ["classic", "classic-3p", "hand-and-foot", "samba"])
def test_mover_observer_is_observe_to_move(name: str) -> None:
    """mover_observer gives observe_to_move's vector and mask, byte for byte, on a game's
    positions (the game's end included), and checks its arguments once."""
    v = canasta.load_variant(name)
    space = canasta.ActionSpace(v)
    layout = observe.ObservationLayout(v)
    observer = observe.mover_observer(layout, space, space.size + 1)
    for s in _positions(v, 3, 2):
        vector, mask = observer(s)
        want_vector, want_mask = observe.observe_to_move(observe.ObservationLayout(v), space, s, space.size + 1)
        assert vector.tobytes() == want_vector.tobytes()
        assert mask.tobytes() == want_mask.tobytes() and mask.dtype == np.int8
    with pytest.raises(canasta.CanastaError):
        observe.mover_observer(layout, canasta.ActionSpace(canasta.load_variant("samba" if name != "samba" else "classic")))
    with pytest.raises(canasta.CanastaError):
        observe.mover_observer(layout, space, space.size - 1)
