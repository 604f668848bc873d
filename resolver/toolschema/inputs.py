"""Operator schemas: per-input JSON Schemas read from an operator's OpenAPI document."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from resolver.toolschema.openapi import openapi_parameters

# Keys worth showing the model; descriptions are cut to keep prompts small.
_PROMPT_KEYS = ("type", "enum", "required", "items", "properties", "default", "description")
_MAX_DESCRIPTION = 120


def input_schemas(document: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Map each input name to its schema: the operator's OpenAPI parameters and JSON body,
    flattened and `$ref`-resolved by the action-recall converter (one converter serves both).

    Raises `SchemaConversionError` (naming the JSON pointer) for an unusable document.
    """
    flat = openapi_parameters(document)
    properties = flat.get("properties", {})
    return {str(k): dict(v) for k, v in properties.items() if isinstance(v, Mapping)}


def compact(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A small form of a schema for the prompt: types, enums, required keys, item types."""
    out: dict[str, Any] = {}
    for key in _PROMPT_KEYS:
        if key not in schema:
            continue
        value = schema[key]
        if key == "description" and isinstance(value, str):
            value = value[:_MAX_DESCRIPTION]
        elif key == "items" and isinstance(value, Mapping):
            value = compact(value)
        elif key == "properties" and isinstance(value, Mapping):
            value = {k: compact(v) for k, v in value.items() if isinstance(v, Mapping)}
        out[key] = value
    return out
