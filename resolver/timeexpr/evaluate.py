"""Evaluation: a reading at a clock → the one window it asks for, or nothing.

The reading (`reading.py`) is clock-free; here partials are placed (this year's March, last
week's Friday), ranges and lists are joined, since / as-of / hour ranges are made, and each
window is checked: a range that runs backwards, since a period still to come, 截至 a period
that has not ended, a weekday that disagrees with its date make no window, and then the text
settles nothing (what it asked cannot be answered as written).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import NamedTuple

from resolver.timeexpr.atoms import Atom, ClockTime, Kind
from resolver.timeexpr.merge import Expression
from resolver.timeexpr.partials import Partial, Placed, bare, inherit, place_in
from resolver.timeexpr.result import STEPS, Step
from resolver.timeexpr.terms import NOW, Absolute, Clock, EndOf, Moment, Relative, Term


class Window(NamedTuple):
    """start(first) .. end(last or first), its natural step, and whether it is one period."""

    first: Term
    last: Term | None
    unit: Step
    single: bool

    def __str__(self) -> str:
        return str(self.first) if self.last is None else f"{self.first}..{self.last}"


class Evaluated(NamedTuple):
    """A window with its bounds in epoch ms and the text that asked for it."""

    window: Window
    start: int
    end: int
    expression: Expression


def evaluate(expression: Expression, clock: Clock) -> Evaluated | None:
    """The window of one expression at a clock, or None when it makes none."""
    try:
        window = _window(expression, clock)
        if window is None:
            return None
        if window.last is None:
            start, end = window.first.bounds(clock)
        else:
            start, end = window.first.start_ms(clock), window.last.end_ms(clock)
    except (ValueError, OverflowError):  # a year before 1 or after 9999
        return None
    if start > end:  # backwards: 从2025年到2023年, 自2026年以来
        return None
    return Evaluated(window, start, end, expression)


def _window(expression: Expression, clock: Clock) -> Window | None:
    items, mode = expression.items, expression.mode
    if mode == "hours":
        return _hours(expression, clock)
    if mode != "plain" and len(items) > 1:
        return None
    if mode == "plain" and len(items) == 1:
        return _single(items[0], clock)
    placed = _place_all(items, clock)
    if not placed:
        return None
    unit = min((a.unit for a in placed if a.unit), key=STEPS.index, default=None)
    only = placed[0]
    if unit is None or only.first is None:
        return None
    if mode == "since":
        return Window(only.first, NOW, only.unit or unit, single=False)
    if mode == "asof":
        return _as_of(only, unit, clock)
    if mode == "weekof":
        day = only.first.first_day(clock)
        monday = day - timedelta(days=day.weekday())
        return Window(Absolute("week", monday), None, "week", single=True)
    return _joined(placed, expression.joins, unit, clock)


def _single(atom: Atom, clock: Clock) -> Window | None:
    resolved = resolve(atom, clock)
    if resolved is None or resolved.first is None or resolved.unit is None:
        return None
    if resolved.kind in ("anchor", "now", "clock", "compare", "day_number"):
        return None
    return Window(resolved.first, resolved.last, resolved.unit, resolved.kind in ("period", "this"))


def resolve(atom: Atom, clock: Clock) -> Atom | None:
    """The atom with its partial placed (3月 → 2025-03 at this clock), checked against the
    weekday it must fall on; None when it cannot be placed."""
    if atom.kind != "partial" or atom.partial is None:
        if (
            atom.weekday >= 0
            and atom.first is not None
            and atom.first.first_day(clock).weekday() != atom.weekday
        ):
            return None  # 昨天，星期四: yesterday is no Thursday
        return atom
    placed = _place(atom.partial, atom, clock)
    if placed is None:
        return None
    first, last = placed
    if atom.weekday >= 0 and (last is not None or first.first.weekday() != atom.weekday):
        return None  # 10月12号，星期一 when the 12th is a Wednesday
    kind: Kind = "span" if last is not None else "period"
    return Atom(kind, atom.partial.unit, first, last)


def _place(partial: Partial, atom: Atom, clock: Clock) -> Placed | None:
    container = atom.container
    if container is None:
        return _place_from_now(partial, atom.place, clock.today)
    day = _container_day(container, clock)
    if day is None:
        return None
    if partial.container == "isoyear":
        day = date(day.year, 7, 1)  # 2021年第一周: of ISO year 2021, whose Jan 1 is in 2020's
    return place_in(partial, day)


def _container_day(container: Term | Atom, clock: Clock) -> date | None:
    if isinstance(container, Atom):
        resolved = resolve(container, clock)
        if resolved is None or resolved.first is None:
            return None
        if resolved.last is not None and resolved.kind != "this":  # 本月 holds 上旬 too
            return None
        return resolved.first.first_day(clock)
    return container.first_day(clock)


def _place_from_now(partial: Partial, place: str, today: date) -> Placed | None:
    if place in ("bare", "upcoming"):
        return bare(partial, today, upcoming=place == "upcoming")
    if place == "recent":  # this past Wednesday: the last one before today (a week's day)
        for day in (today, today - timedelta(days=7)):
            placed = place_in(partial, day)
            if placed is not None and placed[1] is None and placed[0].first < today:
                return placed
        return None
    # last March / next March: the nearest one wholly before / after the current month
    start = today.replace(day=1)
    years = (today.year, today.year - 1) if place == "previous" else (today.year, today.year + 1)
    for year in years:
        placed = place_in(partial, date(year, 1, 1))
        if placed is None:
            continue
        first = placed[0].first
        if (first < start) if place == "previous" else (first > start):
            return placed
    return None


def _as_of(atom: Atom, unit: Step, clock: Clock) -> Window | None:
    """截至X, X为止, as of X: the point end(X), for a period that has ended (or ends now)."""
    last = atom.last if atom.last is not None else atom.first
    if atom.kind not in ("period", "span", "this") or not isinstance(last, Relative | Absolute):
        return None
    point = EndOf(last)
    if point.end_ms(clock) > clock.now_ms:  # 截至 a period still to come: not a point yet
        return None
    return Window(point, None, unit, single=False)


def _place_all(items: tuple[Atom, ...], clock: Clock) -> list[Atom] | None:
    """Give every partial of a range or list its container: from a neighbour (2024年3月和4月,
    from January to March 2024, April 9th through 17th), else from now."""
    placed: list[Atom] = []
    for position, atom in enumerate(items):
        found = _place_item(atom, position, items, placed, clock)
        if found is None:
            return None
        placed.append(found)
    return placed


def _place_item(
    atom: Atom, position: int, items: tuple[Atom, ...], placed: list[Atom], clock: Clock
) -> Atom | None:
    """One item of a range or list, placed after the items before it."""
    if atom.kind in ("clock", "now", "compare") and position == 0:
        return None
    if atom.kind == "anchor" and position > 0:
        return None  # a start of a period ends no range
    if atom.kind not in ("partial", "day_number"):
        if len(items) > 1 and atom.kind in ("rolling", "ahead"):
            return None  # 最近3个月到…: a rolling window is no end of a range
        return resolve(atom, clock)
    partial = atom.partial
    if partial is None:
        return None
    result = _placed_part(atom, partial, items, placed, clock)
    if result is None:
        return None
    first, last = result
    if atom.weekday >= 0 and (last is not None or first.first.weekday() != atom.weekday):
        return None  # from Friday the 11th until …: the 11th placed must be a Friday
    return Atom("span" if last is not None else "period", partial.unit, first, last)


def _placed_part(
    atom: Atom, partial: Partial, items: tuple[Atom, ...], placed: list[Atom], clock: Clock
) -> Placed | None:
    if atom.container is not None or atom.place != "bare":
        resolved = resolve(atom, clock)
        if resolved is None or not isinstance(resolved.first, Absolute):
            return None
        return (resolved.first, resolved.last)  # type: ignore[return-value]
    if placed:
        base = _first_day(placed[-1], clock)
        if base is None or not _fits(partial, placed[-1]):
            return None
        return inherit(partial, base, 1)
    # The first part takes its container from a later item that has one (from Q1 to Q3 2024),
    # or from a later part naming a bigger period (the 27th to the 3rd of April: the 27th of
    # March); else it is placed from now and the others follow it.
    later = next((a for a in items[1:] if a.kind != "partial" or a.container is not None), None)
    if later is None and partial.container in ("month", "week"):
        later = next((a for a in items[1:] if a.kind == "partial"), None)
    resolved_later = None if later is None else resolve(later, clock)
    base = None if resolved_later is None else _first_day(resolved_later, clock)
    if resolved_later is not None and base is not None and _fits(partial, resolved_later):
        return inherit(partial, base, -1)
    if atom.kind == "day_number":
        return None
    return bare(partial, clock.today)


def _fits(partial: Partial, other: Atom) -> bool:
    """Whether a part can take its container from a neighbour of that unit (15日 after a day,
    周三 after a day, 4月 after anything with a year)."""
    if partial.container in ("month", "week"):
        return other.unit == "day" or (partial.container == "month" and other.unit == "month")
    return True


def _first_day(atom: Atom, clock: Clock) -> date | None:
    if atom.first is None:
        return None
    try:
        return atom.first.first_day(clock)
    except (ValueError, OverflowError):
        return None


def _joined(placed: list[Atom], joins: tuple[str, ...], unit: Step, clock: Clock) -> Window | None:
    """Ranges and lists: each run of range joins is one range; a list spans them all."""
    groups: list[tuple[Term, Term]] = []
    first_atom = placed[0]
    if first_atom.first is None:
        return None
    current: tuple[Term, Term] = (first_atom.first, first_atom.last or first_atom.first)
    for join, atom in zip(joins, placed[1:], strict=True):
        if atom.first is None:
            return None
        end = atom.last or atom.first
        if join == "range":
            current = (current[0], end)
        else:
            groups.append(current)
            current = (atom.first, end)
    groups.append(current)
    if len(groups) == 1:
        return Window(groups[0][0], groups[0][1], unit, single=False)
    earliest = min(groups, key=lambda group: group[0].start_ms(clock))[0]
    latest = max(groups, key=lambda group: group[1].end_ms(clock))[1]
    return Window(earliest, latest, unit, single=False)


_AFTERNOON = frozenset(
    (
        "下午",
        "晚上",
        "傍晚",
        "夜里",
        "夜间",
        "晚间",
        "深夜",
        "夜晚",
        "afternoon",
        "evening",
        "night",
    )
)


def _hours(expression: Expression, clock: Clock) -> Window | None:
    """An hour range on a named day: start of the first hour .. 1 ms before the last named
    time (or now). Hours need am/pm, a part of day or a clock word; the second time takes the
    first's am/pm or part of day when it names none (下午3点到5点)."""
    day_atom = expression.day
    if day_atom is None:
        return None
    day = _day_of(day_atom, clock)
    if day is None:
        return None
    clocks = [item.clock for item in expression.items if item.clock is not None]
    if not clocks:
        return None
    first_minutes = _minutes(clocks[0], None)
    if len(clocks) > 1 and not expression.to_now:
        first_minutes = _shared_meridiem(clocks[0], clocks[1], first_minutes)
    if first_minutes is None:
        return None
    first = Moment(day, first_minutes)
    if expression.to_now:
        if first.start_ms(clock) > clock.now_ms:
            return None
        return Window(first, NOW, "day", single=False)
    last_minutes = _minutes(clocks[1], clocks[0])
    if last_minutes is None or last_minutes <= first_minutes:
        return None
    return Window(first, Moment(day, last_minutes), "day", single=False)


