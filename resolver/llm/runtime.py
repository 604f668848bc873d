"""Opening and closing the LLM resources of a process: the limiter, the client, the probe."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from resolver.core.lifecycle import Lifecycle
from resolver.core.metrics import Metrics
from resolver.core.redis import RedisLink, open_redis
from resolver.core.settings import Settings
from resolver.llm.client import LLMClient
from resolver.llm.completion import cache_value_limit
from resolver.llm.limiter import CallLimiter, LLMLimiter
from resolver.llm.probe import LLMProbe
from resolver.llm.shared_cache import RedisCacheBackend
from resolver.llm.shared_limiter import RedisLimiter


@dataclass(frozen=True, slots=True)
class LLMRuntime:
    """The process's LLM client and the readiness probe of its endpoint(s)."""

    client: LLMClient
    probe: LLMProbe


@asynccontextmanager
async def open_llm(
    settings: Settings, metrics: Metrics | None = None, lifecycle: Lifecycle | None = None
) -> AsyncIterator[LLMRuntime | None]:
    """The LLM runtime, or None in rules-only mode (no `RESOLVER_LLM_BASE_URL`); closed on exit."""
    if settings.llm_base_url is None:
        yield None
        return
    async with (
        open_redis(settings, metrics) as link,
        open_limiter(settings, link, metrics) as limiter,
    ):
        # With Redis the result cache is the cluster's: a retry on another replica is a hit.
        cache = (
            RedisCacheBackend(link, max_value_bytes=cache_value_limit(settings))
            if link is not None
            else None
        )
        client = LLMClient(settings, limiter, metrics, lifecycle, cache)
        if metrics is not None:
            metrics.watch(limiter)
            if client.circuit is not None:
                metrics.llm_circuit.labels(client.circuit.name).set(0)
        probe = LLMProbe(settings.llm_base_url, settings.llm_api_key.get_secret_value())
        await probe.start()
        if settings.llm_fallback_base_url is not None:
            probe.fallback = LLMProbe(
                settings.llm_fallback_base_url, settings.llm_fallback_api_key.get_secret_value()
            )
            await probe.fallback.start()
        try:
            yield LLMRuntime(client, probe)
        finally:
            await client.aclose()
            await probe.close()


@asynccontextmanager
async def open_limiter(
    settings: Settings, link: RedisLink | None, metrics: Metrics | None = None
) -> AsyncIterator[CallLimiter]:
    """The process's share of the LLM budget.

    Without Redis, the limits are the host's: divided among `RESOLVER_WORKERS` processes so that
    the host as a whole keeps them. With Redis, the budget is the cluster's, shared by every
    process; only its fallback (Redis unreachable) is divided, by replicas × workers.
    """
    workers = settings.workers
    qps = settings.llm_qps
    pending = _share(settings.max_pending, workers) if settings.max_pending else 0
    if link is None:
        yield LLMLimiter(
            max_inflight=_share(settings.llm_max_inflight, workers),
            qps=qps / workers if qps else None,
            max_pending=pending,
        )
        return
    processes = settings.expected_replicas * workers
    fallback = LLMLimiter(
        max_inflight=_share(settings.llm_max_inflight, processes),
        qps=qps / processes if qps else None,
        max_pending=pending,
    )
    limiter = RedisLimiter(
        link,
        max_inflight=settings.llm_max_inflight,
        qps=qps,
        max_pending=pending,
        lease_s=settings.llm_lease_s,
        failure=settings.redis_failure,
        fallback=fallback,
        metrics=metrics,
    )
    limiter.start()
    try:
        yield limiter
    finally:
        await limiter.aclose()


def _share(total: int, parts: int) -> int:
    """One process's part of a limit (at least 1)."""
    return max(1, total // parts)
