"""Fiscal calendars (SPEC §9.1): which days a fiscal year, quarter or half holds, at a clock, in
a zone — pure arithmetic, no reading of text.

A fiscal calendar is a start day (`fiscal_year_start`, "MM-DD") and how its years are named
(`fiscal_year_named_by`): "end" (the default, as the US federal FY2025 = 2024-10-01 ..
2025-09-30 with an October start) or "start" (as Japan's FY2025 = 2025-04-01 .. 2026-03-31).
With a 01-01 start both namings give the calendar year.

Fiscal quarters are the year's four runs of three months from its start day, halves its two
runs of six months; a start day past the 28th is clamped to the length of a short month, as
every month shift of `calendar.shift` is. The start must be a day every year has: 02-29 and
02-30 are refused (`FiscalStartInvalid`).

    >>> from zoneinfo import ZoneInfo
    >>> calendar = FiscalCalendar.of("10-01")
    >>> calendar.year_of(date(2024, 10, 1)), calendar.year_of(date(2024, 9, 30))
    (2025, 2024)
    >>> span = fiscal_quarter(calendar, 2025, 3, ZoneInfo("UTC"))
    >>> span.expression, span.step
    ('FY2025-Q3', 'quarter')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Literal, NamedTuple, Protocol
from zoneinfo import ZoneInfo

from resolver.timeexpr.calendar import epoch_ms, midnight, shift, wall_clock
from resolver.timeexpr.result import Step

NamedBy = Literal["end", "start"]
NAMINGS: tuple[NamedBy, ...] = ("end", "start")
_MONTH_DAY = re.compile(r"(\d{2})-(\d{2})")
# The longest month each month can be in every year: February's 28 (a fiscal year starting on
# 02-29 would have no start day three years in four).
_EVERY_YEAR_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


class FiscalStartInvalid(ValueError):
    """A fiscal year start that is no "MM-DD" day of every year (02-30, 13-01, 4/1)."""


class FiscalNamingInvalid(ValueError):
    """A fiscal year naming other than "end" or "start"."""


class Span(NamedTuple):
    """A settled fiscal window: epoch ms (the end its last ms), its step and normal form."""

    start_ms: int
    end_ms: int
    step: Step
    expression: str


@dataclass(frozen=True, slots=True)
class FiscalCalendar:
    """A fiscal year starting on `month`-`day`, named by the calendar year it ends or starts in."""

    month: int
    day: int
    named_by: NamedBy = "end"

    @classmethod
    def of(cls, start: str, named_by: str = "end") -> FiscalCalendar:
        """The calendar of a "MM-DD" start (FiscalStartInvalid) and a naming
        (FiscalNamingInvalid)."""
        if not isinstance(start, str):  # the library is called with what a caller sent
            raise FiscalStartInvalid(f"fiscal_year_start {start!r} is not a string MM-DD")
        matched = _MONTH_DAY.fullmatch(start)
        if matched is None:
            raise FiscalStartInvalid(f"fiscal_year_start {start[:40]!r} is not MM-DD (e.g. 04-01)")
        month, day = int(matched.group(1)), int(matched.group(2))
        if not 1 <= month <= 12 or not 1 <= day <= _EVERY_YEAR_DAYS[month - 1]:
            raise FiscalStartInvalid(
                f"fiscal_year_start {start[:40]!r} is not a day of every year (e.g. 04-01)"
            )
        if named_by not in NAMINGS:
            raise FiscalNamingInvalid(
                f"fiscal_year_named_by {named_by[:40]!r} is neither 'end' nor 'start'"
            )
        return cls(month, day, "end" if named_by == "end" else "start")

    @property
    def start(self) -> str:
        """The start as "MM-DD"."""
        return f"{self.month:02d}-{self.day:02d}"

    def first_day(self, fiscal_year: int) -> date:
        """The first day of the fiscal year named `fiscal_year`."""
        calendar_year = fiscal_year
        if self.named_by == "end" and (self.month, self.day) != (1, 1):
            calendar_year -= 1
        return date(calendar_year, self.month, self.day)

    def year_of(self, day: date) -> int:
        """The name of the fiscal year holding `day`."""
        starts_in = day.year if (day.month, day.day) >= (self.month, self.day) else day.year - 1
        if self.named_by == "end" and (self.month, self.day) != (1, 1):
            return starts_in + 1
        return starts_in

    def months_from(self, fiscal_year: int, months: int) -> date:
        """The day `months` months after the start of `fiscal_year` (the day clamped)."""
        return shift(midnight(self.first_day(fiscal_year)), months, "month").date()

    def quarter_of(self, day: date) -> tuple[int, int]:
        """(fiscal year, fiscal quarter 1..4) holding `day`."""
        year = self.year_of(day)
        quarter = 4
        while quarter > 1 and self.months_from(year, 3 * (quarter - 1)) > day:
            quarter -= 1
        return year, quarter


def _span(first: date, after: date, step: Step, expression: str, tz: ZoneInfo) -> Span:
    return Span(epoch_ms(midnight(first), tz), epoch_ms(midnight(after), tz) - 1, step, expression)


def fiscal_year(calendar: FiscalCalendar, year: int, tz: ZoneInfo) -> Span:
    """The whole fiscal year named `year`, step year (FY2025)."""
    first = calendar.months_from(year, 0)
    return _span(first, calendar.months_from(year, 12), "year", f"FY{year}", tz)


def fiscal_quarter(calendar: FiscalCalendar, year: int, quarter: int, tz: ZoneInfo) -> Span:
    """The fiscal quarter 1..4 of the year named `year`, step quarter (FY2025-Q3)."""
    _check(quarter, 4, "quarter")
    first = calendar.months_from(year, 3 * (quarter - 1))
    after = calendar.months_from(year, 3 * quarter)
    return _span(first, after, "quarter", f"FY{year}-Q{quarter}", tz)


def fiscal_half(calendar: FiscalCalendar, year: int, half: int, tz: ZoneInfo) -> Span:
    """The fiscal half 1..2 of the year named `year`, step month as for 上半年 (FY2025-H1)."""
    _check(half, 2, "half")
    first = calendar.months_from(year, 6 * (half - 1))
    after = calendar.months_from(year, 6 * half)
    return _span(first, after, "month", f"FY{year}-H{half}", tz)


def fiscal_first_quarters(calendar: FiscalCalendar, year: int, count: int, tz: ZoneInfo) -> Span:
    """The first `count` (1..4) quarters of the fiscal year named `year`, step quarter
    (财年前三季度: FY2025-Q1..FY2025-Q3)."""
    _check(count, 4, "quarter count")
    first = calendar.months_from(year, 0)
    after = calendar.months_from(year, 3 * count)
    expression = f"FY{year}-Q1" if count == 1 else f"FY{year}-Q1..FY{year}-Q{count}"
    return _span(first, after, "quarter", expression, tz)


def current_year(calendar: FiscalCalendar, now_ms: int, tz: ZoneInfo) -> int:
    """The name of the fiscal year holding now."""
    return calendar.year_of(wall_clock(now_ms, tz).date())


def current_quarter(calendar: FiscalCalendar, now_ms: int, tz: ZoneInfo) -> tuple[int, int]:
    """(fiscal year, fiscal quarter) holding now."""
    return calendar.quarter_of(wall_clock(now_ms, tz).date())


def relative_year(calendar: FiscalCalendar, offset: int, now_ms: int, tz: ZoneInfo) -> Span:
    """A fiscal year `offset` years from the current one: this one (0) runs to now, as 今年
    does (本财年, step year); others are whole (上财年 -1, 上上财年 -2, 下财年 +1)."""
    year = current_year(calendar, now_ms, tz) + offset
    if offset == 0:
        return year_to_date(calendar, now_ms, tz)
    return fiscal_year(calendar, year, tz)


def relative_quarter(calendar: FiscalCalendar, offset: int, now_ms: int, tz: ZoneInfo) -> Span:
    """A fiscal quarter `offset` quarters from the current one: this one (0) runs to now
    (本财季, step quarter); others are whole (上个财季 -1)."""
    year, quarter = current_quarter(calendar, now_ms, tz)
    if offset == 0:
        first = calendar.months_from(year, 3 * (quarter - 1))
        start = epoch_ms(midnight(first), tz)
        return Span(start, now_ms, "quarter", "now/FQ..now")
    year, index = divmod(year * 4 + quarter - 1 + offset, 4)
    return fiscal_quarter(calendar, year, index + 1, tz)


def year_to_date(calendar: FiscalCalendar, now_ms: int, tz: ZoneInfo) -> Span:
    """The fiscal year to date (本财年, 财年至今, fiscal year to date): its first day .. now, step
    year, as 今年 and YTD are."""
    first = calendar.months_from(current_year(calendar, now_ms, tz), 0)
    return Span(epoch_ms(midnight(first), tz), now_ms, "year", "now/FY..now")


def latest_year_of(calendar: FiscalCalendar, now_ms: int, tz: ZoneInfo, months_in: int) -> int:
    """The fiscal year a bare part names (fiscal Q3, 财年上半年 with no year): this fiscal
    year's if the part (starting `months_in` months into the year) has started, else last
    year's — as a bare month is this year's if started, else last year's (SPEC §4)."""
    today = wall_clock(now_ms, tz).date()
    year = calendar.year_of(today)
    return year if calendar.months_from(year, months_in) <= today else year - 1


