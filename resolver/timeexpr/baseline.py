"""Comparison baselines (SPEC §9.1): the window a settled main window is compared with — pure
arithmetic on the main window's bounds and its normal form (`expression`), at a clock, in a
zone; no reading of text.

The main window's shape comes from its expression (`shape_of`):

- **whole** periods of one unit (`now-1M/M`, `2025-Q3`, `2024-01..2024-03`, `FY2025-Q3`);
- **to date** (`now/M..now`, `now/y..now`, `now/FY..now`): a period's start .. now;
- **rolling** (`now-3M..now`, `now-7d..now`, `now-24h..now`): N units back .. now;
- **range**: anything else with a length (`2024-03-15..2024-04-20`, `2025-03-15..now`).

Kinds:

- `year_over_year`: one year earlier, day for day. Whole periods map to the same periods a year
  back (an ISO week to the week of the same number, week 53 to week 52 in a year without one);
  to-date windows compare the same days (本月 MTD → the same days of that month last year).
- `period_over_period`: the window of the same length immediately before. Whole periods map to
  the previous periods (2025-Q3 → 2025-Q2; 2024-01..2024-03 → 2023-10..2023-12); to-date windows
  to the same days of the previous period; rolling windows shift by their length; ranges by their
  length in days (or in ms when they do not start and end on day boundaries).
- `explicit`: two named windows, the first named is main (`explicit`).

Month ends clip: a day past the end of the target month becomes its last day (2024-02-29 a year
back is 2023-02-28; the 31st of March's MTD a month back ends on February's last day).
A point or an instant has no length to compare: `None`.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Literal, NamedTuple
from zoneinfo import ZoneInfo

from resolver.timeexpr.calendar import epoch_ms, shift, wall_clock
from resolver.timeexpr.result import Step

Kind = Literal["year_over_year", "period_over_period", "explicit"]
KINDS: tuple[Kind, ...] = ("year_over_year", "period_over_period", "explicit")
ShapeKind = Literal["whole", "to_date", "rolling", "range"]
# Units of a shape: calendar (d w M Q y), fiscal (FQ FH FY), finer than a day (h min).
_MONTHS = {"M": 1, "Q": 3, "y": 12, "FQ": 3, "FH": 6, "FY": 12}
_CLOCK_MS = {"h": 3_600_000, "min": 60_000}
_MS = timedelta(milliseconds=1)
_ROUNDED = re.compile(r"now(?:[+-]\d+(?:d|w|M|Q|y|FY|FQ))?/(d|w|M|Q|y|FY|FQ)")
_TO_DATE = re.compile(r"now/(d|w|M|Q|y|FQ|FY)\.\.now")
_ROLLING = re.compile(r"now-(\d+)(d|w|M|Q|y|h|min)\.\.now")
_ABSOLUTE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\d{4}"), "y"),
    (re.compile(r"\d{4}-\d{2}"), "M"),
    (re.compile(r"\d{4}-Q[1-4]"), "Q"),
    (re.compile(r"\d{4}-W\d{2}"), "w"),
    (re.compile(r"\d{4}-\d{2}-\d{2}"), "d"),
    (re.compile(r"FY\d{4}"), "FY"),
    (re.compile(r"(?:FY\d{4}|FY|now/FY|now[+-]\d+FY/FY)-Q[1-4]"), "FQ"),
    (re.compile(r"(?:FY\d{4}|FY|now/FY|now[+-]\d+FY/FY)-H[12]"), "FH"),
)
_FISCAL_LABEL = re.compile(r"FY(\d{4})(?:-([QH])([1-4]))?")


class Shape(NamedTuple):
    """What a main window is: `kind`, its unit code and, for rolling windows, how many."""

    kind: ShapeKind
    unit: str | None = None
    units: int = 0


class Main(NamedTuple):
    """A settled main window: epoch ms (the end its last ms), its step and normal form."""

    start_ms: int
    end_ms: int
    step: Step
    expression: str


class Baseline(NamedTuple):
    """The window a main window is compared with: epoch ms (the end its last ms), the main's
    step, a normal form and the comparison's kind."""

    start_ms: int
    end_ms: int
    step: Step
    expression: str
    kind: Kind


