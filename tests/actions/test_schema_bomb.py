"""A tool schema whose `$ref`s multiply (issue 21, item 1): the converted schema is bounded by
a node budget, and converting it never stalls the event loop; over real sockets."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from resolver.testing.bombs import schema_bomb
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    add_demo_actions,
)
from resolver.toolschema import mcp_parameters, openapi_parameters
from tests.helpers import ClientFactory, KnFakes, operator, request_body, worst_healthz

RECALL = "/api/agent-retrieval/in/v1/kn/get_action_info"
# What the event loop may stall while a bomb is converted; the old code stalled for seconds.
# Generous for a shared 2-core machine: the loop itself never runs the conversion now.
MAX_STALL_S = 0.25
# The converter's node budget (toolschema.MAX_CONVERTED_NODES), written out: the test states
# the contract, whatever the constant is called.
MAX_NODES = 20_000


def _nodes(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + sum(_nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_nodes(v) for v in value)
    return 1


def test_a_bomb_converts_to_a_bounded_schema() -> None:
    parameters = mcp_parameters(schema_bomb())
    assert _nodes(parameters) < MAX_NODES
    assert len(orjson.dumps(parameters)) < 1 << 20
    # Pruned references are still valid function parameters: objects with a type.
    assert parameters["properties"]["a0"]["type"] == "object"


def _openapi_bomb(parameters: int) -> dict[str, Any]:
    """An OpenAPI operation whose query parameters and body all refer to one bomb."""
    definitions = schema_bomb()["$defs"]
    for definition in definitions.values():
        for sub in definition["properties"].values():
            sub["$ref"] = sub["$ref"].replace("#/$defs/", "#/components/schemas/")
    return {
        "parameters": [
            {"name": f"q{i}", "in": "query", "schema": {"$ref": "#/components/schemas/d0"}}
            for i in range(parameters)
        ],
        "requestBody": {
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/d1"}}}
        },
        "components": {"schemas": definitions},
    }


def test_one_budget_spans_every_parameter_of_an_operation() -> None:
    assert _nodes(openapi_parameters(_openapi_bomb(40))) < MAX_NODES


@pytest.fixture
def bomb_tool(kn_fakes: KnFakes) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    tool = kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)]
    tool["inputSchema"] = schema_bomb()


@pytest.mark.usefixtures("bomb_tool")
async def test_recalling_a_bomb_answers_small_and_the_loop_keeps_serving(
    make_kn_client: ClientFactory,
) -> None:
    client = await make_kn_client(llm=False, public_url="https://resolver.example.com")
    body = {"kn_id": DEMO_KN, "at_id": DEMO_MCP_AT, "unique_identity": {"company_id": "c1"}}
    answers: list[tuple[int, bytes]] = []

    async def recall() -> None:
        response = await client.post(RECALL, json=body)
        answers.append((response.status, await response.read()))

    stall = await worst_healthz(client, recall())
    status, raw = answers[0]
    assert status == 200, raw[:300]
    assert len(raw) < 2 << 20  # the old code answered tens of MB
    assert stall < MAX_STALL_S


async def test_an_operator_schema_bomb_does_not_stall_dynamic_params(
    make_client: ClientFactory,
) -> None:
    client = await make_client(llm=False)
    document = _openapi_bomb(8)
    payload = request_body(
        operator("score", ("p0", "object")),
        query="算一下",
        dynamic_params={"score": {"p0": {}}},
        additional_context={f"q{i}": "x" for i in range(8)},
        operator_schemas={"score": document},
    )
    answers: list[int] = []

    async def resolve() -> None:
        # A fresh account each time misses every per-account cache (the attack).
        for account in range(3):
            response = await client.post(
                "/v1/dynamic-params", json=payload, headers={"x-account-id": f"a{account}"}
            )
            await response.read()
            answers.append(response.status)

    stall = await worst_healthz(client, resolve())
    assert answers == [200, 200, 200]
    assert stall < MAX_STALL_S
