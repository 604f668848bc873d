"""Tool-box logic properties (`type: tool`, `data_source.box_id`/`tool_id`): their schema comes
from the tool-box tool endpoint and serves like an operator schema — enums enforced, defaults
used, cached, a failure only a warning — and `dynamic_params_source` says per property where
its params came from."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from resolver.params.sources import summarize
from resolver.testing.fake_llm import Call, FakeLLM, Reply
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_OT,
    DEMO_SCORE_BOX_ID,
    DEMO_SCORE_TOOL_ID,
    Fault,
    demo_score_tool,
    demo_tool_property,
)
from tests.helpers import NOW_MS, ClientFactory, KnFakes, assert_error_shape, queried

PATH = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
SCORE = "credit_score"
METRIC = "approved_drug_count"
OPERATOR = "business_health_score"
HEALTH = {"lang": "zh-CN", "include_details": True, "items": ["revenue"]}
TOOL_PATH = (
    "/api/agent-operator-integration/internal-v1/tool-box/"
    f"{DEMO_SCORE_BOX_ID}/tool/{DEMO_SCORE_TOOL_ID}"
)


@pytest.fixture(autouse=True)
def _score_tool(kn_fakes: KnFakes) -> None:
    kn_fakes.manager.object_types[(DEMO_KN, DEMO_OT)]["logic_properties"].append(
        demo_tool_property()
    )
    kn_fakes.operators.tools[(DEMO_SCORE_BOX_ID, DEMO_SCORE_TOOL_ID)] = demo_score_tool()


def kn_body(*properties: str, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "用高级模型算信用评分",
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": list(properties) or [SCORE],
        "now_ms": NOW_MS,
    }
    body.update(fields)
    return body


async def post(client: Any, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    response = await client.post(
        PATH, data=orjson.dumps(body), headers={"Content-Type": "application/json"}
    )
    return response.status, orjson.loads(await response.read())


def answering(values: dict[str, Any]) -> Any:
    def responder(call: Call) -> Reply:
        return Reply(content=orjson.dumps({call.property_name: values}).decode())

    return responder


# --- the schema -------------------------------------------------------------------------------


async def test_the_schema_comes_from_the_tool_box_tool(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answering({"model": "advanced", "horizon_days": 30}))
    client = await make_kn_client()
    status, body = await post(client, kn_body(options={"return_debug": True}))
    assert status == 200, body
    assert body["dynamic_params"] == {SCORE: {"model": "advanced", "horizon_days": 30}}
    assert body["dynamic_params_source"] == {SCORE: "generated"}
    (read,) = kn_fakes.operators.calls
    assert (read.method, read.path) == ("GET", TOOL_PATH)
    assert body["debug"]["operator_schemas"] == {
        SCORE: {"box_id": DEMO_SCORE_BOX_ID, "tool_id": DEMO_SCORE_TOOL_ID, "outcome": "fetched"}
    }
    # The prompt carries the compact schema (enum, default), never the raw record.
    schema = fake_llm.calls[0].task["schema"]
    assert schema["model"]["enum"] == ["basic", "advanced"]
    assert schema["horizon_days"]["default"] == 90
    assert "metadata" not in orjson.dumps(fake_llm.calls[0].messages).decode()


async def test_its_enum_rejects_a_caller_value(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    body = kn_body(dynamic_params={SCORE: {"model": "magic", "horizon_days": 30}}, query="")
    status, payload = await post(client, body)
    assert status == 400, payload
    assert_error_shape(payload, "INVALID_DYNAMIC_PARAMS")
    assert "rule 5.3.2" in payload["_error"]
    assert queried(kn_fakes) == []


async def test_a_top_level_api_spec_is_read_too(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    record = demo_score_tool()
    record["api_spec"] = record.pop("metadata")["api_spec"]  # the SPEC §8 form
    kn_fakes.operators.tools[(DEMO_SCORE_BOX_ID, DEMO_SCORE_TOOL_ID)] = record
    client = await make_kn_client(llm=False)
    body = kn_body(dynamic_params={SCORE: {"model": "magic"}})
    status, payload = await post(client, body)
    assert status == 400, payload
    assert "rule 5.3.2" in payload["_error"]


@pytest.mark.parametrize("how", ["500", "404", "unusable"])
async def test_a_failed_read_is_a_warning_and_the_property_still_resolves(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM, how: str
) -> None:
    fake_llm.respond(answering({"model": "advanced", "horizon_days": 30}))
    if how == "500":
        kn_fakes.operators.fail_always(Fault(status=500))
    elif how == "404":
        kn_fakes.operators.tools.clear()
    else:
        kn_fakes.operators.tools[(DEMO_SCORE_BOX_ID, DEMO_SCORE_TOOL_ID)] = {"name": "x"}
    client = await make_kn_client()
    status, body = await post(client, kn_body(options={"return_debug": True}))
    assert status == 200, body
    (warning,) = body["debug"]["warnings"]
    assert warning.startswith(f"tool schema of {DEMO_SCORE_BOX_ID}/{DEMO_SCORE_TOOL_ID}")
    assert "schema" not in fake_llm.calls[0].task


async def test_the_schema_is_cached_like_an_operator_schema(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    full = {"model": "basic", "horizon_days": 7}
    for _ in range(3):
        status, body = await post(client, kn_body(dynamic_params={SCORE: full}, query=""))
        assert status == 200, body
    assert len(kn_fakes.operators.calls) == 1


# --- stage 4: schema defaults --------------------------------------------------------------


async def test_rules_only_a_schema_default_settles_what_nothing_else_did(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    body = kn_body(dynamic_params={SCORE: {"model": "basic"}}, options={"return_debug": True})
    status, payload = await post(client, body)
    assert status == 200, payload
    assert payload["dynamic_params"] == {SCORE: {"model": "basic", "horizon_days": 90}}
    assert payload["debug"]["properties"][SCORE]["source"] == {
        "model": "caller",
        "horizon_days": "default",
    }
    assert payload["dynamic_params_source"] == {SCORE: "merged"}
    # Without the caller's model, the default alone does not settle the property.
    status, payload = await post(client, kn_body())
    assert status == 422, payload
    assert payload["missing"][0]["params"] == ["model"]


async def test_with_an_llm_the_default_fills_only_what_the_llm_left_open(
    make_kn_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answering({"model": "advanced"}))  # horizon_days left out
    client = await make_kn_client()
    status, body = await post(client, kn_body(options={"return_debug": True}))
    assert status == 200, body
    assert body["dynamic_params"] == {SCORE: {"model": "advanced", "horizon_days": 90}}
    sources = body["debug"]["properties"][SCORE]["source"]
    assert sources == {"model": "llm", "horizon_days": "default"}
    assert body["dynamic_params_source"] == {SCORE: "generated"}


async def test_a_default_that_breaks_the_schema_is_not_used(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    record = demo_score_tool()
    spec = record["metadata"]["api_spec"]
    spec["parameters"][0]["schema"]["default"] = "premium"  # not in the enum
    kn_fakes.operators.tools[(DEMO_SCORE_BOX_ID, DEMO_SCORE_TOOL_ID)] = record
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(dynamic_params={SCORE: {"horizon_days": 5}}))
    assert status == 422, body
    assert body["missing"][0]["params"] == ["model"]


# --- dynamic_params_source -------------------------------------------------------------------


async def test_source_per_property_caller_generated_merged(
    make_kn_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answering(HEALTH))
    client = await make_kn_client()
    window = {"instant": False, "start": 1_755_047_542_241, "end": NOW_MS, "step": "month"}
    body = kn_body(
        METRIC,
        OPERATOR,
        SCORE,
        query="当前的值",
        dynamic_params={
            METRIC: window,
            OPERATOR: {"lang": "zh-CN"},
        },
        additional_context="model=basic；horizon_days=10",
    )
    status, payload = await post(client, body)
    assert status == 200, payload
    assert payload["dynamic_params_source"] == {
        METRIC: "caller",  # every value from dynamic_params
        OPERATOR: "merged",  # lang from the caller, the rest from the LLM
        SCORE: "generated",  # additional_context is read by resolver: generated
    }
    assert list(payload["dynamic_params_source"]) == [METRIC, OPERATOR, SCORE]


@pytest.mark.parametrize(
    ("sources", "has_entry", "expected"),
    [
        ({}, False, "generated"),
        ({}, True, "caller"),
        ({"a": "caller"}, True, "caller"),
        ({"a": "caller", "b": "rule"}, True, "merged"),
        ({"a": "context", "b": "llm", "c": "default", "d": "rule"}, True, "generated"),
        ({"a": "llm"}, False, "generated"),
    ],
)
def test_summarize(sources: dict[str, Any], has_entry: bool, expected: str) -> None:
    assert summarize(sources, has_entry=has_entry) == expected
