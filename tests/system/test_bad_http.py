"""HTTP the parser refuses is answered in the SPEC's error shape (issue 21, item 14): a trace id,
no echo of what was sent, no `Server` version; against a real `resolver serve`."""

from __future__ import annotations

import asyncio

import aiohttp
import orjson
import pytest

from resolver.testing.fake_llm import FakeLLM
from tests.helpers import assert_error_shape, serve

pytestmark = pytest.mark.slow

MARK = b"ECHOMARK"


async def _raw(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of the answer; its status line must say HTTP/1.1."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)  # the service closes the connection
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    # Once "HTTP/1.0": aiohttp stands an unparsable request in as an HTTP/1.0 one.
    assert lines[0].startswith("HTTP/1.1 "), lines[0]
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split(" ")[1]), {k.lower(): v for k, v in headers.items()}, body


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        (b"GET /" + MARK * 2000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "URI_TOO_LONG"),
        (
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + MARK * 2000 + b"\r\n\r\n",
            431,
            "HEADERS_TOO_LARGE",
        ),
        (b"GET /healthz HTTP/1.1\r\nBad Header" + MARK + b"\r\n\r\n", 400, "BAD_HTTP_REQUEST"),
    ],
    ids=["long-url", "long-header", "malformed-header"],
)
async def test_unparsable_http_gets_the_error_shape(
    fake: FakeLLM, request_bytes: bytes, status: int, code: str
) -> None:
    async with serve(fake) as service:
        got, headers, body = await _raw(service.port, request_bytes)
    assert got == status, body[:300]
    assert headers["content-type"].startswith("application/json")
    answer = orjson.loads(body)
    assert_error_shape(answer, code)
    assert headers["x-trace-id"] == answer["trace_id"]
    assert MARK not in body  # the old code's plain text repeated the input
    assert headers["server"] == "resolver"


async def test_no_answer_names_the_server_version(fake: FakeLLM) -> None:
    async with serve(fake) as service, aiohttp.ClientSession() as session:
        async with session.get(service.url + "/healthz") as response:
            server = response.headers["Server"]
        async with session.get(service.url + "/nowhere") as response:
            missing = response.headers["Server"]
    assert server == missing == "resolver"
