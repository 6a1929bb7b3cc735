"""Tests of canasta.check: the rule-set conflict checker and ``canasta check``.

``tests/data/broken/`` holds one broken profile per kind of finding, named
after its code (``C007-….yaml``); each must give exactly that code among its
errors and warnings.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings

import canasta
from budget import LONG, examples
from canasta.check import (
    CHECKS,
    Diagnostic,
    Finding,
    check_profile,
    check_variant,
    checks_rst,
)
from canasta.check import playouts as playouts_module
from canasta.engine.state import GameState
from canasta.errors import CanastaError
from canasta.variant.loading import parse_variant
from strategies import variants

BUNDLED = [
    "bolivia", "brazilian", "classic", "classic-2p", "classic-3p", "classic-6p", "draw-two", "hand-and-foot",
    "hand-and-foot-pagat", "modern-american", "modern-american-2p", "samba", "uruguayan",
]
#: Profiles where the checker's simulated players seldom go out: two-hand Modern
#: American (two canastas, no aces, 7s or wild meld left open, a 78-card stock
#: drawn two at a time), where twenty hands may see nobody go out (C043).
SLOW_TO_GO_OUT = frozenset({"modern-american-2p"})
DATA = Path(__file__).parent / "data"
BROKEN = DATA / "broken"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "checks.rst"
BROKEN_FILES = sorted(BROKEN.glob("C*.yaml"))
LINE = re.compile(
    r"^(?P<file>[^:]+)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<sev>error|warning|info) "
    r"(?P<code>C\d{3})(?: (?P<path>[\w.\[\]]+))?: (?P<msg>.+)$"
)


def serious(findings: list[Finding] | list[Diagnostic]) -> set[str]:
    """Codes of the errors and warnings among ``findings``."""
    diags = [f.diagnostic if isinstance(f, Finding) else f for f in findings]
    return {d.code for d in diags if d.severity != "info"}


def codes(findings: list[Finding]) -> set[str]:
    """Every code among ``findings``."""
    return {f.diagnostic.code for f in findings}


def expect_only(findings: list[Finding], code: str) -> None:
    """Assert that ``code`` is found and no other error or warning is."""
    severity = CHECKS[code].severity
    assert code in codes(findings), [f.format() for f in findings]
    assert serious(findings) == (set() if severity == "info" else {code}), [
        f.format() for f in findings
    ]


def write(tmp_path: Path, name: str, text: str) -> Path:
    """Write a profile file into ``tmp_path`` and return its path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


class TestDiagnostic:
    """Diagnostic: fields, path, format and to_dict."""

    def test_path_is_first(self) -> None:
        """path is the first of paths."""
        d = Diagnostic("C007", "error", ("going_out.wild_canastas", "melds.wild_melds"), "m")
        assert d.path == "going_out.wild_canastas"

    def test_path_empty(self) -> None:
        """A diagnostic with no paths has an empty path."""
        assert Diagnostic("C040", "error", (), "m").path == ""

    def test_format_compiler_like(self) -> None:
        """format() with a file and a location reads like a compiler message."""
        d = Diagnostic("C007", "error", ("going_out.wild_canastas",), "no wild melds", "fix it")
        text = d.format("house.yaml", (14, 3))
        assert text == (
            "house.yaml:14:3: error C007 going_out.wild_canastas: no wild melds (hint: fix it)"
        )

    def test_format_without_location(self) -> None:
        """Without a location the file alone starts the line; without a file nothing does."""
        d = Diagnostic("C010", "error", ("game.target",), "never ends")
        assert d.format("house.yaml") == "house.yaml: error C010 game.target: never ends"
        assert d.format() == "error C010 game.target: never ends"

    def test_format_escapes_the_file_name(self) -> None:
        """A newline or terminal escape in a file name (or an inherited option's origin)
        is written as an escape: a finding stays one line."""
        d = Diagnostic("C010", "error", ("game.target",), "never ends")
        assert d.format("a\nb\x1b[2J.yaml", (3, 1)) == (
            "a\\nb\\x1b[2J.yaml:3:1: error C010 game.target: never ends"
        )
        f = Finding(d, "house\n.yaml", 2, 5, origin="base\r.yaml:7:3")
        assert f.format() == (
            "house\\n.yaml:2:5: error C010 game.target: never ends (set in base\\r.yaml:7:3)"
        )
        assert f.to_dict()["file"] == "house\n.yaml"  # JSON keeps the name as given

    def test_frozen(self) -> None:
        """Diagnostics are frozen values."""
        d = Diagnostic("C010", "error", ("game.target",), "never ends")
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            d.code = "C001"  # type: ignore[misc]
        assert d == Diagnostic("C010", "error", ("game.target",), "never ends")

    def test_to_dict(self) -> None:
        """to_dict() gives JSON-ready data."""
        d = Diagnostic("C010", "error", ("game.target", "game.rounds"), "never ends", "h")
        assert json.loads(json.dumps(d.to_dict())) == {
            "code": "C010", "severity": "error", "path": "game.target",
            "paths": ["game.target", "game.rounds"], "message": "never ends", "hint": "h",
        }

    def test_exported(self) -> None:
        """check_variant and Diagnostic are part of the public contract."""
        assert canasta.check_variant is check_variant
        assert canasta.Diagnostic is Diagnostic
        assert {"check_variant", "Diagnostic"} <= set(canasta.__all__)


