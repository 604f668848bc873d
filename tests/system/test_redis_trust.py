"""What Redis holds is not trusted (issue 21, items 3, 13, 14): a corrupt, foreign, oversized
or ill-typed LLM cache entry is a miss (and deleted), never a 500; a command error on a live
server keeps the link up; the link's probe logs under no request's trace id. Real
`redis-server`, real service processes."""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Any

import aiohttp
import orjson
import psutil
import pytest
import structlog
from redis.exceptions import ResponseError

from resolver.core.redis import RedisLink, RedisUnavailable
from resolver.testing.fake_llm import FakeLLM
from tests.helpers import ROOT, clean_env, operator, redis_server, request_body, serve

pytestmark = pytest.mark.slow

BODY = request_body(operator("risk_score", ("company_id", "STRING")), query="企业c1的风险评分")
MB = 1 << 20


async def ask(session: aiohttp.ClientSession, url: str, **headers: str) -> tuple[int, Any]:
    async with session.post(url + "/v1/dynamic-params", json=BODY, headers=headers) as response:
        return response.status, orjson.loads(await response.read())


async def _cache_keys(client: Any) -> list[bytes]:
    return [key async for key in client.scan_iter("resolver:llm-cache:*")]


@pytest.mark.parametrize(
    "poison",
    [
        b"not json at all",
        b'{"content": 42, "usage": "lots"}',
        b'["a", "list"]',
        b'{"content": "' + b"x" * (3 * MB) + b'"}',
    ],
    ids=["undecodable", "ill-typed", "not-an-object", "oversized"],
)
async def test_a_poisoned_entry_is_a_miss_and_is_replaced(fake: FakeLLM, poison: bytes) -> None:
    async with redis_server() as redis:
        env = {"RESOLVER_REDIS_URL": redis.url, "RESOLVER_LLM_CACHE_TTL_S": "60"}
        client = redis.client()
        async with serve(fake, **env) as service, aiohttp.ClientSession() as session:
            first = await ask(session, service.url)
            keys = await _cache_keys(client)
            assert len(keys) == 1
            await client.set(keys[0], poison, px=60_000)
            second = await ask(session, service.url)  # every replica would answer so
            stored = await client.get(keys[0])
        await client.aclose()
    assert first[0] == 200, first
    assert second[0] == 200, second
    assert second[1]["dynamic_params"] == first[1]["dynamic_params"]
    assert len(fake.calls) == 2  # the poisoned entry was a miss
    assert stored is not None
    assert stored != poison  # replaced by a good answer


async def test_a_huge_entry_is_never_read(fake: FakeLLM) -> None:
    async with redis_server() as redis:
        env = {"RESOLVER_REDIS_URL": redis.url, "RESOLVER_LLM_CACHE_TTL_S": "60"}
        client = redis.client()
        async with serve(fake, **env) as service, aiohttp.ClientSession() as session:
            await ask(session, service.url)
            keys = await _cache_keys(client)
            await client.set(keys[0], b"x" * (100 * MB), px=60_000)
            process = psutil.Process(service.process.pid)
            before = process.memory_info().rss
            status, body = await ask(session, service.url)
            grown = process.memory_info().rss - before
        await client.aclose()
    assert status == 200, body
    assert grown < 50 * MB  # the old code read all 100 MB (and answered 500)


async def test_a_cache_entry_of_another_type_is_a_miss(fake: FakeLLM) -> None:
    async with redis_server() as redis:
        env = {"RESOLVER_REDIS_URL": redis.url, "RESOLVER_LLM_CACHE_TTL_S": "60"}
        client = redis.client()
        async with serve(fake, **env) as service, aiohttp.ClientSession() as session:
            await ask(session, service.url)
            keys = await _cache_keys(client)
            await client.delete(keys[0])
            await client.rpush(keys[0], "a", "b")
            status, body = await ask(session, service.url)
            kind = await client.type(keys[0])
        output = await service.output()
        await client.aclose()
    assert status == 200, body
    assert kind == b"string"  # deleted and stored again
    assert "redis.unavailable" not in output


async def test_a_command_error_keeps_the_link_up() -> None:
    async with redis_server() as redis:
        client = redis.client()
        await client.rpush("a-list", "x")
        link = RedisLink(redis.client(), "test", prefix="t")
        for _ in range(3):
            with pytest.raises(RedisUnavailable) as caught:
                await link.run(lambda r: r.get("a-list"))
            assert isinstance(caught.value.__cause__, ResponseError)
        assert link.up
        assert link.outages == 0
        assert await link.run(lambda r: r.ping())
        await link.aclose()
        await client.aclose()


async def test_a_redis_refusing_writes_is_one_state_not_a_flap() -> None:
    # maxmemory with no eviction: writes are refused (OOM) while PING answers. The link's
    # probe once PINGed it up again every second, and the next write took it down again
    # (issue 30): a line each way, and callers trying a Redis that refuses them.
    async with redis_server() as redis:
        admin = redis.client()
        await admin.set("filler", b"x" * 10_000)
        await admin.config_set("maxmemory-policy", "noeviction")
        await admin.config_set("maxmemory", "1")
        link = RedisLink(redis.client(), "test", prefix="t", retry_s=0.05)
        with structlog.testing.capture_logs() as logs:
            with pytest.raises(RedisUnavailable):
                await link.run(lambda r: r.set("k", "v"))
            seen_up = []
            for _ in range(20):  # a second: twenty probes
                await asyncio.sleep(0.05)
                seen_up.append(link.up)
            down_while_refusing = not any(seen_up)
            await admin.config_set("maxmemory", "0")
            for _ in range(40):
                if link.up:
                    break
                await asyncio.sleep(0.05)
            assert await link.run(lambda r: r.set("k", "v"))
        await link.aclose()
        await admin.aclose()
    assert down_while_refusing, seen_up
    events = [entry["event"] for entry in logs]
    assert events.count("redis.unavailable") == 1, events
    assert events.count("redis.restored") == 1, events
    assert link.outages == 1


