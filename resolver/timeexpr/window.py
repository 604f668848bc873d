"""The scanner as a library: `read_window(text, …)` → the window a text means, at a clock, in
a zone, with the words it read and one sentence explaining it — or why it settles nothing.

This is the one entry point the time-window faces use (HTTP `POST /v1/time-window`, the MCP
tool `resolve_time_window`, `resolver time`), and it settles text exactly as the metric path
does (`settle.settle_both`): context first, the caller's `instant`/`step` beating both.

    >>> from resolver.timeexpr import read_window
    >>> answer = read_window("上个季度", now_ms=1762996342241, timezone="Asia/Shanghai")
    >>> answer.settled, answer.start, answer.end, answer.step
    (True, 1751299200000, 1759247999999, 'quarter')
    >>> answer.expression
    'now-1Q/Q'
    >>> answer.explanation
    '上个季度：2025-07-01 00:00 至 2025-09-30 23:59:59.999（Asia/Shanghai），按季度'
    >>> read_window("last month or later", now_ms=1762996342241, timezone="UTC").unread
    ('or later',)
"""

from __future__ import annotations

import time
from datetime import datetime
from zoneinfo import ZoneInfo

from resolver.timeexpr.atoms import Atom
from resolver.timeexpr.clocks import now_ms_of, zone_of
from resolver.timeexpr.context import read_context
from resolver.timeexpr.fiscal import FiscalCalendar
from resolver.timeexpr.holidays import official_known
from resolver.timeexpr.partials import Holiday
from resolver.timeexpr.reading import Reading, read
from resolver.timeexpr.result import Step
from resolver.timeexpr.settle import settle_both
from resolver.timeexpr.terms import Clock
from resolver.timeexpr.timewindow import (
    DEFAULT_ZONE,
    Language,
    TimeWindow,
    UnknownZone,
    language_of,
)


def read_window(
    text: str,
    *,
    now_ms: int | None = None,
    timezone: str | None = None,
    context: str | None = None,
    language: Language | None = None,
    instant: bool | None = None,
    step: Step | None = None,
    default_timezone: str = DEFAULT_ZONE,
    fiscal: FiscalCalendar | None = None,
) -> TimeWindow:
    """The window `text` means at `now_ms` (default: the system clock) in `timezone` (an IANA
    name, a city or an offset; default: the context's zone sentence, else `default_timezone`).

    `context` is read as `additional_context` free text is: its clock and zone sentences set
    now and the zone when not given, and its time words beat the text's. `instant`/`step` are
    the caller's overrides; `fiscal` the fiscal calendar fiscal phrases are placed in (without
    one they settle nothing). UnknownZone when `timezone` names no zone.
    """
    context_reading, said = read_context(context or "", zone_given=timezone is not None)
    zone = default_timezone
    if timezone is not None:
        mapped = zone_of(timezone)
        if mapped is None:
            raise UnknownZone(f"unknown timezone {timezone[:64]!r}")
        zone = mapped
    elif said.zone is not None:
        zone = said.zone
    tz = ZoneInfo(zone)
    if now_ms is None:
        now_ms = now_ms_of(said, tz)
    if now_ms is None:
        now_ms = time.time_ns() // 1_000_000
    query = read(text)
    result = settle_both(
        query, context_reading, Clock(now_ms, tz, fiscal), instant=instant, step=step
    )
    resolution = result.resolution
    lang = language or language_of(text, context or "")
    words = tuple(word for reading in (context_reading, query) for word in reading.read)
    if resolution is None or (resolution.instant is False and resolution.start is None):
        return TimeWindow(
            text, False, None, None, None, None, zone, now_ms, None, None, words,
            result.unread, lang,
        )  # fmt: skip
    warnings = _holiday_warnings((context_reading, query), resolution.start, tz, lang)
    return TimeWindow(
        text,
        True,
        resolution.instant,
        resolution.start,
        resolution.end,
        resolution.step,
        zone,
        now_ms,
        resolution.expr,
        resolution.matched,
        words,
        (),
        lang,
        warnings,
    )


def _holiday_warnings(
    readings: tuple[Reading, ...], start: int | None, tz: ZoneInfo, lang: Language
) -> tuple[str, ...]:
    """A public holiday (国庆假期) of a year the official calendar does not know: read by the
    fixed rule of SPEC §4.1, and said so."""
    if start is None:
        return ()
    year = datetime.fromtimestamp(start / 1000, tz).year
    keys = {
        atom.partial.key
        for reading in readings
        for expression in reading.expressions
        for atom in (*expression.items, *(a.container for a in expression.items))
        if isinstance(atom, Atom) and isinstance(atom.partial, Holiday) and atom.partial.span
    }
    if all(official_known(key, year) for key in keys):
        return ()
    if lang == "zh":
        return (f"{year}年的官方放假安排未知，按固定规则计算",)
    return (f"the official holiday schedule of {year} is not known: the fixed rule is used",)
