"""What the MCP test modules share: the two real clients (the `mcp` SDK's and the KWeaver
SDK's context-loader) pointed at a service, raw JSON-RPC posts, and reading tool results."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import httpx2
import jsonschema
import mcp_types as types
from hypothesis import strategies as st
from kweaver.resources.context_loader import ContextLoaderResource
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from multidict import CIMultiDict

from resolver.testing.fake_upstreams import DEMO_KN, DEMO_MCP_AT, DEMO_OT, DEMO_TOOL_AT
from tests.helpers import NOW_MS, json_values, metric, request_body

# The path the KWeaver client uses, the internal one and the short one.
MCP_PATHS = ("/api/agent-retrieval/v1/mcp", "/api/agent-retrieval/in/v1/mcp", "/mcp")
ACCEPT = "application/json, text/event-stream"
# The bearer token the clients send; the service forwards identity headers, never logs it.
TOKEN = "tok-abc"
TOOL_NAMES = {
    "resolve_dynamic_params",
    "get_logic_properties_values",
    "get_logic_property_inputs",
    "get_action_info",
    "resolve_time_window",
}


@contextlib.asynccontextmanager
async def sdk_client(
    url: str, *, headers: dict[str, str] | None = None, mode: str = "legacy"
) -> AsyncIterator[Client]:
    """The `mcp` SDK's client over Streamable HTTP; `mode` legacy (initialize) or auto."""
    async with httpx2.AsyncClient(headers=headers or {}, timeout=60) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode=mode) as client:
            yield client


def kweaver(base_url: str, kn_id: str = DEMO_KN, token: str = TOKEN) -> ContextLoaderResource:
    """The KWeaver SDK's context-loader client of a service (sync: run it in a thread)."""
    return ContextLoaderResource(base_url, token, kn_id)


def result_json(result: types.CallToolResult) -> Any:
    """The JSON a tool result's first text content carries (what several clients read)."""
    first = result.content[0]
    assert isinstance(first, types.TextContent)
    return json.loads(first.text)


def ok_body(result: types.CallToolResult) -> dict[str, Any]:
    """A successful result's body, checked to be the same as text and as structured content."""
    assert not result.is_error, result.content
    body = result_json(result)
    assert result.structured_content == body
    assert isinstance(body, dict)
    return body


def error_body(result: types.CallToolResult) -> dict[str, Any]:
    """A tool error's JSON, checked to carry the HTTP error shape and the kweaver fields, as
    its text and as its structuredContent alike."""
    assert result.is_error, result.content
    body = result_json(result)
    assert isinstance(body, dict)
    assert result.structured_content == body
    assert body["error"]["code"]
    assert body["_error"]
    assert "\n" not in body["_error"]
    assert body["trace_id"]
    assert body["error_code"]
    assert body["message"]
    assert "Traceback" not in json.dumps(body)
    return body


def values_arguments(query: str, **extra: Any) -> dict[str, Any]:
    """`get_logic_properties_values` arguments as the KWeaver client sends them (no kn_id)."""
    return {
        "ot_id": DEMO_OT,
        "query": query,
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": ["approved_drug_count"],
        **extra,
    }


def assert_valid_schema(schema: dict[str, Any]) -> None:
    """A JSON Schema (2020-12) object with no `$ref` left."""
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert "$ref" not in json.dumps(schema)


async def post_jsonrpc(
    session: aiohttp.ClientSession,
    url: str,
    message: dict[str, Any],
    headers: dict[str, str] | None = None,
) -> tuple[int, CIMultiDict[str], Any]:
    """POST one JSON-RPC message; the status, headers and parsed body (None when empty)."""
    sent = {"Accept": ACCEPT, "Content-Type": "application/json", **(headers or {})}
    async with session.post(url, data=json.dumps(message), headers=sent) as response:
        raw = await response.read()
        return response.status, CIMultiDict(response.headers), json.loads(raw) if raw else None


def initialize_message(request_id: int = 1, version: str = "2024-11-05") -> dict[str, Any]:
    """The `initialize` request the KWeaver client sends."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"},
        },
    }


def call_message(request_id: int, name: str, arguments: Any) -> dict[str, Any]:
    """A `tools/call` request."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


