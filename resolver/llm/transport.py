"""The HTTP transport of the LLM calls: one aiohttp session, every response body bounded.

`BoundedTransport.post` sends one request and reads its answer, 2xx or not, compressed or
not, to at most `max_bytes` *after* decompression and no further: it inflates gzip/deflate
itself, one bounded step at a time, and drops the connection at the limit (issue 12.1: a
200 MB error body, or a 1 MB gzip that inflates to 1 GiB, used to be read whole). It also
says what a failed connection was: a host that does not resolve is a DNS failure, not
"connection refused".

It takes the request as the SDK shapes it (URL and headers, `endpoint.py`) and answers with
the status, the headers and the whole body: no per-call request or response objects (httpx2's
cost ~330 µs of CPU per call: docs/llm.md). Failures are `TransportFailed` (`timed_out` when the
connection or the body stalled), `ResponseTooLarge` and `UndecodableResponse`.
"""

from __future__ import annotations

import errno
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

import aiohttp
from multidict import CIMultiDictProxy

# Only what zlib inflates here; brotli/zstd bodies could not be bounded the same way.
_ACCEPT_ENCODING = "gzip, deflate"


class TransportFailed(Exception):
    """The request could not be sent or its answer broke off (`timed_out`: it stalled)."""

    def __init__(self, message: str, *, timed_out: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.timed_out = timed_out


class ResponseTooLarge(Exception):
    """The body exceeded the limit; the connection was dropped without reading the rest."""

    def __init__(self, status: int, headers: Mapping[str, str], limit: int) -> None:
        super().__init__(f"HTTP {status} body exceeds {limit} bytes")
        self.status = status
        self.headers = dict(headers)
        self.limit = limit


class UndecodableResponse(Exception):
    """The body does not decode as its Content-Encoding says (or uses one we do not accept)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Answer:
    """A response read whole: its status, its headers and its (bounded, decoded) body."""

    status: int
    headers: CIMultiDictProxy[str]
    body: bytes


class BoundedTransport:
    """One aiohttp session whose response bodies are bounded."""

    def __init__(self, *, max_bytes: int, timeout_s: float, max_connections: int = 100) -> None:
        self._max_bytes = max_bytes
        self._max_connections = max_connections
        # Per connect and per read; the caller bounds the whole attempt (`endpoint.py`).
        # Not aiohttp's `total`: its timer converts a cancellation from outside that lands in
        # the same tick (the request's deadline) into its own TimeoutError.
        self._timeout = aiohttp.ClientTimeout(sock_connect=timeout_s, sock_read=timeout_s)
        self._session: aiohttp.ClientSession | None = None

    def _open(self) -> aiohttp.ClientSession:
        # Created on first use: a session belongs to the running loop.
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._max_connections),
                headers={"Accept-Encoding": _ACCEPT_ENCODING},
                auto_decompress=False,
            )
        return self._session

    async def post(self, url: str, headers: Mapping[str, str], body: bytes) -> Answer:
        """POST `body`; answer with the whole (bounded, decoded) body already read."""
        session = self._open()
        try:
            response = await session.post(
                url, headers=headers, data=body, allow_redirects=False, timeout=self._timeout
            )
        except aiohttp.ClientConnectorDNSError as exc:
            host = exc.host
            raise TransportFailed(
                f"DNS lookup failed: the LLM host {host!r} does not resolve"
            ) from exc
        except aiohttp.ClientConnectorError as exc:
            code = exc.os_error.errno
            reason = "connection refused" if code == errno.ECONNREFUSED else "cannot connect"
            detail = os.strerror(code) if code else type(exc.os_error).__name__
            raise TransportFailed(f"{reason} by {exc.host}:{exc.port} ({detail})") from exc
        except TimeoutError as exc:
            raise TransportFailed("the connection timed out", timed_out=True) from exc
        except aiohttp.ClientError as exc:
            raise TransportFailed(f"the request failed ({type(exc).__name__})") from exc
        try:
            content = await self._read(response)
        except (ResponseTooLarge, UndecodableResponse):
            response.close()  # the rest is never read: the connection cannot be reused
            raise
        except TimeoutError as exc:
            response.close()
            raise TransportFailed("the answer stalled mid-body", timed_out=True) from exc
        except aiohttp.ClientError as exc:
            response.close()
            raise TransportFailed(f"the answer broke off ({type(exc).__name__})") from exc
        finally:
            response.release()
        return Answer(response.status, response.headers, content)

    async def _read(self, response: aiohttp.ClientResponse) -> bytes:
        limit = self._max_bytes
        encoding = response.headers.get("Content-Encoding", "").strip().lower()
        inflater = _inflater(encoding, response.status)
        parts: list[bytes] = []
        size = 0
        async for chunk in response.content.iter_any():
            if inflater is None:
                pieces = [chunk]
            else:
                pieces = _inflate(inflater, chunk, limit - size + 1, response.status)
            for piece in pieces:
                size += len(piece)
                if size > limit:
                    raise ResponseTooLarge(response.status, response.headers, limit)
                parts.append(piece)
        if inflater is not None:
            try:
                parts.append(inflater.flush())
            except zlib.error as exc:
                raise UndecodableResponse(response.status, "the body is cut short") from exc
        return b"".join(parts)

    async def aclose(self) -> None:
        """Close the connection pool."""
        if self._session is not None:
            await self._session.close()


def _inflater(encoding: str, status: int) -> zlib._Decompress | None:
    if encoding in ("", "identity"):
        return None
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return zlib.decompressobj(32 + zlib.MAX_WBITS)  # zlib or gzip header, detected
    raise UndecodableResponse(status, f"unsupported Content-Encoding {encoding[:40]!r}")


def _inflate(inflater: zlib._Decompress, chunk: bytes, room: int, status: int) -> list[bytes]:
    """Inflate `chunk` in steps of at most `room` bytes of output; stop once over the room
    (the caller raises), so a bomb costs no more than the limit in memory or CPU."""
    out: list[bytes] = []
    produced = 0
    data = chunk
    try:
        while data:
            piece = inflater.decompress(data, max(1, room - produced))
            out.append(piece)
            produced += len(piece)
            if produced >= room:
                break
            data = inflater.unconsumed_tail
    except zlib.error as exc:
        raise UndecodableResponse(status, "the body does not decode as its encoding says") from exc
    return out
