"""Action recall's `output_schema` (tool actions only): the tool's 2xx JSON answer schema, `200`
first, `$ref`s inlined, left out when there is none and never for MCP — as a unit and over
HTTP against the fake operator-integration."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema
import orjson
import pytest

from resolver.core.errors import SchemaConversionError
from resolver.testing.fake_upstreams import (
    DEMO_BOX_ID,
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    DEMO_TOOL_AT,
    DEMO_TOOL_ID,
    add_demo_actions,
    demo_mcp_tool,
    demo_tool,
)
from resolver.toolschema import output_schema
from tests.helpers import ClientFactory, KnFakes

RECALL = "/api/agent-retrieval/in/v1/kn/get_action_info"
OBJECT = {"type": "object", "properties": {"id": {"type": "string"}}}


def json_content(schema: Any) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


@pytest.mark.parametrize(
    ("responses", "expected_id"),
    [
        pytest.param(
            [
                {"status_code": "201", "content": json_content({**OBJECT, "description": "201"})},
                {"status_code": "200", "content": json_content({**OBJECT, "description": "200"})},
            ],
            "200",
            id="200-first",
        ),
        pytest.param(
            [
                {"status_code": 204, "content": json_content({**OBJECT, "description": "204"})},
                {"status_code": 201, "content": json_content({**OBJECT, "description": "201"})},
                {"status_code": 400, "content": json_content({**OBJECT, "description": "400"})},
            ],
            "201",
            id="else-the-lowest-2xx",
        ),
        pytest.param(
            {
                "default": {"content": json_content({**OBJECT, "description": "default"})},
                "2XX": {"content": json_content({**OBJECT, "description": "2XX"})},
                "202": {"content": json_content({**OBJECT, "description": "202"})},
            },
            "202",
            id="openapi-map-form",
        ),
        pytest.param(
            {"2XX": {"content": json_content({**OBJECT, "description": "2XX"})}},
            "2XX",
            id="2XX",
        ),
    ],
)
def test_which_response(responses: Any, expected_id: str) -> None:
    schema = output_schema({"responses": responses}, tool="t")
    assert schema is not None
    assert schema["description"] == expected_id


@pytest.mark.parametrize(
    "responses",
    [
        pytest.param(None, id="none"),
        pytest.param([], id="empty"),
        pytest.param([{"status_code": "400", "content": json_content(OBJECT)}], id="only-4xx"),
        pytest.param(
            [{"status_code": "200", "content": {"text/plain": {"schema": OBJECT}}}], id="not-json"
        ),
        pytest.param(
            [{"status_code": "200", "content": {"application/problem+json": {"schema": OBJECT}}}],
            id="other-json-type",
        ),
        pytest.param([{"status_code": "200"}], id="no-content"),
        pytest.param([{"status_code": "200", "content": json_content({})}], id="empty-schema"),
        pytest.param(
            [{"status_code": "200", "content": json_content({"type": "object"})}],
            id="object-without-properties",
        ),
        pytest.param([{"status_code": "200", "content": {"application/json": {}}}], id="no-schema"),
    ],
)
def test_left_out_when_there_is_none(responses: Any) -> None:
    spec = {} if responses is None else {"responses": responses}
    assert output_schema(spec, tool="t") is None


def test_refs_are_inlined_descriptions_enums_and_read_only_kept() -> None:
    spec = {
        "responses": [
            {
                "status_code": "200",
                "content": {
                    "application/json; charset=utf-8": {
                        "schema": {"$ref": "#/components/schemas/Result"}
                    }
                },
            }
        ],
        "components": {
            "schemas": {
                "Result": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "readOnly": True, "description": "assigned"},
                        "level": {"$ref": "#/components/schemas/Level"},
                    },
                    "required": ["id"],
                },
                "Level": {"type": "string", "enum": ["low", "high"], "description": "风险等级"},
            }
        },
    }
    original = copy.deepcopy(spec)
    schema = output_schema(spec, tool="assess")
    assert schema == {
        "type": "object",
        "properties": {
            "id": {"type": "string", "description": "assigned"},
            "level": {"type": "string", "enum": ["low", "high"], "description": "风险等级"},
        },
        "required": ["id"],
        "description": "What assess answers: the body of its HTTP 200 response.",
    }
    jsonschema.Draft202012Validator.check_schema(schema)
    assert spec == original


def test_a_response_ref_is_followed_and_a_broken_one_named() -> None:
    spec: dict[str, Any] = {
        "responses": {"200": {"$ref": "#/components/responses/Ok"}},
        "components": {"responses": {"Ok": {"content": json_content(OBJECT)}}},
    }
    assert output_schema(spec, tool="t") == {
        **OBJECT,
        "description": "What t answers: the body of its HTTP 200 response.",
    }
    spec["responses"]["200"]["$ref"] = "#/components/responses/Missing"
    with pytest.raises(SchemaConversionError, match="Missing"):
        output_schema(spec, tool="t")


# --- over HTTP ------------------------------------------------------------------------------


async def recall(client: Any, at_id: str) -> dict[str, Any]:
    body = {"kn_id": DEMO_KN, "at_id": at_id, "unique_identity": {"company_id": "c1"}}
    response = await client.post(
        RECALL, data=orjson.dumps(body), headers={"Content-Type": "application/json"}
    )
    answer = orjson.loads(await response.read())
    assert response.status == 200, answer
    (tool,) = answer["_dynamic_tools"]
    assert isinstance(tool, dict)
    return tool


async def test_a_tool_action_carries_its_output_schema(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    client = await make_kn_client(llm=False)
    tool = await recall(client, DEMO_TOOL_AT)
    assert tool["output_schema"] == {
        "type": "object",
        "required": ["level"],
        "properties": {
            "level": {
                "type": "string",
                "enum": ["low", "medium", "high"],
                "description": "风险等级",
            },
            "dimensions": {
                "type": "array",
                "items": {"type": "string", "enum": ["legal", "finance", "operation"]},
            },
        },
        "description": "What assess_company_risk answers: the body of its HTTP 200 response.",
    }
    assert tool["original_schema"] == demo_tool()["api_spec"]


async def test_metadata_api_spec_is_read_and_no_responses_leaves_it_out(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    record = demo_tool()
    spec = record.pop("api_spec")
    record["metadata"] = {"api_spec": spec}  # operator-integration's own form
    kn_fakes.operators.tools[(DEMO_BOX_ID, DEMO_TOOL_ID)] = record
    client = await make_kn_client(llm=False)
    tool = await recall(client, DEMO_TOOL_AT)
    assert tool["output_schema"]["required"] == ["level"]
    assert "dimensions" in tool["parameters"]["properties"]
    del spec["responses"]
    tool = await recall(client, DEMO_TOOL_AT)
    assert "output_schema" not in tool


async def test_a_broken_output_schema_is_left_out_not_fatal(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    record = demo_tool()
    record["api_spec"]["responses"][1]["content"]["application/json"]["schema"] = {
        "$ref": "#/components/schemas/Nowhere"
    }
    kn_fakes.operators.tools[(DEMO_BOX_ID, DEMO_TOOL_ID)] = record
    client = await make_kn_client(llm=False)
    tool = await recall(client, DEMO_TOOL_AT)
    assert "output_schema" not in tool
    assert tool["parameters"]["properties"]


async def test_never_for_mcp_even_with_an_output_schema(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)] = {
        **demo_mcp_tool(),
        "outputSchema": OBJECT,
    }
    client = await make_kn_client(llm=False, public_url="https://r.example.com")
    tool = await recall(client, DEMO_MCP_AT)
    assert "output_schema" not in tool
