"""SPEC §5 over HTTP: a caller's operator value that breaks its schema's bounds, pattern or
format is a 400 naming rule 5.3.2 and the input; one that satisfies it is the answer."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import ClientFactory


def _request(value: Any, schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "logic_properties": [
            {
                "name": "credit_score",
                "type": "operator",
                "parameters": [{"name": "horizon_days", "type": "INTEGER", "value_from": "input"}],
            }
        ],
        "query": "信用评分",
        "dynamic_params": {"credit_score": {"horizon_days": value}},
        "operator_schemas": {
            "credit_score": {
                "request_body": {
                    "content": {
                        "application/json": {
                            "schema": {"type": "object", "properties": {"horizon_days": schema}}
                        }
                    }
                }
            }
        },
    }


@pytest.mark.parametrize(
    ("value", "schema", "said"),
    [
        pytest.param(365, {"type": "integer", "maximum": 90}, "at most 90", id="maximum"),
        pytest.param(0, {"type": "integer", "minimum": 1}, "at least 1", id="minimum"),
    ],
)
async def test_a_caller_value_beyond_its_bounds_is_a_400(
    make_client: ClientFactory, value: int, schema: dict[str, Any], said: str
) -> None:
    client = await make_client(llm=False)
    response = await client.post("/v1/dynamic-params", json=_request(value, schema))
    body = await response.json()
    assert response.status == 400, body
    assert body["error"]["code"] == "INVALID_DYNAMIC_PARAMS"
    assert f"rule 5.3.2: horizon_days must be {said}, got {value}" in body["_error"]


async def test_a_caller_value_within_its_bounds_is_the_answer(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    schema = {"type": "integer", "minimum": 1, "maximum": 90}
    response = await client.post("/v1/dynamic-params", json=_request(30, schema))
    assert response.status == 200, await response.text()
    assert (await response.json())["dynamic_params"] == {"credit_score": {"horizon_days": 30}}
