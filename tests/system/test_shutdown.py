"""A real `python -m resolver serve` subprocess: graceful shutdown on SIGTERM (`/readyz` 503 at
once, the drain time, no retry once draining, 503 `SHUTTING_DOWN` at the grace deadline, exit 0
within grace + 1 s), and a client that hangs up stops its LLM calls (handler_cancellation).

The fake LLM runs in the test's event loop on loopback; the service is a child process.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from typing import Any

import aiohttp
import orjson
import pytest

from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from tests.helpers import SECRET, assert_error_shape, operator, request_body, serve

pytestmark = pytest.mark.slow

PROPS = [operator(f"p{i}", ("x", "STRING")) for i in range(3)]


def delayed(seconds: float) -> Any:
    def responder(call: Call) -> Reply:
        reply = plausible(call)
        reply.delay_s = seconds
        return reply

    return responder


async def wait_for(predicate: Any, within_s: float = 5.0) -> None:
    deadline = time.monotonic() + within_s
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.01)


def assert_clean_log(output: str) -> None:
    """JSON lines only, no traceback, no error line, and never the API key."""
    assert SECRET not in output
    assert "Traceback" not in output
    for line in output.splitlines():
        record = orjson.loads(line)
        assert record["level"] not in ("error", "critical"), line


async def test_sigterm_finishes_in_flight_requests_refuses_new_ones_and_exits_0(
    fake: FakeLLM,
) -> None:
    fake.respond(delayed(1.0))
    async with serve(fake, RESOLVER_SHUTDOWN_GRACE_S="5") as service, aiohttp.ClientSession() as s:
        payload = request_body(*PROPS, query="x 取默认值", options={"max_concurrency": 3})
        in_flight = asyncio.create_task(s.post(f"{service.url}/v1/dynamic-params", json=payload))
        await wait_for(lambda: len(fake.calls) == 3)

        service.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        refused = False
        while time.monotonic() - signalled < 0.8:  # the listener closes at once
            if await service.refuses_connections():
                refused = True
                break
            await asyncio.sleep(0.02)
        assert refused, "still accepting connections after SIGTERM"
        assert not in_flight.done()  # while the accepted request is still being served

        response = await in_flight
        body = await response.json()
        assert response.status == 200, body
        assert list(body["dynamic_params"]) == ["p0", "p1", "p2"]

        code = await asyncio.wait_for(service.process.wait(), timeout=5)
        assert code == 0
        assert time.monotonic() - signalled < 5  # well within the grace period
        output = await service.output()
    assert_clean_log(output)
    assert '"http.request"' in output


async def test_requests_outliving_the_grace_period_are_answered_503_and_the_exit_is_bounded(
    fake: FakeLLM,
) -> None:
    # Before: the exit took about twice the grace, and the cut request got no answer and no
    # log line. Now: 503 SHUTTING_DOWN at the grace deadline, logged, exit 0 within grace + 1 s.
    fake.respond(lambda call: Reply(hang=True))
    grace = 2.0
    async with (
        serve(fake, RESOLVER_SHUTDOWN_GRACE_S=str(grace)) as service,
        aiohttp.ClientSession() as s,
    ):
        payload = request_body(*PROPS[:1], query="x 取默认值")
        in_flight = asyncio.create_task(s.post(f"{service.url}/v1/dynamic-params", json=payload))
        await wait_for(lambda: len(fake.calls) == 1)
        service.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        response = await asyncio.wait_for(in_flight, timeout=grace + 2)
        answered = time.monotonic() - signalled
        body = await response.json()
        code = await asyncio.wait_for(service.process.wait(), timeout=grace + 2)
        exited = time.monotonic() - signalled
        await wait_for(lambda: fake.calls[0].ended is not None, within_s=1.0)
        output = await service.output()
    assert response.status == 503, body
    assert_error_shape(body, "SHUTTING_DOWN")
    assert response.headers["Connection"].lower() == "close"
    assert grace - 0.2 <= answered <= grace + 0.8
    assert code == 0
    assert exited < grace + 1.0  # the grace, not the LLM, bounds the exit
    assert_clean_log(output)
    events = [orjson.loads(line) for line in output.splitlines()]
    cut = [e for e in events if e["event"] == "request.cut"]
    assert len(cut) == 1
    assert cut[0]["trace_id"] == body["trace_id"]
    assert any(e["event"] == "http.request" and e["status"] == 503 for e in events)


async def test_readyz_turns_503_at_once_and_the_listener_accepts_for_the_drain_time(
    fake: FakeLLM,
) -> None:
    fake.respond(delayed(2.5))
    drain = 1.5
    async with (
        serve(fake, RESOLVER_SHUTDOWN_GRACE_S="6", RESOLVER_DRAIN_S=str(drain)) as service,
        aiohttp.ClientSession() as s,
    ):
        payload = request_body(*PROPS[:1], query="x 取默认值")
        in_flight = asyncio.create_task(s.post(f"{service.url}/v1/dynamic-params", json=payload))
        await wait_for(lambda: len(fake.calls) == 1)
        service.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        await asyncio.sleep(0.1)
        # A fresh connection each time: what a kubelet probe or a new client does.
        async with aiohttp.ClientSession() as fresh, fresh.get(f"{service.url}/readyz") as ready:
            assert ready.status == 503
            assert (await ready.json())["status"] == "draining"
        served_while_draining = 0
        while time.monotonic() - signalled < drain - 0.4:
            async with aiohttp.ClientSession() as fresh, fresh.get(f"{service.url}/healthz") as r:
                assert r.status == 200
                served_while_draining += 1
            await asyncio.sleep(0.1)
        await wait_for(lambda: time.monotonic() - signalled > drain + 0.4, within_s=drain + 1)
        assert await service.refuses_connections()
        response = await in_flight
        assert response.status == 200, await response.text()
        assert await asyncio.wait_for(service.process.wait(), timeout=6) == 0
        output = await service.output()
    assert served_while_draining >= 3
    assert_clean_log(output)


async def test_no_llm_retry_starts_once_draining_has_begun(fake: FakeLLM) -> None:
    # The call in flight at SIGTERM fails (503) a second later; before, a retry started
    # anyway, long after SIGTERM. Now the request is answered with the failure at once.
    fake.push(Reply(status=503, delay_s=1.0))
    async with (
        serve(fake, RESOLVER_SHUTDOWN_GRACE_S="8") as service,
        aiohttp.ClientSession() as s,
    ):
        payload = request_body(*PROPS[:1], query="x 取默认值")
        in_flight = asyncio.create_task(s.post(f"{service.url}/v1/dynamic-params", json=payload))
        await wait_for(lambda: len(fake.calls) == 1)
        service.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        response = await asyncio.wait_for(in_flight, timeout=8)
        body = await response.json()
        code = await asyncio.wait_for(service.process.wait(), timeout=8)
        exited = time.monotonic() - signalled
        output = await service.output()
    assert response.status == 502, body
    assert_error_shape(body, "LLM_UNAVAILABLE")
    assert len(fake.calls) == 1  # no retry
    assert code == 0
    assert exited < 3.0
    assert_clean_log(output)
    assert '"llm.retry"' not in output


async def test_real_serve_stops_llm_calls_when_the_client_hangs_up(fake: FakeLLM) -> None:
    fake.respond(delayed(0.3))
    async with serve(fake) as service, aiohttp.ClientSession() as s:
        payload = request_body(*PROPS, query="x 取默认值", options={"max_concurrency": 1})
        request = asyncio.create_task(s.post(f"{service.url}/v1/dynamic-params", json=payload))
        await wait_for(lambda: len(fake.calls) == 1)
        request.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await request
        await asyncio.sleep(1.0)  # two more calls would have started by now
        assert len(fake.calls) == 1
        assert fake.calls[0].ended is not None
        service.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(service.process.wait(), timeout=5) == 0
        output = await service.output()
    assert_clean_log(output)
