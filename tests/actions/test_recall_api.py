"""Action recall (SPEC §8) against fake ontology-query and agent-operator-integration servers."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import jsonschema
import orjson
import pytest
from pydantic import ValidationError

from resolver.core.settings import Settings
from resolver.testing.fake_upstreams import (
    DEMO_BOX_ID,
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    DEMO_TOOL_AT,
    DEMO_TOOL_ID,
    Fault,
    add_demo_actions,
    demo_mcp_tool,
    demo_tool,
    demo_tool_actions,
)
from tests.actions_checks import assert_function_parameters
from tests.helpers import ClientFactory, KnFakes, assert_error_shape

PATH = "/api/agent-retrieval/in/v1/kn/get_action_info"
PUBLIC_PATH = "/api/agent-retrieval/v1/kn/get_action_info"
PUBLIC_URL = "https://resolver.example.com/base"
IDENTITY = {"company_id": "company_000001"}
CLOSED_PORT_URL = "http://127.0.0.1:9"
TOOL_PATH = (
    f"/api/agent-operator-integration/internal-v1/tool-box/{DEMO_BOX_ID}/tool/{DEMO_TOOL_ID}"
)
MCP_TOOL_PATH = f"/api/agent-operator-integration/internal-v1/mcp/proxy/{DEMO_MCP_ID}/tools"
# The service as configured to listen on every interface (the test client still listens on
# loopback): the browser guard then leaves the Host to a proxy, and public_url() decides.
ANY_INTERFACE = "0.0.0.0"


@pytest.fixture(autouse=True)
def _demo_actions(kn_fakes: KnFakes) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)


def recall_body(at_id: str = DEMO_TOOL_AT, **fields: Any) -> dict[str, Any]:
    """A recall request for the demo company."""
    body: dict[str, Any] = {"kn_id": DEMO_KN, "at_id": at_id, "unique_identity": IDENTITY}
    body.update(fields)
    return body


async def post(
    client: Any, body: dict[str, Any], path: str = PATH, **kwargs: Any
) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json", **kwargs.pop("headers", {})}
    response = await client.post(path, data=orjson.dumps(body), headers=headers, **kwargs)
    payload = orjson.loads(await response.read())
    return response.status, payload


def action_calls(kn_fakes: KnFakes) -> list[Any]:
    return [c for c in kn_fakes.values.calls if "/action-types/" in c.path]


def no_calls(kn_fakes: KnFakes) -> bool:
    return not (kn_fakes.values.calls or kn_fakes.operators.calls)


# --- tool-box tools -----------------------------------------------------------------------------


async def test_tool_recall_builds_the_function_tool(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False, public_url=PUBLIC_URL)
    status, body = await post(client, recall_body())
    assert status == 200, body
    assert body["trace_id"]
    (tool,) = body["_dynamic_tools"]
    assert set(tool) == {
        "name",
        "description",
        "parameters",
        "api_url",
        "original_schema",
        "fixed_params",
        "output_schema",
    }
    assert tool["name"] == "assess_company_risk"
    assert tool["description"] == "评估企业经营风险"
    # The tool-box proxy of the configured agent-operator-integration, not RESOLVER_PUBLIC_URL.
    assert tool["api_url"] == (
        f"{kn_fakes.operators.url}/api/agent-operator-integration/internal-v1"
        f"/tool-box/{DEMO_BOX_ID}/proxy/{DEMO_TOOL_ID}"
    )
    assert tool["original_schema"] == demo_tool()["api_spec"]
    # Fixed values by the api_spec's `in`; dynamic_params are never copied.
    assert tool["fixed_params"] == {
        "header": {"x-account-type": "user"},
        "path": {"company_id": "company_000001"},
        "query": {"lang": "zh-CN"},
        "body": {},
    }
    parameters = tool["parameters"]
    assert_function_parameters(parameters)
    assert list(parameters["properties"]) == [
        "company_id",
        "lang",
        "x-account-type",
        "dimensions",
        "window_days",
    ]
    assert parameters["properties"]["dimensions"]["items"] == {
        "type": "string",
        "enum": ["legal", "finance", "operation"],
    }
    # company_id and x-account-type are fixed, so only the body's own requirement is left.
    assert parameters["required"] == ["dimensions"]
    assert "$ref" not in json.dumps(parameters)


async def test_upstream_calls_carry_the_identity_and_caller_headers(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    headers = {
        "x-account-id": "user-42",
        "x-account-type": "user",
        "x-trace-id": "trace-abc",
        "traceparent": parent,
    }
    status, body = await post(client, recall_body(), headers=headers)
    assert status == 200, body
    assert body["trace_id"] == "trace-abc"
    (query,) = kn_fakes.values.calls
    assert query.method == "POST"
    assert query.path == (
        f"/api/ontology-query/in/v1/knowledge-networks/{DEMO_KN}/action-types/{DEMO_TOOL_AT}"
    )
    assert query.body == {"unique_identities": [IDENTITY]}
    (detail,) = kn_fakes.operators.calls
    assert (detail.method, detail.path) == ("GET", TOOL_PATH)
    for call in (query, detail):
        assert call.headers["x-account-id"] == "user-42"
        assert call.headers["x-account-type"] == "user"
        assert call.headers["x-trace-id"] == "trace-abc"
        assert call.headers["traceparent"] == parent


async def test_public_path_serves_the_same(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False)
    private = await post(client, recall_body(), headers={"x-trace-id": "t1"})
    public = await post(client, recall_body(), PUBLIC_PATH, headers={"x-trace-id": "t1"})
    assert public[0] == private[0] == 200
    # Each answer's headers name a span of its own request.
    assert public[1].pop("headers") != private[1].pop("headers")
    assert public == private


async def test_only_the_first_action_counts(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    answer = demo_tool_actions()
    answer["actions"].append({"parameters": {"lang": "en-US", "extra": 1}, "dynamic_params": {}})
    kn_fakes.values.action_types[(DEMO_KN, DEMO_TOOL_AT)] = answer
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body())
    assert status == 200, body
    assert len(body["_dynamic_tools"]) == 1
    assert body["_dynamic_tools"][0]["fixed_params"]["query"] == {"lang": "zh-CN"}
    assert "extra" not in json.dumps(body["_dynamic_tools"][0]["fixed_params"])


async def test_tool_detail_with_api_spec_as_a_json_string(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    detail = demo_tool()
    detail["api_spec"] = json.dumps(detail["api_spec"], ensure_ascii=False)
    kn_fakes.operators.tools[(DEMO_BOX_ID, DEMO_TOOL_ID)] = detail
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body())
    assert status == 200, body
    assert body["_dynamic_tools"][0]["original_schema"] == demo_tool()["api_spec"]


async def test_a_tool_name_that_is_not_a_function_name_is_slugged(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    detail = {**demo_tool(), "name": "评估 风险"}
    kn_fakes.operators.tools[(DEMO_BOX_ID, DEMO_TOOL_ID)] = detail
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body())
    assert status == 200, body
    tool = body["_dynamic_tools"][0]
    assert tool["name"] == DEMO_TOOL_ID
    assert tool["description"] == "评估 风险: 评估企业经营风险"


async def test_numeric_ids_and_null_fields_from_go_services_are_read(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    answer = {
        "actions": [{"parameters": None, "dynamic_params": None}],
        "action_source": {"type": "tool", "box_id": 7, "tool_id": 8, "mcp_id": None},
    }
    kn_fakes.values.action_types[(DEMO_KN, "at_numeric")] = answer
    kn_fakes.operators.tools[("7", "8")] = {**demo_tool(), "name": None, "description": None}
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body("at_numeric"))
    assert status == 200, body
    tool = body["_dynamic_tools"][0]
    assert tool["api_url"].endswith("/tool-box/7/proxy/8")
    # No name: the function is named after the tool id.
    assert tool["name"] == "8"
    assert tool["description"] == ""
    assert tool["fixed_params"] == {"header": {}, "path": {}, "query": {}, "body": {}}


# --- MCP tools ----------------------------------------------------------------------------------


async def test_mcp_recall_points_at_our_proxy(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False, public_url=PUBLIC_URL)
    status, body = await post(client, recall_body(DEMO_MCP_AT))
    assert status == 200, body
    (tool,) = body["_dynamic_tools"]
    assert tool["name"] == DEMO_MCP_TOOL
    assert tool["description"] == "通知企业负责人"
    assert tool["api_url"] == (
        f"{PUBLIC_URL}/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
    )
    # MCP fixed values are flat, all in body.
    assert tool["fixed_params"] == {
        "header": {},
        "path": {},
        "query": {},
        "body": {"company_id": "company_000001", "channel": "email"},
    }
    assert tool["original_schema"] == demo_mcp_tool()["inputSchema"]
    parameters = tool["parameters"]
    assert_function_parameters(parameters)
    assert "$defs" not in parameters
    assert parameters["properties"]["channel"] == {"type": "string", "enum": ["email", "sms"]}
    assert parameters["properties"]["message"]["required"] == ["title"]
    assert parameters["required"] == ["message"]
    (detail,) = kn_fakes.operators.calls
    assert (detail.method, detail.path) == ("GET", MCP_TOOL_PATH)


async def test_mcp_api_url_from_a_host_in_allowed_hosts(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False, allowed_hosts="other.example, Resolver.Internal:8080")
    headers = {"Host": "resolver.INTERNAL:8080"}
    status, body = await post(client, recall_body(DEMO_MCP_AT), headers=headers)
    assert status == 200, body
    assert body["_dynamic_tools"][0]["api_url"] == (
        "http://resolver.internal:8080/api/agent-retrieval/in/v1/mcp/proxy/"
        f"{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
    )


async def test_without_public_url_or_allowed_hosts_mcp_recall_is_503_naming_them(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    # Once the caller's Host became the agent's URL: a caller could point the agent's tool
    # calls at any server. Now no URL is ever built from an unchecked Host. (Listening on
    # all interfaces: on loopback the browser guard refuses a foreign Host first.)
    client = await make_kn_client(llm=False, host=ANY_INTERFACE)
    status, body = await post(
        client, recall_body(DEMO_MCP_AT), headers={"Host": "attacker.example"}
    )
    assert status == 503, body
    assert_error_shape(body, "NOT_CONFIGURED")
    assert "RESOLVER_PUBLIC_URL" in body["_error"]
    assert "RESOLVER_ALLOWED_HOSTS" in body["_error"]
    assert "attacker" not in orjson.dumps(body).decode()
    assert kn_fakes.operators.calls == []
    status, body = await post(client, recall_body(), headers={"Host": "attacker.example"})
    assert status == 200, body  # a tool-box tool never needs this service's URL


@pytest.mark.parametrize(
    ("settings", "warned"),
    [
        pytest.param({}, True, id="neither"),
        pytest.param({"public_url": PUBLIC_URL}, False, id="public-url"),
        pytest.param({"allowed_hosts": "resolver.internal"}, False, id="allowed-hosts"),
    ],
)
async def test_start_up_warns_when_mcp_api_urls_cannot_be_formed(
    make_kn_client: ClientFactory,
    capsys: pytest.CaptureFixture[str],
    settings: dict[str, str],
    warned: bool,
) -> None:
    capsys.readouterr()
    await make_kn_client(llm=False, **settings)
    assert ("resolver.public_url_unset" in capsys.readouterr().out) is warned


@pytest.mark.parametrize(
    "host",
    ["attacker.example", "allowed.example:81", "allowed.example.", "a b", "h/p", "évil.example"],
)
async def test_a_host_not_in_allowed_hosts_is_503_for_mcp_only(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, host: str
) -> None:
    client = await make_kn_client(llm=False, allowed_hosts="allowed.example:80", host=ANY_INTERFACE)
    status, body = await post(client, recall_body(DEMO_MCP_AT), headers={"Host": host})
    assert status == 503, body
    assert_error_shape(body, "NOT_CONFIGURED")
    assert "RESOLVER_ALLOWED_HOSTS" in body["_error"]
    assert kn_fakes.operators.calls == []
    # A tool-box tool never needs this service's URL.
    status, body = await post(client, recall_body(), headers={"Host": host})
    assert status == 200, body
    # With RESOLVER_PUBLIC_URL set, the Host header does not matter.
    client = await make_kn_client(llm=False, public_url=PUBLIC_URL, host=ANY_INTERFACE)
    status, body = await post(client, recall_body(DEMO_MCP_AT), headers={"Host": host})
    assert status == 200, body
    assert body["_dynamic_tools"][0]["api_url"].startswith(PUBLIC_URL + "/api/")


async def test_an_absolute_request_line_cannot_choose_the_host(
    make_kn_client: ClientFactory,
) -> None:
    client = await make_kn_client(llm=False, allowed_hosts="allowed.example", host=ANY_INTERFACE)
    reader, writer = await asyncio.open_connection("127.0.0.1", client.port)
    body = orjson.dumps(recall_body(DEMO_MCP_AT))
    writer.write(
        b"POST http://attacker.example" + PATH.encode() + b" HTTP/1.1\r\n"
        b"Host: allowed.example\r\nContent-Type: application/json\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\nConnection: close\r\n\r\n"
        + body
    )
    answer = await reader.read()
    writer.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    # aiohttp takes the host of an absolute request line over the Host header (RFC 9112
    # §3.2.2); that host is not allowed, so no URL is built from it.
    assert head.startswith(b"HTTP/1.1 503"), answer[:300]
    assert_error_shape(orjson.loads(payload), "NOT_CONFIGURED")
    assert b"api_url" not in payload


async def test_mcp_ids_are_escaped_in_the_api_url_and_upstream(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    mcp_id, tool_name = "srv/1", "send notice?"
    answer = {
        "actions": [{"parameters": {}}],
        "action_source": {"type": "mcp", "mcp_id": mcp_id, "tool_name": tool_name},
    }
    kn_fakes.values.action_types[(DEMO_KN, "at_odd")] = answer
    kn_fakes.operators.mcp_tools[(mcp_id, tool_name)] = {**demo_mcp_tool(), "name": tool_name}
    client = await make_kn_client(llm=False, public_url=PUBLIC_URL)
    status, body = await post(client, recall_body("at_odd"))
    assert status == 200, body
    tool = body["_dynamic_tools"][0]
    assert tool["api_url"].endswith("/mcp/proxy/srv%2F1/tools/send%20notice%3F/call")
    assert tool["name"] == "send_notice"
    assert kn_fakes.operators.calls[0].path.endswith("/mcp/proxy/srv%2F1/tools")


# --- nothing to recall --------------------------------------------------------------------------

EMPTY_ANSWERS: list[tuple[str, Any]] = [
    ("empty-actions", {"actions": [], "action_source": {"type": "tool", "box_id": "b"}}),
    ("null-actions", {"actions": None, "action_source": {"type": "tool", "box_id": "b"}}),
    ("no-actions-key", {"action_source": {"type": "mcp", "mcp_id": "m"}}),
    ("null-source", {"actions": [{"parameters": {}}], "action_source": None}),
    ("no-source", {"actions": [{"parameters": {}}]}),
    ("empty-source", {"actions": [{"parameters": {}}], "action_source": {}}),
    ("unsupported-but-no-actions", {"actions": [], "action_source": {"type": "workflow"}}),
]


@pytest.mark.parametrize("answer", [pytest.param(a, id=i) for i, a in EMPTY_ANSWERS])
async def test_no_action_or_no_source_is_an_empty_list(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, answer: Any
) -> None:
    kn_fakes.values.action_types[(DEMO_KN, "at_empty")] = answer
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body("at_empty"))
    assert status == 200, body
    assert body["_dynamic_tools"] == []
    assert body["trace_id"]
    assert kn_fakes.operators.calls == []


@pytest.mark.parametrize("source_type", ["workflow", "", "function"])
async def test_unsupported_source_type_is_400(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, source_type: str
) -> None:
    answer = {
        "actions": [{"parameters": {}}],
        "action_source": {"type": source_type, "box_id": "b", "tool_id": "t"},
    }
    kn_fakes.values.action_types[(DEMO_KN, "at_other")] = answer
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body("at_other"))
    assert status == 400, body
    assert_error_shape(body, "UNSUPPORTED_ACTION_TYPE")
    assert f"{source_type!r} source" in body["_error"]
    assert body["error"]["details"]["action_source"]["type"] == source_type
    assert kn_fakes.operators.calls == []


async def test_source_type_is_read_case_insensitively(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    answer = demo_tool_actions()
    answer["action_source"]["type"] = " Tool "
    kn_fakes.values.action_types[(DEMO_KN, DEMO_TOOL_AT)] = answer
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body())
    assert status == 200, body
    assert len(body["_dynamic_tools"]) == 1


# --- identities -------------------------------------------------------------------------------

IDENTITY_CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("unique-identity", {"unique_identity": {"company_id": "c1"}}, {"company_id": "c1"}),
    (
        "instance-identities",
        {"unique_identity": None, "_instance_identities": [{"company_id": "c2"}]},
        {"company_id": "c2"},
    ),
    (
        "list-wins-over-single",
        {"unique_identity": {"company_id": "c1"}, "_instance_identities": [{"company_id": "c2"}]},
        {"company_id": "c2"},
    ),
    (
        "empty-maps-dropped",
        {"unique_identity": None, "_instance_identities": [{}, {"company_id": "c3"}, {"x": 1}]},
        {"company_id": "c3"},
    ),
    (
        "all-empty-list-falls-back",
        {"unique_identity": {"company_id": "c1"}, "_instance_identities": [{}, {}]},
        {"company_id": "c1"},
    ),
    (
        "alias-unique-identities",
        {"unique_identity": None, "unique_identities": [{"company_id": "c4"}]},
        {"company_id": "c4"},
    ),
    (
        "alias-instance-identity",
        {"unique_identity": None, "_instance_identity": {"company_id": "c5"}},
        {"company_id": "c5"},
    ),
    (
        "big-integers-exact",
        {"unique_identity": {"company_id": 1234567890123456789, "shard": 2**70}},
        {"company_id": 1234567890123456789, "shard": 2**70},
    ),
]


@pytest.mark.parametrize(
    ("fields", "sent"), [pytest.param(f, s, id=i) for i, f, s in IDENTITY_CASES]
)
async def test_which_identity_is_sent(
    make_kn_client: ClientFactory,
    kn_fakes: KnFakes,
    fields: dict[str, Any],
    sent: dict[str, Any],
) -> None:
    body = recall_body()
    for key, value in fields.items():
        if value is None:
            body.pop(key)
        else:
            body[key] = value
    client = await make_kn_client(llm=False)
    response = await client.post(
        PATH, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    assert response.status == 200, await response.text()
    assert action_calls(kn_fakes)[0].body == {"unique_identities": [sent]}


async def test_big_integers_in_fixed_values_come_back_exactly(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    answer = demo_tool_actions()
    answer["actions"][0]["parameters"]["company_id"] = 1234567890123456789
    answer["actions"][0]["parameters"]["serial"] = 2**70
    kn_fakes.values.action_types[(DEMO_KN, DEMO_TOOL_AT)] = answer
    client = await make_kn_client(llm=False)
    response = await client.post(PATH, json=recall_body())
    text = await response.text()
    assert response.status == 200, text
    assert '"company_id":1234567890123456789' in text
    assert f'"serial":{2**70}' in text


BAD_REQUESTS: list[tuple[str, dict[str, Any], str]] = [
    ("no-kn-id", {"kn_id": None}, "kn_id"),
    ("blank-at-id", {"at_id": "  "}, "at_id"),
    ("dot-at-id", {"at_id": ".."}, "at_id"),
    ("at-id-not-string", {"at_id": 7}, "at_id"),
    ("no-identity", {"unique_identity": None}, "unique_identity or _instance_identities"),
    ("empty-identity", {"unique_identity": {}}, "unique_identity or _instance_identities"),
    (
        "only-empty-identities",
        {"unique_identity": None, "_instance_identities": [{}]},
        "unique_identity or _instance_identities",
    ),
    ("identity-not-object", {"unique_identity": "company_000001"}, "unique_identity"),
    ("identities-not-objects", {"_instance_identities": ["c1"]}, "_instance_identities"),
    ("unknown-field", {"at": "x"}, "at"),
]


@pytest.mark.parametrize(
    ("changes", "fragment"), [pytest.param(c, f, id=i) for i, c, f in BAD_REQUESTS]
)
async def test_bad_requests_are_400_before_any_upstream_call(
    make_kn_client: ClientFactory,
    kn_fakes: KnFakes,
    changes: dict[str, Any],
    fragment: str,
) -> None:
    body = recall_body()
    for key, value in changes.items():
        if value is None:
            body.pop(key)
        else:
            body[key] = value
    client = await make_kn_client(llm=False)
    status, payload = await post(client, body)
    assert status == 400, payload
    assert_error_shape(payload, "BAD_REQUEST")
    assert fragment in payload["_error"]
    assert no_calls(kn_fakes)


async def test_invalid_json_is_400(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> None:
    client = await make_kn_client(llm=False)
    response = await client.post(PATH, data=b"{nope", headers={"Content-Type": "application/json"})
    assert response.status == 400
    assert_error_shape(await response.json(), "INVALID_JSON")
    assert no_calls(kn_fakes)


async def test_ids_are_escaped_into_one_path_segment(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body("a/../b?x=1"))
    assert status == 404, body
    assert "/knowledge-networks/kn_pharma/action-types/a%2F..%2Fb%3Fx%3D1" in (
        kn_fakes.values.calls[0].path
    )


# --- not found ----------------------------------------------------------------------------------


async def test_unknown_action_type_is_404(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> None:
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body("at_nope"))
    assert status == 404, body
    assert_error_shape(body, "ACTION_TYPE_NOT_FOUND")
    assert "'at_nope'" in body["_error"]
    assert kn_fakes.operators.calls == []


@pytest.mark.parametrize("at_id", [DEMO_TOOL_AT, DEMO_MCP_AT])
async def test_unknown_tool_is_404(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, at_id: str
) -> None:
    kn_fakes.operators.tools.clear()
    kn_fakes.operators.mcp_tools.clear()
    client = await make_kn_client(llm=False, public_url=PUBLIC_URL)
    status, body = await post(client, recall_body(at_id))
    assert status == 404, body
    assert_error_shape(body, "TOOL_NOT_FOUND")
    assert body["_error"].startswith("agent-operator-integration knows no")
    wanted = DEMO_TOOL_ID if at_id == DEMO_TOOL_AT else DEMO_MCP_TOOL
    assert repr(wanted) in body["_error"]
    assert len(kn_fakes.operators.calls) == 1


# --- upstream failures --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("service", "how"),
    [
        ("ontology-query", "down"),
        ("ontology-query", "500"),
        ("ontology-query", "timeout"),
        ("agent-operator-integration", "down"),
        ("agent-operator-integration", "503"),
        ("agent-operator-integration", "timeout"),
    ],
)
async def test_upstream_down_or_failing_is_502_naming_it(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, service: str, how: str
) -> None:
    fake = kn_fakes.values if service == "ontology-query" else kn_fakes.operators
    overrides: dict[str, Any] = {"upstream_timeout_s": 0.3}
    if how == "down":
        key = "ontology_query_url" if service == "ontology-query" else "operator_integration_url"
        overrides[key] = CLOSED_PORT_URL
    elif how == "timeout":
        fake.fail_always(Fault(hang=True))
    else:
        fake.fail_always(Fault(status=int(how), message="disk full"))
    client = await make_kn_client(llm=False, **overrides)
    status, body = await post(client, recall_body())
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["_error"].startswith(service)
    assert body["error"]["details"]["service"] == service
    if how == "down":
        assert "unreachable" in body["_error"]
    elif how == "timeout":
        assert "did not answer in time" in body["_error"]
        assert len(fake.calls) == 1
    else:
        assert body["_error"] == f"{service} answered HTTP {how}"  # a 5xx: status only
        assert "disk full" not in orjson.dumps(body).decode()
        assert len(fake.calls) == 1  # never retried


async def test_upstream_4xx_passes_through(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.values.fail(Fault(status=403, message="no access to at_assess_risk"))
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body())
    assert status == 403, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["_error"] == "ontology-query answered HTTP 403: no access to at_assess_risk"


UNREADABLE: list[tuple[str, Any, str]] = [
    ("not-an-object", [1, 2], "not a JSON object"),
    ("actions-not-a-list", {"actions": {"a": 1}}, "actions"),
    (
        "tool-without-box-id",
        {"actions": [{}], "action_source": {"type": "tool", "tool_id": "t"}},
        "no usable box_id",
    ),
    (
        "mcp-without-tool-name",
        {"actions": [{}], "action_source": {"type": "mcp", "mcp_id": "m"}},
        "no usable tool_name",
    ),
    (
        "dot-segment-id",
        {"actions": [{}], "action_source": {"type": "tool", "box_id": "..", "tool_id": "t"}},
        "no usable box_id",
    ),
]


@pytest.mark.parametrize(
    ("answer", "fragment"), [pytest.param(a, f, id=i) for i, a, f in UNREADABLE]
)
async def test_unreadable_action_answer_is_502(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, answer: Any, fragment: str
) -> None:
    kn_fakes.values.action_types[(DEMO_KN, "at_odd")] = answer
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body("at_odd"))
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["_error"].startswith("ontology-query answered with actions resolver cannot read")
    assert fragment in body["_error"]
    assert kn_fakes.operators.calls == []


@pytest.mark.parametrize(
    "detail",
    [
        pytest.param(["not", "an", "object"], id="not-an-object"),
        pytest.param({"name": "t", "api_spec": "{oops"}, id="api-spec-string-not-json"),
        pytest.param({"name": "t", "description": 5}, id="description-not-text"),
        pytest.param({"name": "t", "api_spec": [1]}, id="api-spec-not-object"),
    ],
)
async def test_unreadable_tool_detail_is_502(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, detail: Any
) -> None:
    kn_fakes.operators.tools[(DEMO_BOX_ID, DEMO_TOOL_ID)] = detail
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body())
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["error"]["details"]["service"] == "agent-operator-integration"


async def test_schema_that_cannot_be_converted_is_502(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    detail = demo_tool()
    # `lang` is a query parameter and a body property: one name, two locations.
    detail["api_spec"]["components"]["schemas"]["RiskQuery"]["properties"]["lang"] = {
        "type": "string"
    }
    kn_fakes.operators.tools[(DEMO_BOX_ID, DEMO_TOOL_ID)] = detail
    client = await make_kn_client(llm=False)
    status, body = await post(client, recall_body())
    assert status == 502, body
    assert_error_shape(body, "SCHEMA_CONVERSION_ERROR")
    assert "lang" in body["_error"]
    assert body["error"]["details"]["pointer"].startswith("#")


@pytest.mark.parametrize(
    ("setting", "variable"),
    [
        ("ontology_query_url", "RESOLVER_ONTOLOGY_QUERY_URL"),
        ("operator_integration_url", "RESOLVER_OPERATOR_INTEGRATION_URL"),
    ],
)
async def test_unconfigured_upstream_is_503(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, setting: str, variable: str
) -> None:
    client = await make_kn_client(llm=False, **{setting: None})
    status, body = await post(client, recall_body())
    assert status == 503, body
    assert_error_shape(body, "NOT_CONFIGURED")
    assert variable in body["_error"]
    assert no_calls(kn_fakes)


# --- operations -------------------------------------------------------------------------------


async def test_openapi_describes_action_recall(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False)
    doc = await (await client.get("/openapi.json")).json()
    for path in (PATH, PUBLIC_PATH):
        operation = doc["paths"][path]["post"]
        assert operation["requestBody"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ActionInfoRequest"
        }
        assert {"200", "400", "404", "502", "503"} <= set(operation["responses"])
    schemas = doc["components"]["schemas"]
    jsonschema.validate(recall_body(), schemas["ActionInfoRequest"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(recall_body(unknown=1), schemas["ActionInfoRequest"])
    assert "_dynamic_tools" in schemas["ActionInfoResponse"]["properties"]
    assert "fixed_params" in schemas["DynamicTool"]["properties"]


async def test_metrics_label_the_route_and_count_upstream_calls(
    make_kn_client: ClientFactory,
) -> None:
    client = await make_kn_client(llm=False)
    assert (await post(client, recall_body()))[0] == 200
    text = await (await client.get("/metrics")).text()
    assert f'route="{PATH}",status="200"' in text
    for line in (
        'resolver_upstream_calls_total{outcome="ok",service="ontology-query"} 1.0',
        'resolver_upstream_calls_total{outcome="ok",service="agent-operator-integration"} 1.0',
    ):
        assert line in text


def test_allowed_hosts_are_read_as_a_comma_list_of_host_port() -> None:
    settings = Settings(allowed_hosts=" Resolver.Internal:8080, ,other.example ")
    assert settings.allowed_host_set() == {"resolver.internal:8080", "other.example"}
    assert Settings().allowed_host_set() == frozenset()
    for wrong in ("http://resolver.internal", "a b", "host/path"):
        with pytest.raises(ValidationError):
            Settings(allowed_hosts=wrong)
