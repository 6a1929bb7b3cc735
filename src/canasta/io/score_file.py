"""Reading a hand's tables from a file, for ``canasta score FILE``.

A score file is YAML (or JSON, for a ``.json`` file) naming the variant and what
each side has on the table when the hand ends::

    variant: classic            # a bundled profile, or a profile path (relative to this file)
    sides:                      # a list of tables, or a mapping of side names to tables
      us:
        melds: ["KH KS KD KC KH KS KD", "9C 9D 2S"]
        red_threes: 1
        went_out: true
      them:
        melds: ["5H 5S 5D"]
        hand: "4C 9D JK"

A table's keys (all optional) are those of :func:`canasta.score_side`:
``melds`` (each meld as ``"KH KS KD"`` or a list of cards), ``red_threes``,
``red_threes_held``, ``black_threes``, ``hand``, ``hands`` (each player's
cards apart, a list), ``foot``, ``went_out``, ``concealed``,
``black_three_out`` and ``opened``. Keys are checked strictly; every problem is
reported with its place in the file (``sides[1].melds[0]: ...``), up to
:data:`~canasta.limits.MAX_PROBLEMS` of them.

Reading is bounded (see :mod:`canasta.limits`): the file is a regular file of
at most 256 KiB; its YAML is read with the library's guarded loader (at most
:data:`MAX_NESTING` levels and :data:`~canasta.limits.MAX_YAML_NODES` nodes,
an alias counting as the nodes it stands for; no duplicate keys, no base-60
numbers, no integer of more than :data:`~canasta.limits.MAX_INT_CHARS`
characters), and JSON likewise refuses long integers and duplicate keys.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import yaml

from canasta.cards import JOKER, Card, parse_cards
from canasta.engine.score_keeping import score_side
from canasta.engine.scoring import ScoreBreakdown
from canasta.errors import CanastaError
from canasta.limits import (
    MAX_MESSAGE_CHARS,
    MAX_PROBLEMS,
    MAX_SCORE_FILE_BYTES,
    GuardedLoader,
    InputError,
    LoaderRefusal,
    clip,
    clip_message,
    escape,
    file_path,
    int_text,
    parse_int,
    quote,
    read_text_file,
    shown,
    yaml_problem,
)
from canasta.variant.model import Variant

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_NESTING",
    "SIDE_KEYS",
    "TOP_KEYS",
    "ScoreFileError",
    "ScoredHand",
    "format_scores",
    "read_score_file",
    "score_data",
]

#: Largest score file read (256 KiB, :data:`canasta.limits.MAX_SCORE_FILE_BYTES`).
MAX_FILE_BYTES = MAX_SCORE_FILE_BYTES
#: Keys of the top-level mapping.
TOP_KEYS = ("variant", "sides")
#: Keys of one side's table.
SIDE_KEYS = (
    "melds",
    "red_threes",
    "red_threes_held",
    "black_threes",
    "hand",
    "hands",
    "foot",
    "went_out",
    "concealed",
    "black_three_out",
    "opened",
)
#: Deepest nesting of lists and mappings read (a score file needs 5 levels).
MAX_NESTING = 10
#: Longest problem line (the file's name and place included): room for the list of
#: bundled profile names, while a hostile value's text stays cut short.
MAX_PROBLEM_CHARS = 600
_BOOL_KEYS = ("went_out", "concealed", "black_three_out")
_COUNT_KEYS = ("red_threes", "red_threes_held", "black_threes")
_CARD_KEYS = ("hand", "foot")


class ScoreFileError(CanastaError):
    """A score file that cannot be read or describes impossible tables.

    Attributes:
        problems: one message per problem, each starting with the file's name
            and the place in it (``FILE: sides[1].melds[0]: ...``); at most
            :data:`~canasta.limits.MAX_PROBLEMS`, and a last line saying how
            many more were found when there were more.
    """

    def __init__(self, problems: list[str]) -> None:
        shown: list[str] = []
        size = 0
        for problem in problems[:MAX_PROBLEMS]:
            text = clip_message(problem, MAX_PROBLEM_CHARS)
            size += len(text) + 1
            if size > MAX_MESSAGE_CHARS - 40:
                break
            shown.append(text)
        if len(shown) < len(problems):
            shown.append(f"... and {len(problems) - len(shown)} or more problems not listed")
        super().__init__("\n".join(shown))
        self.problems = tuple(shown)

    def __reduce__(self) -> tuple[Any, ...]:
        # Built again from its problems when unpickled (its message alone is no list of them).
        return (type(self), (list(self.problems),))


@attrs.frozen
class ScoredHand:
    """The scores of a hand's tables.

    Attributes:
        variant: the rules they were scored under.
        sides: ``(side name, breakdown)`` pairs, in the file's order.
    """

    variant: Variant
    sides: tuple[tuple[str, ScoreBreakdown], ...]

    def __str__(self) -> str:
        return format_scores(self)


def format_scores(scored: ScoredHand) -> str:
    """Each side's breakdown under an underlined header, the sides separated by a blank line.

    Args:
        scored: the scored hand.

    Returns:
        The text, ending with a newline.
    """
    names = [escape(name) for name, _ in scored.sides]
    blocks = [
        f"{name}\n{'=' * len(name)}\n{breakdown}\n"
        for name, (_, breakdown) in zip(names, scored.sides, strict=True)
    ]
    return "\n".join(blocks)


# -- reading ---------------------------------------------------------------------------


def _file_error(where: str, reason: str) -> ScoreFileError:
    return ScoreFileError([f"{where}: {reason}"])


def _read_text(path: Path, display: str) -> str:
    """The file's text, refusing what is not a regular UTF-8 file of at most 256 KiB."""
    return read_text_file(path, display, MAX_FILE_BYTES, _file_error, "a score file")


