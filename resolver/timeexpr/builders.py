"""Builders of phrases relative to now: rolling windows, ago/later, relative periods and days,
this/rest/anchor, now — each turns a `Found` into an `Atom` (or None: the phrase is refused)."""

from __future__ import annotations

from resolver.timeexpr.atoms import (
    NOW_ATOM,
    Atom,
    partial,
    period,
    relative,
    this,
)
from resolver.timeexpr.found import CLASS_NAME, Found, count, unit_of, unit_word
from resolver.timeexpr.lexicon import UNIT_OF
from resolver.timeexpr.partials import (
    FirstN,
    Weekday,
    Weekend,
)
from resolver.timeexpr.result import Step
from resolver.timeexpr.terms import NOW, Relative

# --- builders -------------------------------------------------------------------------------

_CLOCK_MINUTES = {"HOUR": 60, "MINUTE": 1, "E_HOUR": 60, "E_MINUTE": 1}


def _amount(found: Found) -> tuple[int, Step | str] | None:
    """(count, unit) of a rolling/ago/ahead phrase; halves become months or days; hours and
    minutes come back as "hour"/"minute"."""
    unit_token = found.need("u")
    unit_name = CLASS_NAME[unit_token.code]
    number = found.tok("n")
    twice = 2 if unit_name == "FORTNIGHT" else 1
    halved = found.has("half")
    if unit_name in _CLOCK_MINUTES:
        if number is None:
            return (
                (1, "hour" if _CLOCK_MINUTES[unit_name] == 60 else "minute") if not halved else None
            )
        if CLASS_NAME[number.code] == "HALF":
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
    if CLASS_NAME[number.code] == "HALF":
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
    return CLASS_NAME[unit.code] == "MONTH" and not found.has("ge") and unit.end - unit.start == 1


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
    if unit == "week":  # 前2周: the last 2 weeks; 2021年的前2周: its ISO weeks 1-2
        first_weeks = FirstN(number, "week", "isoyear")
        return (
            None
            if english
            else Atom("rolling", "week", Relative(-number, "week"), NOW, first_weeks)
        )
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
    name = CLASS_NAME[day.code]
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
    if which in ("NEXT", "COMING", "FOLLOWING"):  # the following week: the next one
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
    """去年同月, 去年同季度, the same month last year: now's month/quarter a year back — or as
    many years as the year word says (前年同月, 明年同季度), also written 去年本月 / 去年这个月."""
    years = -1
    if found.has("r"):
        years, of = found.shift("r")
        if of != "year" or years == 0:
            return None  # 上个月同月, 今年同月: no year back or ahead
    if found.has("t"):
        current, unit = found.shift("t")
        if current != 0:
            return None  # 去年上个月: a composition no table declares
    else:
        unit = unit_of(found.need("u"))
    if unit not in ("month", "quarter"):
        return None
    back = years * (12 if unit == "month" else 4)
    return Atom("period", unit, Relative(back, unit, unit))
