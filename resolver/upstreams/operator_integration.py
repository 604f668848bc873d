"""agent-operator-integration: an operator's market record (SPEC §2.2 step 2), a tool-box tool's
detail, an MCP tool's detail, and an MCP tool call (SPEC §8)."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from resolver.core.errors import ResolverError, ToolNotFound, UpstreamError
from resolver.core.ids import segment
from resolver.core.jsonio import loads
from resolver.upstreams.client import CallerHeaders, NotFound, UpstreamClient
from resolver.upstreams.models import McpToolDetail, ToolDetail

_BASE = "/api/agent-operator-integration/internal-v1"

D = TypeVar("D", bound=BaseModel)


async def fetch_operator(client: UpstreamClient, operator_id: str, caller: CallerHeaders) -> Any:
    """The operator's market record, whatever its shape (the caller digs out the schema)."""
    return await client.get_json(f"{_BASE}/operator/market/{segment(operator_id)}", caller=caller)


async def fetch_tool_detail(
    client: UpstreamClient, box_id: str, tool_id: str, caller: CallerHeaders
) -> ToolDetail:
    """A tool-box tool's name, description and api_spec; 404 when there is no such tool."""
    return await _fetch_detail(
        client,
        ToolDetail,
        f"{_BASE}/tool-box/{segment(box_id)}/tool/{segment(tool_id)}",
        caller,
        what=f"tool {tool_id!r} in tool box {box_id!r}",
        details={"source": "tool", "box_id": box_id, "tool_id": tool_id},
        schema_key="api_spec",
    )


async def fetch_mcp_tool_detail(
    client: UpstreamClient, mcp_id: str, tool_name: str, caller: CallerHeaders
) -> McpToolDetail:
    """An MCP tool's name, description and inputSchema; 404 when there is no such tool."""
    return await _fetch_detail(
        client,
        McpToolDetail,
        f"{_BASE}/mcp/{segment(mcp_id)}/tools/{segment(tool_name)}",
        caller,
        what=f"MCP tool {tool_name!r} of MCP server {mcp_id!r}",
        details={"source": "mcp", "mcp_id": mcp_id, "tool_name": tool_name},
        schema_key="inputSchema",
    )


async def call_mcp_tool(
    client: UpstreamClient,
    mcp_id: str,
    tool_name: str,
    parameters: dict[str, Any],
    caller: CallerHeaders,
    *,
    timeout_s: float,
    max_bytes: int,
) -> bytes | bytearray:
    """Run an MCP tool with flat arguments; its 2xx answer's bytes, unparsed (≤ `max_bytes`).

    Never retried: a tool call may have effects. A 404 is the tool's; another 4xx passes
    through with its message; anything else failed, or an answer over `max_bytes`, is a 502.
    """
    path = f"{_BASE}/mcp/{segment(mcp_id)}/tools/call"
    body = {"tool_name": tool_name, "parameters": parameters}
    what = f"MCP tool {tool_name!r} of MCP server {mcp_id!r}"
    details = {"source": "mcp", "mcp_id": mcp_id, "tool_name": tool_name}
    return await client.post_raw(
        path,
        body,
        caller=caller,
        max_bytes=max_bytes,
        timeout_s=timeout_s,
        not_found=_not_found(what, details),
    )


def _not_found(what: str, details: dict[str, str]) -> NotFound:
    def translate(exc: UpstreamError) -> ResolverError:
        said = exc.message.partition(": ")[2]
        return ToolNotFound(
            f"{exc.service} knows no {what}" + (f" ({said})" if said else ""),
            details={**details, "service": exc.service},
        )

    return translate


async def _fetch_detail(
    client: UpstreamClient,
    model: type[D],
    path: str,
    caller: CallerHeaders,
    *,
    what: str,
    details: dict[str, str],
    schema_key: str,
) -> D:
    """The detail model of a tool; a schema sent as a JSON string is read too."""
    answer = await client.get_json(path, caller=caller, not_found=_not_found(what, details))
    described = f"a detail of {what}"
    if not isinstance(answer, dict):
        raise client.unreadable(described, "the answer is not a JSON object")
    fields = dict(answer)
    if fields.get("name") is None:
        fields["name"] = ""
    schema = fields.get(schema_key)
    if isinstance(schema, str):
        try:
            fields[schema_key] = loads(schema) if schema.strip() else None
        except ValueError as exc:
            raise client.unreadable(
                described, f"{schema_key} is a string that is not JSON"
            ) from exc
    return client.parse(model, fields, described)
