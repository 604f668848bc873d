"""The Go-compatible pipeline endpoint (SPEC §2.2) against fake upstreams and the fake LLM."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import orjson
import pytest

from resolver.testing.fake_llm import Call, FakeLLM, Reply
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_OPERATOR_ID,
    DEMO_OT,
    Fault,
    Seen,
    demo_operator,
)
from tests.helpers import (
    NOW_MS,
    ClientFactory,
    KnFakes,
    assert_error_shape,
    plan_reads,
    queried,
)

PATH = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
PUBLIC_PATH = "/api/agent-retrieval/v1/kn/logic-property-resolver"
METRIC = "approved_drug_count"
OPERATOR = "business_health_score"
HEALTH = {"lang": "zh-CN", "include_details": True, "items": ["revenue", "profit"]}
CLOSED_PORT_URL = "http://127.0.0.1:9"


def object_type_calls(kn_fakes: KnFakes) -> list[Any]:
    """bkn-backend's object-type reads (the metric definitions it is also asked for aside)."""
    return [call for call in kn_fakes.manager.calls if "/object-types/" in call.path]


def kn_body(**fields: Any) -> dict[str, Any]:
    """A pipeline request for both demo properties with a fixed clock."""
    body: dict[str, Any] = {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "当前的获批药品数量和经营健康度，中文，包含明细，看营收和利润",
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": [METRIC, OPERATOR],
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
    }
    body.update(fields)
    return body


def answer_health(call: Call) -> Reply:
    """The LLM answers the operator with valid values (and anything else plausibly)."""
    return Reply(content=orjson.dumps({call.property_name: HEALTH}).decode())


async def post(client: Any, body: dict[str, Any], **kwargs: Any) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json", **kwargs.pop("headers", {})}
    response = await client.post(PATH, data=orjson.dumps(body), headers=headers, **kwargs)
    payload = orjson.loads(await response.read())
    return response.status, payload


def no_calls(kn_fakes: KnFakes) -> bool:
    return not (kn_fakes.manager.calls or kn_fakes.operators.calls or kn_fakes.values.calls)


# --- success ----------------------------------------------------------------------------------


