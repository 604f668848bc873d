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

from resolver.timeexpr.lang import Words
from resolver.timeexpr.result import STEPS, Step

Kind = Literal["strong", "weak", "number", "link", "plain"]

# --- normalisation --------------------------------------------------------------------------

# One character for one, so that a span of the normalised text is the same span of the text.
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
    "COMING": "link",  # coming, upcoming, following
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

# --- numerals -------------------------------------------------------------------------------

ZH_DIGITS = {
    "零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "仨": 3, "四": 4,
    "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
}  # fmt: skip
ZH_NUMERAL_CHARS = "零〇一二两俩三仨四五六七八九十百千万廿卅"


def zh_number(token: str) -> int | None:
    """The value of a Chinese count (三, 十二, 二十三, 一百零五, 廿三), or None."""
    if token[0] in "廿卅":
        rest = zh_number(token[1:]) if len(token) > 1 else 0
        return None if rest is None or rest > 9 else (20 if token[0] == "廿" else 30) + rest
    total, section, digit = 0, 0, -1
    previous = ""
    for char in token:
        if char in "十百千":
            scale = {"十": 10, "百": 100, "千": 1000}[char]
            section += (1 if digit < 0 else digit) * scale
            digit = -1
        elif char == "万":
            total += (section + max(digit, 0)) * 10_000
            section, digit = 0, -1
        elif char in ZH_DIGITS:
            # Two digits in a row are no count (三三, 二零二四: see zh_digits), except a 零
            # after a scale (一百零五).
            if previous in ZH_DIGITS and not (previous in "零〇" and digit == 0 and section):
                return None
            digit = ZH_DIGITS[char]
        else:
            return None
        previous = char
    return total + section + max(digit, 0)


def zh_digits(token: str) -> int | None:
    """The value of a number written digit by digit (二〇二四 → 2024, 零八 → 8), or None."""
    if len(token) < 2 or any(char not in ZH_DIGITS for char in token):
        return None
    return int("".join(str(ZH_DIGITS[char]) for char in token))


EN_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
EN_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
EN_CARDINALS: dict[str, int] = {word: value for value, word in enumerate(EN_ONES)}
EN_CARDINALS |= {word: 20 + 10 * index for index, word in enumerate(EN_TENS)}
EN_SCALES = {"hundred": 100, "thousand": 1000}
_ORDINAL_ONES = [
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
]
EN_ORDINALS: dict[str, int] = {word: value for value, word in enumerate(_ORDINAL_ONES) if value}
EN_ORDINALS |= {word[:-1] + "ieth": 20 + 10 * i for i, word in enumerate(EN_TENS)}

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


def _words(table: dict[str, Entry], cls: str, words: str, value: object = None) -> None:
    for word in words.split():
        table[word.replace("_", " ")] = (cls, value)


def _named(table: dict[str, Entry], cls: str, words: str) -> None:
    """Words whose value is the word itself (the builder reads which one it was)."""
    for word in words.split():
        table[word] = (cls, word)


ZH = Words()  # one class per word: a second is an error (lang/__init__.py)
_words(ZH, "YEAR", "年")
_words(ZH, "YEARDU", "年度")
_words(ZH, "QUARTER", "季")
_words(ZH, "JIDU", "季度")
_words(ZH, "MONTH", "月 月份")
_words(ZH, "WEEK", "周 星期 礼拜 周次")
_words(ZH, "DAY", "天")
_words(ZH, "RI", "日")
_words(ZH, "HAO", "号")
_words(ZH, "HOUR", "小时 钟头 个钟 个小时")
_words(ZH, "MINUTE", "分钟 分钟钟")
_words(ZH, "SECOND", "秒 秒钟")
_words(ZH, "XUN", "旬")
_words(ZH, "FORTNIGHT", "双周")
_words(ZH, "ERA", "年代 世纪")
_words(ZH, "OCLOCK", "点 点钟 时")
_words(ZH, "FEN", "分")
_words(ZH, "KE", "刻")
_named(
    ZH,
    "DAYPART",
    "上半夜 下半夜 前半夜 后半夜 上午 下午 晚上 凌晨 早上 早晨 清晨 中午 傍晚 夜里 夜间 晚间 半夜 "
    "深夜 午夜 白天 夜晚 黎明 拂晓 破晓 黄昏 早间 午后 入夜",
)
_words(
    ZH,
    "TODAYISH",
    "今晚 昨晚 明晚 今早 明早 昨早 今晨 昨夜 今夜 明夜 当晚 当天 当日 次日 翌日 隔天 同日",
)
_words(ZH, "WEEKEND", "周末 双休日")
# A weekend of a named week (SPEC §4.3): 上周末 (-1), 本周末 (0), 下周末 (+1).
for _head, _offset in (("上上", -2), ("上", -1), ("本", 0), ("这", 0), ("下", 1), ("下下", 2)):
    for _middle in ("", "个", "一个") if _head not in ("本",) else ("",):
        ZH[f"{_head}{_middle}周末"] = ("WEEKEND_REL", _offset)
# 上个自然月 / 上一自然周 / 本自然年 (SPEC §4.3: a calendar period, as 上个月).
_NATURAL = {"week": ("自然周",), "month": ("自然月",), "quarter": ("自然季度", "自然季"),
            "year": ("自然年", "自然年度")}  # fmt: skip
for _head, _offset in (("上", -1), ("本", 0), ("这", 0), ("当", 0), ("下", 1)):
    for _unit, _forms in _NATURAL.items():
        for _form in _forms:
            for _middle in ("", "个", "一个", "一") if _head in ("上", "下", "这") else ("",):
                ZH[_head + _middle + _form] = ("RELPERIOD", (_offset, _unit))
