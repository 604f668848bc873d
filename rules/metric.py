"""Metric rules (seed 003 §4 and §7.2, SPEC §5)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from rules.spec import MAX_MS, MIN_MS, STEPS, PropertySpec
from rules.violation import Violation, shown


def check_instant(spec: PropertySpec, params: Mapping[str, object]) -> Iterator[Violation]:
    """Rule 7.2.1: instant is a boolean, never null."""
    if "instant" in params and not isinstance(params["instant"], bool):
        yield Violation(
            "7.2.1", f"instant must be a boolean, got {shown(params['instant'])}", "instant"
        )


def check_timestamps(spec: PropertySpec, params: Mapping[str, object]) -> Iterator[Violation]:
    """Rule 7.2.2: start/end are integer ms within 2000..2100, and start <= end."""
    valid: dict[str, int] = {}
    for name in ("start", "end"):
        if name not in params:
            continue
        value = params[name]
        if not isinstance(value, int) or isinstance(value, bool):
            yield Violation(
                "7.2.2", f"{name} must be an integer ms timestamp, got {shown(value)}", name
            )
        elif not MIN_MS <= value <= MAX_MS:
            yield Violation(
                "7.2.2",
                f"{name} must lie within [{MIN_MS}, {MAX_MS}] (2000..2100), got {value}",
                name,
            )
        else:
            valid[name] = value
    if len(valid) == 2 and valid["start"] > valid["end"]:
        yield Violation(
            "7.2.2", f"start must be <= end, got start={valid['start']} end={valid['end']}", "start"
        )


def check_step(spec: PropertySpec, params: Mapping[str, object]) -> Iterator[Violation]:
    """Rule 7.2.3: step is exactly one of day/week/month/quarter/year."""
    if "step" in params and params["step"] not in STEPS:
        yield Violation(
            "7.2.3", f"step must be one of {'/'.join(STEPS)}, got {shown(params['step'])}", "step"
        )


def check_instant_step(spec: PropertySpec, params: Mapping[str, object]) -> Iterator[Violation]:
    """Rule 7.2.4: an instant query carries no step."""
    if params.get("instant") is True and "step" in params:
        yield Violation("7.2.4", "instant=true carries no step; drop step or set instant=false")


def required_time_params(spec: PropertySpec, params: Mapping[str, object]) -> tuple[str, ...]:
    """The time parameters that must be present given what is known (rule 4.1.2).

    Until instant is known every declared time parameter counts; instant=true needs only
    itself; instant=false needs start, end and step.
    """
    declared = spec.time_params()
    if params.get("instant") is True:
        return ("instant",) if "instant" in declared else ()
    return declared
