"""`GET …/mcp/info` (SPEC §8): the catalogue the successor SDK probes before it connects — the
server as `initialize` names it, the protocol versions, the tools of `tools/list` by name and
description and no lifecycle tools — at each MCP path, and in `/openapi.json`."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient

from tests.helpers import ClientFactory
from tests.mcp_checks import MCP_PATHS, TOOL_NAMES, initialize_message, post_jsonrpc

INFO_PATHS = [f"{path}/info" for path in MCP_PATHS]


@pytest.fixture
async def service(make_client: ClientFactory) -> TestClient[Any, Any]:
    return await make_client(llm=False)


@pytest.mark.parametrize("path", INFO_PATHS)
async def test_the_catalogue_is_what_a_session_would_show(
    service: TestClient[Any, Any], path: str
) -> None:
    response = await service.get(path, headers={"x-trace-id": "probe-1"})
    assert response.status == 200
    assert response.content_type == "application/json"
    info = await response.json()
    assert info["trace_id"] == response.headers["x-trace-id"] == "probe-1"
    url = str(service.make_url("/mcp"))
    async with aiohttp.ClientSession() as session:
        _, _, initialized = await post_jsonrpc(session, url, initialize_message())
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
        _, _, listed = await post_jsonrpc(session, url, listing)
    assert info["server"] == {
        "name": initialized["result"]["serverInfo"]["name"],
        "version": initialized["result"]["serverInfo"]["version"],
    }
    assert info["server"]["name"] == "resolver"
    assert info["tools"] == [
        {"name": tool["name"], "description": tool["description"]}
        for tool in listed["result"]["tools"]
    ]
    assert {tool["name"] for tool in info["tools"]} == TOOL_NAMES
    # No lifecycle tools (upstream's bkn_start_interaction, …): clients then use none.
    assert not [t for t in info["tools"] if t["name"].startswith("bkn_")]
    versions = info["protocol_versions"]
    assert versions[0] == "2024-11-05"  # the KWeaver client's
    assert {"2025-03-26", "2025-06-18"} <= set(versions)
    assert versions == sorted(versions)


async def test_every_protocol_version_it_names_is_served(service: TestClient[Any, Any]) -> None:
    versions = (await (await service.get(INFO_PATHS[0])).json())["protocol_versions"]
    url = str(service.make_url("/mcp"))
    async with aiohttp.ClientSession() as session:
        for version in versions:
            if version >= "2026":
                continue  # the stateless revision has no initialize; test_http covers it
            _, _, answer = await post_jsonrpc(session, url, initialize_message(version=version))
            assert answer["result"]["protocolVersion"] == version


async def test_the_catalogue_is_in_the_openapi_document(service: TestClient[Any, Any]) -> None:
    document = await (await service.get("/openapi.json")).json()
    for path in INFO_PATHS:
        operation = document["paths"][path]["get"]
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/McpInfoResponse"}
    properties = document["components"]["schemas"]["McpInfoResponse"]["properties"]
    assert set(properties) == {"server", "protocol_versions", "tools", "trace_id"}


async def test_only_get_is_served(service: TestClient[Any, Any]) -> None:
    response = await service.post(INFO_PATHS[0], json={})
    assert response.status == 405
