"""Broken upstream data is said, never silently accepted (issue 21, item 11): each case is a
`debug.warnings` entry and a log line, or a 502 where the answer would be wrong; over real
sockets against the fakes."""

from __future__ import annotations

from typing import Any

import orjson
import structlog

from resolver.testing.fake_upstreams import DEMO_KN, Seen, demo_object_type, echo_values, grant_all
from tests.helpers import ClientFactory, KnFakes, assert_error_shape, rules_pipeline_body

PIPELINE = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"


async def _run(client: Any, **fields: Any) -> tuple[int, dict[str, Any], list[Any]]:
    body = rules_pipeline_body(options={"return_debug": True}, **fields)
    with structlog.testing.capture_logs() as logs:
        response = await client.post(PIPELINE, json=body)
        answer = orjson.loads(await response.read())
    return response.status, answer, logs


def _events(logs: list[Any]) -> set[str]:
    return {entry["event"] for entry in logs if entry["log_level"] in ("warning", "error")}


async def test_value_entries_that_are_not_objects_are_said(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    def with_nulls(seen: Seen) -> Any:
        datas = echo_values(seen)["datas"]
        return {"datas": [None, *datas[1:], 7]}

    kn_fakes.values.responder = with_nulls
    client = await make_kn_client(llm=False)
    identities = [{"company_id": "c1"}, {"company_id": "c2"}]
    status, body, logs = await _run(client, _instance_identities=identities)
    assert status == 200, body
    warnings = " | ".join(body["debug"]["warnings"])
    assert "not an object" in warnings
    assert "3 value entries for 2 identities" in warnings
    assert "kn.values_suspect" in _events(logs)


async def test_a_requested_property_with_unreadable_parameters_is_a_502(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    object_type = demo_object_type()
    object_type["logic_properties"][0]["parameters"] = "company_id, start, end"
    kn_fakes.manager.add(DEMO_KN, object_type)
    kn_fakes.values.plan_of = lambda kn_id, ot_id: {"company_id": "full"}
    client = await make_kn_client(llm=False)
    status, body, logs = await _run(client)
    assert status == 502, body  # the old code: 400 saying the name does not exist
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert "approved_drug_count" in body["_error"]
    assert "parameters" in body["_error"]
    assert "upstream.logic_property_unreadable" in _events(logs)


async def test_an_operator_id_that_is_a_path_segment_is_said(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    object_type = demo_object_type()
    object_type["logic_properties"][1]["data_source"] = {"type": "operator", "id": ".."}
    kn_fakes.manager.add(DEMO_KN, object_type)
    grant_all(kn_fakes.values, kn_fakes.manager)
    client = await make_kn_client(llm=False)
    status, body, logs = await _run(
        client,
        properties=["business_health_score"],
        dynamic_params={
            "business_health_score": {"lang": "zh", "include_details": True, "items": ["a"]}
        },
    )
    assert status == 200, body
    assert any("data_source.id '..'" in w for w in body["debug"]["warnings"])
    assert "operator_schema.unusable_id" in _events(logs)
    assert not [c for c in kn_fakes.operators.calls if c.path.endswith("/..")]


async def test_data_properties_that_are_not_a_list_are_said(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    object_type = demo_object_type()
    object_type["data_properties"] = {"company_id": "string"}
    kn_fakes.manager.add(DEMO_KN, object_type)
    grant_all(kn_fakes.values, kn_fakes.manager)
    client = await make_kn_client(llm=False)
    status, body, logs = await _run(client)
    assert status == 200, body
    assert any("data_properties" in w for w in body["debug"]["warnings"])
    assert "upstream.data_properties_unreadable" in _events(logs)


INPUTS = "/api/agent-retrieval/in/v1/kn/logic-property-inputs"


async def test_a_property_with_a_broken_parameters_definition_is_named_in_a_warning(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    # `parameters: "x"` on a property nobody asked for was left out in silence (issue 30):
    # on the pipeline and on logic-property-inputs, a warning now names it.
    object_type = demo_object_type()
    broken = object_type["logic_properties"][1]
    broken["parameters"] = "x"
    kn_fakes.manager.add(DEMO_KN, object_type)
    kn_fakes.values.plan_of = lambda kn_id, ot_id: {"company_id": "full"}
    client = await make_kn_client(llm=False)
    status, body, _ = await _run(client)  # asks for approved_drug_count only
    assert status == 200, body
    [warning] = [w for w in body["debug"]["warnings"] if "cannot read" in w]
    assert repr(broken["name"]) in warning
    response = await client.post(INPUTS, json={"kn_id": DEMO_KN, "ot_id": object_type["id"]})
    answer = orjson.loads(await response.read())
    assert response.status == 200, answer
    assert broken["name"] not in [p["name"] for p in answer["logic_properties"]]
    assert any(repr(broken["name"]) in w for w in answer["warnings"]), answer["warnings"]
