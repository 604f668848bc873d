"""The one lexicon of the scanner: every word it knows, its token class and its value.

The tokenizer (`tokens.py`) turns text into tokens with these classes; the detector
(`detector.py`) decides from the classes alone which tokens are time-like (SPEC §4.2
(a)–(c)); the grammar (`grammar.py`) is written over the same classes. A word added here is
at once something the detector sees and something the grammar may read, so the two cannot
drift: a word the grammar does not read stays time-like and unread, and the text settles
nothing.

Classes are named (`YEAR`, `MONTHNAME`, `NEXT` …); each has a one-character code in a
private-use block, so that a text's tokens become a string of codes that the grammar's
regular expressions match. Every class has a *kind* for the detector:

- `strong`: time-like wherever it stands (units, month and weekday names, holidays, 去年);
- `weak`: time-like only next to a time-like token (`am`, `min`, `second`, `时`, `点`, 秒);
- `number`: time-like when it joins a strong token or forms a date (SPEC §4.2 (b));
- `link`: relative and boundary words, separators and comparison symbols: time-like when
  they join a time-like token (SPEC §4.2 (c));
- `plain`: never time-like (particles, filler words, words shadowing a time character:
  天猫, 日本, 年轻, 分析).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from resolver.timeexpr.lang.en_words import (
    EN,
    EN_HOLIDAYS,
    EN_MONTHS,
    EN_PHRASES,
    EN_WEEKDAYS,
    MAY_AFTER,
)
from resolver.timeexpr.lang.numerals import (
    EN_CARDINALS,
    EN_ONES,
    EN_ORDINALS,
    EN_SCALES,
    EN_TENS,
    ZH_DIGITS,
    ZH_NUMERAL_CHARS,
    zh_digits,
    zh_number,
)
from resolver.timeexpr.lang.zh_words import (
    PLAIN_NUMBER_WORDS,
    WHOLE_AFTER_NUMBER,
    ZH,
    ZH_HOLIDAYS,
    ZH_RELDAYS,
)
from resolver.timeexpr.result import Step

Kind = Literal["strong", "weak", "number", "link", "plain"]

# --- normalisation --------------------------------------------------------------------------

# One character for one, so that a span of the normalised text is the same span of the text.
# The tables live in lang/ (one module per language); this module holds the classes and
# normalisation, and names the tables for the passes that read them.
__all__ = [
    "CODE", "EN", "EN_CARDINALS", "EN_HOLIDAYS", "EN_MONTHS", "EN_ONES", "EN_ORDINALS",
    "EN_PHRASES", "EN_SCALES", "EN_TENS", "EN_WEEKDAYS", "KIND", "MAY_AFTER", "NAME",
    "PLAIN_NUMBER_WORDS", "SIDE", "UNIT_OF", "WHOLE_AFTER_NUMBER", "ZH", "ZH_DIGITS", "ZH_HOLIDAYS",
    "ZH_NUMERAL_CHARS", "ZH_RELDAYS", "Entry", "Kind", "normalize", "words_of", "zh_digits",
    "zh_number",
]  # fmt: skip

_FOLD: dict[int, int] = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}  # full-width ASCII
_FOLD |= {cp: cp - 0xFEE0 + 32 for cp in range(0xFF21, 0xFF3B)}  # full-width A-Z, lower-cased
_FOLD |= {cp: cp + 32 for cp in range(ord("A"), ord("Z") + 1)}
_FOLD |= {0x3000: 0x20, 0xA0: 0x20, 0x2009: 0x20, 0x202F: 0x20}  # spaces
_FOLD |= {ord(c): ord("-") for c in "‐‑‒–—―−"}  # dashes
_FOLD |= {ord(c): ord("~") for c in "〜～"}
_FOLD |= {ord(c): ord("'") for c in "’‘`´"}
_FOLD |= {ord("．"): ord("."), ord("。"): ord("。"), ord("≧"): ord("≥"), ord("≦"): ord("≤")}
# Traditional characters of time words and of the words around them (SPEC §4.2: simplified
# and traditional alike).
_TRADITIONAL = (
    "週周 禮礼 個个 後后 點点 時时 鐘钟 號号 兩两 倆俩 國国 慶庆 節节 誕诞 萬万 聖圣 當当 這这 "
    "過过 來来 從从 與与 約约 歲岁 曆历 歷历 陰阴 陽阳 閏闰 間间 開开 頭头 於于 為为 現现 實实 "
    "數数 據据 趨趋 勢势 變变 幾几 兒儿 婦妇 師师 勞劳 動动 軍军 臘腊 農农 舊旧 屆届 剩剩 餘余 "
    "邊边 氣气 會会 計计 財财 務务 報报 銷销 單单 價价 額额 營营 業业 統统 計计 對对 較较 環环 "
    "測测 預预 截截 迄迄 內内 並并 長长 黃黄 週周 夠够 還还 麼么 嗎吗 們们 這这 樣样 為为 麼么 "
    "凌凌 晝昼 晚晚 早早 夜夜 學学 寒寒 暑暑 復复 腦脑 億亿 兩两 壹一 貳二 參三 肆四 伍五 陸六 "
    "柒七 捌八 玖九 拾十 聽听 尋寻 嚟来 宜宜 頭头 尾尾 啲的 嘅的 個个 齊齐 總总 戰战 黨党 紀纪 "
    "葉叶 號号 門门 樓楼 線线 場场 廳厅 館馆 櫃柜 臺台 檯台 車车 機机 寶宝 貓猫 視视 訂订 貨货 "
    "戶户 員员 類类 產产 區区 別别 寫写 區区 風风 颱台 霧雾 節节 穀谷 滿满 種种 暑暑 處处 驚惊 "
    "蟄蛰 雨雨 陽阳 韆千 慶庆 誕诞 愛爱 親亲 聯联 華华 盛盛 頓顿 紐纽 約约 倫伦 敦敦 爾尔 蘭兰 "
    "亞亚 洲洲 歐欧 東东 區区 灣湾 灣湾 莫莫 斯斯 科科 條条"
)
_FOLD |= {ord(pair[0]): ord(pair[1]) for pair in _TRADITIONAL.split() if pair[0] != pair[1]}


def normalize(text: str) -> str:
    """Fold full-width forms, dashes and traditional characters, and lower-case ASCII, keeping
    every index (one character for one)."""
    if text.isascii():
        return text.lower()
    return text.translate(_FOLD)


# --- token classes --------------------------------------------------------------------------

_CLASSES: dict[str, Kind] = {
    # numbers (SPEC §4.2 (b))
    "Y4": "number",  # 1900–2199: a year or a count
    "D12": "number",  # 1 or 2 digits
    "D0": "number",  # two digits with a leading zero (03, 07): a month, a day or a year, no count
    "D8": "number",  # 8 digits: a compact date or a count
    "DN": "number",  # any other run of digits
    "ORD": "number",  # 1st, 22nd
    "ORDW": "number",  # first, twenty-second
    "ZHN": "number",  # 三, 十二, 二〇二四, 廿
    "BADNUM": "number",  # 1e3, 10^400, 1_500, 0x10: time-like beside a unit, never read
    "ENN": "number",  # five, twenty nine, two thousand and fifteen, a couple of
    "HALF": "number",  # 半, half
    "FEW": "number",  # 几, 若干, few, several: a count nobody can compute
    "ART": "plain",  # a, an (a count only where a unit follows: a year ago)
    "COUNT": "plain",  # a number that counts something: $12, #1930, 3.5%, top 2000
    "YEARCOUNT": "strong",  # 2019 orders: a year or a count — unsure, so no window is read
    "DI": "link",  # 第
    "GE": "link",  # 个 (a classifier)
    # calendar units and clock words (SPEC §4.2 (a))
    "YEAR": "strong",
    "YEARDU": "strong",  # 年度: a unit after a number, else the step word "annual"
    "QUARTER": "strong",
    "JIDU": "strong",  # 季度: a unit after a number or a relative word, else a step word
    "MONTH": "strong",
    "WEEK": "strong",
    "DAY": "strong",
    "RI": "strong",  # 日: a day (3日, 近7日) or the day of a month (3月15日)
    "HAO": "strong",  # 号: the day of a month
    "HOUR": "strong",
    "MINUTE": "strong",
    "SECOND": "weak",  # 秒 (秒杀 is no time), second(s)
    "XUN": "strong",  # 旬
    "FORTNIGHT": "strong",
    "E_YEAR": "strong",  # English units: year(s), quarter(s), month(s) …
    "E_QUARTER": "strong",
    "E_MONTH": "strong",
    "E_WEEK": "strong",
    "E_DAY": "strong",
    "E_HOUR": "strong",
    "E_MINUTE": "strong",
    "ERA": "strong",  # 年代, 世纪, decade, century
    "OCLOCK": "weak",  # 点, 点钟, 时, o'clock
    "FEN": "weak",  # 分 after a clock: 3点15分
    "KE": "weak",  # 刻: a quarter of an hour
    "AMPM": "weak",
    "DAYPART": "strong",  # 上午, 晚上, morning, tonight, noon
    # A colon is time only inside a clock (10:30), whose numbers carry it; after a key
    # (时间范围：, period:) it is punctuation. SPEC §4.2 lists no colon among the separators.
    "COLON": "plain",
    # names
    "MONTHNAME": "strong",
    "WEEKDAY": "strong",
    "WEEKEND": "strong",
    "WEEKEND_REL": "strong",  # 上周末 (-1), this weekend (0), next weekend (+1)
    "HOLIDAY": "strong",
    "TZWORD": "strong",  # gmt, utc, pst: a zone the window would have to be read in
    "HOURWEAK": "weak",  # 16h: an hour only after a number
    "ERAWEAK": "weak",  # 2014 BC, 14 AD (an ad is an advertisement elsewhere)
    "OTHERDAY": "strong",  # a day name the grammar does not read: 大寒, 节假日, 寒假
    "SEASON": "strong",
    "SEASONWEAK": "weak",  # 春, spring, fall: a season only beside a time word
    "ERANAME": "strong",  # 康熙, 民国, 上世纪
    "CALENDAR": "strong",  # 农历, 阴历, 闰
    "QLABEL": "strong",  # q1 .. q4 (q5 too: an impossible quarter is still a quarter)
    "HLABEL": "weak",  # h1, h2
    "WLABEL": "strong",  # w10, wk10
    "FISCAL": "strong",  # 财年, fy2025, fiscal
    "VAGUE": "strong",  # 近期, 一段时间, 同期, recently, lately
    # one-word periods and instants
    "RELDAY": "strong",  # 昨天 (-1), 明天 (+1), 后天, 前天, yesterday, tomorrow
    "RELPERIOD": "strong",  # 上个月 (-1 month), 本周 (0 week), 去年, 明年, 下下周
    "NOW": "strong",  # 当前, 现在, 今天, now, today, current, latest
    "TODAYISH": "strong",  # 今晚, 昨晚, 明早: a part of a day: not read
    "TTM": "strong",
    "XTD": "strong",  # ytd, mtd, qtd, wtd
    "STEP": "strong",  # 按月, monthly, 每周 (value: the step)
    "STEPFINE": "strong",  # 按小时, hourly, 每分钟: a step finer than a day
    "TREND": "plain",  # 趋势, trend: read where it stands, never a cue by itself
    "COMPARE": "link",  # 同比, 环比, yoy, vs: with the period it compares with (同比去年)
    "COMPARE_ONLY": "plain",  # 对比, 比较: to compare, no period of its own
    # 除了, 不是, excluding, except, not: a negation joined to a time (除了上个月) is never
    # dropped (SPEC §4.3): unread, so nothing settles
    "NEGATION": "link",
    # 不含今天, excluding today: a rolling window of days ends at the end of yesterday
    "EXCL_TODAY": "strong",
    "ZH_FINAL": "link",  # 最后 (最后一周, 最后3天): the last N of a period, never "after"
    "ZH_FIRST": "link",  # 首 (首季度: the first quarter)
    "ZH_WITHIN": "link",  # 内, 之内, 以内 (N日内: within N days — which way is not said)
    "LATEST": "strong",  # 最新: the instant word, or a window before a unit (最新3个月)
    # English relative and boundary words (SPEC §4.2 (c))
    "LAST": "link",
    "PREVIOUS": "link",
    "NEXT": "link",
    "THIS": "link",
    "COMING": "link",  # coming, upcoming
    "FOLLOWING": "link",  # the following week (next week); the following Friday: peers differ
    "PAST": "link",  # past, recent, trailing
    "AGO": "link",
    "LATER": "link",  # later, hence
    "EARLIER": "link",
    "BEFORE": "link",
    "AFTER": "link",
    "UNTIL": "link",  # until, till
    "THROUGH": "link",  # through, thru
    "SINCE": "link",
    "FROM": "link",
    "TO": "link",
    "BETWEEN": "link",
    "AND": "link",
    "OR": "link",
    "BY": "link",
    "AROUND": "link",  # around, about, approximately, circa
    "MID": "link",  # mid, middle
    "EARLY": "link",
    "LATE": "link",
    "END": "link",
    "BEGIN": "link",  # beginning, start
    "REST": "link",  # rest, remainder
    "OF": "plain",
    "THE": "plain",
    "IN": "plain",
    "ON": "plain",
    "AT": "plain",
    "WITHIN": "plain",  # within, during
    "FOR": "plain",
    "OVER": "plain",
    "AS": "plain",
    "SO": "plain",
    "FAR": "plain",
    "DATE": "weak",  # date (to date), present
    "ONWARDS": "link",
    "WEEKOF": "link",  # w/c: week commencing
    "ASOF": "link",  # as of
    "SAME": "link",  # same (the same month last year)
    "OTHER": "plain",  # any other English word
    "POLITE": "plain",  # please, thanks: a sentence's end as much as a full stop
    "OK_WORD": "plain",  # a word shadowing a time character (天猫, 日本, 分析)
    # Chinese relative and boundary words (SPEC §4.2 (c))
    "ZH_LAST": "link",  # 上
    "ZH_LAST2": "link",  # 上上
    "ZH_NEXT": "link",  # 下
    "ZH_NEXT2": "link",  # 下下
    "ZH_THIS": "link",  # 本, 这, 这个, 当, 今
    "ZH_RECENT": "link",  # 最近, 近, 过去, 最近的
    "ZH_FUTURE": "link",  # 未来, 接下来, 今后, 往后
    "ZH_QIAN": "link",  # 前
    "ZH_HOU": "link",  # 后
    "ZH_BEFORE": "link",  # 以前, 之前
    "ZH_AFTER": "link",  # 以后, 之后
    "ZH_SINCE": "link",  # 以来, 迄今, 至今 …
    "ZH_TONOW": "link",  # 至今, 到现在, 为止
    "ZH_ASOF": "link",  # 截至, 截止, 截止到
    "ZH_UNTIL": "link",  # 为止
    "ZH_AROUND": "link",  # 左右, 前后, 上下, 前夕 (after a time)
    "ZH_ABOUT": "link",  # 约, 大约, 将近 (before a time)
    "ORLATER": "link",  # or later, and earlier, and beyond (after a time)
    "ZH_ORLATER": "link",  # 以上, 或更早, 及以后 (after a time)
    "ZH_EDGE": "link",  # 初, 底, 末, 终, 头, 尾
    "ZH_MID": "link",  # 中
    "ZH_HALF": "link",  # 上半, 下半
    "ZH_FROM": "link",  # 从, 自, 由, 自从
    "ZH_TO": "link",  # 到, 至, 一直到, 直到
    "ZH_AND": "link",  # 和, 与, 及, 以及, 跟, 、
    "ZH_OR": "link",  # 或, 或者, 还是
    "ZH_QI": "link",  # 起, 开始
    "ZH_HARMLESS": "link",  # 全年, 整月, 期间, 之内, 以内, 内 (after a window)
    "ZH_REMAIN": "link",  # 剩余, 剩下, 余下
    "ZH_EVERY": "plain",  # 每, 各, 逐 (a step word only with its unit: 每月, 各季度)
    "ZH_DE": "plain",  # 的
    "ZH_SAME": "link",  # 同 (去年同月)
    "ZH_BIGGER": "link",  # 大于, 超过, 晚于, 早于, 不早于, 以上
    # symbols
    "DASH": "link",  # - ~
    "SLASH": "link",
    "DOT": "link",
    "COMMA": "plain",
    "CMP": "link",  # > < >= <= ≥ ≤
    "PLUS": "link",
    "MONEY": "plain",  # $ ¥ ￥ €: the number after it is money
    "PERCENT": "plain",
    "HASH": "plain",  # #1930: a number, not a year
    "APOS": "link",  # '24
    # gaps (not tokens: what lies between two tokens)
    "SPACE": "plain",
    "BAR": "plain",  # other characters (any word the lexicon does not know)
}
CODE: dict[str, str] = {name: chr(0xE000 + index) for index, name in enumerate(_CLASSES)}
# Which side a relative word joins a time on (SPEC §4.2 (c)): "by 2020", "since May" join what
# follows them ("last month by region" holds no time in "by"); the others join either side
# ("two days before", "today before": before and after may follow their time too).
_PRE = (
    "LAST PREVIOUS NEXT THIS COMING PAST UNTIL SINCE FROM BETWEEN BY AROUND MID "
    "EARLY LATE END BEGIN REST ASOF WEEKOF SAME ZH_LAST ZH_LAST2 ZH_NEXT ZH_NEXT2 ZH_THIS "
    "ZH_RECENT ZH_FUTURE ZH_ASOF ZH_FROM ZH_HALF DI ZH_ABOUT ZH_BIGGER CMP NEGATION ZH_FIRST"
)
# Words written after their time (3 days ago, 2024年以前) join both sides: 前后最近3个月 is no
# question the scanner can answer either.
SIDE: dict[str, int] = {CODE[name]: 1 for name in _PRE.split()}  # 0: both sides
NAME: dict[str, str] = {code: name for name, code in CODE.items()}
KIND: dict[str, Kind] = {CODE[name]: kind for name, kind in _CLASSES.items()}

# --- words ----------------------------------------------------------------------------------

Entry = tuple[str, object]  # (class name, value)

UNIT_OF: dict[str, Step] = {
    "YEAR": "year",
    "YEARDU": "year",
    "QUARTER": "quarter",
    "JIDU": "quarter",
    "MONTH": "month",
    "WEEK": "week",
    "DAY": "day",
    "RI": "day",
    "FORTNIGHT": "week",
    "E_YEAR": "year",
    "E_QUARTER": "quarter",
    "E_MONTH": "month",
    "E_WEEK": "week",
    "E_DAY": "day",
}


def words_of(tables: Iterable[dict[str, Entry]]) -> list[str]:
    """Every word of some tables, longest first (the tokenizer tries them in this order)."""
    return sorted({word for table in tables for word in table}, key=len, reverse=True)
