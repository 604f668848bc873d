"""`POST /v1/time-window` over a loopback socket: the answer's fields and units, the caller's
clock, zone, context and overrides, the 422 TIME_UNSETTLED in the SPEC error shape, strict
bodies, the limits of §2.1, the documents — and never an LLM call."""

from __future__ import annotations

from typing import Any

import jsonschema
import orjson
import pytest
from aiohttp.test_utils import TestClient

from resolver.testing.fake_llm import FakeLLM
from tests.helpers import NOW_MS, ClientFactory, assert_error_shape

PATH = "/v1/time-window"
LAST_QUARTER = (1_751_299_200_000, 1_759_247_999_999)  # 2025-07-01 .. 2025-09-30, +08:00


async def ask(
    client: TestClient[Any, Any], body: dict[str, Any], **headers: str
) -> tuple[int, dict[str, Any]]:
    response = await client.post(PATH, json=body, headers=headers)
    answer = orjson.loads(await response.read())
    assert response.headers["x-trace-id"] == answer["trace_id"]
    return response.status, answer


@pytest.fixture
async def client(make_client: ClientFactory) -> TestClient[Any, Any]:
    """The service over the fake LLM, which no time-window request may call."""
    return await make_client()


async def test_a_window_with_every_field(client: TestClient[Any, Any], fake_llm: FakeLLM) -> None:
    status, body = await ask(client, {"text": "上个季度", "now_ms": NOW_MS})
    assert status == 200
    assert body == {
        "instant": False,
        "start": LAST_QUARTER[0],
        "end": LAST_QUARTER[1],
        "step": "quarter",
        "unit": "ms",
        "now": NOW_MS,
        "timezone": "Asia/Shanghai",
        "start_iso": "2025-07-01T00:00:00.000+08:00",
        "end_iso": "2025-09-30T23:59:59.999+08:00",
        "expression": "now-1Q/Q",
        "read": ["上个季度"],
        "explanation": (
            "上个季度：2025-07-01 00:00 至 2025-09-30 23:59:59.999（Asia/Shanghai），按季度"
        ),
        "trace_id": body["trace_id"],
    }
    assert not fake_llm.calls


async def test_seconds_for_tools_that_take_unix_seconds(client: TestClient[Any, Any]) -> None:
    status, body = await ask(client, {"text": "上个季度", "now_ms": NOW_MS, "unit": "s"})
    assert status == 200
    assert (body["start"], body["end"], body["now"]) == (
        LAST_QUARTER[0] // 1000,
        LAST_QUARTER[1] // 1000,  # the window's last second
        NOW_MS // 1000,
    )
    assert body["unit"] == "s"
    assert body["end_iso"] == "2025-09-30T23:59:59.999+08:00"  # ISO keeps the millisecond


async def test_an_instant_has_no_window(client: TestClient[Any, Any]) -> None:
    status, body = await ask(client, {"text": "当前的库存", "now_ms": NOW_MS})
    assert status == 200
    assert body["instant"] is True
    assert [body[k] for k in ("start", "end", "start_iso", "end_iso", "step")] == [None] * 5
    assert (body["now"], body["expression"]) == (NOW_MS, "now")
    assert body["explanation"] == "当前：查询当前值（instant=true）"


async def test_the_server_clock_when_none_is_given(client: TestClient[Any, Any]) -> None:
    status, body = await ask(client, {"text": "最近3个月"})
    assert status == 200
    assert body["end"] == body["now"] > NOW_MS


@pytest.mark.parametrize(
    ("zone", "iana"),
    [
        ("America/New_York", "America/New_York"),
        ("纽约", "America/New_York"),
        ("UTC+8", "Etc/GMT-8"),
    ],
)
async def test_a_zone_by_name_city_or_offset(
    client: TestClient[Any, Any], zone: str, iana: str
) -> None:
    status, body = await ask(client, {"text": "last month", "now_ms": NOW_MS, "timezone": zone})
    assert status == 200
    assert body["timezone"] == iana
    assert body["start_iso"].startswith("2025-10-01T00:00:00.000")
    assert body["explanation"].startswith("last month: 2025-10-01 00:00 to 2025-10-31")


