"""The merge pass: phrases (atoms) into expressions, clock-free.

1. Containers: a part is placed in the period written right before it (2024年 + 3月, 上个月 +
   下旬, 今年 + 前三个月, 2024年的春节, 二零一六年，九月三号) or, in English, right after it
   (Friday last week, the first 3 quarters of 2024, March 15, 2025). A weekday beside a date
   must agree with it.
2. Expressions: atoms joined by a range word (到 至 - ~ to through until; and after between)
   or a list word (和 与 及 、 , and), with an opener (从 自 since from between 截至 as of) and a
   suffix (以来 至今 起 为止 to date). An hour range (下午3点到5点, 9am to 11am) needs a day
   beside it (昨天, today, a date).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from resolver.timeexpr.atoms import Atom, relative
from resolver.timeexpr.lexicon import CODE
from resolver.timeexpr.partials import DayOfMonth, InYear, NthWeekday, Weekday
from resolver.timeexpr.tokenlist import Tokens

Mode = Literal["plain", "since", "asof", "hours", "weekof"]
Join = Literal["range", "list"]
Found = tuple[Atom, int, int]
# Atoms that are read but make no window: instant words, comparison phrases, step words.
NOT_WINDOWS = frozenset(("now", "compare", "step"))
_C = CODE
_SPACE, _DE, _COMMA = _C["SPACE"], _C["ZH_DE"], _C["COMMA"]
_ZH_GAP = frozenset((_SPACE, _DE))
_ZH_COMMA_GAP = frozenset((_SPACE, _DE, _COMMA))
_EN_GAP = frozenset((_SPACE, _COMMA, _C["OF"], _C["IN"], _C["THE"]))
_AGREE_GAP = frozenset((_SPACE, _COMMA, _DE, _C["THE"]))  # Friday the 11th
_RANGE_WORDS = frozenset((_C["DASH"], _C["ZH_TO"]))
_EN_RANGE_WORDS = frozenset((_C["TO"], _C["THROUGH"], _C["UNTIL"]))
_LIST_WORDS = frozenset((_C["ZH_AND"], _C["AND"]))  # a comma joins no list (SPEC §4.1)
_CONTAINER_UNIT = {unit: unit for unit in ("year", "quarter", "month", "week")} | {
    "isoyear": "year"
}


class Expression(NamedTuple):
    """One expression of a text: its atoms, how they are joined, and how it is read."""

    mode: Mode
    items: tuple[Atom, ...]
    joins: tuple[Join, ...]
    to_now: bool  # a range ending at now (从2024年到现在, between 8 o'clock and now)
    start: int  # its span in the text
    end: int
    day: Atom | None = None  # the day of an hour range


# -- gaps ---------------------------------------------------------------------------------------


def _gap(codes: str, start: int, end: int, allowed: frozenset[str]) -> bool:
    return all(code in allowed for code in codes[start:end])


# -- expressions --------------------------------------------------------------------------------


@dataclass(slots=True)
class _Run:
    """Atoms joined into one expression while it is read: the atoms and their joins, where
    they lie in the phrases found (`first` .. `after`) and in the tokens (`begin` .. `end`)."""

    items: list[Atom]
    joins: list[Join]
    first: int
    after: int
    begin: int
    end: int
    to_now: bool = False


def merged(
    found: list[Found], codes: str, tokens: Tokens
) -> tuple[list[Expression], list[tuple[int, int]]]:
    """Group the atoms into expressions; return them and the token spans they read."""
    expressions: list[Expression] = []
    consumed: list[tuple[int, int]] = []
    index = 0
    while index < len(found):
        atom, start, end = found[index]
        if atom.kind in NOT_WINDOWS:
            if not _today_starts_range(found, index, codes):
                index += 1
                continue
            atom = relative(0, "day")  # today - next friday, 今天到下周五: today is a day here
            found[index] = (atom, start, end)
        opener, begin = _opener(codes, tokens, start)
        run = _gather(found, index, codes, begin, end, between=opener == "between")
        index = run.after
        mode, run.begin, run.end = _suffix(
            codes, tokens, opener, run.begin, run.end, to_now=run.to_now
        )
        day: Atom | None = None
        if any(item.kind == "clock" for item in run.items):
            run.to_now = run.to_now or mode == "since"  # 上午8点到现在, 9am until now
            day, before, after = _hours(found, run, codes)
            if day is None:
                continue  # an hour range with no day: nothing read
            mode = "hours"
            if before is not None:  # 昨天 下午3点到5点: the day's own expression is this one
                if expressions and expressions[-1].items == (day,):
                    popped = expressions.pop()
                    opened, _ = consumed.pop()
                    if popped.mode == "plain":  # 从昨天5:00-6:00: its opener too
                        before = min(before, opened)
                run.begin = before
            if after is not None:  # 9am to 11am today
                run.end = after
                index += 1
        elif opener == "weekof" and len(run.items) == 1:
            mode = "weekof"
        elif mode == "plain" and len(run.items) == 1 and _one_day(run.items[0]):
            run.end = _day_off_after(codes, tokens, run.end)  # 29日你放假吗: that day
        expression = Expression(
            mode,
            tuple(run.items),
            tuple(run.joins),
            run.to_now,
            tokens.starts[run.begin],
            tokens.ends[run.end - 1],
            day,
        )
        if _readable(expression):
            expressions.append(expression)
            consumed.append((run.begin, run.end))
    return expressions, consumed


def _today_starts_range(found: list[Found], index: int, codes: str) -> bool:
    """Whether `today` starts a range to a window (today - next friday, from today to …)."""
    atom, _, end = found[index]
    if atom.kind != "now" or atom.unit != "day" or index + 1 >= len(found):
        return False
    following, f_start, _ = found[index + 1]
    joined = _join(codes, end, f_start, between=False)
    return following.kind not in NOT_WINDOWS and joined == "range"


def _gather(
    found: list[Found], index: int, codes: str, begin: int, end: int, *, between: bool
) -> _Run:
    """The atoms joined to the one at `index` by range and list words, and a year after them."""
    run = _Run([found[index][0]], [], index, index + 1, begin, end)
    while run.after < len(found):
        following, f_start, f_end = found[run.after]
        if _year_after(run.items, found[run.after], codes, run.end):
            break  # October 10-15, 2024: the year of the range, not a list item
        join = _join(codes, run.end, f_start, between=between)
        if join is None:
            break
        if following.kind == "now":
            if join == "range" or between:  # 从2024年到现在, between 8 o'clock and now
                run.to_now, run.end = True, f_end
                run.after += 1
            break
        if following.kind in NOT_WINDOWS:
            break
        run.items.append(following)
        run.joins.append(join)
        run.end = f_end
        run.after += 1
    if run.after < len(found) and _year_after(run.items, found[run.after], codes, run.end):
        year, _, run.end = found[run.after]  # October 10-15, 2024: the year of the whole range
        run.items[0] = run.items[0]._replace(container=year)
        run.after += 1
    return run


def _year_after(items: list[Atom], following: Found, codes: str, end: int) -> bool:
    """Whether a year written right after a range or list of parts is theirs (Feb 20-29, 2024;
    March and April 2024 is placed by the containers already)."""
    year, start, _ = following
    first = items[0]
    return (
        len(items) > 1
        and year.kind == "period"
        and year.unit == "year"
        and first.kind == "partial"
        and first.container is None
        and first.place == "bare"
        and first.partial is not None
        and first.partial.container == "year"
        and _gap(codes, end, start, _EN_GAP)
    )


def _readable(expression: Expression) -> bool:
    """Whether an expression can make a window at all (a clock alone, a bare day number, a
    start of period alone cannot)."""
    items = expression.items
    if expression.mode == "hours":
        return True
    if len(items) > 1 and any(isinstance(item.partial, NthWeekday) for item in items):
        return False  # 从四月的最后一个星期一到十月一日: an Nth weekday is read alone only
    if expression.mode == "since" and (len(items) > 1 or _a_span(items[0])):
        return False  # 自从2024年1月到3月: since which? a start of a since is one period
    if (
        len(items) > 1
        and "list" in expression.joins
        and any(item.kind in ("ago", "later") for item in items)
    ):
        return False  # last month and 3 weeks later: a point is no item of a list
    if items[0].kind == "clock":
        return False
    if items[0].kind == "day_number":  # between 3 and 12 of Sept, from the 27th to the 3rd of April
        return len(items) > 1 and items[1].unit == "day" and items[1].kind == "partial"
    if any(item.kind == "day_number" for item in items) and not _day_before_number(items):
        return False
    # 年初 alone: early in the year, not a window
    return not (expression.mode == "plain" and len(items) == 1 and items[0].kind == "anchor")


def _a_span(atom: Atom) -> bool:
    """Whether an atom names a span of periods (1月到3月, 2024年1-3月)."""
    part = atom.partial
    return atom.kind == "span" or bool(
        getattr(part, "last_month", 0) or getattr(part, "last_day", 0)
    )


def _day_before_number(items: tuple[Atom, ...]) -> bool:
    return all(
        items[i - 1].unit == "day" for i, item in enumerate(items) if item.kind == "day_number"
    )


_OPENERS = {
    _C["SINCE"]: "since",
    _C["FROM"]: "from",
    _C["BETWEEN"]: "between",
    _C["ASOF"]: "asof",
    _C["ZH_ASOF"]: "asof",
    _C["WEEKOF"]: "weekof",
}


def _week_starting_on(codes: str, on: int) -> int:
    """The week starting on February 4: where its WEEKOF word is before `on`, or -1."""
    before = on - 1
    while before >= 0 and codes[before] == _SPACE:
        before -= 1
    return before if before >= 0 and codes[before] == _C["WEEKOF"] else -1


def _opener(codes: str, tokens: Tokens, start: int) -> tuple[str | None, int]:
    """The opener right before an expression's first atom, and where the expression begins."""
    position = start - 1
    while position >= 0 and codes[position] == _SPACE:
        position -= 1
    if position < 0:
        return None, start
    code = codes[position]
    if code == _C["ON"] and (week := _week_starting_on(codes, position)) >= 0:
        return "weekof", week
    if code == _C["ZH_FROM"]:
        word = tokens.values[position]
        # 自从2018年: since (start .. now); 从/自/由 X (到 Y): from, a range's opener
        return ("since" if word in ("自从", "打从") else "from"), position
    if code == _C["OF"]:
        return _of_opener(codes, position, start)
    if code in _OPENERS:
        return _OPENERS[code], position
    if code == _C["ZH_TO"]:
        return "until", position  # 到2024年底为止: an as-of only with 为止 after it
    return None, start


