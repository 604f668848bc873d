"""A real `python -m resolver serve` subprocess: graceful shutdown on SIGTERM, and a client
that hangs up stops its LLM calls (handler_cancellation, as `resolver serve` configures it).

The fake LLM runs in the test's event loop on loopback; the service is a child process.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import pytest

from benchmarks.fake_llm import Call, FakeLLM, Reply, plausible
from tests.conftest import operator, request_body

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SECRET = "sk-test-SHUTDOWN-SECRET-42"
PROPS = [operator(f"p{i}", ("x", "STRING")) for i in range(3)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def delayed(seconds: float) -> Any:
    def responder(call: Call) -> Reply:
        reply = plausible(call)
        reply.delay_s = seconds
        return reply

    return responder


class Service:
    """The child process and how to reach it."""

    def __init__(self, process: asyncio.subprocess.Process, port: int) -> None:
        self.process = process
        self.port = port
        self.url = f"http://127.0.0.1:{port}"

    async def output(self) -> str:
        """Everything the process wrote (after it exited)."""
        assert self.process.stdout is not None
        return (await self.process.stdout.read()).decode()

    async def refuses_connections(self) -> bool:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except ConnectionRefusedError:
            return True
        writer.close()
        await writer.wait_closed()
        return False


@contextlib.asynccontextmanager
async def serve(fake: FakeLLM, **env: str) -> AsyncIterator[Service]:
    """Start `python -m resolver serve` against the fake; wait until /healthz answers."""
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("RESOLVER_")}
    environment.update(
        RESOLVER_LLM_BASE_URL=fake.url,  # type: ignore[attr-defined]
        RESOLVER_LLM_API_KEY=SECRET,
        RESOLVER_LOG_FORMAT="json",
        **env,
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "resolver",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        cwd=ROOT,
        env=environment,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    service = Service(process, port)
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(200):
                with contextlib.suppress(aiohttp.ClientConnectionError):
                    async with session.get(f"{service.url}/healthz") as response:
                        if response.status == 200:
                            break
                assert process.returncode is None, await service.output()
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("resolver serve did not come up")
        yield service
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.fixture
async def fake(aiohttp_server: Any) -> FakeLLM:
    fake = FakeLLM()
    server = await aiohttp_server(fake.app())
    fake.url = str(server.make_url("/v1"))  # type: ignore[attr-defined]
    return fake


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
