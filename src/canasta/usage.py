"""The command line's argument parser: argparse, with errors a person can act on.

Usage errors are one printable line of at most :data:`MAX_MESSAGE` characters.
A misspelt subcommand or choice (``canasta simlate``, ``--format htm``) and an
unknown option (``--gmaes``) get a "did you mean" when one known word is close;
a subcommand can say what it needs in place of argparse's list of missing
arguments (``canasta experiment classic``).
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from canasta.console import safe

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["MAX_MESSAGE", "LateVersion", "Parser", "did_you_mean", "one_line", "parse"]

#: Longest message printed after ``canasta: error:``; the rest is cut.
MAX_MESSAGE = 1000

# "invalid choice: 'simlate' (choose from 'variants', 'show', ...)"; Python 3.12 and
# later may print the choices without quotes, or make a suggestion of their own
_INVALID_CHOICE = re.compile(r"invalid choice: (.+?) \((?:choose from|choices:) (.*)\)$")


def one_line(message: object) -> str:
    """``message`` made printable and cut to :data:`MAX_MESSAGE` characters."""
    text = safe(message)
    if len(text) > MAX_MESSAGE:
        text = f"{text[:MAX_MESSAGE]}... ({len(text) - MAX_MESSAGE} more characters)"
    return text


class LateVersion(argparse.Action):
    """A ``--version`` option whose text is worked out when the option is given, not when the
    parser is built (argparse's own ``action="version"`` wants the text up front).

    Args:
        option_strings: the option's names, as argparse passes them.
        version: called for the line to print on stdout before exiting with status 0.
        dest: unused (the option stores nothing), as argparse passes it.
        help: the option's line in ``--help``.
    """

    def __init__(self, option_strings: Sequence[str], version: Callable[[], str],
                 dest: str = argparse.SUPPRESS, help: str = "show program's version number and exit") -> None:
        super().__init__(option_strings, argparse.SUPPRESS, nargs=0, default=argparse.SUPPRESS, help=help)
        self.version = version

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> NoReturn:
        """Print the version line and exit."""
        print(self.version())
        parser.exit()


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    """``"did you mean 'x'?"`` for the choice closest to ``word``; ``""`` when none is close."""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else ""


class Parser(argparse.ArgumentParser):
    """argparse's parser, with the hints of this module in its usage errors.

    Attributes:
        needs: what the (sub)command needs, said in place of argparse's
            "the following arguments are required"; ``None`` keeps argparse's.
        options: the option strings a "did you mean" chooses from.
        subcommands: the subcommands' parsers by name (on the top parser).
    """

    def __init__(self, *args: Any, needs: str | None = None, **kwargs: Any) -> None:
        # set first: argparse's own __init__ adds --help through add_argument
        self.options: list[str] = []
        self.needs = needs
        self.subcommands: dict[str, Parser] = {}
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """Add an argument as argparse does, remembering its option strings."""
        action = super().add_argument(*args, **kwargs)
        self.options += action.option_strings
        return action

    def error(self, message: str) -> NoReturn:
        """Exit with status 2 after the usage line and ``message``, with a hint where one helps."""
        if self.needs is not None and message.startswith("the following arguments are required"):
            message = f"{self.prog.split()[-1]} needs {self.needs}"
        wrong = _INVALID_CHOICE.search(message)
        if wrong and "maybe you meant" not in message:
            choices = [c.strip().strip("'\"") for c in wrong.group(2).split(",")]
            hint = did_you_mean(wrong.group(1).strip("'\""), choices)
            message += f"; {hint}" if hint else ""
        super().error(one_line(message))

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse drops an OSError here, so `--help > /dev/full` would exit 0 having
        # written nothing: on stdout it is left to the caller, which reports it in one line.
        if file is None or file is sys.stderr:
            super()._print_message(message, file)
        elif message:
            file.write(message)


def parse(parser: Parser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parser.parse_args(argv)``, where an unknown option gets a "did you mean".

    argparse reports unknown arguments from the top parser, which knows none of
    a subcommand's options: here they are matched against the subcommand's own
    (``--gmaes`` → ``--games``), and the error comes from the subcommand's
    parser, with its usage line.
    """
    args, extras = parser.parse_known_args(None if argv is None else list(argv))
    if not extras:
        return args
    target = parser.subcommands.get(str(getattr(args, "command", "")), parser)
    hints = []
    for word in extras:
        option = word.split("=", 1)[0]
        hint = did_you_mean(option, target.options) if option.startswith("-") else ""
        hints += [f"{option}: {hint}"] if hint else []
    message = f"unrecognized arguments: {' '.join(extras)}"
    target.error(message + (f" ({'; '.join(hints)})" if hints else ""))
