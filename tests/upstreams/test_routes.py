"""The upstream routes of today: bkn-backend for object types (ontology-manager as its alias,
chosen by which URL is set), and operator-integration's MCP proxy — a server's tool list, one
tool picked by name, and `tool/call` with `{"tool_name", "parameters"}`."""

from __future__ import annotations

from typing import Any

import aiohttp
import orjson
import pytest

from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    DEMO_OT,
    FakeBknBackend,
    Fault,
    add_demo_actions,
    demo_mcp_tool,
)
from tests.helpers import NOW_MS, ClientFactory, KnFakes, assert_error_shape

PIPELINE = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
RECALL = "/api/agent-retrieval/in/v1/kn/get_action_info"
PROXY = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
OI = "/api/agent-operator-integration/internal-v1"
ARGUMENTS = {"company_id": "c1", "channel": "email", "message": {"title": "hi"}}


def kn_body() -> dict[str, Any]:
    return {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "当前的获批药品数量",
        "_instance_identities": [{"company_id": "c1"}],
        "properties": ["approved_drug_count"],
        "now_ms": NOW_MS,
        "options": {"return_debug": True},
    }


async def post(client: Any, path: str, body: Any) -> tuple[int, dict[str, Any]]:
    response = await client.post(
        path, data=orjson.dumps(body), headers={"Content-Type": "application/json"}
    )
    return response.status, orjson.loads(await response.read())


# --- bkn-backend and its ontology-manager alias -------------------------------------------


async def test_bkn_backend_is_asked_under_its_own_prefix(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    status, body = await post(client, PIPELINE, kn_body())
    assert status == 200, body
    (call,) = [c for c in kn_fakes.manager.calls if "/object-types/" in c.path]
    assert (
        call.path == f"/api/bkn-backend/in/v1/knowledge-networks/{DEMO_KN}/object-types/{DEMO_OT}"
    )
    assert call.query == {"include_detail": "true"}
    assert "bkn-backend" in body["debug"]["timings_ms"]


async def test_the_ontology_manager_url_alone_uses_the_alias_prefix(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(
        llm=False, bkn_backend_url=None, ontology_manager_url=kn_fakes.manager.url
    )
    status, body = await post(client, PIPELINE, kn_body())
    assert status == 200, body
    (call,) = [c for c in kn_fakes.manager.calls if "/object-types/" in c.path]
    assert call.path.startswith("/api/ontology-manager/in/v1/knowledge-networks/")
    assert "ontology-manager" in body["debug"]["timings_ms"]
    status, body = await post(client, PIPELINE, {**kn_body(), "ot_id": "x"})
    assert status == 404, body


async def test_bkn_backend_wins_when_both_are_set(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, aiohttp_server: Any
) -> None:
    legacy = FakeBknBackend()
    server = await aiohttp_server(legacy.app())
    client = await make_kn_client(
        llm=False, ontology_manager_url=str(server.make_url("/")).rstrip("/")
    )
    status, body = await post(client, PIPELINE, kn_body())
    assert status == 200, body
    assert legacy.calls == []
    assert len([c for c in kn_fakes.manager.calls if "/object-types/" in c.path]) == 1


async def test_neither_is_503_naming_both(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> None:
    client = await make_kn_client(llm=False, bkn_backend_url=None)
    status, body = await post(client, PIPELINE, kn_body())
    assert status == 503, body
    assert_error_shape(body, "NOT_CONFIGURED")
    assert "RESOLVER_BKN_BACKEND_URL" in body["_error"]
    assert "RESOLVER_ONTOLOGY_MANAGER_URL" in body["_error"]
    assert kn_fakes.values.calls == []


# --- MCP: the tool list and tool/call ------------------------------------------------------


@pytest.fixture
def _mcp(kn_fakes: KnFakes) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)


@pytest.mark.usefixtures("_mcp")
async def test_a_tool_is_picked_from_the_list_by_name(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, "other_tool")] = {
        **demo_mcp_tool(),
        "name": "other_tool",
        "description": "not this one",
    }
    client = await make_kn_client(llm=False, public_url="https://r.example.com")
    status, body = await post(
        client, RECALL, {"kn_id": DEMO_KN, "at_id": DEMO_MCP_AT, "unique_identity": {"c": 1}}
    )
    assert status == 200, body
    assert body["_dynamic_tools"][0]["description"] == "通知企业负责人"
    (listing,) = kn_fakes.operators.calls
    assert (listing.method, listing.path) == ("GET", f"{OI}/mcp/proxy/{DEMO_MCP_ID}/tools")


@pytest.mark.usefixtures("_mcp")
@pytest.mark.parametrize("where", ["recall", "proxy"])
async def test_a_tool_not_in_the_list_is_404(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, where: str
) -> None:
    kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, "other_tool")] = {
        **demo_mcp_tool(),
        "name": "other_tool",
    }
    del kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)]
    client = await make_kn_client(llm=False, public_url="https://r.example.com")
    if where == "recall":
        status, body = await post(
            client, RECALL, {"kn_id": DEMO_KN, "at_id": DEMO_MCP_AT, "unique_identity": {"c": 1}}
        )
    else:
        status, body = await post(client, PROXY, ARGUMENTS)
    assert status == 404, body
    assert_error_shape(body, "TOOL_NOT_FOUND")
    assert f"no MCP tool {DEMO_MCP_TOOL!r}" in body["_error"]
    assert "(1 tools listed)" in body["_error"]
    assert not [c for c in kn_fakes.operators.calls if c.method == "POST"]


@pytest.mark.usefixtures("_mcp")
async def test_an_unknown_server_is_404_and_a_list_without_tools_502(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.operators.mcp_tools.clear()
    client = await make_kn_client(llm=False)
    status, body = await post(client, PROXY, ARGUMENTS)
    assert status == 404, body
    assert_error_shape(body, "TOOL_NOT_FOUND")
    assert "mcp server config not found" in body["_error"]
    kn_fakes.operators.fail(Fault(status=200, body=b'{"items": []}'))
    status, body = await post(client, PROXY, ARGUMENTS)
    assert status == 502, body
    assert "there is no tools list" in body["_error"]


@pytest.mark.usefixtures("_mcp")
async def test_the_call_and_its_answer_pass_through(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    answer = {"content": [{"type": "text", "text": "channel down"}], "is_error": True}
    kn_fakes.operators.tool_responder = lambda seen: answer
    client = await make_kn_client(llm=False)
    status, body = await post(client, PROXY, ARGUMENTS)
    assert status == 200, body
    assert body == {**answer, "trace_id": body["trace_id"]}
    call = kn_fakes.operators.calls[-1]
    assert (call.method, call.path) == ("POST", f"{OI}/mcp/proxy/{DEMO_MCP_ID}/tool/call")
    assert call.body == {"tool_name": DEMO_MCP_TOOL, "parameters": ARGUMENTS}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", f"{OI}/mcp/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}"),
        ("POST", f"{OI}/mcp/{DEMO_MCP_ID}/tools/call"),
        ("GET", "/api/ontology-query/in/v1/knowledge-networks/kn/object-types/ot/schema"),
    ],
)
async def test_the_fakes_serve_no_removed_route(kn_fakes: KnFakes, method: str, path: str) -> None:
    # The old MCP routes are gone upstream; a plan the fake was never given is no grant.
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    base = kn_fakes.values.url if "ontology-query" in path else kn_fakes.operators.url
    async with aiohttp.ClientSession() as session, session.request(method, base + path) as r:
        assert r.status == 404
