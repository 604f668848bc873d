"""Numerals of both languages: Chinese counts and digit-by-digit numbers, English number
words and ordinals (the tokenizer's number tables)."""

from __future__ import annotations

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