class TestRegistry:
    """CHECKS: codes, severities, examples and documentation."""

    def test_codes_stable_and_ordered(self) -> None:
        """Codes are C followed by three digits, unique and in increasing order."""
        keys = list(CHECKS)
        assert all(re.fullmatch(r"C\d{3}", k) for k in keys)
        assert keys == sorted(keys)
        assert all(kind.code == k for k, kind in CHECKS.items())

    def test_at_least_fifteen_static_kinds(self) -> None:
        """There are at least 15 kinds of static check, each with a function."""
        static = [k for k in CHECKS.values() if k.stage == "static"]
        assert len(static) >= 15
        assert all(k.run is not None for k in static)

    def test_severities(self) -> None:
        """Every kind has one of the three severities and every severity is used."""
        assert {k.severity for k in CHECKS.values()} == {"error", "warning", "info"}

    def test_every_kind_documented(self) -> None:
        """Every kind has a title, a meaning and an example profile."""
        for kind in CHECKS.values():
            assert kind.title and kind.meaning and kind.example.strip(), kind.code

    @pytest.mark.parametrize("code", [c for c, k in CHECKS.items() if k.stage != "playout"])
    def test_example_gives_its_code(self, tmp_path: Path, code: str) -> None:
        """Each registered example profile gives exactly its own code."""
        path = write(tmp_path, "house.yaml", CHECKS[code].example)
        expect_only(check_profile(path), code)

    @pytest.mark.parametrize("code", [c for c, k in CHECKS.items() if k.stage != "playout"])
    def test_broken_profile_exists(self, code: str) -> None:
        """Every kind found by loading or reading the rules has a broken profile."""
        assert list(BROKEN.glob(f"{code}-*.yaml")), code

    def test_docs_page_up_to_date(self) -> None:
        """docs/checks.rst holds the list generated from the registry (refresh: CANASTA_UPDATE_DOCS=1)."""
        generated = "\n" + checks_rst() + "\n"

        def split() -> tuple[str, str, str]:
            text = DOCS.read_text(encoding="utf-8")
            begin = text.index("\n", text.index(".. checks-begin")) + 1
            end = text.index(".. checks-end")
            return text[:begin], text[begin:end], text[end:]

        if os.environ.get("CANASTA_UPDATE_DOCS") == "1":
            head, _, tail = split()
            DOCS.write_text(head + generated + tail, encoding="utf-8")
        assert split()[1] == generated

    def test_every_code_in_docs(self) -> None:
        """Every registered code appears in docs/checks.rst with its severity and example."""
        text = DOCS.read_text(encoding="utf-8")
        for code, kind in CHECKS.items():
            start = text.index(f"\n{code}: {kind.title}\n")
            section = text[start : start + 2000]
            assert f":Severity: {kind.severity}" in section, code
            assert kind.example.splitlines()[0] in section, code

    def test_docs_explain_second_wild_info(self) -> None:
        """The docs explain why the hand-and-foot second-wild ambiguity is an info."""
        text = DOCS.read_text(encoding="utf-8")
        assert "Why the Hand and Foot second-wild rule is an info" in text
        assert CHECKS["C031"].severity == "info"


