"""The bodies of the operations routes (`/healthz`, `/readyz`); the error body is
`core/failures.py`'s, shared with the MCP tools."""

from __future__ import annotations

from typing import Any, Literal

from resolver.core.responses import ResponseBody


class HealthResponse(ResponseBody):
    """`GET /healthz`: the process is up, its mode, where its prompts were found: `packaged`
    (the installed wheel's), `source` (the source tree's) or `custom` (a directory of the
    operator's) — never a path of the host, which an unauthenticated probe must not learn
    (the start-up log line names the directory)."""

    status: Literal["ok"]
    mode: Literal["llm", "rules-only"]
    prompts: Literal["packaged", "source", "custom"]
    trace_id: str


class LLMReadiness(ResponseBody):
    """Whether the LLM endpoint answers for us."""

    reachable: bool
    detail: str
    # With a fallback endpoint: the primary's circuit, and whether the fallback answers.
    circuit: dict[str, Any] | None = None
    fallback: dict[str, Any] | None = None


class ReadyResponse(ResponseBody):
    """`GET /readyz`: configuration loaded and the LLM reachable (or rules-only); `draining`
    from SIGTERM on. `limiter` is the LLM budget: local, or shared through Redis and its state."""

    status: Literal["ready", "not_ready", "draining"]
    mode: Literal["llm", "rules-only"]
    llm: LLMReadiness | None
    limiter: dict[str, Any] | None = None
    trace_id: str
