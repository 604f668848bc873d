"""Reading JSON request bodies into models, and rendering JSON responses."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

from aiohttp import web
from pydantic import BaseModel, ValidationError

from resolver.errors import (
    BadRequest,
    InvalidJSON,
    PayloadTooLarge,
    ResolverError,
    UnsupportedMediaType,
)
from resolver.jsonio import dumps

M = TypeVar("M", bound=BaseModel)

TRACE_ID = web.RequestKey("trace_id", str)
# How long a request body may take to arrive (create_app sets RESOLVER_REQUEST_TIMEOUT_S).
BODY_TIMEOUT_S = web.AppKey("body_timeout_s", float)

_MAX_ERRORS_SHOWN = 5


def _is_json(content_type: str) -> bool:
    return content_type == "application/json" or content_type.endswith("+json")


async def read_json_body(request: web.Request) -> bytes:
    """The raw body of a JSON request; 413 when too large, 415 when not declared as JSON."""
    declared = request.headers.get("Content-Type", "")
    # The media type is what precedes any parameters. Read here, not by the email package
    # behind request.content_type, which raised IndexError on values like ";0*" (500).
    media = declared.split(";", 1)[0].strip().lower()
    if declared.strip() and not _is_json(media):
        raise UnsupportedMediaType(
            f"send the body as application/json, not {(media or declared)[:80]!r}"
        )
    max_size = request.client_max_size
    if request.content_length is not None and request.content_length > max_size:
        raise PayloadTooLarge(
            f"the body is {request.content_length} bytes; the limit is {max_size}"
        )
    budget = request.app.get(BODY_TIMEOUT_S)
    if request.content.is_eof():
        budget = None  # the whole body is already buffered: nothing to wait for
    try:
        # Bounded: a client may send its body slowly, and aiohttp 3.14 never ends read() when
        # a deflate body that arrives after the headers fails to decode.
        async with asyncio.timeout(budget):
            return await request.read()
    except TimeoutError:
        raise BadRequest(
            f"the body did not arrive (or could not be decoded) within {budget:g}s"
        ) from None
    except web.HTTPRequestEntityTooLarge:
        raise PayloadTooLarge(f"the body exceeds the limit of {max_size} bytes") from None
    except web.RequestPayloadError:
        # A body that does not decode as its Content-Encoding says, or a broken chunk.
        raise BadRequest(
            "the body could not be read: it does not match its Content-Encoding or "
            "Transfer-Encoding"
        ) from None


def parse_model(model: type[M], body: bytes) -> M:
    """Validate a body against a model; 400 naming each bad field (never echoing its value)."""
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise invalid_request(exc) from None


def invalid_request(exc: ValidationError) -> ResolverError:
    """The 400 that describes a validation error of a request built from caller input."""
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    if any(e["type"] in ("json_invalid", "json_type") for e in errors):
        reason = errors[0]["msg"]
        return InvalidJSON(f"the body is not valid JSON: {reason}")
    details = [
        {"loc": ".".join(str(p) for p in e["loc"]) or "body", "msg": e["msg"], "type": e["type"]}
        for e in errors
    ]
    shown = "; ".join(f"{d['loc']}: {d['msg']}" for d in details[:_MAX_ERRORS_SHOWN])
    more = len(details) - _MAX_ERRORS_SHOWN
    suffix = f" (+{more} more)" if more > 0 else ""
    return BadRequest(f"invalid request: {shown}{suffix}", details=details)


def render(
    request: web.Request,
    body: dict[str, Any],
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> web.Response:
    """A JSON response carrying the request's trace_id (the middleware adds the header)."""
    body["trace_id"] = request.get(TRACE_ID, "")
    return web.Response(
        body=dumps(body), status=status, content_type="application/json", headers=headers
    )


def error_body(error: ResolverError) -> dict[str, Any]:
    """The SPEC error shape (422 adds `missing`)."""
    body: dict[str, Any] = {
        "_error": error.one_line(),
        "error": {"code": error.code, "message": error.message, "details": error.details},
    }
    missing = getattr(error, "missing", None)
    if missing is not None:
        body["missing"] = missing
    return body
