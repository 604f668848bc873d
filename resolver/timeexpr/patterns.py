"""The regular expressions of the scanner, compiled once at import.

`ALTERNATIVES` lists every time atom the scanner knows, as (name, builder family, pattern,
starts). Order matters where two atoms can start at the same character: the first that
matches wins, so longer forms come first (`2024年3月` before `2024年`, `3个月前` before `3月`,
`当前季度` before `当前`).

Speed: one alternation of every atom would be tried at every character (`re` finds no common
prefix to skip by). Instead `TRIGGER` finds the characters where an atom can start, and the
scanner for that character holds only the atoms whose `starts` name it: "0" a digit, "中" a
Chinese character of `_ZH_STARTS`, another Chinese character only atoms starting with that
very character, a letter an English word starting with it. Each scanner is
an alternation with one named group per atom, in table order, so the first atom to match at a
position is the same as with the full alternation; the atom's own pattern then reads its
inner groups.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from resolver.timeexpr.festivals import NAMES as FESTIVAL_NAMES
from resolver.timeexpr.lexicon import (
    DASH,
    EN_CLOCK_UNIT,
    EN_COUNT,
    EN_MONTH,
    EN_UNIT,
    EN_WEEKDAY,
    ORDINAL,
    YEAR2,
    YEAR4,
    ZH_CLOCK_UNIT,
    ZH_COUNT,
    ZH_DAY,
    ZH_MONTH,
    ZH_QUARTER,
    ZH_UNIT,
    ZH_YEAR_DIGITS,
)

# A year in front of a month, quarter, week, half or date: digits, Chinese digits or relative.
_YZ = (
    rf"(?P<y>(?<![0-9]){YEAR4}|(?<![0-9]){YEAR2}|{ZH_YEAR_DIGITS}|大前年|今年|去年|前年|本年|明年)"
    r"\s*年?\s*"
)
# An English year after a month, quarter or half: digits or this/last year.
_YE = rf"(?P<y>{YEAR4}\b|this\s+year\b|last\s+year\b)"
_ZH_WEEK_NO = r"[0-9]{1,2}|[一二三四五六七八九十]{1,3}"
# Chinese periods, written after a year (2024年3月) or alone (3月, the year left open).
_MD_SPAN = (
    rf"(?P<m>{ZH_MONTH})\s*月\s*(?P<d>{ZH_DAY})\s*[日号]?\s*{DASH}\s*(?P<d2>{ZH_DAY})\s*[日号]"
)
_MD = rf"(?P<m>{ZH_MONTH})\s*月\s*(?P<d>{ZH_DAY})\s*[日号]"
_M_SPAN = rf"(?P<m>{ZH_MONTH})\s*(?:月份?\s*)?{DASH}\s*(?P<m2>{ZH_MONTH})\s*月份?"
_M = rf"(?P<m>{ZH_MONTH})\s*月份?"
_Q_SPAN = (
    rf"(?:第\s*)?(?P<q>{ZH_QUARTER})\s*(?:季度?\s*)?{DASH}\s*(?:第\s*)?(?P<q2>{ZH_QUARTER})\s*季度?"
)
_W = rf"第\s*(?P<w>{_ZH_WEEK_NO})\s*(?:周|个?星期)"
_H = r"(?P<h>上|下)半年度?"
_NO_DIGIT_BEFORE = r"(?<![0-9])"
# English periods, followed by a year (March 15, 2025) or not (March 15, the year left open).
_EN_MD = rf"\b(?P<m>{EN_MONTH})\.?\s+(?P<d>[0-9]{{1,2}})(?:st|nd|rd|th)?"
_EN_DM = rf"\b(?P<d>[0-9]{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m>{EN_MONTH})"
_EN_Q = r"\bq(?P<q>[1-4])"
_EN_OQ = rf"\b(?:the\s+)?(?P<q>{ORDINAL})\s+quarter"
_EN_W = r"\bweek\s+(?P<w>[0-9]{1,2})"
_EN_H = r"\b(?:the\s+)?(?P<h>first|second)\s+half"
_ZH_WEEKDAY = r"(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])(?!均)"  # 周日均: a daily average
_ZH_HOLIDAY = r"放假期间|小长假|黄金周|长假|假期|假日|期间"
_EN_HOLIDAY = r"golden\s+week|holidays?|break|vacation|period"


def _alternation(names: list[str]) -> str:
    """Literal names as one alternation, longest first (双十一 before 十一)."""
    return "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))


_ZH_FESTIVALS = (
    _alternation([n for n in FESTIVAL_NAMES if not n.isascii() and n != "十一"])
    + r"|(?<![0-9.])618(?![0-9])"
)
_EN_FESTIVALS = _alternation([n for n in FESTIVAL_NAMES if n.isascii() and n != "618"]).replace(
    r"\ ", r"\s+"
)
_NOT_YEAR = (
    r"[0-9%]|[.,][0-9]|\s*[名个人元万亿件家条次笔台吨多余]"
    r"|\s+(?:customers|users|orders|items|units|people|employees|companies|records|rows)\b"
)

ALTERNATIVES: tuple[tuple[str, str, str, str], ...] = (
    # -- Chinese, with a year ---------------------------------------------------------------
    ("zh_ymd_span", "md", _YZ + _MD_SPAN, "0中"),
    ("zh_ymd", "md", _YZ + _MD, "0中"),
    ("zh_ym_span", "m", _YZ + _M_SPAN, "0中"),
    ("zh_ym", "m", _YZ + _M, "0中"),
    ("zh_yq_span", "q", _YZ + _Q_SPAN, "0中"),
    ("zh_yq", "q", rf"{_YZ}(?:第\s*)?(?P<q>{ZH_QUARTER})\s*季度?", "0中"),
    ("yq_latin", "q", rf"{_YZ}[-_/]?\s*q(?P<q>[1-4])(?![0-9])", "0中"),
    ("zh_yw", "w", _YZ + _W, "0中"),
    ("iso_week", "w", rf"(?<![0-9])(?P<y>{YEAR4})-?w(?P<w>[0-9]{{1,2}})(?![0-9])", "0"),
    ("zh_yh", "h", _YZ + _H, "0中"),
    (
        "zh_year",
        "year",
        rf"(?<![0-9])(?P<y>{YEAR4}|{YEAR2}|{ZH_YEAR_DIGITS})\s*(?:年度?|全年)",
        "0中",
    ),
    # -- Chinese, relative to now ----------------------------------------------------------
    # 上周五, 本周一, 周三, 星期天: a day of a week (before 上周 and 本周 claim the week).
    ("zh_weekday", "weekday", rf"(?P<k>上上|上|本|这)?\s*个?\s*{_ZH_WEEKDAY}", "中周星礼"),
    ("zh_dekad", "dekad", r"(?P<x>上|中|下)旬", "中"),
    (
        "zh_clock_rolling",
        "clock_rolling",
        (
            rf"(?:最近|近|过去)的?这?\s*(?P<n>{ZH_COUNT}|半)\s*个?\s*(?P<u>{ZH_CLOCK_UNIT})"
            r"(?:以来|之内|以内|内)?"
        ),
        "中",
    ),
    (
        "zh_clock_ago",
        "clock_ago",
        rf"(?<![0-9])(?P<n>{ZH_COUNT}|半)\s*个?\s*(?P<u>{ZH_CLOCK_UNIT})\s*(?:之前|以前|前)",
        "0中",
    ),
    # 前三季度, 前两个月, 前10天: the first N units of a year (or month); without one, see atoms.
    (
        "zh_first_n",
        "first_n",
        rf"前\s*(?P<n>{ZH_COUNT})\s*(?P<u>个?季度|个?季|个?月份?|天|日|个?星期|周|个?礼拜)",
        "中",
    ),
    # 今天之前7天: the same as 最近7天 (SPEC §4.1).
    (
        "zh_before_now",
        "rolling",
        rf"(?:今天|今日|当前|现在|目前|此前)?之前\s*(?P<n>{ZH_COUNT})\s*(?P<u>{ZH_UNIT})",
        "中之",
    ),
    # 最新一个月, 最新3个月, 最新季度: a window, not the instant word 最新.
    (
        "zh_latest",
        "rolling",
        rf"最新的?\s*(?P<n>{ZH_COUNT})?\s*(?P<u>个?月份?|个?季度|个?季|年度?|个?星期|周)",
        "中",
    ),
    (
        "zh_same",
        "same",
        r"(?:去年|上年|上一年)\s*的?\s*同(?P<u>月|季度|季)份?",
        "中",
    ),
    (
        "zh_festival",
        "festival",
        rf"(?P<f>{_ZH_FESTIVALS}|十一(?=\s*(?:{_ZH_HOLIDAY})))(?P<hol>\s*(?:{_ZH_HOLIDAY}))?",
        "0中",
    ),
    ("zh_fortnight", "fortnight", r"(?:最近|近|过去)的?这?\s*双周", "中"),
    (
        "zh_rolling",
        "rolling",
        rf"(?:最近|近|过去)的?这?\s*(?P<n>{ZH_COUNT}|半)\s*(?P<u>{ZH_UNIT})(?P<half>半)?(?:以来|之内|以内|内)?",
        "中",
    ),
    (
        "zh_ago",
        "ago",
        # 3月前 is "before March" as often as "3 months ago": only 3个月前 is read.
        rf"(?<![0-9])(?P<n>{ZH_COUNT}|半)\s*(?P<u>(?!月){ZH_UNIT})(?P<half>半)?\s*(?:之前|以前|前)",
        "0中",
    ),
    (
        "zh_prev",
        "prev",
        r"(?<![以之向])(?P<k>上上|上)\s*(?:一个|一|个)?\s*(?P<u>周|星期|礼拜|月份?|季度|季|年度|年)",
        "中",
    ),
    ("zh_prev_word", "prev_word", r"大前天|前天|前日|昨天|昨日|大前年|前年|去年度|去年", "中"),
    # The start of the current period: only the start of a since or a range (年初至今).
    (
        "zh_anchor",
        "anchor",
        (
            r"(?:今年|本年|今|本)?年初|(?:本月|这个月|本|这个)?月初|(?:本季度|这个季度|本)?季初"
            r"|(?:本周|这周|本|这)?周初"
        ),
        "中年月季周",
    ),
    (
        "zh_this",
        "this",
        r"(?:本|这一|这个|这|当前|目前)\s*个?(?P<u>周|星期|礼拜|月份|月|季度|季|年度|年)",
        "中",
    ),
    ("zh_this_word", "this_word", r"今年度?|当月|当季度?|当周", "中"),
    # -- Chinese, the year left open ---------------------------------------------------------
    ("zh_md_span", "md", _NO_DIGIT_BEFORE + _MD_SPAN, "0中"),
    ("zh_md", "md", _NO_DIGIT_BEFORE + _MD, "0中"),
    ("zh_m_span", "m", _NO_DIGIT_BEFORE + _M_SPAN, "0中"),
    ("zh_m", "m", _NO_DIGIT_BEFORE + _M, "0中"),
    ("zh_q_span", "q", _NO_DIGIT_BEFORE + _Q_SPAN, "0中"),
    ("zh_q", "q", rf"第\s*(?P<q>{ZH_QUARTER})\s*季度?", "中"),
    ("zh_q_bare", "q", rf"(?<![0-9])(?P<q>{ZH_QUARTER})\s*季度", "0中"),
    ("zh_w", "w", _W, "中"),
    ("zh_h", "h", _H, "中"),
    ("zh_dom", "dom", rf"(?<![0-9])(?P<d>{ZH_DAY})\s*[日号]", "0中"),
    (
        "zh_now",
        "now",
        r"截[至止]到?(?:目前|现在|今天|今日|当前)|当前|现在|目前|今天|今日|实时|最新|此刻|当下|眼下|如今",
        "中",
    ),
    # -- English and numeric, with a year ------------------------------------------------------
    ("en_mdy", "md", rf"{_EN_MD}\s*,?\s*(?P<y>{YEAR4})\b", "adfjmnos"),
    ("en_dmy", "md", rf"{_EN_DM}\.?\s*,?\s*(?P<y>{YEAR4})\b", "0"),
    (
        "iso_date",
        "md",
        rf"(?<![0-9])(?P<y>{YEAR4})(?P<s>[-/.])(?P<m>[0-9]{{1,2}})(?P=s)(?P<d>[0-9]{{1,2}})(?![0-9])",
        "0",
    ),
    ("iso_month", "m", rf"(?<![0-9])(?P<y>{YEAR4})[-/.](?P<m>[0-9]{{1,2}})(?![0-9])", "0"),
    ("en_my", "m", rf"\b(?P<m>{EN_MONTH})\.?\s*,?\s*(?:of\s+)?{_YE}", "adfjmnos"),
    ("en_qy", "q", rf"{_EN_Q}\s*[-/,']?\s*(?:of\s+)?{_YE}", "q"),
    ("en_oqy", "q", rf"{_EN_OQ}\s+(?:of\s+)?{_YE}", "0fst"),
    ("en_wy", "w", rf"{_EN_W}\s*(?:of\s+|,\s*)?(?P<y>{YEAR4})\b", "w"),
    ("en_hy", "h", rf"{_EN_H}\s+(?:of\s+)?{_YE}", "fst"),
    ("en_h_y", "h", rf"\b(?P<h>h[12])\s*[- ]?\s*(?P<y>{YEAR4})\b", "h"),
    ("en_y_h", "h", rf"(?<![0-9])(?P<y>{YEAR4})\s*[- ]?(?P<h>h[12])\b", "0"),
    # -- English, relative to now ------------------------------------------------------------
    ("en_weekday", "weekday", rf"\b(?:(?P<k>this|last)\s+)?(?P<wd>{EN_WEEKDAY})\b", "flmstw"),
    (
        "en_clock_rolling",
        "clock_rolling",
        (
            r"\b(?:last|past|previous|prior|recent|most\s+recent|latest|trailing)\s+"
            rf"(?:(?P<n>{EN_COUNT}|half(?:\s+an?)?)\s+)?(?P<u>{EN_CLOCK_UNIT})\b"
        ),
        "lmprt",
    ),
    (
        "en_clock_ago",
        "clock_ago",
        rf"\b(?P<n>{EN_COUNT}|half\s+an?)\s+(?P<u>{EN_CLOCK_UNIT})\s+ago\b",
        "0aefhnost",
    ),
    (
        "en_first_n",
        "first_n",
        rf"\b(?:the\s+)?first\s+(?P<n>{EN_COUNT})\s+(?P<u>quarters|months|days)\b",
        "ft",
    ),
    ("en_fortnight", "fortnight", r"\b(?:the\s+)?(?:last|past|previous)\s+fortnight\b", "lpt"),
    ("en_last_month_name", "month_name", rf"\b(?P<k>last|this)\s+(?P<m>{EN_MONTH})\b", "lt"),
    (
        "en_same",
        "same",
        (
            r"\b(?:the\s+)?same\s+(?P<u>month|quarter)\s+(?:of\s+|in\s+)?"
            r"(?:last|the\s+previous|the\s+prior)\s+year\b"
        ),
        "st",
    ),
    (
        "en_festival",
        "festival",
        rf"\b(?P<f>{_EN_FESTIVALS})(?P<hol>\s+(?:{_EN_HOLIDAY}))?(?![a-z])",
        "cdlmnqs",
    ),
    (
        "en_rolling",
        "rolling",
        (
            rf"\b(?:last|past|previous|prior|recent|most\s+recent|latest|trailing)\s+"
            rf"(?P<n>{EN_COUNT}|half(?:\s+an?)?)\s+(?P<u>{EN_UNIT})\b"
        ),
        "lmprt",
    ),
    (
        "en_rolling_one",
        "rolling",
        r"\b(?:past|latest)\s+(?P<u>day|week|month|quarter|year)\b",
        "lp",
    ),
    ("en_ttm", "ttm", r"\b(?:ltm|ttm)\b", "lt"),
    ("en_ago", "ago", rf"\b(?P<n>{EN_COUNT}|half\s+an?)\s+(?P<u>{EN_UNIT})\s+ago\b", "0aefhnost"),
    ("en_this", "this", r"\b(?:this|current)\s+(?P<u>week|month|quarter|year)\b", "ct"),
    ("en_to_date", "this", r"\b(?P<u>week|month|quarter|year)[- ]to[- ]date\b", "mqwy"),
    ("en_xtd", "this_word", r"\b[wmqy]td\b", "mqwy"),
    ("en_prev", "prev", r"\b(?:last|previous|prior)\s+(?P<u>week|month|quarter|year)\b", "lp"),
    (
        "en_prev2",
        "prev",
        r"\b(?:the\s+)?(?P<u>week|month|quarter|year)\s+(?P<k>before\s+last)\b",
        "mqtwy",
    ),
    ("en_yesterday", "prev_word", r"\b(?:the\s+)?day\s+before\s+yesterday\b|\byesterday\b", "dty"),
    (
        "en_anchor",
        "anchor",
        r"\b(?:the\s+)?(?:start|beginning)\s+of\s+(?:the|this)\s+(?P<u>week|month|quarter|year)\b",
        "bst",
    ),
    # -- English, the year left open ---------------------------------------------------------
    ("en_md", "md", _EN_MD + r"\b", "adfjmnos"),
    ("en_dm", "md", _EN_DM + r"\b", "0"),
    ("en_q", "q", _EN_Q + r"\b", "q"),
    ("en_oq", "q", _EN_OQ + r"\b", "0fst"),
    ("en_w", "w", _EN_W + r"\b", "w"),
    ("en_h", "h", _EN_H + r"\b", "fst"),
    ("en_m", "m", rf"\b(?P<m>{EN_MONTH})\b", "adfjmnos"),
    # -- both -----------------------------------------------------------------------------
    # 20240315: a compact date (an eight-digit number that is no date stays a number).
    (
        "compact_date",
        "md",
        rf"(?<![0-9])(?P<y>{YEAR4})(?P<m>0[1-9]|1[0-2])(?P<d>0[1-9]|[12][0-9]|3[01])(?![0-9])",
        "0",
    ),
    # A four-digit number alone is a year unless it counts something (top 2000, 2000名, 2000 users).
    ("bare_year", "year", rf"(?<![0-9./])(?<!top )(?<!前)(?P<y>{YEAR4})(?!{_NOT_YEAR})", "0"),
    (
        "en_now",
        "now",
        (
            r"\b(?:right\s+now|as\s+of\s+(?:now|today)|at\s+present|now|currently|current"
            r"|latest|today|real[- ]?time)\b"
        ),
        "aclnrt",
    ),
)

_GROUP = re.compile(r"\(\?P([<=])(\w+)([>)])")
# Every Chinese character an atom can start with (年, 周 and the like never come first).
_ZH_STARTS = (
    "〇零一二两三四五六七八九十百半上下本这当目今去前大昨近最过现实截此眼如第明中元春农劳端国双六"
)


def _outer(name: str, pattern: str) -> str:
    """Return the atom's pattern as a scanner group named after it, inner groups `<name>_<g>`."""
    # Inner names repeat across atoms; prefixed, they stay unique inside one alternation, and
    # the builders read them from the scanner's own match (atoms._opt).
    inner = _GROUP.sub(lambda group: f"(?P{group[1]}{name}_{group[2]}{group[3]}", pattern)
    return f"(?P<{name}>{inner})"


