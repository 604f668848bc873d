"""structlog set-up: JSON lines via orjson (or console), with the request's trace_id bound."""

from __future__ import annotations

import logging
import sys
from typing import Any, Literal, TextIO

import orjson
import structlog


def _dumps_str(obj: Any, **_: Any) -> str:
    return orjson.dumps(obj, default=str).decode()


def configure_logging(
    level: str = "INFO", fmt: Literal["json", "console"] = "json", stream: TextIO | None = None
) -> None:
    """Route structlog and the standard library's logging (aiohttp, openai) through one renderer."""
    numeric = logging.getLevelNamesMapping()[level.upper()]
    output = stream if stream is not None else sys.stdout
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
        # One write per line (message and newline together): the workers of `--workers N`
        # share stdout, and a pipe keeps writes under 4 KiB whole, not two writes in a row.
        logger_factory=structlog.WriteLoggerFactory(output),
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler(output)
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
