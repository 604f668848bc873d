"""Hostile payloads for the fault tests and the chaos benchmark: compression bombs built in
milliseconds, and JSON documents of a chosen size.

A gzip bomb here is a gzip header and deflate blocks of zeros, each ended by a full flush,
so one compressed block (about 1 KB for 1 MiB of zeros) can be repeated as often as wanted
instead of compressing gigabytes. The stream never ends properly: a reader that honours its
size limit stops long before it would notice.
"""

from __future__ import annotations

import zlib

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
