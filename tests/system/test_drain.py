"""Signals and the drain boundary (issue 30, item 4), on real `resolver serve` processes:
SIGHUP drains like SIGTERM (a single process, and under `--workers`, where the supervisor once
died of it and left its metrics directory), and a shutdown under load loses no request:
answers close their connections from the signal on, and the listener accepts what the kernel
queued before it closes.

A request is *lost* when its client connected, sent it and got no answer (a reset or the
connection closed under it); a connection refused before anything was sent is not lost (the
client knows nothing was served and may retry elsewhere)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections import Counter
from pathlib import Path

import aiohttp
import orjson
import psutil
import pytest

from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from tests.helpers import Service, operator, request_body, serve, wait_for

pytestmark = pytest.mark.slow

WINDOW = orjson.dumps({"text": "最近3个月", "now_ms": 1762996342241})
# Clients hammering the service while it stops; half keep their connection alive.
CLIENTS = 24
PAYLOAD = request_body(operator("p", ("x", "STRING")), query="x 取默认值")


def _request(close: bool) -> bytes:
    return (
        b"POST /v1/time-window HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + (b"Connection: close\r\n" if close else b"")
        + b"Content-Length: "
        + str(len(WINDOW)).encode()
        + b"\r\n\r\n"
        + WINDOW
    )


async def _read_answer(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """The status of one answer and whether it closes the connection."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    await reader.readexactly(int(headers.get("content-length", "0")))
    return status, headers.get("connection", "").lower() == "close"


async def _client(port: int, keep_alive: bool, stop: asyncio.Event, tally: Counter[str]) -> None:
    writer: asyncio.StreamWriter | None = None
    reader: asyncio.StreamReader | None = None
    while not stop.is_set():
        if writer is None:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                tally["refused"] += 1
                await asyncio.sleep(0.005)
                continue
        assert reader is not None
        try:
            writer.write(_request(close=not keep_alive))
            await writer.drain()
            status, closes = await asyncio.wait_for(_read_answer(reader), timeout=10)
        except (OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
            tally["lost"] += 1
            tally[f"lost: {type(exc).__name__} keep_alive={keep_alive}"] += 1
            closes = True
        else:
            tally[f"answered {status}"] += 1
        if closes or not keep_alive:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
            writer = reader = None


async def _under_load(service: Service, sig: signal.Signals) -> tuple[Counter[str], int, str]:
    # Read as it comes: thousands of access lines would fill the pipe.
    output = asyncio.create_task(service.output())
    tally: Counter[str] = Counter()
    stop = asyncio.Event()
    clients = [
        asyncio.create_task(_client(service.port, index % 2 == 0, stop, tally))
        for index in range(CLIENTS)
    ]
    await wait_for(lambda: tally["answered 200"] >= 200, within_s=20)
    service.process.send_signal(sig)
    code = await asyncio.wait_for(service.process.wait(), timeout=15)
    await asyncio.sleep(0.2)  # the clients see the refusals
    stop.set()
    await asyncio.gather(*clients)
    return tally, code, await output


@pytest.mark.parametrize("workers", ["1", "2"])
async def test_a_shutdown_under_load_loses_no_request(fake: FakeLLM, workers: str) -> None:
    async with serve(
        fake, RESOLVER_WORKERS=workers, RESOLVER_DRAIN_S="0.5", RESOLVER_SHUTDOWN_GRACE_S="5"
    ) as service:
        tally, code, output = await _under_load(service, signal.SIGTERM)
    assert code == 0, output
    assert tally["lost"] == 0, tally
    assert tally["answered 200"] >= 200, tally
    assert set(tally) <= {"answered 200", "refused"}, tally


@pytest.mark.parametrize("workers", ["1", "2"])
async def test_sighup_drains_like_sigterm_under_load(fake: FakeLLM, workers: str) -> None:
    async with serve(fake, RESOLVER_WORKERS=workers, RESOLVER_SHUTDOWN_GRACE_S="5") as service:
        tally, code, output = await _under_load(service, signal.SIGHUP)
    assert code == 0, output
    assert tally["lost"] == 0, tally
    records = [orjson.loads(line) for line in output.splitlines()]
    stopping = [r for r in records if r["event"] == "resolver.stopping"]
    assert len(stopping) == int(workers), output
    if workers == "1":
        assert stopping[0]["signal"] == "SIGHUP"
    else:
        supervisor = [r for r in records if r["event"] == "resolver.supervisor_stopping"]
        assert [r["signal"] for r in supervisor] == [signal.strsignal(signal.SIGHUP)]
    assert [r["event"] for r in records].count("resolver.stopped") == int(workers)


async def test_sighup_lets_requests_in_flight_finish_and_the_supervisor_cleans_up(
    fake: FakeLLM, tmp_path: Path
) -> None:
    async with (
        serve(
            fake, RESOLVER_WORKERS="2", RESOLVER_SHUTDOWN_GRACE_S="5", TMPDIR=str(tmp_path)
        ) as service,
        aiohttp.ClientSession() as session,
    ):
        await wait_for(lambda: len(psutil.Process(service.process.pid).children()) == 2, 5)
        [metrics_dir] = _metrics_dirs(tmp_path)
        fake.respond(_slow)
        in_flight = asyncio.create_task(
            session.post(f"{service.url}/v1/dynamic-params", json=PAYLOAD)
        )
        await wait_for(lambda: len(fake.calls) == 1)
        service.process.send_signal(signal.SIGHUP)
        signalled = time.monotonic()
        response = await in_flight
        assert response.status == 200, await response.text()
        assert response.headers.get("Connection", "").lower() == "close"
        code = await asyncio.wait_for(service.process.wait(), timeout=8)
        assert time.monotonic() - signalled < 5 + 1
    assert code == 0
    assert metrics_dir not in _metrics_dirs(tmp_path)


def _metrics_dirs(directory: Path) -> list[Path]:
    return list(directory.glob("resolver-metrics-*"))


def _slow(call: Call) -> Reply:
    reply = plausible(call)
    reply.delay_s = 1.0
    return reply
