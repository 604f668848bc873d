"""Describe a property's inputs (upstream issue #1701): the endpoint and the MCP tool list, per
visible logic property, each input's name, type, required flag, enum and whether resolver
settles it in code — and what they list is what the pipeline accepts."""

from __future__ import annotations

from typing import Any

import jsonschema
import orjson
import pytest

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
from tests.mcp_checks import call_tool

PATH = "/api/agent-retrieval/in/v1/kn/logic-property-inputs"
PUBLIC_PATH = "/api/agent-retrieval/v1/kn/logic-property-inputs"
PIPELINE = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
METRIC = "approved_drug_count"
OPERATOR = "business_health_score"
SCORE = "credit_score"


@pytest.fixture(autouse=True)
def _score_tool(kn_fakes: KnFakes) -> None:
    kn_fakes.manager.object_types[(DEMO_KN, DEMO_OT)]["logic_properties"].append(
        demo_tool_property()
    )
    kn_fakes.operators.tools[(DEMO_SCORE_BOX_ID, DEMO_SCORE_TOOL_ID)] = demo_score_tool()


async def post(
    client: Any, body: dict[str, Any], path: str = PATH, **headers: str
) -> tuple[int, dict[str, Any]]:
    sent = {"Content-Type": "application/json", **headers}
    response = await client.post(path, data=orjson.dumps(body), headers=sent)
    return response.status, orjson.loads(await response.read())


def by_name(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {item["name"]: item for item in items}


async def test_every_visible_property_is_described(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    status, body = await post(client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT})
    assert status == 200, body
    assert (body["kn_id"], body["ot_id"]) == (DEMO_KN, DEMO_OT)
    assert [p["name"] for p in body["logic_properties"]] == [METRIC, OPERATOR, SCORE]
    assert body["warnings"] == []
    assert body["effective_permissions"]["company_id"] == "full"
    metric, operator, score = body["logic_properties"]

    assert metric["type"] == "metric"
    assert metric["display_name"] == "获批药品数量"
    assert by_name(metric["inputs"]) == {
        "instant": {
            "name": "instant",
            "type": "boolean",
            "required": True,
            "required_unless": "start, end and step are given (instant is then false)",
            "description": "true for the current value; false (or leave out) for a time window",
            "settled_in_code": True,
            "settled_by": "time_expression",
        },
        "start": {
            "name": "start",
            "type": "integer",
            "required": True,
            "required_unless": "instant is true",
            "description": "first millisecond of the window, epoch ms",
            "settled_in_code": True,
            "settled_by": "time_expression",
        },
        "end": {
            "name": "end",
            "type": "integer",
            "required": True,
            "required_unless": "instant is true",
            "description": "last millisecond of the window, epoch ms",
            "settled_in_code": True,
            "settled_by": "time_expression",
        },
        "step": {
            "name": "step",
            "type": "string",
            "required": True,
            "required_unless": "instant is true",
            "enum": ["day", "week", "month", "quarter", "year"],
            "description": "granularity of the window",
            "settled_in_code": True,
            "settled_by": "time_expression",
        },
    }
    # Only value_from=input parameters: never the property or const ones.
    assert [i["name"] for i in operator["inputs"]] == ["lang", "include_details", "items"]
    lang, include_details, items = operator["inputs"]
    assert lang["enum"] == ["zh-CN", "en-US"]
    assert lang["type"] == "string"
    assert lang["required"] is True
    assert lang["settled_in_code"] is False
    assert "settled_by" not in lang
    assert include_details["type"] == "boolean"
    assert items["schema"] == {
        "type": "array",
        "items": {"type": "string"},
        "description": "评分维度, e.g. revenue, profit, growth",
    }
    model, horizon = score["inputs"]
    assert model["enum"] == ["basic", "advanced"]
    assert model["settled_in_code"] is False
    assert horizon == {
        "name": "horizon_days",
        "type": "integer",
        "required": True,
        "default": 90,
        "description": "预测窗口（天）",
        "schema": {"type": "integer", "default": 90, "description": "预测窗口（天）"},
        "settled_in_code": True,
        "settled_by": "schema_default",
    }
    assert queried(kn_fakes) == []  # describing reads no values


async def test_what_it_lists_is_what_the_pipeline_takes_without_a_question(
    make_kn_client: ClientFactory,
) -> None:
    client = await make_kn_client(llm=False)
    status, body = await post(client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT})
    assert status == 200, body
    # An agent fills every required input that resolver does not settle, from the enums.
    dynamic_params = {
        p["name"]: {
            i["name"]: (i.get("enum") or [True])[0]
            for i in p["inputs"]
            if i["required"] and not i["settled_in_code"]
        }
        for p in body["logic_properties"]
        if p["type"] == "operator"
    }
    dynamic_params[OPERATOR]["include_details"] = True
    dynamic_params[OPERATOR]["items"] = ["revenue"]
    request = {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "当前的获批药品数量",
        "_instance_identities": [{"company_id": "c1"}],
        "properties": [METRIC, OPERATOR, SCORE],
        "dynamic_params": dynamic_params,
        "now_ms": NOW_MS,
    }
    status, answer = await post(client, request, PIPELINE)
    assert status == 200, answer
    assert answer["dynamic_params"][SCORE] == {"model": "basic", "horizon_days": 90}


