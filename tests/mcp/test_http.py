"""The MCP endpoint over Streamable HTTP, driven by the `mcp` SDK's own client (and raw
JSON-RPC where a client would hide the wire) against the app with fake upstreams and the fake
LLM: each tool answers what the HTTP endpoint answers, failures are tool errors in the HTTP
shape, and the transport keeps no session state."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import aiohttp
import mcp_types as types
import orjson
import pytest
from aiohttp.test_utils import TestClient

from resolver.mcp.server import LISTED
from resolver.testing.fake_llm import FakeLLM, Reply
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_TOOL_AT,
    Fault,
    add_demo_actions,
)
from tests.helpers import (
    NOW_MS,
    ClientFactory,
    KnFakes,
    assert_settled,
    metric,
    request_body,
    wait_for,
)
from tests.mcp_checks import (
    ACCEPT,
    MCP_PATHS,
    TOOL_NAMES,
    call_message,
    error_body,
    initialize_message,
    ok_body,
    post_jsonrpc,
    sdk_client,
    values_arguments,
)

KN_HEADERS = {"X-Kn-ID": DEMO_KN}
PIPELINE = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
ACTION_INFO = "/api/agent-retrieval/in/v1/kn/get_action_info"
RETRY_CONTEXT = "start=2024-01-01；end=2024-03-31；step=month"
JAN_1_2024 = 1_704_038_400_000  # 2024-01-01T00:00:00+08:00
END_OF_MARCH_2024 = 1_711_900_799_999  # 2024-03-31T23:59:59.999+08:00
# MCP api_urls are built from it (an unchecked Host never forms a URL).
PUBLIC_URL = "https://resolver.example.com"


@pytest.fixture
async def service(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> TestClient[Any, Any]:
    """The app, rules-only, wired to the fake upstreams with the demo actions."""
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    return await make_kn_client(llm=False, public_url=PUBLIC_URL)


@pytest.fixture
async def llm_service(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> TestClient[Any, Any]:
    """The app over the fake LLM, wired to the fake upstreams with the demo actions."""
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    return await make_kn_client(public_url=PUBLIC_URL)


def url_of(client: TestClient[Any, Any], path: str = "/mcp") -> str:
    return str(client.make_url(path))


async def http_post(
    client: TestClient[Any, Any], path: str, body: dict[str, Any], **headers: str
) -> tuple[int, dict[str, Any]]:
    response = await client.post(
        path, data=orjson.dumps(body), headers={"Content-Type": "application/json", **headers}
    )
    return response.status, orjson.loads(await response.read())


def without_trace(body: dict[str, Any]) -> dict[str, Any]:
    # `headers` (get_action_info) holds a new span id per request, like trace_id is per request.
    return {k: v for k, v in body.items() if k not in ("trace_id", "headers")}


# --- tools/list -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", MCP_PATHS)
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_every_path_lists_the_tools(
    service: TestClient[Any, Any], path: str, mode: str
) -> None:
    async with sdk_client(url_of(service, path), mode=mode) as client:
        listed = await client.list_tools()
    assert {tool.name for tool in listed.tools} == TOOL_NAMES
    expected = {tool.name: tool for tool in LISTED.tools}
    for tool in listed.tools:
        assert tool.input_schema == expected[tool.name].input_schema
        assert tool.output_schema == expected[tool.name].output_schema
        assert tool.annotations == expected[tool.name].annotations


# --- each tool answers what its HTTP endpoint answers -----------------------------------------


async def test_resolve_dynamic_params_is_the_http_answer(service: TestClient[Any, Any]) -> None:
    arguments = request_body(metric(), query="最近3个月的药品数量趋势")
    async with sdk_client(url_of(service)) as client:
        result = await client.call_tool("resolve_dynamic_params", arguments)
    body = ok_body(result)
    status, http = await http_post(service, "/v1/dynamic-params", arguments)
    assert status == 200
    assert without_trace(body) == without_trace(http)
    assert body["dynamic_params"]["approved_drug_count"]["step"] == "month"


async def test_resolve_over_the_fake_llm(
    llm_service: TestClient[Any, Any], fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(content='{"sales": {"region": "华东"}}'))
    arguments = request_body(metric("sales", ("region", "STRING")), query="华东最近3个月销量")
    async with sdk_client(url_of(llm_service), mode="auto") as client:
        result = await client.call_tool("resolve_dynamic_params", arguments)
    body = ok_body(result)
    assert body["dynamic_params"]["sales"]["region"] == "华东"
    assert body["dynamic_params"]["sales"]["step"] == "month"  # the window came from code
    assert len(fake_llm.calls) == 1


async def test_values_take_kn_id_and_identity_from_the_http_request(
    service: TestClient[Any, Any], kn_fakes: KnFakes
) -> None:
    headers = {
        **KN_HEADERS,
        "x-account-id": "user-7",
        "x-account-type": "user",
        "Authorization": "Bearer tok-abc",
        "x-trace-id": "trace-mcp-values",
    }
    arguments = values_arguments("最近3个月的药品数量趋势", now_ms=NOW_MS)
    async with sdk_client(url_of(service, MCP_PATHS[0]), headers=headers) as client:
        result = await client.call_tool("get_logic_properties_values", arguments)
    body = ok_body(result)
    assert body["trace_id"] == "trace-mcp-values"
    assert body["datas"][0]["company_id"] == "company_000001"
    assert body["dynamic_params"]["approved_drug_count"]["step"] == "month"
    mcp_seen = [call.headers for call in kn_fakes.manager.calls + kn_fakes.values.calls]
    kn_fakes.manager.calls.clear()
    kn_fakes.values.calls.clear()
    status, http = await http_post(service, PIPELINE, {"kn_id": DEMO_KN, **arguments}, **headers)
    assert status == 200
    assert without_trace(body) == without_trace(http)
    http_seen = [call.headers for call in kn_fakes.manager.calls + kn_fakes.values.calls]
    forwarded = ("x-account-id", "x-account-type", "authorization", "x-trace-id", "traceparent")
    # Forwarded upstream exactly as the pipeline endpoint forwards them.
    for over_mcp, over_http in zip(mcp_seen, http_seen, strict=True):
        assert {k: over_mcp.get(k) for k in forwarded} == {k: over_http.get(k) for k in forwarded}
    assert mcp_seen[0]["x-account-id"] == "user-7"
    assert mcp_seen[0]["x-trace-id"] == "trace-mcp-values"


async def test_an_argument_kn_id_wins_over_the_header(
    service: TestClient[Any, Any], kn_fakes: KnFakes
) -> None:
    arguments = values_arguments("最近3个月的药品数量趋势", kn_id="kn_other")
    async with sdk_client(url_of(service), headers=KN_HEADERS) as client:
        result = await client.call_tool("get_logic_properties_values", arguments)
    body = error_body(result)
    assert body["error"]["code"] == "OBJECT_TYPE_NOT_FOUND"
    assert "/knowledge-networks/kn_other/" in kn_fakes.manager.calls[-1].path


@pytest.mark.parametrize(
    "identity",
    [
        {"_instance_identity": {"company_id": "company_000001"}},
        {"unique_identity": {"company_id": "company_000001"}},
        {"_instance_identities": [{}, {"company_id": "company_000001"}]},
    ],
    ids=["_instance_identity", "unique_identity", "_instance_identities"],
)
@pytest.mark.parametrize("at_id", [DEMO_TOOL_AT, DEMO_MCP_AT])
async def test_action_info_is_the_http_answer(
    service: TestClient[Any, Any], identity: dict[str, Any], at_id: str
) -> None:
    arguments = {"at_id": at_id, **identity}
    async with sdk_client(url_of(service), headers=KN_HEADERS) as client:
        result = await client.call_tool("get_action_info", arguments)
    body = ok_body(result)
    [tool] = body["_dynamic_tools"]
    assert tool["parameters"]["type"] == "object"
    status, http = await http_post(service, ACTION_INFO, {"kn_id": DEMO_KN, **arguments})
    assert status == 200
    assert without_trace(body) == without_trace(http)


# --- missing inputs: the error with hints, then the retry -------------------------------------


async def test_missing_inputs_then_the_retry_with_additional_context(
    service: TestClient[Any, Any],
) -> None:
    arguments = values_arguments("获批药品数量的趋势", now_ms=NOW_MS)
    async with sdk_client(url_of(service), headers=KN_HEADERS) as client:
        first = await client.call_tool("get_logic_properties_values", arguments)
        body = error_body(first)
        assert body["error_code"] == "MISSING_INPUT_PARAMS"
        assert body["error"]["code"] == "MISSING_PARAMS"
        assert body["status"] == 422
        [entry] = body["missing"]
        assert entry["property"] == "approved_drug_count"
        assert [p["name"] for p in entry["params"]] == ["start", "end", "step"]
        assert all("additional_context" in p["hint"] for p in entry["params"])
        assert entry["ask"] in body["_error"]
        retry = await client.call_tool(
            "get_logic_properties_values", {**arguments, "additional_context": RETRY_CONTEXT}
        )
    params = ok_body(retry)["dynamic_params"]["approved_drug_count"]
    assert params == {
        "instant": False,
        "start": JAN_1_2024,
        "end": END_OF_MARCH_2024,
        "step": "month",
    }


async def test_the_tool_error_names_the_time_words_it_could_not_read(
    service: TestClient[Any, Any],
) -> None:
    arguments = values_arguments("2024年3月前后获批药品数量的趋势", now_ms=NOW_MS)
    async with sdk_client(url_of(service), headers=KN_HEADERS) as client:
        body = error_body(await client.call_tool("get_logic_properties_values", arguments))
    [entry] = body["missing"]
    assert entry["ask"].startswith("无法确定时间：“前后”")
    assert entry["ask"] in body["_error"]


# --- bad arguments and failures: tool errors, never protocol crashes --------------------------


@pytest.mark.parametrize(
    ("name", "arguments", "field"),
    [
        ("get_logic_properties_values", {**values_arguments("q"), "query": 5}, "query"),
        ("get_logic_properties_values", values_arguments("q", surprise=1), "surprise"),
        ("get_logic_properties_values", {"query": "q", "properties": ["p"]}, "ot_id"),
        ("get_logic_properties_values", values_arguments("q", _instance_identities=[]), "_inst"),
        ("get_action_info", {"at_id": DEMO_TOOL_AT}, "unique_identity"),
        ("get_action_info", {"at_id": 7, "_instance_identity": {"a": 1}}, "at_id"),
        ("resolve_dynamic_params", {"query": "q"}, "logic_properties"),
        ("resolve_dynamic_params", request_body(metric(), timezone="Mars/Base"), "Mars/Base"),
    ],
    ids=[
        "wrong-type",
        "unknown",
        "missing",
        "empty-list",
        "no-identity",
        "at_id",
        "no-props",
        "timezone",
    ],
)
async def test_bad_arguments_are_tool_errors_naming_the_field(
    service: TestClient[Any, Any], name: str, arguments: dict[str, Any], field: str
) -> None:
    async with sdk_client(url_of(service), headers=KN_HEADERS) as client:
        result = await client.call_tool(name, arguments)
        body = error_body(result)
        assert body["status"] == 400
        assert body["error"]["code"].startswith(("BAD_REQUEST", "INVALID"))
        assert field in body["message"]
        # The session goes on: the next call works.
        listed = await client.list_tools()
    assert len(listed.tools) == len(TOOL_NAMES)


async def test_kn_id_without_header_or_argument_is_named(service: TestClient[Any, Any]) -> None:
    async with sdk_client(url_of(service)) as client:
        result = await client.call_tool("get_action_info", {"at_id": DEMO_TOOL_AT})
    body = error_body(result)
    assert "kn_id" in body["message"]
    assert "X-Kn-ID" in body["message"]


async def test_protocol_errors_stay_protocol_errors(service: TestClient[Any, Any]) -> None:
    url = url_of(service)
    async with aiohttp.ClientSession() as session:
        status, _, unknown = await post_jsonrpc(session, url, call_message(1, "drop_tables", {}))
        assert status == 200
        assert unknown["error"]["code"] == types.INVALID_PARAMS
        assert "get_action_info" in unknown["error"]["message"]
        status, _, not_object = await post_jsonrpc(
            session, url, call_message(2, "get_action_info", [1, 2])
        )
        assert status == 200
        assert not_object["error"]["code"] == types.INVALID_PARAMS
        status, _, garbage = await post_jsonrpc(session, url, {"jsonrpc": "2.0", "id": 3})
        assert status == 400
        assert "error" in garbage


async def test_upstream_failure_has_the_http_code_and_message(
    service: TestClient[Any, Any], kn_fakes: KnFakes
) -> None:
    kn_fakes.manager.fail_always(Fault(status=500, message="disk on fire"))
    arguments = values_arguments("最近3个月", now_ms=NOW_MS)
    async with sdk_client(url_of(service), headers=KN_HEADERS) as client:
        body = error_body(await client.call_tool("get_logic_properties_values", arguments))
    status, http = await http_post(service, PIPELINE, {"kn_id": DEMO_KN, **arguments})
    assert status == body["status"] == 502
    assert body["error"]["code"] == http["error"]["code"] == "UPSTREAM_ERROR"
    assert body["error"]["message"] == http["error"]["message"]
    assert body["_error"] == http["_error"]


async def test_llm_failure_has_the_http_code_and_message(
    llm_service: TestClient[Any, Any], fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=500, body=b'{"error": "boom"}'))
    arguments = request_body(metric("sales", ("region", "STRING")), query="最近3个月销量")
    async with sdk_client(url_of(llm_service)) as client:
        body = error_body(await client.call_tool("resolve_dynamic_params", arguments))
    status, http = await http_post(llm_service, "/v1/dynamic-params", arguments)
    assert status == body["status"] == 502
    assert body["error"]["code"] == http["error"]["code"] == "LLM_UNAVAILABLE"
    assert body["error"]["message"] == http["error"]["message"]


# --- the transport: sessions without state, trace ids, metrics, concurrency --------------------


async def test_sessions_are_issued_and_any_well_formed_one_is_served(
    service: TestClient[Any, Any],
) -> None:
    url = url_of(service, MCP_PATHS[0])
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    version = {"MCP-Protocol-Version": "2024-11-05"}
    async with aiohttp.ClientSession() as session:
        status, headers, answer = await post_jsonrpc(session, url, initialize_message(), version)
        assert status == 200
        assert answer["result"]["protocolVersion"] == "2024-11-05"
        issued = headers["Mcp-Session-Id"]
        assert re.fullmatch(r"[0-9a-f]{32}", issued)
        status, headers, _ = await post_jsonrpc(session, url, initialize_message(), version)
        assert headers["Mcp-Session-Id"] != issued  # a new session per initialize
        for session_id in (issued, "issued-by-another-replica-0001"):
            sent = {**version, "Mcp-Session-Id": session_id}
            note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            status, _, empty = await post_jsonrpc(session, url, note, sent)
            assert (status, empty) == (202, None)
            status, _, answer = await post_jsonrpc(session, url, listing, sent)
            assert status == 200
            assert len(answer["result"]["tools"]) == len(TOOL_NAMES)
        bad = {**version, "Mcp-Session-Id": "two words"}
        status, _, answer = await post_jsonrpc(session, url, listing, bad)
        assert status == 400
        assert "Mcp-Session-Id" in answer["error"]["message"]
        for method in ("GET", "DELETE"):
            async with session.request(method, url, headers={"Accept": ACCEPT}) as response:
                assert response.status == 405  # no server-to-client stream, nothing to end


async def test_trace_ids_flow_from_the_http_request(service: TestClient[Any, Any]) -> None:
    trace = "4bf92f3577b34da6a3ce929d0e0e4736"
    headers = {**KN_HEADERS, "traceparent": f"00-{trace}-00f067aa0ba902b7-01"}
    arguments = {"at_id": DEMO_TOOL_AT, "_instance_identity": {"company_id": "c1"}}
    async with aiohttp.ClientSession() as session:
        status, answer_headers, answer = await post_jsonrpc(
            session, url_of(service), call_message(1, "get_action_info", arguments), headers
        )
    assert status == 200
    assert answer_headers["x-trace-id"] == trace
    assert orjson.loads(answer["result"]["content"][0]["text"])["trace_id"] == trace


async def test_metrics_count_mcp_calls_per_tool(service: TestClient[Any, Any]) -> None:
    async with sdk_client(url_of(service), headers=KN_HEADERS) as client:
        ok_body(
            await client.call_tool("get_logic_properties_values", values_arguments("最近3个月"))
        )
        error_body(await client.call_tool("get_logic_properties_values", values_arguments("趋势")))
        error_body(await client.call_tool("get_action_info", {"at_id": 5}))
    text = await (await service.get("/metrics")).text()
    assert (
        'resolver_mcp_tool_calls_total{outcome="ok",tool="get_logic_properties_values"} 1.0' in text
    )
    assert (
        'resolver_mcp_tool_calls_total{outcome="MISSING_PARAMS",'
        'tool="get_logic_properties_values"} 1.0' in text
    )
    assert 'resolver_mcp_tool_calls_total{outcome="BAD_REQUEST",tool="get_action_info"} 1.0' in text
    assert 'resolver_mcp_tool_call_duration_seconds_count{tool="get_action_info"} 1.0' in text
    assert 'resolver_http_requests_total{route="/mcp",status="200"}' in text


async def test_concurrent_clients_each_get_their_own_answer(
    service: TestClient[Any, Any],
) -> None:
    months = [1, 2, 3, 4, 5, 6]
    expected = {}
    for n in months:
        status, http = await http_post(
            service, "/v1/dynamic-params", request_body(metric(), query=f"最近{n}个月的趋势")
        )
        assert status == 200
        expected[n] = http["dynamic_params"]

    async def one_client(n: int) -> list[dict[str, Any]]:
        path = MCP_PATHS[n % len(MCP_PATHS)]
        mode = "legacy" if n % 2 else "auto"
        async with sdk_client(url_of(service, path), mode=mode) as client:
            calls = [
                client.call_tool(
                    "resolve_dynamic_params", request_body(metric(), query=f"最近{n}个月的趋势")
                )
                for _ in range(3)
            ]
            return [ok_body(result)["dynamic_params"] for result in await asyncio.gather(*calls)]

    answers = await asyncio.gather(*(one_client(n) for n in months))
    for n, got in zip(months, answers, strict=True):
        assert got == [expected[n]] * 3


async def test_a_client_that_leaves_stops_the_llm_call(
    llm_service: TestClient[Any, Any], fake_llm: FakeLLM
) -> None:
    fake_llm.latency_s = 30.0
    arguments = request_body(metric("sales", ("region", "STRING")), query="最近3个月销量")
    message = call_message(1, "resolve_dynamic_params", arguments)
    async with aiohttp.ClientSession() as session:
        call = asyncio.create_task(post_jsonrpc(session, url_of(llm_service), message))
        await wait_for(lambda: fake_llm.inflight == 1, within_s=10)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
    await assert_settled(llm_service, fake_llm)


async def test_plain_http_clients_need_no_accept(
    service: TestClient[Any, Any],
) -> None:
    # An Accept-less client is served; a Content-Type-less one is not (SPEC §8: a POST that
    # is not declared JSON needs no CORS preflight, so a web page could send it).
    response = await service.post(
        "/mcp",
        data=orjson.dumps(initialize_message()),
        headers={"Content-Type": "application/json"},
        skip_auto_headers=["Accept"],
    )
    assert response.status == 200
    assert response.headers["Mcp-Session-Id"]
    assert (await response.json())["result"]["serverInfo"]["name"] == "resolver"
