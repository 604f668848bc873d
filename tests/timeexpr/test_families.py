"""The §4.1 phrase families and the choices of docs/time-semantics.md, row by row (the gold
sets hold the bulk; these pin the choices the SPEC leaves open)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from resolver.timeexpr import resolve_time, step_of
from resolver.timeexpr.holidays import holiday_days
from resolver.timeexpr.reading import MAX_TEXT

SH = ZoneInfo("Asia/Shanghai")
NY = ZoneInfo("America/New_York")
NOW = "2025-11-13T09:12:22.241"  # a Thursday


def at(local: str, tz: ZoneInfo = SH) -> int:
    moment = datetime.fromisoformat(local)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=tz)
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def win(start: str, end: str, step: str) -> dict[str, Any]:
    return {"instant": False, "start": at(start), "end": at(end), "step": step}


def days(first: str, last: str) -> dict[str, Any]:
    return win(f"{first}T00:00", f"{last}T23:59:59.999", "day")


def resolve(query: str, now: str = NOW, tz: ZoneInfo = SH) -> Any:
    result = resolve_time(query, now_ms=at(now, tz), tz=tz)
    return None if result is None else result.params()


ROWS = [
    (
        "first-n-quarters-no-year",
        "前三季度",
        win("2025-01-01T00:00", "2025-09-30T23:59:59.999", "quarter"),
    ),
    ("first-n-days-of-a-year", "2024年前10天", days("2024-01-01", "2024-01-10")),
    ("first-n-days-of-a-month", "3月前10天", days("2025-03-01", "2025-03-10")),
    (
        "first-n-months-relative-year",
        "去年前两个月",
        win("2024-01-01T00:00", "2024-02-29T23:59:59.999", "month"),
    ),
    ("first-n-weeks-is-rolling", "前两周", win("2025-10-30T09:12:22.241", NOW, "week")),
    (
        "en-first-n-months-no-year",
        "first 2 months",
        win("2025-01-01T00:00", "2025-02-28T23:59:59.999", "month"),
    ),
    (
        "year-before-a-month",
        "2024年的3月",
        win("2024-03-01T00:00", "2024-03-31T23:59:59.999", "month"),
    ),
    (
        "list-of-three",
        "2024年1月、3月和5月",
        win("2024-01-01T00:00", "2024-05-31T23:59:59.999", "month"),
    ),
    (
        "en-list-year-at-end",
        "March and April 2024",
        win("2024-03-01T00:00", "2024-04-30T23:59:59.999", "month"),
    ),
    (
        "range-and-list",
        "1月到2月和4月",
        win("2025-01-01T00:00", "2025-04-30T23:59:59.999", "month"),
    ),
    ("bare-weekday-not-started", "周五", days("2025-11-07", "2025-11-07")),
    ("bare-weekday-started", "周四", days("2025-11-13", "2025-11-13")),
    ("this-week-future-day", "本周五", days("2025-11-14", "2025-11-14")),
    (
        "en-weekday-after-container",
        "Monday to Wednesday last week",
        days("2025-11-03", "2025-11-05"),
    ),
    ("dekad-bare-middle", "中旬", days("2025-11-11", "2025-11-20")),
    ("dekad-leap-february", "2024年2月下旬", days("2024-02-21", "2024-02-29")),
    ("hours-ago-is-a-sub-day-point-settles-nothing", "3小时前", None),  # SPEC §4.3
    ("half-an-hour", "过去半小时", win("2025-11-13T08:42:22.241", NOW, "day")),
    ("latest-without-a-number", "最新季度", win("2025-08-13T09:12:22.241", NOW, "quarter")),
    (
        "two-digit-years-list",
        "23年和24年",
        win("2023-01-01T00:00", "2024-12-31T23:59:59.999", "year"),
    ),
    ("shiyi-with-a-holiday-word", "十一假期", days("2025-10-01", "2025-10-08")),  # official run
    ("festival-range", "从春节到元宵", days("2025-01-29", "2025-02-12")),
    ("other-festival-holiday-one-day", "双十一期间", days("2025-11-11", "2025-11-11")),
    (
        "as-of-end-of-year",
        "截至2024年底",
        win("2024-12-31T23:59:59.999", "2024-12-31T23:59:59.999", "year"),
    ),
    (
        "until-end-of-month",
        "到2024年3月底为止",
        win("2024-03-31T23:59:59.999", "2024-03-31T23:59:59.999", "month"),
    ),
    (
        "en-as-of-the-end-of",
        "as of the end of 2024",
        win("2024-12-31T23:59:59.999", "2024-12-31T23:59:59.999", "year"),
    ),
    ("since-last-march", "since last March", win("2025-03-01T00:00", NOW, "month")),
    (
        "fortnight-ago",
        "a fortnight ago",
        win("2025-10-30T09:12:22.241", "2025-10-30T09:12:22.241", "week"),
    ),
    ("quarter-word-alone-is-a-step", "季度销售额", {"instant": False, "step": "quarter"}),
    (
        "comparison-with-its-period",
        "2025年3月销售额同比去年",
        win("2025-03-01T00:00", "2025-03-31T23:59:59.999", "month"),
    ),
    # SPEC §4.2 reads these now (they settled nothing before it).
    ("next-week-day", "下周五", days("2025-11-21", "2025-11-21")),
    ("christmas-with-a-year", "Christmas 2024 sales", days("2024-12-25", "2024-12-25")),
]
NOTHING = [
    ("as-of-a-period-to-come", "截至下个月"),
    ("previous-fortnight", "上个双周"),
    ("same-period-beside-a-period", "2024年3月和去年同期的销量"),
    ("vs-does-not-join", "2024年3月 vs 2023年3月"),
    ("jiao-does-not-join", "2025年3月较2024年3月"),
    ("before-march", "3月前的销量"),
    ("weekends-in-general", "双休日的客流"),  # no week named (bare 周末 is this week's: peers)
    ("year-end-without-as-of", "2024年底的库存"),
    ("years-counted", "成立10年以来"),
    ("time-of-day", "10:30的订单"),
    ("every-monday", "每周一的销量"),
    ("unknown-english-festival", "Diwali 2024 sales"),
    ("few", "last few months"),
    ("or-is-no-list", "2023年或2024年"),
]


@pytest.mark.parametrize(("query", "expected"), [pytest.param(q, e, id=i) for i, q, e in ROWS])
def test_family_rows(query: str, expected: Any) -> None:
    assert resolve(query) == expected


@pytest.mark.parametrize("query", [pytest.param(q, id=i) for i, q in NOTHING])
def test_settles_nothing(query: str) -> None:
    assert resolve(query) is None


def test_hours_are_elapsed_time_across_dst() -> None:
    # 2025-03-09 02:00 EST → 03:00 EDT: three hours before 04:00 EDT is 00:00 EST.
    assert resolve("last 3 hours", now="2025-03-09T04:00", tz=NY) == {
        "instant": False,
        "start": at("2025-03-09T04:00", NY) - 3 * 3_600_000,
        "end": at("2025-03-09T04:00", NY),
        "step": "day",
    }


@pytest.mark.parametrize(
    ("name", "year", "first", "last"),
    [
        # the official runs of days off (chinesecalendar), SPEC §4.1 revised
        ("spring", 2024, "2024-02-10", "2024-02-17"),
        ("spring", 2025, "2025-01-28", "2025-02-04"),
        ("mid_autumn", 2025, "2025-10-01", "2025-10-08"),  # joined to National Day
        ("dragon_boat", 2024, "2024-06-08", "2024-06-10"),  # joined to the weekend
        ("national", 2025, "2025-10-01", "2025-10-08"),
        ("national", 2023, "2023-09-29", "2023-10-06"),
        ("labour", 2025, "2025-05-01", "2025-05-05"),
        # a year the calendar does not know: the fixed rule
        ("national", 2027, "2027-10-01", "2027-10-07"),
        ("spring", 2030, "2030-02-03", "2030-02-09"),
    ],
)
def test_festival_holidays(name: str, year: int, first: str, last: str) -> None:
    start, end = holiday_days(name, year, span=True)
    assert (start.isoformat(), end.isoformat()) == (first, last)


@pytest.mark.parametrize(
    ("word", "step"),
    [
        ("month", "month"),
        ("Month", "month"),
        ("months", "month"),
        ("monthly", "month"),
        ("按月", "month"),
        ("月度", "month"),
        ("月", "month"),
        ("按周", "week"),
        ("weekly", "week"),
        ("按天", "day"),
        ("daily", "day"),
        ("quarterly", "quarter"),
        ("按季度", "quarter"),
        ("yearly", "year"),
        ("按年", "year"),
        ("7d", None),
        ("fortnightly", None),
    ],
)
def test_step_words(word: str, step: str | None) -> None:
    assert step_of(word) == step


def test_a_text_too_long_to_be_a_question_is_not_read() -> None:
    filler = "药" * MAX_TEXT
    assert resolve(f"最近3个月的{filler}") is None
    assert resolve(f"最近3个月的{filler[: MAX_TEXT - 20]}") is not None
