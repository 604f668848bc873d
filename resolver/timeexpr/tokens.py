"""Text → tokens, in one left-to-right pass driven by the lexicon.

Each token has a class code (`lexicon.CODE`), a value and its span in the normalised text.
What lies between two tokens becomes a gap token of its own: `SPACE` (only white space) or
`BAR` (anything the lexicon does not know). Joined, the tokens' codes form a string in which
the grammar's regular expressions find phrases; a match's span there is a span of tokens.

Linear in the text: `finditer` over one pattern whose alternatives are literal words grouped
by first character (English phrases, Chinese words) and bounded runs (digits, letters,
numerals). Tokens are kept as parallel arrays (`Tokens`): a text is read token by token on
every cold read, and a tuple per token costs more than the whole lookup.
"""

from __future__ import annotations

import re

from resolver.timeexpr.lexicon import (
    CODE,
    EN,
    EN_CARDINALS,
    EN_MONTHS,
    EN_PHRASES,
    KIND,
    MAY_AFTER,
    PLAIN_NUMBER_WORDS,
    WHOLE_AFTER_NUMBER,
    ZH,
    ZH_NUMERAL_CHARS,
    zh_digits,
    zh_number,
)
from resolver.timeexpr.numbers import AGE, RANKING, numbers
from resolver.timeexpr.tokenlist import Tokens

_SYMBOLS = {
    "-": "DASH", "~": "DASH", "/": "SLASH", ".": "DOT", ",": "COMMA", ";": "COMMA",
    "；": "COMMA", "。": "COMMA", "!": "COMMA", "?": "COMMA", "？": "COMMA", "！": "COMMA",
    ":": "COLON", ">": "CMP", "<": "CMP", "≥": "CMP", "≤": "CMP", "=": "CMP", "+": "PLUS",
    "$": "MONEY", "¥": "MONEY", "€": "MONEY", "£": "MONEY", "%": "PERCENT", "#": "HASH",
    "'": "APOS", "、": "ZH_AND", "(": "COMMA", ")": "COMMA", '"': "COMMA", "“": "COMMA",
    "”": "COMMA", "「": "COMMA", "」": "COMMA", "【": "COMMA", "】": "COMMA", "&": "AND",
    "《": "COMMA", "》": "COMMA", "|": "COMMA", "\n": "COMMA", "[": "COMMA", "]": "COMMA",
    "≠": "CMP",
}  # fmt: skip


def _by_first(words: list[str]) -> str:
    """Literal alternatives grouped by first character, longest first in each group."""
    groups: dict[str, list[str]] = {}
    for word in sorted(set(words), key=len, reverse=True):
        groups.setdefault(word[0], []).append(re.escape(word[1:]).replace(r"\ ", r"\s+"))
    return "|".join(f"{re.escape(first)}(?:{'|'.join(rest)})" for first, rest in groups.items())


