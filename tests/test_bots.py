"""Tests of canasta.play.bots: the Bot protocol, RandomBot and GreedyBot."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import canasta
from canasta import Answer, Ask, Discard, Draw, Foot, GameState, GreedyBot, RandomBot, TakePile
from canasta.cards import parse_rank
from canasta.engine import KIND, hand_counts
from canasta.errors import CanastaError
from canasta.play.bots import BOTS, Bot, bot_names, make_bot
from canasta.play.simulate import simulate

BUNDLED = canasta.variant_names()


def playout(name: str, seed: int, bots: list[Bot]) -> Iterator[tuple[GameState, object]]:
    """Play one hand of ``name`` with ``bots`` (cycled over the seats); yield (state, move)."""
    v = canasta.load_variant(name)
    state = canasta.new_game(v, seed=seed)
    rng = random.Random(seed)
    seats = [bots[i % len(bots)] for i in range(v.players.count)]
    while not state.is_hand_over:
        seat = state.current_player
        move = seats[seat].choose(state.view(seat), rng)
        yield state, move
        state = state.apply(move)


class TestProtocol:
    """The Bot protocol and the registry of bundled bots."""

    @pytest.mark.parametrize("cls", [RandomBot, GreedyBot])
    def test_bots_follow_protocol(self, cls: type) -> None:
        """Both bundled bots are Bots with a short name."""
        bot = cls()
        assert isinstance(bot, Bot)
        assert bot.name in ("random", "greedy")

    def test_registry(self) -> None:
        """make_bot builds each registered bot; bot_names is sorted."""
        assert bot_names() == ["greedy", "random"]
        for name in BOTS:
            assert make_bot(name).name == name
        assert make_bot(" Greedy ").name == "greedy"

    def test_unknown_bot(self) -> None:
        """An unknown bot name is a CanastaError that lists the known names."""
        with pytest.raises(CanastaError, match="greedy, random"):
            make_bot("smart")

    def test_not_its_turn(self) -> None:
        """Asking a bot to move for a seat whose turn it is not is an error."""
        state = canasta.new_game(canasta.load_variant("classic"), seed=1)
        other = (state.current_player + 1) % 4
        with pytest.raises(CanastaError, match="no legal move"):
            GreedyBot().choose(state.view(other), random.Random(0))


class TestRandomBot:
    """RandomBot: uniform legal moves."""

    @pytest.mark.parametrize("name", BUNDLED)
    def test_moves_are_legal(self, name: str) -> None:
        """Every move of a random hand is one of the legal moves."""
        n = 0
        for state, move in playout(name, 3, [RandomBot()]):
            assert move in state.legal_moves()
            n += 1
        assert n > 10

    def test_uses_rng(self) -> None:
        """Different rng seeds give different choices from the same view."""
        state = canasta.new_game(canasta.load_variant("classic"), seed=1).apply("draw")
        view = state.view(state.current_player)
        picks = {str(RandomBot().choose(view, random.Random(i))) for i in range(40)}
        assert len(picks) > 1



def _risky_pile(state: canasta.GameState) -> bool:
    """Whether the pile's top card would start, from fewer than four in hand, a meld
    of a rank that costs a penalty left short of a canasta (scoring.incomplete_penalties)."""
    if not state.pile_:
        return False
    top = KIND[state.pile_[-1]]
    ranks = {parse_rank(p.rank) for p in state.variant.scoring.incomplete_penalties if p.penalty}
    side = state.side_of(state.current_player)
    started = any(m.rank == top for m in state.melds_[side])
    return top in ranks and not started and hand_counts(state.hands_[state.current_player])[top] < 4


class TestGreedyBot:
    """GreedyBot: legal, deterministic, and its main preferences."""

    @pytest.mark.parametrize("name", BUNDLED)
    def test_moves_are_legal(self, name: str) -> None:
        """Every greedy move in a hand against random bots is legal, and the hand ends."""
        moves = [(s, m) for s, m in playout(name, 5, [GreedyBot(), RandomBot()])]
        assert moves
        for state, move in moves:
            assert move in state.legal_moves()

    def test_deterministic(self) -> None:
        """The same view gives the same move, whatever the rng."""
        state = canasta.new_game(canasta.load_variant("classic"), seed=2).apply("draw")
        view = state.view(state.current_player)
        picks = {str(GreedyBot().choose(view, random.Random(i))) for i in range(10)}
        assert len(picks) == 1

    @pytest.mark.parametrize("name", BUNDLED)
    def test_preferences(self, name: str) -> None:
        """Takes the pile, picks up the foot and goes out whenever it may; never discards
        a wild card while it holds another card it may discard. The one pile it leaves:
        one whose top card would start a meld that costs a penalty unfinished (Modern
        American's aces and 7s) from fewer than four of the rank in hand; then it draws."""
        checked = 0
        for seed in range(3):
            for state, move in playout(name, seed, [GreedyBot()]):
                legal = state.legal_moves()
                if any(isinstance(m, TakePile) for m in legal):
                    if _risky_pile(state):
                        assert move == Draw()
                    else:
                        assert isinstance(move, TakePile)
                    checked += 1
                elif any(isinstance(m, Foot) for m in legal):
                    assert isinstance(move, Foot)
                    checked += 1
                elif any(isinstance(m, Discard) and m.out for m in legal):
                    assert isinstance(move, Discard) and move.out
                    checked += 1
                elif isinstance(move, Discard):
                    wild = state.rules.is_wild
                    if any(isinstance(m, Discard) and not wild[m.kind] for m in legal):
                        assert not wild[move.kind]
        assert checked > 0

    def test_black_three_discarded_first(self) -> None:
        """In classic, a plain discard with a black 3 in hand discards the black 3."""
        checked = 0
        for seed in range(6):
            for state, move in playout("classic", seed, [GreedyBot(), RandomBot()]):
                if state.current_player % 2:  # a random bot's seat
                    continue
                legal = state.legal_moves()
                only_discards = all(isinstance(m, Discard) and not m.out for m in legal)
                if only_discards and Discard(3) in legal:
                    assert move == Discard(3)
                    checked += 1
        assert checked > 0

    def test_asks_and_answers(self) -> None:
        """It asks its partner only when it cannot go out at once; an answer is yes or no."""
        asked = answered = 0
        for seed in range(6):
            for state, move in playout("classic", seed, [GreedyBot()]):
                if isinstance(move, Ask):
                    asked += 1
                    assert not any(isinstance(m, Discard) and m.out for m in state.legal_moves())
                if isinstance(move, Answer):
                    answered += 1
                    hand = state.hands[state.current_player]
                    if len(hand) <= 3:
                        assert move.yes
        assert asked == answered > 0


class TestStrength:
    """The greedy bot beats the random bot."""

    def test_greedy_beats_random_classic(self) -> None:
        """Over 20 one-hand games of classic (fixed seed) the greedy side wins most."""
        summary = simulate("classic", 20, ["greedy", "random"], seed=11, max_hands=1)
        assert summary.bot_win_rate("greedy").rate > 0.5
        assert summary.mean_hand_score(0) > summary.mean_hand_score(1)

    @pytest.mark.parametrize("name", [n for n in BUNDLED if n != "classic"])
    def test_greedy_beats_random_everywhere(self, name: str) -> None:
        """In every other bundled profile the greedy bot wins most of 6 one-hand games."""
        summary = simulate(name, 6, ["greedy", "random"], seed=12, max_hands=1)
        assert summary.bot_win_rate("greedy").wins > 3