ZH |= {"首季度": ("QLABEL", 1), "首季": ("QLABEL", 1)}  # the first quarter (SPEC §4.3)
for _prefix in ("周", "星期", "礼拜"):
    for _index, _char in enumerate("一二三四五六"):
        ZH[_prefix + _char] = ("WEEKDAY", _index)
    ZH[_prefix + "日"] = ("WEEKDAY", 6)
    ZH[_prefix + "天"] = ("WEEKDAY", 6)
ZH["周七"] = ("WEEKDAY", 6)
_words(ZH, "CALENDAR", "农历 阴历 公历 阳历 旧历 闰 闰月 夏历")
_words(
    ZH,
    "ERANAME",
    "康熙 乾隆 雍正 嘉庆 道光 咸丰 同治 光绪 宣统 顺治 万历 洪武 永乐 贞观 开元 民国 上世纪 "
    "本世纪 昭和 平成 令和 明治 大正 公元 公元前",
)
_words(ZH, "SEASON", "春天 夏天 秋天 冬天 春季 夏季 秋季 冬季 旺季 淡季 季节")
_words(ZH, "SEASONWEAK", "春 夏 秋 冬")
_words(ZH, "FISCAL", "财年 财务年度 会计年度 会计期间 财报季 财月")
_words(ZH, "FISCAL", "财季", "quarter")  # a fiscal quarter (上个财季), issue 31
_words(
    ZH,
    "VAGUE",
    "近期 近来 近日 近段 近些 日前 一段时间 这段时间 那段时间 段时间 一阵子 这阵子 这些天 那些天 "
    "此前 此后 以往 往年 往期 历年 本期 下期 当期 前期 后期 早期 晚期 "
    "期初 期末 不久 "
    "多年 多月 多日 当年 那年 那时 当时 彼时 往日 平日 日后",
)
# The period a comparison names without naming it (同比去年同期): vague alone, read after 同比.
_words(ZH, "VAGUE", "同期 上期 历史同期 去年同期 上年同期", "compared")
_words(
    ZH,
    "OTHERDAY",
    "",
)
_words(
    ZH,
    "OTHERDAY",
    "节假日 节日 寒假 暑假 工作日 交易日 营业日 休息日 周年 "
    "大促 店庆 年货节 光棍节 购物节 狂欢节 女神节 女王节 青年节 五四 五四青年节 护士节 "
    "中元 中元节 龙抬头 开斋节 泼水节 跨年 双旦 双节 节前 节后 建军节 八一 建党节 七一 "
    "植树节 愚人节 寒食 寒食节 小年 "
    "立春 雨水 惊蛰 春分 谷雨 立夏 小满 芒种 夏至 小暑 大暑 立秋 处暑 白露 秋分 寒露 霜降 "
    "立冬 小雪 大雪 冬至 小寒 大寒 三伏 伏天 入伏 出伏 数九 三九 "
    "圣周 圣周一 圣周二 圣周三 圣周四 圣周五 圣周六 圣周日 圣灰星期三 圣灰日 沈默周五 沉默周五 "
    "神圣周六 神圣星期四 神圣星期六 神圣周四 黑色星期六 东正教 复活节星期一 棕枝主日 圣枝主日 "
    "耶稣受难日 耶稣升天节 降临节 主显节 五旬节 圣诞节前夕 万圣夜 诸圣节 亡灵节 "
    "光明节 修殿节 献殿节 烛光节 哈努卡节 逾越节 住棚节 赎罪日 犹太新年 普珥节 七七节 "
    "开斋节 古尔邦节 宰牲节 斋月 斋期 大斋期 四旬期 排灯节 洒红节 灯节 宋干节 感恩节周末 "
    "国际劳动妇女节 拉匝路 拉撒路 受难日",
)
# After a festival, its public holiday's days (国庆黄金周, 春节假期); alone, no period read.
_words(ZH, "OTHERDAY", "假日 假期 长假 小长假 黄金周 放假", "span")
# Festivals and holidays the grammar reads (SPEC §4.1, §4.2): name → holiday key.
ZH_HOLIDAYS = {
    "元旦": "new_year", "元旦节": "new_year", "阳历新年": "new_year",
    "春节": "spring", "农历新年": "spring", "大年初一": "spring", "新春": "spring",
    "元宵": "lantern", "元宵节": "lantern", "正月十五": "lantern",
    "劳动节": "labour", "五一": "labour", "五一节": "labour", "五一劳动节": "labour",
    "五一国际劳动节": "labour", "国际劳动节": "labour",
    "端午": "dragon_boat", "端午节": "dragon_boat",
    "七夕": "qixi", "七夕节": "qixi",
    "中秋": "mid_autumn", "中秋节": "mid_autumn",
    "国庆": "national", "国庆节": "national",
    "六一八": "618", "双十一": "double_11", "双11": "double_11",
    "双十二": "double_12", "双12": "double_12",
    "清明": "qingming", "清明节": "qingming",
    "除夕": "chuxi", "大年夜": "chuxi", "大年三十": "chuxi",
    "重阳": "chongyang", "重阳节": "chongyang", "腊八": "laba", "腊八节": "laba",
    "平安夜": "christmas_eve", "圣诞": "christmas", "圣诞节": "christmas",
    "情人节": "valentine", "妇女节": "women", "三八节": "women", "三八妇女节": "women",
    "国际妇女节": "women", "儿童节": "children", "六一": "children", "六一儿童节": "children",
    "国际儿童节": "children", "教师节": "teacher", "万圣节": "halloween", "万圣": "halloween",
    "复活节": "easter", "感恩节": "thanksgiving", "母亲节": "mother", "父亲节": "father",
    "黑五": "black_friday", "黑色星期五": "black_friday",
}  # fmt: skip
ZH |= {name: ("HOLIDAY", key) for name, key in ZH_HOLIDAYS.items()}
ZH["十一"] = ("HOLIDAY", "national")  # only with a holiday word: see tokens.py
_words(ZH, "DI", "第")
_words(ZH, "GE", "个")
_words(ZH, "HALF", "半")
_words(ZH, "FEW", "几 若干 好几 数 多 些 一些 几个 几十 十几 上百 几百")
_named(
    ZH,
    "NOW",
    "当前 现在 目前 今天 今日 实时 此刻 当下 眼下 如今 此时 截至目前 截止目前 截至现在 截止到目前 "
    "截至今天 截至今日 截止今日 截止今天 到目前为止 迄今为止 至今为止",
)
_words(ZH, "LATEST", "最新")
_words(ZH, "ZH_LAST", "上 上一 上一个")
_words(ZH, "ZH_LAST2", "上上 上上个")
_words(ZH, "ZH_NEXT", "下 下一 下一个")
_words(ZH, "ZH_NEXT2", "下下 下下个")
_words(ZH, "ZH_THIS", "本 这 这个 这一 当 今 今个 这一个 当前这个")
_words(ZH, "ZH_RECENT", "最近 近 过去 最近的 过去的 近的 往前 往前推 前推")
_words(ZH, "ZH_FUTURE", "未来 接下来 今后 往后 后面 接下去 将来 随后")
_words(ZH, "ZH_QIAN", "前")
_words(ZH, "ZH_HOU", "后")
_words(ZH, "ZH_BEFORE", "以前 之前")
_words(ZH, "ZH_AFTER", "以后 之后")
_words(
    ZH,
    "ZH_SINCE",
    "以来 迄今 到今天 到今日 到现在 到目前 至现在 至目前 至今天 至今日 起至今 起到现在 开始到现在 "
    "开始至今 以后至今",
)
_words(ZH, "ZH_TONOW", "至今")
_words(ZH, "ZH_ASOF", "截至 截止 截止到 截止至 截到 截至到")
_words(ZH, "ZH_UNTIL", "为止")
_words(ZH, "ZH_AROUND", "左右 前后 上下 前夕 附近 上下浮动")
_words(ZH, "ZH_ABOUT", "大约 大概 约 将近 接近 差不多")
_words(ZH, "ZH_EDGE", "初 初期 头 伊始 之初", "start")
_words(ZH, "ZH_EDGE", "底 末 终 尾 末期", "end")
_words(ZH, "ZH_MID", "中 中期")
_words(ZH, "ZH_HALF", "上半 前半", 1)
_words(ZH, "ZH_HALF", "下半 后半", 2)
_words(ZH, "ZH_FROM", "从 自 由 自从 打从 始于")
_words(ZH, "ZH_TO", "到 至 一直到 直到 一直至 截止到至")
_words(ZH, "ZH_AND", "和 与 及 以及 跟 、")
_words(ZH, "ZH_SAME", "同")
_words(ZH, "ZH_OR", "或 或者 还是")
_words(ZH, "ZH_QI", "起 开始")
_words(ZH, "ZH_HARMLESS", "全年 整年 全月 整月 全天 整天 全周 整周 整季 全季 当中 里")
_words(ZH, "ZH_WITHIN", "之内 以内 内")
_words(ZH, "ZH_FINAL", "最后 最末 最终")
_words(
    ZH,
    "EXCL_TODAY",
    "不含今天 不包括今天 不包含今天 不计今天 不算今天 除去今天 不含今日 不包括今日 不含当天 "
    "不包括当天 排除今天",
)
_words(ZH, "ZH_FIRST", "首")
_words(
    ZH,
    "NEGATION",
    "除了 除去 除开 不含 不包括 不包含 不计 不算 排除 剔除 扣除 不是 并非 而非 去掉 去除",
)
_words(ZH, "ZH_HARMLESS", "期间", "span")
_words(ZH, "ZH_REMAIN", "剩余 剩下 余下 剩下的 剩余的 余下的")
_words(ZH, "ZH_EVERY", "每 各 逐 每个 每一")  # 分 is the clock minute (FEN); 分月 a step
_words(ZH, "ZH_DE", "的")
_words(ZH, "ZH_BIGGER", "大于 小于 超过 不到 晚于 早于 不早于 不晚于 不超过 至少 最多 最早 最晚")
_words(
    ZH,
    "ZH_ORLATER",
    "以上 以下 之上 之下 或更早 或更晚 或以后 或以前 及以后 及以前 及之后 及之前 或之后 或之前",
)
_words(ZH, "COMPARE", "同比 环比 相比 相较 较 比 较上 相比于 较之")
_words(ZH, "COMPARE_ONLY", "对比 比较 对照")
_words(ZH, "TREND", "趋势 变化 走势 变动 波动")
# Step words (SPEC §4): 按月, 每月, 各月, 分月, 逐月, 月度, 每个月 … and finer than a day.
for _step, _chars in (
    ("day", "天日"),
    ("week", "周"),
    ("month", "月"),
    ("quarter", "季"),
    ("year", "年"),
):
    for _char in _chars:
        for _head in ("按", "每", "逐", "各", "分", "每个", "按个"):
            ZH[_head + _char] = ("STEP", _step)
