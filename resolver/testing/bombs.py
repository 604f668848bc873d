"""Hostile payloads for the fault tests and the chaos benchmark: compression bombs built in
milliseconds, JSON documents of a chosen size, schemas whose `$ref`s multiply, a regex that
backtracks exponentially, and answers that TOON writes slowly.

A gzip bomb here is a gzip header and deflate blocks of zeros, each ended by a full flush,
so one compressed block (about 1 KB for 1 MiB of zeros) can be repeated as often as wanted
instead of compressing gigabytes. The stream never ends properly: a reader that honours its
size limit stops long before it would notice.
"""

from __future__ import annotations

import zlib
from typing import Any

_ZEROS = b"\0" * (1 << 20)


def gzip_bomb(compressed_bytes: int) -> bytes:
    """About `compressed_bytes` of gzip that inflate to roughly 1,000 times as much."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    first = packer.compress(_ZEROS) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(_ZEROS) + packer.flush(zlib.Z_FULL_FLUSH)
    return first + block * max(0, compressed_bytes // len(block))


def json_of_size(size: int) -> bytes:
    """A JSON object of exactly `size` bytes (≥ 32): one long string value."""
    head, tail = b'{"content":[{"type":"text","text":"', b'"}],"isError":false}'
    return head + b"a" * max(0, size - len(head) - len(tail)) + tail


def schema_bomb(definitions: int = 16, fan_out: int = 16) -> dict[str, Any]:
    """A JSON Schema of a few KB whose `$defs` each refer to `fan_out` siblings: inlining
    three hops deep writes `fan_out**4` schemas (16: 65,536, tens of MB)."""
    defs = {
        f"d{i}": {
            "type": "object",
            "description": "a definition that refers to its siblings",
            "properties": {
                f"p{j}": {"$ref": f"#/$defs/d{(i + j + 1) % definitions}"} for j in range(fan_out)
            },
        }
        for i in range(definitions)
    }
    return {
        "type": "object",
        "$defs": defs,
        "properties": {f"a{j}": {"$ref": f"#/$defs/d{j % definitions}"} for j in range(fan_out)},
    }


REDOS_PATTERN = "^(a+)+$"
"""Backtracks exponentially in a backtracking engine on `redos_subject()`: 26 a's took 2 s."""


def redos_subject(length: int = 30) -> str:
    """A string that `REDOS_PATTERN` almost matches: `length` a's and one b."""
    return "a" * length + "b"


def toon_bomb(rows: int = 20_000) -> dict[str, Any]:
    """An answer TOON encodes slowly and not smaller: rows of short, irregular objects."""
    return {
        "datas": [
            {f"k{i % 7}": [i, {"v": str(i)}], "x": None if i % 2 else [1, [2, [3]]]}
            for i in range(rows)
        ]
    }
