"""structlog set-up: JSON lines via orjson (or console), with the request's trace_id bound.

Lines are written in batches, off the request's hot path: one `write(2)` per line cost
17–21 µs of CPU per request (py-spy, rules-only). A line goes into a buffer; the buffer is
written when it holds `_MAX_LINES`, `_FLUSH_S` after its first line, and on shutdown
(`flush_logs`, also registered with atexit). A process killed with SIGKILL loses at most the
last `_FLUSH_S` of lines.
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import datetime
import logging
import sys
import time
from typing import Any, Literal, TextIO

import orjson
import structlog

_FLUSH_S = 0.05
_MAX_LINES = 256
# The workers of `--workers N` share stdout: a pipe keeps a write of at most PIPE_BUF (4 KiB on
# Linux) whole, so a batch goes out in writes of whole lines that fit in it.
_PIPE_BUF = 4096


class LineBuffer:
    """Lines for one stream, written together: at most `_FLUSH_S` late, or at once when no
    event loop runs (start-up, the CLI's `resolve`, shutdown)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._lines: list[str] = []
        self._scheduled: asyncio.TimerHandle | None = None

    def write(self, text: str) -> None:
        """Queue `text` (one or more whole lines)."""
        self._lines.append(text)
        if len(self._lines) >= _MAX_LINES:
            self.flush()
        elif self._scheduled is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.flush()
                return
            self._scheduled = loop.call_later(_FLUSH_S, self.flush)

    def flush(self) -> None:
        """Write what is queued, in one call."""
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._scheduled = None
        if not self._lines:
            return
        lines, self._lines = self._lines, []
        try:
            for chunk in _chunks(lines):
                self.stream.write(chunk)
                self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed stdout (the reader went away) must not break a request


def _chunks(lines: list[str]) -> list[str]:
    """The lines joined into pieces of at most `_PIPE_BUF` bytes (a longer line alone)."""
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        length = len(line.encode())
        if current and size + length > _PIPE_BUF:
            chunks.append("".join(current))
            current, size = [], 0
        current.append(line)
        size += length
    if current:
        chunks.append("".join(current))
    return chunks


class _BufferedLogger:
    """A structlog logger whose every level writes one line into a `LineBuffer`."""

    def __init__(self, buffer: LineBuffer) -> None:
        self._buffer = buffer

    def msg(self, message: str) -> None:
        """Queue one rendered line."""
        self._buffer.write(message + "\n")

    log = debug = info = warn = warning = err = error = critical = exception = fatal = msg


class _BufferStream:
    """What the standard library's StreamHandler writes to: the same buffer, same order."""

    def __init__(self, buffer: LineBuffer) -> None:
        self._buffer = buffer

    def write(self, text: str) -> None:
        self._buffer.write(text)

    def flush(self) -> None:
        """Writing is batched; `flush_logs` writes."""


_buffers: list[LineBuffer] = []


def flush_logs() -> None:
    """Write every queued line now (shutdown, and before a process exits)."""
    for buffer in _buffers:
        buffer.flush()


atexit.register(flush_logs)


def _dumps_str(obj: Any, **_: Any) -> str:
    return orjson.dumps(obj, default=str).decode()


class AccessLog:
    """The `http.request` line of every request, written straight into the buffer: the fields
    and their order of structlog's JSON line (the call's keywords, `event`, the bound context,
    `level`, `timestamp`) without its processor chain, 16 µs a request less (py-spy, rules-only).
    Console output, levels above INFO and a structlog configured since (tests' `capture_logs`)
    go through structlog as before."""

    __slots__ = ("_buffer", "_renderer")

    def __init__(self) -> None:
        self._buffer: LineBuffer | None = None  # None: through structlog
        self._renderer: object = None

    def use(self, buffer: LineBuffer | None, renderer: object = None) -> None:
        """Write into this buffer while structlog's chain ends in this renderer (None: through
        structlog)."""
        self._buffer = buffer
        self._renderer = renderer

    def request(self, method: str, path: str, status: int, latency_ms: float) -> None:
        """One request's line."""
        fields = {"method": method, "path": path, "status": status, "latency_ms": latency_ms}
        self.info("resolver.http", "http.request", fields)

    def info(self, name: str, event: str, fields: dict[str, Any]) -> None:
        """An INFO line written this way (the access line, the MCP tool call's): structlog's
        line — `fields` (a fresh dict: the line is built in it), `event`, the bound context,
        `level`, `timestamp` — without its processor chain; through structlog (logger `name`)
        when the access line goes that way."""
        buffer = self._buffer
        if buffer is None or structlog.get_config()["processors"][-1] is not self._renderer:
            structlog.get_logger(name).info(event, **fields)
            return
        line = fields
        line["event"] = event
        for key, value in structlog.contextvars.get_contextvars().items():
            line.setdefault(key, value)
        line["level"] = "info"
        line["timestamp"] = utc_stamp(time.time_ns())
        buffer.write(_dumps_str(line) + "\n")


def context_var(key: str) -> contextvars.ContextVar[Any]:
    """The ContextVar behind structlog's context-local `key`, the one
    `bind_contextvars(key=...)` sets (found through the token that binding returns, and the
    binding undone). Setting it binds `key` for the current context: 0.05 µs, where the
    call costs 0.4 (the request edge binds the trace id this way; issue 33)."""
    token = structlog.contextvars.bind_contextvars(**{key: None})[key]
    token.var.reset(token)
    return token.var


# The last second stamped and its text, as one tuple (replaced whole, never half-updated).
_second: list[tuple[int, str]] = [(-1, "")]


def utc_stamp(ns: int) -> str:
    """`ns` since the epoch as structlog's `TimeStamper(fmt="iso", utc=True)` writes the
    moment (`datetime.isoformat`, `Z` for `+00:00`): microseconds, none when they are 0. The
    date and time of the second are formatted once per second (1.4 → 0.6 µs a line)."""
    second, rest = divmod(ns, 1_000_000_000)
    cached = _second[0]
    if cached[0] != second:
        moment = datetime.datetime.fromtimestamp(second, tz=datetime.UTC).replace(tzinfo=None)
        cached = _second[0] = (second, moment.isoformat())
    micro = rest // 1000
    return f"{cached[1]}.{micro:06d}Z" if micro else f"{cached[1]}Z"


access_log = AccessLog()


def configure_logging(
    level: str = "INFO", fmt: Literal["json", "console"] = "json", stream: TextIO | None = None
) -> None:
    """Route structlog and the standard library's logging (aiohttp, openai) through one renderer."""
    numeric = logging.getLevelNamesMapping()[level.upper()]
    output = stream if stream is not None else sys.stdout
    flush_logs()
    buffer = LineBuffer(output)
    _buffers[:] = [buffer]
    shared: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer(serializer=_dumps_str)
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=lambda *_: _BufferedLogger(buffer),
        cache_logger_on_first_use=True,
    )
    direct = fmt == "json" and numeric <= logging.INFO
    access_log.use(buffer if direct else None, renderer)
    handler = logging.StreamHandler(_BufferStream(buffer))
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
            foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    # Third-party libraries speak only at WARNING and above unless we debug.
    root.setLevel(numeric if numeric <= logging.DEBUG else max(numeric, logging.WARNING))
