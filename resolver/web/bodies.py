"""Reading JSON request bodies into models, rendering responses from their models, and the
caller's headers that travel upstream."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar, cast

from aiohttp import StreamReader, web
from pydantic import BaseModel, ValidationError

from resolver.actions.models import tool_arguments
from resolver.core import envelope
from resolver.core.deadline import Deadline
from resolver.core.envelope import Enveloped
from resolver.core.errors import (
    BadRequest,
    BodyTimeout,
    PayloadTooLarge,
    invalid_request,
)
from resolver.core.jsonio import dumps
from resolver.core.responses import ResponseBody
from resolver.upstreams.client import CallerHeaders, forwardable
from resolver.web.appkeys import TRACE_ID
from resolver.web.served import SERVED

M = TypeVar("M", bound=BaseModel)

# How long a connection whose body was refused unread may go on absorbing (and discarding)
# what its client still sends before it is closed.
LINGER_S = 2.0
SERVER_HEADER = "resolver"
"""What `Server` says on every answer: the name, never a version a scanner could match."""


async def read_json_body(request: web.Request, deadline: Deadline | None = None) -> bytes:
    """The raw body of a JSON request; 413 when too large (counted after decompression),
    408 when it has not arrived by the request deadline. Its `Content-Type` was checked by the
    browser guard in front of every route with a body (`browsers.py`, 415)."""
    max_size = request.client_max_size
    length = request.content_length
    if length is not None and length > max_size:
        raise PayloadTooLarge(f"the body is {length} bytes; the limit is {max_size}")
    if deadline is None:
        deadline = Deadline.after(SERVED.get().settings.request_timeout_s)
    try:
        if request.content.is_eof():
            # The whole body is already buffered: nothing to wait for, so no timer to set
            # (7–9 µs of CPU per request: `python -m benchmarks hotpath`).
            return await request.read()
        # Bounded: a client may send its body slowly, and aiohttp 3.14 never ends read() when
        # a deflate body that arrives after the headers fails to decode.
        async with asyncio.timeout(deadline.remaining()):
            return await request.read()
    except TimeoutError as exc:
        raise BodyTimeout(
            "the body did not arrive (or could not be decoded) within the request deadline "
            f"of {deadline.budget_s:g}s",
            details={"phase": "body", "budget_s": deadline.budget_s},
        ) from exc
    except web.HTTPRequestEntityTooLarge as exc:
        raise PayloadTooLarge(f"the body exceeds the limit of {max_size} bytes") from exc
    except web.RequestPayloadError as exc:
        # A body that does not decode as its Content-Encoding says, or a broken chunk.
        raise BadRequest(
            "the body could not be read: it does not match its Content-Encoding or "
            "Transfer-Encoding"
        ) from exc


def finish(request: web.BaseRequest, response: web.StreamResponse, stopping: bool) -> None:
    """What every answer of the application gets before it is written (the request edge calls
    it for each answer of a route, `expectation` for aiohttp's 417):

    - it says `Server: resolver` (aiohttp's default names its own version and Python's);
    - a request whose body was not read to its end is answered, then its connection closed,
      never reading (or inflating) the rest of that body. aiohttp would otherwise drain the
      body for up to 10 s to keep the connection alive, decompressing as it goes: a 5 MB gzip
      bomb refused with a 413 went on inflating gigabytes on the event loop. Now the answer
      says `Connection: close` and the connection stops parsing at once: what the client
      still sends is discarded unread (a lingering close, so that a client still sending gets
      the answer rather than a reset), and the connection is closed when the client hangs up,
      or `LINGER_S` later;
    - from the stop signal on (`stopping`), every answer closes its connection.

    A plain call, not an `on_response_prepare` hook: aiohttp sends a signal through a
    coroutine for every answer when the application has one (issue 33).
    """
    response.headers["Server"] = SERVER_HEADER
    body = request.content
    if not body.is_eof():
        response.force_close()
        response.headers["Connection"] = "close"
        request.protocol.close()
        # aiohttp lingers until the body ends; it will not end now that nothing is parsed.
        asyncio.get_running_loop().call_later(LINGER_S, _end_body, body)
    elif stopping:
        response.force_close()
        response.headers["Connection"] = "close"


def _end_body(body: StreamReader) -> None:
    if not body.is_eof():
        body.feed_eof()


def parse_model(model: type[M], body: bytes) -> M:
    """Validate a body against a model; 400 naming each bad field (never echoing its value).

    A business body (`core/envelope.py: Enveloped`) comes back without the platform's
    envelope, whose ids are noted for the request's log lines and span.
    """
    try:
        parsed = model.model_validate_json(body)
    except ValidationError as exc:
        raise invalid_request(exc) from exc
    # The class's own ancestry, not isinstance: pydantic's metaclass is an ABCMeta, whose
    # instance check is a Python call on every request.
    if Enveloped in type(parsed).__mro__:
        enveloped = cast(Enveloped, parsed)
        if enveloped.bkn_context is not None:
            envelope.note(envelope.detach(enveloped))
    return parsed


def parse_arguments(body: bytes) -> dict[str, Any]:
    """The MCP proxy's body: the tool's flat arguments, without the platform's envelope."""
    arguments, carried = envelope.take(tool_arguments(body))
    envelope.note(carried)
    return arguments


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


def caller_headers(request: web.Request, deadline: Deadline | None = None) -> CallerHeaders:
    """The identity and trace headers of an incoming request, to forward upstream (and its
    `Authorization`, which only the services acting for the caller receive), and the request's
    deadline; an identity header that cannot be forwarded whole is a 400."""
    return CallerHeaders(
        trace_id=request[TRACE_ID],
        account_id=_identity(request, "x-account-id"),
        account_type=_identity(request, "x-account-type"),
        traceparent=_identity(request, "traceparent"),
        authorization=_identity(request, "Authorization"),
        deadline=deadline,
        tracestate=_identity(request, "tracestate"),
    )


def _identity(request: web.Request, name: str) -> str | None:
    """A header to forward, exactly as received; 400 when it cannot be."""
    value = request.headers.get(name) or None
    if value is None:
        return None
    try:
        return forwardable(value)
    except ValueError as exc:
        # Never silently altered: `admin\xff` must not reach an upstream as `admin`.
        raise BadRequest(
            f"the {name} header {exc}; send it as UTF-8 text",
            details={"header": name},
        ) from exc
