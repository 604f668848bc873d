"""Never settle half a question (SPEC §4.1), as properties over generated queries: a known
expression with an unknown time word settles nothing; a comparison word never moves a window."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from resolver.timeexpr import resolve_time

SH = ZoneInfo("Asia/Shanghai")
NOWS = st.integers(1_735_689_600_000, 4_070_908_800_000)  # 2025 .. 2099: 2024 is past
examples = settings(max_examples=200, deadline=None)

# Expressions the scanner reads, alone, whatever now is.
KNOWN = (
    "最近3个月",
    "过去两周",
    "2024年3月",
    "2024年第一季度",
    "上个月",
    "去年",
    "本季度",
    "前三季度",
    "2024年Q1到Q3",
    "2024年3月和4月",
    "上周五",
    "3月上旬",
    "最近6小时",
    "最新一个月",
    "24年3月",
    "20240315",
    "2024年春节期间",
    "去年同月",
    "截至2024年3月",
    "自去年以来",
    "last 3 months",
    "March 2024",
    "last quarter",
    "Q1 2024",
    "first 3 quarters of 2024",
    "the same month last year",
    "since last year",
)
# Time words the scanner does not read; each may stand anywhere in the text. (圣诞节, 情人节,
# 清明节 and Christmas were here until SPEC §4.2 made them holidays the scanner reads.)
UNKNOWN_ANYWHERE = (
    "财年",
    "2025财年",
    "去年同期",
    "近期",
    "一段时间",
    "最近几个月",
    "若干天",
    "排灯节",
    "光明节",
    "寒假",
    "双休日",  # weekends in general (bare 周末 is this week's: docs/time-semantics.md)
    "工作日",
    "上午",
    "下半夜",
    "旺季",
    "FY2025",
    "fiscal year",
    "Diwali",
    "weekends",  # in general (a bare weekend is this week's: docs/time-semantics.md)
    "recently",
    "the same period last year",
    "a few weeks",
)
# Words that are time cues right after a time expression: 2024年3月前后, 最近3个月左右; and
# the edges of a period after one (2024年底, 3月初, Q3末).
UNKNOWN_AFTER = ("前后", "左右", "以前", "之后", "底", "初", "末")
FILLERS = ("", " ", "的", "的销售额", "，", " revenue ", "和")
COMPARISONS = ("同比", "环比", "对比", "相比", "较", "同比增长", "环比下降", " YoY", " MoM")
TAILS = ("", "增长了多少", "情况", "%")


def resolve(query: str, now: int) -> object:
    result = resolve_time(query, now_ms=now, tz=SH)
    return None if result is None else result.params()


@examples
@given(
    NOWS,
    st.sampled_from(KNOWN),
    st.sampled_from(UNKNOWN_ANYWHERE),
    st.sampled_from(FILLERS),
    st.booleans(),
)
def test_a_known_expression_with_an_unknown_time_word_settles_nothing(
    now: int, known: str, unknown: str, filler: str, unknown_first: bool
) -> None:
    first, last = (unknown, known) if unknown_first else (known, unknown)
    if not filler and first[-1].isascii() and last[0].isascii():
        filler = " "  # English words are written apart: ChristmasMarch is no text
    query = f"{first}{filler}{last}"
    assert resolve(query, now) is None, query


@examples
@given(NOWS, st.sampled_from([k for k in KNOWN if not k.isascii()]), st.sampled_from(UNKNOWN_AFTER))
def test_an_approximation_after_a_known_expression_settles_nothing(
    now: int, known: str, after: str
) -> None:
    if after in "底初末":
        assume(known[-1] in "年月度1234")  # 上周五底 is no phrase
        assume(not known.startswith("截至"))  # 截至2024年3月底 is read: the end of March
    query = f"{known}{after}的销量"
    assert resolve(query, now) is None, query


EN_KNOWN = ("March 2024", "Q1 2024", "last quarter", "2024", "last year", "this month")
# (early/mid/late March are read since SPEC §4.2: they are 上旬/中旬/下旬, not approximations.)
EN_BEFORE = ("around", "about", "approximately", "before", "after", "end of")


@examples
@given(NOWS, st.sampled_from(EN_KNOWN), st.sampled_from(EN_BEFORE))
def test_an_english_approximation_before_a_known_expression_settles_nothing(
    now: int, known: str, before: str
) -> None:
    query = f"revenue {before} {known}"
    assert resolve(query, now) is None, query


@examples
@given(NOWS, st.sampled_from(KNOWN), st.sampled_from(COMPARISONS), st.sampled_from(TAILS))
def test_a_comparison_word_never_changes_the_window(
    now: int, known: str, comparison: str, tail: str
) -> None:
    base = f"{known}的销售额"
    window = resolve(base, now)
    assert window is not None, base
    assert resolve(f"{base}{comparison}{tail}", now) == window
    assert resolve(f"对比{base}", now) == window
