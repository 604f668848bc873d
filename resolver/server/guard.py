"""The listener's guard against slow and excess clients.

aiohttp bounds an idle connection only by its keep-alive timeout, so a client that opens a
connection and sends its headers a byte at a time holds a file descriptor for that long; a
thousand of them exhausted the descriptors and `/healthz` stopped answering, silently. The
guard sits between the listening socket and aiohttp's protocol and adds:

- a **header timeout**: a connection whose first request's headers are not complete within
  `RESOLVER_HEADER_TIMEOUT_S` gets a 408 and is closed (later requests on a kept-alive
  connection are bounded by aiohttp's keep-alive timeout, 75 s);
- a **connection cap** (`RESOLVER_MAX_CONNECTIONS` per process, kept under the descriptor
  limit). At the cap a newcomer is admitted *provisionally* (a few dozen at a time, within
  the descriptors kept in reserve) and must prove itself with its first packet: a complete set
  of request headers (what a probe or any real client sends) makes room by closing the oldest
  connection still sending its headers (408, reason `evicted`); a partial set, or nothing
  within a quarter second, gets a 503 and is closed (reason `refused`), as does a newcomer
  when the provisional places are taken. Slow clients, even reconnecting in a flood, cannot
  keep `/healthz` out.

Each limit hit is counted in `/metrics` (`resolver_http_connections_closed_by_limit`) and
logged (at most one line per limit every few seconds, with the count since the last one).
"""

from __future__ import annotations

import asyncio
import resource
import time
import uuid
from collections.abc import Callable
from typing import cast

import orjson
import structlog

from resolver.core.metrics import Metrics

log = structlog.get_logger("resolver.server")

# How often each kind of limit may be logged; /metrics counts every occurrence.
_LOG_EVERY_S = 5.0
# Descriptors kept for everything but client connections: the LLM and upstream pools, Redis,
# logs, the event loop's own.
_RESERVE_MAX = 256
_RESERVE_MIN = 64
# How long a provisional connection (admitted at the cap) has to send its first packet.
_PROVISIONAL_S = 0.25


def descriptor_budget(wanted: int) -> tuple[int, int]:
    """Raise the soft descriptor limit to the hard one; the connection cap that fits under it
    (at most `wanted`), and the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    target = min(target, 1 << 20)
    if soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    reserve = min(_RESERVE_MAX, max(_RESERVE_MIN, soft // 4))
    return max(1, min(wanted, soft - reserve)), soft


def _response(status: str, code: str, message: str) -> bytes:
    """A whole HTTP response in the SPEC's error shape, written straight to the socket."""
    body = orjson.dumps(
        {
            "_error": message,
            "error": {"code": code, "message": message, "details": None},
            "trace_id": uuid.uuid4().hex,
        }
    )
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nConnection: close\r\n"
        f"Retry-After: 1\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


