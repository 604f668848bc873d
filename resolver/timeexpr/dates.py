"""Builders of calendar phrases: years, months, days, quarters, weeks, halves, dekads,
weekdays, holidays, clock times, numeric dates — each turns a `Found` into an `Atom`."""

from __future__ import annotations

from datetime import date

from resolver.timeexpr.atoms import (
    Atom,
    ClockTime,
    partial,
    period,
)
from resolver.timeexpr.found import (
    CLASS_NAME,
    Found,
    Impossible,
    count,
    day_of,
    month_of,
    quarter_month,
    sure_date,
    unit_of,
    year_of,
)
from resolver.timeexpr.partials import (
    DayOfMonth,
    Dekad,
    HalfMonth,
    Holiday,
    InYear,
    LastN,
    LastWeek,
    NthWeekday,
    Weekday,
)
from resolver.timeexpr.terms import Absolute, Relative


def year(found: Found) -> Atom | None:
    """2024年, 二〇二四年, 24年 (before a part), 2024, the year 2008."""
    value = year_of(found.need("y"))
    if value is None:
        return None
    return period("year", Absolute("year", date(value, 1, 1)))


def month(found: Found) -> Atom | None:
    """3月, 十二月, March: a month of a year still to be named."""
    last = found.tok("m2")
    return partial(
        InYear("month", month_of(found.need("m")), last_month=month_of(last) if last else 0)
    )


def month_day(found: Found) -> Atom | None:
    """3月15日, 八月十五, Oct 2, October 1st, 2nd of August, 3/15: a day of a year."""
    month_number = month_of(found.need("m"))
    day = day_of(found.need("d"))
    date(2000, month_number, day)  # the longest month of that name: no 2月30日
    last = found.tok("d2")
    return partial(InYear("day", month_number, day, last_day=day_of(last) if last else 0))


