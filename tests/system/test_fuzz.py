"""Hostile request bodies over real HTTP: every answer is a clean 4xx (or a correct 200).

The service runs on a loopback port in a thread with its own event loop, so hypothesis drives
it with plain blocking HTTP: random JSON, wrong types, huge strings, deep nesting, 65+
properties, duplicate names, unknown types, special numbers, invalid UTF-8, wrong content
types. Whatever arrives, the answer comes back quickly, in the SPEC error shape, with no 500,
no traceback, and a one-line `_error`; a 200 carries the caller's values exactly.
"""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import time
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from resolver.core.settings import Settings
from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible_values
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    DEMO_OPERATOR_ID,
    DEMO_OT,
    DEMO_TOOL_AT,
    FakeBknBackend,
    FakeOntologyQuery,
    FakeOperatorIntegration,
    add_demo_actions,
    demo_object_type,
    demo_operator,
    grant_all,
)
from resolver.web.app import create_app
from tests.helpers import NOW_MS, ThreadServed, metric, operator
from tests.helpers import json_values as any_json

PATH = "/v1/dynamic-params"
KN_PATH = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
MAX_BODY = 64 * 1024
CLIENT_ERRORS = {400, 408, 413, 415, 422}
# A clean refusal must not take long; a regex gone quadratic on a big body would.
MAX_ANSWER_S = 3.0
# RESOLVER_REQUEST_TIMEOUT_S here: it also bounds how long a body may take to arrive.
BODY_TIMEOUT_S = 1.0

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