class _Loader(GuardedLoader):
    """The guarded loader with a score file's depth; aliases are allowed, and counted; no tags."""

    max_depth = MAX_NESTING
    refuse_anchors = False
    plain_tags = True


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputError("<text>", f"duplicate key {quote(key)}")
        out[key] = value
    return out


def _too_deep(data: Any, limit: int) -> bool:
    """Whether ``data`` nests lists and mappings more than ``limit`` levels deep."""
    level: list[Any] = [data]
    for _ in range(limit + 1):
        level = [
            item
            for node in level
            if isinstance(node, (dict, list))
            for item in (node.values() if isinstance(node, dict) else node)
        ]
        if not level:
            return False
    return True


def _parse(text: str, display: str, is_json: bool) -> Any:
    """The data in ``text``: JSON for a ``.json`` file, YAML (the guarded loader) otherwise."""
    where = escape(display)
    try:
        if is_json:
            data = json.loads(text, parse_int=parse_int, object_pairs_hook=_json_object)
            # json.loads stops deep nesting only at the recursion limit, which a
            # program may have raised: the limit the YAML reader keeps holds here too
            if _too_deep(data, MAX_NESTING):
                raise RecursionError
            return data
        loader = _Loader(text)  # a safe loader: as safe as yaml.safe_load
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except json.JSONDecodeError as exc:
        raise ScoreFileError(
            [f"{where}:{exc.lineno}:{exc.colno}: JSON syntax error: {exc.msg}"]
        ) from None
    except InputError as exc:
        raise ScoreFileError([f"{where}: {exc.reason}"]) from None
    except LoaderRefusal as exc:
        raise ScoreFileError([f"{where}:{exc.line}:{exc.column}: {exc.message}"]) from None
    except yaml.YAMLError as exc:
        line, column, problem = yaml_problem(exc, text)
        raise ScoreFileError([f"{where}:{line}:{column}: YAML syntax error: {problem}"]) from None
    except RecursionError:
        raise ScoreFileError([f"{where}: nesting too deep"]) from None


def read_score_file(path: str | os.PathLike[str]) -> ScoredHand:
    """Read and score a score file.

    Args:
        path: the YAML or JSON file (``.json`` files are read as JSON).

    Returns:
        Each side's breakdown.

    Raises:
        ScoreFileError: the file cannot be read, is not valid YAML or JSON, or
            describes something impossible; ``problems`` lists every problem found.
    """
    display = file_path(path, _file_error, "a score file's path")
    p = Path(display)
    text = _read_text(p, display)
    data = _parse(text, display, p.suffix.lower() == ".json")
    return score_data(data, display, p.parent)


