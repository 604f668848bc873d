"""The LLM result cache in Redis: with `RESOLVER_REDIS_URL` set, an answer one replica got is
a hit on another (an agent's retry rarely lands on the same replica), and a Redis outage only
costs the cache, never the request. Real `redis-server`, real service processes."""

from __future__ import annotations

from typing import Any

import aiohttp
import orjson
import pytest

from resolver.core.redis import RedisLink
from resolver.llm.completion import CACHE_FORMAT
from resolver.llm.shared_cache import RedisCacheBackend
from resolver.testing.fake_llm import FakeLLM
from tests.helpers import operator, redis_server, request_body, serve

pytestmark = pytest.mark.slow

BODY = request_body(operator("risk_score", ("company_id", "STRING")), query="企业c1的风险评分")


async def ask(session: aiohttp.ClientSession, url: str) -> tuple[int, Any]:
    async with session.post(url + "/v1/dynamic-params", json=BODY) as response:
        return response.status, orjson.loads(await response.read())


async def test_an_answer_one_replica_got_is_a_hit_on_another(fake: FakeLLM) -> None:
    async with redis_server() as redis:
        env = {"RESOLVER_REDIS_URL": redis.url, "RESOLVER_LLM_CACHE_TTL_S": "60"}
        async with (
            serve(fake, **env) as first,
            serve(fake, **env) as second,
            aiohttp.ClientSession() as session,
        ):
            status_a, body_a = await ask(session, first.url)  # a miss: the LLM answers
            status_b, body_b = await ask(session, second.url)  # another process: a hit
        client = redis.client()
        keys = [key async for key in client.scan_iter("resolver:llm-cache:*")]
        await client.aclose()
    assert (status_a, status_b) == (200, 200), (body_a, body_b)
    assert body_a["dynamic_params"] == body_b["dynamic_params"]
    assert len(fake.calls) == 1
    assert len(keys) == 1


async def test_redis_down_costs_the_cache_not_the_request(fake: FakeLLM) -> None:
    async with redis_server() as redis:
        env = {"RESOLVER_REDIS_URL": redis.url, "RESOLVER_LLM_CACHE_TTL_S": "60"}
        async with serve(fake, **env) as service, aiohttp.ClientSession() as session:
            await redis.stop()
            first = await ask(session, service.url)
            second = await ask(session, service.url)
    assert (first[0], second[0]) == (200, 200)
    assert len(fake.calls) == 2  # no shared store: each request asked the LLM


async def test_values_expire_in_redis_itself() -> None:
    async with redis_server() as redis:
        client = redis.client()
        link = RedisLink(client, "test", prefix="t")
        backend = RedisCacheBackend(link)
        await backend.set("k", b"v", 0.2)
        assert await backend.get("k") == b"v"
        ttl_ms = await client.pttl(f"t:llm-cache:v{CACHE_FORMAT}:k")
        assert 0 < ttl_ms <= 200
        await backend.delete("k")
        assert await backend.get("k") is None
        await client.aclose()
