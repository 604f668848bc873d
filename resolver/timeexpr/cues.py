"""Time cues: every word of a text that says something about time (SPEC §4.1, "Never settle
half a question").

The scanner settles a window only when each cue of the text lies inside what it understood
(an expression, a step, trend or comparison word, an instant word). A cue left over — 财年,
去年同期 alone, 最近几个月, 春节前后, 圣诞节, a second window it cannot join — means the text
asks something the scanner did not read, and it settles nothing.

The lexicon is deliberately wider than the scanner: it lists what a time question can hold,
not what the scanner knows. A cue the scanner also reads costs nothing; a cue it does not read
turns a confident wrong window into a 422 or an LLM call. It is grouped by what makes a cue:

- a count with a time unit: 3个月, 几天, 若干年, 24小时, 5个交易日, 2024年, 三季度;
- a relative word with a unit: 今年, 上个月, 次日, 同期, 本期, 历年, 当天;
- words of their own: festivals (known or not), 财年, 近期, 一段时间, 周末, 工作日, 上午,
  seasons, holidays, 以来, 之前, 最近 alone;
- edges and approximations after a time word: 年初, 月底, 春节前后, 3月15日左右, 2024年以前;
- times of day (10:30, 3点钟); English unit words, month and weekday names, years, FY, Q1.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

_NUM = r"(?:[0-9]+|[零〇一二两三四五六七八九十百千]+)多?|几|若干|半|好几|些"
_UNITS = (
    r"年|个?月份?|个?季度?|个?星期|个?礼拜|双周|周|天|日|小时|钟头|分钟|旬"
    r"|个?(?:工作|交易|营业|自然)日"
)
_RELATIVE = (
    r"(?:上上|下下|上|下|本|这|那|当|次|翌|同|前|后|去|今|明|昨|往|历|隔)\s*(?:一\s*)?(?:个\s*)?"
    r"(?:年度?|季度?|月份?|周|星期|礼拜|天|日|旬|期)"
)
_KNOWN_FESTIVALS = (
    "元旦|春节|农历新年|大年初一|元宵|劳动节|五一|端午|七夕|中秋|国庆"
    "|双十一|双11|双十二|双12|六一八"
)
_OTHER_FESTIVALS = (
    "除夕|清明|重阳|腊八|小年|寒食|冬至|夏至|立春|立夏|立秋|立冬|春分|秋分|情人节|圣诞|平安夜|"
    "感恩节|万圣|复活节|黑五|黑色星期五|妇女节|三八节|儿童节|六一|建军节|建党节|教师节|父亲节|"
    "母亲节|植树节|愚人节|跨年|双旦|双节|年货节|光棍节|购物节|狂欢节|女神节|女王节|青年节|"
    "护士节|中元|龙抬头|开斋节|泼水节|大促|店庆|节假日|节日|过节|节前|节后"
)
_WORDS = (
    "财年|财季|财务年度|会计年度|会计期间|同期|近期|近来|近日|近段|近些|日前|迄今|以来|至今|"
    "一段时间|这段时间|那段时间|段时间|一阵子|这阵子|这些天|那些天|若干|此前|此后|之前|以前|"
    "之后|以后|以往|最近|过去|假日|假期|长假|小长假|黄金周|寒假|暑假|周末|工作日|交易日|营业日|"
    "休息日|双休日|季节|旺季|淡季|春季|夏季|秋季|冬季|春天|夏天|秋天|冬天|凌晨|早上|早晨|上午|"
    "中午|下午|傍晚|晚上|夜间|夜里|白天|今晚|昨晚|明晚|半夜|深夜|时段|时间段|高峰期|期间|"
    "期初|期末|年终|年报|月报|周报|季报|点钟"
)


def _by_first(words: str) -> str:
    """Literal alternatives grouped by their first character (`re` tries each alternative in
    turn: one test per group instead of one per word), longest first within a group."""
    groups: dict[str, list[str]] = {}
    for word in sorted(set(words.split("|")), key=len, reverse=True):
        groups.setdefault(word[0], []).append(re.escape(word[1:]))
    return "|".join(f"{re.escape(first)}(?:{'|'.join(rest)})" for first, rest in groups.items())


_ZH_CUES = (
    rf"(?:{_NUM})\s*(?:个\s*)?(?:{_UNITS})"
    rf"|{_RELATIVE}"
    r"|(?:周|星期|礼拜)[一二三四五六日天末]|(?<=周|期|拜)[一二三四五六日天末]"
    rf"|{_by_first(f'{_KNOWN_FESTIVALS}|{_OTHER_FESTIVALS}|{_WORDS}')}"
    # after a time word: 春节前后, 3月15日左右, 2024年以前, 10天后
    r"|(?<=[年月日号天周季度份节旬末初底期时钟来今0-9午庆秋宵夕旦一二三四五六七八九十])\s*"
    r"(?:前后|左右|上下|之前|以前|之后|以后|前夕|前|后)"
    # edges of a period: 年初, 月底, 季末, 年中 (not 年中国)
    r"|(?<=[年月季度份周期0-9])(?:初|底|末|终)|(?<=[年月])中(?=$|[的，,。；;\s])"
)
# Digits, in any language: times of day, years, 618.
_DIGIT_CUES = (
    r"[0-9]{1,2}\s*[:：]\s*[0-9]{2}|(?<![0-9a-z_.])(?:19|20|21)[0-9]{2}(?![0-9])"
    r"|(?<![0-9.])618(?![0-9])"
)
# Most characters start no cue: a class of every character the cues hold lets `re` skip the
# alternation there (3× faster on a typical query).
_STARTS = "".join(
    sorted(
        {word[0] for word in f"{_KNOWN_FESTIVALS}|{_OTHER_FESTIVALS}|{_WORDS}".split("|")}
        | set("零〇一二两三四五六七八九十百千几若半好些")  # counts
        | set("上下本这那当次翌同前后去今明昨往历隔")  # relative words
        | set("周星礼日天末")  # weekdays, and their tail after 每周
        | set("前左上之以后初底末终中")  # approximations and edges after a time word
    )
)
_ZH = re.compile(f"(?=[0-9\\s{_STARTS}])(?:{_ZH_CUES}|{_DIGIT_CUES})", re.ASCII)
_DIGITS = re.compile(f"(?=[0-9])(?:{_DIGIT_CUES})", re.ASCII)

# English cue words ("may" is left out: mostly the verb) and phrases.
_EN_WORD_LIST = """day days week weeks month months quarter quarters year years yr yrs hour hours hr
    hrs minute minutes min mins fortnight fortnights decade decades weekend weekends weekday
    weekdays today tomorrow tonight yesterday ago since until till recent recently lately
    fiscal ytd mtd qtd wtd ltm ttm morning mornings afternoon afternoons evening evenings night
    nights overnight noon midnight season seasons seasonal semester semesters holiday holidays
    festival festivals christmas xmas thanksgiving easter halloween valentine valentines diwali
    ramadan hanukkah qixi q1 q2 q3 q4 h1 h2 period periods
    january february march april june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    monday tuesday wednesday thursday friday saturday sunday"""
_EN_WORDS = _by_first("|".join(_EN_WORD_LIST.split()))
# Letters, not \b, bound a word: q3christmas holds the cue christmas.
_EN = re.compile(
    rf"(?=[a-z])(?<![a-z])(?:(?:{_EN_WORDS}|fy[0-9]*|so\s+far|black\s+friday|cyber\s+monday)"
    r"(?![a-z])|(?:end|beginning|start|middle)\s+of\b|mid-)",
    re.ASCII,
)
# Right before something read: before/after/around March 2024 asks for more than March.
_EN_APPROX = re.compile(
    r"(?<![a-z])(?:around|about|approximately|roughly|circa|before|after|prior\s+to"
    r"|earlier\s+than|later\s+than|early|late|end\s+of|beginning\s+of|start\s+of"
    r"|middle\s+of)\s+(?:the\s+)?$",
    re.ASCII,
)
_LETTER = re.compile("[a-z]")
# One search per gap: every cue of a text with CJK characters, or of an ASCII one.
_ANY_TEXT = re.compile(f"{_ZH.pattern}|{_EN.pattern}", re.ASCII)
_ASCII_TEXT = re.compile(f"(?=[0-9a-z])(?:{_DIGITS.pattern}|{_EN.pattern})", re.ASCII)


def cues(text: str) -> Iterator[tuple[int, int]]:
    """Yield the span of every time cue in a normalised text (lower case, ASCII folded)."""
    ascii_only = text.isascii()
    for found in (_DIGITS if ascii_only else _ZH).finditer(text):
        yield found.start(), found.end()
    if ascii_only or _LETTER.search(text) is not None:
        for found in _EN.finditer(text):
            yield found.start(), found.end()


def first_unread(text: str, read: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """Return the first cue that starts outside the `read` spans (sorted, merged), or None.

    A cue starting inside a span is part of what was read (the words of a cue that runs on
    past a span, 每周一 or 上周末, are cues of their own: 一 after 周, 末 after 周). Only the
    gaps between the spans are searched: most of a text is read."""
    size = len(text)
    if text.isascii():
        pattern, english = _ASCII_TEXT, True
    elif _LETTER.search(text) is not None:
        pattern, english = _ANY_TEXT, True
    else:
        pattern, english = _ZH, False
    done = 0  # the end of the last read span
    for lo, hi in (*read, (size, size)):
        if done < lo:
            # One more character: 年中 looks at what follows it.
            found = pattern.search(text, done, lo + 1 if lo < size else size)
            if found is not None and found.start() < lo:
                return found.span()
            if english and lo < size and (found := _EN_APPROX.search(text, done, lo)):
                return found.span()
        done = max(done, hi)
    return None


def merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sort spans and merge those that overlap or touch."""
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged
