"""A real `python -m resolver serve` subprocess: graceful shutdown on SIGTERM, and a client
that hangs up stops its LLM calls (handler_cancellation, as `resolver serve` configures it).

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
from tests.helpers import SECRET, operator, request_body, serve

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


async def test_requests_outliving_the_grace_period_are_cut_and_the_exit_is_still_0(
    fake: FakeLLM,
) -> None:
    fake.respond(lambda call: Reply(hang=True))
    async with (
        serve(fake, RESOLVER_SHUTDOWN_GRACE_S="0.5") as service,
        aiohttp.ClientSession() as s,
    ):
        payload = request_body(*PROPS[:1], query="x 取默认值")
        in_flight = asyncio.create_task(s.post(f"{service.url}/v1/dynamic-params", json=payload))
        await wait_for(lambda: len(fake.calls) == 1)
        service.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        code = await asyncio.wait_for(service.process.wait(), timeout=5)
        assert code == 0
        assert time.monotonic() - signalled < 2.0  # the grace, not the LLM, bounds the exit
        with pytest.raises(aiohttp.ClientError):
            await in_flight
        await wait_for(lambda: fake.calls[0].ended is not None, within_s=1.0)
        output = await service.output()
    assert SECRET not in output
    assert "Traceback" not in output


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
