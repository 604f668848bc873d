"""MCP proxy: the LLM's arguments checked against the tool's original `inputSchema`."""

from __future__ import annotations

import copy
import urllib.request
from typing import Any

import pytest

from resolver.core.errors import SchemaConversionError
from resolver.toolschema.arguments import ArgumentViolation, json_path, validate_arguments

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "company_id": {"type": "string"},
        "filter": {"$ref": "#/$defs/Filter"},
        "mode": {"oneOf": [{"const": "fast"}, {"const": "full"}]},
        "x-trace": {"type": "string"},
    },
    "required": ["company_id"],
    "additionalProperties": False,
    "$defs": {
        "Filter": {
            "type": "object",
            "properties": {
                "regions": {"type": "array", "items": {"$ref": "#/$defs/Region"}},
                "since": {"type": "string", "format": "date"},
            },
        },
        "Region": {"type": "string", "enum": ["north", "south", "3"]},
    },
}

CASES = [
    pytest.param({"company_id": "c1"}, [], id="minimal-valid"),
    pytest.param(
        {"company_id": "c1", "filter": {"regions": ["north", "south"], "since": "not a date"}},
        [],
        id="nested-valid-format-is-annotation-only",
    ),
    pytest.param(
        {"company_id": "c1", "filter": {"regions": ["north", 3]}},
        [
            "$.filter.regions[1]: 3 is not of type 'string'",
            "$.filter.regions[1]: 3 is not one of ['north', 'south', '3']",
        ],
        id="wrong-item-through-defs",
    ),
    pytest.param({}, ["$: 'company_id' is a required property"], id="missing-required"),
    pytest.param(
        {"company_id": "c1", "extra": 1},
        ["$: Additional properties are not allowed ('extra' was unexpected)"],
        id="additional-property",
    ),
    pytest.param(
        {"company_id": "c1", "x-trace": 5},
        ["$['x-trace']: 5 is not of type 'string'"],
        id="bracketed-key",
    ),
    pytest.param(
        {"company_id": "c1", "mode": "slow"},
        ["$.mode: 'slow' is not valid under any of the given schemas"],
        id="oneof-from-the-original-schema",
    ),
    pytest.param([1], ["$: [1] is not of type 'object'"], id="not-an-object"),
]


@pytest.mark.parametrize(("arguments", "expected"), CASES)
def test_validate_arguments(arguments: Any, expected: list[str]) -> None:
    before = copy.deepcopy(SCHEMA)
    assert [str(error) for error in validate_arguments(SCHEMA, arguments)] == expected
    assert before == SCHEMA


def test_violation_parts() -> None:
    [violation] = validate_arguments(SCHEMA, {"company_id": 1})
    assert violation == ArgumentViolation(path="$.company_id", message="1 is not of type 'string'")


def test_draft07_schema_with_definitions() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "properties": {
            "pair": {"type": "array", "items": [{"type": "string"}, {"$ref": "#/definitions/N"}]}
        },
        "definitions": {"N": {"type": "integer"}},
    }
    assert validate_arguments(schema, {"pair": ["a", 1]}) == []
    assert [str(e) for e in validate_arguments(schema, {"pair": ["a", "b"]})] == [
        "$.pair[1]: 'b' is not of type 'integer'"
    ]


def test_unknown_dialect_falls_back_to_2020_12_without_warning() -> None:
    schema = {"$schema": "https://example.com/my-dialect", "properties": {"a": {"type": "string"}}}
    assert [str(e) for e in validate_arguments(schema, {"a": 1})] == [
        "$.a: 1 is not of type 'string'"
    ]


def test_long_messages_are_cut() -> None:
    [violation] = validate_arguments({"type": "string"}, {"k": "v" * 1000})
    assert len(violation.message) == 300
    assert violation.message.endswith("…")


@pytest.mark.parametrize(
    ("schema", "pointer"),
    [
        pytest.param(
            {"type": "object", "properties": {"a": {"type": "nope"}}},
            "#/properties/a/type",
            id="bad-type",
        ),
        pytest.param(
            {"properties": {"a": {"minLength": -1}}}, "#/properties/a/minLength", id="bad-bound"
        ),
        pytest.param(
            {"properties": {"a/b": {"minLength": -1}}}, "#/properties/a~1b/minLength", id="escaped"
        ),
        pytest.param({"$schema": ["x"]}, "#/$schema", id="schema-uri-not-a-string"),
        pytest.param({"properties": {"a": {"$ref": "#/$defs/Gone"}}}, "#", id="unresolvable-ref"),
        pytest.param(
            {"properties": {"a": {"$ref": "https://example.com/s.json"}}}, "#", id="remote-ref"
        ),
    ],
)
def test_broken_schema_is_a_conversion_error(
    schema: dict[str, Any], pointer: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fetched: list[Any] = []

    def no_network(request: Any, *args: Any, **kwargs: Any) -> None:
        fetched.append(request)
        raise OSError("no network in tests")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    with pytest.raises(SchemaConversionError) as caught:
        validate_arguments(schema, {"a": "x"})
    assert caught.value.pointer == pointer
    assert fetched == []


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        pytest.param([], "$", id="root"),
        pytest.param(["a", 0, "b"], "$.a[0].b", id="dots-and-index"),
        pytest.param(["企业", "名称"], "$.企业.名称", id="unicode-identifiers"),
        pytest.param(["a.b", "it's"], "$['a.b']['it\\'s']", id="quoted"),
    ],
)
def test_json_path(parts: list[str | int], expected: str) -> None:
    assert json_path(parts) == expected
