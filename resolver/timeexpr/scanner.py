"""Reading a text: from its atoms to the one window it asks for, or to nothing.

1. Atoms (`patterns.atoms`, built by `atoms.build`), left to right.
2. Containers: a part is placed in the period written right before it (2024年 + 3月, 上个月 +
   下旬, 今年 + 前三个月, 2024年的春节) or, in English, right after it (Friday last week,
   the first 3 quarters of 2024).
3. Expressions: atoms joined by a range connector (到 至 - to through; "and" after between)
   or a list connector (和 与 及 、 and, comparison words between two windows), with an
   opener (从 自 since from between 截至 as of) and a suffix (以来 至今 为止 to date). A range
   is start(first)..end(last); a list is start of the earliest..end of the latest; since is
   start(X)..now; as-of is the point end(X). A part without a container takes it from the
   other end (2024年3月和4月, 上周一到周三), alone from now (partials.bare).
4. The window: one expression gives it. Two that cannot be joined settle nothing (unless they
   are the same window). An instant word counts only when there is no window.
5. Never settle half a question: every time cue of the text (`cues`) must lie inside what was
   read — the expressions, instant, step, trend and comparison words. Otherwise the text is
   "unread": no window, no instant, no step.
"""

from __future__ import annotations

import re
from datetime import date
from typing import NamedTuple
from zoneinfo import ZoneInfo

from resolver.timeexpr.atoms import Atom, build, dated
from resolver.timeexpr.cues import first_unread, merge
from resolver.timeexpr.lexicon import normalize
from resolver.timeexpr.partials import FirstN, Partial, bare, container_first, inherit
from resolver.timeexpr.patterns import (
    COMPARISON,
    STEP_CUES,
    STEP_WORDS,
    TREND_CUES,
    TREND_WORDS,
    atoms,
)
from resolver.timeexpr.result import STEPS, Step, TimeResolution
from resolver.timeexpr.terms import NOW, Absolute, Clock, EndOf, Relative, Term

# A trend word on a single period asks for one unit finer.
_REFINE: dict[Step, Step] = {
    "year": "month",
    "quarter": "month",
    "month": "day",
    "week": "day",
    "day": "day",
}
_STEP_OF: dict[str, Step] = {step: step for step in STEPS}  # STEP_WORDS' group names
_CONTAINER_UNIT = {"year": "year", "isoyear": "year", "month": "month", "week": "week"}

