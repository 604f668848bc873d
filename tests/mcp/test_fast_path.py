"""The fast path of the MCP endpoint (issue 24, `resolver/mcp/fast_path.py`) answers what the
SDK answers: each request here is sent twice to one service over a real socket, once with the
fast path on and once with it off (the SDK's own transport, dispatcher and server runner), and
the two HTTP answers must be the same — status, headers (but `Date`) and body bytes, with only
the span ids of `get_action_info`'s forwarded `traceparent` normalised (a span per request; the
trace id is the same, the requests carry one `traceparent`).

Covered: every tool's success, JSON and TOON, under every handshake protocol revision and
with every `Accept` the SDK serves; every error class a call can meet (bad or absent
arguments, a missing `kn_id`, an invalid `bkn_context`, missing inputs and an unsettled time
text (422), an unknown object type, upstream 4xx and 5xx, the LLM failing, the LLM budget
spent, the request deadline passing); and what the fast path must leave to the SDK (unknown
tools, odd params, `_meta`, extra members, unknown protocol revisions, SSE-only clients), which
the SDK then answers on both runs. Both real clients, the `mcp` SDK's and KWeaver's, take it.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from resolver.mcp.fast_path import fast_call
from resolver.testing.fake_llm import FakeLLM, Reply
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_OT,
    DEMO_TOOL_AT,
    Fault,
    add_demo_actions,
)
from resolver.web.servicekeys import MCP_SERVER_KEY
from tests.helpers import NOW_MS, ClientFactory, KnFakes, metric, operator, request_body
from tests.mcp_checks import (
    ACCEPT,
    TOOL_NAMES,
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
ENVELOPE = {"conversation_id": "conv_1", "interaction_id": "int_1"}
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


@pytest.fixture
async def service(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> TestClient[Any, Any]:
    """The app, rules-only, wired to the fake upstreams with the demo actions."""
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    return await make_kn_client(llm=False, public_url="https://resolver.example.com")


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
    return Wire(response.status, shown, _SPAN.sub(rb"\g<1>0000000000000000\g<2>", answer))


async def both_paths(
    client: TestClient[Any, Any],
    sent: dict[str, Any],
    headers: Mapping[str, str | None] | None = None,
) -> tuple[Wire, Wire, bool]:
    """The answer with the fast path on, the SDK's answer, and whether the first was fast."""
    merged = {**HEADERS, **(headers or {})}
    present = {name: value for name, value in merged.items() if value is not None}
    body = json.dumps(sent, ensure_ascii=False).encode()
    endpoint = client.app[MCP_SERVER_KEY]
    assert endpoint.fast_path
    before = endpoint.fast_answers
    fast = await post(client, body, present)
    took = endpoint.fast_answers > before
    endpoint.fast_path = False
    try:
        sdk = await post(client, body, present)
    finally:
        endpoint.fast_path = True
    return fast, sdk, took


async def assert_conformant(
    client: TestClient[Any, Any],
    sent: dict[str, Any],
    headers: Mapping[str, str | None] | None = None,
    *,
    fast: bool = True,
) -> Any:
    """Both paths answer the same; the fast one was (or was not) taken; the JSON answer."""
    fast_answer, sdk_answer, took = await both_paths(client, sent, headers)
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


# --- every tool, every revision, every Accept the SDK serves ----------------------------------

