"""Operator-schema checks (rule 5.3.2): enum, type, required nested keys and item types.

Only the parts of JSON Schema that SPEC §5 asks for are checked; anything else in a schema
(formats, patterns, numeric bounds) is advice for the LLM, not a rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules.types import is_json_type
from rules.violation import Violation, shown

_MAX_DEPTH = 16


def check_schema(value: object, schema: Mapping[str, Any], path: str) -> Iterator[Violation]:
    """Yield every way `value` breaks `schema`, naming the JSON path of each."""
    yield from _check(value, schema, path, 0)


def _check(value: object, schema: Mapping[str, Any], path: str, depth: int) -> Iterator[Violation]:
    if depth > _MAX_DEPTH:
        return
    declared = schema.get("type")
    types = [declared] if isinstance(declared, str) else declared
    if isinstance(types, list) and types and not any(is_json_type(value, str(t)) for t in types):
        wanted = "/".join(str(t) for t in types)
        message = f"{path} must be of schema type {wanted}, got {shown(value)}"
        yield Violation("5.3.2", message, path)
        return
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and value not in enum:
        options = ", ".join(shown(option) for option in enum[:10])
        yield Violation("5.3.2", f"{path} must be one of [{options}], got {shown(value)}", path)
    if isinstance(value, dict):
        yield from _check_object(value, schema, path, depth)
    elif isinstance(value, list):
        items = schema.get("items")
        if isinstance(items, Mapping):
            for index, item in enumerate(value):
                yield from _check(item, items, f"{path}[{index}]", depth + 1)


def _check_object(
    value: Mapping[str, Any], schema: Mapping[str, Any], path: str, depth: int
) -> Iterator[Violation]:
    required = schema.get("required")
    if isinstance(required, list):
        for key in required:
            if isinstance(key, str) and key not in value:
                yield Violation("5.3.2", f"{path} lacks required key {key!r}", path)
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        for key, sub in properties.items():
            if key in value and isinstance(sub, Mapping):
                yield from _check(value[key], sub, f"{path}.{key}", depth + 1)
