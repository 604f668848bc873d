"""Business time (SPEC §9.1, §4.1's festival row): fiscal periods, comparison baselines and the
State Council's official holiday runs, computed here with `datetime`/`zoneinfo` only.

Choices where §9.1 is silent (each one is repeated, `spec-silent:`, in the notes of the rows that
rest on it, and listed in README_gold.md):

- A fiscal year starting on MM-DD runs from MM-DD 00:00 local to the day before the next MM-DD.
  Named by `end` it carries the calendar year of its last day (01-01 start: FY2025 = 2025); named
  by `start`, the calendar year of its first day.
- Fiscal quarters are the 3-month runs from the start day (02-15 start: Q1 = Feb 15 – May 14,
  Q2 = May 15 – Aug 14, Q3 = Aug 15 – Nov 14, Q4 = Nov 15 – Feb 14); halves the 6-month runs.
- Steps: a fiscal year steps by year, a fiscal quarter by quarter, a fiscal half by month (as
  §4's 半年), the first N fiscal quarters by quarter.
- `本财年`/`this fiscal year` and `本财季` read like §4's 今年/本季度: the period's start .. now.
- Comparison baselines: see `compare`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Literal

from benchmarks.gold_oracle.answers import Params, Spec
from benchmarks.gold_oracle.periods import (
    Clock,
    Period,
    PeriodLike,
    Unit,
    bare_festival,
    day,
    festival,
    resolve,
    shift_wall,
    started,
    week_of,
)

Kind = Literal["year_over_year", "period_over_period", "explicit"]


def shift_date(one: date, n: int, unit: Unit) -> date:
    """Calendar arithmetic on a date (weeks 7 days, months clamped to the month's last day)."""
    return shift_wall(datetime.combine(one, time()), n, unit).date()


# -- fiscal calendars -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fiscal:
    """A fiscal calendar: its start day (`"MM-DD"`) and how its years are named."""

    start: str
    named_by: Literal["end", "start"] = "end"

    @property
    def month_day(self) -> tuple[int, int]:
        """The start as (month, day)."""
        mm, dd = self.start.split("-")
        return int(mm), int(dd)

    def first_in(self, calendar_year: int) -> date:
        """The first day of the fiscal year that starts in `calendar_year`."""
        mm, dd = self.month_day
        return date(calendar_year, mm, dd)

    def fy_holding(self, one: date) -> date:
        """The first day of the fiscal year holding `one`."""
        first = self.first_in(one.year)
        return first if one >= first else self.first_in(one.year - 1)

    def name_of(self, first: date) -> int:
        """The number of the fiscal year starting on `first` (FY2025 → 2025)."""
        if self.named_by == "start":
            return first.year
        return (shift_date(first, 1, "year") - timedelta(days=1)).year

    def first_of_named(self, number: int) -> date:
        """The first day of FY`number`."""
        for calendar_year in (number, number - 1):
            if self.name_of(self.first_in(calendar_year)) == number:
                return self.first_in(calendar_year)
        raise AssertionError(number)

    def year(self, first: date) -> Period:
        """The fiscal year starting on `first` (unit year)."""
        return Period(first, shift_date(first, 1, "year"), "year", f"FY{self.name_of(first)}")

    def quarter(self, first: date, number: int) -> Period:
        """Fiscal quarter `number` (1–4) of the fiscal year starting on `first` (unit quarter)."""
        begin = shift_date(first, 3 * (number - 1), "month")
        label = f"FY{self.name_of(first)}Q{number}"
        return Period(begin, shift_date(begin, 3, "month"), "quarter", label)

    def half(self, first: date, number: int) -> Period:
        """Fiscal half `number` (1–2) of the fiscal year starting on `first` (unit month)."""
        begin = shift_date(first, 6 * (number - 1), "month")
        label = f"FY{self.name_of(first)}H{number}"
        return Period(begin, shift_date(begin, 6, "month"), "month", label)

    # -- periods relative to now --

    def fy(self, back: int = 0) -> Callable[[Clock], Period]:
        """The fiscal year `back` years before the current one (0 this, 1 上财年, -1 下财年)."""

        def pick(clock: Clock) -> Period:
            return self.year(shift_date(self.fy_holding(clock.today), -back, "year"))

        return pick

    def named(self, number: int) -> Period:
        """FY`number` whole."""
        return self.year(self.first_of_named(number))

    def named_quarter(self, number: int, which: int) -> Period:
        """FY`number` Q`which`."""
        return self.quarter(self.first_of_named(number), which)

    def current_quarter_number(self, clock: Clock) -> tuple[date, int]:
        """The current fiscal year's first day and the number of the fiscal quarter holding now."""
        first = self.fy_holding(clock.today)
        for number in (1, 2, 3, 4):
            if self.quarter(first, number).after > clock.today:
                return first, number
        raise AssertionError(clock.today)

    def fq(self, back: int = 0) -> Callable[[Clock], Period]:
        """The fiscal quarter `back` quarters before the current one (0 本财季, 1 上个财季)."""

        def pick(clock: Clock) -> Period:
            first, number = self.current_quarter_number(clock)
            index = number - 1 - back
            return self.quarter(shift_date(first, 12 * (index // 4), "month"), index % 4 + 1)

        return pick

    def bare_quarter(self, which: int) -> Callable[[Clock], Period]:
        """`fiscal Q3` / 财年第三季度: this fiscal year's if it has started, else last one's."""

        def pick(clock: Clock) -> Period:
            first = self.fy_holding(clock.today)
            this_one = self.quarter(first, which)
            if started(clock, this_one):
                return this_one
            return self.quarter(shift_date(first, -1, "year"), which)

        return pick

    def bare_half(self, which: int) -> Callable[[Clock], Period]:
        """`fiscal H1` / 财年上半年: this fiscal year's if it has started, else last one's."""

        def pick(clock: Clock) -> Period:
            first = self.fy_holding(clock.today)
            this_one = self.half(first, which)
            if started(clock, this_one):
                return this_one
            return self.half(shift_date(first, -1, "year"), which)

        return pick

    def first_quarters(self, n: int) -> tuple[Callable[[Clock], Period], Callable[[Clock], Period]]:
        """财年前N季度: Q1 and QN of the current fiscal year (joined by `span`)."""

        def q(which: int) -> Callable[[Clock], Period]:
            return lambda clock: self.quarter(self.fy_holding(clock.today), which)

        return q(1), q(n)


# -- comparison baselines -------------------------------------------------------------------------
#
# A main window is one of three shapes; the baseline follows SPEC §9.1:
# - whole period P (calendar or fiscal; `length` = how far one period reaches, e.g. (1, "month"),
#   (3, "month") for a fiscal quarter, (6, "month") for a fiscal half):
#   year_over_year = P's first and after days one year back (months clamp, so Feb 2024 → Feb
#   2023, 28 days; a day → the same date a year back, Feb 29 → Feb 28; spec-silent: a week → the
#   ISO week with the same number in the previous ISO week-year);
#   period_over_period = the period of the same length just before P.
# - to date (P's start .. now: 本月, MTD, 本季度, YTD, 本周, 本财年):
#   year_over_year = P's start one year back .. now one year back (wall clock, day clamped);
#   period_over_period = the previous period's start .. now moved back one period on the wall
#   clock, day clamped ("clipped to its length"), and never past the previous period's end.
# - rolling (now − N units .. now):
#   year_over_year = both ends one year back on the wall clock;
#   period_over_period = the window of the same length just before: start − N units .. start
#   − 1 ms (spec-silent: it ends one millisecond before the main window starts, so no instant is
#   counted twice).
# Baselines carry the main window's step.


@dataclass(frozen=True, slots=True)
class Whole:
    """A whole period and its length for period_over_period."""

    period: PeriodLike
    length: tuple[int, Unit] | None = None


@dataclass(frozen=True, slots=True)
class ToDate:
    """A period's start .. now."""

    period: PeriodLike
    length: tuple[int, Unit] | None = None


@dataclass(frozen=True, slots=True)
class Rolling:
    """now − N units .. now."""

    n: int
    unit: Unit


Main = Whole | ToDate | Rolling
DEFAULT_LENGTH: dict[Unit, tuple[int, Unit]] = {
    "day": (1, "day"),
    "week": (1, "week"),
    "month": (1, "month"),
    "quarter": (3, "month"),
    "year": (12, "month"),
}
SYMBOL = {"day": "d", "week": "w", "month": "M", "quarter": "Q", "year": "y"}


@dataclass(frozen=True, slots=True)
class Window:
    """A settled window (epoch ms) and its canonical expression."""

    start: int
    end: int
    step: Unit
    expr: str

    def params(self) -> Params:
        """The numbers as the gold rows hold them."""
        return {"start": self.start, "end": self.end, "step": self.step}


def _period_window(period: Period, clock: Clock) -> Window:
    return Window(period.start(clock), period.end(clock), period.unit, period.label)


def main_window(main: Main, clock: Clock) -> Window:
    """The main window at this clock."""
    if isinstance(main, Whole):
        return _period_window(resolve(main.period, clock), clock)
    if isinstance(main, ToDate):
        p = resolve(main.period, clock)
        return Window(p.start(clock), clock.now_ms, p.unit, f"{p.label}..now")
    start = clock.ms(shift_wall(clock.wall, -main.n, main.unit))
    return Window(start, clock.now_ms, main.unit, f"now-{main.n}{SYMBOL[main.unit]}..now")


def _year_back(p: Period) -> Period:
    if p.unit == "week":
        iso = p.first.isocalendar()
        back = week_of(date.fromisocalendar(iso.year - 1, iso.week, 1))
        return Period(back.first, back.after, "week", back.label)
    if p.unit == "day":
        one = shift_date(p.first, -1, "year")
        return day(one.year, one.month, one.day)
    return Period(shift_date(p.first, -1, "year"), shift_date(p.after, -1, "year"), p.unit, "")


def baseline_window(main: Main, kind: Kind, clock: Clock) -> Window:
    """The baseline of a year_over_year or period_over_period comparison."""
    if isinstance(main, Rolling):
        start_wall = shift_wall(clock.wall, -main.n, main.unit)
        if kind == "year_over_year":
            start = clock.ms(shift_wall(start_wall, -1, "year"))
            end = clock.ms(shift_wall(clock.wall, -1, "year"))
            return Window(start, end, main.unit, f"now-{main.n}{SYMBOL[main.unit]}-1y..now-1y")
        start = clock.ms(shift_wall(start_wall, -main.n, main.unit))
        sym = SYMBOL[main.unit]
        return Window(
            start, clock.ms(start_wall) - 1, main.unit, f"now-{2 * main.n}{sym}..now-{main.n}{sym}"
        )
    p = resolve(main.period, clock)
    n, unit = main.length or DEFAULT_LENGTH[p.unit]
    if kind == "year_over_year":
        back = _year_back(p)
        if isinstance(main, Whole):
            return Window(back.start(clock), back.end(clock), p.unit, f"{p.label}-1y")
        end = clock.ms(shift_wall(clock.wall, -1, "year"))
        return Window(back.start(clock), end, p.unit, f"{p.label}-1y..now-1y")
    before = Period(shift_date(p.first, -n, unit), p.first, p.unit, "")
    if isinstance(main, Whole):
        return Window(before.start(clock), before.end(clock), p.unit, f"{p.label}-1")
    end = min(clock.ms(shift_wall(clock.wall, -n, unit)), before.end(clock))
    return Window(before.start(clock), end, p.unit, f"{p.label}-1..now-{n}{SYMBOL[unit]}")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The expected answer and a canonical expression for the note."""

    expected: Params
    expr: str


Expect = Callable[[Clock], Outcome]


def window(spec: Spec) -> Expect:
    """A plain window (the v2/v3 builders: whole, since, span, rolling …) answered 200."""

    def answer(clock: Clock) -> Outcome:
        got = spec(clock)
        assert got.params is not None, got.expr
        assert not got.params["instant"], got.expr
        return Outcome({"status": 200, **got.params}, got.expr)

    return answer


def compare(main: Main, kind: Kind, other: PeriodLike | None = None) -> Expect:
    """A window with its baseline: year_over_year, period_over_period, or explicit (`other`)."""

    def answer(clock: Clock) -> Outcome:
        first = main_window(main, clock)
        if kind == "explicit":
            assert other is not None
            second = _period_window(resolve(other, clock), clock)
        else:
            second = baseline_window(main, kind, clock)
        baseline = {**second.params(), "kind": kind}
        expected = {"status": 200, "instant": False, **first.params(), "baseline": baseline}
        return Outcome(expected, f"{first.expr} vs {second.expr} ({kind})")

    return answer


def unsettled(why: str) -> Expect:
    """Nothing settled: 422 TIME_UNSETTLED with an ask."""
    return lambda clock: Outcome({"status": 422}, f"none ({why})")


def bad(field: str) -> Expect:
    """A caller value that is not valid: 400 naming the field."""
    return lambda clock: Outcome({"status": 400, "field": field}, f"400 ({field})")


# -- official holidays (SPEC §4.1 festival row, revised) -------------------------------------------


def official_holiday(name: str, in_year: int) -> Period:
    """The official holiday run of `name` in `in_year` (`holidays_cn`: the State Council's runs,
    the fixed rule for other years), unit day."""
    return festival(name, in_year, holiday=True)


def bare_official_holiday(name: str) -> Callable[[Clock], Period]:
    """A holiday with no year: this year's run if it has started, else last year's."""
    return bare_festival(name, holiday=True)
