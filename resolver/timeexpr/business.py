"""Business time around a settled window (SPEC §9.1): the fiscal calendar a request configures
(request > context sentence > environment), the comparison baseline of a window, and the
window in the platform's `query_metric` `time` shape.

    >>> fiscal_told("财年从4月1日开始；时区：纽约").start
    '04-01'
    >>> fiscal_told("our fiscal year starts in October").start
    '10-01'
    >>> query_metric_time(False, 1751299200000, 1759247999999, "quarter")
    {'start': 1751299200, 'end': 1759247999, 'step': 'quarter'}
    >>> query_metric_time(True, None, None, None)
    {'instant': True}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any
from zoneinfo import ZoneInfo

from resolver.timeexpr.baseline import (
    Baseline,
    Main,
    explicit,
    period_over_period,
    year_over_year,
)
from resolver.timeexpr.clocks import blank
from resolver.timeexpr.fiscal import FiscalCalendar, FiscalStartInvalid
from resolver.timeexpr.result import Step
from resolver.timeexpr.window import Language, TimeWindow, read_window, unread_clause

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
            ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
            ("september", "sept", "sep"), ("october", "oct"), ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}  # fmt: skip
_MONTH_NAME = "|".join(sorted(_MONTHS, key=len, reverse=True))
_ZH_NUMBER = "[0-9０-９一二三四五六七八九十]{1,3}"
# 财年从4月1日开始, 财年始于10月, 公司的财年自4月1日起, 财年起始日为4月1日, 财年4月1日开始.
_ZH_SENTENCE = re.compile(
    r"(?:财年|财政年度|财务年度|会计年度)(?:的)?\s*"
    r"(?P<p>(?:起始日|开始日|起点)(?:为|是)|从|自|始于|起始于|开始于|起于)?\s*"
    rf"(?P<m>{_ZH_NUMBER})\s*月\s*(?:(?P<d>{_ZH_NUMBER})\s*[日号])?\s*"
    r"(?P<v>开始计算|开始|起始|起算|起)?"
)
# our fiscal year starts in October, the fiscal year begins on April 1st, FY starts 1 July.
_EN_SENTENCE = re.compile(r"\b(?:fiscal|financial)\s+year|\bFY\b", re.IGNORECASE)
_EN_TAIL = re.compile(
    r"\s+(?:starts|begins|start|begin|commences)(?:\s+(?:in|on|from))?\s+"
    rf"(?:(?P<m1>{_MONTH_NAME})\.?(?:\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?)?"
    rf"|(?:the\s+)?(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{_MONTH_NAME})\.?)\b",
    re.IGNORECASE,
)
_KEY_VALUE = re.compile(
    r"\b(?P<key>fiscal_year_start|fiscal_year_named_by)\s*[=:：]\s*(?P<value>[^\s;；,，]*)",
    re.IGNORECASE,
)
_FISCAL_WORD = re.compile(r"财年|财季|财务年度|会计年度|fiscal|\bfy", re.IGNORECASE)
# The ask of a fiscal phrase with no fiscal calendar anywhere (SPEC §9.1 names the zh one).
FISCAL_ASK: dict[Language, str] = {
    "zh": "请说明财年起始日，如 fiscal_year_start=04-01（或在 context 中写明：财年从4月1日开始）",
    "en": (
        "please state when the fiscal year starts, e.g. fiscal_year_start=04-01 (or say it in "
        "context: our fiscal year starts on April 1)"
    ),
}
# The comparison a text asks for, by the words the reader read (SPEC §9.1). Year over year:
# 同比, 去年同期, 较去年, YoY; period over period: 环比, 较上月, MoM/QoQ/WoW/DoD.
_YEAR_OVER_YEAR = re.compile(
    r"同比|去年同期|(?:相比|相较|较|比)(?:于)?(?:去年|上年|上一年)"
    r"|\byoy\b|\byear[- ](?:over|on)[- ]year\b|\bsame (?:period|time) last year\b",
    re.IGNORECASE,
)
_PERIOD_OVER_PERIOD = re.compile(
    r"环比|(?:相比|相较|较|比)(?:于)?上(?:个)?(?:月|周|季度?|期)"
    r"|\b(?:mom|qoq|wow|dod)\b"
    r"|\b(?:day|week|month|quarter)[- ](?:over|on)[- ](?:day|week|month|quarter)\b"
    r"|\bperiod[- ]over[- ]period\b",
    re.IGNORECASE,
)
# Comparing named periods (Q3 vs Q2, 10月和9月对比): the reader joins them into one window, so
# with a list of periods a comparison settles nothing until the tables read it.
_COMPARING = re.compile(r"对比|相比|相较|\bvs\b\.?|\bversus\b|\bcompared?\b", re.IGNORECASE)
_JOINED = re.compile(r"[和、与及跟,，]|\band\b|\bvs\b|\bversus\b|\bcompared\b", re.IGNORECASE)
# Two named periods compared (`explicit`): the words between them, or (Chinese) a list of
# periods before a comparison word at the end (上周和上上周的订单量对比).
_BETWEEN = re.compile(
    r"\s+(?:vs\.?|versus|compared\s+(?:with|to)|against)\s+|对比|相比于?|相较于?", re.IGNORECASE
)
_LISTED = re.compile(r"[和与跟、]")
_SAME_PERIOD = re.compile(
    r"^\s*(?:去年同期|上年同期|(?:the\s+)?same\s+period\s+(?:of\s+)?last\s+year)", re.IGNORECASE
)


# What every comparison word holds (比/较/同期; yoy, over, vs, compar…): a text with none of these
# (most) skips the comparison work — plain substring tests, cheaper than a search.
def _may_compare(text: str) -> bool:
    """False when the text holds no comparison word for certain."""
    if "比" in text or "较" in text or "同期" in text:
        return True
    lower = text.lower()
    return (
        "yoy" in lower or "mom" in lower or "qoq" in lower or "wow" in lower
        or "dod" in lower or "over" in lower or " on " in lower or "-on-" in lower
        or "vs" in lower or "versus" in lower or "compar" in lower or "same " in lower
        or "against" in lower
    )  # fmt: skip


_ZH_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


@dataclass(frozen=True, slots=True)
class FiscalSaid:
    """The fiscal configuration a context's sentences state: the start ("MM-DD", unchecked),
    the naming, and the spans they take (to be blanked before the context is read for time)."""

    start: str | None = None
    named_by: str | None = None
    spans: tuple[tuple[int, int], ...] = ()


_NOTHING_SAID = FiscalSaid()


def _number(text: str) -> int:
    """A month or day number in Arabic, full-width or Chinese digits (十二, 二十一)."""
    text = text.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    if text.isdigit():
        return int(text)
    tens, _, ones = text.partition("十")
    if "十" not in text:
        return _ZH_DIGITS.get(text, 0)
    return (_ZH_DIGITS.get(tens, 0) if tens else 1) * 10 + (_ZH_DIGITS.get(ones, 0) if ones else 0)


def fiscal_told(text: str) -> FiscalSaid:
    """The fiscal start and naming a context states: `财年从4月1日开始`, `our fiscal year starts
    in October` (a month alone is its first day), `fiscal_year_start=04-01`,
    `fiscal_year_named_by=start`. The first statement of each wins."""
    if not text:
        return _NOTHING_SAID  # most requests' context says nothing: 1.4 µs of three scans
    start: str | None = None
    named_by: str | None = None
    spans: list[tuple[int, int]] = []
    for matched in _KEY_VALUE.finditer(text):
        spans.append(matched.span())
        if matched.group("key").lower() == "fiscal_year_start":
            start = start if start is not None else matched.group("value")
        else:
            named_by = named_by if named_by is not None else matched.group("value").lower()
    for matched in _ZH_SENTENCE.finditer(text):
        if not (matched.group("p") or matched.group("v")):
            continue  # 财年3月: a fiscal month named, no start stated
        spans.append(matched.span())
        day = _number(matched.group("d")) if matched.group("d") else 1
        start = start if start is not None else f"{_number(matched.group('m')):02d}-{day:02d}"
    for head in _EN_SENTENCE.finditer(text):
        tail = _EN_TAIL.match(text, head.end())
        if tail is None:
            continue
        spans.append((head.start(), tail.end()))
        month = _MONTHS[(tail.group("m1") or tail.group("m2")).lower()]
        day = int(tail.group("d1") or tail.group("d2") or 1)
        start = start if start is not None else f"{month:02d}-{day:02d}"
    return FiscalSaid(start, named_by, tuple(sorted(spans)))


def fiscal_calendar(
    *,
    start: str | None,
    named_by: str | None,
    said: FiscalSaid,
    default_start: str | None = None,
    default_named_by: str | None = None,
) -> FiscalCalendar | None:
    """The calendar in force: each of start and naming from the request, else the context,
    else the environment; None when no start is given anywhere. FiscalStartInvalid /
    FiscalNamingInvalid for a value that is none (the caller names its source)."""
    chosen = next((v for v in (start, said.start, default_start) if v is not None), None)
    if chosen is None:
        return None
    namings = (named_by, said.named_by, default_named_by)
    naming = next((v for v in namings if v is not None), "end")
    return FiscalCalendar.of(chosen, naming)


def query_metric_time(
    instant: bool | None, start_ms: int | None, end_ms: int | None, step: Step | None
) -> dict[str, Any]:
    """The `time` argument of the platform's `query_metric` tool (bkn-foundry
    driveradapters/mcp/schemas/query_metric.json): `{"instant": true}` for the current value;
    a series omits `instant` and carries unix-second `start`/`end` (the end its last second)
    and `step`."""
    if instant or start_ms is None or end_ms is None or step is None:
        return {"instant": True}
    return {"start": start_ms // 1000, "end": end_ms // 1000, "step": step}


def baseline_query_metric_time(baseline: Baseline) -> dict[str, Any]:
    """A baseline in the `query_metric` `time` shape."""
    return query_metric_time(False, baseline.start_ms, baseline.end_ms, baseline.step)


class ContextFiscalInvalid(ValueError):
    """A context sentence states a fiscal start or naming that is none; `field` names it."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class BusinessWindow:
    """A text's window with the business time around it: the fiscal calendar in force and the
    comparison baseline (None when the text compares nothing)."""

    window: TimeWindow
    calendar: FiscalCalendar | None
    baseline: Baseline | None = None
    # Comparison words that leave the window unsettled on the time-window faces (环比 with a
    # point, three periods): named in the 422.
    unread_comparison: tuple[str, ...] = ()

    @property
    def settled(self) -> bool:
        """A window (and its baseline when the text compares) settled."""
        return self.window.settled and not self.unread_comparison

    @property
    def fiscal_unconfigured(self) -> bool:
        """Unsettled because a fiscal period was named with no fiscal start anywhere."""
        return (
            not self.window.settled
            and self.calendar is None
            and (
                any(_FISCAL_WORD.search(word) for word in self.window.unread)
                or any(_FISCAL_WORD.search(word) for word in self.window.read)
            )
        )

    @property
    def ask(self) -> str | None:
        """What to send: the fiscal start when that is what is missing, else the window's."""
        if self.fiscal_unconfigured:
            return fiscal_ask(self.window.language, self.window.unread)
        return self.window.ask

    def query_metric_time(self) -> dict[str, Any] | None:
        """The window as the `query_metric` tool's `time` argument (None while unsettled)."""
        window = self.window
        if not window.settled:
            return None
        return query_metric_time(window.instant, window.start, window.end, window.step)


