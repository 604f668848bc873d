"""Opening and closing the resolution engine's resources, for the server and the CLI alike."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import structlog

from resolver.limits import LLMLimiter
from resolver.llm.client import LLMClient
from resolver.llm.prompts import load_prompts
from resolver.metrics import Metrics
from resolver.probe import LLMProbe
from resolver.service import Resolver
from resolver.settings import Settings

log = structlog.get_logger("resolver.engine")


@asynccontextmanager
async def open_resolver(
    settings: Settings, prompts_dir: Path | None = None, metrics: Metrics | None = None
) -> AsyncIterator[tuple[Resolver, LLMProbe | None]]:
    """The engine and, in LLM mode, the readiness probe; both closed on exit."""
    prompts = load_prompts(prompts_dir)
    if settings.llm_base_url is None:
        log.info("resolver.started", mode="rules-only", prompts=str(prompts.directory))
        yield Resolver(settings, prompts, None), None
        return
    limiter = LLMLimiter(
        max_inflight=settings.llm_max_inflight,
        qps=settings.llm_qps,
        max_pending=settings.max_pending,
    )
    llm = LLMClient(settings, limiter, metrics.observe_llm_attempt if metrics else None)
    if metrics is not None:
        metrics.watch(limiter)
    probe = LLMProbe(settings.llm_base_url, settings.llm_api_key.get_secret_value())
    await probe.start()
    log.info(
        "resolver.started",
        mode="llm",
        llm_base_url=settings.llm_base_url,
        llm_model=settings.llm_model,
        prompts=str(prompts.directory),
        max_concurrency=settings.max_concurrency,
        llm_max_inflight=settings.llm_max_inflight,
        llm_qps=settings.llm_qps,
    )
    try:
        yield Resolver(settings, prompts, llm), probe
    finally:
        await llm.aclose()
        await probe.close()
