"""The browser guard covers every route that is not a probe (issue 30, item 2): the HTTP twins
of the MCP tools answered under a rebound `Host` with a foreign `Origin` (DNS rebinding read
pipeline data) and took POSTs without a Content-Type (a web page spent the LLM budget). And
the declared type is read case-insensitively in one place, so both MCP paths (the fast path and
the SDK's) answer `Application/JSON` alike; over real sockets."""

from __future__ import annotations

from typing import Any

import pytest

from resolver.testing.fake_upstreams import DEMO_MCP_ID, DEMO_MCP_TOOL, add_demo_actions
from resolver.web.routes import ROUTES
from tests.helpers import ClientFactory, KnFakes, assert_error_shape, post_as_browser_would
from tests.mcp_checks import initialize_message

TWINS = [
    "/v1/dynamic-params",
    "/v1/time-window",
    "/api/agent-retrieval/in/v1/kn/logic-property-resolver",
    "/api/agent-retrieval/v1/kn/logic-property-resolver",
    "/api/agent-retrieval/in/v1/kn/logic-property-inputs",
    "/api/agent-retrieval/v1/kn/logic-property-inputs",
    "/api/agent-retrieval/in/v1/kn/get_action_info",
    "/api/agent-retrieval/v1/kn/get_action_info",
]
PROBES = ["/healthz", "/readyz", "/metrics", "/openapi.json"]
BODY = {"query": "x"}


@pytest.fixture(autouse=True)
def _demo_actions(kn_fakes: KnFakes) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)


_post = post_as_browser_would


def test_every_route_but_the_probes_is_guarded() -> None:
    unguarded = {path for route in ROUTES if not route.browser_guard for path in route.paths}
    assert unguarded == set(PROBES)
    served = {path for route in ROUTES for path in route.paths}
    assert set(TWINS) <= served


@pytest.mark.parametrize("path", TWINS)
async def test_a_foreign_origin_is_refused(make_kn_client: ClientFactory, path: str) -> None:
    client = await make_kn_client(llm=False)
    status, answer = await _post(
        client, path, BODY, Origin="https://evil.example", **{"Content-Type": "application/json"}
    )
    assert status == 403, answer
    assert_error_shape(answer, "FORBIDDEN")


@pytest.mark.parametrize("path", TWINS)
async def test_a_rebound_host_is_refused(make_kn_client: ClientFactory, path: str) -> None:
    client = await make_kn_client(llm=False)
    status, answer = await _post(
        client,
        path,
        BODY,
        Host="rebound.attacker.example",
        **{"Content-Type": "application/json", "x-account-id": "victim"},
    )
    assert status == 403, answer
    assert_error_shape(answer, "FORBIDDEN")


@pytest.mark.parametrize("path", TWINS)
@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
async def test_a_post_not_declared_json_is_415(
    make_kn_client: ClientFactory, path: str, content_type: str | None
) -> None:
    client = await make_kn_client(llm=False)
    headers = {} if content_type is None else {"Content-Type": content_type}
    status, answer = await _post(client, path, BODY, **headers)
    assert status == 415, answer
    assert_error_shape(answer, "UNSUPPORTED_MEDIA_TYPE")


async def test_the_services_own_page_may_call_it(make_client: ClientFactory) -> None:
    # GET /docs's "try it": the page's origin is the request's own scheme and Host.
    client = await make_client(llm=False)
    assert client.port is not None
    own = f"http://{client.host}:{client.port}"
    body = {"text": "最近3个月", "now_ms": 1762996342241}
    json_type = {"Content-Type": "application/json"}
    status, answer = await _post(client, "/v1/time-window", body, Origin=own, **json_type)
    assert status == 200, answer
    other_port = f"http://{client.host}:{client.port + 1}"
    status, answer = await _post(client, "/v1/time-window", body, Origin=other_port, **json_type)
    assert status == 403, answer


async def test_a_rebound_name_is_not_its_own_origins_alibi(make_client: ClientFactory) -> None:
    # Listening on all interfaces the Host is not checked, so a page at a rebound name sends
    # Origin and Host alike: that is not this service's own page.
    client = await make_client(llm=False, host="0.0.0.0")
    status, answer = await _post(
        client,
        "/v1/time-window",
        {"text": "最近3个月", "now_ms": 1762996342241},
        Origin="http://rebound.attacker.example",
        Host="rebound.attacker.example",
        **{"Content-Type": "application/json"},
    )
    assert status == 403, answer
    assert_error_shape(answer, "FORBIDDEN")


@pytest.mark.parametrize("path", PROBES)
async def test_probes_answer_any_host(make_client: ClientFactory, path: str) -> None:
    client = await make_client(llm=False)
    response = await client.get(
        path, headers={"Origin": "https://evil.example", "Host": "rebound.attacker.example"}
    )
    assert response.status == 200


async def test_the_time_window_is_served_to_agents(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    status, answer = await _post(
        client,
        "/v1/time-window",
        {"text": "最近3个月", "now_ms": 1762996342241},
        **{"Content-Type": "Application/JSON; charset=UTF-8"},
    )
    assert status == 200, answer


def _call(arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "resolve_time_window", "arguments": arguments},
    }


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "sdk"])
@pytest.mark.parametrize("content_type", ["Application/JSON", "APPLICATION/JSON; charset=utf-8"])
async def test_both_mcp_paths_read_the_declared_type_alike(
    make_client: ClientFactory, fast_path: bool, content_type: str
) -> None:
    client = await make_client(llm=False, mcp_fast_path=fast_path)
    status, answer = await _post(
        client, "/mcp", initialize_message(), **{"Content-Type": content_type}
    )
    assert status == 200, answer
    call = _call({"text": "最近3个月", "now_ms": 1762996342241})
    status, answer = await _post(client, "/mcp", call, **{"Content-Type": content_type})
    assert status == 200, answer
    assert answer["result"]["isError"] is False, answer
    status, answer = await _post(client, "/mcp", call, **{"Content-Type": "text/plain"})
    assert status == 415, answer
    assert_error_shape(answer, "UNSUPPORTED_MEDIA_TYPE")


async def test_the_mcp_proxy_reads_the_declared_type_alike(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False)
    path = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
    arguments = {"company_id": "c1", "channel": "email", "message": {"title": "hi"}}
    status, answer = await _post(client, path, arguments, **{"Content-Type": "Application/Json"})
    assert status == 200, answer
