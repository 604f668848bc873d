"""Business time around a settled window (SPEC §9.1): the window read in the fiscal calendar a
request configures (`fiscal_config.py`: request > context sentence > environment) and the
comparison baseline of a window; its `query_metric` `time` shape is `query_metric.py`'s.

    >>> business = read_business_window("上个季度同比", now_ms=1762996342241)
    >>> business.window.expression, business.baseline.expression
    ('now-1Q/Q', '2024-Q3')
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
from resolver.timeexpr.fiscal import FiscalCalendar
from resolver.timeexpr.fiscal_config import (
    ContextFiscalInvalid,
    FiscalSaid,
    fiscal_ask,
    fiscal_calendar,
    fiscal_told,
    names_fiscal,
)
from resolver.timeexpr.query_metric import query_metric_time
from resolver.timeexpr.timewindow import TimeWindow
from resolver.timeexpr.window import read_window

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
            and (names_fiscal(self.window.unread) or names_fiscal(self.window.read))
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
    said = fiscal_told(context) if context else FiscalSaid()
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
    "BusinessWindow",
    "read_business_window",
]
