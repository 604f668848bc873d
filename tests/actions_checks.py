"""Assertions shared by the action-recall tests: what OpenAI function calling needs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator

FORBIDDEN_KEYS = frozenset({"$ref", "$defs", "definitions"})
ROOT_FORBIDDEN = frozenset({"anyOf", "oneOf", "allOf", "enum", "not", "const"})


def keys_anywhere(node: Any) -> Iterator[str]:
    """Every mapping key at any depth of a JSON value."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from keys_anywhere(value)
    elif isinstance(node, list):
        for item in node:
            yield from keys_anywhere(item)


def schemas_anywhere(node: Any) -> Iterator[dict[str, Any]]:
    """Every object at any depth of a JSON value (a superset of the subschemas)."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from schemas_anywhere(value)
    elif isinstance(node, list):
        for item in node:
            yield from schemas_anywhere(item)


def assert_function_parameters(schema: dict[str, Any]) -> None:
    """A valid, self-contained `type: object` schema with `properties`, as OpenAI requires."""
    Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert isinstance(schema["properties"], dict)
    assert not ROOT_FORBIDDEN & schema.keys()
    found = FORBIDDEN_KEYS & set(keys_anywhere(schema))
    assert not found, f"left in the schema: {sorted(found)}"
    for sub in schemas_anywhere(schema):
        if sub.get("type") == "array":
            assert "items" in sub or "prefixItems" in sub, f"array without items: {sub}"
