"""One error body and one failure policy for every face: the HTTP middleware
(`web/middleware.py`) and the MCP tool calls (`mcp/server.py`, `mcp/results.py`) answer and log
a failure the same way.

The body (SPEC §2.1) is `ErrorResponse`: `{"_error": <one line>, "error": {"code", "message",
"details"}, "missing"?: [...] (a 422 of missing inputs), "unread"?: [...], "ask"? (a 422
TIME_UNSETTLED, SPEC §9), "trace_id"}` — HTTP renders it, `/openapi.json` documents it, an MCP
tool error carries it as its text.

The policy (`failure_of`): a resolver error is answered with its own status, code and headers;
one that is the service's or an upstream's fault (5xx) is logged once, with the chain of
exceptions behind it (host, errno, status — never an SDK's message, which may quote a body;
for an upstream's 4xx converted into a 5xx, such as the permission read failing closed, only
the service and its status: the upstream's message may quote the caller's token);
any other exception is a bug, logged with its traceback and answered 500 `INTERNAL` with no
detail but the trace id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict, Field
from structlog.typing import FilteringBoundLogger

from resolver.core.errors import MissingParams, ResolverError, TimeUnsettled, UpstreamError
from resolver.core.languages import Language, error_line
from resolver.core.responses import ResponseBody

INTERNAL = "INTERNAL"
INTERNAL_MESSAGE = "internal error; the trace_id identifies the log lines"
# How many exceptions of a chain a log line names.
_MAX_CAUSES = 8


class MissingEntry(ResponseBody):
    """One property that lacks inputs (a 422's `missing`)."""

    property: str
    params: list[str]
    ask: str


class ErrorInfo(ResponseBody):
    """The machine-readable part of an error."""

    code: str
    message: str
    details: Any = Field(default=...)


class ErrorResponse(ResponseBody):
    """Every non-200 body; a 422 adds `missing` (inputs) or `unread` and `ask` (a time window)."""

    model_config = ConfigDict(populate_by_name=True)

    error_line: str = Field(alias="_error")
    error: ErrorInfo
    missing: list[MissingEntry] | None = None
    unread: list[str] | None = Field(
        default=None, description="TIME_UNSETTLED: the time words that could not be read"
    )
    ask: str | None = Field(
        default=None, description="TIME_UNSETTLED: what to send so that the text settles"
    )
    trace_id: str

    @classmethod
    def of(
        cls, error: ResolverError, trace_id: str, language: Language | None = None
    ) -> ErrorResponse:
        """The SPEC error shape of a resolver error; `_error` in the caller's language."""
        missing = error.missing if isinstance(error, MissingParams) else None
        unsettled = error if isinstance(error, TimeUnsettled) else None
        return cls(
            error_line=error_line(error, language),
            error=ErrorInfo(code=error.code, message=error.message, details=error.details),
            missing=None if missing is None else [MissingEntry.model_validate(m) for m in missing],
            unread=None if unsettled is None else unsettled.unread,
            ask=None if unsettled is None else unsettled.ask,
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


@dataclass(frozen=True, slots=True)
class Failure:
    """What a failed request or tool call answers: status, body and headers; `error` is the
    resolver error behind it (None for a bug)."""

    status: int
    body: ErrorResponse
    headers: dict[str, str]
    error: ResolverError | None

    @property
    def code(self) -> str:
        """The error code (the outcome label of metrics)."""
        return self.body.error.code


def failure_of(
    exc: Exception,
    trace_id: str,
    language: Language | None,
    log: FilteringBoundLogger,
    *,
    failed: str,
    crashed: str,
    **context: Any,
) -> Failure:
    """The answer to `exc`, logged by the one policy (`failed`, `crashed`: the event names of
    the face; `context`: what else its log lines carry, e.g. the tool)."""
    if isinstance(exc, ResolverError):
        if exc.http_status >= 500:
            refusal = upstream_refusal(exc)
            described: dict[str, Any] = (
                {"error": exc.message, "cause": causes(exc)}
                if refusal is None
                else {"service": refusal.service, "upstream_status": refusal.upstream_status}
            )
            log.warning(failed, **context, code=exc.code, status=exc.http_status, **described)
        body = ErrorResponse.of(exc, trace_id, language)
        return Failure(exc.http_status, body, exc.headers(), exc)
    log.error(crashed, exc_info=exc, **context)
    return Failure(500, ErrorResponse.plain(INTERNAL, INTERNAL_MESSAGE, trace_id), {}, None)


def upstream_refusal(exc: BaseException) -> UpstreamError | None:
    """The upstream 4xx behind `exc` (itself or a cause), whose message is the upstream's."""
    seen: BaseException | None = exc
    for _ in range(_MAX_CAUSES):
        if seen is None:
            return None
        status = seen.upstream_status if isinstance(seen, UpstreamError) else None
        if status is not None and 400 <= status < 500:
            return seen  # type: ignore[return-value]
        seen = seen.__cause__ or seen.__context__
    return None


def causes(exc: BaseException) -> list[str]:
    """The exceptions behind `exc`, outermost first (at most 8).

    Resolver's own exceptions and OS errors (host, port, errno) show their message; any other
    shows only its type, since an SDK's message may quote an upstream body. A chain cut with
    `raise … from None` ends there.
    """
    chain: list[str] = []
    seen = _behind(exc)
    while seen is not None and len(chain) < _MAX_CAUSES:
        name = type(seen).__name__
        own = type(seen).__module__.startswith("resolver.")
        chain.append(f"{name}: {seen}"[:300] if own or isinstance(seen, OSError) else name)
        seen = _behind(seen)
    return chain


def _behind(exc: BaseException) -> BaseException | None:
    """The exception `exc` was raised from, as Python shows it (`raise … from None` hides
    the one being handled: what it said is not to be logged)."""
    if exc.__cause__ is not None:
        return exc.__cause__
    return None if exc.__suppress_context__ else exc.__context__
