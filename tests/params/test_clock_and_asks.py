"""The request's clock and zone from every source in order (SPEC §2.1, §3), and the ask of a
time the scanner could not read naming the words (SPEC §4.2) — over HTTP, in `_error` and
`missing[].ask`, rules-only and with a model that writes its own ask."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import orjson
import pytest

from resolver.testing.fake_llm import FakeLLM, Reply
from tests.helpers import ClientFactory, metric, post, request_body


def ms(local: str, zone: str) -> int:
    moment = datetime.fromisoformat(local).replace(tzinfo=ZoneInfo(zone))
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def body(query: str, context: Any, **fields: Any) -> dict[str, Any]:
    """A request with neither clock nor zone unless `fields` give them."""
    payload = request_body(metric(), query=query, additional_context=context, **fields)
    for name in ("now_ms", "timezone"):
        if name not in fields:
            payload.pop(name)
    return payload


def last_month(year: int, month: int, zone: str) -> dict[str, Any]:
    first = datetime(year, month, 1)
    end = datetime(year, month + 1, 1) if month < 12 else datetime(year + 1, 1, 1)
    return {
        "instant": False,
        "start": ms(first.isoformat(), zone),
        "end": ms(end.isoformat(), zone) - 1,
        "step": "month",
    }


OCTOBER_SH = last_month(2025, 10, "Asia/Shanghai")
OCTOBER_NY = last_month(2025, 10, "America/New_York")


@pytest.mark.parametrize(
    ("context", "fields", "expected"),
    [
        pytest.param("今天是2025年11月13日", {}, OCTOBER_SH, id="clock-sentence"),
        pytest.param("today is Nov 13, 2025", {}, OCTOBER_SH, id="clock-sentence-en"),
        pytest.param({"当前日期": "2025年11月13日"}, {}, OCTOBER_SH, id="now-key-written-date"),
        # The request's now_ms beats the sentence: 2026-03-10 makes last month February.
        pytest.param(
            "今天是2025年11月13日",
            {"now_ms": ms("2026-03-10T12:00", "Asia/Shanghai")},
            last_month(2026, 2, "Asia/Shanghai"),
            id="request-now-beats-the-sentence",
        ),
        pytest.param(
            f"now_ms={ms('2026-03-10T12:00', 'Asia/Shanghai')}；今天是2025年11月13日",
            {},
            last_month(2026, 2, "Asia/Shanghai"),
            id="context-now-ms-beats-the-sentence",
        ),
        pytest.param(
            "用户在纽约时区；今天是2025年11月13日", {}, OCTOBER_NY, id="zone-sentence-city"
        ),
        pytest.param(
            "today is 2025-11-13, the user is in the New York time zone",
            {},
            OCTOBER_NY,
            id="zone-sentence-en",
        ),
        pytest.param(
            {"timezone": "纽约", "today": "2025-11-13"}, {}, OCTOBER_NY, id="zone-key-city"
        ),
        pytest.param(
            "用户在纽约时区；今天是2025年11月13日",
            {"timezone": "Asia/Shanghai"},
            OCTOBER_SH,
            id="request-zone-beats-the-sentence",
        ),
        # A zone cue nobody can place does not matter once the request names the zone.
        pytest.param(
            "用户在火星时区；今天是2025年11月13日",
            {"timezone": "Asia/Shanghai"},
            OCTOBER_SH,
            id="unmapped-cue-but-request-zone",
        ),
    ],
)
async def test_clock_and_zone_come_from_the_first_source_that_gives_them(
    make_client: ClientFactory, context: Any, fields: dict[str, Any], expected: dict[str, Any]
) -> None:
    status, answer = await post(
        await make_client(llm=False), body("上个月的药品数量", context, **fields)
    )
    assert status == 200, answer
    assert answer["dynamic_params"]["approved_drug_count"] == expected


async def test_a_clock_sentence_never_sets_the_window(make_client: ClientFactory) -> None:
    status, answer = await post(
        await make_client(llm=False), body("药品数量", "今天是2025年11月13日", timezone="UTC")
    )
    assert status == 422, answer
    assert answer["missing"][0]["params"] == ["start", "end", "step"]


@pytest.mark.parametrize(
    ("context", "message"),
    [
        ({"timezone": "火星"}, "unknown timezone"),
        ("timezone=UTC+25", "unknown timezone"),  # the reserved key
        ({"tz": "火星"}, "unknown timezone"),
        ("当前日期：十一月的某天", "additional_context now must be"),
        ("今天是1990年1月1日", "outside 2000..2100"),
    ],
)
async def test_a_clock_or_zone_that_cannot_be_placed_is_a_400(
    make_client: ClientFactory, context: Any, message: str
) -> None:
    status, answer = await post(await make_client(llm=False), body("上个月的药品数量", context))
    assert status == 400, answer
    assert answer["error"]["code"] == "BAD_REQUEST"
    assert message in answer["_error"]


@pytest.mark.parametrize(
    ("query", "context", "named"),
    [
        ("2024年3月前后的药品数量", None, "无法确定时间：“前后”"),
        ("drug count for last month or later", None, 'Could not read: "or later"'),
        ("2024Q5的药品数量", None, "无法确定时间：“Q5”"),
        # The context's words are read first, and they are what the ask names.
        ("上个月的药品数量", "2019年以后", "无法确定时间：“以后”"),
        # A zone cue that maps to no zone settles nothing: the window has no place.
        ("上个月的药品数量", "用户在火星时区", "无法确定时间：“火星”"),
        # 时区：… is a zone sentence (SPEC §3), not the reserved key: no zone, no window.
        ("上个月的药品数量", "时区：UTC+25", "无法确定时间：“UTC+25”"),
        ("上个月的药品数量", {"时区": "火星"}, "无法确定时间：“火星”"),
    ],
)
async def test_the_ask_names_the_words_it_could_not_read(
    make_client: ClientFactory, query: str, context: str | None, named: str
) -> None:
    payload = request_body(metric(), query=query, additional_context=context)
    if "时区" in str(context or ""):
        payload.pop("timezone")  # a zone sentence counts only when the request names no zone
    status, answer = await post(await make_client(llm=False), payload)
    assert status == 422, answer
    [entry] = answer["missing"]
    assert entry["ask"].startswith(named), entry["ask"]
    assert entry["ask"] in answer["_error"]


async def test_a_model_ask_follows_the_words_it_could_not_read(
    make_client: ClientFactory, fake_llm: FakeLLM
) -> None:
    error = "missing approved_drug_count: start,end,step | ask: 请说明时间范围"
    fake_llm.push(Reply(content=orjson.dumps({"_error": error}).decode()))
    status, answer = await post(
        await make_client(), request_body(metric(), query="2024年3月前后的药品数量")
    )
    assert status == 422, answer
    [entry] = answer["missing"]
    assert entry["ask"] == "无法确定时间：“前后”；请说明时间范围"