_COMPARE_EN = re.compile(r"yoy|mom|qoq|wow|over|vs|versus|compared|against")
# Every step word, trend word and comparison word holds one of these.
_EXTRAS = re.compile(
    f"(?=[按每逐度趋变走比较adbepmqwytovc])(?:{STEP_CUES.pattern}|{TREND_CUES.pattern}|比|较"
    f"|{_COMPARE_EN.pattern})"
)
# Between a container and its part: 2024年3月, 2024年的春节, 上个月 下旬.
_ZH_GAP = re.compile(r"\s*(?:的\s*)?")
# Between an English part and its container after it: Friday last week, Q1 of 2024.
_EN_GAP = re.compile(r"\s*,?\s*(?:(?:of|in)\s+)?(?:the\s+)?", re.ASCII)
_RANGE = re.compile(
    r"\s*(?:-|–|—|~|～|(?:一直)?[到至]|直到)\s*|\s+(?:to|until|till|through|thru)\s+", re.ASCII
)
_AND = re.compile(r"\s+and\s+", re.ASCII)
# Only list words join two windows: 2024年3月 vs 2023年3月 is two windows, and settles nothing.
_LIST = re.compile(
    r"\s*(?:和|与|及|以及|跟|、|&)\s*|\s*,\s*(?:and\s+)?|\s+(?:and|&|as\s+well\s+as)\s+",
    re.ASCII,
)
# Before the first atom of an expression (matched up to it), one group per kind of opener.
_OPENER = re.compile(
    r"(?:(?P<asof>截至|截止到|截止至|截止|截到|as\s+(?:of|at)\s+(?:the\s+)?(?:end\s+of\s+)?)"
    r"|(?P<since>自从|打从|自|since\s+)|(?P<from>从|由|from\s+)|(?P<between>between\s+))\s*$",
    re.ASCII,
)
_OPENER_ENDS = frozenset("截至止到自从由 ")
_UNTIL_OPENER = re.compile(r"(?:到|截至|截止到|截止)\s*$")
# After the last atom: since, as of, harmless words. Most atoms are followed by none of them.
_SUFFIX_STARTS = frozenset("以迄起开到至一 年月季底末终为")
_HARMLESS_STARTS = frozenset("的全整期之以内")
_SINCE_SUFFIX = re.compile(
    r"\s*(?:以来|迄今|(?:起|开始)?(?:一直)?[到至](?:今天|今日|现在|目前|当前|今(?![年天日]))(?:为止)?"
    r"|起|开始)"
    r"|\s+(?:(?:up\s+)?(?:to|until|till|through)\s+(?:now|date|today|the\s+present|present)"
    r"|onwards?)\b",
    re.ASCII,
)
_ASOF_TAIL = re.compile(r"\s*(?:年底|年末|月底|月末|季末|季度末|底|末|终)?\s*(?:为止)?")
_ASOF_SUFFIX = re.compile(r"\s*(?:年底|年末|月底|月末|季末|季度末|底|末|终)?\s*为止")
# Right after an expression, these make it approximate or an edge of it (春节期间前后, 2024年
# 以前, Q3末, 3月前 = before March): the expression is then not what the text asks for.
_AROUND = re.compile(r"\s*(?:前后|左右|上下|之前|以前|之后|以后|前夕|前|后|初|底|末|终)")
_AROUND_STARTS = frozenset("前左上之以后初底末终")  # after a space: a cue (cues.py)
# Any character an expression's suffix, harmless word or approximation can start with.
_AFTER_STARTS = _SUFFIX_STARTS | _HARMLESS_STARTS | _AROUND_STARTS
_HARMLESS = re.compile(r"\s*的?\s*(?:全年|整年|全月|整月|全天|整天|期间|之内|以内|内)")


class Window(NamedTuple):
    """start(first) .. end(last or first), its natural step, and whether it is one period."""

    first: Term
    last: Term | None
    unit: Step
    single: bool

    def __str__(self) -> str:
        return str(self.first) if self.last is None else f"{self.first}..{self.last}"


# The hot path builds its tuples with tuple.__new__: a NamedTuple's own __new__ (keyword
# arguments and defaults) costs twice as much, on every call.
_new = tuple.__new__


class _Token(NamedTuple):
    atom: Atom
    pos: int
    stop: int


class _Found(NamedTuple):
    """An expression read: its window and bounds (None: it makes no window) and its span."""

    window: Window | None
    start: int
    end: int
    pos: int
    stop: int


class Reading(NamedTuple):
    """What a text says about time, before any caller override."""

    window: Window | None = None
    start: int | None = None
    end: int | None = None
    matched: str | None = None
    instant: str | None = None  # the instant word, when there is no window
    step: Step | None = None  # the first step word outside the window
    step_word: str | None = None
    trend: bool = False
    unread: str | None = None  # a time cue nothing read: the text settles nothing

    @property
    def says_anything(self) -> bool:
        """Whether the text holds any time cue, step word or instant word at all."""
        return bool(self.window or self.instant or self.step or self.unread)


# A text longer than this is no question about time a BI user asks: it is not read (it
# settles nothing), which bounds the scanner's work per request (~10 µs per character).
MAX_TEXT = 4000
_NOTHING = Reading()


