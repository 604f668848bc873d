"""Check the arguments an LLM produced for an MCP tool against the tool's own `inputSchema`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.validators import validator_for
from referencing import Registry
from referencing.exceptions import Unresolvable

from resolver.core.errors import SchemaConversionError
from resolver.toolschema.refs import escape_token

_MAX_MESSAGE = 300


@dataclass(frozen=True, slots=True)
class ArgumentViolation:
    """One way the arguments break the schema, at a JSON path such as `$.filter.regions[1]`."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def validate_arguments(input_schema: Mapping[str, Any], arguments: Any) -> list[ArgumentViolation]:
    """Every violation of `input_schema` by `arguments`; empty when they are valid.

    Validates against the original schema (not the converted one), so `$defs` refs,
    `oneOf` exclusivity and root constraints all count. The dialect is the schema's
    `$schema`, Draft 2020-12 when absent (the MCP default); `format` is an annotation
    only. Raises `SchemaConversionError` when the schema itself is invalid or has a
    `$ref` that does not resolve locally (nothing is fetched).
    """
    schema = dict(input_schema)
    # validator_for indexes a dict with `$schema`: only a string is safe to look up (an
    # unknown URI falls back to the default; anything else fails the metaschema below).
    dialect = schema.get("$schema")
    cls = (
        validator_for(schema, default=Draft202012Validator)
        if isinstance(dialect, str)
        else Draft202012Validator
    )
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        pointer = "#" + "".join(f"/{escape_token(str(part))}" for part in exc.absolute_path)
        raise SchemaConversionError(f"invalid inputSchema: {exc.message}", pointer) from exc
    try:
        # An empty registry: jsonschema's default one fetches remote $refs over HTTP.
        errors = list(cls(schema, registry=Registry()).iter_errors(arguments))
    except Unresolvable as exc:
        raise SchemaConversionError(f"unresolvable $ref in inputSchema: {exc}", "#") from exc
    return [
        ArgumentViolation(json_path(error.absolute_path), _short(error.message)) for error in errors
    ]


def json_path(parts: Iterable[str | int]) -> str:
    """A JSONPath for a location: `$`, `$.a.b`, `$.a[2]`, `$['x-y']`."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}"
        else:
            escaped = part.replace("\\", "\\\\").replace("'", "\\'")
            out += f"['{escaped}']"
    return out


def _short(message: str) -> str:
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 1] + "…"