SUCCESSES = [
    pytest.param(
        "resolve_dynamic_params",
        request_body(metric(), query="最近3个月的药品数量趋势"),
        id="resolve_dynamic_params",
    ),
    pytest.param(
        "get_logic_properties_values",
        values_arguments(
            "当前的获批药品数量", dynamic_params={"approved_drug_count": {"instant": True}}
        ),
        id="get_logic_properties_values",
    ),
    pytest.param("get_logic_property_inputs", {"ot_id": DEMO_OT}, id="get_logic_property_inputs"),
    pytest.param(
        "get_action_info",
        {"at_id": DEMO_TOOL_AT, "_instance_identity": {"company_id": "c1"}},
        id="get_action_info-tool",
    ),
    pytest.param(
        "get_action_info",
        {"at_id": DEMO_MCP_AT, "_instance_identity": {"company_id": "c1"}},
        id="get_action_info-mcp",
    ),
    pytest.param(
        "resolve_time_window",
        {"text": "最近3个月", "now_ms": NOW_MS, "unit": "s", "timezone": "纽约"},
        id="resolve_time_window",
    ),
    pytest.param(
        "resolve_dynamic_params",
        {**request_body(metric()), "bkn_context": ENVELOPE, "response_format": "toon"},
        id="toon-with-envelope",
    ),
    pytest.param(
        "resolve_time_window",
        {"text": "上个季度", "now_ms": NOW_MS, "response_format": "toon"},
        id="time-window-toon",
    ),
]


def test_every_tool_is_covered() -> None:
    assert {case.values[0] for case in SUCCESSES} == TOOL_NAMES


@pytest.mark.parametrize(("tool", "arguments"), SUCCESSES)
async def test_every_tool_answers_as_the_sdk_does(
    service: TestClient[Any, Any], tool: str, arguments: dict[str, Any]
) -> None:
    result = tool_result(await assert_conformant(service, message(tool, arguments)))
    assert result["isError"] is False, result
    assert result["structuredContent"]["trace_id"] == TRACE_ID


@pytest.mark.parametrize("version", [*sorted(HANDSHAKE_PROTOCOL_VERSIONS), None])
@pytest.mark.parametrize("outcome", ["ok", "error"])
async def test_every_protocol_revision_is_shaped_as_the_sdk_shapes_it(
    service: TestClient[Any, Any], version: str | None, outcome: str
) -> None:
    arguments = request_body(metric()) if outcome == "ok" else {"query": "q"}
    sent = message("resolve_dynamic_params", arguments)
    result = tool_result(await assert_conformant(service, sent, {"MCP-Protocol-Version": version}))
    assert result["isError"] is (outcome == "error")


@pytest.mark.parametrize(
    "accept",
    [None, "*/*", "application/json", "application/*", "text/event-stream, application/json"],
)
async def test_every_accept_the_json_mode_serves(
    service: TestClient[Any, Any], accept: str | None
) -> None:
    sent = message("resolve_time_window", LAST_WEEK)
    assert tool_result(await assert_conformant(service, sent, {"Accept": accept}))


@pytest.mark.parametrize("request_id", ["call-1", 0, -5, 2**63 - 1, 2**70], ids=str)
async def test_ids_come_back_as_sent(service: TestClient[Any, Any], request_id: Any) -> None:
    sent = message("resolve_time_window", LAST_WEEK, request_id)
    # An id beyond 64 bits is not JSON the HTTP body reader takes as an integer: the SDK's.
    answer = await assert_conformant(service, sent, fast=True)
    assert answer["id"] == request_id


# --- every error class -------------------------------------------------------------------------

