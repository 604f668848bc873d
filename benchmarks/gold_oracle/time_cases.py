"""The cases of time_gold_v2.jsonl: SPEC §4.1's phrase families, the guards, and §4 rows they meet.

Each family is one function adding rows `(query, spec, note)` at a default clock; `at=` moves a
row to another clock. The clocks spread over several dates: month ends, a leap day, early
January, late December, and DST weeks in New York and Berlin.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from benchmarks.gold_oracle.answers import (
    Params,
    Spec,
    ago,
    as_of,
    elapsed,
    first_n,
    instant,
    nothing,
    rolling,
    since,
    span,
    whole,
)
from benchmarks.gold_oracle.periods import (
    Clock,
    Unit,
    bare_festival,
    bare_holiday,
    bare_month,
    bare_quarter,
    day,
    festival,
    holiday,
    last,
    last_march,
    month,
    month_of_same_year,
    quarter,
    this,
    weekday,
    xun,
    year,
)

SHANGHAI = "Asia/Shanghai"
NEW_YORK = "America/New_York"
BERLIN = "Europe/Berlin"

NOV = Clock.at("2025-11-13T09:12:22.241", SHANGHAI)  # Thu; the SPEC's example now
JUN24 = Clock.at("2024-06-18T15:40:05.123", SHANGHAI)  # Tue, leap year
JAN3 = Clock.at("2025-01-03T10:00:00", SHANGHAI)  # Fri; its ISO week began 2024-12-30
JAN20 = Clock.at("2025-01-20T14:30:00", SHANGHAI)  # Mon, before 春节 2025 (01-29)
DEC_UTC = Clock.at("2024-12-28T18:00:00", "UTC")  # Sat, late December
LEAP = Clock.at("2024-02-29T12:00:00", SHANGHAI)  # Thu, leap day
MAR31 = Clock.at("2024-03-31T20:00:00", SHANGHAI)  # Sun, month end after a leap February
NY_DST = Clock.at("2025-03-11T10:00:00", NEW_YORK)  # Tue, two days after DST began (03-09)
NY_NOV = Clock.at("2024-11-20T16:45:00", NEW_YORK)  # Wed, EST
BER_OCT = Clock.at("2025-10-27T08:00:00", BERLIN)  # Mon, the day after DST ended (10-26)
BER_JUL = Clock.at("2024-07-15T11:00:00", BERLIN)  # Mon, CEST
OCT24 = Clock.at("2024-10-03T12:00:00", SHANGHAI)  # Thu, inside the 国庆 holiday
DEC31 = Clock.at("2025-12-31T23:30:00", SHANGHAI)  # Wed, the last half hour of the year
NEWYEAR = Clock.at("2026-01-01T00:30:00", SHANGHAI)  # Thu, 30 minutes into 元旦
UTC_MAY = Clock.at("2025-05-03T06:00:00", "UTC")  # Sat, inside the 五一 holiday

# Notes shared by several rows; every `spec-silent:` note is listed in README_gold.md.
FUTURE = "docs: a named period is returned whole even where it ends after now"
BARE_QUARTER = "spec-silent: a bare quarter follows the bare-month rule (this year's if started)"
YEAR_AFTER = "spec-silent: a year written after the last item applies to the earlier ones too"
LIST_YEAR = "spec-silent: a list item with no year inherits the year before it, as in a range"
HOURS = "spec-silent: hours/minutes are elapsed time (now_ms − N·3600000), not wall-clock"
FORTNIGHT = (
    "spec-silent: a fortnight has no calendar period, so 'last fortnight' is the rolling"
    " 2 weeks, step week"
)
TREND_SPAN = (
    "spec-silent: a trend word refines only a single period (docs), so a span of several"
    " periods keeps its unit like a range"
)
GUARD = "must settle nothing (SPEC 'Never settle half a question')"
OFFICIAL = (
    "revised: SPEC §4.1's festival row (issue 31): the official public-holiday run of that year as"
    " the State Council published it (was lunar 1/1 + 6 days, 10/1–10/7)"
)


def is_chinese(text: str) -> bool:
    """Does the text hold a CJK ideograph?"""
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@dataclass(frozen=True, slots=True)
class TimeCase:
    """One line of time_gold_v2.jsonl."""

    family: str
    query: str
    clock: Clock
    spec: Spec
    note: str = ""
    context: Params = field(default_factory=dict)

    @property
    def lang(self) -> str:
        """zh when the query holds Chinese, else en."""
        return "zh" if is_chinese(self.query) else "en"

    def row(self, number: int) -> Params:
        """The JSON object of this case (the format benchmarks/gold.py loads)."""
        answer = self.spec(self.clock)
        note = f"time_expr={answer.expr}; now={self.clock.describe()}"
        return {
            "id": f"{self.lang}-{self.family}-{number:03d}",
            "category": self.family,
            "lang": self.lang,
            "query": self.query,
            "now_ms": self.clock.now_ms,
            "timezone": self.clock.tz_name,
            "context": self.context,
            "expected": answer.params,
            "note": f"{note}; {self.note}" if self.note else note,
        }


class Family:
    """Adds the rows of one family, at a default clock."""

    def __init__(self, into: list[TimeCase], name: str, clock: Clock) -> None:
        self._into = into
        self._name = name
        self._clock = clock

    def __call__(
        self,
        query: str,
        spec: Spec,
        note: str = "",
        *,
        at: Clock | None = None,
        context: Params | None = None,
    ) -> None:
        """One case."""
        clock = at or self._clock
        self._into.append(TimeCase(self._name, query, clock, spec, note, context or {}))


def _first_n(add: Family) -> None:
    add("前三季度的营收", first_n(3, "quarter"))
    add("2024年前三季度的营收", first_n(3, "quarter", 2024))
    add("今年前两个月的销量", first_n(2, "month"))
    add("去年前三个月的订单量", first_n(3, "month", 2024), "spec-silent: 去年 names a year (2024)")
    add("2024年前十个月的GMV", first_n(10, "month", 2024))
    add("2024年前6个月的新增用户", first_n(6, "month", 2024), FUTURE, at=JUN24)
    add("前两个季度的利润", first_n(2, "quarter"), "no year named → this year", at=DEC31)
    add("前3季度销售额", first_n(3, "quarter"), FUTURE, at=JAN3)
    add("2023年前两个季度的营收", first_n(2, "quarter", 2023), "Berlin", at=BER_JUL)
    add("revenue for the first 3 quarters of 2024", first_n(3, "quarter", 2024), at=NY_NOV)
    add("orders in the first two months of 2024", first_n(2, "month", 2024), at=DEC_UTC)
    add("sales in the first 6 months of 2023", first_n(6, "month", 2023))


def _first_n_rolling(add: Family) -> None:
    add("前7天的订单", rolling(7, "day"))
    add("前两周的活跃用户", rolling(2, "week"))
    add("前3个月的销售额", rolling(3, "month"), "contrast with 2024年前3个月: no year → rolling")
    add("今天之前5天的退货量", rolling(5, "day"))
    add("前30天的访问量", rolling(30, "day"), "DST: start keeps 10:00 local (EST)", at=NY_DST)
    add("前4个月的营收", rolling(4, "month"), "Mar 31 − 4 months clamps to Nov 30", at=MAR31)
    add("前十天的销量", rolling(10, "day"), at=JAN3)
    add("前3周的注册数", rolling(3, "week"), "DST: start 08:00 CEST, now CET", at=BER_OCT)
    add("今天之前30天的客流", rolling(30, "day"), at=LEAP)
    add("前6个月的订单", rolling(6, "month"), at=DEC_UTC)


def _range_in_year(add: Family) -> None:
    add("2024年Q1到Q3的营收", span(quarter(2024, 1), quarter(2024, 3)))
    add("2024年Q1至Q3的营收", span(quarter(2024, 1), quarter(2024, 3)))
    march_to_may = span(bare_month(3), month_of_same_year(bare_month(3), 5))
    add("3月到5月的销量", march_to_may, "3月 has started; 5月 inherits its year")
    add("3月到5月的销量", march_to_may, "3月 not started in 2025 → 2024's; 5月 too", at=JAN3)
    add("上周一到周三的订单", span(weekday(0, 1), weekday(2, 1)), "周三 inherits 上周", at=DEC_UTC)
    add("上周二至周五的销量", span(weekday(1, 1), weekday(4, 1)), at=MAR31)
    add("本周一到周三的退款", span(weekday(0, 0), weekday(2, 0)))
    add("2024年3月到6月的GMV", span(month(2024, 3), month(2024, 6)), FUTURE, at=JUN24)
    add("2023年Q2-Q4的利润", span(quarter(2023, 2), quarter(2023, 4)), at=BER_JUL)
    add("2025年第一季度到第三季度的营收", span(quarter(2025, 1), quarter(2025, 3)))
    add("2024年1月至2024年3月", span(month(2024, 1), month(2024, 3)))
    add(
        "revenue from Q1 to Q3 2024",
        span(quarter(2024, 1), quarter(2024, 3)),
        YEAR_AFTER,
        at=NY_NOV,
    )
    add(
        "orders from January to March 2024",
        span(month(2024, 1), month(2024, 3)),
        YEAR_AFTER,
        at=DEC_UTC,
    )


def _list(add: Family) -> None:
    march_april = span(bare_month(3), month_of_same_year(bare_month(3), 4))
    add("3月和4月的销量", march_april, LIST_YEAR)
    add("2023年和2024年的营收", span(year(2023), year(2024)))
    add("revenue in Q1 and Q3", span(bare_quarter(1), bare_quarter(3)), BARE_QUARTER)
    add("2024年1月、2024年3月的订单", span(month(2024, 1), month(2024, 3)), at=JUN24)
    add("2024年Q1与2024年Q2的利润", span(quarter(2024, 1), quarter(2024, 2)), FUTURE, at=JUN24)
    add(
        "2024年3月和2024年第二季度的GMV",
        span(month(2024, 3), quarter(2024, 2)),
        "finest: month; " + FUTURE,
        at=JUN24,
    )
    add(
        "2024年5月和2024年2月的退货",
        span(month(2024, 5), month(2024, 2)),
        "written latest first: still earliest start .. latest end",
        at=JUN24,
    )
    add(
        "2024年1月、3月和5月的销量",
        span(month(2024, 1), month(2024, 3), month(2024, 5)),
        LIST_YEAR,
        at=JUN24,
    )
    add(
        "sales in March and April 2024",
        span(month(2024, 3), month(2024, 4)),
        YEAR_AFTER,
        at=DEC_UTC,
    )
    add("revenue for 2023 and 2024", span(year(2023), year(2024)), FUTURE, at=NY_NOV)
    add(
        "2023年3月和2024年3月的客流",
        span(month(2023, 3), month(2024, 3)),
        "the list row taken literally: one window, earliest .. latest",
        at=BER_JUL,
    )
    add(
        "上周一和上周三的订单",
        span(weekday(0, 1), weekday(2, 1)),
        "the list row taken literally: the days between are inside",
        at=MAR31,
    )
    add("3月与4月的营收", march_april, "3月 not started in 2025 → 2024's", at=JAN3)


def _weekday(add: Family) -> None:
    add("周三的订单量", whole(weekday(2)), "now is Thu: this week's Wednesday has started")
    add("周五的订单量", whole(weekday(4)), "now is Thu: Friday not started → last week's")
    add("星期天的客流", whole(weekday(6)), "Sunday not started → last week's")
    add("礼拜一的销量", whole(weekday(0)))
    add("这周二的退款", whole(weekday(1, 0)))
    add("上周五的GMV", whole(weekday(4, 1)))
    add("上上周三的订单", whole(weekday(2, 2)))
    add("本周四的访问量", whole(weekday(3, 0)), "本周四 is today: " + FUTURE)
    add("周二的销量", whole(weekday(1)), "now is Mon → last week's Tuesday (CEST)", at=BER_OCT)
    add("上周日的订单", whole(weekday(6, 1)), "DST ended that day: 25 hours", at=BER_OCT)
    add("周六的客流", whole(weekday(5)), "now is Sun: this ISO week's Saturday", at=MAR31)
    add("周日的客流", whole(weekday(6)), "today: " + FUTURE, at=MAR31)
    add("上周三的订单", whole(weekday(2, 1)), "last ISO week lies in 2024", at=JAN3)
    add("周一的销量", whole(weekday(0)), "this ISO week's Monday is 2024-12-30", at=JAN3)
    add("星期六的销量", whole(weekday(5)), "today: " + FUTURE, at=DEC_UTC)
    add("orders on Monday", whole(weekday(0)), at=NY_NOV)
    add("sales last Friday", whole(weekday(4, 1)), "now is Wed: also the latest Friday", at=NY_NOV)
    add("visits on Sunday", whole(weekday(6)), "Sunday not started → last week's", at=NY_NOV)
    add("revenue this Monday", whole(weekday(0, 0)), at=DEC_UTC)
    add("orders this Friday", whole(weekday(4, 0)), FUTURE, at=NY_DST)


def _xun(add: Family) -> None:
    add("3月上旬的销量", whole(xun(bare_month(3), 1)))
    add("上个月下旬的订单", whole(xun(last("month"), 3)))
    add("2024年2月下旬的营收", whole(xun(month(2024, 2), 3)), "leap February")
    add("2023年2月下旬的营收", whole(xun(month(2023, 2), 3)))
    add("本月上旬的退款", whole(xun(this("month"), 1)))
    add("12月中旬的销量", whole(xun(bare_month(12), 2)), "12月 not started → 2024's", at=JAN3)
    add("去年12月下旬的客流", whole(xun(month(2024, 12), 3)))
    add("上个月上旬的订单", whole(xun(last("month"), 1)), at=LEAP)
    add("2025年3月下旬的访问量", whole(xun(month(2025, 3), 3)), "DST began 03-30", at=BER_OCT)
    add("今年1月中旬的GMV", whole(xun(month(2025, 1), 2)), FUTURE, at=JAN20)
    add("上个月中旬的销量", whole(xun(last("month"), 2)), at=NY_DST)


def _hours_minutes(add: Family) -> None:
    add("最近3小时的订单", elapsed(180), HOURS)
    add("过去30分钟的请求量", elapsed(30))
    add("近12小时的告警数", elapsed(720))
    add("最近两个小时的支付笔数", elapsed(120), at=JUN24)
    add("最近24小时的访问量", elapsed(1440), at=DEC31)
    add("过去十五分钟的错误数", elapsed(15), at=BER_JUL)
    add("过去48小时的新增用户", elapsed(2880), "crosses the year boundary", at=NEWYEAR)
    add("orders in the last 6 hours", elapsed(360), at=NY_NOV)
    add("errors in the past 45 minutes", elapsed(45), at=DEC_UTC)
    add("signups over the last 24 hours", elapsed(1440), at=NY_NOV)
    add("requests in the past 2 hours", elapsed(120), at=BER_OCT)


def _latest_n(add: Family) -> None:
    add("最新一个月的销量", rolling(1, "month"))
    add("最新一季度的营收", rolling(1, "quarter"))
    add("最新一年的用户数", rolling(1, "year"), "Feb 29 − 1 year clamps to Feb 28", at=LEAP)
    add("最新3个月的订单", rolling(3, "month"))
    add("最新两个季度的利润", rolling(2, "quarter"), at=JUN24)
    add("最新一个月的GMV", rolling(1, "month"), "Mar 31 − 1 month clamps to Feb 29", at=MAR31)
    add("最新6个月的退货", rolling(6, "month"), "Mar 31 − 6 months clamps to Sep 30", at=MAR31)
    add("最新12个月的营收", rolling(12, "month"), at=NY_DST)
    add("最新一周的访问量", rolling(1, "week"), "spec-silent: 最新一周 follows 最新一个月")
    add("最新一年的营收", rolling(1, "year"), at=BER_OCT)
    add("最新的库存", instant, "contrast: 最新 with no count is an instant word (§4)")


def _two_digit_year(add: Family) -> None:
    add("24年3月的销量", whole(month(2024, 3)))
    add("24年Q1的营收", whole(quarter(2024, 1)))
    add("25年第二季度的利润", whole(quarter(2025, 2)))
    add("23年Q4的订单", whole(quarter(2023, 4)), at=JUN24)
    add("24年12月的GMV", whole(month(2024, 12)), FUTURE, at=DEC_UTC)
    add("24年3月到6月的销量", span(month(2024, 3), month(2024, 6)))
    add("24年3月15日的订单", whole(day(2024, 3, 15)), "spec-silent: X年X月X日 is that date")
    add("24年前三季度的营收", first_n(3, "quarter", 2024))
    add("24年2月下旬的退货", whole(xun(month(2024, 2), 3)))
    add("25年1月的新增用户", whole(month(2025, 1)), FUTURE, at=JAN3)


def _compact_date(add: Family) -> None:
    add("20240315的销量", whole(day(2024, 3, 15)))
    add("20240101-20240331的订单", span(day(2024, 1, 1), day(2024, 3, 31)))
    add("2024/3/15的营收", whole(day(2024, 3, 15)))
    add("2024.03.15的客流", whole(day(2024, 3, 15)))
    add("2024.02.29的GMV", whole(day(2024, 2, 29)), "leap day")
    add("20231231的访问量", whole(day(2023, 12, 31)), at=DEC_UTC)
    add("2024/3/1到2024/3/15的退款", span(day(2024, 3, 1), day(2024, 3, 15)), at=JUN24)
    add("2024/03/15至今的销量", since(day(2024, 3, 15)), at=JUN24)
    add("20250101至20250107的订单", span(day(2025, 1, 1), day(2025, 1, 7)), at=JAN20)
    add("sales on 2024/3/15", whole(day(2024, 3, 15)), at=NY_NOV)
    add("orders 20240101-20240331", span(day(2024, 1, 1), day(2024, 3, 31)), at=BER_JUL)


def _festival(add: Family) -> None:
    started = "bare: this year's has started"
    add("元旦的销量", whole(bare_festival("元旦")), started)
    add("春节的订单", whole(bare_festival("春节")), started)
    add("春节期间的客流", whole(bare_festival("春节", True)), OFFICIAL)
    add("元宵的GMV", whole(bare_festival("元宵")), started)
    add("劳动节的销量", whole(bare_festival("劳动节")), started)
    add("五一假期的订单", whole(bare_festival("劳动节", True)), "5/1–5/5")
    add("端午的客流", whole(bare_festival("端午")), started)
    add("七夕的销量", whole(bare_festival("七夕")), started)
    add("中秋的订单", whole(bare_festival("中秋")), started)
    add("国庆黄金周的客流", whole(bare_festival("国庆", True)), OFFICIAL)
    add("618的GMV", whole(bare_festival("618")), started)
    add("双十一的销量", whole(bare_festival("双十一")), started)
    add("双十二的销量", whole(bare_festival("双十二")), "bare: 2025-12-12 not started → 2024's")
    add("2024年中秋的订单", whole(festival("中秋", 2024)))
    add("2024年春节假期的客流", whole(festival("春节", 2024, True)), OFFICIAL)
    add("2023年国庆长假的销量", whole(festival("国庆", 2023, True)), OFFICIAL)
    add("2025年双十一以来的订单", since(festival("双十一", 2025)), "SPEC §4.1 example")
    add("自2024年国庆以来的销量", since(festival("国庆", 2024)), "plain 国庆 is the day 10/1")
    add("从2024年中秋到2024年国庆的客流", span(festival("中秋", 2024), festival("国庆", 2024)))
    add("2025年双十一期间的GMV", whole(festival("双十一", 2025)), "SPEC: the others stay one day")
    add("春节的销量", whole(bare_festival("春节")), "2025's (01-29) not started → 2024's", at=JAN20)
    add("元旦的订单", whole(bare_festival("元旦")), at=JAN20)
    add("中秋节的销量", whole(bare_festival("中秋")), "2025's not started → 2024's", at=JAN20)
    add(
        "春节假期的客流",
        whole(bare_festival("春节", True)),
        "not started → 2024's; " + OFFICIAL,
        at=JAN20,
    )
    add(
        "国庆假期的销量",
        whole(bare_festival("国庆", True)),
        "inside the holiday: " + FUTURE,
        at=OCT24,
    )
    add("国庆节的订单", whole(bare_festival("国庆")), at=OCT24)
    add(
        "元旦的访问量",
        whole(bare_festival("元旦")),
        "00:30 on 01-01: started; " + FUTURE,
        at=NEWYEAR,
    )
    add("双十二的GMV", whole(bare_festival("双十二")), "2026's not started", at=NEWYEAR)
    add(
        "五一期间的客流",
        whole(bare_festival("劳动节", True)),
        "inside the holiday: " + FUTURE,
        at=UTC_MAY,
    )
    add("2024年端午节的销量", whole(festival("端午", 2024)), at=UTC_MAY)
    add("2024年618以来的订单", since(festival("618", 2024)), at=UTC_MAY)
    add("2024年七夕的GMV", whole(festival("七夕", 2024)), at=UTC_MAY)
    add("2026年元宵节的客流", whole(festival("元宵", 2026)), FUTURE, at=NEWYEAR)
    add("2024年劳动节的销量", whole(festival("劳动节", 2024)))


def _same_period_last_year(add: Family) -> None:
    same_month, same_quarter = whole(last("month", 12)), whole(last("quarter", 4))
    add("去年同月的销量", same_month)
    add("去年同季度的营收", same_quarter)
    add("去年同月的订单", same_month, at=JAN3)
    add("去年同季度的利润", same_quarter, at=JAN3)
    add("去年同月的GMV", same_month, "from a leap day", at=LEAP)
    add("去年同季度的客流", same_quarter, at=BER_OCT)
    add("sales in the same month last year", same_month, at=DEC_UTC)
    add("revenue for the same quarter last year", same_quarter, at=NY_DST)
    add("orders in the same month last year", same_month, at=NY_NOV)


def _as_of(add: Family) -> None:
    add("截至2024年6月的累计用户数", as_of(month(2024, 6)))
    add("截止到上个月的库存", as_of(last("month")))
    add("截至昨天的订单总数", as_of(last("day")))
    add("2024年第三季度为止的累计营收", as_of(quarter(2024, 3)))
    add("截至2025-06-30的余额", as_of(day(2025, 6, 30)))
    add("截至上周的累计注册", as_of(last("week")))
    add("截至2024年的累计GMV", as_of(year(2024)))
    add("上个月为止的会员数", as_of(last("month")), at=LEAP)
    add("total users as of March 2024", as_of(month(2024, 3)), at=NY_NOV)
    add("balance as of last quarter", as_of(last("quarter")), at=DEC_UTC)
    add("members as of 2024-12-31", as_of(day(2024, 12, 31)), at=JAN3)
    add("截至目前的累计用户数", instant, "contrast: 截至目前 is an instant word (§4)")


def _fortnight(add: Family) -> None:
    add("orders in the past fortnight", rolling(2, "week"), at=NY_NOV)
    add("sales over the last fortnight", rolling(2, "week"), FORTNIGHT, at=NY_NOV)
    add("revenue in the last two fortnights", rolling(4, "week"), at=DEC_UTC)
    add("inventory a fortnight ago", ago(2, "week"), "like 'N units ago': a point", at=DEC_UTC)
    add("最近一个双周的订单", rolling(2, "week"))
    add("过去两个双周的销量", rolling(4, "week"))
    add("近双周的活跃用户", rolling(2, "week"), "docs: 近一周 without a number is N = 1", at=JUN24)
    add("两个双周前的库存", ago(4, "week"), at=JUN24)
    add("visits in the past fortnight", rolling(2, "week"), "DST: start keeps 10:00", at=NY_DST)
    add("最近双周的访问量", rolling(2, "week"), at=BER_OCT)


def _since_last(add: Family) -> None:
    add("orders since last March", since(last_march()))
    add("orders since last March", since(last_march()), "now in March → 2024's", at=NY_DST)
    add("sales since last March", since(last_march()), at=JAN3)
    add("revenue since last year", since(last("year")))
    add("自去年以来的营收", since(last("year")))
    add("去年以来的订单", since(last("year")), at=JAN3)
    add("去年至今的销量", since(last("year")), at=DEC_UTC)
    add("signups since last month", since(last("month")), at=BER_OCT)
    add("自上个月以来的退货", since(last("month")))
    add("revenue since last quarter", since(last("quarter")), at=NY_NOV)
    add("orders since March", since(bare_month(3)), "contrast: bare March has started", at=NY_DST)
    add("自去年3月以来的GMV", since(month(2024, 3)))


def _comparison(add: Family) -> None:
    pairs: list[tuple[str, str, Spec, Clock]] = [
        ("最近3个月的营收", "最近3个月的营收同比", rolling(3, "month"), NOV),
        ("2024年Q1销售额", "2024年Q1销售额环比", whole(quarter(2024, 1)), NOV),
        ("上个月的订单量", "上个月的订单量对比", whole(last("month")), NOV),
        ("去年的利润", "去年的利润同比增长率", whole(last("year")), NOV),
        ("上季度退货率高的品类", "上季度退货率较高的品类", whole(last("quarter")), NOV),
        ("2024年5月的GMV表现", "相比之下2024年5月的GMV表现", whole(month(2024, 5)), JUN24),
        ("上周五的销量", "上周五的销量环比", whole(weekday(4, 1)), NOV),
        ("revenue last quarter", "revenue last quarter YoY", whole(last("quarter")), NY_NOV),
        ("orders last month", "orders last month MoM", whole(last("month")), DEC_UTC),
    ]
    for base, compared, spec, clock in pairs:
        add(base, spec, "pair: the base query", at=clock)
        add(compared, spec, f"pair of '{base}': a comparison word keeps the window", at=clock)


def _guard(add: Family) -> None:
    rows: list[tuple[str, str]] = [
        ("去年同期的销售额", "去年同期 names no period"),
        ("最近几个月的销量", "几"),
        ("近期订单量", "近期"),
        ("一段时间内的活跃用户数", "一段时间"),
        ("最近若干天的退货", "若干"),
        ("2025财年营收", "财年"),
        ("FY2024 revenue", "FY"),
        ("春节前后的客流", "前后 around a date"),
        ("国庆左右的销量", "左右 around a date"),
        ("植树节的活动数据", "a festival not in the SPEC list"),
        ("宇宙狂欢节的销量", "a made-up festival"),
        ("圣诞节期间的销量", "a festival not in the SPEC list"),
        ("2024年3月 vs 2023年3月的销量", "two windows joined by no list or range word"),
        ("2023年3月的销量，2024年5月的退货", "two windows it cannot join"),
        ("上个月或本月的订单", "或 is not a list word: two windows"),
        ("2024年3月左右的销量", "a known month + leftover 左右"),
        ("上个月前后的客流", "a known month + leftover 前后"),
        ("2024财年第一季度的营收", "财年 leftover: a fiscal Q1 is not the calendar Q1"),
        ("FY24 Q3 revenue", "FY leftover"),
        ("2024年3月和去年同期的销量", "a list with 去年同期, which names no period"),
        ("前几天的订单", "几"),
        ("这几天的销量", "几"),
        ("近几年的营收", "几"),
        ("过去一段时间的退款", "一段时间"),
        ("若干周前的库存", "若干"),
        ("中秋前后的订单", "前后"),
        ("双十一左右的GMV", "左右"),
        ("去年同期对比", "去年同期 alone, with a comparison word"),
        ("本财年的利润", "财年"),
        ("销量趋势", "docs: a trend word alone settles nothing"),
        ("sales for the same period last year", "'same period' names no period"),
        ("revenue over the last few months", "spec-silent: 'few' is the English 几"),
        ("recent orders", "spec-silent: 'recent' is the English 近期"),
    ]
    # SPEC §4.2 made these holidays the scanner reads (they settled nothing under §4.1).
    superseded = "revised for SPEC §4.2: a listed holiday"
    for query, why in rows:
        silent = why.startswith("spec-silent")
        if query == "圣诞节期间的销量":
            add(query, whole(bare_holiday("圣诞")), superseded + "; 期间 keeps it one day")
            continue
        add(query, nothing("English vague word" if silent else why), why if silent else GUARD)
    add("Christmas 2024 sales", whole(holiday("圣诞", 2024)), superseded, at=NY_NOV)
    add("Thanksgiving 2024 revenue", whole(holiday("Thanksgiving", 2024)), superseded, at=NY_NOV)


def _half(add: Family) -> None:
    add("最近半年的销量", rolling(6, "month"), "半年 = 6 months, step month")
    add("过去半个月的订单", rolling(15, "day"), "半个月 = 15 days, step day")
    add("半年前的库存", ago(6, "month"))
    add("近半个月的客流", rolling(15, "day"), at=MAR31)
    add("最近半年的营收", rolling(6, "month"), "Feb 29 − 6 months = Aug 29", at=LEAP)
    add("半个月前的余额", ago(15, "day"), at=JUN24)
    add("最近半年的GMV", rolling(6, "month"), "Mar 31 − 6 months clamps to Sep 30", at=MAR31)


def _trend(add: Family) -> None:
    add("2024年3月的销量趋势", whole(month(2024, 3), "day"), "single period: month → day")
    add("上季度的营收走势", whole(last("quarter"), "month"), "single period: quarter → month")
    add("2024年Q1到Q3的营收趋势", span(quarter(2024, 1), quarter(2024, 3)), "docs: a range keeps")
    add("24年3月的销量变化", whole(month(2024, 3), "day"), "single period: month → day")
    add("上周三的订单趋势", whole(weekday(2, 1)), "day stays day")
    add("春节期间的客流趋势", whole(bare_festival("春节", True)), "days stay day; " + OFFICIAL)
    add(
        "去年同季度的营收趋势",
        whole(last("quarter", 4), "month"),
        "spec-silent: 去年同季度 is a single period, so quarter → month",
    )
    add("2023年和2024年的营收趋势", span(year(2023), year(2024)), TREND_SPAN)
    add("2024年前三季度的销量趋势", first_n(3, "quarter", 2024), TREND_SPAN)
    add("revenue trend for March 2024", whole(month(2024, 3), "day"), at=NY_NOV)
    add("sales trend last year", whole(last("year"), "month"), "year → month", at=DEC_UTC)
    add("最近3个月的订单趋势", rolling(3, "month"), "docs: a rolling window keeps its unit")


def _step_word(add: Family) -> None:
    march, april = bare_month(3), month_of_same_year(bare_month(3), 4)
    add("3月和4月按周的销量", span(march, april, step="week"))
    add("2024年前三季度按月的营收", first_n(3, "quarter", 2024, step="month"))
    add("国庆假期每日的客流", whole(bare_festival("国庆", True)), OFFICIAL)
    add("2024年Q1到Q3按月的GMV", span(quarter(2024, 1), quarter(2024, 3), step="month"))
    add("weekly orders since last March", since(last_march(), "week"))
    add("最近6小时按天的请求量", elapsed(360))
    add("2024年双十一以来按周的销量", since(festival("双十一", 2024), "week"))
    add("3月上旬按周的订单", whole(xun(bare_month(3), 1), "week"))


def _override(add: Family) -> None:
    def step(unit: Unit) -> Params:
        return {"step": unit}

    note = "caller override in context"
    add("2024年前三季度的营收", instant, f"{note}: instant=true wins", context={"instant": True})
    add("3月上旬的订单", whole(xun(bare_month(3), 1), "week"), note, context=step("week"))
    add(
        "春节假期的客流",
        whole(bare_festival("春节", True), "week"),
        f"{note}; {OFFICIAL}",
        context=step("week"),
    )
    add("最近3小时的订单", elapsed(180, "month"), note, context=step("month"))
    add(
        "上周五的销量",
        whole(weekday(4, 1)),
        f"{note}: instant=false agrees",
        context={"instant": False},
    )
    add("24年Q1的营收", whole(quarter(2024, 1), "month"), note, context=step("month"))


FAMILIES: list[tuple[str, Clock, Callable[[Family], None]]] = [
    ("first_n", NOV, _first_n),
    ("first_n_rolling", NOV, _first_n_rolling),
    ("range_in_year", NOV, _range_in_year),
    ("list", NOV, _list),
    ("weekday", NOV, _weekday),
    ("xun", NOV, _xun),
    ("hours_minutes", NOV, _hours_minutes),
    ("latest_n", NOV, _latest_n),
    ("two_digit_year", NOV, _two_digit_year),
    ("compact_date", NOV, _compact_date),
    ("festival", NOV, _festival),
    ("same_period_last_year", NOV, _same_period_last_year),
    ("as_of", NOV, _as_of),
    ("fortnight", NOV, _fortnight),
    ("since_last", NOV, _since_last),
    ("comparison", NOV, _comparison),
    ("guard", NOV, _guard),
    ("half", NOV, _half),
    ("trend", NOV, _trend),
    ("step_word", NOV, _step_word),
    ("override", NOV, _override),
]


def time_cases() -> list[TimeCase]:
    """Every case of time_gold_v2.jsonl, family by family."""
    cases: list[TimeCase] = []
    for name, clock, build in FAMILIES:
        build(Family(cases, name, clock))
    return cases


def time_rows() -> list[Params]:
    """The JSON objects, numbered per language and family (`zh-weekday-003`)."""
    seen: Counter[tuple[str, str]] = Counter()
    rows = []
    for case in time_cases():
        seen[case.lang, case.family] += 1
        rows.append(case.row(seen[case.lang, case.family]))
    return rows
