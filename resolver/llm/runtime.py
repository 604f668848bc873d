"""Opening and closing the LLM resources of a process: the limiter, the client, the probe."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from resolver.core.lifecycle import Lifecycle
from resolver.core.metrics import Metrics
from resolver.core.settings import Settings
from resolver.llm.client import LLMClient
from resolver.llm.limiter import LLMLimiter
from resolver.llm.probe import LLMProbe


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
    limiter = LLMLimiter(
        max_inflight=settings.llm_max_inflight,
        qps=settings.llm_qps,
        max_pending=settings.max_pending,
    )
    client = LLMClient(settings, limiter, metrics, lifecycle)
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
