"""HTTP that cannot be parsed (a request line or header too long, broken framing), answered in
the SPEC's error shape: aiohttp's own answer is plain text that repeats what the client sent
(and names the server's version), before any middleware could see the request.

`ShapedErrors` is aiohttp's per-connection protocol with one thing changed: the error answer
it writes itself. It is a JSON body with a fresh `trace_id` (also in `x-trace-id`), a code
(`URI_TOO_LONG` 414, `HEADERS_TOO_LARGE` 431, `BAD_HTTP_REQUEST` 400, or the status's own), a
message that quotes nothing the client sent, and `Server: resolver` without a version. One
log line (`http.unparsable`) carries the trace id and the parser's error type.
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable
from http import HTTPStatus

import structlog
from aiohttp import web
from aiohttp.http import HttpVersion11
from aiohttp.http_exceptions import BadHttpMessage, LineTooLong
from aiohttp.web_protocol import RequestHandler

from resolver.core.failures import ErrorResponse
from resolver.web.bodies import SERVER_HEADER

log = structlog.get_logger("resolver.http")

# What a too-long request line starts with, as aiohttp's parsers report it: the URL (the C
# parser: `/…`, `http://…`) or the whole line (`GET /…`); a header reports its name or value.
_REQUEST_LINE = re.compile(rb"/|[A-Za-z][A-Za-z0-9+.-]*://|[A-Z]+ ")


class ShapedErrors(RequestHandler):
    """aiohttp's protocol, its own error answers in the SPEC's shape (module docstring); and
    the request's data let go once its answer is written."""

    __slots__ = ()

    async def _handle_request(
        self,
        request: web.BaseRequest,
        start_time: float | None,
        request_handler: Callable[[web.BaseRequest], Awaitable[web.StreamResponse]],
    ) -> tuple[web.StreamResponse, bool]:
        """aiohttp's, then the body read and the answer's body dropped: its loop keeps the
        last request and answer referenced while a kept-alive connection waits for the next
        (75 s), so an idle connection pinned ~3 MB per pipeline call (issue 30)."""
        response, reset = await super()._handle_request(request, start_time, request_handler)
        # What a written answer no longer needs: the request body read into memory, the
        # answer's body (aiohttp names no public way to drop either).
        request._read_bytes = None
        if isinstance(response, web.Response):
            response._body = None
            response._compressed_body = None
        return response, reset

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        """The answer to a request aiohttp could not parse or whose handler failed outside
        the middleware; it always closes the connection."""
        if request.writer.output_size > 0:
            # Part of an answer went out already: the connection is beyond repair.
            raise ConnectionError("an answer was already under way")
        status, code, text = describe(status, exc)
        trace_id = os.urandom(16).hex()
        log.warning(
            "http.unparsable",
            status=status,
            code=code,
            reason=type(exc).__name__ if exc is not None else None,
            trace_id=trace_id,
        )
        body = ErrorResponse.plain(code, text, trace_id).to_json()
        if request.version < HttpVersion11:
            # aiohttp stands an unparsable request in as an HTTP/1.0 one, and the status line
            # follows the request's version: the service speaks HTTP/1.1 (issue 30). No public
            # way to say so: its version and the property's cached value
            # (tests/system/test_bad_http.py reads the status line).
            request._version = HttpVersion11
            request._cache.pop("version", None)
        response = web.Response(
            status=status,
            body=body,
            content_type="application/json",
            headers={"x-trace-id": trace_id, "Server": SERVER_HEADER},
        )
        response.force_close()
        return response


def describe(status: int, exc: BaseException | None) -> tuple[int, str, str]:
    """(status, code, message) of a parse failure, naming no byte the client sent."""
    if isinstance(exc, LineTooLong):
        line = exc.args[0] if exc.args else b""
        line = line.encode("latin-1", "replace") if isinstance(line, str) else bytes(line)
        if not _REQUEST_LINE.match(line):
            return 431, "HEADERS_TOO_LARGE", "a request header line is too long"
        return 414, "URI_TOO_LONG", "the request line (method and URL) is too long"
    if isinstance(exc, BadHttpMessage) or status == 400:
        return 400, "BAD_HTTP_REQUEST", "the request is not valid HTTP/1.1"
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    return status, phrase.upper().replace(" ", "_"), f"{phrase.lower()}; the trace_id identifies it"