async def test_the_context_sets_clock_and_zone_and_beats_the_text(
    client: TestClient[Any, Any],
) -> None:
    status, body = await ask(
        client, {"text": "上个月", "context": "今天是2024年5月3日，时区：纽约"}
    )
    assert status == 200
    assert body["timezone"] == "America/New_York"
    assert body["start_iso"] == "2024-04-01T00:00:00.000-04:00"
    assert body["now"] == 1_714_708_800_000  # 2024-05-03T00:00-04:00
    status, body = await ask(
        client, {"text": "2024年3月前后", "context": "2024年1月至3月，按月", "now_ms": NOW_MS}
    )
    assert status == 200
    assert (body["expression"], body["step"]) == ("2024-01..2024-03", "month")
    assert body["read"] == ["2024年1月至3月", "按月"]


async def test_the_default_zone_is_the_setting(make_client: ClientFactory) -> None:
    client = await make_client(llm=False, default_timezone="Europe/Berlin")
    status, body = await ask(client, {"text": "yesterday", "now_ms": NOW_MS})
    assert status == 200
    assert body["timezone"] == "Europe/Berlin"
    status, body = await ask(client, {"text": "yesterday", "context": "用户在纽约时区"})
    assert body["timezone"] == "America/New_York"  # a zone sentence beats the setting


async def test_the_callers_instant_and_step_beat_the_text(client: TestClient[Any, Any]) -> None:
    status, body = await ask(client, {"text": "上个季度", "now_ms": NOW_MS, "step": "month"})
    assert (status, body["step"], body["start"]) == (200, "month", LAST_QUARTER[0])
    assert body["explanation"].endswith("按月")
    status, body = await ask(client, {"text": "上个季度", "now_ms": NOW_MS, "instant": True})
    assert (status, body["instant"], body["start"]) == (200, True, None)


async def test_an_explanation_with_no_words_read_has_no_empty_head(
    client: TestClient[Any, Any],
) -> None:
    for language, expected in (("zh", "查询当前值（instant=true）"), ("en", "The current value")):
        status, body = await ask(
            client, {"text": "", "now_ms": NOW_MS, "instant": True, "language": language}
        )
        assert status == 200
        assert body["explanation"].startswith(expected)
    status, body = await ask(client, {"text": "", "now_ms": NOW_MS, "context": "最近3个月"})
    assert status == 200
    assert body["explanation"].startswith("最近3个月：")


async def test_the_language_of_the_explanation(client: TestClient[Any, Any]) -> None:
    body = {"text": "上周", "now_ms": NOW_MS}
    _, chinese = await ask(client, body)
    _, asked = await ask(client, body, **{"Accept-Language": "en-US"})
    _, given = await ask(client, {**body, "language": "en"}, **{"Accept-Language": "zh-CN"})
    assert chinese["explanation"].startswith("上周：2025-11-03 00:00 至")
    assert asked["explanation"] == given["explanation"]
    assert given["explanation"].startswith("上周: 2025-11-03 00:00 to 2025-11-09 23:59:59.999")


async def test_an_unsettled_text_is_a_422_naming_its_words(
    client: TestClient[Any, Any], fake_llm: FakeLLM
) -> None:
    status, body = await ask(client, {"text": "2024年3月前后的销量", "now_ms": NOW_MS})
    assert status == 422
    assert_error_shape(body, "TIME_UNSETTLED")
    assert body["unread"] == ["前后"]
    assert body["ask"].startswith("无法确定时间：“前后”；请改写 text，或在 context 中写明时间范围")
    assert body["_error"] == body["ask"]
    assert "start" not in body  # never a half-settled window
    assert set(body) == {"_error", "error", "unread", "ask", "trace_id"}
    assert not fake_llm.calls


async def test_a_text_without_time_words_names_none(client: TestClient[Any, Any]) -> None:
    status, body = await ask(client, {"text": "company revenue by region", "now_ms": NOW_MS})
    assert status == 422
    assert body["unread"] == []
    assert body["ask"].startswith("Please rephrase text or state the time range in context")


