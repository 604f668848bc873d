"""The reading's parts: tokens, the time-like detector (SPEC §4.2's own examples), the
grammar's first-class dispatch, and the bounds that keep a hostile text cheap."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.gold import GOLD_PATH, GOLD_V2_PATH, load
from benchmarks.timeadversarial import CLASSES, hostile
from resolver.timeexpr import read, read_context
from resolver.timeexpr.detector import time_like
from resolver.timeexpr.grammar import PHRASES, SCANNERS, _outer, phrases
from resolver.timeexpr.lexicon import NAME, normalize
from resolver.timeexpr.reading import clear_cache
from resolver.timeexpr.tokens import tokenize


def _time_words(text: str) -> list[str]:
    normal = normalize(text)
    tokens = tokenize(normal)
    marks = time_like(tokens)
    return [normal[tokens.starts[i] : tokens.ends[i]] for i, mark in enumerate(marks) if mark]


# SPEC §4.2: "前十名, top 10 stores, 单价大于100, 按产品线, show revenue by region, 下单量 and 分析
# hold nothing time-like, while 上个月15, 2024年3月前后, last month or later and >= 2019 do".
NOTHING_TIME_LIKE = ["前十名", "top 10 stores", "单价大于100", "按产品线", "show revenue by region",
                     "下单量", "分析", "今日头条", "GPT-4", "orders over $12", "3号店", "增长3.5%",
                     "May I help", "what may happen", "2000名员工"]  # fmt: skip
TIME_LIKE = [("上个月15", ["上个月", "15"]), ("2024年3月前后", ["2024", "年", "3", "月", "前后"]),
             ("last month or later", ["last", "month", "or later"]),
             (">= 2019", [">", "=", "2019"]),
             ("between 3 and 8 yesterday", ["between", "3", "and", "8", "yesterday"]),
             ("2024Q5", ["2024", "q5"]), ("康熙20年", ["康熙", "20", "年"])]  # fmt: skip


@pytest.mark.parametrize("text", NOTHING_TIME_LIKE)
def test_words_that_hold_no_time(text: str) -> None:
    assert _time_words(text) == []


@pytest.mark.parametrize(("text", "words"), TIME_LIKE)
def test_words_that_are_time_like(text: str, words: list[str]) -> None:
    assert _time_words(text) == words


def test_traditional_characters_read_as_simplified() -> None:
    assert read("上個月").spans == read("上个月").spans == ((0, 3),)
    assert read("下週五").read == ("下週五",)


def test_tokens_keep_the_texts_indices() -> None:
    text = "ＦＹ２０２５ Q1 近１２个月"
    normal = normalize(text)
    assert len(normal) == len(text)
    tokens = tokenize(normal)
    assert [NAME[c] for c in tokens.codes if NAME[c] not in ("SPACE", "BAR")] == [
        "FISCAL", "QLABEL", "ZH_RECENT", "D12", "GE", "MONTH"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("words", "value"),
    [("two thousand and fifteen", 2015), ("twenty twenty-four", 2024), ("twenty nine", 29),
     ("nineteen ninety nine", 1999), ("one hundred and five", 105)],
)  # fmt: skip
def test_spelled_numbers(words: str, value: int) -> None:
    tokens = tokenize(words)
    assert [tokens.values[0]] == [value]


_FULL = re.compile("|".join(_outer(p.name, p.pattern) for p in PHRASES))


def _dispatch_matches_full_alternation(text: str) -> None:
    codes = tokenize(normalize(text)).codes
    for index in range(len(codes)):
        full = _FULL.match(codes, index)
        scanner = SCANNERS.get(codes[index])
        quick = scanner.match(codes, index) if scanner is not None else None
        assert (full and (full.lastgroup, full.end())) == (quick and (quick.lastgroup, quick.end()))


def test_dispatch_matches_the_full_alternation_on_the_gold_queries() -> None:
    for case in load(GOLD_PATH) + load(GOLD_V2_PATH):
        _dispatch_matches_full_alternation(case.query)


_PIECES = ("最近", "3", "个", "月", "上", "周五", "2024", "年", "第", "季度", "到", "和", "last",
           "next", "week", "march", "15th", "of", "the", "-", "/", "q1", "今天", "以来", "前",
           " ")  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=10))
def test_dispatch_matches_the_full_alternation_on_generated_text(pieces: list[str]) -> None:
    _dispatch_matches_full_alternation("".join(pieces))


@pytest.mark.parametrize("blank", ["", " ", "\n\t "])
def test_a_blank_text_says_nothing(blank: str) -> None:
    assert not read(blank).says_anything


def test_phrases_of_a_text_are_found_left_to_right() -> None:
    tokens = tokenize(normalize("从2024年1月到3月"))
    # 2024年, then 1月到3月 (one span of months, its year left open)
    assert [atom.kind for atom, _, _ in phrases(tokens)] == ["period", "partial"]


# Hostile texts of every class (SPEC §4.2: reading is linear in the text's length; issue 20:
# 4,000 characters in at most 5 ms). The bound is checked generously here (timing on a shared
# machine); `python -m benchmarks timeadversarial` prints the figures.
@pytest.mark.parametrize("name", sorted(CLASSES))
def test_a_hostile_text_is_read_quickly(name: str) -> None:
    text = hostile(CLASSES[name])
    clear_cache()
    began = time.perf_counter()
    read(text)
    read_context(text, zone_given=False)
    assert time.perf_counter() - began < 0.25, name
