"""JSON in and out with integers exact at any size (int64 timestamps, 19+-digit ids)."""

from __future__ import annotations

import json
import math
from typing import Any

import orjson
import pydantic_core


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
    """
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            raise ValueError("numbers must be finite (no NaN, no Infinity, |x| < 1.8e308)")
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def dumps(obj: Any) -> bytes:
    """Serialise with orjson; integers beyond 64 bits fall back to the standard library, exactly."""
    try:
        return orjson.dumps(obj)
    except TypeError:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
