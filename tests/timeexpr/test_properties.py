"""Properties of resolve_time over random now, timezone and N (hypothesis)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, get_args
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.timeexpr import Step, TimeResolution, resolve_time, to_epoch_ms

# Half-hour and 45-minute offsets, southern-hemisphere DST, and zones that change at midnight.
ZONES = [
    ZoneInfo(name)
    for name in (
        "UTC",
        "America/New_York",
        "Asia/Kolkata",
        "Australia/Lord_Howe",
        "Pacific/Chatham",
        "Asia/Shanghai",
        "Europe/Berlin",
        "America/Santiago",
        "Asia/Beirut",
    )
]
STEPS: tuple[Step, ...] = get_args(Step)
ZH_UNITS: dict[Step, str] = {
    "day": "天",
    "week": "周",
    "month": "个月",
    "quarter": "个季度",
    "year": "年",
}
ZH_PREVIOUS: dict[Step, str] = {
    "day": "昨天",
    "week": "上周",
    "month": "上个月",
    "quarter": "上季度",
    "year": "去年",
}
ZH_THIS: dict[Step, str] = {"week": "本周", "month": "本月", "quarter": "本季度", "year": "今年"}
MIN_NOW = 978307200000  # 2001-01-01
MAX_NOW = 4070908800000  # 2099-01-01

nows = st.integers(MIN_NOW, MAX_NOW - 1)
zones = st.sampled_from(ZONES)
counts = st.integers(1, 24)
units = st.sampled_from(STEPS)
examples = settings(max_examples=120, deadline=None)


def zh_number(n: int) -> str:
    """1..99 in Chinese numerals (一, 十二, 二十三)."""
    digits = "零一二三四五六七八九"
    tens, ones = divmod(n, 10)
    text = ("" if tens == 1 else digits[tens]) + "十" if tens else ""
    return text + (digits[ones] if ones else "")


def run(query: str, now: int, tz: ZoneInfo, **overrides: Any) -> TimeResolution:
    result = resolve_time(query, now_ms=now, tz=tz, **overrides)
    assert result is not None, query
    return result


def window(query: str, now: int, tz: ZoneInfo) -> tuple[int, int, Step]:
    result = run(query, now, tz)
    assert result.instant is False, query
    assert result.start is not None
    assert result.end is not None
    assert result.step is not None
    assert result.start <= result.end, query
    assert result.step in STEPS
    return result.start, result.end, result.step


def rolling_queries(n: int, unit: Step) -> list[str]:
    zh = ZH_UNITS[unit]
    return [f"最近{n}{zh}", f"近{zh_number(n)}{zh}", f"过去{n}{zh}", f"last {n} {unit}s"]


@examples
@given(nows, zones, counts, units)
def test_last_n_units_ends_at_now_and_starts_n_units_back(
    now: int, tz: ZoneInfo, n: int, unit: Step
) -> None:
    starts = set()
    for query in rolling_queries(n, unit):
        start, end, step = window(query, now, tz)
        assert end == now
        assert step == unit
        starts.add(start)
    assert len(starts) == 1  # Chinese, Chinese numerals and English agree


@examples
@given(nows, zones, counts, units)
def test_n_units_ago_is_the_start_of_last_n_units(
    now: int, tz: ZoneInfo, n: int, unit: Step
) -> None:
    last_start, _, _ = window(f"最近{n}{ZH_UNITS[unit]}", now, tz)
    for query in (
        f"{n}{ZH_UNITS[unit]}前",
        f"{zh_number(n)}{ZH_UNITS[unit]}前",
        f"{n} {unit}s ago",
    ):
        start, end, step = window(query, now, tz)
        assert start == end == last_start
        assert step == unit


@examples
@given(nows, zones, units)
def test_previous_period_ends_before_now_where_this_period_starts(
    now: int, tz: ZoneInfo, unit: Step
) -> None:
    start, end, step = window(ZH_PREVIOUS[unit], now, tz)
    assert end < now
    assert step == unit
    english = "yesterday" if unit == "day" else f"last {unit}"
    assert window(english, now, tz) == (start, end, step)
    if unit in ZH_THIS:
        this_start, this_end, this_step = window(ZH_THIS[unit], now, tz)
        assert this_start == end + 1  # the periods tile: no gap, no overlap
        assert this_end == now
        assert this_step == unit


@examples
@given(nows, zones, units)
def test_canonical_expression_converts_back_to_the_same_window(
    now: int, tz: ZoneInfo, unit: Step
) -> None:
    for query in (ZH_PREVIOUS[unit], f"最近3{ZH_UNITS[unit]}", f"3{ZH_UNITS[unit]}前"):
        result = run(query, now, tz)
        assert result.expr is not None
        first, _, last = result.expr.partition("..")
        assert to_epoch_ms(first, edge="start", now_ms=now, tz=tz) == result.start
        assert to_epoch_ms(last or first, edge="end", now_ms=now, tz=tz) == result.end


@examples
@given(st.dates(date(2001, 1, 1), date(2098, 12, 30)), zones, nows)
def test_explicit_days_tile_and_end_at_their_last_ms(day: date, tz: ZoneInfo, now: int) -> None:
    start, end, step = window(f"{day.year}年{day.month}月{day.day}日", now, tz)
    following = day + timedelta(days=1)
    next_start, _, _ = window(following.isoformat(), now, tz)
    assert step == "day"
    assert end + 1 == next_start
    assert to_epoch_ms(day.isoformat(), edge="start", now_ms=now, tz=tz) == start
    assert to_epoch_ms(day.isoformat(), edge="end", now_ms=now, tz=tz) == end


@examples
@given(nows, zones, st.sampled_from(STEPS), st.sampled_from((True, False, None)))
def test_steps_from_overrides_and_words_stay_in_the_enum(
    now: int, tz: ZoneInfo, step: Step, instant: bool | None
) -> None:
    for query in ("最近3个月的趋势", "本周按天", "2024年的走势", "药品数量", "当前库存", "3月"):
        result = resolve_time(query, now_ms=now, tz=tz, instant=instant, step=step)
        assert result is not None
        if result.instant:
            assert result.params() == {"instant": True}
        else:
            assert result.step == step
        if result.start is not None and result.end is not None:
            assert result.start <= result.end
