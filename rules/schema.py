"""Operator-schema checks (rule 5.3.2): a value satisfies its input's JSON Schema (SPEC §5).

Checked: `type`, `enum`, `const`; numbers `minimum`, `maximum`, `exclusiveMinimum`,
`exclusiveMaximum`, `multipleOf`; strings `minLength`, `maxLength` (in code points),
`pattern` (searched, on RE2: linear time, whatever the upstream wrote), `format` for `date`,
`date-time` (RFC 3339), `email` and `uri`; arrays `items`, `prefixItems`, `minItems`,
`maxItems`, `uniqueItems`; objects `required`, `properties`, `additionalProperties`,
`minProperties`, `maxProperties`; `allOf`, `anyOf`, `oneOf`, `not`. Each violation names the
path of the value it is about (`filter.regions[2]`), as every rule does.

Not checked, because nothing here can decide them: a `pattern` RE2 cannot compile (lookaround,
backreferences) and formats other than those four are advice for the LLM; `$ref` never reaches
here (the schema converter inlines references).
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import operator
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeGuard

import re2

from rules.types import is_json_type
from rules.violation import Violation, shown

_MAX_DEPTH = 16
_MAX_PATTERN = 4096  # characters; a longer pattern is left unchecked rather than compiled

_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})", re.ASCII)
_DATE_TIME = re.compile(
    r"(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})", re.ASCII
)
# An address with one `@`, no spaces or angle brackets, and a dotted or bracketed domain.
# Dots separate the domain's labels, so the match is linear (no label can also hold a dot).
_EMAIL = re.compile(r"[^@\s<>()]+@(?:[^@\s<>().]+(?:\.[^@\s<>().]+)+|\[[^\]\s]+\])")
# RFC 3986 `absolute-URI`/`URI`: a scheme, a colon, then no whitespace, quotes or brackets.
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s\"<>\\^`{|}]*")


def check_schema(value: object, schema: Mapping[str, Any], path: str) -> Iterator[Violation]:
    """Yield every way `value` breaks `schema`, naming the JSON path of each."""
    yield from _check(value, schema, path, 0)


def _check(value: object, schema: Mapping[str, Any], path: str, depth: int) -> Iterator[Violation]:
    if depth > _MAX_DEPTH:
        return
    declared = schema.get("type")
    types = [declared] if isinstance(declared, str) else declared
    if isinstance(types, list) and types and not any(is_json_type(value, str(t)) for t in types):
        wanted = "/".join(str(t) for t in types)
        message = f"{path} must be of schema type {wanted}, got {shown(value)}"
        yield Violation("5.3.2", message, path)
        return
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and not any(_same(value, option) for option in enum):
        options = ", ".join(shown(option) for option in enum[:10])
        yield Violation("5.3.2", f"{path} must be one of [{options}], got {shown(value)}", path)
    if "const" in schema and not _same(value, schema["const"]):
        wanted = shown(schema["const"])
        yield Violation("5.3.2", f"{path} must be {wanted}, got {shown(value)}", path)
    if isinstance(value, bool):
        pass  # a boolean is neither a number nor a string here
    elif isinstance(value, int | float):
        yield from _check_number(value, schema, path)
    elif isinstance(value, str):
        yield from _check_string(value, schema, path)
    elif isinstance(value, dict):
        yield from _check_object(value, schema, path, depth)
    elif isinstance(value, list):
        yield from _check_array(value, schema, path, depth)
    yield from _check_combined(value, schema, path, depth)


def _check_number(value: float, schema: Mapping[str, Any], path: str) -> Iterator[Violation]:
    for keyword, holds, words in _BOUNDS:
        limit = schema.get(keyword)
        if _is_number(limit) and not holds(value, limit):
            yield Violation("5.3.2", f"{path} must be {words} {limit}, got {shown(value)}", path)
    step = schema.get("multipleOf")
    if _is_number(step) and step > 0 and not _multiple(value, step):
        yield Violation("5.3.2", f"{path} must be a multiple of {step}, got {shown(value)}", path)


_BOUNDS: tuple[tuple[str, Callable[[float, float], bool], str], ...] = (
    ("minimum", operator.ge, "at least"),
    ("maximum", operator.le, "at most"),
    ("exclusiveMinimum", operator.gt, "more than"),
    ("exclusiveMaximum", operator.lt, "less than"),
)


def _check_string(value: str, schema: Mapping[str, Any], path: str) -> Iterator[Violation]:
    shortest, longest = schema.get("minLength"), schema.get("maxLength")
    if _is_count(shortest) and len(value) < shortest:
        message = f"{path} must be at least {shortest} characters long, got {len(value)}"
        yield Violation("5.3.2", message, path)
    if _is_count(longest) and len(value) > longest:
        message = f"{path} must be at most {longest} characters long, got {len(value)}"
        yield Violation("5.3.2", message, path)
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        compiled = _pattern(pattern)
        if compiled is not None and compiled.search(value) is None:
            message = f"{path} must match the pattern {shown(pattern)}, got {shown(value)}"
            yield Violation("5.3.2", message, path)
    form = schema.get("format")
    if isinstance(form, str) and form in _FORMATS and not _FORMATS[form](value):
        yield Violation("5.3.2", f"{path} must be a {form} (format), got {shown(value)}", path)


def _check_array(
    value: list[Any], schema: Mapping[str, Any], path: str, depth: int
) -> Iterator[Violation]:
    fewest, most = schema.get("minItems"), schema.get("maxItems")
    if _is_count(fewest) and len(value) < fewest:
        yield Violation(
            "5.3.2", f"{path} must hold at least {fewest} items, got {len(value)}", path
        )
    if _is_count(most) and len(value) > most:
        yield Violation("5.3.2", f"{path} must hold at most {most} items, got {len(value)}", path)
    if schema.get("uniqueItems") is True:
        for index, item in enumerate(value):
            if any(_same(item, earlier) for earlier in value[:index]):
                message = f"{path} must hold unique items; item {index} repeats {shown(item)}"
                yield Violation("5.3.2", message, f"{path}[{index}]")
                break
    prefix = schema.get("prefixItems")
    fixed = len(prefix) if isinstance(prefix, list) else 0
    if isinstance(prefix, list):
        for index, (item, sub) in enumerate(zip(value, prefix, strict=False)):
            if isinstance(sub, Mapping):
                yield from _check(item, sub, f"{path}[{index}]", depth + 1)
    items = schema.get("items")
    if isinstance(items, Mapping):
        for index in range(fixed, len(value)):
            yield from _check(value[index], items, f"{path}[{index}]", depth + 1)


def _check_object(
    value: Mapping[str, Any], schema: Mapping[str, Any], path: str, depth: int
) -> Iterator[Violation]:
    required = schema.get("required")
    if isinstance(required, list):
        for key in required:
            if isinstance(key, str) and key not in value:
                yield Violation("5.3.2", f"{path} lacks required key {key!r}", path)
    fewest, most = schema.get("minProperties"), schema.get("maxProperties")
    if _is_count(fewest) and len(value) < fewest:
        yield Violation("5.3.2", f"{path} must hold at least {fewest} keys, got {len(value)}", path)
    if _is_count(most) and len(value) > most:
        yield Violation("5.3.2", f"{path} must hold at most {most} keys, got {len(value)}", path)
    properties = schema.get("properties")
    known = properties if isinstance(properties, Mapping) else {}
    for key, sub in known.items():
        if key in value and isinstance(sub, Mapping):
            yield from _check(value[key], sub, f"{path}.{key}", depth + 1)
    extra = schema.get("additionalProperties")
    if extra is None or extra is True or "patternProperties" in schema:
        return  # keys matched by patterns: left to the LLM's advice, like other patterns
    for key in value:
        if key in known:
            continue
        if extra is False:
            yield Violation("5.3.2", f"{path} must not hold the key {key!r}", f"{path}.{key}")
        elif isinstance(extra, Mapping):
            yield from _check(value[key], extra, f"{path}.{key}", depth + 1)


def _check_combined(
    value: object, schema: Mapping[str, Any], path: str, depth: int
) -> Iterator[Violation]:
    every = schema.get("allOf")
    if isinstance(every, list):
        for sub in every:
            if isinstance(sub, Mapping):
                yield from _check(value, sub, path, depth + 1)
    some = schema.get("anyOf")
    if isinstance(some, list) and some and not any(_fits(value, s, path, depth) for s in some):
        yield Violation("5.3.2", f"{path} matches none of the anyOf schemas", path)
    one = schema.get("oneOf")
    if isinstance(one, list) and one:
        fitting = sum(_fits(value, sub, path, depth) for sub in one)
        if fitting != 1:
            message = f"{path} must match exactly one of the oneOf schemas, matches {fitting}"
            yield Violation("5.3.2", message, path)
    negated = schema.get("not")
    if isinstance(negated, Mapping) and negated and _fits(value, negated, path, depth):
        yield Violation("5.3.2", f"{path} must not match the schema under 'not'", path)


def _fits(value: object, schema: object, path: str, depth: int) -> bool:
    if not isinstance(schema, Mapping):
        return True
    return next(iter(_check(value, schema, path, depth + 1)), None) is None


def _same(a: object, b: object) -> bool:
    """JSON equality: 1 == 1.0, but a boolean never equals a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


