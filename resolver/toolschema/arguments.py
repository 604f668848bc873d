"""Check the arguments an LLM produced for an MCP tool against the tool's own `inputSchema`.

The schema is an upstream's, so its regexes are too: `pattern` and `patternProperties` run on
RE2 (`regexes.py`, linear time), never on Python's backtracking `re`, and a schema whose
patterns RE2 cannot run is refused before any argument is looked at.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, ValidationError
from jsonschema.validators import extend, validator_for
from referencing import Registry
from referencing.exceptions import Unresolvable

from resolver.core.errors import SchemaConversionError
from resolver.toolschema import regexes
from resolver.toolschema.refs import escape_token

_MAX_MESSAGE = 300
# Keywords whose values are data, not schemas: a `pattern` key inside them is no regex.
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples", "example"})


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
    check_patterns(schema)
    linear = _linear(cls)
    try:
        # An empty registry: jsonschema's default one fetches remote $refs over HTTP.
        errors = list(linear(schema, registry=Registry()).iter_errors(arguments))
    except Unresolvable as exc:
        raise SchemaConversionError(f"unresolvable $ref in inputSchema: {exc}", "#") from exc
    return [
        ArgumentViolation(json_path(error.absolute_path), _short(error.message)) for error in errors
    ]


def check_patterns(schema: Any, pointer: str = "#") -> None:
    """Every regex of `schema` compiles in RE2, else `SchemaConversionError` at its pointer.

    `unevaluatedProperties` beside `patternProperties` is refused too: jsonschema evaluates it
    with Python's `re`, which a hostile pattern turns into seconds of backtracking.
    """
    has_pattern_properties, has_unevaluated = _walk_patterns(schema, pointer)
    if has_pattern_properties and has_unevaluated:
        raise SchemaConversionError(
            "unsupported inputSchema: unevaluatedProperties together with patternProperties "
            "cannot be checked in linear time",
            pointer,
        )


def _walk_patterns(node: Any, pointer: str) -> tuple[bool, bool]:
    """Compile each regex below `node`; (any patternProperties, any unevaluatedProperties)."""
    found_pattern_properties = found_unevaluated = False
    stack: list[tuple[Any, str]] = [(node, pointer)]
    while stack:
        current, at = stack.pop()
        if isinstance(current, list):
            stack.extend((item, f"{at}/{index}") for index, item in enumerate(current))
            continue
        if not isinstance(current, Mapping):
            continue
        for key, value in current.items():
            here = f"{at}/{escape_token(str(key))}"
            if key == "pattern" and isinstance(value, str):
                _compile(value, here)
            elif key == "patternProperties" and isinstance(value, Mapping):
                found_pattern_properties = True
                for name in value:
                    _compile(str(name), f"{here}/{escape_token(str(name))}")
            if key == "unevaluatedProperties":
                found_unevaluated = True
            if key not in _DATA_KEYWORDS:
                stack.append((value, here))
    return found_pattern_properties, found_unevaluated


def _compile(pattern: str, pointer: str) -> None:
    try:
        regexes.compiled(pattern)
    except regexes.UncheckablePattern as exc:
        raise SchemaConversionError(
            f"the inputSchema's regex {pattern[:80]!r} cannot be checked in linear time ({exc})",
            pointer,
        ) from exc


_LINEAR: dict[Any, Any] = {}


def _linear(cls: Any) -> Any:
    """`cls` (a jsonschema validator class) with its regex keywords on RE2; made once each."""
    linear = _LINEAR.get(cls)
    if linear is None:
        linear = _LINEAR[cls] = extend(  # type: ignore[no-untyped-call]
            cls,
            {
                "pattern": _pattern,
                "patternProperties": _pattern_properties,
                "additionalProperties": _additional_properties,
            },
        )
    return linear


# jsonschema's own keyword functions with RE2 in place of `re.search` (same messages).


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not regexes.search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if regexes.search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = [
        key
        for key in instance
        if key not in properties and not any(regexes.search(p, key) for p in patterns)
    ]
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        if patterns:
            verb = "does" if len(extras) == 1 else "do"
            joined = ", ".join(repr(each) for each in sorted(extras))
            listed = ", ".join(repr(each) for each in sorted(patterns))
            yield ValidationError(f"{joined} {verb} not match any of the regexes: {listed}")
        else:
            shown = ", ".join(repr(each) for each in sorted(extras, key=str))
            verb = "was" if len(extras) == 1 else "were"
            yield ValidationError(
                f"Additional properties are not allowed ({shown} {verb} unexpected)"
            )


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
