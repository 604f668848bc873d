"""TOON (Token-Oriented Object Notation) for callers that ask for it: the JSON data model in a
compact text an LLM reads with fewer tokens, written by `toon-format` (the reference Python
encoder, spec 3.x). Integers of any size are written exactly, as digits.

The encoder is pure Python and not fast (a 3.4 MB answer took 4 s), and TOON is smaller only
for tabular data (irregular answers come out larger than their JSON). So TOON is written only
for an answer of at most `MAX_TOON_SOURCE_BYTES` of JSON (`RESOLVER_TOON_MAX_BYTES`), by the
caller off the event loop, and kept only when it is smaller; otherwise the JSON goes out and
says why (`Declined`, the HTTP header `X-Toon-Declined`).
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

import toon_format

from resolver.core.errors import BadRequest
from resolver.core.jsonio import loads

MEDIA_TYPE: Final = "application/toon"
DECLINED_HEADER: Final = "X-Toon-Declined"
MAX_TOON_SOURCE_BYTES = 256 << 10

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


class Encoded(NamedTuple):
    """A body in the format it goes out in: TOON, or its JSON with the reason TOON was not
    used (`too-large`, `not-smaller`)."""

    text: str
    toon: bool
    declined: str | None


def encode(json_body: bytes, max_source_bytes: int = MAX_TOON_SOURCE_BYTES) -> Encoded:
    """TOON for a JSON document when it is within `max_source_bytes` and the TOON is smaller;
    else the JSON itself, saying why. Pure CPU work: run it off the event loop."""
    if len(json_body) > max_source_bytes:
        return Encoded(json_body.decode(), toon=False, declined="too-large")
    text = toon_format.dumps(loads(json_body))
    if len(text.encode()) >= len(json_body):
        return Encoded(json_body.decode(), toon=False, declined="not-smaller")
    return Encoded(text, toon=True, declined=None)


def to_toon(json_body: bytes) -> str:
    """A JSON document as TOON text, or as its JSON when TOON would be too slow to write or
    not smaller (`encode`): the text of an MCP result, which has no header to say which."""
    return encode(json_body).text
