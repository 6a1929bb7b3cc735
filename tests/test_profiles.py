"""Tests for canasta.variant.loading: bundled lookup, strict loading, extends, assumptions, dumping.

Error messages name the file exactly as the caller gave it. Most tests run in
a temporary working directory and pass bare file names, so the expected
messages read as a user sees them: ``house.yaml:3:3: melds.max_wild: …``.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import canasta
from budget import examples
from canasta.errors import CanastaError, VariantError
from canasta.variant import loading as profiles
from canasta.variant.convert import converter, dump_variant, variant_to_dict
from canasta.variant.loading import (
    MAX_FILE_BYTES,
    load_variant,
    variant_from_dict,
    variant_names,
)
from canasta.variant.model import (
    AREAS,
    Assumption,
    DrawRules,
    OpeningStep,
    PileRules,
    Source,
    Variant,
    option_paths,
    validate_variant,
)
from strategies import variants

BUNDLED = [
    "bolivia", "brazilian", "classic", "classic-2p", "classic-3p", "classic-6p", "draw-two", "hand-and-foot",
    "hand-and-foot-pagat", "modern-american", "modern-american-2p", "samba", "uruguayan",
]
RANK_LIST = "'2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', 'JK'"
NAMES = "bolivia, brazilian, classic, classic-2p, classic-3p, classic-6p, draw-two, hand-and-foot, hand-and-foot-pagat, modern-american, modern-american-2p, samba, uruguayan"


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test in an empty working directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(name: str, text: str) -> str:
    """Write ``text`` to ``name`` (relative to the working directory) and return ``name``."""
    path = Path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return name


def load_error(text: str, name: str = "house.yaml") -> str:
    """The message of the VariantError raised when loading ``text`` from file ``name``."""
    write(name, text)
    with pytest.raises(VariantError) as info:
        load_variant(name)
    return str(info.value)


# --------------------------------------------------------------------------- variant_names


class TestVariantNames:
    def test_lists_the_bundled_profiles_sorted(self) -> None:
        """The eight bundled profiles are listed, sorted, without schema.json."""
        assert variant_names() == BUNDLED

    def test_exported_from_the_package(self) -> None:
        """canasta.variant_names is the same function."""
        assert canasta.variant_names is variant_names
        assert "variant_names" in canasta.__all__

    def test_every_name_loads(self) -> None:
        """Every listed name loads under that name."""
        for name in variant_names():
            assert load_variant(name).name == name


class TestModuleLayout:
    def test_names_other_packages_import_from_loading(self) -> None:
        """canasta.variant.loading keeps re-exporting what io/ and check/ import from it."""
        from canasta.variant import convert, model, yaml_guard

        assert profiles.converter is convert.converter
        assert profiles.dump_variant is convert.dump_variant
        assert profiles.variant_to_dict is convert.variant_to_dict
        assert profiles.option_paths is model.option_paths
        assert profiles.GuardedLoader is yaml_guard.GuardedLoader
        assert profiles.LoaderRefusal is yaml_guard.LoaderRefusal
        assert profiles.MAX_NESTING == yaml_guard.MAX_NESTING == 20
        for name in ("bundled_file", "is_bundled_name", "MAX_EXTENDS", "MAX_FILE_BYTES"):
            assert name in profiles.__all__

    def test_package_exports(self) -> None:
        """canasta.variant re-exports the public names of its modules, sorted."""
        import canasta.variant as package

        assert package.__all__ == sorted(package.__all__)
        assert package.validate_variant is validate_variant
        assert package.dump_variant is dump_variant
        assert package.variant_to_dict is variant_to_dict
        assert package.load_variant is load_variant


# --------------------------------------------------------------------------- bundled profiles


class TestLoadVariantBundled:
    @pytest.mark.parametrize("name", BUNDLED)
    def test_loads(self, name: str) -> None:
        """Each bundled profile loads to a Variant named after it."""
        variant = load_variant(name)
        assert isinstance(variant, Variant)
        assert variant.name == name
        assert variant.title

    def test_exported_from_the_package(self) -> None:
        """canasta.load_variant is the same function."""
        assert canasta.load_variant is load_variant
        assert "load_variant" in canasta.__all__

    def test_classic_matches_rules(self) -> None:
        """Classic: 108 cards, 11 each, the Pagat opening table, 500/300 canastas, 800 red 3s."""
        v = load_variant("classic")
        assert (v.players.count, v.players.partnerships) == (4, True)
        assert (v.deck.decks, v.deck.jokers_per_deck, v.deal.hand_size) == (2, 2, 11)
        assert v.opening.score_table == (
            OpeningStep(minimum=15, from_score=None),
            OpeningStep(minimum=50, from_score=0),
            OpeningStep(minimum=90, from_score=1500),
            OpeningStep(minimum=120, from_score=3000),
        )
        minimums = [v.opening_minimum(s, 0) for s in (-5, 0, 1495, 1500, 2995, 3000, 9000)]
        assert minimums == [15, 50, 50, 90, 90, 120, 120]
        assert (v.melds.min_naturals, v.melds.max_wilds, v.melds.max_size) == (2, 3, None)
        assert (v.canastas.natural_bonus, v.canastas.mixed_bonus) == (500, 300)
        assert (v.threes.red_bonus, v.threes.red_all_bonus) == (100, 800)
        assert (v.scoring.going_out_bonus, v.scoring.concealed_bonus) == (100, 200)
        assert (v.values.joker, v.values.two, v.values.ace, v.values.king) == (50, 20, 20, 10)
        assert (v.values.seven, v.values.black_three) == (5, 5)
        assert v.wilds.ranks == ("2", "JK")
        assert v.pile.take_natural_and_wild is False
        assert v.game.target == 5000

    def test_classic_marks_pagat_values_assumed(self) -> None:
        """Classic marks the values the text leaves open as assumed, with their source."""
        v = load_variant("classic")
        assert v.is_assumed("deck.decks")
        assert v.is_assumed("opening.score_table")
        assert not v.is_assumed("melds.max_wilds")
        assert [a.path for a in v.assumed] == sorted(a.path for a in v.assumed)

    def test_draw_two_matches_rules(self) -> None:
        """Draw-two: draw 2, no lay-off pickup onto a completed canasta rank, red 3s need one."""
        v = load_variant("draw-two")
        assert v.draw.count == 2
        assert v.draw.short_stock == "end_hand"
        assert v.pile.lay_off_after_canasta is False
        assert set(v.pile.stop_cards) == {"black_three", "wild"}
        assert v.threes.red_minus_without_canasta is True
        assert v.game.tie == "play_another"
        assert v.opening == load_variant("classic").opening

    def test_hand_and_foot_matches_rules(self) -> None:
        """Hand and Foot: 5 decks, 11 + 11 cards, melds of at most 7, three canastas out."""
        v = load_variant("hand-and-foot")
        assert (v.deck.decks, v.deal.hand_size, v.deal.foot_size) == (5, 11, 11)
        assert v.melds.max_size == 7
        assert v.melds.max_wilds == 2
        assert v.melds.wild_melds is True
        assert v.opening.by == "round"
        assert v.opening.round_table == (50, 90, 120, 150)
        assert [v.opening_minimum(0, r) for r in range(5)] == [50, 90, 120, 150, 150]
        going_out = v.going_out
        assert (going_out.natural_canastas, going_out.mixed_canastas) == (1, 1)
        assert going_out.wild_canastas == 1
        assert (v.threes.black_out_cards, v.threes.black_out_bonus) == (7, 1500)
        assert v.canastas.wild_bonus == 1500
        assert (v.game.target, v.game.rounds) == (None, 4)

    def test_two_and_three_player_classic(self) -> None:
        """Classic for two and three: no partnerships, 15 and 13 cards, rest as classic."""
        two, three = load_variant("classic-2p"), load_variant("classic-3p")
        assert (two.players.count, two.deal.hand_size, two.going_out.canastas) == (2, 15, 2)
        assert (three.players.count, three.deal.hand_size) == (3, 13)
        assert not two.players.partnerships and not three.players.partnerships
        assert two.melds == three.melds == load_variant("classic").melds

    def test_path_and_name_agree(self) -> None:
        """Loading the bundled file by path gives the same variant as by name."""
        path = profiles._bundled_dir() / "classic.yaml"
        assert load_variant(path) == load_variant(str(path)) == load_variant("classic")

    def test_unknown_name_suggests(self) -> None:
        """An unknown bundled name says which name was meant and lists them all."""
        with pytest.raises(VariantError) as info:
            load_variant("clasic")
        assert str(info.value) == (
            f"unknown variant 'clasic'; did you mean 'classic'? (bundled variants: {NAMES})"
        )

    def test_unknown_name_without_suggestion(self) -> None:
        """With nothing close, only the list of names is given."""
        with pytest.raises(VariantError) as info:
            load_variant("zzz")
        assert str(info.value) == f"unknown variant 'zzz' (bundled variants: {NAMES})"

    def test_bundled_errors_show_the_bundled_file_name(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """An error inside a bundled profile names the bundled file, not a full path."""
        (tmp_path / "broken.yaml").write_text("draw:\n  count: 9\n", encoding="utf-8")
        monkeypatch.setattr(profiles, "_bundled_dir", lambda: tmp_path)
        with pytest.raises(VariantError) as info:
            load_variant("broken")
        assert (
            str(info.value)
            == "broken.yaml:2:10: draw.count: expected an integer from 1 to 3, got 9"
        )


# --------------------------------------------------------------------------- extends


class TestExtends:
    def test_bundled_name_writes_only_differences(self, in_tmp: Path) -> None:
        """A profile extending 'classic' differs from it only where it says so."""
        write("house.yaml", "extends: classic\ndraw:\n  count: 2\n")
        classic = load_variant("classic")
        # A changed rule: classic's description and source are not inherited (issue 16).
        expected = attrs.evolve(
            classic, name="house", draw=DrawRules(count=2), description="", source=Source(),
            title="Classic partnership Canasta (house rules)",
        )
        assert load_variant("house.yaml") == expected

    def test_relative_path_from_the_extending_file(self, in_tmp: Path) -> None:
        """A relative extends path is taken from the extending file's directory."""
        write("rules/base.yaml", "name: base\nmelds:\n  max_wilds: 2\n")
        write("rules/house/child.yaml", "extends: ../base.yaml\nmelds:\n  min_size: 4\n")
        v = load_variant("rules/house/child.yaml")
        assert (v.melds.max_wilds, v.melds.min_size) == (2, 4)
        assert v.name == "child"

    def test_chain_of_three(self, in_tmp: Path) -> None:
        """A extends B extends classic: all three layers apply, nearest wins."""
        write("b.yaml", "extends: classic\ndeal: {hand_size: 13}\ngame: {target: 7500}\n")
        write("a.yaml", "extends: b.yaml\ngame: {target: 10000}\n")
        v = load_variant("a.yaml")
        assert (v.deal.hand_size, v.game.target) == (13, 10000)
        assert v.deck == load_variant("classic").deck

    def test_lists_replace_whole(self, in_tmp: Path) -> None:
        """A list in the child replaces the parent's list, it is not merged."""
        write("house.yaml", "extends: classic\npile: {stop_cards: [black_three]}\n")
        assert load_variant("house.yaml").pile.stop_cards == ("black_three",)

    def test_mappings_merge_deeply(self, in_tmp: Path) -> None:
        """Setting one option of an area keeps the parent's other options of that area."""
        write("house.yaml", "extends: hand-and-foot\npile: {take_lay_off: true}\n")
        pile = load_variant("house.yaml").pile
        assert pile == attrs.evolve(load_variant("hand-and-foot").pile, take_lay_off=True)

    def test_name_is_the_childs_own(self, in_tmp: Path) -> None:
        """A child without name is named after its file, not after its parent."""
        write("my-house.yml", "extends: classic\n")
        assert load_variant("my-house.yml").name == "my-house"
        write("named.yaml", "extends: classic\nname: friday\n")
        assert load_variant("named.yaml").name == "friday"

    def test_without_extends_starts_from_defaults(self, in_tmp: Path) -> None:
        """A profile with no extends starts from the model defaults."""
        write("plain.yaml", "draw: {count: 3}\n")
        assert load_variant("plain.yaml") == Variant(name="plain", draw=DrawRules(count=3))

    def test_cycle_is_refused(self, in_tmp: Path) -> None:
        """a.yaml -> b.yaml -> a.yaml is refused, naming the chain."""
        write("a.yaml", "extends: b.yaml\n")
        write("b.yaml", "\nextends: a.yaml\n")
        with pytest.raises(VariantError) as info:
            load_variant("a.yaml")
        assert (
            str(info.value) == "b.yaml:2:10: extends: cycle of extends: a.yaml -> b.yaml -> a.yaml"
        )

    def test_self_extension_is_refused(self, in_tmp: Path) -> None:
        """A profile extending itself is a cycle too."""
        assert load_error("extends: ./house.yaml\n") == (
            "house.yaml:1:10: extends: cycle of extends: house.yaml -> house.yaml"
        )

    def test_depth_limit(self, in_tmp: Path) -> None:
        """More than 16 levels of extends are refused."""
        for i in range(20):
            write(f"p{i}.yaml", f"extends: p{i + 1}.yaml\n")
        write("p20.yaml", "draw: {count: 2}\n")
        with pytest.raises(VariantError) as info:
            load_variant("p0.yaml")
        assert str(info.value) == "p16.yaml:1:10: extends: more than 16 levels of extends"
        assert load_variant("p4.yaml").draw.count == 2  # 16 levels: allowed

    def test_unknown_bundled_name(self, in_tmp: Path) -> None:
        """extends of an unknown name points at the extends value and suggests."""
        assert load_error("extends: clasic\n") == (
            "house.yaml:1:10: extends: unknown variant 'clasic'; did you mean 'classic'?"
            f" (bundled variants: {NAMES})"
        )

    def test_missing_file(self, in_tmp: Path) -> None:
        """extends of a missing file points at the extends value."""
        assert load_error("extends: base.yaml\n") == (
            "house.yaml:1:10: extends: file not found: base.yaml"
        )

    def test_impossible_path(self, in_tmp: Path) -> None:
        """A path no file system accepts (a NUL character) is a VariantError too."""
        assert load_error('extends: "a\\0b.yaml"\n') == (
            "house.yaml:1:10: extends: expected text without control characters, got '\\x00' at character 2"
        )

    def test_directory(self, in_tmp: Path) -> None:
        """extends of a directory names the directory."""
        Path("base.yaml").mkdir()
        assert load_error("extends: base.yaml\n") == "base.yaml: not a regular file"

    def test_not_a_string(self, in_tmp: Path) -> None:
        """extends must be a name or path."""
        assert load_error("extends: [classic]\n") == (
            "house.yaml:1:10: extends: expected a bundled variant name or a path to a YAML file,"
            " got a list"
        )

    def test_error_in_extended_file_names_that_file(self, in_tmp: Path) -> None:
        """An error inside the extended file is reported at that file's line."""
        write("base/base.yaml", "melds:\n  max_wilds: -1\n")
        assert load_error("extends: base/base.yaml\n") == (
            "base/base.yaml:2:14: melds.max_wilds: expected an integer from 0 to 672, got -1"
        )

    def test_extends_in_data(self) -> None:
        """variant_from_dict accepts extends of a bundled name."""
        v = variant_from_dict({"extends": "draw-two", "name": "x", "draw": {"count": 3}})
        assert v == attrs.evolve(
            load_variant("draw-two"), name="x", draw=DrawRules(3, "end_hand"),
            title="Draw-two partnership Canasta (x)", description="", source=Source(),
        )