_ZH_WORDS = [word for word in ZH if word != "十一"]
# Every character a token can start with: `re` skips the others in C (most characters of a
# Chinese question start no token), instead of trying every alternative at each.
_STARTS = "".join(sorted({w[0] for w in ZH} | set(ZH_NUMERAL_CHARS) | set(_SYMBOLS)))
_PATTERN = re.compile(
    f"(?=[a-z0-9{re.escape(_STARTS)}])"
    f"(?:(?P<p>(?<![a-z0-9])(?:{_by_first(list(EN_PHRASES))}))(?![a-z])"
    r"|(?P<l>(?<![a-z])(?:(?:q|h|wk?)[0-9]{1,2}|fy[0-9]{2,4}|cy(?:19|20|21)?[0-9]{2})(?![0-9a-z]))"
    # 1e3, 10^400, 1_500, 0x10: a number no one reads part of (SPEC §4.3)
    r"|(?P<x>[0-9]+(?:e[+-]?[0-9]+|\^[0-9]+|_[0-9]+)+(?![0-9a-z])|0x[0-9a-f]+(?![0-9a-z])"
    r"|[0-9]{2,4}'?s(?![a-z]))"  # 2000s, 80's: a decade, never its first year
    r"|(?P<d>[0-9]{1,3}(?:,[0-9]{3})+(?![0-9,])|[0-9]+)(?:(?P<o>st|nd|rd|th)(?![a-z]))?"
    r"|(?P<w>[a-z]+(?:'[a-z]+)*'?)"
    # 十一 (National Day) only with a holiday word after it: alone it is eleven
    r"|(?P<z>十一(?=\s*(?:假期|黄金周|长假|小长假|期间|放假|国庆))"
    f"|{_by_first(_ZH_WORDS)})"
    f"|(?P<n>[{ZH_NUMERAL_CHARS}]+)"
    f"|(?P<s>[{re.escape(''.join(_SYMBOLS))}]))"
)
_SPACE = re.compile(r"\s+")
_CJK = re.compile("[\u3400-\u9fff]")
# Before 国庆, a country that is not China (美国国庆, 以色列国庆节): another National Day. Any
# other word before it (请问国庆期间) leaves it China's.
_FOREIGN = re.compile(
    r"(?:(?<!中)国|以色列|日本|印度|俄罗斯|加拿大|澳大利亚|新加坡|越南|意大利|西班牙|墨西哥|巴西|朝鲜"
    r"|瑞士|瑞典|挪威|芬兰|丹麦|荷兰|比利时|波兰|土耳其|埃及|南非|阿根廷|智利|秘鲁|古巴|希腊"
    r"|葡萄牙|爱尔兰|奥地利|匈牙利|捷克|乌克兰|蒙古|缅甸|老挝|柬埔寨|菲律宾|印尼|马来西亚|沙特|伊朗"
    r"|伊拉克|新西兰|巴基斯坦|孟加拉)\s*$"
)
# 3号店, 5号楼: a store or a building, not a day.
_NOT_AFTER_HAO = frozenset("店楼线门仓库机车房位窗口厅馆柜台桌院床栋球选")
_LABELS = {"q": "QLABEL", "h": "HLABEL", "w": "WLABEL", "f": "FISCAL"}
# A word the lexicon does not know that ends in 节 is a festival (光明节, 逾越节), unless 节
# begins another word (节约, 节目, 环节 is no festival either).
_FESTIVAL = re.compile(r"(?<![环细章关调情礼音季])[\u4e00-\u9fff]节(?![约目点奏能省制拍])")
# Nothing but punctuation after a word: "May", "sat.", "sun,".
_ALONE = re.compile(
    r"[\s.,;!?\"')\]」”》】…]*(?:(?:please|thanks|thank\s+you)[\s.,;!?\"')\]」”》】…]*)?"
    r"(?:[\u3400-\u9fff].*)?"  # sat. ，谢谢: Chinese after it is no English verb's object
)
# "this may take": a verb after "may" (an English word the lexicon does not know) makes it one.
_VERB_AFTER = re.compile(
    r"\s+(?:take|be|have|not|need|want|come|go|get|help|see|seem|vary|change|happen|include"
    r"|show|affect|cause|require|also|still|well|only|just|never|already)\b"
)
# "may" before a day (May 5, May twenty-nine, May 1st) or a year is the month.
_MAY_BEFORE = re.compile(
    r"[\s.,]*(?:[0-9]|(?:" + "|".join(sorted(EN_CARDINALS, key=len, reverse=True)) + r"|first"
    r"|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth"
    r"|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)\b)"
)


# No question anyone asks holds this many words that may be time (time words, numbers, links):
# past it, `tokenize` stops (and the text settles nothing), which bounds the work a hostile
# text can cause.
MAX_TIME_TOKENS = 200


