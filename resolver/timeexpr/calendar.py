"""Calendar arithmetic on the local wall clock of a timezone (docs/time-semantics.md).

Wall-clock values are naive `datetime`s; they become epoch ms only through `epoch_ms`,
which reads every local time with `fold=0`, as zoneinfo does by default.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from resolver.timeexpr.result import Step

_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()
_MS = timedelta(milliseconds=1)
_ZERO = timedelta(0)
_MONTHS_PER: dict[Step, int] = {"month": 1, "quarter": 3, "year": 12}
_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def days_in_month(year: int, month: int) -> int:
    """Return the number of days of a month (Gregorian leap years)."""
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        return 29
    return _DAYS_IN_MONTH[month - 1]


def wall_clock(now_ms: int, tz: ZoneInfo) -> datetime:
    """Return the naive local wall time of an epoch-ms instant, to the millisecond."""
    local = datetime.fromtimestamp(now_ms // 1000, tz)
    return local.replace(tzinfo=None, microsecond=(now_ms % 1000) * 1000, fold=0)


def epoch_ms(wall: datetime, tz: ZoneInfo) -> int:
    """Return the epoch ms of a naive local wall time (fold=0 for gaps and repeats)."""
    if wall.fold:
        wall = wall.replace(fold=0)
    offset = tz.utcoffset(wall) or _ZERO  # never None for a ZoneInfo
    # Integer arithmetic: several times faster than datetime and timedelta objects.
    seconds = (wall.toordinal() - _EPOCH_ORDINAL) * 86400 + wall.hour * 3600
    seconds += wall.minute * 60 + wall.second
    return seconds * 1000 + wall.microsecond // 1000 - offset // _MS


def shift(wall: datetime, count: int, unit: Step) -> datetime:
    """Move a wall time by `count` units; months clamp the day to the target month's end."""
    if unit == "day":
        return wall + timedelta(days=count)
    if unit == "week":
        return wall + timedelta(days=7 * count)
    year, month0 = divmod(wall.year * 12 + wall.month - 1 + count * _MONTHS_PER[unit], 12)
    day = min(wall.day, days_in_month(year, month0 + 1))
    return wall.replace(year=year, month=month0 + 1, day=day)


def period_first_day(day: date, unit: Step) -> date:
    """Return the first day of the period of `unit` holding `day` (ISO weeks start Monday)."""
    if unit == "day":
        return day
    if unit == "week":
        return day - timedelta(days=day.weekday())
    if unit == "month":
        return day.replace(day=1)
    if unit == "quarter":
        return date(day.year, day.month - (day.month - 1) % 3, 1)
    return date(day.year, 1, 1)


def midnight(day: date) -> datetime:
    """Return the wall time of a day's first moment."""
    return datetime(day.year, day.month, day.day)  # noqa: DTZ001 - wall clock, see module doc


def period_bounds(first_day: date, unit: Step, tz: ZoneInfo) -> tuple[int, int]:
    """Return (first ms, last ms) of the period of `unit` starting on `first_day`."""
    start = midnight(first_day)
    return epoch_ms(start, tz), epoch_ms(shift(start, 1, unit), tz) - 1
