"""Several real `resolver serve` processes sharing one real `redis-server`: one LLM budget.

- three replicas with `RESOLVER_LLM_QPS=10` against a gateway that answers 429 above 10 call
  starts in any second: with Redis, no 429 and at most 10 starts in any second; without it,
  the 429s appear (the test can fail);
- a replica SIGKILLed while it holds in-flight slots gives them back within the lease time,
  and a live replica's leases outlast the lease time (they are renewed);
- Redis killed mid-run: `open` keeps answering under per-process limits, `closed` answers
  503; Redis back: the shared budget is used again, without a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
import uuid
from collections import Counter
from typing import Any

import aiohttp
import orjson
import pytest

from resolver.testing.fake_llm import Call, FakeLLM, Gateway, Reply, plausible
from tests.helpers import (
    Service,
    assert_error_shape,
    operator,
    redis_server,
    request_body,
    serve,
    wait_for,
)

pytestmark = pytest.mark.slow

PAYLOAD = request_body(operator("p", ("x", "STRING")), query="x 取默认值")
GATEWAY_QPS = 10


def busiest_second(starts: list[float]) -> int:
    """The most call starts in any 1-second window."""
    ordered = sorted(starts)
    best = 0
    first = 0
    for last, when in enumerate(ordered):
        while when - ordered[first] >= 1.0:
            first += 1
        best = max(best, last - first + 1)
    return best


async def drive(urls: list[str], total: int, concurrency: int) -> Counter[int]:
    """`total` requests, spread round-robin over `urls`, `concurrency` at a time."""
    statuses: Counter[int] = Counter()
    next_index = iter(range(total))
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:

        async def client() -> None:
            for index in next_index:
                url = urls[index % len(urls)]
                async with session.post(f"{url}/v1/dynamic-params", json=PAYLOAD) as response:
                    await response.read()
                    statuses[response.status] += 1

        await asyncio.gather(*(client() for _ in range(concurrency)))
    return statuses


@contextlib.asynccontextmanager
async def replicas(fake: FakeLLM, count: int, **env: str) -> Any:
    """`count` service processes with the same settings."""
    async with contextlib.AsyncExitStack() as stack:
        services = [await stack.enter_async_context(serve(fake, **env)) for _ in range(count)]
        yield services


async def run_cluster(
    fake: FakeLLM, total: int, **env: str
) -> tuple[Counter[int], float, list[Call]]:
    """Three replicas, warmed up, then `total` requests; statuses, wall time and the calls."""
    fake.gateway = Gateway(GATEWAY_QPS)
    async with replicas(fake, 3, RESOLVER_LLM_QPS=str(GATEWAY_QPS), **env) as services:
        urls = [s.url for s in services]
        # A fresh process's first call leaves late (connection set-up, first-use paths): warm
        # each up, then let the gateway's window empty before counting.
        await drive(urls, 6, 1)
        await asyncio.sleep(1.2)
        fake.reset_stats()
        began = time.monotonic()
        statuses = await drive(urls, total, 30)
        took = time.monotonic() - began
        calls = list(fake.calls)
    return statuses, took, calls


async def test_three_replicas_sharing_redis_keep_a_10_qps_gateway_free_of_429s(
    fake: FakeLLM,
) -> None:
    async with redis_server() as redis:
        statuses, took, calls = await run_cluster(
            fake,
            200,
            RESOLVER_REDIS_URL=redis.url,
            RESOLVER_REDIS_KEY_PREFIX=f"t{uuid.uuid4().hex[:8]}",
            RESOLVER_EXPECTED_REPLICAS="3",
        )
    busiest = busiest_second([c.started for c in calls])
    print(f"with Redis: {dict(statuses)} in {took:.1f} s, busiest second {busiest} starts")
    assert statuses == {200: 200}
    assert fake.counts["gateway_429"] == 0
    assert len(calls) == 200  # one call per request, no retry
    assert busiest <= GATEWAY_QPS
    # Paced at 10/s for the cluster (10% under), not 30/s: about 22 s for 200 calls.
    assert took > 200 / GATEWAY_QPS * 0.9


async def test_without_redis_three_replicas_overrun_the_gateway(fake: FakeLLM) -> None:
    # The same cluster with per-process limits only: 3 x 10 QPS hit a 10 QPS gateway. Fewer
    # requests than with Redis: the 429s show within the first second, and the retries that
    # follow them would only make the test longer.
    statuses, took, calls = await run_cluster(fake, 60)
    busiest = busiest_second([c.started for c in calls])
    rejected = fake.counts["gateway_429"]
    print(f"without Redis: {dict(statuses)} in {took:.1f} s, {rejected} x 429, busiest {busiest}")
    assert rejected > 0
    assert busiest > GATEWAY_QPS
    assert sum(statuses.values()) == 60


def leases_key(prefix: str) -> str:
    return "{" + prefix + ":llm}:leases"


async def test_a_killed_replica_gives_back_its_slots_within_the_lease(fake: FakeLLM) -> None:
    lease_s = 2.0
    hanging = True

    def responder(call: Call) -> Reply:
        return Reply(hang=True) if hanging else plausible(call)

    fake.respond(responder)
    prefix = f"t{uuid.uuid4().hex[:8]}"
    async with (
        redis_server() as redis,
        replicas(
            fake,
            2,
            RESOLVER_REDIS_URL=redis.url,
            RESOLVER_REDIS_KEY_PREFIX=prefix,
            RESOLVER_LLM_MAX_INFLIGHT="3",
            RESOLVER_LLM_LEASE_S=str(lease_s),
        ) as (doomed, survivor),
        aiohttp.ClientSession() as session,
    ):
        looker = redis.client()
        held = [
            asyncio.create_task(session.post(f"{doomed.url}/v1/dynamic-params", json=PAYLOAD))
            for _ in range(3)
        ]
        await wait_for(lambda: len(fake.calls) == 3, within_s=5)
        assert await looker.zcard(leases_key(prefix)) == 3
        # The cap is the cluster's: the survivor's call waits, and keeps waiting past the
        # lease time while the doomed replica lives (it renews its leases).
        waiting = [
            asyncio.create_task(session.post(f"{survivor.url}/v1/dynamic-params", json=PAYLOAD))
            for _ in range(3)
        ]
        await asyncio.sleep(lease_s * 1.75)
        assert len(fake.calls) == 3
        assert await looker.zcard(leases_key(prefix)) == 3

        hanging = False
        doomed.process.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        await doomed.process.wait()
        await wait_for(lambda: len(fake.calls) == 6, within_s=lease_s + 2.0)
        regained = max(c.started for c in fake.calls[3:]) - killed
        responses = await asyncio.gather(*waiting)
        assert [r.status for r in responses] == [200, 200, 200]
        await wait_for_async(lambda: _zcard_is(looker, leases_key(prefix), 0), within_s=2)
        await looker.aclose()
        for task in held:
            with contextlib.suppress(aiohttp.ClientError):
                await task
    # All three slots came back within the lease (plus polling and loop lag), not before the
    # dead replica's leases could have expired.
    print(f"lease {lease_s} s: slots regained {regained:.2f} s after SIGKILL")
    assert regained <= lease_s + 1.0
    assert regained >= lease_s / 3


async def _zcard_is(client: Any, key: str, count: int) -> bool:
    return bool(await client.zcard(key) == count)


async def wait_for_async(predicate: Any, within_s: float) -> None:
    deadline = time.monotonic() + within_s
    while not await predicate():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.05)


async def readyz_limiter(service: Service) -> dict[str, Any]:
    async with aiohttp.ClientSession() as session, session.get(f"{service.url}/readyz") as r:
        body: dict[str, Any] = await r.json()
        limiter: dict[str, Any] = body["limiter"]
        return limiter


async def metric(service: Service, line_start: str) -> float:
    async with aiohttp.ClientSession() as session, session.get(f"{service.url}/metrics") as r:
        for line in (await r.text()).splitlines():
            if line.startswith(line_start):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


async def test_redis_down_open_keeps_serving_closed_refuses_and_sharing_resumes(
    fake: FakeLLM,
) -> None:
    prefix = f"t{uuid.uuid4().hex[:8]}"
    common = {
        "RESOLVER_LLM_QPS": "40",
        "RESOLVER_REDIS_KEY_PREFIX": prefix,
        "RESOLVER_REDIS_TIMEOUT_S": "0.3",
        "RESOLVER_EXPECTED_REPLICAS": "2",
    }
    async with redis_server() as redis:
        open_env = {**common, "RESOLVER_REDIS_URL": redis.url, "RESOLVER_REDIS_FAILURE": "open"}
        closed_env = {**open_env, "RESOLVER_REDIS_FAILURE": "closed"}
        async with serve(fake, **open_env) as open_, serve(fake, **closed_env) as closed:
            assert await drive([open_.url, closed.url], 10, 2) == {200: 10}
            assert (await readyz_limiter(open_))["budget"] == "shared"

            # A steady stream to the `open` replica across the whole outage.
            stream: Counter[int] = Counter()
            streaming = True

            async def keep_sending() -> None:
                while streaming:
                    stream.update(await drive([open_.url], 2, 1))

            sender = asyncio.create_task(keep_sending())
            await asyncio.sleep(0.3)
            await redis.stop()
            await asyncio.sleep(1.0)
            refused = await drive([closed.url], 4, 1)
            async with (
                aiohttp.ClientSession() as session,
                session.post(f"{closed.url}/v1/dynamic-params", json=PAYLOAD) as response,
            ):
                body = await response.json()
            open_state = await readyz_limiter(open_)
            closed_state = await readyz_limiter(closed)
            sent_during_outage = sum(stream.values())

            await redis.start()  # same port, empty: a restarted Redis
            await wait_for_async(lambda: _budget_is(open_, "shared"), within_s=4)
            await wait_for_async(lambda: _budget_is(closed, "shared"), within_s=4)
            streaming = False
            await sender
            after = await drive([open_.url, closed.url], 10, 2)
            looker = redis.client()
            shared_again = await looker.exists("{" + prefix + ":llm}:tat")
            await looker.aclose()
            fallback_admitted = await metric(
                open_, 'resolver_llm_budget_fallback_total{outcome="admitted"}'
            )
            closed_refused = await metric(
                closed, 'resolver_llm_budget_fallback_total{outcome="refused"}'
            )
            open_.process.send_signal(signal.SIGTERM)
            closed.process.send_signal(signal.SIGTERM)
            await open_.process.wait()
            await closed.process.wait()
            open_log = await open_.output()
    assert set(stream) == {200}
    assert sent_during_outage >= 4
    assert refused == {503: 4}
    assert response.status == 503
    assert_error_shape(body, "OVERLOADED")
    assert "Redis" in body["_error"]
    assert open_state["budget"] == "fallback"
    assert open_state["redis"]["up"] is False
    assert open_state["fallback"] == {"qps": 20.0, "max_inflight": 8}
    assert closed_state["budget"] == "refusing"
    assert after == {200: 10}
    assert shared_again == 1
    assert fallback_admitted >= 1
    assert closed_refused >= 5
    events = [orjson.loads(line)["event"] for line in open_log.splitlines()]
    # Warned once per outage, however many calls met it; then restored.
    assert events.count("redis.unavailable") == 1, "\n".join(
        e for e in open_log.splitlines() if "redis" in e
    )
    assert events.count("llm.budget_fallback") == 1
    assert events.count("redis.restored") == 1


async def _budget_is(service: Service, budget: str) -> bool:
    return bool((await readyz_limiter(service))["budget"] == budget)


async def test_redis_limiter_state_is_on_readyz(fake: FakeLLM) -> None:
    async with (
        redis_server() as redis,
        serve(fake, RESOLVER_REDIS_URL=redis.url, RESOLVER_LLM_QPS="10") as service,
    ):
        state = await readyz_limiter(service)
    assert state["kind"] == "redis"
    assert state["budget"] == "shared"
    assert state["redis"]["url"] == redis.url
    assert state["qps"] == 10.0
    assert state["max_inflight"] == 16


def test_busiest_second_counts_a_sliding_window() -> None:
    assert busiest_second([0.0, 0.5, 0.99, 1.0, 1.5]) == 3
    assert busiest_second([]) == 0
    assert busiest_second([float(i) / 10 for i in range(11)]) == 10
    assert busiest_second([float(i) / 10 for i in range(10)] + [0.95]) == 11
