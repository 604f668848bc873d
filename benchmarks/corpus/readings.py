"""The window a reading means at a clock, computed with the gold oracle's calendar.

A reading is a short string written next to each phrase in the tables (`en_table.py`,
`zh_table.py`):

| reading | window |
|---|---|
| `now` | `{"instant": true}` |
| `none` | nothing settled (`null`) |
| `day 2013-02-11` | that day, step day |
| `days 2013-07-13 2013-07-15` (`hdays`: a holiday of days) | first .. last day, step day |
| `week 2013-02-04` | the ISO week holding that date, step week |
| `weeks A B` | the ISO week of A .. the ISO week of B, step week |
| `month 2013-01`, `months A B` | those months, step month |
| `quarter 2013-Q1` | that quarter, step quarter |
| `year 2012`, `years 2011 2012` | those years, step year (any year, also BC: `year -2014`) |
| `todate week` | start of the current week .. now, step week |
| `rest week` | now .. end of the current week, step week |
| `roll -2 day`, `roll +3 hour` | now − 2 d .. now / now .. now + 3 h (hours, minutes: step day) |
| `at -7 day` | start = end = now − 7 days, step day |
| `span 2013-02-14T09:30 2013-02-14T11:00` | 09:30 .. 10:59:59.999 (1 ms before 11:00), step day |

All wall-clock arithmetic is in the row's timezone (`benchmarks.gold_oracle.periods`).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any, Literal

from benchmarks.gold_oracle.periods import (
    Clock,
    Period,
    Unit,
    month,
    period_of,
    quarter,
    shift_wall,
    week_of,
)

Params = dict[str, Any]
UNITS: tuple[Unit, ...] = ("day", "week", "month", "quarter", "year")
SUB_DAY = ("hour", "minute")
SINGLE_KINDS = frozenset({"day", "hdays", "week", "month", "quarter", "year", "todate"})
KINDS = frozenset(
    {
        "now",
        "none",
        "day",
        "days",
        "hdays",
        "week",
        "weeks",
        "month",
        "months",
        "quarter",
        "year",
        "years",
        "todate",
        "rest",
        "roll",
        "at",
        "span",
    }
)


def _window(start: int, end: int, step: str) -> Params:
    return {"instant": False, "start": start, "end": end, "step": step}


def _unit(word: str) -> Unit:
    for unit in UNITS:
        if unit == word:
            return unit
    raise ValueError(f"not a unit: {word}")


def _civil_days(y: int, m: int, d: int) -> int:
    """Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (any year)."""
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _midnight(clock: Clock, y: int, m: int, d: int) -> int:
    """Epoch ms of local midnight; years Python cannot hold use the zone's offset of now."""
    if 1 <= y <= 9998:
        return clock.midnight(date(y, m, d))
    offset = clock.tz.utcoffset(clock.wall)
    assert offset is not None
    return _civil_days(y, m, d) * 86_400_000 - int(offset.total_seconds()) * 1000


def _date(text: str) -> date:
    return date.fromisoformat(text)


def _period_window(first: Period, last: Period, clock: Clock, step: str) -> Params:
    return _window(first.start(clock), last.end(clock), step)


def _shift_ms(clock: Clock, n: int, unit: str) -> int:
    if unit == "hour":
        return clock.now_ms + n * 3_600_000
    if unit == "minute":
        return clock.now_ms + n * 60_000
    return clock.ms(shift_wall(clock.wall, n, _unit(unit)))


def _year_window(clock: Clock, first: int, last: int) -> Params:
    start = _midnight(clock, first, 1, 1)
    end = _midnight(clock, last + 1, 1, 1) - 1
    return _window(start, end, "year")


def _month_of(text: str) -> Period:
    y, m = text.split("-")
    return month(int(y), int(m))


def kind_of(reading: str) -> str:
    """The first word of a reading (checked against the known kinds)."""
    kind = reading.split(maxsplit=1)[0]
    if kind not in KINDS:
        raise ValueError(f"unknown reading: {reading}")
    return kind


def evaluate(reading: str, clock: Clock) -> Params | None:  # noqa: PLR0911
    """The expected parameters of a reading at a clock (None: nothing settled)."""
    kind, *args = reading.split()
    if kind == "now":
        return {"instant": True}
    if kind == "none":
        return None
    if kind == "day":
        one = _date(args[0])
        return _period_window(period_of("day", one), period_of("day", one), clock, "day")
    if kind in ("days", "hdays"):
        first, last = _date(args[0]), _date(args[1])
        return _window(clock.midnight(first), clock.midnight(last + timedelta(days=1)) - 1, "day")
    if kind in ("week", "weeks"):
        first_w = week_of(_date(args[0]))
        last_w = week_of(_date(args[-1]))
        return _period_window(first_w, last_w, clock, "week")
    if kind in ("month", "months"):
        return _period_window(_month_of(args[0]), _month_of(args[-1]), clock, "month")
    if kind == "quarter":
        y, q = args[0].split("-Q")
        the_quarter = quarter(int(y), int(q))
        return _period_window(the_quarter, the_quarter, clock, "quarter")
    if kind in ("year", "years"):
        return _year_window(clock, int(args[0]), int(args[-1]))
    if kind == "todate":
        current = period_of(_unit(args[0]), clock.today)
        return _window(current.start(clock), clock.now_ms, current.unit)
    if kind == "rest":
        current = period_of(_unit(args[0]), clock.today)
        return _window(clock.now_ms, current.end(clock), current.unit)
    if kind in ("roll", "at"):
        n, word = int(args[0]), args[1]
        step = "day" if word in SUB_DAY else _unit(word)
        moved = _shift_ms(clock, n, word)
        if kind == "at":
            return _window(moved, moved, step)
        return _window(min(moved, clock.now_ms), max(moved, clock.now_ms), step)
    if kind == "span":
        start = clock.ms(datetime.fromisoformat(args[0]))
        end = clock.ms(datetime.fromisoformat(args[1])) - 1
        return _window(start, end, "day")
    raise ValueError(f"unknown reading: {reading}")


def single_of(reading: str) -> bool:
    """Does the reading name one calendar period (a day, week, …, or one holiday)?"""
    return kind_of(reading) in SINGLE_KINDS


Basis = Literal["spec", "spec-nothing", "silent", "out-of-range"]
