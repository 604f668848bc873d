"""Model choice, the format fallback and the bill (SPEC §6, issue 29), over real sockets: the
service on loopback against the fake LLM on loopback, which answers cached tokens like a
provider's prompt cache and refuses `json_schema` for a scripted model."""

from __future__ import annotations

import asyncio
import json

import orjson
import pytest
import structlog
from structlog.testing import capture_logs

from resolver.testing.fake_llm import FakeLLM, PromptCache, Reply
from tests.helpers import (
    ClientFactory,
    KnFakes,
    assert_error_shape,
    metric,
    metric_value,
    metrics_text,
    post,
    request_body,
)
from tests.mcp_checks import sdk_client

PROP = metric("drug_sales", ("region", "STRING"))
BODY = request_body(PROP, query="当前华东地区的药品销售额")
ANSWER = orjson.dumps({"drug_sales": {"region": "华东"}}).decode()
PRICES = {
    "gpt-4o-mini": {"input": 0.15, "cached_input": 0.075, "output": 0.6},
    "qwen-plus": {"input": 0.8, "output": 2.0},
}
ALLOWED = "gpt-4o-mini,qwen-plus,old-vllm"
PIPELINE = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
PIPELINE_BODY = {
    "kn_id": "kn_pharma",
    "ot_id": "ot_company",
    "query": "最近3个月的药品数量趋势",
    "_instance_identities": [{"company_id": "company_000001"}],
    "properties": ["approved_drug_count"],
}


# --- llm_model ----------------------------------------------------------------------------------


async def test_an_allowed_model_reaches_the_provider(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_allowed_models=ALLOWED)
    status, payload = await post(client, {**BODY, "llm_model": "qwen-plus"})
    assert status == 200, payload
    [call] = fake_llm.calls
    assert call.body["model"] == "qwen-plus"
    status, payload = await post(client, BODY)
    assert status == 200
    assert fake_llm.calls[-1].body["model"] == "gpt-4o-mini"  # RESOLVER_LLM_MODEL


async def test_a_model_not_listed_is_400_naming_the_allowed_ones(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_allowed_models=ALLOWED)
    status, payload = await post(client, {**BODY, "llm_model": "gpt-5-turbo"})
    assert status == 400
    assert_error_shape(payload, "MODEL_NOT_ALLOWED")
    assert payload["error"]["details"]["allowed"] == ["gpt-4o-mini", "qwen-plus", "old-vllm"]
    assert "gpt-4o-mini, qwen-plus, old-vllm" in payload["_error"]
    assert fake_llm.calls == []


