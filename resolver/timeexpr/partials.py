"""Partials: periods that need a container to be placed (3月 needs a year, 周五 a week).

A partial is placed in a container period: a year (3月, Q1, 春节, 前三季度), an ISO year
(第10周), a month (15日, 上旬, 上半月) or a week (周五). The container comes from the text
(2024年3月, 上周五, 上个月下旬), from the other end of a range or list (2024年3月和4月), or,
for a partial alone, from now: the current container if the partial has started there, else
the previous one (SPEC §4: a bare month is this year's, or last year's if not started yet);
the upcoming one for future words (the coming Friday, next March).

Placing needs the clock only through the container's first day: a reading (the text) holds
partials, an evaluation (the text at a clock) places them.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Literal, NamedTuple

from resolver.timeexpr.calendar import days_in_month
from resolver.timeexpr.holidays import holiday_days
from resolver.timeexpr.result import Step
from resolver.timeexpr.terms import Absolute

Container = Literal["year", "isoyear", "quarter", "month", "week"]
Placed = tuple[Absolute, Absolute | None]


class InYear(NamedTuple):
    """3月, Q1, 第10周 (day = ISO week), 3月15日, 1-3月, 上半年 (month spans), 3月1-15日."""

    unit: Step
    month: int
    day: int = 0  # day of month for days, ISO week number for weeks
    last_month: int = 0  # spans of months or quarters: the first month of the last one
    last_day: int = 0  # spans of days in one month

    @property
    def container(self) -> Container:
        """What this partial is placed in."""
        return "isoyear" if self.unit == "week" else "year"

    def place(self, first: date) -> Placed:
        """Return its first (and for spans last) period in the container starting on `first`."""
        if self.unit == "week":
            year = first.isocalendar().year
            return Absolute("week", date.fromisocalendar(year, self.day, 1)), None
        year = first.year
        if self.unit == "day":
            start = Absolute("day", date(year, self.month, self.day))
            if not self.last_day:
                return start, None
            if self.last_day < self.day:
                raise ValueError("a span of days that runs backwards")
            return start, Absolute("day", date(year, self.month, self.last_day))
        start = Absolute(self.unit, date(year, self.month, 1))
        if not self.last_month:
            return start, None
        # 11月到2月, 第四至第一季度: the span runs into the next year.
        last_year = year + 1 if self.last_month < self.month else year
        return start, Absolute(self.unit, date(last_year, self.last_month, 1))


class FirstN(NamedTuple):
    """前三季度, 前两个月 of a year, 前10天 of a month: the first N units of the container."""

    n: int
    unit: Step
    container: Container

    def place(self, first: date) -> Placed:
        """Return the first and the Nth unit of the container starting on `first`."""
        if self.unit == "week":  # 2021年的前2周: ISO weeks 1..N of the year's ISO year
            if self.container != "isoyear" or self.n > 52:
                raise ValueError("the first weeks of a year only")
            nth = Absolute("week", first + timedelta(weeks=self.n - 1))
            return Absolute("week", first), nth if self.n > 1 else None
        if self.unit == "day":
            if self.container == "year":
                days = (date(first.year + 1, 1, 1) - first).days
            else:
                days = days_in_month(first.year, first.month)
            if self.n > days:
                raise ValueError("more days than the container has")
            return Absolute("day", first), Absolute("day", first + timedelta(self.n - 1))
        per = {"month": 1, "quarter": 3}[self.unit]
        if per * self.n > 12:
            raise ValueError("more than a year")
        last = date(first.year, per * (self.n - 1) + 1, 1)
        return Absolute(self.unit, first), Absolute(self.unit, last)


class LastN(NamedTuple):
    """今年最后一个月, 上个月最后3天, 上季度最后一个月, the last 3 days of March 2024: the last N
    units of the container (SPEC §4.3; alone, 最后N天 settles nothing)."""

    n: int
    unit: Step
    container: Container

    def place(self, first: date) -> Placed:
        """Return the first and the last of the last N units of the container."""
        end = container_last(self.container, first)
        if self.unit == "day":
            if self.n > (end - first).days + 1:
                raise ValueError("more days than the container has")
            last_day = Absolute("day", end)
            return Absolute("day", end - timedelta(self.n - 1)), last_day if self.n > 1 else None
        if self.unit == "week":  # weeks Monday to Sunday, the last holding the period's last day
            last_week = end - timedelta(days=end.weekday())
            first_week = last_week - timedelta(weeks=self.n - 1)
            if self.container in ("week", "isoyear") or first_week + timedelta(days=6) < first:
                raise ValueError("more weeks than the container touches")
            last = Absolute("week", last_week)
            return Absolute("week", first_week), last if self.n > 1 else None
        per = {"month": 1, "quarter": 3}[self.unit]
        months = (end.year - first.year) * 12 + end.month - first.month + 1
        if self.container in ("week", "isoyear") or per * self.n > months:
            raise ValueError("more units than the container has")
        start = Absolute(self.unit, next_container("month", first, months - per * self.n))
        last = Absolute(self.unit, next_container("month", first, months - per))
        return start, last if self.n > 1 else None


class Holiday(NamedTuple):
    """春节, 国庆黄金周, Christmas, Thanksgiving: a day (or a public holiday's days) of a year."""

    key: str
    span: bool  # with 期间/假期/黄金周/长假: the public holiday's days
    unit: Step = "day"
    container: Container = "year"

    def place(self, first: date) -> Placed:
        """Return the holiday's day, or the first and last day of its public holiday."""
        start, last = holiday_days(self.key, first.year, span=self.span)
        return Absolute("day", start), (Absolute("day", last) if last != start else None)


class DayOfMonth(NamedTuple):
    """15号, the 15th, the 27th (to the 3rd of April): a day of a month."""

    day: int
    unit: Step = "day"
    container: Container = "month"
    last_day: int = 0  # 1到5号: a span of days of one month

    def place(self, first: date) -> Placed:
        """Return that day (or span of days) of the month starting on `first`."""
        start = Absolute("day", first.replace(day=self.day))
        if not self.last_day:
            return start, None
        if self.last_day < self.day:
            raise ValueError("a span of days that runs backwards")
        return start, Absolute("day", first.replace(day=self.last_day))


class Dekad(NamedTuple):
    """上旬/中旬/下旬, early/mid/late March: days 1–10, 11–20, 21–last of a month."""

    third: int  # 0, 1, 2
    unit: Step = "day"
    container: Container = "month"

    def place(self, first: date) -> Placed:
        """Return the first and last day of the dekad in the month starting on `first`."""
        start = first.replace(day=1 + 10 * self.third)
        end = days_in_month(first.year, first.month) if self.third == 2 else 10 * (self.third + 1)
        return Absolute("day", start), Absolute("day", first.replace(day=end))


class HalfMonth(NamedTuple):
    """上半月/下半月: days 1–15 / 16–last of a month."""

    second: bool
    unit: Step = "day"
    container: Container = "month"

    def place(self, first: date) -> Placed:
        """Return the first and last day of the half in the month starting on `first`."""
        if not self.second:
            return Absolute("day", first), Absolute("day", first.replace(day=15))
        end = days_in_month(first.year, first.month)
        return Absolute("day", first.replace(day=16)), Absolute("day", first.replace(day=end))


class Weekday(NamedTuple):
    """周五, Friday: a day of a week (Monday is 0)."""

    weekday: int
    unit: Step = "day"
    container: Container = "week"

    def place(self, first: date) -> Placed:
        """Return that day of the week starting on Monday `first`."""
        return Absolute("day", first + timedelta(days=self.weekday)), None


class NthWeekday(NamedTuple):
    """十月第一个星期一, 四月的最后一个星期一: the Nth (or, n = -1, the last) weekday of a month
    (Duckling and Recognizers-Text read it; SPEC §4.3's peers' majority)."""

    n: int
    weekday: int  # Monday is 0
    unit: Step = "day"
    container: Container = "month"

    def place(self, first: date) -> Placed:
        """Return that day of the month starting on `first` (ValueError: no such day)."""
        last = container_last("month", first)
        if self.n < 0:
            day = last - timedelta(days=(last.weekday() - self.weekday) % 7)
        else:
            day = first + timedelta(days=(self.weekday - first.weekday()) % 7 + 7 * (self.n - 1))
        if not first <= day <= last:
            raise ValueError("no such weekday in the month")
        return Absolute("day", day), None


class Weekend(NamedTuple):
    """上周末, this weekend: Saturday 00:00 .. Sunday 23:59:59.999 of a week (SPEC §4.3)."""

    unit: Step = "day"
    container: Container = "week"

    def place(self, first: date) -> Placed:
        """Return the Saturday and Sunday of the week starting on Monday `first`."""
        return (
            Absolute("day", first + timedelta(days=5)),
            Absolute("day", first + timedelta(days=6)),
        )


class LastWeek(NamedTuple):
    """the last week of July, 3月最后一周, 今年最后一周: the ISO week (Monday to Sunday) holding
    the container period's last day (SPEC §4.3)."""

    container: Container  # "month", "quarter" or "year"
    unit: Step = "week"

    def place(self, first: date) -> Placed:
        """Return the week holding the last day of the period starting on `first`."""
        if self.container in ("week", "isoyear"):
            raise ValueError("no last week of a week")
        last = container_last(self.container, first)
        return Absolute("week", last - timedelta(days=last.weekday())), None


Partial = (
    InYear
    | FirstN
    | LastN
    | Holiday
    | DayOfMonth
    | Dekad
    | HalfMonth
    | Weekday
    | NthWeekday
    | Weekend
    | LastWeek
)


def container_first(container: Container, day: date) -> date:
    """Return the first day of the container period holding `day`."""
    if container == "year":
        return date(day.year, 1, 1)
    if container == "isoyear":
        return date.fromisocalendar(day.isocalendar().year, 1, 1)
    if container == "month":
        return day.replace(day=1)
    if container == "quarter":
        return date(day.year, (day.month - 1) // 3 * 3 + 1, 1)
    return day - timedelta(days=day.weekday())


def container_last(container: Container, first: date) -> date:
    """Return the last day of the container period starting on `first`."""
    if container == "week":
        return first + timedelta(days=6)
    if container == "isoyear":
        return next_container("isoyear", first, 1) - timedelta(days=1)
    months = {"year": 12, "quarter": 3, "month": 1}[container]
    return next_container("month", first, months) - timedelta(days=1)


def next_container(container: Container, first: date, direction: int) -> date:
    """Return the first day of the container period `direction` periods away."""
    if container == "week":
        return first + timedelta(days=7 * direction)
    if container in ("month", "quarter"):
        month0 = (
            first.year * 12 + first.month - 1 + direction * (3 if container == "quarter" else 1)
        )
        return date(month0 // 12, month0 % 12 + 1, 1)
    if container == "isoyear":
        return date.fromisocalendar(first.isocalendar().year + direction, 1, 1)
    return date(first.year + direction, 1, 1)


def bare(partial: Partial, today: date, *, upcoming: bool = False) -> Placed | None:
    """Place a partial alone: in the current container if started by today, else the previous
    one; with `upcoming`, the first one that starts after today (the coming Friday)."""
    current = container_first(partial.container, today)
    if upcoming:
        for first in (current, next_container(partial.container, current, 1)):
            placed = _try(partial, first)
            if placed is not None and placed[0].first > today:
                return placed
        return None
    if partial.container == "year" and _try(partial, current) is None:
        return None  # 2月29日 in a common year: no such day this year, never another year's
    for first in (current, next_container(partial.container, current, -1)):
        placed = _try(partial, first)
        if placed is not None and placed[0].first <= today:
            return placed
    # 2月29日 in a common year: no such day this year, and never another year's (SPEC §4.3)
    return None


def inherit(partial: Partial, other: date, direction: int) -> Placed | None:
    """Place a partial beside a period starting on `other`: in its container, or the next one
    (direction +1, the partial ends a range) or previous one (-1) so the range runs forward."""
    current = container_first(partial.container, other)
    if _try(partial, current) is None:
        return None  # June 10 - 31: no June 31st, and never the 31st of July instead
    for first in (current, next_container(partial.container, current, direction)):
        placed = _try(partial, first)
        if placed is not None and (placed[0].first - other).days * direction >= 0:
            return placed
    return None


def place_in(partial: Partial, day: date) -> Placed | None:
    """Place a partial in the container period holding `day` (2024年 + 3月, 上周 + 五)."""
    return _try(partial, container_first(partial.container, day))


def _try(partial: Partial, first: date) -> Placed | None:
    try:
        return partial.place(first)
    except (ValueError, OverflowError):  # 2月30日, week 53 of a 52-week year, year 10000
        return None
