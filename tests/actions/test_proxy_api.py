"""The MCP proxy (SPEC §8) against a fake agent-operator-integration server."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from yarl import URL

from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    Fault,
    Seen,
    add_demo_actions,
    demo_mcp_tool,
)
from tests.helpers import ClientFactory, KnFakes, assert_error_shape

PATH = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
DETAIL_PATH = f"/api/agent-operator-integration/internal-v1/mcp/proxy/{DEMO_MCP_ID}/tools"
CALL_PATH = f"/api/agent-operator-integration/internal-v1/mcp/proxy/{DEMO_MCP_ID}/tool/call"
ARGUMENTS = {
    "company_id": "company_000001",
    "channel": "email",
    "message": {"title": "风险提示", "body": "请关注近期经营风险"},
}
CLOSED_PORT_URL = "http://127.0.0.1:9"


@pytest.fixture(autouse=True)
def _demo_actions(kn_fakes: KnFakes) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)


async def post(
    client: Any, body: Any, path: str = PATH, **kwargs: Any
) -> tuple[int, Any, dict[str, str]]:
    headers = {"Content-Type": "application/json", **kwargs.pop("headers", {})}
    data = body if isinstance(body, bytes) else orjson.dumps(body)
    response = await client.post(path, data=data, headers=headers, **kwargs)
    payload = orjson.loads(await response.read())
    return response.status, payload, dict(response.headers)


def calls(kn_fakes: KnFakes, path: str) -> list[Seen]:
    return [c for c in kn_fakes.operators.calls if c.path == path]


# --- success ----------------------------------------------------------------------------------


async def test_valid_arguments_are_forwarded_and_the_answer_passes_through(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    headers = {"x-account-id": "user-42", "x-account-type": "user", "x-trace-id": "trace-p"}
    status, body, response_headers = await post(client, ARGUMENTS, headers=headers)
    assert status == 200, body
    assert body == {
        "content": [{"type": "text", "text": body["content"][0]["text"]}],
        "is_error": False,
        "trace_id": "trace-p",
    }
    echoed = json.loads(body["content"][0]["text"])
    assert echoed == {"tool": DEMO_MCP_TOOL, "arguments": ARGUMENTS}
    assert response_headers["x-trace-id"] == "trace-p"
    (detail,) = calls(kn_fakes, DETAIL_PATH)
    (call,) = calls(kn_fakes, CALL_PATH)
    assert detail.method == "GET"
    assert call.method == "POST"
    assert call.body == {"tool_name": DEMO_MCP_TOOL, "parameters": ARGUMENTS}
    for seen in (detail, call):
        assert seen.headers["x-account-id"] == "user-42"
        assert seen.headers["x-account-type"] == "user"
        assert seen.headers["x-trace-id"] == "trace-p"


async def test_the_schema_is_cached_between_calls(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    for _ in range(3):
        assert (await post(client, ARGUMENTS))[0] == 200
    assert len(calls(kn_fakes, DETAIL_PATH)) == 1
    assert len(calls(kn_fakes, CALL_PATH)) == 3


async def test_the_cache_is_per_account(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> None:
    client = await make_kn_client(llm=False)
    for account in ("a", "b", "a"):
        status, *_ = await post(client, ARGUMENTS, headers={"x-account-id": account})
        assert status == 200
    assert [c.headers["x-account-id"] for c in calls(kn_fakes, DETAIL_PATH)] == ["a", "b"]


async def test_ttl_zero_fetches_the_schema_every_time(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False, mcp_tool_ttl_s=0)
    for _ in range(2):
        assert (await post(client, ARGUMENTS))[0] == 200
    assert len(calls(kn_fakes, DETAIL_PATH)) == 2


async def test_a_recall_primes_the_cache_for_the_call(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False, allowed_hosts="resolver.internal")
    recall = {"kn_id": DEMO_KN, "at_id": DEMO_MCP_AT, "unique_identity": {"company_id": "c1"}}
    response = await client.post(
        "/api/agent-retrieval/in/v1/kn/get_action_info",
        json=recall,
        headers={"Host": "resolver.internal"},
    )
    tool = (await response.json())["_dynamic_tools"][0]
    # What an agent does: the LLM's arguments on top of the fixed ones, sent to api_url.
    arguments = {**tool["fixed_params"]["body"], "message": {"title": "t"}}
    path = tool["api_url"].removeprefix("http://resolver.internal")
    assert path == PATH
    status, body, _ = await post(client, arguments, path)
    assert status == 200, body
    assert len(calls(kn_fakes, DETAIL_PATH)) == 1


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param({"content": [{"type": "text", "text": "boom"}], "isError": True}, id="error"),
        pytest.param({"result": 1, "trace_id": "upstream-trace"}, id="own-trace-id-kept"),
        pytest.param([1, 2, 3], id="array"),
        pytest.param("done", id="string"),
        pytest.param(None, id="null"),
    ],
)
async def test_any_json_answer_passes_through(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, answer: Any
) -> None:
    kn_fakes.operators.tool_responder = lambda seen: answer
    client = await make_kn_client(llm=False)
    status, body, headers = await post(client, ARGUMENTS, headers={"x-trace-id": "t-9"})
    assert status == 200, body
    expected = {"trace_id": "t-9", **answer} if isinstance(answer, dict) else answer
    assert body == expected
    assert headers["x-trace-id"] == "t-9"


async def test_big_integers_pass_both_ways_exactly(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    tool = demo_mcp_tool()
    tool["inputSchema"]["properties"]["serial"] = {"type": "integer"}
    kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)] = tool
    kn_fakes.operators.tool_responder = lambda seen: {"echo": seen.body["parameters"]["serial"]}
    client = await make_kn_client(llm=False)
    raw = json.dumps({**ARGUMENTS, "serial": 2**70}).encode()
    response = await client.post(PATH, data=raw, headers={"Content-Type": "application/json"})
    text = await response.text()
    assert response.status == 200, text
    assert f'"echo":{2**70}' in text
    assert calls(kn_fakes, CALL_PATH)[0].body["parameters"]["serial"] == 2**70


# --- invalid arguments --------------------------------------------------------------------------

INVALID: list[tuple[str, dict[str, Any], list[str]]] = [
    ("missing-required", {"company_id": "c1", "channel": "email"}, ["$: 'message'"]),
    (
        "enum-via-defs",
        {**ARGUMENTS, "channel": "fax"},
        ["$.channel: 'fax' is not one of ['email', 'sms']"],
    ),
    ("nested-required", {**ARGUMENTS, "message": {"body": "x"}}, ["$.message: 'title'"]),
    ("nested-type", {**ARGUMENTS, "message": {"title": 7}}, ["$.message.title: 7 is not of type"]),
    ("max-length", {**ARGUMENTS, "message": {"title": "x" * 81}}, ["$.message.title:"]),
    ("extra-property", {**ARGUMENTS, "cc": "boss"}, ["$: Additional properties"]),
    ("several", {"channel": "fax", "message": {}}, ["$.channel:", "$.message:", "$:"]),
]


@pytest.mark.parametrize(
    ("arguments", "fragments"), [pytest.param(a, f, id=i) for i, a, f in INVALID]
)
async def test_invalid_arguments_are_400_naming_the_path_and_never_forwarded(
    make_kn_client: ClientFactory,
    kn_fakes: KnFakes,
    arguments: dict[str, Any],
    fragments: list[str],
) -> None:
    client = await make_kn_client(llm=False)
    status, body, _ = await post(client, arguments)
    assert status == 400, body
    assert_error_shape(body, "INVALID_ARGUMENTS")
    assert body["_error"].startswith(
        f"arguments break the inputSchema of MCP tool {DEMO_MCP_TOOL!r}"
    )
    for fragment in fragments:
        assert fragment in body["_error"]
    details = body["error"]["details"]
    assert details
    assert all(set(d) == {"path", "message"} and d["path"].startswith("$") for d in details)
    assert calls(kn_fakes, CALL_PATH) == []


async def test_an_empty_body_is_no_arguments(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    tool = {**demo_mcp_tool(), "inputSchema": {"type": "object", "properties": {}}}
    kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)] = tool
    client = await make_kn_client(llm=False)
    status, body, _ = await post(client, b"")
    assert status == 200, body
    assert calls(kn_fakes, CALL_PATH)[0].body == {"tool_name": DEMO_MCP_TOOL, "parameters": {}}
    # With the demo schema, nothing is not enough.
    kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)] = demo_mcp_tool()
    client = await make_kn_client(llm=False)
    status, body, _ = await post(client, b"")
    assert status == 400, body
    assert "'company_id' is a required property" in body["_error"]


@pytest.mark.parametrize(
    ("raw", "code", "fragment"),
    [
        pytest.param(b"[1, 2]", "BAD_REQUEST", "not an array", id="array"),
        pytest.param(b'"x"', "BAD_REQUEST", "not a string", id="string"),
        pytest.param(b"null", "BAD_REQUEST", "not null", id="null"),
        pytest.param(b"true", "BAD_REQUEST", "not a boolean", id="boolean"),
        pytest.param(b"5", "BAD_REQUEST", "not a number", id="number"),
        pytest.param(b"{nope", "INVALID_JSON", "not valid JSON", id="invalid-json"),
    ],
)
async def test_a_body_that_is_not_an_object_is_400(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, raw: bytes, code: str, fragment: str
) -> None:
    client = await make_kn_client(llm=False)
    status, body, _ = await post(client, raw)
    assert status == 400, body
    assert_error_shape(body, code)
    assert fragment in body["_error"]
    assert kn_fakes.operators.calls == []


async def test_a_dot_segment_id_is_400(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> None:
    client = await make_kn_client(llm=False)
    raw = f"/api/agent-retrieval/in/v1/mcp/proxy/%2E%2E/tools/{DEMO_MCP_TOOL}/call"
    # encoded=True: the client would otherwise resolve the dot segment before sending.
    url = URL(str(client.make_url("/")).rstrip("/") + raw, encoded=True)
    async with client.session.post(url, json=ARGUMENTS) as response:
        status, body = response.status, await response.json()
    assert status == 400, body
    assert "mcp_id" in body["_error"]
    assert kn_fakes.operators.calls == []


async def test_ids_are_escaped_upstream(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> None:
    mcp_id, tool_name = "srv 1", "send?notice"
    kn_fakes.operators.mcp_tools[(mcp_id, tool_name)] = {**demo_mcp_tool(), "name": tool_name}
    client = await make_kn_client(llm=False)
    path = "/api/agent-retrieval/in/v1/mcp/proxy/srv%201/tools/send%3Fnotice/call"
    status, body, _ = await post(client, ARGUMENTS, path)
    assert status == 200, body
    listing, call = kn_fakes.operators.calls
    assert listing.path.endswith("/mcp/proxy/srv%201/tools")
    assert call.path.endswith("/mcp/proxy/srv%201/tool/call")
    assert call.body["tool_name"] == tool_name


async def test_an_unusable_input_schema_is_502(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    tool = {**demo_mcp_tool(), "inputSchema": {"type": "object", "properties": {"a": {"type": 5}}}}
    kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)] = tool
    client = await make_kn_client(llm=False)
    status, body, _ = await post(client, {"a": 1})
    assert status == 502, body
    assert_error_shape(body, "SCHEMA_CONVERSION_ERROR")
    assert calls(kn_fakes, CALL_PATH) == []


# --- upstream answers ---------------------------------------------------------------------------


async def test_unknown_tool_is_404_and_nothing_is_called(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.operators.mcp_tools.clear()
    client = await make_kn_client(llm=False)
    status, body, _ = await post(client, ARGUMENTS)
    assert status == 404, body
    assert_error_shape(body, "TOOL_NOT_FOUND")
    assert repr(DEMO_MCP_TOOL) in body["_error"]
    assert calls(kn_fakes, CALL_PATH) == []


async def test_a_404_from_the_call_is_tool_not_found(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.operators.fail(Fault(status=404, message="tool removed", path_contains="/call"))
    client = await make_kn_client(llm=False)
    status, body, _ = await post(client, ARGUMENTS)
    assert status == 404, body
    assert_error_shape(body, "TOOL_NOT_FOUND")
    assert "tool removed" in body["_error"]


@pytest.mark.parametrize("upstream_status", [400, 403, 409, 429])
async def test_a_4xx_from_the_call_passes_through_with_its_message(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, upstream_status: int
) -> None:
    kn_fakes.operators.fail(
        Fault(
            status=upstream_status,
            message="quota\nexceeded",
            code="MCP.Quota",
            path_contains="/call",
        )
    )
    client = await make_kn_client(llm=False)
    status, body, _ = await post(client, ARGUMENTS)
    assert status == upstream_status, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["_error"] == (
        f"agent-operator-integration answered HTTP {upstream_status}: quota exceeded"
    )
    assert body["error"]["details"]["upstream_code"] == "MCP.Quota"
    assert len(calls(kn_fakes, CALL_PATH)) == 1


@pytest.mark.parametrize(
    ("fault", "fragment"),
    [
        pytest.param(Fault(status=500, message="crash at db.go:12"), "HTTP 500", id="500"),
        pytest.param(Fault(status=502, body=b"<html>secret</html>"), "HTTP 502", id="html-502"),
        pytest.param(Fault(status=200, body=b"plain text"), "not JSON", id="200-not-json"),
        pytest.param(Fault(hang=True), "did not answer in time", id="timeout"),
    ],
)
async def test_a_failed_call_is_502_and_never_retried(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fault: Fault, fragment: str
) -> None:
    fault.path_contains = "/call"
    kn_fakes.operators.fail(fault)
    client = await make_kn_client(llm=False, mcp_call_timeout_s=0.3)
    status, body, _ = await post(client, ARGUMENTS)
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["_error"].startswith("agent-operator-integration")
    assert fragment in body["_error"]
    text = orjson.dumps(body).decode()
    assert "secret" not in text
    assert "db.go" not in text  # a 5xx is its status only (docs/api.md)
    assert len(calls(kn_fakes, CALL_PATH)) == 1


async def test_the_call_timeout_is_its_own(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    # A tool run may take longer than a lookup: the session timeout does not cut it short.
    kn_fakes.operators.fail(Fault(status=200, delay_s=0.5, path_contains="/call"))
    client = await make_kn_client(llm=False, upstream_timeout_s=0.2, mcp_call_timeout_s=5)
    status, body, _ = await post(client, ARGUMENTS)
    assert status == 200, body


@pytest.mark.parametrize("how", ["down", "detail-503"])
async def test_operator_integration_down_is_502(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, how: str
) -> None:
    overrides: dict[str, Any] = {}
    if how == "down":
        overrides["operator_integration_url"] = CLOSED_PORT_URL
    else:
        kn_fakes.operators.fail(Fault(status=503, message="busy"))
    client = await make_kn_client(llm=False, **overrides)
    status, body, _ = await post(client, ARGUMENTS)
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["error"]["details"]["service"] == "agent-operator-integration"
    assert calls(kn_fakes, CALL_PATH) == []
    if how == "detail-503":
        # A failure is not cached: the next call fetches the schema again and succeeds.
        assert (await post(client, ARGUMENTS))[0] == 200
        assert len(calls(kn_fakes, DETAIL_PATH)) == 2


async def test_unconfigured_operator_integration_is_503(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False, operator_integration_url=None)
    status, body, _ = await post(client, ARGUMENTS)
    assert status == 503, body
    assert_error_shape(body, "NOT_CONFIGURED")
    assert "RESOLVER_OPERATOR_INTEGRATION_URL" in body["_error"]
    assert kn_fakes.operators.calls == []


# --- operations -------------------------------------------------------------------------------


async def test_openapi_and_metrics_know_the_proxy(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False)
    route = "/api/agent-retrieval/in/v1/mcp/proxy/{mcp_id}/tools/{tool_name}/call"
    doc = await (await client.get("/openapi.json")).json()
    operation = doc["paths"][route]["post"]
    assert [p["name"] for p in operation["parameters"]] == [
        "mcp_id",
        "tool_name",
        "response_format",
        "Accept-Language",
    ]
    assert {"200", "400", "404", "502", "503"} <= set(operation["responses"])
    assert (await post(client, ARGUMENTS))[0] == 200
    text = await (await client.get("/metrics")).text()
    # One label for every tool: the route pattern, never the ids.
    assert f'route="{route}",status="200"' in text
    assert DEMO_MCP_ID not in text
