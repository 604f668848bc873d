"""Numbers in `additional_context` are ASCII digits of a size JSON carries (issue 21, item 14):
no Arabic-Indic or full-width digits, no infinity, no advice to call a Python function."""

from __future__ import annotations

import pytest

from tests.helpers import ClientFactory, assert_error_shape, operator, post, request_body


@pytest.mark.parametrize(
    ("context", "param"),
    [
        ("ratio=٠.٣", "ratio"),
        ("ratio=０.３", "ratio"),
        ("count=٣", "count"),
        ("ratio=1e999", "ratio"),
        ("ratio=-1e400", "ratio"),
        ("count=" + "9" * 5000, "count"),
        ("ratio=" + "9" * 5000, "ratio"),
    ],
    ids=["arabic-indic", "full-width", "arabic-indic-int", "inf", "minus-inf", "huge-int", "huge"],
)
async def test_a_context_number_that_is_not_one_is_refused_plainly(
    make_client: ClientFactory, context: str, param: str
) -> None:
    client = await make_client(llm=False)
    others = {"ratio": "ratio=0.5", "count": "count=3"}
    text = "；".join([context, *(v for k, v in others.items() if k != param)])
    payload = request_body(
        operator("score", ("ratio", "NUMBER"), ("count", "INTEGER")),
        query="评分",
        additional_context=text,
    )
    status, body = await post(client, payload)
    assert status == 400, body  # the old code took the first three as 0.3, 0.3 and 3
    assert_error_shape(body, "INVALID_DYNAMIC_PARAMS")
    assert "got null" not in body["_error"]
    assert "set_int_max_str_digits" not in body["_error"]
    assert param in body["_error"]


async def test_plain_numbers_still_read(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    payload = request_body(
        operator("score", ("ratio", "NUMBER"), ("count", "INTEGER")),
        query="评分",
        additional_context="ratio=-0.25；count=+12",
    )
    status, body = await post(client, payload)
    assert status == 200, body
    assert body["dynamic_params"]["score"] == {"ratio": -0.25, "count": 12}
