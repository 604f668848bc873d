"""Idle keep-alive connections pin no request data (issue 30, item 3): aiohttp's connection
loop keeps the last request and answer referenced while it waits for the next one (75 s), so
each idle connection held its last body, ~3 MB after a pipeline call (100 idle connections:
141 → 724 MB against a 512 MiB pod limit). A soak over loopback against a real
`resolver serve`: many connections, each sending one large body and then idling, leave the
process's memory flat."""

from __future__ import annotations

import asyncio
import contextlib

import orjson
import psutil
import pytest

from resolver.testing.fake_llm import FakeLLM
from tests.helpers import serve

pytestmark = pytest.mark.slow

CONNECTIONS = 80
BODY = orjson.dumps({"text": "上个季度", "pad": "x" * 800_000})  # read whole, then refused
MB = 1 << 20


async def _send_and_idle(port: int) -> tuple[asyncio.StreamWriter, int]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        b"POST /v1/time-window HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(BODY)).encode() + b"\r\n\r\n" + BODY
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    await reader.readexactly(length)
    assert b"connection: close" not in head.lower()  # kept alive: it idles now
    return writer, int(head.split(b" ", 2)[1])


async def test_idle_keep_alive_connections_leave_memory_flat(fake: FakeLLM) -> None:
    async with serve(fake) as service:
        process = psutil.Process(service.process.pid)
        idle: list[asyncio.StreamWriter] = []
        try:
            # Warm up: the allocator's first growth is not what is measured.
            for _ in range(5):
                writer, _ = await _send_and_idle(service.port)
                writer.close()
            await asyncio.sleep(0.2)
            before = process.memory_info().rss
            statuses = set()
            for _ in range(CONNECTIONS):
                writer, status = await _send_and_idle(service.port)
                idle.append(writer)
                statuses.add(status)
            await asyncio.sleep(0.2)
            grown = process.memory_info().rss - before
        finally:
            for writer in idle:
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()
    assert statuses == {400}
    # The old code held every body: 80 × 0.8 MB = 64 MB and more. Now the memory of one body
    # is reused by the next.
    assert grown < 16 * MB, f"grew {grown / MB:.1f} MB with {CONNECTIONS} idle connections"
