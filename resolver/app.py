"""The application factory: wiring only — no I/O, no environment reads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web

from resolver import action_handlers, handlers, kn_handlers
from resolver.action_recall import ActionRecall
from resolver.appkeys import (
    ACTION_RECALL_KEY,
    KN_RESOLVER_KEY,
    MCP_PROXY_KEY,
    METRICS_KEY,
    PROBE_KEY,
    RESOLVER_KEY,
    SETTINGS_KEY,
    UPSTREAMS_KEY,
)
from resolver.bodies import BODY_TIMEOUT_S
from resolver.engine import open_resolver
from resolver.kn_resolver import KnResolver
from resolver.mcp_proxy import McpProxy
from resolver.mcp_tool_cache import McpToolCache
from resolver.metrics import Metrics
from resolver.middleware import request_middleware
from resolver.operator_schemas import OperatorSchemas
from resolver.settings import Settings
from resolver.upstream import open_upstreams


def create_app(settings: Settings, *, prompts_dir: Path | None = None) -> web.Application:
    """Build the aiohttp application for these settings."""
    app = web.Application(
        middlewares=[request_middleware],
        client_max_size=settings.max_body_bytes,
    )
    app[SETTINGS_KEY] = settings
    app[BODY_TIMEOUT_S] = settings.request_timeout_s
    metrics = app[METRICS_KEY] = Metrics()
    app.router.add_post("/v1/dynamic-params", handlers.dynamic_params)
    app.router.add_get("/healthz", handlers.healthz)
    app.router.add_get("/readyz", handlers.readyz)
    app.router.add_get("/openapi.json", handlers.openapi)
    app.router.add_get("/metrics", handlers.metrics)
    for path in (kn_handlers.PRIVATE_PATH, kn_handlers.PUBLIC_PATH):
        app.router.add_post(path, kn_handlers.logic_property_resolver)
    for path in (action_handlers.PRIVATE_PATH, action_handlers.PUBLIC_PATH):
        app.router.add_post(path, action_handlers.get_action_info)
    app.router.add_post(action_handlers.MCP_PROXY_PATH, action_handlers.mcp_tool_call)

    async def engine(app: web.Application) -> AsyncIterator[None]:
        async with open_resolver(settings, prompts_dir, metrics) as (resolver, probe):
            app[RESOLVER_KEY] = resolver
            if probe is not None:
                app[PROBE_KEY] = probe
            yield

    async def upstreams(app: web.Application) -> AsyncIterator[None]:
        # After `engine`: the pipeline drives the engine that context opened.
        async with open_upstreams(settings, metrics.observe_upstream_call) as clients:
            app[UPSTREAMS_KEY] = clients
            schemas = OperatorSchemas(clients, settings.operator_schema_ttl_s)
            app[KN_RESOLVER_KEY] = KnResolver(app[RESOLVER_KEY], clients, schemas)
            # One MCP tool cache: a recall primes it for the proxy call that follows.
            mcp_tools = McpToolCache(clients, settings.mcp_tool_ttl_s)
            app[ACTION_RECALL_KEY] = ActionRecall(clients, mcp_tools)
            app[MCP_PROXY_KEY] = McpProxy(
                clients, mcp_tools, call_timeout_s=settings.mcp_call_timeout_s
            )
            yield

    app.cleanup_ctx.append(engine)
    app.cleanup_ctx.append(upstreams)
    return app
