"""Chinese families of issue 28 (zh28), each with neighbours written here: the form itself,
other numbers and separators, with and without a year, in a sentence — and the neighbours
that must still settle nothing (ambiguous or half-read forms).

The clock is 2025-11-13 09:12:22.241 in Asia/Shanghai (a Thursday)."""

from __future__ import annotations

import pytest

from resolver.timeexpr import read_window
from tests.timeexpr_checks import (
    NOTHING,
    NOW,
    NOW_MS,
    ZONE,
    Expected,
    day,
    window,
)


def month(first: str, last: str, days: int) -> Expected:
    return (f"{first}-01T00:00:00.000", f"{last}-{days:02d}T23:59:59.999", "month")


THIS_YEAR = ("2025-01-01T00:00:00.000", NOW, "year")
YEAR_2018 = ("2018-01-01T00:00:00.000", "2018-12-31T23:59:59.999", "year")

# -- an age is no time: 18周岁, 十八岁 (the number is the age's, not 今年's) ----------------------
AGES: list[tuple[str, Expected]] = [
    ("我今年18周岁了", THIS_YEAR),
    ("今年十八岁的用户", THIS_YEAR),
    ("今年满18岁的会员数", THIS_YEAR),
    ("今年3虚岁的孩子", THIS_YEAR),
    ("3岁以下儿童最近3天的订单", ("2025-11-10T09:12:22.241", NOW, "day")),
    ("18周的订单", NOTHING),  # 18 weeks: a count of weeks, placed nowhere
    ("今年18周", NOTHING),  # 18 weeks of this year? week 18? not said
]
# -- 月份, 年份 are nouns ("the month", "the year") unless a number is glued to them ----------
UNIT_NOUNS: list[tuple[str, Expected]] = [
    ("2018年12月的月份不是0", month("2018-12", "2018-12", 31)),
    ("2018年10月的月份是10", month("2018-10", "2018-10", 31)),
    ("2018年十二月的月份不是0", month("2018-12", "2018-12", 31)),
    ("2018 看起来是一个年份", YEAR_2018),
    ("2018年是一个年份", YEAR_2018),
    ("3月份的销量", month("2025-03", "2025-03", 31)),
    ("十二月份", month("2024-12", "2024-12", 31)),
    ("2024年份的数据", ("2024-01-01T00:00:00.000", "2024-12-31T23:59:59.999", "year")),
    ("上个月份的订单", month("2025-10", "2025-10", 31)),
    ("哪个月份的销量最高", NOTHING),  # no period named at all
    ("一个年份", NOTHING),
    ("2018年12月的月份", month("2018-12", "2018-12", 31)),
    ("最近几个月份", NOTHING),  # 几: a count nobody can compute
]
# -- an equals sign is plain; a comparison (>=, <=, !=, ≠) is not ------------------------------
EQUALS: list[tuple[str, Expected]] = [
    ("= 2019", ("2019-01-01T00:00:00.000", "2019-12-31T23:59:59.999", "year")),
    ("年份 = 2019年", ("2019-01-01T00:00:00.000", "2019-12-31T23:59:59.999", "year")),
    ("订单 == 2019年", NOTHING),  # == is a programmer's comparison here too (en: `== 2019`)
    (">= 2019", NOTHING),
    ("> = 2019", NOTHING),
    ("<= 2019年", NOTHING),
    ("!= 2019", NOTHING),
    ("≠ 2019年", NOTHING),
    ("=< 2019", NOTHING),
    ("2019 =>", NOTHING),
]