async def call_tool(
    client: Any,
    tool: str,
    arguments: dict[str, Any],
    *,
    path: str = "/mcp",
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One `tools/call` POSTed to an aiohttp test client; the JSON-RPC answer (HTTP 200).

    Read with `json`, not orjson: integers beyond 64 bits must stay integers.
    """
    response = await client.post(
        path,
        data=json.dumps(call_message(1, tool, arguments)),
        headers={
            "Content-Type": "application/json",
            "Accept": ACCEPT,
            "MCP-Protocol-Version": "2025-06-18",
            **(headers or {}),
        },
    )
    text = await response.text()
    assert response.status == 200, text
    answer: dict[str, Any] = json.loads(text)
    return answer


ENVELOPE = {"conversation_id": "conv_1", "interaction_id": "int_1"}


# --- generated requests (test_fast_path.py, test_fast_path_parse.py) ---------------------------

# A call of every tool, and of every error class a body alone can reach: the seeds.
SEEDS: list[tuple[str, Any]] = [
    ("resolve_dynamic_params", request_body(metric(), query="最近3个月的药品数量趋势")),
    (
        "get_logic_properties_values",
        values_arguments(
            "当前的获批药品数量", dynamic_params={"approved_drug_count": {"instant": True}}
        ),
    ),
    ("get_logic_property_inputs", {"ot_id": DEMO_OT}),
    ("get_action_info", {"at_id": DEMO_TOOL_AT, "_instance_identity": {"company_id": "c1"}}),
    ("get_action_info", {"at_id": DEMO_MCP_AT, "_instance_identity": {"company_id": "c1"}}),
    (
        "resolve_time_window",
        {"text": "最近3个月", "now_ms": NOW_MS, "unit": "s", "timezone": "纽约"},
    ),
    (
        "resolve_dynamic_params",
        {**request_body(metric()), "bkn_context": ENVELOPE, "response_format": "toon"},
    ),
    ("resolve_time_window", {"text": "上个季度", "now_ms": NOW_MS, "response_format": "toon"}),
    ("get_logic_properties_values", {**values_arguments("q", now_ms=NOW_MS), "query": 5}),
    ("resolve_time_window", {"text": "上个月", "when": "now", "now_ms": NOW_MS}),
    ("resolve_dynamic_params", None),
    ("resolve_dynamic_params", request_body(metric(), timezone="Mars/Base")),
    (
        "get_logic_property_inputs",
        {"ot_id": DEMO_OT, "bkn_context": {**ENVELOPE, "operation_key": "k"}},
    ),
    ("get_logic_properties_values", values_arguments("获批药品数量的趋势", now_ms=NOW_MS)),
    ("resolve_time_window", {"text": "last month or later", "now_ms": NOW_MS}),
    ("get_logic_property_inputs", {"ot_id": "ot_nowhere"}),
    ("get_action_info", {"at_id": "at_nowhere", "_instance_identity": {"company_id": "c1"}}),
]

ANY_JSON = json_values(leaves=6)


@st.composite
def mutated(draw: st.DrawFn, value: Any) -> Any:
    """A seed's arguments as sent, or with one member dropped, changed or added."""
    how = draw(st.sampled_from(["as-is", "as-is", "drop", "change", "add", "replace"]))
    if how == "replace" or not isinstance(value, dict) or (how != "add" and not value):
        return draw(ANY_JSON) if how == "replace" else value
    changed = dict(value)
    if how == "add":
        changed[draw(st.text(max_size=10))] = draw(ANY_JSON)
        return changed
    # The clock stays: an answer read at the server's clock differs between two calls made
    # a moment apart (the two paths are compared on their bytes).
    keys = sorted(k for k in changed if k != "now_ms")
    if not keys:
        return value
    key = draw(st.sampled_from(keys))
    if how == "drop":
        del changed[key]
    elif how == "change":
        changed[key] = draw(ANY_JSON)
    return changed


@st.composite
def bodies(draw: st.DrawFn) -> Any:
    """A JSON-RPC body: mostly `tools/call`s, some anything else."""
    tool, arguments = draw(st.sampled_from(SEEDS))
    name = draw(st.sampled_from([tool] * 6 + ["drop_tables", ["resolve_time_window"]]))
    params: dict[str, Any] = {"name": name}
    if arguments is not None or draw(st.booleans()):
        params["arguments"] = draw(mutated(arguments if arguments is not None else {}))
    extra = draw(st.sampled_from([None] * 8 + ["_meta", "task", "cursor"]))
    if extra is not None:
        params[extra] = draw(ANY_JSON)
    sent: dict[str, Any] = {
        "jsonrpc": draw(st.sampled_from(["2.0"] * 12 + ["1.0", 2])),
        "id": draw(st.sampled_from([7] * 4 + ["call-1", 0, -5, 2**63 - 1, 2**70, 1.5, None, True])),
        "method": draw(st.sampled_from(["tools/call"] * 12 + ["tools/list", "ping", "x"])),
        "params": params,
    }
    shape = draw(st.sampled_from(["call"] * 16 + ["notification", "extra", "batch", "no-params"]))
    if shape == "notification":
        del sent["id"]
    elif shape == "extra":
        sent["extra"] = draw(ANY_JSON)
    elif shape == "batch":
        return [sent]
    elif shape == "no-params":
        del sent["params"]
    return sent