# -- checking -------------------------------------------------------------------------


def _describe(value: object) -> str:
    """How a value of the wrong type is named in messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return quote(value, 40)
    if isinstance(value, int):
        return int_text(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _unknown(key: object, choices: tuple[str, ...]) -> str:
    """``unknown key, did you mean 'x'?``, or the list of keys when nothing is close."""
    close = difflib.get_close_matches(_key_text(key), choices, n=1, cutoff=0.6)
    if close:
        return f"unknown key, did you mean {close[0]!r}?"
    return "unknown key, expected one of " + ", ".join(repr(c) for c in choices)


def _key_text(key: object) -> str:
    """A key of the data as text: itself if it is text, else written briefly (any type, any size)."""
    return key if isinstance(key, str) else shown(key)


def _key_path(path: str, key: object) -> str:
    text = _key_text(key)
    if re.fullmatch(r"[A-Za-z_][\w-]{0,40}", text):
        return f"{path}.{text}" if path else text
    return f"{path}[{quote(text, 40)}]"


class _TooMany(Exception):
    """More problems than an error lists: checking stops."""


class _Checker:
    """Collects problems, each prefixed with the file's display name, up to a limit."""

    def __init__(self, display: str) -> None:
        self.display = escape(display)
        self.problems: list[str] = []

    def add(self, path: str, message: str) -> None:
        message = clip(message, MAX_PROBLEM_CHARS)
        self.problems.append(f"{self.display}: {path}: {message}" if path else f"{self.display}: {message}")
        if len(self.problems) > MAX_PROBLEMS:
            raise _TooMany


def _cards(value: object, path: str, check: _Checker, limit: int) -> tuple[Card, ...] | None:
    """The cards of ``value`` (``"KH KS"`` or a list of card strings), or None after a problem."""
    if isinstance(value, str):
        try:
            return parse_cards(value)
        except CanastaError as exc:
            check.add(path, str(exc))
            return None
    if isinstance(value, list):
        if len(value) > limit:
            check.add(path, f"more cards than the decks hold ({len(value)} > {limit})")
            return None
        out: list[Card] = []
        ok = True
        for i, token in enumerate(value):
            if not isinstance(token, str):
                check.add(f"{path}[{i}]", f"expected a card such as 'KH', got {_describe(token)}")
                ok = False
                continue
            try:
                out.extend(parse_cards(token))
            except CanastaError as exc:
                check.add(f"{path}[{i}]", str(exc))
                ok = False
        return tuple(out) if ok else None
    check.add(path, f"expected cards such as 'KH KS 2C' or a list of cards, got {_describe(value)}")
    return None


def _side(
    table: object, path: str, check: _Checker, deck_size: int
) -> dict[str, Any] | None:
    """The keyword arguments of score_side for one side's ``table``, or None after a problem."""
    if not isinstance(table, dict):
        check.add(
            path, f"expected a mapping with keys such as 'melds' and 'hand', got {_describe(table)}"
        )
        return None
    before = len(check.problems)
    kwargs: dict[str, Any] = {}
    for key, value in table.items():
        kp = _key_path(path, key)
        if key not in SIDE_KEYS:
            check.add(kp, _unknown(key, SIDE_KEYS))
        elif key == "melds":
            melds = _melds(value, kp, check, deck_size)
            if melds is not None:
                kwargs["melds"] = melds
        elif key in _CARD_KEYS:
            codes = () if value is None else _cards(value, kp, check, deck_size)
            if codes is not None:
                kwargs[key] = codes
        elif key == "hands":
            hands = _hands(value, kp, check, deck_size)
            if hands is not None:
                kwargs["hands"] = hands
        elif key in _COUNT_KEYS:
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                kwargs[key] = value
            else:
                check.add(kp, f"expected a whole number >= 0, got {_describe(value)}")
        elif key in _BOOL_KEYS:
            if isinstance(value, bool):
                kwargs[key] = value
            else:
                check.add(kp, f"expected true or false, got {_describe(value)}")
        elif key == "opened":
            if value is None or isinstance(value, bool):
                kwargs[key] = value
            else:
                check.add(kp, f"expected true, false or null, got {_describe(value)}")
    return kwargs if len(check.problems) == before else None