# --------------------------------------------------------------------------- assumptions


class TestAssumptions:
    def test_inherited(self, in_tmp: Path) -> None:
        """A child that sets nothing keeps all of its parent's assumptions."""
        write("house.yaml", "extends: classic\n")
        assert load_variant("house.yaml").assumed == load_variant("classic").assumed

    def test_dropped_when_the_child_sets_the_option(self, in_tmp: Path) -> None:
        """An option the child sets is no longer assumed; the others stay."""
        write("house.yaml", "extends: classic\ndeal:\n  hand_size: 13\n")
        paths = {a.path for a in load_variant("house.yaml").assumed}
        classic = {a.path for a in load_variant("classic").assumed}
        assert paths == classic - {"deal.hand_size"}

    def test_dropped_when_the_child_sets_an_option_of_an_assumed_area(self, in_tmp: Path) -> None:
        """Parent assumed the whole area 'deck'; the child sets deck.decks: 'deck' is dropped."""
        write("house.yaml", "extends: classic\ndeck:\n  decks: 3\n")
        paths = {a.path for a in load_variant("house.yaml").assumed}
        assert "deck" not in paths
        assert "deal.hand_size" in paths

    def test_dropped_when_the_child_sets_a_list_option(self, in_tmp: Path) -> None:
        """A list option set by the child (a whole opening table) is its own rule."""
        write("house.yaml", "extends: classic\nopening:\n  score_table: [{minimum: 50}]\n")
        assert not load_variant("house.yaml").is_assumed("opening.score_table")

    def test_kept_when_marked_again(self, in_tmp: Path) -> None:
        """A child that sets an option and marks it assumed again keeps it, with its source."""
        write(
            "house.yaml",
            "extends: classic\ndeal: {hand_size: 13}\nassumed:\n  deal.hand_size: our club\n",
        )
        assumed = dict((a.path, a.source) for a in load_variant("house.yaml").assumed)
        assert assumed["deal.hand_size"] == "our club"

    def test_own_assumptions_added_and_sorted(self, in_tmp: Path) -> None:
        """The child's assumptions join the inherited ones; all sorted by path."""
        write("house.yaml", "extends: classic\nassumed:\n  pile: our club\n  draw.count: x\n")
        v = load_variant("house.yaml")
        assert Assumption("pile", "our club") in v.assumed
        assert Assumption("draw.count", "x") in v.assumed
        assert list(v.assumed) == sorted(v.assumed, key=lambda a: a.path)

    def test_a_grandchild_sees_the_dropping(self, in_tmp: Path) -> None:
        """What a middle profile dropped stays dropped for its children."""
        write("mid.yaml", "extends: classic\ndeal: {hand_size: 13}\n")
        write("house.yaml", "extends: mid.yaml\n")
        assert not load_variant("house.yaml").is_assumed("deal.hand_size")

    def test_unknown_path(self, in_tmp: Path) -> None:
        """An assumption must name a real option or area; a close one is suggested."""
        assert load_error("assumed:\n  deck.deckz: Pagat\n") == (
            "house.yaml:2:3: assumed.deck.deckz: unknown option or area; did you mean 'deck.decks'?"
        )

    def test_source_must_be_text(self, in_tmp: Path) -> None:
        """The source of an assumption is non-empty text."""
        assert load_error("assumed:\n  deck: 5\n") == (
            "house.yaml:2:9: assumed.deck: expected a string naming where the value comes from,"
            " got 5"
        )

    def test_must_be_a_mapping(self, in_tmp: Path) -> None:
        """assumed is a mapping of paths to sources, not a list."""
        assert load_error("assumed: [deck]\n") == (
            "house.yaml:1:10: assumed: expected a mapping of option paths to sources, got a list"
        )

    def test_option_paths(self) -> None:
        """option_paths lists each area, then its options."""
        paths = option_paths()
        assert paths[:3] == ["players", "players.count", "players.partnerships"]
        assert {p.split(".")[0] for p in paths} == {name for name, _ in AREAS}
        assert "source" not in paths