def _of_opener(codes: str, position: int, start: int) -> tuple[str | None, int]:
    """The week of March 3 / as of the end of 2024: the opener before an "of"."""
    before = position - 1
    while before >= 0 and codes[before] == _SPACE:
        before -= 1
    if before >= 0 and codes[before] == _C["E_WEEK"]:
        head = before - 1
        while head >= 0 and codes[head] in (_SPACE, _C["THE"]):
            head -= 1
        return "weekof", head + 1
    if before >= 0 and codes[before] == _C["END"]:
        head = before - 1
        while head >= 0 and codes[head] in (_SPACE, _C["THE"]):
            head -= 1
        if head >= 0 and codes[head] == _C["ASOF"]:
            return "asof", head
    return None, start


def _join(codes: str, end: int, start: int, *, between: bool) -> Join | None:
    """How two atoms are joined by the tokens between them: range, list, or not at all."""
    gap = codes[end:start].replace(_SPACE, "")
    if len(gap) != 1 or start - end > 3:
        return None
    if gap in _RANGE_WORDS:
        if gap == _C["DASH"] == codes[end:start] and _one_weekday(codes[end - 1], codes[start]):
            return None  # this Friday-Jun-15: a weekday glued to its date, no range
        return "range"
    if gap in _EN_RANGE_WORDS and codes[end:start] != gap:  # written apart: 2024 to 2025
        return "range"
    if gap == _C["AND"] and between:
        return "range"
    if gap in _LIST_WORDS:
        return "list"
    return None


