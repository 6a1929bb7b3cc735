"""A game in the terminal: one person against bots, in plain text.

:func:`play` reads moves from an input stream and writes the table to an output
stream, so a test (or another front end) can drive it::

    import io
    from canasta.play.terminal import play

    status = play("classic", seed=7, stdin=io.StringIO("1\\n" * 500), stdout=io.StringIO())

Each time it is the person's turn the table is drawn: scores, stock, pile, every
side's melds and red 3s, the other hands' sizes, the person's hand grouped by rank
and the legal moves, numbered. The person types a number or move notation
(``meld 7 7 2``, ``discard 9``); ``q`` quits. Bots' moves are printed one per line.
"""

from __future__ import annotations

import io
import os
import random
import sys
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TextIO

from canasta.cards import Card
from canasta.engine import new_game, opening_minimum
from canasta.engine.moves import Move, kind_name
from canasta.engine.state import ANSWER, GameState, MeldGroup
from canasta.errors import CanastaError, IllegalMoveError, NotationError
from canasta.faces import ansi_cards, hand_groups, use_colour
from canasta.io.record import RecordedGame
from canasta.play.bots import Bot, make_bot
from canasta.play.simulate import printable, save_record
from canasta.variant.model import Variant

__all__ = ["QUIT_WORDS", "play", "read_move", "render_hand_end", "render_table"]

#: Words that quit the game at the move prompt.
QUIT_WORDS = frozenset({"q", "quit", "exit"})
#: Longest input line read at the move prompt; a longer one is refused whole.
MAX_LINE = 4096
#: Most characters of an input line echoed back (see :func:`read_move`).
ECHO_CHARS = 80

_RULE = "-" * 72


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _cards(cards: Sequence[int], wilds: Collection[str] = (), colour: bool = False) -> str:
    return ansi_cards([Card(c) for c in cards], wilds, colour)


def _group_hand(hand: Sequence[int], is_wild: Sequence[bool], wilds: Collection[str] = (),
                colour: bool = False) -> str:
    """The hand sorted by rank, wild cards last, one group per rank: ``4: 4C 4D   K: KS``."""
    groups = hand_groups(hand, is_wild)
    return "   ".join(f"{label}: {_cards(cs, wilds, colour)}" for label, cs in groups.items()) or "(empty)"


def _meld_line(state: GameState, meld: MeldGroup, colour: bool = False) -> str:
    name = "wild" if meld.rank == 0 else kind_name(meld.rank)
    kind = state.canasta_kind(meld)
    what = f"{kind} canasta" if kind else f"{meld.wilds} wild" if meld.wilds else "natural"
    cards = sorted(meld.cards, key=lambda c: (state.rules.is_wild[c >> 2], c))
    return f"{name:>4} x{meld.size:<2} {what:<17} {_cards(cards, state.variant.wilds.ranks, colour)}"


def _side_label(state: GameState, side: int, me: int) -> str:
    seats = "+".join(str(s) for s in state.sides[side])
    you = "you, " if me in state.sides[side] else ""
    return f"side {side} ({you}seat{'s' if len(state.sides[side]) > 1 else ''} {seats})"


