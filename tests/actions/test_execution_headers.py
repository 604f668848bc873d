"""`get_action_info`'s `headers` (SPEC §8): the W3C `traceparent` (and `tracestate`) of a child
span of the request, for the agent to send with the action's execution — the caller's trace
id when it sent a `traceparent`; a real, finished span when tracing is on; a fresh span id when
it is off. Over HTTP and over MCP alike."""

from __future__ import annotations

import re
from typing import Any

import orjson
import pytest
from aiohttp.test_utils import TestClient
from opentelemetry.trace import SpanKind

from resolver.core import tracing
from resolver.testing.fake_upstreams import DEMO_KN, DEMO_MCP_AT, DEMO_TOOL_AT, add_demo_actions
from tests.helpers import ClientFactory, KnFakes, recorded_spans
from tests.mcp_checks import call_tool

PATH = "/api/agent-retrieval/in/v1/kn/get_action_info"
CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"
TRACEPARENT = f"00-{CALLER_TRACE}-{CALLER_SPAN}-01"
TRACESTATE = "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"
W3C = re.compile(r"^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$")
IDENTITY = {"company_id": "company_000001"}


def parts(headers: dict[str, str]) -> tuple[str, str, str]:
    match = W3C.match(headers["traceparent"])
    assert match, headers
    trace, span, flags = match.groups()
    assert trace.strip("0")
    assert span.strip("0")
    return trace, span, flags


@pytest.fixture
def demo(kn_fakes: KnFakes) -> KnFakes:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    return kn_fakes


async def recall(
    client: TestClient[Any, Any], at_id: str = DEMO_TOOL_AT, **headers: str
) -> dict[str, Any]:
    body = {"kn_id": DEMO_KN, "at_id": at_id, "unique_identity": IDENTITY}
    sent = {"Content-Type": "application/json", **headers}
    response = await client.post(PATH, data=orjson.dumps(body), headers=sent)
    assert response.status == 200, await response.text()
    answer: dict[str, Any] = orjson.loads(await response.read())
    return answer


@pytest.mark.usefixtures("demo")
@pytest.mark.parametrize("at_id", [DEMO_TOOL_AT, DEMO_MCP_AT])
async def test_the_callers_trace_goes_on_from_a_child_span(
    make_kn_client: ClientFactory, at_id: str
) -> None:
    client = await make_kn_client(llm=False, public_url="https://resolver.example.com")
    answer = await recall(client, at_id, traceparent=TRACEPARENT, tracestate=TRACESTATE)
    assert answer["_dynamic_tools"]
    trace, span, flags = parts(answer["headers"])
    assert trace == CALLER_TRACE
    assert span != CALLER_SPAN  # a child's, not the caller's own span
    assert flags == "01"  # the caller's sampling decision, kept
    assert answer["headers"]["tracestate"] == TRACESTATE
    again = await recall(client, at_id, traceparent=TRACEPARENT)
    assert parts(again["headers"])[1] != span  # a span per request
    assert "tracestate" not in again["headers"]


@pytest.mark.usefixtures("demo")
async def test_without_a_traceparent_it_is_the_requests_own_trace(
    make_kn_client: ClientFactory,
) -> None:
    client = await make_kn_client(llm=False)
    answer = await recall(client)
    trace, _, flags = parts(answer["headers"])
    assert trace == answer["trace_id"]  # logs and the execution's trace meet
    assert flags == "00"  # nothing was recorded here: no sampling claimed
    given = await recall(client, **{"x-trace-id": "not-a-w3c-id"})
    assert given["trace_id"] == "not-a-w3c-id"
    assert parts(given["headers"])[0] != "not-a-w3c-id"  # a fresh W3C trace id instead


@pytest.mark.usefixtures("demo")
@pytest.mark.parametrize(
    "traceparent",
    [
        f"00-{'0' * 32}-{CALLER_SPAN}-01",  # all-zero trace id
        f"00-{CALLER_TRACE}-{'0' * 16}-01",  # all-zero parent id
        f"ff-{CALLER_TRACE}-{CALLER_SPAN}-01",  # no such version
        "00-xyz",
    ],
    ids=["zero-trace", "zero-span", "version-ff", "garbage"],
)
async def test_an_invalid_traceparent_is_not_continued(
    make_kn_client: ClientFactory, traceparent: str
) -> None:
    client = await make_kn_client(llm=False)
    answer = await recall(client, traceparent=traceparent, tracestate=TRACESTATE)
    trace, _, flags = parts(answer["headers"])
    # The request's own trace id (which the middleware may have read from the header), not a
    # continuation of the invalid parent: none of its flags or state.
    assert trace == answer["trace_id"]
    assert flags == "00"
    assert "tracestate" not in answer["headers"]


@pytest.mark.usefixtures("demo")
async def test_with_tracing_on_the_span_is_recorded_under_the_request(
    make_kn_client: ClientFactory,
) -> None:
    with recorded_spans() as spans:
        client = await make_kn_client(llm=False)
        answer = await recall(client, traceparent=TRACEPARENT, tracestate=TRACESTATE)
    trace, span, _ = parts(answer["headers"])
    assert trace == CALLER_TRACE
    finished = spans.get_finished_spans()
    [server] = [s for s in finished if s.kind == SpanKind.SERVER]
    [handoff] = [s for s in finished if format(s.context.span_id, "016x") == span]
    assert handoff.name == "action.execute handoff"
    assert handoff.parent is not None
    assert handoff.parent.span_id == server.context.span_id
    assert answer["headers"]["tracestate"] == TRACESTATE


@pytest.mark.usefixtures("demo")
async def test_over_mcp_the_same(make_kn_client: ClientFactory) -> None:
    arguments = {"at_id": DEMO_TOOL_AT, "_instance_identity": IDENTITY}
    headers = {"X-Kn-ID": DEMO_KN, "traceparent": TRACEPARENT, "tracestate": TRACESTATE}
    client = await make_kn_client(llm=False)
    answer = await call_tool(client, "get_action_info", arguments, headers=headers)
    structured = answer["result"]["structuredContent"]
    trace, span, _ = parts(structured["headers"])
    assert (trace, structured["headers"]["tracestate"]) == (CALLER_TRACE, TRACESTATE)
    with recorded_spans() as spans:
        client = await make_kn_client(llm=False)
        answer = await call_tool(client, "get_action_info", arguments, headers=headers)
    trace, span, _ = parts(answer["result"]["structuredContent"]["headers"])
    assert trace == CALLER_TRACE
    finished = spans.get_finished_spans()
    [server] = [s for s in finished if s.kind == SpanKind.SERVER]
    [handoff] = [s for s in finished if format(s.context.span_id, "016x") == span]
    # The tool ran in the SDK's task, under the HTTP request's span.
    assert handoff.parent is not None
    assert handoff.parent.span_id == server.context.span_id


def test_off_the_ids_are_made_without_opentelemetry() -> None:
    assert not tracing.enabled()
    made = tracing.handoff_headers("x", None, None, "not-hex")
    assert set(made) == {"traceparent"}
    parts(made)
    assert tracing.handoff_headers("x", TRACEPARENT.upper(), None, "t")["traceparent"].startswith(
        f"00-{CALLER_TRACE}-"
    )
