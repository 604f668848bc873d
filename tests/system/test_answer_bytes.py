"""The answers of the web layer, byte for byte (issue 33 rewrote the middleware, the browser
guard, the response hook and the hot handler's answer): status line, every header in its
order, body; the date and generated trace ids masked. Against a real `resolver serve`, whose
protocol and hooks are the production ones."""

from __future__ import annotations

import asyncio
import re

import pytest

from resolver.testing.fake_llm import FakeLLM
from tests.helpers import serve

pytestmark = pytest.mark.slow

_BODY = (
    '{"logic_properties":[{"name":"approved_drug_count","type":"metric","parameters":['
    '{"name":"instant","value_from":"input","if_system_generate":true},'
    '{"name":"start","value_from":"input","if_system_generate":true},'
    '{"name":"end","value_from":"input","if_system_generate":true},'
    '{"name":"step","value_from":"input","if_system_generate":true},'
    '{"name":"company_id","value_from":"property"}]}],"query":"当前获批药品数量",'
    '"unique_identities":[{"company_id":"company_000001"}],"now_ms":1762996342241,'
    '"timezone":"Asia/Shanghai"}'
).encode()
_TRACE = "T" * 32
_RULES_ANSWER = '{"dynamic_params":{"approved_drug_count":{"instant":true}},"trace_id":"%s"}'


def _post(
    path: bytes = b"/v1/dynamic-params",
    body: bytes = _BODY,
    extra: bytes = b"",
    content_type: bytes = b"Content-Type: application/json\r\n",
    version: bytes = b"1.1",
) -> bytes:
    return (
        b"POST "
        + path
        + b" HTTP/"
        + version
        + b"\r\nHost: localhost\r\n"
        + content_type
        + extra
        + b"Content-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )


def _head(status: str, *headers: str, version: str = "1.1") -> str:
    return "\r\n".join([f"HTTP/{version} {status}", *headers]) + "\r\n\r\n"


_JSON_TRACED = ("Content-Type: application/json", f"x-trace-id: {_TRACE}")
_BUSINESS = (*_JSON_TRACED, "X-OpenBKN-Trace-Recorded: false")


def _error(code: str, message: str, details: str = "null") -> str:
    return (
        f'{{"_error":"{message}","error":{{"code":"{code}","message":"{message}",'
        f'"details":{details}}},"trace_id":"{_TRACE}"}}'
    )


def _answer(
    status: str, headers: tuple[str, ...], body: str, *after: str, version: str = "1.1"
) -> str:
    # `Server` (and `Connection: close`) are set by `bodies.finish` as the answer leaves the
    # edge, before aiohttp adds `Content-Length` and `Date` when it writes the head (the order
    # of different fields means nothing in HTTP: RFC 9110 §5.3).
    length = len(body.encode())
    return (
        _head(
            status,
            *headers,
            "Server: resolver",
            *after,
            f"Content-Length: {length}",
            "Date: X",
            version=version,
        )
        + body
    )


_NOT_SUPPORTED = "response_format 'xml' is not supported (allowed: json, toon)"
_NOT_JSON = "send the body with Content-Type: application/json, not 'text/plain'"
_FOREIGN = (
    "requests from the web page at 'http://evil.example' are not served here; an operator "
    "may allow an origin with RESOLVER_ALLOWED_ORIGINS"
)
_TOO_LARGE = "the body is 200000 bytes; the limit is 100000"

CASES: dict[str, tuple[bytes, str]] = {
    "rules": (_post(), _answer("200 OK", _BUSINESS, _RULES_ANSWER % _TRACE)),
    "given-trace-id": (
        _post(extra=b"x-trace-id: abc-123\r\n"),
        _answer(
            "200 OK",
            ("Content-Type: application/json", "x-trace-id: abc-123", _BUSINESS[2]),
            _RULES_ANSWER % "abc-123",
        ),
    ),
    "http-1.0": (
        _post(version=b"1.0"),
        _answer("200 OK", _BUSINESS, _RULES_ANSWER % _TRACE, version="1.0"),
    ),
    "bad-format": (
        _post(b"/v1/dynamic-params?response_format=xml"),
        _answer(
            "400 Bad Request",
            _BUSINESS,
            _error("BAD_REQUEST", _NOT_SUPPORTED, '{"supported":["json","toon"]}'),
        ),
    ),
    "not-found": (
        b"GET /nope HTTP/1.1\r\nHost: localhost\r\n\r\n",
        _answer("404 Not Found", _JSON_TRACED, _error("NOT_FOUND", "Not Found: GET /nope")),
    ),
    "not-allowed": (
        b"GET /v1/dynamic-params HTTP/1.1\r\nHost: localhost\r\n\r\n",
        _answer(
            "405 Method Not Allowed",
            _JSON_TRACED,
            _error("METHOD_NOT_ALLOWED", "Method Not Allowed: GET /v1/dynamic-params"),
        ),
    ),
    "foreign-origin": (
        _post(extra=b"Origin: http://evil.example\r\n"),
        _answer(
            "403 Forbidden",
            _BUSINESS,
            _error(
                "FORBIDDEN",
                _FOREIGN,
                '{"origin":"http://evil.example","settings":["RESOLVER_ALLOWED_ORIGINS"]}',
            ),
        ),
    ),
    "not-json": (
        _post(content_type=b"Content-Type: text/plain\r\n"),
        _answer(
            "415 Unsupported Media Type", _BUSINESS, _error("UNSUPPORTED_MEDIA_TYPE", _NOT_JSON)
        ),
    ),
    # Refused unread: the connection closes (`Connection: close` after `Server`).
    "too-large": (
        (
            b"POST /v1/dynamic-params HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
            b"\r\nContent-Length: 200000\r\n\r\n{"
        ),
        _answer(
            "413 Request Entity Too Large",
            _BUSINESS,
            _error("PAYLOAD_TOO_LARGE", _TOO_LARGE),
            "Connection: close",
        ),
    ),
    # The interim answer first (by `middleware.expectation`, as aiohttp's own handler writes
    # it), then the route's.
    "expect-continue": (
        _post(extra=b"Expect: 100-continue\r\n"),
        "HTTP/1.1 100 Continue\r\n\r\n" + _answer("200 OK", _BUSINESS, _RULES_ANSWER % _TRACE),
    ),
    # aiohttp's own answer, made before the edge (by `middleware.expectation`): it still names
    # the server and closes the connection whose body was never read.
    "unknown-expect": (
        (
            b"POST /v1/dynamic-params HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
            b"\r\nExpect: foo\r\nContent-Length: 10\r\n\r\n"
        ),
        _answer(
            "417 Expectation Failed",
            ("Content-Type: text/plain; charset=utf-8",),
            "Unknown Expect: foo",
            "Connection: close",
        ),
    ),
}


async def _exchange(port: int, request: bytes) -> str:
    """The answer's bytes (one answer: the connection is read until it goes quiet)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    data = b""
    try:
        while chunk := await asyncio.wait_for(reader.read(65536), 0.5):
            data += chunk
    except TimeoutError:
        pass
    writer.close()
    text = data.decode()
    text = re.sub(r"Date: [^\r]*", "Date: X", text)
    return re.sub(r"\b[0-9a-f]{32}\b", _TRACE, text)


async def test_each_answer_is_the_same_bytes(fake: FakeLLM) -> None:
    async with serve(fake, RESOLVER_MAX_BODY_BYTES="100000") as service:
        got = {name: await _exchange(service.port, request) for name, (request, _) in CASES.items()}
    assert got == {name: answer for name, (_, answer) in CASES.items()}
