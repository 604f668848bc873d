"""Tool results in the HTTP API's JSON: a 200 body as `structuredContent` and as the text
content (several clients read only `content[0].text`; JSON, or TOON when the call asked for
it), a failure as a tool error (`isError: true`) whose JSON — as text and as
`structuredContent` alike — is the HTTP error body (`core/failures.py: ErrorResponse`, the
very model the HTTP middleware renders) plus the fields the KWeaver context-loader client
reads (`error_code`, `message`, `status`).
"""

from __future__ import annotations

from typing import Any, Protocol

import mcp_types as types
import pydantic_core

from resolver.core.errors import MissingParams, ResolverError
from resolver.core.failures import ErrorResponse, Failure
from resolver.core.jsonio import loads
from resolver.core.languages import Language
from resolver.core.records import record
from resolver.core.toon import ResponseFormat, to_toon
from resolver.mcp.hints import missing_inputs

# The code the KWeaver client (and the Go service's design) gives missing inputs.
MISSING_INPUT_PARAMS = "MISSING_INPUT_PARAMS"


class Body(Protocol):
    """What a tool answers: a response model (`ResponseBody`), or its bytes already written."""

    def to_json(self) -> bytes:
        """The body as UTF-8 JSON."""
        ...


@record
class Written:
    """A body already written as JSON, by the same writer as the HTTP endpoint's 200
    (`Resolved.to_json`: no response model built only to be dumped)."""

    raw: bytes

    def to_json(self) -> bytes:
        """The bytes as written."""
        return self.raw


@record
class Outcome:
    """A tool's result before it is a `CallToolResult`: the text of `content[0]` and the JSON
    of `structuredContent` as bytes. The fast path writes it straight into the JSON-RPC answer
    (`fast_path.py`); the SDK path takes `result()`."""

    text: str
    structured: bytes
    is_error: bool

    def result(self) -> types.CallToolResult:
        """The SDK's result model of it."""
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=self.text)],
            structured_content=loads(self.structured),
            is_error=self.is_error,
        )


def success(body: Body, fmt: ResponseFormat = "json") -> Outcome:
    """The HTTP endpoint's 200 body, as structured content and as JSON (or TOON) text."""
    raw = body.to_json()
    text = to_toon(raw) if fmt == "toon" else raw.decode()
    return Outcome(text, raw, is_error=False)


def failure(failed: Failure) -> Outcome:
    """A tool error whose JSON text carries the HTTP error body of the failure."""
    return _error_outcome(_tool_error_body(failed.body, failed.status, failed.error))


def tool_error_body(
    error: ResolverError, trace_id: str, language: Language | None = None
) -> dict[str, Any]:
    """The tool error body of a resolver error (as `failure` writes it)."""
    return _tool_error_body(ErrorResponse.of(error, trace_id, language), error.http_status, error)


def _tool_error_body(
    body: ErrorResponse, status: int, error: ResolverError | None
) -> dict[str, Any]:
    """The HTTP error body (`_error`, `error`, `missing` for a 422, `trace_id`) plus
    `error_code`, `message` and `status` (the HTTP status the same failure gets).

    Missing inputs get `error_code` MISSING_INPUT_PARAMS and `missing` entries whose `params`
    are `{name, type, hint}` objects (the KWeaver client's shape) next to the HTTP `ask`.
    """
    shown: dict[str, Any] = loads(body.to_json())
    code = body.error.code
    if isinstance(error, MissingParams):
        code = MISSING_INPUT_PARAMS
        shown["missing"] = missing_inputs(error)
    shown["error_code"] = code
    shown["message"] = body.error_line
    shown["status"] = status
    return shown


def _error_outcome(body: dict[str, Any]) -> Outcome:
    # The same body as text (the KWeaver client parses it) and as structuredContent (the
    # successor SDK reads `structuredContent.error.code`). An outputSchema describes only a
    # successful result: clients validate structured content against it unless isError.
    raw = pydantic_core.to_json(body, fallback=str)
    return Outcome(raw.decode(), raw, is_error=True)
