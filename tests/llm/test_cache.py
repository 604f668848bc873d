"""Issue 14.4: identical LLM requests within the TTL make one call; identical calls in flight
share one (single-flight); answers the rules rejected are not kept."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from resolver.llm.cache import LruBackend, SingleFlight
from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from tests.helpers import ClientFactory, metric, post, request_body

PROP = metric("drug_sales", ("region", "STRING"))
BODY = request_body(PROP, query="当前华东地区的药品销售额")


async def _metric_value(client: Any, name: str, labels: str) -> float:
    text = (await (await client.get("/metrics")).read()).decode()
    for line in text.splitlines():
        if line.startswith(f"{name}{{") and labels in line:
            return float(line.rsplit(" ", 1)[1])
    return 0.0


async def test_an_identical_request_is_answered_from_the_cache(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_cache_ttl_s=300)
    first = await post(client, {**BODY, "options": {"return_debug": True}})
    second = await post(client, {**BODY, "options": {"return_debug": True}})
    assert first[0] == second[0] == 200
    assert first[1]["dynamic_params"] == second[1]["dynamic_params"]
    assert len(fake_llm.calls) == 1
    llm = second[1]["debug"]["properties"]["drug_sales"]["llm"]
    assert llm["cached_calls"] == 1
    assert llm["usage"]["total_tokens"] == 0  # a cached answer costs nothing
    assert second[1]["debug"]["llm_usage"]["cached_calls"] == 1
    assert await _metric_value(client, "resolver_llm_cache_lookups_total", 'result="hit"') == 1
    assert await _metric_value(client, "resolver_llm_cache_lookups_total", 'result="miss"') == 1


async def test_the_clock_does_not_break_the_key_when_no_time_value_is_open(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_cache_ttl_s=300)
    for offset in (0, 1, 61_000, 3_600_000):  # same day, later and later
        status, _ = await post(client, {**BODY, "now_ms": BODY["now_ms"] + offset})
        assert status == 200
    assert len(fake_llm.calls) == 1
    # …nor does a now_ms pair in free-text context.
    status, _ = await post(client, {**BODY, "additional_context": "now_ms=1762996342999；"})
    assert status == 200
    assert len(fake_llm.calls) == 1


async def test_time_values_keep_a_key_per_minute(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_cache_ttl_s=300)
    body = request_body(PROP, query="华东药品销售额")  # instant and the window are open
    for offset in (0, 1_000, 120_000):
        status, _ = await post(client, {**body, "now_ms": body["now_ms"] - 22_241 + offset})
        assert status == 200
    assert len(fake_llm.calls) == 2  # the first two share a minute, the third does not
    assert fake_llm.calls[0].task["now"] == "2025-11-13T09:12+08:00"


async def test_identical_concurrent_calls_share_one_call(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.latency_s = 0.3
    client = await make_client(llm_cache_ttl_s=300)
    results = await asyncio.gather(*(post(client, BODY) for _ in range(8)))
    assert [status for status, _ in results] == [200] * 8
    assert len(fake_llm.calls) == 1
    assert await _metric_value(client, "resolver_llm_cache_lookups_total", 'result="shared"') == 7


async def test_a_rejected_answer_is_not_kept(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    client = await make_client(llm_cache_ttl_s=300)
    bad = orjson.dumps({"drug_sales": {"region": 7}}).decode()
    fake_llm.push(Reply(content=bad), Reply(content=bad))
    status, _ = await post(client, {**BODY, "options": {"max_repair_rounds": 0}})
    assert status == 502
    status, _ = await post(client, {**BODY, "options": {"max_repair_rounds": 0}})
    assert status == 502
    assert len(fake_llm.calls) == 2  # asked again, not served the rejected answer
    status, _ = await post(client, BODY)
    assert status == 200
    assert len(fake_llm.calls) == 3


async def test_failures_are_not_cached(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    client = await make_client(llm_cache_ttl_s=300, llm_max_attempts=1)
    fake_llm.push(Reply(status=503))
    assert (await post(client, BODY))[0] == 502
    assert (await post(client, BODY))[0] == 200
    assert len(fake_llm.calls) == 2


async def test_ttl_zero_turns_the_cache_and_single_flight_off(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.latency_s = 0.1
    client = await make_client(llm_cache_ttl_s=0)
    await asyncio.gather(post(client, BODY), post(client, BODY))
    await post(client, BODY)
    assert len(fake_llm.calls) == 3


async def test_lru_backend_expires_and_evicts() -> None:
    now = [0.0]
    backend = LruBackend(max_entries=2, clock=lambda: now[0])
    await backend.set("a", b"1", 10)
    await backend.set("b", b"2", 10)
    assert await backend.get("a") == b"1"  # a is now the most recently used
    await backend.set("c", b"3", 10)
    assert await backend.get("b") is None
    assert await backend.get("a") == b"1"
    now[0] = 11
    assert await backend.get("a") is None
    assert len(backend) == 1  # c is still stored until asked for


async def test_single_flight_survives_a_leaving_caller_and_stops_when_all_leave() -> None:
    flights = SingleFlight()
    started = asyncio.Event()
    finished = asyncio.Event()
    calls = 0

    async def slow() -> int:
        nonlocal calls
        calls += 1
        started.set()
        await asyncio.sleep(0.2)
        finished.set()
        return 42

    first = asyncio.create_task(flights.run("k", slow))
    await started.wait()
    second = asyncio.create_task(flights.run("k", slow))
    await asyncio.sleep(0)
    first.cancel()
    assert await second == (42, True)
    assert calls == 1
    assert len(flights) == 0

    started.clear()
    finished.clear()
    lone = asyncio.create_task(flights.run("k", slow))
    await started.wait()
    lone.cancel()
    await asyncio.sleep(0.3)
    assert not finished.is_set()  # the call was cancelled with its last caller
    assert len(flights) == 0


async def test_context_meant_for_another_property_does_not_break_the_key(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    risk = {
        "name": "is_high_risk",
        "type": "operator",
        "parameters": [{"name": "threshold", "type": "NUMBER", "value_from": "input"}],
    }
    client = await make_client(llm_cache_ttl_s=300)
    body = request_body(PROP, risk, query="当前华东地区的药品销售额和风险")

    def answer(call: Call) -> Reply:
        if call.property_name == "is_high_risk":
            return Reply(content='{"_error": "missing is_high_risk: threshold | ask: 阈值？"}')
        return plausible(call)

    fake_llm.respond(answer)
    status, _ = await post(client, body)
    assert status == 422
    calls = len(fake_llm.calls)
    for context in ("threshold=0.8", {"threshold": 0.8}, "threshold：0.8；"):
        status, payload = await post(client, {**body, "additional_context": context})
        assert status == 200, payload
    # The operator is settled from the context in code; the metric's prompt is unchanged.
    assert len(fake_llm.calls) == calls
    sales = [c for c in fake_llm.calls if c.property_name == "drug_sales"]
    assert sales[0].task["additional_context"] == ""


async def test_context_for_this_property_stays_in_its_prompt(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_cache_ttl_s=300)
    prop = metric("drug_sales", ("region", "STRING"), ("top_n", "INTEGER"))
    context = "region=华东；threshold=0.8；备注：只看上市公司"
    body = request_body(prop, query="当前销售额前几名的药品", additional_context=context)
    status, _ = await post(client, body)
    assert status == 200
    # region is this property's (and settled from the context); threshold is no input of
    # any property here, so it stays as text for the model, as does the note.
    [call] = fake_llm.calls
    assert call.task["generate"] == ["top_n"]
    assert call.task["additional_context"] == context
