"""The entry of the Recognizers-Text classification: `classify(case, now, lang)`.

No result, several results, a step word alone, or one result dispatched on its type: `date`
(`rt_rules`), `daterange` (`rt_periods`), `datetimerange`, `datetime`, `time`, `timerange`,
`duration`, `set` (here).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from benchmarks.corpus.rt_calendar import bare_day, bare_month_day, weekday_in_week
from benchmarks.corpus.rt_periods import read_daterange, read_rolling
from benchmarks.corpus.rt_rules import (
    AMPM,
    INSTANT_EN,
    INSTANT_ZH,
    PART_OF_DAY,
    UNIT,
    Verdict,
    nothing,
    peer,
    read_date,
    spec,
)
from benchmarks.corpus.rt_source import Case, Result, Window


def _datetimerange(r: Result, low: str, now: datetime, lang: str) -> Verdict:  # noqa: PLR0911
    if PART_OF_DAY.search(r.timex):
        return nothing(
            "part_of_day", "§4.3 parts of a day (黎明/凌晨/傍晚, tonight) settle nothing"
        )
    if r.mod:
        return nothing("open_interval", "§4.2 before/after/around a time settles nothing")
    m = re.match(r"^\(([^,]+),([^,]+),PT(\d+)([HM])\)$", r.timex)
    stamp = now.strftime("%Y-%m-%dT%H:%M:%S")
    if m and stamp in (m.group(1), m.group(2)):
        n, unit = int(m.group(3)), {"H": "hour", "M": "minute"}[m.group(4)]
        rolled = read_rolling(low, lang, n, unit)
        if lang == "zh" and not re.match(r"^(最近|过去|過去|近|未来|未來|接下来|接下來)", low):
            rolled = None
        if rolled is not None:
            return Verdict(
                "rolling_hours", rolled.reading, rolled.basis, rolled.note + " (§4.1 hours)"
            )
        return peer("rolling_hours", "N hours/minutes from now, no SPEC row: finer than a day")
    if re.search(r"\bstarting\b|\bfor\b.*\bhours?\b|\bhours?\b.*\bfrom\b|\bfirst\b|\blast\b", low):
        return peer(
            "hour_range", "an hour range given by a duration or an nth weekday (no SPEC row)"
        )
    windows = [w for w in r.windows if w is not None]
    clock24 = len(re.findall(r"\d{1,2}[:：]\d{2}", low)) >= 2 and not AMPM.search(low)
    if clock24:  # 3:00 to 4:00, 5:00-6:00: a 24-hour clock, read as written
        earliest: dict[str, Window] = {}
        for w in sorted(windows):
            earliest.setdefault(w[0][:10], w)
        windows = list(earliest.values())
    days = {w[0][:10] for w in windows}
    if not (AMPM.search(low) or clock24) or len(windows) != len(days):
        return nothing("hour_range", "§4.2 bare clock numbers without am/pm are ambiguous")
    if len(windows) > 1:
        wd = re.match(r"^\(XXXX-WXX-(\d)T", r.timex)
        md = re.match(r"^\(XXXX-(\d{2})-(\d{2})T", r.timex)
        want = None
        if wd:
            want = weekday_in_week(now.date(), int(wd.group(1)))
            want = want if want <= now.date() else want - timedelta(days=7)
        elif md:
            want = bare_month_day(now.date(), int(md.group(1)), int(md.group(2)))
        elif dd := re.match(r"^\(XXXX-XX-(\d{2})T", r.timex):
            want = bare_day(now.date(), int(dd.group(1)))
        windows = [w for w in windows if want and w[0][:10] == want.isoformat()]
        if len(windows) != 1:
            return peer("hour_range", "an hour range on a day the SPEC's bare rule does not give")
    a, b = windows[0]
    if int(a[:4]) < 2000:
        return nothing("hour_range", "§4.3 a year before 2000 settles nothing")
    return spec("hour_range", f"span {a} {b}", "§4.2 hour ranges on a named day with am/pm or 24 h")


STEP_EN = {
    "day": r"daily|by day",
    "week": r"weekly|by week",
    "month": r"monthly|by month",
    "quarter": r"quarterly|by quarter",
    "year": r"yearly|annual|by year",
}
STEP_ZH = {
    "day": "按天|按日|每日|每天|逐日|各天|日趋势",
    "week": "按周|每周|逐周|各周|分周",
    "month": "按月|月度|每月|逐月|各月|分月|每个月",
    "quarter": "按季|按季度|每季度|逐季|各季度|分季度",
    "year": "按年|年度|每年|逐年|各年|分年",
}


def _step_word(text: str) -> str | None:
    """The unit of a §4 step word in the text (None: none)."""
    low = text.lower()
    for unit, words in STEP_EN.items():
        if re.search(rf"\b({words})\b", low):
            return unit
    for unit, words in STEP_ZH.items():
        if re.search(f"({words})(?![一二三四五六日天])", low):  # 每周一 is a recurrence, not a step
            return unit
    return None


def _step_only(case: Case) -> Verdict | None:
    """A step word (or a recurrence of one unit) with no period: the step alone, no window."""
    if any(r.type != "set" for r in case.results) or len(case.results) > 1:
        return None
    unit = _step_word(case.text)
    if unit is not None:
        return spec(
            "step_word",
            f"steponly {unit}",
            "§4 step words (daily/weekly/按月…): the step, no window",
        )
    if case.results and (m := re.fullmatch(r"P1([DWMY])|P(3)M", case.results[0].timex)):
        unit = "quarter" if m.group(2) else UNIT[m.group(1)]
        note = (
            "spec-silent: a one-unit recurrence read as its step word (the peer's unit), no window"
        )
        return Verdict("step_word", f"steponly {unit}", "peer", note)
    return None


def classify(case: Case, now: datetime, lang: str) -> Verdict:  # noqa: PLR0911
    """The SPEC's reading of one case (before the hand-read overrides)."""
    if (step := _step_only(case)) is not None:
        return step
    if not case.results:
        return nothing("no_time", "no time expression (the peer finds none; plain text)")
    if len(case.results) > 1:
        return nothing("multiple", "§4.1 two windows it cannot join / a time-like token left over")
    r = case.results[0]
    text, whole = r.text, case.text.lower()
    low = text.lower().strip()
    if r.type == "date":
        return read_date(r, text, whole, now.date(), lang)
    if r.type == "daterange":
        return read_daterange(r, text, whole, now, lang)
    if r.type == "datetimerange":
        return _datetimerange(r, low, now, lang)
    if r.type == "datetime":
        if r.timex == "PRESENT_REF" and (low in INSTANT_EN or low in INSTANT_ZH):
            return spec("instant", "now", "§4 row 1: now/现在 are instant words")
        if "ago" in low or "前" in low or "later" in low or "后" in low or low.startswith("in "):
            return nothing("sub_day_point", "§4.3 sub-day points (2 hours ago, 3小时后)")
        return nothing("time_of_day", "§4.3 a time of day is a sub-day point")
    if r.type in ("time", "timerange"):
        if PART_OF_DAY.search(r.timex) or r.timex in ("TMO", "TAF", "TEV", "TNI"):
            return nothing("part_of_day", "§4.3 parts of a day settle nothing")
        return nothing("time_of_day", "§4.2 a time or hour range with no named day")
    if r.type == "duration":
        return nothing(
            "duration", "a duration alone names no window (§4.3 within N without direction)"
        )
    if r.type == "set":
        return Verdict(
            "set", "none", "peer", "spec-silent: a recurrence; the peer gives no window either"
        )
    return peer("other", f"result type {r.type}")
