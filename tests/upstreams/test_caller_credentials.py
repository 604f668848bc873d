"""The caller's `Authorization` (SPEC §2.2): forwarded to the upstream that acts for the caller
(ontology-query: the permission read, the values, an object's actions), never to bkn-backend,
agent-operator-integration or the LLM, never into a log line or an answer — over HTTP, over
MCP, and (slow) from a real `resolver serve` logging at DEBUG."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

import aiohttp
import orjson
import pytest

from resolver.testing.fake_llm import Call, FakeLLM, Reply
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_OT,
    DEMO_TOOL_AT,
    add_demo_actions,
)
from resolver.upstreams.client import CallerHeaders
from tests.helpers import NOW_MS, ClientFactory, KnFakes, serve
from tests.mcp_checks import call_tool

BEARER = "Bearer caller-secret-TOKEN-5e1f"
PIPELINE = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
RECALL = "/api/agent-retrieval/in/v1/kn/get_action_info"
OPERATOR = "business_health_score"
HEALTH = {"lang": "zh-CN", "include_details": True, "items": ["revenue"]}


def pipeline_body() -> dict[str, Any]:
    return {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "当前的获批药品数量和经营健康度",
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": ["approved_drug_count", OPERATOR],
        "now_ms": NOW_MS,
    }


def answer_health(call: Call) -> Reply:
    return Reply(content=orjson.dumps({call.property_name: HEALTH}).decode())


def headers() -> dict[str, str]:
    return {"Content-Type": "application/json", "Authorization": BEARER, "x-account-id": "u1"}


def assert_only_ontology_query_got_it(kn_fakes: KnFakes, fake_llm: FakeLLM | None) -> None:
    assert kn_fakes.values.calls
    for call in kn_fakes.values.calls:
        assert call.headers["authorization"] == BEARER, call.path
    for call in [*kn_fakes.manager.calls, *kn_fakes.operators.calls]:
        assert "authorization" not in call.headers, call.path
        assert call.headers["x-account-id"] == "u1"
    for llm_call in fake_llm.calls if fake_llm is not None else []:
        assert BEARER not in llm_call.headers.get("Authorization", "")
        assert "caller-secret" not in orjson.dumps(llm_call.body).decode()


async def test_the_pipeline_forwards_it_to_ontology_query_only(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    response = await client.post(PIPELINE, data=orjson.dumps(pipeline_body()), headers=headers())
    text = await response.text()
    assert response.status == 200, text
    assert "caller-secret" not in text
    assert len(kn_fakes.values.calls) == 2  # the permission read and the values
    assert kn_fakes.manager.calls
    assert kn_fakes.operators.calls  # the operator schema
    assert fake_llm.calls
    assert_only_ontology_query_got_it(kn_fakes, fake_llm)


@pytest.mark.parametrize("at_id", [DEMO_TOOL_AT, DEMO_MCP_AT])
async def test_action_recall_forwards_it_to_ontology_query_only(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, at_id: str
) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    client = await make_kn_client(llm=False, public_url="https://resolver.example.com")
    body = {"kn_id": DEMO_KN, "at_id": at_id, "unique_identity": {"company_id": "c1"}}
    response = await client.post(RECALL, data=orjson.dumps(body), headers=headers())
    assert response.status == 200, await response.text()
    assert kn_fakes.operators.calls
    assert_only_ontology_query_got_it(kn_fakes, None)


async def test_without_one_nothing_is_invented(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    body = {**pipeline_body(), "properties": ["approved_drug_count"]}
    response = await client.post(PIPELINE, json=body)
    assert response.status == 200, await response.text()
    for call in [*kn_fakes.values.calls, *kn_fakes.manager.calls]:
        assert "authorization" not in call.headers


async def test_mcp_forwards_it_like_http(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    arguments = {k: v for k, v in pipeline_body().items() if k != "kn_id"}
    answer = await call_tool(
        client,
        "get_logic_properties_values",
        arguments,
        path="/api/agent-retrieval/v1/mcp",
        headers={**headers(), "X-Kn-ID": DEMO_KN},
    )
    assert answer["result"]["isError"] is False, answer
    assert "caller-secret" not in orjson.dumps(answer).decode()
    assert_only_ontology_query_got_it(kn_fakes, fake_llm)


def test_the_header_never_shows_in_a_repr() -> None:
    caller = CallerHeaders("t1", "u1", "user", authorization=BEARER)
    assert "caller-secret" not in repr(caller)
    assert "caller-secret" not in str(caller.headers())
    assert caller.as_caller() == {"Authorization": BEARER}


@pytest.mark.slow
async def test_a_debug_log_never_shows_it(fake: FakeLLM, kn_fakes: KnFakes) -> None:
    """A real service at DEBUG: the bearer reaches ontology-query and nothing else, and neither
    a log line nor an answer (success or failure, HTTP or MCP) carries it."""
    fake.respond(answer_health)
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    env = {
        "RESOLVER_LOG_LEVEL": "DEBUG",
        "RESOLVER_BKN_BACKEND_URL": kn_fakes.manager.url,
        "RESOLVER_OPERATOR_INTEGRATION_URL": kn_fakes.operators.url,
        "RESOLVER_ONTOLOGY_QUERY_URL": kn_fakes.values.url,
        "RESOLVER_PUBLIC_URL": "https://resolver.example.com",
    }
    bodies: list[tuple[str, dict[str, Any]]] = [
        (PIPELINE, pipeline_body()),
        (PIPELINE, {**pipeline_body(), "ot_id": "ot_nope"}),  # 404
        (PIPELINE, {**pipeline_body(), "properties": [OPERATOR]}),  # the LLM answers
        (RECALL, {"kn_id": DEMO_KN, "at_id": DEMO_TOOL_AT, "unique_identity": {"c": 1}}),
        (RECALL, {"kn_id": DEMO_KN, "at_id": DEMO_MCP_AT, "unique_identity": {"c": 1}}),
        (PIPELINE, {"kn_id": DEMO_KN}),  # 400
    ]
    async with serve(fake, **env) as service, aiohttp.ClientSession() as session:
        answers = []
        for path, body in bodies:
            async with session.post(
                service.url + path, data=orjson.dumps(body), headers=headers()
            ) as response:
                answers.append((response.status, await response.text()))
        # The permission read is refused (ontology-query knows no plan: 404, kept as the
        # answer); the token is still neither logged nor answered.
        kn_fakes.values.plans.clear()
        kn_fakes.values.plan_of = None
        async with session.post(
            service.url + PIPELINE, data=orjson.dumps(pipeline_body()), headers=headers()
        ) as response:
            answers.append((response.status, await response.text()))
        service.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(service.process.wait(), timeout=10) == 0
        output = await service.output()
    assert [status for status, _ in answers] == [200, 404, 200, 200, 200, 400, 404]
    assert "upstream.call" in output  # DEBUG really was on
    for text in [output, *(text for _, text in answers)]:
        assert "caller-secret" not in text
    assert_only_ontology_query_got_it(kn_fakes, fake)
