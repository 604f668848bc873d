"""The platform's envelope, `bkn_context` (SPEC §2.3), on every business POST over HTTP:
accepted (the answer is the one without it), shape-checked (400 `INVALID_BUSINESS_CONTEXT`),
taken off before anything is resolved — never in an upstream body, a prompt or a cache key —
and its ids on the access log line and on the request's span."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson
import pytest
import structlog
from aiohttp.test_utils import TestClient
from opentelemetry.trace import SpanKind
from structlog.testing import capture_logs

from resolver.core.envelope import REF_TYPES
from resolver.testing.fake_llm import FakeLLM
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    DEMO_OT,
    DEMO_TOOL_AT,
    add_demo_actions,
)
from tests.helpers import (
    ClientFactory,
    KnFakes,
    assert_error_shape,
    metric,
    recorded_spans,
    request_body,
    rules_pipeline_body,
)

CONVERSATION = "conv_7c533a3b9d835c2e283dc9d8e8ba4563"
INTERACTION = "int_5f1e0a"
ENVELOPE: dict[str, Any] = {
    "conversation_id": CONVERSATION,
    "interaction_id": INTERACTION,
    "parent_operation_id": "op_parent",
    "causation_event_ids": ["ev_1", "ev_2"],
    # upstream's form: a list of references (SPEC shows an object; both are taken)
    "business_refs": [{"ref_type": "object_type", "ref_id": f"ot:{DEMO_KN}:{DEMO_OT}"}],
}
IDENTITY = {"company_id": "company_000001"}
JSON = {"Content-Type": "application/json"}
PROXY = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"

# Every business POST and a body it answers 200 to.
BUSINESS: dict[str, tuple[str, Callable[[], dict[str, Any]]]] = {
    "dynamic-params": ("/v1/dynamic-params", lambda: request_body(metric())),
    "pipeline": (
        "/api/agent-retrieval/in/v1/kn/logic-property-resolver",
        rules_pipeline_body,
    ),
    "pipeline-public": (
        "/api/agent-retrieval/v1/kn/logic-property-resolver",
        rules_pipeline_body,
    ),
    "inputs": (
        "/api/agent-retrieval/in/v1/kn/logic-property-inputs",
        lambda: {"kn_id": DEMO_KN, "ot_id": DEMO_OT},
    ),
    "action-info": (
        "/api/agent-retrieval/in/v1/kn/get_action_info",
        lambda: {"kn_id": DEMO_KN, "at_id": DEMO_TOOL_AT, "unique_identity": IDENTITY},
    ),
    "mcp-proxy": (
        PROXY,
        lambda: {"company_id": "c1", "channel": "email", "message": {"title": "hi"}},
    ),
}
# Shapes the envelope may not have, each with where the 400 points.
BAD: dict[str, tuple[Any, str]] = {
    "not-an-object": ("conv_1", "bkn_context"),
    "unknown-key": ({**ENVELOPE, "operation_key": "k1"}, "bkn_context.operation_key"),
    "no-interaction": ({"conversation_id": CONVERSATION}, "bkn_context.interaction_id"),
    "number-id": ({**ENVELOPE, "conversation_id": 7}, "bkn_context.conversation_id"),
    "empty-id": ({**ENVELOPE, "interaction_id": ""}, "bkn_context.interaction_id"),
    "long-id": ({**ENVELOPE, "conversation_id": "c" * 257}, "bkn_context.conversation_id"),
    "line-break": ({**ENVELOPE, "conversation_id": "c1\nforged"}, "bkn_context.conversation_id"),
    "events-not-a-list": ({**ENVELOPE, "causation_event_ids": "ev_1"}, "bkn_context.causation"),
    "too-many-events": (
        {**ENVELOPE, "causation_event_ids": [f"ev_{i}" for i in range(65)]},
        "bkn_context.causation_event_ids",
    ),
    "refs-a-string": ({**ENVELOPE, "business_refs": "ot_company"}, "bkn_context.business_refs"),
    # The object form an older SPEC showed: the published schema is a list (docs/upstream-…).
    "refs-an-object": (
        {**ENVELOPE, "business_refs": {"ref_type": "object_type", "ref_id": "ot:kn:ot"}},
        "bkn_context.business_refs",
    ),
    "ref-type-unknown": (
        {**ENVELOPE, "business_refs": [{"ref_type": "no_such_kind", "ref_id": "x"}]},
        "bkn_context.business_refs.0.ref_type",
    ),
    "ref-without-id": (
        {**ENVELOPE, "business_refs": [{"ref_type": "metric"}]},
        "bkn_context.business_refs.0.ref_id",
    ),
    "ref-unknown-key": (
        {**ENVELOPE, "business_refs": [{"ref_type": "metric", "ref_id": "m", "as_of": "now"}]},
        "bkn_context.business_refs.0.as_of",
    ),
    "ref-id-too-long": (
        {**ENVELOPE, "business_refs": [{"ref_type": "metric", "ref_id": "m" * 257}]},
        "bkn_context.business_refs.0.ref_id",
    ),
    "ref-version-a-number": (
        {**ENVELOPE, "business_refs": [{"ref_type": "metric", "ref_id": "m", "version": 2}]},
        "bkn_context.business_refs.0.version",
    ),
    "too-many-refs": (
        {**ENVELOPE, "business_refs": [{"ref_type": "metric", "ref_id": "m"}] * 65},
        "bkn_context.business_refs",
    ),
}


def with_envelope(body: dict[str, Any], envelope: Any = ENVELOPE) -> dict[str, Any]:
    return {**body, "bkn_context": envelope}


async def post(client: TestClient[Any, Any], path: str, body: Any) -> tuple[int, dict[str, Any]]:
    response = await client.post(path, data=orjson.dumps(body), headers=JSON)
    return response.status, orjson.loads(await response.read())


def comparable(body: dict[str, Any]) -> dict[str, Any]:
    # The trace id and get_action_info's trace headers are per request by design.
    return {k: v for k, v in body.items() if k not in ("trace_id", "headers")}


def upstream_bodies(kn_fakes: KnFakes) -> str:
    """Everything the three fake services were sent, headers and bodies, as one text."""
    seen = [*kn_fakes.manager.calls, *kn_fakes.operators.calls, *kn_fakes.values.calls]
    return orjson.dumps([[s.path, s.headers, s.body] for s in seen]).decode()


@pytest.fixture
async def client(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> TestClient[Any, Any]:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    return await make_kn_client(llm=False, public_url="https://resolver.example.com")


@pytest.mark.parametrize("route", sorted(BUSINESS))
async def test_every_business_post_takes_it_and_answers_as_without_it(
    client: TestClient[Any, Any], kn_fakes: KnFakes, route: str
) -> None:
    path, body = BUSINESS[route]
    plain = await post(client, path, body())
    carried = await post(client, path, with_envelope(body()))
    assert carried[0] == plain[0] == 200, carried
    assert comparable(carried[1]) == comparable(plain[1])
    sent = upstream_bodies(kn_fakes)
    assert "bkn_context" not in sent
    assert CONVERSATION not in sent


@pytest.mark.parametrize("route", sorted(BUSINESS))
async def test_null_is_no_envelope(client: TestClient[Any, Any], route: str) -> None:
    path, body = BUSINESS[route]
    status, answer = await post(client, path, with_envelope(body(), None))
    assert status == 200, answer


@pytest.mark.parametrize("route", sorted(BUSINESS))
@pytest.mark.parametrize("bad", sorted(BAD))
async def test_a_bad_envelope_is_400_before_anything_is_asked(
    client: TestClient[Any, Any], kn_fakes: KnFakes, route: str, bad: str
) -> None:
    path, body = BUSINESS[route]
    envelope, where = BAD[bad]
    status, answer = await post(client, path, with_envelope(body(), envelope))
    assert status == 400, answer
    assert_error_shape(answer, "INVALID_BUSINESS_CONTEXT")
    assert answer["error"]["details"][0]["loc"].startswith(where)
    assert all(d["loc"].startswith("bkn_context") for d in answer["error"]["details"])
    assert upstream_bodies(kn_fakes) == "[]"


@pytest.mark.parametrize("ref_type", REF_TYPES)
async def test_each_published_ref_type_passes(client: TestClient[Any, Any], ref_type: str) -> None:
    refs = [
        {"ref_type": ref_type, "ref_id": f"{ref_type}:1"},
        {"ref_type": ref_type, "ref_id": f"{ref_type}:2", "version": "v3"},
    ]
    body = with_envelope(request_body(metric()), {**ENVELOPE, "business_refs": refs})
    status, answer = await post(client, "/v1/dynamic-params", body)
    assert status == 200, answer


async def test_there_are_eleven_ref_types_and_another_fails(client: TestClient[Any, Any]) -> None:
    assert len(set(REF_TYPES)) == 11
    refs = [{"ref_type": "conversation", "ref_id": "c1"}]
    body = with_envelope(request_body(metric()), {**ENVELOPE, "business_refs": refs})
    status, answer = await post(client, "/v1/dynamic-params", body)
    assert status == 400
    assert_error_shape(answer, "INVALID_BUSINESS_CONTEXT")
    assert answer["error"]["details"][0]["loc"] == "bkn_context.business_refs.0.ref_type"
    assert "knowledge_network" in answer["error"]["details"][0]["msg"]


async def test_the_object_form_of_business_refs_says_what_to_send(
    client: TestClient[Any, Any],
) -> None:
    refs = {"ref_type": "object_type", "ref_id": "ot:kn:ot"}
    body = with_envelope(request_body(metric()), {**ENVELOPE, "business_refs": refs})
    status, answer = await post(client, "/v1/dynamic-params", body)
    assert status == 400
    assert_error_shape(answer, "INVALID_BUSINESS_CONTEXT")
    assert "must be a list of {ref_type, ref_id, version?}" in answer["_error"]


async def test_a_bad_envelope_is_reported_alone(client: TestClient[Any, Any]) -> None:
    # The caller's own mistakes are a second answer: the platform's envelope comes first.
    body = with_envelope({"logic_properties": [], "query": 1}, {"conversation_id": 1})
    status, answer = await post(client, "/v1/dynamic-params", body)
    assert status == 400
    assert_error_shape(answer, "INVALID_BUSINESS_CONTEXT")
    assert {d["loc"] for d in answer["error"]["details"]} == {
        "bkn_context.conversation_id",
        "bkn_context.interaction_id",
    }


async def test_the_envelope_never_reaches_the_llm_or_its_cache_key(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_cache_ttl_s=60)
    body = request_body(
        metric("drug_sales", ("region", "STRING")), query="当前华东地区的药品销售额"
    )
    first = await post(client, "/v1/dynamic-params", with_envelope(body))
    other = {**ENVELOPE, "conversation_id": "conv_other", "interaction_id": "int_other"}
    second = await post(client, "/v1/dynamic-params", with_envelope(body, other))
    assert first[0] == second[0] == 200, (first, second)
    assert second[1]["dynamic_params"] == first[1]["dynamic_params"]
    # One call: the second request's key is the first's, whatever its envelope said.
    assert len(fake_llm.calls) == 1
    asked = orjson.dumps([c.body for c in fake_llm.calls]).decode()
    assert "bkn_context" not in asked
    assert CONVERSATION not in asked
    assert INTERACTION not in asked


async def test_the_access_line_and_the_span_carry_its_ids(make_client: ClientFactory) -> None:
    body = request_body(metric())
    with recorded_spans() as spans:
        client = await make_client(llm=False)
        with capture_logs(processors=[structlog.contextvars.merge_contextvars]) as logged:
            assert (await post(client, "/v1/dynamic-params", with_envelope(body)))[0] == 200
            assert (await post(client, "/v1/dynamic-params", body))[0] == 200
    carried, plain = [line for line in logged if line["event"] == "http.request"]
    assert carried["conversation_id"] == CONVERSATION
    assert carried["interaction_id"] == INTERACTION
    # The next request on the same connection carries none: the ids end with their request.
    assert "conversation_id" not in plain
    assert "interaction_id" not in plain
    first, second = [s for s in spans.get_finished_spans() if s.kind == SpanKind.SERVER]
    assert dict(first.attributes or {})["bkn.conversation_id"] == CONVERSATION
    assert dict(first.attributes or {})["bkn.interaction_id"] == INTERACTION
    assert "bkn.conversation_id" not in dict(second.attributes or {})


async def test_the_proxy_forwards_the_arguments_without_it_exactly(
    client: TestClient[Any, Any], kn_fakes: KnFakes
) -> None:
    # Beyond 64 bits: written by the standard library, and it must arrive as sent.
    arguments = {"company_id": "c1", "channel": "email", "message": {"title": "hi", "n": 2**70}}
    body = json.dumps(with_envelope(arguments)).encode()
    response = await client.post(PROXY, data=body, headers=JSON)
    assert response.status == 200, await response.text()
    [call] = [c for c in kn_fakes.operators.calls if c.path.endswith("/tool/call")]
    assert call.body == {"tool_name": DEMO_MCP_TOOL, "parameters": arguments}
