"""agent-operator-integration's tool endpoints, as action recall and the MCP proxy use them
(SPEC §8): a tool-box tool's detail, an MCP tool's detail, and an MCP tool call."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from resolver.actions import McpToolDetail, ToolDetail
from resolver.errors import ToolNotFound, UpstreamError
from resolver.jsonio import loads
from resolver.upstream import OPERATOR_INTEGRATION, CallerHeaders, UpstreamClient, segment

_BASE = "/api/agent-operator-integration/internal-v1"

D = TypeVar("D", bound=BaseModel)


async def fetch_tool_detail(
    client: UpstreamClient, box_id: str, tool_id: str, caller: CallerHeaders
) -> ToolDetail:
    """A tool-box tool's name, description and api_spec; 404 when there is no such tool."""
    path = f"{_BASE}/tool-box/{segment(box_id)}/tool/{segment(tool_id)}"
    what = f"tool {tool_id!r} in tool box {box_id!r}"
    details = {"source": "tool", "box_id": box_id, "tool_id": tool_id}
    answer = await _get(client, path, caller, what, details)
    return _detail(ToolDetail, answer, "api_spec", what)


async def fetch_mcp_tool_detail(
    client: UpstreamClient, mcp_id: str, tool_name: str, caller: CallerHeaders
) -> McpToolDetail:
    """An MCP tool's name, description and inputSchema; 404 when there is no such tool."""
    path = f"{_BASE}/mcp/{segment(mcp_id)}/tools/{segment(tool_name)}"
    what = f"MCP tool {tool_name!r} of MCP server {mcp_id!r}"
    details = {"source": "mcp", "mcp_id": mcp_id, "tool_name": tool_name}
    answer = await _get(client, path, caller, what, details)
    return _detail(McpToolDetail, answer, "inputSchema", what)


async def call_mcp_tool(
    client: UpstreamClient,
    mcp_id: str,
    tool_name: str,
    parameters: dict[str, Any],
    caller: CallerHeaders,
    *,
    timeout_s: float,
) -> Any:
    """Run an MCP tool with flat arguments; its JSON answer, whatever its shape.

    Never retried: a tool call may have effects. A 404 is the tool's; another 4xx passes
    through with its message; anything else unreadable or failed is a 502.
    """
    path = f"{_BASE}/mcp/{segment(mcp_id)}/tools/call"
    body = {"tool_name": tool_name, "parameters": parameters}
    try:
        return await client.post_json(path, body, caller=caller, timeout_s=timeout_s)
    except UpstreamError as exc:
        if exc.upstream_status == 404:
            raise _not_found(
                f"MCP tool {tool_name!r} of MCP server {mcp_id!r}",
                {"source": "mcp", "mcp_id": mcp_id, "tool_name": tool_name},
                exc,
            ) from None
        raise


async def _get(
    client: UpstreamClient, path: str, caller: CallerHeaders, what: str, details: dict[str, str]
) -> Any:
    try:
        return await client.get_json(path, caller=caller)
    except UpstreamError as exc:
        if exc.upstream_status == 404:
            raise _not_found(what, details, exc) from None
        raise


def _not_found(what: str, details: dict[str, str], exc: UpstreamError) -> ToolNotFound:
    said = exc.message.partition(": ")[2]
    return ToolNotFound(
        f"{OPERATOR_INTEGRATION} knows no {what}" + (f" ({said})" if said else ""),
        details={**details, "service": OPERATOR_INTEGRATION},
    )


def _detail(model: type[D], answer: Any, schema_key: str, what: str) -> D:
    """The detail model of an answer; a schema sent as a JSON string is read too."""
    if not isinstance(answer, dict):
        raise _unreadable(what, "the answer is not a JSON object")
    fields = dict(answer)
    if fields.get("name") is None:
        fields["name"] = ""
    schema = fields.get(schema_key)
    if isinstance(schema, str):
        try:
            fields[schema_key] = loads(schema) if schema.strip() else None
        except ValueError:
            raise _unreadable(what, f"{schema_key} is a string that is not JSON") from None
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "detail"
        raise _unreadable(what, f"{where}: {first['msg']}") from None


def _unreadable(what: str, reason: str) -> UpstreamError:
    return UpstreamError(
        f"{OPERATOR_INTEGRATION} answered with a detail of {what} resolver cannot read: {reason}",
        service=OPERATOR_INTEGRATION,
        details={"service": OPERATOR_INTEGRATION, "upstream_status": None},
    )
