"""Reading a text, clock-free — named passes, each its own module:

1. tokens (`tokens.py`, words from the `lang` tables via `lexicon.py`);
2. phrases (`grammar.py` over the tables of `lang/`), left to right, each an `Atom`;
3. merge (`merge.py`): containers (2024年 + 3月, Friday last week) and expressions (ranges,
   lists, since, as-of, hour ranges); here a since followed by an as-of becomes one range
   (今年以来截至昨天) and two windows written as one (上个月的上个月) settle nothing;
4. guard (`guard.py`, with `detector.py`): every time-like token outside what was read is
   "unread", and then the text settles nothing (SPEC §4.2, §4.3);
5. evaluate (`evaluate.py`) turns the `Reading` into a window at a given now, so a text is read
   once and cached (`read`) while the clock moves.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import islice, pairwise
from typing import NamedTuple

from resolver.timeexpr.atoms import IMPOSSIBLE
from resolver.timeexpr.clocks import zone_of
from resolver.timeexpr.containers import containers
from resolver.timeexpr.grammar import named_phrases
from resolver.timeexpr.guard import all_covered, time_words, unread_runs
from resolver.timeexpr.lexicon import CODE, normalize
from resolver.timeexpr.merge import NOT_WINDOWS, Expression, Found, merged
from resolver.timeexpr.result import Step
from resolver.timeexpr.tokenlist import Tokens
from resolver.timeexpr.tokens import tokenize


class Reading(NamedTuple):
    """What a text says about time, clock-free: its candidate windows, its instant word, step
    and trend words, and the time-like words it could not read."""

    text: str
    expressions: tuple[Expression, ...] = ()
    instant: str | None = None  # the instant word, when there is no window
    step: Step | None = None  # the first step word outside the window
    step_word: str | None = None
    trend: bool = False
    unread: tuple[str, ...] = ()  # time-like words nothing read: the text settles nothing
    spans: tuple[tuple[int, int], ...] = ()  # what was understood: character spans of the text
    zone: str | None = None  # a zone the text names for its window (昨天（北京时间）): SPEC §4.3

    @property
    def read(self) -> tuple[str, ...]:
        """The words understood, as written."""
        return tuple(self.text[start:end] for start, end in self.spans)

    @property
    def says_anything(self) -> bool:
        """Whether the text holds any time word at all (read or not)."""
        return bool(self.expressions or self.instant or self.step or self.unread)


# A text longer than this is no question about time anyone asks: it is not read (it settles
# nothing), which bounds the scanner's work per text; so does a text of more time phrases than
# MAX_PHRASES (or of more time words than tokens.MAX_TIME_TOKENS).
MAX_TEXT = 4000
MAX_PHRASES = 32
_C = CODE
_SPACE, _DE, _COMMA = _C["SPACE"], _C["ZH_DE"], _C["COMMA"]
_ZH_GAP = frozenset((_SPACE, _DE))
_ZH_COMMA_GAP = frozenset((_SPACE, _DE, _COMMA))
_EN_GAP = frozenset((_SPACE, _COMMA, _C["OF"], _C["IN"], _C["THE"]))
_AGREE_GAP = frozenset((_SPACE, _COMMA, _DE))
_RANGE_WORDS = frozenset((_C["DASH"], _C["ZH_TO"]))
_EN_RANGE_WORDS = frozenset((_C["TO"], _C["THROUGH"], _C["UNTIL"]))
_LIST_WORDS = frozenset((_C["ZH_AND"], _C["AND"], _COMMA))
_CONTAINER_UNIT = {"year": "year", "isoyear": "year", "month": "month", "week": "week"}
_STEP_UNITS: dict[str, Step] = {_C["JIDU"]: "quarter", _C["YEARDU"]: "year"}
_STEPLIKE = re.compile(f"[{re.escape(_C['STEP'] + _C['JIDU'] + _C['YEARDU'] + _C['TREND'])}]")


def read(text: str) -> Reading:
    """Read a text (a query or a context's words) for time. Cached: the same text is read once."""
    if not text:
        return _NOTHING  # most contexts: no words at all
    if text.isspace():
        return Reading(text)
    if len(text) > MAX_TEXT:
        return _too_long(text)
    return _read(text)


_NOTHING = Reading("")


def _too_long(text: str) -> Reading:
    """A text longer than MAX_TEXT is not read for time: with no time-like word in it (a long
    context of prose) it says nothing, else it settles nothing, naming its first time words
    (never an internal marker). Tokenizing is linear and bounded (tokens.MAX_TIME_TOKENS)."""
    folded = normalize(text)
    # In pieces (overlapping, so no word is cut unseen): each is tokenized within its budget.
    for start in range(0, len(text), MAX_TEXT):
        piece = slice(max(0, start - 16), start + MAX_TEXT)
        words = time_words(tokenize(folded[piece]), text[piece])
        if words:
            return Reading(text, unread=words)
    return Reading(text)


def clear_cache() -> None:
    """Forget every text read (benchmarks time a cold read with it)."""
    _read.cache_clear()


@lru_cache(maxsize=4096)
def _read(text: str) -> Reading:
    folded = normalize(text)
    tokens = tokenize(folded)
    if tokens.cut:
        return Reading(text, unread=time_words(tokens, text))
    codes = tokens.codes
    found = [
        (atom, start, end) for _, atom, start, end in islice(named_phrases(tokens), MAX_PHRASES + 1)
    ]
    if len(found) > MAX_PHRASES:  # more time expressions than one question holds
        return Reading(text, unread=time_words(tokens, text))
    for atom, start, end in found:
        if atom is IMPOSSIBLE:  # a date that does not exist: no neighbour's reading
            return Reading(text, unread=(text[tokens.starts[start] : tokens.ends[end - 1]],))
    found = containers(found, codes, tokens)
    expressions, consumed = merged(found, codes, tokens)
    windows = tuple(e for e in expressions if e.mode != "plain" or _has_window(e))
    windows = _since_until(text, windows)
    composed = _composed(text, windows)
    if composed:
        return Reading(text, unread=(composed,))
    unknown = _unknown_zone(folded) if windows and _MAY_NAME_A_ZONE.search(folded) else None
    if unknown is not None:  # (火星时间), in Atlantis time: a zone nobody can place (SPEC §4.3)
        return Reading(text, unread=(text[unknown[0] : unknown[1]],))
    zone = None
    if windows and _TZWORD in codes:  # 昨天（北京时间）, yesterday EST: the zone the user named
        zone, zone_spans = _zone_written(tokens, folded)
        if zone is None:  # two zones, or one mapping to none: even inside an hour range
            return Reading(text, unread=_zone_words(tokens, text))
        consumed.extend(zone_spans)
    instants, steps = _words_read(found, consumed)
    covered = bytearray(len(tokens))
    for start, end in consumed:
        covered[start:end] = b"\x01" * (end - start)
    trend = _step_words(tokens, covered, consumed, steps)
    step, step_word = None, None
    if steps:
        first, last, step = min(steps)
        step_word = text[tokens.starts[first] : tokens.ends[last - 1]]
    unread = () if all_covered(codes, covered) else unread_runs(tokens, covered, text)
    if unread:
        return Reading(text, unread=unread)
    starts, ends = tokens.starts, tokens.ends
    spans = tuple((starts[s], ends[e - 1]) for s, e in _merge(consumed))
    instant = None
    if not windows and instants:
        first, last = instants[0]
        instant = text[starts[first] : ends[last - 1]]
    return Reading(text, windows, instant, step, step_word, trend, (), spans, zone)


_MAY_NAME_A_ZONE = re.compile("时间|时区|time")
_TZWORD = CODE["TZWORD"]
_OFFSET_AFTER = re.compile(r"\s*[+-]\s*[0-9]{1,2}(?::?[0-9]{2})?(?![0-9])")


def _unknown_zone(folded: str) -> tuple[int, int] | None:
    """The span of a zone written beside an expression that maps to no zone, if any."""
    for found in _ZONE_WORDS.finditer(folded):
        group = "z" if found.group("z") else "y"
        if zone_of(found.group(group)) is None:
            return found.start(group), found.end(group)
    return None


def _zone_written(tokens: Tokens, folded: str) -> tuple[str | None, list[tuple[int, int]]]:
    """The one zone a text names (北京时间, New York time, EST, UTC+8) and the token spans
    that name it; (None, []) when a zone word maps to nothing or two zones disagree (then
    the guard leaves them unread and nothing is settled)."""
    zones: set[str] = set()
    spans: list[tuple[int, int]] = []
    codes = tokens.codes
    for index, code in enumerate(codes):
        if code != _TZWORD:
            continue
        end = tokens.ends[index]
        offset = _OFFSET_AFTER.match(folded, end)
        last = index + 1
        if offset is not None:
            while last < len(codes) and tokens.starts[last] < offset.end():
                last += 1
            end = offset.end()
        mapped = zone_of(folded[tokens.starts[index] : end])
        if mapped is None:
            return None, []
        zones.add(mapped)
        spans.append((index, last))
    if len(zones) != 1:
        return None, []
    return zones.pop(), spans


def _zone_words(tokens: Tokens, text: str) -> tuple[str, ...]:
    """The zone words of a text, as written (what its ask names when they settle nothing)."""
    codes, starts, ends = tokens.codes, tokens.starts, tokens.ends
    return tuple(text[starts[i] : ends[i]] for i, code in enumerate(codes) if code == _TZWORD)


# A zone written beside an expression that is no zone the lexicon knows (those are TZWORD
# tokens, unread anyway): in brackets (昨天（火星时间）, yesterday (Mars time)) or "in X time".
_ZONE_WORDS = re.compile(
    r"[(（]\s*(?P<z>[^()（）\s]{1,12}(?:\s[a-z]{1,12})?\s*(?:时间|时区|time(?:\s*zone)?))\s*[)）]"
    r"|\bin\s(?P<y>(?!real\b|no\b|due\b|record\b|the\b)[a-z]{2,12}(?:\s[a-z]{2,12})?\stime)\b"
    r"(?!\s*(?:zone|s\b|series|frame|period|window|slot))"
)


def _since_until(text: str, windows: tuple[Expression, ...]) -> tuple[Expression, ...]:
    """今年以来截至昨天, so far this year up to yesterday: start of the first .. end of the
    second (SPEC §4.3) — a since followed by an as-of is one range."""
    if len(windows) < 2:
        return windows
    out: list[Expression] = []
    for expression in windows:
        if (
            out
            and out[-1].mode == "since"
            and expression.mode == "asof"
            and len(out[-1].items) == 1
            and len(expression.items) == 1
            and not text[out[-1].end : expression.start].strip(" ,，的")
        ):
            since = out.pop()
            joined = (since.items[0], expression.items[0])
            out.append(Expression("plain", joined, ("range",), False, since.start, expression.end))
            continue
        out.append(expression)
    return tuple(out)


def _composed(text: str, windows: tuple[Expression, ...]) -> str:
    """Two windows written as one (上个月的上个月, 今年的去年): a composition the tables do not
    declare settles nothing (SPEC §4.3). Returns the words, or ""."""
    for first, second in pairwise(windows):
        if second.start >= first.end and not text[first.end : second.start].strip(" 的之"):
            return text[first.start : second.end]
    return ""


def _words_read(
    found: list[Found], consumed: list[tuple[int, int]]
) -> tuple[list[tuple[int, int]], list[tuple[int, int, Step]]]:
    """The instant words and step phrases found (added to what the reading consumed)."""
    instants: list[tuple[int, int]] = []
    steps: list[tuple[int, int, Step]] = []
    for atom, start, end in found:
        kind = atom.kind
        if kind == "now":
            instants.append((start, end))
        elif kind == "step" and atom.unit:
            steps.append((start, end, atom.unit))
        elif kind not in ("compare", "step"):
            continue
        consumed.append((start, end))
    return instants, steps


def _step_words(
    tokens: Tokens,
    covered: bytearray,
    consumed: list[tuple[int, int]],
    steps: list[tuple[int, int, Step]],
) -> bool:
    """Add the step words outside the windows (按月, 季度 alone) to `steps`; whether the text
    holds a trend word (趋势, trend)."""
    codes = tokens.codes
    trend = False
    for found_word in _STEPLIKE.finditer(codes):  # most texts hold no step or trend word
        index = found_word.start()
        code = codes[index]
        if code == _C["TREND"]:
            trend = True
            continue
        if covered[index]:
            continue  # the 季度 of 2024年第一季度
        covered[index] = 1
        consumed.append((index, index + 1))
        value = tokens.values[index] if code == _C["STEP"] else _STEP_UNITS[code]
        steps.append((index, index + 1, value))  # type: ignore[arg-type]
    return trend


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Token spans sorted, those that overlap or touch merged."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _has_window(expression: Expression) -> bool:
    return any(atom.kind not in NOT_WINDOWS for atom in expression.items)
