"""Which tokens of a text are time-like (SPEC §4.2), decided from their classes alone.

The grammar does not take part: a phrase nobody thought of is still made of time-like tokens,
and the scanner settles a window only when every one of them lies inside what it read
(`reading.py`). The rules follow SPEC §4.2's three groups:

(a) calendar units, clock words, names of months, weekdays, holidays, seasons and eras are
    time-like wherever they stand (`strong`); some words are time-like only beside a number
    or another time-like token (`weak`: am, pm, 时, 点, 秒, spring);
(b) a number is time-like when it joins an (a) word (3个月, 15号, 3 pm) or forms a date
    (2024, 20240315, 3/15, 10:30), or is joined by a range or list word to a time-like
    number (Nov 18-19, between 3 and 8 yesterday);
(c) relative and boundary words, separators and comparison symbols are time-like when they
    join a time-like token (next Friday, 2024年以后, >= 2019, 2018 or later), possibly across
    a filler (before the end of March).

Linear: a few passes over the tokens, each looking at neighbours only.
"""

from __future__ import annotations

import re
from datetime import date

from resolver.timeexpr.lexicon import CODE, KIND, SIDE
from resolver.timeexpr.tokenlist import Tokens

_SPACE = CODE["SPACE"]
_NUMBERS = frozenset(code for code, kind in KIND.items() if kind == "number")
_WORDS = frozenset(code for code, kind in KIND.items() if kind in ("strong", "weak"))
_WEAK = frozenset(code for code, kind in KIND.items() if kind == "weak")
_LINKS = frozenset(code for code, kind in KIND.items() if kind == "link")
# What a number may stand across to reach its word: 3 个 月, 第 3 周.
_NUMBER_FILLERS = frozenset(
    (_SPACE, CODE["GE"], CODE["DI"], CODE["OF"], CODE["THE"], CODE["ON"])
)  # 3 and 5 on 1/1/2015: the 5 is an hour of that day (or nothing)
_RANGE_LINKS = frozenset(CODE[name] for name in ("TO", "THROUGH", "UNTIL", "DASH", "ZH_TO"))
_ORDINALS = frozenset((CODE["ORD"], CODE["ORDW"]))
_YEARISH = frozenset((CODE["D12"], CODE["D0"], CODE["ENN"]))
_COMMA = CODE["COMMA"]
_ON = CODE["ON"]
_MONTHNAME = CODE["MONTHNAME"]
_ORDINAL_FILLERS = frozenset((_SPACE, CODE["THE"]))
_CLOCK_OPENERS = frozenset(CODE[name] for name in ("AT", "AROUND", "BETWEEN", "FROM"))
# What a relative word may stand across: before the end of March, 2024年 的 以前.
_LINK_FILLERS = frozenset(
    (
        _SPACE,
        CODE["THE"],
        CODE["OF"],
        CODE["ZH_DE"],
        CODE["ART"],
        CODE["ON"],
        CODE["AT"],
        CODE["IN"],
    )
)  # later in today: the link joins across "in"
# Joining two numbers into a date or a range of them: 3/15, 18-19, 3 and 8, 9th through 17th.
_JOINS = frozenset(
    CODE[name] for name in ("DASH", "SLASH", "DOT", "COLON", "ZH_TO", "TO", "THROUGH", "AND")
)
_CLOCK_PARTS = frozenset((CODE["FEN"], CODE["KE"]))
_SEPARATORS = frozenset(
    CODE[name] for name in ("DASH", "SLASH", "DOT", "COLON", "CMP", "PLUS", "APOS")
)
_DOT = CODE["DOT"]
_SPACES = frozenset((_SPACE,))
_NO_FILLERS: frozenset[str] = frozenset()  # a dot ends a sentence when a space follows it
_OCLOCK = CODE["OCLOCK"]
_AMPM = CODE["AMPM"]
# A whole date with a word glued on both sides (report-2002-10-09.xlsx, archive-2018-09-23-page,
# report-20170302.html): the separators around it join the words of a name, not the date
# (SPEC §4.3: a separator is time-like only inside a date pattern). One word glued on one side
# only (pre-2019-10-09, -2020-07-01-) keeps them time-like.
_S = re.escape("".join(CODE[name] for name in ("DASH", "SLASH", "DOT")))
_DD = re.escape(CODE["D12"] + CODE["D0"])
_EMBEDDED = re.compile(
    f"{re.escape(CODE['OTHER'])}([{_S}])"
    f"(?:{re.escape(CODE['Y4'])}([{_S}])[{_DD}]\\2[{_DD}]|{re.escape(CODE['D8'])})"
    f"([{_S}]){re.escape(CODE['OTHER'])}"
)


