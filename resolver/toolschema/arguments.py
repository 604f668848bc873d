"""Check the arguments an LLM produced for an MCP tool against the tool's own `inputSchema`.

The schema is an upstream's, so its regexes are too: `pattern` and `patternProperties` run on
RE2 (`regexes.py`, linear time), never on Python's backtracking `re`, and a schema whose
patterns RE2 cannot run is refused before any argument is looked at.

The check is split in two (issue 30): `check_schema` reads a document once (the metaschema,
the regexes: seconds for a 300 KB schema) and gives a `CheckedSchema`, which the proxy keeps
as long as the tool detail it came from is cached; `CheckedSchema.violations` checks one
call's arguments within a time budget (`ARGUMENT_CHECK_BUDGET_S`; past it,
`ArgumentCheckTooCostly`). Both run on worker threads (`core/offload.py`), never on the event
loop. `uniqueItems` is linear (a set of canonical forms, where jsonschema compared every pair
of objects), and `multipleOf` is exact for integers beyond a float's range (jsonschema raised
`OverflowError`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
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


# How long one call's arguments may take to check (on a worker thread). Linear keywords keep
# a 1 MiB body far below it; past it the check stops and the call is refused.
ARGUMENT_CHECK_BUDGET_S = 2.0


class ArgumentCheckTooCostly(Exception):
    """The arguments could not be checked within the budget."""

    def __init__(self, budget_s: float) -> None:
        super().__init__(f"the arguments could not be checked within {budget_s:g}s")
        self.budget_s = budget_s


@dataclass(frozen=True, slots=True)
class CheckedSchema:
    """An `inputSchema` that passed its metaschema and regex checks: ready for arguments."""

    validator: Any

    def violations(
        self, arguments: Any, *, budget_s: float | None = None
    ) -> list[ArgumentViolation]:
        """Every violation of the schema by `arguments`; empty when they are valid.
        `ArgumentCheckTooCostly` past `budget_s` (`ARGUMENT_CHECK_BUDGET_S`);
        `SchemaConversionError` for a `$ref` that does not resolve locally (nothing is
        fetched)."""
        if budget_s is None:
            budget_s = ARGUMENT_CHECK_BUDGET_S
        clock = _CLOCK
        clock.deadline = time.monotonic() + budget_s
        clock.budget_s = budget_s
        try:
            errors = list(self.validator.iter_errors(arguments))
        except Unresolvable as exc:
            raise SchemaConversionError(f"unresolvable $ref in inputSchema: {exc}", "#") from exc
        finally:
            clock.deadline = _NO_DEADLINE
        return [
            ArgumentViolation(json_path(error.absolute_path), _short(error.message))
            for error in errors
        ]


def validate_arguments(input_schema: Mapping[str, Any], arguments: Any) -> list[ArgumentViolation]:
    """Every violation of `input_schema` by `arguments`; empty when they are valid
    (`check_schema`, then `CheckedSchema.violations`)."""
    return check_schema(input_schema).violations(arguments)


def check_schema(input_schema: Mapping[str, Any]) -> CheckedSchema:
    """The schema, checked once, ready to check arguments.

    Validates against the original schema (not the converted one), so `$defs` refs,
    `oneOf` exclusivity and root constraints all count. The dialect is the schema's
    `$schema`, Draft 2020-12 when absent (the MCP default); `format` is an annotation
    only. Raises `SchemaConversionError` when the schema itself is invalid or a regex of it
    cannot run in linear time.
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
    # An empty registry: jsonschema's default one fetches remote $refs over HTTP.
    return CheckedSchema(_linear(cls)(schema, registry=Registry()))


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
    """`cls` (a jsonschema validator class) with its regex keywords on RE2, `uniqueItems`
    linear, `multipleOf` exact, and every keyword watching the time budget; made once each."""
    linear = _LINEAR.get(cls)
    if linear is None:
        keywords = {
            **cls.VALIDATORS,
            "pattern": _pattern,
            "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties,
            "uniqueItems": _unique_items,
            "multipleOf": _multiple_of,
        }
        timed = {name: _timed(keyword) for name, keyword in keywords.items()}
        linear = _LINEAR[cls] = extend(cls, timed)  # type: ignore[no-untyped-call]
    return linear


_NO_DEADLINE = float("inf")
# Keyword calls between two looks at the clock.
_TICKS = 256


class _Clock(threading.local):
    """The budget of the check running on this thread."""

    deadline = _NO_DEADLINE
    budget_s = 0.0
    ticks = 0


_CLOCK = _Clock()
Keyword = Callable[[Any, Any, Any, Any], Any]


def _timed(keyword: Keyword) -> Keyword:
    def timed(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        clock = _CLOCK
        clock.ticks += 1
        if clock.ticks >= _TICKS:
            clock.ticks = 0
            if time.monotonic() > clock.deadline:
                raise ArgumentCheckTooCostly(clock.budget_s)
        return keyword(validator, value, instance, schema)

    return timed


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


def _unique_items(
    validator: Any, unique: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    # One pass over a set of canonical forms; jsonschema compared every pair of objects
    # (4,000 objects: 20 s).
    if not (unique and validator.is_type(instance, "array")):
        return
    seen: dict[Any, int] = {}
    for index, item in enumerate(instance):
        key = _canonical(item)
        first = seen.setdefault(key, index)
        if first != index:
            yield ValidationError(f"has non-unique elements (items {first} and {index} are equal)")
            return


_ARRAY, _OBJECT, _BOOLEAN = object(), object(), object()


def _canonical(value: Any) -> Any:
    """A hashable form equal for JSON values that JSON Schema calls equal: numbers by value
    (1 == 1.0, as Python hashes them), booleans apart from numbers, objects without order."""
    if isinstance(value, bool):
        return (_BOOLEAN, value)
    if isinstance(value, list):
        return (_ARRAY, tuple(_canonical(item) for item in value))
    if isinstance(value, dict):
        return (_OBJECT, frozenset((key, _canonical(item)) for key, item in value.items()))
    return value


def _multiple_of(
    validator: Any, divisor: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "number"):
        return
    try:
        if isinstance(divisor, float):
            quotient = instance / divisor
            failed = int(quotient) != quotient
        else:
            failed = bool(instance % divisor)
    except OverflowError:
        # An integer beyond a float's range (or a quotient that is): exact arithmetic.
        failed = (Fraction(instance) / Fraction(divisor)).denominator != 1
    if failed:
        yield ValidationError(f"{_number(instance)} is not a multiple of {divisor}")


def _number(value: Any) -> str:
    """A number for a message: an integer too long to show is named by its size."""
    if isinstance(value, int) and value.bit_length() > 200:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    return repr(value)


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
