"""The catalogue MCP clients probe before they connect: `GET …/mcp/info` (SPEC §8).

The successor of the KWeaver SDK asks it once per process to choose its lifecycle contract:
a server that lists lifecycle tools (upstream's `bkn_start_interaction`, …) wants them used,
one that lists none — resolver — is called without them. The tools are the ones `tools/list`
gives, in its order, by name and description.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS
from pydantic import Field

from resolver.core.responses import ResponseBody
from resolver.mcp.tools import TOOLS

# The server's name in `initialize` and here.
SERVER_NAME = "resolver"
# What the SDK's server speaks: the `initialize` handshake revisions, then the stateless one.
PROTOCOL_VERSIONS = (*HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS)


class ServerInfo(ResponseBody):
    """The server's name and version, as `initialize` gives them."""

    name: str
    version: str


class ToolInfo(ResponseBody):
    """One tool of `tools/list`, by name and description."""

    name: str
    description: str


class McpInfoResponse(ResponseBody):
    """The 200 body of `GET …/mcp/info`."""

    server: ServerInfo
    protocol_versions: list[str] = Field(description="the MCP revisions served, oldest first")
    tools: list[ToolInfo] = Field(description="every tool of tools/list; no lifecycle tools")
    trace_id: str


def catalogue(trace_id: str) -> McpInfoResponse:
    """The catalogue as this process serves it."""
    return McpInfoResponse(
        server=ServerInfo(name=SERVER_NAME, version=server_version()),
        protocol_versions=list(PROTOCOL_VERSIONS),
        tools=[ToolInfo(name=tool.name, description=tool.description) for tool in TOOLS],
        trace_id=trace_id,
    )


def server_version() -> str:
    """The version this server gives in `initialize` and `/mcp/info`: the package's."""
    try:
        return version("resolver")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0"
