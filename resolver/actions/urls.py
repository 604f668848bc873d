"""Where an agent sends a recalled tool's call."""

from __future__ import annotations

from resolver.core.ids import segment


def tool_api_url(operator_integration_url: str, box_id: str, tool_id: str) -> str:
    """The tool-box proxy URL of a tool (agent-operator-integration)."""
    return _join(
        operator_integration_url,
        "api/agent-operator-integration/internal-v1/tool-box",
        segment(box_id),
        "proxy",
        segment(tool_id),
    )


def mcp_api_url(public_url: str, mcp_id: str, tool_name: str) -> str:
    """This service's MCP proxy URL of an MCP tool (`RESOLVER_PUBLIC_URL` based)."""
    return _join(
        public_url,
        "api/agent-retrieval/in/v1/mcp/proxy",
        segment(mcp_id),
        "tools",
        segment(tool_name),
        "call",
    )


def _join(base: str, *parts: str) -> str:
    return "/".join([base.rstrip("/"), *parts])