class TestBrokenProfiles:
    """tests/data/broken: one broken profile per kind of finding."""

    @pytest.mark.parametrize("path", BROKEN_FILES, ids=lambda p: p.name[:4])
    def test_gives_exactly_its_code(self, path: Path) -> None:
        """Each broken profile gives its code and no other error or warning."""
        code = path.name[:4]
        playouts = 10 if CHECKS[code].stage == "playout" else 0
        expect_only(check_profile(path, playouts=playouts), code)

    def test_most_extend_classic(self) -> None:
        """Broken profiles change a bundled profile as little as possible."""
        for path in BROKEN_FILES:
            text = path.read_text(encoding="utf-8")
            if path.name.startswith("C011"):
                continue
            assert re.search(r"^extends: (classic|draw-two)$", text, re.M), path.name


class TestCheckVariant:
    """check_variant(): static checks on a resolved Variant."""

    @pytest.mark.parametrize("name", BUNDLED)
    def test_bundled_clean(self, name: str) -> None:
        """Bundled profiles have no errors or warnings (infos are fine)."""
        assert serious(check_variant(canasta.load_variant(name))) == set()

    def test_round_table_past_the_last_hand_warns(self) -> None:
        """opening.round_table entries for hands after game.rounds are never used: C025."""
        v = parse_variant({"extends": "hand-and-foot", "name": "h", "game": {"rounds": 3}})
        (found,) = [d for d in check_variant(v) if d.code == "C025"]
        assert found.severity == "warning"
        assert found.paths == ("opening.round_table[3]", "game.rounds")
        assert "the last entry of opening.round_table (150) is never used" in found.message
        two = parse_variant({"extends": "hand-and-foot", "name": "h", "game": {"rounds": 2}})
        (found,) = [d for d in check_variant(two) if d.code == "C025"]
        assert "the last 2 entries of opening.round_table (120, 150) are never used" in found.message
        four = parse_variant({"extends": "hand-and-foot", "name": "h", "game": {"rounds": 4}})
        assert "C025" not in {d.code for d in check_variant(four)}

    def test_hand_and_foot_second_wild_is_info(self) -> None:
        """The hand-and-foot second-wild ambiguity is reported, as an info."""
        found = check_variant(canasta.load_variant("hand-and-foot"))
        c031 = [d for d in found if d.code == "C031"]
        assert len(c031) == 1 and c031[0].severity == "info"
        assert c031[0].paths[0] == "melds.second_wild"
        assert "4 naturals and 2 wild cards is legal" in c031[0].message

    def test_returns_diagnostics(self) -> None:
        """Every item is a Diagnostic whose code and severity match the registry."""
        v = canasta.load_variant(BROKEN / "C006-too-few-wild-cards-for-the-wild-canastas-required.yaml")
        found = check_variant(v)
        assert found and all(isinstance(d, Diagnostic) for d in found)
        assert all(CHECKS[d.code].severity == d.severity for d in found)
        assert "8 wild cards" in found[0].message

    def test_several_findings(self, tmp_path: Path) -> None:
        """A profile with several problems gets each of them, in code order."""
        path = write(
            tmp_path, "house.yaml",
            "extends: classic\ngame:\n  target: null\ngoing_out:\n  wild_canastas: 1\n",
        )
        found = check_variant(canasta.load_variant(path))
        assert [d.code for d in found] == ["C007", "C010"]

    def test_not_a_variant(self) -> None:
        """A value that is not a Variant is refused with a CanastaError."""
        with pytest.raises(CanastaError, match="expects a Variant"):
            check_variant("classic")  # type: ignore[arg-type]

    @pytest.mark.parametrize("bad", [-1, True, 1.5])
    def test_bad_playouts(self, bad: object) -> None:
        """playouts must be an integer >= 0."""
        with pytest.raises(CanastaError, match="playouts"):
            check_variant(canasta.load_variant("classic"), playouts=bad)  # type: ignore[arg-type]

    @settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(variants())
    def test_never_raises(self, v: canasta.Variant) -> None:
        """Any variant within the schema is checked without an exception."""
        for d in check_variant(v):
            assert d.code in CHECKS and d.severity == CHECKS[d.code].severity
            assert d.message


