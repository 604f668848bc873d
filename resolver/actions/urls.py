"""Where an agent sends a recalled tool's call."""

from __future__ import annotations

from urllib.parse import quote


def tool_api_url(operator_integration_url: str, box_id: str, tool_id: str) -> str:
    """The tool-box proxy URL of a tool (agent-operator-integration)."""
    return _join(
        operator_integration_url,
        "api/agent-operator-integration/internal-v1/tool-box",
        _segment(box_id, "box_id"),
        "proxy",
        _segment(tool_id, "tool_id"),
    )


def mcp_api_url(public_url: str, mcp_id: str, tool_name: str) -> str:
    """This service's MCP proxy URL of an MCP tool (`RESOLVER_PUBLIC_URL` based)."""
    return _join(
        public_url,
        "api/agent-retrieval/in/v1/mcp/proxy",
        _segment(mcp_id, "mcp_id"),
        "tools",
        _segment(tool_name, "tool_name"),
        "call",
    )


def _segment(value: str, what: str) -> str:
    if not value:
        raise ValueError(f"{what} is empty")
    # safe="" quotes "/" too, and dot segments are spelled out, so an id can never add
    # or remove a path segment.
    if value in {".", ".."}:
        return value.replace(".", "%2E")
    return quote(value, safe="")


def _join(base: str, *parts: str) -> str:
    return "/".join([base.rstrip("/"), *parts])