async def test_named_properties_in_order_and_the_public_path(
    make_kn_client: ClientFactory,
) -> None:
    client = await make_kn_client(llm=False)
    body = {"kn_id": DEMO_KN, "ot_id": DEMO_OT, "properties": [SCORE, METRIC]}
    status, answer = await post(client, body, PUBLIC_PATH)
    assert status == 200, answer
    assert [p["name"] for p in answer["logic_properties"]] == [SCORE, METRIC]


async def test_the_same_permission_filtering_as_the_pipeline(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.values.plans[(DEMO_KN, DEMO_OT)] = {"company_id": "masked"}
    client = await make_kn_client(llm=False)
    status, body = await post(client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT})
    assert status == 200, body
    assert body["logic_properties"] == []
    assert body["effective_permissions"] == {"company_id": "masked"}
    status, body = await post(client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT, "properties": [METRIC]})
    assert status == 400, body
    assert_error_shape(body, "INVALID_PROPERTY")
    assert body["error"]["details"]["available"] == []
    kn_fakes.values.fail_always(Fault(status=503, path_contains="/schema"))
    status, body = await post(client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT})
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")


async def test_a_failed_schema_read_is_a_warning(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.operators.fail_always(Fault(status=500))
    client = await make_kn_client(llm=False)
    status, body = await post(client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT})
    assert status == 200, body
    assert len(body["warnings"]) == 2
    score = by_name(body["logic_properties"])[SCORE]
    assert by_name(score["inputs"])["horizon_days"]["settled_in_code"] is False


async def test_an_unreadable_definition_is_left_out_with_a_warning(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.manager.object_types[(DEMO_KN, DEMO_OT)]["logic_properties"].append(
        {"name": "broken", "type": "metric", "parameters": [{"name": "x", "value_from": "db"}]}
    )
    client = await make_kn_client(llm=False)
    status, body = await post(client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT})
    assert status == 200, body
    assert "broken" not in [p["name"] for p in body["logic_properties"]]
    assert any("'broken'" in w for w in body["warnings"])
    status, body = await post(
        client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT, "properties": ["broken"]}
    )
    assert status == 502, body


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"kn_id": DEMO_KN}, "ot_id"),
        ({"kn_id": DEMO_KN, "ot_id": DEMO_OT, "properties": []}, "properties"),
        ({"kn_id": DEMO_KN, "ot_id": DEMO_OT, "properties": ["a", "a"]}, "duplicate"),
        ({"kn_id": DEMO_KN, "ot_id": DEMO_OT, "query": "x"}, "query"),
    ],
)
async def test_bad_requests_are_400_before_any_call(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, body: dict[str, Any], fragment: str
) -> None:
    client = await make_kn_client(llm=False)
    status, answer = await post(client, body)
    assert status == 400, answer
    assert fragment in answer["_error"]
    assert kn_fakes.manager.calls == []
    assert kn_fakes.values.calls == []


async def test_missing_object_type_is_404_and_unconfigured_is_503(
    make_kn_client: ClientFactory,
) -> None:
    client = await make_kn_client(llm=False)
    status, body = await post(client, {"kn_id": DEMO_KN, "ot_id": "ot_nope"})
    assert status == 404, body
    assert_error_shape(body, "OBJECT_TYPE_NOT_FOUND")
    client = await make_kn_client(llm=False, bkn_backend_url=None)
    status, body = await post(client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT})
    assert status == 503, body
    assert "RESOLVER_BKN_BACKEND_URL" in body["_error"]


async def test_openapi_lists_it(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False)
    doc = await (await client.get("/openapi.json")).json()
    for path in (PATH, PUBLIC_PATH):
        operation = doc["paths"][path]["post"]
        assert operation["requestBody"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/InputsRequest"
        }
        ok = operation["responses"]["200"]["content"]
        assert set(ok) == {"application/json", "application/toon"}
        assert {"400", "404", "502", "503"} <= set(operation["responses"])
    status, body = await post(client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT})
    assert status == 200
    # The answer fits its documented schema (the refs resolved inside the document).
    schema = {**doc["components"]["schemas"]["InputsResponse"], "components": doc["components"]}
    jsonschema.Draft202012Validator(schema).validate(body)


async def test_the_mcp_tool_answers_the_same(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False)
    _, over_http = await post(client, {"kn_id": DEMO_KN, "ot_id": DEMO_OT})
    answer = await call_tool(
        client, "get_logic_property_inputs", {"ot_id": DEMO_OT}, headers={"X-Kn-ID": DEMO_KN}
    )
    result = answer["result"]
    assert result["isError"] is False, result
    over_mcp = result["structuredContent"]
    for body in (over_mcp, over_http):
        body.pop("trace_id")
    assert over_mcp == over_http
