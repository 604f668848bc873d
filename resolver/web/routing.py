"""A route of the HTTP API as data (`Route`, one row of `routes.py`'s table) and the header
every business answer carries (`X-OpenBKN-Trace-Recorded`, SPEC §2.3).

What the routes table, `/openapi.json` (`openapi.py`) and the middleware share, kept apart from
the table so that neither the document builder nor the middleware imports the handlers (and,
through them, the service graph): `create_app` hands them the table's facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp.typedefs import Handler
from pydantic import BaseModel

# A body or answer: a model (its JSON Schema goes to components), or a JSON Schema inline.
Schema = type[BaseModel] | dict[str, Any]


@dataclass(frozen=True, slots=True)
class Route:
    """One operation, served at one or more paths."""

    method: Literal["GET", "POST"]
    paths: tuple[str, ...]
    handler: Handler
    summary: str
    ok: Schema | None
    ok_description: str
    body: Schema | None = None
    body_required: bool = True
    errors: dict[int, str] = field(default_factory=dict)
    parameters: tuple[dict[str, Any], ...] = ()
    ok_media_type: str = "application/json"
    also: dict[int, str] = field(default_factory=dict)  # non-error statuses besides 200
    toon: bool = False  # `?response_format=toon` may ask for the 200 in TOON
    # Behind `web/browsers.py`: a foreign Origin or a rebound Host is 403, a POST that is not
    # JSON 415. Every route but the probes (issue 30: the HTTP twins of the MCP tools read
    # the same data and spend the same LLM budget).
    browser_guard: bool = True
    # A business route (SPEC §2.3): every answer, errors included, carries
    # `X-OpenBKN-Trace-Recorded: false`, as upstream answers when it records nothing.
    business: bool = False


# The header and its one value: resolver records nothing in the platform's trace.
TRACE_RECORDED = "X-OpenBKN-Trace-Recorded"
TRACE_RECORDED_VALUE = "false"
TRACE_RECORDED_DOC: dict[str, Any] = {
    TRACE_RECORDED: {
        "description": "always false: resolver records nothing in the platform's trace (SPEC §2.3)",
        "schema": {"type": "string", "enum": [TRACE_RECORDED_VALUE]},
    }
}
