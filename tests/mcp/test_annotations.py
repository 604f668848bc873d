"""Tool annotations as SPEC §8 and upstream (`driveradapters/mcp/annotations_test.go`) want
them, read through the official `mcp` client and on the wire: every tool states
`readOnlyHint: true`, carries neither `destructiveHint` nor `idempotentHint` (defined only for
tools that write), and `openWorldHint: false` (its domain is the knowledge network, the
deployment's LLM or the clock)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from resolver.mcp.server import annotations_of
from resolver.mcp.tools import TOOLS, ToolSpec
from tests.helpers import ClientFactory
from tests.mcp_checks import ACCEPT, TOOL_NAMES, sdk_client

READ_ONLY_KN_OR_CLOCK = {"resolve_time_window", "get_logic_property_inputs"}


@pytest.fixture
async def client(make_client: ClientFactory) -> TestClient[Any, Any]:
    return await make_client(llm=False)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_the_mcp_client_reads_the_policy(client: TestClient[Any, Any], mode: str) -> None:
    async with sdk_client(str(client.make_url("/mcp")), mode=mode) as sdk:
        listed = await sdk.list_tools()
    assert {tool.name for tool in listed.tools} == TOOL_NAMES
    for tool in listed.tools:
        hints = tool.annotations
        assert hints is not None, tool.name
        assert hints.read_only_hint is True, tool.name
        assert hints.destructive_hint is None, tool.name
        assert hints.idempotent_hint is None, tool.name
        assert hints.open_world_hint is False, tool.name
        assert hints.title == tool.title
    assert {tool.name for tool in listed.tools} >= READ_ONLY_KN_OR_CLOCK


async def test_on_the_wire_the_write_hints_are_absent(client: TestClient[Any, Any]) -> None:
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    response = await client.post(
        "/mcp",
        data=json.dumps(message),
        headers={"Content-Type": "application/json", "Accept": ACCEPT},
    )
    tools = (await response.json())["result"]["tools"]
    for tool in tools:
        assert set(tool["annotations"]) == {"title", "readOnlyHint", "openWorldHint"}, tool


def test_a_writing_tool_could_not_be_listed_without_its_write_hints() -> None:
    writer = ToolSpec(
        name="execute_action",
        title="Execute",
        description="writes",
        input_schema={},
        output_schema={},
        run=TOOLS[0].run,
        read_only=False,
    )
    with pytest.raises(ValueError, match="destructiveHint and idempotentHint"):
        annotations_of(writer)