ERRORS = [
    pytest.param(
        "get_logic_properties_values",
        {**values_arguments("q"), "query": 5},
        {},
        "BAD_REQUEST",
        id="bad-argument-type",
    ),
    pytest.param(
        "resolve_time_window",
        {"text": "上个月", "when": "now"},
        {},
        "BAD_REQUEST",
        id="unknown-field",
    ),
    pytest.param("resolve_dynamic_params", None, {}, "BAD_REQUEST", id="no-arguments"),
    pytest.param(
        "resolve_dynamic_params",
        request_body(metric(), timezone="Mars/Base"),
        {},
        "BAD_REQUEST",
        id="bad-timezone",
    ),
    pytest.param(
        "get_action_info",
        {"at_id": DEMO_TOOL_AT, "_instance_identity": {"company_id": "c1"}},
        {"X-Kn-ID": None},
        "BAD_REQUEST",
        id="no-kn_id",
    ),
    pytest.param(
        "get_logic_property_inputs",
        {"ot_id": DEMO_OT, "bkn_context": {**ENVELOPE, "operation_key": "k"}},
        {},
        "INVALID_BUSINESS_CONTEXT",
        id="bkn_context-invalid",
    ),
    pytest.param(
        "get_logic_properties_values",
        values_arguments("获批药品数量的趋势", now_ms=NOW_MS),
        {},
        "MISSING_PARAMS",
        id="missing-inputs-422",
    ),
    pytest.param(
        "resolve_time_window",
        {"text": "last month or later", "now_ms": NOW_MS},
        {"Accept-Language": "zh-CN"},
        "TIME_UNSETTLED",
        id="time-unsettled-422",
    ),
    pytest.param(
        "get_logic_property_inputs",
        {"ot_id": "ot_nowhere"},
        {},
        "OBJECT_TYPE_NOT_FOUND",
        id="not-found-404",
    ),
    pytest.param(
        "get_action_info",
        {"at_id": "at_nowhere", "_instance_identity": {"company_id": "c1"}},
        {},
        "ACTION_TYPE_NOT_FOUND",
        id="action-not-found-404",
    ),
]


@pytest.mark.parametrize(("tool", "arguments", "headers", "code"), ERRORS)
async def test_every_tool_error_is_the_sdks(
    service: TestClient[Any, Any],
    tool: str,
    arguments: dict[str, Any] | None,
    headers: dict[str, str | None],
    code: str,
) -> None:
    error = tool_error(await assert_conformant(service, message(tool, arguments), headers))
    assert error["error"]["code"].startswith(code), error


@pytest.mark.parametrize(
    ("status", "code"),
    [(500, "UPSTREAM_ERROR"), (503, "UPSTREAM_ERROR"), (403, "UPSTREAM_ERROR"), (404, "OBJECT")],
)
async def test_an_upstream_failure_is_the_sdks(
    service: TestClient[Any, Any], kn_fakes: KnFakes, status: int, code: str
) -> None:
    kn_fakes.manager.fail_always(Fault(status=status, message="disk on fire"))
    sent = message("get_logic_properties_values", values_arguments("最近3个月", now_ms=NOW_MS))
    error = tool_error(await assert_conformant(service, sent))
    assert error["error"]["code"].startswith(code), error


