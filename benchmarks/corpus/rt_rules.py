"""What the SPEC reads in a Recognizers-Text case: family, reading, basis and the SPEC row.

`classify(case, today)` looks at the peer's single result (its timex says which period the
words name, its text which words were read) and at the words of the whole input, and returns
a `Verdict`: the family, a reading in the notation of `benchmarks.corpus.readings` (plus
`since <date> <unit>`, `peer` for "the peer's own window" and `none`), the basis (`spec`,
`spec-nothing` or `peer`) and the note (the SPEC row). Hand-read exceptions live in
`rt_overrides`; this module holds the general rules only. Written from the SPEC (§3, §4,
§4.1, §4.2, §4.3); it never looks at resolver's reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from benchmarks.corpus.rt_calendar import (
    bare_day,
    bare_month_day,
    bare_weekday,
    make_date,
    two_digit_year,
    weekday_in_week,
)
from benchmarks.corpus.rt_source import Result


@dataclass(frozen=True, slots=True)
class Verdict:
    """The SPEC's reading of one case."""

    family: str
    reading: str
    basis: str  # spec | spec-nothing | peer
    note: str


def nothing(family: str, note: str) -> Verdict:
    """The SPEC settles nothing."""
    return Verdict(family, "none", "spec-nothing", note)


def peer(family: str, note: str) -> Verdict:
    """The SPEC is silent: the peer's own window is converted."""
    return Verdict(family, "peer", "peer", "spec-silent: " + note)


def spec(family: str, reading: str, note: str) -> Verdict:
    """A SPEC row reads it."""
    return Verdict(family, reading, "spec", note)


UNIT = {"D": "day", "W": "week", "M": "month", "Y": "year"}
FULL_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
BARE_MD = re.compile(r"^XXXX-(\d{2})-(\d{2})$")
BARE_DOM = re.compile(r"^XXXX-XX-(\d{2})$")
BARE_WD = re.compile(r"^XXXX-WXX-(\d)$")
YEAR = re.compile(r"^(\d{4})$")
MONTH = re.compile(r"^(\d{4})-(\d{2})$")
BARE_MONTH = re.compile(r"^XXXX-(\d{2})$")
WEEK = re.compile(r"^(\d{4})-W(\d{2})$")
WEEKEND = re.compile(r"^(\d{4})-W(\d{2})-WE$")
RANGE = re.compile(r"^\(([^,]+),([^,]+),P(\d+)(BD|[DWMY])\)$")
PART_OF_DAY = re.compile(r"T(MO|AF|EV|NI|DT|MI|BT|ME)$")
OPEN_MODS = {"before", "after", "until", "before-end", "after-start", "after-mid", "since-end"}

# words (lower case) of the whole input
EN_SINCE = re.compile(r"\bsince\b")
ZH_SINCE = re.compile(r"^自.*以来$|至今$")
EN_TODATE = re.compile(r"\b(to date|till date|so far)\b")
EN_ROLL_PAST = re.compile(r"\b(last|past|previous|recent)\b")
EN_ROLL_NEXT = re.compile(r"\b(next|upcoming|coming|following)\b")
ZH_ROLL_PAST = re.compile(r"^(最近|过去|過去|近|前|上)")
ZH_ROLL_NEXT = re.compile(r"^(未来|未來|接下来|接下來|后|後|今后|之后)")
AMPM = re.compile(
    r"\d\s*(am|pm|a\.m\.|p\.m\.|a|p)\b|上午|下午|晚上|早上|中午|凌晨|傍晚|\d{2}:\d{2}"
)
WEEKDAYS_EN = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
WEEKDAY_EN = re.compile(
    r"\b(mon|tue|wed|thu|fri|sat|sun)(day|sday|nesday|rsday|urday|s|\.)?\b", re.IGNORECASE
)
WEEKDAY_ZH = re.compile(r"(?:周|星期|礼拜|禮拜|週)([一二三四五六日天])")
ZH_WD = "一二三四五六日"
NUMERIC = re.compile(r"^(\d{1,2})[/.\-](\d{1,2})(?:[/.\-](\d{2}|\d{4}))?$")
HOLIDAYS = re.compile(
    r"christmas|xmas|new year|independence day|4th of july|fourth of july|patrick|easter|"
    r"thanksgiving|black friday|memorial day|labor day|mother'?s day|father'?s day|valentine|"
    r"halloween|元旦|春节|春節|元宵|劳动节|勞動節|五一|端午|七夕|中秋|国庆|國慶|双十一|双十二|清明|"
    r"除夕|重阳|腊八|平安夜|圣诞|聖誕|情人节|妇女节|儿童节|教师节|万圣节"
)
MONTH_NAME = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|月")
ORDINAL = re.compile(
    r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\w+teenth|"
    r"twentieth|thirtieth|twenty|thirty)\b|[一二三四五六七八九十]"
)
LUNAR = re.compile(r"正月|腊月|臘月|初[一二三四五六七八九十]|农历|農曆|阴历|大年")
TODAY = {"today", "今天", "今日", "本日"}
NEAR_DAYS = {
    "yesterday",
    "tomorrow",
    "tmrw",
    "the day after tomorrow",
    "day after tomorrow",
    "the day before yesterday",
    "day before yesterday",
    "昨天",
    "昨日",
    "明天",
    "明日",
    "前天",
    "后天",
    "後天",
    "大前天",
    "大后天",
    "大後天",
}
INSTANT_EN = {"now", "right now", "at the moment", "currently", "at present", "presently"}
INSTANT_ZH = {"现在", "現在", "当前", "目前", "此刻", "此时"}