async def test_the_probe_logs_under_no_request_trace_id(fake: FakeLLM) -> None:
    async with redis_server() as redis:
        env = {
            "RESOLVER_REDIS_URL": redis.url,
            "RESOLVER_LLM_CACHE_TTL_S": "60",
            "RESOLVER_LOG_LEVEL": "INFO",
        }
        async with serve(fake, **env) as service, aiohttp.ClientSession() as session:
            await redis.stop()
            status, _ = await ask(session, service.url, **{"x-trace-id": "the-request-trace"})
            await redis.start()
            restored = False
            for _ in range(100):
                await asyncio.sleep(0.1)
                async with session.get(service.url + "/readyz") as response:
                    ready = orjson.loads(await response.read())
                if (ready.get("limiter") or {}).get("redis", {}).get("up", True):
                    restored = True
                    break
            await asyncio.sleep(0.3)
            service.process.terminate()
            await service.process.wait()
        output = await service.output()
    assert status == 200
    assert restored, ready
    lines = [orjson.loads(line) for line in output.splitlines() if line.startswith("{")]
    probe_lines = [ln for ln in lines if ln.get("event") in ("redis.restored",)]
    assert probe_lines, output[-2000:]
    assert all(ln.get("trace_id") != "the-request-trace" for ln in probe_lines)


async def test_metric_labels_come_from_configuration_not_from_the_cache(fake: FakeLLM) -> None:
    async with redis_server() as redis:
        env = {"RESOLVER_REDIS_URL": redis.url, "RESOLVER_LLM_CACHE_TTL_S": "60"}
        client = redis.client()
        async with serve(fake, **env) as service, aiohttp.ClientSession() as session:
            await ask(session, service.url)
            keys = await _cache_keys(client)
            raw = await client.get(keys[0])
            assert raw is not None
            stored = orjson.loads(raw)
            stored.update(model="model-chosen-by-whoever-wrote-redis", endpoint="anywhere")
            await client.set(keys[0], orjson.dumps(stored), px=60_000)
            status, _ = await ask(session, service.url)
            async with session.get(service.url + "/metrics") as response:
                metrics = (await response.read()).decode()
        await client.aclose()
    assert status == 200
    assert "model-chosen-by-whoever-wrote-redis" not in metrics
    assert 'endpoint="anywhere"' not in metrics


@pytest.mark.parametrize(
    "url",
    [
        "redis://127.0.0.1:99999/0",
        "redis://127.0.0.1:port/0",
        "redis://:hunter2-secret@127.0.0.1:6379/0?socket_timeout=soon",
        # Once a traceback at the first command, exit 1 (issue 30).
        "redis://:hunter2-secret@127.0.0.1:6379/0?sokcet_timeout=hunter2",
    ],
    ids=["port-out-of-range", "port-not-a-number", "bad-query", "unknown-query-key"],
)
async def test_a_malformed_redis_url_is_one_line_and_exit_2(url: str) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "resolver",
        "serve",
        "--port",
        "0",
        cwd=ROOT,
        env=clean_env(RESOLVER_REDIS_URL=url, RESOLVER_LLM_BASE_URL="http://127.0.0.1:9/v1"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output = (await asyncio.wait_for(process.communicate(), 30))[0].decode()
    assert process.returncode == 2, output
    assert "Traceback" not in output
    assert "RESOLVER_REDIS_URL" in output
    assert "hunter2" not in output
    assert len(output.strip().splitlines()) <= 2  # the header and the setting's line
    if "sokcet" in url:
        assert "'sokcet_timeout'" in output


async def test_readyz_shows_the_cluster_inflight_live(fake: FakeLLM) -> None:
    # Once the count the last acquire of this process saw, however long ago (issue 30): a
    # lease another replica holds now, and its release, show at the next /readyz.
    async with redis_server() as redis:
        client = redis.client()
        env = {"RESOLVER_REDIS_URL": redis.url}
        async with serve(fake, **env) as service, aiohttp.ClientSession() as session:

            async def cluster_inflight() -> Any:
                async with session.get(service.url + "/readyz") as response:
                    body = orjson.loads(await response.read())
                return body["limiter"]["cluster_inflight"]

            assert await cluster_inflight() == 0
            leases = "{resolver:llm}:leases"
            far = (int(time.time()) + 60) * 1_000_000
            await client.zadd(leases, {"other-replica-1": far, "other-replica-2": far})
            assert await cluster_inflight() == 2
            await client.zrem(leases, "other-replica-1")
            assert await cluster_inflight() == 1
            await client.zadd(leases, {"expired": 1})  # expired leases are not counted
            assert await cluster_inflight() == 1
        await client.aclose()
