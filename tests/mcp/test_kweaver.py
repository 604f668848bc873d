"""The KWeaver SDK's context-loader client (`kweaver-sdk` 0.8.4, the client the Go service's
MCP tools were built for) against the app on a loopback port, with fake upstreams: it
initializes with protocol 2024-11-05 and needs a session id, reads plain JSON, sends the
knowledge network as `X-Kn-ID` and parses `content[0].text`."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from aiohttp.test_utils import TestClient
from kweaver.resources.context_loader import ContextLoaderResource

from resolver.testing.fake_upstreams import DEMO_KN, DEMO_OT, DEMO_TOOL_AT, add_demo_actions
from tests.helpers import NOW_MS, ClientFactory, KnFakes
from tests.mcp_checks import TOOL_NAMES, kweaver

IDENTITY = {"company_id": "company_000001"}
JAN_1_2024 = 1_704_038_400_000  # 2024-01-01T00:00:00+08:00


@pytest.fixture(autouse=True)
def _fresh_session_cache() -> Iterator[None]:
    # The client caches one session per URL and knowledge network for 5 minutes, process-wide.
    ContextLoaderResource.clear_session_cache()
    yield
    ContextLoaderResource.clear_session_cache()


@pytest.fixture
async def base_url(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> str:
    """Where the rules-only app listens (the client appends /api/agent-retrieval/v1/mcp)."""
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    client: TestClient[Any, Any] = await make_kn_client(llm=False)
    return str(client.make_url("")).rstrip("/")


def values(base_url: str, query: str, context: str | None = None) -> Any:
    with kweaver(base_url) as loader:
        return loader.get_logic_properties_values(
            DEMO_OT, query, [IDENTITY], ["approved_drug_count"], context
        )


async def test_lists_the_tools_with_valid_schemas(base_url: str) -> None:
    def list_tools() -> Any:
        with kweaver(base_url) as loader:
            return loader.list_tools()

    listed = await asyncio.to_thread(list_tools)
    assert {tool["name"] for tool in listed["tools"]} == TOOL_NAMES
    for tool in listed["tools"]:
        jsonschema.Draft202012Validator.check_schema(tool["inputSchema"])
        assert tool["annotations"]["readOnlyHint"] is True


async def test_logic_property_values_for_the_header_kn(base_url: str, kn_fakes: KnFakes) -> None:
    answer = await asyncio.to_thread(values, base_url, "最近3个月的药品数量趋势")
    assert answer["datas"][0]["company_id"] == "company_000001"
    assert answer["dynamic_params"]["approved_drug_count"]["step"] == "month"
    assert answer["trace_id"]
    assert f"/knowledge-networks/{DEMO_KN}/" in kn_fakes.manager.calls[-1].path
    asked = kn_fakes.values.calls[-1].body
    assert asked["_instance_identities"] == [IDENTITY]


async def test_missing_inputs_then_the_retry(base_url: str) -> None:
    first = await asyncio.to_thread(values, base_url, "获批药品数量的趋势")
    # A tool error's text comes back as the client's answer: the KWeaver shape is in it.
    assert first["error_code"] == "MISSING_INPUT_PARAMS"
    assert first["message"]
    [entry] = first["missing"]
    assert entry["property"] == "approved_drug_count"
    assert {p["name"]: p["type"] for p in entry["params"]} == {
        "start": "integer",
        "end": "integer",
        "step": "string",
    }
    assert all(p["hint"] for p in entry["params"])
    retry = await asyncio.to_thread(
        values, base_url, "获批药品数量的趋势", "start=2024-01-01；end=2024-03-31；step=month"
    )
    assert retry["dynamic_params"]["approved_drug_count"]["start"] == JAN_1_2024
    assert retry["datas"][0]["approved_drug_count"]["dynamic_params"]["step"] == "month"


async def test_action_info(base_url: str) -> None:
    def recall() -> Any:
        with kweaver(base_url) as loader:
            return loader.get_action_info(DEMO_TOOL_AT, IDENTITY)

    answer = await asyncio.to_thread(recall)
    [tool] = answer["_dynamic_tools"]
    assert tool["name"] == "assess_company_risk"
    assert tool["fixed_params"]["path"] == {"company_id": "company_000001"}


async def test_an_unknown_property_is_an_error_it_can_read(base_url: str) -> None:
    def unknown() -> Any:
        with kweaver(base_url) as loader:
            return loader.get_logic_properties_values(DEMO_OT, "q", [IDENTITY], ["nope"])

    answer = await asyncio.to_thread(unknown)
    assert answer["status"] == 400
    assert "nope" in answer["message"]
    assert "approved_drug_count" in answer["message"]  # the available ones are named


async def test_several_clients_at_once(base_url: str) -> None:
    def client(n: int) -> list[Any]:
        with kweaver(base_url) as loader:
            return [
                loader.get_logic_properties_values(
                    DEMO_OT,
                    f"最近{n}个月的趋势",
                    [IDENTITY],
                    ["approved_drug_count"],
                    f"now_ms={NOW_MS}",  # a fixed clock: each client's window is known
                )["dynamic_params"]["approved_drug_count"]
                for _ in range(3)
            ]

    answers = await asyncio.gather(*(asyncio.to_thread(client, n) for n in (1, 2, 3, 6)))
    starts = [[params["start"] for params in answer] for answer in answers]
    assert all(len(set(s)) == 1 for s in starts)  # one window per client…
    assert len({s[0] for s in starts}) == 4  # …and each client its own
