"""The HTTP surface: status codes, the error shape, trace ids, health and OpenAPI."""

from __future__ import annotations

from typing import Any

import jsonschema
import orjson
import pytest
from openapi_spec_validator import validate

from resolver.testing.fake_llm import FakeLLM, Reply
from resolver.web.middleware import UNMATCHED_CANONICAL
from tests.helpers import ClientFactory, assert_error_shape, metric, operator, post, request_body


async def test_healthz_reports_mode_and_prompts(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    response = await client.get("/healthz")
    assert response.status == 200
    body = await response.json()
    assert body["status"] == "ok"
    assert body["mode"] == "rules-only"
    # Where, without the host's path (issue 30: an unauthenticated probe showed it).
    assert body["prompts"] == "source"
    assert "/" not in str(body)


async def test_readyz_rules_only(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    response = await client.get("/readyz")
    assert response.status == 200
    assert (await response.json())["mode"] == "rules-only"


async def test_readyz_with_reachable_llm(make_client: ClientFactory) -> None:
    client = await make_client()
    response = await client.get("/readyz")
    body = await response.json()
    assert response.status == 200, body
    assert body["mode"] == "llm"
    assert body["llm"]["reachable"] is True


async def test_readyz_with_unreachable_llm(make_client: ClientFactory) -> None:
    client = await make_client(llm_base_url="http://127.0.0.1:9/v1")
    response = await client.get("/readyz")
    assert response.status == 503
    assert (await response.json())["llm"]["reachable"] is False


async def test_openapi_describes_the_endpoint(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    response = await client.get("/openapi.json")
    assert response.status == 200
    doc = await response.json()
    assert doc["openapi"].startswith("3.")
    assert "/v1/dynamic-params" in doc["paths"]
    assert "ResolveRequest" in doc["components"]["schemas"]


async def test_openapi_is_valid_and_lists_every_served_route(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    response = await client.get("/openapi.json")
    doc = await response.json()
    validate(doc)  # OpenAPI 3.1; raises on the first problem (a top-level trace_id was one)
    assert "trace_id" not in doc
    assert response.headers["x-trace-id"]
    served = {
        (method.lower(), resource.canonical)
        for resource in client.app.router.resources()
        if resource.canonical != UNMATCHED_CANONICAL  # the last route: 404 and 405
        for route in resource
        if (method := route.method) != "HEAD"
    }
    documented = {(method, path) for path, item in doc["paths"].items() for method in item}
    assert served == documented
    assert {"/metrics", "/openapi.json", "/healthz", "/readyz"} <= set(doc["paths"])


async def test_bodies_match_the_documented_schemas(make_client: ClientFactory) -> None:
    """Responses are rendered from the models /openapi.json documents: they cannot drift."""
    client = await make_client(llm=False)
    doc = await (await client.get("/openapi.json")).json()
    schemas = doc["components"]["schemas"]

    def check(body: dict[str, Any], name: str) -> None:
        schema = {**schemas[name], "components": {"schemas": schemas}}
        jsonschema.validate(body, schema)

    health = await (await client.get("/healthz")).json()
    check(health, "HealthResponse")
    ready = await (await client.get("/readyz")).json()
    check(ready, "ReadyResponse")
    status, ok = await post(client, request_body(metric(), query="最近3个月的趋势"))
    assert status == 200
    check(ok, "ResolveResponse")
    status, missing = await post(client, request_body(metric(), query="药品数量"))
    assert status == 422
    check(missing, "ErrorResponse")
    status, bad = await post(client, {"query": 1})
    assert status == 400
    check(bad, "ErrorResponse")


async def test_trace_id_taken_from_header(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    response = await client.get("/healthz", headers={"x-trace-id": "abc-123"})
    assert response.headers["x-trace-id"] == "abc-123"
    assert (await response.json())["trace_id"] == "abc-123"


async def test_trace_id_taken_from_traceparent(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    response = await client.get("/healthz", headers={"traceparent": parent})
    assert response.headers["x-trace-id"] == "4bf92f3577b34da6a3ce929d0e0e4736"


async def test_trace_id_generated_when_absent(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    first = (await client.get("/healthz")).headers["x-trace-id"]
    second = (await client.get("/healthz")).headers["x-trace-id"]
    assert len(first) == 32
    assert first != second


async def test_unknown_route_is_404_in_error_shape(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    response = await client.get("/nope")
    assert response.status == 404
    assert_error_shape(await response.json(), "NOT_FOUND")


async def test_wrong_method_is_405_in_error_shape(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    response = await client.get("/v1/dynamic-params")
    assert response.status == 405
    assert_error_shape(await response.json(), "METHOD_NOT_ALLOWED")


BAD_REQUESTS: list[tuple[str, Any, str, str]] = [
    ("invalid-json", b"{not json", "INVALID_JSON", "not valid JSON"),
    ("invalid-utf8", b'{"query": "\xff\xfe"}', "INVALID_JSON", "not valid JSON"),
    ("array-body", b"[]", "BAD_REQUEST", "invalid request"),
    ("no-properties", {"query": "x"}, "BAD_REQUEST", "logic_properties"),
    ("empty-properties", {"logic_properties": [], "query": "x"}, "BAD_REQUEST", "logic_properties"),
    (
        "query-not-string",
        {"logic_properties": [metric()], "query": 3},
        "BAD_REQUEST",
        "query",
    ),
    (
        "empty-property-name",
        {"logic_properties": [operator("", ("a", "STRING"))], "query": "x"},
        "BAD_REQUEST",
        "name",
    ),
    (
        "duplicate-property-names",
        {"logic_properties": [metric("a"), metric("a")], "query": "x"},
        "BAD_REQUEST",
        "duplicate logic property names: a",
    ),
    (
        "duplicate-param-names",
        {"logic_properties": [operator("a", ("x", "STRING"), ("x", "NUMBER"))], "query": "x"},
        "BAD_REQUEST",
        "duplicate parameter name",
    ),
    (
        "unknown-param-type",
        {"logic_properties": [operator("a", ("x", "DATE"))], "query": "x"},
        "BAD_REQUEST",
        "unknown parameter type 'DATE'",
    ),
    (
        "unknown-property-type",
        {"logic_properties": [{"name": "a", "type": "table", "parameters": []}], "query": "x"},
        "BAD_REQUEST",
        "type",
    ),
    (
        "unknown-top-level-field",
        {"logic_properties": [metric()], "query": "x", "querry": "y"},
        "BAD_REQUEST",
        "querry",
    ),
    (
        "max-concurrency-too-high",
        {"logic_properties": [metric()], "query": "x", "options": {"max_concurrency": 17}},
        "BAD_REQUEST",
        "max_concurrency",
    ),
    (
        "max-concurrency-zero",
        {"logic_properties": [metric()], "query": "x", "options": {"max_concurrency": 0}},
        "BAD_REQUEST",
        "max_concurrency",
    ),
    (
        "now-ms-as-string",
        {"logic_properties": [metric()], "query": "x", "now_ms": "1762996342241"},
        "BAD_REQUEST",
        "now_ms",
    ),
    (
        "now-ms-out-of-range",
        {"logic_properties": [metric()], "query": "x", "now_ms": 5},
        "BAD_REQUEST",
        "now_ms",
    ),
    (
        "unknown-timezone",
        {"logic_properties": [metric()], "query": "x", "timezone": "Mars/Olympus"},
        "BAD_REQUEST",
        "unknown timezone 'Mars/Olympus'",
    ),
    (
        "unknown-timezone-in-context",
        {"logic_properties": [metric()], "query": "x", "additional_context": "timezone=Nowhere"},
        "BAD_REQUEST",
        "unknown timezone 'Nowhere'",
    ),
    (
        "dynamic-params-for-unknown-property",
        {"logic_properties": [metric()], "query": "x", "dynamic_params": {"other": {"a": 1}}},
        "BAD_REQUEST",
        "'other', which is not a requested property",
    ),
    (
        "dynamic-params-unknown-key",
        {
            "logic_properties": [metric()],
            "query": "x",
            "dynamic_params": {"approved_drug_count": {"company_id": "c1"}},
        },
        "BAD_REQUEST",
        "rule 3.1.1",
    ),
    (
        "too-many-properties",
        {"logic_properties": [metric(f"p{i}") for i in range(65)], "query": "x"},
        "BAD_REQUEST",
        "logic_properties",
    ),
    (
        "bad-option",
        {"logic_properties": [metric()], "query": "x", "options": {"return_debug": "yes"}},
        "BAD_REQUEST",
        "return_debug",
    ),
]


@pytest.mark.parametrize(
    ("body", "code", "fragment"),
    [pytest.param(b, c, f, id=i) for i, b, c, f in BAD_REQUESTS],
)
async def test_bad_requests_are_400(
    make_client: ClientFactory, fake_llm: FakeLLM, body: Any, code: str, fragment: str
) -> None:
    client = await make_client()
    data = body if isinstance(body, bytes) else orjson.dumps(body)
    response = await client.post(
        "/v1/dynamic-params", data=data, headers={"Content-Type": "application/json"}
    )
    payload = await response.json()
    assert response.status == 400, payload
    assert_error_shape(payload, code)
    assert fragment in payload["_error"]
    assert fake_llm.calls == []


async def test_oversized_body_is_413(make_client: ClientFactory) -> None:
    client = await make_client(llm=False, max_body_bytes=2048)
    body = request_body(metric(), query="x" * 4000)
    response = await client.post("/v1/dynamic-params", json=body)
    assert response.status == 413
    assert_error_shape(await response.json(), "PAYLOAD_TOO_LARGE")


async def test_wrong_content_type_is_415(make_client: ClientFactory) -> None:
    client = await make_client(llm=False)
    response = await client.post(
        "/v1/dynamic-params", data=b"query=x", headers={"Content-Type": "text/plain"}
    )
    assert response.status == 415
    assert_error_shape(await response.json(), "UNSUPPORTED_MEDIA_TYPE")


async def test_missing_content_type_is_415(make_client: ClientFactory) -> None:
    # Once read as JSON: a web page's POST needs no CORS preflight without a Content-Type,
    # so it spent the LLM budget (issue 30, item 2).
    client = await make_client(llm=False)
    body = orjson.dumps(
        request_body(metric(), dynamic_params={"approved_drug_count": {"instant": True}})
    )
    response = await client.post("/v1/dynamic-params", data=body, headers={"Content-Type": ""})
    assert response.status == 415, await response.text()
    assert_error_shape(await response.json(), "UNSUPPORTED_MEDIA_TYPE")


async def test_llm_unavailable_is_502(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    fake_llm.respond(lambda call: Reply(status=500))
    client = await make_client()
    response = await client.post(
        "/v1/dynamic-params", json=request_body(metric("m", ("region", "STRING")))
    )
    body = await response.json()
    assert response.status == 502
    assert_error_shape(body, "LLM_UNAVAILABLE")
    assert "fake error" not in orjson.dumps(body).decode()  # upstream bodies never copied


async def test_metrics_exposition(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    client = await make_client()
    fake_llm.push(Reply(status=500))
    await client.post("/v1/dynamic-params", json=request_body(operator("o", ("x", "STRING"))))
    await client.get("/nope")
    response = await client.get("/metrics")
    assert response.status == 200
    assert response.content_type == "text/plain"
    text = await response.text()
    assert 'resolver_http_requests_total{route="/v1/dynamic-params",status="200"} 1.0' in text
    assert 'resolver_http_requests_total{route="unmatched",status="404"} 1.0' in text
    assert 'resolver_llm_attempts_total{outcome="http_5xx"} 1.0' in text
    assert 'resolver_llm_attempts_total{outcome="ok"} 1.0' in text
    assert "resolver_llm_inflight 0.0" in text
