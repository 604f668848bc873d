"""The MCP tools without a transport: schemas generated from the HTTP models, tool errors in
the HTTP error shape, and the hints of a MISSING_INPUT_PARAMS error."""

from __future__ import annotations

from typing import Any

import jsonschema
import orjson
import pytest
from pydantic import BaseModel, ConfigDict

from resolver.actions.models import ActionInfoRequest
from resolver.core.errors import (
    BadRequest,
    LLMTimeout,
    MissingParams,
    NotConfigured,
    Overloaded,
    ResolverError,
    UpstreamError,
)
from resolver.core.failures import ErrorResponse
from resolver.core.settings import Settings
from resolver.kn.models import InputsRequest, KnResolveRequest, KnResolveResponse
from resolver.mcp.hints import missing_inputs
from resolver.mcp.results import tool_error_body
from resolver.mcp.schemas import input_schema
from resolver.mcp.server import LISTED
from resolver.mcp.tools import ACTIONS, INPUTS, RESOLVE, TOOLS, VALUES, WINDOW
from resolver.params.models import ResolveRequest, ResolveResponse
from resolver.params.service import open_params_service
from resolver.testing.fake_upstreams import DEMO_KN, DEMO_OT, DEMO_TOOL_AT
from resolver.windows.models import TimeWindowRequest
from tests.helpers import NOW_MS, metric, operator, request_body
from tests.mcp_checks import TOOL_NAMES, assert_valid_schema, values_arguments

# Per tool: the model the HTTP endpoint validates with, valid arguments, a field to break.
VALID: dict[str, tuple[type[BaseModel], dict[str, Any], str]] = {
    RESOLVE.name: (ResolveRequest, request_body(metric()), "query"),
    VALUES.name: (KnResolveRequest, {"kn_id": DEMO_KN, **values_arguments("最近3个月")}, "query"),
    ACTIONS.name: (
        ActionInfoRequest,
        {"kn_id": DEMO_KN, "at_id": DEMO_TOOL_AT, "_instance_identity": {"company_id": "c1"}},
        "at_id",
    ),
    INPUTS.name: (InputsRequest, {"kn_id": DEMO_KN, "ot_id": DEMO_OT}, "ot_id"),
    WINDOW.name: (TimeWindowRequest, {"text": "上个季度", "now_ms": NOW_MS, "unit": "s"}, "text"),
}
TOOL_IDS = [tool.name for tool in TOOLS]


def test_the_tools_are_read_only_in_a_closed_world_without_write_hints() -> None:
    # SPEC §8, upstream's annotations_test.go: the write hints mean nothing for a reader.
    assert {tool.name for tool in LISTED.tools} == TOOL_NAMES
    for tool in LISTED.tools:
        annotations = tool.annotations
        assert annotations is not None
        assert annotations.read_only_hint is True
        assert annotations.idempotent_hint is None
        assert annotations.destructive_hint is None
        assert annotations.open_world_hint is False
        assert tool.description
        assert len(tool.description) > 200  # written for an LLM choosing among tools


@pytest.mark.parametrize("tool", TOOLS, ids=TOOL_IDS)
def test_schemas_are_flat_json_schemas_with_every_property_described(tool: Any) -> None:
    assert_valid_schema(tool.input_schema)
    assert_valid_schema(tool.output_schema)
    for name, prop in tool.input_schema["properties"].items():
        assert prop.get("description"), name
        assert "title" not in prop


@pytest.mark.parametrize("tool", TOOLS, ids=TOOL_IDS)
def test_the_schema_accepts_and_refuses_what_the_http_model_does(tool: Any) -> None:
    model, arguments, field = VALID[tool.name]
    validator = jsonschema.Draft202012Validator(tool.input_schema)
    assert not list(validator.iter_errors(arguments))
    model.model_validate(arguments)
    # response_format is every tool's own argument (read before the model sees the rest).
    assert not list(validator.iter_errors({**arguments, "response_format": "toon"}))
    assert list(validator.iter_errors({**arguments, "response_format": "yaml"}))
    for bad, named in (
        ({**arguments, "surprise": 1}, "surprise"),
        ({**arguments, field: 5}, field),
    ):
        assert list(validator.iter_errors(bad)), bad
        with pytest.raises(ValueError, match=named):
            model.model_validate(bad)


def test_kn_id_may_come_from_the_transport() -> None:
    for tool in (VALUES, ACTIONS, INPUTS):
        assert "kn_id" in tool.input_schema["properties"]
        assert "kn_id" not in tool.input_schema["required"]
    assert "ot_id" in VALUES.input_schema["required"]
    assert "_instance_identities" in VALUES.input_schema["required"]


def test_the_names_the_kweaver_client_sends_are_listed() -> None:
    # get_action_info is called with {at_id, _instance_identity}; the model also takes the
    # other two spellings, and resolve_dynamic_params takes _instance_identities too.
    assert {"_instance_identity", "unique_identity", "_instance_identities"} <= set(
        ACTIONS.input_schema["properties"]
    )
    assert {"_instance_identities", "unique_identities"} <= set(RESOLVE.input_schema["properties"])
    assert set(VALUES.input_schema["properties"]) >= {
        "ot_id",
        "query",
        "_instance_identities",
        "properties",
        "additional_context",
    }


