"""A cached answer is bounded in bytes, as the LLM's own answers are (issue 30): the limit was
compared with the number of characters, so a CJK answer of up to 3x the limit (4x for other
scripts) passed as a hit."""

from __future__ import annotations

import orjson
import pytest

from resolver.llm.completion import from_cache

LIMIT = 4096


def _cached(content: str) -> bytes:
    return orjson.dumps({"content": content, "usage": None, "finish_reason": "stop"})


@pytest.mark.parametrize(
    ("content", "hit"),
    [
        ("a" * LIMIT, True),
        ("企" * (LIMIT // 3), True),  # 4,095 bytes
        ("企" * (LIMIT // 3 + 1), False),  # 4,098 bytes in 1,366 characters
        ("😀" * (LIMIT // 4 + 1), False),  # 4,100 bytes in 1,025 characters
        ("a" * (LIMIT + 1), False),
    ],
    ids=["ascii-at-limit", "cjk-under", "cjk-over", "emoji-over", "ascii-over"],
)
def test_the_limit_counts_bytes(content: str, hit: bool) -> None:
    completion = from_cache(_cached(content), "k", max_content_bytes=LIMIT)
    assert (completion is not None) is hit
    if completion is not None:
        assert completion.content == content
