"""Stages 1 and 2 of a property, settled in code (SPEC §1): caller values from
`dynamic_params` and `additional_context`, then time expressions and step/instant words."""

from __future__ import annotations

from typing import Any, Literal, cast

from resolver.params.context import CoercionError, coerce
from resolver.params.frame import Frame
from resolver.params.property import PropertyState
from resolver.timeexpr import Step, resolve_time, to_epoch_ms
from rules import registry
from rules.spec import METRIC_TIME_PARAMS, STEPS, PropertySpec
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
    if spec.kind == "metric" and name in ("start", "end") and isinstance(raw, str):
        edge: Literal["start", "end"] = "start" if name == "start" else "end"
        if not raw.strip().isdigit():
            return to_epoch_ms(raw.strip(), edge=edge, now_ms=frame.now_ms, tz=frame.tz)
    try:
        return coerce(raw, spec.implicit_type(name))
    except CoercionError as exc:
        raise ValueError(str(exc)) from exc


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
        resolution = frame.time_cache[overrides]
    else:
        resolution = frame.time_cache[overrides] = resolve_time(
            frame.query,
            now_ms=frame.now_ms,
            tz=frame.tz,
            instant=overrides[0],
            step=overrides[1],
        )
    if resolution is not None:
        state.time_expr = resolution.expr
        for name, value in resolution.params().items():
            if name in declared and name not in state.values:
                state.settle(name, value, "rule")
    window = ("start", "end", "step")
    if (
        "instant" in declared
        and "instant" not in state.values
        and all(n in state.values for n in window if n in declared)
        and any(n in declared for n in window)
    ):
        # A complete window given by the caller is a trend query by definition.
        state.settle("instant", False, "rule")
