"""Overload: LLM calls waiting for a slot are bounded; beyond RESOLVER_MAX_PENDING the service
answers 503 OVERLOADED with Retry-After at once instead of queueing without limit."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import orjson

from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from resolver.web.servicekeys import SERVICES_KEY
from tests.helpers import ClientFactory, assert_settled, operator, request_body, wait_for

# A queued request would wait a whole slow call; one refused at once waits only for the loop to
# get through the burst's other requests (20 of them in a fresh process take ~0.25 s on a shared
# 2-core machine, which made a 0.5 s call's half too tight a bound).
SLOW_S = 1.0
PROPS = [operator(f"p{i}", ("x", "STRING")) for i in range(4)]


def slow(call: Call) -> Reply:
    reply = plausible(call)
    reply.delay_s = SLOW_S
    return reply


def payload(*props: dict[str, Any]) -> dict[str, Any]:
    return request_body(*props, query="x 取默认值", options={"max_concurrency": len(props)})


async def timed_post(client: Any, body: dict[str, Any]) -> tuple[int, dict[str, Any], Any, float]:
    started = time.monotonic()
    response = await client.post("/v1/dynamic-params", json=body)
    data = orjson.loads(await response.read())
    return response.status, data, response.headers, time.monotonic() - started


def assert_overloaded(status: int, data: dict[str, Any], headers: Any, elapsed: float) -> None:
    assert status == 503, data
    assert data["error"]["code"] == "OVERLOADED"
    assert data["_error"]
    assert data["trace_id"]
    assert int(headers["Retry-After"]) >= 1
    assert elapsed < SLOW_S / 2  # refused at once, not after queueing behind the slow call


async def test_beyond_max_pending_the_answer_is_503_at_once(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(slow)
    client = await make_client(llm_max_inflight=1, max_pending=1)
    limiter = client.app[SERVICES_KEY].params.llm.limiter
    holder = asyncio.create_task(timed_post(client, payload(PROPS[0])))
    await wait_for(lambda: limiter.inflight == 1)
    queued = asyncio.create_task(timed_post(client, payload(PROPS[1])))
    await wait_for(lambda: limiter.pending == 1)

    assert_overloaded(*await timed_post(client, payload(PROPS[2])))
    assert limiter.pending == 1  # the refused call did not join the queue

    # Those admitted are served in turn; then the service takes work again.
    assert (await holder)[0] == 200
    assert (await queued)[0] == 200
    assert [c.property_name for c in fake_llm.calls] == ["p0", "p1"]
    status, *_ = await timed_post(client, payload(PROPS[3]))
    assert status == 200
    await assert_settled(client, fake_llm)


async def test_an_overflowing_request_is_refused_whole_and_sends_nothing(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(slow)
    client = await make_client(llm_max_inflight=1, max_pending=2)
    limiter = client.app[SERVICES_KEY].params.llm.limiter
    holder = asyncio.create_task(timed_post(client, payload(PROPS[0])))
    await wait_for(lambda: limiter.inflight == 1)

    # Three calls of one request would wait where only two may: the request is refused, and
    # the two of its calls already waiting leave the queue with it.
    assert_overloaded(*await timed_post(client, payload(*PROPS[1:])))
    await wait_for(lambda: limiter.pending == 0, within_s=0.2)
    assert (await holder)[0] == 200
    await asyncio.sleep(0.1)
    assert [c.property_name for c in fake_llm.calls] == ["p0"]
    await assert_settled(client, fake_llm)


async def test_no_queue_at_all_with_max_pending_zero(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(slow)
    client = await make_client(llm_max_inflight=2, max_pending=0)
    limiter = client.app[SERVICES_KEY].params.llm.limiter
    holders = [asyncio.create_task(timed_post(client, payload(p))) for p in PROPS[:2]]
    await wait_for(lambda: limiter.inflight == 2)
    results = await asyncio.gather(*(timed_post(client, payload(p)) for p in PROPS[2:]))
    for result in results:
        assert_overloaded(*result)
    assert [(await h)[0] for h in holders] == [200, 200]
    await assert_settled(client, fake_llm)


async def test_a_burst_is_bounded_not_queued(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    # 20 requests at once against 2 slots and 3 places in the queue: 5 are served, the rest
    # are told to come back, and no more than 5 calls ever reach the LLM.
    fake_llm.respond(slow)
    client = await make_client(llm_max_inflight=2, max_pending=3)
    props = [operator(f"b{i}", ("x", "STRING")) for i in range(20)]
    results = await asyncio.gather(*(timed_post(client, payload(p)) for p in props))
    statuses = sorted(status for status, *_ in results)
    assert statuses == [200] * 5 + [503] * 15
    for status, data, headers, elapsed in results:
        if status == 503:
            assert_overloaded(status, data, headers, elapsed)
    assert len(fake_llm.calls) == 5
    assert fake_llm.peak_inflight == 2
    await assert_settled(client, fake_llm)
