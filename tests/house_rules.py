"""House rules as a table would write them: generated profiles, and hands played under them.

The library's contract: every profile that loads is either refused by
``check_variant`` with an error that says why it cannot be played (and by
``new_game`` with the same reason), or plays every hand to its end under any
policy. This module is the net that tests it, shared by the property test
(tests/test_house_rules.py) and the long-run campaign (benchmarks/campaign.py).

* :func:`draw_profile` writes a house profile: a bundled profile
  (``extends:``) with one to six of its rule options changed, each to a value
  inside its documented range. The options, their types and ranges are read
  from the variant model's metadata (:func:`canasta.variant.options.option_fields`),
  so a new option is covered without touching this file; the choice leans
  toward the options where rules interact most (wild cards, meld sizes and
  kinds, the opening, sequences, 3s, going out and the pile: :data:`AREA_WEIGHTS`).
  Values lean toward the small and the edges of each range.
* The same generator serves hypothesis (:func:`house_profiles`) and a seeded
  :class:`random.Random` (:class:`RandomChooser`), through the tiny
  :class:`Chooser` protocol.
* :func:`admit` loads a profile and asks ``check_variant`` and ``new_game``
  whether it is played; :func:`play_hand` plays one hand of it with a policy,
  checking at every position that the game goes on (a legal move while the hand
  is not over), that listed moves apply, that unlisted ones are refused with
  :class:`~canasta.IllegalMoveError`, and that the scores add up.
"""

from __future__ import annotations

import bisect
import gc
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, Literal, Protocol, TypeVar, get_args, get_origin

import attrs
import yaml
from hypothesis import strategies as st

import canasta
from canasta import CanastaError, GameState, IllegalMoveError, Move, Variant
from canasta.cards import RANK_NAMES
from canasta.check import check_variant
from canasta.engine.candidates import candidate_moves
from canasta.engine.facts import context_of
from canasta.engine.integrity import state_problem
from canasta.variant.loading import variant_to_dict
from canasta.variant.model import AREAS, SpecialHand
from canasta.variant.options import ITEM_META, OptionField, option_fields, optional_inner

T = TypeVar("T")

#: The bundled profiles a house profile extends.
BASES: tuple[str, ...] = tuple(canasta.variant_names())

#: How often an option of each rule area is chosen, relative to the others (per
#: option, so a large area is not chosen more for being large). The areas where
#: rules interact most come first; an area not named weighs 1.
AREA_WEIGHTS: Mapping[str, int] = {
    "wilds": 24,
    "melds": 6,
    "opening": 6,
    "sequences": 5,
    "threes": 4,
    "going_out": 5,
    "pile": 4,
    "deal": 4,
    "draw": 4,
    "canastas": 3,
    "foot": 3,
    "deck": 3,
    "players": 2,
    "special": 2,
}

#: Most options one profile changes.
MOST_CHANGES = 6
#: Most rows a generated table (opening steps, bonuses, penalties, special hands) holds.
MOST_ROWS = 3
#: Points a generated value of a points option prefers (its range is 0 to 100,000).
POINTS = (0, 5, 10, 20, 50, 90, 100, 120, 150, 300, 500, 1500)
#: Item values a generated integer list prefers (round tables, 3s tables, talons).
LIST_ITEMS = (0, 1, 2, 3, 4, 5, 7, 11, 50, 90, 120, 500)


