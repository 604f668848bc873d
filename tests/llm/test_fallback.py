"""Issue 14.2 and 14.3: usage in debug, /metrics and the log; a fallback endpoint behind the
primary's circuit breaker, its state in /readyz and /metrics."""

from __future__ import annotations

import asyncio

import orjson

from resolver.testing.fake_llm import FakeLLM, Reply
from tests.helpers import (
    ClientFactory,
    metric,
    metric_value,
    metrics_text,
    post,
    request_body,
)

PROP = metric("drug_sales", ("region", "STRING"))
BODY = request_body(PROP, query="当前华东地区的药品销售额")


async def test_usage_per_call_per_request_and_in_metrics(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    bad = orjson.dumps({"drug_sales": {"region": 7}}).decode()
    fake_llm.push(Reply(status=503), Reply(content=bad))  # one retry, then a repair round
    client = await make_client()
    status, payload = await post(client, {**BODY, "options": {"return_debug": True}})
    assert status == 200, payload
    llm = payload["debug"]["properties"]["drug_sales"]["llm"]
    assert llm["calls"] == 2
    assert llm["retries"] == 1
    assert llm["repair_rounds"] == 1
    assert llm["attempts"] == 3
    assert llm["model"] == "gpt-4o-mini"
    assert llm["finish_reason"] == "stop"
    usage = llm["usage"]
    assert usage["prompt_tokens"] > 0
    assert usage["completion_tokens"] > 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    total = payload["debug"]["llm_usage"]
    assert total["total_tokens"] == usage["total_tokens"]
    assert total["calls"] == 2
    text = await metrics_text(client)
    calls = "resolver_llm_calls_total"
    assert metric_value(text, calls, 'purpose="first"', 'outcome="ok"', 'model="gpt-4o-mini"') == 1
    assert metric_value(text, calls, 'purpose="repair"', 'outcome="ok"') == 1
    assert metric_value(text, "resolver_llm_retries_total", 'endpoint="primary"') == 1
    prompt = metric_value(text, "resolver_llm_tokens_total", 'type="prompt"')
    assert prompt == usage["prompt_tokens"]


async def test_no_fallback_no_circuit(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    client = await make_client(llm_max_attempts=1)
    for _ in range(8):
        fake_llm.push(Reply(status=503))
        assert (await post(client, BODY))[0] == 502
    assert (await post(client, BODY))[0] == 200  # nowhere else to go: the primary is asked
    ready = orjson.loads(await (await client.get("/readyz")).read())
    assert ready["llm"].get("circuit") is None


async def test_a_failing_primary_opens_the_circuit_and_the_fallback_answers(
    make_client: ClientFactory, fake_llm: FakeLLM, fallback_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=503))
    client = await make_client(
        llm_fallback_base_url=fallback_llm.url,  # type: ignore[attr-defined]
        llm_fallback_model="small-model",
        llm_circuit_cool_down_s=60,
    )
    status, payload = await post(client, {**BODY, "options": {"return_debug": True}})
    assert status == 200, payload
    assert len(fake_llm.calls) == 3  # retries exhausted: the circuit opens
    assert len(fallback_llm.calls) == 1
    assert fallback_llm.calls[0].body["model"] == "small-model"
    assert payload["debug"]["properties"]["drug_sales"]["llm"]["endpoint"] == "fallback"
    # While open, calls go straight to the fallback.
    status, _ = await post(client, request_body(PROP, query="当前华南地区的药品销售额"))
    assert status == 200
    assert len(fake_llm.calls) == 3
    assert len(fallback_llm.calls) == 2
    ready = orjson.loads(await (await client.get("/readyz")).read())
    assert ready["status"] == "ready"
    assert ready["llm"]["circuit"]["state"] == "open"
    assert ready["llm"]["fallback"]["reachable"] is True
    text = await metrics_text(client)
    assert metric_value(text, "resolver_llm_circuit_state", 'endpoint="primary"') == 2
    assert metric_value(
        text, "resolver_llm_calls_total", 'endpoint="fallback"', 'model="small-model"'
    )


async def test_consecutive_failures_open_the_circuit_and_a_probe_restores_the_primary(
    make_client: ClientFactory, fake_llm: FakeLLM, fallback_llm: FakeLLM
) -> None:
    client = await make_client(
        llm_fallback_base_url=fallback_llm.url,  # type: ignore[attr-defined]
        llm_circuit_failures=2,
        llm_circuit_cool_down_s=0.5,
    )
    fake_llm.push(Reply(status=500), Reply(status=502))
    assert (await post(client, BODY))[0] == 200
    assert len(fake_llm.calls) == 2  # two failed attempts in a row opened it mid-call
    assert len(fallback_llm.calls) == 1
    await asyncio.sleep(0.6)  # the cool-down passes: half-open
    ready = orjson.loads(await (await client.get("/readyz")).read())
    assert ready["llm"]["circuit"]["state"] == "half_open"
    assert (await post(client, request_body(PROP, query="当前华南地区的药品销售额")))[0] == 200
    assert len(fake_llm.calls) == 3  # the probe went to the primary and succeeded
    assert len(fallback_llm.calls) == 1
    ready = orjson.loads(await (await client.get("/readyz")).read())
    assert ready["llm"]["circuit"]["state"] == "closed"
    text = await metrics_text(client)
    assert metric_value(text, "resolver_llm_circuit_state", 'endpoint="primary"') == 0
    moves = "resolver_llm_circuit_transitions_total"
    assert metric_value(text, moves, 'state="open"') == 1
    assert metric_value(text, moves, 'state="closed"') == 1


async def test_a_failed_probe_reopens_the_circuit(
    make_client: ClientFactory, fake_llm: FakeLLM, fallback_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=503))
    client = await make_client(
        llm_fallback_base_url=fallback_llm.url,  # type: ignore[attr-defined]
        llm_circuit_cool_down_s=0.3,
    )
    assert (await post(client, BODY))[0] == 200
    assert len(fake_llm.calls) == 3
    await asyncio.sleep(0.4)
    assert (await post(client, request_body(PROP, query="当前华南地区的药品销售额")))[0] == 200
    assert len(fake_llm.calls) == 4  # one probe attempt, no retries
    ready = orjson.loads(await (await client.get("/readyz")).read())
    assert ready["llm"]["circuit"]["state"] == "open"
    assert ready["llm"]["circuit"]["times_opened"] == 2


async def test_a_4xx_from_the_primary_is_not_a_reason_to_fall_back(
    make_client: ClientFactory, fake_llm: FakeLLM, fallback_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(status=400))
    client = await make_client(llm_fallback_base_url=fallback_llm.url)  # type: ignore[attr-defined]
    assert (await post(client, BODY))[0] == 502
    assert len(fallback_llm.calls) == 0
    ready = orjson.loads(await (await client.get("/readyz")).read())
    assert ready["llm"]["circuit"]["state"] == "closed"


async def test_an_llm_failure_with_return_debug_shows_what_the_model_said(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(content="no json here"))
    client = await make_client()
    body = {**BODY, "options": {"return_debug": True, "max_repair_rounds": 0}}
    status, payload = await post(client, body)
    assert status == 502
    llm = payload["error"]["details"]["debug"]["properties"]["drug_sales"]["llm"]
    assert llm["response"] == "no json here"
    assert llm["usage"]["total_tokens"] > 0
