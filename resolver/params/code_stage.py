"""Stages 1 and 2 of a property, settled in code (SPEC §1): caller values from
`dynamic_params` and `additional_context`, then time expressions and step/instant words —
those of the context's words first (SPEC §3), then the query's."""

from __future__ import annotations

from typing import Any, Literal

from resolver.params.context import CoercionError, coerce
from resolver.params.frame import Frame
from resolver.params.property import PropertyState
from resolver.timeexpr.convert import to_epoch_ms
from resolver.timeexpr.fiscal_config import names_fiscal
from resolver.timeexpr.result import Step, TimeResolution
from resolver.timeexpr.settle import resolve_time, settle_both
from resolver.timeexpr.steps import step_of
from resolver.timeexpr.terms import Clock
from rules import registry
from rules.spec import MAX_MS, MIN_MS, STEPS, PropertySpec
from rules.violation import Violation


def take_caller_values(
    state: PropertyState, supplied: dict[str, Any] | None, frame: Frame
) -> list[Violation]:
    """Stage 1: values from `dynamic_params`, then `additional_context`; return their violations."""
    violations: list[Violation] = []
    if supplied:
        state.settle_all(supplied, "caller")
    context = frame.context
    for name in state.spec.input_names() if context.pairs else ():
        if name in state.values:
            continue
        found, raw = context.lookup(name)
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
    declared = state.spec.time_params()
    if not declared:
        return  # an operator, or a metric without time inputs
    values = state.values
    instant = values.get("instant")
    step = values.get("step")
    instant_given: bool | None = instant if isinstance(instant, bool) else None
    step_given: Step | None = step if step in STEPS else None
    if state.definition.has_time_dimension() is False:
        _no_time_dimension(state, frame, declared)
        return
    overrides = (instant_given, step_given)
    settled = frame.time_cache.get(overrides)
    if settled is None:
        settled = frame.time_cache[overrides] = settle_both(
            frame.query_time, frame.context_time, Clock(frame.now_ms, frame.tz, frame.fiscal),
            instant=instant_given, step=step_given,
        )  # fmt: skip
    resolution, from_context, unread = settled
    state.could_not_read(unread)
    if resolution is None and frame.fiscal is None and names_fiscal(unread):
        # A fiscal period with no fiscal calendar anywhere: no window, no LLM guess (§9.1).
        state.refuse_window(
            [n for n in declared if n in ("start", "end", "step")] or list(declared),
            frame.language,
            fiscal=True,
        )
        return
    if resolution is not None and not _within_rules(resolution):
        # A window the rules refuse (the year 1930 of "编号 #1930": §5 allows 2000..2100) is
        # not one the caller can have meant: the time stays open for the LLM or the ask.
        resolution = None
    if resolution is not None:
        state.read_time(resolution.expr)
        for name, value in resolution.params().items():
            if name in declared and name not in values:
                state.settle(name, value, "context" if name in from_context else "rule")
    if (
        declared[0] == "instant"
        and "instant" not in values
        and len(declared) > 1
        and all(n in values for n in declared[1:])
    ):
        # A complete window given by the caller is a trend query by definition.
        state.settle("instant", False, "rule")


def _no_time_dimension(state: PropertyState, frame: Frame, declared: tuple[str, ...]) -> None:
    """A metric with no time dimension (SPEC §9.1): its only window is the current value. A
    question or caller naming a period gets the ask saying so (upstream would answer 400
    `time range filter requires metric time_dimension.property`)."""
    window = ("start", "end", "step")
    caller_window = any(n in state.values for n in ("start", "end")) or (
        state.values.get("instant") is False
    )
    settled = settle_both(
        frame.query_time, frame.context_time, Clock(frame.now_ms, frame.tz, frame.fiscal)
    )
    resolution = settled.resolution
    named = bool(settled.unread) or (
        resolution is not None and (resolution.instant is False or resolution.start is not None)
    )
    if caller_window or named or "instant" not in declared:
        state.could_not_read(settled.unread)
        state.refuse_window([n for n in declared if n in window] or ["instant"], frame.language)
        return
    if "instant" not in state.values:
        state.settle("instant", True, "rule")
    if resolution is not None:
        state.read_time(resolution.expr)


def _within_rules(resolution: TimeResolution) -> bool:
    """Whether the window's timestamps lie in the range the rules accept (SPEC §5)."""
    start, end = resolution.start, resolution.end
    return (start is None or MIN_MS <= start <= MAX_MS) and (end is None or MIN_MS <= end <= MAX_MS)