def _check(value: int, most: int, what: str) -> None:
    if not 1 <= value <= most:
        raise ValueError(f"fiscal {what} {value} is not 1..{most}")


# -- fiscal terms of the reader (SPEC §9.1): periods placed in the calendar at evaluation -------

Part = Literal["year", "quarter", "half"]
_MONTHS_IN: dict[Part, int] = {"year": 12, "quarter": 3, "half": 6}
_CODE: dict[Part, str] = {"year": "FY", "quarter": "Q", "half": "H"}


class FiscalClock(Protocol):
    """What a fiscal term needs of the reader's clock."""

    now_ms: int
    tz: ZoneInfo
    fiscal: FiscalCalendar | None


class NoFiscalCalendar(ValueError):
    """A fiscal period was named and no fiscal calendar is configured: nothing settles."""


class FiscalTerm(NamedTuple):
    """A fiscal period as the reader names it, placed only at evaluation (it needs the
    request's calendar): the fiscal year `year` (or `offset` years from the current one when
    `year` is None), or its quarter/half `number`; with `number` 0 and `part` quarter, the
    quarter `offset` quarters from the current one (上个财季); `bare`: a part named without a
    year (fiscal Q3), this fiscal year's once started, else last year's."""

    part: Part
    number: int = 0
    year: int | None = None
    offset: int = 0
    bare: bool = False

    def __str__(self) -> str:
        if self.bare:
            return f"FY-{_CODE[self.part]}{self.number}"
        if self.part == "quarter" and self.number == 0:
            return "now/FQ" if not self.offset else f"now{self.offset:+d}FQ/FQ"
        head = (
            f"FY{self.year}"
            if self.year is not None
            else ("now/FY" if not self.offset else f"now{self.offset:+d}FY/FY")
        )
        return head if self.part == "year" else f"{head}-{_CODE[self.part]}{self.number}"

    def _calendar(self, clock: FiscalClock) -> FiscalCalendar:
        if clock.fiscal is None:
            raise NoFiscalCalendar("no fiscal year start configured")
        return clock.fiscal

    def first_day(self, clock: FiscalClock) -> date:
        """The local date the fiscal period starts on."""
        return self._days(clock)[0]

    def _days(self, clock: FiscalClock) -> tuple[date, date]:
        """(first day, the day after the last) of the period."""
        calendar = self._calendar(clock)
        if self.part == "quarter" and self.number == 0:
            year, quarter = current_quarter(calendar, clock.now_ms, clock.tz)
            year, quarter0 = divmod(year * 4 + quarter - 1 + self.offset, 4)
            months = 3 * quarter0
            return calendar.months_from(year, months), calendar.months_from(year, months + 3)
        size = _MONTHS_IN[self.part]
        months = size * (self.number - 1) if self.part != "year" else 0
        if self.bare:
            year = latest_year_of(calendar, clock.now_ms, clock.tz, months)
        elif self.year is not None:
            year = self.year
        else:
            year = current_year(calendar, clock.now_ms, clock.tz) + self.offset
        return calendar.months_from(year, months), calendar.months_from(year, months + size)

    def start_ms(self, clock: FiscalClock) -> int:
        """The period's first ms."""
        return epoch_ms(midnight(self.first_day(clock)), clock.tz)

    def end_ms(self, clock: FiscalClock) -> int:
        """The period's last ms."""
        return self.bounds(clock)[1]

    def bounds(self, clock: FiscalClock) -> tuple[int, int]:
        """The period's first and last ms."""
        first, after = self._days(clock)
        return epoch_ms(midnight(first), clock.tz), epoch_ms(midnight(after), clock.tz) - 1
