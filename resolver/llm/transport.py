"""The HTTP transport under the openai SDK: aiohttp, with every response body bounded.

The SDK takes a transport through its public `http_client=httpx2.AsyncClient(transport=…)`.
This one reads each response, 2xx or not, compressed or not, to at most `max_bytes` *after*
decompression and no further: it inflates gzip/deflate itself, one bounded step at a time,
and drops the connection at the limit (issue 12.1: a 200 MB error body, or a 1 MB gzip that
inflates to 1 GiB, used to be read whole). It also says what a failed connection was: a
host that does not resolve is a DNS failure, not "connection refused".

Failures reach the SDK as httpx2's transport errors (the SDK turns them into
`APIConnectionError` / `APITimeoutError`); a body over the limit or one that does not decode
raises `ResponseTooLarge` / `UndecodableResponse`, which the SDK passes through untouched.
"""

from __future__ import annotations

import errno
import os
import zlib
from collections.abc import Mapping

import aiohttp
import httpx2

# Only what zlib inflates here; brotli/zstd bodies could not be bounded the same way.
_ACCEPT_ENCODING = "gzip, deflate"
# What the SDK and the client read of a response: the body's type, Retry-After (seconds or
# ms), the request id, and the gateways' rate-limit headers. The body is handed over decoded
# and whole, so its encoding and length headers no longer describe it.
_KEPT_HEADERS = frozenset({b"content-type", b"retry-after", b"retry-after-ms", b"x-request-id"})


def _kept_header(name: bytes) -> bool:
    lowered = name.lower()
    return lowered in _KEPT_HEADERS or lowered.startswith(b"x-ratelimit-")


_RESET_HEADERS = frozenset({b"accept-encoding", b"host", b"content-length", b"transfer-encoding"})


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


class BoundedAiohttpTransport(httpx2.AsyncBaseTransport):
    """An httpx2 transport over one aiohttp session whose response bodies are bounded."""

    def __init__(self, *, max_bytes: int, max_connections: int = 100) -> None:
        self._max_bytes = max_bytes
        self._max_connections = max_connections
        self._session: aiohttp.ClientSession | None = None

    def _open(self) -> aiohttp.ClientSession:
        # Created on first use: a session belongs to the running loop.
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._max_connections),
                auto_decompress=False,
            )
        return self._session

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send the request; answer with the whole (bounded, decoded) body already read."""
        session = self._open()
        timeout = request.extensions.get("timeout", {})
        # From the raw pairs: httpx2's decoded view guesses an encoding per header (36 guesses
        # per call, ~18 µs). aiohttp sets Host and Content-Length itself.
        headers = {
            k.decode("latin-1"): v.decode("latin-1")
            for k, v in request.headers.raw
            if k.lower() not in _RESET_HEADERS
        }
        headers["Accept-Encoding"] = _ACCEPT_ENCODING
        try:
            response = await session.request(
                request.method,
                str(request.url),
                headers=headers,
                data=request.content or None,
                allow_redirects=False,
                timeout=aiohttp.ClientTimeout(
                    sock_connect=timeout.get("connect"), sock_read=timeout.get("read")
                ),
            )
        except aiohttp.ClientConnectorDNSError as exc:
            host = request.url.host
            raise httpx2.ConnectError(
                f"DNS lookup failed: the LLM host {host!r} does not resolve", request=request
            ) from exc
        except aiohttp.ClientConnectorError as exc:
            code = exc.os_error.errno
            reason = "connection refused" if code == errno.ECONNREFUSED else "cannot connect"
            detail = os.strerror(code) if code else type(exc.os_error).__name__
            raise httpx2.ConnectError(
                f"{reason} by {exc.host}:{exc.port} ({detail})", request=request
            ) from exc
        except TimeoutError as exc:
            raise httpx2.ConnectTimeout("the connection timed out", request=request) from exc
        except aiohttp.ClientError as exc:
            raise httpx2.ReadError(
                f"the request failed ({type(exc).__name__})", request=request
            ) from exc
        try:
            body = await self._read(response)
        except (ResponseTooLarge, UndecodableResponse):
            response.close()  # the rest is never read: the connection cannot be reused
            raise
        except TimeoutError as exc:
            response.close()
            raise httpx2.ReadTimeout("the answer stalled mid-body", request=request) from exc
        except aiohttp.ClientError as exc:
            response.close()
            raise httpx2.ReadError(
                f"the answer broke off ({type(exc).__name__})", request=request
            ) from exc
        finally:
            response.release()
        # Only what the SDK and the client read: every header handed to httpx2 is decoded
        # again on each look-up (the SDK looks up a few per call).
        kept = [(k, v) for k, v in response.raw_headers if _kept_header(k)]
        return httpx2.Response(
            status_code=response.status, headers=kept, content=body, request=request
        )

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
