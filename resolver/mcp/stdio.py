"""`resolver mcp`: the tools over stdin/stdout, for desktop agents that start their MCP servers
as subprocesses (Claude Desktop, Cursor, …).

The process opens the same services as `resolver serve` (params with its LLM client and
limiter, the upstream sessions, the pipeline, action recall), serves one client until it
closes stdin, then closes them. There is no HTTP request to take identity from: the account
headers and the default knowledge network come from the command line, a fresh trace id from
each call.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from mcp.server.context import ServerRequestContext
from mcp.server.stdio import stdio_server

from resolver.actions.mcp_tools import McpToolCache
from resolver.actions.recall import ActionRecall
from resolver.core.errors import NotConfigured
from resolver.core.lifecycle import Lifecycle
from resolver.core.metrics import Metrics
from resolver.core.settings import Settings
from resolver.kn.inputs import InputCatalog
from resolver.kn.operator_schemas import OperatorSchemas
from resolver.kn.pipeline import Pipeline
from resolver.mcp.server import build_server
from resolver.mcp.tools import CallContext, Services
from resolver.params.service import open_params_service
from resolver.upstreams.client import CallerHeaders, open_upstreams


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
    async with open_services(settings, metrics) as services:
        server = build_server(services, metrics, partial(_context, defaults, settings))
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


@asynccontextmanager
async def open_services(settings: Settings, metrics: Metrics) -> AsyncIterator[Services]:
    """The services `create_app` wires, for a process without the HTTP app."""
    async with (
        open_params_service(settings, None, metrics, Lifecycle()) as (params, _),
        open_upstreams(settings, metrics.observe_upstream_call) as upstreams,
    ):
        schemas = OperatorSchemas(upstreams, settings.operator_schema_ttl_s)
        mcp_tools = McpToolCache(upstreams, settings.mcp_tool_ttl_s)
        yield Services(
            params=params,
            pipeline=Pipeline(params, upstreams, schemas),
            recall=ActionRecall(upstreams, mcp_tools),
            inputs=InputCatalog(upstreams, schemas),
        )


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
