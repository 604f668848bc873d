"""The composition root: the service graph, built once per process by `open_services`.

The web application (`web/app.py: create_app`, from a `cleanup_ctx`), the MCP stdio server
(`resolver mcp`) and the command line (`resolver resolve`) all open the same graph here, so a
service is wired in one place and every face runs on the same objects:

    open_services(settings)
    ├── ParamsService       prompts, the LLM client and its limiter (`llm/runtime.py`)
    │   └── LLMProbe        the readiness probe of the LLM endpoint(s), or None rules-only
    ├── Upstreams           one pooled session per configured upstream
    │   ├── OperatorSchemas the operator and tool-box schema cache
    │   │   ├── Pipeline    the Go-compatible pipeline (`kn/`)
    │   │   └── InputCatalog what each logic property needs (`kn/inputs.py`)
    │   └── McpToolCache    one cache: a recall primes it for the proxy call that follows
    │       ├── ActionRecall
    │       └── McpProxy
    ├── Offload             worker threads for pure CPU work (schema conversion, TOON)
    ├── TimeWindows         the scanner on its own (SPEC §9): pure, nothing to open, so
    │                       `resolver time` builds it alone (`TimeWindows.of(settings)`)
    └── closed in reverse order on exit

May import: `resolver.core`, `resolver.llm`, `resolver.upstreams`, `resolver.params`,
`resolver.kn`, `resolver.actions`, `resolver.windows`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from resolver.actions.mcp_tools import McpToolCache
from resolver.actions.proxy import McpProxy
from resolver.actions.recall import ActionRecall
from resolver.core.lifecycle import Lifecycle
from resolver.core.metrics import Metrics
from resolver.core.offload import Offload
from resolver.core.settings import Settings
from resolver.kn.inputs import InputCatalog
from resolver.kn.operator_schemas import OperatorSchemas
from resolver.kn.pipeline import Pipeline
from resolver.llm.probe import LLMProbe
from resolver.params.service import ParamsService, open_params_service
from resolver.upstreams.client import Upstreams, open_upstreams
from resolver.windows.service import TimeWindows


@dataclass(frozen=True, slots=True)
class Services:
    """Every service a request can reach, one of each per process."""

    params: ParamsService
    probe: LLMProbe | None  # None in rules-only mode
    upstreams: Upstreams
    pipeline: Pipeline
    inputs: InputCatalog
    recall: ActionRecall
    proxy: McpProxy
    offload: Offload  # CPU-heavy pure work (schema conversion, TOON) off the event loop
    windows: TimeWindows


@asynccontextmanager
async def open_services(
    settings: Settings,
    *,
    metrics: Metrics | None = None,
    lifecycle: Lifecycle | None = None,
    prompts_dir: Path | None = None,
) -> AsyncIterator[Services]:
    """The service graph for these settings, on the running loop; closed on exit.

    `metrics` counts LLM and upstream calls (the web app's `/metrics`); `lifecycle` tells the
    LLM client when shutdown has begun (no retries then); `prompts_dir` overrides where the
    prompts are read from.
    """
    observe = metrics.observe_upstream_call if metrics is not None else None
    offload = Offload()
    try:
        async with (
            open_params_service(settings, prompts_dir, metrics, lifecycle, offload) as opened,
            open_upstreams(settings, observe) as upstreams,
        ):
            yield _services(settings, opened, upstreams, offload)
    finally:
        offload.close()


def _services(
    settings: Settings,
    opened: tuple[ParamsService, LLMProbe | None],
    upstreams: Upstreams,
    offload: Offload,
) -> Services:
    params, probe = opened
    schemas = OperatorSchemas(upstreams, settings.operator_schema_ttl_s, offload=offload)
    mcp_tools = McpToolCache(upstreams, settings.mcp_tool_ttl_s)
    return Services(
        params=params,
        probe=probe,
        upstreams=upstreams,
        pipeline=Pipeline(params, upstreams, schemas),
        inputs=InputCatalog(upstreams, schemas),
        recall=ActionRecall(upstreams, mcp_tools, offload),
        proxy=McpProxy(
            upstreams,
            mcp_tools,
            call_timeout_s=settings.mcp_call_timeout_s,
            max_inflight=settings.mcp_max_inflight,
            max_answer_bytes=settings.mcp_max_answer_bytes,
            offload=offload,
        ),
        offload=offload,
        windows=TimeWindows.of(settings),
    )
