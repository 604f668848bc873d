"""The MCP proxy's argument check holds no loop (issue 30, item 1): `uniqueItems` is linear,
the upstream `inputSchema` is checked against its metaschema once per cached document and
off the loop, a call's check has a time bound, and an integer beyond a float's range against
`multipleOf: 0.01` is a 400 naming its path; over real sockets."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from resolver.core.jsonio import dumps
from resolver.testing.fake_upstreams import DEMO_MCP_ID, DEMO_MCP_TOOL, add_demo_actions
from resolver.toolschema import arguments as argument_checks
from tests.helpers import ClientFactory, KnFakes, assert_error_shape, worst_healthz

PATH = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
MAX_STALL_S = 0.25
# 2,000 distinct objects under uniqueItems: seconds of pairwise comparison on the old code.
ITEMS = 2_000
# A schema of ~300 KB: 1–2 s of metaschema check per call on the old code, on the loop.
PROPERTIES = 2_500


def _tool_schema(kn_fakes: KnFakes, schema: dict[str, Any]) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    kn_fakes.operators.mcp_tools[(DEMO_MCP_ID, DEMO_MCP_TOOL)]["inputSchema"] = schema


async def _calls(client: Any, *arguments: Any) -> tuple[list[tuple[int, Any]], float]:
    answers: list[tuple[int, Any]] = []

    async def calls() -> None:
        for each in arguments:
            response = await client.post(
                PATH, data=dumps(each), headers={"Content-Type": "application/json"}
            )
            answers.append((response.status, orjson.loads(await response.read())))

    stall = await worst_healthz(client, calls())
    return answers, stall


def _rows(count: int) -> list[dict[str, Any]]:
    return [
        {"id": index, "tags": ["a", {"k": index % 7}], "ok": index % 2 == 0}
        for index in range(count)
    ]


UNIQUE_ROWS = {
    "type": "object",
    "properties": {"rows": {"type": "array", "uniqueItems": True, "items": {"type": "object"}}},
}


async def test_unique_items_over_thousands_of_objects_holds_no_loop(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    _tool_schema(kn_fakes, UNIQUE_ROWS)
    client = await make_kn_client(llm=False)
    rows = _rows(ITEMS)
    repeated = [*rows, {"ok": rows[5]["ok"], "tags": rows[5]["tags"], "id": 5.0}]
    answers, stall = await _calls(client, {"rows": rows}, {"rows": repeated})
    (distinct_status, distinct), (repeated_status, refused) = answers
    assert distinct_status == 200, distinct
    assert repeated_status == 400, refused
    assert_error_shape(refused, "INVALID_ARGUMENTS")
    # Key order does not matter and 5.0 equals 5, as JSON Schema says.
    assert refused["error"]["details"][0]["path"] == "$.rows"
    assert f"items 5 and {ITEMS}" in refused["error"]["details"][0]["message"]
    assert stall < MAX_STALL_S


async def test_unique_items_keeps_booleans_apart_from_numbers(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    _tool_schema(kn_fakes, {"type": "object", "properties": {"v": {"uniqueItems": True}}})
    client = await make_kn_client(llm=False)
    answers, _ = await _calls(
        client, {"v": [1, True, 0, False, [1], [True], {"a": 1}, {"a": True}]}, {"v": [[1], [1.0]]}
    )
    assert [status for status, _ in answers] == [200, 400]


async def test_an_integer_beyond_floats_against_a_fractional_multiple_is_a_400(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    _tool_schema(
        kn_fakes,
        {"type": "object", "properties": {"amount": {"type": "number", "multipleOf": 0.01}}},
    )
    client = await make_kn_client(llm=False)
    answers, _ = await _calls(client, {"amount": 10**400}, {"amount": 12})
    (status, body), (small_status, small) = answers
    assert status == 400, body
    assert_error_shape(body, "INVALID_ARGUMENTS")
    [violation] = body["error"]["details"]
    assert violation["path"] == "$.amount"
    assert "integer of about 401 digits" in violation["message"]
    assert small_status == 200, small


def _large_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            f"field_{index}": {
                "type": "string",
                "description": f"field number {index} of a generous upstream schema",
                "enum": [f"value_{index}_{n}" for n in range(4)],
                "minLength": 1,
            }
            for index in range(PROPERTIES)
        },
    }


async def test_a_large_input_schema_is_checked_once_off_the_loop(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = _large_schema()
    assert len(orjson.dumps(schema)) > 250_000
    _tool_schema(kn_fakes, schema)
    checked: list[int] = []
    real = argument_checks.check_schema

    def counted(input_schema: Any) -> Any:
        checked.append(len(input_schema))
        return real(input_schema)

    monkeypatch.setattr("resolver.actions.proxy.check_schema", counted)
    client = await make_kn_client(llm=False)
    answers, stall = await _calls(client, *({"field_1": "value_1_2"} for _ in range(3)))
    assert [status for status, _ in answers] == [200, 200, 200]
    assert checked == [2]  # one document, one check
    assert stall < MAX_STALL_S


async def test_a_check_past_its_budget_is_refused(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tool_schema(kn_fakes, UNIQUE_ROWS)
    monkeypatch.setattr(argument_checks, "ARGUMENT_CHECK_BUDGET_S", 0.0)
    client = await make_kn_client(llm=False)
    answers, _ = await _calls(client, {"rows": _rows(ITEMS)})
    [(status, body)] = answers
    assert status == 400, body
    assert_error_shape(body, "INVALID_ARGUMENTS")
    assert "could not be checked" in body["_error"]
    assert not [c for c in kn_fakes.operators.calls if c.path.endswith("/tool/call")]
