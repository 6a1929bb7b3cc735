"""Regression tests for what fuzzing the public API found (hostile moves, text,
records, views and profiles): each case once crashed, was accepted wrongly or
dead-ended, and must now be refused cleanly or play on."""

from __future__ import annotations

import contextlib
import json
import random

import attrs
import pytest

import canasta
from canasta.engine.moves import LayThree, MeldSequence
from canasta.io.record import RecordError
from canasta.limits import MAX_MOVE_CHARS
from canasta.variant.loading import variant_to_dict


def _play(v: canasta.Variant, seed: int, moves: int) -> canasta.GameState:
    """``moves`` random moves of the game ``new_game(v, seed)``, asserting none is a dead end."""
    s, rng = canasta.new_game(v, seed), random.Random(seed)
    for n in range(moves):
        if s.is_game_over:
            break
        legal = s.legal_moves()
        assert legal, f"seed {seed}, move {n}: no legal move in phase {s.phase_name}"
        s = s.apply(rng.choice(legal))
    return s


@pytest.mark.parametrize(
    ("name", "move", "field"),
    [
        ("samba", canasta.Meld((5, 5, 5), None), "Meld.suits"),
        ("classic", canasta.Meld((5, 5, 5), ""), "Meld.suits"),
        ("classic-2p", canasta.TakePile("pair", 0, 9), "TakePile.naturals"),
        ("classic-2p", canasta.TakePile("pair", 0, {}), "TakePile.naturals"),
        ("classic-2p", canasta.TakePile("pair", 2), "TakePile.wild"),
        ("modern-american", LayThree(1.0), "LayThree.kind"),  # type: ignore[arg-type]
        ("classic", canasta.Discard(4, False, "H"), "suits do not matter"),  # type: ignore[arg-type]
        ("samba", MeldSequence(0, 4, 6, (), 0), "MeldSequence"),  # type: ignore[arg-type]
    ],
)
def test_a_move_with_a_junk_field_is_refused_by_name(name: str, move: canasta.Move, field: str) -> None:
    """A hand-built move with a field of the wrong type or range is refused, naming the
    field, by apply and is_legal alike; the state is unchanged."""
    s = canasta.new_game(canasta.load_variant(name), 1)
    if s.phase_name == "draw" and not isinstance(move, (canasta.TakePile, LayThree)):
        s = s.apply("draw")
    before = canasta.to_json(s)
    with pytest.raises(canasta.IllegalMoveError, match=field):
        s.apply(move)
    assert not s.is_legal(move)
    assert canasta.to_json(s) == before


@pytest.mark.parametrize(
    "text", ["add K:\u00b2 K", "add K:" + "9" * 5000 + " K", "take layoff \u0662nd", "discard " + "9" * 100_000]
)
def test_hostile_move_text_is_a_short_notation_error(text: str) -> None:
    """Digits other than 0 to 9, huge numbers and huge text give a NotationError of a
    few lines, never a bare ValueError."""
    with pytest.raises(canasta.NotationError) as info:
        canasta.parse_move(text)
    assert len(str(info.value)) < 400
    s = canasta.new_game(canasta.load_variant("classic"), 0)
    with pytest.raises(canasta.NotationError):
        s.apply(text)


def test_move_text_at_the_limit_is_read() -> None:
    """Text up to MAX_MOVE_CHARS is parsed (padding is whitespace); one more is refused."""
    assert str(canasta.parse_move("draw" + " " * (MAX_MOVE_CHARS - 4))) == "draw"
    with pytest.raises(canasta.NotationError, match="longer than"):
        canasta.parse_move("draw" + " " * (MAX_MOVE_CHARS - 3))


@pytest.mark.parametrize("path", [None, 5, b"game.rec"])
def test_read_record_of_no_path(path: object) -> None:
    """read_record of something that is no path raises RecordError."""
    with pytest.raises(RecordError, match="path"):
        canasta.read_record(path)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", canasta.variant_names())
def test_looking_ahead_from_a_view_never_crashes(name: str) -> None:
    """A seat's view applied past its turn lists the next seat's moves from stand-in
    cards that a deal could hold (no kind beyond the decks), and its JSON round trip
    rebuilds the same stand-in."""
    v = canasta.load_variant(name)
    s, rng = canasta.new_game(v, 3), random.Random(3)
    looked = 0
    for _ in range(160):
        if s.is_game_over:
            break
        view = s.view(s.current_player)
        mine = view.legal_moves()
        after = view.apply(rng.choice(mine))
        if not after.is_hand_over:
            after.legal_moves()  # raised IndexError with placeholder hands
            looked += 1
        back = canasta.from_json(canasta.to_json(view), canasta.SeatView)
        assert back.legal_moves() == mine
        s = s.apply(rng.choice(s.legal_moves()))
    assert looked > 20


def test_stand_in_holds_no_more_of_a_kind_than_the_decks() -> None:
    """The stand-in of a view holds, in all, each card at most as often as the decks do."""
    from collections import Counter

    v = canasta.load_variant("classic")
    s = _play(v, 5, 40)
    stand_in = s.view(s.current_player).apply(s.view(s.current_player).legal_moves()[0])
    every: Counter[int] = Counter()
    for group in (*stand_in.hands_, stand_in.stock_, stand_in.pile_, *stand_in.red_threes_):
        every.update(group)
    for side in stand_in.melds_:
        for m in side:
            every.update(m.cards)
    deck = Counter(int(c) for c in canasta.cards.build_deck(v.deck.decks, v.deck.jokers_per_deck))
    assert not every - deck


