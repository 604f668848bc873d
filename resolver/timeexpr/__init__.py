"""PLACEHOLDER until the time-expression engine lands (issue 3): instant words and overrides only.

The interface here is the seam the pipeline calls; the real engine replaces this module.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal
from zoneinfo import ZoneInfo

from rules.spec import MAX_MS, MIN_MS

Step = Literal["day", "week", "month", "quarter", "year"]

_INSTANT = re.compile(
    r"当前|现在|目前|今天|实时|最新|截至目前|\bnow\b|\bcurrent\b|\blatest\b|\btoday\b"
)


@dataclass(frozen=True, slots=True)
class TimeResolution:
    """What the query and the overrides settle."""

    instant: bool | None
    start: int | None
    end: int | None
    step: Step | None
    expr: str | None
    matched: str | None

    def params(self) -> dict[str, bool | int | str]:
        """Only the settled keys, in order instant, start, end, step."""
        out: dict[str, bool | int | str] = {}
        if self.instant is not None:
            out["instant"] = self.instant
        if self.start is not None:
            out["start"] = self.start
        if self.end is not None:
            out["end"] = self.end
        if self.step is not None:
            out["step"] = self.step
        return out


def resolve_time(
    query: str,
    *,
    now_ms: int,
    tz: ZoneInfo,
    instant: bool | None = None,
    step: Step | None = None,
) -> TimeResolution | None:
    """Settle what the query and the overrides give."""
    if instant is True:
        return TimeResolution(True, None, None, None, "now", None)
    match = _INSTANT.search(query)
    if match is not None and instant is None:
        return TimeResolution(True, None, None, None, "now", match.group(0))
    if instant is not None or step is not None:
        return TimeResolution(instant, None, None, step, None, None)
    return None


def to_epoch_ms(value: object, *, edge: Literal["start", "end"], now_ms: int, tz: ZoneInfo) -> int:
    """Convert an LLM-produced time value to epoch ms, or raise ValueError."""
    if isinstance(value, int) and not isinstance(value, bool):
        if MIN_MS <= value <= MAX_MS:
            return value
        raise ValueError(f"{value} is outside 2000..2100")
    if isinstance(value, str):
        if value == "now":
            return now_ms
        try:
            day = dt.date.fromisoformat(value)
        except ValueError:
            pass
        else:
            start = dt.datetime(day.year, day.month, day.day, tzinfo=tz)
            if edge == "start":
                return int(start.timestamp() * 1000)
            nxt = start + dt.timedelta(days=1)
            return int(nxt.timestamp() * 1000) - 1
    raise ValueError(f"cannot read {value!r} as a time")
