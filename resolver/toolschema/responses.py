"""A tool's output schema: the JSON Schema of its successful answer, read from its OpenAPI
`responses` — the upstream list form (`[{"status_code", "content"}]`) or the OpenAPI map form
(`{"200": {"content"}}`). `200` first, else the lowest other explicit 2xx, else `2XX`; only
`application/json` content counts; `$ref`s are inlined like a tool's parameters (read-only
properties kept: they are what an answer carries). None when there is no such schema, or one
that says nothing (`{}`, an object without properties)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from resolver.core.errors import SchemaConversionError
from resolver.toolschema.refs import document_lookup, escape_token
from resolver.toolschema.schema import resolve_schema

_SHAPE_KEYWORDS = frozenset(
    {"properties", "additionalProperties", "patternProperties", "anyOf", "oneOf", "allOf"}
)


def output_schema(api_spec: Mapping[str, Any] | None, *, tool: str) -> dict[str, Any] | None:
    """The schema of the tool's 2xx JSON answer, self-contained; None when there is none.

    Raises `SchemaConversionError` naming the JSON pointer of a malformed schema.
    """
    if not api_spec:
        return None
    picked = _success_response(api_spec.get("responses"))
    if picked is None:
        return None
    status, response, pointer = picked
    lookup = document_lookup(api_spec)
    if isinstance(response, Mapping) and isinstance(response.get("$ref"), str):
        pointer = response["$ref"]
        try:
            response = lookup(pointer)
        except LookupError as exc:
            raise SchemaConversionError(f"unresolvable $ref {pointer!r}: {exc}", pointer) from exc
    content = response.get("content") if isinstance(response, Mapping) else None
    if not isinstance(content, Mapping):
        return None
    media = next(
        (
            (name, value)
            for name, value in content.items()
            if str(name).split(";")[0].strip().lower() == "application/json"
        ),
        None,
    )
    if media is None or not isinstance(media[1], Mapping) or "schema" not in media[1]:
        return None
    at = f"{pointer}/content/{escape_token(str(media[0]))}/schema"
    schema = resolve_schema(media[1]["schema"], lookup, pointer=at, keep_read_only=True)
    if _says_nothing(schema):
        return None
    if not isinstance(schema.get("description"), str) or not schema["description"].strip():
        schema["description"] = f"What {tool} answers: the body of its HTTP {status} response."
    return schema


def _success_response(responses: Any) -> tuple[str, Any, str] | None:
    """(status, response object, its JSON pointer) of the 2xx answer to describe."""
    found: dict[str, tuple[Any, str]] = {}
    if isinstance(responses, list):
        for index, item in enumerate(responses):
            if isinstance(item, Mapping):
                found.setdefault(
                    str(item.get("status_code", "")).strip(), (item, f"#/responses/{index}")
                )
    elif isinstance(responses, Mapping):
        for key, item in responses.items():
            found.setdefault(str(key).strip(), (item, f"#/responses/{escape_token(str(key))}"))
    explicit = sorted(
        s for s in found if len(s) == 3 and s.isascii() and s.isdigit() and s[0] == "2"
    )
    ordered = (["200"] if "200" in found else []) + [s for s in explicit if s != "200"]
    ordered += [s for s in found if s.upper() == "2XX"]
    if not ordered:
        return None
    status = ordered[0]
    return status, *found[status]


def _says_nothing(schema: Mapping[str, Any]) -> bool:
    meaningful = set(schema) - {"description", "title"}
    if not meaningful:
        return True
    kind = schema.get("type")
    return kind == "object" and not meaningful & _SHAPE_KEYWORDS