def _melds(value: object, path: str, check: _Checker, deck_size: int) -> list[tuple[Card, ...]] | None:
    """A side's ``melds``: a list of melds, each of cards (None after a problem with the list itself)."""
    if value is None:
        value = []
    if not isinstance(value, list):
        check.add(path, f"expected a list of melds, got {_describe(value)}")
        return None
    if len(value) > deck_size:
        check.add(path, f"more melds than the decks have cards ({len(value)})")
        return None
    melds = []
    for i, meld in enumerate(value):
        codes = _cards(meld, f"{path}[{i}]", check, deck_size)
        if codes is not None and not codes:
            check.add(f"{path}[{i}]", "expected the cards of a meld, got none")
        elif codes is not None:
            melds.append(codes)
    return melds


def _hands(value: object, path: str, check: _Checker, deck_size: int) -> list[tuple[Card, ...]] | None:
    """A side's ``hands``: each player's cards, at most 8 players (None after a problem with the list itself)."""
    if value is None:
        value = []
    if not isinstance(value, list) or len(value) > 8:
        check.add(path, f"expected a list of each player's cards (at most 8 players), got {_describe(value)}")
        return None
    hands = [() if h is None else _cards(h, f"{path}[{i}]", check, deck_size) for i, h in enumerate(value)]
    return [h for h in hands if h is not None]


_MELD_MESSAGE = re.compile(r"meld (\d+) \((.*)\): (.*)", re.DOTALL)
_KEY_MESSAGE = re.compile(r"(\w+)(\[\d+\])?: (.*)", re.DOTALL)


def _place(message: str, path: str) -> tuple[str, str]:
    """Where in the file a score_side message belongs, and the message without its own prefix."""
    m = _MELD_MESSAGE.fullmatch(message)
    if m:
        return f"{path}.melds[{int(m.group(1)) - 1}]", f"{m.group(3)} ({m.group(2)})"
    m = _KEY_MESSAGE.fullmatch(message)
    if m and m.group(1) in SIDE_KEYS:
        return f"{path}.{m.group(1)}{m.group(2) or ''}", m.group(3)
    if m and m.group(1) == "cards":
        return path, m.group(3)
    return path, message


def _kind_name(kind: int) -> str:
    from canasta.engine import BLACK_THREE
    from canasta.engine.moves import RED_THREE, kind_name

    return {RED_THREE: "red 3", BLACK_THREE: "black 3", JOKER: "joker"}.get(kind, kind_name(kind))


def _check_deck(variant: Variant, sides: list[dict[str, Any]], check: _Checker) -> None:
    """All sides together may not hold more cards of a kind than the decks."""
    from canasta.cards import build_deck
    from canasta.engine import BLACK_THREE, KIND
    from canasta.engine.moves import RED_THREE

    deck = Counter(KIND[c] for c in build_deck(variant.deck.decks, variant.deck.jokers_per_deck))
    used: Counter[int] = Counter()
    for kwargs in sides:
        for meld in kwargs.get("melds", ()):
            used.update(KIND[c] for c in meld)
        for key in _CARD_KEYS:
            used.update(KIND[c] for c in kwargs.get(key, ()))
        for cards in kwargs.get("hands", ()):
            used.update(KIND[c] for c in cards)
        used[RED_THREE] += kwargs.get("red_threes", 0) + kwargs.get("red_threes_held", 0)
        used[BLACK_THREE] += kwargs.get("black_threes", 0)
    for kind in sorted(used):
        if used[kind] > deck[kind]:
            check.add(
                "sides",
                f"the decks hold only {deck[kind]} {_kind_name(kind)}s, "
                f"the sides have {used[kind]} together",
            )