# -- the last N units of a named period (SPEC §4.3): weeks Monday to Sunday, the last week the
# one holding the period's last day; any bigger named period, quarters included -------------
LAST_IN: list[tuple[str, Expected]] = [
    ("本月最后一周的排班", ("2025-11-24T00:00:00.000", "2025-11-30T23:59:59.999", "week")),
    ("这个月的最后一周", ("2025-11-24T00:00:00.000", "2025-11-30T23:59:59.999", "week")),
    ("上个月最后一周", ("2025-10-27T00:00:00.000", "2025-11-02T23:59:59.999", "week")),
    ("上季度最后一周", ("2025-09-29T00:00:00.000", "2025-10-05T23:59:59.999", "week")),
    ("2024年Q4最后一周", ("2024-12-30T00:00:00.000", "2025-01-05T23:59:59.999", "week")),
    ("今年最后一周", ("2025-12-29T00:00:00.000", "2026-01-04T23:59:59.999", "week")),
    ("上季度最后一个月的销量", month("2025-09", "2025-09", 30)),
    ("下季度最后一个月", month("2026-03", "2026-03", 31)),
    ("2024年第一季度最后一个月", month("2024-03", "2024-03", 31)),
    ("2024年第一季度的最后两个月", month("2024-02", "2024-03", 31)),
    ("去年最后一个季度", ("2024-10-01T00:00:00.000", "2024-12-31T23:59:59.999", "quarter")),
    ("本季度最后10天", day("2025-12-22", "2025-12-31")),
    ("上周最后两天", day("2025-11-08", "2025-11-09")),
    ("最后一周", NOTHING),  # of what?
    ("最后一个月", NOTHING),
    ("上周最后一个月", NOTHING),  # no month inside a week
    ("上季度最后四个月", NOTHING),  # a quarter has three
    ("上周最后8天", NOTHING),
    ("本月最后两周", ("2025-11-17T00:00:00.000", "2025-11-30T23:59:59.999", "week")),
    ("今年的最後 3 週", ("2025-12-15T00:00:00.000", "2026-01-04T23:59:59.999", "week")),
    ("上个月最后5周", ("2025-09-29T00:00:00.000", "2025-11-02T23:59:59.999", "week")),
    ("上个月最后6周", NOTHING),  # October touches five weeks
    ("最后3周", NOTHING),
    ("上周最后2周", NOTHING),
]
# -- a zone written between the day and its hours governs the range (SPEC §4.3) --------------
ZONED_HOURS: list[tuple[str, str, str]] = [
    # at 2025-11-13T19:00Z (Beijing: the 14th, 03:00), the request in UTC
    ("昨天北京时间下午3点到5点的订单", "2025-11-13T07:00:00.000", "2025-11-13T08:59:59.999"),
    ("昨天（北京时间）下午3点到5点", "2025-11-13T07:00:00.000", "2025-11-13T08:59:59.999"),
    ("北京时间昨天下午3点到5点", "2025-11-13T07:00:00.000", "2025-11-13T08:59:59.999"),
    ("昨天东京时间下午3点到5点", "2025-11-13T06:00:00.000", "2025-11-13T07:59:59.999"),
]
ZONED_NOTHING = [
    "昨天北京时间东京时间下午3点到5点",  # two zones
    "昨天火星时间下午3点到5点",  # no such zone
    "昨天北京时间下午3到5",  # bare hours
]
UTC_NOW_MS = 1763060400000  # 2025-11-13T19:00:00Z

# -- the same month / quarter of another year: 去年同月, 去年本月, 前年同季度 --------------------
SAME_PERIOD: list[tuple[str, Expected]] = [
    ("去年同月的订单", month("2024-11", "2024-11", 30)),
    ("前年同月的订单", month("2023-11", "2023-11", 30)),  # two years back, never one
    ("明年同月", month("2026-11", "2026-11", 30)),
    ("去年本月", month("2024-11", "2024-11", 30)),
    ("去年这个月的销量", month("2024-11", "2024-11", 30)),
    ("去年当月", month("2024-11", "2024-11", 30)),
    ("去年本季度", ("2024-10-01T00:00:00.000", "2024-12-31T23:59:59.999", "quarter")),
    ("去年本月十日", day("2024-11-10")),
    ("去年本月10号的订单", day("2024-11-10")),
    ("去年本月下旬", day("2024-11-21", "2024-11-30")),
    ("上个月同月", NOTHING),  # no year named
    ("今年本月", NOTHING),
    ("去年上个月", NOTHING),  # a composition no table declares
    ("去年本周", NOTHING),
    ("去年本月31日", NOTHING),  # November has 30 days
]

