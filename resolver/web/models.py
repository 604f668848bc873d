"""The bodies this web layer renders itself: errors (SPEC §2.1) and the operations routes."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from resolver.core.errors import ResolverError
from resolver.core.languages import Language, error_line
from resolver.core.responses import ResponseBody
from resolver.params.models import MissingEntry


class ErrorInfo(ResponseBody):
    """The machine-readable part of an error."""

    code: str
    message: str
    details: Any = Field(default=...)


class ErrorResponse(ResponseBody):
    """Every non-200 body; a 422 adds `missing`."""

    model_config = ConfigDict(populate_by_name=True)

    error_line: str = Field(alias="_error")
    error: ErrorInfo
    missing: list[MissingEntry] | None = None
    trace_id: str

    @classmethod
    def of(
        cls, error: ResolverError, trace_id: str, language: Language | None = None
    ) -> ErrorResponse:
        """The SPEC error shape of a resolver error; `_error` in the caller's language."""
        missing = getattr(error, "missing", None)
        return cls(
            error_line=error_line(error, language),
            error=ErrorInfo(code=error.code, message=error.message, details=error.details),
            missing=missing,
            trace_id=trace_id,
        )

    @classmethod
    def plain(cls, code: str, message: str, trace_id: str) -> ErrorResponse:
        """An error that is not a resolver error (no route, internal)."""
        return cls(
            error_line=message,
            error=ErrorInfo(code=code, message=message, details=None),
            trace_id=trace_id,
        )


class HealthResponse(ResponseBody):
    """`GET /healthz`: the process is up, its mode, where its prompts were found."""

    status: Literal["ok"]
    mode: Literal["llm", "rules-only"]
    prompts: str
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
