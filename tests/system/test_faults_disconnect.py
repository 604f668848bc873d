"""A client that hangs up mid-request: its LLM calls stop, and nothing is left behind.

`resolver serve` runs with handler_cancellation=True; aiohttp's TestServer (3.14) serves
with it too, so the in-process client sees the same behaviour: closing the connection
cancels the handler, the fan-out and the LLM call in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import psutil

from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from resolver.web.servicekeys import SERVICES_KEY
from tests.helpers import ClientFactory, assert_settled, operator, request_body, wait_for

PROPS = [operator(f"p{i}", ("x", "STRING")) for i in range(4)]
SLOW_S = 0.3


def slow(call: Call) -> Reply:
    reply = plausible(call)
    reply.delay_s = SLOW_S
    return reply


async def hang_up_after_first_call(client: Any, fake: FakeLLM, payload: dict[str, Any]) -> float:
    """Start the request, close the connection once the fake sees a call; when it closed."""
    seen = len(fake.calls)
    request = asyncio.create_task(client.post("/v1/dynamic-params", json=payload))
    await wait_for(lambda: len(fake.calls) > seen)
    request.cancel()  # the client closes its connection mid-request
    hung_up = time.monotonic()
    with contextlib.suppress(asyncio.CancelledError):
        await request
    return hung_up


def connections_to(port: int) -> int:
    """Established TCP connections of this process to a local port (client side)."""
    return sum(
        1
        for c in psutil.Process().net_connections(kind="tcp")
        if c.raddr and c.raddr.port == port and c.status == psutil.CONN_ESTABLISHED
    )


async def test_hanging_up_stops_the_llm_calls(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(slow)
    client = await make_client()
    payload = request_body(*PROPS, query="x 取默认值", options={"max_concurrency": 1})
    hung_up = await hang_up_after_first_call(client, fake_llm, payload)
    # Three more calls would have started within 3 × SLOW_S; none may.
    await asyncio.sleep(4 * SLOW_S)
    assert len(fake_llm.calls) == 1
    call = fake_llm.calls[0]
    assert call.ended is not None
    assert call.ended - hung_up < 0.2  # the call in flight was abandoned, not waited for
    await assert_settled(client, fake_llm)


async def test_hanging_up_during_a_retry_wait_sends_no_retry(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=503, headers={"Retry-After": "0.4"}))
    client = await make_client()
    await hang_up_after_first_call(client, fake_llm, request_body(*PROPS[:1], query="x 取默认值"))
    await asyncio.sleep(0.8)
    assert len(fake_llm.calls) == 1
    await assert_settled(client, fake_llm)


async def test_hanging_up_while_waiting_for_a_slot_gives_the_place_back(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(slow)
    client = await make_client(llm_max_inflight=1)
    first = asyncio.create_task(
        client.post("/v1/dynamic-params", json=request_body(PROPS[0], query="x 取默认值"))
    )
    await wait_for(lambda: len(fake_llm.calls) == 1)
    waiting = asyncio.create_task(
        client.post("/v1/dynamic-params", json=request_body(PROPS[1], query="x 取默认值"))
    )
    limiter = client.app[SERVICES_KEY].params.llm.limiter
    await wait_for(lambda: limiter.pending == 1)
    waiting.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiting
    await wait_for(lambda: limiter.pending == 0, within_s=0.5)
    response = await first
    assert response.status == 200
    await asyncio.sleep(SLOW_S)
    assert [c.property_name for c in fake_llm.calls] == ["p0"]
    await assert_settled(client, fake_llm)


async def test_repeated_hang_ups_leak_no_connections_or_tasks(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(slow)
    client = await make_client()
    port = int(fake_llm.url.rsplit(":", 1)[1].split("/")[0])  # type: ignore[attr-defined]
    payload = request_body(*PROPS, query="x 取默认值", options={"max_concurrency": 4})
    status = (await client.post("/v1/dynamic-params", json=payload)).status
    assert status == 200
    pooled = connections_to(port)  # idle keep-alive connections after a clean request
    for _ in range(5):
        await hang_up_after_first_call(client, fake_llm, payload)
        await assert_settled(client, fake_llm)
        assert connections_to(port) <= pooled
    # The service still works, through the same pool.
    response = await client.post("/v1/dynamic-params", json=payload)
    assert response.status == 200
    await assert_settled(client, fake_llm)