def time_like(tokens: Tokens, covered: bytearray | None = None) -> list[bool]:
    """For each token, whether it is time-like.

    With `covered` (the tokens a reading understood), only the others are worked out: a
    covered token counts as time-like when it is no plain word, and what the caller wants is
    whether any token outside them is time-like (`unread`)."""
    size = len(tokens)
    codes = tokens.codes
    marks = [KIND[code] == "strong" for code in codes]
    if covered is not None:
        for index in range(size):
            if covered[index] and KIND[codes[index]] != "plain":
                marks[index] = True
    for index in range(size):
        if not marks[index] and _is_date_number(tokens, codes, index):
            marks[index] = True
    if not any(marks):
        return marks
    # Only tokens that may still turn time-like: uncovered numbers, weak words and links.
    named = _in_names(codes)
    open_ = [
        index
        for index in range(size)
        if not marks[index]
        and KIND[codes[index]] in ("number", "weak", "link")
        and (covered is None or not covered[index])
        and index not in named
    ]
    for _ in range(4):  # until nothing changes: two passes are almost always enough
        changed = False
        for order in (open_, open_[::-1]):
            for index in order:
                if not marks[index] and _joins_time(codes, marks, index):
                    marks[index] = True
                    changed = True
        if not changed:
            break
    return marks


def _in_names(codes: str) -> frozenset[int]:
    """The separators that glue a whole date into a name (report-2002-10-09.xlsx)."""
    if CODE["OTHER"] not in codes:
        return frozenset()
    return frozenset(
        index for found in _EMBEDDED.finditer(codes) for index in (found.start(1), found.start(3))
    )


def _neighbour(codes: str, index: int, step: int, fillers: frozenset[str]) -> int:
    """The index of the nearest token before (step -1) or after (+1) that is no filler."""
    position = index + step
    while 0 <= position < len(codes) and codes[position] in fillers:
        position += step
    return position if 0 <= position < len(codes) else -1


def _joins_time(codes: str, marks: list[bool], index: int) -> bool:
    """Whether the token at `index` attaches to a time-like token already marked."""
    code = codes[index]
    if code in _NUMBERS:
        return _number_joins(codes, marks, index)
    if code in _WEAK:
        return _weak_joins(codes, marks, index)
    if code in _SEPARATORS:  # 3/15, 2024-03, >= 2019: only right beside their time
        fillers = _NO_FILLERS if code == _DOT else _SPACES
        return any(_marked(codes, marks, index, step, fillers) for step in (-1, 1))
    if code in _LINKS:
        return _link_joins(codes, marks, index)
    return False


def _marked(codes: str, marks: list[bool], index: int, step: int, fillers: frozenset[str]) -> bool:
    """Whether the nearest token on one side, past the fillers, is marked time-like."""
    near = _neighbour(codes, index, step, fillers)
    return near >= 0 and marks[near]


def _number_joins(codes: str, marks: list[bool], index: int) -> bool:
    before = _neighbour(codes, index, -1, _SPACES)
    if before >= 0 and codes[before] in _CLOCK_OPENERS and codes[index] != CODE["ART"]:
        return True  # at 7, around 4, between 0730-0930, from 4-23: a time or a day
    code = codes[index]
    if code in _ORDINALS and _ordinal_ends_range(codes, marks, index):
        return True  # from april the ninth till the seventeenth
    if code in _YEARISH and _year_after_date(codes, marks, index):
        return True  # Aug 9, 96: a two-digit year
    if (
        index > 1
        and codes[index - 1] == _COMMA
        and marks[index - 2]
        and codes[index - 2] in _NUMBERS
    ):
        return True  # 08/12,15: a year glued to a date by a comma
    on = _neighbour(codes, index, 1, _SPACES)
    if on >= 0 and codes[on] == _ON and _marked(codes, marks, on, 1, _SPACES):
        return True  # 3 and 5 on 1/1/2015: an hour of that day, or nothing
    for step in (-1, 1):
        near = _neighbour(codes, index, step, _NUMBER_FILLERS)
        if near >= 0 and marks[near] and codes[near] not in _NUMBERS:
            return True  # 3个月, 15 of next month, two upcoming weeks
        # one space from a time-like number: 2022 11 23, 1 500 days ago
        if near >= 0 and marks[near] and codes[near] != CODE["ART"] and _spaced(codes, index, near):
            return True
        # right beside a time-like number (上周五3-5: the 3 is an hour, or nothing)
        beside = index + step
        if 0 <= beside < len(codes) and codes[beside] in _NUMBERS and marks[beside]:
            return True
        # joined to a time-like number: 18-19, 3/15, 3 and 8
        join = _neighbour(codes, index, step, _SPACES)
        if join >= 0 and codes[join] in _JOINS:
            other = _neighbour(codes, join, step, _SPACES)
            if other >= 0 and marks[other] and codes[other] in _NUMBERS:
                return True
    return False


