"""Hostile profiles, records and score files: refused fast and cleanly.

Every input here is built to make a reader do unbounded work, break later, read
what is not a file, or leak what it should not. Each must raise the reader's
own :class:`~canasta.CanastaError` subclass within :data:`TIME_LIMIT` seconds,
with a message that names the place (file, line, key), is shorter than
:data:`MAX_MESSAGE`, holds no raw control character, and quotes nothing of a
file that is not what it should be. The readers' limits are in
:mod:`canasta.limits`.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta import limits
from canasta.errors import CanastaError, VariantError
from canasta.io.record import MAX_MOVE_CHARS, RecordError, parse_record, read_record, replay_file
from canasta.io.score_file import ScoreFileError, format_scores, read_score_file
from canasta.io.serialize import to_json
from canasta.limits import (
    MAX_INT_CHARS,
    MAX_PROBLEMS,
    MAX_YAML_LINES,
    MAX_YAML_NODES,
    GuardedLoader,
    InputError,
    LoaderRefusal,
    read_text_file,
)
from canasta.play.bots import GreedyBot
from canasta.rulebook import describe
from canasta.variant.convert import dump_variant
from canasta.variant.loading import MAX_FILE_BYTES, load_variant, variant_from_dict
from canasta.variant.model import (
    AREAS,
    MAX_CARDS,
    MAX_WILD_MIXES,
    MAX_WILD_RANKS,
    OpeningStep,
    RankBonus,
    Variant,
    wild_mixes,
)
from canasta.variant.options import option_fields
from cpu_clock import cpu_clock

#: CPU seconds within which every refusal must come (generous: most take
#: milliseconds). CPU time, not wall time: a loaded machine (parallel test
#: workers, other jobs) must not fail the test, and unbounded work still would.
#: A bound on runaway work (seconds to minutes), not a speed target: a 2-core
#: machine under load once took 1.7 s of CPU for a refusal that takes 0.05 s,
#: so the bound leaves room for that.
TIME_LIMIT = 2.0
# What a first load does once per process (imports, the schema, compiled
# tables) is not the hostile input's work: done here, before any timing.
load_variant("classic")

#: Every message is shorter than this.
MAX_MESSAGE = 2000
#: Seconds after which a read that blocks is stopped and the test fails.
HANG_LIMIT = 10

CLASSIC = load_variant("classic")
HEADER = "# canasta game record\nformat: 1\nseed: 7\nvariant: classic\n---\n"
#: Text a non-profile file holds that no message may quote.
SECRET = "hunter2-SECRET-0xDEADBEEF"


class Hung(Exception):
    """A read blocked: what these guards must prevent."""


@contextlib.contextmanager
def hang_guard(seconds: int = HANG_LIMIT) -> Iterator[None]:
    """Fail (rather than hang the suite) when the body blocks for ``seconds``."""
    if not hasattr(signal, "SIGALRM"):  # pragma: no cover - not POSIX
        yield
        return

    def on_alarm(_signum: int, _frame: Any) -> None:
        raise Hung(f"blocked for {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def refused(
    error: type[CanastaError],
    call: Callable[[], object],
    *places: str,
    secrets: tuple[str, ...] = (),
    limit: float = TIME_LIMIT,
) -> str:
    """Run ``call``: it must raise exactly ``error``, fast, with a short clean message naming ``places``."""
    with cpu_clock() as clock, hang_guard(), pytest.raises(CanastaError) as info:
        call()
    elapsed = clock()
    message = str(info.value)
    assert type(info.value) is error, f"{type(info.value).__name__}: {message}"
    assert elapsed < limit, f"took {elapsed:.2f} s: {message[:200]}"
    assert len(message) < MAX_MESSAGE, f"{len(message)} characters"
    assert all(ch.isprintable() or ch == "\n" for ch in message), repr(message[:200])
    for place in places:
        assert place in message, f"{place!r} not in {message[:300]!r}"
    for secret in secrets:
        assert secret not in message, f"{secret!r} leaked: {message[:300]!r}"
    return message


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def load(path: Path) -> Callable[[], object]:
    return lambda: load_variant(str(path))


def score(path: Path) -> Callable[[], object]:
    return lambda: read_score_file(str(path))


def record(path: Path) -> Callable[[], object]:
    return lambda: read_record(str(path))


# --------------------------------------------------------------------------- 1. unbounded work

# (file name, text, what the message must say)
PROFILES_OF_UNBOUNDED_WORK: list[tuple[str, str, tuple[str, ...]]] = [
    ("items.yaml", "customs:\n" + "- x\n" * 300_000, ("items.yaml", "larger than 256 KiB")),
    ("items2.yaml", "customs:\n" + "- x\n" * 5_000, ("items2.yaml:", f"more than {MAX_YAML_NODES} keys")),
    ("flow.yaml", "customs: [" + "x," * 100_000 + "]\n", ("flow.yaml:1:", f"more than {MAX_YAML_NODES} keys")),
    ("keys.yaml", "".join(f"k{i}: 1\n" for i in range(900)), ("keys.yaml:1:1:", "not a variant profile")),
    ("nodes.yaml", "".join(f"k{i}: 1\n" for i in range(5_000)), ("nodes.yaml:1000:7: more than 2000 keys",)),
    ("manylines.yaml", "".join(f"k{i}: 1\n" for i in range(20_000)), ("manylines.yaml:10001:1: more than",)),
    ("nested.yaml", "melds:\n" + "".join(f"  k{i}: 1\n" for i in range(5_000)),
     ("nested.yaml:", f"more than {MAX_YAML_NODES} keys")),
    ("typo.yaml", "melds:\n  min_sise: 3\n" + "".join(f"  k{i}: 1\n" for i in range(900)),
     ("typo.yaml:2:3: melds.min_sise: unknown option; did you mean 'min_size'?",)),
    ("blank.yaml", "\n" * 200_000 + "draw: {count: 2}\n", ("blank.yaml:", f"more than {MAX_YAML_LINES} lines")),
    ("crlf.yaml", "\r" * 200_000, ("crlf.yaml:", f"more than {MAX_YAML_LINES} lines")),
    ("base60.yaml", "deal:\n  hand_size: 1" + ":59" * 30_000 + "\n",
     ("base60.yaml:2:14: deal.hand_size: expected an integer from 1 to 30, got '1:59:59",)),
    ("tagged60.yaml", "deal:\n  hand_size: !!int 1" + ":59" * 30_000 + "\n",
     ("tagged60.yaml:2:14: deal.hand_size: an integer of", f"at most {MAX_INT_CHARS} are read")),
    ("hex.yaml", "values:\n  ace: 0x" + "f" * 5000 + "\n", ("hex.yaml:2:8: values.ace: an integer of 5002",)),
    ("digits.yaml", "values:\n  ace: " + "9" * 400 + "\n", ("digits.yaml:2:8: values.ace: an integer of 400",)),
    ("deep.yaml", "a: " + "[" * 100_000 + "\n", ("deep.yaml:1:24: nesting deeper than 20 levels",)),
    ("deepmap.yaml", "a: " + "{b: " * 50_000 + "\n", ("deepmap.yaml:1:", "nesting deeper than 20 levels")),
    ("block.yaml", "".join(" " * i + f"k{i}:\n" for i in range(700)), ("block.yaml:", "nesting deeper")),
    ("long.yaml", "description: " + "x" * 200_000 + "\n",
     ("long.yaml:1:14: description: expected at most 5000 characters, got 200000",)),
    ("quoted.yaml", "title: '" + "x" * 200_000 + "'\n", ("quoted.yaml:1:8: title: expected at most 200 characters",)),
    ("comments.yaml", "#" * 200_000 + "\nmeld: 1\n", ("comments.yaml:2:1: meld: unknown option",)),
    ("bigkey.yaml", "x" * 200_000 + ": 1\n", ("bigkey.yaml:1:200001: YAML syntax error",)),
    ("key.yaml", "x" * 1000 + ": 1\n", ("key.yaml:1:1: not a variant profile",)),
    ("table.yaml", "opening:\n  round_table: [" + "50, " * 500 + "50]\n",
     ("table.yaml:2:16: opening.round_table: expected a list of at most 100 items, got 501",)),
    ("customs.yaml", "customs:\n" + "- a custom\n" * 101,
     ("customs.yaml:2:1: customs: expected a list of at most 100 items, got 101",)),
]


class TestUnboundedWork:
    """Small or bounded inputs that used to cost seconds, minutes or a crash."""

    @pytest.mark.parametrize(
        ("name", "text", "places"), PROFILES_OF_UNBOUNDED_WORK, ids=[c[0] for c in PROFILES_OF_UNBOUNDED_WORK]
    )
    def test_profile(self, tmp_path: Path, name: str, text: str, places: tuple[str, ...]) -> None:
        """Each hostile profile is a VariantError naming the file and line, fast."""
        refused(VariantError, load(write(tmp_path, name, text)), *places)

    def test_profile_at_the_size_limit_of_comments(self, tmp_path: Path) -> None:
        """The slowest text to parse (comments) of the largest size allowed, with a bad key at its end."""
        head = "draw:\n  count: 9\n"
        path = write(tmp_path, "slow.yaml", ("#" * 99 + "\n") * ((MAX_FILE_BYTES - len(head)) // 100) + head)
        assert path.stat().st_size <= MAX_FILE_BYTES
        refused(VariantError, load(path), "slow.yaml:", ": draw.count: expected an integer from 1 to 3, got 9")

    def test_extended_file_is_held_to_the_same_limits(self, tmp_path: Path) -> None:
        """The limits apply to a file reached through extends, which the message names."""
        write(tmp_path, "base.yaml", "customs: [" + "x," * 5000 + "]\n")
        path = write(tmp_path, "house.yaml", "extends: base.yaml\n")
        refused(VariantError, load(path), "base.yaml:1:", f"more than {MAX_YAML_NODES}")

    def test_profile_as_data(self) -> None:
        """variant_from_dict counts nodes too: a list of a million items is refused at once."""
        refused(VariantError, lambda: variant_from_dict({"customs": ["x"] * 1_000_000}),
                f"more than {MAX_YAML_NODES} keys")
        refused(VariantError, lambda: variant_from_dict({"values": {"ace": 10**5000}}),
                "values.ace: expected an integer from 0 to 100000, got an integer of 16610 bits")

    @pytest.mark.parametrize("depth", [1000, 100_000])
    def test_record_header_nested_deep(self, tmp_path: Path, depth: int) -> None:
        """A header nested 1000 or 100 000 deep is a RecordError at its line (it was a RecursionError)."""
        text = "format: 1\nseed: 1\nvariant: " + "[" * depth + "]" * depth + "\n---\n"
        refused(RecordError, record(write(tmp_path, "deep.rec", text)),
                "deep.rec:3: nesting deeper than 20 levels is not allowed in the header")

    @pytest.mark.parametrize(
        ("header", "places"),
        [
            ("format: 1\nseed: 0x" + "f" * 5000 + "\nvariant: classic\n", ("h.rec:2: an integer of 5002",)),
            ("format: 1" + ":59" * 20_000 + "\nseed: 1\nvariant: classic\n",
             ("h.rec:1: format: expected a format number, got '1:59:59",)),
            ("format: 1\nseed: 1\nvariant: &a [*a]\n", ("h.rec:3: anchors and aliases are not allowed",)),
            ("format: 1\nseed: 1\nvariant:\n  deal: {hand_size: 5}\n  deal: {hand_size: 6}\n",
             ("h.rec:5: duplicate key 'deal', already given at line 4",)),
            ("format: 1\nseed: 1\nvariant:\n  customs: [" + "x, " * 3000 + "]\n",
             ("h.rec:4: more than 2000 keys",)),
            ("format: 1\nseed: 1\nvariant: classic\n" + "#\n" * 20_000, ("h.rec:", "more than 10000 lines")),
            ("format: 1\nseed: 1\nvariant: classic\n# " + "x" * (1 << 18) + "\n",
             ("h.rec:4: the header is larger than 262144 bytes",)),
            ("format: 1\nseed: 1\nvariant:\n  name: " + "n" * 5000 + "\n",
             ("h.rec:3: variant.name: expected at most 100 characters, got 5000",)),
        ],
        ids=["hex-seed", "base60-format", "alias", "duplicate", "nodes", "lines", "bytes", "long-name"],
    )
    def test_record_header(self, tmp_path: Path, header: str, places: tuple[str, ...]) -> None:
        """Each hostile header is refused at its line."""
        refused(RecordError, record(write(tmp_path, "h.rec", header + "---\ndraw\n")), *places)

    def test_score_file_alias_bomb(self, tmp_path: Path) -> None:
        """A 3 KB score file of aliases that would expand to millions of problems is refused at once."""
        lines = ["a0: &a0 [[x, x, x, x, x, x, x, x, x]]"]
        for i in range(1, 9):
            lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
        text = "\n".join(lines) + "\nvariant: classic\nsides: [{melds: *a8}, {hand: *a8}]\n"
        assert len(text) < 3000
        refused(ScoreFileError, score(write(tmp_path, "bomb.yaml", text)),
                "bomb.yaml:4:", f"more than {MAX_YAML_NODES} keys, values and list items")

    def test_score_file_many_problems(self, tmp_path: Path) -> None:
        """Problems are listed up to a limit, and checking stops there."""
        sides = [{"melds": [[["KH"]] * 50] * 50} for _ in range(4)]
        path = write(tmp_path, "many.json", json.dumps({"variant": "classic", "sides": sides}))
        with pytest.raises(ScoreFileError) as info:
            read_score_file(str(path))
        assert len(info.value.problems) <= MAX_PROBLEMS + 1
        message = refused(ScoreFileError, score(path), "many.json: sides[0].melds[0][0]: expected a card")
        assert message.endswith("more problems not listed")

    @pytest.mark.parametrize(
        ("text", "places"),
        [
            ('{"variant": "classic", "sides": [{"red_threes": ' + "9" * 5000 + "}]}",
             ("j.json: an integer of 5000 characters",)),
            ('{"variant": "classic", "sides": {"us": {}, "us": {"went_out": true}}}',
             ("j.json: duplicate key 'us'",)),
            ('{"sides": ' + "[" * 100_000 + "]" * 100_000 + "}", ("j.json: nesting too deep",)),
        ],
        ids=["long-int", "duplicate", "deep"],
    )
    def test_json_score_file(self, tmp_path: Path, text: str, places: tuple[str, ...]) -> None:
        """A JSON score file is held to the same limits."""
        refused(ScoreFileError, score(write(tmp_path, "j.json", text)), *places)

    def test_long_move_text(self, tmp_path: Path) -> None:
        """A long move line is refused by its length, before it is parsed."""
        path = write(tmp_path, "long.rec", HEADER + "draw\nmeld " + "KH " * 100_000 + "\n")
        refused(RecordError, record(path), f"long.rec:7: a move of 300004 characters; a move is at most {MAX_MOVE_CHARS}")

    def test_bad_move_quotes_little(self, tmp_path: Path) -> None:
        """A move that does not parse is quoted by at most 80 characters."""
        path = write(tmp_path, "bad.rec", HEADER + "x" * (MAX_MOVE_CHARS - 10) + "\n")
        message = refused(RecordError, record(path), "bad.rec:6: 'xxxx", "is not a move")
        assert "x" * 81 not in message

    def test_record_larger_than_the_limit(self, tmp_path: Path) -> None:
        """A record file over 1 MiB is refused before it is read, and so is text passed directly."""
        path = write(tmp_path, "big.rec", HEADER + "draw\n" * 300_000)
        refused(RecordError, record(path), "big.rec: file is larger than 1 MiB")
        refused(RecordError, lambda: parse_record(HEADER + "draw\n" * 300_000, "text"), "text: the record is larger")

    def test_record_of_many_distinct_moves(self, tmp_path: Path) -> None:
        """The largest record of well-formed moves reads in bounded time, and replaying it stops at once."""
        rng = random.Random(1)
        ranks = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK", "2"]
        lines = []
        size = len(HEADER)
        while True:
            line = "meld " + " ".join(rng.choice(ranks) for _ in range(rng.randrange(3, 60)))
            if size + len(line) + 1 > limits.MAX_RECORD_BYTES:
                break
            lines.append(line)
            size += len(line) + 1
        path = write(tmp_path, "moves.rec", HEADER + "\n".join(lines) + "\n")
        with cpu_clock() as elapsed:
            assert len(read_record(path).moves) == len(lines)
            assert elapsed() < 4 * TIME_LIMIT  # the slowest well-formed record
        refused(RecordError, lambda: replay_file(path), "moves.rec:6: illegal move")



# A tag on the whole document, on a nested mapping or list, and on a scalar.
TAGGED_PROFILES = [
    ("!custom\nname: x\n", "t.yaml:1:1: tag '!custom' is not allowed: a profile is a plain mapping"),
    ("!!set\nname: x\n", "t.yaml:1:1: tag '!!set' is not allowed: a profile is a plain mapping"),
    ("!!python/object:os.system\nname: x\n", "t.yaml:1:1: tag '!!python/object:os.system' is not allowed"),
    ("--- !custom\n- x\n", "t.yaml:1:5: tag '!custom' is not allowed: a profile is a plain mapping"),
    ("!!binary aGVsbG8=\n", "t.yaml:1:1: tag '!!binary' is not allowed: a profile is a plain mapping"),
    ("name: x\ndeck: !!set {decks: null}\n", "t.yaml:2:7: deck: tag '!!set' is not allowed on a mapping"),
    ("name: x\ncustoms: !!omap [a: 1]\n", "t.yaml:2:10: customs: tag '!!omap' is not allowed on a list"),
    ("name: !custom x\n", "t.yaml:1:7: name: tag '!custom' is not allowed"),
    ("deal: {hand_size: !!python/int 11}\n", "t.yaml:1:19: deal.hand_size: tag '!!python/int' is not allowed"),
]


class TestTags:
    """A YAML tag other than those of plain data is refused wherever it stands, with its line."""

    @pytest.mark.parametrize(("text", "place"), TAGGED_PROFILES, ids=[t[1].split(": ", 2)[1][:30] for t in TAGGED_PROFILES])
    def test_profile(self, tmp_path: Path, text: str, place: str) -> None:
        """load_variant and parse_variant refuse the tag with a VariantError naming file and line."""
        path = write(tmp_path, "t.yaml", text)
        refused(VariantError, load(path), place)
        refused(VariantError, lambda: canasta.parse_variant(text), place.replace("t.yaml", "<string>"))

    def test_plain_tags_are_plain_data(self) -> None:
        """The tags plain data resolves to anyway (``!!map``, ``!!str``, ``!!int``) are allowed."""
        v = canasta.parse_variant("!!map\nextends: classic\nname: !!str tagged\ndeal: {hand_size: !!int 11}\n")
        assert (v.name, v.deal.hand_size) == ("tagged", 11)

    @pytest.mark.parametrize(
        ("header", "place"),
        [
            ("format: 1\nseed: !!set {1: null}\nvariant: classic\n", "h.rec:2: tag '!!set' is not allowed in the header"),
            ("!!omap\nformat: 1\n", "h.rec:1: tag '!!omap' is not allowed in the header"),
            ("format: 1\nseed: 1\nvariant: {extends: classic, name: !!binary aGVsbG8=}\n",
             "h.rec:3: tag '!!binary' is not allowed in the header"),
        ],
        ids=["seed", "root", "variant"],
    )
    def test_record_header(self, tmp_path: Path, header: str, place: str) -> None:
        """A record's header, which holds a profile, refuses tags the same way."""
        refused(RecordError, record(write(tmp_path, "h.rec", header + "---\ndraw\n")), place)

    @pytest.mark.parametrize(
        ("text", "place"),
        [
            ("!!set {variant: null}\n", "s.yaml:1:1: tag '!!set' is not allowed"),
            ("variant: classic\nsides: [{melds: [!!binary aGVsbG8=]}]\n", "s.yaml:2:18: tag '!!binary' is not allowed"),
            ("variant: classic\nsides: [{went_out: !!timestamp 2001-01-01}]\n", "s.yaml:2:20: tag '!!timestamp'"),
        ],
        ids=["root", "binary", "date"],
    )
    def test_score_file(self, tmp_path: Path, text: str, place: str) -> None:
        """A score file refuses tags at their line too."""
        refused(ScoreFileError, score(write(tmp_path, "s.yaml", text)), place)


