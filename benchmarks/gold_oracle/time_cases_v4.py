"""The cases of time_gold_v4.jsonl: SPEC §4.3 (every character accounted for), bullet by bullet.

Framing (plain words and punctuation around a window keep it), number words inside ordinary
words and names holding calendar characters, the "settle nothing" list, the "read as one
expression" list, exclusions, numbers, zones written in the text, and §4.1's revised festival
row (the official holiday run as the State Council published it). Written from the SPEC alone,
blind to the engine. Same row format as v2/v3; a row whose text names a zone keeps the
request's `timezone` in the row and computes the window in the named zone.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.gold_oracle.answers import (
    Params,
    ago,
    ahead,
    clock_range,
    elapsed,
    hours,
    instant,
    nothing,
    rolling,
    since,
    span,
    start_to_end,
    whole,
)
from benchmarks.gold_oracle.periods import (
    Clock,
    bare_month,
    bare_official_holiday,
    day,
    iso_week,
    last,
    last_days_of,
    last_months_of,
    last_weeks_of,
    month,
    month_day,
    official_holiday,
    quarter,
    this,
    weekend,
    whole_days_before_today,
    year,
)
from benchmarks.gold_oracle.time_cases import (
    BER_OCT,
    DEC31,
    JAN3,
    JAN20,
    LEAP,
    NEW_YORK,
    NEWYEAR,
    NOV,
    NY_NOV,
    OCT24,
    SHANGHAI,
    Family,
    TimeCase,
    numbered,
)
from benchmarks.gold_oracle.time_cases_v3 import NY_DST_MON, SAT_NOV

# Clocks added for v4 (the v2/v3 ones are imported above).
UTC_EVE = Clock.at("2025-11-13T19:00:00", "UTC")  # Thu; already 11-14 in Shanghai/Kolkata
DEC1 = Clock.at("2025-12-01T02:00:00", SHANGHAI)  # Mon; still 11-30 in New York
NOV30 = Clock.at("2025-11-30T23:30:00", SHANGHAI)  # Sun; already 12-01 in Tokyo
SUN_NOV = Clock.at("2025-11-16T22:00:00", SHANGHAI)  # Sun, the last evening of a weekend
UTC_2000 = Clock.at("2025-06-10T12:00:00", "UTC")  # Tue, UTC (the §5 lower bound is UTC)
DEC20 = Clock.at("2025-12-20T10:00:00", "UTC")  # Sat, UTC, after 国庆

# Notes shared by several rows; every `spec-silent:` / `majority:` note is listed in
# README_gold.md.
FRAME = "SPEC §4.3 framing: plain words and punctuation around a window keep it"
PLAIN = "SPEC §4.3: a number word inside an ordinary word, or a name, is plain"
NAME = "SPEC §4.3: a brand or a name holding calendar characters is plain"
NO_CUE = "no time cue left once the plain words are plain: nothing to settle"
NONE_43 = "SPEC §4.3 'settle nothing, never a neighbour's reading'"
NO_DATE = NONE_43 + ": a date that does not exist"
DISAGREE = NONE_43 + ": a weekday that disagrees with its date"
AGREE = "spec-silent (v3 choice 22): a weekday that agrees with its date is part of the date"
PRE_2000 = NONE_43 + ": a year that resolves before 2000 (two-digit 50–99 are 19YY)"
SUB_DAY = NONE_43 + ": a sub-day point"
RANGE_NOW = "SPEC §4.3: a sub-day range ending now is read (now − N min .. now, step day)"
NO_DIRECTION = NONE_43 + ": N日内/N天内/within N days without a direction word"
BACK = "SPEC §4.3: N天内 with 近/最近/过去/last/past → now − N days .. now"
FORWARD = "SPEC §4.3: N天内 with 未来/接下来/next → now .. now + N days"
LAST_ALONE = NONE_43 + ": 最后N天/最后一周 alone"
LAST_IN = (
    "SPEC §4.3: the last N units inside the named period; weeks Monday–Sunday, the last one"
    " holding the period's last day"
)
LAST_WEEK_OUT = LAST_IN + " (so it runs past the period's end: literal reading)"
ONE = "SPEC §4.3: read as one expression"
WEEKEND = "SPEC §4.3: 周末/weekend → Saturday 00:00 .. Sunday 23:59:59.999 of the week named"
WEEKEND_V3 = WEEKEND + " (supersedes v3 choice 26; those two v3 rows are revised)"
TIME_LIKE = "SPEC §4.3: time-like, so never dropped: nothing settles"
EXCL = "SPEC §4.3: 不含今天/excluding today ends the rolling window at the end of yesterday"
NEGATION = "SPEC §4.3: any other exclusion or negation settles nothing"
WHOLE_NUMBER = "SPEC §4.3: numbers are read whole"
NO_PART = "SPEC §4.3: a number not read whole settles nothing rather than a part"
UNDECLARED = "SPEC §4.3: a composition the tables do not declare settles nothing"
ZONE = "SPEC §4.3: a zone written in the text governs, whatever the request's timezone"
UNKNOWN_ZONE = "SPEC §4.3/§3: an unknown zone word settles nothing"
HOLIDAY = (
    "SPEC §4.1 revised festival row: the official holiday run as the State Council published it"
)
FUTURE = "docs: a named period is returned whole even where it ends after now"
MINUTE_START = (
    "spec-silent: a first time with minutes (3点15分) starts at that minute; §4.2 says 'start of"
    " the first hour' for whole hours"
)
YTD_STEP = (
    "spec-silent: step day, the finest unit of the range 今年 .. 昨天 (SPEC §4 range row); the"
    " SPEC gives the window only"
)
BARE = (
    "spec-silent (docs choice 1): no year named → this year's if it has started, else last year's"
)
NOT_SAID = "不包括 = 不含 (issue 28 lists 不包括今天的最近7天 as an exclusion dropped)"
TRAD = "traditional characters"
OFFSET_ZONE = "an offset is a fixed-offset zone; {} has that offset all year (same numbers)"


YESTERDAY, LAST_MONTH, LAST_WEEK = whole(last("day")), whole(last("month")), whole(last("week"))
GUOQING = whole(bare_official_holiday("国庆"))


def _framing(add: Family) -> None:
    add("请问昨天一共卖了多少单？", YESTERDAY, "SPEC §4.3 example; " + FRAME)
    add("帮我查一下国庆期间的销量", GUOQING, "SPEC §4.3 example; 2025: 10/1–10/8; " + HOLIDAY)
    add("请问国庆期间的销量？", GUOQING, "issue 28 example; " + HOLIDAY)
    add("帮我查一下国庆期间的销量", GUOQING, "2024: 10/1–10/7; inside the holiday", at=OCT24)
    add("2024年春节假期的客流是多少？", whole(official_holiday("春节", 2024)), HOLIDAY)
    add("2023年国庆黄金周的销量，谢谢。", whole(official_holiday("国庆", 2023)), HOLIDAY)
    add("上个月的销量。", LAST_MONTH, FRAME)
    add("去年的营收呢？", whole(last("year")), FRAME)
    add("最近7天的订单量！", rolling(7, "day"), FRAME)
    add("“上个月”的销量", LAST_MONTH, FRAME + " (quotes)")
    add("《2024年第一季度》的营收", whole(quarter(2024, 1)), FRAME + " (《》)")
    add("（上个月）的订单量", LAST_MONTH, FRAME + " (full-width brackets)")
    add("【2025年10月】的订单量", whole(month(2025, 10)), FRAME + " (brackets)")
    add("请给我 last month 的销量", LAST_MONTH, FRAME + " (code-switching)")
    add("show me 上个月的 sales", LAST_MONTH, FRAME + " (code-switching)")
    add("昨天的订单，谢谢。", YESTERDAY, FRAME)
    add("请问2024.3.15的订单？", whole(day(2024, 3, 15)), FRAME + "; the ？ ends the sentence")
    add("麻烦统计一下2024年3月的销售额，谢谢！", whole(month(2024, 3)), FRAME)
    add("你好，请问本月的回款情况？", since(this("month")), FRAME)
    add("上周的退货率是多少？", LAST_WEEK, FRAME)
    add("嗯……2024年第四季度的利润呢？", whole(quarter(2024, 4)), FRAME + " (…)")
    add("请问 “Q3 2024” 的营收？", whole(quarter(2024, 3)), FRAME)
    add("昨天的客流；按门店拆分", YESTERDAY, FRAME + "; 按门店 is no step word")
    add("請問昨天一共賣了多少單？", YESTERDAY, f"{TRAD}; {FRAME}")
    add("幫我查一下國慶期間的銷量", GUOQING, f"{TRAD}; {HOLIDAY}")
    add("上个月的销量。", LAST_MONTH, FRAME + "; December 2025", at=NEWYEAR)
    add("请问最近三个月的GMV？", rolling(3, "month"), FRAME, at=LEAP)
    add("Show sales for last month.", LAST_MONTH, "SPEC §4.3 example; " + FRAME)
    add("Show sales for last month", LAST_MONTH, "the same without the full stop")
    add("Please show orders yesterday.", YESTERDAY, "SPEC §4.3 example; " + FRAME)
    add('"Q3 2024", thanks', whole(quarter(2024, 3)), "SPEC §4.3 example; " + FRAME)
    add("What were sales yesterday?", YESTERDAY, FRAME)
    add("Revenue last week!", LAST_WEEK, FRAME)
    add("Sales for March 2024.", whole(month(2024, 3)), FRAME)
    add("Revenue for 2024.", whole(year(2024)), FRAME + "; '2024.' is no date pattern")
    add("Orders on 3/15/2024.", whole(day(2024, 3, 15)), FRAME)
    add(
        "Hi, could you show me the revenue for last quarter? Thanks!",
        whole(last("quarter")),
        FRAME,
    )
    add('Show me "last month" sales, thanks.', LAST_MONTH, FRAME)
    add("(last week) orders", LAST_WEEK, FRAME)
    add("orders in 2024…", whole(year(2024)), FRAME + " (…)")
    add("Sales yesterday, please.", YESTERDAY, FRAME)
    add("Hmm, what about Q1 2024?", whole(quarter(2024, 1)), FRAME)
    add("'past 30 days' revenue, please", rolling(30, "day"), FRAME)
    add("[YTD] revenue", since(this("year")), FRAME + " (brackets)")
    add("Show sales for last month.", LAST_MONTH, FRAME + "; December 2025", at=NEWYEAR)
    add("Please show orders yesterday.", YESTERDAY, FRAME, at=NY_NOV)
    add("Orders since March 2024?", since(month(2024, 3)), FRAME)
    add("Show me sales yesterday; split by region.", YESTERDAY, FRAME)


def _plain_word(add: Family) -> None:
    add("昨天一共卖了多少单", YESTERDAY, "issue 28 example; " + PLAIN + " (一共)")
    add("2025年一共有多少订单", whole(year(2025)), f"{PLAIN} (一共); {FUTURE}")
    add("帮我查一下上个月的销量", LAST_MONTH, PLAIN + " (一下)")
    add(
        "把上个月和上上个月的数据一起导出", span(last("month", 2), last("month")), PLAIN + " (一起)"
    )
    add("按统一口径统计去年的营收", whole(last("year")), PLAIN + " (统一)")
    add("请核对上周的订单，万一有误请反馈", LAST_WEEK, PLAIN + " (万一)")
    add("上周的退货率一般是多少", LAST_WEEK, PLAIN + " (一般)")
    add("统一查一下最近三个月的订单", rolling(3, "month"), PLAIN + " (统一, 一下)")
    add("看一下一月的销量", whole(bare_month(1)), PLAIN + " (一下); 一月 is January")
    add("上个月一起下单的客户数", LAST_MONTH, PLAIN + " (一起; 下单 is no 下)")
    add("今天一共卖了多少", instant, PLAIN + " (一共); 今天 is the instant word (SPEC §4)")
    add("星期天超市上个月的销售额", LAST_MONTH, NAME + " (星期天超市)")
    add("今日头条上个月的广告收入", LAST_MONTH, NAME + " (今日头条)")
    add("今日頭條上個月的廣告收入", LAST_MONTH, f"{NAME} (今日頭條); {TRAD}")
    add("明日方舟去年的流水", whole(last("year")), NAME + " (明日方舟)")
    add("明日方舟2024年第三季度的流水", whole(quarter(2024, 3)), NAME + " (明日方舟)")
    add("星期天超市的销售额", nothing("a name only"), f"{NAME}; {NO_CUE}")
    add("今日头条的广告收入", nothing("a brand only"), f"{NAME}; {NO_CUE} (not the instant 今日)")
    add("明日方舟的流水", nothing("a brand only"), f"{NAME}; {NO_CUE}")
    add("一共有多少订单", nothing("no time cue"), f"{PLAIN}; {NO_CUE}")
    add("帮我统一看一下", nothing("no time cue"), f"{PLAIN}; {NO_CUE}")
    add("Show me one chart of sales last month", LAST_MONTH, "'one' attaches to no time word")
    add("Compare the two regions for last year", whole(last("year")), "'two' attaches to no unit")


def _no_such_date(add: Family) -> None:
    for query, why in (
        ("2025年2月29日的订单", "2025 is no leap year"),
        ("June 31 sales", "June has 30 days"),
        ("June 31, 2024 revenue", "June has 30 days"),
        ("Feb 20 - 29 2022 orders", "2022 is a common year"),
        ("June 10 - 31, 2022 sales", "June has 30 days (issue 28 example)"),
        ("2025-W53 orders", "2025 has 52 ISO weeks"),
        ("2025年第53周的销量", "2025 has 52 ISO weeks"),
        ("2012 80 10 revenue", "no month 80"),
        ("2024年4月31日的订单", "April has 30 days"),
        ("11月31号的销量", "November has 30 days"),
        ("2026-02-29 orders", "2026 is a common year"),
        ("9/31/2024 orders", "September has 30 days"),
        ("2024.2.30的订单", "February has no 30th"),
        ("2023年2月29號的訂單", "2023 is a common year; " + TRAD),
    ):
        add(query, nothing(why), NO_DATE)
    add("Feb 20 - 29 2024 orders", span(day(2024, 2, 20), day(2024, 2, 29)), "leap year: exists")
    add("June 10 - 30, 2022 sales", span(day(2022, 6, 10), day(2022, 6, 30)), "contrast: exists")
    add("2020-W53 orders", whole(iso_week(2020, 53)), "2020 has 53 ISO weeks")
    add("2026-W53 orders", whole(iso_week(2026, 53)), "2026 has 53 ISO weeks; " + FUTURE)
    add("2024年2月29日的订单", whole(day(2024, 2, 29)), "leap day: exists")


def _weekday_date(add: Family) -> None:
    for query, why in (
        ("Sun 15 Sep 2026 orders", "2026-09-15 is a Tuesday (SPEC example)"),
        ("2025年3月31日星期二的订单", "2025-03-31 is a Monday"),
        ("Monday, March 30, 2025 sales", "2025-03-30 is a Sunday"),
        ("2024年2月29日周五的销量", "2024-02-29 is a Thursday"),
        ("周五，2025年11月13日的销量", "2025-11-13 is a Thursday"),
        ("Thursday 2025-11-14 orders", "2025-11-14 is a Friday"),
        ("2025年3月31日禮拜二的訂單", "2025-03-31 is a Monday; " + TRAD),
    ):
        add(query, nothing(why), DISAGREE)
    add("2025年3月31日星期一的订单", whole(day(2025, 3, 31)), AGREE)
    add("2024年2月29日周四的销量", whole(day(2024, 2, 29)), AGREE)
    add("Tuesday, Sep 15, 2026 orders", whole(day(2026, 9, 15)), f"{AGREE}; {FUTURE}")
    add("Friday 2025-11-14 orders", whole(day(2025, 11, 14)), f"{AGREE}; {FUTURE}")


def _before_2000(add: Family) -> None:
    for query, why in (
        ("91年5月的销量", "91年 = 1991 (issue 28 example)"),
        ("Aug 9, 96 orders", "96 = 1996 (issue 28 example)"),
        ("1999年的营收", "1999"),
        ("99年的订单", "99年 = 1999"),
        ("1998-07-01 revenue", "1998"),
        ("revenue from 1999 to 2001", "the range starts in 1999"),
        ("orders since 1995", "since 1995"),
        ("50年3月的销量", "50年 = 1950"),
        ("九八年的销量", "spelled 九八年 = 1998"),
        ("revenue in 1999", "1999"),
        ("Q4 1999 sales", "1999"),
    ):
        add(query, nothing(why), PRE_2000)
    add("05年的订单", whole(year(2005)), "two-digit 05 → 2005 (SPEC §4.1)")
    add("08年3月的销量", whole(month(2008, 3)), "two-digit 08 → 2008 (SPEC §4.1)")
    add(
        "revenue in 2000",
        whole(year(2000)),
        "UTC: 2000-01-01T00:00Z is §5's lower bound exactly, so the year is valid",
        at=UTC_2000,
    )


def _sub_day(add: Family) -> None:
    for query in (
        "orders 2 hours ago",
        "half an hour from now",
        "3小时后的订单",
        "半小时前的订单量",
        "sales 30 minutes ago",
        "traffic in 2 hours",
        "1小时前的库存",
        "10分钟前的请求数",
        "三個小時後的訂單",
    ):
        add(query, nothing("a point in time"), SUB_DAY)
    add("昨天下午3点15分的订单", nothing("one clock time, no range"), SUB_DAY + " (3点15分 = 3:15)")
    add("最近3小时的订单", elapsed(180), RANGE_NOW)
    add("orders in the last 30 minutes", elapsed(30), RANGE_NOW + " (SPEC example)")
    add("过去半小时的请求数", elapsed(30), RANGE_NOW + " (SPEC example)")
    add("traffic over the past 2 hours", elapsed(120), RANGE_NOW)
    add("最近半小时的订单", elapsed(30), RANGE_NOW + " (最近 as 过去)")


def _within_n(add: Family) -> None:
    for query in (
        "五日内的订单",
        "5日之内的销量",
        "7天内的退货",
        "orders within 7 days",
        "refunds within 30 days",
        "3天之内的订单",
        "十天內的銷量",
    ):
        add(query, nothing("no direction"), NO_DIRECTION)
    add("近5日内的订单", rolling(5, "day"), BACK)
    add("最近7天内的退货", rolling(7, "day"), BACK)
    add("过去30天内的销量", rolling(30, "day"), BACK)
    add("orders within the last 7 days", rolling(7, "day"), BACK)
    add("sales within the past 30 days", rolling(30, "day"), BACK)
    add("最近7天内的退货", rolling(7, "day"), BACK + "; DST began on 03-09", at=NY_DST_MON)
    add("未来3天内的到货", ahead(3, "day"), FORWARD)
    add("接下来7天内的排班", ahead(7, "day"), FORWARD)
    add("deliveries within the next 7 days", ahead(7, "day"), FORWARD)
    add("未来5日内的预约", ahead(5, "day"), FORWARD + "; crosses the year end", at=DEC31)
    add("過去30天內的銷量", rolling(30, "day"), f"{BACK}; {TRAD}")


def _last_in(add: Family) -> None:
    for query in ("最后3天的销量", "最后一周的订单", "最后一个月的营收", "最后两周的客流"):
        add(query, nothing("no named period"), LAST_ALONE)
    add("最後3天的銷量", nothing("no named period"), f"{LAST_ALONE}; {TRAD}")
    add("3月最后一周的销量", whole(last_weeks_of(bare_month(3), 1)), LAST_WEEK_OUT)
    add("sales in the last week of July", whole(last_weeks_of(bare_month(7), 1)), LAST_WEEK_OUT)
    add("今年最后一个月的预算", whole(last_months_of(this("year"), 1)), f"{LAST_IN}; {FUTURE}")
    add("上个月最后3天的订单", whole(last_days_of(last("month"), 3)), LAST_IN)
    add("2024年最后一周的销量", whole(last_weeks_of(year(2024), 1)), LAST_WEEK_OUT)
    add("last 3 days of March 2024 orders", whole(last_days_of(month(2024, 3), 3)), LAST_IN)
    add("去年最后两个月的营收", whole(last_months_of(last("year"), 2)), LAST_IN)
    add("the last 2 weeks of 2024 revenue", whole(last_weeks_of(year(2024), 2)), LAST_WEEK_OUT)
    add("2025年2月最后一周的订单", whole(last_weeks_of(month(2025, 2), 1)), LAST_WEEK_OUT)
    add("本月最后一周的排班", whole(last_weeks_of(this("month"), 1)), f"{LAST_IN}; {FUTURE}")
    add("the last week of June 2024 sales", whole(last_weeks_of(month(2024, 6), 1)), LAST_IN)
    add("上季度最后一个月的销量", whole(last_months_of(last("quarter"), 1)), LAST_IN)
    add("the last month of Q3 2024 revenue", whole(last_months_of(quarter(2024, 3), 1)), LAST_IN)
    add(
        "2月最后3天的订单",
        whole(last_days_of(bare_month(2), 3)),
        LAST_IN + "; leap February",
        at=LEAP,
    )
    add("上個月最後3天的訂單", whole(last_days_of(last("month"), 3)), f"{LAST_IN}; {TRAD}")


def _read_as_one(add: Family) -> None:
    add("2022 11 23 orders", whole(day(2022, 11, 23)), ONE + " (issue 28 example)")
    add("sales 2014 12 28", whole(day(2014, 12, 28)), ONE + " (SPEC example)")
    add("2022 11 23的订单", whole(day(2022, 11, 23)), ONE)
    add("August-10-2012 revenue", whole(day(2012, 8, 10)), ONE + " (SPEC example)")
    add("10/August/2012 sales", whole(day(2012, 8, 10)), ONE + " (SPEC example)")
    add("2019-aug-01 orders", whole(day(2019, 8, 1)), ONE + " (SPEC example)")
    add("2019/aug/01 orders", whole(day(2019, 8, 1)), ONE + " (SPEC example)")
    add("Aug-10-2012 signups", whole(day(2012, 8, 10)), ONE)
    add("二零一六年，九月三号的销量", whole(day(2016, 9, 3)), ONE + " (SPEC example)")
    add("二零一六年，九月三號的銷量", whole(day(2016, 9, 3)), f"{ONE}; {TRAD}")
    add("q1-2019 revenue", whole(quarter(2019, 1)), ONE + " (SPEC example)")
    add("sales Q3-2024", whole(quarter(2024, 3)), ONE)
    add(
        "Q1 of 2017 - Q3 of 2018 revenue",
        span(quarter(2017, 1), quarter(2018, 3)),
        ONE + " (SPEC example)",
    )
    yesterday, today = last("day"), this("day")
    add("orders yesterday 2:00 to 2:30 pm", clock_range(yesterday, (14, 0), (14, 30)), ONE)
    add("orders yesterday from 11 to 1pm", hours(yesterday, 11, (13, 0)), ONE + ": 11:00–13:00")
    add("today 10 to 11am traffic", hours(today, 10, (11, 0)), ONE, at=NY_NOV)
    add(
        "昨天下午2点到4点的订单",
        hours(yesterday, 14, (16, 0)),
        ONE + " (下午 once, for both times)",
    )
    add(
        "昨天下午3点15分到5点的订单",
        clock_range(yesterday, (15, 15), (17, 0)),
        f"{ONE}: 3点15分 = 3:15 (issue 28 example); {MINUTE_START}",
    )
    add(
        "昨天下午3点15到5点的订单",
        clock_range(yesterday, (15, 15), (17, 0)),
        f"3点15 = 3:15; {MINUTE_START}",
    )
    add("昨天下午2点到2点30分的客流", clock_range(yesterday, (14, 0), (14, 30)), ONE)
    add("上周末的销量", whole(weekend(1)), WEEKEND)
    add("本周末的客流", whole(weekend(0)), f"{WEEKEND_V3}; {FUTURE}")
    add("下周末的排班", whole(weekend(-1)), WEEKEND)
    add("上週末的銷量", whole(weekend(1)), f"{WEEKEND}; {TRAD}")
    add("sales last weekend", whole(weekend(1)), WEEKEND_V3)
    add("this weekend's bookings", whole(weekend(0)), f"{WEEKEND}; {FUTURE}")
    add("next weekend staffing", whole(weekend(-1)), WEEKEND)
    add("本周末的客流", whole(weekend(0)), WEEKEND + "; a Saturday: today is inside it", at=SAT_NOV)
    add("sales last weekend", whole(weekend(1)), WEEKEND + "; a Saturday", at=SAT_NOV)
    add("本週末的訂單", whole(weekend(0)), f"{WEEKEND}; {TRAD}; a Sunday evening", at=SUN_NOV)
    add("上周末的客流", whole(weekend(1)), WEEKEND + "; Sun 10-26 has 25 hours", at=BER_OCT)
    add("下周末的排班", whole(weekend(-1)), WEEKEND + "; across the year end", at=DEC31)
    add("上个自然月的销量", LAST_MONTH, ONE + ": 上个自然月 = 上个月")
    add("上个自然月的订单", LAST_MONTH, ONE + ": December 2024", at=JAN3)
    add("last calendar month revenue", LAST_MONTH, ONE + ": calendar month = month")
    add("上個自然月的銷量", LAST_MONTH, f"{ONE}; {TRAD}")
    ytd = start_to_end(this("year"), yesterday, "day")
    add("今年以来截至昨天的销量", ytd, f"SPEC §4.3: start of year .. end of yesterday; {YTD_STEP}")
    add("so far this year up to yesterday", ytd, f"SPEC §4.3; {YTD_STEP}")
    add("今年以来截至昨天的订单", ytd, f"SPEC §4.3; {YTD_STEP}", at=LEAP)
    add("2022年首季度的营收", whole(quarter(2022, 1)), ONE + ": 首季度 = 第一季度 (issue 28)")
    add("2024年首季度的销量", whole(quarter(2024, 1)), ONE + ": 首季度 = 第一季度")
    for query, why in (
        ("二零二二年伊始的销量", "伊始 (SPEC example)"),
        ("2024年伊始的订单", "伊始"),
        ("今年伊始的客流", "伊始"),
        ("昨天黎明的订单", "黎明 (SPEC example)"),
        ("昨天凌晨的销量", "凌晨"),
        ("昨天傍晚的客流", "傍晚"),
        ("今天清晨的订单", "清晨"),
        ("前天傍晚的退货", "傍晚"),
        ("earth day 2010 traffic", "a holiday the tables do not hold (SPEC example)"),
        ("sales till the seventeenth", "till X is open (SPEC §4.2 until X)"),
    ):
        add(query, nothing(why), TIME_LIKE)
    add("saint patrick 2020 sales", whole(day(2020, 3, 17)), ONE + ": St Patrick's Day 2020")
    add("saint patrick's day 2021 orders", whole(day(2021, 3, 17)), "St Patrick's Day (SPEC §4.2)")
    add(
        "from april the ninth till the seventeenth",
        span(month_day(4, 9), month_day(4, 17)),
        f"SPEC §4.3: till the seventeenth is the range's end (issue 28 example); {BARE}",
    )
    add(
        "sales between 3 and 5 on 1/1/2015",
        nothing("bare hours"),
        "issue 28 example; SPEC §4.2: bare hours without am/pm or a clock word are ambiguous",
    )
    add("today so far", since(this("day")), "SPEC §4.3: today 00:00 .. now, step day")
    add("orders today so far", since(this("day")), "SPEC §4.3 so far", at=NY_NOV)
    add("orders today", instant, "contrast: today alone is the instant word (SPEC §4)")


def _exclusion(add: Family) -> None:
    seven = whole(whole_days_before_today(7))
    add("last 7 days excluding today", seven, EXCL + " (SPEC example)")
    add("最近7天（不含今天）的订单", seven, EXCL)
    add("最近7天不含今天的销量", seven, EXCL)
    add("不包括今天的最近7天的订单", seven, f"{EXCL}; {NOT_SAID}")
    add("past 30 days, not counting today", whole(whole_days_before_today(30)), EXCL)
    add("revenue for the past 7 days excluding today", seven, EXCL)
    add("last 14 days excluding today", whole(whole_days_before_today(14)), EXCL, at=NEWYEAR)
    add("最近3天，不含今天", whole(whole_days_before_today(3)), EXCL + "; leap day", at=LEAP)
    add("过去7天不含今天的访问量", seven, EXCL + "; DST began on 03-09", at=NY_DST_MON)
    add("最近7天（不含今天）的訂單", seven, f"{EXCL}; {TRAD}")
    add("Last 7 days excluding today, please.", seven, f"{EXCL}; {FRAME}")
    for query, why in (
        ("除了上个月的销量", "除了 X (SPEC example)"),
        ("不是上个月的订单", "不是 X (SPEC example)"),
        ("revenue excluding last month", "excluding X (SPEC example)"),
        ("除了周末的客流", "除了周末 (SPEC example)"),
        ("sales except holidays", "except holidays (SPEC example)"),
        ("去年除了周末的销量", "a window with 除了周末"),
        ("sales last year except holidays", "a window with except holidays"),
        ("最近3个月不含上个月的订单", "不含 a period other than today"),
        ("最近7天不含周末的销量", "不含周末"),
        ("last 30 days excluding weekends", "excluding weekends"),
        ("orders not counting last week", "not counting X"),
        ("除了上個月的銷量", "除了 X; " + TRAD),
    ):
        add(query, nothing(why), NEGATION)


def _numbers(add: Family) -> None:
    add("orders 1,500 days ago", ago(1500, "day"), WHOLE_NUMBER + ": 1,500 is 1500 (SPEC example)")
    add("1,500天前的订单", ago(1500, "day"), WHOLE_NUMBER)
    add("revenue over the past 1,000 days", rolling(1000, "day"), WHOLE_NUMBER)
    add("最近1,000天的销量", rolling(1000, "day"), WHOLE_NUMBER)
    add("2,000 days ago orders", ago(2000, "day"), WHOLE_NUMBER)
    for query in (
        "orders 1 500 days ago",
        "orders 1_500 days ago",
        "sales 1e3 days ago",
        "sales 10^400 days ago",
        "revenue 0x10 days ago",
        "1e3天前的订单",
        "0x10天前的销量",
        "最近1 500天的订单",
        "最近1_500天的销量",
    ):
        add(query, nothing("a number not read whole"), NO_PART)
    add("orders 12,000 days ago", nothing("1993-01-05"), PRE_2000 + "; 12,000 read whole")
    add("大大前天的订单", whole(last("day", 4)), "SPEC §4.3: 大大前天 is four days ago")
    add("大大前天的销量", whole(last("day", 4)), "four days ago: 2025-12-28", at=NEWYEAR)
    add("大前天的订单", whole(last("day", 3)), "contrast: 大前天 is three days ago (SPEC §4.2)")
    add("上个月的上个月的销量", nothing("上个月的上个月"), UNDECLARED + " (SPEC example)")
    add("去年的去年的营收", nothing("去年的去年"), UNDECLARED)
    add("上個月的上個月的銷量", nothing("上個月的上個月"), f"{UNDECLARED}; {TRAD}")


def _zone_text(add: Family) -> None:
    add("昨天（北京时间）的销量", YESTERDAY, ZONE + " (SPEC example)", at=UTC_EVE, zone=SHANGHAI)
    add("昨天（北京时间）的订单", YESTERDAY, "the request's zone is the same", zone=SHANGHAI)
    add(
        "请问昨天（北京时间）一共卖了多少单？",
        YESTERDAY,
        f"{ZONE}; {FRAME}; {PLAIN} (一共)",
        at=UTC_EVE,
        zone=SHANGHAI,
    )
    add("yesterday (New York time) orders", YESTERDAY, ZONE + " (SPEC example)", zone=NEW_YORK)
    add(
        "yesterday UTC+8 revenue",
        YESTERDAY,
        ZONE + "; UTC+8 = Etc/GMT-8",
        at=UTC_EVE,
        zone="Etc/GMT-8",
    )
    add("昨天 UTC+8 的订单", YESTERDAY, ZONE + "; UTC+8 = Etc/GMT-8", at=UTC_EVE, zone="Etc/GMT-8")
    add(
        "yesterday 9am to 5pm EST orders",
        hours(last("day"), 9, (17, 0)),
        ZONE + "; EST = UTC−05:00 (New York in November gives the same)",
        at=Clock(NY_NOV.now_ms, NOV.tz),
        zone="EST",
    )
    add("sales yesterday EST", YESTERDAY, ZONE + "; EST = UTC−05:00", at=UTC_EVE, zone="EST")
    add(
        "上个月（纽约时间）的营收",
        LAST_MONTH,
        ZONE + "; New York is still in November",
        at=DEC1,
        zone=NEW_YORK,
    )
    add(
        "last month (Tokyo time) sales",
        LAST_MONTH,
        ZONE + "; Tokyo is in December",
        at=NOV30,
        zone="Asia/Tokyo",
    )
    add(
        "yesterday (UTC+05:30) signups",
        YESTERDAY,
        ZONE + "; " + OFFSET_ZONE.format("Asia/Kolkata"),
        at=UTC_EVE,
        zone="Asia/Kolkata",
    )
    add(
        "yesterday GMT+5:45 orders",
        YESTERDAY,
        ZONE + "; " + OFFSET_ZONE.format("Asia/Kathmandu"),
        at=UTC_EVE,
        zone="Asia/Kathmandu",
    )
    add("昨天（UTC-5）的订单", YESTERDAY, ZONE + "; UTC-5 = Etc/GMT+5", zone="Etc/GMT+5")
    add(
        "yesterday 3pm to 5pm Beijing time",
        hours(last("day"), 15, (17, 0)),
        ZONE,
        at=UTC_EVE,
        zone=SHANGHAI,
    )
    add(
        "昨天北京时间下午3点到5点的订单",
        hours(last("day"), 15, (17, 0)),
        ZONE,
        at=UTC_EVE,
        zone=SHANGHAI,
    )
    add("昨天（東京時間）的銷量", YESTERDAY, f"{ZONE}; {TRAD}", at=UTC_EVE, zone="Asia/Tokyo")
    for query in (
        "昨天（火星时间）的销量",
        "yesterday (Mars time) orders",
        "sales yesterday in Atlantis time",
        "上个月（中土世界时间）的订单",
        "yesterday UTC+15 revenue",
    ):
        add(query, nothing("an unknown zone"), UNKNOWN_ZONE, at=UTC_EVE)


def _festival_holiday(add: Family) -> None:
    add("国庆期间的销量", GUOQING, HOLIDAY + "; 2025: 10/1–10/8")
    add("国庆假期的客流", GUOQING, HOLIDAY + "; 2024: 10/1–10/7; " + FUTURE, at=OCT24)
    add(
        "2023年国庆黄金周的订单", whole(official_holiday("国庆", 2023)), HOLIDAY + " (SPEC example)"
    )
    add("2025年国庆假期的销量", whole(official_holiday("国庆", 2025)), HOLIDAY + " (SPEC example)")
    add("2024年春节假期的客流", whole(official_holiday("春节", 2024)), HOLIDAY + ": 2/10–2/17")
    add("2025年春节期间的订单", whole(official_holiday("春节", 2025)), HOLIDAY + ": 1/28–2/4")
    add("2023年春节长假的销量", whole(official_holiday("春节", 2023)), HOLIDAY + ": 1/21–1/27")
    add(
        "春节期间的客流",
        whole(bare_official_holiday("春节")),
        HOLIDAY + "; 2025's run (from 01-28) has not started → 2024's",
        at=JAN20,
    )
    add("2023年五一假期的订单", whole(official_holiday("劳动节", 2023)), HOLIDAY + ": 4/29–5/3")
    add("2024年五一放假期间的销量", whole(official_holiday("劳动节", 2024)), HOLIDAY + ": 5/1–5/5")
    add(
        "2024年中秋假期的订单",
        whole(official_holiday("中秋", 2024)),
        HOLIDAY + ": 9/15–9/17 (every festival with 假期; the fixed rule is for unknown years)",
    )
    add("2024年端午假期的销量", whole(official_holiday("端午", 2024)), HOLIDAY + ": 6/8–6/10")
    add(
        "2025年中秋假期的客流",
        whole(official_holiday("中秋", 2025)),
        HOLIDAY + ": 中秋 (10-06) lies inside the 国庆 run 10/1–10/8",
    )
    add(
        "2024年元旦假期的订单",
        whole(official_holiday("元旦", 2024)),
        HOLIDAY + ": 2023-12-30 .. 2024-01-01 (the run holding the day)",
    )
    add(
        "2030年国庆假期的销量",
        whole(official_holiday("国庆", 2030)),
        "SPEC §4.1: a year no calendar knows → the fixed rule 10/1–10/7 (and a warning); " + FUTURE,
    )
    add("國慶長假的客流", GUOQING, f"{HOLIDAY}; {TRAD}")
    add("国庆期间的销量", GUOQING, HOLIDAY + "; 2025's run", at=DEC20)
    add("国庆的销量", whole(day(2025, 10, 1)), "contrast: 国庆 alone is the day 10/1 (SPEC §4.1)")


FAMILIES: list[tuple[str, Clock, Callable[[Family], None]]] = [
    ("framing", NOV, _framing),
    ("plain_word", NOV, _plain_word),
    ("no_such_date", NOV, _no_such_date),
    ("weekday_date", NOV, _weekday_date),
    ("before_2000", NOV, _before_2000),
    ("sub_day", NOV, _sub_day),
    ("within_n", NOV, _within_n),
    ("last_in", NOV, _last_in),
    ("read_as_one", NOV, _read_as_one),
    ("exclusion", NOV, _exclusion),
    ("numbers", NOV, _numbers),
    ("zone_text", NOV, _zone_text),
    ("festival_holiday", NOV, _festival_holiday),
]


def time_cases_v4() -> list[TimeCase]:
    """Every case of time_gold_v4.jsonl, family by family."""
    cases: list[TimeCase] = []
    for name, clock, build in FAMILIES:
        build(Family(cases, name, clock))
    return cases


def time_rows_v4() -> list[Params]:
    """The JSON objects, numbered per language and family (`en-framing-003`)."""
    return numbered(time_cases_v4())
