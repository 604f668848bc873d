"""MCP tool (`inputSchema`, JSON Schema) → one flat object schema for OpenAI function calling."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from resolver.core.errors import SchemaConversionError
from resolver.toolschema.keywords import type_names
from resolver.toolschema.refs import document_lookup
from resolver.toolschema.schema import resolve_schema
from resolver.toolschema.shapes import flatten_variants, function_parameters


def mcp_parameters(input_schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """`inputSchema` with `$defs`/`definitions` refs inlined, as an object schema.

    The root type defaults to `object`; a root `$ref` to the document itself counts as a
    cycle; root `anyOf`/`oneOf` object variants are folded into one object (see
    `schema.flatten_variants`); `$defs` and other root-only constraints are dropped.
    A root that is not an object schema raises `SchemaConversionError`: MCP arguments
    are always a JSON object.
    """
    schema: Any = input_schema if input_schema is not None else {}
    if not isinstance(schema, Mapping):
        raise SchemaConversionError("inputSchema must be an object", "#")
    resolved = resolve_schema(schema, document_lookup(schema), visiting=frozenset({"#"}))
    flat = flatten_variants(resolved)
    if "type" in flat and "object" not in type_names(flat["type"]):
        raise SchemaConversionError(
            f"inputSchema must describe an object, not {flat['type']!r}", "#/type"
        )
    return function_parameters(flat)
