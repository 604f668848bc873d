"""`X-OpenBKN-Trace-Recorded: false` (SPEC §2.3): resolver records nothing in the platform's
trace, so every answer of a business route says so — 200s and errors, HTTP and the MCP face
(both the fast path and the SDK's) — and no operational route does."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest
from aiohttp.test_utils import TestClient

from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    DEMO_OT,
    DEMO_TOOL_AT,
    add_demo_actions,
)
from resolver.web.routes import BUSINESS_PATHS, ROUTES
from resolver.web.routing import TRACE_RECORDED
from tests.helpers import (
    ClientFactory,
    KnFakes,
    metric,
    metric_value,
    metrics_text,
    request_body,
    rules_pipeline_body,
)
from tests.mcp_checks import ACCEPT, MCP_PATHS, call_message, initialize_message

JSON = {"Content-Type": "application/json"}
PROXY = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
# Every business POST, a body it answers 200 to, and one it refuses.
BUSINESS: dict[str, tuple[str, dict[str, Any], Any]] = {
    "dynamic-params": ("/v1/dynamic-params", request_body(metric()), {"query": 1}),
    "time-window": ("/v1/time-window", {"text": "上个季度"}, {"text": 1}),
    "pipeline": (
        "/api/agent-retrieval/in/v1/kn/logic-property-resolver",
        rules_pipeline_body(),
        {"kn_id": DEMO_KN},
    ),
    "inputs": (
        "/api/agent-retrieval/v1/kn/logic-property-inputs",
        {"kn_id": DEMO_KN, "ot_id": DEMO_OT},
        {"kn_id": 1},
    ),
    "action-info": (
        "/api/agent-retrieval/in/v1/kn/get_action_info",
        {"kn_id": DEMO_KN, "at_id": DEMO_TOOL_AT, "unique_identity": {"company_id": "c1"}},
        {"kn_id": DEMO_KN},
    ),
    "mcp-proxy": (
        PROXY,
        {"company_id": "c1", "channel": "email", "message": {"title": "hi"}},
        [1, 2],
    ),
}


@pytest.fixture
async def client(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> TestClient[Any, Any]:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    return await make_kn_client(llm=False, public_url="https://resolver.example.com")


def test_the_routes_table_marks_exactly_the_business_routes() -> None:
    business = {path for route in ROUTES if route.business for path in route.paths}
    assert business == BUSINESS_PATHS
    assert {path for path, _, _ in BUSINESS.values() if path != PROXY} <= BUSINESS_PATHS
    assert "/api/agent-retrieval/in/v1/mcp/proxy/{mcp_id}/tools/{tool_name}/call" in BUSINESS_PATHS
    assert set(MCP_PATHS) <= BUSINESS_PATHS
    for path in ("/healthz", "/readyz", "/metrics", "/openapi.json", "/mcp/info"):
        assert path not in BUSINESS_PATHS


@pytest.mark.parametrize("route", sorted(BUSINESS))
async def test_every_business_answer_carries_it(client: TestClient[Any, Any], route: str) -> None:
    path, good, bad = BUSINESS[route]
    for body, expected in ((good, 200), (bad, 400)):
        response = await client.post(path, data=orjson.dumps(body), headers=JSON)
        assert response.status == expected, await response.text()
        assert response.headers[TRACE_RECORDED] == "false"
    # Refused before the handler (not JSON): still a business answer.
    response = await client.post(path, data=b"{", headers=JSON)
    assert response.status == 400
    assert response.headers[TRACE_RECORDED] == "false"


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/metrics", "/openapi.json", "/mcp/info"])
async def test_operational_answers_do_not(client: TestClient[Any, Any], path: str) -> None:
    response = await client.get(path)
    assert response.status == 200
    assert TRACE_RECORDED not in response.headers


@pytest.mark.parametrize("fast_path", [True, False])
async def test_the_mcp_face_carries_it_on_both_paths(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fast_path: bool
) -> None:
    client = await make_kn_client(llm=False, mcp_fast_path=fast_path)
    headers = {**JSON, "Accept": ACCEPT, "MCP-Protocol-Version": "2025-06-18"}
    messages = [
        initialize_message(),
        call_message(2, "resolve_dynamic_params", request_body(metric())),
        call_message(3, "resolve_time_window", {"text": 1}),  # a tool error
    ]
    for message in messages:
        response = await client.post("/mcp", data=json.dumps(message), headers=headers)
        assert response.status == 200, await response.text()
        assert response.headers[TRACE_RECORDED] == "false"
    # Both tool calls took the path under test.
    fast = metric_value(await metrics_text(client), "resolver_mcp_posts_total", 'path="fast"')
    assert fast == (2 if fast_path else 0)


async def test_openapi_documents_it_on_business_routes(client: TestClient[Any, Any]) -> None:
    document = await (await client.get("/openapi.json")).json()
    for path, operations in document["paths"].items():
        for operation in operations.values():
            for status, response in operation["responses"].items():
                documented = TRACE_RECORDED in response.get("headers", {})
                assert documented is (path in BUSINESS_PATHS), (path, status)
