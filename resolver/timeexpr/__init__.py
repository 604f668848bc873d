"""Deterministic time expressions for metrics (SPEC §3, §4, §4.1; docs/time-semantics.md).

`resolve_time` reads a Chinese or English query and settles `instant`, `start`, `end` and
`step` in code, in the request timezone — or nothing, when a time cue of the text is left
unread (`cues.py`: never settle half a question). `read_time` gives what a text says before
the caller's overrides, `settle` applies them (the params stage reads the context's words and
the query's this way), `step_of` reads a step word, `to_epoch_ms` converts a time value an LLM
produced. The package is pure: no I/O, no logging, no clock of its own (`now_ms` is an
argument); lunar festivals come from `lunar-python` (`festivals.py`).

Modules: `lexicon` (words, numerals), `patterns` (the atoms' regexes), `atoms` (what one atom
means), `partials` (periods placed in a year, month or week), `festivals`, `terms` (the
canonical terms and their ms), `calendar` (wall-clock arithmetic), `cues` (the time-cue
lexicon), `scanner` (containers, expressions, the one window, the guard), `steps`, `convert`.

Canonical expressions (`TimeResolution.expr`, shown as `debug.time_expr`)::

    expr     := term | term ".." term        start(first) .. end(last); one term spans itself
    term     := relative | absolute
    relative := "now" [("+" | "-") N unit] ["/" unit]
                # now-3M is a point; "/M" widens it to the month around it (now-1M/M: last
                # month); plain "now" is the current instant
    absolute := YYYY | YYYY-MM | YYYY-"Q"q | YYYY-"W"ww (ISO week) | YYYY-MM-DD
    unit     := "d" | "w" | "M" | "Q" | "y"  # day, ISO week, month, quarter, year

    now             instant words (当前, 现在, today, ...)
    now-3M..now     last/past/最近/近/过去 N units        now-3M      N units ago / N个月前
    now-3h..now     最近3小时 (now-30min: minutes; debug only, not an LLM unit)
    end(2024-03)    截至2024年3月, as of March 2024: the point at the end of the period
    now-1M/M        previous period (上个月, last month)   now/M..now  this period (本月)
    2024-03         explicit period (2024年3月, March 2024, and bare months: 3月)
    2024-01..2024-03  range (从2024年1月到3月)           2024-03..now  since (2024年3月以来)

Arithmetic follows docs/time-semantics.md: local wall clock, fold=0, month ends clamped,
ISO weeks, a period ends at its last millisecond.

May import: `resolver.core` (today: nothing of resolver at all).
"""

from resolver.timeexpr.convert import to_epoch_ms
from resolver.timeexpr.result import Step, TimeResolution
from resolver.timeexpr.scanner import Reading, read_time, resolve_time, settle
from resolver.timeexpr.steps import step_of

__all__ = [
    "Reading",
    "Step",
    "TimeResolution",
    "read_time",
    "resolve_time",
    "settle",
    "step_of",
    "to_epoch_ms",
]
