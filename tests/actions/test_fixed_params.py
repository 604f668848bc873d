"""Placing an action's fixed `parameters` into header/path/query/body."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from resolver.actions.fixed_params import mcp_fixed_params, tool_fixed_params

SPEC: dict[str, Any] = {
    "parameters": [
        {"name": "kn_id", "in": "path"},
        {"name": "limit", "in": "query"},
        {"name": "X-Account-Id", "in": "header"},
        {"name": "session", "in": "cookie"},
        {"name": "theme", "in": "cookie"},
        {"$ref": "#/components/parameters/Lang"},
    ],
    "request_body": {
        "content": {"application/json": {"schema": {"properties": {"condition": {}}}}}
    },
    "components": {"parameters": {"Lang": {"name": "lang", "in": "query"}}},
}


def placed(
    header: Any = None, path: Any = None, query: Any = None, body: Any = None
) -> dict[str, Any]:
    return {"header": header or {}, "path": path or {}, "query": query or {}, "body": body or {}}


CASES = [
    pytest.param(None, SPEC, placed(), id="no-parameters"),
    pytest.param({}, None, placed(), id="nothing-at-all"),
    pytest.param(
        {"kn_id": "kn1", "limit": 10, "lang": "zh", "condition": {"a": 1}},
        SPEC,
        placed(
            path={"kn_id": "kn1"}, query={"limit": 10, "lang": "zh"}, body={"condition": {"a": 1}}
        ),
        id="by-declared-location-incl-param-ref",
    ),
    pytest.param(
        {"x-account-id": "u1"},
        SPEC,
        placed(header={"x-account-id": "u1"}),
        id="header-names-match-case-insensitively",
    ),
    pytest.param(
        {"session": "abc", "theme": True},
        SPEC,
        placed(header={"Cookie": "session=abc; theme=true"}),
        id="cookies-join-the-cookie-header",
    ),
    pytest.param(
        {"cookie": "a=1", "session": "abc"},
        {"parameters": [{"name": "Cookie", "in": "header"}, {"name": "session", "in": "cookie"}]},
        placed(header={"cookie": "a=1; session=abc"}),
        id="cookies-append-to-a-fixed-cookie-header",
    ),
    pytest.param(
        {
            "x-account-type": "user",
            "X-HTTP-Method-Override": "GET",
            "Authorization": "Bearer t",
            "content-type": "application/json",
            "kn_id": "kn1",
            "limit": 5,
        },
        {},
        placed(
            header={
                "x-account-type": "user",
                "X-HTTP-Method-Override": "GET",
                "Authorization": "Bearer t",
                "content-type": "application/json",
            },
            body={"kn_id": "kn1", "limit": 5},
        ),
        id="undeclared-names-by-naming-rule",
    ),
    pytest.param(
        {"x-filter": {"a": 1}, "X-Account-Id": "u1"},
        {
            "parameters": [{"name": "X-Account-Id", "in": "header"}],
            "requestBody": {
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/B"}}}
            },
            "components": {"schemas": {"B": {"properties": {"x-filter": {"type": "object"}}}}},
        },
        placed(header={"X-Account-Id": "u1"}, body={"x-filter": {"a": 1}}),
        id="declared-body-property-beats-the-naming-rule",
    ),
    pytest.param(
        {"body": [1, 2], "x-a": 1},
        {"requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}}},
        placed(header={"x-a": 1}, body={"body": [1, 2]}),
        id="wrapped-body-is-not-a-declaration",
    ),
    pytest.param(
        {"x-a": 1, "limit": 2},
        {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/nope"}}}}},
        placed(header={"x-a": 1}, body={"limit": 2}),
        id="unreadable-body-falls-back-to-naming",
    ),
    pytest.param(
        {"limit": 5, "x-a": 1},
        {"parameters": "broken"},
        placed(header={"x-a": 1}, body={"limit": 5}),
        id="broken-spec-falls-back-to-naming",
    ),
    pytest.param(
        {"limit": 5},
        {"parameters": [{"name": "limit", "in": "matrix"}, {"in": "query"}]},
        placed(body={"limit": 5}),
        id="unknown-location-falls-back-to-naming",
    ),
]


@pytest.mark.parametrize(("parameters", "spec", "expected"), CASES)
def test_tool_fixed_params(
    parameters: dict[str, Any] | None, spec: Any, expected: dict[str, Any]
) -> None:
    before = copy.deepcopy((parameters, spec))
    assert tool_fixed_params(parameters, spec).model_dump() == expected
    assert (parameters, spec) == before


def test_values_are_copied_not_shared() -> None:
    parameters = {"condition": {"regions": ["north"]}}
    fixed = tool_fixed_params(parameters, SPEC)
    fixed.body["condition"]["regions"].append("south")
    assert parameters == {"condition": {"regions": ["north"]}}


def test_mcp_parameters_are_flat_in_body() -> None:
    parameters = {"x-account-id": "u1", "company_id": "c1", "filter": {"a": [1]}}
    fixed = mcp_fixed_params(parameters)
    assert fixed.model_dump() == placed(body=parameters)
    fixed.body["filter"]["a"].append(2)
    assert parameters["filter"] == {"a": [1]}


def test_mcp_without_parameters() -> None:
    assert mcp_fixed_params(None).model_dump() == placed()