def _d(text: str) -> date:
    return date.fromisoformat(text)


def _full_year_ok(y: int) -> bool:
    return y >= 2000


def _weekday_named(text: str) -> int | None:
    m = WEEKDAY_EN.search(text)
    if m:
        return WEEKDAYS_EN.index(m.group(1).lower()[:3]) + 1
    z = WEEKDAY_ZH.search(text)
    if z:
        return 7 if z.group(1) in "日天" else ZH_WD.index(z.group(1)) + 1
    return None


def _day_reading(family: str, one: date | None, note: str, text: str, whole: str) -> Verdict:
    """A single day the SPEC reads (checks the year, and a weekday written beside it)."""
    if one is None:
        return nothing(family, "§4.3 a date that does not exist settles nothing")
    if not _full_year_ok(one.year):
        return nothing(family, "§4.3 a year before 2000 settles nothing")
    named = _weekday_named(whole if family != "weekday" else text)
    if named is not None and family in ("month_day", "date", "numeric_date"):
        if named != one.isoweekday():
            return nothing("weekday_date", "§4.2/§4.3 a weekday that disagrees with its date")
        family = "weekday_date"
        note += "; the weekday beside it agrees"
    return spec(family, f"day {one.isoformat()}", note)


def _numeric(text: str, today: date) -> Verdict | None:
    """§4.2 numeric dates: month first (M/D, M/D/YYYY); a first number over 12 is no month."""
    m = NUMERIC.match(text.strip())
    if not m:
        return None
    first, second, yy = int(m.group(1)), int(m.group(2)), m.group(3)
    if first > 12:
        return nothing("numeric_date", "§4.2 numeric dates are month first: a first number over 12")
    if yy is None:
        one = bare_month_day(today, first, second)
        return _day_reading("numeric_date", one, "§4.2 M/D (bare: this year's if started)", "", "")
    year = int(yy) if len(yy) == 4 else two_digit_year(int(yy))
    note = "§4.2 M/D/YYYY" if len(yy) == 4 else "§4.2 M/D/YY, two-digit year by §4.1/§4.3"
    return _day_reading("numeric_date", make_date(year, first, second), note, "", "")


