"""The request middleware: trace id, errors in the SPEC shape (by the one failure policy of
`core/failures.py`, shared with the MCP tools), metrics and the access log."""

from __future__ import annotations

import asyncio
import random
import re
import time

import structlog
from aiohttp import web
from aiohttp.typedefs import Handler, Middleware
from aiohttp.web_urldispatcher import AbstractRoute

from resolver.core import tracing
from resolver.core.errors import ShuttingDown
from resolver.core.failures import ErrorResponse, failure_of
from resolver.core.logs import access_log
from resolver.web.appkeys import TRACE_ID
from resolver.web.bodies import render
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


def request_middleware(served: Served, routes: dict[AbstractRoute, Label]) -> Middleware:
    """The middleware of one application (`served`; `routes`: the label and the business
    flag of each route, filled by create_app as it adds them): bind the trace id to the
    request and its log lines, render every error in the SPEC shape (handlers contain no
    try/except), then count and log the request once (with the ids of the platform's
    envelope, when the body carried one: `core/envelope.py`).

    One middleware, not two: each layer costs a call frame per request on the hot path. What
    it reads of the application it holds (issue 33: `request.app[KEY]` is three Python calls).
    """
    lifecycle = served.lifecycle
    business_paths = served.business_paths
    observe = served.metrics.observe_request
    access_line = access_log.info

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        trace_id = trace_id_of(request)
        request[TRACE_ID] = trace_id
        SERVED.set(served)
        started = time.perf_counter()
        # Bound in the request's own task (aiohttp runs each request in one, on a copy of its
        # connection's context): the binding, and the envelope's ids `note`d later, end with
        # the task, no reset needed.
        structlog.contextvars.bind_contextvars(trace_id=trace_id)
        # Registered so that the shutdown grace deadline can answer this request (503) if it
        # is still running then, rather than drop its connection without a word.
        task = asyncio.current_task()
        if task is not None:
            lifecycle.track(task)
        try:
            try:
                response = await handler(request)
            except web.HTTPException as exc:
                if exc.status < 400:
                    raise
                response = _http_error(request, exc)
            except Exception as exc:  # noqa: BLE001 - failure_of logs it (a bug: with its traceback)
                failure = failure_of(
                    exc,
                    trace_id,
                    request_language(request),
                    log,
                    failed="request.failed",
                    crashed="request.crashed",
                )
                response = render(failure.body, failure.status, failure.headers)
            except asyncio.CancelledError:
                if task is None or not lifecycle.was_cut(task):
                    raise  # the client hung up: nobody to answer
                task.uncancel()
                cut = ShuttingDown(
                    "the service is shutting down and this request outlived the grace period; retry"
                )
                log.warning("request.cut", method=request.method, path=request.path)
                response = render(ErrorResponse.of(cut, trace_id), cut.http_status, cut.headers())
            headers = response.headers
            headers["x-trace-id"] = trace_id
            label = routes.get(request.match_info.route) or _unlisted(request, business_paths)
            route, business = label
            if business:
                # SPEC §2.3: nothing of this request is in the platform's trace (errors too).
                headers[TRACE_RECORDED] = TRACE_RECORDED_VALUE
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

    return middleware


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
_UNMATCHED: Label = ("unmatched", False)


def _unlisted(request: web.Request, business_paths: frozenset[str]) -> Label:
    """The label of a route create_app did not list (aiohttp's own: a 404's, a 405's)."""
    route = _route(request)
    return _UNMATCHED if route == "unmatched" else (route, route in business_paths)


def _route(request: web.Request) -> str:
    """The matched route's pattern (bounded label values), or `unmatched`."""
    info = request.match_info.route.resource
    return info.canonical if info is not None else "unmatched"
