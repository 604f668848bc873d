"""The exceptions resolver raises, each carrying its HTTP status and error code.

Handlers never catch these: the error middleware renders every one of them into the
SPEC error shape. SDK and client exceptions are translated where they are raised.

    ResolverError                       500 INTERNAL
    ├── BadRequest                      400 BAD_REQUEST
    │   ├── InvalidJSON                 400 INVALID_JSON
    │   ├── InvalidCallerValue          400 INVALID_DYNAMIC_PARAMS
    │   ├── InvalidProperty             400 INVALID_PROPERTY
    │   ├── InvalidBusinessContext      400 INVALID_BUSINESS_CONTEXT (the envelope's shape)
    │   ├── ModelNotAllowed             400 MODEL_NOT_ALLOWED (`llm_model` not listed)
    │   ├── UnsupportedActionType       400 UNSUPPORTED_ACTION_TYPE
    │   ├── InvalidArguments            400 INVALID_ARGUMENTS
    │   └── LLMBudgetExceeded           400 LLM_BUDGET_EXCEEDED (the request's LLM budget)
    ├── Unauthorized                    401 UNAUTHORIZED (an upstream refused the caller)
    ├── PermissionDenied                403 PERMISSION_DENIED (an upstream refused the caller)
    ├── Forbidden                       403 FORBIDDEN (a browser's Origin, a rebinding Host)
    ├── NotFound                        404 NOT_FOUND
    │   ├── ObjectTypeNotFound          404 OBJECT_TYPE_NOT_FOUND
    │   ├── ActionTypeNotFound          404 ACTION_TYPE_NOT_FOUND
    │   └── ToolNotFound                404 TOOL_NOT_FOUND
    ├── BodyTimeout                     408 BODY_TIMEOUT (the body did not arrive in time)
    ├── PayloadTooLarge                 413 PAYLOAD_TOO_LARGE
    ├── UnsupportedMediaType            415 UNSUPPORTED_MEDIA_TYPE
    ├── MissingParams                   422 MISSING_PARAMS
    ├── TimeUnsettled                   422 TIME_UNSETTLED (a text settles no time window)
    ├── LLMError                        502 LLM_UNAVAILABLE
    │   ├── LLMUnavailable              502 LLM_UNAVAILABLE
    │   ├── LLMOutputInvalid            502 LLM_OUTPUT_INVALID
    │   └── LLMTimeout                  504 LLM_TIMEOUT
    ├── UpstreamError                   502 UPSTREAM_ERROR (or the upstream's own 4xx)
    │   └── UpstreamTimeout             504 UPSTREAM_TIMEOUT (the request deadline passed)
    ├── SchemaConversionError           502 SCHEMA_CONVERSION_ERROR (a tool schema is unusable)
    ├── Overloaded                      503 OVERLOADED
    ├── NotConfigured                   503 NOT_CONFIGURED
    └── ShuttingDown                    503 SHUTTING_DOWN (cut at the end of the shutdown grace)
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import ValidationError

from resolver.core.clip import clip

# The platform's envelope (`core/envelope.py`): errors inside it are its own 400.
ENVELOPE_FIELD = "bkn_context"
_MAX_ERRORS_SHOWN = 5
_MAX_ERRORS_LISTED = 50
# Our own messages, which quote clipped keys and values: bounded, but longer than one echo.
_MAX_MESSAGE = 1000


class ResolverError(Exception):
    """Base of every error that maps to an HTTP answer."""

    status: ClassVar[int] = 500
    code: ClassVar[str] = "INTERNAL"

    def __init__(self, message: str, *, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    @property
    def http_status(self) -> int:
        """The HTTP status of this error instance (subclasses may vary it per instance)."""
        return self.status

    def one_line(self) -> str:
        """The `_error` line: one sentence a human or an LLM can act on."""
        # Messages quote caller input and model output, either of which may hold line breaks.
        return " ".join(self.message.split())

    def headers(self) -> dict[str, str]:
        """Extra response headers for this error."""
        return {}


class BadRequest(ResolverError):
    """The request is malformed or breaks the request schema."""

    status = 400
    code = "BAD_REQUEST"


class InvalidJSON(BadRequest):
    """The body is not valid UTF-8 JSON."""

    code = "INVALID_JSON"


class InvalidCallerValue(BadRequest):
    """A value the caller supplied breaks a rule; details list each violation."""

    code = "INVALID_DYNAMIC_PARAMS"


class InvalidProperty(BadRequest):
    """Requested properties that the object type does not define as logic properties."""

    code = "INVALID_PROPERTY"


class InvalidBusinessContext(BadRequest):
    """The platform's envelope (`bkn_context`) has a key or a value of the wrong shape."""

    code = "INVALID_BUSINESS_CONTEXT"


