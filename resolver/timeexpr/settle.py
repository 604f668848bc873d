"""Settling metric parameters from readings at a clock (SPEC §3, §4): the window, the
instant word, the step — with the caller's `instant`/`step` beating the text, and a trend word
refining the step of a single period."""

from __future__ import annotations

from typing import NamedTuple
from zoneinfo import ZoneInfo

from resolver.timeexpr.evaluate import Evaluated, evaluate
from resolver.timeexpr.reading import Reading, read
from resolver.timeexpr.result import Step, TimeResolution
from resolver.timeexpr.terms import Clock

# A trend word on a single period asks for one unit finer.
_REFINE: dict[Step, Step] = {
    "year": "month",
    "quarter": "month",
    "month": "day",
    "week": "day",
    "day": "day",
}


class Outcome(NamedTuple):
    """A reading at a clock: its one window (or None) and the words it could not use."""

    reading: Reading
    window: Evaluated | None
    unread: tuple[str, ...]


def outcome(reading: Reading, clock: Clock) -> Outcome:
    """Evaluate a reading's expressions at a clock: one window, several that agree, or none.

    An expression that makes no window at this clock (a range that runs backwards, since a
    period to come, a weekday that disagrees with its date) and two windows that disagree
    leave the text unread: it asked something that cannot be answered as written."""
    if reading.unread:
        return Outcome(reading, None, reading.unread)
    if reading.zone is not None:  # the zone the user wrote governs, whatever the request says
        clock = Clock(clock.now_ms, ZoneInfo(reading.zone))
    chosen: Evaluated | None = None
    for expression in reading.expressions:
        found = evaluate(expression, clock)
        if found is None:
            return Outcome(reading, None, (reading.text[expression.start : expression.end],))
        if chosen is None:
            chosen = found
        else:  # two windows, even equal ones: which one was asked? (SPEC §4.1)
            words = (reading.text[chosen.expression.start : chosen.expression.end],)
            return Outcome(reading, None, (*words, reading.text[expression.start : expression.end]))
    return Outcome(reading, chosen, ())


def settle(
    reading: Reading,
    clock: Clock,
    *,
    instant: bool | None = None,
    step: Step | None = None,
    step_word: Step | None = None,
    trend: bool = False,
) -> TimeResolution | None:
    """Turn a reading into settled parameters at a clock, the caller's `instant`/`step`
    beating it. `step_word` and `trend` come from elsewhere (the query, when the reading is
    the context's)."""
    return settle_outcome(
        outcome(reading, clock), instant=instant, step=step, step_word=step_word, trend=trend
    )


def settle_outcome(
    result: Outcome,
    *,
    instant: bool | None = None,
    step: Step | None = None,
    step_word: Step | None = None,
    trend: bool = False,
) -> TimeResolution | None:
    """`settle` for an outcome already evaluated."""
    reading = result.reading
    if instant is True:
        return TimeResolution(True, None, None, None, "now" if reading.instant else None, None)
    found = result.window
    if found is not None:
        chosen = step or reading.step or step_word
        if chosen is None:
            refine = found.window.single and (reading.trend or trend)
            chosen = _REFINE[found.window.unit] if refine else found.window.unit
        expression = found.expression
        matched = reading.text[expression.start : expression.end]
        return TimeResolution(False, found.start, found.end, chosen, str(found.window), matched)
    unread = bool(result.unread)
    if instant is False or step is not None:
        # The caller asks for a series: its window stays open (docs/time-semantics.md). An
        # unread text gives no step word either.
        word = None if unread else (reading.step or step_word)
        return TimeResolution(False, None, None, step or word, None, None)
    if unread:
        return None
    if reading.instant is not None:
        return TimeResolution(True, None, None, None, "now", reading.instant)
    if reading.step is not None:
        return TimeResolution(False, None, None, reading.step, None, reading.step_word)
    return None


def resolve_time(
    query: str,
    *,
    now_ms: int,
    tz: ZoneInfo,
    instant: bool | None = None,
    step: Step | None = None,
) -> TimeResolution | None:
    """Settle instant/start/end/step from the query; `instant`/`step` overrides beat it."""
    return settle(read(query), Clock(now_ms, tz), instant=instant, step=step)


class Settled(NamedTuple):
    """The parameters two readings settle, which of them came from the context, and the words
    neither could read (when nothing is settled)."""

    resolution: TimeResolution | None
    from_context: frozenset[str]
    unread: tuple[str, ...]


_ALL = frozenset(("instant", "start", "end", "step"))
_NONE: frozenset[str] = frozenset()


def settle_both(
    query: Reading,
    context: Reading,
    clock: Clock,
    *,
    instant: bool | None = None,
    step: Step | None = None,
) -> Settled:
    """Settle time from the context's words, else the query's (SPEC §3: context first); the
    caller's `instant`/`step` beat both.

    Context words that hold a time cue the scanner cannot read settle nothing: the query's
    window is not used instead, since the caller meant to change it."""
    if context.unread or context.expressions:
        result = outcome(context, clock)
        resolved = settle_outcome(
            result, instant=instant, step=step, step_word=query.step, trend=query.trend
        )
        return Settled(resolved, _ALL, result.unread)
    result = outcome(query, clock)
    if context.instant is not None:
        # 查询当前值, current value: instant=true, unless the caller's keys said otherwise.
        chosen = True if instant is None else instant
        resolved = settle_outcome(result, instant=chosen, step=step)
        return Settled(
            resolved, frozenset(("instant",)) if instant is None else _NONE, result.unread
        )
    if context.step is not None and step is None:
        resolved = settle_outcome(result, instant=instant, step=context.step)
        return Settled(resolved, frozenset(("step",)), result.unread)
    return Settled(settle_outcome(result, instant=instant, step=step), _NONE, result.unread)