for _word in (
    "按季度",
    "每季度",
    "各季度",
    "分季度",
    "逐季度",
    "每个季度",
    "按星期",
    "每星期",
    "各星期",
    "每个星期",
    "每礼拜",
    "按礼拜",
    "按日期",
    "逐天",
    "月度",
    "每个月份",
    "按月份",
    "各月份",
    "分月份",
    "按年度",
    "各年度",
    "逐年度",
    "分年度",
    "每年度",
):
    _step = (
        "quarter"
        if "季" in _word
        else "week"
        if "星期" in _word or "礼拜" in _word
        else "day"
        if "天" in _word or "日" in _word
        else "month"
        if "月" in _word
        else "year"
    )
    ZH[_word] = ("STEP", _step)
_words(
    ZH,
    "STEPFINE",
    "按小时 每小时 逐小时 各小时 分小时 按分钟 每分钟 逐分钟 按秒 每秒 小时级 分钟级 每时",
)
# One-word relative days and periods: 昨天 (-1 day), 本月 (0 month), 上上个季度 (-2 quarter).
ZH_RELDAYS = {
    "昨天": -1, "昨日": -1, "前天": -2, "前日": -2, "大前天": -3, "大前日": -3, "大大前天": -4,
    "大大前日": -4, "大大后天": 4, "大大后日": 4, "明天": 1,
    "明日": 1, "后天": 2, "后日": 2, "大后天": 3, "大后日": 3, "寻日": -1, "听日": 1,
}  # fmt: skip
ZH |= {word: ("RELDAY", offset) for word, offset in ZH_RELDAYS.items()}
_UNIT_WORDS: dict[Step, tuple[str, ...]] = {
    "week": ("周", "星期", "礼拜"),
    "month": ("月", "月份"),
    "quarter": ("季度", "季"),
    "year": ("年", "年度"),
}
for _head, _offset in (
    ("上上", -2),
    ("上", -1),
    ("下下", 2),
    ("下", 1),
    ("本", 0),
    ("这", 0),
    ("当", 0),
):
    for _unit, _forms in _UNIT_WORDS.items():
        for _form in _forms:
            for _middle in ("", "个", "一个", "一"):
                if _head in ("本", "当") and _middle:
                    continue  # 本个月 is no word
                if _unit == "year" and (_middle in ("个", "一个") or _head in ("当", "这")):
                    continue  # 上个年, 这年 are no words; 上一年, 这一年 are
                ZH[_head + _middle + _form] = ("RELPERIOD", (_offset, _unit))
