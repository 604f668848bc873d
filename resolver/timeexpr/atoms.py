"""Atoms: what one scanner match means, before ranges and since are put together."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Literal, NamedTuple

from resolver.timeexpr.festivals import NAMES as FESTIVALS
from resolver.timeexpr.lexicon import (
    CLOCK_UNITS,
    EN_MONTHS,
    PREVIOUS_WORDS,
    RELATIVE_YEARS,
    UNITS,
    WEEKDAYS,
    number,
    zh_digit_year,
)
from resolver.timeexpr.partials import (
    DayOfMonth,
    Dekad,
    Festival,
    FirstN,
    InYear,
    Partial,
    Weekday,
    container_first,
)
from resolver.timeexpr.patterns import FAMILIES
from resolver.timeexpr.result import Step
from resolver.timeexpr.terms import NOW, Absolute, Clock, Relative, Term

# period: one calendar period (2024年3月, 上个月); this: the current period so far (本月);
# rolling: now-N..now; ago: the point now-N; span: first..last periods (2024年1-3月, 上半年);
# partial: a period whose container is still open (3月, Q1, 周五, 15日); anchor: the start of
# the current period, only a start (年初至今); now: an instant word.
Kind = Literal["period", "this", "rolling", "ago", "span", "partial", "anchor", "now"]


class Atom(NamedTuple):
    """One time atom: its kind, natural step and terms (or, for a partial, what it lacks).

    A rolling atom may carry a partial too: 前三个月 is the last three months alone, but the
    first three months of a year named before it (2024年前三个月).
    """

    kind: Kind
    unit: Step | None
    first: Term | None = None
    last: Term | None = None
    partial: Partial | None = None


# Atoms are built on every call: tuple.__new__ skips the NamedTuple __new__ (defaults,
# keywords), which costs twice as much.
_new = tuple.__new__


def dated(unit: Step, first: Absolute, last: Absolute | None) -> Atom:
    """Return the atom of a period, or of a span when it has a last period."""
    return _new(Atom, ("span" if last is not None else "period", unit, first, last, None))


Builder = Callable[[re.Match[str], Clock, str], Atom | None]
NOW_ATOM = Atom("now", None)
_HALF = frozenset(("上", "first", "h1"))
_HALVES: dict[Step, tuple[int, Step]] = {"year": (6, "month"), "month": (15, "day")}  # 半年, 半个月
_ANCHOR_UNITS: dict[str, Step] = {"年": "year", "月": "month", "季": "quarter", "周": "week"}
_THIS_WORDS: dict[str, Step] = {
    "今年": "year",
    "今年度": "year",
    "当月": "month",
    "当季": "quarter",
    "当季度": "quarter",
    "当周": "week",
    "wtd": "week",
    "mtd": "month",
    "qtd": "quarter",
    "ytd": "year",
}
# A bare lower-case "may" is usually the verb; it is a month only after one of these words.
_MAY_AFTER = re.compile(r"\b(?:in|since|from|to|until|till|through|of|between|and|during)\s+$")


# (scanner id, atom, group) → group index: a Pattern's own hash walks its compiled code.
_GROUPS: dict[tuple[int, str | None, str], int | None] = {}


def _opt(match: re.Match[str], name: str) -> str | None:
    """Return the atom's inner group `name` (None when the atom has none or it did not match)."""
    key = (id(match.re), match.lastgroup, name)
    index = _GROUPS.get(key, -1)
    if index == -1:  # worked out once per scanner, atom and group
        index = _GROUPS[key] = match.re.groupindex.get(f"{match.lastgroup}_{name}")
    return None if index is None else match.group(index)


def _need(match: re.Match[str], name: str) -> str:
    value = _opt(match, name)
    if value is None:
        raise ValueError(name)  # cannot happen for the atoms that use it: their pattern has it
    return value


def _year(token: str, clock: Clock) -> int:
    if token[0].isdigit():
        return int(token) if len(token) == 4 else 2000 + int(token)  # 24年 is 2024
    offset = RELATIVE_YEARS.get(token.split(maxsplit=1)[0])
    if offset is not None:
        return clock.today.year + offset
    return zh_digit_year(token)


def _month(token: str) -> int:
    value = EN_MONTHS.get(token[:3]) if token.isalpha() and token.isascii() else number(token)
    if value is None or not 1 <= value <= 12:
        raise ValueError(token)
    return value


def _int(token: str) -> int:
    value = number(token)
    if value is None:
        raise ValueError(token)
    return value


def _quarter_month(token: str) -> int:
    return 3 * _int(token) - 2


def _amount(match: re.Match[str]) -> tuple[int, Step] | None:
    """Return (count, unit) of a rolling or ago atom; halves become months or days."""
    word = _need(match, "u")
    unit = UNITS[word]
    written = _opt(match, "n")
    twice = 2 if word.endswith(("双周", "fortnight", "fortnights")) else 1
    if written is None:
        return twice, unit
    if written == "半" or written.startswith("half"):
        return _HALVES.get(unit)
    count = number(written)
    if not count:
        return None
    if _opt(match, "half"):
        return (12 * count + 6, "month") if unit == "year" else None
    return count * twice, unit


