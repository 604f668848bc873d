"""Turning a time value an LLM produced into epoch ms (SPEC §6), or saying why not."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from resolver.timeexpr.calendar import epoch_ms
from resolver.timeexpr.terms import CODE_UNIT, Absolute, Clock, Relative, Term

MIN_MS = 946684800000  # 2000-01-01T00:00:00Z, SPEC §5
MAX_MS = 4102444800000  # 2100-01-01T00:00:00Z

_RELATIVE = re.compile(r"now(?:([+-])([0-9]{1,4})([dwMQy]))?(?:/([dwMQy]))?")
_DAY = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_MONTH = re.compile(r"([0-9]{4})-([0-9]{2})")
_YEAR = re.compile(r"[0-9]{4}")
_DATETIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,6})?)?"
    r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?"
)
_EPOCH_UTC = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


def to_epoch_ms(value: object, *, edge: Literal["start", "end"], now_ms: int, tz: ZoneInfo) -> int:
    """Convert an LLM-produced time value to epoch ms, or raise ValueError with a short reason."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        # One exception type for every rejected value: the caller turns it into a rule violation.
        raise ValueError(f"expected epoch ms or a date string, got {type(value).__name__}")  # noqa: TRY004
    if isinstance(value, int):
        if not MIN_MS <= value <= MAX_MS:
            raise ValueError(f"epoch ms {value} is outside 2000-01-01..2100-01-01")
        return value
    text = value.strip()
    if _DATETIME.fullmatch(text):
        return _datetime_ms(text, tz)
    term = _term(text)
    if term is None:
        raise ValueError(f"not a date, datetime or now-relative expression: {value!r}")
    clock = Clock(now_ms, tz)
    try:
        return term.start_ms(clock) if edge == "start" else term.end_ms(clock)
    except (ValueError, OverflowError):
        raise ValueError(f"{value!r} is out of the calendar's range") from None


def _term(text: str) -> Term | None:
    """Parse the forms `to_epoch_ms` accepts besides datetimes; ValueError for a bad date."""
    if match := _RELATIVE.fullmatch(text):
        sign, count, code, round_code = match.groups()
        offset = 0 if count is None else int(count) * (-1 if sign == "-" else 1)
        return Relative(
            offset,
            None if code is None else CODE_UNIT[code],
            None if round_code is None else CODE_UNIT[round_code],
        )
    try:
        if match := _DAY.fullmatch(text):
            year, month, day = map(int, match.groups())
            return Absolute("day", date(year, month, day))
        if match := _MONTH.fullmatch(text):
            return Absolute("month", date(int(match[1]), int(match[2]), 1))
        if _YEAR.fullmatch(text):
            return Absolute("year", date(int(text), 1, 1))
    except ValueError:
        raise ValueError(f"no such date: {text!r}") from None
    return None


def _datetime_ms(text: str, tz: ZoneInfo) -> int:
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"no such datetime: {text!r}") from None
    if parsed.tzinfo is None:
        return epoch_ms(parsed, tz)
    return (parsed - _EPOCH_UTC) // _MS
