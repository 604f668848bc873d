"""agent-operator-integration: an operator's market record (SPEC §2.2 step 2), a tool-box tool's
detail, an MCP server's tools and an MCP tool call (SPEC §8), on the routes operator-integration
serves today: `GET …/mcp/proxy/{mcp_id}/tools` lists a server's tools (one is picked by name),
`POST …/mcp/proxy/{mcp_id}/tool/call` runs one with `{"tool_name", "parameters"}`."""

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


def _tool_path(box_id: str, tool_id: str) -> str:
    return f"{_BASE}/tool-box/{segment(box_id)}/tool/{segment(tool_id)}"


async def fetch_tool_record(
    client: UpstreamClient, box_id: str, tool_id: str, caller: CallerHeaders
) -> Any:
    """A tool-box tool's record, whatever its shape (a logic property digs out the schema)."""
    return await client.get_json(_tool_path(box_id, tool_id), caller=caller)


async def fetch_tool_detail(
    client: UpstreamClient, box_id: str, tool_id: str, caller: CallerHeaders
) -> ToolDetail:
    """A tool-box tool's name, description and api_spec; 404 when there is no such tool."""
    return await _fetch_detail(
        client,
        ToolDetail,
        _tool_path(box_id, tool_id),
        caller,
        what=f"tool {tool_id!r} in tool box {box_id!r}",
        details={"source": "tool", "box_id": box_id, "tool_id": tool_id},
        schema_key="api_spec",
    )


async def fetch_mcp_tool_detail(
    client: UpstreamClient, mcp_id: str, tool_name: str, caller: CallerHeaders
) -> McpToolDetail:
    """An MCP tool's name, description and inputSchema, picked by name from the server's
    tool list; 404 when the server is unknown or does not list the tool."""
    what = f"MCP tool {tool_name!r} of MCP server {mcp_id!r}"
    details = {"source": "mcp", "mcp_id": mcp_id, "tool_name": tool_name}
    answer = await client.get_json(
        f"{_BASE}/mcp/proxy/{segment(mcp_id)}/tools",
        caller=caller,
        not_found=_not_found(what, details),
    )
    described = f"the tool list of MCP server {mcp_id!r}"
    tools = answer.get("tools") if isinstance(answer, dict) else None
    if not isinstance(tools, list):
        raise client.unreadable(described, "there is no tools list")
    for tool in tools:
        if isinstance(tool, dict) and tool.get("name") == tool_name:
            detail = f"a detail of {what}"
            return client.parse(
                McpToolDetail, _schema_read(client, tool, "inputSchema", detail), detail
            )
    raise ToolNotFound(
        f"{client.service} lists no {what} ({len(tools)} tools listed)",
        details={**details, "service": client.service},
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
    path = f"{_BASE}/mcp/proxy/{segment(mcp_id)}/tool/call"
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
    """The detail model of a tool; a schema sent as a JSON string is read too, and a tool-box
    tool's `api_spec` is found under `metadata` when it is not at the top."""
    answer = await client.get_json(path, caller=caller, not_found=_not_found(what, details))
    described = f"a detail of {what}"
    if not isinstance(answer, dict):
        raise client.unreadable(described, "the answer is not a JSON object")
    fields = dict(answer)
    metadata = fields.get("metadata")
    if fields.get(schema_key) is None and isinstance(metadata, dict):
        # operator-integration's tool record keeps the OpenAPI operation in metadata.api_spec.
        fields[schema_key] = metadata.get(schema_key)
    return client.parse(model, _schema_read(client, fields, schema_key, described), described)


def _schema_read(
    client: UpstreamClient, fields: dict[str, Any], schema_key: str, described: str
) -> dict[str, Any]:
    """`fields` with a null name as "" and a schema sent as a JSON string parsed."""
    fields = dict(fields)
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
    return fields
