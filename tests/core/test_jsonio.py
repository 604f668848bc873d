"""`jsonio.top_level`: what a JSON document is at its top, learnt without building it — and
always the same verdict as a full parse (`jsonio.loads`), on valid and broken documents."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.core.jsonio import check_finite, dumps, loads, top_level
from tests.helpers import json_values


def _full(raw: bytes) -> tuple[bool, bool, bool] | None:
    try:
        value = loads(raw)
    except ValueError:
        return None
    is_object = isinstance(value, dict)
    return is_object, is_object and not value, is_object and "trace_id" in value


def _scanned(raw: bytes) -> tuple[bool, bool, bool] | None:
    try:
        top = top_level(raw)
    except ValueError:
        return None
    return top.is_object, top.empty, top.has_trace_id


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b'{"a": 1, "trace_id": "t"}', (True, False, True)),
        (b'{"a": {"trace_id": "nested"}}', (True, False, False)),
        (b"{}", (True, True, False)),
        (b"  [1, 2]  ", (False, False, False)),
        (b'"text"', (False, False, False)),
        (b'{"big": 123456789012345678901234567890}', (True, False, False)),  # beyond 64 bits
        (b'{"a": 1', None),
        (b'{"a": NaN}', None),
        (b"\xff\xfe{}", None),
        (b"", None),
    ],
)
def test_the_top_of_a_document(raw: bytes, expected: tuple[bool, bool, bool] | None) -> None:
    assert _scanned(raw) == expected == _full(raw)


@settings(max_examples=300, deadline=None)
@given(json_values(), st.integers(min_value=0, max_value=64), st.binary(max_size=3))
def test_the_same_verdict_as_a_full_parse(value: Any, cut: int, noise: bytes) -> None:
    raw = dumps({"payload": value, "trace_id": "x"} if isinstance(value, list) else value)
    assert _scanned(raw) == _full(raw)
    broken = raw[: max(0, len(raw) - cut)] + noise  # truncated, or with stray bytes
    assert _scanned(broken) == _full(broken)


def test_a_large_answer_is_read_at_its_top() -> None:
    items = [{"id": i, "name": f"item {i}", "tags": ["a", "b"]} for i in range(50_000)]
    raw = dumps({"items": items})
    assert len(raw) > 2_000_000
    assert _scanned(raw) == (True, False, False)
    assert _scanned(raw + b"x") is None


class _Float(float):
    """A float subclass (numpy's float64 is one): orjson does not write it."""


def _has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_non_finite(v) for v in value)
    return False


def _refused(value: Any) -> bool:
    try:
        check_finite(value)
    except ValueError:
        return True
    return False


_ODD = st.sampled_from(
    [math.nan, math.inf, -math.inf, _Float("nan"), _Float(1.5), None, "null", 2**70, {1: 2}]
)


@settings(max_examples=500, deadline=None)
@given(json_values(), st.lists(_ODD, max_size=3))
def test_check_finite_refuses_exactly_the_values_with_a_non_finite_number(
    value: Any, odd: list[Any]
) -> None:
    """Its fast path (no null in orjson's output) and its walk give one verdict."""
    for candidate in (value, [value, *odd], {"a": value, "odd": odd}):
        assert _refused(candidate) == _has_non_finite(candidate)
