"""The ``canasta`` command line.

Each subcommand is a function registered with :func:`command`; the parser is
built from that registry, so adding ``rules``, ``check``, ``play`` and the rest
means writing one decorated function. A subcommand function receives the parsed
arguments and returns the exit status:

* ``0``: success;
* ``1``: failure or findings (a bad profile, a card that is not a card, a file
  that cannot be opened, …); the message goes to stderr as ``canasta: error:
  <message>``, without a traceback. An exception of an unexpected type is a bug:
  ``canasta: internal error: <type>: <message>``, with the traceback only under
  ``CANASTA_DEBUG=1``;
* ``2``: usage error (argparse's own convention);
* ``130``: interrupted with Ctrl-C; ``141``: the reader of stdout went away.

Everything a command prints passes through a filter that escapes control
characters (they may come from a profile's title or a file name) and writes
what the terminal's encoding cannot show as ASCII stand-ins or escapes.

The library modules are imported inside the subcommand functions, so that
``canasta --help`` stays fast and one broken area cannot stop the others.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO, cast

from canasta.console import (
    UNSAFE_IN_TEXT,
    UNSAFE_ON_STDERR,
    Output,
    fill_closed_descriptors,
    os_message,
    silence_stdout,
)
from canasta.usage import MAX_MESSAGE, LateVersion, Parser, one_line, parse

__all__ = ["COMMANDS", "MAX_MESSAGE", "Argument", "Command", "argument", "build_parser", "command", "main"]

PROG = "canasta"

#: Exit status: the command did what was asked.
EXIT_OK = 0
#: Exit status: the command failed or reported findings.
EXIT_FAILURE = 1
#: Exit status: the command line itself was wrong (argparse's convention).
EXIT_USAGE = 2
#: Exit status after Ctrl-C (128 + SIGINT).
EXIT_INTERRUPTED = 130
#: Exit status when stdout is closed early, e.g. ``canasta show classic | head`` (128 + SIGPIPE).
EXIT_BROKEN_PIPE = 141

Handler = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Argument:
    """One argument of a subcommand: the positional ``args`` and keyword ``kwargs``
    of :meth:`argparse.ArgumentParser.add_argument`."""

    args: tuple[str, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)


def argument(*args: str, **kwargs: Any) -> Argument:
    """Describe an argument exactly as :meth:`argparse.ArgumentParser.add_argument` takes it."""
    return Argument(args, kwargs)


@dataclass(frozen=True)
class Command:
    """A registered subcommand.

    Attributes:
        name: the word typed after ``canasta``.
        help: one line for ``canasta --help``.
        description: the paragraph shown by ``canasta NAME --help``.
        arguments: the subcommand's arguments.
        run: the function that carries it out and returns the exit status.
        needs: what the command needs, said in place of argparse's list of
            missing arguments when some are missing; ``None`` keeps argparse's.
    """

    name: str
    help: str
    description: str
    arguments: tuple[Argument, ...]
    run: Handler
    needs: str | None = None


#: The registry of subcommands, in the order ``canasta --help`` lists them.
COMMANDS: dict[str, Command] = {}


def command(
    name: str, help: str, *arguments: Argument, description: str | None = None,
    needs: str | None = None,
) -> Callable[[Handler], Handler]:
    """Register the decorated function as subcommand ``name``.

    Args:
        name: the subcommand's name on the command line.
        help: one line shown in ``canasta --help``.
        arguments: the subcommand's arguments, see :func:`argument`.
        description: longer text for ``canasta NAME --help``; defaults to the
            function's docstring.
        needs: what the command needs, said when arguments are missing (see
            :class:`Command`).

    Returns:
        A decorator that registers the function and returns it unchanged.

    Raises:
        ValueError: ``name`` is already registered.
    """

    def register(run: Handler) -> Handler:
        if name in COMMANDS:
            raise ValueError(f"subcommand {name!r} is already registered")
        COMMANDS[name] = Command(
            name=name,
            help=help,
            description=description or inspect.cleandoc(run.__doc__ or help),
            arguments=arguments,
            run=run,
            needs=needs,
        )
        return run

    return register


def _variant_argument() -> Argument:
    return argument(
        "variant",
        metavar="VARIANT",
        help="a bundled profile name (see `canasta variants`) or the path of a YAML profile",
    )


# --- subcommands ---------------------------------------------------------------


@command("variants", "list the bundled variant profiles")
def _cmd_variants(args: argparse.Namespace) -> int:
    """List the bundled variant profiles, one per line: name, then title."""
    from canasta import load_variant, variant_names

    rows = [(name, load_variant(name).title) for name in variant_names()]
    width = max((len(name) for name, _ in rows), default=0)
    for name, title in rows:
        print(f"{name:<{width}}  {title}".rstrip())
    return EXIT_OK


@command("show", "print a fully resolved variant profile as YAML", _variant_argument())
def _cmd_show(args: argparse.Namespace) -> int:
    """Print VARIANT with `extends` resolved and every option spelled out, as YAML.

    The output is itself a valid profile: save it, edit it, load it back.
    """
    from canasta import load_variant
    from canasta.variant.loading import dump_variant

    text = dump_variant(load_variant(args.variant))
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return EXIT_OK


def _format_argument() -> Argument:
    return argument(
        "--format", choices=["markdown", "rst", "html"], default="markdown",
        help="output format (default: markdown)",
    )


@command(
    "rules",
    "print the rule book of a variant",
    _variant_argument(),
    argument(
        "--format", choices=["markdown", "rst", "html", "sheet"], default="markdown",
        help="output format (default: markdown); sheet: a one-page quick-reference sheet, "
        "an HTML page to print",
    ),
    argument(
        "--diff", metavar="OTHER",
        help="print only the rules in which VARIANT differs from OTHER (a name or a path)",
    ),
    argument(
        "--fragment", action="store_true",
        help="with --format html: only the HTML fragment, not a complete printable page",
    ),
)
def _cmd_rules(args: argparse.Namespace) -> int:
    """Print the rule book of VARIANT in plain English, generated from its profile.

    Rules that the profile's source text does not fix are marked with a note number
    and explained in notes. --format sheet prints a one-page quick-reference
    sheet (HTML to print). With --diff OTHER, print only how VARIANT differs
    from OTHER, one rule per line ("Draw two cards from the stock instead of one.").
    """
    from canasta.rulebook import describe, describe_diff, quick_reference
    from canasta.variant.loading import load_variant

    variant = load_variant(args.variant)
    if args.format == "sheet":
        if args.diff is not None or args.fragment:
            _error("--format sheet takes neither --diff nor --fragment")
            return EXIT_USAGE
        sys.stdout.write(quick_reference(variant))
        return EXIT_OK
    # an HTML book is a page a table can print, unless a fragment is asked for
    standalone = args.format == "html" and not args.fragment
    if args.diff is None:
        text = describe(variant, args.format, standalone=standalone)
    else:
        text = describe_diff(variant, load_variant(args.diff), args.format, standalone=standalone)
    sys.stdout.write(text)
    return EXIT_OK


@command(
    "compare",
    "set the main rules of several variants side by side",
    argument("variants", nargs="+", metavar="VARIANT", help="bundled profile names or paths of YAML profiles"),
    _format_argument(),
)
def _cmd_compare(args: argparse.Namespace) -> int:
    """Print a table of the main rules of each VARIANT, one column per variant."""
    from canasta.rulebook import compare
    from canasta.variant.loading import load_variant

    sys.stdout.write(compare([load_variant(name) for name in args.variants], args.format))
    return EXIT_OK


@command("schema", "print the JSON Schema of variant profiles")
def _cmd_schema(args: argparse.Namespace) -> int:
    """Print the JSON Schema that variant profiles follow (for editors and validators)."""
    import json

    from canasta.variant.schema import json_schema

    print(json.dumps(json_schema(), indent=2, sort_keys=True))
    return EXIT_OK


#: Most playouts ``canasta check`` plays per profile.
MAX_PLAYOUTS = 1_000_000


def _whole(text: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high``, or a usage error."""
    stripped = text.strip()
    digits = stripped[1:] if stripped[:1] in "+-" else stripped
    try:
        n = int(stripped) if digits.isascii() and digits.isdigit() else None
    except ValueError:  # more digits than int() reads
        n = None
    if n is None or not low <= n <= high:
        raise argparse.ArgumentTypeError(f"{_quoted(text)}: expected a whole number from {low} to {high}")
    return n


