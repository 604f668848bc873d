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
from typing import NamedTuple

from resolver.timeexpr.lexicon import (
    CODE,
    EN,
    EN_CARDINALS,
    EN_PHRASES,
    KIND,
    MAY_AFTER,
    ZH,
    ZH_NUMERAL_CHARS,
    zh_digits,
    zh_number,
)


class Token(NamedTuple):
    """One token (a view made on demand): class code, value, span in the normalised text."""

    code: str
    value: object
    start: int
    end: int


class Tokens:
    """The tokens of one text: `codes` (one character per token), and per token its value,
    start and end. `cut` is True when the text held more time words than `tokenize` reads."""

    __slots__ = ("codes", "cut", "ends", "starts", "values")

    def __init__(
        self,
        codes: str,
        values: list[object],
        starts: list[int],
        ends: list[int],
        *,
        cut: bool = False,
    ):
        self.codes = codes
        self.values = values
        self.starts = starts
        self.ends = ends
        self.cut = cut

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, index: int) -> Token:
        return Token(self.codes[index], self.values[index], self.starts[index], self.ends[index])


_SYMBOLS = {
    "-": "DASH", "~": "DASH", "/": "SLASH", ".": "DOT", ",": "COMMA", ";": "COMMA",
    "；": "COMMA", "。": "COMMA", "!": "COMMA", "?": "COMMA", "？": "COMMA", "！": "COMMA",
    ":": "COLON", ">": "CMP", "<": "CMP", "≥": "CMP", "≤": "CMP", "=": "CMP", "+": "PLUS",
    "$": "MONEY", "¥": "MONEY", "€": "MONEY", "£": "MONEY", "%": "PERCENT", "#": "HASH",
    "'": "APOS", "、": "ZH_AND", "(": "COMMA", ")": "COMMA", '"': "COMMA", "“": "COMMA",
    "”": "COMMA", "「": "COMMA", "」": "COMMA", "【": "COMMA", "】": "COMMA", "&": "AND",
    "《": "COMMA", "》": "COMMA", "|": "COMMA", "\n": "COMMA",
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
    r"|(?P<l>(?<![a-z])(?:(?:q|h|wk?)[0-9]{1,2}|fy[0-9]{2,4})(?![0-9a-z]))"
    # 1e3, 10^400, 1_500, 0x10: a number no one reads part of (SPEC §4.3)
    r"|(?P<x>[0-9]+(?:e[+-]?[0-9]+|\^[0-9]+|_[0-9]+)+(?![0-9a-z])|0x[0-9a-f]+(?![0-9a-z]))"
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
# 前十名, 前3位: a ranking, not the first N of a period.
_RANKING = re.compile(
    r"\s*(?:名|位|强|大|甲|款|家|个(?![月星礼季年小钟周工交营自])|个?(?:客户|产品|门店|城市))"
)
# A four-digit number before these counts something (2000 users, 2000名).
_COUNT_NOUNS = re.compile(
    r"\s*(?:[名人元万亿件家条次笔台吨余位款只辆套份页篇倍户]|多(?![年月天周]))"
)
# In English, "2019 orders" may be 2019's orders or 2019 of them: neither is sure (YEARCOUNT).
_EN_COUNT_NOUNS = re.compile(
    r"\s*(?:customers|users|orders|items|units|people|employees|companies|records|rows"
    r"|products|stores|points|dollars|yuan|rmb|usd|pieces|times|km|kg|visitors|clicks"
    r"|calories|members|accounts|shares|tickets|cases|boxes)\b"
)
_LABELS = {"q": "QLABEL", "h": "HLABEL", "w": "WLABEL", "f": "FISCAL"}
# A word the lexicon does not know that ends in 节 is a festival (光明节, 逾越节), unless 节
# begins another word (节约, 节目, 环节 is no festival either).
_FESTIVAL = re.compile(r"(?<![环细章关调情礼音季])[\u4e00-\u9fff]节(?![约目点奏能省制拍])")
# Nothing but punctuation after a word: "May", "sat.", "sun,".
_ALONE = re.compile(r"[\s.,;!?]*")
# "may" before a day (May 5, May twenty-nine, May 1st) or a year is the month.
_MAY_BEFORE = re.compile(
    r"[\s.,]*(?:[0-9]|(?:" + "|".join(sorted(EN_CARDINALS, key=len, reverse=True)) + r"|first"
    r"|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth"
    r"|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)\b)"
)
# After these, a four-digit number is a year even before a count noun (October 1st, 2024
# orders; week 10 of 2024 orders; in 2024 users): the count-noun rule is for "2000 users".
_YEAR_CONTEXT = frozenset(
    CODE[name]
    for name in (
        "COMMA",
        "MONTHNAME",
        "IN",
        "OF",
        "SINCE",
        "FROM",
        "TO",
        "BETWEEN",
        "AND",
        "THROUGH",
        "UNTIL",
        "BEFORE",
        "AFTER",
        "WITHIN",
        "E_YEAR",
        "HOLIDAY",
        "QLABEL",
        "HLABEL",
        "DASH",
        "SLASH",
        "DOT",
        "D12",
        "D0",
        "ORD",
        "ORDW",
        "ENN",
        "E_WEEK",
        "E_QUARTER",
        "E_MONTH",
        "FOR",
        "DATE",
        "ASOF",
        "LAST",
        "THIS",
        "NEXT",
    )
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
            klass, value = _zh_numeral(match.group(), text, start, end)
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
        tokens = _numbers(tokens, text)
    return tokens


_Columns = tuple[list[str], list[object], list[int], list[int]]
_COMMA_CODE = CODE["COMMA"]
# What may follow a full stop that ends a sentence: the end, a space, a closing quote/bracket.
_AFTER_STOP = re.compile(r"(?:$|[\s\"')\]」”》】,;!?])")
# A dot after these abbreviates them (Aug. 2, Sept. 2024, Sat.): part of the expression.
_ABBREVIATED = frozenset(CODE[name] for name in ("MONTHNAME", "WEEKDAY", "AMPM"))


def _sentence_end(text: str, end: int, codes: list[str]) -> bool:
    """Whether the dot ending at `end` ends a sentence (last month. / yesterday.) rather than
    joining a date (2024.3.15) or abbreviating a month (Aug. 2)."""
    if _AFTER_STOP.match(text, end) is None:
        return False
    previous = codes[-1] if codes else ""
    return previous not in _ABBREVIATED


_DIGIT_GROUPS = frozenset(("d", "o"))


def _marked(
    kind: str | None, word: str, text: str, end: int, before: list[str]
) -> tuple[str, object]:
    """An English phrase (Christmas Eve), a label (Q1, H2, W10, FY24), a number written in a
    form no one reads part of (1e3, 10^400) or a symbol."""
    if kind == "x":
        return CODE["BADNUM"], None
    if word == "." and _sentence_end(text, end, before):
        return _COMMA_CODE, word  # a full stop ending a sentence is plain (SPEC §4.3)
    if kind == "p":
        return EN_PHRASE_CODES[" ".join(word.split())]
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
    glued = bool(ends) and ends[-1] == start
    if cls == "OK_WORD" and word[0] in _UNIT_CHARS and glued and codes[-1] in _DIGIT_CODES:
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


def _zh_numeral(word: str, text: str, start: int, end: int) -> tuple[str, object]:
    if start and text[start - 1] == "前" and _RANKING.match(text, end):
        return CODE["COUNT"], zh_number(word)  # 前十名 (前: see _counts)
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
    if word in ("a", "p") and before and before[-1] == CODE["D12"]:
        return "AMPM", "am" if word == "a" else "pm"  # 9a to 11a
    entry = EN.get(word)
    if entry is None and len(word) > 5 and word.endswith("ish") and word[:-3] in EN:
        return "VAGUE", None  # afternoonish, noonish: about a time
    if entry is None and word.endswith(("'s", "s'")):
        entry = EN.get(word[:-2].rstrip("'"))  # year's, last week's
    if entry is None and word.endswith("'"):
        entry = EN.get(word[:-1])
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
        month = (words and words[-1] in MAY_AFTER) or _MAY_BEFORE.match(text, start + 3)
        month = month or _ALONE.fullmatch(text, start + 3)
        if not month:
            return "OTHER", None  # what may happen, may I: the verb
    elif word == "second" and _after_count(before):
        return "SECOND", None  # 1 second: the unit; the second quarter: the ordinal
    return cls, value


def _after_count(before: list[str]) -> bool:
    index = len(before) - 1
    if index >= 0 and before[index] == CODE["SPACE"]:
        index -= 1
    return index >= 0 and before[index] in (CODE["D12"], CODE["DN"], CODE["ENN"])


_NUMBER_WORDS = frozenset(EN_CARDINALS.values())
# A word of the lexicon that is no time but starts with a unit (日本, 年轻, 周边) does not take
# the unit away from the number before it (31日本季度, 3年轻松).
_UNIT_CHARS = frozenset("年月日天周号时点分秒季")
_DIGIT_CODES = frozenset(CODE[name] for name in ("D12", "D0", "DN", "Y4", "ZHN"))
_PLAIN = frozenset(code for code, kind in KIND.items() if kind == "plain")
# A spelled number longer than this is no number anyone writes (two thousand and fifteen).
_MAX_NUMBER_WORDS = 8
_ENN, _ORDW, _COUNT = CODE["ENN"], CODE["ORDW"], CODE["COUNT"]
_OTHER = CODE["OTHER"]
_COUNTABLE = re.compile(
    "[" + re.escape("".join(CODE[n] for n in ("Y4", "D12", "D0", "D8", "DN", "COUNT"))) + "]"
)
# Multi-word English phrases (Christmas Eve, year to date) → their class code and value.
EN_PHRASE_CODES = {phrase: (CODE[cls], value) for phrase, (cls, value) in EN_PHRASES.items()}
# A text holding any of these goes through `_numbers` (most hold none).
_NUMBERED = re.compile(
    "[" + re.escape("".join(CODE[n] for n in ("ENN", "Y4", "D12", "D0", "D8", "DN", "COUNT"))) + "]"
)


def _numbers(tokens: Tokens, text: str) -> Tokens:
    """Merge spelled English numbers (twenty nine, two thousand and fifteen, twenty-second)
    and mark counts that are no time ($12, #1930, 3.5%, 2000 users, top 2000) as COUNT."""
    if _ENN in tokens.codes:
        tokens = _spelled_numbers(tokens)
    codes = list(tokens.codes)
    _counts(codes, tokens.values, tokens.starts, tokens.ends, text)
    return Tokens("".join(codes), tokens.values, tokens.starts, tokens.ends)


def _spelled_numbers(tokens: Tokens) -> Tokens:
    codes: list[str] = []
    values: list[object] = []
    starts: list[int] = []
    ends: list[int] = []
    index, count = 0, len(tokens)
    while index < count:
        code, value = tokens.codes[index], tokens.values[index]
        if code == _ENN and value in _NUMBER_WORDS:
            last, merged, ordinal = _spelled(tokens, index)
            if merged is not None:
                if not ordinal and 1900 <= merged <= 2199:
                    code = CODE["Y4"]  # a spelled year: two thousand and fifteen
                else:
                    code = _ORDW if ordinal else _ENN
                codes.append(code)
                values.append(merged)
                starts.append(tokens.starts[index])
                ends.append(tokens.ends[last])
                index = last + 1
                continue
        codes.append(code)
        values.append(value)
        starts.append(tokens.starts[index])
        ends.append(tokens.ends[index])
        index += 1
    return Tokens("".join(codes), values, starts, ends)


def _spelled(tokens: Tokens, index: int) -> tuple[int, int | None, bool]:
    """The run of English number words from `index`: its last index, value, and whether it
    ends in an ordinal (twenty-second)."""
    join = (CODE["SPACE"], CODE["DASH"])
    codes, values = tokens.codes, tokens.values
    numbers: list[int] = [values[index]]  # type: ignore[list-item]
    last, position, is_ordinal = index, index + 1, False
    while (
        position + 1 < len(codes) and codes[position] in join and len(numbers) < _MAX_NUMBER_WORDS
    ):
        following = position + 1
        if codes[following] == CODE["AND"] and numbers[-1] in (100, 1000):
            if position + 3 < len(codes) and codes[position + 3] == _ENN:
                following = position + 3
                position += 2
            else:
                break
        value = values[following]
        if codes[following] == _ENN and isinstance(value, int):
            numbers.append(value)
        elif codes[following] == _ORDW and isinstance(value, int):
            numbers.append(value)
            is_ordinal = True
        else:
            break
        last = following
        position = following + 1
        if is_ordinal:
            break
    return last, _combine(numbers), is_ordinal


def _combine(values: list[int]) -> int | None:
    """The value of number words in order (twenty, nine → 29; two, thousand, fifteen → 2015;
    twenty, twenty, four → 2024; nineteen, ninety, nine → 1999), or None if they make none."""
    if len(values) >= 2 and values[0] in (19, 20, 21) and values[1] not in (100, 1000):
        rest = _combine(values[1:])
        if rest is not None and 10 <= rest < 100:
            return values[0] * 100 + rest
    total, current = 0, 0
    for value in values:
        if value == 1000:
            total += max(current, 1) * 1000
            current = 0
        elif value == 100:
            current = max(current, 1) * 100
        elif current % 100 == 0 or (current % 100 >= 20 and current % 10 == 0 and value < 10):
            if current % 100 and value >= 10:
                return None
            current += value
        else:
            return None  # two nine: no number
    return total + current


_MONEY_WORDS = frozenset(
    [
        "pay",
        "paid",
        "pays",
        "cost",
        "costs",
        "costing",
        "spend",
        "spent",
        "spending",
        "price",
        "priced",
        "charge",
        "charged",
        "owe",
        "owes",
        "budget",
        "fee",
        "fees",
        "worth",
    ]
)


def _money_before(
    codes: list[str], starts: list[int], ends: list[int], index: int, text: str
) -> bool:
    """Whether one of the two words before a number speaks of money (pay ABC 2000)."""
    position = index - 1
    if position >= 0 and codes[position] == CODE["SPACE"]:
        position -= 1
    if position < 0 or codes[position] != CODE["OTHER"]:
        return False
    words = text[starts[position] : ends[position]].split()[-2:]
    return any(word in _MONEY_WORDS for word in words)


def _counts(
    codes: list[str], values: list[object], starts: list[int], ends: list[int], text: str
) -> None:
    """Numbers that count something rather than name a time become COUNT (never time-like):
    after $ ¥ #, before %, decimals (3.5), amounts (pay 2000), four-digit numbers before a
    count noun or after top/前 (2000 users, 前2000名), rankings (前10名)."""
    c = CODE
    money = (c["MONEY"], c["HASH"])
    numbers = (c["Y4"], c["D12"], c["D0"], c["D8"], c["DN"])
    percent, dot, space, qian = c["PERCENT"], c["DOT"], c["SPACE"], c["ZH_QIAN"]
    size = len(codes)
    # Only numbers and counts are looked at (read from the list: earlier ones may change them).
    for found in _COUNTABLE.finditer("".join(codes)):
        index = found.start()
        code = codes[index]
        if code == _COUNT and index and codes[index - 1] == qian:
            codes[index - 1] = c["OK_WORD"]  # 前十名: the 前 of a ranking is no time either
            continue
        if code not in numbers:
            continue
        before = codes[index - 1] if index else ""
        after = codes[index + 1] if index + 1 < size else ""
        end = ends[index]
        plain = (
            before in money or after == percent or _money_before(codes, starts, ends, index, text)
        )
        if code in (c["Y4"], c["D8"]) and not plain:
            head = text[max(0, starts[index] - 4) : starts[index]]
            ranking = before == qian and _RANKING.match(text, end) is not None  # 前2000名
            following = codes[index + 2] if after == space and index + 2 < size else after
            # 2000名, 2000元 — but not 2019元宵, 2019 元旦, 2019元月: a time word follows
            counted = _COUNT_NOUNS.match(text, end) is not None and KIND[following] != "strong"
            plain = head.endswith(("top ", "top")) or ranking or counted
            word_before = codes[index - 2] if before == space and index > 1 else before
            if (
                not plain
                and code == c["Y4"]
                and _EN_COUNT_NOUNS.match(text, end) is not None
                and word_before not in _YEAR_CONTEXT
            ):
                codes[index] = c["YEARCOUNT"]  # 2019 orders: a year, or 2019 of them?
                continue
        if not plain and after == dot and before != dot and index + 2 < size:
            third = codes[index + 3] if index + 3 < size else ""
            if codes[index + 2] in numbers and code != c["Y4"] and third != dot:
                plain = True  # 3.5, 4.5分: a decimal (a dotted date starts with its year)
                codes[index + 2] = _COUNT
        if not plain and before == qian and _RANKING.match(text, end):
            plain = True  # 前10名: a ranking
            codes[index - 1] = c["OK_WORD"]
        if plain:
            codes[index] = _COUNT
