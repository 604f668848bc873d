"""JSON in and out with integers exact at any size (int64 timestamps, 19+-digit ids)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import orjson
import pydantic_core
import simdjson


def loads(raw: bytes | bytearray | str) -> Any:
    """Parse JSON; unlike orjson, integers beyond 64 bits stay integers. ValueError if invalid."""
    return pydantic_core.from_json(raw, allow_inf_nan=False)


def loads_finite(raw: bytes | str) -> Any:
    """`loads` for values from callers and the LLM: also ValueError for a number beyond ±1.8e308."""
    value = loads(raw)
    check_finite(value)
    return value


def check_finite(obj: Any) -> None:
    """ValueError if a number in `obj` is NaN or infinite.

    jiter reads `1e999` as infinity even with allow_inf_nan=False (and pydantic's
    model_validate_json reads NaN and Infinity into `Any` fields); orjson then writes null,
    so a caller's value would come back silently changed.

    orjson writes every such number as null: a value it writes without a null has none, found
    in C (a list of one identity object: 7 k → 4 k instructions). Anything else — a null, a
    type orjson does not write, an integer beyond 64 bits — is walked in Python.
    """
    try:
        if b"null" not in orjson.dumps(obj):
            return
    except TypeError:
        pass
    if not all_finite(obj):
        raise ValueError("numbers must be finite (no NaN, no Infinity, |x| < 1.8e308)")


def all_finite(obj: Any) -> bool:
    """Whether every number in `obj` is finite, walked in Python (`check_finite`'s walk, for a
    caller that already has orjson's writing of `obj` and found a null in it)."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return False
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def dumps(obj: Any) -> bytes:
    """Serialise with orjson; integers beyond 64 bits fall back to the standard library, exactly."""
    try:
        return orjson.dumps(obj)
    except TypeError:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


@dataclass(frozen=True, slots=True)
class TopLevel:
    """What a JSON document is at its top, learnt without building it in Python."""

    is_object: bool
    empty: bool
    has_trace_id: bool


def top_level(raw: bytes | bytearray) -> TopLevel:
    """Whether `raw` is a JSON object, an empty one, one with a `trace_id` key; ValueError if
    it is not JSON.

    simdjson validates the whole document in C and builds no Python objects, so a few MB hold
    the interpreter for milliseconds, not the third of a second a full parse takes (issue 30).
    What simdjson refuses but `loads` reads (integers beyond 64 bits, 1e999) is decided by
    `loads`, so the two agree on what is JSON."""
    try:
        parsed = simdjson.Parser().parse(bytes(raw))
    except (ValueError, RuntimeError):
        value = loads(raw)
        is_object = isinstance(value, dict)
        return TopLevel(is_object, is_object and not value, is_object and "trace_id" in value)
    if isinstance(parsed, simdjson.Object):
        return TopLevel(True, len(parsed) == 0, "trace_id" in parsed)
    return TopLevel(False, False, False)
