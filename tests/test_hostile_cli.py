"""The command line under hostile input: every run ends in a message and an exit status.

Each case runs ``python -m canasta`` in a separate process (with a timeout, and
its address space capped so that a runaway read cannot take the machine down)
and checks the exit status, the ``canasta: error:`` line, the absence of a
traceback, the time taken (with generous slack: the machine is shared) and that
nothing printed holds a raw control character.

A case the library itself gets wrong is marked a strict xfail (``Case.xfail``)
naming the module to fix, so that the command line does not paper over it; none
is marked now.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import select
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from canasta.io.record import read_record

#: Address space of each child process: far more than a command needs, far less than the machine.
MEMORY_LIMIT = 1 << 30
#: Longest message a command may print on stderr.
MAX_MESSAGE = 2000
#: Raw control characters that must never reach the terminal (newline, tab and CR may).
RAW_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: A name with an escape sequence (clear screen), a bell and a right-to-left override.
HOSTILE_NAME = "bad\x1b[2J\x07\u202ename"


@dataclass(frozen=True)
class Run:
    """A finished ``canasta`` process."""

    status: int
    out: str
    err: str
    seconds: float


def _limit_memory() -> None:  # runs in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def canasta(
    *argv: str, stdin: str = "", env: dict[str, str] | None = None, timeout: float = 60,
    cwd: Path | None = None, prefix: tuple[str, ...] = (),
) -> Run:
    """Run ``python -m canasta ARGV`` (after ``prefix``, e.g. a shell that closes stdout)."""
    environ = dict(os.environ)
    environ.pop("CANASTA_DEBUG", None)
    environ.update(env or {})
    start = time.perf_counter()
    proc = subprocess.run(
        [*prefix, sys.executable, "-m", "canasta", *argv],
        input=stdin.encode(), capture_output=True, env=environ, timeout=timeout, cwd=cwd,
        preexec_fn=_limit_memory, check=False,
    )
    seconds = time.perf_counter() - start
    return Run(
        proc.returncode, proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"), seconds,
    )


def assert_clean(run: Run) -> None:
    """No traceback, no raw control character, no message too long."""
    assert "Traceback" not in run.err, run.err
    for name, text in (("stdout", run.out), ("stderr", run.err)):
        raw = RAW_CONTROL.search(text)
        assert raw is None, f"raw {raw.group()!r} on {name}: {text[:500]!r}"
    assert all(len(line) < MAX_MESSAGE for line in run.err.splitlines()), run.err[:3000]


# --- the hostile files -------------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of hostile files, named as the cases below use them."""
    d = tmp_path_factory.mktemp("hostile")
    os.mkfifo(d / "fifo")
    (d / "adir").mkdir()
    lines: list[str] = []
    size = 0
    while size < (1 << 20) - 32:  # just under the 1 MiB limit
        lines.append(f"k{len(lines)}: {len(lines)}\n")
        size += len(lines[-1])
    (d / "unknown-keys.yaml").write_text("".join(lines))
    (d / "two-mib.yaml").write_text("# padding\n" * (1 << 18))
    (d / "latin1.yaml").write_bytes(b"title: caf\xe9\nextends: classic\n")
    (d / "deep.yaml").write_text("players: " + "[" * 100_000 + "]" * 100_000 + "\n")
    (d / "deep-score.json").write_text(
        '{"variant": "classic", "sides": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    )
    (d / "deep.rec").write_text(
        "format: 1\nseed: 1\nvariant: " + "[" * 100_000 + "]" * 100_000 + "\n---\n"
    )
    (d / "huge-seed.rec").write_text("format: 1\nseed: " + "9" * 5000 + "\nvariant: classic\n---\n")
    (d / "binary.rec").write_bytes(b"format: 1\nseed: 1\nvariant: classic\n---\n\xff\xfe draw\n")
    sides = ['  - {melds: &a0 ["KH KS KD", "KH KS KD", "KH KS KD", "KH KS KD"]}']
    sides += [f"  - {{melds: &a{i} [{', '.join([f'*a{i - 1}'] * 8)}]}}" for i in range(1, 7)]
    (d / "laughs.yaml").write_text("variant: classic\nsides:\n" + "\n".join(sides) + "\n")
    profile = (
        'name: "x\\e[2Jy\\u202e"\ntitle: "T\\e[31mred\\a\\nsecond line"\n'
        'description: "\\e]0;pwned\\a"\nextends: classic\n'
    )
    (d / "controls.yaml").write_text(profile)
    (d / f"{HOSTILE_NAME}\n.yaml").write_text(profile)
    (d / "plain.txt").write_text("not a directory\n")
    (d / "unreadable.yaml").write_text("extends: classic\n")
    (d / "unreadable.yaml").chmod(0)
    return d


@dataclass(frozen=True)
class Case:
    """One hostile command line: what it must end in.

    ``{d}`` in an argument is the hostile directory. ``kind`` is the first word
    after ``canasta`` on stderr (``error``; ``usage`` for argparse's exit 2;
    ``check`` for ``canasta check``, whose findings go to stdout).
    """

    id: str
    argv: tuple[str, ...]
    status: int = 1
    kind: str = "error"
    says: str = ""
    seconds: float = 20.0
    xfail: str = ""
    needs_non_root: bool = False
    timeout: float = 60.0
    env: dict[str, str] = field(default_factory=dict)


CASES = [
    # files that are not profiles, records or score files
    Case("show-fifo", ("show", "{d}/fifo"), says="not a regular file"),
    Case("rules-fifo", ("rules", "{d}/fifo"), says="not a regular file"),
    Case("score-fifo", ("score", "{d}/fifo"), says="not a regular file"),
    # a FIFO would block an open() for ever: any timeout catches that; 30 s leaves
    # room for a loaded machine starting Python
    Case("replay-fifo", ("replay", "{d}/fifo"), says="not a regular file", timeout=30),
    Case("check-fifo", ("check", "{d}/fifo"), kind="check", says="not a regular file", timeout=30),
    Case("show-dir", ("show", "{d}/adir"), says="not a regular file"),
    Case("replay-dir", ("replay", "{d}/adir"), says="not a regular file"),
    Case("score-dir", ("score", "{d}/adir"), says="not a regular file"),
    Case("show-dev-zero", ("show", "/dev/zero"), says="not a regular file"),
    Case("score-dev-zero", ("score", "/dev/zero"), says="not a regular file"),
    Case("replay-dev-zero", ("replay", "/dev/zero"), says="not a regular file"),
    Case("play-record-dev-zero", ("play", "classic", "--record", "/dev/zero"),
         says="not a regular file"),
    Case("play-record-dir", ("play", "classic", "--record", "{d}/adir"), says="not a regular file"),
    Case("play-record-no-dir", ("play", "classic", "--record", "{d}/nowhere/game.rec"),
         says="does not exist"),
    Case("simulate-record-dev-zero", ("simulate", "classic", "--games", "1", "--record", "/dev/zero"),
         says="not a directory"),
    Case("simulate-record-file", ("simulate", "classic", "--games", "1", "--record", "{d}/plain.txt"),
         says="not a directory"),
    Case("show-missing", ("show", "{d}/missing.yaml"), says="not found"),
    Case("replay-missing", ("replay", "{d}/missing.rec"), says="not found"),
    Case("score-missing", ("score", "{d}/missing.yaml"), says="not found"),
    Case("show-unreadable", ("show", "{d}/unreadable.yaml"), says="ermission denied",
         needs_non_root=True),
    Case("replay-unreadable", ("replay", "{d}/unreadable.yaml"), says="ermission denied",
         needs_non_root=True),
    # big, deep and strange contents
    Case("show-1mib-unknown-keys", ("show", "{d}/unknown-keys.yaml"), says="larger than 256 KiB"),
    Case("show-2mib", ("show", "{d}/two-mib.yaml"), says="larger than 256 KiB"),
    Case("show-latin1", ("show", "{d}/latin1.yaml"), says="not UTF-8"),
    Case("show-deep", ("show", "{d}/deep.yaml"), says="nesting"),
    Case("score-deep-json", ("score", "{d}/deep-score.json"), says="nesting"),
    Case("score-laughs", ("score", "{d}/laughs.yaml"), says="more than 2000"),
    Case("replay-deep-header", ("replay", "{d}/deep.rec"), says="nesting", seconds=8, timeout=10),
    Case("replay-huge-seed", ("replay", "{d}/huge-seed.rec"), says="seed"),
    Case("replay-binary", ("replay", "{d}/binary.rec"), says="UTF-8"),
    # numbers
    Case("simulate-seed-1e5000", ("simulate", "classic", "--seed", "1e5000"), 2, "usage", "--seed"),
    Case("play-seed-1e5000", ("play", "classic", "--seed", "1e5000"), 2, "usage", "--seed"),
    Case("check-seed-5000-digits", ("check", "classic", "--seed", "9" * 5000), 2, "usage", "--seed"),
    Case("simulate-games-1e20", ("simulate", "classic", "--games", "99999999999999999999"), 2,
         "usage", "from 1 to 1000000"),
    Case("simulate-games-0", ("simulate", "classic", "--games", "0"), 2, "usage", "--games"),
    Case("simulate-jobs-negative", ("simulate", "classic", "--jobs", "-2"), 2, "usage", "--jobs"),
    Case("simulate-jobs-huge", ("simulate", "classic", "--jobs", "100000"), 2, "usage", "--jobs"),
    Case("simulate-max-hands-huge", ("simulate", "classic", "--max-hands", "1" + "0" * 30), 2,
         "usage", "--max-hands"),
    Case("check-playouts-1e20", ("check", "classic", "--playouts", "99999999999999999999"), 2,
         "usage", "--playouts"),
    Case("play-seat-1e20", ("play", "classic", "--seat", "99999999999999999999"), 2, "usage",
         "--seat"),
    Case("play-seat-negative", ("play", "classic", "--seat", "-1"), 2, "usage", "--seat"),
    Case("play-seat-out-of-the-variant", ("play", "classic-2p", "--seat", "2"), says="seat must be"),
    Case("play-seed-2-64", ("play", "classic", "--seed", str(1 << 64)), 2, "usage", "--seed"),
    # the longest argument Linux passes is 128 KiB
    Case("long-command", ("x" * 100_000,), 2, "usage", "invalid choice"),
    Case("long-bots", ("simulate", "classic", "--bots", "x" * 100_000), 2, "usage", "--bots"),
    Case("long-format", ("rules", "classic", "--format", "\x1b" * 30_000), 2, "usage", "--format"),
    Case("long-variant", ("show", "x" * 100_000), says="unknown variant"),
    # names and paths with control characters
    Case("show-control-path", ("show", f"{{d}}/{HOSTILE_NAME}\n.yaml"), says="control characters"),
    Case("show-control-missing", ("show", f"{{d}}/{HOSTILE_NAME}\n-missing.yaml"), says="\\x1b[2J"),
    Case("replay-control-missing", ("replay", f"{{d}}/{HOSTILE_NAME}.rec"), says="\\x1b[2J"),
    Case("score-control-missing", ("score", f"{{d}}/{HOSTILE_NAME}.yaml"), says="\\x1b[2J"),
    Case("unknown-variant-control", ("show", HOSTILE_NAME), says="unknown variant"),
    Case("rules-control-title", ("rules", "{d}/controls.yaml"), says="control characters"),
    Case("compare-control-title", ("compare", "{d}/controls.yaml", "classic"),
         says="control characters"),
    Case("check-control-title", ("check", "{d}/controls.yaml"), kind="check", says="control characters"),
    Case("simulate-control-name",
         ("simulate", "{d}/controls.yaml", "--games", "1", "--max-hands", "1"),
         says="control characters"),
    Case("play-control-title", ("play", "{d}/controls.yaml", "--seed", "1"), says="control characters"),
    Case("simulate-record-control-dir",
         ("simulate", "classic", "--games", "1", "--record", f"{{d}}/plain.txt/{HOSTILE_NAME}"),
         says="\\x1b[2J"),
]


def _argv(case: Case, d: Path) -> list[str]:
    return [a.replace("{d}", str(d)) for a in case.argv]


def _params() -> Iterator[object]:
    for case in CASES:
        marks = []
        if case.xfail:
            marks.append(pytest.mark.xfail(strict=True, reason=case.xfail))
        if case.needs_non_root:
            marks.append(pytest.mark.skipif(
                hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads any file"))
        yield pytest.param(case, id=case.id, marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_hostile_argument(case: Case, hostile: Path) -> None:
    """Each hostile argument ends in its exit status and message, quickly, without a traceback."""
    run = canasta(*_argv(case, hostile), stdin="q\n", env=case.env, timeout=case.timeout)
    assert run.status == case.status, (run.status, run.err[:2000])
    assert_clean(run)
    assert run.seconds < case.seconds, f"took {run.seconds:.1f} s"
    if case.kind == "error":
        assert run.err.startswith("canasta: error: "), run.err[:2000]
    elif case.kind == "usage":
        assert "error: argument" in run.err and "usage: canasta" in run.err
    elif case.kind == "check":
        assert run.err.startswith("canasta check: ")
    if case.says:
        assert case.says in (run.err + run.out), (run.err + run.out)[:2000]
    if case.kind == "error":
        assert len(run.err) < 2 * MAX_MESSAGE or case.says == "more problems"


def test_profile_with_controls_reaches_no_terminal(hostile: Path) -> None:
    """A title with an escape sequence, a bell and a newline is refused at load, and the refusal is escaped."""
    run = canasta("play", str(hostile / "controls.yaml"), "--seed", "1", stdin="q\n")
    assert run.status == 1
    assert_clean(run)
    assert "control characters" in run.err


# --- bugs, and CANASTA_DEBUG --------------------------------------------------------------

_BROKEN = (
    "import sys, canasta, canasta.cli as cli\n"
    "def broken():\n"
    "    raise TypeError('a bug')\n"
    "canasta.variant_names = broken\n"
    "sys.exit(cli.main(['variants']))\n"
)


def _python(code: str, env: dict[str, str] | None = None) -> Run:
    environ = {k: v for k, v in os.environ.items() if k != "CANASTA_DEBUG"}
    environ.update(env or {})
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=environ, timeout=60, check=False)
    return Run(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)


def test_a_bug_is_an_internal_error() -> None:
    """An exception of no expected type is reported as an internal error, not hidden."""
    run = _python(_BROKEN)
    assert run.status == 1
    assert run.err.startswith("canasta: internal error: TypeError: a bug\n")
    assert "please report" in run.err
    assert "CANASTA_DEBUG=1" in run.err
    assert "Traceback" not in run.err


def test_canasta_debug_shows_the_traceback() -> None:
    """With CANASTA_DEBUG=1 the traceback comes first, then the same lines."""
    run = _python(_BROKEN, {"CANASTA_DEBUG": "1"})
    assert run.status == 1
    assert run.err.startswith("Traceback (most recent call last):")
    assert "canasta: internal error: TypeError: a bug" in run.err


@pytest.mark.parametrize(
    ("statement", "says"),
    [
        ("raise RecursionError('maximum recursion depth exceeded')", "the input is nested too deeply"),
        ("raise MemoryError()", "out of memory"),
        ("b'\\xff'.decode()", "not UTF-8 text"),
        ("raise OverflowError('int too large to convert to float')", "a number is out of range"),
        ("raise ValueError('bad value')", "bad value"),
        ("raise IsADirectoryError(21, 'Is a directory', 'games')", "games: Is a directory"),
        ("raise PermissionError(13, 'Permission denied', 'x.yaml')", "x.yaml: Permission denied"),
    ],
)
def test_expected_exception_types_are_errors(statement: str, says: str) -> None:
    """RecursionError, MemoryError, UnicodeDecodeError, OverflowError, ValueError, OSError: exit 1."""
    run = _python(_BROKEN.replace("raise TypeError('a bug')", statement))
    assert run.status == 1, run.err
    assert run.err.startswith(f"canasta: error: {says}"), run.err
    assert "internal error" not in run.err
    assert "Traceback" not in run.err


# --- terminals that cannot show every character -------------------------------------------

_ASCII_COMMANDS = [
    ("variants",),
    ("show", "hand-and-foot"),
    ("rules", "classic"),
    ("rules", "classic", "--format", "html"),
    ("rules", "classic", "--format", "rst"),
    ("rules", "draw-two", "--diff", "classic"),
    ("compare", "classic", "draw-two", "hand-and-foot"),
    ("schema",),
    ("check", "classic"),
    ("simulate", "classic", "--games", "1", "--max-hands", "1"),
    ("play", "classic", "--seed", "1"),
    ("show", "caf\u00e9-\u2020"),
]


_ENCODINGS = {
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "latin-1": {"PYTHONIOENCODING": "latin-1"},
    # the C locale without Python's UTF-8 coercion: stdout is ASCII
    "lang-c": {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
}


def _encoding_params() -> Iterator[object]:
    for name, env in _ENCODINGS.items():
        for argv in _ASCII_COMMANDS:
            # every command in ASCII; the other encodings for the commands with symbols
            if name == "ascii" or argv[0] in {"rules", "show"}:
                # every command in ASCII in a plain run; the other encodings in the long run
                marks = () if name == "ascii" else (pytest.mark.long,)
                yield pytest.param(argv, env, id=f"{name}-{'-'.join(argv)[:40]}", marks=marks)


@pytest.mark.parametrize(("argv", "env"), list(_encoding_params()))
def test_ascii_terminal(argv: tuple[str, ...], env: dict[str, str]) -> None:
    """Every command works on a terminal that cannot show the rule book's daggers."""
    run = canasta(*argv, stdin="q\n", env=env)
    assert "Traceback" not in run.err, run.err
    assert "UnicodeEncodeError" not in run.err
    expected = 1 if argv[-1].startswith("caf") else 0
    assert run.status == expected, run.err
    if argv[:2] == ("rules", "classic") and env.get("PYTHONIOENCODING") == "ascii":
        assert "taken from Pagat" in run.out
        assert run.out.isascii()


# --- stdout closed or cut short -----------------------------------------------------------

_CLOSE_STDOUT = ("sh", "-c", 'exec "$@" >&-', "sh")
_CLOSE_STDERR = ("sh", "-c", 'exec "$@" 2>&-', "sh")


@pytest.mark.parametrize("argv", [("variants",), ("rules", "classic"), ("schema",), ("--help",)])
def test_stdout_closed(argv: tuple[str, ...]) -> None:
    """`canasta variants >&-`: one line on stderr and exit 1, no traceback."""
    run = canasta(*argv, prefix=_CLOSE_STDOUT)
    assert run.status == 1
    assert run.err == "canasta: error: standard output is closed: nowhere to print\n"


def test_stderr_closed() -> None:
    """With stderr closed the error is lost, not printed on stdout; the status stays 1."""
    run = canasta("show", "no-such-variant", prefix=_CLOSE_STDERR)
    assert run.status == 1
    assert run.out == ""


@pytest.mark.parametrize(
    "argv",
    [
        ("variants",),
        ("rules", "classic", "--format", "html"),
        ("show", "hand-and-foot"),
        ("schema",),
        ("compare", "classic", "draw-two", "hand-and-foot", "classic-2p", "classic-3p"),
        ("simulate", "classic", "--games", "1", "--max-hands", "1"),
    ],
    ids=lambda a: "-".join(a)[:30],
)
def test_broken_pipe(argv: tuple[str, ...]) -> None:
    """`canasta ... | head -0`: the reader is gone before the first write: exit 141, silent."""
    environ = {k: v for k, v in os.environ.items() if k != "CANASTA_DEBUG"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "canasta", *argv], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=environ,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the interpreter has even started
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141
    assert err == ""


@pytest.mark.parametrize("argv", [("variants",), ("rules", "classic"), ("--help",), ("--version",)])
def test_stdout_full(argv: tuple[str, ...]) -> None:
    """`canasta variants > /dev/full`: one line on stderr and exit 1, nothing of Python's ("Exception ignored")."""
    environ = {k: v for k, v in os.environ.items() if k != "CANASTA_DEBUG"}
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "canasta", *argv], stdout=full, stderr=subprocess.PIPE,
            env=environ, timeout=60, check=False,
        )
    assert proc.returncode == 1
    assert proc.stderr.decode() == "canasta: error: No space left on device\n"


# --- YAML tags at the command line ---------------------------------------------------------


@pytest.mark.parametrize("tag", ["!custom", "!!set", "!!python/object:os.system"])
@pytest.mark.parametrize("command", ["show", "check"])
def test_tagged_profile(tmp_path: Path, tag: str, command: str) -> None:
    """`canasta show FILE` and `canasta check FILE` of a profile with a tag on its root: the file, line and tag."""
    path = tmp_path / "tagged.yaml"
    path.write_text(f"{tag}\nextends: classic\nname: x\n")
    run = canasta(command, str(path))
    assert_clean(run)
    assert run.status == 1
    text = run.err + run.out
    assert "internal error" not in text, text
    assert "tagged.yaml:1:1: " in text and f"tag '{tag}' is not allowed" in text, text


# --- experiment reports without matplotlib ----------------------------------------------------


@pytest.fixture
def no_matplotlib(tmp_path: Path) -> dict[str, str]:
    """An environment in which ``import matplotlib`` fails, as it does without the plot extra."""
    fake = tmp_path / "no-plot" / "matplotlib"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('matplotlib is not installed here')\n")
    paths = [str(fake.parent), *sys.path]
    return {"PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def test_report_without_matplotlib(tmp_path: Path, no_matplotlib: dict[str, str]) -> None:
    """`experiment --report DIR` without matplotlib says so before the games, then writes the report without plots."""
    out = tmp_path / "report"
    run = canasta("experiment", "classic", "draw-two", "--games", "2", "--max-hands", "1",
                  "--report", str(out), env=no_matplotlib)
    assert_clean(run)
    assert run.status == 0, run.err
    lines = run.err.splitlines()
    assert lines[0].startswith("canasta: note: matplotlib is not installed: the report will have no plots"), lines
    assert lines[-1] == f"report: {out / 'index.html'}", lines
    page = (out / "index.html").read_text()
    assert "No plots: they need matplotlib" in page and "<img" not in page
    assert (out / "experiment.json").exists() and not list(out.glob("*.png"))


def test_report_directory_refused_before_the_games(tmp_path: Path) -> None:
    """A report directory that cannot be made: one line and exit 1 at once, not after a million games."""
    (tmp_path / "file").write_text("x")
    run = canasta("experiment", "classic", "draw-two", "--games", "1000000",
                  "--report", str(tmp_path / "file" / "report"), timeout=60)
    assert_clean(run)
    assert run.status == 1
    assert run.err.count("\n") == 1 and "cannot make the directory for the report" in run.err, run.err
    assert run.out == ""


# --- Ctrl-C -------------------------------------------------------------------------------


def _group(pgid: int) -> list[str]:
    """The live (not zombie) processes of process group ``pgid``, as ``/proc/PID/stat`` lines."""
    alive = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat_file.read_text()
        except OSError:
            continue
        fields = text.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(text[:80])
    return alive


def _children(pid: int) -> list[str]:
    kids: list[str] = []
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            kids += path.read_text().split()
    return kids


def _wait_for(condition: object, timeout: float) -> bool:
    assert callable(condition)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


pytestmark_linux = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


@pytest.fixture
def sigint_reaches_children() -> Iterator[None]:
    """Start the Ctrl-C tests' children with SIGINT at its default, as a terminal's shell does.

    A shell script that starts a command in the background (``python -m pytest &``)
    starts it with SIGINT ignored; an ignored signal stays ignored
    across ``exec``, and Python then installs no handler of its own, so every
    child would ignore the Ctrl-C these tests send (the simulation runs on, the
    game reads end of input). Such a child is right to ignore it: whoever ignored
    the signal meant it. What these tests check is a Ctrl-C that arrives, so for
    them this process stops ignoring it while they run (a child starts with a
    caught signal reset to its default).
    """
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytestmark_linux
@pytest.mark.usefixtures("sigint_reaches_children")
@pytest.mark.parametrize("jobs", ["2", "1"])
def test_ctrl_c_in_simulate(tmp_path: Path, jobs: str) -> None:
    """SIGINT: the summary of the games finished, exit 130, whole records, no worker left."""
    records = tmp_path / "games"
    environ = {k: v for k, v in os.environ.items() if k != "CANASTA_DEBUG"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "canasta", "simulate", "classic", "--games", "100000",
         "--jobs", jobs, "--record", str(records)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ, start_new_session=True,
    )
    try:
        # Two records on disk: the games are under way (and at --jobs 2, the workers too).
        started = _wait_for(lambda: len(list(records.glob("game-*.rec"))) >= 2, 90)
        assert started, "no game finished in 90 s"
        if jobs == "2":
            assert len(_children(proc.pid)) >= 2
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        out, err = proc.communicate(timeout=60)
        took = time.perf_counter() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text, errors = out.decode(), err.decode()
    assert proc.returncode == 130, errors
    assert took < 20
    assert "Traceback" not in errors
    found = re.search(r"interrupted after (\d+) of 100000 games", text)
    assert found, text
    done = int(found.group(1))
    assert text.startswith(f"classic: {done} games, seed 0\n")
    assert f"canasta: interrupted after {done} of 100000 games" in errors
    assert _wait_for(lambda: not _group(proc.pid), 10), _group(proc.pid)
    files = sorted(records.iterdir())
    assert all(f.name.startswith("game-") and f.suffix == ".rec" for f in files), files
    assert len(files) >= max(done, 2)
    for f in files:
        read_record(f).replay()  # whole, and legal to the last move


def _interrupt_after_progress(argv: list[str], games: int, timeout: float = 120) -> tuple[list[int], int, str, str]:
    """Run ``python -m canasta ARGV`` (for 100000 games) with stderr on a terminal, so that
    it draws its progress bar; send SIGINT once the bar shows ``games`` games done, and
    return the counts of games the bar showed, the exit status, stdout and what followed on stderr."""
    import pty

    environ = {k: v for k, v in os.environ.items() if k != "CANASTA_DEBUG"}
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "canasta", *argv], stdout=subprocess.PIPE, stderr=follower,
        env=environ, start_new_session=True,
    )
    os.close(follower)
    seen, shown, tail = [-1], b"", b""
    try:
        deadline = time.monotonic() + timeout
        while seen[-1] < games and time.monotonic() < deadline and proc.poll() is None:
            if select.select([leader], [], [], 0.5)[0]:
                with contextlib.suppress(OSError):
                    shown += os.read(leader, 4096)
                counts = re.findall(rb"(\d+)/100000\b", shown)  # the plain bar and the styled one
                seen = [int(c) for c in counts] or [-1]
        assert seen[-1] >= games, f"the progress bar showed {seen[-1]} games: {shown[-300:]!r}"
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
        while select.select([leader], [], [], 0.5)[0]:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal's other end is closed
                break
            if not chunk:
                break
            tail += chunk
    finally:
        os.close(leader)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return seen, proc.returncode, out.decode(), tail.decode("utf-8", "replace")


@pytestmark_linux
@pytest.mark.usefixtures("sigint_reaches_children")
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("command", ["simulate", "experiment"])
def test_ctrl_c_keeps_the_games_shown(command: str, jobs: str) -> None:
    """Ctrl-C once the progress bar has shown games done: the summary holds at least
    those games, exit 130. At --jobs 2 games come back from the workers as they finish
    (the bar's first count is a few games, not a whole shard of them)."""
    from canasta.play.backends import MAX_SHARD

    variants = ["classic"] if command == "simulate" else ["classic", "draw-two"]
    seen, status, out, err = _interrupt_after_progress(
        [command, *variants, "--games", "100000", "--jobs", jobs], games=3
    )
    assert status == 130, err
    assert "Traceback" not in err, err
    found = re.search(r"interrupted after (\d+) of 100000 games", out)
    assert found, out
    done = int(found.group(1))
    assert done >= seen[-1], f"the bar showed {seen[-1]} games, the summary holds {done}"
    first = next(n for n in seen if n > 0)
    assert first < MAX_SHARD, f"the first games came back {first} at a time"
    assert f"canasta: interrupted after {done} of 100000 games" in err


def test_experiment_interrupted_before_its_first_game(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C before any game ends: an empty summary that says so, and exit 130 (it was an error, exit 1)."""
    from canasta.cli import main
    from canasta.play.backends import LocalBackend

    def stopped(_self: object, _task: object, _games: int) -> Iterator[list[object]]:
        raise KeyboardInterrupt
        yield []

    monkeypatch.setattr(LocalBackend, "run", stopped)
    assert main(["experiment", "classic", "draw-two", "--games", "50"]) == 130
    out, err = capsys.readouterr()
    assert out.startswith("classic vs draw-two: 0 games each, seed 0, same deals\ninterrupted after 0 of 50 games\n")
    assert err == "canasta: interrupted after 0 of 50 games\n"


@pytestmark_linux
@pytest.mark.usefixtures("sigint_reaches_children")
def test_ctrl_c_in_simulate_from_the_terminal(tmp_path: Path) -> None:
    """Ctrl-C at a terminal signals the whole group, workers too: still no traceback."""
    environ = {k: v for k, v in os.environ.items() if k != "CANASTA_DEBUG"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "canasta", "simulate", "classic", "--games", "100000", "--jobs", "2",
         "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ, start_new_session=True,
    )
    try:
        assert _wait_for(lambda: len(_children(proc.pid)) >= 2, 60)
        time.sleep(2)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130
    assert "Traceback" not in err.decode(), err.decode()
    assert b'"interrupted": true' in out
    assert _wait_for(lambda: not _group(proc.pid), 10), _group(proc.pid)


@pytestmark_linux
@pytest.mark.usefixtures("sigint_reaches_children")
def test_ctrl_c_in_play_keeps_the_record(tmp_path: Path) -> None:
    """SIGINT at the move prompt: a goodbye, exit 0, and the record of the game so far."""
    record = tmp_path / "game.rec"
    environ = {k: v for k, v in os.environ.items() if k != "CANASTA_DEBUG"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "canasta", "play", "classic", "--seed", "3", "--record", str(record)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ,
        start_new_session=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b"1\n1\n")  # draw, then the first move offered
        proc.stdin.flush()
        seen = b""
        while seen.count(b"Your move") < 3:
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, seen.decode()[-500:]
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, seen.decode()[-500:]
            seen += chunk
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = (seen + out).decode()
    assert proc.returncode == 0, err.decode()
    assert err == b""
    assert "Interrupted: goodbye." in text
    assert f"Game record written to {record}" in text
    assert stat.S_ISREG(record.stat().st_mode)
    assert len(read_record(record).moves) >= 2


def test_huge_line_at_the_prompt() -> None:
    """A line of a mebibyte with no newline is refused whole; the game goes on to 'q'."""
    run = canasta("play", "classic", "--seed", "1", stdin="x" * (1 << 20) + "\nq\n")
    assert run.status == 0
    assert "longer than 4096 characters" in run.out
    assert "goodbye" in run.out
    assert_clean(run)


def test_bytes_that_are_not_text_at_the_prompt() -> None:
    """Input that is not UTF-8 is a move not understood, not a crash."""
    environ = {k: v for k, v in os.environ.items() if k != "CANASTA_DEBUG"}
    proc = subprocess.run(
        [sys.executable, "-m", "canasta", "play", "classic", "--seed", "1"],
        input=b"\xff\xfe\x1b[2J\nq\n", capture_output=True, env=environ, timeout=60, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stderr
    assert b"\x1b" not in proc.stdout
    assert b"goodbye" in proc.stdout


def test_check_finding_with_a_newline_in_the_file_name(hostile: Path) -> None:
    """`canasta check` of a missing file whose name holds a newline: one finding, one line,
    the newline written as an escape."""
    run = canasta("check", f"{hostile}/{HOSTILE_NAME}\n-missing.yaml")
    assert run.status == 1
    assert_clean(run)
    assert len(run.out.splitlines()) == 1, run.out
    assert "\\n-missing.yaml: error C000" in run.out, run.out


# --- the documentation states the limits of the code -----------------------------------------


def test_security_page_gives_the_current_limits() -> None:
    """docs/security.rst quotes each limit with the value the code has."""
    from canasta import cli, limits
    from canasta.engine import integrity
    from canasta.io import record, score_file
    from canasta.play import simulate, terminal
    from canasta.variant import loading

    page = (Path(__file__).resolve().parents[1] / "docs" / "security.rst").read_text()
    rows = {
        "loading.MAX_FILE_BYTES": (loading.MAX_FILE_BYTES, "256 KiB"),
        "loading.MAX_NESTING": (loading.MAX_NESTING, f"{loading.MAX_NESTING} levels"),
        "loading.MAX_EXTENDS": (loading.MAX_EXTENDS, f"{loading.MAX_EXTENDS} links"),
        "record.MAX_HEADER_BYTES": (record.MAX_HEADER_BYTES, "256 KiB"),
        "score_file.MAX_FILE_BYTES": (score_file.MAX_FILE_BYTES, "256 KiB"),
        "score_file.MAX_NESTING": (score_file.MAX_NESTING, f"{score_file.MAX_NESTING} levels"),
        "simulate.MAX_GAMES": (simulate.MAX_GAMES, f"{simulate.MAX_GAMES:,}"),
        "simulate.MAX_JOBS": (simulate.MAX_JOBS, f"{simulate.MAX_JOBS}"),
        "terminal.MAX_LINE": (terminal.MAX_LINE, f"{terminal.MAX_LINE} chars"),
        "limits.MAX_MOVE_CHARS": (limits.MAX_MOVE_CHARS, f"{limits.MAX_MOVE_CHARS} chars"),
        "cli.MAX_MESSAGE": (cli.MAX_MESSAGE, f"{cli.MAX_MESSAGE} chars"),
        "cli.MAX_PROBLEMS": (cli.MAX_PROBLEMS, f"{cli.MAX_PROBLEMS}"),
        "limits.MAX_MOVE_CARDS": (limits.MAX_MOVE_CARDS, f"{limits.MAX_MOVE_CARDS}"),
        "limits.MOVE_QUOTE_CHARS": (limits.MOVE_QUOTE_CHARS, f"{limits.MOVE_QUOTE_CHARS} chars"),
        "limits.QUOTE_CHARS": (limits.QUOTE_CHARS, f"{limits.QUOTE_CHARS} chars"),
        "limits.MAX_MESSAGE_CHARS": (limits.MAX_MESSAGE_CHARS, f"{limits.MAX_MESSAGE_CHARS} chars"),
        "integrity.SEED_LIMIT": (integrity.SEED_LIMIT, f"{integrity.SEED_LIMIT.bit_length() - 1} bits"),
    }
    for name, (value, shown) in rows.items():
        if shown.endswith(("MiB", "KiB")):
            number, unit = shown.split()
            assert value == int(number) << (20 if unit == "MiB" else 10), name
        line = next((ln for ln in page.splitlines() if ln.rstrip().endswith(f".{name}``")), None)
        assert line is not None, f"{name} is not in the table of limits"
        assert f" {shown} " in line, f"{name} = {value}, but the page says: {line.strip()}"
