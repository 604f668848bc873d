"""Operator schema defaults (SPEC §1 step 4): after caller, rules and the LLM, a schema
`default` settles an input nothing else settled (source `default`); an `example` never does."""

from __future__ import annotations

from typing import Any

import orjson

from resolver.testing.fake_llm import FakeLLM, Reply
from tests.helpers import ClientFactory, operator, post, request_body

RANKING = operator("top_regions", ("region", "STRING"), ("top_n", "INTEGER"))


def schema(top_n: dict[str, Any]) -> dict[str, Any]:
    """An operator's api_spec: `region` (no default) and `top_n` as given."""
    return {
        "parameters": [
            {"name": "region", "in": "query", "schema": {"type": "string"}},
            {"name": "top_n", "in": "query", "schema": top_n},
        ]
    }


def body(top_n: dict[str, Any], **fields: Any) -> dict[str, Any]:
    fields.setdefault("query", "各地区销售额排名")
    return request_body(
        RANKING,
        operator_schemas={"top_regions": schema(top_n)},
        options={"return_debug": True},
        **fields,
    )


def answer(values: dict[str, Any]) -> Reply:
    return Reply(content=orjson.dumps({"top_regions": values}).decode())


async def test_rules_only_default_fills_an_input_nothing_else_settled(
    make_client: ClientFactory,
) -> None:
    payload = body({"type": "integer", "default": 10}, additional_context="region=华东")
    status, result = await post(await make_client(llm=False), payload)
    assert status == 200, result
    assert result["dynamic_params"] == {"top_regions": {"region": "华东", "top_n": 10}}
    sources = result["debug"]["properties"]["top_regions"]["source"]
    assert sources == {"region": "context", "top_n": "default"}


async def test_rules_only_reports_only_what_no_default_fills(make_client: ClientFactory) -> None:
    status, result = await post(await make_client(llm=False), body({"default": 10}))
    assert status == 422
    assert result["missing"][0]["params"] == ["region"]


async def test_an_example_is_a_hint_never_a_value(make_client: ClientFactory) -> None:
    payload = body({"type": "integer", "example": 10}, additional_context="region=华东")
    status, result = await post(await make_client(llm=False), payload)
    assert status == 422
    assert result["missing"][0]["params"] == ["top_n"]


async def test_a_default_its_schema_refuses_is_no_value(make_client: ClientFactory) -> None:
    payload = body({"type": "integer", "default": "ten"}, additional_context="region=华东")
    status, result = await post(await make_client(llm=False), payload)
    assert status == 422
    assert result["missing"][0]["params"] == ["top_n"]


async def test_caller_value_beats_the_default(make_client: ClientFactory) -> None:
    payload = body({"type": "integer", "default": 10}, additional_context="region=华东；top_n=3")
    status, result = await post(await make_client(llm=False), payload)
    assert status == 200
    assert result["dynamic_params"]["top_regions"]["top_n"] == 3


async def test_llm_reads_the_input_from_the_query_before_the_default(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(answer({"region": "华东", "top_n": 5}))
    payload = body({"type": "integer", "default": 10}, query="华东销售额前5名")
    status, result = await post(await make_client(), payload)
    assert status == 200, result
    [call] = fake_llm.calls
    assert call.task["generate"] == ["region", "top_n"]
    assert call.task["schema"]["top_n"]["default"] == 10  # the model sees the default
    assert result["dynamic_params"]["top_regions"] == {"region": "华东", "top_n": 5}
    assert result["debug"]["properties"]["top_regions"]["source"]["top_n"] == "llm"


async def test_default_fills_what_the_llm_left_open_without_a_repair_round(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(answer({"region": "华东"}))
    status, result = await post(await make_client(), body({"type": "integer", "default": 10}))
    assert status == 200, result
    assert len(fake_llm.calls) == 1
    assert result["dynamic_params"]["top_regions"] == {"region": "华东", "top_n": 10}
    assert result["debug"]["properties"]["top_regions"]["source"]["top_n"] == "default"


async def test_default_fills_what_the_llm_reported_missing(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(content='{"_error": "missing top_regions: region,top_n | ask: 请说明"}'))
    status, result = await post(await make_client(), body({"type": "integer", "default": 10}))
    assert status == 422
    assert result["missing"][0]["params"] == ["region"]


async def test_empty_query_with_only_defaulted_inputs_open_needs_no_llm(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    payload = body({"type": "integer", "default": 10}, query="", additional_context="region=华东")
    status, result = await post(await make_client(), payload)
    assert status == 200, result
    assert result["dynamic_params"]["top_regions"] == {"region": "华东", "top_n": 10}
    assert fake_llm.calls == []