def test_wild_melds_need_the_new_meld_size_in_the_searches() -> None:
    """Brazilian with melds.min_naturals: 4 lays new wild melds of four cards; the searches
    knew three, and let a player meld into a turn they could not finish."""
    b = canasta.load_variant("brazilian")
    v = attrs.evolve(b, melds=attrs.evolve(b.melds, min_naturals=4))
    for seed in (12, 0, 1, 2):
        _play(v, seed, 1500)


def test_dead_ranks_with_sequences() -> None:
    """melds.dead_when_closed in Samba (sequences) plays on: a sequence closes no rank."""
    b = canasta.load_variant("samba")
    v = attrs.evolve(b, melds=attrs.evolve(b.melds, max_size=7, dead_when_closed=True))
    for seed in range(3):
        _play(v, seed, 1500)


def test_out_but_not_out_states_round_trip() -> None:
    """States of going_out.out_but_not_out with an empty hand are ones the engine reaches:
    from_json accepts them."""
    b = canasta.load_variant("classic-3p")
    v = attrs.evolve(b, going_out=attrs.evolve(b.going_out, out_but_not_out=True))
    s, rng = canasta.new_game(v, 0), random.Random(0)
    empty = 0
    for _ in range(2500):
        if s.is_game_over:
            break
        if not s.is_hand_over and not all(s.hands_):
            empty += 1
            assert canasta.from_json(canasta.to_json(s), canasta.GameState) == s
        s = s.apply(rng.choice(s.legal_moves()))
    assert empty, "no position with an empty hand was reached"


def test_red_threes_kept_in_hand_are_refused() -> None:
    """threes.red_laid_at_once: false is not played (a player could hold red 3s alone):
    new_game says so, and the checker reports C068."""
    b = canasta.load_variant("classic")
    v = attrs.evolve(b, threes=attrs.evolve(b.threes, red_laid_at_once=False))
    with pytest.raises(canasta.VariantError, match="red_laid_at_once"):
        canasta.new_game(v, 0)
    assert [d.code for d in canasta.check_variant(v) if d.severity == "error"] == ["C068"]


def test_a_state_of_a_variant_new_game_refuses_is_refused() -> None:
    """A state whose variant was edited into one the engine does not play is refused at
    its variant."""
    v = canasta.load_variant("modern-american-2p")
    doc = json.loads(canasta.to_json(canasta.new_game(v, 1)))
    doc["data"]["variant"] = variant_to_dict(v)
    doc["data"]["variant"]["sequences"]["allowed"] = True
    with pytest.raises(canasta.CanastaError, match=r"data\.variant.*natural_meld"):
        canasta.from_json(json.dumps(doc), canasta.GameState)


@pytest.mark.parametrize("key", ["wilds", "sequences", "canastas"])
def test_a_huge_integer_rank_from_code(key: str) -> None:
    """parse_variant of a mapping with a rank of 5000 digits raises VariantError."""
    huge = 10**5000
    data = {
        "wilds": {"ranks": [huge]},
        "sequences": {"low": huge},
        "canastas": {"rank_bonuses": [{"rank": huge, "points": 5}]},
    }
    with pytest.raises(canasta.VariantError, match="bits"):
        canasta.parse_variant({key: data[key]})


def _tampered_view(name: str, seed: int, edit: object) -> str | None:
    """The JSON of the first play-phase view of its own turn in ``new_game(name, seed)``
    where ``edit(data)`` returns True (having changed ``data``), or None."""
    s, rng = canasta.new_game(canasta.load_variant(name), seed), random.Random(seed)
    while not s.is_game_over:
        doc = json.loads(canasta.to_json(s.view(s.current_player)))
        if s.phase_name == "play" and edit(doc["data"]):  # type: ignore[operator]
            return json.dumps(doc)
        s = s.apply(rng.choice(s.legal_moves()))
    return None


def test_a_view_told_yes_out_of_nowhere_is_refused() -> None:
    """A view edited so that its own turn was told "yes" (with no way out) is refused:
    it would list no move on its seat's turn."""

    def told_yes(data: dict[str, object]) -> bool:
        turn = data["turn"]
        assert isinstance(turn, dict)
        turn["asked"], turn["asker"] = "yes", data["seat"]
        return True

    text = _tampered_view("bolivia", 0, told_yes)
    assert text is not None
    with pytest.raises(canasta.CanastaError, match=r"no legal move|turn"):
        canasta.from_json(text, canasta.SeatView)


def test_a_view_with_a_tampered_take_back_log_is_refused() -> None:
    """Hand and Foot: a card moved between the steps of a view's take-back log is refused
    (taking the step back raised ValueError on the stand-in)."""
    refused = 0
    for seed in range(4):

        def moved(data: dict[str, object]) -> bool:
            turn = data["turn"]
            assert isinstance(turn, dict)
            laid = turn.get("laid")
            if not laid or len(laid) < 2 or not laid[0]["cards"]:
                return False
            laid[-1]["pending"].append(laid[0]["cards"].pop())
            return True

        text = _tampered_view("hand-and-foot", seed, moved)
        if text is None:
            continue
        try:
            view = canasta.from_json(text, canasta.SeatView)
        except canasta.CanastaError:
            refused += 1
        else:
            # the edit left a log that still leads back legally: taking back works or
            # is refused, never with another exception
            with contextlib.suppress(canasta.CanastaError):
                view.apply("back")
    assert refused