def evolved(name: str, **areas: dict[str, object]) -> canasta.Variant:
    """Bundled profile ``name`` with the options of each area in ``areas`` changed."""
    v = canasta.load_variant(name)
    return attrs.evolve(v, **{a: attrs.evolve(getattr(v, a), **opts) for a, opts in areas.items()})


def found(v: canasta.Variant) -> dict[str, list[canasta.check.Diagnostic]]:
    """The static diagnostics of ``v`` by code."""
    out: dict[str, list[canasta.check.Diagnostic]] = {}
    for d in check_variant(v):
        out.setdefault(d.code, []).append(d)
    return out


class TestSequenceChecks:
    """The static checks read sequences as a kind of meld and of canasta."""

    def test_sequence_canastas_count_as_canastas(self) -> None:
        """Rank melds that never reach a canasta are no C004 while sequences make canastas."""
        assert "C004" not in found(evolved("samba", melds={"max_size": 6}))
        assert "C004" in found(evolved("samba", melds={"max_size": 6}, sequences={"allowed": False}))

    def test_required_sequence_canasta_never_made_is_c005(self) -> None:
        """A contract that needs a sequence canasta no sequence can reach is an error, not C051's warning."""
        got = found(evolved("bolivia", sequences={"max_size": 6}))
        assert [d.severity for d in got["C005"]] == ["error"]
        assert "a sequence holds at most 6 cards" in got["C005"][0].message
        assert "C051" not in got

    def test_too_many_sequence_canastas_is_c008(self) -> None:
        """Three decks hold one seven-card run per suit and deck in a window of 4 to A: twelve at most."""
        got = found(evolved("bolivia", going_out={"canastas": 13, "sequence_canastas": 13}))
        assert "at most 12 sequence canastas can be made" in got["C008"][0].message
        assert "C008" not in found(evolved("bolivia", going_out={"canastas": 12, "sequence_canastas": 12}))

    def test_sequence_kind_in_the_total(self) -> None:
        """C032 adds sequence canastas to the kinds a contract lists."""
        got = found(evolved("bolivia", going_out={"canastas": 1, "sequence_canastas": 1, "natural_canastas": 1}))
        assert "lists 2 of particular kinds" in got["C032"][0].message

    def test_wild_rank_inside_the_window(self) -> None:
        """A wild king splits the window: C050, while sequences of 4 to Q still make sambas."""
        got = found(evolved("samba", wilds={"ranks": ("2", "JK", "K")}))
        assert "includes Ks" in got["C050"][0].message
        assert "C051" not in got and "C049" not in got

    def test_broken_window_too_short_for_a_samba(self) -> None:
        """A wild 9 leaves stretches of five and five ranks: no seven-card samba (C051)."""
        got = found(evolved("samba", wilds={"ranks": ("2", "JK", "9")}))
        assert "longest stretch of the window 4 to A holds 5" in got["C051"][0].message

    @pytest.mark.parametrize(
        ("size", "penalty", "words"),
        [
            (3, 1000, "none is ever under 3"),
            (5, 0, "sequences.short_penalty is 0"),
            (0, 500, "sequences.short_size is 0"),
        ],
    )
    def test_short_penalty_idle(self, size: int, penalty: int, words: str) -> None:
        """A short-sequence penalty without a size, a size without a penalty, or a size no sequence is under."""
        got = found(evolved("samba", sequences={"short_size": size, "short_penalty": penalty}))
        assert words in got["C052"][0].message

    def test_short_penalty_brazilian_clean(self) -> None:
        """Brazilian's penalty (under five cards, 1000) on growing sequences is no finding."""
        v = evolved("samba", sequences={"short_size": 5, "short_penalty": 1000, "max_size": None})
        assert serious(check_variant(v)) == set()

    def test_canasta_tier_with_two_cards_drawn(self) -> None:
        """Hands grow before opening when two cards are drawn: a canasta tier is never flagged for hand size."""
        v = canasta.load_variant("samba")
        steps = (*v.opening.score_table[:-1], attrs.evolve(v.opening.score_table[-1], canasta="natural"))
        v = attrs.evolve(v, opening=attrs.evolve(v.opening, score_table=steps, pile_allowed=False))
        assert serious(check_variant(v)) == set()

    def test_canasta_tier_without_any_canasta(self) -> None:
        """A natural canasta tier where no natural canasta or sequence canasta exists."""
        v = evolved("classic", canastas={"size": 9}, going_out={"canastas": 0})
        steps = (*v.opening.score_table, canasta.variant.model.OpeningStep(150, 5000, "natural"))
        v = attrs.evolve(v, opening=attrs.evolve(v.opening, score_table=steps))
        got = found(v)
        assert got["C055"][0].paths == ("opening.score_table[4].canasta",)
        assert "none can ever be made" in got["C055"][0].message

    def test_written_sequence_options_are_dead(self, tmp_path: Path) -> None:
        """A file that writes sequence options at their defaults with sequences off gets C056 for each."""
        path = write(tmp_path, "house.yaml", "extends: classic\nsequences:\n  low: '4'\n  allowed: false\n")
        got = [f.diagnostic for f in check_profile(path)]
        assert [(d.code, d.path) for d in got] == [("C056", "sequences.low")]


