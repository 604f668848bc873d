"""MCP tool `inputSchema` → one flat object schema."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from resolver.core.errors import SchemaConversionError
from resolver.toolschema.mcp import mcp_parameters
from tests.actions_checks import assert_function_parameters

CASES = [
    pytest.param(None, {"type": "object", "properties": {}}, id="none"),
    pytest.param({}, {"type": "object", "properties": {}}, id="empty"),
    pytest.param({"type": "object"}, {"type": "object", "properties": {}}, id="no-properties"),
    pytest.param(
        {"properties": {"q": {"type": "string"}}, "required": ["q"]},
        {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
        id="root-type-defaults-to-object",
    ),
    pytest.param(
        # Seed 001 §5.5: a self-referencing node is pruned one level down.
        {
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {"value": {"type": "string"}, "child": {"$ref": "#/$defs/Node"}},
                }
            },
            "properties": {"root": {"$ref": "#/$defs/Node"}},
        },
        {
            "type": "object",
            "properties": {
                "root": {
                    "type": "object",
                    "properties": {"value": {"type": "string"}, "child": {"type": "object"}},
                }
            },
        },
        id="seed-001-cycle",
    ),
    pytest.param(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "filter": {"$ref": "#/$defs/Filter"},
                "level": {"$ref": "#/$defs/Level"},
            },
            "required": ["filter"],
            "additionalProperties": False,
            "$defs": {
                "Filter": {
                    "type": "object",
                    "properties": {
                        "regions": {"type": "array", "items": {"type": "string"}},
                        "since": {"type": "string", "format": "date"},
                    },
                },
                "Level": {"type": "string", "enum": ["low", "high"], "description": "风险等级"},
            },
        },
        {
            "type": "object",
            "properties": {
                "filter": {
                    "type": "object",
                    "properties": {
                        "regions": {"type": "array", "items": {"type": "string"}},
                        "since": {"type": "string", "format": "date"},
                    },
                },
                "level": {"type": "string", "enum": ["low", "high"], "description": "风险等级"},
            },
            "required": ["filter"],
            "additionalProperties": False,
        },
        id="defs-inlined-enum-kept",
    ),
    pytest.param(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {"p": {"$ref": "#/definitions/P"}},
            "definitions": {"P": {"type": "integer", "minimum": 0}},
        },
        {"type": "object", "properties": {"p": {"type": "integer", "minimum": 0}}},
        id="draft07-definitions",
    ),
    pytest.param(
        {
            "$ref": "#/$defs/Args",
            "$defs": {"Args": {"type": "object", "properties": {"a": {"type": "string"}}}},
        },
        {"type": "object", "properties": {"a": {"type": "string"}}},
        id="root-ref",
    ),
    pytest.param(
        {"type": "object", "description": "root", "properties": {"same": {"$ref": "#"}}},
        {"type": "object", "properties": {"same": {"type": "object", "description": "root"}}},
        id="ref-to-the-document-is-a-cycle",
    ),
    pytest.param(
        {
            "type": ["object", "null"],
            "anyOf": [
                {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
                {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                },
                {"type": "null"},
            ],
        },
        {
            "type": "object",
            "properties": {"id": {"type": "string"}, "name": {"type": "string"}},
        },
        id="root-variants-folded",
    ),
    pytest.param(
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "not": {"required": ["b"]},
            "minProperties": 1,
            "title": "Args",
            "description": "root description",
        },
        {"type": "object", "properties": {"a": {"type": "string"}}},
        id="root-only-constraints-dropped",
    ),
]


@pytest.mark.parametrize(("schema", "expected"), CASES)
def test_conversion(schema: dict[str, Any] | None, expected: dict[str, Any]) -> None:
    before = copy.deepcopy(schema)
    result = mcp_parameters(schema)
    assert result == expected
    assert schema == before
    assert_function_parameters(result)


@pytest.mark.parametrize(
    ("schema", "pointer"),
    [
        pytest.param({"type": "string"}, "#/type", id="root-not-an-object"),
        pytest.param({"type": "array", "items": {}}, "#/type", id="root-array"),
        pytest.param(
            {"properties": {"a": {"$ref": "#/$defs/Gone"}}}, "#/properties/a", id="bad-ref"
        ),
    ],
)
def test_errors(schema: dict[str, Any], pointer: str) -> None:
    with pytest.raises(SchemaConversionError) as caught:
        mcp_parameters(schema)
    assert caught.value.pointer == pointer


@pytest.mark.parametrize(
    "index",
    [pytest.param("²", id="superscript-digit"), pytest.param("9" * 5000, id="5000-digits")],
)
def test_odd_array_index_in_a_pointer_is_a_conversion_error(index: str) -> None:
    schema = {
        "type": "object",
        "properties": {
            "items": {"type": "array", "prefixItems": [{"type": "string"}]},
            "x": {"$ref": f"#/properties/items/prefixItems/{index}"},
        },
    }
    with pytest.raises(SchemaConversionError, match="unresolvable"):
        mcp_parameters(schema)
