"""The pattern language of phrases, and how a builder reads the tokens a phrase matched.

A phrase is a regular expression over the tokens' class codes, written with the class names
of `lexicon.py` (`"NUM12 _ MONTH"`: a small number, maybe a space, the unit 月). `_` is an
optional space; `MACROS` name alternatives (`CNT`: any count); lower-case group names name the
tokens a builder reads (`Found.need("y")`).
"""

from __future__ import annotations

import re
from datetime import date

from resolver.timeexpr.lexicon import CODE, UNIT_OF
from resolver.timeexpr.result import STEPS, Step
from resolver.timeexpr.tokenlist import Token, Tokens

# --- the pattern language -------------------------------------------------------------------

MACROS = {
    "CNT": "D12|DN|ZHN|ENN",
    "DD": "D12|D0",
    "NUM12": "D12|D0|ZHN",
    "DAYN": "D12|D0|ORD|ORDW|ENN",
    "ORDS": "ORD|ORDW",
    "YU": "YEAR|YEARDU",
    "QU": "QUARTER|JIDU",
    "DU": "DAY|RI",
    "CAL": (
        "YEAR|YEARDU|QUARTER|JIDU|MONTH|WEEK|DAY|RI|FORTNIGHT|E_YEAR|E_QUARTER|E_MONTH|E_WEEK|E_DAY"
    ),
    "CLK": "HOUR|MINUTE|E_HOUR|E_MINUTE",
    "ENPERIOD": "E_WEEK|E_MONTH|E_QUARTER|E_YEAR",
    "RANGE_TO": "DASH|ZH_TO",
}
_NAME = re.compile(r"(?<![?\w])[A-Z][A-Z0-9_]*\b")


def compile_phrase(pattern: str) -> str:
    """Turn a phrase written with class names into a regular expression over class codes."""

    def name(found: re.Match[str]) -> str:
        word = found.group()
        if word in MACROS:
            return f"(?:{compile_phrase(MACROS[word])})"
        return re.escape(CODE[word])

    text = re.sub(
        r"(?<![A-Za-z0-9<])_(?![A-Za-z0-9>])", f"(?:{re.escape(CODE['SPACE'])})?", pattern
    )
    return _NAME.sub(name, text).replace(" ", "")


# --- reading token values -------------------------------------------------------------------


class Refused(ValueError):
    """A builder refuses its match (a token of another kind, a month 13): the next phrase that
    matches there is tried. Any other exception of a builder is a bug and propagates."""


class Found:
    """A phrase's match: its tokens by group name, and its span of tokens."""

    __slots__ = ("groups", "match", "name", "tokens")

    def __init__(self, match: re.Match[str], tokens: Tokens) -> None:
        self.match = match
        self.name = match.lastgroup or ""
        self.tokens = tokens
        self.groups = _groups_of(match.re)[self.name]

    def _start(self, group: str) -> int:
        number = self.groups.get(group)
        return -1 if number is None else self.match.start(number)

    def tok(self, group: str) -> Token | None:
        """The first token of an inner group, or None when the phrase has no such group or
        it did not match."""
        index = self._start(group)
        return None if index < 0 else self.tokens[index]

    def has(self, group: str) -> bool:
        """Whether the inner group matched."""
        return self._start(group) >= 0

    def need(self, group: str) -> Token:
        """The first token of an inner group that the phrase always has."""
        token = self.tok(group)
        if token is None:
            raise ValueError(group)
        return token

    def text(self, group: str) -> str:
        """The class name of an inner group's first token."""
        return CLASS_NAME[self.need(group).code]

    def number(self, group: str) -> int:
        """The int value of an inner group's first token (`Refused`: the phrase is refused)."""
        value = self.need(group).value
        if not isinstance(value, int):
            raise Refused(group)
        return value

    def shift(self, group: str) -> tuple[int, Step]:
        """The (offset, unit) of a relative period token (上个月: -1 month; `Refused` else)."""
        value = self.need(group).value
        if not isinstance(value, tuple) or len(value) != 2 or not isinstance(value[0], int):
            raise Refused(group)
        return value[0], unit_word(str(value[1]))

    def word(self, group: str) -> str:
        """The str value of an inner group's first token (`Refused`: the phrase is refused)."""
        value = self.need(group).value
        if not isinstance(value, str):
            raise Refused(group)
        return value


