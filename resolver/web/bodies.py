"""Reading JSON request bodies into models, rendering responses from their models, and the
caller's headers that travel upstream."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

from aiohttp import web
from pydantic import BaseModel, ValidationError

from resolver.core.errors import (
    BadRequest,
    PayloadTooLarge,
    UnsupportedMediaType,
    invalid_request,
)
from resolver.core.jsonio import dumps
from resolver.core.responses import ResponseBody
from resolver.upstreams.client import CallerHeaders
from resolver.web.appkeys import SETTINGS_KEY, TRACE_ID

M = TypeVar("M", bound=BaseModel)


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
    budget = request.app[SETTINGS_KEY].request_timeout_s
    try:
        if request.content.is_eof():
            # The whole body is already buffered: nothing to wait for, so no timer to set
            # (5–10 µs of CPU per request).
            return await request.read()
        # Bounded: a client may send its body slowly, and aiohttp 3.14 never ends read() when
        # a deflate body that arrives after the headers fails to decode.
        async with asyncio.timeout(budget):
            return await request.read()
    except TimeoutError as exc:
        raise BadRequest(
            f"the body did not arrive (or could not be decoded) within {budget:g}s"
        ) from exc
    except web.HTTPRequestEntityTooLarge as exc:
        raise PayloadTooLarge(f"the body exceeds the limit of {max_size} bytes") from exc
    except web.RequestPayloadError as exc:
        # A body that does not decode as its Content-Encoding says, or a broken chunk.
        raise BadRequest(
            "the body could not be read: it does not match its Content-Encoding or "
            "Transfer-Encoding"
        ) from exc


def parse_model(model: type[M], body: bytes) -> M:
    """Validate a body against a model; 400 naming each bad field (never echoing its value)."""
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise invalid_request(exc) from exc


def render(
    body: ResponseBody, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON response rendered from its model (the middleware adds the x-trace-id header)."""
    return web.Response(
        body=body.to_json(), status=status, content_type="application/json", headers=headers
    )


def render_json(body: Any, status: int = 200) -> web.Response:
    """A JSON response of a document that has no model of its own (an upstream's answer)."""
    return web.Response(body=dumps(body), status=status, content_type="application/json")


def caller_headers(request: web.Request) -> CallerHeaders:
    """The identity and trace headers of an incoming request, to forward upstream."""
    return CallerHeaders(
        trace_id=request[TRACE_ID],
        account_id=request.headers.get("x-account-id") or None,
        account_type=request.headers.get("x-account-type") or None,
        traceparent=request.headers.get("traceparent") or None,
    )
