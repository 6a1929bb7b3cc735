"""Tests of canasta.cli: the ``canasta`` command line."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

import canasta
from canasta import cli, console
from canasta.cli import main
from canasta.engine import COMPILED

BUNDLED = [
    "bolivia", "brazilian", "classic", "classic-2p", "classic-3p", "classic-6p", "draw-two", "hand-and-foot",
    "hand-and-foot-pagat", "modern-american", "modern-american-2p", "samba", "uruguayan",
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Call main(argv) and return (status, stdout, stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


class TestMain:
    """main(): the parser, --help, --version and exit codes."""

    def test_help(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--help exits 0 and lists every registered subcommand."""
        status, out, _ = run(capsys, "--help")
        assert status == 0
        assert out.startswith("usage: canasta")
        for name in ["variants", "show", "schema"]:
            assert name in out

    @pytest.mark.parametrize("name", list(cli.COMMANDS))
    def test_subcommand_help(self, capsys: pytest.CaptureFixture[str], name: str) -> None:
        """Every subcommand has --help, which exits 0 with its own usage line."""
        status, out, err = run(capsys, name, "--help")
        assert status == 0
        assert out.startswith(f"usage: canasta {name}")
        assert err == ""

    def test_version(self, capsys: pytest.CaptureFixture[str]) -> None:
        """--version prints the package version and exits 0."""
        status, out, _ = run(capsys, "--version")
        assert status == 0
        engine = " (compiled engine)" if COMPILED else ""
        assert out.strip() == f"canasta {canasta.__version__}{engine}"

    def test_no_command_is_usage_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        """No subcommand at all is a usage error: exit 2, usage on stderr."""
        status, out, err = run(capsys)
        assert status == 2
        assert out == ""
        assert "usage: canasta" in err
        assert "canasta: error:" in err

    def test_unknown_command_is_usage_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        """An unknown subcommand exits 2 and names it."""
        status, _, err = run(capsys, "dance")
        assert status == 2
        assert "'dance'" in err

    def test_unknown_option_is_usage_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        """An unknown option exits 2."""
        status, _, err = run(capsys, "variants", "--colour")
        assert status == 2
        assert "--colour" in err

    @pytest.mark.parametrize(
        ("argv", "hint"),
        [
            (["simlate", "classic"], "did you mean 'simulate'?"),
            (["simulate", "classic", "--gmaes", "3"], "--gmaes: did you mean '--games'?"),
            (["simulate", "classic", "--gmaes=3"], "--gmaes: did you mean '--games'?"),
            (["rules", "classic", "--format", "htm"], "did you mean 'html'?"),
        ],
    )
    def test_misspelling_gets_a_hint(
        self, capsys: pytest.CaptureFixture[str], argv: list[str], hint: str
    ) -> None:
        """A misspelt subcommand, option or choice is a usage error that names the close word."""
        status, out, err = run(capsys, *argv)
        assert (status, out) == (2, "")
        assert hint in err
        # the subcommand's own usage line, where an option of it was misspelt
        assert err.startswith(f"usage: canasta {argv[0]}" if "--" in argv[-1] or "--" in argv[-2]
                              else "usage: canasta [")

    def test_no_hint_when_nothing_is_close(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A word like no known one gets no guess."""
        status, _, err = run(capsys, "simulate", "classic", "--zzzzzz")
        assert status == 2
        assert "did you mean" not in err and "--zzzzzz" in err

    @pytest.mark.parametrize("argv", [["experiment"], ["experiment", "classic", "--games", "5"]])
    def test_experiment_says_it_needs_two_variants(
        self, capsys: pytest.CaptureFixture[str], argv: list[str]
    ) -> None:
        """experiment with fewer than two variants says it needs a baseline and another."""
        status, _, err = run(capsys, *argv)
        assert status == 2
        assert "experiment needs two or more variants" in err
        assert "required: VARIANT" not in err

    def test_keyboard_interrupt_exits_130_quietly(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Ctrl-C during a command exits 130 without a traceback."""

        def interrupted() -> list[str]:
            raise KeyboardInterrupt

        monkeypatch.setattr(canasta, "variant_names", interrupted)
        status, out, err = run(capsys, "variants")
        assert status == 130
        assert out == ""
        assert err == ""

    def test_broken_pipe_exits_quietly(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A closed stdout (e.g. `| head`) ends the command quietly with 141."""

        def broken() -> list[str]:
            raise BrokenPipeError

        monkeypatch.setattr(canasta, "variant_names", broken)
        status, _, err = run(capsys, "variants")
        assert status == 141
        assert err == ""

    def test_other_os_error_is_failure(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An OSError such as an unreadable file is reported in one line with exit 1."""

        def unreadable() -> list[str]:
            raise PermissionError(13, "Permission denied", "variants/classic.yaml")

        monkeypatch.setattr(canasta, "variant_names", unreadable)
        status, _, err = run(capsys, "variants")
        assert status == 1
        assert err.startswith("canasta: error: ")
        assert "Permission denied" in err
        assert "Traceback" not in err

    def test_bug_is_an_internal_error(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An exception of no expected type: `internal error`, a request to report it, exit 1."""

        def buggy() -> list[str]:
            raise KeyError("oops")

        monkeypatch.delenv("CANASTA_DEBUG", raising=False)
        monkeypatch.setattr(canasta, "variant_names", buggy)
        status, out, err = run(capsys, "variants")
        assert status == 1
        assert out == ""
        first, second = err.splitlines()
        assert first == "canasta: internal error: KeyError: 'oops'"
        assert "please report" in second
        assert "Traceback" not in err

    def test_canasta_debug_prints_the_traceback(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """CANASTA_DEBUG=1 adds the traceback, for errors and bugs alike."""

        def unreadable() -> list[str]:
            raise PermissionError(13, "Permission denied", "variants")

        monkeypatch.setenv("CANASTA_DEBUG", "1")
        monkeypatch.setattr(canasta, "variant_names", unreadable)
        status, _, err = run(capsys, "variants")
        assert status == 1
        assert err.startswith("Traceback (most recent call last):")
        assert err.endswith("canasta: error: variants: Permission denied\n")

    @pytest.mark.parametrize(
        ("exc", "message"),
        [
            (RecursionError("maximum recursion depth exceeded"), "the input is nested too deeply"),
            (MemoryError(), "out of memory"),
            (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), "not UTF-8 text"),
            (OverflowError("int too large"), "a number is out of range: int too large"),
            (ValueError("no good"), "no good"),
            (IsADirectoryError(21, "Is a directory", "games"), "games: Is a directory"),
        ],
    )
    def test_expected_exceptions_are_errors(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        exc: Exception, message: str,
    ) -> None:
        """Errors of the input or the system are `canasta: error:` lines with exit 1."""

        def failing() -> list[str]:
            raise exc

        monkeypatch.delenv("CANASTA_DEBUG", raising=False)
        monkeypatch.setattr(canasta, "variant_names", failing)
        status, _, err = run(capsys, "variants")
        assert status == 1
        assert err.startswith(f"canasta: error: {message}")
        assert err.count("\n") == 1

    def test_long_message_is_cut(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An error message is cut to MAX_MESSAGE characters and says how much was left out."""

        def verbose() -> list[str]:
            raise canasta.CanastaError("x" * 50_000)

        monkeypatch.setattr(canasta, "variant_names", verbose)
        status, _, err = run(capsys, "variants")
        assert status == 1
        assert len(err) < cli.MAX_MESSAGE + 100
        assert err.rstrip().endswith(f"({50_000 - cli.MAX_MESSAGE} more characters)")


class TestPrintable:
    """What the commands print cannot act on the terminal, and never fails to encode."""

    def test_safe_escapes_controls(self) -> None:
        """_safe() escapes C0, DEL, C1, bidirectional marks, newlines and tabs; text stays."""
        assert console.safe("a\x1b[2Jb\x07\n\t\x7f\x9b\u202e\u2028 caf\u00e9 \u2020") == (
            "a\\x1b[2Jb\\x07\\x0a\\x09\\x7f\\x9b\\u202e\\u2028 caf\u00e9 \u2020"
        )

    def test_output_keeps_lines_and_escapes_the_rest(self) -> None:
        """The stdout filter keeps newlines and tabs, escapes the other controls."""
        import io

        buffer = io.StringIO()
        out = console.Output(buffer, console.UNSAFE_IN_TEXT)
        assert out.write("T\x1b[31m\tx\r\n") == 10
        assert buffer.getvalue() == "T\\x1b[31m\tx\\x0d\n"

    @staticmethod
    def _ascii(text: str) -> bytes:
        """What ``text`` becomes on an ASCII stream."""
        import io

        raw = io.BytesIO()
        stream = io.TextIOWrapper(raw, encoding="ascii")
        console.Output(stream, console.UNSAFE_IN_TEXT).write(text)
        stream.flush()
        return raw.getvalue()

    def test_output_falls_back_to_ascii(self) -> None:
        """On an ASCII stream the dagger is '+', quotes are plain, anything else an escape."""
        assert self._ascii("50\u2020 \u201cyes\u201d caf\u00e9\n") == b'50+ "yes" caf\\xe9\n'

    def test_note_marks_fall_back_to_ascii(self) -> None:
        """A rule book's note marks read as bracketed numbers on an ASCII stream, never as escapes."""
        text = "108 cards.\u00b9 Points\u00b9\u2070\n\n\u00b9\u00b2 A note.\n\u00b0 Fixed.\n"
        assert self._ascii(text) == b"108 cards.[1] Points[10]\n\n[12] A note.\n[o] Fixed.\n"

    def test_a_book_on_an_ascii_stream_has_no_escapes(self) -> None:
        """Every character of the classic book has an ASCII stand-in."""
        text = self._ascii(canasta.describe(canasta.load_variant("classic"))).decode("ascii")
        assert "\\u" not in text and "\\x" not in text
        assert "108 cards.[1]" in text

    def test_profile_title_is_escaped(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """A name with an escape sequence is refused at load, and the refusal prints it escaped."""
        path = tmp_path / "evil.yaml"
        path.write_text('name: "ev\\e[2Jil"\nextends: classic\n')
        status, out, err = run(capsys, "simulate", str(path), "--games", "1", "--max-hands", "1")
        assert status == 1
        assert "control characters" in err
        assert "\x1b" not in out + err

    def test_file_name_is_escaped(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A file name with a newline and an escape stays on one line of stderr."""
        status, _, err = run(capsys, "show", "./no\nsuch\x1b[2J.yaml")
        assert status == 1
        assert err == "canasta: error: ./no\\nsuch\\x1b[2J.yaml: file not found\n"


class TestNumbers:
    """Whole-number options have a range; out of it is a usage error with a short message."""

    @pytest.mark.parametrize(
        "argv",
        [
            ["simulate", "classic", "--games", "1000001"],
            ["simulate", "classic", "--jobs", "65"],
            ["simulate", "classic", "--jobs", "0"],
            ["simulate", "classic", "--seed", str(1 << 64)],
            ["simulate", "classic", "--seed", "1e5"],
            ["simulate", "classic", "--games", "\u0663"],  # an Arabic-Indic 3: not ASCII
            ["check", "classic", "--playouts", "-1"],
            ["play", "classic", "--seat", "64"],
        ],
    )
    def test_out_of_range(self, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
        """Exit 2, the option named, the range given."""
        status, out, err = run(capsys, *argv)
        assert status == 2
        assert out == ""
        assert f"argument {argv[2]}: " in err
        assert "expected a whole number from" in err

    def test_long_value_is_cut_in_the_message(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A 10,000-digit seed is quoted with its first 40 characters only."""
        status, _, err = run(capsys, "simulate", "classic", "--seed", "9" * 10_000)
        assert status == 2
        assert len(err) < 1000
        assert "'" + "9" * 40 + "'..." in err

    def test_negative_seed_accepted(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Negative seeds are seeds."""
        status, out, _ = run(capsys, "simulate", "classic", "--games", "1", "--max-hands", "1",
                             "--seed", str(-(1 << 63)))
        assert status == 0
        assert f"seed {-(1 << 63)}" in out


class TestRegistry:
    """The subcommand registry that new subcommands plug into."""

    def test_new_command_is_wired_in(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A function registered with @command gets a parser, --help and its exit status."""
        monkeypatch.setattr(cli, "COMMANDS", dict(cli.COMMANDS))

        @cli.command("echo", "print the words", cli.argument("words", nargs="*"))
        def _echo(args: argparse.Namespace) -> int:
            """Print the words, then report a finding."""
            print(" ".join(args.words))
            return 1

        status, out, _ = run(capsys, "echo", "a", "b")
        assert (status, out) == (1, "a b\n")
        status, out, _ = run(capsys, "echo", "--help")
        assert status == 0
        assert "Print the words, then report a finding." in out
        status, out, _ = run(capsys, "--help")
        assert "print the words" in out

    def test_duplicate_name_rejected(self) -> None:
        """Registering a name twice is a programming error."""
        with pytest.raises(ValueError, match="'show' is already registered"):
            cli.command("show", "again")(lambda args: 0)

    def test_build_parser_has_every_command(self) -> None:
        """The parser accepts every registered name."""
        parser = cli.build_parser()
        assert parser.parse_args(["variants"]).command == "variants"
        assert parser.parse_args(["show", "classic"]).variant == "classic"


class TestVariants:
    """canasta variants."""

    def test_lists_bundled_names_with_titles(self, capsys: pytest.CaptureFixture[str]) -> None:
        """One line per bundled profile: its name, then its title."""
        status, out, err = run(capsys, "variants")
        assert status == 0
        assert err == ""
        lines = out.splitlines()
        assert [line.split()[0] for line in lines] == BUNDLED
        for line, name in zip(lines, BUNDLED, strict=True):
            title = canasta.load_variant(name).title
            assert title
            assert line.endswith("  " + title)

    def test_titles_are_aligned(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Titles start in one column."""
        _, out, _ = run(capsys, "variants")
        starts = {
            len(line) - len(line[len(name) :].lstrip())
            for line, name in zip(out.splitlines(), BUNDLED, strict=True)
        }
        assert len(starts) == 1


class TestShow:
    """canasta show VARIANT."""

    @pytest.mark.parametrize("name", BUNDLED)
    def test_bundled_profile_round_trips(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
    ) -> None:
        """The printed YAML is a profile that loads back to the same variant."""
        status, out, err = run(capsys, "show", name)
        assert status == 0
        assert err == ""
        data = yaml.safe_load(out)
        assert data["name"] == name
        path = tmp_path / f"{name}.yaml"
        path.write_text(out, encoding="utf-8")
        assert canasta.load_variant(str(path)) == canasta.load_variant(name)

    def test_every_problem_of_a_profile_is_shown(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """A profile with five mistakes: five 'canasta: error:' lines, each FILE:LINE:COL, exit 1."""
        path = tmp_path / "house.yaml"
        path.write_text(
            "extends: classic\ndeal: {hand_size: 0}\ndraw: {count: 9}\nmelds: {min_sise: 3}\n"
            "pile: {frozen_by_wild: maybe}\ncolour: red\n",
            encoding="utf-8",
        )
        status, out, err = run(capsys, "show", str(path))
        assert (status, out) == (1, "")
        lines = err.splitlines()
        assert [line.split(": ")[3] for line in lines] == [
            "deal.hand_size", "draw.count", "melds.min_sise", "pile.frozen_by_wild", "colour"]
        assert all(line.startswith(f"canasta: error: {path}:{n}:") for n, line in enumerate(lines, 2))
        status, out, _ = run(capsys, "check", str(path))
        assert status == 1
        assert [line.split(": error C000 ")[0] for line in out.splitlines()[:5]] == [
            f"{path}:{n}:{c}" for n, c in [(2, 19), (3, 15), (4, 9), (5, 24), (6, 1)]]

    def test_extends_is_resolved(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A profile that extends classic is shown with classic's options filled in."""
        _, out, _ = run(capsys, "show", "classic-2p")
        data = yaml.safe_load(out)
        assert "extends" not in data
        assert data["players"]["count"] == 2
        assert data["deal"]["hand_size"] == 15
        assert data["canastas"]["size"] == 7  # inherited from classic
        assert data["melds"]["max_wilds"] == 3  # inherited from classic

    def test_path_to_house_profile(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """VARIANT may be the path of a house profile that extends a bundled one."""
        path = tmp_path / "house.yaml"
        path.write_text("extends: classic\nname: house\ngame:\n  target: 7500\n", encoding="utf-8")
        status, out, _ = run(capsys, "show", str(path))
        assert status == 0
        data = yaml.safe_load(out)
        assert data["name"] == "house"
        assert data["game"]["target"] == 7500
        assert data["deal"]["hand_size"] == 11

    def test_unknown_name_fails_with_one_line(self, capsys: pytest.CaptureFixture[str]) -> None:
        """An unknown variant exits 1 with `canasta: error:` on stderr and no traceback."""
        status, out, err = run(capsys, "show", "clasic")
        assert status == 1
        assert out == ""
        assert err.startswith("canasta: error: ")
        assert "clasic" in err
        assert "Traceback" not in err

    def test_name_of_a_file_here_hints_its_path(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """`canasta show family` beside family.yaml says to give the path, ./family.yaml."""
        (tmp_path / "family.yaml").write_text("extends: classic\nname: family\n", encoding="utf-8")
        monkeypatch.chdir(tmp_path)
        status, _, err = run(capsys, "show", "family")
        assert status == 1
        assert "unknown variant 'family'; to load the file here, give its path: ./family.yaml" in err
        status, out, _ = run(capsys, "show", "./family.yaml")
        assert status == 0 and "name: family" in out

    def test_missing_file_fails(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """A path that does not exist exits 1 with an error message."""
        status, _, err = run(capsys, "show", str(tmp_path / "nowhere.yaml"))
        assert status == 1
        assert err.startswith("canasta: error: ")
        assert "Traceback" not in err

    def test_unknown_key_fails(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """A profile with an unknown key exits 1 and names the key."""
        path = tmp_path / "typo.yaml"
        path.write_text("extends: classic\nname: typo\ndeal:\n  hand_sise: 13\n", encoding="utf-8")
        status, out, err = run(capsys, "show", str(path))
        assert status == 1
        assert out == ""
        assert err.startswith("canasta: error: ")
        assert "hand_sise" in err
        assert "Traceback" not in err

    def test_missing_argument_is_usage_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        """show without VARIANT exits 2."""
        status, _, err = run(capsys, "show")
        assert status == 2
        assert "VARIANT" in err


class TestSchema:
    """canasta schema."""

    def test_prints_valid_json_schema(self, capsys: pytest.CaptureFixture[str]) -> None:
        """The output is JSON, and a valid JSON Schema, equal to json_schema()."""
        from canasta.variant.schema import json_schema

        status, out, err = run(capsys, "schema")
        assert status == 0
        assert err == ""
        schema = json.loads(out)
        assert schema == json_schema()
        jsonschema.validators.validator_for(schema).check_schema(schema)

    def test_output_is_stable(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Keys are sorted and indented, so the output diffs cleanly."""
        _, out, _ = run(capsys, "schema")
        assert out == json.dumps(json.loads(out), indent=2, sort_keys=True) + "\n"

    @pytest.mark.parametrize("name", BUNDLED)
    def test_shown_profiles_follow_the_schema(
        self, capsys: pytest.CaptureFixture[str], name: str
    ) -> None:
        """What `canasta show` prints validates against what `canasta schema` prints."""
        _, schema_text, _ = run(capsys, "schema")
        _, profile_text, _ = run(capsys, "show", name)
        jsonschema.validate(yaml.safe_load(profile_text), json.loads(schema_text))


class TestModuleEntryPoint:
    """python -m canasta, in a separate process."""

    def test_python_m_canasta_variants(self) -> None:
        """`python -m canasta variants` lists the bundled profiles and exits 0."""
        proc = subprocess.run(
            [sys.executable, "-m", "canasta", "variants"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert [line.split()[0] for line in proc.stdout.splitlines()] == BUNDLED

    def test_python_m_canasta_error(self) -> None:
        """An error in a real process gives exit 1 and one line on stderr, no traceback."""
        proc = subprocess.run(
            [sys.executable, "-m", "canasta", "show", "no-such-variant"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 1
        assert proc.stdout == ""
        assert proc.stderr.startswith("canasta: error: ")
        assert "Traceback" not in proc.stderr