class ModelNotAllowed(BadRequest):
    """The request's `llm_model` is not one of `RESOLVER_LLM_ALLOWED_MODELS`."""

    code = "MODEL_NOT_ALLOWED"


class UnsupportedActionType(BadRequest):
    """The recalled action's source is neither a tool-box tool nor an MCP tool (SPEC §8)."""

    code = "UNSUPPORTED_ACTION_TYPE"


class InvalidArguments(BadRequest):
    """Arguments for an MCP tool break its `inputSchema`; details list each failing path."""

    code = "INVALID_ARGUMENTS"


class LLMBudgetExceeded(BadRequest):
    """One request would make more LLM calls, or send more prompt bytes, than a request may
    (`RESOLVER_LLM_MAX_CALLS_PER_REQUEST`, `RESOLVER_LLM_MAX_PROMPT_BYTES_PER_REQUEST`)."""

    code = "LLM_BUDGET_EXCEEDED"


class Forbidden(ResolverError):
    """The request comes from where this face does not serve (a browser page, a rebound
    DNS name)."""

    status = 403
    code = "FORBIDDEN"


class Unauthorized(ResolverError):
    """An upstream that acts for the caller refused the caller's credentials."""

    status = 401
    code = "UNAUTHORIZED"


class PermissionDenied(ResolverError):
    """An upstream that acts for the caller refused the caller access."""

    status = 403
    code = "PERMISSION_DENIED"


class NotFound(ResolverError):
    """No such route or resource."""

    status = 404
    code = "NOT_FOUND"


class ObjectTypeNotFound(NotFound):
    """ontology-manager knows no such object type in that knowledge network."""

    code = "OBJECT_TYPE_NOT_FOUND"


class ActionTypeNotFound(NotFound):
    """ontology-query knows no such action type in that knowledge network."""

    code = "ACTION_TYPE_NOT_FOUND"


class ToolNotFound(NotFound):
    """agent-operator-integration knows no such tool-box tool or MCP tool."""

    code = "TOOL_NOT_FOUND"


class BodyTimeout(ResolverError):
    """The request body did not arrive (or could not be decoded) before the request deadline."""

    status = 408
    code = "BODY_TIMEOUT"


class PayloadTooLarge(ResolverError):
    """The body exceeds RESOLVER_MAX_BODY_BYTES."""

    status = 413
    code = "PAYLOAD_TOO_LARGE"


class UnsupportedMediaType(ResolverError):
    """The body is not declared as JSON."""

    status = 415
    code = "UNSUPPORTED_MEDIA_TYPE"


class MissingParams(ResolverError):
    """One or more properties lack inputs; `missing` is complete and in request order."""

    status = 422
    code = "MISSING_PARAMS"

    def __init__(
        self,
        message: str,
        *,
        missing: list[dict[str, Any]],
        param_types: dict[str, dict[str, str | None]] | None = None,
    ) -> None:
        super().__init__(message, details=None)
        self.missing = missing
        # property -> missing param -> declared type (or None): the MCP surface's hints name
        # each param's type; the HTTP body does not carry it.
        self.param_types = param_types or {}


class TimeUnsettled(ResolverError):
    """A text settles no time window (SPEC §9): `unread` names the time words that could not be
    read (none when the text holds no time word), `ask` is the one sentence saying what to send,
    in the answer's language; it is also the `_error` line."""

    status = 422
    code = "TIME_UNSETTLED"

    def __init__(self, message: str, *, unread: tuple[str, ...], ask: str) -> None:
        super().__init__(message, details=None)
        self.unread = list(unread)
        self.ask = ask

    def one_line(self) -> str:
        """The ask: what a caller acts on."""
        return " ".join(self.ask.split())


