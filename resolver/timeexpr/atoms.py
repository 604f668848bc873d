"""Atoms: what one phrase of the grammar means, before containers, ranges and since.

An atom is clock-free: it names periods relative to now (`Relative`), absolute periods
(`Absolute`), or partials still to be placed (`partials.py`), so a text is read once and
evaluated at any clock (`evaluate.py`).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from resolver.timeexpr.partials import Partial
from resolver.timeexpr.result import Step
from resolver.timeexpr.terms import NOW, Absolute, Relative, Term

# period: one calendar period (2024年3月, 上个月, 明天); this: the current period so far
# (本月); rolling: now-N..now; ahead: now..now+N; ago: the point now-N; later: the point
# now+N; rest: now..end of the current period (later this week); span: first..last periods
# (2024年1-3月); partial: a period whose container is still open (3月, Q1, 周五, 15号);
# anchor: the start of the current period, only the start of a since (年初至今); now: an
# instant word; clock: a time of day (only inside an hour range); compare: a comparison
# phrase (同比去年), read but no window; day_number: a bare day number (17 in April 9th
# through 17th), only the end of a range of days; step: a step word of a unit and a trend
# word (月趋势).
Kind = Literal[
    "period",
    "this",
    "rolling",
    "ahead",
    "ago",
    "later",
    "rest",
    "span",
    "partial",
    "anchor",
    "now",
    "clock",
    "compare",
    "day_number",
    "step",
    "impossible",
]


# How a partial without a container is placed from now: bare (this one if started, else the
# previous: 3月, 周五), upcoming (the first after today: the coming Friday), previous (the last
# before the current period: last March), next (the first after it: next March), recent (the
# last one before today: this past Wednesday).
Place = Literal["bare", "upcoming", "previous", "next", "recent"]


class ClockTime(NamedTuple):
    """A time of day as written: 下午3点 (15, 0, pm), 9am, 15:00; `meridiem` is "am"/"pm" when
    written, `part` a part of day (下午), `clock_word` whether 点/o'clock/a colon was used."""

    hour: int
    minute: int
    meridiem: str | None
    part: str | None
    clock_word: bool


class Atom(NamedTuple):
    """One atom: its kind, natural step, terms, or the partial and where it is placed.

    A partial's `container` is the period it is placed in (上个月 for 上个月下旬, 2024 for
    2024年3月: a term, or another atom such as the partial 3月 of 3月上旬); without one it is
    placed from now (`upcoming`: the next one, as in the coming Friday; else this one if
    started, else the previous). A rolling atom may carry a partial too: 前三个月 is the last
    three months alone, but the first three months of a year named before it.
    """

    kind: Kind
    unit: Step | None
    first: Term | None = None
    last: Term | None = None
    partial: Partial | None = None
    container: Term | Atom | None = None
    place: Place = "bare"
    clock: ClockTime | None = None
    weekday: int = -1  # a weekday the day must fall on (10月12号，星期一): -1 for none


NOW_ATOM = Atom("now", None)
# A phrase naming a date that does not exist (2025-W53, 10/August/2012 with a 31st of June):
# the text settles nothing, never a neighbour's reading (SPEC §4.3).
IMPOSSIBLE = Atom("impossible", None)


def period(unit: Step, first: Term, last: Term | None = None) -> Atom:
    """A whole period (or a span of periods when `last` is given)."""
    return Atom("span" if last is not None else "period", unit, first, last)


def dated(unit: Step, first: Absolute, last: Absolute | None) -> Atom:
    """Return the atom of a placed partial: a period, or a span when it has a last period."""
    return Atom("span" if last is not None else "period", unit, first, last)


def partial(part: Partial, container: Term | Atom | None = None, place: Place = "bare") -> Atom:
    """A partial, placed in `container` or (without one) from now."""
    return Atom("partial", part.unit, partial=part, container=container, place=place)


def relative(offset: int, unit: Step) -> Atom:
    """The whole period `offset` units from the current one: previous (-1), this whole (0,
    only as a container), next (+1)."""
    return Atom("period", unit, Relative(offset, unit, unit))


def this(unit: Step) -> Atom:
    """The current period so far: its start .. now."""
    return Atom("this", unit, Relative(0, None, unit), NOW)
