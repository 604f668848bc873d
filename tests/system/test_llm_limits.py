"""Issue 12.1 and 12.16: every LLM response is read to at most RESOLVER_LLM_MAX_RESPONSE_BYTES
after decompression, whatever its status; a host that does not resolve is a DNS failure.

The service runs as a real subprocess (its RSS is its own) against the fake on loopback.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import orjson
import psutil
import pytest

from resolver.testing.fake_llm import FakeLLM, Reply, gzip_bomb
from tests.helpers import ClientFactory, assert_error_shape, metric, post, request_body, serve

PROP = metric("drug_sales", ("region", "STRING"))
BODY = request_body(PROP, query="当前华东地区的药品销售额")
MIB = 1 << 20


async def _rss_mb(pid: int) -> float:
    return psutil.Process(pid).memory_info().rss / MIB


async def _watch(url: str, stop: asyncio.Event) -> float:
    """The worst /healthz latency (s) while `stop` is unset."""
    worst = 0.0
    async with aiohttp.ClientSession() as session:
        while not stop.is_set():
            began = time.monotonic()
            async with session.get(f"{url}/healthz") as response:
                assert response.status == 200
            worst = max(worst, time.monotonic() - began)
            await asyncio.sleep(0.02)
    return worst


async def _attack(
    fake: FakeLLM, reply: Reply, expected_status: int
) -> tuple[float, float, dict[str, Any]]:
    """Serve `reply` for every LLM call; one request; the RSS growth, the worst /healthz."""
    fake.respond(lambda call: reply)
    async with serve(
        fake,
        RESOLVER_LLM_MAX_RESPONSE_BYTES=str(MIB),
        RESOLVER_LLM_MAX_ATTEMPTS="3",
        RESOLVER_LLM_CACHE_TTL_S="0",
    ) as service:
        pid = service.process.pid
        before = await _rss_mb(pid)
        stop = asyncio.Event()
        watcher = asyncio.create_task(_watch(service.url, stop))
        async with (
            aiohttp.ClientSession() as session,
            session.post(f"{service.url}/v1/dynamic-params", json=BODY) as response,
        ):
            status = response.status
            payload = orjson.loads(await response.read())
        peak = await _rss_mb(pid)
        stop.set()
        worst = await watcher
    assert status == expected_status, payload
    return peak - before, worst, payload


@pytest.mark.slow
async def test_a_huge_error_body_is_not_read(fake: FakeLLM) -> None:
    # 64 MiB per 500 answer, three attempts: the service reads 1 MiB of each and hangs up.
    reply = Reply(status=500, body=b"x" * MIB, repeat=64)
    grown, worst, payload = await _attack(fake, reply, 502)
    assert_error_shape(payload, "LLM_UNAVAILABLE")
    assert "HTTP 500" in payload["_error"]
    assert "xxxx" not in payload["_error"]
    assert grown < 40, f"RSS grew {grown:.0f} MiB"
    assert worst < 1.0, f"/healthz took {worst:.2f}s"
    assert len(fake.calls) == 3


@pytest.mark.slow
async def test_a_gzip_bomb_error_is_inflated_no_further_than_the_limit(fake: FakeLLM) -> None:
    bomb = gzip_bomb(1 << 30)  # ~1 MiB on the wire, 1 GiB inflated
    assert len(bomb) < 2 * MIB
    reply = Reply(status=500, body=bomb, headers={"Content-Encoding": "gzip"})
    grown, worst, payload = await _attack(fake, reply, 502)
    assert_error_shape(payload, "LLM_UNAVAILABLE")
    assert grown < 40, f"RSS grew {grown:.0f} MiB"
    assert worst < 1.0, f"/healthz took {worst:.2f}s"


@pytest.mark.slow
async def test_a_gzip_bomb_answer_is_refused_not_inflated(fake: FakeLLM) -> None:
    reply = Reply(status=200, body=gzip_bomb(1 << 30), headers={"Content-Encoding": "gzip"})
    grown, worst, payload = await _attack(fake, reply, 502)
    assert_error_shape(payload, "LLM_OUTPUT_INVALID")
    assert worst < 1.0, f"/healthz took {worst:.2f}s"
    assert f"exceeds {MIB} bytes" in payload["_error"]
    assert grown < 40, f"RSS grew {grown:.0f} MiB"
    assert len(fake.calls) == 1  # an oversized answer is not worth repeating


async def test_a_small_gzip_error_keeps_its_status_and_retry(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    small = gzip_bomb(4096)
    fake_llm.push(
        Reply(status=503, body=small, headers={"Content-Encoding": "gzip"}),
        Reply(status=503, body=b"not gzip", headers={"Content-Encoding": "gzip"}),
    )
    status, payload = await post(await make_client(), BODY)
    assert status == 200, payload
    assert len(fake_llm.calls) == 3


async def test_an_answer_just_under_the_limit_is_read(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    padding = " " * (60_000)
    content = orjson.dumps({"drug_sales": {"region": "华东"}}).decode() + padding
    fake_llm.push(Reply(content=content))
    client = await make_client(llm_max_response_bytes=64 * 1024)
    status, payload = await post(client, BODY)
    assert status == 200, payload
    fake_llm.push(Reply(content=content + " " * 8000))
    status, payload = await post(client, BODY)
    assert status == 502
    assert_error_shape(payload, "LLM_OUTPUT_INVALID")


async def test_an_unknown_content_encoding_is_unreadable(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(status=200, body=b"\x28\xb5\x2f\xfd", headers={"Content-Encoding": "zstd"}))
    status, payload = await post(await make_client(), BODY)
    assert status == 502
    assert_error_shape(payload, "LLM_OUTPUT_INVALID")
    assert "decoded" in payload["_error"]


async def test_an_llm_host_that_does_not_resolve_is_reported_as_dns(
    make_client: ClientFactory,
) -> None:
    # `.invalid` is reserved (RFC 2606): it never resolves, and no packet leaves the machine.
    client = await make_client(llm_base_url="http://llm.invalid/v1", llm_max_attempts=1)
    status, payload = await post(client, BODY)
    assert status == 502
    assert_error_shape(payload, "LLM_UNAVAILABLE")
    assert "DNS" in payload["_error"]
    assert "llm.invalid" in payload["_error"]
    assert "refused" not in payload["_error"]


async def test_a_refused_connection_is_still_called_refused(make_client: ClientFactory) -> None:
    client = await make_client(llm_base_url="http://127.0.0.1:9/v1", llm_max_attempts=1)
    status, payload = await post(client, BODY)
    assert status == 502
    assert "connection refused" in payload["_error"]
