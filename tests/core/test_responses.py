"""A response body written by orjson from its fields is byte for byte the body pydantic writes;
whatever orjson cannot write exactly goes pydantic's way."""

from __future__ import annotations

import dataclasses
import datetime
import enum
from typing import Any

import pydantic_core
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.core.failures import ErrorInfo, ErrorResponse
from resolver.core.responses import ResponseBody, _plain_fields
from resolver.params.models import ResolveResponse
from resolver.params.resolution import Resolved
from resolver.windows.models import TimeWindowResponse

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()  # beyond 64 bits too: orjson refuses, pydantic writes them
    | st.floats()  # NaN and infinities: both write null
    | st.text()  # lone surrogates: orjson refuses
)
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def by_pydantic(body: ResponseBody) -> bytes:
    return pydantic_core.to_json(body, by_alias=True, fallback=str)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    params=st.dictionaries(st.text(), st.dictionaries(st.text(), _json, max_size=4), max_size=3),
    debug=st.none() | st.dictionaries(st.text(), _json, max_size=3),
)
def test_a_resolve_body_is_the_bytes_pydantic_writes(
    params: dict[str, dict[str, Any]], debug: dict[str, Any] | None
) -> None:
    body = ResolveResponse(dynamic_params=params, trace_id="t" * 32, debug=debug)
    assert body.to_json() == by_pydantic(body)


class Colour(enum.Enum):
    RED = "red"


class Name(str):
    pass


@dataclasses.dataclass
class Point:
    x: int


def test_values_orjson_writes_its_own_way_go_pydantics_way() -> None:
    when = datetime.datetime(2025, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
    odd: list[Any] = [when, when.date(), Point(1), Colour.RED, Name("x"), 2**70, {1: "a"}, b"x"]
    for value in odd:
        body = ResolveResponse(dynamic_params={"p": {"v": value}}, trace_id="t")
        assert body.to_json() == by_pydantic(body), value


def test_a_time_window_body_is_the_bytes_pydantic_writes() -> None:
    body = TimeWindowResponse(
        instant=False,
        start=1_700_000_000_000,
        end=1_700_086_399_999,
        step="day",
        unit="ms",
        now=1_700_100_000_000,
        timezone="Asia/Shanghai",
        start_iso="2023-11-15T06:13:20.000+08:00",
        end_iso=None,
        expression="now-1d/d",
        read=["昨天"],
        explanation="昨天：…",
        trace_id="abc",
    )
    assert _plain_fields(TimeWindowResponse) is not None
    assert body.to_json() == by_pydantic(body)


def test_a_body_with_a_nested_model_goes_pydantics_way() -> None:
    assert _plain_fields(ErrorResponse) is None
    body = ErrorResponse(
        error_line="x", error=ErrorInfo(code="X", message="m", details={}), trace_id="t"
    )
    assert body.to_json() == by_pydantic(body)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    params=st.dictionaries(st.text(), st.dictionaries(st.text(), _json, max_size=4), max_size=3),
    debug=st.none() | st.dictionaries(st.text(), _json, max_size=3),
    usage=st.none() | st.dictionaries(st.text(), _json, max_size=3),
)
def test_a_resolved_answer_written_without_its_model_is_the_models_bytes(
    params: dict[str, dict[str, Any]], debug: dict[str, Any] | None, usage: dict[str, Any] | None
) -> None:
    resolved = Resolved(params, debug, usage=usage)
    body = resolved.response("t" * 32)
    assert resolved.to_json("t" * 32) == body.to_json() == by_pydantic(body)


def test_a_resolved_answer_with_values_orjson_writes_its_own_way_is_the_models_bytes() -> None:
    when = datetime.datetime(2025, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
    odd: list[Any] = [when, when.date(), Point(1), Colour.RED, Name("x"), 2**70, {1: "a"}, b"x"]
    for value in odd:
        resolved = Resolved({"p": {"v": value}}, None)
        assert resolved.to_json("t") == by_pydantic(resolved.response("t")), value