def _shared_meridiem(first: ClockTime, last: ClockTime, minutes: int | None) -> int | None:
    """A clock range whose am/pm is written once, at its end (2:00 to 2:30 pm, 11 to 1pm):
    the first time takes that am/pm when it comes before the last, else the other one
    (11 to 1pm: 11:00–13:00) — SPEC §4.3."""
    if first.meridiem or first.part or not last.meridiem or not 1 <= first.hour <= 12:
        return minutes
    end = _minutes(last, None)
    same = _minutes(first._replace(meridiem=last.meridiem), None)
    if end is None or same is None:
        return None
    if same < end:
        return same
    return _minutes(first._replace(meridiem="am" if last.meridiem == "pm" else "pm"), None)


def _day_of(atom: Atom, clock: Clock) -> Absolute | None:
    if atom.kind == "now":
        return Absolute("day", clock.today)
    resolved = resolve(atom, clock)
    if resolved is None or resolved.last is not None or resolved.first is None:
        return None
    first = resolved.first
    if isinstance(first, Absolute):
        return first if first.unit == "day" else None
    if isinstance(first, Relative) and first.round_to == "day":
        return Absolute("day", first.first_day(clock))
    return None


_FIXED = {"noon": 12 * 60, "中午": 12 * 60, "midnight": 24 * 60, "午夜": 24 * 60}


def _minutes(time: ClockTime, before: ClockTime | None) -> int | None:
    """Minutes after midnight of a written time, or None when its hour is ambiguous (no am/pm,
    no part of day, no clock word: between 3 and 8). A second time with neither takes the
    first's (下午3点到5点: 5点 is in the afternoon too)."""
    meridiem, part = time.meridiem, time.part
    if part in _FIXED:
        return _FIXED[part]  # noon, midnight: no am/pm to take from the other time
    if meridiem is None and part is None and before is not None:
        meridiem, part = before.meridiem, before.part
    if meridiem is None and part is None and not time.clock_word:
        return None
    hour, minute = time.hour, time.minute
    if meridiem is not None:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if meridiem == "pm" else 0)
    elif part in _AFTERNOON and hour < 12:
        hour += 12
    if hour == 24 and minute == 0:
        return 24 * 60
    if hour > 23:
        return None
    return hour * 60 + minute
