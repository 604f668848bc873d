"""What `read_window` answers, as data at the bottom of the scanner: the `TimeWindow` a text
means, the two languages it answers in (`Language`, `language_of`), the ask sentence of a window
not settled (`time_ask`, `unread_clause`) and the zone errors and default.

Kept apart from `window.py` (which reads and settles) so that a module needing only the answer's
shape or its sentences — `core/languages.py`, `params/asks.py`, `business.py` — does not import
the whole reader beneath `read_window`. Imports nothing of the scanner but `result.py`'s `Step`.

    >>> language_of("最近3个月"), language_of("", "last month")
    ('zh', 'en')
    >>> unread_clause("en", ("or later",))
    'Could not read: "or later"'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal
from zoneinfo import ZoneInfo

from resolver.timeexpr.result import Step

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


def _local(ms: int | None, zone: str) -> str:
    if ms is None:
        return ""
    moment = datetime.fromtimestamp(ms / 1000, ZoneInfo(zone))
    if moment.second == 0 and moment.microsecond == 0:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 1000:03d}"