def _term_unit(term: str) -> str | None:
    """The unit of a period term (`now-1M/M` → M, `2025-Q3` → Q), None for a point."""
    rounded = _ROUNDED.fullmatch(term)
    if rounded is not None:
        return rounded.group(1)
    for pattern, unit in _ABSOLUTE:
        if pattern.fullmatch(term):
            return unit
    return None


def shape_of(expression: str) -> Shape:
    """The shape of a main window from its normal form."""
    to_date = _TO_DATE.fullmatch(expression)
    if to_date is not None:
        return Shape("to_date", to_date.group(1))
    rolling = _ROLLING.fullmatch(expression)
    if rolling is not None:
        return Shape("rolling", rolling.group(2), int(rolling.group(1)))
    terms = expression.split("..")
    units = {_term_unit(term) for term in terms}
    if len(terms) <= 2 and len(units) == 1 and None not in units:
        return Shape("whole", units.pop())
    return Shape("range")


def year_over_year(main: Main, tz: ZoneInfo) -> Baseline | None:
    """The main window one year earlier (None for a point: nothing to compare)."""
    start_ms, end_ms, step, expression = main
    if end_ms <= start_ms:
        return None
    shape = shape_of(expression)
    start, end = wall_clock(start_ms, tz), wall_clock(end_ms, tz)
    if shape.unit == "w" and shape.kind in ("whole", "to_date"):
        first, last = _iso_year_back(start), _iso_year_back(end)
        if shape.kind == "whole":  # to the end of the last week's namesake
            last = _iso_year_back(_period_start(end, "w")) + timedelta(days=7) - _MS
    elif shape.kind in ("to_date", "rolling"):
        first, last = shift(start, -12, "month"), shift(end, -12, "month")
    else:  # whole periods and ranges: their exclusive end moves, so month ends clip
        first, last = shift(start, -12, "month"), shift(end + _MS, -12, "month") - _MS
    label = _fiscal_label(expression, shape, -1, year_over_year=True)
    return _baseline(first, last, step, shape=shape, label=label, kind="year_over_year", tz=tz)


def period_over_period(main: Main, tz: ZoneInfo) -> Baseline | None:
    """The window of the same length immediately before the main one (None for a point)."""
    start_ms, end_ms, step, expression = main
    if end_ms <= start_ms:
        return None
    shape = shape_of(expression)
    start, end = wall_clock(start_ms, tz), wall_clock(end_ms, tz)
    after = end + _MS
    unit = shape.unit
    if shape.kind == "whole" and unit is not None:
        count = _units_between(start, after, unit)
        first, last = _back(start, count, unit), _back(after, count, unit) - _MS
        label = _fiscal_label(expression, shape, -count, year_over_year=False)
        return _baseline(
            first, last, step, shape=shape, label=label, kind="period_over_period", tz=tz
        )
    if shape.kind == "to_date" and unit is not None:
        first, last = _back(start, 1, unit), _back(end, 1, unit)
    elif shape.kind == "rolling" and unit is not None:
        if unit in _CLOCK_MS:
            length = shape.units * _CLOCK_MS[unit]
            return _from_ms(start_ms - length, start_ms - 1, step, "period_over_period", tz)
        first, last = _back(start, shape.units, unit), start - _MS
    elif _is_midnight(start) and _is_midnight(after):
        first, last = start - timedelta(days=(after.date() - start.date()).days), start - _MS
    else:
        length = end_ms + 1 - start_ms
        return _from_ms(start_ms - length, start_ms - 1, step, "period_over_period", tz)
    return _baseline(first, last, step, shape=shape, label=None, kind="period_over_period", tz=tz)


def explicit(other: Main) -> Baseline:
    """The second of two named windows as the baseline of the first (`Q3 vs Q2`)."""
    return Baseline(*other, "explicit")


def _back(moment: datetime, count: int, unit: str) -> datetime:
    """`moment` moved back `count` units (months clamp the day)."""
    if unit in _MONTHS:
        return shift(moment, -count * _MONTHS[unit], "month")
    if unit in _CLOCK_MS:
        return moment - timedelta(milliseconds=count * _CLOCK_MS[unit])
    return moment - timedelta(days=count * (7 if unit == "w" else 1))


