"""One failure policy for HTTP and MCP (`core/failures.py`): the same body, the same status and
headers, the same log line with the cause chain — whichever face met the failure."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

import orjson
import pytest
import structlog
from structlog.testing import capture_logs

from resolver.core.errors import LLMUnavailable, MissingParams, NotFound, Overloaded
from resolver.core.failures import INTERNAL_MESSAGE, ErrorResponse, Failure, causes, failure_of
from resolver.mcp import results

log = structlog.get_logger("test")


def _failed(exc: Exception, **context: Any) -> tuple[Failure, list[MutableMapping[str, Any]]]:
    with capture_logs() as logged:
        failure = failure_of(
            exc, "trace-1", None, log, failed="x.failed", crashed="x.crashed", **context
        )
    return failure, logged


def _chained() -> LLMUnavailable:
    try:
        try:
            raise ConnectionRefusedError(111, "Connection refused to 10.0.0.1:443")
        except OSError as exc:
            raise LLMUnavailable("the LLM failed after 3 attempt(s)") from exc
    except LLMUnavailable as error:
        return error


def test_a_5xx_is_answered_in_the_spec_shape_and_logged_with_its_cause_chain() -> None:
    failure, logged = _failed(_chained(), tool="t")
    assert failure.status == 502
    assert failure.code == "LLM_UNAVAILABLE"
    body = orjson.loads(failure.body.to_json())
    assert body == {
        "_error": "the LLM failed after 3 attempt(s)",
        "error": {
            "code": "LLM_UNAVAILABLE",
            "message": "the LLM failed after 3 attempt(s)",
            "details": None,
        },
        "trace_id": "trace-1",
    }
    [line] = logged
    assert line["event"] == "x.failed"
    assert line["tool"] == "t"
    assert line["cause"] == [
        "ConnectionRefusedError: [Errno 111] Connection refused to 10.0.0.1:443"
    ]


def test_an_sdk_exception_in_the_chain_shows_only_its_type() -> None:
    class SdkError(Exception):
        pass

    error = LLMUnavailable("down")
    error.__cause__ = SdkError("upstream body: secret")
    assert causes(error) == ["SdkError"]


def test_a_4xx_is_not_logged_and_keeps_its_headers() -> None:
    failure, logged = _failed(Overloaded("busy", retry_after_s=3))
    assert failure.status == 503  # a 5xx, logged
    assert failure.headers == {"Retry-After": "3"}
    assert [line["event"] for line in logged] == ["x.failed"]
    failure, logged = _failed(NotFound("no such thing"))
    assert (failure.status, failure.code, logged) == (404, "NOT_FOUND", [])


def test_a_bug_is_500_internal_without_detail_and_logged_with_its_traceback() -> None:
    failure, logged = _failed(KeyError("secret-key"))
    assert failure.status == 500
    assert failure.error is None
    body = orjson.loads(failure.body.to_json())
    assert body["error"] == {"code": "INTERNAL", "message": INTERNAL_MESSAGE, "details": None}
    assert "secret-key" not in failure.body.to_json().decode()
    [line] = logged
    assert line["event"] == "x.crashed"
    assert isinstance(line["exc_info"], KeyError)


@pytest.mark.parametrize(
    "exc",
    [
        _chained(),
        KeyError("k"),
        MissingParams("missing p: a | ask: x", missing=[]),
        Overloaded("busy", retry_after_s=3),
        NotFound("no such thing"),
    ],
    ids=["llm", "bug", "missing", "overload", "not-found"],
)
def test_an_mcp_tool_error_carries_the_body_the_http_face_renders(exc: Exception) -> None:
    failure, _ = _failed(exc)
    result = results.failure(failure).result()
    assert result.is_error is True
    [content] = result.content
    tool_error = orjson.loads(content.text)  # type: ignore[union-attr]
    # The same body as text and as structuredContent (clients read `error.code` there).
    assert result.structured_content == tool_error
    http = orjson.loads(failure.body.to_json())
    http.pop("missing", None)  # a 422's entries take the KWeaver client's shape over MCP
    assert {k: tool_error[k] for k in http} == http
    assert tool_error["error"]["code"] == failure.code
    assert tool_error["status"] == failure.status
    assert tool_error["message"] == http["_error"]


def _said(message: str) -> None:
    raise ValueError(message)


def _cut() -> LLMUnavailable:
    try:
        try:
            _said("the service said: secret")
        except ValueError:
            raise LLMUnavailable("down") from None
    except LLMUnavailable as error:
        return error
    raise AssertionError("not raised")


def test_a_chain_cut_with_from_none_ends_there() -> None:
    assert causes(_cut()) == []


def test_the_error_body_is_one_model() -> None:
    body = ErrorResponse.of(
        MissingParams("m", missing=[{"property": "p", "params": ["a"], "ask": "x"}]), "t"
    )
    assert orjson.loads(body.to_json())["missing"] == [
        {"property": "p", "params": ["a"], "ask": "x"}
    ]
