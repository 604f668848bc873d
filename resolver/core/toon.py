"""TOON (Token-Oriented Object Notation) for callers that ask for it: the JSON data model in a
compact text an LLM reads with fewer tokens, written by `toon-format` (the reference Python
encoder, spec 3.x). Integers of any size are written exactly, as digits."""

from __future__ import annotations

from typing import Final, Literal

import toon_format

from resolver.core.errors import BadRequest
from resolver.core.jsonio import loads

MEDIA_TYPE: Final = "application/toon"

ResponseFormat = Literal["json", "toon"]
FORMATS: tuple[ResponseFormat, ...] = ("json", "toon")


def parse_format(value: str | None) -> ResponseFormat:
    """A `response_format` value read case-insensitively (absent or empty: json); anything but
    json or toon is a 400 naming the allowed ones."""
    wanted = (value or "").strip().lower() or "json"
    for known in FORMATS:
        if wanted == known:
            return known
    raise BadRequest(
        f"response_format {wanted[:32]!r} is not supported (allowed: json, toon)",
        details={"supported": list(FORMATS)},
    )


def to_toon(json_body: bytes) -> str:
    """A JSON document re-encoded as TOON (the same values, integers exact)."""
    return toon_format.dumps(loads(json_body))
