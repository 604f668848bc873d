"""Numbers in a text's tokens: spelled English numbers merged (twenty nine, two thousand and
fifteen, twenty-second), and counts that are no time ($12, #1930, 3.5%, 2000 users, top 2000,
前10名) marked COUNT so they are never time-like."""

from __future__ import annotations

import re

from resolver.timeexpr.lexicon import CODE, EN_CARDINALS, KIND
from resolver.timeexpr.tokenlist import Tokens

# 前十名, 前3位: a ranking, not the first N of a period.
RANKING = re.compile(
    r"\s*(?:名|位|强|大|甲|款|家|个(?![月星礼季年小钟周工交营自])|个?(?:客户|产品|门店|城市))"
)
# 18岁, 18周岁, 十八虚岁: an age, not a time.
AGE = re.compile(r"\s*(?:周岁|虚岁|足岁|岁)")
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
_NUMBER_WORDS = frozenset(EN_CARDINALS.values())
# top 10, top 3: a ranking (top 10 - 2019 is no October).
_TOP = re.compile(r"\btop\s?$")
# A spelled number longer than this is no number anyone writes (two thousand and fifteen).
_MAX_NUMBER_WORDS = 8
_COUNTABLE = re.compile(
    "[" + re.escape("".join(CODE[n] for n in ("Y4", "D12", "D0", "D8", "DN", "COUNT"))) + "]"
)
_ENN, _ORDW, _COUNT = CODE["ENN"], CODE["ORDW"], CODE["COUNT"]


def numbers(tokens: Tokens, text: str) -> Tokens:
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


def _ratio_counted(codes: list[str], starts: list[int], ends: list[int], index: int) -> bool:
    """A number followed by a colon and one digit (1:1, 9:5), which no clock writes (a clock's
    minutes have two digits): with plain words beside it a ratio, both numbers COUNT (a 1:1,
    16:9 screens; True); else the digit stays a number but no clock's minute (yesterday 9:5:
    nothing settles; False). Any other number is left as it is (False)."""
    minute = index + 2
    if minute >= len(codes) or codes[minute] != CODE["D12"] or ends[minute] - starts[minute] != 1:
        return False
    if _ratio(codes, index):
        codes[index] = codes[minute] = _COUNT
        return True
    codes[minute] = CODE["DN"]
    return False


def _ratio(codes: list[str], index: int) -> bool:
    """Whether the number at `index` and the one digit after its colon are a ratio (a 1:1 on
    monday, 16:9 screens): only plain words beside them. After `at`, beside a day or am/pm
    (yesterday 9:5) the pair is no ratio: its numbers stay time-like and nothing settles."""
    return _plain_beside(codes, index, -1) and _plain_beside(codes, index + 2, 1)


def _plain_beside(codes: list[str], position: int, step: int) -> bool:
    """Whether the token beside `position` (past spaces) is a plain word, or there is none."""
    near = position + step
    if 0 <= near < len(codes) and codes[near] in _NOT_RATIO:
        return False  # 1:1:1, 1:1.5
    while 0 <= near < len(codes) and codes[near] == CODE["SPACE"]:
        near += step
    return not 0 <= near < len(codes) or (
        KIND[codes[near]] == "plain" and codes[near] not in _NOT_RATIO
    )


_NOT_RATIO = frozenset((CODE["COLON"], CODE["DOT"]))


def _counts(
    codes: list[str], values: list[object], starts: list[int], ends: list[int], text: str
) -> None:
    """Numbers that count something rather than name a time become COUNT (never time-like):
    after $ ¥ #, before %, decimals (3.5), amounts (pay 2000), four-digit numbers before a
    count noun or after top/前 (2000 users, 前2000名), rankings (前10名), ages (18周岁)."""
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
        if after == c["COLON"] and _ratio_counted(codes, starts, ends, index):
            continue
        plain = (
            before in money
            or (before == space and index > 1 and codes[index - 2] in money)  # $ 12
            or after == percent
            or _money_before(codes, starts, ends, index, text)
        )
        if code in (c["Y4"], c["D8"]) and not plain:
            head = text[max(0, starts[index] - 4) : starts[index]]
            ranking = before == qian and RANKING.match(text, end) is not None  # 前2000名
            following = codes[index + 2] if after == space and index + 2 < size else after
            # 2000名, 2000元 — but not 2019元宵, 2019 元旦, 2019元月: a time word follows
            counted = _COUNT_NOUNS.match(text, end) is not None and KIND[following] != "strong"
            plain = head.endswith(("top ", "top")) or ranking or counted
            word_before = codes[index - 2] if before == space and index > 1 else before
            if (
                not plain
                and code == c["Y4"]
                and text[starts[index]].isdigit()  # cy2019 orders: a calendar year
                and _EN_COUNT_NOUNS.match(text, end) is not None
                and word_before not in _YEAR_CONTEXT
            ):
                codes[index] = c["YEARCOUNT"]  # 2019 orders: a year, or 2019 of them?
                continue
        if not plain and code in (c["D12"], c["D0"], c["DN"]):
            plain = _TOP.search(text, max(0, starts[index] - 5), starts[index]) is not None
        clock_before = index > 1 and codes[index - 2] == c["AT"] and before == space
        weekday_before = index > 1 and codes[index - 2] == c["WEEKDAY"] and before == space
        if (
            not plain
            and after == dot
            and before != dot
            and index + 2 < size
            and not clock_before
            and not weekday_before  # Friday 7.6: a date (SPEC §4.3 5.12), no decimal
        ):
            third = codes[index + 3] if index + 3 < size else ""
            if codes[index + 2] in numbers and code != c["Y4"] and third != dot:
                plain = True  # 3.5, 4.5分: a decimal (a dotted date starts with its year)
                codes[index + 2] = _COUNT
        if not plain and AGE.match(text, end) is not None:
            plain = True  # 今年18周岁: an age
        if not plain and before == qian and RANKING.match(text, end):
            plain = True  # 前10名: a ranking
            codes[index - 1] = c["OK_WORD"]
        if plain:
            codes[index] = _COUNT
