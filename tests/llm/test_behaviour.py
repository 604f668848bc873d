"""The LLM stage over real sockets: retries, Retry-After, timeouts, answer forms, repairs."""

from __future__ import annotations

import time
from typing import Any

import openai
import orjson
import pytest
import structlog

from resolver.testing.fake_llm import Call, FakeLLM, Reply
from resolver.web.appkeys import LIFECYCLE_KEY
from tests.helpers import ClientFactory, metric, operator, post, request_body

OP = operator("risk", ("threshold", "NUMBER"), ("include_reason", "BOOLEAN"))
GOOD = '{"risk": {"threshold": 0.8, "include_reason": true}}'


def body(*props: dict[str, Any], **fields: Any) -> dict[str, Any]:
    fields.setdefault("query", "判断是否为高风险企业，阈值0.8，包含原因")
    return request_body(*(props or (OP,)), **fields)


async def test_5xx_is_tried_exactly_three_times(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=503))
    status, payload = await post(await make_client(), body())
    assert status == 502
    assert payload["error"]["code"] == "LLM_UNAVAILABLE"
    assert len(fake_llm.calls) == 3
    assert "3 attempt" in payload["_error"]


async def test_400_is_not_retried(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    fake_llm.respond(lambda call: Reply(status=400))
    status, payload = await post(await make_client(), body())
    assert status == 502
    assert payload["error"]["code"] == "LLM_UNAVAILABLE"
    assert len(fake_llm.calls) == 1


async def test_5xx_then_success(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    fake_llm.push(Reply(status=500), Reply(status=502), Reply(content=GOOD))
    status, payload = await post(await make_client(), body(options={"return_debug": True}))
    assert status == 200, payload
    assert payload["dynamic_params"] == {"risk": {"threshold": 0.8, "include_reason": True}}
    assert payload["debug"]["properties"]["risk"]["llm"]["attempts"] == 3
    assert len(fake_llm.calls) == 3


async def test_backoff_between_attempts(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    fake_llm.push(Reply(status=500), Reply(status=500), Reply(content=GOOD))
    status, _ = await post(await make_client(), body())
    assert status == 200
    first, second, third = (c.started for c in fake_llm.calls)
    assert 0.09 <= second - first <= 0.4
    assert 0.19 <= third - second <= 0.5


@pytest.mark.parametrize(
    ("headers", "cap", "expected_wait"),
    [
        pytest.param({"Retry-After": "0.5"}, 2.0, 0.5, id="retry-after-seconds"),
        pytest.param({"retry-after-ms": "400"}, 2.0, 0.4, id="retry-after-ms"),
        pytest.param({"Retry-After": "30"}, 0.3, 0.3, id="capped"),
    ],
)
async def test_retry_after_is_honoured(
    make_client: ClientFactory,
    fake_llm: FakeLLM,
    headers: dict[str, str],
    cap: float,
    expected_wait: float,
) -> None:
    fake_llm.push(Reply(status=429, headers=headers), Reply(content=GOOD))
    client = await make_client(llm_retry_after_cap_s=cap)
    status, _ = await post(client, body())
    assert status == 200
    first, second = (c.started for c in fake_llm.calls)
    assert expected_wait - 0.02 <= second - first <= expected_wait + 0.25


async def test_the_call_goes_out_as_the_sdk_shapes_it(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(content=GOOD))
    status, _ = await post(await make_client(llm_timeout_s=7), body())
    assert status == 200
    headers = {k.lower(): v for k, v in fake_llm.calls[0].headers.items()}
    sdk = openai.AsyncOpenAI(base_url="http://127.0.0.1:9/v1", api_key="sk", max_retries=0)
    for name, value in sdk.default_headers.items():
        if isinstance(value, str) and name.lower() != "x-stainless-async":
            assert headers[name.lower()] == value, name
    assert headers["authorization"] == "Bearer sk-test-SECRET-0123456789"
    assert headers["x-stainless-retry-count"] == "0"
    assert headers["x-stainless-read-timeout"] == "7.0"
    assert headers["accept-encoding"] == "gzip, deflate"
    await sdk.close()


async def test_a_first_failure_is_tenacitys_first_attempt(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(status=503), Reply(content=GOOD))
    with structlog.testing.capture_logs() as logs:
        status, _ = await post(await make_client(), body())
    assert status == 200
    retries = [line for line in logs if line["event"] == "llm.retry"]
    assert [line["attempt"] for line in retries] == [1]
    assert retries[0]["reason"] == "HTTP 503 from the LLM"


async def test_one_attempt_allowed_is_one_attempt_made(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=503))
    status, payload = await post(await make_client(llm_max_attempts=1), body())
    assert status == 502
    assert len(fake_llm.calls) == 1
    assert "after 1 attempt(s)" in payload["_error"]


async def test_a_redirect_is_not_followed_nor_retried(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(status=307, headers={"Location": "http://127.0.0.1:9/"}))
    status, payload = await post(await make_client(), body())
    assert status == 502
    assert payload["error"]["code"] == "LLM_UNAVAILABLE"
    assert len(fake_llm.calls) == 1
    assert "HTTP 307 from the LLM" in payload["_error"]


async def test_llm_down_fails_fast(make_client: ClientFactory) -> None:
    client = await make_client(llm_base_url="http://127.0.0.1:9/v1")
    started = time.monotonic()
    status, payload = await post(client, body())
    assert status == 502
    assert payload["error"]["code"] == "LLM_UNAVAILABLE"
    assert time.monotonic() - started < 2.0


async def test_slow_llm_times_out_per_call(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    fake_llm.respond(lambda call: Reply(content=GOOD, delay_s=2.0))
    client = await make_client(llm_timeout_s=0.2)
    started = time.monotonic()
    status, payload = await post(client, body())
    assert status == 504
    assert payload["error"]["code"] == "LLM_TIMEOUT"
    assert len(fake_llm.calls) == 3
    assert time.monotonic() - started < 1.5


async def test_request_deadline_bounds_everything(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.respond(lambda call: Reply(hang=True))
    client = await make_client(llm_timeout_s=5, request_timeout_s=0.4)
    started = time.monotonic()
    status, payload = await post(client, body())
    elapsed = time.monotonic() - started
    assert status == 504
    assert payload["error"]["code"] == "LLM_TIMEOUT"
    assert 0.35 <= elapsed < 1.2
    assert len(fake_llm.calls) == 1


ANSWER_FORMS = [
    pytest.param(GOOD, id="plain"),
    pytest.param(f"```json\n{GOOD}\n```", id="fenced"),
    pytest.param(f"以下是结果：{GOOD}。", id="prose-wrapped"),
]


@pytest.mark.parametrize("content", ANSWER_FORMS)
async def test_answer_forms_accepted(
    make_client: ClientFactory, fake_llm: FakeLLM, content: str
) -> None:
    fake_llm.push(Reply(content=content))
    status, payload = await post(await make_client(), body())
    assert status == 200, payload
    assert payload["dynamic_params"]["risk"] == {"threshold": 0.8, "include_reason": True}
    assert len(fake_llm.calls) == 1


BAD_ANSWERS = [
    pytest.param(
        '{"risk": {"threshold": "0.8", "include_reason": true}}', "rule 7.3.2", id="wrong-type"
    ),
    pytest.param(
        '{"risk": {"query": {"threshold": 0.8}, "body": {"include_reason": true}}}',
        "rule 5.1.2",
        id="grouped",
    ),
    pytest.param(
        '{"risk": {"threshold": 0.8, "include_reason": true, "x": 1}}', "rule 3.1.1", id="extra-key"
    ),
    pytest.param(
        '{"risk": {"threshold": 0.8, "include_reason": true}, "other": {}}',
        "rule 6.1.3",
        id="extra-property",
    ),
    pytest.param("no JSON here", "rule 6.1.1", id="prose-only"),
]


@pytest.mark.parametrize(("bad", "rule"), BAD_ANSWERS)
async def test_bad_answer_is_repaired(
    make_client: ClientFactory, fake_llm: FakeLLM, bad: str, rule: str
) -> None:
    fake_llm.push(Reply(content=bad), Reply(content=GOOD))
    status, payload = await post(await make_client(), body(options={"return_debug": True}))
    assert status == 200, payload
    assert payload["debug"]["properties"]["risk"]["llm"]["repair_rounds"] == 1
    repair = fake_llm.calls[1].messages
    assert repair[-2] == {"role": "assistant", "content": bad}
    assert rule in repair[-1]["content"]


@pytest.mark.parametrize(("bad", "rule"), BAD_ANSWERS)
async def test_bad_answer_after_repairs_is_502(
    make_client: ClientFactory, fake_llm: FakeLLM, bad: str, rule: str
) -> None:
    fake_llm.respond(lambda call: Reply(content=bad))
    status, payload = await post(await make_client(), body())
    assert status == 502
    assert payload["error"]["code"] == "LLM_OUTPUT_INVALID"
    assert rule in orjson.dumps(payload).decode()
    assert len(fake_llm.calls) == 2  # the answer and one repair round (default)


async def test_repair_rounds_option(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    fake_llm.respond(lambda call: Reply(content="nope"))
    status, _ = await post(await make_client(), body(options={"max_repair_rounds": 0}))
    assert status == 502
    assert len(fake_llm.calls) == 1
    fake_llm.calls.clear()
    status, _ = await post(await make_client(), body(options={"max_repair_rounds": 3}))
    assert status == 502
    assert len(fake_llm.calls) == 4


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(Reply(choices=[]), id="no-choices"),
        pytest.param(Reply(content=None), id="null-content"),
        pytest.param(Reply(body=b'{"choices": [{"message": {"content": "{\\"ri'), id="truncated"),
        pytest.param(Reply(body=b"\xff\xfe not utf-8"), id="invalid-utf8"),
        pytest.param(Reply(body=b"x" * (2 << 20)), id="oversized"),
    ],
)
async def test_unreadable_responses_are_502(
    make_client: ClientFactory, fake_llm: FakeLLM, reply: Reply
) -> None:
    fake_llm.respond(lambda call: reply)
    status, payload = await post(await make_client(), body())
    assert status == 502
    assert payload["error"]["code"] in ("LLM_OUTPUT_INVALID", "LLM_UNAVAILABLE")


async def test_model_error_answer_becomes_422(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(content='{"_error": "missing risk: threshold | ask: 请提供风险阈值"}'))
    status, payload = await post(await make_client(), body(query="判断风险"))
    assert status == 422
    assert payload["missing"] == [
        {"property": "risk", "params": ["threshold"], "ask": "请提供风险阈值"}
    ]
    assert payload["_error"] == "missing risk: threshold | ask: 请提供风险阈值"


def echo_time(call: Call) -> Reply:
    name = call.property_name
    values = {"instant": False, "start": "2025-08-01", "end": "2025-10-31", "step": "month"}
    return Reply(content=orjson.dumps({name: values}).decode())


async def test_llm_dates_converted_in_code(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    fake_llm.respond(echo_time)
    status, payload = await post(await make_client(), body(metric(), query="八月到十月的药品数量"))
    assert status == 200, payload
    assert payload["dynamic_params"]["approved_drug_count"] == {
        "instant": False,
        "start": 1_753_977_600_000,  # 2025-08-01T00:00:00.000+08:00
        "end": 1_761_926_399_999,  # 2025-10-31T23:59:59.999+08:00
        "step": "month",
    }


async def test_llm_integer_ms_outside_range_is_repaired(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    bad = {
        "approved_drug_count": {"instant": False, "start": 17, "end": "2025-10-31", "step": "month"}
    }
    fake_llm.push(Reply(content=orjson.dumps(bad).decode()))
    fake_llm.respond(echo_time)
    status, payload = await post(await make_client(), body(metric(), query="药品数量趋势"))
    assert status == 200, payload
    assert "rule 7.2.2" in fake_llm.calls[1].messages[-1]["content"]


async def test_no_retry_starts_once_draining(make_client: ClientFactory, fake_llm: FakeLLM) -> None:
    """After SIGTERM (the lifecycle draining) a failed attempt is not retried."""
    fake_llm.push(Reply(status=503), Reply(content='{"x": {}}'))
    client = await make_client()
    client.app[LIFECYCLE_KEY].begin_draining()
    status, body = await post(client, request_body(operator("x", ("a", "STRING"))))
    assert status == 502, body
    assert body["error"]["code"] == "LLM_UNAVAILABLE"
    assert len(fake_llm.calls) == 1


async def test_no_repair_round_starts_once_draining(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    fake_llm.push(Reply(content='{"x": {"a": 1}}'), Reply(content='{"x": {"a": "ok"}}'))
    client = await make_client()
    client.app[LIFECYCLE_KEY].begin_draining()
    status, body = await post(client, request_body(operator("x", ("a", "STRING"))))
    assert status == 502, body
    assert body["error"]["code"] == "LLM_OUTPUT_INVALID"
    assert len(fake_llm.calls) == 1


async def test_a_number_too_long_to_read_is_named_in_the_re_ask(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    # Once re-asked as "holds no JSON object" (issue 30): the object was there, its number
    # too long to read.
    huge = "9" * 5000
    fake_llm.push(Reply(content='{"risk": {"threshold": ' + huge + ', "include_reason": true}}'))
    fake_llm.push(Reply(content=GOOD))
    status, payload = await post(await make_client(), body(OP, query="风险阈值"))
    assert status == 200, payload
    re_ask = fake_llm.calls[1].messages[-1]["content"]
    assert "a number of 5000 digits" in re_ask
    assert "no JSON object" not in re_ask
