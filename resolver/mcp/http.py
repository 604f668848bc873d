"""Streamable HTTP on the service's own port, with no server-side session state.

The SDK's `StreamableHTTPSessionManager` runs stateless (a fresh transport per POST) and
answers each POST with one JSON body (no SSE): the KWeaver context-loader reads plain JSON,
and no tool sends anything before its result. The aiohttp handler (`web/handlers.py`) reads
the body within the service's limits and hands it here with the call's context; the SDK sees
one ASGI request whose answer is buffered into the aiohttp response, so the request
middleware's trace id, metrics, access log and error shape apply to MCP requests too.

A well-formed `tools/call` of one of the tools skips the SDK's per-request machinery: it is
answered in the handler's task, through the SDK's types, by `fast_path.py`: the same answer
for less CPU (issue 24). The checks of this module come first on both paths.

Sessions: the answer to `initialize` carries a fresh `Mcp-Session-Id` (the KWeaver client
requires one), and a later request carrying any well-formed id is served by whichever
replica gets it. Nothing hangs off a session — each call carries its arguments and the
caller's headers — so there is nothing for a replica to look up or verify (docs/mcp.md).
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager, nullcontext
from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from resolver.core.jsonio import dumps, loads
from resolver.core.metrics import Metrics
from resolver.mcp.exchange import Answer, CallContext, Exchange
from resolver.mcp.fast_path import JSON_HEADERS, fast_call, fast_path_applies, response_body
from resolver.mcp.server import bound_trace_id, build_server, in_call_context, run_outcome
from resolver.services import Services

# Where the aiohttp handler leaves the call's context in the ASGI scope, for the tool handler.
SCOPE_KEY = "resolver.mcp.context"
SESSION_HEADER = "mcp-session-id"
_SESSION_HEADER = SESSION_HEADER.encode()
# The one task that lives as long as the app: it holds the SDK's task group.
HOLDER_TASK = "resolver.mcp.sdk-task-group"
# The SDK's own rule for session ids (visible ASCII), with a length bound of ours.
_SESSION_ID = re.compile(r"[\x21-\x7e]{1,256}")
_INVALID_REQUEST = -32600
# A body that is not JSON, as `_parsed` reads it.
UNREADABLE = object()

Message = MutableMapping[str, Any]
AsgiApp = Callable[
    [Message, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
    Awaitable[None],
]


class StreamableHttp:
    """The MCP endpoint of the HTTP service; `running()` holds the SDK's task group."""

    def __init__(
        self, services: Services, metrics: Metrics, *, max_body_bytes: int, fast_path: bool = True
    ) -> None:
        self.server = build_server(services, metrics, context_of)
        self._services = services
        self._metrics = metrics
        self._manager = StreamableHTTPSessionManager(
            self.server,
            json_response=True,
            stateless=True,
            max_request_body_size=max_body_bytes,
        )
        # Whether well-formed tool calls skip the SDK's per-request machinery (`fast_path.py`):
        # RESOLVER_MCP_FAST_PATH, and only while the server's `tools/call` pipeline is the one
        # it reproduces.
        self.fast_path = fast_path and fast_path_applies(self.server)
        self._fast_posts = metrics.mcp_posts_by("fast")
        self._sdk_posts = metrics.mcp_posts_by("sdk")

    @asynccontextmanager
    async def running(self) -> AsyncIterator[StreamableHttp]:
        """Serve while inside; on exit, calls still running are cancelled."""
        # The SDK's task group must be entered and left by one task, and aiohttp may resume a
        # cleanup context in another task than the one that started it: a task of its own.
        ready, stop = asyncio.Event(), asyncio.Event()

        async def hold() -> None:
            async with self._manager.run():
                ready.set()
                await stop.wait()

        holder = asyncio.create_task(hold(), name=HOLDER_TASK)
        waiter = asyncio.create_task(ready.wait())
        await asyncio.wait({holder, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if not ready.is_set():
            waiter.cancel()
            await holder  # raises what stopped the SDK from starting
        try:
            yield self
        finally:
            stop.set()
            await holder

    async def answer(self, exchange: Exchange) -> Answer:
        """The answer to one POST: a well-formed tool call by the fast path, anything else by
        the SDK, with a session id on the answer to `initialize`."""
        session_id = exchange.header(_SESSION_HEADER)
        if session_id is not None and not _SESSION_ID.fullmatch(session_id):
            return _jsonrpc_error(
                400, "Bad Request: Mcp-Session-Id must be 1 to 256 visible ASCII characters"
            )
        message = _parsed(exchange.body)
        # A call the fast path takes is a valid message (its checks include these).
        call = fast_call(message, exchange.header) if self.fast_path else None
        if call is None and (problem := invalid_message(message)) is not None:
            return _jsonrpc_error(400, f"Invalid Request: {problem}")
        if call is not None:
            self._fast_posts.add()
            context = exchange.context
            # Answered in the request's own task (the aiohttp handler's calls): its trace context
            # is current and the middleware bound its trace id. Another caller's context is
            # bound as the SDK path does, unless its trace id already is.
            bound = context.in_request_task or bound_trace_id() == context.trace_id
            with nullcontext() if bound else in_call_context(context):
                outcome = await run_outcome(
                    call.tool, self._services, call.arguments, context, self._metrics
                )
            body = response_body(call, outcome)
            return Answer(200, list(JSON_HEADERS), body)
        self._sdk_posts.add()
        status, headers, body = await call_asgi(
            self._manager.handle_request, _scope(exchange), exchange.body
        )
        if status == 200 and isinstance(message, dict) and message.get("method") == "initialize":
            headers = [(k, v) for k, v in headers if k.lower() != SESSION_HEADER]
            headers.append((SESSION_HEADER, new_session_id()))
        return Answer(status, headers, body)


def invalid_message(message: Any) -> str | None:
    """Why a parsed body is not one JSON-RPC message this endpoint answers, or None.

    The SDK answered a request whose id is a float, a boolean, an object or null with 202 and
    nothing (as if a notification), and a batch with -32602 and pydantic's text; both are
    -32600 Invalid Request here, in one line. A body that is not JSON (`UNREADABLE`) is the
    SDK's to refuse (-32700 Parse error).
    """
    if message is UNREADABLE:
        return None
    if isinstance(message, list):
        return "batches are not supported; send one JSON-RPC message per request"
    if not isinstance(message, dict):
        return "a JSON-RPC message is a JSON object"
    return _invalid_fields(message)


def _invalid_fields(message: dict[str, Any]) -> str | None:
    if message.get("jsonrpc") != "2.0":
        return 'jsonrpc must be "2.0"'
    if "method" in message and not isinstance(message["method"], str):
        return "method must be a string"
    request_id = message.get("id", 0)
    if isinstance(request_id, bool) or not isinstance(request_id, str | int):
        return "id must be a string or an integer"
    return None


def new_session_id() -> str:
    """A fresh session id: random, opaque, valid on every replica."""
    return uuid.uuid4().hex


def context_of(ctx: ServerRequestContext[Any, Any]) -> CallContext:
    """The context the aiohttp handler put into the ASGI scope of this call's request."""
    scope = getattr(ctx.request, "scope", None)
    context = scope.get(SCOPE_KEY) if isinstance(scope, dict) else None
    if not isinstance(context, CallContext):
        raise TypeError("an MCP call over HTTP arrived without its context")
    return context


async def call_asgi(
    app: AsgiApp, scope: Message, body: bytes
) -> tuple[int, list[tuple[str, str]], bytes]:
    """Run an ASGI app for one request with this body; its answer, buffered."""
    delivered = False
    start: Message | None = None
    chunks: list[bytes] = []

    async def receive() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        # The whole body is delivered; a client that leaves cancels the aiohttp handler,
        # and with it this wait.
        await asyncio.get_running_loop().create_future()
        return {"type": "http.disconnect"}  # pragma: no cover - the wait above never ends

    async def send(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            start = message
        elif message["type"] == "http.response.body":
            chunks.append(bytes(message.get("body", b"")))

    await app(scope, receive, send)
    if start is None:
        raise RuntimeError("the MCP SDK answered nothing")
    headers = [
        (name.decode("latin-1"), value.decode("latin-1"))
        for name, value in start.get("headers", [])
        if name.lower() not in (b"content-length", b"transfer-encoding")
    ]
    return int(start["status"]), headers, b"".join(chunks)


def _scope(exchange: Exchange) -> Message:
    headers = [(name.lower(), value) for name, value in exchange.raw_headers]
    present = {name for name, _ in headers}
    # HTTP semantics the SDK is stricter about: no Accept accepts anything (RFC 9110), and
    # the HTTP API reads a body without Content-Type as JSON; the MCP endpoint does the same.
    if b"accept" not in present:
        headers.append((b"accept", b"*/*"))
    if b"content-type" not in present:
        headers.append((b"content-type", b"application/json"))
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": exchange.method,
        "scheme": "http",
        "path": exchange.path,
        "raw_path": exchange.path.encode(),
        "query_string": exchange.query_string,
        "root_path": "",
        "headers": headers,
        "client": None,
        "server": None,
        SCOPE_KEY: exchange.context,
    }


def _parsed(body: bytes) -> Any:
    """The body as JSON, or `UNREADABLE`."""
    try:
        return loads(body)
    except ValueError:
        return UNREADABLE


def _jsonrpc_error(status: int, message: str) -> Answer:
    body = {"jsonrpc": "2.0", "id": None, "error": {"code": _INVALID_REQUEST, "message": message}}
    return Answer(status, [("content-type", "application/json")], dumps(body))