def _one_weekday(before: str, after: str) -> bool:
    """Whether exactly one of two tokens is a weekday (Friday-Jun-15, not Mon-Fri)."""
    return (before == _C["WEEKDAY"]) != (after == _C["WEEKDAY"])


def _suffix(
    codes: str, tokens: Tokens, opener: str | None, begin: int, end: int, *, to_now: bool
) -> tuple[Mode, int, int]:
    """The suffix of an expression (since, as of, harmless words): its mode, begin and end."""
    mode: Mode = "plain"
    if opener == "asof":
        mode = "asof"
    elif opener == "since" or to_now:
        mode = "since"
    position = _skip(codes, end, (_SPACE,))
    if mode == "asof" or opener == "until":
        return _until(codes, tokens, begin, end, position, mode=mode)
    ended = _as_of_after(codes, tokens, position)
    if ended is not None:
        return "asof", begin, ended
    since = None if to_now else _since_after(codes, tokens, position)
    if since is not None:
        return "since", begin, since
    if codes[position : position + 1] in (_C["ZH_HARMLESS"], _C["ZH_WITHIN"], _C["SO"]):
        return mode, begin, position + 1
    return mode, begin, end


def _until(
    codes: str, tokens: Tokens, begin: int, end: int, position: int, *, mode: Mode
) -> tuple[Mode, int, int]:
    """截至2024年底, 截至3月末, 到2024年底为止, 2024年为止: as of; 到X without 为止 is no
    as-of, and the 到 is not the expression's."""
    after = position
    if codes[position : position + 1] == _C["ZH_EDGE"] and tokens.values[position] == "end":
        after = _skip(codes, position + 1, (_SPACE,))
    if codes[after : after + 1] == _C["ZH_UNTIL"]:
        return "asof", begin, after + 1
    if mode == "asof":
        return "asof", begin, after if after > position else end
    return mode, _after_opener(codes, begin), end


