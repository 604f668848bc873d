"""SPEC §4.3, as a table: the families issue 28 found answering a wrong 200 (or refusing an
ordinary sentence) — each reads exactly, or settles nothing; never a neighbour's reading.

The clock is 2025-11-13 09:12:22.241 in Asia/Shanghai (a Thursday)."""

from __future__ import annotations

import pytest

from resolver.timeexpr import read_window
from tests.timeexpr_checks import (
    LAST_MONTH,
    NOTHING,
    NOW,
    NOW_MS,
    ZONE,
    Expected,
    day,
    window,
)

YESTERDAY = day("2025-11-12")

# -- wrong 200s that remained (issue 28): each reads exactly or settles nothing ---------------
WRONG_200S: list[tuple[str, Expected]] = [
    ("2022 11 23", day("2022-11-23")),
    ("2014 12 28", day("2014-12-28")),
    ("August-10-2012", day("2012-08-10")),
    ("五日内", NOTHING),  # no direction word: which five days?
    ("5日之内", NOTHING),
    ("7天内", NOTHING),
    ("最后一周", NOTHING),  # the last week of what?
    ("最后3天", NOTHING),
    ("half an hour from now", NOTHING),  # a point inside a day
    ("2 hours ago", NOTHING),
    ("3小时后", NOTHING),
    ("2025-W53 orders", NOTHING),  # 2025 has 52 ISO weeks
    ("June 10 - 31, 2022", NOTHING),  # no June 31st, never July 31st
    ("Feb 20 - 29 2022", NOTHING),
    ("Aug 9, 96", NOTHING),  # 1996: before 2000
    ("91年5月", NOTHING),
    ("q1-2019", ("2019-01-01T00:00:00.000", "2019-03-31T23:59:59.999", "quarter")),
    ("2022年首季度", ("2022-01-01T00:00:00.000", "2022-03-31T23:59:59.999", "quarter")),
    ("二零二二年伊始", NOTHING),
    ("昨天黎明", NOTHING),
    ("saint patrick 2020", day("2020-03-17")),
    ("earth day 2010", NOTHING),
    ("from april the ninth till the seventeenth", day("2025-04-09", "2025-04-17")),  # never dropped
    ("between 3 and 5 on 1/1/2015", NOTHING),  # bare hours: ambiguous
    ("二零一六年，九月三号", day("2016-09-03")),
    ("today so far", ("2025-11-13T00:00:00.000", NOW, "day")),
    ("Sun 15 Sep 2026", NOTHING),  # 2026-09-15 is a Tuesday
    ("2012 80 10", NOTHING),
]
# -- numbers, negation, zones -------------------------------------------------------------------
ATTACKS: list[tuple[str, Expected]] = [
    ("1,500 days ago", ("2021-10-05T09:12:22.241", "2021-10-05T09:12:22.241", "day")),
    ("1 500 days ago", NOTHING),
    ("1_500 days ago", NOTHING),
    ("1e3 days ago", NOTHING),
    ("10^400 days ago", NOTHING),
    ("0x10 days ago", NOTHING),
    ("除了上个月", NOTHING),
    ("excluding last month", NOTHING),
    ("不是上个月", NOTHING),
    ("除了周末", NOTHING),
    ("last month except holidays", NOTHING),
    ("last 7 days excluding today", day("2025-11-06", "2025-11-12")),
    ("不包括今天的最近7天", day("2025-11-06", "2025-11-12")),
    ("最近7天（不含今天）", day("2025-11-06", "2025-11-12")),
    ("last 3 months excluding today", NOTHING),  # only whole days end at yesterday
    ("大大前天", day("2025-11-09")),
    # a zone written in the text governs its expression (the request's zone is Shanghai)
    ("昨天（北京时间）", YESTERDAY),
    ("yesterday (New York time)", ("2025-11-11T13:00:00.000", "2025-11-12T12:59:59.999", "day")),
    ("yesterday EST", ("2025-11-11T13:00:00.000", "2025-11-12T12:59:59.999", "day")),
    ("昨天（火星时间）", NOTHING),  # no zone anyone can place
    ("yesterday EST and PST", NOTHING),  # two zones: which one?
    ("上个月的上个月", NOTHING),  # a composition no table declares
]
# -- the families SPEC §4.3 reads as one expression, and common BI phrases -----------------
FAMILIES: list[tuple[str, Expected]] = [
    ("yesterday 2:00 to 2:30 pm", ("2025-11-12T14:00:00.000", "2025-11-12T14:29:59.999", "day")),
    ("yesterday 11 to 1pm", ("2025-11-12T11:00:00.000", "2025-11-12T12:59:59.999", "day")),
    ("yesterday 9 to 11pm", ("2025-11-12T21:00:00.000", "2025-11-12T22:59:59.999", "day")),
    ("昨天下午3点15分到5点", ("2025-11-12T15:15:00.000", "2025-11-12T16:59:59.999", "day")),
    ("昨天下午3点15到5点", ("2025-11-12T15:15:00.000", "2025-11-12T16:59:59.999", "day")),
    ("上周末", day("2025-11-08", "2025-11-09")),
    ("本周末", day("2025-11-15", "2025-11-16")),
    ("下周末", day("2025-11-22", "2025-11-23")),
    ("last weekend", day("2025-11-08", "2025-11-09")),
    ("上周末的销量。", day("2025-11-08", "2025-11-09")),
    ("上个自然月", LAST_MONTH),
    ("last calendar month", LAST_MONTH),
    ("last full week", ("2025-11-03T00:00:00.000", "2025-11-09T23:59:59.999", "week")),
    ("今年以来截至昨天", day("2025-01-01", "2025-11-12")),
    ("首季度", ("2025-01-01T00:00:00.000", "2025-03-31T23:59:59.999", "quarter")),
    ("two days before yesterday", day("2025-11-10")),
    ("in the year of 2008", ("2008-01-01T00:00:00.000", "2008-12-31T23:59:59.999", "year")),
    ("10 - 22 August 2012", day("2012-08-10", "2012-08-22")),
    ("w/c Feb 4", ("2025-02-03T00:00:00.000", "2025-02-09T23:59:59.999", "week")),
    # the last N units of a named period (SPEC §4.3); alone, 最后N天 settles nothing (above)
    ("今年最后一个月", ("2025-12-01T00:00:00.000", "2025-12-31T23:59:59.999", "month")),
    ("上个月最后3天", day("2025-10-29", "2025-10-31")),
    ("last 3 days of March 2024", day("2024-03-29", "2024-03-31")),
    ("the last week of July", ("2025-07-28T00:00:00.000", "2025-08-03T23:59:59.999", "week")),
    ("3月最后一周", ("2025-03-31T00:00:00.000", "2025-04-06T23:59:59.999", "week")),
    ("from 5 to 6pm of April 22", ("2025-04-22T17:00:00.000", "2025-04-22T17:59:59.999", "day")),
]
# -- official public holidays (SPEC §4.1 revised): the State Council's run of days off ---------
HOLIDAYS: list[tuple[str, Expected]] = [
    ("2024年春节假期", day("2024-02-10", "2024-02-17")),
    ("2025年国庆假期", day("2025-10-01", "2025-10-08")),
    ("2023年国庆黄金周", day("2023-09-29", "2023-10-06")),
    ("2024年端午假期", day("2024-06-08", "2024-06-10")),  # joined to the weekend
    ("2025年五一假期", day("2025-05-01", "2025-05-05")),
    ("请问国庆期间的销量？", day("2025-10-01", "2025-10-08")),
    ("帮我查一下国庆期间的销量", day("2025-10-01", "2025-10-08")),
    ("2027年国庆假期", day("2027-10-01", "2027-10-07")),  # unknown year: the fixed rule
    ("美国国庆", NOTHING),  # another country's National Day
]
# -- ordinary sentences: punctuation and plain words never block -------------------------------
SENTENCES: list[tuple[str, Expected]] = [
    ("Show sales for last month.", LAST_MONTH),
    ("Show sales for last month!", LAST_MONTH),
    ("Last month, please.", LAST_MONTH),
    ("Please show orders yesterday.", YESTERDAY),
    ("上个月。", LAST_MONTH),
    ('"上个月"', LAST_MONTH),
    ("（上个月）", LAST_MONTH),
    ("请问昨天一共卖了多少单？", YESTERDAY),
    ("昨天一共卖了多少单", YESTERDAY),
    ("2025年一共有多少订单", ("2025-01-01T00:00:00.000", "2025-12-31T23:59:59.999", "year")),
    ("看一下上个月", LAST_MONTH),
    ("一起看看上个月", LAST_MONTH),
    ("统一口径的上个月", LAST_MONTH),
    ("万一上个月", LAST_MONTH),
    ("一般上个月", LAST_MONTH),
    ("星期天超市上个月的销量", LAST_MONTH),
    ("明日方舟上个月", LAST_MONTH),
    ("今日頭條昨天", YESTERDAY),
    ('"Q3 2024", thanks', ("2024-07-01T00:00:00.000", "2024-09-30T23:59:59.999", "quarter")),
    ("Aug. 2", day("2025-08-02")),
    ("2024.3.15", day("2024-03-15")),
    ("10/August/2012", day("2012-08-10")),
    ("2019-aug-01", day("2019-08-01")),
]


