"""The application factory: wiring only — no I/O, no environment reads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web

from resolver.actions.mcp_tools import McpToolCache
from resolver.actions.proxy import McpProxy
from resolver.actions.recall import ActionRecall
from resolver.core import tracing
from resolver.core.lifecycle import Lifecycle
from resolver.core.logs import flush_logs
from resolver.core.metrics import Metrics
from resolver.core.settings import Settings
from resolver.kn.inputs import InputCatalog
from resolver.kn.operator_schemas import OperatorSchemas
from resolver.kn.pipeline import Pipeline
from resolver.mcp.http import StreamableHttp
from resolver.mcp.tools import Services
from resolver.params.service import open_params_service
from resolver.upstreams.client import open_upstreams
from resolver.web.appkeys import (
    ACTION_RECALL_KEY,
    INPUTS_KEY,
    LIFECYCLE_KEY,
    MCP_PROXY_KEY,
    MCP_SERVER_KEY,
    METRICS_KEY,
    OPENAPI_KEY,
    PARAMS_KEY,
    PIPELINE_KEY,
    PROBE_KEY,
    SETTINGS_KEY,
    UPSTREAMS_KEY,
)
from resolver.web.bodies import close_if_body_unread
from resolver.web.handlers import warn_if_no_public_url
from resolver.web.middleware import request_middleware, tracing_middleware
from resolver.web.openapi import openapi_document
from resolver.web.routes import ROUTES, router_path


def create_app(settings: Settings, *, prompts_dir: Path | None = None) -> web.Application:
    """Build the aiohttp application for these settings."""
    middlewares = [request_middleware]
    # Tracing is on only when the process installed a provider (an OTLP endpoint at start-up,
    # or a test's): then a SERVER span wraps everything, our middleware included.
    if tracing.enabled():
        middlewares.insert(0, tracing_middleware)
    app = web.Application(
        middlewares=middlewares,
        client_max_size=settings.max_body_bytes,
    )
    app[SETTINGS_KEY] = settings
    app.on_response_prepare.append(close_if_body_unread)
    app[OPENAPI_KEY] = openapi_document()
    metrics = app[METRICS_KEY] = Metrics()
    lifecycle = app[LIFECYCLE_KEY] = Lifecycle()
    for route in ROUTES:
        for path in route.paths:
            app.router.add_route(route.method, router_path(path), route.handler)

    async def params(app: web.Application) -> AsyncIterator[None]:
        async with open_params_service(settings, prompts_dir, metrics, lifecycle) as (
            service,
            probe,
        ):
            app[PARAMS_KEY] = service
            if probe is not None:
                app[PROBE_KEY] = probe
            yield

    async def upstreams(app: web.Application) -> AsyncIterator[None]:
        # After `params`: the pipeline drives the params service that context opened.
        warn_if_no_public_url(settings)
        async with open_upstreams(settings, metrics.observe_upstream_call) as clients:
            app[UPSTREAMS_KEY] = clients
            schemas = OperatorSchemas(clients, settings.operator_schema_ttl_s)
            app[PIPELINE_KEY] = Pipeline(app[PARAMS_KEY], clients, schemas)
            app[INPUTS_KEY] = InputCatalog(clients, schemas)
            # One MCP tool cache: a recall primes it for the proxy call that follows.
            mcp_tools = McpToolCache(clients, settings.mcp_tool_ttl_s)
            app[ACTION_RECALL_KEY] = ActionRecall(clients, mcp_tools)
            app[MCP_PROXY_KEY] = McpProxy(
                clients,
                mcp_tools,
                call_timeout_s=settings.mcp_call_timeout_s,
                max_inflight=settings.mcp_max_inflight,
                max_answer_bytes=settings.mcp_max_answer_bytes,
            )
            yield

    async def mcp(app: web.Application) -> AsyncIterator[None]:
        # After `upstreams`: the MCP tools run on the services opened above, no copies.
        services = Services(
            app[PARAMS_KEY], app[PIPELINE_KEY], app[ACTION_RECALL_KEY], app[INPUTS_KEY]
        )
        server = StreamableHttp(services, metrics, max_body_bytes=settings.max_body_bytes)
        async with server.running():
            app[MCP_SERVER_KEY] = server
            yield

    app.cleanup_ctx.append(params)
    app.cleanup_ctx.append(upstreams)
    app.cleanup_ctx.append(mcp)
    app.on_cleanup.append(_flush_logs)
    return app


async def _flush_logs(app: web.Application) -> None:
    """Write the log lines still buffered before the process goes."""
    flush_logs()
