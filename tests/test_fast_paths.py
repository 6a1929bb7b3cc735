"""The engine's fast paths list what its plain rule path lists, move for move and in order.

With ``CANASTA_PLAIN_RULES=1`` set at import, every fast path of the engine is
off (:mod:`canasta.engine.fastpaths`): each candidate move is asked its step,
nothing is carried from one state to the next, and the oracle's searches decide
every question. These tests play hands of every bundled profile and of
generated house profiles here (fast paths on) and in a process started with
the variable set (tests/plain_trace.py), and compare, position by position, the
legal moves in the order listed (the order is part of the contract: seeded
random play, action masks and the golden files depend on it) and the state
after the move played. The ``long`` mark plays longer hands and more profiles.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import canasta
import house_rules as hr
import plain_trace
from canasta.engine import fastpaths
from houses import CLEAN_OPENINGS, GAP_SEQUENCES

HERE = Path(__file__).resolve().parent


def plain_traces(jobs: list[dict[str, Any]]) -> list[list[plain_trace.Step]]:
    """The traces of ``jobs`` in a process with every fast path off."""
    env = {**os.environ, fastpaths.ENV_VAR: "1"}
    done = subprocess.run(
        [sys.executable, str(HERE / "plain_trace.py")],
        input=json.dumps(jobs), capture_output=True, text=True, env=env, timeout=1800, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    assert out["plain"] is True, "the plain process did not turn the fast paths off"
    assert out["flags_on"] == [], f"fast paths left on in the plain process: {out['flags_on']}"
    return [[(legal, after) for legal, after in t] for t in out["traces"]]


def first_difference(job: dict[str, Any], fast: list[plain_trace.Step], plain: list[plain_trace.Step]) -> str | None:
    """Where the two traces of ``job`` part, in words, or ``None`` when they are equal."""
    for i, ((fl, fa), (pl, pa)) in enumerate(zip(fast, plain, strict=False)):
        if fl != pl:
            only_fast = [m for m in fl if m not in pl]
            only_plain = [m for m in pl if m not in fl]
            how = (f"fast only {only_fast}, plain only {only_plain}" if only_fast or only_plain
                   else f"same moves in another order: fast {fl}, plain {pl}")
            return f"move {i}: legal moves differ: {how}"
        if fa != pa:
            return f"move {i}: the state after the move differs"
    if len(fast) != len(plain):
        return f"the fast hand has {len(fast)} moves, the plain one {len(plain)}"
    return None


def compare(jobs: list[dict[str, Any]]) -> None:
    """Trace ``jobs`` both ways; fail naming every job whose traces differ."""
    assert not fastpaths.PLAIN_RULES, f"run these tests without {fastpaths.ENV_VAR}"
    fast = plain_trace.trace_jobs(jobs)
    plain = plain_traces(jobs)
    problems = []
    for job, f, p in zip(jobs, fast, plain, strict=True):
        assert f, f"no move traced: {job}"
        why = first_difference(job, f, p)
        if why is not None:
            problems.append(f"{job['policy']} seed {job['seed']}:\n{job['profile']}{why}")
    assert not problems, "\n\n".join(problems)


def bundled_jobs(moves: int, seeds: range) -> list[dict[str, Any]]:
    """A hand of every bundled profile per seed, random and greedy play alternating."""
    return [
        {"profile": f"extends: {name}\n", "seed": seed, "policy": ("random", "greedy")[(i + seed) % 2], "moves": moves}
        for i, name in enumerate(canasta.variant_names())
        for seed in seeds
    ]


def generated_jobs(count: int, moves: int, seed: int) -> list[dict[str, Any]]:
    """Hands of ``count`` generated house profiles that ``new_game`` deals (a seeded draw)."""
    rng = random.Random(seed)
    chooser = hr.RandomChooser(rng)
    jobs: list[dict[str, Any]] = []
    while len(jobs) < count:
        profile = hr.draw_profile(chooser)
        if hr.admit(profile).playable:
            deal = rng.randrange(2**32)
            jobs.append({"profile": profile.text(), "seed": deal, "policy": ("random", "greedy")[deal % 2], "moves": moves})
    return jobs


class TestSameMoves:
    """Fast and plain paths agree on random positions."""

    def test_bundled_profiles(self) -> None:
        """A hand (up to 150 moves) of every bundled profile, random or greedy play."""
        compare(bundled_jobs(150, range(1, 2)))

    def test_generated_profiles(self) -> None:
        """Hands (up to 150 moves) of 12 generated house profiles."""
        compare(generated_jobs(12, 150, seed=1))


#: House profiles with the rules the greedy plan of going out steps around per position (a
#: meld of wild cards locking the wild cards, wild cards joining late), or asks a second
#: time (mixed canastas to go out): the plan lays the wild cards on a locked meld first,
#: gives wild cards only to melds that may take them where they join late, and gives them
#: to the melds they make canastas where its first try misses the canastas going out needs.
PLAN_AROUND = (
    "extends: brazilian\nmelds: {wild_meld_lock: true}\ngoing_out: {ask_after_laying: true}\n",
    "extends: uruguayan\nmelds: {wild_meld_lock: true}\n",
    "extends: bolivia\nmelds: {wild_meld_lock: true}\n",
    "extends: modern-american\n",
    "extends: classic\nmelds: {late_wild_naturals: 4}\n",
    "extends: bolivia\nmelds: {late_natural_ranks: [K, A], late_wild_naturals: 3}\n",
    "extends: brazilian\ngoing_out: {mixed_canastas: 3}\n",
    "extends: samba\ngoing_out: {mixed_canastas: 2}\n",
)


#: House profiles whose opening must hold a canasta from long hands: the greedy plan of an
#: opening, which often melds every card, keeps one of its new melds back to end the turn.
CANASTA_OPENINGS = tuple(
    f"extends: brazilian\ndeal: {{hand_size: {size}}}\ndeck: {{decks: 6}}\ndraw: {{count: 3}}\n"
    f"opening:\n  by: score\n  score_table:\n  - {{minimum: 0, canasta: {kind}}}\n"
    f"  - {{from_score: 0, minimum: 50, canasta: {kind}}}\n"
    for size, kind in ((22, "natural"), (18, "any"))
)


class TestRulesThePlanStepsAround:
    """Fast and plain paths agree where the greedy plan must mind a rule it does not play."""

    def test_wild_locks_and_late_wild_cards(self) -> None:
        """Whole hands (up to 300 moves) of each profile of :data:`PLAN_AROUND`, greedy play."""
        compare([
            {"profile": profile, "seed": seed, "policy": "greedy", "moves": 300}
            for profile in PLAN_AROUND
            for seed in range(11, 17)
        ])

    def test_sequences_grown_first(self) -> None:
        """Whole hands (up to 400 moves) of Bolivia and Brazilian, greedy play, where the
        greedy way out grows the side's sequences from the hand first (seven times in these
        hands, where the escalera going out needs is one card or more short)."""
        compare([
            {"profile": f"extends: {name}\n", "seed": seed, "policy": "greedy", "moves": 400}
            for name in ("bolivia", "brazilian")
            for seed in range(30, 38)
        ])

    def test_new_sequences_with_a_wild_card_in_a_gap(self) -> None:
        """Whole hands (up to 300 moves) of :data:`GAP_SEQUENCES`, greedy play, where the
        greedy way out lays a card it leaves in a new sequence with a wild card in its gap."""
        compare([
            {"profile": profile, "seed": seed, "policy": "greedy", "moves": 300}
            for profile in GAP_SEQUENCES
            for seed in range(40, 46)
        ])

    def test_clean_openings(self) -> None:
        """Hands (up to 200 moves) of :data:`CLEAN_OPENINGS`, greedy and random play, where
        the greedy plan of an opening lays natural cards alone."""
        compare([
            {"profile": profile, "seed": seed, "policy": ("random", "greedy")[seed % 2], "moves": 200}
            for profile in CLEAN_OPENINGS
            for seed in range(50, 54)
        ])

    def test_openings_that_hold_a_canasta(self) -> None:
        """Hands (up to 120 moves) of each profile of :data:`CANASTA_OPENINGS`."""
        compare([
            {"profile": profile, "seed": seed, "policy": ("random", "greedy")[seed % 2], "moves": 120}
            for profile in CANASTA_OPENINGS
            for seed in (23, 24)
        ])


class TestTheComparison:
    """The comparison sees a difference where there is one."""

    def test_listing_difference(self) -> None:
        """A move missing from one listing, and two moves swapped, are named."""
        job = {"profile": "extends: classic\n", "seed": 1, "policy": "random"}
        base = [(["draw", "take pile"], "d1"), (["discard 5", "discard 9"], "d2")]
        assert first_difference(job, base, base) is None
        missing = [(["draw"], "d1"), base[1]]
        assert "plain only ['take pile']" in str(first_difference(job, missing, base))
        swapped = [base[0], (["discard 9", "discard 5"], "d2")]
        assert "another order" in str(first_difference(job, swapped, base))
        other_state = [base[0], (base[1][0], "dX")]
        assert "state after the move differs" in str(first_difference(job, other_state, base))

    def test_plain_process_is_plain(self) -> None:
        """The process started with the variable set reports the fast paths off, and its
        hand is the fast one's (the same deal and choices)."""
        job = bundled_jobs(20, range(3, 4))[2]
        (plain,) = plain_traces([job])
        assert plain and plain == plain_trace.trace_jobs([job])[0]


