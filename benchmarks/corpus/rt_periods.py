"""What the SPEC reads in a Recognizers-Text case whose single result is a `daterange`:
years, months, weeks, weekends, quarters and halves, rolling windows, named ranges, since,
parts of a period (`read_daterange`; the entry is `rt_classify.classify`)."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from benchmarks.corpus.rt_calendar import (
    bare_day,
    bare_month,
    bare_month_day,
    bare_quarter,
    make_date,
    month_end,
    shift_month,
)
from benchmarks.corpus.rt_rules import (
    BARE_DOM,
    BARE_MD,
    BARE_MONTH,
    EN_ROLL_NEXT,
    EN_ROLL_PAST,
    MONTH,
    OPEN_MODS,
    RANGE,
    UNIT,
    WEEK,
    WEEKEND,
    YEAR,
    ZH_ROLL_NEXT,
    ZH_ROLL_PAST,
    Verdict,
    nothing,
    peer,
    spec,
)
from benchmarks.corpus.rt_source import Result

THIS = re.compile(
    r"^(this|current|the current)\s+(calendar\s+)?(week|month|quarter|year)$"
    r"|^(本|今|这个|這個|这|這)(周|週|星期|月|个月|季度|季|年)$"
)
LAST_NEXT = re.compile(
    r"^(last|previous|next|following|the following|the next|the previous|the last|"
    r"the week after next|the following|coming|the coming)\b"
    r"|^(上上|下下|上|下|去|前|明|后|後)(个|個)?(周|週|星期|月|季度|季|年)$"
)
REST = re.compile(
    r"^(later (this|in the) (week|month|year)|rest of the (week|month|year)"
    r"|remaining of the (week|month|year))$"
)
EARLIER = re.compile(r"^earlier (this|in the) (week|month|year)$")
THE_UNIT = re.compile(r"^(the|this) (day|week|month|year|fortnight)$")
DECADE = re.compile(
    r"年代|世纪|世紀|century|decade|\d0\s*'?s\b|tens\b|thousands\b|noughties|ties\b"
)
ZH_UNIT = {"周": "week", "週": "week", "星期": "week", "月": "month", "个月": "month"}
ZH_UNIT |= {"季度": "quarter", "季": "quarter", "年": "year"}


def _unit_word(low: str) -> str | None:
    for unit in ("week", "month", "quarter", "year"):
        if unit in low:
            return unit
    for word, unit in ZH_UNIT.items():
        if low.endswith(word):
            return unit
    return None


def _year(r: Result, low: str, y: int) -> Verdict:
    if y < 2000:
        return nothing("year", "§4.3 a year before 2000 settles nothing")
    if THIS.match(low) or low in ("year to date", "ytd"):
        return spec("this_period", "todate year", "§4 今年/this year; §4.2 YTD: start .. now")
    if REST.match(low):
        return spec("rest_of_period", "rest year", "§4.2 later this year / rest of the year")
    if EARLIER.match(low) or THE_UNIT.match(low):
        return peer("vague_period", "'the year' / 'earlier this year' (the peer's window)")
    if LAST_NEXT.match(low):
        return spec("relative_period", f"year {y}", "§4 去年/last year, §4.2 明年/next year")
    return spec("year", f"year {y}", "§4 2024年: that whole year")


def _month(low: str, y: int, m: int, today: date) -> Verdict:  # noqa: PLR0911
    if y < 2000:
        return nothing("month", "§4.3 a year before 2000 settles nothing")
    if THIS.match(low):
        return spec("this_period", "todate month", "§4 本月/this month: start .. now")
    if REST.match(low):
        return spec("rest_of_period", "rest month", "§4.2 later this month / 本月剩余")
    if EARLIER.match(low) or THE_UNIT.match(low):
        return peer("vague_period", "'the month' / 'earlier this month' (the peer's window)")
    month_name = (
        r"^(last|next|this|coming|previous)\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
    )
    named = re.match(month_name, low)
    if named and named.group(1) in ("last", "previous"):
        year = today.year - (m >= today.month)  # the most recent such month before this one
        note = "§4.1 'last March' as in since last March: the most recent before the current month"
        return spec("month", f"month {year}-{m:02d}", note)
    if named and named.group(1) == "next":
        year = today.year + (m <= today.month)  # the mirror: the first such month after this one
        return spec("month", f"month {year}-{m:02d}", "§4.2 next March: the mirror of last March")
    if named:
        return peer("month", "this/coming + a month name: no SPEC row (the peer's month)")
    if LAST_NEXT.match(low):
        return spec(
            "relative_period", f"month {y}-{m:02d}", "§4 上个月/last month, §4.2 next month"
        )
    if re.match(r"^this\s+\w+$", low):
        return peer("month", "'this <month name>': no SPEC row (the peer's month)")
    return spec("month", f"month {y}-{m:02d}", "§4 2024年3月 / bare 3月 (this year's if started)")


def _week(low: str, y: int, w: int, today: date) -> Verdict:  # noqa: PLR0911
    monday = date.fromisocalendar(y, w, 1)
    if THIS.match(low):
        return spec("this_period", "todate week", "§4 本周/this week: start .. now")
    if REST.match(low):
        return spec("rest_of_period", "rest week", "§4.2 later this week / rest of the week")
    if EARLIER.match(low) or THE_UNIT.match(low) or "work" in low:
        return peer("vague_period", "'the week' / working week (the peer's window)")
    if re.search(
        r"\bweek\s+\d+|第.+周|第.+週|\b(first|second|third|fourth|\d+(st|nd|rd|th)) week of \d{4}",
        low,
    ):
        note = "§4.2 weeks: week 27, 第10周 (ISO week)"
        if not re.search(r"\d{4}|year|年", low):  # no year named: the bare rule of §4
            year = today.isocalendar().year
            if date.fromisocalendar(year, w, 1) > today:
                year -= 1
            monday = date.fromisocalendar(year, w, 1)
            note += "; no year named: this year's if started, else last year's"
        return spec("iso_week", f"week {monday}", note)
    if m := re.search(r"last week of (\d{4})", low):
        last = date(int(m.group(1)), 12, 31)
        note = "§4.3 the last week of a named period: the ISO week holding its last day"
        return spec("last_week_of", f"week {last}", note)
    if LAST_NEXT.match(low) or "after next" in low:
        return spec(
            "relative_period", f"week {monday}", "§4 上周/last week, §4.2 下周/下下周/next week"
        )
    return peer("week", "a week form no SPEC row names")


def _weekend(low: str, y: int, w: int) -> Verdict:
    sat = date.fromisocalendar(y, w, 6)
    note = "§4.3 周末/weekend: Saturday .. Sunday of the week named"
    if re.search(r"of |节|節|day|halloween|thanksgiving", low):
        return peer("weekend", "the weekend of a holiday (the peer's weekend)")
    return spec("weekend", f"days {sat} {sat + timedelta(days=1)}", note)


ROLL_PHRASE = re.compile(
    r"\b(last|past|previous|next|upcoming|coming|following|within)\s+(the\s+)?"
    r"(\d+|[a-z]+|a couple of|couple of)"
    r"\s+(day|week|month|quarter|year|hour|minute)s\b|\b(\d+|[a-z]+)\s+(past|previous|next|upcoming|coming|last)"
    r"\s+(day|week|month|quarter|year|hour|minute)s\b|\bnext\s+couple\s+(of\s+)?weeks\b"
    r"|^(最近|过去|過去|近|前|上|未来|未來|接下来|接下來|后|後|今后)(\d+|[一二两兩三四五六七八九十]+)(个|個)?(天|周|週|星期|月|季度|年|小时|小時|分钟)"
)


def read_rolling(low: str, lang: str, n: int, unit: str) -> Verdict | None:  # noqa: PLR0911
    if re.search(r"\b(few|several|some)\b|几|若干", low):
        return nothing("vague", "§4.1 几/若干 · a few, several: a vague count settles nothing")
    if lang == "en":
        past, ahead = EN_ROLL_PAST.search(low), EN_ROLL_NEXT.search(low)
        if low.startswith("within") and not (past or ahead):
            return nothing("within", "§4.3 within N days without a direction word")
    else:
        past, ahead = ZH_ROLL_PAST.search(low), ZH_ROLL_NEXT.search(low)
        if re.search(r"内|內", low) and not (past or ahead):
            return nothing("within", "§4.3 N天内 without a direction word")
    if "business" in low or "工作日" in low:
        return peer("business_days", "business days (no SPEC row)")
    if past and not ahead:
        return spec(
            "rolling", f"roll -{n} {unit}", "§4 last/past N units, 最近/过去 N: now−N .. now"
        )
    if ahead and not past:
        return spec("rolling", f"roll +{n} {unit}", "§4.2 next N units, 未来N天: now .. now+N")
    return None


def _quarter_or_half(low: str, a: date, n: int, today: date, bare: bool) -> Verdict | None:
    if n == 3 and a.month in (1, 4, 7, 10) and re.search(r"quarter|\bq[1-4]\b|季", low):
        q = (a.month - 1) // 3 + 1
        y = bare_quarter(today, q) if bare else a.year
        if THIS.match(low):
            return spec("this_period", "todate quarter", "§4 本季度/this quarter: start .. now")
        if bare and "year" in low:
            return peer("quarter", "'the first quarter of the year' (the peer's quarter)")
        return spec(
            "quarter", f"quarter {y}-Q{q}", "§4 2024年第一季度/2024Q1; §4.1 last/next quarter"
        )
    if n == 6 and a.month in (1, 7) and not bare and re.search(r"half|h[12]\b|半年", low):
        if "个半年" in low or "個半年" in low:
            return peer("half_year", "上个半年 (the peer's half)")
        last = month_end(a.year, a.month + 5)
        return spec("half_year", f"months {a:%Y-%m} {last:%Y-%m}", "§4.2 上半年/下半年/H1/H2")
    return None


def _peer_range(note: str) -> Verdict:
    """The peer's years, with the SPEC's inclusive end(Y) of a named range."""
    return Verdict("range", "peer-inclusive", "peer", f"spec-silent: {note}; end(Y) inclusive (§4)")


def _since_unit(low: str, unit: str) -> str:
    """The unit of X in `X to date`: a day if X names a day, a month if a month, else a year."""
    head = re.split(r"\b(to|till|and|until)\b|至今", low)[0]
    if re.search(r"\d{4}-\d{2}-\d{2}", head):
        return "day"
    bare = re.sub(r"\d{4}", "", head)
    if re.search(r"\b\d{1,2}(st|nd|rd|th)?\b", bare):
        return "day"
    if re.search(r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec", head):
        return "month"
    return "year" if re.search(r"\d{4}", head) else unit


def _explicit_range(r: Result, low: str, today: date, now: datetime) -> Verdict:  # noqa: PLR0911
    m = RANGE.match(r.timex)
    assert m is not None
    first, second, unit = m.group(1), m.group(2), UNIT[m.group(4)]
    if DECADE.search(low):
        return peer("decade", "decades and centuries (no SPEC row)")
    if re.search(r"\b(end|start|beginning|middle) of\b", low):
        return peer("range", "a range to the end/middle of a period (no SPEC row)")
    if re.search(r"\b(this|next|last)\s+(\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", low):
        return _peer_range("a range with this/next/last + a date (no SPEC row)")
    if re.search(
        r"\bbetween now\b|\bfrom now\b|\bstarting\b|\bfirst\b.*\bof\b"
        r"|的前\d|的前[一二三四五六七八九十]",
        low,
    ):
        return peer("range", "a range from now to a date (no SPEC row)")
    if re.search(r"\b(to date|till date|and now|until now|current date)\b|至今", low):
        start = r.windows[0][0][:10] if r.windows and r.windows[0] else first
        return spec(
            "since",
            f"since {start} {_since_unit(low, unit)}",
            "§4 X至今 / since X; §4.2 between X and now: start(X) .. now",
        )
    if re.search(r"\b(and|to|till|until) today\b|到今天|至今天", low):
        start = r.windows[0][0][:10] if r.windows and r.windows[0] else first
        note = "§4 X至今: today is an instant word (§4 row 1), so X to today runs to now"
        return spec("since", f"since {start} {_since_unit(low, unit)}", note)
    if re.search(r"\b(today|tomorrow|yesterday)\b|今天|明天|昨天", low) and second[:4].isdigit():
        start = r.windows[0][0][:10] if r.windows and r.windows[0] else first
        note = "§4 from X to Y: start(X) .. end(Y) with Y tomorrow/yesterday, step day"
        return spec("day_range", f"days {start} {second}", note)
    years = re.findall(r"(?<!\d)\d{4}(?!\d)|[零〇一二三四五六七八九]{4}年|\d{2}年", low)
    if first[:4].isdigit() and second[:4].isdigit() and first[:4] != second[:4] and len(years) < 2:
        return _peer_range("a range whose start takes its year from the end (no SPEC row)")
    if unit == "week" or "W" in first or "#" in first:
        return peer("range", "a range of weeks or nth weekdays (no SPEC row)")
    bare = first.startswith("XXXX")
    if not (bare or first[:4].isdigit()) or not (second.startswith("XXXX") or second[:4].isdigit()):
        return peer("range", "a range with a partial year (no SPEC row)")
    try:
        a_m, a_d = int(first[5:7]), int(first[8:10])
        b_m, b_d = int(second[5:7]), int(second[8:10])
    except ValueError:
        return peer("range", "a range form no SPEC row names")
    if bare and not second.startswith("XXXX"):
        return peer("range", "a bare start and a dated end (no SPEC row)")
    if bare:
        one = bare_month_day(today, a_m, a_d) if unit == "day" else None
        if unit == "day" and one is None:
            return nothing("range", "§4.3 a date that does not exist settles nothing")
        y = one.year if one else bare_month(today, a_m)
    else:
        y = int(first[:4])
    if second.startswith("XXXX") and (b_m, b_d) < (a_m, a_d):
        return _peer_range("a range whose end inherits a year and wraps it (no SPEC row)")
    b_year = y if second.startswith("XXXX") else int(second[:4])
    a, b = make_date(y, a_m, a_d), make_date(b_year, b_m, b_d)
    if a is None or b is None:
        return nothing("range", "§4.3 a date that does not exist settles nothing")
    if a.year < 2000:
        return nothing("range", "§4.3 a year before 2000 settles nothing")
    note = "§4 from X to Y / X-Y / between X and Y: start(X) .. end(Y), step the finest unit"
    if re.search(r"quarter|\bq[1-4]\b|季度", low) and unit == "month":
        qy, qm = shift_month(b.year, b.month, 2)
        last = month_end(qy, qm)
        return spec("quarter_range", f"window {a} {last} quarter", note)
    if unit == "day":
        return spec("day_range", f"days {a} {b}", note)
    if unit == "month":
        return spec("month_range", f"months {a:%Y-%m} {b:%Y-%m}", note)
    return spec("year_range", f"years {a.year} {b.year}", note)


def read_daterange(r: Result, text: str, whole: str, now: datetime, lang: str) -> Verdict:  # noqa: PLR0911
    low, today = text.lower().strip(), now.date()
    if lang == "zh":
        low = low.replace(" ", "")
    if m := re.match(r"^(the )?past (week|month|quarter|year)$", low):
        return spec(
            "rolling", f"roll -1 {m.group(2)}", "§4 past N units with N = 1: now−1 unit .. now"
        )
    if r.mod == "approx":
        return nothing("approximate", "§4.2 around/about X settles nothing")
    if r.mod in OPEN_MODS or (r.mod and r.mod.startswith(("before", "after", "until"))):
        return nothing("open_interval", "§4.2 before/after/until X, X以前/以后 settle nothing")
    if r.mod == "since":
        return _since(r, low, whole, today, lang)
    if r.mod in ("start", "mid", "end"):
        return _part(r, low, today)
    if not r.windows or r.windows[0] is None:
        return peer("season", "a period the peer leaves unresolved (seasons): no window")
    t = r.timex
    if m := YEAR.match(t):
        return _year(r, low, int(m.group(1)))
    if m := MONTH.match(t):
        return _month(low, int(m.group(1)), int(m.group(2)), today)
    if m := BARE_MONTH.match(t):
        mm = int(m.group(1))
        return _month(low, bare_month(today, mm), mm, today)
    if m := WEEK.match(t):
        return _week(low, int(m.group(1)), int(m.group(2)), today)
    if m := WEEKEND.match(t):
        return _weekend(low, int(m.group(1)), int(m.group(2)))
    if m := re.match(r"^(XXXX|\d{4})-(\d{2})-W(\d{2})$", t):
        mm = int(m.group(2))
        if re.search(r"\blast week of\b|最后一周|最後一週", low):
            y = bare_month(today, mm) if m.group(1) == "XXXX" else int(m.group(1))
            last = month_end(y, mm)
            return spec(
                "last_week_of",
                f"week {last}",
                "§4.3 the last week of July: the week holding its last day",
            )
        return peer("nth_week", "the Nth week of a month (no SPEC row)")
    week_of = re.search(r"week of|w/c|week (beginning|starting|commencing)", low)
    if (m := BARE_DOM.match(t)) and week_of:
        one = bare_day(today, int(m.group(1)))
        if one is None:
            return nothing("week_of", "§4.3 a date that does not exist settles nothing")
        return spec("week_of", f"week {one}", "§4.2 the week of the 18th: that ISO week (bare day)")
    if (m := BARE_MD.match(t)) and week_of:
        one = bare_month_day(today, int(m.group(1)), int(m.group(2)))
        if one is None:
            return nothing("week_of", "§4.3 a date that does not exist settles nothing")
        return spec("week_of", f"week {one}", "§4.2 the week of March 3: that ISO week")
    rest = re.search(r"\b(rest|remaining|remainder)\b.*\b(week|month|year)\b", low)
    if rest and RANGE.match(t):
        note = "§4.2 rest of the week/month/year: now .. end of the period"
        return spec("rest_of_period", f"rest {rest.group(2)}", note)
    if m := RANGE.match(t):
        n, unit = int(m.group(3)), UNIT.get(m.group(4), "day")
        start = r.windows[0][0][:10]
        a = date.fromisoformat(start)
        if m.group(1).startswith("XXXX") or m.group(1)[:4].isdigit():
            qh = _quarter_or_half(low, a, n, today, m.group(1).startswith("XXXX"))
            if qh is not None:
                return qh
        if re.search(r"半周|半週", low):
            return peer("half_week", "上半周/下半周 (no SPEC row)")
        if re.search(r"半月", low):
            if "上半月" in low:
                return spec("half_month", f"days {a} {a.replace(day=15)}", "§4.2 上半月: days 1–15")
            return peer("half_month", "a half month form no SPEC row names")
        ends = {r.windows[0][0][:10], r.windows[0][1][:10]}
        near = {today.isoformat(), (today + timedelta(days=1)).isoformat()}
        if "quarter" in low and unit == "month" and n % 3 == 0:
            n, unit = n // 3, "quarter"
        if (
            ROLL_PHRASE.search(low)
            or m.group(4) == "BD"
            or (ends & near and re.search(r"内|內|within", low))
        ):
            rolled = read_rolling(low, lang, n, unit)
            if rolled is not None:
                return rolled
        return _explicit_range(r, low, today, now)
    return peer("period_other", "a period form no SPEC row names")


def _since(r: Result, low: str, whole: str, today: date, lang: str) -> Verdict:
    if re.search(
        r"or later|and later|and after|greater|or after|及以后|及之后|或之后|以后|之后|[>≥]", low
    ):
        return nothing("open_interval", "§4.2 2018 or later, >= 2019: settles nothing")
    start = r.values[0].split("..")[0] if r.values else ""
    if not start or len(start) != 10:
        return peer("since", "since a point the peer gives no date for")
    first = date.fromisoformat(start)
    if first > today:
        return nothing("since", "since X where X has not started: no window")
    if first.year < 2000:
        return nothing("since", "§4.3 a year before 2000 settles nothing")
    unit = "day"
    if YEAR.match(r.timex):
        unit = "year"
    elif MONTH.match(r.timex) or BARE_MONTH.match(r.timex):
        unit = "month"
    reading = f"since {first} {unit}"
    if re.search(r"\bsince\b", low) or re.search(r"^自.*以来$|以来$|至今$", low):
        return spec("since", reading, "§4 自X以来 / since X: start(X) .. now, step the unit of X")
    return Verdict("since", reading, "peer", "spec-silent: 从X起/X开始/自从X read as since X")


def _part(r: Result, low: str, today: date) -> Verdict:
    t = r.timex
    m = MONTH.match(t) or BARE_MONTH.match(t)
    if m and re.search(r"\b(early|mid|late)\b|上旬|中旬|下旬", low):
        if MONTH.match(t):
            y, mm = int(m.group(1)), int(m.group(2))
        else:
            mm = int(m.group(1))
            y = bare_month(today, mm)
        if y < 2000:
            return nothing("part_of_period", "§4.3 a year before 2000 settles nothing")
        part = {"start": 1, "mid": 2, "end": 3}[r.mod]
        first = date(y, mm, 1 + 10 * (part - 1))
        last = date(y, mm, 10 * part) if part < 3 else month_end(y, mm)
        return spec(
            "part_of_period", f"days {first} {last}", "§4.2 early/mid/late March = 上旬/中旬/下旬"
        )
    if r.mod == "mid":
        return peer("part_of_period", "the middle of a period (no SPEC row)")
    return nothing("part_of_period", "§4.2 end/beginning of a period alone settles nothing")
