"""The containers pass: a part is placed in the period written right before it (2024年 + 3月,
上个月 + 下旬, 今年 + 前三个月, 2024年的春节, 二零一六年，九月三号) or, in English, right after
it (Friday last week, the first 3 quarters of 2024, March 15, 2025). A weekday beside a date
must agree with it (10月12号，星期一; Friday the 11th)."""

from __future__ import annotations

from resolver.timeexpr.atoms import Atom
from resolver.timeexpr.lexicon import CODE
from resolver.timeexpr.merge import (
    _AGREE_GAP,
    _CONTAINER_UNIT,
    _EN_GAP,
    _ZH_COMMA_GAP,
    _ZH_GAP,
    Found,
    _gap,
)
from resolver.timeexpr.partials import Container, FirstN, LastN, LastWeek
from resolver.timeexpr.tokenlist import Tokens

_XTD = CODE["XTD"]
_ON_GAP = frozenset((CODE["SPACE"], CODE["ON"]))
_FROM_GAP = frozenset((CODE["SPACE"], CODE["FROM"]))
_DASH, _WEEKDAY = CODE["DASH"], CODE["WEEKDAY"]
# The periods the last N units lie in (今年最后一个月, 本周最后两天, 上季度最后一周).
_HOLDS: dict[str, tuple[Container, ...]] = {
    "day": ("week", "month", "quarter", "year"),
    "week": ("month", "quarter", "year"),
    "month": ("quarter", "year"),
    "quarter": ("year",),
}


def containers(found: list[Found], codes: str, tokens: Tokens) -> list[Found]:
    """Place parts in the periods written beside them; check weekdays against their dates."""
    out: list[Found] = []
    for atom, start, end in found:
        if out and _XTD not in (codes[out[-1][1]], codes[start]):  # ytd 11月: no container
            previous, p_start, p_end = out[-1]
            merged = None
            if _gap(codes, p_end, start, _ZH_GAP) or (
                previous.unit == "year" and _gap(codes, p_end, start, _ZH_COMMA_GAP)
            ):
                merged = _within(previous, atom)  # 2024年3月, 二零一六年，九月三号
            if merged is None and _gap(codes, p_end, start, _EN_GAP):
                merged = _within(atom, previous)
            if merged is None and _gap(codes, p_end, start, _ON_GAP):
                merged = _within(previous, atom)  # next week on Friday, last month on the 15th
            if merged is None and atom.unit == "week" and _gap(codes, p_end, start, _FROM_GAP):
                merged = _within(atom, previous)  # sunday from last week
            if merged is None and (
                _gap(codes, p_end, start, _AGREE_GAP) or _glued_weekday(codes, p_end, start)
            ):
                merged = _agree(previous, atom) or _agree(atom, previous)
            if merged is not None:
                out[-1] = (merged, p_start, end)
                continue
        out.append((atom, start, end))
    return out


def _glued_weekday(codes: str, end: int, start: int) -> bool:
    """Friday-Jun-15: a weekday glued to a date by a dash names that date's day (no range)."""
    return codes[end:start] == _DASH and (codes[end - 1] == _WEEKDAY) != (codes[start] == _WEEKDAY)


def _within(container: Atom, part: Atom) -> Atom | None:
    """`part` placed in the period `container` names, or None when they do not fit. A part
    placed in a partial still open takes the container there (late February 2024)."""
    partial = part.partial
    inner = part.container
    if isinstance(inner, Atom) and inner.kind == "partial" and inner.container is None:
        nested = _within(container, inner)
        return None if nested is None else part._replace(container=nested)
    if partial is None or part.kind not in ("partial", "rolling") or part.container is not None:
        return None
    if part.kind == "partial" and part.place != "bare":
        return None
    unit = _container_unit(container)
    if unit is None:
        return None
    if isinstance(partial, FirstN) and partial.unit == "day" and unit == "year":
        partial = partial._replace(container="year")  # 2024年前10天: of the year, not a month
    if isinstance(partial, LastN | LastWeek):  # the last N units of any bigger named period
        held = next((c for c in _HOLDS.get(partial.unit, ()) if c == unit), None)
        if held is None:
            return None  # 上周最后一个月: no month inside a week
        partial = partial._replace(container=held)
    if _CONTAINER_UNIT[partial.container] != unit:
        return None
    return Atom("partial", partial.unit, partial=partial, container=container, weekday=part.weekday)


def _container_unit(atom: Atom) -> str | None:
    """The unit of the one period an atom names (2024年, 上个月, 本周, 3月), if it can hold."""
    if atom.kind == "partial" and atom.partial is not None:
        part = atom.partial
        if (
            part.unit in ("month", "quarter")
            and getattr(part, "last_month", 0) == 0
            and part.container == "year"
        ):
            return part.unit  # 3月 + 上旬, Q3 + its last month
        if part.unit == "quarter" and getattr(part, "last_month", 0) == 0:
            return "quarter"  # 2024年第一季度 + 最后一个月
        return None
    if atom.kind in ("period", "this") and atom.unit in ("year", "quarter", "month", "week"):
        return atom.unit
    return None


def _agree(day: Atom, weekday: Atom) -> Atom | None:
    """10月12号，星期一 / Sunday, Feb 10: the date, which must fall on that weekday."""
    if weekday.kind != "partial" or weekday.container is not None or weekday.place != "bare":
        return None
    named = getattr(weekday.partial, "weekday", None)
    if named is None or day.unit != "day" or day.weekday >= 0:
        return None
    if day.kind not in ("partial", "period") or getattr(day.partial, "weekday", None) is not None:
        return None
    if day.kind == "partial" and day.partial is not None and day.partial.container == "week":
        return None
    return day._replace(weekday=named)