async def test_without_a_list_it_is_ignored_and_said(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client()
    body = {**BODY, "llm_model": "qwen-plus", "options": {"return_debug": True}}
    with capture_logs() as logged:
        status, payload = await post(client, body)
    assert status == 200, payload
    assert fake_llm.calls[-1].body["model"] == "gpt-4o-mini"
    [warning] = payload["debug"]["warnings"]
    assert "llm_model 'qwen-plus' is ignored" in warning
    assert any(
        line["event"] == "params.llm_model_ignored" and line["llm_model"] == "qwen-plus"
        for line in logged
    )


async def test_the_model_is_part_of_the_cache_key(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_allowed_models=ALLOWED, llm_cache_ttl_s=60)
    for model in ("qwen-plus", "gpt-4o-mini", "qwen-plus"):
        status, _ = await post(client, {**BODY, "llm_model": model})
        assert status == 200
    # The third is the first's answer from the cache; the second asked its own model.
    assert [c.body["model"] for c in fake_llm.calls] == ["qwen-plus", "gpt-4o-mini"]


async def test_the_fallback_keeps_its_own_model(
    make_client: ClientFactory, fake_llm: FakeLLM, fallback_llm: FakeLLM
) -> None:
    fake_llm.push(*[Reply(status=503)] * 3)
    client = await make_client(
        llm_allowed_models=ALLOWED,
        llm_fallback_base_url=fallback_llm.url,  # type: ignore[attr-defined]
        llm_fallback_model="local-7b",
    )
    status, payload = await post(client, {**BODY, "llm_model": "qwen-plus"})
    assert status == 200, payload
    assert {c.body["model"] for c in fake_llm.calls} == {"qwen-plus"}
    assert [c.body["model"] for c in fallback_llm.calls] == ["local-7b"]


async def test_the_pipeline_takes_it_too(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    client = await make_kn_client(llm_allowed_models=ALLOWED)
    body = {**PIPELINE_BODY, "llm_model": "nope"}
    response = await client.post(PIPELINE, json=body)
    payload = await response.json()
    assert response.status == 400
    assert_error_shape(payload, "MODEL_NOT_ALLOWED")


# --- json_schema → json_object ------------------------------------------------------------------


async def test_a_refused_json_schema_is_asked_again_as_json_object_and_remembered(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.refuse_json_schema = frozenset({"old-vllm"})
    client = await make_client(llm_allowed_models=ALLOWED, llm_response_format="json_schema")
    body = {**BODY, "llm_model": "old-vllm"}
    with capture_logs() as logged:
        first = await post(client, body)
        second = await post(client, {**body, "query": "当前华南地区的药品销售额"})
    assert first[0] == second[0] == 200, (first, second)
    formats = [c.body["response_format"]["type"] for c in fake_llm.calls]
    # Refused once, asked again at once; the next request goes straight to json_object.
    assert formats == ["json_schema", "json_object", "json_object"]
    assert fake_llm.counts["format_refused"] == 1
    fallbacks = [line for line in logged if line["event"] == "llm.format_fallback"]
    assert len(fallbacks) == 1
    assert fallbacks[0]["model"] == "old-vllm"
    text = await metrics_text(client)
    assert metric_value(text, "resolver_llm_format_fallbacks_total", 'model="old-vllm"') == 1
    # Another model of the same endpoint still gets json_schema.
    status, _ = await post(client, {**BODY, "llm_model": "qwen-plus"})
    assert status == 200
    assert fake_llm.calls[-1].body["response_format"]["type"] == "json_schema"


async def test_the_rules_still_check_the_json_object_answer(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.refuse_json_schema = frozenset({"gpt-4o-mini"})
    bad = orjson.dumps({"drug_sales": {"region": 7}}).decode()
    # The json_object ask is answered against the rules: a repair round, then a good answer.
    fake_llm.push(Reply(content=bad), Reply(content=ANSWER))
    client = await make_client(llm_response_format="json_schema")
    status, payload = await post(client, {**BODY, "options": {"return_debug": True}})
    assert status == 200, payload
    llm = payload["debug"]["properties"]["drug_sales"]["llm"]
    assert llm["repair_rounds"] == 1
    assert payload["dynamic_params"]["drug_sales"]["region"] == "华东"


async def test_a_400_refused_again_as_json_object_is_not_learnt(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    # A body that names the format but is refused whatever the format: not the format's fault.
    refusal = Reply(status=400, body=b'{"error": {"message": "json_schema: prompt too long"}}')
    fake_llm.push(refusal, refusal)
    client = await make_client(llm_response_format="json_schema")
    status, payload = await post(client, BODY)
    assert status == 502
    assert_error_shape(payload, "LLM_UNAVAILABLE")
    status, _ = await post(client, BODY)
    assert status == 200
    formats = [c.body["response_format"]["type"] for c in fake_llm.calls]
    assert formats == ["json_schema", "json_object", "json_schema"]
    text = await metrics_text(client)
    assert metric_value(text, "resolver_llm_format_fallbacks_total") == 0


async def test_concurrent_refusals_say_so_once(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.refuse_json_schema = frozenset({"gpt-4o-mini"})
    fake_llm.latency_s = 0.05  # the answers overlap: every first ask is refused
    client = await make_client(llm_response_format="json_schema")
    bodies = [{**BODY, "query": f"当前华东地区第{n}季度的药品销售额"} for n in range(4)]
    with capture_logs() as logged:
        answers = await asyncio.gather(*(post(client, body) for body in bodies))
    assert [status for status, _ in answers] == [200] * 4
    assert len([line for line in logged if line["event"] == "llm.format_fallback"]) == 1
    text = await metrics_text(client)
    assert metric_value(text, "resolver_llm_format_fallbacks_total") == 1


async def test_another_400_is_not_a_format_refusal(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(status=400))  # "fake error 400": nothing about the format
    client = await make_client(llm_response_format="json_schema")
    status, payload = await post(client, BODY)
    assert status == 502
    assert_error_shape(payload, "LLM_UNAVAILABLE")
    assert len(fake_llm.calls) == 1


# --- usage and cost -----------------------------------------------------------------------------


async def test_usage_beside_dynamic_params_with_cached_tokens_and_cost(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.prompt_cache = PromptCache(block_tokens=16, min_tokens=32)
    client = await make_client(llm_prices=json.dumps(PRICES))
    body = {**BODY, "options": {"return_usage": True}}
    first = await post(client, body)
    second = await post(client, {**body, "query": "当前华南地区的药品销售额"})
    assert first[0] == second[0] == 200, (first, second)
    cold, warm = first[1]["usage"], second[1]["usage"]
    assert list(first[1]) == ["dynamic_params", "usage", "trace_id"]
    assert cold["llm_calls"] == warm["llm_calls"] == 1
    assert cold["cached_tokens"] == 0
    assert 0 < warm["cached_tokens"] <= warm["prompt_tokens"]
    # The provider's count, read from usage.prompt_tokens_details.cached_tokens.
    answered = fake_llm.calls[-1]
    assert answered.body["model"] == "gpt-4o-mini"
    price = PRICES["gpt-4o-mini"]
    expected = (
        (warm["prompt_tokens"] - warm["cached_tokens"]) * price["input"]
        + warm["cached_tokens"] * price["cached_input"]
        + warm["completion_tokens"] * price["output"]
    ) / 1_000_000
    assert warm["cost"] == pytest.approx(expected)
    assert warm["cost"] < cold["cost"] * (warm["prompt_tokens"] / cold["prompt_tokens"])
    text = await metrics_text(client)
    cached = metric_value(text, "resolver_llm_tokens_total", 'model="gpt-4o-mini"', "cached")
    assert cached == warm["cached_tokens"]
    cost = metric_value(text, "resolver_llm_cost_total", 'model="gpt-4o-mini"')
    assert cost == pytest.approx(cold["cost"] + warm["cost"])


async def test_without_return_usage_only_debug_has_it(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client()
    status, plain = await post(client, BODY)
    assert status == 200
    assert "usage" not in plain
    status, debugged = await post(client, {**BODY, "options": {"return_debug": True}})
    assert status == 200
    usage = debugged["debug"]["usage"]
    assert usage["llm_calls"] == 1
    assert usage["cost"] is None  # no price known
    assert "usage" not in debugged


async def test_the_responses_shape_is_read_too(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    shape = {
        "input_tokens": 900,
        "output_tokens": 12,
        "total_tokens": 912,
        "input_tokens_details": {"cached_tokens": 768},
    }
    fake_llm.push(Reply(content=ANSWER, usage=shape))
    client = await make_client(llm_prices=json.dumps(PRICES))
    status, payload = await post(client, {**BODY, "options": {"return_usage": True}})
    assert status == 200, payload
    assert payload["usage"] == {
        "llm_calls": 1,
        "prompt_tokens": 900,
        "cached_tokens": 768,
        "completion_tokens": 12,
        "cost": pytest.approx((132 * 0.15 + 768 * 0.075 + 12 * 0.6) / 1e6),
    }


async def test_a_rules_only_answer_costs_nothing(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    body = request_body(metric(), options={"return_usage": True})
    status, payload = await post(client, body)
    assert status == 200, payload
    assert payload["usage"] == {
        "llm_calls": 0,
        "prompt_tokens": 0,
        "cached_tokens": 0,
        "completion_tokens": 0,
        "cost": 0,
    }


async def test_answers_from_the_result_cache_are_free(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_cache_ttl_s=60, llm_prices=json.dumps(PRICES))
    body = {**BODY, "options": {"return_usage": True}}
    first, second = await post(client, body), await post(client, body)
    assert first[1]["usage"]["llm_calls"] == 1
    assert second[1]["usage"] == {
        "llm_calls": 0,
        "prompt_tokens": 0,
        "cached_tokens": 0,
        "completion_tokens": 0,
        "cost": 0,
    }


async def test_the_log_line_of_a_call_carries_cached_tokens_and_cost(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(
        Reply(
            content=ANSWER,
            usage={
                "prompt_tokens": 1000,
                "completion_tokens": 10,
                "prompt_tokens_details": {"cached_tokens": 512},
            },
        )
    )
    client = await make_client(llm_prices=json.dumps(PRICES))
    with capture_logs(processors=[structlog.contextvars.merge_contextvars]) as logged:
        status, _ = await post(client, BODY)
    assert status == 200
    [line] = [entry for entry in logged if entry["event"] == "llm.call"]
    assert line["cached_tokens"] == 512
    assert line["cost"] == pytest.approx((488 * 0.15 + 512 * 0.075 + 10 * 0.6) / 1e6)


@pytest.mark.parametrize(
    "prices",
    ['{"m": {"input": 1}}', '{"m": {"input": -1, "output": 1}}', "[1]", '{"m": {"in": 1}}'],
)
async def test_a_bad_price_table_is_refused_at_start(prices: str) -> None:
    from pydantic import ValidationError

    from resolver.core.settings import Settings

    with pytest.raises(ValidationError, match="llm_prices"):
        Settings(llm_prices=prices)


async def test_mcp_structured_content_and_the_pipeline_carry_it(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.prompt_cache = PromptCache(block_tokens=16, min_tokens=32)
    client = await make_kn_client(llm_prices=json.dumps(PRICES))
    arguments = {**BODY, "options": {"return_usage": True}}
    async with sdk_client(str(client.make_url("/mcp"))) as sdk:
        first = await sdk.call_tool("resolve_dynamic_params", arguments)
        second = await sdk.call_tool("resolve_dynamic_params", arguments)
    for result in (first, second):
        assert result.is_error is False
        assert result.structured_content is not None
        assert result.structured_content["usage"]["llm_calls"] == 1
    assert second.structured_content is not None
    assert second.structured_content["usage"]["cached_tokens"] > 0
    assert second.structured_content["usage"]["cost"] > 0
    body = {**PIPELINE_BODY, "options": {"return_usage": True}}
    response = await client.post(PIPELINE, json=body)
    payload = await response.json()
    assert response.status == 200, payload
    assert list(payload)[:3] == ["datas", "dynamic_params", "usage"]
    assert payload["usage"]["llm_calls"] == 0  # settled in code