def names_fiscal(words: tuple[str, ...]) -> bool:
    """Whether any of these words names a fiscal period (财年, FY2025, fiscal Q3)."""
    return any(_FISCAL_WORD.search(word) for word in words)


def fiscal_ask(language: Language, unread: tuple[str, ...] = ()) -> str:
    """The ask naming the fiscal start, after the words not read."""
    ask = FISCAL_ASK[language]
    if unread:
        return f"{unread_clause(language, unread)}{'；' if language == 'zh' else '; '}{ask}"
    return ask if language == "zh" else ask[:1].upper() + ask[1:]


def read_business_window(
    text: str,
    *,
    fiscal_year_start: str | None = None,
    fiscal_year_named_by: str | None = None,
    default_fiscal_year_start: str | None = None,
    default_fiscal_year_named_by: str | None = None,
    context: str | None = None,
    **window_options: Any,
) -> BusinessWindow:
    """`read_window` with business time: the fiscal calendar from the arguments, else a
    context sentence (blanked before the context is read for time), else the defaults (the
    environment's). FiscalStartInvalid/FiscalNamingInvalid for an argument that is none,
    ContextFiscalInvalid for a context sentence's."""
    said = fiscal_told(context) if context else _NOTHING_SAID
    if fiscal_year_start is not None:
        FiscalCalendar.of(fiscal_year_start, fiscal_year_named_by or "end")
    elif fiscal_year_named_by is not None:
        FiscalCalendar.of("01-01", fiscal_year_named_by)
    if said.start is not None or said.named_by is not None:
        try:
            FiscalCalendar.of(said.start or "01-01", said.named_by or "end")
        except ValueError as exc:
            field = "fiscal_year_named_by" if "named_by" in str(exc) else "fiscal_year_start"
            raise ContextFiscalInvalid(f"context: {exc}", field) from exc
    calendar = None
    if fiscal_year_start or said.start or default_fiscal_year_start:
        calendar = fiscal_calendar(
            start=fiscal_year_start,
            named_by=fiscal_year_named_by,
            said=said,
            default_start=default_fiscal_year_start,
            default_named_by=default_fiscal_year_named_by,
        )
    if context and said.spans:  # a fiscal sentence states the calendar, not the window
        context = blank(context, said.spans)
    window = read_window(text, context=context, fiscal=calendar, **window_options)
    if not _may_compare(text):  # most texts: as read
        return BusinessWindow(window, calendar)
    if _COMPARING.search(text) and (not window.settled or _joined(window)):
        compared = _explicit(text, calendar, context, window_options)
        if compared is not None:
            return compared
    if not window.settled:
        return BusinessWindow(window, calendar)
    if window.instant:  # 当前同比: the current value has no window to compare
        if _YEAR_OVER_YEAR.search(text) or _PERIOD_OVER_PERIOD.search(text):
            return BusinessWindow(window, calendar, None, _comparison_words(text))
        return BusinessWindow(window, calendar)
    return _compared(window, calendar, text)