# --------------------------------------------------------------------------- strict loading


class TestLoadVariantErrors:
    """Each kind of mistake, with its exact message."""

    def test_unknown_option_suggests(self, in_tmp: Path) -> None:
        """An unknown key points at the key and suggests the close one."""
        assert load_error("extends: classic\nmelds:\n  max_wild: 2\n") == (
            "house.yaml:3:3: melds.max_wild: unknown option; did you mean 'max_wilds'?"
        )

    def test_unknown_option_lists_choices(self, in_tmp: Path) -> None:
        """With nothing close, the options of the area are listed."""
        assert load_error("draw:\n  colour: red\n") == (
            "house.yaml:2:3: draw.colour: unknown option; expected one of 'count', 'short_stock'"
        )

    def test_unknown_area(self, in_tmp: Path) -> None:
        """An unknown top-level key suggests the area."""
        assert load_error("meld:\n  max_wilds: 2\n") == (
            "house.yaml:1:1: meld: unknown option; did you mean 'melds'?"
        )

    def test_unknown_option_in_list_item(self, in_tmp: Path) -> None:
        """Keys inside list items are checked too, with the item index in the path."""
        text = "opening:\n  score_table:\n    - {minimum: 15}\n    - {minimun: 50}\n"
        assert load_error(text) == (
            "house.yaml:4:8: opening.score_table[1].minimun: unknown option;"
            " did you mean 'minimum'?"
        )

    def test_text_for_an_integer(self, in_tmp: Path) -> None:
        """The canonical example: the position is that of the value."""
        text = "\n" * 10 + "melds:\n    max_wilds: two\n"
        assert load_error(text) == (
            "house.yaml:12:16: melds.max_wilds: expected an integer from 0 to 672, got 'two'"
        )

    def test_true_is_not_an_integer(self, in_tmp: Path) -> None:
        """YAML true is a boolean, not the integer 1."""
        assert load_error("players:\n  count: true\n") == (
            "house.yaml:2:10: players.count: expected an integer from 2 to 8, got true"
        )

    def test_integer_is_not_a_boolean(self, in_tmp: Path) -> None:
        """1 is not true."""
        assert load_error("pile:\n  take_lay_off: 1\n") == (
            "house.yaml:2:17: pile.take_lay_off: expected true or false, got 1"
        )

    def test_float_is_not_an_integer(self, in_tmp: Path) -> None:
        """2.0 is not accepted for an integer option."""
        assert load_error("draw: {count: 2.0}\n") == (
            "house.yaml:1:15: draw.count: expected an integer from 1 to 3, got 2.0"
        )

    def test_number_is_not_a_string(self, in_tmp: Path) -> None:
        """A text option needs text."""
        assert load_error("title: 5\n") == "house.yaml:1:8: title: expected a string, got 5"

    def test_above_maximum(self, in_tmp: Path) -> None:
        """A value above the field's maximum is refused with the range."""
        assert load_error("players:\n  count: 9\n") == (
            "house.yaml:2:10: players.count: expected an integer from 2 to 8, got 9"
        )

    def test_below_minimum(self, in_tmp: Path) -> None:
        """A value below the field's minimum is refused."""
        assert load_error("melds:\n  min_size: 0\n") == (
            "house.yaml:2:13: melds.min_size: expected an integer from 1 to 100, got 0"
        )

    def test_optional_below_minimum(self, in_tmp: Path) -> None:
        """An option that may be null says so."""
        assert load_error("melds:\n  max_size: 0\n") == (
            "house.yaml:2:13: melds.max_size: expected an integer from 1 to 672 or null, got 0"
        )

    def test_null_where_allowed(self, in_tmp: Path) -> None:
        """null is accepted where the option is optional."""
        write("house.yaml", "extends: hand-and-foot\nmelds:\n  max_size: ~\n")
        assert load_variant("house.yaml").melds.max_size is None

    def test_null_where_not_allowed(self, in_tmp: Path) -> None:
        """null is refused for a required option."""
        assert load_error("melds:\n  max_wilds: null\n") == (
            "house.yaml:2:14: melds.max_wilds: expected an integer from 0 to 672, got null"
        )

    def test_empty_value_is_null(self, in_tmp: Path) -> None:
        """A key with no value is null, which a required option refuses."""
        assert load_error("draw:\n  count:\n") == (
            "house.yaml:2:9: draw.count: expected an integer from 1 to 3, got null"
        )

    def test_bad_literal(self, in_tmp: Path) -> None:
        """A choice option lists its choices."""
        assert load_error("melds:\n  second_wild: sometimes\n") == (
            "house.yaml:2:16: melds.second_wild: expected one of 'always', 'by_size',"
            " 'by_naturals', got 'sometimes'"
        )

    def test_bad_literal_in_list(self, in_tmp: Path) -> None:
        """A list of card classes checks each item."""
        assert load_error("pile:\n  stop_cards: [wild, red]\n") == (
            "house.yaml:2:22: pile.stop_cards[1]: expected one of 'wild', 'red_three',"
            " 'black_three', 'natural', got 'red'"
        )

    def test_repeated_list_item(self, in_tmp: Path) -> None:
        """A card class listed twice is a mistake."""
        assert load_error("pile:\n  stop_cards: [wild, wild]\n") == (
            "house.yaml:2:22: pile.stop_cards[1]: expected each value once, got 'wild' again"
            " (first at pile.stop_cards[0])"
        )

    def test_list_for_a_mapping(self, in_tmp: Path) -> None:
        """An area must be a mapping."""
        assert load_error("deal:\n  - 11\n") == (
            "house.yaml:2:3: deal: expected a mapping, got a list"
        )

    def test_mapping_for_a_list(self, in_tmp: Path) -> None:
        """A list option must be a list."""
        assert load_error("pile:\n  stop_cards: {wild: true}\n") == (
            "house.yaml:2:15: pile.stop_cards: expected a list, got a mapping"
        )

    def test_scalar_for_a_mapping(self, in_tmp: Path) -> None:
        """An area given as a scalar is refused."""
        assert load_error("deal: 11\n") == "house.yaml:1:7: deal: expected a mapping, got 11"

    def test_bad_wild_rank(self, in_tmp: Path) -> None:
        """Wild ranks are checked with parse_rank."""
        assert load_error("wilds:\n  ranks: ['2', Z]\n") == (
            f"house.yaml:2:16: wilds.ranks[1]: expected a rank, one of {RANK_LIST}, got 'Z'"
        )

    def test_unquoted_number_rank(self, in_tmp: Path) -> None:
        """An unquoted 2 or 10 (a YAML integer) is read as that rank, as people write it."""
        write("house.yaml", "wilds: {ranks: [2, JK]}\ncanastas:\n  rank_bonuses: [{rank: 10, bonus: 900}]\n")
        v = load_variant("house.yaml")
        assert v.wilds.ranks == ("2", "JK")
        assert v.canastas.rank_bonuses[0].rank == "10"
        quoted = load_variant(write("quoted.yaml", "wilds: {ranks: ['2', JK]}\n"
                                    "canastas:\n  rank_bonuses: [{rank: '10', bonus: 900}]\n"))
        assert (v.wilds, v.canastas) == (quoted.wilds, quoted.canastas)
        assert v.canastas != Variant().canastas

    def test_unquoted_number_that_is_no_rank(self, in_tmp: Path) -> None:
        """An integer that is no rank (11, 1) is refused with the list of ranks; true is no rank."""
        assert load_error("wilds:\n  ranks: [11]\n") == (
            f"house.yaml:2:11: wilds.ranks[0]: expected a rank, one of {RANK_LIST}, got 11"
        )
        assert "got true" in load_error("wilds:\n  ranks: [true]\n")

    def test_unquoted_and_quoted_rank_are_one_rank(self, in_tmp: Path) -> None:
        """[2, '2'] names one rank twice."""
        assert "wilds.ranks[1]: expected each value once" in load_error("wilds:\n  ranks: [2, '2']\n")

    def test_ranks_stored_canonically(self, in_tmp: Path) -> None:
        """Rank spellings are stored canonically: t -> 10, joker -> JK."""
        write("house.yaml", "wilds:\n  ranks: [t, joker, ' k ']\n")
        assert load_variant("house.yaml").wilds.ranks == ("10", "JK", "K")

    def test_same_rank_twice(self, in_tmp: Path) -> None:
        """Two spellings of one rank are a repeat."""
        assert load_error("wilds:\n  ranks: [T, '10']\n") == (
            "house.yaml:2:14: wilds.ranks[1]: expected each value once, got '10' again"
            " (first at wilds.ranks[0])"
        )

    def test_bad_rank_bonus_rank(self, in_tmp: Path) -> None:
        """A rank bonus's rank is checked too."""
        text = "canastas:\n  rank_bonuses:\n    - {rank: X, kind: natural, bonus: 2500}\n"
        assert load_error(text) == (
            "house.yaml:3:14: canastas.rank_bonuses[0].rank: expected a rank, one of"
            f" {RANK_LIST}, got 'X'"
        )

    def test_rank_bonus_loads(self, in_tmp: Path) -> None:
        """A valid rank bonus is stored with its canonical rank."""
        write("house.yaml", "canastas:\n  rank_bonuses: [{rank: a, kind: natural, bonus: 2500}]\n")
        (bonus,) = load_variant("house.yaml").canastas.rank_bonuses
        assert (bonus.rank, bonus.kind, bonus.bonus) == ("A", "natural", 2500)

    def test_duplicate_key(self, in_tmp: Path) -> None:
        """A key set twice in one mapping is refused at the second one."""
        assert load_error("melds:\n  max_wilds: 1\n  max_wilds: 2\n") == (
            "house.yaml:3:3: melds.max_wilds: duplicate option, already set at line 2"
        )

    def test_non_string_key(self, in_tmp: Path) -> None:
        """Option names are text."""
        assert load_error("melds:\n  3: 1\n") == (
            "house.yaml:2:3: melds: expected an option name, got 3"
        )

    def test_empty_name(self, in_tmp: Path) -> None:
        """The name may not be empty."""
        assert load_error("name: ''\n") == (
            "house.yaml:1:7: name: expected a non-empty string, got ''"
        )

    def test_long_values_are_shortened(self, in_tmp: Path) -> None:
        """A huge bad value is quoted shortened, not in full."""
        message = load_error(f"draw: {{count: {'x' * 5000}}}\n")
        assert message == (
            "house.yaml:1:15: draw.count: expected an integer from 1 to 3, got '" + "x" * 56 + "..."
        )


