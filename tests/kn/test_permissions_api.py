"""Permission filtering, fail closed (SPEC §2.2 step 0), over real HTTP and over MCP.

ontology-query's `GET …/object-types/{ot_id}/schema` gives the caller's plan; a logic property
is visible only if every property it reads is `full`; invisible ones are unknown names; a plan
that cannot be read fails the request.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
import structlog
from structlog.testing import capture_logs

from resolver.kn.permissions import filter_object_type, is_visible, reads
from resolver.testing.fake_llm import FakeLLM
from resolver.testing.fake_upstreams import DEMO_KN, DEMO_OT, Fault
from resolver.upstreams.bkn_backend import ObjectType
from tests.helpers import NOW_MS, ClientFactory, KnFakes, assert_error_shape, plan_reads, queried
from tests.mcp_checks import call_tool

PATH = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
METRIC = "approved_drug_count"
OPERATOR = "business_health_score"
HEALTH = {"lang": "zh-CN", "include_details": True, "items": ["revenue"]}
PLAN_PATH = f"/api/ontology-query/in/v1/knowledge-networks/{DEMO_KN}/object-types/{DEMO_OT}/schema"


def kn_body(*properties: str, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "当前的获批药品数量",
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": list(properties) or [METRIC],
        "now_ms": NOW_MS,
    }
    body.update(fields)
    return body


async def post(client: Any, body: dict[str, Any], **headers: str) -> tuple[int, dict[str, Any]]:
    sent = {"Content-Type": "application/json", **headers}
    response = await client.post(PATH, data=orjson.dumps(body), headers=sent)
    return response.status, orjson.loads(await response.read())


def restrict(kn_fakes: KnFakes, plan: dict[str, str]) -> None:
    kn_fakes.values.plans[(DEMO_KN, DEMO_OT)] = plan


# --- visible ----------------------------------------------------------------------------------


async def test_a_visible_property_is_resolved_and_the_levels_come_back(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    restrict(kn_fakes, {"company_id": "full", "registered_capital": "masked", "secret": "none"})
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(), **{"x-account-id": "u1", "x-account-type": "user"})
    assert status == 200, body
    # `none` is not shown: the caller may not even know that property exists.
    assert body["effective_permissions"] == {"company_id": "full", "registered_capital": "masked"}
    (read,) = plan_reads(kn_fakes)
    assert (read.method, read.path) == ("GET", PLAN_PATH)
    assert read.headers["x-account-id"] == "u1"
    assert read.headers["x-account-type"] == "user"


# --- invisible ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "level",
    [
        pytest.param("masked", id="masked"),
        pytest.param("schema", id="schema"),
        pytest.param("none", id="none"),
        pytest.param("FULL", id="unknown-level"),
        pytest.param(None, id="no-decision"),
    ],
)
async def test_a_property_reading_a_field_that_is_not_full_is_unknown_and_never_listed(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM, level: str | None
) -> None:
    # Both demo properties read company_id; only a property reading nothing stays visible.
    kn_fakes.manager.object_types[(DEMO_KN, DEMO_OT)]["logic_properties"].append(
        {
            "name": "open_metric",
            "type": "metric",
            "parameters": [{"name": "instant", "value_from": "input"}],
        }
    )
    restrict(kn_fakes, {} if level is None else {"company_id": level})
    client = await make_kn_client()
    status, body = await post(client, kn_body(METRIC, "nope"))
    assert status == 400, body
    assert_error_shape(body, "INVALID_PROPERTY")
    assert body["error"]["details"] == {"unknown": [METRIC, "nope"], "available": ["open_metric"]}
    text = orjson.dumps(body).decode()
    assert OPERATOR not in text
    assert "available logic properties: open_metric)" in body["_error"]
    assert queried(kn_fakes) == []
    assert kn_fakes.operators.calls == []
    assert fake_llm.calls == []


async def test_a_hidden_data_property_is_not_named_as_one(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    restrict(kn_fakes, {"company_id": "full", "registered_capital": "none"})
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body("registered_capital"))
    assert status == 400, body
    assert "data properties" not in body["_error"]
    restrict(kn_fakes, {"company_id": "full", "registered_capital": "schema"})
    status, body = await post(client, kn_body("registered_capital"))
    assert "registered_capital are data properties" in body["_error"]


async def test_the_current_upstream_form_reads_the_parameter_value(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    # {"name": "company", "value_from": "property", "value": "company_id"}: company_id decides.
    object_type = kn_fakes.manager.object_types[(DEMO_KN, DEMO_OT)]
    object_type["logic_properties"][0]["parameters"][-1] = {
        "name": "company",
        "value_from": "property",
        "value": "company_id",
    }
    client = await make_kn_client(llm=False)
    restrict(kn_fakes, {"company": "full", "company_id": "masked"})
    status, body = await post(client, kn_body())
    assert status == 400, body
    restrict(kn_fakes, {"company": "none", "company_id": "full"})
    status, body = await post(client, kn_body())
    assert status == 200, body


async def test_every_property_parameter_must_be_full(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    object_type = kn_fakes.manager.object_types[(DEMO_KN, DEMO_OT)]
    object_type["logic_properties"][0]["parameters"].append(
        {"name": "region", "value_from": "property"}
    )
    client = await make_kn_client(llm=False)
    restrict(kn_fakes, {"company_id": "full", "region": "masked"})
    assert (await post(client, kn_body()))[0] == 400
    restrict(kn_fakes, {"company_id": "full", "region": "full"})
    assert (await post(client, kn_body()))[0] == 200


# --- the read fails: the request fails --------------------------------------------------------


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        pytest.param(Fault(status=500, message="plan store down"), "HTTP 500", id="500"),
        pytest.param(Fault(status=409, message="plan store busy"), "HTTP 409", id="409"),
        pytest.param(Fault(status=200, body=b"<html>"), "not JSON", id="not-json"),
        pytest.param(
            Fault(status=200, body=b'{"effective_permissions": ["full"]}'),
            "effective_permissions is not an object",
            id="not-an-object",
        ),
    ],
)
async def test_a_failed_permission_read_is_502_and_nothing_is_resolved(
    make_kn_client: ClientFactory,
    kn_fakes: KnFakes,
    fake_llm: FakeLLM,
    fault: Fault,
    said: str,
) -> None:
    kn_fakes.values.fail_always(Fault(**{**fault.__dict__, "path_contains": "/schema"}))
    client = await make_kn_client()
    status, body = await post(client, kn_body(METRIC, OPERATOR))
    assert status == 502, body
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["_error"].startswith("ontology-query ")
    assert said in body["_error"]
    assert body["error"]["details"]["service"] == "ontology-query"
    assert fault.message not in orjson.dumps(body).decode()  # the service's words stay out
    assert queried(kn_fakes) == []
    assert fake_llm.calls == []
    assert len(plan_reads(kn_fakes)) == 1  # never retried


@pytest.mark.parametrize(
    ("status", "code"),
    [(401, "UNAUTHORIZED"), (403, "PERMISSION_DENIED"), (404, "NOT_FOUND")],
)
async def test_a_refused_permission_read_keeps_its_status_and_stays_closed(
    make_kn_client: ClientFactory,
    kn_fakes: KnFakes,
    fake_llm: FakeLLM,
    status: int,
    code: str,
) -> None:
    # Upstream keeps a downstream 401/403/404 (issues #1547, #1548): a refusal is the
    # caller's answer, not a dependency failure. Still closed: nothing is resolved.
    secret = "row-level policy p-17 denies u1 on ot_company"
    kn_fakes.values.fail_always(
        Fault(
            status=status, message=secret, code="OntologyQuery.Forbidden", path_contains="/schema"
        )
    )
    client = await make_kn_client()
    with capture_logs(processors=[structlog.contextvars.merge_contextvars]) as logged:
        answered, body = await post(client, kn_body(METRIC, OPERATOR))
    assert answered == status, body
    assert_error_shape(body, code)
    assert body["error"]["details"] == {
        "service": "ontology-query",
        "upstream_status": status,
        "upstream_code": "OntologyQuery.Forbidden",
        "step": "permissions",
    }
    assert "fails closed" in body["_error"]
    assert secret not in orjson.dumps(body).decode()
    assert secret not in repr(logged)
    assert queried(kn_fakes) == []
    assert fake_llm.calls == []


async def test_a_refused_permission_read_is_the_same_over_mcp(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.values.fail_always(Fault(status=403, message="nope", path_contains="/schema"))
    client = await make_kn_client(llm=False)
    answer = await call_tool(
        client,
        "get_logic_properties_values",
        {k: v for k, v in kn_body().items() if k != "now_ms"},
    )
    result = answer["result"]
    assert result["isError"] is True
    assert result["structuredContent"]["error"]["code"] == "PERMISSION_DENIED"
    assert result["structuredContent"]["status"] == 403


async def test_an_unreachable_permission_service_is_502(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False, ontology_query_url="http://127.0.0.1:9")
    status, body = await post(client, kn_body())
    assert status == 502, body
    assert body["_error"].startswith("ontology-query is unreachable")


async def test_a_missing_object_type_outranks_the_plan(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    client = await make_kn_client(llm=False)
    status, body = await post(client, kn_body(ot_id="ot_nope"))
    assert status == 404, body
    assert_error_shape(body, "OBJECT_TYPE_NOT_FOUND")


# --- over MCP ----------------------------------------------------------------------------------


async def test_mcp_sees_what_http_sees(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> None:
    restrict(kn_fakes, {"company_id": "masked"})
    client = await make_kn_client(llm=False)
    arguments = {k: v for k, v in kn_body(METRIC).items() if k != "now_ms"}
    answer = await call_tool(client, "get_logic_properties_values", arguments)
    result = answer["result"]
    assert result["isError"] is True
    error = orjson.loads(result["content"][0]["text"])
    assert error["error_code"] == "INVALID_PROPERTY"
    assert error["status"] == 400
    assert METRIC in error["error"]["details"]["unknown"]
    restrict(kn_fakes, {"company_id": "full"})
    answer = await call_tool(client, "get_logic_properties_values", arguments)
    structured = answer["result"]["structuredContent"]
    assert structured["effective_permissions"] == {"company_id": "full"}
    assert structured["dynamic_params"] == {METRIC: {"instant": True}}


# --- the rule, unit by unit -------------------------------------------------------------------


def prop(*parameters: dict[str, Any]) -> dict[str, Any]:
    return {"name": "p", "type": "metric", "parameters": list(parameters)}


@pytest.mark.parametrize(
    ("parameter", "expected"),
    [
        ({"name": "a", "value_from": "property"}, "a"),
        ({"name": "a", "value_from": "property", "value": "b"}, "b"),
        ({"name": "a", "value_from": "property", "value": ""}, None),
        ({"name": "a", "value_from": "property", "value": 7}, None),
        ({"name": " ", "value_from": "property"}, None),
    ],
)
def test_reads(parameter: dict[str, Any], expected: str | None) -> None:
    assert reads(parameter) == expected


@pytest.mark.parametrize(
    ("definition", "plan", "visible"),
    [
        (prop(), {}, True),
        (prop({"name": "x", "value_from": "input"}), {}, True),
        (prop({"name": "k", "value": "v", "value_from": "const"}), {}, True),
        (prop({"name": "a", "value_from": "property"}), {}, False),
        (prop({"name": "a", "value_from": "property"}), {"a": "full"}, True),
        (prop({"name": "a", "value_from": "property"}), {"a": "masked"}, False),
        (prop({"name": "a", "value_from": "property", "value": 3}), {"a": "full"}, False),
        ({"name": "p", "parameters": "garbage"}, {}, False),
        ({"name": "p", "parameters": ["garbage"]}, {}, False),
    ],
)
def test_is_visible(definition: dict[str, Any], plan: dict[str, str], visible: bool) -> None:
    assert is_visible(definition, plan) is visible


def test_filter_keeps_order_and_hides_names() -> None:
    object_type = ObjectType(
        id="ot",
        name="ot",
        logic_properties=[
            prop({"name": "a", "value_from": "property"}) | {"name": "first"},
            prop({"name": "b", "value_from": "property"}) | {"name": "second"},
            prop() | {"name": "third"},
        ],
        data_property_names=["a", "b", "c"],
    )
    client: Any = object()  # only carried along, for the definitions' own 502s
    visible = filter_object_type(client, object_type, {"b": "full", "a": "schema", "c": "x"})
    assert visible.object_type.logic_property_names() == ["second", "third"]
    assert visible.hidden == ("first",)
    assert visible.object_type.data_property_names == ["a", "b"]
    assert visible.effective_permissions == {"b": "full", "a": "schema"}