async def test_a_failure_in_the_llm_is_the_sdks(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client()
    fake_llm.respond(lambda call: Reply(status=500, body=b'{"error": "boom"}'))
    sent = message("resolve_dynamic_params", request_body(SALES, query="最近3个月销量"))
    error = tool_error(await assert_conformant(client, sent))
    assert (error["status"], error["error"]["code"]) == (502, "LLM_UNAVAILABLE")


async def test_an_answer_of_the_llm_is_the_sdks(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client()
    fake_llm.respond(lambda call: Reply(content='{"sales": {"region": "华东"}}'))
    sent = message("resolve_dynamic_params", request_body(SALES, query="华东最近3个月销量"))
    result = tool_result(await assert_conformant(client, sent))
    assert result["structuredContent"]["dynamic_params"]["sales"]["region"] == "华东"
    assert len(fake_llm.calls) == 2  # one per path


async def test_a_spent_llm_budget_is_the_sdks(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_max_calls_per_request=2)
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
    client = await make_client(llm_timeout_s=0.2, request_timeout_s=0.4)
    fake_llm.respond(lambda call: Reply(hang=True))
    sent = message("resolve_dynamic_params", request_body(SALES, query="最近3个月销量"))
    error = tool_error(await assert_conformant(client, sent))
    assert error["status"] == 504
    assert error["error"]["code"] == "LLM_TIMEOUT"


# --- what the fast path leaves to the SDK -------------------------------------------------------

SDK_ONLY = [
    pytest.param(message("drop_tables", {}), {}, id="unknown-tool"),
    pytest.param(message(["resolve_time_window"], {}), {}, id="name-not-a-string"),
    pytest.param(message("resolve_time_window", [1, 2]), {}, id="arguments-not-an-object"),
    pytest.param(
        message("resolve_time_window", LAST_WEEK, _meta={"progressToken": 1}),
        {},
        id="_meta",
    ),
    pytest.param({**message("resolve_time_window", LAST_WEEK), "extra": 1}, {}, id="extra-member"),
    pytest.param(
        message("resolve_time_window", LAST_WEEK),
        {"MCP-Protocol-Version": "2026-07-28"},
        id="modern-revision",
    ),
    pytest.param(
        message("resolve_time_window", LAST_WEEK),
        {"MCP-Protocol-Version": "1999-01-01"},
        id="unknown-revision",
    ),
    pytest.param(
        message("resolve_time_window", LAST_WEEK),
        {"Accept": "text/event-stream"},
        id="sse-only-406",
    ),
    pytest.param(
        {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "resolve_time_window"}},
        {},
        id="notification",
    ),
    pytest.param({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, {}, id="tools-list"),
]


@pytest.mark.parametrize(("sent", "headers"), SDK_ONLY)
async def test_what_is_not_a_plain_call_is_the_sdks_on_both_runs(
    service: TestClient[Any, Any], sent: dict[str, Any], headers: dict[str, str]
) -> None:
    await assert_conformant(service, sent, headers, fast=False)


@pytest.mark.parametrize(
    ("sent", "code"),
    [
        ({**message("resolve_time_window", LAST_WEEK), "id": 1.5}, -32600),
        ({**message("resolve_time_window", LAST_WEEK), "id": None}, -32600),
        ([message("resolve_time_window", LAST_WEEK)], -32600),
    ],
    ids=["float-id", "null-id", "batch"],
)
async def test_the_id_checks_come_first_on_both_paths(
    service: TestClient[Any, Any], sent: Any, code: int
) -> None:
    answer = await assert_conformant(service, sent, fast=False)
    assert answer["error"]["code"] == code


async def test_the_browser_guard_comes_first_on_both_paths(
    service: TestClient[Any, Any],
) -> None:
    sent = message("resolve_time_window", LAST_WEEK)
    foreign = await assert_conformant(service, sent, {"Origin": "https://evil.example"}, fast=False)
    assert foreign["error"]["code"] == "FORBIDDEN"


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
    service: TestClient[Any, Any], mode: str, fast: int
) -> None:
    # `auto` speaks the 2026-07-28 revision (no handshake): the SDK's modern entry answers it.
    endpoint = service.app[MCP_SERVER_KEY]
    arguments = request_body(metric(), query="最近3个月的药品数量趋势")
    async with sdk_client(str(service.make_url("/mcp")), mode=mode) as client:
        result = await client.call_tool("resolve_dynamic_params", arguments)
    assert not result.is_error
    assert endpoint.fast_answers == fast


async def test_the_kweaver_client_takes_it(service: TestClient[Any, Any]) -> None:
    endpoint = service.app[MCP_SERVER_KEY]
    base_url = str(service.make_url("")).rstrip("/")

    def action_info() -> Any:
        with kweaver(base_url) as loader:
            return loader.get_action_info(DEMO_TOOL_AT, {"company_id": "company_000001"})

    answer = await asyncio.to_thread(action_info)
    assert answer["_dynamic_tools"]
    assert endpoint.fast_answers == 1


async def test_the_setting_turns_it_off(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False, mcp_fast_path=False)
    endpoint = client.app[MCP_SERVER_KEY]
    assert endpoint.fast_path is False
    response = await client.post(
        "/mcp", data=json.dumps(message("resolve_time_window", LAST_WEEK)), headers=HEADERS
    )
    assert response.status == 200
    assert tool_result(json.loads(await response.read()))["isError"] is False
    assert endpoint.fast_answers == 0