def _is_number(value: object) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _multiple(value: float, step: float) -> bool:
    quotient = value / step
    return math.isfinite(quotient) and abs(quotient - round(quotient)) <= 1e-9 * max(
        1.0, abs(quotient)
    )


@functools.lru_cache(maxsize=256)
def _pattern(pattern: str) -> Any:
    """The pattern on RE2, or None when RE2 cannot compile it (or it is too long)."""
    if len(pattern) > _MAX_PATTERN:
        return None
    try:
        return re2.compile(pattern)
    except re2.error:
        return None


def _is_date(text: str) -> bool:
    match = _DATE.fullmatch(text)
    if match is None:
        return False
    try:
        dt.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return False
    return True


def _is_date_time(text: str) -> bool:
    match = _DATE_TIME.fullmatch(text)
    if match is None or not _is_date(match[1]):
        return False
    hour, minute, second = int(match[2]), int(match[3]), int(match[4])
    offset = match[6]
    if offset not in ("Z", "z") and (int(offset[1:3]) > 23 or int(offset[4:6]) > 59):
        return False
    return hour <= 23 and minute <= 59 and second <= 60  # 60: a leap second


def _is_email(text: str) -> bool:
    return _EMAIL.fullmatch(text) is not None


def _is_uri(text: str) -> bool:
    return _URI.fullmatch(text) is not None


_FORMATS: dict[str, Callable[[str], bool]] = {
    "date": _is_date,
    "date-time": _is_date_time,
    "email": _is_email,
    "uri": _is_uri,
}