def read_time(query: str, clock: Clock) -> Reading:
    """Read a text (query or context) for its window, instant word, step and trend words."""
    if not query or query.isspace():
        return _NOTHING  # most contexts hold no free text at all
    if len(query) > MAX_TEXT:
        return Reading(unread=f"(a text of {len(query)} characters is not read for time)")
    text = normalize(query)
    extras = _EXTRAS.search(text) is not None  # most texts hold no step, trend or comparison
    compared: list[tuple[int, int]] = []
    if extras and ("比" in text or "较" in text or _COMPARE_EN.search(text)):
        compared = [(m.start(), m.end()) for m in COMPARISON.finditer(text)]
    tokens = _tokens(text, query, clock, compared)
    found, read = _expressions(text, tokens, clock)  # read: the instant words so far
    instant_span = read[0] if read else None
    window, conflict = _choose(found, read)
    read += compared
    step_match = None
    if extras and STEP_CUES.search(text) is not None:
        lo, hi = (0, 0) if window is None else (window.pos, window.stop)
        for match in STEP_WORDS.finditer(text):
            if not lo <= match.start() < hi:
                read.append((match.start(), match.end()))
                step_match = step_match or match
    trend = False
    if extras and TREND_CUES.search(text) is not None:
        for match in TREND_WORDS.finditer(text):
            read.append((match.start(), match.end()))
            trend = True
    unread = first_unread(text, merge(read) if len(read) > 1 else read)
    if unread is not None or conflict:
        where = unread or (found[0].pos, found[0].stop)
        return Reading(unread=query[where[0] : where[1]])
    step = step_word = None
    if step_match is not None:
        step = _STEP_OF[step_match.lastgroup or ""]
        step_word = query[step_match.start() : step_match.end()]
    if window is not None:
        matched = query[window.pos : window.stop]
        reading = (window.window, window.start, window.end, matched, None, step, step_word, trend)
        return _new(Reading, (*reading, None))
    instant = None if instant_span is None else query[instant_span[0] : instant_span[1]]
    return _new(Reading, (None, None, None, None, instant, step, step_word, trend, None))


def resolve_time(
    query: str,
    *,
    now_ms: int,
    tz: ZoneInfo,
    instant: bool | None = None,
    step: Step | None = None,
) -> TimeResolution | None:
    """Settle instant/start/end/step from the query; `instant`/`step` overrides beat it."""
    return settle(read_time(query, Clock(now_ms, tz)), instant=instant, step=step)


def settle(
    reading: Reading,
    *,
    instant: bool | None = None,
    step: Step | None = None,
    step_word: Step | None = None,
    trend: bool = False,
) -> TimeResolution | None:
    """Turn a reading into settled parameters, the caller's `instant`/`step` beating it.

    `step_word` and `trend` come from elsewhere (the query, when the reading is the context's).
    """
    if instant is True:
        return TimeResolution(True, None, None, None, "now" if reading.instant else None, None)
    window = reading.window
    if window is not None and reading.start is not None and reading.end is not None:
        chosen = step or reading.step or step_word
        if chosen is None:
            refine = window.single and (reading.trend or trend)
            chosen = _REFINE[window.unit] if refine else window.unit
        settled = (False, reading.start, reading.end, chosen, str(window), reading.matched)
        return _new(TimeResolution, settled)
    return _without_window(reading, instant=instant, step=step, step_word=step_word)


def _without_window(
    reading: Reading, *, instant: bool | None, step: Step | None, step_word: Step | None
) -> TimeResolution | None:
    """No window: the caller's series, an instant word, a step word, or nothing."""
    if instant is False or step is not None:
        # The caller asks for a series: its window stays open (docs/time-semantics.md). An
        # unread text gives no step word either.
        word = None if reading.unread is not None else (reading.step or step_word)
        return TimeResolution(False, None, None, step or word, None, None)
    if reading.unread is not None:
        return None
    if reading.instant is not None:
        return TimeResolution(True, None, None, None, "now", reading.instant)
    if reading.step is not None:
        return TimeResolution(False, None, None, reading.step, None, reading.step_word)
    return None


# -- 1 and 2: atoms, containers ------------------------------------------------------------


