"""Words and numerals of Chinese and English time expressions, and their regex fragments."""

from __future__ import annotations

from resolver.timeexpr.result import STEPS, Step

# --- normalisation --------------------------------------------------------------------------

# One character for one, so that a span of the normalised text is the same span of the query.
_FOLD: dict[int, int] = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}  # full-width ASCII
_FOLD |= {cp: cp - 0xFEE0 + 32 for cp in range(0xFF21, 0xFF3B)}  # full-width A-Z, lower-cased
_FOLD |= {cp: cp + 32 for cp in range(ord("A"), ord("Z") + 1)}
_FOLD[0x3000] = 0x20  # ideographic space
_FOLD[0xA0] = 0x20  # no-break space: the scanners' \s is ASCII-only (re.ASCII)


def normalize(text: str) -> str:
    """Fold full-width forms to ASCII and ASCII to lower case, keeping every index."""
    if text.isascii():
        return text.lower()
    return text.translate(_FOLD)


# --- numerals --------------------------------------------------------------------------------

_ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_EN_ONES = (
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
)
_EN_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_EN_NUMBERS: dict[str, int] = {word: value for value, word in enumerate(_EN_ONES)}
_EN_NUMBERS |= {word: 20 + 10 * i for i, word in enumerate(_EN_TENS)}
_EN_NUMBERS |= {"a": 1, "an": 1}
_EN_TENS_FIRST = frozenset(word[0] for word in _EN_TENS)
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
}


def _zh_number(token: str) -> int | None:
    total, digit = 0, -1
    for char in token:
        if char in "十百":
            scale = 10 if char == "十" else 100
            total += (1 if digit < 0 else digit) * scale
            digit = -1
        elif char in _ZH_DIGITS:
            if digit >= 0 and char not in "零〇":
                return None  # two digits in a row ("三三") is not a count
            digit = _ZH_DIGITS[char]
        else:
            return None
    return total + max(digit, 0)


def number(token: str) -> int | None:
    """Return the value of an Arabic, Chinese (一…九十九, 两, 百) or English count, or None."""
    if token.isascii() and token.isdigit():
        return int(token)
    if token in _EN_NUMBERS:
        return _EN_NUMBERS[token]
    if token in _ORDINALS:
        return _ORDINALS[token]
    if token[0] in _EN_TENS_FIRST:
        tens, _, ones = token.replace(" ", "-").partition("-")
        if tens in _EN_NUMBERS and ones in _EN_NUMBERS:
            return _EN_NUMBERS[tens] + _EN_NUMBERS[ones]
        return None
    return _zh_number(token)


def zh_digit_year(token: str) -> int:
    """Return a year written digit by digit in Chinese numerals (二〇二四 → 2024)."""
    return int("".join(str(_ZH_DIGITS[char]) for char in token))


# --- words -----------------------------------------------------------------------------------

UNITS: dict[str, Step] = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "月份": "month",
    "季": "quarter",
    "季度": "quarter",
    "年": "year",
    "年度": "year",
}
UNITS["双周"] = "week"  # a fortnight: counted twice (atoms.FORTNIGHTS)
UNITS |= {"个" + word: unit for word, unit in UNITS.items() if unit != "day"}  # 3个月, 三个年度
UNITS |= {word: unit for unit in STEPS for word in (unit, unit + "s")}
UNITS |= {"fortnight": "week", "fortnights": "week"}

EN_MONTHS: dict[str, int] = {
    name: index + 1
    for index, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}

# Relative years usable in front of a month, quarter, week or date (今年3月, march last year).
RELATIVE_YEARS: dict[str, int] = {
    "今年": 0,
    "本年": 0,
    "去年": -1,
    "前年": -2,
    "大前年": -3,
    "明年": 1,
    "this": 0,  # "this year", keyed by its first word
    "last": -1,
}

# Previous calendar periods named by one word.
PREVIOUS_WORDS: dict[str, tuple[int, Step]] = {
    "昨天": (-1, "day"),
    "昨日": (-1, "day"),
    "前天": (-2, "day"),
    "前日": (-2, "day"),
    "大前天": (-3, "day"),
    "去年": (-1, "year"),
    "去年度": (-1, "year"),
    "前年": (-2, "year"),
    "大前年": (-3, "year"),
    "yesterday": (-1, "day"),
}

# Weekdays: Monday is 0, as `date.weekday()` counts.
WEEKDAYS: dict[str, int] = {
    "一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6,
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4,
    "saturday": 5, "sunday": 6,
}  # fmt: skip

# Hours and minutes (last N hours): their length in minutes.
CLOCK_UNITS: dict[str, int] = {
    "小时": 60, "钟头": 60, "分钟": 1,
    "hour": 60, "hours": 60, "hr": 60, "hrs": 60,
    "minute": 1, "minutes": 1, "min": 1, "mins": 1,
}  # fmt: skip

# --- regex fragments -------------------------------------------------------------------------

YEAR4 = r"(?:19|20|21)[0-9]{2}"
# A two-digit year is read only right before 年 (24年3月, 24年前三季度), and not where the
# number counts years (24年前, 成立10年以来, 10年期国债).
YEAR2 = (
    r"[0-9]{2}(?=\s*年(?!\s*(?:前(?![0-9一二两三四五六七八九十])|以前|之前|后|以后|之后|来|以来|内"
    r"|多|左右|期|半|间|龄)))"
)
ZH_YEAR_DIGITS = r"[〇零一二三四五六七八九]{4}"
ZH_COUNT = r"[0-9]{1,3}|[一二两三四五六七八九十百零]{1,5}"
ZH_CLOCK_UNIT = r"小时|钟头|分钟"
EN_CLOCK_UNIT = r"hours?|hrs?|minutes?|mins?"
EN_WEEKDAY = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
EN_COUNT = (
    r"[0-9]{1,3}|(?:" + "|".join(_EN_TENS) + r")(?:[- ](?:one|two|three|four|five|six|seven"
    r"|eight|nine))?|" + "|".join(sorted(_EN_ONES[1:], key=len, reverse=True)) + r"|an?"
)
ZH_UNIT = r"个?(?:月份|月|星期|礼拜|双周|周|季度|季|年度|年)|天|日"
EN_UNIT = r"(?:day|week|month|quarter|year|fortnight)s?"
ZH_MONTH = r"1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九]"
ZH_DAY = r"3[01]|[12][0-9]|0?[1-9]|三十一?|二?十[一二三四五六七八九]?|[一二三四五六七八九]"
ZH_QUARTER = r"[1-4一二三四]"
EN_MONTH = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
ORDINAL = r"first|second|third|fourth|1st|2nd|3rd|4th"
DASH = r"(?:-|–|—|~|至|到)"
