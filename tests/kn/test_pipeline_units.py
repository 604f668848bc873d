"""Pieces of the pipeline on their own: operator-schema shapes, the schema cache, upstream calls."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import pytest
from aiohttp import web

from resolver.core.errors import NotConfigured, UpstreamError
from resolver.core.ids import segment
from resolver.core.jsonio import loads
from resolver.core.settings import Settings
from resolver.kn.models import is_kn_request
from resolver.kn.operator_schemas import OperatorSchemas, operator_document, operator_id_of
from resolver.testing.fake_upstreams import (
    DEMO_OPERATOR_ID,
    FakeOperatorIntegration,
    Fault,
    demo_operator,
)
from resolver.toolschema.inputs import input_schemas
from resolver.upstreams.client import (
    ONTOLOGY_QUERY,
    OPERATOR_INTEGRATION,
    CallerHeaders,
    open_upstreams,
)

CALLER = CallerHeaders("t1", "acct", "user")
LANG = {"name": "lang", "in": "query", "schema": {"type": "string", "enum": ["zh", "en"]}}
BODY = {
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {"top": {"$ref": "#/components/schemas/Top"}},
            }
        }
    }
}
COMPONENTS = {"schemas": {"Top": {"type": "integer", "enum": [1, 2]}}}
OPERATION = {"parameters": [LANG], "request_body": BODY, "components": COMPONENTS}


def full_openapi(*methods: str) -> dict[str, Any]:
    operation = {"parameters": [LANG], "requestBody": BODY}
    return {
        "openapi": "3.0.0",
        "paths": {"/score": dict.fromkeys(methods, operation)},
        "components": COMPONENTS,
    }


SHAPES: list[tuple[str, Any]] = [
    ("metadata-api-spec", {"operator_id": "x", "metadata": {"api_spec": OPERATION}}),
    ("api-spec-top-level", {"api_spec": OPERATION}),
    ("bare-operation", OPERATION),
    ("data-wrapper", {"data": {"metadata": {"api_spec": OPERATION}}}),
    ("api-spec-as-json-string", {"metadata": {"api_spec": json.dumps(OPERATION)}}),
    ("full-openapi-one-operation", {"metadata": {"api_spec": full_openapi("post")}}),
    (
        "full-openapi-picked-by-path-and-method",
        {"path": "/score", "method": "POST", **full_openapi("get", "post")},
    ),
    (
        "components-beside-api-spec",
        {"metadata": {"api_spec": {"parameters": [LANG], "request_body": BODY}}}
        | {"components": COMPONENTS},
    ),
]


@pytest.mark.parametrize("answer", [pytest.param(a, id=i) for i, a in SHAPES])
def test_operator_document_finds_the_operation(answer: Any) -> None:
    document = operator_document(answer)
    assert document is not None
    schemas = input_schemas(document)
    assert schemas["lang"]["enum"] == ["zh", "en"]
    assert schemas["top"] == {"type": "integer", "enum": [1, 2]}


@pytest.mark.parametrize(
    "answer",
    [
        pytest.param(None, id="null"),
        pytest.param([], id="list"),
        pytest.param({"name": "x", "metadata": {}}, id="no-spec"),
        pytest.param({"metadata": {"api_spec": "{not json"}}, id="bad-json-string"),
        pytest.param(full_openapi("get", "post"), id="ambiguous-paths"),
    ],
)
def test_operator_document_none_when_there_is_no_operation(answer: Any) -> None:
    assert operator_document(answer) is None


def test_the_demo_operator_yields_its_enum() -> None:
    document = operator_document(demo_operator())
    assert document is not None
    assert input_schemas(document)["lang"]["enum"] == ["zh-CN", "en-US"]


@pytest.mark.parametrize(
    ("data_source", "expected"),
    [
        ({"type": "operator", "id": "op1"}, "op1"),
        ({"id": 42}, "42"),
        ({"id": "  "}, None),
        ({"id": True}, None),
        ({}, None),
        (None, None),
    ],
)
def test_operator_id_of(data_source: dict[str, Any] | None, expected: str | None) -> None:
    assert operator_id_of(data_source) == expected


def test_parse_json_keeps_integers_exact_and_refuses_nan() -> None:
    assert loads(b'{"a": 123456789012345678901234567890, "b": 1.5}') == {
        "a": 123456789012345678901234567890,
        "b": 1.5,
    }
    with pytest.raises(ValueError, match="expected value"):
        loads(b'{"a": NaN}')


def test_segment_escapes_everything_reserved() -> None:
    assert segment("a/b?c#d e%") == "a%2Fb%3Fc%23d%20e%25"
    assert segment("知识网络") == "%E7%9F%A5%E8%AF%86%E7%BD%91%E7%BB%9C"
    with pytest.raises(ValueError, match="path segment"):
        segment("..")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b'{"kn_id": "k", "ot_id": "o", "properties": []}', True),
        (b'{"logic_properties": [], "kn_id": "k"}', False),
        (b'{"query": "x"}', False),
        (b"[1]", False),
        (b"{nope", False),
    ],
)
def test_is_kn_request(body: bytes, code: bool) -> None:
    assert is_kn_request(body) is code


# --- the schema cache, over a real fake server -------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def stack() -> AsyncIterator[AsyncExitStack]:
    async with AsyncExitStack() as opened:
        yield opened


async def schemas_for(
    aiohttp_server: Any,
    stack: AsyncExitStack,
    fake: FakeOperatorIntegration,
    ttl_s: float,
    clock: Clock,
) -> OperatorSchemas:
    server = await aiohttp_server(fake.app())
    settings = Settings(operator_integration_url=str(server.make_url("/")))
    upstreams = await stack.enter_async_context(open_upstreams(settings))
    return OperatorSchemas(upstreams, ttl_s, clock=clock)


async def test_cache_serves_within_ttl_and_refetches_after(
    aiohttp_server: Any, stack: AsyncExitStack
) -> None:
    fake, clock = FakeOperatorIntegration(), Clock()
    fake.operators[DEMO_OPERATOR_ID] = demo_operator()
    schemas = await schemas_for(aiohttp_server, stack, fake, 60, clock)
    first = await schemas.get(DEMO_OPERATOR_ID, CALLER)
    second = await schemas.get(DEMO_OPERATOR_ID, CALLER)
    clock.now += 61
    third = await schemas.get(DEMO_OPERATOR_ID, CALLER)
    assert [first.outcome, second.outcome, third.outcome] == ["fetched", "cached", "fetched"]
    assert second.document == first.document
    assert len(fake.calls) == 2
    assert fake.calls[0].headers["x-account-id"] == "acct"


async def test_failures_are_remembered_briefly(aiohttp_server: Any, stack: AsyncExitStack) -> None:
    fake, clock = FakeOperatorIntegration(), Clock()
    fake.operators[DEMO_OPERATOR_ID] = demo_operator()
    fake.fail(Fault(status=503))
    schemas = await schemas_for(aiohttp_server, stack, fake, 300, clock)
    first = await schemas.get(DEMO_OPERATOR_ID, CALLER)
    again = await schemas.get(DEMO_OPERATOR_ID, CALLER)
    clock.now += 31
    later = await schemas.get(DEMO_OPERATOR_ID, CALLER)
    assert first.outcome == again.outcome == "failed"
    assert first.warning is not None
    assert "HTTP 503" in first.warning
    assert later.outcome == "fetched"
    assert len(fake.calls) == 2


async def test_concurrent_requests_share_one_fetch(
    aiohttp_server: Any, stack: AsyncExitStack
) -> None:
    fake, clock = FakeOperatorIntegration(), Clock()
    fake.operators[DEMO_OPERATOR_ID] = demo_operator()
    fake.fail(Fault(status=200, body=json.dumps(demo_operator()).encode(), delay_s=0.2))
    schemas = await schemas_for(aiohttp_server, stack, fake, 60, clock)
    results = await asyncio.gather(*(schemas.get(DEMO_OPERATOR_ID, CALLER) for _ in range(5)))
    assert {r.outcome for r in results} == {"fetched"}
    assert len(fake.calls) == 1


async def test_a_cancelled_caller_does_not_cancel_the_shared_fetch(
    aiohttp_server: Any, stack: AsyncExitStack
) -> None:
    fake, clock = FakeOperatorIntegration(), Clock()
    fake.operators[DEMO_OPERATOR_ID] = demo_operator()
    fake.fail(Fault(status=200, body=json.dumps(demo_operator()).encode(), delay_s=0.2))
    schemas = await schemas_for(aiohttp_server, stack, fake, 60, clock)
    first = asyncio.ensure_future(schemas.get(DEMO_OPERATOR_ID, CALLER))
    await asyncio.sleep(0.05)
    second = asyncio.ensure_future(schemas.get(DEMO_OPERATOR_ID, CALLER))
    await asyncio.sleep(0)
    first.cancel()
    result = await second
    assert result.outcome == "fetched"
    assert len(fake.calls) == 1


# --- upstream client ---------------------------------------------------------------------------


async def test_unconfigured_service_is_not_configured() -> None:
    async with open_upstreams(Settings()) as upstreams:
        assert not upstreams.configured(ONTOLOGY_QUERY)
        with pytest.raises(NotConfigured, match="RESOLVER_ONTOLOGY_QUERY_URL"):
            upstreams.get(ONTOLOGY_QUERY)


async def test_error_summary_reads_nested_and_plain_messages(aiohttp_server: Any) -> None:
    answers = iter(
        [
            web.json_response(
                {"error": {"message": "nested  words"}, "error_code": 17}, status=409
            ),
            web.json_response(["not", "an", "object"], status=400),
            web.json_response({"message": "x" * 1000}, status=422),
        ]
    )

    async def handler(request: web.Request) -> web.Response:
        return next(answers)

    app = web.Application()
    app.router.add_get("/thing", handler)
    server = await aiohttp_server(app)
    settings = Settings(operator_integration_url=str(server.make_url("/")))
    errors: list[UpstreamError] = []
    async with open_upstreams(settings) as upstreams:
        client = upstreams.get(OPERATOR_INTEGRATION)
        for _ in range(3):
            with pytest.raises(UpstreamError) as caught:
                await client.get_json("/thing", caller=CALLER)
            errors.append(caught.value)
    assert errors[0].message == "agent-operator-integration answered HTTP 409: nested words"
    assert errors[0].details["upstream_code"] == "17"
    assert errors[0].http_status == 409
    assert errors[1].message == "agent-operator-integration answered HTTP 400"
    assert len(errors[2].message) < 360