def test_output_schemas_describe_the_http_bodies() -> None:
    assert "_dynamic_tools" in ACTIONS.output_schema["properties"]
    assert set(VALUES.output_schema["required"]) == {"datas", "dynamic_params", "trace_id"}
    body = KnResolveResponse(datas=[{"a": 1}], dynamic_params={"p": {"x": 1}}, trace_id="t")
    jsonschema.validate(orjson.loads(body.to_json()), VALUES.output_schema)
    resolved = ResolveResponse(dynamic_params={"p": {"instant": True}}, trace_id="t")
    jsonschema.validate(orjson.loads(resolved.to_json()), RESOLVE.output_schema)


class _Plain(BaseModel):
    model_config = ConfigDict(extra="forbid")

    a: int
    b: str = ""


class _Node(BaseModel):
    children: list[_Node] = []


def test_the_schema_builder_refuses_names_the_model_does_not_have() -> None:
    with pytest.raises(ValueError, match="describe b"):
        input_schema(_Plain, descriptions={"a": "x"})
    with pytest.raises(ValueError, match="no property 'c'"):
        input_schema(_Plain, descriptions={"a": "x", "b": "y", "c": "z"})
    with pytest.raises(ValueError, match="does not accept 'aa'"):
        input_schema(_Plain, descriptions={"a": "x", "b": "y"}, aliases={"aa": "a"})
    with pytest.raises(ValueError, match="no property 'z'"):
        input_schema(_Plain, descriptions={"a": "x", "b": "y"}, optional=("z",))
    with pytest.raises(ValueError, match="refers to itself"):
        input_schema(_Node, descriptions={"children": "x"})
    schema = input_schema(_Plain, descriptions={"a": "x", "b": "y"}, optional=("a",))
    assert "required" not in schema
    assert schema["additionalProperties"] is False


ERRORS: list[ResolverError] = [
    BadRequest(
        "invalid request: query: Input should be a valid string",
        details=[{"loc": "query", "msg": "Input should be a valid string", "type": "string_type"}],
    ),
    UpstreamError(
        "ontology-manager answered 404: no such kn",
        service="ontology-manager",
        upstream_status=404,
        details={"service": "ontology-manager"},
    ),
    UpstreamError("ontology-query failed: timeout", service="ontology-query"),
    LLMTimeout("the request deadline of 30s passed", details={"properties": ["p"]}),
    Overloaded("too many LLM calls are waiting", retry_after_s=2),
    NotConfigured("RESOLVER_ONTOLOGY_QUERY_URL is unset"),
]


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: f"{e.code}-{e.http_status}")
def test_a_tool_error_carries_the_http_error_body(error: ResolverError) -> None:
    body = tool_error_body(error, "trace-1")
    http = orjson.loads(ErrorResponse.of(error, "trace-1").to_json())
    assert {k: body[k] for k in http} == http
    assert body["error_code"] == error.code
    assert body["message"] == error.one_line()
    assert body["status"] == error.http_status
    assert "missing" not in body


def _missing(ask: str, types: dict[str, str | None]) -> MissingParams:
    missing = [{"property": "p", "params": list(types), "ask": ask}]
    return MissingParams(
        f"missing p: {','.join(types)} | ask: {ask}", missing=missing, param_types={"p": types}
    )


def test_missing_inputs_get_the_kweaver_shape_next_to_the_http_one() -> None:
    error = _missing(
        "请明确查询的时间范围和步长",
        {"start": "INTEGER", "end": "INTEGER", "step": "STRING", "region": "STRING"},
    )
    body = tool_error_body(error, "t")
    http = orjson.loads(ErrorResponse.of(error, "t").to_json())
    assert body["error_code"] == "MISSING_INPUT_PARAMS"
    assert body["error"] == http["error"]
    assert body["_error"] == http["_error"]
    assert body["status"] == 422
    [entry] = body["missing"]
    [http_entry] = http["missing"]
    assert entry["property"] == http_entry["property"] == "p"
    assert entry["ask"] == http_entry["ask"]
    assert [p["name"] for p in entry["params"]] == http_entry["params"]
    types = {p["name"]: p["type"] for p in entry["params"]}
    assert types == {"start": "integer", "end": "integer", "step": "string", "region": "string"}
    hints = {p["name"]: p["hint"] for p in entry["params"]}
    assert all("additional_context" in hint for hint in hints.values())
    assert "start=2024-01-01" in hints["start"]
    assert "step=month" in hints["step"]
    assert "region=" in hints["region"]
    assert "时间范围" in hints["end"]  # the ask is Chinese, so are the hints


def test_hints_follow_the_language_of_the_ask() -> None:
    error = _missing(
        "Please state the time range and step", {"instant": "BOOLEAN", "items": "ARRAY", "x": None}
    )
    [entry] = missing_inputs(error)
    hints = {p["name"]: p for p in entry["params"]}
    assert "instant=true" in hints["instant"]["hint"]
    assert hints["items"]["type"] == "array"
    assert hints["items"]["hint"] == "add items=a,b (array) to additional_context"
    assert hints["x"]["type"] == "any"
    assert not any("在" in p["hint"] for p in entry["params"])


async def test_the_params_service_reports_the_types_of_what_is_missing() -> None:
    request = ResolveRequest.model_validate(
        request_body(
            metric("m", ("region", "STRING")),
            operator("o", ("items", "ARRAY"), ("limit", "INTEGER")),
            query="药品数量",
        )
    )
    async with open_params_service(Settings()) as (service, _):
        with pytest.raises(MissingParams) as caught:
            await service.resolve(request)
    assert caught.value.param_types == {
        "m": {"start": "INTEGER", "end": "INTEGER", "step": "STRING", "region": "STRING"},
        "o": {"items": "ARRAY", "limit": "INTEGER"},
    }