def _joined(window: TimeWindow) -> bool:
    """Whether the reader joined named periods into one window (10月和9月, 2023年、2024年)."""
    return any(_JOINED.search(word) for word in window.read)


def _parts(text: str) -> list[str]:
    """The periods a comparison names, split where they meet (empty parts dropped)."""
    parts = [part for part in _BETWEEN.split(text) if part.strip()]
    if len(parts) == 1:
        parts = [part for part in _LISTED.split(parts[0]) if part.strip()]
    return parts


def _explicit(
    text: str, calendar: FiscalCalendar | None, context: str | None, options: dict[str, Any]
) -> BusinessWindow | None:
    """Two named periods compared (Q3 vs Q2, 上个月和去年同期对比): the first named is main, the
    second its `explicit` baseline, each read alone by the reader; 去年同期 is the main window
    a year back. More than two periods settle nothing; None when the text is no such pair."""
    parts = _parts(text)
    if len(parts) < 2:
        return None
    read = [read_window(part, context=context, fiscal=calendar, **options) for part in parts]
    if len(parts) > 2 or any(_joined(each) for each in read):
        return BusinessWindow(read[0], calendar, None, _comparison_words(text))  # three periods
    main, other = read
    if not main.settled or main.instant or main.start is None or main.end is None:
        return None
    if main.step is None:
        return None
    first = Main(main.start, main.end, main.step, main.expression or "")
    whole = replace(main, text=text, read=main.read + other.read)
    if _SAME_PERIOD.match(parts[1]):
        shifted = year_over_year(first, ZoneInfo(main.timezone))
        if shifted is None:
            return None
        return BusinessWindow(whole, calendar, shifted._replace(kind="explicit"))
    if not other.settled or other.instant or other.start is None or other.end is None:
        return None
    second = Main(other.start, other.end, other.step or main.step, other.expression or "")
    return BusinessWindow(whole, calendar, explicit(second))


