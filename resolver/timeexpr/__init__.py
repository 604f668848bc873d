"""Deterministic time expressions: the scanner (SPEC §3, §4, §4.1, §4.2, §9).

Use it as a library through `read_window` (docs/time-windows.md)::

    from resolver.timeexpr import read_window
    answer = read_window("最近3个月", now_ms=1762996342241, timezone="Asia/Shanghai")
    answer.start, answer.end, answer.step      # (1755047542241, 1762996342241, 'month')

How a text is read — separate, named passes: `lexicon` (every word and its one class, held in
checked `lang.Words` tables) → `tokens` (text → tokens) → `grammar` (the phrase tables of
`lang/zh.py`, `lang/common.py`, `lang/en.py` over token classes → `atoms`; builders in
`builders.py` and `dates.py`, the pattern language in `found.py`) → `reading` (containers,
ranges, since/as-of, hour ranges, then the guard: every time-like token read (`detector`), or
nothing settled; cached per text, clock-free) → `evaluate` (a reading at a clock: partials
placed, windows checked) → `settle` (the caller's overrides; context first). `clocks` reads the
clock and zone sentences of a context; `holidays`, `partials`, `terms`, `calendar` do the
calendar; `convert` turns an LLM's time values into epoch ms; `steps` reads a step word.

Declaring words and a phrase family (the tables are data; see `lang/__init__.py`)::

    from resolver.timeexpr.lang.en import EN          # the English phrase table
    EN.add("en_fiscal_year", "FISCAL _ (?P<y>Y4)", fiscal_year, ("fy 2024", "<expression>"))
    from resolver.timeexpr.lang.en_words import EN as EN_WORDS
    EN_WORDS.add("FISCAL", "fy fiscal")              # a word's one class (a second: error)

Each phrase has a unique name, a pattern over token classes, a builder (`Found` → `Atom`, or
None to refuse; `found.Impossible` makes the text settle nothing; any other exception is a
bug and propagates) and its own examples; tests/timeexpr/test_tables.py checks them all.

Canonical expressions (`TimeResolution.expr`, shown as `debug.time_expr`)::

    expr     := term | term ".." term        start(first) .. end(last); one term spans itself
    term     := relative | absolute | "end(" term ")" | day "T" HH:MM
    relative := "now" [("+" | "-") N unit] ["/" unit]
                # now-3M is a point; "/M" widens it to the month around it (now-1M/M: last
                # month); plain "now" is the current instant
    absolute := YYYY | YYYY-MM | YYYY-"Q"q | YYYY-"W"ww (ISO week) | YYYY-MM-DD
    unit     := "d" | "w" | "M" | "Q" | "y"  (and "h", "min" in debug only)

The package is pure: no I/O, no logging, no clock of its own unless the caller gives none
(`read_window`).

May import: the standard library and third-party libraries (lunar-python); nothing else of
resolver, so it can serve as a library of its own (tests/test_layout.py checks it).
"""

from resolver.timeexpr.clocks import Told, blank, now_ms_of, stated, told, zone_of
from resolver.timeexpr.context import read_context
from resolver.timeexpr.convert import to_epoch_ms
from resolver.timeexpr.reading import MAX_TEXT, Reading, read
from resolver.timeexpr.result import STEPS, Step, TimeResolution
from resolver.timeexpr.settle import Outcome, Settled, outcome, resolve_time, settle, settle_both
from resolver.timeexpr.steps import step_of
from resolver.timeexpr.terms import Clock
from resolver.timeexpr.timewindow import (
    TimeWindow,
    UnknownZone,
    language_of,
    time_ask,
    unread_clause,
)
from resolver.timeexpr.window import read_window

__all__ = [
    "MAX_TEXT",
    "STEPS",
    "Clock",
    "Outcome",
    "Reading",
    "Settled",
    "Step",
    "TimeResolution",
    "TimeWindow",
    "Told",
    "UnknownZone",
    "blank",
    "language_of",
    "now_ms_of",
    "outcome",
    "read",
    "read_context",
    "read_window",
    "resolve_time",
    "settle",
    "settle_both",
    "stated",
    "step_of",
    "time_ask",
    "to_epoch_ms",
    "told",
    "unread_clause",
    "zone_of",
]
