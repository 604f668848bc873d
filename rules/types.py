"""Strict type checks for declared parameter types (rules 7.3.2 and 7.3.3)."""

from __future__ import annotations

import math
from collections.abc import Callable

from rules.spec import ParamType
from rules.violation import Violation, shown

_JSON_NAMES = {
    ParamType.STRING: "a string",
    ParamType.INTEGER: "an integer",
    ParamType.NUMBER: "a number",
    ParamType.BOOLEAN: "a boolean",
    ParamType.OBJECT: "a JSON object",
    ParamType.ARRAY: "a JSON array",
}


def _is_number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


_PREDICATES: dict[str, Callable[[object], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": _is_number,
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}


def is_json_type(value: object, json_type: str) -> bool:
    """Whether `value` is of a JSON-Schema type word; unknown words accept anything."""
    predicate = _PREDICATES.get(json_type)
    return True if predicate is None else predicate(value)


# Each declared type's predicate, found by the member itself (every rule asks per input).
_DECLARED: dict[ParamType, Callable[[object], bool]] = {
    declared: _PREDICATES[declared.json_type] for declared in ParamType
}


def matches(declared: ParamType, value: object) -> bool:
    """Whether `value` is of the declared type; bool is not a number, "0.8" is not a NUMBER."""
    return _DECLARED[declared](value)


def check_type(name: str, declared: ParamType, value: object) -> Violation | None:
    """A violation if `value` is not of the declared type, else None."""
    if matches(declared, value):
        return None
    rule = "7.3.3" if declared in (ParamType.OBJECT, ParamType.ARRAY) else "7.3.2"
    return Violation(
        rule,
        f"{name} must be {_JSON_NAMES[declared]} ({declared.value}), got {shown(value)}",
        name,
    )
