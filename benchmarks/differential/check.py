"""The check: where the scanner settles a window, every date the peer reports must lie inside
what the scanner understood (SPEC §4.2: a 200 never ignores a time-like token).

A peer mention is covered when each of its words is inside the scanner's spans, or is excused
by one of three filters (docs/time-differential.md), each a reading of SPEC §4.2:

- glue: a preposition, article or conjunction the peer takes in with a date (`in 2024`, `on
  Monday`, `the 15th`, `and in June`), and `by` when it ends the mention (`last month by
  region`): none is time-like (a date it joins is checked on its own words);
- price: a currency sign and the number right after it (`$12`): SPEC §4.2 names it a price;
- bare number: a mention that is a number of 1–2 digits alone, with no time word beside it in
  the text (`top 10`): no (a) word to attach to, so no time by SPEC §4.2 (b);
- tail: Chinese words the peer carries on past the date to the end of its mention
  (`2019年，上季度` + `的营收按地区`) when none of their characters is one of SPEC §4.2's time
  characters (`TIME_CHARACTERS`: units, numerals, relative and boundary words).

What is left is a violation: a scanner miss, unless a reviewed entry of `allowlist.py` says
why the peer is wrong there.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal, NamedTuple

GLUE = frozenset(
    (
        "in",
        "on",
        "at",
        "of",
        "the",
        "a",
        "an",
        "for",
        "during",
        "over",
        "just",
        "right",
        "and",
        "or",
    )
)
TRAILING_GLUE = frozenset(("by",))
CURRENCY = frozenset("$¥￥€£")
# Words beside a bare number that make it time (SPEC §4.2 (a)), lower-cased.
TIME_WORDS = frozenset(
    (
        "day", "days", "week", "weeks", "month", "months", "quarter", "quarters", "year",
        "years", "hour", "hours", "minute", "minutes", "am", "pm", "noon", "o'clock", "jan",
        "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june",
        "jul", "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov",
        "november", "dec", "december", "mon", "monday", "tue", "tuesday", "wed", "wednesday",
        "thu", "thursday", "fri", "friday", "sat", "saturday", "sun", "sunday", "ago", "st",
        "nd", "rd", "th", "年", "月", "日", "号", "號", "周", "週", "星", "点", "點", "时",
        "時", "天", "季", "旬", "小", "分", "秒",
    )
)  # fmt: skip

# Every character of SPEC §4.2 (a)-(c)'s Chinese lists (simplified and traditional), numerals
# included: a run of Chinese without any of these holds nothing time-like.
TIME_CHARACTERS = frozenset(
    "年月日号號周週星期礼禮拜季度旬小时時點点分钟鐘秒上下午晚凌晨早夜代世纪紀农農历曆阴陰闰閏"
    "春夏秋冬节節清明寒暑后後来來未前以之至今昨去本这這初中底末半到截止左右起天旦宵夕"
    "一二三四五六七八九十廿卅零〇两兩俩倆仨百千万萬第"
)
# A word: Latin letters (with an apostrophe part), a digit run, or one other character.
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?|[0-9]+|\S")

Excuse = Literal["glue", "price", "bare number", "tail"]


class Coverage(NamedTuple):
    """How a peer mention stands against the scanner's spans."""

    mention: str
    start: int  # where it is in the text (-1: not found, then nothing of it is covered)
    uncovered: tuple[str, ...]  # its words outside the spans that no filter excuses
    excused: tuple[tuple[str, Excuse], ...]  # its words outside the spans that a filter excuses

    @property
    def covered(self) -> bool:
        """Whether the scanner understood everything of the mention that counts."""
        return not self.uncovered


def locate(text: str, mentions: list[str]) -> list[int]:
    """Where each mention is, searching on from the previous one (the peer reports in order)."""
    places = []
    position = 0
    for mention in mentions:
        found = text.find(mention, position)
        if found < 0:
            found = text.find(mention)
        places.append(found)
        if found >= 0:
            position = found + len(mention)
    return places


def coverage(text: str, mention: str, start: int, spans: tuple[tuple[int, int], ...]) -> Coverage:
    """Which words of `mention` (at `start` in `text`) lie outside `spans`, filters applied."""
    if start < 0:
        return Coverage(mention, start, (mention,), ())
    inside = bytearray(len(text))
    for first, last in spans:
        inside[first:last] = b"\x01" * (last - first)
    words = [(m.group(), start + m.start()) for m in _WORD.finditer(mention)]
    content = [(w, at) for w, at in words if not _punctuation(w)]
    outside = [(w, at) for w, at in content if not all(inside[at : at + len(w)])]
    uncovered: list[str] = []
    excused: list[tuple[str, Excuse]] = []
    meaningful = [w for w, _ in content if w.lower() not in GLUE]
    tail = _tail(content, inside)
    for word, at in outside:
        reason = _excuse(text, word, at, is_last=(word, at) == content[-1], alone=meaningful)
        if reason is None and (word, at) in tail:
            reason = "tail"
        if reason is None:
            uncovered.append(word)
        else:
            excused.append((word, reason))
    return Coverage(mention, start, tuple(uncovered), tuple(excused))


def _excuse(text: str, word: str, at: int, *, is_last: bool, alone: list[str]) -> Excuse | None:
    folded = word.lower()
    if folded in GLUE or (is_last and folded in TRAILING_GLUE):
        return "glue"
    if word in CURRENCY or (word.isdigit() and at > 0 and text[at - 1] in CURRENCY):
        return "price"
    if word.isdigit() and len(word) <= 2 and alone == [word] and not _beside_time(text, at, word):
        return "bare number"
    return None


def _tail(content: list[tuple[str, int]], inside: bytearray) -> set[tuple[str, int]]:
    """The Chinese words after the mention's last covered word, when none is time-like."""
    covered = [i for i, (w, at) in enumerate(content) if all(inside[at : at + len(w)])]
    if not covered:
        return set()
    after = content[covered[-1] + 1 :]
    if all(_chinese(w) and w not in TIME_CHARACTERS for w, _ in after):
        return set(after)
    return set()


def _chinese(word: str) -> bool:
    return len(word) == 1 and "\u3400" <= word <= "\u9fff"


def _beside_time(text: str, at: int, word: str) -> bool:
    """Whether the word right before or right after a number (spaces skipped) is a time word."""
    before = _WORD.findall(text[:at].rstrip()[-12:])
    after = _WORD.findall(text[at + len(word) :].lstrip()[:12])
    near = [before[-1]] if before else []
    near += [after[0]] if after else []
    return any(w.lower() in TIME_WORDS for w in near)


def _punctuation(word: str) -> bool:
    return len(word) == 1 and (word.isspace() or unicodedata.category(word).startswith("P"))
