"""The pipeline (SPEC §2.2) reads a metric's time dimension from the metric definition it
fetches from bkn-backend (`GET …/knowledge-networks/{kn_id}/metrics/{data_source.id}`, SPEC
§9.1): none → the current value only, and a question naming a period a 422 whose ask says so;
one → the window as before; a definition it cannot read → as before. Also through the MCP tool
`get_logic_properties_values`."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from resolver.testing.fake_llm import FakeLLM
from resolver.testing.fake_upstreams import DEMO_KN, DEMO_OT, Fault
from tests.helpers import NOW_MS, ClientFactory, KnFakes
from tests.mcp_checks import error_body, ok_body, sdk_client

PATH = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
METRIC = "approved_drug_count"
METRIC_ID = "metric_approved_drugs"  # the demo metric's data_source.id


def body(query: str) -> dict[str, Any]:
    return {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": query,
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": [METRIC],
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
    }


async def run(client: Any, query: str) -> tuple[int, dict[str, Any]]:
    response = await client.post(PATH, json=body(query))
    return response.status, orjson.loads(await response.read())


def metric_calls(kn_fakes: KnFakes) -> list[Any]:
    return [call for call in kn_fakes.manager.calls if "/metrics/" in call.path]


async def test_a_metric_without_a_time_dimension_is_read_as_its_current_value(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    kn_fakes.manager.add_metric(DEMO_KN, METRIC_ID, None)
    client = await make_kn_client()
    status, answer = await run(client, "获批药品数量")
    assert status == 200, answer
    assert answer["dynamic_params"] == {METRIC: {"instant": True}}
    [call] = metric_calls(kn_fakes)
    assert call.path == f"/api/bkn-backend/in/v1/knowledge-networks/{DEMO_KN}/metrics/{METRIC_ID}"
    [values] = [c for c in kn_fakes.values.calls if c.path.endswith("/properties")]
    assert values.body["dynamic_params"] == {METRIC: {"instant": True}}
    assert not fake_llm.calls


async def test_a_period_for_a_metric_without_one_is_a_422_before_any_value_is_asked(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    kn_fakes.manager.add_metric(DEMO_KN, METRIC_ID, None)
    client = await make_kn_client()
    status, answer = await run(client, "最近3个月的获批药品数量趋势")
    assert status == 422, answer
    [missing] = answer["missing"]
    assert missing["property"] == METRIC
    assert "该指标没有时间维度" in missing["ask"]
    assert not [c for c in kn_fakes.values.calls if c.path.endswith("/properties")]
    assert not fake_llm.calls


@pytest.mark.parametrize("dimension", [{"property": "approval_date"}, "unserved", "failing"])
async def test_a_time_dimension_or_an_unread_definition_keeps_the_window(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, dimension: Any
) -> None:
    if isinstance(dimension, dict):
        kn_fakes.manager.add_metric(DEMO_KN, METRIC_ID, dimension)
    elif dimension == "failing":
        kn_fakes.manager.fail_always(Fault(status=500, path_contains="/metrics/"))
    client = await make_kn_client(llm=False)
    status, answer = await run(client, "最近3个月的获批药品数量趋势")
    assert status == 200, answer
    window = answer["dynamic_params"][METRIC]
    assert (window["instant"], window["step"], window["end"]) == (False, "month", NOW_MS)
    assert len(metric_calls(kn_fakes)) == 1  # asked once, never retried


async def test_the_mcp_tool_answers_both_kinds(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.manager.add_metric(DEMO_KN, METRIC_ID, None)
    client = await make_kn_client(llm=False)
    arguments = {k: v for k, v in body("获批药品数量").items() if k != "_instance_identities"}
    arguments["_instance_identities"] = [{"company_id": "company_000001"}]
    async with sdk_client(str(client.make_url("/mcp"))) as mcp:
        current = await mcp.call_tool("get_logic_properties_values", arguments)
        period = await mcp.call_tool(
            "get_logic_properties_values", {**arguments, "query": "上个月的获批药品数量"}
        )
    assert ok_body(current)["dynamic_params"] == {METRIC: {"instant": True}}
    refused = error_body(period)
    assert refused["status"] == 422
    assert "该指标没有时间维度" in orjson.dumps(refused).decode()


async def test_a_metric_id_that_is_no_path_segment_leaves_the_dimension_unknown(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    # Found by the upstream fuzz suite: `data_source.id` "." was sent into the URL builder and
    # answered 500; it names no metric to read, so the window is resolved as before.
    from resolver.testing.fake_upstreams import demo_object_type

    object_type = demo_object_type()
    for prop in object_type["logic_properties"]:
        if prop.get("data_source", {}).get("type") == "metric":
            prop["data_source"]["id"] = "."
    kn_fakes.manager.add(DEMO_KN, object_type)
    client = await make_kn_client(llm=False)
    status, answer = await run(client, "最近3个月的获批药品数量趋势")
    assert status == 200, answer
    assert answer["dynamic_params"][METRIC]["step"] == "month"
    assert not metric_calls(kn_fakes)