def _tokens(text: str, query: str, clock: Clock, compared: list[tuple[int, int]]) -> list[_Token]:
    """The atoms of the text, parts placed in their containers; atoms inside a comparison
    phrase (同比去年, 环比上月: the period compared with) are left out."""
    out: list[_Token] = []
    for found in atoms(text):
        pos, stop = found.start(), found.end()
        if compared and any(lo <= pos and stop <= hi for lo, hi in compared):
            continue
        atom = build(found, clock, query)
        if atom is None:
            continue
        previous = out[-1] if out else None
        if previous is not None and (atom.partial is not None or previous.atom.partial is not None):
            merged = None
            if _ZH_GAP.fullmatch(text, previous.stop, pos):
                merged = _within(previous.atom, atom, clock)
            if merged is None and _EN_GAP.fullmatch(text, previous.stop, pos):
                merged = _within(atom, previous.atom, clock)
            if merged is not None:
                out[-1] = _new(_Token, (merged, previous.pos, stop))
                continue
        out.append(_new(_Token, (atom, pos, stop)))
    return out


def _within(container: Atom, part: Atom, clock: Clock) -> Atom | None:
    """Place `part` in the period `container` names (None when they do not fit)."""
    partial = part.partial
    if partial is None or part.kind not in ("partial", "rolling"):
        return None
    if isinstance(partial, FirstN) and partial.unit == "day" and container.unit == "year":
        partial = FirstN(partial.n, "day", "year")  # 2024年前10天: of the year, not a month
    first = _container_day(container, _CONTAINER_UNIT[partial.container], clock)
    if first is None:
        return None
    try:
        placed = partial.place(container_first(partial.container, first))
    except ValueError:
        return None
    return dated(partial.unit, *placed)


def _container_day(atom: Atom, unit: str, clock: Clock) -> date | None:
    """The first day of the one period of `unit` an atom names (2024年, 上个月, 本周, 3月)."""
    if atom.unit != unit or atom.last not in (None, NOW):
        return None
    if atom.kind == "partial" and atom.partial is not None:
        placed = bare(atom.partial, clock.today)
        return None if placed is None or placed[1] is not None else placed[0].first
    if atom.kind not in ("period", "this") or atom.first is None:
        return None
    return atom.first.first_day(clock)


# -- 3: expressions --------------------------------------------------------------------------


def _expressions(
    text: str, tokens: list[_Token], clock: Clock
) -> tuple[list[_Found], list[tuple[int, int]]]:
    """Group the atoms into expressions; return them and the spans of the instant words."""
    found: list[_Found] = []
    instants: list[tuple[int, int]] = []
    index, count = 0, len(tokens)
    while index < count:
        token = tokens[index]
        pos = token.pos
        if token.atom.kind == "now":
            instants.append((pos, token.stop))
            index += 1
            continue
        opener = None
        if pos and text[pos - 1] in _OPENER_ENDS:
            opener = _OPENER.search(text[max(0, pos - 24) : pos])
        between = opener is not None and opener.lastgroup == "between"
        items, joins = [token.atom], []
        stop, to_now = token.stop, False
        index += 1
        while index < count:
            following = tokens[index]
            join = _join(text, stop, following.pos, between=between)
            if join is None:
                break
            if following.atom.kind == "now":
                if join == "range":  # 从2024年到现在: since
                    to_now, stop = True, following.stop
                    index += 1
                break
            items.append(following.atom)
            joins.append(join)
            stop = following.stop
            index += 1
        found.append(_expression(text, items, joins, pos, stop, opener, clock, to_now))
    return found, instants


def _join(text: str, stop: int, pos: int, *, between: bool) -> str | None:
    """How two atoms are joined by the text between them: range, list, or not at all."""
    if pos - stop > 16 or pos == stop:  # no connector is that long, or missing
        return None
    if _RANGE.fullmatch(text, stop, pos):
        return "range"
    if _AND.fullmatch(text, stop, pos):
        return "range" if between else "list"
    if _LIST.fullmatch(text, stop, pos):
        return "list"
    return None