# --------------------------------------------------------------------------- 2. values that break later


def _int_options() -> list[tuple[str, type, str, Any]]:
    """(profile path, class, option, metadata) of every integer option of the model."""
    classes: list[tuple[str, type]] = [
        *AREAS, ("canastas.rank_bonuses[]", RankBonus), ("opening.score_table[]", OpeningStep)
    ]
    out = []
    for area, cls in classes:
        for name, field in option_fields(cls).items():
            plain = field.type if field.type is int else None
            if plain is int or "minimum" in field.meta:
                out.append((f"{area}.{name}", cls, name, field.meta))
    return out


INT_OPTIONS = _int_options()


def _all_options() -> list[tuple[str, Any]]:
    classes: list[tuple[str, type]] = [("", Variant), *AREAS]
    classes += [("source", type(CLASSIC.source)), ("assumed[]", type(CLASSIC.assumed[0]))]
    classes += [("canastas.rank_bonuses[]", RankBonus), ("opening.score_table[]", OpeningStep)]
    return [(f"{area}.{name}", field) for area, cls in classes for name, field in option_fields(cls).items()]


def _profile_setting(path: str, value: int) -> str:
    """A profile extending classic (with 12 decks, so any deal fits) that sets ``path`` to ``value``."""
    area, name = path.split(".", 1)
    head = "extends: classic\n" + ("" if area == "deck" else "deck: {decks: 12}\n")
    if area == "canastas" and name.startswith("rank_bonuses"):
        return f"{head}canastas:\n  rank_bonuses: [{{rank: A, bonus: {value}}}]\n"
    if area == "opening" and name.startswith("score_table"):
        field = name.split(".")[-1]
        other = "minimum: 50" if field == "from_score" else "from_score: 0"
        return f"{head}opening:\n  score_table: [{{{field}: {value}, {other}}}]\n"
    return f"{head}{area}:\n  {name}: {value}\n"


