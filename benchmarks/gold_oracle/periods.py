"""The clock and calendar periods (SPEC §4 units) on the request timezone's wall clock.

Conventions (SPEC §4, docs/time-semantics.md): weeks are ISO weeks starting Monday; quarters
start in Jan/Apr/Jul/Oct; a period's end is its last millisecond, i.e. the next period's first
ms − 1; `now − N units` is calendar arithmetic on the wall clock keeping the time of day (weeks
are 7 days, quarters 3 months, month ends clamped); local times are read with `fold=0`.

A phrase relative to now (上个月, bare 3月, 周五…) is a `Relative`: a function of the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from borax.calendars.lunardate import LunarDate, TermUtils

from benchmarks.gold_oracle.holidays_cn import holiday_run

Unit = Literal["day", "week", "month", "quarter", "year"]
UNITS: tuple[Unit, ...] = ("day", "week", "month", "quarter", "year")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ONE_MS = timedelta(milliseconds=1)


@dataclass(frozen=True, slots=True)
class Clock:
    """The request's `now` (epoch ms) and timezone."""

    now_ms: int
    tz: ZoneInfo

    @classmethod
    def at(cls, local: str, tz: str) -> Clock:
        """The clock whose wall time in `tz` is `local` (ISO without offset)."""
        zone = ZoneInfo(tz)
        return cls((datetime.fromisoformat(local).replace(tzinfo=zone) - EPOCH) // ONE_MS, zone)

    @property
    def tz_name(self) -> str:
        """The IANA name of the timezone."""
        return self.tz.key

    @property
    def wall(self) -> datetime:
        """`now` on the local wall clock (naive)."""
        return (EPOCH + self.now_ms * ONE_MS).astimezone(self.tz).replace(tzinfo=None)

    @property
    def today(self) -> date:
        """The local date of `now`."""
        return self.wall.date()

    def ms(self, wall: datetime) -> int:
        """Epoch ms of a local wall-clock time (fold=0)."""
        return (wall.replace(tzinfo=self.tz) - EPOCH) // ONE_MS

    def midnight(self, one: date) -> int:
        """Epoch ms of the local midnight that starts `one`."""
        return self.ms(datetime.combine(one, time()))

    def describe(self) -> str:
        """`now` as `Thu 2025-11-13T09:12:22.241+08:00`."""
        moment = (EPOCH + self.now_ms * ONE_MS).astimezone(self.tz)
        return moment.strftime("%a ") + moment.isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class Period:
    """Whole local days `first` .. `after` (exclusive), with its unit and a label."""

    first: date
    after: date
    unit: Unit
    label: str

    def start(self, clock: Clock) -> int:
        """First millisecond."""
        return clock.midnight(self.first)

    def end(self, clock: Clock) -> int:
        """Last millisecond (23:59:59.999 local on the last day)."""
        return clock.midnight(self.after) - 1


Relative = Callable[[Clock], Period]
PeriodLike = Period | Relative


def resolve(period: PeriodLike, clock: Clock) -> Period:
    """A fixed period as it is, a relative one at this clock."""
    return period if isinstance(period, Period) else period(clock)


# -- fixed periods ----------------------------------------------------------------------------


def _month_index(year_: int, month_: int, shift: int) -> tuple[int, int]:
    years, month0 = divmod(year_ * 12 + month_ - 1 + shift, 12)
    return years, month0 + 1


def _last_day(year_: int, month_: int) -> int:
    nyear, nmonth = _month_index(year_, month_, 1)
    return (date(nyear, nmonth, 1) - timedelta(days=1)).day


def day(year_: int, month_: int, dom: int) -> Period:
    """One day."""
    first = date(year_, month_, dom)
    return Period(first, first + timedelta(days=1), "day", first.isoformat())


def days(first: date, last: date) -> Period:
    """A run of whole days (unit day)."""
    return Period(first, last + timedelta(days=1), "day", f"{first}..{last}")


def week_of(one: date) -> Period:
    """The ISO week (Monday..Sunday) holding `one`."""
    monday = one - timedelta(days=one.weekday())
    iso = monday.isocalendar()
    return Period(monday, monday + timedelta(days=7), "week", f"{iso.year}-W{iso.week:02d}")


def month(year_: int, number: int) -> Period:
    """One calendar month."""
    nyear, nmonth = _month_index(year_, number, 1)
    label = f"{year_}-{number:02d}"
    return Period(date(year_, number, 1), date(nyear, nmonth, 1), "month", label)


def quarter(year_: int, number: int) -> Period:
    """One quarter (Q1 starts in January)."""
    first = 3 * (number - 1) + 1
    nyear, nmonth = _month_index(year_, first, 3)
    label = f"{year_}-Q{number}"
    return Period(date(year_, first, 1), date(nyear, nmonth, 1), "quarter", label)


def year(number: int) -> Period:
    """One calendar year."""
    return Period(date(number, 1, 1), date(number + 1, 1, 1), "year", str(number))


def period_of(unit: Unit, one: date) -> Period:
    """The period of `unit` that holds `one`."""
    if unit == "day":
        return day(one.year, one.month, one.day)
    if unit == "week":
        return week_of(one)
    if unit == "month":
        return month(one.year, one.month)
    if unit == "quarter":
        return quarter(one.year, (one.month - 1) // 3 + 1)
    return year(one.year)


def shift_wall(wall: datetime, n: int, unit: Unit) -> datetime:
    """Calendar arithmetic on the wall clock: days keep the time of day, months clamp."""
    if unit == "day":
        return wall + timedelta(days=n)
    if unit == "week":
        return wall + timedelta(days=7 * n)
    months = n * {"month": 1, "quarter": 3, "year": 12}[unit]
    y, m = _month_index(wall.year, wall.month, months)
    return wall.replace(year=y, month=m, day=min(wall.day, _last_day(y, m)))


# -- periods relative to now --------------------------------------------------------------------


def started(clock: Clock, period: Period) -> bool:
    """Has the period begun at now?"""
    return clock.now_ms >= period.start(clock)


def this(unit: Unit) -> Relative:
    """The period of `unit` holding now (本周/本月/本季度/今年)."""
    return lambda clock: period_of(unit, clock.today)


def last(unit: Unit, back: int = 1) -> Relative:
    """The whole period `back` units before the current one (昨天, 上个月, 去年同月 = 12 back)."""
    return lambda clock: period_of(unit, shift_wall(clock.wall, -back, unit).date())


def bare_month(number: int) -> Relative:
    """`3月`: this year's if it has started, else last year's (SPEC §4)."""

    def pick(clock: Clock) -> Period:
        this_year = month(clock.today.year, number)
        return this_year if started(clock, this_year) else month(clock.today.year - 1, number)

    return pick


def bare_quarter(number: int) -> Relative:
    """`Q3` with no year: the bare-month rule (spec-silent)."""

    def pick(clock: Clock) -> Period:
        this_year = quarter(clock.today.year, number)
        return this_year if started(clock, this_year) else quarter(clock.today.year - 1, number)

    return pick


def last_march() -> Relative:
    """`last March`: the most recent March before the current month (SPEC §4.1)."""

    def pick(clock: Clock) -> Period:
        in_year = clock.today.year if clock.today.month > 3 else clock.today.year - 1
        return month(in_year, 3)

    return pick


def weekday(which: int, weeks_back: int | None = None) -> Relative:
    """Weekday `which` (0 = Monday) of this week (0), last week (1) or the one before (2).

    `weeks_back=None` is the bare 周X / Friday rule: this week's if it has started, else last
    week's.
    """

    def pick(clock: Clock) -> Period:
        monday = clock.today - timedelta(days=clock.today.weekday())
        if weeks_back is None:
            one = monday + timedelta(days=which)
            if clock.now_ms < clock.midnight(one):
                one -= timedelta(days=7)
        else:
            one = monday + timedelta(days=which - 7 * weeks_back)
        return day(one.year, one.month, one.day)

    return pick


def xun(of: PeriodLike, part: Literal[1, 2, 3]) -> Relative:
    """上旬/中旬/下旬 of a month: days 1–10, 11–20, 21–last."""

    def pick(clock: Clock) -> Period:
        first = resolve(of, clock).first
        last_dom = {1: 10, 2: 20, 3: _last_day(first.year, first.month)}[part]
        start_dom = {1: 1, 2: 11, 3: 21}[part]
        return days(first.replace(day=start_dom), first.replace(day=last_dom))

    return pick


# -- festivals (SPEC §4.1) ----------------------------------------------------------------------

SOLAR_FESTIVALS: dict[str, tuple[int, int]] = {
    "元旦": (1, 1),
    "劳动节": (5, 1),
    "国庆": (10, 1),
    "618": (6, 18),
    "双十一": (11, 11),
    "双十二": (12, 12),
}
LUNAR_FESTIVALS: dict[str, tuple[int, int]] = {
    "春节": (1, 1),
    "元宵": (1, 15),
    "端午": (5, 5),
    "七夕": (7, 7),
    "中秋": (8, 15),
}


def festival(name: str, in_year: int, holiday: bool = False) -> Period:
    """The festival's day in `in_year` (lunar dates converted by borax), or with `holiday` its
    official public-holiday run (SPEC §4.1 revised: `holidays_cn`; one day for the others)."""
    run = holiday_run(name, in_year) if holiday else None
    if run is not None:
        first, last_ = run
        return days(first, last_) if first != last_ else day(first.year, first.month, first.day)
    if name in LUNAR_FESTIVALS:
        first = LunarDate(in_year, *LUNAR_FESTIVALS[name]).to_solar_date()
    else:
        first = date(in_year, *SOLAR_FESTIVALS[name])
    return day(first.year, first.month, first.day)


def bare_festival(name: str, holiday: bool = False) -> Relative:
    """A festival with no year: this year's if it has started, else last year's."""

    def pick(clock: Clock) -> Period:
        this_year = festival(name, clock.today.year, holiday)
        if started(clock, this_year):
            return this_year
        return festival(name, clock.today.year - 1, holiday)

    return pick


def month_of_same_year(anchor: PeriodLike, number: int) -> Relative:
    """Month `number` in the year of `anchor` (Y inheriting X's year: 3月到5月)."""
    return lambda clock: month(resolve(anchor, clock).first.year, number)


# -- v3: SPEC §4.2 (the open world) -------------------------------------------------------------


def following(unit: Unit, ahead: int = 1) -> Relative:
    """The whole period `ahead` units after the current one (明天, 下周, 下个月, 明年, 下下周)."""
    return lambda clock: period_of(unit, shift_wall(clock.wall, ahead, unit).date())


def upcoming_weekday(which: int) -> Relative:
    """`coming Friday` / `this upcoming Friday`: this week's if it has not started, else next
    week's (the mirror of the bare 周X rule; spec-silent)."""

    def pick(clock: Clock) -> Period:
        monday = clock.today - timedelta(days=clock.today.weekday())
        one = monday + timedelta(days=which)
        if clock.now_ms >= clock.midnight(one):
            one += timedelta(days=7)
        return day(one.year, one.month, one.day)

    return pick


def bare_yearly(make: Callable[[int], Period]) -> Relative:
    """A partial of a year with no year named (3月15日, 第10周, 清明, 上半年): this year's if it
    has started, else last year's (SPEC §4 bare month, docs choice 1)."""

    def pick(clock: Clock) -> Period:
        this_year = make(clock.today.year)
        return this_year if started(clock, this_year) else make(clock.today.year - 1)

    return pick


def month_day(number: int, dom: int) -> Relative:
    """`Oct 2`, `8月15号`, `3/15` with no year: this year's if started, else last year's."""
    return bare_yearly(lambda y: day(y, number, dom))


def bare_dom(dom: int) -> Relative:
    """`15号` / `the 15th`: this month's if started, else last month's (SPEC §4.2)."""

    def pick(clock: Clock) -> Period:
        this_month = day(clock.today.year, clock.today.month, dom)
        if started(clock, this_month):
            return this_month
        y, m = _month_index(clock.today.year, clock.today.month, -1)
        return day(y, m, dom)

    return pick


def months(first_year: int, first: int, count: int, label: str) -> Period:
    """`count` whole months from `first_year-first` (unit month): 上半年, H2."""
    nyear, nmonth = _month_index(first_year, first, count)
    return Period(date(first_year, first, 1), date(nyear, nmonth, 1), "month", label)


def half_year(in_year: int, part: Literal[1, 2]) -> Period:
    """上半年 (Jan–Jun) / 下半年 (Jul–Dec), unit month."""
    return months(in_year, 1 if part == 1 else 7, 6, f"{in_year}-H{part}")


def half_month(of: PeriodLike, part: Literal[1, 2]) -> Relative:
    """上半月 (days 1–15) / 下半月 (16–last) of a month, unit day."""

    def pick(clock: Clock) -> Period:
        first = resolve(of, clock).first
        if part == 1:
            return days(first, first.replace(day=15))
        return days(first.replace(day=16), first.replace(day=_last_day(first.year, first.month)))

    return pick


def iso_week(week_year: int, number: int) -> Period:
    """ISO week `number` of ISO week-year `week_year` (2020-W53 runs into 2021)."""
    return week_of(date.fromisocalendar(week_year, number, 1))


def relative_year(back: int) -> Callable[[Clock], int]:
    """The calendar year `back` years before now's (去年 = 1)."""
    return lambda clock: clock.today.year - back


def in_relative_year(back: int, make: Callable[[int], Period]) -> Relative:
    """A partial of a year named relative to now (`week 27 of last year`, 去年下半年)."""
    return lambda clock: make(clock.today.year - back)


def _easter(in_year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian computus)."""
    a, b, c = in_year % 19, in_year // 100, in_year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    leap = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * leap) // 451
    number, dom = divmod(h + leap - 7 * m + 114, 31)
    return date(in_year, number, dom + 1)


def _nth_weekday(in_year: int, number: int, which: int, nth: int) -> date:
    """The `nth` weekday `which` (0 = Monday) of a month; nth = -1 is the last one."""
    if nth > 0:
        first = date(in_year, number, 1)
        return first + timedelta(days=(which - first.weekday()) % 7 + 7 * (nth - 1))
    last_ = date(in_year, number, _last_day(in_year, number))
    return last_ - timedelta(days=(last_.weekday() - which) % 7)


def _lunar(number: int, dom: int) -> Callable[[int], date]:
    return lambda y: LunarDate(y, number, dom).to_solar_date()


def _solar(number: int, dom: int) -> Callable[[int], date]:
    return lambda y: date(y, number, dom)


# SPEC §4.2's holidays, each a function of the year named. 除夕 is the eve of that year's 春节;
# 腊八 is lunar 12/8 of that lunar year (only used where every reading gives the same day).
HOLIDAYS_V3: dict[str, Callable[[int], date]] = {
    "清明": lambda y: TermUtils.nth_term_day(y, term_name="清明"),
    "除夕": lambda y: LunarDate(y, 1, 1).to_solar_date() - timedelta(days=1),
    "重阳": _lunar(9, 9),
    "腊八": _lunar(12, 8),
    "平安夜": _solar(12, 24),
    "圣诞": _solar(12, 25),
    "情人节": _solar(2, 14),
    "妇女节": _solar(3, 8),
    "儿童节": _solar(6, 1),
    "教师节": _solar(9, 10),
    "万圣节": _solar(10, 31),
    "New Year's Day": _solar(1, 1),
    "New Year's Eve": _solar(12, 31),
    "Independence Day": _solar(7, 4),
    "St Patrick's Day": _solar(3, 17),
    "Easter": _easter,
    "Thanksgiving": lambda y: _nth_weekday(y, 11, 3, 4),
    "Black Friday": lambda y: _nth_weekday(y, 11, 3, 4) + timedelta(days=1),
    "Memorial Day": lambda y: _nth_weekday(y, 5, 0, -1),
    "Labor Day": lambda y: _nth_weekday(y, 9, 0, 1),
    "Mother's Day": lambda y: _nth_weekday(y, 5, 6, 2),
    "Father's Day": lambda y: _nth_weekday(y, 6, 6, 3),
}


def holiday(name: str, in_year: int) -> Period:
    """A §4.2 holiday's day in `in_year`."""
    one = HOLIDAYS_V3[name](in_year)
    return Period(one, one + timedelta(days=1), "day", f"{one} ({name})")


def bare_holiday(name: str) -> Relative:
    """A §4.2 holiday with no year: this year's if it has started, else last year's."""
    return bare_yearly(lambda y: holiday(name, y))