ZH |= {
    "去年": ("RELPERIOD", (-1, "year")), "去年度": ("RELPERIOD", (-1, "year")),
    "前年": ("RELPERIOD", (-2, "year")), "大前年": ("RELPERIOD", (-3, "year")),
    "今年": ("RELPERIOD", (0, "year")), "今年度": ("RELPERIOD", (0, "year")),
    "本年": ("RELPERIOD", (0, "year")), "本年度": ("RELPERIOD", (0, "year")),
    "这一年": ("RELPERIOD", (0, "year")), "当年度": ("RELPERIOD", (0, "year")),
    "明年": ("RELPERIOD", (1, "year")), "明年度": ("RELPERIOD", (1, "year")),
    "后年": ("RELPERIOD", (2, "year")), "大后年": ("RELPERIOD", (3, "year")),
    "上年": ("RELPERIOD", (-1, "year")), "上一年": ("RELPERIOD", (-1, "year")),
    "上一年度": ("RELPERIOD", (-1, "year")), "下年": ("RELPERIOD", (1, "year")),
    "下一年": ("RELPERIOD", (1, "year")), "当月": ("RELPERIOD", (0, "month")),
    "当季": ("RELPERIOD", (0, "quarter")), "当季度": ("RELPERIOD", (0, "quarter")),
    "当周": ("RELPERIOD", (0, "week")), "今个月": ("RELPERIOD", (0, "month")),
    "今个星期": ("RELPERIOD", (0, "week")), "今个礼拜": ("RELPERIOD", (0, "week")),
    "今星期": ("RELPERIOD", (0, "week")), "今礼拜": ("RELPERIOD", (0, "week")),
}  # fmt: skip
# Words holding a time character that are no time (the longest word wins in the tokenizer).
_words(
    ZH,
    "OK_WORD",
    "天猫 天津 天然 天气 天下 天空 天使 天地 天才 天花板 天天 每天天 今日头条 日本 日元 日志 日常 "
    "日用 日化 日均 日活 日报 日程 日期 日历 日照 月薪 月饼 月光 月均 月活 月球 月亮 月报 年轻 "
    "年龄 "
    "年纪 年薪 年费 年化 年均 年报 年货 年限 周转 周边 周围 周到 周杰伦 周期 周岁 周长 周均 "
    "周报 季军 季报 分析 分类 分布 分数 分公司 分店 分组 分区 部分 分别 分配 分成 分享 分行 "
    "分部 百分 点击 一点 重点 地点 特点 点赞 观点 点评 时间 时候 时尚 时段 同时 及时 小时候 "
    "时长 时效 时代 时期 有时 临时 准时 按时 时刻 立刻 深刻 刻意 秒杀 秒懂 号码 型号 账号 编号 "
    "信号 口号 挂号 序号 符号 称号 代号 旬邑 上市 上海 上线 上升 上涨 上游 上级 上方 上述 "
    "以上年 下降 下单 下载 下线 下属 下游 下方 下述 本身 本地 本科 本金 本人 本次 本店 本公司 "
    "本品 这些 这样 当地 当然 前台 前端 前景 前列 后台 后端 后续 后果 中国 中心 中间 其中 "
    "中的 底部 底层 末尾 期货 期权 期望 星巴克 春装 秋装 冬装 夏装 青春 一天到晚 "
    "明星 明细 明确 春晚 现在时 过去时 将来时 过去式 数量 数据 数字 数额 数目 多少 多个 多家 "
    "到货 到账 到店 到达 到位 到手 按年龄 年龄段 上月份额 一级 二级 三级 一下 相比之下 总之 "
    "以下简称 如下 以下是 上下游 以上是 以上的 上述 "
    # number words inside ordinary words, and names holding calendar characters (SPEC §4.3)
    "一共 一起 统一 万一 一般 一样 一致 一定 一切 一再 一律 唯一 一些些 一直 一旦 一边 一番 "
    "一次性 一下子 一会儿 明日方舟 星期天超市 今日说法 今日关注 明日之后",
)
# A zone named in the text (昨天（北京时间）): it governs the expression (SPEC §4.3); read as a
# zone word, so an expression beside it is never settled in another zone.
_words(
    ZH,
    "TZWORD",
    "北京时间 东京时间 纽约时间 伦敦时间 巴黎时间 柏林时间 悉尼时间 香港时间 台北时间 新加坡时间 "
    "首尔时间 莫斯科时间 美东时间 美西时间 美国东部时间 美国西部时间 太平洋时间 东部时间 中部时间 "
    "山地时间 当地时间 本地时间 格林尼治时间 格林威治时间 协调世界时 世界时 东八区 西五区 东九区 "
    "零时区 洛杉矶时间 旧金山时间 芝加哥时间 迪拜时间 印度时间 日本时间 中国时间",
)