# -- bare 周末: this week's Saturday .. Sunday (Duckling and Recognizers-Text; chrono's Chinese
# has no 周末) — SPEC §4.3's peers' majority ----------------------------------------------------
THIS_WEEKEND = day("2025-11-15", "2025-11-16")
WEEKEND: list[tuple[str, Expected]] = [
    ("周末", THIS_WEEKEND),
    ("週末的客流", THIS_WEEKEND),
    ("周末的销量是多少？", THIS_WEEKEND),
    ("周末期间的订单", THIS_WEEKEND),
    ("这周末", THIS_WEEKEND),
    ("上周末", day("2025-11-08", "2025-11-09")),
    ("双休日的客流", NOTHING),  # weekends in general: no week named
    ("每周末", NOTHING),  # every weekend
    ("除了周末的客流", NOTHING),  # an exclusion
    ("周末两天", NOTHING),
    ("上周周末", NOTHING),  # a composition no table declares
    ("3月的周末", NOTHING),  # the weekends of March
    ("本周的周末", NOTHING),
    ("周末，上个月", NOTHING),  # two windows
    ("周末下午3点到5点", NOTHING),  # hours of two days
]

# -- 放假 ("to be off") after one day is that day; after a festival its public holiday --------
DAY_OFF: list[tuple[str, Expected]] = [
    ("29日你放假吗", day("2025-10-29")),
    ("29日放假", day("2025-10-29")),
    ("明天放假吗", day("2025-11-14")),
    ("明天不放假", day("2025-11-14")),
    ("下周一放假", day("2025-11-17")),
    ("10月1日放假的门店", day("2025-10-01")),
    ("国庆放假", day("2025-10-01", "2025-10-08")),
    ("十一放假", day("2025-10-01", "2025-10-08")),
    ("放假", NOTHING),
    ("上周放假的订单", NOTHING),  # the days off of a week: which?
    ("5月放假", NOTHING),
    ("1到5号放假", NOTHING),
    ("29日之后放假", NOTHING),  # after the 29th
    ("29日你们公司放假吗", NOTHING),  # too many words between
    ("29日的订单，放假", NOTHING),
]


# -- hour ranges on a named day: a part of the day before a colon clock, 从 before the day ----
def hours(first: str, last: str) -> Expected:
    return (f"2025-11-12T{first}:00.000", f"2025-11-12T{last}:59.999", "day")


HOUR_RANGES: list[tuple[str, Expected]] = [
    ("昨天晚上7:00到8:00", hours("19:00", "19:59")),
    ("昨天早上7:00到8:00的订单", hours("07:00", "07:59")),
    ("昨天下午3:30-5:00", hours("15:30", "16:59")),
    ("昨天凌晨1:00到2:00", hours("01:00", "01:59")),
    ("从昨天5:00-6:00", hours("05:00", "05:59")),
    ("从昨天5点到6点", hours("05:00", "05:59")),
    (
        "帮我预订2016年12月15日晚上7:00到8:00的会议",
        ("2016-12-15T19:00:00.000", "2016-12-15T19:59:59.999", "day"),
    ),
    ("昨天晚上7:00", NOTHING),  # a point inside a day
    ("晚上7:00到8:00", NOTHING),  # no day named
    ("昨天晚上11:00到1:00", NOTHING),  # across midnight: not read
    ("自从昨天5:00-6:00", NOTHING),  # since an hour range?
    ("昨天晚上7:00到6:00", NOTHING),  # backwards
]

# -- 前N小时 / 前N分钟 with no day named: as 最近N小时 (SPEC §4.1's 前N天 = 最近N天) ------------
FIRST_N_CLOCK: list[tuple[str, Expected]] = [
    ("前两小时的订单", ("2025-11-13T07:12:22.241", NOW, "day")),
    ("前兩小時", ("2025-11-13T07:12:22.241", NOW, "day")),
    ("前3个小时", ("2025-11-13T06:12:22.241", NOW, "day")),
    ("前二分钟", ("2025-11-13T09:10:22.241", NOW, "day")),
    ("今天前两小时", NOTHING),  # the first two hours of today?
    ("今天的前两小时", NOTHING),
    ("上午前两小时", NOTHING),
    ("3日前两小时", NOTHING),
    ("前两小时前", NOTHING),
    ("前2小时以前", NOTHING),
]

