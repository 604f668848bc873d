"""The fast path of the MCP endpoint (issue 24, `resolver/mcp/fast_path.py`) answers what the
SDK answers. Two services share the fake upstreams: one with the fast path on, one with it off
(`RESOLVER_MCP_FAST_PATH=false`: the SDK's own transport, dispatcher and server runner); each
request goes to both over a real socket, and the two HTTP answers must be the same — status,
headers (but `Date`) and body bytes, with only the trace ids of requests that carry none and
the span ids of `get_action_info`'s forwarded `traceparent` normalised.

The requests are generated (hypothesis): JSON-RPC bodies grown from a valid call of every tool
and every error class — kept, mutated (a member dropped, changed to any JSON, added), or not
a call at all (other methods, notifications, batches, odd ids, extra members, `_meta`, broken
JSON) — under every handshake protocol revision (and unknown ones, and none), every `Accept`
and `Content-Type` a client sends, with and without a foreign `Origin`. Hand-written beside it:
the error classes random bodies cannot reach (upstream and LLM failures, the LLM budget, the
deadline), which way the header checks go, and the real clients (the `mcp` SDK's, KWeaver's).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from resolver.core.settings import Settings
from resolver.mcp.fast_path import fast_call
from resolver.testing.demo import demo_upstreams_app
from resolver.testing.fake_llm import FakeLLM, Reply
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_TOOL_AT,
    Fault,
    add_demo_actions,
)
from resolver.web.app import create_app
from resolver.web.servicekeys import MCP_SERVER_KEY
from tests.helpers import (
    NOW_MS,
    ClientFactory,
    KnFakes,
    metric,
    operator,
    request_body,
)
from tests.mcp_checks import (
    ACCEPT,
    SEEDS,
    TOOL_NAMES,
    bodies,
    kweaver,
    sdk_client,
    values_arguments,
)

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
HEADERS = {
    "Accept": ACCEPT,
    "Content-Type": "application/json",
    "MCP-Protocol-Version": "2025-06-18",
    "Mcp-Session-Id": "0123456789abcdef0123456789abcdef",
    "X-Kn-ID": DEMO_KN,
    "traceparent": f"00-{TRACE_ID}-00f067aa0ba902b7-01",
}
# A span id in a traceparent the service forwards (get_action_info's `headers`).
_SPAN = re.compile(rb"(00-[0-9a-f]{32}-)[0-9a-f]{16}(-[0-9a-f]{2})")
# The trace id of a forwarded traceparent the service drew itself.
_FORWARDED = re.compile(rb"00-[0-9a-f]{32}-(?=[0-9a-f]{16}-[0-9a-f]{2})")
# A trace id the service drew (a request with no traceparent), in the body or its JSON text.
_TRACE = re.compile(rb'(\\?"trace_id\\?":\s*\\?"|trace_id: ?)[0-9a-f]{32}')  # JSON or TOON
SALES = metric("sales", ("region", "STRING"))
LAST_WEEK = {"text": "上周", "now_ms": NOW_MS}


@dataclass(frozen=True, slots=True)
class Wire:
    """One HTTP answer as the client read it."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        """The body as JSON (integers exact)."""
        return json.loads(self.body)


@dataclass(frozen=True, slots=True)
class Pair:
    """The same service twice: the fast path on, and off (the SDK's answer)."""

    fast: TestClient[Any, Any]
    sdk: TestClient[Any, Any]


@pytest.fixture
async def service(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> Pair:
    """Both services, rules-only, wired to the same fake upstreams with the demo actions."""
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    url = "https://resolver.example.com"
    fast = await make_kn_client(llm=False, public_url=url)
    sdk = await make_kn_client(llm=False, public_url=url, mcp_fast_path=False)
    return Pair(fast, sdk)


def message(name: Any, arguments: Any = None, request_id: Any = 7, **params: Any) -> dict[str, Any]:
    """A `tools/call` request (`arguments` None: none sent)."""
    sent: dict[str, Any] = {"name": name, **params}
    if arguments is not None:
        sent["arguments"] = arguments
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": sent}


async def post(client: TestClient[Any, Any], body: bytes, headers: dict[str, str]) -> Wire:
    response = await client.post(
        "/mcp", data=body, headers=headers, skip_auto_headers=["Accept", "Content-Type"]
    )
    answer = await response.read()
    shown = {name.lower(): value for name, value in response.headers.items()}
    shown.pop("date", None)
    if "traceparent" not in {name.lower() for name in headers}:
        shown.pop("x-trace-id", None)
        answer = _TRACE.sub(rb"\g<1>" + b"0" * 32, answer)
        answer = _FORWARDED.sub(rb"00-" + b"0" * 32 + b"-", answer)
    return Wire(response.status, shown, _SPAN.sub(rb"\g<1>0000000000000000\g<2>", answer))


async def fast_posts(client: TestClient[Any, Any]) -> int:
    """How many MCP POSTs the fast path answered (`resolver_mcp_posts_total{path="fast"}`)."""
    text = await (await client.get("/metrics")).text()
    found = re.search(r'^resolver_mcp_posts_total\{path="fast"\} ([0-9.e+]+)$', text, re.M)
    return int(float(found[1])) if found else 0


async def both_paths(
    pair: Pair, sent: Any, headers: Mapping[str, str | None] | None = None
) -> tuple[Wire, Wire, bool]:
    """The answer with the fast path on, the SDK's answer, and whether the first was fast."""
    merged = {**HEADERS, **(headers or {})}
    present = {name: value for name, value in merged.items() if value is not None}
    body = json.dumps(sent, ensure_ascii=False).encode()
    before = await fast_posts(pair.fast)
    fast = await post(pair.fast, body, present)
    took = await fast_posts(pair.fast) > before
    sdk = await post(pair.sdk, body, present)
    return fast, sdk, took


async def assert_conformant(
    pair: Pair,
    sent: Any,
    headers: Mapping[str, str | None] | None = None,
    *,
    fast: bool = True,
) -> Any:
    """Both paths answer the same; the fast one was (or was not) taken; the JSON answer."""
    fast_answer, sdk_answer, took = await both_paths(pair, sent, headers)
    assert took is fast
    assert fast_answer.status == sdk_answer.status
    assert fast_answer.headers == sdk_answer.headers
    assert fast_answer.body == sdk_answer.body
    if not fast_answer.body:
        return None
    return fast_answer.json()


def tool_result(answer: Any) -> dict[str, Any]:
    """The `CallToolResult` of a JSON-RPC answer."""
    assert "result" in answer, answer
    result: dict[str, Any] = answer["result"]
    return result


def tool_error(answer: Any) -> dict[str, Any]:
    """The HTTP error body a tool error carries."""
    result = tool_result(answer)
    assert result["isError"] is True
    body: dict[str, Any] = json.loads(result["content"][0]["text"])
    assert result["structuredContent"] == body
    return body


# --- the generated requests (the bodies: tests/mcp_checks.py) ---------------------------------

VERSIONS = [*sorted(HANDSHAKE_PROTOCOL_VERSIONS), None, "2026-07-28", "1999-01-01"]
REQUEST_HEADERS = st.fixed_dictionaries(
    {
        "MCP-Protocol-Version": st.sampled_from(VERSIONS),
        "Accept": st.sampled_from(
            [ACCEPT] * 4
            + [None, "*/*", "application/json", "application/*", "text/event-stream"]
            + ["application/json;q=0.9, text/html", "text/html"]
        ),
        "Content-Type": st.sampled_from(
            ["application/json"] * 6
            + ["application/json; charset=utf-8", "Application/JSON", "text/plain", None]
        ),
        "Origin": st.sampled_from([None] * 10 + ["https://evil.example"]),
        "Accept-Language": st.sampled_from([None, None, "zh-CN", "en-US"]),
        "traceparent": st.sampled_from([HEADERS["traceparent"]] * 3 + [None]),
    }
)


@st.composite
def requests(draw: st.DrawFn) -> tuple[Any, dict[str, str | None]]:
    """A body and its headers; one in three a seed's plain call under a client's usual
    headers (at any handshake revision), so that the fast path is well exercised."""
    if draw(st.integers(0, 2)) == 0:
        tool, arguments = draw(st.sampled_from(SEEDS))
        version = draw(st.sampled_from(sorted(HANDSHAKE_PROTOCOL_VERSIONS)))
        return message(tool, arguments), {"MCP-Protocol-Version": version}
    return draw(bodies()), draw(REQUEST_HEADERS)


class Loop:
    """The two services and the fake upstreams on a loop of their own (hypothesis drives a
    synchronous test, which submits each request there)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="fast-path-pair")
        self.thread.start()
        self.pair, self._servers = self.run(self._open())

    def run(self, work: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout=60)

    async def _open(self) -> tuple[Pair, list[Any]]:
        upstreams = TestServer(demo_upstreams_app())
        await upstreams.start_server()
        url = str(upstreams.make_url("/")).rstrip("/")
        wired: dict[str, Any] = {
            "bkn_backend_url": url,
            "operator_integration_url": url,
            "ontology_query_url": url,
            "public_url": "https://resolver.example.com",
        }
        clients = []
        for fast in (True, False):
            client = TestClient(TestServer(create_app(Settings(**wired, mcp_fast_path=fast))))
            await client.start_server()
            clients.append(client)
        return Pair(*clients), [upstreams, *clients]

    def close(self) -> None:
        async def close() -> None:
            for server in reversed(self._servers):
                await server.close()

        self.run(close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture(scope="module")
def pair_on_a_loop() -> Iterator[Loop]:
    loop = Loop()
    try:
        yield loop
    finally:
        loop.close()


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(request=requests())
def test_both_paths_answer_a_generated_request_alike(
    pair_on_a_loop: Loop, request: tuple[Any, dict[str, str | None]]
) -> None:
    sent, headers = request
    fast, sdk, took = pair_on_a_loop.run(both_paths(pair_on_a_loop.pair, sent, headers))
    event(
        "answered by the fast path" if took else "answered by the SDK"
    )  # --hypothesis-show-statistics
    assert (fast.status, fast.headers) == (sdk.status, sdk.headers)
    assert fast.body == sdk.body


def test_the_seeds_cover_every_tool() -> None:
    assert {tool for tool, _ in SEEDS} == TOOL_NAMES


@pytest.mark.parametrize("version", [*sorted(HANDSHAKE_PROTOCOL_VERSIONS), None])
@pytest.mark.parametrize(("tool", "arguments"), SEEDS[:6], ids=lambda v: str(v)[:24])
async def test_a_plain_call_takes_the_fast_path(
    service: Pair, tool: str, arguments: Any, version: str | None
) -> None:
    # The generator's own calls do reach the fast path: a valid call, every revision.
    sent = message(tool, arguments)
    result = tool_result(await assert_conformant(service, sent, {"MCP-Protocol-Version": version}))
    assert result["isError"] is False, result


# --- failures a body alone cannot cause --------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "code"),
    [(500, "UPSTREAM_ERROR"), (503, "UPSTREAM_ERROR"), (403, "UPSTREAM_ERROR"), (404, "OBJECT")],
)
async def test_an_upstream_failure_is_the_sdks(
    service: Pair, kn_fakes: KnFakes, status: int, code: str
) -> None:
    kn_fakes.manager.fail_always(Fault(status=status, message="disk on fire"))
    sent = message("get_logic_properties_values", values_arguments("最近3个月", now_ms=NOW_MS))
    error = tool_error(await assert_conformant(service, sent))
    assert error["error"]["code"].startswith(code), error


async def test_a_failure_in_the_llm_is_the_sdks(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = Pair(await make_client(), await make_client(mcp_fast_path=False))
    fake_llm.respond(lambda call: Reply(status=500, body=b'{"error": "boom"}'))
    sent = message("resolve_dynamic_params", request_body(SALES, query="最近3个月销量"))
    error = tool_error(await assert_conformant(client, sent))
    assert (error["status"], error["error"]["code"]) == (502, "LLM_UNAVAILABLE")


async def test_an_answer_of_the_llm_is_the_sdks(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = Pair(await make_client(), await make_client(mcp_fast_path=False))
    fake_llm.respond(lambda call: Reply(content='{"sales": {"region": "华东"}}'))
    sent = message("resolve_dynamic_params", request_body(SALES, query="华东最近3个月销量"))
    result = tool_result(await assert_conformant(client, sent))
    assert result["structuredContent"]["dynamic_params"]["sales"]["region"] == "华东"
    assert len(fake_llm.calls) == 2  # one per path


async def test_a_spent_llm_budget_is_the_sdks(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = Pair(
        await make_client(llm_max_calls_per_request=2),
        await make_client(llm_max_calls_per_request=2, mcp_fast_path=False),
    )
    fake_llm.respond(lambda call: Reply(content="this is not JSON"))  # every answer repaired
    arguments = request_body(
        *(operator(f"op{i}", ("target", "STRING")) for i in range(4)),
        query="分析这些指标",
        options={"max_repair_rounds": 3},
    )
    error = tool_error(
        await assert_conformant(client, message("resolve_dynamic_params", arguments))
    )
    assert error["error"]["code"] == "LLM_BUDGET_EXCEEDED"


async def test_a_passed_deadline_is_the_sdks(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    client = Pair(
        await make_client(llm_timeout_s=0.2, request_timeout_s=0.4),
        await make_client(llm_timeout_s=0.2, request_timeout_s=0.4, mcp_fast_path=False),
    )
    fake_llm.respond(lambda call: Reply(hang=True))
    sent = message("resolve_dynamic_params", request_body(SALES, query="最近3个月销量"))
    error = tool_error(await assert_conformant(client, sent))
    assert error["status"] == 504
    assert error["error"]["code"] == "LLM_TIMEOUT"


# --- which way the header checks go; the real clients -----------------------------------------


def test_the_header_checks_are_the_sdks() -> None:
    sent = message("resolve_time_window", LAST_WEEK)

    def taken(**headers: str) -> bool:
        lowered = {name.lower().replace("_", "-").encode(): v for name, v in headers.items()}
        return fast_call(sent, lowered.get) is not None

    assert taken(content_type="application/json", accept="application/json;q=0.9, text/html")
    assert taken(content_type="application/json; charset=utf-8")
    # The SDK's security check is case-insensitive, its media check is not: the SDK's 415.
    assert not taken(content_type="Application/JSON")
    assert not taken(content_type="text/plain")
    assert not taken(accept="text/html", content_type="application/json")


# --- the real clients take it -------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "fast"), [("legacy", 1), ("auto", 0)])
async def test_the_mcp_sdk_client_takes_it_after_a_handshake(
    service: Pair, mode: str, fast: int
) -> None:
    # `auto` speaks the 2026-07-28 revision (no handshake): the SDK's modern entry answers it.
    arguments = request_body(metric(), query="最近3个月的药品数量趋势")
    async with sdk_client(str(service.fast.make_url("/mcp")), mode=mode) as client:
        result = await client.call_tool("resolve_dynamic_params", arguments)
    assert not result.is_error
    assert await fast_posts(service.fast) == fast


async def test_the_kweaver_client_takes_it(service: Pair) -> None:
    base_url = str(service.fast.make_url("")).rstrip("/")

    def action_info() -> Any:
        with kweaver(base_url) as loader:
            return loader.get_action_info(DEMO_TOOL_AT, {"company_id": "company_000001"})

    answer = await asyncio.to_thread(action_info)
    assert answer["_dynamic_tools"]
    assert await fast_posts(service.fast) == 1


async def test_the_setting_turns_it_off(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False, mcp_fast_path=False)
    endpoint = client.app[MCP_SERVER_KEY]
    assert endpoint.fast_path is False
    response = await client.post(
        "/mcp", data=json.dumps(message("resolve_time_window", LAST_WEEK)), headers=HEADERS
    )
    assert response.status == 200
    assert tool_result(json.loads(await response.read()))["isError"] is False
    assert await fast_posts(client) == 0
