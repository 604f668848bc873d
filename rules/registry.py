"""The rule chains: which rules run for which property kind, in a fixed order."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from rules import metric, operator
from rules.spec import METRIC_TIME_PARAMS, PropertyKind, PropertySpec
from rules.violation import Violation

Rule = Callable[[PropertySpec, Mapping[str, object]], Iterable[Violation]]

CHAINS: dict[PropertyKind, tuple[Rule, ...]] = {
    "metric": (
        operator.check_declared,
        metric.check_instant,
        metric.check_timestamps,
        metric.check_step,
        metric.check_instant_step,
        operator.check_types,
        operator.check_schemas,
    ),
    "operator": (
        operator.check_declared,
        operator.check_types,
        operator.check_schemas,
    ),
}


def _chain(kind: PropertyKind, typed: bool, schemed: bool) -> tuple[Rule, ...]:
    """The kind's chain without the rules a property of this shape gives nothing to check."""
    idle = set()
    if not typed:
        idle.add(operator.check_types)
    if not schemed:
        idle.add(operator.check_schemas)
    return tuple(rule for rule in CHAINS[kind] if rule not in idle)


# Each property shape's chain (`PropertySpec.shape`), in CHAINS order.
_CHAINS_BY_SHAPE: dict[tuple[PropertyKind, bool, bool], tuple[Rule, ...]] = {
    (kind, typed, schemed): _chain(kind, typed, schemed)
    for kind in CHAINS
    for typed in (False, True)
    for schemed in (False, True)
}


def validate(spec: PropertySpec, params: Mapping[str, object]) -> list[Violation]:
    """Every violation of `params` against the rules of the property's kind, in rule order.
    Every rule judges values present (absent ones are `missing`'s), so no values, no violation.
    A rule with nothing of this property to check (types when no input is typed, schemas
    when none has one) is not run."""
    if not params:
        return []
    return [v for rule in _CHAINS_BY_SHAPE[spec.shape] for v in rule(spec, params)]


def missing(spec: PropertySpec, params: Mapping[str, object]) -> list[str]:
    """Inputs that must be present but are not (rules 4.1.2, 4.3.1, 7.3.1), in declared order."""
    if spec.kind != "metric":
        return [name for name in spec.input_names() if name not in params]
    time = metric.required_time_params(spec, params)
    return [
        name
        for name in spec.input_names()
        if name not in params and (name in time or name not in METRIC_TIME_PARAMS)
    ]