@pytest.mark.parametrize(
    ("text", "expected"), WRONG_200S + ATTACKS + FAMILIES + HOLIDAYS + SENTENCES
)
def test_reads_exactly_or_settles_nothing(text: str, expected: Expected) -> None:
    assert window(text) == expected


@pytest.mark.parametrize(
    "text", [t for t, e in WRONG_200S + ATTACKS + FAMILIES + HOLIDAYS + SENTENCES if e is None]
)
def test_what_settles_nothing_names_only_time_words(text: str) -> None:
    """The ask names time-like words, never punctuation or a plain word."""
    unread = read_window(text, now_ms=NOW_MS, timezone=ZONE).unread
    assert unread, text
    for words in unread:
        assert words.strip(" .,;:!?。，；：！？、\"'“”（）()") == words.strip(), words


def test_a_year_the_official_calendar_does_not_know_is_read_by_the_fixed_rule_and_said() -> None:
    known = read_window("2025年国庆假期", now_ms=NOW_MS, timezone=ZONE)
    assert known.warnings == ()
    guessed = read_window("2027年国庆假期", now_ms=NOW_MS, timezone=ZONE)
    assert guessed.warnings == ("2027年的官方放假安排未知，按固定规则计算",)
    assert guessed.warnings[0] in guessed.explanation