class TestFlags:
    """Which fast paths a variant may take is decided once, from its rules."""

    @staticmethod
    def fast(profile: str) -> fastpaths.FastPaths:
        return canasta.new_game(canasta.parse_variant(profile), seed=0).rules.fast

    def test_classic_takes_every_listing(self) -> None:
        """Classic (no sequences, one meld of a rank, no 3 kept) takes every shortcut but
        those of sequences."""
        f = self.fast("extends: classic\n")
        off = [name for name in fastpaths.FLAGS if not getattr(f, name)]
        assert off == ["narrow_searches", "sequence_pruning", "wild_sets"]

    def test_sequences_and_several_melds_leave_the_counts_listing(self) -> None:
        """Samba (sequences, several melds of a rank) lists its play phase by the candidate
        loop; its sequence searches are pruned and narrowed."""
        f = self.fast("extends: samba\n")
        assert not f.quick_listing
        assert f.quick_discards and f.quick_shapes and f.sequence_pruning and f.narrow_searches

    def test_rank_bars_and_kept_threes(self) -> None:
        """Dead ranks bar cards by rank (no adds or melds by shape; the greedy plan, asked
        per position, is not asked once a rank is dead); a kept 3 leaves the listings to the
        steps, which lay it (Modern American has both)."""
        dead = self.fast("extends: modern-american\nthrees:\n  keep_one: false\n")
        assert not (dead.quick_shapes or dead.quick_listing)
        assert dead.greedy_out and dead.greedy_opening
        assert dead.quick_discards and dead.draw_listing
        kept = self.fast("extends: modern-american\n")
        assert not (kept.draw_listing or kept.quick_discards or kept.quick_listing)
        assert kept.quick_out and kept.carried_counts

    def test_repr_names_the_flags_on(self) -> None:
        """A flag set shows the fast paths it lets through."""
        assert repr(self.fast("extends: classic\n")).startswith("FastPaths(carried_counts, carried_info, draw_apply")


@pytest.mark.long
class TestSameMovesLong:
    """The same comparison over longer hands and more profiles (run with ``-m long``)."""

    def test_bundled_profiles(self) -> None:
        """Whole hands (up to 3,000 moves) of every bundled profile, three seeds each."""
        compare(bundled_jobs(3000, range(1, 4)))

    def test_generated_profiles(self) -> None:
        """Hands (up to 1,000 moves) of 40 generated house profiles."""
        compare(generated_jobs(40, 1000, seed=2))
