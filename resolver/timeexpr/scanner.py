"""Matching: from a query to the window it names, its step, and the caller's overrides.

The scanner finds atoms left to right. The first atom that makes a valid window wins, tried
as `X以来`/`X至今`/`X to date` (since), then `X至Y`/`from X to Y`/`between X and Y` (range),
then `自X`/`since X`, then alone. An instant word counts only when no window is found. A
range or since that runs backwards (从2025年到2023年, 自2026年以来 in 2025) settles nothing:
the query's time is unclear, and reading only its first period would be a guess.
Step words and trend words are looked for outside the window's text, so that the 月 of
本月趋势 does not read as the step word 月趋势.
"""

from __future__ import annotations

import re
from typing import NamedTuple
from zoneinfo import ZoneInfo

from resolver.timeexpr.atoms import Atom, build, dated
from resolver.timeexpr.lexicon import normalize
from resolver.timeexpr.patterns import (
    AFTER_ATOM,
    BEFORE_ATOM,
    CONNECTOR,
    OPENER,
    SINCE_SUFFIX,
    STEP_CUES,
    STEP_WORDS,
    TREND_CUES,
    TREND_WORDS,
    atom_at,
    atoms,
)
from resolver.timeexpr.result import STEPS, Step, TimeResolution
from resolver.timeexpr.terms import NOW, Clock, Term

# A trend word on a single period asks for one unit finer.
_REFINE: dict[Step, Step] = {
    "year": "month",
    "quarter": "month",
    "month": "day",
    "week": "day",
    "day": "day",
}
_SINCE_OPENERS = ("自", "打", "since")
_STEP_OF: dict[str, Step] = {step: step for step in STEPS}  # STEP_WORDS' group names


class Window(NamedTuple):
    """start(first) .. end(last or first), its natural step, and whether it is one period."""

    first: Term
    last: Term | None
    unit: Step
    single: bool

    def __str__(self) -> str:
        return str(self.first) if self.last is None else f"{self.first}..{self.last}"


class _Hit(NamedTuple):
    window: Window | None  # None: an instant word
    start: int
    end: int
    pos: int
    stop: int


def resolve_time(
    query: str,
    *,
    now_ms: int,
    tz: ZoneInfo,
    instant: bool | None = None,
    step: Step | None = None,
) -> TimeResolution | None:
    """Settle instant/start/end/step from the query; `instant`/`step` overrides beat it."""
    text = normalize(query)
    hit = _Scan(text, query, Clock(now_ms, tz)).first_hit()
    if instant is True:
        if hit is not None and hit.window is None:
            return TimeResolution(True, None, None, None, "now", query[hit.pos : hit.stop])
        return TimeResolution(True, None, None, None, None, None)
    if hit is not None and hit.window is not None:
        window = hit.window
        settled = step or _step(text, hit.pos, hit.stop, window)
        matched = query[hit.pos : hit.stop]
        return TimeResolution(False, hit.start, hit.end, settled, str(window), matched)
    return _without_window(text, query, hit, instant=instant, step=step)


def _without_window(
    text: str, query: str, hit: _Hit | None, *, instant: bool | None, step: Step | None
) -> TimeResolution | None:
    """No window in the query: an instant word, a step word, the overrides, or nothing."""
    word = _step_word(text, *((0, 0) if hit is None else (hit.pos, hit.stop)))
    word_step = None if word is None else _STEP_OF[word.lastgroup or ""]
    if instant is False or step is not None:
        # The caller asks for a series: its window stays open (docs/time-semantics.md).
        return TimeResolution(False, None, None, step or word_step, None, None)
    if hit is not None:
        return TimeResolution(True, None, None, None, "now", query[hit.pos : hit.stop])
    if word is not None:
        return TimeResolution(False, None, None, word_step, None, query[word.start() : word.end()])
    return None


def _step(text: str, pos: int, stop: int, window: Window) -> Step:
    word = _step_word(text, pos, stop)
    if word is not None:
        return _STEP_OF[word.lastgroup or ""]
    if (
        window.single
        and TREND_CUES.search(text) is not None
        and (
            TREND_WORDS.search(text, 0, pos) is not None
            or TREND_WORDS.search(text, stop) is not None
        )
    ):
        return _REFINE[window.unit]
    return window.unit


def _step_word(text: str, pos: int, stop: int) -> re.Match[str] | None:
    """Return the first step word outside text[pos:stop]; its group name is the step."""
    if STEP_CUES.search(text) is None:
        return None
    return STEP_WORDS.search(text, 0, pos) or STEP_WORDS.search(text, stop)