async def test_metric_and_operator_resolved_and_valued(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    status, body = await post(client, kn_body())
    assert status == 200, body
    assert body["dynamic_params"] == {METRIC: {"instant": True}, OPERATOR: HEALTH}
    assert list(body["dynamic_params"]) == [METRIC, OPERATOR]
    assert body["datas"] == [
        {
            "company_id": "company_000001",
            METRIC: {"value": 1, "dynamic_params": {"instant": True}},
            OPERATOR: {"value": 1, "dynamic_params": HEALTH},
        }
    ]
    assert body["trace_id"]
    assert "debug" not in body
    # Only the operator needed the LLM; the metric was settled by the rules.
    assert [c.property_name for c in fake_llm.calls] == [OPERATOR]
    (om_call,) = object_type_calls(kn_fakes)
    assert (
        om_call.path
        == f"/api/bkn-backend/in/v1/knowledge-networks/{DEMO_KN}/object-types/{DEMO_OT}"
    )
    assert om_call.query == {"include_detail": "true"}
    (op_call,) = kn_fakes.operators.calls
    assert op_call.path.endswith(f"/internal-v1/operator/market/{DEMO_OPERATOR_ID}")
    (plan_call,) = plan_reads(kn_fakes)
    assert plan_call.method == "GET"
    assert plan_call.path == (
        f"/api/ontology-query/in/v1/knowledge-networks/{DEMO_KN}/object-types/{DEMO_OT}/schema"
    )
    (oq_call,) = queried(kn_fakes)
    assert oq_call.method == "POST"
    assert oq_call.headers["x-http-method-override"] == "GET"
    assert oq_call.body == {
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": [METRIC, OPERATOR],
        "dynamic_params": {METRIC: {"instant": True}, OPERATOR: HEALTH},
    }


async def test_public_path_serves_the_same(
    make_kn_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    response = await client.post(PUBLIC_PATH, json=kn_body())
    assert response.status == 200, await response.text()
    assert (await response.json())["dynamic_params"][OPERATOR] == HEALTH


async def test_rules_only_with_caller_values_needs_no_llm(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    window = {"instant": False, "start": 1_755_047_542_241, "end": NOW_MS, "step": "month"}
    body = kn_body(dynamic_params={METRIC: window, OPERATOR: HEALTH}, query="")
    status, payload = await post(client, body)
    assert status == 200, payload
    assert payload["dynamic_params"] == {METRIC: window, OPERATOR: HEALTH}
    assert queried(kn_fakes)[0].body["dynamic_params"][METRIC] == window


async def test_unique_identities_is_an_alias(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    body = kn_body(properties=[METRIC], query="当前药品数量")
    body["unique_identities"] = body.pop("_instance_identities")
    status, payload = await post(client, body)
    assert status == 200, payload
    assert queried(kn_fakes)[0].body["_instance_identities"] == [{"company_id": "company_000001"}]


async def test_bare_object_type_answer_is_accepted(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.manager.bare = True
    client = await make_kn_client(llm=False)
    status, payload = await post(client, kn_body(properties=[METRIC]))
    assert status == 200, payload
    assert payload["dynamic_params"] == {METRIC: {"instant": True}}


async def test_debug_has_the_params_debug_timings_and_schema_outcomes(
    make_kn_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    status, body = await post(client, kn_body(options={"return_debug": True}))
    assert status == 200, body
    debug = body["debug"]
    assert debug["now_ms"] == NOW_MS
    assert debug["timezone"] == "Asia/Shanghai"
    assert debug["properties"][METRIC]["source"] == {"instant": "rule"}
    assert debug["properties"][OPERATOR]["llm"]["attempts"] == 1
    assert debug["warnings"] == []
    assert debug["object_type"] == {"id": DEMO_OT, "name": "公司"}
    assert debug["operator_schemas"] == {
        OPERATOR: {"operator_id": DEMO_OPERATOR_ID, "outcome": "fetched"}
    }
    assert set(debug["timings_ms"]) == {
        "bkn-backend",
        "permissions",
        "agent-operator-integration",
        "resolve",
        "ontology-query",
        "metric-definitions",  # the metric's time dimension (SPEC §9.1)
    }


async def test_llm_model_is_accepted_and_ignored_with_a_warning(
    make_kn_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    body = kn_body(llm_model="some-other-model", options={"return_debug": True})
    status, payload = await post(client, body)
    assert status == 200, payload
    assert fake_llm.calls[0].body["model"] == "gpt-4o-mini"
    assert any("llm_model" in w for w in payload["debug"]["warnings"])


# --- headers, trace, identities, integers -----------------------------------------------------


async def test_identity_and_trace_headers_reach_every_upstream(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    headers = {
        "x-account-id": "user-42",
        "x-account-type": "user",
        "x-trace-id": "trace-abc",
        "traceparent": parent,
    }
    status, body = await post(client, kn_body(), headers=headers)
    assert status == 200, body
    assert body["trace_id"] == "trace-abc"
    seen = [object_type_calls(kn_fakes)[0], kn_fakes.operators.calls[0], *kn_fakes.values.calls]
    assert len(seen) == 4  # the permission read and the values
    for call in seen:
        assert call.headers["x-account-id"] == "user-42"
        assert call.headers["x-account-type"] == "user"
        assert call.headers["x-trace-id"] == "trace-abc"
        assert call.headers["traceparent"] == parent


async def test_generated_trace_id_reaches_upstreams_and_no_identity_is_invented(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(properties=[METRIC]))
    assert status == 200, body
    for call in (*kn_fakes.manager.calls, *kn_fakes.values.calls):
        assert call.headers["x-trace-id"] == body["trace_id"]
        assert "x-account-id" not in call.headers
        assert "traceparent" not in call.headers


async def test_identities_and_datas_keep_their_order(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    identities = [{"company_id": f"c{i}"} for i in (3, 1, 2, 5, 4)]
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(properties=[METRIC], _instance_identities=identities))
    assert status == 200, body
    assert queried(kn_fakes)[0].body["_instance_identities"] == identities
    assert [d["company_id"] for d in body["datas"]] == ["c3", "c1", "c2", "c5", "c4"]


BIG = 1234567890123456789  # 19 digits: a float would round it
HUGE = 123456789012345678901234567890  # beyond 64 bits


def big_values(seen: Seen) -> Any:
    identities = seen.body["_instance_identities"]
    return {
        "datas": [
            {
                **identity,
                METRIC: {"ts": [NOW_MS, 1762996342241], "count": BIG, "huge": HUGE},
            }
            for identity in identities
        ]
    }


async def test_big_integers_survive_every_hop_exactly(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.values.responder = big_values
    client = await make_kn_client(llm=False)
    identities = [{"company_id": BIG, "shard": HUGE}, {"company_id": 9223372036854775807}]
    window = {"instant": False, "start": 1_755_047_542_241, "end": 1762996342241, "step": "day"}
    body = kn_body(
        properties=[METRIC], _instance_identities=identities, dynamic_params={METRIC: window}
    )
    # orjson cannot write HUGE; the standard library writes every integer exactly.
    response = await client.post(
        PATH, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    raw = await response.read()
    assert response.status == 200, raw
    sent = queried(kn_fakes)[0].body
    assert sent["_instance_identities"] == identities
    assert sent["dynamic_params"][METRIC]["end"] == 1762996342241
    text = raw.decode()
    for digits in (str(BIG), str(HUGE), "9223372036854775807", "1762996342241"):
        assert digits in text
    assert '"end":1762996342241' in text
    assert "e+" not in text.lower()


# --- errors: request ---------------------------------------------------------------------------

BAD_REQUESTS: list[tuple[str, dict[str, Any], str]] = [
    ("no-kn-id", {"kn_id": None}, "kn_id"),
    ("empty-kn-id", {"kn_id": ""}, "kn_id"),
    ("blank-ot-id", {"ot_id": "  "}, "ot_id"),
    ("dot-ot-id", {"ot_id": ".."}, "ot_id"),
    ("no-query", {"query": None}, "query"),
    ("no-identities", {"_instance_identities": None}, "_instance_identities"),
    ("empty-identities", {"_instance_identities": []}, "_instance_identities"),
    ("empty-identity", {"_instance_identities": [{}]}, "_instance_identities"),
    ("no-properties", {"properties": None}, "properties"),
    ("empty-properties", {"properties": []}, "properties"),
    ("empty-property-name", {"properties": [""]}, "properties"),
    ("duplicate-properties", {"properties": [METRIC, METRIC]}, "duplicate properties"),
    (
        "dynamic-params-for-unrequested",
        {"properties": [METRIC], "dynamic_params": {OPERATOR: {"lang": "zh-CN"}}},
        "not in properties",
    ),
    ("unknown-field", {"querry": "x"}, "querry"),
    ("max-concurrency-too-high", {"options": {"max_concurrency": 64}}, "max_concurrency"),
    ("bad-option", {"options": {"return_debug": "true"}}, "return_debug"),
    ("kn-id-not-string", {"kn_id": 7}, "kn_id"),
]


@pytest.mark.parametrize(
    ("changes", "fragment"), [pytest.param(c, f, id=i) for i, c, f in BAD_REQUESTS]
)
async def test_bad_requests_are_400_before_any_upstream_call(
    make_kn_client: ClientFactory,
    kn_fakes: KnFakes,
    fake_llm: FakeLLM,
    changes: dict[str, Any],
    fragment: str,
) -> None:
    body = kn_body()
    for key, value in changes.items():
        if value is None:
            body.pop(key)
        else:
            body[key] = value
    client = await make_kn_client()
    status, payload = await post(client, body)
    assert status == 400, payload
    assert_error_shape(payload, "BAD_REQUEST")
    assert fragment in payload["_error"]
    assert no_calls(kn_fakes)
    assert fake_llm.calls == []


@pytest.mark.parametrize("fmt", ["yaml", "xml", "toon2"])
async def test_unsupported_response_format_is_400(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fmt: str
) -> None:
    client = await make_kn_client(llm=False)
    status, payload = await post(client, kn_body(), params={"response_format": fmt})
    assert status == 400, payload
    assert_error_shape(payload, "BAD_REQUEST")
    assert "(allowed: json, toon)" in payload["_error"]
    assert no_calls(kn_fakes)


async def test_response_format_json_is_served(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    status, payload = await post(
        client, kn_body(properties=[METRIC]), params={"response_format": "json"}
    )
    assert status == 200, payload


async def test_invalid_json_is_400(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> None:
    client = await make_kn_client(llm=False)
    response = await client.post(PATH, data=b"{nope", headers={"Content-Type": "application/json"})
    assert response.status == 400
    assert_error_shape(await response.json(), "INVALID_JSON")
    assert no_calls(kn_fakes)


async def test_unknown_property_is_400_listing_the_available_ones(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    client = await make_kn_client()
    status, body = await post(client, kn_body(properties=[METRIC, "nope", "registered_capital"]))
    assert status == 400, body
    assert_error_shape(body, "INVALID_PROPERTY")
    line = body["_error"]
    assert "nope, registered_capital" in line
    assert f"available logic properties: {METRIC}, {OPERATOR}" in line
    assert "registered_capital are data properties" in line
    assert body["error"]["details"] == {
        "unknown": ["nope", "registered_capital"],
        "available": [METRIC, OPERATOR],
    }
    assert queried(kn_fakes) == []
    assert fake_llm.calls == []


async def test_caller_value_for_an_undeclared_input_is_400(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    body = kn_body(properties=[METRIC], dynamic_params={METRIC: {"company_id": "c1"}})
    status, payload = await post(client, body)
    assert status == 400, payload
    assert "rule 3.1.1" in payload["_error"]
    assert queried(kn_fakes) == []


# --- errors: upstreams --------------------------------------------------------------------------


@pytest.mark.parametrize("missing_as_empty", [False, True], ids=["http-404", "empty-entries"])
async def test_missing_object_type_is_404(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, missing_as_empty: bool
) -> None:
    kn_fakes.manager.missing_as_empty = missing_as_empty
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(ot_id="ot_nope"))
    assert status == 404, body
    assert_error_shape(body, "OBJECT_TYPE_NOT_FOUND")
    assert "'ot_nope'" in body["_error"]
    assert len(object_type_calls(kn_fakes)) == 1
    assert queried(kn_fakes) == []


async def test_ids_are_escaped_into_one_path_segment(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    status, _ = await post(client, kn_body(kn_id="a/../b?x=1"))
    assert status == 404
    assert (
        "/knowledge-networks/a%2F..%2Fb%3Fx%3D1/object-types/"
        in object_type_calls(kn_fakes)[0].path
    )


@pytest.mark.parametrize(
    ("service", "how"),
    [
        ("bkn-backend", "down"),
        ("bkn-backend", "500"),
        ("bkn-backend", "503"),
        ("ontology-query", "down"),
        ("ontology-query", "500"),
        ("ontology-query", "502"),
    ],
)
async def test_upstream_down_or_5xx_is_502_naming_it_without_retry(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, service: str, how: str
) -> None:
    fake = kn_fakes.manager if service == "bkn-backend" else kn_fakes.values
    overrides: dict[str, Any] = {}
    if how == "down":
        key = "bkn_backend_url" if service == "bkn-backend" else "ontology_query_url"
        overrides[key] = CLOSED_PORT_URL
    else:
        # Only ontology-query's values request fails: the permission read has tests of its own.
        only = "/properties" if service == "ontology-query" else None
        fake.fail_always(Fault(status=int(how), message="database on fire", path_contains=only))
    client = await make_kn_client(llm=False, **overrides)
    status, body = await post(client, kn_body(properties=[METRIC]))
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["_error"].startswith(service)
    assert body["error"]["details"]["service"] == service
    if how == "down":
        assert "unreachable" in body["_error"]
        assert fake.calls == []
    else:
        # The status only: a 5xx message is the upstream's internals (docs/api.md).
        assert body["_error"] == f"{service} answered HTTP {how}"
        assert "on fire" not in orjson.dumps(body).decode()
        failed = object_type_calls(kn_fakes) if service == "bkn-backend" else queried(kn_fakes)
        assert len(failed) == 1  # never retried


async def test_upstream_timeout_is_502_without_retry(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.values.fail_always(Fault(hang=True, path_contains="/properties"))
    client = await make_kn_client(llm=False, upstream_timeout_s=0.3)
    status, body = await post(client, kn_body(properties=[METRIC]))
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["_error"] == "ontology-query did not answer in time"
    assert len(queried(kn_fakes)) == 1


@pytest.mark.parametrize("upstream_status", [400, 403, 404, 429])
async def test_ontology_query_4xx_passes_through(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, upstream_status: int
) -> None:
    kn_fakes.values.fail(
        Fault(
            status=upstream_status,
            message="no  access\nto ot_company",
            code="OQ.Denied",
            path_contains="/properties",
        )
    )
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(properties=[METRIC]))
    assert status == upstream_status, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert (
        body["_error"] == f"ontology-query answered HTTP {upstream_status}: no access to ot_company"
    )
    assert body["error"]["details"] == {
        "service": "ontology-query",
        "upstream_status": upstream_status,
        "upstream_code": "OQ.Denied",
    }
    assert len(queried(kn_fakes)) == 1


async def test_bkn_backend_4xx_passes_through(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.manager.fail(Fault(status=403, message="not allowed"))
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body())
    assert status == 403, body
    assert body["_error"] == "bkn-backend answered HTTP 403: not allowed"


async def test_upstream_error_body_is_not_copied(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.values.fail(
        Fault(status=500, body=b"<html>Traceback secret=hunter2</html>", path_contains="/prop")
    )
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(properties=[METRIC]))
    assert status == 502
    assert body["_error"] == "ontology-query answered HTTP 500"
    assert "hunter2" not in orjson.dumps(body).decode()


async def test_unreadable_answers_are_502(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> None:
    kn_fakes.values.responder = lambda seen: {"rows": []}
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(properties=[METRIC]))
    assert status == 502, body
    assert body["_error"] == (
        "ontology-query answered with property values resolver cannot read: there is no datas list"
    )
    kn_fakes.values.fail(Fault(status=200, body=b"not json", path_contains="/properties"))
    status, body = await post(client, kn_body(properties=[METRIC]))
    assert status == 502, body
    assert "not JSON" in body["_error"]


async def test_unusable_definition_is_502_naming_bkn_backend(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    object_type = kn_fakes.manager.object_types[(DEMO_KN, DEMO_OT)]
    object_type["logic_properties"].append(
        {"name": "broken", "type": "metric", "parameters": [{"name": "x", "value_from": "db"}]}
    )
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(properties=["broken"]))
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["_error"].startswith("bkn-backend answered with an object type")
    assert "'broken'" in body["_error"]
    # The broken definition does not spoil requests for the others.
    status, body = await post(client, kn_body(properties=[METRIC]))
    assert status == 200, body


@pytest.mark.parametrize(
    ("setting", "variable"),
    [
        ("bkn_backend_url", "RESOLVER_BKN_BACKEND_URL"),
        ("ontology_query_url", "RESOLVER_ONTOLOGY_QUERY_URL"),
    ],
)
async def test_unconfigured_upstream_is_503(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, setting: str, variable: str
) -> None:
    client = await make_kn_client(llm=False, **{setting: None})
    status, body = await post(client, kn_body())
    assert status == 503, body
    assert_error_shape(body, "NOT_CONFIGURED")
    assert variable in body["_error"]
    assert no_calls(kn_fakes)


# --- the resolution step: same answers as /v1/dynamic-params ------------------------------------


async def test_missing_inputs_are_422_and_nothing_is_queried(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(properties=[METRIC], query="药品数量"))
    assert status == 422, body
    assert_error_shape(body, "MISSING_PARAMS")
    assert body["missing"][0]["property"] == METRIC
    assert queried(kn_fakes) == []


async def test_llm_failure_is_502_and_nothing_is_queried(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=500))
    client = await make_kn_client()
    status, body = await post(client, kn_body())
    assert status == 502, body
    assert_error_shape(body, "LLM_UNAVAILABLE")
    assert queried(kn_fakes) == []


# --- operator schemas -----------------------------------------------------------------------


async def test_schema_enum_rejects_a_caller_value(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    wrong = {**HEALTH, "lang": "fr-FR"}
    body = kn_body(properties=[OPERATOR], dynamic_params={OPERATOR: wrong}, query="")
    status, payload = await post(client, body)
    assert status == 400, payload
    assert_error_shape(payload, "INVALID_DYNAMIC_PARAMS")
    assert "rule 5.3.2" in payload["_error"]
    assert "zh-CN" in payload["_error"]
    assert queried(kn_fakes) == []


async def test_schema_enum_rejects_llm_output_after_repair(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    wrong = orjson.dumps({OPERATOR: {**HEALTH, "lang": "fr-FR"}}).decode()
    fake_llm.respond(lambda call: Reply(content=wrong))
    client = await make_kn_client()
    status, body = await post(client, kn_body(properties=[OPERATOR]))
    assert status == 502, body
    assert_error_shape(body, "LLM_OUTPUT_INVALID")
    assert "rule 5.3.2" in body["_error"]
    assert len(fake_llm.calls) == 2  # the answer, then one repair round naming the rule
    assert "rule 5.3.2" in fake_llm.calls[1].messages[-1]["content"]
    assert queried(kn_fakes) == []


async def test_schema_enum_repaired_by_the_llm(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    wrong = orjson.dumps({OPERATOR: {**HEALTH, "lang": "fr-FR"}}).decode()
    fake_llm.push(Reply(content=wrong))
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    status, body = await post(client, kn_body(properties=[OPERATOR]))
    assert status == 200, body
    assert body["dynamic_params"][OPERATOR]["lang"] == "zh-CN"


async def test_prompt_gets_the_compact_schema_not_the_record(
    make_kn_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    status, body = await post(client, kn_body(properties=[OPERATOR]))
    assert status == 200, body
    task = fake_llm.calls[0].task
    assert task["schema"]["lang"]["enum"] == ["zh-CN", "en-US"]
    assert task["schema"]["items"] == {
        "type": "array",
        "items": {"type": "string"},
        "description": "评分维度, e.g. revenue, profit, growth",
    }
    prompt = orjson.dumps(fake_llm.calls[0].messages).decode()
    for raw_only in ("operator_id", "api_spec", "components", "$ref", "metadata_type", 'in":'):
        assert raw_only not in prompt


@pytest.mark.parametrize("how", ["500", "404", "down", "not-configured", "unusable", "name-clash"])
async def test_schema_fetch_failure_is_a_warning_not_an_error(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM, how: str
) -> None:
    fake_llm.respond(answer_health)
    overrides: dict[str, Any] = {}
    if how == "500":
        kn_fakes.operators.fail_always(Fault(status=500))
    elif how == "404":
        kn_fakes.operators.operators.clear()
    elif how == "down":
        overrides["operator_integration_url"] = CLOSED_PORT_URL
    elif how == "not-configured":
        overrides["operator_integration_url"] = None
    elif how == "unusable":
        kn_fakes.operators.operators[DEMO_OPERATOR_ID] = {"name": "x", "metadata": {}}
    else:
        # `lang` both as a query parameter and as a body property: no flat schema exists.
        record = demo_operator()
        spec = record["metadata"]["api_spec"]
        body_schema = spec["components"]["schemas"]["HealthScoreRequest"]
        body_schema["properties"]["lang"] = {"type": "string"}
        kn_fakes.operators.operators[DEMO_OPERATOR_ID] = record
    client = await make_kn_client(**overrides)
    status, body = await post(client, kn_body(options={"return_debug": True}))
    assert status == 200, body
    assert body["dynamic_params"][OPERATOR] == HEALTH
    (warning,) = body["debug"]["warnings"]
    assert DEMO_OPERATOR_ID in warning
    expected = {
        "500": "failed",
        "404": "failed",
        "down": "failed",
        "not-configured": "not_configured",
        "unusable": "unusable",
        "name-clash": "unusable",
    }[how]
    assert body["debug"]["operator_schemas"][OPERATOR]["outcome"] == expected
    assert "schema" not in fake_llm.calls[0].task
    assert len(queried(kn_fakes)) == 1


async def test_schemas_are_cached_between_requests(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    for _ in range(3):
        status, body = await post(client, kn_body(options={"return_debug": True}))
        assert status == 200, body
    assert len(kn_fakes.operators.calls) == 1
    assert body["debug"]["operator_schemas"][OPERATOR]["outcome"] == "cached"
    # Another account does not share the first one's entry.
    status, body = await post(client, kn_body(), headers={"x-account-id": "someone-else"})
    assert status == 200, body
    assert len(kn_fakes.operators.calls) == 2


async def test_schema_ttl_zero_fetches_every_time(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client(operator_schema_ttl_s=0)
    for _ in range(2):
        status, _ = await post(client, kn_body())
        assert status == 200
    assert len(kn_fakes.operators.calls) == 2


async def test_openapi_describes_the_pipeline(make_kn_client: ClientFactory) -> None:
    client = await make_kn_client(llm=False)
    doc = await (await client.get("/openapi.json")).json()
    for path in (PATH, PUBLIC_PATH):
        operation = doc["paths"][path]["post"]
        assert operation["requestBody"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/KnResolveRequest"
        }
        assert {"200", "400", "404", "422", "502", "503"} <= set(operation["responses"])
    schema = doc["components"]["schemas"]["KnResolveRequest"]
    jsonschema.validate(kn_body(), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(kn_body(properties=[]), schema)


async def test_metrics_count_upstream_calls_by_outcome(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.values.fail(Fault(status=503, path_contains="/properties"))
    client = await make_kn_client(llm=False)
    assert (await post(client, kn_body(properties=[METRIC])))[0] == 502
    assert (await post(client, kn_body(properties=[METRIC])))[0] == 200
    text = await (await client.get("/metrics")).text()
    for line in (
        'resolver_upstream_calls_total{outcome="ok",service="bkn-backend"} 2.0',
        'resolver_upstream_calls_total{outcome="http_5xx",service="ontology-query"} 1.0',
        # Two permission reads and one values request answered.
        'resolver_upstream_calls_total{outcome="ok",service="ontology-query"} 3.0',
        'resolver_upstream_call_duration_seconds_count{service="ontology-query"} 4.0',
    ):
        assert line in text


async def test_a_19_digit_identity_reaches_the_llm_and_ontology_query_exactly(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(answer_health)
    client = await make_kn_client()
    status, body = await post(client, kn_body(_instance_identities=[{"company_id": BIG}]))
    assert status == 200, body
    assert fake_llm.calls[0].task["unique_identities"] == [{"company_id": BIG}]
    assert queried(kn_fakes)[0].body["_instance_identities"] == [{"company_id": BIG}]
    assert body["datas"][0]["company_id"] == BIG


async def test_an_answer_nested_too_deeply_is_named_so(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    # Valid JSON, nested past the parser's depth: once "a body that is not JSON" (issue 30).
    deep = b'{"datas": ' + b"[" * 400 + b"]" * 400 + b"}"
    kn_fakes.values.fail(Fault(status=200, body=deep, path_contains="/properties"))
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(properties=[METRIC]))
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert "nested too deeply" in body["_error"]
    assert "not JSON" not in body["_error"]