class LLMError(ResolverError):
    """The LLM could not produce a usable answer."""

    status = 502
    code = "LLM_UNAVAILABLE"


class LLMUnavailable(LLMError):
    """The LLM answered with errors (after retries) or could not be reached."""


class LLMOutputInvalid(LLMError):
    """The LLM kept producing output that breaks the rules, after the repair rounds."""

    code = "LLM_OUTPUT_INVALID"


class LLMTimeout(LLMError):
    """The LLM call or the request deadline ran out."""

    status = 504
    code = "LLM_TIMEOUT"


class UpstreamError(ResolverError):
    """An upstream service failed; its 4xx status passes through, anything else is 502."""

    status = 502
    code = "UPSTREAM_ERROR"

    def __init__(
        self, message: str, *, service: str, upstream_status: int | None = None, details: Any = None
    ) -> None:
        super().__init__(message, details=details)
        self.service = service
        self.upstream_status = upstream_status

    @property
    def http_status(self) -> int:
        """Pass an upstream 4xx through; anything else is a bad gateway."""
        if self.upstream_status is not None and 400 <= self.upstream_status < 500:
            return self.upstream_status
        return 502


class UpstreamTimeout(UpstreamError):
    """The request deadline passed while an upstream call was under way (or before it began)."""

    code = "UPSTREAM_TIMEOUT"

    @property
    def http_status(self) -> int:
        """Always a gateway timeout: the deadline, not the upstream's answer, decided."""
        return 504


class SchemaConversionError(ResolverError, ValueError):
    """A tool schema cannot be converted; `pointer` is the JSON pointer of the offending node."""

    status = 502
    code = "SCHEMA_CONVERSION_ERROR"

    def __init__(self, reason: str, pointer: str = "#") -> None:
        super().__init__(f"{reason} (at {pointer})", details={"pointer": pointer})
        self.reason = reason
        self.pointer = pointer


class Overloaded(ResolverError):
    """Too many LLM calls are already waiting for a slot, or MCP tool calls in flight."""

    status = 503
    code = "OVERLOADED"

    def __init__(self, message: str, *, retry_after_s: int = 1) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s

    def headers(self) -> dict[str, str]:
        """Tell the client when to come back."""
        return {"Retry-After": str(self.retry_after_s)}


class NotConfigured(ResolverError):
    """The endpoint needs an upstream URL that is not configured."""

    status = 503
    code = "NOT_CONFIGURED"


class ShuttingDown(ResolverError):
    """The process is shutting down and the request ran past the grace period."""

    status = 503
    code = "SHUTTING_DOWN"

    def headers(self) -> dict[str, str]:
        """Another replica can take the retry; this connection will not be reused."""
        return {"Retry-After": "1", "Connection": "close"}


def invalid_request(exc: ValidationError) -> ResolverError:
    """The 400 that describes a validation error of a request built from caller input."""
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    if any(e["type"] in ("json_invalid", "json_type") for e in errors):
        reason = errors[0]["msg"]
        return InvalidJSON(f"the body is not valid JSON: {reason}")
    # Errors inside the envelope are reported alone: the platform sent it, not the caller's
    # own request (SPEC §2.3).
    in_envelope = [e for e in errors if e["loc"][:1] == (ENVELOPE_FIELD,)]
    kind: type[BadRequest] = BadRequest
    what = "invalid request"
    if in_envelope:
        errors, kind, what = in_envelope, InvalidBusinessContext, "invalid business context"
    # A location holds the caller's dict keys, which may be any length.
    details = [
        {
            "loc": clip(".".join(str(p) for p in e["loc"])) or "body",
            "msg": clip(e["msg"], _MAX_MESSAGE),
            "type": e["type"],
        }
        for e in errors[:_MAX_ERRORS_LISTED]
    ]
    shown = "; ".join(f"{d['loc']}: {d['msg']}" for d in details[:_MAX_ERRORS_SHOWN])
    more = len(errors) - _MAX_ERRORS_SHOWN
    suffix = f" (+{more} more)" if more > 0 else ""
    return kind(f"{what}: {shown}{suffix}", details=details)
