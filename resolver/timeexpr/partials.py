"""Partials: periods that need a container to be placed (3月 needs a year, 周五 a week).

A partial is placed in a container period: a year (3月, Q1, 春节, 前三季度), an ISO year
(第10周), a month (15日, 上旬) or a week (周五). The container comes from the text (2024年3月,
上周五, 上个月下旬), from the other end of a range or list (2024年3月和4月), or, for a
partial alone, from now: the current container if the partial has started there, else the
previous one (SPEC §4: a bare month is this year's, or last year's if not started yet).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Literal, NamedTuple

from resolver.timeexpr.calendar import days_in_month
from resolver.timeexpr.festivals import festival_days
from resolver.timeexpr.result import Step
from resolver.timeexpr.terms import Absolute

Container = Literal["year", "isoyear", "month", "week"]
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
        year = first.isocalendar().year if self.unit == "week" else first.year
        if self.unit == "week":
            return Absolute("week", date.fromisocalendar(year, self.day, 1)), None
        if self.unit == "day":
            start = Absolute("day", date(year, self.month, self.day))
            last = Absolute("day", date(year, self.month, self.last_day)) if self.last_day else None
            return start, last
        start = tuple.__new__(Absolute, (self.unit, date(year, self.month, 1)))  # hot: see atoms
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
        if self.unit == "day":
            days = (date(first.year + 1, 1, 1) - first).days if self.container == "year" else 0
            if self.n > (days or days_in_month(first.year, first.month)):
                raise ValueError("more days than the container has")
            return Absolute("day", first), Absolute("day", first + timedelta(self.n - 1))
        months = {"month": 1, "quarter": 3}[self.unit] * self.n
        if months > 12:
            raise ValueError("more than a year")
        last = date(first.year, months - {"month": 1, "quarter": 3}[self.unit] + 1, 1)
        return Absolute(self.unit, first), Absolute(self.unit, last)


class Festival(NamedTuple):
    """春节, 国庆黄金周, 双十一: a day (or holiday) of the year."""

    name: str
    holiday: bool
    unit: Step = "day"
    container: Container = "year"

    def place(self, first: date) -> Placed:
        """Return the festival's day, or the first and last day of its holiday."""
        start, last = festival_days(self.name, first.year, holiday=self.holiday)
        return Absolute("day", start), (Absolute("day", last) if last != start else None)


class DayOfMonth(NamedTuple):
    """15日 after a date (1日至15日): a day of the month of the other end."""

    day: int
    unit: Step = "day"
    container: Container = "month"

    def place(self, first: date) -> Placed:
        """Return that day of the month starting on `first`."""
        return Absolute("day", first.replace(day=self.day)), None


class Dekad(NamedTuple):
    """上旬/中旬/下旬: days 1–10, 11–20, 21–last of a month."""

    third: int  # 0, 1, 2
    unit: Step = "day"
    container: Container = "month"

    def place(self, first: date) -> Placed:
        """Return the first and last day of the dekad in the month starting on `first`."""
        start = first.replace(day=1 + 10 * self.third)
        end = days_in_month(first.year, first.month) if self.third == 2 else 10 * (self.third + 1)
        return Absolute("day", start), Absolute("day", first.replace(day=end))


class Weekday(NamedTuple):
    """周五, Friday: a day of a week (Monday is 0)."""

    weekday: int
    unit: Step = "day"
    container: Container = "week"

    def place(self, first: date) -> Placed:
        """Return that day of the week starting on Monday `first`."""
        return Absolute("day", first + timedelta(days=self.weekday)), None


Partial = InYear | FirstN | Festival | DayOfMonth | Dekad | Weekday


def container_first(container: Container, day: date) -> date:
    """Return the first day of the container period holding `day`."""
    if container == "year":
        return date(day.year, 1, 1)
    if container == "isoyear":
        return date.fromisocalendar(day.isocalendar().year, 1, 1)
    if container == "month":
        return day.replace(day=1)
    return day - timedelta(days=day.weekday())


def _next(container: Container, first: date, direction: int) -> date:
    """Return the first day of the container period `direction` (±1) periods away."""
    if container == "week":
        return first + timedelta(days=7 * direction)
    if container == "month":
        month0 = first.year * 12 + first.month - 1 + direction
        return date(month0 // 12, month0 % 12 + 1, 1)
    if container == "isoyear":
        return date.fromisocalendar(first.isocalendar().year + direction, 1, 1)
    return date(first.year + direction, 1, 1)


def bare(partial: Partial, today: date) -> Placed | None:
    """Place a partial alone: in the current container if started by today, else the previous."""
    if isinstance(partial, DayOfMonth):
        return None  # 15日 alone is no window: it only follows a date
    current = container_first(partial.container, today)
    for first in (current, _next(partial.container, current, -1)):
        try:
            placed = partial.place(first)
        except ValueError:  # 2月29日 in a common year, week 53 in a 52-week year
            continue
        if placed[0].first <= today:
            return placed
    return None


def inherit(partial: Partial, other: date, direction: int) -> Placed | None:
    """Place a partial beside a period starting on `other`: in its container, or the next one
    (direction +1, the partial ends a range) or previous one (-1) so the range runs forward."""
    current = container_first(partial.container, other)
    for first in (current, _next(partial.container, current, direction)):
        try:
            placed = partial.place(first)
        except ValueError:
            continue
        if (placed[0].first - other).days * direction >= 0:
            return placed
    return None
