"""Resolved schemas combined and shaped: two schemas as one (`allOf`), root variants folded
into one object, the root OpenAI function calling accepts. Pure functions over what
`schema.py` resolved."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from resolver.toolschema.keywords import type_names

# A resolved schema, or a boolean schema.
Schema = dict[str, Any] | bool

# Internal marker: a resolved schema keeps `readOnly: true` only until the enclosing
# `properties` sees it and drops that property (OpenAPI: read-only values are not sent).
READ_ONLY = "readOnly"


def merge(first: Schema, second: Schema) -> Schema:
    """Both schemas at once (an `allOf` of two): `first` wins where they disagree."""
    if first is False or second is False:
        return False
    if first is True:
        return second
    if second is True:
        return first
    out = dict(first)
    for key, value in second.items():
        if key not in out:
            out[key] = value
        elif key == "properties":
            out[key] = _merge_properties(out[key], value)
        elif key == "required":
            out[key] = list(dict.fromkeys([*out[key], *value]))
        elif key == "type":
            out[key] = _intersect_types(out[key], value)
        elif key == READ_ONLY:
            out[key] = True
    return out


def flatten_variants(schema: Mapping[str, Any]) -> dict[str, Any]:
    """Fold root `anyOf`/`oneOf` object variants into one object schema.

    Properties are united (the first definition of a name wins); a name becomes required
    only when every variant requires it. Exclusivity is lost here on purpose: function
    parameters cannot express it, and the proxy still validates against the original.
    """
    out = dict(schema)
    properties = dict(out.get("properties") or {})
    required = list(out.get("required") or [])
    folded = False
    for key in ("anyOf", "oneOf"):
        variants = [v for v in out.get(key) or [] if isinstance(v, dict) and is_object(v)]
        if not variants:
            continue
        del out[key]
        folded = True
        for variant in variants:
            for name, sub in (variant.get("properties") or {}).items():
                properties.setdefault(name, sub)
        common = set.intersection(*(set(v.get("required") or []) for v in variants))
        order = variants[0].get("required") or []
        required.extend(name for name in order if name in common and name not in required)
    if folded:
        out.setdefault("type", "object")
        out["properties"] = properties
        if required:
            out["required"] = required
    return out


def is_object(schema: Mapping[str, Any]) -> bool:
    """Whether a resolved schema describes a JSON object (typed so, or untyped with properties)."""
    kind = schema.get("type")
    if kind is None:
        return "properties" in schema
    return "object" in type_names(kind)


def function_parameters(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The root OpenAI function calling accepts: an object with `properties`, nothing exotic.

    Keeps `required` (when non-empty) and `additionalProperties`; other root constraints
    are left to argument validation against the original schema.
    """
    properties = schema.get("properties")
    out: dict[str, Any] = {
        "type": "object",
        "properties": dict(properties) if isinstance(properties, dict) else {},
    }
    required = schema.get("required")
    if isinstance(required, list) and required:
        out["required"] = list(required)
    if "additionalProperties" in schema:
        out["additionalProperties"] = schema["additionalProperties"]
    return out


def _merge_properties(first: Any, second: Any) -> dict[str, Schema]:
    out = dict(first)
    for name, sub in second.items():
        out[name] = merge(out[name], sub) if name in out else sub
    return out


def _intersect_types(first: Any, second: Any) -> Any:
    left, right = type_names(first), type_names(second)
    common: list[str] = []
    for name in left:
        if name in right:
            common.append(name)
        elif (name == "number" and "integer" in right) or (name == "integer" and "number" in right):
            common.append("integer")  # integer is a subset of number
    common = list(dict.fromkeys(common))
    if not common:
        return first  # contradictory allOf: keep the first member's type, do not invent one
    return common[0] if len(common) == 1 else common