CLASS_NAME = {code: name for name, code in CODE.items()}
# Per compiled scanner, per phrase: its inner groups by name (`phrase__group` → `group`).
_GROUPS: dict[re.Pattern[str], dict[str, dict[str, int]]] = {}


def _groups_of(pattern: re.Pattern[str]) -> dict[str, dict[str, int]]:
    groups = _GROUPS.get(pattern)
    if groups is None:
        groups = {}
        for key, number in pattern.groupindex.items():
            phrase, _, inner = key.partition("__")
            groups.setdefault(phrase, {})
            if inner:
                groups[phrase][inner] = number
        _GROUPS[pattern] = groups
    return groups


def count(token: Token | None) -> int | None:
    """The value of a count token (3, 三, three, a), or None."""
    if token is None:
        return None
    value = token.value
    name = CLASS_NAME[token.code]
    if name == "ZHN":
        return value[0] if isinstance(value, tuple) else None
    if name == "ART":
        return 1
    return value if isinstance(value, int) else None


def year_of(token: Token) -> int | None:
    """The year a token writes (2024, 二〇二四, 零八, 24 before 年, two thousand and eight)."""
    name, value = CLASS_NAME[token.code], token.value
    if name == "Y4" and isinstance(value, int):
        return value
    if name == "ENN" and isinstance(value, int) and 1900 <= value <= 2199:
        return value
    if name == "D0" and isinstance(value, int):
        return 2000 + value  # 08年: a two-digit year written with its zero
    if name == "D12" and isinstance(value, int):
        return 2000 + value if value < 50 else None  # 91年: 1991, before 2000 (SPEC §4.3)
    if name == "ZHN" and isinstance(value, tuple):
        spelled, digits, length = value
        if digits is None:  # 两千零四年 (2004): a year spelled as a count, this century only
            return spelled if isinstance(spelled, int) and 2000 <= spelled <= 2099 else None
        if length == 4 and 1900 <= digits <= 2199:
            return int(digits)
        if length == 2:
            return 2000 + int(digits) if digits < 50 else None  # 九一年: 1991
    return None


def unit_of(token: Token) -> Step:
    """The step of a calendar unit token."""
    return UNIT_OF[CLASS_NAME[token.code]]


def unit_word(word: str) -> Step:
    """The step a unit word names (`year` of YTD); `Refused` for any other word."""
    for step in STEPS:
        if step == word:
            return step
    raise Refused(word)


def month_of(token: Token) -> int:
    value = token.value if CLASS_NAME[token.code] == "MONTHNAME" else count(token)
    if not isinstance(value, int) or not 1 <= value <= 12:
        raise ValueError("no month")
    return value


def day_of(token: Token) -> int:
    value = count(token)
    if value is None or not 1 <= value <= 31:
        raise ValueError("no day")
    return value


def quarter_month(token: Token) -> int:
    value = count(token) if CLASS_NAME[token.code] != "QLABEL" else token.value
    if not isinstance(value, int) or not 1 <= value <= 4:
        raise ValueError("no quarter")
    return 3 * value - 2


class Impossible(ValueError):
    """A phrase whose form is sure but whose date does not exist (2025-W53, 2024-02-30,
    August-31-2023 in June): the text settles nothing rather than a shorter phrase's reading."""


def sure_date(year: int, month: int, day: int) -> date:
    try:
        return date(year, month, day)
    except ValueError as error:
        raise Impossible(str(error)) from error