def _rolling(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    amount = _amount(match)
    if amount is None:
        return None
    count, unit = amount
    return _new(Atom, ("rolling", unit, _new(Relative, (-count, unit, None)), NOW, None))


def _ttm(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    return Atom("rolling", "month", Relative(-12, "month"), NOW)


def _ago(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    amount = _amount(match)
    if amount is None:
        return None
    count, unit = amount
    return Atom("ago", unit, Relative(-count, unit))


def _prev(match: re.Match[str], clock: Clock, query: str) -> Atom:
    unit = UNITS[_need(match, "u")]
    count = -1 if _opt(match, "k") in (None, "上") else -2  # 上上周, the week before last
    return _new(Atom, ("period", unit, _new(Relative, (count, unit, unit)), None, None))


def _prev_word(match: re.Match[str], clock: Clock, query: str) -> Atom:
    text = match.group()
    entry: tuple[int, Step] = (-2, "day") if "before" in text else PREVIOUS_WORDS[text]
    count, unit = entry
    return _new(Atom, ("period", unit, _new(Relative, (count, unit, unit)), None, None))


def _this(match: re.Match[str], clock: Clock, query: str) -> Atom:
    unit = UNITS[_need(match, "u")]
    return _new(Atom, ("this", unit, _new(Relative, (0, None, unit)), NOW, None))


def _this_word(match: re.Match[str], clock: Clock, query: str) -> Atom:
    unit = _THIS_WORDS[match.group()]
    return Atom("this", unit, Relative(0, None, unit), NOW)


def _anchor(match: re.Match[str], clock: Clock, query: str) -> Atom:
    named = _opt(match, "u")
    unit = UNITS[named] if named else _ANCHOR_UNITS[match.group()[-2]]  # 年初, 本月初
    return Atom("anchor", unit, Relative(0, None, unit))


def _now(match: re.Match[str], clock: Clock, query: str) -> Atom:
    return NOW_ATOM


def _year_atom(match: re.Match[str], clock: Clock, query: str) -> Atom:
    first = _new(Absolute, ("year", date(_year(_need(match, "y"), clock), 1, 1)))
    return _new(Atom, ("period", "year", first, None, None))


def _settle(match: re.Match[str], partial: Partial, clock: Clock) -> Atom:
    """Return the period in the year the atom names (2024年3月), or the partial (3月)."""
    year = _opt(match, "y")
    if year is None:
        return _new(Atom, ("partial", partial.unit, None, None, partial))
    return dated(partial.unit, *partial.place(date(_year(year, clock), 1, 1)))


def _md(match: re.Match[str], clock: Clock, query: str) -> Atom:
    month, day = _month(_need(match, "m")), _int(_need(match, "d"))
    date(2000, month, day)  # validates against the longest month of that name
    last_day = _opt(match, "d2")
    return _settle(
        match, InYear("day", month, day, last_day=_int(last_day) if last_day else 0), clock
    )


def _m(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    name = _need(match, "m")
    pos = match.start()
    if (
        name == "may"
        and _opt(match, "y") is None
        and query[pos : pos + 1] != "M"
        and _MAY_AFTER.search(match.string, max(0, pos - 10), pos) is None
    ):
        return None
    last_month = _opt(match, "m2")
    last = _month(last_month) if last_month else 0
    return _settle(match, _new(InYear, ("month", _month(name), 0, last, 0)), clock)


def _q(match: re.Match[str], clock: Clock, query: str) -> Atom:
    last_q = _opt(match, "q2")
    last_month = _quarter_month(last_q) if last_q else 0
    first_month = _quarter_month(_need(match, "q"))
    return _settle(match, _new(InYear, ("quarter", first_month, 0, last_month, 0)), clock)


def _w(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    week = _int(_need(match, "w"))
    if not 1 <= week <= 53:
        return None
    year = _opt(match, "y")
    if year is None:
        return Atom("partial", "week", partial=InYear("week", 0, week))
    return dated("week", *InYear("week", 0, week).place(date(_year(year, clock), 7, 1)))


def _h(match: re.Match[str], clock: Clock, query: str) -> Atom:
    first_month = 1 if _need(match, "h") in _HALF else 7
    return _settle(match, InYear("month", first_month, last_month=first_month + 5), clock)


def _dom(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    day = _int(_need(match, "d"))
    return Atom("partial", "day", partial=DayOfMonth(day)) if 1 <= day <= 31 else None


def _weekday(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    if match.start() and match.string[match.start() - 1] == "每":
        return None  # 每周一 is every Monday, not a day
    partial = Weekday(WEEKDAYS[_need(match, "wd")])
    which = _opt(match, "k")
    if which is None:
        return Atom("partial", "day", partial=partial)
    weeks_back = {"上上": 2, "上": 1, "last": 1}.get(which, 0)  # 本, 这, this: this week
    monday = container_first("week", clock.today)
    first, _ = partial.place(monday - timedelta(days=7 * weeks_back))
    return Atom("period", "day", first)


def _dekad(match: re.Match[str], clock: Clock, query: str) -> Atom:
    partial = Dekad("上中下".index(_need(match, "x")))
    return Atom("partial", "day", partial=partial)


def _clock_amount(match: re.Match[str]) -> Relative | None:
    minutes = CLOCK_UNITS[_need(match, "u")]
    written = _opt(match, "n")
    if written is not None and (written == "半" or written.startswith("half")):
        return Relative(-30 * minutes // 60, "minute") if minutes == 60 else None
    count = 1 if written is None else number(written)
    if not count:
        return None
    return Relative(-count, "hour" if minutes == 60 else "minute")


def _clock_rolling(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    term = _clock_amount(match)
    return None if term is None else Atom("rolling", "day", term, NOW)  # step day, SPEC §4.1


def _clock_ago(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    term = _clock_amount(match)
    return None if term is None else Atom("ago", "day", term)


_FIRST_N_UNITS: dict[str, Step] = {"季": "quarter", "quarters": "quarter", "months": "month"}


def _first_n(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    word = _need(match, "u").lstrip("个")
    count = number(_need(match, "n"))
    if not count:
        return None
    unit: Step = _FIRST_N_UNITS.get(word[:1]) or _FIRST_N_UNITS.get(word) or UNITS[word]
    if unit == "quarter":  # 前三季度: of a year, this year's when none is named
        return Atom("partial", unit, partial=FirstN(count, unit, "year"))
    if unit == "week":  # 前两周: the last two weeks (SPEC §4.1); no week of a year
        return Atom("rolling", unit, Relative(-count, unit), NOW)
    if match.group().startswith(("first", "the")):  # English: first 3 months of a year
        return Atom(
            "partial", unit, partial=FirstN(count, unit, "month" if unit == "day" else "year")
        )
    # 前3个月, 前10天: the last N units alone, the first N of a year (month) named before them.
    container: Literal["year", "month"] = "month" if unit == "day" else "year"
    return Atom("rolling", unit, Relative(-count, unit), NOW, FirstN(count, unit, container))


def _fortnight(match: re.Match[str], clock: Clock, query: str) -> Atom:
    return Atom("rolling", "week", Relative(-2, "week"), NOW)


def _month_name(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    """last March: the most recent March before the current month; this March: this year's."""
    month = _month(_need(match, "m"))
    today = clock.today
    if _need(match, "k") == "this":
        return Atom("period", "month", Absolute("month", date(today.year, month, 1)))
    year = today.year if month < today.month else today.year - 1
    return Atom("period", "month", Absolute("month", date(year, month, 1)))


_SAME_UNITS: dict[str, Step] = {
    "月": "month",
    "month": "month",
    "季度": "quarter",
    "季": "quarter",
    "quarter": "quarter",
}


def _same(match: re.Match[str], clock: Clock, query: str) -> Atom:
    """去年同月/同季度: now's month/quarter a year back. (去年同期 is no atom: it names no
    period, and its cue 同期 stays unread, SPEC §4.1.)"""
    unit = _SAME_UNITS[_need(match, "u")]
    back = -12 if unit == "month" else -4
    return Atom("period", unit, Relative(back, unit, unit))


def _festival(match: re.Match[str], clock: Clock, query: str) -> Atom:
    name = FESTIVALS[" ".join(_need(match, "f").split())]
    return Atom("partial", "day", partial=Festival(name, holiday=_opt(match, "hol") is not None))


_BUILDERS: dict[str, Builder] = {
    "rolling": _rolling,
    "ttm": _ttm,
    "ago": _ago,
    "prev": _prev,
    "prev_word": _prev_word,
    "this": _this,
    "this_word": _this_word,
    "anchor": _anchor,
    "now": _now,
    "year": _year_atom,
    "md": _md,
    "m": _m,
    "q": _q,
    "w": _w,
    "h": _h,
    "dom": _dom,
    "weekday": _weekday,
    "dekad": _dekad,
    "clock_rolling": _clock_rolling,
    "clock_ago": _clock_ago,
    "first_n": _first_n,
    "fortnight": _fortnight,
    "month_name": _month_name,
    "same": _same,
    "festival": _festival,
}
_FAMILY_BUILDERS: dict[str, Builder] = {
    name: _BUILDERS[family] for name, family in FAMILIES.items()
}


def build(match: re.Match[str], clock: Clock, query: str) -> Atom | None:
    """Read the atom a scanner match found (its group name is the atom's), or None if invalid."""
    try:
        return _FAMILY_BUILDERS[match.lastgroup or ""](match, clock, query)
    except ValueError:  # a month 13, a 30th of February, a week 54
        return None
