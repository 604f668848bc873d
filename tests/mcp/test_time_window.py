"""The MCP tool `resolve_time_window` over Streamable HTTP, driven by the `mcp` SDK's client:
listed with its schema from the HTTP model, answering exactly what `POST /v1/time-window`
answers, and a text that settles nothing as a tool error carrying the 422 body (`unread`,
`ask`) — the same failure path as every other tool."""

from __future__ import annotations

from typing import Any

import orjson
from aiohttp.test_utils import TestClient

from resolver.mcp.tools import WINDOW
from resolver.testing.fake_llm import FakeLLM
from resolver.windows.models import TimeWindowResponse
from tests.helpers import NOW_MS, ClientFactory
from tests.mcp_checks import error_body, ok_body, result_json, sdk_client

TOOL = "resolve_time_window"


async def http_answer(client: TestClient[Any, Any], body: dict[str, Any]) -> dict[str, Any]:
    response = await client.post("/v1/time-window", json=body)
    answer: dict[str, Any] = orjson.loads(await response.read())
    return answer


def without_trace(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "trace_id"}


async def test_listed_with_the_http_models_schema(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    async with sdk_client(str(client.make_url("/mcp"))) as mcp:
        listed = {tool.name: tool for tool in (await mcp.list_tools()).tools}
    tool = listed[TOOL]
    assert tool.input_schema == WINDOW.input_schema
    assert tool.input_schema["required"] == ["text"]
    assert tool.input_schema["additionalProperties"] is False
    assert tool.output_schema is not None
    assert set(tool.output_schema["properties"]) == set(TimeWindowResponse.model_fields)
    assert "TIME_UNSETTLED" in (tool.description or "")


async def test_the_answer_is_the_http_answer(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    client = await make_client()
    arguments = {"text": "最近3个月", "now_ms": NOW_MS, "unit": "s", "timezone": "纽约"}
    async with sdk_client(str(client.make_url("/mcp"))) as mcp:
        result = await mcp.call_tool(TOOL, arguments)
        toon = await mcp.call_tool(TOOL, {**arguments, "response_format": "toon"})
    body = ok_body(result)
    assert without_trace(body) == without_trace(await http_answer(client, arguments))
    assert (body["unit"], body["timezone"], body["step"]) == ("s", "America/New_York", "month")
    assert toon.structured_content is not None
    assert toon.structured_content["start"] == body["start"]
    assert not fake_llm.calls


async def test_an_unsettled_text_is_a_tool_error_with_the_422_body(
    make_client: ClientFactory,
) -> None:
    client = await make_client(llm=False)
    arguments = {"text": "last month or later", "now_ms": NOW_MS}
    async with sdk_client(
        str(client.make_url("/mcp")), headers={"Accept-Language": "zh-CN"}
    ) as mcp:
        result = await mcp.call_tool(TOOL, arguments)
    body = error_body(result)
    assert (body["error_code"], body["status"]) == ("TIME_UNSETTLED", 422)
    assert body["unread"] == ["or later"]
    assert body["ask"].startswith("无法确定时间：“or later”；请改写 text")  # Accept-Language
    http = await http_answer(client, {**arguments, "language": "zh"})
    assert without_trace(http).items() <= without_trace(body).items()


async def test_bad_arguments_are_a_tool_error_naming_the_field(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    async with sdk_client(str(client.make_url("/mcp"))) as mcp:
        unknown = await mcp.call_tool(TOOL, {"text": "上个月", "when": "now"})
        zone = await mcp.call_tool(TOOL, {"text": "上个月", "timezone": "Atlantis"})
    assert error_body(unknown)["error"]["details"][0]["loc"] == "when"
    assert "unknown timezone" in result_json(zone)["message"]


async def test_the_envelope_is_taken_off_as_for_every_tool(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    envelope = {"conversation_id": "c-1", "interaction_id": "i-1"}
    async with sdk_client(str(client.make_url("/mcp"))) as mcp:
        carried = await mcp.call_tool(TOOL, {"text": "上个季度", "bkn_context": envelope})
        wrong = await mcp.call_tool(TOOL, {"text": "上个季度", "bkn_context": {"x": 1}})
    assert ok_body(carried)["step"] == "quarter"
    assert error_body(wrong)["error_code"] == "INVALID_BUSINESS_CONTEXT"
    assert WINDOW.input_schema["properties"]["bkn_context"]["description"]