def _scanners() -> dict[str, re.Pattern[str]]:
    chosen: dict[str, list[str]] = {}
    for name, _, pattern, starts in ALTERNATIVES:
        for key in starts:
            chosen.setdefault(key, []).append(_outer(name, pattern))
    # ASCII word boundaries and spaces: 到Q3 and Q1和Q3 have a boundary between 到 and Q.
    return {key: re.compile("|".join(outers), re.ASCII) for key, outers in chosen.items()}


FAMILIES: dict[str, str] = {name: family for name, family, _, _ in ALTERNATIVES}
_SCANNERS = _scanners()
_FIRST_LETTERS = "".join(sorted(key for key in _SCANNERS if "a" <= key <= "z"))
# Chinese characters with a scanner of their own start only a few atoms (年初, 月初).
_ZH_OWN = "".join(key for key in _SCANNERS if key > "\x7f" and key != "中")
TRIGGER = re.compile(rf"(?<![0-9])[0-9]|[{_ZH_STARTS}{_ZH_OWN}]|\b[{_FIRST_LETTERS}]", re.ASCII)


def atom_at(text: str, pos: int) -> re.Match[str] | None:
    """Return the first atom that matches at `pos` (its group name is the atom's), or None."""
    if TRIGGER.match(text, pos) is None:
        return None
    return _scanner_for(text[pos]).match(text, pos)


