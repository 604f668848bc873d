"""What a phrase settles, as a function of the clock: a window, an instant, or nothing.

Each builder returns a `Spec`; applied to a clock it gives the `Answer`: the settled parameters
exactly as the gold files hold them (`{"instant": false, "start", "end", "step"}`,
`{"instant": true}` or None) and a canonical expression for the note.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any

from benchmarks.gold_oracle.periods import (
    UNITS,
    Clock,
    PeriodLike,
    Unit,
    month,
    quarter,
    resolve,
    shift_wall,
)

Params = dict[str, Any]
SYMBOL: dict[Unit, str] = {"day": "d", "week": "w", "month": "M", "quarter": "Q", "year": "y"}


@dataclass(frozen=True, slots=True)
class Answer:
    """The settled parameters (None: nothing settled) and a canonical expression."""

    params: Params | None
    expr: str


Spec = Callable[[Clock], Answer]


def _window(start: int, end: int, step: Unit) -> Params:
    return {"instant": False, "start": start, "end": end, "step": step}


def finest(*units: Unit) -> Unit:
    """The finest of some units (day < week < month < quarter < year)."""
    return min(units, key=UNITS.index)


def whole(period: PeriodLike, step: Unit | None = None) -> Spec:
    """That whole period; step = its unit unless a step word or override gives one."""

    def answer(clock: Clock) -> Answer:
        p = resolve(period, clock)
        return Answer(_window(p.start(clock), p.end(clock), step or p.unit), p.label)

    return answer


def span(*periods: PeriodLike, step: Unit | None = None) -> Spec:
    """Ranges and lists: start of the earliest .. end of the latest, step = finest unit."""

    def answer(clock: Clock) -> Answer:
        ps = [resolve(p, clock) for p in periods]
        first = min(ps, key=lambda p: p.start(clock))
        latest = max(ps, key=lambda p: p.end(clock))
        unit = step or finest(*(p.unit for p in ps))
        window = _window(first.start(clock), latest.end(clock), unit)
        return Answer(window, f"{first.label}..{latest.label}")

    return answer


def rolling(n: int, unit: Unit, step: Unit | None = None) -> Spec:
    """最近/过去/近 N units: now − N units .. now, step = unit."""

    def answer(clock: Clock) -> Answer:
        start = clock.ms(shift_wall(clock.wall, -n, unit))
        window = _window(start, clock.now_ms, step or unit)
        return Answer(window, f"now-{n}{SYMBOL[unit]}..now")

    return answer


def ago(n: int, unit: Unit) -> Spec:
    """N units ago: start = end = now − N units, step = unit."""

    def answer(clock: Clock) -> Answer:
        point = clock.ms(shift_wall(clock.wall, -n, unit))
        return Answer(_window(point, point, unit), f"now-{n}{SYMBOL[unit]}")

    return answer


def since(period: PeriodLike, step: Unit | None = None) -> Spec:
    """自X以来 / X至今 / since X: start(X) .. now, step = unit of X."""

    def answer(clock: Clock) -> Answer:
        p = resolve(period, clock)
        return Answer(_window(p.start(clock), clock.now_ms, step or p.unit), f"{p.label}..now")

    return answer


def as_of(period: PeriodLike) -> Spec:
    """截至X / X为止 / as of X: start = end = end(X), step = unit of X (a point)."""

    def answer(clock: Clock) -> Answer:
        p = resolve(period, clock)
        end = p.end(clock)
        return Answer(_window(end, end, p.unit), f"end({p.label})")

    return answer


def elapsed(minutes: int, step: Unit = "day") -> Spec:
    """最近 N 小时/分钟: now − N minutes of elapsed time .. now, step day (the finest)."""

    def answer(clock: Clock) -> Answer:
        window = _window(clock.now_ms - minutes * 60_000, clock.now_ms, step)
        return Answer(window, f"now-{minutes}min..now")

    return answer


def first_n(n: int, unit: Unit, in_year: int | None = None, step: Unit | None = None) -> Spec:
    """前N季度 / 2024年前N个月: the year's start .. end of its Nth unit (no year: this year)."""

    def answer(clock: Clock) -> Answer:
        y = clock.today.year if in_year is None else in_year
        parts = (month(y, 1), month(y, n)) if unit == "month" else (quarter(y, 1), quarter(y, n))
        return span(*parts, step=step)(clock)

    return answer


