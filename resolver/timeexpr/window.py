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

import re
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Literal
from zoneinfo import ZoneInfo

from resolver.timeexpr.atoms import Atom
from resolver.timeexpr.clocks import Told, blank, now_ms_of, told, zone_of
from resolver.timeexpr.fiscal import FiscalCalendar
from resolver.timeexpr.holidays import official_known
from resolver.timeexpr.partials import Holiday
from resolver.timeexpr.reading import Reading, read
from resolver.timeexpr.result import Step
from resolver.timeexpr.settle import settle_both
from resolver.timeexpr.terms import Clock

Language = Literal["zh", "en"]
DEFAULT_ZONE = "Asia/Shanghai"
_CJK = re.compile(r"[\u3400-\u9fff]")
_STEP_WORDS = {
    "zh": {"day": "按天", "week": "按周", "month": "按月", "quarter": "按季度", "year": "按年"},
    "en": {"day": "by day", "week": "by week", "month": "by month", "quarter": "by quarter",
           "year": "by year"},
}  # fmt: skip
# The time ask names what an agent may send (SPEC §4.1); each example settles when sent back as
# additional_context (tests/params/test_agent_loop.py sends every one of them).
TIME_ASK = {
    "zh": (
        "请在 additional_context 中说明时间范围（如最近3个月、2024年1月至3月，"
        "或 start=2024-01-01；end=2024-03-31；step=month），或说明查询当前值（instant=true）"
    ),
    "en": (
        "please state the time range in additional_context (e.g. last 3 months, "
        "January to March 2024, or start=2024-01-01; end=2024-03-31; step=month), "
        "or say you want the current value (instant=true)"
    ),
}


class UnknownZone(ValueError):
    """A zone the caller named that is no IANA zone, city or offset resolver knows."""


def language_of(*texts: str) -> Language:
    """Chinese when the first non-blank text holds CJK characters, else English."""
    for text in texts:
        if text and text.strip():
            return "zh" if _CJK.search(text) else "en"
    return "zh"


def time_ask(language: Language, unread: tuple[str, ...] = ()) -> str:
    """The one sentence telling what to send for time: naming the words not read, if any."""
    ask = TIME_ASK[language]
    if unread:
        return f"{unread_clause(language, unread)}{'；' if language == 'zh' else '; '}{ask}"
    return ask if language == "zh" else ask[:1].upper() + ask[1:]


def unread_clause(language: Language, unread: tuple[str, ...]) -> str:
    """The words the scanner could not read, named: `无法确定时间：“前后”` / `Could not read:
    "or later"` (at most three of them, each clipped to 40 characters)."""
    words = [word if len(word) <= 40 else word[:39] + "…" for word in unread[:3]]
    if language == "zh":
        return "无法确定时间：" + "、".join(f"“{word}”" for word in words)
    return "Could not read: " + ", ".join(f'"{word}"' for word in words)


@dataclass(frozen=True, slots=True)
class TimeWindow:
    """What a text means in time, at a clock, in a zone.

    Settled: `instant` is True (an instant word: 当前, now) or False with `start`/`end`
    (epoch ms, the end its last millisecond) and `step`. Not settled: `unread` names the
    time-like words that could not be read, and `ask` says what to send instead.
    """

    text: str
    settled: bool
    instant: bool | None
    start: int | None  # epoch ms (the HTTP answer's field names: SPEC §9)
    end: int | None
    step: Step | None
    timezone: str
    now_ms: int
    expression: str | None  # the normal form: now-3M..now, 2025-Q3, now-1M/M
    matched: str | None  # the words of the text (or context) that made the window
    read: tuple[str, ...]
    unread: tuple[str, ...]
    language: Language
    # What the answer had to assume: a public holiday of a year the official calendar does not
    # know yet, read by SPEC §4.1's fixed rule. Also said in `explanation`.
    warnings: tuple[str, ...] = ()

    def iso(self, ms: int | None) -> str | None:
        """An epoch ms as ISO 8601 with the zone's offset (2025-07-01T00:00:00.000+08:00)."""
        if ms is None:
            return None
        moment = datetime.fromtimestamp(ms / 1000, ZoneInfo(self.timezone))
        return moment.isoformat(timespec="milliseconds")

    @property
    def start_iso(self) -> str | None:
        """The start as ISO 8601 with the zone's offset."""
        return self.iso(self.start)

    @property
    def end_iso(self) -> str | None:
        """The end (its last millisecond) as ISO 8601 with the zone's offset."""
        return self.iso(self.end)

    @property
    def ask(self) -> str | None:
        """What to send to settle it (None once settled)."""
        return None if self.settled else time_ask(self.language, self.unread)

    @property
    def explanation(self) -> str:
        """One sentence in the text's language saying what was settled, or why not."""
        zh = self.language == "zh"
        if not self.settled:
            return self.ask or ""
        head = self.matched or self.text.strip()
        # With no words read (an empty text settled by `instant`/`step` or the context's keys),
        # the sentence starts at what was settled: no empty head before the colon.
        lead = (f"{head}：" if zh else f"{head}: ") if head else ""
        if self.instant:
            what = "查询当前值（instant=true）" if zh else "the current value (instant=true)"
            return lead + (what if head or zh else what[0].upper() + what[1:])
        start, end = _local(self.start, self.timezone), _local(self.end, self.timezone)
        step = _STEP_WORDS[self.language][self.step] if self.step else ""
        said = "".join(f"（{w}）" if zh else f" ({w})" for w in self.warnings)
        if zh:
            return f"{lead}{start} 至 {end}（{self.timezone}），{step}{said}"
        return f"{lead}{start} to {end} ({self.timezone}), {step}{said}"


def read_context(text: str, *, zone_given: bool) -> tuple[Reading, Told]:
    """A context's free text read for time (SPEC §3): its clock and zone sentences, and the
    reading of the rest. A zone cue that maps to no zone leaves the text unread unless the
    caller gave the zone (`zone_given`): a window placed in a zone nobody knows is a guess."""
    said = told(text)
    if said.unmapped is not None and not zone_given:
        return Reading(text, unread=(said.unmapped,)), said
    return read(blank(text, said.spans)), said


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


def _local(ms: int | None, zone: str) -> str:
    if ms is None:
        return ""
    moment = datetime.fromtimestamp(ms / 1000, ZoneInfo(zone))
    if moment.second == 0 and moment.microsecond == 0:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 1000:03d}"