def tokenize(text: str) -> Tokens:
    """Tokens of a normalised text (lower case, folded), gaps included. Runs of words the
    lexicon does not know are one token (`OTHER`): prose costs little to skip."""
    codes: list[str] = []
    values: list[object] = []
    starts: list[int] = []
    ends: list[int] = []
    columns = (codes, values, starts, ends)
    last = 0
    other = _OTHER
    budget = MAX_TIME_TOKENS
    position = 0
    while (match := _PATTERN.search(text, position)) is not None:
        start, end = match.span()
        position = end
        kind = match.lastgroup
        value: object
        if kind == "w":
            cls, value = _en_word(match.group(), text, start, codes)
            klass = CODE[cls]
            if (
                klass == other
                and codes
                and codes[-1] == other
                and _SPACE.fullmatch(text, last, start)
            ):
                ends[-1] = last = end  # one more unknown word: the run of them grows
                continue
        elif kind == "z":
            word = _zh_word(match.group(), text, start, end, columns)
            if word is None:
                continue  # 天猫, 分析, 3号店: no time, left in the gap (BAR) around them
            klass, value, end = word
            position = end
        elif kind == "n":
            end = _numeral_end(text, start, end)  # 上周二一共: 二, then 一共 (a plain word)
            position = end
            klass, value = _zh_numeral(text[start:end], text, start, end)
        elif kind in _DIGIT_GROUPS:
            klass, value = _digits(match.group("d"), match.group("o"))
        else:
            klass, value = _marked(kind, match.group(), text, end, codes)
        if start > last:
            _gap(text, last, start, columns)
        codes.append(klass)
        values.append(value)
        starts.append(start)
        ends.append(end)
        last = end
        budget -= klass not in _PLAIN
        if budget < 0:
            return Tokens("".join(codes), values, starts, ends, cut=True)
    if last < len(text):
        _gap(text, last, len(text), columns)
    tokens = Tokens("".join(codes), values, starts, ends)
    if _NUMBERED.search(tokens.codes) is not None:
        tokens = numbers(tokens, text)
    return tokens


_Columns = tuple[list[str], list[object], list[int], list[int]]
_PLAIN_STARTS = tuple(PLAIN_NUMBER_WORDS)
_PLAIN_FIRST = frozenset(word[0] for word in PLAIN_NUMBER_WORDS)
_COMMA_CODE = CODE["COMMA"]
# What may follow a full stop that ends a sentence: the end, a space, a closing quote/bracket.
_AFTER_STOP = re.compile(r"(?:$|[\s\"')\]」”》】,;!?.…])")
# A dot after these, before a number, abbreviates them (Aug. 2, Sept. 2024): not a full stop.
_DIGIT_AFTER = re.compile(r"\s*[0-9]")
_DAY_CODES = frozenset((CODE["D12"], CODE["D0"]))
_MONTH_AFTER = re.compile(r"\s*(?:" + "|".join(sorted(EN_MONTHS, key=len, reverse=True)) + r")\b")
_ABBREVIATED = frozenset(CODE[name] for name in ("MONTHNAME", "WEEKDAY", "AMPM"))


def _sentence_end(text: str, end: int, before: list[str]) -> bool:
    """Whether the dot ending at `end` ends a sentence (last month. / last Friday.) rather than
    joining a date (2024.3.15) or abbreviating a month before its day (Aug. 2)."""
    if _AFTER_STOP.match(text, end) is None:
        return False
    if before and before[-1] in _DAY_CODES and _MONTH_AFTER.match(text, end):
        return False  # 16. Nov. 2016: a day written with a dot
    following = _DIGIT_AFTER.match(text, end)
    return following is None or not before or before[-1] not in _ABBREVIATED


# An equals sign is a comparison only beside one (>=, <=, !=, =<, > =); alone it is plain.
_COMPARING = re.compile(r"[<>!≠≥≤]\s*$")
_COMPARED = re.compile(r"\s*[<>]")
_DIGIT_GROUPS = frozenset(("d", "o"))


def _comparing(text: str, end: int) -> bool:
    """Whether the equals sign ending at `end` stands beside another comparison sign
    (<=, > =, !=, ==, =<), spaces between or not: then it compares."""
    before = text[max(0, end - 9) : end - 1].rstrip()[-1:]  # a few spaces at most: linear
    after = text[end : end + 8].lstrip()[:1]
    return (before != "" and before in "<>!=≥≤≠") or after in ("<", ">", "=")


# twenty second, thirty-second: an ordinal (the 22nd), not the unit after a count.
_TENS_BEFORE = re.compile(r"\b(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-]$")


