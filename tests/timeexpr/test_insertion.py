"""The guard as a property (SPEC §4.2): inserting any time-like token into a text whose window
is known never leaves a 200 with the old window — the new text settles nothing, or a window
the inserted words changed.

The tokens come from the scanner's own lexicon (every class the detector calls time-like), so
a word added there is tried here at once; the texts are the gold sets' settled queries.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchmarks.gold import GOLD_PATH, GOLD_V2_PATH, load
from resolver.timeexpr import resolve_time
from resolver.timeexpr.lexicon import CODE, EN, EN_PHRASES, KIND, ZH, normalize
from resolver.timeexpr.tokens import tokenize

SH = ZoneInfo("Asia/Shanghai")
NOW = 1_762_996_342_241  # Thu 2025-11-13 09:12:22.241 +08:00

_STRONG = {name for name, code in CODE.items() if KIND[code] == "strong"}
# Read words that add no cue (step words, instant words), and weekdays, which may agree with
# the date beside them (周三 2025-01-01 is that Wednesday): tried elsewhere.
# English unit words make one phrase with a year beside them ("year 2025"): left out too.
# A zone the text names (北京时间, EST) is read too (SPEC §4.3): it places the window in that
# zone, which may keep it (a rolling window ending now is the same in every zone).
_UNREAD_ALONE = {
    "STEP", "STEPFINE", "NOW", "LATEST", "JIDU", "YEARDU", "WEEKDAY", "E_YEAR", "TZWORD",
}  # fmt: skip


def _words(table: dict[str, tuple[str, object]]) -> list[str]:
    # A holiday's 假期/长假 is part of it, and keeps one-day holidays one day (SPEC §4.1).
    return sorted(
        w for w, (cls, value) in table.items() if cls in _STRONG - _UNREAD_ALONE and value != "span"
    )


# "may", "sat" and "sun" are time words only beside a date (May I, sat down): not tried alone.
_ACCIDENTAL = {"may", "sat", "sun"}
ZH_WORDS = [w for w in _words(ZH) if w != "十一"]  # 十一 is the holiday only before 假期
EN_WORDS = [w for w in _words(EN) + _words(EN_PHRASES) if w not in _ACCIDENTAL]
# Numbers that join a time word or form a date (time-like anywhere).
ZH_MADE = ["3天", "十五号", "2019年", "3月5日", "下午3点", "10:30", "第3周", "两年前", "几天"]
EN_MADE = ["5 days", "on the 15th", "2019", "March 5", "3pm", "10:30", "week 3",
           "two years ago", "a few days"]  # fmt: skip
# Relative words: time-like where they join a time, so they go right beside the expression.
ZH_JOINED = ["以前", "之后", "前后", "左右", "或更早", "以来", "初", "底", "之前"]
# English: "before March" joins what follows ("last month before the promotion" holds none).
EN_BEFORE = ["before", "after", "around", "until", "by", "about", "approximately", "mid"]
EN_AFTER = ["or later", "or earlier", "and beyond", "ish"]

# Texts with a comparison word are left out: the period after 环比 is the one compared with,
# which leaves the window as it is by design (tests/timeexpr/test_guard.py checks that).
_COMPARISON = ("同比", "环比", "较", "相比", "对比", "vs", "yoy", "mom", "compared", "versus")
_KNOWN = [
    case
    for case in load(GOLD_PATH) + load(GOLD_V2_PATH)
    if case.expected is not None
    and case.instant is None
    and case.step is None
    and not any(word in case.query.lower() for word in _COMPARISON)
]
ZH_KNOWN = [case.query for case in _KNOWN if case.lang == "zh"]
EN_KNOWN = [case.query for case in _KNOWN if case.lang == "en"]


def _window(text: str) -> object:
    result = resolve_time(text, now_ms=NOW, tz=SH)
    return None if result is None else result.params()


def _check(known: str, word: str, position: int, joiner: str) -> None:
    # 截至2024年6月底 is 截至2024年6月: the end of a period as of which is its end already;
    # 最近3个月以来 is 最近3个月 (docs/time-semantics.md).
    assume(not (word in ("底", "末") and any(w in known for w in ("截至", "截止", "为止"))))
    result = resolve_time(known, now_ms=NOW, tz=SH)
    rolling = result is not None and (result.expr or "").endswith("..now")
    assume(not (word == "以来" and rolling))
    # 周三昨天: a day beside a weekday it falls on is that day (10月12号星期三).
    days = ("昨天", "昨日", "今天", "明天", "明日", "前天", "后天", "yesterday", "tomorrow")
    assume(not (word in days and any(d in known for d in ("周", "星期", "礼拜", "day"))))
    old = _window(known)
    assume(old is not None and old.get("instant") is not True)  # type: ignore[attr-defined]
    # A word that names the same window again, or a period holding it (今年, YTD before 前两个
    # 季度: its container), may leave it as it is.
    said = _window(word)
    assume(said != old)
    assume(not _holds(said, old))
    text = known[:position] + joiner + word + joiner + known[position:]
    # Glued to its neighbours into another word, the token was not inserted: 至今 + 日 is
    # 至今日, a word of its own (the same "until today").
    assume(not _fused(text, position + len(joiner), len(word)))
    assert _window(text) != old, (known, word, text)


def _fused(text: str, start: int, length: int) -> bool:
    """Whether a token of the text runs across an edge of the inserted span."""
    tokens = tokenize(normalize(text))
    end = start + length
    return any(
        (first < start < last) or (first < end < last)
        for first, last in zip(tokens.starts, tokens.ends, strict=True)
    )


def _holds(outer: object, inner: object) -> bool:
    if not isinstance(outer, dict) or not isinstance(inner, dict) or "start" not in outer:
        return False
    return bool(outer["start"] <= inner["start"] and inner["end"] <= outer["end"])


def _edges(known: str) -> tuple[int, int]:
    """Where the words that made the window begin and end in the text."""
    result = resolve_time(known, now_ms=NOW, tz=SH)
    matched = "" if result is None or result.matched is None else result.matched
    start = known.find(matched) if matched else 0
    return max(start, 0), max(start, 0) + len(matched)


# The same examples on every run (CI never meets a new one by chance); `--hypothesis-seed` or a
# local change of `derandomize` explores further.
settings_ = settings(max_examples=400, deadline=None, derandomize=True, database=None)


@settings_
@given(st.sampled_from(ZH_KNOWN), st.sampled_from(ZH_WORDS + ZH_MADE), st.integers(0, 3))
def test_a_chinese_time_word_inserted_never_keeps_the_old_window(
    known: str, word: str, where: int
) -> None:
    # At the ends of the text and of the words that made the window: inside a word, the
    # inserted one would make another (最 + 晚期 + 近7天 reads 最晚 + 期).
    start, end = _edges(known)
    _check(known, word, (0, start, end, len(known))[where], "")


@settings_
@given(
    st.sampled_from(EN_KNOWN + ZH_KNOWN),
    st.sampled_from(EN_WORDS + EN_MADE),
    st.sampled_from([0, 100]),
)
def test_an_english_time_word_inserted_never_keeps_the_old_window(
    known: str, word: str, where: int
) -> None:
    _check(known, word, round(where / 100 * len(known)), " ")


@settings_
@given(st.sampled_from(ZH_KNOWN), st.sampled_from(ZH_JOINED), st.booleans())
def test_a_chinese_relative_word_beside_the_window_never_keeps_it(
    known: str, word: str, after: bool
) -> None:
    start, end = _edges(known)
    _check(known, word, end if after else start, "")


@settings_
@given(st.sampled_from(EN_KNOWN), st.sampled_from(EN_BEFORE + EN_AFTER))
def test_an_english_relative_word_beside_the_window_never_keeps_it(known: str, word: str) -> None:
    start, end = _edges(known)
    _check(known, word, end if word in EN_AFTER else start, " ")
