"""Terms of the canonical expression grammar and their evaluation to epoch ms.

A term is either relative to now (`now`, `now-3M`, `now-1M/M`, `now/M`) or an absolute
period (`2024`, `2024-03`, `2024-Q1`, `2025-W10`, `2025-12-25`). A point term (`now`,
`now-3M`) starts and ends at that instant; a period term spans its first to its last ms.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Literal, NamedTuple, cast
from zoneinfo import ZoneInfo

from resolver.timeexpr.calendar import (
    epoch_ms,
    midnight,
    period_bounds,
    period_first_day,
    shift,
    wall_clock,
)
from resolver.timeexpr.fiscal import FiscalCalendar, FiscalTerm
from resolver.timeexpr.result import Step

UNIT_CODE: dict[Step, str] = {"day": "d", "week": "w", "month": "M", "quarter": "Q", "year": "y"}
CODE_UNIT: dict[str, Step] = {code: unit for unit, code in UNIT_CODE.items()}
# Offsets finer than a day (最近3小时): exact elapsed time, shown as now-3h / now-30min.
ClockUnit = Literal["hour", "minute"]
_CLOCK_CODE: dict[str, str] = {"hour": "h", "minute": "min"}
_CLOCK_MS: dict[str, int] = {"hour": 3_600_000, "minute": 60_000}
_CODES: dict[str, str] = {str(unit): code for unit, code in UNIT_CODE.items()} | _CLOCK_CODE


class Clock:
    """The request's now and timezone; the local wall time is worked out once, on demand."""

    __slots__ = ("_wall", "fiscal", "now_ms", "tz")

    def __init__(self, now_ms: int, tz: ZoneInfo, fiscal: FiscalCalendar | None = None) -> None:
        self.now_ms = now_ms
        self.tz = tz
        self.fiscal = fiscal  # the request's fiscal calendar (SPEC §9.1), if any
        self._wall: datetime | None = None

    @property
    def wall(self) -> datetime:
        """Return now as a naive local wall time."""
        if self._wall is None:
            self._wall = wall_clock(self.now_ms, self.tz)
        return self._wall

    @property
    def today(self) -> date:
        """Return the local date of now."""
        return self.wall.date()


class Relative(NamedTuple):
    """`now` moved by `offset` units, optionally widened to the `round_to` period around it."""

    offset: int = 0
    unit: Step | ClockUnit | None = None
    round_to: Step | None = None

    def __str__(self) -> str:
        text = "now"
        if self.offset and self.unit is not None:
            text += f"{self.offset:+d}{_CODES[self.unit]}"
        if self.round_to is not None:
            text += "/" + UNIT_CODE[self.round_to]
        return text

    def point(self, clock: Clock) -> datetime:
        """Return the moved wall time, before any rounding."""
        if self.unit in _CLOCK_MS:
            return wall_clock(self.start_ms(clock), clock.tz)
        if self.offset and self.unit is not None:
            return shift(clock.wall, self.offset, cast("Step", self.unit))  # hours returned above
        return clock.wall

    def first_day(self, clock: Clock) -> date:
        """Return the local date the term starts on."""
        day = self.point(clock).date()
        return day if self.round_to is None else period_first_day(day, self.round_to)

    def start_ms(self, clock: Clock) -> int:
        """Return the term's first ms."""
        if self.round_to is not None:
            return epoch_ms(midnight(self.first_day(clock)), clock.tz)
        if self.unit in _CLOCK_MS:  # elapsed time, whatever the wall clock does (DST)
            return clock.now_ms + self.offset * _CLOCK_MS[self.unit]
        if self.offset and self.unit is not None:
            return epoch_ms(self.point(clock), clock.tz)
        return clock.now_ms

    def end_ms(self, clock: Clock) -> int:
        """Return the term's last ms."""
        return self.bounds(clock)[1]

    def bounds(self, clock: Clock) -> tuple[int, int]:
        """Return the term's first and last ms."""
        if self.round_to is not None:
            return period_bounds(self.first_day(clock), self.round_to, clock.tz)
        point = self.start_ms(clock)
        return point, point


class Absolute(NamedTuple):
    """A whole calendar period of `unit` starting on `first` (a Monday for weeks)."""

    unit: Step
    first: date

    def __str__(self) -> str:
        first = self.first
        if self.unit == "year":
            return f"{first.year:04d}"
        if self.unit == "quarter":
            return f"{first.year:04d}-Q{(first.month + 2) // 3}"
        if self.unit == "month":
            return f"{first.year:04d}-{first.month:02d}"
        if self.unit == "week":
            iso = first.isocalendar()
            return f"{iso.year:04d}-W{iso.week:02d}"
        return first.isoformat()

    def first_day(self, clock: Clock) -> date:
        """Return the local date the term starts on."""
        return self.first

    def start_ms(self, clock: Clock) -> int:
        """Return the period's first ms."""
        return epoch_ms(midnight(self.first), clock.tz)

    def end_ms(self, clock: Clock) -> int:
        """Return the period's last ms."""
        return self.bounds(clock)[1]

    def bounds(self, clock: Clock) -> tuple[int, int]:
        """Return the period's first and last ms."""
        return period_bounds(self.first, self.unit, clock.tz)


class EndOf(NamedTuple):
    """The last ms of a period as a point (截至2024年3月, as of March 2024)."""

    term: Relative | Absolute

    def __str__(self) -> str:
        return f"end({self.term})"

    def first_day(self, clock: Clock) -> date:
        """Return the local date of the point."""
        return wall_clock(self.end_ms(clock), clock.tz).date()

    def start_ms(self, clock: Clock) -> int:
        """Return the point."""
        return self.term.end_ms(clock)

    def end_ms(self, clock: Clock) -> int:
        """Return the point."""
        return self.term.end_ms(clock)

    def bounds(self, clock: Clock) -> tuple[int, int]:
        """Return the point twice."""
        point = self.term.end_ms(clock)
        return point, point


class Moment(NamedTuple):
    """A time of day on a day (昨天下午3点, today 9am): the start of an hour range, or its end,
    which falls 1 ms before the moment (today 9am to 11am ends at 10:59:59.999)."""

    day: Absolute
    minutes: int

    def __str__(self) -> str:
        return f"{self.day}T{self.minutes // 60:02d}:{self.minutes % 60:02d}"

    def first_day(self, clock: Clock) -> date:
        """Return the day."""
        return self.day.first

    def start_ms(self, clock: Clock) -> int:
        """Return the moment."""
        return epoch_ms(midnight(self.day.first) + timedelta(minutes=self.minutes), clock.tz)

    def end_ms(self, clock: Clock) -> int:
        """Return 1 ms before the moment: the last ms a range ending here holds."""
        return self.start_ms(clock) - 1

    def bounds(self, clock: Clock) -> tuple[int, int]:
        """Return the moment and 1 ms before it (a moment alone is no window)."""
        return self.start_ms(clock), self.end_ms(clock)


Term = Relative | Absolute | EndOf | Moment | FiscalTerm
NOW = Relative()
