"""Upstream-supplied regexes (issue 21, item 2): the MCP proxy checks `pattern` and
`patternProperties` in linear time and refuses what it cannot check so; over real sockets."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from resolver.testing.bombs import REDOS_PATTERN, redos_subject
from resolver.testing.fake_upstreams import DEMO_MCP_ID, DEMO_MCP_TOOL, add_demo_actions
from tests.helpers import ClientFactory, KnFakes, assert_error_shape, worst_healthz

PATH = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
MAX_STALL_S = 0.25
# 26 a's and a b held the old code's event loop for 2.3 s; each one more doubles it.
SUBJECT_LENGTH = 26


def _tool_schema(kn_fakes: KnFakes, schema: dict[str, Any]) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)]["inputSchema"] = schema


async def _call(client: Any, arguments: Any) -> tuple[int, dict[str, Any], float]:
    answers: list[tuple[int, dict[str, Any]]] = []

    async def call() -> None:
        response = await client.post(
            PATH, data=orjson.dumps(arguments), headers={"Content-Type": "application/json"}
        )
        answers.append((response.status, orjson.loads(await response.read())))

    stall = await worst_healthz(client, call())
    return *answers[0], stall


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"name": {"type": "string", "pattern": REDOS_PATTERN}}},
        {
            "type": "object",
            "patternProperties": {REDOS_PATTERN: {"type": "string"}},
            "additionalProperties": False,
        },
    ],
    ids=["pattern", "patternProperties"],
)
async def test_a_backtracking_pattern_is_checked_in_linear_time(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, schema: dict[str, Any]
) -> None:
    _tool_schema(kn_fakes, schema)
    client = await make_kn_client(llm=False)
    subject = redos_subject(SUBJECT_LENGTH)
    arguments = {"name": subject} if "properties" in schema else {subject: "x"}
    status, body, stall = await _call(client, arguments)
    assert status == 400, body
    assert_error_shape(body, "INVALID_ARGUMENTS")
    assert stall < MAX_STALL_S


async def test_matching_arguments_still_pass(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    _tool_schema(
        kn_fakes,
        {"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}}},
    )
    client = await make_kn_client(llm=False)
    status, body, _ = await _call(client, {"code": "ABC"})
    assert status == 200, body
    status, body, _ = await _call(client, {"code": "abcd"})
    assert status == 400, body


@pytest.mark.parametrize(
    "pattern", [r"^(a+)\1$", r"^(?=.*[A-Z]).+$"], ids=["backreference", "lookahead"]
)
async def test_a_pattern_without_a_linear_check_is_refused_before_any_call(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, pattern: str
) -> None:
    _tool_schema(
        kn_fakes, {"type": "object", "properties": {"v": {"type": "string", "pattern": pattern}}}
    )
    client = await make_kn_client(llm=False)
    status, body, _ = await _call(client, {"v": "aa"})
    assert status == 502, body
    assert_error_shape(body, "SCHEMA_CONVERSION_ERROR")
    assert body["error"]["details"]["pointer"] == "#/properties/v/pattern"
    assert not [c for c in kn_fakes.operators.calls if c.path.endswith("/tool/call")]
