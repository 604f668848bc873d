"""Which JSON-Schema keywords survive conversion, and what a well-formed value looks like.

A keyword is kept only if it is standard JSON Schema (2020-12) and its value is well
formed, so the converted schema always passes the metaschema. OpenAPI-only keywords
(`example`, `xml`, `discriminator`, `externalDocs`, `x-*`, `readOnly`, `writeOnly`) and
`$defs`/`definitions`/`$id`/`$schema`/`$comment` are dropped; `nullable` and boolean
`exclusiveMinimum`/`exclusiveMaximum` are rewritten by the resolver.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

SUBSCHEMA_KEYWORDS = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "contains",
        "propertyNames",
        "if",
        "then",
        "else",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
"""Keywords whose value is one schema."""

SUBSCHEMA_MAP_KEYWORDS = frozenset({"properties", "patternProperties", "dependentSchemas"})
"""Keywords whose value maps names to schemas."""

SUBSCHEMA_LIST_KEYWORDS = frozenset({"anyOf", "oneOf", "prefixItems"})
"""Keywords whose value is a list of schemas (`allOf` is merged away instead)."""


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_positive(value: Any) -> bool:
    return _is_number(value) and value > 0


def _is_list(value: Any) -> bool:
    return isinstance(value, list)


def _is_anything(value: Any) -> bool:
    return True


def is_regex(value: Any) -> bool:
    """Whether `value` is a pattern the metaschema's `format: regex` accepts."""
    if not isinstance(value, str):
        return False
    try:
        re.compile(value)
    except re.error:
        return False
    return True


def is_name_list(value: Any) -> bool:
    """Whether `value` is a list of distinct strings (`required`, `dependentRequired`)."""
    return (
        isinstance(value, list)
        and all(isinstance(item, str) for item in value)
        and len(set(value)) == len(value)
    )


def _is_dependent_required(value: Any) -> bool:
    return isinstance(value, dict) and all(is_name_list(names) for names in value.values())


VALUE_KEYWORDS: dict[str, Callable[[Any], bool]] = {
    "title": _is_str,
    "description": _is_str,
    "format": _is_str,
    "pattern": is_regex,
    "contentEncoding": _is_str,
    "contentMediaType": _is_str,
    "minLength": _is_count,
    "maxLength": _is_count,
    "minItems": _is_count,
    "maxItems": _is_count,
    "minProperties": _is_count,
    "maxProperties": _is_count,
    "minContains": _is_count,
    "maxContains": _is_count,
    "minimum": _is_number,
    "maximum": _is_number,
    "exclusiveMinimum": _is_number,
    "exclusiveMaximum": _is_number,
    "multipleOf": _is_positive,
    "uniqueItems": _is_bool,
    "deprecated": _is_bool,
    "enum": _is_list,
    "examples": _is_list,
    "default": _is_anything,
    "const": _is_anything,
    "required": is_name_list,
    "dependentRequired": _is_dependent_required,
}
"""Keywords copied as data, each with the check its value must pass to be kept."""


def clean_type(value: Any, *, nullable: bool) -> str | list[str] | None:
    """A valid `type` from `value` (unknown names dropped), widened with `null` if `nullable`."""
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    kept: list[str] = []
    for name in names:
        if isinstance(name, str) and name in JSON_TYPES and name not in kept:
            kept.append(name)
    if not kept:
        return None
    if nullable and "null" not in kept:
        kept.append("null")
    return kept[0] if len(kept) == 1 else kept


def type_names(value: Any) -> list[str]:
    """The type names of a cleaned `type` value, as a list."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [name for name in value if isinstance(name, str)]
    return []