def _quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted for a usage message, escaped and cut to ``limit`` characters."""
    return repr(text[:limit]) + ("..." if len(text) > limit else "")


def _count(text: str) -> int:
    return _whole(text, 0, MAX_PLAYOUTS)


#: The range of ``--seed``: every 64-bit number, signed or not (the deal uses 64 bits of it).
SEED_RANGE = (-(1 << 63), (1 << 64) - 1)


def _seed(text: str) -> int:
    return _whole(text, *SEED_RANGE)


def _seat(text: str) -> int:
    return _whole(text, 0, 63)  # the variant decides how many; play() says so


@command(
    "check",
    "check profiles for rules that contradict each other or never apply",
    argument("targets", nargs="+", metavar="FILE_OR_NAME", help="profile files or bundled names"),
    argument("--playouts", type=_count, default=0, metavar="N", help="also play N hands (default 0)"),
    argument("--seed", type=_seed, default=0, help="first deal seed of the playouts (default 0)"),
    argument("--strict", action="store_true", help="fail on warnings too"),
    argument("--format", choices=["text", "json"], default="text", help="output format"),
)
def _cmd_check(args: argparse.Namespace) -> int:
    """Check each profile and print one line per finding: FILE:LINE:COL: SEVERITY CODE OPTION: MESSAGE.

    Exit 0 when no errors were found (with --strict: no warnings either), 1 otherwise.
    A profile that does not load is a finding too (C000). Every code is listed in the docs.
    """
    from canasta.check import report

    return report(
        args.targets, playouts=args.playouts, seed=args.seed, strict=args.strict,
        format=args.format,
    )


@command(
    "score",
    "score each side's table at the end of a hand, item by item",
    argument("file", metavar="FILE", help="a YAML or JSON file describing the tables"),
)
def _cmd_score(args: argparse.Namespace) -> int:
    """Score the tables described in FILE and print each side's itemized breakdown.

    FILE (YAML, or JSON for a .json file) names the variant and each side's table:

      variant: classic        # a bundled profile, or a profile path
      sides:                  # a list of tables, or a mapping name: table
        us:   {melds: ["KH KS KD KC KH KS KD"], red_threes: 1, went_out: true}
        them: {melds: ["5H 5S 5D"], hand: "4C 9D"}

    Table keys: melds, red_threes, red_threes_held, black_threes, hand, hands,
    foot, went_out, concealed, black_three_out, opened. Every problem is reported as
    FILE: sides[1].melds[0]: ... (exit 1).
    """
    from canasta.io.score_file import ScoreFileError, read_score_file

    try:
        scored = read_score_file(args.file)
    except ScoreFileError as exc:
        for problem in exc.problems[:MAX_PROBLEMS]:
            _error(problem)
        if len(exc.problems) > MAX_PROBLEMS:
            _error(f"... and {len(exc.problems) - MAX_PROBLEMS} more problems")
        return EXIT_FAILURE
    sys.stdout.write(str(scored))
    return EXIT_OK


@command(
    "replay",
    "replay a game record and print the scores",
    argument("record", metavar="FILE", help="a game record (see the record format in the docs)"),
)
def _cmd_replay(args: argparse.Namespace) -> int:
    """Replay the game record FILE and print each hand's scores and the game totals.

    The first move that is not a move, or not legal where it stands, stops the
    replay with FILE:LINE and the reason (exit 1).
    """
    from canasta.io.record import replay_file, score_report

    sys.stdout.write(score_report(replay_file(args.record)))
    return EXIT_OK


@command(
    "play",
    "play a game in the terminal against bots",
    _variant_argument(),
    argument("--seed", type=_seed, default=None, help="deal seed (default: a random one, printed)"),
    argument("--seat", type=_seat, default=0, help="your seat, from 0 (default 0)"),
    argument(
        "--bots", default="greedy", choices=["greedy", "random"],
        help="the bot at every other seat (default greedy)",
    ),
    argument(
        "--record", default=None, metavar="FILE",
        help="write the game record to FILE when the game ends or you quit",
    ),
)
def _cmd_play(args: argparse.Namespace) -> int:
    """Play VARIANT in the terminal: you at one seat, bots at the others.

    Each time it is your turn the table is drawn with your legal moves numbered;
    type a number or the move's notation ('meld 7 7 2', 'discard 9'). 'q', end of
    input or Ctrl-C quit (exit 0); with --record the game so far is written first.
    """
    import io

    from canasta.faces import use_colour
    from canasta.play.terminal import play

    if isinstance(sys.stdin, io.TextIOWrapper):  # bytes that are not text: a move not understood
        sys.stdin.reconfigure(errors="replace")

    # Colour (a terminal, no NO_COLOR) writes its escapes past the filter that
    # escapes control characters; everything the game shows from the input is
    # made printable first (canasta.play.terminal, canasta.play.styled).
    raw = sys.stdout.raw_stream if isinstance(sys.stdout, Output) else sys.stdout
    colour = use_colour(raw)
    return play(args.variant, seed=args.seed, seat=args.seat, bots=args.bots, record=args.record,
                stdout=raw if colour else None, colour=colour)


def _bot_list(text: str) -> list[str]:
    from canasta.play.bots import BOTS

    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    bad = [n for n in names if n not in BOTS]
    if not names or bad:
        raise argparse.ArgumentTypeError(
            f"{_quoted(text)}: expected bot names separated by commas, from {', '.join(sorted(BOTS))}"
        )
    return names


def _positive(text: str) -> int:
    return _whole(text, 1, 10**9)


def _games(text: str) -> int:
    from canasta.play.simulate import MAX_GAMES

    return _whole(text, 1, MAX_GAMES)


def _jobs(text: str) -> int:
    from canasta.play.simulate import MAX_JOBS

    return _whole(text, 1, MAX_JOBS)


def _run_arguments() -> tuple[Argument, ...]:  # the options simulate and experiment share
    return (
        argument("--games", type=_games, default=100, help="games to play (default 100)"),
        argument(
            "--bots", type=_bot_list, default=["greedy", "random"], metavar="BOT[,BOT...]",
            help="bots for seats 0, 1, 2, ... in order, cycled (default greedy,random)",
        ),
        argument("--seed", type=_seed, default=0, help="simulation seed (default 0)"),
        argument("--jobs", type=_jobs, default=1, help="worker processes (default 1)"),
        argument("--backend", choices=("local", "ray"), default="local",
                 help="where games run: local processes (default) or Ray (needs canasta[ray])"),
        argument("--address", default=None, help="the Ray cluster's address (default: start one)"),
        argument("--json", action="store_true", help="print the summary as JSON"),
        argument(
            "--max-hands", type=_positive, default=None, metavar="H",
            help="stop each game after H hands; the standings decide (default: play to the end)",
        ),
    )


def _progress() -> Callable[[int, int], None] | None:
    from canasta.play.simulate import progress_bar
    return progress_bar(sys.stderr) if sys.stderr is not None and sys.stderr.isatty() else None


@command(
    "simulate",
    "play bots against each other and summarize the games",
    _variant_argument(),
    *_run_arguments(),
    argument(
        "--record", metavar="DIR", default=None,
        help="write each game's record to DIR/game-NNNNN.rec (see `canasta replay`)",
    ),
)
def _cmd_simulate(args: argparse.Namespace) -> int:
    """Play GAMES games of VARIANT between bots and print a summary.

    The summary gives hands per game, moves per hand, how hands ended, each side's
    mean hand score and the win rate of each side and each bot with a 95% Wilson
    interval. The same seed gives the same summary for any --jobs and either
    --backend.

    Ctrl-C stops the simulation: the summary of the games finished so far is
    printed, marked "interrupted after N of GAMES games", and the exit status is 130.
    """
    import json

    from canasta.faces import use_colour
    from canasta.play import styled
    from canasta.play.simulate import SimulationInterrupted, simulate

    # On a colour terminal with the cli extra, rich draws the bar and the summary
    # (past the escaping filter: what they show is numbers, bot names and the
    # profile's name as rich text, which drops control characters); piped or
    # with NO_COLOR, the output is the plain text, byte for byte.
    fancy = styled.available() and not args.json
    raw_err = sys.stderr.raw_stream if isinstance(sys.stderr, Output) else sys.stderr
    raw_out = sys.stdout.raw_stream if isinstance(sys.stdout, Output) else sys.stdout
    stop_bar: Callable[[], None] | None = None
    bar: Callable[[int, int], None] | None = None
    if fancy and use_colour(raw_err):
        bar, stop_bar = styled.progress(raw_err)
    else:
        bar = _progress()
    try:
        summary = simulate(
            args.variant, args.games, args.bots, seed=args.seed, jobs=args.jobs,
            max_hands=args.max_hands, progress=bar, record_dir=args.record,
            backend=args.backend, address=args.address,
        )
    except SimulationInterrupted as stop:
        summary = stop.summary
        if bar is not None and stop_bar is None:
            _note("")  # end the progress bar's line
    finally:
        if stop_bar is not None:
            stop_bar()
    if args.json:
        print(json.dumps(summary.to_dict(), indent=2))
    elif fancy and use_colour(raw_out):
        sys.stdout.flush()
        styled.print_summary(styled.console(raw_out), summary)
    else:
        print(summary)
    if summary.interrupted:
        _note(f"{PROG}: interrupted after {summary.games} of {summary.requested} games")
        sys.stdout.flush()
        return EXIT_INTERRUPTED
    if summary.dead_ends:
        first = summary.dead_ends[0]
        _error(
            f"{len(summary.dead_ends)} game(s) reached a position with no legal move, an "
            f"engine fault; first: game {first.index} (seed {first.seed}), {first.dead_end}"
        )
        return EXIT_FAILURE
    return EXIT_OK


@command(
    "experiment",
    "play the same deals under several profiles and compare what the rules change",
    argument("baseline", metavar="VARIANT", help="the profile the others are compared with"),
    argument("variants", nargs="+", metavar="VARIANT", help="one or more profiles to compare"),
    *_run_arguments(),
    argument("--report", metavar="DIR", default=None,
             help="write DIR/index.html with plots (needs canasta[plot]) and DIR/experiment.json"),
    needs="two or more variants: the baseline, then each profile to compare with it "
    "(canasta experiment classic house.yaml)",
)
def _cmd_experiment(args: argparse.Namespace) -> int:
    """Play GAMES games of every VARIANT from the same seeds and compare them.

    Each measure (hand length, hands, points, how hands ended, pile takes, canastas by kind,
    the first player's edge, win rates, how often each counted rule came into play) is shown
    per variant with the paired difference from the first and its 95% interval; the same
    seed gives the same numbers for any --jobs and --backend (see docs: Tuning house rules).
    """
    from canasta.play.experiment import experiment

    plots = True
    if args.report is not None:
        # said and checked before the games, not after them
        from canasta.play.report import plots_available
        from canasta.play.simulate import output_dir

        output_dir(args.report, "the report")
        plots = plots_available()
        if not plots:
            _note(f"{PROG}: note: matplotlib is not installed: the report will have no plots "
                  "(pip install 'canasta[plot]')")
    bar = _progress()
    result = experiment(
        [args.baseline, *args.variants], args.games, args.bots, seed=args.seed, jobs=args.jobs,
        max_hands=args.max_hands, progress=bar, backend=args.backend, address=args.address,
    )
    if bar is not None and result.interrupted:
        _note("")  # end the progress bar's line
    print(result.to_json() if args.json else result)
    if args.report is not None:
        from canasta.play.report import write_report
        _note(f"report: {write_report(result, args.report, plots=plots)}")
    if result.interrupted:
        _note(f"{PROG}: interrupted after {result.games} of {result.requested} games")
        return EXIT_INTERRUPTED
    return EXIT_FAILURE if result.dead_ends else EXIT_OK


def _port(text: str) -> int:
    return _whole(text, 1, 65535)


@command(
    "serve",
    "the studio, experiments and a card table in the browser (needs canasta[web])",
    argument("--host", default="127.0.0.1",
             help="the address to listen on (default 127.0.0.1: this computer only; "
             "0.0.0.0 lets others on the network join a table)"),
    argument("--port", type=_port, default=8000, help="the port (default 8000)"),
    argument("--data", metavar="DIR", default=None,
             help="the data folder: saved profiles and the tables' database, the only place the "
             "server reads or writes files (default: a per-user folder, made on first use)"),
)
def _cmd_serve(args: argparse.Namespace) -> int:
    """Serve the studio (write house rules, see their problems, book, diff and sheet), the
    experiments (house rules against their base) and card tables (a link per seat; bots or
    people) at http://HOST:PORT/. Tables survive a restart. Ctrl-C stops the server.
    """
    import importlib.util

    missing = [m for m in ("starlette", "uvicorn", "jinja2") if importlib.util.find_spec(m) is None]
    if missing:
        _error(f"serve needs the web extra ({', '.join(missing)} missing): pip install 'canasta[web]'")
        return EXIT_FAILURE
    from canasta.web.app import serve

    serve(args.host, args.port, args.data)
    return EXIT_OK


# --- the parser and the entry point ---------------------------------------------


def _engine() -> str:
    from canasta.engine import COMPILED

    return " (compiled engine)" if COMPILED else ""


def _version() -> str:
    from canasta import __version__

    return __version__


def build_parser() -> Parser:
    """Return the argument parser, with one subparser per registered subcommand."""
    parser = Parser(
        prog=PROG,
        description="The rules of Canasta and its house variants.",
        epilog=f"Run `{PROG} COMMAND --help` for the options of a command.",
    )
    # worked out only when asked: the package metadata and the engine are slow to import
    parser.add_argument("--version", action=LateVersion, version=lambda: f"{PROG} {_version()}{_engine()}")
    subparsers = parser.add_subparsers(
        dest="command", metavar="COMMAND", title="commands", required=True
    )
    for cmd in COMMANDS.values():
        sub = subparsers.add_parser(
            cmd.name,
            help=cmd.help,
            description=cmd.description,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            needs=cmd.needs,
        )
        for arg in cmd.arguments:
            sub.add_argument(*arg.args, **arg.kwargs)
        sub.set_defaults(_run=cmd.run)
        parser.subcommands[cmd.name] = sub
    return parser


# --- what the command prints -------------------------------------------------------


#: Most problems of one score file printed.
MAX_PROBLEMS = 20

def _error(message: object, kind: str = "error") -> None:
    """Print ``canasta: KIND: MESSAGE`` on stderr: one line, escaped, at most MAX_MESSAGE long."""
    _note(f"{PROG}: {kind}: {one_line(message)}")


def _note(line: str) -> None:
    if sys.stderr is None:  # started with stderr closed
        return
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr went away too: nowhere left to say it
        pass


def _describe(exc: Exception) -> str | None:
    """The message for an error of the input or the system; ``None`` for a bug."""
    from canasta.errors import CanastaError

    if isinstance(exc, CanastaError):
        return str(exc)
    if isinstance(exc, OSError):
        return os_message(exc)
    if isinstance(exc, RecursionError):
        return "the input is nested too deeply (Python's recursion limit was reached)"
    if isinstance(exc, MemoryError):
        return "out of memory: the input is too large"
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text: {exc.reason} (byte {exc.start})"
    if isinstance(exc, UnicodeEncodeError):
        return f"cannot write the text in the {exc.encoding} encoding: {exc.reason}"
    if isinstance(exc, OverflowError):
        return f"a number is out of range: {exc}"
    if isinstance(exc, ValueError):
        return str(exc) or type(exc).__name__
    return None


def _debug() -> bool:
    return os.environ.get("CANASTA_DEBUG", "") not in ("", "0")


def _failure(exc: Exception) -> int:
    """Report ``exc`` in one or two lines on stderr and return the exit status, 1."""
    if _debug() and sys.stderr is not None:
        traceback.print_exception(exc, file=sys.stderr)
    message = _describe(exc)
    if message is not None:
        from canasta.errors import VariantError

        # A profile with several mistakes: one line for each (bounded by the error).
        for line in message.split("\n") if isinstance(exc, VariantError) else [message]:
            _error(line)
        return EXIT_FAILURE
    _error(f"{type(exc).__name__}: {exc}", kind="internal error")
    _note(
        f"{PROG}: this is a bug in canasta; please report it with the command that caused it"
        + ("" if _debug() else " (CANASTA_DEBUG=1 shows the traceback)")
    )
    return EXIT_FAILURE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return the exit status.

    Whatever a command prints goes through a filter that escapes control
    characters and replaces what the terminal's encoding cannot show. Errors are
    one line on stderr, ``canasta: error: ...``; an exception that is no error of
    the input or the system is a bug, ``canasta: internal error: TYPE: ...``
    (the traceback only with the environment variable ``CANASTA_DEBUG=1``).

    Args:
        argv: the arguments after the program name; ``None`` means ``sys.argv[1:]``.

    Returns:
        0 on success, 1 on failures, findings and internal errors, 2 on usage
        errors, 130 when interrupted, 141 when stdout was closed early.
    """
    fill_closed_descriptors()
    if sys.stdout is None:  # started with stdout closed: `canasta variants >&-`
        _error("standard output is closed: nowhere to print")
        return EXIT_FAILURE
    saved = sys.stdout, sys.stderr
    sys.stdout = cast(TextIO, Output(sys.stdout, UNSAFE_IN_TEXT))
    if sys.stderr is not None:
        sys.stderr = cast(TextIO, Output(sys.stderr, UNSAFE_ON_STDERR))
    try:
        status = _main(argv)
    finally:
        sys.stdout, sys.stderr = saved
    return _flushed(status)


def _flushed(status: int) -> int:
    """``status``, once what stdout still holds is written (``--help > /dev/full`` fails only now).

    A failure is reported once (it may have been reported already, with a
    status that is not 0), and stdout is pointed at devnull, so that Python's
    own flush at exit finds nothing to fail on and prints no "Exception ignored".
    """
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        return EXIT_BROKEN_PIPE if status == EXIT_OK else status
    except OSError as exc:
        silence_stdout()
        if status != EXIT_OK:
            return status
        _error(os_message(exc))
        return EXIT_FAILURE
    return status


def _main(argv: Sequence[str] | None) -> int:
    try:
        try:
            args = parse(build_parser(), argv)
        except SystemExit as exc:  # --help, --version and usage errors
            if exc.code is None or isinstance(exc.code, int):
                return exc.code or EXIT_OK
            return EXIT_USAGE
        run: Handler = args._run
        status = run(args)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # every exception ends in a message, none in a traceback
        return _failure(exc)
