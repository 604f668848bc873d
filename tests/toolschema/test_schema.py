"""The shared converter: `$ref` inlining, pruning, `allOf`, keyword hygiene, no mutation."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from resolver.core.errors import SchemaConversionError
from resolver.toolschema.refs import document_lookup
from resolver.toolschema.schema import MAX_REF_DEPTH, resolve_schema


def resolve(document: dict[str, Any], node: Any = None, **kwargs: Any) -> dict[str, Any]:
    return resolve_schema(document if node is None else node, document_lookup(document), **kwargs)


def chain(length: int) -> dict[str, Any]:
    """A document whose root refers to D1, D1 to D2, … up to D<length>: no cycle."""
    defs: dict[str, Any] = {}
    for index in range(1, length + 1):
        props: dict[str, Any] = {"name": {"type": "string"}}
        if index < length:
            props["next"] = {"$ref": f"#/$defs/D{index + 1}"}
        defs[f"D{index}"] = {"type": "object", "description": f"level {index}", "properties": props}
    return {"type": "object", "properties": {"first": {"$ref": "#/$defs/D1"}}, "$defs": defs}


KEPT = [
    pytest.param(
        {"type": "string", "description": "d", "enum": ["a", "b"], "default": "a"},
        {"type": "string", "description": "d", "enum": ["a", "b"], "default": "a"},
        id="enum-description-default-kept",
    ),
    pytest.param(
        {"type": "string", "format": "date", "pattern": "^[0-9-]+$", "minLength": 1},
        {"type": "string", "format": "date", "pattern": "^[0-9-]+$", "minLength": 1},
        id="string-constraints-kept",
    ),
    pytest.param(
        {"type": "integer", "minimum": 1, "maximum": 10, "multipleOf": 2, "title": "n"},
        {"type": "integer", "minimum": 1, "maximum": 10, "multipleOf": 2, "title": "n"},
        id="number-constraints-kept",
    ),
    pytest.param(
        {"type": "array", "items": {"type": "integer"}, "minItems": 1, "uniqueItems": True},
        {"type": "array", "items": {"type": "integer"}, "minItems": 1, "uniqueItems": True},
        id="array-constraints-kept",
    ),
    pytest.param(
        {"type": "object", "additionalProperties": {"type": "number"}, "examples": [{"a": 1}]},
        {"type": "object", "additionalProperties": {"type": "number"}, "examples": [{"a": 1}]},
        id="map-and-examples-kept",
    ),
    pytest.param(
        {"anyOf": [{"type": "string"}, {"type": "integer"}], "const": 3},
        {"anyOf": [{"type": "string"}, {"type": "integer"}], "const": 3},
        id="anyof-and-const-kept",
    ),
    pytest.param(
        {
            "type": "string",
            "example": "x",
            "xml": {"name": "x"},
            "externalDocs": {"url": "u"},
            "discriminator": {"propertyName": "k"},
            "x-vendor": 1,
            "writeOnly": True,
            "$id": "urn:x",
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$comment": "c",
        },
        {"type": "string"},
        id="openapi-and-meta-keywords-dropped",
    ),
    pytest.param(
        {"type": "string", "nullable": True}, {"type": ["string", "null"]}, id="nullable-widens"
    ),
    pytest.param(
        {"type": ["integer", "null"], "nullable": True},
        {"type": ["integer", "null"]},
        id="nullable-already-null",
    ),
    pytest.param({"nullable": True}, {}, id="nullable-without-type-dropped"),
    pytest.param(
        {"type": "number", "minimum": 0, "exclusiveMinimum": True, "maximum": 9},
        {"type": "number", "exclusiveMinimum": 0, "maximum": 9},
        id="boolean-exclusive-minimum-becomes-numeric",
    ),
    pytest.param(
        {"type": "number", "maximum": 9, "exclusiveMaximum": False},
        {"type": "number", "maximum": 9},
        id="false-exclusive-maximum-dropped",
    ),
    pytest.param(
        {"type": "array", "items": [{"type": "string"}], "additionalItems": False},
        {"type": "array", "prefixItems": [{"type": "string"}], "items": False},
        id="draft07-tuple-items-become-prefixitems",
    ),
    pytest.param({"type": "array"}, {"type": "array", "items": {}}, id="array-gets-items"),
    pytest.param(
        {"type": "file", "minLength": "5", "pattern": "[", "required": ["a", "a", 1]},
        {"required": ["a"]},
        id="malformed-values-dropped-required-deduped",
    ),
    pytest.param(
        {"patternProperties": {"^x-": {"type": "string"}, "[": {"type": "string"}}},
        {"patternProperties": {"^x-": {"type": "string"}}},
        id="invalid-pattern-property-dropped",
    ),
    pytest.param(
        {"type": "object", "properties": {"a": True, "b": False}},
        {"type": "object", "properties": {"a": True, "b": False}},
        id="boolean-subschemas-kept",
    ),
    pytest.param({"anyOf": []}, {}, id="empty-anyof-dropped"),
]


@pytest.mark.parametrize(("node", "expected"), KEPT)
def test_keywords(node: dict[str, Any], expected: dict[str, Any]) -> None:
    result = resolve(node)
    assert result == expected
    Draft202012Validator.check_schema(result)


REFS = [
    pytest.param(
        {
            "type": "object",
            "properties": {"owner": {"$ref": "#/$defs/Person"}},
            "$defs": {"Person": {"type": "object", "properties": {"name": {"type": "string"}}}},
        },
        {
            "type": "object",
            "properties": {"owner": {"type": "object", "properties": {"name": {"type": "string"}}}},
        },
        id="defs-ref-inlined-defs-removed",
    ),
    pytest.param(
        {
            "properties": {"owner": {"$ref": "#/definitions/Person"}},
            "definitions": {"Person": {"type": "string"}},
        },
        {"properties": {"owner": {"type": "string"}}},
        id="definitions-ref-inlined",
    ),
    pytest.param(
        {
            "properties": {"p": {"$ref": "#/components/schemas/a~1b%20c"}},
            "components": {"schemas": {"a/b c": {"type": "integer"}}},
        },
        {"properties": {"p": {"type": "integer"}}},
        id="pointer-escapes-and-percent-encoding",
    ),
    pytest.param(
        {
            "properties": {"p": {"$ref": "#/$defs/Named", "description": "mine"}},
            "$defs": {"Named": {"type": "string", "description": "theirs"}},
        },
        {"properties": {"p": {"description": "mine", "type": "string"}}},
        id="sibling-description-wins-over-target",
    ),
    pytest.param(
        {
            "properties": {"a": {"$ref": "#/$defs/Alias"}},
            "$defs": {"Alias": {"$ref": "#/$defs/Real"}, "Real": {"type": "boolean"}},
        },
        {"properties": {"a": {"type": "boolean"}}},
        id="ref-to-ref",
    ),
    pytest.param(
        {
            "properties": {
                "home": {"$ref": "#/$defs/Address"},
                "work": {"$ref": "#/$defs/Address"},
            },
            "$defs": {"Address": {"type": "object", "properties": {"city": {"type": "string"}}}},
        },
        {
            "properties": {
                "home": {"type": "object", "properties": {"city": {"type": "string"}}},
                "work": {"type": "object", "properties": {"city": {"type": "string"}}},
            }
        },
        id="shared-definition-is-not-a-cycle",
    ),
    pytest.param(
        {
            "type": "object",
            "properties": {
                "orders": {"type": "array", "items": {"$ref": "#/$defs/Order"}},
            },
            "$defs": {
                "Order": {
                    "type": "object",
                    "properties": {"lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}}},
                },
                "Line": {"type": "object", "properties": {"sku": {"type": "string"}}},
            },
        },
        {
            "type": "object",
            "properties": {
                "orders": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "lines": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "properties": {"sku": {"type": "string"}},
                                },
                            }
                        },
                    },
                }
            },
        },
        id="nested-refs-through-arrays",
    ),
]


@pytest.mark.parametrize(("document", "expected"), REFS)
def test_refs(document: dict[str, Any], expected: dict[str, Any]) -> None:
    assert resolve(document) == expected


def test_self_cycle_is_pruned_to_type_and_description() -> None:
    document = {
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "$defs": {
            "Node": {
                "type": "object",
                "description": "a tree node",
                "properties": {"value": {"type": "string"}, "child": {"$ref": "#/$defs/Node"}},
            }
        },
    }
    root = resolve(document)["properties"]["root"]
    assert root["properties"]["value"] == {"type": "string"}
    assert root["properties"]["child"] == {"type": "object", "description": "a tree node"}


def test_mutual_cycle_is_pruned_where_it_closes() -> None:
    document = {
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}},
        },
    }
    a = resolve(document)["properties"]["a"]
    assert a["properties"]["b"]["properties"]["a"] == {"type": "object"}


def test_cycle_through_allof_is_pruned() -> None:
    document = {
        "properties": {"x": {"$ref": "#/$defs/X"}},
        "$defs": {"X": {"allOf": [{"$ref": "#/$defs/X"}], "properties": {"n": {"type": "string"}}}},
    }
    assert resolve(document)["properties"]["x"] == {
        "properties": {"n": {"type": "string"}},
        "type": "object",
    }


def test_depth_counts_ref_hops_and_prunes_the_fourth() -> None:
    level = resolve(chain(6))["properties"]["first"]
    for index in range(1, MAX_REF_DEPTH + 1):
        assert level["description"] == f"level {index}"
        assert level["properties"]["name"] == {"type": "string"}
        level = level["properties"]["next"]
    assert level == {"type": "object", "description": f"level {MAX_REF_DEPTH + 1}"}


def test_depth_limit_is_a_parameter() -> None:
    first = resolve(chain(3), max_depth=1)["properties"]["first"]
    assert first["properties"]["next"] == {"type": "object", "description": "level 2"}


def test_chain_of_exactly_the_limit_is_kept_whole() -> None:
    level = resolve(chain(MAX_REF_DEPTH))["properties"]["first"]
    for _ in range(MAX_REF_DEPTH - 1):
        level = level["properties"]["next"]
    assert level["properties"] == {"name": {"type": "string"}}


def test_inline_nesting_is_not_depth() -> None:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(10):
        node = {"type": "object", "properties": {"inner": node}}
    assert resolve(node) == node


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        pytest.param(
            {"type": "array", "items": {"type": "string"}, "description": "tags"},
            {"type": "array", "description": "tags", "items": {"type": "string"}},
            id="array-keeps-shallow-items",
        ),
        pytest.param(
            {"type": "array", "items": {"$ref": "#/$defs/T"}},
            {"type": "array", "items": {}},
            id="array-of-ref-gets-any-items",
        ),
        pytest.param({"enum": ["a", "b"]}, {"type": "string"}, id="enum-type-guessed"),
        pytest.param({"items": {}}, {"type": "array", "items": {}}, id="array-shape-guessed"),
        pytest.param({"anyOf": [{}]}, {"type": "object"}, id="unknown-shape-is-object"),
        pytest.param({"type": "string", "nullable": True}, {"type": ["string", "null"]}, id="null"),
    ],
)
def test_pruned_node_shape(target: dict[str, Any], expected: dict[str, Any]) -> None:
    document = {"properties": {"p": {"$ref": "#/$defs/T"}}, "$defs": {"T": target}}
    assert resolve(document, max_depth=0)["properties"]["p"] == expected


def test_allof_merges_properties_required_and_keeps_other_keywords() -> None:
    document = {
        "description": "the node's own",
        "allOf": [
            {"$ref": "#/components/schemas/Base"},
            {
                "type": "object",
                "description": "second member",
                "properties": {"extra": {"type": "integer", "enum": [1, 2]}},
                "required": ["extra"],
            },
        ],
        "components": {
            "schemas": {
                "Base": {
                    "type": "object",
                    "description": "base",
                    "properties": {"id": {"type": "string"}, "extra": {"type": "number"}},
                    "required": ["id"],
                    "additionalProperties": False,
                }
            }
        },
    }
    assert resolve(document) == {
        "description": "the node's own",
        "type": "object",
        "properties": {"id": {"type": "string"}, "extra": {"type": "integer", "enum": [1, 2]}},
        "required": ["id", "extra"],
        "additionalProperties": False,
    }


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        pytest.param("number", "integer", "integer", id="integer-narrows-number"),
        pytest.param(["string", "null"], "string", "string", id="null-dropped-by-intersection"),
        pytest.param(
            ["string", "integer"], ["integer", "string"], ["string", "integer"], id="both"
        ),
        pytest.param("string", "integer", "string", id="contradiction-keeps-first"),
    ],
)
def test_allof_intersects_types(first: Any, second: Any, expected: Any) -> None:
    assert resolve({"allOf": [{"type": first}, {"type": second}]}) == {"type": expected}


def test_allof_merges_same_property_recursively() -> None:
    node = {
        "allOf": [
            {"properties": {"a": {"type": "object", "properties": {"x": {"type": "string"}}}}},
            {"properties": {"a": {"properties": {"y": {"type": "string"}}, "required": ["y"]}}},
        ]
    }
    assert resolve(node)["properties"]["a"] == {
        "type": "object",
        "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
        "required": ["y"],
    }


def test_allof_with_false_member_is_false() -> None:
    assert resolve({"allOf": [{"type": "string"}, False]}) == {"not": {}}


def test_read_only_properties_are_dropped_with_their_required_entry() -> None:
    document = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "readOnly": True},
            "created": {"$ref": "#/$defs/Stamp"},
            "name": {"type": "string", "writeOnly": True},
        },
        "required": ["id", "created", "name"],
        "$defs": {"Stamp": {"type": "string", "readOnly": True}},
    }
    assert resolve(document) == {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
    }


def test_visiting_marks_the_document_root_as_open() -> None:
    document = {"type": "object", "description": "root", "properties": {"again": {"$ref": "#"}}}
    result = resolve(document, visiting=frozenset({"#"}))
    assert result["properties"]["again"] == {"type": "object", "description": "root"}


ERRORS = [
    pytest.param(
        {"properties": {"owner": {"$ref": "#/$defs/Missing"}}},
        "#/properties/owner",
        "unresolvable $ref '#/$defs/Missing'",
        id="unresolvable-ref",
    ),
    pytest.param(
        {"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/Nope"}}},
        "#/$defs/A",
        "unresolvable $ref '#/$defs/Nope'",
        id="unresolvable-ref-inside-a-definition",
    ),
    pytest.param(
        {"items": {"$ref": "https://example.com/schema.json"}},
        "#/items",
        "only local references",
        id="remote-ref-not-fetched",
    ),
    pytest.param({"items": {"$ref": 3}}, "#/items", "$ref must be a string", id="ref-not-string"),
    pytest.param(
        {"properties": {"a": {"items": "string"}}},
        "#/properties/a/items",
        "a schema must be an object or a boolean, not str",
        id="schema-not-an-object",
    ),
    pytest.param(
        {"properties": ["a"]}, "#/properties", "expected an object", id="properties-not-an-object"
    ),
    pytest.param({"allOf": {"a": 1}}, "#/allOf", "expected an array", id="allof-not-an-array"),
    pytest.param(
        {"properties": {"a/b": {"anyOf": [{"type": "string"}, 7]}}},
        "#/properties/a~1b/anyOf/1",
        "not int",
        id="pointer-escaped-in-error",
    ),
]


@pytest.mark.parametrize(("document", "pointer", "reason"), ERRORS)
def test_errors_name_the_pointer(document: dict[str, Any], pointer: str, reason: str) -> None:
    with pytest.raises(SchemaConversionError) as caught:
        resolve(document)
    assert caught.value.pointer == pointer
    assert reason in caught.value.reason
    assert pointer in str(caught.value)
    assert (caught.value.status, caught.value.code) == (502, "SCHEMA_CONVERSION_ERROR")


def test_input_is_never_mutated_and_never_shared() -> None:
    document = {
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/A", "description": "sibling"},
            "b": {"allOf": [{"$ref": "#/$defs/A"}, {"properties": {"z": {"type": "string"}}}]},
            "c": {"type": "integer", "minimum": 1, "exclusiveMinimum": True, "nullable": True},
            "d": {"type": "string", "enum": ["x"], "default": {"deep": [1, 2]}},
        },
        "$defs": {
            "A": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "readOnly": True},
                    "self": {"$ref": "#/$defs/A"},
                },
                "required": ["id"],
            }
        },
    }
    before = copy.deepcopy(document)
    result = resolve(document)
    assert document == before
    result["properties"]["d"]["default"]["deep"].append(3)
    result["properties"]["d"]["enum"].append("y")
    result["properties"]["a"]["properties"].clear()
    assert document == before