# Holidays of the world the grammar does not read (SPEC §4.2 (a): holiday names are time-like;
# a text naming one settles nothing). Names of one word go into EN, of several into phrases.
WORLD_HOLIDAYS = """
diwali, deepavali, holi, onam, navratri, navaratri, dussehra, dasara, durga puja, ganesh chaturthi,
janmashtami, raksha bandhan, rakhi, makar sankranti, pongal, ugadi, yugadi, vaisakhi, baisakhi,
lohri, bihu, chhath, karva chauth, mahashivratri, maha shivaratri, ram navami, rama navami,
mahavir jayanti, buddha purnima, vesak, gandhi jayanti, guru nanak jayanti, guru purnima,
vasant panchami, basant panchami, holika dahan, chhoti holi, dhanteras, bhai dooj, govardhan puja,
eid, eid al-fitr, eid ul-fitr, eid al-adha, eid ul-adha, bakrid, muharram, ashura, mawlid,
ramadan, ramazan, laylat al-qadr, isra and miraj, nowruz, navroz, norouz,
hanukkah, chanukah, passover, pesach, rosh hashanah, yom kippur, sukkot, shavuot, purim,
simchat torah, shemini atzeret, tu bishvat, lag baomer, tisha bav, yom haatzmaut,
lent, ash wednesday, palm sunday, maundy thursday, holy thursday, holy saturday, holy week,
easter monday, pentecost, whitsun, whit monday, ascension day, corpus christi, all saints,
all saints' day, all souls' day, advent, epiphany, candlemas, shrove tuesday, pancake day,
mardi gras, carnival, orthodox easter, orthodox christmas, good friday, boxing day,
kwanzaa, juneteenth, cinco de mayo, bastille day, canada day, australia day, anzac day,
waitangi day, guy fawkes, bonfire night, victoria day, remembrance day, armistice day,
veterans day, memorial day weekend, presidents day, president's day, columbus day,
indigenous peoples day, martin luther king day, mlk day, flag day, patriots day, tax day,
earth day, arbor day, groundhog day, april fools, april fool's day, koningsdag, king's day,
queen's birthday, emancipation day, heritage day, youth day, freedom day, workers day,
labour day weekend, bank holiday, oktoberfest, thanksgiving weekend, black saturday,
small business saturday, cyber monday, giving tuesday, prime day, singles day sale,
world cup, super bowl, olympics, chinese valentine, dragon boat, obon, golden week,
tet, songkran, chuseok, seollal, vesak day, hari raya, deepavali, trinity sunday, whitsunday,
assumption day, annunciation, transfiguration, great fast, great lent, yom hashoah, yom hazikaron,
tisha b'av, lag b'omer, hanuka, succot, sukkos, feast of tabernacles, feast of the ingathering,
sacrifice feast, bakr id, bakra eid, id ul-adha, laylat al kadr, night of power, amun jadid,
islamic new year, hijri new year, jamat ul-vida, jumu'atul-wida, isra and mi'raj,
lailat al miraj, prophet's birthday, the prophet's ascension, ascension to heaven, lakshmi puja,
kali puja, dala puja, chhath puja, surya shashthi, maha saptami, maha ashtami, maha navami,
vijayadashami, ratha-yatra, rath yatra, mahaveer janma kalyanak, saraswati jayanti,
saraswati puja, makara sankranthi, bogi pandigai, maghi, vasakhi, vaishakhi, thiruvonam,
thiru onam, kamudu pyre, gokulashtami, dhulandi, phagwah, gysd, global youth service day,
samvatsaradi, chaitra sukladi, chaitra sukhladi, dhanatrayodashi, kali chaudas, jamshedi navroz,
holy spirit, covenant thursday, thursday of mysteries
"""
# Words that head holiday names the lexicon cannot list one by one (rabindra jayanti, durga
# puja, maha navami, rosh hashana): any such word is time-like.
HOLIDAY_HEADS = (
    "jayanti puja diwas purnima navami ashtami chaturthi sankranti sankranthi saptami dashami "
    "dashmi shashthi panchami ekadashi amavasya chaudas trayodashi mela yatra utsav pandigai "
    "kalyanak diwali holi eid navroz nowruz hashana hashanah hashanna rosh yom hanukkah hanukah "
    "hannukkah chanukah purim shavuot sukkot succos ramadan ramzan muharram mawlid lent "
    "pentecost whitsun epiphany advent trinity shrovetide lohri bihu pongal onam covenant "
    "mysteries ascension"
)
# English words.
EN = Words()
_named(EN, "E_YEAR", "year years yr yrs")
_named(EN, "E_QUARTER", "quarter quarters qtr qtrs")
_named(EN, "E_MONTH", "month months")
_named(EN, "E_WEEK", "week weeks wk wks")
_named(EN, "E_DAY", "day days")
_named(EN, "E_HOUR", "hour hours hr hrs")
_named(EN, "E_MINUTE", "minute minutes min mins")
_words(EN, "SECOND", "seconds sec secs")
_words(EN, "FORTNIGHT", "fortnight fortnights")
_words(EN, "ERA", "decade decades century centuries millennium")
_words(EN, "OCLOCK", "o'clock oclock")
_named(EN, "AMPM", "am pm")
_named(
    EN,
    "DAYPART",
    "morning mornings afternoon afternoons evening evenings night nights tonight tonite noon "
    "midnight dawn dusk overnight lunchtime lunch breakfast dinner brunch daytime nighttime "
    "sunrise sunset eod cob",
)
_words(EN, "WEEKEND", "weekend weekends wkend wknd wkends")
_words(
    EN,
    "TZWORD",
    "gmt utc cet cest est edt pst pdt cst cdt mst mdt bst ist jst kst aest hkt sgt timezone",
)
_words(EN, "ERA", "bce")
_words(EN, "NEGATION", "excluding exclude excludes excluded except excepting not without besides")
_words(EN, "ERAWEAK", "bc ad ce")
_words(EN, "HOURWEAK", "h hs")
EN_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11,
    "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip
