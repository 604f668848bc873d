"""Stages 1 and 2 of a property, settled in code (SPEC §1): caller values from
`dynamic_params` and `additional_context`, then time expressions and step/instant words —
those of the context's words first (SPEC §3), then the query's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, cast

from resolver.params.context import CoercionError, coerce
from resolver.params.frame import Frame
from resolver.params.property import PropertyState
from resolver.timeexpr import Step, TimeResolution, resolve_time, settle, step_of, to_epoch_ms
from rules import registry
from rules.spec import MAX_MS, METRIC_TIME_PARAMS, MIN_MS, STEPS, PropertySpec
from rules.violation import Violation


def take_caller_values(
    state: PropertyState, supplied: dict[str, Any] | None, frame: Frame
) -> list[Violation]:
    """Stage 1: values from `dynamic_params`, then `additional_context`; return their violations."""
    violations: list[Violation] = []
    for name, value in (supplied or {}).items():
        state.settle(name, value, "caller")
    for name in state.spec.input_names():
        if name in state.values:
            continue
        found, raw = frame.context.lookup(name)
        if not found:
            continue
        try:
            value = _context_value(state.spec, name, raw, frame)
        except ValueError as exc:
            rule = "7.2.2" if name in ("start", "end") else "7.3.2"
            violations.append(Violation(rule, f"additional_context {name}: {exc}", name))
            continue
        state.settle(name, value, "context")
    violations.extend(registry.validate(state.spec, state.values))
    return violations


def _context_value(spec: PropertySpec, name: str, raw: Any, frame: Frame) -> Any:
    if spec.kind == "metric" and isinstance(raw, str):
        if name in ("start", "end") and not raw.strip().isdigit():
            return _edge(raw.strip(), "start" if name == "start" else "end", frame)
        if name == "step" and (step := step_of(raw)) is not None:
            return step  # 按月, monthly, Month (SPEC §3)
    try:
        return coerce(raw, spec.implicit_type(name))
    except CoercionError as exc:
        raise ValueError(str(exc)) from exc


def _edge(text: str, edge: Literal["start", "end"], frame: Frame) -> int:
    """A context `start`/`end`: an ISO date or datetime, now-3M, or a §4 expression (2024年1月);
    a period gives its first ms for start, its last for end."""
    try:
        return to_epoch_ms(text, edge=edge, now_ms=frame.now_ms, tz=frame.tz)
    except ValueError as exc:
        read = resolve_time(text, now_ms=frame.now_ms, tz=frame.tz)
        if read is None or read.start is None or read.end is None:
            raise ValueError(f"{exc}; nor a time expression") from exc
        return read.start if edge == "start" else read.end


def apply_time_rules(state: PropertyState, frame: Frame) -> None:
    """Stage 2 (metrics): time expressions and step/instant words, settled in code."""
    declared = [n for n in METRIC_TIME_PARAMS if state.spec.get(n) is not None]
    if state.spec.kind != "metric" or not declared:
        return
    instant = state.values.get("instant")
    step = state.values.get("step")
    overrides = (
        instant if isinstance(instant, bool) else None,
        cast("Step", step) if step in STEPS else None,
    )
    if overrides in frame.time_cache:
        resolution, from_context = frame.time_cache[overrides]
    else:
        resolution, from_context = frame.time_cache[overrides] = _resolve(frame, *overrides)
    if resolution is not None and not _within_rules(resolution):
        # A window the rules refuse (the year 1930 of "编号 #1930": §5 allows 2000..2100) is
        # not one the caller can have meant: the time stays open for the LLM or the ask.
        resolution = None
    if resolution is not None:
        state.read_time(resolution.expr)
        for name, value in resolution.params().items():
            if name in declared and name not in state.values:
                state.settle(name, value, "context" if from_context(name) else "rule")
    window = ("start", "end", "step")
    if (
        "instant" in declared
        and "instant" not in state.values
        and all(n in state.values for n in window if n in declared)
        and any(n in declared for n in window)
    ):
        # A complete window given by the caller is a trend query by definition.
        state.settle("instant", False, "rule")


def _within_rules(resolution: TimeResolution) -> bool:
    """Whether the window's timestamps lie in the range the rules accept (SPEC §5)."""
    return all(
        MIN_MS <= edge <= MAX_MS for edge in (resolution.start, resolution.end) if edge is not None
    )


def _resolve(
    frame: Frame, instant: bool | None, step: Step | None
) -> tuple[TimeResolution | None, Callable[[str], bool]]:
    """Settle time from the context's words, else the query (SPEC §3: context first).

    Returns the resolution and a function telling, per parameter, whether it came from the
    context. Context words that hold a time cue the scanner cannot read settle nothing:
    the query's window is not used instead, since the caller meant to change it.
    """
    context, query = frame.context_time, frame.query_time
    if context.unread is not None or context.window is not None:
        resolved = settle(
            context, instant=instant, step=step, step_word=query.step, trend=query.trend
        )
        return resolved, _always
    if context.instant is not None:
        # 查询当前值, current value: instant=true, unless the caller's keys said otherwise.
        chosen = True if instant is None else instant
        resolved = settle(query, instant=chosen, step=step)
        return resolved, (lambda name: name == "instant" and instant is None)
    if context.step is not None and step is None:
        resolved = settle(query, instant=instant, step=context.step)
        return resolved, (lambda name: name == "step")
    return settle(query, instant=instant, step=step), _never


def _always(name: str) -> bool:
    return True


def _never(name: str) -> bool:
    return False
