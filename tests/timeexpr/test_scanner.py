"""The first-character dispatch of the scanner finds exactly what one big alternation finds."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.gold import load
from resolver.timeexpr.lexicon import normalize
from resolver.timeexpr.patterns import ALTERNATIVES, _outer, atoms
from resolver.timeexpr.scanner import Reading, read_time
from resolver.timeexpr.terms import Clock

FULL = re.compile("|".join(_outer(name, pattern) for name, _, pattern, _ in ALTERNATIVES), re.ASCII)

# Words and characters the atoms are made of, and some that they are not.
_LINES = (
    "最近 近 过去 上 上上 本 这个 当前 目前 今年 去年 前年",
    "大前年 明年 昨天 前天 第 季度 季 个 月 周 星期 礼拜",
    "年 年度 日 号 天 前 以来 至今 至 到 从 自 半 上半年",
    "下半年 一 二 两 三 四 十 十二 二十三 〇 二〇二四",
    "现在 今天 截至目前 按月 每日 趋势 的 药品 数量 华东",
    "- ~ — 1 3 12 15 31 2024 2025 2024-03 2024-03-15 2025-w10 q1 q4 h1",
    "last past previous prior recent most latest trailing ltm ttm this current week month",
    "quarter year years months days the day before yesterday ago a an one two twelve",
    "twenty-four half first second third fourth 1st jan january feb mar march apr may",
    "june jul aug sept oct nov dec to date from between and since now today right as",
    "of at present real-time ytd mtd by daily weekly of revenue sales , .",
    "年初 月初 季初 周初 本月初 今年年初 以上 top start beginning 2000名 12/25/2025 / 2000 users",
)
_PIECES = tuple(word for line in _LINES for word in line.split())


def _spans(text: str, matches: list[re.Match[str]]) -> list[tuple[str | None, int, int]]:
    return [(found.lastgroup, found.start(), found.end()) for found in matches]


def _check(query: str) -> None:
    text = normalize(query)
    assert _spans(text, list(atoms(text))) == _spans(text, list(FULL.finditer(text))), query


def test_dispatch_matches_full_alternation_on_the_gold_queries() -> None:
    for case in load():
        _check(case.query)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=8), st.sampled_from(("", " ")))
def test_dispatch_matches_full_alternation_on_generated_text(pieces: list[str], sep: str) -> None:
    _check(sep.join(pieces))


@pytest.mark.parametrize("blank", ["", " ", "\n\t "])
def test_a_blank_text_reads_as_nothing_at_all(blank: str) -> None:
    reading = read_time(blank, Clock(1_762_996_342_241, ZoneInfo("UTC")))
    assert reading == Reading()
    assert not reading.says_anything