def _relative_weekday(text: str, today: date, lang: str) -> Verdict | None:  # noqa: PLR0911
    """this/last/next Friday, 上周五, 下下周日 (§4.1, §4.2 mirror)."""
    named = _weekday_named(text)
    if named is None:
        return None
    t = text.lower().strip()
    if lang == "en":
        if re.search(r"\d|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", t):
            return None  # a date beside the weekday: read as a date
        if re.search(r"\b(after|before|from|ago|later)\b", t):
            return None  # an offset from the weekday: arithmetic
        if re.search(r"\b(first|second|third|fourth|fifth)\b|\blast\s+\w+\s+(of|in)\b", t):
            return None  # the Nth weekday of a month
        if re.search(r"\bpast\b", t):
            return peer("relative_weekday", "'(this) past Wednesday': no SPEC row (the peer's day)")
        if re.search(r"\b(upcoming|coming)\b", t):
            ahead = (named - today.isoweekday()) % 7 or 7
            one = today + timedelta(days=ahead)
            return spec("relative_weekday", f"day {one}", "§4.2 coming/this upcoming Friday")
        if re.search(r"\bfollowing\b", t) and "week" not in t:
            return peer("relative_weekday", "'following Friday': no SPEC row (the peer's day)")
        if re.search(r"\b(next|following)\b", t):
            weeks = 2 if "after next" in t else 1
        elif re.search(r"\b(last|previous)\b", t):
            weeks = -1
        elif re.search(r"\bthis\b", t):
            weeks = 0
        else:
            return None
    else:
        m = re.match(
            r"^(上上|下下|上|下|这|這|本)(?:个|個)?(?:周|星期|礼拜|禮拜|週)[一二三四五六日天]$", t
        )
        if not m:
            return None
        weeks = {"上上": -2, "下下": 2, "上": -1, "下": 1}.get(m.group(1), 0)
    one = weekday_in_week(today, named, weeks)
    return spec("relative_weekday", f"day {one}", "§4.1 this/last weekday, §4.2 next weekday")


def read_date(r: Result, text: str, whole: str, today: date, lang: str) -> Verdict:  # noqa: PLR0911
    low = text.lower().strip()
    if r.values and r.values[0] == "value not resolved":
        return nothing("impossible_date", "§4.3 a date that does not exist settles nothing")
    if r.mod == "approx":
        return nothing("approximate", "§4.2 around/about X settles nothing")
    if r.mod:
        return nothing("open_interval", "§4.2 before/after/until X settles nothing")
    if low in TODAY:
        return spec("instant", "now", "§4 row 1: today is an instant word")
    if re.match(r"^(for |on )?(the|this) day$", low):
        return peer("vague_period", "'the day' (the peer's day)")
    if low in NEAR_DAYS:
        return spec("near_day", f"day {r.timex}", "§4 昨天/yesterday; §4.2 明天/后天/前天")
    if HOLIDAYS.search(low):
        return _holiday(r, low, whole, today)
    nth = r"\b(first|second|third|fourth|fifth)\s+(mon|tue|wed|thu|fri|sat|sun)"
    nth += r"|\blast\s+\w+\s+(of|in)\b"
    if lang == "en" and re.search(nth, low):
        return peer("nth_weekday", "the Nth weekday of a month: no SPEC row (the peer's day)")
    rel = _relative_weekday(text, today, lang)
    if rel is not None:
        return rel
    if LUNAR.search(low):
        return nothing(
            "lunar_date", "a lunar date no SPEC row names (§4.1: a festival it does not know)"
        )
    if re.match(r"^(next|this|last|coming)\b", low) and BARE_MD.match(r.timex):
        return peer("month_day", "next/this + a month-day: no SPEC row (the peer's day)")
    arith = _arith(low, r, today)
    if arith is not None:
        return arith
    plain = not MONTH_NAME.search(low) and not re.search(r"\d", low) and not ORDINAL.search(low)
    dated = FULL_DATE.match(r.timex) or BARE_MD.match(r.timex)
    if plain and dated and _weekday_named(low) is None:
        if re.search(r"\b(next|last|this|previous|following)\b", low):
            return peer("date_other", "next day / the last day: no SPEC row (the peer's day)")
        return nothing("named_day", "§4.1 a festival or named day it does not know settles nothing")
    numeric = _numeric(low, today)
    if numeric is not None:
        return numeric
    if m := FULL_DATE.match(r.timex):
        one = make_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if _weekday_named(low) is not None and not re.search(r"\d{4}|'\d\d|年", low):
            # a weekday beside a day (and month) with no year: the bare rules, then agreement
            if MONTH_NAME.search(low):
                one = bare_month_day(today, int(m.group(2)), int(m.group(3)))
                note = "§4.2 month + day with no year: this year's if started, else last year's"
                return _day_reading("month_day", one, note, text, whole)
            one = bare_day(today, int(m.group(3)))
            note = "§4.2 bare day: this month's if started, else last month's"
            return _day_reading("month_day", one, note, text, whole)
        return _day_reading(
            "date", one, "§4 2024-03-15 / §4.2 month + day with a year", text, whole
        )
    if m := BARE_MD.match(r.timex):
        one = bare_month_day(today, int(m.group(1)), int(m.group(2)))
        note = "§4.2 month + day with no year: this year's if started, else last year's"
        return _day_reading("month_day", one, note, text, whole)
    if m := BARE_DOM.match(r.timex):
        one = bare_day(today, int(m.group(1)))
        note = "§4.2 bare day: this month's if started, else last month's"
        return _day_reading("day_of_month", one, note, text, whole)
    if m := BARE_WD.match(r.timex):
        if dom := re.search(r"\d+", low):
            one = bare_day(today, int(dom.group()))
            if one is not None and one.isoweekday() != int(m.group(1)):
                return nothing("weekday_date", "§4.2/§4.3 a weekday that disagrees with its date")
            note = "§4.2 bare day beside its weekday (this month's if started, else last month's)"
            return _day_reading("weekday_date", one, note, text, whole)
        one = bare_weekday(today, int(m.group(1)))
        note = "§4.1 bare weekday: this week's if started, else last week's"
        return spec("weekday", f"day {one}", note)
    return peer("date_other", "a date form no SPEC row names")


