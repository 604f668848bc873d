"""Calendar helpers for the Recognizers-Text conversion: the SPEC's bare-period rules.

- a bare month, month + day, day of month, weekday or quarter is the current container's if
  it has started by now, else the previous one's (SPEC §4 bare month, §4.1 weekdays, §4.2
  bare day);
- two-digit years: 00–49 → 20YY, 50–99 → 19YY (SPEC §4.1, §4.3).
"""

from __future__ import annotations

from datetime import date, timedelta


def make_date(y: int, m: int, d: int) -> date | None:
    """The date, or None when it does not exist (Feb 30, 2019-02-29)."""
    try:
        return date(y, m, d)
    except ValueError:
        return None


def bare_month(today: date, m: int) -> int:
    """The year of a bare month: this year's if it has started, else last year's."""
    return today.year if m <= today.month else today.year - 1


def bare_quarter(today: date, q: int) -> int:
    """The year of a bare quarter, like a bare month."""
    return today.year if 3 * (q - 1) + 1 <= today.month else today.year - 1


def bare_month_day(today: date, m: int, d: int) -> date | None:
    """A month + day with no year: this year's if started, else last year's (None: no such day
    in that year)."""
    this = make_date(today.year, m, d)
    if this is not None and this <= today:
        return this
    if this is None and (m, d) <= (today.month, today.day):
        return None  # this year's has "started" but does not exist (Feb 29 in a common year)
    return make_date(today.year - 1, m, d)


def bare_day(today: date, d: int) -> date | None:
    """A day of the month alone: this month's if it exists and has started, else last
    month's (None: no such day)."""
    this = make_date(today.year, today.month, d)
    if this is not None and this <= today:
        return this
    first = today.replace(day=1)
    prev = first - timedelta(days=1)
    return make_date(prev.year, prev.month, d)


def monday(one: date) -> date:
    """The Monday of the ISO week holding `one`."""
    return one - timedelta(days=one.weekday())


def weekday_in_week(one: date, weekday: int, weeks: int = 0) -> date:
    """Weekday 1..7 (Monday..Sunday) of the ISO week `weeks` from the one holding `one`."""
    return monday(one) + timedelta(days=7 * weeks + weekday - 1)


def bare_weekday(today: date, weekday: int) -> date:
    """A bare weekday: this week's if it has started, else last week's."""
    this = weekday_in_week(today, weekday)
    return this if this <= today else this - timedelta(days=7)


def two_digit_year(yy: int) -> int:
    """A two-digit year: 00–49 → 20YY, 50–99 → 19YY."""
    return 2000 + yy if yy < 50 else 1900 + yy


def month_end(y: int, m: int) -> date:
    """The last day of a month."""
    nxt = date(y + (m == 12), m % 12 + 1, 1)
    return nxt - timedelta(days=1)


def shift_month(y: int, m: int, n: int) -> tuple[int, int]:
    """The month `n` months from y-m."""
    index = y * 12 + (m - 1) + n
    return index // 12, index % 12 + 1
