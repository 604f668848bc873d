"""OpenAPI tool `api_spec` → one flat object schema."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from resolver.core.errors import SchemaConversionError
from resolver.toolschema.openapi import openapi_parameters
from tests.actions_checks import assert_function_parameters

EMPTY = {"type": "object", "properties": {}}


def body(schema: Any, **extra: Any) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}, **extra}


SEARCH_SPEC: dict[str, Any] = {
    "parameters": [
        {
            "name": "kn_id",
            "in": "path",
            "description": "业务知识网络ID",
            "schema": {"type": "string"},
        },
        {
            "name": "include_type_info",
            "in": "query",
            "required": False,
            "schema": {"type": "boolean", "description": "schema's words", "default": False},
            "description": "是否包含对象类信息",
        },
        {"name": "x-account-id", "in": "header", "required": True, "schema": {"type": "string"}},
        {"name": "session", "in": "cookie", "schema": {"type": "string"}},
    ],
    "request_body": body({"$ref": "#/components/schemas/Query"}, required=True),
    "components": {
        "schemas": {
            "Query": {
                "type": "object",
                "required": ["limit"],
                "properties": {
                    "condition": {"$ref": "#/components/schemas/Condition"},
                    "limit": {"type": "integer", "description": "返回的数量", "example": 10},
                    "sort": {"type": "array", "items": {"$ref": "#/components/schemas/Sort"}},
                },
            },
            "Condition": {"type": "object", "description": "过滤条件"},
            "Sort": {
                "type": "object",
                "properties": {
                    "field": {"type": "string"},
                    "direction": {"type": "string", "enum": ["asc", "desc"]},
                },
            },
        }
    },
}

SEARCH_PARAMETERS = {
    "type": "object",
    "properties": {
        "kn_id": {"type": "string", "description": "业务知识网络ID"},
        "include_type_info": {
            "type": "boolean",
            "description": "是否包含对象类信息",
            "default": False,
        },
        "x-account-id": {"type": "string"},
        "session": {"type": "string"},
        "condition": {"type": "object", "description": "过滤条件"},
        "limit": {"type": "integer", "description": "返回的数量"},
        "sort": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "field": {"type": "string"},
                    "direction": {"type": "string", "enum": ["asc", "desc"]},
                },
            },
        },
    },
    "required": ["kn_id", "x-account-id", "limit"],
}

CASES = [
    pytest.param(None, EMPTY, id="none-spec"),
    pytest.param({}, EMPTY, id="empty-spec"),
    pytest.param({"parameters": [], "request_body": {}}, EMPTY, id="empty-lists-and-body"),
    pytest.param(
        {"request_body": body({"type": "object"})},
        {
            "type": "object",
            "properties": {"body": {"type": "object"}},
        },
        id="free-form-object-body-is-one-property",
    ),
    pytest.param(SEARCH_SPEC, SEARCH_PARAMETERS, id="all-locations-side-by-side"),
    pytest.param(
        # The conversion example of seed 000 §4.4.2.
        {
            "parameters": [
                {"name": "kn_id", "in": "path", "required": True, "schema": {"type": "string"}},
                {"name": "limit", "in": "query", "required": False, "schema": {"type": "integer"}},
            ],
            "request_body": body(
                {"properties": {"condition": {"type": "object", "description": "过滤条件"}}}
            ),
        },
        {
            "type": "object",
            "properties": {
                "kn_id": {"type": "string"},
                "limit": {"type": "integer"},
                "condition": {"type": "object", "description": "过滤条件"},
            },
            "required": ["kn_id"],
        },
        id="seed-000-example",
    ),
    pytest.param(
        {"parameters": [{"name": "id", "in": "path"}, {"name": "q", "in": "query"}]},
        {
            "type": "object",
            "properties": {"id": {"type": "string"}, "q": {"type": "string"}},
            "required": ["id"],
        },
        id="schemaless-parameters-are-strings-path-required",
    ),
    pytest.param(
        {"parameters": [{"name": "n", "in": "query", "type": "integer", "enum": [1, 2]}]},
        {"type": "object", "properties": {"n": {"type": "integer", "enum": [1, 2]}}},
        id="swagger2-style-parameter",
    ),
    pytest.param(
        {"parameters": [{"name": "q"}]},
        {"type": "object", "properties": {"q": {"type": "string"}}},
        id="parameter-without-in",
    ),
    pytest.param(
        {
            "parameters": [
                {
                    "name": "filter",
                    "in": "query",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/F"}}},
                }
            ],
            "components": {
                "schemas": {"F": {"type": "object", "properties": {"a": {"type": "string"}}}}
            },
        },
        {
            "type": "object",
            "properties": {"filter": {"type": "object", "properties": {"a": {"type": "string"}}}},
        },
        id="parameter-with-content",
    ),
    pytest.param(
        {
            "parameters": [{"$ref": "#/components/parameters/Page"}],
            "components": {
                "parameters": {
                    "Page": {
                        "name": "page",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "integer"},
                    }
                }
            },
        },
        {"type": "object", "properties": {"page": {"type": "integer"}}, "required": ["page"]},
        id="parameter-ref",
    ),
    pytest.param(
        {
            "parameters": [
                {"name": "Accept", "in": "header", "schema": {"type": "string"}},
                {"name": "content-type", "in": "header", "schema": {"type": "string"}},
                {"name": "Authorization", "in": "header", "required": True},
                {"name": "authorization", "in": "query", "schema": {"type": "string"}},
            ]
        },
        {"type": "object", "properties": {"authorization": {"type": "string"}}},
        id="headers-openapi-ignores-are-not-asked-for",
    ),
    pytest.param(
        {"request_body": body({"type": "array", "items": {"type": "string"}}, required=True)},
        {
            "type": "object",
            "properties": {"body": {"type": "array", "items": {"type": "string"}}},
            "required": ["body"],
        },
        id="array-body-is-one-required-property",
    ),
    pytest.param(
        {"requestBody": body({"type": "string"}, description="raw text")},
        {"type": "object", "properties": {"body": {"type": "string", "description": "raw text"}}},
        id="primitive-body-is-one-optional-property",
    ),
    pytest.param(
        {
            "requestBody": {
                "content": {
                    "text/plain": {"schema": {"type": "string"}},
                    "application/json; charset=utf-8": {
                        "schema": {"properties": {"a": {"type": "string"}}}
                    },
                }
            }
        },
        {"type": "object", "properties": {"a": {"type": "string"}}},
        id="json-with-parameters-preferred",
    ),
    pytest.param(
        {
            "requestBody": {
                "content": {
                    "text/plain": {"schema": {"type": "string"}},
                    "application/merge-patch+json": {
                        "schema": {"properties": {"a": {"type": "string"}}}
                    },
                }
            }
        },
        {"type": "object", "properties": {"a": {"type": "string"}}},
        id="json-suffix-preferred",
    ),
    pytest.param(
        {
            "requestBody": {
                "content": {
                    "multipart/form-data": {
                        "schema": {"properties": {"file": {"type": "string", "format": "binary"}}}
                    }
                }
            }
        },
        {"type": "object", "properties": {"file": {"type": "string", "format": "binary"}}},
        id="non-json-body-used-when-alone",
    ),
    pytest.param(
        {"requestBody": {"content": {"application/json": {}}}},
        EMPTY,
        id="body-without-schema-adds-nothing",
    ),
    pytest.param(
        {
            "requestBody": {"$ref": "#/components/requestBodies/B"},
            "components": {
                "requestBodies": {
                    "B": body({"properties": {"a": {"type": "string"}}, "required": ["a"]})
                }
            },
        },
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        id="request-body-ref",
    ),
    pytest.param(
        {
            "request_body": body(
                {
                    "oneOf": [
                        {
                            "type": "object",
                            "properties": {"id": {"type": "string"}},
                            "required": ["id", "kind"],
                        },
                        {
                            "type": "object",
                            "properties": {"name": {"type": "string"}},
                            "required": ["kind"],
                        },
                    ],
                    "properties": {"kind": {"type": "string", "enum": ["by_id", "by_name"]}},
                }
            )
        },
        {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["by_id", "by_name"]},
                "id": {"type": "string"},
                "name": {"type": "string"},
            },
            "required": ["kind"],
        },
        id="oneof-body-variants-folded",
    ),
    pytest.param(
        {
            "request_body": body(
                {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "readOnly": True},
                        "n": {"type": "string"},
                    },
                    "required": ["id", "n"],
                }
            )
        },
        {"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"]},
        id="read-only-body-property-not-asked-for",
    ),
]


@pytest.mark.parametrize(("spec", "expected"), CASES)
def test_conversion(spec: dict[str, Any] | None, expected: dict[str, Any]) -> None:
    before = copy.deepcopy(spec)
    result = openapi_parameters(spec)
    assert result == expected
    assert spec == before
    assert_function_parameters(result)


@pytest.mark.parametrize("key", ["request_body", "requestBody"])
def test_either_body_key_is_read(key: str) -> None:
    spec = {key: body({"properties": {"a": {"type": "string"}}, "required": ["a"]})}
    assert openapi_parameters(spec) == {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
    }


def test_request_body_wins_when_both_keys_are_present() -> None:
    spec = {
        "request_body": body({"properties": {"snake": {"type": "string"}}}),
        "requestBody": body({"properties": {"camel": {"type": "string"}}}),
    }
    assert list(openapi_parameters(spec)["properties"]) == ["snake"]


COLLISIONS = [
    pytest.param(
        {
            "parameters": [{"name": "id", "in": "path"}],
            "request_body": body({"properties": {"id": {"type": "string"}}}),
        },
        "parameter 'id' is defined in both path and body",
        "#/request_body/content/application~1json/schema/properties/id",
        id="path-and-body",
    ),
    pytest.param(
        {"parameters": [{"name": "v", "in": "query"}, {"name": "v", "in": "header"}]},
        "parameter 'v' is defined in both query and header",
        "#/parameters/1",
        id="query-and-header",
    ),
    pytest.param(
        {"parameters": [{"name": "v", "in": "query"}, {"name": "v", "in": "query"}]},
        "parameter 'v' is defined twice in query",
        "#/parameters/1",
        id="twice-in-one-location",
    ),
    pytest.param(
        {"parameters": [{"name": "body", "in": "query"}], "request_body": body({"type": "array"})},
        "parameter 'body' is defined in both query and body",
        "#/request_body/content/application~1json/schema",
        id="wrapped-body-against-a-parameter-named-body",
    ),
]


@pytest.mark.parametrize(("spec", "message", "pointer"), COLLISIONS)
def test_one_name_in_two_places_is_an_error(
    spec: dict[str, Any], message: str, pointer: str
) -> None:
    with pytest.raises(SchemaConversionError, match=message) as caught:
        openapi_parameters(spec)
    assert caught.value.pointer == pointer


MALFORMED = [
    pytest.param({"parameters": {"a": 1}}, "#/parameters", id="parameters-not-a-list"),
    pytest.param({"parameters": ["kn_id"]}, "#/parameters/0", id="parameter-not-an-object"),
    pytest.param({"parameters": [{"name": "a"}, {"in": "query"}]}, "#/parameters/1", id="no-name"),
    pytest.param(
        {"parameters": [{"$ref": "#/components/parameters/X"}]},
        "#/parameters/0",
        id="bad-param-ref",
    ),
    pytest.param(
        {"request_body": body({"$ref": "#/components/schemas/Missing"})},
        "#/request_body/content/application~1json/schema",
        id="unresolvable-body-ref",
    ),
    pytest.param(
        {
            "parameters": [
                {"name": "a", "in": "query", "schema": {"$ref": "#/components/schemas/M"}}
            ]
        },
        "#/parameters/0/schema",
        id="unresolvable-parameter-ref",
    ),
    pytest.param(
        {"requestBody": {"content": ["x"]}}, "#/requestBody/content", id="content-not-object"
    ),
    pytest.param({"requestBody": "x"}, "#/requestBody", id="body-not-an-object"),
]


@pytest.mark.parametrize(("spec", "pointer"), MALFORMED)
def test_malformed_spec_names_the_place(spec: dict[str, Any], pointer: str) -> None:
    with pytest.raises(SchemaConversionError) as caught:
        openapi_parameters(spec)
    assert caught.value.pointer == pointer


def test_result_shares_nothing_with_the_spec() -> None:
    spec = copy.deepcopy(SEARCH_SPEC)
    before = copy.deepcopy(spec)
    result = openapi_parameters(spec)
    result["properties"]["sort"]["items"]["properties"]["direction"]["enum"].append("up")
    result["properties"]["include_type_info"]["description"] = "changed"
    assert spec == before
