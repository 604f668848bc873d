"""Reading an upstream's answer: at most so many bytes (counted after decompression), the
one-line message and code of an error body (never the body verbatim), where a redirect
pointed. `client.py` translates what these find into the caller's errors."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import aiohttp
from yarl import URL

from resolver.core.jsonio import loads

_MAX_MESSAGE = 300
# Where services of this platform put the human-readable part of an error body.
_MESSAGE_KEYS = ("description", "message", "error_message", "_error", "detail", "error")
_CODE_KEYS = ("code", "error_code", "errcode")
_SPACES = re.compile(r"\s+")


class TooLarge(Exception):
    """An answer beyond its size limit (counted after decompression)."""


class Redirected(Exception):
    """A 3xx answer: where it pointed (no query: it may hold a token)."""

    def __init__(self, status: int, target: str) -> None:
        super().__init__(status, target)
        self.status = status
        self.target = target


def where(location: str | None) -> str:
    """A redirect's target as a log line and an `_error` may show it: scheme, host, the port
    it names, path (no query, no credentials)."""
    if not location:
        return "nowhere (no Location)"
    try:
        target = URL(location.strip())
        port = target.explicit_port
    except ValueError:
        return "an unreadable Location"
    authority = f"{target.raw_host}:{port}" if port is not None else target.raw_host
    shown = f"{target.scheme}://{authority}{target.raw_path}" if target.host else target.raw_path
    shown = _SPACES.sub("", shown)[:200]
    return repr(shown)


async def read_capped(
    response: aiohttp.ClientResponse, limit: int, *, strict: bool = True
) -> bytearray:
    """At most `limit` bytes of the body, decompressed; reading stops there.

    `strict`: more is `TooLarge`; otherwise more is read as an empty body (an error
    answer whose message is not worth a bigger read). One growing buffer, not chunks
    joined at the end: a 30 MiB answer never costs twice its size.
    """
    declared = response.content_length
    if declared is not None and declared > limit and "Content-Encoding" not in response.headers:
        if strict:
            raise TooLarge(f"answer of {declared} bytes")
        return bytearray()
    body = bytearray()
    async for chunk in response.content.iter_chunked(1 << 16):
        if len(body) + len(chunk) > limit:
            if strict:
                raise TooLarge("answer too large")
            return bytearray()
        body += chunk
        # A compressed answer inflates as it is read, without waiting for the network: let
        # other requests run between chunks (12 inflating answers once stalled /healthz 0.5 s).
        await asyncio.sleep(0)
    return body


def error_summary(raw: bytes | bytearray) -> tuple[str | None, str | None]:
    """The upstream's own one-line message and code, never its body verbatim."""
    try:
        body = loads(raw)
    except ValueError:
        return None, None
    if not isinstance(body, dict):
        return None, None
    message = next((m for m in map(_text_of, (body.get(k) for k in _MESSAGE_KEYS)) if m), None)
    code = next((str(body[k]) for k in _CODE_KEYS if isinstance(body.get(k), str | int)), None)
    if message is not None:
        message = _SPACES.sub(" ", message).strip()[:_MAX_MESSAGE]
    return message or None, code[:_MAX_MESSAGE] if code else None


def _text_of(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        inner = value.get("message") or value.get("description")
        return inner if isinstance(inner, str) else None
    return None


def unreadable_json(exc: ValueError) -> str:
    """What an answer that `loads` refused is: JSON nested deeper than the parser goes (about
    200 levels) is JSON all the same, said so rather than "not JSON" (issue 30)."""
    if "recursion limit" in str(exc):
        return "JSON nested too deeply to read (more than 200 levels)"
    return "a body that is not JSON"