class TestPlayouts:
    """check_variant(playouts=N): findings from simulated hands."""

    @pytest.mark.parametrize("name", BUNDLED)
    def test_bundled_clean(self, name: str) -> None:
        """Twenty simulated hands of each bundled profile (sixty of the two-hand Modern American)
        give no errors or warnings."""
        # a plain run plays half as many where that still shows every rule in play
        hands = 60 if name in SLOW_TO_GO_OUT else 20 if LONG else 10
        found = check_variant(canasta.load_variant(name), playouts=hands)
        assert serious(found) == set(), [d.format() for d in found]

    @pytest.mark.parametrize("name", ["samba", "bolivia"])
    def test_sequences_come_into_play(self, name: str) -> None:
        """The simulated players lay sequences up to a sequence canasta and go out (Bolivia: with an escalera)."""
        found = check_variant(canasta.load_variant(name), playouts=20)
        # (other rules, such as a black-3 meld when going out, may stay unseen in 20 hands)
        about = [d for d in found if d.code == "C043" or (d.code == "C044" and any(
            p.startswith(("sequences", "going_out")) for p in d.paths))]
        assert about == [], [d.format() for d in about]

    def test_deterministic(self) -> None:
        """The same seed gives the same findings."""
        v = canasta.load_variant("classic-3p")
        assert check_variant(v, playouts=6, seed=3) == check_variant(v, playouts=6, seed=3)

    def test_unused_rule_info(self) -> None:
        """A rule that never came into play is an info naming its option."""
        v = canasta.load_variant(BROKEN / "C044-a-rule-that-never-came-into-play.yaml")
        found = [d for d in check_variant(v, playouts=4) if d.code == "C044"]
        assert "threes.black_out_cards" in [d.path for d in found]
        assert all(d.severity == "info" for d in found)

    def test_crash_reported(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """An exception from the engine is an error naming the seed and the move."""
        real = GameState.apply

        def broken(self: GameState, move: object) -> GameState:
            if str(move) == "draw" and self.stock_size < 60:
                raise KeyError("boom")
            return real(self, move)  # type: ignore[arg-type]

        monkeypatch.setattr(GameState, "apply", broken)
        found = check_variant(canasta.load_variant("classic"), playouts=3, seed=7)
        assert [d.code for d in found] == ["C040"]
        assert found[0].severity == "error"
        assert "seed 7" in found[0].message and "'draw'" in found[0].message
        assert "KeyError" in found[0].message and "3 of 3 hands" in found[0].message

    def test_deal_refused_is_not_a_crash(self) -> None:
        """A deal the decks cannot hold: C001 alone, no C040 repeating it or asking for a report."""
        v = parse_variant({"extends": "classic", "name": "big", "deal": {"hand_size": 30}})
        found = check_variant(v, playouts=4)
        assert [d.code for d in found] == ["C001"]

    def test_deal_refused_unseen_by_static_checks(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A refused deal no static check saw is one C040 that blames the profile, not the engine."""

        def refuse(v: object, seed: int) -> GameState:
            raise CanastaError("the deal needs 200 cards but the decks hold 108")

        monkeypatch.setattr(playouts_module, "new_game", refuse)
        found = check_variant(canasta.load_variant("classic"), playouts=3, seed=5)
        assert [d.code for d in found] == ["C040"]
        assert found[0].message.startswith("no hand could be dealt: hand dealt with seed 5")
        assert "200 cards" in found[0].message and "(3 of 3 hands)" in found[0].message
        assert "report" not in found[0].hint and "CanastaError" not in found[0].message
        assert playouts_module.run_playouts(
            canasta.load_variant("classic"), 3, 5, static_errors=True
        ) == []

    def test_endless_hand_reported(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A hand still going after the move cap is an error."""
        monkeypatch.setattr(playouts_module, "MAX_MOVES_PER_HAND", 10)
        found = check_variant(canasta.load_variant("classic"), playouts=2)
        assert [d.code for d in found] == ["C041"]
        assert "after 10 moves" in found[0].message

    def test_dead_end_reported(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A position with no legal move is an error."""
        monkeypatch.setattr(GameState, "legal_moves", lambda self: [])
        found = check_variant(canasta.load_variant("classic"), playouts=1)
        assert [d.code for d in found] == ["C042"]
        assert "no legal move" in found[0].message

    def test_nobody_out_warning(self) -> None:
        """Hands that all end with the stock give a warning."""
        v = canasta.load_variant(BROKEN / "C043-nobody-went-out-in-any-simulated-hand.yaml")
        found = check_variant(v, playouts=6)
        assert serious(found) == {"C043"}


class TestCheckProfile:
    """check_profile(): loading, load failures and locations."""

    def test_location_of_own_option(self, tmp_path: Path) -> None:
        """A finding points at the option's line and column in the file."""
        path = write(
            tmp_path, "house.yaml",
            "# house rules\nextends: classic\ndeal:\n  upcard: true\n  hand_size: 30\n",
        )
        [finding] = check_profile(path)
        assert (finding.file, finding.line, finding.column) == (str(path), 5, 3)
        assert finding.format().startswith(f"{path}:5:3: error C001 deal.hand_size: ")

    def test_location_in_parent_file(self, tmp_path: Path) -> None:
        """An inherited option is reported for the profile, with the file that sets it."""
        write(tmp_path, "base.yaml", "extends: classic\ngame:\n  target: null\n")
        child = write(tmp_path, "child.yaml", "extends: base.yaml\nname: child\n")
        [finding] = check_profile(child)
        assert finding.diagnostic.code == "C010"
        assert (finding.file, finding.line, finding.column) == (str(child), None, None)
        assert finding.origin == f"{tmp_path / 'base.yaml'}:3:3"
        assert finding.format().startswith(f"{child}: error C010 game.target: ")
        # an error is the engine's refusal, whose words end with what to change: no hint
        assert finding.format().endswith(f"or game.rounds (set in {tmp_path / 'base.yaml'}:3:3)")

    def test_location_in_bundled_file(self) -> None:
        """A bundled name is reported under its file name; inherited options name the parent."""
        found = check_profile("hand-and-foot")
        [c031] = [f for f in found if f.diagnostic.code == "C031"]
        assert c031.file == "hand-and-foot.yaml"
        assert c031.line is not None and c031.column == 3 and c031.origin == ""
        found = check_profile("draw-two", playouts=2)
        assert found and all(f.file == "draw-two.yaml" for f in found)
        assert any(f.origin.startswith("classic.yaml:") for f in found)

    def test_falls_back_to_another_path(self, tmp_path: Path) -> None:
        """When the main option is not in the file, another option of the finding is used."""
        path = write(tmp_path, "solo.yaml", "players:\n  count: 3\n")
        [c026] = check_profile(path)
        assert c026.diagnostic.path == "players.partnerships"
        assert (c026.line, c026.column) == (2, 3)

    def test_default_value_has_no_line(self, tmp_path: Path) -> None:
        """An option left at its default is reported under the file without a line."""
        path = write(tmp_path, "plain.yaml", "name: plain\n")
        found = [f for f in check_profile(path, playouts=2) if f.diagnostic.code == "C044"]
        assert found
        assert all(f.file == str(path) and f.line is None for f in found)
        assert found[0].format().startswith(f"{path}: info C044 ")

    def test_bad_profile_is_c000(self, tmp_path: Path) -> None:
        """A profile that does not load is one C000 finding with the loader's location."""
        path = write(tmp_path, "house.yaml", "extends: classic\ndraw:\n  count: 9\n")
        [finding] = check_profile(path)
        assert finding.diagnostic.code == "C000"
        assert (finding.line, finding.column) == (3, 10)
        assert finding.diagnostic.path == "draw.count"
        assert "expected an integer from 1 to 3, got 9" in finding.diagnostic.message

    def test_every_load_problem_is_a_c000(self, tmp_path: Path) -> None:
        """A profile with three mistakes gives three C000 findings, each at its line and option."""
        text = "extends: classic\ndraw:\n  count: 9\nmelds: {max_wild: 2}\ndeal: {hand_size: x}\n"
        path = write(tmp_path, "house.yaml", text)
        findings = check_profile(path)
        assert [f.diagnostic.code for f in findings] == ["C000"] * 3
        assert [(f.line, f.diagnostic.path) for f in findings] == [
            (3, "draw.count"), (4, "melds.max_wild"), (5, "deal.hand_size")]

    def test_missing_file_is_c000(self, tmp_path: Path) -> None:
        """A missing file is a C000 finding without a line."""
        [finding] = check_profile(tmp_path / "nope.yaml")
        assert finding.diagnostic.code == "C000" and finding.line is None
        assert "file not found" in finding.diagnostic.message

    def test_unknown_name_is_c000(self) -> None:
        """An unknown bundled name is a C000 finding with a suggestion."""
        [finding] = check_profile("clasic")
        assert finding.diagnostic.code == "C000"
        assert "did you mean 'classic'" in finding.diagnostic.message

    def test_cycle_through_two_files(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A cycle of extends is C011 at the profile's own extends line."""
        monkeypatch.chdir(tmp_path)
        write(tmp_path, "a.yaml", "extends: b.yaml\n")
        write(tmp_path, "b.yaml", "name: b\nextends: a.yaml\n")
        [finding] = check_profile("a.yaml")
        assert finding.diagnostic.code == "C011"
        assert (finding.file, finding.line, finding.column) == ("a.yaml", 1, 1)
        assert "extends itself: a.yaml -> b.yaml -> a.yaml" in finding.diagnostic.message
        [finding] = check_profile("b.yaml")
        assert (finding.file, finding.line, finding.column) == ("b.yaml", 2, 1)
        write(tmp_path, "c.yaml", "extends: a.yaml\n")
        [finding] = check_profile("c.yaml")
        assert finding.diagnostic.code == "C011" and finding.line == 1
        assert "leads into a cycle of extends: c.yaml -> a.yaml -> b.yaml -> a.yaml" in (
            finding.diagnostic.message
        )

    def test_error_in_parent_points_at_parent(self, tmp_path: Path) -> None:
        """A load error in an extended file names that file as the origin."""
        write(tmp_path, "base.yaml", "extends: classic\nmelds:\n  max_wild: 2\n")
        child = write(tmp_path, "child.yaml", "extends: base.yaml\n")
        [finding] = check_profile(child)
        assert finding.diagnostic.code == "C000"
        assert finding.file == str(child) and finding.line is None
        assert finding.origin == f"{tmp_path / 'base.yaml'}:3:3"

    @pytest.mark.parametrize("name", BUNDLED)
    def test_bundled_clean(self, name: str) -> None:
        """Bundled profiles give no errors or warnings through check_profile too."""
        assert serious(check_profile(name)) == set()

    def test_finding_to_dict(self, tmp_path: Path) -> None:
        """Finding.to_dict() adds file, line, column and the kind's title."""
        path = write(tmp_path, "house.yaml", CHECKS["C007"].example)
        data = check_profile(path)[0].to_dict()
        assert data["file"] == str(path) and data["line"] == 3 and data["column"] == 3
        assert data["code"] == "C007" and data["title"] == CHECKS["C007"].title


class TestCli:
    """``canasta check``: exit codes, text and JSON output."""

    def run(self, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
        """Run ``canasta check ARGV`` and return (status, stdout, stderr)."""
        from canasta.cli import main

        status = main(["check", *argv])
        out, err = capsys.readouterr()
        return status, out, err

    @pytest.mark.long  # the same hands as TestPlayouts.test_bundled_clean, through the command
    def test_bundled_strict_with_playouts(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Every bundled profile passes --strict --playouts 20 (two-hand Modern American 60): exit 0."""
        for names, hands in (([n for n in BUNDLED if n not in SLOW_TO_GO_OUT], 20), (sorted(SLOW_TO_GO_OUT), 60)):
            status, out, _ = self.run(capsys, *names, "--strict", "--playouts", str(hands))
            assert status == 0, out
            for line in out.splitlines():
                assert LINE.match(line) and " info " in line, line

    def test_errors_exit_1(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """An error gives exit 1 and a compiler-like line."""
        path = write(tmp_path, "house.yaml", CHECKS["C007"].example)
        status, out, _ = self.run(capsys, str(path))
        assert status == 1
        m = LINE.match(out.splitlines()[0])
        assert m is not None
        assert (m["file"], m["line"], m["col"], m["sev"], m["code"], m["path"]) == (
            str(path), "3", "3", "error", "C007", "going_out.wild_canastas"
        )
        # the engine's refusal: why, then what to change
        assert m["msg"].endswith("; set melds.wild_melds: true, or going_out.wild_canastas: 0")

    def test_warning_exit_0_unless_strict(
        self, capsys: pytest.CaptureFixture[str], tmp_path: Path
    ) -> None:
        """Warnings alone give exit 0, and exit 1 under --strict."""
        path = write(tmp_path, "house.yaml", CHECKS["C028"].example)
        status, out, _ = self.run(capsys, str(path))
        assert status == 0 and " warning C028 draw.short_stock: " in out
        status, _, _ = self.run(capsys, "--strict", str(path))
        assert status == 1

    def test_load_failure_exit_1(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """A profile that does not load is a C000 line, not a traceback."""
        path = write(tmp_path, "house.yaml", "extends: house.yaml\n")
        status, out, err = self.run(capsys, str(path), "classic")
        assert status == 1
        assert out.startswith(f"{path}:1:1: error C011 extends: ")
        assert "Traceback" not in err
        path2 = write(tmp_path, "typo.yaml", "melds:\n  max_wild: 2\n")
        status, out, _ = self.run(capsys, str(path2))
        assert status == 1 and f"{path2}:2:3: error C000 melds.max_wild: " in out

    def test_json(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        """--format json prints a JSON list of findings."""
        path = write(tmp_path, "house.yaml", CHECKS["C010"].example)
        status, out, _ = self.run(capsys, "--format", "json", str(path), "hand-and-foot")
        assert status == 1
        data = json.loads(out)
        assert [(d["file"], d["code"], d["severity"]) for d in data] == [
            (str(path), "C010", "error"), ("hand-and-foot.yaml", "C031", "info"),
        ]
        assert data[0]["line"] == 3 and data[0]["path"] == "game.target"

    def test_json_clean(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A clean profile gives an empty JSON list and exit 0."""
        status, out, _ = self.run(capsys, "--format", "json", "classic")
        assert status == 0 and json.loads(out) == []

    @pytest.mark.parametrize(
        "argv",
        [[], ["classic", "--playouts", "-1"], ["classic", "--format", "xml"],
         ["classic", "--seed", "x"]],
    )
    def test_usage_errors(self, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
        """A wrong command line exits 2."""
        status, _, err = self.run(capsys, *argv)
        assert status == 2 and "usage: canasta check" in err

    def test_summary_on_stderr(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A summary line goes to stderr, so stdout holds only findings."""
        status, out, err = self.run(capsys, "hand-and-foot")
        assert status == 0
        assert out.count("\n") == 1 and "C031" in out
        assert "0 errors, 0 warnings, 1 info" in err
