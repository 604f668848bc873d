"""Issue 14.1: with `json_schema`, each call carries the exact schema of the answer the rules
accept — and an answer is schema-valid exactly when the service takes it without a repair."""

from __future__ import annotations

from typing import Any

import jsonschema
import orjson
import pytest

from resolver.llm.schema import TIME_VALUE_PATTERN
from resolver.testing.fake_llm import FakeLLM, Reply
from tests.helpers import ClientFactory, metric, operator, post, request_body

TREND = metric("drug_sales", ("region", "STRING"), ("top_n", "INTEGER"))
SCORE_SCHEMA = {
    "requestBody": {
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "level": {"type": "string", "enum": ["low", "high", 3]},
                        "weights": {"type": "array", "items": {"type": "number"}},
                        "window": {
                            "type": "object",
                            "properties": {"days": {"type": "integer"}},
                            "required": ["days"],
                            "description": "advice only",
                        },
                    },
                }
            }
        }
    }
}
SCORE = operator("health_score", ("level", "STRING"), ("weights", "ARRAY"), ("window", "OBJECT"))


async def _schema_sent(client: Any, fake: FakeLLM, body: dict[str, Any]) -> dict[str, Any]:
    await post(client, body)
    response_format = fake.calls[-1].body["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["strict"] is True
    schema: dict[str, Any] = response_format["json_schema"]["schema"]
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


async def test_metric_schema_types_every_open_input(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_response_format="json_schema")
    schema = await _schema_sent(client, fake_llm, request_body(TREND, query="华东药品销售额"))
    values, error = schema["anyOf"]
    now, series = values["properties"]["drug_sales"]["anyOf"]
    assert now["properties"] == {
        "instant": {"const": True},
        "region": {"type": "string"},
        "top_n": {"type": "integer"},
    }
    assert now["additionalProperties"] is False
    assert series["required"] == ["instant", "start", "end", "step", "region", "top_n"]
    assert series["properties"]["step"] == {
        "type": "string",
        "enum": ["day", "week", "month", "quarter", "year"],
    }
    assert series["properties"]["start"] == {"type": "string", "pattern": TIME_VALUE_PATTERN}
    assert error["required"] == ["_error"]
    assert error["additionalProperties"] is False


async def test_only_the_still_open_inputs_are_in_the_schema(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_response_format="json_schema")
    body = request_body(TREND, query="最近3个月华东的药品销售趋势")  # the window is settled
    schema = await _schema_sent(client, fake_llm, body)
    values = schema["anyOf"][0]["properties"]["drug_sales"]
    assert values == {
        "type": "object",
        "properties": {"region": {"type": "string"}, "top_n": {"type": "integer"}},
        "required": ["region", "top_n"],
        "additionalProperties": False,
    }


async def test_operator_schema_enums_nested_keys_and_item_types_are_merged(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_response_format="json_schema")
    body = request_body(SCORE, query="评估健康分", operator_schemas={"health_score": SCORE_SCHEMA})
    schema = await _schema_sent(client, fake_llm, body)
    props = schema["anyOf"][0]["properties"]["health_score"]["properties"]
    # The declared STRING type wins; enum values of another type cannot be sent.
    assert props["level"] == {"type": "string", "enum": ["low", "high"]}
    assert props["weights"] == {"type": "array", "items": {"type": "number"}}
    assert props["window"] == {
        "type": "object",
        "properties": {"days": {"type": "integer"}},
        "required": ["days"],
    }


VALID_TREND = [
    {"drug_sales": {"instant": True, "region": "华东", "top_n": 5}},
    {
        "drug_sales": {
            "instant": False,
            "start": "now-3M/M",
            "end": "2025-10-31",
            "step": "month",
            "region": "华东",
            "top_n": 5,
        }
    },
    {
        "drug_sales": {
            "instant": False,
            "start": "2025-01",
            "end": "now",
            "step": "day",
            "region": "x",
            "top_n": 1,
        }
    },
    {"_error": "missing drug_sales: region,top_n | ask: 请说明地区"},
]
INVALID_TREND = [
    {"drug_sales": {"instant": True, "step": "month", "region": "华东", "top_n": 5}},
    {
        "drug_sales": {
            "instant": False,
            "start": "now-3M",
            "end": "now",
            "step": "7d",
            "region": "华东",
            "top_n": 5,
        }
    },
    {
        "drug_sales": {
            "instant": False,
            "start": "last month",
            "end": "now",
            "step": "month",
            "region": "华东",
            "top_n": 5,
        }
    },
    {"drug_sales": {"instant": True, "region": "华东", "top_n": "5"}},
    {"drug_sales": {"instant": True, "region": "华东", "top_n": 5, "company": "x"}},
    {"drug_sales": {"instant": True, "region": "华东", "top_n": 5}, "_error": "x"},
    {"_error": "drug_sales is missing"},
    {"other": {"instant": True}},
]
# The schema is stricter than the reader on two points, never looser: a value answer must hold
# every open input, and an `_error` must name open inputs. The service reads such answers as
# "the rest is missing" (a 422); under the schema the model says so with `_error` instead.
STRICTER = [
    {"drug_sales": {"instant": True, "region": "华东"}},
    {"_error": "missing drug_sales: company | ask: 哪家公司"},
]


@pytest.mark.parametrize(
    ("answer", "valid"),
    [(a, True) for a in VALID_TREND]
    + [(a, False) for a in INVALID_TREND]
    + [(a, None) for a in STRICTER],
)
async def test_schema_valid_answers_are_accepted_and_refused_ones_rejected(
    make_client: ClientFactory, fake_llm: FakeLLM, answer: dict[str, Any], valid: bool | None
) -> None:
    client = await make_client(llm_response_format="json_schema")
    content = orjson.dumps(answer).decode()
    fake_llm.push(Reply(content=content))
    body = request_body(TREND, query="华东药品销售额", options={"max_repair_rounds": 0})
    status, payload = await post(client, body)
    schema = fake_llm.calls[0].body["response_format"]["json_schema"]["schema"]
    fits = jsonschema.Draft202012Validator(schema).is_valid(answer)
    if valid is None:
        assert not fits
        assert status == 422, payload
        return
    assert fits is valid
    # Schema-valid: taken at once (200, or 422 for an `_error`); invalid: refused (502).
    assert (status in (200, 422)) is valid, payload


async def test_json_object_and_none_send_no_schema(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    for mode, expected in (("json_object", {"type": "json_object"}), ("none", None)):
        client = await make_client(llm_response_format=mode)
        status, _ = await post(client, request_body(TREND, query="华东药品销售额"))
        assert status == 200
        assert fake_llm.calls[-1].body.get("response_format") == expected


async def test_the_json_object_style_carries_the_same_schema(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(
        llm_response_format="json_schema", llm_json_schema_style="json_object"
    )
    status, _ = await post(client, request_body(TREND, query="华东药品销售额"))
    assert status == 200
    sent = fake_llm.calls[-1].body["response_format"]
    assert sent["type"] == "json_object"
    assert sent["schema"]["anyOf"][1]["required"] == ["_error"]
