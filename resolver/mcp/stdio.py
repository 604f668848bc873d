"""`resolver mcp`: the tools over stdin/stdout, for desktop agents that start their MCP servers
as subprocesses (Claude Desktop, Cursor, …).

The process opens the same service graph as `resolver serve` (`resolver/services.py`), serves
one client until it closes stdin, then closes it. There is no HTTP request to take identity
from: the account headers and the default knowledge network come from the command line, a
fresh trace id from each call.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import partial
from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.stdio import stdio_server

from resolver.core.errors import NotConfigured
from resolver.core.metrics import Metrics
from resolver.core.settings import Settings
from resolver.mcp.exchange import CallContext
from resolver.mcp.server import build_server
from resolver.services import open_services
from resolver.upstreams.client import CallerHeaders


@dataclass(frozen=True, slots=True)
class StdioDefaults:
    """What every call of this process carries: the knowledge network (as `X-Kn-ID` would)
    and the account headers sent upstream."""

    kn_id: str | None = None
    account_id: str | None = None
    account_type: str | None = None


async def serve_stdio(settings: Settings, defaults: StdioDefaults) -> None:
    """Serve the tools on stdin/stdout until the client closes them."""
    metrics = Metrics()
    async with open_services(settings, metrics=metrics) as services:
        server = build_server(services, metrics, partial(_context, defaults, settings))
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


def _context(
    defaults: StdioDefaults, settings: Settings, ctx: ServerRequestContext[Any, Any]
) -> CallContext:
    trace_id = uuid.uuid4().hex
    return CallContext(
        trace_id=trace_id,
        caller=CallerHeaders(trace_id, defaults.account_id, defaults.account_type),
        kn_id=defaults.kn_id,
        public_url=partial(_public_url, settings),
    )


def _public_url(settings: Settings) -> str:
    if settings.public_url is None:
        raise NotConfigured(
            "RESOLVER_PUBLIC_URL is unset: over stdio an MCP action's api_url needs the "
            "address its callers reach a resolver service at"
        )
    return settings.public_url