class ConnectionGuard:
    """Counts the open client connections of one process and enforces both limits."""

    def __init__(
        self,
        handler_factory: Callable[[], asyncio.Protocol],
        *,
        max_connections: int,
        header_timeout_s: float,
        provisional: int = _RESERVE_MIN // 2,
        metrics: Metrics | None = None,
    ) -> None:
        self._handler_factory = handler_factory
        self.max_connections = max_connections
        self._header_timeout_s = header_timeout_s
        self._max_provisional = provisional
        self._metrics = metrics
        # Insertion-ordered: the first entry is the oldest connection.
        self._open: dict[GuardedProtocol, None] = {}
        self._awaiting_headers: dict[GuardedProtocol, None] = {}
        self._provisional: dict[GuardedProtocol, None] = {}
        self._logged_at: dict[str, float] = {}
        self._unlogged: dict[str, int] = {}
        if metrics is not None:
            metrics.watch_connections(lambda: self.open_connections)

    @property
    def open_connections(self) -> int:
        """Client connections open now."""
        return len(self._open) + len(self._provisional)

    @property
    def header_timeout_s(self) -> float:
        """How long a new connection has to send its headers."""
        return self._header_timeout_s

    def protocol(self) -> asyncio.Protocol:
        """The protocol factory to give `loop.create_server`."""
        return GuardedProtocol(self)

    def admit(self, conn: GuardedProtocol) -> float | None:
        """Admit a new connection: the seconds it has to send its headers (a short time when
        admitted provisionally, at the cap), or None when refused."""
        if len(self._open) < self.max_connections:
            self._open[conn] = None
            self._awaiting_headers[conn] = None
            return self._header_timeout_s
        if len(self._provisional) < self._max_provisional:
            self._provisional[conn] = None
            return min(_PROVISIONAL_S, self._header_timeout_s)
        self.limit_hit("refused")
        return None

    def is_provisional(self, conn: GuardedProtocol) -> bool:
        """Whether the connection was admitted at the cap and has yet to prove itself."""
        return conn in self._provisional

    def headers_complete(self, conn: GuardedProtocol) -> None:
        """The connection sent its first request's headers: no longer evictable; a provisional
        one takes the place of the oldest connection still sending headers."""
        if conn in self._provisional:
            del self._provisional[conn]
            oldest = next(iter(self._awaiting_headers), None)
            if oldest is not None:
                self.forget(oldest)
                oldest.close_with(
                    _response("408 Request Timeout", "REQUEST_TIMEOUT", _EVICTED), "evicted"
                )
            self._open[conn] = None
        self._awaiting_headers.pop(conn, None)

    def forget(self, conn: GuardedProtocol) -> None:
        """The connection is closed."""
        self._open.pop(conn, None)
        self._awaiting_headers.pop(conn, None)
        self._provisional.pop(conn, None)

    def handler(self) -> asyncio.Protocol:
        """aiohttp's protocol for an admitted connection."""
        return self._handler_factory()

    def limit_hit(self, reason: str) -> None:
        """Count a limit hit; log it unless it was logged moments ago."""
        if self._metrics is not None:
            self._metrics.count_connection_closed(reason)
        now = time.monotonic()
        self._unlogged[reason] = self._unlogged.get(reason, 0) + 1
        if now - self._logged_at.get(reason, -_LOG_EVERY_S) >= _LOG_EVERY_S:
            log.warning(
                "http.connection_limit",
                reason=reason,
                count=self._unlogged.pop(reason),
                open_connections=self.open_connections,
                max_connections=self.max_connections,
                header_timeout_s=self._header_timeout_s,
            )
            self._logged_at[reason] = now


_EVICTED = "too many connections: this one was still sending its headers; retry"
_LATE = "the request headers did not arrive in time"
_FULL = "too many connections; retry shortly"


class GuardedProtocol(asyncio.Protocol):
    """Wraps aiohttp's protocol for one connection: watches for the end of the first request's
    headers, and passes everything through."""

    __slots__ = ("_guard", "_inner", "_tail", "_timer", "_transport")

    def __init__(self, guard: ConnectionGuard) -> None:
        self._guard = guard
        self._inner: asyncio.Protocol | None = None
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._tail = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Admit the connection (or refuse it at the cap) and start the header clock."""
        # A TCP transport (uvloop's is not a subclass of asyncio.Transport, but behaves as one).
        self._transport = cast(asyncio.Transport, transport)
        allowed_s = self._guard.admit(self)
        if allowed_s is None:
            self._transport.write(_response("503 Service Unavailable", "OVERLOADED", _FULL))
            self._transport.close()
            return
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(allowed_s, self._headers_late)
        self._inner = self._guard.handler()
        self._inner.connection_made(self._transport)

    def data_received(self, data: bytes) -> None:
        """Pass the bytes on; stop the header clock at the first blank line."""
        if self._timer is not None:
            seen = self._tail + data
            if b"\r\n\r\n" in seen or b"\n\n" in seen:
                self._timer.cancel()
                self._timer = None
                self._tail = b""
                self._guard.headers_complete(self)
            elif self._guard.is_provisional(self):
                # At the cap, a newcomer's first packet must hold its whole headers.
                self._refuse()
                return
            else:
                self._tail = seen[-3:]
        if self._inner is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        """Pass the end of the client's stream on."""
        return self._inner.eof_received() if self._inner is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection and tell aiohttp."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._guard.forget(self)
        if self._inner is not None:
            self._inner.connection_lost(exc)

    def pause_writing(self) -> None:
        """Flow control, passed on."""
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        """Flow control, passed on."""
        if self._inner is not None:
            self._inner.resume_writing()

    def close_with(self, response: bytes, reason: str) -> None:
        """Answer `response` and close (a limit was hit on this connection)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._guard.limit_hit(reason)
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(response)
            self._transport.close()

    def _refuse(self) -> None:
        self._guard.forget(self)
        self.close_with(_response("503 Service Unavailable", "OVERLOADED", _FULL), "refused")

    def _headers_late(self) -> None:
        self._timer = None
        if self._guard.is_provisional(self):
            self._refuse()
            return
        self._guard.forget(self)
        late = _response("408 Request Timeout", "REQUEST_TIMEOUT", _LATE)
        self.close_with(late, "header_timeout")