class Chooser(Protocol):
    """Where the generator's choices come from: hypothesis or a seeded random source."""

    def integer(self, low: int, high: int) -> int:
        """An integer from ``low`` to ``high``, both included."""

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items`` (not empty)."""


class RandomChooser:
    """Choices from a :class:`random.Random` (the campaign's; reproducible from its seed)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        """See :class:`Chooser`."""
        return self.rng.randint(low, high)

    def choice(self, items: Sequence[T]) -> T:
        """See :class:`Chooser`."""
        return items[self.rng.randrange(len(items))]


class DrawChooser:
    """Choices drawn by hypothesis (so they shrink: toward low integers and first items)."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        """See :class:`Chooser`."""
        return self.draw(st.integers(low, high))

    def choice(self, items: Sequence[T]) -> T:
        """See :class:`Chooser`."""
        return self.draw(st.sampled_from(items))


# --------------------------------------------------------------------------- options


@attrs.frozen
class OptionSpace:
    """One rule option as the generator sees it: its profile path, its field and its weight."""

    area: str
    field: OptionField
    weight: int

    @property
    def path(self) -> str:
        """``area.option``, as a profile writes it."""
        return f"{self.area}.{self.field.name}"


@cache
def option_spaces() -> tuple[OptionSpace, ...]:
    """Every rule option of the variant model (not the name, title, source or customs)."""
    return tuple(
        OptionSpace(area, field, AREA_WEIGHTS.get(area, 1))
        for area, cls in AREAS
        for field in option_fields(cls).values()
    )


@cache
def _cumulative() -> tuple[int, ...]:
    total, out = 0, []
    for space in option_spaces():
        total += space.weight
        out.append(total)
    return tuple(out)


@cache
def base_values(base: str) -> dict[str, Any]:
    """Bundled profile ``base`` as plain profile data (``variant_to_dict``)."""
    return variant_to_dict(canasta.load_variant(base))


def _int_value(ch: Chooser, low: int, high: int, current: Any) -> int:
    """An integer from ``low`` to ``high``: mostly small, near the current value or an edge."""
    way = ch.integer(0, 9)
    if way == 0:
        return low
    if way == 1:
        return high
    if way <= 5:
        if high - low >= 100_000:
            return ch.choice([x for x in POINTS if low <= x <= high])
        return low + ch.integer(0, min(high - low, 8))
    if way <= 8 and isinstance(current, int) and not isinstance(current, bool):
        return min(high, max(low, current + ch.choice((-3, -2, -1, 1, 2, 3))))
    return ch.integer(low, high)


def _ranks(ch: Chooser, most: int) -> list[str]:
    names = sorted(RANK_NAMES.values())
    chosen: list[str] = []
    for _ in range(ch.integer(0, most)):
        rank = ch.choice(names)
        if rank not in chosen:
            chosen.append(rank)
    return chosen


def _special_hand(ch: Chooser, index: int) -> dict[str, Any]:
    """A special hand that the model accepts (groups it can hold, a well-formed key)."""
    groups = [ch.integer(1, 4) for _ in range(ch.integer(1, 7))]
    low = ch.integer(0, min(2, len(groups)))
    high = ch.integer(low, min(low + 2, len(groups)))
    return {
        "name": f"house-{index}",
        "groups": groups,
        "wild_groups": [low, high],
        "wilds_match": ch.choice((True, False)),
        "distinct": ch.choice((True, False)),
        "value": ch.choice(POINTS),
        "wins_game": ch.integer(0, 9) == 0,
    }


def _row(ch: Chooser, cls: type) -> dict[str, Any]:
    """One row of a table option: every field of ``cls`` drawn from its own range."""
    return {f.name: draw_value(ch, f, f.default) for f in option_fields(cls).values()}


def draw_value(ch: Chooser, field: OptionField, current: Any) -> Any:
    """A value of option ``field`` inside its documented range, as profile data.

    ``current`` is the value the profile has now (to step from, and to differ from).
    """
    tp, meta = field.type, field.meta
    inner = optional_inner(tp)
    if inner is not None:
        if ch.integer(0, 4) == 0:
            return None
        tp = inner
    if tp is bool:
        return not current if isinstance(current, bool) else ch.choice((True, False))
    if tp is int:
        return _int_value(ch, meta["minimum"], meta["maximum"], current)
    if get_origin(tp) is Literal:
        return ch.choice(get_args(tp))
    if tp is str:
        return ch.choice(sorted(RANK_NAMES.values())) if field.rank else ch.choice(("house", "h"))
    if get_origin(tp) is tuple:
        item = get_args(tp)[0]
        most = min(meta.get("max_items", MOST_ROWS), 4)
        if field.rank:
            return _ranks(ch, most)
        if get_origin(item) is Literal:
            return [x for x in get_args(item) if ch.integer(0, 1)]
        if item is int:
            high = ITEM_META["maximum"]
            return [ch.choice(LIST_ITEMS) if ch.integer(0, 7) else high for _ in range(ch.integer(0, most))]
        if item is SpecialHand:
            return [_special_hand(ch, i) for i in range(ch.integer(0, MOST_ROWS))]
        if attrs.has(item):
            return [_row(ch, item) for _ in range(ch.integer(0, MOST_ROWS))]
    raise TypeError(f"no generator for option {field.name} of type {field.type!r}")


# --------------------------------------------------------------------------- profiles


@attrs.frozen
class HouseProfile:
    """A bundled profile with some options changed: ``extends: base`` and the changes.

    Attributes:
        base: the bundled profile extended.
        changes: ``(area.option, value)`` pairs, values as profile data.
    """

    base: str
    changes: tuple[tuple[str, Any], ...]

    @property
    def keys(self) -> tuple[str, ...]:
        """The changed options' paths, sorted."""
        return tuple(sorted(path for path, _ in self.changes))

    def data(self) -> dict[str, Any]:
        """The profile as data: ``{"extends": base, area: {option: value}}``."""
        out: dict[str, Any] = {"extends": self.base}
        for path, value in self.changes:
            area, name = path.split(".")
            out.setdefault(area, {})[name] = value
        return out

    def text(self) -> str:
        """The profile as YAML text, as a table would write it."""
        return yaml.safe_dump(self.data(), sort_keys=False, default_flow_style=None, width=100)

    def without(self, path: str) -> HouseProfile:
        """The same profile without the change of ``path``."""
        return HouseProfile(self.base, tuple(c for c in self.changes if c[0] != path))

    def load(self) -> Variant:
        """The variant, loaded from :meth:`text` (raises VariantError where it is refused)."""
        return canasta.parse_variant(self.text())


def draw_profile(ch: Chooser, bases: Sequence[str] = BASES) -> HouseProfile:
    """A house profile: a bundled profile with one to :data:`MOST_CHANGES` options changed."""
    base = ch.choice(bases)
    values = base_values(base)
    spaces, cumulative = option_spaces(), _cumulative()
    changes: dict[str, Any] = {}
    for _ in range(ch.integer(1, MOST_CHANGES)):
        space = spaces[bisect.bisect_right(cumulative, ch.integer(0, cumulative[-1] - 1))]
        if space.path in changes:
            continue
        current = values[space.area][space.field.name]
        for _try in range(4):
            value = draw_value(ch, space.field, current)
            if value != current:
                changes[space.path] = value
                break
    if not changes:  # every draw repeated the profile's own values: change one bool
        space = next(s for s in spaces if s.field.type is bool and s.area == "pile")
        changes[space.path] = not values[space.area][space.field.name]
    return HouseProfile(base, tuple(changes.items()))


@st.composite
def house_profiles(draw: st.DrawFn, bases: Sequence[str] = BASES) -> HouseProfile:
    """Hypothesis strategy: a house profile (see :func:`draw_profile`)."""
    return draw_profile(DrawChooser(draw), bases)


# --------------------------------------------------------------------------- admitting a profile


@attrs.frozen
class Admission:
    """What the loader, the checker and ``new_game`` say of a profile.

    Attributes:
        variant: the loaded variant, or ``None`` where the loader refused it.
        loader: the loader's refusal, or ``""``.
        errors: the checker's errors (``check_variant`` without playouts), as
            ``CODE: message`` lines.
        refusal: ``new_game``'s refusal, or ``""`` where it deals.
    """

    variant: Variant | None = attrs.field(repr=False)
    loader: str = ""
    errors: tuple[str, ...] = ()
    refusal: str = ""

    @property
    def playable(self) -> bool:
        """Whether ``new_game`` deals a game of it."""
        return self.variant is not None and not self.refusal

    @property
    def disagreement(self) -> str:
        """How the checker and ``new_game`` disagree, or ``""`` (they agree).

        They agree when both let the profile be played, or when both refuse it
        and ``new_game``'s reason is among the checker's errors.
        """
        if self.variant is None:
            return ""
        if self.errors and not self.refusal:
            return "checker error, yet new_game deals"
        if self.refusal and not self.errors:
            return "new_game refuses, the checker reports no error"
        if self.refusal and not any(_reason(self.refusal) in e for e in self.errors):
            return "new_game refuses for a reason the checker does not give"
        return ""


def _reason(refusal: str) -> str:
    """``new_game``'s reason without the ``variant 'name': `` it starts with."""
    head, sep, rest = refusal.partition(": ")
    return rest if sep and head.startswith("variant ") else refusal


def admit(profile: HouseProfile | str, seed: int = 0) -> Admission:
    """Load ``profile`` (a house profile or YAML text), check it, and try to deal it."""
    text = profile.text() if isinstance(profile, HouseProfile) else profile
    try:
        v = canasta.parse_variant(text)
    except CanastaError as exc:
        return Admission(None, loader=str(exc))
    errors = tuple(f"{d.code}: {d.message}" for d in check_variant(v) if d.severity == "error")
    try:
        canasta.new_game(v, seed=seed)
    except CanastaError as exc:
        return Admission(v, errors=errors, refusal=str(exc))
    return Admission(v, errors=errors)


# --------------------------------------------------------------------------- playing a hand

#: A hand that has not ended after this many moves is reported (random play of
#: Brazilian takes some 5,000; a policy that never goes out can take longer).
MAX_MOVES = 8000
#: A hand that has used this many CPU seconds is stopped and reported (``no-end``).
MAX_SECONDS = 120.0
#: Unlisted moves tried for refusal at each position, at most.
UNLISTED_TRIED = 6

#: The symptoms a hand can show, the contract's breaches first.
SYMPTOMS = (
    "dead-end",         # no legal move while the hand is not over
    "exception",        # anything but a CanastaError from the library, or one where none belongs
    "listed-refused",   # a listed move refused by apply
    "unlisted-accepted",  # a move not listed, yet applied
    "score",            # the hand's scores do not add up
    "state",            # a state the engine built fails its own consistency check
    "no-action-id",     # a listed move without an id in the variant's action space
    "slow",             # a legal_moves() or apply() call over the limit
    "no-end",           # the hand has not ended after MAX_MOVES moves or MAX_SECONDS
)


@attrs.frozen
class Failure:
    """A breach of the contract in one hand.

    Attributes:
        symptom: one of :data:`SYMPTOMS`.
        detail: what happened, in words (the exception, the move refused ...).
        move_index: the number of moves played in the game before it (the
            position where it showed), counted from the deal of the first hand:
            every hand's moves and the ``next`` that deals each later hand.
        hand: the hand it showed in (1 for the first).
    """

    symptom: str
    detail: str
    move_index: int
    hand: int = 1


#: A timer: called with the name of the call and its CPU seconds: ``"legal_moves"``,
#: ``"apply"`` (the move played) or ``"apply-check"`` (a move applied to test the listing).
Timer = Callable[[str, float], None]

#: A policy: the state (its current player's turn) and its legal moves -> the move to play.
Policy = Callable[[GameState, Sequence[Move], random.Random], Move]


def random_policy(s: GameState, legal: Sequence[Move], rng: random.Random) -> Move:
    """A uniformly random legal move."""
    return legal[rng.randrange(len(legal))]


_GREEDY = canasta.GreedyBot()


def greedy_policy(s: GameState, legal: Sequence[Move], rng: random.Random) -> Move:
    """The greedy bot's move, chosen from the current player's view."""
    return _GREEDY.choose(s.view(s.current_player), rng)


#: The policies by name.
POLICIES: Mapping[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


class SlowCall(Exception):
    """A call over the time limit: a timer raises it to stop the hand there (symptom ``slow``)."""


#: CPU seconds the cyclic garbage collector has spent since :func:`watch_gc`
#: (0 until it is called), and the longest of its pauses.
GC_PAUSES = [0.0, 0.0]
_GC_START = [0.0]


def _gc_callback(phase: str, _info: dict[str, int]) -> None:
    now = time.process_time()
    if phase == "start":
        _GC_START[0] = now
    else:
        pause = now - _GC_START[0]
        GC_PAUSES[0] += pause
        GC_PAUSES[1] = max(GC_PAUSES[1], pause)


def watch_gc() -> None:
    """Count the garbage collector's pauses (:data:`GC_PAUSES`), so that a timed call's
    time leaves them out: a full collection of a large heap can take a tenth of a
    second in any call, and is the interpreter's work, not the call's."""
    if _gc_callback not in gc.callbacks:
        gc.callbacks.append(_gc_callback)


def _timed(timer: Timer | None, name: str, call: Callable[[], T]) -> T:
    if timer is None:
        return call()
    paused = GC_PAUSES[0]
    t0 = time.process_time()
    out = call()
    timer(name, time.process_time() - t0 - (GC_PAUSES[0] - paused))
    return out


@lru_cache(maxsize=8)
def action_space(variant: Variant) -> canasta.ActionSpace:
    """The variant's action space: every move the engine can list in it (kept for a few variants)."""
    return canasta.ActionSpace(variant)


def _unlisted(s: GameState, legal: Sequence[Move], before: Sequence[Move], rng: random.Random) -> list[Move]:
    """Moves worth trying for refusal, a few chosen at random among those not listed here:
    the engine's candidates (a superset of the legal moves), the moves listed at the
    position before, and any moves of the variant's action space (which the engine's
    candidates may leave out)."""
    listed = set(legal)
    everything = action_space(s.variant).moves
    anywhere = [everything[rng.randrange(len(everything))] for _ in range(UNLISTED_TRIED)]
    pool = [m for m in (*candidate_moves(s, context_of(s)), *before, *anywhere) if m not in listed]
    rng.shuffle(pool)
    return pool[:UNLISTED_TRIED]


def _try_position(
    s: GameState, legal: Sequence[Move], before: Sequence[Move], rng: random.Random,
    timer: Timer | None, every: bool,
) -> tuple[str, str] | None:
    """Apply every listed move (or the first few, unless ``every``) and some unlisted ones to ``s``.

    Returns ``(symptom, detail)`` for the first breach, else ``None``.
    """
    space = action_space(s.variant)
    for m in legal if every else legal[:3]:
        try:
            space.encode(m)
        except CanastaError as exc:
            return "no-action-id", f"{m}: {exc}"
        try:
            _timed(timer, "apply-check", lambda m=m: s.apply(m))
        except IllegalMoveError as exc:
            return "listed-refused", f"{m}: {exc}"
    for m in _unlisted(s, legal, before, rng):
        try:
            _timed(timer, "apply-check", lambda m=m: s.apply(m))
        except IllegalMoveError:
            if s.is_legal(m):
                return "unlisted-accepted", f"{m}: refused by apply, yet is_legal says yes"
            continue
        return "unlisted-accepted", f"{m} (not among {len(legal)} listed moves)"
    return None


def _scores_add_up(before: tuple[int, ...], s: GameState) -> str | None:
    end = s.end
    assert end is not None
    if len(end.breakdowns) != len(before):
        return f"{len(end.breakdowns)} score breakdowns for {len(before)} sides"
    for side, (old, new, gained) in enumerate(zip(before, s.scores, end.hand_scores, strict=True)):
        if old + gained != new:
            return f"side {side}: {old} + {gained} != {new}"
    return None


#: The move that deals the next hand once a hand is over.
_NEXT = canasta.NextHand()


def _next_hand(s: GameState, timer: Timer | None) -> GameState:
    """Deal the next hand after ``s`` (a hand over, the game not): ``next`` must be the
    one move listed, and it is played without asking the policy, so that a hand's
    choices do not depend on how many hands are played."""
    legal = _timed(timer, "legal_moves", s.legal_moves)
    if list(legal) != [_NEXT]:
        raise _Breach("dead-end" if not legal else "unlisted-accepted",
                      f"the hand is over and lists {', '.join(map(str, legal)) or 'no move'}, not only next")
    return _timed(timer, "apply", lambda: s.apply(_NEXT))


class _Breach(Exception):
    """A breach found between hands, carried to :func:`play_hand` as its failure."""

    def __init__(self, symptom: str, detail: str) -> None:
        super().__init__(detail)
        self.symptom, self.detail = symptom, detail


@attrs.define
class _Hand:
    """Where :func:`play_hand` is in the game: the state, the moves played since the deal
    of the first hand, the scores before this hand, the listing of the position before."""

    s: GameState
    index: int = 0
    scores: tuple[int, ...] = ()
    before: Sequence[Move] = ()


def _play_step(at: _Hand, policy: Policy, rng: random.Random, tries: random.Random,
               timer: Timer | None, every_move: bool, check: bool) -> Failure | None:
    """Check the position ``at`` holds and play the policy's move from it (``at`` moves on)."""
    s, index, hand = at.s, at.index, at.s.hand_number + 1
    try:
        legal = _timed(timer, "legal_moves", s.legal_moves)
        if not legal:
            return Failure("dead-end", f"no legal move in {s!r}", index, hand)
        if check:
            problem = state_problem(s)
            if problem is not None:
                return Failure("state", f"{problem[0]}: {problem[1]}", index, hand)
            breach = _try_position(s, legal, at.before, tries, timer, every_move)
            if breach is not None:
                return Failure(breach[0], breach[1], index, hand)
        move = policy(s, legal, rng)
        if move not in legal:
            return Failure("unlisted-accepted", f"the policy chose {move}, which is not listed", index, hand)
        try:
            at.s = _timed(timer, "apply", lambda: s.apply(move))
        except IllegalMoveError as exc:
            return Failure("listed-refused", f"{move}: {exc}", index, hand)
    except SlowCall as slow:
        return Failure("slow", str(slow), index, hand)
    except Exception as exc:  # any escape from the library is the finding
        return Failure("exception", f"{type(exc).__name__}: {exc}"[:500], index, hand)
    at.before, at.index = legal, index + 1
    return None


def play_hand(
    variant: Variant,
    seed: int,
    policy: Policy,
    *,
    timer: Timer | None = None,
    every_move: bool = True,
    check_every: int = 1,
    max_moves: int = MAX_MOVES,
    max_seconds: float = MAX_SECONDS,
    hands: int = 1,
    on_hand: Callable[[GameState], None] | None = None,
) -> Failure | None:
    """Play the first ``hands`` hands of ``variant`` (dealt with ``seed``) to their end, checking the contract.

    At every position: a legal move while the hand is not over; at every
    ``check_every``-th, every listed move applies (only the first three
    without ``every_move``), a few unlisted ones (the engine's candidates, the
    moves of the position before) are refused with IllegalMoveError, and the
    state passes the engine's consistency check. At the end of each hand: the
    scores add up; then, unless the game is over or ``hands`` are played,
    ``next`` is the one move listed and deals the next hand. ``max_moves`` and
    ``max_seconds`` bound each hand. The policy chooses with
    ``random.Random(seed)``; the unlisted moves tried come from a generator of
    their own, so the game played depends only on the variant, the seed and the
    policy (:func:`moves_of_hand` replays it). ``on_hand`` is called with the
    state at the end of each hand played in full.

    Returns:
        The first breach, or ``None`` when the hands ended as they should.
    """
    rng = random.Random(seed)
    tries = random.Random(-1 - seed)
    at = _Hand(canasta.new_game(variant, seed=seed))
    for hand in range(1, hands + 1):
        at.scores, at.before, first = at.s.scores, (), at.index
        deadline = time.process_time() + max_seconds
        while not at.s.is_hand_over:
            if at.index - first >= max_moves:
                return Failure("no-end", f"the hand has not ended after {max_moves} moves", at.index, hand)
            if time.process_time() > deadline:
                return Failure("no-end", f"the hand has not ended after {max_seconds:g} s of CPU", at.index, hand)
            failure = _play_step(at, policy, rng, tries, timer, every_move, (at.index - first) % check_every == 0)
            if failure is not None:
                return failure
        why = _scores_add_up(at.scores, at.s)
        if why is not None:
            return Failure("score", why, at.index, hand)
        if on_hand is not None:
            on_hand(at.s)
        if at.s.is_game_over or hand == hands:
            return None
        try:
            at.s = _next_hand(at.s, timer)
        except _Breach as breach:
            return Failure(breach.symptom, breach.detail, at.index, hand)
        except SlowCall as slow:
            return Failure("slow", str(slow), at.index, hand)
        at.index += 1
    return None


def moves_of_hand(variant: Variant, seed: int, policy: Policy, upto: int) -> Iterator[tuple[GameState, Move]]:
    """The positions of a game as :func:`play_hand` plays it (without its checks), up to move ``upto``.

    For a reproducer: the state at the failing move index, and the move played
    from it; a move index past the first hand counts the ``next`` that dealt each
    later hand, as :func:`play_hand` does.
    """
    rng = random.Random(seed)
    s = canasta.new_game(variant, seed=seed)
    for _index in range(upto):
        if s.is_game_over:
            return
        if s.is_hand_over:
            move: Move = _NEXT
        else:
            legal = s.legal_moves()
            if not legal:
                return
            move = policy(s, legal, rng)
        yield s, move
        s = s.apply(move)


def state_at(variant: Variant, seed: int, policy: Policy, index: int) -> GameState:
    """The position of the game :func:`play_hand` plays after ``index`` moves (where a failure showed)."""
    s = canasta.new_game(variant, seed=seed)
    for s_before, move in moves_of_hand(variant, seed, policy, index):
        s = s_before.apply(move)
    return s