def _spaced(codes: str, index: int, near: int) -> bool:
    """Whether two tokens stand one space apart."""
    return abs(near - index) == 2 and codes[(near + index) // 2] == _SPACE


def _ordinal_ends_range(codes: str, marks: list[bool], index: int) -> bool:
    """An ordinal after a range word whose other side is time-like (till the seventeenth)."""
    join = _neighbour(codes, index, -1, _ORDINAL_FILLERS)
    if join < 0 or codes[join] not in _RANGE_LINKS:
        return False
    return _marked(codes, marks, join, -1, _ORDINAL_FILLERS)


def _year_after_date(codes: str, marks: list[bool], index: int) -> bool:
    """A number after a month name, its day and a comma: a (two-digit) year (Aug 9, 96)."""
    comma = _neighbour(codes, index, -1, _SPACES)
    if comma < 0 or codes[comma] != _COMMA:
        return False
    day = _neighbour(codes, comma, -1, _SPACES)
    if day < 0 or not marks[day] or codes[day] not in _NUMBERS:
        return False
    month = _neighbour(codes, day, -1, _SPACES)
    return month >= 0 and codes[month] == _MONTHNAME


def _weak_joins(codes: str, marks: list[bool], index: int) -> bool:
    code = codes[index]
    if code in _CLOCK_PARTS:  # 分 and 刻 only in a clock: 3点15分, 8点一刻
        before = _neighbour(codes, index, -1, _SPACES)
        if before >= 0 and codes[before] == _OCLOCK:
            return True
        two = _neighbour(codes, before, -1, _SPACES) if before >= 0 else -1
        return two >= 0 and codes[two] == _OCLOCK and codes[before] in _NUMBERS
    for step in (-1, 1):
        near = _neighbour(codes, index, step, _SPACES)
        if near < 0:
            continue
        if codes[near] in _NUMBERS and codes[near] != CODE["ART"]:
            if code == _AMPM and step == 1:
                continue  # am/pm follow their hour: "am 3" is no time
            return True
        if marks[near]:
            return True
    return False


def _link_joins(codes: str, marks: list[bool], index: int) -> bool:
    side = SIDE.get(codes[index], 0)
    if side == 1:  # friday after next: a word joining what follows, with nothing after
        after = _neighbour(codes, index, 1, _LINK_FILLERS)
        if (after < 0 or codes[after] in _LINKS) and _marked(
            codes, marks, index, -1, _LINK_FILLERS
        ):
            return True
    # "by region" after last month: a word of one side joins only what lies on that side
    return any(
        _marked(codes, marks, index, step, _LINK_FILLERS)
        for step in (-1, 1)
        if not side or step == side
    )


def _is_date_number(tokens: Tokens, codes: str, index: int) -> bool:
    """A number that is a date by its form: a year (2024), a compact date (20240315), a
    month/day (3/15) or a clock time (10:30)."""
    code = codes[index]
    if code == CODE["Y4"]:
        return True
    if code == CODE["D8"]:
        value = tokens.values[index]
        value = value if isinstance(value, int) else 0
        try:
            date(value // 10000, value // 100 % 100, value % 100)
        except ValueError:
            return False
        return 1900 <= value // 10000 <= 2199
    if code in (CODE["D12"], CODE["D0"]):
        for step in (-1, 1):
            join = index + step
            other = index + 2 * step
            if (
                0 <= other < len(codes)
                and codes[other] in (CODE["D12"], CODE["D0"])
                and codes[join] in (CODE["SLASH"], CODE["COLON"])
            ):
                return True
    return False
