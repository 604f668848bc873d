"""The framing property (SPEC §4.3): if a text T settles to a window W, then T with plain words
or punctuation added before or after it — politeness, questions, sentence ends, quotes,
brackets, code-switching — settles to W. Generated over every settled text of every gold set
and corpus (the mirror of test_insertion.py: adding a time-like token never keeps a window)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchmarks.accuracy import DEFAULT_SOURCES, load_any
from benchmarks.gold import Case

ZH_FRAMES = (
    ("请问", ""), ("帮我查一下", "的销量"), ("", "。"), ("", "？"), ("", "！"), ("“", "”"),
    ("（", "）"), ("【", "】"), ("", "，谢谢"), ("我想看看", "的数据吧"), ("请问", "一共多少？"),
    ("", " please"), ("Hi，", "。"), ("「", "」"), ('"', '"'), ("", "…"),
)  # fmt: skip
EN_FRAMES = (
    ("Please show orders ", "."), ("", "."), ("", "?"), ("", "!"), ('"', '"'), ("(", ")"),
    ("Can you tell me sales ", "?"), ("", ", thanks"), ("Hi, ", "."), ("", "，谢谢"),
    ("请问 ", "？"), ("[", "]"), ("show me revenue ", " please."), ("'", "'"), ("", "..."),
)  # fmt: skip


def _settled_cases() -> list[Case]:
    cases = []
    seen: set[tuple[str, int, str]] = set()
    for path in DEFAULT_SOURCES:
        for case in load_any(path):
            key = (case.query, case.now_ms, str(case.tz))
            if key in seen:
                continue
            seen.add(key)
            result = case.run()
            if result is not None and result.params() is not None:
                cases.append(case)
    return cases


CASES = _settled_cases()


def test_the_property_runs_over_every_source() -> None:
    assert len(CASES) > 1400  # 1,498 settled texts at the time of writing
    assert {case.lang for case in CASES} >= {"zh", "en"}


@pytest.mark.parametrize("frames", ["zh", "en"])
def test_plain_words_and_punctuation_around_a_settled_text_keep_its_window(frames: str) -> None:
    broken = []
    for case in CASES:
        table = ZH_FRAMES if case.lang == "zh" else EN_FRAMES
        if case.lang != frames and frames in ("zh", "en"):
            continue
        bare = case.run()
        assert bare is not None
        window = bare.params()
        for before, after in table:
            framed = replace(case, query=f"{before}{case.query}{after}")
            result = framed.run()
            got = None if result is None else result.params()
            if got != window:
                broken.append((case.id, framed.query, window, got))
    assert broken == [], f"{len(broken)} framed texts lost their window, e.g. {broken[:5]}"
