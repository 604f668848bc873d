"""JSON-RPC messages the endpoint does not answer are -32600 Invalid Request in one line
(issue 21, item 12): ids that are floats, booleans, objects or null, and batches; over real
sockets."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from tests.helpers import ClientFactory
from tests.mcp_checks import initialize_message

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


async def _post(client: Any, body: Any) -> tuple[int, Any]:
    response = await client.post("/mcp", data=orjson.dumps(body), headers=HEADERS)
    raw = await response.read()
    return response.status, orjson.loads(raw) if raw else None


@pytest.mark.parametrize("request_id", [1.5, True, False, {"a": 1}, None, [1]], ids=repr)
async def test_an_id_that_is_not_a_string_or_integer_is_invalid(
    make_client: ClientFactory, request_id: Any
) -> None:
    client = await make_client(llm=False)
    status, body = await _post(client, {**initialize_message(), "id": request_id})
    assert status == 400, body  # the old code: 202 and nothing
    assert body["error"]["code"] == -32600
    assert body["error"]["message"].startswith("Invalid Request")
    assert "\n" not in body["error"]["message"]
    assert body["id"] is None


async def test_a_batch_is_invalid_in_one_line(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    status, body = await _post(client, [initialize_message(1), initialize_message(2)])
    assert status == 400, body
    assert body["error"]["code"] == -32600  # the old code: -32602 with pydantic's text
    assert "\n" not in body["error"]["message"]
    assert "pydantic" not in body["error"]["message"]


@pytest.mark.parametrize("request_id", [7, "req-7"])
async def test_string_and_integer_ids_are_answered(
    make_client: ClientFactory, request_id: Any
) -> None:
    client = await make_client(llm=False)
    status, body = await _post(client, {**initialize_message(), "id": request_id})
    assert status == 200, body
    assert body["id"] == request_id
