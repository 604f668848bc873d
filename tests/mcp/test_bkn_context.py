"""The platform's envelope, `bkn_context` (SPEC §2.3), in every MCP tool's arguments: listed
(optional) in every input schema, taken off before the tool runs, shape-checked (a tool error
`INVALID_BUSINESS_CONTEXT`), its ids on the call's log lines, the HTTP request's access line
and span; the call itself runs under that span."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
import structlog
from aiohttp.test_utils import TestClient
from opentelemetry.trace import SpanKind
from structlog.testing import capture_logs

from resolver.core.envelope import REF_TYPES
from resolver.mcp.server import LISTED
from resolver.testing.fake_upstreams import DEMO_KN, DEMO_OT, DEMO_TOOL_AT, add_demo_actions
from tests.helpers import ClientFactory, KnFakes, metric, recorded_spans, request_body
from tests.mcp_checks import TOOL_NAMES, call_tool, sdk_client, values_arguments

CONVERSATION = "conv_0f3a9c"
INTERACTION = "int_77"
ENVELOPE = {"conversation_id": CONVERSATION, "interaction_id": INTERACTION}
KN = {"X-Kn-ID": DEMO_KN}
# Every tool and arguments it answers without an error (rules only, over the demo fakes).
CALLS: dict[str, dict[str, Any]] = {
    "get_logic_properties_values": values_arguments(
        "当前的获批药品数量", dynamic_params={"approved_drug_count": {"instant": True}}
    ),
    "get_logic_property_inputs": {"ot_id": DEMO_OT},
    "get_action_info": {"at_id": DEMO_TOOL_AT, "_instance_identity": {"company_id": "c1"}},
    "resolve_dynamic_params": request_body(metric()),
}


@pytest.fixture
async def client(make_kn_client: ClientFactory, kn_fakes: KnFakes) -> TestClient[Any, Any]:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)
    return await make_kn_client(llm=False)


def result_of(answer: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = answer["result"]
    return result


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    body = dict(result["structuredContent"])
    body.pop("trace_id")
    body.pop("headers", None)  # get_action_info's: a span of each request's own
    return body


def sent_upstream(kn_fakes: KnFakes) -> str:
    seen = [*kn_fakes.manager.calls, *kn_fakes.operators.calls, *kn_fakes.values.calls]
    return orjson.dumps([[s.path, s.body] for s in seen]).decode()


def assert_published_envelope(schema: dict[str, Any], label: str) -> None:
    """The checks of upstream's `bkn_context_docs_test.go` (PR #1280): a closed object whose
    every child, and every field of a business reference, has a description of its own; the
    types, bounds, required sets and the 11-value `ref_type` as published."""
    envelope = schema["properties"]["bkn_context"]
    assert "bkn_context" not in schema.get("required", []), label
    assert envelope["type"] == "object", label
    assert envelope["additionalProperties"] is False, label
    assert set(envelope["required"]) == {"conversation_id", "interaction_id"}, label
    seen = {envelope["description"]}
    fields = envelope["properties"]
    assert set(fields) == {
        "conversation_id",
        "interaction_id",
        "parent_operation_id",
        "causation_event_ids",
        "business_refs",
    }, label
    for name in ("conversation_id", "interaction_id", "parent_operation_id"):
        assert fields[name]["type"] == "string", (label, name)
        assert fields[name]["maxLength"] == 256, (label, name)
    assert fields["causation_event_ids"]["type"] == "array"
    assert fields["causation_event_ids"]["maxItems"] == 64
    refs = fields["business_refs"]
    assert refs["type"] == "array", label
    assert refs["maxItems"] == 64, label
    item = refs["items"]
    assert item["additionalProperties"] is False, label
    assert set(item["required"]) == {"ref_type", "ref_id"}, label
    assert set(item["properties"]) == {"ref_type", "ref_id", "version"}, label
    assert set(item["properties"]["ref_type"]["enum"]) == set(REF_TYPES), label
    assert item["description"] not in seen
    seen.add(item["description"])
    ref_fields = [(f"ref.{name}", child) for name, child in item["properties"].items()]
    for where, child in [*fields.items(), *ref_fields]:
        text = child.get("description")
        assert text, (label, where)
        assert text not in seen, (label, where, "repeats a description")
        seen.add(text)


def test_every_tool_lists_it_described_closed_and_optional() -> None:
    assert {tool.name for tool in LISTED.tools} == TOOL_NAMES
    for tool in LISTED.tools:
        assert_published_envelope(tool.input_schema, tool.name)


async def test_the_mcp_client_reads_the_described_envelope(client: TestClient[Any, Any]) -> None:
    async with sdk_client(str(client.make_url("/mcp"))) as sdk:
        listed = await sdk.list_tools()
    assert {tool.name for tool in listed.tools} == TOOL_NAMES
    for tool in listed.tools:
        assert_published_envelope(tool.input_schema, tool.name)


async def test_openapi_shows_the_same_envelope(client: TestClient[Any, Any]) -> None:
    document = await (await client.get("/openapi.json")).json()
    schemas = document["components"]["schemas"]
    envelope = schemas["BknContext"]
    item = schemas["BusinessRef"]
    assert envelope["additionalProperties"] is False
    assert item["additionalProperties"] is False
    assert set(item["properties"]["ref_type"]["enum"]) == set(REF_TYPES)
    refs = envelope["properties"]["business_refs"]
    assert refs["items"] == {"$ref": "#/components/schemas/BusinessRef"}
    for child in [*envelope["properties"].values(), *item["properties"].values()]:
        assert child["description"]
    # One model renders both faces: the MCP schema's texts are the document's.
    [resolve] = [t for t in LISTED.tools if t.name == "resolve_dynamic_params"]
    listed = resolve.input_schema["properties"]["bkn_context"]["properties"]
    for name, child in envelope["properties"].items():
        assert listed[name]["description"] == child["description"]


@pytest.mark.parametrize("tool", sorted(CALLS))
async def test_every_tool_takes_it_and_answers_as_without_it(
    client: TestClient[Any, Any], kn_fakes: KnFakes, tool: str
) -> None:
    plain = result_of(await call_tool(client, tool, CALLS[tool], headers=KN))
    carried = result_of(
        await call_tool(client, tool, {**CALLS[tool], "bkn_context": ENVELOPE}, headers=KN)
    )
    assert plain["isError"] is carried["isError"] is False, carried
    assert comparable(carried) == comparable(plain)
    assert CONVERSATION not in sent_upstream(kn_fakes)
    assert "bkn_context" not in sent_upstream(kn_fakes)


@pytest.mark.parametrize("tool", sorted(CALLS))
async def test_a_bad_envelope_is_a_tool_error_before_anything_is_asked(
    client: TestClient[Any, Any], kn_fakes: KnFakes, tool: str
) -> None:
    arguments = {**CALLS[tool], "bkn_context": {**ENVELOPE, "operation_key": "k"}}
    result = result_of(await call_tool(client, tool, arguments, headers=KN))
    assert result["isError"] is True
    error = result["structuredContent"]
    assert error["error"]["code"] == "INVALID_BUSINESS_CONTEXT"
    assert error["status"] == 400
    assert error["error"]["details"][0]["loc"] == "bkn_context.operation_key"
    assert orjson.loads(result["content"][0]["text"]) == error
    assert sent_upstream(kn_fakes) == "[]"


async def test_the_ids_are_on_the_call_and_the_request_and_the_call_runs_in_its_span(
    make_kn_client: ClientFactory,
) -> None:
    arguments = {**CALLS["get_logic_properties_values"], "bkn_context": ENVELOPE}
    with recorded_spans() as spans:
        client = await make_kn_client(llm=False)
        with capture_logs(processors=[structlog.contextvars.merge_contextvars]) as logged:
            answer = await call_tool(client, "get_logic_properties_values", arguments, headers=KN)
    assert result_of(answer)["isError"] is False
    [call] = [line for line in logged if line["event"] == "mcp.tool_call"]
    [access] = [line for line in logged if line["event"] == "http.request"]
    for line in (call, access):
        assert line["conversation_id"] == CONVERSATION
        assert line["interaction_id"] == INTERACTION
    answered = result_of(answer)["structuredContent"]["trace_id"]
    assert call["trace_id"] == access["trace_id"] == answered
    finished = spans.get_finished_spans()
    [server] = [s for s in finished if s.kind == SpanKind.SERVER]
    assert dict(server.attributes or {})["bkn.conversation_id"] == CONVERSATION
    assert dict(server.attributes or {})["bkn.interaction_id"] == INTERACTION
    # The tool ran in the SDK's task, under the request's span: its upstream calls are children.
    upstream = [s for s in finished if s.kind == SpanKind.CLIENT]
    assert upstream
    for span in upstream:
        assert span.context.trace_id == server.context.trace_id
        assert span.parent is not None
        assert span.parent.span_id == server.context.span_id
