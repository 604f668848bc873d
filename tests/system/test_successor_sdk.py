"""Today's platform against a real `resolver serve` (issue 22): the successor SDK's flow played
with the official `mcp` client — probe `GET /api/agent-retrieval/v1/mcp/info` once, choose no
lifecycle contract (none is listed), initialize, call `get_logic_properties_values` with the
host's `bkn_context` in the arguments, read `structuredContent.error.code` of the missing-input
error, retry with what its hints ask — and the KWeaver client on the same process after it.
The envelope's ids reach the log lines, never an upstream or the LLM."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import orjson
import pytest
from kweaver.resources.context_loader import ContextLoaderResource

from resolver.testing.fake_llm import FakeLLM, Reply
from resolver.testing.fake_upstreams import DEMO_KN, DEMO_OT, DEMO_TOOL_AT, add_demo_actions
from tests.helpers import KnFakes, serve
from tests.mcp_checks import kweaver, sdk_client, values_arguments

pytestmark = pytest.mark.slow

METRIC = "approved_drug_count"
ASK = "请说明时间范围"
RETRY_CONTEXT = "start=2024-01-01；end=2024-03-31；step=month"
JAN_1_2024 = 1_704_038_400_000  # 2024-01-01T00:00:00+08:00
CONVERSATION = "conv_7c533a3b9d835c2e283dc9d8e8ba4563"
INTERACTION = "int_0a1b2c"
BKN_CONTEXT = {
    "conversation_id": CONVERSATION,
    "interaction_id": INTERACTION,
    "causation_event_ids": ["ev_1"],
}
TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
# What the probe must offer for the SDK to connect without a lifecycle contract.
LIFECYCLE_TOOLS = {"bkn_start_interaction", "bkn_finish_interaction"}


def chosen_contract(info: dict[str, Any]) -> str:
    """The lifecycle contract the SDK picks from the catalogue: managed when lifecycle tools
    are listed, none otherwise."""
    names = {tool["name"] for tool in info["tools"]}
    return "managed" if names & LIFECYCLE_TOOLS else "none"


async def test_the_successor_sdks_flow(fake: FakeLLM, kn_fakes: KnFakes) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    # The model finds no time range in the question: missing inputs, with its ask.
    fake.push(
        Reply(
            content=orjson.dumps({"_error": f"missing {METRIC}: start,end | ask: {ASK}"}).decode()
        )
    )
    env = {
        "RESOLVER_ONTOLOGY_MANAGER_URL": kn_fakes.manager.url,
        "RESOLVER_OPERATOR_INTEGRATION_URL": kn_fakes.operators.url,
        "RESOLVER_ONTOLOGY_QUERY_URL": kn_fakes.values.url,
    }
    async with serve(fake, **env) as service:
        # 1. The probe, once per process.
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{service.url}/api/agent-retrieval/v1/mcp/info") as probed,
        ):
            assert probed.status == 200
            info = await probed.json()
        assert chosen_contract(info) == "none"
        assert "get_logic_properties_values" in {tool["name"] for tool in info["tools"]}
        # 2. Initialize, then the business call with the host's envelope.
        headers = {"X-Kn-ID": DEMO_KN, "Authorization": "Bearer tok", "traceparent": TRACEPARENT}
        arguments = values_arguments("获批药品数量的趋势", bkn_context=BKN_CONTEXT)
        url = f"{service.url}/api/agent-retrieval/v1/mcp"
        async with sdk_client(url, headers=headers) as client:
            assert client.server_info is not None
            assert client.server_info.name == info["server"]["name"]
            assert client.server_info.version == info["server"]["version"]
            first = await client.call_tool("get_logic_properties_values", arguments)
            # 3. The error is read from structuredContent.
            assert first.is_error
            error = first.structured_content
            assert error is not None
            assert error["error"]["code"] == "MISSING_PARAMS"
            assert error["error_code"] == "MISSING_INPUT_PARAMS"  # the KWeaver client's name
            assert error["status"] == 422
            [entry] = error["missing"]
            assert [p["name"] for p in entry["params"]] == ["start", "end"]
            assert entry["ask"] == ASK
            # 4. The retry, with what the hints ask, and the same envelope.
            retry = await client.call_tool(
                "get_logic_properties_values", {**arguments, "additional_context": RETRY_CONTEXT}
            )
            assert not retry.is_error, retry.content
            assert retry.structured_content is not None
            params = retry.structured_content["dynamic_params"][METRIC]
            assert params["start"] == JAN_1_2024
            assert params["step"] == "month"
            action = await client.call_tool(
                "get_action_info",
                {
                    "at_id": DEMO_TOOL_AT,
                    "_instance_identity": {"company_id": "c1"},
                    "bkn_context": BKN_CONTEXT,
                },
            )
            assert action.structured_content is not None
            handoff = action.structured_content["headers"]["traceparent"]
            assert handoff.startswith("00-4bf92f3577b34da6a3ce929d0e0e4736-")

        # 5. The KWeaver client on the same process: unchanged.
        def kweaver_session() -> Any:
            ContextLoaderResource.clear_session_cache()
            with kweaver(service.url) as loader:
                return loader.get_logic_properties_values(
                    DEMO_OT, "获批药品数量的趋势", [{"company_id": "c1"}], [METRIC], RETRY_CONTEXT
                )

        answered = await asyncio.to_thread(kweaver_session)
        assert answered["dynamic_params"][METRIC]["start"] == JAN_1_2024
        await asyncio.sleep(0.3)  # log lines are written in batches, 50 ms late at most
    logs = [
        orjson.loads(line) for line in (await service.output()).splitlines() if line.startswith("{")
    ]
    calls = [line for line in logs if line.get("event") == "mcp.tool_call"]
    assert len(calls) == 4
    for line in calls[:3]:
        assert (line["conversation_id"], line["interaction_id"]) == (CONVERSATION, INTERACTION)
    assert "conversation_id" not in calls[3]  # the KWeaver call carried no envelope
    accesses = [
        line
        for line in logs
        if line.get("event") == "http.request" and line.get("conversation_id") == CONVERSATION
    ]
    assert len(accesses) == 3  # the three tool calls' POSTs
    # Never sent on: not to an upstream, not to the LLM.
    seen = [*kn_fakes.manager.calls, *kn_fakes.operators.calls, *kn_fakes.values.calls]
    sent = orjson.dumps([[s.path, s.body] for s in seen]).decode()
    asked = orjson.dumps([call.body for call in fake.calls]).decode()
    for text in (sent, asked):
        assert CONVERSATION not in text
        assert "bkn_context" not in text
    assert len(fake.calls) == 1  # the retry was settled in code
