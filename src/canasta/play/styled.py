"""The terminal game's table, the simulation's summary and its progress, drawn with rich.

`rich <https://rich.readthedocs.io>`_ is optional (``pip install 'canasta[cli]'``):
:func:`available` says whether it can be imported. The plain text of
:mod:`canasta.play.terminal` and :class:`~canasta.play.simulate.Summary` stays the
output whenever colour is off (``NO_COLOR``, a pipe, a file: see
:func:`canasta.faces.use_colour`) or rich is missing, so scripts and tests that
read it see the same bytes. Only a person at a colour terminal sees these.

Everything shown from the input (a profile's title, a bot's name) is passed to
rich as :class:`rich.text.Text`, never as markup, and rich drops control
characters from it, so a profile cannot style or move the terminal's cursor.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from canasta.cards import RANK_NAMES, Card
from canasta.engine import opening_minimum
from canasta.engine.moves import Move, kind_name
from canasta.engine.state import ANSWER, GameState
from canasta.faces import hand_groups

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from canasta.play.simulate import Summary

__all__ = ["available", "console", "print_summary", "print_table", "progress"]


def available() -> bool:
    """Whether rich can be imported (the ``cli`` extra is installed)."""
    return importlib.util.find_spec("rich") is not None


def console(stream: TextIO) -> Console:
    """A rich console writing to ``stream``, a colour terminal (the caller has checked)."""
    from rich.console import Console

    # highlight=False: rich would otherwise colour numbers and words it guesses at;
    # markup=False: no text, from the input or not, is read as rich's [style] markup.
    return Console(file=stream, highlight=False, markup=False, force_terminal=True, soft_wrap=False)


def _wild_ranks(state: GameState) -> tuple[str, ...]:
    return state.variant.wilds.ranks


def card_text(card: Card, wild_ranks: Collection[str]) -> Text:
    """A card as rich text: red suits red, wild cards bold, underlined and yellow-backed."""
    from rich.text import Text

    wild = ("JK" if card.is_joker else RANK_NAMES[card.rank]) in wild_ranks
    style = " ".join(s for s, on in (("red", card.is_red), ("bold underline", wild)) if on)
    return Text(str(card), style=style or "")


def cards_text(cards: Sequence[int], wild_ranks: Collection[str]) -> Text:
    """Cards separated by spaces, each as :func:`card_text` draws it."""
    from rich.text import Text

    return Text(" ").join(card_text(Card(c), wild_ranks) for c in cards)


def _hand_text(hand: Sequence[int], state: GameState) -> Text:
    from rich.text import Text

    groups = hand_groups(hand, state.rules.is_wild)
    if not groups:
        return Text("(empty)", style="dim")
    parts = [Text.assemble((f"{label}: ", "dim"), cards_text(cs, _wild_ranks(state))) for label, cs in groups.items()]
    return Text("   ").join(parts)


def _side_label(state: GameState, side: int, me: int) -> str:
    seats = "+".join(str(s) for s in state.sides[side])
    you = "you, " if me in state.sides[side] else ""
    return f"side {side} ({you}seat{'s' if len(state.sides[side]) > 1 else ''} {seats})"


def print_table(out: Console, state: GameState, seat: int, moves: Sequence[Move]) -> None:
    """Draw the table as ``seat`` may see it, with its legal moves numbered.

    The same facts as :func:`canasta.play.terminal.render_table`, in a panel.
    """
    from rich import box
    from rich.columns import Columns
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    view = state.view(seat)
    me_side = state.side_of(seat)
    wilds = _wild_ranks(state)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column()
    grid.add_row("Scores", Text("   ").join(
        Text(f"{_side_label(state, i, seat)}: {x}", style="bold" if i == me_side else "")
        for i, x in enumerate(state.scores)))
    top = state.pile_top
    if state.pile_frozen:
        frozen = Text("frozen", style="bold magenta")
    elif state.pile_frozen_for(me_side):
        frozen = Text("frozen for your side (not yet opened)", style="magenta")
    else:
        frozen = Text("not frozen")
    stock = Text(f"{state.stock_size} card{'' if state.stock_size == 1 else 's'}")
    if top is not None:
        n = state.pile_size
        pile = Text.assemble("top ", card_text(top, wilds), f", {n} card{'' if n == 1 else 's'}, ", frozen)
    else:
        pile = Text("empty")
    grid.add_row("Stock", stock)
    grid.add_row("Pile", pile)
    if not view.opened[me_side]:
        grid.add_row("Opening", f"your side needs {opening_minimum(state, me_side)} points to open")
    melds = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    for heading in ("side", "meld", "cards", "kind", ""):
        melds.add_column(heading, no_wrap=heading != "")
    for side, side_melds in enumerate(state.melds):
        if not side_melds:
            melds.add_row(str(side), "-", "", Text("none", style="dim"), "")
        for meld in side_melds:
            name = "wild" if meld.rank == 0 else kind_name(meld.rank)
            kind = state.canasta_kind(meld)
            what = f"{kind} canasta" if kind else f"{meld.wilds} wild" if meld.wilds else "natural"
            cards = sorted(meld.cards, key=lambda c: (state.rules.is_wild[c >> 2], c))
            melds.add_row(str(side), name, str(meld.size), Text(what, style="bold green" if kind else ""),
                          cards_text(cards, wilds))
    grid.add_row("Melds", melds)
    grid.add_row("3s laid" if state.variant.threes.black_laid_at_once else "Red 3s", Text("   ").join(
        Text.assemble(f"side {i}: ", cards_text(r, wilds) if r else "-") for i, r in enumerate(state.red_threes)))
    others = [
        f"seat {i}: {n}" + (f" (+foot {view.foot_sizes[i]})" if view.foot_sizes[i] else "")
        for i, n in enumerate(view.hand_sizes)
        if i != seat
    ]
    grid.add_row("Cards", ", ".join(others))
    foot = f" (+foot {view.foot_sizes[seat]})" if view.foot_sizes[seat] else ""
    grid.add_row(f"Your hand\n{len(view.hand_codes)} cards{foot}", _hand_text(view.hand_codes, state))
    if state.phase == ANSWER:
        grid.add_row("Question", f"Seat {state.turn.asker} asks: may I go out?")
    title = Text(f"{state.variant.title} - hand {state.hand_number + 1} - seat {state.current_player} "
                 f"to move ({state.phase_name})")
    out.print(Panel(grid, title=title, title_align="left", box=box.ROUNDED))
    if moves:
        cells = [Text.assemble((f"{i:>3}.", "bold yellow"), f" {m}") for i, m in enumerate(moves, 1)]
        out.print(Panel(Columns(cells, padding=(0, 3)), title="Moves", title_align="left", box=box.ROUNDED))


def print_summary(out: Console, summary: Summary) -> None:
    """Draw a simulation's summary: the same figures as ``str(summary)``, in tables."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    limit = f", at most {summary.max_hands} hands each" if summary.max_hands is not None else ""
    head = Table.grid(padding=(0, 2))
    head.add_column(style="bold cyan")
    head.add_column()
    head.add_row("seats", ", ".join(f"{i} {b}" for i, b in enumerate(summary.seats)))
    if summary.interrupted:
        head.add_row("interrupted", f"after {summary.games} of {summary.requested} games")
    head.add_row("hands per game", f"{summary.hands_per_game:.2f}")
    head.add_row("moves per hand", f"{summary.moves_per_hand:.1f}")
    head.add_row("hands ended", f"{100 * summary.out_share:.1f}% out, {100 * summary.stock_share:.1f}% stock")
    if summary.unfinished:
        head.add_row("cut short", f"{summary.unfinished} games (standings decide)")
    for g in summary.dead_ends:
        head.add_row("dead end", f"game {g.index} (seed {g.seed}): no legal move at {g.dead_end}")
    head.add_row("draws", str(summary.draws))
    out.print(Text(f"{summary.variant}: {summary.games} games{limit}, seed {summary.seed}", style="bold"))
    out.print(head)
    sides = Table(box=box.SIMPLE_HEAD)
    for heading, justify in (("side", "left"), ("bots", "left"), ("mean hand score", "right"),
                             ("win rate", "right"), ("95% CI", "right")):
        sides.add_column(heading, justify=justify)  # type: ignore[arg-type]
    best = max(range(len(summary.sides)), key=summary.mean_hand_score, default=0)
    for i in range(len(summary.sides)):
        r = summary.side_win_rate(i)
        sides.add_row(str(i), summary.side_bots(i), f"{summary.mean_hand_score(i):.1f}",
                      Text(f"{100 * r.rate:.1f}%", style="bold green" if i == best else ""),
                      f"[{100 * r.low:.1f}, {100 * r.high:.1f}]")
    out.print(sides)
    bots = Table(box=box.SIMPLE_HEAD)
    for heading, justify in (("bot", "left"), ("win rate", "right"), ("95% CI", "right")):
        bots.add_column(heading, justify=justify)  # type: ignore[arg-type]
    for name in summary.bot_names:
        r = summary.bot_win_rate(name)
        bots.add_row(name, f"{100 * r.rate:.1f}%", f"[{100 * r.low:.1f}, {100 * r.high:.1f}]")
    out.print(bots)


def progress(stream: TextIO) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A rich progress bar on ``stream`` (a terminal): the ``progress`` callback and a stop function.

    Call the stop function when the simulation ends, or is interrupted, to
    leave the terminal's cursor where it belongs.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=console(stream), transient=False)
    task: list[Any] = []

    def show(done: int, total: int) -> None:
        if not task:
            bar.start()
            task.append(bar.add_task("games", total=total))
        bar.update(task[0], completed=done)

    return show, bar.stop
