"""The grammar: phrases written over token classes, and what each one means (an `Atom`).

A phrase is a regular expression over the tokens' class codes, written with the class names
of `lexicon.py` (`"NUM12 _ MONTH"`: a small number, maybe a space, the unit 月). `_` is an
optional space; lower-case group names name the tokens a builder reads. Order matters where
two phrases start on the same token: the first that matches wins, so longer forms come first.

Speed: every phrase's possible first classes are worked out from its compiled form, and the
scanner for a token holds only the phrases that can start with its class.
"""

from __future__ import annotations

import re
import re._constants as _sre  # type: ignore[import-not-found]  # the parsed form's op codes
import re._parser as _sre_parser  # type: ignore[import-not-found]  # no stubs; stable since 3.11
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

from resolver.timeexpr.atoms import (
    IMPOSSIBLE,
    NOW_ATOM,
    Atom,
    ClockTime,
    partial,
    period,
    relative,
    this,
)
from resolver.timeexpr.lexicon import CODE, UNIT_OF
from resolver.timeexpr.partials import (
    DayOfMonth,
    Dekad,
    FirstN,
    HalfMonth,
    Holiday,
    InYear,
    Weekday,
    Weekend,
)
from resolver.timeexpr.result import STEPS, Step
from resolver.timeexpr.terms import NOW, Absolute, Relative
from resolver.timeexpr.tokens import Token, Tokens

# --- the pattern language -------------------------------------------------------------------

MACROS = {
    "CNT": "D12|DN|ZHN|ENN",
    "DD": "D12|D0",
    "NUM12": "D12|D0|ZHN",
    "DAYN": "D12|D0|ORD|ORDW|ENN",
    "ORDS": "ORD|ORDW",
    "YU": "YEAR|YEARDU",
    "QU": "QUARTER|JIDU",
    "DU": "DAY|RI",
    "CAL": "YEAR|YEARDU|QUARTER|JIDU|MONTH|WEEK|DAY|RI|FORTNIGHT|E_YEAR|E_QUARTER|E_MONTH|E_WEEK|E_DAY",
    "CLK": "HOUR|MINUTE|E_HOUR|E_MINUTE",
    "ENPERIOD": "E_WEEK|E_MONTH|E_QUARTER|E_YEAR",
    "RANGE_TO": "DASH|ZH_TO",
}
_NAME = re.compile(r"(?<![?\w])[A-Z][A-Z0-9_]*\b")


def compile_phrase(pattern: str) -> str:
    """Turn a phrase written with class names into a regular expression over class codes."""

    def name(found: re.Match[str]) -> str:
        word = found.group()
        if word in MACROS:
            return f"(?:{compile_phrase(MACROS[word])})"
        return re.escape(CODE[word])

    text = re.sub(
        r"(?<![A-Za-z0-9<])_(?![A-Za-z0-9>])", f"(?:{re.escape(CODE['SPACE'])})?", pattern
    )
    return _NAME.sub(name, text).replace(" ", "")


# --- reading token values -------------------------------------------------------------------


class Found:
    """A phrase's match: its tokens by group name, and its span of tokens."""

    __slots__ = ("groups", "match", "name", "tokens")

    def __init__(self, match: re.Match[str], tokens: Tokens) -> None:
        self.match = match
        self.name = match.lastgroup or ""
        self.tokens = tokens
        self.groups = _groups_of(match.re)[self.name]

    def _start(self, group: str) -> int:
        number = self.groups.get(group)
        return -1 if number is None else self.match.start(number)

    def tok(self, group: str) -> Token | None:
        """The first token of an inner group, or None when the phrase has no such group or
        it did not match."""
        index = self._start(group)
        return None if index < 0 else self.tokens[index]

    def has(self, group: str) -> bool:
        """Whether the inner group matched."""
        return self._start(group) >= 0

    def need(self, group: str) -> Token:
        """The first token of an inner group that the phrase always has."""
        token = self.tok(group)
        if token is None:
            raise ValueError(group)
        return token

    def text(self, group: str) -> str:
        """The class name of an inner group's first token."""
        return _CLASS_NAME[self.need(group).code]

    def number(self, group: str) -> int:
        """The int value of an inner group's first token (TypeError: the phrase is refused)."""
        value = self.need(group).value
        if not isinstance(value, int):
            raise TypeError(group)
        return value

    def shift(self, group: str) -> tuple[int, Step]:
        """The (offset, unit) of a relative period token (上个月: -1 month; TypeError else)."""
        value = self.need(group).value
        if not isinstance(value, tuple) or len(value) != 2 or not isinstance(value[0], int):
            raise TypeError(group)
        return value[0], unit_word(str(value[1]))

    def word(self, group: str) -> str:
        """The str value of an inner group's first token (TypeError: the phrase is refused)."""
        value = self.need(group).value
        if not isinstance(value, str):
            raise TypeError(group)
        return value


_CLASS_NAME = {code: name for name, code in CODE.items()}
# Per compiled scanner, per phrase: its inner groups by name (`phrase__group` → `group`).
_GROUPS: dict[re.Pattern[str], dict[str, dict[str, int]]] = {}


def _groups_of(pattern: re.Pattern[str]) -> dict[str, dict[str, int]]:
    groups = _GROUPS.get(pattern)
    if groups is None:
        groups = {}
        for key, number in pattern.groupindex.items():
            phrase, _, inner = key.partition("__")
            groups.setdefault(phrase, {})
            if inner:
                groups[phrase][inner] = number
        _GROUPS[pattern] = groups
    return groups


def count(token: Token | None) -> int | None:
    """The value of a count token (3, 三, three, a), or None."""
    if token is None:
        return None
    value = token.value
    name = _CLASS_NAME[token.code]
    if name == "ZHN":
        return value[0] if isinstance(value, tuple) else None
    if name == "ART":
        return 1
    return value if isinstance(value, int) else None