async def test_a_window_outside_the_years_the_rules_accept_is_unsettled(
    client: TestClient[Any, Any],
) -> None:
    status, body = await ask(client, {"text": "since 1990", "now_ms": NOW_MS})
    assert status == 422
    assert body["unread"] == ["since 1990"]
    assert "outside 2000..2100" in body["error"]["message"]


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"text": "上个月", "unknown": 1}, "unknown"),
        ({"text": 3}, "text"),
        ({}, "text"),
        ({"text": "上个月", "unit": "h"}, "unit"),
        ({"text": "上个月", "now_ms": "1762996342241"}, "now_ms"),
        ({"text": "上个月", "now_ms": 1_000}, "now_ms"),
        ({"text": "上个月", "step": "hour"}, "step"),
        ({"text": "上个月", "language": "fr"}, "language"),
        ({"text": "上个月", "timezone": ""}, "timezone"),
        ({"text": "x" * 8193}, "text"),
    ],
    ids=["unknown-field", "text-type", "no-text", "unit", "now-string", "now-1970", "step",
         "language", "empty-zone", "long-text"],
)  # fmt: skip
async def test_a_bad_body_is_a_400_naming_the_field(
    client: TestClient[Any, Any], body: dict[str, Any], where: str
) -> None:
    status, answer = await ask(client, body)
    assert status == 400
    assert_error_shape(answer, "BAD_REQUEST")
    assert answer["error"]["details"][0]["loc"] == where


async def test_an_unknown_zone_is_a_400(client: TestClient[Any, Any]) -> None:
    status, body = await ask(client, {"text": "上个月", "timezone": "Mars/Olympus"})
    assert status == 400
    assert body["error"]["details"] == [
        {"loc": "timezone", "msg": "unknown timezone", "type": "value_error"}
    ]


async def test_a_context_clock_outside_the_rules_is_a_400(client: TestClient[Any, Any]) -> None:
    status, body = await ask(client, {"text": "上个月", "context": "today is 1990-05-01"})
    assert status == 400
    assert "2000..2100" in body["error"]["message"]


async def test_the_platform_envelope_is_taken_off_as_on_every_body(
    client: TestClient[Any, Any],
) -> None:
    envelope = {"conversation_id": "c-1", "interaction_id": "i-1"}
    status, body = await ask(
        client, {"text": "上个季度", "now_ms": NOW_MS, "bkn_context": envelope}
    )
    assert (status, body["start"]) == (200, LAST_QUARTER[0])
    assert "bkn_context" not in body
    status, body = await ask(client, {"text": "上个季度", "bkn_context": {"conversation_id": 1}})
    assert status == 400
    assert body["error"]["code"] == "INVALID_BUSINESS_CONTEXT"


async def test_the_limits_of_every_business_body(make_client: ClientFactory) -> None:
    client = await make_client(llm=False, max_body_bytes=2048)
    response = await client.post(PATH, data=b'{"text": "' + b"x" * 4096 + b'"}',
                                 headers={"Content-Type": "application/json"})  # fmt: skip
    assert response.status == 413
    response = await client.post(PATH, data=b"text=1", headers={"Content-Type": "text/plain"})
    assert response.status == 415
    response = await client.post(PATH, data=b"{", headers={"Content-Type": "application/json"})
    assert response.status == 400
    assert (await response.json())["error"]["code"] == "INVALID_JSON"


async def test_toon_on_request(client: TestClient[Any, Any]) -> None:
    response = await client.post(
        f"{PATH}?response_format=toon", json={"text": "上个季度", "now_ms": NOW_MS}
    )
    assert response.status == 200
    text = await response.text()
    assert f"start: {LAST_QUARTER[0]}" in text


async def test_the_documents_describe_it(client: TestClient[Any, Any]) -> None:
    doc = await (await client.get("/openapi.json")).json()
    operation = doc["paths"][PATH]["post"]
    schemas = doc["components"]["schemas"]
    assert operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/TimeWindowRequest"
    )
    assert {"200", "400", "413", "415", "422"} <= set(operation["responses"])
    request = schemas["TimeWindowRequest"]
    assert request["additionalProperties"] is False
    assert request["required"] == ["text"]
    _, ok = await ask(client, {"text": "上个季度", "now_ms": NOW_MS})
    _, unsettled = await ask(client, {"text": "前后", "now_ms": NOW_MS})
    for body, name in ((ok, "TimeWindowResponse"), (unsettled, "ErrorResponse")):
        jsonschema.validate(body, {**schemas[name], "components": {"schemas": schemas}})