class TestValuesThatBreakLater:
    """Every value a profile may hold is one the whole library can use."""

    def test_every_option_is_bounded(self) -> None:
        """Every integer has a finite range, every string a length, every list a number of items."""
        unbounded = []
        for path, field in _all_options():
            plain = field.type
            text = str(plain)
            if "int" in text and "tuple" not in text and "maximum" not in field.meta:
                unbounded.append(path)
            if "int" in text and "tuple" not in text and field.meta.get("maximum") is None:
                unbounded.append(path)
            if plain is str and not field.rank and "max_length" not in field.meta:
                unbounded.append(path)
            if text.startswith("tuple") and "max_items" not in field.meta:
                unbounded.append(path)
        assert not unbounded
        assert len(INT_OPTIONS) >= 50

    @pytest.mark.parametrize(("path", "meta"), [(p, m) for p, _, _, m in INT_OPTIONS],
                             ids=[p for p, _, _, _ in INT_OPTIONS])
    def test_largest_value_works_everywhere(self, tmp_path: Path, path: str, meta: Any) -> None:
        """At its maximum each option loads, prints, describes, serialises and plays; one above is refused."""
        high = meta["maximum"]
        profile = write(tmp_path, "max.yaml", _profile_setting(path, high))
        try:
            v = load_variant(str(profile))
        except VariantError as exc:  # a rule across options (the mixes of wild cards)
            assert "melds.min_" in str(exc) and "mix" in str(exc)
            return
        assert dump_variant(v) and describe(v) and to_json(v)
        errors = [d.message for d in canasta.check_variant(v) if d.severity == "error"]
        if errors:
            # a value that leaves the rules unplayable (a new meld larger than a rank's
            # cards, say) is refused by new_game, in the words of one of the checker's errors
            with pytest.raises(VariantError) as caught:
                canasta.new_game(v, seed=1)
            assert any(str(caught.value).endswith(e) for e in errors)
        else:
            s = canasta.new_game(v, seed=1)
            bot, rng = GreedyBot(), random.Random(1)
            for _ in range(20):
                if s.is_game_over:
                    break
                s = s.apply(bot.choose(s.view(s.current_player), rng))
        too_high = write(tmp_path, "over.yaml", _profile_setting(path, high + 1))
        leaf = path.replace("[]", "[0]")
        refused(VariantError, load(too_high), "over.yaml:", f"{leaf}: expected an integer from")

    def test_huge_integers_from_code(self) -> None:
        """Built in code, a value of thousands of digits is refused by the range, and the message stays short."""
        message = refused(
            VariantError, lambda: attrs.evolve(CLASSIC.values, ace=10**5000),
            "values.ace: expected an integer from 0 to 100000, got an integer of",
        )
        assert "999" not in message
        refused(CanastaError, lambda: canasta.RecordedGame(CLASSIC, 10**200), "seed: expected an integer of at most 100 digits")

    @pytest.mark.parametrize(
        ("changes", "places"),
        [
            ({"melds": {"min_size": 100}}, ("melds.min_size: expected new melds small enough", "mix")),
            ({"melds": {"min_size": 40, "min_naturals": 1}}, ("melds.min_size: expected new melds small enough",)),
            ({"wilds": {"ranks": ["2", "JK", "4", "5", "6"]}}, ("wilds.ranks: expected a list of at most 4 items, got 5",)),
            ({"wilds": {"ranks": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JK"]}},
             ("wilds.ranks: expected a list of at most 4 items, got 14",)),
            ({"wilds": {"ranks": ["2", "JK", "4", "5"]}, "melds": {"min_size": 12}}, ("melds.min_size",)),
        ],
        ids=["min_size", "min_size-40", "five-wild-ranks", "every-rank-wild", "four-wild-ranks-large-melds"],
    )
    def test_rules_that_explode_the_engine_are_refused(
        self, tmp_path: Path, changes: dict[str, Any], places: tuple[str, ...]
    ) -> None:
        """Too many wild ranks, or wild ranks with large new melds, are refused with what to change."""
        text = "extends: classic\n" + "".join(
            f"{area}: {json.dumps(options)}\n" for area, options in changes.items()
        )
        refused(VariantError, load(write(tmp_path, "explode.yaml", text)), "explode.yaml", *places)
        refused(VariantError, lambda: variant_from_dict({"extends": "classic", **changes}), *places)

    def test_control_characters_in_text_are_refused(self, tmp_path: Path) -> None:
        """Text options cannot carry escape sequences to the terminal that prints the rule book."""
        path = write(tmp_path, "ansi.yaml", 'title: "Kitchen \\e[2J rules"\n')
        refused(VariantError, load(path), "ansi.yaml:1:8: title: expected text without control characters, "
                "got '\\x1b' at character 9")
        path = write(tmp_path, "bidi.yaml", 'customs: ["abc \\u202e cba"]\n')
        refused(VariantError, load(path), "bidi.yaml:1:11: customs[0]: expected text without control characters")
        path = write(tmp_path, "name.yaml", 'name: "two\\nlines"\n')
        refused(VariantError, load(path), "name.yaml:1:7: name: expected text without control characters, got '\\n'")
        assert load_variant(str(write(tmp_path, "ok.yaml", 'description: "two\\nlines\\tand a tab"\n')))


def _adversarial_variants() -> list[tuple[str, Variant]]:
    """Loadable variants at the limits: 12 decks, 8 players, full hands, each size at its min and max."""
    def evolve(v: Variant, **areas: dict[str, Any]) -> Variant:
        return attrs.evolve(v, **{a: attrs.evolve(getattr(v, a), **o) for a, o in areas.items()})

    big = evolve(CLASSIC, deck={"decks": 12, "jokers_per_deck": 4}, players={"count": 8},
                 deal={"hand_size": 30, "foot_size": 30}, draw={"count": 3})
    out = [("12 decks, 8 players, 30+30 cards", big)]
    sizes = [
        ("melds", n) for n in ("min_size", "min_naturals", "max_wilds", "second_wild_size",
                               "second_wild_naturals", "max_size")
    ] + [("canastas", "size"), ("threes", "black_meld_min"), ("threes", "black_meld_max"),
         ("threes", "black_out_cards"), ("pile", "blocked_by_meld_size"), ("going_out", "canastas"),
         ("going_out", "natural_canastas"), ("going_out", "mixed_canastas"), ("going_out", "wild_canastas")]
    for area, name in sizes:
        meta = option_fields(type(getattr(big, area)))[name].meta
        for value in (meta["minimum"], meta["maximum"]):
            with contextlib.suppress(VariantError):  # refused across options: not loadable
                out.append((f"{area}.{name}={value}", evolve(big, **{area: {name: value}})))
    naturals = ["2", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    for w in range(MAX_WILD_RANKS + 1):
        ranks = tuple(["JK", *naturals[: w - 1]]) if w else ()
        for wild_melds in (False, True):
            largest = None
            for size in range(1, 101):
                try:
                    largest = evolve(big, wilds={"ranks": ranks}, melds={
                        "min_size": size, "min_naturals": 1, "wild_melds": wild_melds, "max_wilds": MAX_CARDS,
                        "duplicate_ranks": "after_complete"})
                except VariantError:
                    break
            assert largest is not None
            out.append((f"{w} wild ranks, wild melds {wild_melds}, new melds of {largest.melds.min_size}", largest))
    return out


ADVERSARIAL = _adversarial_variants()


class TestEngineWorstCase:
    """No loadable variant makes the engine's turn explode."""

    #: CPU seconds for a deal and ten moves of one variant, its caches built from
    #: cold. Each normally takes 0.05 to 0.5 s; a 2-core machine loaded with two
    #: other test runs and a compile once took 2.4 s (2026-12-02, a newcomer's
    #: run of the whole suite). A variant that explodes the engine takes minutes.
    WORST_CASE_LIMIT = 5.0

    @pytest.mark.parametrize(("name", "variant"), ADVERSARIAL, ids=[n for n, _ in ADVERSARIAL])
    def test_first_moves_are_fast(self, name: str, variant: Variant) -> None:
        """The deal, the first legal moves and ten random moves take well under WORST_CASE_LIMIT."""
        assert wild_mixes(variant) <= MAX_WILD_MIXES
        errors = [d.message for d in canasta.check_variant(variant) if d.severity == "error"]
        for seed in (1, 2):
            with cpu_clock() as clock:
                if errors:
                    # unplayable (no meld can be laid, nobody can go out): refused at once,
                    # with the checker's words, so no turn of it can explode
                    with pytest.raises(VariantError) as caught:
                        canasta.new_game(variant, seed)
                    assert any(str(caught.value).endswith(e) for e in errors)
                    assert clock() < self.WORST_CASE_LIMIT
                    continue
                s = canasta.new_game(variant, seed)
                rng = random.Random(seed)
                for _ in range(10):
                    moves = s.legal_moves()
                    if not moves:
                        break
                    s = s.apply(rng.choice(moves))
                elapsed = clock()
            assert elapsed < self.WORST_CASE_LIMIT, f"{name}, seed {seed}: {elapsed:.2f} CPU s"


# --------------------------------------------------------------------------- 3. files that are not files


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):  # pragma: no cover - not POSIX
        pytest.skip("no FIFOs on this system")
    path = tmp_path / "fifo.yaml"
    os.mkfifo(path)
    return path


def _special(path: str) -> str:
    if not os.path.exists(path):
        pytest.skip(f"{path} does not exist here")
    return path


NOT_PROFILES: list[tuple[str, str]] = [
    ("passwd", f"root:x:0:0:{SECRET}:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin\n"),
    ("env", f"API_TOKEN={SECRET}\nOTHER=1\n"),
    ("key", f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET}\n-----END OPENSSH PRIVATE KEY-----\n"),
    ("yaml", f"api_token: {SECRET}\npassword: {SECRET}\n"),
    ("hosts", f"github.com:\n  oauth_token: {SECRET}\n"),
    ("list", f"- {SECRET}\n- b\n"),
    ("ini", f"[default]\naws_secret_access_key = {SECRET}\n"),
    ("json", json.dumps({"token": SECRET})),
    ("bad-yaml", f"key: 'unterminated {SECRET}\n"),
    ("tab", f"\tpassword: {SECRET}\n"),
    ("binary", "\x00\x01" + SECRET),
]


class TestFilesThatAreNotFiles:
    """Only regular files of bounded size are read; nothing of another file is quoted."""

    def test_fifo_as_profile(self, fifo: Path) -> None:
        refused(VariantError, load(fifo), f"{fifo}: not a regular file")

    def test_fifo_through_extends(self, tmp_path: Path, fifo: Path) -> None:
        path = write(tmp_path, "house.yaml", f"extends: {fifo.name}\n")
        refused(VariantError, load(path), "fifo.yaml: not a regular file")

    def test_fifo_as_record(self, fifo: Path) -> None:
        refused(RecordError, record(fifo), f"{fifo}: not a regular file")
        refused(RecordError, lambda: replay_file(fifo), f"{fifo}: not a regular file")

    def test_fifo_as_score_file(self, tmp_path: Path, fifo: Path) -> None:
        refused(ScoreFileError, score(fifo), f"{fifo}: not a regular file")
        path = write(tmp_path, "hand.yaml", f"variant: {fifo.name}\nsides: [{{}}]\n")
        refused(ScoreFileError, score(path), "hand.yaml: variant: ", "fifo.yaml: not a regular file")

    def test_fifo_swapped_in_after_stat(self, fifo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A file replaced by a FIFO between the check and the open is opened without blocking and refused."""
        regular = os.stat(__file__)
        real_stat = os.stat

        def stat_says_regular(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
            return regular if os.fspath(path) == str(fifo) else real_stat(path, *args, **kwargs)

        monkeypatch.setattr(limits.os, "stat", stat_says_regular)
        refused(InputError, lambda: read_text_file(fifo, "fifo", 1 << 20), "fifo: not a regular file")

    def test_file_that_grows_after_stat(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """No more than the limit plus one byte is read, whatever stat said."""
        path = write(tmp_path, "grow.yaml", "#" * 5000)
        small = os.stat(write(tmp_path, "small", "#"))
        monkeypatch.setattr(limits.os, "stat", lambda *_a, **_k: small)
        refused(InputError, lambda: read_text_file(path, "grow.yaml", 100), "grow.yaml: file is larger than 100 bytes")

    @pytest.mark.parametrize("special", ["/dev/zero", "/dev/urandom", "/dev/null", "/dev/tty"])
    def test_devices(self, tmp_path: Path, special: str) -> None:
        """Devices are refused by every reader, without being opened."""
        path = _special(special)
        refused(RecordError, record(Path(path)), f"{path}: not a regular file")
        refused(VariantError, load(Path(path)), f"{path}: not a regular file")
        refused(ScoreFileError, score(Path(path)), f"{path}: not a regular file")
        link = tmp_path / "link.yaml"
        link.symlink_to(path)
        refused(VariantError, load(link), "link.yaml: not a regular file")

    @pytest.mark.parametrize("special", ["/proc/kmsg", "/proc/self/status", "/proc/self/environ",
                                         "/sys/kernel/mm/transparent_hugepage/enabled"])
    def test_proc_and_sys(self, tmp_path: Path, special: str) -> None:
        """Files of /proc and /sys (which claim to be empty, may block or never end) are never read."""
        path = _special(special)
        expected = "not a regular file (a file of /proc or /sys)"
        refused(VariantError, load(Path(path)), f"{path}: {expected}")
        refused(RecordError, record(Path(path)), f"{path}: {expected}")
        refused(ScoreFileError, score(Path(path)), f"{path}: {expected}")
        house = write(tmp_path, "house.yaml", f"extends: {path}\n")
        refused(VariantError, load(house), f"{path}: {expected}")
        hand = write(tmp_path, "hand.yaml", f"variant: {path}\nsides: [{{}}]\n")
        refused(ScoreFileError, score(hand), f"{path}: {expected}")

    def test_directory(self, tmp_path: Path) -> None:
        (tmp_path / "dir.rec").mkdir()
        refused(RecordError, record(tmp_path / "dir.rec"), "dir.rec: not a regular file")

    @pytest.mark.parametrize(("kind", "text"), NOT_PROFILES, ids=[k for k, _ in NOT_PROFILES])
    def test_extends_a_file_that_is_no_profile(self, tmp_path: Path, kind: str, text: str) -> None:
        """extends: naming some other file says so without quoting any of it."""
        write(tmp_path, "other", text)
        house = write(tmp_path, "house.yaml", "extends: other\n")
        refused(VariantError, load(house), "other", secrets=(SECRET, SECRET[:12], "root:x", "api_token", "github"))

    @pytest.mark.parametrize(("kind", "text"), NOT_PROFILES, ids=[k for k, _ in NOT_PROFILES])
    def test_score_file_variant_is_no_profile(self, tmp_path: Path, kind: str, text: str) -> None:
        """A score file's variant: naming some other file says so without quoting any of it."""
        write(tmp_path, "other.yaml", text)
        hand = write(tmp_path, "hand.yaml", "variant: other.yaml\nsides: [{}]\n")
        refused(ScoreFileError, score(hand), "hand.yaml: variant: ", "other.yaml",
                secrets=(SECRET, SECRET[:12], "root:x", "api_token", "github"))

    @pytest.mark.parametrize(("kind", "text"), NOT_PROFILES, ids=[k for k, _ in NOT_PROFILES])
    def test_other_file_as_record_or_score_file(self, tmp_path: Path, kind: str, text: str) -> None:
        """A file that is no record or score file is refused without quoting its content."""
        path = write(tmp_path, "other.rec", text)
        refused(RecordError, record(path), "other.rec", secrets=(SECRET, SECRET[:12]))
        path = write(tmp_path, "other.yaml", text)
        refused(ScoreFileError, score(path), "other.yaml", secrets=(SECRET, SECRET[:12]))

    def test_real_passwd(self, tmp_path: Path) -> None:
        """The case that was reported: /etc/passwd through extends and a score file."""
        passwd = Path(_special("/etc/passwd"))
        first_line = passwd.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0]
        secrets = (first_line[:20],) if first_line else ()
        house = write(tmp_path, "house.yaml", "extends: /etc/passwd\n")
        refused(VariantError, load(house), "/etc/passwd:1:1: expected a mapping of options, got a string",
                secrets=secrets)
        hand = write(tmp_path, "hand.yaml", "variant: /etc/passwd\nsides: [{}]\n")
        refused(ScoreFileError, score(hand), "hand.yaml: variant: /etc/passwd:1:1:", secrets=secrets)

    def test_control_characters_in_names_are_escaped(self, tmp_path: Path) -> None:
        """File, variant and side names reach messages and output escaped."""
        evil = tmp_path / "\x1b[2Jevil.yaml"
        refused(VariantError, load(evil), "\\x1b[2Jevil.yaml: file not found")
        refused(RecordError, record(tmp_path / "\x1b]0;x\x07.rec"), "\\x1b]0;x\\x07.rec: file not found")
        refused(ScoreFileError, score(tmp_path / "\u202eevil.yaml"), "\\u202eevil.yaml: file not found")
        refused(VariantError, lambda: load_variant("\x1b[31mclassic"), "'\\x1b[31mclassic'")
        house = write(tmp_path, "house.yaml", 'extends: "\\e[2Jbase.yaml"\n')
        refused(VariantError, load(house), "house.yaml:1:10: extends: expected text without control characters")
        hand = write(tmp_path, "hand.yaml", 'variant: classic\nsides: {"\\e[2Jus": {}, "them\\u0085": {}}\n')
        text = format_scores(read_score_file(str(hand)))
        assert "\x1b" not in text and "\x85" not in text
        assert "\\x1b[2Jus" in text and "them\\x85" in text
        hand = write(tmp_path, "bad.yaml", 'variant: classic\nsides: {"\\e[2Jus": {melds: 5}}\n')
        refused(ScoreFileError, score(hand), "bad.yaml: sides['\\x1b[2Jus'].melds: expected a list of melds")


# --------------------------------------------------------------------------- 4. record lines, duplicate keys


class TestRecordLines:
    """A record's lines end at \\n only."""

    @pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\r"])
    def test_separator_in_a_comment(self, separator: str) -> None:
        """A separator inside a comment does not end it: its tail is no move, and lines keep their numbers."""
        text = HEADER + f"draw # the comment{separator}discard 9\nnext\n"
        rec = parse_record(text, "sep.rec")
        assert [str(m) for m in rec.moves] == ["draw", "next"]
        assert rec.lines == (6, 7)
        with pytest.raises(RecordError, match=r"^sep\.rec:7: illegal move 'next'"):
            rec.replay()

    @pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\r"])
    def test_separator_in_the_header(self, separator: str) -> None:
        """In the header (YAML, which would count it as a line break) it is refused with its line."""
        text = f"format: 1\nseed: 7 # a{separator}seed: 8\nvariant: classic\n---\n"
        refused(RecordError, lambda: parse_record(text, "h.rec"), f"h.rec:2: character U+{ord(separator):04X}")

    def test_crlf_record(self) -> None:
        """A record written with \\r\\n line ends reads as one with \\n."""
        text = HEADER + "draw\n# a comment\ndiscard 9\n"
        crlf = parse_record(text.replace("\n", "\r\n"))
        plain = parse_record(text)
        assert crlf == plain and crlf.lines == plain.lines == (6, 8)


class TestDuplicateKeys:
    """A key given twice is refused with its line, not silently replaced."""

    @pytest.mark.parametrize(
        ("text", "places"),
        [
            ("variant: classic\nsides:\n  us: {}\n  us: {went_out: true}\n",
             ("dup.yaml:4:3: duplicate key 'us', already given at line 3",)),
            ("variant: classic\nsides:\n  us:\n    hand: 4C\n    hand: 5C\n",
             ("dup.yaml:5:5: duplicate key 'hand', already given at line 4",)),
            ("variant: classic\nvariant: draw-two\nsides: [{}]\n",
             ("dup.yaml:2:1: duplicate key 'variant', already given at line 1",)),
            ("variant: classic\nsides: {1: {}, 0x1: {}}\n", ("dup.yaml:2:16: duplicate key '1'",)),
        ],
        ids=["sides", "table", "top", "numbers"],
    )
    def test_score_file(self, tmp_path: Path, text: str, places: tuple[str, ...]) -> None:
        refused(ScoreFileError, score(write(tmp_path, "dup.yaml", text)), *places)

    def test_merge_keys_still_work(self, tmp_path: Path) -> None:
        """A score file may still share a table with an anchor and a merge key."""
        text = "base: &t {melds: ['5H 5S 5D']}\nvariant: classic\nsides:\n  us: {<<: *t, hand: 4C}\n"
        with pytest.raises(ScoreFileError, match="unknown key"):  # 'base' is not a top-level key
            read_score_file(str(write(tmp_path, "merge.yaml", text)))
        text = "variant: classic\nsides:\n  us: &t {melds: ['5H 5S 5D']}\n  them: {<<: *t, hand: 4C}\n"
        scored = read_score_file(str(write(tmp_path, "merge.yaml", text)))
        assert [name for name, _ in scored.sides] == ["us", "them"]


# --------------------------------------------------------------------------- any input


@settings(max_examples=examples(60), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=st.text(max_size=300) | st.binary(max_size=300).map(lambda b: b.decode("latin-1")))
def test_any_text_is_refused_cleanly(tmp_path: Path, text: str) -> None:
    """Whatever a file holds, each reader returns or raises its own error, fast, with a clean message."""
    data = text.encode("utf-8", "surrogatepass")
    cases: list[tuple[str, type[CanastaError], Callable[[Path], Callable[[], object]]]] = [
        ("any.yaml", VariantError, load), ("any.rec", RecordError, record), ("any.yml", ScoreFileError, score),
        ("any.json", ScoreFileError, score),
    ]
    for name, error, reader in cases:
        path = write(tmp_path, name, data)
        with cpu_clock() as elapsed:
            try:
                with hang_guard():
                    reader(path)()
            except CanastaError as exc:
                assert type(exc) is error
                message = str(exc)
                assert len(message) < MAX_MESSAGE
                assert all(ch.isprintable() or ch == "\n" for ch in message)
            assert elapsed() < TIME_LIMIT


class TestGuardedLoader:
    """The shared loader's own guarantees, for the other readers that use it."""

    def test_base_60_is_text(self) -> None:
        loader = GuardedLoader("a: 1:30\nb: 1:30.5\nc: 0x1F\nd: 1_000\n")
        assert loader.get_single_data() == {"a": "1:30", "b": "1:30.5", "c": 31, "d": 1000}

    def test_alias_counts_what_it_stands_for(self) -> None:
        class Loader(GuardedLoader):
            refuse_anchors = False
            max_nodes = 50

        assert Loader("a: &x [1, 2]\nb: *x\n").get_single_data() == {"a": [1, 2], "b": [1, 2]}
        with pytest.raises(LoaderRefusal, match="more than 50"):
            Loader("a: &x [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: [*x, *x, *x, *x, *x]\n").get_single_data()
        with pytest.raises(LoaderRefusal, match="inside its own anchor"):
            Loader("a: &x [*x]\n").get_single_data()

    def test_escape_and_quote(self) -> None:
        assert limits.escape("a\x1bb\u202ec\td\n♠é") == "a\\x1bb\\u202ec\\td\\n♠é"
        assert limits.quote("x" * 1000) == "'" + "x" * 77 + "...'"
        assert len(limits.clip_message("y" * 100_000)) <= limits.MAX_MESSAGE_CHARS
        assert limits.int_text(10**500).startswith("an integer of")
        with pytest.raises(InputError):
            limits.parse_int("1" * 101)
        assert limits.parse_int("1" * 100) == int("1" * 100)

    def test_stat_is_first(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A file over the limit is refused without being opened."""
        path = write(tmp_path, "big", "#" * 200)

        def refuse(*_args: Any, **_kwargs: Any) -> Any:
            raise AssertionError("opened")

        monkeypatch.setattr(limits.os, "open", refuse)
        refused(InputError, lambda: read_text_file(path, "big", 100), "big: file is larger than 100 bytes")
        assert stat.S_ISREG(os.stat(path).st_mode)
