"""Secrets and data: the LLM API key and upstream bodies never reach a log line or a response,
and every log line of a request carries its trace_id.

A real `resolver serve` child at DEBUG level (the most talkative) serves concurrent requests
that go through every LLM path (success, 401, 5xx and 429 retries, an unreadable body, a
timeout, debug output) plus the other endpoints; the fake LLM's error bodies carry a marker
and echo the key. Then the whole log and every response are searched.
"""

from __future__ import annotations

import asyncio
import signal
from collections import Counter
from collections.abc import Callable
from typing import Any

import aiohttp
import orjson
import pytest

from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from tests.helpers import SECRET, operator, request_body, serve

pytestmark = pytest.mark.slow

MARKER = "UPSTREAM-BODY-7f3a"
LEAKY = orjson.dumps({"error": {"message": f"{MARKER}: invalid key {SECRET}", "key": SECRET}})


def scripted() -> Callable[[Call], Reply]:
    """The property name says how the fake behaves; error bodies carry the marker and key."""
    seen: Counter[str] = Counter()

    def responder(call: Call) -> Reply:
        name = call.property_name or ""
        earlier = seen[name]
        seen[name] += 1
        if name.startswith("unauthorized"):
            return Reply(status=401, body=LEAKY)
        if name.startswith("flaky") and earlier < 2:
            status = 503 if earlier else 429
            return Reply(status=status, body=LEAKY, headers={"Retry-After": "0"})
        if name.startswith("garbage"):
            return Reply(body=b"<html>" + LEAKY)
        if name.startswith("slow"):
            return Reply(hang=True)
        return plausible(call)

    return responder


def prop(name: str) -> dict[str, Any]:
    return operator(name, ("x", "STRING"))


# (trace id, method, path, body) — each request carries its own trace id.
def requests() -> list[tuple[str, str, str, Any]]:
    def resolve(*names: str, **options: Any) -> dict[str, Any]:
        return request_body(*(prop(n) for n in names), query="x 取默认值", options=options)

    return [
        ("trace-ok", "POST", "/v1/dynamic-params", resolve("ok_a", "ok_b")),
        ("trace-debug", "POST", "/v1/dynamic-params", resolve("ok_c", return_debug=True)),
        ("trace-401", "POST", "/v1/dynamic-params", resolve("unauthorized_a")),
        ("trace-flaky", "POST", "/v1/dynamic-params", resolve("flaky_a", return_debug=True)),
        ("trace-garbage", "POST", "/v1/dynamic-params", resolve("garbage_a")),
        ("trace-slow", "POST", "/v1/dynamic-params", resolve("slow_a", "ok_d")),
        ("trace-bad-json", "POST", "/v1/dynamic-params", b"{not json"),
        ("trace-ready", "GET", "/readyz", None),
        ("trace-health", "GET", "/healthz", None),
        ("trace-metrics", "GET", "/metrics", None),
        ("trace-404", "GET", "/nowhere", None),
    ]


async def send(
    session: aiohttp.ClientSession, url: str, request: tuple[str, str, str, Any]
) -> tuple[int, str]:
    trace, method, path, body = request
    headers = {"x-trace-id": trace, "Content-Type": "application/json"}
    data = body if isinstance(body, bytes) else (None if body is None else orjson.dumps(body))
    async with session.request(method, url + path, data=data, headers=headers) as response:
        assert response.headers["x-trace-id"] == trace
        return response.status, await response.text()


async def test_no_secret_or_upstream_body_anywhere_and_trace_ids_on_every_line(
    fake: FakeLLM,
) -> None:
    fake.respond(scripted())
    env = {"RESOLVER_LOG_LEVEL": "DEBUG", "RESOLVER_LLM_TIMEOUT_S": "0.3"}
    async with serve(fake, **env) as service, aiohttp.ClientSession() as session:
        plan = requests()
        answers = await asyncio.gather(*(send(session, service.url, r) for r in plan))
        service.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(service.process.wait(), timeout=10) == 0
        output = await service.output()

    statuses = {trace: status for (trace, *_), (status, _) in zip(plan, answers, strict=True)}
    assert statuses == {
        "trace-ok": 200,
        "trace-debug": 200,
        "trace-401": 502,
        "trace-flaky": 200,
        "trace-garbage": 502,
        "trace-slow": 504,
        "trace-bad-json": 400,
        "trace-ready": 200,
        "trace-health": 200,
        "trace-metrics": 200,
        "trace-404": 404,
    }
    assert SECRET in fake.calls[0].headers["Authorization"]  # the key was really used

    texts = [text for _, text in answers] + [output]
    for text in texts:
        assert SECRET not in text
        assert MARKER not in text
        assert "Traceback" not in text

    # Every line between the first and the last line of our requests belongs to one of them;
    # only start-up (and the readiness polling) and shut-down lines stand outside.
    records = [orjson.loads(line) for line in output.splitlines()]
    ours = {trace for trace, *_ in plan}
    traced = [i for i, r in enumerate(records) if r.get("trace_id") in ours]
    assert traced
    for record in records[traced[0] : traced[-1] + 1]:
        assert record.get("trace_id") in ours, record
    logged = Counter(r["trace_id"] for r in records if r.get("event") == "http.request")
    assert all(logged[trace] == 1 for trace in ours)  # each request logged once, under its id
    retried = {r["trace_id"] for r in records if r.get("event") == "llm.retry"}
    assert retried <= {"trace-flaky", "trace-slow"}
    assert "trace-flaky" in retried
    failed = {r["trace_id"] for r in records if r.get("event") == "request.failed"}
    assert failed == {"trace-401", "trace-garbage", "trace-slow"}
