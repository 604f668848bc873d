"""Whole `_dynamic_tools` entries: tool-box tools, MCP tools, URLs and the upstream models."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from resolver.actions.models import DynamicTool
from resolver.actions.tools import build_mcp_tool, build_tool
from resolver.actions.urls import mcp_api_url, tool_api_url
from resolver.core.errors import SchemaConversionError
from resolver.upstreams.models import Action, McpToolDetail, ToolDetail
from tests.actions_checks import assert_function_parameters, keys_anywhere

OPERATOR = "http://agent-operator-integration:9000"
PUBLIC = "http://resolver.internal:8080/"
BOX, TOOL = "e59f35f8-65f3-46bb-b5f1-a428380b3edc", "7acb8add-ecd0-45cf-bd4d-57674c3c69b0"

API_SPEC: dict[str, Any] = {
    "parameters": [
        {
            "name": "kn_id",
            "in": "path",
            "description": "业务知识网络ID",
            "schema": {"type": "string"},
        },
        {"name": "ot_id", "in": "path", "description": "对象类ID", "schema": {"type": "string"}},
        {"name": "x-account-id", "in": "header", "required": True, "schema": {"type": "string"}},
    ],
    "request_body": {
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Query"}}}
    },
    "components": {
        "schemas": {
            "Query": {
                "type": "object",
                "properties": {
                    "condition": {"type": "object", "description": "过滤条件"},
                    "limit": {"type": "integer", "description": "返回的数量"},
                },
                "required": ["limit"],
            }
        }
    },
}

ACTION = Action.model_validate(
    {
        "parameters": {
            "X-Account-ID": "u1",
            "kn_id": "kn_medical",
            "X-HTTP-Method-Override": "GET",
        },
        "dynamic_params": {"limit": None, "condition": {"marker": "dynamic-only"}, "ot_id": None},
    }
)


def tool_detail(name: str = "search_object_instance") -> ToolDetail:
    return ToolDetail.model_validate(
        {"name": name, "description": "查询对象实例数据。", "api_spec": copy.deepcopy(API_SPEC)}
    )


def test_tool_entry() -> None:
    detail = tool_detail()
    tool = build_tool(detail, ACTION, box_id=BOX, tool_id=TOOL, operator_integration_url=OPERATOR)
    assert tool.model_dump() == {
        "name": "search_object_instance",
        "description": "查询对象实例数据。",
        "parameters": {
            "type": "object",
            "properties": {
                "kn_id": {"type": "string", "description": "业务知识网络ID"},
                "ot_id": {"type": "string", "description": "对象类ID"},
                "x-account-id": {"type": "string"},
                "condition": {"type": "object", "description": "过滤条件"},
                "limit": {"type": "integer", "description": "返回的数量"},
            },
            # kn_id and the header are fixed by the action: the model need not invent them.
            "required": ["ot_id", "limit"],
        },
        "api_url": (
            f"{OPERATOR}/api/agent-operator-integration/internal-v1/tool-box/{BOX}/proxy/{TOOL}"
        ),
        "original_schema": API_SPEC,
        "fixed_params": {
            "header": {"X-Account-ID": "u1", "X-HTTP-Method-Override": "GET"},
            "path": {"kn_id": "kn_medical"},
            "query": {},
            "body": {},
        },
    }
    assert_function_parameters(tool.parameters)
    assert detail.api_spec == API_SPEC
    assert tool.original_schema is not detail.api_spec


def test_dynamic_params_are_never_copied() -> None:
    tool = build_tool(
        tool_detail(), ACTION, box_id=BOX, tool_id=TOOL, operator_integration_url=OPERATOR
    )
    dumped = tool.model_dump()
    assert "marker" not in set(keys_anywhere(dumped["fixed_params"]))
    assert "dynamic_params" not in set(keys_anywhere(dumped))
    assert all(
        name not in ACTION.dynamic_params
        for bucket in dumped["fixed_params"].values()
        for name in bucket
    )


def test_chinese_tool_name_becomes_a_valid_name_and_leads_the_description() -> None:
    tool = build_tool(
        tool_detail("根据单个对象类查询对象实例"),
        Action(),
        box_id=BOX,
        tool_id=TOOL,
        operator_integration_url=OPERATOR,
    )
    assert tool.name == TOOL
    assert tool.description == "根据单个对象类查询对象实例: 查询对象实例数据。"
    assert tool.parameters["required"] == ["kn_id", "ot_id", "x-account-id", "limit"]


def test_conversion_errors_propagate() -> None:
    detail = ToolDetail(
        name="t",
        api_spec={
            "parameters": [{"name": "limit", "in": "query"}],
            "requestBody": {
                "content": {"application/json": {"schema": {"properties": {"limit": {}}}}}
            },
        },
    )
    with pytest.raises(SchemaConversionError, match="'limit' is defined in both query and body"):
        build_tool(detail, Action(), box_id=BOX, tool_id=TOOL, operator_integration_url=OPERATOR)


INPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "company_id": {"type": "string"},
        "filter": {"$ref": "#/$defs/Filter"},
    },
    "required": ["company_id", "filter"],
    "$defs": {
        "Filter": {
            "type": "object",
            "properties": {"regions": {"type": "array", "items": {"type": "string"}}},
        }
    },
}


def test_mcp_entry() -> None:
    detail = McpToolDetail.model_validate(
        {
            "name": "query_risk",
            "description": "Risk of a company.",
            "inputSchema": copy.deepcopy(INPUT_SCHEMA),
            "annotations": {"readOnlyHint": True},
        }
    )
    action = Action(
        parameters={"company_id": "c1", "x-account-id": "u1"}, dynamic_params={"filter": None}
    )
    tool = build_mcp_tool(detail, action, mcp_id="mcp 1", tool_name="query_risk", public_url=PUBLIC)
    assert tool.model_dump() == {
        "name": "query_risk",
        "description": "Risk of a company.",
        "parameters": {
            "type": "object",
            "properties": {
                "company_id": {"type": "string"},
                "filter": {
                    "type": "object",
                    "properties": {"regions": {"type": "array", "items": {"type": "string"}}},
                },
            },
            "required": ["filter"],
        },
        "api_url": "http://resolver.internal:8080/api/agent-retrieval/in/v1/mcp/proxy/mcp%201/tools/query_risk/call",
        "original_schema": INPUT_SCHEMA,
        "fixed_params": {
            "header": {},
            "path": {},
            "query": {},
            "body": {"company_id": "c1", "x-account-id": "u1"},
        },
    }
    assert_function_parameters(tool.parameters)
    assert detail.input_schema == INPUT_SCHEMA


def test_mcp_chinese_name() -> None:
    detail = McpToolDetail.model_validate(
        {"name": "查询企业风险", "description": None, "inputSchema": None}
    )
    tool = build_mcp_tool(detail, Action(), mcp_id="m", tool_name="查询企业风险", public_url=PUBLIC)
    assert tool.name.startswith("tool_")
    assert tool.description == "查询企业风险"
    assert tool.parameters == {"type": "object", "properties": {}}
    assert tool.api_url.endswith(
        "/tools/%E6%9F%A5%E8%AF%A2%E4%BC%81%E4%B8%9A%E9%A3%8E%E9%99%A9/call"
    )


URLS = [
    pytest.param(
        tool_api_url("http://op:9000/", "b", "t"),
        "http://op:9000/api/agent-operator-integration/internal-v1/tool-box/b/proxy/t",
        id="tool-trailing-slash",
    ),
    pytest.param(
        tool_api_url("http://op", "a/b", "t?x=1#f"),
        "http://op/api/agent-operator-integration/internal-v1/tool-box/a%2Fb/proxy/t%3Fx%3D1%23f",
        id="tool-ids-quoted",
    ),
    pytest.param(
        mcp_api_url("https://r.example/base", "m", "ns/tool"),
        "https://r.example/base/api/agent-retrieval/in/v1/mcp/proxy/m/tools/ns%2Ftool/call",
        id="mcp-base-path-kept",
    ),
]


@pytest.mark.parametrize(("url", "expected"), URLS)
def test_urls(url: str, expected: str) -> None:
    assert url == expected


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda: tool_api_url("http://op", "", "t"), id="empty-box"),
        pytest.param(lambda: tool_api_url("http://op", "b", ""), id="empty-tool"),
        pytest.param(lambda: mcp_api_url("http://r", "", "t"), id="empty-mcp"),
        pytest.param(lambda: mcp_api_url("http://r", "m", ""), id="empty-tool-name"),
        # The one id rule (resolver.core.ids): an id the MCP proxy would refuse is never
        # handed out in an api_url either.
        pytest.param(lambda: mcp_api_url("http://r", "..", "t"), id="dot-dot-mcp"),
        pytest.param(lambda: mcp_api_url("http://r", "m", "."), id="dot-tool-name"),
        pytest.param(lambda: tool_api_url("http://op", "b", " "), id="blank-tool"),
    ],
)
def test_unusable_ids_are_refused(call: Any) -> None:
    with pytest.raises(ValueError, match=r"must not be blank|not a path segment"):
        call()


def test_upstream_models_read_nulls_as_empty_and_ignore_extras() -> None:
    detail = ToolDetail.model_validate(
        {"name": "t", "description": None, "api_spec": None, "box_id": "b"}
    )
    assert (detail.description, detail.api_spec) == ("", {})
    action = Action.model_validate(
        {"parameters": None, "dynamic_params": None, "_instance_id": "i"}
    )
    assert (action.parameters, action.dynamic_params) == ({}, {})
    mcp = McpToolDetail.model_validate({"name": "m", "input_schema": {"type": "object"}})
    assert mcp.input_schema == {"type": "object"}


def test_dynamic_tool_refuses_an_invalid_name() -> None:
    with pytest.raises(ValueError, match="should match pattern"):
        DynamicTool(
            name="查询",
            description="",
            parameters={},
            api_url="",
            original_schema={},
            fixed_params={},
        )
