"""resolve_time and to_epoch_ms against SPEC §4 and docs/time-semantics.md, row by row.

Expected windows are written as local wall times in the request timezone; `at()` reads them
with fold=0, as the semantics do, unless the text carries its own offset.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from resolver.timeexpr import Step, TimeResolution, resolve_time, to_epoch_ms

SH = ZoneInfo("Asia/Shanghai")
NY = ZoneInfo("America/New_York")
NOW = "2025-11-13T09:12:22.241"  # a Thursday, Asia/Shanghai
INSTANT = {"instant": True}
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def at(local: str, tz: ZoneInfo = SH) -> int:
    """Epoch ms of a local ISO time (fold=0), or of an ISO time with an offset."""
    moment = datetime.fromisoformat(local)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=tz)
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def win(start: str, end: str, step: Step, tz: ZoneInfo = SH) -> dict[str, Any]:
    """A settled window: local start and end (`NOW` for now) and the step."""
    return {"instant": False, "start": at(start, tz), "end": at(end, tz), "step": step}


def point(moment: str, step: Step) -> dict[str, Any]:
    """`N units ago`: start = end = that moment."""
    return win(moment, moment, step)


def day(date: str, step: Step = "day", tz: ZoneInfo = SH) -> dict[str, Any]:
    return win(f"{date}T00:00", f"{date}T23:59:59.999", step, tz)


def resolve(query: str, now: str = NOW, tz: ZoneInfo = SH, **overrides: Any) -> Any:
    result = resolve_time(query, now_ms=at(now, tz), tz=tz, **overrides)
    return None if result is None else result.params()


def table(*rows: tuple[str, str, Any]) -> list[Any]:
    """(id, query, expected) rows, resolved at NOW in Asia/Shanghai."""
    return [pytest.param(query, expected, id=name) for name, query, expected in rows]


# -- instant words ---------------------------------------------------------------------------

INSTANT_WORDS = table(
    ("zh-dangqian", "当前药品数量", INSTANT),
    ("zh-xianzai", "现在的库存", INSTANT),
    ("zh-muqian", "目前在营门店数", INSTANT),
    ("zh-jintian", "今天的订单数", INSTANT),
    ("zh-shishi", "实时在线用户", INSTANT),
    ("zh-zuixin", "最新的注册资本", INSTANT),
    ("zh-jiezhi-muqian", "截至目前累计获批数量", INSTANT),
    ("en-now", "inventory now", INSTANT),
    ("en-current", "current headcount", INSTANT),
    ("en-latest", "latest stock price", INSTANT),
    ("en-today", "today's orders", INSTANT),
    ("en-right-now", "what is the inventory right now", INSTANT),
    ("en-as-of-today", "revenue as of today", INSTANT),
    (
        "zh-window-beats-instant-word",
        "当前最近3个月的趋势",
        win("2025-08-13T09:12:22.241", NOW, "month"),
    ),
    (
        "en-window-beats-instant-word",
        "current revenue for last month",
        win("2025-10-01T00:00", "2025-10-31T23:59:59.999", "month"),
    ),
)


@pytest.mark.parametrize(("query", "expected"), INSTANT_WORDS)
def test_instant_words(query: str, expected: Any) -> None:
    assert resolve(query) == expected


# -- last / past N units ---------------------------------------------------------------------

ROLLING = table(
    ("zh-3-months", "最近3个月的药品数量", win("2025-08-13T09:12:22.241", NOW, "month")),
    ("zh-one-week", "近一周", win("2025-11-06T09:12:22.241", NOW, "week")),
    ("zh-past-one-year", "过去一年", win("2024-11-13T09:12:22.241", NOW, "year")),
    ("zh-two-weeks", "最近两周", win("2025-10-30T09:12:22.241", NOW, "week")),
    ("zh-half-year", "近半年", win("2025-05-13T09:12:22.241", NOW, "month")),
    ("zh-half-month", "最近半个月", win("2025-10-29T09:12:22.241", NOW, "day")),
    ("zh-30-tian", "近30天", win("2025-10-14T09:12:22.241", NOW, "day")),
    ("zh-7-ri", "近7日", win("2025-11-06T09:12:22.241", NOW, "day")),
    ("zh-two-quarters", "最近两个季度", win("2025-05-13T09:12:22.241", NOW, "quarter")),
    ("zh-2-ji", "近2季", win("2025-05-13T09:12:22.241", NOW, "quarter")),
    ("zh-twelve-months", "过去十二个月", win("2024-11-13T09:12:22.241", NOW, "month")),
    ("zh-year-and-a-half", "近一年半", win("2024-05-13T09:12:22.241", NOW, "month")),
    ("zh-2-yue", "近2月", win("2025-09-13T09:12:22.241", NOW, "month")),
    ("zh-3-xingqi", "近3个星期", win("2025-10-23T09:12:22.241", NOW, "week")),
    ("zh-2-libai", "过去两个礼拜", win("2025-10-30T09:12:22.241", NOW, "week")),
    ("zh-3-niandu", "最近三个年度", win("2022-11-13T09:12:22.241", NOW, "year")),
    ("zh-twenty-three-days", "近二十三天", win("2025-10-21T09:12:22.241", NOW, "day")),
    ("zh-spaces", "最近 3 个月", win("2025-08-13T09:12:22.241", NOW, "month")),
    ("zh-full-width-digits", "近１２个月", win("2024-11-13T09:12:22.241", NOW, "month")),
    ("zh-guoqu-de", "过去的6个月", win("2025-05-13T09:12:22.241", NOW, "month")),
    ("en-last-3-months", "last 3 months", win("2025-08-13T09:12:22.241", NOW, "month")),
    ("en-past-2-weeks", "past 2 weeks", win("2025-10-30T09:12:22.241", NOW, "week")),
    ("en-the-past-year", "revenue over the past year", win("2024-11-13T09:12:22.241", NOW, "year")),
    ("en-past-week", "past week", win("2025-11-06T09:12:22.241", NOW, "week")),
    ("en-last-twelve-months", "last twelve months", win("2024-11-13T09:12:22.241", NOW, "month")),
    ("en-past-half-year", "past half year", win("2025-05-13T09:12:22.241", NOW, "month")),
    ("en-trailing", "trailing 12 months", win("2024-11-13T09:12:22.241", NOW, "month")),
    ("en-ttm", "TTM revenue", win("2024-11-13T09:12:22.241", NOW, "month")),
    ("en-twenty-four", "last twenty-four months", win("2023-11-13T09:12:22.241", NOW, "month")),
    ("en-30-days", "orders over the last 30 days", win("2025-10-14T09:12:22.241", NOW, "day")),
    ("en-two-quarters", "the last two quarters", win("2025-05-13T09:12:22.241", NOW, "quarter")),
)


@pytest.mark.parametrize(("query", "expected"), ROLLING)
def test_last_n_units(query: str, expected: Any) -> None:
    assert resolve(query) == expected


# -- N units ago -----------------------------------------------------------------------------

AGO = table(
    ("zh-3-months-ago", "3个月前的库存", point("2025-08-13T09:12:22.241", "month")),
    ("zh-three-days-ago", "三天前", point("2025-11-10T09:12:22.241", "day")),
    ("zh-two-weeks-ago", "两周前", point("2025-10-30T09:12:22.241", "week")),
    ("zh-half-year-ago", "半年前", point("2025-05-13T09:12:22.241", "month")),
    ("zh-half-month-ago", "半个月前", point("2025-10-29T09:12:22.241", "day")),
    ("zh-year-and-a-half-ago", "一年半前", point("2024-05-13T09:12:22.241", "month")),
    ("zh-one-quarter-ago", "1个季度前", point("2025-08-13T09:12:22.241", "quarter")),
    ("zh-zhiqian", "3天之前", point("2025-11-10T09:12:22.241", "day")),
    ("zh-yiqian", "两年以前", point("2023-11-13T09:12:22.241", "year")),
    ("en-3-months-ago", "3 months ago", point("2025-08-13T09:12:22.241", "month")),
    ("en-a-year-ago", "revenue a year ago", point("2024-11-13T09:12:22.241", "year")),
    ("en-half-a-year-ago", "half a year ago", point("2025-05-13T09:12:22.241", "month")),
    ("en-two-weeks-ago", "inventory two weeks ago", point("2025-10-30T09:12:22.241", "week")),
)


@pytest.mark.parametrize(("query", "expected"), AGO)
def test_n_units_ago(query: str, expected: Any) -> None:
    assert resolve(query) == expected


# -- previous periods ------------------------------------------------------------------------

LAST_WEEK = win("2025-11-03T00:00", "2025-11-09T23:59:59.999", "week")
LAST_MONTH = win("2025-10-01T00:00", "2025-10-31T23:59:59.999", "month")
LAST_QUARTER = win("2025-07-01T00:00", "2025-09-30T23:59:59.999", "quarter")
LAST_YEAR = win("2024-01-01T00:00", "2024-12-31T23:59:59.999", "year")
PREVIOUS = table(
    ("zh-zuotian", "昨天", day("2025-11-12")),
    ("zh-zuori", "昨日的访问量", day("2025-11-12")),
    ("zh-qiantian", "前天", day("2025-11-11")),
    ("zh-shangzhou", "上周的销售额", LAST_WEEK),
    ("zh-shang-xingqi", "上星期", LAST_WEEK),
    ("zh-shangge-libai", "上个礼拜", LAST_WEEK),
    ("zh-shangshangzhou", "上上周", win("2025-10-27T00:00", "2025-11-02T23:59:59.999", "week")),
    ("zh-shangge-yue", "上个月", LAST_MONTH),
    ("zh-shangyue", "上月的营收", LAST_MONTH),
    (
        "zh-shangshangge-yue",
        "上上个月",
        win("2025-09-01T00:00", "2025-09-30T23:59:59.999", "month"),
    ),
    ("zh-shang-jidu", "上季度", LAST_QUARTER),
    ("zh-shangyi-jidu", "上一季度", LAST_QUARTER),
    ("zh-qunian", "去年", LAST_YEAR),
    ("zh-shangyi-niandu", "上一年度", LAST_YEAR),
    ("zh-qiannian", "前年", win("2023-01-01T00:00", "2023-12-31T23:59:59.999", "year")),
    ("zh-daqiannian", "大前年", win("2022-01-01T00:00", "2022-12-31T23:59:59.999", "year")),
    ("en-yesterday", "yesterday", day("2025-11-12")),
    ("en-day-before-yesterday", "the day before yesterday", day("2025-11-11")),
    ("en-last-week", "orders last week", LAST_WEEK),
    ("en-previous-month", "previous month", LAST_MONTH),
    ("en-last-quarter", "last quarter profit", LAST_QUARTER),
    ("en-last-year", "sales last year", LAST_YEAR),
    (
        "en-year-before-last",
        "the year before last",
        win("2023-01-01T00:00", "2023-12-31T23:59:59.999", "year"),
    ),
)


@pytest.mark.parametrize(("query", "expected"), PREVIOUS)
def test_previous_period(query: str, expected: Any) -> None:
    assert resolve(query) == expected


# -- this period -----------------------------------------------------------------------------

THIS_WEEK = win("2025-11-10T00:00", NOW, "week")
THIS_MONTH = win("2025-11-01T00:00", NOW, "month")
THIS_QUARTER = win("2025-10-01T00:00", NOW, "quarter")
THIS_YEAR = win("2025-01-01T00:00", NOW, "year")
THIS = table(
    ("zh-benzhou", "本周", THIS_WEEK),
    ("zh-zhezhou", "这周的订单", THIS_WEEK),
    ("zh-benyue", "本月", THIS_MONTH),
    ("zh-zhege-yue", "这个月", THIS_MONTH),
    ("zh-dangyue", "当月销售额", THIS_MONTH),
    ("zh-ben-jidu", "本季度", THIS_QUARTER),
    ("zh-dangqian-jidu", "当前季度的数据", THIS_QUARTER),
    ("zh-jinnian", "今年", THIS_YEAR),
    ("zh-ben-niandu", "本年度", THIS_YEAR),
    ("en-this-week", "this week", THIS_WEEK),
    ("en-this-month", "this month revenue", THIS_MONTH),
    ("en-current-quarter", "current quarter", THIS_QUARTER),
    ("en-this-year", "sales this year", THIS_YEAR),
    ("en-ytd", "YTD revenue", THIS_YEAR),
    ("en-month-to-date", "month-to-date orders", THIS_MONTH),
)


@pytest.mark.parametrize(("query", "expected"), THIS)
def test_this_period(query: str, expected: Any) -> None:
    assert resolve(query) == expected


# -- explicit periods ------------------------------------------------------------------------

Y2024 = win("2024-01-01T00:00", "2024-12-31T23:59:59.999", "year")
M2024_03 = win("2024-03-01T00:00", "2024-03-31T23:59:59.999", "month")
Q2024_1 = win("2024-01-01T00:00", "2024-03-31T23:59:59.999", "quarter")
EXPLICIT = table(
    ("zh-year", "2024年", Y2024),
    ("zh-year-niandu", "2024年度销售额", Y2024),
    ("zh-year-chinese-digits", "二〇二四年", Y2024),
    ("zh-year-full-width", "２０２４年", Y2024),
    ("en-in-year", "revenue in 2024", Y2024),
    ("zh-future-year", "2026年的预算", win("2026-01-01T00:00", "2026-12-31T23:59:59.999", "year")),
    ("zh-month", "2024年3月", M2024_03),
    ("zh-month-zero-padded", "2024年03月的营收", M2024_03),
    ("iso-month", "2024-03", M2024_03),
    ("slash-month", "2024/3", M2024_03),
    ("en-month-year", "March 2024", M2024_03),
    ("en-abbrev-month-year", "sales in Mar 2024", M2024_03),
    ("zh-quarter-di-yi", "2024年第一季度", Q2024_1),
    ("zh-quarter-yi", "2024年一季度的营收", Q2024_1),
    ("zh-quarter-q", "2024年Q1", Q2024_1),
    ("compact-quarter", "2024Q1的药品数量", Q2024_1),
    ("spaced-quarter", "2024 Q1", Q2024_1),
    ("iso-quarter", "2024-Q1", Q2024_1),
    ("en-quarter-year", "Q1 2024", Q2024_1),
    ("en-ordinal-quarter", "the first quarter of 2024", Q2024_1),
    ("full-width-quarter", "２０２４Ｑ１", Q2024_1),
    ("iso-date", "2025-12-25的订单量", day("2025-12-25")),
    ("slash-date", "2025/12/25", day("2025-12-25")),
    ("zh-date-ri", "2025年12月25日", day("2025-12-25")),
    ("zh-date-hao", "2025年12月25号", day("2025-12-25")),
    ("en-month-day-year", "December 25, 2025", day("2025-12-25")),
    ("en-day-month-year", "25 Dec 2025", day("2025-12-25")),
    ("zh-iso-week", "2025年第10周", win("2025-03-03T00:00", "2025-03-09T23:59:59.999", "week")),
    ("iso-week", "2025-W10", win("2025-03-03T00:00", "2025-03-09T23:59:59.999", "week")),
    (
        "en-week-of-year",
        "week 10 of 2025",
        win("2025-03-03T00:00", "2025-03-09T23:59:59.999", "week"),
    ),
    ("iso-week-53", "2020-W53", win("2020-12-28T00:00", "2021-01-03T23:59:59.999", "week")),
    ("zh-first-half", "2024年上半年", win("2024-01-01T00:00", "2024-06-30T23:59:59.999", "month")),
    ("zh-second-half", "2024年下半年", win("2024-07-01T00:00", "2024-12-31T23:59:59.999", "month")),
    ("en-h1", "H1 2024", win("2024-01-01T00:00", "2024-06-30T23:59:59.999", "month")),
    (
        "en-second-half",
        "second half of 2024",
        win("2024-07-01T00:00", "2024-12-31T23:59:59.999", "month"),
    ),
    ("zh-last-year-march", "去年3月", M2024_03),
    (
        "zh-this-year-q1",
        "今年第一季度",
        win("2025-01-01T00:00", "2025-03-31T23:59:59.999", "quarter"),
    ),
    ("en-march-of-last-year", "March of last year", M2024_03),
    (
        "en-q4-last-year",
        "Q4 last year",
        win("2024-10-01T00:00", "2024-12-31T23:59:59.999", "quarter"),
    ),
)


@pytest.mark.parametrize(("query", "expected"), EXPLICIT)
def test_explicit_period(query: str, expected: Any) -> None:
    assert resolve(query) == expected


# -- ranges ----------------------------------------------------------------------------------

JAN_MAR_2024 = win("2024-01-01T00:00", "2024-03-31T23:59:59.999", "month")
Y2023_2025 = win("2023-01-01T00:00", "2025-12-31T23:59:59.999", "year")
RANGES = table(
    ("zh-cong-dao-inherit-year", "从2024年1月到3月", JAN_MAR_2024),
    ("zh-zhi-both-years", "2024年1月至2024年3月", JAN_MAR_2024),
    ("zh-dash-months", "2024年1-3月", JAN_MAR_2024),
    ("zh-dash-month-words", "2024年1月-3月的营收", JAN_MAR_2024),
    ("zh-years-dash", "2023-2025年", Y2023_2025),
    ("zh-years-zhi", "2023至2025年", Y2023_2025),
    ("zh-cong-years", "从2023年到2025年", Y2023_2025),
    (
        "zh-month-zhi-month",
        "2025年3月至5月",
        win("2025-03-01T00:00", "2025-05-31T23:59:59.999", "month"),
    ),
    (
        "zh-days-inherit-month",
        "2024年3月1日至15日",
        win("2024-03-01T00:00", "2024-03-15T23:59:59.999", "day"),
    ),
    ("zh-days-dash", "2024年3月1-15日", win("2024-03-01T00:00", "2024-03-15T23:59:59.999", "day")),
    (
        "zh-quarters",
        "从2024年第一季度到第三季度",
        win("2024-01-01T00:00", "2024-09-30T23:59:59.999", "quarter"),
    ),
    (
        "compact-quarters",
        "2024Q1-Q3",
        win("2024-01-01T00:00", "2024-09-30T23:59:59.999", "quarter"),
    ),
    (
        "zh-finest-unit",
        "2024年第二季度到2024年8月",
        win("2024-04-01T00:00", "2024-08-31T23:59:59.999", "month"),
    ),
    (
        "zh-relative-years",
        "从去年3月到今年5月",
        win("2024-03-01T00:00", "2025-05-31T23:59:59.999", "month"),
    ),
    ("zh-bare-months", "3月至5月", win("2025-03-01T00:00", "2025-05-31T23:59:59.999", "month")),
    ("zh-to-this-month", "从上个月到本月", win("2025-10-01T00:00", NOW, "month")),
    (
        "iso-dates",
        "从2025-01-01到2025-01-31",
        win("2025-01-01T00:00", "2025-01-31T23:59:59.999", "day"),
    ),
    ("en-from-to-years", "from 2023 to 2025", Y2023_2025),
    ("en-between-and", "between 2023 and 2025", Y2023_2025),
    ("en-months-year-at-end", "from January to March 2024", JAN_MAR_2024),
    ("en-abbrev-dash", "Jan-Mar 2024", JAN_MAR_2024),
    (
        "en-between-quarters",
        "between Q1 and Q3 2024",
        win("2024-01-01T00:00", "2024-09-30T23:59:59.999", "quarter"),
    ),
    (
        "en-iso-dates",
        "orders from 2024-01-01 to 2024-03-15",
        win("2024-01-01T00:00", "2024-03-15T23:59:59.999", "day"),
    ),
    (
        "en-through",
        "March 2024 through June 2024",
        win("2024-03-01T00:00", "2024-06-30T23:59:59.999", "month"),
    ),
)


@pytest.mark.parametrize(("query", "expected"), RANGES)
def test_range(query: str, expected: Any) -> None:
    assert resolve(query) == expected


def test_range_across_new_year_moves_the_end_into_the_next_year() -> None:
    # 11月到2月 on 2025-03-05: this November has not started, so last November .. February.
    expected = win("2024-11-01T00:00", "2025-02-28T23:59:59.999", "month")
    assert resolve("11月到2月", now="2025-03-05T10:00") == expected


def test_range_with_a_year_across_new_year_ends_in_the_next_year() -> None:
    expected = win("2024-11-01T00:00", "2025-02-28T23:59:59.999", "month")
    assert resolve("2024年11月至2月") == expected
    assert resolve("2024年11-2月") == expected


def test_and_without_between_is_a_list() -> None:
    # SPEC §4.1: X and Y is a list, start of the earliest .. end of the latest.
    assert resolve("compare 2023 and 2025") == win(
        "2023-01-01T00:00", "2025-12-31T23:59:59.999", "year"
    )


def test_backwards_range_is_not_a_window() -> None:
    assert resolve("从2025年到2023年") is None


# -- since -----------------------------------------------------------------------------------

SINCE = table(
    ("zh-zi-yilai", "自2024年以来的营收", win("2024-01-01T00:00", NOW, "year")),
    ("zh-zhijin", "2024年3月至今", win("2024-03-01T00:00", NOW, "month")),
    ("zh-jinnian-yilai", "今年以来", win("2025-01-01T00:00", NOW, "year")),
    ("zh-qunian-yilai", "去年以来的销售额", win("2024-01-01T00:00", NOW, "year")),
    ("zh-yilai", "2024年以来", win("2024-01-01T00:00", NOW, "year")),
    ("zh-bare-month", "自3月以来", win("2025-03-01T00:00", NOW, "month")),
    ("zh-quarter", "2025年第二季度至今", win("2025-04-01T00:00", NOW, "quarter")),
    ("zh-date-qi", "自2025年1月1日起", win("2025-01-01T00:00", NOW, "day")),
    ("zh-dao-xianzai", "从2024年到现在", win("2024-01-01T00:00", NOW, "year")),
    ("zh-ago-zhijin", "3个月前至今", win("2025-08-13T09:12:22.241", NOW, "month")),
    ("en-since-year", "revenue since 2024", win("2024-01-01T00:00", NOW, "year")),
    ("en-since-month", "orders since March 2025", win("2025-03-01T00:00", NOW, "month")),
    ("en-since-last-year", "since last year", win("2024-01-01T00:00", NOW, "year")),
    ("en-to-date", "from 2024 to date", win("2024-01-01T00:00", NOW, "year")),
    ("en-to-present", "2024 to present", win("2024-01-01T00:00", NOW, "year")),
    ("en-since-quarter", "profit since Q2 2025", win("2025-04-01T00:00", NOW, "quarter")),
    ("en-since-bare-month", "since January", win("2025-01-01T00:00", NOW, "month")),
    ("zh-nianchu-zhijin", "年初至今的销量", win("2025-01-01T00:00", NOW, "year")),
    ("zh-jinnian-nianchu-yilai", "今年年初以来", win("2025-01-01T00:00", NOW, "year")),
    ("zh-benyuechu-zhijin", "本月初至今", win("2025-11-01T00:00", NOW, "month")),
    ("zh-jichu-yilai", "本季初以来", win("2025-10-01T00:00", NOW, "quarter")),
    ("zh-cong-nianchu-dao-xianzai", "从年初到现在", win("2025-01-01T00:00", NOW, "year")),
    ("en-since-start-of-year", "since the start of the year", win("2025-01-01T00:00", NOW, "year")),
    (
        "en-beginning-of-month-to-date",
        "from the beginning of the month to date",
        win("2025-11-01T00:00", NOW, "month"),
    ),
)


@pytest.mark.parametrize(("query", "expected"), SINCE)
def test_since(query: str, expected: Any) -> None:
    assert resolve(query) == expected


def test_since_a_future_period_is_not_a_window() -> None:
    assert resolve("自2026年以来") is None


# -- bare months and other periods without a year --------------------------------------------

BARE = [
    pytest.param(
        "3月的销量",
        NOW,
        win("2025-03-01T00:00", "2025-03-31T23:59:59.999", "month"),
        id="zh-started-this-year",
    ),
    pytest.param(
        "12月的回款",
        "2025-06-18T15:00",
        win("2024-12-01T00:00", "2024-12-31T23:59:59.999", "month"),
        id="zh-not-started-last-year",
    ),
    pytest.param(
        "3月",
        "2025-03-01T00:00",
        win("2025-03-01T00:00", "2025-03-31T23:59:59.999", "month"),
        id="zh-started-this-very-ms",
    ),
    pytest.param(
        "3月",
        "2025-02-28T23:59:59.999",
        win("2024-03-01T00:00", "2024-03-31T23:59:59.999", "month"),
        id="zh-one-ms-before-it-starts",
    ),
    pytest.param(
        "十二月",
        NOW,
        win("2024-12-01T00:00", "2024-12-31T23:59:59.999", "month"),
        id="zh-chinese-numeral",
    ),
    pytest.param(
        "3月份", NOW, win("2025-03-01T00:00", "2025-03-31T23:59:59.999", "month"), id="zh-yuefen"
    ),
    pytest.param(
        "March", NOW, win("2025-03-01T00:00", "2025-03-31T23:59:59.999", "month"), id="en-march"
    ),
    pytest.param(
        "sales in may",
        NOW,
        win("2025-05-01T00:00", "2025-05-31T23:59:59.999", "month"),
        id="en-in-may",
    ),
    pytest.param(
        "July sign-ups",
        "2025-06-18T15:00",
        win("2024-07-01T00:00", "2024-07-31T23:59:59.999", "month"),
        id="en-not-started",
    ),
    pytest.param("3月15日", NOW, day("2025-03-15"), id="zh-bare-date"),
    pytest.param("March 15", NOW, day("2025-03-15"), id="en-bare-date"),
    # no 29 February in 2025, and never another year's (SPEC §4.3: settle nothing)
    pytest.param("2月29日", "2025-06-01T10:00", None, id="zh-feb-29-common-year-nothing"),
    pytest.param(
        "三季度",
        NOW,
        win("2025-07-01T00:00", "2025-09-30T23:59:59.999", "quarter"),
        id="zh-bare-quarter",
    ),
    pytest.param(
        "Q4",
        "2025-06-18T15:00",
        win("2024-10-01T00:00", "2024-12-31T23:59:59.999", "quarter"),
        id="en-bare-quarter-not-started",
    ),
    pytest.param(
        "第10周", NOW, win("2025-03-03T00:00", "2025-03-09T23:59:59.999", "week"), id="zh-bare-week"
    ),
    pytest.param(
        "上半年",
        NOW,
        win("2025-01-01T00:00", "2025-06-30T23:59:59.999", "month"),
        id="zh-first-half",
    ),
    pytest.param(
        "下半年",
        "2025-03-05T10:00",
        win("2024-07-01T00:00", "2024-12-31T23:59:59.999", "month"),
        id="zh-second-half-not-started",
    ),
]


@pytest.mark.parametrize(("query", "now", "expected"), BARE)
def test_bare_periods_take_this_year_once_started(query: str, now: str, expected: Any) -> None:
    assert resolve(query, now=now) == expected


# -- no time cue -----------------------------------------------------------------------------

NOTHING = table(
    ("zh-no-cue", "药品数量", None),
    ("zh-region", "华东地区的销售额", None),
    ("zh-ranking", "销售额前10名的客户", None),
    ("zh-big-number", "注册资本大于1000000的公司", None),
    ("zh-trend-alone", "药品数量趋势", None),
    ("en-no-cue", "company revenue by region", None),
    ("en-trend-alone", "show the revenue trend by product", None),
    ("en-may-the-verb", "what may happen to revenue", None),
    ("en-id-with-digits", "list approved drugs for company_000001", None),
    ("empty", "", None),
    ("zh-nianchu-alone-is-not-a-window", "年初的销量", None),
    ("zh-yishang-is-not-last", "以上年份的数据", None),
    ("en-top-2000-is-not-a-year", "top 2000 customers", None),
    ("zh-2000-ming-is-not-a-year", "前2000名员工", None),
)


# SPEC §4.2 reads US-style numeric dates, month first (it did not before).
NUMERIC_DATES = table(
    ("us-date-month-first", "12/25/2025", day("2025-12-25")),
    ("us-date-no-13th-month", "25/12/2025", None),
)


@pytest.mark.parametrize(("query", "expected"), NUMERIC_DATES)
def test_numeric_dates_are_month_first(query: str, expected: Any) -> None:
    assert resolve(query) == expected


@pytest.mark.parametrize(("query", "expected"), NOTHING)
def test_no_time_cue(query: str, expected: Any) -> None:
    assert resolve(query) == expected


# -- step words and trend refinement -----------------------------------------------------------

LAST_3M = ("2025-08-13T09:12:22.241", NOW)
STEP_WORDS = table(
    ("zh-an-tian", "最近3个月按天的销量", win(*LAST_3M, "day")),
    ("zh-meiri", "最近3个月每日", win(*LAST_3M, "day")),
    ("zh-meitian", "最近3个月每天的访问量", win(*LAST_3M, "day")),
    ("zh-ri-qushi", "最近3个月的日趋势", win(*LAST_3M, "day")),
    ("zh-an-zhou", "最近3个月按周", win(*LAST_3M, "week")),
    ("zh-meizhou", "最近3个月每周的出库量", win(*LAST_3M, "week")),
    ("zh-zhou-qushi", "最近3个月的周趋势", win(*LAST_3M, "week")),
    ("zh-an-yue", "今年按月", win("2025-01-01T00:00", NOW, "month")),
    ("zh-yuedu", "2024年月度销售额", win("2024-01-01T00:00", "2024-12-31T23:59:59.999", "month")),
    ("zh-yue-qushi", "今年的月趋势", win("2025-01-01T00:00", NOW, "month")),
    ("zh-an-ji", "过去两年按季的利润", win("2023-11-13T09:12:22.241", NOW, "quarter")),
    ("zh-an-jidu", "过去两年按季度", win("2023-11-13T09:12:22.241", NOW, "quarter")),
    (
        "zh-mei-jidu",
        "2025年每季度的回款",
        win("2025-01-01T00:00", "2025-12-31T23:59:59.999", "quarter"),
    ),
    ("zh-an-nian", "近三年按年统计", win("2022-11-13T09:12:22.241", NOW, "year")),
    ("zh-meinian", "近三年每年的专利数", win("2022-11-13T09:12:22.241", NOW, "year")),
    ("zh-niandu", "近三年的年度营收", win("2022-11-13T09:12:22.241", NOW, "year")),
    ("en-daily", "last 3 months daily", win(*LAST_3M, "day")),
    (
        "en-weekly",
        "weekly orders in 2024",
        win("2024-01-01T00:00", "2024-12-31T23:59:59.999", "week"),
    ),
    (
        "en-monthly",
        "monthly revenue for the past year",
        win("2024-11-13T09:12:22.241", NOW, "month"),
    ),
    ("en-quarterly", "quarterly profit since 2023", win("2023-01-01T00:00", NOW, "quarter")),
    (
        "en-yearly",
        "yearly sales from 2021 to 2025",
        win("2021-01-01T00:00", "2025-12-31T23:59:59.999", "year"),
    ),
    (
        "en-annual",
        "annual revenue over the last 5 years",
        win("2020-11-13T09:12:22.241", NOW, "year"),
    ),
    ("en-by-month", "revenue by month this year", win("2025-01-01T00:00", NOW, "month")),
    (
        "step-word-beats-trend",
        "2024年按周的销售趋势",
        win("2024-01-01T00:00", "2024-12-31T23:59:59.999", "week"),
    ),
)


@pytest.mark.parametrize(("query", "expected"), STEP_WORDS)
def test_step_words_override_the_unit(query: str, expected: Any) -> None:
    assert resolve(query) == expected


TREND = table(
    ("zh-this-month-to-day", "本月趋势", win("2025-11-01T00:00", NOW, "day")),
    ("zh-this-year-to-month", "今年的趋势", win("2025-01-01T00:00", NOW, "month")),
    (
        "zh-year-to-month",
        "2024年的销售趋势",
        win("2024-01-01T00:00", "2024-12-31T23:59:59.999", "month"),
    ),
    (
        "zh-quarter-to-month",
        "2024年第一季度的走势",
        win("2024-01-01T00:00", "2024-03-31T23:59:59.999", "month"),
    ),
    (
        "zh-month-to-day",
        "2025年3月的变化",
        win("2025-03-01T00:00", "2025-03-31T23:59:59.999", "day"),
    ),
    (
        "zh-last-week-to-day",
        "上周的客诉走势",
        win("2025-11-03T00:00", "2025-11-09T23:59:59.999", "day"),
    ),
    ("zh-day-stays-day", "昨天的访问量趋势", day("2025-11-12")),
    ("zh-date-stays-day", "2025-06-01的趋势", day("2025-06-01")),
    (
        "zh-week-to-day",
        "2025年第10周趋势",
        win("2025-03-03T00:00", "2025-03-09T23:59:59.999", "day"),
    ),
    (
        "zh-bare-month-to-day",
        "3月的销售趋势",
        win("2025-03-01T00:00", "2025-03-31T23:59:59.999", "day"),
    ),
    ("zh-rolling-keeps-unit", "最近3个月的趋势", win(*LAST_3M, "month")),
    ("zh-range-keeps-unit", "2024年1月至3月的销售趋势", JAN_MAR_2024),
    ("zh-since-keeps-unit", "2024年以来的营收趋势", win("2024-01-01T00:00", NOW, "year")),
    (
        "en-year-to-month",
        "sales trend in 2024",
        win("2024-01-01T00:00", "2024-12-31T23:59:59.999", "month"),
    ),
    (
        "en-last-month-to-day",
        "revenue trend for last month",
        win("2025-10-01T00:00", "2025-10-31T23:59:59.999", "day"),
    ),
    ("en-rolling-keeps-unit", "revenue trend over the last 3 months", win(*LAST_3M, "month")),
)


@pytest.mark.parametrize(("query", "expected"), TREND)
def test_trend_refines_a_single_period(query: str, expected: Any) -> None:
    assert resolve(query) == expected


def test_step_word_alone_settles_only_the_step() -> None:
    result = resolve_time("按月统计药品数量", now_ms=at(NOW), tz=SH)
    assert result == TimeResolution(False, None, None, "month", None, "按月")


# -- DST: America/New_York, 2025-03-09 (02:00 -> 03:00) and 2025-11-02 (02:00 -> 01:00) ---------

DST = [
    pytest.param(
        "最近1天",
        "2025-03-09T12:00",
        win("2025-03-08T12:00", "2025-03-09T12:00", "day", NY),
        id="day-of-23-hours",
    ),
    pytest.param(
        "last 1 day",
        "2025-03-10T02:30",
        win("2025-03-09T03:30-04:00", "2025-03-10T02:30", "day", NY),
        id="start-in-the-gap-reads-fold-0",
    ),
    pytest.param(
        "昨天",
        "2025-03-10T09:00",
        win("2025-03-09T00:00-05:00", "2025-03-09T23:59:59.999-04:00", "day", NY),
        id="yesterday-23-hours",
    ),
    pytest.param(
        "2025年3月9日",
        "2025-03-20T09:00",
        win("2025-03-09T00:00-05:00", "2025-03-09T23:59:59.999-04:00", "day", NY),
        id="spring-forward-date",
    ),
    pytest.param(
        "last week",
        "2025-03-12T10:00",
        win("2025-03-03T00:00-05:00", "2025-03-09T23:59:59.999-04:00", "week", NY),
        id="week-across-spring-forward",
    ),
    pytest.param(
        "3个月前",
        "2025-06-09T02:30",
        win("2025-03-09T03:30-04:00", "2025-03-09T03:30-04:00", "month", NY),
        id="ago-into-the-gap",
    ),
    pytest.param(
        "最近1天",
        "2025-11-02T12:00",
        win("2025-11-01T12:00-04:00", "2025-11-02T12:00-05:00", "day", NY),
        id="day-of-25-hours",
    ),
    pytest.param(
        "last 1 day",
        "2025-11-03T01:30",
        win("2025-11-02T01:30-04:00", "2025-11-03T01:30-05:00", "day", NY),
        id="start-in-the-repeat-reads-fold-0",
    ),
    pytest.param(
        "2025-11-02",
        "2025-11-10T09:00",
        win("2025-11-02T00:00-04:00", "2025-11-02T23:59:59.999-05:00", "day", NY),
        id="fall-back-date",
    ),
    pytest.param(
        "本月",
        "2025-11-05T09:00",
        win("2025-11-01T00:00-04:00", "2025-11-05T09:00-05:00", "month", NY),
        id="this-month-across-fall-back",
    ),
    pytest.param(
        "上个月",
        "2025-03-15T09:00",
        win("2025-02-01T00:00-05:00", "2025-02-28T23:59:59.999-05:00", "month", NY),
        id="last-month-before-the-change",
    ),
]


@pytest.mark.parametrize(("query", "now", "expected"), DST)
def test_dst_america_new_york(query: str, now: str, expected: Any) -> None:
    assert resolve(query, now=now, tz=NY) == expected


def test_dst_day_lengths() -> None:
    spring = resolve("2025年3月9日", now="2025-03-20T09:00", tz=NY)
    fall = resolve("2025年11月2日", now="2025-11-10T09:00", tz=NY)
    assert spring["end"] + 1 - spring["start"] == 23 * 3600 * 1000
    assert fall["end"] + 1 - fall["start"] == 25 * 3600 * 1000


# -- month ends, leap years, year boundaries, ISO weeks ---------------------------------------

CALENDAR = [
    pytest.param(
        "最近1个月",
        "2025-03-31T14:25:36.789",
        win("2025-02-28T14:25:36.789", "2025-03-31T14:25:36.789", "month"),
        id="month-end-clamps-to-feb-28",
    ),
    pytest.param(
        "最近1个月",
        "2024-03-31T14:25:36.789",
        win("2024-02-29T14:25:36.789", "2024-03-31T14:25:36.789", "month"),
        id="leap-month-end-clamps-to-feb-29",
    ),
    pytest.param(
        "6个月前", "2025-08-31T10:00", point("2025-02-28T10:00", "month"), id="ago-clamps"
    ),
    pytest.param(
        "最近一个季度",
        "2025-05-31T10:00",
        win("2025-02-28T10:00", "2025-05-31T10:00", "quarter"),
        id="quarter-clamps",
    ),
    pytest.param(
        "1年前", "2024-02-29T10:00", point("2023-02-28T10:00", "year"), id="feb-29-minus-a-year"
    ),
    pytest.param(
        "4年前", "2024-02-29T10:00", point("2020-02-29T10:00", "year"), id="feb-29-minus-four-years"
    ),
    pytest.param(
        "上个月",
        "2024-03-05T09:00",
        win("2024-02-01T00:00", "2024-02-29T23:59:59.999", "month"),
        id="last-month-is-leap-february",
    ),
    pytest.param(
        "2024年2月",
        "2024-05-01T09:00",
        win("2024-02-01T00:00", "2024-02-29T23:59:59.999", "month"),
        id="leap-february",
    ),
    pytest.param(
        "2023年2月",
        "2024-05-01T09:00",
        win("2023-02-01T00:00", "2023-02-28T23:59:59.999", "month"),
        id="common-february",
    ),
    pytest.param(
        "上个月",
        "2025-01-15T10:00",
        win("2024-12-01T00:00", "2024-12-31T23:59:59.999", "month"),
        id="last-month-across-new-year",
    ),
    pytest.param(
        "上季度",
        "2025-02-10T09:00",
        win("2024-10-01T00:00", "2024-12-31T23:59:59.999", "quarter"),
        id="last-quarter-across-new-year",
    ),
    pytest.param(
        "上周",
        "2025-01-08T09:00",
        win("2024-12-30T00:00", "2025-01-05T23:59:59.999", "week"),
        id="iso-week-across-new-year",
    ),
    pytest.param(
        "本周",
        "2025-01-01T10:00",
        win("2024-12-30T00:00", "2025-01-01T10:00", "week"),
        id="this-week-starts-last-year",
    ),
    pytest.param(
        "本周",
        "2023-01-01T10:00",
        win("2022-12-26T00:00", "2023-01-01T10:00", "week"),
        id="sunday-belongs-to-the-week-before",
    ),
    pytest.param(
        "去年",
        "2025-01-01T00:00",
        win("2024-01-01T00:00", "2024-12-31T23:59:59.999", "year"),
        id="last-year-at-midnight",
    ),
    pytest.param(
        "本月",
        "2025-01-01T00:00",
        win("2025-01-01T00:00", "2025-01-01T00:00", "month"),
        id="this-month-at-its-first-ms",
    ),
    pytest.param(
        "第1周",
        "2025-01-01T10:00",
        win("2024-12-30T00:00", "2025-01-05T23:59:59.999", "week"),
        id="iso-week-1-starts-in-december",
    ),
]


@pytest.mark.parametrize(("query", "now", "expected"), CALENDAR)
def test_calendar_edges(query: str, now: str, expected: Any) -> None:
    assert resolve(query, now=now) == expected


def test_week_53_of_a_52_week_year_is_not_a_window() -> None:
    assert resolve("2021-W53") is None


def test_invalid_dates_are_not_windows() -> None:
    assert resolve("2025年2月30日") is None
    assert resolve("2025-13") is None


# -- overrides (additional_context / caller values) --------------------------------------------

OVERRIDES = [
    pytest.param(
        "最近3个月的趋势", {"step": "day"}, win(*LAST_3M, "day"), id="step-replaces-the-window-step"
    ),
    pytest.param(
        "2024年第一季度的销售趋势",
        {"step": "week"},
        win("2024-01-01T00:00", "2024-03-31T23:59:59.999", "week"),
        id="step-beats-trend",
    ),
    pytest.param(
        "最近7天按天的销量",
        {"step": "week"},
        win("2025-11-06T09:12:22.241", NOW, "week"),
        id="step-beats-step-word",
    ),
    pytest.param("上个月的订单量", {"instant": True}, INSTANT, id="instant-true-drops-the-window"),
    pytest.param("现在的库存", {"instant": True}, INSTANT, id="instant-true-agrees"),
    pytest.param(
        "药品数量", {"instant": True, "step": "day"}, INSTANT, id="instant-true-carries-no-step"
    ),
    pytest.param(
        "药品数量",
        {"instant": False},
        {"instant": False},
        id="instant-false-no-window-leaves-it-open",
    ),
    pytest.param(
        "当前药品数量",
        {"instant": False},
        {"instant": False},
        id="instant-false-beats-instant-word",
    ),
    pytest.param(
        "药品数量",
        {"instant": False, "step": "day"},
        {"instant": False, "step": "day"},
        id="instant-false-and-step",
    ),
    pytest.param(
        "最近7天的销量",
        {"instant": False},
        win("2025-11-06T09:12:22.241", NOW, "day"),
        id="instant-false-keeps-the-window",
    ),
    pytest.param(
        "当前药品数量",
        {"step": "month"},
        {"instant": False, "step": "month"},
        id="step-beats-instant-word",
    ),
    pytest.param("药品数量", {"step": "week"}, {"instant": False, "step": "week"}, id="step-alone"),
    pytest.param(
        "按月的药品数量",
        {"instant": False},
        {"instant": False, "step": "month"},
        id="instant-false-keeps-a-step-word",
    ),
]


@pytest.mark.parametrize(("query", "overrides", "expected"), OVERRIDES)
def test_overrides_beat_the_query(query: str, overrides: dict[str, Any], expected: Any) -> None:
    assert resolve(query, **overrides) == expected


# -- the result object -------------------------------------------------------------------------


def test_resolution_names_the_canonical_expression_and_the_matched_text() -> None:
    result = resolve_time("从2024年1月到3月的药品数量", now_ms=at(NOW), tz=SH)
    assert result is not None
    assert (result.expr, result.matched) == ("2024-01..2024-03", "从2024年1月到3月")


@pytest.mark.parametrize(
    ("query", "expr"),
    [
        pytest.param("当前", "now", id="instant"),
        pytest.param("最近3个月", "now-3M..now", id="last-n"),
        pytest.param("3个月前", "now-3M", id="ago"),
        pytest.param("上个月", "now-1M/M", id="previous"),
        pytest.param("前年", "now-2y/y", id="year-before-last"),
        pytest.param("本月", "now/M..now", id="this"),
        pytest.param("2024年", "2024", id="year"),
        pytest.param("2024年3月", "2024-03", id="month"),
        pytest.param("2024年第一季度", "2024-Q1", id="quarter"),
        pytest.param("2025-12-25", "2025-12-25", id="date"),
        pytest.param("2025-W10", "2025-W10", id="week"),
        pytest.param("2024年3月至今", "2024-03..now", id="since"),
        pytest.param("近半个月", "now-15d..now", id="half-month"),
    ],
)
def test_canonical_expressions(query: str, expr: str) -> None:
    result = resolve_time(query, now_ms=at(NOW), tz=SH)
    assert result is not None
    assert result.expr == expr


def test_params_lists_only_settled_keys_in_order() -> None:
    full = TimeResolution(False, 1, 2, "day", "x", "y").params()
    assert list(full) == ["instant", "start", "end", "step"]
    assert TimeResolution(None, None, None, "week", None, None).params() == {"step": "week"}


def test_matched_text_is_the_query_as_written() -> None:
    result = resolve_time("近１２个月", now_ms=at(NOW), tz=SH)
    assert result is not None
    assert result.matched == "近１２个月"


# -- to_epoch_ms -------------------------------------------------------------------------------

ACCEPT = [
    pytest.param(1700000000000, "start", 1700000000000, id="int-ms"),
    pytest.param(946684800000, "end", 946684800000, id="int-ms-lowest"),
    pytest.param(4102444800000, "start", 4102444800000, id="int-ms-highest"),
    pytest.param("2024-03-01", "start", at("2024-03-01T00:00"), id="date-start"),
    pytest.param("2024-03-01", "end", at("2024-03-01T23:59:59.999"), id="date-end"),
    pytest.param("2024-02", "end", at("2024-02-29T23:59:59.999"), id="month-end-leap"),
    pytest.param("2024-03", "start", at("2024-03-01T00:00"), id="month-start"),
    pytest.param("2024", "start", at("2024-01-01T00:00"), id="year-start"),
    pytest.param("2024", "end", at("2024-12-31T23:59:59.999"), id="year-end"),
    pytest.param(
        "2024-03-01T10:00:00", "start", at("2024-03-01T10:00"), id="naive-datetime-is-local"
    ),
    pytest.param(
        "2024-03-01T10:00:00+08:00", "end", at("2024-03-01T02:00Z"), id="datetime-with-offset"
    ),
    pytest.param("2024-03-01T10:00:00Z", "start", at("2024-03-01T10:00Z"), id="datetime-z"),
    pytest.param(
        "2024-03-01T10:00:00.123Z", "start", at("2024-03-01T10:00:00.123Z"), id="datetime-ms"
    ),
    pytest.param("2024-03-01 10:00", "start", at("2024-03-01T10:00"), id="datetime-space"),
    pytest.param(" 2024-03-01 ", "start", at("2024-03-01T00:00"), id="surrounding-space"),
    pytest.param("now", "end", at(NOW), id="now"),
    pytest.param("now-3M", "start", at("2025-08-13T09:12:22.241"), id="now-minus-months"),
    pytest.param("now-7d", "start", at("2025-11-06T09:12:22.241"), id="now-minus-days"),
    pytest.param("now+1d", "end", at("2025-11-14T09:12:22.241"), id="now-plus-a-day"),
    pytest.param("now-1y", "start", at("2024-11-13T09:12:22.241"), id="now-minus-a-year"),
    pytest.param("now-2w", "start", at("2025-10-30T09:12:22.241"), id="now-minus-weeks"),
    pytest.param("now-1Q", "start", at("2025-08-13T09:12:22.241"), id="now-minus-a-quarter"),
    pytest.param("now-1M/M", "start", at("2025-10-01T00:00"), id="last-month-start"),
    pytest.param("now-1M/M", "end", at("2025-10-31T23:59:59.999"), id="last-month-end"),
    pytest.param("now/d", "start", at("2025-11-13T00:00"), id="today-start"),
    pytest.param("now/w", "start", at("2025-11-10T00:00"), id="this-week-start"),
    pytest.param("now/y", "end", at("2025-12-31T23:59:59.999"), id="this-year-end"),
    pytest.param("now-1Q/Q", "end", at("2025-09-30T23:59:59.999"), id="last-quarter-end"),
]


@pytest.mark.parametrize(("value", "edge", "expected"), ACCEPT)
def test_to_epoch_ms_accepts(value: object, edge: Any, expected: int) -> None:
    assert to_epoch_ms(value, edge=edge, now_ms=at(NOW), tz=SH) == expected


def test_to_epoch_ms_reads_naive_datetimes_in_the_request_timezone_with_fold_0() -> None:
    kwargs: dict[str, Any] = {"edge": "start", "now_ms": at(NOW), "tz": NY}
    assert to_epoch_ms("2025-03-09T02:30:00", **kwargs) == at("2025-03-09T03:30-04:00")
    assert to_epoch_ms("2025-11-02T01:30:00", **kwargs) == at("2025-11-02T01:30-04:00")
    assert to_epoch_ms("2025-11-02", edge="end", now_ms=at(NOW), tz=NY) == at(
        "2025-11-02T23:59:59.999-05:00"
    )


REJECT = [
    pytest.param(True, "not an int", id="bool-true"),
    pytest.param(False, "not an int", id="bool-false"),
    pytest.param(1.5e12, "float", id="float"),
    pytest.param(None, "none", id="none"),
    pytest.param([2024], "list", id="list"),
    pytest.param("1700000000000", "numeric string", id="numeric-string"),
    pytest.param("", "empty", id="empty"),
    pytest.param("yesterday", "words", id="words"),
    pytest.param("2024-13-01", "month 13", id="month-13"),
    pytest.param("2024-02-30", "february 30", id="feb-30"),
    pytest.param("2024-03-01T25:00:00", "hour 25", id="hour-25"),
    pytest.param(946684799999, "before 2000", id="int-too-small"),
    pytest.param(4102444800001, "after 2100", id="int-too-large"),
    pytest.param(1700000000, "seconds, not ms", id="int-seconds"),
    pytest.param("now-3m", "minutes are not a unit", id="lower-m"),
    pytest.param("now-3h", "hours are not a unit", id="hours"),
    pytest.param("now - 3M", "spaces inside", id="spaces-inside"),
    pytest.param("2024-Q1", "quarters are not accepted", id="quarter"),
    pytest.param("2024/03/01", "slashes", id="slashes"),
]


@pytest.mark.parametrize(("value", "why"), REJECT)
def test_to_epoch_ms_rejects(value: object, why: str) -> None:
    with pytest.raises(ValueError, match=r".+"):
        to_epoch_ms(value, edge="start", now_ms=at(NOW), tz=SH)
