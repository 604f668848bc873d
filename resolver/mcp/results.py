"""Tool results in the HTTP API's JSON: a 200 body as `structuredContent` and as the text
content (several clients read only `content[0].text`; JSON, or TOON when the call asked for
it), an error as a tool error whose JSON text is the HTTP error body plus the fields the
KWeaver context-loader client reads.

The error body repeats `web/models.py: ErrorResponse` as a dict (this package may not import
`web/`); `tests/mcp/test_tools.py` checks the two stay equal.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
import pydantic_core

from resolver.core.errors import MissingParams, ResolverError
from resolver.core.jsonio import loads
from resolver.core.languages import Language, error_line
from resolver.core.responses import ResponseBody
from resolver.core.toon import ResponseFormat, to_toon
from resolver.mcp.hints import missing_inputs

# The code the KWeaver client (and the Go service's design) gives missing inputs.
MISSING_INPUT_PARAMS = "MISSING_INPUT_PARAMS"
INTERNAL_MESSAGE = "internal error; the trace_id identifies the log lines"


def success(body: ResponseBody, fmt: ResponseFormat = "json") -> types.CallToolResult:
    """The HTTP endpoint's 200 body, as structured content and as JSON (or TOON) text."""
    raw = body.to_json()
    text = to_toon(raw) if fmt == "toon" else raw.decode()
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=loads(raw),
        is_error=False,
    )


def failure(
    error: ResolverError, trace_id: str, language: Language | None = None
) -> types.CallToolResult:
    """A tool error whose JSON text carries the HTTP error body of `error`."""
    return _error_result(tool_error_body(error, trace_id, language))


def internal_failure(trace_id: str) -> types.CallToolResult:
    """A tool error for a bug: no detail, only the trace id that finds its log lines."""
    body = {
        **http_error_body("INTERNAL", INTERNAL_MESSAGE, None, trace_id),
        "error_code": "INTERNAL",
        "message": INTERNAL_MESSAGE,
        "status": 500,
    }
    return _error_result(body)


def tool_error_body(
    error: ResolverError, trace_id: str, language: Language | None = None
) -> dict[str, Any]:
    """The HTTP error body (`_error`, `error`, `missing` for a 422, `trace_id`) plus
    `error_code`, `message` and `status` (the HTTP status the same failure gets).

    Missing inputs get `error_code` MISSING_INPUT_PARAMS and `missing` entries whose `params`
    are `{name, type, hint}` objects (the KWeaver client's shape) next to the HTTP `ask`.
    """
    line = error_line(error, language)
    body = http_error_body(error.code, error.message, error.details, trace_id, line)
    code = error.code
    if isinstance(error, MissingParams):
        code = MISSING_INPUT_PARAMS
        body["missing"] = missing_inputs(error)
    body["error_code"] = code
    body["message"] = line
    body["status"] = error.http_status
    return body


def http_error_body(
    code: str, message: str, details: Any, trace_id: str, line: str | None = None
) -> dict[str, Any]:
    """The SPEC §2.1 error shape, as the HTTP API renders it (without a 422's `missing`)."""
    return {
        "_error": line if line is not None else message,
        "error": {"code": code, "message": message, "details": details},
        "trace_id": trace_id,
    }


def _error_result(body: dict[str, Any]) -> types.CallToolResult:
    # No structuredContent: it would have to match the tool's outputSchema, which describes
    # the success body; clients read a tool error's text.
    text = pydantic_core.to_json(body, fallback=str).decode()
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=True)
