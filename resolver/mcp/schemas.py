"""Tool schemas generated from the HTTP API's pydantic models: one source of truth.

A tool's schema is the model's JSON Schema (the one `/openapi.json` shows) with its `$ref`s
inlined — several MCP clients hand the schema to an LLM provider that wants one flat object —
and pydantic's generated titles dropped. Per tool, on top: descriptions written for the LLM that
fills the arguments, the other names the model accepts for a field (`_instance_identity` for
`unique_identity`), and fields a transport may supply left out of `required` (`kn_id`, which
the `X-Kn-ID` header gives). Every such name is checked against the model when the schema is
built, so the schema cannot drift from what the tool accepts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import AliasChoices, BaseModel

from resolver.core.envelope import FIELD as ENVELOPE_FIELD

# Keywords whose value is a schema, a list of schemas, or a map of schemas; everything else
# (enum, const, default, examples, …) is data and is copied untouched.
_SCHEMA = frozenset({"items", "additionalProperties", "not", "contains", "propertyNames"})
_SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_SCHEMA_MAPS = frozenset({"properties", "patternProperties"})
_DEFS = "#/$defs/"


def input_schema(
    model: type[BaseModel],
    *,
    descriptions: Mapping[str, str],
    aliases: Mapping[str, str] | None = None,
    optional: Iterable[str] = (),
) -> dict[str, Any]:
    """The tool's `inputSchema` for arguments validated by `model`.

    `descriptions` describe every property (a property left undescribed is an error);
    `aliases` maps another name the model accepts to the property it stands for;
    `optional` names required properties a transport can supply.
    """
    schema = flat_schema(model)
    schema.pop("description", None)  # the tool's own description says it
    properties: dict[str, Any] = schema["properties"]
    for alias, canonical in (aliases or {}).items():
        _check_alias(model, alias, canonical)
        properties[alias] = dict(properties[canonical])
    for name, text in descriptions.items():
        if name not in properties:
            raise ValueError(f"{model.__name__} has no property {name!r} to describe")
        properties[name] = {**properties[name], "description": text}
    if ENVELOPE_FIELD in properties:
        # The platform's envelope (core/envelope.py) is the host's, not the model's business:
        # last, after every argument the model fills.
        properties[ENVELOPE_FIELD] = properties.pop(ENVELOPE_FIELD)
    undescribed = sorted(n for n, p in properties.items() if "description" not in p)
    if undescribed:
        raise ValueError(f"{model.__name__}: describe {', '.join(undescribed)} for the LLM")
    required = [n for n in schema.get("required", []) if n not in set(optional)]
    for name in optional:
        if name not in properties:
            raise ValueError(f"{model.__name__} has no property {name!r}")
    if required:
        schema["required"] = required
    else:
        schema.pop("required", None)
    return schema


def output_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The tool's `outputSchema`: the 200 body of the HTTP endpoint, inlined."""
    return flat_schema(model)


def flat_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema (aliases as the wire names) with `$ref`s inlined, no titles."""
    document = model.model_json_schema(by_alias=True)
    definitions = document.pop("$defs", {})
    flat: dict[str, Any] = _inline(document, definitions, ())
    return flat


def _inline(node: Any, definitions: Mapping[str, Any], trail: tuple[str, ...]) -> Any:
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(_DEFS):
        name = ref.removeprefix(_DEFS)
        if name in trail:
            raise ValueError(f"{name} refers to itself; a tool schema cannot inline it")
        target = _inline(definitions[name], definitions, (*trail, name))
        siblings = _inline({k: v for k, v in node.items() if k != "$ref"}, definitions, trail)
        return {**target, **siblings}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue  # pydantic's "Kn Id", "Unique Identity": noise to an LLM
        if key in _SCHEMA:
            out[key] = _inline(value, definitions, trail)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [_inline(item, definitions, trail) for item in value]
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _inline(sub, definitions, trail) for name, sub in value.items()}
        else:
            out[key] = value
    return out


def _check_alias(model: type[BaseModel], alias: str, canonical: str) -> None:
    """`alias` must be a name the model itself accepts for the field shown as `canonical`."""
    for name, field in model.model_fields.items():
        choices = field.validation_alias
        names = (
            [c for c in choices.choices if isinstance(c, str)]
            if isinstance(choices, AliasChoices)
            else [name]
        )
        if canonical in names:
            if alias in names:
                return
            break
    raise ValueError(f"{model.__name__} does not accept {alias!r} for {canonical!r}")
