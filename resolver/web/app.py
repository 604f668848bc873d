"""The application factory: wiring only — no I/O, no environment reads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from functools import cache
from pathlib import Path
from typing import Any

from aiohttp import web

from resolver.core import tracing
from resolver.core.lifecycle import Lifecycle
from resolver.core.logs import flush_logs
from resolver.core.metrics import Metrics
from resolver.core.settings import Settings
from resolver.core.startup import warn_if_no_public_url
from resolver.mcp.http import StreamableHttp
from resolver.services import open_services
from resolver.web.appkeys import (
    BUSINESS_PATHS_KEY,
    LIFECYCLE_KEY,
    METRICS_KEY,
    OFFLOAD_KEY,
    OPENAPI_KEY,
    SETTINGS_KEY,
)
from resolver.web.browsers import BrowserGuard
from resolver.web.middleware import (
    UNMATCHED,
    UNMATCHED_PATH,
    expectation,
    no_route,
    request_edge,
    tracing_middleware,
)
from resolver.web.openapi import openapi_document
from resolver.web.routes import BUSINESS_PATHS, ROUTES, router_path
from resolver.web.served import Board, Served
from resolver.web.servicekeys import MCP_SERVER_KEY, SERVICES_KEY


@cache
def _openapi() -> dict[str, Any]:
    """/openapi.json of the routes table, built once per process."""
    return openapi_document(ROUTES)


def create_app(
    settings: Settings,
    *,
    prompts_dir: Path | None = None,
    metrics: Metrics | None = None,
    board: Board | None = None,
) -> web.Application:
    """Build the aiohttp application for these settings (`metrics`: the process's, when it
    serves them across workers; else the app's own; `board`: the worker's, under `--workers
    N`)."""
    metrics = metrics if metrics is not None else Metrics()
    lifecycle = Lifecycle()
    served = Served(settings, metrics, lifecycle, _openapi(), board=board)
    # Tracing is on only when the process installed a provider (an OTLP endpoint at start-up,
    # or a test's): then a SERVER span wraps everything, the request edge included. Else
    # there is no aiohttp middleware: each route's handler is behind the edge.
    app = web.Application(
        middlewares=[tracing_middleware] if tracing.enabled() else [],
        client_max_size=settings.max_body_bytes,
    )
    app[SETTINGS_KEY] = settings
    app[OPENAPI_KEY] = served.openapi
    app[BUSINESS_PATHS_KEY] = BUSINESS_PATHS
    app[METRICS_KEY] = metrics
    app[LIFECYCLE_KEY] = lifecycle
    screen = BrowserGuard(settings).screen
    # Every answer is finished (`bodies.finish`: Server, the connection of an unread body) by
    # the edge, or by `expectation` for a 417: the application has no on_response_prepare hook.
    expect = expectation(served)
    for route in ROUTES:
        for path in route.paths:
            pattern = router_path(path)
            resource = app.router.add_resource(pattern)
            label = (resource.canonical, resource.canonical in BUSINESS_PATHS)
            guarded = screen if route.browser_guard else None
            edge = request_edge(served, label, route.handler, guarded)
            resource.add_route(route.method, edge, expect_handler=expect)
    # Last: what no route above serves, answered 404 or 405 by the edge in the SPEC's shape.
    edge = request_edge(served, UNMATCHED, no_route)
    app.router.add_route("*", UNMATCHED_PATH, edge, expect_handler=expect)

    async def services(app: web.Application) -> AsyncIterator[None]:
        # The one service graph (resolver/services.py), opened on the serving loop; the MCP
        # endpoint runs its tools on the same objects, no copies.
        warn_if_no_public_url(settings)
        async with open_services(
            settings, metrics=metrics, lifecycle=lifecycle, prompts_dir=prompts_dir
        ) as opened:
            app[SERVICES_KEY] = served.services = opened
            app[OFFLOAD_KEY] = served.offload = opened.offload
            server = StreamableHttp(
                opened,
                metrics,
                max_body_bytes=settings.max_body_bytes,
                fast_path=settings.mcp_fast_path,
            )
            async with server.running():
                app[MCP_SERVER_KEY] = served.mcp_server = server
                yield

    async def sample_gauges(app: web.Application) -> AsyncIterator[None]:
        # Under --workers N, the gauges each worker reads from its own state (core/metrics.py).
        async with metrics.sampling():
            yield

    app.cleanup_ctx.append(services)
    app.cleanup_ctx.append(sample_gauges)
    app.on_cleanup.append(_flush_logs)
    return app


async def _flush_logs(app: web.Application) -> None:
    """Write the log lines still buffered before the process goes."""
    flush_logs()
