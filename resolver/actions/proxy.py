"""The MCP proxy (SPEC §8): flat LLM arguments in, checked against the tool's own
`inputSchema`, then `{"tool_name", "parameters"}` to agent-operator-integration."""

from __future__ import annotations

from typing import Any

import structlog

from resolver.actions.mcp_tools import McpToolCache
from resolver.core.errors import InvalidArguments
from resolver.toolschema import ArgumentViolation, validate_arguments
from resolver.upstreams.client import OPERATOR_INTEGRATION, CallerHeaders, Upstreams
from resolver.upstreams.operator_integration import call_mcp_tool

log = structlog.get_logger("resolver.mcp_proxy")

_SHOWN_VIOLATIONS = 5


class McpProxy:
    """Validates and forwards one MCP tool call; holds no per-request state."""

    def __init__(self, upstreams: Upstreams, tools: McpToolCache, *, call_timeout_s: float) -> None:
        self.upstreams = upstreams
        self.tools = tools
        self.call_timeout_s = call_timeout_s

    async def call(
        self, mcp_id: str, tool_name: str, arguments: dict[str, Any], caller: CallerHeaders
    ) -> Any:
        """The tool's JSON answer; 400 `INVALID_ARGUMENTS` before any call when they break
        the schema, 404 when the tool is unknown, 502 when it cannot be run."""
        client = self.upstreams.get(OPERATOR_INTEGRATION)
        detail = await self.tools.get(mcp_id, tool_name, caller)
        violations = validate_arguments(detail.input_schema, arguments)
        if violations:
            log.info(
                "mcp_proxy.invalid_arguments",
                mcp_id=mcp_id,
                tool_name=tool_name,
                violations=len(violations),
            )
            raise _invalid(tool_name, violations)
        return await call_mcp_tool(
            client, mcp_id, tool_name, arguments, caller, timeout_s=self.call_timeout_s
        )


def _invalid(tool_name: str, violations: list[ArgumentViolation]) -> InvalidArguments:
    # One line: a message may quote a value that holds line breaks.
    shown = "; ".join(" ".join(str(v).split()) for v in violations[:_SHOWN_VIOLATIONS])
    more = len(violations) - _SHOWN_VIOLATIONS
    suffix = f" (+{more} more)" if more > 0 else ""
    return InvalidArguments(
        f"arguments break the inputSchema of MCP tool {tool_name!r}: {shown}{suffix}",
        details=[{"path": v.path, "message": v.message} for v in violations],
    )
