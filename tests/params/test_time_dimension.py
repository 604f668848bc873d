"""`time_dimension` on a metric logic property (SPEC §9.1) over `/v1/dynamic-params`: absent is
unknown (as before); null, {} or no property says the metric has none — its only window is the
current value, and a question or caller naming a period is a 422 whose ask says so, with no LLM
call."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from aiohttp.test_utils import TestClient

from resolver.testing.fake_llm import FakeLLM
from tests.helpers import NOW_MS, ClientFactory
from tests.mcp_checks import error_body, ok_body, sdk_client

METRIC_PARAMS = [
    {"name": name, "value_from": "input", "if_system_generate": True}
    for name in ("instant", "start", "end", "step")
] + [{"name": "company_id", "value_from": "property"}]
NO_DIMENSION_ZH = "该指标没有时间维度，只能查询当前值"


def metric(**extra: Any) -> dict[str, Any]:
    return {"name": "headcount", "type": "metric", "parameters": METRIC_PARAMS, **extra}


async def resolve(
    client: TestClient[Any, Any], query: str, prop: dict[str, Any], **body: Any
) -> tuple[int, dict[str, Any]]:
    response = await client.post(
        "/v1/dynamic-params",
        json={"logic_properties": [prop], "query": query, "now_ms": NOW_MS, **body},
    )
    return response.status, orjson.loads(await response.read())


@pytest.mark.parametrize("dimension", [None, {}, {"property": ""}, {"default_range_policy": "x"}])
async def test_no_time_dimension_is_the_current_value_only(
    make_client: ClientFactory, fake_llm: FakeLLM, dimension: dict[str, Any] | None
) -> None:
    client = await make_client()
    status, body = await resolve(client, "员工人数", metric(time_dimension=dimension))
    assert status == 200, body
    assert body["dynamic_params"] == {"headcount": {"instant": True}}
    status, body = await resolve(client, "当前员工人数", metric(time_dimension=dimension))
    assert (status, body["dynamic_params"]) == (200, {"headcount": {"instant": True}})
    assert not fake_llm.calls


@pytest.mark.parametrize(
    ("query", "language", "unread"),
    [
        ("最近3个月的员工人数趋势", "zh", []),
        ("headcount last quarter", "en", []),
        ("2024年3月前后的员工人数", "zh", ["前后"]),  # a period it cannot even read
    ],
)
async def test_a_period_for_a_metric_without_one_is_a_422_saying_so(
    make_client: ClientFactory, fake_llm: FakeLLM, query: str, language: str, unread: list[str]
) -> None:
    client = await make_client()
    status, body = await resolve(client, query, metric(time_dimension=None))
    assert status == 422, body
    [missing] = body["missing"]
    assert missing["property"] == "headcount"
    assert missing["params"] == ["start", "end", "step"]
    if language == "zh":
        assert NO_DIMENSION_ZH in missing["ask"]
    else:
        assert "no time dimension" in missing["ask"]
        assert "current value" in missing["ask"]
    for word in unread:
        assert word in missing["ask"]
    assert missing["ask"] in body["_error"]
    assert not fake_llm.calls  # no LLM is asked for a window that cannot exist


async def test_a_caller_window_for_a_metric_without_one_is_refused_too(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client()
    supplied = {
        "headcount": {"instant": False, "start": NOW_MS - 86_400_000, "end": NOW_MS, "step": "day"}
    }
    status, body = await resolve(
        client, "员工人数", metric(time_dimension={}), dynamic_params=supplied
    )
    assert status == 422, body
    assert NO_DIMENSION_ZH in body["missing"][0]["ask"]
    status, body = await resolve(
        client, "员工人数", metric(time_dimension={}), additional_context="instant=false"
    )
    assert status == 422, body
    assert not fake_llm.calls


async def test_a_time_dimension_or_none_said_keeps_the_window(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client()
    for prop in (metric(), metric(time_dimension={"property": "hire_date"})):
        status, body = await resolve(client, "最近3个月的员工人数趋势", prop)
        assert status == 200, body
        window = body["dynamic_params"]["headcount"]
        assert (window["instant"], window["step"]) == (False, "month")
        assert window["end"] == NOW_MS


async def test_the_ask_follows_accept_language(make_client: ClientFactory) -> None:
    client = await make_client()
    response = await client.post(
        "/v1/dynamic-params",
        json={
            "logic_properties": [metric(time_dimension=None)],
            "query": "最近3个月的员工人数",
            "now_ms": NOW_MS,
        },
        headers={"Accept-Language": "en"},
    )
    body = orjson.loads(await response.read())
    assert response.status == 422
    assert "no time dimension" in body["missing"][0]["ask"]


async def test_openapi_documents_time_dimension(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    spec = orjson.loads(await (await client.get("/openapi.json")).read())
    text = orjson.dumps(spec).decode()
    assert "time_dimension" in text
    assert "current value" in text


async def test_the_mcp_tool_takes_time_dimension(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    arguments = {"logic_properties": [metric(time_dimension=None)], "now_ms": NOW_MS}
    async with sdk_client(str(client.make_url("/mcp"))) as mcp:
        current = await mcp.call_tool("resolve_dynamic_params", {**arguments, "query": "员工人数"})
        period = await mcp.call_tool(
            "resolve_dynamic_params", {**arguments, "query": "上个月的员工人数"}
        )
    assert ok_body(current)["dynamic_params"] == {"headcount": {"instant": True}}
    assert NO_DIMENSION_ZH in orjson.dumps(error_body(period)).decode()