def atoms(text: str) -> Iterator[re.Match[str]]:
    """Yield the atoms of the text left to right, as `finditer` over all of them would."""
    pos = 0
    while (trigger := TRIGGER.search(text, pos)) is not None:
        start = trigger.start()
        found = _scanner_for(text[start]).match(text, start)
        if found is None:
            pos = start + 1
        else:
            yield found
            pos = max(found.end(), start + 1)


def _scanner_for(char: str) -> re.Pattern[str]:
    """Return the scanner for a character TRIGGER accepted."""
    if "a" <= char <= "z":
        return _SCANNERS[char]
    if char <= "9":
        return _SCANNERS["0"]
    return _SCANNERS.get(char) or _SCANNERS["中"]


# Comparison words (SPEC §4.1: they never change the window). With the period they compare
# with (同比去年, 环比上月, 较上季度, vs last year) that period is part of the comparison.
_COMPARED = (
    r"(?:去年同期|上年同期|去年|上年|上月|上个月|上季度|上一季度|上季|上周|上期|同期|前一天|昨天|"
    r"前一日)"
)
COMPARISON = re.compile(
    rf"(?:同比|环比)(?:增长|下降|增速|增幅|降幅|变化)?(?:\s*{_COMPARED})?"
    rf"|(?<![对比])(?:较|相比|相较|比)于?\s*{_COMPARED}"
    r"|\b(?:yoy|mom|qoq|wow|(?:year|month|quarter|week)[- ]over[- ](?:year|month|quarter|week))\b"
    r"|\b(?:vs\.?|versus|compared\s+(?:to|with)|against)\s+(?:the\s+)?(?:same\s+period\s+)?"
    r"(?:of\s+)?(?:last|previous|prior)\s+(?:year|month|quarter|week|period)\b",
    re.ASCII,
)
STEP_WORDS = re.compile(
    r"(?P<day>按\s*[天日]|每日|每天|逐日|日趋势|\bdaily\b|\b(?:by|per|each|every)\s+(?:the\s+)?day\b)"
    r"|(?P<week>按\s*(?:周|星期)|每周|逐周|周趋势|\bweekly\b"
    r"|\b(?:by|per|each|every)\s+(?:the\s+)?week\b)"
    r"|(?P<month>按\s*月|每个?月|逐月|月度|月趋势|\bmonthly\b"
    r"|\b(?:by|per|each|every)\s+(?:the\s+)?month\b)"
    r"|(?P<quarter>按\s*季度?|每个?季度?|逐季|季度趋势|季趋势|\bquarterly\b"
    r"|(?<![上下本这当第个前0-9一二两三四五六七八九十])季度"
    r"|\b(?:by|per|each|every)\s+(?:the\s+)?quarter\b)"
    r"|(?P<year>按\s*年|每年|逐年|年度|年趋势|\b(?:yearly|annual|annually)\b"
    r"|\b(?:by|per|each|every)\s+(?:the\s+)?year\b)"
)
TREND_WORDS = re.compile(r"趋势|变化|走势|\btrends?\b")
# Every step word holds one of these and every trend word one of the others. A query without
# any skips the word expressions, which are slow on long English text; a plain alternation of
# literals is fast, as `re` skips ahead to the characters they start with.
STEP_CUES = re.compile(
    "按|每|逐|度|趋势|daily|weekly|monthly|quarterly|yearly|annual|by|per|each|every"
)
TREND_CUES = re.compile("趋势|变化|走势|trend")
