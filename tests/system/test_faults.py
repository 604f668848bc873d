"""The LLM misbehaves over real sockets: 429 storms, 5xx bursts, an LLM that is down, hangs,
breaks off mid-body or answers garbage. Each test checks the answer (status, code, how fast),
what the fake saw (how many calls, when), that nothing of the upstream body reached the
caller, and that nothing was left behind: no call in flight, no waiter, no stray task.
"""

from __future__ import annotations

import asyncio
import gzip
import itertools
import socket
import time
from collections import Counter
from typing import Any

import orjson
import pytest

from resolver.testing.fake_llm import Call, FakeLLM, Reply, plausible
from tests.helpers import ClientFactory, assert_settled, operator, request_body

PROPS = [operator(f"p{i}", ("x", "STRING")) for i in range(4)]


def body(*props: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A request the LLM must answer: operators with one open STRING input each."""
    fields.setdefault("query", "x 取默认值")
    return request_body(*(props or PROPS[:1]), **fields)


async def post(client: Any, payload: dict[str, Any]) -> tuple[int, dict[str, Any], float]:
    started = time.monotonic()
    response = await client.post("/v1/dynamic-params", json=payload)
    text = await response.text()
    return response.status, orjson.loads(text), time.monotonic() - started


def assert_failure(payload: dict[str, Any], code: str, *leaked: str) -> None:
    """The SPEC error shape with `code`, and none of the upstream's words in it."""
    assert payload["error"]["code"] == code, payload
    assert payload["_error"]
    assert payload["trace_id"]
    text = orjson.dumps(payload).decode()
    assert "Traceback" not in text
    for fragment in ("fake error", *leaked):
        assert fragment not in text


def per_property(replies: list[Reply]) -> Any:
    """A responder playing `replies` to each property in turn, then valid answers."""
    seen: Counter[str | None] = Counter()

    def responder(call: Call) -> Reply:
        index = seen[call.property_name]
        seen[call.property_name] += 1
        return replies[index] if index < len(replies) else plausible(call)

    return responder


def starts_by_property(fake: FakeLLM) -> dict[str | None, list[float]]:
    starts: dict[str | None, list[float]] = {}
    for call in fake.calls:
        starts.setdefault(call.property_name, []).append(call.started)
    return starts


def closed_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -- 429 and 5xx ------------------------------------------------------------------------------


async def test_429_storm_each_property_waits_retry_after_then_succeeds(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    throttled = Reply(status=429, headers={"Retry-After": "0.2"})
    fake_llm.respond(per_property([throttled, throttled]))
    client = await make_client()
    status, payload, _ = await post(client, body(*PROPS, options={"max_concurrency": 4}))
    assert status == 200, payload
    assert list(payload["dynamic_params"]) == ["p0", "p1", "p2", "p3"]
    starts = starts_by_property(fake_llm)
    assert sorted(name or "" for name in starts) == ["p0", "p1", "p2", "p3"]
    for times in starts.values():
        assert len(times) == 3
        assert all(b - a >= 0.19 for a, b in itertools.pairwise(times)), times
    await assert_settled(client, fake_llm)


async def test_endless_429_gives_up_after_three_attempts_per_property(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=429, headers={"Retry-After": "30"}))
    client = await make_client(llm_retry_after_cap_s=0.1)
    status, payload, elapsed = await post(client, body(*PROPS, options={"max_concurrency": 4}))
    assert status == 502
    assert_failure(payload, "LLM_UNAVAILABLE")
    assert Counter(c.property_name for c in fake_llm.calls) == {p["name"]: 3 for p in PROPS}
    assert elapsed < 1.0  # Retry-After: 30 is capped, never slept
    await assert_settled(client, fake_llm)


async def test_retry_that_would_end_after_the_deadline_is_not_waited_for(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=429, headers={"Retry-After": "1"}))
    client = await make_client(llm_retry_after_cap_s=5, request_timeout_s=0.5)
    status, payload, elapsed = await post(client, body())
    assert status == 502
    assert_failure(payload, "LLM_UNAVAILABLE")
    assert len(fake_llm.calls) == 1
    assert elapsed < 0.3  # answered at once, not after sleeping into the deadline
    await assert_settled(client, fake_llm)


async def test_5xx_burst_then_recovery(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    fake_llm.respond(per_property([Reply(status=503), Reply(status=500, body=b"<html>oops")]))
    client = await make_client()
    status, payload, _ = await post(client, body(*PROPS, options={"max_concurrency": 2}))
    assert status == 200, payload
    assert len(fake_llm.calls) == 3 * len(PROPS)
    await assert_settled(client, fake_llm)


async def test_5xx_forever_is_502_with_nothing_of_the_upstream_body(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=500, body=b"<html>stack trace at gateway.py"))
    client = await make_client()
    status, payload, _ = await post(client, body(*PROPS[:2]))
    assert status == 502
    assert_failure(payload, "LLM_UNAVAILABLE", "stack trace", "gateway.py", "<html>")
    assert len(fake_llm.calls) == 6
    await assert_settled(client, fake_llm)


# -- down, hanging --------------------------------------------------------------------------