class TestLoadVariantFileErrors:
    """Errors about the file itself, with exact messages."""

    def test_not_found(self, in_tmp: Path) -> None:
        """A missing file."""
        with pytest.raises(VariantError) as info:
            load_variant("nope.yaml")
        assert str(info.value) == "nope.yaml: file not found"

    def test_path_as_given(self, tmp_path: Path) -> None:
        """The message shows the path exactly as the caller gave it."""
        path = tmp_path / "nope.yaml"
        with pytest.raises(VariantError) as info:
            load_variant(path)
        assert str(info.value) == f"{path}: file not found"

    def test_directory(self, in_tmp: Path) -> None:
        """A directory is not a profile."""
        Path("dir.yaml").mkdir()
        with pytest.raises(VariantError) as info:
            load_variant("dir.yaml")
        assert str(info.value) == "dir.yaml: not a regular file"

    def test_not_utf8(self, in_tmp: Path) -> None:
        """Bytes that are not UTF-8 are refused with their offset."""
        Path("house.yaml").write_bytes(b"title: caf\xe9\n")
        with pytest.raises(VariantError) as info:
            load_variant("house.yaml")
        assert str(info.value) == "house.yaml: not UTF-8 text (byte 0xe9 at offset 10)"

    def test_too_large(self, in_tmp: Path) -> None:
        """A file over 256 KiB is refused before it is read."""
        Path("house.yaml").write_text("#" * MAX_FILE_BYTES + "\n", encoding="utf-8")
        with pytest.raises(VariantError) as info:
            load_variant("house.yaml")
        assert str(info.value) == (
            "house.yaml: file is larger than 256 KiB (262144 bytes), the limit for a profile"
        )

    def test_size_is_checked_before_reading(
        self, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The size check does not open the file at all."""
        Path("house.yaml").write_text("#" * (MAX_FILE_BYTES + 1), encoding="utf-8")

        def refuse(*_args: Any, **_kwargs: Any) -> Any:
            raise AssertionError("the file was opened")

        monkeypatch.setattr(Path, "open", refuse)
        monkeypatch.setattr(os, "open", refuse)
        with pytest.raises(VariantError, match="larger than 256 KiB"):
            load_variant("house.yaml")

    def test_exactly_the_limit_is_allowed(self, in_tmp: Path) -> None:
        """A file of exactly 256 KiB is read."""
        body = "draw: {count: 2}\n"
        Path("house.yaml").write_text(body + "#" * (MAX_FILE_BYTES - len(body)), encoding="utf-8")
        assert load_variant("house.yaml").draw.count == 2

    def test_yaml_syntax_error(self, in_tmp: Path) -> None:
        """A YAML syntax error gives its line and column."""
        assert load_error("draw:\n  count: [1\n") == (
            "house.yaml:3:1: YAML syntax error: expected ',' or ']', but got '<stream end>'"
        )

    def test_bad_indentation(self, in_tmp: Path) -> None:
        """A mapping value in the wrong place is a syntax error."""
        assert load_error("draw:\n  count: 1\n   x: 2\n") == (
            "house.yaml:3:5: YAML syntax error: mapping values are not allowed here"
        )

    def test_control_character(self, in_tmp: Path) -> None:
        """Characters YAML does not allow are refused with their position."""
        assert load_error("title: a\x01b\n") == (
            "house.yaml:1:9: YAML syntax error: character U+0001 is not allowed"
        )

    def test_empty_file(self, in_tmp: Path) -> None:
        """An empty file is not a profile."""
        assert load_error("") == (
            "house.yaml:1:1: expected a mapping of options, got an empty document"
        )

    def test_only_comments(self, in_tmp: Path) -> None:
        """A file of comments is empty too."""
        assert load_error("# nothing\n") == (
            "house.yaml:1:1: expected a mapping of options, got an empty document"
        )

    def test_empty_explicit_document(self, in_tmp: Path) -> None:
        """A lone '---' is an empty document."""
        assert load_error("---\n") == (
            "house.yaml:2:1: expected a mapping of options, got an empty document"
        )

    def test_list_document(self, in_tmp: Path) -> None:
        """A document that is a list is refused."""
        assert load_error("- classic\n") == (
            "house.yaml:1:1: expected a mapping of options, got a list"
        )

    def test_scalar_document(self, in_tmp: Path) -> None:
        """A document that is a single word is refused."""
        assert load_error("classic\n") == (
            "house.yaml:1:1: expected a mapping of options, got a string"
        )

    def test_null_document(self, in_tmp: Path) -> None:
        """A document that is null is refused."""
        assert load_error("null\n") == "house.yaml:1:1: expected a mapping of options, got null"

    def test_two_documents(self, in_tmp: Path) -> None:
        """More than one document is refused at the second one."""
        assert load_error("draw: {count: 2}\n---\ndraw: {count: 1}\n") == (
            "house.yaml:2:1: expected a single document, found a second one"
        )

    def test_anchor(self, in_tmp: Path) -> None:
        """An anchor is refused at once."""
        assert load_error("draw: &d {count: 2}\n") == (
            "house.yaml:1:7: anchors and aliases are not allowed"
        )

    def test_alias(self, in_tmp: Path) -> None:
        """An alias (here with its anchor on a later line) is refused at the first of them."""
        assert load_error("title: hello\nname: *x\n") == (
            "house.yaml:2:7: anchors and aliases are not allowed"
        )

    def test_alias_bomb_is_refused_quickly(self, in_tmp: Path) -> None:
        """A billion-laughs document is refused without expanding anything."""
        lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 12)]
        started = time.monotonic()
        message = load_error("\n".join(lines) + "\n")
        assert message == "house.yaml:1:5: anchors and aliases are not allowed"
        assert time.monotonic() - started < 5

    def test_deep_nesting(self, in_tmp: Path) -> None:
        """Nesting deeper than 20 levels is refused."""
        assert load_error("a: " + "[" * 30 + "]" * 30 + "\n") == (
            "house.yaml:1:24: nesting deeper than 20 levels is not allowed"
        )

    def test_very_deep_nesting_does_not_recurse(self, in_tmp: Path) -> None:
        """100 000 open brackets end in a VariantError, not a RecursionError."""
        assert load_error("[" * 100_000) == (
            "house.yaml:1:21: nesting deeper than 20 levels is not allowed"
        )

    def test_custom_tag(self, in_tmp: Path) -> None:
        """A non-standard tag is refused with its key path."""
        assert load_error("draw:\n  count: !two 2\n") == (
            "house.yaml:2:10: draw.count: tag '!two' is not allowed"
        )

    def test_python_tag(self, in_tmp: Path) -> None:
        """PyYAML's python tags are refused and never constructed."""
        assert load_error("title: !!python/name:os.system ''\n") == (
            "house.yaml:1:8: title: tag '!!python/name:os.system' is not allowed"
        )

    def test_tagged_mapping(self, in_tmp: Path) -> None:
        """A tag on a mapping is refused."""
        assert load_error("draw: !!set {count}\n") == (
            "house.yaml:1:7: draw: tag '!!set' is not allowed on a mapping"
        )

    def test_standard_tag_with_wrong_text(self, in_tmp: Path) -> None:
        """A standard tag on text of another type is refused."""
        assert load_error("draw: {count: !!int two}\n") == (
            "house.yaml:1:15: draw.count: expected an integer after the tag, got 'two'"
        )

    def test_standard_tag_is_allowed(self, in_tmp: Path) -> None:
        """Standard tags such as !!str and !!int work as in any YAML."""
        write("house.yaml", "title: !!str 5\ndraw: {count: !!int '2'}\n")
        v = load_variant("house.yaml")
        assert (v.title, v.draw.count) == ("5", 2)

    def test_merge_key(self, in_tmp: Path) -> None:
        """YAML merge keys are refused (extends is the way to share options)."""
        assert load_error("draw:\n  <<: {count: 2}\n") == (
            "house.yaml:2:3: draw: merge keys ('<<') are not allowed"
        )


class TestVariantError:
    @pytest.mark.parametrize(
        "text",
        ["", "- 1\n", "x: 1\n", "draw: {count: 9}\n", "a: &b 1\n", "a: [\n", "a: 1\n---\n"],
    )
    def test_is_canasta_error_and_value_error(self, in_tmp: Path, text: str) -> None:
        """Every loading error is a VariantError, hence a CanastaError and a ValueError."""
        write("house.yaml", text)
        with pytest.raises(VariantError) as info:
            load_variant("house.yaml")
        assert isinstance(info.value, CanastaError)
        assert isinstance(info.value, ValueError)

    @settings(
        max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(text=st.text(st.characters(exclude_categories=["Cs"]), max_size=200))
    def test_random_text_never_leaks(self, in_tmp: Path, text: str) -> None:
        """Any text loads or raises VariantError; nothing else escapes."""
        write("fuzz.yaml", text)
        with contextlib.suppress(VariantError):
            load_variant("fuzz.yaml")

    @settings(
        max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(data=st.binary(max_size=200))
    def test_random_bytes_never_leak(self, in_tmp: Path, data: bytes) -> None:
        """Any bytes load or raise VariantError."""
        Path("fuzz.yaml").write_bytes(data)
        with contextlib.suppress(VariantError):
            load_variant("fuzz.yaml")

    @settings(max_examples=examples(300), deadline=None)
    @given(
        data=st.dictionaries(
            st.sampled_from(
                ["draw", "melds", "pile", "assumed", "name", "x", "opening", "extends"]
            ),
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                lambda inner: (
                    st.lists(inner, max_size=3)
                    | st.dictionaries(
                        st.sampled_from(
                            ["count", "max_wilds", "stop_cards", "score_table", "deck"]
                        ),
                        inner,
                        max_size=3,
                    )
                ),
                max_leaves=8,
            ),
        )
    )
    def test_random_data_never_leaks(self, data: dict[str, Any]) -> None:
        """Any data given to variant_from_dict builds a variant or raises VariantError."""
        with contextlib.suppress(VariantError):
            variant_from_dict(data)


# --------------------------------------------------------------------------- dicts and dumping


class TestVariantToDict:
    def test_assumed_is_a_mapping(self) -> None:
        """assumed is written as {path: source}, as in profiles."""
        data = variant_to_dict(load_variant("classic"))
        assert data["assumed"]["deck"] == "Pagat classic Canasta"
        assert "extends" not in data

    def test_every_option_written(self) -> None:
        """Every option of every area appears."""
        data = variant_to_dict(Variant())
        for path in option_paths():
            area, _, option = path.partition(".")
            assert area in data
            if option:
                assert option in data[area]

    def test_same_as_converter(self) -> None:
        """The module's converter gives the same data."""
        v = load_variant("hand-and-foot")
        assert converter.unstructure(v) == variant_to_dict(v)
        assert converter.structure(variant_to_dict(v), Variant) == v


class TestVariantFromDict:
    def test_round_trip_bundled(self) -> None:
        """variant_from_dict(variant_to_dict(v)) == v for every bundled profile."""
        for name in BUNDLED:
            v = load_variant(name)
            assert variant_from_dict(variant_to_dict(v)) == v

    def test_defaults(self) -> None:
        """Empty data is the model's defaults, named 'custom'."""
        assert variant_from_dict({}) == Variant()

    def test_errors_have_no_location(self) -> None:
        """Errors from data name the key path and expectation only."""
        with pytest.raises(VariantError) as info:
            variant_from_dict({"melds": {"max_wilds": "two"}})
        assert str(info.value) == "melds.max_wilds: expected an integer from 0 to 672, got 'two'"

    def test_not_a_mapping(self) -> None:
        """The data must be a mapping."""
        with pytest.raises(VariantError) as info:
            variant_from_dict(["draw"])  # type: ignore[arg-type]
        assert str(info.value) == "expected a mapping of options, got a list"

    def test_self_referencing_data(self) -> None:
        """A dict that contains itself is refused, not a RecursionError."""
        data: dict[str, Any] = {}
        data["draw"] = data
        with pytest.raises(VariantError, match="nesting deeper than 20 levels"):
            variant_from_dict(data)

    def test_tuples_accepted(self) -> None:
        """Tuples count as lists, as in the model."""
        v = variant_from_dict({"pile": {"stop_cards": ("wild",)}})
        assert v.pile == PileRules(stop_cards=("wild",))


class TestDumpVariant:
    @pytest.mark.parametrize("name", BUNDLED)
    def test_round_trip_bundled(self, in_tmp: Path, name: str) -> None:
        """dump -> file -> load gives an equal variant, for each bundled profile."""
        v = load_variant(name)
        write("dumped.yaml", dump_variant(v))
        assert load_variant("dumped.yaml") == v

    def test_no_extends_and_all_options(self) -> None:
        """The dump is self-contained: no extends, every area written."""
        text = dump_variant(load_variant("draw-two"))
        assert "extends" not in text
        for area, _ in AREAS:
            assert f"\n{area}:" in text

    @settings(
        max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(variant=variants())
    def test_round_trip_generated(self, in_tmp: Path, variant: Variant) -> None:
        """dump -> file -> load gives an equal variant for generated variants."""
        write("dumped.yaml", dump_variant(variant))
        assert load_variant("dumped.yaml") == variant

    @settings(max_examples=examples(100), deadline=None)
    @given(variant=variants())
    def test_dict_round_trip_generated(self, variant: Variant) -> None:
        """variant_from_dict(variant_to_dict(v)) == v for generated variants."""
        assert variant_from_dict(variant_to_dict(variant)) == variant


#: A profile with five mistakes of five kinds, each on its own line.
FIVE_MISTAKES = """\
extends: classic
name: kitchen
deal:
  hand_size: 0
draw: {count: 9}
melds:
  min_sise: 3
  max_wilds: two
pile:
  frozen_by_wild: maybe
colour: red
"""
#: What the loader says of each, in order.
FIVE_PROBLEMS = [
    "4:14: deal.hand_size: expected an integer from 1 to 30, got 0",
    "5:15: draw.count: expected an integer from 1 to 3, got 9",
    "7:3: melds.min_sise: unknown option; did you mean 'min_size'?",
    "8:14: melds.max_wilds: expected an integer from 0 to 672, got 'two'",
    "10:19: pile.frozen_by_wild: expected true or false, got 'maybe'",
    "11:1: colour: unknown option; expected one of 'name',",
]


class TestEveryProblemAtOnce:
    """A profile with several mistakes is refused with all of them, each at its place."""

    def test_five_mistakes_reported_in_one_run(self, in_tmp: Path) -> None:
        """Each mistake, on its own line of the file, is a line of the message with FILE:LINE:COL."""
        write("house.yaml", FIVE_MISTAKES)
        with pytest.raises(VariantError) as info:
            load_variant("house.yaml")
        lines = str(info.value).split("\n")
        assert len(lines) == len(FIVE_PROBLEMS)
        for line, problem in zip(lines, FIVE_PROBLEMS, strict=True):
            assert line.startswith("house.yaml:" + problem), line
        assert info.value.problems == tuple(lines)
        assert info.value.total == len(FIVE_PROBLEMS)

    def test_a_bad_value_does_not_hide_a_later_one_in_the_same_list(self, in_tmp: Path) -> None:
        """Every bad item of a list is reported, and a repeat after a bad item too."""
        message = load_error("wilds:\n  ranks: [Z, '2', Y, '2']\n")
        assert message.split("\n") == [
            f"house.yaml:2:11: wilds.ranks[0]: expected a rank, one of {RANK_LIST}, got 'Z'",
            f"house.yaml:2:19: wilds.ranks[2]: expected a rank, one of {RANK_LIST}, got 'Y'",
            "house.yaml:2:22: wilds.ranks[3]: expected each value once, got '2' again (first at wilds.ranks[1])",
        ]

    def test_yaml_level_problems_are_listed_with_the_rest(self, in_tmp: Path) -> None:
        """A duplicate key and a tag that is not allowed no longer hide the options after them."""
        message = load_error("draw:\n  count: 2\n  count: 3\ntitle: !!python/name:os.system x\ndeal: {hand_size: 99}\n")
        assert message.split("\n") == [
            "house.yaml:3:3: draw.count: duplicate option, already set at line 2",
            "house.yaml:4:8: title: tag '!!python/name:os.system' is not allowed",
            "house.yaml:5:19: deal.hand_size: expected an integer from 1 to 30, got 99",
        ]

    def test_one_problem_reads_as_before(self, in_tmp: Path) -> None:
        """A single mistake is the one-line message, with problems and total to match."""
        write("house.yaml", "draw:\n  count: 9\n")
        with pytest.raises(VariantError) as info:
            load_variant("house.yaml")
        assert str(info.value) == "house.yaml:2:10: draw.count: expected an integer from 1 to 3, got 9"
        assert info.value.problems == (str(info.value),) and info.value.total == 1

    def test_extends_problem_listed_with_the_files_own(self, in_tmp: Path) -> None:
        """A missing extended file is reported with the extending file's other mistakes."""
        message = load_error("extends: nowhere.yaml\ndraw: {count: 0}\n")
        assert message.split("\n") == [
            "house.yaml:2:15: draw.count: expected an integer from 1 to 3, got 0",
            "house.yaml:1:10: extends: file not found: nowhere.yaml",
        ]

    def test_capped_with_a_count_of_the_rest(self, in_tmp: Path) -> None:
        """Fifty mistakes: twenty are listed, then '... and 30 more problems'; the message stays short."""
        write("house.yaml", "customs:\n" + "".join(f"  - {i}\n" for i in range(50)))
        with pytest.raises(VariantError) as info:
            load_variant("house.yaml")
        lines = str(info.value).split("\n")
        assert lines[0] == "house.yaml:2:5: customs[0]: expected a string, got 0"
        assert lines[-1] == f"... and {50 - len(info.value.problems)} more problems"
        assert len(info.value.problems) <= 20 and len(lines) == len(info.value.problems) + 1
        assert info.value.total == 50
        assert len(str(info.value)) <= 1500

    def test_pickled_error_keeps_its_problems(self, in_tmp: Path) -> None:
        """The error crosses a process boundary (a worker's) with its problems."""
        import pickle

        write("house.yaml", FIVE_MISTAKES)
        with pytest.raises(VariantError) as info:
            load_variant("house.yaml")
        again = pickle.loads(pickle.dumps(info.value))
        assert (str(again), again.problems, again.total) == (
            str(info.value), info.value.problems, info.value.total)

    def test_data_lists_every_problem_too(self) -> None:
        """variant_from_dict lists every problem, by key path alone."""
        with pytest.raises(VariantError) as info:
            variant_from_dict({"draw": {"count": 0}, "deal": {"hand_size": "x"}, "nope": 1})
        assert info.value.problems[:2] == (
            "draw.count: expected an integer from 1 to 3, got 0",
            "deal.hand_size: expected an integer from 1 to 30, got 'x'",
        )
        assert info.value.problems[2].startswith("nope: unknown option; expected one of 'name',")
        assert len(info.value.problems) == 3


class TestParseVariant:
    """canasta.parse_variant: profile text or data, with a file's checks and messages."""

    TEXT = "extends: classic\nname: kitchen\ndraw: {count: 2}\nwilds: {ranks: [2, JK]}\n"

    def test_text_gives_the_variant_of_the_file(self, in_tmp: Path) -> None:
        """YAML text loads to the variant that the same text in a file loads to."""
        write("kitchen.yaml", self.TEXT)
        v = canasta.parse_variant(self.TEXT)
        assert v == load_variant("kitchen.yaml")
        assert v.draw.count == 2 and v.name == "kitchen"

    def test_mapping_gives_the_same_variant(self) -> None:
        """A mapping of the same options is the same variant."""
        data = {"extends": "classic", "name": "kitchen", "draw": {"count": 2}, "wilds": {"ranks": [2, "JK"]}}
        assert canasta.parse_variant(data) == canasta.parse_variant(self.TEXT)

    def test_unnamed_profile_is_custom(self) -> None:
        """Without a name: the variant is called 'custom' (a file is called by its name)."""
        assert canasta.parse_variant("draw: {count: 2}\n").name == "custom"
        assert canasta.parse_variant({}) == Variant()

    def test_messages_are_the_files_with_string_as_the_place(self, in_tmp: Path) -> None:
        """The five mistakes: the file's messages, '<string>' in place of the file name."""
        write("house.yaml", FIVE_MISTAKES)
        with pytest.raises(VariantError) as from_file:
            load_variant("house.yaml")
        with pytest.raises(VariantError) as from_text:
            canasta.parse_variant(FIVE_MISTAKES)
        expected = [p.replace("house.yaml:", "<string>:", 1) for p in from_file.value.problems]
        assert list(from_text.value.problems) == expected
        assert expected[0].startswith("<string>:4:14: deal.hand_size:")

    def test_mapping_messages_name_the_string_place_without_lines(self) -> None:
        """A mapping has no lines: '<string>: KEY.PATH: ...', every problem listed."""
        with pytest.raises(VariantError) as info:
            canasta.parse_variant({"draw": {"count": 9}, "pile": {"frozen_by_wild": "maybe"}})
        assert info.value.problems == (
            "<string>: draw.count: expected an integer from 1 to 3, got 9",
            "<string>: pile.frozen_by_wild: expected true or false, got 'maybe'",
        )

    def test_rules_across_options_name_the_place(self) -> None:
        """The model's check across options (mixes of wild cards) names '<string>' too."""
        with pytest.raises(VariantError, match=r"^<string>: melds.min_size: expected new melds small"):
            canasta.parse_variant("melds: {min_size: 100}\n")

    def test_not_yaml_and_not_a_profile(self) -> None:
        """Bad YAML, an empty text, a list and a number are refused with the place."""
        with pytest.raises(VariantError, match=r"^<string>:\d+:\d+: YAML syntax error"):
            canasta.parse_variant("draw: {count: 2\n")
        with pytest.raises(VariantError, match=r"^<string>:1:1: expected a mapping of options, got an empty document"):
            canasta.parse_variant("")
        with pytest.raises(VariantError, match=r"^<string>:1:1: expected a mapping of options, got a list"):
            canasta.parse_variant("- draw\n")
        with pytest.raises(VariantError, match=r"^<string>: expected YAML text or a mapping of options, got int"):
            canasta.parse_variant(7)  # type: ignore[arg-type]

    def test_limits_of_a_file_apply(self) -> None:
        """Text larger than a profile file may be is refused before it is parsed."""
        with pytest.raises(VariantError, match=f"^<string>: text is larger than {MAX_FILE_BYTES} bytes"):
            canasta.parse_variant("#" * (MAX_FILE_BYTES + 1))
        with pytest.raises(VariantError, match="anchors"):
            canasta.parse_variant("a: &x 1\nb: *x\n")

    def test_extends_a_file_relative_to_the_working_directory(self, in_tmp: Path) -> None:
        """extends: a path is read from the working directory."""
        write("base.yaml", "extends: classic\ndraw: {count: 3}\n")
        assert canasta.parse_variant("extends: base.yaml\n").draw.count == 3
        with pytest.raises(VariantError, match=r"^<string>:1:10: extends: file not found: missing.yaml"):
            canasta.parse_variant("extends: missing.yaml\n")