def _comparison_words(text: str) -> tuple[str, ...]:
    found = [
        matched.group(0)
        for pattern in (_YEAR_OVER_YEAR, _PERIOD_OVER_PERIOD, _COMPARING)
        for matched in pattern.finditer(text)
    ]
    return tuple(dict.fromkeys(found))


def _compared(window: TimeWindow, calendar: FiscalCalendar | None, text: str) -> BusinessWindow:
    """A settled window with the baseline its text asks for (SPEC §9.1)."""
    yoy, pop = _YEAR_OVER_YEAR.search(text), _PERIOD_OVER_PERIOD.search(text)
    comparing = yoy or pop or _COMPARING.search(text)
    if comparing is None:
        return BusinessWindow(window, calendar)
    words = _comparison_words(text)
    if not (yoy or pop) and not _joined(window):
        # 对比/相比/vs with one period and no kind (上个月的订单量对比, 相比之下2024年5月的GMV): the
        # period's window as before, no baseline — there is nothing named to compare it with
        return BusinessWindow(window, calendar)
    if (yoy and pop) or _joined(window):
        # two kinds at once, named periods joined into one window (Q1 vs Q2 vs Q3), or a
        # comparison with no kind and one window: nothing the tables read yet — settle nothing
        return BusinessWindow(window, calendar, None, words)
    start, end, step = window.start, window.end, window.step
    if start is None or end is None or step is None:  # a settled window that is no instant
        return BusinessWindow(window, calendar, None, words)
    main = Main(start, end, step, window.expression or "")
    compare = year_over_year if yoy else period_over_period
    baseline = compare(main, ZoneInfo(window.timezone))
    if baseline is None:
        return BusinessWindow(window, calendar, None, words)
    return BusinessWindow(window, calendar, baseline)


__all__ = [
    "FISCAL_ASK",
    "BusinessWindow",
    "ContextFiscalInvalid",
    "FiscalSaid",
    "FiscalStartInvalid",
    "baseline_query_metric_time",
    "fiscal_ask",
    "fiscal_calendar",
    "fiscal_told",
    "names_fiscal",
    "query_metric_time",
    "read_business_window",
]