def _marked(
    kind: str | None, word: str, text: str, end: int, before: list[str]
) -> tuple[str, object]:
    """An English phrase (Christmas Eve), a label (Q1, H2, W10, FY24), a number written in a
    form no one reads part of (1e3, 10^400) or a symbol."""
    if kind == "x":
        return CODE["BADNUM"], None
    if word == "." and _sentence_end(text, end, before):
        return _COMMA_CODE, word  # a full stop ending a sentence is plain (SPEC §4.3)
    if word == "'" and (not text[end : end + 2].isdigit() or "'" in text[end : end + 64]):
        return _COMMA_CODE, word  # a quote ('last month', '10 days ago'), not the ' of '24
    if word == "=" and not _comparing(text, end):
        return CODE["BAR"], None  # year=2019, =2019: "is", like a colon; <=, !=, == compare
    if kind == "p":
        return EN_PHRASE_CODES[" ".join(word.split())]
    if kind == "l" and word[0] == "c":  # cy18, CY2018: a calendar year (as FY25 is fiscal)
        digits = word[2:]
        if len(digits) == 2 and int(digits) >= 50:
            return CODE["YEARCOUNT"], None  # cy96: 1996, before 2000 (SPEC §4.3): unread
        return CODE["Y4"], int(digits) if len(digits) == 4 else 2000 + int(digits)
    if kind == "l":
        return CODE[_LABELS[word[0]]], int(word.lstrip("qhwkfy"))
    return CODE[_SYMBOLS[word]], word


def _zh_word(
    word: str, text: str, start: int, end: int, columns: _Columns
) -> tuple[str, object, int] | None:
    """A Chinese word of the lexicon: its class code, value and end; None for a word that is
    no time (天猫, 分析, 3号店)."""
    codes, _, _, ends = columns
    cls, value = ZH[word]
    if len(word) > 1 and word[-1] in ZH_NUMERAL_CHARS and text.startswith(_PLAIN_STARTS, end - 1):
        shorter = word[:-1]  # 周一共: 周 + 一共, not Monday
        if shorter in ZH:
            word, end = shorter, end - 1
            cls, value = ZH[word]
    glued = bool(ends) and ends[-1] == start
    if (
        cls == "OK_WORD"
        and word[0] in _UNIT_CHARS
        and glued
        and codes[-1] in _DIGIT_CODES
        and word not in WHOLE_AFTER_NUMBER
    ):
        word, end = word[0], start + 1  # 12月31日本季度: 31日 + 本季度, not 日本
        cls, value = ZH[word]
    if cls == "OK_WORD" or (cls == "HAO" and text[end : end + 1] in _NOT_AFTER_HAO):
        return None
    if value == "national" and not glued and _FOREIGN.search(text[max(0, start - 8) : start]):
        cls = "OTHERDAY"  # 以色列国庆节, 美国国庆: another country's National Day
    return CODE[cls], value, end


def _gap(text: str, start: int, end: int, columns: _Columns) -> None:
    codes, values, starts, ends = columns
    if _SPACE.fullmatch(text, start, end) is not None:
        codes.append(CODE["SPACE"])
    elif text.find("节", start, end) >= 0 and _FESTIVAL.search(text, max(0, start - 1), end):
        codes.append(CODE["OTHERDAY"])  # 光明节, 难近母节: a festival unread
    else:
        codes.append(CODE["BAR"])
    values.append(None)
    starts.append(start)
    ends.append(end)


def _numeral_end(text: str, start: int, end: int) -> int:
    """Where a run of numerals ends: before an ordinary word it holds the start of (一共)."""
    for index in range(start + 1, end):
        if text[index] in _PLAIN_FIRST and text.startswith(_PLAIN_STARTS, index):
            return index
    return end


def _zh_numeral(word: str, text: str, start: int, end: int) -> tuple[str, object]:
    if start and text[start - 1] == "前" and RANKING.match(text, end):
        return CODE["COUNT"], zh_number(word)  # 前十名 (前: see _counts)
    if AGE.match(text, end) is not None:
        return CODE["COUNT"], zh_number(word)  # 十八周岁: an age
    return CODE["ZHN"], (zh_number(word), zh_digits(word), len(word))


