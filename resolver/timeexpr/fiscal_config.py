"""The fiscal calendar a request configures (SPEC §9.1): the request's own fields, else a
context sentence, else the environment — and the ask when a fiscal period is named with no
start anywhere.

    >>> fiscal_told("财年从4月1日开始；时区：纽约").start
    '04-01'
    >>> fiscal_told("our fiscal year starts in October").start
    '10-01'
    >>> fiscal_calendar(start=None, named_by=None, said=fiscal_told("FY starts 1 July")).start
    '07-01'

Kept apart from `business.py` (the comparison baseline around a settled window, which reads the
window) so that the metric path's frame (`params/frame.py`) reads a request's fiscal calendar
without importing the reader beneath `read_window`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from resolver.timeexpr.fiscal import FiscalCalendar
from resolver.timeexpr.timewindow import Language, unread_clause

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

_ZH_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


@dataclass(frozen=True, slots=True)
class FiscalSaid:
    """The fiscal configuration a context's sentences state: the start ("MM-DD", unchecked),
    the naming, and the spans they take (to be blanked before the context is read for time)."""

    start: str | None = None
    named_by: str | None = None
    spans: tuple[tuple[int, int], ...] = ()


def _number(text: str) -> int:
    """A month or day number in Arabic, full-width or Chinese digits (十二, 二十一)."""
    text = text.translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    if text.isdigit():
        return int(text)
    tens, _, ones = text.partition("十")
    if "十" not in text:
        return _ZH_DIGITS.get(text, 0)
    return (_ZH_DIGITS.get(tens, 0) if tens else 1) * 10 + (_ZH_DIGITS.get(ones, 0) if ones else 0)


_NOTHING_SAID = FiscalSaid()


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
    chosen = _first_given(start, said.start, default_start)
    if chosen is None:
        return None  # every request without a fiscal calendar anywhere: no generator made
    naming = _first_given(named_by, said.named_by, default_named_by) or "end"
    return FiscalCalendar.of(chosen, naming)


def _first_given(first: str | None, second: str | None, third: str | None) -> str | None:
    if first is not None:
        return first
    return second if second is not None else third


class ContextFiscalInvalid(ValueError):
    """A context sentence states a fiscal start or naming that is none; `field` names it."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def names_fiscal(words: tuple[str, ...]) -> bool:
    """Whether any of these words names a fiscal period (财年, FY2025, fiscal Q3)."""
    return any(_FISCAL_WORD.search(word) for word in words)


def fiscal_ask(language: Language, unread: tuple[str, ...] = ()) -> str:
    """The ask naming the fiscal start, after the words not read."""
    ask = FISCAL_ASK[language]
    if unread:
        return f"{unread_clause(language, unread)}{'；' if language == 'zh' else '; '}{ask}"
    return ask if language == "zh" else ask[:1].upper() + ask[1:]


__all__ = [
    "FISCAL_ASK",
    "ContextFiscalInvalid",
    "FiscalSaid",
    "fiscal_ask",
    "fiscal_calendar",
    "fiscal_told",
    "names_fiscal",
]