def _expression(  # noqa: PLR0917 - the hot path: positional arguments are cheaper
    text: str,
    items: list[Atom],
    joins: list[str],
    pos: int,
    stop: int,
    opener: re.Match[str] | None,
    clock: Clock,
    to_now: bool,
) -> _Found:
    """Read one expression: its opener, its suffix, and its window."""
    begin = pos if opener is None else pos - (len(opener.string) - opener.start())
    kind = None if opener is None else opener.lastgroup
    mode = "since" if to_now or (kind == "since" and len(items) == 1) else "plain"
    after = text[stop : stop + 1]
    if after in _AFTER_STARTS or kind == "asof":
        mode, begin, stop = _suffixes(text, mode, kind, pos, begin, stop, to_now)
        after = text[stop : stop + 1]
        if after in _AROUND_STARTS and _AROUND.match(text, stop):
            return _new(_Found, (None, 0, 0, begin, stop))
    window = _window(items, joins, mode, clock)
    if window is None:
        return _new(_Found, (None, 0, 0, begin, stop))
    bounds = _bounds(window, clock)
    if bounds is None or bounds[0] > bounds[1]:  # backwards: 从2025年到2023年, 自2026年以来
        return _new(_Found, (None, 0, 0, begin, stop))
    return _new(_Found, (window, bounds[0], bounds[1], begin, stop))


def _suffixes(  # noqa: PLR0917
    text: str, mode: str, kind: str | None, pos: int, begin: int, stop: int, to_now: bool
) -> tuple[str, int, int]:
    """The suffix of an expression (as of, since, harmless words): its mode, begin and stop."""
    if kind == "asof" and not to_now:
        mode = "asof"
        if (tail := _ASOF_TAIL.match(text, stop)) is not None:
            stop = tail.end()
    elif (after := text[stop : stop + 1]) in _SUFFIX_STARTS and not to_now:
        if after != " " and (suffix := _ASOF_SUFFIX.match(text, stop)) is not None:
            mode, stop = "asof", suffix.end()
            before = text[max(0, pos - 6) : pos]
            until = _UNTIL_OPENER.search(before)
            begin = pos if until is None else pos - (len(before) - until.start())
        elif (suffix := _SINCE_SUFFIX.match(text, stop)) is not None:
            mode, stop = "since", suffix.end()
    after = text[stop : stop + 1]
    if (
        after in _HARMLESS_STARTS
        and (after != "的" or text[stop + 1 : stop + 2] in "全整期之以内")
        and (harmless := _HARMLESS.match(text, stop)) is not None
    ):
        stop = harmless.end()
    return mode, begin, stop


def _window(items: list[Atom], joins: list[str], mode: str, clock: Clock) -> Window | None:
    only = items[0]
    if mode == "plain" and len(items) == 1 and only.kind in ("period", "this", "rolling", "ago"):
        if only.first is None or only.unit is None:  # the common case, taken directly
            return None
        return _new(Window, (only.first, only.last, only.unit, only.kind in ("period", "this")))
    placed = None if mode != "plain" and len(items) > 1 else _place_all(items, clock)
    unit = (
        None
        if not placed
        else min((a.unit for a in placed if a.unit), key=STEPS.index, default=None)
    )
    if not placed or unit is None or placed[0].first is None:
        return None
    return _window_of(placed, joins, mode, unit, clock)


def _window_of(
    placed: list[Atom], joins: list[str], mode: str, unit: Step, clock: Clock
) -> Window | None:
    """The window of placed atoms in a mode: since, as of, a range or list, or one period."""
    only = placed[0]
    if only.first is None:
        return None
    if mode == "since":
        return Window(only.first, NOW, only.unit or unit, single=False)
    if mode == "asof":
        return _as_of(only, unit, clock)
    if len(placed) > 1:
        return _joined(placed, joins, unit, clock)
    # 年初 alone is "early in the year", not a window
    single = Window(only.first, only.last, unit, only.kind in ("period", "this"))
    return None if only.kind == "anchor" else single