class _Scan:
    """One query being read: the normalised text, the query as written, and the clock."""

    __slots__ = ("clock", "query", "text")

    def __init__(self, text: str, query: str, clock: Clock) -> None:
        self.text = text
        self.query = query
        self.clock = clock

    def first_hit(self) -> _Hit | None:
        """Return the first window in the text, else the first instant word, else None."""
        instant: _Hit | None = None
        for found in atoms(self.text):
            atom = build(found, self.clock, self.query)
            if atom is None:
                continue
            if atom.kind == "now":
                if instant is None:
                    instant = _Hit(None, 0, 0, found.start(), found.end())
                continue
            hit = self._place(atom, found.start(), found.end())
            if hit is not None:
                return hit if hit.start <= hit.end else None
        return instant

    def _place(self, atom: Atom, pos: int, stop: int) -> _Hit | None:
        """Try the atom at text[pos:stop] as since, range start, since again, then alone."""
        clock, text = self.clock, self.text
        if atom.kind != "rolling":
            opener = None
            if pos and text[pos - 1] in BEFORE_ATOM:
                opener = OPENER.search(text, max(0, pos - 8), pos)
            begin = pos if opener is None else opener.start()
            joined = stop < len(text) and text[stop] in AFTER_ATOM
            suffix = SINCE_SUFFIX.match(text, stop) if joined else None
            if suffix is not None:
                hit = _evaluate(_since(atom, clock), begin, suffix.end(), clock)
                if hit is not None:
                    return hit
            link = CONNECTOR.match(text, stop) if joined else None
            if link is not None and (
                link.group().strip() != "and"
                or (opener is not None and opener.group().startswith("between"))
            ):
                hit = self._range_to(atom, begin, link.end())
                if hit is not None:
                    return hit
            if opener is not None and opener.group().startswith(_SINCE_OPENERS):
                hit = _evaluate(_since(atom, clock), begin, stop, clock)
                if hit is not None:
                    return hit
            if atom.kind == "span":  # 从2024年1月到3月 is one atom; its opener belongs to it
                pos = begin
        return _evaluate(_single(atom, clock), pos, stop, clock)

    def _range_to(self, first: Atom, begin: int, pos: int) -> _Hit | None:
        """Try `first` .. the atom at `pos` (an instant word there makes it a since)."""
        found = atom_at(self.text, pos)
        last = None if found is None else build(found, self.clock, self.query)
        if found is None or last is None:
            return None
        clock = self.clock
        window = _since(first, clock) if last.kind == "now" else _range(first, last, clock)
        return _evaluate(window, begin, found.end(), clock)


def _evaluate(window: Window | None, pos: int, stop: int, clock: Clock) -> _Hit | None:
    if window is None:
        return None
    try:
        if window.last is None:  # one term: its own bounds, worked out once
            start, end = window.first.bounds(clock)
        else:
            start, end = window.first.start_ms(clock), window.last.end_ms(clock)
    except (ValueError, OverflowError):  # a year before 1 or after 9999
        return None
    return _Hit(window, start, end, pos, stop)  # possibly backwards: first_hit decides


def _settled(atom: Atom, clock: Clock) -> tuple[Atom, Term, Step] | None:
    """Return the atom with its year settled, its first term and its unit (None: no window)."""
    settled = _bare(atom, clock) if atom.kind == "partial" else atom
    if settled is None or settled.first is None or settled.unit is None:
        return None
    return settled, settled.first, settled.unit


def _single(atom: Atom, clock: Clock) -> Window | None:
    if atom.kind == "anchor":
        return None  # 年初 alone is "early in the year", not a window
    settled = _settled(atom, clock)
    if settled is None:
        return None
    kept, first, unit = settled
    return Window(first, kept.last, unit, kept.kind in ("period", "this"))


def _since(atom: Atom, clock: Clock) -> Window | None:
    settled = _settled(atom, clock)
    return None if settled is None else Window(settled[1], NOW, settled[2], single=False)


def _range(first: Atom, last: Atom, clock: Clock) -> Window | None:
    if first.kind == "rolling" or last.kind in ("rolling", "anchor"):
        return None
    start: Atom | None = first
    if first.kind == "partial":
        start = _bare(first, clock) if last.kind == "partial" else _inherit(first, last, clock, -1)
    if start is None:
        return None
    end = _inherit(last, start, clock, 1) if last.kind == "partial" else last
    if end is None or start.first is None or start.unit is None or end.unit is None:
        return None
    unit = min(start.unit, end.unit, key=STEPS.index)
    return Window(start.first, end.last or end.first, unit, single=False)


def _bare(atom: Atom, clock: Clock) -> Atom | None:
    """Give a partial this year's period if it has started, else last year's."""
    partial = atom.partial
    if partial is None or (partial.month == 0 and partial.unit == "day"):
        return None  # a bare day of month (15日) only follows a date
    today = clock.today
    year = today.isocalendar().year if partial.unit == "week" else today.year
    for candidate in (year, year - 1):
        try:
            first, last = partial.terms(candidate)
        except ValueError:  # 2月29日 in a common year, week 53 in a 52-week year
            continue
        if first.first <= today:
            return dated(partial.unit, first, last)
    return None


def _inherit(atom: Atom, other: Atom, clock: Clock, direction: int) -> Atom | None:
    """Give a partial the year of the other end of its range (the next one if it would cross)."""
    partial = atom.partial
    if partial is None or other.first is None:
        return None
    base = other.first.first_day(clock)
    year = base.isocalendar().year if partial.unit == "week" else base.year
    candidates: tuple[int, ...] = (year, year + direction)
    if partial.month == 0:  # 1日至15日: the day of month after a date takes its month
        if direction < 0 or other.unit != "day":
            return None
        candidates = (year,)
    for candidate in candidates:
        try:
            first, last = partial.terms(candidate, base.month)
        except ValueError:
            continue
        if (first.first - base).days * direction >= 0:
            return dated(partial.unit, first, last)
    return None