AGO = re.compile(
    r"^(\S+(?:\s+\S+)?)\s+(day|week|month|year)s?\s+ago$|^(.+?)(天|周|个月|個月|年)(前|之前|以前)$"
)
AHEAD = re.compile(
    r"^in\s+(\S+)\s+(day|week|month|year)s?$|^(\S+)\s+(day|week|month|year)s?\s+"
    r"(from now|from today|later|hence)$|^(.+?)(天|周|个月|個月|年)(后|後|之后|以后)$"
)
EN_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
EN_NUM |= {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a fortnight": 2}


def _count(word: str) -> int | None:
    word = word.strip()
    if word.isdigit():
        return int(word)
    if word in EN_NUM:
        return EN_NUM[word]
    zh = "零一二三四五六七八九十"
    if len(word) == 1 and word in zh:
        return zh.index(word)
    if word in {"两", "兩"}:
        return 2
    return None


def _arith(low: str, r: Result, today: date) -> Verdict | None:  # noqa: PLR0911
    """N units ago (§4: a point) and in N units (§4.2 mirror)."""
    m = AGO.match(low)
    if m:
        n = _count(m.group(1) or m.group(3) or "")
        unit = m.group(2) or {"天": "day", "周": "week", "年": "year"}.get(m.group(4), "month")
        if n is None:
            return None
        return spec("ago", f"at -{n} {unit}", "§4 N units ago: start=end=now−N units")
    m = AHEAD.match(low)
    if m:
        n = _count(m.group(1) or m.group(3) or m.group(6) or "")
        word = m.group(2) or m.group(4) or m.group(7)
        unit = {"天": "day", "周": "week", "年": "year"}.get(word, word)
        unit = "month" if unit in ("个月", "個月") else unit
        if n is None:
            return None
        return spec(
            "in_n", f"at +{n} {unit}", "§4.2 in N units: the mirror of N units ago (a point)"
        )
    if "fortnight" in low and ("later" in low or low.startswith("in")):
        return spec("in_n", "at +2 week", "§4.2 in N units with §4.1 fortnight = 2 weeks")
    if re.search(r"\b(from|after|before|since|later|ago)\b|之后|之前|以后|以前", low):
        return peer("date_arith", "an offset from a named day (no SPEC row; the peer's day)")
    return None


def _holiday(r: Result, low: str, whole: str, today: date) -> Verdict:
    if re.search(r"\b(next|last|previous|following|this)\b", low):
        return peer("holiday", "next/last/this + holiday: no SPEC row (the peer's occurrence)")
    if re.search(r"\b(before|after|from)\b", low):
        return peer("date_arith", "an offset from a holiday (no SPEC row; the peer's day)")
    if m := FULL_DATE.match(r.timex):
        one = make_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return _day_reading("holiday", one, "§4.2 holidays with a year: that day", low, whole)
    if m := BARE_MD.match(r.timex):
        one = bare_month_day(today, int(m.group(1)), int(m.group(2)))
        note = "§4.1/§4.2 bare holiday: this year's if started, else last year's"
        return _day_reading("holiday", one, note, low, whole)
    return peer("holiday", "a holiday form no SPEC row names")