def _as_of(atom: Atom, unit: Step, clock: Clock) -> Window | None:
    """截至X, X为止, as of X: the point end(X), for a period that has ended (or ends now)."""
    last = atom.last if atom.last is not None else atom.first
    if atom.kind not in ("period", "span", "this") or not isinstance(last, Relative | Absolute):
        return None
    point = EndOf(last)
    if point.end_ms(clock) > clock.now_ms:  # 截至 a period still to come: not a point yet
        return None
    return Window(point, None, unit, single=False)


def _place_all(items: list[Atom], clock: Clock) -> list[Atom] | None:
    """Give every partial of an expression its container (from a neighbour, else from now)."""
    placed: list[Atom] = []
    for atom in items:
        if atom.kind != "partial" or atom.partial is None:
            if len(items) > 1 and atom.kind == "rolling":
                return None  # 最近3个月到…: a rolling window is no end of a range
            placed.append(atom)
            continue
        partial = atom.partial
        result = None
        if placed:
            other = placed[-1]
            base = _first_day(other, clock)
            if base is not None and _fits(partial, other):
                result = inherit(partial, base, 1)
        else:
            later = next((a for a in items[1:] if a.kind != "partial"), None)
            base = None if later is None else _first_day(later, clock)
            if later is not None and base is not None and _fits(partial, later):
                result = inherit(partial, base, -1)
            else:
                result = bare(partial, clock.today)
        if result is None:
            return None
        placed.append(dated(partial.unit, *result))
    return placed


def _fits(partial: Partial, other: Atom) -> bool:
    """Whether a part can take its container from a neighbour of that unit (15日 after a day,
    周三 after a day, 4月 after anything with a year)."""
    if partial.container in ("month", "week"):
        return other.unit == "day" or (partial.container == "month" and other.unit == "month")
    return True


def _first_day(atom: Atom, clock: Clock) -> date | None:
    if atom.first is None:
        return None
    try:
        return atom.first.first_day(clock)
    except (ValueError, OverflowError):
        return None


def _joined(placed: list[Atom], joins: list[str], unit: Step, clock: Clock) -> Window | None:
    """Ranges and lists: each run of range joins is one range; a list spans them all."""
    groups: list[tuple[Term, Term]] = []
    first_atom = placed[0]
    if first_atom.first is None:
        return None
    current: tuple[Term, Term] = (first_atom.first, first_atom.last or first_atom.first)
    for join, atom in zip(joins, placed[1:], strict=True):
        if atom.first is None or (join == "range" and atom.kind == "anchor"):
            return None
        end = atom.last or atom.first
        if join == "range":
            current = (current[0], end)
        else:
            groups.append(current)
            current = (atom.first, end)
    groups.append(current)
    if len(groups) == 1:
        return Window(groups[0][0], groups[0][1], unit, single=False)
    try:
        earliest = min(groups, key=lambda group: group[0].start_ms(clock))[0]
        latest = max(groups, key=lambda group: group[1].end_ms(clock))[1]
    except (ValueError, OverflowError):
        return None
    return Window(earliest, latest, unit, single=False)


def _bounds(window: Window, clock: Clock) -> tuple[int, int] | None:
    try:
        if window.last is None:  # one term: its own bounds, worked out once
            return window.first.bounds(clock)
        return window.first.start_ms(clock), window.last.end_ms(clock)
    except (ValueError, OverflowError):  # a year before 1 or after 9999
        return None


# -- 4: the window ---------------------------------------------------------------------------


def _choose(found: list[_Found], read: list[tuple[int, int]]) -> tuple[_Found | None, bool]:
    """The one window of the text (its spans added to `read`), and whether windows conflict."""
    if len(found) == 1:  # the common case
        only = found[0]
        if only.window is None:
            return None, False
        read.append((only.pos, only.stop))
        return only, False
    windows = [f for f in found if f.window is not None]
    if not windows:
        return None, False
    first = windows[0]
    if len(windows) > 1:
        key = (first.start, first.end, first.window.unit if first.window else None)
        if any((f.start, f.end, f.window.unit if f.window else None) != key for f in windows):
            return None, True
    read.extend((f.pos, f.stop) for f in windows)
    return first, False