def _digits(digits: str, ordinal: str | None) -> tuple[str, object]:
    if "," in digits:  # 1,500: one number, read whole (SPEC §4.3), never a date or a year
        return CODE["DN"], int(digits.replace(",", "")) if len(digits) <= 24 else -1
    value = int(digits) if len(digits) <= 18 else -1
    if ordinal:
        return CODE["ORD"], value
    size = len(digits)
    if size == 2 and digits[0] == "0":
        return CODE["D0"], value  # 07: a year, month or day, no count
    if size <= 2:
        return CODE["D12"], value
    if size == 8:
        return CODE["D8"], value
    if size == 4 and 1900 <= value <= 2199:
        return CODE["Y4"], value
    return CODE["DN"], value


def _en_word(word: str, text: str, start: int, before: list[str]) -> tuple[str, object]:
    if word.rstrip("'") in ("a", "p") and before and before[-1] == CODE["D12"]:
        return "AMPM", "am" if word[0] == "a" else "pm"  # 9a to 11a
    if start and text[start - 1] == "$":
        return "OTHER", None  # $DEC, $MAR: a ticker, not a month
    if word.endswith("n't"):
        return "NEGATION", None  # shouldn't last two hours, don't show last month
    entry = EN.get(word)
    if entry is None and len(word) > 5 and word.endswith("ish") and word[:-3] in EN:
        return "VAGUE", None  # afternoonish, noonish: about a time
    if entry is None and word.endswith("'"):
        entry = EN.get(word[:-1])  # 'two upcoming weeks': a closing quote
    if entry is None and word.endswith(("'s", "s'")):
        entry = EN.get(word[:-2].rstrip("'"))  # year's, last week's
    if entry is None:
        return "OTHER", None
    cls, value = entry
    if word in ("sat", "sun"):  # sat down, the sun: a weekday only standing alone or dotted
        words = text[max(0, start - 8) : start].split()
        beside_date = _MAY_BEFORE.match(text, start + 3) or text.startswith(",", start + 3)
        if not (
            _ALONE.fullmatch(text, start + 3) or (words and words[-1] in MAY_AFTER) or beside_date
        ):
            return "OTHER", None
    if word == "may":
        words = text[max(0, start - 12) : start].split()
        after = bool(words) and words[-1] in MAY_AFTER and not _VERB_AFTER.match(text, start + 3)
        before_day = _MAY_BEFORE.match(text, start + 3) is not None
        if not (after or before_day or _ALONE.fullmatch(text, start + 3)):
            return "OTHER", None  # what may happen, may I: the verb
    elif (
        word == "second"
        and _after_count(before)
        and not _TENS_BEFORE.search(text[max(0, start - 9) : start])
    ):
        return "SECOND", None  # 1 second: the unit; the second quarter: the ordinal
    return cls, value


def _after_count(before: list[str]) -> bool:
    index = len(before) - 1
    if index >= 0 and before[index] == CODE["SPACE"]:
        index -= 1
    return index >= 0 and before[index] in (CODE["D12"], CODE["DN"], CODE["ENN"])


# A word of the lexicon that is no time but starts with a unit (日本, 年轻, 周边) does not take
# the unit away from the number before it (31日本季度, 3年轻松).
_UNIT_CHARS = frozenset("年月日天周号时点分秒季")
_DIGIT_CODES = frozenset(CODE[name] for name in ("D12", "D0", "DN", "Y4", "ZHN"))
_PLAIN = frozenset(code for code, kind in KIND.items() if kind == "plain")
_OTHER = CODE["OTHER"]
# Multi-word English phrases (Christmas Eve, year to date) → their class code and value.
EN_PHRASE_CODES = {phrase: (CODE[cls], value) for phrase, (cls, value) in EN_PHRASES.items()}
# A text holding any of these goes through `_numbers` (most hold none).
_NUMBERED = re.compile(
    "[" + re.escape("".join(CODE[n] for n in ("ENN", "Y4", "D12", "D0", "D8", "DN", "COUNT"))) + "]"
)
