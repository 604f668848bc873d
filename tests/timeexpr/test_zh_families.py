"""Chinese families of issue 28 (zh28), each with neighbours written here: the form itself,
other numbers and separators, with and without a year, in a sentence — and the neighbours
that must still settle nothing (ambiguous or half-read forms).

The clock is 2025-11-13 09:12:22.241 in Asia/Shanghai (a Thursday)."""

from __future__ import annotations

import pytest

from resolver.timeexpr import read_window

NOW_MS = 1762996342241  # 2025-11-13T09:12:22.241+08:00
ZONE = "Asia/Shanghai"
NOW = "2025-11-13T09:12:22.241"

Expected = tuple[str, str, str] | None  # (start, end, step) as local ISO times, or nothing
NOTHING: Expected = None


def day(first: str, last: str | None = None) -> Expected:
    return (f"{first}T00:00:00.000", f"{last or first}T23:59:59.999", "day")


def month(first: str, last: str, days: int) -> Expected:
    return (f"{first}-01T00:00:00.000", f"{last}-{days:02d}T23:59:59.999", "month")


THIS_YEAR = ("2025-01-01T00:00:00.000", NOW, "year")
YEAR_2018 = ("2018-01-01T00:00:00.000", "2018-12-31T23:59:59.999", "year")

# -- an age is no time: 18周岁, 十八岁 (the number is the age's, not 今年's) ----------------------
AGES: list[tuple[str, Expected]] = [
    ("我今年18周岁了", THIS_YEAR),
    ("今年十八岁的用户", THIS_YEAR),
    ("今年满18岁的会员数", THIS_YEAR),
    ("今年3虚岁的孩子", THIS_YEAR),
    ("3岁以下儿童最近3天的订单", ("2025-11-10T09:12:22.241", NOW, "day")),
    ("18周的订单", NOTHING),  # 18 weeks: a count of weeks, placed nowhere
    ("今年18周", NOTHING),  # 18 weeks of this year? week 18? not said
]
# -- 月份, 年份 are nouns ("the month", "the year") unless a number is glued to them ----------
UNIT_NOUNS: list[tuple[str, Expected]] = [
    ("2018年12月的月份不是0", month("2018-12", "2018-12", 31)),
    ("2018年10月的月份是10", month("2018-10", "2018-10", 31)),
    ("2018年十二月的月份不是0", month("2018-12", "2018-12", 31)),
    ("2018 看起来是一个年份", YEAR_2018),
    ("2018年是一个年份", YEAR_2018),
    ("3月份的销量", month("2025-03", "2025-03", 31)),
    ("十二月份", month("2024-12", "2024-12", 31)),
    ("2024年份的数据", ("2024-01-01T00:00:00.000", "2024-12-31T23:59:59.999", "year")),
    ("上个月份的订单", month("2025-10", "2025-10", 31)),
    ("哪个月份的销量最高", NOTHING),  # no period named at all
    ("一个年份", NOTHING),
    ("2018年12月的月份", month("2018-12", "2018-12", 31)),
    ("最近几个月份", NOTHING),  # 几: a count nobody can compute
]
# -- an equals sign is plain; a comparison (>=, <=, !=, ≠) is not ------------------------------
EQUALS: list[tuple[str, Expected]] = [
    ("= 2019", ("2019-01-01T00:00:00.000", "2019-12-31T23:59:59.999", "year")),
    ("年份 = 2019年", ("2019-01-01T00:00:00.000", "2019-12-31T23:59:59.999", "year")),
    ("订单 == 2019年", ("2019-01-01T00:00:00.000", "2019-12-31T23:59:59.999", "year")),
    (">= 2019", NOTHING),
    ("> = 2019", NOTHING),
    ("<= 2019年", NOTHING),
    ("!= 2019", NOTHING),
    ("≠ 2019年", NOTHING),
    ("=< 2019", NOTHING),
    ("2019 =>", NOTHING),
]

CASES = AGES + UNIT_NOUNS + EQUALS


def _window(text: str) -> Expected:
    answer = read_window(text, now_ms=NOW_MS, timezone=ZONE)
    if not answer.settled:
        return None
    assert answer.start_iso is not None
    assert answer.end_iso is not None
    assert answer.step
    return (answer.start_iso[:23], answer.end_iso[:23], answer.step)


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reads_exactly_or_settles_nothing(text: str, expected: Expected) -> None:
    assert _window(text) == expected


@pytest.mark.parametrize("text", [t for t, e in CASES if e is None])
def test_what_settles_nothing_says_why(text: str) -> None:
    """A text that settles nothing either names its time words or holds none."""
    answer = read_window(text, now_ms=NOW_MS, timezone=ZONE)
    assert not answer.settled
    for words in answer.unread:
        assert words.strip(" .,;:!?。，；：！？、\"'“”（）()") == words.strip(), words