def instant(clock: Clock) -> Answer:
    """An instant word: `{"instant": true}`."""
    del clock  # an instant does not depend on the clock
    return Answer({"instant": True}, "now")


def nothing(why: str) -> Spec:
    """A leftover time cue: nothing may be settled."""
    return lambda clock: Answer(None, f"none ({why})")


# -- v3: SPEC §4.2 (the open world) -------------------------------------------------------------


def ahead(n: int, unit: Unit, step: Unit | None = None) -> Spec:
    """未来/接下来 N units, next N days: now .. now + N units, step = unit (mirror of 最近 N)."""

    def answer(clock: Clock) -> Answer:
        end = clock.ms(shift_wall(clock.wall, n, unit))
        window = _window(clock.now_ms, end, step or unit)
        return Answer(window, f"now..now+{n}{SYMBOL[unit]}")

    return answer


def later(n: int, unit: Unit) -> Spec:
    """`in 3 days` / 3天后: start = end = now + N units, step = unit (mirror of N units ago)."""

    def answer(clock: Clock) -> Answer:
        point = clock.ms(shift_wall(clock.wall, n, unit))
        return Answer(_window(point, point, unit), f"now+{n}{SYMBOL[unit]}")

    return answer


def rest_of(period: PeriodLike, step: Unit | None = None) -> Spec:
    """later this week / 本月剩余 / rest of the year: now .. end of that period."""

    def answer(clock: Clock) -> Answer:
        p = resolve(period, clock)
        return Answer(_window(clock.now_ms, p.end(clock), step or p.unit), f"now..end({p.label})")

    return answer


def hours(on: PeriodLike, first_hour: int, until: tuple[int, int] | None) -> Spec:
    """An hour range on a named day: start of the first hour .. 1 ms before the last named time
    (`until` as (hour, minute); 24 = the next midnight), or .. now when `until` is None; step day.
    Wall-clock times, read with fold=0."""

    def answer(clock: Clock) -> Answer:
        one = resolve(on, clock).first
        start = clock.ms(datetime.combine(one, time(first_hour)))
        if until is None:
            return Answer(_window(start, clock.now_ms, "day"), f"{one}T{first_hour:02d}..now")
        hour, minute = until
        end = clock.ms(datetime.combine(one, time()) + timedelta(hours=hour, minutes=minute)) - 1
        expr = f"{one}T{first_hour:02d}..{one}T{hour:02d}:{minute:02d}"
        return Answer(_window(start, end, "day"), expr)

    return answer


# -- v4: SPEC §4.3 -------------------------------------------------------------------------------


def clock_range(on: PeriodLike, first: tuple[int, int], until: tuple[int, int]) -> Spec:
    """A clock range on a named day with minutes (`2:00 to 2:30 pm`, 3点15分到5点): the first
    named time .. 1 ms before the last one, step day (SPEC §4.2's hour-range row)."""

    def answer(clock: Clock) -> Answer:
        one = resolve(on, clock).first
        midnight = datetime.combine(one, time())
        start = clock.ms(midnight + timedelta(hours=first[0], minutes=first[1]))
        end = clock.ms(midnight + timedelta(hours=until[0], minutes=until[1])) - 1
        expr = f"{one}T{first[0]:02d}:{first[1]:02d}..{one}T{until[0]:02d}:{until[1]:02d}"
        return Answer(_window(start, end, "day"), expr)

    return answer


def start_to_end(first: PeriodLike, last_: PeriodLike, step: Unit) -> Spec:
    """start(first) .. end(last_), even where `first` ends later (今年以来截至昨天)."""

    def answer(clock: Clock) -> Answer:
        a, b = resolve(first, clock), resolve(last_, clock)
        return Answer(_window(a.start(clock), b.end(clock), step), f"{a.label}..{b.label}")

    return answer