class Served(ThreadServed):
    """The service (and optionally a fake LLM) served from a thread on loopback ports."""

    def __init__(self, **overrides: Any) -> None:
        super().__init__()
        self._overrides = overrides

    async def _start(self) -> int:
        values: dict[str, Any] = {
            "max_body_bytes": MAX_BODY,
            "llm_timeout_s": 1.0,
            "request_timeout_s": BODY_TIMEOUT_S,
        }
        if self._overrides.pop("llm", False):
            fake_port = await self._serve(FakeLLM(responder=dated).app())
            values["llm_base_url"] = f"http://127.0.0.1:{fake_port}/v1"
        if self._overrides.pop("kn", False):
            manager, operators = FakeBknBackend(), FakeOperatorIntegration()
            query = FakeOntologyQuery()
            manager.add(DEMO_KN, demo_object_type())
            grant_all(query, manager)
            operators.operators[DEMO_OPERATOR_ID] = demo_operator()
            add_demo_actions(query, operators)
            for key, fake in (
                ("bkn_backend_url", manager),
                ("operator_integration_url", operators),
                ("ontology_query_url", query),
            ):
                values[key] = f"http://127.0.0.1:{await self._serve(fake.app())}"
            values["public_url"] = "https://resolver.example.com"
        values.update(self._overrides)
        return await self._serve(create_app(Settings(**values)))

    def post(
        self, body: bytes, headers: dict[str, str], path: str
    ) -> tuple[int, dict[str, str], bytes]:
        """POST raw bytes; (status, headers, body)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=MAX_ANSWER_S * 3)
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()


def dated(call: Call) -> Reply:
    """A valid answer with calendar dates for the time window."""
    values = plausible_values(call.task)
    values.update({k: v for k, v in WINDOW.items() if k in values})
    return Reply(content=json.dumps({call.property_name: values}, ensure_ascii=False))


WINDOW = {"start": "2025-08-01", "end": "2025-10-31"}


@pytest.fixture(scope="module")
def rules_only() -> Iterator[Served]:
    with Served() as served:
        yield served


@pytest.fixture(scope="module")
def with_llm() -> Iterator[Served]:
    with Served(llm=True) as served:
        yield served


@pytest.fixture(scope="module")
def pipeline() -> Iterator[Served]:
    with Served(llm=True, kn=True) as served:
        yield served


def check_answer(
    served: Served,
    body: bytes,
    *,
    content_type: str = "application/json",
    path: str = PATH,
    allowed: frozenset[int] = frozenset({200, *CLIENT_ERRORS}),
    encoding: str | None = None,
) -> tuple[int, dict[str, Any]]:
    """Send the body and check what every answer must satisfy; return (status, payload)."""
    sent = {"Content-Type": content_type}
    if encoding is not None:
        sent["Content-Encoding"] = encoding
    started = time.monotonic()
    status, headers, raw = served.post(body, sent, path)
    elapsed = time.monotonic() - started
    assert elapsed < MAX_ANSWER_S, f"answer took {elapsed:.1f}s"
    return check_payload(status, headers, raw, allowed)


def check_payload(
    status: int, headers: dict[str, str], raw: bytes, allowed: frozenset[int]
) -> tuple[int, dict[str, Any]]:
    """What every answer of the service must satisfy; (status, payload)."""
    text = raw.decode("utf-8")  # the answer itself is always valid UTF-8
    assert status in allowed, text[:500]
    assert headers.get("Content-Type", "").startswith("application/json"), headers
    assert "Traceback" not in text
    assert 'File "' not in text
    # The standard library keeps big integers exact; NaN or Infinity in an answer is a bug.
    payload = json.loads(text, parse_constant=_refuse_constant)
    assert isinstance(payload, dict)
    assert payload["trace_id"]
    assert headers["x-trace-id"] == payload["trace_id"]
    if status == 200:
        return status, payload
    line = payload["_error"]
    assert isinstance(line, str)
    assert line.strip()
    assert line.splitlines() == [line], f"_error is not one line: {line[:200]!r}"
    assert isinstance(payload["error"]["code"], str)
    assert isinstance(payload["error"]["message"], str)
    assert "details" in payload["error"]
    if status == 422:
        assert isinstance(payload["missing"], list)
    return status, payload


def _refuse_constant(token: str) -> Any:
    raise AssertionError(f"the answer holds {token}, which is not JSON")


def valid_body(**fields: Any) -> dict[str, Any]:
    """A body the service accepts: a metric and an operator, a clock and a timezone."""
    body: dict[str, Any] = {
        "logic_properties": [
            metric("drugs", ("region", "STRING")),
            operator("score", ("items", "ARRAY"), ("filter", "OBJECT"), ("x", "")),
        ],
        "query": "最近3个月的药品数量趋势",
        "unique_identities": [{"company_id": "c1"}],
        "additional_context": 'region=华东；items=a,b；filter={"k":1}；x=1',
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
        "options": {"max_concurrency": 2, "return_debug": True},
    }
    body.update(fields)
    return body


def encode(value: Any) -> bytes:
    """JSON text the way an arbitrary client might write it (non-ASCII kept raw)."""
    return json.dumps(value, ensure_ascii=False).encode()


json_values = any_json(big_ints=80, text_size=30, size=4, leaves=12)

# Units that, repeated, made regexes quadratic or overflowed parsers and renderers.
_UNITS = [
    "a",
    "a.",
    "地",
    " ",
    "a ",
    "=",
    "：",
    "a=",
    "1",
    "{",
    "[",
    "step=month；",
    "\u2028",
    "\\",
]
huge_strings = st.builds(
    lambda unit, n: unit * n, st.sampled_from(_UNITS), st.integers(1_000, 30_000)
)


def deep(depth: int, kind: str) -> Any:
    """A value nested `depth` levels deep."""
    value: Any = 1
    for _ in range(depth):
        value = [value] if kind == "list" else {"k": value}
    return value


deep_values = st.builds(deep, st.integers(30, 180), st.sampled_from(["list", "dict"]))

# Raw JSON number tokens that a strict parser must refuse or keep exact.
RAW_TOKENS = [
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1e999",
    "1e-999",
    "-0",
    "123456789012345678901234567890",
    "9" * 5000,
    "1.5e308",
    '"\\ud800"',
    '"\\u0000"',
]

# Top-level fields and the places inside the valid body a mutation may land.
PATHS: list[tuple[Any, ...]] = [
    ("logic_properties",),
    ("logic_properties", 0),
    ("logic_properties", 0, "name"),
    ("logic_properties", 0, "type"),
    ("logic_properties", 0, "parameters"),
    ("logic_properties", 0, "parameters", 0),
    ("logic_properties", 0, "parameters", 0, "value_from"),
    ("logic_properties", 1, "parameters", 0, "type"),
    ("logic_properties", 1, "comment"),
    ("query",),
    ("unique_identities",),
    ("unique_identities", 0, "company_id"),
    ("additional_context",),
    ("dynamic_params",),
    ("operator_schemas",),
    ("now_ms",),
    ("timezone",),
    ("options",),
    ("options", "max_concurrency"),
    ("options", "max_repair_rounds"),
]


def put(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """Set `value` at `path` (creating the last key), in place; returns the body."""
    target: Any = body
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return body


def with_token(body: dict[str, Any], path: tuple[Any, ...], token: str) -> bytes:
    """The body as JSON text with the raw `token` written at `path`."""
    text = encode(put(body, path, "@TOKEN@")).decode()
    assert text.count('"@TOKEN@"') == 1
    return text.replace('"@TOKEN@"', token).encode()


# -- random bodies ----------------------------------------------------------------------------


@FUZZ
@given(value=json_values)
def test_random_json_is_refused_cleanly(rules_only: Served, value: Any) -> None:
    status, _ = check_answer(rules_only, encode(value))
    assert status == 400


@FUZZ
@given(raw=st.binary(max_size=200))
def test_random_bytes_are_refused_cleanly(rules_only: Served, raw: bytes) -> None:
    status, _ = check_answer(rules_only, raw)
    assert status == 400


@FUZZ
@given(path=st.sampled_from(PATHS), value=json_values | huge_strings | deep_values)
# Regressions once found here, each a 500: file-system errors from ZoneInfo, a big integer
# in a JSON context, a JSON context string nested 1000 deep, a line break in a name.
@example(path=("timezone",), value="a" * 300)
@example(path=("timezone",), value="America")
@example(path=("additional_context",), value={"x": 2**100})
@example(path=("additional_context",), value='{"x": ' + "[" * 1000 + "]" * 1000 + "}")
@example(path=("additional_context",), value="x=" + "[" * 1000 + "]" * 1000)
@example(path=("logic_properties",), value=[operator("a\nb"), operator("a\nb")])
def test_mutated_field_is_refused_or_resolved(
    rules_only: Served, path: tuple[Any, ...], value: Any
) -> None:
    check_answer(rules_only, encode(put(valid_body(), path, value)))


@FUZZ
@given(path=st.sampled_from(PATHS), value=json_values | huge_strings | deep_values)
def test_mutated_field_with_llm(with_llm: Served, path: tuple[Any, ...], value: Any) -> None:
    check_answer(with_llm, encode(put(valid_body(), path, value)))


@FUZZ
@given(path=st.sampled_from(PATHS), token=st.sampled_from(RAW_TOKENS))
def test_special_number_tokens(rules_only: Served, path: tuple[Any, ...], token: str) -> None:
    check_answer(rules_only, with_token(valid_body(), path, token))


@FUZZ
@given(value=json_values | st.sampled_from(RAW_TOKENS).map(lambda t: ("raw", t)))
def test_caller_values_come_back_exactly_or_are_refused(rules_only: Served, value: Any) -> None:
    # An untyped operator input takes whatever JSON the caller sends; the answer must carry
    # exactly that value, never a silently altered one (NaN or 1e999 turned into null).
    template = {"logic_properties": [operator("o", ("x", ""))], "query": "", "dynamic_params": {}}
    raw = value[1] if isinstance(value, tuple) else json.dumps(value, ensure_ascii=False)
    body = with_token(template, ("dynamic_params", "o"), f'{{"x": {raw}}}')
    status, payload = check_answer(rules_only, body)
    if status == 200:
        assert payload["dynamic_params"] == {"o": {"x": json.loads(raw)}}
    else:
        assert status == 400


# -- shapes a caller gets wrong ---------------------------------------------------------------


@FUZZ
@given(
    value=st.text(max_size=30)
    | st.sampled_from(["²", "١٢٣", "9" * 5000, "-1", "1762996342241.5", " 1762996342241 "])
)
def test_context_clock_and_zone(rules_only: Served, value: str) -> None:
    body = valid_body(additional_context=f"now_ms={value}；timezone={value}")
    del body["now_ms"], body["timezone"]
    check_answer(rules_only, encode(body))


@FUZZ
@given(count=st.integers(65, 120))
def test_too_many_properties(rules_only: Served, count: int) -> None:
    props = [operator(f"p{i}", ("x", "STRING")) for i in range(count)]
    status, payload = check_answer(rules_only, encode(valid_body(logic_properties=props)))
    assert status == 400
    assert "logic_properties" in payload["_error"]


@FUZZ
@given(name=st.text(min_size=1, max_size=40).filter(str.strip), copies=st.integers(2, 5))
def test_duplicate_property_names(rules_only: Served, name: str, copies: int) -> None:
    props = [operator(name, ("x", "STRING")) for _ in range(copies)]
    status, _ = check_answer(rules_only, encode(valid_body(logic_properties=props)))
    assert status == 400


@FUZZ
@given(
    where=st.sampled_from(["property", "param"]),
    kind=st.text(max_size=20).filter(lambda t: t.upper() not in {"", "METRIC", "OPERATOR"}),
)
def test_unknown_types(rules_only: Served, where: str, kind: str) -> None:
    if where == "property":
        props = [{"name": "p", "type": kind, "parameters": []}]
    else:
        props = [operator("p", ("x", kind))]
    status, _ = check_answer(rules_only, encode(valid_body(logic_properties=props)))
    assert status in {200, 400, 422}  # a parameter type word may be a known alias


NOT_JSON = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "text/json"]


@FUZZ
@given(
    content_type=st.sampled_from(NOT_JSON)
    | st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=40)
)
@example(content_type=";0*")  # once a 500: the email header parser raised IndexError
def test_wrong_content_type(rules_only: Served, content_type: str) -> None:
    status, _ = check_answer(rules_only, encode(valid_body()), content_type=content_type)
    # Only application/json (any case, any parameters) is read as JSON; any other declared
    # type, a blank one included, is refused (the browser guard, issue 30).
    assert status in {200, 415, 422}
    media = content_type.split(";", maxsplit=1)[0].strip().lower()
    if content_type in NOT_JSON or media != "application/json":
        assert status == 415


@FUZZ
@given(position=st.integers(0, 400), garbage=st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80"]))
def test_invalid_utf8_anywhere(rules_only: Served, position: int, garbage: bytes) -> None:
    body = encode(valid_body())
    cut = min(position, len(body))
    status, _ = check_answer(rules_only, body[:cut] + garbage + body[cut:])
    assert status == 400


@settings(FUZZ, max_examples=20)
@given(
    encoding=st.sampled_from(["gzip", "deflate", "br", "zstd", "identity", "x-unknown"]),
    raw=st.binary(max_size=100),
)
def test_body_not_matching_its_content_encoding(
    rules_only: Served, encoding: str, raw: bytes
) -> None:
    # Once a 500 INTERNAL: aiohttp raised RequestPayloadError from request.read(). Once a
    # hang: a broken deflate body sent after the headers never ends read() (aiohttp 3.14),
    # now cut at the request deadline (408 BODY_TIMEOUT). When the bad bytes arrive with the
    # headers, or the encoding is one aiohttp cannot decode at all, its HTTP parser refuses
    # the request before the application sees it: a plain-text 400.
    headers = {"Content-Type": "application/json", "Content-Encoding": encoding}
    started = time.monotonic()
    status, answer_headers, answer = rules_only.post(raw, headers, PATH)
    assert time.monotonic() - started < MAX_ANSWER_S
    assert status in {400, 408}, answer
    assert b"Traceback" not in answer
    if answer_headers["Content-Type"].startswith("application/json"):
        check_payload(status, answer_headers, answer, frozenset({400, 408}))


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_compressed_bodies_are_read_and_bombs_refused(rules_only: Served, encoding: str) -> None:
    pack = gzip.compress if encoding == "gzip" else zlib.compress
    status, _ = check_answer(rules_only, pack(encode(valid_body())), encoding=encoding)
    assert status in {200, 422}  # read and resolved
    bomb = pack(b" " * (64 * MAX_BODY))  # 4 MB of spaces in a few KB
    status, _ = check_answer(rules_only, bomb, encoding=encoding)
    assert status == 413


def test_a_body_that_never_finishes_arriving_is_cut(rules_only: Served) -> None:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", rules_only.port), timeout=5) as sock:
        sock.sendall(
            f"POST {PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            'Content-Length: 1000\r\n\r\n{"query": '.encode()
        )
        answer = sock.recv(4096).decode()
    assert time.monotonic() - started < BODY_TIMEOUT_S + 1
    head, _, payload = answer.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 408"), answer
    assert json.loads(payload)["error"]["code"] == "BODY_TIMEOUT"


def test_body_over_the_limit_is_413(rules_only: Served) -> None:
    body = encode(valid_body(query="x" * (MAX_BODY + 10)))
    status, _ = check_answer(rules_only, body)
    assert status == 413


@pytest.mark.parametrize("unit", _UNITS)
def test_huge_context_answers_quickly(rules_only: Served, unit: str) -> None:
    # Near the body limit: every byte of additional_context goes through the context parser.
    text = unit * ((MAX_BODY - 2048) // len(unit.encode()))
    check_answer(rules_only, encode(valid_body(additional_context=text)))
    single = [operator("o", ("items", "ARRAY"), ("n", "INTEGER"), ("f", "OBJECT"))]
    for key in ("items", "n", "f"):
        context = f"{key}=a{text}b"
        body = valid_body(logic_properties=single, query="", additional_context=context)
        check_answer(rules_only, encode(body))


# -- the pipeline endpoint ------------------------------------------------------------------


def kn_body(**fields: Any) -> dict[str, Any]:
    """A pipeline request the fakes answer: both demo properties, a clock, a timezone."""
    body: dict[str, Any] = {
        "kn_id": DEMO_KN,
        "ot_id": DEMO_OT,
        "query": "当前的获批药品数量和经营健康度，中文，包含明细，看营收和利润",
        "_instance_identities": [{"company_id": "company_000001"}],
        "properties": ["approved_drug_count", "business_health_score"],
        "additional_context": "lang=zh-CN；include_details=true；items=revenue,profit",
        "now_ms": NOW_MS,
        "timezone": "Asia/Shanghai",
    }
    body.update(fields)
    return body


KN_PATHS: list[tuple[Any, ...]] = [
    ("kn_id",),
    ("ot_id",),
    ("query",),
    ("_instance_identities",),
    ("_instance_identities", 0),
    ("_instance_identities", 0, "company_id"),
    ("properties",),
    ("properties", 0),
    ("additional_context",),
    ("dynamic_params",),
    ("options",),
    ("now_ms",),
    ("timezone",),
]
# Unknown knowledge networks or object types are 404; nothing else may go past a 4xx.
KN_ALLOWED = frozenset({200, 404, *CLIENT_ERRORS})


@FUZZ
@given(value=json_values)
def test_pipeline_random_json_is_refused_cleanly(pipeline: Served, value: Any) -> None:
    status, _ = check_answer(pipeline, encode(value), path=KN_PATH, allowed=KN_ALLOWED)
    assert status == 400


@FUZZ
@given(path=st.sampled_from(KN_PATHS), value=json_values | huge_strings | deep_values)
def test_pipeline_mutated_field(pipeline: Served, path: tuple[Any, ...], value: Any) -> None:
    body = encode(put(kn_body(), path, value))
    check_answer(pipeline, body, path=KN_PATH, allowed=KN_ALLOWED)


@FUZZ
@given(path=st.sampled_from(KN_PATHS), token=st.sampled_from(RAW_TOKENS))
def test_pipeline_special_number_tokens(
    pipeline: Served, path: tuple[Any, ...], token: str
) -> None:
    check_answer(pipeline, with_token(kn_body(), path, token), path=KN_PATH, allowed=KN_ALLOWED)


def test_pipeline_valid_body_resolves(pipeline: Served) -> None:
    status, payload = check_answer(pipeline, encode(kn_body()), path=KN_PATH)
    assert status == 200, payload
    assert payload["datas"]


# -- action recall and the MCP proxy ----------------------------------------------------------

RECALL_PATH = "/api/agent-retrieval/in/v1/kn/get_action_info"
MCP_PATH = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
RECALL_PATHS: list[tuple[Any, ...]] = [
    ("kn_id",),
    ("at_id",),
    ("unique_identity",),
    ("unique_identity", "company_id"),
    ("_instance_identities",),
]
MCP_ARGUMENTS = {"company_id": "c1", "channel": "email", "message": {"title": "t", "body": "b"}}
MCP_PATHS: list[tuple[Any, ...]] = [
    ("company_id",),
    ("channel",),
    ("message",),
    ("message", "title"),
    ("extra",),
]


@FUZZ
@given(value=json_values)
def test_recall_random_json(pipeline: Served, value: Any) -> None:
    status, _ = check_answer(pipeline, encode(value), path=RECALL_PATH, allowed=KN_ALLOWED)
    assert status == 400


@FUZZ
@given(
    at_id=st.sampled_from([DEMO_TOOL_AT, DEMO_MCP_AT]),
    path=st.sampled_from(RECALL_PATHS),
    value=json_values | huge_strings | deep_values,
)
def test_recall_mutated_field(
    pipeline: Served, at_id: str, path: tuple[Any, ...], value: Any
) -> None:
    body = {"kn_id": DEMO_KN, "at_id": at_id, "unique_identity": {"company_id": "c1"}}
    check_answer(pipeline, encode(put(body, path, value)), path=RECALL_PATH, allowed=KN_ALLOWED)


@FUZZ
@given(value=json_values)
def test_mcp_proxy_random_json(pipeline: Served, value: Any) -> None:
    status, _ = check_answer(pipeline, encode(value), path=MCP_PATH, allowed=KN_ALLOWED)
    assert status in {200, 400}


@FUZZ
@given(path=st.sampled_from(MCP_PATHS), value=json_values | huge_strings | deep_values)
def test_mcp_proxy_mutated_argument(pipeline: Served, path: tuple[Any, ...], value: Any) -> None:
    body = encode(put(json.loads(json.dumps(MCP_ARGUMENTS)), path, value))
    check_answer(pipeline, body, path=MCP_PATH, allowed=KN_ALLOWED)


@FUZZ
@given(path=st.sampled_from(MCP_PATHS), token=st.sampled_from(RAW_TOKENS))
def test_mcp_proxy_special_number_tokens(
    pipeline: Served, path: tuple[Any, ...], token: str
) -> None:
    body = with_token(json.loads(json.dumps(MCP_ARGUMENTS)), path, token)
    check_answer(pipeline, body, path=MCP_PATH, allowed=KN_ALLOWED)


def test_recall_and_proxy_valid_bodies(pipeline: Served) -> None:
    for at_id in (DEMO_TOOL_AT, DEMO_MCP_AT):
        body = {"kn_id": DEMO_KN, "at_id": at_id, "unique_identity": {"company_id": "c1"}}
        status, payload = check_answer(pipeline, encode(body), path=RECALL_PATH)
        assert status == 200, payload
        assert payload["_dynamic_tools"]
    status, payload = check_answer(pipeline, encode(MCP_ARGUMENTS), path=MCP_PATH)
    assert status == 200, payload