EN |= {word: ("MONTHNAME", value) for word, value in EN_MONTHS.items()}
EN_WEEKDAYS = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5,
    "sat": 5, "sun": 6, "sunday": 6, "mondays": 0, "tuesdays": 1, "wednesdays": 2,
    "thursdays": 3, "fridays": 4, "saturdays": 5, "sundays": 6,
}  # fmt: skip
EN |= {word: ("WEEKDAY", value) for word, value in EN_WEEKDAYS.items()}
_words(
    EN,
    "SEASON",
    "summer summers winter winters autumn autumns springtime summertime wintertime season seasons "
    "seasonal",
)
_words(EN, "SEASONWEAK", "spring fall")
_words(EN, "FISCAL", "fiscal fy financial")
_words(
    EN,
    "VAGUE",
    "recently lately nowadays soon shortly meanwhile formerly previously someday sometime "
    "eventually whenever",
)
_words(
    EN,
    "OTHERDAY",
    "holiday holidays festival festivals feast feasts semester semesters term terms vacation "
    "vacations anniversary birthday "
    + HOLIDAY_HEADS
    + " "
    + " ".join(word for name in WORLD_HOLIDAYS.split(",") if (word := name.strip()).isalpha()),
)
EN |= {"yesterday": ("RELDAY", -1), "tomorrow": ("RELDAY", 1), "tmrw": ("RELDAY", 1)}
_named(EN, "NOW", "now today currently current realtime real-time")
_words(EN, "LATEST", "latest")
_words(EN, "TTM", "ttm ltm")
EN |= {
    "ytd": ("XTD", "year"),
    "mtd": ("XTD", "month"),
    "qtd": ("XTD", "quarter"),
    "wtd": ("XTD", "week"),
}
EN |= {
    "daily": ("STEP", "day"), "weekly": ("STEP", "week"), "monthly": ("STEP", "month"),
    "quarterly": ("STEP", "quarter"), "yearly": ("STEP", "year"), "annual": ("STEP", "year"),
    "annually": ("STEP", "year"), "biweekly": ("STEPFINE", None), "hourly": ("STEPFINE", None),
}  # fmt: skip
_words(EN, "TREND", "trend trends trending")
_words(EN, "COMPARE", "yoy mom qoq wow vs versus compared against")
_words(EN, "LAST", "last")
_words(EN, "PREVIOUS", "previous prior preceding")
_words(EN, "NEXT", "next")
_words(EN, "THIS", "this")
_words(EN, "COMING", "coming upcoming following forthcoming")
_words(EN, "PAST", "past recent trailing")
_words(EN, "AGO", "ago back")
_words(EN, "LATER", "later hence")
_words(EN, "EARLIER", "earlier")
_words(EN, "BEFORE", "before prior-to")
_words(EN, "AFTER", "after afterwards")
_words(EN, "UNTIL", "until till til")
_words(EN, "THROUGH", "through thru throughout")
_words(EN, "SINCE", "since")
_words(EN, "FROM", "from")
_words(EN, "TO", "to")
_words(EN, "BETWEEN", "between")
_words(EN, "AND", "and")
_words(EN, "OR", "or")
_words(EN, "BY", "by per each every")
_words(
    EN,
    "AROUND",
    "around about approximately approx roughly circa near nearly almost closest nearest",
)
_words(EN, "ORLATER", "ish")
_words(EN, "MID", "mid middle")
_words(EN, "EARLY", "early")
_words(EN, "LATE", "late")
_words(EN, "END", "end ending close")
_words(EN, "BEGIN", "beginning start starting begin")
_words(EN, "REST", "rest remainder")
_words(EN, "OF", "of")
_words(EN, "THE", "the")
_words(EN, "IN", "in")
_words(EN, "ON", "on")
_words(EN, "AT", "at")
_words(EN, "WITHIN", "within during")
_words(EN, "FOR", "for")
_words(EN, "OVER", "over")
_words(EN, "AS", "as")
_words(EN, "SO", "so")
_words(EN, "FAR", "far")
_words(EN, "DATE", "date present")
_words(EN, "ONWARDS", "onwards onward")
_words(EN, "FEW", "few several many couple")
_words(EN, "SAME", "same")
_words(EN, "HALF", "half")
_words(EN, "ART", "a an")
EN |= {word: ("ENN", value) for word, value in EN_CARDINALS.items()}
EN |= {word: ("ENN", value) for word, value in EN_SCALES.items()}
EN |= {word: ("ORDW", value) for word, value in EN_ORDINALS.items()}
# English holidays (SPEC §4.1, §4.2), written with single spaces between words.
EN_HOLIDAYS = {
    "new year's day": "new_year", "new years day": "new_year", "new year day": "new_year",
    "new year's eve": "new_years_eve", "new years eve": "new_years_eve",
    "spring festival": "spring", "chinese new year": "spring", "lunar new year": "spring",
    "lantern festival": "lantern", "may day": "labour", "labour day": "labour",
    "international workers' day": "labour", "dragon boat festival": "dragon_boat",
    "qixi festival": "qixi", "qixi": "qixi", "mid-autumn festival": "mid_autumn",
    "mid autumn festival": "mid_autumn", "moon festival": "mid_autumn",
    "national day": "national", "singles' day": "double_11", "singles day": "double_11",
    "single's day": "double_11", "double 11": "double_11", "double eleven": "double_11",
    "double 12": "double_12", "double twelve": "double_12", "qingming festival": "qingming",
    "tomb-sweeping day": "qingming", "tomb sweeping day": "qingming",
    "christmas": "christmas", "xmas": "christmas", "christmas day": "christmas",
    "christmas eve": "christmas_eve", "xmas eve": "christmas_eve",
    "valentine's day": "valentine", "valentines day": "valentine", "valentine day": "valentine",
    "st valentine's day": "valentine", "saint valentine's day": "valentine",
    "halloween": "halloween", "independence day": "independence",
    "fourth of july": "independence", "4th of july": "independence",
    "st patrick's day": "st_patrick", "st. patrick's day": "st_patrick",
    "saint patrick's day": "st_patrick", "st patricks day": "st_patrick",
    "saint patricks day": "st_patrick", "st paddy's day": "st_patrick",
    "saint paddy's day": "st_patrick", "st. paddy's day": "st_patrick",
    "saint patrick": "st_patrick", "st patrick": "st_patrick", "st. patrick": "st_patrick",
    "saint patricks": "st_patrick", "st patricks": "st_patrick", "st. patricks": "st_patrick",
    "saint patrick's": "st_patrick", "st patrick's": "st_patrick",
    "chinese new year's day": "spring", "chinese lunar new year's day": "spring",
    "chinese lunar new year": "spring", "lunar new year's day": "spring",
    "easter": "easter", "easter sunday": "easter", "easter day": "easter",
    "thanksgiving": "thanksgiving", "thanksgiving day": "thanksgiving",
    "black friday": "black_friday", "memorial day": "memorial", "labor day": "us_labor",
    "mother's day": "mother", "mothers day": "mother", "mother day": "mother",
    "father's day": "father", "fathers day": "father", "father day": "father",
    "women's day": "women", "international women's day": "women", "children's day": "children",
    "teachers' day": "teacher", "teacher's day": "teacher", "teachers day": "teacher",
    "double ninth festival": "chongyang", "chinese valentine's day": "qixi",
}  # fmt: skip
EN_OTHERDAYS = (
    "cyber monday",
    "boxing day",
    "good friday",
    "ash wednesday",
    "palm sunday",
    "martin luther king day",
    "mlk day",
    "presidents day",
    "presidents' day",
    "columbus day",
    "veterans day",
    "earth day",
    "april fools",
    "april fool's day",
    "groundhog day",
    "new year",
    "new years",
    "new year's",
    "spring break",
    "back to school",
    "prime day",
    "super bowl",
    "golden week",
    "year end",
    "year-end",
    "month end",
    "month-end",
    "quarter end",
    "quarter-end",
    "week end",
)
EN_PHRASES = Words()
EN_PHRASES |= {name: ("HOLIDAY", key) for name, key in EN_HOLIDAYS.items()}
EN_PHRASES |= dict.fromkeys(EN_OTHERDAYS, ("OTHERDAY", None))
EN_PHRASES |= {
    name.strip(): ("OTHERDAY", None)
    for name in WORLD_HOLIDAYS.split(",")
    if not name.strip().isalpha() and name.strip() not in EN_PHRASES
}
EN_PHRASES |= {
    "b.c.": ("ERA", None),
    "a.d.": ("ERA", None),
    "b.c": ("ERA", None),
    "a.d": ("ERA", None),
    "ides of march": ("OTHERDAY", None),
    "the ides": ("OTHERDAY", None),
}
EN_PHRASES |= {
    "a.m.": ("AMPM", "am"), "p.m.": ("AMPM", "pm"), "a.m": ("AMPM", "am"),
    "p.m": ("AMPM", "pm"), "right now": ("NOW", "now"), "as of now": ("NOW", "now"),
    "as of today": ("NOW", "now"), "at present": ("NOW", "now"),
    "at the moment": ("NOW", "now"), "real time": ("NOW", "now"), "as of": ("ASOF", None),
    "as at": ("ASOF", None), "same period": ("VAGUE", "compared"),
    "excluding today": ("EXCL_TODAY", None), "not counting today": ("EXCL_TODAY", None),
    "not including today": ("EXCL_TODAY", None), "except today": ("EXCL_TODAY", None),
    "excluding the current day": ("EXCL_TODAY", None),
    "not counting": ("NEGATION", None), "not including": ("NEGATION", None),
    "other than": ("NEGATION", None), "apart from": ("NEGATION", None),
    "except for": ("NEGATION", None), "leaving out": ("NEGATION", None),
    "last weekend": ("WEEKEND_REL", -1), "past weekend": ("WEEKEND_REL", -1),
    "this past weekend": ("WEEKEND_REL", -1), "previous weekend": ("WEEKEND_REL", -1),
    "this weekend": ("WEEKEND_REL", 0), "next weekend": ("WEEKEND_REL", 1),
    "full week": ("E_WEEK", "week"), "full month": ("E_MONTH", "month"),
    "calendar week": ("E_WEEK", "week"), "calendar month": ("E_MONTH", "month"),
    "complete week": ("E_WEEK", "week"), "complete month": ("E_MONTH", "month"),
    "new york time": ("TZWORD", None), "beijing time": ("TZWORD", None),
    "london time": ("TZWORD", None), "tokyo time": ("TZWORD", None),
    "local time": ("TZWORD", None), "pacific time": ("TZWORD", None),
    "eastern time": ("TZWORD", None), "central time": ("TZWORD", None),
    "mountain time": ("TZWORD", None), "paris time": ("TZWORD", None),
    "berlin time": ("TZWORD", None), "sydney time": ("TZWORD", None),
    "singapore time": ("TZWORD", None), "china time": ("TZWORD", None),
    "shanghai time": ("TZWORD", None), "hong kong time": ("TZWORD", None),
    "up to date": ("OTHER", None), "up-to-date": ("OTHER", None),
    "so far": ("SO", None), "to date": ("DATE", "to date"), "up to": ("UNTIL", None),
    "prior to": ("BEFORE", None), "earlier than": ("BEFORE", None),
    "later than": ("AFTER", None), "no later than": ("BEFORE", None),
    "no earlier than": ("AFTER", None), "or later": ("ORLATER", None),
    "or earlier": ("ORLATER", None), "or after": ("ORLATER", None),
    "or before": ("ORLATER", None), "and later": ("ORLATER", None),
    "and after": ("ORLATER", None), "and earlier": ("ORLATER", None),
    "and beyond": ("ORLATER", None), "or so": ("ORLATER", None), "-ish": ("ORLATER", None),
    "or more": ("OTHER", None), "as well as": ("AND", None), "how about": ("OTHER", None),
    "what about": ("OTHER", None),
    "compared to": ("COMPARE", None), "compared with": ("COMPARE", None),
    "year over year": ("COMPARE", None), "year-over-year": ("COMPARE", None),
    "month over month": ("COMPARE", None), "month-over-month": ("COMPARE", None),
    "quarter over quarter": ("COMPARE", None), "quarter-over-quarter": ("COMPARE", None),
    "week over week": ("COMPARE", None), "week-over-week": ("COMPARE", None),
    "w/c": ("WEEKOF", None), "week commencing": ("WEEKOF", None),
    "week beginning": ("WEEKOF", None), "week starting": ("WEEKOF", None),
    "a few": ("FEW", None), "a couple of": ("ENN", 2), "a couple": ("ENN", 2),
    "a pair of": ("ENN", 2), "a dozen": ("ENN", 12), "a while": ("VAGUE", None),
    "some time": ("VAGUE", None), "the other day": ("VAGUE", None),
    "most recent": ("PAST", None), "the latest": ("LATEST", None),
    "from now": ("LATER", None), "in the future": ("VAGUE", None),
    "year to date": ("XTD", "year"), "year-to-date": ("XTD", "year"),
    "month to date": ("XTD", "month"), "month-to-date": ("XTD", "month"),
    "quarter to date": ("XTD", "quarter"), "quarter-to-date": ("XTD", "quarter"),
    "week to date": ("XTD", "week"), "week-to-date": ("XTD", "week"),
    "per hour": ("STEPFINE", None), "per minute": ("STEPFINE", None),
    "by hour": ("STEPFINE", None), "by the hour": ("STEPFINE", None),
    "every hour": ("STEPFINE", None), "each hour": ("STEPFINE", None),
    "by minute": ("STEPFINE", None), "every minute": ("STEPFINE", None),
    "day over day": ("COMPARE", None), "day-over-day": ("COMPARE", None),
}  # fmt: skip
for _unit in STEPS:
    for _by in ("by", "per", "each", "every", "by the", "for each", "for every"):
        EN_PHRASES[f"{_by} {_unit}"] = ("STEP", _unit)
        # every 2 weeks: a step nobody can give
for _unit in STEPS:
    EN_PHRASES[f"{_unit} by {_unit}"] = ("STEP", _unit)
    EN_PHRASES[f"{_unit}-by-{_unit}"] = ("STEP", _unit)
    EN_PHRASES[f"{_unit}-on-{_unit}"] = ("COMPARE", None)
    EN_PHRASES[f"{_unit} on {_unit}"] = ("COMPARE", None)

# Words after which "may" is the month (sales in may), not the verb (what may happen).
MAY_AFTER = frozenset(
    [
        "in",
        "since",
        "from",
        "to",
        "until",
        "till",
        "through",
        "of",
        "between",
        "and",
        "during",
        "by",
        "before",
        "after",
        "early",
        "late",
        "mid",
        "last",
        "this",
        "next",
        "since",
        "for",
        "on",
    ]
)


def words_of(tables: Iterable[dict[str, Entry]]) -> list[str]:
    """Every word of some tables, longest first (the tokenizer tries them in this order)."""
    return sorted({word for table in tables for word in table}, key=len, reverse=True)