async def test_llm_down_is_a_fast_502_even_for_many_properties(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    client = await make_client(llm_base_url=f"http://127.0.0.1:{closed_port()}/v1")
    props = [operator(f"p{i}", ("x", "STRING")) for i in range(8)]
    status, payload, elapsed = await post(client, body(*props, options={"max_concurrency": 8}))
    assert status == 502
    assert_failure(payload, "LLM_UNAVAILABLE")
    assert elapsed < 1.5  # three quick refusals with backoff, not a hang or a timeout
    await assert_settled(client, fake_llm)


async def test_hanging_llm_is_cut_per_call(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    fake_llm.respond(lambda call: Reply(hang=True))
    client = await make_client(llm_timeout_s=0.2, request_timeout_s=10)
    status, payload, elapsed = await post(client, body())
    assert status == 504
    assert_failure(payload, "LLM_TIMEOUT")
    assert len(fake_llm.calls) == 3
    assert elapsed < 1.5
    await assert_settled(client, fake_llm)
    for call in fake_llm.calls:  # the service hung up on each call when its time was up
        assert call.ended is not None
        assert call.ended - call.started < 0.4


async def test_hanging_llm_is_cut_at_the_request_deadline(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(hang=True))
    client = await make_client(llm_timeout_s=0.3, request_timeout_s=0.5)
    started = time.monotonic()
    status, payload, elapsed = await post(client, body(*PROPS, options={"max_concurrency": 4}))
    deadline = started + 0.5
    assert status == 504
    assert_failure(payload, "LLM_TIMEOUT")
    assert 0.45 <= elapsed < 0.9
    await assert_settled(client, fake_llm)
    assert fake_llm.calls
    for call in fake_llm.calls:  # no call starts after the deadline or outlives it
        assert call.started < deadline
        assert call.ended is not None
        assert call.ended < deadline + 0.15


async def test_calls_that_cannot_start_before_the_deadline_are_never_sent(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    # 2 calls/s: one request takes the first start; the next request's calls would have to
    # start after its deadline, so none is sent; and its abandoned turns must not delay the
    # next request, which finds the pace free again.
    client = await make_client(llm_qps=2, request_timeout_s=0.3)
    status, _, _ = await post(client, body())
    assert status == 200
    assert len(fake_llm.calls) == 1
    status, payload, _ = await post(client, body(*PROPS, options={"max_concurrency": 4}))
    assert status == 504
    assert_failure(payload, "LLM_TIMEOUT")
    assert len(fake_llm.calls) == 1
    # 2 calls/s (less the limiter's safety margin) allows the next start about 0.55 s after
    # the first; an abandoned turn must not push it further out.
    await asyncio.sleep(fake_llm.calls[0].started + 0.8 - time.monotonic())
    status, payload, _ = await post(client, body())
    assert status == 200, payload
    assert len(fake_llm.calls) == 2
    await assert_settled(client, fake_llm)


# -- what the body holds --------------------------------------------------------------------

ANSWER = '{"p0": {"x": "ok"}}'
HUGE = b'{"choices":[{"message":{"content":"' + b"A" * (5 << 20) + b'"}}]}'


# (reply, code, calls the fake sees, a fragment of the upstream body that must not leak)
UNREADABLE: list[tuple[str, Reply, str, int, str]] = [
    (
        "truncated-json",
        Reply(body=b'{"choices": [{"message": {"content": "{\\"p0'),
        "LLM_OUTPUT_INVALID",
        1,
        '\\"p0',
    ),
    ("html", Reply(body=b"<html>502 Bad Gateway"), "LLM_OUTPUT_INVALID", 1, "Bad Gateway"),
    (
        "invalid-utf8",
        Reply(body=b'{"choices":[{"message":{"content":"\xff\xfe\xfd"}}]}'),
        "LLM_OUTPUT_INVALID",
        1,
        "\ufffd",
    ),
    ("no-choices", Reply(choices=[]), "LLM_OUTPUT_INVALID", 1, "chatcmpl-fake"),
    ("null-content-repaired", Reply(content=None), "LLM_OUTPUT_INVALID", 2, "chatcmpl-fake"),
    ("5MB-capped", Reply(body=HUGE), "LLM_OUTPUT_INVALID", 1, "AAAA"),
    (
        "bad-content-encoding",
        Reply(body=b"not gzip at all", headers={"Content-Encoding": "gzip"}),
        "LLM_OUTPUT_INVALID",
        1,
        "gzip at all",
    ),
    ("cut-mid-body", Reply(content=ANSWER, cut_at=20), "LLM_UNAVAILABLE", 3, "chatcmpl"),
    ("cut-before-body", Reply(content=ANSWER, cut_at=0), "LLM_UNAVAILABLE", 3, "chatcmpl"),
]


@pytest.mark.parametrize("case", [pytest.param(c[1:], id=c[0]) for c in UNREADABLE])
async def test_unreadable_answers_are_502_and_leave_nothing_behind(
    make_client: ClientFactory, fake_llm: FakeLLM, case: tuple[Reply, str, int, str]
) -> None:
    reply, code, calls, leaked = case
    fake_llm.respond(lambda call: reply)
    client = await make_client()
    status, payload, elapsed = await post(client, body())
    assert status == 502, payload
    assert_failure(payload, code, leaked)
    assert len(fake_llm.calls) == calls
    assert elapsed < 1.5
    await assert_settled(client, fake_llm)


async def test_a_broken_off_answer_is_retried(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(content=ANSWER, cut_at=25))
    client = await make_client()
    status, payload, _ = await post(client, body())
    assert status == 200, payload
    assert payload["dynamic_params"] == {"p0": {"x": "示例"}}
    assert len(fake_llm.calls) == 2
    await assert_settled(client, fake_llm)


async def test_a_gzip_answer_is_read(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    payload = {"choices": [{"message": {"role": "assistant", "content": ANSWER}}]}
    fake_llm.push(
        Reply(body=gzip.compress(orjson.dumps(payload)), headers={"Content-Encoding": "gzip"})
    )
    client = await make_client()
    status, answer, _ = await post(client, body())
    assert status == 200, answer
    assert answer["dynamic_params"] == {"p0": {"x": "ok"}}
