"""The request edge around every route's handler: trace id, browser checks, errors in the SPEC
shape (by the one failure policy of `core/failures.py`, shared with the MCP tools), metrics and
the access log; the last route's 404 and 405; and the tracing middleware (when tracing is on)."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from aiohttp import HttpVersion11, web
from aiohttp.typedefs import Handler

from resolver.core import tracing
from resolver.core.errors import ShuttingDown
from resolver.core.failures import ErrorResponse, failure_of
from resolver.core.logs import access_log, context_var
from resolver.web.appkeys import TRACE_ID
from resolver.web.bodies import finish, render
from resolver.web.negotiation import request_language
from resolver.web.routing import TRACE_RECORDED, TRACE_RECORDED_VALUE
from resolver.web.served import SERVED, Served

log = structlog.get_logger("resolver.http")

_TRACEPARENT = re.compile(r"^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$")
_TRACE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
_ZERO_TRACE = "0" * 32


def trace_id_of(request: web.Request) -> str:
    """`x-trace-id` if sane, else the trace id of `traceparent`, else the current span's (when
    tracing), else a new one. Headers that are absent cost one dictionary miss each."""
    headers = request.headers
    given = headers.get("x-trace-id")
    if given is not None:
        given = given.strip()
        if _TRACE_ID.match(given):
            return given
    parent_header = headers.get("traceparent")
    if parent_header is not None:
        parent = _TRACEPARENT.match(parent_header.strip().lower())
        if parent and parent.group(1) != _ZERO_TRACE:
            return parent.group(1)
    if tracing.enabled():
        from_span = tracing.current_trace_id()
        if from_span is not None:
            return from_span
    # 128 random bits as 32 hex digits: trace ids need to be unique, not secret, so Python's
    # Mersenne Twister serves (as OpenTelemetry's id generator does), without the system call
    # of os.urandom. Never all zeros (W3C: an invalid trace id).
    return f"{random.getrandbits(128) or 1:032x}"


def request_edge(
    served: Served, label: Label, handler: Handler, screen: Screen | None = None
) -> Handler:
    """`handler` behind the request edge of one application (`served`), for one route
    (`label`: its pattern and business flag; `screen`: the browser checks, for the routes
    behind them): bind the trace id to the request and its log lines, run the browser checks,
    render every error in the SPEC shape (handlers contain no try/except), then count and log
    the request once (with the ids of the platform's envelope, when the body carried one:
    `core/envelope.py`).

    Each route's handler is wrapped in it when create_app adds the route, rather than one
    aiohttp middleware around all of them: aiohttp builds a middleware chain per request
    (a cached lookup keyed by the handler and the application, a `partial` per layer, and its
    own layer that sets `current_app`), and the middleware looked the route's label up; here
    each is settled once, at start-up (issue 33). aiohttp's own answers for a path no route
    serves reach the edge through the last route (`no_route`). What it reads of the
    application it holds (`request.app[KEY]` is three Python calls).
    """
    lifecycle = served.lifecycle
    observe = served.metrics.observe_request
    access_line = access_log.info
    board = served.board
    route, business = label
    bind_trace_id = context_var("trace_id").set  # structlog's `trace_id`, on every line

    async def edge(request: web.Request) -> web.StreamResponse:
        trace_id = trace_id_of(request)
        request[TRACE_ID] = trace_id
        SERVED.set(served)
        started = time.perf_counter()
        # Bound in the request's own task (aiohttp runs each request in one, on a copy of its
        # connection's context): the binding, and the envelope's ids `note`d later, end with
        # the task, no reset needed.
        bind_trace_id(trace_id)
        # Registered so that the shutdown grace deadline can answer this request (503) if it
        # is still running then, rather than drop its connection without a word.
        task = asyncio.current_task()
        if task is not None:
            lifecycle.track(task)
        slot = board.started(trace_id, request.method, request.path) if board is not None else None
        try:
            try:
                if screen is not None:
                    screen(request)
                response = await handler(request)
            except Exception as exc:  # noqa: BLE001 - failure_of logs it (a bug: with its traceback)
                response = _error_answer(request, exc, trace_id)
            except asyncio.CancelledError:
                if task is None or not lifecycle.was_cut(task):
                    raise  # the client hung up: nobody to answer
                response = _cut_answer(request, task, trace_id)
            headers = response.headers
            headers["x-trace-id"] = trace_id
            if business:
                # SPEC §2.3: nothing of this request is in the platform's trace (errors too).
                headers[TRACE_RECORDED] = TRACE_RECORDED_VALUE
            finish(request, response, lifecycle.stopping)
            status = response.status
            elapsed = time.perf_counter() - started
            observe(route, status, elapsed)
            # `access_log.request`'s line, without its frame.
            fields = {
                "method": request.method,
                "path": request.path,
                "status": status,
                "latency_ms": round(elapsed * 1000, 2),
            }
            access_line("resolver.http", "http.request", fields)
            return response
        finally:
            if task is not None:
                lifecycle.untrack(task)
            if board is not None:
                board.ended(slot)

    return edge


def _error_answer(request: web.Request, exc: Exception, trace_id: str) -> web.StreamResponse:
    """The SPEC-shaped answer for what the handler raised (a redirect is raised on)."""
    if isinstance(exc, web.HTTPException):
        if exc.status < 400:
            raise exc
        return _http_error(request, exc)
    failure = failure_of(
        exc,
        trace_id,
        request_language(request),
        log,
        failed="request.failed",
        crashed="request.crashed",
    )
    return render(failure.body, failure.status, failure.headers)


def _cut_answer(request: web.Request, task: asyncio.Task[Any], trace_id: str) -> web.Response:
    """The 503 of a request the shutdown grace deadline cut (its cancellation taken back)."""
    task.uncancel()
    cut = ShuttingDown(
        "the service is shutting down and this request outlived the grace period; retry"
    )
    log.warning("request.cut", method=request.method, path=request.path)
    return render(ErrorResponse.of(cut, trace_id), cut.http_status, cut.headers())


def expectation(served: Served) -> Callable[[web.Request], Awaitable[web.StreamResponse | None]]:
    """Every route's `Expect` handler, run by aiohttp before the route's (so before the edge):
    `100-continue` is answered `100 Continue`, as aiohttp's own handler does; any other
    expectation gets aiohttp's 417, `finish`ed as every answer is (named `Server: resolver`,
    and its connection closed: the body was never read)."""
    lifecycle = served.lifecycle

    async def expect(request: web.Request) -> web.StreamResponse | None:
        if request.version != HttpVersion11:
            return None  # HTTP/1.0 has no Expect (RFC 9110 §10.1.1): ignored, as aiohttp does
        expected = request.headers.get("Expect", "")
        if expected.lower() == "100-continue":
            await request.writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            request.writer.output_size = 0  # the answer's own size starts after it
            return None
        refused = web.Response(status=417, text=f"Unknown Expect: {expected}")
        finish(request, refused, lifecycle.stopping)
        return refused

    return expect


# The last route: every path no other route serves (SPEC-shaped 404, 405).
UNMATCHED_PATH = "/{unmatched:.*}"
UNMATCHED_CANONICAL = "/{unmatched}"  # how aiohttp names its resource


async def no_route(request: web.Request) -> web.StreamResponse:
    """aiohttp's answer for a request no route takes: 405 when a route serves its path with
    another method, else 404 (the edge renders either in the SPEC's shape)."""
    allowed: set[str] = set()
    for resource in request.app.router.resources():
        if resource.canonical != UNMATCHED_CANONICAL:
            _, methods = await resource.resolve(request)
            allowed |= methods
    if allowed:
        raise web.HTTPMethodNotAllowed(request.method, allowed)
    raise web.HTTPNotFound()


@web.middleware
async def tracing_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A SERVER span around the request (outermost; only installed when tracing is on).

    OpenTelemetry's aiohttp-server instrumentation needs its instrumentor to patch
    `web.Application` process-wide before its middleware works; this is the same span with
    the HTTP semantic-convention attributes, and no patching.
    """
    route = _route(request)
    attributes = {
        "http.request.method": request.method,
        "url.path": request.path,
        "http.route": route,
        "server.address": request.host.split(":", 1)[0],
    }
    with tracing.server_span(f"{request.method} {route}", request.headers, attributes) as span:
        response = await handler(request)
        span.set_attribute("http.response.status_code", response.status)
        if response.status >= 500:
            span.set_attribute("error.type", str(response.status))
        return response


def _http_error(request: web.Request, exc: web.HTTPException) -> web.Response:
    code = (exc.reason or "error").upper().replace(" ", "_")
    message = f"{exc.reason}: {request.method} {request.path}"
    return render(ErrorResponse.plain(code, message, request[TRACE_ID]), exc.status)


# A route's label (its pattern: bounded label values) and whether it is a business route.
Label = tuple[str, bool]
UNMATCHED: Label = ("unmatched", False)
# The browser checks of a route (`browsers.py: BrowserGuard.screen`): raise, or pass.
Screen = Callable[[web.Request], None]


def _route(request: web.Request) -> str:
    """The matched route's pattern (bounded label values), or `unmatched`."""
    info = request.match_info.route.resource
    if info is None or info.canonical == UNMATCHED_CANONICAL:
        return "unmatched"
    return info.canonical