def _units_between(start: datetime, after: datetime, unit: str) -> int:
    """How many whole units of `unit` run from `start` to `after` (both period boundaries)."""
    if unit in _MONTHS:
        months = (after.year - start.year) * 12 + after.month - start.month
        return max(1, round(months / _MONTHS[unit]))
    days = (after.date() - start.date()).days
    return max(1, days // (7 if unit == "w" else 1))


def _iso_year_back(moment: datetime) -> datetime:
    """The same ISO weekday and time in the week of the same number a year back (week 53 → 52
    when that year has none)."""
    year, week, weekday = moment.isocalendar()
    last_week = date(year - 1, 12, 28).isocalendar()[1]
    day = date.fromisocalendar(year - 1, min(week, last_week), weekday)
    return datetime.combine(day, moment.time())


def _is_midnight(moment: datetime) -> bool:
    return moment.hour == moment.minute == moment.second == moment.microsecond == 0


def _fiscal_label(
    expression: str, shape: Shape, offset: int, *, year_over_year: bool
) -> str | None:
    """A whole fiscal window's baseline named as fiscal periods (FY2025-Q3 → FY2024-Q3 a year
    back, FY2025-Q2 one quarter back); None for any other window."""
    if shape.kind != "whole" or shape.unit not in ("FY", "FQ", "FH"):
        return None
    per_year = {"FY": 1, "FH": 2, "FQ": 4}[shape.unit]
    moved = []
    for term in expression.split(".."):
        matched = _FISCAL_LABEL.fullmatch(term)
        if matched is None:
            return None
        part = int(matched.group(3) or 1)
        index = int(matched.group(1)) * per_year + part - 1
        index += per_year * offset if year_over_year else offset
        year, part0 = divmod(index, per_year)
        moved.append(f"FY{year}" + (f"-{matched.group(2)}{part0 + 1}" if per_year > 1 else ""))
    return "..".join(moved)


def _label(moment: datetime, unit: str) -> str:
    """The absolute name of the calendar period of `unit` starting at `moment`."""
    if unit == "y":
        return f"{moment.year}"
    if unit == "M":
        return f"{moment.year}-{moment.month:02d}"
    if unit == "Q":
        return f"{moment.year}-Q{(moment.month - 1) // 3 + 1}"
    if unit == "w":
        year, week, _ = moment.isocalendar()
        return f"{year}-W{week:02d}"
    return moment.date().isoformat()


def _point(moment: datetime, *, end: bool) -> str:
    """A bound as a day (a period boundary) or a day and time (`2024-11-13T09:12:22.241`)."""
    if _is_midnight(moment + _MS if end else moment):
        return moment.date().isoformat()
    text = moment.isoformat(timespec="milliseconds")
    return text.removesuffix(":00.000")


def _baseline(
    first: datetime,
    last: datetime,
    step: Step,
    *,
    shape: Shape,
    label: str | None,
    kind: Kind,
    tz: ZoneInfo,
) -> Baseline:
    if label is None and shape.kind == "whole" and shape.unit in ("y", "M", "Q", "w", "d"):
        head = _label(first, shape.unit)
        tail = _label(_period_start(last, shape.unit), shape.unit)
        label = head if head == tail else f"{head}..{tail}"
    if label is None:
        label = f"{_point(first, end=False)}..{_point(last, end=True)}"
    return Baseline(epoch_ms(first, tz), epoch_ms(last, tz), step, label, kind)


def _period_start(moment: datetime, unit: str) -> datetime:
    day = moment.date()
    if unit == "w":
        day -= timedelta(days=day.weekday())
    elif unit == "M":
        day = day.replace(day=1)
    elif unit == "Q":
        day = date(day.year, day.month - (day.month - 1) % 3, 1)
    elif unit == "y":
        day = date(day.year, 1, 1)
    return datetime.combine(day, datetime.min.time())


def _from_ms(start_ms: int, end_ms: int, step: Step, kind: Kind, tz: ZoneInfo) -> Baseline:
    first, last = wall_clock(start_ms, tz), wall_clock(end_ms, tz)
    return Baseline(
        start_ms, end_ms, step, f"{_point(first, end=False)}..{_point(last, end=True)}", kind
    )