def year_of(token: Token) -> int | None:
    """The year a token writes (2024, 二〇二四, 零八, 24 before 年, two thousand and eight)."""
    name, value = _CLASS_NAME[token.code], token.value
    if name == "Y4" and isinstance(value, int):
        return value
    if name == "ENN" and isinstance(value, int) and 1900 <= value <= 2199:
        return value
    if name == "D12" and isinstance(value, int):
        return 2000 + value if value < 50 else None  # 91年: 1991, before 2000 (SPEC §4.3)
    if name == "ZHN" and isinstance(value, tuple):
        _, digits, length = value
        if digits is None:
            return None
        if length == 4 and 1900 <= digits <= 2199:
            return int(digits)
        if length == 2:
            return 2000 + int(digits) if digits < 50 else None  # 九一年: 1991
    return None


def unit_of(token: Token) -> Step:
    """The step of a calendar unit token."""
    return UNIT_OF[_CLASS_NAME[token.code]]


def unit_word(word: str) -> Step:
    """The step a unit word names (`year` of YTD); TypeError for any other word."""
    for step in STEPS:
        if step == word:
            return step
    raise TypeError(word)


def _month(token: Token) -> int:
    value = token.value if _CLASS_NAME[token.code] == "MONTHNAME" else count(token)
    if not isinstance(value, int) or not 1 <= value <= 12:
        raise ValueError("no month")
    return value


def _day(token: Token) -> int:
    value = count(token)
    if value is None or not 1 <= value <= 31:
        raise ValueError("no day")
    return value


def _quarter_month(token: Token) -> int:
    value = count(token) if _CLASS_NAME[token.code] != "QLABEL" else token.value
    if not isinstance(value, int) or not 1 <= value <= 4:
        raise ValueError("no quarter")
    return 3 * value - 2


class Impossible(ValueError):
    """A phrase whose form is sure but whose date does not exist (2025-W53, 2024-02-30,
    August-31-2023 in June): the text settles nothing rather than a shorter phrase's reading."""


