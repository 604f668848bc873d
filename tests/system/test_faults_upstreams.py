"""Upstreams misbehave over real sockets: hung MCP tool calls, huge tool answers, 5xx bodies
full of internals, slow services eating the request deadline. Each test names the defect it
keeps fixed (issue 12 of the reliability review).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import orjson
import psutil
import pytest

from resolver.testing.bombs import json_of_size
from resolver.testing.fake_llm import FakeLLM, Reply
from resolver.testing.fake_upstreams import (
    DEMO_KN,
    DEMO_MCP_AT,
    DEMO_MCP_ID,
    DEMO_MCP_TOOL,
    Fault,
    Seen,
    add_demo_actions,
)
from tests.helpers import (
    NOW_MS,
    ClientFactory,
    KnFakes,
    assert_error_shape,
    rules_pipeline_body,
    serve,
    wait_for,
)

KN_PATH = "/api/agent-retrieval/in/v1/kn/logic-property-resolver"
RECALL_PATH = "/api/agent-retrieval/in/v1/kn/get_action_info"
MCP_PATH = f"/api/agent-retrieval/in/v1/mcp/proxy/{DEMO_MCP_ID}/tools/{DEMO_MCP_TOOL}/call"
ARGUMENTS = {"company_id": "c1", "channel": "email", "message": {"title": "t"}}
RECALL = {"kn_id": DEMO_KN, "at_id": DEMO_MCP_AT, "unique_identity": {"company_id": "c1"}}
PUBLIC_URL = "https://resolver.example.com"


@pytest.fixture(autouse=True)
def _demo_actions(kn_fakes: KnFakes) -> None:
    add_demo_actions(kn_fakes.values, kn_fakes.operators)


async def post(
    client: Any, path: str, body: Any, headers: dict[str, str] | None = None
) -> tuple[int, Any, dict[str, str], float]:
    started = time.monotonic()
    response = await client.post(
        path,
        data=body if isinstance(body, bytes) else orjson.dumps(body),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    raw = await response.read()
    return response.status, raw, dict(response.headers), time.monotonic() - started


def tool_calls(kn_fakes: KnFakes) -> list[Seen]:
    return [c for c in kn_fakes.operators.calls if c.path.endswith("/tool/call")]


# -- item 4: hung tool calls take neither the look-up pool nor unbounded slots ----------------


async def test_beyond_the_cap_tool_calls_are_503_at_once_and_recall_still_works(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.operators.fail_always(Fault(hang=True, path_contains="/tool/call"))
    client = await make_kn_client(
        llm=False, public_url=PUBLIC_URL, mcp_max_inflight=3, upstream_timeout_s=2
    )
    hung = [asyncio.create_task(post(client, MCP_PATH, ARGUMENTS)) for _ in range(3)]
    await wait_for(lambda: len(tool_calls(kn_fakes)) == 3)
    refused = await asyncio.gather(*(post(client, MCP_PATH, ARGUMENTS) for _ in range(5)))
    for status, raw, headers, elapsed in refused:
        assert status == 503, raw
        assert_error_shape(orjson.loads(raw), "OVERLOADED")
        assert "RESOLVER_MCP_MAX_INFLIGHT" in orjson.loads(raw)["_error"]
        assert int(headers["Retry-After"]) >= 1
        assert elapsed < 1.0  # refused at once, not queued behind the hung calls
    assert len(tool_calls(kn_fakes)) == 3  # the refused calls never reached the upstream
    status, raw, _, _ = await post(client, RECALL_PATH, RECALL)
    assert status == 200, raw
    for task in hung:
        task.cancel()
    await asyncio.gather(*hung, return_exceptions=True)


async def test_hung_tool_calls_leave_the_look_up_pool_free(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    # Once one pool of 64 connections per upstream: 200 hung tool calls made an unrelated
    # recall wait for a connection until it failed. 70 hung calls exceed those 64.
    kn_fakes.operators.fail_always(Fault(hang=True, path_contains="/tool/call"))
    client = await make_kn_client(
        llm=False, public_url=PUBLIC_URL, mcp_max_inflight=100, upstream_timeout_s=1.5
    )
    hung = [asyncio.create_task(post(client, MCP_PATH, ARGUMENTS)) for _ in range(70)]
    await wait_for(lambda: len(tool_calls(kn_fakes)) == 70, within_s=10)
    status, raw, _, elapsed = await post(client, RECALL_PATH, RECALL)
    assert status == 200, raw
    assert elapsed < 1.0
    for task in hung:
        task.cancel()
    await asyncio.gather(*hung, return_exceptions=True)


# -- item 3: tool answers are bounded and passed through as bytes ---------------------------


async def test_a_tool_answer_over_the_cap_is_502_without_reading_the_rest(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.operators.tool_responder = lambda seen: json_of_size(3 << 20)
    client = await make_kn_client(llm=False, public_url=PUBLIC_URL, mcp_max_answer_bytes=2 << 20)
    status, raw, _, _ = await post(client, MCP_PATH, ARGUMENTS)
    assert status == 502, raw[:300]
    body = orjson.loads(raw)
    assert_error_shape(body, "UPSTREAM_ERROR")
    assert body["_error"] == f"agent-operator-integration answered with more than {2 << 20} bytes"
    # Under the cap it passes.
    kn_fakes.operators.tool_responder = lambda seen: json_of_size((2 << 20) - 100)
    status, raw, _, _ = await post(client, MCP_PATH, ARGUMENTS, {"x-trace-id": "t-1"})
    assert status == 200
    assert orjson.loads(raw)["trace_id"] == "t-1"


@pytest.mark.parametrize(
    ("upstream", "expected"),
    [
        pytest.param(
            b'{"b": 1,  "a": 123456789012345678901234567890, "x": 1.50}\n',
            b'{"b": 1,  "a": 123456789012345678901234567890, "x": 1.50,"trace_id":"t-2"}',
            id="object-bytes-kept",
        ),
        pytest.param(b" { } ", b'{"trace_id":"t-2"}', id="empty-object"),
        pytest.param(b'{"trace_id": "theirs"}', b'{"trace_id": "theirs"}', id="own-trace-id"),
        pytest.param(b"[1, 2]", b"[1, 2]", id="array"),
        pytest.param(b'"done"', b'"done"', id="string"),
    ],
)
async def test_a_tool_answer_passes_through_as_the_tool_wrote_it(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, upstream: bytes, expected: bytes
) -> None:
    kn_fakes.operators.tool_responder = lambda seen: upstream
    client = await make_kn_client(llm=False, public_url=PUBLIC_URL)
    status, raw, headers, _ = await post(client, MCP_PATH, ARGUMENTS, {"x-trace-id": "t-2"})
    assert status == 200, raw
    assert raw == expected
    assert headers["Content-Type"].startswith("application/json")


async def test_a_tool_answer_that_is_not_json_is_502(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.operators.tool_responder = lambda seen: b'{"a": 1} trailing'
    client = await make_kn_client(llm=False, public_url=PUBLIC_URL)
    status, raw, _, _ = await post(client, MCP_PATH, ARGUMENTS)
    assert status == 502
    assert_error_shape(orjson.loads(raw), "UPSTREAM_ERROR")
    assert b"trailing" not in raw


# -- item 8: an upstream's 5xx is its status only, in the answer and in the log ---------------


@pytest.mark.parametrize("status", [500, 503])
async def test_a_5xx_message_reaches_neither_the_caller_nor_the_log(
    make_kn_client: ClientFactory,
    kn_fakes: KnFakes,
    capsys: pytest.CaptureFixture[str],
    status: int,
) -> None:
    secret = "pq: password authentication failed for user admin at 10.0.0.7:5432"
    kn_fakes.values.fail_always(
        Fault(status=status, message=secret, code="DB.Down", path_contains="/properties")
    )
    client = await make_kn_client(llm=False)
    capsys.readouterr()
    code, raw, _, _ = await post(client, KN_PATH, rules_pipeline_body())
    assert code == 502
    body = orjson.loads(raw)
    assert body["_error"] == f"ontology-query answered HTTP {status}"
    assert body["error"]["details"] == {
        "service": "ontology-query",
        "upstream_status": status,
        "upstream_code": None,
    }
    logged = capsys.readouterr().out
    assert "request.failed" in logged
    for fragment in ("password", "10.0.0.7", "DB.Down"):
        assert fragment not in raw.decode()
        assert fragment not in logged


async def test_a_4xx_message_still_passes_one_line_and_capped(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.values.fail_always(
        Fault(status=403, message="no access\nto " + "x" * 5000, path_contains="/properties")
    )
    client = await make_kn_client(llm=False)
    code, raw, _, _ = await post(client, KN_PATH, rules_pipeline_body())
    assert code == 403
    line = orjson.loads(raw)["_error"]
    assert line.startswith("ontology-query answered HTTP 403: no access to xxx")
    assert len(line) < 400


async def test_a_huge_4xx_body_is_not_read(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    huge = orjson.dumps({"description": "y" * (8 << 20)})
    kn_fakes.values.fail_always(Fault(status=409, body=huge, path_contains="/properties"))
    client = await make_kn_client(llm=False)
    code, raw, _, _ = await post(client, KN_PATH, rules_pipeline_body())
    assert code == 409
    assert orjson.loads(raw)["_error"] == "ontology-query answered HTTP 409"
    assert len(raw) < 2000


# -- item 11: one deadline from arrival to answer, upstream calls included ----------------------


async def test_slow_upstreams_share_the_request_deadline(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    # Once 0.4 s answered after 0.91 s: the pipeline's upstream calls ran outside it.
    kn_fakes.manager.latency_s = 0.25
    kn_fakes.values.latency_s = 0.5
    client = await make_kn_client(llm=False, request_timeout_s=0.4)
    status, raw, _, elapsed = await post(client, KN_PATH, rules_pipeline_body())
    assert status == 504, raw
    body = orjson.loads(raw)
    assert_error_shape(body, "UPSTREAM_TIMEOUT")
    # The permission read (ontology-query, beside bkn-backend's object type) is the slow one.
    assert body["_error"].startswith(
        "the request deadline of 0.4s passed while waiting for ontology-query"
    )
    assert body["error"]["details"]["phase"] == "upstream"
    assert body["error"]["details"]["service"] == "ontology-query"
    assert 0.38 <= elapsed < 0.65


async def test_no_upstream_call_starts_after_the_deadline(
    make_kn_client: ClientFactory, kn_fakes: KnFakes
) -> None:
    kn_fakes.manager.latency_s = 0.5
    client = await make_kn_client(llm=False, request_timeout_s=0.3)
    status, raw, _, elapsed = await post(client, KN_PATH, rules_pipeline_body())
    assert status == 504, raw
    assert orjson.loads(raw)["error"]["details"]["service"] == "bkn-backend"
    assert elapsed < 0.55
    await asyncio.sleep(0.3)
    # The permission read starts beside the object type's; the values are never asked for.
    assert [c for c in kn_fakes.values.calls if c.path.endswith("/properties")] == []


async def test_the_llm_stage_gets_only_what_the_upstreams_left(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(hang=True))
    kn_fakes.manager.latency_s = 0.3
    client = await make_kn_client(request_timeout_s=0.6, llm_timeout_s=5)
    body = rules_pipeline_body(query="经营健康度", properties=["business_health_score"])
    status, raw, _, elapsed = await post(client, KN_PATH, body)
    assert status == 504, raw
    payload = orjson.loads(raw)
    assert_error_shape(payload, "LLM_TIMEOUT")
    assert payload["error"]["details"]["phase"] == "llm"
    assert 0.55 <= elapsed < 0.9  # 0.3 s upstream + what was left, not 0.3 + 0.6


async def test_a_slow_body_and_the_llm_share_the_request_deadline(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(hang=True))
    client = await make_client(request_timeout_s=0.6, llm_timeout_s=5)
    body = orjson.dumps(
        {
            "logic_properties": [
                {
                    "name": "p",
                    "type": "operator",
                    "parameters": [{"name": "x", "type": "STRING", "value_from": "input"}],
                }
            ],
            "query": "x 取默认值",
            "now_ms": NOW_MS,
        }
    )
    reader, writer = await asyncio.open_connection("127.0.0.1", client.port)
    started = time.monotonic()
    writer.write(
        b"POST /v1/dynamic-params HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:10]
    )
    await asyncio.sleep(0.35)  # the body arrives slowly, within the deadline
    writer.write(body[10:])
    answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    elapsed = time.monotonic() - started
    writer.close()
    assert answer.startswith(b"HTTP/1.1 504"), answer
    assert elapsed < 0.85, elapsed  # one deadline, not 0.35 s of body + 0.6 s of LLM


async def test_a_body_that_never_arrives_is_408_naming_the_phase(
    make_client: ClientFactory,
) -> None:
    client = await make_client(llm=False, request_timeout_s=0.3)
    reader, writer = await asyncio.open_connection("127.0.0.1", client.port)
    writer.write(
        b"POST /v1/dynamic-params HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b'Content-Length: 1000\r\n\r\n{"query": '
    )
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), head
    body = orjson.loads(payload)
    assert_error_shape(body, "BODY_TIMEOUT")
    assert body["error"]["details"]["phase"] == "body"


# -- item 15: resolved params survive an ontology-query failure ---------------------------------


@pytest.mark.parametrize("debug", [True, False])
async def test_an_ontology_query_failure_keeps_the_resolved_params_in_debug(
    make_kn_client: ClientFactory, kn_fakes: KnFakes, debug: bool
) -> None:
    kn_fakes.values.fail_always(Fault(status=502, path_contains="/properties"))
    client = await make_kn_client(llm=False)
    body = rules_pipeline_body(options={"return_debug": debug})
    status, raw, _, _ = await post(client, KN_PATH, body)
    assert status == 502
    details = orjson.loads(raw)["error"]["details"]
    assert details["service"] == "ontology-query"
    if debug:
        assert details["dynamic_params"] == {"approved_drug_count": {"instant": True}}
        assert details["debug"]["properties"]["approved_drug_count"]["source"]
        (asked,) = [c for c in kn_fakes.values.calls if c.path.endswith("/properties")]
        assert asked.body["dynamic_params"] == details["dynamic_params"]
    else:
        assert "dynamic_params" not in details


@pytest.mark.slow
async def test_memory_stays_bounded_under_concurrent_huge_tool_answers(
    kn_fakes: KnFakes, fake_llm: FakeLLM
) -> None:
    # Once 12 concurrent 30 MiB answers took the process to 1.67 GB: each was parsed and
    # serialised again. Now each is read to the cap at most and passed on as bytes.
    huge, fits = json_of_size(30 << 20), json_of_size((4 << 20) - 1000)
    kn_fakes.operators.tool_responder = lambda seen: huge
    env = {
        "RESOLVER_OPERATOR_INTEGRATION_URL": kn_fakes.operators.url,
        "RESOLVER_LOG_LEVEL": "WARNING",
    }
    async with serve(fake_llm, **env) as service:
        process = psutil.Process(service.process.pid)
        idle = process.memory_info().rss
        peak = idle

        async def watch() -> None:
            nonlocal peak
            while True:
                peak = max(peak, process.memory_info().rss)
                await asyncio.sleep(0.01)

        watcher = asyncio.create_task(watch())
        async with aiohttp.ClientSession() as session:

            async def call() -> tuple[int, int]:
                async with session.post(service.url + MCP_PATH, json=ARGUMENTS) as response:
                    return response.status, len(await response.read())

            refused = await asyncio.gather(*(call() for _ in range(12)))
            kn_fakes.operators.tool_responder = lambda seen: fits
            served = await asyncio.gather(*(call() for _ in range(12)))
        watcher.cancel()
    assert {status for status, _ in refused} == {502}
    assert {status for status, _ in served} == {200}
    assert min(size for _, size in served) >= len(fits)
    grown_mb = (peak - idle) / (1 << 20)
    assert grown_mb < 250, f"RSS grew by {grown_mb:.0f} MB"
