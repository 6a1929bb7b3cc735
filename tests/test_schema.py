"""Tests for canasta.variant.schema: the JSON Schema of variant profiles."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest
import yaml
from hypothesis import given, settings

from budget import examples
from canasta.variant.convert import variant_to_dict
from canasta.variant.loading import bundled_file, load_variant, variant_names
from canasta.variant.model import AREAS, MeldRules, PlayerRules, Variant, option_paths
from canasta.variant.schema import SCHEMA_DIALECT, json_schema, schema_text
from strategies import variants

COMMITTED = Path(__file__).resolve().parents[1] / "variants" / "schema.json"


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    """A draft 2020-12 validator of the generated schema."""
    return jsonschema.Draft202012Validator(json_schema())


def bundled_documents() -> list[tuple[str, Any]]:
    """Each bundled profile file as plain YAML data."""
    return [
        (name, yaml.safe_load(bundled_file(name)[0].read_text(encoding="utf-8")))
        for name in variant_names()
    ]


class TestJsonSchema:
    def test_committed_copy_is_current(self) -> None:
        """variants/schema.json is exactly the generated schema."""
        assert COMMITTED.read_text(encoding="utf-8") == schema_text(), (
            "variants/schema.json is out of date; regenerate it with "
            "`canasta schema > variants/schema.json`"
        )

    def test_schema_text_format(self) -> None:
        """schema_text is json.dumps(indent=2, sort_keys=True) plus a newline."""
        assert schema_text() == json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"

    def test_is_a_valid_draft_2020_12_schema(self) -> None:
        """The schema itself is valid under its meta-schema."""
        schema = json_schema()
        assert schema["$schema"] == SCHEMA_DIALECT
        jsonschema.Draft202012Validator.check_schema(schema)

    @pytest.mark.parametrize(("name", "document"), bundled_documents())
    def test_bundled_profiles_validate(
        self, validator: jsonschema.Draft202012Validator, name: str, document: Any
    ) -> None:
        """Every bundled profile file, as YAML data, satisfies the schema."""
        errors = [e.message for e in validator.iter_errors(document)]
        assert errors == [], name

    @pytest.mark.parametrize("name", ["classic", "classic-2p", "draw-two", "hand-and-foot"])
    def test_full_dumps_validate(
        self, validator: jsonschema.Draft202012Validator, name: str
    ) -> None:
        """A complete variant written out (every option) satisfies the schema."""
        validator.validate(variant_to_dict(load_variant(name)))

    @settings(max_examples=examples(100), deadline=None)
    @given(variant=variants())
    def test_generated_variants_validate(self, variant: Variant) -> None:
        """Every variant the strategy generates, written out, satisfies the schema."""
        jsonschema.Draft202012Validator(json_schema()).validate(variant_to_dict(variant))

    @pytest.mark.parametrize(
        "document",
        [
            {"melds": {"max_wild": 2}},
            {"meld": {}},
            {"melds": {"max_wilds": "two"}},
            {"players": {"count": True}},
            {"players": {"count": 9}},
            {"melds": {"min_size": 0}},
            {"melds": {"max_size": 0}},
            {"melds": {"second_wild": "sometimes"}},
            {"melds": {"max_wilds": None}},
            {"deal": [11]},
            {"pile": {"stop_cards": {"wild": True}}},
            {"pile": {"stop_cards": ["wild", "wild"]}},
            {"wilds": {"ranks": ["2", "Z"]}},
            {"wilds": {"ranks": [2]}},
            {"canastas": {"rank_bonuses": [{"rank": "X"}]}},
            {"opening": {"score_table": [{"minimun": 50}]}},
            {"opening": {"round_table": [-1]}},
            {"assumed": {"deck.deckz": "Pagat"}},
            {"assumed": {"deck": 5}},
            {"assumed": ["deck"]},
            {"extends": 5},
            {"name": ""},
            ["classic"],
        ],
    )
    def test_bad_documents_fail(
        self, validator: jsonschema.Draft202012Validator, document: Any
    ) -> None:
        """Documents the loader refuses for their content are refused by the schema too."""
        assert not validator.is_valid(document)

    def test_good_partial_documents_pass(self, validator: jsonschema.Draft202012Validator) -> None:
        """Partial profiles with extends, null options and rank spellings are valid."""
        assert validator.is_valid({})
        assert validator.is_valid({"extends": "classic", "melds": {"max_size": None}})
        assert validator.is_valid({"wilds": {"ranks": ["2", "jk", "T", " joker "]}})
        assert validator.is_valid({"wilds": {"ranks": ["joker", " 10 "]}})
        assert validator.is_valid({"assumed": {"deck": "Pagat", "melds.max_wilds": "Hoyle"}})

    def test_descriptions_come_from_the_model(self) -> None:
        """Every option carries its one-line doc, range and default from the model."""
        props = json_schema()["properties"]
        count = props["players"]["properties"]["count"]
        field = attrs.fields_dict(PlayerRules)["count"]
        assert count["description"] == field.metadata["doc"]
        assert (count["minimum"], count["maximum"], count["default"]) == (2, 8, 4)
        max_size = props["melds"]["properties"]["max_size"]
        assert max_size["type"] == ["integer", "null"]
        assert max_size["default"] is None
        assert max_size["description"] == attrs.fields_dict(MeldRules)["max_size"].metadata["doc"]
        second = props["melds"]["properties"]["second_wild"]
        assert second["enum"] == ["always", "by_size", "by_naturals"]

    def test_every_option_is_described(self) -> None:
        """Every area and option of the model appears, with a description and no extras."""
        schema = json_schema()
        props = schema["properties"]
        assert schema["additionalProperties"] is False
        assert set(props) == {f.name for f in attrs.fields(Variant)} | {"extends"}
        for area, cls in AREAS:
            area_schema = props[area]
            assert area_schema["additionalProperties"] is False
            assert set(area_schema["properties"]) == {f.name for f in attrs.fields(cls)}
            for option in area_schema["properties"].values():
                assert option["description"]
                assert "default" in option

    def test_defaults_match_the_model(self) -> None:
        """The defaults in the schema build the default variant."""
        props = json_schema()["properties"]
        data = {
            area: {k: v["default"] for k, v in props[area]["properties"].items()}
            for area, _ in AREAS
        }
        assert variant_to_dict(Variant()) | data == variant_to_dict(Variant())

    def test_assumed_keys_are_option_paths(self) -> None:
        """assumed accepts exactly the option paths."""
        assumed = json_schema()["properties"]["assumed"]
        assert assumed["propertyNames"]["enum"] == option_paths()

    def test_types_cover_the_model(self) -> None:
        """Each option type maps to a JSON type the schema names."""
        props = json_schema()["properties"]
        for area, cls in AREAS:
            hints = typing.get_type_hints(cls)
            for name in hints:
                assert (
                    "type" in props[area]["properties"][name]
                    or "anyOf" in (props[area]["properties"][name])
                )