def _as_of_after(codes: str, tokens: Tokens, position: int) -> int | None:
    """Where an as-of suffix ends (2024年为止, 2024年底为止), if one starts at `position`."""
    code = codes[position : position + 1]
    if code == _C["ZH_UNTIL"]:
        return position + 1
    if code == _C["ZH_EDGE"] and tokens.values[position] == "end":
        following = _skip(codes, position + 1, (_SPACE,))
        if codes[following : following + 1] == _C["ZH_UNTIL"]:
            return following + 1
    return None


def _since_after(codes: str, tokens: Tokens, position: int) -> int | None:
    """Where a since suffix ends (以来, 至今, 起, onwards, to date, until now), if one starts
    at `position`."""
    code = codes[position : position + 1]
    if code in (_C["ZH_SINCE"], _C["ZH_TONOW"], _C["ONWARDS"], _C["ZH_QI"]):
        return position + 1  # 2025年以来, 自2025年1月1日起
    if code == _C["DATE"] and tokens.values[position] == "to date":
        return position + 1  # 2024 to date
    if code in (_C["TO"], _C["UNTIL"], _C["THROUGH"]):
        following = _skip(codes, position + 1, (_SPACE,))
        target = codes[following : following + 1]
        if target == _C["DATE"] or (target == _C["NOW"] and tokens.values[following] == "now"):
            return following + 1  # to present, until now
    return None


def _after_opener(codes: str, begin: int) -> int:
    position = begin + 1
    while position < len(codes) and codes[position] == _SPACE:
        position += 1
    return position


def _skip(codes: str, position: int, skipped: tuple[str, ...]) -> int:
    while position < len(codes) and codes[position] in skipped:
        position += 1
    return position


_DAY_GAP = frozenset(
    (_SPACE, _DE, _COMMA, _C["ON"], _C["AT"], _C["FROM"], _C["BETWEEN"], _C["OF"], _C["TZWORD"])
)  # from 5 to 6pm of April 22; 昨天北京时间下午3点到5点 (the zone is read by reading.py)


def _hours(found: list[Found], run: _Run, codes: str) -> tuple[Atom | None, int | None, int | None]:
    """An hour range on a named day (昨天下午3点到5点, today 9am to 11am, between 8 o'clock and
    now): the day, and where the expression begins (a day before it) or ends (a day after)."""
    clocks = [item for item in run.items if item.kind == "clock"]
    if len(run.items) != len(clocks) or any(join != "range" for join in run.joins):
        return None, None, None
    if not (len(clocks) == 2 or (len(clocks) == 1 and run.to_now)):
        return None, None, None
    if run.first > 0:
        previous, p_start, p_end = found[run.first - 1]
        if _is_day(previous) and _gap(codes, p_end, run.begin, _DAY_GAP):
            return previous, p_start, None
    if run.after < len(found):
        following, f_start, f_end = found[run.after]
        if _is_day(following) and _gap(codes, run.end, f_start, _DAY_GAP):
            return following, None, f_end
    if run.to_now:
        return Atom("now", "day", None), None, None  # between 8 o'clock and now: today
    return None, None, None


_OTHERDAY, _BAR = _C["OTHERDAY"], _C["BAR"]


def _one_day(atom: Atom) -> bool:
    """Whether an atom names one day (29日, 明天, 周五, 10月1日) — no span of days."""
    part = atom.partial
    return (
        atom.unit == "day"
        and atom.kind in ("period", "partial")
        and not getattr(part, "last_day", 0)
        and (part is None or isinstance(part, DayOfMonth | InYear | Weekday))
    )


def _day_off_after(codes: str, tokens: Tokens, end: int) -> int:
    """Where a day's expression ends when 放假 ("off") follows it, at most a short word
    between (29日你放假吗, 明天不放假): the day is the day off. Else `end`."""
    position = end
    short = tokens.ends[position] - tokens.starts[position] <= 2 if position < len(codes) else False
    if codes[position : position + 1] == _BAR and short:
        position += 1
    if codes[position : position + 1] == _OTHERDAY and tokens.values[position] == "off":
        return position + 1
    return end


def _is_day(atom: Atom) -> bool:
    return atom.unit == "day" and atom.kind in ("period", "partial", "now")