def _sure_date(year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError as error:
        raise Impossible(str(error)) from error


# --- builders -------------------------------------------------------------------------------

Builder = Callable[[Found], Atom | None]
_CLOCK_MINUTES = {"HOUR": 60, "MINUTE": 1, "E_HOUR": 60, "E_MINUTE": 1}


def _amount(found: Found) -> tuple[int, Step | str] | None:
    """(count, unit) of a rolling/ago/ahead phrase; halves become months or days; hours and
    minutes come back as "hour"/"minute"."""
    unit_token = found.need("u")
    unit_name = _CLASS_NAME[unit_token.code]
    number = found.tok("n")
    twice = 2 if unit_name == "FORTNIGHT" else 1
    halved = found.has("half")
    if unit_name in _CLOCK_MINUTES:
        if number is None:
            return (
                (1, "hour" if _CLOCK_MINUTES[unit_name] == 60 else "minute") if not halved else None
            )
        if _CLASS_NAME[number.code] == "HALF":
            return (30, "minute") if _CLOCK_MINUTES[unit_name] == 60 else None
        value = count(number)
        if not value:
            return None
        if halved:
            return (value * 60 + 30, "minute") if _CLOCK_MINUTES[unit_name] == 60 else None
        return value, "hour" if _CLOCK_MINUTES[unit_name] == 60 else "minute"
    unit = UNIT_OF[unit_name]
    if number is None:
        return twice, unit
    if _CLASS_NAME[number.code] == "HALF":
        if unit == "year":
            return 6, "month"
        if unit == "month":
            return 15, "day"
        return None
    value = count(number)
    if not value:
        return None
    if halved:
        return (12 * value + 6, "month") if unit == "year" else None
    return value * twice, unit


def _offset(amount: tuple[int, Step | str], sign: int) -> Relative:
    number, unit = amount
    return Relative(sign * number, unit)  # type: ignore[arg-type]


def _natural(amount: tuple[int, Step | str]) -> Step:
    """The step of a window counted in `amount`: its unit, day for hours and minutes."""
    unit = amount[1]
    return "day" if unit in ("hour", "minute") else unit  # type: ignore[return-value]


def rolling(found: Found) -> Atom | None:
    """最近3个月, last 3 months: now-N .. now."""
    amount = _amount(found)
    if amount is None:
        return None
    return Atom("rolling", _natural(amount), _offset(amount, -1), NOW)


def ahead(found: Found) -> Atom | None:
    """未来7天, next 3 days: now .. now+N."""
    amount = _amount(found)
    if amount is None:
        return None
    return Atom("ahead", _natural(amount), NOW, _offset(amount, 1))


def ago(found: Found) -> Atom | None:
    """3个月前, 3 months ago: the point now-N."""
    amount = _amount(found)
    if amount is None or _bare_month(found) or amount[1] in ("hour", "minute"):
        return None  # 2 hours ago: a point inside a day, no window (SPEC §4.3)
    return Atom("ago", _natural(amount), _offset(amount, -1))


def later(found: Found) -> Atom | None:
    """3天后, in 3 days: the point now+N."""
    amount = _amount(found)
    if amount is None or _bare_month(found) or amount[1] in ("hour", "minute"):
        return None  # half an hour from now, 3小时后: a point inside a day (SPEC §4.3)
    return Atom("later", _natural(amount), _offset(amount, 1))


def _bare_month(found: Found) -> bool:
    """3月前 is "before March" as often as "3 months ago": only 3个月前 is a count."""
    unit = found.need("u")
    return _CLASS_NAME[unit.code] == "MONTH" and not found.has("ge") and unit.end - unit.start == 1


def whole_days(found: Found) -> Atom | None:
    """最近7天（不含今天）, last 7 days excluding today: the N whole days before today."""
    number = count(found.need("n"))
    if not number:
        return None
    return period("day", Relative(-number, "day", "day"), Relative(-1, "day", "day"))


def ttm(found: Found) -> Atom:
    """TTM, LTM: the trailing twelve months."""
    return Atom("rolling", "month", Relative(-12, "month"), NOW)


def first_n(found: Found) -> Atom | None:
    """前三季度, 前3个月, 前10天, first 3 months: the first N of a year (month) named before or
    after; without one, 前N个月/天 are the last N (SPEC §4.1) and English first N is this
    year's."""
    number = count(found.need("n"))
    unit = unit_of(found.need("u"))
    if not number:
        return None
    english = found.has("en")
    if unit == "week":
        return None if english else Atom("rolling", "week", Relative(-number, "week"), NOW)
    part = FirstN(number, unit, "month" if unit == "day" else "year")
    if unit == "quarter" or english:
        return partial(part)
    return Atom("rolling", unit, Relative(-number, unit), NOW, part)


def relperiod(found: Found) -> Atom:
    """上个月, 本周, 去年, 下季度: the previous or next whole period, or this one so far."""
    offset, unit = found.shift("r")
    return this(unit) if offset == 0 else relative(offset, unit)


def relday(found: Found) -> Atom:
    """昨天, 明天, yesterday, tomorrow, the day before yesterday."""
    offset = found.number("r")
    if found.has("two"):
        offset += -1 if offset < 0 else 1
    return relative(offset, "day")


def weekend(found: Found) -> Atom:
    """上周末, this weekend, next weekend: Saturday .. Sunday of that week (SPEC §4.3)."""
    return partial(Weekend(), Relative(found.number("r"), "week", "week"))


def days_around(found: Found) -> Atom | None:
    """two days before yesterday, 3 days after tomorrow: a day counted from a named day."""
    number = count(found.need("n"))
    if not number:
        return None
    sign = -1 if found.text("k") == "BEFORE" else 1
    return relative(found.number("r") + sign * number, "day")


def week_of_relperiod(found: Found) -> Atom | None:
    """上周五, 下周日, 本周一, 上礼拜天: a day of that week."""
    offset, unit = found.shift("r")
    if unit != "week":
        return None
    day = found.need("d")
    name = _CLASS_NAME[day.code]
    weekday = 6 if name in ("RI", "DAY") else (count(day) or 0) - 1
    if not 0 <= weekday <= 6:
        return None
    return partial(Weekday(weekday), Relative(offset, "week", "week"))


def en_relative(found: Found) -> Atom | None:
    """last/previous/next/this/coming week, month, quarter, year."""
    unit = unit_of(found.need("u"))
    which = found.text("k")
    if which in ("LAST", "PREVIOUS"):
        return relative(-2 if found.has("two") else -1, unit)
    if which in ("NEXT", "COMING"):
        return relative(2 if found.has("two") else 1, unit)
    return this(unit)


def two_back(found: Found) -> Atom:
    """the week before last (-2), the year after next (+2)."""
    unit = unit_of(found.need("u"))
    return relative(-2 if found.text("k") == "BEFORE" else 2, unit)


def this_period(found: Found) -> Atom:
    """this week, current month, so far this year, YTD, 年初至今's 本月."""
    token = found.tok("u")
    if token is not None:
        return this(unit_of(token))
    return this(unit_word(found.word("x")))


def rest(found: Found) -> Atom:
    """later this week, rest of the year, 本月剩余: now .. end of the period."""
    token = found.tok("u")
    if token is not None:
        unit = unit_of(token)
    else:
        _, unit = found.need("r").value  # type: ignore[misc]
    return Atom("rest", unit, NOW, Relative(0, None, unit))


def anchor(found: Found) -> Atom:
    """年初, 本月初, the start of the month: the start of the current period."""
    token = found.tok("u")
    if token is not None:
        unit = unit_of(token)
    else:
        _, unit = found.need("r").value  # type: ignore[misc]
    edge = found.tok("e")
    if edge is not None and edge.value != "start":
        raise ValueError("年底 is no start")
    return Atom("anchor", unit, Relative(0, None, unit))


_TODAY = frozenset(("today", "今天", "今日"))


def now(found: Found) -> Atom:
    """当前, 现在, now, current, today, latest (today also names a day: today 9am to 11am)."""
    if found.need("w").value in _TODAY:
        return Atom("now", "day", Relative(0, None, "day"))
    return NOW_ATOM


def latest(found: Found) -> Atom | None:
    """最新一个月, 最新3个月, 最新季度: the last N units (a window, not the instant word)."""
    return rolling(found)


def same_last_year(found: Found) -> Atom | None:
    """去年同月, 去年同季度, the same month last year: now's month/quarter a year back."""
    unit = unit_of(found.need("u"))
    if unit not in ("month", "quarter"):
        return None
    back = -12 if unit == "month" else -4
    return Atom("period", unit, Relative(back, unit, unit))


def year(found: Found) -> Atom | None:
    """2024年, 二〇二四年, 24年 (before a part), 2024, the year 2008."""
    value = year_of(found.need("y"))
    if value is None:
        return None
    return period("year", Absolute("year", date(value, 1, 1)))


def month(found: Found) -> Atom | None:
    """3月, 十二月, March: a month of a year still to be named."""
    last = found.tok("m2")
    return partial(InYear("month", _month(found.need("m")), last_month=_month(last) if last else 0))


def month_day(found: Found) -> Atom | None:
    """3月15日, 八月十五, Oct 2, October 1st, 2nd of August, 3/15: a day of a year."""
    month_number = _month(found.need("m"))
    day = _day(found.need("d"))
    date(2000, month_number, day)  # the longest month of that name: no 2月30日
    last = found.tok("d2")
    return partial(InYear("day", month_number, day, last_day=_day(last) if last else 0))


def dated_day(found: Found) -> Atom | None:
    """2024-03-15, 2024/3/15, 20240315, 3/15/2024, 05-Aug-2016: one day."""
    if found.has("c"):
        value = found.number("c")
        first = date(value // 10000, value // 100 % 100, value % 100)
    else:
        year_value = year_of(found.need("y"))
        if year_value is None:
            return None
        first = _sure_date(year_value, _month(found.need("m")), _day(found.need("d")))
    return period("day", Absolute("day", first))


def dated_month(found: Found) -> Atom | None:
    """2024-03, 2024/3, 12-2015, Dec-2018: one month."""
    year_value = year_of(found.need("y"))
    if year_value is None:
        return None
    return period("month", Absolute("month", date(year_value, _month(found.need("m")), 1)))


def day_of_month(found: Found) -> Atom | None:
    """15号, 15日, the 15th: a day of a month still to be named."""
    return partial(DayOfMonth(_day(found.need("d"))))


def day_number(found: Found) -> Atom | None:
    """A bare day number after a range word (April 9th through 17th): only a range's end."""
    day = _day(found.need("d"))
    return Atom("day_number", "day", partial=DayOfMonth(day))


def quarter(found: Found) -> Atom | None:
    """第一季度, 三季度, Q1, the first quarter, 1-3季度."""
    last = found.tok("q2")
    return partial(
        InYear(
            "quarter",
            _quarter_month(found.need("q")),
            last_month=_quarter_month(last) if last else 0,
        )
    )


def half_year(found: Found) -> Atom | None:
    """上半年, 下半年, H1, the second half: six months of a year."""
    which = found.need("h").value  # h1, second, 上半 (1) / 下半 (2)
    if which not in (1, 2):
        return None
    first = 1 if which == 1 else 7
    return partial(InYear("month", first, last_month=first + 5))


def half_month(found: Found) -> Atom:
    """上半月/下半月: days 1–15 / 16–last of a month."""
    return partial(HalfMonth(second=found.need("h").value == 2))


def week_number(found: Found) -> Atom | None:
    """第10周, week 10, W10, the first week (of 2021): an ISO week of a year."""
    number = count(found.need("w"))
    if number is None or not 1 <= number <= 53:
        return None
    return partial(InYear("week", 0, number))


def dekad(found: Found) -> Atom:
    """上旬/中旬/下旬, early/mid/late (of a month): days 1–10, 11–20, 21–last."""
    third = {"ZH_LAST": 0, "ZH_MID": 1, "ZH_NEXT": 2}[found.text("x")]
    return partial(Dekad(third))


def weekday(found: Found) -> Atom:
    """周五, Friday, this/last/next/coming Friday."""
    part = Weekday(found.number("wd"))
    which = found.tok("k")
    if which is None:
        return partial(part)
    name = _CLASS_NAME[which.code]
    if name == "COMING" or found.has("k2"):
        return partial(part, place="upcoming")
    offset = {"LAST": -1, "PREVIOUS": -1, "NEXT": 1}.get(name, 0)
    return partial(part, Relative(offset, "week", "week"))


def month_name_relative(found: Found) -> Atom | None:
    """last March (the most recent March before this month), this March, next March."""
    month_number = _month(found.need("m"))
    which = found.text("k")
    part = InYear("month", month_number)
    if which == "THIS":
        return partial(part, Relative(0, "year", "year"))
    return partial(part, place="next" if which in ("NEXT", "COMING") else "previous")


def holiday(found: Found) -> Atom | None:
    """春节, 国庆黄金周, Christmas, 618: a holiday (its public holiday with 期间/假期)."""
    key = found.word("h") if found.text("h") == "HOLIDAY" else "618"
    span = found.tok("s")
    if span is not None and span.value != "span":
        return None  # 双十一五四: another day's name, not the holiday's 期间/假期
    return partial(Holiday(key, span=span is not None))


def clock(found: Found) -> Atom | None:
    """9am, 15:00, 下午3点, 8 o'clock, 3点半: a time of day (read only inside an hour range)."""
    hour = count(found.need("h"))
    if hour is None or not 0 <= hour <= 24:
        return None
    minute = 0
    minute_token = found.tok("min")
    if minute_token is not None:
        minute = count(minute_token) or 0
    elif found.has("half"):
        minute = 30
    elif (quarter_token := found.tok("ke")) is not None:
        minute = 15 * (count(quarter_token) or 0)
    if not 0 <= minute <= 59:
        return None
    meridiem = found.tok("ampm")
    part = found.tok("part")
    written = ClockTime(
        hour,
        minute,
        None if meridiem is None else str(meridiem.value),
        None if part is None else str(part.value),
        found.has("oc") or found.has("colon"),
    )
    if meridiem is not None and not 1 <= hour <= 12:
        return None
    return Atom("clock", "day", clock=written)


_NOON = {"noon": 12, "midnight": 24, "中午": 12, "午夜": 24}


def noon(found: Found) -> Atom | None:
    """noon, midnight (the end of an hour range: from 10am to noon)."""
    word = str(found.need("w").value)
    if word not in _NOON:
        return None
    return Atom("clock", "day", clock=ClockTime(_NOON[word], 0, None, word, clock_word=True))


def step_word(found: Found) -> Atom | None:
    """日趋势, 月趋势, 季度趋势: a step word made of a unit and a trend word."""
    return Atom("step", unit_of(found.need("u")))


def compare(found: Found) -> Atom | None:
    """同比去年, 环比上月, 同比去年同期, vs last year: a comparison phrase (no window)."""
    vague = found.tok("v")
    if vague is not None and vague.value != "compared":
        return None  # 环比一段时间: 一段时间 is no period a comparison names
    return Atom("compare", None)


def year_named(found: Found) -> Atom | None:
    """the year 2008, calendar year 2008, year 2008."""
    return year(found)


def _plural(found: Found) -> bool:
    """the 13 last minutes, two upcoming weeks: a count before last/next needs a plural."""
    word = found.need("u").value
    number = count(found.tok("n"))
    return isinstance(word, str) and word.endswith("s") and number is not None and number > 1


def _day_of_relative_month(found: Found) -> Atom | None:
    """the 20th of next month, 20 of this month, the 20th of the previous month."""
    which = found.need("k")
    name = _CLASS_NAME[which.code]
    if name == "NOW" and which.value != "current":
        return None
    offset = {"NEXT": 1, "COMING": 1, "LAST": -1, "PREVIOUS": -1}.get(name, 0)
    return partial(DayOfMonth(_day(found.need("d"))), Relative(offset, "month", "month"))


def _iso_week(found: Found) -> Atom | None:
    year_value = year_of(found.need("y"))
    number = found.need("w").value
    if year_value is None or not isinstance(number, int) or not 1 <= number <= 53:
        return None
    try:
        first = date.fromisocalendar(year_value, number, 1)
    except ValueError as error:  # no week 53 that year
        raise Impossible(str(error)) from error
    return period("week", Absolute("week", first))


def _year_quarter(found: Found) -> Atom | None:
    year_value = year_of(found.need("y"))
    if year_value is None:
        return None
    first = date(year_value, _quarter_month(found.need("q")), 1)
    return period("quarter", Absolute("quarter", first))


def _dekad_word(found: Found) -> Atom:
    word = _CLASS_NAME[found.need("x").code]
    return partial(Dekad({"EARLY": 0, "MID": 1, "LATE": 2}[word]))


PHRASES: list[tuple[str, str, Builder]] = []


def _add(name: str, pattern: str, builder: Builder) -> None:
    PHRASES.append((name, pattern, builder))


# fmt: off
# -- comparison phrases: the period they compare with is no window -----------------------------
_add("zh_compare", "COMPARE _ (?:ZH_DE _)? (?:(?:RELPERIOD|RELDAY)(?! _ (?:ZH_DE _)? ZH_SAME)|(?P<v>VAGUE))?", compare)
_add("zh_unit_trend", "(?<!D12|D0|ZHN|DI|GE)(?P<u>RI|DAY|WEEK|MONTH|QUARTER|JIDU|YEAR|YEARDU) TREND", step_word)
_add("zh_now_period", "(?P<c>NOW) _ (?:GE _)? (?P<u>WEEK|MONTH|QU|YU)", lambda f: this_period(f) if f.need("c").value in ("当前", "目前") else None)
_add("en_compare", "COMPARE _ (?:THE _)? (?:(?P<v>VAGUE) _)? (?:OF _)? (?:(?:LAST|PREVIOUS) _ ENPERIOD|RELDAY)?", compare)
# -- Chinese, relative to now ------------------------------------------------------------------
_add("zh_week_day", "(?P<r>RELPERIOD) _ (?P<d>ZHN|RI|DAY)(?! _ (?:GE|CAL|CLK))", week_of_relperiod)
_add("zh_same", "(?P<r>RELPERIOD) _ (?:ZH_DE _)? ZH_SAME _ (?P<u>MONTH|QU)", same_last_year)
_add("zh_rest", "(?P<r>RELPERIOD) _ (?:ZH_DE _)? ZH_REMAIN", rest)
_add("zh_anchor_r", "(?:RELPERIOD _)? (?P<u>YEAR|MONTH|QU|WEEK) (?P<e>ZH_EDGE)(?= _ (?:ZH_SINCE|ZH_TONOW|ZH_TO|ZH_QI|DASH))", anchor)
_add("zh_anchor", "(?P<r>RELPERIOD) (?P<e>ZH_EDGE)(?= _ (?:ZH_SINCE|ZH_TONOW|ZH_TO|ZH_QI|DASH))", anchor)
_add("zh_relperiod", "(?P<r>RELPERIOD)", relperiod)
_add("zh_relday", "(?P<r>RELDAY)", relday)
_add("zh_excl_rolling", "EXCL_TODAY _ (?:ZH_DE _)? ZH_RECENT _ (?:ZH_DE _)? (?P<n>CNT) _ (?:GE _)? (?:DAY|RI)", whole_days)
_add("zh_rolling_excl", "ZH_RECENT _ (?:ZH_DE _)? (?P<n>CNT) _ (?:GE _)? (?:DAY|RI) _ (?:ZH_WITHIN _)? (?:COMMA _)? EXCL_TODAY _ COMMA?", whole_days)
_add("zh_clock_rolling", "(?:NOW _)? ZH_RECENT _ (?:ZH_DE _)? (?:ZH_THIS _)? (?P<n>CNT|HALF)? _ (?P<ge>GE)? _ (?P<u>CLK) _ (?P<half>HALF)? _ (?:ZH_SINCE|ZH_HARMLESS|ZH_WITHIN)?", rolling)
_add("zh_rolling", "(?:NOW _)? ZH_RECENT _ (?:ZH_DE _)? (?:ZH_THIS _)? (?P<n>CNT|HALF) _ (?P<ge>GE)? _ (?P<u>CAL) _ (?P<half>HALF)? _ (?:ZH_SINCE|ZH_HARMLESS|ZH_WITHIN)?", rolling)
_add("zh_fortnight", "ZH_RECENT _ (?:ZH_DE _)? (?:ZH_THIS _)? (?:(?P<n>CNT) _ (?:GE _)?)? (?P<u>FORTNIGHT)", rolling)
_add("zh_last_n", "ZH_LAST _ (?P<n>CNT) _ (?P<ge>GE)? _ (?P<u>CAL|CLK)", rolling)
_add("zh_before_now", "(?:NOW _)? ZH_BEFORE _ (?P<n>CNT|HALF) _ (?P<ge>GE)? _ (?P<u>CAL)", rolling)
_add("zh_latest", "LATEST _ (?:ZH_DE _)? (?P<n>CNT)? _ (?P<ge>GE)? _ (?P<u>MONTH|QU|YU|WEEK)", latest)
_add("zh_ahead", "(?:ZH_FUTURE|ZH_NEXT|ZH_HOU) _ (?:ZH_DE _)? (?P<n>CNT|HALF) _ (?P<ge>GE)? _ (?P<u>CAL|CLK) _ (?P<half>HALF)?", ahead)
_add("zh_first_n", "ZH_QIAN _ (?P<n>CNT) _ (?P<ge>GE)? _ (?P<u>QU|MONTH|DAY|RI|WEEK)(?! _ (?:ZH_BEFORE|ZH_QIAN))", first_n)
_add("zh_ago", "(?P<n>CNT|HALF) _ (?P<ge>GE)? _ (?P<u>CAL|CLK) _ (?P<half>HALF)? _ (?:ZH_QIAN(?! _ (?:CNT|HALF|DI|QLABEL))|ZH_BEFORE)", ago)
_add("zh_later", "(?P<n>CNT|HALF) _ (?P<ge>GE)? _ (?P<u>CAL|CLK) _ (?P<half>HALF)? _ (?:ZH_HOU|ZH_AFTER)(?! _ (?:CAL|CNT))", later)
# -- Chinese periods, the year left open ---------------------------------------------------------
_add("zh_year_first", "(?P<y>ZHN)(?= _ RANGE_TO _ (?:ZHN|Y4) _ YU)", year)
_add("zh_year", "(?P<y>Y4|ZHN) _ (?:YU|ZH_HARMLESS)", year)
_add("zh_year2", "(?P<y>D12) _ YU(?= _ (?:ZH_DE _ )?(?:NUM12 _ MONTH|DI|NUM12 _ QU|QLABEL|ZH_HALF|HOLIDAY|ZH_QIAN|RANGE_TO _ D12 _ YU|ZH_AND _ D12 _ YU))", year)
_add("zh_year2_end", "(?<=(?:RANGE_TO|ZH_AND))(?P<y>D12) _ YU", year)
_add("zh_md_span", "(?P<m>NUM12) _ MONTH _ (?P<d>NUM12) _ (?:RI|HAO)? _ RANGE_TO _ (?P<d2>NUM12) _ (?:RI|HAO)", month_day)
_add("zh_md", "(?P<m>NUM12) _ MONTH _ (?P<d>NUM12) _ (?:RI|HAO|(?=$|ZH_DE|COMMA|SPACE|RANGE_TO|ZH_AND|ZH_HARMLESS|ZH_SINCE|ZH_TONOW|ZH_QI|ZH_UNTIL|BAR))", month_day)
_add("zh_month_span", "(?P<m>NUM12) _ (?:MONTH _)? RANGE_TO _ (?P<m2>NUM12) _ MONTH", month)
_add("zh_month", "(?P<m>NUM12) _ MONTH", month)
_add("zh_quarter_span", "(?:DI _)? (?P<q>NUM12) _ (?:QU _)? RANGE_TO _ (?:DI _)? (?P<q2>NUM12) _ QU", quarter)
_add("zh_quarter", "(?:DI _)? (?P<q>NUM12) _ (?:JIDU|(?<=DI)QUARTER|QUARTER(?= _ (?:ZH_DE|RANGE_TO|ZH_AND|COMMA|$)))", quarter)
_add("zh_week", "DI _ (?P<w>NUM12) _ (?:GE _)? WEEK", week_number)
_add("zh_half_year", "(?P<h>ZH_HALF) _ YU", half_year)
_add("zh_half_month", "(?P<h>ZH_HALF) _ (?:GE _)? MONTH", half_month)
_add("zh_dekad", "(?P<x>ZH_LAST|ZH_MID|ZH_NEXT) _ XUN", dekad)
_add("zh_day_span", "(?P<d>NUM12) _ (?:RI|HAO)? _ RANGE_TO _ (?P<d2>NUM12) _ (?:RI|HAO)", day_of_month)
_add("zh_dom", "(?P<d>NUM12) _ (?:RI|HAO)(?! _ ZH_WITHIN)", day_of_month)
_add("zh_holiday", "(?P<h>HOLIDAY) _ (?:ZH_DE _)? (?P<s>OTHERDAY|ZH_HARMLESS)?", holiday)
# -- clock times (read only inside an hour range on a named day) --------------------------------
_add("zh_clock", "(?P<part>DAYPART)? _ (?P<h>NUM12) _ (?P<oc>OCLOCK) _ (?:(?P<min>NUM12) _ FEN?|(?P<half>HALF)|(?P<ke>NUM12 _ KE))?", clock)
_add("colon_clock", "(?P<h>DD) (?P<colon>COLON) (?P<min>DD) _ (?P<ampm>AMPM)?", clock)
_add("noon", "(?P<w>DAYPART)", noon)
_add("en_clock", "(?P<h>D12|ENN) _ (?:(?P<oc>OCLOCK)|(?P<ampm>AMPM))", clock)
_add("en_clock_before_ampm", "(?P<h>D12|ENN)(?= _ (?:TO|DASH|UNTIL|THROUGH) _ (?:D12|ENN) _ (?:COLON _ DD _)? AMPM)", clock)
# -- numeric dates ----------------------------------------------------------------------------
_add("ymd_spaced", "(?P<y>Y4) SPACE (?P<m>DD) SPACE (?P<d>DD)(?! _ (?:CAL|CLK|COLON|AMPM|OCLOCK|DASH|SLASH|DOT))", dated_day)
_add("ymd_names", "(?P<y>Y4) (?P<s>DASH|SLASH) (?P<m>MONTHNAME) (?P=s) (?P<d>DD)", dated_day)
_add("mdy_joined", "(?P<m>MONTHNAME) (?P<s>DASH|SLASH) (?P<d>DD) (?P=s) (?P<y>Y4)", dated_day)
_add("dmy_joined", "(?P<d>DD) (?P<s>DASH|SLASH) (?P<m>MONTHNAME) (?P=s) (?P<y>Y4)", dated_day)
_add("quarter_dash_year", "(?P<q>QLABEL) _ DASH _ (?P<y>Y4)", _year_quarter)
_add("iso_date", "(?P<y>Y4) (?P<s>DASH|SLASH|DOT) (?P<m>DD) (?P=s) (?P<d>DD)", dated_day)
_add("iso_week", "(?P<y>Y4) _ DASH? _ (?P<w>WLABEL)", _iso_week)
_add("iso_quarter", "(?P<y>Y4) _ (?:YU _)? (?:DASH|SLASH)? _ (?P<q>QLABEL)", _year_quarter)
_add("iso_month", "(?P<y>Y4) (?:DASH|SLASH|DOT) (?P<m>DD)(?!(?:DASH|SLASH|DOT)DD)", dated_month)
_add("compact_date", "(?P<c>D8)", dated_day)
_add("us_date", "(?P<m>DD) (?P<s>SLASH|DASH) (?P<d>DD) (?P=s) (?P<y>Y4)", dated_day)
_add("us_date_yy", "DD SLASH DD SLASH DD", lambda f: None)
_add("dmy_names", "(?P<d>DD) _ DASH _ (?P<m>MONTHNAME) _ DASH _ (?P<y>Y4)", dated_day)
_add("month_year_num", "(?P<m>DD) (?:DASH|SLASH) (?P<y>Y4)", dated_month)
_add("us_md", "(?P<m>DD) _ SLASH _ (?P<d>DD)", month_day)
_add("bare_year", "(?P<y>Y4)", year)
_add("holiday_618", "(?P<h>DN)(?<=DN)", lambda f: holiday(f) if f.need("h").value == 618 else None)
# -- English ------------------------------------------------------------------------------------
_add("en_compare2", "COMPARE", compare)
_add("en_ttm", "TTM", ttm)
_add("en_xtd", "(?P<x>XTD)", this_period)
_add("en_so_far", "SO _ THIS _ (?P<u>ENPERIOD)", this_period)
_add("en_today_so_far", "(?P<c>NOW) _ SO", lambda f: this("day") if f.need("c").value == "today" else None)
_add("en_later_this", "LATER _ THIS _ (?P<u>ENPERIOD)", rest)
_add("en_rest_of", "REST _ OF _ (?:THE|THIS) _ (?P<u>ENPERIOD)", rest)
_add("en_begin_to_date", "(?:THE _)? BEGIN _ OF _ (?:THE|THIS) _ (?P<x>XTD)", this_period)
_add("en_anchor", "(?:THE _)? BEGIN _ OF _ (?:THE|THIS) _ (?P<u>ENPERIOD)", anchor)
_add("en_week_before", "(?P<u>ENPERIOD) _ (?P<k>BEFORE) _ LAST", two_back)
_add("en_week_after", "(?P<u>ENPERIOD) _ (?P<k>AFTER) _ NEXT", two_back)
_add("en_day_before", "E_DAY _ BEFORE _ (?P<r>RELDAY)(?P<two>)", relday)
_add("en_day_after", "E_DAY _ AFTER _ (?P<r>RELDAY)(?P<two>)", relday)
_add("en_days_around", "(?P<n>CNT) _ E_DAY _ (?P<k>BEFORE|AFTER) _ (?:THE _)? (?P<r>RELDAY)", days_around)
_add("weekend", "(?P<r>WEEKEND_REL)", weekend)
_add("day_number_dash", "(?<!MONTHNAME)(?<!MONTHNAME SPACE)(?P<d>D12|ORD)(?= _ (?:DASH|THROUGH) _ (?:D12|ORD) _ (?:OF _)? MONTHNAME)", day_number)
_add("en_rolling_excl", "(?:LAST|PAST|PREVIOUS) _ (?P<n>CNT) _ E_DAY _ (?:COMMA _)? EXCL_TODAY", whole_days)
_add("en_clock_rolling", "(?:LAST|PAST|PREVIOUS|LATEST) _ (?:(?P<n>CNT|ART|HALF) _ (?:ART _)?)? (?P<u>CLK)", rolling)
_add("en_rolling", "(?:LAST|PAST|PREVIOUS|LATEST) _ (?P<n>CNT|ART|HALF) _ (?:ART _)? (?P<u>CAL)", rolling)
_add("en_rolling_one", "(?:PAST|LATEST) _ (?P<u>ENPERIOD|E_DAY)", rolling)
_add("en_fortnight", "(?:LAST|PAST|PREVIOUS) _ (?P<u>FORTNIGHT)", rolling)
_add("en_rolling_after", "(?P<n>CNT) _ (?:LAST|PAST) _ (?P<u>CAL|CLK)", lambda f: rolling(f) if _plural(f) else None)
_add("en_ahead_after", "(?P<n>CNT) _ (?:NEXT|COMING) _ (?P<u>CAL|CLK)", lambda f: ahead(f) if _plural(f) else None)
_add("en_ahead", "(?:NEXT|COMING) _ (?P<n>CNT|ART) _ (?P<u>CAL|CLK)", ahead)
_add("en_day_of_month_rel", "(?:THE _)? (?P<d>D12|ORD|ORDW) _ (?:E_DAY _)? OF _ (?:THE _)? (?P<k>NEXT|LAST|THIS|PREVIOUS|COMING|NOW) _ E_MONTH", _day_of_relative_month)
_add("en_first_n", "(?P<en>ORDW) _ (?P<n>CNT) _ (?P<u>E_QUARTER|E_MONTH|E_DAY|E_WEEK)", lambda f: first_n(f) if f.need("en").value == 1 else None)
_add("en_ago", "(?P<n>CNT|ART|HALF) _ (?:ART _)? (?P<u>CAL|CLK) _ AGO", ago)
_add("en_later", "(?P<n>CNT|ART) _ (?P<u>CAL|CLK) _ LATER", later)
_add("en_in", "IN _ (?P<n>CNT|ART) _ (?P<u>CAL|CLK)(?! _ (?:AGO|LATER))", later)
_add("en_this_weekday", "(?P<k>THIS|LAST|NEXT|PREVIOUS|COMING) _ (?:(?P<k2>COMING) _)? (?P<wd>WEEKDAY)", weekday)
_add("en_month_rel", "(?P<k>LAST|THIS|NEXT|COMING) _ (?P<m>MONTHNAME)", month_name_relative)
_add("en_relative", "(?P<k>LAST|PREVIOUS|NEXT|COMING|THIS) _ (?P<u>ENPERIOD)", en_relative)
_add("en_current", "(?P<c>NOW) _ (?P<u>ENPERIOD)", lambda f: this_period(f) if f.need("c").value == "current" else None)
_add("en_same", "SAME _ (?P<u>E_MONTH|E_QUARTER) _ (?:OF _|IN _)? (?:LAST|PREVIOUS) _ E_YEAR", same_last_year)
_add("en_year_named", "(?:OTHER _)? E_YEAR _ (?:OF _)? (?P<y>Y4|ENN)", year_named)
_add("en_mdy_names", "(?P<m>MONTHNAME) _ DASH _ (?P<y>Y4)", dated_month)
_add("en_early_month", "(?P<x>EARLY|MID|LATE) _ DASH? _ (?:OF _)? (?=MONTHNAME)", _dekad_word)
_add("en_md", "(?P<m>MONTHNAME) _ DOT? _ (?:SLASH _)? (?:COMMA _)? (?:THE _)? (?P<d>DAYN)(?! _ (?:CAL|CLK|COLON|AMPM|OCLOCK))", month_day)
_add("en_dm", "(?:THE _)? (?P<d>D12|ORDS) _ (?:OF _)? (?P<m>MONTHNAME)", month_day)
_add("en_month", "(?P<m>MONTHNAME) _ DOT?", month)
_add("en_quarter", "(?P<q>QLABEL)", quarter)
_add("en_ord_quarter", "(?:THE _)? (?P<q>ORDS) _ E_QUARTER", quarter)
_add("en_half", "(?P<h>HLABEL)", half_year)
_add("en_ord_half", "(?:THE _)? (?P<h>ORDS) _ HALF", half_year)
_add("en_week_no", "E_WEEK _ (?P<w>D12|ENN)", week_number)
_add("en_week_label", "(?P<w>WLABEL)", week_number)
_add("en_ord_week", "(?:THE _)? (?P<w>ORDS) _ E_WEEK(?= _ (?:OF|IN))", week_number)
_add("en_the_day", "THE _ (?P<d>ORD)(?! _ (?:CAL|CLK|OF|MONTHNAME))", day_of_month)
_add("en_holiday", "(?P<h>HOLIDAY)", holiday)
_add("now", "(?P<w>NOW|LATEST)", now)
_add("day_number", "(?<=THROUGH|TO|DASH|UNTIL|ZH_TO|AND)(?P<d>D12|ORD|ORDW)", day_number)
_add("day_number_between", "(?<=BETWEEN SPACE)(?:THE _)? (?P<d>D12|ORD|ORDW)(?= _ AND _ (?:THE _)? (?:D12|ORD|ORDW) _ (?:OF _)? MONTHNAME)", day_number)
_add("day_number_from", "(?<=FROM SPACE)(?:THE _)? (?P<d>D12|ORD|ORDW)(?= _ (?:TO|THROUGH|UNTIL|DASH) _ (?:THE _)? (?:D12|ORD|ORDW) _ (?:OF _)? MONTHNAME)", day_number)
_add("day_number_sp", "(?<=(?:THROUGH|TO|DASH|UNTIL|ZH_TO|AND)SPACE)(?P<d>D12|ORD|ORDW)", day_number)
_add("weekday", "(?P<wd>WEEKDAY) (?:DOT(?= _ (?:$|COMMA)))?", weekday)
_add("en_on_the_day", "(?<=ON SPACE)(?:THE _)? (?P<d>ORD|ORDW)(?! _ (?:CAL|CLK|OF|MONTHNAME|ORD|D12))", day_of_month)
_add("en_the_day_alone", "THE _ (?P<d>D12)(?= _ (?:$|COMMA))", day_of_month)
# fmt: on


# --- the scanner -------------------------------------------------------------------------------


def _outer(name: str, pattern: str) -> str:
    compiled = compile_phrase(pattern)
    inner = re.sub(r"\(\?P([<=])(\w+)([>)])", lambda g: f"(?P{g[1]}{name}__{g[2]}{g[3]}", compiled)
    return f"(?P<{name}>{inner})"


def _first_codes(pattern: str) -> set[str]:
    """The class codes a compiled phrase can start with, read from its parsed form."""
    codes, empty = _first(_sre_parser.parse(pattern))
    if empty:
        raise ValueError(f"a phrase that can match nothing: {pattern!r}")
    return codes


def _first(items: Any) -> tuple[set[str], bool]:
    """(the codes a parsed sequence can start with, whether it can match empty)."""
    found: set[str] = set()
    for op, arg in items:
        codes, empty = _first_of(op, arg)
        found |= codes
        if not empty:
            return found, False
    return found, True


def _first_of(op: Any, arg: Any) -> tuple[set[str], bool]:
    """(the codes one parsed item can start with, whether it can match empty)."""
    if op == _sre.LITERAL:
        return {chr(arg)}, False
    if op == _sre.IN:
        if any(kind != _sre.LITERAL for kind, _ in arg):
            raise ValueError(f"unsupported class in a phrase: {arg}")
        return {chr(value) for _, value in arg}, False
    if op == _sre.SUBPATTERN:
        return _first(arg[3])
    if op == _sre.BRANCH:
        branches = [_first(branch) for branch in arg[1]]
        return set().union(*(codes for codes, _ in branches)), any(e for _, e in branches)
    if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT):
        low, _, body = arg
        codes, empty = _first(body)
        return codes, low == 0 or empty
    if op in (_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT, _sre.GROUPREF):
        return set(), True
    raise ValueError(f"unsupported op in a phrase: {op}")


def _scanners() -> tuple[dict[str, re.Pattern[str]], dict[str, list[tuple[str, re.Pattern[str]]]]]:
    by_code: dict[str, list[tuple[str, str]]] = {}
    for name, pattern, _ in PHRASES:
        outer = _outer(name, pattern)
        for code in _first_codes(compile_phrase(pattern)):
            by_code.setdefault(code, []).append((name, outer))
    joined = {code: re.compile("|".join(o for _, o in outers)) for code, outers in by_code.items()}
    each = {
        code: [(name, re.compile(outer)) for name, outer in outers]
        for code, outers in by_code.items()
    }
    return joined, each


_BUILDERS: dict[str, Builder] = {name: builder for name, _, builder in PHRASES}
# One scanner per first class (every phrase that can start with it, in table order), and the
# same phrases one by one, for when the first phrase that matches refuses (三年 is no year:
# then 三年前 may still be 3 years ago).
SCANNERS, _EACH = _scanners()
# The classes any phrase starts with: the scan jumps from one to the next in C.
_TRIGGER = re.compile("[" + re.escape("".join(sorted(SCANNERS))) + "]")


def phrases(tokens: Tokens) -> Iterator[tuple[Atom, int, int]]:
    """Yield each phrase the grammar reads in the tokens, left to right: its atom and its span
    of tokens. A phrase whose builder refuses it (a month 13, a 2月30日) yields nothing."""
    codes = tokens.codes
    index = 0
    scanners = SCANNERS
    while (trigger := _TRIGGER.search(codes, index)) is not None:
        index = trigger.start()
        found = scanners[codes[index]].match(codes, index)
        if found is None:
            index += 1
            continue
        atom = _build(found, tokens)
        if atom is None:
            found, atom = _next_phrase(codes, tokens, index, found.lastgroup or "")
        if atom is None or found is None:
            index += 1
            continue
        yield atom, index, found.end()
        index = max(found.end(), index + 1)


def _next_phrase(
    codes: str, tokens: Tokens, index: int, refused: str
) -> tuple[re.Match[str] | None, Atom | None]:
    """The first phrase after `refused` that matches at `index` and builds."""
    later = False
    for name, pattern in _EACH[codes[index]]:
        if not later:
            later = name == refused
            continue
        found = pattern.match(codes, index)
        if found is not None and (atom := _build(found, tokens)) is not None:
            return found, atom
    return None, None


def _build(match: re.Match[str], tokens: Tokens) -> Atom | None:
    found = Found(match, tokens)
    try:
        return _BUILDERS[found.name](found)
    except Impossible:
        return IMPOSSIBLE
    except (ValueError, OverflowError, TypeError):  # a month 13, a 30th of February, year 0
        return None
