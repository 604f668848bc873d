"""Operator schemas: per-input JSON Schemas read from an operator's OpenAPI document."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Keys worth showing the model; descriptions are cut to keep prompts small.
_PROMPT_KEYS = ("type", "enum", "required", "items", "properties", "default", "description")
_MAX_DESCRIPTION = 120
_MAX_REF_DEPTH = 8


def input_schemas(document: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Map each input name to its schema, from `parameters[]` and the JSON request body."""
    components = document.get("components")
    schemas = components.get("schemas") if isinstance(components, Mapping) else None
    lookup: Mapping[str, Any] = schemas if isinstance(schemas, Mapping) else {}
    found: dict[str, dict[str, Any]] = {}
    parameters = document.get("parameters")
    if isinstance(parameters, list):
        for param in parameters:
            if isinstance(param, Mapping) and isinstance(param.get("name"), str):
                schema = dict(_resolve(param.get("schema") or {}, lookup, 0))
                if isinstance(param.get("description"), str):
                    schema.setdefault("description", param["description"])
                found[param["name"]] = schema
    body = document.get("requestBody") or document.get("request_body")
    content = body.get("content") if isinstance(body, Mapping) else None
    media = content.get("application/json") if isinstance(content, Mapping) else None
    body_schema = media.get("schema") if isinstance(media, Mapping) else None
    if isinstance(body_schema, Mapping):
        resolved = _resolve(body_schema, lookup, 0)
        properties = resolved.get("properties")
        if isinstance(properties, Mapping):
            for name, sub in properties.items():
                if isinstance(sub, Mapping):
                    found[str(name)] = dict(sub)
    return found


def _resolve(node: Any, lookup: Mapping[str, Any], depth: int) -> Any:
    """Inline local `#/components/schemas/…` references, without touching the input."""
    if isinstance(node, list):
        return [_resolve(item, lookup, depth) for item in node]
    if not isinstance(node, Mapping):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        target = lookup.get(ref.rsplit("/", 1)[1])
        if depth >= _MAX_REF_DEPTH or not isinstance(target, Mapping):
            return {"type": "object"}
        return _resolve(target, lookup, depth + 1)
    return {key: _resolve(value, lookup, depth) for key, value in node.items()}


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
