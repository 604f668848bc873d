"""Issue 14.5: OpenTelemetry spans for the request, each LLM call (GenAI conventions) and each
upstream call, continuing an incoming `traceparent`; nothing recorded when tracing is off."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from resolver.core import tracing
from resolver.testing.fake_llm import FakeLLM
from tests.helpers import ClientFactory, KnFakes, metric, request_body, serve

PROP = metric("drug_sales", ("region", "STRING"))
BODY = request_body(PROP, query="当前华东地区的药品销售额")
PARENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
TRACEPARENT = f"00-{PARENT_TRACE}-00f067aa0ba902b7-01"


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    """Tracing on, into memory, for one test."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.install(provider)
    try:
        yield exporter
    finally:
        tracing.install(None)
        provider.shutdown()


def _by_kind(finished: tuple[ReadableSpan, ...], kind: SpanKind) -> list[ReadableSpan]:
    return [s for s in finished if s.kind == kind]


async def test_request_and_llm_spans_continue_the_incoming_trace(
    spans: InMemorySpanExporter, make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client()
    response = await client.post(
        "/v1/dynamic-params", json=BODY, headers={"traceparent": TRACEPARENT}
    )
    assert response.status == 200
    finished = spans.get_finished_spans()
    [server] = _by_kind(finished, SpanKind.SERVER)
    [llm] = [s for s in _by_kind(finished, SpanKind.CLIENT) if s.name.startswith("chat ")]
    assert format(server.context.trace_id, "032x") == PARENT_TRACE
    assert server.parent is not None  # the caller's span
    assert llm.context.trace_id == server.context.trace_id
    assert llm.parent is not None
    assert llm.parent.span_id == server.context.span_id
    attributes: dict[str, Any] = dict(llm.attributes or {})
    assert attributes["gen_ai.operation.name"] == "chat"
    assert attributes["gen_ai.request.model"] == "gpt-4o-mini"
    assert attributes["gen_ai.response.model"] == "gpt-4o-mini"
    assert attributes["gen_ai.response.finish_reasons"] == ("stop",)
    assert attributes["gen_ai.usage.input_tokens"] > 0
    assert attributes["gen_ai.usage.output_tokens"] > 0
    # The body's trace_id is the trace's, so logs and traces meet.
    assert (await response.json())["trace_id"] == PARENT_TRACE


async def test_a_request_without_traceparent_gets_the_span_trace_id(
    spans: InMemorySpanExporter, make_client: ClientFactory
) -> None:
    client = await make_client(llm=False)
    response = await client.get("/healthz")
    [server] = _by_kind(spans.get_finished_spans(), SpanKind.SERVER)
    assert response.headers["x-trace-id"] == format(server.context.trace_id, "032x")


async def test_a_failed_llm_call_is_marked_on_its_span(
    spans: InMemorySpanExporter, make_client: ClientFactory
) -> None:
    client = await make_client(llm_base_url="http://127.0.0.1:9/v1", llm_max_attempts=1)
    response = await client.post("/v1/dynamic-params", json=BODY)
    assert response.status == 502
    [llm] = [s for s in spans.get_finished_spans() if s.name.startswith("chat ")]
    assert (llm.attributes or {})["error.type"] == "LLM_UNAVAILABLE"


async def test_upstream_calls_get_spans_and_carry_their_context(
    spans: InMemorySpanExporter, make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    from resolver.testing.fake_upstreams import DEMO_KN

    client = await make_kn_client(llm=False)
    body: dict[str, Any] = {
        "kn_id": DEMO_KN,
        "ot_id": "ot_company",
        "query": "",
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": ["approved_drug_count"],
        "dynamic_params": {"approved_drug_count": {"instant": True}},
    }
    response = await client.post(
        "/api/agent-retrieval/in/v1/kn/logic-property-resolver",
        json=body,
        headers={"traceparent": TRACEPARENT},
    )
    assert response.status == 200, await response.text()
    upstream = [
        s
        for s in _by_kind(spans.get_finished_spans(), SpanKind.CLIENT)
        if "resolver.upstream.service" in (s.attributes or {})
    ]
    assert len(upstream) >= 2
    for span in upstream:
        assert format(span.context.trace_id, "032x") == PARENT_TRACE
    # Each upstream received a traceparent naming its own client span.
    seen = [*kn_fakes.manager.calls, *kn_fakes.values.calls]
    sent = {c.headers["traceparent"].split("-")[2] for c in seen if "traceparent" in c.headers}
    assert sent & {format(s.context.span_id, "016x") for s in upstream}


async def test_tracing_off_records_nothing_and_adds_no_middleware(
    make_client: ClientFactory,
) -> None:
    assert not tracing.enabled()
    client = await make_client(llm=False)
    assert len(client.app.middlewares) == 0  # the request edge wraps each route instead
    response = await client.get("/healthz", headers={"traceparent": TRACEPARENT})
    assert response.headers["x-trace-id"] == PARENT_TRACE


@pytest.mark.slow
async def test_spans_are_exported_over_otlp_when_the_endpoint_is_set(
    aiohttp_server: Any, fake: FakeLLM
) -> None:
    received: list[tuple[str, bytes]] = []

    async def collect(request: web.Request) -> web.Response:
        received.append((request.headers.get("Content-Type", ""), await request.read()))
        return web.Response(body=b"", content_type="application/x-protobuf")

    collector = web.Application()
    collector.router.add_post("/v1/traces", collect)
    server = await aiohttp_server(collector)
    endpoint = str(server.make_url("")).rstrip("/")
    async with serve(fake, OTEL_EXPORTER_OTLP_ENDPOINT=endpoint) as service:
        async with (
            aiohttp.ClientSession() as session,
            session.post(
                f"{service.url}/v1/dynamic-params", json=BODY, headers={"traceparent": TRACEPARENT}
            ) as response,
        ):
            assert response.status == 200
        service.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(service.process.wait(), 30)
    assert received, "no OTLP export reached the collector"
    content_type = received[0][0]
    assert content_type == "application/x-protobuf"
    assert bytes.fromhex(PARENT_TRACE) in b"".join(p for _, p in received)