def test_a_long_context_without_time_words_does_not_block_the_query() -> None:
    prose = "这是一段很长的说明文字，没有任何时间。" * 300  # 5,700 characters
    quiet = read_window("上个月的销量", now_ms=NOW_MS, timezone=ZONE, context=prose)
    assert (quiet.start_iso or "")[:10] == "2025-10-01"
    timed = read_window("上个月的销量", now_ms=NOW_MS, timezone=ZONE, context=prose + "昨天")
    assert timed.unread == ("昨天",)  # named as written: no internal marker in the ask
    assert "(" not in (timed.ask or "")


def test_posixrules_is_no_zone_in_a_context_or_on_the_timewindow() -> None:
    from resolver.timeexpr import UnknownZone, zone_of

    assert zone_of("posixrules") is None
    assert zone_of("Asia/Shanghai") == "Asia/Shanghai"
    with pytest.raises(UnknownZone):
        read_window("昨天", now_ms=NOW_MS, timezone="posixrules")
    in_context = read_window("昨天", now_ms=NOW_MS, context="时区：posixrules")
    assert not in_context.settled
    assert in_context.unread == ("posixrules",)


@pytest.mark.parametrize(
    ("context", "zone", "yesterday"),
    [
        ("今天是2025年3月31日星期一", "Asia/Shanghai", "2025-03-30"),
        ("今天是2025年3月31日，星期一", "Asia/Shanghai", "2025-03-30"),
        ("today is Monday, March 31, 2025", "Asia/Shanghai", "2025-03-30"),
        ("用户在纽约", "America/New_York", None),
        ("the user is in New York", "America/New_York", None),
        ("我在东京", "Asia/Tokyo", None),
        ("timezone is UTC+05:30", "Asia/Kolkata", None),
        ("时区：GMT+5:45", "Asia/Kathmandu", None),
    ],
)
def test_clock_and_zone_sentences_as_people_write_them(
    context: str, zone: str, yesterday: str | None
) -> None:
    """A weekday beside the date is part of the sentence; a place without the word zone and an
    offset with minutes are zones; the sentence never becomes the window (SPEC §4.3)."""
    answer = read_window("昨天", context=context)
    assert answer.settled
    assert answer.timezone == zone
    assert answer.read == ("昨天",)
    if yesterday is not None:
        assert (answer.start_iso or "")[:10] == yesterday


@pytest.mark.parametrize(
    "context", ["今天是2025年3月31日星期二", "today is Tuesday, March 31, 2025"]
)
def test_a_weekday_that_disagrees_with_the_stated_date_settles_nothing(context: str) -> None:
    assert not read_window("昨天", context=context).settled
