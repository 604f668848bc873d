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
from kweaver.resources.context_loader import ContextLoaderResource
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from multidict import CIMultiDict

from resolver.testing.fake_upstreams import DEMO_KN, DEMO_OT

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
