"""Hostile request bodies against a real `resolver serve`: a gzip bomb over the size limit is
refused at once, and nothing of the rest of it is read, let alone inflated; the connection is
closed soon after, and `/healthz` stays fast meanwhile. A 41 KB request of Chinese-numeral runs
for 16 metrics answers within a second.

Once the 413 came at once but aiohttp went on draining the body to keep the connection
alive, inflating it as it went: a 5 MB bomb kept the event loop busy for up to 10 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import aiohttp
import orjson
import psutil
import pytest

from resolver.testing.bombs import gzip_bomb
from resolver.testing.fake_llm import FakeLLM
from resolver.web.bodies import LINGER_S
from tests.helpers import NOW_MS, Service, metric, serve

pytestmark = pytest.mark.slow

BOMB = gzip_bomb(4 << 20)  # 4 MB that inflate to about 4 GB
LIMIT = 64 * 1024


async def healthz_worst(url: str, stop: asyncio.Event) -> float:
    """Poll /healthz until `stop`; the slowest answer, in seconds."""
    worst = 0.0
    async with aiohttp.ClientSession() as session:
        while not stop.is_set():
            started = time.monotonic()
            async with session.get(f"{url}/healthz") as response:
                await response.read()
                assert response.status == 200
            worst = max(worst, time.monotonic() - started)
            await asyncio.sleep(0.05)
    return worst


async def send_bomb(service: Service, content_type: str, path: str) -> tuple[bytes, float, float]:
    """Send the bomb on one connection; (the answer, seconds to its head, seconds to EOF)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", service.port)
    head = (
        f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {content_type}\r\n"
        f"Content-Encoding: gzip\r\nContent-Length: {len(BOMB)}\r\n\r\n"
    )
    started = time.monotonic()
    writer.write(head.encode())

    async def body() -> None:
        with contextlib.suppress(ConnectionError):
            for at in range(0, len(BOMB), 1 << 16):
                writer.write(BOMB[at : at + (1 << 16)])
                await writer.drain()

    sending = asyncio.create_task(body())
    answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    answered = time.monotonic() - started
    length = next(
        int(line.split(b":", 1)[1])
        for line in answer.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    answer += await asyncio.wait_for(reader.readexactly(length), 5)
    with contextlib.suppress(TimeoutError, ConnectionError):
        await asyncio.wait_for(reader.read(), 12)  # until the server closes the connection
    closed = time.monotonic() - started
    sending.cancel()
    writer.close()
    return answer, answered, closed


@pytest.mark.parametrize(
    ("content_type", "path", "status"),
    [
        pytest.param("application/json", "/v1/dynamic-params", 413, id="over-the-limit"),
        pytest.param("text/plain", "/v1/dynamic-params", 415, id="refused-before-reading"),
        pytest.param("application/json", "/nowhere", 404, id="no-such-route"),
    ],
)
async def test_a_gzip_bomb_is_refused_without_inflating_it(
    fake: FakeLLM, content_type: str, path: str, status: int
) -> None:
    async with serve(fake, RESOLVER_MAX_BODY_BYTES=str(LIMIT)) as service:
        process = psutil.Process(service.process.pid)
        stop = asyncio.Event()
        probe = asyncio.create_task(healthz_worst(service.url, stop))
        await asyncio.sleep(0.2)
        cpu_before = sum(process.cpu_times()[:2])
        answer, answered, closed = await send_bomb(service, content_type, path)
        cpu = sum(process.cpu_times()[:2]) - cpu_before
        stop.set()
        worst = await probe

    head, _, payload = answer.partition(b"\r\n\r\n")
    assert head.startswith(f"HTTP/1.1 {status}".encode()), head
    assert b"Connection: close" in head
    assert orjson.loads(payload)["trace_id"]
    assert answered < 2.0
    # Closed once the lingering time is up, not after aiohttp's 10 s of draining it.
    assert closed < LINGER_S + 2.5, closed
    # What it costs the server: parsing headers and a few KB, not inflating gigabytes.
    assert cpu < 1.0, f"the server spent {cpu:.1f}s of CPU on one refused body"
    assert worst < 0.5, f"/healthz took {worst:.2f}s while the bomb arrived"


async def test_a_body_read_to_its_end_keeps_the_connection_alive(fake: FakeLLM) -> None:
    # Only refused bodies close their connection: a normal request still reuses it.
    opened: list[object] = []

    async def count(*_: object) -> None:
        opened.append(object())

    tracing = aiohttp.TraceConfig()
    tracing.on_connection_create_end.append(count)
    headers = {"Content-Type": "application/json"}
    async with serve(fake) as service, aiohttp.ClientSession(trace_configs=[tracing]) as session:
        for _ in range(3):
            async with session.post(
                f"{service.url}/v1/dynamic-params", data=b"{}", headers=headers
            ) as response:
                assert response.status == 400
                assert "close" not in response.headers.get("Connection", "").lower()
                await response.read()
    assert len(opened) == 1


# Issue 20: one 41 KB request of Chinese-numeral runs with 16 metric properties blocked the
# event loop for 34.7 s (a quadratic numeral pattern, and a context start=/end= re-read once per
# property).
NUMERALS = "一二三四五六七八九十零百千万两"


def numeral_request(context: str) -> dict[str, object]:
    """16 metrics, a query and a context of numeral runs: about 41 KB in all."""
    return {
        "logic_properties": [metric(f"metric_{n}") for n in range(16)],
        "query": "最近" + NUMERALS * 400 + "个月的趋势",
        "additional_context": context,
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
    }


@pytest.mark.parametrize(
    ("context", "status"),
    [
        pytest.param(NUMERALS * 400, 200, id="free-text"),
        pytest.param(f"start={NUMERALS * 200}；end={NUMERALS * 200}", 400, id="start-end-values"),
    ],
)
async def test_a_large_request_of_numeral_runs_answers_within_a_second(
    fake: FakeLLM, context: str, status: int
) -> None:
    body = orjson.dumps(numeral_request(context))
    assert 40_000 <= len(body) <= 45_000
    async with serve(fake) as service, aiohttp.ClientSession() as session:
        stop = asyncio.Event()
        probe = asyncio.create_task(healthz_worst(service.url, stop))
        await asyncio.sleep(0.2)
        started = time.monotonic()
        async with session.post(
            f"{service.url}/v1/dynamic-params",
            data=body,
            headers={"Content-Type": "application/json"},
        ) as response:
            answer = orjson.loads(await response.read())
        took = time.monotonic() - started
        stop.set()
        worst = await probe
    assert response.status == status, answer
    assert took < 1.0, f"the request took {took:.2f}s"
    assert worst < 0.5, f"/healthz took {worst:.2f}s meanwhile"