# -- the Nth / last weekday of a month (Duckling and Recognizers-Text: §4.3's majority) --------
NTH_WEEKDAY: list[tuple[str, Expected]] = [
    ("十月第一个星期一", day("2025-10-06")),
    ("十月的第一個星期一的订单", day("2025-10-06")),
    ("四月的最后一个星期一", day("2025-04-28")),
    ("上个月的第二个周五", day("2025-10-10")),
    ("本月最后一个周五", day("2025-11-28")),
    ("2024年2月第五个星期四", day("2024-02-29")),
    ("2024年2月的第五个星期五", NOTHING),  # February 2024 has four Fridays
    ("第一个星期一", NOTHING),  # of which month?
    ("上周第一个星期一", NOTHING),
    ("今年第一个星期一", NOTHING),  # not declared for a year
    ("十月最后两个星期一", NOTHING),
    ("从四月的最后一个星期一到十月一日", NOTHING),  # inside a range: not read
    ("十月第一个星期一和第二个星期一", NOTHING),
]

# -- holidays Duckling and Recognizers-Text both place on one day (§4.3's peers' majority) ----
HOLIDAYS: list[tuple[str, Expected]] = [
    ("建军节", day("2025-08-01")),
    ("八一建軍節的活动", day("2025-08-01")),
    ("2024年愚人节", day("2024-04-01")),
    ("青年节", day("2025-05-04")),
    ("五四青年节", day("2025-05-04")),
    ("光棍节的GMV", day("2025-11-11")),
    ("国际青年节", NOTHING),  # 8/12 for Duckling, 5/4 for Recognizers-Text: they differ
    ("五四", NOTHING),
    ("女生节", NOTHING),  # Recognizers-Text alone
    ("愚人节前后", NOTHING),
]

# -- the first N weeks of a named year: its ISO weeks 1..N (as 2021年的第一周, SPEC §4.2) -------
FIRST_WEEKS: list[tuple[str, Expected]] = [
    ("2021年的前2周的客房已被订满", ("2021-01-04T00:00:00.000", "2021-01-17T23:59:59.999", "week")),
    ("今年前3周", ("2024-12-30T00:00:00.000", "2025-01-19T23:59:59.999", "week")),
    ("前2周", ("2025-10-30T09:12:22.241", NOW, "week")),  # no year named: the last 2 weeks
    ("本月前2周", NOTHING),  # the first weeks of a month: not declared
    ("上周前2周", NOTHING),
    ("2021年的前60周", NOTHING),
]

CASES = (
    AGES + UNIT_NOUNS + EQUALS + LAST_IN + SAME_PERIOD + WEEKEND + DAY_OFF + HOUR_RANGES
    + FIRST_N_CLOCK + NTH_WEEKDAY + HOLIDAYS + FIRST_WEEKS
)  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads_exactly_or_settles_nothing(text: str, expected: Expected) -> None:
    assert window(text) == expected


@pytest.mark.parametrize("text", [t for t, e in CASES if e is None])
def test_what_settles_nothing_says_why(text: str) -> None:
    """A text that settles nothing either names its time words or holds none."""
    answer = read_window(text, now_ms=NOW_MS, timezone=ZONE)
    assert not answer.settled
    for words in answer.unread:
        assert words.strip(" .,;:!?。，；：！？、\"'“”（）()") == words.strip(), words


@pytest.mark.parametrize(("text", "start", "end"), ZONED_HOURS)
def test_a_zone_between_the_day_and_its_hours_governs_them(text: str, start: str, end: str) -> None:
    answer = read_window(text, now_ms=UTC_NOW_MS, timezone="UTC")
    assert answer.settled, answer.unread
    assert (answer.start_iso or "")[:23] == start
    assert (answer.end_iso or "")[:23] == end
    assert answer.step == "day"


@pytest.mark.parametrize("text", ZONED_NOTHING)
def test_hours_with_two_zones_or_none_settle_nothing(text: str) -> None:
    answer = read_window(text, now_ms=UTC_NOW_MS, timezone="UTC")
    assert not answer.settled
    assert answer.unread


@pytest.mark.parametrize(
    ("now_ms", "first"),
    [
        (1763290800000, "2025-11-15"),  # Sunday 19:00: the weekend under way
        (1763341200000, "2025-11-22"),  # Monday 09:00: this week's, to come
        (1763175600000, "2025-11-15"),  # Saturday 11:00
    ],
)
def test_bare_weekend_is_this_weeks_whatever_the_day(now_ms: int, first: str) -> None:
    answer = read_window("周末的客流", now_ms=now_ms, timezone=ZONE)
    assert (answer.start_iso or "")[:10] == first
    assert answer.step == "day"