def dated_day(found: Found) -> Atom | None:
    """2024-03-15, 2024/3/15, 20240315, 3/15/2024, 05-Aug-2016: one day."""
    if found.has("c"):
        value = found.number("c")
        first = date(value // 10000, value // 100 % 100, value % 100)
    else:
        year_value = year_of(found.need("y"))
        if year_value is None:
            return None
        first = sure_date(year_value, month_of(found.need("m")), day_of(found.need("d")))
    return period("day", Absolute("day", first))


def dated_day_yy(found: Found) -> Atom | None:
    """9-18-15, 3/7/07: month first, a two-digit year (00–49 → 20YY; 50–99 is 19YY, before
    2000: nothing). A one-digit year (3-7-7) is none."""
    year_token = found.need("y")
    if year_token.end - year_token.start != 2:
        return None
    return dated_day(found)


def dated_month(found: Found) -> Atom | None:
    """2024-03, 2024/3, 12-2015, Dec-2018: one month."""
    year_value = year_of(found.need("y"))
    if year_value is None:
        return None
    return period("month", Absolute("month", date(year_value, month_of(found.need("m")), 1)))


def day_of_month(found: Found) -> Atom | None:
    """15号, 15日, the 15th, 1到5号: a day (or days) of a month still to be named."""
    last = found.tok("d2")
    return partial(DayOfMonth(day_of(found.need("d")), last_day=day_of(last) if last else 0))


def weekday_day_number(found: Found) -> Atom | None:
    """Monday 21, Friday the fifteen: the bare day beside its weekday. A number up to 12
    without "the" may be an hour (meet Monday 9): refused, and then nothing settles."""
    if not found.has("the") and day_of(found.need("d")) <= 12:
        return None
    return day_of_month(found)


def day_number(found: Found) -> Atom | None:
    """A bare day number after a range word (April 9th through 17th): only a range's end."""
    day = day_of(found.need("d"))
    return Atom("day_number", "day", partial=DayOfMonth(day))


def quarter(found: Found) -> Atom | None:
    """第一季度, 三季度, Q1, the first quarter, 1-3季度."""
    last = found.tok("q2")
    return partial(
        InYear(
            "quarter",
            quarter_month(found.need("q")),
            last_month=quarter_month(last) if last else 0,
        )
    )


def half_year(found: Found) -> Atom | None:
    """上半年, 下半年, H1, the second half: six months of a year."""
    which = found.need("h").value  # h1, second, 上半 (1) / 下半 (2)
    if which not in (1, 2):
        return None
    first = 1 if which == 1 else 7
    return partial(InYear("month", first, last_month=first + 5))


def half_month(found: Found) -> Atom:
    """上半月/下半月: days 1–15 / 16–last of a month."""
    return partial(HalfMonth(second=found.need("h").value == 2))


def week_number(found: Found) -> Atom | None:
    """第10周, week 10, W10, the first week (of 2021): an ISO week of a year."""
    number = count(found.need("w"))
    if number is None or not 1 <= number <= 53:
        return None
    return partial(InYear("week", 0, number))


def dekad(found: Found) -> Atom:
    """上旬/中旬/下旬, early/mid/late (of a month): days 1–10, 11–20, 21–last."""
    third = {"ZH_LAST": 0, "ZH_MID": 1, "ZH_NEXT": 2}[found.text("x")]
    return partial(Dekad(third))


def nth_weekday(found: Found) -> Atom | None:
    """十月第一个星期一, 四月的最后一个星期一: the Nth or last weekday of the month before it."""
    number = -1 if found.has("last") else count(found.tok("n"))
    if number is None or not (number == -1 or 1 <= number <= 5):
        return None
    if found.has("last") and found.has("n1") and count(found.tok("n1")) != 1:
        return None  # 最后两个星期一: not one day
    return partial(NthWeekday(number, found.number("wd")))


def weekday(found: Found) -> Atom:
    """周五, Friday, this/last/next/coming Friday."""
    part = Weekday(found.number("wd"))
    which = found.tok("k")
    if which is None:
        return partial(part)
    name = CLASS_NAME[which.code]
    if name == "COMING" or found.has("k2"):
        return partial(part, place="upcoming")
    offset = {"LAST": -1, "PREVIOUS": -1, "NEXT": 1}.get(name, 0)
    return partial(part, Relative(offset, "week", "week"))


def recent_weekday(found: Found) -> Atom:
    """this past Wednesday: the last Wednesday before today (peers' majority, SPEC §4.3)."""
    return partial(Weekday(found.number("wd")), place="recent")


def month_name_relative(found: Found) -> Atom | None:
    """last March (the most recent March before this month), this March, next March."""
    month_number = month_of(found.need("m"))
    which = found.text("k")
    part = InYear("month", month_number)
    if which == "THIS":
        return partial(part, Relative(0, "year", "year"))
    return partial(part, place="next" if which in ("NEXT", "COMING") else "previous")


def holiday(found: Found) -> Atom | None:
    """春节, 国庆黄金周, Christmas, 618: a holiday (its public holiday with 期间/假期)."""
    key = found.word("h") if found.text("h") == "HOLIDAY" else "618"
    span = found.tok("s")
    if span is not None and span.value not in ("span", "off"):
        return None  # 双十一五四: another day's name, not the holiday's 期间/假期
    return partial(Holiday(key, span=span is not None))


def clock(found: Found) -> Atom | None:
    """9am, 15:00, 下午3点, 8 o'clock, 3点半: a time of day (read only inside an hour range)."""
    hour = count(found.need("h"))
    if hour is None or not 0 <= hour <= 24:
        return None
    minute = 0
    minute_token = found.tok("min")
    if minute_token is not None:
        minute = count(minute_token) or 0
    elif found.has("half"):
        minute = 30
    elif (quarter_token := found.tok("ke")) is not None:
        minute = 15 * (count(quarter_token) or 0)
    if not 0 <= minute <= 59:
        return None
    meridiem = found.tok("ampm")
    part = found.tok("part")
    written = ClockTime(
        hour,
        minute,
        None if meridiem is None else str(meridiem.value),
        None if part is None else str(part.value),
        found.has("oc") or found.has("colon"),
    )
    if meridiem is not None and not 1 <= hour <= 12:
        return None
    return Atom("clock", "day", clock=written)


_NOON = {"noon": 12, "midnight": 24, "中午": 12, "午夜": 24}


def noon(found: Found) -> Atom | None:
    """noon, midnight (the end of an hour range: from 10am to noon)."""
    word = str(found.need("w").value)
    if word not in _NOON:
        return None
    return Atom("clock", "day", clock=ClockTime(_NOON[word], 0, None, word, clock_word=True))


def step_word(found: Found) -> Atom | None:
    """日趋势, 月趋势, 季度趋势: a step word made of a unit and a trend word."""
    return Atom("step", unit_of(found.need("u")))


def compare(found: Found) -> Atom | None:
    """同比去年, 环比上月, 同比去年同期, vs last year: a comparison phrase (no window)."""
    vague = found.tok("v")
    if vague is not None and vague.value != "compared":
        return None  # 环比一段时间: 一段时间 is no period a comparison names
    return Atom("compare", None)


def year_named(found: Found) -> Atom | None:
    """the year 2008, calendar year 2008, year 2008."""
    return year(found)


def plural(found: Found) -> bool:
    """the 13 last minutes, two upcoming weeks: a count before last/next needs a plural."""
    word = found.need("u").value
    number = count(found.tok("n"))
    return isinstance(word, str) and word.endswith("s") and number is not None and number > 1


def day_of_relative_month(found: Found) -> Atom | None:
    """the 20th of next month, 20 of this month, the 20th of the previous month."""
    which = found.need("k")
    name = CLASS_NAME[which.code]
    if name == "NOW" and which.value != "current":
        return None
    offset = {"NEXT": 1, "COMING": 1, "LAST": -1, "PREVIOUS": -1}.get(name, 0)
    return partial(DayOfMonth(day_of(found.need("d"))), Relative(offset, "month", "month"))


def iso_week(found: Found) -> Atom | None:
    year_value = year_of(found.need("y"))
    number = found.need("w").value
    if year_value is None or not isinstance(number, int) or not 1 <= number <= 53:
        return None
    try:
        first = date.fromisocalendar(year_value, number, 1)
    except ValueError as error:  # no week 53 that year
        raise Impossible(str(error)) from error
    return period("week", Absolute("week", first))


def year_quarter(found: Found) -> Atom | None:
    year_value = year_of(found.need("y"))
    if year_value is None:
        return None
    first = date(year_value, quarter_month(found.need("q")), 1)
    return period("quarter", Absolute("quarter", first))


def dekad_word(found: Found) -> Atom:
    word = CLASS_NAME[found.need("x").code]
    return partial(Dekad({"EARLY": 0, "MID": 1, "LATE": 2}[word]))


def year_half(found: Found) -> Atom | None:
    """2019-H2, 2024 H1: a half of a named year (months 1–6 or 7–12), step month."""
    year_value = year_of(found.need("y"))
    half = found.number("h")
    if year_value is None or half not in (1, 2):
        return None
    first = date(year_value, 6 * half - 5, 1)
    return period(
        "month", Absolute("month", first), Absolute("month", date(year_value, 6 * half, 1))
    )


def last_week_of_month(found: Found) -> Atom:
    """the last week of July, 3月最后一周: placed in the month written beside it."""
    return partial(LastWeek("month"))


def last_week_of_year(found: Found) -> Atom:
    """the last week of 2016, 今年最后一周: placed in the year written beside it."""
    return partial(LastWeek("year"))


def last_n(found: Found) -> Atom | None:
    """今年最后一个月, 上个月最后3天, the last 3 days of March 2024: placed in the period written
    beside it (the phrases require one)."""
    number = count(found.need("n")) if found.has("n") else 1  # the last month of Q3
    unit = unit_of(found.need("u"))
    if not number or unit not in ("day", "week", "month", "quarter"):
        return None  # weeks and months are placed in the period the containers find
    return partial(LastN(number, unit, "month" if unit in ("day", "week") else "year"))
