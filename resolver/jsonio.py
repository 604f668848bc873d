"""JSON in and out with integers exact at any size (int64 timestamps, 19+-digit ids)."""

from __future__ import annotations

import json
from typing import Any

import orjson
import pydantic_core


def loads(raw: bytes | str) -> Any:
    """Parse JSON; unlike orjson, integers beyond 64 bits stay integers. ValueError if invalid."""
    return pydantic_core.from_json(raw, allow_inf_nan=False)


def dumps(obj: Any) -> bytes:
    """Serialise with orjson; integers beyond 64 bits fall back to the standard library, exactly."""
    try:
        return orjson.dumps(obj)
    except TypeError:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
