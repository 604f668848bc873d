"""The access line written straight into the buffer is the line structlog writes: the same
fields in the same order, the bound context included; console output goes through structlog."""

from __future__ import annotations

import datetime
import io
import logging
import re
from collections.abc import Iterator

import orjson
import pytest
import structlog
import structlog.testing

from resolver.core.logs import access_log, configure_logging, context_var, flush_logs, utc_stamp

_STAMP = re.compile(r'"timestamp":"[^"]+"')


@pytest.fixture(autouse=True)
def logging_as_found() -> Iterator[None]:
    """Each test here configures logging; later modules find it as it was (suites that read
    the log from stdout, e.g. tests/system/test_faults_upstreams.py, saw nothing after these)."""
    config = structlog.get_config()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    flush_logs()
    structlog.configure(**config)
    access_log.use(None)
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    out = io.StringIO()
    configure_logging("INFO", "json", stream=out)
    yield out
    configure_logging("INFO", "json", stream=io.StringIO())
    structlog.contextvars.clear_contextvars()


def lines(out: io.StringIO) -> list[str]:
    flush_logs()
    return out.getvalue().splitlines()


def test_the_direct_access_line_is_structlogs_line(stream: io.StringIO) -> None:
    structlog.contextvars.bind_contextvars(trace_id="abc123", conversation_id="c-1")
    access_log.request("POST", "/v1/dynamic-params", 200, 0.42)
    structlog.get_logger("resolver.http").info(
        "http.request", method="POST", path="/v1/dynamic-params", status=200, latency_ms=0.42
    )
    direct, through = lines(stream)
    assert _STAMP.sub("", direct) == _STAMP.sub("", through)
    fields = orjson.loads(direct)
    assert list(fields)[:5] == ["method", "path", "status", "latency_ms", "event"]
    assert {fields["trace_id"], fields["conversation_id"]} == {"abc123", "c-1"}
    assert list(fields)[-2:] == ["level", "timestamp"]
    assert fields["timestamp"].endswith("Z")
    assert fields["level"] == "info"


def test_the_direct_tool_call_line_is_structlogs_line(stream: io.StringIO) -> None:
    structlog.contextvars.bind_contextvars(trace_id="abc123", interaction_id="i-1")
    fields = {"tool": "resolve_time_window", "outcome": "ok", "latency_ms": 1.25}
    access_log.info("resolver.mcp", "mcp.tool_call", dict(fields))
    structlog.get_logger("resolver.mcp").info("mcp.tool_call", **fields)
    direct, through = lines(stream)
    assert _STAMP.sub("", direct) == _STAMP.sub("", through)
    written = orjson.loads(direct)
    assert list(written)[:4] == ["tool", "outcome", "latency_ms", "event"]
    assert written["event"] == "mcp.tool_call"
    assert {written["trace_id"], written["interaction_id"]} == {"abc123", "i-1"}


def test_console_output_and_a_quieter_level_go_through_structlog() -> None:
    out = io.StringIO()
    configure_logging("INFO", "console", stream=out)
    try:
        access_log.request("GET", "/healthz", 200, 0.1)
        [line] = lines(out)
        assert "http.request" in line
        assert not line.startswith("{")
        quiet = io.StringIO()
        configure_logging("WARNING", "json", stream=quiet)
        access_log.request("GET", "/healthz", 200, 0.1)
        assert lines(quiet) == []
    finally:
        configure_logging("INFO", "json", stream=io.StringIO())


def test_a_capture_since_configured_sees_the_line(stream: io.StringIO) -> None:
    with structlog.testing.capture_logs() as captured:
        access_log.request("GET", "/healthz", 200, 0.1)
    assert [entry["event"] for entry in captured] == ["http.request"]
    assert lines(stream) == []
    access_log.request("GET", "/healthz", 200, 0.1)
    assert len(lines(stream)) == 1


def test_the_access_lines_timestamp_is_structlogs_iso_form() -> None:
    # The same text as `datetime.isoformat` (structlog's TimeStamper) for the same microsecond:
    # within a second, across seconds and days, and on a whole second (no fraction written).
    base = 1_762_996_342 * 1_000_000_000
    for ns in (base, base + 1_000, base + 999_999_999, base + 1_000_000_000, base - 1, 0):
        moment = datetime.datetime.fromtimestamp(ns // 1_000_000_000, tz=datetime.UTC)
        moment = moment.replace(microsecond=ns % 1_000_000_000 // 1000)
        assert utc_stamp(ns) == moment.isoformat().replace("+00:00", "Z"), ns


def test_a_context_var_set_binds_its_key_as_bind_contextvars_does(stream: io.StringIO) -> None:
    context_var("trace_id").set("t-1")
    structlog.contextvars.bind_contextvars(conversation_id="c-2")
    structlog.get_logger("resolver.http").info("x")
    access_log.request("GET", "/healthz", 200, 0.1)
    through, direct = (orjson.loads(line) for line in lines(stream))
    assert through["trace_id"] == direct["trace_id"] == "t-1"
    assert structlog.contextvars.get_contextvars() == {"trace_id": "t-1", "conversation_id": "c-2"}
    structlog.contextvars.bind_contextvars(trace_id="t-2")
    assert context_var("trace_id").get() == "t-2"  # the very variable structlog binds
