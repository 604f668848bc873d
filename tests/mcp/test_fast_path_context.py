"""The fast path runs a call in the HTTP request's own task, where the request edge has
bound the trace id; where it is not bound (the endpoint driven from elsewhere), the call binds
it as the SDK path does, so the call's lines still carry it."""

from __future__ import annotations

from typing import Any

import orjson
import structlog
from aiohttp.test_utils import TestClient
from structlog.testing import capture_logs

from resolver.mcp.exchange import CallContext, Exchange
from resolver.mcp.server import bound_trace_id
from resolver.upstreams.caller import CallerHeaders
from resolver.web.servicekeys import MCP_SERVER_KEY
from tests.helpers import ClientFactory

TRACE = "0af7651916cd43dd8448eb211c80319c"


async def test_a_call_off_the_request_task_binds_its_trace_id(make_client: ClientFactory) -> None:
    client: TestClient[Any, Any] = await make_client(llm=False)
    server = client.app[MCP_SERVER_KEY]
    arguments = {"text": "上周", "now_ms": 1_762_996_342_241}
    message = {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "resolve_time_window", "arguments": arguments},
    }
    exchange = Exchange(
        method="POST",
        path="/mcp",
        query_string=b"",
        raw_headers=((b"content-type", b"application/json"),),
        body=orjson.dumps(message),
        context=CallContext(
            trace_id=TRACE, caller=CallerHeaders(trace_id=TRACE), kn_id=None, public_url=str
        ),
    )
    structlog.contextvars.clear_contextvars()
    with capture_logs(processors=[structlog.contextvars.merge_contextvars]) as logged:
        answer = await server.answer(exchange)
    assert answer.status == 200
    assert orjson.loads(answer.body)["result"]["structuredContent"]["trace_id"] == TRACE
    [call] = [line for line in logged if line["event"] == "mcp.tool_call"]
    assert call["trace_id"] == TRACE
    assert "trace_id" not in structlog.contextvars.get_contextvars()  # unbound after the call


def test_the_bound_trace_id_is_the_one_structlog_binds() -> None:
    structlog.contextvars.clear_contextvars()
    assert bound_trace_id() is None
    structlog.contextvars.bind_contextvars(trace_id=TRACE)
    assert bound_trace_id() == TRACE
    structlog.contextvars.unbind_contextvars("trace_id")
    assert bound_trace_id() is None