def _moves_block(moves: Sequence[Move]) -> str:
    cells = [f"{i:>3}. {m}" for i, m in enumerate(moves, 1)]
    width = max(len(c) for c in cells) + 2
    per_line = max(1, 72 // width)
    lines = []
    for start in range(0, len(cells), per_line):
        lines.append("".join(c.ljust(width) for c in cells[start:start + per_line]).rstrip())
    return "\n".join(lines)


def render_table(state: GameState, seat: int, colour: bool = False) -> str:
    """The table as ``seat`` may see it, with that seat's legal moves numbered.

    Args:
        state: the game.
        seat: the person's seat.
        colour: colour red suits and mark wild cards with terminal escapes
            (:func:`canasta.faces.ansi_card`); without it, plain text.

    Returns:
        Several lines of text.
    """
    wilds = state.variant.wilds.ranks
    view = state.view(seat)
    me_side = state.side_of(seat)
    v = state.variant
    out = [_RULE]
    out.append(
        f"{printable(v.title)} - hand {state.hand_number + 1} - seat {state.current_player} to move "
        f"({state.phase_name})"
    )
    out.append(
        "Scores   "
        + "   ".join(f"{_side_label(state, i, seat)}: {x}" for i, x in enumerate(state.scores))
    )
    top = state.pile_top
    if state.pile_frozen:
        frozen = "frozen"
    elif state.pile_frozen_for(me_side):
        frozen = "frozen for your side (not yet opened)"
    else:
        frozen = "not frozen"
    pile = (
        f"top {_cards((top,), wilds, colour)}, {_n(state.pile_size, 'card')}, {frozen}"
        if top is not None else "empty"
    )
    out.append(f"Stock    {_n(state.stock_size, 'card')}      Pile   {pile}")
    if not view.opened[me_side]:
        out.append(f"Opening  your side needs {opening_minimum(state, me_side)} points to open")
    out.append("Melds")
    for side, melds in enumerate(state.melds):
        out.append(f"  {_side_label(state, side, seat)}:" + ("" if melds else " none"))
        for meld in melds:
            out.append("    " + _meld_line(state, meld, colour))
    # where black 3s are laid out too they share the zone: the label says so
    out.append(
        ("3s laid  " if state.variant.threes.black_laid_at_once else "Red 3s   ")
        + "   ".join(
            f"side {i}: {_cards(r, wilds, colour) if r else '-'}" for i, r in enumerate(state.red_threes)
        )
    )
    others = [
        f"seat {i}: {n}" + (f" (+foot {view.foot_sizes[i]})" if view.foot_sizes[i] else "")
        for i, n in enumerate(view.hand_sizes)
        if i != seat
    ]
    out.append("Cards    " + ", ".join(others))
    foot = f" (+foot {_n(view.foot_sizes[seat], 'card')})" if view.foot_sizes[seat] else ""
    out.append(f"Your hand, {_n(len(view.hand_codes), 'card')}{foot}")
    out.append("  " + _group_hand(view.hand_codes, state.rules.is_wild, wilds, colour))
    if state.phase == ANSWER:
        out.append(f"Seat {state.turn.asker} asks: may I go out?")
    moves = state.legal_moves()
    if moves:
        out.append("Moves")
        out.append(_moves_block(moves))
    return "\n".join(out)


def render_hand_end(state: GameState, seat: int) -> str:
    """How the hand ended and each side's score breakdown.

    Args:
        state: a state whose hand is over.
        seat: the person's seat (to mark their side).

    Returns:
        Several lines of plain text.
    """
    end = state.end
    if end is None:
        return ""
    if end.reason == "out":
        how = f"seat {end.seat} went out" + (" concealed" if end.concealed else "")
    elif end.reason == "special":
        hand = state.rules.special_by_name[end.special]
        how = f"seat {end.seat} laid the special hand {hand.label}" + (
            ", which wins the game" if hand.wins_game else ""
        )
    else:
        how = "the stock ran out"
    out = [_RULE, f"Hand {state.hand_number + 1} over: {how}."]
    for side, breakdown in enumerate(end.breakdowns):
        out.append("")
        out.append(f"{_side_label(state, side, seat)}")
        out.append(str(breakdown))
    out.append("")
    out.append(
        "Scores   "
        + "   ".join(f"{_side_label(state, i, seat)}: {x}" for i, x in enumerate(state.scores))
    )
    return "\n".join(out)


def read_move(
    state: GameState, stdin: TextIO, stdout: TextIO, prompt: str = "Your move",
    echo: bool = False,
) -> Move | None:
    """Ask for a move until a legal one is typed.

    Accepts a move's number in ``state.legal_moves()`` or its notation; an illegal
    move shows the rule that refuses it and asks again.

    Args:
        state: the game; it is the person's turn.
        stdin: where to read lines from.
        stdout: where to write prompts and refusals.
        prompt: the prompt's first words.
        echo: write each line read after the prompt, as a terminal would show
            it typed; for input that is not a terminal (a file, a pipe), so
            that the output reads as a transcript.

    Returns:
        The legal move, or ``None`` when the person quits or the input ends.
    """
    moves = state.legal_moves()
    while True:
        stdout.write(f"{prompt} (1-{len(moves)} or notation, q quits): ")
        stdout.flush()
        line = stdin.readline(MAX_LINE)
        if not line:
            stdout.write("(end of input)\n")
            return None
        if echo:
            shown = line.rstrip("\r\n")
            cut = len(shown) > ECHO_CHARS
            stdout.write(f"{printable(shown[:ECHO_CHARS])}{'...' if cut else ''}\n")
        if len(line) >= MAX_LINE and not line.endswith("\n"):
            while (rest := stdin.readline(MAX_LINE)) and not rest.endswith("\n"):
                pass  # skip the rest of the line
            stdout.write(f"That line is longer than {MAX_LINE} characters; no move is that long.\n")
            if not rest:
                stdout.write("(end of input)\n")
                return None
            continue
        text = line.strip()
        if not text:
            continue
        if text.lower() in QUIT_WORDS:
            return None
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(moves):
                return moves[n - 1]
            stdout.write(f"There is no move {n}: type 1 to {len(moves)}.\n")
            continue
        try:
            move = state.parse_move(text)
            state.apply(move)
        except IllegalMoveError as exc:
            stdout.write(f"Refused: {printable(exc.reason)}.\n")
            continue
        except NotationError as exc:
            stdout.write(f"{printable(exc)}\n")
            continue
        return move


def _is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (which shows what is typed itself)."""
    try:
        return stream.isatty()
    except (OSError, ValueError):  # closed, or no file behind it
        return False


def _seat_bots(names: Sequence[str] | str, n: int, person: int) -> dict[int, Bot]:
    if isinstance(names, str):
        names = [x for x in names.split(",") if x.strip()]
    names = list(names) or ["greedy"]
    others = [s for s in range(n) if s != person]
    return {s: make_bot(names[i % len(names)]) for i, s in enumerate(others)}


def play(
    variant: Variant | str,
    seed: int | None = None,
    seat: int = 0,
    bots: Sequence[str] | str = "greedy",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    record: str | os.PathLike[str] | None = None,
    colour: bool | None = None,
) -> int:
    """Play a game in the terminal: the person at ``seat``, bots at the other seats.

    Args:
        variant: a :class:`~canasta.variant.model.Variant`, a bundled name or a profile path.
        seed: the deal seed (``None``: a random one, printed so the game can be replayed).
        seat: the person's seat, from 0.
        bots: bot names for the other seats, in seat order and cycled.
        stdin: where moves are read from (default ``sys.stdin``).
        stdout: where the table is written (default ``sys.stdout``).
        record: a file to write the game record to (see :mod:`canasta.io.record`)
            when the game ends or the person quits; ``canasta replay`` replays it.
            It is checked before the game starts, and written whole or not at
            all (see :func:`~canasta.play.simulate.save_record`).
        colour: draw the table in colour (red suits red, wild cards marked), in
            a rich panel when the ``cli`` extra is installed. ``None``, the
            default, means yes only when ``stdout`` is a terminal and
            ``NO_COLOR`` is not set (:func:`canasta.faces.use_colour`); the
            plain text is unchanged otherwise. Moves are typed the same way.

    Returns:
        The exit status, ``0`` when the game ended or the person quit (``q``,
        end of input or Ctrl-C) and ``1`` when the engine offered no legal move
        to the player to move.

    Raises:
        CanastaError: the seat is not a seat of the variant, a bot name is
            unknown, or ``record`` is a directory, a device or in a directory
            that does not exist.
    """
    # sys.stdin is None when the command was started with stdin closed: no input.
    inp = (sys.stdin or io.StringIO()) if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    echo = not _is_terminal(inp)  # piped moves are written out, so the output reads as typed
    v, seat_bots = _table_for(variant, seat, bots, record)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    state = new_game(v, seed=seed)
    moves: list[Move] = []
    draw = _table_drawer(out, use_colour(out) if colour is None else colour)
    out.write(f"{printable(v.title)}: you are seat {seat}; seed {seed} (replay with --seed {seed}).\n")
    out.write(
        "Others: " + ", ".join(f"seat {s} {b.name}" for s, b in sorted(seat_bots.items())) + "\n"
    )
    try:
        while not state.is_game_over:
            if state.is_hand_over:
                move = _next_hand(state, seat, inp, out, echo)
            elif not state.legal_moves():
                return _engine_fault(state, seed, out)
            elif state.current_player == seat:
                draw(state, seat)
                move = read_move(state, inp, out, echo=echo)
            else:
                move = _bot_move(state, seat_bots, rng, out)
            if move is None:
                return _bye(out)
            state = state.apply(move)
            moves.append(move)
        out.write(render_hand_end(state, seat) + "\n")
        out.write(_game_over(state, seat) + "\n")
        return 0
    except KeyboardInterrupt:
        out.write("\n")
        return _bye(out, "Interrupted")
    finally:
        if record is not None:
            save_record(record, RecordedGame(v, seed, tuple(moves)))
            out.write(f"Game record written to {printable(os.fspath(record))}.\n")


def _table_for(
    variant: Variant | str, seat: int, bots: Sequence[str] | str, record: str | os.PathLike[str] | None
) -> tuple[Variant, dict[int, Bot]]:
    """The variant and the bots at the other seats, with the seat and the record's path checked before the game."""
    from canasta.variant.loading import load_variant

    v = variant if isinstance(variant, Variant) else load_variant(variant)
    n = v.players.count
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise CanastaError(f"seat must be 0 to {n - 1} in {printable(v.name)}, got {seat!r}")
    seat_bots = _seat_bots(bots, n, seat)
    if record is not None:
        _check_record_path(record)
    return v, seat_bots


def _engine_fault(state: GameState, seed: int, out: TextIO) -> int:
    """Say that the seat to move has no legal move (the engine's fault, never the player's): exit status 1."""
    out.write(
        f"Seat {state.current_player} has no legal move here: an engine fault; the game "
        f"cannot go on (seed {seed}, hand {state.hand_number + 1}).\n"
    )
    return 1


def _next_hand(state: GameState, seat: int, inp: TextIO, out: TextIO, echo: bool) -> Move | None:
    """At a hand's end: its scores, then the person's move to deal the next hand (None: they quit)."""
    out.write(render_hand_end(state, seat) + "\n")
    out.write("Moves\n" + _moves_block(state.legal_moves()) + "\n")
    return read_move(state, inp, out, prompt="Deal the next hand", echo=echo)


def _bot_move(state: GameState, seat_bots: dict[int, Bot], rng: random.Random, out: TextIO) -> Move:
    """The move of the bot to move, written out."""
    p = state.current_player
    bot = seat_bots[p]
    move = bot.choose(state.view(p), rng)
    out.write(f"Seat {p} ({bot.name}): {move}\n")
    return move


def _table_drawer(out: TextIO, colour: bool) -> Callable[[GameState, int], None]:
    """How the table is drawn: plain text, terminal colours, or a rich panel (the ``cli`` extra)."""
    from canasta.play import styled

    if colour and styled.available():
        console = styled.console(out)

        def rich_table(state: GameState, seat: int) -> None:
            out.flush()
            styled.print_table(console, state, seat, state.legal_moves())

        return rich_table

    def text_table(state: GameState, seat: int) -> None:
        out.write(render_table(state, seat, colour) + "\n")

    return text_table


def _check_record_path(record: str | os.PathLike[str]) -> None:
    """Refuse, before the game, a record file that could not be written at its end."""
    path = Path(record)
    shown = printable(os.fspath(record))
    try:
        exists, is_file, parent_is_dir = path.exists(), path.is_file(), path.parent.is_dir()
    except (OSError, ValueError) as exc:  # a NUL in the name, a name too long
        raise CanastaError(f"{shown}: not a usable file name ({exc})") from None
    if exists and not is_file:
        raise CanastaError(f"{shown}: not a regular file, will not write the game record there")
    if not parent_is_dir:
        raise CanastaError(f"{shown}: the directory {printable(path.parent)} does not exist")
    if not os.access(path.parent, os.W_OK):
        raise CanastaError(f"{shown}: the directory {printable(path.parent)} is not writable")


def _game_over(state: GameState, seat: int) -> str:
    hands = len(state.history)
    winners = state.winners
    me = state.side_of(seat)
    if len(winners) > 1:
        result = "a draw between " + " and ".join(f"side {w}" for w in winners)
    elif winners[0] == me:
        result = f"your side (side {me}) wins"
    else:
        result = f"side {winners[0]} wins"
    return f"{_RULE}\nGame over after {hands} hands: {result}."


def _bye(out: TextIO, why: str = "Game left") -> int:
    out.write(f"{why}: goodbye.\n")
    out.flush()
    return 0