def _load(name: object, base: Path | None, check: _Checker) -> Variant | None:
    from canasta.variant.loading import load_variant, variant_names

    if not isinstance(name, str) or not name.strip():
        check.add(
            "variant",
            f"expected a bundled profile name ({', '.join(variant_names())}) or a profile path, "
            f"got {_describe(name)}",
        )
        return None
    target: str | Path = name
    is_path = "/" in name or os.sep in name or name.endswith((".yaml", ".yml"))
    if is_path and base is not None and not Path(name).is_absolute():
        target = base / name
    try:
        return load_variant(target)
    except CanastaError as exc:
        check.add("variant", str(exc))
        return None


def score_data(data: object, display: str = "<data>", base: Path | None = None) -> ScoredHand:
    """Check and score score-file data, as :func:`read_score_file` reads it.

    Args:
        data: the parsed file: a mapping with ``variant`` and ``sides``.
        display: the name that starts each problem message.
        base: the directory a profile path in ``variant`` is relative to
            (``None``: the working directory).

    Returns:
        Each side's breakdown.

    Raises:
        ScoreFileError: ``problems`` lists every problem found (up to
            :data:`~canasta.limits.MAX_PROBLEMS`).
    """
    check = _Checker(display)
    try:
        return _score_data(data, base, check)
    except _TooMany:
        raise ScoreFileError(check.problems) from None


def _score_data(data: object, base: Path | None, check: _Checker) -> ScoredHand:
    if not isinstance(data, dict):
        # said without quoting: the file may be anything but a score file
        kinds = {str: "a string", list: "a list", int: "a number", float: "a number", bool: "true or false"}
        got = "an empty document" if data is None else kinds.get(type(data), type(data).__name__)
        check.add("", f"expected a mapping with 'variant' and 'sides', got {got}")
        raise ScoreFileError(check.problems)
    for key in data:
        if key not in TOP_KEYS:
            check.add(_key_path("", key), _unknown(key, TOP_KEYS))
    for key in TOP_KEYS:
        if key not in data:
            check.add(key, "missing")
    variant = _load(data["variant"], base, check) if "variant" in data else None
    raw_sides = data.get("sides")
    entries: list[tuple[str, str, object]] = []  # (name, path, table)
    if isinstance(raw_sides, list):
        entries = [(f"side {i + 1}", f"sides[{i}]", t) for i, t in enumerate(raw_sides)]
    elif isinstance(raw_sides, dict):
        entries = [(_key_text(k), _key_path("sides", k), t) for k, t in raw_sides.items()]
    elif "sides" in data:
        check.add("sides", f"expected a list or a mapping of side tables, got {_describe(raw_sides)}")
    if isinstance(raw_sides, (list, dict)) and not entries:
        check.add("sides", "expected at least one side")
    if variant is not None and len(entries) > len(variant.sides):
        check.add(
            "sides",
            f"variant {variant.name!r} has {len(variant.sides)} sides, the file lists {len(entries)}",
        )
    # without a variant, the card limit is that of a generous table
    deck_size = 1000 if variant is None else variant.deck.decks * (52 + variant.deck.jokers_per_deck)
    if len(entries) > deck_size:
        raise ScoreFileError(check.problems)
    tables = [(name, path, _side(t, path, check, deck_size)) for name, path, t in entries]
    if variant is None:
        raise ScoreFileError(check.problems)
    results: list[tuple[str, ScoreBreakdown]] = []
    for name, path, kwargs in tables:
        if kwargs is None:
            continue
        try:
            results.append((name, score_side(variant, **kwargs)))
        except CanastaError as exc:
            check.add(*_place(str(exc), path))
    if not check.problems:
        sides = [kwargs for _, _, kwargs in tables if kwargs is not None]
        went = [path for _, path, kwargs in tables if kwargs and kwargs.get("went_out")]
        for path in went[1:]:
            check.add(f"{path}.went_out", f"only one side can go out, and {went[0]} went out")
        _check_deck(variant, sides, check)
    if check.problems:
        raise ScoreFileError(check.problems)
    return ScoredHand(variant, tuple(results))
